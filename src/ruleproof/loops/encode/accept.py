"""Which candidates the loop model can encode, and with which cards.

:func:`encode` accepts a candidate (an :class:`Encoding`: its cards, its
abilities in cycle order, the cards off the cycle the model needs, what it
leaves out) or says why it cannot be encoded faithfully (:class:`Unsupported`).
What a cost or an effect may be is decided by the table of
:mod:`ruleproof.cards.semantics` (an entry, and its target references); the
filter fields and trigger fields the model reads are listed here once.

Read text that the model leaves out, and unread text, is recorded with its
*direction* (:class:`LeftOut`): leaving it out either only narrows what the
ability can do (an alternative target, a "you may" effect: a loop found is a
loop of the printed card too), or only widens it (a restriction or a
condition: "not a loop" stays true of the printed card), or either.  The
classification turns an answer that depends on the wrong direction into
``unknown`` (:mod:`ruleproof.loops.lasso`).
"""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    ClauseRole,
    Cmp,
    Compare,
    Compiled,
    Condition,
    CondWord,
    Cost,
    Duration,
    Effect,
    EffectKind,
    EventKind,
    Means,
    Phase,
    QuantityKind,
    Scope,
    Stat,
    Subject,
    Target,
    TargetRef,
    TestKind,
    Trigger,
    Zone,
    describe_subject,
    set_fields,
)
from ruleproof.cards.graph import Candidate, same_card
from ruleproof.cards.semantics import (
    BANNABLE,
    INITIATION_EVENTS,
    LOOP_WINDOW,
    OWNER_SCOPES,
    RELATION_STATS,
    ROLES_READ,
    RULES,
    CardFacts,
    Entry,
    Place,
    Res,
    Rules,
    answers,
    dest_place,
    effect_key,
    entry_of,
    fits,
    initiated,
    move_of,
    parts_of,
    phase_of,
    place_of,
    src_places,
    target_ref,
    trigger_of,
    unread_filter,
)
from ruleproof.loops.encode.statics import cannot_repeat

__all__ = [
    "CARD_EVENTS",
    "Direction",
    "Encoding",
    "deck_end_move",
    "ongoing_kill",
    "LeftOut",
    "LoopCard",
    "Unsupported",
    "any_number",
    "can_host",
    "card_test",
    "challenge_test",
    "encode",
    "missing_targets",
    "source_zones",
    "inherited",
    "plain_alternatives",
    "relation_read",
    "search_move",
    "self_or_chosen",
    "static_match",
    "target_match",
    "that_many",
    "title_read",
    "trigger_card_test",
]

#: The encoder's view of a card is the one card-facts record of :mod:`ruleproof.cards.semantics`.
LoopCard = CardFacts

_SUPPORTED_TYPES = frozenset({AbilityType.ACTION, AbilityType.REACTION, AbilityType.INTERRUPT,
                              AbilityType.WHEN_REVEALED, AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT})
_INTERRUPTS = frozenset({AbilityType.INTERRUPT, AbilityType.FORCED_INTERRUPT})
_CARD_TYPES = frozenset({"character", "location", "attachment", "event", "agenda", "plot"})
#: Trigger fields the model reads; the restrictions it leaves out widen the trigger.
_TRIGGER_READ = frozenset({"event", "subject", "phase", "also_events", "means", "from_zone", "in_challenge", "amount",
                           "also_zones"})
_TRIGGER_WIDENING = frozenset({"unopposed", "by_str", "participants", "as_role", "challenge", "also_challenges",
                               "to_zone", "participant_count"})
_NEVER_IN_CYCLE = frozenset({Means.ASSAULT, Means.AMBUSH})
#: Card events a cycle can raise (and a pending trigger can be about).
CARD_EVENTS = frozenset({
    EventKind.KNELT, EventKind.STOOD, EventKind.KILLED, EventKind.WOULD_BE_KILLED, EventKind.SACRIFICED,
    EventKind.WOULD_BE_SACRIFICED, EventKind.LEAVES_PLAY, EventKind.WOULD_LEAVE_PLAY, EventKind.ENTERS_PLAY,
    EventKind.GAIN_POWER, EventKind.DISCARDED, EventKind.WOULD_BE_DISCARDED, EventKind.RETURNED_TO_HAND,
    EventKind.WOULD_BE_RETURNED_TO_HAND, EventKind.PUT_INTO_SHADOWS, EventKind.SAVED, EventKind.STR_INCREASED,
})
#: Card events only an effect raises in the model (a STR modifier): "by a card effect" restricts nothing of them.
_BY_EFFECTS = frozenset({EventKind.STR_INCREASED})
#: Ability fields the model reads (any other field set: not modelled).
_ABILITY_READ = frozenset({"type", "trigger", "costs", "effects", "limit", "phase", "optional", "keyword",
                           "keyword_value", "compiled", "text", "cannot_be_canceled", "conditions", "any_player", "x",
                           "unread"})
#: Effect and cost fields the model reads.
_EFFECT_READ = frozenset({"kind", "amount", "target", "optional", "from_zones", "then", "up_to"})
#: Effect fields read by the effects that move gold between pools (where it comes from).
_SOURCE_READ = frozenset({"source"})
#: Effect fields read only by the effects that move a card: where it goes, and "(cannot be saved)".
_MOVE_READ = frozenset({"to_zone", "prohibited", "knelt"})
_COST_READ = frozenset({"kind", "target", "amount"})


class Direction(enum.Enum):
    """What leaving a clause out does to the ability the model runs."""

    NARROWS = "narrows"  # the model can do less than the printed card: a loop found is real
    WIDENS = "widens"  # the model can do more: "not a loop" is real
    EITHER = "either"  # no answer is sure
    UNTRACKED = "untracked"  # a value the loop's repetition does not depend on (a STR modifier): any answer stands


_ROLE_DIRECTION = {
    ClauseRole.ALTERNATIVE: Direction.NARROWS,
    ClauseRole.OPTIONAL_EFFECT: Direction.NARROWS,
    ClauseRole.TRIGGER_RESTRICTION: Direction.WIDENS,
    ClauseRole.TARGET_RESTRICTION: Direction.WIDENS,
    ClauseRole.CONDITION: Direction.WIDENS,
    ClauseRole.LIMIT: Direction.WIDENS,
}


@dataclass(frozen=True)
class LeftOut:
    """A clause the model leaves out: whose (``label``), the phrase, and its :class:`Direction`."""

    label: str
    phrase: str
    direction: Direction

    def describe(self) -> str:
        """One line for reports."""
        return f"{self.label}: {self.phrase} ({self.direction.value})"


@dataclass(frozen=True)
class Unsupported:
    """A candidate the encoder cannot model faithfully, and why.

    ``unread``: the model is missing because text was not read (not because
    read text is not modelled): the answer is unknown, naming these phrases.
    """

    candidate: Candidate
    reason: str
    unread: tuple[str, ...] = ()


