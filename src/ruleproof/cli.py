"""The ``ruleproof`` command line.

Exit status of every command: 0 every property proved or held (a complete
report), 1 some property violated, 2 bad input or internal error, 3 some
result unknown, 130 / 143 interrupted by SIGINT / SIGTERM (the finished
results are reported, the rest marked as not run).  ``--json`` always
prints exactly one object with a ``version`` field, whatever the outcome
(errors included).

:func:`run` takes the argument list and the output streams and returns the
exit status, so tests call the CLI in-process.  It is the one place that
turns exceptions into exit statuses (see :mod:`ruleproof.cli_support` for
the convention every command follows).
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import json
import math
import os
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

import click

from . import __version__, budget
from .cli_support import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_SIGINT,
    EXIT_UNKNOWN,
    EXIT_VIOLATED,
    JSON_VERSION,
    Activity,
    PrintableStream,
    Streams,
    budget_options,
    check_budget,
    check_count,
    check_seconds,
    error_object,
    json_error,
    output_mode,
    parse_params,
    printable,
    report_width,
    streams,
    write_atomic,
)
from .consistency import CHECKS
from .engines import ENGINES
from .errors import InputError, RuleproofError, clip
from .report import TextOptions

if TYPE_CHECKING:  # the engines (and Z3) are imported when a command runs, not at start-up
    from .engines.common import Progress
    from .results import Result

__all__ = ["main", "run", "entry", "json_error"]

EXIT_HELP = """\b
Exit status:
  0    every property proved or held to the depth (a complete report)
  1    some property violated (a replayed counterexample is shown)
  2    bad input or internal error (one error line, no traceback)
  3    some result unknown (budget, timeout, out of memory, solver reason), none violated
  130  interrupted (SIGINT, Ctrl-C); 143 terminated (SIGTERM): what finished is reported
