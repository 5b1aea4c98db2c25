"""Properties of the Berserk Очередь system (model/berserk/timing.py).

The order of the Очередь is a rule parameter (not found in any stored
source): each setting is checked against its own rule, and a sanity target
shows the order makes a difference.
"""

from __future__ import annotations

from ruleproof.dsl import And, ForAll, Implies, Model, Or

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
            doc="With the FIFO setting, an entry added later (a response, a triggered ability) resolves after every earlier one.",
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
    m.invariant(
        "an entry's effects apply only when it resolves, after the responses",
        ForAll(Level, lambda k: Implies(v.occurred[k], Or(*(v.step[k] == x for x in
                                                              ("resolves", "triggered", "triggered_resolving", "optional",
                                                               "optional_resolving", "closed"))))),
        cites=["112"],
    )