@dataclass(frozen=True)
class Encoding:
    """A candidate the encoder accepted: its cards and abilities in cycle order.

    ``cards``: the cycle's cards first, then the cards off the cycle the model
    needs (bystanders: hosts of attachments, the other named cards...).
    ``unmodelled``: the constant abilities of its cards that the model leaves
    out (``Name: 'text'``); a result over the encoding names them, since any
    of them could change the answer.  ``left_out``: clauses of the cycle's
    abilities the model does not run (unread, or read and not modelled), each
    with its direction.  ``static``: a reason the cycle can never repeat, found
    without the solver (see :func:`ruleproof.loops.encode.statics.cannot_repeat`), or "".
    ``prohibits``: the constant "cannot be X" of the model's cards (card key,
    the effect): while that card is in play, what its target names cannot be
    chosen for X and X does not happen to it (Cannot; FAQ 2.1).
    ``controls``: attachments off the cycle whose constant "Take control of
    attached character" the model applies (attachment key, host key): while
    the attachment is in play, its controller controls the host (Ward).
    ``taken``: cards of the model whose control an ability of a card off the
    cycle may have taken before the cycle starts (the card with that ability,
    the card taken, whether control lasts only while the taker is in play):
    Yoren's "take control of that character until Yoren leaves play".
    ``forbidding``: those of ``unmodelled`` whose every effect is a "cannot"
    (leaving them out only lets the model do more).
    """

    candidate: Candidate
    cards: tuple[CardFacts, ...]
    abilities: tuple[Ability, ...]
    phase: Phase | None
    players: tuple[str, ...]
    unmodelled: tuple[str, ...] = ()
    left_out: tuple[LeftOut, ...] = ()
    static: str = ""
    prohibits: tuple[tuple[str, Effect], ...] = ()
    controls: tuple[tuple[str, str], ...] = ()
    taken: tuple[tuple[str, str, bool], ...] = ()
    forbidding: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        """Number of abilities on the cycle (steps per pass)."""
        return len(self.abilities)

    def card_of(self, i: int) -> CardFacts:
        """The card bearing the ``i``-th ability of the cycle."""
        code = self.candidate.abilities[i][0]
        return next(c for c in self.cards if c.code == code)

    def label(self, i: int) -> str:
        """Human label of the ``i``-th ability (card name, code and index)."""
        code, idx = self.candidate.abilities[i]
        return f"{self.card_of(i).name} ({code}#{idx})"

    def limited(self) -> tuple[int, ...]:
        """Positions of the abilities that carry a printed limit or maximum."""
        return tuple(i for i, a in enumerate(self.abilities) if a.limit is not None)

    def directions(self) -> frozenset[Direction]:
        """The directions of everything left out that could overturn an answer."""
        return frozenset(x.direction for x in self.left_out if x.direction is not Direction.UNTRACKED)


# ---------------------------------------------------------------------------
# card filters (printed facts; the state is the model's)


_CONTROL_SCOPES = frozenset({Scope.YOU_CONTROL, Scope.OPPONENT_CONTROLS, Scope.YOU, Scope.OPPONENT})


#: The fields of a filter that are about who and which card and in what state, not printed facts.
_STATE_FIELDS = ("scope", "other", "standing", "zone", "role", "attachments", "player_role")


_UNSET = Subject()


def inherited(x: Target, t: Target) -> Subject:
    """An alternative's filter with the state fields it leaves unset taken from the first target ("put a «House
    Bolton» or non-[stark] character ... into play from your hand": both from your hand)."""
    fill = {f: getattr(t.subject, f) for f in _STATE_FIELDS if getattr(x.subject, f) == getattr(_UNSET, f)}
    return replace(x.subject, **fill) if fill else x.subject


#: Filter fields an alternative target may differ in besides printed facts: the traits of the attachments a card has
#: ("characters with a «Direwolf» attachment"), read from the model's attachments in play
#: (:meth:`ruleproof.loops.encode.step.AbilityStep.target_state`).
_ALTERNATIVE_STATE = frozenset({"attachment_traits"})


def plain_alternatives(t: Target) -> bool:
    """Are ``t``'s alternatives ("another [thenightswatch] or «Lord» character") the same reference, scope and
    state as ``t`` (the state fields an alternative leaves unset are the first's), differing only in printed facts
    the model reads, or in the traits of a card's attachments?  Then a card fits ``t`` when it fits any of them
    (:func:`target_match`, and the state of the one it fits), and nothing is left out."""
    return all(x.ref is t.ref and not x.also and not set(unread_filter(x.subject)) - _ALTERNATIVE_STATE
               and all(getattr(inherited(x, t), f) == getattr(t.subject, f) for f in _STATE_FIELDS) for x in t.also)


def that_many(part: Cost | Effect) -> bool:
    """Is ``part`` "draw that many cards": a player draws as many cards as its triggering condition counted ("after an
    opponent draws 1 or more cards")?  The model lets the number be any from 1 (a widening)."""
    return (isinstance(part, Effect) and part.kind is EffectKind.DRAW and part.amount is None
            and part.x is not None and part.x.kind is QuantityKind.TRIGGER and target_ref(part) is TargetRef.PLAYER)


def any_number(part: Cost | Effect, a: Ability) -> bool:
    """Is ``part`` "any number of" cards ("choose and stand any number of «Direwolf» characters"): no amount, "up
    to", and no X in its ability?  The model lets it act on up to every card that fits, which is what it says."""
    return (isinstance(part, Effect) and part.amount is None and part.up_to and part.x is None and a.x is None
            and part.target.ref is TargetRef.CHOSEN and re.search(r"\bx\b", a.text) is None)


def self_or_chosen(t: Target) -> bool:
    """Is ``t`` "~ or a «Small Council» character": this card, or a card chosen by the filters of its alternatives
    (printed facts the model reads)?  The model lets either pay or be the target
    (:meth:`ruleproof.loops.encode.step.AbilityStep.targets`)."""
    return t.ref is TargetRef.SELF and bool(t.also) and all(
        x.ref is TargetRef.CHOSEN and not x.also and not unread_filter(x.subject) for x in t.also)


def target_match(t: Target, src: CardFacts, k: CardFacts, viewer: str | None = None,
                 control_fixed: bool = True, rules: Rules = RULES) -> bool:
    """:func:`static_match` for a target and its plain alternatives (:func:`plain_alternatives`; as the table's
    rule of alternatives says)."""
    alts = (t.subject, *(inherited(x, t) for x in t.also)) if rules.alternatives.either and plain_alternatives(t) \
        else (t.subject,)
    return any(static_match(x, src, k, viewer, control_fixed, rules.owners.by_owner) for x in alts)


def static_match(s: Subject, src: CardFacts, k: CardFacts, viewer: str | None = None,
                 control_fixed: bool = True, by_owner: bool = True) -> bool:
    """Can card ``k`` be a card the filter ``s`` on ``src``'s ability names, on printed facts and ownership?

    ``self`` is ``src``; ``attached`` its host; scopes are read from
    ``viewer``'s side (the player who initiates the ability: its controller,
    ``src.owner``, unless any player may initiate it).  "You own" compares the
    owner; "you control" too while control is fixed (``control_fixed``: no
    effect of the model takes control), else the model's state decides
    (``by_owner``: the table's rule of owners; misread, "you own" is a
    controller too).
    """
    me = src.owner if viewer is None else viewer
    if s.scope is Scope.SELF:
        return k.code == src.code
    if s.scope is Scope.ATTACHED:
        return k.code == src.host
    if control_fixed or s.scope not in (_CONTROL_SCOPES if by_owner else _CONTROL_SCOPES | OWNER_SCOPES):
        if s.scope in (Scope.YOU_CONTROL, Scope.YOU_OWN, Scope.YOU) and k.owner != me:
            return False
        if s.scope in (Scope.OPPONENT_CONTROLS, Scope.OPPONENT_OWNS, Scope.OPPONENT) and k.owner == me:
            return False
    if s.card_type is CardKind.FACTION_CARD and not s.other_types:
        return False
    if s.other and k.code == src.code:
        return False
    return fits(s, k)


# ---------------------------------------------------------------------------
# support


def source_zones(e: Effect) -> tuple[str, ...]:
    """The model places (``hand``, ``discard``, ``dead``, ``deck``, ``shadows``) a move takes its card from.

    For "put into play" they are the places the text names (``from_zones``,
    or the target's ``zone``): a card never comes from a place the text does
    not name (Put into Play).
    """
    entry = entry_of(e)
    return tuple(p.value for p in src_places(e, entry)) if entry is not None else ()


def relation_read(c: Compare, a: Ability | None) -> bool:
    """Is ``c`` a comparison with another card the model reads ("with lower printed cost than the returned
    card"): a printed stat of this card, its host, the card of the trigger, or the card paying a chosen cost?"""
    return (c.value is None and c.stat in RELATION_STATS and a is not None
            and (c.than in (TargetRef.SELF, TargetRef.ATTACHED, TargetRef.TRIGGER)
                 or c.than is TargetRef.COST and any(x.target.ref is TargetRef.CHOSEN for x in a.costs)))


