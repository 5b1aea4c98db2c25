"""Compiler coverage over a card pool: how much ability text is understood.

:func:`coverage` is pure and returns a frozen :class:`Coverage`;
:func:`render_coverage` and :func:`coverage_json` turn it into text or a
JSON-ready dict (engines never print).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from ruleproof.cards.abilities import Ability, AbilityType, Compiled

__all__ = ["Coverage", "TypeCounts", "coverage", "coverage_json", "normalise_reason", "render_coverage"]

_FACTION_ICON = re.compile(r"\[(baratheon|greyjoy|lannister|martell|stark|targaryen|thenightswatch|tyrell|neutral)\]")


@dataclass(frozen=True)
class TypeCounts:
    """Counts for one ability type (or the total)."""

    full: int = 0
    partial: int = 0
    unsupported: int = 0

    @property
    def total(self) -> int:
        """Number of abilities counted."""
        return self.full + self.partial + self.unsupported


@dataclass(frozen=True)
class Coverage:
    """Coverage of a compiled pool.

    ``by_type`` lists every :class:`AbilityType` in declaration order;
    ``top_unsupported`` the commonest normalised reasons with their counts
    (count descending, then text), at most the ``top`` asked for.
    """

    cards: int
    total: TypeCounts
    by_type: tuple[tuple[AbilityType, TypeCounts], ...]
    top_unsupported: tuple[tuple[str, int], ...]
    overridden: int = 0


def normalise_reason(reason: str) -> str:
    """Normalise a reason for grouping: numbers -> N, traits -> «Trait», faction icons -> [faction]."""
    r = re.sub(r"«[^»]*»", "«Trait»", reason)
    r = _FACTION_ICON.sub("[faction]", r)
    r = re.sub(r"\b\d+\b", "N", r)
    return re.sub(r"\s+", " ", r).strip()


def coverage(abilities: Mapping[str, tuple[Ability, ...]], top: int = 20, overridden: int = 0) -> Coverage:
    """Count abilities compiled fully / partly / not at all.

    Parameters
    ----------
    abilities
        Card code -> abilities (e.g. from :func:`ruleproof.cards.overrides.compile_pool`).
    top
        How many of the commonest (normalised) reasons to keep.
    overridden
        How many cards came from override files (reported as is).
    """
    per: dict[AbilityType, Counter[Compiled]] = {t: Counter() for t in AbilityType}
    reasons: Counter[str] = Counter()
    for code in abilities:
        for a in abilities[code]:
            per[a.type][a.compiled] += 1
            for r in a.reasons:
                reasons[normalise_reason(r)] += 1
    by_type = tuple(
        (t, TypeCounts(c[Compiled.FULL], c[Compiled.PARTIAL], c[Compiled.UNSUPPORTED])) for t, c in per.items()
    )
    total = TypeCounts(
        sum(tc.full for _, tc in by_type),
        sum(tc.partial for _, tc in by_type),
        sum(tc.unsupported for _, tc in by_type),
    )
    ranked = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[: max(0, top)]
    return Coverage(len(abilities), total, by_type, tuple(ranked), overridden)


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:5.1f}%" if d else "    -"


def render_coverage(cov: Coverage) -> str:
    """Render coverage as a plain-text table (stable: no timestamps, fixed order)."""
    lines = [f"cards: {cov.cards}   abilities: {cov.total.total}   overridden cards: {cov.overridden}", ""]
    lines.append(f"{'type':<17}{'full':>7}{'partial':>9}{'unsupp.':>9}{'total':>7}{'full %':>9}")
    for t, tc in cov.by_type:
        if tc.total:
            lines.append(f"{t.value:<17}{tc.full:>7}{tc.partial:>9}{tc.unsupported:>9}{tc.total:>7}"
                         f"{_pct(tc.full, tc.total):>9}")
    tc = cov.total
    lines.append(f"{'all':<17}{tc.full:>7}{tc.partial:>9}{tc.unsupported:>9}{tc.total:>7}{_pct(tc.full, tc.total):>9}")
    if cov.top_unsupported:
        lines += ["", "commonest phrasings not understood:"]
        for reason, n in cov.top_unsupported:
            lines.append(f"{n:>6}  {reason}")
    return "\n".join(lines)


def coverage_json(cov: Coverage) -> dict[str, Any]:
    """Return a JSON-ready object (``"version": 1``)."""
    def counts(tc: TypeCounts) -> dict[str, int]:
        return {"full": tc.full, "partial": tc.partial, "unsupported": tc.unsupported, "total": tc.total}

    return {
        "version": 1,
        "cards": cov.cards,
        "overridden": cov.overridden,
        "total": counts(cov.total),
        "by_type": {t.value: counts(tc) for t, tc in cov.by_type},
        "top_unsupported": [{"reason": r, "count": n} for r, n in cov.top_unsupported],
    }
