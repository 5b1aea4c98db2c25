"""Lasso classification of one encoded loop candidate.

The model of :mod:`ruleproof.loops.encode` forces the abilities of the cycle
to fire in order, one per step, so the ``passes`` counter grows by exactly one
every ``n`` steps.  Hence a target such as ``passes >= k`` is reached, if at
all, at depth ``k * n``: bounded model checking to that depth *decides* it
(an answer "not reached within ``k * n`` steps" is a proof that it is
unreachable, not a bounded result).

The lasso question is the target ``lasso``: after a first pass leaves a state
``s1``, a second pass ends in ``s2`` that agrees with ``s1`` on every
non-counting part of the state (zones, standing, pending triggering
conditions) and is at least as good in every counting resource (gold, cards in
hand and in the deck, power; fewer uses under a printed limit).  Every guard
of the model is upward closed in those counters (``gold >= cost``, ``hand >=
n``, ``used < limit`` the other way round) and every update adds a constant
to them, so the same steps with the same choices run again from ``s2`` and
leave ``s3 >= s2``: by induction the pass repeats forever.  That is the
argument behind ``unbounded`` and ``mandatory``; a lasso found with limits
ignored but not with them is ``limited`` (the printed limit bounds it), and no
lasso even without limits is ``not_a_loop``, with the part of the state that
gets worse (found by dropping one part of the comparison at a time).

A cycle may run through both players' abilities (the opponent's effect
kneels your character, your reaction stands it ...).  Whether it repeats is
decided as above, on both players' resources (the per-pass change is given
per player, ``opponent_*`` for the opponent).  Who can make it repeat is a
separate question, answered from who controls the *optional* abilities on
it (Triggered Abilities; Forced Interrupts / Forced Reactions): a player is
never compelled to initiate an optional ability, so each pass needs every
player with an optional ability on the cycle to choose to continue
(``continued_by``).  With only forced abilities the cycle is ``mandatory``
whoever controls them; with the optional abilities of one player that
player alone can repeat it (``unbounded``, and the reason names the
player); with optional abilities of both players it is still ``unbounded``
(it can go on forever) but neither player can execute it alone as the FAQ's
"(1.1) Infinite Loops" describes (display one cycle, name a number of
iterations): either player ends it by declining, and the reason says so.

Every trace shown is an engine trace replayed on the concrete evaluator.
"""

from __future__ import annotations

import dataclasses
import enum
import time
from dataclasses import dataclass, field
from typing import Any

from ruleproof.cards.abilities import AbilityType
from ruleproof.encoder import SatResult, Unrolling, fresh_context
from ruleproof.engines.common import replay
from ruleproof.errors import InputError
from ruleproof.evaluator import Evaluator
from ruleproof.ir import System
from ruleproof.loops.encode import (
    ALL_GROUPS,
    GROUP_TEXT,
    Direction,
    Encoding,
    ModelSpec,
    Unsupported,
    build_model,
    missing_targets,
    takes_control,
)
from ruleproof.loops.encode import (
    cid as _cid,
)
from ruleproof.results import Trace

__all__ = ["Category", "LoopResult", "classify", "continued_by", "controllers", "net_change", "trace_json",
           "unsupported_result"]

_FORCED_TYPES = {AbilityType.FORCED_REACTION, AbilityType.FORCED_INTERRUPT, AbilityType.WHEN_REVEALED}


