"""Checks over the timing graph, each exhaustive over the finite graph.

A sequence graph with ``levels`` nesting levels is finite; each check visits
all of it (paths are explored as configurations ``(node, stack of call
sites)``, so a ``return`` edge is taken only back to the sequence that is
waiting for it).  Deeper nesting levels are copies of the ones checked.

Every check returns a frozen :class:`CheckResult`; a failure carries a
witness path (node ids from the sequence's entry) and the reason.

Examples
--------
>>> from ruleproof.timing.agot import AGOT_SEQUENCE
>>> all(r.ok for r in run_checks(AGOT_SEQUENCE))
True
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterator

import networkx as nx

from .declaration import INTERRUPT_KINDS, WINDOW_KINDS, Declaration, MoveKind, QueueOrder, StepKind
from .graph import node_id, round_graph, timing_graph

__all__ = ["APPENDIX_I_JUMPS", "CHECKS", "CheckResult", "check_round_format", "check_round_order", "run_checks",
           "run_round_checks"]

TC = "Triggering Condition"
NESTED = "Nested Ability Sequences"
FORCED = "Forced Interrupts / Forced Reactions"

Config = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one graph check: ``witness`` is a path of node ids when ``ok`` is false."""

    name: str
    cites: tuple[str, ...]
    ok: bool
    witness: tuple[str, ...] = ()
    reason: str = ""
    nodes: int = 0

    def show(self, g: nx.DiGraph | None = None) -> str:
        """The witness path as text (node labels when ``g`` is given)."""
        if not self.witness:
            return ""
        if g is None:
            return " -> ".join(self.witness)
        return " -> ".join(f"{n} ({g.nodes[n]['label']})" if n in g else n for n in self.witness)


def _kind(g: nx.DiGraph, n: str) -> str:
    return str(g.nodes[n]["kind"])


def _closed(g: nx.DiGraph, n: str) -> bool:
    return _kind(g, n) == StepKind.CLOSED.value


def _lifo(g: nx.DiGraph) -> bool:
    return g.graph.get("queue_order", "LIFO") == QueueOrder.LIFO.value


def _moves(g: nx.DiGraph, c: Config) -> Iterator[tuple[str, Config]]:
    """Control moves from configuration ``c`` (edge kind, next configuration)."""
    n, stack = c
    for _, v, d in g.out_edges(n, data=True):
        k = d["kind"]
        if k == "nest":
            if d.get("deferred") == "true":
                continue  # FIFO: the new condition waits in the queue; control stays here
            yield k, (v, stack + (n,))
        elif k == "return":
            if not _lifo(g):
                yield k, (v, stack)
            elif stack and stack[-1] in d.get("sites", "").split(","):
                yield k, (v, stack[:-1])
        else:
            yield k, (v, stack)


def _explore(g: nx.DiGraph, start: Config) -> tuple[dict[Config, Config | None], nx.DiGraph]:
    parents: dict[Config, Config | None] = {start: None}
    cg = nx.DiGraph()
    cg.add_node(start)
    todo = deque([start])
    while todo:
        c = todo.popleft()
        for _k, nc in _moves(g, c):
            cg.add_edge(c, nc)
            if nc not in parents:
                parents[nc] = c
                todo.append(nc)
    return parents, cg


def _path(parents: dict[Config, Config | None], c: Config) -> tuple[str, ...]:
    out: list[str] = []
    cur: Config | None = c
    while cur is not None:
        out.append(cur[0])
        cur = parents[cur]
    return tuple(reversed(out))


def _start(g: nx.DiGraph) -> Config:
    return (str(g.graph["entry"]), ())


def _level_graph(g: nx.DiGraph, level: int) -> nx.DiGraph:
    """The moves of one sequence (no nest/return edges)."""
    nodes = [n for n, d in g.nodes(data=True) if d["level"] == str(level)]
    h = nx.DiGraph()
    h.add_nodes_from(nodes)
    h.add_edges_from((u, v) for u, v, d in g.subgraph(nodes).edges(data=True) if d["kind"] not in ("nest", "return"))
    return h


# ---------------------------------------------------------------------------- the checks


