"""Structured card abilities: the frozen, typed ability tree the card-text reader produces.

An :class:`Ability` is one ability of one card: its type, triggering condition
(:class:`Trigger`), costs (:class:`Cost`), effects (:class:`Effect`), limit,
play restrictions (:class:`Condition`), and an honest account of the text that
was *not* read (:class:`Unread`, one record per clause, with what it could
change).  Every qualifier is a typed field: no module parses a string of this
tree again.  Enum values are lower-case strings so that override files and
JSON output can name them.

How to read the tree
--------------------
* A card filter is a :class:`Subject`: every field narrows the cards (or
  players) it names; a field at its default does not filter.  Two filters of
  the same field list alternatives ("any of"), different fields must all hold.
* A target is a :class:`Target`: *how* the cost or effect designates what it
  acts on (``ref``: this card, the chosen card, each card, the card of the
  trigger, ...) plus the filter.
* ``compiled`` is ``full`` exactly when ``unread`` is empty: every word of the
  ability then has a meaning in the tree.  Otherwise each :class:`Unread`
  names the phrase, its grammatical role (:class:`ClauseRole`) and whether
  leaving it out only narrows what the ability can do
  (:attr:`Unread.narrows`): a loop found without such a clause is still a
  loop; a "no loop" answer that depends on it is unknown.
* :func:`set_fields` lists the fields of a node that are not at their default,
  so a consumer can refuse (as "not modelled") any field it does not know.

Examples
--------
>>> a = Ability(type=AbilityType.ACTION, costs=(Cost(CostKind.KNEEL, Target(TargetRef.SELF)),),
...             effects=(Effect(EffectKind.GAIN_GOLD, amount=1),))
>>> a.compiled is Compiled.FULL
True
>>> sorted(set_fields(Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, standing=True)))
['card_type', 'scope', 'standing']
>>> Unread("or location", ClauseRole.ALTERNATIVE).narrows
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum

__all__ = [
    "Ability",
    "AbilityType",
    "CardKind",
    "ChallengeRole",
    "ChallengeType",
    "ClauseRole",
    "Cmp",
    "Compare",
    "Compiled",
    "Condition",
    "CondWord",
    "Cost",
    "CostKind",
    "Duration",
    "Effect",
    "EffectKind",
    "EventKind",
    "INSTANT_EFFECTS",
    "Keyword",
    "Limit",
    "LimitKind",
    "Means",
    "NARROWING_ROLES",
    "Named",
    "Period",
    "Phase",
    "PlayerRole",
    "Quantity",
    "QuantityKind",
    "Scope",
    "Stat",
    "Subject",
    "Target",
    "TargetRef",
    "TestKind",
    "Trigger",
    "Unread",
    "Zone",
    "describe_subject",
    "set_fields",
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
    """How much of an ability's printed text was read.

    ``full``: every clause; ``partial``: the ability's structure (trigger,
    costs, effects, limit) was read and each clause that was not is named
    (:class:`Unread`); ``unsupported``: nothing of its structure was read.
    """

    FULL = "full"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"


class Phase(Enum):
    """A game phase (for phase-restricted actions, triggers and conditions)."""

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
    """The kind of triggering condition a reaction or interrupt answers (also what a prohibition forbids)."""

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
    WOULD_BE_SACRIFICED = "would_be_sacrificed"
    RETURNED_TO_HAND = "returned_to_hand"
    WOULD_BE_RETURNED_TO_HAND = "would_be_returned_to_hand"
    GAIN_POWER = "gain_power"
    LOSE_POWER = "lose_power"
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
    SAVED = "saved"
    CHALLENGE_ENDS = "challenge_ends"
    WIN_INITIATIVE = "win_initiative"
    LOSE_INITIATIVE = "lose_initiative"
    REVEALED = "revealed"
    PUT_INTO_SHADOWS = "put_into_shadows"
    REMOVED_FROM_CHALLENGE = "removed_from_challenge"
    CONTROL_TAKEN = "control_taken"
    POWER_MOVED = "power_moved"
    NO_DEFENDERS = "no_defenders"
    PUT_INTO_PLAY = "put_into_play"
    ENTERS_ZONE = "enters_zone"
    PLAYED_OR_PUT_INTO_PLAY = "played_or_put_into_play"
    MARSHALED_OR_PLAYED = "marshaled_or_played"
    DECLARED = "declared"
    CHOSEN_AS_TARGET = "chosen_as_target"
    BECOMES_FIRST_PLAYER = "becomes_first_player"
    RESERVE_CHECKED = "reserve_checked"
    STR_INCREASED = "str_increased"


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
    DUPLICATE = "duplicate"


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
    COST = "cost"
    NEXT = "next"
    TREASURY = "treasury"
    OBJECT = "object"


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
    PUT_INTO_PLAY = "put_into_play"
    REVEAL = "reveal"
    MOVE_POWER = "move_power"
    SHUFFLE_INTO_DECK = "shuffle_into_deck"
    PLACE_TOKEN = "place_token"
    DISCARD_FROM_DECK = "discard_from_deck"
    REMOVE_FROM_CHALLENGE = "remove_from_challenge"
    MOVE_GOLD = "move_gold"


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
    TRAIT_MOD = "trait_mod"
    SACRIFICE = "sacrifice"
    INCOME_MOD = "income_mod"
    RESERVE_MOD = "reserve_mod"
    INITIATIVE_MOD = "initiative_mod"
    CLAIM_MOD = "claim_mod"
    PROHIBIT = "prohibit"
    ATTACHMENT_RESTRICTION = "attachment_restriction"
    COPY_LIMIT = "copy_limit"
    PLACE_TOKEN = "place_token"
    DISCARD_TOKENS = "discard_tokens"
    SHUFFLE_DECK = "shuffle_deck"
    LOSE_GOLD = "lose_gold"
    MOVE_GOLD = "move_gold"
    MOVE_CARD = "move_card"
    REMOVE_FROM_GAME = "remove_from_game"
    TAKE_CONTROL = "take_control"
    ATTACH = "attach"
    SEARCH_DECK = "search_deck"
    REVEAL = "reveal"
    LOOK_AT = "look_at"
    REMOVE_FROM_CHALLENGE = "remove_from_challenge"
    PARTICIPATE = "participate"
    REDUCE_COST = "reduce_cost"
    BLANK = "blank"
    NAME = "name"
    CHOOSE = "choose"
    INITIATE_CHALLENGE = "initiate_challenge"
    CONTRIBUTE_STR = "contribute_str"
    LOSE_POWER = "lose_power"
    RETURN_GOLD = "return_gold"
    DOMINANCE_MOD = "dominance_mod"
    CHOICE = "choice"
    PLAY_EVENT = "play_event"
    RESOLVE_ABILITY = "resolve_ability"
    MARSHAL = "marshal"
    PAY_GOLD = "pay_gold"
    DISCARD_GOLD = "discard_gold"
    PLAY_RESTRICTION = "play_restriction"
    END_CHALLENGE = "end_challenge"
    APPLY_CLAIM = "apply_claim"
    NO_KNEEL_TO_DECLARE = "no_kneel_to_declare"
    MUST_BE_DECLARED = "must_be_declared"
    REPEAT = "repeat"


class Zone(Enum):
    """An area a card is in, comes from or goes to (Rules Reference, "Put into Play", "Out of Play")."""

    HAND = "hand"
    DISCARD_PILE = "discard_pile"
    DEAD_PILE = "dead_pile"
    DRAW_DECK = "draw_deck"
    SHADOWS = "shadows"
    PLOT_DECK = "plot_deck"
    USED_PILE = "used_pile"
    PLAY = "play"
    OUT_OF_GAME = "out_of_game"
    TOP_OF_DECK = "top_of_deck"
    BOTTOM_OF_DECK = "bottom_of_deck"


class Duration(Enum):
    """How long a lasting effect lasts."""

    UNTIL_END_OF_CHALLENGE = "challenge"
    UNTIL_END_OF_PHASE = "phase"
    UNTIL_END_OF_ROUND = "round"
    WHILE_IN_PLAY = "while_in_play"
    UNTIL_LEAVES_PLAY = "until_leaves_play"
    UNTIL_STANDS = "until_stands_or_leaves_play"
    UNTIL_END_OF_GAME = "game"
    UNTIL_NEW_PLOT = "until_you_reveal_a_new_plot_card"
    UNTIL_NEXT_PHASE = "until_the_beginning_of_the_next_phase"
    NEXT_CHALLENGE = "next_challenge_initiated_this_phase"


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


class ChallengeRole(Enum):
    """A card's part in the current challenge (a filter: "participating", "attacking", ...)."""

    PARTICIPATING = "participating"
    ATTACKING = "attacking"
    DEFENDING = "defending"
    NOT_PARTICIPATING = "not_participating"
    NOT_ATTACKING = "not_attacking"
    NOT_DEFENDING = "not_defending"
    ATTACKING_ALONE = "attacking_alone"
    DEFENDING_ALONE = "defending_alone"
    PARTICIPATING_ALONE = "participating_alone"  # "attacking or defending alone": the only one on its side