class Category(enum.Enum):
    """What a loop candidate turned out to be."""

    UNBOUNDED = "unbounded"
    MANDATORY = "mandatory"
    LIMITED = "limited"
    NOT_A_LOOP = "not_a_loop"
    UNSUPPORTED = "unsupported"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class LoopResult:
    """The classification of one candidate.

    ``passes``: for ``limited`` the most complete passes the limits allow;
    ``None`` otherwise.  ``net_gain``: change per pass of each resource of the
    witness (``you``'s gold, cards in hand, deck, power, standing characters),
    as ``(name, delta)`` pairs.  ``binding``: the ability labels whose limit
    binds (``limited``).  ``trace``: a replayed engine trace (two passes for
    ``unbounded``/``mandatory``, ``passes`` passes for ``limited``, the
    resource-relaxed lasso for ``not_a_loop`` when there is one).
    ``players``: the controllers of the cycle's abilities (``you`` /
    ``opponent``); ``continued_by``: the players who must each choose to
    continue for another pass (the controllers of its optional abilities;
    empty when every ability is forced).  ``left_out``: the clauses of the
    cycle's abilities the model leaves out (unread, or read and not modelled),
    each with whether leaving it out narrows or widens the ability.
    ``bystanders``: the cards of the model that are not on the cycle (the
    other named cards, hosts, deck cards a target needs).
    ``hosts``: ``(attachment, host)``
    card keys for each attachment of the candidate (the host may be a card
    not on the cycle; the reason then names it).  ``unmodelled``: constant
    abilities of the model's cards that the loop model leaves out (``Name:
    'text'``) that the answer rests on (for ``not_a_loop``, not the ones
    that only forbid); a report holding such a result is not complete.
    """

    cards: tuple[str, ...]
    abilities: tuple[tuple[str, int], ...]
    category: Category
    reason: str
    passes: int | None = None
    net_gain: tuple[tuple[str, int], ...] = ()
    binding: tuple[str, ...] = ()
    trace: Trace | None = None
    trace_passes: int = 0
    phase: str = ""
    seconds: float = field(default=0.0, compare=False)
    players: tuple[str, ...] = ()
    continued_by: tuple[str, ...] = ()
    hosts: tuple[tuple[str, str], ...] = ()
    left_out: tuple[str, ...] = ()
    bystanders: tuple[str, ...] = ()
    unmodelled: tuple[str, ...] = ()


class _Unknown(Exception):
    """A solver query gave no answer (timeout or unknown)."""


class _Path:
    """One incremental solver over a path of ``system`` from an initial state, for targets asked at growing depths.

    A target of this model becomes true only at a known depth (``pos >= m``
    after ``m`` steps, ``passes >= k`` after ``k * n``, a lasso after ``2 n``),
    so asking it at that depth, on the path built so far, decides it.  The
    path only grows: targets must be asked in order of depth.  One fresh Z3
    context per path: its answers depend on the path's queries alone (and a
    path cannot be used any more once a newer one exists); ``fresh=False``
    stays in the context of the path before (same model: its encoding is
    reused), for questions of reachability alone, whose answers no context
    changes (the diagnosis of a cycle that cannot run once).
    """

    def __init__(self, system: System, timeout: float | None, fresh: bool = True) -> None:
        if fresh:
            fresh_context()
        self.system = system
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.u = Unrolling(system, initial=True, deadline=self.deadline)
        self.ev: Evaluator | None = None

    def reach(self, name: str, depth: int) -> Trace | None:
        """A replayed trace reaching target ``name`` at step ``depth``, or ``None`` when it cannot be reached."""
        if not self.reachable(name, depth):
            return None
        self.ev = self.ev or Evaluator(self.system)
        return replay(self.system, self.ev, self.u.trace(), self.system.prop(name))

    def reachable(self, name: str, depth: int) -> bool:
        """Whether target ``name`` can be reached at step ``depth`` (no witness)."""
        while self.u.k < depth:
            self.u.extend()
        if self.u.k != depth:
            raise ValueError(f"target {name} asked at depth {depth} after depth {self.u.k}")
        r = self.u.check(self.u.holds(self.system.prop(name), depth))
        if r is SatResult.UNKNOWN:
            raise _Unknown(self.u.reason or "solver returned unknown")
        return r is SatResult.SAT


def _reach(system: System, name: str, depth: int, timeout: float | None) -> Trace | None:
    """A replayed trace reaching target ``name`` at depth ``depth``, or ``None`` when it is unreachable."""
    return _Path(system, timeout).reach(name, depth)


def _value(trace: Trace, idx: int, var: str) -> Any:
    return trace.states[idx][trace.var_names.index(var)]


