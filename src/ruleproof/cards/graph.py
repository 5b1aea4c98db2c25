"""The ability graph: which card ability can set off (or re-enable) which.

Nodes are ``(card code, ability index)`` for initiated abilities (actions,
reactions, interrupts, forced ones, when-revealed).  There is an edge ``A -> B``
when an effect or cost of ``A`` can raise a triggering condition ``B`` answers
(``triggers``), or can make ``B``'s cost payable again (``enables``: ``A``
stands what ``B`` kneels, gives the gold ``B`` pays, draws the card ``B``
discards ...).  Subject filters (self / you control / opponent controls, type,
trait, faction), phase restrictions and ownership vs control are honoured; all
cards of a candidate are assumed to be controlled by one player ("you"), so a
trigger limited to cards an opponent controls is never answered by your own
card.  Cycles of the graph are loop candidates for the Z3 loop check.

All node and edge attributes are strings, so the graph writes as DOT or GraphML
as it is.  No z3 here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping

import networkx as nx

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    Compiled,
    Cost,
    CostKind,
    EffectKind,
    EventKind,
    Phase,
    Scope,
    Subject,
    Target,
    TargetRef,
    Trigger,
)

if TYPE_CHECKING:
    from ruleproof.cards.pool import Pool

__all__ = [
    "Candidate",
    "CardFacts",
    "GraphEdge",
    "NodeKey",
    "build_ability_graph",
    "facts_from_pool",
    "find_candidates",
]

NodeKey = tuple[str, int]

_INITIATED = {
    AbilityType.ACTION,
    AbilityType.REACTION,
    AbilityType.INTERRUPT,
    AbilityType.FORCED_REACTION,
    AbilityType.FORCED_INTERRUPT,
    AbilityType.WHEN_REVEALED,
}
_FORCED = {AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT, AbilityType.WHEN_REVEALED}
_YOURS = {Scope.SELF, Scope.YOU_CONTROL, Scope.YOU_OWN, Scope.YOU}
_THEIRS = {Scope.OPPONENT_CONTROLS, Scope.OPPONENT_OWNS, Scope.OPPONENT}

# events an effect (or cost) kind produces, for the card it targets
_EFFECT_EVENTS: dict[EffectKind, tuple[EventKind, ...]] = {
    EffectKind.STAND: (EventKind.STOOD,),
    EffectKind.KNEEL: (EventKind.KNELT,),
    EffectKind.KILL: (EventKind.WOULD_BE_KILLED, EventKind.KILLED, EventKind.WOULD_LEAVE_PLAY, EventKind.LEAVES_PLAY),
    EffectKind.SACRIFICE: (EventKind.SACRIFICED, EventKind.WOULD_LEAVE_PLAY, EventKind.LEAVES_PLAY),
    EffectKind.DISCARD: (EventKind.WOULD_BE_DISCARDED, EventKind.DISCARDED, EventKind.WOULD_LEAVE_PLAY,
                         EventKind.LEAVES_PLAY),
    EffectKind.RETURN_TO_HAND: (EventKind.RETURNED_TO_HAND, EventKind.WOULD_LEAVE_PLAY, EventKind.LEAVES_PLAY),
    EffectKind.RETURN_TO_SHADOWS: (EventKind.WOULD_LEAVE_PLAY, EventKind.LEAVES_PLAY),
    EffectKind.PUT_INTO_PLAY: (EventKind.ENTERS_PLAY,),
    EffectKind.GAIN_POWER: (EventKind.GAIN_POWER,),
    EffectKind.MOVE_POWER: (EventKind.GAIN_POWER,),
    EffectKind.DRAW: (EventKind.DRAW,),
    EffectKind.GAIN_GOLD: (EventKind.GAIN_GOLD,),
}
_COST_EVENTS: dict[CostKind, tuple[EventKind, ...]] = {
    CostKind.KNEEL: (EventKind.KNELT,),
    CostKind.STAND: (EventKind.STOOD,),
    CostKind.SACRIFICE: (EventKind.SACRIFICED, EventKind.WOULD_LEAVE_PLAY, EventKind.LEAVES_PLAY),
    CostKind.KILL: (EventKind.WOULD_BE_KILLED, EventKind.KILLED, EventKind.WOULD_LEAVE_PLAY, EventKind.LEAVES_PLAY),
    CostKind.RETURN_TO_HAND: (EventKind.RETURNED_TO_HAND, EventKind.WOULD_LEAVE_PLAY, EventKind.LEAVES_PLAY),
    CostKind.DISCARD_FROM_PLAY: (EventKind.WOULD_BE_DISCARDED, EventKind.DISCARDED, EventKind.WOULD_LEAVE_PLAY,
                                 EventKind.LEAVES_PLAY),
    CostKind.REMOVE_FROM_GAME: (EventKind.WOULD_LEAVE_PLAY, EventKind.LEAVES_PLAY),
    CostKind.RETURN_TO_SHADOWS: (EventKind.WOULD_LEAVE_PLAY, EventKind.LEAVES_PLAY),
}
# which effect kinds make a cost payable again
_ENABLES: dict[CostKind, tuple[EffectKind, ...]] = {
    CostKind.KNEEL: (EffectKind.STAND,),
    CostKind.PAY_GOLD: (EffectKind.GAIN_GOLD,),
    CostKind.DISCARD_FROM_HAND: (EffectKind.DRAW, EffectKind.RETURN_TO_HAND),
    CostKind.DISCARD_POWER: (EffectKind.GAIN_POWER, EffectKind.MOVE_POWER),
    CostKind.SACRIFICE: (EffectKind.PUT_INTO_PLAY,),
    CostKind.RETURN_TO_HAND: (EffectKind.PUT_INTO_PLAY,),
    CostKind.REMOVE_FROM_GAME: (EffectKind.PUT_INTO_PLAY,),
    CostKind.DISCARD_GOLD: (),
}


@dataclass(frozen=True)
class CardFacts:
    """What the graph needs to know of a card to test subject filters."""

    code: str
    name: str
    type: str
    faction: str
    traits: tuple[str, ...] = ()


@dataclass(frozen=True)
class GraphEdge:
    """An edge with its kind (``triggers``/``enables``) and human-readable reason."""

    src: NodeKey
    dst: NodeKey
    kind: str
    reason: str


@dataclass(frozen=True)
class Candidate:
    """A loop candidate: a simple cycle of the ability graph.

    ``bounded_by`` lists the printed limits on the cycle's abilities (any one
    bounds the loop); ``forced`` is true when every ability of the cycle is
    mandatory (a loop that could hang a game); ``fully_compiled`` when every
    ability's text was fully understood.
    """

    cards: tuple[str, ...]
    abilities: tuple[NodeKey, ...]
    edges: tuple[GraphEdge, ...]
    bounded_by: tuple[str, ...]
    forced: bool
    fully_compiled: bool


def facts_from_pool(pool: "Pool") -> dict[str, CardFacts]:
    """Card facts for every card of a pool."""
    return {c.code: CardFacts(c.code, c.name, c.type, c.faction, c.traits) for c in pool.cards}


# ---------------------------------------------------------------------------
# matching


@dataclass(frozen=True)
class _Thing:
    """A concrete card (``code``) or a filter (``subject``) an effect touches or a trigger names."""

    code: str | None
    subject: Subject


def _produced(target: Target, code: str, facts: Mapping[str, CardFacts]) -> _Thing:
    if target.ref is TargetRef.SELF or target.subject.scope is Scope.SELF:
        return _Thing(code, target.subject)
    if target.ref is TargetRef.ATTACHED:
        return _Thing(None, Subject(Scope.ANY, CardKind.CHARACTER))
    return _Thing(None, target.subject)


def _wanted(subject: Subject, code: str) -> _Thing:
    if subject.scope is Scope.SELF:
        return _Thing(code, subject)
    if subject.scope is Scope.ATTACHED:
        return _Thing(None, Subject(Scope.ANY, subject.card_type or CardKind.CHARACTER))
    return _Thing(None, subject)


def _types_ok(a: CardKind | None, b: CardKind | None) -> bool:
    if a is None or b is None:
        return True
    if CardKind.FACTION_CARD in (a, b):
        return a is b
    return a is b or CardKind.CARD in (a, b)


def _scope_ok(a: Scope, b: Scope) -> bool:
    return not ((a in _YOURS and b in _THEIRS) or (a in _THEIRS and b in _YOURS))


def _card_satisfies(f: CardFacts | None, s: Subject, other_code: str | None, code: str) -> bool:
    """Does the concrete card ``code`` (controlled by you) satisfy filter ``s``?"""
    if s.scope in _THEIRS:
        return False
    if "other" in s.qualifiers and other_code == code:
        return False
    if f is None:
        return True
    kind = CardKind(f.type) if f.type in {k.value for k in CardKind} else CardKind.CARD
    if not _types_ok(kind, s.card_type):
        return False
    if s.traits and not set(s.traits) & set(f.traits):
        return False
    if s.factions and f.faction not in s.factions:
        return False
    for q in s.qualifiers:
        if q.startswith("non-") and (q[4:] == f.faction or q[4:] in f.traits):
            return False
    return True


def _match(prod: _Thing, prod_code: str, want: _Thing, want_code: str,
           facts: Mapping[str, CardFacts]) -> str | None:
    """Return a reason string when ``prod`` can be the thing ``want`` names, else ``None``."""
    if prod.code is not None and want.code is not None:
        return "same card" if prod.code == want.code else None
    if prod.code is not None:
        ok = _card_satisfies(facts.get(prod.code), want.subject, want_code, prod.code)
        return f"{prod.code} matches {_describe(want.subject)}" if ok else None
    if want.code is not None:
        ok = _card_satisfies(facts.get(want.code), prod.subject, prod_code, want.code)
        return f"{want.code} matches {_describe(prod.subject)}" if ok else None
    a, b = prod.subject, want.subject
    if not _types_ok(a.card_type, b.card_type) or not _scope_ok(a.scope, b.scope):
        return None
    if a.factions and b.factions and not set(a.factions) & set(b.factions):
        return None
    return f"{_describe(a)} overlaps {_describe(b)}"


def _describe(s: Subject) -> str:
    bits = [*s.qualifiers, *(f"[{f}]" for f in s.factions), *s.traits,
            s.card_type.value if s.card_type else "player", s.scope.value.replace("_", " ")]
    return " ".join(bits)


def _phase_of(a: Ability) -> Phase | None:
    if a.phase is not None:
        return a.phase
    if a.trigger is not None:
        return a.trigger.phase
    return Phase.PLOT if a.type is AbilityType.WHEN_REVEALED else None


def _phases_ok(a: Ability, b: Ability) -> bool:
    pa, pb = _phase_of(a), _phase_of(b)
    return pa is None or pb is None or pa is pb


def _answers(event: EventKind, kind_name: str, trig: Trigger) -> bool:
    if trig.event is event:
        return True
    # "after X is sacrificed or killed" answers a sacrifice as well
    return event is EventKind.SACRIFICED and trig.event is EventKind.KILLED and "or sacrificed" in trig.conditions


# ---------------------------------------------------------------------------
# building


def build_ability_graph(abilities: Mapping[str, tuple[Ability, ...]],
                        facts: Mapping[str, CardFacts] | None = None) -> nx.DiGraph:
    """Build the ability graph.

    Parameters
    ----------
    abilities
        Card code -> abilities (compiled or overridden).
    facts
        Card code -> :class:`CardFacts` for filter tests; a card without facts
        matches any type/trait/faction filter (optimistic, never prunes).

    Returns
    -------
    networkx.DiGraph
        Nodes ``(code, index)`` with string attributes ``code``, ``index``,
        ``name``, ``type``, ``compiled``, ``label``, ``limit``; edges with
        ``kind`` (``triggers``, ``enables`` or ``triggers+enables``) and
        ``reason``.

    Examples
    --------
    >>> from ruleproof.cards.compiler import compile_text
    >>> a = compile_text("<b>Action:</b> Kneel Foo to stand a character you control.", "Foo")
    >>> b = compile_text("<b>Action:</b> Kneel Bar to stand a character you control.", "Bar")
    >>> g = build_ability_graph({"1": a, "2": b})
    >>> sorted(g.edges())
    [(('1', 0), ('1', 0)), (('1', 0), ('2', 0)), (('2', 0), ('1', 0)), (('2', 0), ('2', 0))]
    """
    facts = facts or {}
    g: nx.DiGraph = nx.DiGraph()
    nodes: list[tuple[NodeKey, Ability]] = []
    for code in abilities:
        for i, a in enumerate(abilities[code]):
            if a.type not in _INITIATED:
                continue
            key = (code, i)
            f = facts.get(code)
            g.add_node(key, code=code, index=str(i), name=f.name if f else code, type=a.type.value,
                       compiled=a.compiled.value, label=f"{f.name if f else code} #{i} ({a.type.value})",
                       limit=(f"{a.limit.kind.value} {a.limit.count} per {a.limit.period.value}" if a.limit else ""))
            nodes.append((key, a))
    by_event: dict[EventKind, list[tuple[NodeKey, Ability]]] = {}
    by_cost: dict[CostKind, list[tuple[NodeKey, Ability, Cost]]] = {}
    for key, a in nodes:
        if a.trigger is not None:
            by_event.setdefault(a.trigger.event, []).append((key, a))
        for c in a.costs:
            by_cost.setdefault(c.kind, []).append((key, a, c))
    reasons: dict[tuple[NodeKey, NodeKey], dict[str, list[str]]] = {}

    def add(src: NodeKey, dst: NodeKey, kind: str, reason: str) -> None:
        slot = reasons.setdefault((src, dst), {})
        lst = slot.setdefault(kind, [])
        if reason not in lst:
            lst.append(reason)

    for key, a in nodes:
        code = key[0]
        produced: list[tuple[EventKind, Target, str]] = []
        for c in a.costs:
            for ev in _COST_EVENTS.get(c.kind, ()):
                produced.append((ev, c.target, f"cost {c.kind.value}"))
        for e in a.effects:
            for ev in _EFFECT_EVENTS.get(e.kind, ()):
                produced.append((ev, e.target, f"effect {e.kind.value}"))
        for ev, tgt, what in produced:
            candidates = list(by_event.get(ev, ()))
            if ev is EventKind.SACRIFICED:
                candidates += by_event.get(EventKind.KILLED, ())
            for bkey, b in candidates:
                assert b.trigger is not None
                if not _answers(ev, what, b.trigger) or not _phases_ok(a, b):
                    continue
                if tgt.ref is TargetRef.PLAYER or b.trigger.subject.card_type is None:
                    if not _scope_ok(tgt.subject.scope, b.trigger.subject.scope):
                        continue
                    why = "players compatible"
                else:
                    m = _match(_produced(tgt, code, facts), code, _wanted(b.trigger.subject, bkey[0]), bkey[0], facts)
                    if m is None:
                        continue
                    why = m
                add(key, bkey, "triggers", f"{what} -> {ev.value} ({why})")
        for e in a.effects:
            for ck, kinds in _ENABLES.items():
                if e.kind not in kinds:
                    continue
                for bkey, b, cost in by_cost.get(ck, ()):
                    if not _phases_ok(a, b):
                        continue
                    if ck in (CostKind.PAY_GOLD, CostKind.DISCARD_FROM_HAND):
                        if not _scope_ok(e.target.subject.scope, Scope.YOU):
                            continue
                        why = "your resources"
                    else:
                        m = _match(_produced(e.target, code, facts), code, _wanted(cost.target.subject, bkey[0])
                                   if cost.target.ref is not TargetRef.SELF else _Thing(bkey[0], cost.target.subject),
                                   bkey[0], facts)
                        if m is None:
                            continue
                        why = m
                    add(key, bkey, "enables", f"effect {e.kind.value} re-enables cost {ck.value} ({why})")
    for (src, dst), kinds in sorted(reasons.items()):
        g.add_edge(src, dst, kind="+".join(sorted(kinds)),
                   reason="; ".join(r for k in sorted(kinds) for r in kinds[k]))
    return g


def _limit_text(g: nx.DiGraph, key: NodeKey) -> str:
    lim = str(g.nodes[key].get("limit", ""))
    return f"{key[0]}#{key[1]}: {lim}" if lim else ""


def find_candidates(g: nx.DiGraph, max_length: int = 3, max_candidates: int = 1000,
                    include_self_loops: bool = True, focus: Iterable[str] | None = None) -> tuple[Candidate, ...]:
    """Loop candidates: simple cycles of length <= ``max_length``, one per node set.

    Cycles are searched inside strongly connected components only; the search
    stops after ``max_candidates`` distinct candidates.  Results are sorted
    (fewest cards first, then by node keys) so output is deterministic.

    Parameters
    ----------
    g
        An ability graph from :func:`build_ability_graph`.
    max_length
        Longest cycle (in abilities) to report.
    max_candidates
        Stop after this many candidates.
    include_self_loops
        Report one-ability cycles (an ability that re-triggers itself).
    focus
        Only keep cycles that touch at least one of these card codes.
    """
    wanted = set(focus) if focus is not None else None
    seen: set[frozenset[NodeKey]] = set()
    found: list[Candidate] = []
    comps = sorted((sorted(c) for c in nx.strongly_connected_components(g)), key=lambda c: c[0])
    for comp in comps:
        if len(comp) == 1 and not g.has_edge(comp[0], comp[0]):
            continue
        sub = g.subgraph(comp)
        for cycle in nx.simple_cycles(sub, length_bound=max_length):
            if len(cycle) == 1 and not include_self_loops:
                continue
            key = frozenset(cycle)
            if key in seen:
                continue
            codes = tuple(dict.fromkeys(n[0] for n in cycle))
            if wanted is not None and not wanted & set(codes):
                continue
            seen.add(key)
            start = cycle.index(min(cycle))
            cyc = cycle[start:] + cycle[:start]
            edges = tuple(
                GraphEdge(cyc[i], cyc[(i + 1) % len(cyc)], str(g.edges[cyc[i], cyc[(i + 1) % len(cyc)]]["kind"]),
                          str(g.edges[cyc[i], cyc[(i + 1) % len(cyc)]]["reason"]))
                for i in range(len(cyc))
            )
            found.append(Candidate(
                cards=tuple(sorted(set(codes))),
                abilities=tuple(cyc),
                edges=edges,
                bounded_by=tuple(t for t in (_limit_text(g, n) for n in cyc) if t),
                forced=all(g.nodes[n]["type"] in {t.value for t in _FORCED} for n in cyc),
                fully_compiled=all(g.nodes[n]["compiled"] == Compiled.FULL.value for n in cyc),
            ))
            if len(found) >= max_candidates:
                break
        if len(found) >= max_candidates:
            break
    return tuple(sorted(found, key=lambda c: (len(c.cards), len(c.abilities), c.abilities)))
