"""The ability graph: which card ability can set off (or re-enable) which.

Nodes are ``(card key, ability index)`` for initiated abilities (actions,
reactions, interrupts, forced ones, when revealed).  A card key is the card
code for a card *you* control and ``opp:CODE`` for a copy the *opponent*
controls (:func:`card_key`, :func:`split_key`); each node carries its
``controller`` (``you`` / ``opponent``).  What each cost and effect does comes
from one table, :mod:`ruleproof.cards.semantics` (the loop encoder reads the
same table).  There is an edge ``A -> B`` when

* a cost or effect of ``A`` raises a triggering condition ``B`` answers
  (``triggers``: :func:`~ruleproof.cards.semantics.raises`,
  :func:`~ruleproof.cards.semantics.answers`), or
* a cost or effect of ``A`` makes a resource a cost of ``B`` needs
  (``enables``: ``A`` stands what ``B`` kneels, gives the gold ``B`` pays,
  draws the card ``B`` discards, puts into the discard pile the card ``B``
  puts into play from there ...: :func:`~ruleproof.cards.semantics.makes`,
  :func:`~ruleproof.cards.semantics.needs`), or, for an action ``B`` with no
  cost, a resource its effect needs to change the game state again.

Subject filters (self / you control / opponent controls, type, trait,
faction, printed values: :func:`~ruleproof.cards.semantics.fits`), phase
restrictions and ownership vs control are honoured *per controller*: a scope
is read relative to the controller of the ability that prints it ("a
character an opponent controls" on your card names the opponent's
characters; on the opponent's card it names yours), so an effect of one
player's ability can answer the other player's trigger (an edge across
players, marked in its reason).  Costs are paid with the paying player's own
cards and resources (Costs).  A discard *from hand* answers only a "discarded
from your hand" trigger of the player whose hand it is, and a discard from
play only the other discard triggers.  A card another card of the graph may
take control of ("take control of that character", Yoren; "take control of
attached character", Ward; "any player may ... take control of ~", Bronn) is
matched as a card of either player (:func:`takeable`): the cycle it closes under
the taker's control is a candidate, and the loop encoder decides it.  Cycles of
the graph are loop candidates for the Z3 loop check.

Text that was not read can link abilities too: :func:`unread_links` gives,
for abilities with unread clauses that could add a link (an unread effect,
cost, trigger or whole ability), the cards they could link to, so that a
search can tell "no cycle" from "no cycle through the text that was read".

All node and edge attributes are strings, so the graph writes as DOT or GraphML
as it is.  No z3 here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Mapping

import networkx as nx

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    ClauseRole,
    Compiled,
    Cost,
    Effect,
    EffectKind,
    EventKind,
    Scope,
    Subject,
    Target,
    TargetRef,
    Unread,
    describe_subject,
)
from ruleproof.cards.semantics import (
    BOTH,
    CONTROL_RES,
    OPPONENT,
    OWNER_SCOPES,
    PLAYER_RES,
    RULES,
    THEIRS,
    YOU,
    YOURS,
    CardFacts,
    Place,
    Res,
    answers,
    fits,
    initiated,
    initiation_raises,
    is_forced,
    makes,
    needs,
    other_side,
    parts_of,
    phase_of,
    raises,
    sides,
    trigger_of,
)

if TYPE_CHECKING:
    from ruleproof.cards.pool import Pool

__all__ = [
    "OPPONENT",
    "OPP_PREFIX",
    "YOU",
    "Candidate",
    "COPY_SEP",
    "CardFacts",
    "GraphEdge",
    "NodeKey",
    "build_ability_graph",
    "card_key",
    "facts_from_pool",
    "find_candidates",
    "first_copy",
    "same_card",
    "split_key",
    "takeable",
    "two_player_abilities",
    "unread_links",
]

NodeKey = tuple[str, int]
_Add = Callable[[NodeKey, NodeKey, str, str], None]

#: Card keys of opponent-controlled copies start with this (as ``ruleproof loops --cards opp:CODE``).
OPP_PREFIX = "opp:"
#: A further copy of a card for the same player: ``CODE/2`` is the second copy of ``CODE`` (a code named twice).
COPY_SEP = "/"
_POSSESSIVE = {YOU: "your", OPPONENT: "the opponent's"}
#: Unread clauses that could add a link the read text does not show: out of the ability (it could do more) ...
_LINKS_OUT = frozenset({ClauseRole.EFFECT, ClauseRole.OPTIONAL_EFFECT, ClauseRole.ALTERNATIVE, ClauseRole.REPLACEMENT,
                        ClauseRole.COST, ClauseRole.ABILITY})
#: ... and into it (it could be set off or re-enabled by more).
_LINKS_IN = frozenset({ClauseRole.TRIGGER, ClauseRole.COST, ClauseRole.ALTERNATIVE, ClauseRole.ABILITY})


def card_key(code: str, controller: str = YOU, copy: int = 1) -> str:
    """The key of a card in the ability graph: ``code`` for you, ``opp:code`` for the opponent; a second copy of
    the card for the same player is ``code/2`` (a third ``code/3``...).

    >>> card_key("01001", OPPONENT), split_key("opp:01001"), card_key("11051", copy=2), split_key("11051/2")
    ('opp:01001', ('opponent', '01001'), '11051/2', ('you', '11051'))
    """
    if controller not in BOTH:
        raise ValueError(f"unknown controller {controller!r}")
    key = OPP_PREFIX + code if controller == OPPONENT else code
    return key if copy == 1 else f"{key}{COPY_SEP}{copy}"


def split_key(key: str) -> tuple[str, str]:
    """``(controller, code)`` of a card key (see :func:`card_key`); every copy of a card has its code."""
    key = key.split(COPY_SEP, 1)[0]
    if key.startswith(OPP_PREFIX):
        return OPPONENT, key[len(OPP_PREFIX):]
    return YOU, key


def same_card(a: str, b: str) -> bool:
    """Are keys ``a`` and ``b`` copies of one card for one player (``CODE`` and ``CODE/2``)?"""
    return a.split(COPY_SEP, 1)[0] == b.split(COPY_SEP, 1)[0]


def first_copy(key: str) -> bool:
    """Is ``key`` a player's first copy of its card (not ``CODE/2``...)?"""
    return COPY_SEP not in key