class PlayerRole(Enum):
    """Which player: their part in the current challenge ("the losing opponent", "as the attacking
    player"), the first player, or ``that``: the player the ability named before ("that player")."""

    ATTACKING = "attacking"
    DEFENDING = "defending"
    WINNING = "winning"
    LOSING = "losing"
    FIRST = "first"
    THAT = "that"


class Means(Enum):
    """How a triggering event came about ("by assault", "using ambush", "by a card effect")."""

    AMBUSH = "ambush"
    ASSAULT = "assault"
    PILLAGE = "pillage"
    STEALTH = "stealth"
    CLAIM = "claim"
    CARD_EFFECT = "card_effect"
    SHADOWS = "shadows"
    INSIGHT = "insight"
    RENOWN = "renown"
    MARSHALING = "marshaling"
    AT_RANDOM = "at_random"
    FRAMEWORK = "framework"
    PLAYING = "playing"
    MARSHALING_OR_PLAYING = "marshaling_or_playing"
    OUT_OF_SHADOWS = "out_of_shadows"
    AMBUSH_OR_OUT_OF_SHADOWS = "ambush_or_out_of_shadows"


class Stat(Enum):
    """A number of a card or player that a filter or condition compares."""

    COST = "cost"
    PRINTED_COST = "printed_cost"
    STR = "str"
    PRINTED_STR = "printed_str"
    POWER = "power"
    GOLD = "gold"
    INITIATIVE = "initiative"
    CARDS_IN_HAND = "cards_in_hand"
    RESERVE = "reserve"
    ATTACHMENTS = "attachments"
    TOKENS = "tokens"
    ICONS = "icons"
    TRAITS = "traits"
    KEYWORDS = "keywords"
    INFLUENCE = "influence"
    CLAIM = "claim"
    MARGIN = "margin"
    GOLD_VALUE = "gold_value"


