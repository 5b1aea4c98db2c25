"""Card semantics: what each cost and effect does to the game state, and what re-enables what.

This module is the one home of the *meaning* of the typed ability tree
(:mod:`ruleproof.cards.abilities`).  The ability graph
(:mod:`ruleproof.cards.graph`) and the loop encoder (:mod:`ruleproof.loops.encode`)
both read it, so "what we accept", "what links to what" and "how we encode
it" cannot drift apart:

* :data:`RULES` is the table: one :class:`Entry` per cost kind and per effect
  kind the loop model supports, saying which target references it is modelled
  for, what it **needs** of its target (a resource that must be there: a
  standing card to kneel, gold to pay, a card in the discard pile to put into
  play...), what it **makes** (the resources it leaves: a kneeling card, gold,
  a card in the dead pile...), the triggering conditions it raises, and, for
  a card changing zones, the :class:`Move` (from where, to where, the "would"
  and "after" events, whether it can be saved).  The loop encoder has one
  small encoder per entry, keyed the same way (a test asserts the keys match).
  The framework rules the encoder follows (limits and maxima, "attached",
  "then", owners' piles) are entries of the same table.
* An edge ``A -> B`` of the ability graph "enables" when something ``A``
  makes is something ``B`` needs (:func:`makes`, :func:`needs`); it
  "triggers" when an event ``A`` raises is one ``B``'s triggering condition
  answers (:func:`raises`, :func:`answers`).
* A deliberately wrong reading of a rule (a *mutant*, :data:`MUTANTS`) is
  :data:`RULES` with one entry swapped (:meth:`Rules.swap`); nothing tests for
  a mutant's name inside the rules.

Card filters: :func:`fits` tests the printed facts of a card against a
:class:`~ruleproof.cards.abilities.Subject` (the same function for the graph
and the encoder); :data:`SUBJECT_READ` lists the filter fields the loop model
reads, and :func:`unread_filter` names the others.

Examples
--------
>>> from ruleproof.cards.abilities import CostKind, EffectKind
>>> RULES.costs[CostKind.KNEEL].needs, RULES.effects[EffectKind.STAND].makes
((<Res.STANDING: 'standing'>,), (<Res.STANDING: 'standing'>,))
>>> RULES.effects[EffectKind.SACRIFICE].move.dest, RULES.effects[EffectKind.SACRIFICE].move.saveable
(<Place.DISCARD: 'discard'>, False)
>>> mutant("sacrifice_is_kill").effects[EffectKind.SACRIFICE].move.dest
<Place.DEAD: 'dead'>
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any, Callable, Mapping

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    ChallengeRole,
    Cmp,
    Compare,
    Cost,
    CostKind,
    Duration,
    Effect,
    EffectKind,
    EventKind,
    Keyword,
    LimitKind,
    Phase,
    Scope,
    Stat,
    Subject,
    TargetRef,
    Trigger,
    Zone,
    set_fields,
)

__all__ = [
    "BANNABLE",
    "BOTH",
    "LOOP_WINDOW",
    "AltRule",
    "AmountRule",
    "CONTROL_RES",
    "MUTANTS",
    "OPPONENT",
    "PLAYER_RES",
    "PLOT_PLACES",
    "RELATION_STATS",
    "ROLES_READ",
    "RULES",
    "SUBJECT_READ",
    "THEIRS",
    "YOU",
    "YOURS",
    "CannotRule",
    "ChooserRule",
    "ConditionRule",
    "CopyRule",
    "CardFacts",
    "InitiatorRule",
    "InsteadRule",
    "DupRule",
    "HandRule",
    "OWNER_SCOPES",
    "OwnerRule",
    "Entry",
    "EventRule",
    "INITIATION_EVENTS",
    "LimitRule",
    "Move",
    "OngoingRule",
    "PileRule",
    "PlotRule",
    "PronounRule",
    "Place",
    "RefRule",
    "Res",
    "Rules",
    "SearchRule",
    "ThenRule",
    "UniqueRule",
    "answers",
    "dest_place",
    "effect_key",
    "entry_of",
    "event_plays",
    "fits",
    "initiated",
    "initiation_raises",
    "is_forced",
    "makes",
    "move_of",
    "mutant",
    "needs",
    "parts_of",
    "phase_of",
    "trigger_of",
    "place_of",
    "raises",
    "relation_holds",
    "same_title",
    "sides",
    "src_places",
    "unread_filter",
]

#: The two players, relative to the one searching (graph keys ``CODE`` / ``opp:CODE``).
YOU = "you"
OPPONENT = "opponent"
BOTH = frozenset({YOU, OPPONENT})
#: Scopes that name the ability's controller's side / the other side.
YOURS = frozenset({Scope.SELF, Scope.YOU_CONTROL, Scope.YOU_OWN, Scope.YOU})
THEIRS = frozenset({Scope.OPPONENT_CONTROLS, Scope.OPPONENT_OWNS, Scope.OPPONENT})

_INITIATED = frozenset({AbilityType.ACTION, AbilityType.REACTION, AbilityType.INTERRUPT, AbilityType.FORCED_REACTION,
                        AbilityType.FORCED_INTERRUPT, AbilityType.WHEN_REVEALED})
_FORCED = frozenset({AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT, AbilityType.WHEN_REVEALED})


def initiated(a: Ability) -> bool:
    """A triggered ability (action, reaction, interrupt, forced, when revealed): a node of the ability graph."""
    return a.type in _INITIATED


def is_forced(a: Ability) -> bool:
    """Its initiation is mandatory (Abilities: forced interrupts/reactions and when revealed abilities)."""
    return a.type in _FORCED


def other_side(side: str) -> str:
    """The other player."""
    return OPPONENT if side == YOU else YOU


def sides(scope: Scope, controller: str) -> frozenset[str]:
    """The players a scope printed on an ability of ``controller`` can name (FAQ 2.7: "you" is its controller)."""
    if scope in YOURS:
        return frozenset({controller})
    if scope in THEIRS:
        return frozenset({other_side(controller)})
    return BOTH


# ---------------------------------------------------------------------------
# card facts


@dataclass(frozen=True)
class CardFacts:
    """What the graph and the loop model know of a card: its printed facts, its owner and (attachments) its host.

    ``code`` is the card's key in a search (``CODE`` for your copy, ``opp:CODE``
    for the opponent's); ``owner`` is ``you`` or ``opp`` (the loop model's
    player names); ``host`` the key of the card an attachment is attached to.
    """

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
    host: str | None = None

    @property
    def kind(self) -> CardKind:
        """The card type as a :class:`CardKind` (``card`` for a type the enum does not name)."""
        try:
            return CardKind(self.type)
        except ValueError:
            return CardKind.CARD

    @property
    def shadow(self) -> int | None:
        """The shadow cost ("Shadow (2)": 2), ``None`` without the keyword (or with an X)."""
        for k in self.keywords:
            if k.startswith("shadow (") and k.endswith(")") and k[8:-1].isdigit():
                return int(k[8:-1])
        return None

    def has_keyword(self, kw: Keyword) -> bool:
        """The card's printed keywords include ``kw`` (its value, e.g. ``bestow (2)``, aside)."""
        word = kw.value.replace("_", " ")
        return any(k == word or k.startswith(word + " ") for k in self.keywords)


def _types_ok(want: Subject, k: CardKind) -> bool:
    kinds = tuple(x for x in ((want.card_type,) if want.card_type else ()) + want.other_types)
    if k in want.not_types:
        return False
    if not kinds or CardKind.CARD in kinds:
        return k is not CardKind.FACTION_CARD if kinds else True
    return k in kinds


_STAT_VALUE: dict[Stat, Callable[[CardFacts], int | None]] = {
    Stat.COST: lambda k: k.cost,
    Stat.PRINTED_COST: lambda k: k.cost,
    Stat.STR: lambda k: k.strength,  # modifiers are constant abilities, not modelled (named in loop results)
    Stat.PRINTED_STR: lambda k: k.strength,
}
_CMP: dict[Cmp, Callable[[int, int], bool]] = {
    Cmp.LE: lambda a, b: a <= b, Cmp.GE: lambda a, b: a >= b, Cmp.LT: lambda a, b: a < b,
    Cmp.GT: lambda a, b: a > b, Cmp.EQ: lambda a, b: a == b,
}

