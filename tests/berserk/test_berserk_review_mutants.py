"""The Berserk rules review's holes in the property suite, each shown by the generated mutant it names.

Every mutant here survived ``ruleproof mutants`` on commit 3e7e81c (review sections 3.2 and 4); each is now
killed, in some checked scenario, by the property written from the rule text that the review asked for,
or proved equivalent because it only changes bookkeeping.  Judged by the same engine as ``ruleproof
mutants`` (every checked scenario; an exhaustive search of these small systems, no solver budget).
"""

from __future__ import annotations

import pytest
from berserk_helpers import MODEL

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.loader import discover
from ruleproof.mutants import MutantResult, mutants_of
from ruleproof.scale.mutants import MutantUnit, run_mutant_unit
from ruleproof.scale.systems import cached_system, model_ref

REF = model_ref(MODEL)


def judged(system: str, kind: str, family: str, target: str = "", detail: str = "") -> MutantResult:
    """The verdict on the generated mutant of ``system`` picked by kind, family and target (or guard text)."""
    spec = next(s for s in discover(MODEL) if s.name == system)
    found = {m.label for sc in spec.checked for m in mutants_of(cached_system(REF, system, sc, ()))
             if m.kind == kind and m.family == family and (not target or m.target == target)
             and (not detail or m.detail == detail)}
    assert len(found) == 1, found
    unit = MutantUnit(REF, system, spec.checked, found.pop(), system,
            Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600))
    return run_mutant_unit(unit)


CASES = [
    # F3: the Келе condition «если после этого у Келе нет ран» was in no property
    # (539.4 is interactive since review F2: the heal is declared by trigger_*, and heals when resolve_heal_* runs)
    ("actions", "drop-update", "resolve_heal_a", "wounds", "",
     "539.4: Келе излечивается на 2 при разрешении; модификатор — только если после этого нет ран"),
    ("actions", "drop-update", "resolve_heal_d", "wounds", "",
     "539.4.1: Келе на ответном ударе излечивается на 2 при разрешении; модификатор — только если после этого нет ран"),
    # F10: payment before the performance, an illegal action performed, a legal one interrupted
    ("actions", "drop-guard", "pay", "", "(stage == payment)",
     "539.2: этап оплаты наступает только после выполнения (и срабатываний)"),
    ("actions", "drop-update", "interrupt", "stage", "",
     "526.1: прерывается только заявленное действие, ставшее нелегальным, и оно уходит из стека"),
    # W3: the response heals nothing / blocking never happens: the 526.1 and blocking properties went vacuous
    ("actions", "drop-update", "respond_heal", "wounds", "",
     "ответ: быстрый эффект противника излечивает свою раненую карту ровно на 1, один раз за действие"),
    ("actions", "drop-update", "respond_block", "blocked", "",
     "блокирование (RP 3.1-1): заявленная способность блокируется до выполнения"),
    # 539.1.3 «за ход»: the per-turn count never resets
    ("actions", "drop-update", "end_turn", "uses", "",
     "конец хода: ход переходит к другому игроку; движение восполняется, счётчики «за ход» обнуляются"),
    # W4: no rule effect ever starts / the chain does not follow the graph / priority never returns
    ("rule_effects", "drop-update", "perform_top", "pending", "",
     "503.2: выполненное игродействие уходит из стека и сразу делает актуальным эффект правил A"),
    ("rule_effects", "drop-update", "rule_effect", "pending", "",
     "503.2: выполненный эффект правил сразу делает актуальным следующий по графу"),
    ("rule_effects", "drop-update", "chain_ends", "priority", "",
     "503.2: приоритет возвращается к игрокам, когда цепочка эффектов правил закончена (chain_ends)"),
    # W7: the cost of an activated ability («Оплата: эффект») was unchecked
    ("abilities111", "drop-update", "activate_hero", "hero_tapped", "",
     "111.2 (таблица): стоимость активируемой способности оплачивается при активации (закрыть героя)"),
    ("abilities111", "drop-guard", "activate_caster", "", "not caster_tapped",
     "111.2 (таблица): стоимость активируемой способности оплачивается при активации (закрыть Заклинателя)"),
    # F13: a removal of a printed instance (scenario printed: Вайл prints Рывок)
    ("abilities111", "drop-update", "resolve", "lost", "",
     "111.3: после удаления способности не остаётся ни одного её экземпляра"),
    # 4.4 (the Очередь): a response used but never entered as an entry of its own; a window reopened with
    # the priority left where it was; an ability used without priority; an entry left behind in the Очередь
    ("timing", "drop-guard", "resolve", "", "raised[l1]",
     "the window continues only after the ability used has entered the Очередь"),
    ("timing", "drop-update", "initiate", "raised", "", "an ability just used has not entered the Очередь yet"),
    ("timing", "drop-update", "resolve", "turn", "",
     "a window opens with the active player's priority and no pass yet (resolve)"),
    ("timing", "drop-guard", "initiate", "", "(turn[l1] == p2)",
     "only the player with priority activates an ability in a window"),
    ("timing", "drop-update", "return", "has", "", "an empty place of the Очередь holds no triggering condition"),
]


@pytest.mark.parametrize("system,kind,family,target,detail,prop", CASES)
def test_review_hole_is_now_killed(system: str, kind: str, family: str, target: str, detail: str,
                                   prop: str) -> None:
    r = judged(system, kind, family, target, detail)
    assert r.status == "killed", (r.label, r.status, r.reason)
    assert r.killed_by == (prop,), r.killed_by
    assert r.trace is not None and r.trace.steps


@pytest.mark.parametrize("family,target", [("initiate", "turn"), ("return", "passes")])
def test_priority_outside_a_window_is_not_shown(family: str, target: str) -> None:
    """Who has priority and how many passed in a row exist only while a window is open (the next window
    starts afresh): a mutant that leaves them stale elsewhere is proved equivalent, not a hole."""
    r = judged("timing", "drop-update", family, target)
    assert r.status == "equivalent", (r.status, r.reason)