def two_player_abilities(compiled: Mapping[str, tuple[Ability, ...]], mine: Iterable[str] | None,
                         opponent: Iterable[str] = ()) -> dict[str, tuple[Ability, ...]]:
    """Abilities by card key: ``mine`` as yours (``None``: every compiled card), ``opponent`` as ``opp:CODE``.

    A code in both gets a copy on each side; a code listed n times gets n
    copies on its side (``CODE``, ``CODE/2``...).  Codes missing from
    ``compiled`` are skipped; the order is ``compiled``'s, yours before the
    opponent's.

    >>> two_player_abilities({"1": (), "2": ()}, ["1", "1"], ["1", "2"])
    {'1': (), '1/2': (), 'opp:1': (), 'opp:2': ()}
    """
    yours = Counter(list(compiled)) if mine is None else Counter(mine)
    theirs = Counter(opponent)
    out = {card_key(c, YOU, n): a for c, a in compiled.items() for n in range(1, yours[c] + 1)}
    out.update({card_key(c, OPPONENT, n): a for c, a in compiled.items() for n in range(1, theirs[c] + 1)})
    return out


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


def facts_from_pool(pool: Pool) -> dict[str, CardFacts]:
    """Card facts for every card of a pool."""
    return {c.code: CardFacts(c.code, c.name, c.type, c.faction, c.traits, c.cost, c.strength, c.unique, c.loyal,
                              c.icons, c.keywords) for c in pool.cards}


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
        return _Thing(None, Subject(Scope.ANY, CardKind.CHARACTER), BOTH)
    return _Thing(None, target.subject, frozenset({controller}) if cost else sides(target.subject.scope, controller),
                  controller)


def _wanted(subject: Subject, key: str, controller: str) -> _Thing:
    if subject.scope is Scope.SELF:
        return _Thing(key, subject, frozenset({controller}))
    if subject.scope is Scope.ATTACHED:
        return _Thing(None, Subject(Scope.ANY, subject.card_type or CardKind.CHARACTER), BOTH)
    return _Thing(None, subject, sides(subject.scope, controller), controller)