#: The filter fields :func:`fits` reads from printed facts, plus the state fields the loop model reads
#: (``standing``, ``zone``; ``scope`` and ``other`` are about who and which card, read by the callers).
SUBJECT_READ = frozenset({"scope", "card_type", "other_types", "traits", "factions", "not_traits", "not_factions",
                          "not_types", "other", "standing", "unique", "loyal", "limited", "icons", "lacks_icons",
                          "keywords", "lacks_keywords", "compare", "zone", "title"})


#: Printed stats a filter may compare with another card's ("with lower printed cost than that character").
RELATION_STATS = frozenset({Stat.PRINTED_COST, Stat.COST, Stat.PRINTED_STR})


def same_title(k: CardFacts, ref: CardFacts, rules: Rules | None = None) -> bool:
    """Do cards ``k`` and ``ref`` share a title, as the table's copy rule reads it (Copy: by title, whatever the
    printing; misread, the same printing, by card code)?

    >>> a, b = CardFacts("11082", "Skagos", "location", "stark"), CardFacts("17125", "Skagos", "location", "stark")
    >>> same_title(a, b), same_title(a, b, mutant("same_title_by_printing"))
    (True, False)
    """
    if (rules or RULES).copies.by_title:
        return k.name.casefold() == ref.name.casefold()
    return _printing(k.code) == _printing(ref.code)


def _printing(key: str) -> str:
    """The card code of a card key (``opp:CODE``, ``CODE/2``: ``CODE``)."""
    return key.split("/", 1)[0].removeprefix("opp:")


def relation_holds(c: Compare, k: CardFacts, ref: CardFacts) -> bool:
    """Does card ``k`` compare with card ``ref`` as ``c`` says, on their printed stats (a card without the stat, or
    with "-", never does)?"""
    get = _STAT_VALUE.get(c.stat)
    if get is None or c.stat not in RELATION_STATS:
        return False
    a, b = get(k), get(ref)
    return a is not None and b is not None and _CMP[c.op](a, b)


def unread_filter(s: Subject) -> tuple[str, ...]:
    """The filter fields of ``s`` the loop model does not read (a challenge role, attachments, a stat it does not
    know, a comparison with another card or with X)."""
    out = sorted(set_fields(s) - SUBJECT_READ)
    for c in s.compare:
        if c.stat not in _STAT_VALUE or c.value is None or c.than is not None:
            out.append(f"compare {c.stat.value}")
    return tuple(out)


def fits(s: Subject, k: CardFacts) -> bool:
    """Does card ``k``'s printed face satisfy filter ``s`` (type, traits, factions, unique, loyal, limited, icons,
    keywords, printed cost and STR comparisons)?

    Scope (who controls or owns it), ``other`` (not the ability's own card), the
    state (``standing``, ``zone``) and the fields of :func:`unread_filter` are
    the callers' business.  Traits compare without case.

    >>> knight = CardFacts("1", "Ser X", "character", "stark", ("Knight",), cost=3)
    >>> fits(Subject(card_type=CardKind.CHARACTER, traits=("Knight",)), knight)
    True
    >>> fits(Subject(card_type=CardKind.LOCATION), knight)
    False
    """
    if not _types_ok(s, k.kind):
        return False
    if s.title is not None and s.title.lower() != k.name.lower():  # "stand Old Bear Mormont" (Card Titles)
        return False
    mine = {t.lower() for t in k.traits}
    if s.traits and not {t.lower() for t in s.traits} & mine:
        return False
    if {t.lower() for t in s.not_traits} & mine:
        return False
    if s.factions and k.faction not in s.factions or k.faction in s.not_factions:
        return False
    if s.unique is not None and s.unique != k.unique or s.loyal is not None and s.loyal != k.loyal:
        return False
    if s.limited is not None and s.limited != k.has_keyword(Keyword.LIMITED):
        return False
    if any(i.value not in k.icons for i in s.icons) or any(i.value in k.icons for i in s.lacks_icons):
        return False
    if s.keywords and not any(k.has_keyword(w) for w in s.keywords):
        return False
    if any(k.has_keyword(w) for w in s.lacks_keywords):
        return False
    for c in s.compare:
        get = _STAT_VALUE.get(c.stat)
        if get is None or c.value is None or c.than is not None:
            continue  # not read (unread_filter names it)
        v = get(k)
        if v is None or not _CMP[c.op](v, c.value):
            return False
    return True


# ---------------------------------------------------------------------------
# places and resources


class Place(Enum):
    """Where a card is, in the loop model (Rules Reference: In Play and Out of Play; Shadows)."""

    PLAY = "play"
    HAND = "hand"
    DISCARD = "discard"
    DEAD = "dead"
    DECK = "deck"
    SHADOWS = "shadows"
    REMOVED = "removed"
    PLOT_DECK = "plot_deck"
    REVEALED = "revealed"
    USED = "used"


#: The places of a plot card (Plot Card: in the plot deck, revealed, or in the used pile).
PLOT_PLACES = (Place.PLOT_DECK, Place.REVEALED, Place.USED)
_PLACE_OF_ZONE = {Zone.PLAY: Place.PLAY, Zone.HAND: Place.HAND, Zone.DISCARD_PILE: Place.DISCARD,
                  Zone.DEAD_PILE: Place.DEAD, Zone.DRAW_DECK: Place.DECK, Zone.TOP_OF_DECK: Place.DECK,
                  Zone.BOTTOM_OF_DECK: Place.DECK, Zone.SHADOWS: Place.SHADOWS, Zone.OUT_OF_GAME: Place.REMOVED,
                  Zone.PLOT_DECK: Place.PLOT_DECK, Zone.USED_PILE: Place.USED}


def place_of(z: Zone) -> Place | None:
    """The model place of a printed zone (``None``: a plot zone, not a place of the draw deck's cards)."""
    return _PLACE_OF_ZONE.get(z)


class Res(Enum):
    """A resource: a part of the game state that a cost or an effect needs, and another one makes.

    Card resources belong to the target card; ``gold``, ``hand``, ``deck`` to
    a player (the one the target names).
    """

    STANDING = "standing"
    KNEELING = "kneeling"
    IN_PLAY = "in play"
    IN_HAND = "in hand"
    IN_DISCARD = "in the discard pile"
    IN_DEAD = "in the dead pile"
    IN_DECK = "in the draw deck"
    IN_SHADOWS = "in shadows"
    POWER = "power"
    CARD_GOLD = "gold on a card"
    YOURS = "controlled by you"
    THEIRS = "controlled by an opponent"
    IN_PLOT_DECK = "in the plot deck"
    IN_USED = "in the used pile"
    REVEALED = "revealed"
    GOLD = "gold"
    HAND = "cards in hand"
    DECK = "cards in the draw deck"
    PLOTS = "plot cards in the plot deck"


#: Resources that belong to a player rather than to a card.
PLAYER_RES = frozenset({Res.GOLD, Res.HAND, Res.DECK, Res.PLOTS})
#: Who controls a card, read from the side of the player whose ability it is (the ability's "you").
CONTROL_RES = (Res.YOURS, Res.THEIRS)
_IN: dict[Place, Res] = {Place.PLAY: Res.IN_PLAY, Place.HAND: Res.IN_HAND, Place.DISCARD: Res.IN_DISCARD,
                         Place.DEAD: Res.IN_DEAD, Place.DECK: Res.IN_DECK, Place.SHADOWS: Res.IN_SHADOWS,
                         Place.PLOT_DECK: Res.IN_PLOT_DECK, Place.USED: Res.IN_USED, Place.REVEALED: Res.REVEALED}


def res_in(p: Place) -> Res | None:
    """The resource "a card in place ``p``" (``None`` for a card removed from the game: nothing takes it back)."""
    return _IN.get(p)


# ---------------------------------------------------------------------------
# the table


