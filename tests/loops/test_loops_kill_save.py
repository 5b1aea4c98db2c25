"""Kill, save and the dead pile in the loop model, on real cards (Rules Reference: Kill, Killed; Dead Pile; Save;
Sacrifice; Duplicates; The word "Would"; FAQ 3.2).

Cards: Wyman Manderly (17122: "Action: Kill a standing character you control." / "Reaction: After a character you
control is sacrificed or killed, stand Wyman Manderly and draw 1 card."), Ser Barristan Selmy (02107: "Interrupt:
When a Lord or Lady character you control would be killed, stand Ser Barristan Selmy to save that character."),
Wyman Manderly (11021: "Action: Sacrifice a character."), Iron Mines (02092: "Interrupt: When a character would be
killed, sacrifice Iron Mines to save that character.").  Each rule has a mutant (the semantics table with one entry
swapped) that the same steps catch.
"""

from __future__ import annotations

from realcards import Run, encoding, model

WYMAN, BARRISTAN, SACRIFICER, MINES = "17122", "02107", "11021", "02092"


def _kill_then_save(mutant: str = "") -> Run:
    """Wyman kills himself (a standing Lord you control); Ser Barristan, kneeling, saves him by standing."""
    enc = encoding([(WYMAN, 0), (BARRISTAN, 1)])
    run = Run(model(enc, mutant), zone={WYMAN: "play", BARRISTAN: "play"}, standing={WYMAN: True, BARRISTAN: False},
              pos=0)
    assert run.step(0, target0=WYMAN)
    return run


def test_a_kill_raises_would_be_killed_and_waits_for_the_interrupt() -> None:
    run = _kill_then_save()
    assert run.get("imm", WYMAN) == "kill"  # imminent: the interrupt to "would be killed" comes first
    assert run.get("pending", "a1") and run.get("zone", WYMAN) == "play"


def test_a_saved_character_stays_in_play() -> None:
    run = _kill_then_save()
    assert run.step(1)
    assert run.get("zone", WYMAN) == "play" and run.get("imm", WYMAN) == "none"
    assert run.get("standing", BARRISTAN) is True  # the cost of the save was paid


def test_mutant_save_leaves_play_is_caught() -> None:
    run = _kill_then_save("save_leaves_play")
    assert run.step(1)
    assert run.get("zone", WYMAN) == "dead"


def test_a_killed_character_goes_to_its_owners_dead_pile() -> None:
    """With no interrupt on the cycle to wait for, the kill resolves in the same step (Kill: the dead pile); the
    mutant that sends it to the discard pile is caught."""
    enc = encoding([(WYMAN, 0)], named=[BARRISTAN])
    for mutant, pile in (("", "dead"), ("kill_to_discard", "discard")):
        run = Run(model(enc, mutant), zone={WYMAN: "play"}, standing={WYMAN: True}, pos=0)
        assert run.step(0, target0=WYMAN)
        assert run.get("zone", WYMAN) == pile


def test_a_sacrifice_is_not_a_kill_and_cannot_be_saved() -> None:
    """Wyman (11021) sacrifices Wyman (17122): Iron Mines, an interrupt to "would be killed", does not answer
    (Sacrifice: not a kill, cannot be saved), but the other Wyman's "sacrificed or killed" reaction does."""
    enc = encoding([(SACRIFICER, 0), (MINES, 0)], named=[WYMAN])
    run = Run(model(enc), zone={SACRIFICER: "play", MINES: "play", WYMAN: "play"}, pos=0)
    assert run.step(0, target0=WYMAN)
    assert run.get("zone", WYMAN) == "discard" and not run.get("pending", "a1")
    both = encoding([(SACRIFICER, 0), (WYMAN, 1)])
    run = Run(model(both), zone={SACRIFICER: "play", WYMAN: "play"}, standing={WYMAN: True}, pos=0)
    assert run.step(0, target0=SACRIFICER) and run.get("pending", "a1")