def net_change(enc: Encoding, trace: Trace, a: int, b: int) -> tuple[tuple[str, int], ...]:
    """Resource change of player ``you`` (and the opponent, if any) from state ``a`` to state ``b`` of ``trace``."""
    out: list[tuple[str, int]] = []
    for p in enc.players:
        pre = "" if p == "you" else "opponent_"

        def d(var: str) -> int:
            return int(_value(trace, b, var)) - int(_value(trace, a, var))

        cards = [c for c in enc.cards if c.owner == p]
        power = d(f"fpower[{p}]") + sum(d(f"power[{_cid(c.code)}]") for c in cards)

        def standing(i: int, cards: list[Any] = cards) -> int:
            return sum(1 for c in cards if c.type == "character"
                       and _value(trace, i, f"zone[{_cid(c.code)}]") == "play"
                       and _value(trace, i, f"standing[{_cid(c.code)}]"))

        out += [(pre + "gold", d(f"gold[{p}]")), (pre + "power", power), (pre + "cards_in_hand", d(f"hand[{p}]")),
                (pre + "deck", d(f"deck[{p}]")), (pre + "standing_characters", standing(b) - standing(a))]
    return tuple(out)


_PLAYER_NAME = {"you": "you", "opp": "opponent"}


def controllers(enc: Encoding) -> tuple[str, ...]:
    """The controller (``you`` / ``opponent``) of each ability of the cycle, in cycle order."""
    return tuple(_PLAYER_NAME[enc.card_of(i).owner] for i in range(enc.n))


def continued_by(enc: Encoding) -> tuple[str, ...]:
    """The players who must each choose to continue the cycle: those controlling an optional ability on it."""
    ctl = {_PLAYER_NAME[enc.card_of(i).owner] for i, a in enumerate(enc.abilities) if a.type not in _FORCED_TYPES}
    return tuple(p for p in ("you", "opponent") if p in ctl)


def _players(enc: Encoding) -> tuple[str, ...]:
    ctl = set(controllers(enc))
    return tuple(p for p in ("you", "opponent") if p in ctl)


def _alone(enc: Encoding, target: str, depth: int, timeout: float | None,
           spec: ModelSpec) -> tuple[tuple[str, ...], Trace | None] | None:
    """Who must choose to continue the cycle when control of a card can change (Yoren, Ward), so that who owns the
    cards on it does not say who initiates them: a player who can repeat it alone, with the lasso that shows it;
    else both players (no trace: each lasso needs an optional ability of each).  ``None`` when control cannot
    change, only one player is in the model, or every ability on it is forced: ownership says who continues."""
    if not (takes_control(enc) or enc.controls or enc.taken) or len(enc.players) < 2 or \
            all(a.type in _FORCED_TYPES for a in enc.abilities):
        return None
    for p in enc.players:
        t = _reach(build_model(enc, dataclasses.replace(spec, solo=p)), target, depth, timeout)
        if t is not None:
            return (_PLAYER_NAME[p],), t
    return ("you", "opponent"), None


def _takers(enc: Encoding, trace: Trace | None) -> str:
    """The control changes the trace starts from (a card of the cycle under the other player, and what may have
    taken it), in words; empty when the trace uses none."""
    name = {c.code: f"{c.name} ({c.code})" for c in enc.cards}
    start = dict(trace.initial) if trace is not None else {}
    moved = {c.code for c in enc.cards if c.code in enc.candidate.cards
             and start.get(f"ctl[{c.name} ({c.code})]", c.owner) != c.owner}
    pairs = [(t, x) for t, x, _ in enc.taken if x in moved] + [(a, h) for a, h in enc.controls if h in moved]
    return "".join(f"; {name.get(t, t)} took control of {name.get(x, x)}" for t, x in dict.fromkeys(pairs))


