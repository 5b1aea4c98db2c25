"""The timing graph, its exports and the exhaustive graph checks (with a mutant per check)."""

from __future__ import annotations

import networkx as nx
import pytest

from ruleproof.timing.agot import AGOT_ROUND, AGOT_SEQUENCE, mutant
from ruleproof.timing.checks import (
    check_cancel_final,
    check_cancel_first,
    check_ends_closed,
    check_forced_first,
    check_reactions_after,
    check_stack,
    check_windows,
    run_checks,
    run_round_checks,
)
from ruleproof.timing.declaration import Move, MoveKind
from ruleproof.timing.graph import read_graphml, round_graph, timing_graph, to_dot, to_graphml


def test_sequence_order_in_the_graph() -> None:
    g = timing_graph(AGOT_SEQUENCE, levels=2)
    chain = [
        "imminent",
        "cancels",
        "would",
        "forced_interrupts",
        "interrupts",
        "occurs",
        "forced_reactions",
        "reactions",
        "closed",
    ]
    for a, b in zip(chain, chain[1:], strict=False):
        assert g.has_edge(f"0:{a}", f"0:{b}"), (a, b)
        assert g.edges[f"0:{a}", f"0:{b}"]["kind"] in ("proceed", "pass")
    assert g.edges["0:cancels_resolving", "0:cancelled"]["kind"] == "cancel"
    assert g.edges["0:would_resolving", "0:changed"]["kind"] == "change"
    assert g.edges["0:changed", "0:would"]["kind"] == "proceed"  # a changed condition is past the cancel window
    assert g.edges["0:reactions_resolving", "1:imminent"]["kind"] == "nest"
    ret = g.edges["1:closed", "0:reactions_resolving"]
    assert ret["kind"] == "return" and "0:reactions_resolving" in ret["sites"].split(",")
    assert not any(
        d["kind"] == "nest" for u, _, d in g.out_edges(data=True) if u.startswith("1:")
    )  # deepest level drawn


def test_every_check_holds_on_agot() -> None:
    results = run_checks(AGOT_SEQUENCE)
    assert len(results) == 7
    for r in results:
        assert r.ok, (r.name, r.reason, r.witness)
        assert r.cites and r.nodes > 0
    for r in run_round_checks(AGOT_ROUND):
        assert r.ok, (r.name, r.reason)


@pytest.mark.parametrize(
    ("check", "name", "needle"),
    [
        (check_ends_closed, "window_never_closes", "0:reactions"),
        (check_cancel_final, "cancel_continues", "0:forced_interrupts"),
        (check_forced_first, "window_before_forced", "0:interrupts"),
        (check_forced_first, "no_forced_reactions", ""),
        (check_reactions_after, "reactions_before_occurrence", "0:forced_reactions"),
        (check_reactions_after, "interrupts_after_occurrence", "0:interrupts"),
        (check_windows, "close_after_one_pass", "0:reactions"),
        (check_windows, "active_player_first", "0:interrupts"),
        (check_stack, "return_elsewhere", "0:occurs"),
        (check_stack, "fifo", "0:cancels_resolving"),
        (check_cancel_first, "cancel_after_would", "0:would"),
    ],
)
def test_each_check_catches_its_mutant(check, name: str, needle: str) -> None:  # type: ignore[no-untyped-def]
    assert check(timing_graph(AGOT_SEQUENCE, 3)).ok
    r = check(timing_graph(mutant(name), 3))
    assert not r.ok
    assert r.witness and r.reason
    assert r.witness[0] == "0:imminent"
    if needle:  # the step the witness must pass (at any nesting level)
        assert any(n.split(":", 1)[1] == needle.split(":", 1)[1] for n in r.witness), r.witness


def test_witness_is_a_path_of_the_graph() -> None:
    g = timing_graph(mutant("cancel_continues"), 3)
    r = check_cancel_final(g)
    assert not r.ok
    for a, b in zip(r.witness, r.witness[1:], strict=False):
        assert g.has_edge(a, b), (a, b)
    assert "cancel" in {g.edges[a, b]["kind"] for a, b in zip(r.witness, r.witness[1:], strict=False)}
    assert "(" in r.show(g)


def test_a_window_that_never_closes_traps_the_sequence() -> None:
    g = timing_graph(mutant("window_never_closes"), 2)
    r = check_ends_closed(g)
    assert not r.ok and "trapped at" in r.reason
    assert r.witness[-1].endswith(":reactions") or r.witness[-1].endswith(":reactions_resolving")
    for a, b in zip(r.witness, r.witness[1:], strict=False):
        assert g.has_edge(a, b)


def test_removing_the_forced_reaction_step_changes_the_graph() -> None:
    g = timing_graph(AGOT_SEQUENCE, 2)
    h = timing_graph(mutant("no_forced_reactions"), 2)
    assert "0:forced_reactions" in g and "0:forced_reactions" not in h
    assert h.edges["0:occurs", "0:reactions"]["kind"] == "proceed"
    assert check_forced_first(g).ok and not check_forced_first(h).ok


