"""``ruleproof loops``: search cards for infinite and mandatory loops (a click command the main CLI registers)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, TextIO

import click

from ruleproof import budget
from ruleproof.cards.overrides import load_overrides
from ruleproof.cards.pool import load_deck, load_pool, unknown_code
from ruleproof.cli_support import (
    EXIT_OK,
    EXIT_UNKNOWN,
    EXIT_VIOLATED,
    JSON_VERSION,
    Activity,
    budget_options,
    check_budget,
    check_seconds,
    output_mode,
    report_width,
    streams,
)
from ruleproof.errors import InputError
from ruleproof.loops.driver import search_loops
from ruleproof.loops.lasso import Category, LoopResult
from ruleproof.loops.search import LoopReport, report_json, result_json, top_phrases, top_reasons
from ruleproof.results import TraceStep
from ruleproof.scale.executor import check_target

__all__ = ["cards_text", "continued_text", "loops", "render_report", "shown", "step_actor", "step_changes"]

EXIT_TEXT = """\b
Exit status:
  0        complete report, no unbounded or mandatory loop (every ability read in full, every candidate decided)
  1        some unbounded or mandatory loop found (with a replayed trace)
  2        bad input or internal error
  3        no unbounded or mandatory loop found, but the report is not complete: some ability was not read in
           full (even text that could not close a cycle), some candidate is unknown (unread text, budget,
           timeout, out of memory) or unsupported (text read but not modelled), some answer rests on a
           constant ability the loop model leaves out, or the --time-limit stopped the search
  130/143  interrupted: the candidates classified so far are reported
"""


LOOP_CATEGORIES = (Category.MANDATORY, Category.UNBOUNDED, Category.LIMITED)
"""The categories of a loop found (each with a replayed trace)."""

PHRASE_LIMIT = 600
"""Most characters of a card's name or of a phrase of its text in the text report (the longest card text of the
bundled pool has 536); ``--json`` keeps them whole."""
REASON_LIMIT = 2000
"""Most characters of a candidate's reason in the text report (the longest of the bundled pool's has under 1,000);
``--json`` keeps it whole."""


_BREAKS = re.compile("[\n\u2028\u2029]")


def shown(text: str, limit: int = PHRASE_LIMIT) -> str:
    """Text from the cards (a name, a phrase, a reason quoting them) as the text report shows it: on one line, a line
    break written ``\\uXXXX`` (in a card's text it could forge a line of the report), and at most ``limit``
    characters (then how long it was).  The output stream escapes the other control characters the same way
    (:class:`ruleproof.cli_support.PrintableStream`)."""
    one = _BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return one if len(one) <= limit else f"{one[:limit]}... ({len(one):,} characters)"


def result_line(r: LoopResult, done: int, total: int, width: int = 0) -> str:
    """One candidate as it is classified, for the text stream: ``[done/total] category  cards  [abilities]`` and,
    for a candidate that is not a loop, its reason (clipped to ``width`` columns when ``width`` is given)."""
    head = f"[{done}/{total}] {r.category.value}  {_head(r)}"
    if r.category in LOOP_CATEGORIES or not r.reason:
        return head
    line = f"{head}  {shown(r.reason, REASON_LIMIT)}"
    return line if not width or len(line) <= width else line[: max(width - 3, len(head))] + "..."


def _head(r: LoopResult) -> str:
    """A candidate's cards and abilities (and a limited loop's passes)."""
    head = shown(f"{' + '.join(r.cards)}  [{', '.join(f'{c}#{i}' for c, i in r.abilities)}]")
    return head + f"  passes: {r.passes}" if r.category is Category.LIMITED else head


_PLACE_TEXT = {"play": "play", "hand": "hand", "discard": "discard pile", "dead": "dead pile", "deck": "deck",
               "shadows": "shadows", "removed": "out of the game", "plot_deck": "plot deck",
               "revealed": "revealed plot", "used": "used pile"}
_PLAYER_TEXT = {"you": "your", "opp": "the opponent's", "opponent": "the opponent's"}
#: Variables of the loop model that are its own bookkeeping, not game state a player sees.
_BOOKKEEPING = ("used", "pos", "passes", "pending", "trig", "imm", "snap_")


def continued_text(who: tuple[str, ...]) -> str:
    """Who must choose to go on for another pass of a loop (its ``continued_by``), in words."""
    if not who:
        return "no one: every ability on it is forced"
    if set(who) == {"you", "opponent"}:
        return "you and the opponent: each pass needs an ability of each, and either ends it by declining"
    return "the opponent alone" if who == ("opponent",) else "you alone"


def step_actor(description: str) -> str:
    """A step's description with who initiates it: the model names the player when either could ("by you"); else
    the ability's card is its owner's (control cannot change in that model), so an ``opp:`` card is the
    opponent's."""
    head, sep, kind = description.rpartition(": ")
    if not sep or " by " in kind:
        return description
    return f"{description} by {'opp' if '(opp:' in head else 'you'}"


