"""Properties of the Berserk Очередь system (model/berserk/timing.py).

The order of the Очередь is a rule parameter (not found in any stored
source): each setting is checked against its own rule, and a sanity target
shows the order makes a difference.
"""

from __future__ import annotations

from ruleproof.dsl import And, ForAll, Implies, Model, Or, Term

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
    m.invariant(
        "an entry's effects apply only when it resolves, after the responses",
        ForAll(Level, lambda k: Implies(v.occurred[k], Or(*(v.step[k] == x for x in (
            "resolves", "triggered", "triggered_resolving", "optional", "optional_resolving", "closed"))))),
        cites=["112"],
    )
