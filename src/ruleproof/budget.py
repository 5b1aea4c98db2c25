"""Budgets that bind and interrupts that stop: the run's watchdog.

A run (one ``ruleproof`` command, :func:`guard`) has

* a **signal handler** for SIGINT and SIGTERM.  The signal wakes a watchdog
  thread (``signal.set_wakeup_fd``), which interrupts the running solver
  query at once (Z3 is told to stop from that thread); the main thread then
  raises :class:`Interrupted`, which the command catches to print the
  report of what finished (exit 130 / 143).  An interrupt is never reported
  as a timeout.
* a **whole-run time limit** (``--time-limit``): past it the running query
  is stopped the same way and :class:`RunTimeLimit` is raised; the command
  reports what finished and marks the rest as not run (exit 3).
* a **memory limit** (``--memory-limit``): the process's address space is
  capped (``RLIMIT_AS``) and Z3 is told the same figure, so exhaustion is a
  ``MemoryError`` or a solver ``unknown`` that the runner reports as
  UNKNOWN "out of memory", never a crash.

Every solver query (one property check, a coverage search, one loop
candidate) runs inside :func:`query`, which registers its wall-clock
deadline.  The query's own solver timeout normally ends it; if it is still
running :data:`GRACE` seconds past its deadline (a long encoding step, a
solver that does not look at its timer), the watchdog interrupts the solver,
and the next :func:`checkpoint` (before every solver call and every step of
an unrolling) raises :class:`QueryTimeout`, which the runner reports as
UNKNOWN "timeout".  Loading and building a model runs inside :func:`stage`:
code that never returns (a ``build()`` with an endless loop) is stopped by
raising :class:`StageTimeout` in it, which the loader reports as bad input
naming the model's line.

The solver layer (:mod:`ruleproof.encoder`, the only module that imports
Z3) registers how to interrupt its current context with
:func:`set_interruptor` and calls :func:`checkpoint` around each solver
call.  Nothing here imports Z3.

Exceptions raised by the watchdog derive from ``BaseException`` (not
``Exception``), so that a model's or a library's ``except Exception`` does
not swallow them; code that must not be cut short (closing a cluster,
writing a file) runs under :func:`shielded`.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import select
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

__all__ = [
    "Interrupted",
    "QueryTimeout",
    "RunTimeLimit",
    "StageTimeout",
    "stage",
    "stage_limit",
    "BudgetEvent",
    "GRACE",
    "guard",
    "limits",
    "query",
    "checkpoint",
    "shielded",
    "acknowledge",
    "pending",
    "passes_through",
    "reraise_pending",
    "set_interruptor",
    "interrupt_signal",
    "memory_limit",
    "rlimit",
    "parse_size",
    "default_memory_limit",
    "run_time_left",
    "half_built",
    "quiet_z3_finalizers",
]

GRACE = 1.0
"""Seconds a query may run past its deadline before the watchdog stops it."""

_REPEAT = 1.0
"""Seconds between two attempts of the watchdog to raise in a thread that has not reacted yet."""


class BudgetEvent(BaseException):
    """Base of the exceptions the budget raises (never caught by ``except Exception``)."""


class Interrupted(BudgetEvent):
    """SIGINT or SIGTERM was received (:func:`interrupt_signal` tells which)."""

    @property
    def signum(self) -> int:
        return _state.signum or signal.SIGINT

    @property
    def exit_code(self) -> int:
        """130 for SIGINT, 143 for SIGTERM (128 + the signal number)."""
        return 128 + int(self.signum)

    def __str__(self) -> str:
        return f"interrupted ({signal.Signals(self.signum).name})"


class QueryTimeout(BudgetEvent):
    """The running query went past its wall-clock deadline (plus :data:`GRACE`)."""

    def __str__(self) -> str:
        return "timeout"


class StageTimeout(BudgetEvent):
    """A :func:`stage` (loading or building a model) went past its time limit."""

    def __str__(self) -> str:
        return "time limit exceeded"


class RunTimeLimit(BudgetEvent):
    """The whole run went past ``--time-limit``."""

    def __str__(self) -> str:
        limit = _state.run_limit
        return f"the run's time limit ({limit:g} s) was reached" if limit else "the run's time limit was reached"


@dataclass
class _Query:
    thread: int
    deadline: float | None
    what: str
    fatal: bool = False
    rlimit: int | None = None
    expired: bool = False
    last_raise: float = 0.0


@dataclass
class _State:
    """The one budget state of this process (signals are process-wide)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    signum: int | None = None
    signal_at: float = 0.0
    acknowledged: bool = False
    main_thread: int = 0
    last_raise: float = 0.0
    run_deadline: float | None = None
    run_limit: float | None = None
    run_expired: bool = False
    run_acknowledged: bool = False
    queries: dict[int, list[_Query]] = field(default_factory=dict)
    interruptor: Callable[[], None] | None = None
    shield: int = 0
    memory: int | None = None
    watchdog: threading.Thread | None = None
    wake_r: socket.socket | None = None
    wake_w: socket.socket | None = None
    guards: int = 0
    stage_limit: float | None = None


