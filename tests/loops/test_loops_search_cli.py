"""find_loops over pools and the ``ruleproof loops`` command (in-process)."""

from __future__ import annotations

import io
import json

import click
import pytest

from ruleproof.cards.overrides import parse_overrides
from ruleproof.cards.pool import Card, Pool
from ruleproof.errors import InputError
from ruleproof.loops import Category, find_loops, report_json
from ruleproof.loops.cli import loops


def _card(code: str, name: str, text: str) -> Card:
    return Card(code=code, name=name, type="character", faction="stark", cost=2, strength=2, icons=(), traits=(),
                unique=False, loyal=False, text=text, printed_text=text, keywords=(), deck_limit=3, pack_code="T",
                raw={"code": code, "name": name, "type": "character", "text": text})


STAND = "<b>Action:</b> Kneel {} to choose and stand another character you control."
TOY = Pool.of((_card("90001", "Alpha", STAND.format("Alpha")), _card("90002", "Beta", STAND.format("Beta")),
               _card("90003", "Gamma", "Gamma is loyal to nobody.")))


def test_find_loops_on_a_toy_pool_reports_the_faq_loop() -> None:
    seen: list[tuple[int, int]] = []
    rep = find_loops(TOY, progress=lambda d, t, c: seen.append((d, t)))
    (r,) = rep.results
    assert r.category is Category.UNBOUNDED and r.cards == ("90001", "90002")
    assert seen[-1] == (1, 1) and rep.loops() == (r,)
    j = report_json(rep)
    assert j["version"] == 1 and j["loops"][0]["category"] == "unbounded"
    assert len(j["loops"][0]["trace"]) == 1 + 4  # initial state and two passes of two steps
    json.dumps(j)


def test_override_yaml_limit_and_opponent_ownership() -> None:
    ov = parse_overrides("""
"90002":
  - type: action
    costs: [{kind: kneel, target: {ref: self, subject: {scope: self}}}]
    effects: [{kind: stand, target: {ref: chosen, subject: {scope: you_control, card_type: character,
               other: true}}}]
    limit: {count: 1, period: phase}
""", "ov.yaml")
    (r,) = find_loops(TOY, overrides=ov).results
    assert r.category is Category.LIMITED and r.passes == 1 and r.binding[0].startswith("Beta (90002#0)")
    # Beta owned by the opponent: Alpha stands only characters *you* control and Beta only the opponent's,
    # so the two-player ability graph has no cycle through both (Ownership and Control)
    rep = find_loops(TOY, codes=["90001"], opponent_codes=["90002"])
    assert rep.candidates == 0 and rep.results == ()


def test_unknown_code_is_an_input_error() -> None:
    with pytest.raises(InputError):
        find_loops(TOY, codes=["99999"])


def _cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()

    class S:
        def __init__(self) -> None:
            self.out, self.err = out, err

    rv = loops.main(args=args, prog_name="loops", standalone_mode=False, obj=S())
    return int(rv), out.getvalue(), err.getvalue()


def test_cli_json_on_real_cards_prints_one_object() -> None:
    # Magister Illyrio (pay 2 gold: stand) + Chataya's Brothel (kneel: 1 gold): -1 gold a pass
    rc, out, _err = _cli(["--cards", "01163", "--cards", "04090", "--json"])
    obj = json.loads(out)
    assert rc == 0 and obj["version"] == 1
    (entry,) = [x for x in obj["loops"] if x["cards"] == ["01163", "04090"]]
    assert entry["category"] == "not_a_loop" and "gold (-1 per pass" in entry["reason"]
    assert obj["coverage"]["candidates"] == len(obj["loops"])


def test_cli_bad_code() -> None:
    with pytest.raises(InputError):
        _cli(["--cards", "opp:99999"])
    with pytest.raises(click.UsageError):
        _cli(["--max-length", "9"])
