"""The card-text compiler on real cards (exact structures) and on text it must not guess."""

from __future__ import annotations

import pytest

from ruleproof.cards.abilities import (
    Ability,
    CardKind,
    ChallengeRole,
    ChallengeType,
    ClauseRole,
    Compiled,
    Condition,
    CondWord,
    Cost,
    CostKind,
    Duration,
    Effect,
    EffectKind,
    EventKind,
    Keyword,
    Limit,
    LimitKind,
    Means,
    Period,
    Phase,
    PlayerRole,
    Quantity,
    QuantityKind,
    Scope,
    Subject,
    Target,
    TestKind,
    Trigger,
    Unread,
    Zone,
)
from ruleproof.cards.abilities import (
    AbilityType as AT,
)
from ruleproof.cards.abilities import (
    TargetRef as R,
)
from ruleproof.cards.compiler import compile_card, compile_text, normalise
from ruleproof.cards.pool import load_pool

YOU = Target(R.PLAYER, Subject(Scope.YOU))
FACTION = Target(R.FACTION_CARD, Subject(Scope.YOU_CONTROL, CardKind.FACTION_CARD))


def me(kind: CardKind = CardKind.CHARACTER) -> Target:
    return Target(R.SELF, Subject(Scope.SELF, kind))


@pytest.fixture(scope="module")
def pool():
    return load_pool()


def abilities(pool, code: str) -> tuple[Ability, ...]:
    return compile_card(pool.get(code).raw)


def strip(a: Ability) -> Ability:
    """Drop the source text for comparison."""
    from dataclasses import replace

    return replace(a, text="")


def test_clash_of_kings(pool) -> None:
    (a,) = abilities(pool, "01001")
    assert strip(a) == Ability(
        AT.REACTION,
        Trigger(EventKind.WIN_CHALLENGE, Subject(Scope.YOU), challenge=ChallengeType.POWER),
        effects=(Effect(EffectKind.MOVE_POWER, 1, FACTION,
                        source=Target(R.FACTION_CARD, Subject(Scope.OPPONENT_CONTROLS, CardKind.FACTION_CARD,
                                                              player_role=PlayerRole.LOSING))),),
    )


def test_feast_for_crows(pool) -> None:
    (a,) = abilities(pool, "01002")
    assert strip(a) == Ability(AT.REACTION, Trigger(EventKind.WIN_DOMINANCE, Subject(Scope.YOU)),
                               effects=(Effect(EffectKind.GAIN_POWER, 2, FACTION),))


def test_tower_of_the_sun_limit_once_per_phase(pool) -> None:
    (a,) = abilities(pool, "04017")
    assert strip(a) == Ability(AT.REACTION, Trigger(EventKind.EVENT_PLAYED, Subject(Scope.ANY, CardKind.EVENT)),
                               effects=(Effect(EffectKind.GAIN_GOLD, 1, YOU),),
                               limit=Limit(1, Period.PHASE, LimitKind.LIMIT))


def test_kings_landing_limit_three_times(pool) -> None:
    (a,) = abilities(pool, "16020")
    assert a.trigger == Trigger(EventKind.MARSHALED, Subject(Scope.YOU_CONTROL, CardKind.LOCATION), Phase.MARSHALING)
    assert a.effects == (Effect(EffectKind.DRAW, 1, YOU),)
    assert a.limit == Limit(3, Period.ROUND)


def test_arbor_knight_pay_gold_phase_action(pool) -> None:
    (a,) = abilities(pool, "02005")
    assert a.type is AT.ACTION and a.phase is Phase.CHALLENGES and a.compiled is Compiled.FULL
    assert a.costs == (Cost(CostKind.PAY_GOLD, YOU, 1),)
    assert a.effects == (Effect(EffectKind.STR_MOD, 1, Target(R.CHOSEN, Subject(
        Scope.ANY, CardKind.CHARACTER, ("House Redwyne",), role=ChallengeRole.PARTICIPATING)),
        duration=Duration.UNTIL_END_OF_CHALLENGE),)  # "choose a ... character. ... that character gets +1 STR"
    assert a.limit == Limit(3, Period.PHASE)


