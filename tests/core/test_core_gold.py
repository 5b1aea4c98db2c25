"""The bundled AGoT gold economy: every property proved, every rule's mutant caught."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ruleproof.cli import run
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_system
from ruleproof.evaluator import Evaluator
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "model" / "agot" / "gold.py"


def gold(scenario: str = "default", **params: object):
    return load_system(discover(GOLD)[0], scenario, params)


def test_bundled_gold_properties_all_proved() -> None:
    for scen in ("default", "melee"):
        results = check_system(gold(scen), "auto", Options(depth=10, rlimit=DEFAULT_RLIMIT, timeout=600))
        assert results, "no property checked"
        for r in results:
            assert r.verdict is Verdict.PROVED, (scen, r.property, r.verdict, r.reason)
            assert r.coverage is not None and not r.coverage.never, r.coverage
        names = {r.property for r in results}
        assert "gold is conserved" in names and "state stays within declared ranges" in names


# mutant -> the property that must catch it
MUTANTS = {
    "spend_without_return": "gold is conserved",
    "overspend": "no gold pool, treasury or token count goes below zero",
    "tokens_lost": "a card out of play carries no tokens",
    "marshal_events": "event cards are never in play",
    "double_pay": "a marshalled card is in its owner's play area and its cost was paid exactly once",
    "marshal_any_phase": (
        "a card enters play paid for from its owner's pool only in the marshaling phase, while its owner is the "
        "active player and has collected income"
    ),
    "put_into_play_pays": "putting a card into play by an ability pays nothing",
    "no_cost_floor": "a marshalled card is in its owner's play area and its cost was paid exactly once",
}


@pytest.mark.parametrize("mutant,prop", sorted(MUTANTS.items()))
def test_each_gold_mutant_is_violated_with_a_replayed_trace(mutant: str, prop: str) -> None:
    s = gold("default", mutant=mutant)
    r = check_system(s, "auto", Options(depth=8, rlimit=DEFAULT_RLIMIT, timeout=600), names=[prop])
    (res,) = [x for x in r if x.property == prop]
    assert res.verdict is Verdict.VIOLATED, (mutant, res.verdict, res.reason)
    assert res.trace is not None and res.trace.steps
    # the trace replays on a fresh evaluator and ends in a violating state/step
    ev = Evaluator(s)
    states = res.trace.states
    assert ev.is_initial(states[0])
    p = s.prop(prop)
    if p.kind.value == "invariant":
        assert not ev.holds(p, states[-1])


def test_cli_check_exit_0_and_json_contract() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = run(["check", str(GOLD), "--json", "--depth", "8"], out, err)
    assert code == 0, out.getvalue() + err.getvalue()
    obj = json.loads(out.getvalue())
    assert obj["version"] == 1
    gold_results = [r for r in obj["results"] if r["system"] == "gold"]
    assert gold_results and all(r["verdict"] == "proved" for r in gold_results)
    for r in gold_results:
        assert set(r) >= {"property", "cites", "verdict", "depth", "engine", "seconds", "coverage", "trace"}
        if not r["builtin"]:
            assert r["cites"], r["property"]


def test_cli_violation_exit_1_with_trace_as_game_steps(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = run(["check", str(GOLD), "--param", 'mutant="spend_without_return"', "-p", "gold is conserved",
                "--timeout", "600", "--trace-dir", str(tmp_path)], out, err)
    assert code == 1, out.getvalue() + err.getvalue()
    text = out.getvalue()
    assert "gold is conserved" in text and "VIOLATED" in text
    assert "marshals card" in text and "treasury" not in text.split("marshals card")[1].split("\n")[0]
    itf_files = list(tmp_path.glob("*.itf.json"))
    assert itf_files
    itf = json.loads(itf_files[0].read_text())
    assert itf["#meta"]["format"] == "ITF" and itf["states"] and "gold" in itf["vars"]
    assert "#map" in itf["states"][0]["gold"]


def test_cli_itf_trace_format_in_json() -> None:
    out = io.StringIO()
    code = run(["check", str(GOLD), "--param", 'mutant="double_pay"', "--json", "--trace-format", "itf",
                "-p", "a marshalled card is in its owner's play area and its cost was paid exactly once",
                "--timeout", "600"], out, io.StringIO())
    assert code == 1
    obj = json.loads(out.getvalue())
    bad = [r for r in obj["results"] if r["verdict"] == "violated"][0]
    states = bad["trace"]["states"]
    assert states[-1]["#meta"]["action"].startswith("marshal(")
    assert states[0]["treasury"]["#bigint"].lstrip("-").isdigit()
