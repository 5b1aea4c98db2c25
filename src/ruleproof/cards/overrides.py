"""Hand-written structured abilities (YAML) that take precedence over the compiler.

An override file maps card codes to a list of abilities, with the field names
of :mod:`ruleproof.cards.abilities` and enum values in lower case::

    "01087":
      - type: reaction
        trigger: {event: knelt, subject: {scope: self, card_type: character}}
        effects:
          - {kind: gain_power, amount: 1, target: {ref: self}}
        limit: {count: 1, period: phase}

Unknown fields, bad enum values and wrong types raise
:class:`ruleproof.errors.InputError` with the file and line (from the YAML
node marks).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import MappingProxyType, NoneType, UnionType
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import yaml

from ruleproof import yaml_guard
from ruleproof.cards.abilities import Ability
from ruleproof.cards.compiler import compile_card
from ruleproof.errors import InputError, SourceLoc

if TYPE_CHECKING:
    from ruleproof.cards.pool import Card, Pool

__all__ = ["Overrides", "abilities_for", "compile_pool", "load_overrides", "parse_overrides"]


@dataclass(frozen=True)
class Overrides:
    """Overrides by card code (later files win over earlier ones)."""

    by_code: Mapping[str, tuple[Ability, ...]] = field(default_factory=lambda: MappingProxyType({}))
    sources: tuple[str, ...] = ()
    where: Mapping[str, SourceLoc] = field(default_factory=lambda: MappingProxyType({}))  # each code's line

    def get(self, code: str) -> tuple[Ability, ...] | None:
        """Return the override abilities of ``code`` or ``None``."""
        return self.by_code.get(code)

    def __contains__(self, code: object) -> bool:
        return code in self.by_code

    def merged(self, other: "Overrides") -> "Overrides":
        """Return these overrides updated with ``other`` (``other`` wins)."""
        d = dict(self.by_code)
        d.update(other.by_code)
        w = dict(self.where)
        w.update(other.where)
        return Overrides(MappingProxyType(d), self.sources + other.sources, MappingProxyType(w))

    def check_codes(self, pool: "Pool") -> None:
        """Refuse an override of a code the pool does not have: it would change nothing, silently (a mistyped
        code left the card's own reading in force while the user believed the override applied)."""
        for code, loc in self.where.items():
            if pool.get(code) is None:
                raise InputError(f"unknown card code {code}: the pool has no such card, so this override would "
                                 "change nothing", loc)


def _loc(source: str, node: yaml.Node) -> SourceLoc:
    return SourceLoc(source, node.start_mark.line + 1)


def _convert(node: yaml.Node, tp: Any, source: str, what: str) -> Any:
    """Convert a YAML node to a value of type ``tp`` (dataclass, enum, tuple, scalar, optional)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, UnionType):
        args = [a for a in typing.get_args(tp) if a is not NoneType]
        if isinstance(node, yaml.ScalarNode) and node.tag.endswith(":null"):
            return None
        if len(args) == 1:
            return _convert(node, args[0], source, what)
        errors: list[InputError] = []
        for a in args:
            try:
                return _convert(node, a, source, what)
            except InputError as exc:
                errors.append(exc)
        raise errors[0]
    if origin is tuple:
        if not isinstance(node, yaml.SequenceNode):
            raise InputError(f"{what}: expected a list", _loc(source, node))
        item_tp = typing.get_args(tp)[0]
        return tuple(_convert(n, item_tp, source, f"{what}[{i}]") for i, n in enumerate(node.value))
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass(node, tp, source, what)
    if isinstance(tp, type) and issubclass(tp, Enum):
        if not isinstance(node, yaml.ScalarNode):
            raise InputError(f"{what}: expected one of {', '.join(m.value for m in tp)}", _loc(source, node))
        value = str(node.value).strip().lower()
        for m in tp:
            if m.value == value or m.name.lower() == value:
                return m
        raise InputError(f"{what}: bad value '{node.value}' (expected one of {', '.join(m.value for m in tp)})",
                         _loc(source, node))
    if not isinstance(node, yaml.ScalarNode):
        raise InputError(f"{what}: expected a {getattr(tp, '__name__', tp)}", _loc(source, node))
    value = yaml.safe_load(yaml.serialize(node)) if node.tag.startswith("tag:yaml.org,2002:") else node.value
    if tp is bool:
        if not isinstance(value, bool):
            raise InputError(f"{what}: expected true or false, got '{node.value}'", _loc(source, node))
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{what}: expected an integer, got '{node.value}'", _loc(source, node))
        return value
    if tp is str:
        return str(value)
    raise InputError(f"{what}: unsupported field type", _loc(source, node))


def _dataclass(node: yaml.Node, cls: type, source: str, what: str) -> Any:
    if not isinstance(node, yaml.MappingNode):
        raise InputError(f"{what}: expected a mapping", _loc(source, node))
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if not f.name.startswith("_")}
    kwargs: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key = str(key_node.value)
        if key not in fields:
            raise InputError(f"{what}: unknown field '{key}' for {cls.__name__} (fields: {', '.join(fields)})",
                             _loc(source, key_node))
        if key in kwargs:
            raise InputError(f"{what}: field '{key}' given twice", _loc(source, key_node))
        kwargs[key] = _convert(value_node, hints[key], source, f"{what}.{key}")
    missing = [n for n, f in fields.items()
               if n not in kwargs and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    if missing:
        raise InputError(f"{what}: missing field(s) {', '.join(missing)} for {cls.__name__}", _loc(source, node))
    for key, value in kwargs.items():
        least = _LEAST.get((cls.__name__, key))
        if least is not None and isinstance(value, int) and value < least and not (
                cls.__name__ == "Effect" and key == "amount" and str(getattr(kwargs.get("kind"), "value", "")).endswith(
                    "_mod")):  # a modifier's sign says gains or loses ("-1 STR")
            raise InputError(f"{what}.{key}: must be {least} or more, got {value}",
                             _loc(source, next(v for k, v in node.value if str(k.value) == key)))
    return cls(**kwargs)


# the least value of a number field ("Limit 0 times per phase", "stand -1 characters" mean nothing); a modifier's
# amount may be negative (it loses)
_LEAST = {("Limit", "count"): 1, ("Quantity", "per"): 1, ("Effect", "amount"): 0, ("Cost", "amount"): 0,
          ("Condition", "count"): 0}


def parse_overrides(text: str, source: str = "<overrides>") -> Overrides:
    """Parse override YAML text.

    Raises
    ------
    InputError
        YAML syntax errors, non-code keys, unknown fields or bad enum values,
        each with ``source:line``.
    """
    loader = yaml_guard.safe_loader(text, source)
    try:
        root = yaml_guard.compose(loader, source)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        raise InputError(f"invalid YAML: {getattr(exc, 'problem', None) or exc}", SourceLoc(source, line)) from None
    finally:
        loader.dispose()
    if root is None:
        return Overrides(MappingProxyType({}), (source,))
    if not isinstance(root, yaml.MappingNode):
        raise InputError("an override file maps card codes to lists of abilities", _loc(source, root))
    out: dict[str, tuple[Ability, ...]] = {}
    where: dict[str, SourceLoc] = {}
    for key_node, value_node in root.value:
        code = str(key_node.value)
        if code in where:  # the later entry would silently replace the earlier one
            raise InputError(f"{code}: given twice in this file (first at line {where[code].line})",
                             _loc(source, key_node))
        where[code] = _loc(source, key_node)
        if not (len(code) == 5 and code.isdigit()):
            raise InputError(f"'{code}' is not a card code (5 digits; quote it in YAML)", _loc(source, key_node))
        if not isinstance(value_node, yaml.SequenceNode):
            raise InputError(f"{code}: expected a list of abilities", _loc(source, value_node))
        abilities = []
        for i, n in enumerate(value_node.value):
            a = _dataclass(n, Ability, source, f"{code}[{i}]")
            if not a.text:
                a = dataclasses.replace(a, text=f"override ({source})")
            abilities.append(a)
        out[code] = tuple(abilities)
    return Overrides(MappingProxyType(out), (source,), MappingProxyType(where))


def load_overrides(paths: Iterable[str | Path], pool: "Pool | None" = None) -> Overrides:
    """Load override files in order (a later file wins for the same code); with ``pool``, every code must be one
    of its cards (:meth:`Overrides.check_codes`)."""
    result = Overrides(MappingProxyType({}), ())
    for p in paths:
        path = Path(p)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read override file: {exc}", SourceLoc(str(path))) from None
        result = result.merged(parse_overrides(text, str(path)))
    if pool is not None:
        result.check_codes(pool)
    return result



def abilities_for(card: "Card", overrides: Overrides | None = None) -> tuple[Ability, ...]:
    """Return a card's abilities: the override if there is one, else the compiler's."""
    if overrides is not None:
        found = overrides.get(card.code)
        if found is not None:
            return found
    return compile_card(card.raw)


def compile_pool(pool: "Pool", overrides: Overrides | None = None,
                 codes: Iterable[str] | None = None) -> Mapping[str, tuple[Ability, ...]]:
    """Compile every card of ``pool`` (or only ``codes``), overrides first.

    Returns a read-only mapping from card code to abilities, in pool order.
    """
    wanted = set(codes) if codes is not None else None
    out = {c.code: abilities_for(c, overrides) for c in pool.cards if wanted is None or c.code in wanted}
    return MappingProxyType(out)
