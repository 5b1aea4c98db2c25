"""The README's AGoT mutation-table rows are what ``ruleproof mutants`` reports (the cheap system, ``timing.py``,
is run here; a row of another system is measured by the command the README names)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from ruleproof.cli import run

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = ("total", "killed", "equivalent", "survived", "unknown")
ROW = re.compile(r"^\| `model/agot/(\w+)\.py` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", re.M)


def readme_rows() -> dict[str, dict[str, int]]:
    """Every AGoT row of the README's mutation table, by system."""
    found = ROW.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    return {name: dict(zip(COLUMNS, map(int, counts), strict=True)) for name, *counts in found}


@pytest.mark.slow
def test_the_timing_row_is_the_measured_one() -> None:
    rows = readme_rows()
    assert "timing" in rows
    out, err = io.StringIO(), io.StringIO()
    code = run(["mutants", str(ROOT / "model" / "agot" / "timing.py"), "--json", "--timeout", "600"], out, err)
    assert code == 0, err.getvalue()
    report = json.loads(out.getvalue())
    assert {c: report[c] for c in COLUMNS} == rows["timing"]
    assert report["survived"] == 0 and report["unknown"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gold", "marshal", "unique", "power"])
def test_the_rows_total_is_the_number_of_mutants_planned_now(name: str) -> None:
    """A row measured before a rule mutant was added (or a requirement of the model changed) would count other
    mutants: the total the README shows is what ``ruleproof mutants`` plans now (listed, not judged)."""
    from ruleproof.engines.common import Options
    from ruleproof.scale.mutants import plan_mutants

    plan = plan_mutants(ROOT / "model" / "agot" / f"{name}.py", Options())
    assert len(plan.units) == readme_rows()[name]["total"]


SCORED = re.compile(r"^\| `model/agot/(\w+)\.py` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+)% \|", re.M)


def test_every_row_adds_up_and_its_score_is_killed_over_the_non_equivalent() -> None:
    """The counts of a row are one verdict per mutant, and its score is the report's killed / (total - equivalent),
    in whole percent rounded down (a row never shows more than was measured)."""
    found = SCORED.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert {name for name, *_ in found} == set(readme_rows()) and len(found) >= 10
    for name, total, killed, equivalent, survived, unknown, pct in (
        (n, *map(int, rest)) for n, *rest in found
    ):
        assert killed + equivalent + survived + unknown == total, name
        assert pct == 100 * killed // (total - equivalent), name