def test_varys_keyword_and_interrupt(pool) -> None:
    kw, intr = abilities(pool, "01029")
    assert (kw.type, kw.keyword) == (AT.KEYWORD, Keyword.STEALTH)
    assert intr.trigger == Trigger(EventKind.PHASE_ENDS, Subject(Scope.ANY_PLAYER), Phase.DOMINANCE)
    assert intr.costs == (Cost(CostKind.REMOVE_FROM_GAME, me()),)
    assert intr.effects == (Effect(EffectKind.DISCARD, None, Target(R.EACH, Subject(Scope.ANY, CardKind.CHARACTER))),)
    assert intr.optional and intr.compiled is Compiled.FULL


def test_robb_stark_sacrificed_or_killed(pool) -> None:
    _, a = abilities(pool, "01146")
    assert a.trigger == Trigger(EventKind.KILLED, Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, factions=("stark",)),
                                also_events=(EventKind.SACRIFICED,))
    each_mine = Target(R.EACH, Subject(Scope.YOU_CONTROL, CardKind.CHARACTER))
    assert a.effects == (Effect(EffectKind.STAND, None, each_mine),)
    assert a.limit == Limit(1, Period.ROUND)


def test_bodyguard_would_be_killed_save(pool) -> None:
    restriction, a = abilities(pool, "01033")
    assert restriction.effects[0].kind is EffectKind.ATTACHMENT_RESTRICTION
    assert restriction.effects[0].target.subject.traits == ("Lord", "Lady")
    assert a.trigger == Trigger(EventKind.WOULD_BE_KILLED, Subject(Scope.ATTACHED, CardKind.CHARACTER),
                                also_events=(EventKind.WOULD_BE_DISCARDED,))
    assert a.costs == (Cost(CostKind.SACRIFICE, me(CardKind.ATTACHMENT)),)
    assert a.effects == (Effect(EffectKind.SAVE, 1, Target(R.ATTACHED, Subject(Scope.ATTACHED, CardKind.CHARACTER))),)


def test_ser_barristan_stand_as_cost(pool) -> None:
    _, a = abilities(pool, "02107")
    assert a.trigger.subject == Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, ("Lord", "Lady"))
    assert a.costs == (Cost(CostKind.STAND, me()),)
    assert a.effects[0].kind is EffectKind.SAVE and a.effects[0].target.ref is R.TRIGGER
    assert a.compiled is Compiled.FULL


def test_gods_eye_constants(pool) -> None:
    prohibit, income, reserve = abilities(pool, "04058")
    assert prohibit.effects == (Effect(EffectKind.PROHIBIT, None, me(CardKind.LOCATION),
                                       prohibited=EventKind.DISCARDED),)
    assert income.effects == (Effect(EffectKind.INCOME_MOD, 1, YOU),)
    assert reserve.effects == (Effect(EffectKind.RESERVE_MOD, 1, YOU),)
    assert all(a.type is AT.CONSTANT and not a.optional for a in (prohibit, income, reserve))


def test_maester_cressen_choose_and_discard(pool) -> None:
    (a,) = abilities(pool, "01046")
    assert a.costs == (Cost(CostKind.KNEEL, me()),)
    condition = Subject(Scope.ANY, CardKind.ATTACHMENT, ("Condition",))
    assert a.effects == (Effect(EffectKind.DISCARD, 1, Target(R.CHOSEN, condition)),)
    assert a.phase is Phase.MARSHALING


