"""Bad input: one line with file and line, exit 2, no traceback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ruleproof.cli import run
from ruleproof.dsl import Int, Model, Step
from ruleproof.errors import InputError

FIX = Path(__file__).resolve().parents[1] / "fixtures"


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_misspelled_variable_names_file_and_line() -> None:
    code, out, err = _run("check", str(FIX / "misspelled_model.py"))
    assert code == 2
    line = _one_line(err)
    assert "misspelled_model.py:11: error:" in line and "gld" in line


def test_property_over_missing_action() -> None:
    code, out, err = _run("check", str(FIX / "missing_action_model.py"))
    assert code == 2
    line = _one_line(err)
    assert "missing_action_model.py:13: error:" in line
    assert "unknown action 'gian'" in line and "did you mean 'gain'" in line


def test_negative_depth() -> None:
    code, out, err = _run("check", "--depth", "-1")
    assert code == 2
    assert _one_line(err) == "error: --depth must be 0 or more, got -1"


def test_nonexistent_model_path() -> None:
    code, out, err = _run("check", "no/such/model")
    assert code == 2
    assert "no such model: no/such/model" in _one_line(err)


def test_unknown_property_name_suggests() -> None:
    code, out, err = _run("check", "-p", "gold is conserve")
    assert code == 2
    assert "did you mean 'gold is conserved'" in _one_line(err)


def test_errors_in_json_mode_are_one_versioned_object() -> None:
    code, out, err = _run("check", "no/such/model", "--json")
    assert code == 2
    obj = json.loads(out)
    assert obj["version"] == 1 and "no such model" in obj["error"]


def test_dsl_mistakes_raise_at_once_with_the_line() -> None:
    m = Model("t")
    P = m.sort("P", ["a", "b"])
    x = m.var("x", Int(0, 3), index=P, init=0)
    cost = m.static("cost", Int(0, 5), P, {"a": 1, "b": 2})
    with pytest.raises(InputError) as e:
        x[P.a] + True  # type mismatch
    assert "type mismatch" in e.value.message and e.value.loc and e.value.loc.file.endswith("test_core_errors.py")

    @m.action(P)
    def bad_static(a: Step, p) -> None:  # type: ignore[no-untyped-def]
        pass

    with pytest.raises(InputError, match="cannot assign to 'cost'"):
        Step(m, "f").set(cost, 1)
    with pytest.raises(InputError, match="outside the range 0..3"):
        Step(m, "f").set(x[P.a], 7)
    with pytest.raises(InputError, match="'c' is not a value of P"):
        P.c
    with pytest.raises(InputError, match="unknown variable or static data 'y'"):
        m.v.y
    with pytest.raises(InputError, match="no truth value"):
        if x[P.a] == 1:  # noqa: SIM108 - the point of the test
            pass
