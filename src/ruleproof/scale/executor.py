"""Run independent work units in-process or on a Dask cluster, in unit order.

:func:`run_units` is the one executor of ruleproof's scale-out.  With neither
``workers`` nor ``scheduler`` it is a plain loop in this process (Dask is not
even imported).  Otherwise it starts a ``distributed.LocalCluster`` of
``workers`` single-threaded worker processes, or connects to the Dask
scheduler at ``scheduler``, and sends each unit to a worker.

Guarantees:

* Results come back in unit order, whatever order the workers finish in.
* No unit is lost and the run never hangs: a unit whose worker dies
  (``KilledWorker``), whose task the scheduler loses, or that runs longer
  than ``timeout`` seconds, gets the result ``failed(unit, reason)`` (the
  callers make that an UNKNOWN result with the reason).  A unit that raises
  an ordinary exception (bad input, internal error) re-raises it here: the
  one of the lowest unit index, as the in-process loop would.
* At most one unit per worker thread is in flight at a time, so a unit's
  timeout clock starts when it starts running, and a worker that dies takes
  only the unit it was running with it.  On a cluster this function started,
  a unit that timed out has its worker restarted (a running Z3 query cannot
  be interrupted otherwise); on an existing cluster it is only cancelled.
* An interrupt (SIGINT/SIGTERM, :class:`ruleproof.budget.Interrupted`) or
  the run's time limit closes the client and the local cluster (quietly)
  before it propagates; the units finished so far have been passed to
  ``on_result`` already, so the caller can report them.
* A scheduler address is checked before use, and a scheduler that does not
  answer within :data:`CONNECT_TIMEOUT` seconds (nothing listening, or
  something that is not a Dask scheduler) is bad input, not a hang.

Tasks carry only the unit (plain data) and the unit function (a module-level
function, pickled by reference): workers need the same ruleproof installed
and the model paths the units name visible.
"""

from __future__ import annotations

import importlib
import logging
import os
import time
import uuid
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Generic, Protocol, Sequence, TypeVar

from .. import budget
from ..errors import InputError, clip

if TYPE_CHECKING:  # pragma: no cover - typing only
    from distributed import Client, Future

__all__ = ["Fault", "Unit", "UnitProgress", "UnitResult", "run_units", "check_target", "max_workers", "SCHEMES",
           "NO_WORKER_WAIT", "CONNECT_TIMEOUT"]

#: Address schemes of Dask schedulers.
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


def max_workers() -> int:
    """The largest ``--workers``: four worker processes per CPU core, and at most 64."""
    return min(64, 4 * (os.cpu_count() or 1))


def check_target(workers: int | None, scheduler: str | None) -> None:
    """``--workers`` / ``--scheduler`` as given: at most one, a worker count in range, a well-formed address."""
    if workers is not None and scheduler is not None:
        raise InputError("give --workers or --scheduler, not both")
    if workers is not None and workers < 1:
        raise InputError(f"--workers must be 1 or more, got {workers}")
    if workers is not None and workers > max_workers():
        raise InputError(f"--workers must be at most {max_workers()} (4 per CPU core, at most 64), "
                         f"got {clip(workers)}")
    if scheduler is not None:
        scheme, sep, rest = scheduler.partition("://")
        if not sep:
            scheme, rest = "tcp", scheduler
        host, colon, port = rest.rpartition(":")
        if scheme not in SCHEMES or (scheme != "inproc" and (not colon or not host or not port.isdigit())):
            raise InputError(f"--scheduler takes a Dask scheduler address such as tcp://host:8786, "
                             f"got '{clip(scheduler)}'")


#: Seconds to wait for a cluster that has no worker before the remaining units fail.
NO_WORKER_WAIT = 60.0

#: Seconds to wait for a Dask scheduler to answer (``--scheduler``).
CONNECT_TIMEOUT = 5.0

#: Dask settings of a run: a task whose worker dies fails at once (it is not
#: retried on the next worker, which it could kill too), and the scheduler
#: sends a worker no more tasks than it has threads.
DASK_CONFIG: dict[str, Any] = {
    "distributed.scheduler.allowed-failures": 0,
    "distributed.scheduler.worker-saturation": 1.0,
}


class Unit(Protocol):
    """What the executor needs of a work unit: a label for progress and messages."""

    @property
    def label(self) -> str: ...


U = TypeVar("U", bound=Unit)
R = TypeVar("R")

#: ``progress(done, total, label)``: ``done`` of ``total`` units finished, the last one ``label``.
UnitProgress = Callable[[int, int, str], None]

#: ``on_result(index, result)``: the result of unit ``index``, in unit order, as soon as it and all before it are in.
UnitResult = Callable[[int, Any], None]


@dataclass(frozen=True)
class Fault:
    """Test hook: make the unit at ``index`` misbehave on its worker.

    ``kind`` ``"exit"`` ends the worker process (``os._exit``) when the unit
    starts; ``"hang"`` sleeps ``seconds`` before running it.  Only for a
    cluster run (in-process it would end or stall the caller).
    """

    index: int
    kind: str = "exit"
    seconds: float = 3600.0