def test_defiance_of_duskendale_it_refers_to_trigger(pool) -> None:
    (a,) = abilities(pool, "23038")
    assert a.trigger == Trigger(EventKind.KNELT, Subject(Scope.ANY, CardKind.LOCATION), means=Means.ASSAULT)
    assert a.effects == (Effect(EffectKind.DISCARD, 1, Target(R.TRIGGER, Subject(Scope.ANY, CardKind.LOCATION))),)


def test_boneway_token(pool) -> None:
    react, action = abilities(pool, "02056")
    assert react.trigger == Trigger(EventKind.LOSE_CHALLENGE, Subject(Scope.YOU))
    assert react.effects == (Effect(EffectKind.PLACE_TOKEN, 1, me(CardKind.LOCATION), token="vengeance"),)
    # "kneel ~ and discard 6 vengeance tokens from it to gain 3 power for your faction": the token is named
    assert action.costs == (Cost(CostKind.KNEEL, me(CardKind.LOCATION)),
                            Cost(CostKind.DISCARD_TOKENS, me(CardKind.LOCATION), 6, token="vengeance"))
    assert action.phase is Phase.DOMINANCE and action.compiled is Compiled.FULL


def test_lady_keyword_after_restriction(pool) -> None:
    abil = abilities(pool, "02004")
    assert [a.type for a in abil] == [AT.KEYWORD, AT.CONSTANT, AT.CONSTANT, AT.ACTION]
    assert abil[0].keyword is Keyword.TERMINAL
    assert abil[1].effects[0].target.subject.factions == ("stark",)
    attached = Target(R.ATTACHED, Subject(Scope.ATTACHED, CardKind.CHARACTER))
    assert abil[2].effects == (Effect(EffectKind.STR_MOD, 2, attached),)
    assert abil[3].limit == Limit(1, Period.PHASE)
    # "then, if attached character is Sansa Stark, stand her": a card named by its title
    assert abil[3].compiled is Compiled.FULL
    stand = abil[3].effects[-1]
    assert stand.kind is EffectKind.STAND and stand.then and stand.target == attached
    assert stand.condition is not None and stand.condition.subject == Subject(title="Sansa Stark")


def test_keywords_with_values() -> None:
    abil = compile_text("Ambush (4). Shadow (2). Bestow (3).\nRenown.", "X")
    assert [(a.keyword, a.keyword_value) for a in abil] == [
        (Keyword.AMBUSH, 4), (Keyword.SHADOW, 2), (Keyword.BESTOW, 3), (Keyword.RENOWN, None)]


def test_after_enters_play_during_challenges_phase() -> None:
    (a,) = compile_text("<b>Reaction:</b> After a character enters play during the challenges phase, "
                        "kneel Foo to draw 1 card. (Max 1 per round.)", "Foo", "location")
    assert a.trigger == Trigger(EventKind.ENTERS_PLAY, Subject(Scope.ANY, CardKind.CHARACTER), Phase.CHALLENGES)
    assert a.costs == (Cost(CostKind.KNEEL, me(CardKind.LOCATION)),)
    assert a.limit == Limit(1, Period.ROUND, LimitKind.MAX)


def test_after_knelt_and_stand() -> None:
    (a,) = compile_text("<b>Reaction:</b> After Foo is knelt, stand a [stark] character you control. "
                        "(Limit twice per round.)", "Foo")
    assert a.trigger == Trigger(EventKind.KNELT, Subject(Scope.SELF, CardKind.CHARACTER))
    assert a.effects == (Effect(EffectKind.STAND, 1, Target(R.CHOSEN, Subject(Scope.YOU_CONTROL, CardKind.CHARACTER,
                                                                                      factions=("stark",)))),)
    assert a.limit == Limit(2, Period.ROUND)


