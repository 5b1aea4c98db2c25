"""Options with values nobody on the team tried (found by the hostile-user pass; each once crashed or misled)."""

from __future__ import annotations

import pytest
from hostile_helpers import COUNTER, attempt


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
