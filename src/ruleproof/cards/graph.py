"""The ability graph: which card ability can set off (or re-enable) which.

Nodes are ``(card key, ability index)`` for initiated abilities (actions,
reactions, interrupts, forced ones, when-revealed).  A card key is the card
code for a card *you* control and ``opp:CODE`` for a copy the *opponent*
controls (:func:`card_key`, :func:`split_key`); each node carries its
``controller`` (``you`` / ``opponent``).  There is an edge ``A -> B`` when an
effect or cost of ``A`` can raise a triggering condition ``B`` answers
(``triggers``), or can make ``B``'s cost payable again (``enables``: ``A``
stands what ``B`` kneels, gives the gold ``B`` pays, draws the card ``B``
discards ...; or, for an action ``B`` with no cost, kneels what ``B``
stands or stands what ``B`` kneels, so that ``B`` could change the game
state again).

Subject filters (self / you control / opponent controls, type, trait,
faction), phase restrictions and ownership vs control are honoured *per
controller*: a scope is read relative to the controller of the ability that
prints it ("a character an opponent controls" on your card names the
opponent's characters; on the opponent's card it names yours), so an effect
of one player's ability can answer the other player's trigger (an edge
across players, marked in its reason).  Costs are paid with the paying
player's own cards and resources (Costs).  A discard *from hand* ("discard 1
card from your hand", "each opponent discards 1 card from his or her hand")
answers only a "discarded from your hand" trigger of the player whose hand it
is, and a discard from play only the other discard triggers.  Put-into-play
edges name the zones the card comes from.  Cycles of the graph are loop
candidates for the Z3 loop check.

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
    Effect,
    EffectKind,
    EventKind,
    Phase,
    Scope,
    Subject,
    Target,
    TargetRef,
    Trigger,
    Zone,
    describe_subject,
)

if TYPE_CHECKING:
    from ruleproof.cards.pool import Pool

__all__ = [
    "OPPONENT",
    "OPP_PREFIX",
    "YOU",
    "Candidate",
    "CardFacts",
    "GraphEdge",
    "NodeKey",
    "build_ability_graph",
    "card_key",
    "facts_from_pool",
    "find_candidates",
    "split_key",
    "two_player_abilities",
]

NodeKey = tuple[str, int]

#: The two controllers of the graph (the players, relative to the one searching).
YOU = "you"
OPPONENT = "opponent"
#: Card keys of opponent-controlled copies start with this (as ``ruleproof loops --cards opp:CODE``).
OPP_PREFIX = "opp:"

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
_BOTH = frozenset({YOU, OPPONENT})
_POSSESSIVE = {YOU: "your", OPPONENT: "the opponent's"}

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
    EffectKind.DISCARD_FROM_HAND: (EventKind.DISCARDED,),
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
    CostKind.DISCARD_FROM_HAND: (EventKind.DISCARDED,),
}
_HAND_DISCARDS = {EffectKind.DISCARD_FROM_HAND.value, CostKind.DISCARD_FROM_HAND.value}
# which effect kinds make a cost payable again
_ENABLES: dict[CostKind, tuple[EffectKind, ...]] = {
    CostKind.KNEEL: (EffectKind.STAND,),
    CostKind.PAY_GOLD: (EffectKind.GAIN_GOLD,),
    CostKind.DISCARD_FROM_HAND: (EffectKind.DRAW, EffectKind.RETURN_TO_HAND),
    CostKind.DISCARD_POWER: (EffectKind.GAIN_POWER, EffectKind.MOVE_POWER),
    CostKind.SACRIFICE: (EffectKind.PUT_INTO_PLAY,),
    CostKind.RETURN_TO_HAND: (EffectKind.PUT_INTO_PLAY,),
    CostKind.REMOVE_FROM_GAME: (EffectKind.PUT_INTO_PLAY,),
    CostKind.KILL: (EffectKind.PUT_INTO_PLAY,),
    CostKind.DISCARD_FROM_PLAY: (EffectKind.PUT_INTO_PLAY,),
    CostKind.RETURN_TO_SHADOWS: (EffectKind.PUT_INTO_PLAY,),
    CostKind.DISCARD_GOLD: (EffectKind.GAIN_GOLD,),  # gold placed on the card the cost takes it from
}


def card_key(code: str, controller: str = YOU) -> str:
    """The key of a card in the ability graph: ``code`` for you, ``opp:code`` for the opponent.

    >>> card_key("01001", OPPONENT), split_key("opp:01001")
    ('opp:01001', ('opponent', '01001'))
    """
    if controller not in _BOTH:
        raise ValueError(f"unknown controller {controller!r}")
    return OPP_PREFIX + code if controller == OPPONENT else code


def split_key(key: str) -> tuple[str, str]:
    """``(controller, code)`` of a card key (see :func:`card_key`)."""
    if key.startswith(OPP_PREFIX):
        return OPPONENT, key[len(OPP_PREFIX):]
    return YOU, key


def two_player_abilities(compiled: Mapping[str, tuple[Ability, ...]], mine: Iterable[str] | None,
                         opponent: Iterable[str] = ()) -> dict[str, tuple[Ability, ...]]:
    """Abilities by card key: ``mine`` as yours (``None``: every compiled card), ``opponent`` as ``opp:CODE``.

    A code in both gets a copy on each side.  Codes missing from ``compiled``
    are skipped; the order is ``compiled``'s, yours before the opponent's.

    >>> two_player_abilities({"1": (), "2": ()}, ["1"], ["1", "2"])
    {'1': (), 'opp:1': (), 'opp:2': ()}
    """
    yours = set(compiled) if mine is None else set(mine)
    theirs = set(opponent)
    out = {card_key(c): a for c, a in compiled.items() if c in yours}
    out.update({card_key(c, OPPONENT): a for c, a in compiled.items() if c in theirs})
    return out


def _other(controller: str) -> str:
    return OPPONENT if controller == YOU else YOU


def _sides(scope: Scope, controller: str) -> frozenset[str]:
    """Which players a scope printed on an ability of ``controller`` can name."""
    if scope in _YOURS:
        return frozenset({controller})
    if scope in _THEIRS:
        return frozenset({_other(controller)})
    return _BOTH


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

    ``cards`` are card keys (``opp:CODE`` for an opponent's copy).
    ``bounded_by`` lists the printed limits on the cycle's abilities (any one
    bounds the loop); ``forced`` is true when every ability of the cycle is
    mandatory (a loop that could hang a game); ``fully_compiled`` when every
    ability's text was fully understood.  ``controllers`` gives the
    controller (``you`` / ``opponent``) of each ability, in cycle order.
    """

    cards: tuple[str, ...]
    abilities: tuple[NodeKey, ...]
    edges: tuple[GraphEdge, ...]
    bounded_by: tuple[str, ...]
    forced: bool
    fully_compiled: bool
    controllers: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        """The players controlling some ability of the cycle (``you`` first)."""
        ctl = set(self.controllers or (split_key(k)[0] for k, _ in self.abilities))
        return tuple(p for p in (YOU, OPPONENT) if p in ctl)

    @property
    def cross_player(self) -> bool:
        """True when abilities of both players are on the cycle."""
        return len(self.players) > 1


