"""Card-text compiler: AGoT 2.0 templated ability text -> structured abilities.

The compiler reads the text (or the newest erratum) of a card, splits it into
abilities (boldface precursors, keyword sentences, constant sentences), strips
the markup and parses each clause with a small set of explicit patterns.  A
clause no pattern matches is *not guessed*: it is recorded as a reason and the
ability is marked :attr:`Compiled.PARTIAL` (something was understood) or
:attr:`Compiled.UNSUPPORTED` (nothing was).

Examples
--------
>>> abilities = compile_text("<b>Action:</b> Kneel Foo to gain 1 gold.", name="Foo", card_type="location")
>>> abilities[0].effects[0].kind.value, abilities[0].compiled.value
('gain_gold', 'full')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    ChallengeRole,
    ChallengeType,
    ClauseRole,
    Cmp,
    Compare,
    Compiled,
    Cost,
    CostKind,
    Duration,
    Effect,
    EffectKind,
    EventKind,
    Keyword,
    Limit,
    LimitKind,
    Means,
    Period,
    Phase,
    PlayerRole,
    Scope,
    Stat,
    Subject,
    Target,
    TargetRef,
    Trigger,
    Unread,
    Zone,
)

__all__ = ["card_text", "compile_card", "compile_text", "normalise"]

_FACTIONS = (
    "baratheon",
    "greyjoy",
    "lannister",
    "martell",
    "stark",
    "targaryen",
    "thenightswatch",
    "tyrell",
    "neutral",
)
_ICONS = ("military", "intrigue", "power")
_NUM = {"a": 1, "an": 1, "one": 1, "once": 1, "two": 2, "twice": 2, "three": 3, "four": 4, "five": 5}
_PRECURSORS: dict[str, tuple[AbilityType, Phase | None]] = {
    "action": (AbilityType.ACTION, None),
    "reaction": (AbilityType.REACTION, None),
    "interrupt": (AbilityType.INTERRUPT, None),
    "forced reaction": (AbilityType.FORCED_REACTION, None),
    "forced interrupt": (AbilityType.FORCED_INTERRUPT, None),
    "when revealed": (AbilityType.WHEN_REVEALED, Phase.PLOT),
    "challenges action": (AbilityType.ACTION, Phase.CHALLENGES),
    "challenge action": (AbilityType.ACTION, Phase.CHALLENGES),
    "marshaling action": (AbilityType.ACTION, Phase.MARSHALING),
    "dominance action": (AbilityType.ACTION, Phase.DOMINANCE),
    "standing action": (AbilityType.ACTION, Phase.STANDING),
    "taxation action": (AbilityType.ACTION, Phase.TAXATION),
    "plot action": (AbilityType.ACTION, Phase.PLOT),
    "draw action": (AbilityType.ACTION, Phase.DRAW),
}
_KEYWORD_RE = re.compile(
    r"^(ambush|assault|bestow|insight|intimidate|limited|no attachments|pillage|prized|renown|shadow|stealth|terminal)"
    r"(?: \(?(\d+|x)\)?)?$"
)
_TYPE_NOUNS: dict[str, CardKind] = {
    "character": CardKind.CHARACTER,
    "characters": CardKind.CHARACTER,
    "location": CardKind.LOCATION,
    "locations": CardKind.LOCATION,
    "attachment": CardKind.ATTACHMENT,
    "attachments": CardKind.ATTACHMENT,
    "event": CardKind.EVENT,
    "events": CardKind.EVENT,
    "card": CardKind.CARD,
    "cards": CardKind.CARD,
    "plot card": CardKind.PLOT,
    "plot cards": CardKind.PLOT,
    "plot": CardKind.PLOT,
    "agenda": CardKind.AGENDA,
    "faction card": CardKind.FACTION_CARD,
}
_QUALIFIERS = (
    "standing",
    "kneeling",
    "participating",
    "attacking",
    "defending",
    "unique",
    "non-unique",
    "loyal",
    "non-loyal",
    "limited",
    "non-limited",
    "another",
    "other",
    "different",
    "non-unique",
    "non-kneeling",
)
_PHASE_WORDS = {p.value: p for p in Phase}
_PERIODS = {"challenge": Period.CHALLENGE, "phase": Period.PHASE, "round": Period.ROUND, "game": Period.GAME}
_DURATIONS = {
    "until the end of the phase": Duration.UNTIL_END_OF_PHASE,
    "until the end of the challenge": Duration.UNTIL_END_OF_CHALLENGE,
    "until the end of the round": Duration.UNTIL_END_OF_ROUND,
}


def card_text(record: Mapping[str, object]) -> str:
    """Return the current text of a card record: the newest erratum if any, else ``text``.

    Parameters
    ----------
    record
        A card record as in the pack JSON (``text`` and optional ``errata``).
    """
    errata = record.get("errata")
    if isinstance(errata, list) and errata:
        last = errata[-1]
        if isinstance(last, dict) and isinstance(last.get("text"), str):
            return str(last["text"])
    text = record.get("text", "")
    return text if isinstance(text, str) else ""


def normalise(text: str, name: str = "") -> str:
    """Strip markup from one ability's text.

    The card's own name becomes ``~``, traits (``<i>Knight</i>``) become
    ``«Knight»``, icons stay ``[stark]``; everything outside traits is
    lower-cased and whitespace is collapsed.
    """
    t = text
    if name:
        t = re.sub(r"(?<![\w'])" + re.escape(name) + r"(?![\w])", "~", t)
    t = re.sub(r"<i>\s*(.*?)\s*</i>", lambda m: "«" + m.group(1).strip() + "»", t)
    t = re.sub(r"</?(b|em|i)>", "", t)
    parts = re.split(r"(«[^»]*»)", t)
    t = "".join(p if p.startswith("«") else p.lower() for p in parts)
    t = t.replace("’", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", t).strip()


# ---------------------------------------------------------------------------
# noun phrases


@dataclass(frozen=True)
class _NP:
    """A parsed noun phrase: the reference kind and the subject filter."""

    ref: TargetRef
    subject: Subject
    count: int | None = 1


@dataclass
class _Ctx:
    """Per-ability parsing context (pronoun antecedents, collected reasons)."""

    card_kind: CardKind
    trigger_subject: Subject | None = None
    chosen: _NP | None = None
    reasons: list[Unread] = field(default_factory=list)


_DET_RE = re.compile(r"^(a|an|another|each|any|up to (\d+|one|two|three)|(\d+|one|two|three)|all)\s+")


def _self_np(ctx: _Ctx) -> _NP:
    return _NP(TargetRef.SELF, Subject(Scope.SELF, ctx.card_kind))


def _pronoun(ctx: _Ctx) -> _NP | None:
    if ctx.chosen is not None:
        return ctx.chosen
    if ctx.trigger_subject is not None:
        if ctx.trigger_subject.scope is Scope.SELF:
            return _self_np(ctx)
        if ctx.trigger_subject.scope is Scope.ATTACHED:
            return _NP(TargetRef.ATTACHED, ctx.trigger_subject)
        return _NP(TargetRef.TRIGGER, ctx.trigger_subject)
    return None


def _subject_phrase(s: str, default_scope: Scope = Scope.ANY) -> Subject | None:
    """Parse ``[qualifiers] [factions] [traits] type-noun [postfix]`` (no determiner)."""
    quals: list[str] = []
    factions: list[str] = []
    traits: list[str] = []
    rest = s.strip()
    while True:
        m = re.match(r"^(non-«[^»]+»|non-\[[a-z]+\])\s+", rest)
        if m:
            quals.append(m.group(1))
            rest = rest[m.end() :]
            continue
        m = re.match(r"^neutral\s+", rest)
        if m:
            factions.append("neutral")
            rest = rest[m.end() :]
            continue
        m = re.match(r"^([a-z-]+),?\s+", rest)
        if m and m.group(1) in _QUALIFIERS:
            quals.append("other" if m.group(1) in ("another", "different") else m.group(1))
            rest = rest[m.end() :]
            continue
        m = re.match(r"^\[([a-z]+)\](?:,? (?:or|and) \[([a-z]+)\])?\s+", rest)
        if m and m.group(1) in _FACTIONS:
            factions.extend(g for g in m.groups() if g)
            rest = rest[m.end() :]
            continue
        m = re.match(r"^«([^»]+)»(?:(?:,| or|, or) «([^»]+)»)*\s+", rest)
        if m:
            traits.extend(re.findall(r"«([^»]+)»", m.group(0)))
            rest = rest[m.end() :]
            continue
        break
    m = re.match(r"^(plot cards?|faction card|characters?|locations?|attachments?|events?|cards?|agenda)\b\s*", rest)
    if not m:
        return None
    kind = _TYPE_NOUNS[m.group(1)]
    rest = rest[m.end() :].strip()
    scope = default_scope
    post = {
        "you control": Scope.YOU_CONTROL,
        "you own": Scope.YOU_OWN,
        "an opponent controls": Scope.OPPONENT_CONTROLS,
        "your opponent controls": Scope.OPPONENT_CONTROLS,
        "controlled by an opponent": Scope.OPPONENT_CONTROLS,
        "controlled by the losing opponent": Scope.OPPONENT_CONTROLS,
        "controlled by the defending player": Scope.OPPONENT_CONTROLS,
        "controlled by the attacking player": Scope.OPPONENT_CONTROLS,
        "controlled by that player": Scope.ANY,
        "an opponent owns": Scope.OPPONENT_OWNS,
        "owned by an opponent": Scope.OPPONENT_OWNS,
        "in play": Scope.ANY,
        "with no attachments": Scope.ANY,
    }
    while rest:
        for phrase, sc in post.items():
            if rest.startswith(phrase):
                if sc is not Scope.ANY:
                    scope = sc
                elif phrase == "with no attachments":
                    quals.append("no attachments")
                rest = rest[len(phrase) :].strip()
                break
        else:
            m = re.match(r"^with (printed )?(str|cost) (\d+|x) or (lower|higher|less|more)\s*", rest)
            if m:
                cmp = "<=" if m.group(4) in ("lower", "less") else ">="
                quals.append(f"{m.group(1) or ''}{m.group(2)}{cmp}{m.group(3)}")
                rest = rest[m.end() :]
                continue
            m = re.match(r"^with (?:a|an) \[(military|intrigue|power)\] icon\s*", rest)
            if m:
                quals.append(f"has {m.group(1)} icon")
                rest = rest[m.end() :]
                continue
            return None
    return _typed_subject(scope, kind, traits, factions, list(dict.fromkeys(quals)))


_STATS = {"str": Stat.STR, "cost": Stat.COST, "printed str": Stat.PRINTED_STR, "printed cost": Stat.PRINTED_COST}


def _typed_subject(
    scope: Scope, kind: CardKind | None, traits: list[str], factions: list[str], quals: list[str]
) -> Subject:
    """Build a typed :class:`Subject` from the qualifier words the patterns collected."""
    kw: dict[str, Any] = {}
    not_traits: list[str] = []
    not_factions: list[str] = []
    icons: list[ChallengeType] = []
    compare: list[Compare] = []
    for q in quals:
        if q in ("standing", "non-kneeling"):
            kw["standing"] = True
        elif q == "kneeling":
            kw["standing"] = False
        elif q in ("participating", "attacking", "defending"):
            kw["role"] = ChallengeRole(q)
        elif q in ("unique", "loyal", "limited"):
            kw[q] = True
        elif q in ("non-unique", "non-loyal", "non-limited"):
            kw[q[4:]] = False
        elif q == "other":
            kw["other"] = True
        elif q == "no attachments":
            kw["attachments"] = False
        elif q.startswith("has ") and q.endswith(" icon"):
            icons.append(ChallengeType(q[4:-5]))
        elif q.startswith("non-«"):
            not_traits.append(q[5:-1])
        elif q.startswith("non-["):
            not_factions.append(q[5:-1])
        else:
            m = re.match(r"^(printed )?(str|cost)(<=|>=)(\d+|x)$", q)
            if m is None:
                raise ValueError(f"unknown qualifier {q!r}")
            compare.append(
                Compare(
                    _STATS[(m.group(1) or "") + m.group(2)],
                    Cmp.LE if m.group(3) == "<=" else Cmp.GE,
                    None if m.group(4) == "x" else int(m.group(4)),
                )
            )
    return Subject(
        scope,
        kind,
        tuple(traits),
        tuple(factions),
        not_traits=tuple(not_traits),
        not_factions=tuple(not_factions),
        icons=tuple(icons),
        compare=tuple(compare),
        **kw,
    )


def _np(s: str, ctx: _Ctx, default_scope: Scope = Scope.ANY) -> _NP | None:
    """Parse a noun phrase (with determiner, pronoun or ``~``)."""
    s = s.strip().rstrip(".").strip()
    if s in ("~", "this card"):
        return _self_np(ctx)
    if s in (
        "it",
        "him",
        "her",
        "them",
        "that character",
        "that card",
        "that location",
        "that attachment",
        "those characters",
        "those cards",
        "each of those characters",
        "that event",
    ):
        return _pronoun(ctx)
    if s in ("attached character", "attached card", "attached location"):
        kind = CardKind.LOCATION if s.endswith("location") else CardKind.CHARACTER
        return _NP(TargetRef.ATTACHED, Subject(Scope.ATTACHED, kind))
    if s in ("your faction card", "your faction"):
        return _NP(TargetRef.FACTION_CARD, Subject(Scope.YOU_CONTROL, CardKind.FACTION_CARD))
    if s in (
        "an opponent's faction card",
        "the losing opponent's faction card",
        "that player's faction card",
        "the defending player's faction card",
        "the attacking player's faction card",
    ):
        return _NP(TargetRef.FACTION_CARD, Subject(Scope.OPPONENT_CONTROLS, CardKind.FACTION_CARD))
    # "an opponent's character": a character an opponent controls ("you"/"your" is the controller: FAQ (2.7))
    m = re.match(r"^(an|each|the losing|the defending|the attacking) opponent's (.+)$", s)
    if m:
        subj = _subject_phrase(m.group(2), Scope.OPPONENT_CONTROLS)
        if subj is None or subj.scope is not Scope.OPPONENT_CONTROLS:
            return None
        return _NP(TargetRef.EACH, subj, None) if m.group(1) == "each" else _NP(TargetRef.CHOSEN, subj, 1)
    m = _DET_RE.match(s)
    if not m:
        return None
    det = m.group(1)
    body = s[m.end() :]
    if det == "another":
        body = "other " + body
    subj = _subject_phrase(body, default_scope)
    if subj is None:
        return None
    if det in ("each", "all"):
        return _NP(TargetRef.EACH, subj, None)
    count: int | None = 1
    num = m.group(2) or m.group(3)
    if num:
        count = _NUM.get(num) or int(num)
    return _NP(TargetRef.CHOSEN, subj, count)


def _target(np: _NP) -> Target:
    return Target(np.ref, np.subject)


def _amount(s: str) -> int | None:
    s = s.strip()
    if s == "x":
        return None
    if s in _NUM:
        return _NUM[s]
    return int(s)


# ---------------------------------------------------------------------------
# triggers

_PLAYER_SUBJ = {
    "you": Subject(Scope.YOU),
    "an opponent": Subject(Scope.OPPONENT),
    "your opponent": Subject(Scope.OPPONENT),
    "a player": Subject(Scope.ANY_PLAYER),
    "each player": Subject(Scope.ANY_PLAYER),
}
_CHALLENGE_RE = (
    r"(you|an opponent) (win|lose|wins|loses) (?:a|an) (unopposed )?"
    r"(?:\[(military|intrigue|power)\] (?:or (?:an? )?\[[a-z]+\] )?)?"
    r"(unopposed )?challenge(.*)"
)


def _challenge_conditions(rest: str, ctx: _Ctx) -> dict[str, Any] | None:
    """Parse the tail of "win a challenge ..." into typed :class:`Trigger` fields."""
    out: dict[str, Any] = {}
    parts: list[Subject] = []
    rest = rest.strip()
    while rest:
        m = re.match(r"^in which (.+?) (?:is|are) (participating|attacking|defending)\b\s*", rest)
        if m:
            np = _np(m.group(1), ctx, Scope.YOU_CONTROL)
            if np is None:
                return None
            parts.append(replace(np.subject, role=ChallengeRole(m.group(2))))
            rest = rest[m.end() :]
            continue
        m = re.match(r"^as the (attacking|defending) player\s*", rest)
        if m:
            out["as_role"] = PlayerRole(m.group(1))
            rest = rest[m.end() :]
            continue
        m = re.match(r"^by (\d+) or more str\s*", rest)
        if m:
            out["by_str"] = int(m.group(1))
            rest = rest[m.end() :]
            continue
        return None
    if parts:
        out["participants"] = tuple(parts)
    return out


def _card_event(verb: str) -> EventKind | None:
    table = {
        "enters play": EventKind.ENTERS_PLAY,
        "enter play": EventKind.ENTERS_PLAY,
        "is knelt": EventKind.KNELT,
        "kneels": EventKind.KNELT,
        "stands": EventKind.STOOD,
        "is stood": EventKind.STOOD,
        "is killed": EventKind.KILLED,
        "would be killed": EventKind.WOULD_BE_KILLED,
        "leaves play": EventKind.LEAVES_PLAY,
        "would leave play": EventKind.WOULD_LEAVE_PLAY,
        "comes out of shadows": EventKind.OUT_OF_SHADOWS,
        "is sacrificed": EventKind.SACRIFICED,
        "is discarded from play": EventKind.DISCARDED,
        "is discarded": EventKind.DISCARDED,
        "would be discarded from play": EventKind.WOULD_BE_DISCARDED,
        "would be discarded": EventKind.WOULD_BE_DISCARDED,
        "is returned to your hand": EventKind.RETURNED_TO_HAND,
        "is returned to hand": EventKind.RETURNED_TO_HAND,
        "gains power": EventKind.GAIN_POWER,
        "is declared as an attacker": EventKind.DECLARED_ATTACKER,
        "is declared as a defender": EventKind.DECLARED_DEFENDER,
        "bypasses a character using stealth": EventKind.STEALTH_BYPASS,
        "discards a card using pillage": EventKind.PILLAGE_DISCARD,
        "is sacrificed or killed": EventKind.KILLED,
        "is killed or sacrificed": EventKind.KILLED,
        "would be killed or discarded from play": EventKind.WOULD_BE_KILLED,
        "would be returned to your hand": EventKind.WOULD_BE_RETURNED_TO_HAND,
        "would be returned to hand": EventKind.WOULD_BE_RETURNED_TO_HAND,
    }
    return table.get(verb)


_CARD_VERBS = (
    "would be killed or discarded from play",
    "would be returned to your hand",
    "would be returned to hand",
    "would be discarded from play",
    "would be discarded",
    "is discarded from play",
    "is discarded",
    "is sacrificed or killed",
    "is killed or sacrificed",
    "comes out of shadows",
    "would be killed",
    "would leave play",
    "is declared as an attacker",
    "is declared as a defender",
    "bypasses a character using stealth",
    "discards a card using pillage",
    "is returned to your hand",
    "is returned to hand",
    "enters play",
    "is knelt",
    "kneels",
    "stands",
    "is stood",
    "is killed",
    "leaves play",
    "is sacrificed",
    "gains power",
)
_CARD_TAILS: dict[str, tuple[str | None, Phase | None, Scope | None]] = {
    "": ("", None, None),
    "during the challenges phase": ("", Phase.CHALLENGES, None),
    "during the marshaling phase": ("", Phase.MARSHALING, None),
    "during the dominance phase": ("", Phase.DOMINANCE, None),
    "during the plot phase": ("", Phase.PLOT, None),
    "during a challenge": ("during a challenge", Phase.CHALLENGES, None),
    "using ambush": ("using ambush", None, None),
    "under your control": ("", None, Scope.YOU_CONTROL),
    "under an opponent's control": ("", None, Scope.OPPONENT_CONTROLS),
    "from your hand": ("from your hand", None, None),
    "from your dead pile": ("from your dead pile", None, None),
    "by assault": ("by assault", None, None),
    "during the challenges phase under your control": ("", Phase.CHALLENGES, Scope.YOU_CONTROL),
    "under your control during the challenges phase": ("", Phase.CHALLENGES, Scope.YOU_CONTROL),
}


_TAIL_FIELDS: dict[str, dict[str, Any]] = {
    "during a challenge": {"in_challenge": True},
    "using ambush": {"means": Means.AMBUSH},
    "by assault": {"means": Means.ASSAULT},
    "from your hand": {"from_zone": Zone.HAND},
    "from your dead pile": {"from_zone": Zone.DEAD_PILE},
}


def _trigger(text: str, ctx: _Ctx) -> Trigger | None:
    """Parse a triggering condition ("after ~ is knelt", "when the challenges phase ends")."""
    t = text.strip()
    m = re.match(r"^(after|when) (.*)$", t)
    if not m:
        return None
    body = m.group(2)
    m = re.match(r"^(?:the )?(\w+) phase (begins|ends)$", body)
    if m and (m.group(1) in _PHASE_WORDS or m.group(1) == "a"):
        ev = EventKind.PHASE_BEGINS if m.group(2) == "begins" else EventKind.PHASE_ENDS
        return Trigger(ev, Subject(Scope.ANY_PLAYER), _PHASE_WORDS.get(m.group(1)))
    if body in ("a phase begins", "a phase ends"):
        return Trigger(
            EventKind.PHASE_BEGINS if body.endswith("begins") else EventKind.PHASE_ENDS, Subject(Scope.ANY_PLAYER)
        )
    m = re.match(r"^" + _CHALLENGE_RE + "$", body)
    if m:
        ev = EventKind.WIN_CHALLENGE if m.group(2).startswith("win") else EventKind.LOSE_CHALLENGE
        fields = _challenge_conditions(m.group(6), ctx)
        if fields is None:
            return None
        icons = [ChallengeType(i) for i in re.findall(r"\[(military|intrigue|power)\]", body.split("challenge")[0])]
        return Trigger(
            ev,
            _PLAYER_SUBJ[m.group(1)],
            None,
            icons[0] if icons else None,
            also_challenges=tuple(icons[1:]),
            unopposed=bool(m.group(3) or m.group(5)),
            **fields,
        )
    m = re.match(r"^(you|an opponent) (win|lose|wins|loses) dominance$", body)
    if m:
        ev = EventKind.WIN_DOMINANCE if m.group(2).startswith("win") else EventKind.LOSE_DOMINANCE
        return Trigger(ev, _PLAYER_SUBJ[m.group(1)])
    m = re.match(
        r"^(you|an opponent) (initiates?) (?:a|an) (?:\[(military|intrigue|power)\] )?challenge( against you)?$", body
    )
    if m:
        ev = EventKind.CHALLENGE_AGAINST if m.group(4) else EventKind.INITIATE_CHALLENGE
        return Trigger(
            ev, _PLAYER_SUBJ[m.group(1)], Phase.CHALLENGES, ChallengeType(m.group(3)) if m.group(3) else None
        )
    m = re.match(r"^(?:a|an) (?:\[(military|intrigue|power)\] )?challenge is initiated against you$", body)
    if m:
        return Trigger(
            EventKind.CHALLENGE_AGAINST,
            Subject(Scope.OPPONENT),
            Phase.CHALLENGES,
            ChallengeType(m.group(1)) if m.group(1) else None,
        )
    m = re.match(r"^(you|an opponent|a player) (collects?) income$", body)
    if m:
        return Trigger(EventKind.COLLECT_INCOME, _PLAYER_SUBJ[m.group(1)], Phase.MARSHALING)
    m = re.match(r"^(you|an opponent|a player) (draws?) (?:a card|(\d+|one|two) or more cards)$", body)
    if m:
        return Trigger(EventKind.DRAW, _PLAYER_SUBJ[m.group(1)])
    m = re.match(r"^(you|an opponent|a player) (reveals?) (?:a|an) (.+)$", body)
    if m:
        subj = _subject_phrase(m.group(3))
        if subj is not None and subj.card_type is CardKind.PLOT:
            return Trigger(
                EventKind.PLOT_REVEALED,
                replace(
                    subj,
                    scope=Scope.YOU_CONTROL
                    if m.group(1) == "you"
                    else Scope.OPPONENT_CONTROLS
                    if m.group(1) == "an opponent"
                    else Scope.ANY,
                ),
                Phase.PLOT,
            )
    m = re.match(r"^(?:a|an) (.+) is revealed$", body)
    if m:
        subj = _subject_phrase(m.group(1))
        if subj is not None and subj.card_type is CardKind.PLOT:
            return Trigger(EventKind.PLOT_REVEALED, subj, Phase.PLOT)
    m = re.match(r"^(you|an opponent|a player) (plays?) (?:a|an) (.+)$", body)
    if m:
        subj = _subject_phrase(m.group(3))
        if subj is not None and subj.card_type is CardKind.EVENT:
            sc = {"you": Scope.YOU_CONTROL, "an opponent": Scope.OPPONENT_CONTROLS}.get(m.group(1), Scope.ANY)
            return Trigger(EventKind.EVENT_PLAYED, replace(subj, scope=sc))
    if body == "an event is played":
        return Trigger(EventKind.EVENT_PLAYED, Subject(Scope.ANY, CardKind.EVENT))
    m = re.match(r"^you marshal (.+)$", body)
    if m:
        np = _np(m.group(1), ctx, Scope.YOU_CONTROL)
        if np is not None:
            return Trigger(
                EventKind.MARSHALED,
                np.subject if np.ref is not TargetRef.SELF else Subject(Scope.SELF, ctx.card_kind),
                Phase.MARSHALING,
            )
    m = re.match(
        r"^the effects of (an opponent's|an|a) (event|triggered character ability|triggered ability|"
        r"opponent's triggered character ability|triggered location ability|card ability) would initiate$",
        body,
    )
    if m:
        ev = EventKind.EVENT_WOULD_INITIATE if m.group(2) == "event" else EventKind.ABILITY_WOULD_INITIATE
        scope = Scope.OPPONENT_CONTROLS if "opponent" in (m.group(1) + m.group(2)) else Scope.ANY
        kind = (
            CardKind.EVENT
            if ev is EventKind.EVENT_WOULD_INITIATE
            else (
                CardKind.CHARACTER
                if "character" in m.group(2)
                else CardKind.LOCATION
                if "location" in m.group(2)
                else CardKind.CARD
            )
        )
        return Trigger(ev, Subject(scope, kind))
    m = re.match(r"^(?:power is gained by|(?:1 or more )?power is placed on) (.+)$", body)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None:
            return Trigger(EventKind.GAIN_POWER, np.subject)
    m = re.match(
        r"^(you|an opponent) (gains?) (\d+|one|two|a) (?:or more )?power(?: for (?:your|their|his or her) faction)?$",
        body,
    )
    if m:
        return Trigger(
            EventKind.GAIN_POWER,
            Subject(Scope.YOU_CONTROL if m.group(1) == "you" else Scope.OPPONENT_CONTROLS, CardKind.FACTION_CARD),
        )
    m = re.match(r"^claim is applied for (?:a|an) (?:\[(military|intrigue|power)\] )?challenge(.*)$", body)
    if m:
        fields = _challenge_conditions(m.group(2), ctx)
        if fields is not None:
            return Trigger(
                EventKind.CLAIM_APPLIED,
                Subject(Scope.ANY_PLAYER),
                Phase.CHALLENGES,
                ChallengeType(m.group(1)) if m.group(1) else None,
                **fields,
            )
    # card events: "<np> <verb>[ <tail>]"
    for verb in _CARD_VERBS:
        idx = body.find(" " + verb)
        if idx < 0:
            continue
        head = body[:idx]
        tail = body[idx + 1 + len(verb) :].strip()
        card_ev = _card_event(verb)
        if card_ev is None or tail not in _CARD_TAILS:
            continue
        np = _np(head, ctx, Scope.ANY)
        if np is None:
            continue
        cond, phase, tail_scope = _CARD_TAILS[tail]
        subj = np.subject
        if tail_scope is not None and np.ref is not TargetRef.SELF:
            subj = replace(subj, scope=tail_scope)
        extra: dict[str, Any] = dict(_TAIL_FIELDS.get(cond or "", {}))
        if verb in ("is sacrificed or killed", "is killed or sacrificed"):
            extra["also_events"] = (EventKind.SACRIFICED,)
        elif verb == "would be killed or discarded from play":
            extra["also_events"] = (EventKind.WOULD_BE_DISCARDED,)
        return Trigger(card_ev, subj, phase, None, **extra)
    return None


# ---------------------------------------------------------------------------
# costs


def _cost_item(s: str, ctx: _Ctx) -> tuple[Cost, ...] | None:
    s = s.strip()
    m = re.match(r"^kneel and sacrifice (.+)$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.YOU_CONTROL)
        if np is None:
            return None
        return (Cost(CostKind.KNEEL, _target(np)), Cost(CostKind.SACRIFICE, _target(np)))
    m = re.match(r"^(kneel|sacrifice|kill|stand) (.+)$", s)
    if m:
        np = _np(m.group(2), ctx, Scope.YOU_CONTROL)
        if np is None:
            return None
        kind = {
            "kneel": CostKind.KNEEL,
            "sacrifice": CostKind.SACRIFICE,
            "kill": CostKind.KILL,
            "stand": CostKind.STAND,
        }[m.group(1)]
        return (Cost(kind, _target(np), np.count if np.count is not None else 1),)
    m = re.match(r"^pay (\d+|x) gold$", s)
    if m:
        return (Cost(CostKind.PAY_GOLD, Target(TargetRef.PLAYER, Subject(Scope.YOU)), _amount(m.group(1))),)
    m = re.match(r"^discard (\d+|x|a|an|one|two) (?:(.+?) )?cards? from your hand$", s)
    if m:
        subj = Subject(Scope.YOU_CONTROL, CardKind.CARD, zone=Zone.HAND)
        if m.group(2):
            parsed = _subject_phrase(m.group(2) + " card", Scope.YOU_CONTROL)
            if parsed is None:
                return None
            subj = replace(parsed, zone=Zone.HAND)
        return (Cost(CostKind.DISCARD_FROM_HAND, Target(TargetRef.CHOSEN, subj), _amount(m.group(1))),)
    m = re.match(r"^discard (?:(a|an) )?(.+?) from your hand$", s)
    if m:
        hand = _subject_phrase(m.group(2), Scope.YOU_CONTROL)
        if hand is None:
            return None
        return (Cost(CostKind.DISCARD_FROM_HAND, Target(TargetRef.CHOSEN, replace(hand, zone=Zone.HAND))),)
    m = re.match(r"^return (.+?) to (?:your|its owner's) hand$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.YOU_CONTROL)
        if np is None:
            return None
        return (Cost(CostKind.RETURN_TO_HAND, _target(np)),)
    m = re.match(r"^discard (\d+|x|a|an|one|two) (power|gold|[a-z]+ tokens?) from (.+)$", s)
    if m:
        np = _np(m.group(3), ctx, Scope.YOU_CONTROL)
        if np is None:
            return None
        what = m.group(2)
        kind = (
            CostKind.DISCARD_POWER
            if what == "power"
            else CostKind.DISCARD_GOLD
            if what == "gold"
            else CostKind.DISCARD_TOKENS
        )
        return (Cost(kind, _target(np), _amount(m.group(1))),)
    m = re.match(r"^remove (.+?) from the game$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.YOU_CONTROL)
        if np is None:
            return None
        return (Cost(CostKind.REMOVE_FROM_GAME, _target(np)),)
    m = re.match(r"^return (.+?) to shadows$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.YOU_CONTROL)
        if np is None:
            return None
        return (Cost(CostKind.RETURN_TO_SHADOWS, _target(np)),)
    m = re.match(r"^discard (.+?) from play$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.YOU_CONTROL)
        if np is None:
            return None
        return (Cost(CostKind.DISCARD_FROM_PLAY, _target(np)),)
    return None


def _costs(s: str, ctx: _Ctx) -> tuple[Cost, ...] | None:
    """Parse a cost list ("kneel ~ and pay 1 gold")."""
    if s.strip().startswith("kneel and sacrifice "):
        return _cost_item(s, ctx)
    items = re.split(
        r",? and (?=(?:kneel|sacrifice|pay|discard|return|remove|kill)\b)"
        r"|, (?=(?:kneel|sacrifice|pay|discard|return|remove|kill)\b)",
        s,
    )
    out: list[Cost] = []
    for item in items:
        c = _cost_item(item, ctx)
        if c is None:
            return None
        out.extend(c)
    return tuple(out)


# ---------------------------------------------------------------------------
# effects

_VERB_EFFECT = {
    "stand": EffectKind.STAND,
    "kneel": EffectKind.KNEEL,
    "kill": EffectKind.KILL,
    "sacrifice": EffectKind.SACRIFICE,
    "discard": EffectKind.DISCARD,
    "save": EffectKind.SAVE,
}
_VERBS = "stand|kneel|kill|sacrifice|discard|save"


def _duration_split(s: str) -> tuple[str, Duration | None]:
    for phrase, d in _DURATIONS.items():
        if s.startswith(phrase + ", "):
            return s[len(phrase) + 2 :], d
        if s.endswith(" " + phrase):
            return s[: -len(phrase) - 1], d
    return s, None


_ZONE_WORDS: dict[str, Zone] = {
    "hand": Zone.HAND,
    "discard pile": Zone.DISCARD_PILE,
    "dead pile": Zone.DEAD_PILE,
    "deck": Zone.DRAW_DECK,
    "draw deck": Zone.DRAW_DECK,
    "shadows": Zone.SHADOWS,
}


def _zones(s: str) -> tuple[Zone, ...] | None:
    """The zones of "from your hand", "from your hand or discard pile", "from shadows" (``None``: not a zone list)."""
    words = re.split(r"\s*(?:,\s*)?(?:\bor\b|\band/or\b|,)\s*", re.sub(r"^your ", "", s.strip()))
    out: list[Zone] = []
    for w in words:
        z = _ZONE_WORDS.get(re.sub(r"^your ", "", w.strip()))
        if z is None:
            return None
        out.append(z)
    return tuple(dict.fromkeys(out))


def _verb_effect(verb: str, obj: str, ctx: _Ctx, optional: bool) -> tuple[Effect, ...] | None:
    obj = obj.strip()
    from_play = False
    if verb == "discard":
        if obj.endswith(" from play"):
            obj = obj[: -len(" from play")]
            from_play = True
        elif obj in ("it", "him", "her", "that character", "that card", "that location", "that attachment", "them"):
            from_play = True
        else:
            return None
    if verb == "save" and obj.endswith(" from being killed"):
        obj = obj[: -len(" from being killed")]
    suffix = ""
    m = re.match(r"^(.+?) (?:and|, and) (stand|kneel) (it|them|that character)$", obj)
    np = _np(obj, ctx, Scope.ANY)
    if np is None:
        return None
    kind = _VERB_EFFECT[verb]
    _ = (from_play, suffix, m)
    return (Effect(kind, np.count, _target(np), optional=optional),)


def _effect_sentence(s: str, ctx: _Ctx) -> tuple[Effect, ...] | None:
    """Parse one effect sentence (already without costs); ``None`` if not understood."""
    s = s.strip().rstrip(".").strip()
    if re.match(r"^then,? ", s):
        rest = _effect_sentence(re.sub(r"^then,? ", "", s), ctx)
        return None if rest is None else _mark_then(rest)
    optional = False
    m = re.match(r"^you may (.+)$", s)
    if m:
        optional = True
        s = m.group(1)
    # "X and Y" effect conjunctions: try the whole first, then split on " and " / ", and "
    single = _effect_single(s, ctx, optional)
    if single is not None:
        return single
    for sep in (", then ", ". then ", ", and ", " and "):
        if sep in s:
            idx = s.find(sep)
            while idx >= 0:
                left = _effect_single(s[:idx], ctx, optional)
                if left is not None:
                    right = _effect_sentence(s[idx + len(sep) :], ctx)
                    if right is not None:
                        right = tuple(replace(e, optional=e.optional or optional) for e in right)
                        return left + (_mark_then(right) if "then" in sep else right)
                idx = s.find(sep, idx + 1)
    return None


def _mark_then(effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
    """Mark the first of ``effects`` as the start of a post-then aspect (The word "Then")."""
    if not effects:
        return effects
    return (replace(effects[0], then=True),) + effects[1:]


def _effect_single(s: str, ctx: _Ctx, optional: bool) -> tuple[Effect, ...] | None:
    s = s.strip()
    # "(choose and) discard N card(s) from your hand": the player discards from their own hand
    m = re.match(r"^(?:choose and )?discard (\d+|a|one|two|three) cards? from your hand$", s)
    if m:
        return (
            Effect(
                EffectKind.DISCARD_FROM_HAND,
                _amount(m.group(1)),
                Target(TargetRef.PLAYER, Subject(Scope.YOU)),
                optional=optional,
            ),
        )
    # choose ... (sets the antecedent of "it"/"that character")
    m = re.match(r"^choose and (" + _VERBS + r"|stand) (.+)$", s)
    if m:
        np = _np(m.group(2), ctx, Scope.ANY)
        if np is None:
            return None
        ctx.chosen = np
        return _verb_effect(m.group(1), "it", ctx, optional)
    m = re.match(r"^choose (.+?)(?:,)? and (" + _VERBS + r"|return|put) (it|them|him|her)(.*)$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is None:
            return None
        ctx.chosen = np
        return _effect_single(f"{m.group(2)} it{m.group(4)}", ctx, optional)
    m = re.match(r"^choose (an opponent|a player|an opponent or player)$", s)
    if m:
        ctx.chosen = _NP(
            TargetRef.PLAYER, Subject(Scope.OPPONENT if m.group(1) == "an opponent" else Scope.ANY_PLAYER), 1
        )
        return ()
    if s == "shuffle your deck":
        return (Effect(EffectKind.SHUFFLE_DECK, 1, Target(TargetRef.PLAYER, Subject(Scope.YOU)), optional=optional),)
    m = re.match(r"^choose (.+)$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is None or np.ref is not TargetRef.CHOSEN:
            return None
        ctx.chosen = np
        return ()
    m = re.match(r"^(" + _VERBS + r") (.+)$", s)
    if m:
        eff = _verb_effect(m.group(1), m.group(2), ctx, optional)
        if eff is not None:
            return eff
    m = re.match(r"^gain (\d+|x|a|one|two|three) power for your faction$", s)
    if m:
        return (
            Effect(
                EffectKind.GAIN_POWER,
                _amount(m.group(1)),
                Target(TargetRef.FACTION_CARD, Subject(Scope.YOU_CONTROL, CardKind.FACTION_CARD)),
                optional=optional,
            ),
        )
    m = re.match(r"^(.+?) gains? (\d+|x|a|one|two|three) power$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None:
            return (Effect(EffectKind.GAIN_POWER, _amount(m.group(2)), _target(np), optional=optional),)
    m = re.match(r"^(.+?) gains? (\d+|x|a|one|two|three) gold$", s)
    if m:  # gold placed on a card ("~ gains 1 gold"): not the player's gold pool
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None and np.ref in (TargetRef.SELF, TargetRef.CHOSEN, TargetRef.TRIGGER, TargetRef.ATTACHED):
            return (Effect(EffectKind.GAIN_GOLD, _amount(m.group(2)), _target(np), optional=optional),)
    m = re.match(r"^gain (\d+|x|a|one|two|three) gold$", s)
    if m:
        return (
            Effect(
                EffectKind.GAIN_GOLD,
                _amount(m.group(1)),
                Target(TargetRef.PLAYER, Subject(Scope.YOU)),
                optional=optional,
            ),
        )
    m = re.match(r"^draw (\d+|x|a|one|two|three) cards?$", s)
    if m:
        return (
            Effect(
                EffectKind.DRAW, _amount(m.group(1)), Target(TargetRef.PLAYER, Subject(Scope.YOU)), optional=optional
            ),
        )
    m = re.match(
        r"^(each player|each opponent|that player|the losing opponent) draws (\d+|x|a|one|two|three) cards?$", s
    )
    if m:
        sc = Scope.ANY_PLAYER if m.group(1) == "each player" else Scope.OPPONENT
        return (Effect(EffectKind.DRAW, _amount(m.group(2)), Target(TargetRef.PLAYER, Subject(sc)), optional=optional),)
    m = re.match(
        r"^(each opponent|each player|that player|the losing opponent) discards (\d+|x|a|one|two|three) cards?"
        r"(?: at random)? from (?:his or her|their) hand$",
        s,
    )
    if m is None:
        m2 = re.match(
            r"^discard (\d+|x|a|one|two|three) cards?(?: at random)? from "
            r"(each opponent|that player|the losing opponent)'s hand$",
            s,
        )
        if m2 is not None:
            who, amount = m2.group(2), m2.group(1)
        else:
            who, amount = "", ""
    else:
        who, amount = m.group(1), m.group(2)
    if who:
        if who == "that player":
            chosen = ctx.chosen
            sc = chosen.subject.scope if chosen is not None and chosen.ref is TargetRef.PLAYER else Scope.ANY_PLAYER
        else:
            sc = Scope.ANY_PLAYER if who == "each player" else Scope.OPPONENT
        return (
            Effect(
                EffectKind.DISCARD_FROM_HAND, _amount(amount), Target(TargetRef.PLAYER, Subject(sc)), optional=optional
            ),
        )
    m = re.match(r"^move (\d+|x|a|one|two) power from (.+?) to (.+)$", s)
    if m:
        src = _np(m.group(2), ctx, Scope.ANY)
        dst_text = m.group(3).replace("your own", "your faction card")
        dst = _np(dst_text, ctx, Scope.YOU_CONTROL)
        if src is not None and dst is not None:
            return (
                Effect(
                    EffectKind.MOVE_POWER, _amount(m.group(1)), _target(dst), source=_target(src), optional=optional
                ),
            )
    m = re.match(r"^return (.+?) to (?:its owner's|your|his or her|their owner's|their owners') hands?$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None:
            return (Effect(EffectKind.RETURN_TO_HAND, np.count, _target(np), optional=optional),)
    m = re.match(r"^put (.+?) into play(?: from (.+?))?(?: under your control)?$", s)
    if m:
        zones = _zones(m.group(2)) if m.group(2) else ()
        np = _np(m.group(1), ctx, Scope.YOU_OWN)
        if np is not None and zones is not None:
            return (Effect(EffectKind.PUT_INTO_PLAY, np.count, _target(np), optional=optional, from_zones=zones),)
    m = re.match(r"^return (.+?) to shadows$", s)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None:
            return (Effect(EffectKind.RETURN_TO_SHADOWS, np.count, _target(np), optional=optional),)
    m = re.match(
        r"^cancel (?:it|that event|those effects|that ability"
        r"|the effects(?: of that event| of that ability| of that card)?)$",
        s,
    )
    if m:
        return (
            Effect(EffectKind.CANCEL, 1, Target(TargetRef.EVENT, ctx.trigger_subject or Subject()), optional=optional),
        )
    m = re.match(r"^discard (\d+|x|a|one|two) power from (.+)$", s)
    if m:
        np = _np(m.group(2), ctx, Scope.ANY)
        if np is not None:
            return (Effect(EffectKind.DISCARD_POWER, _amount(m.group(1)), _target(np), optional=optional),)
    m = re.match(r"^place (\d+|x|a|one|two) ([a-z]+) tokens? on (.+)$", s)
    if m:
        np = _np(m.group(3), ctx, Scope.ANY)
        if np is not None:
            return (Effect(EffectKind.PLACE_TOKEN, _amount(m.group(1)), _target(np), optional=optional),)
    # lasting modifiers, with an optional duration
    body, dur = _duration_split(s)
    m = re.match(r"^(.+?) ((?:gets|get|gains?|loses?) .+)$", body)
    if m and (" and " in m.group(2) or ", " in m.group(2)):
        parts = re.split(r",? and |, ", m.group(2))
        out: list[Effect] = []
        for part in parts:
            if not re.match(r"^(gets|get|gains?|loses?) ", part):
                part = ("gains " if part.startswith(("a ", "an ", "[")) else "gains ") + part
            one = _effect_single(f"{m.group(1)} {part}", ctx, optional)
            if one is None or len(one) != 1:
                out = []
                break
            out.append(replace(one[0], duration=dur))
        if out:
            return tuple(out)
    m = re.match(r"^(.+?) (?:gets|get) ([+-])(\d+|x) str$", body)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None:
            amt = _amount(m.group(3))
            amt = -amt if (amt is not None and m.group(2) == "-") else amt
            return (Effect(EffectKind.STR_MOD, amt, _target(np), duration=dur, optional=optional),)
    m = re.match(r"^(.+?) (gains?|loses?) (?:a|an) (?:challenge icon of your choice)$", body)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None:
            sign = 1 if m.group(2).startswith("gain") else -1
            return (Effect(EffectKind.ICON_MOD, sign, _target(np), duration=dur, optional=optional),)
    m = re.match(r"^(.+?) (gains?|loses?) (?:a|an) \[(military|intrigue|power)\](?: icon)?$", body)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None:
            sign = 1 if m.group(2).startswith("gain") else -1
            return (
                Effect(
                    EffectKind.ICON_MOD,
                    sign,
                    _target(np),
                    duration=dur,
                    challenge=ChallengeType(m.group(3)),
                    optional=optional,
                ),
            )
    m = re.match(r"^(.+?) (gains?|loses?) (ambush|assault|insight|intimidate|pillage|renown|stealth)$", body)
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None:
            sign = 1 if m.group(2).startswith("gain") else -1
            return (
                Effect(
                    EffectKind.KEYWORD_MOD,
                    sign,
                    _target(np),
                    duration=dur,
                    keyword=Keyword(m.group(3)),
                    optional=optional,
                ),
            )
    m = re.match(
        r"^(.+?) cannot be (killed|discarded from play|discarded|sacrificed|knelt|stood|returned to hand)$", body
    )
    if m:
        np = _np(m.group(1), ctx, Scope.ANY)
        if np is not None:
            ev = {
                "killed": EventKind.KILLED,
                "discarded from play": EventKind.DISCARDED,
                "discarded": EventKind.DISCARDED,
                "sacrificed": EventKind.SACRIFICED,
                "knelt": EventKind.KNELT,
                "stood": EventKind.STOOD,
                "returned to hand": EventKind.RETURNED_TO_HAND,
            }[m.group(2)]
            return (Effect(EffectKind.PROHIBIT, None, _target(np), duration=dur, prohibited=ev, optional=optional),)
    m = re.match(r"^([+-])(\d+) (income|reserve|initiative|claim)$", body)
    if m:
        amt = int(m.group(2)) * (1 if m.group(1) == "+" else -1)
        kind = {
            "income": EffectKind.INCOME_MOD,
            "reserve": EffectKind.RESERVE_MOD,
            "initiative": EffectKind.INITIATIVE_MOD,
            "claim": EffectKind.CLAIM_MOD,
        }[m.group(3)]
        return (Effect(kind, amt, Target(TargetRef.PLAYER, Subject(Scope.YOU))),)
    return None


# ---------------------------------------------------------------------------
# abilities

_LIMIT_RE = re.compile(
    r"\s*\((limit|max) (once|twice|\d+|one|two|three)(?: times)? per (challenge|phase|round|game)\.?\)\s*$"
)

_UNCANCELABLE_RE = re.compile(r"\s*\(cannot be canceled\.?\)\s*$")


def _split_sentences(s: str) -> list[str]:
    """Split at sentence ends outside parentheses and quotes."""
    out: list[str] = []
    depth = 0
    quote = False
    start = 0
    for i, ch in enumerate(s):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == '"':
            quote = not quote
        elif ch == "." and depth == 0 and not quote and (i + 1 == len(s) or s[i + 1] == " "):
            out.append(s[start : i + 1].strip())
            start = i + 1
    if s[start:].strip():
        out.append(s[start:].strip())
    return [x for x in out if x]


def _status(understood: int, reasons: list[Unread]) -> Compiled:
    if not reasons:
        return Compiled.FULL
    return Compiled.PARTIAL if understood > 0 else Compiled.UNSUPPORTED


def _body(body: str, ctx: _Ctx, needs_cost_split: bool) -> tuple[tuple[Cost, ...], tuple[Effect, ...], int]:
    """Parse costs and effects of a triggered ability body; return (costs, effects, parts understood)."""
    costs: list[Cost] = []
    effects: list[Effect] = []
    understood = 0
    sentences = _split_sentences(body)
    for n, sent in enumerate(sentences):
        s = sent.rstrip(".").strip()
        if n == 0 and needs_cost_split:
            m = re.match(r"^if (.+?), (.+)$", s)
            if m:
                ctx.reasons.append(Unread(f"if {m.group(1)}", ClauseRole.CONDITION))
                s = m.group(2)
            idx = s.find(" to ")
            while idx >= 0:
                parsed = _costs(s[:idx], ctx)
                if parsed is not None:
                    costs.extend(parsed)
                    understood += 1
                    s = s[idx + 4 :]
                    break
                idx = s.find(" to ", idx + 1)
        if s.startswith("(") and s.endswith(")"):
            ctx.reasons.append(Unread(s, ClauseRole.EFFECT))
            continue
        eff = _effect_sentence(s, ctx)
        if eff is None:
            ctx.reasons.append(Unread(s, ClauseRole.EFFECT))
        else:
            effects.extend(eff)
            understood += 1 if eff else 0
    return tuple(costs), tuple(effects), understood


def _triggered(atype: AbilityType, phase: Phase | None, body: str, ctx: _Ctx) -> Ability:
    limit: Limit | None = None
    understood = 0
    m = _UNCANCELABLE_RE.search(body)
    uncancelable = m is not None
    if m:
        body = body[: m.start()].strip()
    m = _LIMIT_RE.search(body)
    if m:
        limit = Limit(_NUM.get(m.group(2)) or int(m.group(2)), _PERIODS[m.group(3)], LimitKind(m.group(1)))
        body = body[: m.start()].strip()
    elif re.search(r"\((limit|max) [^)]*\)\s*$", body):
        lm = re.search(r"\((limit|max) [^)]*\)\s*$", body)
        assert lm is not None
        ctx.reasons.append(Unread(lm.group(0).strip(), ClauseRole.LIMIT))
        body = body[: lm.start()].strip()
    trigger: Trigger | None = None
    if atype in (
        AbilityType.REACTION,
        AbilityType.INTERRUPT,
        AbilityType.FORCED_REACTION,
        AbilityType.FORCED_INTERRUPT,
    ):
        m = re.match(r"^((?:after|when) [^,]+), (.*)$", body)
        if m:
            trigger = _trigger(m.group(1), ctx)
            if trigger is None:
                ctx.reasons.append(Unread(m.group(1), ClauseRole.TRIGGER))
            else:
                ctx.trigger_subject = trigger.subject
                understood += 1
                if trigger.event in (EventKind.EVENT_WOULD_INITIATE, EventKind.ABILITY_WOULD_INITIATE):
                    ctx.trigger_subject = trigger.subject
            body = m.group(2)
        else:
            ctx.reasons.append(Unread(body, ClauseRole.TRIGGER))
            body = ""
    costs: tuple[Cost, ...] = ()
    effects: tuple[Effect, ...] = ()
    if body:
        costs, effects, n = _body(body, ctx, True)
        understood += n
    elif trigger is not None and not ctx.reasons:
        ctx.reasons.append(Unread("", ClauseRole.EFFECT))
    optional = atype not in (AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT, AbilityType.WHEN_REVEALED)
    return Ability(
        atype,
        trigger,
        costs,
        effects,
        limit,
        phase,
        optional,
        compiled=_status(understood, ctx.reasons),
        unread=tuple(ctx.reasons),
        cannot_be_canceled=uncancelable,
    )


def _constant(text: str, ctx: _Ctx) -> Ability:
    effects: list[Effect] = []
    understood = 0
    for sent in _split_sentences(text):
        s = sent.rstrip(".").strip()
        m = re.match(r"^(.+) only$", s)
        if m and ctx.card_kind is CardKind.ATTACHMENT:
            subj_text = m.group(1).replace("opponent's character", "character an opponent controls")
            subj = _subject_phrase(subj_text)
            if subj is not None:
                effects.append(Effect(EffectKind.ATTACHMENT_RESTRICTION, None, Target(TargetRef.ATTACHED, subj)))
                understood += 1
                continue
        m = re.match(r"^limit (\d+|one) copy per (character|location|card)$", s)
        if m:
            effects.append(
                Effect(
                    EffectKind.COPY_LIMIT,
                    _amount(m.group(1)),
                    Target(TargetRef.ATTACHED, Subject(Scope.ATTACHED, _TYPE_NOUNS[m.group(2)])),
                )
            )
            understood += 1
            continue
        m = re.match(r"^((?:while|if|during|as long as) [^,]+), (.+)$", s)
        if m:
            ctx.reasons.append(Unread(m.group(1), ClauseRole.CONDITION))
            s = m.group(2)
        elif re.match(r"^(while|if|during|as long as) ", s):
            ctx.reasons.append(Unread(s, ClauseRole.CONDITION))
            continue
        eff = _effect_sentence(s, ctx)
        if eff is None:
            ctx.reasons.append(Unread(s, ClauseRole.ABILITY))
        else:
            effects.extend(eff)
            understood += 1
    return Ability(
        AbilityType.CONSTANT,
        effects=tuple(effects),
        optional=False,
        compiled=_status(understood, ctx.reasons),
        unread=tuple(ctx.reasons),
    )


def _card_kind(card_type: str) -> CardKind:
    try:
        return CardKind(card_type)
    except ValueError:
        return CardKind.CARD


def compile_text(text: str, name: str = "", card_type: str = "character") -> tuple[Ability, ...]:
    """Compile the printed text of one card into abilities.

    Parameters
    ----------
    text
        Card text with the pool's light markup.
    name
        The card's name (references to it become ``~``).
    card_type
        The card's type (``character``, ``location``, ...), used for ``~`` subjects.

    Returns
    -------
    tuple of Ability
        One entry per ability, in printed order; never raises on unknown text.
    """
    kind = _card_kind(card_type)
    out: list[Ability] = []
    for raw_line in text.split("\n"):
        line = raw_line.strip()
        line = re.sub(r"<b>[^<]*format only\.</b>", "", line).strip()
        if not line:
            continue
        pieces = re.split(r"<b>([^<:]+):?</b>:?", line)
        head = pieces[0]
        if head.strip():
            out.extend(_untriggered(normalise(head, name), kind))
        for i in range(1, len(pieces), 2):
            prec = normalise(pieces[i], name).strip().rstrip(":")
            body = normalise(pieces[i + 1], name)
            src = f"{prec}: {body}"
            ctx = _Ctx(kind)
            if prec not in _PRECURSORS:
                out.append(
                    Ability(
                        AbilityType.CONSTANT,
                        optional=False,
                        compiled=Compiled.UNSUPPORTED,
                        unread=(Unread(src, ClauseRole.ABILITY),),
                        text=src,
                    )
                )
                continue
            atype, phase = _PRECURSORS[prec]
            out.append(replace(_triggered(atype, phase, body, ctx), text=src))
    return tuple(out)


def _untriggered(text: str, kind: CardKind) -> list[Ability]:
    """Keyword sentences at the start of a line, then one constant ability for the rest."""
    out: list[Ability] = []
    sentences = _split_sentences(text)
    i = 0
    while i < len(sentences):
        s = sentences[i].rstrip(".").strip()
        m = _KEYWORD_RE.match(s)
        if m:
            val = None if m.group(2) in (None, "x") else int(m.group(2))
            out.append(
                Ability(
                    AbilityType.KEYWORD,
                    keyword=Keyword(m.group(1).replace(" ", "_")),
                    keyword_value=val,
                    optional=False,
                    text=sentences[i],
                )
            )
            i += 1
            continue
        m = re.match(r"^no attachments except (.+)$", s)
        if m:
            exc = tuple(re.findall(r"«([^»]+)»", m.group(1)))
            if exc and re.fullmatch(r"«[^»]+»(?:(?:,| or|, or) «[^»]+»)*", m.group(1)):
                out.append(
                    Ability(
                        AbilityType.KEYWORD,
                        keyword=Keyword.NO_ATTACHMENTS,
                        optional=False,
                        keyword_except=exc,
                        text=sentences[i],
                    )
                )
            else:
                out.append(
                    Ability(
                        AbilityType.KEYWORD,
                        keyword=Keyword.NO_ATTACHMENTS,
                        optional=False,
                        compiled=Compiled.PARTIAL,
                        unread=(Unread(f"except {m.group(1)}", ClauseRole.TARGET_RESTRICTION),),
                        text=sentences[i],
                    )
                )
            i += 1
            continue
        break
    rest_sents: list[str] = []
    for sent in sentences[i:]:
        m = _KEYWORD_RE.match(sent.rstrip(".").strip())
        if m:
            val = None if m.group(2) in (None, "x") else int(m.group(2))
            out.append(
                Ability(
                    AbilityType.KEYWORD,
                    keyword=Keyword(m.group(1).replace(" ", "_")),
                    keyword_value=val,
                    optional=False,
                    text=sent,
                )
            )
        else:
            rest_sents.append(sent)
    rest = " ".join(rest_sents)
    if rest:
        out.append(replace(_constant(rest, _Ctx(kind)), text=rest))
    return out


def compile_card(record: Mapping[str, object]) -> tuple[Ability, ...]:
    """Compile a card record (uses the newest erratum when present).

    Parameters
    ----------
    record
        A card record mapping with at least ``text``, ``name`` and ``type``
        (a :class:`ruleproof.cards.pool.Card` works via its ``raw`` mapping).
    """
    return compile_text(card_text(record), str(record.get("name", "")), str(record.get("type", "character")))
