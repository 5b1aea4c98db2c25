"""Rules consistency checks: the game can proceed, outcomes are determined, "must" never meets "cannot".

Every model gets these checks as properties of its system (``Property.check``
names the check), generated from what the model already says, so that they
are checked, reported, replayed and switched off like any other property:

``deadlock``
    "the game can always proceed": every reachable state that is not a
    declared end (:meth:`ruleproof.dsl.Model.game_end`) enables some action.
    An action is enabled when its guard holds for some choice vector; the
    existential over the choices that the guard reads is expanded (at most
    :data:`MAX_EXPANSION` vectors), so the property is an ordinary invariant
    that every engine, the evaluator and the replay understand.
``determinism``
    "outcomes are determined": no reachable step has two ``set``\\ s of one
    variable that both apply with different values, unless the later one
    states the rule that makes it win (``precedence=``).  The DSL merges the
    writes of a step into one update (the later wins); the check keeps them
    apart, so that an under-specified rule (two set modifiers applied at the
    same moment, with nobody ordering them) is reported instead of silently
    resolved by the order of the model's source lines.
``must-cannot``
    for every outcome a model declares both an obligation for
    (:meth:`~ruleproof.dsl.Model.must`) and an absolute prohibition of
    (:meth:`~ruleproof.dsl.Model.cannot`): without a declared resolution
    (:meth:`~ruleproof.dsl.Model.resolve`), no reachable state has both for
    one element; with one, the model keeps it ("cannot" wins: no step brings
    the outcome about while it is prohibited; "must" wins: no step drops an
    obligation it has not carried out).

Explanations of violations (:func:`explain`) are computed on the concrete
evaluator from the replayed trace.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Sequence

from . import ir
from .errors import InputError, SourceLoc
from .evaluator import Evaluator, State
from .ir import Action, BoolT, EnumT, Expr, IntT, Property, PropKind, System, Value, show_expr

__all__ = [
    "CHECKS",
    "MAX_EXPANSION",
    "DEADLOCK",
    "DETERMINISM",
    "MUST_CANNOT",
    "Declared",
    "Resolution",
    "Consistency",
    "consistency_properties",
    "enabled_expr",
    "explain",
]

DEADLOCK = "deadlock"
DETERMINISM = "determinism"
MUST_CANNOT = "must-cannot"
CHECKS = (DEADLOCK, DETERMINISM, MUST_CANNOT)
"""Names of the consistency checks (``ruleproof check --skip-check NAME``)."""

MAX_EXPANSION = 4096
"""Most choice vectors one guard may be expanded over for the deadlock check."""

DEADLOCK_NAME = "the game can always proceed (no deadlock)"
DETERMINISM_NAME = "outcomes are determined (no two rules set one value differently at once)"


@dataclass(frozen=True)
class Declared:
    """A ``must`` (obligation) or ``cannot`` (prohibition) of an outcome, per element of a sort."""

    outcome: str
    kind: str  # "must" | "cannot"
    cond: tuple[tuple[str, Expr], ...]  # (element name or "", condition)
    cites: tuple[str, ...]
    doc: str = ""
    loc: SourceLoc | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Resolution:
    """Which of ``must`` and ``cannot`` wins for an outcome, and what "the outcome happened" means."""

    outcome: str
    wins: str  # "must" | "cannot"
    happened: tuple[tuple[str, Expr, Expr], ...]  # (element, happened, happened after the step)
    cites: tuple[str, ...]
    doc: str = ""
    loc: SourceLoc | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Consistency:
    """What a model declares for the consistency checks."""

    ends: tuple[tuple[Expr, tuple[str, ...]], ...] = ()
    declared: tuple[Declared, ...] = ()
    resolutions: tuple[Resolution, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()  # (check, reason)


def _size(t: ir.Type) -> int:
    if isinstance(t, BoolT):
        return 2
    if isinstance(t, IntT):
        return max(0, t.hi - t.lo + 1)
    assert isinstance(t, EnumT)
    return len(t.values)


def _values(t: ir.Type) -> list[Expr]:
    if isinstance(t, BoolT):
        return [ir.FALSE, ir.TRUE]
    if isinstance(t, IntT):
        return [ir.const(v) for v in range(t.lo, t.hi + 1)]
    assert isinstance(t, EnumT)
    return [ir.Const(v, t) for v in t.values]


def enabled_expr(a: Action) -> Expr:
    """``exists choices. guard`` of ``a`` as a state expression (choices the guard reads are expanded)."""
    read = {x.name for x in ir.walk(a.guard) if isinstance(x, ir.Choice)}
    chs = [c for c in a.choices if c.name in read]
    if any(_size(c.type) == 0 for c in a.choices):
        return ir.FALSE
    if not chs:
        return a.guard
    n = 1
    for c in chs:
        n *= _size(c.type)
    if n > MAX_EXPANSION:
        raise InputError(
            f"the deadlock check would expand the guard of '{a.label}' over {n} choice vectors "
            f"(at most {MAX_EXPANSION}): make the guard read fewer choices, or declare "
            f"m.skip_check('{DEADLOCK}', reason=...)",
            a.loc,
        )
    # exists ch. (F and B(ch)) is F and (exists ch. B(ch)) when F reads no choice: only B is expanded, and the
    # expansion stops at the first choice vector that makes B true (a guard that compares chosen values among
    # themselves, beside requirements on the state, is then expanded once, not once per vector)
    parts = ir.conjuncts(a.guard)
    reads = [any(isinstance(x, ir.Choice) for x in ir.walk(e)) for e in parts]
    free = [e for e, r in zip(parts, reads, strict=True) if not r]
    bound = ir.and_(*(e for e, r in zip(parts, reads, strict=True) if r))
    out: list[Expr] = []
    for combo in itertools.product(*(_values(c.type) for c in chs)):
        out.append(ir.substitute(bound, {c.name: v for c, v in zip(chs, combo, strict=True)}))
        if out[-1] == ir.TRUE:
            return ir.and_(*free)
    return ir.and_(*free, ir.or_(*out))


def _union(groups: Sequence[Sequence[str]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c for g in groups for c in g))


def _conflicts(a: Action) -> list[Expr]:
    """Conditions under which two writes of ``a`` set one cell to different values."""
    by_var: dict[str, list[ir.Write]] = {}
    for w in a.writes:
        by_var.setdefault(w.var, []).append(w)
    out: list[Expr] = []
    for ws in by_var.values():
        for w1, w2 in itertools.combinations(ws, 2):
            first, second = (w1, w2) if w1.site < w2.site else (w2, w1)
            if first.site == second.site or second.precedence:
                continue
            c = ir.and_(first.when, second.when, ir.not_(ir.eq(first.value, second.value)))
            if c != ir.FALSE:
                out.append(c)
    return out


def consistency_properties(actions: Sequence[Action], decl: Consistency,
                           enabled: Callable[[Action], Expr] = enabled_expr) -> list[Property]:
    """The consistency-check properties of a system with ``actions`` and declarations ``decl``; ``enabled``
    computes :func:`enabled_expr` (a caller that builds many systems from mostly the same actions passes a
    memoised one)."""
    skipped = {c for c, _ in decl.skipped}
    props: list[Property] = []
    if DEADLOCK not in skipped:  # with no action at all, every reachable state must be a declared end
        ends = [e for e, _ in decl.ends]
        expr = ir.or_(*ends, *(enabled(a) for a in actions))
        cites = _union([*(a.cites for a in actions), *(c for _, c in decl.ends)])
        doc = "Every reachable state that is not a declared end of the game enables some action."
        props.append(Property(DEADLOCK_NAME, PropKind.INVARIANT, expr, cites, doc, check=DEADLOCK))
    if DETERMINISM not in skipped:
        conds: list[tuple[str, Expr]] = []
        cites_d: list[tuple[str, ...]] = []
        for a in actions:
            cs = _conflicts(a)
            if cs:
                conds.append((a.label, ir.not_(ir.or_(*cs))))
                cites_d.append(a.cites)
        # also without candidate conflicts: then every outcome is determined by construction
        if actions:
            doc = ("No step sets one value twice with different results, unless the later rule "
                   "states why it takes precedence."
                   + ("" if conds else " No action of this model sets a value twice: determined by construction."))
            props.append(Property(DETERMINISM_NAME, PropKind.ACTION, ir.TRUE, _union(cites_d), doc, family="",
                                  conds=tuple(conds), check=DETERMINISM))
    if MUST_CANNOT not in skipped:
        props.extend(_must_cannot(actions, decl))
    return props


def _must_cannot(actions: Sequence[Action], decl: Consistency) -> list[Property]:
    props: list[Property] = []
    outcomes = list(dict.fromkeys(d.outcome for d in decl.declared))
    res = {r.outcome: r for r in decl.resolutions}
    for o in outcomes:
        musts = [d for d in decl.declared if d.outcome == o and d.kind == "must"]
        cannots = [d for d in decl.declared if d.outcome == o and d.kind == "cannot"]
        if not musts or not cannots:
            continue
        must = _by_element(musts)
        cannot = _by_element(cannots)
        keys = [k for k in must if k in cannot]
        cites = _union([*(d.cites for d in musts), *(d.cites for d in cannots)])
        r = res.get(o)
        if r is None:
            both = [(k, ir.and_(must[k], cannot[k])) for k in keys]
            expr = ir.and_(*(ir.not_(b) for _, b in both))
            props.append(Property(
                f"'must' never meets 'cannot': {o}", PropKind.INVARIANT, expr, cites,
                f"No reachable state both obliges and prohibits '{o}' for one element, since the model "
                f"declares no rule saying which wins.", conds=tuple(both), check=MUST_CANNOT))
            continue
        hap = {k: (h, hp) for k, h, hp in r.happened}
        parts: list[Expr] = []
        for k in keys:
            if k not in hap:
                continue
            h, hp = hap[k]
            if r.wins == "cannot":
                # prohibited and not yet happened => does not happen on this step
                parts.append(ir.implies(ir.and_(cannot[k], ir.not_(h)), ir.not_(hp)))
            else:
                # obliged and prohibited => the step keeps the obligation or carries it out
                parts.append(ir.implies(ir.and_(must[k], cannot[k], ir.not_(h)),
                                        ir.or_(ir.prime(must[k]), hp)))
        cond = ir.and_(*parts)
        doc = (f"'{o}': the model says '{r.wins}' wins ({', '.join(r.cites)}); "
               + ("no step brings it about while it is prohibited." if r.wins == "cannot"
                  else "no step drops the obligation without carrying it out."))
        props.append(Property(
            f"'{r.wins}' prevails over '{'must' if r.wins == 'cannot' else 'cannot'}': {o}", PropKind.ACTION, ir.TRUE,
            _union([cites, r.cites]), doc, family="", conds=tuple((a.label, cond) for a in actions), check=MUST_CANNOT))
    return props


def _by_element(ds: Sequence[Declared]) -> dict[str, Expr]:
    """Per element: any of the declarations applies."""
    out: dict[str, list[Expr]] = {}
    for d in ds:
        for k, c in d.cond:
            out.setdefault(k, []).append(c)
    return {k: ir.or_(*cs) for k, cs in out.items()}




# --------------------------------------------------------------------------- explanations


def _show(v: Value) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def explain(system: System, prop: Property, states: Sequence[State], action: str | None,
            ev: Evaluator | None = None) -> tuple[str, tuple[str, ...]]:
    """Why a consistency property failed on a replayed trace: a reason and the rules involved.

    ``states`` are the trace's states and ``action`` the label of its last step.
    """
    ev = ev or Evaluator(system)
    last_step: tuple[int, dict[str, Value]] | None = None
    if action is not None and len(states) >= 2:
        ai = next(i for i, a in enumerate(system.actions) if a.label == action)
        for ch in ev._choice_space(ai):
            t = ev.apply(ai, states[-2], ch)
            if t == states[-1] and not ev.step_ok(prop, system.actions[ai], states[-2], t, ch):
                last_step = (ai, dict(ch))
                break
    if prop.check == DEADLOCK:
        s = states[-1]
        blocked: list[str] = []
        cites: list[tuple[str, ...]] = []
        seen: set[str] = set()
        for a in system.actions:
            if a.family in seen:
                continue
            seen.add(a.family)
            failing = next((c for c in ir.conjuncts(a.guard)
                            if not _free_choice(c) and not ev.compile(c)(s, None, {})), None)
            why = f"needs {_clip(show_expr(failing))}" if failing is not None else "no choice satisfies its guard"
            blocked.append(f"{a.label} {why}")
            cites.append(a.cites)
        why_stuck = "; ".join(blocked) or "the model declares no action"
        return ("stuck: no action is enabled and this is not a declared end; " + why_stuck, _union(cites))
    if prop.check == MUST_CANNOT and prop.kind is PropKind.INVARIANT:
        s = states[-1]
        hit = [k or "it" for k, c in prop.conds if ev.compile(c)(s, None, {})]
        return (f"both obliged and prohibited, and the model does not say which wins (declare resolve(...)): "
                f"{', '.join(hit)}", prop.cites)
    if prop.check == DETERMINISM and last_step is not None:
        ai, ch = last_step
        a = system.actions[ai]
        s = states[-2]
        parts: list[str] = []
        by_var: dict[str, list[ir.Write]] = {}
        for w in a.writes:
            if ev.compile(w.when)(s, None, ch):
                by_var.setdefault(w.var, []).append(w)
        label = {v.name: v.label for v in system.vars}
        for var, ws in by_var.items():
            vals = [(w, ev.compile(w.value)(s, None, ch)) for w in ws]
            if len({_show(x) for _, x in vals}) > 1:
                alts = " vs ".join(f"{_show(x)} (set at {w.loc or '?'})" for w, x in vals)
                parts.append(f"{label.get(var, var)} is set to {alts}")
        return (f"ambiguous outcome of '{a.description}': " + "; ".join(parts)
                + " — the model must add the choice the rules give, or state the tie-break (precedence=)", a.cites)
    return ("", prop.cites)


def _clip(text: str, n: int = 90) -> str:
    return text if len(text) <= n else text[: n - 4] + " ..."


def _free_choice(e: Expr) -> bool:
    return any(isinstance(x, ir.Choice) for x in ir.walk(e))
