"""Targets that scale, the engine registry and the lemma fixpoint.

* a target that needs more steps than the depth says so at once;
* the guided simulation finds witnesses, and BMC shortens them;
* one BMC query "the target within k steps" also finds a witness on a path
  that ends early (no action enabled after it);
* ``auto`` is data (:data:`~ruleproof.engines.registry.AUTO`) over the registered engines;
* a property is attempted again only when lemmas arrived after its last attempt, targets last;
* with ``auto``, a shallow k-induction is retried as lemmas come before any property's other stages run.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.dsl import Bool, ForAll, Int, Model, Step, Term
from ruleproof.encoder import SatResult, Unrolling, fresh_context
from ruleproof.engines import ENGINES, bmc, runner
from ruleproof.engines.common import Options
from ruleproof.engines.registry import AUTO, EARLY_KMAX, REGISTRY
from ruleproof.engines.simulate import lower_bound, simulate
from ruleproof.evaluator import Evaluator
from ruleproof.ir import PropKind
from ruleproof.loader import discover, load_system
from ruleproof.results import RawTrace, Verdict

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "model" / "agot" / "gold.py"
TARGET = "sanity: every card can end up in play or played"


def _gold(cards: int) -> object:
    return load_system(discover(GOLD)[0], "default", {"cards": cards, "max_start_gold": 25})


def test_a_target_that_needs_more_steps_than_the_depth_says_so() -> None:
    """The lower bound is past what the simulation may walk (twice the depth): the answer comes at once."""
    s = _gold(14)
    p = s.prop(TARGET)  # type: ignore[attr-defined]
    b = lower_bound(s, p)  # type: ignore[arg-type]
    assert b.steps == 14 and "14 of its conditions are false in every initial state" in b.why
    assert bmc.SIMULATE_PAST * 6 < 14
    r = bmc.check(s, p, Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600))  # type: ignore[arg-type]
    assert r.verdict is Verdict.UNKNOWN
    assert r.reason.startswith("target not reached within 6 steps: it needs at least 14 steps"), r.reason


def test_a_witness_past_the_depth_is_found_by_the_simulation_and_replayed() -> None:
    """12 cards, at most 1 gold at the start: the 3 events cost 6 gold, so the witness needs gold from income or
    abilities, more than the lower bound of 12 steps.  Within the depth (12) the walks are cut short; they go on
    past it (up to :data:`~ruleproof.engines.bmc.SIMULATE_PAST` times the depth) and the witness is reported with
    what it exceeds.  Before, the walks stopped at the depth and BMC asked for the target within 12 steps (no
    witness has so few): in a first version of this test that check ran for over 10 minutes (on a loaded machine)."""
    s = load_system(discover(GOLD)[0], "default", {"cards": 12, "max_start_gold": 1})
    p = s.prop(TARGET)  # type: ignore[attr-defined]
    ev = Evaluator(s)  # type: ignore[arg-type]
    assert lower_bound(s, p, ev).steps == 12  # type: ignore[arg-type]
    assert simulate(s, p, ev, steps=12) is None  # type: ignore[arg-type]
    raw = simulate(s, p, ev, steps=12, beyond=24)  # type: ignore[arg-type]
    assert raw is not None and 12 < len(raw.steps) <= 24 and ev.holds(p, raw.states[-1])  # type: ignore[arg-type]
    opts = Options(depth=12, rlimit=DEFAULT_RLIMIT, timeout=600)
    r = bmc.check(s, p, opts)  # type: ignore[arg-type]
    assert r.verdict is Verdict.PROVED and r.trace is not None and r.depth == len(r.trace.steps) > 12
    assert r.reason == ("target reached in 17 steps, more than the depth 12 (a shorter one was not found: resource "
                        "limit reached (rlimit 5,000,000 per solver call))"), r.reason  # the README's example
    assert bmc.check(s, p, opts) == r  # type: ignore[arg-type]  # the same witness on every run



def _tokens() -> Model:
    """8 tasks, each done by spending a token; one step earns 2 tokens: every witness has 12 steps, the lower bound
    (one task per step) says 8."""
    m = Model("tokens")
    Task = m.sort("Task", 8)
    done = m.var("done", Bool, index=Task, init=False)
    tokens = m.var("tokens", Int(0, 8), init=0)

    @m.action(describe="earn 2 tokens")
    def earn(a: Step) -> None:
        a.require(tokens <= 6)
        a.set(tokens, tokens + 2)

    @m.action(Task, describe="do {t} for a token")
    def do(a: Step, t: Term) -> None:
        a.require(~done[t], tokens >= 1)
        a.set(done[t], True)
        a.set(tokens, tokens - 1)

    m.reachable("every task done", ForAll(Task, lambda t: done[t]))
    return m


@pytest.mark.parametrize("depth", [5, 7, 10, 12])
def test_past_the_depth_the_witness_is_reported_or_the_bound_is_the_answer(depth: int) -> None:
    """The walks go up to twice the depth: at depth 5 (10 steps) no walk gets there and the answer is the lower
    bound's; at 7 the bound alone is past the depth and the walks find the 12 steps; at 10 the walks within the
    depth are cut short and go on.  A query shows that no witness is shorter, said as such; at 12 the witness is
    within the depth, as before."""
    s = _tokens().finish()
    p = s.prop("every task done")
    assert lower_bound(s, p).steps == 8
    r = bmc.check(s, p, Options(depth=depth, rlimit=DEFAULT_RLIMIT, timeout=600))
    if depth == 5:
        assert r.verdict is Verdict.UNKNOWN and r.trace is None
        assert r.reason.startswith("target not reached within 5 steps: it needs at least 8 steps"), r.reason
        return
    assert r.verdict is Verdict.PROVED and r.trace is not None and r.depth == len(r.trace.steps) == 12
    past = "" if depth == 12 else f", more than the depth {depth} (no witness has fewer steps)"
    assert r.reason == f"target reached in 12 steps{past}", r.reason

def test_the_guided_simulation_finds_a_shortest_witness_and_bmc_replays_it() -> None:
    s = _gold(12)
    p = s.prop(TARGET)  # type: ignore[attr-defined]
    raw = simulate(s, p, Evaluator(s), steps=12)  # type: ignore[arg-type]
    assert raw is not None and len(raw.steps) == 12  # the lower bound: one card leaves the hand per step
    r = bmc.check(s, p, Options(depth=12, rlimit=DEFAULT_RLIMIT, timeout=600))  # type: ignore[arg-type]
    assert r.verdict is Verdict.PROVED and r.depth == 12 and r.trace is not None and len(r.trace.steps) == 12
    assert r.reason == "target reached in 12 steps"


def test_the_guided_simulation_has_budget_for_every_conjunct_of_a_40_card_target() -> None:
    """At 40 cards the witness plays every card (49 steps, a second round for the last events): with a fixed
    budget for the ways out of plateaus the walk got stuck at 38 of 40 cards and the target was unknown."""
    s = _gold(40)
    p = s.prop(TARGET)  # type: ignore[attr-defined]
    ev = Evaluator(s)  # type: ignore[arg-type]
    raw = simulate(s, p, ev, steps=50)  # type: ignore[arg-type]
    assert raw is not None and len(raw.steps) <= 50
    assert ev.holds(p, raw.states[-1])  # type: ignore[arg-type]


def test_a_longer_witness_is_shortened_by_bmc(monkeypatch: pytest.MonkeyPatch) -> None:
    """A witness with detours (here: two needless gold gains first) is brought down to the lower bound."""
    s = _gold(8)
    p = s.prop(TARGET)  # type: ignore[attr-defined]
    ev = Evaluator(s)  # type: ignore[arg-type]
    shortest = simulate(s, p, ev, steps=8)  # type: ignore[arg-type]
    assert shortest is not None and len(shortest.steps) == 8
    labels = [a.label for a in s.actions]  # type: ignore[attr-defined]
    start = shortest.states[0]
    detour = [labels.index("gain_gold(p1)"), labels.index("gain_gold(p2)")]
    states, steps = [start], []
    for ai in detour + [ai for ai, _ch in shortest.steps]:
        nxt = ev.apply(ai, states[-1], {})
        assert nxt is not None
        states.append(nxt)
        steps.append((ai, ()))
    long = RawTrace(tuple(states), tuple(steps))
    monkeypatch.setattr(bmc, "simulate", lambda *a, **kw: long)
    r = bmc.check(s, p, Options(depth=20, rlimit=DEFAULT_RLIMIT, timeout=600))  # type: ignore[arg-type]
    assert r.verdict is Verdict.PROVED and r.depth == 8 and r.trace is not None and len(r.trace.steps) == 8


def _ends_early() -> Model:
    m = Model("early")
    x = m.var("x", Int(0, 5), init=0)

    @m.action(describe="x goes up, up to 2; then nothing can happen")
    def inc(a: Step) -> None:
        a.require(x < 2)
        a.set(x, x + 1)

    m.reachable("x reaches 2", x == 2)
    m.reachable("x reaches 3 (never)", x == 3)
    return m


def test_one_query_finds_a_target_on_a_path_that_ends_before_the_depth() -> None:
    s = _ends_early().finish()
    p = s.prop("x reaches 2")
    fresh_context()
    u = Unrolling(s, initial=True, stop=p)
    for _ in range(5):
        u.extend()
    assert u.check(u.holds(p, 5)) is SatResult.SAT  # no path has 5 steps: the path stands still at the target
    assert len(u.trace().steps) == 2
    plain = Unrolling(s, initial=True)
    for _ in range(5):
        plain.extend()
    assert plain.check() is SatResult.UNSAT  # without standing still, no path is 5 steps long


def test_an_unreachable_target_is_unknown_for_bmc_and_violated_for_auto() -> None:
    s = _ends_early().finish()
    p = s.prop("x reaches 3 (never)")
    opts = Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600)
    r = bmc.check(s, p, opts)
    assert r.verdict is Verdict.UNKNOWN and r.reason == "target not reached within 6 steps"
    a = runner.check_property(s, p, "auto", opts)  # a small system: explored whole after BMC
    assert a.verdict is Verdict.VIOLATED and a.engine == "auto/explicit", (a.engine, a.reason)
    assert a.reason == "target is unreachable: all 3 reachable states explored"
    c = runner.check_property(s, p, "chc", opts)  # Spacer, auto's last stage for a larger system, agrees
    assert c.verdict is Verdict.VIOLATED and "unreachable" in c.reason


def test_auto_finds_a_witness_past_the_depth_in_a_small_system() -> None:
    s = _ends_early().finish()
    p = s.prop("x reaches 2")
    opts = Options(depth=1, rlimit=DEFAULT_RLIMIT, timeout=600)
    assert bmc.check(s, p, opts).verdict is Verdict.UNKNOWN  # two steps are needed, BMC looks at one
    a = runner.check_property(s, p, "auto", opts)
    assert a.verdict is Verdict.PROVED and a.engine == "auto/explicit" and a.trace is not None
    assert len(a.trace.steps) == 2 and a.reason == "target reached in 2 steps"


def _counters(name: str, top: int, y_follows: bool) -> tuple[Model, Term, Term]:
    """Counters ``x`` and ``y`` from 0; one action raises ``x`` up to ``top`` (and ``y`` with it when ``y_follows``)."""
    m = Model(name)
    x = m.var("x", Int(0, 10), init=0)
    y = m.var("y", Int(0, 10), init=0)

    @m.action()
    def inc(a: Step) -> None:
        a.require(x < top)
        a.set(x, x + 1)
        if y_follows:
            a.set(y, y + 1)

    return m, x, y


def test_a_conjunct_no_action_can_change_makes_a_target_unreachable() -> None:
    m, x, y = _counters("frozen", 3, y_follows=False)
    m.reachable("x and y both 1", (x == 1) & (y == 1))
    s = m.finish()
    b = lower_bound(s, s.prop("x and y both 1"))
    assert b.steps is None and b.why == "(y == 1) is false in every initial state and no action changes y"
    r = bmc.check(s, s.prop("x and y both 1"), Options(depth=4, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict is Verdict.UNKNOWN and "it can never be reached" in r.reason


def test_engines_are_registered_and_auto_is_data() -> None:
    assert set(ENGINES) == {"auto", *REGISTRY}
    assert set(AUTO) == set(PropKind)
    for stages in AUTO.values():
        assert stages and all(st.engine in REGISTRY for st in stages)
    assert not REGISTRY["bmc"].proves and REGISTRY["kind"].proves and not REGISTRY["explicit"].uses_lemmas


def _needs_lemmas() -> Model:
    m, x, y = _counters("lemmas", 3, y_follows=True)
    m.invariant("y stays at most 3", y <= 3)  # not inductive alone: needs the two below
    m.invariant("y follows x", y == x)
    m.invariant("x stays at most 3", x <= 3)
    m.reachable("y reaches 3", y == 3)
    return m


def test_an_open_property_is_tried_again_only_after_new_lemmas_and_targets_come_last(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = _needs_lemmas().finish()
    calls: list[tuple[str, int]] = []
    seconds: dict[str, float] = {}
    real = runner.check_property

    def spy(system, prop, engine, opts, lemmas=(), *a, **kw):  # type: ignore[no-untyped-def]
        calls.append((prop.name, len(lemmas)))
        r = real(system, prop, engine, opts, lemmas, *a, **kw)
        seconds[prop.name] = seconds.get(prop.name, 0.0) + r.seconds
        return r

    monkeypatch.setattr(runner, "check_property", spy)
    results = runner.check_system(s, "kind", Options(depth=5, kmax=3, rlimit=DEFAULT_RLIMIT, timeout=600), [
        "y stays at most 3", "y follows x", "x stays at most 3", "y reaches 3"])
    assert [(r.property, r.verdict) for r in results] == [
        ("y stays at most 3", Verdict.PROVED), ("y follows x", Verdict.PROVED),
        ("x stays at most 3", Verdict.PROVED), ("y reaches 3", Verdict.UNKNOWN)]  # k-induction has no witnesses
    assert calls == [("y stays at most 3", 0), ("y follows x", 0), ("x stays at most 3", 1),
                     ("y stays at most 3", 2), ("y reaches 3", 3)]
    assert results[0].reason == "1-inductive"
    assert results[0].seconds == pytest.approx(seconds["y stays at most 3"], abs=0.002)  # both attempts count


def test_auto_retries_a_shallow_k_induction_as_lemmas_come_before_any_other_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = _needs_lemmas().finish()
    runs: list[tuple[str, str, int, int]] = []

    def spy(name: str, check):  # type: ignore[no-untyped-def]
        def run(system, prop, opts, lemmas=(), *a, **kw):  # type: ignore[no-untyped-def]
            runs.append((prop.name, name, opts.kmax, len(lemmas)))
            return check(system, prop, opts, lemmas, *a, **kw)
        return run

    monkeypatch.setattr(runner, "REGISTRY", {n: replace(e, check=spy(n, e.check)) for n, e in REGISTRY.items()})
    first = "y stays at most 3"  # needs the two properties declared after it
    results = runner.check_system(s, "auto",
            Options(depth=5, rlimit=DEFAULT_RLIMIT, timeout=600), [first, "y follows x", "x stays at most 3"])
    assert [(r.property, r.verdict, r.engine, r.reason) for r in results] == [
        (first, Verdict.PROVED, "auto/kind", "1-inductive"),
        ("y follows x", Verdict.PROVED, "auto/kind", "1-inductive"),
        ("x stays at most 3", Verdict.PROVED, "auto/kind", "1-inductive")]
    # a shallow k-induction (k <= EARLY_KMAX) first, tried again once the lemmas came: Spacer never ran
    assert runs == [(first, "kind", EARLY_KMAX, 0), ("y follows x", "kind", EARLY_KMAX, 0),
                    ("x stays at most 3", "kind", EARLY_KMAX, 1), (first, "kind", EARLY_KMAX, 2)]
    # checked alone (no fixpoint), the same property goes through the full k-induction, then Spacer
    runs.clear()
    alone = runner.check_property(s, s.prop(first), "auto", Options(depth=5, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert alone.verdict is Verdict.PROVED and alone.engine == "auto/chc"
    assert runs == [(first, "kind", 8, 0), (first, "chc", 8, 0)]
