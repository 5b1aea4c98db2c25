"""Properties of the Berserk Очередь system (model/berserk/timing.py).

The order of the Очередь is a rule parameter (not found in any stored
source): each setting is checked against its own rule, and a sanity target
shows the order makes a difference.
"""

from __future__ import annotations

from ruleproof.dsl import And, ForAll, Implies, Model, Not, Or, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    v, s = m.v, m.sorts
    Level = s.Level
    levels = list(Level)
    order = m.params["order"]
    first, second = levels[0], levels[1]

    def later_pairs(fn):  # type: ignore[no-untyped-def]
        return And(*(fn(a, b) for i, a in enumerate(levels) for b in levels[i + 1:]))

    if order == "fifo":
        m.invariant(
            "entries resolve in the order they entered the Очередь (FIFO)",
            later_pairs(lambda a, b: Implies(v.occurred[b], v.occurred[a])),
            cites=["111.4", "112"],
            doc="With the FIFO setting, an entry added later (a response, a triggered ability) resolves after "
            "every earlier one.",
        )
        m.reachable(
            "sanity: a response waits until the ability it answers has resolved (FIFO)",
            And(v.occurred[first], v.has[second, "remove"], ~v.occurred[second]),
            cites=["111.4"],
        )
    else:
        m.invariant(
            "only the newest entry of the Очередь progresses (LIFO)",
            v.cur == v.top,
            cites=["111.4", "112"],
            doc="With the LIFO setting, the entry added last resolves (and closes) before any earlier one continues.",
        )
        m.reachable(
            "sanity: a response resolves before the ability it answers (LIFO)",
            And(v.occurred[second], v.has[second, "remove"], ~v.occurred[first]),
            cites=["111.4"],
        )
    # -- review F12: which kind of triggered ability enters the Очередь first is a rule parameter (no stored source
    #    says; the table says only that a mandatory one always runs and an optional one at its controller's
    #    consent).  Боевой рог (mandatory) and Талос (optional) trigger on the same effect; ``used`` counts the
    #    abilities initiated for an entry (the property "an ability answers one entry at most once" reads it too).
    rog, talos = s.Ability.boevoy_rog, s.Ability.talos
    mandatory_first = m.params["triggered"] == "mandatory_first"

    def when_talos_enters(k: Term) -> Term:
        """What the setting says of Боевой рог when Талос's optional ability is used for entry ``k``."""
        return v.used[k, rog] >= 1 if mandatory_first else v.used[k, rog] == 0

    def one_entered_before_the_other(k: Term) -> Term:
        if mandatory_first:
            return And(v.used[k, rog] >= 1, v.used[k, talos] == 0, v.step[k] == "optional")
        return And(v.used[k, talos] >= 1, v.used[k, rog] == 0, v.step[k] == "triggered")

    m.action_property(
        "a mandatory triggered ability enters the Очередь before the optional ones (mandatory_first)" if mandatory_first
        else "an optional triggered ability enters the Очередь before the mandatory ones (optional_first)",
        "initiate", lambda t, k, ab: when_talos_enters(k) if ab.name == "talos" else True, cites=["111.4", "112"],
        doc="When Талос's optional ability is used for an entry, the mandatory Боевой рог triggered by the same effect "
        "has already entered the Очередь (setting mandatory_first), or has not (optional_first: the optional ability "
        "is offered first and never used after it).",
    )
    m.reachable(
        "sanity: the mandatory ability has entered and the optional one is still to be offered (mandatory_first)"
        if mandatory_first
        else "sanity: the optional ability has entered and the mandatory one not yet (optional_first)",
        Or(*(one_entered_before_the_other(k) for k in levels)), cites=["111.4"],
    )
    # ``used`` is the generator's record; these tie it to the game: using an ability for an entry (``initiate``)
    # counts it there and nothing else does, and a count goes back to zero only when the triggering conditions
    # held at that place of the Очередь change (a new entry, an ability resolved, the place emptied)
    Cond = s.Cond

    def conditions_change(t: Transition, k: Term) -> Term:
        return Or(*(t.post(v.has[k, c]) != v.has[k, c] for c in Cond))

    def kept_or_reset(t: Transition, k: Term, ab: Term) -> Term:
        return Implies(t.post(v.used[k, ab]) != v.used[k, ab],
                       And(t.post(v.used[k, ab]) == 0, conditions_change(t, k)))

    m.action_property(
        "using an ability for an entry counts it for that entry, and nothing else",
        "initiate",
        lambda t, k, ab: And(*(t.post(v.used[j, b]) == v.used[j, b] + (1 if (j.name, b.name) == (k.name, ab.name)
                                                                         else 0)
                               for j in levels for b in s.Ability)),
        cites=["111.4", "112"],
        doc="Ties the generator's count of the abilities used for an entry (read by the F12 property above) to the "
        "game: an ability initiated for an entry is one more use of it there.",
    )
    for fam in ("proceed", "pass", "resolve", "nest", "return"):
        m.action_property(
            f"a count of uses goes back to zero only when the entry's conditions change ({fam})", fam,
            lambda t, *_: And(*(kept_or_reset(t, k, ab) for k in levels for ab in s.Ability)),
            cites=["111.4", "112"],
        )
    names = [k.name for k in levels]
    Player = s.Player
    players = list(Player)

    def current(k: Term) -> Term:
        return v.cur == names.index(k.name) + 1

    def other(p: Term) -> Term:
        return players[([q.name for q in players].index(p.name) + 1) % len(players)]

    m.action_property("only the current entry of the Очередь progresses (proceed)", "proceed",
                      lambda t, k, mv: current(k), cites=["111.4"])
    m.action_property("only the current entry of the Очередь progresses (initiate)", "initiate",
                      lambda t, k, ab: current(k), cites=["111.4"])
    m.action_property("only the current entry of the Очередь progresses (resolve)", "resolve",
                      lambda t, k, ab: current(k), cites=["111.4"])
    m.action_property("only the current entry of the Очередь progresses (nest)", "nest",
                      lambda t, k, j, ab: current(k), cites=["111.4"])
    m.action_property("only the current entry of the Очередь progresses (return)", "return",
                      lambda t, k, mv: current(k), cites=["111.4"])
    m.action_property(
        "players take turns: only the player with priority passes, and priority then goes to the other player",
        "pass",
        lambda t, k, mv, p: And(current(k), v.turn[k] == p,
                                Implies(t.post(v.step[k]) == v.step[k], t.post(v.turn[k]) == other(p))),
        cites=["111.4"],
        doc="Notes: the players pass in turn; when every player has passed in a row the entry moves on.",
    )
    # -- priority in a window (notes 4.1: "Priority and Pass"; the declaration's reading [I]: the active player
    #    answers first, and a window closes when every player has passed in a row)
    window_kinds = ("interrupt_window", "reaction_window", "cancel_interrupts", "action_window")

    def is_window(x: Term) -> Term:
        return Or(*(v.step_kind[x] == w for w in window_kinds))

    def opens_fresh(t: Transition) -> Term:
        return And(*(Implies(And(t.post(is_window(v.step[k])), t.post(v.step[k]) != v.step[k]),
                             And(t.post(v.turn[k]) == v.active, t.post(v.passes[k]) == 0)) for k in levels))

    for fam in ("proceed", "pass", "initiate", "resolve", "nest", "return"):
        m.action_property(
            f"a window opens with the active player's priority and no pass yet ({fam})", fam,
            lambda t, *_: opens_fresh(t), cites=["111.4"],
            doc="Whenever an entry's window opens, or opens again after a response has entered the Очередь, the "
            "active player has priority first and nobody has passed in it yet (notes 4.1: priority and pass; "
            "who answers first is the declaration's reading, [I]).",
        )
    P = len(players)
    m.action_property(
        "a window closes exactly when every player has passed in a row",
        "pass",
        lambda t, k, mv, p: And(
            (t.post(v.step[k]) != v.step[k]) == (v.passes[k] + 1 >= P),
            Implies(t.post(v.step[k]) == v.step[k], t.post(v.passes[k]) == v.passes[k] + 1),
        ),
        cites=["111.4"],
        doc="Notes 4.1: if the players pass in a row the entry moves on; a pass that leaves the window open is one "
        "more pass in a row.",
    )
    # the owner of each scenario ability that is used in a window (scenario data: the opponent's Заклинатель,
    # Талос of player 1); Боевой рог is mandatory: it enters the Очередь without anybody's priority
    owner = {"zaklinatel": players[-1], "talos": players[0]}
    into = {"zaklinatel": "remove", "boevoy_rog": "horn", "talos": "copy"}  # what each raises (scenario data)
    m.action_property(
        "only the player with priority activates an ability in a window",
        "initiate",
        lambda t, k, ab: Implies(is_window(v.step[k]), v.turn[k] == owner[ab.name]) if ab.name in owner
        else Not(is_window(v.step[k])),
        cites=["111.4", "112"],
        doc="An ability used in a window (a response, an optional triggered ability) is its controller's "
        "opportunity: that player has priority.",
    )
    m.invariant(
        "an ability answers one entry of the Очередь at most once",
        ForAll(Level, lambda k: ForAll(s.Ability, lambda ab: v.used[k, ab] <= 1)),
        cites=["112"],
        doc="Each ability of the scenario can be used once for one entry (the declaration's window rule, [I]).",
    )
    m.invariant(
        "an empty place of the Очередь holds no triggering condition",
        ForAll(Level, lambda k: Implies(v.step[k] == "idle", ForAll(s.Cond, lambda c: Not(v.has[k, c])))),
        cites=["111.4"],
        doc="An entry that has left the Очередь leaves nothing behind.",
    )
    # -- every activated or triggered ability becomes an entry of the Очередь (table: «После активации или
    #    срабатывания попадают в Очередь»).  ``raised`` records that the ability's entry was put into the Очередь;
    #    the first three properties tie it to the game: it starts false, and only opening a new entry sets it.
    m.action_property(
        "an ability just used has not entered the Очередь yet",
        "initiate",
        lambda t, k, ab: Not(t.post(v.raised[k])),
        cites=["112"],
    )
    m.action_property(
        "an ability enters the Очередь as a new entry holding what it raises",
        "nest",
        lambda t, k, j, ab: And(Not(v.raised[k]), t.post(v.raised[k]), t.post(v.top) == v.top + 1,
                                t.post(v.step[j]) == "declared", t.post(v.has[j, into[ab.name]])),
        cites=["111.4", "112"],
    )
    for fam in ("proceed", "pass", "initiate", "resolve", "return"):
        m.action_property(
            f"only opening a new entry records that an ability entered the Очередь ({fam})", fam,
            lambda t, *_: And(*(Implies(t.post(v.raised[k]), v.raised[k]) for k in levels)),
            cites=["112"],
        )
    m.action_property(
        "the window continues only after the ability used has entered the Очередь",
        "resolve",
        lambda t, k, ab: v.raised[k],
        cites=["112"],
        doc="Table of section 112: activated and triggered abilities enter the Очередь; a response is a new "
        "entry, so the answered entry's window goes on only once that entry exists.",
    )
    m.invariant(
        "an entry's effects apply only when it resolves, after the responses",
        ForAll(Level, lambda k: Implies(v.occurred[k], Or(*(v.step[k] == x for x in (
            "resolves", "triggered", "triggered_resolving", "optional", "optional_resolving", "closed"))))),
        cites=["112"],
    )