def execute(fn: Callable[[Any], Any], unit: Any, fault: Fault | None) -> Any:
    """Run ``fn(unit)`` on a worker (applying a test :class:`Fault` first)."""
    if fault is not None:
        if fault.kind == "exit":
            os._exit(70)
        time.sleep(fault.seconds)
    return fn(unit)


def warm(module: str) -> None:
    """Import ``module`` on a worker before any unit arrives (Z3 and the engines load once, not in a unit's time)."""
    importlib.import_module(module)


def run_units(
    units: Sequence[U],
    fn: Callable[[U], R],
    failed: Callable[[U, str], R],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    timeout: float | None = None,
    progress: UnitProgress | None = None,
    fault: Fault | None = None,
    on_result: UnitResult | None = None,
) -> list[R]:
    """``[fn(u) for u in units]``, in-process or on a Dask cluster; see the module docstring.

    Parameters
    ----------
    units
        Plain-data work units (picklable, no Z3 objects).
    fn
        A module-level function run on each unit (on a worker for a cluster run).
    failed
        ``failed(unit, reason)``: the result of a unit whose worker died, whose
        task was lost, or that exceeded ``timeout``.
    workers, scheduler
        Start a local cluster of this many worker processes, or connect to the
        Dask scheduler at this address (``tcp://host:8786``); neither: run here.
    timeout
        Wall-clock seconds a unit may run on a worker (None: no limit).  The
        in-process loop relies on the engines' own timeouts instead.
    progress
        Called after each finished unit (in completion order).
    fault
        Test hook (:class:`Fault`), cluster runs only.
    on_result
        Called with each unit's result in unit order, as soon as it and every
        unit before it are done (for streaming reports).
    """
    check_target(workers, scheduler)
    if timeout is not None and timeout <= 0:
        raise InputError(f"the unit timeout must be positive, got {timeout}")
    if workers is None and scheduler is None:
        if fault is not None:
            raise ValueError("a Fault is only for cluster runs")
        out: list[R] = []
        for k, u in enumerate(units):
            budget.checkpoint()
            out.append(fn(u))
            if on_result is not None:
                on_result(k, out[-1])
            if progress is not None:
                progress(k + 1, len(units), u.label)
        return out
    if not units:
        return []
    return _on_cluster(units, fn, failed, workers, scheduler, timeout, progress, fault, on_result)


def _connect(scheduler: str) -> Any:
    """A client of the Dask scheduler at ``scheduler``, or bad input within :data:`CONNECT_TIMEOUT` seconds.

    The client is made in a helper thread: a listener that accepts the
    connection and never answers would otherwise hold the caller for ever.
    """
    import threading

    from distributed import Client

    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except BaseException as exc:  # noqa: B036 - reported to the caller below
            box["error"] = exc

    t = threading.Thread(target=connect, name="ruleproof-connect", daemon=True)
    t.start()
    deadline = time.monotonic() + CONNECT_TIMEOUT + 5.0
    while t.is_alive() and time.monotonic() < deadline:
        budget.checkpoint()
        t.join(0.2)
    if "client" in box:
        return box["client"]
    why = f"{type(box['error']).__name__}: {box['error']}" if "error" in box else \
        f"no Dask scheduler answered within {CONNECT_TIMEOUT:g} s"
    raise InputError(f"cannot connect to the Dask scheduler at {clip(scheduler)}: {clip(why)}")


def _on_cluster(units: Sequence[U], fn: Callable[[U], R], failed: Callable[[U, str], R], workers: int | None,
                scheduler: str | None, timeout: float | None, progress: UnitProgress | None,
                fault: Fault | None, on_result: UnitResult | None) -> list[R]:
    from ..extras import require

    require("dask", "running on a Dask cluster (--workers, --scheduler)")
    import dask
    from distributed import Client, LocalCluster

    cluster: Any = None
    client: Any = None
    with dask.config.set(DASK_CONFIG):
        try:
            if scheduler is not None:
                client = _connect(scheduler)
            else:
                memory = budget.memory_limit()  # each worker process gets the run's memory limit
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=":0", silence_logs=logging.CRITICAL,
                                       memory_limit=memory if memory is not None else 0)
                client = Client(cluster)
            try:
                client.run(warm, fn.__module__)
            except ImportError as exc:
                raise InputError(f"the Dask workers cannot import {fn.__module__} ({exc}): "
                                 "install the same ruleproof on them") from None
            run = _Run(client, cluster is not None, units, fn, failed, timeout, progress, fault, on_result)
            return run.drive()
        except budget.BudgetEvent:
            _quiet()  # the cluster is being torn down mid-task: its log lines are noise
            raise
        finally:
            with budget.shielded():
                if client is not None:
                    client.close()
                if cluster is not None:
                    cluster.close()


def _quiet() -> None:
    """Silence Dask's and asyncio's loggers (interrupted runs: cancelled tasks are expected)."""
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