_state = _State()


# --------------------------------------------------------------------------- solver hooks


def set_interruptor(fn: Callable[[], None] | None) -> None:
    """How to stop the solver query running now (called from the watchdog thread)."""
    _state.interruptor = fn


def _interrupt_solver() -> None:
    fn = _state.interruptor
    if fn is not None:
        try:
            fn()
        except Exception:  # noqa: BLE001 - a stale context: nothing to stop
            pass


def rlimit() -> int | None:
    """The solver resource limit per call of the query running in this thread (None: none)."""
    q = _current()
    return q.rlimit if q is not None else None


def memory_limit() -> int | None:
    """The memory limit of this run in bytes (None: no limit)."""
    return _state.memory


def interrupt_signal() -> int | None:
    """The signal that interrupted the run (None: none)."""
    return _state.signum


def run_time_left() -> float | None:
    """Seconds left before ``--time-limit`` (None: no limit)."""
    if _state.run_deadline is None:
        return None
    return max(0.0, _state.run_deadline - time.monotonic())


# --------------------------------------------------------------------------- checks


def pending() -> BudgetEvent | None:
    """The budget event that should stop the current work now, if any."""
    st = _state
    if st.signum is not None and not st.acknowledged:
        return Interrupted()
    now = time.monotonic()
    if st.run_deadline is not None and now >= st.run_deadline and not st.run_acknowledged:
        st.run_expired = True
        return RunTimeLimit()
    q = _current()
    if q is not None and (q.expired or (q.deadline is not None and now >= q.deadline + GRACE)):
        q.expired = True
        return StageTimeout() if q.fatal else QueryTimeout()
    return None


def checkpoint() -> None:
    """Raise the pending budget event (interrupt, run time limit, query past its grace), if any."""
    if _state.shield:
        return
    ev = pending()
    if ev is not None:
        raise ev


def reraise_pending(exc: BaseException) -> None:
    """If a budget event is pending, raise it from ``exc`` (an exception it may have caused).

    An interrupt that lands inside a foreign call can surface as another
    exception (``ctypes.ArgumentError: ... KeyboardInterrupt``); this turns
    it back into the event.  Returns when nothing is pending.
    """
    if isinstance(exc, BudgetEvent):
        raise exc
    ev = pending()
    if ev is not None:
        raise ev from exc


def passes_through(exc: BaseException) -> bool:
    """Must ``exc`` propagate through code that turns errors into messages (the model loader)?"""
    if isinstance(exc, BudgetEvent):
        return True
    return isinstance(exc, KeyboardInterrupt) and _state.signum is not None


def acknowledge(event: BaseException | None = None) -> None:
    """The command has caught ``event`` and is reporting: stop raising it."""
    if isinstance(event, RunTimeLimit) or event is None:
        _state.run_acknowledged = True
    if isinstance(event, Interrupted) or event is None:
        _state.acknowledged = True


@contextlib.contextmanager
def shielded() -> Iterator[None]:
    """Defer budget exceptions while the body runs (cleanup that must complete)."""
    _state.shield += 1
    try:
        yield
    finally:
        _state.shield -= 1


def _current() -> _Query | None:
    stack = _state.queries.get(threading.get_ident())
    return stack[-1] if stack else None


@contextlib.contextmanager
def query(timeout: float | None, what: str = "query", *, fatal: bool = False,
          rlimit: int | None = None) -> Iterator[_Query]:
    """One solver query with a wall-clock ``timeout`` (None: only the run's limits apply).

    ``rlimit``: the solver's resource limit for each call inside (Z3's
    ``rlimit``, a count of its elementary steps: the same on a loaded and an
    idle machine); None: the enclosing query's, or no limit.

    Inside, :func:`checkpoint` raises :class:`QueryTimeout` once the
    deadline plus :data:`GRACE` has passed, and the watchdog stops a query
    that does not reach a checkpoint.  The caller turns :class:`QueryTimeout`
    into an UNKNOWN result.
    """
    ident = threading.get_ident()
    deadline = None if timeout is None else time.monotonic() + timeout
    outer = _current()
    if outer is not None and outer.deadline is not None and (deadline is None or outer.deadline < deadline):
        deadline = outer.deadline  # a nested query never outlives the one around it
    if rlimit is None and outer is not None:
        rlimit = outer.rlimit
    q = _Query(ident, deadline, what, fatal, rlimit)
    with _state.lock:
        _state.queries.setdefault(ident, []).append(q)
    if deadline is not None:
        _ensure_watchdog()
    try:
        yield q
    finally:
        with _state.lock:
            stack = _state.queries.get(ident, [])
            if q in stack:
                stack.remove(q)
            if not stack:
                _state.queries.pop(ident, None)


