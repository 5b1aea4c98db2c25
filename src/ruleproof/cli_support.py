"""What every ``ruleproof`` command shares: exit codes, streams, error objects, atomic files.

The one CLI convention (every command follows it):

* a command is a click command that **returns its exit status** (an int)
  and writes only to the streams of :func:`streams` (never ``print``,
  ``click.echo`` or ``sys.exit``);
* bad input is raised as :class:`~ruleproof.errors.InputError`; the entry
  point :func:`ruleproof.cli.run` turns it (and any other exception) into
  one error line, or one JSON error object under ``--json``, and exit 2;
* JSON output carries ``"version": JSON_VERSION`` (one constant for every
  command).

This module is light on purpose (no solver, no Dask): every command module
imports it.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, TextIO

import click

from .errors import InputError, clip
from .files import file_mode, write_atomic
from .report import JSON_VERSION  # the one version constant of every JSON object ruleproof prints

__all__ = [
    "EXIT_OK",
    "EXIT_VIOLATED",
    "EXIT_ERROR",
    "EXIT_UNKNOWN",
    "EXIT_SIGINT",
    "EXIT_SIGTERM",
    "JSON_VERSION",
    "Streams",
    "PrintableStream",
    "printable",
    "streams",
    "error_object",
    "json_error",
    "output_mode",
    "parse_params",
    "write_atomic",
    "file_mode",
    "check_seconds",
    "check_count",
    "MAX_SECONDS",
    "Activity",
    "HEARTBEAT",
    "DEFAULT_RLIMIT",
    "Budget",
    "budget_options",
    "check_budget",
]

MAX_SECONDS = 7 * 24 * 3600.0
"""Largest number of seconds any option takes (a week)."""

EXIT_OK = 0
"""Every property proved or held (a complete report)."""
EXIT_VIOLATED = 1
"""Some property violated (a replayed counterexample is shown)."""
EXIT_ERROR = 2
"""Bad input or internal error (one ``error:`` line, no traceback)."""
EXIT_UNKNOWN = 3
"""Some result unknown (budget, timeout, out of memory, solver reason), none violated."""
EXIT_SIGINT = 130
"""Interrupted by SIGINT (Ctrl-C): the finished results are reported, the rest marked not run."""
EXIT_SIGTERM = 143
"""Terminated by SIGTERM: as for SIGINT."""


@dataclass
class Streams:
    """The output streams of one CLI run (``run(argv, out, err)``), and its global flags."""

    out: TextIO
    err: TextIO
    debug: bool = False


_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                          "\ud800-\udfff]")
"""Control characters (all but tab and newline), C1 controls and bidirectional overrides: in a card's name, a
model's property or a file name they could move the cursor, recolour or rewrite the terminal, or reorder what
the reader sees; and lone surrogates (a file name that is not UTF-8), which no output encoding can write."""


def printable(text: str) -> str:
    """``text`` with every character of :data:`_UNPRINTABLE` written as ``\\uXXXX`` (in JSON, the same string)."""
    if not _UNPRINTABLE.search(text):
        return text
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class PrintableStream(io.TextIOBase):
    """A text stream that writes :func:`printable` text to another: the standard output of every command.

    Nothing ruleproof prints on stdout is a control sequence of its own; what could carry one is
    input (card text from a pool, names from a model), which must reach the terminal as text.
    JSON output stays the same JSON (``json.dumps`` already escapes C0 controls; the rest become
    ``\\uXXXX`` escapes of the same characters).
    """

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self.inner = inner

    def write(self, text: str) -> int:
        self.inner.write(printable(text))
        return len(text)

    def flush(self) -> None:
        self.inner.flush()

    def isatty(self) -> bool:
        return _isatty(self.inner)

    def fileno(self) -> int:
        return self.inner.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self.inner, "encoding", None) or "utf-8")


def streams() -> Streams:
    """The streams of the running command (the real ones outside :func:`ruleproof.cli.run`)."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    if isinstance(obj, Streams):
        return obj
    out, err = getattr(obj, "out", None), getattr(obj, "err", None)  # a command invoked on its own with streams
    if out is not None and err is not None:
        s = Streams(out, err)
        if ctx is not None:
            ctx.find_root().obj = s
        return s
    return Streams(sys.stdout, sys.stderr)


