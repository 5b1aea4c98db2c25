"""Constructions read since the misread audit, each on the real cards of the vendored pool: "(x cannot be 0)", "~ gains
that icon", "with total printed cost N or lower", and the zone of a card put into play as a cost."""

from __future__ import annotations

import pytest

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    ChallengeType,
    Cmp,
    Compare,
    Compiled,
    CostKind,
    Duration,
    EffectKind,
    Scope,
    Stat,
    TargetRef,
    Zone,
    describe_subject,
)
from ruleproof.cards.compiler import compile_card, compile_text
from ruleproof.cards.pool import load_pool
from ruleproof.cards.render import uncovered


@pytest.fixture(scope="module")
def pool():
    return load_pool()


def ability(pool, code: str) -> Ability:
    found = [a for a in compile_card(pool.get(code).raw) if a.type not in (AbilityType.KEYWORD, AbilityType.CONSTANT)]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("code", ["08027", "08074"])
def test_x_cannot_be_zero(pool, code: str) -> None:
    """08027 Devan Seaworth: "discard x gold from ~ to search your deck for a non-limited location with printed
    cost x or lower ... (x cannot be 0)", 08074 Yunkai: the X the player picks (the gold discarded) is never 0
    (``x_not``)."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.x_not == 0 and a.x is None
    assert any(c.kind is CostKind.DISCARD_GOLD and c.amount is None for c in a.costs)
    (b,) = compile_text("<b>Action:</b> Gain 2 gold (x cannot be 0).")  # no X to restrict: not read
    assert b.x_not is None and any("x cannot be 0" in u.phrase for u in b.unread)


@pytest.mark.parametrize("code", ["00189", "26027", "17112"])
def test_this_card_gains_the_icon_lost(pool, code: str) -> None:
    """00189 / 26027 / 17112: "that character loses an [intrigue] or [power] icon and ~ gains that icon": in each
    option of the choice, this card gains the icon the character loses, for the same duration."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (choice,) = [e for e in a.effects if e.kind is EffectKind.CHOICE]
    assert choice.duration is Duration.UNTIL_END_OF_PHASE
    got = []
    for lose, gain in choice.options:
        assert (lose.kind, lose.amount, lose.target.ref) == (EffectKind.ICON_MOD, -1, TargetRef.CHOSEN)
        assert (gain.kind, gain.amount, gain.target.ref) == (EffectKind.ICON_MOD, 1, TargetRef.SELF)
        assert gain.challenge is lose.challenge
        got.append(gain.challenge)
    assert got == [ChallengeType.INTRIGUE, ChallengeType.POWER]
    (b,) = compile_text("<b>Action:</b> Choose a character. It gains stealth and Foo gains that icon.", "Foo")
    assert b.compiled is not Compiled.FULL


@pytest.mark.parametrize(("code", "limit"), [("13048", 3), ("00373", 10)])
def test_total_printed_cost(pool, code: str, limit: int) -> None:
    """13048 "choose and kneel any number of locations with total printed cost 3 or lower"; 00373 "each player chooses
    any number of characters they control with total printed cost 10 or lower": the sum over the cards chosen
    (``total``), not each card's own cost."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    first = a.effects[0]
    assert first.up_to and first.amount is None
    s = first.target.subject
    assert s.total == (Compare(Stat.PRINTED_COST, Cmp.LE, limit),) and s.compare == ()
    assert f"with total printed cost {limit} or lower" in describe_subject(s)


def test_a_card_put_into_play_as_a_cost_keeps_its_zone(pool) -> None:
    """17112 Desert Raider: "put ~ into play from your dead pile to choose ...": the cost is this card, from your dead
    pile (the zone is in its target), never a card put into play from nowhere."""
    (put,) = ability(pool, "17112").costs
    assert put.kind is CostKind.PUT_INTO_PLAY and put.target.ref is TargetRef.SELF
    assert put.target.subject.zone is Zone.DEAD_PILE and put.target.subject.scope is Scope.SELF
    assert put.target.subject.card_type is CardKind.CHARACTER


@pytest.mark.parametrize("code", ["25025", "00149"])
def test_for_every_n_gold_in_your_gold_pool(pool, code: str) -> None:
    """25025 / 00149: "he gains 1 power for every 3 gold in your gold pool": 1 power per 3 gold of your pool (the
    gold of the player, divided by 3); another player's pool is not read."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (gain,) = a.effects
    assert gain.kind is EffectKind.GAIN_POWER and gain.amount == 1 and gain.target.ref is TargetRef.SELF
    assert gain.x is not None and (gain.x.stat, gain.x.per, gain.x.target.subject.scope) == (Stat.GOLD, 3, Scope.YOU)
    (b,) = compile_text("<b>Action:</b> Gain 1 gold for every 3 gold in an opponent's gold pool.")
    assert b.compiled is not Compiled.FULL
