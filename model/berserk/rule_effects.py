"""Classic Berserk 503.2-503.3: effects of the game rules, performed outside the stack.

Sources: ``reference/berserk-rules-notes.md`` section 4.1 (503.2 and 503.3 from
the table of contents of the classic extended rules, RP 19.1):

* 503.2 -- rule effects are performed outside the stack, immediately when they
  become relevant; no player has priority while they are being performed.
* 503.3 -- if several rule effects produce an infinite cyclic sequence, it is
  cut off before the first repetition of an effect.

The rule effects are abstract (``A``, ``B``, ``C``) and wired by a static
"makes relevant" graph: performing ``e`` makes ``NEXT[e]`` relevant.  A player's
game action, when it is performed off the stack, makes ``A`` relevant and a
chain of rule effects starts.  Scenarios: ``loop2`` (A and B re-enable each
other), ``lasso`` (A -> B -> C -> B) and ``chain`` (A -> B, then nothing).

The deliberately broken rules are edits in ``mutants/berserk/rule_effects.py``.
"""

from __future__ import annotations

from ruleproof.dsl import And, Bool, Int, Min, Model, Or, Step, Term

__all__ = ["GRAPHS", "SCENARIOS", "CHECKED", "build"]

EFFECTS = ("a", "b", "c")
EFFECT_LABELS = ("эффект правил A", "эффект правил B", "эффект правил C")
GRAPHS: dict[str, dict[str, str]] = {
    "loop2": {"a": "b", "b": "a", "c": "none"},
    "lasso": {"a": "b", "b": "c", "c": "b"},
    "chain": {"a": "b", "b": "none", "c": "none"},
}
SCENARIOS = {
    "loop2": {"graph": "loop2"},
    "lasso": {"graph": "lasso"},
    "chain": {"graph": "chain"},
}
CHECKED = ("loop2", "lasso", "chain")


def build(graph: str = "loop2") -> Model:
    """Rule effects wired by ``GRAPHS[graph]``, and a small stack of player actions."""
    if graph not in GRAPHS:
        raise ValueError(f"unknown graph '{graph}' (known: {', '.join(GRAPHS)})")
    wiring = GRAPHS[graph]
    n = len(EFFECTS)
    m = Model("rule_effects", doc=__doc__ or "")
    m.params.update(graph=graph)

    Eff = m.enum("Eff", ["none", *EFFECTS], labels=["нет", *EFFECT_LABELS])
    Effect = m.sort("Effect", [f"e_{e}" for e in EFFECTS], labels=list(EFFECT_LABELS))
    nxt = m.static("nxt", Eff, Effect, lambda e: wiring[e.name[2:]])
    me = m.static("me", Eff, Effect, lambda e: e.name[2:])

    pending = m.var("pending", Eff, init="none")
    priority = m.var("priority", Bool, init=True)
    stack = m.var("stack", Int(0, 3), init=0)
    done = m.var("done", Bool, index=Effect, init=False)
    perf = m.var("perf", Int(0, 2), index=Effect, init=0)
    chain_len = m.var("chain_len", Int(0, n + 1), init=0)

    def close_chain(a: Step) -> None:
        a.set(pending, "none")
        a.set(priority, True)
        a.set(chain_len, 0)
        for e in Effect:
            a.set(done[e], False)
            a.set(perf[e], 0)

    @m.action(describe="игрок заявляет игродействие (в стек)", cites=["503.2"])
    def declare_action(a: Step) -> None:
        a.require(priority & (pending == "none"))
        a.require(stack < 2)
        a.set(stack, stack + 1)

    @m.action(describe="верхнее игродействие выполняется и делает актуальным эффект правил A", cites=["503.2"])
    def perform_top(a: Step) -> None:
        a.require(priority & (pending == "none") & (stack >= 1))
        a.set(stack, stack - 1)
        a.set(pending, "a")
        a.set(priority, False)  # 503.2: nobody has priority while rule effects are performed

    @m.action(Effect, describe="{e} выполняется вне стека", cites=["503.2", "503.3"])
    def rule_effect(a: Step, e: Term) -> None:
        a.require(pending == me[e])
        a.require(~done[e])  # 503.3: never perform an effect a second time in one chain
        a.set(done[e], True)
        a.set(perf[e], Min(perf[e] + 1, 2))
        a.set(chain_len, Min(chain_len + 1, n + 1))
        a.set(pending, nxt[e])

    @m.action(describe="503.3: цикл обрывается перед первым повтором эффекта", cites=["503.3"])
    def cut_off(a: Step) -> None:
        repeat = Or(*(And(pending == me[e], done[e]) for e in Effect))
        a.require((pending != "none") & repeat)
        close_chain(a)

    @m.action(describe="цепочка эффектов правил закончилась; приоритет возвращается", cites=["503.2"])
    def chain_ends(a: Step) -> None:
        a.require((pending == "none") & ~priority)
        close_chain(a)

    return m
