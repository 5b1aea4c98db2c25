"""Results as they come: each result is written as soon as it is known, ``--jsonl`` gives one object per result.

Issue 17's streaming part: text rows and JSON lines are written while the
run goes on (not at the end), the final summary agrees with the lines, and
the exit status comes from the complete report.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hostile_helpers import ROOT, attempt

MINI = str(ROOT / "tests" / "scale" / "fixtures" / "mini")


class _Log(io.StringIO):
    """An output stream that records when each piece of output arrived, among other events."""

    def __init__(self, events: list[tuple[str, str]]) -> None:
        super().__init__()
        self.events = events

    def write(self, s: str) -> int:
        self.events.append(("out", s))
        return super().write(s)


@pytest.fixture()
def events(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Record each system the run starts checking (``("system", label)``)."""
    import ruleproof.scale.check as check

    log: list[tuple[str, str]] = []
    real = check.check_system

    def spy(system: Any, *args: Any, **kwargs: Any) -> Any:
        log.append(("system", f"{system.name}[{system.scenario}]"))
        return real(system, *args, **kwargs)

    monkeypatch.setattr(check, "check_system", spy)
    return log


def _first(events: list[tuple[str, str]], kind: str, contains: str = "") -> int:
    return next(i for i, (k, v) in enumerate(events) if k == kind and contains in v)


def test_text_rows_are_written_before_the_next_system_starts(events: list[tuple[str, str]]) -> None:
    from ruleproof.cli import run

    out = _Log(events)
    code = run(["check", MINI], out, io.StringIO())
    assert code == 1
    started = [v for k, v in events if k == "system"]
    assert started == ["bank[default]", "bank[big]", "counter[default]", "counter[tall]"]
    assert _first(events, "out", "bank[default] ") < _first(events, "system", "bank[big]")
    assert _first(events, "out", "counter[default] ") < _first(events, "system", "counter[tall]")
    text = out.getvalue()
    assert text.startswith(f"model: {MINI}\n") and "properties:" in text.splitlines()[-1]


def test_jsonl_is_one_object_per_result_then_a_summary(events: list[tuple[str, str]]) -> None:
    from ruleproof.cli import run

    out = _Log(events)
    code = run(["check", MINI, "--jsonl"], out, io.StringIO())
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    *results, summary = lines
    assert all(x["version"] == 1 and x["type"] == "result" for x in results)
    assert summary["type"] == "summary" and summary["status"] == code == 1
    assert sum(summary["counts"].values()) == len(results) and summary["counts"]["violated"] == 2
    assert summary["interrupted"] is False and summary["not_run"] == []
    assert _first(events, "out", '"system": "bank"') < _first(events, "system", "counter[default]")


def test_json_is_one_object_in_plan_order() -> None:
    res = attempt("check", MINI, "--json", expect={1})
    systems = list(dict.fromkeys((r["system"], r["scenario"]) for r in res.json["results"]))
    assert systems == [("bank", "default"), ("bank", "big"), ("counter", "default"), ("counter", "tall")]
    assert res.json["interrupted"] is False and res.json["budget"]["rlimit"] > 0


def test_mutants_stream_one_line_per_mutant(tmp_path: Path) -> None:
    res = attempt("mutants", MINI, "--limit", "1", "--jsonl", expect={0, 3})
    *items, summary = [json.loads(x) for x in res.out.splitlines()]
    assert [x["type"] for x in items] == ["mutant", "mutant"] and summary["type"] == "summary"
    assert summary["total"] == 2 and summary["status"] == res.code


def test_the_mutants_status_line_names_the_last_verdict_not_a_mutant_under_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """The heartbeat once read "mutant 90/91: X" for the whole time the 91st ran, X being the 90th, already judged."""
    from ruleproof import cli_support

    seen: list[str] = []
    real = cli_support.Activity.status

    def status(self: cli_support.Activity, text: str) -> None:
        seen.append(text)
        real(self, text)

    monkeypatch.setattr(cli_support.Activity, "status", status)
    res = attempt("mutants", MINI, "--limit", "1", "--jsonl", expect={0, 3})
    *items, _ = [json.loads(x) for x in res.out.splitlines()]
    judged = [t for t in seen if "mutants judged" in t]
    assert len(judged) == len(items) == 2
    for n, (text, item) in enumerate(zip(judged, items, strict=True), 1):
        assert text.startswith(f"{n} of 2 mutants judged; last: {item['system']} ")
        assert text.endswith(f": {item['status']}")


def test_an_interrupted_report_marks_the_rest_not_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGINT during the third system (simulated by raising the interrupt there): the report of what finished."""
    import ruleproof.scale.check as check
    from ruleproof import budget

    real = check.check_system

    def interrupt_on_third(system: Any, *args: Any, **kwargs: Any) -> Any:
        if (system.name, system.scenario) == ("counter", "default"):
            budget._state.signum = 2  # as the signal handler records it
            raise budget.Interrupted()
        return real(system, *args, **kwargs)

    monkeypatch.setattr(check, "check_system", interrupt_on_third)
    res = attempt("check", MINI, "--json", expect={130})
    obj = res.json
    assert obj["interrupted"] is True and obj["stopped"] == "interrupted (SIGINT)"
    assert {r["system"] for r in obj["results"]} == {"bank"}
    assert {(x["system"], x["scenario"]) for x in obj["not_run"]} == {("counter", "default"), ("counter", "tall")}
    text = attempt("check", MINI, expect={130}).out
    assert "interrupted (SIGINT): " in text and "  not run: counter[tall] / " in text
