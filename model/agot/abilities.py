"""AGoT 2.0 triggered abilities: initiation, limits, maxima, costs and cancels.

Rules Reference sections: Abilities, Triggered Abilities, Triggering
Condition, Reactions, Interrupts, Forced Interrupts / Forced Reactions, May,
Costs, Initiating Abilities / Marshaling Cards, Cancel, Limits and Maxima,
Max X (copies) (per period), Copy (of a card), In Play and Out of Play,
Leaves Play, Event Cards, Effects; FAQ (1.5) Playing Events and the errata of
Driftwood Cudgel ("Limit once per phase").

The order of windows around a triggering condition (imminent, cancels,
forced interrupts, interrupt window, occurrence, forced reactions, reaction
window; nesting) is the generated timing system ``model/agot/timing.py``.
This system models what happens *around one window*: whether an ability may
be initiated and the bookkeeping of that initiation.  One triggering
condition at a time occurs (``occur``) and opens its reaction window; every
card's ability reacts to it:

* each player's characters bear a reaction "after X, kneel this card to draw
  1 card"; copies come in pairs by title: ``ct1`` (Limit N per round), then
  ``ct2``, ``ct3``... (Limit N per phase); the last character of each player
  bears a forced reaction "after X, draw 1 card (Limit N per phase)" (title
  ``cf``, no cost);
* each player's events read "Reaction: after X, you may draw 1 card. (Max N
  per round.)": two copies of ``et1`` (cost 1), then ``et2`` (cost 0);
* N (the printed limit or maximum of each title) is symbolic, 1..``max_n``;
  copies of a title share it.

A player declares intent to initiate an ability (``initiate`` for a character,
``play_event`` for an event) at any opportunity while the window is open and
nothing else is being initiated.  The play restrictions are then checked
(in play / in hand, limit or maximum, once per occurrence, the effect would
change the game state, the cost can be paid); if they fail the declaration
changes nothing else (the process ends), otherwise the cost is paid, the use counts
against the limit or maximum at once, and the effect attempts to initiate:
it is either cancelled (``cancel``) or resolves (``resolve``).  Cards leave
and re-enter play, characters stand, and phases and rounds end.  The game is
observed at any point of a period: the initial counts are any the rules
allow (each object in play has used its ability at most N times, each player
each title at most N times), so the properties hold mid-round too.

Observation variables (``g_*``, ``declined``, ``declared``) record the
history in the rules' own terms (initiations of each object this period, of
each title by each player this round, of each object against the open
occurrence; the window closed while an optional reaction was still
available; the parity of declarations).  The model writes them at the moments
the rules name and never reads them; only the properties read them, and tie
each ``g_*`` record and ``declined`` to the game's steps.  The game shows none
of them, so none is observable: a mutant that changes only a record is caught
by those ties, not by a difference the game would show.
``declared`` makes a refused declaration a step that changes the state:
k-induction's simple-path constraint excludes steps that return to an earlier
state, so without it the properties "... can be initiated" about refused
declarations would be proved vacuously; the game shows no such flag, so it is
not observable (a mutant that changes only it agrees with the rules).  Whether
a card kneels is shown only while it is in play, and a card enters play
standing (Stand, Standing).

Forced reactions take priority: while a forced reaction to the occurrence
is still due, no optional reaction (character or event) is initiated
(Forced Interrupts / Forced Reactions).  The events' effect reads "you may
draw 1 card": when it resolves, its controller chooses whether to draw
(May: "If no player is specified, the option is granted to the controller
of the card with the ability in question").

The deliberately broken rules are edits in ``mutants/agot/abilities.py``.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Exists, If, Int, Model, OneOf, Or, Range, Step, Term

__all__ = ["SCENARIOS", "CHECKED", "build"]

SCENARIOS = {
    "default": {"players": 2, "chars": 6, "events": 3, "max_n": 2, "max_gold": 3, "max_deck": 3},
    "melee": {"players": 3, "chars": 3, "events": 2, "max_n": 2, "max_gold": 2, "max_deck": 2},
    "small": {"players": 2, "chars": 3, "events": 2, "max_n": 2, "max_gold": 2, "max_deck": 3},
}
CHECKED = ("default", "melee")


EVENT_COST = {"et1": 1, "et2": 0}


def _char_title(k: int, chars: int) -> str:
    """Title of a player's ``k``-th character (0-based): pairs of copies, the last one forced."""
    return "cf" if k == chars - 1 else f"ct{k // 2 + 1}"


