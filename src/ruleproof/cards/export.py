"""The ability graph as a picture or a file: ``ruleproof graph --what abilities``.

:func:`abilities_graph` builds the two-player ability graph of
:mod:`ruleproof.cards.graph` for the cards a user names (``CODE`` yours,
``opp:CODE`` the opponent's copy, a deck list, or explicitly the whole pool)
and relabels it for export: string node ids ``CODE#i`` / ``opp:CODE#i``,
node ``label`` = card name and ability type, edge ``label`` = why the first
ability sets off or re-enables the second, and ``on_cycle`` marking the
abilities that lie on some cycle (loop candidates).  :func:`to_dot` and
:func:`render` write it; GraphML and atomic writing are
:mod:`ruleproof.timing.graph`'s (they take any graph with string attributes).

Rules Reference sections behind the edges: Triggering Condition, Costs,
Ownership and Control, Put into Play (see :mod:`ruleproof.cards.graph`).
No z3 here.

Examples
--------
>>> from ruleproof.cards.pool import load_pool
>>> g = abilities_graph(load_pool(), ["19009"], opponent_codes=["19009"])
>>> sorted(g.nodes), g.edges["19009#1", "opp:19009#1"]["cross_player"]
(['19009#1', 'opp:19009#1'], 'true')
"""

from __future__ import annotations

import io
import shutil
import subprocess
import textwrap
from typing import Callable, Iterable

import networkx as nx

from ruleproof.cards.graph import OPPONENT, YOU, build_ability_graph, facts_from_pool, two_player_abilities
from ruleproof.cards.overrides import Overrides, compile_pool
from ruleproof.cards.pool import Deck, Pool, unknown_code
from ruleproof.errors import InputError

__all__ = ["PICTURE_LIMIT", "abilities_graph", "render", "to_dot", "edge_legend", "label_positions"]

#: The most abilities drawn as a picture (beyond it a drawing is unreadable and slow: use DOT or GraphML).
PICTURE_LIMIT = 400

_FILL = {YOU: "#d6eaf8", OPPONENT: "#fadbd8"}
_RAD = 0.18  # how far an edge's arc bends in the matplotlib picture (arc3)
_EDGE_COLOUR = {"triggers": "#2a7d2a", "enables": "#1f4e9c", "enables+triggers": "#6c3483"}