def test_win_challenge_conditions() -> None:
    (a,) = compile_text("<b>Reaction:</b> After you win an unopposed [intrigue] challenge in which Foo is attacking "
                        "by 5 or more STR, draw 2 cards.", "Foo")
    assert a.trigger is not None and a.trigger.event is EventKind.WIN_CHALLENGE
    assert a.trigger.challenge is ChallengeType.INTRIGUE
    assert a.trigger.subject == Subject(Scope.YOU)
    assert a.trigger.participants == (Subject(Scope.SELF, CardKind.CHARACTER, role=ChallengeRole.ATTACKING),)
    assert a.trigger.unopposed and a.trigger.by_str == 5


def test_forced_is_not_optional() -> None:
    (a,) = compile_text("<b>Forced Reaction:</b> After Foo stands, kneel Foo.", "Foo")
    assert not a.optional and a.type is AT.FORCED_REACTION
    assert a.trigger == Trigger(EventKind.STOOD, Subject(Scope.SELF, CardKind.CHARACTER))
    assert a.effects == (Effect(EffectKind.KNEEL, 1, me()),)


def test_cancel_interrupt() -> None:
    (a,) = compile_text("<b>Interrupt:</b> When the effects of an opponent's event would initiate, "
                        "kneel your faction card to cancel those effects.", "Foo", "location")
    assert a.trigger.event is EventKind.EVENT_WOULD_INITIATE
    assert a.trigger.subject.scope is Scope.OPPONENT_CONTROLS
    assert a.costs == (Cost(CostKind.KNEEL, FACTION),)
    assert a.effects[0].kind is EffectKind.CANCEL


def test_you_may_is_optional_effect() -> None:
    (a,) = compile_text("<b>When Revealed:</b> You may draw 2 cards.", "P", "plot")
    assert a.type is AT.WHEN_REVEALED and not a.optional
    assert a.effects == (Effect(EffectKind.DRAW, 2, YOU, optional=True),)


# ---------------------------------------------------------------------------
# text that must not be guessed


def test_unknown_trigger_is_reported() -> None:
    (a,) = compile_text("<b>Reaction:</b> After the moon turns red, gain 1 gold.", "Foo")
    assert a.trigger is None and a.compiled is Compiled.PARTIAL
    assert a.unread[0] == Unread("after the moon turns red", ClauseRole.TRIGGER)
    assert a.reasons[0] == "trigger not read: 'after the moon turns red'"
    assert a.effects == (Effect(EffectKind.GAIN_GOLD, 1, YOU),)


def test_nothing_understood_is_unsupported() -> None:
    (a,) = compile_text("<b>Action:</b> Switch the moon with the sun. Look at the stars.", "Foo")
    assert a.compiled is Compiled.UNSUPPORTED
    assert a.effects == () and a.costs == ()
    assert set(a.unread) == {Unread("switch the moon with the sun", ClauseRole.EFFECT),
                             Unread("look at the stars", ClauseRole.EFFECT)}


def test_variable_x_definition(pool) -> None:
    """Asha Greyjoy: "search the top X cards of your deck ... X is the number of cards in the losing opponent's
    discard pile": X is a typed quantity, never guessed."""
    react = [a for a in abilities(pool, "08051") if a.type is AT.REACTION][0]
    assert react.compiled is Compiled.FULL and react.effects[0].kind is EffectKind.SEARCH_DECK
    assert react.effects[0].amount is None  # X
    assert react.x == Quantity(QuantityKind.COUNT, Subject(Scope.OPPONENT_OWNS, CardKind.CARD,
                                                           zone=Zone.DISCARD_PILE, player_role=PlayerRole.LOSING))
    (b,) = compile_text("<b>Action:</b> Draw X cards. X is the number of dragons in the sky.", "Foo")
    assert b.x is None and b.unread == (Unread("x is the number of dragons in the sky", ClauseRole.DEFINITION),)


