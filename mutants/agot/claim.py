"""Deliberately broken rules of ``model/agot/claim.py``, each an edit of the built model.

Each one breaks one rule; ``tests/agot/test_rules_claim.py`` shows the
property that catches it (with a replayed trace).
"""

from __future__ import annotations

from ruleproof.dsl import Count, Exists, If, Min, Model, Step, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


def _eligible(m: Model, c: Term) -> Term:
    v = m.v
    return (v.zone[c] == "play") & ~v.chosen[c] & (v.controller[c] == v.defender) & ~v.cannot_be_killed[c]


def _chosen_n(m: Model) -> Term:
    return Count(m.sorts.Char, lambda c: m.v.chosen[c])


def _choosing_done(m: Model) -> Term:
    return (_chosen_n(m) >= m.v.claim[m.v.attacker]) | (Count(m.sorts.Char, lambda c: _eligible(m, c)) == 0)


@MUTANTS("fewer_ok", "the defender may stop choosing before the claim is satisfied")
def _fewer_ok(m: Model) -> None:
    m.replace_require("kill_chosen", lambda: _choosing_done(m), lambda: _chosen_n(m) <= m.v.claim[m.v.attacker])


@MUTANTS("exact_claim", "the defender must choose exactly the claim value, even when fewer can be chosen (a deadlock)")
def _exact_claim(m: Model) -> None:
    m.replace_require("kill_chosen", lambda: _choosing_done(m), lambda: _chosen_n(m) >= m.v.claim[m.v.attacker])


@MUTANTS("overkill", "when the defender runs out, characters they do not control are chosen to make up the claim")
def _overkill(m: Model) -> None:
    m.drop_require("choose_for_claim", lambda c: m.v.controller[c] == m.v.defender)


@MUTANTS("kill_immune", "a character that cannot be killed may be chosen")
def _kill_immune(m: Model) -> None:
    m.drop_require("choose_for_claim", lambda c: ~m.v.cannot_be_killed[c])


@MUTANTS("choose_extra", "one character more than the claim value may be chosen")
def _choose_extra(m: Model) -> None:
    m.replace_require("choose_for_claim", lambda c: _chosen_n(m) < m.v.claim[m.v.attacker],
                      lambda c: _chosen_n(m) < m.v.claim[m.v.attacker] + 1)


@MUTANTS("claim_of_defender", "military claim kills as many characters as the defender's claim value")
def _claim_of_defender(m: Model) -> None:
    v = m.v
    m.replace_require("choose_for_claim", lambda c: _chosen_n(m) < v.claim[v.attacker],
                      lambda c: _chosen_n(m) < v.claim[v.defender])


@MUTANTS("winner_kills", "the winner of the military challenge kills their own characters")
def _winner_kills(m: Model) -> None:
    @m.amend("win_military")
    def _(a: Step, att: Term, dfn: Term) -> None:
        a.set(m.v.defender, att)


@MUTANTS("saved_not_counted", "a saved character is no longer counted; the defender must choose another one")
def _saved_not_counted(m: Model) -> None:
    @m.amend("save_with_duplicate")
    def _(a: Step, c: Term) -> None:
        a.set(m.v.chosen[c], False)


@MUTANTS("save_no_discard", "a save does not discard the duplicate")
def _save_no_discard(m: Model) -> None:
    m.drop_set("save_with_duplicate", "dups")


@MUTANTS("save_twice", "a second duplicate may be spent to save a character already saved from the same kill")
def _save_twice(m: Model) -> None:
    m.drop_require("save_with_duplicate", lambda c: ~m.v.saved[c])


def _would_leave(m: Model, c: Term) -> Term:
    v = m.v
    by_claim = v.pending & _choosing_done(m) & v.chosen[c]
    return by_claim | (v.valar & (v.zone[c] == "play") & ~v.cannot_be_killed[c])


@MUTANTS("save_anytime", "a duplicate may be discarded to 'save' a card that is not about to leave play")
def _save_anytime(m: Model) -> None:
    m.replace_require("save_with_duplicate", lambda c: _would_leave(m, c), lambda c: m.v.zone[c] == "play")


@MUTANTS("save_only_from_claim", "a duplicate saves only from military claim, not from 'kill each character'")
def _save_only_from_claim(m: Model) -> None:
    v = m.v
    m.replace_require(
        "save_with_duplicate", lambda c: _would_leave(m, c), lambda c: v.pending & _choosing_done(m) & v.chosen[c]
    )


