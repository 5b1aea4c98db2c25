"""The AGoT timing sequence (src/ruleproof/timing/agot.py, model/agot/timing.py): the review's F6 and F10.

Each ``test_review_*`` was run against commit 3e7e81c (its ``src`` and ``model``:
``PYTHONPATH=<3e7e81c>/src RULEPROOF_AGOT_MODEL=<3e7e81c>/model/agot``) and failed there; it passes now.
"""

from __future__ import annotations

from agot_rules_helpers import Concrete, load

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines import bmc
from ruleproof.engines.common import Options
from ruleproof.ir import Property, PropKind
from ruleproof.results import Verdict
from ruleproof.timing.agot import AGOT_SEQUENCE
from ruleproof.timing.declaration import StepKind
from ruleproof.timing.system import Ability, Scenario, build_system


def test_review_f6_after_an_ability_resolves_the_next_player_has_the_opportunity():
    """F6 (medium). Pass: "Should one player perform the function (i.e., not pass) during his or her opportunity,
    opportunities to perform or pass continue clockwise in player order".  Player 1 holds two reactions and
    player 2 one; after player 1's first reaction resolves, player 2 has the opportunity, so player 1 cannot
    initiate the second at once (at 3e7e81c the first player got the opportunity again after every
    resolution)."""
    r = StepKind.REACTION_WINDOW
    scen = Scenario(players=2, conditions=("kill",), start=("kill",),
                    abilities=(Ability("r1", 1, r, "kill"), Ability("r2", 1, r, "kill"), Ability("q", 2, r, "kill")),
                    max_depth=1)
    c = Concrete(build_system(AGOT_SEQUENCE, scen).finish())
    s = c.state({"first": "p1", "step[l1]": "reactions", "turn[l1]": "p1", "occurred[l1]": True, "fresh[l1]": True})
    s = c.step("resolve(l1, r1)", c.step("initiate(l1, r1)", s))
    assert s is not None and c.get(s, "turn[l1]") == "p2"
    assert not c.enabled("initiate(l1, r2)", s)
    assert c.enabled("initiate(l1, q)", s)


def test_review_f10_no_cancel_after_a_would_interrupt_changed_the_occurrence():
    """F10 (medium). Cancel: "cancel abilities have timing priority over all other interrupts to the effect";
    The word "Would": once a 'would' interrupt changed what is about to occur, no further interrupts to the
    original trigger.  In the bundled timing scenario (two kills at once; player 1's save_a would save the first
    character; cancel_b cancels the second kill) no path has cancel_b resolving after save_a was used (at
    3e7e81c one did, in 6 steps)."""
    s = load("timing", "default")
    used = next(v.name for v in s.vars if v.name == "used[l1,save_a]")
    resolving = next(v.name for v in s.vars if v.name == "resolving[l1]")
    from ruleproof import ir

    t_used = s.var(used).type
    t_res = s.var(resolving).type
    target = ir.and_(
        ir.le(ir.const(1), ir.Var(used, t_used)), ir.eq(ir.Var(resolving, t_res), ir.Const("cancel_b", t_res))
    )
    prop = Property("AUDIT: cancel_b resolves after save_a was used", PropKind.REACH, target, ())
    r = bmc.check(s, prop, Options(depth=8, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict is not Verdict.PROVED, r.trace  # the target is never reached
