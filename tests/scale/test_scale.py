"""Scale-out on Dask: the same answers on a two-worker cluster as in-process, and honest faults.

One two-worker ``LocalCluster`` (module fixture) serves the ``--scheduler``
runs; the timeout test starts its own cluster through ``run_units(workers=2)``
(a timed-out unit's worker is restarted only on a cluster ruleproof owns).
"""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any, Iterator

import pytest

from ruleproof.cli import run
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.report import mask_times
from ruleproof.results import Verdict
from ruleproof.scale import Fault, run_units
from ruleproof.scale.check import CheckUnit, run_check_unit
from ruleproof.scale.executor import DASK_CONFIG
from ruleproof.scale.mutants import plan_mutants, run_mutants
from ruleproof.scale.systems import model_ref

MINI = str(Path(__file__).resolve().parent / "fixtures" / "mini")
LOOP_CARDS = ["00151", "14037", "11050", "01163", "04090"]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set(DASK_CONFIG):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=":0", silence_logs=logging.ERROR, memory_limit=0)
    client = Client(cluster)
    try:
        yield cluster.scheduler_address
    finally:
        client.close()
        cluster.close()


@pytest.fixture()
def address(scheduler: str) -> str:
    """The fixture cluster's address, once both workers are up (a test may have killed one)."""
    from distributed import Client

    with Client(scheduler) as c:
        c.wait_for_workers(2, timeout=60)
    return scheduler


def _cli(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = run(args, out, io.StringIO())
    return code, out.getvalue()


def _strip(obj: Any) -> Any:
    """JSON without timings."""
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k != "seconds"}
    if isinstance(obj, list):
        return [_strip(x) for x in obj]
    return obj


def _assert_same(local: Any, remote: Any) -> None:
    """The two JSON objects are equal apart from timings; else show the first item that differs."""
    a, b = _strip(local), _strip(remote)
    if a == b:
        return
    for key in ("results", "loops", "mutants"):
        for x, y in zip(a.get(key, []), b.get(key, []), strict=False):
            assert x == y, f"in-process:\n{json.dumps(x, indent=1)}\non the cluster:\n{json.dumps(y, indent=1)}"
    assert a == b


def test_check_on_the_cluster_gives_the_in_process_results(address: str) -> None:
    local_code, local = _cli(["check", MINI, "--json"])
    dask_code, remote = _cli(["check", MINI, "--json", "--scheduler", address])
    a, b = json.loads(local), json.loads(remote)
    assert dask_code == local_code == 1  # the fixture has a violated property
    _assert_same(a, b)
    systems = [(r["system"], r["scenario"]) for r in a["results"]]
    assert list(dict.fromkeys(systems)) == [("bank", "default"), ("bank", "big"), ("counter", "default"),
                                            ("counter", "tall")]
    violated = [r for r in a["results"] if r["verdict"] == "violated"]
    assert len(violated) == 2 and all(len(r["trace"]["steps"]) >= 5 for r in violated)
    # the human report is the same text apart from its timings
    assert mask_times(_cli(["check", MINI, "--scheduler", address])[1]) == mask_times(_cli(["check", MINI])[1])


def test_check_properties_file_reaches_the_workers(address: str, tmp_path: Path) -> None:
    props = tmp_path / "extra.py"
    props.write_text("def register(m):\n    m.invariant('x stays at most 3 (from --properties)', m.v.x <= 3)\n")
    model = str(Path(MINI) / "counter.py")
    local_code, local = _cli(["check", model, "--json", "--properties", str(props)])
    dask_code, remote = _cli(["check", model, "--json", "--properties", str(props), "--scheduler", address])
    a, b = json.loads(local), json.loads(remote)
    assert local_code == dask_code
    _assert_same(a, b)
    assert "x stays at most 3 (from --properties)" in {r["property"] for r in b["results"]}


