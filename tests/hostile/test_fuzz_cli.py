"""Fuzzing the command line: random argument vectors and random bytes as model, deck, pool and override files.

Every run must end (within its budget: each is given ``--time-limit`` where
the command takes one) with a documented exit status 0-3, print exactly one
JSON object under ``--json``, and never a traceback (the promise checked by
:func:`hostile_helpers.check_promise`).  Hypothesis is derandomised
(``tests/conftest.py``), so the examples are the same on every run.
"""

from __future__ import annotations

import io
from pathlib import Path

from hostile_helpers import COUNTER, Outcome, check_promise, make_pool
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleproof.cli import run

WORDS = ["check", "mutants", "loops", "cards", "coverage", "graph", "--json", "--jsonl", "--depth", "--kmax",
         "--timeout", "--rlimit", "--time-limit", "--memory-limit", "--scenario", "--param", "-p", "--engine",
         "--workers", "--scheduler", "--trace-dir", "--trace-format", "--skip-check", "--coverage", "--limit",
         "--cards", "--deck", "--pool", "--overrides", "--max-length", "--format", "--out", "--what", "--levels",
         "--all", "--only-cycles", "--top", "--debug", "--help", "bmc", "kind", "explicit", "auto", "itf", "text",
         "deadlock", "dot", "svg", "timing", "abilities", "06088", "opp:06088", "99999", "0", "-1", "1", "2", "3",
         "1e-9", "nan", "inf", "1e300", "99999999999999999999", "", "x=1", "mutant=oops", "default", "small",
         "tcp://127.0.0.1:1", "nonsense://x", "1G", "none", "@FILE", "@DIR", "@COUNTER"]

FILE_KINDS = ["model.py", "deck.txt", "overrides.yaml", "pack.json"]


def _files(tmp: Path, blob: bytes) -> dict[str, str]:
    """The random bytes as each kind of input file, and a pool directory holding them as a pack."""
    paths = {}
    for name in FILE_KINDS:
        p = tmp / name
        p.write_bytes(blob)
        paths[name] = str(p)
    pool = make_pool(tmp / "pool", {"X.json": blob})
    paths["pool"] = str(pool)
    return paths


def _argv(words: list[str], files: dict[str, str], which: int, tmp: Path) -> list[str]:
    out: list[str] = []
    for w in words:
        if w == "@FILE":
            out.append(files[FILE_KINDS[which % len(FILE_KINDS)]])
        elif w == "@DIR":
            out.append(files["pool"] if which % 2 else str(tmp / "out"))
        elif w == "@COUNTER":
            out.append(COUNTER)
        else:
            out.append(w)
    if out and out[0] in ("check", "mutants", "loops"):
        out += ["--time-limit", "4", "--timeout", "2"]  # every run ends within its budget
    return out


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(WORDS), max_size=7), blob=st.binary(max_size=300),
       which=st.integers(0, 7), first=st.sampled_from(["check", "mutants", "loops", "cards", "graph", "x"]))
def test_random_command_lines_keep_the_promise(tmp_path_factory: object, words: list[str], blob: bytes,
                                               which: int, first: str) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")  # type: ignore[attr-defined]
    files = _files(tmp, blob)
    argv = _argv([first, *words], files, which, tmp)
    if argv[0] == "loops" and not any(a in argv for a in ("--cards", "--deck")):
        argv += ["--cards", "06088"]  # not the whole pool: that is a long (if bounded) search
    o, e = io.StringIO(), io.StringIO()
    code = run(argv, o, e)
    check_promise(Outcome(argv, code, o.getvalue(), e.getvalue()), {0, 1, 2, 3})


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(blob=st.binary(max_size=2000) | st.text(max_size=400).map(lambda t: t.encode("utf-8")))
def test_random_bytes_as_every_kind_of_input_file(tmp_path_factory: object, blob: bytes) -> None:
    tmp = tmp_path_factory.mktemp("bytes")  # type: ignore[attr-defined]
    files = _files(tmp, blob)
    for argv in (["check", files["model.py"], "--json", "--time-limit", "4", "--timeout", "2"],
                 ["mutants", files["model.py"], "--json", "--time-limit", "4", "--timeout", "2"],
                 ["graph", files["model.py"], "--format", "dot", "--out", str(tmp / "g.dot")],
                 ["loops", "--deck", files["deck.txt"], "--json", "--time-limit", "4"],
                 ["loops", "--cards", "06088", "--overrides", files["overrides.yaml"], "--json", "--time-limit", "4"],
                 ["cards", "coverage", files["pool"], "--json"]):
        o, e = io.StringIO(), io.StringIO()
        code = run(argv, o, e)
        check_promise(Outcome(argv, code, o.getvalue(), e.getvalue()), {0, 1, 2, 3})