@dataclass(frozen=True)
class Move:
    """A card changes place.

    ``name`` names the move (a pending removal in the loop model is one of
    these names); ``src``: where it must be (``None``: the places the text names,
    ``Effect.from_zones`` / the target's ``zone``; a card a removal takes out
    of an out-of-play place, "return a card from your discard pile to your
    hand", comes from there); ``dest``: where it goes (``None``: the place
    the text names, ``Effect.to_zone``; always its *owner's* pile: Ownership
    and Control); ``would`` / ``after``: the
    triggering conditions before and after it happens (interrupts answer the
    first, reactions the second); ``saveable``: an interrupt may save the card
    (Save; a sacrifice cannot be saved, nor a card that leaves play to pay a
    cost, FAQ 3.2, which the encoder applies); ``new_copy``: entering play
    brings a new copy of its abilities (Limits and Maxima); ``from_text``: a
    move whose ``src`` is ``None`` takes its card only from the places the text
    names (Put into Play), not from any out-of-play place.
    """

    name: str
    src: Place | None
    dest: Place | None
    would: tuple[EventKind, ...] = ()
    after: tuple[EventKind, ...] = ()
    saveable: bool = False
    new_copy: bool = False
    from_text: bool = True


@dataclass(frozen=True)
class Entry:
    """The meaning of one cost or effect kind.

    ``does``: one line in words; ``cites``: the Rules Reference sections;
    ``refs``: the target references the loop model encodes it for; ``needs``
    / ``makes``: resources of its target it needs (a cost: to be paid; an
    effect: to change the game state) and leaves; ``events``: triggering
    conditions it raises about its target besides a move's; ``move``: for a
    card changing place; ``untracked``: what it changes that the loop model
    does not track (a STR or claim modifier, an icon, a challenge's
    participants...): the model takes it as changing the game state and
    leaves the value out ("" for the tracked kinds).  ``instant``: the
    effect happens at once and cannot last (a stand, a kill, a draw): a
    duration the reader finds in its sentence qualifies another part of it
    ("save it, stand it, and set its STR to 1 until the end of the phase":
    only the STR lasts; Lasting Effects).  ``anywhere``: its card may be out
    of play, where the text names ("choose a location in a discard pile").
    """

    does: str
    cites: tuple[str, ...]
    refs: frozenset[TargetRef]
    needs: tuple[Res, ...] = ()
    makes: tuple[Res, ...] = ()
    events: tuple[EventKind, ...] = ()
    move: Move | None = None
    untracked: str = ""
    instant: bool = False
    anywhere: bool = False


@dataclass(frozen=True)
class LimitRule:
    """How a printed limit counts (Limits and Maxima).

    ``per_title``: uses of every copy by title count together (a maximum) or
    only this copy's (a limit); ``per_player``: each player counts their own;
    ``renews``: a card that leaves play and re-enters brings a new copy whose
    uses start at zero.
    """

    per_title: bool
    per_player: bool
    renews: bool


@dataclass(frozen=True)
class RefRule:
    """What a target reference picks: for ``attached``, the ``host`` (the card an attachment is attached to) or
    ``any character``; for ``chosen``, ``any`` card that fits (on the cycle or not: Target) or only a card
    ``on the cycle``; for ``trigger`` ("kneel that card to save it"), the card of the ``trigger``ing condition
    or (misread) ``any`` card that fits."""

    picks: str


@dataclass(frozen=True)
class ThenRule:
    """The word "Then": post-then effects resolve only if the pre-then aspect resolved in full (``gate``)."""

    gate: bool


@dataclass(frozen=True)
class DupRule:
    """Duplicates (Duplicates; Save): a duplicate may be discarded to save the unique card it is under from
    leaving play (``saves``), and the duplicate is then gone (``spent``)."""

    saves: bool
    spent: bool


@dataclass(frozen=True)
class CannotRule:
    """A constant "cannot be X" (Cannot; FAQ 2.1): the card cannot be chosen for X, and X does not happen to it
    (``applies``)."""

    applies: bool


@dataclass(frozen=True)
class PlotRule:
    """The plot deck (Plot Card): once its last card is revealed, the used pile returns to it only after every
    when revealed ability has resolved (``recycles_mid_chain`` false): within a chain of when revealed
    abilities the plot deck is a finite resource."""

    recycles_mid_chain: bool


@dataclass(frozen=True)
class InitiatorRule:
    """Who initiates an ability that says "Any player may initiate this ability": any player (``any_player``;
    FAQ 2.7: "you" is then that player, who pays its costs), or only its controller; and who initiates a card's
    other abilities: its ``controller`` (Ownership and Control: a card you control but do not own is yours to use)
    or, misread, its ``owner`` (``by``)."""

    any_player: bool
    by: str = "controller"


@dataclass(frozen=True)
class AltRule:
    """Alternative targets ("another [thenightswatch] or «Lord» character"): a card that fits any alternative can
    be chosen (``either``), or, misread, only one fitting the first."""

    either: bool


@dataclass(frozen=True)
class UniqueRule:
    """Unique cards and control (Unique Cards; FAQ 1.3): a player cannot take control of a unique card while a copy
    of it (by title) is in play on their side, so a player never controls two copies of one unique card
    (``one_per_player``)."""

    one_per_player: bool


@dataclass(frozen=True)
class PileRule:
    """Where a card that leaves play (or enters an out-of-play area) goes: its ``owner``'s piles or its
    ``controller``'s (Ownership and Control)."""

    to: str


@dataclass(frozen=True)
class PronounRule:
    """Target: "choose a character. Stand that character and take control of it": every effect naming the chosen
    card acts on the one card chosen (``shared``), not on a card chosen anew."""

    shared: bool = True


@dataclass(frozen=True)
class InsteadRule:
    """Replacement Effects: an effect that resolves "instead" of the one before it replaces it (``replaces``): only
    one of the two resolves."""

    replaces: bool = True


@dataclass(frozen=True)
class ChooserRule:
    """"Each player sacrifices a character": each player the text names chooses among their own cards (``each``), not
    the player who initiated the ability for everyone (Sacrifice; Target)."""

    each: bool = True


@dataclass(frozen=True)
class EventRule:
    """Playing an event (Shadows; Replacement Effects): from its owner's hand for its printed cost, or from shadows
    for its shadow cost; one whose printed cost is "-" cannot be played from hand (``dash_from_hand`` false).  Once
    resolved it goes to its owner's discard pile, unless its own text replaces that ("return ~ to your hand instead
    of placing it in your discard pile": ``replaced``, the card goes there instead)."""

    dash_from_hand: bool = False
    replaced: bool = True


@dataclass(frozen=True)
class ConditionRule:
    """An effect's condition the loop model cannot evaluate ("if you win this challenge, stand that character"; "if
    you have more power than that player, draw 1 card"): the effect may resolve or not (``open``: the player of the
    model picks, a superset of what the card does, so a "not a loop" stands and a loop found is named as a widening),
    or, misread, it always resolves."""

    open: bool = True


@dataclass(frozen=True)
class SearchRule:
    """Search: the player searching a deck may look at every card of it, and finds any card that fits or none (not
    obliged to find one even when one fits: ``may_fail``).  The cards of the deck the model does not hold (its count
    of the deck's other cards) can be found too (``whole_deck``), not only the model's own."""

    whole_deck: bool = True
    may_fail: bool = True


@dataclass(frozen=True)
class CopyRule:
    """Copy (of a card): a copy is defined by title, whatever its printing, cardtype or text; "a card with the same
    title as the sacrificed card" is any card that shares its title (``by_title``), not only the same printing."""

    by_title: bool = True


@dataclass(frozen=True)
class OngoingRule:
    """A lasting effect that kills a card if its STR is 0 ("until the end of the phase, that character gets -4 STR and
    is killed if its STR is 0"; Lasting Effects, Save): it kills the card whenever its STR is 0 while it lasts, and a
    save that does not remedy that condition cannot be initiated, nor a duplicate's (``saveable`` false)."""

    saveable: bool = False


@dataclass(frozen=True)
class AmountRule:
    """How many cards an effect acts on when its text gives no number.  "Choose and stand any number of «Direwolf»
    characters": up to every card that fits (``any_number_all``; Target).  "Draw that many cards" after "an opponent
    draws 1 or more cards": as many as its triggering condition counted, which the model does not count, so any number
    from 1 (``that_many_open``: a superset of what the card does, named as a widening by the encoder)."""

    any_number_all: bool = True
    that_many_open: bool = True