def _card_satisfies(f: CardFacts | None, want: _Thing, other_key: str | None, key: str,
                    taken: frozenset[str] = frozenset()) -> bool:
    """Does the concrete card ``key`` (controlled as its key says, or by either player when it is in ``taken``)
    satisfy the filter ``want`` of the ability of card ``other_key``?  A filter by owner ("a card you own") is about
    the key's side: taking control of ``key`` never changes its owner (Ownership and Control), but the filter's
    card may change controller, and "you" with it (the opponent's Yoren takes your Left Hand Lew, whose "owned by an
    opponent" then names your cards)."""
    if split_key(key)[0] not in want.sides:
        by_owner = want.subject.scope in OWNER_SCOPES
        if (other_key not in taken) if by_owner else (key not in taken):
            return False
    if want.subject.other and other_key == key:
        return False
    return f is None or fits(want.subject, f)  # a card without facts matches (optimistic, never prunes)


def _kinds(s: Subject) -> tuple[CardKind, ...]:
    return ((s.card_type,) if s.card_type else ()) + s.other_types


def _types_overlap(a: Subject, b: Subject) -> bool:
    ka, kb = _kinds(a), _kinds(b)
    if not ka or not kb:
        return True
    if CardKind.FACTION_CARD in ka or CardKind.FACTION_CARD in kb:
        return bool(set(ka) & set(kb))
    return CardKind.CARD in ka or CardKind.CARD in kb or bool(set(ka) & set(kb))


def _match(prod: _Thing, prod_key: str, want: _Thing, want_key: str,
           facts: Mapping[str, CardFacts], taken: frozenset[str] = frozenset()) -> str | None:
    """Return a reason string when ``prod`` can be the thing ``want`` names, else ``None``."""
    if prod.key is not None and want.key is not None:
        return "same card" if prod.key == want.key else None
    if prod.key is not None:
        ok = _card_satisfies(facts.get(split_key(prod.key)[1]), want, want_key, prod.key, taken)
        return f"{prod.key} matches {_describe(want)}{_taken_text(prod.key, want, taken)}" if ok else None
    if want.key is not None:
        ok = _card_satisfies(facts.get(split_key(want.key)[1]), prod, prod_key, want.key, taken)
        return f"{want.key} matches {_describe(prod)}{_taken_text(want.key, prod, taken)}" if ok else None
    a, b = prod.subject, want.subject
    if not _types_overlap(a, b):
        return None
    if not prod.sides & want.sides:  # only a card whose control was taken is on both sides
        k = next((k for k in sorted(taken) if split_key(k)[0] in prod.sides | want.sides
                  and _card_satisfies(facts.get(split_key(k)[1]), prod, prod_key, k, taken)
                  and _card_satisfies(facts.get(split_key(k)[1]), want, want_key, k, taken)), None)
        return None if k is None else f"{k} matches {_describe(prod)} and {_describe(want)} once its control is taken"
    if a.factions and b.factions and not set(a.factions) & set(b.factions):
        return None
    return f"{_describe(prod)} overlaps {_describe(want)}"


def _taken_text(key: str, t: _Thing, taken: frozenset[str]) -> str:
    """The words a match owes to a control change: the card is on the other side unless it is taken."""
    return " once its control is taken" if split_key(key)[0] not in t.sides and key in taken else ""


def takeable(abilities: Mapping[str, tuple[Ability, ...]], facts: Mapping[str, CardFacts]) -> frozenset[str]:
    """Card keys whose control a card of ``abilities`` may take (a card of the other player it can take, or the
    card itself when any player may take it), so either player may control them.

    Read optimistically (only the card type and the printed filter of the chosen target; an attachment's "take
    control of attached character" reaches any character of the other player): an extra match only adds edges,
    and the loop encoder decides the cycles they close.

    >>> from ruleproof.cards.compiler import compile_text
    >>> yoren = compile_text("<b>Reaction:</b> After Yoren enters play, choose a character with printed cost 5 or "
    ...                      "lower. Take control of that character until Yoren leaves play.", "Yoren")
    >>> big = CardFacts("9", "Big", "character", "stark", (), cost=7)
    >>> small = CardFacts("8", "Small", "character", "stark", (), cost=2)
    >>> sorted(takeable({"1": yoren, "opp:8": (), "opp:9": (), "8": ()}, {"8": small, "9": big}))
    ['opp:8']
    """
    out: set[str] = set()
    for key, abil in abilities.items():
        me = split_key(key)[0]
        for a in abil:
            for part in parts_of(a):
                if not isinstance(part, Effect) or part.kind is not EffectKind.TAKE_CONTROL:
                    continue
                t = part.target
                if t.ref is TargetRef.SELF or t.subject.scope is Scope.SELF:
                    out.add(key)
                    continue
                want = Subject(Scope.ANY, CardKind.CHARACTER) if t.ref is TargetRef.ATTACHED else t.subject
                for other in abilities:
                    f = facts.get(split_key(other)[1])
                    if split_key(other)[0] != me and (f is None or fits(want, f)):
                        out.add(other)
    return frozenset(out)


