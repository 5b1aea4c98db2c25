"""Rules consistency checks (deadlock, determinism, must-vs-cannot, rule coverage): each catches its mutant."""

from __future__ import annotations

import io
import itertools
import json
import sys
from pathlib import Path

import pytest

from ruleproof import ir
from ruleproof.cli import run
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.consistency import DEADLOCK, MUST_CANNOT, enabled_expr
from ruleproof.dsl import Bool, Int, Model, Step
from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_system, coverage
from ruleproof.errors import InputError
from ruleproof.evaluator import Evaluator
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "agot"))
from agot_rules_helpers import Concrete  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEADLOCK_NAME = "the game can always proceed (no deadlock)"
DETERMINISM_NAME = "outcomes are determined (no two rules set one value differently at once)"


def load(name: str, scenario: str = "small", **over):
    spec = next(s for s in discover(ROOT / "model" / "agot") if s.name == name)
    return load_system(spec, scenario, over)


def run_check(system, name: str, engine: str = "bmc", depth: int = 6):
    (r,) = check_system(system, engine, Options(depth=depth, rlimit=DEFAULT_RLIMIT, timeout=600), [name])
    return r


def checks_of(system) -> dict[str, str]:
    return {p.name: p.check for p in system.properties if p.check}


# ------------------------------------------------------------------ deadlock


def test_claim_model_can_always_proceed():
    r = run_check(load("claim"), DEADLOCK_NAME, engine="kind", depth=6)
    assert r.verdict is Verdict.PROVED, r.reason


def test_exact_claim_rule_is_caught_as_a_deadlock_with_the_blocked_rules_named():
    """A claim rule demanding exactly `claim` kills when fewer can be chosen leaves the game stuck."""
    s = load("claim", mutant="exact_claim")
    r = run_check(s, DEADLOCK_NAME)
    assert r.verdict is Verdict.VIOLATED
    assert r.trace is not None and r.trace.steps
    # the stuck state really enables nothing (checked on the evaluator, independently of the solver)
    ev = Evaluator(s)
    stuck = r.trace.states[-1]
    assert not any(ev.enabled(i, stuck) for i in range(len(s.actions)))
    assert r.reason.startswith("stuck: no action is enabled")
    assert "kill_chosen needs" in r.reason and "Military Claim" in r.cites


def test_declared_game_end_is_not_a_deadlock():
    def build(end: bool) -> Model:
        m = Model("countdown")
        n = m.var("n", Int(0, 3), init=3)

        @m.action(describe="count down")
        def tick(a: Step) -> None:
            a.require(n > 0)
            a.set(n, n - 1)

        if end:
            m.game_end(n == 0, cites=["End"])
        return m

    stuck = run_check(build(False).finish(), DEADLOCK_NAME, depth=4)
    assert stuck.verdict is Verdict.VIOLATED and len(stuck.trace.steps) == 3
    ok = run_check(build(True).finish(), DEADLOCK_NAME, engine="kind")
    assert ok.verdict is Verdict.PROVED


def test_deadlock_check_quantifies_over_the_choices_a_guard_reads():
    """Enabled means: some choice satisfies the guard; the check must not treat a choice as fixed."""

    def build(reset_at: int) -> Model:
        m = Model("pick")
        x = m.var("x", Int(0, 5), init=0)

        @m.action(describe="pick a value above x")
        def pick(a: Step) -> None:
            k = a.choose("k", Int(0, 5))
            a.require(k > x)
            a.set(x, k)

        @m.action(describe="reset")
        def reset(a: Step) -> None:
            a.require(x == reset_at)
            a.set(x, 0)

        return m

    good = build(5).finish()
    assert run_check(good, DEADLOCK_NAME, depth=6).verdict is Verdict.HOLDS_TO_DEPTH
    assert run_check(good, DEADLOCK_NAME, engine="explicit", depth=8).verdict is Verdict.PROVED
    bad = run_check(build(4).finish(), DEADLOCK_NAME, depth=3)
    assert bad.verdict is Verdict.VIOLATED and bad.trace.steps[-1].changes[0].new == 5


