"""`ruleproof mutants`: rule mutants judged in every checked scenario, proved-equivalent survivors,
exit codes; and the deliberate rule mutants a model registers outside its rule text."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ruleproof.cli import run
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_property, check_system
from ruleproof.loader import discover, load_system
from ruleproof.mutants import AGREES, mutants_of, product
from ruleproof.mutants_report import Score, exit_code
from ruleproof.results import Verdict
from ruleproof.scale.mutants import plan_mutants, run_mutants

GOLD = Path(__file__).resolve().parents[2] / "model" / "agot" / "gold.py"
TOY = Path(__file__).resolve().parent / "fixtures" / "toy" / "model" / "toy"
LAMP = TOY / "lamp.py"
SHOWN = Path(__file__).resolve().parent / "fixtures" / "shown" / "model" / "shown"
STAIRS = Path(__file__).resolve().parent / "fixtures" / "stairs" / "model" / "stairs"
METER = Path(__file__).resolve().parent / "fixtures" / "meter" / "model" / "meter"


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


def _lamp(scenario: str, **over: object) -> object:
    return load_system(discover(LAMP)[0], scenario, over)


# ---------------------------------------------------------------- generation


def test_mutants_are_generated_deterministically_and_differ_from_the_model() -> None:
    s = load_system(discover(GOLD)[0], "small")
    a = [m.label for m in mutants_of(s)]
    b = [m.label for m in mutants_of(s)]
    assert a == b and len(a) > 20
    assert "drop-update marshal: treasury" in a
    for m in mutants_of(s):
        assert m.system != s


def test_a_dropped_requirement_is_named_by_its_line_the_same_in_every_scenario() -> None:
    one, two = (load_system(discover(LAMP)[0], sc) for sc in ("one", "two"))
    labels = [[m.label for m in mutants_of(s) if m.kind == "drop-guard"] for s in (one, two)]
    assert labels[0] == labels[1] == ["drop-guard press: require at lamp.py:17",
                                      "drop-guard reset: require at lamp.py:24"]
    (m,) = [m for m in mutants_of(two) if m.label.endswith("lamp.py:17")]
    assert m.detail == "(presses < 2)"  # the condition it drops, as text
    (press,) = [a for a in m.system.actions if a.family == "press"]
    assert press.guard.value is True  # type: ignore[union-attr]


def test_dropping_the_treasury_payment_is_killed_by_conservation() -> None:
    s = load_system(discover(GOLD)[0], "small")
    (m,) = [m for m in mutants_of(s) if m.label == "drop-update marshal: treasury"]
    # only the property the test is about: the mutant's other properties took 43 s of CPU to check (auto)
    opts = Options(depth=5, rlimit=DEFAULT_RLIMIT, timeout=600)
    res = {r.property: r for r in check_system(m.system, "auto", opts, ["gold is conserved"])}
    assert res["gold is conserved"].verdict.value == "violated"
    assert res["gold is conserved"].trace is not None


# ---------------------------------------------------------------- verdicts over every scenario


@pytest.fixture(scope="module")
def lamp_results() -> dict[str, object]:
    return {r.label: r for _, r in run_mutants(plan_mutants(TOY, Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600)))}


def test_a_mutant_is_killed_in_whichever_checked_scenario_kills_it() -> None:
    res = {r.label: r for _, r in run_mutants(plan_mutants(STAIRS,
            Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600)))}
    r = res["off-by-one up: step"]
    # with one step there is no second climb to show the break: only the scenario "three" does
    assert r.status == "killed" and r.scenario == "three", r
    assert r.trace is not None and len(r.trace.steps) == 2


def test_a_mutant_that_changes_only_bookkeeping_is_proved_equivalent(lamp_results: dict) -> None:
    for label in ("drop-update press: pressed", "drop-update reset: pressed"):
        r = lamp_results[label]
        assert r.status == "equivalent", (label, r.reason)
        assert "explored side by side" in r.reason


def test_a_survivor_comes_with_a_trace_on_which_it_differs_from_the_rules(lamp_results: dict) -> None:
    r = lamp_results["drop-update reset: on"]
    assert r.status == "survived" and r.scenario == "one"
    assert r.reason == "then on is false by the rules, true in the mutant"
    assert r.trace is not None and [s.action for s in r.trace.steps] == ["press", "reset"]
    g = lamp_results["drop-guard reset: require at lamp.py:24"]
    assert g.status == "survived" and "the mutant allows it, the rules do not" in g.reason


def test_a_sanity_target_the_mutant_cannot_reach_kills_it(lamp_results: dict) -> None:
    r = lamp_results["drop-update press: presses"]
    assert r.status == "killed" and r.killed_by == ("sanity: the counter reaches the limit",)
    assert "unreachable" in r.reason


def test_the_product_system_proves_equivalence_and_shows_differences_symbolically() -> None:
    rules = _lamp("two")
    by = {m.label: m.system for m in mutants_of(rules)}  # type: ignore[arg-type]
    same = product(rules, by["drop-update reset: pressed"])  # type: ignore[arg-type]
    r = check_property(same, same.prop(AGREES), "chc", Options(rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict is Verdict.PROVED
    one = _lamp("one")  # with a limit of 2, two presses leave the lamp off anyway: no difference there
    diff = product(one, {m.label: m.system for m in mutants_of(one)}["drop-update reset: on"])  # type: ignore[arg-type]
    r = check_property(diff, diff.prop(AGREES), "bmc", Options(depth=8, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict is Verdict.VIOLATED and r.trace is not None
    assert [s.action for s in r.trace.steps] == ["press", "reset"]
    last = dict(zip(r.trace.var_names, r.trace.states[-1], strict=True))
    assert (last["on"], last["mutant:on"]) == (False, True)


def test_a_variable_shown_only_in_some_states_is_compared_only_there() -> None:
    opts = Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600)
    res = {r.label: r for _, r in run_mutants(plan_mutants(SHOWN, opts))}
    assert res["drop-update done: item"].status == "equivalent"  # the leftover item is never shown
    assert res["drop-update take: item"].status == "killed"


def test_a_generated_mutant_is_checked_for_deadlock_with_its_own_rules() -> None:
    rules = _lamp("one")
    (m,) = [m for m in mutants_of(rules) if m.label == "drop-guard reset: require at lamp.py:24"]  # type: ignore[arg-type]
    name = "the game can always proceed (no deadlock)"
    assert m.system.prop(name).expr != rules.prop(name).expr  # type: ignore[attr-defined]
    assert rules.prop("outcomes are determined (no two rules set one value differently at once)") in m.system.properties  # type: ignore[attr-defined]


def test_a_bounded_kill_does_not_depend_on_a_proof_attempt() -> None:
    """Too many initial states to explore: every property gets BMC to the depth before any proof."""
    from ruleproof.mutants import baseline, kill

    rules = load_system(discover(METER)[0])
    (m,) = [m for m in mutants_of(rules) if m.label == "drop-guard tick: require at meter.py:13"]
    opts = Options(depth=6, kmax=1, rlimit=DEFAULT_RLIMIT, timeout=600)
    base = baseline(rules, opts)
    assert not base.exhaustive and base.ignored == ()
    j = kill(rules, m.system, base, opts)
    assert j.status == "killed" and j.killed_by == ("the meter stays at most its cap",)
    assert j.trace is not None and len(j.trace.steps) == 6  # from 40 to 46: six ticks
    prop = m.system.prop("the meter stays at most its cap")
    alone = check_property(m.system, prop, "kind", Options(kmax=1, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert alone.verdict is not Verdict.VIOLATED  # a proof attempt alone would not have found it


def test_every_solver_call_of_the_kill_search_is_bounded_by_the_resource_limit() -> None:
    """The kill search runs under --rlimit: with a limit too small for any query nothing is decided by the clock."""
    from dataclasses import replace

    from ruleproof.mutants import baseline, equivalence, kill

    rules = load_system(discover(METER)[0])
    (m,) = [m for m in mutants_of(rules) if m.label == "drop-guard tick: require at meter.py:13"]
    opts = Options(depth=6, kmax=1, timeout=120)
    base = baseline(rules, opts)
    j = kill(rules, m.system, base, replace(opts, rlimit=1))
    assert j.status == "unknown", j
    assert "resource limit reached (rlimit 1 per solver call)" in j.reason
    # and so is the equivalence proof on the product system (1,681 initial states: not explored side by side)
    (f,) = [m for m in mutants_of(rules) if m.label == "drop-guard follow: require at meter.py:18"]
    e = equivalence(rules, f.system, replace(opts, rlimit=1))
    assert e.status == "open" and "resource limit reached (rlimit 1 per solver call)" in e.reason, e


def test_the_kill_search_proves_what_it_can_and_keeps_it_as_lemmas() -> None:
    """A property a shallow induction proves of the mutant cannot kill it, and is a lemma for the rest."""
    from ruleproof.mutants import baseline, kill

    rules = load_system(discover(METER)[0])
    (m,) = [m for m in mutants_of(rules) if m.label == "drop-guard follow: require at meter.py:18"]
    opts = Options(depth=6, kmax=1, timeout=120)
    j = kill(rules, m.system, baseline(rules, opts), opts)
    assert j.status == "open"
    assert "the meter stays at most its cap" in j.proved and "a tick adds one" in j.proved
    # the second dial may now pass 60 (the dropped 'y < x'), but not within 6 steps from at most 40: not proved
    assert "state stays within declared ranges" not in j.proved


@pytest.mark.slow
def test_the_same_kill_list_under_a_cpu_hog() -> None:
    """Verdicts depend on the input, not on the machine's load: two busy loops change nothing."""
    import subprocess
    import sys

    def statuses() -> list[tuple[str, str, tuple[str, ...]]]:
        out: list[tuple[str, str, tuple[str, ...]]] = []
        for model in (TOY, METER):
            code, text, err = _cli("mutants", str(model), "--json", "--timeout", "60")
            assert code in (0, 3), err
            out += [(x["mutant"], x["status"], tuple(x["killed_by"])) for x in json.loads(text)["mutants"]]
        return out

    quiet = statuses()
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        loaded = statuses()
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    assert loaded == quiet
    assert {s for _, s, _ in quiet} >= {"killed", "equivalent", "survived"}