def title_read(s: Subject, a: Ability | None) -> bool:
    """Is ``s`` "a card with the same title as" a card the model knows: this card, its host, the card of the trigger,
    or the card paying a chosen cost ("as the sacrificed card")?  The loop model compares their titles (Copy)."""
    return (s.same_title is not None and a is not None
            and (s.same_title in (TargetRef.SELF, TargetRef.ATTACHED, TargetRef.TRIGGER)
                 or s.same_title is TargetRef.COST and any(x.target.ref is TargetRef.CHOSEN for x in a.costs)))


def search_move(a: Ability) -> Effect | None:
    """The one effect of ``a`` that takes the card its search found out of the deck ("search your deck for a «Knight»
    character, reveal it, and add it to your hand"; "... and put it into play"): after the one search of ``a``, of
    one card its owner owns, no other effect of ``a`` acting on it (a reveal only shows it; an effect at the end of
    the phase is after the loop).  The loop model lets the search find a card of the model in the deck, a card of
    the deck it does not hold, or none (Search); ``None``: not such an ability."""
    searches = [j for j, e in enumerate(a.effects) if e.kind is EffectKind.SEARCH_DECK]
    if len(searches) != 1:
        return None
    found = [e for e in a.effects[searches[0] + 1:] if e.target.ref is TargetRef.CHOSEN and e.at_end_of is None
             and e.target.subject.zone is Zone.DRAW_DECK and effect_key(e) is not EffectKind.LOOK_AT]
    if len(found) != 1:
        return None
    e = found[0]
    if e.kind not in (EffectKind.PUT_INTO_PLAY, EffectKind.MOVE_CARD) or e.amount != 1 or \
            e.target.subject.scope not in (Scope.YOU_OWN, Scope.YOU, Scope.ANY):
        return None
    return e


def ongoing_kill(e: Effect) -> bool:
    """Is ``e`` a lasting kill of the card it names while its STR is 0 ("until the end of the phase, that character gets
    -4 STR and is killed if its STR is 0"), lasting through the loop?  The loop model, which does not track STR, kills
    the card when the effect resolves or not (the player's pick: its condition is not evaluated, a widening named), it
    cannot be saved as the table's ongoing rule says (Save), and no other ability of the cycle may change a STR."""
    c = e.condition
    return (e.kind is EffectKind.KILL and e.duration in LOOP_WINDOW and c is not None and c.test is TestKind.COMPARE
            and c.compare is not None and c.compare.stat is Stat.STR and c.compare.value == 0
            and c.compare.op in (Cmp.EQ, Cmp.LE) and c.target is not None and c.target == e.target
            and not c.negated and not c.all_of and c.period is None)


def deck_end_move(e: Effect) -> bool:
    """Is ``e`` a move of the top (or bottom) card of its player's own deck ("place the top card of your deck in
    shadows")?  That card is one of the model's cards in the deck or one of the deck's others (Deck: the order of the
    deck is not tracked, a widening); the loop model moves it (``AbilityStep.found`` in ``encode/step.py``)."""
    return (e.target.ref is TargetRef.EACH and e.amount == 1 and e.at_end_of is None
            and e.target.subject.zone in (Zone.TOP_OF_DECK, Zone.BOTTOM_OF_DECK)
            and e.target.subject.scope in (Scope.YOU_OWN, Scope.YOU))


def _filter_left_out(s: Subject, what: str, label: str, out: list[LeftOut], roles: bool = False,
                     a: Ability | None = None) -> None:
    """Name the filter fields the model does not read; ``roles``: a target's part in the challenge ("an attacking
    character") is read from the cards' state (:data:`ROLES_READ`), and its comparisons with another card of the
    ability (:func:`relation_read`)."""
    if roles:
        s = replace(s, compare=tuple(c for c in s.compare if not relation_read(c, a)),
                    same_title=None if title_read(s, a) else s.same_title)
    for f in unread_filter(s):
        if roles and f == "role" and s.role in ROLES_READ:
            continue
        out.append(LeftOut(label, f"{what}: the filter '{f}' is not modelled", Direction.WIDENS))


def challenge_test(cond: Condition) -> bool:
    """Is ``cond`` "during a challenge in which you control a participating character": some card of the model in
    the challenge, by its printed facts, scope and part (the loop model reads it from the cards' state)?  One card
    only: the model asks for one, so "2 or more" is not this test (left out, a widening)."""
    s = cond.subject
    return (cond.word is CondWord.DURING and cond.test is TestKind.CHALLENGE and cond.challenge is None
            and s is not None and s.role in ROLES_READ and not cond.negated and not cond.all_of and cond.count == 1
            and set_fields(s) <= _PRINTED | {"role"})