@dataclass(frozen=True)
class HandRule:
    """Whose hand a "discarded from ... hand" triggering condition names: "after a card is discarded from your hand"
    answers a discard from its controller's own hand, "... from an opponent's hand" one from the other player's, who
    ever's effect discarded it (``scope_read``; Triggering Condition)."""

    scope_read: bool = True


@dataclass(frozen=True)
class OwnerRule:
    """"A card you own" / "owned by an opponent" names cards by owner, which taking control never changes (Ownership
    and Control: a card whose control was taken is still its owner's; ``by_owner``); "you control" names cards by
    controller."""

    by_owner: bool = True


#: Scopes that name cards by their owner (no control change moves a card between them).
OWNER_SCOPES = frozenset({Scope.YOU_OWN, Scope.OPPONENT_OWNS})


@dataclass(frozen=True)
class Rules:
    """The whole table: cost and effect entries and the framework rules (see the module docstring)."""

    costs: Mapping[CostKind, Entry]
    effects: Mapping[EffectKind, Entry]
    limits: Mapping[LimitKind, LimitRule]
    refs: Mapping[TargetRef, RefRule]
    then: ThenRule
    piles: PileRule
    dups: DupRule = DupRule(saves=True, spent=True)
    cannot: CannotRule = CannotRule(applies=True)
    plots: PlotRule = PlotRule(recycles_mid_chain=False)
    initiators: InitiatorRule = InitiatorRule(any_player=True)
    unique: UniqueRule = UniqueRule(one_per_player=True)
    alternatives: AltRule = AltRule(either=True)
    events: EventRule = EventRule()
    pronouns: PronounRule = PronounRule()
    instead: InsteadRule = InsteadRule()
    choosers: ChooserRule = ChooserRule()
    conditions: ConditionRule = ConditionRule()
    search: SearchRule = SearchRule()
    copies: CopyRule = CopyRule()
    ongoing: OngoingRule = OngoingRule()
    amounts: AmountRule = AmountRule()
    hands: HandRule = HandRule()
    owners: OwnerRule = OwnerRule()

    def swap(self, section: str, key: object, entry: object) -> Rules:
        """A copy with one entry replaced (``section``: ``costs``, ``effects``, ``limits``, ``refs``; or ``then``,
        ``piles``, ``dups`` with ``key`` ``None``)."""
        change: dict[str, Any] = {}
        if section in ("then", "piles", "dups", "cannot", "plots", "initiators", "unique", "alternatives", "events",
                       "pronouns", "instead", "choosers", "conditions", "search", "copies", "ongoing",
                       "amounts", "hands", "owners"):
            change[section] = entry
        else:
            table = dict(getattr(self, section))
            if key not in table:
                raise KeyError(f"{section} has no entry {key!r}")
            table[key] = entry
            change[section] = MappingProxyType(table)
        return dataclasses.replace(self, **change)


_ANY_CARD = frozenset({TargetRef.SELF, TargetRef.CHOSEN, TargetRef.EACH, TargetRef.TRIGGER, TargetRef.ATTACHED,
                       TargetRef.COST})
_ONE_CARD = frozenset({TargetRef.SELF, TargetRef.CHOSEN, TargetRef.TRIGGER, TargetRef.ATTACHED, TargetRef.COST})
_PAY = frozenset({TargetRef.SELF, TargetRef.CHOSEN, TargetRef.ATTACHED, TargetRef.TRIGGER})
_PLAYER = frozenset({TargetRef.PLAYER})
_NEXT = frozenset({TargetRef.NEXT})  # "the next card you marshal": a card to come, not one the model holds

_KILL = Move("kill", Place.PLAY, Place.DEAD, (EventKind.WOULD_BE_KILLED, EventKind.WOULD_LEAVE_PLAY),
             (EventKind.KILLED, EventKind.LEAVES_PLAY), saveable=True)
_DISCARD = Move("discard", Place.PLAY, Place.DISCARD, (EventKind.WOULD_BE_DISCARDED, EventKind.WOULD_LEAVE_PLAY),
                (EventKind.DISCARDED, EventKind.LEAVES_PLAY), saveable=True)
_SACRIFICE = Move("sacrifice", Place.PLAY, Place.DISCARD, (EventKind.WOULD_BE_SACRIFICED, EventKind.WOULD_LEAVE_PLAY),
                  (EventKind.SACRIFICED, EventKind.LEAVES_PLAY), saveable=False)
_RETURN = Move("return_to_hand", Place.PLAY, Place.HAND,
               (EventKind.WOULD_BE_RETURNED_TO_HAND, EventKind.WOULD_LEAVE_PLAY),
               (EventKind.RETURNED_TO_HAND, EventKind.LEAVES_PLAY), saveable=True)
_TO_SHADOWS = Move("return_to_shadows", Place.PLAY, Place.SHADOWS, (EventKind.WOULD_LEAVE_PLAY,),
                   (EventKind.PUT_INTO_SHADOWS, EventKind.LEAVES_PLAY), saveable=True)
_REMOVE = Move("remove_from_game", Place.PLAY, Place.REMOVED, (EventKind.WOULD_LEAVE_PLAY,), (EventKind.LEAVES_PLAY,),
               saveable=True)
_HAND_DISCARD = Move("discard_from_hand", Place.HAND, Place.DISCARD, (), (EventKind.DISCARDED,))
_PLACE = Move("move_card", Place.PLAY, None, (EventKind.WOULD_LEAVE_PLAY,), (EventKind.LEAVES_PLAY,), saveable=True)
_REVEAL = Move("reveal", Place.PLOT_DECK, Place.REVEALED, (), (EventKind.PLOT_REVEALED,))
_ENTER = Move("put_into_play", None, Place.PLAY, (), (EventKind.ENTERS_PLAY,), new_copy=True)


def _leaves(does: str, move: Move, cites: tuple[str, ...], refs: frozenset[TargetRef]) -> Entry:
    dest = res_in(move.dest) if move.dest is not None else None
    return Entry(does, cites, refs, needs=(Res.IN_PLAY,), makes=(dest,) if dest else (), move=move)


_COSTS: dict[CostKind, Entry] = {
    CostKind.KNEEL: Entry("kneel a standing card", ("Kneel", "Costs"),
                          _PAY | {TargetRef.FACTION_CARD}, (Res.STANDING,), (Res.KNEELING,), (EventKind.KNELT,)),
    CostKind.STAND: Entry("stand a kneeling card", ("Stand", "Costs"),
                          _PAY | {TargetRef.FACTION_CARD}, (Res.KNEELING,), (Res.STANDING,), (EventKind.STOOD,)),
    CostKind.PAY_GOLD: Entry("return gold from your gold pool to the treasury", ("Gold", "Costs"),
                             _PLAYER | {TargetRef.SELF}, (Res.GOLD,)),
    CostKind.DISCARD_GOLD: Entry("return gold on the card to the treasury", ("Bestow", "Costs"),
                                 frozenset({TargetRef.SELF}), (Res.CARD_GOLD,)),
    CostKind.DISCARD_POWER: Entry("discard power from the card (one the payer controls)", ("Power", "Costs"),
                                  frozenset({TargetRef.SELF, TargetRef.FACTION_CARD, TargetRef.CHOSEN}),
                                  (Res.POWER,)),
    CostKind.DISCARD_FROM_HAND: Entry("discard cards from your hand (or this card, from your hand)",
                                      ("Discard Pile", "Costs"), _PLAYER | {TargetRef.CHOSEN, TargetRef.SELF},
                                      (Res.HAND,), (), (EventKind.DISCARDED,), _HAND_DISCARD),
    CostKind.SACRIFICE: _leaves("sacrifice a card you control", _SACRIFICE, ("Sacrifice", "Costs"), _PAY),
    CostKind.KILL: _leaves("kill a character", _KILL, ("Kill, Killed", "Costs"), _PAY),
    CostKind.DISCARD_FROM_PLAY: _leaves("discard a card from play", _DISCARD, ("Discard Pile", "Costs"), _PAY),
    CostKind.RETURN_TO_HAND: _leaves("return a card to its owner's hand", _RETURN, ("Costs",), _PAY),
    CostKind.REMOVE_FROM_GAME: _leaves("remove a card from the game", _REMOVE, ("Removed from Game", "Costs"), _PAY),
    CostKind.RETURN_TO_SHADOWS: _leaves("return a card to shadows", _TO_SHADOWS, ("Shadows", "Costs"), _PAY),
    CostKind.REMOVE_FROM_CHALLENGE: Entry("remove a participating card from the challenge (it stays in play)",
                                          ("Challenges", "Costs"), _PAY | {TargetRef.COST}, (Res.IN_PLAY,)),
}

