"""The Berserk Очередь: declared with the game-neutral timing declaration, LIFO and FIFO both checked."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ruleproof.cli import run
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_property, check_system
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict
from ruleproof.timing.berserk import berserk_sequence
from ruleproof.timing.declaration import QueueOrder
from ruleproof.timing.graph import timing_graph

ROOT = Path(__file__).resolve().parents[2]
LIFO = "only the newest entry of the Очередь progresses (LIFO)"
FIFO = "entries resolve in the order they entered the Очередь (FIFO)"
EFFECTS = "an entry's effects apply only when it resolves, after the responses"


def load(scenario: str, **over):
    spec = next(s for s in discover(ROOT / "model" / "berserk") if s.name == "timing")
    return load_system(spec, scenario, over)


@pytest.mark.parametrize(("scenario", "order_prop", "sanity"), [
    ("lifo", LIFO, "sanity: a response resolves before the ability it answers (LIFO)"),
    ("fifo", FIFO, "sanity: a response waits until the ability it answers has resolved (FIFO)"),
])
def test_each_queue_order_keeps_its_rule_and_the_order_makes_a_difference(scenario, order_prop, sanity):
    s = load(scenario)
    lemmas = [p.name for p in s.properties if p.name.startswith("lemma:")]  # the generator's strengthening
    results = check_system(s, "auto",
            Options(depth=10, rlimit=DEFAULT_RLIMIT, timeout=600), [*lemmas, order_prop, EFFECTS, sanity])
    assert [r.verdict for r in results] == [Verdict.PROVED] * len(results), [(r.property, r.reason) for r in results]
    assert next(r for r in results if r.property == sanity).trace is not None  # the witness replays


@pytest.mark.parametrize(("scenario", "order_prop"), [("lifo", LIFO), ("fifo", FIFO)])
def test_declaring_the_other_order_is_caught(scenario, order_prop):
    s = load(scenario, mutant="order_ignored")
    r = check_property(s, s.prop(order_prop), "bmc", Options(depth=12, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict is Verdict.VIOLATED and r.trace is not None and r.trace.steps


def test_the_declaration_is_game_neutral_and_the_order_is_its_parameter():
    lifo, fifo = berserk_sequence(QueueOrder.LIFO), berserk_sequence(QueueOrder.FIFO)
    assert lifo.steps == fifo.steps and lifo.moves == fifo.moves
    assert (lifo.queue_order, fifo.queue_order) == (QueueOrder.LIFO, QueueOrder.FIFO)
    g = timing_graph(lifo, 2)
    labels = " ".join(str(d.get("label", n)) for n, d in g.nodes(data=True))
    assert "Очередь" in labels and "resolves" in labels


def test_graph_command_draws_the_berserk_queue(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    target = tmp_path / "ochered.dot"
    argv = ["graph", str(ROOT / "model" / "berserk"), "--what", "timing", "--format", "dot", "--out", str(target)]
    rc = run(argv, out, err)
    assert rc == 0, err.getvalue()
    text = target.read_text(encoding="utf-8")
    assert "digraph" in text and "Очередь" in text and "nest" in text
