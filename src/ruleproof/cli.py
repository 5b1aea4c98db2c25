"""The ``ruleproof`` command line.

Exit status of every command: 0 every property proved or held (nothing
found), 1 some property violated, 2 bad input or internal error, 3 some
result unknown.  ``--json`` always prints exactly one object with a
``version`` field, whatever the outcome (errors included).

:func:`run` takes the argument list and the output streams and returns the
exit status, so tests call the CLI in-process.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from . import __version__
from .consistency import CHECKS
from .engines import ENGINES
from .errors import InputError, InternalError
from .report import JSON_VERSION, TextOptions, exit_status, render_results, results_json, trace_itf

if TYPE_CHECKING:
    from .engines.common import Progress

__all__ = ["main", "run", "json_error"]

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


# the other subcommands, imported only when used (start-up stays light: no solver, no Dask, no matplotlib)
_LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "cards": ("ruleproof.cards.cli", "cards"),
    "graph": ("ruleproof.timing.cli", "graph_command"),
    "list": ("ruleproof.catalog", "list_command"),
    "loops": ("ruleproof.loops.cli", "loops"),
    "mutants": ("ruleproof.mutants", "mutants"),
    "ruling": ("ruleproof.rulings.cli", "ruling"),
}


class _LazyGroup(click.Group):
    """A click group whose subcommands other than ``check`` are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is None and cmd_name in _LAZY_COMMANDS:
            mod, attr = _LAZY_COMMANDS[cmd_name]
            cmd = getattr(importlib.import_module(mod), attr)
            assert isinstance(cmd, click.Command), (mod, attr)
        return cmd


@click.group(cls=_LazyGroup, epilog=EXIT_HELP)
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
                self.task, description=f"{ev.system}: {ev.prop[:50]} [{ev.engine}]", completed=ev.depth,
                total=max(ev.of, 1),
            )


def json_error(line: str) -> str:
    """An error line for the ``"error"`` field of a JSON object: the location and the message, without the word
    ``error:`` the key already says (``model.py:3: error: x`` -> ``model.py:3: x``)."""
    head, sep, rest = line.partition("error: ")
    if sep and (head == "" or head.endswith(": ")):
        return head + rest
    return line


def _fail(exc: Exception, as_json: bool, s: _Streams) -> int:
    msg = exc.render() if isinstance(exc, (InputError, InternalError)) else f"error: {exc}"
    if as_json:
        s.out.write(json.dumps({"version": JSON_VERSION, "error": json_error(msg)}) + "\n")
    else:
        s.err.write(msg + "\n")
    return 2


@main.command(epilog=EXIT_HELP)
@click.argument("model", required=False)
@click.option("--property", "-p", "props", multiple=True,
              help="Check only this property: its sentence or its short id (`ruleproof list` shows both; repeatable).")
@click.option("--properties", "properties", default=None, metavar="PATH",
              help="Properties file (one-system model) or directory of <system>.py files (default: beside the model, "
                   "then properties/<game>/).")
@click.option("--depth", type=int, default=12, show_default=True, help="BMC / explicit-search depth (steps).")
@click.option("--kmax", type=int, default=8, show_default=True, help="Largest k tried by k-induction.")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
              help="auto: proofs first (k-induction, Spacer, exhaustive search of a small system), then BMC to "
                   "--depth.")
@click.option("--timeout", type=float, default=60.0, show_default=True,
              help="Seconds per property; past it the result is UNKNOWN.")
@click.option("--scenario", default=None, help="Check this scenario of each system (default: its checked scenarios).")
@click.option("--param", "params", multiple=True,
              help="Override a build() parameter, NAME=VALUE (JSON, else a string; repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1), witness traces included.")
@click.option("--witnesses", is_flag=True, help="Show the witness trace of each reached sanity target.")
@click.option("--verbose", "-v", is_flag=True,
              help="One line per property, inductive invariants, and the properties file each system loaded.")
@click.option("--quiet", "-q", is_flag=True, help="Only what is not proved, and the totals.")
@click.option("--trace-format", type=click.Choice(["text", "itf"]), default="text", show_default=True,
              help="How traces are shown (text report and --json): ruleproof's own, or ITF (Apalache/Quint).")