_EFFECTS: dict[EffectKind, Entry] = {
    EffectKind.STAND: Entry("stand a kneeling card", ("Stand, Standing",), _ANY_CARD | {TargetRef.FACTION_CARD},
                            (Res.KNEELING,), (Res.STANDING,), (EventKind.STOOD,)),
    EffectKind.KNEEL: Entry("kneel a standing card", ("Kneel, Kneeling, Knelt",), _ANY_CARD | {TargetRef.FACTION_CARD},
                            (Res.STANDING,), (Res.KNEELING,), (EventKind.KNELT,)),
    EffectKind.GAIN_GOLD: Entry("gain gold from the treasury (to a gold pool, or onto a card)", ("Gains", "Gold"),
                                _PLAYER | _ONE_CARD, (), (Res.GOLD,), (EventKind.GAIN_GOLD,)),
    EffectKind.DRAW: Entry("draw cards from the top of the draw deck (\"draw it\": the top card of its owner's deck, "
                           "which that player draws)", ("Drawing Cards",), _PLAYER | {TargetRef.EACH},
                           (Res.DECK,), (Res.HAND,), (EventKind.DRAW,)),
    EffectKind.DISCARD_GOLD: Entry("return gold on a card to the treasury", ("Bestow", "Gold"), _ONE_CARD,
                                   (Res.CARD_GOLD,)),
    EffectKind.GAIN_POWER: Entry("gain power on a card (or the faction card)", ("Gains", "Power"),
                                 _ONE_CARD | {TargetRef.FACTION_CARD}, (Res.IN_PLAY,), (Res.POWER,),
                                 (EventKind.GAIN_POWER,)),
    EffectKind.DISCARD_FROM_HAND: Entry("a player discards cards from their hand", ("Discard Pile",), _PLAYER,
                                        (Res.HAND,), (), (EventKind.DISCARDED,),
                                        _HAND_DISCARD),
    EffectKind.KILL: _leaves("kill a character", _KILL, ("Kill, Killed", "Dead Pile"), _ANY_CARD),
    EffectKind.DISCARD: _leaves("discard a card from play", _DISCARD, ("Discard Pile", "Leaves Play"), _ANY_CARD),
    EffectKind.SACRIFICE: _leaves("sacrifice a card its controller chooses", _SACRIFICE, ("Sacrifice",), _ANY_CARD),
    EffectKind.RETURN_TO_HAND: _leaves("return a card to its owner's hand", _RETURN, ("Leaves Play",), _ANY_CARD),
    EffectKind.RETURN_TO_SHADOWS: _leaves("return a card to shadows", _TO_SHADOWS, ("Shadows",), _ANY_CARD),
    EffectKind.REMOVE_FROM_GAME: _leaves("remove a card from the game", _REMOVE, ("Removed from Game",), _ANY_CARD),
    EffectKind.TAKE_CONTROL: Entry("take control of a card an opponent controls (it stays where it is)",
                                   ("Ownership and Control",), _ONE_CARD, (Res.IN_PLAY, Res.THEIRS), (Res.YOURS,),
                                   (EventKind.CONTROL_TAKEN,)),
    EffectKind.REVEAL: Entry("reveal a new plot card from the plot deck (the one revealed before goes to the used "
                             "pile); its when revealed ability resolves", ("Plot Card", "When Revealed"),
                             frozenset({TargetRef.CHOSEN, TargetRef.PLAYER}), (Res.PLOTS,), (Res.REVEALED,),
                             move=_REVEAL),
    EffectKind.RESOLVE_ABILITY: Entry("initiate the when revealed ability of a plot as if it had just been revealed",
                                      ("When Revealed",), frozenset({TargetRef.CHOSEN, TargetRef.SELF}), (), (),
                                      (EventKind.PLOT_REVEALED,)),
    EffectKind.STR_MOD: Entry("modify STR (not tracked by the loop model); a modifier of more than 0 increases the "
                              "card's STR", ("Modifiers",), _ANY_CARD | _PLAYER | _NEXT,
                              events=(EventKind.STR_INCREASED,), untracked="STR"),
    **{kind: Entry(f"modify {what} (not tracked by the loop model)", ("Modifiers",), _ANY_CARD | _PLAYER | _NEXT,
                   untracked=what) for kind, what in (
        (EffectKind.ICON_MOD, "challenge icons"), (EffectKind.KEYWORD_MOD, "keywords"),
        (EffectKind.TRAIT_MOD, "traits"), (EffectKind.CLAIM_MOD, "claim"), (EffectKind.INCOME_MOD, "income"),
        (EffectKind.RESERVE_MOD, "reserve"), (EffectKind.INITIATIVE_MOD, "initiative"),
        (EffectKind.DOMINANCE_MOD, "dominance STR"), (EffectKind.CONTRIBUTE_STR, "STR contributed to a challenge"),
        (EffectKind.PARTICIPATE, "a challenge's participants"),
        (EffectKind.REDUCE_COST, "the cost of a card to come"), (EffectKind.LOOK_AT, "what a player has seen"),
        (EffectKind.SEARCH_DECK, "which card of the deck a search finds (the next effect moves it)"),
        (EffectKind.SHUFFLE_DECK, "the order of the deck"),
        (EffectKind.END_CHALLENGE, "the challenge in progress (it ends with no winner or loser)"),
        (EffectKind.PLACE_TOKEN, "tokens on a card (what a token does is another text's: an ability of the model "
                                 "that reads them is refused or named)"))},
    EffectKind.APPLY_CLAIM: Entry("apply another claim instead of the one being applied (Claim; Challenges: a "
                                  "challenge's claim is applied once, in its resolution; the loop model does not track "
                                  "it): it raises no new 'claim is applied'", ("Claim", "Challenges"), _PLAYER,
                                  untracked="the claim a challenge applies"),
    EffectKind.REMOVE_FROM_CHALLENGE: Entry("remove a card from the challenge: it no longer participates (it stays in "
                                            "play)", ("Challenges", "Participating"), _ANY_CARD, (Res.IN_PLAY,)),
    EffectKind.MOVE_GOLD: Entry("move gold from one player's gold pool to another's (moved gold is not gained)",
                                ("Move", "Gold", "Gains"), _PLAYER, (Res.GOLD,), (Res.GOLD,)),
    EffectKind.MOVE_CARD: Entry("place a card in the place the text names (placed in the dead pile is not killed)",
                                ("Dead Pile", "Discard Pile", "Leaves Play"), _ANY_CARD, (Res.IN_PLAY,), (),
                                move=_PLACE),
    EffectKind.PUT_INTO_PLAY: Entry("put a card into play from the place the text names", ("Put into Play",),
                                    frozenset({TargetRef.SELF, TargetRef.CHOSEN, TargetRef.TRIGGER, TargetRef.COST}),
                                    (), (Res.IN_PLAY,), (), _ENTER),
    EffectKind.SAVE: Entry("save a card that would leave play: it stays in play", ("Save",),
                           frozenset({TargetRef.TRIGGER, TargetRef.SELF, TargetRef.COST}), (Res.IN_PLAY,),
                           (Res.IN_PLAY,),
                           (EventKind.SAVED,)),
    EffectKind.PROHIBIT: Entry("a lasting 'cannot': for its duration the card cannot be knelt, stood, killed ... (it "
                               "cannot be chosen for it, and it does not happen to it); it ends when the card leaves "
                               "play", ("Lasting Effects", "Cannot"), _ONE_CARD | {TargetRef.EACH}, (Res.IN_PLAY,)),
    EffectKind.CHOICE: Entry("the player picks one of the options ('choose one'); its effects resolve", ("Effects",),
                             frozenset({TargetRef.PLAYER, TargetRef.CHOSEN, TargetRef.SELF})),
    EffectKind.CHOOSE: Entry("choose the card (or player) the effects after it act on ('that card'); choosing "
                             "changes nothing", ("Target",), frozenset({TargetRef.CHOSEN, TargetRef.PLAYER}),
                             anywhere=True),
    EffectKind.CANCEL: Entry("cancel the effects of the ability whose initiation triggered it: they do not resolve, "
                             "its costs stay paid and it counts as used; a cancelled event still goes to its owner's "
                             "discard pile", ("Cancel", "Initiating Abilities / Marshaling Cards"),
                             frozenset({TargetRef.EVENT})),
}
#: Effects that happen at once: a duration the reader finds in their sentence belongs to another part of it.
_INSTANT = (EffectKind.STAND, EffectKind.KNEEL, EffectKind.GAIN_GOLD, EffectKind.DRAW, EffectKind.GAIN_POWER,
            EffectKind.DISCARD_GOLD,
            EffectKind.DISCARD_FROM_HAND, EffectKind.KILL, EffectKind.DISCARD, EffectKind.SACRIFICE,
            EffectKind.RETURN_TO_HAND, EffectKind.RETURN_TO_SHADOWS, EffectKind.REMOVE_FROM_GAME, EffectKind.REVEAL,
            EffectKind.RESOLVE_ABILITY, EffectKind.MOVE_CARD, EffectKind.PUT_INTO_PLAY, EffectKind.SAVE,
            EffectKind.CANCEL)