def test_conditions_are_typed() -> None:
    (a,) = compile_text("While you control a <i>Lord</i> character, Foo gets +2 STR.", "Foo")
    assert a.compiled is Compiled.FULL
    assert a.conditions == (Condition(CondWord.WHILE, TestKind.EXISTS,
                                      subject=Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, ("Lord",))),)
    assert a.effects == (Effect(EffectKind.STR_MOD, 2, me()),)
    (b,) = compile_text("While the moon is full, Foo gets +2 STR.", "Foo")
    assert b.compiled is Compiled.PARTIAL and b.effects == (Effect(EffectKind.STR_MOD, 2, me()),)
    assert b.unread == (Unread("while the moon is full", ClauseRole.CONDITION),)


def test_play_restriction_and_unread_limit(pool) -> None:
    (a,) = abilities(pool, "00354")  # Gulltown Merchant: "if there is a «City» plot card revealed, kneel ~ to ..."
    assert a.compiled is Compiled.FULL and a.phase is Phase.MARSHALING
    assert a.conditions == (Condition(CondWord.IF, TestKind.EXISTS, subject=Subject(
        Scope.ANY, CardKind.PLOT, ("City",), zone=Zone.PLAY)),)
    assert a.costs == (Cost(CostKind.KNEEL, me()),) and a.effects == (Effect(EffectKind.GAIN_GOLD, 1, YOU),)
    (b,) = compile_text("<b>Action:</b> Draw 1 card. (Limit X times per round, where X is 2.)", "Foo")
    assert b.limit is None and b.compiled is Compiled.PARTIAL and b.effects == (Effect(EffectKind.DRAW, 1, YOU),)
    assert b.unread == (Unread("(limit x times per round, where x is 2)", ClauseRole.LIMIT),)


def test_normalise_markup() -> None:
    assert normalise("Kneel <b>Foo</b> to choose a <i>Knight</i> [stark] character.", "Foo") == \
        "kneel ~ to choose a «Knight» [stark] character."


def test_whole_pool_compiles_without_errors(pool) -> None:
    total = 0
    for card in pool:
        for a in compile_card(card.raw):
            total += 1
            assert (a.compiled is Compiled.FULL) == (not a.reasons)
    assert total > 3000


def test_discard_from_an_opponents_hand(pool) -> None:
    """Ser Waymar Royce and False Plans: a discard from the opponent's hand is an effect on that player."""
    waymar = abilities(pool, "01128")[1]  # "discard 1 card at random from each opponent's hand"
    each_opp = Target(R.EACH, Subject(Scope.OPPONENT))
    assert waymar.compiled is Compiled.FULL
    assert waymar.effects == (Effect(EffectKind.DISCARD_FROM_HAND, 1, each_opp, at_random=True),)
    plans = abilities(pool, "10023")[0]  # "choose an opponent. that player discards 1 card at random ..."
    that = Target(R.PLAYER, Subject(Scope.OPPONENT, player_role=PlayerRole.THAT))
    assert plans.compiled is Compiled.FULL
    assert plans.effects == (Effect(EffectKind.CHOOSE, 1, Target(R.CHOSEN, Subject(Scope.OPPONENT))),
                             Effect(EffectKind.DISCARD_FROM_HAND, 1, that, at_random=True))
    (each,) = compile_text("<b>Action:</b> Each player discards 1 card from his or her hand.", "Foo")
    assert each.effects[0].target.subject.scope is Scope.ANY_PLAYER


def test_put_into_play_records_its_zones(pool) -> None:
    from ruleproof.cards.abilities import Zone

    lancel = abilities(pool, "00152")[1]  # "put a «The Seven» character into play from your hand or discard pile"
    assert lancel.effects[0].from_zones == (Zone.HAND, Zone.DISCARD_PILE)
    (unnamed,) = compile_text("<b>Action:</b> Kneel Foo to put a character into play.", "Foo")
    assert unnamed.effects[0].from_zones == ()  # not stated: nothing is guessed
    (other,) = compile_text("<b>Action:</b> Put a character into play from an opponent's discard pile.", "Foo")
    # another player's pile is not read: the effect keeps no zone, and the phrase is named, never dropped
    assert other.compiled is not Compiled.FULL and other.effects[0].from_zones == ()
    assert [u.phrase for u in other.unread] == ["from an opponent's discard pile"]