def test_mutant_sacrifice_is_kill_is_caught() -> None:
    """Read as a kill, the sacrifice would wait for Iron Mines and go to the dead pile."""
    enc = encoding([(SACRIFICER, 0), (MINES, 0)], named=[WYMAN])
    run = Run(model(enc, "sacrifice_is_kill"), zone={SACRIFICER: "play", MINES: "play", WYMAN: "play"}, pos=0)
    assert run.step(0, target0=WYMAN)
    assert run.get("imm", WYMAN) == "kill" and run.get("pending", "a1")


def test_a_duplicate_saves_its_unique_card_once() -> None:
    """Wyman (unique) with one duplicate: the duplicate is discarded to save him (Duplicates); a second kill finds
    none.  The mutant that keeps the duplicate would save him forever."""
    enc = encoding([(WYMAN, 0)])
    for mutant, left in (("", 0), ("duplicate_not_spent", 1)):
        run = Run(model(enc, mutant), zone={WYMAN: "play"}, standing={WYMAN: True}, dups={WYMAN: 1}, pos=0)
        assert run.step(0, target0=WYMAN, dup_kill_c17122=True)
        assert run.get("zone", WYMAN) == "play" and run.get("dups", WYMAN) == left
    run = Run(model(enc), zone={WYMAN: "play"}, standing={WYMAN: True}, dups={WYMAN: 0}, pos=0)
    assert run.step(0, target0=WYMAN, dup_kill_c17122=True)  # no duplicate left: he dies
    assert run.get("zone", WYMAN) == "dead"


def test_wyman_and_barristan_do_not_loop() -> None:
    """The whole search on the two cards: Barristan's save needs him kneeling, and nothing kneels him again."""
    from realcards import POOL

    from ruleproof.loops import Category, find_loops

    rep = find_loops(POOL, codes=[WYMAN, BARRISTAN], timeout=30)
    assert rep.complete and rep.results and all(r.category is Category.NOT_A_LOOP for r in rep.results)
    (save,) = [r for r in rep.results if (BARRISTAN, 1) in r.abilities]
    assert "stand" in save.reason and "kneeling" in save.reason


WINTERFELL, THRALL, BLOODRAVEN = "22018", "00146", "25017"


def _winterfell(mutant: str = "") -> Run:
    """Wyman kills Stony Shore Thrall (an «Old Gods» character you control); Winterfell Castle's interrupt ("When
    an «Old Gods» card would be killed or discarded from play, kneel that card to save it.") answers."""
    enc = encoding([(WYMAN, 0), (WINTERFELL, 1)], named=[THRALL, BLOODRAVEN])
    run = Run(model(enc, mutant), zone={WYMAN: "play", WINTERFELL: "play", THRALL: "play", BLOODRAVEN: "play"},
              standing={THRALL: True, BLOODRAVEN: True}, pos=0)
    assert run.step(0, target0=THRALL) and run.get("imm", THRALL) == "kill" and run.get("pending", "a1")
    return run


def test_a_cost_paid_with_the_card_of_the_triggering_condition_and_the_mutant_trigger_any_is_caught() -> None:
    """'kneel that card': the card about to be killed pays the cost and is saved; the mutant reading 'that card'
    as any «Old Gods» card could kneel Bloodraven instead."""
    run = _winterfell()
    assert run.step(1, cost0=BLOODRAVEN)  # 'cost0' is no choice here: the cost is that card
    assert run.get("zone", THRALL) == "play" and run.get("standing", THRALL) is False
    assert run.get("standing", BLOODRAVEN) is True
    run = _winterfell("trigger_any")
    assert run.step(1, cost0=BLOODRAVEN, target0=THRALL)
    assert run.get("zone", THRALL) == "play" and run.get("standing", THRALL) is True  # saved, not knelt
    assert run.get("standing", BLOODRAVEN) is False


def test_a_kneeling_card_cannot_pay_to_save_itself() -> None:
    """The Thrall already knelt cannot kneel to pay: it is killed (dead pile)."""
    enc = encoding([(WYMAN, 0), (WINTERFELL, 1)], named=[THRALL])
    run = Run(model(enc), zone={WYMAN: "play", WINTERFELL: "play", THRALL: "play"}, standing={THRALL: True}, pos=0)
    assert run.step(0, target0=THRALL)
    run.set(standing={THRALL: False})  # (knelt by something else while the interrupt waits)
    assert not run.step(1)
