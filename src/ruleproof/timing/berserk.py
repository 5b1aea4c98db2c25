"""The Berserk. Heroes Очередь (queue) as a timing declaration.

Sources: seed 003 (111.4: abilities that must work at the same time interact
through the Очередь) and ``reference/berserk-rules-notes.md`` section 4 (the
table of section 112: activated and triggered abilities enter the Очередь and
their effects apply when they resolve; triggered abilities always run unless
they say «может»; 118.1: targets are named when an ability is declared into
the Очередь).

One entry of the Очередь is one sequence of this declaration:

1. ``declared``: the ability is declared into the Очередь (an activated
   ability's cost is paid; targets are named);
2. ``responses``: players may activate abilities in response; each one is a
   new entry (a nested sequence);
3. ``resolves``: the entry resolves and its effects apply;
4. ``triggered``: mandatory triggered abilities that the effects triggered
   enter the Очередь (each a new entry);
5. ``optional``: optional triggered abilities («может»): the controller may
   decline;
6. ``closed``.

Whether the mandatory triggered abilities enter before the optional ones (steps 4
then 5) or after them (5 then 4) is not stated in any stored source either (111.4
and the table say only that a mandatory one always runs and an optional one at its
controller's consent; review F12): :func:`berserk_sequence` takes it as the
parameter ``mandatory_first``, and both settings are checked.

Which entry resolves first is not stated in any stored source (notes, section
4: "Очередь order: not found"): :func:`berserk_sequence` takes the order as a
parameter, LIFO (the recommended default) or FIFO, and both are checked.
Interpretations: who responds first is the active player; a window closes
when every player has passed consecutively.
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

__all__ = ["BERSERK_TIMING", "berserk_sequence", "berserk_timing"]

Q = "111.4"
TABLE = "112"
TARGETS = "118.1"
K = StepKind
M = MoveKind


def berserk_sequence(order: QueueOrder = QueueOrder.LIFO, mandatory_first: bool = True) -> Declaration:
    """One entry of the Очередь, from declaration to resolution; entries ordered by ``order``; the mandatory
    triggered abilities an entry triggers enter the Очередь before the optional ones (``mandatory_first``) or
    after them (review F12: no source says which)."""
    window = Window(Actor.ACTIVE_PLAYER, None, True)
    forced = Window(Actor.ACTIVE_PLAYER, None, True)
    steps = [
        Step("declared", K.IMMINENT, "Ability declared into the Очередь (cost paid, targets named)",
             (Q, TABLE, TARGETS)),
        Step("responses", K.INTERRUPT_WINDOW, "Responses: players may activate abilities", (Q, TABLE), window=window),
        Step("responses_resolving", K.RESOLVING, "A response is declared into the Очередь", (Q, TABLE)),
        Step("resolves", K.OCCURS, "The entry resolves: its effects apply", (TABLE,)),
        Step("triggered", K.FORCED_REACTIONS, "Mandatory triggered abilities enter the Очередь", (TABLE,),
             window=forced),
        Step("triggered_resolving", K.RESOLVING, "A triggered ability is declared into the Очередь", (TABLE,)),
        Step("optional", K.REACTION_WINDOW, "Optional triggered abilities («может»): the controller may decline",
             (TABLE,), window=window),
        Step("optional_resolving", K.RESOLVING, "An optional triggered ability is declared into the Очередь", (TABLE,)),
        Step("closed", K.CLOSED, "The entry has left the Очередь", (Q,), outcome=Outcome.COMPLETED),
    ]
    moves = [
        Move("declared", "responses", M.PROCEED, "players may respond", (Q,)),
        Move("responses", "responses_resolving", M.INITIATE, "activate an ability in response", (TABLE,)),
        Move("responses_resolving", "responses", M.RESOLVE, "the response is in the Очередь", (TABLE,)),
        Move("responses_resolving", "declared", M.NEST, "the response is a new entry of the Очередь", (Q,)),
        Move("responses", "resolves", M.PASS, "all players pass consecutively", (Q,)),
        Move("resolves", "triggered" if mandatory_first else "optional", M.PROCEED,
             "its effects may trigger abilities", (TABLE,)),
        Move("triggered", "triggered_resolving", M.INITIATE, "a mandatory triggered ability triggers", (TABLE,)),
        Move("triggered_resolving", "triggered", M.RESOLVE, "it is in the Очередь", (TABLE,)),
        Move("triggered_resolving", "declared", M.NEST, "it is a new entry of the Очередь", (Q,)),
        Move("triggered", "optional" if mandatory_first else "closed", M.PROCEED,
             "every mandatory triggered ability has entered", (TABLE,)),
        Move("optional", "optional_resolving", M.INITIATE, "the controller uses an optional triggered ability",
             (TABLE,)),
        Move("optional_resolving", "optional", M.RESOLVE, "it is in the Очередь", (TABLE,)),
        Move("optional_resolving", "declared", M.NEST, "it is a new entry of the Очередь", (Q,)),
        Move("optional", "closed" if mandatory_first else "triggered", M.PASS, "all players pass consecutively",
             (TABLE,)),
        Move("closed", CALLER, M.RETURN, "the next entry of the Очередь", (Q,)),
    ]
    if not mandatory_first:  # the optional triggered abilities' window, then the mandatory ones (review F12)
        steps = [*steps[:4], *steps[6:8], *steps[4:6], steps[8]]
    return Declaration(
        name=f"berserk-ochered-{order.value.lower()}" + ("" if mandatory_first else "-optional-first"),
        entry="declared",
        steps=tuple(steps),
        moves=tuple(moves),
        queue_order=order,
        shared_windows=True,
        cites=(Q, TABLE, TARGETS),
        doc=f"One entry of the Berserk. Heroes Очередь; entries resolve {order.value}."
        + ("" if mandatory_first else " The mandatory triggered abilities enter after the optional ones."),
    )


def berserk_timing(order: QueueOrder = QueueOrder.LIFO) -> GameTiming:
    """Berserk's timing: the Очередь (no round framework declared)."""
    return GameTiming("Berserk. Heroes", berserk_sequence(order))


BERSERK_TIMING = berserk_timing()