def test_treaty_draw_then_choose_and_discard_from_your_hand(pool) -> None:
    (a,) = [x for x in abilities(pool, "00003") if x.type is AT.ACTION]
    assert strip(a) == Ability(AT.ACTION, costs=(Cost(CostKind.KNEEL, FACTION),),
                               effects=(Effect(EffectKind.DRAW, 1, YOU),
                                        Effect(EffectKind.DISCARD_FROM_HAND, 1, YOU, then=True)))


def test_discard_from_another_players_hand_is_not_read_as_your_own() -> None:
    (a,) = compile_text("<b>Action:</b> Look at an opponent's hand. Then, choose and discard 1 card from that hand.")
    assert not any(e.kind is EffectKind.DISCARD_FROM_HAND and e.target == YOU for e in a.effects)
    # "that hand" is the hand looked at: the opponent's
    assert a.compiled is Compiled.FULL and a.effects[-1].kind is EffectKind.DISCARD_FROM_HAND
    assert a.effects[-1].target.subject.scope is Scope.OPPONENT


def test_cannot_be_canceled_is_read_not_reported() -> None:
    (a,) = compile_text("<b>Action:</b> Gain 5 gold. (Cannot be canceled.)", "X", "event")
    assert a.compiled is Compiled.FULL and a.cannot_be_canceled
    assert strip(a) == Ability(AT.ACTION, effects=(Effect(EffectKind.GAIN_GOLD, 5, YOU),), cannot_be_canceled=True)
    (b,) = compile_text("<b>Action:</b> Gain 5 gold.", "X", "event")
    assert not b.cannot_be_canceled


def test_then_marks_where_the_post_then_aspect_starts(pool) -> None:
    """Ser Jaime Lannister: "stand ~. Then, discard that character from play." (The word "Then")."""
    (a,) = [x for x in abilities(pool, "00151") if x.type is AT.FORCED_REACTION]
    assert [(e.kind, e.then) for e in a.effects] == [(EffectKind.STAND, False), (EffectKind.DISCARD, True)]
    (b,) = compile_text("<b>Action:</b> Kneel ~ to stand a character, then gain 1 gold.", "X")
    assert [(e.kind, e.then) for e in b.effects] == [(EffectKind.STAND, False), (EffectKind.GAIN_GOLD, True)]
    (c,) = compile_text("<b>Action:</b> Kneel ~ to stand a character and gain 1 gold.", "X")
    assert not any(e.then for e in c.effects)


def test_an_opponents_character_is_one_an_opponent_controls() -> None:
    """FAQ (2.7): "you"/"your" is the controller, so "an opponent's character" is one an opponent controls."""
    theirs = Subject(Scope.OPPONENT_CONTROLS, CardKind.CHARACTER)
    (a,) = compile_text("<b>Action:</b> Kneel ~ to choose and kneel an opponent's character.", "X")
    assert a.compiled is Compiled.FULL and a.effects == (Effect(EffectKind.KNEEL, 1, Target(R.CHOSEN, theirs)),)
    (b,) = compile_text("<b>Action:</b> Kneel ~ to kneel each opponent's «Knight» character.", "X")
    assert b.effects == (Effect(EffectKind.KNEEL, None, Target(R.EACH, Subject(Scope.OPPONENT_CONTROLS,
                                                                               CardKind.CHARACTER,
                                                                               ("Knight",)))),)
    (c,) = compile_text("<b>Reaction:</b> After an opponent's character is knelt, gain 1 gold.", "X")
    assert c.trigger is not None and c.trigger.subject == theirs
    (d,) = compile_text("<b>Action:</b> Kneel ~ to choose and kneel an opponent's character you control.", "X")
    assert d.compiled is not Compiled.FULL  # contradictory scopes are not guessed