def build(
    players: int = 2,
    chars: int = 6,
    events: int = 3,
    max_n: int = 2,
    max_gold: int = 3,
    max_deck: int = 3,
) -> Model:
    """The abilities model: ``players`` players with ``chars`` characters and ``events`` events each."""
    if chars < 2 or events < 1:
        raise ValueError("each player needs at least 2 characters and 1 event")
    m = Model("abilities", doc=__doc__ or "")
    m.params.update(max_n=max_n, max_gold=max_gold, max_deck=max_deck)
    pnames = [f"p{i}" for i in range(1, players + 1)]
    Player = m.sort("Player", pnames, labels=[f"player {i}" for i in range(1, players + 1)])

    names: list[str] = []
    labels: list[str] = []
    info: dict[str, tuple[str, str, bool, bool]] = {}  # card -> (owner, title, is_event, forced)
    for i, p in enumerate(pnames, start=1):
        for k in range(chars):
            n = f"c{len(names) + 1}"
            names.append(n)
            labels.append(f"character {k + 1} of player {i}")
            t = _char_title(k, chars)
            info[n] = (p, t, False, t == "cf")
        for k in range(events):
            n = f"c{len(names) + 1}"
            names.append(n)
            labels.append(f"event {k + 1} of player {i}")
            info[n] = (p, "et1" if k < 2 else "et2", True, False)
    Card = m.sort("Card", names, labels=labels)
    titles = sorted({t for _, t, _, _ in info.values()})
    Title = m.sort("Title", titles)
    Zone = m.enum("Zone", ["hand", "play", "playing", "discard"])
    Period = m.enum("Period", ["phase", "round"])

    owner = m.static("owner", Player, Card, lambda c: info[c.name][0])
    title = m.static("title", Title, Card, lambda c: info[c.name][1])
    is_event = m.static("is_event", Bool, Card, lambda c: info[c.name][2])
    forced = m.static("forced", Bool, Card, lambda c: info[c.name][3])
    period = m.static(
        "period", Period, Card, lambda c: "round" if info[c.name][1] in ("ct1", "et1", "et2") else "phase"
    )
    cost = m.static("cost", Int(0, max_gold), Card, lambda c: EVENT_COST.get(info[c.name][1], 0))

    # printed N of each title's "Limit N per period" / "Max N per round": symbolic, fixed
    printed = m.var("printed", Int(1, max_n), index=Title, init=Range(1, max_n))
    zone = m.var(
        "zone", Zone, index=Card, init=lambda c: OneOf("hand", "discard") if info[c.name][2] else OneOf("hand", "play")
    )
    # whether a card kneels is shown only while it is in play: a card in hand, deck or discard pile stands or kneels
    # only once it enters play (Stand, Standing: "the default state in which cards enter play is standing")
    knelt = m.var("knelt", Bool, index=Card, init=lambda c: False if info[c.name][2] else OneOf(False, True),
                  observable=lambda c: zone[c] == "play")
    gold = m.var("gold", Int(0, max_gold), index=Player, init=Range(0, max_gold))
    deck = m.var("deck", Int(0, max_deck), index=Player, init=Range(0, max_deck))
    # the game's bookkeeping
    # (the game may be observed at any point of a period: counts start anywhere the rules allow, see below)
    mid = Range(0, max_n)
    uses = m.var("uses", Int(0, max_n), index=Card, init=lambda c: 0 if info[c.name][2] else mid)  # this copy's uses
    max_used = m.var("max_used", Int(0, max_n), index=(Player, Title), init=mid)  # uses of a title's maximum
    answered = m.var("answered", Bool, index=Card, init=False)  # used against the open occurrence
    open_ = m.var("open", Bool, init=False)  # a triggering condition occurred; its reaction window is open
    busy = m.var("busy", Bool, init=False)  # an ability's effect is attempting to initiate
    src = m.var("src", Card, init=names[0])  # ... that ability's card
    # observations (read by properties only)
    # (records of the history for the properties, which tie each to the game's steps: the game shows none of them)
    g_period = m.var("g_period", Int(0, max_n + 1), index=Card, init=lambda c: 0 if info[c.name][2] else mid,
                     observable=False)
    g_title = m.var("g_title", Int(0, max_n + 1), index=(Player, Title), init=mid, observable=False)
    g_occ = m.var("g_occ", Int(0, 2), index=Card, init=0, observable=False)
    declined = m.var("declined", Bool, init=False, observable=False)
    # flips at every declaration, so that a refused declaration is a step that changes the state
    # (k-induction's simple-path constraint would otherwise skip refusals when proving action properties)
    # (a device of the proof, not of the game: the game shows no such flag, so it is not observable)
    declared = m.var("declared", Bool, init=False, observable=False)

    chars_of = [c for c in Card if not is_event.value(c.name)]
    # a game observed mid-period: each object in play has used its ability up to its limit (out of play:
    # the count is kept for no object), each player has used each title up to its maximum
    for c in chars_of:
        m.init_constraint((uses[c] == If(zone[c] == "play", g_period[c], 0)) & (g_period[c] <= printed[title[c]]))
    for pl in Player:
        for ti in Title:
            m.init_constraint((max_used[pl, ti] == g_title[pl, ti]) & (g_title[pl, ti] <= printed[ti]))

    def limit_ok(c: Term) -> Term:
        """The game's limit check for character ``c``."""
        return uses[c] < printed[title[c]]

    def char_allowed(c: Term) -> Term:
        """Play restrictions of character ``c``'s reaction, cost included."""
        ok = (zone[c] == "play") & limit_ok(c) & ~answered[c] & (deck[owner[c]] >= 1)
        if not forced.value(c.name):
            ok = ok & ~knelt[c]
        return ok

    def event_allowed(e: Term) -> Term:
        """Play restrictions of event ``e``, cost included."""
        p, t = owner[e], title[e]
        return (zone[e] == "hand") & (max_used[p, t] < printed[t]) & (deck[p] >= 1) & (gold[p] >= cost[e])

    forced_due = Or(False, *(char_allowed(c) for c in chars_of if forced.value(c.name)))

    idle = open_ & ~busy

    @m.action(
        Card,
        describe="{c}'s controller declares a reaction to the triggering condition",
        cites=["Initiating Abilities / Marshaling Cards", "Reactions", "Limits and Maxima", "Costs"],
    )
    def initiate(a: Step, c: Term) -> None:
        if is_event.value(c.name):
            a.require(False)
        a.require(idle)
        a.set(declared, ~declared)
        go = char_allowed(c)
        if not forced.value(c.name):
            go = go & ~forced_due  # forced reactions take priority and initiate before non-forced ones
        a.set(busy, True, when=go)
        a.set(src, c, when=go)
        if not forced.value(c.name):
            a.set(knelt[c], True, when=go)
        a.set(uses[c], uses[c] + 1, when=go)
        a.set(answered[c], True, when=go)
        a.set(g_period[c], g_period[c] + 1, when=go)
        a.set(g_occ[c], g_occ[c] + 1, when=go)

    @m.action(
        Card,
        describe="{e}'s owner declares playing it as a reaction to the triggering condition",
        cites=["Initiating Abilities / Marshaling Cards", "Event Cards", "Limits and Maxima", "Costs"],
    )
    def play_event(a: Step, e: Term) -> None:
        if not is_event.value(e.name):
            a.require(False)
        a.require(idle)
        a.set(declared, ~declared)
        p, t = owner[e], title[e]
        go = event_allowed(e) & ~forced_due
        a.set(busy, True, when=go)
        a.set(src, e, when=go)
        a.set(zone[e], "playing", when=go)
        a.set(gold[p], gold[p] - cost[e], when=go)
        a.set(max_used[p, t], max_used[p, t] + 1, when=go)
        a.set(g_title[p, t], g_title[p, t] + 1, when=go)

    @m.action(
        describe="the effect of the ability being initiated resolves: its controller draws 1 card (an event's "
        "controller may decline)",
        cites=["Effects", "Initiating Abilities / Marshaling Cards", "May"],
    )
    def resolve(a: Step) -> None:
        draws = a.choose("draw", Bool)  # the option "you may" gives an event's controller
        a.require(busy)
        takes = ~is_event[src] | draws
        for p in Player:
            a.set(deck[p], deck[p] - 1, when=(owner[src] == p) & takes)
        for e in Card:
            if is_event.value(e.name):
                a.set(zone[e], "discard", when=src == e)
        a.set(busy, False)

    @m.action(
        describe="an interrupt cancels the effects of the ability being initiated",
        cites=["Cancel", "Limits and Maxima", "Interrupts"],
    )
    def cancel(a: Step) -> None:
        a.require(busy)
        a.set(busy, False)
        for c in Card:
            if is_event.value(c.name):
                a.set(zone[c], "discard", when=src == c)

    @m.action(
        describe="a triggering condition occurs: its reaction window opens", cites=["Triggering Condition", "Reactions"]
    )
    def occur(a: Step) -> None:
        a.require(~open_ & ~busy)
        a.set(open_, True)
        for c in chars_of:
            a.set(g_occ[c], 0)

    def optional_pending() -> Term:
        return Exists(Card, lambda c: ~forced[c] & ~is_event[c] & char_allowed(c))

    @m.action(
        describe="all players pass: the reaction window closes",
        cites=["Reactions", "Forced Interrupts / Forced Reactions", "May"],
    )
    def close_window(a: Step) -> None:
        a.require(idle)
        for c in chars_of:
            if forced.value(c.name):  # a forced reaction still due keeps the window open
                a.require(~char_allowed(c))
        a.set(open_, False)
        a.set(declined, optional_pending())
        for c in chars_of:
            a.set(answered[c], False)

    def reset(a: Step, which: tuple[str, ...]) -> None:
        for c in chars_of:
            if str(period.value(c.name)) in which:
                a.set(uses[c], 0)
                a.set(g_period[c], 0)
        if "round" in which:
            for p in Player:
                for t in Title:
                    a.set(max_used[p, t], 0)
                    a.set(g_title[p, t], 0)

    @m.action(describe="the phase ends: per-phase limits reset", cites=["Limits and Maxima"])
    def end_phase(a: Step) -> None:
        a.require(~open_ & ~busy)
        reset(a, ("phase",))

    @m.action(describe="the round ends: per-phase and per-round limits and maxima reset", cites=["Limits and Maxima"])
    def end_round(a: Step) -> None:
        a.require(~open_ & ~busy)
        reset(a, ("phase", "round"))

    @m.action(Card, describe="{c} leaves play", cites=["Leaves Play", "Limits and Maxima"])
    def leave_play(a: Step, c: Term) -> None:
        if is_event.value(c.name):
            a.require(False)
        a.require(~busy & (zone[c] == "play"))
        a.set(zone[c], "discard")
        a.set(knelt[c], False)
        a.set(answered[c], False)
        a.set(uses[c], 0)

    @m.action(Card, describe="{c} enters play (a new object)", cites=["In Play and Out of Play", "Limits and Maxima"])
    def enter_play(a: Step, c: Term) -> None:
        if is_event.value(c.name):
            a.require(False)
        a.require(~busy & (zone[c] != "play"))
        a.set(zone[c], "play")
        a.set(knelt[c], False)  # Stand, Standing: the default state in which cards enter play is standing
        a.set(g_period[c], 0)
        a.set(g_occ[c], 0)

    @m.action(Card, describe="an effect stands {c}", cites=["Stand, Standing"])
    def stand(a: Step, c: Term) -> None:
        if is_event.value(c.name):
            a.require(False)
        a.require(~busy & (zone[c] == "play") & knelt[c])
        a.set(knelt[c], False)

    return m
