"""Deliberately broken rules of ``model/agot/round.py``, each an edit of the built model.

``tests/agot/test_rules_round.py`` shows the property that catches each.
"""

from __future__ import annotations

from typing import Callable

from ruleproof.dsl import And, If, Model, Or, Step, Sum, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


def _clockwise(m: Model, p: Term, steps: int = 1) -> Term:
    """The player ``steps`` seats clockwise of ``p``."""
    order = list(m.sorts.Player)
    out: Term = order[steps % len(order)]
    for i, q in enumerate(order[1:], start=1):
        out = If(p == q, order[(i + steps) % len(order)], out)
    return out


def _active_instead(m: Model, a: Step, nxt: Term) -> None:
    """On a pass, ``nxt`` becomes the active player instead of the next player (income in the marshaling phase)."""
    v = m.v
    a.set(v.active, nxt)
    for q in m.sorts.Player:
        a.set(v.gold[q], If((v.phase == "marshaling") & (q == nxt), v.gold[q] + v.income[q], v.gold[q]))


@MUTANTS("skip_dominance", "the challenges phase is followed by the standing phase")
def _skip_dominance(m: Model) -> None:
    v = m.v

    @m.amend("next_phase")
    def _(a: Step) -> None:
        a.set(v.phase, "standing", when=v.phase == "challenges")
        for c in m.sorts.Char:
            a.set(v.knelt[c], False, when=v.phase == "challenges")


@MUTANTS("no_reveal", "the plot phase may end without plots being revealed")
def _no_reveal(m: Model) -> None:
    m.drop_require("next_phase", lambda: Or(m.v.phase != "plot", m.v.revealed))


def _initiative_at_least(q: Term, lowest: bool) -> Callable[[Step, Term, Term], Term]:
    def cond(a: Step, w: Term, f: Term) -> Term:
        mine, theirs = a.choice(f"initiative[{w.name}]"), a.choice(f"initiative[{q.name}]")
        return mine <= theirs if lowest else mine >= theirs

    return cond


@MUTANTS("low_initiative_chooses", "a player with the lowest initiative chooses the first player")
def _low_initiative_chooses(m: Model) -> None:
    for q in m.sorts.Player:
        m.replace_require("reveal_plots", _initiative_at_least(q, False), _initiative_at_least(q, True))


def _lowest_power_against(q: Term) -> Callable[[Step, Term, Term], Term]:
    def cond(a: Step, w: Term, f: Term) -> Term:
        higher = a.choice(f"initiative[{w.name}]") > a.choice(f"initiative[{q.name}]")
        return higher | (a.choice(f"power[{w.name}]") <= a.choice(f"power[{q.name}]"))

    return cond


@MUTANTS("any_tied_player", "any player tied for the highest initiative wins it, whatever their power (review F13)")
def _any_tied_player(m: Model) -> None:
    for q in m.sorts.Player:
        m.drop_require("reveal_plots", _lowest_power_against(q))


@MUTANTS("draw_one", "each player draws only 1 card in the draw phase")
def _draw_one(m: Model) -> None:
    v = m.v

    @m.amend("next_phase")
    def _(a: Step) -> None:
        for q in m.sorts.Player:
            a.set(v.hand[q], v.hand[q] + 1, when=v.phase == "plot")


@MUTANTS("no_rotation", "when the active player passes, they stay the active player")
def _no_rotation(m: Model) -> None:
    @m.amend("end_turn")
    def _(a: Step, p: Term) -> None:
        _active_instead(m, a, p)


@MUTANTS("skip_player", "(melee) the next active player is two seats on, skipping one player")
def _skip_player(m: Model) -> None:
    @m.amend("end_turn")
    def _(a: Step, p: Term) -> None:
        if len(m.sorts.Player) >= 3:
            a.require(_clockwise(m, p, 2) != m.v.first)
            _active_instead(m, a, _clockwise(m, p, 2))


@MUTANTS("first_not_first", "the player after the first player is active first")
def _first_not_first(m: Model) -> None:
    v = m.v

    @m.amend("next_phase")
    def _(a: Step) -> None:
        starter, begins = _clockwise(m, v.first), (v.phase == "draw") | (v.phase == "marshaling")
        a.set(v.active, starter, when=begins)
        for q in m.sorts.Player:
            a.set(v.gold[q], If((v.phase == "draw") & (q == starter), v.gold[q] + v.income[q], v.gold[q]), when=begins)


