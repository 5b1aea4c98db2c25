"""The cost and effect encoders: one small function per entry of the semantics table.

:data:`COST_ENCODERS` and :data:`EFFECT_ENCODERS` are keyed exactly like
:data:`ruleproof.cards.semantics.RULES` (``costs`` / ``effects``; a test asserts
it), so what the encoder accepts and how it encodes it cannot drift.  Each
encoder reads its entry (the place a move goes to, whether it can be saved,
the resources it needs) rather than restating it, so a mutant that swaps an
entry of the table changes what the model does.

A cost encoder requires what the cost needs (payable in full: Costs) and
applies it; an effect encoder applies the effect and records in
``step.changes`` whether it could change the game state (Abilities: an
ability initiates only if its effect could).
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Callable, Mapping

from ruleproof.cards.abilities import Cost, CostKind, Effect, EffectKind, EventKind, Subject, TargetRef, Zone
from ruleproof.cards.semantics import (
    BANNABLE,
    Entry,
    Move,
    Place,
    Res,
    effect_key,
    entry_of,
    move_of,
    place_of,
    raises,
    src_places,
)
from ruleproof.dsl import And, Bool, If, Int, Not, Or, Term
from ruleproof.loops.encode.accept import CARD_EVENTS, deck_end_move, ongoing_kill, search_move, that_many
from ruleproof.loops.encode.step import AbilityStep, ban_name, false, pending_name, true

__all__ = ["COST_ENCODERS", "EFFECT_ENCODERS", "CostEncoder", "EffectEncoder"]

CostEncoder = Callable[[AbilityStep, Cost, Entry, str, int], None]
EffectEncoder = Callable[[AbilityStep, Effect, Entry, str, int], None]


# ---------------------------------------------------------------------------
# costs


def _turn(s: AbilityStep, e: Entry, subject: Subject) -> tuple[bool, EventKind, Callable[[str], Term]]:
    """What kneeling or standing does (the entry's ``makes``), its event, and which cards it can turn: in play,
    in the other position, matching ``subject``, and not under a 'cannot' for that event (Kneel, Stand; Cannot)."""
    to_standing = Res.STANDING in e.makes
    ev = EventKind.STOOD if to_standing else EventKind.KNELT

    def eligible(k: str) -> Term:
        was = s.pre[("standing", k)]
        return And(s.in_play(k), Not(was) if to_standing else was, s.state_ok(subject, k),
                   Not(s.forbidden((ev,), k)))

    return to_standing, ev, eligible


def _cost_turn(s: AbilityStep, c: Cost, e: Entry, tag: str, amt: int) -> None:
    """Kneel (stand) a standing (kneeling) card, or the faction card (Kneel, Stand; Costs)."""
    to_standing, ev, eligible = _turn(s, e, c.target.subject)
    if c.target.ref is TargetRef.FACTION_CARD:
        cell = ("fstand", s.me)
        s.st.require(Not(s.sym[cell]) if to_standing else s.sym[cell])
        s.sym.put(cell, to_standing)
        return
    for k, cond in s.targets(tag, c.target, amt, eligible, True).items():
        s.sym.put(("standing", k), to_standing, when=cond)
        s.emit(ev, k, cond)


def _cost_pay_gold(s: AbilityStep, c: Cost, e: Entry, tag: str, amt: int) -> None:
    """Return gold from the payer's gold pool to the treasury (Gold)."""
    cell = ("gold", s.me)
    s.st.require(s.sym[cell] >= amt)
    s.sym.put(cell, s.sym[cell] - amt)


def _cost_discard_gold(s: AbilityStep, c: Cost, e: Entry, tag: str, amt: int) -> None:
    """Return gold on the card to the treasury (Bestow: gold on a card is not in a gold pool)."""
    cell = ("cgold", s.sid)
    s.st.require(s.sym[cell] >= amt)
    s.sym.put(cell, s.sym[cell] - amt)


def _cost_discard_power(s: AbilityStep, c: Cost, e: Entry, tag: str, amt: int) -> None:
    """Discard power from the card (or the faction card) to the treasury."""
    if c.target.ref is TargetRef.CHOSEN:  # "discard 1 power from a card you control"
        for k, cond in s.targets(tag, c.target, 1, lambda k: And(s.in_play(k), s.sym[("power", k)] >= amt,
                                                                 s.state_ok(c.target.subject, k)), True).items():
            s.sym.put(("power", k), s.sym[("power", k)] - amt, when=cond)
        return
    cell = ("fpower", s.me) if c.target.ref is TargetRef.FACTION_CARD else ("power", s.sid)
    if c.target.ref is not TargetRef.FACTION_CARD:
        s.st.require(s.in_play(s.sid))
    s.st.require(s.sym[cell] >= amt)
    s.sym.put(cell, s.sym[cell] - amt)


def _cost_discard_from_hand(s: AbilityStep, c: Cost, e: Entry, tag: str, amt: int) -> None:
    """Discard cards from the payer's hand (the hand's own "discarded from your hand" reactions answer)."""
    if c.target.ref is TargetRef.SELF:  # "discard ~ from your hand": this card, from its owner's hand
        assert e.move is not None and e.move.src is not None and e.move.dest is not None
        s.st.require(s.sym[("zone", s.sid)] == e.move.src.value)
        s.sym.put(("zone", s.sid), e.move.dest.value)
        s.emit_hand_discard(s.me, true())
        return
    cell = ("hand", s.me)
    s.st.require(s.sym[cell] >= amt)
    s.sym.put(cell, s.sym[cell] - amt)
    s.emit_hand_discard(s.me, true())


def _cost_move(s: AbilityStep, c: Cost, e: Entry, tag: str, amt: int) -> None:
    """A card the payer controls leaves play to pay the cost (it cannot be saved: FAQ 3.2)."""
    mv = e.move
    assert mv is not None
    sel = s.targets(tag, c.target, amt, lambda k: And(s.in_play(k), s.state_ok(c.target.subject, k),
                                                      Not(s.forbidden(mv.after, k))), True)
    s.remove(mv, sel, cost=True)


def _cost_remove_from_challenge(s: AbilityStep, c: Cost, e: Entry, tag: str, amt: int) -> None:
    """Remove a participating card from the challenge to pay (Costs: it must participate; it stays in play)."""
    for k, cond in s.targets(tag, c.target, amt, lambda k: And(s.in_play(k), s.sym[("role", k)] != "none"),
                             True).items():
        s.sym.put(("role", k), "none", when=cond)


COST_ENCODERS: Mapping[CostKind, CostEncoder] = MappingProxyType({
    CostKind.KNEEL: _cost_turn,
    CostKind.STAND: _cost_turn,
    CostKind.PAY_GOLD: _cost_pay_gold,
    CostKind.DISCARD_GOLD: _cost_discard_gold,
    CostKind.DISCARD_POWER: _cost_discard_power,
    CostKind.DISCARD_FROM_HAND: _cost_discard_from_hand,
    CostKind.SACRIFICE: _cost_move,
    CostKind.KILL: _cost_move,
    CostKind.DISCARD_FROM_PLAY: _cost_move,
    CostKind.RETURN_TO_HAND: _cost_move,
    CostKind.REMOVE_FROM_GAME: _cost_move,
    CostKind.RETURN_TO_SHADOWS: _cost_move,
    CostKind.REMOVE_FROM_CHALLENGE: _cost_remove_from_challenge,
})


# ---------------------------------------------------------------------------
# effects


def _effect_turn(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Stand (kneel) kneeling (standing) cards; a card that already is cannot be chosen (Target)."""
    to_standing, ev, eligible = _turn(s, e, ef.target.subject)
    if ef.target.ref is TargetRef.FACTION_CARD:
        cell = ("fstand", s.me)
        s.changes.append(Not(s.pre[cell]) if to_standing else s.pre[cell])
        s.sym.put(cell, to_standing)
        return
    for k, cond in s.effect_targets(tag, ef.target, amt, eligible).items():
        now = s.sym[("standing", k)]
        applies = And(cond, s.sym[("zone", k)] == Place.PLAY.value, Not(now) if to_standing else now)
        s.sym.put(("standing", k), to_standing, when=applies)
        s.emit(ev, k, applies)


def _effect_gain_gold(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Gain gold: into the gold pool (Gains), or onto a card in play (not the player's gold: Bestow)."""
    if ef.target.is_player:
        for p in s.players(ef.target):
            s.changes.append(true())
            s.sym.put(("gold", p), s.sym[("gold", p)] + amt)
            s.emit_player(EventKind.GAIN_GOLD, p)
        return
    for k, cond in s.effect_targets(tag, ef.target, 1, s.in_play).items():
        s.sym.put(("cgold", k), s.sym[("cgold", k)] + amt, when=And(cond, s.sym[("zone", k)] == Place.PLAY.value))


def _effect_move_gold(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Move gold from the gold pool of the player its source names to the target player's, as much as there is (Move:
    not to the same pool; moved gold is not gained, Gains)."""
    if ef.source is None:
        return
    for src in s.players(ef.source):
        for dst in s.players(ef.target):
            if src == dst:
                continue
            if Res.GOLD not in e.needs:  # (a misreading: gold from the treasury)
                s.changes.append(true())
                s.sym.put(("gold", dst), s.sym[("gold", dst)] + amt)
                continue
            have = s.sym[("gold", src)]
            s.changes.append(s.pre[("gold", src)] >= 1)
            moved = If(have >= amt, amt, have)
            s.sym.put(("gold", src), have - moved)
            s.sym.put(("gold", dst), s.sym[("gold", dst)] + moved)


def _effect_discard_gold(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Discard gold from a card in play: it returns to the treasury, as much as there is (Bestow, Gold)."""
    if e.untracked or ("cgold", s.sid) not in s.sym:  # (a misreading: the gold stays)
        _effect_untracked(s, ef, e, tag, amt)
        return

    def eligible(k: str) -> Term:
        return And(s.in_play(k), s.pre[("cgold", k)] >= 1)

    for k, cond in s.effect_targets(tag, ef.target, 1, eligible).items():
        have = s.sym[("cgold", k)]
        s.sym.put(("cgold", k), If(have >= amt, have - amt, 0), when=And(cond, s.sym[("zone", k)] == Place.PLAY.value))


def _effect_draw(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Each named player draws cards from the top of their deck, as many as there are (Drawing Cards; Effects);
    "draw it" of the top card of a player's deck is that player drawing 1 card; "draw that many" any number from 1
    (the count of its triggering condition is not tracked: a widening, named by the encoder)."""
    many: int | Term = amt
    if that_many(ef):  # as the table's rule of amounts says: any number from 1 (or, misread, 1)
        many = s.st.choose(f"{tag}_many", Int(1, 10**6)) if s.ctx.rules.amounts.that_many_open else 1
    for p in s.players(ef.target):
        deck, hand = ("deck", p), ("hand", p)
        s.changes.append(s.pre[deck] >= 1)
        got = If(s.sym[deck] >= many, many, s.sym[deck])
        s.sym.put(hand, s.sym[hand] + got)
        s.sym.put(deck, s.sym[deck] - got)
        s.emit_player(EventKind.DRAW, p)


def _effect_gain_power(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Gain power on a card in play, or for the faction (Gains, Power)."""
    if ef.target.ref is TargetRef.FACTION_CARD:
        s.changes.append(true())
        s.sym.put(("fpower", s.me), s.sym[("fpower", s.me)] + amt)
        return
    for k, cond in s.effect_targets(tag, ef.target, 1, s.in_play).items():
        applies = And(cond, s.sym[("zone", k)] == Place.PLAY.value)
        s.sym.put(("power", k), s.sym[("power", k)] + amt, when=applies)
        s.emit(EventKind.GAIN_POWER, k, applies)


def _effect_discard_from_hand(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Each named player discards cards from their hand, as many as it holds ("each opponent discards 1 card")."""
    for p in s.players(ef.target):
        s.changes.append(s.pre[("hand", p)] >= 1)
        before = s.sym[("hand", p)]
        s.sym.put(("hand", p), before - If(before >= amt, amt, before))
        s.emit_hand_discard(p, before >= 1)


def _effect_move_out(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Cards leave play (killed, discarded, sacrificed, returned, placed in a pile ...), or move between
    out-of-play places ("return a card from your discard pile to your hand"); a sacrifice takes the controller's
    own cards; "(cannot be saved)" keeps any save away (Save)."""
    mv = move_of(ef, s.ctx.rules)
    assert mv is not None and mv.src is not None and mv.dest is not None
    if ef.chooser is not None and ef.target.ref is TargetRef.CHOSEN and s.ctx.rules.choosers.each:
        _each_chooses(s, ef, e, tag, amt)
        return
    if mv.src is not Place.PLAY:
        _move_out_of_play(s, ef, mv, tag, amt)
        return
    own = mv.name == "sacrifice"
    if ef.prohibited is EventKind.SAVED or ongoing_kill(ef) and not s.ctx.rules.ongoing.saveable:
        mv = dataclasses.replace(mv, saveable=False)  # "(cannot be saved)"; a save cannot remedy STR 0 (Save)

    def eligible(k: str) -> Term:  # a sacrifice: its controller chooses a card it controls (Sacrifice)
        return And(s.in_play(k), s.state_ok(ef.target.subject, k), s.controls(k) if own else true(),
                   Not(s.forbidden(mv.after, k)))

    sel = s.effect_targets(tag, ef.target, amt, eligible)
    sel = {k: And(c, s.sym[("zone", k)] == Place.PLAY.value, s.sym[("imm", k)] == "none") for k, c in sel.items()}
    s.remove(mv, sel, cost=False)


def _each_chooses(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """"Each player sacrifices a character": each player its chooser names picks among the cards they control, as the
    effect's "you" (a player with none picks nothing: the effect resolves as far as it can)."""
    assert ef.chooser is not None
    me, outer = s.me, s.sym.guard
    plain = dataclasses.replace(ef, chooser=None)
    try:
        for p in s.players(ef.chooser):
            s.me = p
            s.chosen.pop(plain.target, None)  # each player's own choice, not the one before
            s.sym.guard = outer if outer is not None else true()  # (none to choose: nothing happens for p)
            _effect_move_out(s, plain, e, f"{tag}_{p}", amt)
    finally:
        s.me, s.sym.guard = me, outer


def _move_out_of_play(s: AbilityStep, ef: Effect, mv: Move, tag: str, amt: int) -> None:
    """A card its owner owns moves from one out-of-play place to another (its owner's piles)."""
    assert mv.src is not None and mv.dest is not None
    src, dest = mv.src.value, mv.dest.value

    def eligible(k: str) -> Term:  # out of play, the player controls the cards in their own piles
        c = s.ctx.by_id[k]
        return And(s.pre[("zone", k)] == src, s.controls(k), true() if c.type != "agenda" else false())

    if search_move(s.a) is ef:  # the card a search found: the model's, another of the deck, or none (Search)
        sel = s.found(tag, ef.target, eligible, mv.dest)
    elif deck_end_move(ef):  # the top card of the deck: the model's, or another of the deck (Deck)
        sel = s.found(tag, ef.target, eligible, mv.dest, must=True)
    else:
        sel = s.effect_targets(tag, ef.target, amt, eligible)
    for k, cond in sel.items():
        applies = And(cond, s.sym[("zone", k)] == src)
        s.sym.put(("zone", k), dest, when=applies)
        for ev in mv.after:
            s.emit(ev, k, applies, mv.src)


def _effect_put_into_play(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Put a card its owner owns into play from the places the text names (Put into Play): it enters standing,
    a new copy (its limits start again: Limits and Maxima)."""
    ctx = s.ctx
    places = tuple(p.value for p in src_places(ef, e))

    yours = ef.controller is not None  # "put it into play under your control": from any player's pile

    def eligible(k: str) -> Term:  # from the player's own out-of-play places (the cards they control there)
        c = ctx.by_id[k]
        if c.type in ("event", "attachment", "agenda"):
            return false()
        return And(Or(*(s.pre[("zone", k)] == z for z in places)), true() if yours else s.controls(k))

    found = search_move(s.a) is ef  # the card a search found: the model's, another of the deck, or none (Search)
    sel = s.found(tag, ef.target, eligible, Place.PLAY) if found else s.effect_targets(tag, ef.target, amt, eligible)
    for k, cond in sel.items():
        applies = And(cond, Or(*(s.sym[("zone", k)] == z for z in places)))
        s.sym.put(("zone", k), Place.PLAY.value, when=applies)
        if yours and ("ctl", k) in s.sym:
            s.sym.put(("ctl", k), s.me, when=applies)
        s.sym.put(("standing", k), not ef.knelt, when=applies)  # "put into play knelt", else standing
        if e.move is not None and e.move.new_copy:
            for j, b in enumerate(ctx.enc.abilities):
                renews = b.limit is None or ctx.rules.limits[b.limit.kind].renews
                if ctx.holder(j).code == ctx.by_id[k].code and renews:
                    s.sym.put(("used", f"a{j}"), 0, when=applies)
        s.emit(EventKind.ENTERS_PLAY, k, applies)


def _effect_take_control(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Take control of a card in play another player controls; it stays where it is (Ownership and Control)."""
    def eligible(k: str) -> Term:
        return And(s.in_play(k), Not(s.controls(k)), s.state_ok(ef.target.subject, k))

    for k, cond in s.effect_targets(tag, ef.target, amt, eligible).items():
        applies = And(cond, s.sym[("zone", k)] == Place.PLAY.value, s.sym[("ctl", k)] != s.me)
        s.sym.put(("ctl", k), s.me, when=applies)
        s.emit(EventKind.CONTROL_TAKEN, k, applies)


def _effect_reveal(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Reveal a new plot from the plot deck: a plot of the model or another one; the plot revealed before goes to
    the used pile; the used pile comes back to an empty plot deck only as the table's plot rule says."""
    ctx, me = s.ctx, s.me
    mine = [k for k in ctx.ids if ctx.by_id[k].type == "plot" and ctx.by_id[k].owner == me]
    named = [k for k in s.candidates(ef.target, False) if k in mine] if ef.target.ref is TargetRef.CHOSEN else []
    in_deck = {k: s.pre[("zone", k)] == Place.PLOT_DECK.value for k in mine}
    other = s.st.choose(f"{tag}_other", Bool)  # a plot card the model does not name
    s.changes.append(Or(s.pre[("plots", me)] >= 1, *(in_deck[k] for k in named)))
    pick = s.st.choose(f"{tag}_plot", ctx.card) if named else None
    if pick is not None:
        s.st.require(Or(other, *(And(pick == k, in_deck[k]) for k in named)))
    else:
        s.st.require(other)
    s.st.require(Or(Not(other), s.pre[("plots", me)] >= 1))
    for k in mine:  # the plot revealed before goes to the used pile
        s.sym.put(("zone", k), Place.USED.value, when=s.sym[("zone", k)] == Place.REVEALED.value)
    s.sym.put(("plots", me), s.sym[("plots", me)] - 1, when=other)
    for k in named:
        applies = And(Not(other), pick == k) if pick is not None else false()
        s.sym.put(("zone", k), Place.REVEALED.value, when=applies)
        s.emit(EventKind.PLOT_REVEALED, k, applies)
    if ctx.rules.plots.recycles_mid_chain:  # (a mutant) the used pile returns at once to an empty plot deck
        empty = And(s.sym[("plots", me)] == 0, *(s.sym[("zone", k)] != Place.PLOT_DECK.value for k in mine))
        for k in mine:
            s.sym.put(("zone", k), Place.PLOT_DECK.value, when=And(empty, s.sym[("zone", k)] == Place.USED.value))


def _effect_resolve_ability(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Initiate the when revealed ability of a revealed or used plot as if it had just been revealed."""
    def eligible(k: str) -> Term:
        z = s.pre[("zone", k)]
        return And(true() if s.ctx.by_id[k].type == "plot" else false(),
                   Or(z == Place.REVEALED.value, z == Place.USED.value))

    for k, cond in s.effect_targets(tag, ef.target, 1, eligible).items():
        s.emit(EventKind.PLOT_REVEALED, k, cond)


def _effect_untracked(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """An effect on a value the loop model does not track (a STR modifier, an icon, a challenge): its target is
    chosen as printed and the effect counts as a change; nothing of the model's state moves.  The card may also be
    one an earlier effect of the ability put into play ("put ~ into play from your hand knelt, participating as a
    defender")."""
    # a search (or a look at what it found) looks at the deck: the card found is the next effect's, from the deck
    searched = ef.kind in (EffectKind.SEARCH_DECK, EffectKind.LOOK_AT, EffectKind.REVEAL)
    if not searched and ef.target.ref is TargetRef.EACH and ef.target.subject.zone in (Zone.TOP_OF_DECK,
                                                                                        Zone.BOTTOM_OF_DECK):
        return  # "with a shadow token on it": on the card the move before it took from the deck, a change only with it
    if searched or ef.target.is_player or ef.target.ref in (TargetRef.FACTION_CARD, TargetRef.PLAYER, TargetRef.NEXT) \
            or (ef.target.subject.card_type is None and ef.target.ref is TargetRef.SELF):
        s.changes.append(true())
        if ef.target.is_player:  # the triggering conditions its entry raises about its player
            for p in s.players(ef.target):
                for ev in e.events:
                    s.emit_player(ev, p)
        return

    def eligible(k: str) -> Term:
        return Or(s.in_play(k), s.sym[("zone", k)] == Place.PLAY.value)

    # a modifier's amount is its value ("gets -4 STR"), not a number of cards: it chooses one card
    count = amt if ef.target.ref is TargetRef.CHOSEN and ef.kind not in _MODIFIERS else 1
    sel = s.effect_targets(tag, ef.target, count, eligible)
    for ev, _ in raises(ef, s.ctx.rules):  # "after a character's STR is increased by a card effect"
        if ev in CARD_EVENTS:
            for k, cond in sel.items():
                s.emit(ev, k, And(cond, s.sym[("zone", k)] == Place.PLAY.value))


#: Effects whose amount is the value they add or take away (Effect: "amount sign for modifiers"), not a count of cards.
_MODIFIERS = frozenset({EffectKind.STR_MOD, EffectKind.ICON_MOD, EffectKind.KEYWORD_MOD, EffectKind.TRAIT_MOD,
                        EffectKind.CLAIM_MOD, EffectKind.INCOME_MOD, EffectKind.RESERVE_MOD, EffectKind.INITIATIVE_MOD,
                        EffectKind.DOMINANCE_MOD, EffectKind.CONTRIBUTE_STR, EffectKind.REDUCE_COST,
                        EffectKind.PLACE_TOKEN})


def _effect_prohibit(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """A lasting "cannot" on cards in play ("until the end of the phase, that character cannot leave play"): it lasts
    through the loop (no phase ends within one) until the card leaves play; while it lasts, the card cannot be
    chosen for what it forbids and that does not happen to it (Lasting Effects, Cannot).  One the model does not
    track (another phase's, a framework step's) only counts as a change."""
    ev = ef.prohibited
    if e.untracked or ev not in BANNABLE or ef.phase is not None:
        _effect_untracked(s, ef, e, tag, amt)
        return
    name = ban_name(ev)
    def eligible(k: str) -> Term:  # now: "put it into play ... that character cannot leave play" is the new card
        return And(s.sym[("zone", k)] == Place.PLAY.value, s.state_ok(ef.target.subject, k, s.sym))

    for k, cond in s.targets(tag, ef.target, amt, eligible, False).items():
        applies = And(cond, s.sym[("zone", k)] == Place.PLAY.value, Not(s.sym[(name, k)]))
        s.changes.append(applies)
        s.sym.put((name, k), True, when=applies)


def _effect_remove_from_challenge(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Remove cards from the challenge: they stay in play and no longer participate (Challenges)."""
    if e.untracked or ("role", s.sid) not in s.sym:  # (a misreading: participation does not change)
        _effect_untracked(s, ef, e, tag, amt)
        return
    for k, cond in s.targets(tag, ef.target, amt, s.in_play, False).items():
        applies = And(cond, s.sym[("zone", k)] == Place.PLAY.value, s.sym[("role", k)] != "none")
        s.changes.append(applies)
        s.sym.put(("role", k), "none", when=applies)


def _effect_choose(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Choose the card the effects after it act on ("choose a location in a discard pile and put it into play"): it
    must be where the text says (in play unless it names a place); choosing changes nothing (Target)."""
    if ef.target.is_player or ef.target.ref is not TargetRef.CHOSEN:
        return  # "choose an opponent": the player effects after it name their players themselves
    zone = ef.target.subject.zone
    place = place_of(zone) if zone is not None else Place.PLAY
    assert place is not None

    def eligible(k: str) -> Term:
        return And(s.pre[("zone", k)] == place.value, s.state_ok(ef.target.subject, k))

    s.targets(tag, ef.target, amt, eligible, False)


def _effect_choice(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """"(choose one): draw 2 cards, or gain 3 gold": the player picks one option, and its effects resolve; the ability
    changes the game state if the picked option does (Effects)."""
    if e.untracked:  # (a misreading: the options change nothing the model tracks)
        _effect_untracked(s, ef, e, tag, amt)
        return
    pick = s.st.choose(f"{tag}_option", Int(0, max(len(ef.options) - 1, 0)))
    outer = s.sym.guard
    for j, option in enumerate(ef.options):
        chosen = pick == j
        s.sym.guard = chosen if outer is None else And(outer, chosen)
        first = len(s.changes)
        for k, x in enumerate(option):
            entry, key = entry_of(x, s.ctx.rules), effect_key(x)
            assert entry is not None and key is not None
            EFFECT_ENCODERS[key](s, x, entry, f"{tag}_{j}_{k}", x.amount if x.amount is not None else len(s.ctx.ids))
        s.changes[first:] = [And(chosen, c) for c in s.changes[first:]]
    s.sym.guard = outer


def _effect_save(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Save a card that would leave play (the card of the trigger, this card, or the one paying the cost, as the
    text says): it stays in play (Save), unless it cannot be saved."""
    keeps = Res.IN_PLAY in e.makes
    saveable = [pending_name(m, True) for m in s.ctx.moves.values() if m.saveable]

    def eligible(k: str) -> Term:
        pending = s.pre[("imm", k)]
        return And(Or(*(pending == p for p in saveable)), Not(s.forbidden((EventKind.SAVED,), k)))

    for k, can in s.targets(tag, ef.target, 1, eligible, False).items():
        s.changes.append(can)
        if keeps:
            s.sym.put(("imm", k), "none", when=can)
        s.emit(EventKind.SAVED, k, can)


def _effect_cancel(s: AbilityStep, ef: Effect, e: Entry, tag: str, amt: int) -> None:
    """Cancel the effects of the ability whose initiation triggered this interrupt: the step of that ability (the one
    before it in the cycle) already left them out when it chose to be cancelled, as this entry says
    (:func:`ruleproof.loops.encode.model.cancelled_by_next`); its costs stay paid and it counts as used (Cancel).
    Preventing effects about to initiate changes the game state."""
    s.changes.append(true())


EFFECT_ENCODERS: Mapping[EffectKind, EffectEncoder] = MappingProxyType({
    EffectKind.STAND: _effect_turn,
    EffectKind.KNEEL: _effect_turn,
    EffectKind.GAIN_GOLD: _effect_gain_gold,
    EffectKind.DRAW: _effect_draw,
    EffectKind.DISCARD_GOLD: _effect_discard_gold,
    EffectKind.GAIN_POWER: _effect_gain_power,
    EffectKind.DISCARD_FROM_HAND: _effect_discard_from_hand,
    EffectKind.KILL: _effect_move_out,
    EffectKind.DISCARD: _effect_move_out,
    EffectKind.SACRIFICE: _effect_move_out,
    EffectKind.RETURN_TO_HAND: _effect_move_out,
    EffectKind.RETURN_TO_SHADOWS: _effect_move_out,
    EffectKind.REMOVE_FROM_GAME: _effect_move_out,
    EffectKind.MOVE_CARD: _effect_move_out,
    EffectKind.PUT_INTO_PLAY: _effect_put_into_play,
    EffectKind.TAKE_CONTROL: _effect_take_control,
    EffectKind.REVEAL: _effect_reveal,
    **{k: _effect_untracked for k in (
        EffectKind.STR_MOD, EffectKind.ICON_MOD, EffectKind.KEYWORD_MOD, EffectKind.TRAIT_MOD, EffectKind.CLAIM_MOD,
        EffectKind.INCOME_MOD, EffectKind.RESERVE_MOD, EffectKind.INITIATIVE_MOD, EffectKind.DOMINANCE_MOD,
        EffectKind.CONTRIBUTE_STR, EffectKind.PARTICIPATE, EffectKind.REDUCE_COST,
        EffectKind.LOOK_AT, EffectKind.SEARCH_DECK, EffectKind.SHUFFLE_DECK, EffectKind.END_CHALLENGE,
        EffectKind.PLACE_TOKEN, EffectKind.APPLY_CLAIM)},
    EffectKind.MOVE_GOLD: _effect_move_gold,
    EffectKind.REMOVE_FROM_CHALLENGE: _effect_remove_from_challenge,
    EffectKind.RESOLVE_ABILITY: _effect_resolve_ability,
    EffectKind.SAVE: _effect_save,
    EffectKind.PROHIBIT: _effect_prohibit,
    EffectKind.CHOOSE: _effect_choose,
    EffectKind.CHOICE: _effect_choice,
    EffectKind.CANCEL: _effect_cancel,
})