class _Run(Generic[U, R]):
    """One cluster run: throttled submission, completion, faults, deadlines."""

    def __init__(self, client: "Client", owned: bool, units: Sequence[U], fn: Callable[[U], R],
                 failed: Callable[[U, str], R], timeout: float | None, progress: UnitProgress | None,
                 fault: Fault | None, on_result: UnitResult | None = None) -> None:
        self.client = client
        self.owned = owned
        self.units = units
        self.fn = fn
        self.failed = failed
        self.timeout = timeout
        self.progress = progress
        self.fault = fault
        self.tag = uuid.uuid4().hex[:8]
        self.results: dict[int, R] = {}
        self.pending: deque[int] = deque(range(len(units)))
        self.running: dict["Future", tuple[int, float]] = {}
        self.error: tuple[int, BaseException] | None = None
        self.zombies: dict["Future", float] = {}  # timed-out tasks still holding a worker thread, since when
        self.done = 0
        self.on_result = on_result
        self.emitted = 0  # units passed to on_result (in unit order)

    def drive(self) -> list[R]:
        from distributed import wait

        no_worker_since: float | None = None
        while self.pending or self.running:
            budget.checkpoint()
            slots = self._slots()
            now = time.monotonic()
            if slots == 0 and not self.running:
                no_worker_since = no_worker_since or now
                if now - no_worker_since > NO_WORKER_WAIT:
                    for i in list(self.pending):
                        self._fail(i, f"no Dask worker was available for {NO_WORKER_WAIT:.0f} s")
                    self.pending.clear()
                    break
                time.sleep(0.2)
                continue
            no_worker_since = None
            while self.pending and len(self.running) + len(self.zombies) < slots:
                self._submit(self.pending.popleft())
            if not self.running:
                time.sleep(0.2)  # every slot is held by a timed-out task
                self._expire()
                continue
            try:
                finished, _ = wait(list(self.running), timeout=self._poll(), return_when="FIRST_COMPLETED")
            except TimeoutError:
                finished = set()
            for fut in sorted(finished, key=lambda f: self.running[f][0]):
                self._collect(fut)
            self._expire()
        if self.error is not None:
            raise self.error[1]
        return [self.results[i] for i in range(len(self.units))]

    def _slots(self) -> int:
        return sum(self.client.nthreads().values())

    def _poll(self) -> float:
        if self.timeout is None:
            return 0.5
        now = time.monotonic()
        nearest = min(t + self.timeout for _, t in self.running.values())
        return max(0.05, min(0.5, nearest - now))

    def _submit(self, i: int) -> None:
        if self.error is not None and i > self.error[0]:
            return
        hook = self.fault if self.fault is not None and self.fault.index == i else None
        fut = self.client.submit(execute, self.fn, self.units[i], hook, key=f"ruleproof-unit-{self.tag}-{i}",
                                 pure=False)
        self.running[fut] = (i, time.monotonic())

    def _finish(self, i: int, value: R) -> None:
        self.results[i] = value
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, len(self.units), self.units[i].label)
        while self.on_result is not None and self.emitted in self.results:
            self.on_result(self.emitted, self.results[self.emitted])
            self.emitted += 1

    def _fail(self, i: int, reason: str) -> None:
        self._finish(i, self.failed(self.units[i], reason))

    def _collect(self, fut: "Future") -> None:
        from distributed import KilledWorker

        i, _t = self.running.pop(fut)
        if fut.status == "finished":
            self._finish(i, fut.result())
            return
        if fut.status != "error":
            self._fail(i, f"the Dask scheduler lost this task ({fut.status})")
            return
        exc = fut.exception()
        if isinstance(exc, KilledWorker):
            memory = budget.memory_limit()
            hint = f" (it may have gone over the memory limit of {memory // 2**20} MiB)" if memory else ""
            self._fail(i, f"worker died{hint}: {exc}")
            return
        if self.error is None or i < self.error[0]:
            self.error = (i, exc)
            for other, (j, _s) in list(self.running.items()):
                if j > i:
                    other.cancel()
                    del self.running[other]
            self.pending = deque(j for j in self.pending if j < i)

    def _expire(self) -> None:
        """Fail the units past the timeout; their tasks hold a slot until they end (or another timeout passes).

        The scheduler would otherwise send the next unit to the worker whose
        thread is still busy.  On a cluster started here that worker is
        restarted at once (its task then ends as lost); on an existing
        cluster the task is left to finish (the engines have timeouts) and is
        cancelled after one more timeout at the latest.
        """
        if self.timeout is None:
            return
        now = time.monotonic()
        for fut, (i, t) in list(self.running.items()):
            if now - t <= self.timeout or fut.done():
                continue
            del self.running[fut]
            self._fail(i, f"timed out: still running after {self.timeout:g} s")
            self.zombies[fut] = now
            where = self._worker_of(fut) if self.owned else None
            if where is not None:
                self.client.restart_workers([where], raise_for_error=False)
        for fut, since in list(self.zombies.items()):
            if fut.done() or now - since > self.timeout:
                fut.cancel()
                del self.zombies[fut]

    def _worker_of(self, fut: "Future") -> str | None:
        for addr, keys in self.client.processing().items():
            if fut.key in keys:
                return str(addr)
        return None
