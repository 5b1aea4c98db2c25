"""``ruleproof graph``: draw or export the timing-window and round graphs (a click command).

Exit status: 0 written, 2 bad input (including ``--what abilities`` until the
card graph is wired in).
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

import click
import networkx as nx

from ..errors import InputError
from .declaration import GameTiming
from .graph import draw, round_graph, timing_graph, to_dot, to_graphml, write_atomic

__all__ = ["graph_command", "load_timing", "make_graph"]


def load_timing(model: Path | None) -> GameTiming:
    """The ``TIMING`` of ``<model>/timing.py`` (default: the bundled AGoT model)."""
    if model is None:
        from ..loader import bundled_model_dir

        model = bundled_model_dir("agot")
    path = model / "timing.py" if model.is_dir() else model
    if not path.is_file():
        raise InputError(f"{model} has no timing.py declaring TIMING")
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(f"_ruleproof_timing_{digest}", path)
    if spec is None or spec.loader is None:
        raise InputError(f"cannot load {path} as Python")
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except InputError:
        raise
    except Exception as exc:  # a broken model file is bad input
        raise InputError(f"{path}: {type(exc).__name__}: {exc}") from None
    timing = getattr(mod, "TIMING", None)
    if not isinstance(timing, GameTiming):
        raise InputError(f"{path} does not define TIMING (a ruleproof.timing.GameTiming)")
    return timing


def make_graph(timing: GameTiming, what: str, levels: int = 2) -> nx.DiGraph:
    """The graph ``what`` ("timing" or "round") of ``timing``."""
    if what == "timing":
        return timing_graph(timing.sequence, levels)
    if what == "round":
        if timing.round is None:
            raise InputError(f"the {timing.game} timing declares no round framework")
        return round_graph(timing.round)
    raise InputError(f"unknown graph '{what}'")


@click.command(name="graph")
@click.argument("model", required=False, type=click.Path(path_type=Path))
@click.option("--what", type=click.Choice(["timing", "round", "abilities"]), default="timing", show_default=True,
              help="timing: the interrupt/reaction sequence; round: Appendix I framework; abilities: the card ability graph.")
@click.option("--format", "fmt", type=click.Choice(["svg", "png", "dot", "graphml"]), required=True, help="Output format.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="File to write (atomically).")
@click.option("--levels", type=click.IntRange(1, 4), default=2, show_default=True, help="Nesting levels drawn (timing graph).")
def graph_command(model: Path | None, what: str, fmt: str, out: Path, levels: int) -> None:
    """Write a timing graph of MODEL (default: the bundled AGoT model).

    Exit status: 0 written, 2 bad input.
    """
    try:
        if what == "abilities":
            raise InputError("the ability graph is not available from 'graph' yet (use the cards commands)")
        if model is not None and not model.exists():
            raise InputError(f"no such model: {model}")
        g = make_graph(load_timing(model), what, levels)
        if not out.parent.exists():
            raise InputError(f"directory {out.parent} does not exist")
        if fmt in ("svg", "png"):
            draw(g, out, fmt)
        elif fmt == "dot":
            write_atomic(out, to_dot(g))
        else:
            write_atomic(out, to_graphml(g))
    except InputError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(2)
    click.echo(f"wrote {out} ({g.number_of_nodes()} nodes, {g.number_of_edges()} edges)")
