"""``ruleproof graph``: draw or export the timing-window, round and card ability graphs (a click command).

A command module of its own, above :mod:`ruleproof.timing` and :mod:`ruleproof.cards`, which do not
know each other (ARCHITECTURE.md, "Layers").

``--what abilities`` draws the two-player ability graph of the cards named
with ``--cards CODE`` (``opp:CODE`` for the opponent's copy) and ``--deck
FILE`` (see :mod:`ruleproof.cards.export`); with no card it is bad input,
unless ``--all`` asks for the whole pool.

Exit status: 0 written, 2 bad input.
"""

from __future__ import annotations

from pathlib import Path

import click
import networkx as nx

from .cli_support import EXIT_OK, streams
from .errors import InputError, clip
from .files import is_stream, write_atomic
from .timing.declaration import GameTiming
from .timing.graph import draw, round_graph, timing_graph, to_dot, to_graphml

__all__ = ["graph_command", "load_timing", "make_graph", "format_of", "FORMATS"]

FORMATS = ("svg", "png", "dot", "graphml")


def format_of(out: Path) -> str:
    """The format a file name's suffix names (``.gv`` is DOT); bad input when it names none."""
    suffix = out.suffix.lower().lstrip(".")
    fmt = {"gv": "dot"}.get(suffix, suffix)
    if fmt not in FORMATS:
        raise InputError(f"cannot tell the format from the name {out.name}: give --format "
                         f"{'|'.join(FORMATS)}, or an --out file ending in .svg, .png, .dot or .graphml")
    return fmt


def load_timing(model: Path | None) -> GameTiming:
    """The ``TIMING`` of ``<model>/timing.py`` (default: the bundled AGoT model)."""
    if model is None:
        from .loader import bundled_model_dir

        model = bundled_model_dir("agot")
    from .loader import import_file

    try:
        path = model / "timing.py" if model.is_dir() else model
        found = path.is_file()
    except OSError as exc:
        raise InputError(f"cannot read the model {clip(str(model))}: {exc.strerror or exc}") from None
    if not found:
        if not model.exists():
            raise InputError(f"no such model: {clip(str(model))}")
        raise InputError(f"{clip(str(model))} has no timing.py declaring TIMING")
    if path.suffix != ".py":
        raise InputError(f"a timing declaration must be Python (.py): {clip(str(path))}")
    mod = import_file(path)  # anything the file raises (sys.exit too) is bad input at its line
    timing = getattr(mod, "TIMING", None)
    if not isinstance(timing, GameTiming):
        raise InputError(f"{clip(str(path))} does not define TIMING (a ruleproof.timing.GameTiming)")
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
              help="timing: the interrupt/reaction sequence; round: Appendix I framework; abilities: the card "
                   "ability graph.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="Output format (default: the suffix of --out).")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="File to write (atomically).")
@click.option("--levels", type=click.IntRange(1, 4), default=2, show_default=True,
              help="Nesting levels drawn (timing graph).")
@click.option("--cards", "codes", multiple=True, metavar="CODE",
              help="abilities: a card code (repeatable); opp:CODE for the opponent's copy.")
@click.option("--deck", "deck_file", type=click.Path(dir_okay=False, path_type=Path),
              help="abilities: a deck list (your cards).")
@click.option("--pool", "pool_dir", type=click.Path(file_okay=False, path_type=Path),
              help="abilities: card pool directory (default: the bundled pool).")
@click.option("--overrides", "override_files", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="abilities: YAML override file (repeatable; later files win).")
@click.option("--all", "whole_pool", is_flag=True,
              help="abilities: the whole pool (thousands of abilities; DOT/GraphML).")
@click.option("--only-cycles", is_flag=True, help="abilities: keep only the abilities on some cycle.")
def graph_command(model: Path | None, what: str, fmt: str | None, out: Path, levels: int, codes: tuple[str, ...] = (),
                  deck_file: Path | None = None, pool_dir: Path | None = None, override_files: tuple[Path, ...] = (),
                  whole_pool: bool = False, only_cycles: bool = False) -> int:
    """Write a timing graph of MODEL (default: the bundled AGoT model), or the card ability graph.

    --what abilities: the ability graph of --cards CODE ... / --deck FILE
    (an edge A -> B when A's effect or cost sets off B's triggering condition
    or makes B's cost payable again; dashed across players); --all for the
    whole pool.

    Exit status: 0 written, 2 bad input.
    """
    s = streams()
    _check_out(out)
    fmt = fmt or format_of(out)
    if what == "abilities":
        g = _abilities(model, codes, deck_file, pool_dir, override_files, whole_pool, only_cycles)
        from .cards.export import render as render_abilities
        from .cards.export import to_dot as abilities_dot

        if fmt in ("svg", "png"):
            write_atomic(out, render_abilities(g, fmt))
        elif fmt == "dot":
            write_atomic(out, abilities_dot(g))
        else:
            write_atomic(out, to_graphml(g))
    else:
        if codes or deck_file or pool_dir or override_files or whole_pool or only_cycles:
            raise InputError(f"--cards, --deck, --pool, --overrides, --all and --only-cycles apply to "
                             f"--what abilities, not to the {what} graph")
        g = make_graph(load_timing(model), what, levels)
        if fmt in ("svg", "png"):
            draw(g, out, fmt)
        elif fmt == "dot":
            write_atomic(out, to_dot(g))
        else:
            write_atomic(out, to_graphml(g))
    if whole_pool:
        s.err.write(f"warning: the whole pool: {g.number_of_nodes()} abilities, {g.number_of_edges()} edges\n")
    note = s.err if is_stream(out) else s.out  # ``--out /dev/stdout | dot -Tsvg``: the note must not join the graph
    note.write(f"wrote {out} ({g.number_of_nodes()} nodes, {g.number_of_edges()} edges)\n")
    return EXIT_OK


def _check_out(out: Path) -> None:
    """``--out`` names a file in a directory that exists."""
    if str(out) in ("", ".") or out.name in ("", ".", ".."):
        raise InputError(f"--out needs a file name, got '{clip(str(out))}'")
    if not out.parent.exists():
        raise InputError(f"directory {clip(str(out.parent))} does not exist")


def _abilities(model: Path | None, codes: tuple[str, ...], deck_file: Path | None, pool_dir: Path | None,
               override_files: tuple[Path, ...], whole_pool: bool, only_cycles: bool) -> nx.DiGraph:
    """The export-ready ability graph the options name (see :func:`ruleproof.cards.export.abilities_graph`)."""
    from .cards.export import abilities_graph
    from .cards.overrides import load_overrides
    from .cards.pool import load_deck, load_pool

    mine = [c for c in codes if not c.startswith("opp:")]
    theirs = [c[4:] for c in codes if c.startswith("opp:")]
    if not mine and not theirs and deck_file is None and not whole_pool:
        raise InputError("the ability graph is not available without cards: give --cards CODE (opp:CODE for the "
                         "opponent's copy), --deck FILE, or --all for the whole pool")
    if model is not None:
        raise InputError("MODEL names a rules model for the timing and round graphs; the ability graph takes "
                         "--cards, --deck and --pool")
    pool = load_pool(pool_dir)
    deck = load_deck(deck_file, pool) if deck_file is not None else None
    g = abilities_graph(pool, mine, deck, theirs, overrides=load_overrides(override_files, pool), whole_pool=whole_pool,
                        only_cycles=only_cycles)
    return g