class Named(Enum):
    """What a "name a ..." effect names."""

    TRAIT = "trait"
    CHALLENGE_TYPE = "challenge_type"
    CARD = "card"
    CARDTYPE = "cardtype"
    FACTION = "faction"
    EVENT = "event"


class Cmp(Enum):
    """A comparison operator."""

    LE = "le"
    GE = "ge"
    LT = "lt"
    GT = "gt"
    EQ = "eq"
    LOWEST = "lowest"
    HIGHEST = "highest"


@dataclass(frozen=True)
class Compare:
    """``stat op value`` ("printed cost 3 or lower": ``printed_cost le 3``).

    ``value`` ``None`` is X (defined by the ability's :class:`Quantity`);
    ``than`` compares with the same stat of another card ("lower printed cost
    than that character": ``than=trigger``) instead of a constant (of another
    player in a :class:`Condition`: the player its ``subject`` names).
    ``lowest`` / ``highest``: the card has the lowest (highest) value among the
    cards the rest of the filter names ("the character with the lowest STR").
    """

    stat: Stat
    op: Cmp
    value: int | None = None
    than: TargetRef | None = None


@dataclass(frozen=True)
class Subject:
    """A filter over cards or players.

    Every field at its default does not filter; fields must all hold; the
    members of a tuple field are alternatives ("any of") unless the field says
    otherwise.

    Parameters
    ----------
    scope
        Control/ownership relative to the ability's controller (or ``self``,
        ``attached``); for player subjects ``you``/``opponent``/``any_player``.
    card_type
        The card type named, ``None`` for a player subject; ``other_types``:
        further card types ("a character or location": ``character`` and
        ``(location,)``).
    traits, factions
        Required traits (any of) and factions (any of).
    not_traits, not_factions, not_types
        "non-«Trait»", "non-[faction]", "non-character": none of these.
    other
        "another" / "other": not the card whose ability this is.
    standing
        ``True`` "standing", ``False`` "kneeling".
    role
        Its part in the current challenge (participating, attacking, ...).
    unique, loyal, limited
        ``True`` "unique"/"loyal"/"limited", ``False`` "non-unique"/...
    icons, lacks_icons
        Challenge icons it has (each of) / does not have ("without a [power] icon").
    keywords, lacks_keywords
        Keywords it has (any of) / does not have.
    compare
        Comparisons that must all hold (printed cost 3 or lower, 1 or more power...).
    zone
        Where the card is (``None``: in play, or the natural place of a player
        subject); owner scopes (``you_own``) name whose zone.
    attachments
        ``True`` "with an attachment", ``False`` "with no attachments".
    attachment_traits
        "with a «Weapon» attachment": one of its attachments has one of these traits.
    player_role
        For a player subject: which player ("the losing opponent": ``opponent``
        and ``losing``); for a card subject: the role of the player its scope
        names ("controlled by the losing opponent").
    shares_trait_with
        "that shares a «Trait» with that character": the card the ref names.
    in_faction
        ``True`` "in-faction" (of the faction of its controller's faction card), ``False`` "out-of-faction".
    title
        A card named by its title in the text ("stand Old Bear Mormont", "while you control Aegon Targaryen"):
        a card with that title (Card Titles), as printed.
    named_title
        "events with that title": the card has the title the ability named ("name an event").
    owner
        Who owns the card when ``scope`` says who controls it ("a character you own and control": scope
        ``you_control``, owner ``you_own``).
    chosen
        ``False``: "each character not chosen": not among the cards the ability chose before.
    same_title
        "with the same title as the sacrificed card": the card has the title of the card the ref names.
    total
        "any number of locations with total printed cost 3 or lower": comparisons of the sum of the stat over all
        the cards the target names together (each of them alone need not be the one compared).
    """

    scope: Scope = Scope.ANY
    card_type: CardKind | None = None
    traits: tuple[str, ...] = ()
    factions: tuple[str, ...] = ()
    other_types: tuple[CardKind, ...] = ()
    not_traits: tuple[str, ...] = ()
    not_factions: tuple[str, ...] = ()
    not_types: tuple[CardKind, ...] = ()
    other: bool = False
    standing: bool | None = None
    role: ChallengeRole | None = None
    unique: bool | None = None
    loyal: bool | None = None
    limited: bool | None = None
    icons: tuple[ChallengeType, ...] = ()
    lacks_icons: tuple[ChallengeType, ...] = ()
    keywords: tuple[Keyword, ...] = ()
    lacks_keywords: tuple[Keyword, ...] = ()
    compare: tuple[Compare, ...] = ()
    zone: Zone | None = None
    attachments: bool | None = None
    attachment_traits: tuple[str, ...] = ()
    player_role: PlayerRole | None = None
    shares_trait_with: TargetRef | None = None
    in_faction: bool | None = None
    title: str | None = None
    named_title: bool = False
    owner: Scope | None = None
    chosen: bool | None = None
    same_title: TargetRef | None = None
    total: tuple[Compare, ...] = ()


