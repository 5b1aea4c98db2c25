"""Deliberately broken rules of ``model/agot/round.py``, each an edit of the built model.

``tests/agot/test_rules_round.py`` shows the property that catches each.
"""

from __future__ import annotations

from typing import Callable

from ruleproof.dsl import And, If, Model, Or, Step, Sum, Term, lift
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


def _lowest_power_against(m: Model, q: Term) -> Callable[[Step, Term, Term], Term]:
    def cond(a: Step, w: Term, f: Term) -> Term:
        higher = a.choice(f"initiative[{w.name}]") > a.choice(f"initiative[{q.name}]")
        return higher | (m.v.power[w] <= m.v.power[q])

    return cond


@MUTANTS("any_tied_player", "any player tied for the highest initiative wins it, whatever their power (review F13)")
def _any_tied_player(m: Model) -> None:
    for q in m.sorts.Player:
        m.drop_require("reveal_plots", _lowest_power_against(m, q))


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


# ------------------------------------------------------------------ melee titles
def _melee(m: Model) -> bool:
    """A melee game: three or more players (the title rules apply only there)."""
    return len(m.sorts.Player) >= 3


@MUTANTS("support_ignored", "(melee) a player may initiate a challenge against the bearer of the title theirs supports")
def _support_ignored(m: Model) -> None:
    v = m.v
    if _melee(m):
        m.drop_require("initiate_challenge", lambda p, q, t: ~v.supports[v.title[p], v.title[q]])


@MUTANTS("duplicate_titles", "(melee) a player may select a title another player already bears")
def _duplicate_titles(m: Model) -> None:
    v, Player = m.v, m.sorts.Player
    if _melee(m):
        m.drop_require("select_title", lambda p, t: And(*(v.title[q] != t for q in Player if q.name != p.name)))


@MUTANTS("titles_out_of_order", "(melee) the players select titles in any order, not from the first player on")
def _titles_out_of_order(m: Model) -> None:
    v, order = m.v, list(m.sorts.Player)

    def in_turn(p: Term, t: Term) -> Term:
        i = [x.name for x in order].index(p.name)
        return (v.first == p) | (v.title[order[i - 1]] != "none")

    if _melee(m):
        m.drop_require("select_title", in_turn)


@MUTANTS("titles_not_returned", "(melee) the titles are not returned to the title pool in the taxation phase (7.4)")
def _titles_not_returned(m: Model) -> None:
    v = m.v
    if _melee(m):
        @m.amend("next_phase")
        def _(a: Step) -> None:
            for q in m.sorts.Player:
                a.set(v.title[q], v.title[q], when=v.phase == "taxation")


@MUTANTS("joust_titles", "(joust) the players of a joust game take titles as the plots are revealed")
def _joust_titles(m: Model) -> None:
    v = m.v
    if not _melee(m):
        @m.amend("reveal_plots")
        def _(a: Step, w: Term, f: Term) -> None:
            for q, t in zip(m.sorts.Player, ("crown_regent", "hand_of_the_king"), strict=True):
                a.set(v.title[q], t)


_TITLE_STR = {"hand_of_the_king": "power", "master_of_ships": "military", "master_of_whispers": "intrigue"}


def _totals(m: Model, ignored: bool = False, any_type: bool = False, no_part: bool = False,
            regent: bool = False) -> tuple[Term, Term]:
    """The sides' STR totals in a melee challenge with the titles' STR bonuses, or with them broken: ``ignored``,
    counted in any challenge type (``any_type``), without a participating character (``no_part``), or with the
    Crown Regent's 2 STR added to challenges too (``regent``)."""
    v, Player, Char = m.v, m.sorts.Player, m.sorts.Char
    att: Term = Sum(If(v.attacking[c], v.strength[c], 0) for c in Char)
    dfn: Term = Sum(If(v.defending[c], v.strength[c], 0) for c in Char)
    if ignored:
        return att, dfn

    def bonus(p: Term) -> Term:
        takes_part = Or(*(v.attacking[c] | v.defending[c] for c in Char if m.statics.owner.value(c.name) == p.name))
        out: Term = Sum(If((v.title[p] == ti) & (lift(True) if any_type else v.ctype == ty), 1, 0)
                        for ti, ty in _TITLE_STR.items())
        if regent:
            out = out + If(v.title[p] == "crown_regent", 2, 0)
        return out if no_part else If(takes_part, out, 0)

    return (att + Sum(If(v.attacker == p, bonus(p), 0) for p in Player),
            dfn + Sum(If(v.defender == p, bonus(p), 0) for p in Player))


