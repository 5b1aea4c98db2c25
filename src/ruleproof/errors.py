"""Errors that reach the user as one line: ``file:line: error: message``.

Every bad input (a model mistake, a malformed card file, a bad CLI argument)
is raised as :class:`InputError` (exit status 2, no traceback).  A broken
invariant of ruleproof itself (a solver trace that does not replay) is an
:class:`InternalError` (exit status 2 as well, reported as internal).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["InputError", "InternalError", "SourceLoc"]


@dataclass(frozen=True)
class SourceLoc:
    """A place in a user's file; ``line`` is 1-based, 0 when unknown."""

    file: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


class InputError(Exception):
    """Bad input: reported as ``file:line: error: message`` with exit status 2."""

    def __init__(self, message: str, loc: SourceLoc | None = None, info: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.info = info

    def render(self) -> str:
        head = f"{self.loc}: error: {self.message}" if self.loc else f"error: {self.message}"
        return "\n".join([head, *(f"  info: {i}" for i in self.info)])


class InternalError(Exception):
    """A ruleproof bug (e.g. a solver trace that does not replay concretely)."""

    def render(self) -> str:
        return f"internal error: {self}"
