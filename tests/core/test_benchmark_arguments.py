"""The benchmarks build the bundled models with parameters those models still take.

The benchmarks are not run by the suite (they are timed, on a quiet machine), so a model change that
drops a parameter would leave them stopping at an input error unnoticed: the gold model lost
``total_gold`` when its treasury became unlimited (review fix F5), and both gold benchmarks still
passed it. Each benchmark's gold command line is run here on its smallest size.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
from pathlib import Path
from types import ModuleType

from ruleproof.cli import run
from ruleproof.loader import discover, load_system

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


def test_bench_vs_spin_gold_command_line_runs_and_proves_conservation() -> None:
    args = _module("bench_vs_spin")._gold_args(2, 20)
    out, err = io.StringIO(), io.StringIO()
    code = run(["check", *args, "-p", "gold is conserved", "--json"], out, err)
    assert code == 0, err.getvalue()
    results = json.loads(out.getvalue())["results"]
    assert [(r["property"], r["verdict"]) for r in results] == [("gold is conserved", "proved")]


def test_bench_gold_parameters_build_the_gold_system() -> None:
    bench = _module("bench_gold")
    spec = discover(bench.ROOT / "model" / "agot" / "gold.py")[0]
    _, params = bench.gold_params(2)
    system = load_system(spec, "default", params)
    assert all(name in {p.name for p in system.properties} for name in bench.PROPS)


def test_profile_check_prints_the_phases_attempts_and_systems_and_keeps_the_output(tmp_path: Path) -> None:
    import subprocess

    saved = tmp_path / "out.json"
    cmd = [sys.executable, str(BENCH / "profile_check.py"), "--top", "2", "--output", str(saved), "--",
           "check", str(BENCH.parent / "model" / "agot" / "gold.py"), "--scenario", "small", "-p", "gold is conserved",
           "-p", "a card out of play carries no tokens", "--json"]
    text = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=True).stdout
    assert "exit 0;" in text and "(the 2 costliest of " in text
    assert re.search(r"query \d+: gold\[small\] .* \((early|stages), \d+ lemmas\) -> proved auto/", text), text
    assert "  gold[small]  " in text.split("per system")[1] and "coverage" in text
    results = json.loads(saved.read_text())["results"]
    assert {r["property"]: r["verdict"] for r in results} == {
        "gold is conserved": "proved", "a card out of play carries no tokens": "proved"}
