"""Loop search over a card pool: candidates from the ability graph, then the lasso check.

:func:`find_loops` compiles the cards (override files first), builds the
two-player ability graph (:mod:`ruleproof.cards.graph`; your cards by code,
the opponent's as ``opp:CODE``: :func:`search_space`), takes its short cycles as
candidates, encodes each one (:mod:`ruleproof.loops.encode`) and classifies it
(:mod:`ruleproof.loops.lasso`).  It returns a frozen :class:`LoopReport`;
nothing is printed (a ``progress`` callback sees each candidate).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from ruleproof.cards.abilities import Ability
from ruleproof.cards.graph import (
    OPPONENT,
    YOU,
    Candidate,
    build_ability_graph,
    facts_from_pool,
    find_candidates,
    split_key,
    two_player_abilities,
)
from ruleproof.cards.overrides import Overrides, compile_pool
from ruleproof.cards.pool import Card, Deck, Pool
from ruleproof.errors import InputError
from ruleproof.loops.encode import LoopCard
from ruleproof.loops.lasso import Category, LoopResult, trace_json
from ruleproof.report import JSON_VERSION

__all__ = ["LoopReport", "ProgressCallback", "SearchSpace", "find_loops", "loop_card", "report_json", "result_json",
           "search_space"]

ProgressCallback = Callable[[int, int, Candidate], None]


@dataclass(frozen=True)
class LoopReport:
    """Every candidate examined, with its classification, and how much was analysable.

    ``counts``: results per category (``(category, count)`` pairs, in
    :class:`Category` order).  ``ability_coverage``: the compiler coverage of
    the cards searched (JSON-ready, from :func:`ruleproof.cards.coverage.coverage_json`).
    """

    results: tuple[LoopResult, ...]
    cards: int
    candidates: int
    counts: tuple[tuple[str, int], ...]
    ability_coverage: tuple[tuple[str, Any], ...]
    seconds: float

    def loops(self) -> tuple[LoopResult, ...]:
        """The results that are loops (unbounded, mandatory or limited)."""
        keep = {Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED}
        return tuple(r for r in self.results if r.category in keep)


def loop_card(card: Card, owner: str = "you") -> LoopCard:
    """The encoder's view of a pool card."""
    return LoopCard(card.code, card.name, card.type, card.faction, card.traits, card.cost, card.strength,
                    card.unique, card.loyal, card.icons, card.keywords, owner)


@dataclass(frozen=True)
class SearchSpace:
    """The compiled cards and loop candidates of a search.

    ``compiled``: card code -> abilities (each searched card once, for the
    coverage figures).  ``abilities`` and ``cards``: by card key, ``CODE`` for
    your copy and ``opp:CODE`` for the opponent's (a code given both ways has
    both copies).  ``candidates``: the cycles of the ability graph.
    ``bystanders``: characters an attachment of a candidate may be attached
    to when no card of the candidate can host it, in order of preference
    (the searched cards, then the rest of the pool by code; each as yours and
    as the opponent's).
    """

    compiled: Mapping[str, tuple[Ability, ...]]
    abilities: Mapping[str, tuple[Ability, ...]]
    cards: Mapping[str, LoopCard]
    candidates: tuple[Candidate, ...]
    bystanders: tuple[LoopCard, ...] = ()


def search_space(pool: Pool, codes: Iterable[str] | None = None, deck: Deck | None = None,
                 opponent_codes: Iterable[str] = (), *, overrides: Overrides | None = None, max_length: int = 3,
                 max_candidates: int = 5000) -> SearchSpace:
    """Compile the searched cards, build the two-player ability graph and list its candidates.

    ``codes`` and ``deck`` are your cards, ``opponent_codes`` the opponent's;
    none of the three means the whole pool (as yours).

    Raises
    ------
    InputError
        A code not in the pool.
    """
    opp = tuple(dict.fromkeys(opponent_codes))
    mine = list(codes or ()) + (list(deck.codes()) if deck is not None else [])
    for c in mine + list(opp):
        if pool.get(c) is None:
            raise InputError(f"unknown card code {c}")
    wanted = tuple(dict.fromkeys(mine + list(opp))) or None
    compiled = compile_pool(pool, overrides, wanted)
    keyed = two_player_abilities(compiled, mine if wanted is not None else None, opp)
    facts = {k: v for k, v in facts_from_pool(pool).items() if k in compiled}
    graph = build_ability_graph(keyed, facts)
    cands = find_candidates(graph, max_length=max_length, max_candidates=max_candidates)
    cards: dict[str, LoopCard] = {}
    for key in keyed:
        who, code = split_key(key)
        card = pool.get(code)
        assert card is not None
        cards[key] = dataclasses.replace(loop_card(card, "opp" if who == OPPONENT else "you"), code=key)
    return SearchSpace(compiled, keyed, cards, cands, _bystanders(pool, mine + list(opp)))