def test_enabled_expands_only_the_requirements_that_read_choices():
    """exists k. (F and B(k)) is F and exists k. B(k) when F reads no choice: the state requirements are kept once,
    and the requirements on the choices are expanded (here: stopping at the first vector that satisfies them);
    the result agrees with the expansion of the whole guard in every state."""
    m = Model("split")
    x = m.var("x", Int(0, 3), init=0)
    on = m.var("on", Bool, init=False)

    @m.action(describe="pick two values, the first at least the second")
    def pick(a: Step) -> None:
        j, k = a.choose("j", Int(0, 3)), a.choose("k", Int(0, 3))
        a.require(on)
        a.require(j >= k)
        a.require(k >= x)
        a.set(x, j)

    s = m.finish()
    (act,) = s.actions
    got = enabled_expr(act)
    assert not any(isinstance(e, ir.Choice) for e in ir.walk(got))
    chs = list(act.choices)
    whole = ir.or_(*(ir.substitute(act.guard, {c.name: ir.const(v) for c, v in zip(chs, vs, strict=True)})
                     for vs in itertools.product(range(4), range(4))))
    ev = Evaluator(s)
    for xv in range(4):
        for onv in (False, True):
            st = ev.from_dict({"x": xv, "on": onv})
            assert ev.compile(got)(st, st, {}) == ev.compile(whole)(st, st, {}) == onv, (xv, onv)


# ------------------------------------------------------------------ determinism


def test_simultaneous_set_modifiers_without_a_tie_break_are_ambiguous():
    s = load("modifiers", mutant="simultaneous_no_order")
    r = run_check(s, DETERMINISM_NAME, depth=3)
    assert r.verdict is Verdict.VIOLATED and r.trace is not None
    assert r.trace.steps[-1].family == "apply_two_sets"
    # both successors are named side by side, with the model lines that write them
    assert "value is set to" in r.reason and " vs " in r.reason and "modifiers.py:" in r.reason
    assert "Priority of Simultaneous Resolution" in r.cites


def test_modifiers_with_the_first_player_ordering_them_are_determined():
    r = run_check(load("modifiers"), DETERMINISM_NAME, engine="kind", depth=3)
    assert r.verdict is Verdict.PROVED, r.reason


def test_faq_first_player_chooses_the_order_of_simultaneous_set_modifiers():
    """FAQ (Varys's Riddle, Summer Harvest): the first player's order decides which set value wins."""
    c = Concrete(load("modifiers"))
    s0 = c.state({"base": 3, "value": 3})
    label = "apply_two_sets(s1, s2)"
    a = c.step(label, s0, {"to_1": 2, "to_2": 4, "first player applies the second last": True})
    b = c.step(label, s0, {"to_1": 2, "to_2": 4, "first player applies the second last": False})
    assert c.get(a, "value") == 4 and c.get(b, "value") == 2


def test_a_stated_precedence_is_not_an_ambiguity():
    def build(precedence: str) -> Model:
        m = Model("override")
        x = m.var("x", Int(0, 3), init=0)
        flag = m.var("flag", Bool, init=False)

        @m.action(describe="set x")
        def go(a: Step) -> None:
            k = a.choose("k", Bool)
            a.set(x, 1)
            a.set(x, 2, when=k, precedence=precedence)
            a.set(flag, k)

        return m

    assert run_check(build("").finish(), DETERMINISM_NAME, depth=2).verdict is Verdict.VIOLATED
    stated = build("the later effect replaces the earlier one").finish()
    assert stated.prop(DETERMINISM_NAME).conds == ()  # no candidate conflict left
    assert run_check(stated, DETERMINISM_NAME, engine="kind").verdict is Verdict.PROVED


# ------------------------------------------------------------------ must vs cannot


def test_forced_kill_of_a_character_that_cannot_be_killed_without_a_resolution_is_caught():
    s = load("claim", mutant="no_cannot_rule")
    name = "'must' never meets 'cannot': killed"
    assert checks_of(s)[name] == MUST_CANNOT
    r = run_check(s, name)
    assert r.verdict is Verdict.VIOLATED and r.trace is not None
    assert r.trace.steps[-1].family == "reveal_kill_each"
    assert r.reason.startswith("both obliged and prohibited")
    assert set(r.cites) >= {"Cannot", "Kill, Killed"}


def test_cannot_prevails_is_kept_by_the_model_and_a_kill_that_ignores_it_is_caught():
    name = "'cannot' prevails over 'must': killed"
    lemma = "a character that cannot be killed is never chosen for military claim"  # makes it inductive
    results = check_system(load("claim"), "kind", Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600), [lemma, name])
    assert [r.verdict for r in results] == [Verdict.PROVED, Verdict.PROVED]
    bad = run_check(load("claim", mutant="valar_kills_immune"), name)
    assert bad.verdict is Verdict.VIOLATED and bad.trace.steps[-1].family == "kill_each"


