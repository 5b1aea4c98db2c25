"""Structured card abilities: the frozen IR the card-text compiler produces.

An :class:`Ability` is one ability of one card (type, trigger, costs, effects,
limit, optional/forced), plus an honest account of how much of its printed text
was understood (:class:`Compiled` and ``reasons``).  Enum values are lower-case
strings so that override files and JSON output can name them.

Examples
--------
>>> a = Ability(type=AbilityType.ACTION, costs=(Cost(CostKind.KNEEL, Target(TargetRef.SELF)),),
...             effects=(Effect(EffectKind.GAIN_GOLD, amount=1),))
>>> a.compiled is Compiled.FULL
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

__all__ = [
    "Ability",
    "AbilityType",
    "CardKind",
    "ChallengeType",
    "Compiled",
    "Cost",
    "CostKind",
    "Duration",
    "Effect",
    "EffectKind",
    "EventKind",
    "Keyword",
    "Limit",
    "LimitKind",
    "Period",
    "Phase",
    "Scope",
    "Subject",
    "Target",
    "TargetRef",
    "Trigger",
    "Zone",
]


class AbilityType(Enum):
    """The ability types of the Rules Reference (plus keywords)."""

    ACTION = "action"
    REACTION = "reaction"
    INTERRUPT = "interrupt"
    FORCED_REACTION = "forced_reaction"
    FORCED_INTERRUPT = "forced_interrupt"
    WHEN_REVEALED = "when_revealed"
    CONSTANT = "constant"
    KEYWORD = "keyword"


class Compiled(Enum):
    """How much of an ability's printed text the compiler understood."""

    FULL = "full"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"


class Phase(Enum):
    """A game phase (for phase-restricted actions and triggers)."""

    PLOT = "plot"
    DRAW = "draw"
    MARSHALING = "marshaling"
    CHALLENGES = "challenges"
    DOMINANCE = "dominance"
    STANDING = "standing"
    TAXATION = "taxation"


class ChallengeType(Enum):
    """A challenge type / challenge icon."""

    MILITARY = "military"
    INTRIGUE = "intrigue"
    POWER = "power"


class EventKind(Enum):
    """The kind of triggering condition a reaction or interrupt answers."""

    KNELT = "knelt"
    STOOD = "stood"
    KILLED = "killed"
    WOULD_BE_KILLED = "would_be_killed"
    LEAVES_PLAY = "leaves_play"
    WOULD_LEAVE_PLAY = "would_leave_play"
    ENTERS_PLAY = "enters_play"
    MARSHALED = "marshaled"
    OUT_OF_SHADOWS = "out_of_shadows"
    WIN_CHALLENGE = "win_challenge"
    LOSE_CHALLENGE = "lose_challenge"
    INITIATE_CHALLENGE = "initiate_challenge"
    CHALLENGE_AGAINST = "challenge_against"
    DECLARED_ATTACKER = "declared_attacker"
    DECLARED_DEFENDER = "declared_defender"
    CLAIM_APPLIED = "claim_applied"
    DISCARDED = "discarded"
    WOULD_BE_DISCARDED = "would_be_discarded"
    SACRIFICED = "sacrificed"
    RETURNED_TO_HAND = "returned_to_hand"
    GAIN_POWER = "gain_power"
    GAIN_GOLD = "gain_gold"
    DRAW = "draw"
    PLOT_REVEALED = "plot_revealed"
    PHASE_BEGINS = "phase_begins"
    PHASE_ENDS = "phase_ends"
    WIN_DOMINANCE = "win_dominance"
    LOSE_DOMINANCE = "lose_dominance"
    COLLECT_INCOME = "collect_income"
    EVENT_PLAYED = "event_played"
    EVENT_WOULD_INITIATE = "event_would_initiate"
    ABILITY_WOULD_INITIATE = "ability_would_initiate"
    STEALTH_BYPASS = "stealth_bypass"
    PILLAGE_DISCARD = "pillage_discard"
    ATTACHED = "attached"


