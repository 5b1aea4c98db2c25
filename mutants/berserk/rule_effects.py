"""Deliberately broken rules of ``model/berserk/rule_effects.py``, each an edit of the built model.

``tests/berserk/test_berserk_rule_effects.py`` shows the property that catches each.
"""

from __future__ import annotations

from ruleproof.dsl import Min, Model, Step, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


@MUTANTS("no_cutoff", "503.3 ignored: a repeated rule effect is performed again, and the cycle is never cut off")
def _no_cutoff(m: Model) -> None:
    v = m.v
    m.drop_require("rule_effect", lambda e: ~v.done[e])

    @m.amend("cut_off")
    def _(a: Step) -> None:
        a.require(False)


@MUTANTS("priority_in_chain", "503.2 ignored: a player may declare an action while rule effects are being performed")
def _priority_in_chain(m: Model) -> None:
    v = m.v
    m.drop_require("declare_action", lambda: v.priority & (v.pending == "none"))


@MUTANTS("on_stack", "503.2 ignored: a rule effect is put onto the stack")
def _on_stack(m: Model) -> None:
    v = m.v

    @m.amend("rule_effect")
    def _(a: Step, e: Term) -> None:
        a.set(v.stack, Min(v.stack + 1, 3))