def error_object(message: str) -> dict[str, Any]:
    """The one JSON object of a failed run: ``{"version": 1, "error": <location: message>}``."""
    return {"version": JSON_VERSION, "error": message}


def parse_params(items: tuple[str, ...]) -> dict[str, Any]:
    """``--param NAME=VALUE`` options: each value read as JSON, else kept as the string given."""
    out: dict[str, Any] = {}
    for it in items:
        if "=" not in it:
            raise InputError(f"--param takes NAME=VALUE, got '{clip(it)}'")
        k, v = it.split("=", 1)
        if not k.isidentifier():
            raise InputError(f"--param: '{clip(k)}' is not a parameter name")
        try:
            out[k] = json.loads(v)
        except (json.JSONDecodeError, RecursionError):
            out[k] = v
    return out


def output_mode(as_json: bool, as_jsonl: bool) -> str:
    """``text``, ``json`` (one object at the end) or ``jsonl`` (an object per result); both flags are bad input
    (``--json`` promises exactly one object)."""
    if as_json and as_jsonl:
        raise InputError("--json and --jsonl exclude each other (--json: one object at the end; --jsonl: one "
                         "object per result, then a summary)")
    return "jsonl" if as_jsonl else "json" if as_json else "text"


def json_error(line: str) -> str:
    """An error line for the ``"error"`` field of a JSON object: the location and the message, without the word
    ``error:`` the key already says (``model.py:3: error: x`` -> ``model.py:3: x``)."""
    head, sep, rest = line.partition("error: ")
    if sep and (head == "" or head.endswith(": ")):
        return head + rest
    return line


def check_seconds(option: str, value: float | None, *, maximum: float = MAX_SECONDS) -> None:
    """A number of seconds given on the command line: finite, positive, at most ``maximum``."""
    if value is None:
        return
    if not math.isfinite(value):
        raise InputError(f"{option} must be a finite number of seconds, got {value}")
    if value <= 0:
        raise InputError(f"{option} must be positive, got {value}")
    if value > maximum:
        raise InputError(f"{option} must be at most {maximum:g} seconds, got {value:g}")


def check_count(option: str, value: int | None, lo: int, hi: int) -> None:
    """An integer option within ``lo .. hi``."""
    if value is None:
        return
    if value < lo:
        raise InputError(f"{option} must be {lo} or more, got {clip(value)}")
    if value > hi:
        raise InputError(f"{option} must be at most {hi}, got {clip(value)}")