def check_ends_closed(g: nx.DiGraph) -> CheckResult:
    """Every path from the imminent condition ends at a closed step (completed or cancelled)."""
    name, cites = "every path from imminent ends at closed", (TC, NESTED, "Pass")
    start = _start(g)
    parents, cg = _explore(g, start)
    done = {c for c in cg if _closed(g, c[0]) and not c[1]}
    if not done:
        return CheckResult(
            name, cites, False, (start[0],), "no path from the imminent condition reaches a closed step", len(cg)
        )
    for c in sorted(cg, key=lambda c: (len(_path(parents, c)), c)):
        if cg.out_degree(c) == 0 and c not in done:
            return CheckResult(
                name, cites, False, _path(parents, c), f"the sequence gets stuck at {c[0]}: no move leaves it", len(cg)
            )
    can_end = set(done)
    for d in done:
        can_end |= nx.ancestors(cg, d)
    for c in sorted(cg, key=lambda c: (len(_path(parents, c)), c)):
        if c not in can_end:
            # lead the witness on into the part of the graph it can never leave
            trap = cg.subgraph(nx.descendants(cg, c) | {c})
            cond = nx.condensation(trap)
            sinks = [n for n in cond if cond.out_degree(n) == 0]
            members = sorted(cond.nodes[sinks[0]]["members"]) if sinks else [c]
            tail = nx.shortest_path(trap, c, members[0])
            witness = _path(parents, c) + tuple(x[0] for x in tail[1:])
            return CheckResult(
                name,
                cites,
                False,
                witness,
                f"from {c[0]} no closed step can be reached: the sequence is trapped at {members[0][0]}",
                len(cg),
            )
    return CheckResult(name, cites, True, nodes=len(cg))


def check_cancel_final(g: nx.DiGraph) -> CheckResult:
    """A cancelled condition reaches no later step of its own sequence."""
    name, cites = "a cancelled condition reaches no later step of its own sequence", ("Cancel", TC)
    parents, _cg = _explore(g, _start(g))
    reached = {c[0]: c for c in parents}
    for u, v, d in sorted(g.edges(data=True)):
        if d["kind"] != "cancel":
            continue
        lead = _path(parents, reached[u]) if u in reached else (u,)
        if not (_closed(g, v) and g.nodes[v]["outcome"] == "cancelled"):
            return CheckResult(
                name,
                cites,
                False,
                lead + (v,),
                f"cancelling at {u} leads to {v}, which is not a cancelled end",
                g.number_of_nodes(),
            )
        level = _level_graph(g, int(g.nodes[v]["level"]))
        for w in sorted(nx.descendants(level, v)):
            if not _closed(g, w):
                tail = tuple(nx.shortest_path(level, v, w))
                return CheckResult(
                    name,
                    cites,
                    False,
                    lead + tail,
                    f"after the cancel the sequence still reaches {w}",
                    g.number_of_nodes(),
                )
    return CheckResult(name, cites, True, nodes=g.number_of_nodes())


def _dominated(
    g: nx.DiGraph, target_kinds: set[str], via_kinds: set[str], what: str, name: str, cites: tuple[str, ...]
) -> CheckResult:
    """Every path within a sequence from its entry to a ``target_kinds`` step passes a ``via_kinds`` step."""
    levels = int(g.graph.get("levels", "1"))
    entry_step = g.nodes[g.graph["entry"]]["step"]
    for lv in range(levels):
        h = _level_graph(g, lv)
        entry = node_id(lv, entry_step)
        targets = [n for n in sorted(h) if _kind(g, n) in target_kinds]
        if lv == 0 and not targets:
            continue
        cut = h.copy()
        cut.remove_nodes_from([n for n in h if _kind(g, n) in via_kinds])
        if entry not in cut:
            continue
        for t in targets:
            if t in cut and nx.has_path(cut, entry, t):
                path = tuple(nx.shortest_path(cut, entry, t))
                return CheckResult(
                    name, cites, False, path, f"{t} is reached without passing {what}", g.number_of_nodes()
                )
    return CheckResult(name, cites, True, nodes=g.number_of_nodes())


