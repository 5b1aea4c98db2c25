"""The DSL's conveniences for model authors: several conditions per require, grounding filters,
positions of sort values, and a hint when & / | meet a comparison without parentheses."""

from __future__ import annotations

import pytest

from ruleproof.dsl import And, Bool, Implies, Int, Model, Step
from ruleproof.errors import InputError
from ruleproof.evaluator import Evaluator


def _two_players() -> tuple[Model, object]:
    m = Model("t")
    Player = m.sort("Player", ["p1", "p2", "p3"])
    return m, Player


def test_require_takes_several_conditions_and_all_must_hold() -> None:
    m = Model("t")
    x = m.var("x", Int(0, 3), init=0)

    @m.action()
    def up(a: Step) -> None:
        a.require(x >= 0, x < 2)
        a.set(x, x + 1)

    m.game_end(x == 2)
    system = m.finish()
    ai = next(i for i, a in enumerate(system.actions) if a.family == "up")
    ev = Evaluator(system)
    # both conditions are in the guard: enabled at x = 0 and 1, not at x = 2 (the second fails)
    assert [ev.enabled(ai, ev.from_dict({"x": x})) for x in (0, 1, 2)] == [True, True, False]


def test_require_with_no_condition_is_an_error() -> None:
    m = Model("t")
    m.var("x", Int(0, 3), init=0)
    with pytest.raises(InputError, match="at least one condition"):

        @m.action()
        def up(a: Step) -> None:
            a.require()


def test_where_and_distinct_filter_the_grounded_parameter_tuples() -> None:
    m, Player = _two_players()
    seen = m.var("seen", Bool, index=(Player, Player), init=False)

    @m.action(Player, Player, distinct=True)
    def challenge(a: Step, p, q) -> None:  # type: ignore[no-untyped-def]
        a.set(seen[p, q], True)

    @m.action(Player, Player, where=lambda p, q: Player.ordinal(q) == Player.ordinal(p) % 3 + 1)
    def pass_to(a: Step, p, q) -> None:  # type: ignore[no-untyped-def]
        a.set(seen[p, q], False)

    system = m.finish()
    labels = sorted(a.label for a in system.actions)
    assert [x for x in labels if x.startswith("challenge")] == [
        "challenge(p1, p2)", "challenge(p1, p3)", "challenge(p2, p1)",
        "challenge(p2, p3)", "challenge(p3, p1)", "challenge(p3, p2)",
    ]
    assert [x for x in labels if x.startswith("pass_to")] == ["pass_to(p1, p2)", "pass_to(p2, p3)", "pass_to(p3, p1)"]


def test_where_may_not_read_state() -> None:
    m, Player = _two_players()
    x = m.var("x", Int(0, 3), init=0)
    with pytest.raises(InputError, match="only the parameters and static data"):

        @m.action(Player, where=lambda p: x >= 1)
        def act(a: Step, p) -> None:  # type: ignore[no-untyped-def]
            a.set(x, 0)


def test_ordinal_counts_from_one_and_rejects_foreign_values() -> None:
    m, Player = _two_players()
    assert [Player.ordinal(p) for p in Player] == [1, 2, 3]
    assert Player.ordinal("p2") == 2
    with pytest.raises(InputError, match="'player1' is not a value of Player"):
        Player.ordinal("player1")
    with pytest.raises(InputError, match="needs a constant value of Player"):
        Player.ordinal(m.var("who", Player, init="p1"))


def test_and_without_parentheses_names_the_precedence() -> None:
    m, Player = _two_players()
    gold = m.var("gold", Int(0, 5), index=Player, init=0)
    with pytest.raises(InputError) as err:
        m.invariant("both pools non-negative", gold[Player.p1] >= 0 & gold[Player.p2] >= 0)
    msg = str(err.value)
    assert "'&' needs Bool operands, got Int" in msg
    assert "put parentheses around each comparison" in msg
    # with the parentheses it is accepted
    m.invariant("both pools non-negative", (gold[Player.p1] >= 0) & (gold[Player.p2] >= 0))


