"""Loop candidate -> rules model: a small symbolic AGoT state for the cards of one cycle.

A :class:`ruleproof.cards.graph.Candidate` names a cycle of abilities.  This
module checks that every ability on it can be encoded faithfully
(:func:`encode`) and builds a :class:`ruleproof.dsl.Model` over the cards of
the cycle (:func:`build_model`), on which :mod:`ruleproof.loops.lasso` asks
its questions.

The state, for the cards of the candidate only (one copy each, keyed as in
the ability graph: ``CODE`` for your copy, ``opp:CODE`` for the opponent's;
owner fixed, and a card is controlled by its owner: Ownership and Control):

* per card: its zone (hand, play, discard pile, dead pile, removed from the
  game), standing or kneeling, power on it, gold on it (``cgold``, only when
  the cycle uses it), a pending removal while an interrupt to it resolves
  (``imm``);
* per player (``you`` and, with opponent cards, ``opp``): gold, cards in hand
  besides the candidate's own cards, cards left in the draw deck, power on the
  faction card, whether the faction card stands;
* per ability of the cycle: whether its triggering condition occurred and is
  still unanswered (``pending``, with the card it was about, ``trig``) and how
  often it was used (``used``: per copy for "Limit", reset when the card
  re-enters play; "Max" counts every ability of that title *of the same
  player*, as limits and maxima are player specific);
* the pass observer: ``pos`` (the next ability of the cycle), ``passes``
  (complete passes) and a snapshot of the whole state taken at the end of
  the first pass (``snap_*``).

Each ability is one action, forced to fire in cycle order.  Its guard is the
rules' initiation test (Abilities, Costs): the card is where the ability can
be used from, a reaction/interrupt answers a triggering condition that
occurred (Triggering Condition), forced abilities go first (Forced
Interrupts / Forced Reactions), the phase matches, the cost can be paid in
full, the effect could change the game state judged *before* the cost is paid,
and the limit is not spent (Limits and Maxima).  Its update is the cost then
the effect, applied in sequence, then the triggering conditions they create.
A scope is read relative to the controller of the ability that prints it
and each player pays costs with their own cards, gold and hand, so a cycle
may alternate between your abilities and the opponent's (their effect
kneels your character, your reaction answers it...).  "Put into play" takes
the card only from the zones its text names (hand, discard pile, dead pile;
Put into Play); a discard from hand is its own triggering condition ("after
a card is discarded from your hand", for the hand's owner, whoever's effect
discarded it).
Removals answered by the next ability of the cycle when it is an interrupt
wait in ``imm`` until that interrupt resolves (Nested Ability Sequences;
Save; a sacrifice cannot be saved).

Constant abilities of the candidate's cards are not modelled: a result names
them (``Encoding.unmodelled``).  Gold on a card (``cgold``, declared only
when an ability of the cycle uses it) is not its controller's gold and
returns to the treasury when the card leaves play.  Anything else the
encoder does not model (cancels, lasting
modifiers, variable amounts, filters on unknown cards, putting a card into
play from shadows or the draw deck...) makes the candidate *unsupported*,
with the reason; nothing is guessed.

The word "Then": effects after a "then" resolve only when every effect
before it resolved in full (changed the game state; a draw drew every card),
and only then count toward the initiation test; a target chosen after a
"then" is not modelled (unsupported).

Mutants (:data:`MUTANTS`, built with ``ModelSpec(mutant=...)``, each caught
by a test in ``tests/loops``): ``max_across_players`` (Limits and Maxima),
``put_into_play_any_zone`` (Put into Play), ``then_ignored`` (The word
"Then") and ``attached_any`` (Attachment Cards: "attached character" read
as any character).

Attachments: an attachment of the candidate is attached to one fixed card
(:func:`encode` picks it: a candidate card its restriction and the host's
"No attachments" allow, else a bystander not on the cycle that fits the
cycle's targets); "attached character" is that card; the attachment is in
play only while its host is, and returns to its owner's hand (Terminal:
is discarded) when the host leaves play (Attachment Cards).  Attachments
are never put into play by the cycle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    Cmp,
    Compiled,
    CostKind,
    Effect,
    EffectKind,
    EventKind,
    LimitKind,
    Means,
    Phase,
    Scope,
    Stat,
    Subject,
    Target,
    TargetRef,
    Trigger,
    Zone,
    describe_subject,
    set_fields,
)
from ruleproof.cards.graph import Candidate
from ruleproof.dsl import And, Bool, If, Int, Model, Not, OneOf, Or, Range, Sort, Step, Sum, Term
from ruleproof.ir import System

__all__ = [
    "ALL_GROUPS",
    "MUTANTS",
    "Encoding",
    "GROUP_TEXT",
    "LoopCard",
    "ModelSpec",
    "Unsupported",
    "build_model",
    "encode",
    "missing_targets",
    "source_zones",
]

ZONES = ("hand", "play", "discard", "dead", "removed")
REMOVALS = ("none", "kill", "discard", "sacrifice", "ret", "remove")
_BIG = 10**6

#: Wrong readings of the rules :class:`ModelSpec` can build, each caught by a test:
#: ``max_across_players``: a "Max" counts the title's uses of both players (Limits and Maxima: player specific);
#: ``put_into_play_any_zone``: "put into play" takes the card from any out-of-play zone (Put into Play: the zone
#: the text names).
#: ``then_ignored``: post-then effects resolve even when the pre-then aspect did not (The word "Then");
#: ``attached_any``: "attached character" is any character (Attachment Cards).
MUTANTS = ("max_across_players", "put_into_play_any_zone", "then_ignored", "attached_any")

# dominance groups: which part of the state must be "at least as good" after a pass
ALL_GROUPS = ("standing", "zones", "triggers", "gold", "cgold", "hand", "deck", "power", "limits")
GROUP_TEXT = {
    "standing": "standing/kneeling state of the cards",
    "zones": "where the cards are (in play, hand, discard pile...)",
    "triggers": "pending triggering conditions",
    "gold": "gold",
    "cgold": "gold on cards",
    "hand": "cards in hand",
    "deck": "cards left in the draw deck",
    "power": "power",
    "limits": "uses left under printed limits",
}

_SUPPORTED_TYPES = {
    AbilityType.ACTION, AbilityType.REACTION, AbilityType.INTERRUPT,
    AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT,
}
_FORCED = {AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT}
_INTERRUPTS = {AbilityType.INTERRUPT, AbilityType.FORCED_INTERRUPT}
# triggering conditions a card effect can create inside the cycle
_CARD_EVENTS = {
    EventKind.KNELT, EventKind.STOOD, EventKind.KILLED, EventKind.WOULD_BE_KILLED, EventKind.SACRIFICED,
    EventKind.LEAVES_PLAY, EventKind.WOULD_LEAVE_PLAY, EventKind.ENTERS_PLAY, EventKind.GAIN_POWER,
    EventKind.DISCARDED, EventKind.WOULD_BE_DISCARDED, EventKind.RETURNED_TO_HAND,
}
_PLAYER_EVENTS = {EventKind.DRAW, EventKind.GAIN_GOLD}
# trigger conditions that no effect inside a cycle satisfies (the event then never recurs)
_NEVER_IN_CYCLE = {Means.ASSAULT, Means.AMBUSH}  # and "during a challenge" (Trigger.in_challenge)
# the trigger fields the encoder reads, and the "or ..." events it knows
_TRIGGER_MODELLED = frozenset({"event", "subject", "phase", "challenge", "also_events", "means", "from_zone",
                               "in_challenge"})
_ALSO_EVENTS = {(EventKind.KILLED, (EventKind.SACRIFICED,)),
                (EventKind.WOULD_BE_KILLED, (EventKind.WOULD_BE_DISCARDED,))}
# the filter fields the encoder reads (compared printed numbers: constants, STR or cost)
_SUBJECT_MODELLED = frozenset({"scope", "card_type", "traits", "factions", "not_traits", "not_factions", "other",
                               "standing", "unique", "loyal", "limited", "icons", "compare", "zone"})
_STAT_OF = {Stat.STR: "str", Stat.PRINTED_STR: "str", Stat.COST: "cost", Stat.PRINTED_COST: "cost"}
# the fields of abilities, costs and effects the encoder reads (any other field set: not modelled)
_ABILITY_MODELLED = frozenset({"type", "trigger", "costs", "effects", "limit", "phase", "optional", "keyword",
                               "keyword_value", "compiled", "text", "cannot_be_canceled"})
_COST_MODELLED = frozenset({"kind", "target", "amount"})
_EFFECT_MODELLED = frozenset({"kind", "amount", "target", "source", "duration", "optional", "from_zones", "then"})
_REMOVAL_EVENTS = {
    "kill": ((EventKind.WOULD_BE_KILLED, EventKind.WOULD_LEAVE_PLAY), (EventKind.KILLED, EventKind.LEAVES_PLAY),
             "dead"),
    "discard": ((EventKind.WOULD_BE_DISCARDED, EventKind.WOULD_LEAVE_PLAY),
                (EventKind.DISCARDED, EventKind.LEAVES_PLAY), "discard"),
    "sacrifice": ((EventKind.WOULD_LEAVE_PLAY,), (EventKind.SACRIFICED, EventKind.LEAVES_PLAY), "discard"),
    "ret": ((EventKind.WOULD_LEAVE_PLAY,), (EventKind.RETURNED_TO_HAND, EventKind.LEAVES_PLAY), "hand"),
    "remove": ((EventKind.WOULD_LEAVE_PLAY,), (EventKind.LEAVES_PLAY,), "removed"),
}
_COST_REMOVAL = {CostKind.SACRIFICE: "sacrifice", CostKind.KILL: "kill", CostKind.RETURN_TO_HAND: "ret",
                 CostKind.REMOVE_FROM_GAME: "remove", CostKind.DISCARD_FROM_PLAY: "discard"}
_EFFECT_REMOVAL = {EffectKind.KILL: "kill", EffectKind.DISCARD: "discard", EffectKind.SACRIFICE: "sacrifice",
                   EffectKind.RETURN_TO_HAND: "ret"}
_ZONE_OF = {Zone.HAND: "hand", Zone.DISCARD_PILE: "discard", Zone.DEAD_PILE: "dead"}
_YOURS = {Scope.YOU_CONTROL, Scope.YOU_OWN, Scope.YOU}
_THEIRS = {Scope.OPPONENT_CONTROLS, Scope.OPPONENT_OWNS, Scope.OPPONENT}


@dataclass(frozen=True)
class LoopCard:
    """What the loop encoder needs to know of a card (printed values, owner)."""

    code: str
    name: str
    type: str
    faction: str
    traits: tuple[str, ...] = ()
    cost: int | None = None
    strength: int | None = None
    unique: bool = False
    loyal: bool = False
    icons: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    owner: str = "you"
    host: str | None = None  # an attachment's: the key of the card it is attached to (in the encoding)


@dataclass(frozen=True)
class Unsupported:
    """A candidate the encoder cannot model faithfully, and why."""

    candidate: Candidate
    reason: str


@dataclass(frozen=True)
class Encoding:
    """A candidate the encoder accepted: its cards and abilities in cycle order.

    ``unmodelled``: the constant abilities of its cards that the model leaves
    out (``Name: 'text'``); a result over the encoding names them, since any
    of them could change the answer.
    """

    candidate: Candidate
    cards: tuple[LoopCard, ...]
    abilities: tuple[Ability, ...]
    phase: Phase | None
    players: tuple[str, ...]
    unmodelled: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        """Number of abilities on the cycle (steps per pass)."""
        return len(self.abilities)

    def card_of(self, i: int) -> LoopCard:
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


@dataclass(frozen=True)
class ModelSpec:
    """Which variant of the model to build.

    ``limits``: positions whose limit/maximum is enforced.  ``lasso_drop``:
    dominance groups left out of each ``lasso`` target (one target per entry,
    named ``lasso`` or ``lasso-<group>``).  ``passes``: one target
    ``passes>=k`` per ``k``.  ``progress``: targets ``pos>=m`` (how far a first
    pass gets).  ``mutant``: one of :data:`MUTANTS` (a deliberately wrong
    reading of a rule, for the tests), ``""`` for the rules as written.
    """

    limits: frozenset[int] = frozenset()
    lasso_drop: tuple[tuple[str, ...], ...] = ((),)
    passes: tuple[int, ...] = ()
    progress: tuple[int, ...] = ()
    max_passes: int = 16
    mutant: str = ""

    def __post_init__(self) -> None:
        if self.mutant and self.mutant not in MUTANTS:
            raise ValueError(f"unknown loop-encoder mutant {self.mutant!r} (known: {', '.join(MUTANTS)})")


# ---------------------------------------------------------------------------
# support check


def _subject_problem(s: Subject, what: str) -> str | None:
    extra = set_fields(s) - _SUBJECT_MODELLED
    if extra:
        return f"{what}: filter '{', '.join(sorted(extra))}' is not modelled by the loop encoder"
    for c in s.compare:
        if c.stat not in _STAT_OF or c.value is None or c.than is not None or c.op not in (Cmp.LE, Cmp.GE):
            return f"{what}: comparison of {c.stat.value.replace('_', ' ')} is not modelled by the loop encoder"
    if s.zone not in (None, Zone.PLAY, Zone.HAND):
        return f"{what}: a card in the {s.zone.value.replace('_', ' ')} is not modelled by the loop encoder"
    return None


def _never_in_cycle(t: Trigger) -> bool:
    """A trigger that no effect inside a cycle satisfies (the event then never recurs)."""
    return t.means in _NEVER_IN_CYCLE or t.in_challenge


def _target_problem(t: Target, what: str, allow: Iterable[TargetRef]) -> str | None:
    if t.also:
        return f"{what}: alternative targets are not modelled by the loop encoder"
    if t.ref is TargetRef.ATTACHED and TargetRef.SELF in set(allow):
        return _subject_problem(t.subject, what)  # a fixed card, like ~: the attachment's host
    if t.ref not in set(allow):
        return f"{what}: target '{t.ref.value}' is not modelled by the loop encoder"
    return _subject_problem(t.subject, what)


def source_zones(e: Effect) -> tuple[str, ...]:
    """The model zones (``hand``, ``discard``, ``dead``) ``put into play`` takes the card from.

    The zones come from the compiled effect (``from_zones``: "from your hand
    or discard pile"), or from a target in the hand (``zone: hand``) of an override.  A
    card never comes from a zone the text does not name (Put into Play).
    Zones the model has no place for are left out (see :func:`_zone_problem`).
    """
    zones = tuple(_ZONE_OF[z] for z in e.from_zones if z in _ZONE_OF)
    if e.target.subject.zone is Zone.HAND and "hand" not in zones:
        zones += ("hand",)
    return zones


def _zone_problem(e: Effect) -> str | None:
    """Why the zones of a ``put into play`` effect cannot be modelled (``None``: they can)."""
    bad = [z.value.replace("_", " ") for z in e.from_zones if z not in _ZONE_OF]
    if bad:
        return f"putting a card into play from {' or '.join(bad)} is not modelled by the loop encoder"
    if not source_zones(e):
        return "the text names no zone the card is put into play from"
    return None


def _ability_problem(a: Ability, card: LoopCard) -> str | None:
    if a.compiled is not Compiled.FULL:
        why = "; ".join(a.reasons) or a.compiled.value
        return f"text not fully compiled ({why})"
    if a.type not in _SUPPORTED_TYPES:
        return f"{a.type.value} abilities are not modelled by the loop encoder"
    if card.type == "event" and card.cost is None:
        return "event with a variable cost"
    if card.type not in ("character", "location", "attachment", "event", "agenda"):
        return f"abilities of {card.type} cards are not modelled by the loop encoder"
    if card.type == "attachment" and card.host is None:
        return "no card can host this attachment (its restriction or 'No attachments' rules out every character)"
    extra = set_fields(a) - _ABILITY_MODELLED
    if extra:
        return f"'{', '.join(sorted(extra))}' of the ability is not modelled by the loop encoder"
    for c in a.costs:
        extra = set_fields(c) - _COST_MODELLED
        if extra:
            return f"cost {c.kind.value}: '{', '.join(sorted(extra))}' is not modelled by the loop encoder"
    for e in a.effects:
        extra = set_fields(e) - _EFFECT_MODELLED
        if extra:
            return f"effect {e.kind.value}: '{', '.join(sorted(extra))}' is not modelled by the loop encoder"
    targets: list[Target] = [c.target for c in a.costs] + [e.target for e in a.effects]
    subjects: list[Subject] = [x.subject for x in targets] + ([a.trigger.subject] if a.trigger else [])
    if card.type != "attachment" and (any(x.ref is TargetRef.ATTACHED for x in targets)
                                      or any(x.scope is Scope.ATTACHED for x in subjects)):
        return "'attached' on a card that is not an attachment"
    t = a.trigger
    if t is not None:
        p = _subject_problem(t.subject, "trigger")
        if p:
            return p
        extra = set_fields(t) - _TRIGGER_MODELLED
        if extra:
            return f"trigger: '{', '.join(sorted(extra))}' is not modelled by the loop encoder"
        if t.also_events and (t.event, t.also_events) not in _ALSO_EVENTS:
            return "trigger: these alternative events are not modelled by the loop encoder"
        if t.means is not None and t.means not in _NEVER_IN_CYCLE:
            return f"trigger: 'by {t.means.value}' is not modelled by the loop encoder"
        if t.from_zone not in (None, Zone.HAND):
            return f"trigger: from the {t.from_zone.value.replace('_', ' ')} is not modelled by the loop encoder"
        if t.from_zone is Zone.HAND:
            s = t.subject
            if t.event is not EventKind.DISCARDED or a.type in _INTERRUPTS:
                return "only reactions after a card is discarded from hand are modelled"
            if s.scope is Scope.SELF or set_fields(s) - {"scope", "card_type"} or \
                    s.card_type not in (None, CardKind.CARD):
                return ("trigger: which cards in hand match the filter is not known "
                        "(only the candidate's cards are modelled)")
            if any(x.target.ref is TargetRef.TRIGGER for x in a.effects) or \
                    any(x.target.ref is TargetRef.TRIGGER for x in a.costs):
                return "trigger: the card discarded from hand is not modelled"
        if t.challenge is not None and t.event in _CARD_EVENTS:
            return "challenge-type restriction on a card event"
    elif a.type is not AbilityType.ACTION:
        return "a triggered ability without a triggering condition"
    for c in a.costs:
        what = f"cost {c.kind.value}"
        if c.amount is None:
            return f"{what}: variable amount (X)"
        if c.kind in (CostKind.KNEEL, CostKind.STAND):
            p = _target_problem(c.target, what, (TargetRef.SELF, TargetRef.CHOSEN, TargetRef.FACTION_CARD))
        elif c.kind is CostKind.PAY_GOLD:
            p = None
        elif c.kind is CostKind.DISCARD_GOLD:
            p = _target_problem(c.target, what, (TargetRef.SELF,))
        elif c.kind is CostKind.DISCARD_FROM_HAND:
            s = c.target.subject
            p = None
            if set_fields(s) - {"scope", "card_type", "zone"} or s.card_type not in (None, CardKind.CARD):
                p = f"{what}: which cards in hand match the filter is not known"
        elif c.kind in _COST_REMOVAL:
            p = _target_problem(c.target, what, (TargetRef.SELF, TargetRef.CHOSEN))
        elif c.kind is CostKind.DISCARD_POWER:
            p = _target_problem(c.target, what, (TargetRef.SELF, TargetRef.FACTION_CARD))
        else:
            p = f"{what} is not modelled by the loop encoder"
        if p:
            return p
        if c.target.ref is TargetRef.CHOSEN and c.target.subject.card_type in (CardKind.FACTION_CARD,):
            return f"{what}: faction card as a chosen target"
    post_then = False
    for e in a.effects:
        what = f"effect {e.kind.value}"
        post_then = post_then or e.then
        if post_then and e.target.ref is TargetRef.CHOSEN:
            return f"{what}: a target chosen after 'then' (at resolution) is not modelled by the loop encoder"
        if e.amount is None and e.target.ref is not TargetRef.EACH:
            return f"{what}: variable amount (X)"
        if e.duration is not None:
            return f"{what}: lasting effects are not modelled by the loop encoder"
        if e.kind in (EffectKind.STAND, EffectKind.KNEEL):
            p = _target_problem(e.target, what, (TargetRef.SELF, TargetRef.CHOSEN, TargetRef.EACH, TargetRef.TRIGGER,
                                                 TargetRef.FACTION_CARD))
        elif e.kind is EffectKind.GAIN_GOLD and not e.target.is_player:
            p = _target_problem(e.target, what, (TargetRef.SELF, TargetRef.CHOSEN, TargetRef.TRIGGER))  # gold on a card
        elif e.kind in (EffectKind.GAIN_GOLD, EffectKind.DRAW):
            p = None if e.target.ref is TargetRef.PLAYER and e.target.subject.scope in (Scope.YOU, Scope.ANY) \
                else f"{what}: only 'you' gain or draw in the loop encoder"
        elif e.kind is EffectKind.GAIN_POWER:
            p = _target_problem(e.target, what, (TargetRef.SELF, TargetRef.CHOSEN, TargetRef.FACTION_CARD,
                                                 TargetRef.TRIGGER))
        elif e.kind is EffectKind.PUT_INTO_PLAY:
            p = _target_problem(e.target, what, (TargetRef.SELF, TargetRef.CHOSEN))
            zp = _zone_problem(e)
            if p is None and zp is not None:
                p = f"{what}: {zp}"
        elif e.kind is EffectKind.DISCARD_FROM_HAND:
            p = None if e.target.is_player and e.target.ref in (TargetRef.PLAYER, TargetRef.EACH) else \
                f"{what}: only a player's hand is modelled"
        elif e.kind in _EFFECT_REMOVAL:
            p = _target_problem(e.target, what, (TargetRef.SELF, TargetRef.CHOSEN, TargetRef.EACH, TargetRef.TRIGGER))
        elif e.kind is EffectKind.SAVE:
            p = None if e.target.ref is TargetRef.TRIGGER and a.type in _INTERRUPTS else \
                f"{what}: only an interrupt saving the card of its trigger is modelled"
        else:
            p = f"{what} is not modelled by the loop encoder"
        if p:
            return p
        if e.target.ref is TargetRef.EACH and not e.target.is_player and e.kind not in (
                EffectKind.STAND, EffectKind.KNEEL, EffectKind.KILL, EffectKind.DISCARD, EffectKind.RETURN_TO_HAND):
            return f"{what} on each card is not modelled"
        if e.target.ref is TargetRef.TRIGGER and (t is None or t.event not in _CARD_EVENTS):
            return f"{what}: the trigger names no card"
    if not a.effects:
        return "no effect"
    return None


def _phase_of(a: Ability) -> Phase | None:
    if a.phase is not None:
        return a.phase
    return a.trigger.phase if a.trigger is not None else None


def _restriction(att: Sequence[Ability]) -> Subject:
    """What an attachment may be attached to (Attachment Cards: a character unless its text says otherwise).

    Its other constant abilities, like those of every card of a candidate,
    are left out of the model and named in the result (``Encoding.unmodelled``).
    """
    subj = Subject(Scope.ANY, CardKind.CHARACTER)
    for a in att:
        if a.type is AbilityType.CONSTANT:
            for e in a.effects:
                if e.kind is EffectKind.ATTACHMENT_RESTRICTION:
                    subj = e.target.subject
    return subj


def can_host(att: LoopCard, restriction: Subject, k: LoopCard) -> bool:
    """Can ``att`` be attached to ``k``: the restriction, and ``k``'s "No attachments (except «Trait»)"."""
    if k.code == att.code or k.type not in ("character", "location") or not _static_match(restriction, att, k):
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


def _pick_host(att: LoopCard, restriction: Subject, used: Sequence[LoopCard],
               cycle: Sequence[tuple[LoopCard, Ability]], bystanders: Sequence[LoopCard]) -> LoopCard | None:
    """The card ``att`` is attached to: the first card of the candidate that can host it; else the bystander (a
    card not on the cycle) that fits the most targets the cycle's abilities choose (the first of those)."""
    for k in used:
        if can_host(att, restriction, k):
            return k
    keys = {c.code for c in used}
    wants = [(src, t.subject) for src, a in cycle
             for t in (*(c.target for c in a.costs), *(e.target for e in a.effects)) if t.ref is TargetRef.CHOSEN]
    best: LoopCard | None = None
    score = -1
    for k in bystanders:
        if k.code in keys or not can_host(att, restriction, k):
            continue
        fit = sum(1 for src, w in wants if _static_match(w, src, k))
        if fit > score:
            best, score = k, fit
    return best


def encode(candidate: Candidate, abilities: Mapping[str, Sequence[Ability]],
           cards: Mapping[str, LoopCard], bystanders: Sequence[LoopCard] = ()) -> Encoding | Unsupported:
    """Accept a candidate for encoding, or say why it cannot be encoded faithfully.

    An attachment of the candidate is attached to a fixed card (:func:`_pick_host`): one of the candidate's
    cards, else one of ``bystanders`` (cards not on the cycle, e.g. of the deck or the pool, in the order they
    are preferred; an opponent's card has the key ``opp:CODE`` and owner ``opp``), which joins the encoding.
    """
    used = [cards[c] for c in candidate.cards if c in cards]
    for code in candidate.cards:
        card = cards.get(code)
        if card is None or card.type != "attachment":
            continue
        restriction = _restriction(abilities.get(code, ()))
        cycle = [(cards[c], abilities[c][i]) for c, i in candidate.abilities if c in cards]
        host = _pick_host(card, restriction, used, cycle, bystanders)
        if host is not None and all(c.code != host.code for c in used):
            used.append(host)  # a bystander joins the encoding once, whatever it hosts
        at = used.index(card)
        used[at] = replace(card, host=host.code if host is not None else None)
    by_key = {c.code: c for c in used}
    abil: list[Ability] = []
    for code, idx in candidate.abilities:
        card = by_key.get(code)
        if card is None:
            return Unsupported(candidate, f"{code}: card facts missing")
        a = abilities[code][idx]
        p = _ability_problem(a, card)
        if p:
            return Unsupported(candidate, f"{card.name} ({code}#{idx}): {p}")
        abil.append(a)
    phases = {p for p in (_phase_of(a) for a in abil) if p is not None}
    if len(phases) > 1:
        return Unsupported(candidate, "abilities restricted to different phases")
    players = ("you", "opp") if any(c.owner == "opp" for c in used) else ("you",)
    unmodelled = tuple(dict.fromkeys(
        f"{c.name}: '{a.text.replace('~', c.name)}'" for c in used for a in abilities.get(c.code, ())
        if a.type is AbilityType.CONSTANT
        and not (a.effects and all(e.kind is EffectKind.ATTACHMENT_RESTRICTION for e in a.effects))))
    return Encoding(candidate, tuple(used), tuple(abil), next(iter(phases), None), players, unmodelled)


# ---------------------------------------------------------------------------
# the model


class _Sym:
    """Sequential symbolic execution inside one action: reads see earlier writes."""

    def __init__(self, cells: Mapping[tuple[str, ...], Term]) -> None:
        self.base = dict(cells)
        self.cur: dict[tuple[str, ...], Term] = dict(cells)
        self.touched: list[tuple[str, ...]] = []
        self.guard: Term | None = None  # every write happens only when this holds (a post-then aspect)

    def __getitem__(self, key: tuple[str, ...]) -> Term:
        return self.cur[key]

    def put(self, key: tuple[str, ...], value: Term | int | bool | str, when: Term | None = None) -> None:
        if self.guard is not None:
            when = self.guard if when is None else And(self.guard, when)
        old = self.cur[key]
        new = value if when is None else If(when, value, old)
        self.cur[key] = new if isinstance(new, Term) else _lift(new, old)
        if key not in self.touched:
            self.touched.append(key)


def _lift(v: int | bool | str, like: Term) -> Term:
    return If(True, v, like) if not isinstance(v, Term) else v  # constant of like's type


@dataclass
class _Ctx:
    """Per-model tables the action builders share."""

    enc: Encoding
    m: Model
    spec: ModelSpec
    cells: dict[tuple[str, ...], Term] = field(default_factory=dict)
    snaps: dict[tuple[str, ...], Term] = field(default_factory=dict)
    card_sort: object = None
    card_names: tuple[str, ...] = ()


def _cid(code: str) -> str:
    return "c" + re.sub(r"\W", "_", code)


def build_model(enc: Encoding, spec: ModelSpec) -> System:
    """Build and ground the model of ``enc`` with the targets ``spec`` asks for."""
    m = Model(f"loop {'+'.join(enc.candidate.cards)}", doc="loop candidate")
    ids = tuple(_cid(c.code) for c in enc.cards)
    Card = m.sort("Card", list(ids), labels=[f"{c.name} ({c.code})" for c in enc.cards])
    Player = m.sort("Player", list(enc.players))
    ZoneSort = m.enum("Zone", list(ZONES))
    Removal = m.enum("Removal", list(REMOVALS))
    n = enc.n
    Abil = m.sort("Abil", [f"a{i}" for i in range(n)], labels=[enc.label(i) for i in range(n)])
    by_id = dict(zip(ids, enc.cards, strict=True))
    gold_need = sum(c.amount or 0 for a in enc.abilities for c in a.costs if c.kind is CostKind.PAY_GOLD)
    gold_need += sum(c.cost or 0 for c in enc.cards if c.type == "event")
    g0 = max(10, 2 * gold_need + 2)

    cells: dict[tuple[str, ...], Term] = {}
    snaps: dict[tuple[str, ...], Term] = {}

    def declare(name: str, t: Any, index: Sort, init: Any, snap_init: Any) -> None:
        arr = m.var(name, t, index=index, init=init)
        sarr = m.var("snap_" + name, t, index=index, init=snap_init)
        for el in index:  # type: ignore[attr-defined]
            cells[(name, el.name)] = arr[el]
            snaps[(name, el.name)] = sarr[el]

    def zone_init(k: Term) -> OneOf:
        c = by_id[k.name]
        if c.type == "agenda":
            return OneOf("play")
        if c.type == "event":
            return OneOf("hand", "discard")
        if c.type == "attachment":
            return OneOf("play", "hand", "discard")
        return OneOf(*ZONES)

    declare("zone", ZoneSort, Card, zone_init, "hand")
    declare("standing", Bool, Card, OneOf(False, True), False)
    declare("power", Int(0, _BIG), Card, Range(0, 2), 0)
    if any(c.kind is CostKind.DISCARD_GOLD for a in enc.abilities for c in a.costs) or \
            any(e.kind is EffectKind.GAIN_GOLD and not e.target.is_player
                for a in enc.abilities for e in a.effects):
        declare("cgold", Int(0, _BIG), Card, Range(0, 3), 0)  # gold on cards (Bestow, "~ gains 1 gold"): only if used
    declare("imm", Removal, Card, "none", "none")
    declare("gold", Int(0, _BIG), Player, Range(0, g0), 0)
    declare("hand", Int(0, _BIG), Player, Range(0, 6), 0)
    declare("deck", Int(0, _BIG), Player, Range(0, 10), 0)
    declare("fpower", Int(0, _BIG), Player, Range(0, 3), 0)
    declare("fstand", Bool, Player, OneOf(False, True), False)
    declare("pending", Bool, Abil, OneOf(False, True), False)
    declare("trig", Card, Abil, OneOf(*ids), ids[0])
    declare("used", Int(0, _BIG), Abil, 0, 0)
    pos = m.var("pos", Int(0, max(n - 1, 0)), init=0)
    passes = m.var("passes", Int(0, spec.max_passes), init=0)
    for c in enc.cards:  # events are never in play; out-of-play cards are kept upright (a normal form)
        m.init_constraint(Or(cells[("zone", _cid(c.code))] == "play", cells[("standing", _cid(c.code))]))
        if c.host is not None:  # an attachment in play is attached to its host, which is in play
            m.init_constraint(Or(cells[("zone", _cid(c.code))] != "play", cells[("zone", _cid(c.host))] == "play"))
    for j, b in enumerate(enc.abilities):  # a pending card event is about a card its trigger names
        if b.trigger is not None and b.trigger.event in _CARD_EVENTS and b.trigger.from_zone is not Zone.HAND:
            fits = [k for k in ids if _static_match(b.trigger.subject, enc.card_of(j), by_id[k])]
            m.init_constraint(Or(Not(cells[("pending", f"a{j}")]), *(cells[("trig", f"a{j}")] == k for k in fits)))

    ctx = _Ctx(enc, m, spec, cells, snaps, Card, ids)
    for i in range(n):
        _action(ctx, i, pos, passes, Card)

    # targets
    for drop in spec.lasso_drop:
        name = "lasso" + "".join(f"-{g}" for g in drop)
        m.reachable(name, And(passes >= 2, _dominates(ctx, set(drop))), cites=["Limits and Maxima"],
                    doc="a second pass ends in a state at least as good as the one the first pass left")
    for k in spec.passes:
        m.reachable(f"passes>={k}", passes >= k, cites=["Limits and Maxima"])
    for p in spec.progress:
        m.reachable(f"pos>={p}", Or(pos >= p, passes >= 1), cites=["Abilities"])
    return m.finish()


def _dominates(ctx: _Ctx, drop: set[str]) -> Term:
    parts: list[Term] = []
    for key, cur in ctx.cells.items():
        name = key[0]
        snap = ctx.snaps[key]
        if name in ("standing", "fstand") and "standing" not in drop:
            parts.append(cur == snap)
        elif name in ("zone", "imm") and "zones" not in drop:
            parts.append(cur == snap)
        elif name == "pending" and "triggers" not in drop:
            parts.append(cur == snap)
        elif name == "trig" and "triggers" not in drop:
            parts.append(Or(Not(ctx.cells[("pending", key[1])]), cur == snap))
        elif name == "gold" and "gold" not in drop or name == "cgold" and "cgold" not in drop:
            parts.append(cur >= snap)
        elif name == "hand" and "hand" not in drop:
            parts.append(cur >= snap)
        elif name == "deck" and "deck" not in drop:
            parts.append(cur >= snap)
        elif name in ("power", "fpower") and "power" not in drop:
            parts.append(cur >= snap)
        elif name == "used" and "limits" not in drop and int(key[1][1:]) in ctx.spec.limits:
            parts.append(cur <= snap)
    return And(*parts)


# ---------------------------------------------------------------------------
# matching


def _controller(card: LoopCard) -> str:
    return card.owner


def _scope_ok(scope: Scope, src: LoopCard, k: LoopCard) -> bool:
    if scope in _YOURS:
        return k.owner == src.owner
    if scope in _THEIRS:
        return k.owner != src.owner
    return True


def _static_match(s: Subject, src: LoopCard, k: LoopCard) -> bool:
    """Filter tests on printed facts (state-dependent qualifiers are left to :func:`_state_match`)."""
    if s.scope is Scope.SELF:
        return k.code == src.code
    if s.scope is Scope.ATTACHED:
        return k.code == src.host
    if not _scope_ok(s.scope, src, k):
        return False
    ct = s.card_type
    if ct is CardKind.FACTION_CARD or ct is CardKind.PLOT:
        return False
    if ct not in (None, CardKind.CARD) and k.type != ct.value:
        return False
    if s.traits and not set(s.traits) & set(k.traits):
        return False
    if s.factions and k.faction not in s.factions:
        return False
    if s.other and k.code == src.code:
        return False
    if s.unique is not None and s.unique != k.unique or s.loyal is not None and s.loyal != k.loyal:
        return False
    if s.limited is not None and s.limited != ("limited" in k.keywords):
        return False
    if any(i.value not in k.icons for i in s.icons):
        return False
    for c in s.compare:
        if c.stat in _STAT_OF and c.value is not None:
            v = k.strength if _STAT_OF[c.stat] == "str" else k.cost
            if v is None or (v > c.value if c.op is Cmp.LE else v < c.value):
                return False
    if k.faction in s.not_factions or {t.lower() for t in s.not_traits} & {t.lower() for t in k.traits}:
        return False
    return True


def _state_match(ctx: _Ctx, sym: _Sym, s: Subject, kid: str) -> Term:
    conds: list[Term] = []
    if s.standing is True:
        conds.append(sym[("standing", kid)])
    if s.standing is False:
        conds.append(Not(sym[("standing", kid)]))
    return And(*conds) if conds else _true()


def _true() -> Term:
    return And()


def _false() -> Term:
    return Or()


def _trigger_matches(trig: Trigger, ev: EventKind, holder: LoopCard, subject: LoopCard | None) -> bool:
    """Does event ``ev`` (about card ``subject``, or a player) answer ``trig`` on ``holder``'s ability?"""
    if _never_in_cycle(trig) or trig.from_zone is Zone.HAND:
        return False  # a discard from hand is emitted by _emit_hand_discard, never by a card leaving play
    ok = trig.event is ev
    if not ok and ev in trig.also_events:
        ok = True
    if not ok:
        return False
    if subject is None:
        return trig.subject.scope in (Scope.ANY, Scope.ANY_PLAYER)
    return _static_match(trig.subject, holder, subject)


# ---------------------------------------------------------------------------
# actions


def _action(ctx: _Ctx, i: int, pos: Term, passes: Term, Card: Sort) -> None:
    enc, m = ctx.enc, ctx.m
    a = enc.abilities[i]
    src = enc.card_of(i)
    sid = _cid(src.code)
    me = src.owner
    n = enc.n
    nxt = (i + 1) % n
    ids = ctx.card_names
    by_id = {_cid(c.code): c for c in enc.cards}

    def body(st: Step) -> None:
        sym = _Sym(ctx.cells)
        pre = _Sym(ctx.cells)  # pre-state view (the effect test ignores the cost)
        st.require(pos == i)
        # where the ability can be used from
        zone = sym[("zone", sid)]
        if src.type == "event":
            st.require(zone == "hand")
        elif any(e.kind is EffectKind.PUT_INTO_PLAY and e.target.ref is TargetRef.SELF for e in a.effects):
            # "put ~ into play from your dead pile": usable only while ~ is in one of the zones the text names
            own = next(e for e in a.effects if e.kind is EffectKind.PUT_INTO_PLAY and e.target.ref is TargetRef.SELF)
            st.require(Or(*(zone == z for z in _zones(own, ctx.spec))))
        elif a.trigger is not None and a.trigger.subject.scope is Scope.SELF and a.type not in _INTERRUPTS and \
                a.trigger.event in (EventKind.KILLED, EventKind.SACRIFICED, EventKind.LEAVES_PLAY,
                                    EventKind.DISCARDED, EventKind.RETURNED_TO_HAND):
            st.require(zone != "play")
        else:
            st.require(zone == "play")
        # triggering condition, forced priority, open interrupts
        pend = [ctx.cells[("pending", f"a{j}")] for j in range(n)]
        forced_pending = [pend[j] for j in range(n) if j != i and enc.abilities[j].type in _FORCED]
        if a.type is not AbilityType.ACTION:
            st.require(pend[i])
        if a.type not in _FORCED and forced_pending:
            st.require(Not(Or(*forced_pending)))
        if a.type not in _INTERRUPTS:
            st.require(And(*(sym[("imm", k)] == "none" for k in ids)))
        # limit / maximum
        if a.limit is not None and i in ctx.spec.limits:
            if a.limit.kind is LimitKind.MAX:
                # a maximum counts every copy of the title, for its player only (Limits and Maxima)
                same = [j for j in range(n) if _limit_kind(enc.abilities[j]) is LimitKind.MAX
                        and enc.card_of(j).name == src.name
                        and (enc.card_of(j).owner == me or ctx.spec.mutant == "max_across_players")]
                st.require(Sum(ctx.cells[("used", f"a{j}")] for j in same) < a.limit.count)
            else:
                st.require(ctx.cells[("used", f"a{i}")] < a.limit.count)
        sym.put(("used", f"a{i}"), sym[("used", f"a{i}")] + 1)
        if a.type is not AbilityType.ACTION:
            sym.put(("pending", f"a{i}"), False)
        else:  # a new action window: earlier reaction/interrupt windows have closed
            for j in range(n):
                if enc.abilities[j].type not in _FORCED and j != i:
                    sym.put(("pending", f"a{j}"), False)
        trig_card = ctx.cells[("trig", f"a{i}")]

        def sel_chosen(tag: str, t: Target, amount: int, eligible: Callable[[str], Term],
                       only_mine: bool) -> dict[str, Term]:
            """Choose ``amount`` (exactly, for costs; 1..amount for effects) matching cards."""
            cands = [k for k in ids
                     if _static_match(t.subject, src, by_id[k]) and (not only_mine or by_id[k].owner == me)]
            if amount == 1:
                ch = st.choose(tag, Card)
                st.require(Or(*(ch == k for k in cands)) if cands else _false())
                for k in cands:
                    st.require(Or(ch != k, eligible(k)))
                return {k: (ch == k) for k in cands}
            arr = st.choose(tag, Bool, Card)
            sel = {k: arr[k] for k in cands}
            for k in ids:
                if k not in sel:
                    st.require(Not(arr[k]))
            for k in cands:
                st.require(Or(Not(arr[k]), eligible(k)))
            count = Sum(If(v, 1, 0) for v in sel.values()) if sel else Sum()
            if only_mine:  # a cost is paid in full
                st.require(count == amount)
            else:  # "up to N": at least one
                st.require(And(count >= 1, count <= amount))
            return sel

        def sel_target(tag: str, t: Target, amount: int, eligible: Callable[[str], Term],
                       cost: bool) -> dict[str, Term]:
            if ctx.spec.mutant == "attached_any" and (t.ref is TargetRef.ATTACHED or t.subject.scope is Scope.ATTACHED):
                t = Target(TargetRef.CHOSEN, Subject(Scope.ANY, CardKind.CHARACTER))  # mutant: any character
            fixed = sid if t.ref is TargetRef.SELF or t.subject.scope is Scope.SELF else \
                _cid(src.host) if src.host is not None and (t.ref is TargetRef.ATTACHED or
                                                            t.subject.scope is Scope.ATTACHED) else None
            if fixed is not None:
                if sym.guard is not None and not cost:  # post-then: that aspect fails to resolve (The word "Then")
                    return {fixed: eligible(fixed)}
                st.require(eligible(fixed))
                return {fixed: _true()}
            if t.ref is TargetRef.TRIGGER:
                return {k: And(trig_card == k, eligible(k)) for k in ids}
            if t.ref is TargetRef.EACH:
                return {k: eligible(k) for k in ids if _static_match(t.subject, src, by_id[k])}
            return sel_chosen(tag, t, amount, eligible, cost)

        def in_play(k: str) -> Term:
            return pre[("zone", k)] == "play"

        # ---- costs (payable in full, paid in sequence)
        removals: list[tuple[str, dict[str, Term]]] = []
        for ci, c in enumerate(a.costs):
            tag = f"cost{ci}"
            amt = c.amount or 0
            if c.kind in (CostKind.KNEEL, CostKind.STAND):
                want = c.kind is CostKind.KNEEL
                if c.target.ref is TargetRef.FACTION_CARD:
                    st.require(sym[("fstand", me)] if want else Not(sym[("fstand", me)]))
                    sym.put(("fstand", me), not want)
                    continue
                def can_turn(k: str, w: bool = want, sj: Subject = c.target.subject) -> Term:
                    return And(in_play(k), pre[("standing", k)] if w else Not(pre[("standing", k)]),
                               _state_match(ctx, pre, sj, k))
                sel = sel_target(tag, c.target, amt, can_turn, True)
                for k, s in sel.items():
                    sym.put(("standing", k), not want, when=s)
                    _emit(ctx, sym, EventKind.KNELT if want else EventKind.STOOD, k, s, i)
            elif c.kind is CostKind.PAY_GOLD:
                st.require(sym[("gold", me)] >= amt)
                sym.put(("gold", me), sym[("gold", me)] - amt)
            elif c.kind is CostKind.DISCARD_GOLD:  # "discard N gold from ~": the gold returns to the treasury
                st.require(sym[("cgold", sid)] >= amt)
                sym.put(("cgold", sid), sym[("cgold", sid)] - amt)
            elif c.kind is CostKind.DISCARD_FROM_HAND:
                st.require(sym[("hand", me)] >= amt)
                sym.put(("hand", me), sym[("hand", me)] - amt)
                _emit_hand_discard(ctx, sym, me, _true())
            elif c.kind is CostKind.DISCARD_POWER:
                if c.target.ref is TargetRef.FACTION_CARD:
                    st.require(sym[("fpower", me)] >= amt)
                    sym.put(("fpower", me), sym[("fpower", me)] - amt)
                else:
                    st.require(And(in_play(sid), sym[("power", sid)] >= amt))
                    sym.put(("power", sid), sym[("power", sid)] - amt)
            else:
                kind = _COST_REMOVAL[c.kind]
                def can_remove(k: str, sj: Subject = c.target.subject) -> Term:
                    return And(in_play(k), _state_match(ctx, pre, sj, k))
                sel = sel_target(tag, c.target, amt, can_remove, True)
                removals.append((kind, sel))
                _remove(ctx, sym, kind, sel, i, defer=False)
        # ---- event cards pay their printed cost and go to the discard pile
        if src.type == "event":
            st.require(sym[("gold", me)] >= (src.cost or 0))
            sym.put(("gold", me), sym[("gold", me)] - (src.cost or 0))
            sym.put(("zone", sid), "discard")
        # ---- effects
        changes: list[Term] = []

        def _effect(e: Effect, tag: str, amt: int) -> None:
            """Apply one effect; record whether it could change the game state in ``changes``."""
            if e.kind in (EffectKind.STAND, EffectKind.KNEEL):
                want = e.kind is EffectKind.STAND
                if e.target.ref is TargetRef.FACTION_CARD:
                    changes.append(Not(pre[("fstand", me)]) if want else pre[("fstand", me)])
                    sym.put(("fstand", me), want)
                    return
                def elig(k: str, w: bool = want, t: Target = e.target) -> Term:
                    return And(in_play(k), Not(pre[("standing", k)]) if w else pre[("standing", k)],
                               _state_match(ctx, pre, t.subject, k))
                sel = _effect_sel(sel_target, tag, e, amt, elig, changes, ids)
                for k, s in sel.items():
                    s2 = And(s, sym[("zone", k)] == "play", Not(sym[("standing", k)]) if want else sym[("standing", k)])
                    sym.put(("standing", k), want, when=s2)
                    _emit(ctx, sym, EventKind.STOOD if want else EventKind.KNELT, k, s2, i)
            elif e.kind is EffectKind.GAIN_GOLD and not e.target.is_player:
                # gold placed on a card in play; it is not "you gain gold"
                sel = _effect_sel(sel_target, tag, e, 1, lambda k: in_play(k), changes, ids)
                for k, s in sel.items():
                    sym.put(("cgold", k), sym[("cgold", k)] + amt, when=And(s, sym[("zone", k)] == "play"))
            elif e.kind is EffectKind.GAIN_GOLD:
                changes.append(_true())
                sym.put(("gold", me), sym[("gold", me)] + amt)
                _emit_player(ctx, sym, EventKind.GAIN_GOLD, me, i)
            elif e.kind is EffectKind.DRAW:
                changes.append(pre[("deck", me)] >= 1)
                got = If(sym[("deck", me)] >= amt, amt, sym[("deck", me)])
                sym.put(("hand", me), sym[("hand", me)] + got)
                sym.put(("deck", me), sym[("deck", me)] - got)
                _emit_player(ctx, sym, EventKind.DRAW, me, i)
            elif e.kind is EffectKind.GAIN_POWER:
                if e.target.ref is TargetRef.FACTION_CARD:
                    changes.append(_true())
                    sym.put(("fpower", me), sym[("fpower", me)] + amt)
                    return
                sel = _effect_sel(sel_target, tag, e, 1, lambda k: in_play(k), changes, ids)
                for k, s in sel.items():
                    s2 = And(s, sym[("zone", k)] == "play")
                    sym.put(("power", k), sym[("power", k)] + amt, when=s2)
                    _emit(ctx, sym, EventKind.GAIN_POWER, k, s2, i)
            elif e.kind is EffectKind.PUT_INTO_PLAY:
                # only from the zones the text names (Put into Play): from the dead pile never takes a card in hand
                zs = _zones(e, ctx.spec)
                def can_enter(k: str, zs: Sequence[str] = zs) -> Term:
                    return And(Or(*(pre[("zone", k)] == z for z in zs)),
                               by_id[k].owner == me and by_id[k].type not in ("event", "attachment"))
                sel = _effect_sel(sel_target, tag, e, amt, can_enter, changes, ids)
                for k, s in sel.items():
                    s2 = And(s, Or(*(sym[("zone", k)] == z for z in zs)))
                    sym.put(("zone", k), "play", when=s2)
                    sym.put(("standing", k), True, when=s2)
                    for j in range(n):  # a new copy of a "Limit" ability enters play
                        if enc.card_of(j).code == by_id[k].code and \
                                _limit_kind(enc.abilities[j]) in (None, LimitKind.LIMIT):
                            sym.put(("used", f"a{j}"), 0, when=s2)
                    _emit(ctx, sym, EventKind.ENTERS_PLAY, k, s2, i)
            elif e.kind is EffectKind.DISCARD_FROM_HAND:
                # "each opponent discards 1 card from his or her hand": as many as the hand holds
                for p in enc.players:
                    if not _scope_ok(e.target.subject.scope, src, LoopCard("", "", "", "", owner=p)):
                        return
                    changes.append(pre[("hand", p)] >= 1)
                    before = sym[("hand", p)]
                    sym.put(("hand", p), before - If(before >= amt, amt, before))
                    _emit_hand_discard(ctx, sym, p, before >= 1)
            elif e.kind in _EFFECT_REMOVAL:
                kind = _EFFECT_REMOVAL[e.kind]
                def can_leave(k: str, t: Target = e.target, kind: str = kind) -> Term:
                    return And(in_play(k), _state_match(ctx, pre, t.subject, k),
                               by_id[k].owner == me if kind == "sacrifice" else _true())
                sel = _effect_sel(sel_target, tag, e, amt, can_leave, changes, ids)
                sel = {k: And(s, sym[("zone", k)] == "play", sym[("imm", k)] == "none") for k, s in sel.items()}
                _remove(ctx, sym, kind, sel, i, defer=True)
            elif e.kind is EffectKind.SAVE:
                for k in ids:
                    s = And(trig_card == k, pre[("imm", k)] != "none", pre[("imm", k)] != "sacrifice")
                    changes.append(s)
                    sym.put(("imm", k), "none", when=s)

        # The word "Then": effects after a "then" resolve only if every effect before it resolved in full;
        # an effect "resolves in full" here when it changes the game state (a draw: every card is drawn)
        full: list[Term] = []
        for ei, e in enumerate(a.effects):
            tag = f"target{ei}"
            amt = e.amount if e.amount is not None else 1
            if e.then and ctx.spec.mutant != "then_ignored":
                sym.guard = And(*full) if full else _true()
            first_change = len(changes)
            whole_draw = sym[("deck", me)] >= amt
            _effect(e, tag, amt)
            mine = changes[first_change:]
            if sym.guard is not None:
                changes[first_change:] = [And(sym.guard, c) for c in mine]
            full.append(whole_draw if e.kind is EffectKind.DRAW else (Or(*mine) if mine else _true()))
        sym.guard = None
        st.require(Or(*changes) if changes else _false())
        # ---- an interrupt's step ends with the removal it interrupted, unless saved
        if a.type in _INTERRUPTS:
            for k in ids:
                for kind in REMOVALS[1:]:
                    s = sym[("imm", k)] == kind
                    _finish_removal(ctx, sym, kind, k, s, i)
                sym.put(("imm", k), "none")
        # ---- pass observer
        st.set(pos, nxt)
        if i == n - 1:
            st.set(passes, passes + 1)
        for key in sym.touched:
            st.set(ctx.cells[key], sym[key])
        if i == n - 1:
            first = passes == 0
            for key in ctx.cells:
                st.set(ctx.snaps[key], sym[key], when=first)

    body.__name__ = f"ability{i}"
    m.action(name=f"ability{i}", describe=f"{enc.label(i)}: {a.type.value}",
             cites=_cites(a))(body)


def _zones(e: Effect, spec: ModelSpec) -> tuple[str, ...]:
    if spec.mutant == "put_into_play_any_zone":
        return ("hand", "discard", "dead")
    return source_zones(e)  # non-empty: encode() refuses effects with a _zone_problem


def _limit_kind(a: Ability) -> LimitKind | None:
    return a.limit.kind if a.limit is not None else None


def _effect_sel(sel_target: Callable[..., dict[str, Term]], tag: str, e: Effect, amt: int,
                elig: Callable[[str], Term], changes: list[Term], ids: Sequence[str]) -> dict[str, Term]:
    """Targets of an effect; records whether the effect could change the game state."""
    if e.target.ref is TargetRef.EACH:
        sel = sel_target(tag, e.target, amt, elig, False)
        changes.append(Or(*sel.values()) if sel else _false())
        return sel
    if e.target.ref is TargetRef.TRIGGER:
        sel = sel_target(tag, e.target, amt, elig, False)
        changes.append(Or(*sel.values()))
        return sel
    sel = sel_target(tag, e.target, amt, elig, False)
    changes.append(_true())
    return sel


def _cites(a: Ability) -> list[str]:
    out = ["Abilities", "Costs", "Triggering Condition"]
    if a.limit is not None:
        out.append("Limits and Maxima")
    if any(e.kind is EffectKind.SAVE for e in a.effects):
        out.append("Save")
    return out


def _emit(ctx: _Ctx, sym: _Sym, ev: EventKind, kid: str, cond: Term, src_i: int) -> None:
    """A triggering condition about card ``kid`` occurred (when ``cond``): mark the reactions that answer it."""
    enc = ctx.enc
    card = next(c for c in enc.cards if _cid(c.code) == kid)
    for j, b in enumerate(enc.abilities):
        if b.trigger is None or b.type in _INTERRUPTS:
            continue
        if _trigger_matches(b.trigger, ev, enc.card_of(j), card):
            sym.put(("pending", f"a{j}"), True, when=cond)
            sym.put(("trig", f"a{j}"), kid, when=cond)


def _emit_player(ctx: _Ctx, sym: _Sym, ev: EventKind, player: str, src_i: int) -> None:
    enc = ctx.enc
    for j, b in enumerate(enc.abilities):
        if b.trigger is None or b.type in _INTERRUPTS:
            continue
        holder = enc.card_of(j)
        if b.trigger.event is ev and _scope_ok(b.trigger.subject.scope, holder,
                                                LoopCard("", "", "", "", owner=player)):
            sym.put(("pending", f"a{j}"), True)


def _emit_hand_discard(ctx: _Ctx, sym: _Sym, player: str, cond: Term) -> None:
    """Cards were discarded from ``player``'s hand (when ``cond``): mark "after a card is discarded from your
    hand" reactions of that player (the hand's owner, whoever's effect discarded them)."""
    enc = ctx.enc
    for j, b in enumerate(enc.abilities):
        if b.trigger is None or b.type in _INTERRUPTS or b.trigger.from_zone is not Zone.HAND:
            continue
        if b.trigger.event is EventKind.DISCARDED and enc.card_of(j).owner == player:
            sym.put(("pending", f"a{j}"), True, when=cond)


def _interrupt_answers(ctx: _Ctx, j: int, kind: str, kid: str) -> bool:
    enc = ctx.enc
    b = enc.abilities[j]
    if b.type not in _INTERRUPTS or b.trigger is None:
        return False
    card = next(c for c in enc.cards if _cid(c.code) == kid)
    would, after, _dest = _REMOVAL_EVENTS[kind]
    evs = set(would) | ({EventKind.LEAVES_PLAY} if EventKind.LEAVES_PLAY in after else set())
    return any(_trigger_matches(b.trigger, ev, enc.card_of(j), card) for ev in evs)


def _remove(ctx: _Ctx, sym: _Sym, kind: str, sel: Mapping[str, Term], i: int, defer: bool) -> None:
    """Remove the selected cards from play; the next ability, if an interrupt that answers it, goes first."""
    nxt = (i + 1) % ctx.enc.n
    for k, s in sel.items():
        if _interrupt_answers(ctx, nxt, kind, k) and nxt != i:
            sym.put(("imm", k), kind, when=s)
            sym.put(("pending", f"a{nxt}"), True, when=s)
            sym.put(("trig", f"a{nxt}"), k, when=s)
        else:
            _finish_removal(ctx, sym, kind, k, s, i)


def _finish_removal(ctx: _Ctx, sym: _Sym, kind: str, kid: str, cond: Term, i: int) -> None:
    """The card leaves play: to its destination, upright, without power; then the "after" events."""
    _would, after, dest = _REMOVAL_EVENTS[kind]
    attached = [c for c in ctx.enc.cards if c.host is not None and _cid(c.host) == kid]
    was = {_cid(c.code): sym[("zone", _cid(c.code))] == "play" for c in attached}
    sym.put(("zone", kid), dest, when=cond)
    sym.put(("standing", kid), True, when=cond)
    sym.put(("power", kid), 0, when=cond)
    if ("cgold", kid) in sym.cur:  # gold on a card leaving play returns to the treasury
        sym.put(("cgold", kid), 0, when=cond)
    for ev in after:
        _emit(ctx, sym, ev, kid, cond, i)
    for c in attached:  # Attachment Cards: returned to its owner's hand with the card (Terminal: discarded)
        aid = _cid(c.code)
        _finish_removal(ctx, sym, "discard" if "terminal" in c.keywords else "ret", aid, And(cond, was[aid]), i)


def _describe(s: Subject) -> str:
    bits = [describe_subject(s)]
    if s.scope is not Scope.ANY:
        bits.append(f"({s.scope.value.replace('_', ' ')})")
    return " ".join(bits)


def missing_targets(enc: Encoding, i: int) -> str:
    """Why ability ``i`` cannot fire, when no card of the candidate fits a target it must choose ("" if all fit)."""
    a = enc.abilities[i]
    src = enc.card_of(i)
    needs: list[tuple[str, Target]] = [(f"cost {c.kind.value}", c.target) for c in a.costs]
    needs += [(f"effect {e.kind.value}", e.target) for e in a.effects]
    for what, t in needs:
        if t.ref is not TargetRef.CHOSEN:
            continue
        if not any(_static_match(t.subject, src, k) for k in enc.cards):
            return (f"no card of the candidate is the {_describe(t.subject)} its {what} needs "
                    "(only the candidate's cards are modelled)")
    return ""