# ---------------------------------------------------------------- the command


def test_mutants_cli_json_counts_and_exit_codes() -> None:
    code, out, _ = _cli("mutants", str(TOY), "--json")
    obj = json.loads(out)
    assert code == 0 and obj["version"] == 1 and obj["status"] == 0
    assert (obj["total"], obj["killed"], obj["equivalent"], obj["survived"], obj["unknown"]) == (10, 4, 2, 4, 0)
    assert obj["systems"]["lamp"]["score"] == 0.5
    survivor = next(m for m in obj["mutants"] if m["mutant"] == "drop-update reset: on")
    assert survivor["status"] == "survived" and survivor["trace"]["steps"][-1]["action"] == "reset"
    assert _cli("mutants", str(TOY), "--min-score", "0.5")[0] == 0
    code, out, _ = _cli("mutants", str(TOY), "--min-score", "0.95")
    assert code == 1 and "lamp: 10 mutants: 4 killed, 2 equivalent, 4 survived, 0 unknown; score 4/8 = 50.0%" in out


@pytest.mark.parametrize("args,message", [
    (["--timeout", "0"], "--timeout must be positive"),
    (["--timeout", "nan"], "--timeout must be a finite number of seconds"),
    (["--timeout", "-1"], "--timeout must be positive"),
    (["--depth", "-1"], "--depth must be 1 or more"),
    (["--depth", "0"], "--depth must be 1 or more"),
    (["--limit", "0"], "--limit must be 1 or more"),
    (["--min-score", "1.5"], "--min-score must be a fraction within 0..1"),
])
def test_mutants_options_are_validated(args: list[str], message: str) -> None:
    code, out, err = _cli("mutants", str(TOY), *args)
    assert code == 2 and message in err and out == ""
    assert len(err.strip().splitlines()) == 1
    code, out, _ = _cli("mutants", str(TOY), *args, "--json")
    assert code == 2 and message in json.loads(out)["error"]


