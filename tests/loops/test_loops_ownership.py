"""Ownership vs control in the loop model (Ownership and Control; Leaves Play; Costs; FAQ 2.7).

Cards: Bronn (02089: "Marshaling Action: Pay 1 gold to take control of Bronn. (Any player may initiate this
ability.)", written as an override until the card reader reads "take control"), Wyman Manderly (17122: "Action:
Kill a standing character you control."), Left Hand Lew (19009: "Action: Kneel Left Hand Lew to choose and stand a
character owned by an opponent.").
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