def _part_problem(part: Cost | Effect, rules: Rules, ability: Ability, card: CardFacts, label: str,
                  out: list[LeftOut]) -> str | None:
    what = f"{'cost' if isinstance(part, Cost) else 'effect'} {part.kind.value}"
    entry = entry_of(part, rules)
    if entry is None:
        return f"{what} is not modelled by the loop encoder"
    ref = target_ref(part)
    if ref not in entry.refs:
        return f"{what}: target '{ref.value}' is not modelled by the loop encoder"
    if ref is TargetRef.ATTACHED and card.type != "attachment":
        return "'attached' on a card that is not an attachment"
    plot = part.target.subject.card_type is CardKind.PLOT
    if isinstance(part, Effect) and plot and part.kind is EffectKind.REVEAL and \
            (part.chooser is not None or part.target.subject.scope not in (Scope.YOU, Scope.YOU_OWN, Scope.ANY)):
        # "each opponent may ... reveal a new plot card": the model reveals only the initiating player's plots
        return f"{what}: a plot card another player reveals is not modelled by the loop encoder"
    if plot and entry.move is not None and part.kind is not EffectKind.REVEAL:
        # "return his or her revealed plot card to his or her plot deck": a revealed plot is not a card in play
        return f"{what}: a plot card moved from where it is is not modelled by the loop encoder"
    if isinstance(part, Effect) and part.kind is EffectKind.CHOICE:  # each option as an effect of its own
        if not part.options:
            return f"{what}: its options were not read"
        for x in (x for option in part.options for x in option):
            p = _part_problem(x, rules, ability, card, label, out)
            if p:
                return p
        return None
    shared = isinstance(part, Effect) and ref is TargetRef.CHOSEN and _refers_back(ability, part)
    # a lasting "cannot" on one named card ("attached character cannot stand") counts nothing
    single = part.kind is EffectKind.PROHIBIT and ref in (TargetRef.SELF, TargetRef.ATTACHED, TargetRef.TRIGGER,
                                                         TargetRef.COST)
    if part.kind is EffectKind.SEARCH_DECK:  # its amount is how many cards it looks at: none given, the whole deck
        single = True
        if part.amount is not None:
            out.append(LeftOut(label, f"{what}: it looks at the top {part.amount} cards only (the model lets it find "
                               "any card of the deck)", Direction.WIDENS))
    many = that_many(part)
    if many:  # "draw that many cards": as many as the triggering condition's, which the model does not count
        out.append(LeftOut(label, f"{what}: as many as its triggering condition's (the model lets it be any number "
                           "from 1)", Direction.WIDENS))
    if part.amount is None and ref is not TargetRef.EACH and not shared and not single and not many and \
            not any_number(part, ability):
        if isinstance(part, Cost):  # X paid as 0: the model pays less than the card may
            out.append(LeftOut(label, f"{what}: the amount X is taken as 0", Direction.WIDENS))
        elif ref is TargetRef.CHOSEN and not part.target.is_player:  # "X characters": any number the model has
            out.append(LeftOut(label, f"{what}: X cards are taken as up to every card that fits", Direction.WIDENS))
        else:
            return f"{what}: variable amount (X)"
    deck_end = part.target.subject.zone in (Zone.TOP_OF_DECK, Zone.BOTTOM_OF_DECK)
    if ref is TargetRef.EACH and deck_end and entry.move is not None:  # "place the top card of your deck in shadows"
        if not (rules.search.whole_deck and isinstance(part, Effect) and deck_end_move(part)):
            return f"{what}: the top or bottom card of a deck is one the model does not hold (it moves only its own " \
                "cards)"
        end = "top" if part.target.subject.zone is Zone.TOP_OF_DECK else "bottom"
        out.append(LeftOut(label, f"{what}: which card is at the {end} of the deck is not tracked (the model lets it "
                           "be any card of the deck: one of its own there, or one of the others)", Direction.WIDENS))
    if entry.untracked:
        out.append(LeftOut(label, f"{what}: {entry.untracked} not tracked (the model takes it as a change)",
                           Direction.UNTRACKED))
        if part.kind is EffectKind.SEARCH_DECK:
            if rules.search.whole_deck and search_move(ability) is not None:  # the deck's other cards are counted
                out.append(LeftOut(label, f"{what}: whether the deck's other cards fit is not known (the model lets "
                                   "it find one of them while the deck has cards)", Direction.WIDENS))
            else:  # the deck's other cards (not in the model) are never found
                out.append(LeftOut(label, f"{what}: only the model's cards in the deck can be found",
                                   Direction.NARROWS))
        return None
    extra = set_fields(part) - (_COST_READ if isinstance(part, Cost) else _EFFECT_READ) - ({"x"} if many else set())
    if isinstance(part, Effect) and part.at_end_of is not None:
        # a delayed effect happens at the end of the phase (or round), after the loop's window (Delayed Effects): the
        # model does not run it; setting it up is a change of the game state
        out.append(LeftOut(label, f"{what}: happens at the end of the {part.at_end_of.value}, after the loop",
                           Direction.UNTRACKED))
        return None
    if isinstance(part, Effect) and part.kind is EffectKind.MOVE_GOLD:
        if part.source is None or not part.source.is_player:
            return f"{what}: gold from a card is not modelled by the loop encoder"
        extra -= _SOURCE_READ
    if isinstance(part, Effect) and entry.move is not None:
        extra -= _MOVE_READ
        if part.kind is EffectKind.PUT_INTO_PLAY and part.controller is Scope.YOU:
            extra -= {"controller"}  # "put it into play under your control": from any player's pile
        if part.chooser is not None and part.chooser.is_player and ref is TargetRef.CHOSEN:
            extra -= {"chooser"}  # each player it names chooses among their own cards
        if part.prohibited not in (None, EventKind.SAVED):
            return f"{what}: '{part.prohibited.value}' prohibited is not modelled by the loop encoder"
    if isinstance(part, Effect) and part.instead_of is not None:
        p = _replacement_problem(part, card, entry, what, label, out)
        if p:
            return p
        extra -= {"instead", "instead_of", "condition", "to_zone"}
    if isinstance(part, Effect) and part.kind is EffectKind.PROHIBIT:
        p = _prohibit_problem(part, ability, what, label, out)
        if p:
            return p
        extra -= {"prohibited", "phase"}
    if isinstance(part, Effect):
        if "duration" in extra and entry.instant and part.condition is None and part.duration is not None:
            # "save it, stand it, and set its STR to 1 until the end of the phase": only the STR lasts
            out.append(LeftOut(label, f"{what}: '{part.duration.value}' belongs to another part of its sentence (a "
                               f"{part.kind.value.replace('_', ' ')} happens at once: Lasting Effects)",
                               Direction.UNTRACKED))
            extra -= {"duration"}
        elif "duration" in extra and not entry.instant and part.duration in LOOP_WINDOW:
            extra -= {"duration"}  # it lasts through the loop: no challenge, phase or round ends within one
        elif "duration" in extra and ongoing_kill(part):
            # "until the end of the phase, ... is killed if its STR is 0": the kill at resolution, its condition left
            # to the player below; later STR changes are refused in ``encode`` (the model does not track STR)
            extra -= {"duration"}
        if "duration" in extra:
            return f"{what}: lasting effects are not modelled by the loop encoder"
        if part.instead and part.instead_of is None:  # it replaces the effect before it (Replacement Effects)
            if part not in ability.effects or ability.effects.index(part) == 0:
                return f"{what}: 'instead' of no effect before it"
            if "condition" in extra and not _evaluable(ability, part, part.condition):
                out.append(LeftOut(label, f"{what}: the condition of resolving it instead of the effect before is not "
                                   "modelled (the model lets either resolve)", Direction.WIDENS))
            extra -= {"instead", "condition"}
        if "condition" in extra:
            if not _evaluable(ability, part, part.condition):
                if rules.conditions.open and part in ability.effects:  # the model lets it resolve or not
                    out.append(LeftOut(label, f"{what}: its condition is not modelled (the model lets it resolve or "
                                       "not)", Direction.WIDENS))
                else:  # (an option's effect of a choice, or the rule misread: it resolves whenever picked)
                    out.append(LeftOut(label, f"{what}: its condition is not modelled", Direction.EITHER))
            extra -= {"condition"}
        if entry.move is not None and entry.move.src is None:
            if not src_places(part, entry):
                return f"{what}: the text names no place the card comes from"
            extra -= {"from_zones"}
    if extra:
        return f"{what}: '{', '.join(sorted(extra))}' is not modelled by the loop encoder"
    if part.target.subject.card_type is CardKind.FACTION_CARD and ref is TargetRef.CHOSEN:
        return f"{what}: faction card as a chosen target"
    if part.target.also and not (rules.alternatives.either and (plain_alternatives(part.target)
                                                                 or self_or_chosen(part.target))):
        # "~ or a «Small Council» character": the model takes the first; the others only add
        out.append(LeftOut(label, f"{what}: the alternative targets are not modelled", Direction.NARROWS))
    zone = part.target.subject.zone
    if isinstance(part, Effect) and part.kind is EffectKind.DRAW and ref is TargetRef.EACH:
        if zone is not Zone.TOP_OF_DECK:
            return f"{what}: drawing cards that are not the top card of a deck is not modelled"
        zone = None  # "reveal the top card of your deck ... draw it": its owner draws 1 card
    if zone is Zone.PLAY:
        zone = None  # "in play" is where the model looks anyway
    if zone is not None and (entry.move is None and not entry.anywhere or place_of(zone) is None):
        return f"{what}: a card in the {zone.value.replace('_', ' ')} is not modelled by the loop encoder"
    if entry.move is not None and move_of(part, rules) is None:
        return f"{what}: the text names no place the card goes to or comes from that the model has"
    s = part.target.subject
    if Res.HAND in entry.needs and ref is not TargetRef.SELF and (set_fields(s) - {"scope", "card_type", "zone"} or
                                    s.card_type not in (None, CardKind.CARD)):
        # the cards in hand are not named: the model assumes the hand holds cards that fit
        out.append(LeftOut(label, f"{what}: whether the cards in hand are {describe_subject(s)}s is not known "
                           "(the model assumes they are)", Direction.WIDENS))
        return None
    _filter_left_out(s, what, label, out, roles=True, a=ability)
    return None


def _replacement_problem(e: Effect, card: CardFacts, entry: Entry, what: str, label: str,
                         out: list[LeftOut]) -> str | None:
    """An event that goes elsewhere instead of its owner's discard pile once resolved ("return ~ to your hand instead
    of placing it in your discard pile"): modelled (Replacement Effects), its condition, if any, left to the player
    (the model lets it apply or not: a widening)."""
    if card.type != "event" or e.target.ref is not TargetRef.SELF or e.instead_of is not Zone.DISCARD_PILE:
        return f"{what}: 'instead of' {e.instead_of.value if e.instead_of else ''} is not modelled by the loop encoder"
    if entry.move is None or dest_place(e, entry) in (None, Place.DISCARD, Place.PLAY):
        return f"{what}: the place it goes instead is not one the model has"
    if e.condition is not None:
        out.append(LeftOut(label, f"{what}: the condition of going there instead of the discard pile is not modelled "
                           "(the model lets it apply or not)", Direction.WIDENS))
    return None


