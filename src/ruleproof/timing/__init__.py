"""Timing structure as data: declarations, the timing-window graph, graph checks, generated systems.

See :mod:`ruleproof.timing.declaration` (the format), :mod:`ruleproof.timing.agot`
(the AGoT declaration), :mod:`ruleproof.timing.graph` (networkx graph, drawing,
DOT/GraphML), :mod:`ruleproof.timing.checks` (exhaustive graph checks) and
:mod:`ruleproof.timing.system` (the transition system generated from a
declaration and a scenario).
"""

from __future__ import annotations

from .declaration import (
    CALLER,
    Actor,
    Declaration,
    GameTiming,
    Move,
    MoveKind,
    Outcome,
    QueueOrder,
    Step,
    StepKind,
    Window,
)

__all__ = [
    "CALLER",
    "Actor",
    "Declaration",
    "GameTiming",
    "Move",
    "MoveKind",
    "Outcome",
    "QueueOrder",
    "Step",
    "StepKind",
    "Window",
]