def stage(what: str) -> contextlib.AbstractContextManager[_Query]:
    """Loading or building a model: past the run's stage limit (plus :data:`GRACE`) :class:`StageTimeout` is raised.

    The limit is the ``stage_limit`` of :func:`guard` (``--timeout``); none
    outside a guarded run.  Unlike a :func:`query`, a stage is stopped
    wherever it is (pure Python code with no checkpoint, such as a model's
    ``build()``), because what follows is an error report, not more work.
    """
    return query(_state.stage_limit, what, fatal=True)


def stage_limit() -> float | None:
    """Seconds a model may take to load or build in this run (None: no limit)."""
    return _state.stage_limit


# --------------------------------------------------------------------------- the watchdog


def _raise_in(thread: int, exc: type[BaseException]) -> None:
    """Raise ``exc`` asynchronously in ``thread`` (at its next Python instruction)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exc))


def _ensure_watchdog() -> None:
    with _state.lock:
        if _state.watchdog is not None and _state.watchdog.is_alive():
            return
        if _state.wake_r is None:
            r, w = socket.socketpair()
            r.setblocking(False)
            w.setblocking(False)
            _state.wake_r, _state.wake_w = r, w
        t = threading.Thread(target=_watch, name="ruleproof-watchdog", daemon=True)
        _state.watchdog = t
        t.start()


def _poke() -> None:
    """Wake the watchdog (it recomputes its next deadline)."""
    w = _state.wake_w
    if w is not None:
        try:
            w.send(b"\0")
        except OSError:
            pass


def _watch() -> None:
    st = _state
    r = st.wake_r
    assert r is not None
    while True:
        now = time.monotonic()
        wake = now + 0.5
        if st.run_deadline is not None:
            wake = min(wake, st.run_deadline)
        with st.lock:
            qs = [q for stack in st.queries.values() for q in stack]
        for q in qs:
            if q.deadline is not None:
                wake = min(wake, q.deadline + GRACE)
        try:
            ready, _, _ = select.select([r], [], [], max(0.0, wake - time.monotonic()))
        except (OSError, ValueError):
            return
        if ready:
            try:
                data = r.recv(64)
            except OSError:
                data = b""
            for b in data:
                if b in (signal.SIGINT, signal.SIGTERM) and st.signum is None:
                    st.signum = b
                    st.signal_at = time.monotonic()
        _enforce()


def _enforce() -> None:
    """Stop what must stop: interrupted runs, a run past its limit, queries past their deadline."""
    st = _state
    now = time.monotonic()
    if st.signum is not None and not st.acknowledged:
        _interrupt_solver()
        if st.main_thread and not st.shield and now - st.signal_at > 0.3 and now - st.last_raise > _REPEAT:
            st.last_raise = now
            _raise_in(st.main_thread, Interrupted)
        return
    if st.run_deadline is not None and now >= st.run_deadline and not st.run_acknowledged:
        st.run_expired = True
        _interrupt_solver()
        if st.main_thread and not st.shield and now - st.last_raise > _REPEAT:
            st.last_raise = now
            _raise_in(st.main_thread, RunTimeLimit)
        return
    with st.lock:
        qs = [stack[-1] for stack in st.queries.values() if stack]
    for q in qs:
        if q.deadline is not None and now >= q.deadline + GRACE:
            q.expired = True
            _interrupt_solver()
            if q.fatal and not st.shield and now - q.last_raise > _REPEAT:
                q.last_raise = now
                _raise_in(q.thread, StageTimeout)


# --------------------------------------------------------------------------- the run


def _signal_handler(signum: int, frame: Any) -> None:
    st = _state
    if st.signum is None:
        st.signum = signum
        st.signal_at = time.monotonic()
    _interrupt_solver()
    if not st.acknowledged and not st.shield:
        raise Interrupted()


def _unraisable(hook: Callable[[Any], object]) -> Callable[[Any], None]:
    """An ``unraisablehook`` that keeps quiet about budget events raised inside ``__del__``.

    The watchdog raises the event again in the main thread (it has not been
    acknowledged), so nothing is lost.
    """

    def quiet(u: Any) -> None:
        if isinstance(u.exc_value, BudgetEvent):
            _state.last_raise = 0.0  # raise it again soon
            return
        if half_built(u):
            return
        hook(u)

    return quiet


def half_built(u: Any) -> bool:
    """An ``AttributeError`` in the ``__del__`` of a Z3 object that an interrupt stopped in its constructor.

    z3py's finalizers assume a complete object; when an interrupt (or the
    watchdog) raises inside ``Solver.__init__`` the half-built object's
    ``__del__`` fails later, harmlessly.  Such reports are noise, not errors.
    """
    if not isinstance(u.exc_value, AttributeError):
        return False
    module = getattr(u.object, "__module__", "") or ""
    return module.startswith("z3") and getattr(u.object, "__name__", "") == "__del__"


def _address_space() -> int | None:
    """This process's address space in bytes (what ``RLIMIT_AS`` limits), None where it cannot be read."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def quiet_z3_finalizers() -> None:
    """From now on in this process, drop the reports of :func:`half_built` Z3 objects (the CLI is ending)."""
    hook = sys.unraisablehook

    def quiet(u: Any) -> None:
        if not half_built(u):
            hook(u)

    sys.unraisablehook = quiet


