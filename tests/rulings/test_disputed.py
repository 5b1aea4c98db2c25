"""Rulings the bundled models contradict today, each reproducing a finding of the rules review
(../shared/reviews/agot-rules-review.md).  They are kept out of rulings/ (whose every ruling must pass) and expected
to FAIL exactly where the model and the rule text part; when a model is fixed, its test here fails and the ruling
moves to rulings/<game>/."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.rulings import Outcome, check_ruling, load_rulings
from ruleproof.rulings.render import render_one

DISPUTED = Path(__file__).resolve().parent / "disputed"
EXPECTED = {  # ruling -> (finding, where the model parts from the rule)
    "removing a character from the challenge does not remove a card effect's STR contribution":
        ("F4", "at the end"),
    "forced reactions initiate before reactions that are not forced":
        ("F7", "after step 2 (initiate(character 1 of player 1))"),
}
RULINGS = load_rulings([DISPUTED])


def test_every_disputed_ruling_names_its_finding():
    assert sorted(r.name for r in RULINGS) == sorted(EXPECTED)


@pytest.mark.parametrize("r", RULINGS, ids=[f"{EXPECTED[r.name][0]}: {r.name}" for r in RULINGS])
def test_the_model_still_contradicts_the_ruling(r):
    finding, where = EXPECTED[r.name]
    result = check_ruling(r, timeout=120)
    text = "\n".join(render_one(result))
    assert result.outcome is not Outcome.PASS, f"{finding} is fixed: move this ruling to rulings/\n{text}"
    assert result.outcome is Outcome.FAIL, text
    assert result.events[-1].where == where, text
