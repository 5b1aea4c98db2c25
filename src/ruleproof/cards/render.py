"""Does the tree hold every word?  The words of an ability tree, and the words of its text the tree leaves out.

"Read in full" must mean that every word of an ability has a meaning in its tree.  :func:`tree_words`
walks a node of :mod:`ruleproof.cards.abilities` and collects the words its values stand for (enum values,
numbers, trait names, the names of flags that are set); :func:`uncovered` lists the content words of
the ability's text that none of them accounts for.  A word accounts for itself (after the inflections in
``_LEMMA``) or through ``SYNONYMS`` (the tree words it may stand for: "lower" is ``le``/``lt``, "choose"
is ``chosen``); only the words in ``IGNORED`` (articles, pronouns, punctuation, copulas: words whose
meaning is the structure itself) need no tree word.  A grammar rule that swallows a word it does not put
in the tree shows up here as an uncovered word.

Examples
--------
>>> from ruleproof.cards.compiler import compile_text
>>> (a,) = compile_text("<b>Action:</b> Kneel Foo to stand a <i>Knight</i> character you control.", "Foo")
>>> uncovered(a)
[]
>>> from dataclasses import replace
>>> uncovered(replace(a, effects=()))  # the tree without its effect leaves the effect's words out
['stand', 'knight', 'control']
"""

from __future__ import annotations

import dataclasses
from enum import Enum

from ruleproof.cards.abilities import Ability
from ruleproof.cards.grammar import tokens

__all__ = ["IGNORED", "SYNONYMS", "source_words", "tree_words", "uncovered"]

#: Words whose meaning is the shape of the tree (what they link), not a value in it.
IGNORED = frozenset("""
a an the to of and or , . : ; ( ) ' 's " it him her hers them he she they that those this these its his their is are be
was were as with for by from in on at into onto per times if able have has must does which
""".split())

