"""Loop search over a card pool: candidates from the ability graph, then the lasso check.

:func:`ruleproof.loops.driver.find_loops` compiles the cards (override files first), builds the
two-player ability graph (:mod:`ruleproof.cards.graph`; your cards by code,
the opponent's as ``opp:CODE``: :func:`search_space`), takes its short cycles as
candidates, encodes each one (:mod:`ruleproof.loops.encode`) and classifies it
(:mod:`ruleproof.loops.lasso`).  It returns a frozen :class:`LoopReport`;
nothing is printed (a ``progress`` callback sees each candidate).

Honest answers.  The report first lists every action and triggered ability
of the searched cards that was not read in full, with the phrases
(``LoopReport.unread``).  Abilities whose unread text could link them into a
cycle the read text does not show (an unread effect, cost or trigger:
:func:`ruleproof.cards.graph.unread_links`) are listed in
``LoopReport.through_unread``.  The report is *complete* (and "nothing found"
means no loop) only when every such ability of the searched cards was read in
full (an unread restriction too) and every candidate was decided (no
``unknown``, no ``unsupported``).

Every card the user names (``--cards``, the opponent's cards) is in the model
of each of their candidates, on the cycle or not: it can pay a cost, be a
target, host an attachment.  The cards of a ``--deck`` join a candidate's
model where the cycle needs them: for each target the cycle chooses, the
first deck card that fits it.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

import networkx as nx

from ruleproof.cards.abilities import Ability, ClauseRole, Compiled, TargetRef
from ruleproof.cards.coverage import coverage, coverage_json, normalise_reason
from ruleproof.cards.graph import (
    OPPONENT,
    YOU,
    Candidate,
    NodeKey,
    build_ability_graph,
    facts_from_pool,
    find_candidates,
    first_copy,
    split_key,
    two_player_abilities,
    unread_links,
)
from ruleproof.cards.overrides import Overrides, compile_pool
from ruleproof.cards.pool import Card, Deck, Pool
from ruleproof.cards.semantics import entry_of, initiated
from ruleproof.errors import InputError
from ruleproof.loops.encode import Encoding, LoopCard, Unsupported, encode, target_match
from ruleproof.loops.lasso import Category, LoopResult, trace_json, unsupported_result
from ruleproof.report import JSON_VERSION

__all__ = ["LoopReport", "ProgressCallback", "SearchSpace", "UnreadAbility", "assemble", "loop_card",
           "plan", "report_json", "result_json", "search_space"]

ProgressCallback = Callable[[int, int, Candidate], None]
#: The longest cycle searched over the whole pool by default (cycles of 3 abilities of the whole pool number some
#: 32,000; ``--max-length 3`` searches them).  A search stopped short of a part of the graph with more abilities
#: than its longest cycle says so (``longer``: the report is not complete).
WHOLE_POOL_LENGTH = 2
#: The most candidates a search examines (a search that stops there says so: its report is not complete).
MAX_CANDIDATES = 100_000
#: Named cards: every cycle of their graph is searched when no strongly connected part of it has more abilities than
#: this (a cycle of 4 abilities of two players' Satin and The New Gift), else cycles of up to 3 abilities ...
NAMED_ALL_CYCLES = 8
#: ... and when the cycles number at most this many (a dense part of 8 abilities holds thousands).
NAMED_ALL_CYCLES_MAX = 300
#: Categories that are a decided answer (a loop of some kind, or none).
ANALYSED = frozenset({Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED, Category.NOT_A_LOOP})


@dataclass(frozen=True)
class UnreadAbility:
    """An action or triggered ability of a searched card that was not read in full.

    ``links``: its unread text could link it into a cycle the read text does
    not show (``out``: it could set off or re-enable others; ``in``: others
    could set it off or re-enable it).
    """

    key: str
    index: int
    name: str
    type: str
    phrases: tuple[str, ...]
    links: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``Name (KEY#i)``."""
        return f"{self.name} ({self.key}#{self.index})"


