"""A deliberately broken rule (a model mutant) fails exactly the bundled rulings that state it, where they part.

These replace the scenario tests that drove each mutant by hand: the ruling files are checked against the mutant
(`ruleproof ruling FILE --param mutant=NAME`), and every other ruling of the file still passes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.rulings import Outcome, check_ruling, load_rulings

RULINGS = Path(__file__).resolve().parents[2] / "rulings"

CASES = [  # (file, mutant, {ruling that fails: where})
    ("agot/claim.yaml", "kill_immune", {
        "a character that cannot be killed cannot be chosen for claim":
            "at step 2 (choose_for_claim(character 1 of player 2))"}),
    ("agot/round.yaml", "new_plot_new_first", {
        "a plot revealed by an ability does not change the first player": "at the end"}),
    ("berserk/actions.yaml", "recheck_at_payment", {
        "Kele healed to full on its strike does not tap, even if wounded again": "after step 7 (pay)"}),
    ("berserk/actions.yaml", "condition_at_declaration", {
        "Kele wounded in response to its declared heal is not healed to full, so it taps":
            "after step 6 (resolve_heal_a)",
        "Kele's blocked heal applies nothing, so it taps": "after step 6 (resolve_heal_a)"}),
    ("berserk/actions.yaml", "assault_on_counter", {
        "a defender whose modifier reads «при нападении» gets nothing from its counter-strike and taps":
            "after step 5 (counter)"}),
    ("berserk/actions.yaml", "skip_reservation_check", {
        "a tapped card cannot declare an attack, even with a feature that waives the tap":
            "at step 1 (declare_attack(Стойкий (не закрывается после атаки), Часовой (закрывается после нападения)))"}),
    ("berserk/actions.yaml", "reservation_unchecked", {
        "an attacker tapped in response has lost its reserved tap, so its attack is interrupted and not paid":
            "at step 3 (perform)",
        "a card tapped in response to its move cannot move, and its movement point is not spent":
            "at step 3 (perform)"}),
    ("berserk/abilities111.yaml", "copy_abilities", {
        "Талос copies Вайл's printed features, not the Рывок an effect gave him": "at the end"}),
    ("berserk/abilities111.yaml", "copy_wrong_source", {
        "Талос copies Вайл's printed features, not the Рывок an effect gave him": "at the end",
        "Талос copying Вайл gets the Рывок Вайл prints, and nothing printed on another card": "at the end"}),
    ("berserk/rule_effects.yaml", "no_cutoff", {
        "a two-effect loop is cut off before A repeats": "at step 17 (rule_effect(эффект правил A))",
        "a chain that loops back to B is cut off before B repeats": "at step 25 (rule_effect(эффект правил B))",
        "no rule effect is performed twice in one chain": ""}),
]


@pytest.mark.parametrize("file,mutant,failing", CASES, ids=[f"{c[0]} mutant={c[1]}" for c in CASES])
def test_the_mutant_fails_the_ruling_that_states_its_rule(file, mutant, failing):
    got: dict[str, str] = {}
    for r in load_rulings([RULINGS / file], {"mutant": mutant}):
        res = check_ruling(r, timeout=120)
        assert res.outcome is not Outcome.UNKNOWN, (r.name, res.reason)
        if res.outcome is Outcome.FAIL:
            got[r.name] = res.events[-1].where if res.events else ""
    assert got == failing