def facts_from_pool(pool: "Pool") -> dict[str, CardFacts]:
    """Card facts for every card of a pool."""
    return {c.code: CardFacts(c.code, c.name, c.type, c.faction, c.traits) for c in pool.cards}


# ---------------------------------------------------------------------------
# matching


@dataclass(frozen=True)
class _Thing:
    """A concrete card (``key``) or a filter (``subject`` over the cards of ``sides``) an effect touches or a
    trigger names."""

    key: str | None
    subject: Subject
    sides: frozenset[str]
    controller: str = YOU  # of the ability whose text names it (scopes are relative to that player)


def _produced(target: Target, key: str, controller: str, cost: bool) -> _Thing:
    """What a cost or effect of the ability on card ``key`` acts on (a cost only on the payer's own cards)."""
    if target.ref is TargetRef.SELF or target.subject.scope is Scope.SELF:
        return _Thing(key, target.subject, frozenset({controller}))
    if target.ref is TargetRef.ATTACHED:
        return _Thing(None, Subject(Scope.ANY, CardKind.CHARACTER), _BOTH)
    return _Thing(None, target.subject, frozenset({controller}) if cost else _sides(target.subject.scope, controller),
                  controller)


def _wanted(subject: Subject, key: str, controller: str) -> _Thing:
    if subject.scope is Scope.SELF:
        return _Thing(key, subject, frozenset({controller}))
    if subject.scope is Scope.ATTACHED:
        return _Thing(None, Subject(Scope.ANY, subject.card_type or CardKind.CHARACTER), _BOTH)
    return _Thing(None, subject, _sides(subject.scope, controller), controller)


