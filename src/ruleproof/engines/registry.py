"""The engines as data: what each one can answer, and ``auto`` as a list of stages.

:data:`REGISTRY` names every single engine with what it can conclude
(``proves``: PROVED for all depths; ``refutes``: a replayed counterexample or
witness; ``uses_lemmas``: whether properties proved earlier make it
stronger).  :data:`AUTO` is the ``auto`` engine: per kind of property, the
stages tried in order, each with its share of the property's time budget,
the verdicts that end the search, and when it is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Mapping, Protocol, Sequence

from ..evaluator import Evaluator
from ..ir import Property, PropKind, System
from ..results import Result, Verdict
from . import bmc, chc, explicit, kind
from .common import Options, ProgressFn

__all__ = ["Engine", "EngineFn", "REGISTRY", "Stage", "AUTO", "EXHAUST_INITIAL", "EXHAUST_STATES", "EXHAUST_FIRST",
           "CHC_MIN_SECONDS", "EARLY_KMAX", "few_initial_states"]


class EngineFn(Protocol):
    def __call__(self, system: System, prop: Property, opts: Options, lemmas: Sequence[Property] = (),
                 progress: ProgressFn | None = None, evaluator: Evaluator | None = None) -> Result: ...


@dataclass(frozen=True)
class Engine:
    """One engine: its entry point and what it can conclude."""

    name: str
    check: EngineFn
    proves: bool
    refutes: bool
    uses_lemmas: bool
    doc: str


REGISTRY: Mapping[str, Engine] = {
    e.name: e
    for e in (
        Engine("bmc", bmc.check, proves=False, refutes=True, uses_lemmas=True,
               doc="bounded model checking: shortest counterexample; a target's witness (simulated, shortened)"),
        Engine("kind", kind.check, proves=True, refutes=True, uses_lemmas=True,
               doc="k-induction with simple-path constraints"),
        Engine("chc", chc.check, proves=True, refutes=True, uses_lemmas=True,
               doc="Spacer (constrained Horn clauses): a proof shows the inductive invariant"),
        Engine("explicit", explicit.check, proves=True, refutes=True, uses_lemmas=False,
               doc="breadth-first search on the concrete evaluator: an exhausted state space is a proof"),
    )
}

EXHAUST_INITIAL = 1_000
"""Most initial states for which ``auto`` (and coverage) first tries to explore the whole state space."""
EXHAUST_STATES = 20_000
"""State cap of that exploration."""
EXHAUST_FIRST = 2_500
"""Coverage explores a system with few initial states whole before any BMC query when it has at most this many
reachable states (timing's 1,612: 0.2 s of CPU instead of 20 s of BMC queries asking, at every length to the
depth, for a family that fires only deeper); past it the search stops and BMC runs."""
CHC_MIN_SECONDS = 2.0
"""Spacer is not started with less time left than this (its encoding alone would use it up)."""


def few_initial_states(system: System) -> bool:
    """At most :data:`EXHAUST_INITIAL` initial states (an upper bound: constraints not applied)."""
    n = 1
    for iv in system.init_vars:
        n *= len(iv.values)
        if n > EXHAUST_INITIAL:
            return False
    return True


@dataclass(frozen=True)
class Stage:
    """One step of ``auto``.

    ``share``: the fraction of the property's timeout it may use (``None``:
    whatever is left); ``accept``: the verdicts that end ``auto`` with this
    stage's result; ``when``: a condition on the system (the stage is skipped
    when it is false); ``min_left``: skipped with less time left than this;
    ``options``: how it changes the run's options; ``note``: how its reason is
    labelled in the final result's reason (``None``: left out); ``early``:
    a cheap first try that runs only in a system's lemma fixpoint
    (:func:`~ruleproof.engines.runner.check_system`), retried as lemmas
    arrive before any property's other stages run (a check of one property
    alone skips it: the other stages cover it); ``earlier_lemmas``: the
    stage assumes only the lemmas declared before the property, not those
    the fixpoint proved after it.
    """

    engine: str
    share: float | None
    accept: frozenset[Verdict]
    when: Callable[[System], bool] | None = None
    min_left: float = 0.0
    options: Callable[[Options], Options] | None = None
    note: str | None = ""
    early: bool = False
    earlier_lemmas: bool = False


_DECIDED = frozenset({Verdict.PROVED, Verdict.VIOLATED})


def _exhaustive(opts: Options) -> Options:
    """Explore the whole (small) state space: a proof, or a shortest violation."""
    return replace(opts, depth=1_000_000, max_states=EXHAUST_STATES)


EARLY_KMAX = 1
"""The largest k of the lemma fixpoint's early k-induction (k = 1: 2-inductive)."""


def _shallow(opts: Options) -> Options:
    """k-induction to :data:`EARLY_KMAX` only: a failed try costs little; a deeper one waits for the lemmas."""
    return replace(opts, kmax=min(opts.kmax, EARLY_KMAX))


AUTO: Mapping[PropKind, tuple[Stage, ...]] = {
    kind_: (
        Stage("kind", 1 / 3, _DECIDED, options=_shallow, note=None, early=True),
        Stage("kind", 1 / 3, _DECIDED, note="k-induction"),
        # Spacer's rules grow with every lemma, and it slows down: the marshaling pool bound (melee) takes 0.7 s
        # of CPU with the one property declared before it as a lemma, 9.6 s with the 20 the fixpoint has by then
        Stage("chc", 1 / 3, _DECIDED, min_left=CHC_MIN_SECONDS, note="chc", earlier_lemmas=True),
        Stage("explicit", 1 / 3, _DECIDED, when=few_initial_states, options=_exhaustive, note=None),
        Stage("bmc", None, _DECIDED),
    )
    for kind_ in (PropKind.INVARIANT, PropKind.ACTION)
} | {
    PropKind.REACH: (
        Stage("bmc", None, frozenset({Verdict.PROVED})),
        # a small system whose target lies past --depth (Berserk's Очередь under LIFO: 16 steps) is explored
        # whole: a shortest witness at any depth, or every reachable state seen without it (unreachable)
        Stage("explicit", 1 / 3, _DECIDED, when=few_initial_states, options=_exhaustive, note=None),
        Stage("chc", 1 / 3, _DECIDED, min_left=CHC_MIN_SECONDS, note="chc"),
    ),
}
"""``auto``: the stages per kind of property.  An invariant or action property:
k-induction, Spacer, an exhaustive explicit search (small systems only), then
BMC to the depth; in a system's lemma fixpoint, first a shallow k-induction
(``early``), retried as lemmas arrive, before any of these runs.  A target:
BMC's witness search (lower bound, guided simulation, one query, shortening),
then, in a small system, the whole state space explored (a witness past the
depth, or the target shown unreachable), then Spacer to show it unreachable."""
