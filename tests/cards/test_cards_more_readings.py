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
    EventKind,
    Means,
    Named,
    Scope,
    Stat,
    TargetRef,
    TestKind,
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


@pytest.mark.parametrize(("code", "scope", "other"), [("09015", Scope.ANY, True), ("01183", Scope.SELF, False),
                                                      ("25056", Scope.ATTACHED, False)])
def test_after_a_characters_str_is_increased_by_a_card_effect(pool, code: str, scope: Scope, other: bool) -> None:
    """09015 Highgarden Courtier "after another character's STR is increased by a card effect", 01183 Randyll Tarly
    "after ~'s STR is increased ...", 25056 The Warden of the South "after attached character's STR is increased ...":
    the event ``str_increased`` of that card, by a card effect; the stand that follows acts on that card."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    t = a.trigger
    assert t is not None and t.event is EventKind.STR_INCREASED and t.means is Means.CARD_EFFECT
    assert (t.subject.scope, t.subject.card_type, t.subject.other) == (scope, CardKind.CHARACTER, other)
    (stand,) = a.effects
    assert stand.kind is EffectKind.STAND
    assert stand.target.ref is {Scope.ANY: TargetRef.TRIGGER, Scope.SELF: TargetRef.SELF,
                                Scope.ATTACHED: TargetRef.ATTACHED}[scope]


def test_a_str_modifier_raises_str_increased_only_when_it_adds() -> None:
    """Margaery Tyrell's "+3 STR" increases a STR (the Courtier's trigger); "-2 STR" and "-X STR" do not."""
    from ruleproof.cards.semantics import raises
    x = "X is the number of cards in your hand"
    for text, up in (("gets +3 STR", True), ("gets -2 STR", False), (f"gets -X STR. {x}", False),
                     (f"gets +X STR. {x}", True)):
        (a,) = compile_text(f"<b>Action:</b> Choose a character. Until the end of the phase, that character {text}.")
        assert a.compiled is Compiled.FULL
        assert ((EventKind.STR_INCREASED, None) in raises(a.effects[0])) is up, text


@pytest.mark.parametrize(("code", "minus"), [("06054", True), ("03006", True), ("15038", False), ("17120", False)])
def test_the_sign_of_x_str_is_kept(pool, code: str, minus: bool) -> None:
    """06054 Astapor "that character gets -X STR", 03006 Wolves of the North "-X STR", 15038 Champion's Favor and
    17120 Abandoned Stronghold "+X STR": the sign of the variable amount is in the tree (``minus``); "+X" and "-X" read
    the same before."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (mod,) = [e for e in a.effects if e.kind is EffectKind.STR_MOD]
    assert mod.amount is None and mod.minus is minus and a.x is not None


@pytest.mark.parametrize(("code", "kind"), [("03006", EffectKind.STR_MOD), ("08055", EffectKind.ICON_MOD),
                                            ("01123", EffectKind.PROHIBIT)])
def test_that_character_after_a_stealth_bypass_is_the_character_bypassed(pool, code: str, kind: EffectKind) -> None:
    """03006 Wolves of the North, 08055 Darkstar, 01123 Ghost: "after ~ bypasses a character using stealth, that
    character gets -X STR / loses a challenge icon / cannot be declared as a defender": the character bypassed (the
    event's object), never ~ itself (read as ~ before)."""
    a = ability(pool, code)
    (e,) = [x for x in a.effects if x.kind is kind]
    assert e.target.ref is TargetRef.OBJECT and e.target.subject.card_type is CardKind.CHARACTER
    assert a.trigger is not None and a.trigger.subject.scope is Scope.SELF


