"""Card-text reader: AGoT 2.0 ability text -> the typed ability tree, through the grammar ``ability.lark``.

The reader takes the text (or the newest erratum) of a card, splits it into abilities (boldface
precursors, keyword sentences, constant sentences) and each triggered ability into its clauses: the
triggering condition ("After ..., "), a play restriction ("If ..., "), the costs (before " to "), the
effect sentences ("Then, ..."), the definition of X, and the parentheticals at the end (limits,
"(Cannot be canceled.)", "(Any player may initiate this ability.)").  Each clause is read by the
grammar (:mod:`ruleproof.cards.grammar`).

A clause, or a part of one, that the grammar does not read is *not guessed*: the reader finds the
largest part it can read and records the rest as an :class:`~ruleproof.cards.abilities.Unread` with
its grammatical role, found from where the phrase stands (see :func:`clause_role`).  An ability is
``full`` when nothing is unread, ``partial`` when its structure (trigger, costs, effects) was read
and the unread parts are named, ``unsupported`` when nothing of it was read.

Examples
--------
>>> abilities = compile_text("<b>Action:</b> Kneel Foo to gain 1 gold.", name="Foo", card_type="location")
>>> abilities[0].effects[0].kind.value, abilities[0].compiled.value
('gain_gold', 'full')
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    ClauseRole,
    Cmp,
    Compiled,
    Condition,
    Cost,
    CostKind,
    Effect,
    EffectKind,
    EventKind,
    Keyword,
    Limit,
    Phase,
    Quantity,
    Scope,
    Stat,
    Subject,
    Target,
    TargetRef,
    TestKind,
    Trigger,
    Unread,
    Zone,
)
from ruleproof.cards.grammar import VERBS, Context, NotRead, Paren, grammar_words, read, titles, tokens

__all__ = ["card_text", "clause_role", "compile_card", "compile_text", "normalise"]

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
_TRIGGERED = {AbilityType.REACTION, AbilityType.INTERRUPT, AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT}
_KEYWORD_RE = re.compile(
    r"^(ambush|assault|bestow|insight|intimidate|limited|no attachments|pillage|prized|renown|shadow|stealth|terminal)"
    r"(?: \(?(\d+|x)\)?)?$"
)
# the costs an effect verb pays, when it stands before " to " (Costs)
_COST_OF: dict[EffectKind, CostKind] = {
    EffectKind.KNEEL: CostKind.KNEEL,
    EffectKind.STAND: CostKind.STAND,
    EffectKind.SACRIFICE: CostKind.SACRIFICE,
    EffectKind.PAY_GOLD: CostKind.PAY_GOLD,
    EffectKind.DISCARD_FROM_HAND: CostKind.DISCARD_FROM_HAND,
    EffectKind.RETURN_TO_HAND: CostKind.RETURN_TO_HAND,
    EffectKind.DISCARD_POWER: CostKind.DISCARD_POWER,
    EffectKind.DISCARD_GOLD: CostKind.DISCARD_GOLD,
    EffectKind.DISCARD_TOKENS: CostKind.DISCARD_TOKENS,
    EffectKind.REMOVE_FROM_GAME: CostKind.REMOVE_FROM_GAME,
    EffectKind.RETURN_TO_SHADOWS: CostKind.RETURN_TO_SHADOWS,
    EffectKind.KILL: CostKind.KILL,
    EffectKind.DISCARD: CostKind.DISCARD_FROM_PLAY,
    EffectKind.PUT_INTO_PLAY: CostKind.PUT_INTO_PLAY,
    EffectKind.REVEAL: CostKind.REVEAL,
    EffectKind.MOVE_POWER: CostKind.MOVE_POWER,
    EffectKind.PLACE_TOKEN: CostKind.PLACE_TOKEN,
    EffectKind.REMOVE_FROM_CHALLENGE: CostKind.REMOVE_FROM_CHALLENGE,
    EffectKind.MOVE_GOLD: CostKind.MOVE_GOLD,
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


@functools.lru_cache(maxsize=1)
def _title_re() -> re.Pattern[str] | None:
    """The titles of other cards as printed in a text (longest first; not one spelled like a word of the grammar,
    nor one followed by "Action", "plot" or "token": "Taxation Action", "a Summer plot card")."""
    words = grammar_words()
    names = sorted((t for t in titles() if t.lower() not in words and len(t) > 2), key=len, reverse=True)
    if not names:
        return None
    return re.compile(r"(?<![\w'~])(?:" + "|".join(re.escape(n) for n in names) + r")(?!\w)"
                      r"(?! (?i:action|plot|tokens?|format)\b)")


def normalise(text: str, name: str = "", mark_titles: bool = True) -> str:
    """Strip markup from one ability's text.

    The card's own name becomes ``~``, traits (``<i>Knight</i>``) become
    ``«Knight»``, icons stay ``[stark]``, the titles of other cards (with ``mark_titles``) become ``‹Old Bear
    Mormont›``; everything outside traits and titles is lower-cased and whitespace is collapsed.
    """
    t = text.replace("’", "'")  # a curly apostrophe, also in the card's own name ("Lion’s Tooth")
    if name:
        name = name.replace("’", "'")
        t = re.sub(r"(?<![\w'])" + re.escape(name) + r"(?![\w])", "~", t)
    t = re.sub(r"<i>\s*(.*?)\s*</i>", lambda m: "«" + m.group(1).strip() + "»", t)
    t = re.sub(r"</?(b|em|i)>", "", t)
    title_re = _title_re() if mark_titles else None
    if title_re is not None:
        parts = re.split(r"(«[^»]*»)", t)
        t = "".join(p if p.startswith("«") else title_re.sub(lambda m: f"‹{m.group(0)}›", p) for p in parts)
    parts = re.split(r"(«[^»]*»|‹[^›]*›)", t)
    t = "".join(p if p.startswith(("«", "‹")) else p.lower() for p in parts)
    t = t.replace("’", "'").replace("“", '"').replace("”", '"')
    t = re.sub(r"[–−](?=\d|x\b)", "-", t)  # "–3 STR": a minus sign printed as a dash
    return re.sub(r"\s+", " ", t).strip()


# ---------------------------------------------------------------------------
# the role of an unread clause, from where it stands


#: The words that open a modifier of a noun phrase (a restriction of the target it follows).
_MODIFIER_WORDS = frozenset(
    "with without that who which in from controlled owned other among except of named than at attached "
    "chosen revealed not printed".split())
_CONDITION_WORDS = frozenset({"if", "unless", "while", "as long as", "otherwise"})
_DURATION_WORDS = ("until ", "this phase", "this round", "this challenge", "for the rest of", "for this")


def clause_role(phrase: str, clause: str) -> ClauseRole:
    """The role of an unread ``phrase`` from its grammatical position.

    ``clause`` is the kind of clause it stands in: ``trigger``, ``costs``, ``sentence`` (an effect
    sentence, or a part of one), ``paren`` (a parenthetical), ``condition`` (a play restriction) or
    ``definition``.  The first words of the phrase say how it attaches to what was read: "or ..." is an
    alternative; "... instead" a replacement; "if/unless/while ..." a condition; "until ..." a
    duration; a verb after "and"/"," a further effect (a further cost in a cost list); "you may ..."
    an effect the player may decline; a modifier ("with ...", "that ...", "in ...", "controlled by
    ...") restricts the noun phrase it follows: the trigger's (a trigger restriction) or a target's.

    Examples
    --------
    >>> clause_role("or a «Small Council» character", "costs").value
    'alternative'
    >>> clause_role("with printed cost 3 or lower", "sentence").value
    'target_restriction'
    >>> clause_role("(2 gold instead if ~ is kneeling)", "paren").value
    'replacement'
    """
    p = phrase.strip(" ,.;:").lstrip("(").strip()
    if clause == "definition":
        return ClauseRole.DEFINITION
    if clause == "condition":
        return ClauseRole.CONDITION
    if p.startswith("or ") or p.startswith("and/or "):
        return ClauseRole.ALTERNATIVE
    if " instead" in f" {p}":
        if p.startswith("you may ") or p.startswith("may "):
            return ClauseRole.ALTERNATIVE  # "(you may kill it instead if ...)": an option the player may take
        return ClauseRole.REPLACEMENT
    first = p.split(" ", 1)[0] if p else ""
    if first in _CONDITION_WORDS or p.startswith("as long as"):
        return ClauseRole.TRIGGER_RESTRICTION if clause == "trigger" else ClauseRole.CONDITION
    if first == "during":
        return ClauseRole.TRIGGER_RESTRICTION if clause == "trigger" else ClauseRole.CONDITION
    if p.startswith(_DURATION_WORDS):
        return ClauseRole.DURATION
    if first in ("limit", "max"):
        return ClauseRole.LIMIT
    if clause == "trigger":
        return ClauseRole.TRIGGER_RESTRICTION
    if p.startswith("you may ") or p.startswith("may "):
        return ClauseRole.OPTIONAL_EFFECT
    if first == "to" and _infinitive(p):
        return ClauseRole.EFFECT  # "to draw 1 card": what a payment is for
    if first in _MODIFIER_WORDS or first in ("by", "using", "as", "under", "for", "to", "into", "on", "onto"):
        return ClauseRole.TARGET_RESTRICTION
    if clause == "costs":
        return ClauseRole.COST
    return ClauseRole.EFFECT


# ---------------------------------------------------------------------------
# reading a clause, in full or in part


@dataclass
class _Acc:
    """What one ability accumulates while its clauses are read."""

    ctx: Context
    unread: list[Unread]
    read_parts: int = 0

    def miss(self, phrase: str, clause: str) -> None:
        phrase = phrase.strip(" ,.;")
        if phrase:
            self.unread.append(Unread(phrase, clause_role(phrase, clause)))


_BOUNDARY_WORDS = frozenset({"and", "or", "to", "then", "if", "unless", "until", "with", "without", "that", "who",
                             "in", "from", "controlled", "owned", "during", "by", "using", "as", "under", "for",
                             "other", "among", "except", "of", "instead", "while", "at", "on", "into", "this",
                             "each"})


def _cuts(text: str) -> list[int]:
    """Character offsets where a phrase may start: before a boundary word or after a comma."""
    out: list[int] = []
    prev = ""
    for w, pos in tokens(text):
        if w == "of" and prev == "instead":
            prev = w
            continue  # "instead of placing it in ...": one replacement, never cut in two
        prev = w
        if w in _BOUNDARY_WORDS and pos > 0:
            out.append(pos)
        elif w in (",", "(") and 0 < pos and pos + 1 < len(text):
            out.append(pos)
    return out


def _read_part(text: str, clause: str, acc: _Acc, budget: int = 40) -> Any:
    """Read ``text`` as a ``clause``; if it is not read in full, read the largest part that is and record the
    rest (a phrase in the middle, or the tail) as unread.  Return ``None`` when no part is read."""
    try:
        return read(text, clause, acc.ctx)
    except NotRead as exc:
        pos = exc.pos
    cuts = _cuts(text)
    ends = sorted({p for p in cuts} | {len(text)})
    tries = 0
    # a phrase in the middle (a modifier or an alternative), nearest to where reading stopped first
    # (a construction refused after it parsed stops at 0: any cut may leave out what was refused)
    starts = sorted((p for p in cuts if p <= max(pos, 1) or pos == 0), reverse=True)
    for k in starts:
        for m in (e for e in ends if e > max(pos, k) and e < len(text)):
            if tries >= budget:
                break
            if _CLAUSE_SPLIT.search(text[k:m]):
                continue  # a span with a verb phrase of its own is a clause, not a modifier: read clause by clause
            if _infinitive(text[k:m]):
                continue  # "... to <verb>": the payment and the effect are read together or not at all
            tries += 1
            rest = text[m:]
            if rest.startswith(","):
                rest = rest if not text[:k].rstrip().endswith(",") else rest[1:]
            candidate = (text[:k].rstrip() + " " + rest.lstrip()).strip()
            try:
                got = read(candidate, clause, acc.ctx)
            except NotRead:
                continue
            acc.miss(text[k:m], clause)
            return got
    # the tail
    for k in starts:
        if tries >= budget * 2:
            break
        if _infinitive(text[k:]):
            continue  # the tail holds what the part before it pays for: never read that part as effects
        tries += 1
        try:
            got = read(text[:k].rstrip(" ,"), clause, acc.ctx)
        except NotRead:
            continue
        acc.miss(text[k:], clause)
        return got
    return None


# ---------------------------------------------------------------------------
# sentences


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
            out.append(s[start: i + 1].strip())
            start = i + 1
    if s[start:].strip():
        out.append(s[start:].strip())
    merged: list[str] = []
    for x in out:  # a parenthetical that is a sentence of its own belongs to the sentence before it
        if merged and x.startswith("(") and x.rstrip(".").endswith(")"):
            merged[-1] = f"{merged[-1].rstrip('.')} {x}"
        elif x:
            merged.append(x)
    return merged


_PAREN_END = re.compile(r"\s*\(([^()]*)\)\s*$")


_KEYWORD_VALUE = re.compile(r"\d+|x")
_VALUED = re.compile(r"\b(shadow|bestow)\s*$")


def _trailing_parens(s: str, ctx: Context, ability: bool) -> tuple[str, list[str]]:
    """Split ``s`` into the text before its trailing parentheticals and the parentheticals (in order).

    With ``ability``, only an ability's own parentheticals (a limit, "(Cannot be canceled.)", "(Any player may
    initiate this ability.)", as the grammar reads them) are split off.  Else every trailing parenthetical is,
    but "(except for «Traits»)", which belongs to the sentence; the caller reads them after the sentence, when
    the pronouns in them have something to refer to.
    """
    parens: list[str] = []
    while True:
        s = s.rstrip().rstrip(".").rstrip()
        m = _PAREN_END.search(s)
        if not m:
            break
        inner = m.group(1).strip().rstrip(".").strip()
        if ability:
            try:
                got = read(f"({inner})", "paren", ctx)
            except NotRead:
                break
            if got.cannot_be_saved or got.instead is not None or got.instead_effects:
                break
        elif inner.startswith("except ") or _KEYWORD_VALUE.fullmatch(inner) and _VALUED.search(s[:m.start()]):
            break  # "(except for «Traits»)", "gains shadow (x)": part of the sentence
        parens.insert(0, inner)
        s = s[: m.start()]
    return s.strip(), parens


def _mark_then(effects: list[Effect]) -> list[Effect]:
    return [replace(effects[0], then=True), *effects[1:]] if effects else effects


def _then_parts(s: str) -> list[tuple[str, bool]]:
    """Split a sentence at ", then " (the word "Then"); each part says whether it starts a post-then aspect."""
    then = False
    m = re.match(r"^then,? ", s)
    if m:
        then = True
        s = s[m.end():]
    parts = re.split(r",? then,? (?![^(]*\))", s)
    return [(p, then if i == 0 else True) for i, p in enumerate(parts) if p.strip()]


def _sentence_role(s: str) -> ClauseRole:
    """The role of a whole effect sentence that is not read: an effect, one the player may decline, or a
    replacement ("... instead ...")."""
    if " instead" in f" {s}":
        return ClauseRole.ALTERNATIVE if s.startswith("you may ") else ClauseRole.REPLACEMENT
    return ClauseRole.OPTIONAL_EFFECT if s.startswith("you may ") else ClauseRole.EFFECT


_CLAUSE_SPLIT = re.compile(r"(?:,? and |, )(?=(?:you may |" + "|".join(sorted(VERBS - {"may", "must", "cannot"}))
                           + r")\b)")
#: "to" before a verb: what stands before it is paid for what comes after (Costs: "kneel ~ to stand a character").
_INFINITIVE = re.compile(r"(?:^|\s)to,? (?:" + "|".join(sorted(
    (VERBS - {"is", "are", "may", "must", "cannot", "does"})
    | set("give apply end set switch increase double raise reduce play marshal trigger satisfy become".split())))
    + r")\b")


def _infinitive(text: str) -> bool:
    """Does ``text`` hold "to <verb>" outside parentheses?  A phrase with one is never a modifier to leave out: what
    is before it is a payment and what follows it the effect, so reading the one without the other misreads both
    (a cost read as an effect)."""
    return bool(_INFINITIVE.search(re.sub(r"\([^()]*\)", "", text)))


def _clauses(part: str, acc: _Acc) -> list[Effect] | None:
    """Read a sentence the grammar does not read whole clause by clause, at its coordinated verb phrases ("search
    your deck for X, reveal it, and add it to your hand"); the clauses not read are named.  ``None`` when no
    clause is read."""
    pieces = [p for p in _CLAUSE_SPLIT.split(part) if p.strip()]
    if len(pieces) < 2 or _infinitive(part):
        return None  # "X and Y to Z": X is paid for Z, not an effect of its own
    probe = _Acc(acc.ctx, [])
    out: list[Effect] = []
    for piece in pieces:
        got = _read_part(piece, "sentence", probe)
        if got is None:
            probe.miss(piece, "sentence")
            acc.ctx.gap = True  # a pronoun after it could refer to what it named
        else:
            out.extend(got)
    if not out:
        return None
    acc.unread.extend(probe.unread)
    return out


def _sentence(s: str, acc: _Acc) -> list[Effect]:
    """Read one effect sentence (after its cost, if any); unread parts go to ``acc``."""
    out: list[Effect] = []
    for part, then in _then_parts(s):
        effects = _read_part(part, "sentence", acc)
        if effects is None:
            effects = _clauses(part, acc)
        if effects is None:
            acc.unread.append(Unread(part.strip(" ,."), _sentence_role(part)))
            acc.ctx.gap = True  # a pronoun after it could refer to what it named
            continue
        acc.read_parts += 1
        out.extend(_mark_then(list(effects)) if then else effects)
    return out


_LEAVES_PLAY = frozenset({EffectKind.KILL, EffectKind.DISCARD, EffectKind.SACRIFICE, EffectKind.RETURN_TO_HAND,
                          EffectKind.RETURN_TO_SHADOWS, EffectKind.MOVE_CARD, EffectKind.REMOVE_FROM_GAME})
_INSTEAD_KINDS: dict[str, tuple[EffectKind, ...]] = {
    "gold": (EffectKind.GAIN_GOLD, EffectKind.MOVE_GOLD), "power": (EffectKind.GAIN_POWER, EffectKind.MOVE_POWER),
    "card": (EffectKind.DRAW,),
    "cards": (EffectKind.DRAW,), "str": (EffectKind.STR_MOD,),
    "by": (EffectKind.REDUCE_COST, EffectKind.CLAIM_MOD),
    "characters": (EffectKind.CHOOSE, EffectKind.STAND, EffectKind.KNEEL, EffectKind.KILL),
    "locations": (EffectKind.CHOOSE, EffectKind.STAND, EffectKind.KNEEL),
}


def _instead(effects: list[Effect], p: Paren) -> list[Effect] | None:
    """"(2 gold instead if ...)": a copy of the last effect it can change, with the new amount, its condition
    and ``instead`` (it replaces the effect before it when the condition holds)."""
    assert p.instead is not None
    unit, amount, up_to, cond = p.instead
    if unit == "printed_cost":  # "(printed cost 6 or lower instead if ...)": the last effect's target filter
        for i in range(len(effects) - 1, -1, -1):
            e = effects[i]
            cmps = e.target.subject.compare
            if len(cmps) == 1 and cmps[0].stat is Stat.PRINTED_COST and cmps[0].op is Cmp.LE and not e.instead:
                s = replace(e.target.subject, compare=(replace(cmps[0], value=amount),))
                alt = replace(e, target=replace(e.target, subject=s), condition=cond, instead=True, then=False)
                return [*effects[: i + 1], alt, *effects[i + 1:]]
        return None
    for i in range(len(effects) - 1, -1, -1):
        e = effects[i]
        if e.kind in _INSTEAD_KINDS[unit] and e.condition is None and not e.instead:
            if unit in ("characters", "locations") and (e.target.subject.card_type is not CardKind(unit[:-1])
                                                          or e.up_to != up_to):
                return None
            alt = replace(e, amount=amount, condition=cond, instead=True, then=False, up_to=up_to or e.up_to)
            return [*effects[: i + 1], alt, *effects[i + 1:]]
    return None


_MAXIMUM_KINDS: dict[str, frozenset[EffectKind]] = {
    "power": frozenset({EffectKind.GAIN_POWER, EffectKind.MOVE_POWER}), "gold": frozenset({EffectKind.GAIN_GOLD}),
    "card": frozenset({EffectKind.DRAW}), "cards": frozenset({EffectKind.DRAW}),
}


def _maximum(effects: list[Effect], maximum: tuple[int, str | None]) -> list[Effect] | None:
    """"(to a maximum of 3 power)": the last effect, when its amount is variable (X, "for each") and of that unit."""
    n, unit = maximum
    if not effects:
        return None
    e = effects[-1]
    variable = e.amount is None or e.x is not None
    if not variable or e.maximum is not None or unit is not None and e.kind not in _MAXIMUM_KINDS.get(unit, ()):
        return None
    return [*effects[:-1], replace(e, maximum=n)]


def _apply_parens(parens: list[str], effects: list[Effect], acc: _Acc) -> tuple[list[Effect], list[Paren]]:
    """Parentheticals after a sentence: "(cannot be saved)" and "(N instead if ...)" belong to its effects;
    the others to the ability."""
    found: list[Paren] = []
    for p in parens:
        try:
            got: Paren = read(f"({p})", "paren", acc.ctx)
        except NotRead:
            acc.miss(f"({p})", "paren")
            continue
        if got.cannot_be_saved:  # Save: a card leaving play by this effect cannot be saved
            if not any(e.kind in _LEAVES_PLAY for e in effects):
                acc.miss(f"({p})", "paren")
                continue
            effects = [replace(e, prohibited=EventKind.SAVED) if e.kind in _LEAVES_PLAY else e for e in effects]
        elif got.instead_effects:  # "(you may kill it instead if ...)"
            if not effects:
                acc.miss(f"({p})", "paren")
            else:
                effects = [*effects, *got.instead_effects]
        elif got.maximum is not None:
            changed = _maximum(effects, got.maximum)
            if changed is None:
                acc.miss(f"({p})", "paren")
            else:
                effects = changed
        elif got.instead is not None:
            changed = _instead(effects, got)
            if changed is None:
                acc.miss(f"({p})", "paren")
            else:
                effects = changed
        else:
            found.append(got)
    return effects, found


#: Effects whose ``amount`` is the number of cards they act on (so a choice before them is their target).
_COUNTS_TARGETS = frozenset({
    EffectKind.STAND, EffectKind.KNEEL, EffectKind.KILL, EffectKind.SACRIFICE, EffectKind.DISCARD,
    EffectKind.RETURN_TO_HAND, EffectKind.RETURN_TO_SHADOWS, EffectKind.SAVE, EffectKind.TAKE_CONTROL,
    EffectKind.PUT_INTO_PLAY, EffectKind.MOVE_CARD, EffectKind.REMOVE_FROM_GAME, EffectKind.BLANK,
    EffectKind.REVEAL, EffectKind.REMOVE_FROM_CHALLENGE, EffectKind.DRAW,
})


def _absorb_choices(effects: list[Effect]) -> list[Effect]:
    """A "choose X" that the next effect acts on is that effect's target (ref ``chosen``) when nothing is lost:
    one card was chosen, or the next effect acts on as many cards as were chosen.  "choose a character and
    kneel it" is one effect, kneel a chosen character."""
    out: list[Effect] = []
    for i, e in enumerate(effects):
        nxt = effects[i + 1] if i + 1 < len(effects) else None
        one = (e.amount, e.up_to) == (1, False)  # one card chosen: the target of the next effect says it all
        able = e.condition is not None and e.condition.test is TestKind.ABLE  # "(if able)": the next effect's too
        # the chooser goes only with the choice: "each player chooses a location they control, if able. Each of
        # those locations gains 1 power" keeps its choice (each player's), never one location gaining power
        if e.kind is EffectKind.CHOOSE and (e.condition is None or able and nxt is not None and nxt.condition is None) \
                and nxt is not None and nxt.target == e.target and nxt.chooser == e.chooser \
                and (one or nxt.kind in _COUNTS_TARGETS and (nxt.amount, nxt.up_to) == (e.amount, e.up_to)):
            if e.then:
                nxt = effects[i + 1] = replace(nxt, then=True)
            if able:
                effects[i + 1] = replace(nxt, condition=e.condition)
            continue
        out.append(e)
    return out


# ---------------------------------------------------------------------------
# triggered abilities


def _trigger(body: str, acc: _Acc) -> tuple[Trigger | None, str]:
    """Read the triggering condition at the start of ``body``; return it and the rest of the body."""
    commas = [m.start() for m in re.finditer(",", body)]
    for c in commas:
        try:
            t = read(body[:c], "trigger", acc.ctx)
        except NotRead:
            continue
        return t, body[c + 1:].strip()
    if not commas:
        acc.miss(body, "trigger")
        return None, ""
    # in part: the trigger up to where it ends, less what is not read
    end = _trigger_end(body, commas)
    for c in dict.fromkeys([end, *commas[:2]]):
        t = _read_part(body[:c], "trigger", acc)
        if t is not None:
            return t, body[c + 1:].strip()
    acc.unread.append(Unread(body[:end], ClauseRole.TRIGGER))
    acc.ctx.trigger = Subject(card_type=CardKind.CARD)  # what "it" would refer to: the card of the trigger
    return None, body[end + 1:].strip()


def _trigger_end(body: str, commas: list[int]) -> int:
    """The comma that ends a triggering condition the grammar did not read: a "when ... would <verb>" runs to the
    comma after its "would" ("when the effects of a non-plot, non-agenda triggered ability would initiate, ...");
    else the first comma.  (Cut at the first comma, the unread trigger and the effect after it were both named
    wrongly: "trigger not read: 'when the effects of a non-plot'", "effect not read: 'non-agenda triggered ...'".)

    >>> body = "when a non-plot, non-agenda ability would initiate, cancel it"
    >>> body[:_trigger_end(body, [15, 50])]
    'when a non-plot, non-agenda ability would initiate'
    >>> _trigger_end("after you win, gain 1 gold, or draw 1 card", [13, 26])
    13
    """
    would = body.find(" would ")
    if body.startswith("when ") and would >= 0:
        return next((c for c in commas if c > would), commas[0])
    return commas[0]


_MOVE_COST = {Zone.DRAW_DECK: CostKind.SHUFFLE_INTO_DECK, Zone.SHADOWS: CostKind.RETURN_TO_SHADOWS}


def _as_costs(effects: list[Effect]) -> list[Cost] | None:
    out: list[Cost] = []
    for e in effects:
        kind = _COST_OF.get(e.kind)
        if e.kind is EffectKind.MOVE_CARD and e.to_zone in _MOVE_COST and e.target.subject.zone in (None, Zone.PLAY):
            kind = _MOVE_COST[e.to_zone]
        if e.kind is EffectKind.MOVE_CARD and e.to_zone is Zone.DISCARD_PILE and \
                e.target.subject.zone is Zone.TOP_OF_DECK:
            kind = CostKind.DISCARD_FROM_DECK
        if kind is None or e.condition is not None or e.duration is not None or e.optional:
            return None
        target = e.target if kind is CostKind.MOVE_GOLD else _paid_by_you(e.target)  # gold moved: from its source
        if e.from_zones:  # "put ~ into play from your dead pile to ...": where the card paid with is
            if len(e.from_zones) > 1 or target.subject.zone not in (None, *e.from_zones) or target.also:
                return None
            target = replace(target, subject=replace(target.subject, zone=e.from_zones[0]))
        out.append(Cost(kind, target, e.amount, e.x, e.destination, e.source, e.token))
    return out


def _paid_by_you(target: Target) -> Target:
    """Costs: paid with the cards of the player who initiates the ability, also a card named as an alternative
    ("kneel ~ or a «Small Council» character": a «Small Council» character you control)."""
    also = tuple(_paid_by_you(t) for t in target.also)
    if target.ref in (TargetRef.CHOSEN, TargetRef.COST) and target.subject.scope is Scope.ANY:
        target = replace(target, subject=replace(target.subject, scope=Scope.YOU_CONTROL))
    return replace(target, also=also)


def _read_costs(text: str, acc: _Acc) -> list[Cost] | None:
    acc.ctx.in_cost = True
    try:
        effects = read(text, "costs", acc.ctx)
    except NotRead:
        return None
    finally:
        acc.ctx.in_cost = False
    return _as_costs(effects)


#: The verbs a cost list starts with.
_COST_START = r"^(kneel|sacrifice|pay|discard|return|remove|kill|stand|put|move|reveal|shuffle|place) "


def _first_sentence(s: str, acc: _Acc, conditions: list[Condition]) -> tuple[list[Cost], list[Effect]]:
    """The first sentence: an optional play restriction ("If ..., "), the costs (before " to "), effects."""
    m = re.match(r"^((?:if|during|unless|while) [^,]+), (.+)$", s)
    if m:
        try:
            conditions.append(read(m.group(1), "condition", acc.ctx))
            s = m.group(2)
        except NotRead:
            pass
    to = [mm.start() for mm in re.finditer(r" to,? ", s)]
    saved = (acc.ctx.antecedent, acc.ctx.player, acc.ctx.gap, acc.ctx.paid)
    for i in to:
        costs = _read_costs(s[:i], acc)
        if costs is None:
            acc.ctx.antecedent, acc.ctx.player, acc.ctx.gap, acc.ctx.paid = saved
            continue
        probe = _Acc(acc.ctx, [])
        effects = _sentence(s[i + 4:].lstrip(", "), probe)
        if not probe.unread:
            acc.read_parts += 1 + probe.read_parts
            return costs, effects
        acc.ctx.antecedent, acc.ctx.player, acc.ctx.gap, acc.ctx.paid = saved
    probe = _Acc(acc.ctx, [])
    effects = _sentence(s, probe)
    if not probe.unread:
        acc.read_parts += probe.read_parts
        return [], effects
    acc.ctx.antecedent, acc.ctx.player, acc.ctx.gap, acc.ctx.paid = saved
    if m and not conditions:
        acc.miss(m.group(1), "condition")
        s = m.group(2)
        to = [mm.start() for mm in re.finditer(r" to,? ", s)]
    for i in to:
        costs = _read_costs(s[:i], acc)
        if costs is not None:
            acc.read_parts += 1
            return costs, _sentence(s[i + 4:].lstrip(", "), acc)
        acc.ctx.antecedent, acc.ctx.player, acc.ctx.gap, acc.ctx.paid = saved
    if to and re.match(_COST_START, s):
        # a cost list read in part: the costs before the first " to " whose effects are read
        for i in to:
            part_acc = _Acc(acc.ctx, [])
            acc.ctx.in_cost = True
            got = _read_part(s[:i], "costs", part_acc)
            acc.ctx.in_cost = False
            costs = _as_costs(got) if got is not None else None
            if costs is None:
                acc.ctx.antecedent, acc.ctx.player, acc.ctx.gap, acc.ctx.paid = saved
                continue
            acc.unread.extend(part_acc.unread)
            acc.read_parts += 1
            return costs, _sentence(s[i + 4:].lstrip(", "), acc)
    inf = _INFINITIVE.search(s)
    if inf is not None and "(" not in s[:inf.start()] and re.match(_COST_START, s):
        # costs not read: named as one unread cost (what they choose could be what a pronoun after them means),
        # the effects after "to" read on their own
        acc.unread.append(Unread(s[:inf.start()].strip(" ,"), ClauseRole.COST))
        acc.ctx.gap = True
        return [], _sentence(s[inf.end() - len(inf.group(0).split()[-1]):], acc)
    return [], _sentence(s, acc)


def _definition(s: str, acc: _Acc) -> Quantity | None:
    """ "X is ...": what X is, or ``None`` (named as an unread definition)."""
    try:
        got: Quantity = read(s, "definition", acc.ctx)
    except NotRead:
        acc.miss(s, "definition")
        return None
    acc.read_parts += 1
    return got


def _status(acc: _Acc) -> Compiled:
    if not acc.unread:
        return Compiled.FULL
    return Compiled.PARTIAL if acc.read_parts > 0 else Compiled.UNSUPPORTED


def _triggered(atype: AbilityType, phase: Phase | None, body: str, kind: CardKind) -> Ability:
    acc = _Acc(Context(kind), [])
    body, parens = _trailing_parens(body, acc.ctx, True)
    trigger: Trigger | None = None
    if atype in _TRIGGERED:
        trigger, body = _trigger(body, acc)
        if trigger is not None:
            acc.read_parts += 1
    conditions: list[Condition] = []
    costs: list[Cost] = []
    effects: list[Effect] = []
    x: Quantity | None = None
    found: list[Paren] = []
    for n, sent in enumerate(_split_sentences(body)):
        s, sparens = _trailing_parens(sent, acc.ctx, False)
        if re.match(r"^x is ", s):
            x = _definition(s, acc) or x
            for p in sparens:  # "(minimum of 1)": not part of what the tree says X is
                acc.miss(f"({p})", "definition")
            continue
        if n == 0:
            costs, sent_effects = _first_sentence(s, acc, conditions)
        else:
            sent_effects = _sentence(s, acc)
        sent_effects, more = _apply_parens(sparens, sent_effects, acc)
        found.extend(more)
        effects.extend(_into_option(effects, sent_effects))
    effects, more = _apply_parens(parens, effects, acc)
    found.extend(more)
    if not effects and not acc.unread:
        acc.unread.append(Unread(body or "(no effect)", ClauseRole.EFFECT))
    limit: Limit | None = None
    for par in found:
        if par.limit is not None:
            if limit is not None:
                lim = par.limit
                acc.unread.append(Unread(f"({lim.kind.value} {lim.count} per {lim.period.value})", ClauseRole.LIMIT))
            limit = par.limit
    x_not: int | None = None
    for par in found:
        if par.x_not is not None:
            # "(x cannot be 0)": only where X is an amount the player picks (a cost or effect of X, not defined)
            picked = x is None and (any(k.amount is None for k in costs) or any(k.amount is None for k in effects))
            if x_not is not None or not picked:
                acc.unread.append(Unread(f"(x cannot be {par.x_not})", ClauseRole.DEFINITION))
            else:
                x_not = par.x_not
    effects = _absorb_choices(effects)
    optional = atype not in (AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT, AbilityType.WHEN_REVEALED)
    return Ability(atype, trigger, tuple(costs), tuple(effects), limit, phase, optional, compiled=_status(acc),
                   cannot_be_canceled=any(p.uncancelable for p in found), conditions=tuple(conditions),
                   any_player=any(p.any_player for p in found), x=x, unread=tuple(acc.unread), x_not=x_not)


def _into_option(before: list[Effect], effects: list[Effect]) -> list[Effect]:
    """The effects of a sentence after "either: A, or B": when they act on a card that only the last option named
    ("either: stand an «Army» character, or reveal the top card of your deck. if it is a location, draw it"), they
    are part of that option (the card exists only when it is chosen), and the choice in ``before`` is replaced with
    one whose last option ends with them.  Returns the effects that follow the choice (none in that case)."""
    if not before or before[-1].kind is not EffectKind.CHOICE or not effects or len(before[-1].options) < 2:
        return effects
    choice = before[-1]
    def named(opts: tuple[Effect, ...]) -> set[Target]:
        return {e.target for e in opts if e.target.ref in (TargetRef.EACH, TargetRef.CHOSEN)}
    last = named(choice.options[-1]) - set().union(*(named(o) for o in choice.options[:-1]))
    def refers(e: Effect) -> bool:
        return e.target in last or (e.condition is not None and e.condition.target in last)
    if not last or not all(refers(e) for e in effects):
        return effects
    before[-1] = replace(choice, options=(*choice.options[:-1], choice.options[-1] + tuple(effects)))
    return []


# ---------------------------------------------------------------------------
# keywords and constant abilities


def _constant(text: str, kind: CardKind) -> Ability:
    acc = _Acc(Context(kind), [])
    effects: list[Effect] = []
    conditions: list[Condition] = []
    x: Quantity | None = None
    for sent in _split_sentences(text):
        s, parens = _trailing_parens(sent, acc.ctx, False)
        if kind is CardKind.ATTACHMENT and s.endswith(" only"):
            try:
                subj: Subject = read(s, "restriction", acc.ctx)
            except NotRead:
                pass
            else:
                effects.append(Effect(EffectKind.ATTACHMENT_RESTRICTION, None, Target(TargetRef.ATTACHED, subj)))
                acc.read_parts += 1
                continue
        if s.startswith("limit ") and " copy per " in s:
            try:
                effects.append(read(s, "copy_limit", acc.ctx))
                acc.read_parts += 1
                continue
            except NotRead:
                pass
        if re.match(r"^x is ", s):
            x = _definition(s, acc) or x
            for p in parens:
                acc.miss(f"({p})", "definition")
            continue
        m = re.match(r"^((?:while|if|during|as long as) [^,]+), (.+)$", s)
        cond: Condition | None = None
        if m:
            try:
                cond = read(m.group(1), "condition", acc.ctx)
                s = m.group(2)
            except NotRead:
                acc.miss(m.group(1), "condition")
                s = m.group(2)
        got = _read_part(s, "sentence", acc)
        if got is None:
            acc.unread.append(Unread(s, ClauseRole.ABILITY))
            continue
        acc.read_parts += 1
        got, more = _apply_parens(parens, list(got), acc)
        if more:
            acc.unread.extend(Unread(f"({p})", ClauseRole.ABILITY) for p in parens)
        if cond is not None:
            conditions.append(cond)
        effects.extend(got)
    effects = _absorb_choices(effects)
    return Ability(AbilityType.CONSTANT, effects=tuple(effects), optional=False, compiled=_status(acc),
                   conditions=tuple(conditions), x=x, unread=tuple(acc.unread))


def _keyword(sentence: str, m: re.Match[str]) -> Ability:
    val = None if m.group(2) in (None, "x") else int(m.group(2))
    return Ability(AbilityType.KEYWORD, keyword=Keyword(m.group(1).replace(" ", "_")), keyword_value=val,
                   optional=False, text=sentence)


def _untriggered(text: str, kind: CardKind) -> list[Ability]:
    """Keyword sentences at the start of a line, then one constant ability for the rest."""
    out: list[Ability] = []
    sentences = _split_sentences(text)
    i = 0
    while i < len(sentences):
        s = sentences[i].rstrip(".").strip()
        m = _KEYWORD_RE.match(s)
        if m:
            out.append(_keyword(sentences[i], m))
            i += 1
            continue
        m = re.match(r"^no attachments except (.+)$", s)
        if m:
            exc = tuple(re.findall(r"«([^»]+)»", m.group(1)))
            if exc and re.fullmatch(r"«[^»]+»(?:(?:,| or|, or) «[^»]+»)*", m.group(1)):
                out.append(Ability(AbilityType.KEYWORD, keyword=Keyword.NO_ATTACHMENTS, optional=False,
                                   keyword_except=exc, text=sentences[i]))
            else:
                out.append(Ability(AbilityType.KEYWORD, keyword=Keyword.NO_ATTACHMENTS, optional=False,
                                   compiled=Compiled.PARTIAL,
                                   unread=(Unread(f"except {m.group(1)}", ClauseRole.TARGET_RESTRICTION),),
                                   text=sentences[i]))
            i += 1
            continue
        break
    rest_sents: list[str] = []
    for sent in sentences[i:]:
        m = _KEYWORD_RE.match(sent.rstrip(".").strip())
        if m:
            out.append(_keyword(sent, m))
        else:
            rest_sents.append(sent)
    rest = " ".join(rest_sents)
    if rest:
        out.append(replace(_constant(rest, kind), text=rest))
    return out


def _card_kind(card_type: str) -> CardKind:
    try:
        return CardKind(card_type)
    except ValueError:
        return CardKind.CARD


@functools.lru_cache(maxsize=8192)
def compile_text(text: str, name: str = "", card_type: str = "character") -> tuple[Ability, ...]:
    """Read the printed text of one card into abilities.

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
            prec = normalise(pieces[i], name, mark_titles=False).strip().rstrip(":")
            body = normalise(pieces[i + 1], name)
            src = f"{prec}: {body}"
            if prec not in _PRECURSORS:
                out.append(Ability(AbilityType.CONSTANT, optional=False, compiled=Compiled.UNSUPPORTED,
                                   unread=(Unread(src, ClauseRole.ABILITY),), text=src))
                continue
            atype, phase = _PRECURSORS[prec]
            out.append(replace(_triggered(atype, phase, body, kind), text=src))
    return tuple(out)


def compile_card(record: Mapping[str, object]) -> tuple[Ability, ...]:
    """Read a card record (uses the newest erratum when present).

    Parameters
    ----------
    record
        A card record mapping with at least ``text``, ``name`` and ``type``
        (a :class:`ruleproof.cards.pool.Card` works via its ``raw`` mapping).
    """
    return compile_text(card_text(record), str(record.get("name", "")), str(record.get("type", "character")))


