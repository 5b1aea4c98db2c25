"""A loop among many named cards (a deck's worth): the loop model is built and decides, whatever the card count.

Found by a sweep of ``ruleproof loops`` over 46 standing/kneeling cards on each side: with 65 cards or more in the
model, every candidate with an ability that reads two card choices (Ser Eldon Estermont with Lyseni Galley) was
"could not build this candidate's model", because building the model also built the rules-model consistency
checks, which expand each guard over its choices (92 x 92 vectors). The loop model only answers its own targets.
"""

from __future__ import annotations

from realcards import POOL, encoding

from ruleproof import budget
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.loops.lasso import Category, classify

ELDON, GALLEY = "13047", "14019"


def _characters(n: int) -> list[str]:
    return [c.code for c in POOL.cards if c.type == "character" and c.code != ELDON][:n]


def test_eldon_and_lyseni_galley_with_seventy_other_characters_is_still_limited() -> None:
    enc = encoding([(ELDON, 0), (GALLEY, 0)], named=_characters(70))
    assert len(enc.cards) >= 72
    # the solver's resource limit per call (the command line's default), not wall-clock: the verdict must not
    # depend on the machine's load
    with budget.query(None, "many cards", rlimit=DEFAULT_RLIMIT):
        r = classify(enc, timeout=None)
    assert r.category is Category.LIMITED, r.reason
    assert r.passes == 1 and "Ser Eldon Estermont (13047#0): limit 1 per round" in r.reason
