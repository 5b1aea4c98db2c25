"""What every engine shares: options, progress events, and concrete replay."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ..errors import InternalError
from ..evaluator import Evaluator, State
from ..ir import EnumT, Property, PropKind, System, Type, Value
from ..results import Change, RawTrace, Result, Trace, TraceStep, Verdict

__all__ = ["Options", "Progress", "ProgressFn", "replay", "show_value", "result", "Clock"]


@dataclass(frozen=True)
class Options:
    """Engine options.

    ``depth``: BMC / explicit-search bound (steps).  ``kmax``: largest k tried
    by k-induction.  ``timeout``: seconds per property (None: no limit).
    ``max_states``: explicit-search state cap.  ``seed``: solver seed.
    ``skip_checks``: consistency checks left out (:data:`ruleproof.consistency.CHECKS`).
    ``rule_coverage``: report every rule's coverage, not only actions'.
    ``rlimit``: the solver's resource limit per call (Z3's ``rlimit``, a
    count of its elementary steps, so the same on a loaded and an idle
    machine; None: none).  ``timeout`` stays a wall-clock safety net.
    """

    depth: int = 20
    kmax: int = 8
    timeout: float | None = None
    max_states: int = 2_000_000
    seed: int = 0
    skip_checks: tuple[str, ...] = ()
    rule_coverage: bool = False
    rlimit: int | None = None


@dataclass(frozen=True)
class Progress:
    """A progress event: ``what`` is being checked, at ``depth`` of ``of``."""

    system: str
    prop: str
    engine: str
    depth: int
    of: int


ProgressFn = Callable[[Progress], None]


class Clock:
    """Seconds since construction and the deadline of a timeout."""

    def __init__(self, timeout: float | None) -> None:
        self.start = time.monotonic()
        self.deadline = None if timeout is None else self.start + timeout

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())


def show_value(t: Type, v: Value) -> Value:
    """A value as users read it (enum labels)."""
    if isinstance(t, EnumT) and isinstance(v, str):
        return t.label(v)
    return v


def result(system: System, prop: Property, verdict: Verdict, depth: int, engine: str, clock: Clock,
           **kw: object) -> Result:
    return Result(
        system=system.name,
        scenario=system.scenario,
        property=prop.name,
        kind=prop.kind.value,
        cites=prop.cites,
        verdict=verdict,
        depth=depth,
        engine=engine,
        seconds=round(clock.elapsed(), 3),
        builtin=prop.builtin,
        **kw,  # type: ignore[arg-type]
    )


def replay(system: System, ev: Evaluator, raw: RawTrace, prop: Property | None) -> Trace:
    """Replay a solver path on the concrete evaluator and build the user trace.

    Raises :class:`InternalError` when the path is not a run of the system or
    does not show what it claims (violation of ``prop``, or reaching it).
    """
    states: list[State] = [raw.states[0]]
    if not ev.is_initial(raw.states[0]):
        raise InternalError(f"{system.name}: solver trace starts in a state that is not initial")
    steps: list[TraceStep] = []
    for j, (ai, choices) in enumerate(raw.steps):
        a = system.actions[ai]
        ch = dict(choices)
        s = states[-1]
        nxt = ev.apply(ai, s, ch)
        if nxt is None:
            raise InternalError(f"{system.name}: solver trace step {j + 1} ({a.label}) is not enabled on replay")
        if nxt != raw.states[j + 1]:
            diff = [v.name for v, x, y in zip(system.vars, nxt, raw.states[j + 1], strict=True) if x != y]
            raise InternalError(f"{system.name}: solver trace step {j + 1} ({a.label}) disagrees on replay: {diff}")
        states.append(nxt)
        changes = tuple(
            Change(v.label, show_value(v.type, x), show_value(v.type, y))
            for v, x, y in zip(system.vars, s, nxt, strict=True)
            if x != y
        )
        ctypes = {c.name: c for c in a.choices}
        steps.append(
            TraceStep(
                action=a.label,
                family=a.family,
                params=tuple((n, lab) for (n, _), lab in zip(a.params, a.param_labels, strict=True)),
                choices=tuple((ctypes[n].label, show_value(ctypes[n].type, v)) for n, v in choices),
                description=a.description,
                changes=changes,
            )
        )
    if prop is not None:
        last = states[-1]
        if prop.kind is PropKind.INVARIANT and ev.holds(prop, last):
            raise InternalError(f"{system.name}: counterexample for '{prop.name}' does not violate it on replay")
        if prop.kind is PropKind.REACH and not ev.holds(prop, last):
            raise InternalError(f"{system.name}: witness for '{prop.name}' does not reach it on replay")
        if prop.kind is PropKind.ACTION:
            if not raw.steps:
                raise InternalError(f"{system.name}: counterexample for '{prop.name}' has no step")
            ai, choices = raw.steps[-1]
            if ev.step_ok(prop, system.actions[ai], states[-2], last, dict(choices)):
                raise InternalError(f"{system.name}: counterexample for '{prop.name}' does not violate it on replay")
    initial = tuple((v.label, show_value(v.type, x)) for v, x in zip(system.vars, states[0], strict=True))
    return Trace(initial, tuple(steps), tuple(v.name for v in system.vars), tuple(states))
