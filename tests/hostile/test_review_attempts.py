"""The reliability review's attempts on bad input, re-run as tests (in this process).

Each test names the attempts of ``reliability-review.md`` it re-runs: every
attempt that failed there, and a representative of each group that held.
Budgets, interrupts and the Dask scheduler have their own files
(``test_budgets.py``, ``test_signals.py``, ``test_scheduler.py``).
"""

from __future__ import annotations

import io
import json
import os
import stat
import tempfile
import warnings
from pathlib import Path

import pytest
from hostile_helpers import COUNTER, FIX, GOLD, ROOT, attempt, make_pool, one_card_pack

PROP = "x stays at most the top"


# --------------------------------------------------------------------------- numbers (1.24, 1.25, 2.11, 2.12, 5.xx)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "1e300"])
@pytest.mark.parametrize("json_mode", [False, True])
def test_timeouts_must_be_finite_positive_numbers(value: str, json_mode: bool) -> None:
    """1.24, 1.25, 7.10 (check); 5.08, 5.09, 5.12, 7.26 (mutants); 2.11, 2.12 (loops)."""
    extra = ["--json"] if json_mode else []
    for argv in (["check", COUNTER, "-p", PROP], ["mutants", COUNTER], ["loops", "--cards", "06088"]):
        res = attempt(*argv, "--timeout", value, *extra, expect={2})
        assert "--timeout" in res.error_line()


def test_depth_and_kmax_have_ranges() -> None:
    """5.07 (mutants --depth -1: a kill search needs a step, and --limit a mutant), 1.16 (held), the upper limits."""
    assert "--depth must be 1 or more" in attempt("mutants", COUNTER, "--depth", "-1", expect={2}).error_line()
    assert "--depth must be 0 or more" in attempt("check", COUNTER, "--depth", "-1", expect={2}).error_line()
    huge = "99999999999999999999"
    assert "--depth must be at most 10000" in attempt("check", COUNTER, "--depth", huge, expect={2}).error_line()
    assert "--kmax must be at most 1000" in attempt("check", COUNTER, "--kmax", huge, expect={2}).error_line()
    assert "--limit must be 1 or more" in attempt("mutants", COUNTER, "--limit", "-1", expect={2}).error_line()


def test_workers_have_an_upper_limit() -> None:
    line = attempt("check", COUNTER, "--workers", "100000", expect={2}).error_line()
    assert "--workers must be at most" in line
    assert "--workers must be 1 or more" in attempt("check", COUNTER, "--workers", "0", expect={2}).error_line()


def test_mutants_follow_the_exit_codes() -> None:
    """5.11: mutants left unknown (a budget too small for the solver) made exit 0; now 3, each with the reason.

    (A system small enough to explore is judged exactly, with no solver budget: this one has 2,001 initial states.)
    """
    res = attempt("mutants", str(FIX / "widecounter.py"), "--timeout", "1e-9", "--json", expect={3})
    obj = res.json
    assert obj["status"] == 3 and obj["unknown"] > 0
    assert all(m["reason"] for m in obj["mutants"] if m["status"] == "unknown")


# --------------------------------------------------------------------------- model paths and options (1.xx)


def test_model_path_too_long() -> None:
    """1.11, 7.15: a 5000-character model path."""
    name = "a" * 5000 + ".py"
    line = attempt("check", name, expect={2}).error_line()
    assert "no such model" in line and "(5003 characters)" in line and len(line) < 500
    attempt("check", name, "--json", expect={2})


def test_empty_scenario_is_an_error() -> None:
    """1.54: ``--scenario ''`` used to run the checked scenarios."""
    assert "--scenario needs a scenario name" in attempt("check", COUNTER, "--scenario", "", expect={2}).error_line()


def test_no_command_is_one_line() -> None:
    """1.68: ``ruleproof`` alone printed 16 lines."""
    assert attempt(expect={2}).error_line() == "error: no command given (ruleproof --help lists the commands)"
    line = attempt("cards", expect={2}).error_line()  # a group alone points at its own help
    assert line == "error: no command given (ruleproof cards --help lists the commands)"