_EFFECTS.update({k: dataclasses.replace(_EFFECTS[k], instant=True) for k in _INSTANT})

#: The parts a card can have in the current challenge that the loop model tracks (its state ``role``: none,
#: attacking or defending); "attacking alone" is not tracked.
ROLES_READ = frozenset({ChallengeRole.PARTICIPATING, ChallengeRole.ATTACKING, ChallengeRole.DEFENDING,
                        ChallengeRole.NOT_PARTICIPATING, ChallengeRole.NOT_ATTACKING, ChallengeRole.NOT_DEFENDING})

#: Durations a lasting effect keeps through any loop: a loop repeats card abilities at one point of the game, where
#: no challenge, phase or round ends (Lasting Effects: it expires only at the timing point its duration names).
LOOP_WINDOW = frozenset({Duration.UNTIL_END_OF_CHALLENGE, Duration.UNTIL_END_OF_PHASE, Duration.UNTIL_END_OF_ROUND,
                         Duration.UNTIL_END_OF_GAME})
#: What a lasting "cannot" of the loop model can forbid (the others, e.g. being declared as an attacker, are about
#: framework steps no loop takes: not tracked).
BANNABLE = frozenset({EventKind.KNELT, EventKind.STOOD, EventKind.KILLED, EventKind.SAVED, EventKind.DISCARDED,
                      EventKind.SACRIFICED, EventKind.RETURNED_TO_HAND, EventKind.LEAVES_PLAY})

_LIMITS = {
    LimitKind.LIMIT: LimitRule(per_title=False, per_player=True, renews=True),
    LimitKind.MAX: LimitRule(per_title=True, per_player=True, renews=False),
}
_REFS = {TargetRef.ATTACHED: RefRule("host"), TargetRef.CHOSEN: RefRule("any"), TargetRef.TRIGGER: RefRule("trigger")}

#: The rules as written.
RULES = Rules(MappingProxyType(_COSTS), MappingProxyType(_EFFECTS), MappingProxyType(_LIMITS),
              MappingProxyType(_REFS), ThenRule(gate=True), PileRule("owner"))


def event_plays(k: CardFacts, rules: Rules = RULES) -> tuple[tuple[Place, int], ...]:
    """Where an event can be played from and for how much gold: its hand for its printed cost (an X cost: 0, which
    the loop encoder names as a widening), shadows for its shadow cost (Shadows)."""
    out: list[tuple[Place, int]] = []
    if k.cost is not None:
        out.append((Place.HAND, k.cost))
    elif k.shadow is None or rules.events.dash_from_hand:
        out.append((Place.HAND, 0))
    if k.shadow is not None:
        out.append((Place.SHADOWS, k.shadow))
    return tuple(out)


def parts_of(a: Ability) -> tuple[Cost | Effect, ...]:
    """The costs and effects of an ability, with the effects of each option of a choice ("(choose one): draw 2
    cards, or gain 3 gold"): what it may need, make or raise."""
    out: list[Cost | Effect] = [*a.costs]
    for e in a.effects:
        out.append(e)
        out.extend(x for option in e.options for x in option)
    return tuple(out)


def target_ref(part: Cost | Effect) -> TargetRef:
    """How the part designates what it acts on; every target that names players ("you", "each player", "that
    player": ``Target.is_player``) is a ``player`` target."""
    t = part.target
    return TargetRef.PLAYER if t.is_player and t.subject.scope not in (Scope.SELF, Scope.ATTACHED) else t.ref


_PLOT_EFFECTS = frozenset({EffectKind.REVEAL, EffectKind.RESOLVE_ABILITY})


def effect_key(part: Effect) -> EffectKind | None:
    """The key of an effect's entry in the table (the loop encoder's encoder has the same key); ``None``: none.

    "Reveal" and "initiate the when revealed ability" are entries for plot cards only ("reveal the top card of
    your deck" is not a plot being revealed: it only shows the card, the entry of "look at").
    """
    if part.kind in _PLOT_EFFECTS:
        s = part.target.subject
        if s.card_type is not CardKind.PLOT and CardKind.PLOT not in s.other_types:
            # revealing another card only shows it (information the loop model does not track)
            return EffectKind.LOOK_AT if part.kind is EffectKind.REVEAL else None
    return part.kind


def entry_of(part: Cost | Effect, rules: Rules = RULES) -> Entry | None:
    """The table entry of a cost or an effect (``None``: not in the table, not modelled); an effect's by
    :func:`effect_key`."""
    if isinstance(part, Cost):
        return rules.costs.get(part.kind)
    key = effect_key(part)
    return rules.effects.get(key) if key is not None else None


def _from_places(part: Cost | Effect) -> tuple[Place, ...]:
    zones: tuple[Zone, ...] = part.from_zones if isinstance(part, Effect) else ()
    if not zones and part.target.subject.zone is not None:
        zones = (part.target.subject.zone,)
    return tuple(dict.fromkeys(p for p in (place_of(z) for z in zones) if p is not None and p is not Place.PLAY))


def src_places(part: Cost | Effect, entry: Entry) -> tuple[Place, ...]:
    """Where the card a move takes must be: the places the text names (Put into Play; "return a card from your
    discard pile"), else the entry's place."""
    if entry.move is None:
        return ()
    named = _from_places(part)
    if entry.move.src is None:
        return named if entry.move.from_text else _OUT_OF_PLAY
    return named or (entry.move.src,)


_OUT_OF_PLAY = (Place.HAND, Place.DISCARD, Place.DEAD, Place.DECK, Place.SHADOWS)


def dest_place(part: Cost | Effect, entry: Entry) -> Place | None:
    """Where a move puts its card: the entry's place, or the place the text names (``to_zone``)."""
    if entry.move is None:
        return None
    if entry.move.dest is not None:
        return entry.move.dest
    z = part.to_zone if isinstance(part, Effect) else None
    return place_of(z) if z is not None else None


def move_of(part: Cost | Effect, rules: Rules = RULES) -> Move | None:
    """The concrete move of a cost or effect: its places resolved from the text (``None``: no move, or a place
    the text does not name).  A move between out-of-play places raises no leave-play events."""
    e = entry_of(part, rules)
    if e is None or e.move is None:
        return None
    srcs, dest = src_places(part, e), dest_place(part, e)
    if not srcs or dest is None:
        return None
    if Place.PLAY in srcs or dest is Place.PLAY:
        return dataclasses.replace(e.move, dest=dest) if e.move.dest is None else e.move
    keep = tuple(ev for ev in e.move.after if ev not in (EventKind.LEAVES_PLAY, EventKind.WOULD_LEAVE_PLAY))
    return dataclasses.replace(e.move, name=f"{e.move.name}_{srcs[0].value}_{dest.value}", src=srcs[0], dest=dest,
                               would=(), after=keep, saveable=False)


