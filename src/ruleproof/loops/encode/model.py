"""Encoding -> rules model: a small symbolic AGoT state for the cards of one candidate.

The state, for the cards of the encoding (the cycle's cards and the cards off
the cycle it holds; one copy each, keyed as in the ability graph: ``CODE``
for your copy, ``opp:CODE`` for the opponent's; owner fixed, and a card is
controlled by its owner: Ownership and Control):

* per card: its place (:class:`ruleproof.cards.semantics.Place`), standing or
  kneeling, power on it, gold on it (``cgold``, only when the cycle uses
  it), a pending removal while an interrupt to it resolves (``imm``: the
  name of the move, ``_unsaved`` when it cannot be saved);
* per player (``you`` and, with opponent cards, ``opp``): gold, cards in hand
  besides the model's own cards, cards left in the draw deck, power on the
  faction card, whether the faction card stands;
* per ability of the cycle: whether its triggering condition occurred and is
  still unanswered (``pending``, with the card it was about, ``trig``) and how
  often it was used (``used``: counted as the table's limit rules say);
* the pass observer: ``pos`` (the next ability of the cycle), ``passes``
  (complete passes) and a snapshot of the whole state taken at the end of
  the first pass (``snap_*``).

Each ability is one action, forced to fire in cycle order.  Its guard is the
rules' initiation test (Abilities, Costs): the card is where the ability can
be used from, a reaction/interrupt answers a triggering condition that
occurred (Triggering Condition), forced abilities go first (Forced
Interrupts / Forced Reactions), the phase matches, the cost can be paid in
full, the effect could change the game state judged *before* the cost is
paid, and the limit is not spent (Limits and Maxima).  Its update is the
cost then the effect, applied in sequence by the encoders of
:mod:`ruleproof.loops.encode.parts` (one per entry of the semantics table),
then the triggering conditions they create.  The word "Then": effects after
a "then" resolve only when every effect before it resolved in full (the
table's ``then`` rule).  An effect with "may" is the player's choice.
Removals answered by the next ability of the cycle when it is an interrupt
wait in ``imm`` until that interrupt resolves (Nested Ability Sequences;
Save).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruleproof.cards.abilities import Ability, AbilityType, Cost, CostKind, Effect, EffectKind, EventKind, TargetRef
from ruleproof.cards.semantics import (
    BANNABLE,
    INITIATION_EVENTS,
    PLOT_PLACES,
    ROLES_READ,
    Move,
    Place,
    Rules,
    dest_place,
    effect_key,
    entry_of,
    event_plays,
    initiation_raises,
    move_of,
    mutant,
    parts_of,
    src_places,
    trigger_of,
)
from ruleproof.cards.semantics import MUTANTS as _TABLE_MUTANTS
from ruleproof.dsl import And, Bool, If, Int, Model, Not, OneOf, Or, Range, Sort, Step, Sum, Term
from ruleproof.ir import Const, System
from ruleproof.loops.encode.accept import Encoding, any_number, challenge_test, static_match, trigger_card_test
from ruleproof.loops.encode.parts import COST_ENCODERS, EFFECT_ENCODERS
from ruleproof.loops.encode.step import (
    CARD_EVENTS,
    AbilityStep,
    Ctx,
    ban_name,
    cid,
    false,
    pending_name,
    trigger_matches,
    true,
)

__all__ = ["ALL_GROUPS", "GROUP_TEXT", "MUTANTS", "ModelSpec", "build_model", "initiators", "takes_control"]

_BIG = 10**6
_FORCED = frozenset({AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT, AbilityType.WHEN_REVEALED})
_INTERRUPTS = frozenset({AbilityType.INTERRUPT, AbilityType.FORCED_INTERRUPT})
_LEAVES = frozenset({"KILLED", "SACRIFICED", "LEAVES_PLAY", "DISCARDED", "RETURNED_TO_HAND"})

#: The mutants :class:`ModelSpec` can build (each the semantics table with one entry swapped).
MUTANTS: tuple[str, ...] = tuple(_TABLE_MUTANTS)

# dominance groups: which part of the state must be "at least as good" after a pass
ALL_GROUPS = ("standing", "zones", "bans", "triggers", "gold", "cgold", "hand", "deck", "power", "dups", "plots",
              "limits")
GROUP_TEXT = {
    "standing": "standing/kneeling state of the cards",
    "zones": "where the cards are (in play, hand, discard pile...)",
    "bans": "lasting 'cannot' effects on the cards",
    "triggers": "pending triggering conditions",
    "gold": "gold",
    "cgold": "gold on cards",
    "hand": "cards in hand",
    "deck": "cards left in the draw deck",
    "power": "power",
    "dups": "duplicates",
    "plots": "plot cards left in the plot deck",
    "limits": "uses left under printed limits",
}
_GROUP_OF = {"standing": "standing", "fstand": "standing", "zone": "zones", "imm": "zones", "ctl": "zones",
             "pending": "triggers", "trig": "triggers", "gold": "gold", "cgold": "cgold", "hand": "hand",
             "deck": "deck", "power": "power", "fpower": "power", "used": "limits", "dups": "dups",
             "plots": "plots", "role": "zones", **{ban_name(ev): "bans" for ev in BANNABLE}}
_COUNTERS = frozenset({"gold", "cgold", "hand", "deck", "power", "fpower", "dups", "plots"})


@dataclass(frozen=True)
class ModelSpec:
    """Which variant of the model to build.

    ``limits``: positions whose limit/maximum is enforced.  ``lasso_drop``:
    dominance groups left out of each ``lasso`` target (one target per entry,
    named ``lasso`` or ``lasso-<group>``).  ``passes``: one target
    ``passes>=k`` per ``k``.  ``progress``: targets ``pos>=m`` (how far a first
    pass gets).  ``period2``: a target ``lasso2`` (the state after a third
    pass at least as good as after the first: a loop whose passes alternate,
    e.g. two players taking turns).  ``mutant``: one of :data:`MUTANTS` (the semantics table with
    one entry swapped, for the tests), ``""`` for the rules as written.  ``solo``: a player
    (``you``/``opp``) who initiates every optional ability (a lasso of that model is one the player
    repeats alone, e.g. with control of the other player's card); ``""``: anyone as the rules allow.
    """

    limits: frozenset[int] = frozenset()
    lasso_drop: tuple[tuple[str, ...], ...] = ((),)
    period2: bool = False
    passes: tuple[int, ...] = ()
    progress: tuple[int, ...] = ()
    max_passes: int = 16
    mutant: str = ""
    solo: str = ""

    def __post_init__(self) -> None:
        mutant(self.mutant)  # raises on an unknown name

    @property
    def rules(self) -> Rules:
        """The semantics table this variant runs."""
        return mutant(self.mutant)


def _moves(rules: Rules, enc: Encoding) -> dict[str, Move]:
    """The moves out of play a pending removal can be: the table's, and those the cycle's texts resolve."""
    out: dict[str, Move] = {}
    for e in (*rules.costs.values(), *rules.effects.values()):
        if e.move is not None and e.move.src is Place.PLAY and e.move.dest is not None:
            out.setdefault(e.move.name, e.move)
    for a in enc.abilities:
        parts: tuple[Cost | Effect, ...] = (*a.costs, *a.effects)
        for part in parts:
            mv = move_of(part, rules)
            if mv is not None and mv.src is Place.PLAY and mv.dest is not Place.PLAY:
                out[mv.name] = mv
    return out


def build_model(enc: Encoding, spec: ModelSpec) -> System:
    """Build and ground the model of ``enc`` with the targets ``spec`` asks for."""
    rules = spec.rules
    m = Model(f"loop {'+'.join(enc.candidate.cards)}", doc="loop candidate")
    # The loop model is asked only for its own targets (lasso, passes, ...), never for the consistency checks of a
    # rules model; building them would expand each guard over its choices, which a model with many named or deck
    # cards (two card choices over 65 cards or more) cannot do.
    m.consistency_checks = False
    ids = tuple(cid(c.code) for c in enc.cards)
    card = m.sort("Card", list(ids), labels=[f"{c.name} ({c.code})" for c in enc.cards])
    player = m.sort("Player", list(enc.players))
    zone = m.enum("Zone", [p.value for p in Place])
    moves = _moves(rules, enc)
    pend = ["none"] + [pending_name(mv, s) for mv in moves.values() for s in (True, False)]
    removal = m.enum("Removal", list(dict.fromkeys(pend)))
    n = enc.n
    abil = m.sort("Abil", [f"a{i}" for i in range(n)], labels=[enc.label(i) for i in range(n)])
    ctx = Ctx(enc, m, rules, card, ids=ids, by_id=dict(zip(ids, enc.cards, strict=True)), limits=spec.limits,
              moves=moves, control=takes_control(enc) or bool(enc.controls or enc.taken), solo=spec.solo)
    _declare_state(ctx, zone, removal, player, abil)
    pos = m.var("pos", Int(0, max(n - 1, 0)), init=0)
    passes = m.var("passes", Int(0, spec.max_passes), init=0)
    for i in range(n):
        _ability_action(ctx, i, pos, passes, player)
    cmp = _comparisons(ctx)  # one comparison per cell, shared by every target below
    for drop in spec.lasso_drop:
        name = "lasso" + "".join(f"-{g}" for g in drop)
        m.reachable(name, And(passes >= 2, _dominates(cmp, set(drop))), cites=["Limits and Maxima"],
                    doc="a second pass ends in a state at least as good as the one the first pass left")
    if spec.period2:
        m.reachable("lasso2", And(passes >= 3, _dominates(cmp, set())), cites=["Limits and Maxima"],
                    doc="a third pass ends in a state at least as good as the one the first pass left")
    for k in spec.passes:
        m.reachable(f"passes>={k}", passes >= k, cites=["Limits and Maxima"])
    for p in spec.progress:
        m.reachable(f"pos>={p}", Or(pos >= p, passes >= 1), cites=["Abilities"])
    return m.finish()


def _declare_state(ctx: Ctx, zone: Sort, removal: Sort, player: Sort, abil: Sort) -> None:
    enc, m, cells, snaps = ctx.enc, ctx.m, ctx.cells, ctx.snaps
    gold_need = sum(c.amount or 0 for a in enc.abilities for c in a.costs if c.kind is CostKind.PAY_GOLD)
    gold_need += sum(max(g for _, g in event_plays(c, ctx.rules)) for c in enc.cards if c.type == "event")
    g0 = max(10, 2 * gold_need + 2)

    def declare(name: str, t: Any, index: Sort, init: Any, snap_init: Any) -> None:
        arr = m.var(name, t, index=index, init=init)
        sarr = m.var("snap_" + name, t, index=index, init=snap_init)
        for key in index.type.values:
            cells[(name, key)] = arr[key]
            snaps[(name, key)] = sarr[key]

    places = tuple(p.value for p in Place if p not in PLOT_PLACES)

    def zone_init(k: Term) -> OneOf:
        c = ctx.by_id[_name(k)]
        if c.type == "agenda":
            return OneOf(Place.PLAY.value)
        if c.type == "event":  # (in shadows too, when it has the keyword)
            return OneOf(*dict.fromkeys([Place.HAND.value, Place.DISCARD.value,
                                         *(p.value for p, _ in event_plays(c, ctx.rules))]))
        if c.type == "plot":
            return OneOf(*(p.value for p in PLOT_PLACES))
        return OneOf(*places)

    declare("zone", zone, ctx.card, zone_init, Place.HAND.value)
    declare("standing", Bool, ctx.card, OneOf(False, True), False)
    declare("power", Int(0, _BIG), ctx.card, Range(0, 2), 0)
    if any(c.kind is CostKind.DISCARD_GOLD for a in enc.abilities for c in a.costs) or \
            any(e.kind is EffectKind.GAIN_GOLD and not e.target.is_player or e.kind is EffectKind.DISCARD_GOLD
                for a in enc.abilities for e in a.effects):
        declare("cgold", Int(0, _BIG), ctx.card, Range(0, 3), 0)  # gold on cards: only if used
    if any(mv.saveable for mv in ctx.moves.values()) and any(c.unique for c in enc.cards) and any(
            move_of(e, ctx.rules) is not None and e.target.ref is not TargetRef.PLAYER
            for a in enc.abilities for e in a.effects):
        declare("dups", Int(0, _BIG), ctx.card,  # duplicates under a unique card (Duplicates): a finite stock
                lambda k: Range(0, 2) if ctx.by_id[_name(k)].unique else 0, 0)
    if ctx.control:  # who controls each card (Ownership and Control): its owner, unless someone took control
        declare("ctl", player, ctx.card, OneOf(*enc.players), enc.players[0])
    if uses_roles(enc):  # each card's part in the current challenge (Challenges): none, attacking, defending
        role = m.enum("Role", ["none", "attacking", "defending"])
        declare("role", role, ctx.card, OneOf("none", "attacking", "defending"), "none")
        for c in enc.cards:
            k = cid(c.code)
            m.init_constraint(Or(cells[("role", k)] == "none", And(cells[("zone", k)] == Place.PLAY.value,
                                                                   true() if c.type == "character" else false())))
            for d in enc.cards:  # the attackers are one player's, the defenders the other's (their owners')
                other = cid(d.code)
                if other <= k:
                    continue
                same = c.owner == d.owner
                for r1, r2 in (("attacking", "attacking"), ("defending", "defending"), ("attacking", "defending"),
                               ("defending", "attacking")):
                    if (r1 == r2) != same:
                        m.init_constraint(Or(cells[("role", k)] != r1, cells[("role", other)] != r2))
    for ev in _banned(enc, ctx.rules):  # lasting "cannot"s the cycle puts on cards (none on a card out of play)
        declare(ban_name(ev), Bool, ctx.card, OneOf(False, True), False)
        for k in ctx.ids:
            m.init_constraint(Or(cells[("zone", k)] == Place.PLAY.value, Not(cells[(ban_name(ev), k)])))
    declare("imm", removal, ctx.card, "none", "none")
    declare("gold", Int(0, _BIG), player, Range(0, g0), 0)
    declare("hand", Int(0, _BIG), player, Range(0, 6), 0)
    declare("deck", Int(0, _BIG), player, Range(0, 10), 0)
    declare("fpower", Int(0, _BIG), player, Range(0, 3), 0)
    declare("fstand", Bool, player, OneOf(False, True), False)
    if any(c.type == "plot" for c in enc.cards) or any(effect_key(e) is EffectKind.REVEAL for a in enc.abilities
                                                       for e in a.effects):  # plots besides the model's (Plot Deck)
        declare("plots", Int(0, _BIG), player, Range(0, 6), 0)
        for p in enc.players:  # one revealed plot per player
            mine = [cid(c.code) for c in enc.cards if c.type == "plot" and c.owner == p]
            for x in mine:
                for y in mine:
                    if x < y:
                        m.init_constraint(Or(cells[("zone", x)] != Place.REVEALED.value,
                                             cells[("zone", y)] != Place.REVEALED.value))
    declare("pending", Bool, abil, OneOf(False, True), False)
    declare("trig", ctx.card, abil, OneOf(*ctx.ids), ctx.ids[0])
    declare("used", Int(0, _BIG), abil, 0, 0)
    for c in enc.cards:  # events are never in play; out-of-play cards are kept upright (a normal form)
        k = cid(c.code)
        m.init_constraint(Or(cells[("zone", k)] == Place.PLAY.value, cells[("standing", k)]))
        if ctx.control:  # out of play, a card is its owner's
            m.init_constraint(Or(cells[("zone", k)] == Place.PLAY.value, cells[("ctl", k)] == c.owner))
        if ctx.control and not takes_control(enc):  # no effect of the cycle takes control: each card is its
            under = [cells[("zone", cid(a))] == Place.PLAY.value for a, h in enc.controls if h == c.code]  # owner's,
            before = [And(cells[("ctl", k)] == ctx.by_id[cid(t)].owner,  # or an ability off the cycle took it
                          cells[("zone", cid(t))] == Place.PLAY.value if keep else true())
                      for t, x, keep in enc.taken if x == c.code]
            m.init_constraint(Or(cells[("ctl", k)] == c.owner, *under, *before))
            twins = [cid(j.code) for j in enc.cards if j.code != c.code and j.name == c.name]
            if c.unique and twins and ctx.rules.unique.one_per_player:  # never beside a copy of a unique card
                m.init_constraint(Or(cells[("ctl", k)] == c.owner,
                                     And(*(cells[("zone", j)] != Place.PLAY.value for j in twins))))
        for a in (cid(a) for a, h in enc.controls if h == c.code):  # ... or the controller of what takes it (Ward)
            m.init_constraint(Or(cells[("zone", a)] != Place.PLAY.value, cells[("ctl", k)] == cells[("ctl", a)]))
        if c.host is not None:  # an attachment in play is attached to its host, which is in play
            m.init_constraint(Or(cells[("zone", k)] != Place.PLAY.value,
                                 cells[("zone", cid(c.host))] == Place.PLAY.value))
    if ctx.control and not takes_control(enc):  # an ability off the cycle took control of one card it chose, not
        for taker in dict.fromkeys(t for t, _, _ in enc.taken):  # of each card it could have chosen (Yoren)
            could = list(dict.fromkeys(x for t, x, _ in enc.taken if t == taker))
            for i, x in enumerate(could):
                for y in could[i + 1:]:
                    m.init_constraint(Or(*(cells[("ctl", cid(z))] == ctx.by_id[cid(z)].owner for z in (x, y)),
                                         *(cells[("zone", cid(a))] == Place.PLAY.value
                                           for a, h in enc.controls if h in (x, y))))
    for j, b in enumerate(enc.abilities):  # a pending card event is about a card its trigger names
        if b.trigger is not None and b.trigger.event in CARD_EVENTS and b.trigger.from_zone is None:  # (WR: self)
            fits = [k for k in ctx.ids if static_match(b.trigger.subject, enc.card_of(j), ctx.by_id[k])]
            m.init_constraint(Or(Not(cells[("pending", f"a{j}")]), *(cells[("trig", f"a{j}")] == k for k in fits)))


def uses_roles(enc: Encoding) -> bool:
    """Does an ability of the cycle read or change a card's part in the challenge ("an attacking character", "remove
    it from the challenge", "during a challenge in which you control a participating character")?"""
    for a in enc.abilities:
        parts = parts_of(a)
        if any(p.target.subject.role in ROLES_READ for p in parts) or any(challenge_test(c) for c in a.conditions) \
                or any(p.kind is EffectKind.REMOVE_FROM_CHALLENGE for p in parts if isinstance(p, Effect)) \
                or any(c.kind is CostKind.REMOVE_FROM_CHALLENGE for c in a.costs):
            return True
    return False


def _banned(enc: Encoding, rules: Rules) -> list[EventKind]:
    """What the lasting "cannot"s of the cycle's effects forbid, when the table tracks them."""
    entry = rules.effects.get(EffectKind.PROHIBIT)
    if entry is None or entry.untracked:
        return []
    return sorted({e.prohibited for a in enc.abilities for e in a.effects if e.kind is EffectKind.PROHIBIT
                   and e.prohibited in BANNABLE and e.phase is None}, key=lambda ev: ev.value)


def takes_control(enc: Encoding) -> bool:
    """Some effect of the cycle takes control of a card: who controls a card is part of the state."""
    return any(e.kind is EffectKind.TAKE_CONTROL or e.kind is EffectKind.PUT_INTO_PLAY and e.controller is not None
               for a in enc.abilities for e in a.effects)


def _name(k: Term) -> str:
    """The name of a sort element handed to an initial-value function."""
    assert isinstance(k.expr, Const)
    return str(k.expr.value)


def _comparisons(ctx: Ctx) -> list[tuple[str, Term]]:
    """For each cell of the state (in order) that a pass must not leave worse, its dominance group and the
    comparison of its value now with the snapshot taken after the first pass."""
    out: list[tuple[str, Term]] = []
    for key, cur in ctx.cells.items():
        name = key[0]
        group = _GROUP_OF[name]
        snap = ctx.snaps[key]
        if name == "trig":
            out.append((group, Or(Not(ctx.cells[("pending", key[1])]), cur == snap)))
        elif name == "used":
            if int(key[1][1:]) in ctx.limits:
                out.append((group, cur <= snap))
        elif name in _COUNTERS:
            out.append((group, cur >= snap))
        else:
            out.append((group, cur == snap))
    return out


def _dominates(comparisons: list[tuple[str, Term]], drop: set[str]) -> Term:
    """The state after the second pass is at least as good as after the first, outside the ``drop`` groups
    (``comparisons``: :func:`_comparisons`)."""
    return And(*(t for group, t in comparisons if group not in drop))


# ---------------------------------------------------------------------------
# actions


def _where_from(s: AbilityStep) -> None:
    """Where the ability can be used from (Abilities: in play, unless the text says otherwise; FAQ 2.4)."""
    a, src = s.a, s.src
    zone = s.sym[("zone", s.sid)]
    own_entry = next((e for e in a.effects if e.kind is EffectKind.PUT_INTO_PLAY and e.target.ref is TargetRef.SELF),
                     None)
    if src.type == "event":  # from hand, or from shadows (Shadows)
        s.st.require(Or(*(zone == p.value for p, _ in event_plays(src, s.ctx.rules))))
    elif (own_cost := next((c for c in a.costs if c.target.ref is TargetRef.SELF and (m := move_of(c, s.ctx.rules))
                            is not None and m.src is not Place.PLAY), None)) is not None:
        # "discard ~ from your hand to ...": used from where its cost takes it
        mv = move_of(own_cost, s.ctx.rules)
        assert mv is not None and mv.src is not None
        s.st.require(zone == mv.src.value)
    elif a.type is AbilityType.WHEN_REVEALED:  # its plot was revealed (or is treated as if it just was)
        s.st.require(Or(zone == Place.REVEALED.value, zone == Place.USED.value))
    elif own_entry is not None:  # "put ~ into play from your dead pile": usable while ~ is where the text says
        entry = entry_of(own_entry, s.ctx.rules)
        assert entry is not None
        s.st.require(Or(*(zone == p.value for p in src_places(own_entry, entry))))
    elif a.trigger is not None and a.trigger.subject.scope.value == "self" and a.type not in _INTERRUPTS and \
            a.trigger.event.name in _LEAVES:
        s.st.require(zone != Place.PLAY.value)
    elif src.type == "plot":  # a plot's other abilities: while it is the revealed plot, in play (Plot Cards)
        s.st.require(zone == Place.REVEALED.value)
    else:
        s.st.require(zone == Place.PLAY.value)


def _initiation(s: AbilityStep, pos: Term) -> None:
    """Triggering condition, forced priority, open interrupts, limits."""
    ctx, i, a, st = s.ctx, s.i, s.a, s.st
    enc = ctx.enc
    n = enc.n
    st.require(pos == i)
    for cond in a.conditions:  # "during a challenge in which you control a participating character"
        if challenge_test(cond):
            st.require(s.challenge_holds(cond))
        elif trigger_card_test(cond, a):  # "if that card has shadow": the card of its triggering condition
            held = s.card_condition(cond)
            assert held is not None
            st.require(held)
    pend = [ctx.cells[("pending", f"a{j}")] for j in range(n)]
    if a.type is not AbilityType.ACTION:
        st.require(pend[i])
    forced_pending = [pend[j] for j in range(n) if j != i and enc.abilities[j].type in _FORCED]
    if a.type not in _FORCED and forced_pending:
        st.require(Not(Or(*forced_pending)))
    if a.type not in _INTERRUPTS:
        st.require(And(*(s.sym[("imm", k)] == "none" for k in ctx.ids)))
    if a.limit is not None and i in ctx.limits:
        rule = ctx.rules.limits[a.limit.kind]
        same = [j for j in range(n) if j == i or rule.per_title and enc.abilities[j].limit is not None
                and enc.abilities[j].limit.kind is a.limit.kind and enc.card_of(j).name == s.src.name  # type: ignore[union-attr]
                and (enc.card_of(j).owner == s.me or not rule.per_player)]
        st.require(Sum(*(ctx.cells[("used", f"a{j}")] for j in same)) < a.limit.count)
    s.sym.put(("used", f"a{i}"), s.sym[("used", f"a{i}")] + 1)
    if a.type is not AbilityType.ACTION:
        s.sym.put(("pending", f"a{i}"), False)
    else:  # a new action window: earlier reaction/interrupt windows have closed
        for j in range(n):
            if enc.abilities[j].type not in _FORCED and j != i:
                s.sym.put(("pending", f"a{j}"), False)


def _effects(s: AbilityStep) -> None:
    """The effects in order; after "then", only if everything before resolved in full (the table's rule).

    An effect with "instead" ("kneel it. If it has the «Ally» trait, you may take control of it instead") replaces
    the one before it: exactly one of the two resolves, the second when its condition holds (and the player chooses
    it, if "may"); a condition the model cannot evaluate is left to the player (Replacement Effects).  A condition
    on a card the ability names ("if it is a «Knight»") is read from that card's printed facts.
    """
    rules = s.ctx.rules
    effects = s.a.effects
    full: list[Term] = []
    replaced = {j - 1: j for j, e in enumerate(effects) if j > 0 and e.instead and e.instead_of is None}
    instead: dict[int, Term] = {}
    for ei, e in enumerate(effects):
        if e.instead_of is not None:
            continue  # where the event goes instead of the discard pile (_play_event)
        entry, key = entry_of(e, rules), effect_key(e)
        assert entry is not None and key is not None
        if e.at_end_of is not None:
            # a delayed effect resolves at the end of the phase (or challenge), after the loop's window (Delayed
            # Effects): nothing of the model's state moves now ("return her to your hand" at the end of the phase
            # never required her in play before she was put into play); it counts as a change, as untracked ones do
            s.changes.append(true())
            full.append(true())
            continue
        tag = f"target{ei}"
        # X cards: up to every card (a widening); "any number of" cards: up to every card that fits (the table's)
        amt = e.amount if e.amount is not None else \
            len(s.ctx.ids) if rules.amounts.any_number_all or not any_number(e, s.a) else 1
        if e.then and rules.then.gate:
            s.sym.guard = And(*full) if full else true()
        first = len(s.changes)
        whole_draw = s.sym[("deck", s.me)] >= amt
        guards: list[Term] = []
        if ei in replaced:
            instead[replaced[ei]] = s.st.choose(f"instead{replaced[ei]}", Bool)
            if rules.instead.replaces:
                guards.append(Not(instead[replaced[ei]]))
        if ei in instead:
            guards.append(instead[ei])
            cond = s.card_condition(e.condition) if e.condition is not None else true()
            if cond is not None:  # (None: a condition the model does not evaluate, the player's to pick)
                s.st.require(Or(Not(instead[ei]), cond) if e.optional else instead[ei] == cond)
        else:
            if e.condition is not None and (cond := s.card_condition(e.condition)) is not None:
                guards.append(cond)
            elif e.condition is not None and rules.conditions.open:  # not evaluated: it may resolve or not
                guards.append(s.st.choose(f"cond{ei}", Bool))
            if e.optional:  # "may": the player chooses to resolve it (May)
                guards.append(s.st.choose(f"use{ei}", Bool))
        outer = s.sym.guard
        if guards:
            s.sym.guard = And(*guards) if outer is None else And(outer, *guards)
        EFFECT_ENCODERS[key](s, e, entry, tag, amt)
        s.sym.guard = outer
        if guards:
            s.changes[first:] = [And(*guards, c) for c in s.changes[first:]]
        mine = s.changes[first:]
        if s.sym.guard is not None:
            s.changes[first:] = [And(s.sym.guard, c) for c in mine]
        full.append(whole_draw if e.kind is EffectKind.DRAW else (Or(*mine) if mine else true()))
    s.sym.guard = None
    s.st.require(Or(*s.changes) if s.changes else false())


def cancelled_by_next(s: AbilityStep) -> Term | None:
    """Whether the effects of this ability are cancelled by the next ability of the cycle (``None``: that cannot be).

    The next ability can cancel them when it is an interrupt with a cancel effect to "the effects of a triggered
    (character, location...) ability / an event would initiate" that this ability's initiation answers (Cancel;
    Triggering Condition: only cancels answer an initiation).  The player of the next ability chooses (it is
    optional); when chosen, its triggering condition is pending about this card.  What the cancel does to the
    effects is the table's entry (:func:`_stops`).
    """
    ctx = s.ctx
    n = ctx.enc.n
    nxt = (s.i + 1) % n
    b = ctx.enc.abilities[nxt]
    trig = trigger_of(b)
    if nxt == s.i or b.type not in _INTERRUPTS or trig is None or trig.event not in INITIATION_EVENTS:
        return None
    if not any(e.kind is EffectKind.CANCEL for e in b.effects):
        return None
    if not any(trigger_matches(ctx, nxt, ev, None, s.src) for ev in initiation_raises(s.a, s.src)):
        return None
    return s.st.choose(f"cancelled{nxt}", Bool)


def _stops(ctx: Ctx, j: int) -> bool:
    """Do the cancel effects of ability ``j`` stop the effects they cancel, as the table's entry says (Cancel)?"""
    entries = [entry_of(e, ctx.rules) for e in ctx.enc.abilities[j].effects if e.kind is EffectKind.CANCEL]
    return bool(entries) and all(x is not None and not x.untracked for x in entries)


def _cancel(s: AbilityStep, before: dict[tuple[str, ...], Term], cancel: Term | None, stops: Term | None) -> None:
    """The next ability cancels this one's effects (``cancel``) and that stops them (``stops``): every cell they
    wrote keeps its value from ``before`` (the costs stay paid, the use counts: Cancel).  The next ability's "would
    initiate" is then pending about this card; the initiation of another ability closes every other such window (a
    cancel answers only the ability just initiated)."""
    ctx = s.ctx
    nxt = (s.i + 1) % ctx.enc.n
    if stops is not None:
        for key, val in list(s.sym.cur.items()):
            if val is not before[key]:
                s.sym.cur[key] = If(stops, before[key], val)
    if cancel is not None:
        s.sym.put(("trig", f"a{nxt}"), s.sid, when=cancel)
    for j, b in enumerate(ctx.enc.abilities):
        t = trigger_of(b)
        if j != s.i and t is not None and t.event in INITIATION_EVENTS:
            s.sym.put(("pending", f"a{j}"), cancel if j == nxt and cancel is not None else False)


def _play_event(s: AbilityStep, cancel: Term | None = None) -> None:
    """An event pays its cost (printed from hand, shadow cost from shadows) and goes to its owner's discard pile, or
    where its own replacement sends it instead, unless its effects were cancelled (Shadows; Replacement Effects;
    Cancel: a cancelled event is still placed in its owner's discard pile)."""
    zone = s.pre[("zone", s.sid)]
    (_, cost), *others = event_plays(s.src, s.ctx.rules)
    paid: Term | int = cost
    for place, gold in others:
        paid = If(zone == place.value, gold, paid)
    s.st.require(s.sym[("gold", s.me)] >= paid)
    s.sym.put(("gold", s.me), s.sym[("gold", s.me)] - paid)
    s.sym.put(("zone", s.sid), Place.DISCARD.value)
    if not s.ctx.rules.events.replaced:
        return
    for ei, e in enumerate(s.a.effects):
        entry = entry_of(e, s.ctx.rules)
        dest = dest_place(e, entry) if entry is not None and e.instead_of is not None else None
        if dest is None:
            continue
        use = s.st.choose(f"instead{ei}", Bool) if e.condition is not None else true()  # (condition: the player's)
        s.sym.put(("zone", s.sid), dest.value, when=use if cancel is None else And(use, Not(cancel)))


def initiators(enc: Encoding, i: int, control: bool, rules: Rules | None = None) -> tuple[str, ...]:
    """Who may initiate the ``i``-th ability in the model: both players when any player may (as the table's
    initiator rule reads it, and both are in the model) or when control of its card can change; else only its
    controller (``()``: not a choice)."""
    a = enc.abilities[i]
    anyone = a.any_player and (rules or mutant("")).initiators.any_player
    if len(enc.players) > 1 and (anyone or control):
        return enc.players
    return ()


def _ability_action(ctx: Ctx, i: int, pos: Term, passes: Term, player: Sort) -> None:
    enc = ctx.enc
    a = enc.abilities[i]
    n = enc.n
    who = initiators(enc, i, ctx.control, ctx.rules)
    anyone = a.any_player and ctx.rules.initiators.any_player

    def run(st: Step, p: Term | None) -> None:
        s = AbilityStep(ctx, i, st, _name(p) if p is not None else None)
        if p is not None and not anyone:  # only the card's controller initiates its ability
            st.require(ctx.cells[("ctl", s.sid)] == s.me if ctx.rules.initiators.by == "controller"
                       else (true() if s.src.owner == s.me else false()))
        if ctx.solo and a.type not in _FORCED and s.me != ctx.solo:  # one player makes every choice to go on
            st.require(false())
        _initiation(s, pos)
        _where_from(s)
        cancel = cancelled_by_next(s)  # the next ability cancels this one's effects (the player's choice)
        stops = cancel if cancel is not None and _stops(ctx, (i + 1) % n) else None
        for ci, c in enumerate(a.costs):
            entry = entry_of(c, ctx.rules)
            assert entry is not None
            COST_ENCODERS[c.kind](s, c, entry, f"cost{ci}", c.amount or 0)
        if s.src.type == "event":
            _play_event(s, stops)
        before = dict(s.sym.cur)
        _effects(s)
        _cancel(s, before, cancel, stops)
        if a.type in _INTERRUPTS:  # the interrupt's step ends with the removal it interrupted, unless saved
            for k in ctx.ids:
                for mv in ctx.moves.values():
                    for saveable in (True, False):
                        s.finish_removal(mv, k, s.sym[("imm", k)] == pending_name(mv, saveable))
                s.sym.put(("imm", k), "none")
        _constant_control(s)
        st.set(pos, (i + 1) % n)
        if i == n - 1:
            st.set(passes, passes + 1)
        for key in s.sym.touched:
            st.set(ctx.cells[key], s.sym[key])
        if i == n - 1:
            first = passes == 0
            for key in ctx.cells:
                st.set(ctx.snaps[key], s.sym[key], when=first)

    if who:
        def by(st: Step, p: Term) -> None:
            run(st, p)

        by.__name__ = f"ability{i}"
        ctx.m.action(player, name=f"ability{i}", describe=lambda p: f"{enc.label(i)}: {a.type.value} by {p.label}",
                     cites=_cites(a))(by)
        return

    def body(st: Step) -> None:
        run(st, None)

    body.__name__ = f"ability{i}"
    ctx.m.action(name=f"ability{i}", describe=f"{enc.label(i)}: {a.type.value}", cites=_cites(a))(body)


def _constant_control(s: AbilityStep) -> None:
    """After a step: an attachment that takes control of its host (Ward) gives it to the attachment's controller
    while it is in play; when it leaves play, the host (still in play) goes back to its owner (Ownership and
    Control)."""
    for att, host in s.ctx.enc.controls:
        a, h = cid(att), cid(host)
        on = s.sym[("zone", a)] == Place.PLAY.value
        s.sym.put(("ctl", h), s.sym[("ctl", a)], when=on)
        left = And(s.pre[("zone", a)] == Place.PLAY.value, Not(on), s.sym[("zone", h)] == Place.PLAY.value)
        s.sym.put(("ctl", h), s.ctx.by_id[h].owner, when=left)
    for taker, card, keep in s.ctx.enc.taken:  # "until Yoren leaves play": control ends when the taker leaves
        if not keep:
            continue
        t, k = cid(taker), cid(card)
        gone = And(s.pre[("zone", t)] == Place.PLAY.value, s.sym[("zone", t)] != Place.PLAY.value,
                   s.sym[("zone", k)] == Place.PLAY.value, s.sym[("ctl", k)] == s.ctx.by_id[t].owner)
        s.sym.put(("ctl", k), s.ctx.by_id[k].owner, when=gone)


def _cites(a: Ability) -> list[str]:
    out = ["Abilities", "Costs", "Triggering Condition"]
    if a.limit is not None:
        out.append("Limits and Maxima")
    if any(e.kind is EffectKind.SAVE for e in a.effects):
        out.append("Save")
    return out