def test_mutants_on_the_cluster_give_the_in_process_score(address: str) -> None:
    args = ["mutants", MINI, "--limit", "2", "--timeout", "30", "--json"]
    local_code, local = _cli(args)
    dask_code, remote = _cli(args + ["--scheduler", address])
    a, b = json.loads(local), json.loads(remote)
    assert dask_code == local_code == 0
    _assert_same(a, b)
    assert a["total"] == 4 and a["killed"] > 0  # both systems, two mutants each
    assert [m["system"] for m in a["mutants"]] == ["bank"] * 2 + ["counter"] * 2


def test_loops_on_the_cluster_give_the_in_process_report(address: str) -> None:
    args = ["loops"] + [x for c in LOOP_CARDS for x in ("--cards", c)] + ["--json"]
    local_code, local = _cli(args)
    dask_code, remote = _cli(args + ["--scheduler", address])
    a, b = json.loads(local), json.loads(remote)
    assert dask_code == local_code
    _assert_same(a, b)
    assert len(a["loops"]) == a["coverage"]["candidates"] >= 3
    assert all(x["reason"] for x in a["loops"]) and any(x["trace"] for x in a["loops"])  # a solver trace too


def test_a_killed_worker_makes_its_unit_unknown_and_the_rest_complete(address: str) -> None:
    work = plan_mutants(MINI, Options(depth=6, kmax=4, rlimit=DEFAULT_RLIMIT, timeout=5), 2)
    expected = run_mutants(work)  # the same driver in this process
    got = run_mutants(work, scheduler=address, fault=Fault(index=1, kind="exit"))
    assert len(got) == len(expected) == 4
    system, dead = got[1]
    assert system == expected[1][0] and dead.label == expected[1][1].label
    assert dead.status == "unknown" and dead.killed_by == ()
    assert dead.reason.startswith("worker died:")
    assert [got[i] for i in (0, 2, 3)] == [expected[i] for i in (0, 2, 3)]


def test_a_unit_past_its_timeout_is_unknown_on_a_local_cluster() -> None:
    ref = model_ref(MINI)
    units = [CheckUnit(ref, name, scen, (), (), "auto", Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=5))
             for name, scen in (("counter", "default"), ("counter", "tall"), ("bank", "default"))]
    seen: list[tuple[int, int, str]] = []

    def failed(u: CheckUnit, reason: str) -> list[str]:
        return [f"{u.label}: {reason}"]

    out = run_units(units, run_check_unit, failed, workers=2, timeout=6, progress=lambda *a: seen.append(a),
                    fault=Fault(index=1, kind="hang"))
    assert out[1] == ["counter[tall]: timed out: still running after 6 s"]
    for i in (0, 2):
        assert [r.verdict for r in out[i]] == [r.verdict for r in run_check_unit(units[i])]  # type: ignore
        assert all(r.verdict is not Verdict.UNKNOWN for r in out[i])  # type: ignore
    assert sorted(d for d, _, _ in seen) == [1, 2, 3] and {t for _, t, _ in seen} == {3}


def test_ctrl_c_shuts_the_local_cluster_down() -> None:
    import psutil

    def children() -> set[int]:
        return {p.pid for p in psutil.Process().children(recursive=True) if p.is_running()}

    before = children()
    units = [CheckUnit(model_ref(MINI), "counter", "default", (), (), "auto",
            Options(depth=4, rlimit=DEFAULT_RLIMIT, timeout=5))] * 2

    def interrupt(done: int, total: int, label: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_units(units, run_check_unit, lambda u, r: [], workers=1, progress=interrupt)
    assert children() <= before  # the worker process and its nanny are gone


def test_cluster_options_are_checked() -> None:
    code, out = _cli(["check", MINI, "--workers", "0", "--json"])
    assert code == 2 and "--workers must be 1 or more" in json.loads(out)["error"]
    code, out = _cli(["check", MINI, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1", "--json"])
    assert code == 2 and "not both" in json.loads(out)["error"]