"""

MAX_DEPTH = 10_000
"""Largest ``--depth`` (steps of an unrolling)."""
MAX_KMAX = 1_000
"""Largest ``--kmax``."""
DEFAULT_TIMEOUT = 60.0
"""``check --timeout``: the wall-clock safety net per property (the resource limit binds first)."""


class _Commands(click.Group):
    """The subcommands, registered explicitly.

    ``check`` and ``mutants`` live here; the others are named by module and
    attribute and imported when used (start-up stays light: no solver, no
    Dask, no matplotlib; a missing module is an error, never a silently
    dropped command).
    """

    LAZY: dict[str, tuple[str, str]] = {
        "cards": ("ruleproof.cards.cli", "cards"),
        "export": ("ruleproof.export", "export_command"),
        "graph": ("ruleproof.graph_cli", "graph_command"),
        "list": ("ruleproof.catalog", "list_command"),
        "loops": ("ruleproof.loops.cli", "loops"),
        "ruling": ("ruleproof.rulings.cli", "ruling"),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is None and cmd_name in self.LAZY:
            module, attr = self.LAZY[cmd_name]
            found = getattr(importlib.import_module(module), attr)
            if not isinstance(found, click.Command):
                raise TypeError(f"{module}.{attr} is not a click command")
            cmd = found
        return cmd


@click.group(cls=_Commands, epilog=EXIT_HELP)
@click.version_option(__version__, prog_name="ruleproof")
@click.option("--debug", is_flag=True, help="On an internal error, print the traceback too.")
def main(debug: bool = False) -> None:
    """ruleproof: a formal model checker for card-game rules (AGoT 2.0, Berserk)."""
    if debug:
        streams().debug = True


# --------------------------------------------------------------------------- validation


# --------------------------------------------------------------------------- check


@main.command(epilog=EXIT_HELP)
@click.argument("model", required=False)
@click.option("--property", "-p", "props", multiple=True,
              help="Check only this property: its sentence or its short id (`ruleproof list` shows both; repeatable).")
@click.option("--properties", "properties", default=None, metavar="PATH",
              help="Properties file (one-system model) or directory of <system>.py files (default: beside the model, "
                   "then properties/<game>/).")
@click.option("--depth", type=int, default=12, show_default=True,
              help=f"BMC / explicit-search depth (steps, at most {MAX_DEPTH}).")
@click.option("--kmax", type=int, default=8, show_default=True,
              help=f"Largest k tried by k-induction (at most {MAX_KMAX}).")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
              help="auto: proofs first (k-induction, Spacer, exhaustive search of a small system), then BMC to "
                   "--depth.")
@click.option("--timeout", type=float, default=DEFAULT_TIMEOUT, show_default=True,
              help="Wall-clock seconds per property (and to build each system): a safety net behind --rlimit; "
                   "past it the result is UNKNOWN.")
@click.option("--scenario", default=None, help="Check this scenario of each system (default: its checked scenarios).")
@click.option("--param", "params", multiple=True,
              help="Override a build() parameter, NAME=VALUE (JSON, else a string; repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1) at the end, witness traces "
                                                      "included.")
@click.option("--jsonl", "as_jsonl", is_flag=True,
              help="Print one JSON object per result as soon as it is known, then a summary object.")
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
@budget_options
def check(model: str | None, props: tuple[str, ...], depth: int, kmax: int, engine: str, timeout: float | None,
          scenario: str | None, params: tuple[str, ...], as_json: bool, trace_format: str, trace_dir: str | None,
          skip_checks: tuple[str, ...] = (), rule_coverage: bool = False,
          workers: int | None = None, scheduler: str | None = None, properties: str | None = None,
          witnesses: bool = False, verbose: bool = False, quiet: bool = False, as_jsonl: bool = False,
          time_limit: float | None = None, memory_limit: str = "none", rlimit: int | None = None) -> int:
    """Check a rules MODEL (default: the bundled AGoT model) against its properties.

    Besides each model's own properties, every model gets the consistency
    checks: the game can always proceed (deadlock), outcomes are determined
    (determinism), and "must" never meets "cannot" (must-cannot).

    The report is a table (one line per system and scenario, printed as each
    is done), then what is not proved: violations with their replayed
    traces, unknowns with the reason, properties only held to a depth.
    """
    from .catalog import select_properties, short_ids
    from .dsl import display_path
    from .engines.common import Options
    from .loader import discover, graph_check_results
    from .scale.check import plan_check, run_check
    from .scale.executor import check_target

    s = streams()
    if verbose and quiet:
        raise InputError("--verbose and --quiet exclude each other")
    check_count("--depth", depth, 0, MAX_DEPTH)
    check_count("--kmax", kmax, 0, MAX_KMAX)
    check_seconds("--timeout", timeout)
    plan_budget = check_budget(time_limit, memory_limit, rlimit)
    check_target(workers, scheduler)
    overrides = parse_params(params)
    opts = Options(depth=depth, kmax=kmax, timeout=timeout, skip_checks=skip_checks, rule_coverage=rule_coverage,
                   rlimit=plan_budget.rlimit)
    mode = output_mode(as_json, as_jsonl)
    name = model or "agot (bundled)"
    with budget.limits(plan_budget.time_limit, plan_budget.memory, stage_limit=timeout):
        specs = discover(model, properties)
        for spec in specs:
            for note in spec.notes:
                s.err.write(f"warning: {note}\n")
        work = plan_check(model, scenario, overrides, (), engine, opts, properties, specs)
        ids = short_ids((p.name, p.check) for sy in work.systems for p in sy.properties)
        if props:
            work = plan_check(model, scenario, overrides, select_properties(props, ids), engine, opts, properties,
                              specs)
        graph = [] if props else graph_check_results(model)
        expected = work.expected() + [(r.system, r.scenario, r.property) for r in graph]
        if not expected:  # exit 0 over nothing would read as "every property proved"
            raise InputError("nothing to check: no property is left once the skipped consistency checks "
                             "(--skip-check, m.skip_check) are left out")
        sources = tuple((sp.name, display_path(str(sp.properties_file)) if sp.properties_file else "") for sp in specs)
        text = TextOptions(-1 if quiet else 1 if verbose else 0, witnesses, report_width(s.out), ids, trace_format,
                           sources)
        # created only once every option and the model have been accepted: a refused run leaves nothing behind
        trace_path = _trace_dir(trace_dir)
        rep = _CheckReport(s, name, mode, text, trace_path, expected, plan_budget.as_json(timeout))
        with Activity(s.err) as activity:
            rep.activity = activity
            activity.status(f"checking {len(work.units)} systems, {len(expected)} properties")
            try:
                run_check(work, rep.add, rep.unit_done, engine_progress=rep.engine_event, workers=workers,
                          scheduler=scheduler)
                for r in graph:
                    rep.add(r)
                return rep.finish(None)
            except (budget.Interrupted, budget.RunTimeLimit) as event:
                budget.acknowledge(event)
                with budget.shielded():
                    return rep.finish(event)



class _CheckReport:
    """The report of ``check``, written as the results come (text, JSON lines, or one JSON object at the end).

    Text: the table grows as the results come (the summary table one line per
    system and scenario when the last of its properties is known; ``-v`` one
    line per property), the details and totals follow at the end.  The exit
    status comes from the report once it is complete: the results, and what
    was not run when an interrupt or the time limit stopped the run.
    """

    def __init__(self, s: Streams, model: str, mode: str, text: TextOptions, trace_path: Path | None,
                 expected: list[tuple[str, str, str]], budget_json: dict[str, Any]) -> None:
        from .report import property_head, render_head, summary_head

        self.s = s
        self.model = model
        self.mode = mode
        self.text = text
        self.trace_path = trace_path
        self.expected = expected
        self.order = {k: i for i, k in enumerate(expected)}
        self.budget_json = budget_json
        self.results: list[Result] = []
        self.activity: Activity | None = None
        self.keys = list(dict.fromkeys(f"{sy}[{sc}]" for sy, sc, _ in expected))
        self.sizes = {k: sum(1 for sy, sc, _ in expected if f"{sy}[{sc}]" == k) for k in self.keys}
        self.done: dict[str, list[Result]] = {}
        self.shown: set[str] = set()
        self.w = max([len("system"), *(len(k) for k in self.keys)])
        phead, self.widths = property_head(self.keys, {text.ids.get(p, "") for _, _, p in expected})
        self.header = ""
        if mode == "text":
            head = render_head(model, text)
            if text.verbosity > 0:
                head += ["", phead]
            elif text.verbosity == 0:
                head += ["", summary_head(self.w)]
            self.header = "\n".join(head) + "\n"

    def _write(self, text: str) -> None:
        if self.header and text:  # the head goes out with the first line after it (nothing before a result)
            text, self.header = self.header + text, ""
        self.s.out.write(text)
        self.s.out.flush()

    def add(self, r: Result) -> None:
        """One result, as soon as it is known."""
        from .report import property_row, result_line_json, system_row, trace_itf

        self.results.append(r)
        if r.trace is not None and self.trace_path is not None:
            pid = self.text.ids.get(r.property) or "property"
            write_atomic(self.trace_path / _trace_name(f"{r.system}-{r.scenario}-{pid}"),
                         json.dumps(trace_itf(r.trace, self.model, r.property), indent=2) + "\n")
        key = f"{r.system}[{r.scenario}]"
        self.done.setdefault(key, []).append(r)
        if self.mode == "jsonl":
            obj = result_line_json(r, self.model, self.text.trace_format, self.text.ids)
            self._write(json.dumps(obj, ensure_ascii=False) + "\n")
        elif self.mode == "text" and self.text.verbosity > 0:
            self._write("\n".join(property_row(r, self.text.ids, self.widths, self.text.width)) + "\n")
        elif self.mode == "text" and self.text.verbosity == 0 and len(self.done[key]) == self.sizes.get(key, 0):
            self.shown.add(key)
            self._write(system_row(key, self.done[key], self.w) + "\n")
        if self.activity is not None:
            i = self.keys.index(key) + 1 if key in self.keys else len(self.keys)
            self.activity.status(f"system {i}/{len(self.keys)} {key}, property {len(self.done[key])}/"
                                 f"{self.sizes.get(key, 0)}; {len(self.results)} of {len(self.expected)} results")

    def engine_event(self, ev: Progress) -> None:
        """An engine's progress inside the property being checked (in this process)."""
        if self.activity is not None:
            of = f"/{ev.of}" if ev.of else ""
            self.activity.status(f"{ev.system}: {ev.prop[:60]} [{ev.engine} {ev.depth}{of}]; "
                                 f"{len(self.results)} of {len(self.expected)} results")

    def unit_done(self, done: int, total: int, label: str) -> None:
        if self.activity is not None:
            self.activity.status(f"{done} of {total} systems done (last: {label}); "
                                 f"{len(self.results)} of {len(self.expected)} results")

    def finish(self, event: BaseException | None) -> int:
        """Write the rest of the report; its exit status."""
        from .report import exit_status, render_tail, results_json, summary_json, system_row

        seen = {(r.system, r.scenario, r.property) for r in self.results}
        not_run = [k for k in self.expected if k not in seen] if event is not None else []
        if isinstance(event, budget.Interrupted):
            stopped, status = str(event), event.exit_code
        elif event is not None:
            stopped = str(event)
            status = EXIT_VIOLATED if exit_status(self.results) == EXIT_VIOLATED else EXIT_UNKNOWN
        else:
            stopped, status = "", exit_status(self.results)
        if self.mode == "text":
            rows = "".join(system_row(k, rs, self.w) + "\n" for k, rs in self.done.items()
                           if k not in self.shown and self.text.verbosity == 0)  # systems cut short
            self._write(rows + render_tail(self.model, self.results, self.text, not_run, stopped))
        elif self.mode == "jsonl":
            obj = summary_json(self.model, self.results, status=status, not_run=not_run, stopped=stopped,
                               budget=self.budget_json)
            self._write(json.dumps(obj, ensure_ascii=False) + "\n")
        else:
            ordered = sorted(self.results, key=lambda r: self.order.get((r.system, r.scenario, r.property),
                                                                        len(self.order)))
            obj = results_json(self.model, ordered, self.text.trace_format, self.text.ids, status=status,
                               not_run=not_run, stopped=stopped, budget=self.budget_json)
            self._write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
        return status