def test_resolution_where_must_wins_is_checked_too():
    def build(drop: bool) -> Model:
        m = Model("mustwins")
        ordered = m.var("ordered", Bool, init=False)
        immune = m.var("immune", Bool, init=True)
        done = m.var("done", Bool, init=False)

        @m.action(describe="an effect orders it")
        def order(a: Step) -> None:
            a.require(~ordered & ~done)
            a.set(ordered, True)

        @m.action(describe="it happens")
        def happen(a: Step) -> None:
            a.require(ordered)
            a.set(done, True)
            a.set(ordered, False)

        @m.action(describe="the order is dropped")
        def give_up(a: Step) -> None:
            a.require(ordered & drop)
            a.set(ordered, False)

        m.must("it", None, lambda: ordered)
        m.cannot("it", None, lambda: immune)
        m.resolve("it", None, wins="must", happened=lambda: done)
        m.game_end(done)
        return m

    name = "'must' prevails over 'cannot': it"
    assert run_check(build(False).finish(), name, engine="kind").verdict is Verdict.PROVED
    assert run_check(build(True).finish(), name).verdict is Verdict.VIOLATED


def test_bad_consistency_declarations_are_input_errors_with_a_location():
    m = Model("bad")
    m.var("x", Bool, init=False)
    with pytest.raises(InputError, match="wins='must' or wins='cannot'") as e:
        m.resolve("o", None, wins="never", happened=lambda: True)
    assert e.value.loc is not None and e.value.loc.file.endswith("test_consistency.py")
    with pytest.raises(InputError, match="unknown consistency check 'deadlok'.*deadlock"):
        m.skip_check("deadlok", "typo")
    with pytest.raises(InputError, match="needs a reason"):
        m.skip_check(DEADLOCK, " ")


# ------------------------------------------------------------------ CLI: --skip-check and --coverage


def _cli(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = run(list(args), out, err)
    return rc, out.getvalue() + err.getvalue()


def test_skip_check_switches_a_consistency_check_off_by_name():
    model = str(ROOT / "model" / "agot" / "claim.py")
    rc, text = _cli("check", model, "--scenario", "small", "--param", 'mutant="exact_claim"', "--engine", "bmc",
                    "--depth", "4", "--json", "-p", DEADLOCK_NAME)
    assert rc == 1 and json.loads(text)["results"][0]["verdict"] == "violated"
    rc, text = _cli("check", model, "--scenario", "small", "--param", 'mutant="exact_claim"', "--engine", "bmc",
                    "--depth", "4", "--json", "-p", DEADLOCK_NAME, "--skip-check", DEADLOCK)
    assert rc == 2 and "nothing to check" in json.loads(text)["error"]  # exit 0 over no result would be a false green


def test_coverage_names_an_unreachable_rule():
    model = str(ROOT / "model" / "agot" / "claim.py")
    rc, text = _cli("check", model, "--scenario", "small", "--param", 'mutant="unreachable_save"', "--engine", "bmc",
                    "--depth", "5", "--coverage", "--json", "-p", "sanity: military claim can kill a character")
    assert rc == 0
    rules = json.loads(text)["results"][0]["coverage"]["rules"]
    status = {(x["kind"], x["rule"]): x["status"] for x in rules}
    assert status[("action", "save_with_duplicate")] == "unreached"
    assert status[("action", "kill_chosen")] == "reached"
    assert any(k == "branch" and v == "reached" for (k, _), v in status.items())
    rc, text = _cli("check", model, "--scenario", "small", "--param", 'mutant="unreachable_save"', "--engine", "bmc",
                    "--depth", "5", "--coverage", "-p", "sanity: military claim can kill a character")
    assert "UNREACHED  action  save_with_duplicate" in text


def test_coverage_reports_unreached_conditional_effects_and_cover_points():
    m = Model("branches")
    x = m.var("x", Int(0, 3), init=0)

    @m.action(describe="step")
    def go(a: Step) -> None:
        a.require(x < 3)
        a.set(x, x + 1)
        a.set(x, 0, when=x > 5, precedence="never happens")

    m.cover("x reaches 3", x == 3)
    m.cover("x reaches 4", x == 4)
    m.game_end(x == 3)
    c = coverage(m.finish(), 4, Options(depth=4, rule_coverage=True), "bmc", rules=True)
    status = {r.name: r.status for r in c.rules}
    assert status["x reaches 3"] == "reached" and status["x reaches 4"] == "unreached"
    (branch,) = [r for r in c.rules if r.kind == "branch"]
    assert branch.status == "unreached" and "test_consistency.py" in branch.name


def test_berserk_payment_must_tap_meets_a_feature_that_cannot_and_the_feature_wins():
    """539.2: the payment stage does not pay what «Не закрывается после атаки» names."""
    spec = next(s for s in discover(ROOT / "model" / "berserk") if s.name == "actions")
    name = "'cannot' prevails over 'must': tapped by the payment stage"
    good = load_system(spec, "static")
    assert good.prop(name).check == MUST_CANNOT
    assert run_check(good, name, engine="kind").verdict is Verdict.PROVED
    bad = run_check(load_system(spec, "static", {"mutant": "ignore_modifier"}), name, depth=8)
    assert bad.verdict is Verdict.VIOLATED and bad.trace.steps[-1].family == "pay"