def step_changes(step: TraceStep) -> str:
    """What one step of a loop's trace changed, in game terms ("kneels X", "your gold 0 -> 2", "X: dead pile ->
    play"), without the model's bookkeeping (limits used, cycle position, pending triggers)."""
    moved = {c.var[5:-1] for c in step.changes if c.var.startswith("zone[")}
    out: list[str] = []
    for c in step.changes:
        name, _, rest = c.var.partition("[")
        what = rest[:-1]
        if name.startswith(_BOOKKEEPING) or name in _BOOKKEEPING:
            continue
        if name == "standing":
            if what not in moved:  # a card entering or leaving play is not knelt or stood by the step
                out.append(f"{'stands' if c.new else 'kneels'} {what}")
        elif name == "fstand":
            out.append(f"{'stands' if c.new else 'kneels'} {_PLAYER_TEXT.get(what, what)} faction card")
        elif name == "zone":
            out.append(f"{what}: {_PLACE_TEXT.get(str(c.old), c.old)} -> {_PLACE_TEXT.get(str(c.new), c.new)}")
        elif name == "ctl":
            out.append(f"{what} now controlled by {'the opponent' if c.new in ('opp', 'opponent') else 'you'}")
        elif name in ("gold", "hand", "deck", "fpower") and what in _PLAYER_TEXT:
            label = {"gold": "gold", "hand": "cards in hand", "deck": "cards in deck",
                     "fpower": "power on faction card"}[name]
            out.append(f"{_PLAYER_TEXT[what]} {label} {c.old} -> {c.new}")
        elif name in ("power", "cgold"):
            out.append(f"{'power' if name == 'power' else 'gold'} on {what} {c.old} -> {c.new}")
        else:
            out.append(f"{c.var} {c.old} -> {c.new}")
    return "; ".join(out)