#: The filter fields of a printed fact: a test of them on a card the model holds is decided by :func:`fits`.
_PRINTED = frozenset({"scope", "card_type", "other_types", "traits", "factions", "not_traits", "not_factions",
                      "not_types", "unique", "loyal", "limited", "icons", "lacks_icons", "keywords", "lacks_keywords",
                      "title"})
_DESIGNATED = frozenset({TargetRef.SELF, TargetRef.TRIGGER, TargetRef.CHOSEN, TargetRef.COST})


def card_test(cond: Condition) -> bool:
    """Is ``cond`` "that card is (not) a «Hatchling» ..." on printed facts only, about a card the ability names (this
    card, the card of the trigger, the chosen card, the card paying the cost)?  The loop model evaluates it
    (:meth:`ruleproof.loops.encode.step.AbilityStep.card_condition`)."""
    return (cond.test in (TestKind.IS, TestKind.IS_NOT) and cond.target is not None and cond.subject is not None
            and cond.target.ref in _DESIGNATED and not cond.all_of and cond.period is None
            and cond.subject.scope is Scope.ANY and set_fields(cond.subject) <= _PRINTED)


def trigger_card_test(cond: Condition, a: Ability) -> bool:
    """Is ``cond`` a play restriction "if that card has shadow" (a :func:`card_test`) on the card of ``a``'s
    triggering condition, one the loop model records (a card event, or the initiation of a card's ability)?  The model
    requires it at initiation (:meth:`ruleproof.loops.encode.step.AbilityStep.card_condition`)."""
    t = trigger_of(a)
    return (card_test(cond) and cond.target is not None and cond.target.ref is TargetRef.TRIGGER and t is not None
            and t.from_zone is None and t.subject.card_type is not None
            and (t.event in CARD_EVENTS or t.event in INITIATION_EVENTS))


def _evaluable(a: Ability, part: Effect, cond: Condition | None) -> bool:
    """A condition of ``part`` the model evaluates: a :func:`card_test` whose chosen card an earlier effect chose, or
    whose cost card a cost pays."""
    if cond is None or not card_test(cond) or cond.target is None:
        return False
    if cond.target.ref is TargetRef.CHOSEN:
        return any(e.target == cond.target for e in a.effects[:a.effects.index(part) if part in a.effects else None])
    if cond.target.ref is TargetRef.COST:
        return bool(a.costs)
    return True


def _refers_back(a: Ability, part: Effect) -> bool:
    """Does the chosen target of ``part`` name the card an earlier effect of ``a`` chose ("choose a character. Stand
    that character": the reader copies the chosen card's filter to the pronoun)?  The loop model acts on that one
    card (:meth:`ruleproof.loops.encode.step.AbilityStep.targets`)."""
    for e in a.effects:
        if e is part:
            return False
        if e.target == part.target:
            return True
    return False


def _prohibit_problem(e: Effect, a: Ability, what: str, label: str, out: list[LeftOut]) -> str | None:
    """A lasting "cannot": modelled while it lasts through the loop, on what the model tracks; one restricted to
    another phase than the ability's, or forbidding a framework step (being declared as an attacker), changes
    nothing a loop does (named as not tracked)."""
    if e.duration not in LOOP_WINDOW:
        return f"{what}: a 'cannot' lasting '{e.duration.value if e.duration else 'while its condition holds'}' " \
            "is not modelled by the loop encoder"
    if e.prohibited not in BANNABLE:
        ev = e.prohibited.value.replace("_", " ") if e.prohibited is not None else "what it names"
        out.append(LeftOut(label, f"{what}: 'cannot be {ev}' is about a step no loop takes (not tracked)",
                           Direction.UNTRACKED))
    elif e.phase is not None and (own := phase_of(a)) is not None and own is not e.phase:
        out.append(LeftOut(label, f"{what}: it applies during the {e.phase.value} phase only, not the "
                           f"{own.value} phase of this ability (not tracked)", Direction.UNTRACKED))
    elif e.phase is not None:
        out.append(LeftOut(label, f"{what}: it applies during the {e.phase.value} phase only: the model leaves it "
                           "out", Direction.WIDENS))
    return None


def _trigger_problem(t: Trigger, a: Ability, label: str, out: list[LeftOut]) -> str | None:
    extra = set_fields(t) - _TRIGGER_READ
    widen = extra & _TRIGGER_WIDENING
    if extra - widen:
        return f"trigger: '{', '.join(sorted(extra - widen))}' is not modelled by the loop encoder"
    for f in sorted(widen):
        out.append(LeftOut(label, f"trigger: the restriction '{f}' is not modelled", Direction.WIDENS))
    if t.amount is not None and t.amount > 1:  # "after 3 or more characters are declared": how many is not tracked
        out.append(LeftOut(label, f"trigger: '{t.amount} or more' is not modelled", Direction.WIDENS))
    by_effect = t.means is Means.CARD_EFFECT and t.event in _BY_EFFECTS and not t.also_events
    if t.means is not None and t.means not in _NEVER_IN_CYCLE and not by_effect:
        return f"trigger: 'by {t.means.value}' is not modelled by the loop encoder"
    if t.from_zone is not None and t.from_zone.value not in ("hand",):
        return f"trigger: from the {t.from_zone.value.replace('_', ' ')} is not modelled by the loop encoder"
    if any(z is not Zone.DRAW_DECK for z in t.also_zones) or t.also_zones and t.event is not EventKind.DISCARDED:
        return "trigger: from the " + " or ".join(z.value.replace("_", " ") for z in t.also_zones) + \
            " is not modelled by the loop encoder"
    if t.from_zone is not None:
        s = t.subject
        if a.type in _INTERRUPTS:
            return "only reactions after a card is discarded from hand are modelled"
        if s.scope is Scope.SELF or set_fields(s) - {"scope", "card_type", "zone"} or \
                s.card_type not in (None, CardKind.CARD):
            return ("trigger: which cards in hand match the filter is not known "
                    "(only the candidate's cards are modelled)")
        if any(x.target.ref is TargetRef.TRIGGER for x in a.effects) or \
                any(x.target.ref is TargetRef.TRIGGER for x in a.costs):
            return "trigger: the card discarded from hand is not modelled"
    _filter_left_out(t.subject, "trigger", label, out)
    return None


#: Problems that come from text not read when the ability has unread clauses (the answer is then unknown).
_UNREAD_GAPS = frozenset({"no effect", "a triggered ability without a triggering condition",
                          "none of its text was read"})