def test_exit_code_unknown_mutants_are_never_success() -> None:
    from ruleproof.mutants import MutantResult

    def score(*statuses: str) -> Score:
        return Score("x", [MutantResult(f"m{i}", st) for i, st in enumerate(statuses)])

    assert exit_code([score("killed", "survived")], None) == 0
    assert exit_code([score("killed", "unknown")], None) == 3
    assert exit_code([score("killed", "unknown")], 0.9) == 3  # the unknown one might be killed
    assert exit_code([score("killed", "survived", "unknown")], 0.9) == 1  # below even if it were
    assert exit_code([score("killed", "equivalent")], 1.0) == 0  # equivalent mutants are not counted


# ---------------------------------------------------------------- a system's own rule mutants

RULED = '''"""A counter with two rules broken by hand."""

from ruleproof.dsl import Int, Model, Step

MUTANTS = ("", "overflow", "slow")


def build(mutant: str = "") -> Model:
    m = Model("ruled")
    x = m.var("x", Int(0, 4), init=0)

    @m.action(describe="count one up")
    def up(a: Step) -> None:
        if mutant != "overflow":
            a.require(x < 3)
        a.set(x, x + (0 if mutant == "slow" else 1))

    @m.action(describe="start again")
    def again(a: Step) -> None:
        a.require(x == 3)
        a.set(x, 0)

    m.invariant("x stays at most 3", x <= 3)
    return m
'''


