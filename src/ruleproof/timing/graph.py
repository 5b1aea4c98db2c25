"""The timing-window graph: a networkx graph generated from a timing declaration.

Nodes are steps and windows, edges are allowed moves with a string ``kind``
attribute (``proceed``, ``pass``, ``initiate``, ``resolve``, ``cancel``,
``change``, ``nest``, ``return``, ``loop``).  A sequence graph is drawn with
``levels`` copies of the sequence: level 0 is the outermost triggering
condition, level ``l + 1`` a sequence nested in level ``l``.  A ``return``
edge lists in ``sites`` the resolving steps (call sites) whose nested
sequence it ends; with a FIFO queue order ``nest`` edges are ``deferred`` (the
spawning sequence goes on) and ``return`` starts the next queued sequence.

Every attribute is a string, so the graph writes to GraphML and reads back
unchanged.  Drawing uses matplotlib's Agg backend; files are written
atomically (temporary file, then :func:`os.replace`).

Examples
--------
>>> from ruleproof.timing.agot import AGOT_SEQUENCE
>>> g = timing_graph(AGOT_SEQUENCE, levels=2)
>>> g.nodes["0:occurs"]["kind"]
'occurs'
>>> g.edges["0:reactions", "0:closed"]["kind"]
'pass'
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path
from typing import Mapping

import networkx as nx

from ..files import write_atomic as _write_atomic
from .declaration import CALLER, Declaration, MoveKind, QueueOrder, StepKind

__all__ = [
    "EDGE_STYLE",
    "draw",
    "layout",
    "node_id",
    "read_graphml",
    "render",
    "round_graph",
    "timing_graph",
    "to_dot",
    "to_graphml",
    "write_atomic",
]


def node_id(level: int, step: str) -> str:
    """The node of ``step`` at nesting ``level``."""
    return f"{level}:{step}"


def _step_attrs(decl: Declaration, name: str, level: int) -> dict[str, str]:
    s = decl.step(name)
    label = s.label if level == 0 else f"[nested {level}] {s.label}"
    return {
        "step": s.name,
        "kind": s.kind.value,
        "label": label,
        "level": str(level),
        "cites": "; ".join(s.cites),
        "window": s.window.describe() if s.window is not None else "",
        "outcome": s.outcome.value if s.outcome is not None else "",
        "number": s.number,
        "phase": s.phase,
        "melee_only": "true" if s.melee_only else "false",
    }


def _add_edge(g: nx.DiGraph, u: str, v: str, kind: MoveKind, label: str, cites: tuple[str, ...], site: str = "",
              deferred: bool = False) -> None:
    if g.has_edge(u, v):
        d = g.edges[u, v]
        if d["kind"] != kind.value:
            raise ValueError(f"two moves of different kinds from {u} to {v}")
        if site and site not in d["sites"].split(","):
            d["sites"] = ",".join(x for x in (d["sites"], site) if x)
        return
    g.add_edge(u, v, kind=kind.value, label=label, cites="; ".join(cites), sites=site,
               deferred="true" if deferred else "false")


def timing_graph(decl: Declaration, levels: int = 2) -> nx.DiGraph:
    """The sequence graph of ``decl`` with ``levels`` nesting levels (>= 1)."""
    if levels < 1:
        raise ValueError("levels must be at least 1")
    g = nx.DiGraph(name=decl.name, what="timing", queue_order=decl.queue_order.value, levels=str(levels),
                   entry=node_id(0, decl.entry))
    for lv in range(levels):
        for s in decl.steps:
            g.add_node(node_id(lv, s.name), **_step_attrs(decl, s.name, lv))
    fifo = decl.queue_order is QueueOrder.FIFO
    nests = decl.moves_of(MoveKind.NEST)
    for lv in range(levels):
        for m in decl.moves:
            u = node_id(lv, m.source)
            if m.kind is MoveKind.NEST:
                if lv + 1 < levels:
                    _add_edge(g, u, node_id(lv + 1, m.target), m.kind, m.label, m.cites, site=u, deferred=fifo)
            elif m.kind is MoveKind.RETURN:
                if lv == 0:
                    continue  # the outermost sequence has no caller
                if fifo:
                    # the queue moves on to the next waiting condition
                    if lv + 1 < levels:
                        target = node_id(lv + 1, decl.entry) if m.target == CALLER else node_id(lv + 1, m.target)
                        _add_edge(g, u, target, m.kind, m.label, m.cites)
                    continue
                for n in nests:
                    site = node_id(lv - 1, n.source)
                    target = site if m.target == CALLER else node_id(lv - 1, m.target)
                    _add_edge(g, u, target, m.kind, m.label, m.cites, site=site)
            else:
                _add_edge(g, u, node_id(lv, m.target), m.kind, m.label, m.cites)
    if fifo:
        # the first level's closed steps lead to the next queued sequence as well
        for m in decl.moves_of(MoveKind.RETURN):
            if levels > 1:
                target = node_id(1, decl.entry) if m.target == CALLER else node_id(1, m.target)
                _add_edge(g, node_id(0, m.source), target, m.kind, m.label, m.cites)
    return g


def round_graph(decl: Declaration) -> nx.DiGraph:
    """The round framework graph (Appendix I): one node per framework step or window."""
    g = nx.DiGraph(name=decl.name, what="round", queue_order=decl.queue_order.value, levels="1", entry=decl.entry)
    for s in decl.steps:
        attrs = _step_attrs(decl, s.name, 0)
        g.add_node(s.name, **attrs)
    for m in decl.moves:
        if m.kind in (MoveKind.NEST, MoveKind.RETURN):
            continue
        _add_edge(g, m.source, m.target, m.kind, m.label, m.cites)
    return g


# ---------------------------------------------------------------------------- layout

_FORWARD = {"proceed", "pass"}


def _chain_layers(g: nx.DiGraph, nodes: list[str]) -> dict[str, int]:
    """Generation of each node on the acyclic proceed/pass chain among ``nodes``."""
    h = nx.DiGraph()
    h.add_nodes_from(nodes)
    h.add_edges_from((u, v) for u, v, d in g.subgraph(nodes).edges(data=True) if d["kind"] in _FORWARD)
    if not nx.is_directed_acyclic_graph(h):
        h.remove_edges_from(list(nx.find_cycle(h)))
    return {n: i for i, gen in enumerate(nx.topological_generations(h)) for n in gen}


def layout(g: nx.DiGraph) -> dict[str, tuple[float, float]]:
    """Node positions: sequence order left to right; resolving steps under their window.

    Sequence graphs: each nesting level is a band below the previous one.
    Round graphs: one column per phase, framework steps top to bottom.
    """
    if g.graph.get("what") == "round":
        return _round_layout(g)
    pos: dict[str, tuple[float, float]] = {}
    levels = int(g.graph.get("levels", "1"))
    entry_step = g.nodes[g.graph["entry"]]["step"] if g.graph.get("entry") in g else ""
    for lv in range(levels):
        nodes = [n for n, d in g.nodes(data=True) if d["level"] == str(lv)]
        main = [n for n in nodes if g.nodes[n]["kind"] != StepKind.RESOLVING.value]
        layers = _chain_layers(g, main)
        last = max(layers.values(), default=0)
        forward = {x for u, v, d in g.subgraph(main).edges(data=True) if d["kind"] in _FORWARD for x in (u, v)}
        h = nx.DiGraph()
        for n in main:
            off = n not in forward and g.nodes[n]["step"] != entry_step
            h.add_node(n, layer=last if off else layers[n])
        base = nx.multipartite_layout(h, subset_key="layer", scale=1.0)
        width = max(1, last)
        top = -3.2 * lv
        by_x: dict[int, list[str]] = {}
        for n in main:
            by_x.setdefault(h.nodes[n]["layer"], []).append(n)
        for _layer, ns in by_x.items():
            ns.sort(key=lambda n: (_off_chain(g, n), n))
            for i, n in enumerate(ns):
                pos[n] = (float((base[n][0] + 1.0) * width * 1.1), top - 1.3 * i)
        for n in nodes:
            if g.nodes[n]["kind"] == StepKind.RESOLVING.value:
                owners = [v for _, v, d in g.out_edges(n, data=True) if d["kind"] == "resolve"]
                if not owners:
                    owners = [u for u, _, d in g.in_edges(n, data=True) if d["kind"] == "initiate"]
                ox, oy = pos[owners[0]] if owners else (0.0, top)
                pos[n] = (ox, oy - 1.3)
        # a step off the chain (a cancelled end) sits under the step that leads to it
        for n in main:
            if n not in forward and g.nodes[n]["step"] != entry_step:
                srcs = [u for u, _, d in g.in_edges(n, data=True)
                        if d["kind"] not in ("nest", "return") and u in pos and u != n]
                if srcs:
                    sx, sy = pos[srcs[0]]
                    pos[n] = (sx, sy - 1.3)
    return pos


def _off_chain(g: nx.DiGraph, n: str) -> bool:
    return g.nodes[n]["outcome"] == "cancelled"


def _round_layout(g: nx.DiGraph) -> dict[str, tuple[float, float]]:
    phases: list[str] = []
    for _, d in g.nodes(data=True):
        if d["phase"] not in phases:
            phases.append(d["phase"])
    h = nx.DiGraph()
    h.add_nodes_from(g.nodes)
    h.add_edges_from((u, v) for u, v, d in g.edges(data=True) if d["kind"] not in ("loop", "resolve"))
    order = {n: i for i, gen in enumerate(nx.topological_generations(h)) for n in gen}
    for n in g.nodes:
        g.nodes[n]["_col"] = phases.index(g.nodes[n]["phase"])
    cols = nx.multipartite_layout(g, subset_key="_col")
    for n in g.nodes:
        del g.nodes[n]["_col"]
    pos: dict[str, tuple[float, float]] = {}
    for p in phases:
        members = sorted((n for n in g.nodes if g.nodes[n]["phase"] == p), key=lambda n: _number_key(g, n, order[n]))
        x = cols[members[0]][0] * len(phases) * 2.1
        row = -1
        for n in members:
            kind = g.nodes[n]["kind"]
            if kind == StepKind.ACTION_WINDOW.value:
                pos[n] = (float(x) + 1.15, -0.9 * row - 0.45)
            elif kind == StepKind.RESOLVING.value:
                pos[n] = (float(x) + 1.15, -0.9 * row - 1.35)
            else:
                row += 1
                pos[n] = (float(x), -0.9 * row)
    return pos


def _number_key(g: nx.DiGraph, n: str, fallback: int) -> tuple[float, ...]:
    """Order framework steps by their number ("4.2.1" after "4.2"); windows just after their step."""
    d = g.nodes[n]
    num = d["number"]
    if not num:
        return (float(fallback),)
    parts = [float(x) for x in num.rstrip("+").split(".") if x]
    extra = 0.5 if d["kind"] == StepKind.ACTION_WINDOW.value else 0.6 if d["kind"] == StepKind.RESOLVING.value else 0.0
    return (*parts, extra)


# ---------------------------------------------------------------------------- drawing

EDGE_STYLE: Mapping[str, tuple[str, str, float]] = {
    # kind: (colour, line style, arc)
    "proceed": ("#5d6d7e", "solid", 0.0),
    "pass": ("#000000", "solid", 0.0),
    "initiate": ("#2a7d2a", "solid", 0.25),
    "resolve": ("#8a8a8a", "solid", 0.25),
    "cancel": ("#c0392b", "solid", -0.25),
    "change": ("#e67e22", "dashed", -0.35),
    "nest": ("#6c3483", "dashed", 0.15),
    "return": ("#6c3483", "dotted", 0.15),
    "loop": ("#8e5b2b", "dashed", -0.3),
}

_NODE_FILL: Mapping[str, str] = {
    "imminent": "#d6eaf8",
    "cancel_interrupts": "#fdebd0",
    "would_interrupts": "#fdebd0",
    "forced_interrupts": "#fadbd8",
    "interrupt_window": "#fdebd0",
    "occurs": "#d5f5e3",
    "forced_reactions": "#fadbd8",
    "reaction_window": "#fcf3cf",
    "resolving": "#f2f3f4",
    "closed": "#d5d8dc",
    "framework_event": "#eaf2f8",
    "action_window": "#f5b7b1",
}


def _wrap(text: str, width: int = 22) -> str:
    """Greedy word wrap for node and edge labels (words are never broken)."""
    return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)


def render(g: nx.DiGraph, fmt: str) -> bytes:
    """The drawing of ``g`` as SVG or PNG bytes."""
    if fmt not in ("svg", "png"):
        raise ValueError(f"cannot draw as {fmt}")
    from ..extras import require

    require("draw", f"drawing a {fmt} picture")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    pos = layout(g)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    w = max(xs) - min(xs) + 2.4
    h = max(ys) - min(ys) + 2.4
    fig = Figure(figsize=(max(8.0, w * 1.55), max(4.0, h * 1.05)))
    ax = fig.add_subplot(1, 1, 1)
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 1.0, max(ys) + 1.0)
    ax.axis("off")
    title = g.graph.get("name", "")
    what = g.graph.get("what", "")
    ax.set_title(f"{title} ({what}; queue order {g.graph.get('queue_order', '')})" if what == "timing" else title,
                 fontsize=12)
    texts = {}
    for n, d in g.nodes(data=True):
        x, y = pos[n]
        fill = _NODE_FILL.get(d["kind"], "#ffffff")
        nested = d.get("level", "0") != "0"
        cancelled = d.get("outcome") == "cancelled"
        edge = "#c0392b" if cancelled else ("#6c3483" if nested else "#34495e")
        texts[n] = ax.text(
            x,
            y,
            _wrap(d["label"]),
            ha="center",
            va="center",
            fontsize=7.5,
            zorder=3,
            bbox=dict(
                boxstyle="round,pad=0.35",
                facecolor=fill,
                edgecolor=edge,
                linewidth=1.6 if cancelled or nested else 1.0,
                linestyle="dashed" if nested else "solid",
                alpha=0.95,
            ),
        )
    for u, v, d in g.edges(data=True):
        colour, style, rad = EDGE_STYLE.get(d["kind"], ("#000000", "solid", 0.0))
        if d.get("deferred") == "true":
            style = (0, (1, 3))  # type: ignore[assignment]
        faint = d["kind"] in ("nest", "return")
        (ux, uy), (vx, vy) = pos[u], pos[v]
        if abs(ux - vx) < 0.1 and abs(uy - vy) > 1.0 and d["kind"] in ("pass", "proceed"):
            rad = 0.45  # a move that skips steps of the same column bends around them
        elif d["kind"] == "loop" and ux - vx > 3.0:
            rad = 0.12  # a long loop back (next round) arcs above the chart
        ax.annotate(
            "",
            xy=pos[v],
            xytext=pos[u],
            zorder=2,
            arrowprops=dict(
                arrowstyle="-|>",
                color=colour,
                linestyle=style,
                linewidth=1.0 if faint else (1.8 if d["kind"] == "pass" else 1.3),
                alpha=0.55 if faint else 1.0,
                connectionstyle=f"arc3,rad={rad}",
                patchA=texts[u].get_bbox_patch(),
                patchB=texts[v].get_bbox_patch(),
                shrinkA=2,
                shrinkB=2,
                mutation_scale=12,
            ),
        )
    kinds = sorted({d["kind"] for _, _, d in g.edges(data=True)})
    names = {"pass": "pass (window closes)", "nest": "nest (new condition)", "return": "return (to the caller)"}
    handles = [
        Line2D([0], [0], color=EDGE_STYLE[k][0], linestyle=EDGE_STYLE[k][1], lw=1.6,  # type: ignore[arg-type]
               label=names.get(k, k))
        for k in kinds
        if k in EDGE_STYLE
    ]
    ax.legend(handles=handles, loc="lower left", fontsize=8, title="moves", frameon=True, ncol=min(len(handles), 5))
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110 if fmt == "png" else 72, metadata={"Date": None} if fmt == "svg" else None)
    return buf.getvalue()


def draw(g: nx.DiGraph, path: str | Path, fmt: str | None = None) -> None:
    """Draw ``g`` to ``path`` (SVG or PNG, by ``fmt`` or the file suffix), atomically."""
    f = fmt or Path(path).suffix.lstrip(".").lower()
    write_atomic(path, render(g, f))


# ---------------------------------------------------------------------------- DOT and GraphML


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(g: nx.DiGraph) -> str:
    """``g`` in Graphviz DOT (a small writer: no pygraphviz needed)."""
    lines = [f"digraph {_q(g.graph.get('name', 'timing'))} {{", "  rankdir=LR;",
             '  node [shape=box, style="rounded,filled", fontsize=10];']
    for k, v in sorted(g.graph.items()):
        if k != "name":
            lines.append(f"  // {k} = {v}")
    for n, d in g.nodes(data=True):
        fill = _NODE_FILL.get(d.get("kind", ""), "#ffffff")
        attrs = {"label": d.get("label", n), "fillcolor": fill}
        if d.get("outcome") == "cancelled":
            attrs["color"] = "#c0392b"
        if d.get("level", "0") != "0":
            attrs["style"] = "rounded,filled,dashed"
        for key in ("kind", "step", "level"):
            attrs[key] = d.get(key, "")
        lines.append(f"  {_q(n)} [" + ", ".join(f"{k}={_q(v)}" for k, v in attrs.items()) + "];")
    for u, v, d in g.edges(data=True):
        colour, style, _rad = EDGE_STYLE.get(d["kind"], ("#000000", "solid", 0.0))
        attrs = {"kind": d["kind"], "label": d["kind"], "tooltip": d.get("label", ""), "color": colour, "style": style}
        if d.get("sites"):
            attrs["sites"] = d["sites"]
        if d.get("deferred") == "true":
            attrs["deferred"] = "true"
        lines.append(f"  {_q(u)} -> {_q(v)} [" + ", ".join(f"{k}={_q(val)}" for k, val in attrs.items()) + "];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_graphml(g: nx.DiGraph) -> bytes:
    """``g`` as GraphML bytes (every attribute is a string)."""
    buf = io.BytesIO()
    nx.write_graphml(g, buf, encoding="utf-8")
    return buf.getvalue()


def read_graphml(path: str | Path) -> nx.DiGraph:
    """Read a graph written by :func:`to_graphml`."""
    g = nx.read_graphml(str(path))
    if not isinstance(g, nx.DiGraph):  # pragma: no cover - networkx returns the graph class it wrote
        raise ValueError("not a directed graph")
    return g


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`ruleproof.files.write_atomic`)."""
    _write_atomic(path, data)
