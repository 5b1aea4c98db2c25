"""The human report: a summary by default, details for what is not proved, -v / -q, --witnesses, wrapping, traces."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from ruleproof.cli import run
from ruleproof.report import TextOptions, mask_times, render_results, wrap_line
from ruleproof.results import Result, Verdict

ROOT = Path(__file__).resolve().parents[2]
GOLD = str(ROOT / "model" / "agot" / "gold.py")

MODEL = '''\
from ruleproof.dsl import Int, Model, Step

SCENARIOS = {"default": {}, "tall": {"limit": 4}}
CHECKED = ("default", "tall")


def build(limit: int = 3) -> Model:
    m = Model("steps")
    x = m.var("x", Int(0, 5), init=0)

    @m.action(describe="x grows by one")
    def grow(a: Step) -> None:
        a.require(x < limit)
        a.set(x, x + 1)

    @m.action(describe="a bonus at four")
    def bonus(a: Step) -> None:
        a.require(x == 4)
        a.set(x, 5)

    @m.action(describe="never")
    def never(a: Step) -> None:
        a.require(x > 5)
        a.set(x, 0)

    m.game_end(x >= limit)
    m.invariant("x stays at most five", x <= 5)
    m.reachable("sanity: x reaches two", x == 2)
    return m
'''


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def steps(tmp_path: Path) -> str:
    p = tmp_path / "steps.py"
    p.write_text(MODEL)
    return str(p)


def test_default_is_a_summary_table_without_witnesses(steps: str) -> None:
    code, out, _ = _run("check", steps)
    assert code == 0
    lines = mask_times(out).splitlines()
    assert lines[2] == "system          proved  held  violated  unknown    time"
    assert lines[3] == "steps[default]       5     0         0        0    N.Ns"
    assert lines[4] == "steps[tall]          5     0         0        0    N.Ns"
    assert "reached" not in out and "initial state" not in out  # witnesses only on request
    assert lines[-1] == "10 properties: 10 proved, 0 held to a depth, 0 violated, 0 unknown"


def test_never_enabled_actions_are_explained(steps: str) -> None:
    _, out, _ = _run("check", steps)
    text = " ".join(out.split())  # unwrapped
    assert ("note: steps[default]: this scenario's setup never enables bonus (in any reachable state); other "
            "scenarios of steps in this run cover them: bonus in tall") in text
    assert ("warning: steps[default]: actions never enabled in any reachable state (nor in any other scenario of "
            "this run), so properties about them hold vacuously: never") in text
    assert "never enables bonus" not in text.split("steps[tall]")[-1]  # tall fires bonus


def test_witnesses_on_request_and_always_in_json(steps: str) -> None:
    _, out, _ = _run("check", steps, "--witnesses", "--scenario", "default", "-p", "sanity-x-reaches-two")
    assert "steps[default] / sanity: x reaches two: reached (" in out
    assert "    1. x grows by one: x 0 -> 1" in out and "    2. x grows by one: x 1 -> 2" in out
    _, out, _ = _run("check", steps, "--json", "--scenario", "default", "-p", "sanity-x-reaches-two")
    (r,) = json.loads(out)["results"]
    assert len(r["trace"]["steps"]) == 2


def test_verbose_lists_each_property_and_quiet_only_the_totals(steps: str) -> None:
    _, out, _ = _run("check", steps, "-v", "--scenario", "default")
    assert "properties of steps: only those in the model file" in out
    rows = [ln for ln in out.splitlines() if ln.startswith("steps[default]  ")]
    assert len(rows) == 5 and any(re.search(r"  sanity-x-reaches-two +sanity: x reaches two$", ln) for ln in rows)
    code, out, _ = _run("check", steps, "-q", "--scenario", "default")
    assert code == 0
    assert out.splitlines()[0] == "model: " + steps and "system" not in out and "note:" not in out
    assert out.splitlines()[-1] == "5 properties: 5 proved, 0 held to a depth, 0 violated, 0 unknown"
    code, _, err = _run("check", steps, "-q", "-v")
    assert code == 2 and "exclude each other" in err


def test_a_violation_is_detailed_even_when_quiet_and_wrapped_to_the_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = _run("check", GOLD, "--param", "mutant=spend_without_return", "-p", "gold-conserved",
                        "--scenario", "default", "-q")
    assert code == 1
    assert all(len(x) <= 60 for x in out.splitlines())
    assert "gold[default] / gold is conserved: VIOLATED" in out
    # income before marshaling (Appendix I 3.2): the player collects income, then marshals
    # which player: the solver's choice
    m = re.search(r"^    1\. player ([12]), the active player, collects income", out, re.M)
    assert m and re.search(rf"^    2\. player {m.group(1)} marshals card \d", out, re.M)
    step = out.split("    2. ")[1].split("\n\n")[0].splitlines()
    assert len(step) > 1 and all(x.startswith("       ") for x in step[1:])  # hanging under the step's text


def test_itf_traces_without_json(tmp_path: Path) -> None:
    code, out, _ = _run("check", GOLD, "--param", "mutant=spend_without_return", "-p", "gold-conserved",
                        "--scenario", "default", "--trace-format", "itf", "--trace-dir", str(tmp_path))
    assert code == 1
    body = out.split("    trace (ITF):\n")[1].split("\n\n")[0]
    itf = json.loads(body)
    assert itf["#meta"]["format"] == "ITF" and len(itf["states"]) == 3  # initial, income, marshal
    (f,) = tmp_path.iterdir()
    assert f.name == "gold-default-gold-conserved.itf.json"  # named by system, scenario and property id
    assert json.loads(f.read_text())["states"] == itf["states"]


def test_held_to_depth_and_unknown_are_explained_not_tabled_only() -> None:
    rs = [Result("s", "d", "p1", "invariant", (), Verdict.HOLDS_TO_DEPTH, 7, "bmc", 1.25),
          Result("s", "d", "p2", "invariant", (), Verdict.UNKNOWN, 0, "kind", 2.0, reason="timed out after 2 s"),
          Result("s", "d", "p3", "invariant", (), Verdict.PROVED, 3, "kind", 0.5)]
    text = render_results("m", rs)
    assert text.splitlines()[3].split() == ["s[d]", "1", "1", "0", "1", "3.8s"]
    assert "s[d] / p1: HOLDS_TO_DEPTH(7): no violation within 7 steps; not proved for all depths" in text
    assert "s[d] / p2: UNKNOWN: timed out after 2 s" in text
    assert "p3" not in text
    assert "p3" in render_results("m", rs, TextOptions(verbosity=1))


def test_wrap_line_never_breaks_words_and_hangs_the_continuation() -> None:
    line = "    3. player 1 does a thing: " + ", ".join(f"zone[card {i}] hand -> play" for i in range(8))
    out = wrap_line(line, 50)
    assert all(len(x) <= 50 for x in out) and " ".join(x.strip() for x in out) == line.strip()
    assert all(x.startswith(" " * 7) for x in out[1:])


def test_a_json_error_does_not_say_error_twice(tmp_path: Path) -> None:
    from ruleproof.cli import json_error

    assert json_error("model.py:3: error: bad thing") == "model.py:3: bad thing"
    assert json_error("error: no such model: x") == "no such model: x"
    assert json_error("internal error: replay failed") == "internal error: replay failed"
    bad = tmp_path / "bad.py"
    bad.write_text("def build(:\n")
    for argv in (["check", "no/such/model", "--json"], ["check", str(bad), "--json"], ["check", "--json", "--nope"],
                 ["list", str(bad), "--json"]):
        code, out, _ = _run(*argv)
        obj = json.loads(out)
        e = obj["error"]
        assert code == 2 and set(obj) == {"version", "error"}, (argv, obj)
        assert not e.startswith("error:") and ": error: " not in e, (argv, obj)
    assert json.loads(_run("check", str(bad), "--json")[1])["error"].startswith(f"{bad}:1: syntax error")