def test_round_graph_and_its_mutant() -> None:
    g = round_graph(AGOT_ROUND)
    assert g.edges["fw_7_5", "fw_1_1"]["kind"] == "loop"
    assert g.edges["aw_marshal", "fw_3_3"]["kind"] == "pass"
    assert g.nodes["aw_challenges"]["kind"] == "action_window"
    broken = AGOT_ROUND.with_moves(drop=[("fw_7_5", "fw_1_1")])
    r = run_round_checks(broken)[0]
    assert not r.ok and "never returns" in r.reason
    closes_early = AGOT_ROUND.with_window("aw_marshal", passes_to_close=1)
    assert not run_round_checks(closes_early)[1].ok


def test_graphml_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    for g in (timing_graph(AGOT_SEQUENCE, 2), round_graph(AGOT_ROUND)):
        for _, d in g.nodes(data=True):
            assert all(isinstance(v, str) for v in d.values())
        for _, _, d in g.edges(data=True):
            assert all(isinstance(v, str) for v in d.values())
        p = tmp_path / "g.graphml"
        p.write_bytes(to_graphml(g))
        back = read_graphml(p)
        assert set(back.nodes) == set(g.nodes)
        assert set(back.edges) == set(g.edges)
        assert nx.get_edge_attributes(back, "kind") == nx.get_edge_attributes(g, "kind")
        assert dict(back.nodes(data=True)) == dict(g.nodes(data=True))


def test_dot_lists_every_node_and_edge() -> None:
    g = timing_graph(AGOT_SEQUENCE, 2)
    dot = to_dot(g)
    assert dot.startswith('digraph "agot-triggering-condition"')
    assert dot.count(" -> ") == g.number_of_edges()
    assert '"0:cancels_resolving" -> "0:cancelled"' in dot and 'kind="cancel"' in dot


def test_declaration_rejects_unknown_steps() -> None:
    from ruleproof.errors import InputError

    with pytest.raises(InputError) as e:
        AGOT_SEQUENCE.with_moves(add=[Move("occurs", "nowhere", MoveKind.PROCEED)])
    assert any("nowhere" in i for i in e.value.info)


def test_review_f11_the_round_order_is_checked() -> None:
    """F11 (medium). Appendix I: the challenge bonuses (4.2.3) come before the claim (4.2.4), dominance (5) before
    standing (6). Two mutated round declarations, claim before the unopposed bonus and standing before dominance,
    passed every round check at 3e7e81c; the Appendix I order check fails on both, with a path to the wrong move."""
    from ruleproof.timing.declaration import Move, MoveKind

    assert all(r.ok for r in run_round_checks(AGOT_ROUND))

    def move(a: str, b: str) -> Move:
        return Move("fw_" + a.replace(".", "_"), "fw_" + b.replace(".", "_"), MoveKind.PROCEED, "", ())

    def fw(x: str) -> str:
        return "fw_" + x.replace(".", "_")

    claim_first = AGOT_ROUND.with_moves(
        drop=[(fw("4.2.2"), fw("4.2.3")), (fw("4.2.3"), fw("4.2.4")), (fw("4.2.4"), fw("4.2.5"))],
        add=[move("4.2.2", "4.2.4"), move("4.2.4", "4.2.3"), move("4.2.3", "4.2.5")],
    )
    standing_first = AGOT_ROUND.with_moves(
        drop=[(fw("4.4"), fw("5.1")), (fw("5.3"), fw("6.1")), (fw("6.3"), fw("7.1"))],
        add=[move("4.4", "6.1"), move("6.3", "5.1"), move("5.3", "7.1")],
    )
    for broken, wrong in ((claim_first, "4.2.2 leads to 4.2.4"), (standing_first, "4.4 leads to 6.1")):
        results = run_round_checks(broken)
        assert [r.ok for r in results[:2]] == [True, True]  # the checks of 3e7e81c pass it
        order = results[2]
        assert order.name == "framework steps follow the Appendix I order"
        assert not order.ok and wrong in order.reason
        g = round_graph(broken)
        assert order.witness[0] == broken.entry
        for a, b in zip(order.witness, order.witness[1:], strict=False):
            assert g.has_edge(a, b)


def test_review_f9_the_title_steps_belong_to_the_melee_format() -> None:
    """F9 (medium, the round part). Melee Game: melee games use the title cards and framework steps 1.4 and 7.4;
    Joust Game: they are not used. At 3e7e81c one round declaration held both branches unguarded out of 1.3 and
    7.3 (a joust could select titles, a melee skip them) and no check related them to the format. Each format now
    has its own round, and the format check fails on the unguarded one in both formats."""
    from ruleproof.timing.agot import agot_round_for
    from ruleproof.timing.checks import check_round_format

    joust, melee = agot_round_for(False), agot_round_for(True)
    assert "fw_1_4" not in {s.name for s in joust.steps} and "fw_7_4" not in {s.name for s in joust.steps}
    for decl, is_melee in ((joust, False), (melee, True)):
        assert all(r.ok for r in run_round_checks(decl)), [r.reason for r in run_round_checks(decl) if not r.ok]
        assert check_round_format(decl, is_melee).ok
    both = check_round_format(AGOT_ROUND, True), check_round_format(AGOT_ROUND, False)
    assert not both[0].ok and "skips the title step fw_1_4" in both[0].reason
    assert not both[1].ok and both[1].witness[-1] == "fw_1_4"
    g = round_graph(AGOT_ROUND)
    for r in both:
        for a, b in zip(r.witness, r.witness[1:], strict=False):
            assert g.has_edge(a, b)
