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


# review F12: the declaration put the mandatory triggered abilities before the optional ones, with no source; the
# order is now the rule parameter ``triggered``, both settings checked with each order of the Очередь
OPTIONAL_FIRST = "sanity: the optional ability has entered and the mandatory one not yet (optional_first)"
MANDATORY_FIRST = ("sanity: the mandatory ability has entered and the optional one is still to be offered "
                   "(mandatory_first)")
MIXED_CAUGHT = {
    "mandatory_first": "a mandatory triggered ability enters the Очередь before the optional ones (mandatory_first)",
    "optional_first": "an optional triggered ability enters the Очередь before the mandatory ones (optional_first)",
}


@pytest.mark.parametrize("order", ["lifo", "fifo"])
def test_each_order_of_triggered_abilities_is_checked_and_reached(order):
    """On 3e7e81c's declaration no checked scenario ever let the optional Талос enter the Очередь before the
    mandatory Боевой рог (review F12's exhaustive scan); now a checked scenario of each Очередь order does, and
    another reaches the opposite order."""
    from ruleproof.loader import import_file

    spec = next(s for s in discover(ROOT / "model" / "berserk") if s.name == "timing")
    scenarios = import_file(ROOT / "model" / "berserk" / "timing.py").SCENARIOS
    reached = set()
    for sc in spec.checked:
        if scenarios[sc]["order"] != order:
            continue
        s = load(sc)
        for p in s.properties:
            if p.name in (OPTIONAL_FIRST, MANDATORY_FIRST):
                r = check_property(s, p, "explicit", Options(depth=60))
                assert r.verdict is Verdict.PROVED and r.trace is not None, (sc, p.name, r.reason)
                reached.add(p.name)
    assert reached == {OPTIONAL_FIRST, MANDATORY_FIRST}


@pytest.mark.parametrize(("scenario", "target"), [("lifo", MANDATORY_FIRST), ("lifo_optional_first", OPTIONAL_FIRST)])
def test_the_plain_check_reaches_the_order_of_triggered_abilities_past_its_depth(scenario, target):
    """Under LIFO these witnesses are longer than `ruleproof check`'s default depth of 12 (a nested entry first):
    the check ended UNKNOWN (Spacer out of its limit), exit 3; a system this small is now explored whole."""
    s = load(scenario)
    r = check_property(s, s.prop(target), "auto", Options(depth=12, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict is Verdict.PROVED and r.engine == "auto/explicit" and r.trace is not None, r.reason
    assert len(r.trace.steps) > 12


@pytest.mark.parametrize(("scenario", "prop"), [
    ("lifo", MIXED_CAUGHT["mandatory_first"]),
    ("fifo", MIXED_CAUGHT["mandatory_first"]),
    ("fifo_optional_first", MIXED_CAUGHT["optional_first"]),  # LIFO needs a longer trace (a nested entry first)
])
def test_mixing_the_order_of_triggered_abilities_is_caught(scenario, prop):
    s = load(scenario, mutant="triggered_order_mixed")
    r = check_property(s, s.prop(prop), "bmc", Options(depth=12, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict is Verdict.VIOLATED and r.trace is not None and r.trace.steps


COUNTED = "using an ability for an entry counts it for that entry, and nothing else"


@pytest.mark.parametrize("scenario", ["lifo_optional_first", "fifo_optional_first", "lifo"])
def test_the_count_the_triggered_order_reads_is_tied_to_the_game(scenario):
    """The F12 property reads the generator's count ``used``; a second property ties it to the game (an ability
    used for an entry is counted there).  With Боевой рог's use not recorded (rule mutant ``horn_uncounted``), the
    optional_first property is blind to it, and the tie catches it."""
    s = load(scenario, mutant="horn_uncounted")
    opts = Options(depth=10, rlimit=DEFAULT_RLIMIT, timeout=600)
    r = check_property(s, s.prop(COUNTED), "bmc", opts)
    assert r.verdict is Verdict.VIOLATED and r.trace is not None and r.trace.steps
    assert r.trace.steps[-1].action.startswith("initiate"), r.trace.steps[-1]
    if scenario.endswith("optional_first"):
        f12 = check_property(s, s.prop(MIXED_CAUGHT["optional_first"]), "bmc", opts)
        assert f12.verdict is not Verdict.VIOLATED  # the property that reads the count alone misses it
    rules = load(scenario)
    assert check_property(rules, rules.prop(COUNTED), "kind", opts).verdict is Verdict.PROVED


@pytest.mark.parametrize("scenario", ["fifo", "fifo_optional_first"])
def test_a_count_of_uses_forgotten_at_a_pass_is_caught(scenario):
    """Rule mutant ``uses_forgotten_on_pass``: a pass resets the count of uses, the entry's conditions unchanged."""
    s = load(scenario, mutant="uses_forgotten_on_pass")
    name = "a count of uses goes back to zero only when the entry's conditions change (pass)"
    opts = Options(depth=10, rlimit=DEFAULT_RLIMIT, timeout=600)
    r = check_property(s, s.prop(name), "bmc", opts)
    assert r.verdict is Verdict.VIOLATED and r.trace is not None and r.trace.steps[-1].action.startswith("pass")
    rules = load(scenario)
    assert check_property(rules, rules.prop(name), "kind", opts).verdict is Verdict.PROVED