def test_that_card_after_pillage_is_the_card_discarded(pool) -> None:
    """02049 Ser Gregor Clegane "after ~ discards a character using pillage, place that card in its owner's dead pile":
    the card discarded goes to the dead pile, not Gregor; 20013 Mountain's Man "choose and kneel a card with lower
    printed cost than that card's": lower than the discarded card's, not the attached character's; 00125 Euron Crow's
    Eye "after a character you control discards a non-character card using pillage, that character gains 1 power": the
    character (the discarded card is not one)."""
    (gregor,) = [a for a in compile_card(pool.get("02049").raw) if a.type is AbilityType.REACTION]
    place = gregor.effects[0]
    assert place.kind is EffectKind.MOVE_CARD and place.to_zone is Zone.DEAD_PILE
    assert place.target.ref is TargetRef.OBJECT and place.target.subject.card_type is CardKind.CHARACTER
    man = ability(pool, "20013")
    assert man.compiled is Compiled.FULL
    (c,) = man.effects[0].target.subject.compare
    assert c.than is TargetRef.OBJECT and (c.stat, c.op) == (Stat.PRINTED_COST, Cmp.LT)
    euron = ability(pool, "00125")
    assert euron.compiled is Compiled.FULL and euron.effects[0].target.ref is TargetRef.TRIGGER
    davos = ability(pool, "04087")  # "bypasses a non-loyal character using stealth": the object's filter
    assert davos.compiled is Compiled.FULL and uncovered(davos) == []
    assert davos.trigger is not None and davos.trigger.object is not None and davos.trigger.object.loyal is False


def test_the_gold_value_on_an_opponents_revealed_plot_card(pool) -> None:
    """06046 Underground Vault "kneel ~ to gain 1 gold. (2 gold instead if the gold value on an opponent's revealed plot
    card is 5 or higher.)": 2 gold replace the 1 when the opponent's plot's gold value is at least 5 (``gold_value``,
    not the gold in a pool)."""
    a = ability(pool, "06046")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    one, two = a.effects
    assert (one.kind, one.amount, two.kind, two.amount, two.instead) == (EffectKind.GAIN_GOLD, 1, EffectKind.GAIN_GOLD,
                                                                         2, True)
    cond = two.condition
    assert cond is not None and cond.compare == Compare(Stat.GOLD_VALUE, Cmp.GE, 5)
    assert cond.target is not None and cond.target.is_player and cond.target.subject.scope is Scope.OPPONENT
    (b,) = compile_text("<b>Action:</b> Gain 1 gold. (2 gold instead if the gold value on its owner's revealed plot "
                        "card is 5 or higher.)")
    assert b.compiled is not Compiled.FULL


def test_each_opponent_may_return_the_revealed_plot_and_reveal_a_new_one(pool) -> None:
    """16036 The Gathering Storm "each opponent may return his or her revealed plot card to his or her plot deck and
    reveal a new plot card": each opponent chooses; the return is optional and the reveal happens if they did it
    (``did``); both act on that opponent's own plots (the reveal was read as the Storm's controller's before)."""
    a = ability(pool, "16036")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    back, reveal = a.effects
    assert (back.kind, back.optional, back.to_zone) == (EffectKind.MOVE_CARD, True, Zone.PLOT_DECK)
    assert (back.target.subject.scope, back.target.subject.card_type, back.target.subject.zone) == (
        Scope.OPPONENT_OWNS, CardKind.PLOT, Zone.PLAY)
    assert (reveal.kind, reveal.optional) == (EffectKind.REVEAL, False)
    assert reveal.condition is not None and reveal.condition.test is TestKind.DID
    assert (reveal.target.subject.scope, reveal.target.subject.zone) == (Scope.OPPONENT_OWNS, Zone.PLOT_DECK)
    for e in (back, reveal):
        assert e.chooser is not None and e.chooser.ref is TargetRef.EACH and e.chooser.subject.scope is Scope.OPPONENT
    (b,) = compile_text("<b>Action:</b> Each opponent may return a character to his or her plot deck.")
    assert b.compiled is not Compiled.FULL


@pytest.mark.parametrize(("code", "kind"), [
    ("03026", EffectKind.KNEEL), ("06070", EffectKind.RETURN_TO_HAND), ("08085", EffectKind.REMOVE_FROM_GAME),
    ("20054", EffectKind.RETURN_TO_HAND)])