def _who_repeats(enc: Encoding, alone: tuple[str, ...] | None = None, trace: Trace | None = None) -> str:
    """Who can make a lasso (an unbounded or mandatory cycle) repeat, in words (``alone``: who must continue it
    when control can change, :func:`_alone`; ``trace``: the lasso, for the control changes it starts from)."""
    if alone and len(alone) > 1:
        took = _takers(enc, trace)
        return ("it repeats only while both players choose to continue: each pass needs an optional ability of "
                + (f"each (a card's controller initiates its abilities{took})" if took else "yours and one of the "
                   "opponent's") + ", so neither player can repeat it alone and either ends it by declining (the "
                "FAQ's infinite-loop procedure, one player naming a number of iterations, does not apply)")
    if alone:
        return (f"{'you' if alone == ('you',) else 'the opponent'} may repeat it as often as "
                f"{'you' if alone == ('you',) else 'they'} like, initiating every optional ability on it (control "
                f"of a card the other player owns lets one player make every choice to continue"
                f"{_takers(enc, trace)})")
    players, choosers = _players(enc), continued_by(enc)
    if not choosers:
        both = " (forced abilities of both players)" if len(players) > 1 else ""
        return f"every ability on it is forced{both}: the game could never leave it"
    if players == ("you",):
        return "a player may repeat it as often as they like"
    if choosers == ("you",):
        return ("you may repeat it as often as you like: the opponent's abilities on it are forced, so only your "
                "choices continue it")
    if choosers == ("opponent",):
        if players == ("opponent",):
            return "the opponent may repeat it as often as they like (every ability on it is theirs)"
        return ("the opponent may repeat it as often as they like: your abilities on it are forced, so only the "
                "opponent's choices continue it")
    return ("it repeats only while both players choose to continue: each pass needs an optional ability of yours "
            "and one of the opponent's, so neither player can repeat it alone and either ends it by declining (the "
            "FAQ's infinite-loop procedure, one player naming a number of iterations, does not apply)")


def _result(enc: Encoding, category: Category, reason: str, t0: float, choosers: tuple[str, ...] | None = None,
            **kw: Any) -> LoopResult:
    hosts = tuple((c.code, c.host) for c in enc.cards if c.host is not None)
    outside = [f"{c.name} is attached to {h.name} ({h.code}), a card not on the cycle"
               for c in enc.cards if c.host is not None
               for h in enc.cards if h.code == c.host and h.code not in enc.candidate.cards]
    if outside:
        reason = f"{reason} ({'; '.join(outside)})"
    resting = _resting_on(enc, category)
    if resting:
        reason = f"{reason}; not modelled, and could change this: {'; '.join(resting)}"
    if aside := [u for u in enc.unmodelled if u not in resting]:
        reason = f"{reason}; not modelled, a 'cannot' that would only narrow this: {'; '.join(aside)}"
    return LoopResult(cards=enc.candidate.cards, abilities=enc.candidate.abilities, category=category, reason=reason,
                      phase=enc.phase.value if enc.phase else "", seconds=round(time.monotonic() - t0, 3),
                      players=tuple(p for p in ("you", "opponent") if p in {*_players(enc), *(choosers or ())}),
                      continued_by=continued_by(enc) if choosers is None else choosers,
                      hosts=hosts,
                      left_out=tuple(x.describe() for x in enc.left_out),
                      bystanders=tuple(c.code for c in enc.cards if c.code not in enc.candidate.cards),
                      unmodelled=resting, **kw)


def _resting_on(enc: Encoding, category: Category) -> tuple[str, ...]:
    """The constants left out that an answer of ``category`` rests on: a "cannot" left out only lets the model
    do more, so "not a loop" does not rest on it; a loop found, and anything else, rests on every one."""
    if category is Category.NOT_A_LOOP:
        return tuple(u for u in enc.unmodelled if u not in enc.forbidding)
    return enc.unmodelled


def unsupported_result(u: Unsupported) -> LoopResult:
    """The result for a candidate the encoder refused: unsupported, or unknown when what is missing is text that
    was not read."""
    if u.unread:
        return LoopResult(cards=u.candidate.cards, abilities=u.candidate.abilities, category=Category.UNKNOWN,
                          reason=f"text not read: {'; '.join(u.unread)} ({u.reason})", players=u.candidate.players,
                          left_out=u.unread)
    return LoopResult(cards=u.candidate.cards, abilities=u.candidate.abilities, category=Category.UNSUPPORTED,
                      reason=u.reason, players=u.candidate.players)


