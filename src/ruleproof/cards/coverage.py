"""Reader coverage over a card pool: how much ability text is read, and what is not.

Two numbers per ability type: **full** (every clause read, :attr:`Compiled.FULL`) and **structured**
(:func:`structured`: the ability was split into its clauses, some were read, and every clause that was not
is named with its role; full abilities count too), with how many of the structured ones had an effect
read.  The goals of the project are stated over the *initiated* abilities (actions, reactions,
interrupts, forced ones, when revealed): :attr:`Coverage.initiated`.

:func:`coverage` is pure and returns a frozen :class:`Coverage`; :func:`render_coverage` and
:func:`coverage_json` turn it into text or a JSON-ready dict (engines never print).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from ruleproof.cards.abilities import Ability, AbilityType, ClauseRole, Compiled
from ruleproof.report import JSON_VERSION

__all__ = ["INITIATED", "Coverage", "TypeCounts", "coverage", "coverage_json", "effects_read", "normalise_reason",
           "render_coverage", "structured"]

_FACTION_ICON = re.compile(r"\[(baratheon|greyjoy|lannister|martell|stark|targaryen|thenightswatch|tyrell|neutral)\]")

#: The ability types the coverage goals count: the ones a player or the game initiates.
INITIATED = (AbilityType.ACTION, AbilityType.REACTION, AbilityType.INTERRUPT, AbilityType.FORCED_REACTION,
             AbilityType.FORCED_INTERRUPT, AbilityType.WHEN_REVEALED)


def structured(a: Ability) -> bool:
    """Was the structure of ``a`` read, with the unread part named precisely?

    Full abilities are; a partial one is when it was split into its clauses (triggering condition, play
    restriction, costs, effect sentences, limit) and some of them were read: each clause that was not read, or
    the part of one that was not, is then an :class:`~ruleproof.cards.abilities.Unread` of its own with its
    role (a whole triggering condition that is not read is one such clause, role ``trigger``; an effect
    sentence that is not read, role ``effect``).  See :func:`effects_read` for the stricter count.
    """
    if a.compiled is Compiled.FULL:
        return True
    if a.compiled is Compiled.UNSUPPORTED:
        return False
    return not any(u.role is ClauseRole.ABILITY for u in a.unread)


def effects_read(a: Ability) -> bool:
    """:func:`structured`, and at least one of its effects was read."""
    return structured(a) and bool(a.effects or a.keyword is not None)


@dataclass(frozen=True)
class TypeCounts:
    """Counts for one ability type (or a group of types)."""

    full: int = 0
    partial: int = 0
    unsupported: int = 0
    structured: int = 0
    effects_read: int = 0

    @property
    def total(self) -> int:
        """Number of abilities counted."""
        return self.full + self.partial + self.unsupported


@dataclass(frozen=True)
class Coverage:
    """Coverage of a read pool.

    ``by_type`` lists every :class:`AbilityType` in declaration order; ``initiated`` sums the
    :data:`INITIATED` types; ``top_unsupported`` the commonest unread clauses (normalised, see
    :func:`normalise_reason`) with their counts (count descending, then text), at most the ``top``
    asked for; ``by_role`` how many unread clauses of each :class:`ClauseRole` there are.
    """

    cards: int
    total: TypeCounts
    by_type: tuple[tuple[AbilityType, TypeCounts], ...]
    top_unsupported: tuple[tuple[str, int], ...]
    overridden: int = 0
    initiated: TypeCounts = TypeCounts()
    by_role: tuple[tuple[ClauseRole, int], ...] = ()


def normalise_reason(reason: str) -> str:
    """Normalise a reason for grouping: numbers -> N, traits -> «Trait», faction icons -> [faction]."""
    r = re.sub(r"«[^»]*»", "«Trait»", reason)
    r = _FACTION_ICON.sub("[faction]", r)
    r = re.sub(r"\b\d+\b", "N", r)
    return re.sub(r"\s+", " ", r).strip()


def _sum(counts: list[TypeCounts]) -> TypeCounts:
    return TypeCounts(sum(c.full for c in counts), sum(c.partial for c in counts),
                      sum(c.unsupported for c in counts), sum(c.structured for c in counts),
                      sum(c.effects_read for c in counts))


def coverage(abilities: Mapping[str, tuple[Ability, ...]], top: int = 20, overridden: int = 0) -> Coverage:
    """Count abilities read fully / in part / not at all, and the unread clauses.

    Parameters
    ----------
    abilities
        Card code -> abilities (e.g. from :func:`ruleproof.cards.overrides.compile_pool`).
    top
        How many of the commonest (normalised) unread clauses to keep.
    overridden
        How many cards came from override files (reported as is).
    """
    per: dict[AbilityType, Counter[str]] = {t: Counter() for t in AbilityType}
    reasons: Counter[str] = Counter()
    roles: Counter[ClauseRole] = Counter()
    for code in abilities:
        for a in abilities[code]:
            per[a.type][a.compiled.value] += 1
            if structured(a):
                per[a.type]["structured"] += 1
            if effects_read(a):
                per[a.type]["effects_read"] += 1
            for u in a.unread:
                reasons[normalise_reason(u.describe())] += 1
                roles[u.role] += 1
    by_type = tuple((t, TypeCounts(c["full"], c["partial"], c["unsupported"], c["structured"], c["effects_read"]))
                    for t, c in per.items())
    ranked = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[: max(0, top)]
    initiated = _sum([tc for t, tc in by_type if t in INITIATED])
    return Coverage(len(abilities), _sum([tc for _, tc in by_type]), by_type, tuple(ranked), overridden,
                    initiated, tuple((r, roles[r]) for r in ClauseRole if roles[r]))


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:5.1f}%" if d else "    -"


def render_coverage(cov: Coverage) -> str:
    """Render coverage as a plain-text table (stable: no timestamps, fixed order)."""
    lines = [f"cards: {cov.cards}   abilities: {cov.total.total}   overridden cards: {cov.overridden}", ""]
    lines.append(f"{'type':<17}{'full':>7}{'partial':>9}{'unsupp.':>9}{'total':>7}{'full %':>9}{'struct. %':>11}")

    def row(name: str, tc: TypeCounts) -> str:
        return (f"{name:<17}{tc.full:>7}{tc.partial:>9}{tc.unsupported:>9}{tc.total:>7}{_pct(tc.full, tc.total):>9}"
                f"{_pct(tc.structured, tc.total):>11}")

    for t, tc in cov.by_type:
        if tc.total:
            lines.append(row(t.value, tc))
    lines.append(row("all", cov.total))
    ini = cov.initiated
    lines += ["", f"initiated abilities (action, reaction, interrupt, forced, when revealed): {ini.total}",
              f"  read in full: {ini.full} ({_pct(ini.full, ini.total).strip()})",
              f"  structure read, unread clauses named: {ini.structured} ({_pct(ini.structured, ini.total).strip()})",
              f"    of which with an effect read: {ini.effects_read} ({_pct(ini.effects_read, ini.total).strip()})"]
    if cov.by_role:
        lines += ["", "unread clauses by role: " + ", ".join(f"{r.value} {n}" for r, n in cov.by_role)]
    if cov.top_unsupported:
        lines += ["", "commonest unread clauses:"]
        for reason, n in cov.top_unsupported:
            lines.append(f"{n:>6}  {reason}")
    return "\n".join(lines)


def coverage_json(cov: Coverage) -> dict[str, Any]:
    """Return a JSON-ready object (``"version": 1``)."""
    def counts(tc: TypeCounts) -> dict[str, int]:
        return {"full": tc.full, "partial": tc.partial, "unsupported": tc.unsupported, "structured": tc.structured,
                "effects_read": tc.effects_read, "total": tc.total}

    return {
        "version": JSON_VERSION,
        "cards": cov.cards,
        "overridden": cov.overridden,
        "total": counts(cov.total),
        "initiated": counts(cov.initiated),
        "by_type": {t.value: counts(tc) for t, tc in cov.by_type},
        "by_role": {r.value: n for r, n in cov.by_role},
        "top_unsupported": [{"reason": r, "count": n} for r, n in cov.top_unsupported],
    }
