"""Properties of triggered-ability initiation: limits, maxima, costs, cancels, May and Forced.

Each property restates a rule from the Rules Reference over the state and
the observation variables (``g_period``: initiations of a card's current
object this period; ``g_title``: initiations of a title by a player this
round; ``g_occ``: initiations of a card's current object against the open
occurrence; ``declined``: the last reaction window closed while an optional
reaction could still be initiated); "the rules allow it" is spelled out here
from the sections, not taken from the model's guards.  The model writes these
observations and never reads them, and the game shows none of them
(``observable=False``): the properties "the records of initiations follow the
game (...)" tie each one to the game's steps (one more initiation when a card's
ability begins to initiate, none once its period ends, none for a card that
enters play, none once a triggering condition occurs), so a record the model
keeps wrong is caught rather than trusted.  Properties marked *strengthening*
relate the game's bookkeeping to those observations; they are rules in their
own right ("the count the game keeps for a copy is the number of times that
object's ability was used this period") and make the others provable by
induction.
"""

from __future__ import annotations

from typing import Callable

from ruleproof.dsl import And, ForAll, If, Implies, Model, Not, Or, Term, Transition

__all__ = ["register"]

LIMITS = "Limits and Maxima"
INIT = "Initiating Abilities / Marshaling Cards"
# the steps that write the observation variables (no other step writes them)
RECORDING = ("initiate", "play_event", "occur", "close_window", "end_phase", "end_round", "enter_play")


