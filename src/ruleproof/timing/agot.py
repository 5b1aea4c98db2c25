"""The AGoT 2.0 timing declaration: the sequence around a triggering condition and the round.

Sources (Rules Reference section names): Triggering Condition, Nested Ability
Sequences, Interrupts, Reactions, Forced Interrupts / Forced Reactions,
Cancel, The word "Would", Priority of Simultaneous Resolution, When Revealed,
Pass, First Player, and Appendix I (framework steps, Action Windows).

Cancel interrupts have timing priority over all other interrupts (Cancel:
"cancel abilities interrupt the initiation of an effect ... have timing
priority over all other interrupts to the effect"), and "would" interrupts
over interrupts without "would" (The word "Would"): the sequence opens a
cancel window, then a "would" window, before the forced interrupts.  In
every window the first player has the first opportunity, and after an
ability resolves opportunities continue in player order from the next
player (Pass: "opportunities to perform or pass continue clockwise in player
order until a state of consecutive passes by all players is achieved").  A
"would" interrupt that changes the condition (a save) makes the new
condition imminent: its "would" window opens again, and the cancel window
(which answers the initiation of the effect) is past.

Interpretations (the Rules Reference leaves these open):

* The cancel and "would" interrupt windows have the same turn-taking as the
  interrupt window (first player first, closes after all players pass
  consecutively).
* Action windows are declared only where the text of Appendix I names them
  (the marshaling phase player action window; the window between framework
  steps 4.1 and 4.2).  The chart's other red boxes are not in the text.
"""

from __future__ import annotations

from dataclasses import replace

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

__all__ = ["AGOT_ROUND", "AGOT_SEQUENCE", "AGOT_TIMING", "MUTANTS", "agot_round", "agot_sequence", "mutant"]

TC = "Triggering Condition"
NESTED = "Nested Ability Sequences"
FORCED = "Forced Interrupts / Forced Reactions"
WOULD = 'The word "Would"'
PRIORITY = "Priority of Simultaneous Resolution"
APPX = "Appendix I: Timing and Gameplay"

K = StepKind
M = MoveKind


def _ability_steps(
    name: str, kind: StepKind, label: str, cites: tuple[str, ...], window: Window, nest: bool = True
) -> tuple[list[Step], list[Move]]:
    """A window (or forced step), the resolving step of its abilities, and the moves between them."""
    res = f"{name}_resolving"
    steps = [
        Step(name, kind, label, cites, window=window),
        Step(res, K.RESOLVING, f"{label.split(' (')[0]}: ability resolves", cites),
    ]
    moves = [
        Move(name, res, M.INITIATE, "initiate an eligible ability", cites),
        Move(res, name, M.RESOLVE, "the ability resolves completely", cites),
    ]
    if nest:
        moves.append(Move(res, "imminent", M.NEST, "the ability raises a new triggering condition", (NESTED,)))
    return steps, moves


