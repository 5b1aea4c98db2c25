"""Ruling files as YAML with a line number on every value.

The file is composed with PyYAML's *safe* loader (no Python objects, no
tags beyond the YAML core schema) into a tree of :class:`Node` values: plain
Python data (``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``,
``None``) that remembers the line each value came from, so every later error
can be reported as ``file:line: error: ...``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

import yaml

from .. import yaml_guard
from ..errors import InputError, SourceLoc

__all__ = ["Node", "load_yaml"]


@dataclass(frozen=True)
class Node:
    """A YAML value and where it was written (1-based line)."""

    value: Any  # dict[str, Node] | list[Node] | str | int | float | bool | None
    file: str
    line: int
    text: str | None = None  # a scalar as written (``no`` reads as false in YAML; an enum value may be named so)
    key_lines: tuple[tuple[str, int], ...] = ()  # a mapping: the line of each key

    def key_line(self, key: str) -> int:
        """The line where ``key`` of this mapping is written."""
        return dict(self.key_lines).get(key, self.line)

    @property
    def loc(self) -> SourceLoc:
        return SourceLoc(self.file, self.line)

    def error(self, message: str) -> InputError:
        """An :class:`InputError` at this value."""
        return InputError(message, self.loc)

    def plain(self) -> Any:
        """The value without line numbers (for schema validation)."""
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        return self.value

    def get(self, key: str) -> "Node | None":
        """The value of ``key`` in a mapping (None when absent or when this is not a mapping)."""
        return self.value.get(key) if isinstance(self.value, dict) else None

    def items(self) -> Iterator[tuple[str, "Node"]]:
        if isinstance(self.value, dict):
            yield from self.value.items()

    def at(self, path: Any) -> "Node":
        """The node at a JSON path (keys and indices); the deepest existing one if the path leaves the tree."""
        node = self
        for part in path:
            if isinstance(node.value, dict) and isinstance(part, str) and part in node.value:
                node = node.value[part]
            elif isinstance(node.value, list) and isinstance(part, int) and 0 <= part < len(node.value):
                node = node.value[part]
            else:
                break
        return node


def load_yaml(text: str, file: str) -> Node:
    """Parse ``text`` safely; a syntax error is an :class:`InputError` at its line."""
    loader = yaml_guard.safe_loader(text, file)
    try:
        root = yaml_guard.compose(loader, file)
        if root is None:
            raise InputError("the file is empty (a ruling file is a YAML mapping with 'model' and 'rulings')",
                             SourceLoc(file, 1))
        return _convert(loader, root, file)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        what = e.problem or e.context or "not valid YAML"
        if e.context_mark is not None and (mark is None or mark.index >= len(text.rstrip())):
            # the file ended inside something: point at where that began
            what = f"{e.context.removeprefix('while parsing ')} that is never closed" if e.context else what
            mark = e.context_mark
        line = mark.line + 1 if mark is not None else 0
        if what.startswith("mapping values are not allowed"):
            what += " (a value that contains ': ' needs quotes around the whole value)"
        raise InputError(f"YAML syntax error: {what}", SourceLoc(file, line)) from None
    except yaml.YAMLError as e:
        raise InputError(f"YAML syntax error: {e}", SourceLoc(file, 1)) from None
    finally:
        loader.dispose()


def _convert(loader: yaml.SafeLoader, node: yaml.Node, file: str) -> Node:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        own = {id(k) for k, _v in node.value if k.tag != "tag:yaml.org,2002:merge"}
        loader.flatten_mapping(node)  # merge keys (<<): merged pairs come first, the mapping's own keys win
        out: dict[str, Node] = {}
        lines: dict[str, int] = {}
        mine: set[str] = set()
        for k, v in node.value:
            kline = k.start_mark.line + 1
            if not isinstance(k, yaml.ScalarNode):
                raise InputError("a key must be a plain text, not a list or mapping", SourceLoc(file, kline))
            skey = str(k.value)
            if skey in mine:
                raise InputError(f"key '{skey}' is given twice in this mapping", SourceLoc(file, kline))
            if id(k) in own:
                mine.add(skey)
            out[skey] = _convert(loader, v, file)
            lines[skey] = kline
        return Node(out, file, line, key_lines=tuple(lines.items()))
    if isinstance(node, yaml.SequenceNode):
        return Node([_convert(loader, x, file) for x in node.value], file, line)
    value = loader.construct_object(node, deep=True)
    if not isinstance(value, (str, int, float, bool)) and value is not None:
        # timestamps, binary ...: keep what the user wrote
        value = str(node.value)
    return Node(value, file, line, str(node.value))