class Scope(Enum):
    """Who controls (or owns) a subject, relative to the ability's controller."""

    SELF = "self"
    ATTACHED = "attached"
    YOU_CONTROL = "you_control"
    OPPONENT_CONTROLS = "opponent_controls"
    YOU_OWN = "you_own"
    OPPONENT_OWNS = "opponent_owns"
    ANY = "any"
    YOU = "you"
    OPPONENT = "opponent"
    ANY_PLAYER = "any_player"


class CardKind(Enum):
    """A card type a subject filter names (``card`` is any)."""

    CHARACTER = "character"
    LOCATION = "location"
    ATTACHMENT = "attachment"
    EVENT = "event"
    PLOT = "plot"
    AGENDA = "agenda"
    CARD = "card"
    FACTION_CARD = "faction_card"


class TargetRef(Enum):
    """How an effect or cost designates what it acts on."""

    SELF = "self"
    ATTACHED = "attached"
    CHOSEN = "chosen"
    EACH = "each"
    TRIGGER = "trigger"
    FACTION_CARD = "faction_card"
    PLAYER = "player"
    EVENT = "event"


class CostKind(Enum):
    """A cost paid before an ability's effect resolves."""

    KNEEL = "kneel"
    STAND = "stand"
    SACRIFICE = "sacrifice"
    PAY_GOLD = "pay_gold"
    DISCARD_FROM_HAND = "discard_from_hand"
    RETURN_TO_HAND = "return_to_hand"
    DISCARD_POWER = "discard_power"
    DISCARD_GOLD = "discard_gold"
    DISCARD_TOKENS = "discard_tokens"
    REMOVE_FROM_GAME = "remove_from_game"
    RETURN_TO_SHADOWS = "return_to_shadows"
    KILL = "kill"
    DISCARD_FROM_PLAY = "discard_from_play"


class EffectKind(Enum):
    """What an effect does."""

    STAND = "stand"
    KNEEL = "kneel"
    GAIN_POWER = "gain_power"
    GAIN_GOLD = "gain_gold"
    MOVE_POWER = "move_power"
    DISCARD_POWER = "discard_power"
    DRAW = "draw"
    KILL = "kill"
    DISCARD = "discard"
    DISCARD_FROM_HAND = "discard_from_hand"
    RETURN_TO_HAND = "return_to_hand"
    RETURN_TO_SHADOWS = "return_to_shadows"
    PUT_INTO_PLAY = "put_into_play"
    CANCEL = "cancel"
    SAVE = "save"
    STR_MOD = "str_mod"
    ICON_MOD = "icon_mod"
    KEYWORD_MOD = "keyword_mod"
    SACRIFICE = "sacrifice"
    INCOME_MOD = "income_mod"
    RESERVE_MOD = "reserve_mod"
    INITIATIVE_MOD = "initiative_mod"
    CLAIM_MOD = "claim_mod"
    PROHIBIT = "prohibit"
    ATTACHMENT_RESTRICTION = "attachment_restriction"
    PLACE_TOKEN = "place_token"
    SHUFFLE_DECK = "shuffle_deck"


class Zone(Enum):
    """An out-of-play area a card can be put into play from (Rules Reference, "Put into Play")."""

    HAND = "hand"
    DISCARD_PILE = "discard_pile"
    DEAD_PILE = "dead_pile"
    DRAW_DECK = "draw_deck"
    SHADOWS = "shadows"


class Duration(Enum):
    """How long a lasting effect lasts."""

    UNTIL_END_OF_CHALLENGE = "challenge"
    UNTIL_END_OF_PHASE = "phase"
    UNTIL_END_OF_ROUND = "round"


class Period(Enum):
    """The period of a limit or maximum."""

    CHALLENGE = "challenge"
    PHASE = "phase"
    ROUND = "round"
    GAME = "game"


class LimitKind(Enum):
    """``Limit`` counts per copy of the ability; ``Max`` per title per player."""

    LIMIT = "limit"
    MAX = "max"


