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
import textwrap
from typing import Iterable

import networkx as nx

from ruleproof.cards.graph import OPPONENT, YOU, build_ability_graph, facts_from_pool, two_player_abilities
from ruleproof.cards.overrides import Overrides, compile_pool
from ruleproof.cards.pool import Deck, Pool
from ruleproof.errors import InputError

__all__ = ["PICTURE_LIMIT", "abilities_graph", "render", "to_dot"]

#: The most abilities drawn as a picture (beyond it a drawing is unreadable and slow: use DOT or GraphML).
PICTURE_LIMIT = 400

_FILL = {YOU: "#d6eaf8", OPPONENT: "#fadbd8"}
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
            raise InputError(f"unknown card code {c}")
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


def to_dot(g: nx.DiGraph) -> str:
    """An ability graph from :func:`abilities_graph` in Graphviz DOT; edge labels give the reason."""
    lines = [f"digraph {_q(str(g.graph.get('name', 'abilities')))} {{", "  rankdir=LR;",
             '  node [shape=box, style="rounded,filled", fontsize=10];', "  edge [fontsize=8];"]
    for n, d in sorted(g.nodes(data=True)):
        attrs = {"label": d["label"], "fillcolor": _FILL.get(d["controller"], "#ffffff"),
                 "controller": d["controller"], "type": d["type"], "on_cycle": d["on_cycle"]}
        if d["on_cycle"] == "true":
            attrs["penwidth"] = "2"
        if d["limit"]:
            attrs["limit"] = d["limit"]
        lines.append(f"  {_q(n)} [" + ", ".join(f"{k}={_q(v)}" for k, v in attrs.items()) + "];")
    for u, v, d in sorted(g.edges(data=True)):
        attrs = {"label": d["label"], "kind": d["kind"], "color": _EDGE_COLOUR.get(d["kind"], "#000000"),
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

    Raises
    ------
    InputError
        Too many abilities to draw, or an unknown format.
    """
    if fmt not in ("svg", "png"):
        raise InputError(f"cannot draw as {fmt}")
    if g.number_of_nodes() > PICTURE_LIMIT:
        raise InputError(f"{g.number_of_nodes()} abilities are too many to draw (at most {PICTURE_LIMIT}): "
                         "use --format dot or graphml, or fewer cards (--only-cycles keeps the abilities on cycles)")
    from ruleproof.extras import require

    require("draw", f"drawing a {fmt} picture")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    pos = _layout(g)
    xs = [p[0] for p in pos.values()] or [0.0]
    ys = [p[1] for p in pos.values()] or [0.0]
    w, h = max(xs) - min(xs) + 4.0, max(ys) - min(ys) + 3.0
    fig = Figure(figsize=(min(40.0, max(7.0, w * 1.4)), min(60.0, max(4.0, h * 1.0))))
    ax = fig.add_subplot(1, 1, 1)
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
    for u, v, d in sorted(g.edges(data=True)):
        if u == v:
            continue
        colour = _EDGE_COLOUR.get(d["kind"], "#000000")
        ax.annotate("", xy=pos[v], xytext=pos[u], zorder=2,
                    arrowprops=dict(arrowstyle="-|>", color=colour,
                                    linestyle="dashed" if d["cross_player"] == "true" else "solid", linewidth=1.2,
                                    connectionstyle="arc3,rad=0.18", patchA=boxes[u].get_bbox_patch(),
                                    patchB=boxes[v].get_bbox_patch(), shrinkA=2, shrinkB=2, mutation_scale=12))
        (ux, uy), (vx, vy) = pos[u], pos[v]
        # the label sits beside the arc's middle, on the side the arc bends to
        mx, my = (ux + vx) / 2, (uy + vy) / 2
        dx, dy = vx - ux, vy - uy
        ax.text(mx + 0.09 * dy, my - 0.09 * dx, _wrap(_short(d["label"]), 30), fontsize=6, color=colour,
                ha="center", va="center", zorder=4,
                bbox=dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none", alpha=0.8))
    handles = [Line2D([0], [0], color=c, lw=1.6, label=k.replace("+", " + ")) for k, c in _EDGE_COLOUR.items()
               if any(d["kind"] == k for _, _, d in g.edges(data=True))]
    if any(d["cross_player"] == "true" for _, _, d in g.edges(data=True)):
        handles.append(Line2D([0], [0], color="#000000", lw=1.2, linestyle="dashed", label="across players"))
    if handles:
        ax.legend(handles=handles, loc="lower left", fontsize=8, frameon=True)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110 if fmt == "png" else 72, metadata={"Date": None} if fmt == "svg" else None)
    return buf.getvalue()