@dataclass(frozen=True)
class Target:
    """What a cost or an effect acts on: a reference plus a filter.

    ``ref``: ``self`` (this card), ``attached`` (the card this attachment is
    on), ``chosen`` (cards chosen when the ability resolves), ``each`` (every
    card, or every player, matching), ``trigger`` (the card or player of the
    triggering condition), ``cost`` (the card chosen to pay a cost: "kneel a
    «Knight» to stand it"), ``faction_card``, ``player`` (the player the
    subject names), ``event`` (the ability or event a cancel answers).
    ``also``: alternatives the text allows as well ("~ or a «Small Council»
    character").
    """

    ref: TargetRef = TargetRef.SELF
    subject: Subject = field(default_factory=Subject)
    also: tuple[Target, ...] = ()

    @property
    def is_player(self) -> bool:
        """This target names players, not cards ("you", "each opponent", "that player")."""
        return self.subject.card_type is None and self.ref in (
            TargetRef.PLAYER, TargetRef.EACH, TargetRef.CHOSEN, TargetRef.TRIGGER)


class QuantityKind(Enum):
    """What a variable amount counts."""

    COUNT = "count"
    STAT = "stat"
    TRIGGER = "trigger"


@dataclass(frozen=True)
class Quantity:
    """A variable amount ("for each «Knight» character you control", "X is that card's printed cost").

    ``count``: the number of cards matching ``subject`` (divided by ``per``:
    "for every 2 cards"); ``stat``: ``stat`` of ``target`` (divided by ``per`` too: "for every 3 gold in your gold
    pool"); ``trigger``: the number of cards the triggering
    event counted ("after an opponent draws 1 or more cards, ... draw that many cards"); ``plus`` is added ("X is 2
    higher than ...").
    """

    kind: QuantityKind
    subject: Subject | None = None
    target: Target | None = None
    stat: Stat | None = None
    per: int = 1
    token: str | None = None
    plus: int = 0