def _types_ok(a: CardKind | None, b: CardKind | None) -> bool:
    if a is None or b is None:
        return True
    if CardKind.FACTION_CARD in (a, b):
        return a is b
    return a is b or CardKind.CARD in (a, b)


def _card_satisfies(f: CardFacts | None, want: _Thing, other_key: str | None, key: str) -> bool:
    """Does the concrete card ``key`` (controlled as its key says) satisfy the filter ``want``?"""
    s = want.subject
    if split_key(key)[0] not in want.sides:
        return False
    if s.other and other_key == key:
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
    if f.faction in s.not_factions or set(s.not_traits) & set(f.traits):
        return False
    return True


def _match(prod: _Thing, prod_key: str, want: _Thing, want_key: str,
           facts: Mapping[str, CardFacts]) -> str | None:
    """Return a reason string when ``prod`` can be the thing ``want`` names, else ``None``."""
    if prod.key is not None and want.key is not None:
        return "same card" if prod.key == want.key else None
    if prod.key is not None:
        ok = _card_satisfies(facts.get(split_key(prod.key)[1]), want, want_key, prod.key)
        return f"{prod.key} matches {_describe(want)}" if ok else None
    if want.key is not None:
        ok = _card_satisfies(facts.get(split_key(want.key)[1]), prod, prod_key, want.key)
        return f"{want.key} matches {_describe(prod)}" if ok else None
    a, b = prod.subject, want.subject
    if not _types_ok(a.card_type, b.card_type) or not prod.sides & want.sides:
        return None
    if a.factions and b.factions and not set(a.factions) & set(b.factions):
        return None
    return f"{_describe(prod)} overlaps {_describe(want)}"


def _describe(t: _Thing) -> str:
    s = t.subject
    bits = [describe_subject(s) if s.card_type else "player", s.scope.value.replace("_", " ")]
    if t.controller == OPPONENT and t.sides != _BOTH and s.scope in _YOURS | _THEIRS and s.scope is not Scope.SELF:
        bits.append(f"(i.e. {_POSSESSIVE[next(iter(t.sides))]} cards)")
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
    from_hand = kind_name.split()[-1] in _HAND_DISCARDS
    if event is EventKind.DISCARDED and from_hand != (trig.from_zone is Zone.HAND):
        return False  # a discard from hand and a discard from play are different triggering conditions
    if trig.event is event:
        return True
    # "after X is sacrificed or killed" answers a sacrifice as well
    return event is EventKind.SACRIFICED and trig.event is EventKind.KILLED and EventKind.SACRIFICED in trig.also_events


def _zones_text(e: object) -> str:
    zones = getattr(e, "from_zones", ())
    return f" from {' or '.join(z.value.replace('_', ' ') for z in zones)}" if zones else ""


# ---------------------------------------------------------------------------
# building