def test_a_card_controlled_by_each_player(pool, code: str, kind: EffectKind) -> None:
    """03026 Even Handed Justice "choose a standing character controlled by each player. Kneel each of those
    characters", 06070 Tywin's Stratagem, 08085 Coldhands, 20054 The Father: the ability's controller chooses one card
    of each player (one you control, one your opponent controls), and "each of those characters" are those two."""
    (a,) = [x for x in compile_card(pool.get(code).raw) if "controlled by each player" in x.text]
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    chosen = [e for e in a.effects if e.kind is EffectKind.CHOOSE]
    acted = [e for e in a.effects if e.kind is kind]
    assert [e.target.subject.scope for e in chosen] == [Scope.YOU_CONTROL, Scope.OPPONENT_CONTROLS]
    assert [e.target for e in acted] == [e.target for e in chosen]
    assert all(e.target.ref is TargetRef.CHOSEN and e.amount == 1 and e.chooser is None for e in chosen)
    (b,) = compile_text("<b>Action:</b> Choose up to 2 characters controlled by each player. Kneel them.")
    assert b.compiled is not Compiled.FULL


@pytest.mark.parametrize("code", ["15007", "15009", "06078"])
def test_n_or_more_attacking_characters_in_the_challenge(pool, code: str) -> None:
    """15007 Jhogo, 15009 Rakharo "after you win a [military] challenge in which you control 2 or more attacking
    «Dothraki» characters", 06078 Frey Bastard "... 2 or more attacking «House Frey» characters": the participant
    filter, and how many cards must fit it (``participant_count``); 15022 Overwhelming Numbers's play restriction the
    same, as the condition's ``count``."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    t = a.trigger
    assert t is not None and t.participant_count == 2
    (p,) = t.participants
    assert p.scope is Scope.YOU_CONTROL and p.card_type is CardKind.CHARACTER and len(p.traits) == 1
    assert p.role is not None and p.role.value == "attacking"
    (play,) = [x for x in compile_card(pool.get("15022").raw) if x.type is AbilityType.CONSTANT]
    cond = play.effects[0].condition
    assert cond is not None and cond.count == 2 and cond.subject is not None and cond.subject.traits == ("Dothraki",)


@pytest.mark.parametrize("code", ["13045", "25069"])
def test_choose_a_character_and_a_challenge_type(pool, code: str) -> None:
    """13045 Maester Mullin, 25069 Bowen Marsh: "choose a character and a challenge type. until the end of the phase,
    that character cannot be declared as an attacker in challenges of that type": the type is the player's pick (a
    ``name`` of a challenge type), and the "cannot" holds only in challenges of it (``named``)."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    choose, name, ban = a.effects
    assert choose.kind is EffectKind.CHOOSE and choose.target.subject.card_type is CardKind.CHARACTER
    assert name.kind is EffectKind.NAME and name.named is Named.CHALLENGE_TYPE
    assert (ban.kind, ban.prohibited, ban.named) == (EffectKind.PROHIBIT, EventKind.DECLARED_ATTACKER,
                                                     Named.CHALLENGE_TYPE)
    assert ban.target == choose.target and ban.duration is Duration.UNTIL_END_OF_PHASE
    (b,) = compile_text("<b>Action:</b> Choose a character. Until the end of the phase, that character cannot be "
                        "declared as an attacker in challenges of that type.")
    assert b.compiled is not Compiled.FULL  # no type was chosen


def test_a_play_restriction_needing_two_cards_is_not_read_as_one(pool) -> None:
    """25112 Bran the Breaker: "during a challenge in which you control 2 or more ..." was accepted by the loop
    encoder as the one-card test it models, so the restriction was neither checked nor named; 18012 Harwin's
    one-card restriction is still read."""
    from ruleproof.cards.abilities import CondWord, TestKind
    from ruleproof.loops.encode.accept import challenge_test

    def during(code: str):
        return [c for a in compile_card(pool.get(code).raw) if a.type is AbilityType.ACTION for c in a.conditions
                if c.word is CondWord.DURING and c.test is TestKind.CHALLENGE]

    (bran,) = during("25112")
    assert bran.count == 2 and not challenge_test(bran)
    (harwin,) = during("18012")
    assert harwin.count == 1 and challenge_test(harwin)