class CondWord(Enum):
    """The word that introduces a condition."""

    IF = "if"
    WHILE = "while"
    UNLESS = "unless"
    DURING = "during"


class TestKind(Enum):
    """What a :class:`Condition` tests."""

    __test__ = False  # not a pytest test class

    EXISTS = "exists"
    NOT_EXISTS = "not_exists"
    IS = "is"
    IS_NOT = "is_not"
    PHASE = "phase"
    NOT_PHASE = "not_phase"
    CHALLENGE = "challenge"
    COMPARE = "compare"
    DID = "did"
    DID_NOT = "did_not"
    DOES = "does"
    WON_CHALLENGE = "won_challenge"
    LOST_CHALLENGE = "lost_challenge"
    FIRST_PLAYER = "first_player"
    NOT_FIRST_PLAYER = "not_first_player"
    ABLE = "able"
    ALL = "all"


@dataclass(frozen=True)
class Condition:
    """A condition ("if there is a «Winter» plot card revealed", "while ~ is attacking").

    ``test`` says what is tested:

    * ``exists`` / ``not_exists``: at least ``count`` (default 1) / no cards
      (or players) match ``subject`` ("you control a «Lord» character",
      "there is a «Winter» plot card revealed" (``zone=play``, a plot);
    * ``is`` / ``is_not``: the card of ``target`` matches ``subject`` ("~ is
      attacking", "it is a «Knight» character");
    * ``phase``: it is ``phase``; ``challenge``: during a challenge (of type
      ``challenge`` when given; ``subject`` a card that must be participating);
    * ``compare``: ``compare`` holds for ``target`` (a card or a player:
      "you have 3 or more cards in hand");
    * ``did`` / ``did_not``: "if you do" / "if you do not" (the previous effect or choice);
    * ``won_challenge`` / ``lost_challenge``: the player of ``target`` won / lost
      the challenge (``challenge`` its type when named);
    * ``able``: "if able";
    * ``does``: the player of ``target`` resolves ``effects`` ("unless you discard 1 gold from it": the
      effect is avoided when you do);
    * ``all``: every condition of ``all_of`` holds ("if you control a «Ranger» character, a «Steward»
      character, and a «Builder» character": one ``exists`` per card, each with this condition's word).

    ``period``: "this phase" ("if you have lost 2 or more challenges this phase"); ``negated``: the test
    is negated ("if you have not lost a [power] challenge this round").
    """

    word: CondWord
    test: TestKind
    target: Target | None = None
    subject: Subject | None = None
    count: int = 1
    phase: Phase | None = None
    challenge: ChallengeType | None = None
    compare: Compare | None = None
    period: Period | None = None
    negated: bool = False
    effects: tuple[Effect, ...] = ()
    all_of: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class Trigger:
    """The triggering condition of a reaction or interrupt.

    ``subject`` is the card (or player) the event is about: "after ~ is
    knelt" (``self``), "after you win a challenge" (the player ``you``).

    Parameters
    ----------
    event, also_events
        The event, and further events that also trigger ("is sacrificed or
        killed": ``killed`` and ``(sacrificed,)``).
    phase
        "during the X phase" (also the phase a phase-begins/ends event names).
    challenge, also_challenges
        The challenge type named ("[military] or [power] challenge").
    unopposed, by_str
        "unopposed"; "by N or more STR".
    participants
        "in which ~ is attacking", "in which you control a participating
        «Knight»": cards that must take that part in the challenge.
    as_role
        "as the attacking player".
    means
        How the event came about ("by assault", "using ambush").
    from_zone, to_zone
        "from your hand"; "into your dead pile".
    in_challenge
        "during a challenge".
    amount
        "N or more" (cards drawn, power gained); ``None``: any amount.
    object
        The other card of the event: the card discarded using pillage.
    also_zones
        Further zones of ``from_zone`` ("from your hand or deck": ``hand`` and ``(draw_deck,)``).
    participant_count
        How many cards must fit the one filter of ``participants`` ("in which you control 2 or more attacking
        «Dothraki» characters": 2).
    """

    event: EventKind
    subject: Subject = field(default_factory=Subject)
    phase: Phase | None = None
    challenge: ChallengeType | None = None
    also_events: tuple[EventKind, ...] = ()
    also_challenges: tuple[ChallengeType, ...] = ()
    unopposed: bool = False
    by_str: int | None = None
    participants: tuple[Subject, ...] = ()
    as_role: PlayerRole | None = None
    means: Means | None = None
    from_zone: Zone | None = None
    to_zone: Zone | None = None
    in_challenge: bool = False
    amount: int | None = None
    object: Subject | None = None
    also_zones: tuple[Zone, ...] = ()
    participant_count: int = 1


