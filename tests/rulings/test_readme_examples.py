"""The README's "Writing a ruling" examples are the files in docs/rulings, and the output it shows is what
`ruleproof ruling` prints for them (golden files, compared here)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ruleproof.cli import run

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLES = ["claim-example", "kele-example"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_example_prints_its_golden_output(name, monkeypatch):
    monkeypatch.chdir(ROOT)  # the output names the file as the README's command does
    out, err = io.StringIO(), io.StringIO()
    code = run(["ruling", f"docs/rulings/{name}.yaml"], out, err)
    assert (code, err.getvalue()) == (0, "")
    assert out.getvalue() == (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_readme_shows_the_example_file_and_its_output_verbatim(name):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    source = (ROOT / "docs" / "rulings" / f"{name}.yaml").read_text(encoding="utf-8")
    golden = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    assert f"```yaml\n{source}```" in readme
    assert f"```\n$ ruleproof ruling docs/rulings/{name}.yaml\n{golden}```" in readme