def _ability_problem(a: Ability, card: CardFacts, rules: Rules, label: str, out: list[LeftOut]) -> str | None:
    if a.type not in _SUPPORTED_TYPES:
        return f"{a.type.value} abilities are not modelled by the loop encoder"
    if card.type == "event" and card.cost is None and card.shadow is None:  # X: played for 0 in the model
        out.append(LeftOut(label, "the event's gold cost is not a printed number: the model plays it for 0",
                           Direction.WIDENS))
    if card.type not in _CARD_TYPES:
        return f"abilities of {card.type} cards are not modelled by the loop encoder"
    if card.type == "attachment" and card.host is None:
        return "no card can host this attachment (its restriction or 'No attachments' rules out every character)"
    extra = set_fields(a) - _ABILITY_READ
    if extra:
        return f"'{', '.join(sorted(extra))}' of the ability is not modelled by the loop encoder"
    for u in a.unread:
        out.append(LeftOut(label, u.describe(), _ROLE_DIRECTION.get(u.role, Direction.EITHER)))
    if a.compiled is Compiled.UNSUPPORTED:
        return "none of its text was read"
    for cond in a.conditions:
        if challenge_test(cond) or trigger_card_test(cond, a):
            continue  # read from the cards' parts in the challenge (the model's ``role``), or the trigger's card
        out.append(LeftOut(label, f"play restriction '{cond.word.value} {cond.test.value}' is not modelled",
                           Direction.WIDENS))
    # (what X is, ``a.x``, is read; the amounts it sets are handled per cost and effect above)
    if a.any_player:
        out.append(LeftOut(label, "'any player may initiate' is not modelled (only its controller initiates)",
                           Direction.NARROWS))
    targets: list[Target] = [c.target for c in a.costs] + [e.target for e in a.effects]
    if card.type != "attachment" and (any(x.ref is TargetRef.ATTACHED for x in targets) or
                                      any(x.subject.scope is Scope.ATTACHED for x in targets)):
        return "'attached' on a card that is not an attachment"
    t = a.trigger
    if t is not None:
        p = _trigger_problem(t, a, label, out)
        if p:
            return p
    elif a.type not in (AbilityType.ACTION, AbilityType.WHEN_REVEALED):
        return "a triggered ability without a triggering condition"
    for c in a.costs:
        p = _part_problem(c, rules, a, card, label, out)
        if p:
            return p
    post_then = False
    for e in a.effects:
        post_then = post_then or e.then
        if post_then and e.target.ref is TargetRef.CHOSEN and e.amount not in (1, None):
            return f"effect {e.kind.value}: several targets chosen after 'then' (at resolution) are not modelled"
        p = _part_problem(e, rules, a, card, label, out)
        if p:
            return p
        if e.target.ref is TargetRef.TRIGGER and (t is None or t.subject.card_type is None):
            return f"effect {e.kind.value}: the trigger names no card"
    if not a.effects:
        return "no effect"
    return None


# ---------------------------------------------------------------------------
# attachments


def _restriction(att: Sequence[Ability]) -> Subject:
    """What an attachment may be attached to (Attachment Cards: a character unless its text says otherwise)."""
    subj = Subject(Scope.ANY, CardKind.CHARACTER)
    for a in att:
        if a.type is AbilityType.CONSTANT:
            for e in a.effects:
                if e.kind is EffectKind.ATTACHMENT_RESTRICTION:
                    subj = e.target.subject
    return subj


def can_host(att: CardFacts, restriction: Subject, k: CardFacts) -> bool:
    """Can ``att`` be attached to ``k``: the restriction, and ``k``'s "No attachments (except «Trait»)"."""
    if k.code == att.code or k.type not in ("character", "location") or not static_match(restriction, att, k):
        return False
    if restriction.card_type in (None, CardKind.CARD) and k.type != "character":
        return False
    for kw in k.keywords:
        if kw == "no attachments":
            return False
        if kw.startswith("no attachments except "):
            if kw[len("no attachments except "):] not in {t.lower() for t in att.traits}:
                return False
    return True


def _pick_host(att: CardFacts, restriction: Subject, used: Sequence[CardFacts],
               cycle: Sequence[tuple[CardFacts, Ability]], bystanders: Sequence[CardFacts]) -> CardFacts | None:
    """The card ``att`` is attached to: the first card of the candidate that can host it; else the bystander (a
    card not on the cycle) that fits the most targets the cycle's abilities choose (the first of those)."""
    for k in used:
        if can_host(att, restriction, k):
            return k
    keys = {c.code for c in used}
    wants = [(src, t.subject) for src, a in cycle
             for t in (*(c.target for c in a.costs), *(e.target for e in a.effects)) if t.ref is TargetRef.CHOSEN]
    memo = _host_memo(bystanders)
    hosts = memo.hosts.get((att, restriction))
    if hosts is None:
        hosts = memo.hosts[(att, restriction)] = tuple(k for k in bystanders if can_host(att, restriction, k))
    tables = [(src, w, memo.fits.setdefault((src, w), {})) for src, w in wants]
    best: CardFacts | None = None
    score = -1
    for k in hosts:
        if k.code in keys:
            continue
        fit = 0
        for src, w, seen in tables:
            hit = seen.get(k.code)
            if hit is None:
                hit = seen[k.code] = static_match(w, src, k)
            fit += hit
        if fit > score:
            best, score = k, fit
    return best


@dataclass
class _HostMemo:
    """What :func:`_pick_host` learned of one list of bystanders, kept for the next candidates of the same search
    (a whole-pool search asks it of some 2,000 bystanders for each attachment): for each attachment and
    restriction, the bystanders that can host it (in order), and for each chosen target of a cycle (its card and
    filter), whether each bystander (by key) fits it.  Both are functions of printed facts alone."""

    bystanders: Sequence[CardFacts]
    hosts: dict[tuple[CardFacts, Subject], tuple[CardFacts, ...]] = field(default_factory=dict)
    fits: dict[tuple[CardFacts, Subject], dict[str, bool]] = field(default_factory=dict)


_HOST_MEMOS: list[_HostMemo] = []


def _host_memo(bystanders: Sequence[CardFacts]) -> _HostMemo:
    """The memo of ``bystanders`` (the tuple itself: one search's; another starts a new memo, and a list, which
    could change, gets a memo of its own each time)."""
    if not isinstance(bystanders, tuple):
        return _HostMemo(bystanders)
    if not _HOST_MEMOS or _HOST_MEMOS[0].bystanders is not bystanders:
        _HOST_MEMOS[:] = [_HostMemo(bystanders)]
    return _HOST_MEMOS[0]


# ---------------------------------------------------------------------------
# encode