@dataclass(frozen=True)
class Cost:
    """One cost; ``amount`` ``None`` means a variable (X) amount (``x`` says what it is when read).

    ``destination``/``source``: where power moves ("move 1 power from your faction card to a character"); for
    ``move_gold`` the ``target`` is the card the gold goes to and ``source`` where it comes from;
    ``token``: the name of the tokens discarded.
    """

    kind: CostKind
    target: Target = field(default_factory=Target)
    amount: int | None = 1
    x: Quantity | None = None
    destination: Target | None = None
    source: Target | None = None
    token: str | None = None


@dataclass(frozen=True)
class Effect:
    """One effect; ``amount`` ``None`` means a variable (X) amount.

    ``source`` is used by ``move_power``/``move_gold`` (where it comes from)
    and ``move_card`` (the card's zone is in its subject);
    ``from_zones`` by ``put_into_play`` (the zones the card may come from,
    as printed: "from your hand or discard pile" gives two; empty when the
    text names none); ``to_zone`` by ``move_card`` / ``return_to_hand`` of a
    card out of play (where it goes);
    ``prohibited`` by ``prohibit`` (what cannot happen to the target);
    ``challenge`` by ``icon_mod``; ``keyword`` by ``keyword_mod``; ``trait``
    by ``trait_mod``; ``amount`` sign for modifiers (``-1`` loses).
    ``then``: this is the first effect after the word "then": it and the
    effects after it resolve only if the effects before it resolved in full
    (The word "Then").
    ``condition``: this effect (and only it) resolves if the condition holds
    ("then, if it is a «Knight», stand it").
    ``x``: what a variable amount is ("for each ...", "X is ...").
    ``up_to``: "up to N" targets; ``chooser``: the player who chooses
    ("the losing opponent chooses"); ``destination``: where an attachment or
    power goes (``attach``).
    ``options``: for ``choice`` ("either: A, or B"), each option's effects.
    ``prohibited`` on an effect that is not ``prohibit``: what cannot answer it
    ("kill it (cannot be saved)": ``saved``).
    ``knelt``: the card enters play knelt; ``controller``: under whose control
    ("under your control"); ``token``: the name of the tokens placed or
    discarded; ``at_random``; ``named``: what a ``name`` effect names;
    ``means``: how the card of a ``next`` target is brought in ("the next
    character you marshal"); ``at_end_of``: a delayed effect ("at the end of
    the phase, ..."); ``phase``: the phase a lasting effect is limited to.
    ``named`` on an effect other than ``name``: it is about the challenge type chosen or named before ("cannot be
    declared as an attacker in challenges of that type").
    ``event`` by ``no_kneel_to_declare`` / ``must_be_declared``: ``declared_attacker``,
    ``declared_defender`` or ``declared`` (as either) ("does not kneel when declared as an attacker", "must be
    declared as a defender").
    ``replaces``: the effect takes the place of what that event does ("instead of the normal claim effects, kill
    that character": ``claim_applied``).
    ``keyword_value`` by ``keyword_mod``: the keyword's value ("gains shadow (3)"); ``keyword_x``: the value is X
    (the ability's ``x`` says what it is: "it gains shadow (x). x is its printed cost").
    ``maximum``: a variable amount is at most this ("gain 1 power for each defending character (to a maximum of 3
    power)").
    ``challenge`` by ``participate``: only in a challenge of that type ("participate in a [military] challenge").
    ``role`` by ``participate``: the part the card takes in the challenge ("put ~ into play ..., participating as an
    attacker": ``attacking``; ``None``: on your side).
    ``repeat`` ("you may kneel a character to initiate this effect again"): the ability's effects resolve again,
    from the first (its ``condition`` says what the player pays for it: ``does``).
    ``minus``: a modifier of a variable amount takes it away ("gets -X STR"; ``amount`` is then ``None``, and
    the sign is here).
    ``instead``: this effect replaces the effect before it when its ``condition`` holds ("gain 1 gold.
    (2 gold instead if ...)"); with ``instead_of``, it replaces the card going to that zone ("return ~
    to your hand instead of placing it in your discard pile").
    """

    kind: EffectKind
    amount: int | None = 1
    target: Target = field(default_factory=Target)
    source: Target | None = None
    duration: Duration | None = None
    prohibited: EventKind | None = None
    challenge: ChallengeType | None = None
    keyword: Keyword | None = None
    trait: str | None = None
    optional: bool = False
    from_zones: tuple[Zone, ...] = ()
    to_zone: Zone | None = None
    then: bool = False
    condition: Condition | None = None
    x: Quantity | None = None
    up_to: bool = False
    chooser: Target | None = None
    destination: Target | None = None
    options: tuple[tuple[Effect, ...], ...] = ()
    phase: Phase | None = None
    knelt: bool = False
    controller: Scope | None = None
    token: str | None = None
    at_random: bool = False
    named: Named | None = None
    means: Means | None = None
    at_end_of: Period | None = None
    instead: bool = False
    instead_of: Zone | None = None
    event: EventKind | None = None
    replaces: EventKind | None = None
    role: ChallengeRole | None = None
    keyword_value: int | None = None
    keyword_x: bool = False
    maximum: int | None = None
    minus: bool = False


