"""Delayed effects ("at the end of the phase, ... return her to your hand") and effects on a card the same ability
just put into play ("put ~ into play from your hand knelt, participating as a defender") on real cards.

Both made an ability unable to fire at all in the loop model (the delayed return resolved at once and needed the
card in play before it was put into play; the participation needed it in play before the ability), so every
candidate with such an ability was "not a loop" because the ability never ran.
"""

from __future__ import annotations

import io
import json
from typing import Any

from ruleproof.cli import run


def _loops(*codes: str) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    run(["loops", *[a for c in codes for a in ("--cards", c)], "--json"], out, err)
    doc: dict[str, Any] = json.loads(out.getvalue())
    return doc


def _candidate(doc: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    (r,) = [r for r in doc["loops"] if r["cards"] == cards]
    return r


def test_catelyn_fires_from_hand_once() -> None:
    """16011 Catelyn Stark: "put Catelyn Stark into play from your hand knelt, participating as a defender. At the
    end of the phase, if Catelyn Stark is still in play, return her to your hand": she fires once (then she is in
    play, and the return comes after the phase), so no loop, for that reason and not because she never fires."""
    r = _candidate(_loops("16011"), ["16011"])
    assert r["category"] == "not_a_loop"
    assert "can never fire" not in r["reason"]
    assert "cannot run twice in a row" in r["reason"]
    assert any("happens at the end of the phase, after the loop" in x for x in r["left_out"])


def test_catelyn_after_patience_fires() -> None:
    """10020 Patience returns the attached character to its owner's hand (and goes to the discard pile with it):
    Catelyn can be put into play again after it, once; Patience is gone, so no loop."""
    r = _candidate(_loops("16011", "10020"), ["10020", "16011"])
    assert r["category"] == "not_a_loop"
    assert "Catelyn Stark (16011#0) can never fire" not in r["reason"]
