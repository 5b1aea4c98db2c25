"""``ruleproof loops``: search cards for infinite and mandatory loops (a click command the main CLI registers)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

import click

from ruleproof.cards.overrides import load_overrides
from ruleproof.cards.pool import load_deck, load_pool
from ruleproof.errors import InputError
from ruleproof.loops.lasso import Category
from ruleproof.loops.search import LoopReport, find_loops, report_json
from ruleproof.scale.isolation import fresh_solver_context

__all__ = ["loops", "render_report"]

EXIT_TEXT = """\b
Exit status:
  0  no unbounded or mandatory loop found
  1  some unbounded or mandatory loop found (with a replayed trace)
  2  bad input or internal error
  3  some candidate unknown (solver timeout, or a model the encoder could not build), no loop found
"""


def _streams() -> tuple[TextIO, TextIO]:
    obj = click.get_current_context().obj
    out = getattr(obj, "out", None)
    err = getattr(obj, "err", None)
    return (out if out is not None else sys.stdout, err if err is not None else sys.stderr)


def render_report(report: LoopReport) -> str:
    """The report as plain text: loops first, then the other candidates in one line each."""
    lines: list[str] = []
    order = [Category.MANDATORY, Category.UNBOUNDED, Category.LIMITED, Category.NOT_A_LOOP, Category.UNKNOWN,
             Category.UNSUPPORTED]
    for cat in order:
        rs = [r for r in report.results if r.category is cat]
        if not rs:
            continue
        lines.append(f"== {cat.value} ({len(rs)})")
        for r in rs:
            head = f"{' + '.join(r.cards)}  [{', '.join(f'{c}#{i}' for c, i in r.abilities)}]"
            if cat is Category.LIMITED:
                head += f"  passes: {r.passes}"
            lines.append(head)
            lines.append(f"    {r.reason}")
            gain = ", ".join(f"{k} {v:+d}" for k, v in r.net_gain if v)
            if gain and cat in (Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED):
                lines.append(f"    per pass: {gain}")
            if r.trace is not None and cat in (Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED):
                for i, s in enumerate(r.trace.steps, 1):
                    ch = ", ".join(f"{k}={v}" for k, v in s.choices)
                    lines.append(f"    {i:>2}. {s.description}" + (f" ({ch})" if ch else ""))
    counts = ", ".join(f"{k} {v}" for k, v in report.counts if v)
    lines.append(f"cards: {report.cards}  candidates: {report.candidates}  ({counts})  {report.seconds:.1f}s")
    return "\n".join(lines)


@click.command(name="loops", epilog=EXIT_TEXT)
@click.option("--cards", "codes", multiple=True, metavar="CODE",
              help="A card code to search (repeatable); opp:CODE marks a card owned by the opponent.")
@click.option("--deck", "deck_file", type=click.Path(dir_okay=False, path_type=Path), help="A deck list file.")
@click.option("--pool", "pool_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Card pool directory (default: the bundled pool).")
@click.option("--overrides", "override_files", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="YAML override file (repeatable; later files win).")
@click.option("--max-length", default=3, show_default=True, type=click.IntRange(1, 4),
              help="Longest cycle (in abilities) searched.")
@click.option("--timeout", default=20.0, show_default=True, type=click.FloatRange(min=0.1),
              help="Seconds per solver query.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1).")
@click.option("--workers", type=int, default=None, help="Classify candidates on a local Dask cluster of N worker processes.")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Classify candidates on the Dask scheduler at ADDRESS.")
def loops(codes: tuple[str, ...], deck_file: Path | None, pool_dir: Path | None, override_files: tuple[Path, ...],
          max_length: int, timeout: float, as_json: bool, workers: int | None = None, scheduler: str | None = None) -> int:
    """Search cards for loops: the whole pool, --cards CODE ..., or a --deck list."""
    out, err = _streams()
    pool = load_pool(pool_dir)
    deck = load_deck(deck_file, pool) if deck_file is not None else None
    mine = [c for c in codes if not c.startswith("opp:")]
    theirs = [c[4:] for c in codes if c.startswith("opp:")]
    for c in mine + theirs:
        if pool.get(c) is None:
            raise InputError(f"unknown card code {c}")
    ov = load_overrides(override_files)
    report = _run(pool, mine, deck, theirs, ov, max_length, timeout, err, workers=workers, scheduler=scheduler)
    if as_json:
        out.write(json.dumps(report_json(report), sort_keys=True, default=str) + "\n")
    else:
        out.write(render_report(report) + "\n")
    counts = dict(report.counts)
    if counts.get(Category.UNBOUNDED.value) or counts.get(Category.MANDATORY.value):
        return 1
    return 3 if counts.get(Category.UNKNOWN.value) else 0


def _run(pool: Any, mine: list[str], deck: Any, theirs: list[str], ov: Any, max_length: int, timeout: float,
         err: TextIO, *, workers: int | None = None, scheduler: str | None = None) -> LoopReport:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(file=err, stderr=True)
    with Progress(TextColumn("loops"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=console, transient=True) as bar:
        task = bar.add_task("", total=None)

        def tick(done: int, total: int, cand: Any) -> None:
            bar.update(task, completed=done, total=total, description="+".join(cand.cards))
            if workers is None and scheduler is None:
                # find_loops calls this before each candidate: start it in a fresh Z3 context, as a Dask
                # worker does, so both runs print the same traces (until lasso.classify does this itself)
                fresh_solver_context()

        if workers is not None or scheduler is not None:
            from ruleproof.scale.loops import find_loops_on_cluster

            return find_loops_on_cluster(pool, mine or None, deck, theirs, tick, overrides=ov, max_length=max_length,
                                         timeout=timeout, workers=workers, scheduler=scheduler)
        return find_loops(pool, mine or None, deck, theirs, tick, overrides=ov, max_length=max_length,
                          timeout=timeout)
