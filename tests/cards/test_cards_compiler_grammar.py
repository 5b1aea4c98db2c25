"""The grammar-driven reader on real cards of the vendored pool: one test per construction, the roles of unread
clauses, and the systematic check that a tree read in full holds every word of its text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    ChallengeRole,
    ChallengeType,
    ClauseRole,
    Cmp,
    Compare,
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
    Means,
    Named,
    Phase,
    PlayerRole,
    Quantity,
    QuantityKind,
    Scope,
    Stat,
    Subject,
    Target,
    TargetRef,
    TestKind,
    Trigger,
    Unread,
    Zone,
)
from ruleproof.cards.compiler import clause_role, compile_card, compile_text
from ruleproof.cards.grammar import Context, NotRead, read
from ruleproof.cards.pool import load_pool
from ruleproof.cards.render import uncovered

YOU = Target(TargetRef.PLAYER, Subject(Scope.YOU))


@pytest.fixture(scope="module")
def pool():
    return load_pool()


def ability(pool, code: str, kind: AbilityType | None = None) -> Ability:
    """The one initiated ability of a card (or its one ability of ``kind``)."""
    found = [
        a
        for a in compile_card(pool.get(code).raw)
        if (a.type is kind if kind is not None else a.type not in (AbilityType.KEYWORD, AbilityType.CONSTANT))
    ]
    assert len(found) == 1, found
    return found[0]


def me(kind: CardKind = CardKind.CHARACTER) -> Target:
    return Target(TargetRef.SELF, Subject(Scope.SELF, kind))


# --------------------------------------------------------------------------- every word has a meaning


def test_every_word_of_a_fully_read_ability_is_in_its_tree(pool) -> None:
    """Systematic: for every ability of the pool read in full, each content word of its text is accounted for by
    its tree (``render.uncovered``): no grammar rule swallows words it does not put in the tree."""
    checked = 0
    swallowed: dict[str, list[str]] = {}
    for card in pool:
        for a in compile_card(card.raw):
            if a.compiled is not Compiled.FULL or a.type is AbilityType.KEYWORD:
                continue
            checked += 1
            missing = uncovered(a)
            if missing:
                swallowed[f"{card.code}: {a.text}"] = missing
    assert checked > 1400
    assert swallowed == {}


def test_the_word_check_can_fail(pool) -> None:
    """The check is not vacuous: a tree that lost a qualifier or an effect leaves words uncovered."""
    a = ability(pool, "13068")  # "marshaling action: choose and kill a kneeling character."
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    e = a.effects[0]
    assert uncovered(
        replace(a, effects=(replace(e, target=replace(e.target, subject=replace(e.target.subject, standing=None))),))
    ) == ["kneeling"]
    assert "kill" in uncovered(replace(a, effects=()))
    b = ability(pool, "25018")  # "... with printed cost 3 or lower would be killed, save it ..."
    assert {"printed", "cost", "3", "lower"} <= set(uncovered(replace(b, trigger=None, effects=())))


# --------------------------------------------------------------------------- typed targets


def test_kneeling_another_and_unique_filters(pool) -> None:
    assert ability(pool, "13068").effects == (
        Effect(EffectKind.KILL, 1, Target(TargetRef.CHOSEN, Subject(Scope.ANY, CardKind.CHARACTER, standing=False))),
    )
    stand = ability(pool, "13066")  # "choose and stand another [thenightswatch] location"
    assert stand.effects == (
        Effect(
            EffectKind.STAND,
            1,
            Target(TargetRef.CHOSEN, Subject(Scope.ANY, CardKind.LOCATION, factions=("thenightswatch",), other=True)),
        ),
    )
    search = ability(pool, "06003")  # "... search your deck for a unique «King» or «Lord» character and put it ..."
    assert search.effects[0].target.subject == Subject(
        Scope.YOU_OWN, CardKind.CHARACTER, ("King", "Lord"), unique=True, zone=Zone.DRAW_DECK
    )


def test_printed_cost_and_zone(pool) -> None:
    a = ability(pool, "25013")  # "search your deck for an «Ally» character with printed cost 3 or lower and place it
    #                             in your discard pile. shuffle your deck."
    ally = Subject(
        Scope.YOU_OWN,
        CardKind.CHARACTER,
        ("Ally",),
        compare=(Compare(Stat.PRINTED_COST, Cmp.LE, 3),),
        zone=Zone.DRAW_DECK,
    )
    assert [e.kind for e in a.effects] == [EffectKind.SEARCH_DECK, EffectKind.MOVE_CARD, EffectKind.SHUFFLE_DECK]
    assert a.effects[0].target == Target(TargetRef.CHOSEN, ally)
    assert a.effects[1].to_zone is Zone.DISCARD_PILE and a.effects[1].target.subject == ally
    ret = ability(pool, "06016", AbilityType.REACTION)  # "pay 1 gold to return ~ from your discard pile to your hand"
    assert ret.costs == (Cost(CostKind.PAY_GOLD, YOU, 1),)
    assert ret.effects == (
        Effect(
            EffectKind.MOVE_CARD,
            1,
            Target(TargetRef.SELF, Subject(Scope.SELF, CardKind.EVENT, zone=Zone.DISCARD_PILE)),
            to_zone=Zone.HAND,
        ),
    )


def test_controller_and_player_roles(pool) -> None:
    a = ability(pool, "01041")  # "... as the attacking player, choose and kill a character controlled by the losing
    #                             opponent"
    assert a.trigger == Trigger(
        EventKind.WIN_CHALLENGE,
        Subject(Scope.YOU),
        challenge=ChallengeType.MILITARY,
        by_str=5,
        as_role=PlayerRole.ATTACKING,
    )
    assert a.effects[0].target.subject == Subject(
        Scope.OPPONENT_CONTROLS, CardKind.CHARACTER, player_role=PlayerRole.LOSING
    )
    b = ability(pool, "06020")  # "after you win a challenge, the losing opponent may draw 1 card"
    assert b.effects == (
        Effect(
            EffectKind.DRAW,
            1,
            Target(TargetRef.PLAYER, Subject(Scope.OPPONENT, player_role=PlayerRole.LOSING)),
            optional=True,
        ),
    )
    # "choose a character with printed cost 3 or lower in an opponent's discard pile, and put it into play under
    # your control"
    c = ability(pool, "06026", AbilityType.ACTION)
    (put,) = c.effects
    assert put.kind is EffectKind.PUT_INTO_PLAY and put.controller is Scope.YOU
    assert put.target.subject.scope is Scope.OPPONENT_OWNS and put.from_zones == (Zone.DISCARD_PILE,)


def test_participants_and_attached_triggers(pool) -> None:
    a = ability(pool, "23021")  # "after you win a challenge in which ~ is attacking, choose and stand a neutral ..."
    assert a.trigger == Trigger(
        EventKind.WIN_CHALLENGE,
        Subject(Scope.YOU),
        participants=(Subject(Scope.SELF, CardKind.CHARACTER, role=ChallengeRole.ATTACKING),),
    )
    assert a.effects[0].target.subject == Subject(Scope.YOU_CONTROL, CardKind.LOCATION, factions=("neutral",))
    b = ability(pool, "01058", AbilityType.REACTION)  # "after attached character gains 1 or more power, stand it."
    assert b.trigger == Trigger(EventKind.GAIN_POWER, Subject(Scope.ATTACHED, CardKind.CHARACTER), amount=1)
    assert b.effects == (
        Effect(EffectKind.STAND, 1, Target(TargetRef.ATTACHED, Subject(Scope.ATTACHED, CardKind.CHARACTER))),
    )


def test_alternative_targets(pool) -> None:
    a = ability(pool, "22014", AbilityType.REACTION)  # "choose and stand a [thenightswatch] character or ~"
    (stand,) = a.effects
    assert stand.target.subject == Subject(Scope.ANY, CardKind.CHARACTER, factions=("thenightswatch",))
    assert stand.target.also == (me(CardKind.LOCATION),)


# --------------------------------------------------------------------------- abilities, phases, conditions


def test_phase_restricted_actions_and_phase_triggers(pool) -> None:
    assert ability(pool, "13068").phase is Phase.MARSHALING
    assert ability(pool, "23014").phase is Phase.CHALLENGES
    assert ability(pool, "02056", AbilityType.ACTION).phase is Phase.DOMINANCE
    varys = ability(pool, "01029")  # "when the dominance phase ends, remove ~ from the game to discard each character"
    assert varys.trigger == Trigger(EventKind.PHASE_ENDS, Subject(Scope.ANY_PLAYER), Phase.DOMINANCE)
    assert varys.costs == (Cost(CostKind.REMOVE_FROM_GAME, me()),)


def test_any_player_may_initiate(pool) -> None:
    a = ability(pool, "25037")  # "discard 1 power from your faction card to take control of ~. (any player may ...)"
    assert a.any_player and a.compiled is Compiled.FULL
    assert a.costs == (
        Cost(CostKind.DISCARD_POWER, Target(TargetRef.FACTION_CARD, Subject(Scope.YOU_CONTROL, CardKind.FACTION_CARD))),
    )
    assert a.effects == (Effect(EffectKind.TAKE_CONTROL, 1, me()),)


def test_cannot_be_killed_and_cannot_be_saved(pool) -> None:
    a = ability(pool, "02098")  # "kneel ~ to choose a character. until the end of the phase, that character cannot
    #                             be killed."
    assert a.effects == (
        Effect(
            EffectKind.PROHIBIT,
            None,
            Target(TargetRef.CHOSEN, Subject(Scope.ANY, CardKind.CHARACTER)),
            duration=Duration.UNTIL_END_OF_PHASE,
            prohibited=EventKind.KILLED,
        ),
    )
    b = ability(pool, "01104")  # "... then, return ~ to your hand (cannot be saved)."
    assert b.effects[-1] == Effect(EffectKind.RETURN_TO_HAND, 1, me(), prohibited=EventKind.SAVED, then=True)


def test_conditions_if_while_during(pool) -> None:
    a = ability(pool, "13008")  # "if you have 5 or more power on your faction card, sacrifice ~ to draw 2 cards."
    assert a.conditions == (
        Condition(
            CondWord.IF,
            TestKind.COMPARE,
            Target(TargetRef.FACTION_CARD, Subject(Scope.YOU_CONTROL, CardKind.FACTION_CARD)),
            compare=Compare(Stat.POWER, Cmp.GE, 5),
        ),
    )
    b = compile_card(pool.get("04033").raw)[-1]  # "during a challenge in which you control a participating «Lord»
    #                                              or «Lady» character, ~ gains insight."
    assert b.conditions == (
        Condition(
            CondWord.DURING,
            TestKind.CHALLENGE,
            subject=Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, ("Lord", "Lady"), role=ChallengeRole.PARTICIPATING),
        ),
    )
    assert b.effects == (Effect(EffectKind.KEYWORD_MOD, 1, me(), keyword=Keyword.INSIGHT),)
    c = compile_card(pool.get("06001").raw)[-1]  # "while ~ is participating in a challenge, each other participating
    #                                              «House Tully» character you control gains renown."
    assert c.conditions == (Condition(CondWord.WHILE, TestKind.IS, me(), Subject(role=ChallengeRole.PARTICIPATING)),)


def test_instead(pool) -> None:
    a = ability(pool, "04035")  # "draw 1 card. (3 cards instead if there are 3 or more plot cards in your used pile.)"
    base, alt = a.effects
    assert base == Effect(EffectKind.DRAW, 1, YOU)
    assert alt == Effect(
        EffectKind.DRAW,
        3,
        YOU,
        instead=True,
        condition=Condition(
            CondWord.IF, TestKind.EXISTS, subject=Subject(Scope.YOU_OWN, CardKind.PLOT, zone=Zone.USED_PILE), count=3
        ),
    )
    b = ability(pool, "01050")  # "when ~ is killed, return him to your hand instead of placing him in your dead pile."
    assert b.effects == (Effect(EffectKind.RETURN_TO_HAND, 1, me(), instead=True, instead_of=Zone.DEAD_PILE),)


def test_quantities_and_choices(pool) -> None:
    a = ability(pool, "06005")  # "after you collect income, gain 1 gold for every 2 [thenightswatch] locations ..."
    assert a.effects == (
        Effect(
            EffectKind.GAIN_GOLD,
            1,
            YOU,
            x=Quantity(
                QuantityKind.COUNT, Subject(Scope.YOU_CONTROL, CardKind.LOCATION, factions=("thenightswatch",)), per=2
            ),
        ),
    )
    b = ability(pool, "25029")  # "... that character gains insight or renown."
    (choice,) = [e for e in b.effects if e.kind is EffectKind.CHOICE]
    assert [tuple(x.keyword for x in opt) for opt in choice.options] == [(Keyword.INSIGHT,), (Keyword.RENOWN,)]


def test_reduce_cost_and_means(pool) -> None:
    a = ability(pool, "01027")  # "kneel your faction card to reduce the cost of the next loyal card you marshal or
    #                             play this phase by 1."
    assert a.effects == (
        Effect(
            EffectKind.REDUCE_COST,
            1,
            Target(TargetRef.NEXT, Subject(Scope.ANY, CardKind.CARD, loyal=True)),
            duration=Duration.UNTIL_END_OF_PHASE,
            means=Means.MARSHALING_OR_PLAYING,
        ),
    )


def test_trigger_means_and_zones() -> None:
    (a,) = compile_text("<b>Reaction:</b> After a card is discarded from your hand, draw 1 card.", "X")
    assert a.trigger == Trigger(EventKind.DISCARDED, Subject(Scope.ANY, CardKind.CARD), from_zone=Zone.HAND)
    (b,) = compile_text("<b>Reaction:</b> After a location is knelt by assault, draw 1 card.", "X")
    assert b.trigger is not None and b.trigger.means is Means.ASSAULT
    (c,) = compile_text("<b>Reaction:</b> After a card is discarded from an opponent's deck, draw 1 card.", "X")
    assert c.trigger == Trigger(
        EventKind.DISCARDED, Subject(Scope.OPPONENT_OWNS, CardKind.CARD), from_zone=Zone.DRAW_DECK
    )


# --------------------------------------------------------------------------- what is not read, and its role


def test_unread_clauses_are_named_with_their_role(pool) -> None:
    a = ability(pool, "23022")  # "when the effects of an ability that chooses a «Lord» ... would initiate, ..."
    assert a.trigger is None and a.unread[0].role is ClauseRole.TRIGGER
    assert a.unread[0].phrase.startswith("when the effects of an ability that chooses")
    assert a.effects[0].kind is EffectKind.CANCEL and a.costs == (Cost(CostKind.RETURN_TO_HAND, me()),)
    b = ability(pool, "10023", AbilityType.REACTION)  # "after ~ is discarded for [intrigue] claim, ..."
    assert b.unread == (Unread("for [intrigue] claim", ClauseRole.TRIGGER_RESTRICTION),)
    assert b.trigger == Trigger(EventKind.DISCARDED, me(CardKind.EVENT).subject) and b.compiled is Compiled.PARTIAL


@pytest.mark.parametrize(
    ("phrase", "clause", "role", "narrows"),
    [
        ("or a «Small Council» character", "costs", ClauseRole.ALTERNATIVE, True),
        ("or defender", "sentence", ClauseRole.ALTERNATIVE, True),
        ("(you may kill that character instead if it has the «King» trait)", "paren", ClauseRole.ALTERNATIVE, True),
        ("you may look at the top card of your deck", "sentence", ClauseRole.OPTIONAL_EFFECT, True),
        ("with the highest str", "sentence", ClauseRole.TARGET_RESTRICTION, False),
        ("that shares a trait with him", "costs", ClauseRole.TARGET_RESTRICTION, False),
        ("in which there are no participating characters", "trigger", ClauseRole.TRIGGER_RESTRICTION, False),
        ("during the first challenge you initiate", "trigger", ClauseRole.TRIGGER_RESTRICTION, False),
        ("if you control stannis baratheon", "sentence", ClauseRole.CONDITION, False),
        ("unless you pay 1 gold", "sentence", ClauseRole.CONDITION, False),
        ("(2 gold instead if ~ is kneeling)", "paren", ClauseRole.REPLACEMENT, False),
        ("until the beginning of the next round", "sentence", ClauseRole.DURATION, False),
        ("and place it facedown", "sentence", ClauseRole.EFFECT, False),
        ("and shuffle it into your deck", "costs", ClauseRole.COST, False),
        ("x is the number of cards he shuffled", "definition", ClauseRole.DEFINITION, False),
    ],
)
def test_clause_roles_come_from_the_grammatical_position(
    phrase: str, clause: str, role: ClauseRole, narrows: bool
) -> None:
    """An alternative or an effect the player may decline only takes options away when left out (a loop found
    without it is a loop); a restriction, condition, cost, replacement or duration does not."""
    u = Unread(phrase, clause_role(phrase, clause))
    assert u.role is role and u.narrows is narrows


def test_a_pronoun_with_nothing_to_refer_to_is_not_guessed() -> None:
    ctx = Context(CardKind.EVENT)
    ctx.trigger = None
    with pytest.raises(NotRead):
        read("stand that location", "sentence", ctx)  # an event: "that location" names no card
    (a,) = compile_text("<b>Action:</b> Stand that character.", "X", "event")
    assert a.compiled is Compiled.UNSUPPORTED


# --------------------------------------------------------------------------- more constructions, each on real cards


def test_alternative_filters(pool) -> None:
    """ "a participating loyal or «House Arryn» character you control": the target is either (Target.also)."""
    (gain, *_) = ability(pool, "23032").effects
    loyal = Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, role=ChallengeRole.PARTICIPATING, loyal=True)
    arryn = Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, ("House Arryn",), role=ChallengeRole.PARTICIPATING)
    assert gain.kind is EffectKind.GAIN_POWER and gain.target == Target(
        TargetRef.CHOSEN, loyal, (Target(TargetRef.CHOSEN, arryn),)
    )
    # "each player must choose and kill a loyal or «House Frey» character they control, if able"
    kill = next(e for a in compile_card(pool.get("20041").raw) for e in a.effects if e.kind is EffectKind.KILL)
    assert (
        kill.kind is EffectKind.KILL
        and kill.target.subject.loyal
        and kill.target.also[0].subject.traits == ("House Frey",)
    )
    assert kill.chooser == Target(TargetRef.EACH, Subject(Scope.ANY_PLAYER))


def test_abilities_that_would_initiate(pool) -> None:
    a = ability(pool, "01102")  # "when the effects of a triggered character, location, or attachment ability ..."
    assert a.trigger == Trigger(
        EventKind.ABILITY_WOULD_INITIATE,
        Subject(Scope.ANY, CardKind.CHARACTER, other_types=(CardKind.LOCATION, CardKind.ATTACHMENT)),
    )
    assert a.effects[0].kind is EffectKind.CANCEL


def test_choices_and_unless(pool) -> None:
    a = ability(pool, "01078")  # "either: draw 1 card, or gain 1 power for your faction."
    (choice,) = a.effects
    assert choice.kind is EffectKind.CHOICE
    assert choice.options == (
        (Effect(EffectKind.DRAW, 1, YOU),),
        (
            Effect(
                EffectKind.GAIN_POWER,
                1,
                Target(TargetRef.FACTION_CARD, Subject(Scope.YOU_CONTROL, CardKind.FACTION_CARD)),
            ),
        ),
    )
    b = ability(pool, "06007")  # "the winning opponent takes control of ~ unless you discard 1 gold from it."
    (take,) = b.effects
    assert take.kind is EffectKind.TAKE_CONTROL and take.target == me()
    assert take.chooser == Target(TargetRef.PLAYER, Subject(Scope.OPPONENT, player_role=PlayerRole.WINNING))
    assert take.condition == Condition(
        CondWord.UNLESS, TestKind.DOES, YOU, effects=(Effect(EffectKind.DISCARD_GOLD, 1, me()),)
    )


def test_replacements(pool) -> None:
    a = ability(pool, "01075")  # "choose and kneel a location with printed cost 2 or lower. (printed cost 3 or lower
    #                             instead if you are the first player.)"
    base, alt = a.effects
    assert base.target.subject.compare == (Compare(Stat.PRINTED_COST, Cmp.LE, 2),)
    assert alt.instead and alt.target.subject.compare == (Compare(Stat.PRINTED_COST, Cmp.LE, 3),)
    assert alt.condition == Condition(CondWord.IF, TestKind.FIRST_PLAYER, YOU)
    b = ability(pool, "02090")  # "when claim is applied for an [intrigue] challenge, apply [military] claim instead."
    assert b.effects == (Effect(EffectKind.APPLY_CLAIM, 1, YOU, challenge=ChallengeType.MILITARY, instead=True),)


def test_more_triggers(pool) -> None:
    a = ability(pool, "25006")  # "after claim is applied for an [intrigue] challenge you won by 5 or more str, ..."
    assert a.trigger == Trigger(
        EventKind.CLAIM_APPLIED,
        Subject(Scope.YOU, player_role=PlayerRole.WINNING),
        Phase.CHALLENGES,
        ChallengeType.INTRIGUE,
        by_str=5,
    )
    b = ability(pool, "13071")  # "after a location enters an opponent's discard pile, stand ~."
    assert b.trigger == Trigger(
        EventKind.ENTERS_ZONE, Subject(Scope.OPPONENT_OWNS, CardKind.LOCATION), to_zone=Zone.DISCARD_PILE
    )
    c = ability(pool, "08032")  # "after a character you control discards a location or attachment using pillage"
    assert c.trigger is not None and c.trigger.event is EventKind.PILLAGE_DISCARD
    assert c.trigger.object == Subject(Scope.ANY, CardKind.LOCATION, other_types=(CardKind.ATTACHMENT,))
    d = ability(pool, "22022")  # "when ~ is revealed from your hand or deck, put her into play."
    assert d.trigger == Trigger(EventKind.REVEALED, me().subject, from_zone=Zone.HAND, also_zones=(Zone.DRAW_DECK,))
    e = ability(pool, "01030")  # "after you win a challenge in which ~ is participating as an attacker, ..."
    assert e.trigger is not None and e.trigger.participants == (
        Subject(Scope.SELF, CardKind.CHARACTER, role=ChallengeRole.ATTACKING),
    )


def test_lowest_declaring_and_player_comparisons(pool) -> None:
    a = ability(pool, "11002")  # "choose and kill a character with the lowest printed cost (cannot be saved)."
    assert a.effects == (
        Effect(
            EffectKind.KILL,
            1,
            Target(
                TargetRef.CHOSEN,
                Subject(Scope.ANY, CardKind.CHARACTER, compare=(Compare(Stat.PRINTED_COST, Cmp.LOWEST),)),
            ),
            prohibited=EventKind.SAVED,
        ),
    )
    b = ability(pool, "01111")  # "that character must be declared as a defender for this challenge, if able."
    (must,) = b.effects
    assert must.kind is EffectKind.MUST_BE_DECLARED and must.event is EventKind.DECLARED_DEFENDER
    assert must.duration is Duration.UNTIL_END_OF_CHALLENGE and must.condition == Condition(CondWord.IF, TestKind.ABLE)
    c = ability(pool, "01095")  # "if you have more cards in hand than that player, he or she must choose and kill"
    kill = c.effects[-1]
    assert kill.condition is not None and kill.condition.test is TestKind.COMPARE
    assert kill.condition.compare == Compare(Stat.CARDS_IN_HAND, Cmp.GT, None, TargetRef.PLAYER)


def test_costs_and_quantities(pool) -> None:
    a = ability(pool, "25048")  # "discard the top card of your deck to choose a character ..."
    assert a.costs == (
        Cost(
            CostKind.DISCARD_FROM_DECK,
            Target(TargetRef.EACH, Subject(Scope.YOU_OWN, CardKind.CARD, zone=Zone.TOP_OF_DECK)),
        ),
    )
    b = ability(pool, "15038")  # "give it +x str until the end of the challenge. x is 2 higher than attached
    #                             character's str."
    assert b.effects[0].kind is EffectKind.STR_MOD and b.effects[0].amount is None
    assert b.x == Quantity(
        QuantityKind.STAT,
        target=Target(TargetRef.ATTACHED, Subject(Scope.ATTACHED, CardKind.CHARACTER)),
        stat=Stat.STR,
        plus=2,
    )
    c = ability(pool, "19002")  # "reduce the cost of each [baratheon] non-character card you marshal or play ..."
    assert c.effects == (
        Effect(
            EffectKind.REDUCE_COST,
            1,
            Target(
                TargetRef.EACH,
                Subject(Scope.ANY, CardKind.CARD, factions=("baratheon",), not_types=(CardKind.CHARACTER,)),
            ),
            duration=Duration.UNTIL_END_OF_PHASE,
            means=Means.MARSHALING_OR_PLAYING,
        ),
    )
    d = ability(pool, "08073")  # "return an out-of-faction attachment or event from your discard pile to your hand"
    assert d.effects[0].target.subject == Subject(
        Scope.YOU_OWN, CardKind.ATTACHMENT, other_types=(CardKind.EVENT,), in_faction=False, zone=Zone.DISCARD_PILE
    )


# --------------------------------------------------------------------------- the parser's cache


def test_the_parser_cache_is_written_atomically_and_a_bad_one_is_rebuilt(tmp_path, monkeypatch) -> None:
    """The LALR tables are cached in the temporary directory through a temporary file renamed into place: a
    damaged cache (a writer killed halfway) or one another user could have written is not loaded but replaced,
    and no temporary file is left behind."""
    import os
    import tempfile

    from ruleproof.cards import grammar

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    grammar.parser.cache_clear()
    try:
        path = grammar.cache_path(grammar.GRAMMAR_FILE.read_text(encoding="utf-8"))
        assert path.parent == tmp_path and not path.exists()
        first = grammar.parser()
        assert path.exists() and sorted(os.listdir(tmp_path)) == [path.name]
        good = path.read_bytes()
        assert good.startswith(b"\x80")  # a pickle, written whole
        grammar.parser.cache_clear()
        assert grammar._load_cached(path) is not None  # a whole cache loads
        path.write_bytes(good[: len(good) // 2])  # half a file
        inode = path.stat().st_ino
        assert grammar._load_cached(path) is None
        second = grammar.parser()
        assert second is not first and grammar._load_cached(path) is not None
        assert path.stat().st_ino != inode  # replaced by a rename, not rewritten in place
        assert sorted(os.listdir(tmp_path)) == [path.name]
        path.chmod(0o666)  # writable by others: not trusted
        assert grammar._load_cached(path) is None
        effects = read("stand a «Knight» character you control", "sentence", Context(CardKind.CHARACTER))
        assert effects[0].kind is EffectKind.STAND
    finally:
        grammar.parser.cache_clear()


# --------------------------------------------------------------------------- constructions that link loops


def test_a_faction_or_a_trait_are_alternative_targets(pool) -> None:
    """16010 Old Bear Mormont: "kneel ~ to choose and stand another [thenightswatch] or «Lord» character"; the
    "or" between a faction and a trait gives two alternatives, each "another" character."""
    a = ability(pool, "16010", AbilityType.ACTION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.costs == (Cost(CostKind.KNEEL, me()),)
    (stand,) = a.effects
    lord = Target(TargetRef.CHOSEN, Subject(Scope.ANY, CardKind.CHARACTER, traits=("Lord",), other=True))
    assert stand == Effect(EffectKind.STAND, 1, Target(
        TargetRef.CHOSEN, Subject(Scope.ANY, CardKind.CHARACTER, factions=("thenightswatch",), other=True), (lord,)))
    # the other order too ("a «Lord» or [stark] character"), and a list of one kind stays one filter
    (e,) = read("stand a «Lord» or [stark] character", "sentence", Context(CardKind.CHARACTER))
    assert (e.target.subject.traits, [x.subject.factions for x in e.target.also]) == (("Lord",), [("stark",)])
    (e,) = read("stand a [stark] or [greyjoy] character", "sentence", Context(CardKind.CHARACTER))
    assert e.target.subject.factions == ("stark", "greyjoy") and e.target.also == ()


def test_a_card_named_by_its_title(pool) -> None:
    """21014 Old Bear's Raven: "return ~ to your hand to stand Old Bear Mormont": the title of another card is a
    target (a card with that title, its type from the pool); titles in conditions too ("while you control Aegon
    Targaryen"); a title is never guessed where it stands for a game word ("Taxation Action")."""
    from ruleproof.cards.grammar import POOL_DIR
    from ruleproof.cards.pool import default_pool_dir

    assert POOL_DIR == default_pool_dir()  # the titles come from the pool the reader is used on by default
    a = ability(pool, "21014", AbilityType.ACTION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.effects == (
        Effect(EffectKind.STAND, 1, Target(TargetRef.CHOSEN, Subject(Scope.ANY, CardKind.CHARACTER,
                                                                     title="Old Bear Mormont"))),)
    c = ability(pool, "22019", AbilityType.CONSTANT)  # "while you control Aegon Targaryen, he gains a [military] icon."
    assert c.compiled is Compiled.FULL
    assert c.conditions == (Condition(CondWord.WHILE, TestKind.EXISTS,
                                      subject=Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, title="Aegon Targaryen")),)
    t = ability(pool, "14024", AbilityType.ACTION)  # a card titled "Taxation" exists: the precursor is not a title
    assert t.phase is Phase.TAXATION and "‹" not in t.text
    # alternatives with a title where one filter is read are not read (never dropped)
    w = ability(pool, "04083", AbilityType.CONSTANT)  # "while you control a «King» character or Catelyn Stark, ..."
    assert w.compiled is not Compiled.FULL
    # the word check sees a title the tree does not hold
    assert uncovered(replace(a, effects=(replace(a.effects[0], target=Target(TargetRef.CHOSEN,
                                                                             Subject(card_type=CardKind.CHARACTER))),))
                     ) == ["old bear mormont"]


def test_a_condition_on_several_cards_at_once(pool) -> None:
    """12032 Westwatch-by-the-Bridge: "(printed cost 4 or lower instead if you control a «Ranger» character, a
    «Steward» character, and a «Builder» character)": one ``exists`` per card, all required."""
    a = ability(pool, "12032", AbilityType.ACTION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    base, alt = a.effects
    assert base.target.subject.compare == (Compare(Stat.PRINTED_COST, Cmp.LE, 1),) and not base.instead
    assert alt.instead and alt.target.subject.compare == (Compare(Stat.PRINTED_COST, Cmp.LE, 4),)
    assert alt.condition == Condition(CondWord.IF, TestKind.ALL, all_of=tuple(
        Condition(CondWord.IF, TestKind.EXISTS, subject=Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, traits=(t,)))
        for t in ("Ranger", "Steward", "Builder")))


def test_that_many_counts_the_triggering_event(pool) -> None:
    """10041 Oldtown Scholar: "after an opponent draws 1 or more cards, ..., kneel ~ to draw that many cards"; "that
    many" with no counted event before it is not read."""
    a = ability(pool, "10041")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.trigger is not None and a.trigger.event is EventKind.DRAW and a.trigger.amount == 1
    assert a.effects == (Effect(EffectKind.DRAW, None, YOU, x=Quantity(QuantityKind.TRIGGER)),)
    b = ability(pool, "13017")  # "after a character you control comes out of shadows, place up to 3 cards ... Then,
    #                             draw that many cards": that many of the cards placed, not of the trigger
    assert "effect not read: 'draw that many cards'" in b.reasons


def test_revealing_a_new_plot_and_its_when_revealed_ability(pool) -> None:
    """10046 At Prince Doran's Behest: "choose and reveal a new plot card" (one of your plots in your plot deck);
    04020 Varys's Riddle: "initiate the when revealed ability on a revealed non-«Riddle» plot card as if you had
    just revealed it"; 02084: the ability of a plot chosen before ("on that card")."""
    pdb = ability(pool, "10046")
    assert pdb.compiled is Compiled.FULL and uncovered(pdb) == [] and pdb.cannot_be_canceled
    assert pdb.effects == (Effect(EffectKind.REVEAL, 1, Target(TargetRef.CHOSEN, Subject(
        Scope.YOU_OWN, CardKind.PLOT, zone=Zone.PLOT_DECK))),)
    riddle = ability(pool, "04020")
    assert riddle.compiled is Compiled.FULL and uncovered(riddle) == []
    assert riddle.effects == (Effect(EffectKind.RESOLVE_ABILITY, 1, Target(TargetRef.CHOSEN, Subject(
        Scope.ANY, CardKind.PLOT, not_traits=("Riddle",), zone=Zone.PLAY))),)
    chosen = ability(pool, "02084")  # "choose an «Edict», ... plot card in an opponent's used pile. initiate ... on
    #                                   that card as if you had just revealed it."
    assert chosen.compiled is Compiled.FULL
    assert [e.kind for e in chosen.effects] == [EffectKind.RESOLVE_ABILITY]
    assert chosen.effects[0].target.subject.zone is Zone.USED_PILE
    # "revealed" names a plot card only
    with pytest.raises(NotRead):
        read("kneel a revealed character", "sentence", Context(CardKind.CHARACTER))


def test_initiate_this_effect_again(pool) -> None:
    """10048 Forced March: "Then, you may kneel a character with a [military] icon to initiate this effect again":
    a repeat of the ability's effects, on condition that you kneel one of your characters."""
    a = ability(pool, "10048")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    kneel, again = a.effects
    assert kneel.kind is EffectKind.KNEEL and kneel.chooser is not None
    pay = Effect(EffectKind.KNEEL, 1, Target(TargetRef.CHOSEN, Subject(
        Scope.YOU_CONTROL, CardKind.CHARACTER, icons=(ChallengeType.MILITARY,))))
    assert again == Effect(EffectKind.REPEAT, 1, YOU, optional=True, then=True,
                           condition=Condition(CondWord.IF, TestKind.DOES, YOU, effects=(pay,)))


def test_the_highest_among_cards(pool) -> None:
    """15049 Champion's Challenge: "kneel a character with the highest STR among character you control": the card is
    one of those compared; "among" without a lowest or highest is not read."""
    a = ability(pool, "15049")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.costs == (Cost(CostKind.KNEEL, Target(TargetRef.CHOSEN, Subject(
        Scope.YOU_CONTROL, CardKind.CHARACTER, compare=(Compare(Stat.STR, Cmp.HIGHEST),)))),)
    b = ability(pool, "09014")  # "choose a character with the lowest STR among participating characters"
    assert b.compiled is Compiled.FULL
    assert b.effects[0].target.subject.role is ChallengeRole.PARTICIPATING
    with pytest.raises(NotRead):
        read("kneel a character among characters you control", "sentence", Context(CardKind.CHARACTER))


def test_instead_of_placing_it_in_his_or_her_pile(pool) -> None:
    """15029 Ser Meryn Trant: "when a card is discarded from an opponent's hand, remove it from the game instead of
    placing it in his or her discard pile": a card goes only to its owner's piles, so "his or her" is the owner's;
    a replacement is never cut in two ("instead" | "of placing ...")."""
    a = ability(pool, "15029")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (e,) = a.effects
    assert (e.kind, e.instead, e.instead_of, e.target.ref) == (
        EffectKind.REMOVE_FROM_GAME, True, Zone.DISCARD_PILE, TargetRef.TRIGGER)


def test_naming_an_event_and_events_with_that_title(pool) -> None:
    """15026 Dragonstone Convert: "name an event. until the end of the phase, events with that title cannot be
    played": a plural without a determiner is each such card; "that title" needs a title named before."""
    a = ability(pool, "15026")
    assert a.compiled is Compiled.FULL and uncovered(a) == [] and a.phase is Phase.CHALLENGES
    name, prohibit = a.effects
    assert name.kind is EffectKind.NAME and name.named is Named.EVENT
    assert prohibit == Effect(EffectKind.PROHIBIT, None, Target(TargetRef.EACH, Subject(
        Scope.ANY, CardKind.EVENT, named_title=True)), prohibited=EventKind.EVENT_PLAYED,
        duration=Duration.UNTIL_END_OF_PHASE)
    with pytest.raises(NotRead):  # no title named before
        read("events with that title cannot be played", "sentence", Context(CardKind.CHARACTER))
    c = ability(pool, "22003", AbilityType.CONSTANT)  # "during the challenges phase, characters without a [power]
    #                                                    icon cannot stand."
    assert c.compiled is Compiled.FULL
    assert c.effects[0].target == Target(TargetRef.EACH, Subject(Scope.ANY, CardKind.CHARACTER,
                                                                 lacks_icons=(ChallengeType.POWER,)))


def test_declared_as_an_attacker_or_defender_in_the_next_challenge(pool) -> None:
    """13035 The Fowler Twins: "that character must be declared as an attacker or defender in the next challenge
    initiated this phase, if able"."""
    a = ability(pool, "13035")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (e,) = a.effects
    assert (e.kind, e.event, e.duration, e.target.ref) == (
        EffectKind.MUST_BE_DECLARED, EventKind.DECLARED, Duration.NEXT_CHALLENGE, TargetRef.CHOSEN)
    assert e.condition is not None and e.condition.test is TestKind.ABLE


def test_kneel_and_another_verb_on_one_card(pool) -> None:
    """25066: "kneel and return ~ to your hand to draw 1 card": both costs act on the card of the second verb; the
    older "kneel and sacrifice ~" reads the same way."""
    a = ability(pool, "25066")
    loc = me(CardKind.LOCATION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.costs == (Cost(CostKind.KNEEL, loc), Cost(CostKind.RETURN_TO_HAND, loc))
    assert a.effects == (Effect(EffectKind.DRAW, 1, YOU),)
    (k, s) = read("kneel and sacrifice ~", "costs", Context(CardKind.CHARACTER))
    assert (k.kind, s.kind, k.target, s.target) == (EffectKind.KNEEL, EffectKind.SACRIFICE, me(), me())
    with pytest.raises(NotRead):  # the cards of the second verb are several: what kneels is not one card
        read("kneel and sacrifice each character", "costs", Context(CardKind.CHARACTER))


def test_each_opponents_faction_card_and_a_challenge_against_you(pool) -> None:
    """25009: "kneel each opponent's faction card"; 00022: "after an opponent wins a [power] challenge against you,
    that opponent takes control of ~" (the opponent attacked: the attacking player)."""
    a = ability(pool, "25009", AbilityType.INTERRUPT)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.effects == (Effect(EffectKind.KNEEL, None, Target(TargetRef.EACH, Subject(
        Scope.OPPONENT_CONTROLS, CardKind.FACTION_CARD))),)
    b = ability(pool, "00022")
    assert b.compiled is Compiled.FULL and uncovered(b) == []
    assert b.trigger == Trigger(EventKind.WIN_CHALLENGE, Subject(Scope.OPPONENT), challenge=ChallengeType.POWER,
                                as_role=PlayerRole.ATTACKING)
    (take,) = b.effects
    assert take.kind is EffectKind.TAKE_CONTROL and take.target.ref is TargetRef.SELF
    assert take.chooser is not None and take.chooser.subject.scope is Scope.OPPONENT
    with pytest.raises(NotRead):  # "you win a challenge against you" says nothing
        read("after you win a challenge against you", "trigger", Context(CardKind.CHARACTER))


def test_that_hand_and_you_own_and_control(pool) -> None:
    """03032 His Viper Eyes: "look at the winning opponent's hand. then, choose and discard 1 card from that hand";
    17106 Drowned God Fanatic: "kill a [greyjoy] character you own and control to put ~ into play from your dead
    pile" (control and ownership both)."""
    a = ability(pool, "03032")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    look, discard = a.effects
    assert look.kind is EffectKind.LOOK_AT and discard.kind is EffectKind.DISCARD_FROM_HAND and discard.then
    assert discard.target == Target(TargetRef.PLAYER, Subject(Scope.OPPONENT, player_role=PlayerRole.WINNING))
    with pytest.raises(NotRead):  # no hand named before
        read("choose and discard 1 card from that hand", "sentence", Context(CardKind.CHARACTER))
    b = ability(pool, "17106", AbilityType.ACTION)
    assert b.compiled is Compiled.FULL and uncovered(b) == []
    assert b.costs == (Cost(CostKind.KILL, Target(TargetRef.CHOSEN, Subject(
        Scope.YOU_CONTROL, CardKind.CHARACTER, factions=("greyjoy",), owner=Scope.YOU_OWN))),)


def test_the_bottom_card_of_each_players_deck(pool) -> None:
    """23027 Benjicot: "reveal the bottom card of each player's deck" is read; the sorting sentence after it ("add
    each revealed card that shares a «Trait» with ~ to its owner's hand, and discard the others") is named."""
    a = ability(pool, "23027")
    assert a.effects[0] == Effect(EffectKind.REVEAL, 1, Target(TargetRef.EACH, Subject(
        Scope.ANY, CardKind.CARD, zone=Zone.BOTTOM_OF_DECK)))
    assert [u.role for u in a.unread] == [ClauseRole.EFFECT]
    assert a.unread[0].phrase.startswith("add each revealed card")


def test_you_and_that_player_each_and_the_player_whose_hand(pool) -> None:
    """04001: "choose an opponent. you and that player each draw 2 cards" (a draw for each of the two); 13037:
    "look at a player's hand. choose and discard 1 card from that hand. then, that player draws 1 card"."""
    a = ability(pool, "04001")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    draws = [e for e in a.effects if e.kind is EffectKind.DRAW]
    assert [(e.amount, e.target.subject.scope) for e in draws] == [(2, Scope.YOU), (2, Scope.OPPONENT)]
    b = ability(pool, "13037")
    assert b.compiled is Compiled.FULL and uncovered(b) == []
    look, discard, draw = b.effects
    assert discard.target.subject.scope is Scope.ANY_PLAYER and draw.then
    assert draw.kind is EffectKind.DRAW and draw.target.subject.scope is Scope.ANY_PLAYER
    assert draw.target.subject.player_role is PlayerRole.THAT


def test_attacking_alone(pool) -> None:
    """12004: "while ~ is attacking alone, he gains stealth and renown" (a role of its own: the only attacker)."""
    a = ability(pool, "12004", AbilityType.CONSTANT)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.conditions == (Condition(CondWord.WHILE, TestKind.IS, me(), Subject(role=ChallengeRole.ATTACKING_ALONE)),)


def test_each_character_not_chosen_and_a_player_discarding_from_play(pool) -> None:
    """01026: "each player chooses up to 3 characters he or she controls. kill each character not chosen (cannot be
    saved)"; 13072: "each player chooses a non-limited location he or she controls and discards it from play"."""
    a = ability(pool, "01026")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    choose, kill = a.effects
    assert choose.kind is EffectKind.CHOOSE and choose.up_to and choose.amount == 3
    assert kill == Effect(EffectKind.KILL, None, Target(TargetRef.EACH, Subject(
        Scope.ANY, CardKind.CHARACTER, chosen=False)), prohibited=EventKind.SAVED)
    with pytest.raises(NotRead):  # nothing chosen before
        read("kill each character not chosen", "sentence", Context(CardKind.CHARACTER))
    b = ability(pool, "13072", AbilityType.ACTION)
    assert b.compiled is Compiled.FULL and uncovered(b) == []
    assert EffectKind.DISCARD in [e.kind for e in b.effects]


def test_each_character_has_the_affiliation(pool) -> None:
    """13002: "if each character you control has the [stark] affiliation, sacrifice ~ to draw 2 cards"."""
    a = ability(pool, "13002", AbilityType.ACTION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.conditions == (Condition(CondWord.IF, TestKind.IS, Target(TargetRef.EACH, Subject(
        Scope.YOU_CONTROL, CardKind.CHARACTER)), Subject(factions=("stark",))),)


def test_a_list_of_icons(pool) -> None:
    """10044: "that character gains a [military], an [intrigue], and a [power] icon": one icon each."""
    a = ability(pool, "10044")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    icons = [e.challenge for e in a.effects if e.kind is EffectKind.ICON_MOD]
    assert icons == [ChallengeType.MILITARY, ChallengeType.INTRIGUE, ChallengeType.POWER]


def test_search_several_places_and_no_pronoun_through_an_unread_effect(pool) -> None:
    """12002 Silence: "search your hand, deck, and discard pile for Silence and put it into play": "it" is the card
    searched for (in any of the three places; the deck first, the others as alternatives).  A pronoun after an effect
    that was not read is not resolved (the unread effect could have named what it refers to): 07050's "at the end of
    the phase, if that card is still in play, place it in ..." after an unread "treat its printed text box as if it
    were blank" is named, not read against the wrong card."""
    a = ability(pool, "12002", AbilityType.REACTION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    search, put, _shuffle = a.effects
    assert search.kind is EffectKind.SEARCH_DECK and put.kind is EffectKind.PUT_INTO_PLAY
    assert put.target.subject.title == "Silence" and put.target.subject.zone is Zone.DRAW_DECK
    assert [t.subject.zone for t in put.target.also] == [Zone.HAND, Zone.DISCARD_PILE]
    ctx = Context(CardKind.CHARACTER)
    read("after you marshal ~", "trigger", ctx)
    assert read("put it into play", "sentence", ctx)[0].target.ref is TargetRef.SELF  # "it": ~ when nothing else
    ctx.gap = True
    with pytest.raises(NotRead):
        read("put it into play", "sentence", ctx)
    b = ability(pool, "07050")
    assert any(u.phrase.startswith("at the end of the phase, if that card is still in play") for u in b.unread)


def test_instead_of_the_normal_claim_effects(pool) -> None:
    """02093: "when claim is applied for a challenge in which ~ is attacking alone, choose a character controlled by
    the losing opponent. instead of the normal claim effects, kill that character": the kill replaces claim; the
    phrase needs claim being applied as the triggering condition."""
    a = ability(pool, "02093")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (kill,) = [e for e in a.effects if e.kind is EffectKind.KILL]
    assert kill.replaces is EventKind.CLAIM_APPLIED and kill.target.ref is TargetRef.CHOSEN
    with pytest.raises(NotRead):
        read("instead of the normal claim effects, kill ~", "sentence", Context(CardKind.CHARACTER))


def test_a_payment_before_to_is_never_read_as_an_effect(pool) -> None:
    """"X to Y": X is paid for Y (Costs).  09020 Queen of the Seven Kingdoms: "stand attached character and remove it
    from the challenge to choose a participating character. stand that character and remove it from the challenge":
    both parts of the cost are costs on the attached character (not effects, not the attachment), the effects act on
    the chosen participating character.  24022 Mace Tyrell: "... with equal or lower printed cost" compares with the
    card that paid the cost."""
    q = ability(pool, "09020")
    assert q.compiled is Compiled.FULL and uncovered(q) == []
    host = Target(TargetRef.ATTACHED, Subject(Scope.ATTACHED, CardKind.CHARACTER))
    assert q.costs == (Cost(CostKind.STAND, host), Cost(CostKind.REMOVE_FROM_CHALLENGE, host))
    chosen = Target(TargetRef.CHOSEN, Subject(card_type=CardKind.CHARACTER, role=ChallengeRole.PARTICIPATING))
    assert q.effects == (Effect(EffectKind.STAND, 1, chosen), Effect(EffectKind.REMOVE_FROM_CHALLENGE, 1, chosen))
    m = ability(pool, "24022")
    assert m.compiled is Compiled.FULL and uncovered(m) == []
    assert [c.kind for c in m.costs] == [CostKind.STAND, CostKind.REMOVE_FROM_CHALLENGE]
    assert m.costs[1].target.ref is TargetRef.COST
    assert m.effects[0].target.subject.compare == (Compare(Stat.PRINTED_COST, Cmp.LE, None, TargetRef.COST),)
    assert m.effects[0].target.subject.other


def test_an_unread_payment_leaves_its_effect_unread_or_named_as_a_cost(pool) -> None:
    """A sentence "X to Y" that is not read whole is never read as X with "to Y" left out as a modifier (that read
    the payment as an effect): 06086 Mutiny at Craster's Keep ("sacrifice that character to choose a character an
    opponent controls and discard it from play") sacrifices and discards nothing in its tree, the sentence is an
    unread effect; 13015 Ser Gerris Drinkwater's cost "discard another card from shadows" is an unread cost and its
    effect "put ~ into play from shadows" is read.  Over the pool, no unread "to <verb>" is called a target
    restriction."""
    a = ability(pool, "06086")
    assert not {EffectKind.SACRIFICE, EffectKind.DISCARD} & {e.kind for e in a.effects}
    assert Unread("sacrifice that character to choose a character an opponent controls and discard it from play",
                  ClauseRole.EFFECT) in a.unread
    b = ability(pool, "13015", AbilityType.ACTION)
    assert b.costs == () and [e.kind for e in b.effects] == [EffectKind.PUT_INTO_PLAY]
    assert b.effects[0].from_zones == (Zone.SHADOWS,)
    assert b.unread == (Unread("discard another card from shadows", ClauseRole.COST),)
    assert clause_role("to draw 1 card", "sentence") is ClauseRole.EFFECT
    assert clause_role("to its owner's hand", "sentence") is ClauseRole.TARGET_RESTRICTION
    misnamed = [(c.code, u.phrase) for c in pool for a in compile_card(c.raw) for u in a.unread
                if u.role is ClauseRole.TARGET_RESTRICTION and u.phrase.startswith("to ")
                and u.phrase.split()[1] in ("choose", "draw", "stand", "kneel", "kill", "discard", "put", "move",
                                            "place", "gain", "give", "have", "cancel", "return", "save")]
    assert misnamed == []


def test_moving_gold_as_a_cost_and_the_card_that_paid(pool) -> None:
    """08066 Obsidian Arrows: "move 1 gold from ~ to a defending character to give that character -3 str until the
    end of the challenge" (the minus printed as a dash): the gold goes to any defending character (not one of
    yours) and "that character" is that card.  08089 Cersei's Informer: "move 1 gold from ~ to a non-«Spy» card you
    control to draw 1 card".  21024 Goldengrove: "kneel ~ or a «Small Council» character to choose another card you
    own with equal or lower printed cost": lower than the card that was knelt, whichever it was."""
    a = ability(pool, "08066")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    defending = Subject(card_type=CardKind.CHARACTER, role=ChallengeRole.DEFENDING)
    assert a.costs == (Cost(CostKind.MOVE_GOLD, Target(TargetRef.CHOSEN, defending), source=me(CardKind.ATTACHMENT)),)
    assert a.effects == (Effect(EffectKind.STR_MOD, -3, Target(TargetRef.COST, defending),
                                duration=Duration.UNTIL_END_OF_CHALLENGE),)
    b = ability(pool, "08089")
    assert b.compiled is Compiled.FULL and uncovered(b) == []
    assert [c.kind for c in b.costs] == [CostKind.MOVE_GOLD] and b.costs[0].target.subject.scope is Scope.YOU_CONTROL
    assert b.effects[0] == Effect(EffectKind.DRAW, 1, YOU)
    g = ability(pool, "21024")
    assert g.compiled is Compiled.FULL and uncovered(g) == []
    stand = g.effects[0]
    assert stand.kind is EffectKind.STAND and stand.target.subject.other
    assert stand.target.subject.compare == (Compare(Stat.PRINTED_COST, Cmp.LE, None, TargetRef.COST),)


def test_the_same_title_as_the_sacrificed_card(pool) -> None:
    """11082 Skagos: "kneel ~ and sacrifice a standing [stark] card to search your deck for a card with the same title
    as the sacrificed card and put it into play": the card found has the title of the card that paid the cost; with no
    card paid for, "the sacrificed card" refers to nothing and is not read."""
    a = ability(pool, "11082", AbilityType.ACTION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.costs[1].kind is CostKind.SACRIFICE
    search, put, _ = a.effects
    assert search.target.subject.same_title is TargetRef.COST and put.target.subject.same_title is TargetRef.COST
    assert put.kind is EffectKind.PUT_INTO_PLAY and put.from_zones == (Zone.DRAW_DECK,)
    with pytest.raises(NotRead):
        read("search your deck for a card with the same title as the sacrificed card", "sentence",
             Context(CardKind.LOCATION))


def test_participating_as_an_attacker_and_in_a_challenge_on_your_side(pool) -> None:
    """15022 Overwhelming Numbers: "put up to 2 «Dothraki» characters into play from your hand and/or discard pile
    knelt, participating as attackers": put into play, then participating (attacking); 04025 Dolorous Edd: "...,
    participating as a defender".  07034 Summer: "kneel attached character to have it participate in a [military]
    challenge on your side"; 12035 Cohollo: "... to have him participate in a challenge on your side"."""
    a = ability(pool, "15022", AbilityType.ACTION)
    put, part = a.effects[:2]
    assert put.kind is EffectKind.PUT_INTO_PLAY and put.knelt and put.up_to and put.amount == 2
    assert put.from_zones == (Zone.HAND, Zone.DISCARD_PILE)
    assert part == Effect(EffectKind.PARTICIPATE, 2, put.target, up_to=True, role=ChallengeRole.ATTACKING)
    assert "participating as attackers" not in [u.phrase for u in a.unread]
    d = ability(pool, "04025")
    assert d.compiled is Compiled.FULL and uncovered(d) == []
    assert d.effects[1] == Effect(EffectKind.PARTICIPATE, 1, me(), role=ChallengeRole.DEFENDING)
    s = compile_card(pool.get("07034").raw)[1]
    assert s.compiled is Compiled.FULL and uncovered(s) == []
    assert s.effects == (Effect(EffectKind.PARTICIPATE, 1, Target(TargetRef.ATTACHED, Subject(
        Scope.ATTACHED, CardKind.CHARACTER)), challenge=ChallengeType.MILITARY),)
    c = ability(pool, "12035", AbilityType.ACTION)
    assert c.compiled is Compiled.FULL and c.effects == (Effect(EffectKind.PARTICIPATE, 1, me()),)
    o = ability(pool, "01063")  # "choose a kneeling [baratheon] character you control. that character is now
    #                             participating as a defender. if you win this challenge, stand that character."
    assert o.compiled is Compiled.FULL and uncovered(o) == []
    assert [(e.kind, e.role) for e in o.effects] == [(EffectKind.PARTICIPATE, ChallengeRole.DEFENDING),
                                                     (EffectKind.STAND, None)]


def test_any_number_of_two_kinds_of_cards(pool) -> None:
    """08003 At Night They Howl: "choose and stand any number of «Direwolf» characters and characters with a
    «Direwolf» attachment": any number of cards, each a «Direwolf» character or a character with a «Direwolf»
    attachment (the second filter an alternative of the first); "a «Knight» character and characters ..." (not "any
    number of") is not read as such a union."""
    a = ability(pool, "08003")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.effects == (Effect(EffectKind.STAND, None, Target(
        TargetRef.CHOSEN, Subject(card_type=CardKind.CHARACTER, traits=("Direwolf",)),
        (Target(TargetRef.CHOSEN, Subject(card_type=CardKind.CHARACTER, attachment_traits=("Direwolf",))),)),
        up_to=True),)
    with pytest.raises(NotRead):
        read("stand a «Knight» character and characters with a «Direwolf» attachment", "sentence",
             Context(CardKind.CHARACTER))


def test_discard_or_dead_pile_and_hand_or_deck(pool) -> None:
    """20028 Our Blades are Sharp: "return up to 2 «House Bolton» cards from your discard and/or dead pile to your hand"
    (each from either pile: the dead pile an alternative); 00336 Melisandre's Gambit: "put another character into play
    from your dead or discard pile"; 06070 Tywin's Stratagem: "after a character is discarded from an opponent's hand
    or deck"."""
    a = ability(pool, "20028")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (ret,) = a.effects
    assert ret.kind is EffectKind.MOVE_CARD and ret.to_zone is Zone.HAND and ret.up_to and ret.amount == 2
    assert ret.target.subject.zone is Zone.DISCARD_PILE
    assert [t.subject.zone for t in ret.target.also] == [Zone.DEAD_PILE]
    assert ret.target.also[0].subject.traits == ("House Bolton",)
    b = ability(pool, "00336")
    assert b.compiled is Compiled.FULL and b.effects[1].from_zones == (Zone.DEAD_PILE, Zone.DISCARD_PILE)
    c = ability(pool, "06070", AbilityType.REACTION)
    assert c.compiled is Compiled.FULL and uncovered(c) == []
    assert c.trigger is not None and (c.trigger.from_zone, c.trigger.also_zones) == (Zone.HAND, (Zone.DRAW_DECK,))
    assert c.trigger.subject.scope is Scope.OPPONENT_OWNS


def test_a_pronoun_after_a_cost_refers_to_the_card_of_the_trigger(pool) -> None:
    """In a triggered ability about a card, "it"/"that card" after the cost is that card, not the card paid: 03044
    "when a non-«Army» character you control would be killed, kneel a «Maester» character to save it" saves the
    character; 02053 Crone of Vaes Dothrak "... kneel a «Dothraki» character to place that card in its owner's dead
    pile" places the discarded card.  A comparison still means the card paid: 02014 "after you reveal a
    plot card, discard an attachment from your hand to choose an attachment with equal or lower printed cost".  "Him"
    is never a location: 12039 "kneel a neutral location with printed cost 1 or higher to stand him" stands ~; 12016
    "put a «Warship» location into play ... then, if you control ‹Euron Crow's Eye›, stand him" is not read as
    standing the location."""
    a = ability(pool, "03044")
    assert a.effects[0].kind is EffectKind.SAVE and a.effects[0].target.ref is TargetRef.TRIGGER
    assert a.effects[0].target.subject.not_traits == ("Army",)
    b = ability(pool, "02053")
    assert b.compiled is Compiled.FULL
    assert b.effects == (Effect(EffectKind.MOVE_CARD, 1, Target(TargetRef.TRIGGER, Subject(
        Scope.OPPONENT_OWNS, CardKind.CHARACTER)), to_zone=Zone.DEAD_PILE),)
    c = ability(pool, "02014")
    assert c.effects[0].target.subject.compare == (Compare(Stat.PRINTED_COST, Cmp.LE, None, TargetRef.COST),)
    d = ability(pool, "12039", AbilityType.REACTION)
    assert d.effects == (Effect(EffectKind.STAND, 1, me()),)
    e = ability(pool, "12016")
    assert all(x.target.subject.card_type is not CardKind.LOCATION for x in e.effects if x.kind is EffectKind.STAND)


def test_keyword_counts_x_str_attacking_alone_and_a_comma_before_controlled(pool) -> None:
    """18012 Harwin: "a character you control with 2 or more keywords"; 06094 Overthrowing the Masters: "a defending
    character with x str or lower" (X defined after); 04102 "Wolf in the Night": "a [stark] character that is attacking
    alone"; 02011 The Seastone Chair: "a character without attachments, controlled by the losing opponent"; 02030
    Wardens of the West: "have the losing opponent choose and discard 2 cards from his or her hand"."""
    h = ability(pool, "18012", AbilityType.ACTION)
    assert h.compiled is Compiled.FULL and uncovered(h) == []
    assert h.effects[0].target.subject.compare == (Compare(Stat.KEYWORDS, Cmp.GE, 2),)
    o = ability(pool, "06094")
    assert o.compiled is Compiled.FULL and uncovered(o) == []
    assert o.effects[0].target.subject.compare == (Compare(Stat.STR, Cmp.LE, None),) and o.x is not None
    w = ability(pool, "04102")
    assert w.compiled is Compiled.FULL and w.effects[0].target.subject.role is ChallengeRole.ATTACKING_ALONE
    s = ability(pool, "02011")
    assert s.compiled is Compiled.FULL and uncovered(s) == []
    assert s.effects[0].target.subject == Subject(Scope.OPPONENT_CONTROLS, CardKind.CHARACTER, attachments=False,
                                                  player_role=PlayerRole.LOSING)
    d = ability(pool, "02030", AbilityType.REACTION)
    assert d.compiled is Compiled.FULL and uncovered(d) == []
    assert d.effects == (Effect(EffectKind.DISCARD_FROM_HAND, 2, Target(TargetRef.PLAYER, Subject(
        Scope.OPPONENT, player_role=PlayerRole.LOSING))),)


def test_a_shadow_token_and_shadow_x_while_in_shadows(pool) -> None:
    """23012 The Wolf's Den: "place the bottom card of your deck in shadows with a shadow token on it. while that card
    is in shadows, it gains shadow (x). x is its printed cost": the move, the token on the card moved, and shadow with
    the value X while it is in shadows, X that card's printed cost.  26118 "Widow's Ford": "after an attachment or
    location enters your discard pile, place it in shadows ...": "it" is in the discard pile, so this is a move from
    that pile (not a card leaving play)."""
    a = ability(pool, "23012")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    move, token, gains = a.effects
    bottom = Target(TargetRef.EACH, Subject(Scope.YOU_OWN, CardKind.CARD, zone=Zone.BOTTOM_OF_DECK))
    assert move == Effect(EffectKind.MOVE_CARD, 1, bottom, to_zone=Zone.SHADOWS)
    assert token == Effect(EffectKind.PLACE_TOKEN, 1, bottom, token="shadow")
    assert gains == Effect(EffectKind.KEYWORD_MOD, 1, bottom, keyword=Keyword.SHADOW, keyword_x=True,
                           condition=Condition(CondWord.WHILE, TestKind.IS, bottom, Subject(zone=Zone.SHADOWS)))
    assert a.x == Quantity(QuantityKind.STAT, target=bottom, stat=Stat.PRINTED_COST)
    w = ability(pool, "26118", AbilityType.REACTION)
    assert w.compiled is Compiled.FULL
    assert w.effects[0].kind is EffectKind.MOVE_CARD and w.effects[0].target.subject.zone is Zone.DISCARD_PILE


def test_he_after_a_card_named_by_its_title_is_that_card(pool) -> None:
    """01078 Great Kraken: "while you control ‹Balon Greyjoy›, he gains stealth": Balon gains it (not the location);
    01148 Summer: "while you control ‹Bran Stark›, he gains insight": Bran.  18008: "return ~ to shadows unless you
    discard 1 gold from him": "him" is ~ (a character), not the plot card of the trigger."""
    k = ability(pool, "01078", AbilityType.CONSTANT)
    assert k.compiled is Compiled.FULL
    assert k.effects[0].target == Target(TargetRef.EACH, Subject(Scope.YOU_CONTROL, CardKind.CHARACTER,
                                                                 title="Balon Greyjoy"))
    s = ability(pool, "01148", AbilityType.CONSTANT)
    assert s.effects[0].keyword is Keyword.INSIGHT and s.effects[0].target.subject.title == "Bran Stark"
    f = ability(pool, "18008", AbilityType.FORCED_REACTION)
    cond = f.effects[0].condition
    assert cond is not None and cond.effects[0].target == me()


def test_a_challenge_initiated_in_which(pool) -> None:
    """21004 The Iron Fleet: "after you initiate a challenge in which you control an attacking «Raider» character";
    25030 Insubordination: "after a challenge is initiated against you in which attached character is attacking
    alone"."""
    a = ability(pool, "21004", AbilityType.REACTION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.trigger == Trigger(EventKind.INITIATE_CHALLENGE, Subject(Scope.YOU), Phase.CHALLENGES, participants=(
        Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, ("Raider",), role=ChallengeRole.ATTACKING),))
    b = ability(pool, "25030")
    assert b.compiled is Compiled.FULL and uncovered(b) == []
    assert b.trigger is not None and b.trigger.event is EventKind.CHALLENGE_AGAINST
    assert b.trigger.participants == (Subject(Scope.ATTACHED, CardKind.CHARACTER, role=ChallengeRole.ATTACKING_ALONE),)


def test_add_one_to_your_hand_and_place_the_other(pool) -> None:
    """17113 Dorne: "look at the top 2 cards of your deck. add 1 to your hand and place the other on the bottom of your
    deck": one of the two (chosen) to hand, the one not chosen to the bottom of the deck (1 card: 2 looked at, 1
    added).  "the other" with no choice among cards named before is not read."""
    a = ability(pool, "17113", AbilityType.REACTION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    top = Subject(Scope.YOU_OWN, CardKind.CARD, zone=Zone.TOP_OF_DECK)
    look, add, other = a.effects
    assert look == Effect(EffectKind.LOOK_AT, 2, Target(TargetRef.EACH, top))
    assert add == Effect(EffectKind.MOVE_CARD, 1, Target(TargetRef.CHOSEN, top), to_zone=Zone.HAND)
    assert other == Effect(EffectKind.MOVE_CARD, 1, Target(TargetRef.EACH, replace(top, chosen=False)),
                           to_zone=Zone.BOTTOM_OF_DECK)
    with pytest.raises(NotRead):
        read("place the other on the bottom of your deck", "sentence", Context(CardKind.LOCATION))


def test_to_a_maximum_of(pool) -> None:
    """13023: "it gains 1 power for each defending character (to a maximum of 3 power)"; 17169: "draw x cards (to a
    maximum of 5 cards). x is ..."; a maximum in a unit the effect does not count is not read."""
    a = ability(pool, "13023", AbilityType.REACTION)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    assert a.effects[0].kind is EffectKind.GAIN_POWER and a.effects[0].maximum == 3 and a.effects[0].x is not None
    b = ability(pool, "17169")
    assert b.compiled is Compiled.FULL and b.effects[0].kind is EffectKind.DRAW
    assert (b.effects[0].amount, b.effects[0].maximum) == (None, 5)
    (c,) = compile_text("<b>Action:</b> Draw X cards (to a maximum of 5 power). X is the number of cards in your hand.")
    assert c.compiled is not Compiled.FULL and all(e.maximum is None for e in c.effects)


def test_each_player_chooses_if_able(pool) -> None:
    """01015 Marched to the Wall: "each player chooses a character he or she controls (if able), and discards it from
    play (cannot be saved)": one discard per player of a character they choose, when they can."""
    a = ability(pool, "01015")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (d,) = a.effects
    assert d.kind is EffectKind.DISCARD and d.prohibited is EventKind.SAVED
    assert d.condition == Condition(CondWord.IF, TestKind.ABLE)
    assert d.chooser == Target(TargetRef.EACH, Subject(Scope.ANY_PLAYER))


def test_each_player_chooses_keeps_its_chooser(pool) -> None:
    """25011 Karstark Lancer: "each player chooses a location they control, if able. Each of those locations gains 1
    power": the choice stays each player's (one location each), never one location gaining power; 05047 Unexpected
    Delay and 17116 Yoren (the opponent chooses the character Yoren takes) likewise keep who chooses."""
    a = ability(pool, "25011")
    choose, gain = a.effects
    assert choose.kind is EffectKind.CHOOSE and choose.condition == Condition(CondWord.IF, TestKind.ABLE)
    assert choose.chooser == Target(TargetRef.EACH, Subject(Scope.ANY_PLAYER))
    assert gain.kind is EffectKind.GAIN_POWER and gain.target == choose.target
    assert gain.target.subject.card_type is CardKind.LOCATION
    delay = ability(pool, "05047")
    assert [e.kind for e in delay.effects] == [EffectKind.CHOOSE, EffectKind.RETURN_TO_HAND]
    assert delay.effects[0].chooser == Target(TargetRef.EACH, Subject(Scope.ANY_PLAYER))
    yoren = ability(pool, "17116")
    assert [e.kind for e in yoren.effects] == [EffectKind.CHOOSE, EffectKind.CHOOSE, EffectKind.TAKE_CONTROL]
    assert yoren.effects[1].chooser is not None and yoren.effects[1].chooser.subject.scope is Scope.OPPONENT