class Keyword(Enum):
    """The keywords of the game (Rules Reference, "Keywords")."""

    AMBUSH = "ambush"
    ASSAULT = "assault"
    BESTOW = "bestow"
    INSIGHT = "insight"
    INTIMIDATE = "intimidate"
    LIMITED = "limited"
    NO_ATTACHMENTS = "no_attachments"
    PILLAGE = "pillage"
    PRIZED = "prized"
    RENOWN = "renown"
    SHADOW = "shadow"
    STEALTH = "stealth"
    TERMINAL = "terminal"


@dataclass(frozen=True)
class Subject:
    """A filter over cards or players.

    Parameters
    ----------
    scope
        Control/ownership relative to the ability's controller (or ``self``,
        ``attached``); for player subjects ``you``/``opponent``/``any_player``.
    card_type
        The card type named, ``None`` for a player subject.
    traits, factions
        Required traits (any of) and factions (any of); empty means no filter.
    qualifiers
        Further recognised qualifiers, canonical lower-case words such as
        ``standing``, ``kneeling``, ``participating``, ``attacking``, ``unique``,
        ``non-limited``, ``other``.
    """

    scope: Scope = Scope.ANY
    card_type: CardKind | None = None
    traits: tuple[str, ...] = ()
    factions: tuple[str, ...] = ()
    qualifiers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Target:
    """What a cost or an effect acts on: a reference plus a filter."""

    ref: TargetRef = TargetRef.SELF
    subject: Subject = field(default_factory=Subject)


@dataclass(frozen=True)
class Trigger:
    """The triggering condition of a reaction or interrupt.

    ``subject`` is the card (or player) the condition is about; ``phase`` a
    "during the X phase" restriction; ``challenge`` the challenge type named;
    ``conditions`` further recognised qualifiers in canonical form (e.g.
    ``self participating``, ``as attacker``, ``by 5 or more str``, ``unopposed``).
    """

    event: EventKind
    subject: Subject = field(default_factory=Subject)
    phase: Phase | None = None
    challenge: ChallengeType | None = None
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Cost:
    """One cost; ``amount`` ``None`` means a variable (X) amount."""

    kind: CostKind
    target: Target = field(default_factory=Target)
    amount: int | None = 1


@dataclass(frozen=True)
class Effect:
    """One effect; ``amount`` ``None`` means a variable (X) amount.

    ``source`` is used by ``move_power`` (where the power comes from);
    ``from_zones`` by ``put_into_play`` (the zones the card may come from,
    as printed: "from your hand or discard pile" gives two; empty when the
    text names none);
    ``prohibited`` by ``prohibit`` (what cannot happen to the target);
    ``challenge`` by ``icon_mod``; ``keyword`` by ``keyword_mod``.
    ``then``: this is the first effect after the word "then": it and the
    effects after it resolve only if the effects before it resolved in full
    (The word "Then").
    """

    kind: EffectKind
    amount: int | None = 1
    target: Target = field(default_factory=Target)
    source: Target | None = None
    duration: Duration | None = None
    prohibited: EventKind | None = None
    challenge: ChallengeType | None = None
    keyword: Keyword | None = None
    optional: bool = False
    from_zones: tuple[Zone, ...] = ()
    then: bool = False


@dataclass(frozen=True)
class Limit:
    """``Limit N per period`` (per copy) or ``Max N per period`` (per title)."""

    count: int
    period: Period
    kind: LimitKind = LimitKind.LIMIT


@dataclass(frozen=True)
class Ability:
    """One ability of a card.

    ``text`` is the normalised source text the ability came from; ``compiled``
    and ``reasons`` say what was not understood (each reason names the phrase).
    ``cannot_be_canceled``: the text ends with "(Cannot be canceled.)" (Cancel).
    """

    type: AbilityType
    trigger: Trigger | None = None
    costs: tuple[Cost, ...] = ()
    effects: tuple[Effect, ...] = ()
    limit: Limit | None = None
    phase: Phase | None = None
    optional: bool = True
    keyword: Keyword | None = None
    keyword_value: int | None = None
    compiled: Compiled = Compiled.FULL
    reasons: tuple[str, ...] = ()
    text: str = ""
    cannot_be_canceled: bool = False