def _describe(t: _Thing) -> str:
    s = t.subject
    bits = [describe_subject(s) if s.card_type else "player", s.scope.value.replace("_", " ")]
    if t.controller == OPPONENT and t.sides != BOTH and s.scope in YOURS | THEIRS and s.scope is not Scope.SELF:
        bits.append(f"(i.e. {_POSSESSIVE[next(iter(t.sides))]} cards)")
    return " ".join(bits)


def _phases_ok(a: Ability, b: Ability) -> bool:
    pa, pb = phase_of(a), phase_of(b)
    return pa is None or pb is None or pa is pb


def _zones_text(part: Cost | Effect) -> str:
    zones = getattr(part, "from_zones", ())
    return f" from {' or '.join(z.value.replace('_', ' ') for z in zones)}" if zones else ""


def _what(part: Cost | Effect) -> str:
    return f"{'cost' if isinstance(part, Cost) else 'effect'} {part.kind.value}"


def _player_target(part: Cost | Effect) -> bool:
    return part.target.is_player


# ---------------------------------------------------------------------------
# building


@dataclass(frozen=True)
class _Node:
    key: NodeKey
    ability: Ability
    controller: str

    @property
    def initiators(self) -> tuple[str, ...]:
        """Who may initiate it: its controller, or either player ("Any player may initiate this ability";
        FAQ 2.7: "you" is then the player who initiates it)."""
        return (YOU, OPPONENT) if self.ability.any_player else (self.controller,)


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
        ``kind`` (``triggers``, ``enables`` or ``enables+triggers``),
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
    nodes: list[_Node] = []
    for key, abil in abilities.items():
        controller, code = split_key(key)
        for i, a in enumerate(abil):
            if not initiated(a):
                continue
            node = (key, i)
            f = facts.get(code)
            name = f.name if f else code
            who = "opp: " if controller == OPPONENT else ""
            g.add_node(node, code=code, key=key, controller=controller, index=str(i), name=name, type=a.type.value,
                       compiled=a.compiled.value, label=f"{who}{name} #{i} ({a.type.value})",
                       limit=(f"{a.limit.kind.value} {a.limit.count} per {a.limit.period.value}" if a.limit else ""))
            nodes.append(_Node(node, a, controller))
    reasons: dict[tuple[NodeKey, NodeKey], dict[str, list[str]]] = {}

    def add(src: NodeKey, dst: NodeKey, kind: str, reason: str) -> None:
        lst = reasons.setdefault((src, dst), {}).setdefault(kind, [])
        if reason not in lst:
            lst.append(reason)

    by_event: dict[EventKind, list[_Node]] = {}
    by_need: dict[Res, list[tuple[_Node, Cost | Effect]]] = {}
    for n in nodes:
        a = n.ability
        t = trigger_of(a)
        if t is not None:
            for ev in (t.event, *t.also_events):
                by_event.setdefault(ev, []).append(n)
        # what re-enables B: a resource its cost needs, or (an action with no cost) one its effect needs
        wants: tuple[Cost | Effect, ...] = a.costs if a.costs or a.type is not AbilityType.ACTION else a.effects
        for part in wants:
            for r in needs(part):
                by_need.setdefault(r, []).append((n, part))
    taken = takeable(abilities, facts)
    for n in nodes:
        _initiation_edges(n, by_event, facts, add)
        for part in parts_of(n.ability):  # (with the effects of each option of a choice)
            _trigger_edges(n, part, by_event, facts, add, taken)
            _enable_edges(n, part, by_need, facts, add, taken)
    ctl = {n.key: n.controller for n in nodes}  # edges across players are marked by the cards' controllers
    for (src, dst), by_kind in sorted(reasons.items()):
        cross = ctl[src] != ctl[dst]
        text = "; ".join(r for k in sorted(by_kind) for r in by_kind[k])
        if cross:
            text = f"[{_POSSESSIVE[ctl[src]]} ability -> {_POSSESSIVE[ctl[dst]]} ability] {text}"
        g.add_edge(src, dst, kind="+".join(sorted(by_kind)), reason=text, cross_player="true" if cross else "false")
    return g