def test_representatives_that_held() -> None:
    """1.02, 1.16, 1.37, 1.53, 1.56, 1.60, 1.65, 1.66, 1.67, 5.01, 5.02, 7.01..7.09, 7.28, 7.30."""
    assert "must be Python (.py)" in attempt("check", str(FIX / "README.md"), expect={2}).error_line()
    attempt("check", str(ROOT / "tests" / "fixtures" / "missing_action_model.py"), expect={2})
    assert "unknown mutant" in attempt("check", GOLD, "--scenario", "small", "--param", "mutant=nonsense",
                                       expect={2}).error_line()
    attempt("check", COUNTER, "--scenario", "nosuch", expect={2})
    attempt("check", COUNTER, "-p", "no such property", "--json", expect={2})
    attempt("check", COUNTER, "-p", PROP, "--depth", "3", "--depth", "4", expect={0})
    attempt("check", COUNTER, COUNTER, expect={2})
    attempt("check", "--nonsense-flag", "--json", expect={2})
    attempt("nonsense-command", expect={2})
    attempt("mutants", "no/such/model.py", "--json", expect={2})
    attempt("check", COUNTER, "--workers", "0", "--json", expect={2})
    attempt("check", COUNTER, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1", expect={2})


# --------------------------------------------------------------------------- models that misbehave (6.xx, 7.xx)


@pytest.mark.parametrize("cmd", [["check"], ["mutants"]])
@pytest.mark.parametrize("json_mode", [False, True])
def test_a_model_calling_sys_exit_is_never_a_success(cmd: list[str], json_mode: bool) -> None:
    """6.07, 6.08, 6.09, 6.32, 7.14: ``sys.exit(0)`` in build() or at import made ruleproof exit 0, silently."""
    extra = ["--json"] if json_mode else []
    for model, line in (("sysexit.py", 9), ("sysexit_import.py", 5)):
        res = attempt(*cmd, str(FIX / model), *extra, expect={2})
        where = f"{model}:{line}: " if json_mode else f"{model}:{line}: error: "  # JSON says "error" only in its key
        assert f"{where}the model called sys.exit(0)" in res.error_line()


def test_graph_of_a_timing_file_calling_sys_exit() -> None:
    """6.33: ``graph`` executes the file too."""
    res = attempt("graph", str(FIX / "sysexit_import.py"), "--format", "dot", "--out", "x.dot", expect={2})
    assert "sysexit_import.py:5: error: the model called sys.exit(0)" in res.error_line()


def test_a_model_raising_keyboard_interrupt_is_bad_input() -> None:
    """6.10, 7.29: a KeyboardInterrupt the model raises itself (no signal) is an error of the model."""
    res = attempt("check", str(FIX / "kbint.py"), "--json", expect={2})
    assert "interrupted" not in res.json
    assert res.json["error"].endswith("kbint.py:7: the model raised KeyboardInterrupt")


def test_a_build_that_never_returns_is_stopped() -> None:
    """6.03: loading and building is bounded by the --timeout budget."""
    res = attempt("check", str(FIX / "loops_forever.py"), "--timeout", "1", expect={2})
    line = res.error_line()
    assert "loops_forever.py:" in line and "did not finish within 1 s" in line


def test_an_unknown_scenario_names_the_scenarios_there_are() -> None:
    line = attempt("check", COUNTER, "--scenario", "defualt", expect={2}).error_line()
    assert line.endswith("error: no system of this model has a scenario 'defualt' (did you mean 'default'?); "
                         "its scenarios: default")


def test_deck_lists_against_the_deckbuilding_limits(tmp_path: Path) -> None:
    """Deckbuilding: up to 3 copies of a draw-deck card, a plot once but one plot of the deck twice; a byte that
    is not UTF-8 is named at its line (a byte-order mark is not a line of its own)."""
    def deck(name: str, data: bytes) -> str:
        path = tmp_path / name
        path.write_bytes(data)
        return str(path)

    line = attempt("loops", "--deck", deck("jaime.txt", b"3x 01087\n01087\n"), expect={2}).error_line()
    assert line.endswith("jaime.txt:2: error: 4 copies of Ser Jaime Lannister (01087): a deck holds at most 3 "
                         "(Deckbuilding)")
    line = attempt("loops", "--deck", deck("huge.txt", b"10000000000000000000000x 01087\n"), expect={2}).error_line()
    assert "huge.txt:1: error: 10000000000000000000000 copies of Ser Jaime Lannister" in line
    line = attempt("loops", "--deck", deck("plots.txt", b"2x 01002\n2 01003\n"), expect={2}).error_line()
    assert line.endswith("plots.txt:2: error: a second plot with 2 copies (A Game of Thrones, after A Feast for "
                         "Crows): only one plot of a plot deck may be duplicated (Deckbuilding)")
    attempt("loops", "--deck", deck("legal.txt", b"2x 01002\n01003\n3x 01087\n"), expect={0, 3})
    line = attempt("loops", "--deck", deck("latin1.txt", b"\xef\xbb\xbf01001\n01002\n\xff01003\n"),
                   expect={2}).error_line()
    assert line.endswith("latin1.txt:3: error: the deck list is not UTF-8 text: byte 0xff cannot be read (save "
                         "the file as UTF-8)")


def test_a_refused_check_creates_no_trace_directory(tmp_path: Path) -> None:
    """--trace-dir is created only once the options and the model are accepted."""
    traces = tmp_path / "traces"
    attempt("check", COUNTER, "--trace-dir", str(traces), "--json", "--jsonl", expect={2})
    attempt("check", str(tmp_path / "no_such_model.py"), "--trace-dir", str(traces), expect={2})
    attempt("check", str(FIX / "checked_str.py"), "--trace-dir", str(traces), expect={2})
    attempt("check", COUNTER, "--trace-dir", str(traces), "--param", "no_such_param=1", expect={2})
    assert not traces.exists()
    attempt("check", COUNTER, "--trace-dir", str(traces), expect={0, 1})
    assert traces.is_dir()


@pytest.mark.parametrize("json_mode", [False, True])
def test_malformed_scenarios(json_mode: bool) -> None:
    """6.22, 7.13 (SCENARIOS value is 5); 6.20, 6.21 held."""
    extra = ["--json"] if json_mode else []
    line = attempt("check", str(FIX / "scenparams_bad.py"), *extra, expect={2}).error_line()
    assert "SCENARIOS['default'] must be a dict of parameter name -> value, got 5" in line
    line = attempt("check", str(FIX / "checked_str.py"), *extra, expect={2}).error_line()
    assert "CHECKED must be a non-empty list of scenario names" in line
    line = attempt("check", str(FIX / "checked_twice.py"), *extra, expect={2}).error_line()
    assert "checked_twice.py: " in line and "CHECKED names the scenario 'd' twice" in line


def test_raising_models_held() -> None:
    """6.01, 6.02, 6.24, 6.34, 7.25: held, still hold."""
    res = attempt("check", str(FIX / "raises.py"), "--json", expect={2})
    assert res.json["error"].endswith("raises.py:7: RuntimeError: boom in build")
    attempt("mutants", str(FIX / "raises.py"), "--json", expect={2})


def test_a_model_without_actions_gets_the_deadlock_check() -> None:
    """6.16: with no action the deadlock check was silently left out (exit 0)."""
    res = attempt("check", str(FIX / "noactions.py"), "--json", expect={1})
    (dead,) = [r for r in res.json["results"] if r["property"] == "the game can always proceed (no deadlock)"]
    assert dead["verdict"] == "violated"
    assert dead["reason"].endswith("; the model declares no action")  # was an empty reason after the ';'


def test_a_model_module_runs_once_per_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """6.30, 13.02: module-level code ran 4 times per ``check``."""
    log = tmp_path / "log.txt"
    monkeypatch.setenv("RULEPROOF_TEST_SIDE_EFFECT_LOG", str(log))
    model = tmp_path / "side.py"
    model.write_text((FIX / "sideeffect.py").read_text(encoding="utf-8"), encoding="utf-8")
    attempt("check", str(model), expect={0})
    assert log.read_text(encoding="utf-8").split() == ["imported", "build"]


# --------------------------------------------------------------------------- trace files (1.70-1.74, 8.07, 8.08)


@pytest.mark.parametrize("json_mode", [False, True])
def test_trace_dir_that_cannot_be_written(tmp_path: Path, json_mode: bool) -> None:
    """1.70, 1.72, 1.74, 7.12: /proc, a path below a file; checked before any work."""
    extra = ["--json"] if json_mode else []
    for d in ("/proc/nope", f"{COUNTER}/sub"):
        line = attempt("check", COUNTER, "--trace-dir", d, *extra, expect={2}).error_line()
        assert "--trace-dir" in line and "cannot write there" in line


def test_trace_dir_with_a_read_only_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """1.73 (read-only parent; the tests run as root, so the refusal is simulated)."""

    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    line = attempt("check", COUNTER, "--trace-dir", str(tmp_path / "ro" / "traces"), expect={2}).error_line()
    assert "cannot write there (Permission denied)" in line


def test_traces_stay_inside_the_trace_dir_and_honour_the_umask(tmp_path: Path) -> None:
    """8.07 (a model named '../../escaped'), 8.08 (files were 0600 under umask 022)."""
    inner = tmp_path / "td" / "inner"
    old = os.umask(0o022)
    try:
        attempt("check", str(FIX / "slashname.py"), "--trace-dir", str(inner), expect={1})
    finally:
        os.umask(old)
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    assert files and all(p.parent == inner for p in files), files
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o644 for p in files)


