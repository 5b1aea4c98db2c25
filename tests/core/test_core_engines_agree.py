"""BMC, k-induction and explicit search agree: same verdicts, same shortest counterexample length."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.dsl import Int, Model, Step
from ruleproof.engines import bmc, chc, explicit, kind
from ruleproof.engines.common import Options, replay
from ruleproof.engines.runner import check_system, coverage
from ruleproof.errors import InternalError
from ruleproof.evaluator import Evaluator
from ruleproof.loader import discover, load_system
from ruleproof.results import RawTrace, Verdict

ROOT = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parents[1] / "fixtures"
OPTS = Options(depth=5, kmax=5, rlimit=DEFAULT_RLIMIT, timeout=600)
GOLD_OPTS = Options(depth=5, kmax=5, rlimit=DEFAULT_RLIMIT, timeout=600)
"""The small gold's searches are bounded by depth (and the explicit state cap); the wall-clock is a safety net
only, so a loaded machine cannot cut a search short and turn a verdict into 'holds to depth'."""


def _violated(v: Verdict) -> bool:
    return v is Verdict.VIOLATED


@pytest.mark.parametrize("mutant", ["", "spend_without_return", "overspend", "tokens_lost", "marshal_any_phase"])
def test_engines_agree_on_small_gold(mutant: str) -> None:
    s = load_system(discover(ROOT / "model" / "agot" / "gold.py")[0], "small", {"mutant": mutant})
    for p in s.properties:
        if p.kind.value == "reachable" or p.builtin:
            continue
        rb = bmc.check(s, p, GOLD_OPTS)
        # The explicit search of a property that holds visits every state within the depth (about 16 s of CPU
        # each since the treasury cannot run out): it is compared on the violated properties and conservation.
        if not _violated(rb.verdict) and p.name != "gold is conserved":
            continue
        re = explicit.check(s, p, GOLD_OPTS)
        rk = kind.check(s, p, GOLD_OPTS)
        assert _violated(rb.verdict) == _violated(re.verdict), (mutant, p.name, rb, re)
        if rk.verdict is not Verdict.UNKNOWN and rk.depth <= GOLD_OPTS.depth:
            assert _violated(rk.verdict) == _violated(rb.verdict) or rk.verdict is Verdict.HOLDS_TO_DEPTH, p.name
        if _violated(rb.verdict):
            assert rb.trace is not None and re.trace is not None
            assert len(rb.trace.steps) == len(re.trace.steps) == rb.depth, (p.name, rb.depth, re.depth)
            if _violated(rk.verdict):
                assert len(rk.trace.steps) == rb.depth  # type: ignore[union-attr]


def _random_model(actions: list[tuple[int, int, int]], bound: int, limit: int) -> Model:
    """Two counters; action i: guard x >= g, x += dx, y += dy (clamped by guards to stay in 0..6)."""
    m = Model("random")
    x = m.var("x", Int(0, 6), init=0)
    y = m.var("y", Int(0, 6), init=0)

    def make(g: int, dx: int, dy: int):  # type: ignore[no-untyped-def]
        def body(a: Step) -> None:
            a.require((x >= g) & (x + dx >= 0) & (x + dx <= 6) & (y + dy >= 0) & (y + dy <= 6))
            a.set(x, x + dx)
            a.set(y, y + dy)

        return body

    for i, (g, dx, dy) in enumerate(actions):
        m.action(name=f"act{i}")(make(g, dx, dy))
    m.invariant("bounded sum", x + y <= bound, cites=["random"])
    m.invariant("y below limit", y < limit, cites=["random"])
    return m


@settings(max_examples=200)
@given(
    actions=st.lists(st.tuples(st.integers(0, 3), st.integers(-2, 2), st.integers(-1, 2)), min_size=1, max_size=3),
    bound=st.integers(0, 12),
    limit=st.integers(1, 7),
)
def test_random_models_engines_never_disagree(actions: list[tuple[int, int, int]], bound: int, limit: int) -> None:
    s = _random_model(actions, bound, limit).finish()
    opts = Options(depth=6, kmax=6, rlimit=DEFAULT_RLIMIT, timeout=600)
    for p in s.properties:
        rb = bmc.check(s, p, opts)
        re = explicit.check(s, p, opts)
        rk = kind.check(s, p, opts)
        assert Verdict.UNKNOWN not in (rb.verdict, rk.verdict)
        assert _violated(rb.verdict) == _violated(re.verdict) or (re.verdict is Verdict.VIOLATED and re.depth > 6)
        if _violated(rb.verdict):
            assert rb.depth == re.depth == len(rb.trace.steps)  # type: ignore[union-attr]
        # a proof never contradicts a counterexample
        if rk.verdict is Verdict.PROVED or re.verdict is Verdict.PROVED:
            assert not _violated(rb.verdict)
        if _violated(rk.verdict):
            assert rk.depth == rb.depth


def test_chc_proves_conservation_and_shows_the_invariant() -> None:
    s = load_system(discover(ROOT / "model" / "agot" / "gold.py")[0], "small")
    r = chc.check(s, s.prop("gold is conserved"), OPTS)
    assert r.verdict is Verdict.PROVED and r.engine == "chc"
    assert "treasury" in r.invariant and "gold[player 1]" in r.invariant


def test_lemmas_make_the_range_property_provable() -> None:
    s = load_system(discover(ROOT / "model" / "agot" / "gold.py")[0], "small")
    ranges = s.prop("state stays within declared ranges")
    alone = kind.check(s, ranges, Options(depth=3, kmax=2, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert alone.verdict is not Verdict.PROVED
    lemmas = [s.prop("gold is conserved"), s.prop("no gold pool, treasury or token count goes below zero")]
    with_lemmas = kind.check(s, ranges, Options(kmax=2, rlimit=DEFAULT_RLIMIT, timeout=600), lemmas)
    assert with_lemmas.verdict is Verdict.PROVED


def test_same_input_same_result() -> None:
    """Two runs of the CLI (fresh processes, as users run it) give the same JSON, timings aside.

    Within one process Z3's shared context keeps terms from earlier queries, which can change
    which of several shortest counterexamples comes back; the verdict and length cannot change.
    """
    import json
    import os
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "ruleproof.cli", "check", str(ROOT / "model" / "agot" / "gold.py"), "--json",
           "--param", 'mutant="spend_without_return"', "-p", "gold is conserved", "--depth", "4"]
    env = dict(os.environ, PYTHONHASHSEED="0")
    outs = []
    for _ in range(2):
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        assert p.returncode == 1, p.stderr
        obj = json.loads(p.stdout)
        for r in obj["results"]:
            r.pop("seconds")
        outs.append(obj)
    assert outs[0] == outs[1]
    assert outs[0]["results"][0]["trace"]["steps"]
    s = load_system(discover(ROOT / "model" / "agot" / "gold.py")[0], "default", {"mutant": "spend_without_return"})
    a = check_system(s, "bmc", Options(depth=4, rlimit=DEFAULT_RLIMIT, timeout=600), ["gold is conserved"])
    b = check_system(s, "bmc", Options(depth=4, rlimit=DEFAULT_RLIMIT, timeout=600), ["gold is conserved"])
    assert a[0].verdict is b[0].verdict is Verdict.VIOLATED and a[0].depth == b[0].depth


def test_a_trace_that_does_not_replay_is_an_internal_error() -> None:
    s = load_system(discover(ROOT / "model" / "agot" / "gold.py")[0], "small", {"mutant": "overspend"})
    p = s.prop("no gold pool, treasury or token count goes below zero")
    r = bmc.check(s, p, OPTS)
    assert r.verdict is Verdict.VIOLATED and r.trace is not None
    ev = Evaluator(s)
    states = list(r.trace.states)
    steps = tuple((i, ()) for i in [0] * (len(states) - 1))
    tampered = RawTrace(tuple(states), steps)  # wrong actions for these states
    with pytest.raises(InternalError):
        replay(s, ev, tampered, p)


def test_coverage_flags_an_action_that_never_fires() -> None:
    s = load_system(discover(FIX / "counter_model.py")[0])
    cov = coverage(s, 6, OPTS, "auto")
    assert cov.never == ("never",) and set(cov.fired) == {"move", "add"}
    assert coverage(s, 6, OPTS, "explicit").never == ("never",)


def test_k_induction_does_not_prove_an_action_property_violated_by_a_step_that_changes_nothing():
    """Regression: the simple-path constraint must not exclude a violating step back to an earlier state."""
    from ruleproof.dsl import If, Int, Model
    from ruleproof.engines.common import Options
    from ruleproof.engines.runner import check_property
    from ruleproof.results import Verdict

    m = Model("idle")
    x = m.var("x", Int(0, 2), init=0)

    @m.action(describe="nothing happens")
    def idle(a: Step) -> None:
        a.set(x, x)

    @m.action(describe="x goes up, then back to 0")
    def cycle(a: Step) -> None:
        a.set(x, If(x < 2, x + 1, 0))

    m.action_property("idle changes x", "idle", lambda t: t.post(x) != x)
    m.action_property("cycle never returns to 0", "cycle", lambda t: t.post(x) != 0)
    s = m.finish()
    for name in ("idle changes x", "cycle never returns to 0"):
        for engine in ("kind", "bmc", "explicit"):
            r = check_property(s, s.prop(name), engine, Options(depth=4, rlimit=DEFAULT_RLIMIT, timeout=600))
            assert r.verdict is Verdict.VIOLATED, (name, engine, r.verdict, r.reason)


def test_a_witness_does_not_depend_on_earlier_solver_work() -> None:
    """Each engine query starts in a fresh Z3 context: the trace is a function of the query alone.

    A check that timed out earlier in the same process (or ran on another
    Dask worker) must not change which witness a later query returns.
    """
    bank = Path(__file__).resolve().parents[1] / "scale" / "fixtures" / "mini" / "bank.py"
    s = load_system(discover(bank)[0], "big", {})
    target = next(p for p in s.properties if p.kind.value == "reachable")
    deep = Options(depth=10, kmax=5, rlimit=DEFAULT_RLIMIT, timeout=600)
    first = bmc.check(s, target, deep)
    assert first.verdict is Verdict.PROVED and first.trace is not None
    # unrelated solver work in the current context: a deeper unrolling of another property
    other = load_system(discover(ROOT / "model" / "agot" / "gold.py")[0], "small", {})
    for p in other.properties[:3]:
        bmc.check(other, p, Options(depth=6, kmax=6, rlimit=DEFAULT_RLIMIT, timeout=600))
        kind.check(other, p, Options(depth=6, kmax=6, rlimit=DEFAULT_RLIMIT, timeout=600))
    again = bmc.check(s, target, deep)
    assert again.trace == first.trace
    assert check_system(s, "auto", deep, [target.name])[0].trace == first.trace
