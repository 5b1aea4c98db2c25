"""``ruleproof loops`` in text mode: a line per candidate of interest as it is classified, then the report.

Default: a line for each loop found (unbounded, mandatory, limited); ``-v``: a line for every candidate;
``-q``: no line while the search runs, and the report lists the loops alone.  Two copies of Drowned God
Fanatic (11051) give three candidates: two that are not loops and one limited loop.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from ruleproof.cli import run

ARGS = ["loops", "--cards", "11051", "--cards", "11051"]
LIMITED = "[3/3] limited  11051 + 11051/2  [11051#0, 11051/2#0]  passes: 0"


def _lines(argv: list[str], out: io.StringIO | None = None) -> tuple[int, list[str]]:
    out = out if out is not None else io.StringIO()
    code = run(argv, out, io.StringIO())
    return code, out.getvalue().splitlines()


def test_default_streams_a_line_per_loop_found_then_the_report() -> None:
    code, lines = _lines(ARGS)
    assert code == 3  # a limited loop, and an ability not read in full: not complete
    assert lines[:3] == [LIMITED, "", "== not read in full (1; 1 could close a cycle through the unread text)"]
    assert not any(line.startswith(("[1/3]", "[2/3]")) for line in lines)  # not loops: in the report only
    # two copies of one card: the line counts the copies searched, and says they are one card
    assert "== not_a_loop (2)" in lines and lines[-1].startswith("cards: 2 (1 distinct)  candidates: 3  analysed: 3")


def test_json_counts_the_distinct_cards_and_the_copies() -> None:
    import json

    code, lines = _lines([*ARGS, "--json"])
    assert code == 3
    cov = json.loads("\n".join(lines))["coverage"]
    assert (cov["cards"], cov["copies"]) == (1, 2)


def test_verbose_streams_every_candidate_in_order_as_it_is_classified(monkeypatch: pytest.MonkeyPatch) -> None:
    import ruleproof.loops.driver as driver

    out = io.StringIO()
    seen: list[tuple[int, str]] = []  # (candidate, what was printed when the solver took it up)
    real = driver.run_loop_unit

    def spy(unit: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append((unit.index, out.getvalue()))
        return real(unit, *args, **kwargs)

    monkeypatch.setattr(driver, "run_loop_unit", spy)
    code, lines = _lines([*ARGS, "-v"], out)
    assert code == 3
    assert [line.split("]")[0] + "]" for line in lines[:3]] == ["[1/3]", "[2/3]", "[3/3]"]
    assert lines[0].startswith("[1/3] not_a_loop  11051  [11051#0]  the cycle cannot run twice in a row")
    assert lines[2] == LIMITED and lines[3] == ""
    assert all(len(line) <= 100 for line in lines[:3])  # clipped to the report width (100 off a terminal)
    # each candidate's line is out before the next candidate reaches the solver
    assert [i for i, _ in seen] == [0, 1, 2]
    for i, printed in seen:
        assert [line[:5] for line in printed.splitlines()] == [f"[{k}/3]" for k in range(1, i + 1)]


def test_quiet_streams_nothing_and_lists_the_loops_alone() -> None:
    code, lines = _lines([*ARGS, "-q"])
    assert code == 3
    assert lines[0] == "== not read in full: 1 action/triggered ability, 1 could close a cycle through the unread text"
    assert lines[1:3] == ["== limited (1)", "11051 + 11051/2  [11051#0, 11051/2#0]  passes: 0"]
    assert not any(line.startswith(("[", "== not_a_loop")) for line in lines)
    # the Fanatic's interrupt's cost (from hand into the dead pile) is not read and could close a cycle
    assert lines[-2] == ("not complete: 1 ability could close a cycle through text that was not read (a loop could be "
                         "missing: unknown)")
    assert "(limited 1, not_a_loop 2)" in lines[-1]


def test_verbose_and_quiet_exclude_each_other() -> None:
    err = io.StringIO()
    assert run([*ARGS, "-v", "-q"], io.StringIO(), err) == 2
    assert err.getvalue() == "error: --verbose and --quiet exclude each other\n"


def test_json_output_has_no_text_line() -> None:
    code, lines = _lines([*ARGS, "--json", "-v"])
    assert code == 3 and len(lines) == 1 and lines[0].startswith("{")