def test_a_systems_own_rule_mutants_are_judged_like_the_generated_ones(tmp_path: Path) -> None:
    """``ruleproof mutants`` judges the named mutants (``mutant=NAME``) by the same engine: killed with the
    property and trace, or survived with where they differ from the rules."""
    model = tmp_path / "ruled.py"
    model.write_text(RULED, encoding="utf-8")
    code, out, _ = _cli("mutants", str(model), "--json")
    obj = json.loads(out)
    by = {m["mutant"]: m for m in obj["mutants"]}
    assert by["rule: overflow"]["status"] == "killed" and by["rule: overflow"]["killed_by"] == ["x stays at most 3"]
    assert by["rule: overflow"]["trace"]["steps"]
    slow = by["rule: slow"]
    assert slow["status"] == "survived" and "x is 1 by the rules, 0 in the mutant" in slow["reason"]
    assert code == 0 and obj["total"] == len(by) and sum(m.startswith("rule: ") for m in by) == 2


# ---------------------------------------------------------------- equivalence only from the same initial states

STARTS = '''"""A counter whose rule mutants change where the game starts."""

from ruleproof.dsl import Bool, Int, Model, OneOf, Range, Step

SCENARIOS = {"few": {"spread": 0}, "many": {"spread": 40}}
CHECKED = ("few", "many")
MUTANTS = ("", "wider_start", "later_start", "note_start")


def build(mutant: str = "", spread: int = 0) -> Model:
    m = Model("starts")
    x = m.var("x", Int(0, 4), init={"wider_start": OneOf(0, 1), "later_start": 1}.get(mutant, 0))
    note = m.var("note", Bool, init=mutant == "note_start", observable=False)
    # two dials nothing reads: 41 x 41 initial states when spread is 40, too many to explore side by side
    m.var("u", Int(0, 40), init=Range(0, spread) if spread else 0)
    m.var("v", Int(0, 40), init=Range(0, spread) if spread else 0)

    @m.action(describe="count one up")
    def up(a: Step) -> None:
        a.require(x < 4)
        a.set(x, x + 1)

    m.invariant("x stays at most 4", x <= 4)
    return m
'''


def test_a_mutant_that_starts_elsewhere_is_never_proved_equivalent(tmp_path: Path) -> None:
    """Equivalence is judged from the same initial state: a rule mutant that changes an initial value differs there
    (a trace of no step), even when every initial state of the rules is one of its own."""
    model = tmp_path / "starts.py"
    model.write_text(STARTS, encoding="utf-8")
    code, out, _ = _cli("mutants", str(model), "--json")
    by = {m["mutant"]: m for m in json.loads(out)["mutants"]}
    wider = by["rule: wider_start"]  # may also start at 1: explored side by side from 0 alone, it agreed
    assert wider["status"] == "survived", wider
    assert wider["reason"] == "the mutant may start in this state, the rules may not (their initial states differ)"
    assert wider["trace"]["steps"] == [] and wider["trace"]["initial"]["x"] == 1
    later = by["rule: later_start"]
    assert later["status"] == "survived" and later["trace"]["initial"]["x"] == 1, later
    note = by["rule: note_start"]  # starts apart only in what the game does not show: not claimed to differ
    assert note["status"] == "survived" and "in variables the game does not show" in note["reason"], note
    assert code == 0


def test_the_product_system_starts_both_sides_from_their_own_initial_states(tmp_path: Path) -> None:
    """On the product system a mutant that starts elsewhere had no common initial state with the rules, so the
    product had no state at all and agreement held vacuously; each side's lemmas were proved from its own start."""
    from ruleproof.mutants import equivalence

    model = tmp_path / "starts.py"
    model.write_text(STARTS, encoding="utf-8")
    spec = discover(model)[0]
    rules = load_system(spec, "many")
    opts = Options(depth=6, kmax=4, rlimit=DEFAULT_RLIMIT, timeout=600)
    later = load_system(spec, "many", {"mutant": "later_start"})
    j = equivalence(rules, later, opts, (), ("x stays at most 4",))
    assert j.status == "differs" and j.trace is not None and j.trace.steps == (), j
    assert dict(j.trace.initial)["x"] == 1
    same = load_system(spec, "many", {"mutant": ""})
    assert equivalence(rules, same, opts).status == "equivalent"


