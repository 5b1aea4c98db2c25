"""Deliberately broken rules of ``model/agot/unopposed.py``, each an edit of the built model.

``tests/agot/test_rules_unopposed.py`` shows the property that catches each.
"""

from __future__ import annotations

from ruleproof.dsl import Count, If, Max, Model, Step, Sum, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


def _side_str(m: Model, s: str, floor: str = "each") -> Term:
    v, Char = m.v, m.sorts.Char
    if floor == "none":
        return Sum(If(v.side[c] == s, v.base[c] + v.mod[c], 0) for c in Char)
    if floor == "side":
        return Max(Sum(If(v.side[c] == s, v.base[c] + v.mod[c], 0) for c in Char), 0)
    return Sum(If(v.side[c] == s, Max(v.base[c] + v.mod[c], 0), 0) for c in Char)


def _participants(m: Model, s: str, only_participating: bool = True) -> Term:
    v = m.v
    if only_participating:
        return Count(m.sorts.Char, lambda c: v.participating[c] & (v.side[c] == s))
    return Count(m.sorts.Char, lambda c: v.side[c] == s)


def _decide(m: Model, floor: str = "each", ties_to_attacker: bool = True, need_str: bool = True,
            only_participating: bool = True) -> None:
    """Amend ``determine`` with a (broken) way to decide the challenge."""
    v, Outcome = m.v, m.sorts.Outcome

    @m.amend("determine")
    def _(a: Step) -> None:
        att, dfn = _side_str(m, "attacking", floor), _side_str(m, "defending", floor)
        att_ok = _participants(m, "attacking", only_participating) >= 1
        if need_str:
            att_ok = att_ok & (att >= 1)
        dfn_ok = (dfn >= 1) & (_participants(m, "defending", only_participating) >= 1)
        att_higher = att >= dfn if ties_to_attacker else att > dfn
        a.set(v.winner, If(att_higher, If(att_ok, Outcome.attacker, Outcome.nobody),
                           If(dfn_ok, Outcome.defender, Outcome.nobody)))
        a.set(v.unopposed, dfn == 0)
        a.set(v.att_str, att)
        a.set(v.def_str, dfn)


@MUTANTS("unopposed_no_defenders", "a challenge is unopposed only when no defenders participate")
def _unopposed_no_defenders(m: Model) -> None:
    @m.amend("determine")
    def _(a: Step) -> None:
        a.set(m.v.unopposed, _participants(m, "defending") == 0)


@MUTANTS("no_floor", "a character's negative STR is counted, lowering its side's total")
def _no_floor(m: Model) -> None:
    _decide(m, floor="none")


@MUTANTS("side_floor", "only the side's total is floored at zero: one character's negative STR cancels another's")
def _side_floor(m: Model) -> None:
    _decide(m, floor="side")


@MUTANTS("defender_wins_ties", "a tie goes to the defender")
def _defender_wins_ties(m: Model) -> None:
    _decide(m, ties_to_attacker=False)


@MUTANTS("zero_str_wins", "the attacker wins a 0-0 tie (no STR 1 requirement)")
def _zero_str_wins(m: Model) -> None:
    _decide(m, need_str=False)


@MUTANTS("contributors_win", "a side whose STR comes only from contributing, non-participating characters can win")
def _contributors_win(m: Model) -> None:
    _decide(m, only_participating=False)


@MUTANTS("bonus_without_win", "the unopposed bonus is gained although the attacker did not win")
def _bonus_without_win(m: Model) -> None:
    v = m.v

    @m.amend("gain_bonuses")
    def _(a: Step) -> None:
        for p in m.sorts.Player:
            a.set(v.power[p], v.power[p] + 1, when=v.unopposed & (v.att_player == p))


@MUTANTS("bonus_any_win", "the attacker gains the bonus for any won challenge, opposed or not")
def _bonus_any_win(m: Model) -> None:
    v = m.v

    @m.amend("gain_bonuses")
    def _(a: Step) -> None:
        for p in m.sorts.Player:
            a.set(v.power[p], v.power[p] + If(v.winner == "attacker", 1, 0), when=v.att_player == p)


@MUTANTS("removal_wipes_contribution", "removing a character from the challenge wipes an earlier card-effect "
         "contribution (commit 3e7e81c, review F4)")
def _removal_wipes_contribution(m: Model) -> None:
    @m.amend("remove_from_challenge")
    def _(a: Step, c: Term) -> None:
        a.set(m.v.side[c], "none")


@MUTANTS("claim_without_win", "the claim result is applied whoever won the challenge (review F11)")
def _claim_without_win(m: Model) -> None:
    m.drop_require("apply_claim", lambda: m.v.winner == "attacker")


@MUTANTS("claim_before_bonus", "the claim result may be applied before the challenge bonuses (D.U.C.K. out of order)")
def _claim_before_bonus(m: Model) -> None:
    v = m.v
    m.replace_require(
        "apply_claim", lambda: v.stage == "bonuses", lambda: (v.stage == "bonuses") | (v.stage == "decided")
    )
