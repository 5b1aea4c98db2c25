"""No false green, for every subcommand: exit 0 only with a complete report, and never from a model's ``sys.exit(0)``.

A CI pipeline trusts exit 0.  For each subcommand this runs a successful
case and checks that its report is there and complete (the totals, the
score, the summary object), and runs the hostile cases that once ended with
exit 0 and no output: each must now be exit 2 with one error.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_helpers import FIX, ROOT, Outcome, attempt, check_promise

MINI = str(ROOT / "tests" / "scale" / "fixtures" / "mini" / "counter.py")


def _complete(cmd: str, out: str, json_mode: bool) -> bool:
    """The report of ``cmd`` is all there (its last part is printed)."""
    if json_mode:
        obj = json.loads(out)
        return obj.get("version") == 1 and obj.get("status", 0) == 0 and "error" not in obj
    last = out.rstrip("\n").splitlines()[-1] if out.strip() else ""
    return {
        "check": last.endswith(" unknown") and " proved, " in last,
        "mutants": " mutants: " in last and "; score " in last,  # a system's counts and score, the last line
        "loops": last.startswith("cards: "),
        "cards": "full %" in out,
        "graph": last.startswith("wrote "),
        "list": "properties" in out,
    }[cmd]


def _success_cases(tmp: Path) -> list[tuple[str, list[str], bool]]:
    return [
        ("check", ["check", MINI], False),
        ("check", ["check", MINI, "--json"], True),
        ("mutants", ["mutants", MINI, "--limit", "1"], False),
        ("mutants", ["mutants", MINI, "--limit", "1", "--json"], True),
        ("loops", ["loops", "--cards", "01163", "--cards", "04090"], False),
        ("loops", ["loops", "--cards", "01163", "--cards", "04090", "--json"], True),
        ("cards", ["cards", "coverage"], False),
        ("cards", ["cards", "coverage", "--json"], True),
        ("graph", ["graph", "--out", str(tmp / "t.dot")], False),
        ("list", ["list", MINI], False),
        ("list", ["list", MINI, "--json"], True),
    ]


def test_exit_0_comes_only_with_a_complete_report(tmp_path: Path) -> None:
    for cmd, argv, json_mode in _success_cases(tmp_path):
        res = attempt(*argv, expect={0})
        assert res.out.strip(), argv
        assert _complete(cmd, res.out, json_mode), (argv, res.out[-500:])


CASES = [(cmd, model) for cmd in ("check", "mutants", "list", "export")
         for model in ("sysexit.py", "sysexit_import.py", "kbint.py")]
CASES.append(("graph", "sysexit_import.py"))  # graph runs a timing file's top-level code (no build())


@pytest.mark.parametrize(("cmd", "model"), CASES)
def test_a_model_ending_the_process_is_never_exit_0(cmd: str, model: str, tmp_path: Path) -> None:
    extra = {"graph": ["--out", str(tmp_path / "g.dot")], "export": ["--format", "smt2", "--out", str(tmp_path / "x")]}
    argv = [cmd, str(FIX / model), *extra.get(cmd, [])]
    res = attempt(*argv, expect={2})
    assert f"{model}:" in res.error_line()
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(("cmd", "model"), [(cmd, model) for cmd in ("check", "mutants", "list", "export")
                                            for model in ("osexit.py", "osexit_import.py")]
                         + [("graph", "osexit_import.py")])
def test_a_model_calling_os_exit_is_never_exit_0(cmd: str, model: str, tmp_path: Path) -> None:
    """``os._exit(0)`` skips every handler; it runs in a child process (in this one it would end pytest with 0)."""
    extra = {"graph": ["--out", str(tmp_path / "g.dot")], "export": ["--format", "smt2", "--out", str(tmp_path / "x")]}
    argv = [cmd, str(FIX / model), *extra.get(cmd, []), *(["--json"] if cmd in ("check", "mutants", "list") else [])]
    proc = subprocess.run([sys.executable, "-m", "ruleproof.cli", *argv], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    res = Outcome(argv, proc.returncode, proc.stdout, proc.stderr)
    check_promise(res, {2})
    assert f"{model}:" in res.error_line() and "os._exit(0)" in res.error_line()
    assert not list(tmp_path.iterdir())


NO_PROPERTY = '''
from ruleproof.dsl import Bool, Model, Step


def build() -> Model:
    m = Model("bare")
    x = m.var("x", Bool, init=False)
{actions}
    return m
'''
FLIP = '''
    @m.action(describe="flip")
    def flip(a: Step) -> None:
        a.set(x, ~x)
'''


def test_no_property_left_to_check_is_not_exit_0(tmp_path: Path) -> None:
    """Every consistency check skipped on a model without properties printed '0 properties', exit 0."""
    model = tmp_path / "bare.py"
    model.write_text(NO_PROPERTY.format(actions=FLIP), encoding="utf-8")
    skip = ["--skip-check", "deadlock", "--skip-check", "determinism", "--skip-check", "must-cannot"]
    for extra in ([], ["--json"]):
        assert "nothing to check" in attempt("check", str(model), *skip, *extra, expect={2}).error_line()
    res = attempt("check", str(model), "--skip-check", "must-cannot", expect={0})  # a check left: a real answer
    assert _complete("check", res.out, False)


def test_a_model_with_nothing_to_mutate_is_not_exit_0(tmp_path: Path) -> None:
    """``mutants`` on a model without actions printed an empty line, exit 0 (also with ``--min-score 0.9``)."""
    model = tmp_path / "bare.py"
    model.write_text(NO_PROPERTY.format(actions=""), encoding="utf-8")
    for extra in ([], ["--json"], ["--min-score", "0.9"]):
        assert "nothing to mutate" in attempt("mutants", str(model), *extra, expect={2}).error_line()
