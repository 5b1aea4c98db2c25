"""Budgets that bind: the per-query timeout, the solver resource limit, the run's time limit, memory.

The review's attempts 1.19, 6.25, 9.02-9.07 re-run as tests.  No timing is
asserted here (the machine may be loaded): a test that returns shows the
run ended; ``benchmarks/bench_budgets.py`` measures how long it took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hostile_helpers import COUNTER, FIX, GOLD, LONG_RUN, attempt

CONSERVED = "gold is conserved"


def test_a_query_that_would_run_forever_ends_with_its_timeout() -> None:
    """1.19, 9.02-9.04: coverage kept unrolling to --depth after the deadline (it never ended at a huge depth)."""
    res = attempt("check", GOLD, "--scenario", "small", "-p", CONSERVED, "--engine", "bmc", "--depth", "10000",
                  "--timeout", "2", "--rlimit", "0", "--json", expect={3})
    (r,) = res.json["results"]
    assert r["verdict"] == "unknown" and "timeout" in r["reason"] and "interrupt" not in r["reason"]
    cov = r["coverage"]
    assert cov["unknown"] and not cov["never"]  # coverage stopped with the budget, and says so
    assert res.json["budget"]["timeout"] == 2


def test_the_resource_limit_binds_and_says_so() -> None:
    """The default per-query budget is a solver resource limit, reported in the result (issue 17)."""
    res = attempt("check", GOLD, "--scenario", "small", "-p", CONSERVED, "--engine", "bmc", "--depth", "30",
                  "--rlimit", "20000", "--json", expect={3})
    (r,) = res.json["results"]
    assert r["verdict"] == "unknown"
    assert "resource limit reached (rlimit 20,000 per solver call)" in r["reason"]
    assert res.json["budget"]["rlimit"] == 20000


def test_every_unknown_says_why() -> None:
    res = attempt("check", GOLD, "--scenario", "small", "--rlimit", "5000", "--json", expect={1, 3})
    unknown = [r for r in res.json["results"] if r["verdict"] == "unknown"]
    assert unknown
    for r in unknown:
        assert r["reason"], r
        assert any(w in r["reason"] for w in ("resource limit", "timeout", "out of memory", "solver:", "not reached",
                                              "deeper than", "k-induction")), r["reason"]


def test_the_run_time_limit_reports_what_finished_and_marks_the_rest_not_run() -> None:
    res = attempt(*LONG_RUN, "--time-limit", "4", "--json", expect={1, 3})
    obj = res.json
    assert obj["stopped"].startswith("the run's time limit (4 s)") and obj["interrupted"] is False
    assert obj["not_run"], obj["stopped"]
    done = {(r["system"], r["scenario"], r["property"]) for r in obj["results"]}
    assert not done & {(x["system"], x["scenario"], x["property"]) for x in obj["not_run"]}


def test_the_run_time_limit_in_text_mode() -> None:
    res = attempt(*LONG_RUN, "--time-limit", "3", expect={1, 3})
    assert "the run's time limit (3 s) was reached: " in res.out and "  not run: " in res.out


def test_a_huge_sort_is_stopped_by_the_load_budget() -> None:
    """6.25: a sort of 10^6 elements ran for over 120 s (and gigabytes)."""
    res = attempt("check", str(FIX / "hugesort.py"), "--timeout", "3", expect={2})
    line = res.error_line()
    assert "hugesort.py" in line and ("did not finish within 3 s" in line or "out of memory" in line)


def test_memory_limits_are_checked() -> None:
    assert "at least 256M" in attempt("check", COUNTER, "--memory-limit", "1M", expect={2}).error_line()
    assert "takes a size" in attempt("check", COUNTER, "--memory-limit", "lots", expect={2}).error_line()
    assert "--time-limit must be positive" in attempt("check", COUNTER, "--time-limit", "0", expect={2}).error_line()
    assert "--time-limit must be a finite" in attempt("mutants", COUNTER, "--time-limit", "nan",
                                                      expect={2}).error_line()


def _ruleproof(*args: str, timeout: float = 600) -> tuple[int, str, str, int]:
    """Run the real entry point in a child process; (exit status, stdout, stderr, that child's peak RSS in bytes).

    The peak is the child's own (``os.wait4``): ``getrusage(RUSAGE_CHILDREN)`` is the largest of every child
    this test process ever waited for, so an earlier test's bigger child made this one look too big.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([sys.executable, "-m", "ruleproof.cli", *args], stdout=out, stderr=err,
                             env={**os.environ, "PYTHONHASHSEED": "0"})
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                raise subprocess.TimeoutExpired(p.args, timeout)
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read().decode(), err.read().decode(), usage.ru_maxrss * 1024


@pytest.mark.slow
def test_memory_exhaustion_is_unknown_out_of_memory_not_a_crash() -> None:
    """9.07: 1,000 players grew to 3.9 GB and ended in a MemoryError traceback."""
    code, out, err, peak = _ruleproof("check", str(FIX / "players.py"), "--param", "players=1000",
                                      "--memory-limit", "1G", "--engine", "explicit", "--depth", "3", "--timeout",
                                      "600", "-p", "every pool stays within 0..3", "--json")
    assert code == 3, err
    assert "Traceback" not in err
    obj = json.loads(out)
    (r,) = obj["results"]
    assert r["verdict"] == "unknown" and "out of memory" in r["reason"], r["reason"]
    assert obj["budget"]["memory_limit"] == 2**30
    assert peak < 1.2 * 2**30  # the address-space limit caps the resident memory too


@pytest.mark.slow
def test_the_same_verdicts_and_traces_on_a_loaded_machine() -> None:
    """Verdicts depend on the solver's resource limit, not on the clock: a run under a CPU hog gives the same report."""
    args = ["check", GOLD, "--scenario", "small", "--json"]
    quiet = attempt(*args, expect={0, 1, 3}).json
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]
    try:
        time.sleep(0.5)
        loaded = attempt(*args, expect={0, 1, 3}).json
    finally:
        for h in hogs:
            h.kill()
            h.wait()

    def strip(x: object) -> object:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "seconds"}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    assert strip(quiet) == strip(loaded)
    assert any(r["trace"] for r in quiet["results"])  # traces (witnesses) are compared too


def test_stage_budget_does_not_leak_between_runs(tmp_path: Path) -> None:
    """After a run stopped a build, the next run in the same process is not stopped."""
    attempt("check", str(FIX / "loops_forever.py"), "--timeout", "1", expect={2})
    attempt("check", COUNTER, "-p", "x stays at most the top", expect={0})


def test_every_property_of_a_big_model_is_decided_or_names_its_budget() -> None:
    """9.05, 9.06: properties overran --timeout (5.45 s at 2 s, 16 s at 10 s) with no budget named.

    How long each took is measured by ``benchmarks/bench_budgets.py``; here: every result that is not decided
    says which budget stopped it.
    """
    res = attempt("check", str(FIX / "players.py"), "--param", "players=120", "--timeout", "2", "--json",
                  expect={0, 1, 3})
    for r in res.json["results"]:
        if r["verdict"] == "unknown":
            assert any(w in r["reason"] for w in ("timeout", "resource limit", "out of memory")), r["reason"]
    assert res.json["budget"]["timeout"] == 2