def _bystanders(pool: Pool, searched: Iterable[str]) -> tuple[LoopCard, ...]:
    """Possible hosts of an attachment: the searched characters first, then every other pool character."""
    first = [c for c in dict.fromkeys(searched)]
    rest = sorted(c.code for c in pool.cards if c.type == "character" and c.code not in set(first))
    out: list[LoopCard] = []
    for code in first + rest:
        card = pool.get(code)
        if card is None or card.type != "character":
            continue
        out.append(loop_card(card))
        out.append(dataclasses.replace(loop_card(card, "opp"), code=f"opp:{code}"))
    return tuple(out)


def find_loops(
    pool: Pool,
    codes: Iterable[str] | None = None,
    deck: Deck | None = None,
    opponent_codes: Iterable[str] = (),
    progress: ProgressCallback | None = None,
    *,
    overrides: Overrides | None = None,
    max_length: int = 3,
    max_candidates: int = 5000,
    timeout: float | None = 20.0,
) -> LoopReport:
    """Search ``pool`` (or only ``codes``, a deck and opponent cards) for loops.

    Parameters
    ----------
    pool
        The card pool.
    codes, deck
        Restrict the search to these cards (their union); neither means the
        whole pool.
    opponent_codes
        Cards owned (and controlled) by the opponent; they are searched too,
        as the opponent's copies (a code also in ``codes`` has a copy on each
        side), and cycles may run through both players' abilities.
    progress
        Called as ``progress(done, total, candidate)`` before each candidate.
    overrides
        Hand-written abilities that take precedence over the compiler.
    max_length, max_candidates
        Longest cycle (in abilities) and most candidates examined.
    timeout
        Seconds per solver query (None: no limit).

    Raises
    ------
    InputError
        A code not in the pool.
    """
    from ruleproof.scale.loops import search_loops  # the one driver, in this process or on a cluster

    return search_loops(pool, codes, deck, opponent_codes, progress, overrides=overrides, max_length=max_length,
                        max_candidates=max_candidates, timeout=timeout)


def _result_json(r: LoopResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "cards": list(r.cards),
        "abilities": [f"{c}#{i}" for c, i in r.abilities],
        "category": r.category.value,
        "passes": r.passes,
        "net_gain": dict(r.net_gain),
        "binding": list(r.binding),
        "reason": r.reason,
        "phase": r.phase or None,
        "trace_passes": r.trace_passes,
        "trace": trace_json(r.trace),
    }
    if r.hosts:  # attachments: the card each is attached to
        out["hosts"] = {a: h for a, h in r.hosts}
    if r.players and r.players != (YOU,):  # cross-player information, only where the opponent takes part
        out["players"] = list(r.players)
        out["continued_by"] = list(r.continued_by)
    return out


def result_json(r: LoopResult) -> dict[str, Any]:
    """One candidate's entry of :func:`report_json` (``loops --jsonl`` prints it as soon as it is known)."""
    return _result_json(r)


def report_json(report: LoopReport) -> dict[str, Any]:
    """The JSON object of ``ruleproof loops --json`` (``version`` 1).

    ``loops`` lists every candidate (not-a-loop and unsupported ones too, with
    the reason); ``coverage`` says how many were analysable.  A candidate
    with the opponent's abilities names their cards ``opp:CODE`` and adds
    ``players`` (the controllers of its abilities) and ``continued_by`` (the
    players who must each choose to continue it); one-player entries are as
    before.
    """
    counts = dict(report.counts)
    analysed = sum(v for k, v in counts.items() if k not in (Category.UNSUPPORTED.value, Category.UNKNOWN.value))
    return {
        "version": JSON_VERSION,
        "loops": [_result_json(r) for r in report.results],
        "coverage": {
            "cards": report.cards,
            "candidates": report.candidates,
            "analysed": analysed,
            "by_category": counts,
            "abilities": dict(report.ability_coverage),
        },
        "seconds": report.seconds,
    }