def render_report(report: LoopReport, quiet: bool = False) -> str:
    """The report as plain text: first the abilities not read in full, then the loops, then the other candidates
    one per entry, then whether the report is complete, then the counts (the last line).  ``quiet``: the loops
    alone are listed (the abilities not read in full and the other candidates are counted, not listed)."""
    lines: list[str] = []
    if report.unread and quiet:
        n = len(report.unread)
        lines.append(f"== not read in full: {n} action/triggered abilit{'y' if n == 1 else 'ies'}, "
                     f"{len(report.through_unread)} could close a cycle through the unread text")
    elif report.unread and report.named:
        lines.append(f"== not read in full ({len(report.unread)}; "
                     f"{len(report.through_unread)} could close a cycle through the unread text)")
        for u in report.unread:
            mark = f"  [could link: {', '.join(u.links)}]" if u.links else ""
            lines.append(f"{shown(u.label)} {u.type}{mark}")
            lines.extend(f"    {shown(p)}" for p in u.phrases)
    elif report.unread:
        lines.append(f"== not read in full: {len(report.unread)} action/triggered abilities, "
                     f"{len(report.through_unread)} could close a cycle through the unread text; commonest phrases:")
        lines.extend(f"    {n:>5}  {shown(p)}" for p, n in top_phrases(report))
    order = [Category.MANDATORY, Category.UNBOUNDED, Category.LIMITED, Category.NOT_A_LOOP, Category.UNKNOWN,
             Category.UNSUPPORTED]
    for cat in order:
        rs = [r for r in report.results if r.category is cat]
        if not rs or (quiet and cat not in LOOP_CATEGORIES):
            continue
        lines.append(f"== {cat.value} ({len(rs)})")
        for r in rs:
            lines.append(_head(r))
            lines.append(f"    {shown(r.reason, REASON_LIMIT)}")
            gain = ", ".join(f"{k} {v:+d}" for k, v in r.net_gain if v)
            if gain and cat in (Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED):
                lines.append(f"    per pass: {gain}")
            if cat is Category.LIMITED and (len(r.players) > 1 or r.continued_by != ("you",)):
                lines.append(f"    continued by: {continued_text(r.continued_by)}")
            if r.trace is not None and cat in (Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED):
                for i, s in enumerate(r.trace.steps, 1):
                    ch = ", ".join(f"{k}={v}" for k, v in s.choices)
                    did = step_changes(s)
                    lines.append(f"    {i:>2}. {shown(step_actor(s.description))}"
                                 + (f" ({shown(ch)})" if ch else "") + (f": {shown(did, REASON_LIMIT)}" if did else ""))
    if not report.named and not quiet:
        reasons = top_reasons(report)
        if reasons:
            lines.append("== commonest reasons of the candidates not decided")
            lines.extend(f"    {n:>5}  {shown(p, REASON_LIMIT)}" for p, n in reasons)
    if report.complete:
        lines.append("complete: every ability read in full and every candidate decided")
    else:
        why = []
        if report.through_unread:
            n = len(report.through_unread)
            why.append(f"{n} abilit{'y' if n == 1 else 'ies'} could close a cycle through text that was not read")
        elif report.unread:
            n = len(report.unread)
            why.append(f"{n} abilit{'y' if n == 1 else 'ies'} not read in full")
        undecided = len(report.results) - report.analysed
        if undecided:
            why.append(f"{undecided} candidate{'' if undecided == 1 else 's'} not decided")
        if len(report.results) < report.candidates:
            why.append(f"{report.candidates - len(report.results)} not run")
        if report.resting_on_unmodelled:
            n = report.resting_on_unmodelled
            why.append(f"{n} answer{'' if n == 1 else 's'} rest{'s' if n == 1 else ''} on constant abilities the "
                       "loop model leaves out ('not modelled, and could change this')")
        if report.truncated:
            why.append(f"the search stopped at its {report.candidates} candidates")
        if report.longer:
            why.append(f"cycles of more than {report.max_length} abilities were not searched (--max-length)")
        lines.append("not complete: " + "; ".join(why) + " (a loop could be missing: unknown)")
    counts = ", ".join(f"{k} {v}" for k, v in report.counts if v)
    lines.append(f"cards: {cards_text(report)}  candidates: {report.candidates}  analysed: {report.analysed}  "
                 f"({counts})  {report.seconds:.1f}s")
    return "\n".join(lines)


def cards_text(report: LoopReport) -> str:
    """How many cards were searched: each copy once (a code named twice is two copies, yours and the opponent's
    are two), and how many distinct cards those are when that differs."""
    if not report.copies or report.copies == report.cards:
        return str(report.cards)
    return f"{report.copies} ({report.cards} distinct)"


@click.command(name="loops", epilog=EXIT_TEXT)
@click.option("--cards", "codes", multiple=True, metavar="CODE",
              help="A card code to search (repeatable); opp:CODE marks a card owned by the opponent.")
@click.option("--deck", "deck_file", type=click.Path(dir_okay=False, path_type=Path), help="A deck list file.")
@click.option("--pool", "pool_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Card pool directory (default: the bundled pool).")
@click.option("--overrides", "override_files", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="YAML override file (repeatable; later files win).")
@click.option("--max-length", default=None, type=click.IntRange(1, 4),
              help="Longest cycle (in abilities) searched (default for named cards: every cycle when no part of their "
                   "graph links more than 8 abilities and there are at most 300, else 3; for the whole pool: 2). A "
                   "part of the graph with more abilities than this leaves the report not complete.")
@click.option("--timeout", default=20.0, show_default=True, type=float,
              help="Seconds per solver query (0.1 or more).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1).")
@click.option("--jsonl", "as_jsonl", is_flag=True,
              help="Print one JSON object per candidate as soon as it is classified, then the report object.")
@click.option("--workers", type=int, default=None,
              help="Classify candidates on a local Dask cluster of N worker processes.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Classify candidates on the Dask scheduler at ADDRESS.")
@click.option("--verbose", "-v", is_flag=True,
              help="Text: a line for every candidate as it is classified (default: a line for each loop found).")
@click.option("--quiet", "-q", is_flag=True,
              help="Text: no line as the candidates are classified; the report lists the loops alone, and the totals.")
