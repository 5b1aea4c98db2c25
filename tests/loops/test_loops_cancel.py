"""Cancel in the loop model, on real cards (Rules Reference: Cancel; Initiating Abilities; Triggered Abilities;
Triggering Condition; FAQ 1.5, Playing Events).

A cancel is an interrupt to "the effects of a triggered ability (or of an event) would initiate": the ability's costs
are paid and it counts as used, its effects do not resolve, and a cancelled event still goes to its owner's discard
pile.  In the loop model the initiation of an ability of the cycle raises the next ability's "would initiate" when it
fits its triggering condition, and the player of the cancel chooses whether it cancels.

Cards: Shadow of the Wall (13026: "Shadow (0). Action: Choose and stand a character with 1 or fewer challenge icons.
If there is a Winter plot card revealed, return Shadow of the Wall to your hand instead of placing it in your discard
pile."), Littlefinger (16017: "Interrupt: When the effects of an event would initiate, kneel Littlefinger to cancel
those effects."), House Bannerman (00005, a character to stand), Candle in the Dark (26098: "Interrupt: When the
effects of a triggered card ability would initiate, if that card has shadow, kneel attached character to cancel those
effects."), Osha (03011: "Challenges Action: Remove Osha from the challenge. Then, stand her.", no shadow), Bran
Stark (01142: "Interrupt: When the effects of an opponent's event would initiate, sacrifice Bran Stark to cancel those
effects."), Unexpected Return (11015, your own event).  The table entry has a mutant (the cancelled effects resolve
anyway) that the same steps catch.
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.loops.encode.accept import Direction
from ruleproof.loops.lasso import Category, classify

SHADOW, FINGER, BANNERMAN, CANDLE, OSHA, BRAN, RETURN = "13026", "16017", "00005", "26098", "03011", "01142", "11015"


def _shadow_then_finger(mutant: str = "") -> Run:
    """Shadow of the Wall played from shadows (its cost is "-") on a kneeling House Bannerman; Littlefinger standing,
    ready to cancel."""
    enc = encoding([(SHADOW, 1), (FINGER, 2)], named=[BANNERMAN])
    return Run(model(enc, mutant), zone={SHADOW: "shadows", FINGER: "play", BANNERMAN: "play"},
               standing={FINGER: True, BANNERMAN: False}, gold={"you": 0}, pos=0)


def test_a_cancelled_event_changes_nothing_its_costs_stay_paid_and_it_goes_to_the_discard_pile() -> None:
    """Littlefinger cancels Shadow of the Wall: Bannerman stays knelt, Littlefinger kneels, and the event goes to the
    discard pile even when its "return to your hand instead" would have applied (Cancel; FAQ 1.5)."""
    run = _shadow_then_finger()
    assert run.step(0, target0=BANNERMAN, cancelled1=True, instead1=True)
    assert run.get("standing", BANNERMAN) is False
    assert run.get("zone", SHADOW) == "discard"
    assert run.get("pending", "a1") is True
    assert run.step(1)
    assert run.get("standing", FINGER) is False and run.get("standing", BANNERMAN) is False


def test_an_event_not_cancelled_resolves_and_the_window_to_cancel_it_closes() -> None:
    """Not cancelled, Shadow of the Wall stands Bannerman and may return to hand; Littlefinger then has nothing to
    cancel (a cancel answers only the initiation it interrupts)."""
    run = _shadow_then_finger()
    assert run.step(0, target0=BANNERMAN, cancelled1=False, instead1=True)
    assert run.get("standing", BANNERMAN) is True and run.get("zone", SHADOW) == "hand"
    assert not run.step(1)


def test_mutant_cancel_keeps_effects_is_caught() -> None:
    """Read as if the cancelled effects resolved anyway, Bannerman would stand although Littlefinger cancelled."""
    run = _shadow_then_finger("cancel_keeps_effects")
    assert run.step(0, target0=BANNERMAN, cancelled1=True, instead1=True)
    assert run.get("standing", BANNERMAN) is True


def test_a_condition_on_the_card_of_the_initiation_is_read() -> None:
    """Candle in the Dark cancels only an ability of a card with shadow: after Shadow of the Wall it can, after Osha
    it cannot; "if that card has shadow" is read, not left out as a widening."""
    enc = encoding([(SHADOW, 1), (CANDLE, 1)], named=[BANNERMAN, OSHA])
    assert not [x for x in enc.left_out if "play restriction" in x.phrase], enc.left_out
    host = next(c.host for c in enc.cards if c.code == CANDLE)
    assert host is not None
    run = Run(model(enc), zone={SHADOW: "shadows", CANDLE: "play", host: "play", OSHA: "play"},
              standing={host: True, OSHA: False}, gold={"you": 0}, pos=0)
    assert run.step(0, target0=OSHA, cancelled1=True)
    assert run.get("standing", OSHA) is False
    assert run.step(1)
    assert run.get("standing", host) is False

    enc2 = encoding([(OSHA, 0), (CANDLE, 1)], named=[BANNERMAN])
    host2 = next(c.host for c in enc2.cards if c.code == CANDLE)
    assert host2 is not None
    run2 = Run(model(enc2), zone={OSHA: "play", CANDLE: "play", host2: "play"}, standing={host2: True, OSHA: False},
               role={OSHA: "attacking"}, pos=0)
    assert run2.step(0, cancelled1=True)
    assert not run2.step(1)  # Osha has no shadow


def test_a_cancel_of_the_opponents_events_never_answers_your_own() -> None:
    """Bran Stark cancels only an opponent's event: your Unexpected Return never sets him off, so the pair cannot
    repeat (whole-pool candidate 01142#0 / 11015#0; unsupported before cancels were modelled)."""
    enc = encoding([(BRAN, 0), (RETURN, 0)])
    assert all(x.direction is not Direction.EITHER for x in enc.left_out)
    r = classify(enc)
    assert r.category is Category.NOT_A_LOOP, r.reason