def abilities_graph(pool: Pool, codes: Iterable[str] = (), deck: Deck | None = None,
                    opponent_codes: Iterable[str] = (), *, overrides: Overrides | None = None,
                    whole_pool: bool = False, only_cycles: bool = False) -> nx.DiGraph:
    """The ability graph of the named cards, ready to export.

    Parameters
    ----------
    pool
        The card pool.
    codes, deck
        Your cards.
    opponent_codes
        The opponent's cards (their own copies; a code may be on both sides).
    overrides
        Hand-written abilities that take precedence over the compiler.
    whole_pool
        Every card of the pool as yours (with the opponent's cards, if any);
        required when no card is named, so the whole pool is never drawn by
        accident.
    only_cycles
        Keep only the abilities on some cycle.

    Raises
    ------
    InputError
        No card named (and not ``whole_pool``), or a code not in the pool.
    """
    mine = list(codes) + (list(deck.codes()) if deck is not None else [])
    theirs = list(dict.fromkeys(opponent_codes))
    if not mine and not theirs and not whole_pool:
        raise InputError("the ability graph is not available without cards: give --cards CODE (opp:CODE for the "
                         "opponent's copy), --deck FILE, or --all for the whole pool")
    for c in mine + theirs:
        if pool.get(c) is None:
            raise unknown_code(pool, c)
    wanted = None if whole_pool else tuple(dict.fromkeys(mine + theirs))
    compiled = compile_pool(pool, overrides, wanted)
    keyed = two_player_abilities(compiled, None if whole_pool else mine, theirs)
    g = build_ability_graph(keyed, {k: v for k, v in facts_from_pool(pool).items() if k in compiled})
    on_cycle = {n for comp in nx.strongly_connected_components(g) for n in comp
                if len(comp) > 1 or g.has_edge(n, n)}
    out: nx.DiGraph = nx.DiGraph(name="ability graph", what="abilities",
                                 cards=" ".join(keyed), players=" ".join(sorted({str(d["controller"]) for _, d in
                                                                                 g.nodes(data=True)})))

    def nid(n: tuple[str, int]) -> str:
        return f"{n[0]}#{n[1]}"

    for n, d in g.nodes(data=True):
        if only_cycles and n not in on_cycle:
            continue
        owner = "opp: " if d["controller"] == OPPONENT else ""
        out.add_node(nid(n), label=f"{owner}{d['name']} ({d['code']}#{d['index']})\n{d['type'].replace('_', ' ')}",
                     name=str(d["name"]), code=str(d["code"]), controller=str(d["controller"]),
                     type=str(d["type"]), compiled=str(d["compiled"]), limit=str(d["limit"]),
                     on_cycle="true" if n in on_cycle else "false")
    for u, v, d in g.edges(data=True):
        if nid(u) in out and nid(v) in out:
            out.add_edge(nid(u), nid(v), kind=str(d["kind"]), label=str(d["reason"]),
                         cross_player=str(d["cross_player"]))
    return out


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(g: nx.DiGraph, picture: bool = False) -> str:
    """An ability graph from :func:`abilities_graph` in Graphviz DOT; edge labels give the reason.

    ``picture``: for drawing with ``dot`` (each edge label the reason's first clause, wrapped).
    """
    lines = [f"digraph {_q(str(g.graph.get('name', 'abilities')))} {{", "  rankdir=LR;",
             '  node [shape=box, style="rounded,filled", fontsize=10];', "  edge [fontsize=8];"]
    if picture:
        lines.append("  nodesep=0.5; ranksep=1.2;")
    for n, d in sorted(g.nodes(data=True)):
        attrs = {"label": d["label"], "fillcolor": _FILL.get(d["controller"], "#ffffff"),
                 "controller": d["controller"], "type": d["type"], "on_cycle": d["on_cycle"]}
        if d["on_cycle"] == "true":
            attrs["penwidth"] = "2"
        if d["limit"]:
            attrs["limit"] = d["limit"]
        lines.append(f"  {_q(n)} [" + ", ".join(f"{k}={_q(v)}" for k, v in attrs.items()) + "];")
    for u, v, d in sorted(g.edges(data=True)):
        label = _wrap(_short(d["label"]), 30) if picture else d["label"]
        attrs = {"label": label, "kind": d["kind"], "color": _EDGE_COLOUR.get(d["kind"], "#000000"),
                 "style": "dashed" if d["cross_player"] == "true" else "solid"}
        lines.append(f"  {_q(u)} -> {_q(v)} [" + ", ".join(f"{k}={_q(val)}" for k, val in attrs.items()) + "];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _layout(g: nx.DiGraph) -> dict[str, tuple[float, float]]:
    """Your abilities in the left column, the opponent's in the right one; one player: a circle."""
    players = {d["controller"] for _, d in g.nodes(data=True)}
    if len(players) < 2:
        if g.number_of_nodes() == 1:
            return {n: (0.0, 0.0) for n in g.nodes}
        pos = nx.circular_layout(sorted(g.nodes), scale=max(2.0, g.number_of_nodes() * 0.45))
        return {n: (float(p[0]), float(p[1])) for n, p in pos.items()}
    out: dict[str, tuple[float, float]] = {}
    for x, who in ((0.0, YOU), (6.0, OPPONENT)):
        col = sorted(n for n, d in g.nodes(data=True) if d["controller"] == who)
        for i, n in enumerate(col):
            out[n] = (x, -1.6 * i)
    return out


def _wrap(text: str, width: int = 26) -> str:
    """Greedy word wrap for node and edge labels (words are never broken)."""
    return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)


def _short(reason: str) -> str:
    """The first clause of an edge reason, for the drawing (the full reason is in DOT/GraphML)."""
    first = reason.split("; ")[0]
    if first.startswith("[") and "] " in first:
        first = first.split("] ", 1)[1]
    return first.split(" (")[0]


def render(g: nx.DiGraph, fmt: str) -> bytes:
    """The drawing of an ability graph as SVG or PNG bytes (at most :data:`PICTURE_LIMIT` abilities).

    Laid out by Graphviz when its ``dot`` program is installed (edge labels
    placed by Graphviz); otherwise by matplotlib, with numbered edges and
    their labels listed under the graph (:func:`edge_legend`), so that no
    label is drawn over another.

    Raises
    ------
    InputError
        Too many abilities to draw, an unknown format, or a failing ``dot``.
    """
    if fmt not in ("svg", "png"):
        raise InputError(f"cannot draw as {fmt}")
    if g.number_of_nodes() > PICTURE_LIMIT:
        raise InputError(f"{g.number_of_nodes()} abilities are too many to draw (at most {PICTURE_LIMIT}): "
                         "use --format dot or graphml, or fewer cards (--only-cycles keeps the abilities on cycles)")
    dot = shutil.which("dot")
    if dot is not None:
        return _render_graphviz(g, fmt, dot)
    return _render_matplotlib(g, fmt)


def _render_graphviz(g: nx.DiGraph, fmt: str, dot: str) -> bytes:
    try:
        done = subprocess.run([dot, f"-T{fmt}"], input=to_dot(g, picture=True).encode("utf-8"), capture_output=True,
                              timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"Graphviz dot ({dot}) failed: {exc}") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"Graphviz dot ({dot}) failed: {why[0] if why else f'exit {done.returncode}'}")
    return done.stdout


def edge_legend(g: nx.DiGraph) -> list[tuple[str, str, str]]:
    """The drawn edges in order, numbered from 1: ``(number, "A -> B", label)`` (self-loops are in their box)."""
    names = {n: f"{'opp: ' if d['controller'] == OPPONENT else ''}{d['name']}" for n, d in g.nodes(data=True)}
    edges = [(u, v, d) for u, v, d in sorted(g.edges(data=True)) if u != v]
    return [(str(i), f"{names[u]} -> {names[v]}", _short(d["label"])) for i, (u, v, d) in enumerate(edges, 1)]