def _trace_dir(trace_dir: str | None) -> Path | None:
    """``--trace-dir``, created if missing and checked writable before any work is done."""
    if trace_dir is None:
        return None
    p = Path(trace_dir)
    try:
        p.mkdir(parents=True, exist_ok=True)
        if not os.access(p, os.W_OK | os.X_OK):
            raise PermissionError(errno.EACCES, "Permission denied")
    except OSError as exc:
        raise InputError(f"--trace-dir {clip(trace_dir)}: cannot write there ({exc.strerror or exc})") from None
    return p


def _trace_name(stem: str) -> str:
    """A trace file name inside the trace directory: ``stem`` with anything but ``[A-Za-z0-9_.-]`` replaced."""
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "_.-") else "_" for c in stem).lstrip(".") or "trace"
    return f"{safe[:150]}.itf.json"


# --------------------------------------------------------------------------- mutants


@main.command(epilog="""\b
Exit status:
  0        every mutant judged: killed, proved equivalent or survived (a complete report;
           survivors are listed with a trace), and every system's score >= --min-score
  1        some system's score killed / (total - equivalent) is below --min-score
  2        bad input or internal error
  3        some mutant unknown (budget, timeout, out of memory, a Dask worker died),
           or the --time-limit stopped the run
  130/143  interrupted: the finished mutants are reported, the rest marked not run
""")
@click.argument("model", required=False)
@click.option("--depth", type=int, default=6, show_default=True,
              help=f"BMC depth of the kill search on systems too large to explore (at most {MAX_DEPTH}).")
