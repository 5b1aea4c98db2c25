"""Errors that reach the user as one line: ``file:line: error: message``.

Every bad input (a model mistake, a malformed card file, a bad CLI argument)
is raised as :class:`InputError` (exit status 2, no traceback).  A broken
invariant of ruleproof itself (a solver trace that does not replay) is an
:class:`InternalError` (exit status 2 as well, reported as internal).  Both
derive from :class:`RuleproofError`.

A message quotes at most :data:`QUOTE_LIMIT` characters of the input it
complains about (:func:`clip`), and is rendered on one line.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RuleproofError", "InputError", "InternalError", "SourceLoc", "clip", "QUOTE_LIMIT"]

QUOTE_LIMIT = 300
"""Most characters of a user's input quoted in an error message."""

_LINE_LIMIT = 2 * QUOTE_LIMIT + 400
"""Longest rendered error line (a message may quote two inputs)."""


def clip(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` on one line, at most ``limit`` characters (then ``...`` and how long it was)."""
    s = " ".join(str(text).split()) if ("\n" in str(text) or "\r" in str(text)) else str(text)
    if len(s) <= limit:
        return s
    return f"{s[:limit]}... ({len(s)} characters)"


def _one_line(text: str) -> str:
    return clip(text, _LINE_LIMIT)


@dataclass(frozen=True)
class SourceLoc:
    """A place in a user's file; ``line`` is 1-based, 0 when unknown."""

    file: str
    line: int = 0

    def __str__(self) -> str:
        f = clip(self.file)
        return f"{f}:{self.line}" if self.line else f


class RuleproofError(Exception):
    """Any error ruleproof reports as one line and exit status 2."""

    def render(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


class InputError(RuleproofError):
    """Bad input: reported as ``file:line: error: message`` with exit status 2."""

    def __init__(self, message: str, loc: SourceLoc | None = None, info: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.info = info

    def render(self) -> str:
        head = f"{self.loc}: error: {self.message}" if self.loc else f"error: {self.message}"
        extra = "".join(f" (info: {i})" for i in self.info)
        return _one_line(head + extra)


class InternalError(RuleproofError):
    """A ruleproof bug (e.g. a solver trace that does not replay concretely)."""

    def render(self) -> str:
        return _one_line(f"internal error: {self}")
