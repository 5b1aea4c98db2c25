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
        P.c  # noqa: B018 - the attribute access is what raises
    with pytest.raises(InputError, match="unknown variable or static data 'y'"):
        m.v.y  # noqa: B018 - the attribute access is what raises
    with pytest.raises(InputError, match="no truth value"):
        if x[P.a] == 1:  # noqa: SIM108 - the point of the test
            pass


# --------------------------------------------------------------------------- one CLI convention (issue 18)

HOSTILE = FIX / "hostile"


def test_an_unexpected_crash_is_an_internal_error_with_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: a crash used to escape ``run`` with Python's status 1, the code for 'violated'."""
    import ruleproof.scale.check as check

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the engine fell over")

    monkeypatch.setattr(check, "check_system", crash)
    code, out, err = _run("check", str(HOSTILE / "counter.py"))
    assert code == 2 and out == ""
    assert _one_line(err) == ("internal error: RuntimeError: the engine fell over "
                              "(run 'ruleproof --debug COMMAND ...' for the traceback)")
    code, out, err = _run("check", str(HOSTILE / "counter.py"), "--json")
    assert code == 2 and err == ""
    assert json.loads(out) == {"version": 1, "error": "internal error: RuntimeError: the engine fell over "
                                                       "(run 'ruleproof --debug COMMAND ...' for the traceback)"}
    code, out, err = _run("--debug", "check", str(HOSTILE / "counter.py"))
    assert code == 2 and "Traceback (most recent call last)" in err and "the engine fell over" in err


def test_cards_and_graph_do_not_leak_system_exit_and_write_to_the_given_streams(tmp_path: Path) -> None:
    """Regression: ``cards`` and ``graph`` called ``sys.exit(2)`` and wrote to the real stderr."""
    code, out, err = _run("cards", "coverage", str(tmp_path / "no-pool"))
    assert code == 2 and out == "" and "not a card pool directory" in _one_line(err)
    code, out, err = _run("graph", "--what", "timing", "--format", "dot", "--out", str(tmp_path / "none" / "x.dot"))
    assert code == 2 and out == "" and "does not exist" in _one_line(err)
    code, out, err = _run("cards", "coverage", str(tmp_path / "no-pool"), "--json")
    assert code == 2 and err == "" and "not a card pool directory" in json.loads(out)["error"]


def test_every_command_is_registered_explicitly() -> None:
    from ruleproof.cli import main

    ctx = main.make_context("ruleproof", ["--help"], resilient_parsing=True)
    names = main.list_commands(ctx)
    assert {"check", "mutants", "cards", "graph", "loops"} <= set(names)
    for n in names:
        assert main.get_command(ctx, n) is not None, n


def test_usage_errors_are_one_line() -> None:
    code, out, err = _run()
    assert code == 2 and _one_line(err) == "error: no command given (ruleproof --help lists the commands)"
    code, out, err = _run("graph", "--format", "dot")
    assert code == 2 and _one_line(err) == "error: Missing option '--out'."


def test_help_and_version_exit_0_on_the_given_stream() -> None:
    code, out, err = _run("--version")
    assert code == 0 and out.startswith("ruleproof, version") and err == ""
    code, out, err = _run("check", "--help", "--json")
    assert code == 0 and "Exit status:" in out and "130" in out and err == ""


class _Full(io.StringIO):
    """A stream on a full disk."""

    def write(self, s: str) -> int:
        raise OSError(28, "No space left on device")


def test_output_that_cannot_be_written_is_exit_2_not_success() -> None:
    err = io.StringIO()
    code = run(["check", str(HOSTILE / "counter.py"), "-p", "x stays at most the top", "--json"], _Full(), err)
    assert code == 2 and _one_line(err.getvalue()) == "error: cannot write the output: No space left on device"


def test_json_version_is_one_constant() -> None:
    from ruleproof import cli_support, report

    assert cli_support.JSON_VERSION is report.JSON_VERSION


def test_an_error_raised_inside_the_standard_library_is_reported_at_the_models_line(tmp_path: Path) -> None:
    """A failure (or a budget) that lands in library code called by the model names the model's line.

    Under load the --timeout budget of a huge sort fired inside weakref.py and the error named that
    file; the innermost line of the model's own file is the one a user can act on.
    """
    model = tmp_path / "libfail.py"
    model.write_text("import json\n\nfrom ruleproof.dsl import Model\n\n\ndef build() -> Model:\n"
                     "    json.loads('{')\n    return Model('x')\n")
    out, err = io.StringIO(), io.StringIO()
    code = run(["check", str(model)], out, err)
    assert code == 2
    line = err.getvalue().strip().splitlines()[0]
    assert "libfail.py:7:" in line and "JSONDecodeError" in line, line
    assert "decoder.py" not in line
