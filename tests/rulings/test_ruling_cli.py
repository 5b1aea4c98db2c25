"""`ruleproof ruling`: sequences, refusals, questions, exit codes, --json and every kind of bad file."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ruleproof.cli import run

HERE = Path(__file__).resolve().parent
FIX = HERE / "fixtures"


def ruling(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["ruling", *args], out, err)
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------- sequences


def test_a_ruling_that_agrees_with_the_model_passes_with_its_trace_and_source():
    code, out, err = ruling(str(FIX / "claim_sequence.yaml"))
    assert (code, err) == (0, "")
    block = out.split("\n\n")[0]
    assert block.startswith("PASS    claim 1 kills the one character the defender chooses")
    assert "  source: Rules Reference, Military Claim" in block
    assert "  quote: that player must choose a number of different characters" in block
    assert ("    1. player 1 wins a military challenge against player 2: claim is applied: "
            "pending false -> true") in block
    assert ("    2. the losing defender chooses character 2 of player 2 to be killed for military claim: "
            "chosen[character 2 of player 2] false -> true") in block
    assert "       at the end: zone[character 2 of player 2] == dead: holds" in block
    assert out.endswith("2 rulings: 2 passed, 0 failed, 0 unknown\n")


def test_a_step_refused_as_the_ruling_says_passes():
    code, out, _ = ruling(str(FIX / "claim_sequence.yaml"))
    block = out.split("\n\n")[1]
    assert code == 0 and block.startswith("PASS    the same character cannot be chosen twice")
    assert ("    3. refused, as the ruling says: the losing defender chooses character 1 of player 2 to be killed for "
            "military claim") in block
    assert "    4. the losing defender chooses character 2 of player 2" in block


def test_a_wrong_refusal_fails_at_that_step_with_the_trace_to_it():
    code, out, _ = ruling(str(FIX / "claim_wrong_refusal.yaml"))
    assert code == 1
    assert out.startswith("FAIL    (wrong) a character of the defender that can be killed cannot be chosen")
    assert ("    2. the losing defender chooses character 1 of player 2 to be killed for military claim: allowed"
            in out)
    assert ("  FAIL at step 2 (choose_for_claim(character 1 of player 2)): the ruling says this step is refused, but "
            "the model allows it here") in out
    assert "    1. player 1 wins a military challenge against player 2" in out  # the path to the failing step
    assert out.endswith("1 ruling: 0 passed, 1 failed, 0 unknown\n")


def test_a_step_the_model_does_not_allow_fails_with_the_requirement_that_fails():
    code, out, _ = ruling(str(FIX / "claim_wrong.yaml"))
    assert code == 1
    assert "    3. the chosen characters are killed simultaneously: not allowed" in out
    assert ("  FAIL at step 3 (kill_chosen): the model does not allow this step here: it needs "
            "((if (attacker == player 1) then claim[player 1] ") in out


def test_a_broken_rule_fails_the_bundled_ruling_that_states_it():
    """A rules change that breaks a ruling fails it by name (the claim mutant lets 'cannot be killed' be chosen)."""
    code, out, _ = ruling(str(HERE.parents[1] / "rulings" / "agot" / "claim.yaml"), "--param", 'mutant="kill_immune"')
    assert code == 1
    failed = [b.splitlines()[0] for b in out.split("\n\n") if b.startswith("FAIL")]
    assert failed == ["FAIL    a character that cannot be killed cannot be chosen for claim"]
    assert "FAIL at step 2 (choose_for_claim(character 1 of player 2))" in out


def test_symbolic_variables_are_checked_for_every_value_and_a_failure_names_one():
    code, out, _ = ruling(str(FIX / "duel.yaml"))
    assert code == 1
    ok, wrong, impossible = out.split("\n\n")[:3]
    assert ok.startswith("PASS") and "variables the situation does not name: any value (symbolic)" in ok
    assert "  assuming: wounds[defender] < 3" in ok
    assert "  checked: Z3 and the evaluator, on each of the 12 matching states" in ok  # 4 x 3 wounds
    assert "    1. refused, as the ruling says: defender strikes" in ok
    assert wrong.startswith("FAIL") and "wounds: attacker=0, defender=3" in wrong  # a value the ruling did not name
    assert ("  FAIL after step 1 (strike(attacker)): the ruling expects wounds[defender] == 1, but the model does not"
            in wrong)
    assert impossible.startswith("FAIL") and "  FAIL at the situation: no state of the model matches the situation" \
        in impossible


# ---------------------------------------------------------------- questions


def test_questions_reachable_with_a_witness_never_proved_always_after_proved():
    code, out, err = ruling(str(FIX / "claim_questions.yaml"))
    assert (code, err) == (0, "")
    blocks = out.split("\n\n")
    reach, never, after, before = blocks[0], blocks[1], blocks[2], blocks[3]
    assert reach.startswith("PASS    a character in play can end up in the dead pile")
    assert "  answer: REACHABLE [auto/bmc]: the model agrees: it can happen: a witness" in reach
    assert "  witness:" in reach and "zone[character 1 of player 2] play -> dead" in reach
    assert never.startswith("PASS    a character that cannot be killed never dies")
    assert "  answer: PROVED [" in never
    assert after.startswith("PASS    after the kill, no claim is left pending") and "  answer: PROVED [" in after
    assert before.startswith("PASS    power claim never changes") and "  answer: PROVED [" in before


def test_questions_the_model_answers_otherwise_fail_with_the_proof_or_the_counterexample():
    code, out, _ = ruling(str(FIX / "claim_questions_wrong.yaml"))
    assert code == 1
    reach, never = out.split("\n\n")[:2]
    assert reach.startswith("FAIL") and "  answer: UNREACHABLE [" in reach
    assert "the ruling says it can happen; the model says it cannot happen" in reach
    assert never.startswith("FAIL") and "  answer: VIOLATED [" in never and "  counterexample:" in never
    assert "zone[character 1 of player 2] play -> dead" in never


def test_an_always_after_question_about_a_step_that_never_happens_is_unknown(tmp_path):
    f = tmp_path / "vacuous.yaml"
    f.write_text(
        "model: agot/claim\nscenario: small\nunnamed: initial\nsituation:\n  dups: 0\n"
        "rulings:\n  - ruling: r\n    source: s\n    quote: q\n"
        "    always_after:\n      - save_with_duplicate(character 1 of player 2)\n      - pending\n"
        "    expected: true\n    depth: 1\n",  # a save needs a duplicate and a kill first
        encoding="utf-8",
    )
    code, out, _ = ruling(str(f))
    assert code == 3
    assert ("the step 'save_with_duplicate(character 1 of player 2)' never happens within 1 steps of this situation: "
            "the answer would hold only because it never happens") in out


# ---------------------------------------------------------------- output formats and the bundled rulings


def test_json_is_one_object_with_version_and_the_trace():
    code, out, _ = ruling(str(FIX / "claim_wrong_refusal.yaml"), "--json")
    obj = json.loads(out)
    assert code == 1 and obj["version"] == 1 and obj["status"] == 1
    assert obj["counts"] == {"pass": 0, "fail": 1, "unknown": 0}
    (r,) = obj["rulings"]
    assert (r["outcome"], r["failed_step"], r["source"]) == ("fail", 2, "a misreading of FAQ (2.1)")
    assert r["steps"][1] == {"do": "choose_for_claim(character 1 of player 2)", "choosing": {}, "refused": True,
                             "expect": []}
    assert [s["action"] for s in r["trace"]["steps"]] == ["win_military(p1, p2)"]


def test_json_error_is_one_object_with_version(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("model: agot/nope\nunnamed: initial\nrulings: []\n", encoding="utf-8")
    code, out, err = ruling(str(f), "--json")
    assert code == 2 and err == ""
    obj = json.loads(out)
    assert obj["version"] == 1 and obj["error"].startswith(f"{f}:")


def test_no_argument_checks_the_bundled_rulings(monkeypatch):
    import ruleproof.rulings.check as check
    from ruleproof.rulings import bundled_rulings_dir, load_rulings

    seen: list[str] = []

    def fake(r, timeout=None):  # the wiring only: the bundled rulings themselves run in test_bundled_rulings.py
        seen.append(r.where)
        return check.RulingResult(r, check.Outcome.PASS, "not checked here")

    monkeypatch.setattr(check, "check_ruling", fake)
    code, out, _ = ruling()
    assert code == 0
    assert seen == [r.where for r in load_rulings([bundled_rulings_dir()])]
    assert len(seen) >= 90


def test_the_wheel_ships_the_bundled_rulings():
    text = (HERE.parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"rulings" = "ruleproof/_bundled/rulings"' in text


# ---------------------------------------------------------------- bad files: exit 2, file:line: error: ...

HEAD = "model: agot/claim\nscenario: small\nunnamed: initial\nrulings:\n"
ONE = HEAD + "  - ruling: r\n    source: s\n    quote: q\n"

BAD = [
    ("syntax", HEAD + "  - ruling: r\n    source: [s\n", 6, "YAML syntax error"),
    ("tab", "model: agot/claim\nunnamed: initial\nrulings:\n\t- ruling: r\n", 4, "YAML syntax error"),
    ("unknown system", "model: agot/claims\nunnamed: initial\nrulings:\n  - ruling: r\n    source: s\n    quote: q\n"
     "    never: pending\n    expected: true\n", 1, "unknown system 'agot/claims' (did you mean 'agot/claim'?)"),
    ("unknown game", "model: agto/claim\nunnamed: initial\nrulings:\n  - ruling: r\n    source: s\n    quote: q\n"
     "    never: pending\n    expected: true\n", 1, "no bundled game 'agto' (did you mean 'agot'?)"),
    ("unknown scenario", "model: agot/claim\nscenario: smal\nunnamed: initial\nrulings:\n  - ruling: r\n"
     "    source: s\n    quote: q\n    never: pending\n    expected: true\n", 2, "has no scenario 'smal' (did you mean "
     "'small'?)"),
    ("unknown variable", ONE + "    situation:\n      zones[character 1 of player 1]: play\n    never: pending\n"
     "    expected: true\n", 9, "unknown variable 'zones' (did you mean 'zone'?)"),
    ("unknown label", ONE + "    situation:\n      zone[character 9 of player 1]: play\n    never: pending\n"
     "    expected: true\n", 9, "'character 9 of player 1' does not index 'zone' (did you mean 'character 3 of "
     "player 1'?)"),
    ("unknown value", ONE + "    situation:\n      zone[character 1 of player 1]: plya\n    never: pending\n"
     "    expected: true\n", 9, "unknown value 'plya' for 'zone[character 1 of player 1]' (did you mean 'play'?)"),
    ("wrong type", ONE + "    situation:\n      claim[player 1]: many\n    never: pending\n    expected: true\n", 9,
     "wrong type: 'claim[player 1]' is a whole number (0..3), got 'many'"),
    ("wrong type of a key", ONE + "    never: pending\n    expected: yes please\n", 9,
     "wrong type in 'rulings[1].expected': expected true or false, got 'yes please'"),
    ("out of range", ONE + "    situation:\n      claim[player 1]: 7\n    never: pending\n    expected: true\n", 9,
     "value 7 is out of range: 'claim[player 1]' takes 0..3"),
    ("unknown action", ONE + "    steps:\n      - do: win_militray(player 1, player 2)\n    expect: pending\n", 9,
     "unknown action 'win_militray' (did you mean 'win_military'?)"),
    ("unknown parameter", ONE + "    steps:\n      - do: win_military(player 1, player 3)\n    expect: pending\n", 9,
     "'player 3' is not a parameter 'dfn' of 'win_military' (did you mean 'player 2'?)"),
    ("wrong number of parameters", ONE + "    steps:\n      - do: win_military(player 1)\n    expect: pending\n", 9,
     "'win_military' takes 2 parameters (att, dfn), got 1"),
    ("unknown choice", ONE + "    steps:\n      - do: kill_chosen\n        choosing: {who: 1}\n"
     "    expect: pending\n", 10, "'kill_chosen' has no choice 'who'"),
    ("missing expected answer (question)", ONE + "    never: pending\n", 5, "asks 'never' but gives no expected "
     "answer"),
    ("missing expected answer (steps)", ONE + "    steps:\n      - do: win_military(player 1, player 2)\n", 5,
     "states no expected answer"),
    ("missing source", HEAD + "  - ruling: r\n    quote: q\n    never: pending\n    expected: true\n", 5,
     "missing 'source' in 'rulings[1]'"),
    ("missing unnamed", "model: agot/claim\nrulings:\n  - ruling: r\n", 1, "missing 'unnamed'"),
    ("unknown key", ONE + "    nevre: pending\n    expected: true\n", 8, "unknown key 'nevre' in 'rulings[1]' (did "
     "you mean 'never'?)"),
    ("unknown name in an expression", ONE + "    never: zone[character 1 of player 2] == deadd\n    expected: true\n",
     8, "unknown name 'deadd' (did you mean 'dead'?)"),
    ("type mismatch in an expression", ONE + "    never: claim[player 1] == dead\n    expected: true\n", 8,
     "type mismatch: 'dead' is a value of Zone, compared with Int"),
    ("before outside always_after", ONE + "    never: before(pending)\n    expected: true\n", 8,
     "before(...) reads the state before a step: only in an always_after question"),
    ("steps and a question", ONE + "    steps:\n      - do: kill_chosen\n        refused: true\n    never: pending\n"
     "    expected: true\n", 5, "has both steps and a question"),
    ("refused step with expect", ONE + "    steps:\n      - do: kill_chosen\n        refused: true\n"
     "        expect: pending\n", 11, "a refused step changes nothing"),
    ("unknown parameter of the system", HEAD.replace("unnamed", "params: {mutnat: x}\nunnamed") + "  - ruling: r\n"
     "    source: s\n    quote: q\n    never: pending\n    expected: true\n", 3, "system 'claim' has no parameter "
     "'mutnat' (did you mean 'mutant'?)"),
    ("a value given twice", ONE + "    situation:\n      zone[character 1 of player 1]: play\n"
     "      zone[c1]: hand\n    never: pending\n    expected: true\n", 10, "'zone[character 1 of player 1]' is given "
     "twice in this situation (also at line 9)"),
    ("empty file", "", 1, "the file is empty"),
]


@pytest.mark.parametrize("text,line,message", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_file_is_one_line_with_file_and_line_and_exit_2(tmp_path, text, line, message):
    f = tmp_path / "bad.yaml"
    f.write_text(text, encoding="utf-8")
    code, out, err = ruling(str(FIX / "claim_sequence.yaml"), str(f))
    assert code == 2
    assert out == ""  # nothing half-written: the good file before it was not reported either
    assert err.count("\n") == 1, err
    assert err.startswith(f"{f}:{line}: error: "), err
    assert message in err, err


def test_a_missing_file_is_an_error():
    code, _, err = ruling("no/such/rulings.yaml")
    assert code == 2 and err == "error: no such ruling file or directory: no/such/rulings.yaml\n"


def test_when_the_evaluator_and_z3_disagree_it_is_an_internal_error_not_a_verdict(monkeypatch):
    """Both interpreters check every sequence; a disagreement (here: a broken evaluator) is reported as an internal
    error, exit 2, never as PASS or FAIL."""
    from ruleproof.evaluator import Evaluator

    monkeypatch.setattr(Evaluator, "step", lambda self, a, s, choices: None)  # the evaluator refuses every step
    code, out, err = ruling(str(FIX / "claim_sequence.yaml"))
    assert code == 2 and out == ""
    assert err.startswith("internal error: ") and "evaluator" in err
