"""Running SPIN on an exported Promela model (for the tests and ``benchmarks/bench_vs_spin.py``).

:func:`run_spin` generates the verifier (``spin -a``), compiles it
(``gcc -O2 -DSAFETY``) and runs a safety search (``./pan -m DEPTH``), each
step timed (wall, and CPU from the operating system's accounting of the
child), the search stopped with SIGINT past a wall or CPU limit (``pan``
then prints its statistics so far).  Needs ``spin`` and ``gcc`` on the path
(Debian: ``apt-get install spin gcc``).
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SpinRun", "run_spin", "spin_available"]


def spin_available() -> bool:
    """Whether ``spin`` and ``gcc`` are installed."""
    return shutil.which("spin") is not None and shutil.which("gcc") is not None


@dataclass(frozen=True)
class SpinRun:
    """What one SPIN verification did.

    ``errors``: assertion violations (or invalid end states) found, None when
    ``pan`` printed no summary; ``complete``: the search ran to its end (not
    stopped at a limit, search depth not too small); ``states``: states
    stored; ``memory_mb``: pan's total memory; ``*_cpu``/``*_wall``: seconds
    for generating + compiling the verifier, and for the search.
    """

    errors: int | None
    complete: bool
    stopped: str
    states: int | None
    memory_mb: float | None
    compile_cpu: float
    compile_wall: float
    cpu: float
    wall: float
    output: str

    @property
    def violated(self) -> bool:
        return bool(self.errors)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _proc_cpu(pid: int) -> float:
    """CPU seconds of a running process (Linux ``/proc``; 0 where unavailable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def run_spin(pml: Path, *, max_depth: int = 100_000, wall_limit: float | None = None,
             cpu_limit: float | None = None, memlim_mb: int = 8000) -> SpinRun:
    """Verify ``pml`` with SPIN in its directory (see the module docstring)."""
    work = pml.parent
    c0, w0 = _children_cpu(), time.perf_counter()
    subprocess.run(["spin", "-a", pml.name], cwd=work, check=True, capture_output=True, text=True)
    subprocess.run(["gcc", "-O2", "-DSAFETY", f"-DMEMLIM={memlim_mb}", "-o", "pan", "pan.c"], cwd=work, check=True,
                   capture_output=True, text=True)
    compile_cpu, compile_wall = _children_cpu() - c0, time.perf_counter() - w0
    c1, w1 = _children_cpu(), time.perf_counter()
    p = subprocess.Popen(["./pan", f"-m{max_depth}"], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    stopped = ""
    while p.poll() is None:
        time.sleep(0.05)
        if wall_limit is not None and time.perf_counter() - w1 > wall_limit:
            stopped = f"wall limit {wall_limit:g} s"
        elif cpu_limit is not None and _proc_cpu(p.pid) > cpu_limit:
            stopped = f"CPU limit {cpu_limit:g} s"
        if stopped:
            p.send_signal(signal.SIGINT)
            break
    out, _ = p.communicate()
    cpu, wall = _children_cpu() - c1, time.perf_counter() - w1
    m = re.search(r"errors: (\d+)", out)
    states = re.search(r"(\d+) states, stored", out)
    mem = re.search(r"([\d.]+)\s+total actual memory usage", out)
    shallow = "max search depth too small" in out
    return SpinRun(
        errors=int(m.group(1)) if m else None,
        complete=m is not None and not stopped and not shallow,
        stopped=stopped or ("search depth too small" if shallow else ""),
        states=int(states.group(1)) if states else None,
        memory_mb=float(mem.group(1)) if mem else None,
        compile_cpu=compile_cpu,
        compile_wall=compile_wall,
        cpu=cpu,
        wall=wall,
        output=out,
    )
