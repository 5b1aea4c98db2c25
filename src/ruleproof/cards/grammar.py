"""The card-text grammar: Lark's LALR(1) parser over ``ability.lark`` and the reader that turns its trees
into the typed ability tree of :mod:`ruleproof.cards.abilities`.

One clause at a time: a triggering condition (``trigger``), a cost list (``costs``), an effect sentence
(``sentence``), a parenthetical (``paren``), a play restriction (``condition``) or the definition of X
(``definition``).  :func:`read` returns the typed nodes or raises :class:`NotRead` with the character
offset where reading stopped; the caller (:mod:`ruleproof.cards.compiler`) decides what the unread part
was.  Pronouns ("it", "that character", "that player") are resolved while reading, in textual order,
through a :class:`Context` shared by the clauses of one ability.

The parser is built once per process (LALR tables take about a second); parsing a clause takes well
under a millisecond.

Examples
--------
>>> ctx = Context(CardKind.CHARACTER)
>>> effects = read("stand a «Knight» character you control", "sentence", ctx)
>>> effects[0].kind.value, effects[0].target.subject.traits, effects[0].target.subject.scope.value
('stand', ('Knight',), 'you_control')
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator, Sequence

import lark
from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import Lexer, LexerState

from ruleproof.cards.abilities import (
    INSTANT_EFFECTS,
    CardKind,
    ChallengeRole,
    ChallengeType,
    Cmp,
    Compare,
    Condition,
    CondWord,
    Duration,
    Effect,
    EffectKind,
    EventKind,
    Keyword,
    Limit,
    LimitKind,
    Means,
    Named,
    Period,
    Phase,
    PlayerRole,
    Quantity,
    QuantityKind,
    Scope,
    Stat,
    Subject,
    Target,
    TargetRef,
    TestKind,
    Trigger,
    Zone,
    set_fields,
)
from ruleproof.errors import InputError
from ruleproof.files import write_atomic

__all__ = ["GRAMMAR_FILE", "VERBS", "Context", "NotRead", "Paren", "cache_path", "grammar_words", "parser", "read",
           "titles", "tokens"]

#: The grammar file (shipped in the package).
GRAMMAR_FILE = Path(__file__).with_name("ability.lark")
#: The vendored card pool, whose titles a text may name (the pool module's default; it imports this module).
POOL_DIR = Path(__file__).resolve().parent.parent / "data" / "agot-cards"
_STARTS = ("trigger", "costs", "sentence", "paren", "limit", "condition", "definition", "restriction", "copy_limit")

_TOKEN_RE = re.compile(r"«[^»]*»|‹[^›]*›|\[[a-z]+\]|~|\d+|non-|'s\b|'|[a-z]+(?:[-/][a-z]+)*|[,.:;()\"+\-]|\S")
_ICONS = {"[military]": ChallengeType.MILITARY, "[intrigue]": ChallengeType.INTRIGUE, "[power]": ChallengeType.POWER}
# words that start a verb phrase / a noun phrase: "and" before them is a coordination of verb phrases (ANDV) or
# of noun phrases (ANDNP, ORNP); any other "and"/"or" joins words inside a phrase
VERBS = frozenset("""
stand stands kneel kneels kill kills sacrifice sacrifices discard discards save choose chooses gain gains draw draws
pay move moves return returns put puts place places shuffle shuffles search reveal reveals add adds look take takes
attach remove cancel have name initiate raise reduce treat get gets lose loses cannot does is are must may
""".split())
_PLURALS = frozenset({"characters", "locations", "attachments", "cards"})
_NP_START = frozenset("a an another each all up any ~ it him her them that those attached your this the one two three"
                      .split())


class NotRead(Exception):
    """A clause the grammar does not read; ``pos`` is the character offset where reading stopped."""

    def __init__(self, pos: int, why: str) -> None:
        super().__init__(why)
        self.pos = pos
        self.why = why


def tokens(text: str) -> list[tuple[str, int]]:
    """The words of ``text`` as the grammar sees them, with their offsets."""
    return [(m.group(0), m.start()) for m in _TOKEN_RE.finditer(text)]


def _kind_of_list(w: str) -> str:
    """The kind of a word that lists of filters are made of: a trait, a faction, or neither."""
    return "trait" if w.startswith("«") else "faction" if w.startswith("[") and w not in _ICONS else ""


class _Lexer(Lexer):
    """Every word is a token; a word the grammar names is its keyword, any other word is ``WORD``."""

    __future_interface__ = 2

    def __init__(self, conf: Any) -> None:
        self.words: dict[str, str] = {}
        for t in conf.terminals:
            if t.pattern.type == "str":
                self.words[t.pattern.value] = t.name

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        ts = lexer_state.text
        text = ts.text[ts.start:ts.end]
        raw = tokens(str(text))
        for i, (w, pos) in enumerate(raw):
            nxt = raw[i + 1][0] if i + 1 < len(raw) else ""
            if w == "," and nxt == "and" and i + 2 < len(raw):
                after = raw[i + 2][0]
                if after in VERBS or after in _NP_START or after.isdigit():
                    continue  # the serial comma before "and": the "and" says what it joins
            if w == "," and nxt == "or":
                continue  # the serial comma before "or"
            if w.startswith("«"):
                typ = "T_TRAIT"
            elif w.startswith("‹"):
                typ = "T_TITLE"
            elif w in _ICONS:
                typ = "T_ICON"
            elif w.startswith("["):
                typ = "T_FACTION"
            elif w.isdigit():
                typ = "T_NUMBER"
            elif w == "and" and nxt in _PLURALS and any(x == "number" for x, _ in raw[max(0, i - 6):i]):
                typ = "_ANDPL"  # "any number of «Direwolf» characters and characters with a «Direwolf» attachment"
            elif w == "and" and nxt == "~" and i + 2 < len(raw) and raw[i + 2][0] in ("gains", "gets"):
                typ = "_ANDS"  # "... loses an [intrigue] icon and ~ gains that icon": a second subject
            elif w == "and" and nxt in VERBS:
                typ = "_ANDV"
            elif w == "and" and (nxt in _NP_START or nxt.isdigit() or nxt.startswith("‹")):
                typ = "_ANDNP"
            elif w == "or" and i > 0 and _kind_of_list(raw[i - 1][0]) not in ("", _kind_of_list(nxt)):
                typ = "_ORPM"  # "[thenightswatch] or «Lord» character": alternatives of different kinds of filter
            elif w == "or" and (nxt in _NP_START or nxt.isdigit() or nxt.startswith("‹")) \
                    and (i == 0 or raw[i - 1][0] not in ("his", "he")):
                typ = "_ORNP"
            elif w == "or" and nxt in VERBS and (i + 2 >= len(raw) or raw[i + 2][0] not in ("pile", "deck")):
                typ = "_ORV"  # alternatives between verb phrases ("either: draw a card or gain 1 gold")
            elif w == "as" and i > 0 and raw[i - 1][0] == "participating" and nxt in ("a", "an") \
                    and i + 2 < len(raw) and raw[i + 2][0] in ("attacker", "defender"):
                typ = "_AS_A"  # "participating as an attacker": the article is part of the role
            elif w in ("a", "an") and i > 0 and raw[i - 1][0] == "as" and nxt in ("attacker", "defender") \
                    and i > 1 and raw[i - 2][0] == "participating":
                continue
            elif w == "," and nxt in ("non-", "standing", "kneeling", "participating", "attacking", "defending",
                                       "unique", "loyal", "neutral", "controlled"):
                typ = "_COMMA_PM"  # a comma between the modifiers of a card ("another non-loyal, non-limited card")
            elif w == "," and (nxt.startswith("«") or nxt.startswith("[")):
                typ = "_COMMA_L"  # a comma inside a list of traits or factions
            elif w == "," and (nxt in ("a", "an", "another") or nxt.isdigit()):
                typ = "_COMMA_NP"  # a list of noun phrases ("a «Builder», a «Ranger», and a «Steward» character")
            elif w == "," and nxt in ("if", "unless"):
                typ = "_COMMA_COND"  # a condition after the effects it restricts ("..., if able")
            elif w == "it" and nxt == "is" and i + 2 < len(raw) and raw[i + 2][0] in ("the", "not"):
                typ = "_IT"  # "it is the marshaling phase": "it" refers to no card
            else:
                typ = self.words.get(w, "T_WORD")
            yield Token(typ, w, pos)


_PARSER_OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": False, "maybe_placeholders": False,
                                   "start": [f"start_{s}" for s in _STARTS]}


def cache_path(grammar: str) -> Path:
    """Where the parser's tables are cached: a file in the temporary directory named by the hash of the grammar,
    of the parser options and of the Lark and Python versions (a changed grammar never loads old tables)."""
    key = "\n".join([grammar, repr(sorted(_PARSER_OPTIONS.items())), lark.__version__, sys.version])
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
    return Path(tempfile.gettempdir()) / f".ruleproof-grammar-{os.getuid() if hasattr(os, 'getuid') else 0}-{digest}"


def _load_cached(path: Path) -> Lark | None:
    """The parser stored at ``path``, or ``None`` when there is none usable: missing, unreadable, damaged, or
    a file another user could have written (a pickle is code: only a file of ours, writable by us alone)."""
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
                return None
            loaded = Lark.load(fh)
    except Exception:  # noqa: BLE001 - a damaged cache is rebuilt, whatever is wrong with it
        return None
    return loaded if isinstance(loaded, Lark) else None


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR(1) parser of ``ability.lark``, built once per process.

    Building the tables takes about a second, so they are kept in a file of the temporary directory
    (:func:`cache_path`) that later processes load.  The file is written atomically (a temporary file renamed
    into place, :func:`ruleproof.files.write_atomic`): a process that reads it while another writes it, or
    after a writer was killed, never sees half a file.  A cache that cannot be written is not an error.
    """
    grammar = GRAMMAR_FILE.read_text(encoding="utf-8")
    path = cache_path(grammar)
    cached = _load_cached(path)
    if cached is not None:
        return cached
    built = Lark(grammar, lexer=_Lexer, **_PARSER_OPTIONS)
    buf = io.BytesIO()
    built.save(buf)
    try:
        write_atomic(path, buf.getvalue())
    except InputError:
        pass  # no cache this time: the next process builds the tables again
    return built