@dataclass(frozen=True)
class LoopReport:
    """Every candidate examined, with its classification, and how much was analysable.

    ``counts``: results per category (``(category, count)`` pairs, in
    :class:`Category` order).  ``ability_coverage``: the compiler coverage of
    the cards searched (JSON-ready, from :func:`ruleproof.cards.coverage.coverage_json`).
    ``unread``: the searched cards' action/triggered abilities not read in
    full; ``through_unread``: those whose unread text could close a cycle
    (see the module docstring); ``named``: the cards were named (not the
    whole pool).  ``cards`` counts the distinct card codes searched (their
    texts, as the coverage figures do); ``copies`` the cards searched, each
    copy once (a code named twice is two copies; yours and the opponent's
    are two).
    """

    results: tuple[LoopResult, ...]
    cards: int
    candidates: int
    counts: tuple[tuple[str, int], ...]
    ability_coverage: tuple[tuple[str, Any], ...]
    seconds: float
    unread: tuple[UnreadAbility, ...] = ()
    through_unread: tuple[UnreadAbility, ...] = ()
    named: bool = False
    max_length: int = 3
    truncated: bool = False
    longer: bool = False
    copies: int = 0

    def loops(self) -> tuple[LoopResult, ...]:
        """The results that are loops (unbounded, mandatory or limited)."""
        keep = {Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED}
        return tuple(r for r in self.results if r.category in keep)

    @property
    def analysed(self) -> int:
        """Candidates with a decided answer (a loop of some kind, or none)."""
        return sum(1 for r in self.results if r.category in ANALYSED)

    @property
    def complete(self) -> bool:
        """Every action and triggered ability of the searched cards read in full, and every candidate run and
        decided: "nothing found" means no loop.

        An ability not read in full keeps the report incomplete even when its unread text could not link it
        into a cycle (``could link: no``, a restriction): the verdicts then rest on text the model did not read.
        So does a result over a constant ability the loop model leaves out (``LoopResult.unmodelled``: Ward's
        "attached character gains the [stark] affiliation"): its answer rests on text the model does not run.
        """
        return (not self.unread and not self.through_unread and not self.truncated and not self.longer
                and not self.resting_on_unmodelled
                and self.analysed == len(self.results) == self.candidates)

    @property
    def resting_on_unmodelled(self) -> int:
        """Results whose answer rests on a constant ability the loop model leaves out."""
        return sum(1 for r in self.results if r.unmodelled)


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
    as the opponent's).  ``named``: the cards the user named (keys), in every
    candidate's model; ``deck``: the deck's cards, joining a model where a
    target of the cycle needs them.  ``graph``: the ability graph;
    ``max_length``: the longest cycle searched; ``truncated``: the search
    stopped at the most candidates asked for; ``longer``: the graph may hold
    cycles longer than ``max_length`` (the report is then not complete).
    """

    compiled: Mapping[str, tuple[Ability, ...]]
    abilities: Mapping[str, tuple[Ability, ...]]
    cards: Mapping[str, LoopCard]
    candidates: tuple[Candidate, ...]
    bystanders: tuple[LoopCard, ...] = ()
    named: tuple[str, ...] = ()
    deck: tuple[LoopCard, ...] = ()
    graph: Any = None
    max_length: int = 3
    truncated: bool = False
    longer: bool = False


def search_space(pool: Pool, codes: Iterable[str] | None = None, deck: Deck | None = None,
                 opponent_codes: Iterable[str] = (), *, overrides: Overrides | None = None,
                 max_length: int | None = None, max_candidates: int = MAX_CANDIDATES) -> SearchSpace:
    """Compile the searched cards, build the two-player ability graph and list its candidates.

    ``codes`` and ``deck`` are your cards, ``opponent_codes`` the opponent's;
    none of the three means the whole pool (as yours).  A code listed twice
    in ``codes`` (or ``opponent_codes``) is two copies of the card for that
    player (keys ``CODE`` and ``CODE/2``: :func:`ruleproof.cards.graph.card_key`).

    Raises
    ------
    InputError
        A code not in the pool.
    """
    opp = tuple(opponent_codes)
    mine = list(codes or ())
    # the deck's copies of a card are copies in the model (two Drowned God Fanatics, each putting itself into play
    # by killing the other), up to the card's deck limit; a unique card once (a second copy is only a duplicate)
    copies: Counter[str] = Counter()
    for e in deck.entries if deck is not None else ():
        copies[e.card.code] += e.count if not e.card.unique else 1
        copies[e.card.code] = min(copies[e.card.code], 1 if e.card.unique else max(1, e.card.deck_limit))
    in_deck = [c for c, n in copies.items() if c not in mine for _ in range(n)]
    for c in mine + in_deck + list(opp):
        if pool.get(c) is None:
            raise InputError(f"unknown card code {c}")
    wanted = tuple(dict.fromkeys(mine + in_deck + list(opp))) or None
    compiled = compile_pool(pool, overrides, wanted)
    keyed = two_player_abilities(compiled, mine + in_deck if wanted is not None else None, opp)
    facts = {k: v for k, v in facts_from_pool(pool).items() if k in compiled}
    graph = build_ability_graph(keyed, facts)
    # named cards: every cycle of their graph when its cyclic parts are small and few, else the shortest ones
    cyclic = max((len(c) for c in nx.strongly_connected_components(graph)), default=1)
    length = max_length if max_length is not None else (3 if wanted is not None else WHOLE_POOL_LENGTH)
    cands: tuple[Candidate, ...] | None = None
    if max_length is None and wanted is not None and 3 < cyclic <= NAMED_ALL_CYCLES:
        every = find_candidates(graph, max_length=cyclic, max_candidates=NAMED_ALL_CYCLES_MAX + 1)
        if len(every) <= NAMED_ALL_CYCLES_MAX:
            length, cands = cyclic, every
    if cands is None:
        cands = find_candidates(graph, max_length=length, max_candidates=max_candidates)
    cards: dict[str, LoopCard] = {}
    for key in keyed:
        who, code = split_key(key)
        card = pool.get(code)
        assert card is not None
        cards[key] = dataclasses.replace(loop_card(card, "opp" if who == OPPONENT else "you"), code=key)
    sides = {YOU: set(mine), OPPONENT: set(opp)}
    named = tuple(k for k in keyed if split_key(k)[1] in sides[split_key(k)[0]]) if wanted is not None else ()
    deck_cards = tuple(cards[k] for k in keyed if split_key(k)[0] == YOU and split_key(k)[1] in in_deck
                       and k not in named)
    return SearchSpace(compiled, keyed, cards, cands, _bystanders(pool, mine + in_deck + list(opp)), named,
                       deck_cards, graph, length, len(cands) >= max_candidates, cyclic > length)


def _bystanders(pool: Pool, searched: Iterable[str]) -> tuple[LoopCard, ...]:
    """Possible hosts of an attachment: the searched characters first, then every other pool character."""
    first = list(dict.fromkeys(searched))
    rest = sorted(c.code for c in pool.cards if c.type == "character" and c.code not in set(first))
    out: list[LoopCard] = []
    for code in first + rest:
        card = pool.get(code)
        if card is None or card.type != "character":
            continue
        out.append(loop_card(card))
        out.append(dataclasses.replace(loop_card(card, "opp"), code=f"opp:{code}"))
    return tuple(out)


def _deck_helpers(space: SearchSpace, cand: Candidate, named: Sequence[LoopCard]) -> list[LoopCard]:
    """Deck cards the cycle needs: for each target it chooses, the first deck card (not yet in) that fits it."""
    have = {c.code for c in named} | set(cand.cards)
    out: list[LoopCard] = []
    for key, i in cand.abilities:
        a = space.abilities[key][i]
        src = space.cards[key]
        for t in (*(c.target for c in a.costs), *(e.target for e in a.effects)):
            if t.ref not in (TargetRef.CHOSEN, TargetRef.EACH):
                continue
            fit = next((k for k in space.deck if k.code not in have and target_match(t, src, k)), None)
            if fit is not None:
                out.append(fit)
                have.add(fit.code)
    return out


def plan(space: SearchSpace, progress: ProgressCallback | None = None) -> list[Encoding | LoopResult]:
    """Encode every candidate: an :class:`Encoding` to classify, or the result of one the encoder refused."""
    named = [space.cards[k] for k in space.named if k in space.cards]
    out: list[Encoding | LoopResult] = []
    for cand in space.candidates:
        extra = named + _deck_helpers(space, cand, named) if space.named or space.deck else []
        enc = encode(cand, space.abilities, space.cards, space.bystanders, named=extra)
        out.append(unsupported_result(enc) if isinstance(enc, Unsupported) else enc)
    return out


def _unread(space: SearchSpace) -> tuple[tuple[UnreadAbility, ...], tuple[UnreadAbility, ...]]:
    """The searched cards' abilities not read in full, and those whose unread text could close a cycle."""
    links = unread_links(space.abilities)
    listed: list[UnreadAbility] = []
    through: list[UnreadAbility] = []
    g = space.graph if space.graph is not None else nx.DiGraph()
    # an ability's initiation could set off any unread trigger ("when the effects of ... would initiate"): two
    # abilities with unread triggers could answer each other's initiation, a cycle no read edge shows
    open_triggers = {(key, i) for key, abil in space.abilities.items() for i, a in enumerate(abil)
                     if initiated(a) and any(u.role is ClauseRole.TRIGGER for u in a.unread)}
    for key, abil in space.abilities.items():
        if not first_copy(key) or split_key(key)[0] == OPPONENT and split_key(key)[1] in space.abilities:
            continue  # each card once (your first copy) in the listing
        for i, a in enumerate(abil):
            blind = _not_in_table(a)
            if not initiated(a) or a.compiled is Compiled.FULL and not blind:
                continue
            phrases = (tuple(u.describe() for u in a.unread) or (() if blind else ("none of its text was read",))) \
                + tuple(f"{w}: read, but the loop model has no entry for it (the ability graph links nothing "
                        "through it)" for w in blind)
            name = space.cards[key].name if key in space.cards else key
            link = links.get((key, i))
            out_, in_ = (link[0], link[1]) if link is not None else (False, False)
            out_ = out_ or bool(blind)  # what it does is unknown to the graph: it could set off others ...
            in_ = in_ or any(w.startswith("cost") for w in blind)  # ... and a cost of it could be re-enabled
            how: list[str] = []
            node: NodeKey = (key, i)
            if out_:
                how.append("out")
            if in_ and (out_ or (g.has_node(node) and g.out_degree(node) > 0) or node in open_triggers
                        and len(open_triggers - {node}) > 0):
                how.append("in")
            u = UnreadAbility(key, i, name, a.type.value, phrases, tuple(how))
            listed.append(u)
            if how:
                through.append(u)
    return tuple(listed), tuple(through)


