"""Properties of classic Berserk 503.2-503.3 (rule effects outside the stack, loop cut-off)."""

from __future__ import annotations

from ruleproof.dsl import And, Count, ForAll, Implies, Model, Not, Term, Transition

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

    def cut_before_repeat(t: Transition) -> Term:
        return ForAll(Effect, lambda e: Implies(v.pending == v.me[e], And(v.done[e], v.perf[e] == 1)))

    m.action_property(
        "503.3: цикл обрывается перед первым повтором",
        "cut_off",
        cut_before_repeat,
        cites=["503.3"],
    )
