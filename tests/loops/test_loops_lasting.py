"""Lasting effects in the loop model, on real cards (Rules Reference: Lasting Effects; Cannot; Leaves Play; Target).

A loop repeats card abilities at one point of the game: no challenge, phase or round ends within it, so a lasting
effect "until the end of the challenge/phase/round" lasts through the whole loop.  An effect that happens at once
(a stand, a save) has no duration: one the reader finds in its sentence belongs to another part of it.

Cards: Wyman Manderly (17122: "Action: Kill a standing character you control." / "Reaction: After a character you
control is sacrificed or killed, stand Wyman Manderly and draw 1 card."), Fight to the Last (15036: "Interrupt: When
a character you control would be killed, save it, stand it, and set its STR to 1 until the end of the phase. At the
end of the phase, if that character is still in play, kill it (cannot be saved)."), Planky Town Trader (08075:
"Interrupt: When Planky Town Trader leaves play, put a non-[martell] character with printed cost X or lower into play
from your hand. X is the number of gold on Planky Town Trader. Until the end of the phase, that character cannot
leave play."), Ser Barristan Selmy (02107, a character to put into play).  The lasting "cannot" has a mutant (the
semantics table with its entry swapped) that the same steps catch.
"""

from __future__ import annotations

from realcards import Run, encoding, model

WYMAN, FIGHT, PLANKY, BARRISTAN = "17122", "15036", "08075", "02107"


def test_a_stand_happens_at_once_and_the_duration_of_its_sentence_is_the_str_change() -> None:
    """Wyman kills himself; Fight to the Last saves him and stands him (its "until the end of the phase" is the STR
    change's, not the stand's).  Its delayed kill at the end of the phase is after the loop: named, not run."""
    enc = encoding([(WYMAN, 0), (FIGHT, 0)])
    notes = [x.phrase for x in enc.left_out]
    # the reader gives the duration to no effect that happens at once: the stand and the save have none, and the
    # duration goes with the STR clause it governs (not read, and named)
    assert not any("belongs to another part" in p for p in notes), notes
    assert any("not read" in p and "set its str to 1 until the end of the phase" in p for p in notes), notes
    assert any("end of the phase, after the loop" in p for p in notes), notes
    run = Run(model(enc), zone={WYMAN: "play", FIGHT: "hand"}, standing={WYMAN: True}, gold={"you": 0}, pos=0)
    assert run.step(0, target0=WYMAN)
    run.set(standing={WYMAN: False})  # (knelt meanwhile: the stand has something to do)
    assert run.step(1)
    assert run.get("zone", WYMAN) == "play" and run.get("standing", WYMAN) is True
    assert run.get("zone", FIGHT) == "discard"


def _planky(mutant_name: str = "") -> Run:
    """Wyman kills Planky Town Trader; Planky's interrupt puts Ser Barristan into play from your hand."""
    enc = encoding([(WYMAN, 0), (PLANKY, 1)], named=[BARRISTAN])
    run = Run(model(enc, mutant_name), zone={WYMAN: "play", PLANKY: "play", BARRISTAN: "hand"},
              standing={WYMAN: True, PLANKY: True}, pos=0)
    assert run.step(0, target0=PLANKY)
    assert run.step(1, target0=BARRISTAN)
    assert run.get("zone", PLANKY) == "dead" and run.get("zone", BARRISTAN) == "play"
    return run


def test_a_lasting_cannot_leave_play_keeps_the_card_in_play_through_the_loop() -> None:
    """"That character cannot leave play" is the card put into play (the pronoun names the chosen card), and while it
    lasts Wyman cannot kill it: it cannot be chosen (Cannot; FAQ 2.1)."""
    run = _planky()
    assert run.get("ban_leaves_play", BARRISTAN) is True
    assert run.get("ban_leaves_play", WYMAN) is False
    assert not run.step(0, target0=BARRISTAN)
    assert run.step(0, target0=WYMAN)  # Wyman himself still can be


def test_mutant_lasting_cannot_ignored_is_caught() -> None:
    run = _planky("lasting_cannot_ignored")
    assert run.step(0, target0=BARRISTAN)
    assert run.get("imm", BARRISTAN) in ("kill", "none") and run.get("zone", BARRISTAN) in ("play", "dead")
    assert not (run.get("zone", BARRISTAN) == "play" and run.get("imm", BARRISTAN) == "none")


DAARIO, CROWS, CROWS2 = "08014", "opp:08033", "opp:00266"


def _daario(mutant: str = "") -> Run:
    """Daario Naharis (08014: "Reaction: After you win a challenge in which Daario Naharis is attacking, choose
    another Ally, Companion, or Mercenary character. Stand that character and take control of it until the end of
    the phase.") with two kneeling Stormcrows (Mercenary) of the opponent."""
    enc = encoding([(DAARIO, 1)], named=[CROWS, CROWS2])
    return Run(model(enc, mutant), zone={DAARIO: "play", CROWS: "play", CROWS2: "play"},
               standing={CROWS: False, CROWS2: False}, ctl={DAARIO: "you", CROWS: "opp", CROWS2: "opp"},
               pending={"a0": True}, pos=0)


def test_that_character_is_the_chosen_one_and_control_lasts_through_the_loop() -> None:
    """"Stand that character and take control of it": one card, chosen once (Target); control "until the end of the
    phase" lasts through the loop."""
    run = _daario()
    assert "target1" not in {c.name for a in run.system.actions for c in a.choices}
    assert run.step(0, target0=CROWS)
    assert run.get("standing", CROWS) is True and run.get("ctl", CROWS) == "you"
    assert run.get("standing", CROWS2) is False and run.get("ctl", CROWS2) == "opp"


def test_mutant_pronoun_chosen_anew_is_caught() -> None:
    """Read as a second choice, Daario could stand one Stormcrows and take the other."""
    run = _daario("pronoun_chosen_anew")
    assert run.step(0, target0=CROWS, target1=CROWS2)
    assert run.get("standing", CROWS) is True and run.get("ctl", CROWS) == "opp"
    assert run.get("ctl", CROWS2) == "you"