@click.option("--timeout", type=float, default=10.0, show_default=True,
              help="Wall-clock seconds per solver query (a safety net behind --rlimit).")
@click.option("--limit", type=int, default=None, help="At most this many mutants per system.")
@click.option("--only", "only", multiple=True, metavar="NAME",
              help="Judge only the mutant NAME, as the report prints it (repeatable).")
@click.option("--min-score", type=float, default=None,
              help="Exit 1 when some system's killed / (total - equivalent) is below this fraction (e.g. 0.95).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1) at the end.")
@click.option("--jsonl", "as_jsonl", is_flag=True,
              help="Print one JSON object per mutant as soon as it is known, then a summary object.")
@click.option("--workers", type=int, default=None, help="Judge mutants on a local Dask cluster of N worker processes.")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Judge mutants on the Dask scheduler at ADDRESS.")
@budget_options
def mutants(model: str | None, depth: int, timeout: float, limit: int | None, as_json: bool,
            workers: int | None, scheduler: str | None, as_jsonl: bool = False, time_limit: float | None = None,
            memory_limit: str = "none", rlimit: int | None = None, min_score: float | None = None,
            only: tuple[str, ...] = ()) -> int:
    """Break the rules of MODEL (default: bundled AGoT) one at a time; report which breaks the properties notice.

    Each mutant is judged in every checked scenario of its system: killed (a
    property is violated; with the trace), equivalent (proved to agree with
    the rules on everything the game shows), survived (a hole in the property
    suite; with a trace on which the mutant and the rules differ) or unknown.
    Each verdict is printed as soon as it is known.
    """
    from .engines.common import Options
    from .mutants_report import result_json, result_text
    from .scale.executor import check_target

    s = streams()
    check_count("--depth", depth, 1, MAX_DEPTH)
    check_seconds("--timeout", timeout)
    check_count("--limit", limit, 1, 10**9)
    if min_score is not None and not (math.isfinite(min_score) and 0 <= min_score <= 1):
        raise InputError(f"--min-score must be a fraction within 0..1 (e.g. 0.95), got {min_score}")
    plan_budget = check_budget(time_limit, memory_limit, rlimit)
    check_target(workers, scheduler)
    opts = Options(depth=depth, kmax=4, timeout=timeout, rlimit=plan_budget.rlimit)
    mode = output_mode(as_json, as_jsonl)
    name = model or "agot (bundled)"
    with budget.limits(plan_budget.time_limit, plan_budget.memory, stage_limit=timeout):
        from .scale.mutants import plan_mutants, run_mutants

        work = plan_mutants(model, opts, limit, only)
        if not work.units:  # exit 0 over no mutant would read as "every mutant judged"
            raise InputError("nothing to mutate: the model has no action update or requirement to break and no rule "
                             "mutants")
        done: list[tuple[str, Any]] = []

        def add(system: str, r: Any) -> None:
            done.append((system, r))
            if mode == "text":
                _write(s.out, result_text([(system, r)], None))
            elif mode == "jsonl":
                _write(s.out, json.dumps({"version": JSON_VERSION, "type": "mutant", **result_json(system, r)},
                                         ensure_ascii=False) + "\n")
            # the last verdict, not the mutant being judged now (with workers several are under way at once)
            activity.status(f"{len(done)} of {len(work.units)} mutants judged; last: {system} {r.label}: {r.status}")

        with Activity(s.err) as activity:
            event: BaseException | None = None
            try:
                run_mutants(work, add, workers=workers, scheduler=scheduler)
            except (budget.Interrupted, budget.RunTimeLimit) as exc:
                budget.acknowledge(exc)
                event = exc
        with budget.shielded():
            return _mutants_report(s, name, mode, work.units, done, event, plan_budget.as_json(timeout), min_score)


