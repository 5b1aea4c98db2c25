"""Options with values nobody on the team tried (found by the hostile-user pass; each once crashed or misled)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hostile_helpers import COUNTER, ROOT, attempt


@pytest.mark.parametrize("json_mode", [False, True])
def test_a_memory_limit_too_large_for_the_system_is_bad_input(json_mode: bool) -> None:
    """``--memory-limit 99999999999T`` was an internal error (OverflowError from setrlimit)."""
    argv = ["check", COUNTER, "--memory-limit", "99999999999T", *(["--json"] if json_mode else [])]
    line = attempt(*argv, expect={2}).error_line()
    assert "--memory-limit must be at most 1024T" in line and "internal error" not in line


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "1e300"])
def test_ruling_timeout_must_be_a_finite_positive_number(value: str) -> None:
    """``ruling --timeout nan`` was an internal error (ValueError converting NaN to milliseconds)."""
    for json_mode in (False, True):
        argv = ["ruling", "--timeout", value, *(["--json"] if json_mode else [])]
        line = attempt(*argv, expect={2}).error_line()
        assert line.startswith("--timeout must") or line.startswith("error: --timeout must"), line


@pytest.mark.parametrize("argv", [["check", COUNTER], ["mutants", COUNTER, "--limit", "1"],
                                  ["loops", "--cards", "01163"]])
def test_json_and_jsonl_together_are_refused(argv: list[str]) -> None:
    """``--json --jsonl`` printed a stream of objects (``--json`` promises exactly one): now one error object."""
    res = attempt(*argv, "--json", "--jsonl", expect={2})
    assert res.out.count("\n") == 1 and "--json and --jsonl exclude each other" in res.json["error"]


def test_an_interrupted_ruling_run_reports_the_rulings_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ruling`` computed every result before printing: Ctrl-C after two minutes printed nothing but 'stopped
    before any result'.  SIGINT at the third ruling (simulated by raising the interrupt there)."""
    import ruleproof.rulings.check as check
    from ruleproof import budget

    real, seen = check.check_ruling, []

    def interrupt_on_third(r: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(r)
        if len(seen) == 3:
            budget._state.signum = 2  # as the signal handler records it
            raise budget.Interrupted()
        return real(r, *args, **kwargs)

    monkeypatch.setattr(check, "check_ruling", interrupt_on_third)
    example = str(ROOT / "rulings" / "agot" / "abilities.yaml")
    obj = attempt("ruling", example, "--json", expect={130}).json
    assert obj["interrupted"] is True and obj["stopped"] == "interrupted (SIGINT)" and obj["status"] == 130
    assert len(obj["rulings"]) == 2 and obj["not_run"] and obj["not_run"][0].startswith("abilities.yaml: ")
    seen.clear()
    text = attempt("ruling", example, expect={130}).out
    assert "2 rulings: " in text and "interrupted (SIGINT): " in text and "  not run: abilities.yaml: " in text


def test_graph_checks_returning_the_wrong_type_is_bad_input(tmp_path: Path) -> None:
    """A model's ``graph_checks()`` returning ``[1]`` was an internal error (AttributeError in the report)."""
    model = tmp_path / "gc.py"
    model.write_text(Path(COUNTER).read_text(encoding="utf-8") + "\n\ndef graph_checks():\n    return [1]\n",
                     encoding="utf-8")
    for extra in ([], ["--json"]):
        line = attempt("check", str(model), *extra, expect={2}).error_line()
        assert "graph_checks() must return ruleproof.results.Result objects, got 1" in line
        assert "internal error" not in line


def test_a_model_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    """``c\\xff.py`` in a model folder was an internal error (UnicodeEncodeError hashing the path); its name is
    printed with the byte shown, never written raw (stdout could not encode it)."""
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "c\udcff.py").write_text(Path(COUNTER).read_text(encoding="utf-8"), encoding="utf-8")
    res = attempt("check", str(folder / "c\udcff.py"), expect={1})
    assert "c\\udcff.py" in res.out and "\udcff" not in res.out
    attempt("check", str(folder), "--json", expect={1})
