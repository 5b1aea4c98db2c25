"""Properties of classic Berserk 503.2-503.3 (rule effects outside the stack, loop cut-off)."""

from __future__ import annotations

from ruleproof.dsl import And, Count, ForAll, Implies, Model, Not, Or, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Attach the 503.2 / 503.3 properties to a ``rule_effects`` model."""
    v, s = m.v, m.sorts
    Effect = s.Effect
    n = len(Effect)

    m.invariant(
        "503.3: эффект правил не повторяется в одной цепочке",
        ForAll(Effect, lambda e: v.perf[e] <= 1),
        cites=["503.3"],
    )
    m.invariant(
        "503.3: длина цепочки равна числу разных выполненных эффектов",
        v.chain_len == Count(Effect, lambda e: v.done[e]),
        cites=["503.3"],
        doc="Every performed rule effect is a new one: the chain is a path in the effect graph.",
    )
    m.invariant(
        "503.3: цепочка эффектов правил конечна (не длиннее числа эффектов)",
        v.chain_len <= n,
        cites=["503.3"],
        doc="With the cut-off, a chain performs each effect at most once, so it ends after at most "
        "as many steps as there are rule effects; priority then returns.",
    )
    m.invariant(
        "503.2: пока выполняются эффекты правил, ни у кого нет приоритета",
        Implies(v.pending != "none", Not(v.priority)),
        cites=["503.2"],
    )
    for fam in ("declare_action", "perform_top"):
        m.action_property(
            f"503.2: игрок действует ({fam}) только с приоритетом и вне цепочки эффектов правил",
            fam,
            lambda t: And(v.priority, v.pending == "none"),
            cites=["503.2"],
        )
    m.action_property(
        "503.2: эффекты правил выполняются вне стека",
        "rule_effect",
        lambda t, e: t.post(v.stack) == v.stack,
        cites=["503.2"],
    )

    m.action_property(
        "503.2: заявленное игродействие кладётся в стек",
        "declare_action",
        lambda t: t.post(v.stack) == v.stack + 1,
        cites=["503.2"],
        doc="A player's game action goes onto the stack (rule effects, by contrast, never do).",
    )
    m.action_property(
        "503.2: выполненное игродействие уходит из стека и сразу делает актуальным эффект правил A",
        "perform_top",
        lambda t: And(t.post(v.stack) == v.stack - 1, t.post(v.pending) == "a", Not(t.post(v.priority))),
        cites=["503.2"],
        doc="The top action leaves the stack when it is performed; the rule effect it makes relevant "
        "(A in every scenario) is performed at once, with nobody holding priority.",
    )
    m.action_property(
        "503.2: выполненный эффект правил сразу делает актуальным следующий по графу",
        "rule_effect",
        lambda t, e: And(v.pending == v.me[e], t.post(v.pending) == v.nxt[e]),
        cites=["503.2"],
        doc="Only the relevant rule effect is performed, and the effect it makes relevant (the scenario's "
        "'makes relevant' graph) is the next one performed, before anyone gets priority.",
    )
    for fam, why in (("cut_off", "the cycle is cut off"), ("chain_ends", "no rule effect is left")):
        m.action_property(
            f"503.2: приоритет возвращается к игрокам, когда цепочка эффектов правил закончена ({fam})",
            fam,
            lambda t: And(t.post(v.priority), t.post(v.pending) == "none", t.post(v.stack) == v.stack),
            cites=["503.2", "503.3"],
            doc=f"When {why}, the chain is over: no rule effect is pending, players have priority again, "
            "and the stack is as the chain found it.",
        )
    m.action_property(
        "503.2: цепочка эффектов правил заканчивается, только когда больше ни один эффект не актуален",
        "chain_ends",
        lambda t: And(v.pending == "none", Not(v.priority)),
        cites=["503.2"],
        doc="Rule effects are performed immediately when they become relevant: the chain cannot end "
        "while one is pending (only the 503.3 cut-off stops a chain early), and only a running chain ends.",
    )
    m.reachable(
        "sanity: эффект правил выполнен вне стека",
        And(v.perf[s.Effect.e_a] == 1, v.pending != "a"),
        cites=["503.2"],
    )

    if m.params["graph"] in ("loop2", "lasso"):  # graphs with a cycle
        m.reachable(
            "sanity: цикл эффектов правил дошёл до повтора",
            Or(*(And(v.pending == v.me[e], v.done[e]) for e in Effect)),
            cites=["503.3"],
        )

    def cut_before_repeat(t: Transition) -> Term:
        return ForAll(Effect, lambda e: Implies(v.pending == v.me[e], And(v.done[e], v.perf[e] == 1)))

    m.action_property(
        "503.3: цикл обрывается перед первым повтором",
        "cut_off",
        cut_before_repeat,
        cites=["503.3"],
    )