def _initiation_edges(n: _Node, by_event: Mapping[EventKind, list[_Node]], facts: Mapping[str, CardFacts],
                      add: _Add) -> None:
    """The initiation of ``n`` raises the "would initiate" triggering condition of a cancel ``b`` ("when the effects
    of a triggered character ability / an event would initiate": :func:`~ruleproof.cards.semantics.initiation_raises`;
    a card without facts may be an event)."""
    key = n.key[0]
    f = facts.get(split_key(key)[1])
    raised = initiation_raises(n.ability, f) if f is not None else \
        initiation_raises(n.ability, CardFacts(key, key, CardKind.EVENT.value, ""))
    for (ev, _), b, me, them in _pairs(n, [(ev, None) for ev in raised], by_event):
        trig = trigger_of(b.ability)
        assert trig is not None
        if b.key == n.key or not answers(trig, ev, None) or not _phases_ok(n.ability, b.ability):
            continue
        bkey = b.key[0]
        m = _match(_Thing(key, Subject(Scope.SELF), frozenset({me})), key, _wanted(trig.subject, bkey, them), bkey,
                   facts)
        if m is not None:
            add(n.key, b.key, "triggers", f"initiation -> {ev.value} ({m})")


def _trigger_edges(n: _Node, part: Cost | Effect, by_event: Mapping[EventKind, list[_Node]],
                   facts: Mapping[str, CardFacts], add: _Add, taken: frozenset[str] = frozenset()) -> None:
    """``n``'s cost or effect ``part`` raises the triggering condition of ``b``."""
    key, cost = n.key[0], isinstance(part, Cost)
    what = _what(part)
    for (ev, src), b, me, them in _pairs(n, raises(part), by_event):
        trig = trigger_of(b.ability)
        assert trig is not None
        if not answers(trig, ev, src) or not _phases_ok(n.ability, b.ability):
            continue
        bkey = b.key[0]
        from_hand = src is Place.HAND
        if _player_target(part) or trig.subject.card_type is None or from_hand:
            # a player (or a player's hand): whose, relative to each ability's controller
            whose = frozenset({me}) if cost or _player_scope_you(part) else sides(part.target.subject.scope, me)
            # "from your hand" (the reader leaves its scope unset), "from an opponent's hand"
            wanted = (frozenset({other_side(them)}) if RULES.hands.scope_read and trig.subject.scope in THEIRS
                      else frozenset({them})) if from_hand else sides(trig.subject.scope, them)
            if not whose & wanted:
                continue
            why = ("players compatible" if not from_hand
                   else " or ".join(f"{_POSSESSIVE[p]} hand" for p in sorted(whose & wanted, reverse=True)))
        else:
            named = _wanted(trig.subject, bkey, them)
            m = next((x for t in _alternatives(part.target)
                      if (x := _match(_produced(t, key, me, cost), key, named, bkey, facts, taken)) is not None), None)
            if m is None:
                continue
            why = m
        add(n.key, b.key, "triggers", f"{what} -> {ev.value} ({why})")


def _enable_edges(n: _Node, part: Cost | Effect, by_need: Mapping[Res, list[tuple[_Node, Cost | Effect]]],
                  facts: Mapping[str, CardFacts], add: _Add, taken: frozenset[str] = frozenset()) -> None:
    """``n``'s cost or effect ``part`` makes what a cost of ``b`` (or the effect of a cost-free action) needs."""
    key, cost = n.key[0], isinstance(part, Cost)
    for me in n.initiators:
        for r, b, bpart, them in _needing(makes(part), me, by_need):
            if not _phases_ok(n.ability, b.ability):
                continue
            bkey = b.key[0]
            if r in PLAYER_RES:
                whose = frozenset({me}) if cost or _player_scope_you(part) else sides(part.target.subject.scope, me)
                if them not in whose:
                    continue
                why = "your resources" if them == me else "the other player's resources"
            else:
                m = None
                for t in _alternatives(bpart.target):
                    want = (_Thing(bkey, t.subject, frozenset({them}), them) if t.ref is TargetRef.SELF
                            else _wanted(t.subject, bkey, them))
                    if isinstance(bpart, Cost):  # a cost is paid with its payer's own cards (Costs)
                        want = _Thing(want.key, want.subject, want.sides & frozenset({them}), want.controller)
                    m = next((x for p in _alternatives(part.target)
                              if (x := _match(_produced(p, key, me, cost), key, want, bkey, facts, taken))
                              is not None), None)
                    if m is not None:
                        break
                if m is None:
                    continue
                why = m
            add(n.key, b.key, "enables", f"{_what(part)}{_zones_text(part)} re-enables {_what(bpart)} ({why})")