def classify(enc: Encoding, timeout: float | None = 20.0, max_passes: int = 8) -> LoopResult:
    """Decide what the cycle of ``enc`` is (see :class:`Category`).

    Text the model leaves out (``enc.left_out``) decides which answers stand:
    a loop found without clauses that only *narrow* the ability is a loop of
    the printed cards too, and "not a loop" without clauses that only *widen*
    it is true of them too; any other answer is ``unknown``, naming the
    clauses.  A cycle the semantics table already rules out (``enc.static``)
    needs no solver.
    """
    t0 = time.monotonic()
    dirs = enc.directions()
    if Direction.EITHER in dirs or {Direction.NARROWS, Direction.WIDENS} <= dirs:
        return _result(enc, Category.UNKNOWN, "the answer depends on text the model leaves out: "
                       + _phrases(enc, None, deciding=True), t0)
    if enc.static:
        return _honest(enc, _result(enc, Category.NOT_A_LOOP, enc.static, t0))
    try:
        return _honest(enc, _classify(enc, timeout, max_passes, t0))
    except _Unknown as exc:
        return _result(enc, Category.UNKNOWN, f"solver gave no answer: {exc}", t0)
    except InputError as exc:  # the encoder built an ill-formed model: say so for this candidate, keep the run
        return _result(enc, Category.UNKNOWN, f"the loop encoder could not build this candidate's model "
                       f"(a ruleproof bug; please report it): {exc}", t0)


def _phrases(enc: Encoding, direction: Direction | None, deciding: bool = False) -> str:
    """The left-out clauses of ``direction`` (``None``: all); ``deciding``: only those that can overturn an answer
    (not the untracked values), so the reason of an unknown starts with what makes it one."""
    return "; ".join(x.describe() for x in enc.left_out if (direction is None or x.direction is direction)
                     and not (deciding and x.direction is Direction.UNTRACKED))


_LOOPS = frozenset({Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED})


def _honest(enc: Encoding, r: LoopResult) -> LoopResult:
    """Keep an answer only when what the model leaves out cannot overturn it (see :func:`classify`)."""
    dirs = enc.directions()
    if not dirs:
        return r
    if r.category in _LOOPS and Direction.NARROWS in dirs:
        return dataclasses.replace(r, reason=f"{r.reason}; found without (the printed text allows more): "
                                   + _phrases(enc, Direction.NARROWS))
    if r.category is Category.NOT_A_LOOP and Direction.WIDENS in dirs:
        return dataclasses.replace(r, reason=f"{r.reason}; true also with what the model leaves out (it only "
                                   "restricts): " + _phrases(enc, Direction.WIDENS))
    if r.category in _LOOPS:
        kind = f"{'an' if r.category is Category.UNBOUNDED else 'a'} {r.category.value}"
        return dataclasses.replace(r, category=Category.UNKNOWN, trace=None, trace_passes=0, passes=None,
                                   reason=f"the model finds {kind} loop, but it leaves out "
                                   f"restrictions that could stop it: {_phrases(enc, Direction.WIDENS)}")
    if r.category is Category.NOT_A_LOOP:
        return dataclasses.replace(r, category=Category.UNKNOWN, trace=None, trace_passes=0,
                                   reason=f"no loop in the model, but the printed text allows more than it runs: "
                                   f"{_phrases(enc, Direction.NARROWS)} (the model's answer: {r.reason})")
    return r


