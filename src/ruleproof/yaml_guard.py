"""Limits on what a user's YAML file may expand to, checked before it is converted.

PyYAML's composer shares a node for every use of an alias, so a file of a few
hundred bytes can stand for billions of values ("billion laughs"), and a deeply
nested file exhausts Python's recursion.  :func:`compose` parses safely, counts
the values the file expands to without expanding them, and refuses a file over
:data:`MAX_VALUES` values or :data:`MAX_DEPTH` levels with ``file:line``.
"""

from __future__ import annotations

import yaml

from .errors import InputError, SourceLoc

__all__ = ["MAX_VALUES", "MAX_DEPTH", "compose", "check_size", "safe_loader"]

MAX_VALUES = 200_000
"""Most values (scalars, lists, mappings, counting every use of an alias) a file may expand to."""

MAX_DEPTH = 100
"""Most levels of nesting."""


def check_size(root: yaml.Node, file: str) -> None:
    """Refuse ``root`` if it expands to more than :data:`MAX_VALUES` values or nests deeper than :data:`MAX_DEPTH`.

    The expanded size is computed once per distinct node (an alias is the same node object), so the
    check itself takes time linear in the file, not in its expansion.
    """
    size: dict[int, int] = {}
    # iterative post-order: (node, depth, children done)
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if id(node) in size and not done:
            continue
        if depth > MAX_DEPTH:
            raise InputError(f"the file nests more than {MAX_DEPTH} levels deep",
                             SourceLoc(file, node.start_mark.line + 1))
        kids = _children(node)
        if not done:
            stack.append((node, depth, True))
            stack.extend((k, depth + 1, False) for k in kids if id(k) not in size)
            continue
        total = 1 + sum(size.get(id(k), 0) for k in kids)
        if total > MAX_VALUES:
            raise InputError(f"the file expands to more than {MAX_VALUES:,} values (through YAML aliases '*name'); "
                             "write the values out or split the file", SourceLoc(file, node.start_mark.line + 1))
        size[id(node)] = total


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [x for pair in node.value for x in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def compose(loader: yaml.SafeLoader, file: str) -> yaml.Node | None:
    """The single document of ``loader``, checked by :func:`check_size`; ``None`` for an empty file.

    Syntax errors propagate as :class:`yaml.YAMLError` for the caller to place; a file nested so
    deeply that the parser itself runs out of stack is an :class:`InputError`.
    """
    try:
        root = loader.get_single_node()
    except RecursionError:
        raise InputError(f"the file nests more than {MAX_DEPTH} levels deep", SourceLoc(file, 1)) from None
    if root is not None:
        check_size(root, file)
    return root


def safe_loader(text: str, file: str) -> yaml.SafeLoader:
    """A safe loader over ``text``; a character YAML refuses (a NUL, another control character) is an
    :class:`InputError` at its line (PyYAML's reader raises before any parsing starts)."""
    try:
        return yaml.SafeLoader(text)
    except yaml.reader.ReaderError as e:
        line = text.count("\n", 0, max(0, e.position)) + 1
        raise InputError(f"the file has a control character #x{e.character:04x} (YAML allows printable text only)",
                         SourceLoc(file, line)) from None
