"""Cycles that can never repeat, found from the semantics table alone (no solver).

A pass of a loop spends what its costs consume (a standing card for a kneel,
gold, a card in hand, a card in play for a sacrifice ...), needs its
triggering conditions to occur again, and needs some effect that can still
change the game state (Abilities).  When a cycle consumes a resource that
*nothing* in it makes (no ability of the cycle stands anything, gains gold,
puts a card into the discard pile ...), or answers a triggering condition
that nothing in it raises, a second pass can never leave a state at least as
good as the first: the lasso check would answer "not a loop" after building
and solving the model.  :func:`cannot_repeat` gives that answer directly,
with the reason.

The test is coarse on purpose (it compares resource kinds and players, not
the cards each filter allows), so it only ever answers when the solver would
answer the same; ``tests/loops`` checks this on the pool's candidates.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ruleproof.cards.abilities import Ability, AbilityType, CardKind, Cost, Effect, EventKind, Scope
from ruleproof.cards.semantics import (
    PLAYER_RES,
    CardFacts,
    Place,
    Res,
    Rules,
    answers,
    entry_of,
    initiation_raises,
    makes,
    needs,
    parts_of,
    raises,
    trigger_of,
)

__all__ = ["cannot_repeat", "consumes"]

_COUNTERS = frozenset({Res.GOLD, Res.CARD_GOLD, Res.POWER, Res.HAND, Res.DECK})
_TURNS = frozenset({Res.STANDING, Res.KNEELING})
#: Events a card leaving play with its host raises (an attachment returns to hand or is discarded).
_WITH_HOST = (EventKind.RETURNED_TO_HAND, EventKind.DISCARDED, EventKind.LEAVES_PLAY)


def consumes(part: Cost | Effect, rules: Rules) -> tuple[Res, ...]:
    """What a cost or effect uses up: a counter it spends, the standing state it turns, the place a move takes
    the card from (a gain of power needs the card in play but leaves it there)."""
    e = entry_of(part, rules)
    if e is None:
        return ()
    got = needs(part, rules)
    return got if e.move is not None else tuple(r for r in got if r in _COUNTERS or r in _TURNS)


def _spent(part: Cost | Effect, rules: Rules, restored: Callable[[Res, str], bool], owner: str) -> tuple[Res, ...]:
    """The resources ``part`` uses up that must come back; a move that may take its card from one of several
    places ("from your hand or discard pile") needs only one of them back."""
    got = consumes(part, rules)
    entry = entry_of(part, rules)
    if entry is not None and entry.move is not None and len(got) > 1:
        return () if any(restored(r, owner) for r in got) else got[:1]
    return got


def _players(part: Cost | Effect, owner: str) -> frozenset[str]:
    """Whose player resource a part touches (the card's owner's, the other player's, or both)."""
    if isinstance(part, Cost):
        return frozenset({owner})
    scope = part.target.subject.scope
    other = "opp" if owner == "you" else "you"
    if scope in (Scope.OPPONENT, Scope.OPPONENT_CONTROLS, Scope.OPPONENT_OWNS):
        return frozenset({other})
    if scope is Scope.ANY_PLAYER:
        return frozenset({owner, other})
    return frozenset({owner})


def cannot_repeat(abilities: Sequence[Ability], owners: Sequence[str], labels: Sequence[str], rules: Rules,
                  attachments: bool, cards: Sequence[CardFacts] = ()) -> str:
    """Why the cycle of ``abilities`` (owned by ``owners``, on ``cards``) can never repeat, or ``""`` when the table
    does not rule it out.  ``attachments``: an attachment of the model may leave play with its host.  The initiation
    of each ability raises its own triggering conditions (a cancel's "would initiate": :func:`initiation_raises`),
    and an event played puts a card in a discard pile."""
    made: set[tuple[Res, str]] = set()
    events: list[tuple[EventKind, Place | None]] = []
    for a, k in zip(abilities, cards, strict=False):
        events.extend((ev, None) for ev in initiation_raises(a, k))
        if k.kind is CardKind.EVENT:  # a played event goes to its owner's discard pile (Events)
            made.add((Res.IN_DISCARD, "*"))
    for a, owner in zip(abilities, owners, strict=True):
        for part in parts_of(a):  # (with the effects of each option of a choice)
            entry = entry_of(part, rules)
            kept = entry.makes if entry is not None else ()  # a save keeps the card in play: it restores that too
            for r in (*makes(part, rules), *kept):
                for p in (_players(part, owner) if r in PLAYER_RES else ("*",)):
                    made.add((r, p))
            events.extend(raises(part, rules))
            if attachments and entry is not None and entry.move is not None:
                events.extend((ev, Place.PLAY) for ev in _WITH_HOST)

    def restored(r: Res, player: str) -> bool:
        return (r, player if r in PLAYER_RES else "*") in made

    for a, owner, label in zip(abilities, owners, labels, strict=True):
        for c in a.costs:
            for r in _spent(c, rules, restored, owner):
                if not restored(r, owner):
                    return (f"{label}: its cost ({c.kind.value.replace('_', ' ')}) spends {r.value} that nothing in "
                            "the cycle restores, so each pass leaves less of it (Costs)")
        t = trigger_of(a)
        if t is not None and a.type is not AbilityType.ACTION:
            if not any(answers(t, ev, src) for ev, src in events):
                return f"{label}: nothing in the cycle raises its triggering condition ({t.event.value}) again"
        blocked: list[str] = []
        for e in a.effects:
            gone = [r for r in _spent(e, rules, restored, owner)
                    if not all(restored(r, p) for p in (_players(e, owner) if r in PLAYER_RES else ("*",)))]
            if gone:
                blocked.append(f"{e.kind.value.replace('_', ' ')} needs {gone[0].value}")
            else:
                break
        else:
            if blocked:
                return (f"{label}: no effect can change the game state again ({'; '.join(blocked)}, which nothing "
                        "in the cycle restores: Abilities)")
    return ""
