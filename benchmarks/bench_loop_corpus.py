"""Loop finder against a corpus of real AGoT card interactions with judged answers.

Run from the project root (nice it: the machine is shared)::

    PYTHONHASHSEED=0 nice -n 10 python benchmarks/bench_loop_corpus.py [--only ID ...] [--json]

Each case of ``benchmarks/loop_corpus.yaml`` names cards (``opp:CODE`` for the
opponent's copy) and the answer a judge gives from the Rules Reference and the
FAQ: ``unbounded``, ``mandatory``, ``limited`` (with the passes the printed limit
allows) or ``not_a_loop``.  The script runs ``ruleproof loops --cards ... --json``
on each case in this process (``ruleproof.cli.run``), reads what it answered and
scores it:

* ``correct``: the expected category (and, for a loop, the players who must
  continue it and the passes of a limited loop); for ``not_a_loop``, a
  ``not_a_loop`` classification or no candidate at all;
* ``partly``: a loop was expected and a loop was found, but of another category,
  with other players continuing it or another number of passes;
* ``lucky``: ``not_a_loop`` expected and answered (no loop, or nothing found),
  but some action, reaction, interrupt, forced or when revealed ability of the
  named cards was not read in full: the right answer reached over text the
  finder did not read (issue 12: such an answer should be ``unknown``);
* ``unknown``: the finder said it could not decide (an ``unknown`` or
  ``unsupported`` candidate, ``"complete": false``, or exit status 3), naming
  the text it did not read: an honest answer, never a success;
* ``WRONG``: a loop reported where there is none, or no loop (nothing found or
  ``not_a_loop``) where one exists: the worst outcome;
* ``error``: the command failed (exit 2).

It prints one line per case (expected, got, agreement, exit status, CPU and wall seconds),
then the totals; ``--json`` prints them as one object.  Control cases (examples
the project already documents) are shown but left out of the totals.  Timings
are of this process (Z3 runs in it), on whatever else the machine is doing:
read the CPU column, not the wall column.  Nothing here is asserted: it measures.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ruleproof.cli import run

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "loop_corpus.yaml"
LOOPS = ("mandatory", "unbounded", "limited")  # strongest first
UNDECIDED = ("unknown", "unsupported")
CATEGORIES = LOOPS + ("not_a_loop",)


@dataclass
class Outcome:
    """What the loop finder answered on one case, and how it compares."""

    id: str
    cards: list[str]
    expected: str
    expected_detail: str
    control: bool
    got: str = ""
    got_detail: str = ""
    agreement: str = ""
    note: str = ""
    unread: list[str] = field(default_factory=list)
    unread_initiated: int = 0
    exit_status: int | None = None
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    candidates: int = 0


def load_corpus(path: Path) -> list[dict[str, Any]]:
    """The cases of the corpus file, checked for the fields the scoring needs."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list) or not cases:
        raise SystemExit(f"{path}: error: no 'cases' list")
    seen: set[str] = set()
    for i, case in enumerate(cases):
        where = f"{path}: case {i + 1}"
        for key in ("id", "cards", "expected", "rule", "source"):
            if key not in case:
                raise SystemExit(f"{where}: error: missing '{key}'")
        if case["id"] in seen:
            raise SystemExit(f"{where}: error: duplicate id {case['id']!r}")
        seen.add(case["id"])
        if case["expected"] not in CATEGORIES:
            raise SystemExit(f"{where}: error: expected must be one of {', '.join(CATEGORIES)}")
        for extra in case.get("also_accept", []):
            if extra not in CATEGORIES:
                raise SystemExit(f"{where}: error: also_accept must be among {', '.join(CATEGORIES)}")
        if case["expected"] in LOOPS and not case.get("continued_by"):
            raise SystemExit(f"{where}: error: a loop needs 'continued_by'")
    return cases


def _phrases(doc: dict[str, Any], results: list[dict[str, Any]]) -> list[str]:
    """The text the finder says it did not read: its own ``unread`` list if it gives one, else its coverage.

    An ``unread`` entry names the ability, its type, the phrases and ``could_link`` (whether the finder
    thinks the unread text could close a cycle); the reasons of undecided candidates are added.
    """
    out: list[str] = []
    listed = doc.get("unread")
    if isinstance(listed, list):
        for item in listed:
            if not isinstance(item, dict):
                out.append(str(item))
                continue
            where = f"{item.get('name', '?')} ({item.get('ability', '?')}, {item.get('type', '?')}"
            where += f"; could link: {'/'.join(item.get('could_link') or []) or 'no'})"
            for phrase in item.get("phrases") or [item.get("phrase") or item.get("reason") or json.dumps(item)]:
                out.append(f"{where}: {phrase}")
        for item in doc.get("through_unread") or []:
            out.append(f"cycle through unread text: {item if isinstance(item, str) else json.dumps(item)}")
    else:
        cov = doc.get("coverage", {}).get("abilities", {})
        out.extend(str(item.get("reason", item)) for item in cov.get("top_unsupported") or [])
    for r in results:
        if r.get("category") in UNDECIDED:
            out.append(f"{' '.join(r.get('abilities', []))}: {r.get('reason', '')}")
    return list(dict.fromkeys(p for p in out if p))


