"""``ruleproof cards ...``: card-pool commands (a click group the main CLI registers)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

import click

from ruleproof.cards.coverage import coverage, coverage_json, render_coverage
from ruleproof.cards.overrides import compile_pool, load_overrides
from ruleproof.cards.pool import load_pool
from ruleproof.errors import InputError

__all__ = ["cards", "coverage_command"]


def _streams() -> tuple[TextIO, TextIO]:
    """The output streams of the running command (``ruleproof.cli.run`` passes its own)."""
    obj = click.get_current_context().obj
    out = getattr(obj, "out", None)
    err = getattr(obj, "err", None)
    return (out if out is not None else sys.stdout, err if err is not None else sys.stderr)


@click.group(name="cards")
def cards() -> None:
    """Card pool tools: how much of the card text is read."""


@cards.command(name="coverage")
@click.argument("pool", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--overrides", "override_files", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="YAML override file (repeatable; later files win).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1).")
@click.option("--top", default=20, show_default=True, type=click.IntRange(min=0),
              help="How many of the commonest unread clauses to list.")
def coverage_command(pool: Path | None, override_files: tuple[Path, ...], as_json: bool, top: int) -> None:
    """How much of the card text is read: in full, and in structure with the unread clauses named, per ability
    type (POOL: default the bundled pool).

    Exit status: 0 on success, 2 on bad input.
    """
    out, err = _streams()
    try:
        the_pool = load_pool(pool)
        ov = load_overrides(override_files)
        compiled = compile_pool(the_pool, ov)
        cov = coverage(compiled, top=top, overridden=sum(1 for c in compiled if c in ov))
    except InputError as exc:
        if as_json:
            click.echo(json.dumps({"version": 1, "error": exc.render()}), file=out)
        else:
            click.echo(exc.render(), file=err)
        click.get_current_context().exit(2)
    if as_json:
        click.echo(json.dumps(coverage_json(cov), sort_keys=True), file=out)
    else:
        click.echo(render_coverage(cov), file=out)