#: A source word -> the tree words it may stand for (any of them).
SYNONYMS: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "~": "self", "choose": "choose chosen discard", "chooses": "choose chosen discard", "another": "other",
    "different": "other", "lower": "le lt", "less": "le lt", "higher": "ge gt", "more": "exists ge gt",
    "fewer": "le lt negated", "equal": "eq ge le", "once": "1", "twice": "2", "one": "1", "two": "2", "three": "3",
    "x": "x", "after": "forced reaction", "when": "declare forced interrupt resolve would",
    "until": "challenge game leaves phase round stands", "end": "challenge end game phase round", "gets": "str",
    "get": "str", "+": "mod str", "-": "mod str", "gains": "gain mod", "gain": "gain mod",
    "loses": "discard lose mod", "lose": "discard lose lost mod", "may": "optional",
    "you": "attacking optional resolve self you",
    "your": "icon own participate self you", "and/or": "or from", "others": "chosen", "now": "participate",
    "opponent": "opponent", "opponents": "opponent",
    "control": "control controller controls", "controls": "control controller", "controlled": "control controls",
    "own": "own owner owns you", "owned": "own owns", "owner": "deck hand move own owner owns pile return",
    "player": "any opponent_controls player", "each": "any chosen each", "all": "each", "any": "any chosen each",
    "up": "up", "number": "up x", "kneeling": "standing", "standing": "standing", "knelt": "kneel knelt",
    "stood": "stand stood", "non-": "non not", "unique": "unique",
    "play": "discard discarded enters play played playing put", "enters": "enters", "enter": "enters",
    "leaves": "leave leaves", "leave": "leaves", "killed": "kill killed", "discarded": "discard discarded",
    "sacrificed": "sacrifice sacrificed", "returned": "return returned", "would": "would",
    "reveal": "reveal revealed", "revealed": "claim gold_value play resolve revealed", "plot": "claim gold_value plot",
    "card": "attachment card character claim draw event faction hand location plot",
    "cards": "card draw hand plot search", "then": "then", "instead": "instead", "unless": "unless",
    "while": "while", "during": "during in", "win": "win won", "wins": "win", "won": "win winning won",
    "lose ": "lose", "loses ": "lose", "lost": "lose lost", "dominance": "dominance",
    "challenge": "challenge claim contribute icon icons participate participating", "than": "gt lt negated than",
    "same": "eq",
    "side": "contribute participate", "challenges": "challenge challenges", "declared": "declared defenders",
    "attacker": "attacker attacking declared", "defender": "declared defender defending", "attached": "attached",
    "faction": "faction", "power": "power", "gold": "gold", "draw": "draw", "draws": "draw", "hand": "hand",
    "deck": "bottom deck top", "pile": "pile", "shadows": "shadows", "top": "search top", "bottom": "bottom",
    "treasury": "treasury", "pool": "gold player", "remove": "remove removed", "removed": "remove removed",
    "game": "game out", "place": "move place return shadows token", "placed": "gain move power", "put": "put",
    "return": "move return", "add": "move", "shuffle": "deck shuffle", "back": "deck", "bring": "out shadows",
    "winner": "end", "loser": "end", "immediately": "end", "current": "participate", "give": "str take",
    "search": "search", "look": "look", "take": "take", "takes": "take", "cancel": "cancel",
    "effects": "cancel event", "save": "save", "saved": "saved", "canceled": "canceled",
    "initiate": "against any initiate repeat resolve", "initiates": "against initiate", "initiated": "against initiate",
    "additional": "initiate", "against": "against attacking initiate", "applied": "applied", "claim": "claim",
    "income": "income", "collect": "income", "collects": "income", "reserve": "reserve", "initiative": "initiative",
    "value": "claim initiative reserve", "raise": "claim mod", "reduce": "reduce", "next": "next",
    "marshal": "marshaled marshaling", "marshals": "marshaling", "marshaled": "marshaled", "only": "restriction",
    "copy": "copy", "name": "name", "trait": "trait", "treat": "blank", "printed": "blank printed", "text": "blank",
    "box": "blank", "boxes": "blank", "blank": "blank", "except": "blank", "«traits»": "blank", "still": "play",
    "icon": "icon icons", "icons": "icon icons", "choice": "icon", "do": "did", "not": "0 negated no non not",
    "no": "0 attachments end eq non not", "without": "0 eq lacks non not", "alone": "alone", "random": "random",
    "token": "token", "tokens": "token", "there": "exists", "first": "first", "losing": "losing",
    "winning": "winning", "attacking": "attacking participating_alone", "defending": "defending participating_alone",
    "participating": "attacking defending participating", "phase": "phase", "round": "round", "begins": "begins",
    "ends": "ends", "limit": "limit", "max": "max", "str": "margin str", "in-faction": "in_faction",
    "out-of-faction": "in_faction non", "under": "control", "cost": "cost", "cannot": "prohibit prohibited",
    "using": "means pillage stealth", "able": "able", "either": "choice", "other": "chosen other",
    "character": "character", "location": "location", "attachment": "attachment", "event": "event",
    "triggered": "attachment card character event location", "ability": "card character event location",
    "events": "event", "played": "played", "plays": "played", "contribute": "contribute", "move": "move",
    "moved": "moved", "stand": "stand stood", "kneel": "kneel knelt", "area": "shadows",
    "participate": "participate", "cardtype": "cardtype", "type": "type", "again": "repeat", "effect": "repeat",
    "many": "trigger", "title": "named_title", "new": "plot_deck", "just": "resolve", "had": "resolve",
    "among": "highest lowest",
}.items()}

_LEMMA = {
    "characters": "character", "locations": "location", "attachments": "attachment", "events": "event",
    "plots": "plot", "duplicates": "duplicate", "stands": "stand", "kneels": "kneel", "kills": "kill",
    "sacrifices": "sacrifice", "discards": "discard", "returns": "return", "reveals": "reveal", "puts": "put",
    "places": "place", "moves": "move", "gains": "gain", "loses": "lose", "draws": "draw", "chooses": "choose",
    "takes": "take", "enters": "enters", "comes": "out", "come": "out", "out": "out", "gained": "gain",
    "bypasses": "bypass", "attacks": "attacking", "contributes": "contribute",
}


def _enum_words(v: Enum) -> set[str]:
    value = str(v.value)
    return {value, *value.split("_")}


def tree_words(node: object) -> set[str]:
    """Every word the values of ``node`` (a dataclass of the ability tree, or a tuple of them) stand for."""
    out: set[str] = set()
    _walk(node, out)
    return out


