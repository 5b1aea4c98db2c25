"""``ruleproof ruling FILE... [--json]``: check judges' rulings against the rules model."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, TextIO

import click

from .. import budget
from ..errors import InputError, InternalError

if TYPE_CHECKING:
    from .check import RulingResult

__all__ = ["ruling", "run_rulings"]

EXIT_TEXT = """\b
Exit status:
  0  every ruling agrees with the model
  1  some ruling contradicts the model (with the trace where they part)
  2  bad ruling file (file:line: error: ...) or internal error
  3  some ruling unknown (solver unknown or timeout), none contradicted
  130/143  interrupted (SIGINT/SIGTERM): the rulings checked so far are reported, the rest named
"""


def _streams() -> tuple[TextIO, TextIO]:
    obj = click.get_current_context().obj
    out = getattr(obj, "out", None)
    err = getattr(obj, "err", None)
    return (out if out is not None else sys.stdout, err if err is not None else sys.stderr)


def run_rulings(paths: tuple[str, ...], as_json: bool, timeout: float | None, out: TextIO, err: TextIO,
                params: tuple[str, ...] = ()) -> int:
    """Load every ruling first (a bad file stops everything, nothing half-written), then check each."""
    from ..cli_support import check_seconds, error_object, json_error, parse_params
    from .check import check_ruling
    from .model import bundled_rulings_dir, load_rulings
    from .render import exit_status, render_results, results_json, ruling_title

    results: list[RulingResult] = []
    event: budget.Interrupted | None = None
    try:
        check_seconds("--timeout", timeout)  # finite, positive, at most a week (NaN once crashed the solver call)
        rulings = load_rulings(list(paths) if paths else [bundled_rulings_dir()], parse_params(params))
        try:
            for r in rulings:
                results.append(check_ruling(r, timeout))
        except budget.Interrupted as exc:  # Ctrl-C / SIGTERM: the rulings checked so far are reported
            if not results:
                raise
            budget.acknowledge(exc)
            event = exc
    except (InputError, InternalError) as e:
        msg = e.render()
        if as_json:
            out.write(json.dumps(error_object(json_error(msg)), ensure_ascii=False) + "\n")
        else:
            err.write(msg + "\n")
        return 2
    with budget.shielded():
        not_run = [ruling_title(r) for r in rulings[len(results):]]
        status = event.exit_code if event is not None else exit_status(results)
        if as_json:
            obj = {**results_json(results), "status": status, "interrupted": event is not None,
                   "stopped": str(event) if event is not None else None, "not_run": not_run}
            out.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
        else:
            out.write(render_results(results))
            if event is not None:
                out.write(f"{event}: {len(not_run)} rulings not run\n" + "".join(f"  not run: {t}\n" for t in not_run))
        out.flush()
    return status


@click.command(name="ruling", epilog=EXIT_TEXT)
@click.argument("files", nargs=-1, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1).")
@click.option("--timeout", type=float, default=60.0, show_default=True,
              help="Seconds per ruling; past it the ruling is UNKNOWN.")
@click.option("--param", "params", multiple=True,
              help="Override a scenario parameter of every ruling, NAME=VALUE (repeatable; e.g. a mutant).")
def ruling(files: tuple[str, ...], as_json: bool, timeout: float, params: tuple[str, ...]) -> int:
    """Check rulings (YAML files or directories of them; default: the bundled rulings) against the model.

    A ruling is a situation in game terms and either steps (with what must
    hold after them and which step must be refused) or a question
    (reachable / never / always_after), with the expected answer and its
    source.  Each ruling prints PASS, FAIL or UNKNOWN with the trace in game
    terms.
    """
    out, err = _streams()
    return run_rulings(files, as_json, timeout, out, err, params)
