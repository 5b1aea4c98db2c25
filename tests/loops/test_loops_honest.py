"""Honest answers of ``ruleproof loops``: unread text first, ``unknown`` over what was not read, exit 0 only when
the report is complete (every ability read in full, every candidate decided)."""

from __future__ import annotations

import io
import json
from functools import cache
from typing import Any

from ruleproof.cards.pool import load_pool
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.loops import Category, LoopReport, find_loops
from ruleproof.loops.cli import loops
from ruleproof.loops.driver import search_loops

POOL = load_pool()


@cache
def core_slice() -> LoopReport:
    """A bounded slice of the real pool: the Core set plus ten stand/kneel/gold cards, cycles of at most two
    abilities.  Searched once in this module (some 50 s of CPU): two tests read the same report.  Each solver call
    is bounded by the resource limit, not by wall-clock time, so a loaded machine gives the same report."""
    extra = ["00281", "25075", "01163", "04090", "07013", "07017", "16013", "00151", "14037", "11050"]
    codes = [c.code for c in POOL.cards if c.pack_code == "Core"] + extra
    return search_loops(POOL, codes=codes, max_length=2, timeout=None, rlimit=DEFAULT_RLIMIT)


def _cli(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()

    class S:
        def __init__(self) -> None:
            self.out, self.err = out, err

    rv = loops.main(args=args, prog_name="loops", standalone_mode=False, obj=S())
    return int(rv), out.getvalue()


def test_fully_read_cards_with_no_loop_are_a_complete_answer() -> None:
    """Magister Illyrio (pay 2 gold: stand) + Chataya's Brothel (kneel: 1 gold): read in full, no loop."""
    rc, out = _cli(["--cards", "01163", "--cards", "04090", "--json"])
    obj: dict[str, Any] = json.loads(out)
    assert rc == 0 and obj["complete"] is True and obj["unread"] == []
    assert obj["coverage"]["analysed"] == obj["coverage"]["candidates"] > 0
    rc, text = _cli(["--cards", "01163", "--cards", "04090"])
    assert rc == 0 and text.splitlines()[-2] == "complete: every ability read in full and every candidate decided"


def test_unread_text_is_listed_first_and_makes_the_answer_unknown() -> None:
    """The Knight of Flowers' "stand that character" is not read: it could close a cycle, so no "nothing found"
    (exit 3)."""
    rc, text = _cli(["--cards", "00273", "--cards", "02078"])
    lines = text.splitlines()
    assert rc == 3
    assert lines[0].startswith("== not read in full (1; 1 could close a cycle")
    assert lines[1].startswith("The Knight of Flowers (00273#1) reaction  [could link: out")
    assert "stand that character" in text
    assert lines[-2].startswith("not complete: 1 ability could close a cycle through text that was not read")
    obj = json.loads(_cli(["--cards", "00273", "--cards", "02078", "--json"])[1])
    assert obj["complete"] is False and obj["through_unread"] == ["00273#1"]
    (u,) = obj["unread"]
    assert u["could_link"][0] == "out" and any("stand that character" in p for p in u["phrases"])


def test_deciding_every_candidate_of_the_read_text_is_not_enough() -> None:
    """Every candidate the read text forms is decided (Magister Illyrio and Chataya's Brothel, read in full), yet
    the report is not complete: The Knight of Flowers' unread text could close another cycle."""
    rep = find_loops(POOL, codes=["00273", "01163", "04090"], timeout=30)
    assert rep.analysed == len(rep.results) > 0  # what was read is all decided ...
    assert not rep.complete and rep.through_unread  # ... but the unread text keeps the answer open


def test_real_pool_subset_completes_quickly() -> None:
    """A bounded slice of the real pool (the Core set plus stand/kneel/gold cards) runs end to end."""
    rep = core_slice()
    assert rep.candidates == len(rep.results) > 0
    assert sum(n for _, n in rep.counts) == rep.candidates
    for r in rep.results:
        assert r.reason
        if r.category in (Category.UNBOUNDED, Category.MANDATORY):
            assert r.trace is not None and r.trace_passes == 2


def test_a_slice_of_the_pool_counts_analysed_and_names_the_undecided() -> None:
    """The Core set (with the ten cards of :func:`core_slice`): every candidate is analysed, unknown or
    unsupported, and the undecided ones' reasons are counted (the whole-pool run reports them the same way)."""
    from ruleproof.loops.search import report_json, top_reasons

    rep = core_slice()
    undecided = [r for r in rep.results if r.category in (Category.UNKNOWN, Category.UNSUPPORTED)]
    assert rep.analysed + len(undecided) == rep.candidates > 0
    assert sum(n for _, n in top_reasons(rep, n=10**6)) == len(undecided)
    assert not [r.reason for r in undecided if "timeout" in r.reason or "timed out" in r.reason]  # rlimit, not time
    cov = report_json(rep)["coverage"]
    assert cov["analysed"] == rep.analysed and not rep.complete


def test_nothing_found_over_an_unread_restriction_is_not_complete() -> None:
    """Forced March and Champion's Challenge in the loop corpus: no candidate at all, one ability not read in full
    whose unread text could not link a cycle (a restriction: "could link: no").  Still no "nothing found": the
    report is not complete, exit 3."""
    from ruleproof.loops.cli import _report, render_report
    from ruleproof.loops.search import LoopReport, UnreadAbility

    u = UnreadAbility("15049", 0, "Champion's Challenge", "reaction",
                      ("target restriction not read: 'among character you control'",))
    rep = LoopReport((), 1, 0, (), (), 0.1, unread=(u,), named=True)
    assert not rep.complete
    assert render_report(rep).splitlines()[-2] == ("not complete: 1 ability not read in full (a loop could be "
                                                   "missing: unknown)")
    out = io.StringIO()
    assert _report(out, rep, None, True, False, {}) == 3
    assert json.loads(out.getvalue())["complete"] is False
    read = LoopReport((), 1, 0, (), (), 0.1, named=True)
    assert read.complete and _report(io.StringIO(), read, None, False, False, {}) == 0


def test_an_effect_the_table_does_not_know_keeps_the_report_open() -> None:
    """Chamber of the Painted Table (01060: "Reaction: After you win dominance, kneel Chamber of the Painted Table to
    move 1 power from an opponent's faction card to your own."): read in full, but 'move power' has no entry in the
    semantics table, so the ability graph links nothing through it and cannot show that two copies form no cycle:
    listed, could link out, and the report is not complete."""
    rep = find_loops(POOL, codes=["01060"], opponent_codes=["01060"], timeout=30)
    assert rep.candidates == 0 and not rep.complete
    (u,) = rep.unread
    assert u.key == "01060" and u.links == ("out",) and rep.through_unread == (u,)
    assert any(p.startswith("effect move_power: read, but the loop model has no entry") for p in u.phrases)


def test_two_cancels_of_each_others_events_form_a_cycle_that_cannot_repeat() -> None:
    """The Hand's Judgment (01045: "Interrupt: When the effects of an opponent's event would initiate, cancel those
    effects.") for both players: playing one is the initiation of an event, which the other answers (Cancel), so the
    graph links the two copies; each copy goes to its owner's discard pile once played (FAQ: The Hand's Judgment),
    so the pair is not a loop, and the report over the two cards, read in full, is complete."""
    rep = find_loops(POOL, codes=["01045"], opponent_codes=["01045"], timeout=30)
    assert rep.candidates == 1 and not rep.unread
    (r,) = rep.results
    assert r.category.value == "not_a_loop", r.reason
    assert rep.complete


def test_two_unread_triggers_could_answer_each_others_initiation() -> None:
    """The Harrenhal mirror: each Harrenhal's trigger ('when the effects of a non-plot, non-agenda triggered ability
    would initiate') is not read, so each could answer the other's initiation: a cycle through unread text that no
    read edge shows (the report said '0 could close a cycle').  One Harrenhal alone cannot answer its own."""
    rep = find_loops(POOL, codes=["16021"], opponent_codes=["16021"], timeout=30)
    assert [f"{u.key}#{u.index}" for u in rep.through_unread] == ["16021#2"] and not rep.complete
    alone = find_loops(POOL, codes=["16021"], timeout=30)
    assert [f"{u.key}#{u.index}" for u in alone.unread] == ["16021#2"] and alone.through_unread == ()
    assert not alone.complete