def _classify(enc: Encoding, timeout: float | None, max_passes: int, t0: float) -> LoopResult:
    n = enc.n
    forced = enc.candidate.forced
    # a loop may need two passes to come back (two players taking turns, two targets alternating)
    free = build_model(enc, ModelSpec(lasso_drop=((),) + tuple((g,) for g in ALL_GROUPS if g != "limits"),
                                      passes=(1, 2), progress=tuple(range(1, n)), max_passes=max_passes,
                                      period2=True))
    path = _Path(free, timeout)
    if path.reach("passes>=1", n) is None:
        return _stuck(enc, free, timeout, t0)
    target, rounds = "lasso", 2
    lasso = path.reach("lasso", 2 * n)
    if lasso is None:
        worse = _worse(enc, path)
        twice = path.reach("passes>=2", 2 * n) if not worse else None  # (before the path below: a new context)
        if all(g in _STATE_GROUPS for g, _, _ in worse):  # only the cards' states differ: try two passes
            target, rounds = "lasso2", 3
            lasso = _reach(free, "lasso2", 3 * n, timeout)
        if lasso is None:
            return _not_a_loop(enc, worse, twice, t0)
    loop_cat = Category.MANDATORY if forced else Category.UNBOUNDED
    period = " (two passes make one period: players or targets take turns)" if rounds == 3 else ""
    limited = enc.limited()
    if not limited:
        solo = _alone(enc, target, rounds * n, timeout, ModelSpec(period2=rounds == 3, max_passes=max_passes))
        if solo is not None and solo[1] is not None:
            lasso = solo[1]
        what = _who_repeats(enc, solo[0] if solo else None, lasso)
        return _result(enc, loop_cat, f"one pass can run again from the state it leaves{period}; {what}",
                       t0, choosers=solo[0] if solo else None, net_gain=net_change(enc, lasso, n, rounds * n),
                       trace=lasso, trace_passes=rounds)
    every = frozenset(limited)
    spec = ModelSpec(limits=every, passes=tuple(range(1, max_passes + 1)), max_passes=max_passes,
                     period2=rounds == 3)
    lim = build_model(enc, spec)
    again = _reach(lim, target, rounds * n, timeout)
    if again is not None:
        solo = _alone(enc, target, rounds * n, timeout, spec)
        if solo is not None and solo[1] is not None:
            again = solo[1]
        return _result(enc, loop_cat, f"the printed limits renew (the card re-enters play as a new copy){period}; "
                       f"{_who_repeats(enc, solo[0] if solo else None, again)}", t0,
                       choosers=solo[0] if solo else None,
                       net_gain=net_change(enc, again, n, rounds * n), trace=again, trace_passes=rounds)
    best: Trace | None = None
    count = 0
    counting = _Path(lim, timeout)
    for k in range(1, max_passes + 1):
        t = counting.reach(f"passes>={k}", k * n)
        if t is None:
            break
        best, count = t, k
    else:
        return _result(enc, Category.UNKNOWN, f"the limits still allow {max_passes} passes, but no repeating pass "
                       "was found", t0, trace=best, trace_passes=count)
    binding: list[str] = []
    for j in limited:
        only = build_model(enc, ModelSpec(limits=frozenset({j}), passes=(count + 1,), max_passes=max_passes))
        if _reach(only, f"passes>={count + 1}", (count + 1) * n, timeout) is None:
            a = enc.abilities[j]
            assert a.limit is not None
            binding.append(f"{enc.label(j)}: {a.limit.kind.value} {a.limit.count} per {a.limit.period.value}")
    why = (f"without printed limits one pass repeats forever; the limits allow {count} complete pass(es)"
           + (f", bound by {'; '.join(binding)}" if binding else " (only the limits together bind)"))
    if count == 0 and n > 1:  # not one whole pass: how far one gets (two copies of a title sharing one Max)
        part = _Path(build_model(enc, ModelSpec(limits=every, progress=tuple(range(1, n)), max_passes=max_passes)),
                     timeout)
        fired = 0
        for m in range(1, n):
            t = part.reach(f"pos>={m}", m)
            if t is None:
                break
            best, fired = t, m
        why += (f"; {fired} of its {n} abilities fire{'s' if fired == 1 else ''} in cycle order before the limits "
                "stop it, and the limits renew each period")
    # control of a card the other player owns may let one player make every choice of the passes the limits allow
    solo = _alone(enc, f"passes>={count}", count * n, timeout, spec) if count else None
    if solo is not None and solo[1] is not None:
        best = solo[1]
        why += (f"; {'you initiate' if solo[0] == ('you',) else 'the opponent initiates'} every optional ability on "
                f"it alone (control of a card the other player owns lets one player make every choice to continue"
                f"{_takers(enc, best)})")
    elif solo is not None and _takers(enc, best):
        why += f"; each pass needs an optional ability of each player (a card's controller initiates its abilities" \
               f"{_takers(enc, best)})"
    gain = net_change(enc, best, 0, n) if best is not None and count else ()
    return _result(enc, Category.LIMITED, why, t0, passes=count, binding=tuple(binding), net_gain=gain,
                   trace=best, trace_passes=count, choosers=solo[0] if solo else None)