def needs(part: Cost | Effect, rules: Rules = RULES) -> tuple[Res, ...]:
    """What a cost needs to be paid, or an effect to change the game state (of its target)."""
    e = entry_of(part, rules)
    if e is None:
        return ()
    if e.move is not None and (e.move.src is None or _from_places(part) and Res.IN_PLAY in e.needs):
        # a card that moves (put into play, or a removal that takes it from an out-of-play place the text names)
        return tuple(r for r in (res_in(p) for p in src_places(part, e)) if r is not None)
    if isinstance(part, Effect) and part.kind is EffectKind.GAIN_GOLD:
        return ()
    if e.move is not None and e.move.src not in (None, Place.PLAY) and part.target.ref is TargetRef.SELF:
        got = res_in(e.move.src)  # "discard ~ from your hand": this card, where it must be
        return (got,) if got is not None else ()
    state = part.target.subject.standing  # "kill a standing character": its target must stand
    extra = (Res.STANDING,) if state is True else (Res.KNEELING,) if state is False else ()
    return e.needs + tuple(r for r in extra if r not in e.needs and Res.IN_PLAY in e.needs)


def makes(part: Cost | Effect, rules: Rules = RULES) -> tuple[Res, ...]:
    """What a cost or an effect leaves its target (or its player) with that it did not need already.

    (A save keeps a card in play: it makes nothing new.)
    """
    e = entry_of(part, rules)
    if e is None:
        return ()
    if isinstance(part, Effect) and part.kind is EffectKind.GAIN_GOLD and not part.target.is_player:
        return (Res.CARD_GOLD,)  # gold placed on a card is not in a gold pool (Bestow)
    if e.move is not None:
        dest = dest_place(part, e)
        got = res_in(dest) if dest is not None else None
        return (got,) if got is not None else ()
    return tuple(r for r in e.makes if r not in e.needs)


def raises(part: Cost | Effect, rules: Rules = RULES) -> tuple[tuple[EventKind, Place | None], ...]:
    """The triggering conditions a cost or an effect raises about its target: ``(event, from place)``."""
    e = entry_of(part, rules)
    if e is None:
        return ()
    mv = move_of(part, rules)
    src = mv.src if mv is not None else None
    out: list[tuple[EventKind, Place | None]] = [(ev, src) for ev in e.events]
    if isinstance(part, Effect) and (part.minus or part.amount is not None and part.amount <= 0):
        out = [x for x in out if x[0] is not EventKind.STR_INCREASED]  # "gets -2 STR" increases nothing
    if mv is not None:
        for ev in (*mv.would, *mv.after):
            if (ev, src) not in out:
                out.append((ev, src))
    if isinstance(part, Effect) and part.kind is EffectKind.GAIN_GOLD and not part.target.is_player:
        return ()  # gold placed on a card: nobody "gains gold"
    return tuple(out)


def answers(trig: Trigger, event: EventKind, src: Place | None) -> bool:
    """Does the occurrence ``event`` (of a card leaving place ``src``) answer the triggering condition ``trig``?

    A discard from hand and a discard from play are different triggering
    conditions: "after a card is discarded from your hand" answers only the
    first, a discard trigger that names no place only the second.  The
    trigger's alternatives ("is sacrificed or killed", "from an opponent's
    hand or deck") answer too.
    """
    if event is not trig.event and event not in trig.also_events:
        return False
    places = {place_of(z) for z in (trig.from_zone, *trig.also_zones) if z is not None}
    if event is EventKind.DISCARDED:
        return (src or Place.PLAY) in (places or {Place.PLAY})
    if trig.from_zone is not None:
        return src in places
    return True


#: The triggering conditions of an ability's initiation ("when the effects of a triggered character ability would
#: initiate", "when the effects of an event would initiate"): only cancel interrupts answer them (Triggering Condition).
INITIATION_EVENTS = frozenset({EventKind.ABILITY_WOULD_INITIATE, EventKind.EVENT_WOULD_INITIATE})


def initiation_raises(a: Ability, k: CardFacts) -> tuple[EventKind, ...]:
    """The triggering conditions the initiation of ability ``a`` on card ``k`` raises: "the effects of a triggered
    card ability would initiate" for every triggered ability (Triggered Abilities: actions, interrupts, reactions,
    forced ones, when revealed), and "the effects of an event would initiate" for one on an event card (FAQ 1.5); none
    for an ability that cannot be canceled (no cancel could change anything)."""
    if not initiated(a) or a.cannot_be_canceled:
        return ()
    return (EventKind.ABILITY_WOULD_INITIATE,) + ((EventKind.EVENT_WOULD_INITIATE,) if k.kind is CardKind.EVENT
                                                  else ())


def trigger_of(a: Ability) -> Trigger | None:
    """The triggering condition of an ability; a when revealed ability's is its plot being revealed (When
    Revealed)."""
    if a.type is AbilityType.WHEN_REVEALED and a.trigger is None:
        return Trigger(EventKind.PLOT_REVEALED, Subject(Scope.SELF, CardKind.PLOT))
    return a.trigger


def phase_of(a: Ability) -> Phase | None:
    """The phase an ability is restricted to (a phase action, "during the X phase", a when revealed ability)."""
    if a.phase is not None:
        return a.phase
    if a.trigger is not None and a.trigger.phase is not None:
        return a.trigger.phase
    return Phase.PLOT if a.type is AbilityType.WHEN_REVEALED else None


# ---------------------------------------------------------------------------
# mutants: the table with one entry swapped


def _swap_effect(kind: EffectKind, entry: Entry) -> Callable[[Rules], Rules]:
    return lambda r: r.swap("effects", kind, entry)