@MUTANTS("income_first_only", "only the first player collects income")
def _income_first_only(m: Model) -> None:
    v = m.v

    @m.amend("end_turn")
    def _(a: Step, p: Term) -> None:
        for q in m.sorts.Player:
            a.set(v.gold[q], v.gold[q], when=q != v.first)


@MUTANTS("marshal_not_active", "any player may marshal during the marshaling phase")
def _marshal_not_active(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: m.v.active == p)


@MUTANTS("challenge_not_active", "any player may initiate a challenge during the challenges phase")
def _challenge_not_active(m: Model) -> None:
    m.drop_require("initiate_challenge", lambda p, q, t: m.v.active == p)


@MUTANTS("second_military", "a second military challenge may be initiated in the same phase")
def _second_military(m: Model) -> None:
    @m.amend("initiate_challenge")
    def _(a: Step, p: Term, q: Term, t: Term) -> None:
        if t.name == "military":
            a.set(m.v.used[t], m.v.used[t])


@MUTANTS("self_challenge", "a player may initiate a challenge against themselves")
def _self_challenge(m: Model) -> None:
    m.drop_require("initiate_challenge", lambda p, q, t: False)


def _attacker_ok(m: Model, c: Term, standing: bool) -> Callable[[Step, Term, Term, Term], Term]:
    def cond(a: Step, p: Term, q: Term, t: Term) -> Term:
        v = m.v
        ok = v.in_play[c] & v.icon[c, t]
        return ~a.choice(f"attackers[{c.name}]") | (ok & ~v.knelt[c] if standing else ok)

    return cond


@MUTANTS("knelt_attacker", "a kneeling character may be declared as an attacker")
def _knelt_attacker(m: Model) -> None:
    for c in m.sorts.Char:
        m.replace_require("initiate_challenge", _attacker_ok(m, c, True), _attacker_ok(m, c, False))


@MUTANTS("tie_to_defender", "a tied challenge is won by the defender")
def _tie_to_defender(m: Model) -> None:
    v, Char, Outcome = m.v, m.sorts.Char, m.sorts.Outcome

    @m.amend("resolve_challenge")
    def _(a: Step) -> None:
        att = Sum(If(v.attacking[c], v.strength[c], 0) for c in Char)
        dfn = Sum(If(v.defending[c], v.strength[c], 0) for c in Char)
        att_wins, def_wins = (att > dfn) & (att >= 1), (dfn >= att) & (dfn >= 1)
        a.set(v.outcome, If(att_wins, Outcome.attacker, If(def_wins, Outcome.defender, Outcome.nobody)))


@MUTANTS("dominance_tie", "on a tie for dominance, every tied player wins it")
def _dominance_tie(m: Model) -> None:
    v, Player, Char = m.v, m.sorts.Player, m.sorts.Char

    @m.amend("next_phase")
    def _(a: Step) -> None:
        total = {q.name: Sum(If(v.in_play[c] & ~v.knelt[c] & (v.owner[c] == q), v.strength[c], 0) for c in Char)
                 + v.gold[q] for q in Player}
        for q in Player:
            wins = And(*(total[q.name] >= total[r.name] for r in Player if r.name != q.name))
            a.set(v.dominance[q], wins, when=v.phase == "challenges")


@MUTANTS("stand_skips", "the standing phase does not stand the last character")
def _stand_skips(m: Model) -> None:
    v, last = m.v, list(m.sorts.Char)[-1]

    @m.amend("next_phase")
    def _(a: Step) -> None:
        a.set(v.knelt[last], v.knelt[last], when=v.phase == "dominance")


@MUTANTS("taxation_keeps_gold", "unspent gold stays in the gold pools")
def _taxation_keeps_gold(m: Model) -> None:
    v = m.v

    @m.amend("next_phase")
    def _(a: Step) -> None:
        for q in m.sorts.Player:
            a.set(v.gold[q], v.gold[q], when=v.phase == "standing")


@MUTANTS("reserve_ignored", "no cards are discarded down to the reserve value")
def _reserve_ignored(m: Model) -> None:
    v = m.v

    @m.amend("next_phase")
    def _(a: Step) -> None:
        for q in m.sorts.Player:
            a.set(v.hand[q], v.hand[q], when=v.phase == "standing")


@MUTANTS("new_plot_new_first",
         "a plot revealed by a card ability compares initiative again; a new highest initiative takes the first player")
def _new_plot_new_first(m: Model) -> None:
    v = m.v

    @m.amend("ability_reveals_plot")
    def _(a: Step, p: Term) -> None:
        init = a.choice("initiative")
        a.set(v.first, p, when=And(*(init > v.initiative[q] for q in m.sorts.Player if q.name != p.name)))