def _mutants_report(s: Streams, name: str, mode: str, units: Any, done: list[tuple[str, Any]],
                    event: BaseException | None, budget_json: dict[str, Any], min_score: float | None) -> int:
    """The end of the mutants report (the scores; what was not run) and its exit status."""
    from .mutants import STATUSES
    from .mutants_report import Score, exit_code, result_json, scores

    per_system = scores(done)
    not_run = [f"{u.system_label} {u.mutant}" for u in units[len(done):]] if event is not None else []
    if isinstance(event, budget.Interrupted):
        status, stopped = event.exit_code, str(event)
    elif event is not None:
        status, stopped = EXIT_UNKNOWN, str(event)
    else:
        status, stopped = exit_code(per_system, min_score), ""
    total = Score("all", [r for _, r in done])
    summary = {"version": JSON_VERSION, "model": name, "status": status, "total": total.total,
               **{k: total.counts[k] for k in STATUSES}, "min_score": min_score,
               "systems": {x.system: {"total": x.total, **x.counts, "score": x.score()} for x in per_system},
               "interrupted": isinstance(event, budget.Interrupted), "stopped": stopped or None,
               "not_run": not_run, "budget": budget_json}
    if mode == "json":
        _write(s.out, json.dumps({**summary, "mutants": [result_json(sy, r) for sy, r in done]}, indent=2,
                                 ensure_ascii=False) + "\n")
    elif mode == "jsonl":
        _write(s.out, json.dumps({**summary, "type": "summary"}, ensure_ascii=False) + "\n")
    else:
        text = "\n" + "".join(x.line() + "\n" for x in per_system)
        if stopped:
            text += f"{stopped}: {len(not_run)} mutants not run\n" + "".join(f"  not run: {m}\n" for m in not_run)
        _write(s.out, text)
    return status


def _write(stream: TextIO, text: str) -> None:
    stream.write(text)
    stream.flush()


# --------------------------------------------------------------------------- the entry point