def _players(r: dict[str, Any]) -> list[str]:
    """Who must keep choosing to continue a loop result (one-player results omit the field: you)."""
    who = r.get("continued_by")
    return list(who) if who else ["you"]


def unread_initiated(doc: dict[str, Any]) -> int:
    """How many initiated abilities (not keywords or constant text) of the named cards were not read in full."""
    init = doc.get("coverage", {}).get("abilities", {}).get("initiated", {})
    return max(int(init.get("total", 0) or 0) - int(init.get("full", 0) or 0), 0)


def classify(doc: dict[str, Any], status: int) -> tuple[str, str, list[str], dict[str, Any] | None]:
    """The finder's answer: (category, detail, unread phrases, the loop result it rests on)."""
    if "error" in doc:
        return "error", str(doc["error"]), [], None
    results = list(doc.get("loops") or [])
    unread = _phrases(doc, results)
    found = [r for r in results if r.get("category") in LOOPS]
    if found:
        best = min(found, key=lambda r: LOOPS.index(r["category"]))
        detail = f"{'+'.join(_players(best))}"
        if best["category"] == "limited":
            detail += f", passes {best.get('passes')}"
        detail += f"; {' '.join(best.get('abilities', []))}"
        return best["category"], detail, unread, best
    if any(r.get("category") in UNDECIDED for r in results) or doc.get("complete") is False or status == 3:
        return "unknown", "", unread, None
    if results:
        return "not_a_loop", "", unread, None
    return "nothing found", ("complete" if doc.get("complete") is True else ""), unread, None


def score(case: dict[str, Any], got: str, loop: dict[str, Any] | None, unread: int = 0) -> tuple[str, str]:
    """Agreement of the answer with the judged one, and why when it is not 'correct'."""
    expected = case["expected"]
    accept = {expected, *case.get("also_accept", [])}
    if got == "error":
        return "error", ""
    if got == "unknown":
        return "unknown", ""
    if expected in LOOPS:
        if got not in LOOPS:
            return "WRONG", f"no loop reported ({got}) where one exists"
        assert loop is not None
        notes = []
        if got not in accept:
            notes.append(f"category {got}, expected {expected}")
        want = sorted(case["continued_by"])
        if sorted(_players(loop)) != want:
            notes.append(f"continued by {'+'.join(_players(loop))}, expected {'+'.join(want)}")
        if got == "limited" and case.get("passes") is not None and loop.get("passes") != case["passes"]:
            notes.append(f"passes {loop.get('passes')}, expected {case['passes']}")
        return ("partly", "; ".join(notes)) if notes else ("correct", "")
    if got in LOOPS and got not in accept:
        return "WRONG", f"{got} loop reported where there is none"
    if got not in LOOPS and unread:
        what = "ability was" if unread == 1 else "abilities were"
        return "lucky", f"{got} while {unread} initiated {what} not read in full"
    return "correct", ""


def run_case(case: dict[str, Any], time_limit: float, overrides: list[Path] | None = None) -> Outcome:
    """Run ``ruleproof loops`` on one case in this process and score its answer."""
    expected_detail = ""
    if case["expected"] in LOOPS:
        expected_detail = "+".join(case["continued_by"])
        if case["expected"] == "limited":
            expected_detail += f", passes {case.get('passes')}/{case.get('period', '?')}"
    out = Outcome(case["id"], list(case["cards"]), case["expected"], expected_detail, bool(case.get("control")))
    argv = ["loops", *[a for c in case["cards"] for a in ("--cards", str(c))], "--json",
            "--time-limit", f"{time_limit:g}", *[a for f in overrides or [] for a in ("--overrides", str(f))]]
    stdout, stderr = io.StringIO(), io.StringIO()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    status = run(argv, stdout, stderr)
    out.cpu_seconds = round(time.process_time() - cpu0, 2)
    out.wall_seconds = round(time.perf_counter() - wall0, 2)
    out.exit_status = status
    try:
        doc = json.loads(stdout.getvalue())
    except json.JSONDecodeError:
        doc = {"error": f"not one JSON object (exit {status}): {stdout.getvalue()[:200]!r} {stderr.getvalue()[:200]!r}"}
    out.candidates = int(doc.get("coverage", {}).get("candidates", 0) or 0)
    got, detail, unread, loop = classify(doc, status)
    out.got, out.got_detail, out.unread = got, detail, unread
    out.unread_initiated = unread_initiated(doc)
    out.agreement, out.note = score(case, got, loop, out.unread_initiated)
    return out