def test_or_and_not_give_the_same_hint() -> None:
    m, Player = _two_players()
    gold = m.var("gold", Int(0, 5), index=Player, init=0)
    with pytest.raises(InputError, match=r"Python's \| binds tighter"):
        m.invariant("one pool empty", gold[Player.p1] == 0 | gold[Player.p2] == 0)
    with pytest.raises(InputError, match=r"Python's ~ binds tighter"):
        m.invariant("not empty", ~gold[Player.p1] == 0)


def test_each_cell_of_an_array_can_be_observable_under_its_own_condition() -> None:
    """``observable=`` as a function of the indices (or ``observable_where`` for a generator's variable):
    each cell is compared by mutation testing only where its own condition holds."""
    from ruleproof import ir

    m = Model("t")
    Slot = m.sort("Slot", ["a", "b"])
    busy = m.var("busy", Bool, index=Slot, init=False)
    m.var("item", Int(0, 2), index=Slot, init=0, observable=lambda k: busy[k])
    m.var("count", Int(0, 2), index=Slot, init=0)
    m.var("note", Bool, init=False, observable=False)
    m.observable_where("count", lambda k: ~busy[k])
    m.observable_where("note", lambda: busy[Slot.a])
    m.game_end(busy[Slot.a])
    system = m.finish()
    shown = {v.label: v.shown for v in system.vars}
    assert shown["item[a]"] == ir.Var("busy[a]", ir.BoolT()) and shown["item[b]"] == ir.Var("busy[b]", ir.BoolT())
    assert shown["count[b]"] == ir.not_(ir.Var("busy[b]", ir.BoolT()))
    note = next(v for v in system.vars if v.label == "note")
    assert note.observable and note.shown == ir.Var("busy[a]", ir.BoolT())  # no longer bookkeeping
    with pytest.raises(InputError, match="did you mean 'count'"):
        m.observable_where("cont", lambda k: busy[k])


def _market(spend_two: bool = False) -> Model:
    """Two actions that take gold from a pool: buying (1 gold for a card) and a fee (1 gold, no card)."""
    m = Model("market")
    gold = m.var("gold", Int(0, 5), init=3)
    cards = m.var("cards", Int(0, 5), init=0)
    shop_open = m.var("shop_open", Bool, init=False)

    @m.action(describe="the shop opens")
    def open_shop(a: Step) -> None:
        a.set(shop_open, True)

    @m.action(describe="buy a card")
    def buy(a: Step) -> None:
        a.require(shop_open, gold >= 2, cards < 5)
        a.set(gold, gold - (2 if spend_two else 1))
        a.set(cards, cards + 1)

    @m.action(describe="a card arrives by post")
    def gift(a: Step) -> None:
        a.require(cards < 5)
        a.set(cards, cards + 1)

    return m


def test_a_step_property_constrains_every_step_whatever_the_action() -> None:
    """``m.step_property``: one pre/post condition over every ground action, not one named family."""
    from ruleproof.engines.common import Options
    from ruleproof.engines.runner import check_property
    from ruleproof.results import Verdict

    def checked(m: Model) -> Verdict:
        v = m.v
        name = "a card gained for gold is bought while the shop is open"
        m.step_property(name, lambda t: Implies(And(t.post(v.cards) > v.cards, t.post(v.gold) < v.gold), v.shop_open))
        s = m.finish()
        p = s.prop(name)
        assert p.family == "" and {label for label, _ in p.conds} == {a.label for a in s.actions}
        return check_property(s, p, "bmc", Options(depth=4)).verdict

    assert checked(_market()) is Verdict.HOLDS_TO_DEPTH
    broken = _market()
    broken.drop_require("buy", lambda: broken.v.shop_open)
    assert checked(broken) is Verdict.VIOLATED


def test_no_action_is_added_or_edited_after_a_step_property() -> None:
    m = _market()
    m.step_property("gold never grows", lambda t: t.post(m.v.gold) <= m.v.gold)
    with pytest.raises(InputError, match="edited after a property"):
        m.drop_require("buy", lambda: m.v.shop_open)
    with pytest.raises(InputError, match="declared after a step property"):

        @m.action(describe="a late action")
        def late(a: Step) -> None:
            a.set(m.v.gold, 0)
