"""The README's count of the bundled check's results by system is the count ``ruleproof check`` reports now
(read from the plan of the run and the graph checks, without checking anything).

The sentence in "What the bundled AGoT model proves" reads "By system (results at COMMIT ...): unique 125,
abilities 112, ..."; when a property or a scenario is added or removed, this test names the counts to write there.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ruleproof.engines.common import Options
from ruleproof.loader import graph_check_results
from ruleproof.scale.check import plan_check

README = Path(__file__).resolve().parent.parent / "README.md"
SENTENCE = re.compile(r"By system \(results at [^)]*\): ((?:[a-z]+ \d+(?:, |\.))+)")


def _readme_counts() -> dict[str, int]:
    text = " ".join(README.read_text(encoding="utf-8").split())
    found = SENTENCE.findall(text)
    assert len(found) == 1, f"expected one 'By system (results at COMMIT ...): NAME N, ...' in README.md, not {found}"
    return {name: int(n) for name, n in re.findall(r"([a-z]+) (\d+)", found[0])}


def test_the_readme_counts_the_bundled_checks_results_by_system() -> None:
    plan = plan_check(None, None, None, (), "auto", Options())
    counts = Counter(system for system, _scenario, _prop in plan.expected())
    counts.update(r.system for r in graph_check_results(None))
    now = ", ".join(f"{name} {n}" for name, n in counts.most_common())
    assert _readme_counts() == dict(counts), f"README.md should say: {now} ({sum(counts.values())} results)"
