"""Checking rulings against their model: steps on both interpreters, questions with the engines.

A **sequence** of steps is checked on the Z3 encoding for *every* state that
matches the situation: each step the ruling allows must be allowed in each of
them (for some choice the ruling leaves open), each refused step must be
refused in each of them (for every such choice), and each expectation must
hold after every way of taking the steps.  The first check that fails gives a
path on which it fails; that path is replayed on the concrete evaluator
(:func:`ruleproof.engines.common.replay`) and the failure is confirmed there.
A ruling that passes is replayed concretely too: on every matching state when
there are few, else on the representative path Z3 gives.  The two
interpreters must agree; when they do not, that is an internal error, never a
verdict.

A **question** is a property of the situated system (a reachability target,
an invariant, an action property) checked with the engines' ``auto`` mode:
a witness or counterexample is a replayed trace; otherwise the answer is
PROVED or HOLDS_TO_DEPTH(n).
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass, replace
from typing import Iterator, Mapping, Sequence

from .. import ir
from ..consistency import enabled_expr
from ..encoder import SatResult, Unrolling, fresh_context
from ..engines import explicit
from ..engines.common import Clock, Options, replay
from ..engines.registry import EXHAUST_INITIAL, EXHAUST_STATES
from ..engines.runner import check_property
from ..errors import InputError, InternalError
from ..evaluator import Evaluator, State, domain
from ..ir import Action, Expr, Property, System, Value
from ..results import Result, Trace, Verdict
from .model import DEFAULT_DEPTH, Ruling

__all__ = ["Outcome", "Event", "RulingResult", "check_ruling", "CONCRETE_STATES", "CONCRETE_CHOICES"]

CONCRETE_STATES = 256
"""A situation with at most this many states is replayed concretely on every one of them."""
CONCRETE_CHOICES = 4096
"""... when no step leaves more than this many choice vectors open."""
_FRONTIER = 20_000
_ENUMERATE = 100_000  # candidate initial states (before the initial constraints) worth enumerating


class Outcome(enum.Enum):
    """A ruling agrees with the model (PASS), contradicts it (FAIL), or could not be decided (UNKNOWN)."""

    PASS = "pass"
    FAIL = "fail"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Event:
    """What happened at one step of a sequence, for the report.

    ``kind``: ``done`` (taken; ``index`` is its position in the trace),
    ``refused`` (refused, as the ruling says), ``expect`` (a condition that
    holds), ``fail`` (where the ruling and the model part).
    """

    kind: str
    step: int  # the ruling's step number (1-based; len(steps) + 1: the end)
    text: str = ""
    index: int = -1
    where: str = ""  # a failure: "at step 2 (...)", "after step 3 (...)", "at the end", "at the situation"


@dataclass(frozen=True)
class RulingResult:
    """The answer for one ruling."""

    ruling: Ruling
    outcome: Outcome
    reason: str
    trace: Trace | None = None
    events: tuple[Event, ...] = ()
    failed_at: int | None = None
    answer: str = ""
    engine: str = ""
    checked: str = ""


def check_ruling(r: Ruling, timeout: float | None = 60.0) -> RulingResult:
    """Check one ruling (a solver timeout or ``unknown`` gives UNKNOWN, never PASS)."""
    fresh_context()  # the answer depends on this ruling alone
    if r.question is not None:
        return _question(r, timeout)
    return _sequence(r, timeout)


# --------------------------------------------------------------------------- sequences


def _with_choices(a: Action, chosen: Mapping[str, Value]) -> Action:
    """``a`` with the named choices fixed: its guard reads only the open ones."""
    if not chosen:
        return a
    types = {c.name: c.type for c in a.choices}
    sub: dict[str, Expr] = {n: ir.Const(v, types[n]) for n, v in chosen.items()}
    return replace(a, guard=ir.substitute(a.guard, sub), choices=tuple(c for c in a.choices if c.name not in chosen))


def _vectors(a: Action, chosen: Mapping[str, Value]) -> Iterator[dict[str, Value]]:
    """Every choice vector of ``a`` that agrees with the named choices."""
    open_ = [c for c in a.choices if c.name not in chosen]
    for combo in itertools.product(*(domain(c.type) for c in open_)):
        yield {**chosen, **{c.name: v for c, v in zip(open_, combo, strict=True)}}


def _n_vectors(a: Action, chosen: Mapping[str, Value]) -> int:
    n = 1
    for c in a.choices:
        if c.name not in chosen:
            n *= len(domain(c.type))
    return n


class _Unknown(Exception):
    pass


class _Seq:
    """One sequence ruling on the Z3 encoding, step by step."""

    def __init__(self, r: Ruling, timeout: float | None) -> None:
        self.r = r
        # The path takes only the actions the ruling's steps take: the encoding holds just those (the refused
        # steps are checked on their own guards), so a long ruling on a large system stays small.
        full = r.system
        used = sorted({st.action for st in r.steps if st.action is not None and not st.refused})
        self.idx = {ai: k for k, ai in enumerate(used)}
        self.sy = replace(full, actions=tuple(full.actions[ai] for ai in used))
        self.ev = Evaluator(self.sy)
        self.clock = Clock(timeout)
        self.u = Unrolling(self.sy, initial=True, deadline=self.clock.deadline)
        self.events: list[Event] = []

    def sat(self, *conds: object) -> bool:
        res = self.u.check(*conds)  # type: ignore[arg-type]
        if res is SatResult.UNKNOWN:
            raise _Unknown(self.u.reason or "solver returned unknown")
        return res is SatResult.SAT

    def path(self) -> Trace:
        """The path of the last satisfiable query, replayed on the concrete evaluator."""
        return replay(self.sy, self.ev, self.u.trace(), None)


def _sequence(r: Ruling, timeout: float | None) -> RulingResult:
    s = _Seq(r, timeout)
    try:
        return _run(s)
    except _Unknown as e:
        return RulingResult(r, Outcome.UNKNOWN, f"the solver gave no answer: {e}", events=tuple(s.events),
                            engine="z3")
    except InputError as e:  # a guard with too many choice vectors to expand
        return RulingResult(r, Outcome.UNKNOWN, e.message, events=tuple(s.events), engine="z3")


def _run(s: _Seq) -> RulingResult:
    r, sy, ev, u = s.r, s.r.system, s.ev, s.u
    if not s.sat():
        why = "no state of the model matches the situation"
        if r.unnamed == "initial" and sy.init_constraints:
            why += " (with the other variables at their initial values and the model's initial constraints)"
        return _fail(s, 0, why + ": the situation cannot arise in this model", None)
    j = 0
    for n, st in enumerate(r.steps, 1):
        if st.action is None:
            if st.refused:
                s.events.append(Event("refused", n, st.text))
                continue
            s.sat()
            return _fail(s, n, f"the model never allows '{st.text}': no state meets its requirements with these "
                               "parameters", s.path())
        a = sy.actions[st.action]
        chosen = dict(st.choices)
        en = enabled_expr(_with_choices(a, chosen))
        if st.refused:
            if s.sat(u.at(en, j)):
                t = s.path()
                last = t.states[-1]
                vec = next((v for v in _vectors(a, chosen) if ev.step(a, last, v) is not None), None)
                if vec is None:
                    raise InternalError(f"{r.where}: Z3 says step {n} ({a.label}) is allowed, the evaluator says not")
                shown = a.description + _choices_text(a, vec, chosen)
                return _fail(s, n, "the ruling says this step is refused, but the model allows it here", t,
                             step_line=f"{shown}: allowed")
            s.events.append(Event("refused", n, a.description + _choices_text(a, chosen, {})))
            continue
        if s.sat(u.at(ir.not_(en), j)):
            t = s.path()
            last = t.states[-1]
            if any(ev.step(a, last, v) is not None for v in _vectors(a, chosen)):
                raise InternalError(f"{r.where}: Z3 says step {n} ({a.label}) is refused, the evaluator allows it")
            return _fail(s, n, f"the model does not allow this step here: {_why_refused(sy, ev, a, chosen, last)}",
                         t, step_line=a.description + _choices_text(a, chosen, {}) + ": not allowed")
        u.extend()
        u.assert_(u.took(j, s.idx[st.action], chosen))
        j += 1
        s.events.append(Event("done", n, index=j - 1))
        for e in st.expect:
            res = _expectation(s, e.expr, e.text, j, n)
            if res is not None:
                return res
            s.events.append(Event("expect", n, e.text))
    end = len(r.steps) + 1
    for e in r.expect:
        res = _expectation(s, e.expr, e.text, j, end)
        if res is not None:
            return res
        s.events.append(Event("expect", end, e.text))
    if not s.sat():
        raise InternalError(f"{r.where}: the steps were each allowed, but no path takes them all")
    rep = s.path()
    _confirm_pass(s, rep)
    checked = _concrete_all(s)
    return RulingResult(r, Outcome.PASS, "the model agrees with the ruling", rep, tuple(s.events), None,
                        "PASS", "z3", checked)


def _expectation(s: _Seq, e: Expr, text: str, j: int, n: int) -> RulingResult | None:
    if not s.sat(s.u.at(ir.not_(e), j)):
        return None
    t = s.path()
    if s.ev.compile(e)(t.states[-1], None, {}):
        raise InternalError(f"{s.r.where}: Z3 says '{text}' fails after step {n}, the evaluator says it holds")
    where = "at the end" if n > len(s.r.steps) else f"after step {n} ({s.r.steps[n - 1].text})"
    return _fail(s, n, f"the ruling expects {text}, but the model does not: it is false here", t, where=where)


def _fail(s: _Seq, n: int, why: str, trace: Trace | None, step_line: str = "", where: str = "") -> RulingResult:
    if not where:
        where = "at the situation" if n == 0 else f"at step {n} ({s.r.steps[n - 1].text})"
    events = [*s.events, Event("fail", n, step_line, where=where)]
    checked = _concrete_all(s, failed=n)
    return RulingResult(s.r, Outcome.FAIL, why, trace, tuple(events), n, "FAIL", "z3", checked)


def _choices_text(a: Action, vec: Mapping[str, Value], _named: Mapping[str, Value]) -> str:
    """`` [choosing label=value, ...]`` as traces show choices (nothing when there are none)."""
    cs = {c.name: c for c in a.choices}
    items = [f"{cs[k].label}={_fmt(_show(cs[k].type, v))}" for k, v in vec.items() if k in cs]
    return f" [choosing {', '.join(items)}]" if items else ""


def _show(t: ir.Type, v: Value) -> Value:
    return t.label(str(v)) if isinstance(t, ir.EnumT) else v


def _fmt(v: Value) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _why_refused(sy: System, ev: Evaluator, a: Action, chosen: Mapping[str, Value], s: State) -> str:
    """The requirements of ``a`` (with the named choices) that fail in ``s``, in game terms."""
    g = _with_choices(a, chosen).guard
    failing = [c for c in ir.conjuncts(g)
               if not any(isinstance(x, ir.Choice) for x in ir.walk(c)) and not ev.compile(c)(s, None, {})]
    if failing:
        shown = [_clip(relabel_text(sy, c)) for c in failing[:3]]
        return "it needs " + "; ".join(shown) + ("; ..." if len(failing) > 3 else "")
    open_ = [c.label for c in a.choices if c.name not in chosen]
    return f"no choice of {', '.join(open_)} meets its requirements" if open_ else "its requirements fail"


def _clip(text: str, n: int = 160) -> str:
    return text if len(text) <= n else text[: n - 4] + " ..."


def relabel_text(sy: System, e: Expr) -> str:
    """``e`` as text with variables and values by their labels."""
    from ..report import show_expr

    labels = {v.name: v.label for v in sy.vars}

    def go(x: Expr) -> Expr:
        if isinstance(x, ir.Var):
            return ir.Var(labels.get(x.name, x.name), x.type, x.primed)
        if isinstance(x, ir.Const) and isinstance(x.type, ir.EnumT):
            return ir.Const(x.type.label(str(x.value)), x.type)
        if isinstance(x, ir.App):
            return ir.App(x.op, tuple(go(y) for y in x.args), x.type)
        return x

    text = show_expr(go(e))
    return text[1:-1] if text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]) else text


def _balanced(t: str) -> bool:
    depth = 0
    for ch in t:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


# --------------------------------------------------------------------------- the concrete side


def _confirm_pass(s: _Seq, rep: Trace) -> None:
    """The representative path, replayed, shows what Z3 said: refusals refused, expectations true."""
    res = _concrete(s.r, s.ev, [rep.states[0]], follow=rep)
    if res is not None:
        raise InternalError(f"{s.r.where}: Z3 says the ruling holds; the evaluator, replaying the same path, "
                            f"finds it fails at step {res}")


def _concrete_all(s: _Seq, failed: int | None = None) -> str:
    """Replay the ruling concretely on every matching state when they are few; they must agree with Z3."""
    r, sy = s.r, s.r.system
    partial = "Z3 for every matching state; concretely on the path shown"
    n_init = 1
    for iv in sy.init_vars:
        n_init *= len(iv.values)
        if n_init > _ENUMERATE:
            return partial
    for st in r.steps:
        if st.action is not None and _n_vectors(sy.actions[st.action], dict(st.choices)) > CONCRETE_CHOICES:
            return partial
    starts = list(itertools.islice(s.ev.initial_states(), CONCRETE_STATES + 1))
    if len(starts) > CONCRETE_STATES:
        return partial
    try:
        res = _concrete(r, s.ev, starts)
    except _TooMany:
        return "Z3 for every matching state; concretely on the path shown"
    if res != failed and not (failed == 0 and not starts):
        raise InternalError(f"{r.where}: Z3 and the evaluator disagree: Z3 says "
                            f"{'it holds' if failed is None else f'it fails at step {failed}'}, the evaluator says "
                            f"{'it holds' if res is None else f'it fails at step {res}'}")
    if not starts:
        return "Z3 and the evaluator: no state matches"
    if len(starts) == 1:
        return "Z3 and the evaluator, on the one matching state"
    return f"Z3 and the evaluator, on each of the {len(starts)} matching states"


class _TooMany(Exception):
    pass


def _concrete(r: Ruling, ev: Evaluator, starts: Sequence[State], follow: Trace | None = None) -> int | None:
    """The ruling on the evaluator from ``starts``: the number of the first step that fails, or None.

    With ``follow``, only the choices that path made are taken (one path);
    otherwise every choice the ruling leaves open.
    """
    sy = r.system
    states = set(starts)
    k = 0
    # ev's system may hold only the actions the ruling takes: steps are applied by their Action
    for n, st in enumerate(r.steps, 1):
        if st.action is None:
            if st.refused:
                continue
            return n
        a = sy.actions[st.action]
        chosen = dict(st.choices)
        if st.refused:
            if any(ev.step(a, x, v) is not None for x in states for v in _vectors(a, chosen)):
                return n
            continue
        nxt: set[State] = set()
        for x in states:
            if not any(ev.step(a, x, v) is not None for v in _vectors(a, chosen)):
                return n
            if follow is not None:
                t = ev.step(a, x, dict(_raw_choices(follow, k, a)))
                if t is None:
                    return n
                nxt.add(t)
            else:
                nxt.update(t for v in _vectors(a, chosen) if (t := ev.step(a, x, v)) is not None)
            if len(nxt) > _FRONTIER:
                raise _TooMany()
        states = nxt
        k += 1
        for e in st.expect:
            f = ev.compile(e.expr)
            if not all(f(x, None, {}) for x in states):
                return n
    for e in r.expect:
        f = ev.compile(e.expr)
        if not all(f(x, None, {}) for x in states):
            return len(r.steps) + 1
    return None


def _raw_choices(t: Trace, k: int, a: Action) -> list[tuple[str, Value]]:
    """The raw choice values of step ``k`` of a replayed trace (read back from its labels)."""
    by_label = {c.label: c for c in a.choices}
    out: list[tuple[str, Value]] = []
    for lab, shown in t.steps[k].choices:
        c = by_label[lab]
        if isinstance(c.type, ir.EnumT):
            val = next(v for v in c.type.values if c.type.label(v) == shown)
            out.append((c.name, val))
        else:
            out.append((c.name, shown))
    return out


# --------------------------------------------------------------------------- questions


def _question(r: Ruling, timeout: float | None) -> RulingResult:
    q = r.question
    assert q is not None
    depth = q.depth if q.depth is not None else DEFAULT_DEPTH
    opts = Options(depth=depth, kmax=8, timeout=timeout)
    if q.kind == "always_after":
        happens = _step_happens(r, depth, timeout)
        if happens is not True:
            why = ("the solver gave no answer whether the step can happen" if happens is None else
                   f"the step '{q.step_text}' never happens within {depth} steps of this situation: "
                   "the answer would hold only because it never happens")
            return RulingResult(r, Outcome.UNKNOWN, why, engine="bmc")
    res = _answer(r.system, q.prop, opts)
    v = res.verdict
    answer = "HOLDS_TO_DEPTH(%d)" % res.depth if v is Verdict.HOLDS_TO_DEPTH else v.name
    bounded = q.depth is not None
    if q.kind == "reachable":
        happened: bool | None = True if v is Verdict.PROVED else False if v is Verdict.VIOLATED else None
        if happened is None and bounded and res.reason.startswith("target not reached"):
            happened = False  # not within the depth the ruling asks about
        answer = {True: "REACHABLE", False: "UNREACHABLE", None: "UNKNOWN"}[happened]
        if happened is not None and not bounded and happened is False and v is not Verdict.VIOLATED:
            happened = None
        if happened is None:
            return RulingResult(r, Outcome.UNKNOWN, res.reason, res.trace, answer=answer, engine=res.engine)
        ok = happened is q.expected
        what = ("it can happen: a witness" if happened and res.trace is not None else
                "it cannot happen" + (f" within {depth} steps" if bounded and v is not Verdict.VIOLATED else "") +
                (f" ({res.reason})" if res.reason else ""))
        reason = (f"the model agrees: {what}" if ok else
                  f"the ruling says it {'can' if q.expected else 'cannot'} happen; the model says {what}")
        return RulingResult(r, Outcome.PASS if ok else Outcome.FAIL, reason, res.trace, answer=answer,
                            engine=res.engine)
    # never / always_after: the property holds (True), fails with a trace (False), or no answer
    if v is Verdict.PROVED:
        holds: bool | None = True
    elif v is Verdict.HOLDS_TO_DEPTH:
        holds = True if q.expected or bounded else None
    elif v is Verdict.VIOLATED:
        holds = False
    else:
        holds = None
    if holds is None:
        reason = res.reason or "no answer"
        if v is Verdict.HOLDS_TO_DEPTH:
            reason = (f"no counterexample within {res.depth} steps and no proof; the ruling says there is one "
                      "(give 'depth' to ask about a bounded number of steps)")
        return RulingResult(r, Outcome.UNKNOWN, reason, res.trace, answer=answer, engine=res.engine)
    ok = holds is q.expected
    said = {("never", True): "this never happens", ("never", False): "this can happen",
            ("always_after", True): "this always holds after the step",
            ("always_after", False): "this can fail after the step"}
    model = {("never", True): "it never happens", ("never", False): "it happens: a counterexample",
             ("always_after", True): "it always holds", ("always_after", False): "it fails: a counterexample"}
    if v is Verdict.HOLDS_TO_DEPTH and holds:
        model_text = f"it holds for every path of up to {res.depth} steps"
    else:
        model_text = model[(q.kind, holds)] + (f" ({res.reason})" if res.reason and holds else "")
    reason = (f"the model agrees: {model_text}" if ok else
              f"the ruling says {said[(q.kind, q.expected)]}; the model says {model_text}")
    return RulingResult(r, Outcome.PASS if ok else Outcome.FAIL, reason, res.trace, answer=answer,
                        engine=res.engine)


def _answer(sy: System, prop: Property, opts: Options) -> Result:
    """A small situation is explored exhaustively first (an answer and the shortest trace at once), then ``auto``."""
    n = 1
    for iv in sy.init_vars:
        n *= len(iv.values)
        if n > EXHAUST_INITIAL:
            break
    if n <= EXHAUST_INITIAL:
        e = explicit.check(sy, prop, replace(opts, depth=1_000_000, max_states=EXHAUST_STATES), (), None)
        if e.verdict in (Verdict.PROVED, Verdict.VIOLATED):
            return e
    return check_property(sy, prop, "auto", opts)


def _step_happens(r: Ruling, depth: int, timeout: float | None) -> bool | None:
    """Some path of at most ``depth`` steps from the situation takes the step of an ``always_after`` question."""
    q = r.question
    assert q is not None
    conds = dict(q.step_conds)
    if not conds:
        return False
    clock = Clock(timeout)
    fresh_context()
    u = Unrolling(r.system, initial=True, deadline=clock.deadline)
    for _ in range(depth):
        u.extend()
        res = u.check(u.fired_where(conds))
        if res is SatResult.SAT:
            return True
        if res is SatResult.UNKNOWN:
            return None
    return False