def totals(outcomes: list[Outcome]) -> dict[str, Any]:
    """The counts the report ends with (control cases left out)."""
    counted = [o for o in outcomes if not o.control]
    loops = [o for o in counted if o.expected in LOOPS]
    return {
        "cases": len(counted),
        "expected_loops": len(loops),
        "found": sum(o.got in LOOPS for o in loops),
        "correct": sum(o.agreement == "correct" for o in counted),
        "correct_loops": sum(o.agreement == "correct" for o in loops),
        "correct_not_a_loop": sum(o.agreement == "correct" for o in counted if o.expected not in LOOPS),
        "partly": sum(o.agreement == "partly" for o in counted),
        "lucky": sum(o.agreement == "lucky" for o in counted),
        "honest_unknown": sum(o.agreement == "unknown" for o in counted),
        "wrong": sum(o.agreement == "WRONG" for o in counted),
        "wrong_missed_loop": sum(o.agreement == "WRONG" and o.expected in LOOPS for o in counted),
        "wrong_false_loop": sum(o.agreement == "WRONG" and o.expected not in LOOPS for o in counted),
        "no_loop_over_unread_text": sum(o.got in ("nothing found", "not_a_loop") and o.unread_initiated > 0
                                        for o in counted),
        "exit_0_with_unread_text": sum(o.exit_status == 0 and o.unread_initiated > 0 for o in counted),
        "errors": sum(o.agreement == "error" for o in counted),
        "cpu_seconds": round(sum(o.cpu_seconds for o in counted), 1),
        "wall_seconds": round(sum(o.wall_seconds for o in counted), 1),
    }


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def render(outcomes: list[Outcome], tot: dict[str, Any], commit: str, load: str,
           overrides: list[str] | None = None) -> str:
    """The table, the notes on unread text, and the totals, as plain text."""
    rows = [("case", "expected", "got", "agreement", "exit", "cpu s", "wall s")]
    for o in outcomes:
        exp = o.expected + (f" [{o.expected_detail}]" if o.expected_detail else "")
        got = o.got + (f" [{o.got_detail}]" if o.got_detail else "")
        if o.got not in LOOPS and o.unread:
            got += f" (unread: {len(o.unread)})"
        agree = o.agreement + (" (control)" if o.control else "")
        rows.append((o.id, exp, got, agree, str(o.exit_status), f"{o.cpu_seconds:.1f}", f"{o.wall_seconds:.1f}"))
    widths = [min(max(len(r[i]) for r in rows), cap) for i, cap in enumerate((36, 40, 70, 18, 4, 6, 6))]
    lines = [f"loop corpus: {len(outcomes)} cases, commit {commit}, load average at start {load}"
             + (f", overrides: {', '.join(overrides)}" if overrides else "")]
    for r in rows:
        lines.append("  ".join(cell[:w].ljust(w) if i < 4 else cell.rjust(w) for i, (cell, w) in
                               enumerate(zip(r, widths, strict=True))).rstrip())
    lines.append("")
    for o in outcomes:
        if o.agreement != "correct" or o.unread:
            lines.append(f"{o.id}: {o.agreement}{': ' + o.note if o.note else ''}")
            for p in o.unread:
                lines.append(f"    unread: {p}")
    lines.append("")
    lines.append(
        f"totals (controls left out): {tot['cases']} cases; loops found {tot['found']}/{tot['expected_loops']} "
        f"expected; correct {tot['correct']} ({tot['correct_loops']} loops, {tot['correct_not_a_loop']} not a "
        f"loop); lucky {tot['lucky']} (right, but over unread text); partly {tot['partly']}; "
        f"honest unknown {tot['honest_unknown']}; wrong {tot['wrong']} "
        f"({tot['wrong_missed_loop']} missed loops, {tot['wrong_false_loop']} false loops); "
        f"no loop answered over unread text {tot['no_loop_over_unread_text']}; exit 0 with unread text "
        f"{tot['exit_0_with_unread_text']}; errors {tot['errors']}")
    lines.append(f"time: {tot['cpu_seconds']} s CPU, {tot['wall_seconds']} s wall (shared machine: read CPU)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="corpus YAML (default: %(default)s)")
    ap.add_argument("--only", nargs="+", metavar="ID", help="run only these cases")
    ap.add_argument("--time-limit", type=float, default=300.0, help="--time-limit of each loops run (seconds)")
    ap.add_argument("--overrides", type=Path, action="append", metavar="FILE",
                    help="pass --overrides FILE to each run (a probe past the reader; not how users run it)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    cases = load_corpus(args.corpus)
    if args.only:
        unknown = sorted(set(args.only) - {c["id"] for c in cases})
        if unknown:
            raise SystemExit(f"error: no such case: {', '.join(unknown)}")
        cases = [c for c in cases if c["id"] in set(args.only)]
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    commit = _commit()
    outcomes = []
    for case in cases:
        outcomes.append(run_case(case, args.time_limit, args.overrides))
        if not args.json:
            o = outcomes[-1]
            print(f"... {o.id}: {o.got} ({o.agreement}, {o.cpu_seconds:.1f} s CPU)", file=sys.stderr, flush=True)
    tot = totals(outcomes)
    if args.json:
        print(json.dumps({"commit": commit, "load_average": load, "overrides": [str(f) for f in args.overrides or []],
                          "cases": [asdict(o) for o in outcomes], "totals": tot}, indent=1))
    else:
        print(render(outcomes, tot, commit, load, [str(f) for f in args.overrides or []]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
