"""The README's AGoT mutation-table rows are what ``ruleproof mutants`` reports (the cheap system, ``timing.py``,
is run here; the other rows are measured by the command the README names)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from ruleproof.cli import run

ROOT = Path(__file__).resolve().parents[2]


def _row(system: str) -> tuple[int, ...]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(rf"^\| `model/agot/{system}\.py` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", text, re.M)
    assert m, f"no README row for {system}"
    return tuple(int(x) for x in m.groups())


@pytest.mark.slow
@pytest.mark.parametrize("system", ["timing"])
def test_the_readme_row_is_the_measured_one(system: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = run(["mutants", str(ROOT / "model" / "agot" / f"{system}.py"), "--json", "--timeout", "600"], out, err)
    obj = json.loads(out.getvalue())
    assert code == 0, err.getvalue()
    got = (obj["total"], obj["killed"], obj["equivalent"], obj["survived"], obj["unknown"])
    assert got == _row(system)
    assert obj["survived"] == 0 and obj["unknown"] == 0
