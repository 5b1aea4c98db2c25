"""``ruleproof cards ...``: card-pool commands (a click group the main CLI registers)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ruleproof.cards.coverage import coverage, coverage_json, render_coverage
from ruleproof.cards.overrides import compile_pool, load_overrides
from ruleproof.cards.pool import load_pool
from ruleproof.cli_support import EXIT_OK, streams

__all__ = ["cards", "coverage_command"]


@click.group(name="cards")
def cards() -> None:
    """Card pool tools: how much of the card text is read."""


@cards.command(name="coverage")
@click.argument("pool", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--overrides", "override_files", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="YAML override file (repeatable; later files win).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1).")
@click.option("--top", default=20, show_default=True, type=click.IntRange(min=0),
              help="How many of the commonest unread clauses to list.")
def coverage_command(pool: Path | None, override_files: tuple[Path, ...], as_json: bool, top: int) -> int:
    """How much of the card text is read: in full, and in structure with the unread clauses named, per ability
    type (POOL: default the bundled pool).

    Exit status: 0 on success, 2 on bad input.
    """
    s = streams()
    the_pool = load_pool(pool)
    ov = load_overrides(override_files, the_pool)
    compiled = compile_pool(the_pool, ov)
    cov = coverage(compiled, top=top, overridden=sum(1 for c in compiled if c in ov))
    if as_json:
        s.out.write(json.dumps(coverage_json(cov), sort_keys=True) + "\n")
    else:
        s.out.write(render_coverage(cov) + "\n")
    return EXIT_OK
