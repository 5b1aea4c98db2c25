"""Zones as resources: a card sent to a pile re-enables abilities that take a card from that pile; a card that
leaves play and re-enters is a new copy (its Limit starts again), while a Max counts the title (Put into Play;
Dead Pile; Discard Pile; Limits and Maxima).

Cards: Drowned God Fanatic (11051: "Action: Kill a character to put Drowned God Fanatic into play from your dead
pile. (Max once per round.)"), Wyman Manderly (17122: "Action: Kill a standing character you control." and 11021:
"Action: Sacrifice a character."), Maester Cressen (01046), Ser Lancel Lannister (00152: "Action: Kneel Ser Lancel
Lannister to put a The Seven character into play from your hand or discard pile."), Septon Meribald (10040:
"Action: Kneel Septon Meribald to choose and stand up to 3 characters with printed STR 1 or lower. (Limit once per
round.)").
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.loops.encode import ModelSpec, build_model

FANATIC, WYMAN, CRESSEN = "11051", "17122", "01046"
SACRIFICER, LANCEL, MERIBALD, MERCHANT = "11021", "00152", "10040", "01094"


def _fanatic(mutant: str = "", max_enforced: bool = False) -> Run:
    """The Fanatic in the dead pile kills Cressen to come back; Wyman kills the Fanatic: it is in the dead pile
    again, ready to come back (with its Max enforced or not)."""
    enc = encoding([(FANATIC, 0), (WYMAN, 0)], named=[CRESSEN])
    system = build_model(enc, ModelSpec(mutant=mutant, limits=frozenset({0}) if max_enforced else frozenset()))
    run = Run(system, zone={FANATIC: "dead", WYMAN: "play", CRESSEN: "play"}, standing={WYMAN: True}, pos=0)
    assert run.step(0, cost0=CRESSEN)
    assert run.get("zone", FANATIC) == "play" and run.get("zone", CRESSEN) == "dead"
    assert run.step(1, target0=FANATIC)
    return run


def test_a_kill_puts_the_card_where_put_into_play_from_the_dead_pile_takes_it() -> None:
    run = _fanatic()
    assert run.get("zone", FANATIC) == "dead"
    assert run.step(0, cost0=WYMAN)  # back again, killing Wyman this time
    assert run.get("zone", FANATIC) == "play"


def test_mutant_kill_to_discard_pile_is_caught() -> None:
    run = _fanatic("kill_to_discard")
    assert run.get("zone", FANATIC) == "discard"
    assert not run.step(0, cost0=WYMAN)  # the dead pile is empty: nothing to put into play


def test_mutant_put_into_play_from_any_place_is_caught() -> None:
    """Read as "from any out-of-play place", the Fanatic would come back from the discard pile too."""
    enc = encoding([(FANATIC, 0), (WYMAN, 0)], named=[CRESSEN])
    for mutant, fires in (("", False), ("put_into_play_any_zone", True)):
        run = Run(model(enc, mutant), zone={FANATIC: "discard", WYMAN: "play", CRESSEN: "play"}, pos=0)
        assert run.step(0, cost0=CRESSEN) is fires


def test_a_max_counts_the_title_and_does_not_start_again_when_the_card_comes_back() -> None:
    """Max once per round: after one use, the Fanatic that came back is the same title: no second use."""
    run = _fanatic(max_enforced=True)
    assert not run.step(0, cost0=WYMAN)
    assert run.get("used", "a0") == 1


def test_a_limit_starts_again_when_the_card_comes_back_and_the_mutant_is_caught() -> None:
    """Septon Meribald uses his once-per-round action, is sacrificed (discard pile) and put back into play by
    Ser Lancel: a new copy, so his Limit is unused again.  The mutant keeping the Limit's count is caught.
    (Lannisport Merchant, 01094, STR 1, is the kneeling character Meribald stands.)"""
    enc = encoding([(MERIBALD, 0), (SACRIFICER, 0), (LANCEL, 1)], named=[MERCHANT])
    for mutant, used in (("", 0), ("limit_survives_reentry", 1)):
        system = build_model(enc, ModelSpec(mutant=mutant, limits=frozenset({0})))
        run = Run(system, zone={MERIBALD: "play", SACRIFICER: "play", LANCEL: "play", MERCHANT: "play"},
                  standing={MERIBALD: True, SACRIFICER: True, LANCEL: True, MERCHANT: False}, pos=0)
        assert run.step(0, **{"target0[c01094]": True})
        assert run.get("used", "a0") == 1 and run.get("standing", MERCHANT) is True
        assert run.step(1, target0=MERIBALD) and run.get("zone", MERIBALD) == "discard"
        assert run.step(2, target0=MERIBALD) and run.get("zone", MERIBALD) == "play"
        assert run.get("used", "a0") == used