def run(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the CLI in-process; returns the exit status.

    Everything that can go wrong ends here as an exit status: bad input and
    internal errors (2, one line, or one JSON error object under ``--json``;
    ``--debug`` adds the traceback of an internal error), interrupts (130 /
    143), a run time limit reached before any result (3).  The status of a
    command that finished is its report's, once the report is written out
    completely.
    """
    shown = cast(TextIO, PrintableStream(out or sys.stdout))  # no control sequence from the input reaches a terminal
    s = Streams(shown, err or sys.stderr, debug=bool(os.environ.get("RULEPROOF_DEBUG")))
    as_json = "--json" in argv or "--jsonl" in argv
    with budget.guard(), contextlib.redirect_stdout(s.out), contextlib.redirect_stderr(s.err):
        try:
            with main.make_context("ruleproof", list(argv), obj=s) as ctx:
                rv = main.invoke(ctx)
            status = int(rv) if isinstance(rv, int) and not isinstance(rv, bool) else EXIT_OK
            _flush(s.out)
            return status
        except click.exceptions.Exit as exc:  # --help, --version
            return int(exc.exit_code)
        except BaseException as exc:  # noqa: B036 - the one place every exception becomes an exit status
            return _failure(exc, s, as_json)


def _flush(stream: TextIO) -> None:
    try:
        stream.flush()
    except ValueError:  # a closed StringIO
        pass


def _failure(exc: BaseException, s: Streams, as_json: bool) -> int:
    """Report ``exc`` as one line (or one JSON object) and return its exit status."""
    try:
        budget.reraise_pending(exc)
    except budget.BudgetEvent as event:
        exc = event
    budget.acknowledge()  # the run ends here: no further interrupt is raised while this is reported
    code, line, kind = _classify(exc)
    line = printable(line)  # the error may quote input (a file name, a card) with control characters
    if kind == "internal" and s.debug:
        _try_write(s.err, "".join(traceback.format_exception(exc)))
    if as_json:
        obj = error_object(json_error(line))
        if kind == "interrupted":
            obj["interrupted"] = True
        if not _try_write(s.out, json.dumps(obj, ensure_ascii=False) + "\n"):
            _try_write(s.err, line + "\n")
    else:
        _try_write(s.err, line + "\n")
    return code


def _classify(exc: BaseException) -> tuple[int, str, str]:
    """(exit status, error line, kind) of an exception that ended a command."""
    if isinstance(exc, budget.Interrupted):
        return exc.exit_code, f"{exc}: stopped before any result was reported", "interrupted"
    if isinstance(exc, (KeyboardInterrupt, click.exceptions.Abort)):
        return EXIT_SIGINT, "interrupted (SIGINT): stopped before any result was reported", "interrupted"
    if isinstance(exc, budget.RunTimeLimit):
        return EXIT_UNKNOWN, f"error: {exc} before any result", "time-limit"
    if isinstance(exc, budget.StageTimeout):
        return EXIT_ERROR, "error: loading or building the model did not finish within the --timeout budget", "input"
    if isinstance(exc, budget.QueryTimeout):
        return EXIT_ERROR, "internal error: a query timeout escaped its query", "internal"
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        where = exc.ctx.command_path if exc.ctx is not None else "ruleproof"  # 'ruleproof cards' alone: its own help
        return EXIT_ERROR, f"error: no command given ({where} --help lists the commands)", "input"
    if isinstance(exc, click.UsageError):
        return EXIT_ERROR, clip("error: " + " ".join(exc.format_message().split()), 1000), "input"
    if isinstance(exc, click.ClickException):
        return EXIT_ERROR, clip("error: " + " ".join(exc.format_message().split()), 1000), "input"
    if isinstance(exc, RuleproofError):
        return EXIT_ERROR, exc.render(), "internal" if not isinstance(exc, InputError) else "input"
    if isinstance(exc, MemoryError):
        return EXIT_ERROR, "error: out of memory (see --memory-limit)", "input"
    if isinstance(exc, OSError) and exc.errno in (errno.EPIPE, errno.ENOSPC, errno.EBADF, errno.EIO, errno.EDQUOT):
        return EXIT_ERROR, f"error: cannot write the output: {exc.strerror or exc}", "input"
    if isinstance(exc, SystemExit):
        return EXIT_ERROR, f"internal error: SystemExit({clip(repr(exc.code))}) raised inside a command", "internal"
    name = type(exc).__name__
    how = "(run 'ruleproof --debug COMMAND ...' for the traceback)"
    return EXIT_ERROR, clip(f"internal error: {name}: {exc} {how}", 1000), "internal"


def _try_write(stream: TextIO, text: str) -> bool:
    """Write and flush; False when the stream cannot take it (a full disk, a closed pipe)."""
    if not text:
        return True
    try:
        stream.write(text)
        stream.flush()
        return True
    except (OSError, ValueError):
        return False


def entry() -> None:
    """Console-script entry point."""
    code = run(sys.argv[1:])
    budget.quiet_z3_finalizers()  # Z3 objects an interrupt left half-built are finalized as the process ends
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        code = code if code != EXIT_OK else EXIT_ERROR
        # let the interpreter's own final flush succeed quietly
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
    sys.exit(code)


if __name__ == "__main__":
    entry()