def check_forced_first(g: nx.DiGraph) -> CheckResult:
    """Forced interrupts come before the interrupt window, forced reactions before the reaction window."""
    name, cites = (
        "forced interrupts before the interrupt window, forced reactions before the reaction window",
        (FORCED, TC),
    )
    missing = [
        k for k in (StepKind.FORCED_INTERRUPTS, StepKind.FORCED_REACTIONS) if not any(_kind(g, n) == k.value for n in g)
    ]
    if missing:
        return CheckResult(
            name,
            cites,
            False,
            (str(g.graph["entry"]),),
            f"the sequence has no {missing[0].value} step: forced abilities never resolve",
            g.number_of_nodes(),
        )
    r = _dominated(
        g, {StepKind.INTERRUPT_WINDOW.value}, {StepKind.FORCED_INTERRUPTS.value}, "the forced interrupts", name, cites
    )
    if not r.ok:
        return r
    return _dominated(
        g, {StepKind.REACTION_WINDOW.value}, {StepKind.FORCED_REACTIONS.value}, "the forced reactions", name, cites
    )


_INTERRUPTS = {k.value for k in INTERRUPT_KINDS}


def check_cancel_first(g: nx.DiGraph) -> CheckResult:
    """Cancel interrupts come before "would" interrupts, which come before the other interrupts."""
    name, cites = (
        "cancels first, then 'would' interrupts, then the other interrupts",
        ("Cancel", 'The word "Would"', TC),
    )
    cancels = {StepKind.CANCEL_INTERRUPTS.value}
    would = {StepKind.WOULD_INTERRUPTS.value}
    if any(_kind(g, n) in would for n in g) and any(_kind(g, n) in cancels for n in g):
        r = _dominated(g, would, cancels, "the cancel interrupts", name, cites)
        if not r.ok:
            return r
    if any(_kind(g, n) in would for n in g):
        later = {StepKind.FORCED_INTERRUPTS.value, StepKind.INTERRUPT_WINDOW.value}
        return _dominated(g, later, would, "the 'would' interrupts", name, cites)
    return CheckResult(name, cites, True, nodes=g.number_of_nodes())


_REACTIONS = {StepKind.FORCED_REACTIONS.value, StepKind.REACTION_WINDOW.value}


def check_reactions_after(g: nx.DiGraph) -> CheckResult:
    """No reaction to a condition before it occurs, and no interrupt to it after."""
    name, cites = "no reaction before the condition occurs, no interrupt after", ("Reactions", "Interrupts", TC)
    r = _dominated(g, _REACTIONS, {StepKind.OCCURS.value}, "the occurrence", name, cites)
    if not r.ok:
        return r
    levels = int(g.graph.get("levels", "1"))
    for lv in range(levels):
        h = _level_graph(g, lv)
        # after the occurrence, only a change back to imminent could start a new condition's interrupts
        no_change = h.copy()
        no_change.remove_edges_from([(u, v) for u, v in h.edges if g.edges[u, v]["kind"] == "change"])
        for o in sorted(n for n in h if _kind(g, n) == StepKind.OCCURS.value):
            for w in sorted(nx.descendants(no_change, o)):
                if _kind(g, w) in _INTERRUPTS:
                    entry = node_id(lv, g.nodes[g.graph["entry"]]["step"])
                    lead = tuple(nx.shortest_path(h, entry, o)) if nx.has_path(h, entry, o) else (o,)
                    path = lead + tuple(nx.shortest_path(no_change, o, w))[1:]
                    return CheckResult(
                        name, cites, False, path, f"an interrupt step ({w}) follows the occurrence", g.number_of_nodes()
                    )
    return CheckResult(name, cites, True, nodes=g.number_of_nodes())


def check_windows(g: nx.DiGraph) -> CheckResult:
    """Every window gives the first player the first opportunity and closes after all players pass."""
    name, cites = (
        "every window: first player first, closes after all players pass consecutively",
        ("Interrupts", "Reactions", "First Player, First Player Token", "Pass", NESTED),
    )
    parents, _cg = _explore(g, _start(g))
    reached = {c[0]: c for c in parents}
    for n, d in sorted(g.nodes(data=True)):
        if d["kind"] not in {k.value for k in WINDOW_KINDS}:
            continue
        rules = d["window"]
        lead = _path(parents, reached[n]) if n in reached else (n,)
        if not rules.startswith("first player first"):
            return CheckResult(name, cites, False, lead, f"{n}: {rules}", g.number_of_nodes())
        if "all players pass consecutively" not in rules:
            return CheckResult(name, cites, False, lead, f"{n}: {rules}", g.number_of_nodes())
        if not any(dd["kind"] == "pass" for _, _, dd in g.out_edges(n, data=True)):
            return CheckResult(name, cites, False, lead, f"{n} has no pass move: it never closes", g.number_of_nodes())
    return CheckResult(name, cites, True, nodes=g.number_of_nodes())