#: Effects that happen at once (Lasting Effects): a duration in their sentence governs the other effects of it ("stand
#: that character and take control of it until the end of the phase": only the control lasts), so the reader never
#: gives one of these a duration.  (Removing a card from the game is not one of them: "remove it from the game until the
#: beginning of the next phase" lasts.)
INSTANT_EFFECTS = frozenset(EffectKind(k) for k in """
stand kneel gain_gold draw gain_power discard_from_hand kill discard sacrifice return_to_hand return_to_shadows
reveal resolve_ability move_card put_into_play save move_power discard_power lose_power place_token
discard_tokens lose_gold move_gold return_gold pay_gold discard_gold shuffle_deck search_deck attach
remove_from_challenge choose end_challenge apply_claim cancel""".split())


@dataclass(frozen=True)
class Limit:
    """``Limit N per period`` (per copy) or ``Max N per period`` (per title)."""

    count: int
    period: Period
    kind: LimitKind = LimitKind.LIMIT


class ClauseRole(Enum):
    """The grammatical position of a clause that was not read: what it could change.

    * ``trigger``: the whole triggering condition;
    * ``trigger_restriction``: a qualifier of the triggering condition;
    * ``target_restriction``: a qualifier of a target (or of the trigger's card);
    * ``alternative``: an "or" alternative (another target, event, cost or
      option) the ability also allows;
    * ``effect``: an effect that must resolve; ``optional_effect``: one the
      player may decline ("you may");
    * ``condition``: a play restriction or an "if"/"while"/"unless";
    * ``cost``; ``replacement``: an "instead" clause; ``duration``;
      ``limit``; ``definition``: what X is; ``ability``: a whole ability (an
      unknown precursor or sentence of a constant ability).
    """

    TRIGGER = "trigger"
    TRIGGER_RESTRICTION = "trigger_restriction"
    TARGET_RESTRICTION = "target_restriction"
    ALTERNATIVE = "alternative"
    EFFECT = "effect"
    OPTIONAL_EFFECT = "optional_effect"
    CONDITION = "condition"
    COST = "cost"
    REPLACEMENT = "replacement"
    DURATION = "duration"
    LIMIT = "limit"
    DEFINITION = "definition"
    ABILITY = "ability"


#: Roles whose clause, left out, only takes options away from the ability: what the read ability can do, the
#: printed one can do too (an alternative target, event, cost or option; an effect the player may decline).
NARROWING_ROLES = frozenset({ClauseRole.ALTERNATIVE, ClauseRole.OPTIONAL_EFFECT})


@dataclass(frozen=True)
class Unread:
    """A clause of the printed text that is not in the tree.

    ``phrase`` is the exact (normalised) text; ``role`` its grammatical
    position.  :attr:`narrows`: leaving it out only narrows what the ability
    can do (so a loop found without it is a loop of the printed card too).
    """

    phrase: str
    role: ClauseRole

    @property
    def narrows(self) -> bool:
        """Leaving this clause out only takes options away (see :data:`NARROWING_ROLES`)."""
        return self.role in NARROWING_ROLES

    def describe(self) -> str:
        """One line for reports: ``<role> not read: '<phrase>'``."""
        return f"{self.role.value.replace('_', ' ')} not read: '{self.phrase}'"