def agot_sequence() -> Declaration:
    """The sequence of interrupt and reaction opportunities around a triggering condition."""
    open_window = Window(Actor.FIRST_PLAYER, None, True, continues=True)
    forced = Window(Actor.FIRST_PLAYER, None, True)  # the first player orders forced abilities
    steps: list[Step] = [
        Step("imminent", K.IMMINENT, "Triggering condition becomes imminent", (TC,)),
        Step("changed", K.IMMINENT, "The changed triggering condition becomes imminent", (TC, WOULD)),
    ]
    moves: list[Move] = [Move("imminent", "cancels", M.PROCEED, "cancel interrupts may answer first", (TC, "Cancel"))]

    s, m = _ability_steps(
        "cancels", K.CANCEL_INTERRUPTS, "Cancel interrupts", (TC, "Cancel", "Interrupts"), open_window
    )
    steps += s
    moves += m
    moves += [
        Move("cancels_resolving", "cancelled", M.CANCEL, "a cancel interrupt cancels the condition", ("Cancel", TC)),
        Move("cancels", "would", M.PASS, "all players pass consecutively", (TC, "Pass")),
    ]
    s, m = _ability_steps("would", K.WOULD_INTERRUPTS, '"Would" interrupts', (TC, WOULD, "Interrupts"), open_window)
    steps += s
    moves += m
    moves += [
        Move("would_resolving", "changed", M.CHANGE, "a 'would' interrupt changes the condition", (TC, WOULD)),
        # the new condition is imminent; the effect's initiation (all a cancel refers to) is past
        Move("changed", "would", M.PROCEED, "'would' interrupts to the new condition may answer", (TC, WOULD)),
        Move("would", "forced_interrupts", M.PASS, "all players pass consecutively", (TC, "Pass")),
    ]
    s, m = _ability_steps(
        "forced_interrupts",
        K.FORCED_INTERRUPTS,
        "Forced interrupts (first player orders)",
        (TC, FORCED, PRIORITY),
        forced,
    )
    steps += s
    moves += m
    moves.append(
        Move("forced_interrupts", "interrupts", M.PROCEED, "every forced interrupt has resolved", (TC, FORCED))
    )
    s, m = _ability_steps("interrupts", K.INTERRUPT_WINDOW, "Interrupt window", (TC, "Interrupts"), open_window)
    steps += s
    moves += m
    moves.append(Move("interrupts", "occurs", M.PASS, "all players pass consecutively", ("Interrupts", "Pass")))
    steps.append(Step("occurs", K.OCCURS, "The triggering condition occurs", (TC,)))
    moves.append(Move("occurs", "forced_reactions", M.PROCEED, "reactions may answer", (TC, "Reactions")))
    s, m = _ability_steps(
        "forced_reactions", K.FORCED_REACTIONS, "Forced reactions (first player orders)", (TC, FORCED, PRIORITY), forced
    )
    steps += s
    moves += m
    moves.append(Move("forced_reactions", "reactions", M.PROCEED, "every forced reaction has resolved", (TC, FORCED)))
    s, m = _ability_steps("reactions", K.REACTION_WINDOW, "Reaction window", (TC, "Reactions"), open_window)
    steps += s
    moves += m
    moves.append(Move("reactions", "closed", M.PASS, "all players pass consecutively", ("Reactions", "Pass")))
    steps += [
        Step("closed", K.CLOSED, "Sequence complete", (TC, NESTED), outcome=Outcome.COMPLETED),
        Step("cancelled", K.CLOSED, "Condition cancelled", ("Cancel", TC), outcome=Outcome.CANCELLED),
    ]
    moves += [
        Move("closed", CALLER, M.RETURN, "the game returns to where it left off", (NESTED,)),
        Move("cancelled", CALLER, M.RETURN, "the game returns to where it left off", (NESTED,)),
    ]
    return Declaration(
        name="agot-triggering-condition",
        entry="imminent",
        steps=tuple(steps),
        moves=tuple(moves),
        queue_order=QueueOrder.LIFO,
        shared_windows=True,
        cites=(TC, NESTED, "Interrupts", "Reactions", FORCED, "Cancel", WOULD, PRIORITY),
        doc="Interrupts, the occurrence and reactions around one triggering condition; nested sequences LIFO.",
    )