def check_stack(g: nx.DiGraph) -> CheckResult:
    """Nested sequences are last-in-first-out: a nested sequence completes, then returns to its spawner."""
    name, cites = "nested sequences resolve last in, first out", (NESTED,)
    start = _start(g)
    parents, _cg = _explore(g, start)
    for u, v, d in sorted(g.edges(data=True)):
        if d["kind"] == "nest":
            if d.get("deferred") == "true":
                reached = [c for c in parents if c[0] == u]
                lead = _path(parents, reached[0]) if reached else (u,)
                onward = [w for _, w, dd in g.out_edges(u, data=True) if dd["kind"] not in ("nest", "return")]
                return CheckResult(
                    name,
                    cites,
                    False,
                    lead + tuple(onward[:1]),
                    f"the condition raised at {u} waits in a queue while the sequence that raised it goes on "
                    f"(queue order {g.graph.get('queue_order')})",
                    g.number_of_nodes(),
                )
            if (
                int(g.nodes[v]["level"]) != int(g.nodes[u]["level"]) + 1
                or g.nodes[v]["step"] != g.nodes[str(g.graph["entry"])]["step"]
            ):
                return CheckResult(
                    name,
                    cites,
                    False,
                    (u, v),
                    f"the nested sequence raised at {u} does not start at the entry of a new level",
                    g.number_of_nodes(),
                )
    for p in sorted(parents, key=lambda c: (len(_path(parents, c)), c)):
        for k, nc in _moves(g, p):
            if k != "return":
                continue
            src = p[0]
            popped = p[1][-1] if p[1] else ""
            witness = _path(parents, p) + (nc[0],)
            if not _closed(g, src):
                return CheckResult(
                    name,
                    cites,
                    False,
                    witness,
                    f"the nested sequence returns from {src} before it is complete",
                    g.number_of_nodes(),
                )
            if _lifo(g) and nc[0] != popped:
                return CheckResult(
                    name,
                    cites,
                    False,
                    witness,
                    f"the nested sequence spawned at {popped} returns to {nc[0]} instead",
                    g.number_of_nodes(),
                )
    return CheckResult(name, cites, True, nodes=len(parents))


CHECKS: tuple[Callable[[nx.DiGraph], CheckResult], ...] = (
    check_ends_closed,
    check_cancel_final,
    check_forced_first,
    check_cancel_first,
    check_reactions_after,
    check_windows,
    check_stack,
)
"""The sequence checks, in report order."""


def run_checks(decl: Declaration, levels: int = 3) -> list[CheckResult]:
    """Run every sequence check on the graph of ``decl`` with ``levels`` nesting levels."""
    g = timing_graph(decl, levels)
    return [c(g) for c in CHECKS]


APPENDIX_I_JUMPS: frozenset[tuple[str, str]] = frozenset(
    {
        ("1.3", "1.5"),  # 7.4/1.4: the melee-only title steps are skipped in a joust game
        ("7.3", "7.5"),
        ("3.3", "3.2"),  # 3.3: "Otherwise, the next player ... becomes the active player. Return to step 3.2."
        ("4.2", "4.3"),  # 4.2: "If the active player passes this opportunity ... proceed to step 4.3."
        ("4.2.6", "4.1+"),  # 4.2.6: "Proceed to the action window between framework steps 4.1 and 4.2."
        ("4.3", "4.1+"),  # 4.3: "Proceed to the player action window between framework steps 4.1 and 4.2."
        ("7.5", "1.1"),  # 7.5: "play proceeds to the beginning of the plot phase of the next game round"
    }
)
"""Where Appendix I leaves its own numbering order, from its text (``N+``: the action window after step ``N``)."""


def _number_key(number: str) -> tuple[float, ...]:
    """Appendix I order of a step number; ``N+`` (the window after step ``N``) comes after ``N`` and its sub-steps."""
    window = number.endswith("+")
    parts = tuple(float(x) for x in number.rstrip("+").split("."))
    return parts + (1000.0,) if window else parts