@functools.lru_cache(maxsize=1)
def titles() -> dict[str, CardKind]:
    """The titles of the vendored pool's cards, each with its card type (``card`` when cards of that title differ
    in type): what a title printed in another card's text names ("stand Old Bear Mormont")."""
    kinds: dict[str, set[str]] = {}
    for path in sorted((POOL_DIR / "packs").glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # the pool loader reports a bad pack; here it only names no titles
        for rec in data.get("cards", []) if isinstance(data, dict) else []:
            if isinstance(rec, dict) and isinstance(rec.get("name"), str) and rec["name"].strip():
                kinds.setdefault(rec["name"].strip(), set()).add(str(rec.get("type", "")))
    out: dict[str, CardKind] = {}
    for name, types in kinds.items():
        kind = _HEADS.get(next(iter(types)), CardKind.CARD) if len(types) == 1 else CardKind.CARD
        out[name] = kind
    return out


@functools.lru_cache(maxsize=1)
def grammar_words() -> frozenset[str]:
    """The words the grammar itself uses ("taxation", "shadow", ...): a title spelled like one is not marked."""
    return frozenset(t.pattern.value for t in parser().terminals if t.pattern.type == "str")


# ---------------------------------------------------------------------------
# reading context


@dataclass
class Context:
    """What the clauses of one ability share: the card's type and what pronouns refer to.

    ``trigger``: the subject of the triggering event (a card or a player);
    ``antecedent``: the last card chosen or targeted ("choose a character" ... "it"); ``player``: the
    last player named ("choose an opponent" ... "that player"); ``in_cost``: reading a cost list;
    ``trigger_event``: the event of the triggering condition ("draw that many cards"); ``named_card``: a card
    title was named ("events with that title"); ``hand``: whose hand was looked at or revealed ("that hand");
    ``gap``: an effect before was not read, so a pronoun ("it") is not resolved (it could refer to what that
    effect named).  ``paid``: the card chosen to pay a cost ("discard an attachment from your hand to choose an
    attachment with equal or lower printed cost"), also when a card of the triggering condition is what pronouns
    refer to.  ``picked``: some of the cards named last were just chosen ("add 1 to your hand"), so "the other" are
    the rest: how many of them there are (``None``: no such choice was just made).  ``group``: the cards of the last
    list acted on one by one ("choose a [tyrell] character and a non-[tyrell] character"), which "each of those
    characters" and "them" refer to.  ``object``: the other card of the triggering event ("after ~ bypasses a character
    using stealth": the character bypassed; "discards a card using pillage": the card discarded), which "that
    character" / "that card" refer to.
    """

    card_kind: CardKind
    trigger: Subject | None = None
    antecedent: tuple[Target, int | None] | None = None
    player: Target | None = None
    in_cost: bool = False
    chosen: list[Target] = field(default_factory=list)
    trigger_event: EventKind | None = None
    named_card: bool = False
    named_type: bool = False
    hand: _Whose | None = None
    gap: bool = False
    paid: Target | None = None
    picked: int | None = None
    group: tuple[Target, ...] = ()
    object: Subject | None = None


@dataclass(frozen=True)
class Paren:
    """A parenthetical at the end of an ability: a limit, "(Cannot be canceled.)", "(Any player may initiate
    this ability.)", "(Cannot be saved.)", "(X cannot be 0.)"."""

    limit: Limit | None = None
    uncancelable: bool = False
    any_player: bool = False
    cannot_be_saved: bool = False
    instead: tuple[str, int | None, bool, Condition] | None = None
    instead_effects: tuple[Effect, ...] = ()
    maximum: tuple[int, str | None] | None = None
    x_not: int | None = None


@dataclass(frozen=True)
class _NP:
    """A noun phrase read: the target, how many, "up to"."""

    target: Target
    count: int | None = 1
    up_to: bool = False
    pronoun: bool = False
    conj: tuple[_NP, ...] = ()


@dataclass(frozen=True)
class _AsRole:
    """"in which you are the attacking player"."""

    role: PlayerRole


@dataclass(frozen=True)
class _Whose:
    """A possessive: which player ("your", "an opponent's", "its owner's")."""

    scope: Scope
    role: PlayerRole | None = None
    owner: bool = False
    each: bool = False
    controller: bool = False


_PLAYER_SCOPES = {Scope.YOU, Scope.OPPONENT, Scope.ANY_PLAYER}
_CONTROL = {Scope.YOU: Scope.YOU_CONTROL, Scope.OPPONENT: Scope.OPPONENT_CONTROLS, Scope.ANY_PLAYER: Scope.ANY}
_OWN = {Scope.YOU: Scope.YOU_OWN, Scope.OPPONENT: Scope.OPPONENT_OWNS, Scope.ANY_PLAYER: Scope.ANY}
_HEADS = {
    "character": CardKind.CHARACTER, "characters": CardKind.CHARACTER, "location": CardKind.LOCATION,
    "locations": CardKind.LOCATION, "attachment": CardKind.ATTACHMENT, "attachments": CardKind.ATTACHMENT,
    "event": CardKind.EVENT, "events": CardKind.EVENT, "card": CardKind.CARD, "cards": CardKind.CARD,
    "agenda": CardKind.AGENDA, "duplicate": CardKind.DUPLICATE, "duplicates": CardKind.DUPLICATE,
    "plot": CardKind.PLOT, "plots": CardKind.PLOT,
}
_PERIOD_DURATION = {Period.PHASE: Duration.UNTIL_END_OF_PHASE, Period.CHALLENGE: Duration.UNTIL_END_OF_CHALLENGE,
                    Period.ROUND: Duration.UNTIL_END_OF_ROUND, Period.GAME: Duration.UNTIL_END_OF_GAME}
_ROLES = {"losing": PlayerRole.LOSING, "winning": PlayerRole.WINNING, "attacking": PlayerRole.ATTACKING,
          "defending": PlayerRole.DEFENDING}
_CMP = {"lower": Cmp.LE, "less": Cmp.LE, "fewer": Cmp.LE, "higher": Cmp.GE, "more": Cmp.GE}
_CMP_THAN = {"lower": Cmp.LT, "less": Cmp.LT, "fewer": Cmp.LT, "higher": Cmp.GT, "more": Cmp.GT}
_VERB_KIND = {"stand": EffectKind.STAND, "kneel": EffectKind.KNEEL, "kill": EffectKind.KILL,
              "sacrifice": EffectKind.SACRIFICE, "discard": EffectKind.DISCARD, "return": EffectKind.RETURN_TO_HAND,
              "reveal": EffectKind.REVEAL}
_PROHIBIT_VERB = {"stand": EventKind.STOOD, "kneel": EventKind.KNELT}
#: Triggering events that count cards ("after an opponent draws 1 or more cards"): what "that many" can refer to.
_COUNTED_EVENTS = frozenset({EventKind.DRAW, EventKind.DISCARDED})


def _words(children: Sequence[Any]) -> list[str]:
    return [str(c) for c in children if isinstance(c, Token)]


def _of(children: Sequence[Any], tp: type) -> list[Any]:
    return [c for c in children if isinstance(c, tp)]


def _one(children: Sequence[Any], tp: type) -> Any:
    found = _of(children, tp)
    return found[0] if found else None


def _fail(why: str) -> None:
    raise _Refused(why)


def _sole(np: _NP) -> Subject:
    """The one filter of a noun phrase where a single filter is read: alternatives ("a «King» character or Catelyn
    Stark") are not read there, never dropped."""
    if np.target.also:
        _fail("alternative cards where one filter is read")
    return np.target.subject


class _Refused(Exception):
    """A construction the grammar accepts but the reader cannot give a meaning (e.g. an unresolved pronoun)."""


_SUBJECT_FIELDS = frozenset(Subject.__dataclass_fields__)


def _subj(fields: dict[str, Any]) -> Subject:
    """A :class:`Subject` from a filter read; a word that only some constructions take ("you marshal") fails."""
    extra = set(fields) - _SUBJECT_FIELDS
    if extra:
        _fail(f"'{', '.join(sorted(extra))}' in a card filter")
    return Subject(**fields)


def _merge(base: dict[str, Any], patch: dict[str, Any]) -> None:
    for k, v in patch.items():
        if isinstance(v, tuple) and k in base:
            base[k] = tuple(dict.fromkeys(base[k] + v))
        elif k in base and base[k] not in (None, Scope.ANY) and base[k] != v and k != "card_type":
            _fail(f"conflicting {k}")
        else:
            base[k] = v


class _Reader(Transformer[Token, Any]):
    """Tree -> typed nodes (costs and effects as :class:`Effect`, mapped to costs by the compiler)."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(visit_tokens=False)
        self.ctx = ctx
        # noun phrases joined by "and" ("a «Builder», a «Ranger», and a «Steward» character") and those of them an
        # effect acted on one by one: a list that nothing reads one by one is text the tree would lose
        self.lists_made: list[int] = []
        self.lists_read: set[int] = set()
        # ~ was named in this cost list: a pronoun after it in the list is ~ ("kneel ~ and discard 1 power from him
        # to save that character"), not the card of the trigger (which the effect after "to" refers to)
        self.self_in_costs = False

    # ------------------------------------------------------------ numbers and words
    def n_int(self, c: list[Any]) -> int:
        return int(c[0])

    def n_x(self, c: list[Any]) -> None:
        return None

    def n_one(self, c: list[Any]) -> int:
        return 1

    def n_two(self, c: list[Any]) -> int:
        return 2

    def n_three(self, c: list[Any]) -> int:
        return 3

    def times(self, c: list[Any]) -> Any:
        return c[0]

    def plus(self, c: list[Any]) -> int:
        return 1

    def minus(self, c: list[Any]) -> int:
        return -1

    def period(self, c: list[Any]) -> Period:
        return Period(str(c[0]))

    def phase_name(self, c: list[Any]) -> Phase:
        return Phase(str(c[0]))

    def keyword(self, c: list[Any]) -> Keyword:
        return Keyword(str(c[0]))

    def stat_word(self, c: list[Any]) -> str:
        return str(c[0])

    def cmp_word(self, c: list[Any]) -> str:
        return str(c[0])

    def role_word(self, c: list[Any]) -> ChallengeRole:
        w = _words(c)
        if w == ["attacking", "or", "defending", "alone"]:  # "alone" qualifies both: the only one on its side
            return ChallengeRole.PARTICIPATING_ALONE
        if w[-1] == "alone":  # "attacking alone": the only attacking (defending) character
            return ChallengeRole(f"{w[0]}_alone")
        return ChallengeRole.PARTICIPATING if len(w) > 1 else ChallengeRole(w[0])

    def player_role_word(self, c: list[Any]) -> PlayerRole:
        return _ROLES[str(c[0])]

    def win_lose(self, c: list[Any]) -> bool:
        return str(c[0]).startswith("win")

    def begin_end(self, c: list[Any]) -> bool:
        return str(c[0]) == "begins"

    def token_word(self, c: list[Any]) -> str:
        return str(c[0])

    def verb(self, c: list[Any]) -> EffectKind:
        return _VERB_KIND[str(c[0])]

    def verb3(self, c: list[Any]) -> EffectKind:
        return _VERB_KIND[str(c[0])[:-1]]

    def or_sep(self, c: list[Any]) -> None:
        return None

    def verb_plain(self, c: list[Any]) -> EventKind:
        return _PROHIBIT_VERB[str(c[0])]

    def name_what(self, c: list[Any]) -> Named:
        w = _words(c)
        return Named.CHALLENGE_TYPE if w[0] == "challenge" else Named(w[0])

    def unopposed(self, c: list[Any]) -> str:
        return "unopposed"

    def at_random(self, c: list[Any]) -> str:
        return "at_random"

    def printed(self, c: list[Any]) -> str:
        return "printed"

    # ------------------------------------------------------------ players
    def _player(self, scope: Scope, role: PlayerRole | None = None, ref: TargetRef = TargetRef.PLAYER) -> Target:
        return Target(ref, Subject(scope, player_role=role))

    def p_you(self, c: list[Any]) -> Target:
        return self._player(Scope.YOU)

    def _named(self, t: Target) -> Target:
        """A third-person player named: what "they", "he or she", "that player" refer to from now on."""
        self.ctx.player = t
        return t

    def p_opponent(self, c: list[Any]) -> Target:
        return self._named(self._player(Scope.OPPONENT))

    def p_each_opponent(self, c: list[Any]) -> Target:
        return self._named(self._player(Scope.OPPONENT, ref=TargetRef.EACH))

    def p_each_player(self, c: list[Any]) -> Target:
        return self._named(self._player(Scope.ANY_PLAYER, ref=TargetRef.EACH))

    def p_a_player(self, c: list[Any]) -> Target:
        return self._named(self._player(Scope.ANY_PLAYER, ref=TargetRef.CHOSEN))

    def p_that_player(self, c: list[Any]) -> Target:
        if self.ctx.player is not None:
            p = self.ctx.player
            return Target(TargetRef.PLAYER, replace(p.subject, player_role=PlayerRole.THAT))
        t = self.ctx.trigger
        if t is not None and t.scope in _PLAYER_SCOPES and t.card_type is None:
            return Target(TargetRef.TRIGGER, t)
        if t is not None and t.scope in (Scope.YOU_CONTROL, Scope.OPPONENT_CONTROLS):  # the trigger card's controller
            return self._player(Scope.YOU if t.scope is Scope.YOU_CONTROL else Scope.OPPONENT, PlayerRole.THAT)
        _fail("'that player' refers to no player")
        raise AssertionError

    def p_role(self, c: list[Any]) -> Target:
        role = _one(c, PlayerRole)
        opp = "opponent" in _words(c) or role in (PlayerRole.LOSING, PlayerRole.WINNING)
        return self._named(self._player(Scope.OPPONENT if opp else Scope.ANY_PLAYER, role))

    def p_first(self, c: list[Any]) -> Target:
        return self._named(self._player(Scope.ANY_PLAYER, PlayerRole.FIRST))

    # possessives
    def w_your(self, c: list[Any]) -> _Whose:
        return _Whose(Scope.YOU)

    def w_owner(self, c: list[Any]) -> _Whose:
        return _Whose(Scope.ANY_PLAYER, owner=True)

    def w_controller(self, c: list[Any]) -> _Whose:
        return _Whose(Scope.ANY_PLAYER, controller=True)

    def w_their(self, c: list[Any]) -> _Whose:
        return _Whose(Scope.ANY_PLAYER, PlayerRole.THAT)

    def w_opponent(self, c: list[Any]) -> _Whose:
        return _Whose(Scope.OPPONENT)

    def w_each_opponent(self, c: list[Any]) -> _Whose:
        return _Whose(Scope.OPPONENT, each=True)

    def w_each_player(self, c: list[Any]) -> _Whose:
        return _Whose(Scope.ANY_PLAYER, each=True)

    def w_a_player(self, c: list[Any]) -> _Whose:
        return _Whose(Scope.ANY_PLAYER)

    def w_that_player(self, c: list[Any]) -> _Whose:
        p = self.p_that_player(c)
        return _Whose(p.subject.scope, p.subject.player_role or PlayerRole.THAT)

    def w_role(self, c: list[Any]) -> _Whose:
        p = self.p_role(c)
        return _Whose(p.subject.scope, p.subject.player_role)

    # ------------------------------------------------------------ zones
    def z_hand(self, c: list[Any]) -> Zone:
        return Zone.HAND

    def z_discard(self, c: list[Any]) -> Zone:
        return Zone.DISCARD_PILE

    def z_dead(self, c: list[Any]) -> Zone:
        return Zone.DEAD_PILE

    def z_deck(self, c: list[Any]) -> Zone:
        return Zone.DRAW_DECK

    def z_shadows(self, c: list[Any]) -> Zone:
        return Zone.SHADOWS

    def z_used(self, c: list[Any]) -> Zone:
        return Zone.USED_PILE

    def z_plot_deck(self, c: list[Any]) -> Zone:
        return Zone.PLOT_DECK

    def zone_of(self, c: list[Any]) -> tuple[_Whose | None, tuple[Zone, ...]]:
        return _one(c, _Whose), (_one(c, Zone),)

    def zone_shadows(self, c: list[Any]) -> tuple[_Whose | None, tuple[Zone, ...]]:
        return None, (Zone.SHADOWS,)

    def zone_any(self, c: list[Any]) -> tuple[_Whose | None, tuple[Zone, ...]]:
        return _Whose(Scope.ANY_PLAYER), (_one(c, Zone),)

    def zones_one(self, c: list[Any]) -> tuple[_Whose | None, tuple[Zone, ...]]:
        return c[0]

    def zones_two(self, c: list[Any]) -> tuple[_Whose | None, tuple[Zone, ...]]:
        return _one(c, _Whose), tuple(_of(c, Zone))

    zones_three = zones_two

    def zones_two_shadows(self, c: list[Any]) -> tuple[_Whose | None, tuple[Zone, ...]]:
        return _one(c, _Whose), (*_of(c, Zone), Zone.SHADOWS)

    def zones_discard_dead(self, c: list[Any]) -> tuple[_Whose | None, tuple[Zone, ...]]:
        """"your discard or dead pile": both piles (the first "pile" left out)."""
        return _one(c, _Whose), (Zone.DISCARD_PILE, Zone.DEAD_PILE)

    def zones_dead_discard(self, c: list[Any]) -> tuple[_Whose | None, tuple[Zone, ...]]:
        return _one(c, _Whose), (Zone.DEAD_PILE, Zone.DISCARD_PILE)

    # ------------------------------------------------------------ card filters
    def head_word(self, c: list[Any]) -> tuple[CardKind, bool]:
        w = _words(c)
        return (CardKind.PLOT if w[0] == "plot" else _HEADS[w[-1]]), w[-1].endswith("s")

    def heads(self, c: list[Any]) -> dict[str, Any]:
        kinds = [k for k, _ in c]
        return {"card_type": kinds[0], "other_types": tuple(kinds[1:])} if len(kinds) > 1 else {"card_type": kinds[0]}

    def traits(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(str(t)[1:-1] for t in c if isinstance(t, Token) and t.type == "T_TRAIT")

    def trait_pre(self, c: list[Any]) -> tuple[str, ...]:
        return c[0]

    def factions(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(str(t)[1:-1] for t in c if isinstance(t, Token) and t.type == "T_FACTION")

    def pm_standing(self, c: list[Any]) -> dict[str, Any]:
        return {"standing": True}

    def pm_kneeling(self, c: list[Any]) -> dict[str, Any]:
        return {"standing": False}

    def pm_participating(self, c: list[Any]) -> dict[str, Any]:
        return {"role": ChallengeRole.PARTICIPATING}

    def pm_attacking(self, c: list[Any]) -> dict[str, Any]:
        return {"role": ChallengeRole.ATTACKING}

    def pm_defending(self, c: list[Any]) -> dict[str, Any]:
        return {"role": ChallengeRole.DEFENDING}

    def pm_not_participating(self, c: list[Any]) -> dict[str, Any]:
        return {"role": ChallengeRole.NOT_PARTICIPATING}

    def pm_unique(self, c: list[Any]) -> dict[str, Any]:
        return {"unique": True}

    def pm_not_unique(self, c: list[Any]) -> dict[str, Any]:
        return {"unique": False}

    def pm_loyal(self, c: list[Any]) -> dict[str, Any]:
        return {"loyal": True}

    def pm_not_loyal(self, c: list[Any]) -> dict[str, Any]:
        return {"loyal": False}

    def pm_not_limited(self, c: list[Any]) -> dict[str, Any]:
        return {"limited": False}

    def pm_not_trait(self, c: list[Any]) -> dict[str, Any]:
        return {"not_traits": (str(c[0])[1:-1],)}

    def pm_not_faction(self, c: list[Any]) -> dict[str, Any]:
        return {"not_factions": (str(c[0])[1:-1],)}

    def pm_not_type(self, c: list[Any]) -> dict[str, Any]:
        return {"not_types": (c[0][0],)}

    def pm_factions(self, c: list[Any]) -> dict[str, Any]:
        return {"factions": c[0]}

    def pm_neutral(self, c: list[Any]) -> dict[str, Any]:
        return {"factions": ("neutral",)}

    def pm_traits(self, c: list[Any]) -> dict[str, Any]:
        return {"traits": c[0]}

    def pm_other(self, c: list[Any]) -> dict[str, Any]:
        return {"other": True}

    def pm_comma(self, c: list[Any]) -> dict[str, Any]:
        return c[0]

    def pm_or(self, c: list[Any]) -> dict[str, Any]:
        """"a loyal or «House Arryn» character": filters that are alternatives, not all required."""
        a, b = c
        return {"_or": (*a.get("_or", (a,)), b)}

    def nominal(self, c: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"scope": Scope.ANY}
        alternatives: tuple[dict[str, Any], ...] = ()
        revealed = False
        for patch in c:
            if "_or" in patch:
                if alternatives:
                    _fail("two lists of alternatives")
                alternatives = patch["_or"]
                continue
            patch = dict(patch)
            revealed = patch.pop("_revealed", False) or revealed
            among = patch.pop("_among", False)
            if among is not False:
                if not any(x.op in (Cmp.LOWEST, Cmp.HIGHEST) for x in out.get("compare", ())):
                    _fail("'among' without a lowest or highest")
                if among not in (None, out.get("card_type")) and out.get("card_type") is not None:
                    _fail("'among' cards of another type")
            _merge(out, patch)
        if revealed and out.get("card_type") is not CardKind.PLOT:
            _fail("'revealed' names a plot card")
        if alternatives:  # one subject per alternative, each with the filters they share
            subjects = []
            for alt in alternatives:
                one = dict(out)
                _merge(one, alt)
                subjects.append(one)
            return dict(subjects[0], _also=tuple(subjects[1:]))
        return out

    def nominal_trait(self, c: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"scope": Scope.ANY, "card_type": CardKind.CARD}
        for patch in c[:-1]:
            _merge(out, patch)
        _merge(out, {"traits": c[-1]})
        return out

    def _controls(self, p: Target) -> dict[str, Any]:
        s = p.subject
        if p.ref is TargetRef.EACH and s.scope is Scope.ANY_PLAYER and s.player_role is None:
            return {"_each_player": True}  # "choose a character controlled by each player": one per player
        if p.ref is TargetRef.EACH:
            _fail("a card of each player")
        out: dict[str, Any] = {"scope": _CONTROL.get(s.scope, Scope.ANY)}
        role = s.player_role or (PlayerRole.THAT if p.ref in (TargetRef.TRIGGER, TargetRef.CHOSEN) else None)
        if role is not None:
            out["player_role"] = role
        return out

    def pm_you_control(self, c: list[Any]) -> dict[str, Any]:
        return {"scope": Scope.YOU_CONTROL}

    def pm_player_controls(self, c: list[Any]) -> dict[str, Any]:
        return self._controls(c[0])

    def pm_you_own(self, c: list[Any]) -> dict[str, Any]:
        return {"scope": Scope.YOU_OWN}

    def pm_you_own_and_control(self, c: list[Any]) -> dict[str, Any]:
        return {"scope": Scope.YOU_CONTROL, "owner": Scope.YOU_OWN}

    def pm_player_owns(self, c: list[Any]) -> dict[str, Any]:
        s = c[0].subject
        out: dict[str, Any] = {"scope": _OWN.get(s.scope, Scope.ANY)}
        if s.player_role is not None:
            out["player_role"] = s.player_role
        return out

    def pm_in_play(self, c: list[Any]) -> dict[str, Any]:
        return {"zone": Zone.PLAY}

    def _in_zone(self, whose: _Whose | None, zone: Zone, self_card: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"zone": zone}
        if self_card:
            if whose is not None and whose.scope is not Scope.YOU:
                _fail("this card in another player's zone")
            return out
        if whose is not None:
            out["scope"] = _OWN.get(whose.scope, Scope.ANY)
            if whose.role is not None:
                out["player_role"] = whose.role
        return out

    def pm_in_zone(self, c: list[Any]) -> dict[str, Any]:
        whose, zones = c[0]
        if len(zones) != 1:
            _fail("a card in several zones")
        return self._in_zone(whose, zones[0])

    def pm_with(self, c: list[Any]) -> dict[str, Any]:
        return c[0]

    pm_without = pm_with

    def pm_cmp_printed(self, c: list[Any]) -> dict[str, Any]:
        stat, value, cmp = c
        return {"compare": (Compare(Stat.PRINTED_COST if stat == "cost" else Stat.PRINTED_STR, _CMP[cmp], value),)}

    def pm_cmp_total(self, c: list[Any]) -> dict[str, Any]:
        """"any number of locations with total printed cost 3 or lower": the sum over the cards chosen."""
        return {"total": self.pm_cmp_printed(c)["compare"]}

    def pm_cmp_printed_eq(self, c: list[Any]) -> dict[str, Any]:
        stat, value = c
        return {"compare": (Compare(Stat.PRINTED_COST if stat == "cost" else Stat.PRINTED_STR, Cmp.EQ, value),)}

    def pm_in_faction(self, c: list[Any]) -> dict[str, Any]:
        return {"in_faction": True}

    def pm_out_of_faction(self, c: list[Any]) -> dict[str, Any]:
        return {"in_faction": False}

    def pm_cmp(self, c: list[Any]) -> dict[str, Any]:
        stat, value, cmp = c
        return {"compare": (Compare(Stat.COST if stat == "cost" else Stat.STR, _CMP[cmp], value),)}

    def pm_cmp_power(self, c: list[Any]) -> dict[str, Any]:
        value, cmp = c
        return {"compare": (Compare(Stat.POWER, _CMP[cmp], value),)}

    def pm_cmp_icons(self, c: list[Any]) -> dict[str, Any]:
        value, cmp = c
        return {"compare": (Compare(Stat.ICONS, _CMP[cmp], value),)}

    def pm_cmp_keywords(self, c: list[Any]) -> dict[str, Any]:
        """"with 2 or more keywords"."""
        value, cmp = c
        return {"compare": (Compare(Stat.KEYWORDS, _CMP[cmp], value),)}

    def pm_cmp_num_first(self, c: list[Any]) -> dict[str, Any]:
        """"with x str or lower" (the number before the stat)."""
        value, stat, cmp = c
        return self.pm_cmp([stat, value, cmp])

    def pm_that_is(self, c: list[Any]) -> dict[str, Any]:
        """"a [stark] character that is attacking alone"."""
        return {"role": c[0]}

    def pm_fewer_icons(self, c: list[Any]) -> dict[str, Any]:
        return {"compare": (Compare(Stat.ICONS, Cmp.LT, c[0]),)}

    def pm_same(self, c: list[Any]) -> dict[str, Any]:
        stat, np = [x for x in c if x != "printed"]
        printed = "printed" in c
        st = (Stat.PRINTED_COST if printed else Stat.COST) if stat == "cost" else (
            Stat.PRINTED_STR if printed else Stat.STR)
        return {"compare": (Compare(st, Cmp.EQ, None, np.target.ref),)}

    def pm_same_title(self, c: list[Any]) -> dict[str, Any]:
        """"with the same title as the sacrificed card": the title of the card that ref names."""
        return {"same_title": c[0].target.ref}

    def pm_cmp_gold(self, c: list[Any]) -> dict[str, Any]:
        value, cmp = c
        return {"compare": (Compare(Stat.GOLD, _CMP[cmp], value),)}

    def pm_cmp_than(self, c: list[Any]) -> dict[str, Any]:
        cmp, stat = c
        than = self._than()
        op = Cmp.LE if cmp in ("lower", "less") else Cmp.GE
        return {"compare": (Compare(Stat.PRINTED_COST if stat == "cost" else Stat.PRINTED_STR, op, None, than),)}

    def _than(self) -> TargetRef:
        if self.ctx.antecedent is not None:
            return self.ctx.antecedent[0].ref
        if self.ctx.paid is not None:
            return TargetRef.COST
        if self.ctx.trigger is not None and self.ctx.trigger.card_type is not None:
            return TargetRef.TRIGGER
        _fail("a comparison with no card to compare with")
        raise AssertionError

    def pm_cmp_than_ref(self, c: list[Any]) -> dict[str, Any]:
        cmp, stat = c
        return {"compare": (Compare(Stat.PRINTED_COST if stat == "cost" else Stat.PRINTED_STR, _CMP_THAN[cmp], None,
                                    self._than()),)}

    def pm_shares_trait(self, c: list[Any]) -> dict[str, Any]:
        if str(c[0]) != "«Trait»":
            _fail("sharing a named trait")
        return {"shares_trait_with": c[1].target.ref}

    def pm_you_marshal(self, c: list[Any]) -> dict[str, Any]:
        return {"_means": Means.MARSHALING}

    def pm_you_play(self, c: list[Any]) -> dict[str, Any]:
        return {"_means": Means.PLAYING}

    def pm_you_marshal_or_play(self, c: list[Any]) -> dict[str, Any]:
        return {"_means": Means.MARSHALING_OR_PLAYING}

    def pm_you_bring_out(self, c: list[Any]) -> dict[str, Any]:
        return {"_means": Means.OUT_OF_SHADOWS}

    def pm_you_ambush_or_bring_out(self, c: list[Any]) -> dict[str, Any]:
        return {"_means": Means.AMBUSH_OR_OUT_OF_SHADOWS}

    def extreme_word(self, c: list[Any]) -> Cmp:
        return Cmp.LOWEST if str(c[0]) == "lowest" else Cmp.HIGHEST

    def pm_named_title(self, c: list[Any]) -> dict[str, Any]:
        """"events with that title": the title the ability named before ("name an event")."""
        if not self.ctx.named_card:
            _fail("'that title' with no title named before")
        return {"named_title": True}

    def pm_not_chosen(self, c: list[Any]) -> dict[str, Any]:
        """"kill each character not chosen": the cards the ability's choice before did not choose."""
        if self.ctx.antecedent is None:
            _fail("'not chosen' with no choice before")
        return {"chosen": False}

    def pm_revealed(self, c: list[Any]) -> dict[str, Any]:
        """"a revealed plot card": a plot card in play (the revealed plot)."""
        return {"zone": Zone.PLAY, "_revealed": True}

    def pm_among(self, c: list[Any]) -> dict[str, Any]:
        """"with the highest STR among characters you control": the cards compared are those of the filter, so
        the card is one of them (its filters join the card's); only after a "lowest"/"highest"."""
        fields = dict(c[0])
        if "_also" in fields or "_among" in fields:
            _fail("alternatives among the cards compared")
        fields["_among"] = fields.pop("card_type", None)
        if fields.get("scope") is Scope.ANY:
            del fields["scope"]
        return fields

    def pm_extreme(self, c: list[Any]) -> dict[str, Any]:
        op = _one(c, Cmp)
        stat = [x for x in c if x in ("cost", "str")][0]
        printed = "printed" in c
        st = (Stat.PRINTED_COST if printed else Stat.COST) if stat == "cost" else (
            Stat.PRINTED_STR if printed else Stat.STR)
        out: dict[str, Any] = {"compare": (Compare(st, op),)}
        if "in_play" in c:
            out["zone"] = Zone.PLAY
        return out

    def in_play(self, c: list[Any]) -> str:
        return "in_play"

    def pm_cmp_str_than_np(self, c: list[Any]) -> dict[str, Any]:
        cmp, np = c
        return {"compare": (Compare(Stat.STR, _CMP_THAN[cmp], None, np.target.ref),)}

    def pm_cmp_than_np(self, c: list[Any]) -> dict[str, Any]:
        cmp, stat, np = c
        return {"compare": (Compare(Stat.PRINTED_COST if stat == "cost" else Stat.PRINTED_STR, _CMP_THAN[cmp], None,
                                    np.target.ref),)}

    def ww_icon(self, c: list[Any]) -> dict[str, Any]:
        return {"icons": (_ICONS[str(c[0])],)}

    def ww_no_icons(self, c: list[Any]) -> dict[str, Any]:
        return {"lacks_icons": tuple(ChallengeType)}

    def ww_no_attachments(self, c: list[Any]) -> dict[str, Any]:
        return {"attachments": False}

    def ww_attachment(self, c: list[Any]) -> dict[str, Any]:
        return {"attachments": True}

    def ww_trait_attachment(self, c: list[Any]) -> dict[str, Any]:
        return {"attachment_traits": c[0]}

    def ww_keyword(self, c: list[Any]) -> dict[str, Any]:
        return {"keywords": (c[0],)}

    def ww_trait(self, c: list[Any]) -> dict[str, Any]:
        return {"traits": c[0]}

    def ww_affiliation(self, c: list[Any]) -> dict[str, Any]:
        return {"factions": c[0]}

    def ww_no_gold(self, c: list[Any]) -> dict[str, Any]:
        return {"compare": (Compare(Stat.GOLD, Cmp.EQ, 0),)}

    def ww_gold(self, c: list[Any]) -> dict[str, Any]:
        return {"compare": (Compare(Stat.GOLD, Cmp.GE, 1),)}

    def ww_power(self, c: list[Any]) -> dict[str, Any]:
        return {"compare": (Compare(Stat.POWER, Cmp.GE, 1),)}

    def ww_no_power(self, c: list[Any]) -> dict[str, Any]:
        return {"compare": (Compare(Stat.POWER, Cmp.EQ, 0),)}

    def ww_no_icon(self, c: list[Any]) -> dict[str, Any]:
        return {"lacks_icons": (_ICONS[str(c[0])],)}

    def ww_no_keyword(self, c: list[Any]) -> dict[str, Any]:
        return {"lacks_keywords": (c[0],)}

    def ww_no_trait(self, c: list[Any]) -> dict[str, Any]:
        return {"not_traits": c[0]}

    # ------------------------------------------------------------ determiners and noun phrases
    def d_one(self, c: list[Any]) -> tuple[TargetRef, int | None, bool, bool]:
        return TargetRef.CHOSEN, 1, False, False

    def d_another(self, c: list[Any]) -> tuple[TargetRef, int | None, bool, bool]:
        return TargetRef.CHOSEN, 1, True, False

    def d_each(self, c: list[Any]) -> tuple[TargetRef, int | None, bool, bool]:
        return TargetRef.EACH, None, False, False

    def d_each_other(self, c: list[Any]) -> tuple[TargetRef, int | None, bool, bool]:
        return TargetRef.EACH, None, True, False

    def d_num(self, c: list[Any]) -> tuple[TargetRef, int | None, bool, bool]:
        return TargetRef.CHOSEN, c[0], False, False

    def d_up_to(self, c: list[Any]) -> tuple[TargetRef, int | None, bool, bool]:
        return TargetRef.CHOSEN, c[0], False, True

    def d_at_least(self, c: list[Any]) -> tuple[TargetRef, int | None, bool, bool]:
        return TargetRef.EACH, c[0], False, False

    def d_any_number(self, c: list[Any]) -> tuple[TargetRef, int | None, bool, bool]:
        return TargetRef.CHOSEN, None, False, True

    def np_det(self, c: list[Any]) -> _NP:
        (ref, count, other, up_to), nom = c
        fields = dict(nom)
        also = fields.pop("_also", ())
        if other:
            fields["other"] = True
            also = tuple(dict(a, other=True) for a in also)
        if fields.get("other") and not also and self._not_self_kind(fields.get("card_type")):
            # "kneel a «Knight» character to choose and stand another «Knight» character" on an event: ~ is no
            # character, so "another" is another than the card named before (not among the cards chosen or paid)
            ante = self.ctx.antecedent
            if ante is None or self.ctx.gap or ante[0].ref not in (TargetRef.CHOSEN, TargetRef.COST):
                _fail("'another' with no card named before it")
            del fields["other"]
            fields["chosen"] = False
        if fields.pop("_each_player", False):
            # "choose a standing character controlled by each player": one card of each player, chosen by the
            # ability's controller (two players: one you control and one your opponent controls); "each of those
            # characters" are the two
            if ref is not TargetRef.CHOSEN or count != 1 or up_to or also or \
                    fields.get("scope", Scope.ANY) is not Scope.ANY:
                _fail("'controlled by each player' after a determiner other than 'a', or with alternatives")
            mine, theirs = (_NP(Target(ref, _subj(dict(fields, scope=sc))), 1)
                            for sc in (Scope.YOU_CONTROL, Scope.OPPONENT_CONTROLS))
            return replace(mine, conj=(theirs,))
        return _NP(Target(ref, _subj(fields), tuple(Target(ref, _subj(dict(a))) for a in also)), count, up_to)

    def _not_self_kind(self, kind: CardKind | None) -> bool:
        """Can this card (~) never fit a filter of card type ``kind`` (an event's "another character")?"""
        mine = self.ctx.card_kind
        return kind not in (None, CardKind.CARD, mine) and mine in (CardKind.EVENT, CardKind.PLOT, CardKind.AGENDA)

    def np_any_number_union(self, c: list[Any]) -> _NP:
        """"any number of «Direwolf» characters and characters with a «Direwolf» attachment": any number of cards,
        each fitting one of the two filters (the second an alternative of the first)."""
        det, nom, second = c
        if det != (TargetRef.CHOSEN, None, False, True):
            _fail("a union of plurals after a determiner other than 'any number of'")
        first = self.np_det([det, nom])
        if first.target.also or second.target.also:
            _fail("alternatives inside a union of plurals")
        return replace(first, target=replace(first.target, also=(replace(second.target, ref=TargetRef.CHOSEN),)))

    def np_self(self, c: list[Any]) -> _NP:
        if c and c[0][0] not in (CardKind.CARD, self.ctx.card_kind):
            _fail("'this' names a card of another type")
        return _NP(Target(TargetRef.SELF, Subject(Scope.SELF, self.ctx.card_kind)))

    def np_title(self, c: list[Any]) -> _NP:
        """"stand Old Bear Mormont": a card with that title (Card Titles)."""
        title = str(c[0])[1:-1]
        return _NP(Target(TargetRef.CHOSEN, Subject(Scope.ANY, titles().get(title, CardKind.CARD), title=title)))

    def np_ref(self, c: list[Any]) -> _NP:
        return c[0]

    def np_attached(self, c: list[Any]) -> _NP:
        kind = c[0][0]
        return _NP(Target(TargetRef.ATTACHED, Subject(Scope.ATTACHED, kind)))

    def np_your_faction(self, c: list[Any]) -> _NP:
        return _NP(Target(TargetRef.FACTION_CARD, Subject(Scope.YOU_CONTROL, CardKind.FACTION_CARD)))

    def np_faction_of(self, c: list[Any]) -> _NP:
        w: _Whose = c[0]
        if w.each and not w.owner and w.scope in (Scope.OPPONENT, Scope.ANY_PLAYER):  # "each opponent's faction card"
            return _NP(Target(TargetRef.EACH, Subject(_CONTROL[w.scope], CardKind.FACTION_CARD)), None)
        if w.owner or w.each:
            _fail("its owner's faction card, or each player's")
        scope = _CONTROL.get(w.scope, Scope.ANY)
        return _NP(Target(TargetRef.FACTION_CARD, Subject(scope, CardKind.FACTION_CARD, player_role=w.role)))

    def _poss(self, w: _Whose, nom: dict[str, Any], ref: TargetRef) -> _NP:
        if w.owner:
            _fail("a card of its owner")
        fields = dict(nom)
        _merge(fields, {"scope": _CONTROL.get(w.scope, Scope.ANY)})
        if w.role is not None:
            fields["player_role"] = w.role
        return _NP(Target(ref, _subj(fields)), 1 if ref is TargetRef.CHOSEN else None)

    def np_poss(self, c: list[Any]) -> _NP:
        return self._poss(c[0], c[1], TargetRef.EACH if c[0].each else TargetRef.CHOSEN)

    def np_each_poss(self, c: list[Any]) -> _NP:
        return self._poss(c[0], c[1], TargetRef.EACH)

    def np_or(self, c: list[Any]) -> _NP:
        a, b = c[0], c[-1]
        if a.target.ref is not b.target.ref and TargetRef.CHOSEN not in (a.target.ref, b.target.ref):
            _fail("alternatives of different kinds")
        return replace(a, target=replace(a.target, also=a.target.also + (b.target,) + b.target.also))

    def np_and(self, c: list[Any]) -> _NP:
        a, b = c[0], c[-1]
        out = replace(a, conj=a.conj + (b,) + b.conj)
        self.lists_made = [x for x in self.lists_made if x not in (id(a), id(b))] + [id(out)]
        return out

    def np_new_plot(self, c: list[Any]) -> _NP:
        """"reveal a new plot card": one of your plot cards in your plot deck (Plot Deck, Revealing Plots)."""
        return _NP(Target(TargetRef.CHOSEN, Subject(Scope.YOU_OWN, CardKind.PLOT, zone=Zone.PLOT_DECK)))

    def np_top_card(self, c: list[Any]) -> _NP:
        w: _Whose = c[0]
        return _NP(Target(TargetRef.EACH, Subject(_OWN.get(w.scope, Scope.ANY), CardKind.CARD, zone=Zone.TOP_OF_DECK,
                                                  player_role=w.role)), 1)

    def np_bottom_card(self, c: list[Any]) -> _NP:
        w: _Whose = c[0]
        return _NP(Target(TargetRef.EACH, Subject(_OWN.get(w.scope, Scope.ANY), CardKind.CARD,
                                                  zone=Zone.BOTTOM_OF_DECK, player_role=w.role)), 1)

    def np_top_cards(self, c: list[Any]) -> _NP:
        n, w = c
        return _NP(Target(TargetRef.EACH, Subject(_OWN.get(w.scope, Scope.ANY), CardKind.CARD, zone=Zone.TOP_OF_DECK,
                                                  player_role=w.role)), n)

    def _resolve(self, kind: CardKind | None) -> _NP:
        if self.ctx.gap:  # what the unread clause named could be what the pronoun refers to
            _fail("a pronoun after an effect that was not read")
        if self.ctx.antecedent is not None:
            t, n = self.ctx.antecedent
            return _NP(t, n, pronoun=True)
        if self.ctx.in_cost and self.self_in_costs:
            return _NP(Target(TargetRef.SELF, Subject(Scope.SELF, self.ctx.card_kind)), pronoun=True)
        ts = self.ctx.trigger
        if ts is not None and ts.card_type is not None:
            if ts.scope is Scope.SELF:
                return _NP(Target(TargetRef.SELF, Subject(Scope.SELF, self.ctx.card_kind, zone=ts.zone)), pronoun=True)
            if ts.scope is Scope.ATTACHED:
                return _NP(Target(TargetRef.ATTACHED, ts), pronoun=True)
            return _NP(Target(TargetRef.TRIGGER, ts), pronoun=True)
        if kind is None:  # "it", "he": nothing else named, so the card itself
            return _NP(Target(TargetRef.SELF, Subject(Scope.SELF, self.ctx.card_kind)), pronoun=True)
        _fail("a pronoun that refers to no card")
        raise AssertionError

    def r_it(self, c: list[Any]) -> _NP:
        return self._resolve(None)

    def r_he(self, c: list[Any]) -> _NP:
        """"he", "him", "her": a character; a card of another type named last ("kneel a location to stand him") is
        not what it refers to."""
        person = (None, CardKind.CHARACTER, CardKind.CARD)
        got = self._resolve(None)
        if got.target.subject.card_type in person:
            return got
        ante = self.ctx.antecedent
        if ante is not None and ante[0].subject.card_type not in person:
            self.ctx.antecedent = None  # the last card named is not a character: the trigger's card, or ~
            try:
                got = self._resolve(None)
            finally:
                self.ctx.antecedent = ante
        if got.target.subject.card_type not in person:
            if self.ctx.card_kind is not CardKind.CHARACTER or self.ctx.gap:
                _fail("'he'/'him'/'her' with no character to refer to")
            got = _NP(Target(TargetRef.SELF, Subject(Scope.SELF, self.ctx.card_kind)), pronoun=True)
        return got

    def r_them(self, c: list[Any]) -> _NP:
        """"them", "those characters", "each of those characters": every card of the list named last ("choose a
        [tyrell] character and a non-[tyrell] character. ... each of those characters gets +2 STR"), else the card or
        cards named last."""
        group = self.ctx.group
        if group and not self.ctx.gap:
            return _NP(group[0], pronoun=True, conj=tuple(_NP(t, pronoun=True) for t in group[1:]))
        return self._resolve(None)

    def r_its(self, c: list[Any]) -> _NP:
        return self._resolve(None)

    def r_that(self, c: list[Any]) -> _NP:
        obj = self._object(c[0][0])
        return obj if obj is not None else self._resolve(c[0][0])

    def _object(self, kind: CardKind) -> _NP | None:
        """"after ~ bypasses a character using stealth, that character gets -X STR": "that character" is the other
        card of the triggering event (its object), not the card that bypassed (which the text names "~" or "attached
        character"); after "a character you control discards a non-character card using pillage", "that character"
        is the one of the two cards it can name.  ``None``: the object is not what it names."""
        obj, ts = self.ctx.object, self.ctx.trigger
        if obj is None or self.ctx.antecedent is not None or self.ctx.gap or ts is None:
            return None

        def names(s: Subject) -> bool:
            k = s.card_type or CardKind.CARD
            return kind is CardKind.CARD or k in (kind, CardKind.CARD) and kind not in s.not_types
        if ts.scope not in (Scope.SELF, Scope.ATTACHED) and names(ts):
            if names(obj):
                _fail("'that card' after a trigger of two cards it can name")
            return None
        if not names(obj):
            return None
        return _NP(Target(TargetRef.OBJECT, obj), pronoun=True)

    def r_the_other(self, c: list[Any]) -> _NP:
        """"add 1 to your hand, and place the other on the bottom of your deck": the cards looked at that were not
        added (not chosen); only right after such a choice among them."""
        ante = self.ctx.antecedent
        rest = self.ctx.picked
        if self.ctx.gap or ante is None or ante[0].ref is not TargetRef.CHOSEN or rest is None:
            _fail("'the other' of several chosen cards")
            raise AssertionError
        self.ctx.picked = None
        # "look at the top 3 cards ... add 1 to your hand, and place the others ...": the 2 not added
        return _NP(Target(TargetRef.EACH, replace(ante[0].subject, chosen=False)), rest, pronoun=True)

    def r_those(self, c: list[Any]) -> _NP:
        if self.ctx.group and not self.ctx.gap:
            return self.r_them(c)
        return self.r_that(c)

    def r_the_paid(self, c: list[Any]) -> _NP:
        """"the sacrificed card": the card chosen to pay the ability's cost (the last one named)."""
        ante = self.ctx.antecedent
        if self.ctx.gap or ante is None or ante[0].ref is not TargetRef.COST:
            _fail("'the sacrificed card' with no card chosen to pay a cost")
            raise AssertionError
        return _NP(ante[0], ante[1], pronoun=True)

    # ------------------------------------------------------------ durations and conditions
    def dur_end_of(self, c: list[Any]) -> Duration:
        return _PERIOD_DURATION[c[0]]

    def dur_this(self, c: list[Any]) -> Duration:
        return _PERIOD_DURATION[c[0]]

    def dur_leaves(self, c: list[Any]) -> Duration:
        return Duration.UNTIL_LEAVES_PLAY

    def dur_stands(self, c: list[Any]) -> Duration:
        return Duration.UNTIL_STANDS

    def dur_new_plot(self, c: list[Any]) -> Duration:
        return Duration.UNTIL_NEW_PLOT

    def dur_next_phase(self, c: list[Any]) -> Duration:
        return Duration.UNTIL_NEXT_PHASE

    @staticmethod
    def _condition(word: CondWord, fields: dict[str, Any]) -> Condition:
        """A condition; a test of several cards at once ("you control a «Ranger» character, a «Steward» character,
        and a «Builder» character") is the test ``all`` of one condition per card, each with the same word."""
        parts = fields.get("all_of")
        if parts is not None:
            return Condition(word, TestKind.ALL, all_of=tuple(Condition(word, **p) for p in parts))
        return Condition(word, **fields)

    def c_if(self, c: list[Any]) -> Condition:
        return self._condition(CondWord.IF, c[0])

    def c_while(self, c: list[Any]) -> Condition:
        return self._condition(CondWord.WHILE, c[0])

    def c_unless(self, c: list[Any]) -> Condition:
        return self._condition(CondWord.UNLESS, c[0])

    def c_unless_you(self, c: list[Any]) -> Condition:
        return Condition(CondWord.UNLESS, TestKind.DOES, self._you(), effects=tuple(c[0]))

    def c_during(self, c: list[Any]) -> Condition:
        return Condition(CondWord.DURING, **c[0])

    def dr_phase(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.PHASE, "phase": c[0]}

    def dr_challenge(self, c: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"test": TestKind.CHALLENGE}
        icon = [t for t in c if isinstance(t, Token) and t.type == "T_ICON"]
        if icon:
            out["challenge"] = _ICONS[str(icon[0])]
        parts = [x for x in c if isinstance(x, tuple)]
        if parts:
            if len(set(parts[0])) != 1:
                _fail("several participants")
            out["subject"] = parts[0][0]
            if len(parts[0]) > 1:  # "during a challenge in which you control 2 or more attacking «Dothraki»"
                out["count"] = len(parts[0])
        role = _one(c, _AsRole)
        if role is not None:
            out["target"] = Target(TargetRef.PLAYER, Subject(Scope.YOU, player_role=role.role))
        return out

    def dr_challenges(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.CHALLENGE}

    def in_which(self, c: list[Any]) -> tuple[Subject, ...]:
        return c[0] if isinstance(c[0], tuple) else (c[0],)

    def in_which_you_are(self, c: list[Any]) -> _AsRole:
        if c[0] not in (PlayerRole.ATTACKING, PlayerRole.DEFENDING):
            _fail("a player role that is not attacking or defending")
        return _AsRole(c[0])

    def participant(self, c: list[Any]) -> Subject:
        np, role = c
        return replace(_sole(np), role=role)

    def pa_attacker(self, c: list[Any]) -> ChallengeRole:
        return ChallengeRole.ATTACKING

    def pa_defender(self, c: list[Any]) -> ChallengeRole:
        return ChallengeRole.DEFENDING

    def participant_as(self, c: list[Any]) -> Subject:
        return self.participant(c)

    def participant_control(self, c: list[Any]) -> Subject | tuple[Subject, ...]:
        player, np = c
        if np.target.ref is TargetRef.EACH and isinstance(np.count, int) and np.count > 1 and not np.target.also \
                and not np.conj:
            # "in which you control 2 or more attacking «Dothraki» characters": that many cards of the filter (the
            # filter once per card; the trigger or condition counts them)
            return (replace(_sole(np), **self._controls(player)),) * np.count
        if np.count not in (1, None) or np.target.ref is not TargetRef.CHOSEN or np.target.also:
            _fail("several participants")
        return replace(_sole(np), **self._controls(player))

    def _about(self, np: _NP) -> None:
        """A condition about a named card makes it what later pronouns refer to ("if ~ is attacking, he ...")."""
        if not np.pronoun:
            self.ctx.antecedent = (np.target, np.count)

    def t_is(self, c: list[Any]) -> dict[str, Any]:
        np, state = c
        self._about(np)
        return {"test": TestKind.IS, "target": np.target, "subject": _subj(state)}

    def t_is_not(self, c: list[Any]) -> dict[str, Any]:
        np, state = c
        return {"test": TestKind.IS_NOT, "target": np.target, "subject": _subj(state)}

    def t_has(self, c: list[Any]) -> dict[str, Any]:
        np, patch = c
        self._about(np)
        return {"test": TestKind.IS, "target": np.target, "subject": _subj(patch)}

    def t_exists(self, c: list[Any]) -> dict[str, Any]:
        player, np = c
        if np.conj:  # "you control a «Ranger» character, a «Steward» character, and a «Builder» character"
            self.lists_read.add(id(np))
            return {"all_of": tuple(self.t_exists([player, replace(one, conj=())]) for one in (np, *np.conj))}
        s = replace(_sole(np), **self._controls(player))
        if s.title is not None and not np.pronoun:
            # "while you control Balon Greyjoy, he gains stealth": "he" is that card
            self.ctx.antecedent = (Target(TargetRef.EACH, s), 1)
        return {"test": TestKind.EXISTS, "subject": s, "count": np.count if np.count is not None else 1}

    def t_not_exists(self, c: list[Any]) -> dict[str, Any]:
        player, nom = c
        fields = dict(nom)
        fields.update(self._controls(player))
        return {"test": TestKind.NOT_EXISTS, "subject": _subj(fields)}

    def t_not_exists_np(self, c: list[Any]) -> dict[str, Any]:
        player, np = c
        return {"test": TestKind.NOT_EXISTS, "subject": replace(_sole(np), **self._controls(player))}

    def _there(self, np: _NP, revealed: bool) -> dict[str, Any]:
        s = _sole(np)
        if revealed:
            if s.card_type is not CardKind.PLOT:
                _fail("'revealed' of a card that is not a plot")
            s = replace(s, zone=Zone.PLAY)
        return {"test": TestKind.EXISTS, "subject": s, "count": np.count if np.count is not None else 1}

    def t_there_is(self, c: list[Any]) -> dict[str, Any]:
        return self._there(c[0], False)

    def t_there_is_revealed(self, c: list[Any]) -> dict[str, Any]:
        return self._there(c[0], True)

    def t_there_is_no(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.NOT_EXISTS, "subject": _subj(c[0])}

    def t_there_is_no_revealed(self, c: list[Any]) -> dict[str, Any]:
        fields = dict(c[0])
        if fields.get("card_type") is not CardKind.PLOT:
            _fail("'revealed' of a card that is not a plot")
        fields["zone"] = Zone.PLAY
        return {"test": TestKind.NOT_EXISTS, "subject": _subj(fields)}

    def t_is_phase(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.PHASE, "phase": c[0]}

    def t_not_phase(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.NOT_PHASE, "phase": c[0]}

    def t_win(self, c: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"test": TestKind.WON_CHALLENGE, "target": Target(TargetRef.PLAYER, Subject(Scope.YOU))}
        nums = [x for x in c if isinstance(x, int)]
        if nums:
            out["compare"] = Compare(Stat.MARGIN, Cmp.GE, nums[0])
        return out

    def t_lose(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.LOST_CHALLENGE, "target": Target(TargetRef.PLAYER, Subject(Scope.YOU))}

    def t_did(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.DID}

    def t_did_not(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.DID_NOT}

    def t_able(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.ABLE}

    def t_first_player(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.FIRST_PLAYER, "target": Target(TargetRef.PLAYER, Subject(Scope.YOU))}

    def t_not_first_player(self, c: list[Any]) -> dict[str, Any]:
        return {"test": TestKind.NOT_FIRST_PLAYER, "target": Target(TargetRef.PLAYER, Subject(Scope.YOU))}

    def won_lost(self, c: list[Any]) -> TestKind:
        return TestKind.WON_CHALLENGE if str(c[0]) == "won" else TestKind.LOST_CHALLENGE

    def t_challenges(self, c: list[Any]) -> dict[str, Any]:
        player, test, n, period = c
        return {"test": test, "target": player, "count": n, "period": period}

    def t_no_challenge(self, c: list[Any]) -> dict[str, Any]:
        player, test = c[0], c[1]
        return {"test": test, "target": player, "challenge": self._icon(c), "period": c[-1], "negated": True}

    def t_your_value(self, c: list[Any]) -> dict[str, Any]:
        kind, n = c[0], c[1]
        stats = {EffectKind.RESERVE_MOD: Stat.RESERVE, EffectKind.INITIATIVE_MOD: Stat.INITIATIVE}
        if kind not in stats:
            _fail("a value of a player other than reserve or initiative")
        stat = stats[kind]
        cmp = _CMP[c[2]] if len(c) > 2 else Cmp.EQ
        return {"test": TestKind.COMPARE, "target": self._you(), "compare": Compare(stat, cmp, n)}

    def t_gold_value(self, c: list[Any]) -> dict[str, Any]:
        """"if the gold value on an opponent's revealed plot card is 5 or higher": that player's plot's gold value
        (with its modifiers)."""
        whose, n, cmp = c
        if whose.owner or whose.controller or whose.each or whose.role is not None or \
                whose.scope not in (Scope.YOU, Scope.OPPONENT) or n is None:
            _fail("the gold value on a plot card of a player named otherwise")
        player = Target(TargetRef.PLAYER, Subject(whose.scope))
        return {"test": TestKind.COMPARE, "target": player, "compare": Compare(Stat.GOLD_VALUE, _CMP[cmp], n)}

    def t_no_gold(self, c: list[Any]) -> dict[str, Any]:
        player, whose = c
        if whose.scope is not player.subject.scope:
            _fail("another player's gold pool")
        return {"test": TestKind.COMPARE, "target": player, "compare": Compare(Stat.GOLD, Cmp.EQ, 0)}

    def t_fewer(self, c: list[Any]) -> dict[str, Any]:
        n, nom = c
        return {"test": TestKind.EXISTS, "subject": _subj(nom), "count": n, "negated": True}

    def t_stat(self, c: list[Any]) -> dict[str, Any]:
        np = c[0]
        printed = "printed" in c
        stat, n, cmp = [x for x in c[1:] if x != "printed"]
        st = (Stat.PRINTED_COST if printed else Stat.COST) if stat == "cost" else (
            Stat.PRINTED_STR if printed else Stat.STR)
        self._about(np)
        return {"test": TestKind.IS, "target": np.target, "subject": Subject(compare=(Compare(st, _CMP[cmp], n),))}

    def t_no_cards(self, c: list[Any]) -> dict[str, Any]:
        player, whose = c
        if whose.scope is not player.subject.scope and whose.role is not PlayerRole.THAT:
            _fail("another player's hand")
        return {"test": TestKind.COMPARE, "target": player, "compare": Compare(Stat.CARDS_IN_HAND, Cmp.EQ, 0)}

    def t_has_in_zone(self, c: list[Any]) -> dict[str, Any]:
        player, n, nom = c
        fields = dict(nom)
        if fields.get("zone") in (None, Zone.PLAY):
            _fail("'has N or more' cards that are not in a zone")
        if fields.get("scope") not in (Scope.ANY, _OWN.get(player.subject.scope)) or \
                fields.get("player_role") not in (None, PlayerRole.THAT):
            _fail("another player's zone")
        fields.pop("player_role", None)
        fields.update(scope=_OWN.get(player.subject.scope, Scope.ANY))
        return {"test": TestKind.EXISTS, "subject": _subj(fields), "count": n}

    def t_no_opponent_controls(self, c: list[Any]) -> dict[str, Any]:
        np = c[0]
        return {"test": TestKind.NOT_EXISTS, "subject": replace(_sole(np), scope=Scope.OPPONENT_CONTROLS)}

    def t_gold_on(self, c: list[Any]) -> dict[str, Any]:
        np, n, cmp, ref = c
        if ref.target != np.target:
            _fail("gold on another card")
        self._about(np)
        gold = Subject(compare=(Compare(Stat.GOLD, _CMP[cmp], n),))
        return {"test": TestKind.IS, "target": np.target, "subject": gold}

    def _than_player(self, c: list[Any], stat: Stat) -> dict[str, Any]:
        player, cmp, other = c[0], c[1], c[-1]
        whose = _one(c, _Whose)
        if whose is not None and whose.scope is not player.subject.scope:
            _fail("another player's faction card")
        return {"test": TestKind.COMPARE, "target": player, "subject": other.subject,
                "compare": Compare(stat, _CMP_THAN[cmp], None, other.ref)}

    def t_more_cards(self, c: list[Any]) -> dict[str, Any]:
        return self._than_player(c, Stat.CARDS_IN_HAND)

    def t_more_power(self, c: list[Any]) -> dict[str, Any]:
        out = self._than_player(c, Stat.POWER)  # the power on that player's faction card
        s = out["target"].subject
        out["target"] = Target(TargetRef.FACTION_CARD, Subject(_CONTROL.get(s.scope, Scope.ANY), CardKind.FACTION_CARD))
        return out

    def t_a_challenge(self, c: list[Any]) -> dict[str, Any]:
        player, test = c[0], c[1]
        return {"test": test, "target": player, "challenge": self._icon(c), "period": c[-1]}

    def t_faction_power(self, c: list[Any]) -> dict[str, Any]:
        player, n, cmp, whose = c
        if whose.scope is not player.subject.scope:
            _fail("another player's faction card")
        fc = Target(TargetRef.FACTION_CARD, Subject(_CONTROL.get(whose.scope, Scope.ANY), CardKind.FACTION_CARD))
        return {"test": TestKind.COMPARE, "target": fc, "compare": Compare(Stat.POWER, _CMP[cmp], n)}

    def t_hand_size(self, c: list[Any]) -> dict[str, Any]:
        player = c[0]
        value, cmp = [x for x in c[1:] if not isinstance(x, _Whose)][:2]
        return {"test": TestKind.COMPARE, "target": player, "compare": Compare(Stat.CARDS_IN_HAND, _CMP[cmp], value)}

    def st_role(self, c: list[Any]) -> dict[str, Any]:
        return {"role": c[0]}

    def st_standing(self, c: list[Any]) -> dict[str, Any]:
        return {"standing": True}

    def st_kneeling(self, c: list[Any]) -> dict[str, Any]:
        return {"standing": False}

    def st_participating(self, c: list[Any]) -> dict[str, Any]:
        return {"role": ChallengeRole.PARTICIPATING}

    def st_in_play(self, c: list[Any]) -> dict[str, Any]:
        return {"zone": Zone.PLAY}

    def st_in_shadows(self, c: list[Any]) -> dict[str, Any]:
        return {"zone": Zone.SHADOWS}

    def st_a(self, c: list[Any]) -> dict[str, Any]:
        fields = dict(c[0])
        fields.pop("scope", None)
        return fields

    def st_title(self, c: list[Any]) -> dict[str, Any]:
        return {"title": str(c[0])[1:-1]}

    def st_unique(self, c: list[Any]) -> dict[str, Any]:
        return {"unique": True}

    def st_not_limited(self, c: list[Any]) -> dict[str, Any]:
        return {"limited": False}

    # ------------------------------------------------------------ limits, parentheticals
    def lim_limit(self, c: list[Any]) -> Limit:
        if c[0] is None:
            _fail("a variable limit")
        return Limit(c[0], c[1], LimitKind.LIMIT)

    def lim_max(self, c: list[Any]) -> Limit:
        if c[0] is None:
            _fail("a variable maximum")
        return Limit(c[0], c[1], LimitKind.MAX)

    def instead_unit(self, c: list[Any]) -> str:
        return str(c[0])

    def par_instead(self, c: list[Any]) -> Paren:
        n, unit, cond = c
        return Paren(instead=(unit, n, False, cond))

    def par_maximum(self, c: list[Any]) -> Paren:
        """"(to a maximum of 3 power)": the variable amount of the effect before it is at most that."""
        n = c[0]
        if n is None:
            _fail("a maximum of X")
        return Paren(maximum=(n, c[1] if len(c) > 1 else None))

    def par_instead_up_to(self, c: list[Any]) -> Paren:
        n, unit, cond = c
        return Paren(instead=(unit, n, True, cond))

    def par_instead_str(self, c: list[Any]) -> Paren:
        sign, n, cond = c
        if n is None and sign < 0:
            _fail("'-x str instead'")
        return Paren(instead=("str", None if n is None else sign * n, False, cond))

    def par_may_instead(self, c: list[Any]) -> Paren:
        effects, cond = c
        return Paren(instead_effects=tuple(replace(e, optional=True, instead=True, condition=cond) for e in effects))

    def par_instead_by(self, c: list[Any]) -> Paren:
        n, cond = c
        return Paren(instead=("by", n, False, cond))

    def par_instead_cost(self, c: list[Any]) -> Paren:
        n, cmp, cond = c
        if _CMP[cmp] is not Cmp.LE:
            _fail("a printed cost or higher instead")
        return Paren(instead=("printed_cost", n, False, cond))

    def par_act_instead(self, c: list[Any]) -> Paren:
        effects, cond = c
        return Paren(instead_effects=tuple(replace(e, instead=True, condition=cond) for e in effects))

    def par_limit(self, c: list[Any]) -> Paren:
        return Paren(limit=c[0])

    def par_uncancelable(self, c: list[Any]) -> Paren:
        return Paren(uncancelable=True)

    def par_any_player(self, c: list[Any]) -> Paren:
        return Paren(any_player=True)

    def par_cannot_be_saved(self, c: list[Any]) -> Paren:
        return Paren(cannot_be_saved=True)

    def par_x_not(self, c: list[Any]) -> Paren:
        """"(x cannot be 0)": the player picks X, never this value."""
        if c[0] is None:
            _fail("'x cannot be x'")
        return Paren(x_not=c[0])

    # ------------------------------------------------------------ triggers
    def after(self, c: list[Any]) -> Trigger:
        return c[0]

    when = after

    def _trig(self, t: Trigger) -> Trigger:
        if len(set(t.participants)) < len(t.participants):  # "2 or more attacking «Dothraki» characters"
            if len(set(t.participants)) != 1:
                _fail("several participants, some counted")
            t = replace(t, participants=t.participants[:1], participant_count=len(t.participants))
        self.ctx.trigger = t.subject
        if t.event is EventKind.ENTERS_ZONE and t.to_zone is not None and t.subject.zone is None:
            # "after an attachment enters your discard pile, place it in shadows": "it" is in that pile now
            self.ctx.trigger = replace(t.subject, zone=t.to_zone)
        if t.event is EventKind.REVEALED and t.from_zone is Zone.DRAW_DECK and t.subject.zone is None:
            # "when ~ is revealed from your deck, place it in shadows": "it" is still in that deck
            self.ctx.trigger = replace(t.subject, zone=t.from_zone)
        attached = [p for p in t.participants if p.scope is Scope.ATTACHED]
        if t.subject.card_type is None and len(t.participants) == 1 and attached:
            # "after you win a challenge in which attached character is participating, return it to shadows": the
            # card the trigger named is what "it" refers to, not the attachment
            self.ctx.antecedent = (Target(TargetRef.ATTACHED, attached[0]), 1)
        self.ctx.trigger_event = t.event
        return t

    def t_card(self, c: list[Any]) -> Trigger:
        np: _NP = c[0]
        ev: dict[str, Any] = dict(c[1])
        subj = np.target.subject
        if np.target.also:
            _fail("a trigger with alternative subjects")
        if "scope" in ev:  # "is returned to an opponent's hand": whose the card is
            if subj.scope not in (Scope.ANY, Scope.SELF):
                _fail("conflicting scopes")
            if subj.scope is Scope.ANY:
                subj = replace(subj, scope=ev["scope"])
            del ev["scope"]
        for mod in c[2:]:
            for k, v in mod.items():
                if k == "scope":
                    if subj.scope is Scope.SELF:
                        continue
                    subj = replace(subj, scope=v)
                elif k in ev and ev[k] != v:
                    _fail(f"conflicting trigger {k}")
                else:
                    ev[k] = v
        if np.count not in (1, None):
            ev.setdefault("amount", np.count)
        return self._trig(Trigger(subject=subj, **ev))

    def t_challenge(self, c: list[Any]) -> Trigger:
        player, win, ch = c[0], c[1], c[2]
        fields: dict[str, Any] = dict(ch)
        for mod in c[3:]:
            mod = dict(mod)
            if mod.pop("_against_you", False) and player.subject.scope is not Scope.OPPONENT:
                _fail("'against you' of a challenge that is not an opponent's")
            for k, v in mod.items():
                if k == "as_role" and fields.get(k, v) != v:
                    _fail("two roles of the player")
                fields[k] = fields.get(k, ()) + v if k == "participants" else v
        ev = EventKind.WIN_CHALLENGE if win else EventKind.LOSE_CHALLENGE
        return self._trig(Trigger(ev, player.subject, **fields))

    def challenge_np(self, c: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if "unopposed" in c:
            out["unopposed"] = True
        icons = [x for x in c if isinstance(x, tuple)]
        if icons:
            out["challenge"] = icons[0][0]
            out["also_challenges"] = icons[0][1:]
        return out

    def challenge_icons(self, c: list[Any]) -> tuple[ChallengeType, ...]:
        return tuple(_ICONS[str(t)] for t in c if isinstance(t, Token) and t.type == "T_ICON")

    def cm_in_which(self, c: list[Any]) -> dict[str, Any]:
        if isinstance(c[0], _AsRole):
            return {"as_role": c[0].role}
        return {"participants": c[0]}

    def cm_as(self, c: list[Any]) -> dict[str, Any]:
        if c[0] not in (PlayerRole.ATTACKING, PlayerRole.DEFENDING):
            _fail("as a player that is not the attacking or defending player")
        return {"as_role": c[0]}

    def cm_against_you(self, c: list[Any]) -> dict[str, Any]:
        """"after an opponent wins a challenge against you": the opponent was the attacking player (you defended)."""
        return {"as_role": PlayerRole.ATTACKING, "_against_you": True}

    def cm_by(self, c: list[Any]) -> dict[str, Any]:
        return {"by_str": c[0]}

    def cm_you_won(self, c: list[Any]) -> dict[str, Any]:
        return {"subject": Subject(Scope.YOU, player_role=PlayerRole.WINNING)}

    def t_phase(self, c: list[Any]) -> Trigger:
        phase, begins = c
        return self._trig(Trigger(EventKind.PHASE_BEGINS if begins else EventKind.PHASE_ENDS,
                                  Subject(Scope.ANY_PLAYER), phase))

    def t_any_phase(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.PHASE_BEGINS if c[0] else EventKind.PHASE_ENDS, Subject(Scope.ANY_PLAYER)))

    def t_dominance(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.WIN_DOMINANCE if c[1] else EventKind.LOSE_DOMINANCE, c[0].subject))

    def t_initiative(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.WIN_INITIATIVE if c[1] else EventKind.LOSE_INITIATIVE, c[0].subject))

    def _icon(self, c: list[Any]) -> ChallengeType | None:
        icon = [t for t in c if isinstance(t, Token) and t.type == "T_ICON"]
        return _ICONS[str(icon[0])] if icon else None

    @staticmethod
    def _in_which(c: list[Any]) -> dict[str, Any]:
        """"... a challenge in which you control an attacking «Raider» character" / "in which you are the defending
        player": the participants, or the player's role."""
        for x in c:
            if isinstance(x, _AsRole):
                return {"as_role": x.role}
            if isinstance(x, tuple) and all(isinstance(y, Subject) for y in x):
                return {"participants": x}
        return {}

    def t_initiate(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.INITIATE_CHALLENGE, c[0].subject, Phase.CHALLENGES, self._icon(c),
                                  **self._in_which(c)))

    def t_initiate_against_you(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.CHALLENGE_AGAINST, c[0].subject, Phase.CHALLENGES, self._icon(c),
                                  **self._in_which(c)))

    def t_initiated_against_you(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.CHALLENGE_AGAINST, Subject(Scope.OPPONENT), Phase.CHALLENGES,
                                  self._icon(c), **self._in_which(c)))

    def t_initiated(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.INITIATE_CHALLENGE, Subject(Scope.ANY_PLAYER), Phase.CHALLENGES,
                                  self._icon(c), **self._in_which(c)))

    def t_income(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.COLLECT_INCOME, c[0].subject, Phase.MARSHALING))

    def t_draw(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.DRAW, c[0].subject, amount=c[1]))

    def cc_one(self, c: list[Any]) -> int | None:
        return None

    def cc_more(self, c: list[Any]) -> int | None:
        return c[0]

    def cc_any(self, c: list[Any]) -> int | None:
        return None

    def _card_of_player(self, player: Target, np: _NP, own: bool = False) -> Subject:
        s = _sole(np)
        scope = (_OWN if own else _CONTROL).get(player.subject.scope, Scope.ANY)
        if s.scope not in (Scope.ANY, scope):
            _fail("conflicting scopes")
        return replace(s, scope=scope)

    def t_reveal(self, c: list[Any]) -> Trigger:
        s = self._card_of_player(c[0], c[1])
        return self._trig(Trigger(EventKind.PLOT_REVEALED if s.card_type is CardKind.PLOT else EventKind.REVEALED, s,
                                  Phase.PLOT if s.card_type is CardKind.PLOT else None))

    def t_revealed(self, c: list[Any]) -> Trigger:
        s = _sole(c[0])
        # (no phase: a plot is revealed in the plot phase, or by an effect in another one, "Rains of Castamere")
        t = Trigger(EventKind.PLOT_REVEALED if s.card_type is CardKind.PLOT else EventKind.REVEALED, s)
        for mod in c[1:]:
            if "scope" in mod or "phase" in mod:
                _fail("a modifier of a revealed card")
            t = replace(t, **mod)
        return self._trig(t)

    def t_play(self, c: list[Any]) -> Trigger:
        s = self._card_of_player(c[0], c[1])
        if s.card_type is not CardKind.EVENT:
            _fail("playing a card that is not an event")
        return self._trig(Trigger(EventKind.EVENT_PLAYED, s))

    def t_played(self, c: list[Any]) -> Trigger:
        s = _sole(c[0])
        if s.card_type is not CardKind.EVENT:
            _fail("playing a card that is not an event")
        return self._trig(Trigger(EventKind.EVENT_PLAYED, s))

    def t_marshal(self, c: list[Any]) -> Trigger:
        np: _NP = c[1]
        s = _sole(np) if np.target.ref is TargetRef.SELF else self._card_of_player(c[0], np)
        t = Trigger(EventKind.MARSHALED, s, Phase.MARSHALING)
        for mod in c[2:]:
            if "scope" in mod or "phase" in mod:
                _fail("a marshal trigger modifier")
            t = replace(t, **mod)
        return self._trig(t)

    def t_marshal_or_play(self, c: list[Any]) -> Trigger:
        s = self._card_of_player(c[0], c[1])
        return self._trig(Trigger(EventKind.MARSHALED_OR_PLAYED, s))

    def t_would_initiate(self, c: list[Any]) -> Trigger:
        owner, kind = c[0]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if kinds[0] is CardKind.EVENT:
            also = (EventKind.ABILITY_WOULD_INITIATE,) if len(kinds) > 1 else ()
            return self._trig(Trigger(EventKind.EVENT_WOULD_INITIATE, Subject(owner, kinds[0], other_types=kinds[1:]),
                                      also_events=also))
        return self._trig(Trigger(EventKind.ABILITY_WOULD_INITIATE, Subject(owner, kinds[0], other_types=kinds[1:])))

    def ability_np(self, c: list[Any]) -> tuple[Scope, CardKind]:
        return c[0], c[1]

    def ability_owner(self, c: list[Any]) -> Scope:
        return Scope.OPPONENT_CONTROLS if "opponent" in _words(c) else Scope.ANY

    def ak_event(self, c: list[Any]) -> CardKind:
        return CardKind.EVENT

    def ak_ability(self, c: list[Any]) -> CardKind:
        return CardKind.CARD

    def ability_card_kind(self, c: list[Any]) -> CardKind:
        return CardKind(str(c[0]))

    def ability_card_kinds(self, c: list[Any]) -> tuple[CardKind, ...]:
        return tuple(x for x in c if isinstance(x, CardKind))

    def ak_kinds(self, c: list[Any]) -> tuple[CardKind, ...]:
        return c[0]

    def ak_event_or_kinds(self, c: list[Any]) -> tuple[CardKind, ...]:
        return (CardKind.EVENT, *c[0])

    def ak_character(self, c: list[Any]) -> CardKind:
        return CardKind.CHARACTER

    def ak_location(self, c: list[Any]) -> CardKind:
        return CardKind.LOCATION

    def ak_attachment(self, c: list[Any]) -> CardKind:
        return CardKind.ATTACHMENT

    def ak_any(self, c: list[Any]) -> CardKind:
        _fail("an event or a triggered ability")
        raise AssertionError

    ak_event_or_location = ak_any

    def t_power_gained(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.GAIN_POWER, _sole(c[0])))

    def t_power_moved(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.POWER_MOVED, _sole(c[0])))

    def t_power_gained_or_moved(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.GAIN_POWER, _sole(c[0]), also_events=(EventKind.POWER_MOVED,)))

    def t_power_placed(self, c: list[Any]) -> Trigger:
        n, np = c
        return self._trig(Trigger(EventKind.GAIN_POWER, _sole(np), amount=n if n != 1 else None))

    def _player_power(self, c: list[Any], more: bool) -> Trigger:
        player, n = c[0], c[1]
        if not more and n != 1:
            _fail("gaining exactly N power")
        whose = _one(c, _Whose)
        if whose is not None and whose.scope is not player.subject.scope and whose.role is not PlayerRole.THAT:
            _fail("gaining power for another player's faction")
        s = Subject(_CONTROL.get(player.subject.scope, Scope.ANY), CardKind.FACTION_CARD)
        return self._trig(Trigger(EventKind.GAIN_POWER, s, amount=n if more else None))

    def t_player_power(self, c: list[Any]) -> Trigger:
        return self._player_power(c, False)

    def t_player_power_more(self, c: list[Any]) -> Trigger:
        return self._player_power(c, True)

    def t_claim(self, c: list[Any]) -> Trigger:
        fields: dict[str, Any] = {}
        if "unopposed" in c:
            fields["unopposed"] = True
        icons = _one(c, tuple)
        if icons:
            fields["challenge"], fields["also_challenges"] = icons[0], icons[1:]
        for mod in c:
            if isinstance(mod, dict):
                for k, v in mod.items():
                    fields[k] = fields.get(k, ()) + v if k == "participants" else v
        subject = fields.pop("subject", Subject(Scope.ANY_PLAYER))
        return self._trig(Trigger(EventKind.CLAIM_APPLIED, subject, Phase.CHALLENGES, **fields))

    def t_challenge_ends(self, c: list[Any]) -> Trigger:
        return self._trig(Trigger(EventKind.CHALLENGE_ENDS, Subject(Scope.ANY_PLAYER), Phase.CHALLENGES))

    def t_no_defenders(self, c: list[Any]) -> Trigger:
        t = Trigger(EventKind.NO_DEFENDERS, Subject(Scope.ANY_PLAYER), Phase.CHALLENGES)
        for mod in c:
            if set(mod) - {"in_challenge", "phase", "participants", "challenge", "as_role"}:
                _fail("a modifier of declaring no defenders")
            t = replace(t, **mod)
        return self._trig(t)

    def _ev(self, ev: EventKind, **kw: Any) -> dict[str, Any]:
        return {"event": ev, **kw}

    def ev_enters(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.ENTERS_PLAY)

    def ev_enters_zone(self, c: list[Any]) -> dict[str, Any]:
        whose, zones = c[0]
        if zones[0] is Zone.SHADOWS or whose is None or whose.role is not None or whose.owner or whose.controller:
            _fail("entering shadows, or the zone of a player named by role")
        out = self._ev(EventKind.ENTERS_ZONE, to_zone=zones[0])
        if whose.scope is not Scope.ANY_PLAYER:
            out["scope"] = _OWN[whose.scope]
        return out

    def ev_knelt(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.KNELT)

    def ev_stood(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.STOOD)

    def ev_killed(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.KILLED)

    def ev_would_killed(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.WOULD_BE_KILLED)

    def ev_leaves(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.LEAVES_PLAY)

    def ev_would_leave(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.WOULD_LEAVE_PLAY)

    def ev_out_of_shadows(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.OUT_OF_SHADOWS)

    def ev_sacrificed(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.SACRIFICED)

    def ev_would_sacrificed(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.WOULD_BE_SACRIFICED)

    def ev_discarded(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.DISCARDED)

    ev_discarded_any = ev_discarded

    def ev_discarded_from(self, c: list[Any]) -> dict[str, Any]:
        return dict(self.tm_from(c), event=EventKind.DISCARDED)

    def ev_would_discarded(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.WOULD_BE_DISCARDED)

    def ev_returned(self, c: list[Any]) -> dict[str, Any]:
        whose = _one(c, _Whose)
        if whose is None:
            return self._ev(EventKind.RETURNED_TO_HAND)
        if whose.role is PlayerRole.THAT or whose.owner:  # "to its owner's hand", "to their hand"
            return self._ev(EventKind.RETURNED_TO_HAND)
        return self._ev(EventKind.RETURNED_TO_HAND, scope=_OWN.get(whose.scope, Scope.ANY))

    def ev_would_return(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.WOULD_BE_RETURNED_TO_HAND)

    def ev_gains_power(self, c: list[Any]) -> dict[str, Any]:
        nums = [x for x in c if isinstance(x, int)]
        if nums and nums[0] != 1:
            _fail("gaining exactly N power")
        return self._ev(EventKind.GAIN_POWER)

    def ev_gains_power_more(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.GAIN_POWER, amount=c[0])

    def ev_attacker(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.DECLARED_ATTACKER, phase=Phase.CHALLENGES)

    def ev_attacker_or_defender(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.DECLARED_ATTACKER, phase=Phase.CHALLENGES, also_events=(EventKind.DECLARED_DEFENDER,))

    def ev_defender(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.DECLARED_DEFENDER, phase=Phase.CHALLENGES)

    def ev_killed_or_sacrificed(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.KILLED, also_events=(EventKind.SACRIFICED,))

    def ev_would_killed_or_discarded(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.WOULD_BE_KILLED, also_events=(EventKind.WOULD_BE_DISCARDED,))

    def ev_saved(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.SAVED)

    def ev_put_into_play(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.PUT_INTO_PLAY)

    def ev_removed_from_challenge(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.REMOVED_FROM_CHALLENGE, phase=Phase.CHALLENGES)

    def ev_put_into_shadows(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.PUT_INTO_SHADOWS)

    def ev_stealth(self, c: list[Any]) -> dict[str, Any]:
        self.ctx.object = Subject(card_type=CardKind.CHARACTER)  # "that character": the one bypassed
        return self._ev(EventKind.STEALTH_BYPASS, phase=Phase.CHALLENGES)

    def ev_stealth_what(self, c: list[Any]) -> dict[str, Any]:
        """"after ~ bypasses a non-loyal character using stealth": the character bypassed is the event's object."""
        np: _NP = c[0]
        if np.target.ref is not TargetRef.CHOSEN or np.target.also or np.count != 1:
            _fail("bypassing a named card using stealth")
        self.ctx.object = _sole(np)
        return self._ev(EventKind.STEALTH_BYPASS, phase=Phase.CHALLENGES, object=self.ctx.object)

    def ev_pillage(self, c: list[Any]) -> dict[str, Any]:
        self.ctx.object = Subject(card_type=CardKind.CARD)  # "that card": the one discarded
        return self._ev(EventKind.PILLAGE_DISCARD, phase=Phase.CHALLENGES)

    def ev_pillage_what(self, c: list[Any]) -> dict[str, Any]:
        np: _NP = c[0]
        if np.target.ref is not TargetRef.CHOSEN or np.target.also:
            _fail("discarding a named card using pillage")
        self.ctx.object = _sole(np)
        return self._ev(EventKind.PILLAGE_DISCARD, phase=Phase.CHALLENGES, object=self.ctx.object)

    def ev_marshaled(self, c: list[Any]) -> dict[str, Any]:
        return self._ev(EventKind.MARSHALED, phase=Phase.MARSHALING)

    def ev_str_increased(self, c: list[Any]) -> dict[str, Any]:
        """"after another character's STR is increased by a card effect": a STR modifier of more than 0 begins to
        apply to the card."""
        return self._ev(EventKind.STR_INCREASED)

    def tm_phase(self, c: list[Any]) -> dict[str, Any]:
        return {"phase": c[0]}

    def tm_challenge(self, c: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"in_challenge": True, "phase": Phase.CHALLENGES}
        icon = self._icon(c)
        if icon is not None:
            out["challenge"] = icon
        parts = [x for x in c if isinstance(x, tuple)]
        if parts:
            out["participants"] = parts[0]
        role = _one(c, _AsRole)
        if role is not None:
            out["as_role"] = role.role
        return out

    _MEANS = {Keyword.AMBUSH: Means.AMBUSH, Keyword.ASSAULT: Means.ASSAULT, Keyword.PILLAGE: Means.PILLAGE,
              Keyword.STEALTH: Means.STEALTH, Keyword.INSIGHT: Means.INSIGHT, Keyword.RENOWN: Means.RENOWN,
              Keyword.SHADOW: Means.SHADOWS}

    def tm_using(self, c: list[Any]) -> dict[str, Any]:
        if c[0] not in self._MEANS:
            _fail("by a keyword that is not a means")
        return {"means": self._MEANS[c[0]]}

    def tm_from_two(self, c: list[Any]) -> dict[str, Any]:
        whose, z1, z2 = c
        if whose.scope is not Scope.YOU:
            _fail("from another player's zones")
        return {"from_zone": z1, "also_zones": (z2,)}

    def tm_card_effect(self, c: list[Any]) -> dict[str, Any]:
        return {"means": Means.CARD_EFFECT}

    def tm_you_control(self, c: list[Any]) -> dict[str, Any]:
        return {"scope": Scope.YOU_CONTROL}

    def tm_opponent_controls(self, c: list[Any]) -> dict[str, Any]:
        return {"scope": Scope.OPPONENT_CONTROLS}

    def tm_from(self, c: list[Any]) -> dict[str, Any]:
        whose, zones = c[0]
        out: dict[str, Any] = {"from_zone": zones[0]}
        if zones[1:]:  # "from an opponent's hand or deck"
            out["also_zones"] = tuple(zones[1:])
        if whose is None or whose.scope is Scope.YOU:
            return out
        if whose.each or whose.owner or whose.role is not None:
            _fail("from the zone of a player named by role")
        return dict(out, scope=_OWN.get(whose.scope, Scope.ANY))  # whose the card is

    # ------------------------------------------------------------ sentences
    def start_trigger(self, c: list[Any]) -> Trigger:
        return c[0]

    def start_costs(self, c: list[Any]) -> list[Effect]:
        return c[0]

    def start_sentence(self, c: list[Any]) -> list[Effect]:
        return c[0]

    def start_paren(self, c: list[Any]) -> Paren:
        return c[0]

    def start_limit(self, c: list[Any]) -> Limit:
        return c[0]

    def start_condition(self, c: list[Any]) -> Condition:
        return c[0]

    def start_definition(self, c: list[Any]) -> Quantity:
        return c[0]

    def start_restriction(self, c: list[Any]) -> Subject:
        return c[0]

    def start_copy_limit(self, c: list[Any]) -> Effect:
        n, (kind, _plural) = c
        return Effect(EffectKind.COPY_LIMIT, n, Target(TargetRef.ATTACHED, Subject(Scope.ATTACHED, kind)))

    def restr_nominal(self, c: list[Any]) -> Subject:
        return _subj(c[0])

    def restr_poss(self, c: list[Any]) -> Subject:
        return _sole(self._poss(c[0], c[1], TargetRef.CHOSEN))

    def restr_opponent(self, c: list[Any]) -> Subject:
        return _sole(self._poss(_Whose(Scope.OPPONENT), c[0], TargetRef.CHOSEN))

    def player_stat(self, c: list[Any]) -> EffectKind:
        return {"income": EffectKind.INCOME_MOD, "reserve": EffectKind.RESERVE_MOD,
                "initiative": EffectKind.INITIATIVE_MOD, "claim": EffectKind.CLAIM_MOD}[str(c[0])]

    def body_play_only(self, c: list[Any]) -> list[Effect]:
        return [Effect(EffectKind.PLAY_RESTRICTION, None, Target(TargetRef.SELF, Subject(Scope.SELF,
                                                                                         self.ctx.card_kind)),
                       condition=c[0])]

    def body_stat_mod(self, c: list[Any]) -> list[Effect]:
        sign, n, kind = c
        return [Effect(kind, None if n is None else sign * n, self._you(), minus=n is None and sign < 0)]

    def _apply_leads(self, effects: list[Effect], leads: list[Any], tails: list[Any]) -> list[Effect]:
        for lead in reversed(leads + tails):
            kind, value = lead
            if kind == "condition":
                effects = [self._cond(e, value) for e in effects]
            elif kind == "duration":
                effects = self._durs(effects, value)
            else:
                effects = [replace(e, at_end_of=value) for e in effects]
        return effects

    def _cond(self, e: Effect, cond: Condition) -> Effect:
        if e.condition is not None:
            _fail("two conditions on one effect")
        return replace(e, condition=cond)

    @staticmethod
    def _at_once(e: Effect) -> bool:
        """The effect happens at once, so a duration of its sentence is not its own; one with a condition lasts as
        the condition is watched ("until the end of the phase, that character gets -2 STR and is killed if its STR is
        0")."""
        return e.kind in INSTANT_EFFECTS and e.condition is None

    def _dur(self, e: Effect, d: Duration) -> Effect:
        if self._at_once(e):  # the duration is another effect's of its sentence
            return e
        if e.duration is not None and e.duration is not d:
            _fail("two durations on one effect")
        return replace(e, duration=d)

    def _durs(self, effects: list[Effect], d: Duration) -> list[Effect]:
        """A duration over joined effects: each lasting one lasts that long; those that happen at once are not
        changed; a duration that governs none of them is not read."""
        if all(self._at_once(e) for e in effects):
            _fail("a duration of effects that all happen at once")
        return [self._dur(e, d) for e in effects]

    def sentence(self, c: list[Any]) -> list[Effect]:
        leads = [x for x in c if isinstance(x, tuple) and x[0] not in ("tail", "instead_of", "instead", "replaces")]
        tails = [x[1] for x in c if isinstance(x, tuple) and x[0] == "tail"]
        body = [x for x in c if isinstance(x, list)][0]
        for x in c:
            if isinstance(x, tuple) and x[0] == "instead":
                body = [replace(e, instead=True) for e in body]
            if isinstance(x, tuple) and x[0] == "replaces":
                body = [replace(e, replaces=x[1]) for e in body]
            if isinstance(x, tuple) and x[0] == "instead_of":
                zone, cond = x[1]
                body = [replace(e, instead=True, instead_of=zone) for e in body]
                if cond is not None:
                    tails.append(cond)
        return self._apply_leads(body, leads, [("condition", t) for t in tails])

    def choice(self, c: list[Any]) -> list[Effect]:
        leads = [x for x in c if isinstance(x, tuple) and x[0] != "tail"]
        tails = [x[1] for x in c if isinstance(x, tuple) and x[0] == "tail"]
        options = tuple(tuple(o) for o in c if isinstance(o, list))
        return self._apply_leads([Effect(EffectKind.CHOICE, None, Target(TargetRef.PLAYER, Subject(Scope.YOU)),
                                         options=options)], leads, [("condition", t) for t in tails])

    def option(self, c: list[Any]) -> list[Effect]:
        return c[0]

    def lead_condition(self, c: list[Any]) -> tuple[str, Any]:
        return "condition", c[0]

    def lead_duration(self, c: list[Any]) -> tuple[str, Any]:
        return "duration", c[0]

    def lead_at_end(self, c: list[Any]) -> tuple[str, Any]:
        return "at_end", c[0]

    def lead_instead_of_claim(self, c: list[Any]) -> tuple[str, Any]:
        """"when claim is applied ..., instead of the normal claim effects, kill that character"."""
        if self.ctx.trigger_event is not EventKind.CLAIM_APPLIED:
            _fail("'instead of the normal claim effects' without claim being applied")
        return "replaces", EventKind.CLAIM_APPLIED

    def tail_condition(self, c: list[Any]) -> tuple[str, Any]:
        return "tail", c[0]

    def tail_instead(self, c: list[Any]) -> tuple[str, Any]:
        return "instead", None

    def raw_pronoun(self, c: list[Any]) -> str:
        return "pronoun"

    def tail_instead_of(self, c: list[Any]) -> tuple[str, Any]:
        """"instead of placing it in your discard pile": "it" is the card of the effect it replaces.  "his or her
        pile" names the player named before: a card only ever goes to its owner's piles (Ownership and Control),
        so that is the owner's pile, as "your" is for your cards."""
        whose, zone = c[-2], c[-1]
        if whose.scope is not Scope.YOU and not whose.owner and whose.role is not PlayerRole.THAT:
            _fail("instead of placing it in another player's pile")
        cond = c[0] if isinstance(c[0], Condition) else None
        return "instead_of", (zone, cond)

    tail_instead_of_if = tail_instead_of

    def body(self, c: list[Any]) -> list[Effect]:
        effects: list[Effect] = c[0]
        if len(c) > 1:
            effects = self._durs(effects, c[1])
        return effects

    def body_may(self, c: list[Any]) -> list[Effect]:
        return [replace(e, optional=True) for e in self.body(c)]

    def body_may_repeat(self, c: list[Any]) -> list[Effect]:
        """"you may kneel a character to initiate this effect again": if you pay (your cards, as for a cost), the
        ability's effects resolve again (``repeat``, on condition that you do)."""
        paid: list[Effect] = []
        for e in c[0]:
            t = e.target
            if t.ref in (TargetRef.CHOSEN, TargetRef.COST) and t.subject.scope is Scope.ANY and not t.is_player:
                t = replace(t, subject=replace(t.subject, scope=Scope.YOU_CONTROL))
            paid.append(replace(e, target=t))
        pay = Condition(CondWord.IF, TestKind.DOES, self._you(), effects=tuple(paid))
        return [Effect(EffectKind.REPEAT, 1, self._you(), optional=True, condition=pay)]

    def body_gains_that_icon(self, c: list[Any]) -> list[Effect]:
        """"that character loses an [intrigue] or [power] icon and ~ gains that icon": whichever icon the card loses
        (the player's choice when two are named), this card gains it."""
        effects: list[Effect] = c[0]
        me = Target(TargetRef.SELF, Subject(Scope.SELF, self.ctx.card_kind))

        def gain(opt: tuple[Effect, ...]) -> tuple[Effect, ...]:
            if len(opt) != 1 or opt[0].kind is not EffectKind.ICON_MOD or opt[0].amount != -1 \
                    or opt[0].challenge is None:
                _fail("'~ gains that icon' after no icon lost")
            return (*opt, Effect(EffectKind.ICON_MOD, 1, me, challenge=opt[0].challenge))
        if len(effects) != 1:
            _fail("'~ gains that icon' after several effects")
        (e,) = effects
        if e.kind is EffectKind.CHOICE:
            return [replace(e, options=tuple(gain(o) for o in e.options))]
        return list(gain((e,)))

    def body_subject(self, c: list[Any]) -> list[Effect]:
        return c[0]

    def body_you_and_player(self, c: list[Any]) -> list[Effect]:
        """"you and that player each draw 2 cards": the same effects for you and for the other player."""
        other: Target = c[0]
        if other.ref is TargetRef.EACH or other.subject.scope is Scope.YOU:
            _fail("'you and' a player that is not one other player")
        return self.body_player([self._you(), c[1]]) + self.body_player([other, c[1]])

    def body_player(self, c: list[Any]) -> list[Effect]:
        player: Target = c[0]
        out: list[Effect] = []
        for make in c[1]:
            out.extend(make(player))
        return out

    def act_list(self, c: list[Any]) -> list[Effect]:
        out: list[Effect] = []
        for x in c:
            if isinstance(x, list):
                out.extend(x)
        return out

    def act_sep(self, c: list[Any]) -> None:
        return None

    vp_sep = act_sep

    # ------------------------------------------------------------ acts (imperative verb phrases)
    def _target(self, np: _NP, default: Scope | None = None) -> Target:
        t = np.target
        if default is not None and t.subject.scope is Scope.ANY and t.ref in (TargetRef.CHOSEN, TargetRef.EACH):
            # "put a «House Bolton» or non-[stark] character ... into play from your hand": yours, either of them
            also = tuple(replace(a, subject=replace(a.subject, scope=default)) if a.subject.scope is Scope.ANY else a
                         for a in t.also)
            t = replace(t, subject=replace(t.subject, scope=default), also=also)
        trigger_card = self.ctx.trigger is not None and self.ctx.trigger.card_type is not None
        if not np.pronoun and self.ctx.in_cost and t.ref is TargetRef.SELF and not t.also:
            self.self_in_costs = True
        if not np.pronoun and self.ctx.in_cost and t.ref is TargetRef.SELF and t.also:
            # "kneel ~ or a «Small Council» character to choose another card ... with equal or lower printed cost":
            # the card that paid, whichever it was
            self.ctx.antecedent = (replace(t, ref=TargetRef.COST), np.count)
        elif not np.pronoun and self.ctx.in_cost and trigger_card and self.ctx.trigger is not None \
                and self.ctx.trigger.scope is not Scope.SELF and t.ref is TargetRef.CHOSEN:
            # "when a character would be killed, kneel a «Maester» character to save it": "it" is the card of the
            # trigger; the card paid is still what a comparison with it means
            self.ctx.paid = replace(t, ref=TargetRef.COST)
        elif not np.pronoun and (t.ref in (TargetRef.CHOSEN, TargetRef.EACH)
                                 or t.ref is TargetRef.ATTACHED and not trigger_card):
            # "stand attached character and remove it from the challenge": "it" is the card acted on last; with a
            # card in the triggering condition, "kneel attached character to save it" saves that card
            ref = TargetRef.COST if self.ctx.in_cost and t.ref is TargetRef.CHOSEN else t.ref
            # "kneel a «Direwolf» character or a character with a «Direwolf» attachment to have it participate": "it"
            # is the card that paid, whichever alternative it fits
            also = tuple(replace(a, ref=ref) if a.ref is t.ref else a for a in t.also)
            self.ctx.antecedent = (replace(t, ref=ref, also=also), np.count)
            if ref is TargetRef.COST:
                self.ctx.paid = self.ctx.antecedent[0]
        return t

    def _on_each(self, np: _NP, make: Any, default: Scope | None = None) -> list[Effect]:
        out = []
        self.lists_read.add(id(np))
        targets = []
        for part in (replace(np, conj=()), *np.conj):
            ante = self.ctx.antecedent
            t = self._target(part, default)
            out.append(make(t, part))
            if self.ctx.antecedent is not ante:  # a card named (not a pronoun): "them" could mean it
                targets.append(self.ctx.antecedent[0] if self.ctx.antecedent is not None else t)
        if targets:
            self.ctx.group = tuple(targets) if len(targets) > 1 else ()
        return out

    def _simple(self, kind: EffectKind, np: _NP, default: Scope | None = None, **kw: Any) -> list[Effect]:
        return self._on_each(np, lambda t, p: Effect(kind, p.count, t, up_to=p.up_to, **kw), default)

    def a_stand(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.STAND, c[0])

    def a_kneel(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.KNEEL, c[0])

    def a_kill(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.KILL, c[0])

    def a_sacrifice(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.SACRIFICE, c[0], Scope.YOU_CONTROL)

    def a_discard(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.DISCARD, c[0])

    def a_discard_bare(self, c: list[Any]) -> list[Effect]:
        """"discard it" (a card in play: from play), "discard the top card of your deck" (to the discard pile)."""
        np: _NP = c[0]
        if np.target.subject.zone in (None, Zone.PLAY):
            if not np.pronoun and np.target.ref is not TargetRef.SELF:
                _fail("discarding a card in play without 'from play'")
            return self._simple(EffectKind.DISCARD, np)
        return self._to_zone(np, Zone.DISCARD_PILE, None)

    def a_save(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.SAVE, c[0])

    def a_choose(self, c: list[Any]) -> list[Effect]:
        np: _NP = c[0]
        if np.target.ref not in (TargetRef.CHOSEN,) or np.pronoun:
            _fail("choosing what is not a choice")
        return self._simple(EffectKind.CHOOSE, np)

    def a_choose_and_type(self, c: list[Any]) -> list[Effect]:
        """"choose a character and a challenge type": the character, and a challenge type the player picks (which
        "of that type" refers to)."""
        self.ctx.named_type = True
        return self.a_choose(c) + [Effect(EffectKind.NAME, 1, self._you(), named=Named.CHALLENGE_TYPE)]

    def a_choose_player(self, c: list[Any]) -> list[Effect]:
        p: Target = c[0]
        chosen = Target(TargetRef.CHOSEN, p.subject)
        self.ctx.player = Target(TargetRef.PLAYER, replace(p.subject, player_role=PlayerRole.THAT))
        return [Effect(EffectKind.CHOOSE, 1, chosen)]

    def a_choose_and(self, c: list[Any]) -> list[Effect]:
        kind, np = c
        if np.target.ref is not TargetRef.CHOSEN:
            _fail("choosing what is not a choice")
        return self._simple(kind, np, Scope.YOU_CONTROL if kind is EffectKind.SACRIFICE else None)

    def a_choose_discard(self, c: list[Any]) -> list[Effect]:
        return self.a_choose_and([EffectKind.DISCARD, c[0]])

    def a_kneel_and(self, c: list[Any]) -> list[Effect]:
        """"kneel and sacrifice ~", "kneel and return ~ to shadows": both verbs act on the one card of the second."""
        rest: list[Effect] = c[0]
        if not rest or any(e.target != rest[0].target for e in rest) or rest[0].target.is_player \
                or rest[0].target.ref is TargetRef.EACH or rest[0].amount != 1:
            _fail("'kneel and ...' of what is not one card")
        return [Effect(EffectKind.KNEEL, 1, rest[0].target), *rest]

    def _you(self) -> Target:
        return Target(TargetRef.PLAYER, Subject(Scope.YOU))

    def a_gain_gold(self, c: list[Any]) -> list[Effect]:
        return [Effect(EffectKind.GAIN_GOLD, c[0], self._you(), x=_one(c, Quantity))]

    def _faction_of(self, w: _Whose) -> Target:
        if w.scope is Scope.YOU:
            return Target(TargetRef.FACTION_CARD, Subject(Scope.YOU_CONTROL, CardKind.FACTION_CARD))
        _fail("power for another player's faction")
        raise AssertionError

    def a_gain_faction_power(self, c: list[Any]) -> list[Effect]:
        return [Effect(EffectKind.GAIN_POWER, c[0], self._faction_of(c[1]), x=_one(c, Quantity))]

    def a_gain_power_self(self, c: list[Any]) -> list[Effect]:
        return [Effect(EffectKind.GAIN_POWER, c[0], self._faction_of(_Whose(Scope.YOU)))]

    def a_draw(self, c: list[Any]) -> list[Effect]:
        if c[1][0] is not CardKind.CARD:
            _fail("drawing a card type")
        return [Effect(EffectKind.DRAW, c[0], self._you(), x=_one(c, Quantity))]

    def a_give_str(self, c: list[Any]) -> list[Effect]:
        np, sign, n = c[0], c[1], c[2]
        dur = _one(c, Duration)
        return self._on_each(np, lambda t, p: Effect(EffectKind.STR_MOD, None if n is None else sign * n, t,
                                                      duration=dur, minus=n is None and sign < 0))

    def a_apply_claim(self, c: list[Any]) -> list[Effect]:
        return [Effect(EffectKind.APPLY_CLAIM, 1, self._you(), challenge=_ICONS[str(c[0])])]

    def a_draw_one(self, c: list[Any]) -> list[Effect]:
        return [Effect(EffectKind.DRAW, 1, self._you())]

    def a_draw_that_many(self, c: list[Any]) -> list[Effect]:
        """"after an opponent draws 1 or more cards, ... draw that many cards": as many as the triggering event
        counted (only after a triggering condition that counts cards)."""
        if self.ctx.trigger_event not in _COUNTED_EVENTS:
            _fail("'that many' with no count to refer to")
        return [Effect(EffectKind.DRAW, None, self._you(), x=Quantity(QuantityKind.TRIGGER))]

    def a_resolve_when_revealed(self, c: list[Any]) -> list[Effect]:
        """"initiate the when revealed ability on a revealed plot card as if you had just revealed it" (the
        pronoun at the end is the card named before it)."""
        np: _NP = c[0]
        s = np.target.subject
        if s.card_type not in (CardKind.PLOT, CardKind.CARD) or np.count != 1 or np.target.also:
            _fail("the when revealed ability of what is not one plot card")
        return [Effect(EffectKind.RESOLVE_ABILITY, 1, np.target)]

    def a_end_challenge(self, c: list[Any]) -> list[Effect]:
        return [Effect(EffectKind.END_CHALLENGE, 1, self._you())]

    def a_pay_gold(self, c: list[Any]) -> list[Effect]:
        return [Effect(EffectKind.PAY_GOLD, c[0], self._you())]

    def a_move_power(self, c: list[Any]) -> list[Effect]:
        n, src, dst = c
        s = self._target(src)
        d = self._target(dst)
        if d.subject.other and s.ref is TargetRef.CHOSEN:
            # "move 1 power from a card you control to another card in play": another than that card (~ too can get
            # it), so not among the cards chosen before
            if d.also or d.ref is not TargetRef.CHOSEN:
                _fail("'another' of several cards")
            d = replace(d, subject=replace(d.subject, other=False, chosen=False))
        return [Effect(EffectKind.MOVE_POWER, n, d, source=s)]

    def a_move_gold(self, c: list[Any]) -> list[Effect]:
        n, src, dst = c
        return [Effect(EffectKind.MOVE_GOLD, n, dst, source=src)]

    def a_move_attachment(self, c: list[Any]) -> list[Effect]:
        np, dst = c
        t = self._target(np)
        if t.subject.card_type not in (CardKind.ATTACHMENT, None) and t.ref is not TargetRef.SELF:
            _fail("moving a card that is not an attachment")
        if t.ref is TargetRef.SELF and self.ctx.card_kind is not CardKind.ATTACHMENT:
            _fail("moving a card that is not an attachment")
        return [Effect(EffectKind.ATTACH, np.count, t, destination=self._target(dst))]

    def _to_zone(self, np: _NP, zone: Zone, in_play_kind: EffectKind | None, whose: _Whose | None = None,
                 **kw: Any) -> list[Effect]:
        def make(t: Target, p: _NP) -> Effect:
            out_of_play = t.subject.zone not in (None, Zone.PLAY)
            if whose is not None and whose.scope is Scope.YOU and not whose.owner and not out_of_play \
                    and zone is Zone.HAND and t.ref not in (TargetRef.SELF,):
                pass
            if in_play_kind is not None and not out_of_play:
                return Effect(in_play_kind, p.count, t, up_to=p.up_to, **kw)
            return Effect(EffectKind.MOVE_CARD, p.count, t, to_zone=zone, up_to=p.up_to, **kw)
        return self._on_each(np, make)

    def a_return_to_hand(self, c: list[Any]) -> list[Effect]:
        return self._to_zone(c[0], Zone.HAND, EffectKind.RETURN_TO_HAND, _one(c, _Whose))

    def a_return_from(self, c: list[Any]) -> list[Effect]:
        np: _NP = c[0]
        whose, zones = c[1]
        t = np.target
        if t.also and len(zones) > 1:
            _fail("alternative cards from several zones")
        here = [replace(t.subject, **self._in_zone(whose, z, t.ref is TargetRef.SELF)) for z in zones]
        # "from your discard or dead pile": a card in either pile (the second pile an alternative of the first)
        also = t.also + tuple(replace(t, subject=h) for h in here[1:])
        np = replace(np, target=replace(t, subject=here[0], also=also))
        return self._to_zone(np, Zone.HAND, None)

    def a_return_to_shadows(self, c: list[Any]) -> list[Effect]:
        return self._to_zone(c[0], Zone.SHADOWS, EffectKind.RETURN_TO_SHADOWS)

    def _put(self, np: _NP, zones: tuple[Zone, ...], mods: list[dict[str, Any]]) -> list[Effect]:
        kw: dict[str, Any] = {}
        for m in mods:
            kw.update(m)
        if "destination" in kw:
            kw["destination"] = self._target(kw["destination"])
        role: ChallengeRole | None = kw.pop("_participate", None)
        t = np.target
        if t.subject.zone not in (None, Zone.PLAY):
            if zones:
                _fail("two source zones")
            zones = (t.subject.zone,)
        # a card of yours unless its pile says whose ("choose a location in a discard pile and put it into play": any
        # player's)
        named_pile = t.subject.zone not in (None, Zone.PLAY, Zone.SHADOWS)
        out = self._on_each(np, lambda tt, p: Effect(EffectKind.PUT_INTO_PLAY, p.count, tt, from_zones=zones,
                                                     up_to=p.up_to, **kw), None if named_pile else Scope.YOU_OWN)
        if role is not None:  # "..., participating as an attacker": the cards put into play take part in the challenge
            out += [Effect(EffectKind.PARTICIPATE, e.amount, e.target, up_to=e.up_to, role=role) for e in out]
        return out

    def a_put_into_play(self, c: list[Any]) -> list[Effect]:
        return self._put(c[0], (), c[1:])

    def a_put_from_into_play(self, c: list[Any]) -> list[Effect]:
        np, (whose, zones) = c[0], c[1]
        t = np.target
        np = replace(np, target=replace(t, subject=replace(t.subject, **self._in_zone(whose, zones[0],
                                                                                     t.ref is TargetRef.SELF))))
        return self._put(np, (), c[2:])

    def a_put_into_play_from(self, c: list[Any]) -> list[Effect]:
        np, (whose, zones) = c[0], c[1]
        if whose is not None and whose.scope is not Scope.YOU:
            _fail("from another player's zone")
        return self._put(np, zones, c[2:])

    def pu_your_control(self, c: list[Any]) -> dict[str, Any]:
        return {"controller": Scope.YOU}

    def pu_knelt(self, c: list[Any]) -> dict[str, Any]:
        return {"knelt": True}

    def pu_participating(self, c: list[Any]) -> dict[str, Any]:
        return {"_participate": c[0]}

    def pu_attackers(self, c: list[Any]) -> dict[str, Any]:
        return {"_participate": ChallengeRole.ATTACKING}

    def pu_attached(self, c: list[Any]) -> dict[str, Any]:
        return {"destination": c[0]}

    def a_place_token(self, c: list[Any]) -> list[Effect]:
        n, word, np = c
        return [Effect(EffectKind.PLACE_TOKEN, n, self._target(np), token=str(word))]

    def a_place_token_one(self, c: list[Any]) -> list[Effect]:
        return self.a_place_token([1, *c])

    def a_place_in_shadows(self, c: list[Any]) -> list[Effect]:
        return self._to_zone(c[0], Zone.SHADOWS, EffectKind.RETURN_TO_SHADOWS)

    def a_place_in_shadows_token(self, c: list[Any]) -> list[Effect]:
        """"place the bottom card of your deck in shadows with a shadow token on it": the move, then the token on
        the card moved."""
        np, word = c[0], c[1]
        moved = self._to_zone(np, Zone.SHADOWS, EffectKind.RETURN_TO_SHADOWS)
        return moved + [Effect(EffectKind.PLACE_TOKEN, 1, e.target, token=str(word)) for e in moved]

    def a_place_on_top(self, c: list[Any]) -> list[Effect]:
        return self._to_zone(c[0], Zone.TOP_OF_DECK, None, c[1])

    def a_place_on_bottom(self, c: list[Any]) -> list[Effect]:
        return self._to_zone(c[0], Zone.BOTTOM_OF_DECK, None, c[1])

    def a_place_in(self, c: list[Any]) -> list[Effect]:
        np, whose, zone = c
        return self._to_zone(np, zone, None, whose)

    def a_shuffle(self, c: list[Any]) -> list[Effect]:
        w: _Whose = c[0]
        if w.scope is not Scope.YOU:
            _fail("shuffling another player's deck")
        return [Effect(EffectKind.SHUFFLE_DECK, 1, self._you())]

    def a_shuffle_into(self, c: list[Any]) -> list[Effect]:
        return self._to_zone(c[0], Zone.DRAW_DECK, None, c[1])

    def sw_deck(self, c: list[Any]) -> tuple[_Whose, int | None]:
        return c[0], None

    def sw_top(self, c: list[Any]) -> tuple[_Whose, int | None]:
        return c[1], c[0]

    def sw_hand_deck_discard(self, c: list[Any]) -> tuple[_Whose, int | None, tuple[Zone, ...]]:
        """"search your hand, deck, and discard pile for ...": the card may be in any of the three."""
        return c[0], None, (Zone.HAND, Zone.DISCARD_PILE)

    def a_search(self, c: list[Any]) -> list[Effect]:
        whose, top, *more = c[0]
        np = c[1]
        if whose.scope is not Scope.YOU:
            _fail("searching another player's deck")
        others: tuple[Zone, ...] = more[0] if more else ()

        def in_deck(part: _NP) -> _NP:
            t = part.target
            s = replace(t.subject, zone=Zone.DRAW_DECK, scope=Scope.YOU_OWN)
            also = tuple(Target(t.ref, replace(s, zone=z)) for z in others)  # the other places searched
            if also and t.also:
                _fail("alternative cards searched for in several places")
            # "search ... for an attachment or a location": the alternative is in that deck too
            alts = tuple(replace(a, subject=replace(a.subject, zone=Zone.DRAW_DECK, scope=Scope.YOU_OWN))
                         for a in t.also)
            return replace(part, target=replace(t, subject=s, also=also or alts))
        self.lists_read.add(id(np))
        parts = [in_deck(p) for p in (replace(np, conj=()), *np.conj)]
        np = replace(parts[0], conj=tuple(parts[1:]))
        return self._on_each(np, lambda t, p: Effect(EffectKind.SEARCH_DECK, top, t, up_to=p.up_to))

    def a_reveal(self, c: list[Any]) -> list[Effect]:
        np: _NP = c[0]
        if not np.pronoun and np.target.ref is TargetRef.CHOSEN:
            np = replace(np, target=self._your_plot(np.target))
        return self._simple(EffectKind.REVEAL, np)

    def _your_plot(self, t: Target) -> Target:
        """"reveal a «Scheme» plot": one of your plot cards from your plot deck (Revealing Plots), not any player's."""
        s = t.subject
        if s.card_type is CardKind.PLOT and s.zone is None and s.scope is Scope.ANY:
            t = replace(t, subject=replace(s, scope=Scope.YOU_OWN, zone=Zone.PLOT_DECK))
        return replace(t, also=tuple(self._your_plot(a) for a in t.also))

    def _hand(self, w: _Whose) -> Target:
        return Target(TargetRef.EACH, Subject(_OWN.get(w.scope, Scope.ANY), CardKind.CARD, zone=Zone.HAND,
                                              player_role=w.role))

    def a_reveal_from(self, c: list[Any]) -> list[Effect]:
        np, (whose, zones) = c
        t = np.target
        np = replace(np, target=replace(t, subject=replace(t.subject, **self._in_zone(whose, zones[0]))))
        return self._simple(EffectKind.REVEAL, np)

    def a_reveal_hand(self, c: list[Any]) -> list[Effect]:
        self._hand_of(c[0])
        return [Effect(EffectKind.REVEAL, None, self._hand(c[0]))]

    def a_add_to_hand(self, c: list[Any]) -> list[Effect]:
        return self._to_zone(c[0], Zone.HAND, None, c[1])

    def a_add_n_to_hand(self, c: list[Any]) -> list[Effect]:
        """"look at the top 2 cards of your deck. add 1 to your hand": one of the cards named last (chosen), added to
        its owner's hand."""
        n, whose = c
        ante = self.ctx.antecedent
        if self.ctx.gap or ante is None or ante[0].ref is not TargetRef.EACH or whose.scope is not Scope.YOU \
                or ante[0].subject.scope is not Scope.YOU_OWN or ante[1] is None or n is None or n >= ante[1]:
            _fail("'add N to your hand' with no cards of yours named before")
            raise AssertionError
        picked = Target(TargetRef.CHOSEN, ante[0].subject)
        self.ctx.antecedent = (picked, n)
        self.ctx.picked = ante[1] - n
        return [Effect(EffectKind.MOVE_CARD, n, picked, to_zone=Zone.HAND)]

    def a_look_at(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.LOOK_AT, c[0])

    def _hand_of(self, w: _Whose) -> None:
        """"look at a player's hand": that hand is "that hand" from now on, and its player "that player"."""
        self.ctx.hand = w
        if w.scope is not Scope.YOU and not (w.each or w.owner or w.controller):
            self._named(self._player(w.scope, w.role, TargetRef.CHOSEN if w.scope is Scope.ANY_PLAYER
                                     else TargetRef.PLAYER))

    def a_look_at_hand(self, c: list[Any]) -> list[Effect]:
        self._hand_of(c[0])
        return [Effect(EffectKind.LOOK_AT, None, self._hand(c[0]))]

    def a_take_control(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.TAKE_CONTROL, c[0])

    def a_attach(self, c: list[Any]) -> list[Effect]:
        np, dst = c
        t = self._target(np)
        return [Effect(EffectKind.ATTACH, np.count, t, destination=self._target(dst))]

    def a_remove_from_challenge(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.REMOVE_FROM_CHALLENGE, c[0])

    def a_remove_from_game(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.REMOVE_FROM_GAME, c[0])

    def cw_it(self, c: list[Any]) -> None:
        return None

    def a_cancel(self, c: list[Any]) -> list[Effect]:
        return [Effect(EffectKind.CANCEL, 1, Target(TargetRef.EVENT, self.ctx.trigger or Subject()))]

    def a_have(self, c: list[Any]) -> list[Effect]:
        np, make = c
        return make(np)

    def a_have_player(self, c: list[Any]) -> list[Effect]:
        return self.body_player(c)

    def a_discard_from_hand(self, c: list[Any]) -> list[Effect]:
        n, head = c[0], c[1]
        whose = _one(c, _Whose)
        if head[0] is not CardKind.CARD or whose.controller or whose.owner:
            _fail("discarding a card type, or from the hand of a card's owner or controller")
        if whose.scope is not Scope.YOU:
            player = Target(TargetRef.EACH if whose.each else TargetRef.PLAYER,
                            Subject(whose.scope, player_role=whose.role))
        else:
            player = self._you()
        return [Effect(EffectKind.DISCARD_FROM_HAND, n, player, at_random="at_random" in c)]

    def a_discard_from_that_hand(self, c: list[Any]) -> list[Effect]:
        """"look at an opponent's hand. choose and discard 1 card from that hand": the hand looked at or revealed
        before."""
        if self.ctx.hand is None:
            _fail("'that hand' with no hand named before")
        return self.a_discard_from_hand([*c, self.ctx.hand])

    def a_discard_np_from_hand(self, c: list[Any]) -> list[Effect]:
        np, whose = c
        if whose.scope is not Scope.YOU:
            _fail("discarding a card from another player's hand")
        t = np.target
        np = replace(np, target=replace(t, subject=replace(t.subject, zone=Zone.HAND, scope=Scope.YOU_CONTROL)))
        return self._simple(EffectKind.DISCARD_FROM_HAND, np)

    def a_discard_power(self, c: list[Any]) -> list[Effect]:
        n, np = c
        return [Effect(EffectKind.DISCARD_POWER, n, self._target(np))]

    def a_discard_gold(self, c: list[Any]) -> list[Effect]:
        n, np = c
        return [Effect(EffectKind.DISCARD_GOLD, n, self._target(np))]

    def a_discard_tokens(self, c: list[Any]) -> list[Effect]:
        n, word, np = c
        return [Effect(EffectKind.DISCARD_TOKENS, n, self._target(np), token=word)]

    def a_name(self, c: list[Any]) -> list[Effect]:
        self.ctx.named_type = self.ctx.named_type or c[0] is Named.CHALLENGE_TYPE
        if c[0] in (Named.CARD, Named.EVENT):
            self.ctx.named_card = True
        return [Effect(EffectKind.NAME, 1, self._you(), named=c[0])]

    def a_initiate(self, c: list[Any]) -> list[Effect]:
        against = _one(c, Target)
        dur = _one(c, Duration)
        return [Effect(EffectKind.INITIATE_CHALLENGE, 1, against or Target(TargetRef.PLAYER, Subject(Scope.OPPONENT)),
                       challenge=self._icon(c), duration=dur)]

    def a_initiate_that_type(self, c: list[Any]) -> list[Effect]:
        (e,) = self.a_initiate(c)
        return [replace(e, named=Named.CHALLENGE_TYPE)]

    def a_raise_claim(self, c: list[Any]) -> list[Effect]:
        whose, n = c
        if whose.scope is not Scope.YOU:
            _fail("another player's claim")
        return [Effect(EffectKind.CLAIM_MOD, n, self._you())]

    def a_raise_claim_self(self, c: list[Any]) -> list[Effect]:
        if self.ctx.card_kind is not CardKind.PLOT:
            _fail("the claim value of a card that is not a plot")
        return [Effect(EffectKind.CLAIM_MOD, c[0], Target(TargetRef.SELF, Subject(Scope.SELF, CardKind.PLOT)))]

    def a_reduce_cost(self, c: list[Any]) -> list[Effect]:
        nom, period, n = c
        fields = dict(nom)
        means = fields.pop("_means", None)
        if means is None:
            _fail("the cost of a card that is not marshaled or played")
        target = Target(TargetRef.NEXT, _subj(fields))
        self.ctx.antecedent = (target, 1)  # "(by 2 instead if that character's printed cost is 6 or higher)"
        return [Effect(EffectKind.REDUCE_COST, n, target, duration=_PERIOD_DURATION[period], means=means)]

    def a_reduce_cost_each(self, c: list[Any]) -> list[Effect]:
        (e,) = self.a_reduce_cost(c)
        return [replace(e, target=replace(e.target, ref=TargetRef.EACH))]

    def a_give_control(self, c: list[Any]) -> list[Effect]:
        np, player = c
        return [Effect(EffectKind.TAKE_CONTROL, np.count, self._target(np), destination=player)]

    def a_draw_ref(self, c: list[Any]) -> list[Effect]:
        """"reveal the top card of your deck. if it is a location, draw it": the card revealed is the top card of your
        deck, so drawing it is drawing 1 card (Drawing Cards); a pronoun for any other card is not read."""
        np: _NP = c[0]
        s = np.target.subject
        if np.conj or np.count != 1 or np.target.also or s.zone is not Zone.TOP_OF_DECK or s.scope is not Scope.YOU_OWN:
            _fail("drawing a card that is not the top card of your deck")
        return [Effect(EffectKind.DRAW, 1, self._you())]

    def a_place_gold(self, c: list[Any]) -> list[Effect]:
        n, np = c
        return [Effect(EffectKind.MOVE_GOLD, n, self._target(np), source=Target(TargetRef.TREASURY, Subject()))]

    def gp_card(self, c: list[Any]) -> Target:
        return self._target(c[0])

    def gp_pool(self, c: list[Any]) -> Target:
        w: _Whose = c[0]
        if w.owner:
            _fail("its owner's gold pool")
        return Target(TargetRef.PLAYER, Subject(w.scope, player_role=w.role))

    def gp_treasury(self, c: list[Any]) -> Target:
        return Target(TargetRef.TREASURY, Subject())

    def gp_own(self, c: list[Any]) -> Target:
        return self._you()

    def gold_own(self, c: list[Any]) -> None:
        return None

    def a_blank(self, c: list[Any]) -> list[Effect]:
        return self._simple(EffectKind.BLANK, c[0])

    def blank_except(self, c: list[Any]) -> None:
        if str(c[0]) != "«Traits»":
            _fail("blank except something other than Traits")
        return None

    def a_return_gold(self, c: list[Any]) -> list[Effect]:
        n, np = c
        return [Effect(EffectKind.RETURN_GOLD, n, self._target(np))]

    # ------------------------------------------------------------ a card as the subject
    def plural_np(self, c: list[Any]) -> _NP:
        """"events with that title": a plural without a determiner names each such card."""
        kind, _ = next(x for x in c if isinstance(x, tuple))
        fields = self.nominal([x if not isinstance(x, tuple) else {"card_type": kind} for x in c])
        if "_also" in fields:
            _fail("alternatives in a plural subject")
        return _NP(Target(TargetRef.EACH, _subj(fields)), None)

    plural_word = head_word

    def body_plural(self, c: list[Any]) -> list[Effect]:
        np, make = c
        return make(np)

    def subject_vp(self, c: list[Any]) -> list[Effect]:
        np, make = c
        return make(np)

    def subject_vp_tail(self, c: list[Any]) -> Any:
        parts = [x for x in c if isinstance(x, list)]
        dur = _one(c, Duration)

        def make(np: _NP) -> list[Effect]:
            out: list[Effect] = []
            if np.conj and not np.pronoun:
                _fail("several cards as the subject")
            for t in [self._target(n) for n in (replace(np, conj=()), *np.conj)]:  # "each of those characters gets"
                out.extend(one(t))
            return out if dur is None else self._durs(out, dur)

        def one(t: Target) -> list[Effect]:
            out: list[Effect] = []
            for part in parts:
                for kind, kw in part:
                    if "options" in kw:  # a choice between modifiers of the same card
                        kw = dict(kw, options=tuple(tuple(Effect(k2, target=t, **kw2) for k2, kw2 in opt)
                                                    for opt in kw["options"]), target=Target(TargetRef.PLAYER,
                                                                                             Subject(Scope.YOU)))
                        e = Effect(kind, **kw)
                    elif "condition" in kw:
                        cond = kw["condition"]
                        kw = dict(kw, condition=replace(cond, target=t))
                        e = Effect(kind, target=t, **kw)
                    else:
                        e = Effect(kind, target=t, **kw)
                    out.append(e)
            return out
        return make

    def v_str(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        sign, n = c[0], c[1]
        kw: dict[str, Any] = {"amount": None if n is None else sign * n}
        if n is None and sign < 0:  # "gets -X STR": the sign of the X
            kw["minus"] = True
        per = _one(c, Quantity)
        if per is not None:
            kw["x"] = per
        return [(EffectKind.STR_MOD, kw)]

    def v_str_choice(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        s1, n1, s2, n2 = c
        opts = tuple(((EffectKind.STR_MOD, {"amount": None if n is None else s * n, "minus": n is None and s < 0}),)
                     for s, n in ((s1, n1), (s2, n2)))
        return [(EffectKind.CHOICE, {"amount": None, "options": opts})]

    def v_power(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.GAIN_POWER, {"amount": c[0], "x": _one(c, Quantity)})]

    def v_gold(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.GAIN_GOLD, {"amount": c[0], "x": _one(c, Quantity)})]

    def v_participate(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.PARTICIPATE, {"amount": 1})]

    def v_now_participating(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        """"that character is now participating as a defender"."""
        return [(EffectKind.PARTICIPATE, {"amount": 1, "role": c[0]})]

    def v_participate_in_a(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        """"have it participate in a [military] challenge on your side": in the challenge being resolved (an
        action's effect happens during it), of that type when one is named."""
        icon = [t for t in c if isinstance(t, Token) and t.type == "T_ICON"]
        return [(EffectKind.PARTICIPATE, {"amount": 1, **({"challenge": _ICONS[str(icon[0])]} if icon else {})})]

    def _signed(self, items: list[tuple[EffectKind, dict[str, Any]]], sign: int) -> list[tuple[EffectKind, Any]]:
        out: list[tuple[EffectKind, Any]] = []
        for kind, kw in items:
            if kind is EffectKind.CHOICE:
                out.append((kind, {"amount": None, "options": tuple(
                    tuple((k, {"amount": sign, **w}) for k, w in opt) for opt in kw["options"])}))
            else:
                out.append((kind, {"amount": sign, **kw}))
        return out

    def v_gain(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return self._signed(c[0], 1)

    def v_lose(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return self._signed(c[0], -1)

    def v_lose_power(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.DISCARD_POWER, {"amount": c[0]})]

    def v_cannot_be(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        evs = [e for x in c for e in (x if isinstance(x, tuple) else (x,)) if isinstance(e, EventKind)]
        return [(EffectKind.PROHIBIT, {"amount": None, "prohibited": ev}) for ev in evs]

    def v_cannot(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.PROHIBIT, {"amount": None, "prohibited": ev}) for ev in c if isinstance(ev, EventKind)]

    def v_cannot_attack_that_type(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        """"that character cannot be declared as an attacker in challenges of that type": only in challenges of the
        type chosen before (``named``)."""
        if not self.ctx.named_type:
            _fail("'of that type' with no challenge type chosen")
        return [(EffectKind.PROHIBIT, {"amount": None, "prohibited": EventKind.DECLARED_ATTACKER,
                                       "named": Named.CHALLENGE_TYPE})]

    def v_cannot_leave(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.PROHIBIT, {"amount": None, "prohibited": EventKind.LEAVES_PLAY})]

    def da_attacker(self, c: list[Any]) -> EventKind:
        return EventKind.DECLARED_ATTACKER

    def da_defender(self, c: list[Any]) -> EventKind:
        return EventKind.DECLARED_DEFENDER

    def da_either(self, c: list[Any]) -> EventKind:
        return EventKind.DECLARED

    def declared_in(self, c: list[Any]) -> ChallengeType:
        return _ICONS[str(c[0])]

    def v_no_kneel(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.NO_KNEEL_TO_DECLARE, {"amount": 1, "event": c[0], "challenge": _one(c, ChallengeType)})]

    def v_must_declare(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        kw: dict[str, Any] = {"amount": 1, "event": c[0]}
        if "for_this_challenge" in c:
            kw["duration"] = Duration.UNTIL_END_OF_CHALLENGE
        return [(EffectKind.MUST_BE_DECLARED, kw)]

    def v_must_declare_next(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        """"must be declared as an attacker or defender in the next challenge initiated this phase"."""
        return [(EffectKind.MUST_BE_DECLARED, {"amount": 1, "event": c[0], "duration": Duration.NEXT_CHALLENGE})]

    def for_this_challenge(self, c: list[Any]) -> str:
        return "for_this_challenge"

    def v_cannot_during(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.PROHIBIT, {"amount": None, "prohibited": c[0], "phase": c[1],
                                       "duration": _one(c, Duration)})]

    def v_contribute(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.CONTRIBUTE_STR, {"amount": 1, "controller": Scope.YOU, "duration": _one(c, Duration)})]

    def v_no_contribute(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.CONTRIBUTE_STR, {"amount": 0})]

    def v_killed_at_zero(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        # "is killed if its STR is 0": the condition is about the card the effect kills
        if c[0] != 0:
            _fail("killed at a STR other than 0")
        return [(EffectKind.KILL, {"amount": 1, "condition": Condition(
            CondWord.IF, TestKind.COMPARE, Target(TargetRef.SELF), compare=Compare(Stat.STR, Cmp.EQ, 0))})]

    def gs_comma(self, c: list[Any]) -> str:
        return ","

    def gs_and(self, c: list[Any]) -> str:
        return "and"

    def gs_or(self, c: list[Any]) -> str:
        return "or"

    def per_each(self, c: list[Any]) -> Quantity:
        return Quantity(QuantityKind.COUNT, _subj(c[0]))

    def per_every(self, c: list[Any]) -> Quantity:
        n, nom = c
        if n is None or n < 1:
            _fail("for every X")
        return Quantity(QuantityKind.COUNT, _subj(nom), per=n)

    def per_every_gold(self, c: list[Any]) -> Quantity:
        """"he gains 1 power for every 3 gold in your gold pool": the gold of that player's pool, divided by N."""
        n, w = c
        if n is None or n < 1 or w.scope is not Scope.YOU:
            _fail("for every X gold, or in another player's pool")
        return Quantity(QuantityKind.STAT, target=self._you(), stat=Stat.GOLD, per=n)

    def per_each_np(self, c: list[Any]) -> Quantity:
        return Quantity(QuantityKind.COUNT, _sole(c[0]))

    def gain_list(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        items = [x for x in c if isinstance(x, list)]
        seps = {x for x in c if isinstance(x, str)} - {","}
        if seps == {"or"}:  # "gains insight or renown": the player chooses one
            return [(EffectKind.CHOICE, {"options": tuple(tuple(opt) for opt in items)})]
        if "or" in seps:
            _fail("'and' and 'or' in one list")
        return [x for item in items for x in item]

    def gi_keyword(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.KEYWORD_MOD, {"keyword": c[0]})]

    def gi_keyword_value(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        """"shadow (x)", "bestow (2)": the keyword with its value."""
        kw, value = c
        return [(EffectKind.KEYWORD_MOD, {"keyword": kw, "keyword_value": value, "keyword_x": value is None})]

    def gi_icon(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.ICON_MOD, {"challenge": _ICONS[str(c[0])]})]

    def gi_icon_choice(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.ICON_MOD, {})]

    def gi_trait(self, c: list[Any]) -> list[tuple[EffectKind, dict[str, Any]]]:
        return [(EffectKind.TRAIT_MOD, {"trait": t}) for t in c[0]]

    def pr_killed(self, c: list[Any]) -> EventKind:
        return EventKind.KILLED

    def pr_discarded(self, c: list[Any]) -> EventKind:
        return EventKind.DISCARDED

    def pr_sacrificed(self, c: list[Any]) -> EventKind:
        return EventKind.SACRIFICED

    def pr_knelt(self, c: list[Any]) -> EventKind:
        return EventKind.KNELT

    def pr_stood(self, c: list[Any]) -> EventKind:
        return EventKind.STOOD

    def pr_returned(self, c: list[Any]) -> EventKind:
        return EventKind.RETURNED_TO_HAND

    def pr_saved(self, c: list[Any]) -> EventKind:
        return EventKind.SAVED

    def pr_marshaled(self, c: list[Any]) -> EventKind:
        return EventKind.MARSHALED

    def pr_played(self, c: list[Any]) -> EventKind:
        return EventKind.EVENT_PLAYED

    def pr_put_into_play(self, c: list[Any]) -> EventKind:
        return EventKind.PUT_INTO_PLAY

    def pr_declared_attacker(self, c: list[Any]) -> EventKind:
        return EventKind.DECLARED_ATTACKER

    def pr_declared_defender(self, c: list[Any]) -> EventKind:
        return EventKind.DECLARED_DEFENDER

    def pr_declared_either(self, c: list[Any]) -> tuple[EventKind, ...]:
        return EventKind.DECLARED_ATTACKER, EventKind.DECLARED_DEFENDER

    def pr_chosen_for_claim(self, c: list[Any]) -> EventKind:
        _fail("'cannot be chosen for claim' is not in the tree")
        raise AssertionError

    def pr_stealth(self, c: list[Any]) -> EventKind:
        _fail("'cannot be bypassed by stealth' is not in the tree")
        raise AssertionError

    # ------------------------------------------------------------ a player as the subject
    def player_vp(self, c: list[Any]) -> list[Any]:
        return [x for x in c if callable(x)]

    def pv_may_all(self, c: list[Any]) -> list[Any]:
        """"each opponent may return ... and reveal a new plot card": "may" governs the whole list: the first verb is
        the player's choice, each other one happens if that player did it (not one without the other)."""
        makes = [x for x in c if callable(x)]
        did = Condition(CondWord.IF, TestKind.DID)

        def make(player: Target) -> list[Effect]:
            out = [replace(e, optional=True) for e in makes[0](player)]
            for m in makes[1:]:
                for e in m(player):
                    if e.condition is not None:
                        _fail("a condition inside a list of what a player may do")
                    out.append(replace(e, condition=did))
            return out
        return [make]

    def pv_return_plot(self, c: list[Any]) -> Any:
        """"each opponent may return his or her revealed plot card to his or her plot deck": that player's revealed
        plot goes back to that player's plot deck (not to the used pile)."""
        np, whose = c
        s = np.target.subject
        theirs = s.player_role is PlayerRole.THAT and whose.role is PlayerRole.THAT and s.zone is Zone.PLAY
        if np.pronoun or np.target.ref is not TargetRef.CHOSEN or np.target.also or s.card_type is not CardKind.PLOT \
                or not theirs or set_fields(s) - {"scope", "card_type", "zone", "player_role"}:
            _fail("returning a card other than that player's revealed plot to a plot deck")

        def make(player: Target) -> list[Effect]:
            mine = Subject(_OWN.get(player.subject.scope, Scope.ANY), CardKind.PLOT, zone=Zone.PLAY)
            return [Effect(EffectKind.MOVE_CARD, 1, Target(TargetRef.CHOSEN, mine), to_zone=Zone.PLOT_DECK,
                           chooser=player)]
        return make

    def pv_reveal_plot(self, c: list[Any]) -> Any:
        """"... and reveal a new plot card": that player reveals one of their own plot cards from their plot deck."""
        def make(player: Target) -> list[Effect]:
            mine = Subject(_OWN.get(player.subject.scope, Scope.ANY), CardKind.PLOT, zone=Zone.PLOT_DECK)
            return [Effect(EffectKind.REVEAL, 1, Target(TargetRef.CHOSEN, mine), chooser=player)]
        return make

    def _pv(self, kind: EffectKind, amount: int | None = 1, **kw: Any) -> Any:
        def make(player: Target) -> list[Effect]:
            return [Effect(kind, amount, player, **kw)]
        return make

    def pv_draw(self, c: list[Any]) -> Any:
        if c[1][0] is not CardKind.CARD:
            _fail("drawing a card type")
        return self._pv(EffectKind.DRAW, c[0], x=_one(c, Quantity))

    def against_you(self, c: list[Any]) -> str:
        return "against_you"

    def pv_cannot_initiate(self, c: list[Any]) -> Any:
        ev = EventKind.CHALLENGE_AGAINST if "against_you" in c else EventKind.INITIATE_CHALLENGE
        return self._pv(EffectKind.PROHIBIT, None, prohibited=ev, challenge=self._icon(c), duration=_one(c, Duration))

    def pv_discard_hand(self, c: list[Any]) -> Any:
        n, head = c[0], c[1]
        whose = _one(c, _Whose)
        if head[0] is not CardKind.CARD or whose.scope is Scope.YOU or whose.role is not PlayerRole.THAT:
            _fail("discarding from another hand")
        return self._pv(EffectKind.DISCARD_FROM_HAND, n, at_random="at_random" in c)

    def pv_discard_hand_choose(self, c: list[Any]) -> Any:
        n, head, whose = c
        if head[0] is not CardKind.CARD or whose.role is not PlayerRole.THAT:
            _fail("discarding from another hand")
        return self._pv(EffectKind.DISCARD_FROM_HAND, n)

    def pv_gain_power(self, c: list[Any]) -> Any:
        n, whose = c
        if whose.role is not PlayerRole.THAT:
            _fail("gaining power for another player's faction")

        def make(player: Target) -> list[Effect]:
            s = player.subject
            fc = Target(TargetRef.FACTION_CARD, Subject(_CONTROL.get(s.scope, Scope.ANY), CardKind.FACTION_CARD,
                                                        player_role=s.player_role))
            if player.ref is TargetRef.EACH:
                fc = replace(fc, ref=TargetRef.EACH)
            return [Effect(EffectKind.GAIN_POWER, n, fc)]
        return make

    def pv_gain_gold(self, c: list[Any]) -> Any:
        return self._pv(EffectKind.GAIN_GOLD, c[0])

    def pv_lose_gold(self, c: list[Any]) -> Any:
        return self._pv(EffectKind.LOSE_GOLD, c[0])

    def _pv_card(self, kind: EffectKind, np: _NP, default_scope: Scope = Scope.ANY) -> Any:
        t = self._target(np)

        def make(player: Target) -> list[Effect]:
            tt = t
            if tt.subject.scope is Scope.ANY and default_scope is not Scope.ANY:
                tt = replace(tt, subject=replace(tt.subject, scope=_CONTROL.get(player.subject.scope, Scope.ANY),
                                                 player_role=player.subject.player_role))
            return [Effect(kind, np.count, tt, up_to=np.up_to, chooser=player)]
        return make

    def pv_sacrifice(self, c: list[Any]) -> Any:
        return self._pv_card(EffectKind.SACRIFICE, c[0], Scope.YOU_CONTROL)

    def pv_kneel(self, c: list[Any]) -> Any:
        return self._pv_card(EffectKind.KNEEL, c[0])

    def pv_discard_from_play(self, c: list[Any]) -> Any:
        return self._pv_card(EffectKind.DISCARD, c[0])

    def pv_must(self, c: list[Any]) -> Any:
        return c[0]

    def pv_may(self, c: list[Any]) -> Any:
        inner = c[0]

        def make(player: Target) -> list[Effect]:
            return [replace(e, optional=True) for e in inner(player)]
        return make

    def pv_choose(self, c: list[Any]) -> Any:
        return self._pv_card(EffectKind.CHOOSE, c[0])

    def pv_choose_if_able(self, c: list[Any]) -> Any:
        """"each player chooses a character he or she controls (if able)": the choice, when the player can make it."""
        inner = self._pv_card(EffectKind.CHOOSE, c[0])
        able = Condition(CondWord.IF, TestKind.ABLE)

        def make(player: Target) -> list[Effect]:
            return [replace(e, condition=able) for e in inner(player)]
        return make

    def pv_choose_and(self, c: list[Any]) -> Any:
        kind, np = c
        return self._pv_card(kind, np, Scope.YOU_CONTROL if kind is EffectKind.SACRIFICE else Scope.ANY)

    def pv_take_control(self, c: list[Any]) -> Any:
        return self._pv_card(EffectKind.TAKE_CONTROL, c[0])

    def pv_return(self, c: list[Any]) -> Any:
        return self._pv_card(EffectKind.RETURN_TO_HAND, c[0])

    # ------------------------------------------------------------ "X is ..."
    def q_count(self, c: list[Any]) -> Quantity:
        return Quantity(QuantityKind.COUNT, _subj(c[0]))

    def q_gold_on(self, c: list[Any]) -> Quantity:
        return Quantity(QuantityKind.STAT, target=c[0].target, stat=Stat.GOLD)

    def q_tokens_on(self, c: list[Any]) -> Quantity:
        return Quantity(QuantityKind.STAT, target=c[1].target, stat=Stat.TOKENS, token=c[0])

    def q_plus(self, c: list[Any]) -> Quantity:
        n, q = c
        if n is None:
            _fail("X higher than")
        return replace(q, plus=n)

    def q_stat(self, c: list[Any]) -> Quantity:
        return c[0]

    def q_reserve(self, c: list[Any]) -> Quantity:
        return Quantity(QuantityKind.STAT, target=self._you(), stat=Stat.RESERVE)

    def q_claim(self, c: list[Any]) -> Quantity:
        w: _Whose = c[0]
        return Quantity(QuantityKind.STAT, target=Target(TargetRef.PLAYER, Subject(w.scope, player_role=w.role)),
                        stat=Stat.CLAIM)

    def _stat(self, c: list[Any]) -> Stat:
        printed = "printed" in c
        stat = [x for x in c if x in ("cost", "str")][0]
        if stat == "cost":
            return Stat.PRINTED_COST if printed else Stat.COST
        return Stat.PRINTED_STR if printed else Stat.STR

    def so_it(self, c: list[Any]) -> Quantity:
        return Quantity(QuantityKind.STAT, target=self._resolve(None).target, stat=self._stat(c))

    def so_np(self, c: list[Any]) -> Quantity:
        return Quantity(QuantityKind.STAT, target=c[0].target, stat=self._stat(c))

    so_of = so_np


def _refusal(exc: BaseException) -> str:
    inner = exc.orig_exc if isinstance(exc, VisitError) else exc
    return str(inner)


def read(text: str, start: str, ctx: Context) -> Any:
    """Read one clause; raise :class:`NotRead` (with the offset where reading stopped) if it is not read.

    On failure ``ctx`` is left as it was.
    """
    saved = (ctx.trigger, ctx.antecedent, ctx.player, ctx.trigger_event, ctx.named_card, ctx.hand, ctx.paid,
             ctx.picked, ctx.group)
    try:
        tree = parser().parse(text, start=f"start_{start}")
    except UnexpectedInput as exc:
        pos = _error_pos(exc, text)
        raise NotRead(pos, f"not in the grammar at '{text[pos:pos + 30]}'") from None
    reader = _Reader(ctx)
    try:
        out = reader.transform(tree)
        if set(reader.lists_made) - reader.lists_read:
            raise _Refused("a list of cards where one card is read")
        return out
    except _Refused as exc:
        (ctx.trigger, ctx.antecedent, ctx.player, ctx.trigger_event, ctx.named_card, ctx.hand, ctx.paid,
         ctx.picked, ctx.group) = saved
        raise NotRead(0, str(exc)) from None
    except VisitError as exc:
        (ctx.trigger, ctx.antecedent, ctx.player, ctx.trigger_event, ctx.named_card, ctx.hand, ctx.paid,
         ctx.picked, ctx.group) = saved
        if isinstance(exc.orig_exc, _Refused):
            raise NotRead(0, _refusal(exc)) from None
        raise


def _error_pos(exc: UnexpectedInput, text: str) -> int:
    if isinstance(exc, UnexpectedEOF):
        return len(text)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            return len(text)
        return int(tok.start_pos or 0)
    if isinstance(exc, UnexpectedCharacters):
        return int(exc.pos_in_stream or 0)
    return 0


def parse_tree(text: str, start: str) -> Tree[Token]:
    """The raw parse tree of a clause (for debugging the grammar)."""
    return parser().parse(text, start=f"start_{start}")