Point = tuple[float, float]


def label_positions(g: nx.DiGraph, pos: dict[str, Point], rad: float = _RAD,
                    to_screen: Callable[[Point], Point] | None = None,
                    from_screen: Callable[[Point], Point] | None = None) -> dict[tuple[str, str], Point]:
    """Where each edge's number is drawn: the middle of its arc (matplotlib's ``arc3`` with ``rad``).

    The arc is a quadratic Bezier curve bent by ``rad`` on the screen; its middle lies at half the
    bend from the middle of the chord (``to_screen``/``from_screen`` convert data and screen points).
    """
    fwd = to_screen or (lambda p: p)
    back = from_screen or (lambda p: p)
    out = {}
    for u, v in sorted(g.edges()):
        if u == v:
            continue
        (ux, uy), (vx, vy) = fwd(pos[u]), fwd(pos[v])
        dx, dy = vx - ux, vy - uy
        out[(u, v)] = back(((ux + vx) / 2 + rad * dy / 2, (uy + vy) / 2 - rad * dx / 2))
    return out


def _render_matplotlib(g: nx.DiGraph, fmt: str) -> bytes:
    from ruleproof.extras import require

    require("draw", f"drawing a {fmt} picture without Graphviz")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    pos = _layout(g)
    legend = edge_legend(g)
    xs = [p[0] for p in pos.values()] or [0.0]
    ys = [p[1] for p in pos.values()] or [0.0]
    w, h = max(xs) - min(xs) + 4.0, max(ys) - min(ys) + 3.0
    text_h = 0.18 * len(legend) + 0.4 if legend else 0.0
    fig = Figure(figsize=(min(40.0, max(7.0, w * 1.4)), min(80.0, max(4.0, h * 1.0) + text_h)))
    ax = fig.add_axes((0.0, text_h / (text_h + max(4.0, h)), 1.0, max(4.0, h) / (text_h + max(4.0, h))))
    ax.set_xlim(min(xs) - 2.0, max(xs) + 2.0)
    ax.set_ylim(min(ys) - 1.5, max(ys) + 1.5)
    ax.axis("off")
    ax.set_title(f"ability graph ({g.number_of_nodes()} abilities, {g.number_of_edges()} edges)", fontsize=11)
    boxes = {}
    for n, d in sorted(g.nodes(data=True)):
        x, y = pos[n]
        label = "\n".join(_wrap(part) for part in d["label"].split("\n"))
        if g.has_edge(n, n):
            label += "\n(sets itself off: " + _short(g.edges[n, n]["label"]) + ")"
        boxes[n] = ax.text(x, y, label, ha="center", va="center", fontsize=7.5, zorder=3,
                           bbox=dict(boxstyle="round,pad=0.35", facecolor=_FILL.get(d["controller"], "#ffffff"),
                                     edgecolor="#c0392b" if d["on_cycle"] == "true" else "#34495e",
                                     linewidth=1.8 if d["on_cycle"] == "true" else 1.0))
    numbers = label_positions(g, pos, _RAD, lambda p: tuple(ax.transData.transform(p)),
                              lambda p: tuple(ax.transData.inverted().transform(p)))
    for (num, _, _), ((u, v), (lx, ly)) in zip(legend, numbers.items(), strict=True):
        d = g.edges[u, v]
        colour = _EDGE_COLOUR.get(d["kind"], "#000000")
        ax.annotate("", xy=pos[v], xytext=pos[u], zorder=2,
                    arrowprops=dict(arrowstyle="-|>", color=colour,
                                    linestyle="dashed" if d["cross_player"] == "true" else "solid", linewidth=1.2,
                                    connectionstyle=f"arc3,rad={_RAD}", patchA=boxes[u].get_bbox_patch(),
                                    patchB=boxes[v].get_bbox_patch(), shrinkA=2, shrinkB=2, mutation_scale=12))
        ax.text(lx, ly, num, fontsize=7, color=colour, ha="center", va="center", zorder=4,
                bbox=dict(boxstyle="circle,pad=0.15", facecolor="white", edgecolor=colour, linewidth=0.8))
    if legend:
        fig.text(0.01, text_h / (text_h + max(4.0, h)) - 0.01,
                 "\n".join(f"{num}. {pair}: {label}" for num, pair, label in legend),
                 fontsize=7, va="top", ha="left", family="monospace")
    handles = [Line2D([0], [0], color=c, lw=1.6, label=k.replace("+", " + ")) for k, c in _EDGE_COLOUR.items()
               if any(d["kind"] == k for _, _, d in g.edges(data=True))]
    if any(d["cross_player"] == "true" for _, _, d in g.edges(data=True)):
        handles.append(Line2D([0], [0], color="#000000", lw=1.2, linestyle="dashed", label="across players"))
    if handles:
        ax.legend(handles=handles, loc="lower left", fontsize=8, frameon=True)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110 if fmt == "png" else 72, metadata={"Date": None} if fmt == "svg" else None)
    return buf.getvalue()