@dataclass(frozen=True)
class Ability:
    """One ability of a card.

    ``text`` is the normalised source text the ability came from; ``compiled``
    and ``unread`` say what was not read (:attr:`reasons` renders them).
    ``phase``: a phase-restricted action ("Marshaling Action:") or "during
    the X phase" at its start; ``conditions``: play restrictions ("if ...,",
    "during a challenge in which ..."); ``any_player``: "Any player may
    initiate this ability"; ``cannot_be_canceled``: "(Cannot be canceled.)"
    (Cancel); ``x_not``: "(X cannot be 0)": the X its player picks (the gold discarded for it, ...) is never
    this value.
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
    text: str = ""
    cannot_be_canceled: bool = False
    conditions: tuple[Condition, ...] = ()
    any_player: bool = False
    x: Quantity | None = None
    keyword_except: tuple[str, ...] = ()
    unread: tuple[Unread, ...] = ()
    x_not: int | None = None

    @property
    def reasons(self) -> tuple[str, ...]:
        """The unread clauses, one line each (empty exactly when ``compiled`` is ``full``)."""
        return tuple(u.describe() for u in self.unread)


_CMP_WORDS = {Cmp.LE: "or lower", Cmp.GE: "or higher", Cmp.LT: "lower than", Cmp.GT: "higher than", Cmp.EQ: "equal to",
              Cmp.LOWEST: "(the lowest)", Cmp.HIGHEST: "(the highest)"}


def describe_subject(s: Subject) -> str:
    """A short readable rendering of a filter, without its scope ("standing unique [stark] «Knight» character").

    Used by messages and graph labels; it names every field that filters.
    """
    bits: list[str] = []
    if s.other:
        bits.append("other")
    if s.standing is not None:
        bits.append("standing" if s.standing else "kneeling")
    if s.role is not None:
        bits.append(s.role.value.replace("_", "-"))
    if s.chosen is False:
        bits.append("not chosen")
    for name in ("unique", "loyal", "limited"):
        v = getattr(s, name)
        if v is not None:
            bits.append(name if v else f"non-{name}")
    bits += [f"non-«{t}»" for t in s.not_traits] + [f"non-[{f}]" for f in s.not_factions]
    bits += [f"non-{k.value}" for k in s.not_types]
    bits += [f"[{f}]" for f in s.factions]
    if s.traits:
        bits.append(" or ".join(f"«{t}»" for t in s.traits))
    types = [k.value for k in ((s.card_type,) if s.card_type else ()) + s.other_types]
    bits.append(" or ".join(types) if types else "card")
    for c in s.compare:
        val = str(c.value) if c.value is not None else (f"that of {c.than.value}" if c.than else "x")
        bits.append(f"with {c.stat.value.replace('_', ' ')} {val} {_CMP_WORDS[c.op]}")
    bits += [f"with a [{i.value}] icon" for i in s.icons] + [f"without a [{i.value}] icon" for i in s.lacks_icons]
    bits += [f"with {k.value}" for k in s.keywords] + [f"without {k.value}" for k in s.lacks_keywords]
    if s.attachments is not None:
        bits.append("with an attachment" if s.attachments else "with no attachments")
    bits += [f"with a «{t}» attachment" for t in s.attachment_traits]
    if s.zone is not None:
        bits.append(f"in {s.zone.value.replace('_', ' ')}")
    if s.player_role is not None:
        bits.append(f"({s.player_role.value} player)")
    if s.title is not None:
        bits.append(f"named {s.title}")
    if s.named_title:
        bits.append("with the title named")
    if s.same_title is not None:
        bits.append(f"with the title of the {s.same_title.value} card")
    if s.owner is not None:
        bits.append(s.owner.value.replace("_", " "))
    for c in s.total:
        bits.append(f"with total {c.stat.value.replace('_', ' ')} {c.value} {_CMP_WORDS[c.op]}")
    return " ".join(bits)


def set_fields(node: object) -> frozenset[str]:
    """The names of the dataclass fields of ``node`` that are not at their default.

    A consumer that models some fields of a node can refuse the others::

        extra = set_fields(subject) - {"scope", "card_type", "traits"}
    """
    out: set[str] = set()
    for f in dataclasses.fields(node):  # type: ignore[arg-type]
        v = getattr(node, f.name)
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            out.add(f.name)
            continue
        if v != default:
            out.add(f.name)
    return frozenset(out)
