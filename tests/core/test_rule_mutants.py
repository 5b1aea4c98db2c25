"""Rule mutants as edits of a built model (ruleproof.rule_mutants, Model.redefine/amend/drop_*)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ruleproof.cli import run
from ruleproof.dsl import Int, Model, Step, Term
from ruleproof.errors import InputError
from ruleproof.evaluator import Evaluator
from ruleproof.loader import discover, load_system, rule_mutants
from ruleproof.rule_mutants import RuleMutants

ROOT = Path(__file__).resolve().parents[2]


def bank() -> Model:
    m = Model("bank")
    P = m.sort("P", ["a", "b"])
    gold = m.var("gold", Int(0, 5), index=P, init=2)
    pot = m.var("pot", Int(0, 10), init=0)

    @m.action(P, describe="{p} pays 1 into the pot")
    def pay(a: Step, p: Term) -> None:
        a.require(gold[p] >= 1)
        a.require(pot < 10)
        a.set(gold[p], gold[p] - 1)
        a.set(pot, pot + 1)

    m.must("paid", P, lambda p: gold[p] >= 5)
    m.cannot("paid", P, lambda p: gold[p] == 0)
    m.resolve("paid", P, wins="cannot", happened=lambda p: gold[p] == 0)
    return m


def _guards(m: Model) -> dict[str, object]:
    return {a.label: a.guard for a in m.finish().actions}


def test_drop_require_removes_exactly_that_precondition_in_every_ground_action():
    m = bank()
    before = _guards(m)
    m.drop_require("pay", lambda p: m.v.gold[p] >= 1)
    after = _guards(m)
    assert set(after) == set(before) == {"pay(a)", "pay(b)"}
    ev = Evaluator(m.finish())
    s = ev.from_dict({"gold[a]": 0, "gold[b]": 2, "pot": 0})
    assert ev.enabled(0, s)  # the broken rule lets a player with no gold pay


def test_replace_require_and_drop_set_and_amend():
    m = bank()
    m.replace_require("pay", lambda p: m.v.gold[p] >= 1, lambda p: m.v.gold[p] >= 2)
    m.drop_set("pay", "pot")

    @m.amend("pay")
    def _(a: Step, p: Term) -> None:
        a.set(m.v.gold[p], m.v.gold[p])  # the later write wins: paying costs nothing

    s = m.finish()
    ev = Evaluator(s)
    start = ev.from_dict({"gold[a]": 1, "gold[b]": 2, "pot": 0})
    assert not ev.enabled(0, start)
    after = ev.apply(1, start, {})
    assert after is not None and ev.as_dict(after) == {"gold[a]": 1, "gold[b]": 2, "pot": 0}
    # the amendment states its precedence: the determinism check accepts the override
    assert any(w.precedence for a in s.actions for w in a.writes)


def test_redefine_keeps_the_family_in_place_and_drop_declaration():
    m = bank()

    @m.action(describe="reset")
    def reset(a: Step) -> None:
        a.set(m.v.pot, 0)

    @m.redefine("pay")
    def _(a: Step, p: Term) -> None:
        a.set(m.v.pot, m.v.pot + 2)

    assert [a.family for a in m.finish().actions] == ["pay", "pay", "reset"]
    m.drop_declaration("resolve", "paid")
    assert not any("prevails" in p.name for p in m.finish().properties)


def test_an_edit_that_finds_nothing_is_an_error_with_the_callers_line():
    m = bank()
    with pytest.raises(InputError, match="has no such precondition") as e:
        m.drop_require("pay", lambda p: m.v.gold[p] >= 3)
    assert e.value.loc is not None and e.value.loc.file.endswith("test_rule_mutants.py")
    with pytest.raises(InputError, match="never sets 'gold'"):
        m2 = bank()

        @m2.action(describe="noop")
        def noop(a: Step) -> None:
            a.set(m2.v.pot, m2.v.pot)

        m2.drop_set("noop", "gold")
    with pytest.raises(InputError, match="unknown action 'pya'.*pay"):
        m.drop_require("pya", lambda: True)
    with pytest.raises(InputError, match="no 'must' declaration of 'x'"):
        m.drop_declaration("must", "x")


def test_editing_after_a_property_over_the_action_is_refused():
    m = bank()
    m.action_property("pay costs 1", "pay", lambda t, p: t.post(m.v.gold[p]) == m.v.gold[p] - 1)
    with pytest.raises(InputError, match="edited after a property"):
        m.drop_set("pay", "gold")


def test_registry_names_and_errors():
    muts = RuleMutants()

    @muts("free", "paying costs nothing")
    def _free(m: Model) -> None:
        m.drop_set("pay", "gold")

    assert muts.names() == ("free",) and "free" in muts and len(muts) == 1
    with pytest.raises(InputError, match="registered twice"):
        muts("free", "again")
    with pytest.raises(InputError, match="unknown mutant 'dear' \\(known: free\\)"):
        muts.apply(bank(), "dear")
    m = bank()
    muts.apply(m, "free")
    assert m.params["mutant"] == "free"


def test_the_loader_applies_a_mutant_file_and_reports_an_unknown_name():
    spec = next(s for s in discover(ROOT / "model" / "agot") if s.name == "claim")
    assert spec.mutants_file is not None and "overkill" in rule_mutants(spec)
    good = load_system(spec, "small")
    bad = load_system(spec, "small", {"mutant": "overkill"})
    assert good != bad and bad.actions != good.actions
    err = io.StringIO()
    rc = run(["check", str(spec.file), "--scenario", "small", "--param", 'mutant="nope"'], io.StringIO(), err)
    assert rc == 2 and "unknown mutant 'nope'" in err.getvalue() and "overkill" in err.getvalue()


def test_enabled_states_that_an_action_is_possible_for_some_or_fixed_choices():
    """Model.enabled: a property stating an option the rules give ("a player may ...")."""
    from ruleproof.dsl import Bool

    m = Model("opt")
    n = m.var("n", Int(0, 3), init=0)

    @m.action(describe="add 1, or decline")
    def add(a: Step) -> None:
        takes = a.choose("takes", Bool)
        a.require(n < 3)
        a.require(takes | (n >= 1))  # declining is possible only once something was added
        a.set(n, n + 1, when=takes)

    ev = Evaluator(m.finish())
    s0 = ev.from_dict({"n": 0})
    s1 = ev.from_dict({"n": 1})
    any_choice, decline = m.enabled("add"), m.enabled("add", choosing={"takes": False})
    assert [bool(ev.compile(any_choice.expr)(s, None, {})) for s in (s0, s1)] == [True, True]
    assert [bool(ev.compile(decline.expr)(s, None, {})) for s in (s0, s1)] == [False, True]
    with pytest.raises(InputError):
        m.enabled("nope")
    with pytest.raises(InputError):
        m.enabled("add", choosing={"nope": True})
