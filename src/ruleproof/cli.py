"""The ``ruleproof`` command line.

Exit status of every command: 0 every property proved or held (nothing
found), 1 some property violated, 2 bad input or internal error, 3 some
result unknown.  ``--json`` always prints exactly one object with a
``version`` field, whatever the outcome (errors included).

:func:`run` takes the argument list and the output streams and returns the
exit status, so tests call the CLI in-process.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

import click

from . import __version__
from .consistency import CHECKS
from .engines import ENGINES
from .engines.common import Options, Progress
from .errors import InputError, InternalError
from .report import JSON_VERSION, exit_status, render_results, results_json, trace_itf

__all__ = ["main", "run"]

EXIT_HELP = """\b
Exit status:
  0  every property proved or held to the depth
  1  some property violated (a replayed counterexample is shown)
  2  bad input or internal error
  3  some result unknown (solver unknown or timeout), none violated
"""


class _Streams:
    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out = out
        self.err = err


def _streams() -> _Streams:
    obj = click.get_current_context().obj
    return obj if isinstance(obj, _Streams) else _Streams(sys.stdout, sys.stderr)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file: never half-written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@click.group(epilog=EXIT_HELP)
@click.version_option(__version__, prog_name="ruleproof")
def main() -> None:
    """ruleproof: a formal model checker for card-game rules (AGoT 2.0, Berserk)."""


def _parse_params(items: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for it in items:
        if "=" not in it:
            raise InputError(f"--param takes NAME=VALUE, got '{it}'")
        k, v = it.split("=", 1)
        try:
            out[k] = json.loads(v)
        except json.JSONDecodeError:
            out[k] = v
    return out


class _ProgressSink:
    """Progress on stderr (a rich bar on a terminal, nothing otherwise)."""

    def __init__(self, err: TextIO, enabled: bool) -> None:
        self.enabled = enabled and err.isatty()
        self.progress: Any = None
        self.task: Any = None
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, TextColumn
            from rich.progress import Progress as RichProgress

            self.progress = RichProgress(
                TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                console=Console(file=err), transient=True,
            )

    def __enter__(self) -> "_ProgressSink":
        if self.progress is not None:
            self.progress.start()
            self.task = self.progress.add_task("checking", total=1)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def __call__(self, ev: Progress) -> None:
        if self.progress is not None:
            self.progress.update(
                self.task, description=f"{ev.system}: {ev.prop[:50]} [{ev.engine}]", completed=ev.depth, total=max(ev.of, 1)
            )


def _fail(exc: Exception, as_json: bool, s: _Streams) -> int:
    msg = exc.render() if isinstance(exc, (InputError, InternalError)) else f"error: {exc}"
    if as_json:
        s.out.write(json.dumps({"version": JSON_VERSION, "error": msg}) + "\n")
    else:
        s.err.write(msg + "\n")
    return 2


@main.command(epilog=EXIT_HELP)
@click.argument("model", required=False)
@click.option("--property", "-p", "props", multiple=True, help="Check only this property (repeatable).")
@click.option("--depth", type=int, default=12, show_default=True, help="BMC / explicit-search depth (steps).")
@click.option("--kmax", type=int, default=8, show_default=True, help="Largest k tried by k-induction.")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
              help="auto: proofs first (k-induction, Spacer, exhaustive search of a small system), then BMC to --depth.")
@click.option("--timeout", type=float, default=60.0, show_default=True, help="Seconds per property; past it the result is UNKNOWN.")
@click.option("--scenario", default=None, help="Check this scenario of each system (default: its checked scenarios).")
@click.option("--param", "params", multiple=True, help="Override a scenario parameter, NAME=VALUE (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1).")
@click.option("--trace-format", type=click.Choice(["text", "itf"]), default="text", show_default=True,
              help="Traces in --json and --trace-dir: ruleproof's own, or ITF (Apalache/Quint).")
@click.option("--trace-dir", type=click.Path(file_okay=False), default=None,
              help="Also write each counterexample/witness trace to DIR/<system>-<n>.itf.json.")
@click.option("--skip-check", "skip_checks", multiple=True, type=click.Choice(CHECKS),
              help="Leave out this consistency check (repeatable).")
@click.option("--coverage", "rule_coverage", is_flag=True,
              help="List every rule (action, conditional effect, timing step) and whether a check reached it.")
@click.option("--workers", type=int, default=None,
              help="Check the systems on a local Dask cluster of N worker processes (default: in this process).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Check the systems on the Dask scheduler at ADDRESS (e.g. tcp://host:8786).")
def check(model: str | None, props: tuple[str, ...], depth: int, kmax: int, engine: str, timeout: float | None,
          scenario: str | None, params: tuple[str, ...], as_json: bool, trace_format: str, trace_dir: str | None,
          skip_checks: tuple[str, ...] = (), rule_coverage: bool = False,
          workers: int | None = None, scheduler: str | None = None) -> int:
    """Check a rules MODEL (default: the bundled AGoT model) against its properties.

    Besides each model's own properties, every model gets the consistency
    checks: the game can always proceed (deadlock), outcomes are determined
    (determinism), and "must" never meets "cannot" (must-cannot).
    """
    s = _streams()
    try:
        return _check(s, model, props, depth, kmax, engine, timeout, scenario, params, as_json, trace_format, trace_dir,
                      workers=workers, scheduler=scheduler, skip_checks=skip_checks, rule_coverage=rule_coverage)
    except (InputError, InternalError) as e:
        return _fail(e, as_json, s)


def _check(s: _Streams, model: str | None, props: tuple[str, ...], depth: int, kmax: int, engine: str,
           timeout: float | None, scenario: str | None, params: tuple[str, ...], as_json: bool,
           trace_format: str, trace_dir: str | None, *, workers: int | None = None,
           scheduler: str | None = None, skip_checks: tuple[str, ...] = (), rule_coverage: bool = False) -> int:
    from .engines.runner import check_system
    from .loader import graph_check_results, load_all

    if depth < 0:
        raise InputError(f"--depth must be 0 or more, got {depth}")
    if kmax < 0:
        raise InputError(f"--kmax must be 0 or more, got {kmax}")
    if timeout is not None and timeout <= 0:
        raise InputError(f"--timeout must be positive, got {timeout}")
    overrides = _parse_params(params)
    systems = load_all(model, scenario, overrides)
    if props:
        known = {p.name for sy in systems for p in sy.properties}
        for name in props:
            if name not in known:
                import difflib

                close = difflib.get_close_matches(name, sorted(known), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise InputError(f"no property named '{name}' in this model{hint}")
    opts = Options(depth=depth, kmax=kmax, timeout=timeout, skip_checks=skip_checks, rule_coverage=rule_coverage)
    results = []
    with _ProgressSink(s.err, not as_json) as sink:
        if workers is not None or scheduler is not None:
            from .scale.check import check_on_cluster

            results.extend(check_on_cluster(model, scenario, overrides, systems, engine, opts, props, sink,
                                            workers=workers, scheduler=scheduler))
        else:
            from .scale.isolation import fresh_solver_context

            for sy in systems:
                if props and not any(p.name in props for p in sy.properties):
                    continue
                fresh_solver_context()  # each system's answers independent of the ones before (as on a cluster)
                results.extend(check_system(sy, engine, opts, props, sink))
        if not props:
            results.extend(graph_check_results(model))
    name = model or "agot (bundled)"
    if trace_dir is not None:
        for i, r in enumerate(results, 1):
            if r.trace is not None:
                write_atomic(Path(trace_dir) / f"{r.system}-{i}.itf.json",
                             json.dumps(trace_itf(r.trace, name, r.property), indent=2) + "\n")
    if as_json:
        s.out.write(json.dumps(results_json(name, results, trace_format), indent=2, ensure_ascii=False) + "\n")
    else:
        s.out.write(render_results(name, results))
    return exit_status(results)


def run(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the CLI in-process; returns the exit status."""
    s = _Streams(out or sys.stdout, err or sys.stderr)
    as_json = "--json" in argv
    try:
        rv = main.main(args=argv, prog_name="ruleproof", standalone_mode=False, obj=s)
    except click.UsageError as e:
        return _fail(InputError(e.format_message()), as_json, s)
    except click.exceptions.Exit as e:
        return int(e.exit_code)
    except click.exceptions.Abort:
        s.err.write("aborted\n")
        return 2
    except (InputError, InternalError) as e:
        return _fail(e, as_json, s)
    return int(rv) if isinstance(rv, int) else 0


def _register_optional() -> None:
    """Commands from other packages of ruleproof (cards, graph, loops, mutants)."""
    import importlib

    for mod, attr in (("ruleproof.cards.cli", "cards"), ("ruleproof.timing.cli", "graph_command"),
                      ("ruleproof.loops.cli", "loops"), ("ruleproof.mutants", "mutants")):
        try:
            m = importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name and e.name.startswith("ruleproof"):
                continue
            raise
        cmd = getattr(m, attr, None)
        if isinstance(cmd, click.Command):
            main.add_command(cmd)


_register_optional()


def entry() -> None:
    """Console-script entry point."""
    sys.exit(run(sys.argv[1:]))


if __name__ == "__main__":
    entry()
