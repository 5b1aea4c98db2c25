"""Deliberately broken rules of ``model/berserk/timing.py``, each an edit of the built model.

``tests/berserk/test_berserk_ochered.py`` shows the property that catches each.
"""

from __future__ import annotations

from pathlib import Path

from ruleproof.dsl import Model, Step, Term
from ruleproof.loader import import_file
from ruleproof.rule_mutants import RuleMutants
from ruleproof.timing.berserk import berserk_sequence
from ruleproof.timing.declaration import QueueOrder
from ruleproof.timing.system import build_system

MUTANTS = RuleMutants()

_MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk" / "timing.py"


@MUTANTS("order_ignored", "111.4: the Очередь resolves in the other order than the scenario's (a FIFO Очередь "
         "judged by the LIFO rule and vice versa)")
def _order_ignored(m: Model) -> None:
    # The queue order is a parameter of the timing declaration; the generator reads it in two moves only:
    # which slot a nested condition takes and where the game returns ('nest', 'return').  Their bodies are
    # taken from the system generated from the same scenario with the other order.
    other = QueueOrder.FIFO if m.params["order"] == "lifo" else QueueOrder.LIFO
    scen = import_file(_MODEL).scenario(int(m.params["players"]), int(m.params["max_depth"]))
    broken = build_system(berserk_sequence(other, mandatory_first=m.params["triggered"] == "mandatory_first"), scen,
                          name="ochered")
    for family in ("nest", "return"):
        m.redefine(family)(broken._decls[family].body)


@MUTANTS("triggered_order_mixed", "review F12: the optional triggered ability (Талос) may also enter the Очередь "
         "in the step of the mandatory ones, so it may come before them (setting mandatory_first) or after them "
         "(setting optional_first)")
def _triggered_order_mixed(m: Model) -> None:
    v = m.v
    m.replace_require("initiate", lambda k, ab: v.step[k] == "optional",
                      lambda k, ab: (v.step[k] == "optional") | (v.step[k] == "triggered"))


@MUTANTS("horn_uncounted", "the use of Боевой рог for an entry is not recorded: it may answer the same entry again, "
         "and the order of the triggered abilities (review F12) is judged as if it had not entered the Очередь")
def _horn_uncounted(m: Model) -> None:
    v = m.v

    @m.amend("initiate")
    def _(a: Step, k: Term, ab: Term) -> None:
        if ab.name == "boevoy_rog":
            a.set(v.used[k, ab], v.used[k, ab])


@MUTANTS("uses_forgotten_on_pass", "a pass forgets which abilities were used for the entry: an ability may answer the "
         "same entry again after a pass")
def _uses_forgotten_on_pass(m: Model) -> None:
    v = m.v

    @m.amend("pass")
    def _(a: Step, k: Term, mv: Term, p: Term) -> None:
        for ab in m.sorts.Ability:
            a.set(v.used[k, ab], 0)