def encode(candidate: Candidate, abilities: Mapping[str, Sequence[Ability]], cards: Mapping[str, CardFacts],
           bystanders: Sequence[CardFacts] = (), *, named: Sequence[CardFacts] = (),
           rules: Rules = RULES) -> Encoding | Unsupported:
    """Accept a candidate for encoding, or say why it cannot be encoded faithfully.

    An attachment of the candidate is attached to a fixed card (:func:`_pick_host`): one of the candidate's
    cards, else one of ``bystanders`` (cards not on the cycle, e.g. of the deck or the pool, in the order they
    are preferred; an opponent's card has the key ``opp:CODE`` and owner ``opp``), which joins the encoding.
    ``named``: cards off the cycle that are in the model anyway (every card the user named, and the deck's):
    they can pay a cost, be a target, or host an attachment.
    """
    used = [cards[c] for c in candidate.cards if c in cards]
    dropped: list[LeftOut] = []
    for k in named:
        if any(c.code == k.code for c in used):
            continue
        first = next((c for c in used if c.unique and c.owner == k.owner and same_card(c.code, k.code)), None)
        if k.unique and first is not None:  # a second copy of a unique card, off the cycle: only a duplicate
            dropped.append(LeftOut(f"{k.name} ({k.code})", f"a second copy of a unique card, off the cycle: with "
                                   f"{first.code} in play it can only be its duplicate (Unique Cards, Duplicates)",
                                   Direction.NARROWS))
            continue
        twin = next((c for c in used if c.code in candidate.cards and c.owner == k.owner and same_card(c.code, k.code)),
                    None)
        if twin is not None and any(initiated(a) for a in abilities.get(k.code, ())) and \
                any(not same_card(c, twin.code) for c, _ in candidate.abilities):
            # Margaery Tyrell and two Highgarden Courtiers, one on the cycle: once its "Limit once per phase" is spent,
            # the other copy can take its turn (limits are per copy) while Margaery repeats: a walk through Margaery
            # twice, no candidate's pass (copies alone taking turns are a candidate of their own)
            dropped.append(LeftOut(f"{k.name} ({k.code})", f"another copy of {twin.name} ({twin.code}), off the cycle: "
                                   "its abilities could take the turn of the cycle's copy once that copy's are spent "
                                   "(not run by the model)", Direction.NARROWS))
        used.append(k)
    for code in candidate.cards:
        card = cards.get(code)
        if card is None or card.type != "attachment":
            continue
        restriction = _restriction(abilities.get(code, ()))
        cycle = [(cards[c], abilities[c][i]) for c, i in candidate.abilities if c in cards]
        host = _pick_host(card, restriction, used, cycle, bystanders)
        if host is not None and all(c.code != host.code for c in used):
            used.append(host)  # a bystander joins the encoding once, whatever it hosts
        at = next(j for j, c in enumerate(used) if c.code == card.code)
        used[at] = replace(card, host=host.code if host is not None else None)
    controls: list[tuple[str, str]] = []
    for at, card in enumerate(list(used)):  # "Take control of attached character" on a card off the cycle
        if card.type != "attachment" or card.code in candidate.cards or \
                not any(_control_constant(a) for a in abilities.get(card.code, ())):
            continue
        restriction = _restriction(abilities.get(card.code, ()))
        host = next((k for k in used if k.owner != card.owner and can_host(card, restriction, k)), None)
        if host is not None:  # on another player's card of the model (on its owner's own card it changes nothing)
            used[at] = replace(card, host=host.code)
            controls.append((card.code, host.code))
    taken = tuple((c.code, k.code, e.duration in _WHILE_IN_PLAY) for c in used
                  if c.code not in candidate.cards for a in abilities.get(c.code, ())
                  if initiated(a) and a.compiled is Compiled.FULL and not a.conditions
                  for e in a.effects if e.kind is EffectKind.TAKE_CONTROL and e.target.ref is TargetRef.CHOSEN
                  and e.condition is None and e.duration is not Duration.UNTIL_STANDS
                  for k in used if k.owner != c.owner and k.code != c.code and static_match(e.target.subject, c, k))
    by_key = {c.code: c for c in used}
    twice = next((c for c in used if c.unique and any(k.code != c.code and same_card(k.code, c.code)
                                                       and k.owner == c.owner for k in used)), None)
    if twice is not None:  # the model lets every copy be in play at once
        return Unsupported(candidate, f"{twice.name}: two copies of a unique card for one player (only one can be in "
                                      "play, the other a duplicate: Unique Cards, Duplicates; not modelled)")
    abil: list[Ability] = []
    left: list[LeftOut] = list(dropped)
    for code, idx in candidate.abilities:
        card = by_key.get(code)
        if card is None:
            return Unsupported(candidate, f"{code}: card facts missing")
        a = _after_search(abilities[code][idx])
        label = f"{card.name} ({code}#{idx})"
        a = _without_wider_replacements(a, label, left)
        before = len(left)
        p = _ability_problem(a, card, rules, label, left)
        if p:
            unread = tuple(x.phrase for x in left[before:] if x.direction is Direction.EITHER)
            if unread and p in _UNREAD_GAPS:  # what is missing is text not read, not text not modelled
                return Unsupported(candidate, f"{label}: {p}", unread)
            return Unsupported(candidate, f"{label}: {p}")
        abil.append(a)
    if any(t is not None and Zone.DRAW_DECK in t.also_zones for t in (trigger_of(a) for a in abil)) and \
            any(Place.DECK in src_places(p, e) for a in abil for p in parts_of(a)
                if (e := entry_of(p, rules)) is not None):
        # the model moves only its own cards out of a deck, not the deck's others: a discard from a deck would be
        # missed by "after a card is discarded from an opponent's hand or deck"
        return Unsupported(candidate, "a trigger on a discard from a deck, with a card taken from a deck in the "
                           "cycle (the model moves only its own cards out of a deck)")
    lasting = [j for j, a in enumerate(abil) if any(ongoing_kill(e) for e in a.effects)]
    strs = [j for j, a in enumerate(abil) if any(p.kind is EffectKind.STR_MOD for p in parts_of(a)
                                                    if isinstance(p, Effect))]
    if lasting and (len(lasting) > 1 or set(strs) - set(lasting)):
        # a STR changed later in the loop could meet "is killed if its STR is 0" at a moment the model does not run it
        code, idx = candidate.abilities[lasting[0]]
        return Unsupported(candidate, f"{by_key[code].name} ({code}#{idx}): effect kill: a lasting 'is killed if its "
                           "STR is 0' beside another STR change of the cycle (the loop model does not track STR)")
    for (code, idx), a in zip(candidate.abilities, abil, strict=True):
        if rules.search.whole_deck:
            left.extend(_found_answered(a, abil, f"{by_key[code].name} ({code}#{idx})", rules))
    phases = {p for p in (phase_of(a) for a in abil) if p is not None}
    # the opponent is in the model with their cards, or when any player may initiate an ability of the cycle
    both = any(c.owner == "opp" for c in used) or any(a.any_player for a in abil) or any(_names_opponent(a)
                                                                                        for a in abil)
    players = ("you", "opp") if both else ("you",)
    prohibits = tuple((c.code, e) for c in used for a in abilities.get(c.code, ()) if _prohibition(a)
                      for e in a.effects)
    model_text = [a.text for c in used for a in abilities.get(c.code, ()) if not _framework_value_only(a)]
    left_constants = [(f"{c.name}: '{a.text.replace('~', c.name)}'", _only_forbids(a))
                      for c in used for a in abilities.get(c.code, ())
                      if a.type is AbilityType.CONSTANT and not _prohibition(a) and not _control_constant(a)
                      and not (a.effects and all(e.kind is EffectKind.ATTACHMENT_RESTRICTION for e in a.effects))
                      and not _unread_value(a, model_text) and not (_on_attached(a) and _no_host(c, used, abilities))]
    unmodelled = tuple(dict.fromkeys(t for t, _ in left_constants))
    forbidding = tuple(dict.fromkeys(t for t, only in left_constants if only))
    if len(players) > 1:  # both players are in the model: either may initiate what any player may
        left = [x for x in left if "any player may initiate" not in x.phrase]
    static = cannot_repeat(abil, [by_key[c].owner for c, _ in candidate.abilities],
                           [f"{by_key[c].name} ({c}#{i})" for c, i in candidate.abilities], rules,
                           any(c.host is not None for c in used), [by_key[c] for c, _ in candidate.abilities])
    if len(phases) > 1:
        static = ("its abilities are restricted to different phases (" + ", ".join(sorted(p.value for p in phases))
                  + "): a pass takes a round, never repeating within one")
    return Encoding(candidate, tuple(used), tuple(abil), next(iter(phases), None) if len(phases) == 1 else None,
                    players, unmodelled, tuple(dict.fromkeys(left)), static, prohibits, tuple(controls),
                    tuple(dict.fromkeys(taken)), forbidding)


def _found_answered(a: Ability, cycle: Sequence[Ability], label: str, rules: Rules) -> list[LeftOut]:
    """A card of the deck the model does not hold, found by the search of ``a`` (:func:`search_move`) or moved from the
    top or bottom of the deck (:func:`deck_end_move`), could answer
    the triggering condition of an ability of the cycle ("after a character enters play"): the model, which finds it
    without following it, raises nothing about it, so it can do less than the printed card (named)."""
    moved = [e for e in (search_move(a),) if e is not None] + [e for e in a.effects if deck_end_move(e)]
    out: list[LeftOut] = []
    for e in moved:
        mv = move_of(e, rules)
        if mv is None:
            continue
        for b in cycle:
            t = trigger_of(b)
            if t is not None and t.subject.scope is not Scope.SELF and \
                    any(answers(t, ev, mv.src) for ev in (*mv.would, *mv.after)):
                out.append(LeftOut(label, f"effect {e.kind.value}: a card of the deck the model does not hold, moved "
                                   f"by it, would answer the trigger '{t.event.value}' (the model raises nothing about "
                                   "it)", Direction.NARROWS))
                break
    return out