def _not_in_table(a: Ability) -> tuple[str, ...]:
    """The costs and effects of ``a`` the semantics table has no entry for (``cost X`` / ``effect X``)."""
    out = [f"cost {c.kind.value}" for c in a.costs if entry_of(c) is None]
    out += [f"effect {e.kind.value}" for e in a.effects if entry_of(e) is None]
    return tuple(dict.fromkeys(out))


def assemble(space: SearchSpace, results: Sequence[LoopResult], t0: float, overrides: Overrides | None) -> LoopReport:
    """The report of a search from its classified candidates (in candidate order)."""
    per = Counter(r.category for r in results)
    overridden = sum(1 for c in space.compiled if overrides and c in overrides)
    cov = coverage_json(coverage(space.compiled, top=10, overridden=overridden))
    unread, through = _unread(space)
    return LoopReport(tuple(results), len(space.compiled), len(space.candidates),
                      tuple((c.value, per[c]) for c in Category), tuple(sorted(cov.items())),
                      round(time.monotonic() - t0, 3), unread, through, bool(space.named or space.deck),
                      space.max_length, space.truncated, space.longer, len(space.abilities))


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
    if r.left_out:
        out["left_out"] = list(r.left_out)
    if r.bystanders:
        out["bystanders"] = list(r.bystanders)
    if r.unmodelled:  # constant abilities the loop model leaves out: the answer rests on them
        out["unmodelled"] = list(r.unmodelled)
    return out