@MUTANTS("one_at_a_time", "only one chosen character dies; the others are left in play")
def _one_at_a_time(m: Model) -> None:
    v = m.v

    @m.amend("kill_chosen")
    def _(a: Step) -> None:
        earlier: list[Term] = []
        for c in m.sorts.Char:
            if earlier:
                before = earlier[0]
                for e in earlier[1:]:
                    before = before | e
                a.set(v.zone[c], v.zone[c], when=before)
                a.set(v.dups[c], v.dups[c], when=before)
                a.set(v.controller[c], v.controller[c], when=before)
            earlier.append(v.chosen[c] & ~v.saved[c])


@MUTANTS("dups_stay", "a killed character keeps its duplicates in the dead pile")
def _dups_stay(m: Model) -> None:
    m.drop_set("kill_chosen", "dups")


@MUTANTS("dead_to_controller", "a killed character goes to its controller's dead pile rather than its owner's")
def _dead_to_controller(m: Model) -> None:
    m.drop_set("kill_chosen", "controller")


@MUTANTS("claim_never_ends", "the military claim is never over: kill_chosen can fire again and again")
def _claim_never_ends(m: Model) -> None:
    m.drop_set("kill_chosen", "pending")


@MUTANTS("intrigue_all_or_nothing", "with fewer cards than claim, intrigue claim discards nothing")
def _intrigue_all_or_nothing(m: Model) -> None:
    v = m.v

    @m.amend("intrigue_claim")
    def _(a: Step, att: Term, dfn: Term) -> None:
        a.set(v.hand[dfn], If(v.hand[dfn] >= v.claim[att], v.hand[dfn] - v.claim[att], v.hand[dfn]))


@MUTANTS("power_gained", "power moved by claim is counted as gained by the winner")
def _power_gained(m: Model) -> None:
    v = m.v

    @m.amend("power_claim")
    def _(a: Step, att: Term, dfn: Term) -> None:
        a.set(v.gained[att], v.gained[att] + Min(v.claim[att], v.power[dfn]))


@MUTANTS("power_copied", "power claim gives the winner power without taking it from the loser")
def _power_copied(m: Model) -> None:
    m.drop_set("power_claim", "power")

    v = m.v

    @m.amend("power_claim")
    def _(a: Step, att: Term, dfn: Term) -> None:
        a.set(v.power[att], v.power[att] + Min(v.claim[att], v.power[dfn]))


@MUTANTS("power_after_victory", "power is still gained after a player has won the game")
def _power_after_victory(m: Model) -> None:
    v = m.v
    m.drop_require("gain_power", lambda p: ~Exists(m.sorts.Player, lambda q: v.power[q] >= m.params["victory"]))


@MUTANTS("valar_kills_immune", "'kill each character' also kills characters that cannot be killed")
def _valar_kills_immune(m: Model) -> None:
    v = m.v

    @m.amend("kill_each")
    def _(a: Step) -> None:
        for c in m.sorts.Char:
            dies = (v.zone[c] == "play") & v.cannot_be_killed[c] & ~v.saved[c]
            a.set(v.zone[c], "dead", when=dies)
            a.set(v.dups[c], 0, when=dies)
            a.set(v.controller[c], v.owner[c], when=dies)


@MUTANTS("valar_ignores_saves", "'kill each character' kills a character a duplicate saved")
def _valar_ignores_saves(m: Model) -> None:
    v = m.v

    @m.amend("kill_each")
    def _(a: Step) -> None:
        for c in m.sorts.Char:
            dies = (v.zone[c] == "play") & ~v.cannot_be_killed[c] & v.saved[c]
            a.set(v.zone[c], "dead", when=dies)
            a.set(v.dups[c], 0, when=dies)
            a.set(v.controller[c], v.owner[c], when=dies)


@MUTANTS("valar_does_nothing", "a revealed 'kill each character in play' kills nobody")
def _valar_does_nothing(m: Model) -> None:
    m.drop_set("reveal_kill_each", "valar")


@MUTANTS("no_cannot_rule", "the model does not say whether 'cannot be killed' or a forced 'kill each' wins")
def _no_cannot_rule(m: Model) -> None:
    m.drop_declaration("resolve", "killed")


@MUTANTS("unreachable_save", "the save needs more duplicates than a card can have (rule coverage names it)")
def _unreachable_save(m: Model) -> None:
    m.replace_require("save_with_duplicate", lambda c: m.v.dups[c] >= 1, lambda c: m.v.dups[c] >= 3)