class Activity:
    """What a long command is doing, shown on stderr while it runs.

    On a terminal: one status line (rich), e.g. ``system 3/20 claim[default],
    property 5/24, 41 s``.  On a file or pipe (CI logs): a heartbeat line at
    most every :data:`HEARTBEAT` seconds, so a silent job is visibly alive.
    On an in-memory stream (tests): nothing.
    """

    def __init__(self, err: TextIO, enabled: bool = True) -> None:
        self.err = err
        self.text = "loading"
        self.start = time.monotonic()
        self.tty = enabled and _isatty(err)
        self.heartbeat = enabled and not self.tty and _is_file(err)
        self.bar: Any = None
        self.task: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def __enter__(self) -> "Activity":
        if self.tty:
            from rich.console import Console
            from rich.progress import Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("{task.description}"), TimeElapsedColumn(), console=Console(file=self.err),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.text, total=None)
        elif self.heartbeat:
            self._thread = threading.Thread(target=self._beat, name="ruleproof-heartbeat", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self.bar is not None:
            self.bar.stop()
        if self._thread is not None:
            self._thread.join(1.0)

    def status(self, text: str) -> None:
        """What is being done now."""
        self.text = text
        if self.bar is not None:
            self.bar.update(self.task, description=text)

    def _beat(self) -> None:
        while not self._stop.wait(HEARTBEAT):
            with self.lock:
                try:
                    self.err.write(f"ruleproof: {time.monotonic() - self.start:.0f} s: {self.text}\n")
                    self.err.flush()
                except (OSError, ValueError):
                    return


def report_width(out: TextIO) -> int:
    """Width of a text report: the terminal's, else ``$COLUMNS``, else 100 (never under 40)."""
    try:
        tty = out.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty:
        return max(40, shutil.get_terminal_size((100, 24)).columns)
    try:
        return max(40, int(os.environ.get("COLUMNS", "")))
    except ValueError:
        return 100


HEARTBEAT = 10.0
"""Seconds between two heartbeat lines on a stderr that is not a terminal."""


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _is_file(stream: TextIO) -> bool:
    """A stream backed by a real file descriptor (not an in-memory buffer)."""
    try:
        stream.fileno()
        return True
    except (AttributeError, ValueError, OSError):
        return False


DEFAULT_RLIMIT = 20_000_000
"""The default solver resource limit per solver call (Z3 ``rlimit``; see README, "Budgets")."""

MIN_MEMORY = 256 * 2**20
"""The smallest ``--memory-limit`` (Python, Z3 and the model need some room)."""
MAX_MEMORY = 2**50
"""The largest ``--memory-limit`` (1024T; the operating system's limit must fit a C long)."""


def budget_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The budget options every long command takes: ``--time-limit``, ``--memory-limit``, ``--rlimit``."""
    f = click.option("--rlimit", type=int, default=DEFAULT_RLIMIT, show_default=True,
                     help="Solver resource limit per solver call (Z3 rlimit: the same on a loaded and an idle "
                          "machine); past it the result is UNKNOWN. 0: none.")(f)
    f = click.option("--memory-limit", "memory_limit", default="auto", show_default=True, metavar="SIZE",
                     help="Memory this process may use (e.g. 2G, 512M; 'auto': half the machine's memory; "
                          "'none'); exhausting it makes the query UNKNOWN 'out of memory'.")(f)
    f = click.option("--time-limit", "time_limit", type=float, default=None, metavar="SECONDS",
                     help="Stop the whole run after this many seconds: what finished is reported, the rest "
                          "marked not run (exit 3).")(f)
    return f


@dataclass(frozen=True)
class Budget:
    """The budgets of one run, checked."""

    time_limit: float | None
    memory: int | None
    rlimit: int | None

    def as_json(self, timeout: float | None) -> dict[str, Any]:
        return {"timeout": timeout, "rlimit": self.rlimit, "time_limit": self.time_limit,
                "memory_limit": self.memory}


def check_budget(time_limit: float | None, memory_limit: str, rlimit: int | None) -> Budget:
    """The budget options as given on the command line, checked."""
    from . import budget

    check_seconds("--time-limit", time_limit)
    check_count("--rlimit", rlimit, 0, 2**32 - 1)
    text = memory_limit.strip().lower()
    memory: int | None
    if text == "none":
        memory = None
    elif text == "auto":
        memory = budget.default_memory_limit()
    else:
        try:
            memory = budget.parse_size(text)
        except ValueError:
            raise InputError(f"--memory-limit takes a size such as 2G or 512M, got '{clip(memory_limit)}'") from None
        if memory < MIN_MEMORY:
            raise InputError(f"--memory-limit must be at least {MIN_MEMORY // 2**20}M, got '{clip(memory_limit)}'")
        if memory > MAX_MEMORY:
            raise InputError(f"--memory-limit must be at most {MAX_MEMORY // 2**40}T (or 'none'), "
                             f"got '{clip(memory_limit)}'")
    return Budget(time_limit, memory, rlimit or None)