def test_a_mutant_equivalent_in_the_first_scenario_survives_a_difference_in_a_later_one(tmp_path: Path) -> None:
    """Equivalence is judged in every checked scenario too: with the scenario where it agrees first, the mutant
    that forgets to switch the lamp off on a reset still survives, on the trace of the other scenario."""
    from ruleproof.mutants import equivalence

    model = tmp_path / "lamp.py"
    model.write_text(LAMP.read_text(encoding="utf-8").replace('CHECKED = ("one", "two")', 'CHECKED = ("two", "one")'),
                     encoding="utf-8")
    opts = Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600)
    two = _lamp("two")
    first = equivalence(two, {m.label: m.system for m in mutants_of(two)}["drop-update reset: on"], opts)  # type: ignore[arg-type]
    assert first.status == "equivalent", first  # the first scenario alone would have called it equivalent
    res = {r.label: r for _, r in run_mutants(plan_mutants(model, opts))}
    r = res["drop-update reset: on"]
    assert r.status == "survived" and r.scenario == "one", r
    assert r.trace is not None and [s.action for s in r.trace.steps] == ["press", "reset"]


def test_a_proof_attempt_out_of_budget_never_hides_a_bounded_kill(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every proof attempt (k-induction, Spacer, auto) runs out of its budget; BMC within the depth still kills the
    mutant, and the verdict is killed, neither survived nor unknown."""
    from typing import Sequence

    import ruleproof.mutants as mutants
    from ruleproof.ir import Property, System
    from ruleproof.results import Result

    real = mutants.check_guarded
    proofs: list[str] = []

    def out_of_budget(system: System, prop: Property, engine: str, opts: Options, lemmas: Sequence[Property] = (),
                      evaluator: object = None) -> Result:
        if engine == "bmc":
            return real(system, prop, engine, opts, lemmas, evaluator)  # type: ignore[arg-type]
        proofs.append(engine)
        return Result(system.name, system.scenario, prop.name, prop.kind.value, prop.cites, Verdict.UNKNOWN, 0, engine,
                      reason="resource limit reached (rlimit 1 per solver call)")

    monkeypatch.setattr(mutants, "check_guarded", out_of_budget)
    rules = load_system(discover(METER)[0])
    (m,) = [m for m in mutants_of(rules) if m.label == "drop-guard tick: require at meter.py:13"]
    opts = Options(depth=6, kmax=1, rlimit=DEFAULT_RLIMIT, timeout=600)
    base = mutants.baseline(rules, opts)
    r = mutants.judge(m.label, [(rules, m.system, base)], opts)
    assert r.status == "killed" and r.killed_by == ("the meter stays at most its cap",), r
    assert r.trace is not None and len(r.trace.steps) == 6
    assert "kind" in proofs  # a proof was attempted (and ran out of budget) before the kill was found


def test_only_judges_the_named_mutants_and_names_the_closest_on_a_typo() -> None:
    code, out, _ = _cli("mutants", str(TOY), "--json", "--only", "drop-update reset: on",
                        "--only", "lamp drop-update press: pressed")
    obj = json.loads(out)
    assert code == 0 and obj["total"] == 2
    by = {m["mutant"]: m["status"] for m in obj["mutants"]}
    assert by == {"drop-update press: pressed": "equivalent", "drop-update reset: on": "survived"}
    code, out, err = _cli("mutants", str(TOY), "--only", "drop-update reset: of")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--only: no mutant is named 'drop-update reset: of'; the closest: 'drop-update reset: on'" in err
    code, out, _ = _cli("mutants", str(TOY), "--json", "--only", "drop-update reset: of")
    assert code == 2 and "no mutant is named" in json.loads(out)["error"]


# ---------------------------------------------------------------- bookkeeping a guard reads

ALLOWANCE = '''"""Two dials and bookkeeping: an allowance a guard reads, a record nothing reads, a copy of it."""

from ruleproof.dsl import Bool, Int, Model, Range, Step


def build() -> Model:
    m = Model("allowance")
    x = m.var("x", Int(0, 60), init=Range(0, 40))
    y = m.var("y", Int(0, 60), init=Range(0, 40))
    used = m.var("used", Int(0, 2), init=0, observable=False)
    seen = m.var("seen", Bool, init=False, observable=False)
    echo = m.var("echo", Bool, init=False, observable=False)

    @m.action(describe="a bonus step, twice at most")
    def bonus(a: Step) -> None:
        a.require(used < 2, x < 60)
        a.set(x, x + 1)
        a.set(used, used + 1)
        a.set(seen, True)

    @m.action(describe="the second dial moves")
    def move(a: Step) -> None:
        a.require(y < 60)
        a.set(y, y + 1)
        a.set(echo, seen)

    m.invariant("x stays at most 60", x <= 60)
    return m
'''


def test_bookkeeping_a_guard_reads_is_kept_equal_on_the_product_system(tmp_path: Path) -> None:
    """The product's agreement alone is not inductive when a guard reads bookkeeping (the allowance): a pair of
    states with equal dials and unequal allowances satisfies it, and one side then allows a bonus the other does
    not.  The variables both sides update alike are stated equal with it, and the mutant that forgets the record
    nothing reads is proved equivalent by a 1-induction (found in model/agot/gold.py: 'entered', 76587f0)."""
    from ruleproof.mutants import alike, equivalence

    model = tmp_path / "allowance.py"
    model.write_text(ALLOWANCE, encoding="utf-8")
    rules = load_system(discover(model)[0])
    (m,) = [m for m in mutants_of(rules) if m.label == "drop-update bonus: seen"]
    assert alike(rules, m.system) == ("x", "y", "used")  # not the record, nor its copy
    j = equivalence(rules, m.system, Options(depth=6, kmax=4, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert j.status == "equivalent" and j.reason == "proved on the product system (auto/kind: 1-inductive)", j
    prod = product(rules, m.system)
    alone = check_property(prod, prod.prop(AGREES), "kind", Options(kmax=4, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert alone.verdict is not Verdict.PROVED and alone.reason == "not k-inductive for k <= 5"  # the agreement alone
    (u,) = [m for m in mutants_of(rules) if m.label == "drop-update bonus: used"]
    assert alike(rules, u.system) == ("x", "y", "seen", "echo")


RULE_EFFECTS = Path(__file__).resolve().parents[2] / "model" / "berserk" / "rule_effects.py"


@pytest.mark.parametrize("model", [TOY, SHOWN, RULE_EFFECTS], ids=["toy", "shown", "rule_effects"])
def test_the_rules_recorded_steps_give_the_verdicts_of_a_fresh_search(model: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutant's exhaustive search reads the rules' recorded steps for its unchanged actions, and the side-by-side
    exploration both sides' recorded steps: every verdict, reason and trace is the one evaluating every step gives."""
    import ruleproof.mutants as mutants
    from ruleproof.evaluator import Evaluator
    from ruleproof.scale.mutants import _baseline, _mutants
    from ruleproof.scale.systems import cached_system

    full: list[int] = []  # states whose every action was evaluated (no recorded step read)
    real = Evaluator.edges

    def counted(self: Evaluator, s: tuple[object, ...], actions: object = None) -> object:
        if actions is None:
            full.append(1)
        return real(self, s, actions)  # type: ignore[arg-type]

    monkeypatch.setattr(Evaluator, "edges", counted)
    opts = Options()
    plan = plan_mutants(model, opts)
    statuses: set[str] = set()
    evaluated = {True: 0, False: 0}
    for u in plan.units:
        scen = []
        for sc in u.scenarios:
            rules = cached_system(u.model, u.system, sc, ())
            m = _mutants(u.model, u.system, sc).get(u.mutant)
            base = _baseline(u.model, u.system, sc, u.options)
            assert base.exhaustive and len(base.graph) == len(base.states) > 0
            scen.append((rules, m.system if m is not None else None, base))
        got = {}
        for reuse in (True, False):
            full.clear()
            got[reuse] = mutants.judge(u.mutant, scen, opts, reuse=reuse)
            evaluated[reuse] += len(full)
        assert got[True] == got[False], u.mutant  # status, properties, reason, scenario and trace
        statuses.add(got[True].status)
    assert {"killed", "equivalent"} <= statuses
    assert model == RULE_EFFECTS or "survived" in statuses
    assert evaluated[True] < evaluated[False] / 2  # the recorded steps were read, not evaluated again
