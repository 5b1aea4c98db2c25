"""A game-neutral declaration of timing structure: steps, windows and moves.

A :class:`Declaration` is data: the steps a triggering condition (or a game
round) goes through, the windows in which players take turns, and the moves
allowed between steps.  The timing graph (:mod:`ruleproof.timing.graph`) and
the transition system (:mod:`ruleproof.timing.system`) are both generated
from one declaration; neither holds a second copy of the timing rules.

Moves and what they mean
------------------------
``PROCEED``
    a step that is not a window is done (forced steps: once every eligible
    forced ability has resolved).
``PASS``
    the player whose opportunity it is passes; the move's target is where the
    sequence goes when the window closes (after the window's number of
    consecutive passes).
``INITIATE`` / ``RESOLVE``
    an ability answering the window (or forced step) starts resolving, and
    later finishes, returning to the window.
``CANCEL`` / ``CHANGE``
    a resolving ability cancels its triggering condition, or replaces it with
    a new one that is now imminent.
``NEST`` / ``RETURN``
    a resolving ability raises a new triggering condition: a new sequence
    starts at the declaration's entry.  With ``queue_order`` LIFO the spawning
    sequence waits until the new one is closed, and ``RETURN`` (target
    :data:`CALLER`) goes back to the resolving step that spawned it; with FIFO
    the new condition waits in a queue and ``RETURN`` starts the next queued
    one.
``LOOP``
    a framework step returns to an earlier one (round declarations).

Examples
--------
>>> d = Declaration(
...     name="tiny",
...     entry="start",
...     steps=(Step("start", StepKind.IMMINENT, "start"),
...            Step("w", StepKind.REACTION_WINDOW, "window", window=Window()),
...            Step("end", StepKind.CLOSED, "end", outcome=Outcome.COMPLETED)),
...     moves=(Move("start", "w", MoveKind.PROCEED), Move("w", "end", MoveKind.PASS)),
... )
>>> [s.name for s in d.successors("start")]
['w']
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Iterable

from ..errors import InputError

__all__ = [
    "CALLER",
    "Actor",
    "Declaration",
    "FORCED_KINDS",
    "GameTiming",
    "INTERRUPT_KINDS",
    "Move",
    "MoveKind",
    "Outcome",
    "QueueOrder",
    "REACTION_KINDS",
    "Step",
    "StepKind",
    "WINDOW_KINDS",
    "Window",
]

CALLER = "<caller>"
"""Target of a ``RETURN`` move: the resolving step that spawned the sequence."""


class StepKind(enum.Enum):
    """What happens at a step."""

    IMMINENT = "imminent"
    CANCEL_INTERRUPTS = "cancel_interrupts"
    WOULD_INTERRUPTS = "would_interrupts"
    FORCED_INTERRUPTS = "forced_interrupts"
    INTERRUPT_WINDOW = "interrupt_window"
    OCCURS = "occurs"
    FORCED_REACTIONS = "forced_reactions"
    REACTION_WINDOW = "reaction_window"
    RESOLVING = "resolving"
    CLOSED = "closed"
    FRAMEWORK_EVENT = "framework_event"
    ACTION_WINDOW = "action_window"


WINDOW_KINDS = frozenset(
    {
        StepKind.CANCEL_INTERRUPTS,
        StepKind.WOULD_INTERRUPTS,
        StepKind.INTERRUPT_WINDOW,
        StepKind.REACTION_WINDOW,
        StepKind.ACTION_WINDOW,
    }
)
"""Steps where players take opportunities in turn and pass."""
FORCED_KINDS = frozenset({StepKind.FORCED_INTERRUPTS, StepKind.FORCED_REACTIONS})
"""Steps where every eligible forced ability must resolve, in an order one player picks."""
INTERRUPT_KINDS = frozenset(
    {StepKind.CANCEL_INTERRUPTS, StepKind.WOULD_INTERRUPTS, StepKind.FORCED_INTERRUPTS, StepKind.INTERRUPT_WINDOW}
)
"""Steps whose abilities interrupt the triggering condition (before it occurs)."""
REACTION_KINDS = frozenset({StepKind.FORCED_REACTIONS, StepKind.REACTION_WINDOW})
"""Steps whose abilities react to the triggering condition (after it occurs)."""


class MoveKind(enum.Enum):
    """A kind of move between steps (the ``kind`` attribute of graph edges)."""

    PROCEED = "proceed"
    PASS = "pass"
    INITIATE = "initiate"
    RESOLVE = "resolve"
    CANCEL = "cancel"
    CHANGE = "change"
    NEST = "nest"
    RETURN = "return"
    LOOP = "loop"


class Actor(enum.Enum):
    """Who has the first opportunity in a window (or orders a forced step)."""

    FIRST_PLAYER = "first player"
    ACTIVE_PLAYER = "active player"


class QueueOrder(enum.Enum):
    """How a newly raised triggering condition is ordered against the open ones."""

    LIFO = "LIFO"
    FIFO = "FIFO"


class Outcome(enum.Enum):
    """How a closed sequence ended."""

    COMPLETED = "completed"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class Window:
    """Turn-taking rules of a window or forced step.

    ``first``: who has the first opportunity (for a forced step: who orders the
    forced abilities).  ``passes_to_close``: consecutive passes that close the
    window; ``None`` means every player.  ``once_per_condition``: each ability
    may be initiated at most once for one triggering condition.
    ``continues``: after an ability initiated in the window resolves,
    opportunities continue in player order from the player after the one who
    initiated it (AGoT: Pass); otherwise the window starts again with ``first``.
    """

    first: Actor = Actor.FIRST_PLAYER
    passes_to_close: int | None = None
    once_per_condition: bool = True
    continues: bool = False

    def closes_after(self, players: int) -> int:
        """Consecutive passes that close this window with ``players`` players."""
        return players if self.passes_to_close is None else self.passes_to_close

    def describe(self) -> str:
        close = "all players pass consecutively" if self.passes_to_close is None else f"{self.passes_to_close} pass(es)"
        once = "; each ability once per condition" if self.once_per_condition else ""
        cont = "; after an ability resolves, the next player in player order" if self.continues else ""
        return f"{self.first.value} first; closes after {close}{once}{cont}"


@dataclass(frozen=True)
class Step:
    """One step of a declaration.

    ``window`` is set for windows and forced steps, ``outcome`` for closed
    steps; ``number`` and ``phase`` place a framework step in the round
    (e.g. ``"3.2"``, ``"3. Marshaling phase"``).
    """

    name: str
    kind: StepKind
    label: str
    cites: tuple[str, ...] = ()
    window: Window | None = None
    outcome: Outcome | None = None
    number: str = ""
    phase: str = ""
    melee_only: bool = False


@dataclass(frozen=True)
class Move:
    """An allowed move from step ``source`` to step ``target``."""

    source: str
    target: str
    kind: MoveKind
    label: str = ""
    cites: tuple[str, ...] = ()


@dataclass(frozen=True)
class Declaration:
    """A timing declaration: steps, moves, entry step and ordering rules.

    ``queue_order``: LIFO (AGoT nested sequences) or FIFO (a queue).
    ``shared_windows``: triggering conditions created by one occurrence share
    one sequence (and so its windows).
    """

    name: str
    entry: str
    steps: tuple[Step, ...]
    moves: tuple[Move, ...]
    queue_order: QueueOrder = QueueOrder.LIFO
    shared_windows: bool = True
    cites: tuple[str, ...] = ()
    doc: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise InputError(f"timing declaration '{self.name}' is malformed", None, tuple(problems))

    # ------------------------------------------------------------------ queries
    def problems(self) -> list[str]:
        """Structural mistakes (unknown step names, windows without turn rules ...)."""
        out: list[str] = []
        names = [s.name for s in self.steps]
        if len(set(names)) != len(names):
            out.append("a step name is declared twice")
        known = set(names)
        if self.entry not in known:
            out.append(f"entry step '{self.entry}' is not declared")
        for s in self.steps:
            if (s.kind in WINDOW_KINDS or s.kind in FORCED_KINDS) and s.window is None:
                out.append(f"step '{s.name}' is a {s.kind.value} but has no window rules")
            if s.kind is StepKind.CLOSED and s.outcome is None:
                out.append(f"closed step '{s.name}' has no outcome")
        seen: set[tuple[str, str]] = set()
        for m in self.moves:
            if m.source not in known:
                out.append(f"move {m.kind.value} starts at unknown step '{m.source}'")
            if m.target not in known and not (m.kind is MoveKind.RETURN and m.target == CALLER):
                out.append(f"move {m.kind.value} from '{m.source}' goes to unknown step '{m.target}'")
            if m.kind is MoveKind.NEST:
                continue  # a nest move starts a new sequence: it never collides with a move inside one
            if (m.source, m.target) in seen:
                out.append(f"two moves go from '{m.source}' to '{m.target}'")
            seen.add((m.source, m.target))
        return out

    def step(self, name: str) -> Step:
        """The step called ``name``."""
        for s in self.steps:
            if s.name == name:
                return s
        raise KeyError(name)

    def moves_from(self, name: str, kind: MoveKind | None = None) -> tuple[Move, ...]:
        """Moves leaving step ``name`` (of one kind when given)."""
        return tuple(m for m in self.moves if m.source == name and (kind is None or m.kind is kind))

    def moves_of(self, kind: MoveKind) -> tuple[Move, ...]:
        return tuple(m for m in self.moves if m.kind is kind)

    def successors(self, name: str) -> tuple[Step, ...]:
        """Steps reached from ``name`` by a move within the same sequence."""
        return tuple(
            self.step(m.target)
            for m in self.moves_from(name)
            if m.kind not in (MoveKind.NEST, MoveKind.RETURN)
        )

    def steps_of(self, *kinds: StepKind) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.kind in kinds)

    def resolving_of(self, name: str) -> str | None:
        """The resolving step that abilities initiated at step ``name`` go to."""
        for m in self.moves_from(name, MoveKind.INITIATE):
            return m.target
        return None

    # ------------------------------------------------------------------ edits (mutants, variants)
    def with_window(self, step: str, **changes: object) -> Declaration:
        """A copy where step ``step``'s window rules are changed."""
        s = self.step(step)
        if s.window is None:
            raise InputError(f"step '{step}' has no window rules to change")
        new = replace(s, window=replace(s.window, **changes))  # type: ignore[arg-type]
        return replace(self, steps=tuple(new if x.name == step else x for x in self.steps))

    def with_moves(self, drop: Iterable[tuple[str, str]] = (), add: Iterable[Move] = ()) -> Declaration:
        """A copy without the moves ``(source, target)`` in ``drop`` and with ``add``."""
        gone = set(drop)
        kept = tuple(m for m in self.moves if (m.source, m.target) not in gone)
        return replace(self, moves=kept + tuple(add))

    def without_step(self, name: str) -> Declaration:
        """A copy where step ``name`` (and the resolving step of its abilities) is skipped.

        Moves into the removed step are redirected to where its ``PROCEED`` or
        ``PASS`` move led.
        """
        removed = {name}
        res = self.resolving_of(name)
        if res is not None:
            removed.add(res)
        onward = [m.target for m in self.moves_from(name) if m.kind in (MoveKind.PROCEED, MoveKind.PASS)]
        if len(onward) != 1:
            raise InputError(f"step '{name}' has no single onward move to reconnect")
        nxt = onward[0]
        moves: list[Move] = []
        for m in self.moves:
            if m.source in removed:
                continue
            if m.target in removed:
                m = replace(m, target=nxt)
            moves.append(m)
        entry = nxt if self.entry == name else self.entry
        kept = tuple(s for s in self.steps if s.name not in removed)
        return replace(self, entry=entry, steps=kept, moves=tuple(moves))


@dataclass(frozen=True)
class GameTiming:
    """A game's timing: the sequence around a triggering condition and the round framework.

    A model directory exposes one as ``TIMING`` in its ``timing.py``.
    """

    game: str
    sequence: Declaration
    round: Declaration | None = None
