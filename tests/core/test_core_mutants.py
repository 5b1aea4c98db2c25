"""`ruleproof mutants`: IR-level rule mutants and the property suite's score."""

from __future__ import annotations

import io
import json
from pathlib import Path

from ruleproof.cli import run
from ruleproof.engines.common import Options
from ruleproof.loader import discover, load_system
from ruleproof.mutants import mutants_of

GOLD = Path(__file__).resolve().parents[2] / "model" / "agot" / "gold.py"


def test_mutants_are_generated_deterministically_and_differ_from_the_model() -> None:
    s = load_system(discover(GOLD)[0], "small")
    a = [m.label for m in mutants_of(s)]
    b = [m.label for m in mutants_of(s)]
    assert a == b and len(a) > 20
    assert "drop-update marshal: treasury" in a
    for m in mutants_of(s):
        assert m.system != s


def test_dropping_the_treasury_payment_is_killed_by_conservation() -> None:
    s = load_system(discover(GOLD)[0], "small")
    (m,) = [m for m in mutants_of(s) if m.label == "drop-update marshal: treasury"]
    from ruleproof.engines.runner import check_system

    res = {r.property: r for r in check_system(m.system, "auto", Options(depth=5, timeout=10))}
    assert res["gold is conserved"].verdict.value == "violated"
    assert res["gold is conserved"].trace is not None


def test_mutants_cli_json_score() -> None:
    out = io.StringIO()
    code = run(["mutants", str(GOLD), "--limit", "6", "--timeout", "5", "--json"], out, io.StringIO())
    assert code == 0
    obj = json.loads(out.getvalue())
    assert obj["version"] == 1 and obj["total"] == 6  # one system, its first checked scenario, --limit 6
    assert 0 < obj["killed"] <= obj["total"]
    assert all(m["status"] in {"killed", "survived", "unknown"} for m in obj["mutants"])