# (number, label, melee only) per phase.
_PHASES: tuple[tuple[str, tuple[tuple[str, str, bool], ...]], ...] = (
    (
        "1. Plot phase",
        (
            ("1.1", "Plot phase begins", False),
            ("1.2", "Choose plots", False),
            ("1.3", "Reveal plots (initiative, first player, When Revealed)", False),
            ("1.4", "Select titles", True),
            ("1.5", "Plot phase ends", False),
        ),
    ),
    ("2. Draw phase", (("2.1", "Draw phase begins", False), ("2.2", "Draw", False), ("2.3", "Draw phase ends", False))),
    (
        "3. Marshaling phase",
        (
            ("3.1", "Marshaling phase begins", False),
            ("3.2", "Active player collects income", False),
            ("3.3", "Next player becomes active player", False),
            ("3.4", "Marshaling phase ends", False),
        ),
    ),
    (
        "4. Challenges phase",
        (
            ("4.1", "Challenges phase begins", False),
            ("4.2", "Active player may initiate a challenge", False),
            ("4.2.1", "Defending player declares defenders", False),
            ("4.2.2", "Compare STR to determine challenge winner", False),
            ("4.2.3", "Gain challenge bonuses", False),
            ("4.2.4", "Apply claim result", False),
            ("4.2.5", "Process challenge resolution keywords", False),
            ("4.2.6", "Challenge ends", False),
            ("4.3", "Next player becomes active player", False),
            ("4.4", "Challenges phase ends", False),
        ),
    ),
    (
        "5. Dominance phase",
        (
            ("5.1", "Dominance phase begins", False),
            ("5.2", "Determine dominance", False),
            ("5.3", "Dominance phase ends", False),
        ),
    ),
    (
        "6. Standing phase",
        (("6.1", "Standing phase begins", False), ("6.2", "Stand cards", False), ("6.3", "Standing phase ends", False)),
    ),
    (
        "7. Taxation phase",
        (
            ("7.1", "Taxation phase begins", False),
            ("7.2", "Return unspent gold", False),
            ("7.3", "Check reserve", False),
            ("7.4", "Return melee title cards", True),
            ("7.5", "Taxation phase ends", False),
        ),
    ),
)


def _fw(number: str) -> str:
    return "fw_" + number.replace(".", "_")


def agot_round() -> Declaration:
    """Appendix I: the framework steps of a round and where action windows open."""
    steps: list[Step] = []
    moves: list[Move] = []
    for phase, items in _PHASES:
        for number, label, melee in items:
            cites = (APPX, "When Revealed") if number == "1.3" else (APPX,)
            steps.append(
                Step(
                    _fw(number),
                    K.FRAMEWORK_EVENT,
                    f"{number} {label}",
                    cites,
                    number=number,
                    phase=phase,
                    melee_only=melee,
                )
            )
    aw = Window(Actor.FIRST_PLAYER, None, False)

    def window(name: str, label: str, phase: str, number: str) -> None:
        steps.append(
            Step(name, K.ACTION_WINDOW, label, (APPX, "Action Windows"), window=aw, number=number, phase=phase)
        )
        steps.append(
            Step(
                f"{name}_resolving",
                K.RESOLVING,
                "an action / player action resolves",
                (APPX, "Action Windows"),
                number=number,
                phase=phase,
            )
        )
        moves.append(Move(name, f"{name}_resolving", M.INITIATE, "initiate an action", ("Action Windows",)))
        moves.append(Move(f"{name}_resolving", name, M.RESOLVE, "resolve it completely", ("Action Windows",)))

    window("aw_marshal", "Marshaling action window (marshal, actions)", "3. Marshaling phase", "3.2+")
    window("aw_challenges", "Action window (4.1 - 4.2)", "4. Challenges phase", "4.1+")

    def go(a: str, b: str, kind: MoveKind = M.PROCEED, label: str = "") -> None:
        moves.append(Move(a, b, kind, label, (APPX,)))

    chain = [
        ("1.1", "1.2"),
        ("1.2", "1.3"),
        ("1.4", "1.5"),
        ("1.5", "2.1"),
        ("2.1", "2.2"),
        ("2.2", "2.3"),
        ("2.3", "3.1"),
        ("3.1", "3.2"),
        ("3.4", "4.1"),
        ("4.2.1", "4.2.2"),
        ("4.2.2", "4.2.3"),
        ("4.2.3", "4.2.4"),
        ("4.2.4", "4.2.5"),
        ("4.2.5", "4.2.6"),
        ("4.4", "5.1"),
        ("5.1", "5.2"),
        ("5.2", "5.3"),
        ("5.3", "6.1"),
        ("6.1", "6.2"),
        ("6.2", "6.3"),
        ("6.3", "7.1"),
        ("7.1", "7.2"),
        ("7.2", "7.3"),
        ("7.4", "7.5"),
    ]
    for a, b in chain:
        go(_fw(a), _fw(b))
    go(_fw("1.3"), _fw("1.4"), M.PROCEED, "melee game")
    go(_fw("1.3"), _fw("1.5"), M.PROCEED, "joust game: skip 1.4")
    go(_fw("7.3"), _fw("7.4"), M.PROCEED, "melee game")
    go(_fw("7.3"), _fw("7.5"), M.PROCEED, "joust game: skip 7.4")
    go(_fw("3.2"), "aw_marshal")
    go("aw_marshal", _fw("3.3"), M.PASS, "all players pass consecutively")
    go(_fw("3.3"), _fw("3.2"), M.LOOP, "a player has not yet been active")
    go(_fw("3.3"), _fw("3.4"), M.PROCEED, "all players have been active")
    go(_fw("4.1"), "aw_challenges")
    go("aw_challenges", _fw("4.2"), M.PASS, "all players pass consecutively")
    go(_fw("4.2"), _fw("4.2.1"), M.PROCEED, "a challenge is initiated")
    go(_fw("4.2"), _fw("4.3"), M.PASS, "the active player passes")
    go(_fw("4.2.6"), "aw_challenges", M.LOOP, "back to the action window")
    go(_fw("4.3"), "aw_challenges", M.LOOP, "the next player becomes active")
    go(_fw("4.3"), _fw("4.4"), M.PROCEED, "all players have been active")
    go(_fw("7.5"), _fw("1.1"), M.LOOP, "next round")
    return Declaration(
        name="agot-round",
        entry=_fw("1.1"),
        steps=tuple(steps),
        moves=tuple(moves),
        cites=(APPX, "Action Windows", "When Revealed", "First Player, First Player Token"),
        doc="Appendix I framework events of one round, with the action windows its text names.",
    )


