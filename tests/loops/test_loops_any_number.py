"""'Any number of' cards and alternatives by attachment, on real cards (Rules Reference: Target; Attachment Cards).

At Night They Howl (08003: "Challenges Action: Choose and stand any number of «Direwolf» characters and characters
with a «Direwolf» attachment."): "any number" is what the model does with an open amount (up to every card that
fits: nothing left out), and the second filter is an alternative read from the model's attachments in play.  Cards:
Summer (07034, a «Direwolf» attachment, on Robb Stark, 00221), Grey Wind (01145, a «Direwolf» character), Bran Stark
(01142, a character with neither).  The alternatives rule of the table has a mutant (only the first filter) that the
same step catches, and so has its rule of amounts ("any number" read as one card).
"""

from __future__ import annotations

from realcards import Run, encoding, model

ANTH, SUMMER, GREY_WIND, ROBB, BRAN = "08003", "07034", "01145", "00221", "01142"


def _howl(mutant: str = "") -> Run:
    enc = encoding([(SUMMER, 1), (ANTH, 0)], named=[GREY_WIND, ROBB, BRAN])
    assert not [x for x in enc.left_out if "X cards" in x.phrase or "alternative" in x.phrase], enc.left_out
    assert next(c.host for c in enc.cards if c.code == SUMMER) == ROBB
    return Run(model(enc, mutant), zone={ANTH: "hand", SUMMER: "play", ROBB: "play", GREY_WIND: "play", BRAN: "play"},
               standing={ROBB: False, GREY_WIND: False, BRAN: False}, gold={"you": 3}, pos=1)


def test_any_number_stands_every_direwolf_and_every_character_with_a_direwolf_attachment() -> None:
    run = _howl()
    assert run.step(1, **{"target0[c01145]": True, "target0[c00221]": True})
    assert run.get("standing", GREY_WIND) is True and run.get("standing", ROBB) is True
    assert run.get("zone", ANTH) == "discard"


def test_a_character_without_a_direwolf_attachment_in_play_cannot_be_chosen() -> None:
    assert not _howl().step(1, **{"target0[c01142]": True})  # Bran: no Direwolf attachment
    run = _howl().set(zone={SUMMER: "discard"})  # Summer gone: Robb no longer has one
    assert not run.step(1, **{"target0[c00221]": True})


def test_mutant_first_alternative_only_is_caught() -> None:
    run = _howl("first_alternative_only")
    assert not run.step(1, **{"target0[c00221]": True})
    assert run.step(1, **{"target0[c01145]": True})


def _stands_both(mutant: str = "") -> bool:
    """Can one use of At Night They Howl stand both Grey Wind and Robb Stark (each choice of its target tried: a set
    of cards, or one card)?"""
    tries = [{"target0[c01145]": True, "target0[c00221]": True}, {"target0": GREY_WIND}, {"target0": ROBB}]
    for choice in tries:
        run = _howl(mutant)
        if run.step(1, **choice) and run.get("standing", GREY_WIND) is True and run.get("standing", ROBB) is True:
            return True
    return False


def test_any_number_is_more_than_one_and_the_mutant_any_number_is_one_is_caught() -> None:
    assert _stands_both()
    assert not _stands_both("any_number_is_one")
    run = _howl("any_number_is_one")  # the mutant still stands one of them
    assert run.step(1, target0=GREY_WIND) and run.get("standing", GREY_WIND) is True
