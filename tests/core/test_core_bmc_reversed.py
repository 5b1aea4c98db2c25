"""BMC's reversed unrolling: deep depths answered on it, the same results as the forward unrolling alone.

Past ``bmc.FORWARD_TO`` BMC asks each depth on a ``ReversedUnrolling`` first
and falls back to the forward unrolling on a violation or an unknown.  These
tests compare whole results (verdict, depth, reason, trace) with the forward
unrolling alone (``FORWARD_TO`` past the depth), and with the reversed one
from depth 1 on (``FORWARD_TO = 0``), so every violation goes through the
hand-over.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleproof import encoder
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines import bmc
from ruleproof.engines.common import Options
from ruleproof.loader import discover, load_system
from ruleproof.results import Result, Verdict

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "model" / "agot" / "gold.py"
DEPTH = 10
OPTS = Options(depth=DEPTH, rlimit=DEFAULT_RLIMIT, timeout=600)


def _answers(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, encoder.SatResult]]:
    """Record (depth, answer) of every query on a reversed unrolling."""
    seen: list[tuple[int, encoder.SatResult]] = []
    check = encoder.ReversedUnrolling.check

    def spy(self: encoder.ReversedUnrolling, *a: Any, **kw: Any) -> encoder.SatResult:
        r = check(self, *a, **kw)
        seen.append((self.k, r))
        return r

    monkeypatch.setattr(encoder.ReversedUnrolling, "check", spy)
    return seen


def _forward_only(s: Any, prop: Any, monkeypatch: pytest.MonkeyPatch) -> Result:
    with monkeypatch.context() as m:
        m.setattr(bmc, "FORWARD_TO", DEPTH)
        return bmc.check(s, prop, OPTS)


def test_the_reversed_unrolling_answers_the_deep_depths_of_a_property_that_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_system(discover(GOLD)[0], "small", {})
    prop = s.prop("gold is conserved")
    seen = _answers(monkeypatch)
    r = bmc.check(s, prop, OPTS)
    assert r.verdict is Verdict.HOLDS_TO_DEPTH and r.depth == DEPTH
    assert seen == [(k, encoder.SatResult.UNSAT) for k in range(bmc.FORWARD_TO + 1, DEPTH + 1)]
    assert _forward_only(s, prop, monkeypatch) == r


@pytest.mark.parametrize("mutant", ["spend_without_return", "tokens_lost", "overspend", "marshal_any_phase"])
def test_a_violation_found_on_the_reversed_unrolling_gets_the_forward_unrolling_s_counterexample(
        mutant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_system(discover(GOLD)[0], "small", {"mutant": mutant})
    monkeypatch.setattr(bmc, "FORWARD_TO", 0)
    seen = _answers(monkeypatch)
    violated = 0
    for p in s.properties:
        if p.kind.value == "reachable" or p.builtin:
            continue
        del seen[:]
        r = bmc.check(s, p, OPTS)
        assert r == _forward_only(s, p, monkeypatch), p.name
        if r.verdict is Verdict.VIOLATED:
            violated += 1
            assert r.trace is not None and len(r.trace.steps) == r.depth
            if r.depth > 0:  # the reversed unrolling saw it first, then the forward one asked every depth again
                assert seen[-1] == (r.depth, encoder.SatResult.SAT), (p.name, seen)
                assert all(a is encoder.SatResult.UNSAT for _, a in seen[:-1])
    assert violated, mutant


def test_a_reversed_query_past_its_budget_hands_over_to_the_forward_unrolling(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_system(discover(GOLD)[0], "small", {"mutant": "tokens_lost"})
    monkeypatch.setattr(bmc, "FORWARD_TO", 0)
    monkeypatch.setattr(bmc, "REVERSED_FACTOR", 0)
    monkeypatch.setattr(bmc, "REVERSED_MIN_RLIMIT", 1)
    seen = _answers(monkeypatch)
    for name in ("gold is conserved", "a card out of play carries no tokens"):
        p = s.prop(name)
        del seen[:]
        r = bmc.check(s, p, OPTS)
        assert seen == [(1, encoder.SatResult.UNKNOWN)]  # one query, past its budget: the forward unrolling goes on
        assert r == _forward_only(s, p, monkeypatch)