AGOT_SEQUENCE = agot_sequence()
AGOT_ROUND = agot_round()


def agot_round_for(melee: bool) -> Declaration:
    """The round of one game format: a melee game uses the title steps 1.4 and 7.4, a joust game skips them.

    Melee Game: melee games use the title cards and the framework steps (1.4 and 7.4) associated with them; Joust
    Game: they are not used in a joust game.  :data:`AGOT_ROUND` (drawn by ``ruleproof graph``) holds both branches.
    """
    title_steps = [s.name for s in AGOT_ROUND.steps if s.melee_only]
    if melee:
        return AGOT_ROUND.with_moves(
            drop=[(m.source, m.target) for m in AGOT_ROUND.moves if m.label.startswith("joust game")]
        )
    out = AGOT_ROUND.with_moves(drop=[(m.source, m.target) for m in AGOT_ROUND.moves if m.target in title_steps])
    for name in title_steps:
        out = out.without_step(name)
    return out
AGOT_TIMING = GameTiming("agot", AGOT_SEQUENCE, AGOT_ROUND)


# ---------------------------------------------------------------------------- deliberately broken variants

MUTANTS: dict[str, str] = {
    "close_after_one_pass": "the reaction window closes after a single pass",
    "active_player_first": "the interrupt window opens with the active player, not the first player",
    "repeatable_interrupts": "an interrupt may be initiated again for the same triggering condition",
    "unshared_windows": "conditions from one occurrence each open their own sequence",
    "reactions_before_occurrence": "the reaction steps come before the condition occurs",
    "interrupts_after_occurrence": "the interrupt window opens after the condition occurs",
    "no_forced_reactions": "the forced-reaction step is removed",
    "window_before_forced": "the interrupt window opens before the forced interrupts",
    "fifo": "raised conditions wait in a first-in-first-out queue",
    "cancel_continues": "a cancelled condition still goes on to the forced interrupts",
    "cancel_after_would": "the cancel window comes after the 'would' window: a cancel may follow a save",
    "first_player_after_resolve": "after an ability resolves, the first player has the next opportunity again",
    "return_elsewhere": "a nested sequence returns to the occurrence of its parent, not to the ability that raised it",
    "window_never_closes": "the reaction window has no pass move",
}
"""Mutant names and what each breaks (for tests and ``mutant=`` build parameters)."""