def _names_opponent(a: Ability) -> bool:
    """Does a cost or effect of ``a`` act on the opponent as a player ("each opponent discards 1 card", "move 1 gold
    from an opponent's gold pool")?  Then the opponent's pools are in the model."""
    parts: tuple[Cost | Effect, ...] = (*a.costs, *a.effects)
    targets = [p.target for p in parts] + [x for e in a.effects for x in (e.source, e.chooser) if x is not None]
    return any(t.is_player and t.subject.scope in (Scope.OPPONENT, Scope.OPPONENT_CONTROLS, Scope.OPPONENT_OWNS,
                                                   Scope.ANY_PLAYER) for t in targets)


_PROHIBITABLE = frozenset({EventKind.KNELT, EventKind.STOOD, EventKind.KILLED, EventKind.SAVED, EventKind.DISCARDED,
                           EventKind.SACRIFICED, EventKind.RETURNED_TO_HAND, EventKind.LEAVES_PLAY})


# a value read only by a framework step (Appendix I): income when gold is collected (marshaling phase), initiative
# in the plot phase, reserve in the taxation phase; a cycle of abilities never passes through one
_FRAMEWORK_VALUES = {EffectKind.INCOME_MOD: "income", EffectKind.RESERVE_MOD: "reserve",
                     EffectKind.INITIATIVE_MOD: "initiative"}


def _framework_value_only(a: Ability) -> bool:
    """A constant read in full whose every effect changes a framework value ("+1 Income.", "-1 Initiative.")."""
    return (a.type is AbilityType.CONSTANT and a.compiled is Compiled.FULL and bool(a.effects)
            and all(e.kind in _FRAMEWORK_VALUES for e in a.effects))


def _unread_value(a: Ability, model_text: Sequence[str]) -> bool:
    """Is ``a`` a framework-value constant (:func:`_framework_value_only`) whose value no other ability of the
    model's cards mentions ("X is your reserve value", "if your initiative value is 0")?  Then no pass of a cycle
    reads it, and leaving it out cannot change an answer: the result does not rest on it."""
    if not _framework_value_only(a):
        return False
    words = {_FRAMEWORK_VALUES[e.kind] for e in a.effects}
    return not any(w in t.lower() for t in model_text for w in words)


def _on_attached(a: Ability) -> bool:
    """A constant whose every effect is on the attached character ("attached character gets +1 STR"), or, when its
    effect was not read, one sentence whose subject is the attached character ("attached character gains the
    [stark] affiliation.")."""
    if a.effects:
        return all(e.target.ref is TargetRef.ATTACHED for e in a.effects)
    text = a.text.strip().rstrip(".")
    return text.startswith("attached character ") and "." not in text


def _no_host(card: CardFacts, used: Sequence[CardFacts], abilities: Mapping[str, Sequence[Ability]]) -> bool:
    """An attachment of the model that no card of the model can host (Ward, 'printed cost 4 or lower only', beside
    two Archmaester Ebroses of cost 5): what it does to an attached character never reaches the model's cards, so
    an answer does not rest on it."""
    if card.type != "attachment" or card.host is not None:
        return False
    restriction = _restriction(abilities.get(card.code, ()))
    return not any(can_host(card, restriction, k) for k in used if k.code != card.code)


def _only_forbids(a: Ability) -> bool:
    """A constant read in full whose every effect is a "cannot" (with or without a condition, a phase or an
    "unless"): leaving it out only lets the model do more, so a "not a loop" found without it stands."""
    return (a.type is AbilityType.CONSTANT and a.compiled is Compiled.FULL and bool(a.effects)
            and all(e.kind is EffectKind.PROHIBIT for e in a.effects))


def _prohibition(a: Ability) -> bool:
    """A constant ability read in full whose every effect is an unconditional "cannot be X" the model applies."""
    return (a.type is AbilityType.CONSTANT and a.compiled is Compiled.FULL and not a.conditions and bool(a.effects)
            and all(e.kind is EffectKind.PROHIBIT and e.prohibited in _PROHIBITABLE and e.duration is None
                    and e.condition is None and e.phase is None
                    and e.target.ref in (TargetRef.SELF, TargetRef.EACH, TargetRef.ATTACHED) for e in a.effects))


_WHILE_IN_PLAY = frozenset({Duration.UNTIL_LEAVES_PLAY, Duration.WHILE_IN_PLAY})


def _control_constant(a: Ability) -> bool:
    """A constant read in full that takes control of the attached character, unconditionally (Ward)."""
    return (a.type is AbilityType.CONSTANT and a.compiled is Compiled.FULL and not a.conditions and bool(a.effects)
            and all(e.kind is EffectKind.TAKE_CONTROL and e.target.ref is TargetRef.ATTACHED and e.duration is None
                    and e.condition is None for e in a.effects))


def _wider(base: Effect, alt: Effect) -> bool:
    """Is ``alt`` ``base`` with a printed-cost or STR bound that only lets more cards in ("printed cost 1 or lower
    (4 or lower instead if ...)")?"""
    if alt.kind is not base.kind or alt.target.ref is not base.target.ref or alt.target.also or base.target.also:
        return False
    a, b = alt.target.subject, base.target.subject
    if dataclasses.replace(a, compare=b.compare) != b or len(a.compare) != len(b.compare):
        return False
    for x, y in zip(a.compare, b.compare, strict=True):
        if x.stat is not y.stat or x.op is not y.op or x.than is not None or y.than is not None or \
                x.value is None or y.value is None or x.op.value not in ("le", "ge"):
            return False
        if (x.value < y.value) if x.op.value == "le" else (x.value > y.value):
            return False
    return dataclasses.replace(alt, target=base.target, instead=False, condition=None) == \
        dataclasses.replace(base, condition=None)


def _without_wider_replacements(a: Ability, label: str, out: list[LeftOut]) -> Ability:
    """Drop an "instead" effect that replaces the one before it with the same effect on a wider target, under a
    condition (Westwatch-by-the-Bridge): whatever the condition, what the first allows stays allowed, so leaving
    the replacement out only narrows the ability (named)."""
    keep: list[Effect] = []
    for e in a.effects:
        if e.instead and e.instead_of is None and keep and _wider(keep[-1], e):
            out.append(LeftOut(label, f"effect {e.kind.value}: the wider target it may take instead (under a "
                               "condition) is left out", Direction.NARROWS))
            continue
        keep.append(e)
    return a if len(keep) == len(a.effects) else replace(a, effects=tuple(keep))


def _after_search(a: Ability) -> Ability:
    """After "search your deck for a card", the card the next effects move or put into play comes from the deck."""
    if not any(e.kind is EffectKind.SEARCH_DECK for e in a.effects):
        return a
    out: list[Effect] = []
    found = False
    for e in a.effects:
        if found and e.target.ref is TargetRef.CHOSEN and e.target.subject.zone is None and \
                e.kind in (EffectKind.MOVE_CARD, EffectKind.PUT_INTO_PLAY):
            e = replace(e, target=replace(e.target, subject=replace(e.target.subject, zone=Zone.DRAW_DECK)))
        found = found or e.kind is EffectKind.SEARCH_DECK
        out.append(e)
    return replace(a, effects=tuple(out))


def _describe(s: Subject) -> str:
    out = describe_subject(s)
    if s.scope is not Scope.ANY:
        out += f" ({s.scope.value.replace('_', ' ')})"
    return out


def missing_targets(enc: Encoding, i: int) -> str:
    """Why ability ``i`` cannot fire, when no card of the model fits a target it must choose ("" if all fit)."""
    a = enc.abilities[i]
    src = enc.card_of(i)
    needs: list[tuple[str, Target]] = [(f"cost {c.kind.value}", c.target) for c in a.costs]
    needs += [(f"effect {e.kind.value}", e.target) for e in a.effects]
    for what, t in needs:
        if t.ref is not TargetRef.CHOSEN or t.subject.zone is not None and t.subject.zone.value == "hand":
            continue
        if not any(target_match(t, src, k) for k in enc.cards):
            return (f"no card of the model is the {_describe(t.subject)} its {what} needs "
                    "(the model holds the cycle's cards and the cards named with them)")
    return ""