def build_ability_graph(abilities: Mapping[str, tuple[Ability, ...]],
                        facts: Mapping[str, CardFacts] | None = None) -> nx.DiGraph:
    """Build the ability graph.

    Parameters
    ----------
    abilities
        Card key -> abilities (compiled or overridden).  A key is a card code
        (a card you control) or ``opp:CODE`` (the opponent's copy); both may
        be present for one code.
    facts
        Card code -> :class:`CardFacts` for filter tests; a card without facts
        matches any type/trait/faction filter (optimistic, never prunes).

    Returns
    -------
    networkx.DiGraph
        Nodes ``(key, index)`` with string attributes ``code`` (the card
        code), ``key``, ``controller`` (``you``/``opponent``), ``index``,
        ``name``, ``type``, ``compiled``, ``label``, ``limit``; edges with
        ``kind`` (``triggers``, ``enables`` or ``triggers+enables``),
        ``reason`` and ``cross_player`` (``true`` when the two abilities have
        different controllers).

    Examples
    --------
    >>> from ruleproof.cards.compiler import compile_text
    >>> a = compile_text("<b>Action:</b> Kneel Foo to stand a character you control.", "Foo")
    >>> b = compile_text("<b>Action:</b> Kneel Bar to stand a character you control.", "Bar")
    >>> g = build_ability_graph({"1": a, "2": b})
    >>> sorted(g.edges())
    [(('1', 0), ('1', 0)), (('1', 0), ('2', 0)), (('2', 0), ('1', 0)), (('2', 0), ('2', 0))]
    >>> sorted(build_ability_graph({"1": a, "opp:2": b}).edges())  # each stands only its own controller's cards
    [(('1', 0), ('1', 0)), (('opp:2', 0), ('opp:2', 0))]
    """
    facts = facts or {}
    g: nx.DiGraph = nx.DiGraph()
    nodes: list[tuple[NodeKey, Ability]] = []
    ctl: dict[str, str] = {}
    for key in abilities:
        controller, code = split_key(key)
        ctl[key] = controller
        for i, a in enumerate(abilities[key]):
            if a.type not in _INITIATED:
                continue
            node = (key, i)
            f = facts.get(code)
            name = f.name if f else code
            who = "opp: " if controller == OPPONENT else ""
            g.add_node(node, code=code, key=key, controller=controller, index=str(i), name=name, type=a.type.value,
                       compiled=a.compiled.value, label=f"{who}{name} #{i} ({a.type.value})",
                       limit=(f"{a.limit.kind.value} {a.limit.count} per {a.limit.period.value}" if a.limit else ""))
            nodes.append((node, a))
    by_event: dict[EventKind, list[tuple[NodeKey, Ability]]] = {}
    by_cost: dict[CostKind, list[tuple[NodeKey, Ability, Cost]]] = {}
    # actions with no cost whose effect stands or kneels: only the effect's target state limits them
    free: dict[EffectKind, list[tuple[NodeKey, Ability, Effect]]] = {}
    for node, a in nodes:
        if a.trigger is not None:
            by_event.setdefault(a.trigger.event, []).append((node, a))
        for c in a.costs:
            by_cost.setdefault(c.kind, []).append((node, a, c))
        if a.type is AbilityType.ACTION and not a.costs:
            for e in a.effects:
                if e.kind in (EffectKind.STAND, EffectKind.KNEEL):
                    free.setdefault(e.kind, []).append((node, a, e))
    reasons: dict[tuple[NodeKey, NodeKey], dict[str, list[str]]] = {}

    def add(src: NodeKey, dst: NodeKey, kind: str, reason: str) -> None:
        slot = reasons.setdefault((src, dst), {})
        lst = slot.setdefault(kind, [])
        if reason not in lst:
            lst.append(reason)

    for node, a in nodes:
        key = node[0]
        me = ctl[key]
        produced: list[tuple[EventKind, _Thing, Target, str]] = []
        for c in a.costs:
            for ev in _COST_EVENTS.get(c.kind, ()):
                produced.append((ev, _produced(c.target, key, me, True), c.target, f"cost {c.kind.value}"))
        for e in a.effects:
            for ev in _EFFECT_EVENTS.get(e.kind, ()):
                produced.append((ev, _produced(e.target, key, me, False), e.target, f"effect {e.kind.value}"))
        for ev, thing, tgt, what in produced:
            candidates = list(by_event.get(ev, ()))
            if ev is EventKind.SACRIFICED:
                candidates += by_event.get(EventKind.KILLED, ())
            for bnode, b in candidates:
                assert b.trigger is not None
                if not _answers(ev, what, b.trigger) or not _phases_ok(a, b):
                    continue
                bkey = bnode[0]
                hand_discard = what.split()[-1] in _HAND_DISCARDS
                if tgt.is_player or b.trigger.subject.card_type is None or hand_discard:
                    # a player (or a player's hand): whose, relative to each ability's controller
                    whose = frozenset({me}) if what.startswith("cost") else _sides(tgt.subject.scope, me)
                    wanted = frozenset({ctl[bkey]}) if hand_discard else _sides(b.trigger.subject.scope, ctl[bkey])
                    if not whose & wanted:
                        continue
                    why = ("players compatible" if not hand_discard
                           else " or ".join(f"{_POSSESSIVE[p]} hand" for p in sorted(whose & wanted, reverse=True)))
                else:
                    m = _match(thing, key, _wanted(b.trigger.subject, bkey, ctl[bkey]), bkey, facts)
                    if m is None:
                        continue
                    why = m
                add(node, bnode, "triggers", f"{what} -> {ev.value} ({why})")
        for e in a.effects:
            for ck, kinds in _ENABLES.items():
                if e.kind not in kinds:
                    continue
                for bnode, b, cost in by_cost.get(ck, ()):
                    if not _phases_ok(a, b):
                        continue
                    bkey = bnode[0]
                    # gold in a player's pool pays gold costs; gold on a card pays "discard N gold from" that card
                    on_card = not e.target.is_player
                    if e.kind is EffectKind.GAIN_GOLD and (ck is CostKind.DISCARD_GOLD) != on_card:
                        continue
                    if ck in (CostKind.PAY_GOLD, CostKind.DISCARD_FROM_HAND):
                        if ctl[bkey] not in _sides(e.target.subject.scope, me):
                            continue
                        why = "your resources" if ctl[bkey] == me else "the other player's resources"
                    else:
                        want = (_wanted(cost.target.subject, bkey, ctl[bkey]) if cost.target.ref is not TargetRef.SELF
                                else _Thing(bkey, cost.target.subject, frozenset({ctl[bkey]}), ctl[bkey]))
                        # a cost is paid with its payer's own cards (Costs)
                        want = _Thing(want.key, want.subject, want.sides & frozenset({ctl[bkey]}), want.controller)
                        m = _match(_produced(e.target, key, me, False), key, want, bkey, facts)
                        if m is None:
                            continue
                        why = m
                    add(node, bnode, "enables",
                        f"effect {e.kind.value}{_zones_text(e)} re-enables cost {ck.value} ({why})")
        # a cost-free action that stands (kneels) can change the game state again once something kneels (stands)
        # what it targets (Abilities: an ability can be initiated only if its effect could change the game state)
        turns: list[tuple[EffectKind, Target, str]] = [
            (EffectKind.STAND if c.kind is CostKind.KNEEL else EffectKind.KNEEL, c.target, f"cost {c.kind.value}")
            for c in a.costs if c.kind in (CostKind.KNEEL, CostKind.STAND)]
        turns += [(EffectKind.STAND if e.kind is EffectKind.KNEEL else EffectKind.KNEEL, e.target,
                   f"effect {e.kind.value}") for e in a.effects if e.kind in (EffectKind.KNEEL, EffectKind.STAND)]
        for needs, tgt, what in turns:
            for bnode, b, be in free.get(needs, ()):
                if not _phases_ok(a, b):
                    continue
                bkey = bnode[0]
                want = (_Thing(bkey, be.target.subject, frozenset({ctl[bkey]}), ctl[bkey])
                        if be.target.ref is TargetRef.SELF else _wanted(be.target.subject, bkey, ctl[bkey]))
                m = _match(_produced(tgt, key, me, what.startswith("cost")), key, want, bkey, facts)
                if m is not None:
                    add(node, bnode, "enables", f"{what} re-enables effect {be.kind.value} ({m})")
    for (src, dst), by_kind in sorted(reasons.items()):
        cross = ctl[src[0]] != ctl[dst[0]]
        text = "; ".join(r for k in sorted(by_kind) for r in by_kind[k])
        if cross:
            text = f"[{_POSSESSIVE[ctl[src[0]]]} ability -> {_POSSESSIVE[ctl[dst[0]]]} ability] {text}"
        g.add_edge(src, dst, kind="+".join(sorted(by_kind)), reason=text, cross_player="true" if cross else "false")
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
        Only keep cycles that touch at least one of these card keys (or card
        codes: a code matches both players' copies).
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
            node_set = frozenset(cycle)
            if node_set in seen:
                continue
            keys = tuple(dict.fromkeys(n[0] for n in cycle))
            if wanted is not None and not wanted & (set(keys) | {split_key(k)[1] for k in keys}):
                continue
            seen.add(node_set)
            start = cycle.index(min(cycle))
            cyc = cycle[start:] + cycle[:start]
            edges = tuple(
                GraphEdge(cyc[i], cyc[(i + 1) % len(cyc)], str(g.edges[cyc[i], cyc[(i + 1) % len(cyc)]]["kind"]),
                          str(g.edges[cyc[i], cyc[(i + 1) % len(cyc)]]["reason"]))
                for i in range(len(cyc))
            )
            found.append(Candidate(
                cards=tuple(sorted(set(keys))),
                abilities=tuple(cyc),
                edges=edges,
                bounded_by=tuple(t for t in (_limit_text(g, n) for n in cyc) if t),
                forced=all(g.nodes[n]["type"] in {t.value for t in _FORCED} for n in cyc),
                fully_compiled=all(g.nodes[n]["compiled"] == Compiled.FULL.value for n in cyc),
                controllers=tuple(str(g.nodes[n].get("controller", split_key(n[0])[0])) for n in cyc),
            ))
            if len(found) >= max_candidates:
                break
        if len(found) >= max_candidates:
            break
    return tuple(sorted(found, key=lambda c: (len(c.cards), len(c.abilities), c.abilities)))
