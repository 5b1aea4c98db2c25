"""Verdicts, traces and coverage: what engines return and reports show."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .ir import Value

__all__ = ["RawTrace", "Verdict", "Change", "TraceStep", "Trace", "RuleCoverage", "Coverage", "Result"]


class Verdict(enum.Enum):
    """The answer for one property.

    ``PROVED``: holds in every reachable state (k-induction, a CHC invariant or
    an exhausted explicit search); for a reachability target, a replayed
    witness trace reaches it.  ``HOLDS_TO_DEPTH``: no violation within ``depth``
    steps.  ``VIOLATED``: a replayed counterexample (or, for a target, a proof
    that it is unreachable).  ``UNKNOWN``: no answer, with the reason.
    """

    PROVED = "proved"
    HOLDS_TO_DEPTH = "holds_to_depth"
    VIOLATED = "violated"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class RawTrace:
    """A path as engines find it, before replay: states (values in the system's
    variable order) and, per step, the index of the ground action taken and the
    values of its choices.  Plain data: the solver engines read it off a model,
    the explicit engine off its search, and :func:`ruleproof.engines.common.replay`
    turns it into a :class:`Trace` on the concrete evaluator."""

    states: tuple[tuple[Value, ...], ...]
    steps: tuple[tuple[int, tuple[tuple[str, Value], ...]], ...]


@dataclass(frozen=True)
class Change:
    """One variable changed by a step (display label, old and new value)."""

    var: str
    old: Value
    new: Value


@dataclass(frozen=True)
class TraceStep:
    """One step of a trace: the action taken and what it changed."""

    action: str
    family: str
    params: tuple[tuple[str, str], ...]
    choices: tuple[tuple[str, Value], ...]
    description: str
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class Trace:
    """A replayed path: the initial state (all variables) and each step.

    ``states`` keeps the raw states (variable names, in system order) for
    machine formats such as ITF.
    """

    initial: tuple[tuple[str, Value], ...]
    steps: tuple[TraceStep, ...]
    var_names: tuple[str, ...] = ()
    states: tuple[tuple[Value, ...], ...] = ()


@dataclass(frozen=True)
class RuleCoverage:
    """Whether one rule was reached within the coverage depth.

    ``kind`` is ``action`` (an action family fired), ``branch`` (a conditional
    effect of an action took effect) or ``cover`` (a coverage point the model
    declares, e.g. a timing step, was reached); ``status`` is ``reached``,
    ``unreached`` or ``unknown``.
    """

    kind: str
    name: str
    where: str
    status: str


@dataclass(frozen=True)
class Coverage:
    """Which action families fired on some path within ``depth`` steps.

    ``rules`` is filled by ``ruleproof check --coverage``: every action,
    conditional effect and declared coverage point, reached or not.
    ``exhaustive``: the families were found by exploring every reachable
    state (a small system, searched so when BMC within ``depth`` leaves a
    family unseen), so ``never`` means never at any depth.
    """

    depth: int
    fired: tuple[str, ...]
    never: tuple[str, ...]
    unknown: tuple[str, ...] = ()
    rules: tuple[RuleCoverage, ...] = ()
    exhaustive: bool = False  # the whole reachable state space was explored: not bounded by ``depth``

    @property
    def vacuous_risk(self) -> bool:
        """Some action never fired: a property over it may hold vacuously."""
        return bool(self.never)


@dataclass(frozen=True)
class Result:
    """The outcome of checking one property of one system."""

    system: str
    scenario: str
    property: str
    kind: str
    cites: tuple[str, ...]
    verdict: Verdict
    depth: int
    engine: str
    seconds: float = field(default=0.0, compare=False)
    coverage: Coverage | None = None
    trace: Trace | None = None
    reason: str = ""
    invariant: str = ""
    builtin: bool = False