#: Fields whose being set also stands for the words of the construction that sets them.
FIELD_WORDS: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "by_str": "by str more", "up_to": "up to", "from_zones": "from", "to_zone": "to into", "instead_of": "placing",
    "shares_trait_with": "shares trait", "attachment_traits": "attachment", "other_types": "or",
    "lacks_icons": "without no icon icons", "lacks_keywords": "without no", "not_traits": "non",
    "not_factions": "non", "not_types": "non", "as_role": "as player", "player_role": "player control controls",
    "participants": "which in", "means": "using by", "controller": "under control", "also": "or",
    "also_events": "or", "also_challenges": "or", "icons": "icon icons", "traits": "trait", "phase": "during phase",
    "attachments": "attachment attachments", "x": "x each every for", "per": "every each", "period": "this",
    "destination": "to attached", "source": "from", "chooser": "choose chooses", "keywords": "with",
    "prohibited": "cannot", "than": "than", "challenge": "challenge challenges", "from_zone": "from your",
    "token": "token tokens", "factions": "affiliation", "replaces": "instead normal effects",
    "count": "more", "plus": "higher than", "same_title": "same title sacrificed", "maximum": "maximum",
    "x_not": "x cannot", "total": "total", "minus": "-", "participant_count": "more",
}.items()}

#: Words a tri-state flag set to ``False`` also stands for ("another card" after a chosen one: ``chosen=False``).
FALSE_WORDS: dict[str, frozenset[str]] = {"chosen": frozenset({"another", "different"})}

#: The same, for a field of one kind of node only: (node class, field) -> words.
NODE_FIELD_WORDS: dict[tuple[str, str], frozenset[str]] = {
    ("Trigger", "amount"): frozenset({"more"}),  # "after an opponent draws 1 or more cards"
}


def _walk(node: object, out: set[str]) -> None:
    if node is None:
        return
    if isinstance(node, Enum):
        out |= _enum_words(node)
    elif isinstance(node, bool):
        return
    elif isinstance(node, int):
        out.add(str(node))
    elif isinstance(node, str):
        out |= {w.lower() for w in node.replace("-", " ").split()}
        out.add(node.lower())
    elif isinstance(node, tuple):
        for x in node:
            _walk(x, out)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            if f.name in ("text", "unread"):
                continue
            v = getattr(node, f.name)
            if isinstance(v, bool):
                if v:
                    out |= {f.name, *f.name.split("_")} | FIELD_WORDS.get(f.name, frozenset())
                elif f.default is None:  # a tri-state flag set to False: "non-unique", "kneeling"
                    out |= {"non", "not", f.name} | FALSE_WORDS.get(f.name, frozenset())
                continue
            if f.name in ("amount", "value", "count") and v is None:
                out.add("x")
            if v is None or (isinstance(v, tuple) and not v):
                continue
            if v != f.default and f.name in FIELD_WORDS:
                out |= FIELD_WORDS[f.name]
            if v != f.default and (type(node).__name__, f.name) in NODE_FIELD_WORDS:
                out |= NODE_FIELD_WORDS[type(node).__name__, f.name]
            if f.name == "amount" and isinstance(v, int) and v < 0:
                out |= {str(-v), "lose"}
            _walk(v, out)


def source_words(text: str) -> list[str]:
    """The content words of an ability's text (its precursor, "Reaction:", excluded), in order."""
    body = text.split(":", 1)[1] if ":" in text.split(" ", 3)[-1] or text.count(":") else text
    words: list[str] = []
    for w, _ in tokens(body):
        lw = w.lower()
        if lw in IGNORED:
            continue
        words.append(lw)
    return words


def uncovered(a: Ability) -> list[str]:
    """The content words of ``a.text`` that its tree does not account for (empty: the tree holds them all)."""
    have = tree_words(a)
    if a.type.value:
        have |= _enum_words(a.type)
    out: list[str] = []
    for w in source_words(a.text):
        base = _LEMMA.get(w, w)
        if base.startswith("‹") and base.endswith("›"):  # a card's title: the subject's ``title``
            if base[1:-1] in have:
                continue
            out.append(base[1:-1])
            continue
        if base.startswith("«") and base.endswith("»"):
            base = base[1:-1].lower()
            if base in have or w in SYNONYMS and SYNONYMS[w] & have:
                continue
            out.append(base)
            continue
        if base.startswith("[") and base.endswith("]"):
            base = base[1:-1]
        if base.isdigit() and base in have:
            continue
        if base in have or w in have:
            continue
        syn = SYNONYMS.get(w) or SYNONYMS.get(base)
        if syn is not None and syn & have:
            continue
        out.append(base)
    return out
