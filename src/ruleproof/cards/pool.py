"""Loading the AGoT card pool (pack JSON files) and deck lists.

The default pool is the one vendored in ``ruleproof/data/agot-cards`` (from
throneteki-json-data; see its README).  Every pack file is validated against
``pack.schema.json``/``card.schema.json``; a malformed file raises
:class:`ruleproof.errors.InputError` naming the file and the record's line.

Examples
--------
>>> pool = load_pool()
>>> pool.get("01001").name
'A Clash of Kings'
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterator, Mapping

import jsonschema
import referencing.exceptions
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from ruleproof.cards.compiler import card_text
from ruleproof.errors import InputError, SourceLoc, clip

__all__ = ["Card", "Deck", "DeckEntry", "Pool", "default_pool_dir", "load_deck", "load_pool", "parse_deck",
           "unknown_code"]

_KEYWORD_SENTENCE = re.compile(
    r"^(ambush|assault|bestow|insight|intimidate|limited|no attachments(?: except [a-z' ]+)?|pillage|prized|renown|"
    r"shadow|stealth|terminal)"
    r"(?: \(?(\d+|x)\)?)?$",
    re.IGNORECASE,
)


def default_pool_dir() -> Path:
    """Return the directory of the vendored card pool (no ``/work/shared`` needed)."""
    return Path(__file__).resolve().parent.parent / "data" / "agot-cards"


@dataclass(frozen=True)
class Card:
    """One card record.

    ``cost`` and ``strength`` are ``None`` for ``X``/``-``/absent; ``text`` is
    the current text (newest erratum applied), ``printed_text`` the printed one.
    """

    code: str
    name: str
    type: str
    faction: str
    cost: int | None
    strength: int | None
    icons: tuple[str, ...]
    traits: tuple[str, ...]
    unique: bool
    loyal: bool
    text: str
    printed_text: str
    keywords: tuple[str, ...]
    deck_limit: int
    pack_code: str
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)


@dataclass(frozen=True)
class Pool:
    """A card pool: cards in file order with lookups by code and by name."""

    cards: tuple[Card, ...]
    pack_names: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _by_code: Mapping[str, Card] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _by_name: Mapping[str, tuple[Card, ...]] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, cards: tuple[Card, ...], pack_names: Mapping[str, str] | None = None) -> "Pool":
        """Build a pool (and its indexes) from cards."""
        by_code = {c.code: c for c in cards}
        by_name: dict[str, list[Card]] = {}
        for c in cards:
            by_name.setdefault(c.name.casefold(), []).append(c)
        return cls(
            cards,
            MappingProxyType(dict(pack_names or {})),
            MappingProxyType(by_code),
            MappingProxyType({k: tuple(v) for k, v in by_name.items()}),
        )

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def get(self, code: str) -> Card | None:
        """Return the card with ``code`` or ``None``."""
        return self._by_code.get(code)

    def by_name(self, name: str) -> tuple[Card, ...]:
        """Return every printing whose name matches ``name`` (case-insensitive)."""
        return self._by_name.get(name.casefold(), ())

    def names(self) -> tuple[str, ...]:
        """Return the distinct card names (as printed)."""
        return tuple(v[0].name for v in self._by_name.values())


def unknown_code(pool: Pool, code: str) -> InputError:
    """The error for ``--cards CODE`` naming no card of ``pool``: a card name gets its codes, a near code a hint."""
    named = pool.by_name(code.strip()) if code.strip() else ()
    if named:
        codes = ", ".join(f"{c.code} ({c.pack_code})" for c in named[:8])
        return InputError(f"unknown card code '{clip(code)}': --cards takes a code; '{clip(code.strip())}' is the "
                          f"card {codes}")
    near = pool.get(code.zfill(5)) if code.isdigit() else None  # 1163 for 01163
    if near is None:
        close = difflib.get_close_matches(code, [c.code for c in pool.cards], n=1) if 0 < len(code) <= 20 else []
        near = pool.get(close[0]) if close else None
    hint = f"; did you mean {near.code} ({near.name})?" if near is not None else ""
    shown = clip(code) if code and code.strip() == code else repr(clip(code))
    return InputError(f"unknown card code {shown}{hint}")


def _int_or_none(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _keywords(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for line in text.split("\n"):
        head = re.split(r"<b>", line)[0]
        head = re.sub(r"</?\w+>", "", head)
        for sent in re.split(r"(?<=\.)\s+", head.strip()):
            m = _KEYWORD_SENTENCE.match(sent.rstrip(".").strip())
            if m:
                out.append(m.group(0).lower())
    return tuple(out)


def _card(rec: Mapping[str, Any], pack_code: str) -> Card:
    icons = rec.get("icons") or {}
    return Card(
        code=str(rec["code"]),
        name=str(rec["name"]),
        type=str(rec["type"]),
        faction=str(rec["faction"]),
        cost=_int_or_none(rec.get("cost")),
        strength=_int_or_none(rec.get("strength")),
        icons=tuple(k for k in ("military", "intrigue", "power") if icons.get(k)),
        traits=tuple(str(t) for t in rec.get("traits", ())),
        unique=bool(rec.get("unique", False)),
        loyal=bool(rec.get("loyal", False)),
        text=card_text(rec),
        printed_text=str(rec.get("text", "")),
        keywords=_keywords(card_text(rec)),
        deck_limit=int(rec["deckLimit"]),
        pack_code=pack_code,
        raw=MappingProxyType(dict(rec)),
    )


def _record_line(raw: str, data: Any, path: tuple[Any, ...]) -> int:
    """Best-effort 1-based line of the record a schema error points into."""
    if len(path) >= 2 and path[0] == "cards" and isinstance(path[1], int):
        try:
            rec = data["cards"][path[1]]
        except (KeyError, IndexError, TypeError):
            rec = None
        if isinstance(rec, dict) and isinstance(rec.get("code"), str):
            m = re.search(r'"code"\s*:\s*"' + re.escape(rec["code"]) + '"', raw)
            if m:
                return raw.count("\n", 0, m.start()) + 1
        # fall back to the n-th record opening brace after "cards"
        m = re.search(r'"cards"\s*:\s*\[', raw)
        if m:
            pos = m.end()
            depth = 0
            n = -1
            for i in range(pos, len(raw)):
                ch = raw[i]
                if ch == "{":
                    if depth == 0:
                        n += 1
                        if n == path[1]:
                            return raw.count("\n", 0, i) + 1
                    depth += 1
                elif ch == "}":
                    depth -= 1
    return 0


def _validator(pool_dir: Path) -> jsonschema.Draft7Validator:
    try:
        card_schema = json.loads((pool_dir / "card.schema.json").read_text(encoding="utf-8"))
        pack_schema = json.loads((pool_dir / "pack.schema.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise InputError(f"cannot read the card schemas: {clip(exc)}", SourceLoc(str(pool_dir))) from None
    for name, schema in (("card.schema.json", card_schema), ("pack.schema.json", pack_schema)):
        try:
            jsonschema.Draft7Validator.check_schema(schema)
        except (jsonschema.exceptions.SchemaError, TypeError, RecursionError) as exc:
            msg = exc.message if isinstance(exc, jsonschema.exceptions.SchemaError) else str(exc)
            raise InputError(f"not a valid JSON schema: {clip(msg)}", SourceLoc(str(pool_dir / name))) from None
    registry: Registry = Registry().with_resource(
        "card.schema.json", Resource.from_contents(card_schema, default_specification=DRAFT7))
    return jsonschema.Draft7Validator(pack_schema, registry=registry)


def load_pool(pool_dir: str | Path | None = None, *, validate: bool = True) -> Pool:
    """Load (and validate) every ``packs/*.json`` file of a pool directory.

    Parameters
    ----------
    pool_dir
        Directory holding ``packs/``, ``card.schema.json`` and
        ``pack.schema.json``; ``None`` for the vendored pool.
    validate
        Validate each pack against the schema (default ``True``).

    Raises
    ------
    InputError
        A missing directory, unreadable JSON, a schema violation (with the
        file and the line of the offending record) or a duplicate card code.
    """
    root = Path(pool_dir) if pool_dir is not None else default_pool_dir()
    packs_dir = root / "packs"
    try:
        is_pool = packs_dir.is_dir()
    except OSError as exc:
        raise InputError(f"cannot read the pool: {exc.strerror or exc}", SourceLoc(clip(str(root)))) from None
    if not is_pool:
        raise InputError("not a card pool directory (no packs/ folder)", SourceLoc(str(root)))
    validator = _validator(root) if validate else None
    cards: list[Card] = []
    seen: dict[str, str] = {}
    pack_names: dict[str, str] = {}
    for path in sorted(packs_dir.glob("*.json")):
        try:
            raw = path.read_text(encoding="utf-8-sig")  # a byte-order mark (Windows editors) is not part of the JSON
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise InputError(f"cannot read the pack file: {clip(why)}", SourceLoc(str(path))) from None
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", SourceLoc(str(path), exc.lineno)) from None
        except RecursionError:
            raise InputError("invalid JSON: nested too deeply", SourceLoc(str(path))) from None
        if validator is not None:
            try:
                errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
            except (jsonschema.exceptions.SchemaError, referencing.exceptions.Unresolvable, TypeError,
                    RecursionError) as exc:
                raise InputError(f"the pool's schema cannot validate this file: {clip(exc)}",
                                 SourceLoc(str(path))) from None
            if errors:
                err = errors[0]
                where = tuple(err.absolute_path)
                rec_desc = ""
                if len(where) >= 2 and where[0] == "cards" and isinstance(where[1], int):
                    rec = data["cards"][where[1]] if isinstance(data, dict) else None
                    code = rec.get("code") if isinstance(rec, dict) else None
                    rec_desc = f"card record #{where[1]}" + (f" (code {code})" if code else "")
                    field_path = ".".join(str(p) for p in where[2:])
                    if field_path:
                        rec_desc += f", field '{field_path}'"
                    rec_desc += ": "
                if not rec_desc and where:  # a field outside the card records ("cards": null)
                    rec_desc = f"field '{'.'.join(str(p) for p in where)}': "
                raise InputError(f"schema violation in {rec_desc or 'the pack: '}{clip(err.message)}",
                                 SourceLoc(str(path), max(1, _record_line(raw, data, where)))) from None
        if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
            raise InputError("a pack file must be an object with a 'cards' list", SourceLoc(str(path), 1))
        pack_code = str(data.get("code", path.stem))
        pack_names[pack_code] = str(data.get("name", pack_code))
        for idx, rec in enumerate(data["cards"]):
            try:
                card = _card(rec, pack_code)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise InputError(f"malformed card record #{idx}: {clip(exc)}",
                                 SourceLoc(str(path), _record_line(raw, data, ("cards", idx)))) from None
            if card.code in seen:
                raise InputError(f"duplicate card code {card.code} (also in {seen[card.code]})",
                                 SourceLoc(str(path), _record_line(raw, data, ("cards", idx))))
            seen[card.code] = path.name
            cards.append(card)
    return Pool.of(tuple(cards), pack_names)


# ---------------------------------------------------------------------------
# deck lists


@dataclass(frozen=True)
class DeckEntry:
    """One deck-list line: a card, how many copies, and where it was written."""

    card: Card
    count: int
    loc: SourceLoc = field(compare=False)


@dataclass(frozen=True)
class Deck:
    """A parsed deck list (``name`` and ``faction`` from a ThronesDB export's header, else empty)."""

    entries: tuple[DeckEntry, ...]
    source: str = ""
    name: str = ""
    faction: str = ""

    def cards(self) -> tuple[Card, ...]:
        """Return the distinct cards of the deck, in list order."""
        return tuple(dict.fromkeys(e.card for e in self.entries))

    def codes(self) -> tuple[str, ...]:
        """Return the distinct card codes, in list order."""
        return tuple(c.code for c in self.cards())


_ENTRY_RE = re.compile(r"^(\d+)\s*[xX×]?\s+(.+?)\s*$")
_PACK_RE = re.compile(r"^(.+?)\s*\(([^()]+)\)$")
_CODE_RE = re.compile(r"^\d{5}$")


# the faction names a ThronesDB export writes on the line after the deck's name
FACTION_NAMES = ("House Baratheon", "House Greyjoy", "House Lannister", "House Martell", "The Night's Watch",
                 "House Stark", "House Targaryen", "House Tyrell", "Neutral")
# section headings: "Characters", "Plot (7)", "Draw deck:" ... (never card names)
_SECTION_RE = re.compile(r"^(plots?|characters?|locations?|attachments?|events?|agendas?|draw deck|plot deck"
                         r")\s*(\(\d+\))?\s*:?$", re.IGNORECASE)


def _is_header(line: str) -> bool:
    return (
        line.startswith("#")
        or line.startswith("//")
        or line.endswith(":")
        or bool(_SECTION_RE.match(line))
        or bool(re.match(r"^[A-Za-z][A-Za-z ]*\s*\(\d+\)\s*:?$", line))
        or bool(re.match(r"^[A-Za-z][A-Za-z ]*:\s", line))
        or bool(re.fullmatch(r"[-=_*]{3,}", line))
        or bool(re.match(r"^https?://", line))
    )


def _is_entry(line: str) -> bool:
    return bool(_CODE_RE.match(line) or re.match(r"^\d", line))


def _faction(line: str) -> str:
    return next((f for f in FACTION_NAMES if f.casefold() == line.casefold()), "")


def _export_header(lines: list[str]) -> tuple[int, str, str, set[int]]:
    """The header of a ThronesDB text export: its length, the deck name, the faction, the lines to skip.

    An export starts with the deck's name, then its faction, its agendas (card names) and a
    ``Packs:`` line (its pack range on the next line), before the first section heading.  A
    list without such a header (no faction line and no ``Packs:`` line before the first section
    heading or entry) has none: its first line is read as a card.
    """
    end = next((i for i, ln in enumerate(lines) if _is_entry(ln) or _SECTION_RE.match(ln)), len(lines))
    head = [(i, ln) for i, ln in enumerate(lines[:end]) if ln and not ln.startswith(("#", "//"))]
    faction = next((_faction(ln) for _, ln in head if _faction(ln)), "")
    packs = [i for i, ln in head if ln.casefold().startswith("packs:")]
    if not head or (not faction and not packs):
        return 0, "", "", set()
    skip = {head[0][0]} | {i for i, ln in head if _faction(ln)} | set(packs)
    skip |= {i + 1 for i in packs if i + 1 < end and lines[i].strip().casefold() == "packs:"}
    return end, head[0][1], faction, skip


def _resolve(name: str, pack: str | None, pool: Pool, loc: SourceLoc) -> Card:
    if _CODE_RE.match(name):
        card = pool.get(name)
        if card is None:
            close = difflib.get_close_matches(name, [c.code for c in pool.cards], n=1)
            near = pool.get(close[0]) if close else None
            hint = f"; did you mean {near.code} ({near.name})?" if near is not None else ""
            raise InputError(f"unknown card code {name}{hint}", loc)
        return card
    found = pool.by_name(name)
    if pack is not None and found:
        p = pack.casefold()
        in_pack = tuple(c for c in found if c.pack_code.casefold() == p
                        or pool.pack_names.get(c.pack_code, "").casefold() == p)
        if not in_pack:
            packs = ", ".join(sorted({c.pack_code for c in found}))
            raise InputError(f"'{clip(name)}' is not in pack '{clip(pack)}' (it is in: {packs})", loc)
        found = in_pack
    if not found:
        close = difflib.get_close_matches(name, pool.names(), n=1, cutoff=0.6) if len(name) <= 200 else []
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise InputError(f"unknown card '{clip(name)}'{hint}", loc)
    if len(found) > 1:
        texts = {c.text for c in found}
        if len(texts) > 1:
            options = ", ".join(f"{c.code} ({c.pack_code})" for c in found)
            raise InputError(f"'{name}' is ambiguous: {options}; add the pack, e.g. '{name} ({found[0].pack_code})'",
                             loc)
        regular = [c for c in found if not c.code.startswith("00")]
        return min(regular or found, key=lambda c: c.code)
    return found[0]


def parse_deck(text: str, pool: Pool, source: str = "<deck>") -> Deck:
    """Parse a deck list: a plain list, or a ThronesDB text export.

    One entry a line: ``3x Ser Jaime Lannister (Core)`` (the pack by code or
    by name: ``(Core Set)``), ``2 01001``, ``01001`` or a bare card name (one
    copy).  Blank lines, ``#`` and ``//`` comments, section headings
    (``Characters``, ``Characters (28):``, ``Plots:``), ``Key: value`` lines
    and links are ignored.  A ThronesDB export's header (the deck's name, its
    faction, its agendas, and ``Packs:`` with the pack range on the next
    line) is read as such: the name and faction go to :attr:`Deck.name` and
    :attr:`Deck.faction`, each agenda is an entry of one copy.

    Raises
    ------
    InputError
        A bad quantity, a line without a card, or an unknown card (with a
        "did you mean" suggestion), at ``source:line``.
    """
    entries: list[DeckEntry] = []
    lines = [ln.strip() for ln in text.splitlines()]
    _, name, faction, skip = _export_header(lines)
    for n, line in enumerate(lines, start=1):
        loc = SourceLoc(source, n)
        if not line or n - 1 in skip or _is_header(line):
            continue
        count = 1
        rest = line
        if _CODE_RE.match(line):
            rest = line
        else:
            m = _ENTRY_RE.match(line)
            if m:
                count = int(m.group(1))
                rest = m.group(2)
            elif re.match(r"^\d", line):
                raise InputError(f"malformed deck line '{clip(line)}' (expected e.g. '3x Card Name (Pack)')", loc)
        if count <= 0:
            raise InputError(f"quantity must be at least 1 in '{clip(line)}'", loc)
        pack: str | None = None
        pm = _PACK_RE.match(rest)
        if pm and not _CODE_RE.match(rest):
            rest, pack = pm.group(1).strip(), pm.group(2).strip()
        if not rest:
            raise InputError(f"malformed deck line '{clip(line)}' (no card)", loc)
        card = _resolve(rest, pack, pool, loc)
        _check_copies(card, count, entries, loc)
        entries.append(DeckEntry(card, count, loc))
    return Deck(tuple(entries), source, name, faction)


def _check_copies(card: Card, count: int, entries: list[DeckEntry], loc: SourceLoc) -> None:
    """Deckbuilding's limits on copies: a draw-deck card's deck limit; a plot once, one plot of the deck twice."""
    before: dict[str, int] = {}
    for e in entries:
        before[e.card.code] = before.get(e.card.code, 0) + e.count
    held = before.get(card.code, 0) + count
    limit = 2 if card.type == "plot" else card.deck_limit  # the data's plot limit of 1 is not the rule's
    if held > limit:
        raise InputError(f"{held} copies of {clip(card.name)} ({card.code}): a deck holds at most {limit} "
                         f"(Deckbuilding)", loc)
    if card.type == "plot" and held == 2:
        other = next((e.card.name for e in entries
                      if e.card.type == "plot" and e.card.code != card.code and before[e.card.code] == 2), None)
        if other is not None:
            raise InputError(f"a second plot with 2 copies ({clip(card.name)}, after {clip(other)}): only one plot "
                             f"of a plot deck may be duplicated (Deckbuilding)", loc)


def load_deck(path: str | Path, pool: Pool | None = None) -> Deck:
    """Read and parse a deck-list file (see :func:`parse_deck`); a list that names no card is an error."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read deck list: {clip(exc.strerror or exc)}", SourceLoc(str(p))) from None
    body = raw.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark (Windows Notepad) is not part of the first line
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = body.count(b"\n", 0, exc.start) + 1
        raise InputError(f"the deck list is not UTF-8 text: byte 0x{body[exc.start]:02x} cannot be read "
                         f"(save the file as UTF-8)", SourceLoc(str(p), line)) from None
    deck = parse_deck(text, pool if pool is not None else load_pool(), str(p))
    if not deck.codes():  # an empty list must not widen a search to the whole pool
        raise InputError("the deck list names no card (an empty deck is not the whole pool: omit --deck for that)",
                         SourceLoc(str(p)))
    return deck