def register(m: Model) -> None:
    """Add the ability-initiation properties to ``m``."""
    v, s, st = m.v, m.sorts, m.statics
    Card, Player, Title = s.Card, s.Player, s.Title
    chars = [c for c in Card if not st.is_event.value(c.name)]
    events = [c for c in Card if st.is_event.value(c.name)]
    event_titles = sorted({str(st.title.value(e.name)) for e in events})

    def event(c: Term) -> bool:
        return bool(st.is_event.value(c.name))

    def optional(c: Term) -> bool:
        return not event(c) and not bool(st.forced.value(c.name))

    def started(t: Transition, c: Term) -> Term:
        """The step initiated ``c``'s ability: its effect is now attempting to initiate."""
        return And(t.post(v.busy), t.post(v.src) == c)

    def forced_still_due(c: Term) -> Term:
        """Forced reaction ``c`` must still be initiated for the open occurrence (the rules allow it)."""
        return And(
            v.zone[c] == "play",
            v.g_occ[c] == 0,
            v.g_period[c] < v.printed[v.title[c]],
            v.deck[v.owner[c]] >= 1,
        )

    forced = [c for c in chars if st.forced.value(c.name)]
    no_forced_due = And(*(Not(forced_still_due(c)) for c in forced))

    # ------------------------------------------------------------- strengthening
    m.invariant(
        "printed limits and maxima are positive and counts are never negative (strengthening)",
        And(
            ForAll(Title, lambda t: And(v.printed[t] >= 1, v.printed[t] <= m.params["max_n"])),
            ForAll(Card, lambda c: And(v.uses[c] >= 0, v.g_period[c] >= 0, v.g_occ[c] >= 0)),
            ForAll(
                Player, lambda p: And(v.gold[p] >= 0, v.deck[p] >= 0, ForAll(Title, lambda t: v.g_title[p, t] >= 0))
            ),
        ),
        cites=[LIMITS, "Negative Quantities"],
    )
    m.invariant(
        "an initiation in progress belongs to the open window and its card's area (strengthening)",
        And(
            Implies(v.busy, v.open),
            ForAll(
                Card,
                lambda c: And(
                    Implies(
                        And(v.busy, v.src == c),
                        And(v.zone[c] == ("playing" if event(c) else "play"), v.deck[v.owner[c]] >= 1),
                    ),
                    Implies(v.zone[c] == "playing", And(v.busy, v.src == c)),
                    Implies(v.is_event[c], v.zone[c] != "play"),
                    Implies(~v.is_event[c], v.zone[c] != "playing"),
                ),
            ),
        ),
        cites=[INIT, "Event Cards"],
        doc="FAQ (1.5): an event being played is in no out-of-play area until it is placed in the discard pile.",
    )
    m.invariant(
        "the count of a copy's limit is the uses of its current object this period (strengthening)",
        ForAll(Card, lambda c: v.uses[c] == If(And(~v.is_event[c], v.zone[c] == "play"), v.g_period[c], 0)),
        cites=[LIMITS, "Leaves Play"],
    )
    m.invariant(
        "the count of a title's maximum is its uses by the player this round (strengthening)",
        ForAll(Player, lambda p: ForAll(Title, lambda t: v.max_used[p, t] == v.g_title[p, t])),
        cites=[LIMITS],
    )
    m.invariant(
        "a copy is marked used for the open occurrence exactly when it reacted to it (strengthening)",
        ForAll(
            Card,
            lambda c: If(
                And(v.open, v.zone[c] == "play"),
                v.g_occ[c] == If(v.answered[c], 1, 0),
                And(Not(v.answered[c]), v.g_occ[c] <= 1),
            ),
        ),
        cites=["Reactions"],
    )
    # ------------------------------------------------------------- the observations, tied to the game
    # The observation variables are written by the model and read here; these properties say what each one
    # records in terms of the game's own steps, so that a wrong record is caught, not trusted.  (Declared after
    # the strengthening invariants: properties are proved in declaration order, each with the earlier ones as
    # lemmas, and the close_window tie is inductive only with them.)
    def begins(t: Transition, c: Term) -> Term:
        """The step begins an initiation of ``c``'s ability: nothing was being initiated, now ``c``'s effect is."""
        return And(Not(v.busy), started(t, c))

    def enters(t: Transition, c: Term) -> Term:
        """The step puts ``c`` into play from an out of play area: a new object (In Play and Out of Play)."""
        return And(Not(v.zone[c] == "play"), t.post(v.zone[c]) == "play")

    def period_ends(fam: str, c: Term) -> bool:
        """The step ends the period of ``c``'s limit: a phase ends at end_phase and end_round, a round at end_round."""
        return fam == "end_round" or (fam == "end_phase" and str(st.period.value(c.name)) == "phase")

    def optional_open(c: Term) -> Term:
        """Optional reaction ``c`` could still be initiated against the open occurrence (the rules allow it)."""
        return And(v.zone[c] == "play", ~v.knelt[c], v.g_occ[c] == 0, v.g_period[c] < v.printed[v.title[c]],
                   v.deck[v.owner[c]] >= 1)

    def records_follow(fam: str) -> Callable[..., Term]:
        def cond(t: Transition, *_ps: Term) -> Term:
            per_card = [
                And(
                    t.post(v.g_period[c])
                    == (0 if period_ends(fam, c) else If(enters(t, c), 0, v.g_period[c] + If(begins(t, c), 1, 0))),
                    t.post(v.g_occ[c])
                    == If(Or(enters(t, c), And(Not(v.open), t.post(v.open))), 0, v.g_occ[c] + If(begins(t, c), 1, 0)),
                )
                for c in chars
            ]
            per_title = [
                t.post(v.g_title[p, ti])
                == (
                    0
                    if fam == "end_round"
                    else v.g_title[p, ti]
                    + If(Or(False, *(begins(t, e) for e in events if st.owner.value(e.name) == p.name
                                     and st.title.value(e.name) == ti.name)), 1, 0)
                )
                for p in Player
                for ti in Title
            ]
            closes = And(v.open, Not(t.post(v.open)))
            declined = t.post(v.declined) == If(closes, Or(False, *(optional_open(c) for c in chars if optional(c))),
                                                v.declined)
            return And(*per_card, *per_title, declined)

        return cond

    for fam in RECORDING:
        m.action_property(
            f"the records of initiations follow the game ({fam})",
            fam,
            records_follow(fam),
            cites=[LIMITS, "Reactions", "In Play and Out of Play", "Leaves Play", "May"],
            doc="What the observations the other properties read record, stated on the game's steps: an object's "
            "initiations this period (one more when its ability begins to initiate; none for a card that enters "
            "play, a new object, and none once its period ends), a player's initiations of a title's events this "
            "round (none once the round ends), an object's initiations against the current occurrence (none once "
            "a triggering condition occurs or the card enters play), and whether the last reaction window closed "
            "while an optional reaction could still be initiated.",
        )

    # ------------------------------------------------------------- limits and maxima
    m.invariant(
        "each copy of an ability is used at most its limit per period",
        ForAll(Card, lambda c: Implies(~v.is_event[c], v.g_period[c] <= v.printed[v.title[c]])),
        cites=[LIMITS, "Cancel"],
        doc="Limit X per period: each copy may be used X times during the period; cancelled uses count.",
    )
    m.invariant(
        "each player initiates a title's ability at most its maximum per round",
        And(*(v.g_title[p, t] <= v.printed[t] for p in Player for t in Title if t.name in event_titles)),
        cites=[LIMITS, "Max X (copies) (per period)", "Copy (of a card)", "Cancel"],
        doc="Max X per round counts initiations from all copies (by title), per player; cancelled ones count.",
    )

    def char_may_initiate(t: Transition, c: Term) -> Term:
        rules_allow = And(
            v.zone[c] == "play",
            v.g_occ[c] == 0,
            v.g_period[c] < v.printed[v.title[c]],
            v.deck[v.owner[c]] >= 1,
            True if st.forced.value(c.name) else And(~v.knelt[c], no_forced_due),
        )
        return Implies(rules_allow, started(t, c))

    m.action_property(
        "a copy of an ability under its limit can be initiated",
        "initiate",
        char_may_initiate,
        cites=[LIMITS, "Reactions", INIT, "Copy (of a card)"],
        doc="Each copy may be used X times per period, whatever other copies of the title did; a card that "
        "left and re-entered play brings a new copy with a fresh limit.",
    )

    def event_may_be_played(t: Transition, e: Term) -> Term:
        p, ti = v.owner[e], v.title[e]
        rules_allow = And(
            v.zone[e] == "hand", v.g_title[p, ti] < v.printed[ti], v.deck[p] >= 1, v.gold[p] >= v.cost[e], no_forced_due
        )
        return Implies(rules_allow, started(t, e))

    m.action_property(
        "an event under its player's maximum can be played",
        "play_event",
        event_may_be_played,
        cites=[LIMITS, "Max X (copies) (per period)", INIT, "Event Cards"],
        doc="All limits and maxima are player specific: another player's plays of the title do not count.",
    )
    m.action_property(
        "a card entering play brings a new copy of its ability",
        "enter_play",
        lambda t, c: And(t.post(v.uses[c]) == 0, Not(t.post(v.answered[c]))),
        cites=[LIMITS, "In Play and Out of Play"],
        doc="If a card leaves play and re-enters play during the same period, it brings a new copy of the "
        "ability: nothing of the old object's uses counts against it.",
    )

    # ------------------------------------------------------------- once per occurrence
    m.invariant(
        "each copy is initiated at most once per occurrence of its triggering condition",
        ForAll(Card, lambda c: v.g_occ[c] <= 1),
        cites=["Triggered Abilities", "Reactions", "Interrupts", "Triggering Condition"],
    )

    # ------------------------------------------------------------- initiation: restrictions and costs
    def where_from(t: Transition, c: Term) -> Term:
        return Implies(started(t, c), v.zone[c] == ("hand" if event(c) else "play"))

    m.action_property(
        "a character's ability is initiated only from play",
        "initiate",
        where_from,
        cites=["Abilities", "In Play and Out of Play"],
    )
    m.action_property(
        "an event is played only from its owner's hand",
        "play_event",
        where_from,
        cites=["Event Cards", INIT],
    )

    def effect_changes_state(t: Transition, c: Term) -> Term:
        return Implies(started(t, c), v.deck[v.owner[c]] >= 1)

    for fam in ("initiate", "play_event"):
        m.action_property(
            f"an ability is initiated only if its effect would change the game state ({fam})",
            fam,
            effect_changes_state,
            cites=["Abilities", "Costs"],
            doc="A 'draw 1 card' effect with an empty deck does not change the game state.",
        )

    def cost_payable(t: Transition, c: Term) -> Term:
        if event(c):
            return Implies(started(t, c), v.gold[v.owner[c]] >= v.cost[c])
        return Implies(started(t, c), True if st.forced.value(c.name) else ~v.knelt[c])

    def cost_paid(t: Transition, c: Term) -> Term:
        if event(c):
            p = v.owner[c]
            return Implies(started(t, c), t.post(v.gold[p]) == v.gold[p] - v.cost[c])
        return Implies(started(t, c), t.post(v.knelt[c]) if optional(c) else True)

    for fam in ("initiate", "play_event"):
        m.action_property(
            f"an ability is initiated only if its cost can be paid ({fam})",
            fam,
            cost_payable,
            cites=["Abilities", "Costs", INIT],
        )
        m.action_property(
            f"initiating an ability pays its cost ({fam})",
            fam,
            cost_paid,
            cites=["Costs", INIT],
        )

    # ------------------------------------------------------------- cancel
    def costs_stay(t: Transition) -> Term:
        return And(
            *(t.post(v.knelt[d]) == v.knelt[d] for d in chars),
            *(t.post(v.gold[p]) == v.gold[p] for p in Player),
        )

    m.action_property(
        "a cancelled ability's costs stay paid",
        "cancel",
        costs_stay,
        cites=["Cancel", "Costs"],
    )
    m.action_property(
        "a cancelled ability still counts against its limit or maximum",
        "cancel",
        lambda t: And(
            *(t.post(v.uses[d]) == v.uses[d] for d in chars),
            *(t.post(v.max_used[p, ti]) == v.max_used[p, ti] for p in Player for ti in Title),
        ),
        cites=["Cancel", LIMITS],
        doc="When the effects of an ability are canceled, the ability is still considered to have been used.",
    )
    m.action_property(
        "a cancelled effect does not resolve",
        "cancel",
        lambda t: ForAll(Player, lambda p: t.post(v.deck[p]) == v.deck[p]),
        cites=["Cancel"],
    )

    def played_to_discard(t: Transition) -> Term:
        return And(*(Implies(v.src == e, t.post(v.zone[e]) == "discard") for e in events))

    m.action_property(
        "a cancelled event is still played and placed in the discard pile",
        "cancel",
        played_to_discard,
        cites=["Cancel", "Event Cards"],
        doc="FAQ (1.5): playing an event ends with it in its owner's discard pile, whether its effects "
        "resolve or are canceled.",
    )
    m.action_property(
        "a resolved effect draws one card for its controller; an event's controller may decline",
        "resolve",
        lambda t: And(
            *(
                t.post(v.deck[p])
                == If(And(v.owner[v.src] == p, Or(~v.is_event[v.src], t.choice("draw"))), v.deck[p] - 1, v.deck[p])
                for p in Player
            ),
            played_to_discard(t),
        ),
        cites=["Effects", "Event Cards", "May"],
        doc="Once initiated, as much of the effect as possible resolves, unless the effect uses the word 'may'.",
    )

    # ------------------------------------------------------------- the steps of an initiation, in order
    m.action_property(
        "an effect resolves only after it attempted to initiate, and once",
        "resolve",
        lambda t: And(v.busy, Not(t.post(v.busy))),
        cites=[INIT, "Effects"],
        doc="Initiating Abilities, steps 6-7: the effects attempt to initiate, then (if not canceled) complete "
        "their initiation and resolve; the ability is then over.",
    )
    m.action_property(
        "a cancel prevents an effect attempting to initiate, which is then no longer imminent",
        "cancel",
        lambda t: And(v.busy, Not(t.post(v.busy))),
        cites=["Cancel", INIT],
        doc="Cancel abilities interrupt the initiation of an effect and prevent it from initiating; when an effect "
        "is canceled, it is no longer imminent.",
    )
    for fam in ("enter_play", "leave_play", "stand"):
        m.action_property(
            f"while an effect attempts to initiate, only its cancel or its resolution follows ({fam})",
            fam,
            lambda t, *ps: Not(v.busy),
            cites=[INIT, "Cancel"],
            doc="Initiating Abilities, steps 6-7: once the effects attempt to initiate, an interrupt that cancels "
            "the initiation may be used, then the effects complete their initiation and resolve. A cancel is the "
            "only interrupt to an initiation in this model, so nothing else happens in between.",
        )
    m.action_property(
        "a triggering condition that occurs opens its reaction window",
        "occur",
        lambda t: t.post(v.open),
        cites=["Reactions", "Triggering Condition"],
        doc="After a triggering condition resolves, a reaction window for that triggering condition opens.",
    )
    m.action_property(
        "a reaction window closes only while it is open",
        "close_window",
        lambda t: And(v.open, Not(t.post(v.open))),
        cites=["Reactions"],
        doc="The reaction window opens after its triggering condition resolves and closes once all players "
        "consecutively pass; further reactions to that triggering condition cannot then be initiated.",
    )
    for fam in ("end_phase", "end_round"):
        m.action_property(
            f"a period ends only once the triggering condition's sequence is complete ({fam})",
            fam,
            lambda t: Not(v.open),
            cites=["Nested Ability Sequences", "Reactions", "Framework Effects and Framework Events"],
            doc="Each triggering condition is followed by its interrupts, its resolution and its reactions; the "
            "game returns to where it left off (here: the end of a phase or round, a framework event) only once "
            "that sequence is complete, the reaction window closed.",
        )

    # ------------------------------------------------------------- entering and leaving play, standing
    m.action_property(
        "a card entering play comes from an out of play area and enters play standing",
        "enter_play",
        lambda t, c: And(Not(v.zone[c] == "play"), t.post(v.zone[c]) == "play", Not(t.post(v.knelt[c]))),
        cites=["Enters Play", "In Play and Out of Play", "Stand, Standing"],
        doc="A card enters play when it transitions from an out of play origin to a play area; the default state "
        "in which cards enter play is standing.",
    )
    m.action_property(
        "a card leaving play goes from play to an out of play area",
        "leave_play",
        lambda t, c: And(v.zone[c] == "play", Not(t.post(v.zone[c]) == "play")),
        cites=["Leaves Play", "In Play and Out of Play"],
    )
    m.action_property(
        "an effect stands a kneeling card in play",
        "stand",
        lambda t, c: And(v.zone[c] == "play", v.knelt[c], Not(t.post(v.knelt[c]))),
        cites=["Stand, Standing", "Abilities"],
        doc="Card abilities interact only with cards in play, and can be initiated only if their effect can change "
        "the game state: standing a card that already stands changes nothing.",
    )

    # ------------------------------------------------------------- forced and may
    for fam in ("initiate", "play_event"):
        m.action_property(
            f"no optional reaction is initiated while a forced reaction is due ({fam})",
            fam,
            lambda t, c: Implies(started(t, c), True if (not event(c) and st.forced.value(c.name)) else no_forced_due),
            cites=["Forced Interrupts / Forced Reactions", "Triggering Condition"],
            doc="Forced reactions take priority and initiate before non-forced reactions.",
        )
    m.invariant(
        "a player may decline the optional reactions: the window can close once no forced reaction is due",
        Implies(And(v.open, ~v.busy, no_forced_due), m.enabled("close_window")),
        cites=["May", "Abilities", "Reactions"],
        doc="The initiation of reactions is optional: all players may pass, and the window closes.",
    )
    m.invariant(
        "an event's controller may draw or decline to draw",
        Implies(
            And(v.busy, Or(*(v.src == e for e in events))),
            And(m.enabled("resolve", choosing={"draw": True}), m.enabled("resolve", choosing={"draw": False})),
        ),
        cites=["May", "Effects"],
        doc="May: the option is granted to the controller of the card with the ability: both are possible.",
    )
    m.action_property(
        "a reaction window closes only after every eligible forced reaction has resolved",
        "close_window",
        lambda t: And(*(Not(forced_still_due(c)) for c in forced)),
        cites=["Forced Interrupts / Forced Reactions", "Abilities", "Triggering Condition"],
        doc="Forced abilities are mandatory: each one eligible for the occurrence is initiated.",
    )
    m.reachable(
        "sanity: a player may decline an optional reaction",
        v.declined,
        cites=["May", "Triggered Abilities", "Abilities"],
        doc="The window closed while an optional reaction could still have been initiated.",
    )
    # (coverage counts refused declarations too: these targets show that initiations succeed)
    m.reachable(
        "sanity: a player may use an optional reaction",
        And(v.busy, Or(*(v.src == c for c in chars if optional(c)))),
        cites=["May", "Abilities"],
    )
    m.reachable(
        "sanity: a forced reaction is initiated",
        And(v.busy, Or(*(v.src == c for c in forced))),
        cites=["Forced Interrupts / Forced Reactions"],
    )
    m.reachable(
        "sanity: an event is played",
        And(v.busy, Or(*(v.src == e for e in events))),
        cites=["Event Cards"],
    )
    pairs = [
        (c, d)
        for i, c in enumerate(chars)
        for d in chars[i + 1 :]
        if st.title.value(c.name) == st.title.value(d.name) and st.owner.value(c.name) == st.owner.value(d.name)
    ]
    m.reachable(
        "sanity: two copies of a title react to the same occurrence",
        And(v.open, Or(*(And(v.g_occ[c] == 1, v.g_occ[d] == 1) for c, d in pairs))),
        cites=["Reactions", "Copy (of a card)"],
    )
