"""AGoT 2.0 timing: the interrupt/reaction sequence around triggering conditions, as a system.

The system is generated from the timing declaration in
``ruleproof.timing.agot`` (Rules Reference: Triggering Condition, Nested
Ability Sequences, Interrupts, Reactions, Forced Interrupts / Forced
Reactions, Cancel, The word "Would", Priority of Simultaneous Resolution)
played out on a small scenario: two characters are killed at once by one
occurrence (shared windows); cancel interrupts can cancel either kill (in
the cancel window, before any other interrupt), a "would be killed"
interrupt saves the first (changing the condition into
"saved", which has a forced interrupt and an interrupt), and reactions draw
a card (a new triggering condition: a nested sequence) that has a forced
reaction and a reaction of its own.  The scenario is small enough that the
explicit engine explores every reachable state, and every sanity target is
reached within 10 steps.  ``mutant=`` names a deliberately broken declaration (see
``ruleproof.timing.agot.MUTANTS``).

``TIMING`` is the game's timing declaration (for ``ruleproof graph``) and
:func:`graph_checks` turns the exhaustive graph checks into results.
"""

from __future__ import annotations

import time

from ruleproof.dsl import Model
from ruleproof.results import Change, Result, Trace, TraceStep, Verdict
from ruleproof.timing.agot import AGOT_SEQUENCE, AGOT_TIMING, MUTANTS, agot_round_for
from ruleproof.timing.agot import mutant as broken
from ruleproof.timing.checks import check_round_format, run_checks, run_round_checks
from ruleproof.timing.declaration import Declaration, StepKind
from ruleproof.timing.graph import timing_graph
from ruleproof.timing.system import Ability, Effect, Scenario, build_system, priority_shown_in_windows

TIMING = AGOT_TIMING

SCENARIOS = {
    "default": {"players": 2, "max_depth": 2, "mutant": ""},
    "melee": {"players": 3, "max_depth": 2, "mutant": ""},
}
CHECKED = ("default",)

K = StepKind


def scenario(players: int = 2, max_depth: int = 2) -> Scenario:
    """Two simultaneous kills, cancels, a save, forced abilities and a card draw that nests."""
    last = players  # the last player in player order
    return Scenario(
        players=players,
        conditions=("kill_a", "kill_b", "saved_a", "draw"),
        start=("kill_a", "kill_b"),
        abilities=(
            Ability("cancel_a", 1, K.CANCEL_INTERRUPTS, "kill_a", Effect.CANCEL),
            Ability("cancel_b", last, K.CANCEL_INTERRUPTS, "kill_b", Effect.CANCEL),
            Ability("save_a", 1, K.WOULD_INTERRUPTS, "kill_a", Effect.CHANGE, into="saved_a"),
            Ability("forced_int", 1, K.FORCED_INTERRUPTS, "saved_a"),
            Ability("interrupt_saved", last, K.INTERRUPT_WINDOW, "saved_a"),
            Ability("react_draw", 1, K.REACTION_WINDOW, "kill_b", Effect.RAISE, into="draw"),
            Ability("react_saved", last, K.REACTION_WINDOW, "saved_a", Effect.RAISE, into="draw"),
            Ability("forced_react", last, K.FORCED_REACTIONS, "draw"),
            Ability("react_drawn", last, K.REACTION_WINDOW, "draw"),
        ),
        max_depth=max_depth,
    )


def declaration(mutant: str = "") -> Declaration:
    """The AGoT sequence declaration, or the named mutant of it."""
    if not mutant:
        return AGOT_SEQUENCE
    if mutant not in MUTANTS:
        raise ValueError(f"unknown mutant '{mutant}' (known: {', '.join(sorted(MUTANTS))})")
    return broken(mutant)


def build(players: int = 2, max_depth: int = 2, mutant: str = "") -> Model:
    decl = declaration(mutant)
    m = build_system(decl, scenario(players, max_depth), name="timing", doc=__doc__ or "")
    priority_shown_in_windows(m, decl)  # turn/passes shown only in a window; fresh is bookkeeping
    return m


def graph_checks(mutant: str = "", levels: int = 3) -> list[Result]:
    """The exhaustive graph checks as results (engine "graph")."""
    decl = declaration(mutant)
    g = timing_graph(decl, levels)
    out: list[Result] = []
    runs = [("sequence", r) for r in run_checks(decl, levels)]
    for melee, fmt in ((False, "joust"), (True, "melee")):  # Melee Game / Joust Game: each format's own round
        rnd = agot_round_for(melee)
        runs += [(f"round:{fmt}", r) for r in [*run_round_checks(rnd), check_round_format(rnd, melee)]]
    for what, r in runs:
        t0 = time.monotonic()
        trace = None
        reason = f"exhaustive over the {what} graph ({r.nodes} nodes/configurations, {levels} nesting levels)"
        if not r.ok:
            shown = r.show(g if what == "sequence" else None)
            reason = f"{r.reason}; path: {shown}"
            steps = tuple(
                TraceStep(
                    action=f"{a} -> {b}",
                    family="graph",
                    params=(),
                    choices=(),
                    description=f"{a} -> {b}",
                    changes=(Change("step", a, b),),
                )
                for a, b in zip(r.witness, r.witness[1:], strict=False)
            )
            trace = Trace(initial=(("step", r.witness[0]),) if r.witness else (), steps=steps)
        out.append(
            Result(
                system="timing",
                scenario=f"graph:{what}" + (f":{mutant}" if mutant else ""),
                property=r.name,
                kind="graph",
                cites=r.cites,
                verdict=Verdict.PROVED if r.ok else Verdict.VIOLATED,
                depth=0,
                engine="graph",
                seconds=round(time.monotonic() - t0, 3),
                trace=trace,
                reason=reason,
            )
        )
    return out
