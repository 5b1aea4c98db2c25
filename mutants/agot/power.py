"""Deliberately broken rules of ``model/agot/power.py``, each an edit of the built model.

``tests/agot/test_rules_power.py`` shows the property that catches each.
"""

from __future__ import annotations

from ruleproof.dsl import Exists, If, Model, Or, Step, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


@MUTANTS("same_placement", "a move may go to the current placement (power to its card, an attachment to its character)")
def _same_placement(m: Model) -> None:
    v = m.v
    m.drop_require("resolve_power_move", lambda a, src: a.choice("to") != src)
    m.drop_require("resolve_attachment_move", lambda a, x: v.attached_to[x] != a.choice("to"))


@MUTANTS("no_destination", "a move ability may be initiated with no valid destination")
def _no_destination(m: Model) -> None:
    v, Card = m.v, m.sorts.Card

    def power_dest(src: Term, only_chars: Term) -> Term:
        return Or(*(((v.kind[d] == "character") | ~only_chars) & (d != src) & v.in_play[d] for d in Card))

    def att_dest(x: Term) -> Term:
        return Or(*((v.kind[c] == "character") & v.in_play[c] & (v.attached_to[x] != c) for c in Card))

    m.drop_require("initiate_power_move", lambda a, src: power_dest(src, a.choice("to_character")))
    m.drop_require("initiate_attachment_move", att_dest)


@MUTANTS("move_gains", "moved power counts as gained (the 'when you gain power' reaction opens)")
def _move_gains(m: Model) -> None:
    v = m.v

    @m.amend("resolve_power_move")
    def _(a: Step, src: Term) -> None:
        dst = a.choice("to")
        for p in m.sorts.Player:
            a.set(v.reaction[p], True, when=v.owner[dst] == p)


@MUTANTS("copy_power", "a power move puts the power on the destination without taking it off the source")
def _copy_power(m: Model) -> None:
    v = m.v

    @m.amend("resolve_power_move")
    def _(a: Step, src: Term) -> None:
        dst = a.choice("to")
        a.set(v.power[src], v.power[src])
        for p in m.sorts.Player:
            a.set(v.total[p], v.total[p] + If(v.owner[dst] == p, v.moving_pow[src], 0))


@MUTANTS("out_of_play_destination", "power may be moved to a card out of play (an agenda, a character in hand)")
def _out_of_play_destination(m: Model) -> None:
    m.drop_require("resolve_power_move", lambda a, src: m.v.in_play[a.choice("to")])


@MUTANTS("total_stays", "power moved to another player's card still counts for the source's controller")
def _total_stays(m: Model) -> None:
    m.drop_set("resolve_power_move", "total")


@MUTANTS("attachments_stay", "a character leaving play keeps its attachments in play")
def _attachments_stay(m: Model) -> None:
    m.drop_set("leave_play", "att_in_play")


@MUTANTS("tokens_stay", "a character leaving play keeps its power")
def _tokens_stay(m: Model) -> None:
    m.drop_set("leave_play", "power")
    m.drop_set("leave_play", "treasury")
    m.drop_set("leave_play", "total")


@MUTANTS("gain_after_victory", "power is still gained after a player has won the game")
def _gain_after_victory(m: Model) -> None:
    v = m.v
    m.drop_require("gain_power", lambda c: ~Exists(m.sorts.Player, lambda p: v.total[p] >= m.params["victory"]))