def _winner(m: Model, **broken: bool) -> None:
    """The challenge winner decided with the titles' STR bonuses broken (see ``_totals``)."""
    v, Outcome = m.v, m.sorts.Outcome

    @m.amend("resolve_challenge")
    def _(a: Step) -> None:
        att, dfn = _totals(m, **broken)
        att_wins, def_wins = (att >= dfn) & (att >= 1), (dfn > att) & (dfn >= 1)
        a.set(v.outcome, If(att_wins, Outcome.attacker, If(def_wins, Outcome.defender, Outcome.nobody)))


@MUTANTS("title_str_ignored", "(melee) the titles' STR bonuses are not counted in a challenge")
def _title_str_ignored(m: Model) -> None:
    if _melee(m):
        _winner(m, ignored=True)


@MUTANTS("title_str_any_type", "(melee) a title's 1 STR bonus counts in every challenge type, not only its own")
def _title_str_any_type(m: Model) -> None:
    if _melee(m):
        _winner(m, any_type=True)


@MUTANTS("title_str_not_participating",
         "(melee) a title's STR bonus counts even when its bearer controls no participating character")
def _title_str_not_participating(m: Model) -> None:
    if _melee(m):
        _winner(m, no_part=True)


@MUTANTS("regent_in_challenges", "(melee) the Crown Regent's 2 STR count in its bearer's challenges too")
def _regent_in_challenges(m: Model) -> None:
    if _melee(m):
        _winner(m, regent=True)


@MUTANTS("regent_missing", "(melee) the Crown Regent's 2 STR are not counted for dominance")
def _regent_missing(m: Model) -> None:
    v, Player, Char = m.v, m.sorts.Player, m.sorts.Char
    if _melee(m):
        @m.amend("next_phase")
        def _(a: Step) -> None:
            total = {q.name: Sum(If(v.in_play[c] & ~v.knelt[c] & (v.owner[c] == q), v.strength[c], 0) for c in Char)
                     + v.gold[q] for q in Player}
            for q in Player:
                wins = And(*(total[q.name] > total[r.name] for r in Player if r.name != q.name))
                a.set(v.dominance[q], wins, when=v.phase == "challenges")


def _rivals_bonus(m: Model, any_title: bool = False, twice: bool = False, attacker_only: bool = False) -> None:
    """The rivals bonus (4.2.3) broken: for any title, again against the same opponent, or for an attacker only."""
    v, Player = m.v, m.sorts.Player
    cap = m.params["max_value"]

    @m.amend("resolve_challenge")
    def _(a: Step) -> None:
        att, dfn = _totals(m)
        att_wins, def_wins = (att >= dfn) & (att >= 1), (dfn > att) & (dfn >= 1)
        for p in Player:
            gains = []
            for q in Player:
                if p.name == q.name:
                    continue
                beat = att_wins & (v.attacker == p) & (v.defender == q)
                if not attacker_only:
                    beat = beat | (def_wins & (v.defender == p) & (v.attacker == q))
                bonus = beat if any_title else beat & v.rival[v.title[p], v.title[q]]
                if not twice:
                    bonus = bonus & (v.rivals[p, q] == 0)
                a.set(v.rivals[p, q], If(v.rivals[p, q] >= 2, 2, v.rivals[p, q] + 1), when=bonus)
                gains.append(bonus)
            a.set(v.power[p], If(Or(*gains), If(v.power[p] >= cap, cap, v.power[p] + 1), v.power[p]))


@MUTANTS("rivals_twice", "(melee) a rivals bonus may be gained again against the same opponent in the same round")
def _rivals_twice(m: Model) -> None:
    if _melee(m):
        _rivals_bonus(m, twice=True)


@MUTANTS("rivals_any_title", "(melee) winning against the bearer of any title gives a rivals bonus")
def _rivals_any_title(m: Model) -> None:
    if _melee(m):
        _rivals_bonus(m, any_title=True)


@MUTANTS("rivals_attacker_only", "(melee) only a winning attacker gains the rivals bonus, never a winning defender")
def _rivals_attacker_only(m: Model) -> None:
    if _melee(m):
        _rivals_bonus(m, attacker_only=True)


# ------------------------------------------------------------------ misreadings of who acts when (review F15)
@MUTANTS("marshal_in_challenges", "cards may be marshalled in the challenges phase too")
def _marshal_in_challenges(m: Model) -> None:
    v = m.v
    m.replace_require("marshal", lambda p, c: v.phase == "marshaling",
                      lambda p, c: (v.phase == "marshaling") | (v.phase == "challenges"))


@MUTANTS("first_player_attacks", "the first player initiates the challenges, whoever is the active player")
def _first_player_attacks(m: Model) -> None:
    v = m.v
    m.replace_require("initiate_challenge", lambda p, q, t: v.active == p, lambda p, q, t: v.first == p)
