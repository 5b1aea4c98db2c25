"""The transition system generated from the timing declaration: proofs, and one mutant per property."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from ruleproof.engines import bmc, explicit, kind
from ruleproof.engines.common import Options
from ruleproof.evaluator import Evaluator
from ruleproof.ir import PropKind, System
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict
from ruleproof.timing.agot import AGOT_SEQUENCE, MUTANTS, mutant
from ruleproof.timing.graph import timing_graph

ROOT = Path(__file__).resolve().parents[2]
EXHAUSTIVE = Options(depth=80)


def _spec():  # type: ignore[no-untyped-def]
    return next(s for s in discover(ROOT / "model" / "agot") if s.name == "timing")


def _system(mutant_name: str = "", scenario: str = "default") -> System:
    return load_system(_spec(), scenario, {"mutant": mutant_name})


def _replays(system: System, trace) -> bool:  # type: ignore[no-untyped-def]
    """The trace's states follow one another by the system's actions (checked concretely)."""
    ev = Evaluator(system)
    states = [tuple(s) for s in trace.states]
    if not states or not ev.is_initial(ev.from_dict(dict(zip(trace.var_names, states[0], strict=True)))):
        return False
    for a, b in zip(states, states[1:], strict=False):
        sa = ev.from_dict(dict(zip(trace.var_names, a, strict=True)))
        sb = ev.from_dict(dict(zip(trace.var_names, b, strict=True)))
        if not any(t == sb for _ai, _ch, t in ev.successors(sa)):
            return False
    return True


def test_agot_timing_is_proved_exhaustively() -> None:
    s = _system()
    fired, n, done = explicit.explore(s, 80, 100_000, None)
    assert done and n > 100
    assert set(fired) == set(s.families())  # every move kind happens, return included
    for p in s.properties:
        r = explicit.check(s, p, EXHAUSTIVE)
        assert r.verdict is Verdict.PROVED, (p.name, r.verdict, r.reason)


def test_agot_timing_rules_are_k_inductive() -> None:
    """Every property is 2-inductive once the earlier ones are lemmas (no wall-clock bound here: speed
    targets live in benchmarks/, the standards say; a wall-clock assert failed on the loaded machine)."""
    s = _system()
    lemmas = []
    for p in sorted(s.properties, key=lambda p: (not p.builtin, not p.name.startswith("lemma"))):
        if p.kind is PropKind.REACH:
            continue
        r = kind.check(s, p, Options(depth=10, kmax=2), lemmas)
        assert r.verdict is Verdict.PROVED, (p.name, r.reason)
        lemmas.append(p)


CAUGHT = {
    "close_after_one_pass": "a window closes only after every player has passed consecutively",
    "active_player_first": "the first player has the first opportunity in every window, nested or not (proceed)",
    "repeatable_interrupts": "each ability is used at most once per triggering condition",
    "unshared_windows": "nesting depth stays within the scenario's bound",
    "reactions_before_occurrence": "no reaction before its triggering condition occurs",
    "interrupts_after_occurrence": "no interrupt resolves after its triggering condition occurred",
    "no_forced_reactions": "every eligible forced ability has resolved when its sequence completes",
    "window_before_forced": "forced abilities take priority over non-forced ones",
    "fifo": "an open triggering condition below the newest waits at the ability that raised it",
    "cancel_continues": "a cancelled triggering condition never occurs",
}


@pytest.mark.parametrize("name", sorted(CAUGHT))
def test_each_property_catches_its_mutant(name: str) -> None:
    assert name in MUTANTS
    prop = CAUGHT[name]
    good = _system()
    assert explicit.check(good, good.prop(prop), EXHAUSTIVE).verdict is Verdict.PROVED
    bad = _system(name)
    r = explicit.check(bad, bad.prop(prop), EXHAUSTIVE)
    assert r.verdict is Verdict.VIOLATED, (name, r.reason)
    assert r.trace is not None and r.trace.steps
    assert _replays(bad, r.trace)


def test_symbolic_and_explicit_engines_agree_on_a_mutant() -> None:
    bad = _system("close_after_one_pass")
    p = bad.prop(CAUGHT["close_after_one_pass"])
    e = explicit.check(bad, p, EXHAUSTIVE)
    k = bmc.check(bad, p, Options(depth=12))
    assert e.verdict is Verdict.VIOLATED and k.verdict is Verdict.VIOLATED
    assert k.trace is not None and len(k.trace.steps) == len(e.trace.steps)  # both shortest
    assert k.trace.steps[-1].family == "pass"


def test_removing_the_forced_reaction_step_changes_graph_and_system() -> None:
    prop = CAUGHT["no_forced_reactions"]
    g, h = timing_graph(AGOT_SEQUENCE), timing_graph(mutant("no_forced_reactions"))
    assert g.number_of_nodes() - h.number_of_nodes() == 4  # the step and its resolving step, at 2 levels
    good, bad = _system(), _system("no_forced_reactions")
    assert "forced_reactions" in good.var("step[l1]").type.values  # type: ignore[union-attr]
    assert "forced_reactions" not in bad.var("step[l1]").type.values  # type: ignore[union-attr]
    assert explicit.check(good, good.prop(prop), EXHAUSTIVE).verdict is Verdict.PROVED
    r = explicit.check(bad, bad.prop(prop), EXHAUSTIVE)
    assert r.verdict is Verdict.VIOLATED and r.trace is not None
    # the forced reaction to the drawn card never resolved, yet the nested sequence completed
    assert any("raises a new condition" in st.description for st in r.trace.steps)


def test_three_players_every_window_still_needs_all_passes() -> None:
    s = _system(scenario="melee")
    assert len(s.var("first").type.values) == 3  # type: ignore[union-attr]
    for name in (CAUGHT["close_after_one_pass"], CAUGHT["active_player_first"]):
        assert explicit.check(s, s.prop(name), EXHAUSTIVE).verdict is Verdict.PROVED


def test_graph_checks_as_results() -> None:
    path = ROOT / "model" / "agot" / "timing.py"
    spec = importlib.util.spec_from_file_location("_timing_model_under_test", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    results = mod.graph_checks()
    from ruleproof.timing.checks import CHECKS

    assert len([r for r in results if r.scenario == "graph:sequence"]) == len(CHECKS)
    assert {r.scenario for r in results if r.scenario.startswith("graph:round")} == {"graph:round:joust",
                                                                                    "graph:round:melee"}
    assert all(r.verdict is Verdict.PROVED and r.engine == "graph" for r in results)
    bad = mod.graph_checks("return_elsewhere")
    worst = [r for r in bad if r.verdict is Verdict.VIOLATED]
    assert [r.property for r in worst] == ["nested sequences resolve last in, first out"]
    assert worst[0].trace is not None and worst[0].trace.steps and "path:" in worst[0].reason