@budget_options
def loops(codes: tuple[str, ...], deck_file: Path | None, pool_dir: Path | None, override_files: tuple[Path, ...],
          max_length: int | None, timeout: float, as_json: bool, workers: int | None = None,
          scheduler: str | None = None, as_jsonl: bool = False, verbose: bool = False, quiet: bool = False,
          time_limit: float | None = None, memory_limit: str = "none", rlimit: int | None = None) -> int:
    """Search cards for loops: the whole pool, --cards CODE ..., or a --deck list.

    Text output: a line for each loop as it is found (-v: for every candidate as it is classified, -q: none),
    then the report."""
    s = streams()
    if verbose and quiet:
        raise InputError("--verbose and --quiet exclude each other")
    output_mode(as_json, as_jsonl)
    width = report_width(s.out)
    check_seconds("--timeout", timeout)
    if timeout < 0.1:
        raise InputError(f"--timeout must be 0.1 or more, got {timeout:g}")
    plan_budget = check_budget(time_limit, memory_limit, rlimit)
    check_target(workers, scheduler)
    with budget.limits(plan_budget.time_limit, plan_budget.memory, stage_limit=timeout):
        pool = load_pool(pool_dir)
        deck = load_deck(deck_file, pool) if deck_file is not None else None
        mine = [c for c in codes if not c.startswith("opp:")]
        theirs = [c[4:] for c in codes if c.startswith("opp:")]
        for c in mine + theirs:
            if pool.get(c) is None:
                raise unknown_code(pool, c)
        ov = load_overrides(override_files, pool)
        with Activity(s.err) as activity:

            seen = [0, 0]  # candidates classified, candidates in all
            streamed = [False]  # a line written as the candidates were classified (a blank line then heads the report)

            def tick(done: int, total: int, cand: Any) -> None:
                seen[1] = total
                activity.status(f"candidate {min(done + 1, total)}/{total}: {'+'.join(cand.cards)}")

            def each(r: LoopResult) -> None:
                seen[0] += 1
                if as_jsonl:
                    s.out.write(json.dumps({"version": JSON_VERSION, "type": "candidate", **result_json(r)},
                                           sort_keys=True, default=str) + "\n")
                elif as_json or quiet or not (verbose or r.category in LOOP_CATEGORIES):
                    return
                else:
                    s.out.write(result_line(r, seen[0], max(seen), width if verbose else 0) + "\n")
                    streamed[0] = True
                s.out.flush()

            event: BaseException | None = None
            try:
                report = search_loops(pool, mine or None, deck, theirs, tick, overrides=ov, max_length=max_length,
                                      timeout=timeout, rlimit=plan_budget.rlimit, workers=workers,
                                      scheduler=scheduler, on_result=each)
            except (budget.Interrupted, budget.RunTimeLimit) as exc:
                budget.acknowledge(exc)
                event = exc
                partial: LoopReport | None = getattr(exc, "partial", None)
                if partial is None:
                    raise
                report = partial
    with budget.shielded():
        if streamed[0]:
            s.out.write("\n")
        return _report(s.out, report, event, as_json, as_jsonl, plan_budget.as_json(timeout), quiet)


def _report(out: TextIO, report: LoopReport, event: BaseException | None, as_json: bool, as_jsonl: bool,
            budget_json: dict[str, Any], quiet: bool = False) -> int:
    """Write the report (complete, or what finished before an interrupt or the time limit); its exit status."""
    not_run = report.candidates - len(report.results)
    stopped = str(event) if event is not None else ""
    counts = dict(report.counts)
    if isinstance(event, budget.Interrupted):
        status = event.exit_code
    elif counts.get(Category.UNBOUNDED.value) or counts.get(Category.MANDATORY.value):
        status = EXIT_VIOLATED
    elif not report.complete or event is not None:  # unread text, an undecided candidate, or a stop
        status = EXIT_UNKNOWN
    else:
        status = EXIT_OK
    extra = {"status": status, "interrupted": isinstance(event, budget.Interrupted), "stopped": stopped or None,
             "not_run": not_run, "budget": budget_json}
    if as_jsonl:
        out.write(json.dumps({**report_json(report), **extra, "type": "summary", "loops": None}, sort_keys=True,
                             default=str) + "\n")
    elif as_json:
        out.write(json.dumps({**report_json(report), **extra}, sort_keys=True, default=str) + "\n")
    else:
        out.write(render_report(report, quiet) + "\n")
        if stopped:
            out.write(f"{stopped}: {not_run} of {report.candidates} candidates not run\n")
    out.flush()
    return status