@click.option("--trace-dir", type=click.Path(file_okay=False), default=None,
              help="Also write each counterexample/witness trace as ITF to DIR/<system>-<scenario>-<id>.itf.json.")
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
          workers: int | None = None, scheduler: str | None = None, properties: str | None = None,
          witnesses: bool = False, verbose: bool = False, quiet: bool = False) -> int:
    """Check a rules MODEL (default: the bundled AGoT model) against its properties.

    Besides each model's own properties, every model gets the consistency
    checks: the game can always proceed (deadlock), outcomes are determined
    (determinism), and "must" never meets "cannot" (must-cannot).

    The report is a table (one line per system and scenario), then what is
    not proved: violations with their replayed traces, unknowns with the
    reason, properties only held to a depth.
    """
    s = _streams()
    try:
        if verbose and quiet:
            raise InputError("--verbose and --quiet exclude each other")
        out = _Output(as_json, trace_format, trace_dir, witnesses, 1 if verbose else -1 if quiet else 0, properties)
        return _check(s, model, props, depth, kmax, engine, timeout, scenario, params, out,
                      workers=workers, scheduler=scheduler, skip_checks=skip_checks, rule_coverage=rule_coverage)
    except (InputError, InternalError) as e:
        return _fail(e, as_json, s)


@dataclass(frozen=True)
class _Output:
    """What ``check`` reports and where (its output options)."""

    as_json: bool
    trace_format: str
    trace_dir: str | None
    witnesses: bool
    verbosity: int
    properties: str | None


def _width(out: TextIO) -> int:
    """Report width: the terminal's, else ``$COLUMNS``, else 100."""
    if out.isatty():
        return max(40, shutil.get_terminal_size((100, 24)).columns)
    try:
        return max(40, int(os.environ.get("COLUMNS", "")))
    except ValueError:
        return 100


def _check(s: _Streams, model: str | None, props: tuple[str, ...], depth: int, kmax: int, engine: str,
           timeout: float | None, scenario: str | None, params: tuple[str, ...], o: _Output, *,
           workers: int | None = None, scheduler: str | None = None, skip_checks: tuple[str, ...] = (),
           rule_coverage: bool = False) -> int:
    from .catalog import select_properties, short_ids
    from .dsl import display_path
    from .engines.common import Options
    from .engines.runner import check_system
    from .loader import discover, graph_check_results, load_all

    if depth < 0:
        raise InputError(f"--depth must be 0 or more, got {depth}")
    if kmax < 0:
        raise InputError(f"--kmax must be 0 or more, got {kmax}")
    if timeout is not None and timeout <= 0:
        raise InputError(f"--timeout must be positive, got {timeout}")
    overrides = _parse_params(params)
    specs = discover(model, o.properties)
    for spec in specs:
        for note in spec.notes:
            s.err.write(f"warning: {note}\n")
    systems = load_all(model, scenario, overrides, specs=specs)
    ids = short_ids((p.name, p.check) for sy in systems for p in sy.properties)
    props = select_properties(props, ids) if props else ()
    opts = Options(depth=depth, kmax=kmax, timeout=timeout, skip_checks=skip_checks, rule_coverage=rule_coverage)
    results = []
    with _ProgressSink(s.err, not o.as_json) as sink:
        if workers is not None or scheduler is not None:
            from .scale.check import check_on_cluster

            results.extend(check_on_cluster(model, scenario, overrides, systems, engine, opts, props, sink,
                                            workers=workers, scheduler=scheduler, properties=o.properties))
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
    if o.trace_dir is not None:
        for r in results:
            if r.trace is not None:
                pid = ids.get(r.property) or short_ids([(r.property, "")])[r.property]
                write_atomic(Path(o.trace_dir) / f"{r.system}-{r.scenario}-{pid}.itf.json",
                             json.dumps(trace_itf(r.trace, name, r.property), indent=2) + "\n")
    if o.as_json:
        s.out.write(json.dumps(results_json(name, results, o.trace_format, ids), indent=2, ensure_ascii=False) + "\n")
    else:
        sources = tuple((sp.name, display_path(str(sp.properties_file)) if sp.properties_file else "") for sp in specs)
        s.out.write(render_results(name, results, TextOptions(o.verbosity, o.witnesses, _width(s.out), ids,
                                                              o.trace_format, sources)))
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


def entry() -> None:
    """Console-script entry point."""
    sys.exit(run(sys.argv[1:]))


if __name__ == "__main__":
    entry()