def test_stale_temporary_files_of_a_killed_writer_are_removed(tmp_path: Path) -> None:
    """10.90: kill -9 while writing could leave a hidden partial file; the next write removes it."""
    from ruleproof.files import write_atomic

    dead = 2**22 + 12345  # no such process
    stale = tmp_path / f".t.itf.json.ruleproof-{dead}-x1y2.tmp"
    stale.write_text("partial")
    write_atomic(tmp_path / "t.itf.json", "{}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.itf.json"]


# --------------------------------------------------------------------------- output (8.01, 8.02, 8.03)


class _Full(io.StringIO):
    def write(self, s: str) -> int:
        raise OSError(28, "No space left on device")


class _Closed(io.StringIO):
    def write(self, s: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_full_disk_on_stdout_is_an_error() -> None:
    """8.01 (cards coverage > /dev/full), 8.02 (check --json > /dev/full)."""
    for argv in (["cards", "coverage"], ["check", COUNTER, "-p", PROP, "--json"]):
        err = io.StringIO()
        from ruleproof.cli import run

        assert run(argv, _Full(), err) == 2
        assert err.getvalue() == "error: cannot write the output: No space left on device\n"


def test_a_closed_pipe_is_not_a_success() -> None:
    """8.03, 8.04: the reader went away; the report was not delivered."""
    from ruleproof.cli import run

    err = io.StringIO()
    assert run(["check", COUNTER, "-p", PROP], _Closed(), err) == 2
    assert "cannot write the output" in err.getvalue()


# --------------------------------------------------------------------------- graph output (4.xx)


@pytest.mark.parametrize("out", ["/proc/x.svg", "", "/proc/x.png"])
def test_graph_out_that_cannot_be_written(out: str) -> None:
    """4.02, 4.30, 4.20 (timing and ability graphs)."""
    fmt = "png" if out.endswith(".png") else "svg"
    attempt("graph", "--format", fmt, "--out", out, expect={2})
    attempt("graph", "--what", "abilities", "--cards", "06088", "--format", fmt, "--out", out, expect={2})


def test_graph_out_in_a_read_only_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """4.04, 4.05, 4.21 (the tests run as root: the refusal is simulated)."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    monkeypatch.setattr(os, "open", refuse)
    for fmt in ("dot", "png"):
        line = attempt("graph", "--format", fmt, "--out", str(tmp_path / f"x.{fmt}"), expect={2}).error_line()
        assert "Permission denied" in line
    assert list(tmp_path.iterdir()) == []


def test_graph_without_format_is_one_line(tmp_path: Path) -> None:
    """4.08: a missing --format printed five lines (now the suffix of --out names the format, or one line says so)."""
    line = attempt("graph", "--out", str(tmp_path / "x.unknown"), expect={2}).error_line()
    assert "cannot tell the format from the name x.unknown" in line


def test_graph_representatives_that_held(tmp_path: Path) -> None:
    """4.01, 4.03, 4.12, 4.13, 4.29."""
    attempt("graph", "--format", "svg", "--out", str(tmp_path / "missing" / "x.svg"), expect={2})
    attempt("graph", "--format", "dot", "--out", str(tmp_path), expect={2})
    attempt("graph", "no/such/model", "--format", "dot", "--out", str(tmp_path / "x.dot"), expect={2})
    attempt("graph", COUNTER, "--format", "dot", "--out", str(tmp_path / "x.dot"), expect={2})
    res = attempt("graph", "--format", "dot", "--out", str(tmp_path / "ok.dot"), expect={0})
    assert res.out.startswith("wrote ")


# --------------------------------------------------------------------------- card pools (3.xx)


def _pools(tmp_path: Path) -> dict[str, Path]:
    card = json.loads(one_card_pack())["cards"][0]
    permissive = {"code": "X", "name": "X", "cards": [5, "str", None]}
    permissive2 = {"code": "X", "name": "X", "cards": [{**card, "icons": ["military"], "text": 5}]}
    pools = {
        "permissive": make_pool(tmp_path / "permissive", {"X.json": json.dumps(permissive)}),
        "permissive2": make_pool(tmp_path / "permissive2", {"X.json": json.dumps(permissive2)}),
        "badschema": make_pool(tmp_path / "badschema", {"X.json": one_card_pack()}),
        "binary": make_pool(tmp_path / "binary", {"Core.json": b"\xbf\xfe\x00\x81" * 64}),
        "packdir": make_pool(tmp_path / "packdir", {"X.json": None}),
        "deepnest": make_pool(tmp_path / "deepnest", {"X.json": "[" * 200_000 + "]" * 200_000}),
    }
    for name in ("permissive", "permissive2"):
        for schema in ("card.schema.json", "pack.schema.json"):
            (pools[name] / schema).write_text("{}", encoding="utf-8")
    (pools["badschema"] / "pack.schema.json").write_text('{"type": 5, "required": 7}', encoding="utf-8")
    return pools


def test_malformed_pools_are_bad_input(tmp_path: Path) -> None:
    """3.09, 3.10, 3.11, 3.13, 3.14, 3.15, 3.19, 3.20, 7.22 (cards coverage); 3.27, 3.28, 7.18 (loops); 4.26 (graph)."""
    pools = _pools(tmp_path)
    for name, pool in pools.items():
        allowed = {0, 2} if name == "permissive2" else {2}
        attempt("cards", "coverage", str(pool), expect=allowed)
        attempt("cards", "coverage", str(pool), "--json", expect=allowed)
        if name in ("binary", "permissive", "packdir"):
            attempt("loops", "--cards", "01001", "--pool", str(pool), "--json", expect={2})
        if name == "deepnest":
            attempt("graph", "--what", "abilities", "--cards", "01001", "--pool", str(pool), "--format", "dot",
                    "--out", str(tmp_path / "x.dot"), expect={2})


def test_a_schema_whose_reference_leads_nowhere(tmp_path: Path) -> None:
    """A pack schema naming a card schema that is not there is bad input at the pack, without a deprecation."""
    pool = make_pool(tmp_path / "dangling", {"Core.json": one_card_pack()})
    pack_schema = json.loads((pool / "pack.schema.json").read_text(encoding="utf-8"))
    text = json.dumps(pack_schema).replace('"card.schema.json"', '"no-such.schema.json"')
    assert "no-such.schema.json" in text
    (pool / "pack.schema.json").write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        line = attempt("cards", "coverage", str(pool), expect={2}).error_line()
    assert line.endswith("error: the pool's schema cannot validate this file: Unresolvable: no-such.schema.json")
    assert "Core.json: error:" in line


def test_an_unreadable_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """3.16 (a mode-000 pack read as nobody; the tests run as root, so the refusal is simulated)."""
    pool = make_pool(tmp_path / "unreadable", {"Core.json": one_card_pack()})
    real = Path.read_text

    def read_text(self: Path, *args: object, **kwargs: object) -> str:
        if self.name == "Core.json" and self.parent.parent == pool:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", read_text)
    line = attempt("cards", "coverage", str(pool), expect={2}).error_line()
    assert line.endswith("Core.json: error: cannot read the pack file: Permission denied")


def test_pool_representatives_that_held(tmp_path: Path) -> None:
    """3.01, 3.02, 3.03, 3.08, 3.12, 3.17."""
    attempt("cards", "coverage", str(make_pool(tmp_path / "nopacks", schemas=False).parent / "x"), expect={2})
    attempt("cards", "coverage", str(make_pool(tmp_path / "noschema", schemas=False)), expect={2})
    attempt("cards", "coverage", str(make_pool(tmp_path / "empty")), expect={0})
    dup = one_card_pack()
    attempt("cards", "coverage", str(make_pool(tmp_path / "dup", {"A.json": dup, "B.json": dup})), expect={2})
    attempt("cards", "coverage", str(make_pool(tmp_path / "badjson", {"X.json": "{\n  nope"})), expect={2})
    attempt("cards", "coverage", str(make_pool(tmp_path / "emptyjson", {"X.json": ""})), "--json", expect={2})


# --------------------------------------------------------------------------- deck lists (2.xx)


def test_an_empty_deck_is_refused_not_the_whole_pool(tmp_path: Path) -> None:
    """2.17, 2.29: an empty or headers-only deck searched the whole pool (minutes); now exit 2 at once."""
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    headers = tmp_path / "headers.txt"
    headers.write_text("# my deck\nCharacters (0):\nPlots:\n", encoding="utf-8")
    for deck in (empty, headers):
        line = attempt("loops", "--deck", str(deck), "--json", expect={2}).error_line()
        assert "the deck list names no card" in line
        attempt("graph", "--what", "abilities", "--deck", str(deck), "--format", "dot",
                "--out", str(tmp_path / "x.dot"), expect={2})


def test_deck_errors_quote_at_most_300_characters(tmp_path: Path) -> None:
    """2.27 (a 2 MB card name was echoed whole), 2.20, 2.22, 2.24 (held)."""
    long = tmp_path / "long.txt"
    long.write_text("A" * 2_000_000 + "\n", encoding="utf-8")
    line = attempt("loops", "--deck", str(long), expect={2}).error_line()
    assert "unknown card" in line and "(2000000 characters)" in line and len(line) < 600
    for text in ("Totally Unknown Card\n", "0 06088\n", "3x\n"):
        deck = tmp_path / "d.txt"
        deck.write_text(text, encoding="utf-8")
        assert attempt("loops", "--deck", str(deck), expect={2}).error_line().startswith(f"{deck}:1: error:")


# --------------------------------------------------------------------------- trust (13.01)


def test_the_readme_says_models_are_code() -> None:
    """13.01: nothing said that a model is Python run on load."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Models are code\n", 1)[1].split("\n## ", 1)[0]
    for words in ("Python module", "top-level code", "once per process", "untrusted source", "sys.exit"):
        assert words in section, words
