"""Berserk. Heroes: the Очередь (queue) as a system generated from its timing declaration.

The declaration is :mod:`ruleproof.timing.berserk` (111.4, the section 112
table, 118.1); ``ruleproof graph model/berserk --what timing`` draws it.  The
scenario follows the cards of ``abilities111.py``: the hero Свирепый резак
activates "Вайл получает Рывок" (the first entry); the opponent's Заклинатель
may respond with "Вайл теряет Рывок" (a new entry); when Вайл gains Рывок,
the mandatory triggered ability of Боевой рог enters the Очередь, and Талос's
optional triggered ability («может») may.  The order in which entries resolve
is not stated in any stored source, so it is the scenario parameter
``order``: both ``lifo`` and ``fifo`` are checked.  Nor is whether the mandatory
triggered abilities an entry triggers (Боевой рог) enter the Очередь before the
optional ones (Талос) or after them (111.4 and the table say only that a mandatory
one always runs and an optional one at its controller's consent; review F12): the
parameter ``triggered`` (``mandatory_first``, the declaration's former fixed order,
or ``optional_first``), both checked with each order.

The deliberately broken rules are edits in ``mutants/berserk/timing.py``.
"""

from __future__ import annotations

from ruleproof.dsl import Model
from ruleproof.timing.berserk import BERSERK_TIMING, berserk_sequence
from ruleproof.timing.declaration import QueueOrder, StepKind
from ruleproof.timing.system import Ability, Effect, Scenario, build_system, priority_shown_in_windows

__all__ = ["TIMING", "TRIGGERED", "SCENARIOS", "CHECKED", "build", "scenario"]

TIMING = BERSERK_TIMING

TRIGGERED = ("mandatory_first", "optional_first")
SCENARIOS = {
    "lifo": {"order": "lifo", "players": 2, "max_depth": 2},
    "fifo": {"order": "fifo", "players": 2, "max_depth": 3},  # FIFO frees no slot until the end: one per entry
    "lifo_optional_first": {"order": "lifo", "players": 2, "max_depth": 2, "triggered": "optional_first"},
    "fifo_optional_first": {"order": "fifo", "players": 2, "max_depth": 3, "triggered": "optional_first"},
}
CHECKED = ("lifo", "fifo", "lifo_optional_first", "fifo_optional_first")

K = StepKind


def scenario(players: int = 2, max_depth: int = 2) -> Scenario:
    """Свирепый резак's grant, the opponent's response, a mandatory and an optional triggered ability."""
    return Scenario(
        players=players,
        conditions=("grant", "remove", "horn", "copy"),
        start=("grant",),
        abilities=(
            Ability("zaklinatel", players, K.INTERRUPT_WINDOW, "grant", Effect.RAISE, into="remove"),
            Ability("boevoy_rog", 1, K.FORCED_REACTIONS, "grant", Effect.RAISE, into="horn"),
            Ability("talos", 1, K.REACTION_WINDOW, "grant", Effect.RAISE, into="copy"),
        ),
        max_depth=max_depth,
    )


def build(order: str = "lifo", players: int = 2, max_depth: int = 2, triggered: str = "mandatory_first") -> Model:
    if order not in ("lifo", "fifo"):
        raise ValueError(f"unknown Очередь order '{order}' (known: lifo, fifo)")
    if triggered not in TRIGGERED:
        raise ValueError(f"unknown order of triggered abilities '{triggered}' (known: {', '.join(TRIGGERED)})")
    seq = berserk_sequence(QueueOrder.LIFO if order == "lifo" else QueueOrder.FIFO,
                           mandatory_first=triggered == "mandatory_first")
    m = build_system(seq, scenario(players, max_depth), name="ochered", doc=__doc__ or "")
    m.params.update(order=order, max_depth=max_depth, triggered=triggered)
    # "fresh" (a window was just opened) is a record no Berserk rule reads; priority (who may act next, how many
    # players passed in a row) exists only while an entry's window is open
    priority_shown_in_windows(m, seq)
    return m