def result_json(r: LoopResult) -> dict[str, Any]:
    """One candidate's entry of :func:`report_json` (``loops --jsonl`` prints it as soon as it is known)."""
    return _result_json(r)


def _unread_json(u: UnreadAbility) -> dict[str, Any]:
    return {"ability": f"{u.key}#{u.index}", "name": u.name, "type": u.type, "phrases": list(u.phrases),
            "could_link": list(u.links)}


def top_reasons(report: LoopReport, n: int = 10) -> list[tuple[str, int]]:
    """The commonest reasons of the candidates that were not decided (unknown, unsupported), normalised."""
    c = Counter(normalise_reason(_short(r.reason)) for r in report.results if r.category not in ANALYSED)
    return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def top_phrases(report: LoopReport, n: int = 10) -> list[tuple[str, int]]:
    """The commonest unread phrases of the abilities that could close a cycle through unread text."""
    c = Counter(normalise_reason(p) for u in report.through_unread for p in u.phrases)
    return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def _short(reason: str) -> str:
    """A reason without the card it is about and what follows the first ';'."""
    head = reason.split("; ")[0]
    if "): " in head and head.index("): ") < 80:
        head = head[head.index("): ") + 3:]
    return head


def report_json(report: LoopReport) -> dict[str, Any]:
    """The JSON object of ``ruleproof loops --json`` (``version`` 1).

    ``complete``: every candidate was decided and no cycle could pass through
    unread text, so "no loop found" is an answer; ``unread``: the searched
    cards' action/triggered abilities not read in full, with the phrases
    (``could_link``: ``out``/``in`` when the unread text could close a cycle);
    ``max_length``: the longest cycle searched; ``truncated``: the search
    stopped at its most candidates; ``longer_cycles_not_searched``: a part of the
    graph has more abilities than ``max_length``, so a longer cycle may exist.
    ``loops`` lists every candidate (not-a-loop, unknown and unsupported ones
    too, with the reason); ``coverage`` says how many cards were searched
    (``cards``: distinct codes; ``copies``: each copy once, a code named twice
    is two), how many candidates were analysed, and the
    top reasons and phrases of the rest.  A candidate with the opponent's
    abilities names their cards ``opp:CODE`` and adds ``players`` (the
    controllers of its abilities) and ``continued_by`` (the players who must
    each choose to continue it).
    """
    counts = dict(report.counts)
    return {
        "version": JSON_VERSION,
        "complete": report.complete,
        "unread": [_unread_json(u) for u in report.unread],
        "through_unread": [f"{u.key}#{u.index}" for u in report.through_unread],
        "max_length": report.max_length,
        "truncated": report.truncated,
        "longer_cycles_not_searched": report.longer,
        "loops": [_result_json(r) for r in report.results],
        "coverage": {
            "cards": report.cards,
            "copies": report.copies,
            "candidates": report.candidates,
            "analysed": report.analysed,
            "by_category": counts,
            "top_unknown_reasons": [{"reason": k, "count": v} for k, v in top_reasons(report)],
            "top_unread_phrases": [{"phrase": k, "count": v} for k, v in top_phrases(report)],
            "abilities": dict(report.ability_coverage),
        },
        "seconds": report.seconds,
    }
