"""Ownership vs control in the loop model (Ownership and Control; Leaves Play; Costs; FAQ 2.7).

Cards: Bronn (02089: "Marshaling Action: Pay 1 gold to take control of Bronn. (Any player may initiate this
ability.)", written as an override until the card reader reads "take control"), Wyman Manderly (17122: "Action:
Kill a standing character you control."), Left Hand Lew (19009: "Action: Kneel Left Hand Lew to choose and stand a
character owned by an opponent."), Goldengrove (21024: "Action: Kneel Goldengrove or a Small Council character to
choose another card you own with equal or lower printed cost. Stand that card and take control of it."), House
Bannerman (00005).  The table's rule of owners has a mutant ("you own" read as "you control") that a step of
Goldengrove catches.
"""

from __future__ import annotations

from realcards import Run, encoding, model

BRONN, WYMAN, LEW = "02089", "17122", "19009"
#: Bronn's action as the card reads (the card reader does not read "take control" yet).
BRONN_TEXT = """
"02089":
  - type: action
    phase: marshaling
    any_player: true
    costs: [{kind: pay_gold, amount: 1, target: {ref: player, subject: {scope: you}}}]
    effects: [{kind: take_control, target: {ref: self, subject: {scope: self, card_type: character}}}]
"""


def _taken_then_killed(mutant: str = "") -> Run:
    """The opponent pays 1 gold to take control of your Bronn, then kills him with their Wyman Manderly."""
    enc = encoding([(BRONN, 0), (f"opp:{WYMAN}", 0)], overrides=BRONN_TEXT)
    system = model(enc, mutant)
    run = Run(system, zone={BRONN: "play", f"opp:{WYMAN}": "play"}, standing={BRONN: True, f"opp:{WYMAN}": True},
              ctl={BRONN: "you", f"opp:{WYMAN}": "opp"}, gold={"you": 3, "opp": 3}, pos=0)
    assert run.step(0, by="opp")
    assert run.get("ctl", BRONN) == "opp" and run.state["gold[opp]"] == 2 and run.state["gold[you]"] == 3
    assert run.step(1, by="opp", target0=BRONN)
    return run


def test_a_card_that_leaves_play_goes_to_its_owners_pile_and_back_to_its_owners_control() -> None:
    run = _taken_then_killed()
    assert run.get("zone", BRONN) == "dead" and run.get("ctl", BRONN) == "you"


def test_mutant_controller_piles_is_caught() -> None:
    run = _taken_then_killed("controller_piles")
    assert run.get("zone", BRONN) == "dead" and run.get("ctl", BRONN) == "opp"


def test_a_player_cannot_kill_with_you_control_a_card_the_other_player_controls() -> None:
    """Your Wyman cannot choose Bronn once the opponent controls him (you own him, you do not control him)."""
    enc = encoding([(BRONN, 0), (WYMAN, 0)], overrides=BRONN_TEXT)
    system = model(enc)
    run = Run(system, zone={BRONN: "play", WYMAN: "play"}, standing={BRONN: True, WYMAN: True},
              ctl={BRONN: "opp", WYMAN: "you"}, pos=1)
    assert not run.step(1, by="you", target0=BRONN)
    assert run.step(1, by="you", target0=WYMAN)


def test_owned_by_an_opponent_is_about_the_owner_not_the_controller() -> None:
    """The opponent's Left Hand Lew stands "a character owned by an opponent": your Bronn, whoever controls him."""
    enc = encoding([(BRONN, 0), (f"opp:{LEW}", 1)], overrides=BRONN_TEXT)
    system = model(enc)
    run = Run(system, zone={BRONN: "play", f"opp:{LEW}": "play"}, standing={BRONN: False, f"opp:{LEW}": True},
              ctl={BRONN: "opp", f"opp:{LEW}": "opp"}, pos=1)
    assert run.step(1, by="opp", target0=BRONN)
    assert run.get("standing", BRONN) is True


GROVE, BANNERMAN = "21024", "00005"


def _grove(mutant: str = "") -> Run:
    """Your Goldengrove, standing; your House Bannerman under the opponent's control, and the opponent's under yours,
    both kneeling."""
    theirs = f"opp:{BANNERMAN}"
    enc = encoding([(GROVE, 0)], named=[BANNERMAN, theirs])
    return Run(model(enc, mutant), zone={GROVE: "play", BANNERMAN: "play", theirs: "play"},
               standing={GROVE: True, BANNERMAN: False, theirs: False},
               ctl={GROVE: "you", BANNERMAN: "opp", theirs: "you"}, pos=0)


def test_a_card_you_own_is_yours_while_the_opponent_controls_it_and_you_take_it_back() -> None:
    """Goldengrove takes back your Bannerman from the opponent (a card you own, whoever controls it); the opponent's
    Bannerman, which you control, is not a card you own."""
    run = _grove()
    assert run.step(0, by="you", target0=BANNERMAN)
    assert run.get("standing", BANNERMAN) is True and run.get("ctl", BANNERMAN) == "you"
    assert not _grove().step(0, by="you", target0=f"opp:{BANNERMAN}")


def test_mutant_ownership_follows_control_is_caught() -> None:
    assert not _grove("ownership_follows_control").step(0, by="you", target0=BANNERMAN)
    assert _grove("ownership_follows_control").step(0, by="you", target0=f"opp:{BANNERMAN}")


def test_the_ability_graph_never_counts_a_taken_card_as_one_you_own() -> None:
    """In the ability graph a card whose control a named card may take is a card of either player for "you control",
    never for "a card you own": Goldengrove's target is your Bannerman, not the opponent's, taken or not."""
    from realcards import POOL, keyed

    from ruleproof.cards.graph import _card_satisfies, _wanted, facts_from_pool

    abil, _ = keyed([GROVE, BANNERMAN, f"opp:{BANNERMAN}"])
    target = abil[GROVE][0].effects[0].target.subject
    want = _wanted(target, GROVE, "you")
    facts = facts_from_pool(POOL)[BANNERMAN]
    taken = frozenset({BANNERMAN, f"opp:{BANNERMAN}"})
    assert _card_satisfies(facts, want, GROVE, BANNERMAN, taken)
    assert not _card_satisfies(facts, want, GROVE, f"opp:{BANNERMAN}", taken)