#: Deliberately wrong readings of the rules, each the table with one entry swapped; each is caught by a test
#: (``tests/loops``).  ``name -> (what it gets wrong, how the table is edited)``.
MUTANTS: Mapping[str, tuple[str, Callable[[Rules], Rules]]] = MappingProxyType({
    "max_across_players": ("a Max counts the title's uses of both players (Limits and Maxima: player specific)",
                           lambda r: r.swap("limits", LimitKind.MAX, LimitRule(True, False, False))),
    "max_per_copy": ("a Max counts only this copy's uses, not every copy of the title (Limits and Maxima: by "
                     "title)", lambda r: r.swap("limits", LimitKind.MAX, LimitRule(False, True, False))),
    "limit_survives_reentry": ("a Limit is not renewed when the card leaves play and re-enters (a new copy)",
                               lambda r: r.swap("limits", LimitKind.LIMIT, LimitRule(False, True, False))),
    "put_into_play_any_zone": ("'put into play' takes the card from any out-of-play place (Put into Play: the one "
                               "the text names)",
                               _swap_effect(EffectKind.PUT_INTO_PLAY, dataclasses.replace(
                                   _EFFECTS[EffectKind.PUT_INTO_PLAY],
                                   move=dataclasses.replace(_ENTER, from_text=False)))),
    "then_ignored": ("post-then effects resolve even when the pre-then aspect did not (The word \"Then\")",
                     lambda r: r.swap("then", None, ThenRule(gate=False))),
    "chosen_on_cycle": ("a chosen target (or a card paying a cost) can only be a card on the cycle (Target, Costs: "
                        "any card that fits)", lambda r: r.swap("refs", TargetRef.CHOSEN, RefRule("on the cycle"))),
    "trigger_any": ("'that card' of a triggering condition is any card that fits (it is the card the condition "
                    "is about: Triggered Abilities)", lambda r: r.swap("refs", TargetRef.TRIGGER, RefRule("any"))),
    "attached_any": ("'attached character' is any character (Attachment Cards)",
                     lambda r: r.swap("refs", TargetRef.ATTACHED, RefRule("any character"))),
    "sacrifice_is_kill": ("a sacrifice is a kill: to the dead pile, 'killed', and it can be saved (Sacrifice)",
                          _swap_effect(EffectKind.SACRIFICE, _EFFECTS[EffectKind.KILL])),
    "kill_to_discard": ("a killed character goes to the discard pile, not the dead pile (Kill, Dead Pile)",
                        _swap_effect(EffectKind.KILL, dataclasses.replace(
                            _EFFECTS[EffectKind.KILL], makes=(Res.IN_DISCARD,),
                            move=dataclasses.replace(_KILL, dest=Place.DISCARD)))),
    "lasting_cannot_ignored": ("a lasting 'cannot' (\"until the end of the phase, that character cannot leave play\") "
                               "changes nothing the model tracks (Lasting Effects, Cannot)",
                               _swap_effect(EffectKind.PROHIBIT, dataclasses.replace(
                                   _EFFECTS[EffectKind.PROHIBIT], untracked="a lasting 'cannot'"))),
    "dash_event_from_hand": ("an event whose printed cost is '-' is played from hand for 0 (Shadows: only from "
                             "shadows)", lambda r: r.swap("events", None, EventRule(dash_from_hand=True))),
    "event_replacement_ignored": ("an event goes to its owner's discard pile even when its text sends it elsewhere "
                                  "instead (Replacement Effects)",
                                  lambda r: r.swap("events", None, EventRule(replaced=False))),
    "instead_adds": ("an effect that resolves 'instead' of the one before it resolves as well (Replacement Effects: "
                     "it replaces it)", lambda r: r.swap("instead", None, InsteadRule(replaces=False))),
    "move_gold_from_treasury": ("gold moved from an opponent's gold pool comes from the treasury (Move: it leaves "
                                "that pool)", _swap_effect(EffectKind.MOVE_GOLD, dataclasses.replace(
                                    _EFFECTS[EffectKind.MOVE_GOLD], needs=()))),
    "choice_untracked": ("a '(choose one)' of effects changes nothing the model tracks (Effects: the picked "
                         "option resolves)", _swap_effect(EffectKind.CHOICE, dataclasses.replace(
                             _EFFECTS[EffectKind.CHOICE], untracked="the options"))),
    "initiator_chooses_for_all": ("'each player sacrifices a character' is chosen by the initiator alone (Sacrifice: "
                                  "each player chooses their own)",
                                  lambda r: r.swap("choosers", None, ChooserRule(each=False))),
    "hand_cost_from_play": ("'discard ~ from your hand' as a cost discards the card from play (Costs: from where "
                            "the text says)", lambda r: r.swap("costs", CostKind.DISCARD_FROM_HAND, dataclasses.replace(
                                _COSTS[CostKind.DISCARD_FROM_HAND],
                                move=dataclasses.replace(_HAND_DISCARD, src=Place.PLAY)))),
    "removal_from_challenge_untracked": ("a card removed from the challenge still participates (Challenges: it no "
                                         "longer does)", _swap_effect(EffectKind.REMOVE_FROM_CHALLENGE,
                                                                      dataclasses.replace(
                                             _EFFECTS[EffectKind.REMOVE_FROM_CHALLENGE],
                                             untracked="a challenge's participants"))),
    "pronoun_chosen_anew": ("'that character' after a choice is a card chosen anew (Target: the chosen card)",
                            lambda r: r.swap("pronouns", None, PronounRule(shared=False))),
    "save_leaves_play": ("a saved card still leaves play (Save: it remains in play)",
                         _swap_effect(EffectKind.SAVE, dataclasses.replace(_EFFECTS[EffectKind.SAVE], makes=()))),
    "plot_deck_recycles": ("the used pile returns to the plot deck as soon as it is empty, mid-chain (Plot Card)",
                           lambda r: r.swap("plots", None, PlotRule(recycles_mid_chain=True))),
    "controller_only": ("'any player may initiate' is read as: only its controller may (Abilities; FAQ 2.7)",
                        lambda r: r.swap("initiators", None, InitiatorRule(any_player=False))),
    "cannot_ignored": ("a constant 'cannot be knelt/stood/killed/saved' is ignored (Cannot is absolute)",
                       lambda r: r.swap("cannot", None, CannotRule(applies=False))),
    "duplicate_not_spent": ("a duplicate that saves its card stays (Duplicates: it is discarded to save)",
                            lambda r: r.swap("dups", None, DupRule(saves=True, spent=False))),
    "unique_control_ignored": ("a player may take control of a unique card while controlling a copy of it (Unique "
                               "Cards: one copy per player, by title)",
                               lambda r: r.swap("unique", None, UniqueRule(one_per_player=False))),
    "owner_initiates": ("a card's abilities are initiated by its owner even while another player controls it "
                        "(Ownership and Control: its controller)",
                        lambda r: r.swap("initiators", None, InitiatorRule(any_player=True, by="owner"))),
    "first_alternative_only": ("only a card fitting the first of alternative targets can be chosen ('X or Y "
                               "character': either; Target)",
                               lambda r: r.swap("alternatives", None, AltRule(either=False))),
    "controller_piles": ("a card leaving play goes to its controller's pile, not its owner's (Ownership and Control)",
                         lambda r: r.swap("piles", None, PileRule("controller"))),
    "unknown_condition_holds": ("an effect whose condition the model cannot evaluate always resolves (Effects: only "
                                "when its condition holds)",
                                lambda r: r.swap("conditions", None, ConditionRule(False))),
    "gold_discard_untracked": ("gold discarded from a card stays on it (Bestow: it returns to the treasury)",
                               _swap_effect(EffectKind.DISCARD_GOLD, dataclasses.replace(
                                   _EFFECTS[EffectKind.DISCARD_GOLD], untracked="gold on cards"))),
    "search_model_cards_only": ("a search of a deck finds only the cards the model holds (Search: any card of the "
                                "searched deck that fits, the deck's other cards too)",
                                lambda r: r.swap("search", None, SearchRule(whole_deck=False))),
    "search_must_find": ("a player searching a deck must find a card when one fits (Search: not obliged to find one)",
                         lambda r: r.swap("search", None, SearchRule(may_fail=False))),
    "same_title_by_printing": ("'a card with the same title' is only the same printing of the card (Copy: by title, "
                               "whatever the printing)", lambda r: r.swap("copies", None, CopyRule(by_title=False))),
    "ongoing_kill_saveable": ("a card killed by a lasting 'is killed if its STR is 0' can be saved (Save: a save "
                              "that does not remedy the ongoing condition cannot be initiated, nor a duplicate's)",
                              lambda r: r.swap("ongoing", None, OngoingRule(saveable=True))),
    "claim_applied_again": ("applying another claim instead is a new 'claim is applied' (Claim: the claim being "
                            "applied is replaced; a challenge applies its claim once)",
                            _swap_effect(EffectKind.APPLY_CLAIM, dataclasses.replace(
                                _EFFECTS[EffectKind.APPLY_CLAIM], events=(EventKind.CLAIM_APPLIED,)))),
    "any_number_is_one": ("'choose any number of' cards is read as one card (Target: up to every card that fits)",
                          lambda r: r.swap("amounts", None, AmountRule(any_number_all=False))),
    "that_many_is_one": ("'draw that many cards' draws 1 card (Drawing Cards: as many as its triggering condition "
                         "counted)", lambda r: r.swap("amounts", None, AmountRule(that_many_open=False))),
    "opponent_hand_as_own": ("'discarded from an opponent's hand' answers a discard from its own player's hand "
                             "(Triggering Condition: the hand it names)",
                             lambda r: r.swap("hands", None, HandRule(scope_read=False))),
    "ownership_follows_control": ("'a card you own' is read as a card you control: taking control of a card makes "
                                  "it its new controller's (Ownership and Control: it stays its owner's)",
                                  lambda r: r.swap("owners", None, OwnerRule(by_owner=False))),
    "cancel_keeps_effects": ("a cancelled ability's effects resolve anyway (Cancel: they do not initiate)",
                             _swap_effect(EffectKind.CANCEL, dataclasses.replace(
                                 _EFFECTS[EffectKind.CANCEL], untracked="the effects it cancels"))),
})


def mutant(name: str) -> Rules:
    """:data:`RULES` with the entry of mutant ``name`` swapped (``""``: the rules as written).

    Raises
    ------
    ValueError
        An unknown mutant name.
    """
    if not name:
        return RULES
    if name not in MUTANTS:
        raise ValueError(f"unknown loop-encoder mutant {name!r} (known: {', '.join(MUTANTS)})")
    return MUTANTS[name][1](RULES)