def check_round_order(decl: Declaration, jumps: frozenset[tuple[str, str]] = APPENDIX_I_JUMPS) -> CheckResult:
    """Every framework move goes to the next step in Appendix I's numbering, or is a jump its text states."""
    name, cites = "framework steps follow the Appendix I order", ("Appendix I: Timing and Gameplay",)
    numbered = {s.name: s.number for s in decl.steps if s.number and s.kind is not StepKind.RESOLVING}
    order = sorted(set(numbered.values()), key=_number_key)
    nxt = {a: b for a, b in zip(order, order[1:], strict=False)}
    for mv in decl.moves:
        if mv.kind not in (MoveKind.PROCEED, MoveKind.PASS, MoveKind.LOOP):
            continue
        if mv.source not in numbered or mv.target not in numbered:
            continue
        a, b = numbered[mv.source], numbered[mv.target]
        if nxt.get(a) != b and (a, b) not in jumps:
            reason = f"{a} leads to {b}: Appendix I goes from {a} to {nxt.get(a, 'the end of the round')}"
            g = round_graph(decl)
            path = nx.shortest_path(g, decl.entry, mv.source) if nx.has_path(g, decl.entry, mv.source) else []
            return CheckResult(name, cites, False, (*path, mv.target), reason, len(numbered))
    return CheckResult(name, cites, True, nodes=len(numbered))


def check_round_format(decl: Declaration, melee: bool) -> CheckResult:
    """Melee Game / Joust Game: a melee round passes through every melee-only step (the titles, 1.4 and 7.4) on
    every way to the next round; a joust round has none of them."""
    name = f"the title steps are {'used in every' if melee else 'skipped in a'} {'melee' if melee else 'joust'} round"
    cites = ("Melee Game", "Joust Game", "Appendix I: Timing and Gameplay")
    g = round_graph(decl)
    titles = [s.name for s in decl.steps if s.melee_only]
    if not melee:
        for t in titles:
            if t in g and nx.has_path(g, decl.entry, t):
                return CheckResult(name, cites, False, tuple(nx.shortest_path(g, decl.entry, t)),
                                   f"a joust round reaches the melee-only step {t}", g.number_of_nodes())
        return CheckResult(name, cites, True, nodes=g.number_of_nodes())
    if not titles:
        return CheckResult(name, cites, False, (decl.entry,), "a melee round has no title step", g.number_of_nodes())
    for t in titles:
        h = g.copy()
        h.remove_node(t)
        back = [n for n in h if n != decl.entry and h.has_edge(n, decl.entry)]
        for n in back:  # the way round to the next round avoids the title step
            if nx.has_path(h, decl.entry, n):
                path = tuple(nx.shortest_path(h, decl.entry, n)) + (decl.entry,)
                return CheckResult(name, cites, False, path, f"a melee round skips the title step {t}",
                                   g.number_of_nodes())
    return CheckResult(name, cites, True, nodes=g.number_of_nodes())


def run_round_checks(decl: Declaration) -> list[CheckResult]:
    """Round framework checks: every step lies on the round's cycle; action windows close on all passes; the steps
    follow the Appendix I order (for a declaration whose steps carry Appendix I numbers)."""
    g = round_graph(decl)
    entry = str(g.graph["entry"])
    out: list[CheckResult] = []
    name, cites = (
        "every framework step is reached and leads back to the next round",
        ("Appendix I: Timing and Gameplay",),
    )
    ok = CheckResult(name, cites, True, nodes=g.number_of_nodes())
    for n in sorted(g):
        if n != entry and not nx.has_path(g, entry, n):
            ok = CheckResult(name, cites, False, (entry, n), f"{n} is never reached from {entry}", g.number_of_nodes())
            break
        if not nx.has_path(g, n, entry):
            ok = CheckResult(
                name,
                cites,
                False,
                tuple(nx.shortest_path(g, entry, n)),
                f"from {n} the round never returns to {entry}",
                g.number_of_nodes(),
            )
            break
    out.append(ok)
    w = check_windows(g)
    out.append(
        CheckResult(
            "action windows: first player first, close after all players pass",
            ("Action Windows", "First Player, First Player Token"),
            w.ok,
            w.witness,
            w.reason,
            w.nodes,
        )
    )
    if any(s.number for s in decl.steps):
        out.append(check_round_order(decl))
    return out