def parse_size(text: str) -> int:
    """``1G``, ``512M``, ``2048K``, ``1.5G`` or a number of bytes -> bytes (ValueError otherwise)."""
    s = text.strip().upper().removesuffix("B").removesuffix("I")
    mult = 1
    if s and s[-1] in "KMGT":
        mult = 1024 ** ("KMGT".index(s[-1]) + 1)
        s = s[:-1]
    value = float(s)
    if not (value == value) or value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return int(value * mult)


def default_memory_limit() -> int | None:
    """Half the machine's physical memory (None where it cannot be read)."""
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        size = os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    if pages <= 0 or size <= 0:
        return None
    return int(pages * size // 2)


@contextlib.contextmanager
def guard() -> Iterator[None]:
    """The signal handling of one run (in the main thread; a no-op elsewhere).

    Installs the SIGINT/SIGTERM handler and the watchdog, and restores the
    previous handlers on exit, so in-process callers (tests) get their
    process back.  The command sets its budgets with :func:`limits`.
    """
    st = _state
    if threading.current_thread() is not threading.main_thread() or st.guards:
        yield
        return
    st.guards += 1
    st.signum = None
    st.acknowledged = False
    st.main_thread = threading.get_ident()
    _ensure_watchdog()
    assert st.wake_w is not None
    old_int = signal.getsignal(signal.SIGINT)
    old_term = signal.getsignal(signal.SIGTERM)
    old_fd = signal.set_wakeup_fd(st.wake_w.fileno(), warn_on_full_buffer=False)
    old_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable(old_hook)
    signal.signal(signal.SIGINT, _signal_handler)
    signal.signal(signal.SIGTERM, _signal_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old_int)
        signal.signal(signal.SIGTERM, old_term)
        signal.set_wakeup_fd(old_fd)
        sys.unraisablehook = old_hook
        st.main_thread = 0
        st.signum = None
        st.acknowledged = False
        with st.lock:
            st.queries.clear()
        st.guards -= 1


@contextlib.contextmanager
def limits(time_limit: float | None = None, memory: int | None = None,
           stage_limit: float | None = None) -> Iterator[None]:
    """The budgets of a command: the whole-run ``time_limit`` (seconds), the ``memory`` limit (bytes) and
    the ``stage_limit`` of loading and building each model (seconds); None leaves one unset.

    The memory limit is the soft ``RLIMIT_AS`` of the process (the solver
    layer tells Z3 the same figure); everything is restored on exit.
    """
    st = _state
    if memory is not None:
        used = _address_space()
        if used is not None and memory < used + 64 * 2**20:
            from .errors import InputError

            raise InputError(f"--memory-limit {memory // 2**20}M is below what this process already uses "
                             f"({used // 2**20} MiB of address space): give at least {used // 2**20 + 64}M")
    old_deadline, old_limit, old_memory, old_stage = st.run_deadline, st.run_limit, st.memory, st.stage_limit
    old_rlimit = resource.getrlimit(resource.RLIMIT_AS)
    if stage_limit is not None:
        st.stage_limit = stage_limit
    if time_limit is not None:
        st.run_deadline = time.monotonic() + time_limit
        st.run_limit = time_limit
        st.run_expired = False
        st.run_acknowledged = False
        _ensure_watchdog()
        _poke()
    if memory is not None:
        hard = old_rlimit[1]
        soft = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        st.memory = memory
    try:
        yield
    finally:
        st.run_deadline, st.run_limit, st.memory, st.stage_limit = old_deadline, old_limit, old_memory, old_stage
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, old_rlimit)
