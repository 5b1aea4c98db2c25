"""The human trace: arrays in the initial state show their commonest value once, nothing is dropped."""

from __future__ import annotations

from ruleproof.report import render_trace
from ruleproof.results import Change, Trace, TraceStep


def _trace(initial: list[tuple[str, object]]) -> Trace:
    step = TraceStep("take(p1)", "take", (("p", "player 1"),), (), "player 1 takes 1 gold",
                     (Change("gold[player 1]", 1, 2),))
    return Trace(tuple(initial), (step,))  # type: ignore[arg-type]


def test_an_array_shows_its_commonest_value_and_every_exception() -> None:
    t = _trace([("treasury", 4), ("zone[card 1]", "hand"), ("zone[card 2]", "play"), ("zone[card 3]", "hand"),
                ("zone[card 4]", "dead"), ("standing[card 1]", True), ("standing[card 2]", True),
                ("standing[card 3]", True), ("gold[player 1]", 1), ("gold[player 2]", 3)])
    assert render_trace(t, "") == [
        "initial state: treasury=4",
        "  zone: hand, except card 2=play, card 4=dead",
        "  standing: true for all 3",
        "  gold: player 1=1, player 2=3",  # two elements: listed, not summarised
        "1. player 1 takes 1 gold: gold[player 1] 1 -> 2",
    ]


def test_every_element_is_recoverable_from_the_text() -> None:
    """No value is lost: each element is either listed or equal to the stated common value."""
    initial = [(f"power[character {i}]", i % 3 == 0) for i in range(1, 10)]
    lines = render_trace(_trace(initial), "")
    (body,) = [x for x in lines if x.startswith("  power: ")]
    common, _, rest = body.removeprefix("  power: ").partition(", except ")
    listed = dict(x.split("=") for x in rest.split(", "))
    for name, v in initial:
        elem = name[len("power["):-1]
        assert listed.get(elem, common) == str(v).lower()
