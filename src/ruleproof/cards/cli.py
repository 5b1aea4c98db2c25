"""``ruleproof cards ...``: card-pool commands (a click group the main CLI registers)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ruleproof.cards.coverage import coverage, coverage_json, render_coverage
from ruleproof.cards.overrides import compile_pool, load_overrides
from ruleproof.cards.pool import load_pool
from ruleproof.errors import InputError

__all__ = ["cards", "coverage_command"]


@click.group(name="cards")
def cards() -> None:
    """Card pool tools: compiler coverage."""


@cards.command(name="coverage")
@click.argument("pool", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--overrides", "override_files", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="YAML override file (repeatable; later files win).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1).")
@click.option("--top", default=20, show_default=True, type=click.IntRange(min=0),
              help="How many unsupported phrasings to list.")
def coverage_command(pool: Path | None, override_files: tuple[Path, ...], as_json: bool, top: int) -> None:
    """How much of the card text the compiler understands (POOL: default the bundled pool).

    Exit status: 0 on success, 2 on bad input.
    """
    try:
        the_pool = load_pool(pool)
        ov = load_overrides(override_files)
        compiled = compile_pool(the_pool, ov)
        cov = coverage(compiled, top=top, overridden=sum(1 for c in compiled if c in ov))
    except InputError as exc:
        if as_json:
            click.echo(json.dumps({"version": 1, "error": exc.render()}))
        else:
            click.echo(exc.render(), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(coverage_json(cov), sort_keys=True))
    else:
        click.echo(render_coverage(cov))