def _stuck(enc: Encoding, free: System, timeout: float | None, t0: float) -> LoopResult:
    """No first pass: name the first ability that can never fire (``pos>=m`` asked at growing depths)."""
    n = enc.n
    stuck = n - 1  # pos>=m: abilities 0..m-1 fired in order; the first m unreachable names ability m-1
    # Only whether each target is reachable is read here (no witness), and that does not depend on the context: the
    # path stays in the context of the first pass's (the same model), whose encoding of the model it reuses.
    path = _Path(free, timeout, fresh=False)
    for m in range(1, n):
        if not path.reachable(f"pos>={m}", m):
            stuck = m - 1
            break
    hint = missing_targets(enc, stuck)
    where = "first" if stuck == 0 else f"after {enc.label(stuck - 1)}"
    return _result(enc, Category.NOT_A_LOOP,
                   f"{enc.label(stuck)} can never fire {where} with these cards: "
                   + (hint or "its triggering condition, cost, target or effect test fails (Abilities)"), t0)


_STATE_GROUPS = frozenset({"standing", "zones", "triggers"})
_Worse = tuple[str, str, Trace]


def _worse(enc: Encoding, path: _Path) -> list[_Worse]:
    """The parts of the state that keep a second pass from repeating the first: for each dominance group, a
    witness of the lasso with that group left out (on the same path, at depth ``2 n``)."""
    n = enc.n
    out: list[_Worse] = []
    for g in ALL_GROUPS:
        if g == "limits":
            continue
        t = path.reach(f"lasso-{g}", 2 * n)
        if t is None:
            continue
        delta = dict(net_change(enc, t, n, 2 * n))
        extra = ""
        key = {"gold": "gold", "hand": "cards_in_hand", "deck": "deck", "power": "power"}.get(g)
        if key is not None and key in delta:
            if enc.players == ("you",):
                extra = f" ({delta[key]:+d} per pass in the witness)"
            else:  # per player: you, then the opponent
                extra = (f" (you {delta[key]:+d}, opponent {delta.get('opponent_' + key, 0):+d} per pass "
                         "in the witness)")
        out.append((g, GROUP_TEXT[g] + extra, t))
    return out


def _not_a_loop(enc: Encoding, worse: list[_Worse], twice: Trace | None, t0: float) -> LoopResult:
    """A first pass runs but no second one (nor a pair of passes) repeats it: name what runs down."""
    n = enc.n
    if worse:
        shown = worse[0][2]
        reason = ("one pass runs, but neither it nor a pair of passes leaves a state from which it can run again: "
                  "each pass spends " + " / ".join(w for _, w, _ in worse))
        return _result(enc, Category.NOT_A_LOOP, reason, t0, trace=shown, trace_passes=2,
                       net_gain=net_change(enc, shown, n, 2 * n))
    if twice is None:
        return _result(enc, Category.NOT_A_LOOP, "the cycle cannot run twice in a row: the first pass spends a "
                       "cost or a triggering condition that nothing in the cycle restores (Abilities, Costs)", t0)
    return _result(enc, Category.NOT_A_LOOP, "passes can follow each other, but no pass (nor pair of passes) "
                   "leaves a state at least as good as the one it started from: several resources run down "
                   "together", t0, trace=twice, trace_passes=2)


def trace_json(trace: Trace | None) -> list[dict[str, Any]] | None:
    """A trace as JSON-ready data (initial state, then one object per step)."""
    if trace is None:
        return None
    out: list[dict[str, Any]] = [{"initial": {k: v for k, v in trace.initial}}]
    for s in trace.steps:
        out.append({
            "action": s.action,
            "description": s.description,
            "choices": {k: v for k, v in s.choices},
            "changes": [{"var": c.var, "old": c.old, "new": c.new} for c in s.changes
                        if not c.var.startswith("snap_")],
        })
    return out