def mutant(name: str, base: Declaration | None = None) -> Declaration:
    """The AGoT sequence declaration broken as ``MUTANTS[name]`` says."""
    d = base or AGOT_SEQUENCE
    if name == "close_after_one_pass":
        return d.with_window("reactions", passes_to_close=1)
    if name == "active_player_first":
        return d.with_window("interrupts", first=Actor.ACTIVE_PLAYER)
    if name == "repeatable_interrupts":
        return d.with_window("interrupts", once_per_condition=False)
    if name == "unshared_windows":
        return replace(d, shared_windows=False)
    if name == "reactions_before_occurrence":
        return d.with_moves(
            drop=[("interrupts", "occurs"), ("occurs", "forced_reactions"), ("reactions", "closed")],
            add=[
                Move("interrupts", "forced_reactions", M.PASS, "all players pass consecutively"),
                Move("reactions", "occurs", M.PASS, "all players pass consecutively"),
                Move("occurs", "closed", M.PROCEED, "done"),
            ],
        )
    if name == "interrupts_after_occurrence":
        return d.with_moves(
            drop=[("forced_interrupts", "interrupts"), ("interrupts", "occurs"), ("occurs", "forced_reactions")],
            add=[
                Move("forced_interrupts", "occurs", M.PROCEED, "every forced interrupt has resolved"),
                Move("occurs", "interrupts", M.PROCEED, "interrupts may answer"),
                Move("interrupts", "forced_reactions", M.PASS, "all players pass consecutively"),
            ],
        )
    if name == "no_forced_reactions":
        return d.without_step("forced_reactions")
    if name == "window_before_forced":
        return d.with_moves(
            drop=[("would", "forced_interrupts"), ("forced_interrupts", "interrupts"), ("interrupts", "occurs")],
            add=[
                Move("would", "interrupts", M.PASS, "all players pass consecutively"),
                Move("interrupts", "forced_interrupts", M.PASS, "all players pass consecutively"),
                Move("forced_interrupts", "occurs", M.PROCEED, "every forced interrupt has resolved"),
            ],
        )
    if name == "fifo":
        return replace(d, queue_order=QueueOrder.FIFO)
    if name == "cancel_continues":
        return d.with_moves(
            drop=[("cancels_resolving", "cancelled")],
            add=[Move("cancels_resolving", "forced_interrupts", M.CANCEL, "cancel")],
        )
    if name == "cancel_after_would":
        # the cancel window comes after the 'would' window: a cancel can follow a save
        return d.with_moves(
            drop=[("imminent", "cancels"), ("cancels", "would"), ("would", "forced_interrupts")],
            add=[
                Move("imminent", "would", M.PROCEED, "interrupts may answer"),
                Move("would", "cancels", M.PASS, "all players pass consecutively"),
                Move("cancels", "forced_interrupts", M.PASS, "all players pass consecutively"),
            ],
        )
    if name == "first_player_after_resolve":
        out = d
        for w in ("cancels", "would", "interrupts", "reactions"):
            out = out.with_window(w, continues=False)
        return out
    if name == "return_elsewhere":
        return d.with_moves(
            drop=[("closed", CALLER), ("cancelled", CALLER)],
            add=[Move("closed", "occurs", M.RETURN, "resume"), Move("cancelled", "occurs", M.RETURN, "resume")],
        )
    if name == "window_never_closes":
        return d.with_moves(drop=[("reactions", "closed")])
    raise KeyError(name)