_Raised = tuple[EventKind, Place | None]


def _pairs(n: _Node, events: Iterable[_Raised],
           by_event: Mapping[EventKind, list[_Node]]) -> Iterable[tuple[_Raised, _Node, str, str]]:
    """Each event ``n`` raises with each ability answering its kind, for each pair of initiators."""
    for ev in events:
        for b in by_event.get(ev[0], ()):
            for me in n.initiators:
                for them in b.initiators:
                    yield ev, b, me, them


def _needing(made: Iterable[Res], me: str, by_need: Mapping[Res, list[tuple[_Node, Cost | Effect]]]
             ) -> Iterable[tuple[Res, _Node, Cost | Effect, str]]:
    """Each resource made (by ``me``) with each ability part needing it, for each initiator of that ability.

    Control is relative: a card ``me`` takes control of (``yours``) is a card an
    opponent controls (``theirs``) for the other player."""
    for r in made:
        for want in (CONTROL_RES if r in CONTROL_RES else (r,)):
            for b, bpart in by_need.get(want, ()):
                for them in b.initiators:
                    if r in CONTROL_RES and _holder(r, me) != _holder(want, them):
                        continue
                    yield r, b, bpart, them


def _holder(r: Res, who: str) -> str:
    """The player who controls a card of resource ``yours``/``theirs`` read from ``who``'s side."""
    return who if r is Res.YOURS else (OPPONENT if who == YOU else YOU)


def _alternatives(t: Target) -> tuple[Target, ...]:
    """A target and the alternatives its text allows ("~ or a «Small Council» character")."""
    return (t, *t.also)


def _player_scope_you(part: Cost | Effect) -> bool:
    """A player effect with no scope ("gain 2 gold") is the ability's controller's."""
    return _player_target(part) and part.target.subject.scope is Scope.ANY


def unread_links(abilities: Mapping[str, tuple[Ability, ...]]) -> dict[NodeKey, tuple[bool, bool, tuple[Unread, ...]]]:
    """For each initiated ability with unread text that could link it to others: ``(out, in, clauses)``.

    ``out``: an unread effect, cost, alternative or whole ability could raise
    a triggering condition or make a resource another ability needs;
    ``in``: an unread trigger, cost, alternative or whole ability could be
    answered or re-enabled by another ability.  Unread restrictions and
    conditions are not here: leaving them out only adds links the read
    graph already has.  An ability nothing of whose structure was read counts
    both ways.
    """
    out: dict[NodeKey, tuple[bool, bool, tuple[Unread, ...]]] = {}
    for key, abil in abilities.items():
        for i, a in enumerate(abil):
            if not initiated(a) or a.compiled is Compiled.FULL:
                continue
            roles = {u.role for u in a.unread}
            whole = a.compiled is Compiled.UNSUPPORTED or not a.unread
            o = whole or bool(roles & _LINKS_OUT)
            n = whole or bool(roles & _LINKS_IN)
            if o or n:
                out[(key, i)] = (o, n, a.unread)
    return out


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
                forced=all(g.nodes[n]["type"] in _FORCED_VALUES for n in cyc),
                fully_compiled=all(g.nodes[n]["compiled"] == Compiled.FULL.value for n in cyc),
                controllers=tuple(str(g.nodes[n].get("controller", split_key(n[0])[0])) for n in cyc),
            ))
            if len(found) >= max_candidates:
                break
        if len(found) >= max_candidates:
            break
    return tuple(sorted(found, key=lambda c: (len(c.cards), len(c.abilities), c.abilities)))


_FORCED_VALUES = frozenset(t.value for t in AbilityType if is_forced(Ability(t)))
