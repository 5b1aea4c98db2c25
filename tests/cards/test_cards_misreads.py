"""Readings that were wrong (a wrong reading is worse than an unread clause), each on the real card of the vendored
pool: what the printed text means, and that the tree says exactly that."""

from __future__ import annotations

import pytest

from ruleproof.cards.abilities import (
    INSTANT_EFFECTS,
    Ability,
    AbilityType,
    CardKind,
    ChallengeRole,
    Compiled,
    CostKind,
    Duration,
    EffectKind,
    Scope,
    Subject,
    Target,
    TargetRef,
    Zone,
)
from ruleproof.cards.compiler import compile_card, compile_text
from ruleproof.cards.pool import load_pool
from ruleproof.cards.render import uncovered


@pytest.fixture(scope="module")
def pool():
    return load_pool()


def ability(pool, code: str, kind: AbilityType | None = None) -> Ability:
    found = [a for a in compile_card(pool.get(code).raw)
             if (a.type is kind if kind is not None else a.type not in (AbilityType.KEYWORD, AbilityType.CONSTANT))]
    assert len(found) == 1, found
    return found[0]


def test_attacking_or_defending_alone(pool) -> None:
    """22024 Brienne the Blue: "choose a character that is attacking or defending alone": "alone" qualifies both
    roles (the only character on its side), never "any attacking character" with "or defending alone" left out as a
    mere alternative (that would widen it).  06023 Lady Sansa's Rose reads the same in its trigger."""
    a = ability(pool, "22024")
    (gets,) = a.effects
    assert gets.kind is EffectKind.STR_MOD and gets.target.subject.role is ChallengeRole.PARTICIPATING_ALONE
    assert all("defending alone" not in u.phrase for u in a.unread)
    b = ability(pool, "06023")
    assert b.compiled is Compiled.FULL and uncovered(b) == []
    assert b.trigger is not None and b.trigger.participants[0].role is ChallengeRole.PARTICIPATING_ALONE
    (c,) = compile_text("<b>Action:</b> Choose a character that is attacking alone. It gets +1 STR until the end of "
                        "the phase.")
    assert c.effects[0].target.subject.role is ChallengeRole.ATTACKING_ALONE


@pytest.mark.parametrize(("code", "looked", "rest"), [("17113", 2, 1), ("05038", 3, 2)])
def test_the_rest_go_to_the_bottom_of_the_deck(pool, code: str, looked: int, rest: int) -> None:
    """17113 Dorne ("look at the top 2 cards ... add 1 to your hand and place the other on the bottom") and 05038 "A
    Rose of Gold" ("the top 3 cards ... add 1 ... place the others on the bottom"): the cards placed at the bottom are
    the ones looked at and not added, as many as that (1 and 2), not an unknown number."""
    look, add, bottom = ability(pool, code).effects
    assert look.kind is EffectKind.LOOK_AT and look.amount == looked
    assert add.kind is EffectKind.MOVE_CARD and add.amount == 1 and add.to_zone is Zone.HAND
    assert bottom.kind is EffectKind.MOVE_CARD and bottom.to_zone is Zone.BOTTOM_OF_DECK
    assert bottom.amount == rest and bottom.target.subject.chosen is False


def test_a_cost_alternative_is_a_card_you_control(pool) -> None:
    """21024 Goldengrove: "kneel Goldengrove or a «Small Council» character": a cost is paid with your own cards
    (Costs), also the alternative: a «Small Council» character you control, not any player's."""
    a = ability(pool, "21024")
    (kneel,) = a.costs
    assert kneel.kind is CostKind.KNEEL and kneel.target.ref is TargetRef.SELF
    (alt,) = kneel.target.also
    assert alt.subject == Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, traits=("Small Council",))


def test_own_name_with_a_curly_apostrophe(pool) -> None:
    """09030 Lion's Tooth prints its own name "Lion’s Tooth" (a curly apostrophe) in its text: it is ~, so "sacrifice
    Lion’s Tooth" is its cost and the ability is read."""
    a = ability(pool, "09030")
    assert "~" in a.text and "lion" not in a.text
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (sac,) = a.costs
    assert sac.kind is CostKind.SACRIFICE and sac.target.ref is TargetRef.SELF
    (back,) = a.effects
    assert back.kind is EffectKind.RETURN_TO_HAND and back.target.subject.role is ChallengeRole.PARTICIPATING


def test_a_duration_governs_only_the_lasting_effects_it_joins(pool) -> None:
    """08014 Daario Naharis: "stand that character and take control of it until the end of the phase": the control
    lasts until the end of the phase, the stand happens at once (Lasting Effects).  15036 Fight to the Last: "save it,
    stand it, and set its STR to 1 until the end of the phase": the duration is the unread STR clause's, never the
    save's or the stand's.  A duration over effects that all happen at once is not read."""
    stand, take = ability(pool, "08014").effects
    assert (stand.kind, stand.duration) == (EffectKind.STAND, None)
    assert (take.kind, take.duration) == (EffectKind.TAKE_CONTROL, Duration.UNTIL_END_OF_PHASE)
    f = ability(pool, "15036")
    assert all(e.duration is None for e in f.effects)
    assert any("until the end of the phase" in u.phrase for u in f.unread)
    both = ability(pool, "26073")  # "choose and stand ... until the end of the phase, that character gains an icon"
    assert all(e.duration is None for e in both.effects if e.kind in INSTANT_EFFECTS)
    (g,) = compile_text("<b>Action:</b> Stand a character and kneel a location until the end of the phase.")
    assert g.compiled is not Compiled.FULL and all(e.duration is None for e in g.effects)


@pytest.mark.parametrize("code", ["08037", "08118"])
def test_a_pronoun_after_this_card_in_a_cost_list(pool, code: str) -> None:
    """08037 Thoros of Myr: "when another ... character you control would be killed, kneel Thoros of Myr and discard 1
    power from him to save that character": the power comes from Thoros (named just before in the cost list), not from
    the character being killed; 08118 The Great Sept of Baelor: "kneel ~ and discard 1 gold from it" likewise."""
    a = ability(pool, code)
    kneel, discard = a.costs
    assert kneel.kind is CostKind.KNEEL and kneel.target.ref is TargetRef.SELF
    assert discard.kind in (CostKind.DISCARD_POWER, CostKind.DISCARD_GOLD) and discard.target.ref is TargetRef.SELF
    # the effect after "to" still acts on the card of the trigger ("kneel ~ to save him": the character killed)
    if code == "08037":
        (save,) = a.effects
        assert save.kind is EffectKind.SAVE and save.target.ref is TargetRef.TRIGGER
    (m,) = compile_text("<b>Interrupt:</b> When a character you control would be killed, kneel Foo to save him.", "Foo",
                        "location")
    assert m.effects[0].target.ref is TargetRef.TRIGGER


def test_put_into_play_from_a_discard_pile_of_any_player(pool) -> None:
    """12046 We Take Westeros!: "choose a location in a discard pile and put it into play under your control": any
    player's discard pile (the point of the plot is taking an opponent's location), not only yours."""
    a = ability(pool, "12046")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (put,) = a.effects  # the choice and the card put into play are one target ("choose X and put it into play")
    assert put.kind is EffectKind.PUT_INTO_PLAY and put.controller is Scope.YOU and put.target.ref is TargetRef.CHOSEN
    assert put.target.subject == Subject(Scope.ANY, CardKind.LOCATION, zone=Zone.DISCARD_PILE)
    (mine,) = compile_text("<b>Action:</b> Put a character into play from your discard pile.")
    assert mine.effects[0].target.subject.scope is Scope.YOU_OWN


@pytest.mark.parametrize("code", ["19015", "17174", "00269"])
def test_draw_it_belongs_to_the_option_that_revealed_it(pool, code: str) -> None:
    """19015 Randyll Tarly: "either: stand an «Army» character, or reveal the top card of your deck. If it is a
    location, draw it (put it into play instead if ...)": drawing "it" is drawing 1 card (it is the top card of your
    deck: Drawing Cards), and it is part of the second option only: choosing to stand an Army character draws
    nothing."""
    a = ability(pool, code)
    (choice,) = a.effects
    assert choice.kind is EffectKind.CHOICE
    stand, reveal = choice.options
    assert [e.kind for e in stand] == [EffectKind.STAND]
    assert [e.kind for e in reveal] == [EffectKind.REVEAL, EffectKind.DRAW, EffectKind.PUT_INTO_PLAY]
    draw = reveal[1]
    assert draw.amount == 1 and draw.target == Target(TargetRef.PLAYER, Subject(Scope.YOU))
    assert draw.condition is not None and draw.condition.subject == Subject(card_type=CardKind.LOCATION)
    top = Subject(Scope.YOU_OWN, CardKind.CARD, zone=Zone.TOP_OF_DECK)
    assert draw.condition.target == Target(TargetRef.EACH, top)
    # a card that is not the top card of your deck is not drawn by "draw it"
    (b,) = compile_text("<b>Action:</b> Choose a character in your discard pile. Draw it.")
    assert b.compiled is not Compiled.FULL and all(e.kind is not EffectKind.DRAW for e in b.effects)


@pytest.mark.parametrize(("code", "kind"), [("17139", EffectKind.RETURN_TO_SHADOWS), ("10038", EffectKind.GAIN_POWER),
                                            ("11116", EffectKind.STAND), ("12021", EffectKind.GAIN_POWER),
                                            ("26086", EffectKind.GAIN_POWER)])
def test_it_after_a_trigger_that_names_the_attached_character(pool, code: str, kind: EffectKind) -> None:
    """17139 Unexpected Guile ("character with shadow you control only ... after you win a challenge in which
    attached character is participating, return it to shadows"), 10038 Beacon of the South ("... in which attached
    character is attacking, it gains 1 power"), 11116 Blood of the Viper, 12021 Red Rain, 26086 Slander and Lies:
    "it" is the attached character the trigger named, not the attachment."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (e,) = a.effects
    assert e.kind is kind and e.target.ref is TargetRef.ATTACHED
    assert e.target.subject.scope is Scope.ATTACHED and e.target.subject.card_type is CardKind.CHARACTER
    # with this card itself in the trigger, "it" is still this card
    (b,) = compile_text("<b>Reaction:</b> After you win a challenge in which Foo is attacking, it gains 1 power.",
                        "Foo")
    assert b.effects[0].target.ref is TargetRef.SELF


def test_each_of_those_is_every_card_of_the_list(pool) -> None:
    """08084 Arbor Queen: "choose a [tyrell] character and a non-[tyrell] character. until the end of the phase, each
    of those characters gets +2 STR": both get +2 STR, not only the last one named; 11007 Fresh Recruits: "search your
    deck for a «Ranger» character, a «Builder» character, and a «Steward» character, reveal them, and add them to
    your hand": all three go to your hand."""
    a = ability(pool, "08084")
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    mods = [e for e in a.effects if e.kind is EffectKind.STR_MOD]
    assert [(e.target.subject.factions, e.target.subject.not_factions) for e in mods] == [(("tyrell",), ()),
                                                                                          ((), ("tyrell",))]
    assert all(e.amount == 2 and e.duration is Duration.UNTIL_END_OF_PHASE for e in mods)
    b = ability(pool, "11007")
    added = [e.target.subject.traits for e in b.effects if e.kind is EffectKind.MOVE_CARD and e.to_zone is Zone.HAND]
    assert added == [("Ranger",), ("Builder",), ("Steward",)]


def test_reveal_a_plot_is_one_of_your_plot_deck(pool) -> None:
    """25068 Nymeria of Ny Sar: "kneel ~ to reveal a [martell] or «Summer» plot": a plot card of your plot deck
    (Revealing Plots), either alternative, not any player's plot anywhere."""
    (reveal,) = ability(pool, "25068").effects
    assert reveal.kind is EffectKind.REVEAL
    for t in (reveal.target, *reveal.target.also):
        assert (t.subject.scope, t.subject.zone, t.subject.card_type) == (Scope.YOU_OWN, Zone.PLOT_DECK, CardKind.PLOT)


@pytest.mark.parametrize(("code", "trigger", "effect_kinds"), [
    # Harrenhal: "When the effects of a non-plot, non-agenda triggered ability would initiate, kill a character ..."
    ("16021", "when the effects of a non-plot, non-agenda triggered ability would initiate",
     {EffectKind.CANCEL, EffectKind.PLACE_TOKEN}),  # "kill a character you own and control" is its cost
    # He Calls It Thinking: "When the effects of an opponent's non-agenda, non-plot triggered ability would ..."
    ("11096", "when the effects of an opponent's non-agenda, non-plot triggered ability would initiate",
     {EffectKind.CANCEL}),
])
def test_an_unread_trigger_with_a_comma_runs_to_its_would(pool, code: str, trigger: str,
                                                           effect_kinds: set[EffectKind]) -> None:
    """The unread trigger was cut at its first comma: 'trigger not read: when the effects of a non-plot' and
    'effect not read: non-agenda triggered ability would initiate, kill a character ...', so the loop finder named
    the wrong phrases and never read the effect.  The trigger runs to the comma after 'would initiate'."""
    a = ability(pool, code, AbilityType.INTERRUPT)
    unread_triggers = [u.phrase for u in a.unread if u.role.value == "trigger"]
    assert unread_triggers == [trigger]
    assert not any("would initiate" in u.phrase for u in a.unread if u.role.value != "trigger")
    assert {e.kind for e in a.effects} == effect_kinds


# The accuracy audit of 2026-12-02 (fixed-seed samples 2026 and 7 of 40 abilities read in full each)

@pytest.mark.parametrize("code", ["26036", "00292"])
def test_a_card_revealed_from_the_deck_is_placed_in_shadows_from_there(pool, code: str) -> None:
    """26036 / 00292 Beneath the Petals: "when ~ is revealed from your deck, place it in shadows": the event moves from
    your deck to shadows (it was read as returned to shadows from play, a card leaving play)."""
    place = ability(pool, code, AbilityType.INTERRUPT).effects[0]
    assert place.kind is EffectKind.MOVE_CARD and place.to_zone is Zone.SHADOWS
    assert place.target.ref is TargetRef.SELF and place.target.subject.zone is Zone.DRAW_DECK


@pytest.mark.parametrize("code", ["24017", "00237", "04050"])
def test_every_alternative_put_into_play_from_your_hand_is_yours(pool, code: str) -> None:
    """24017 / 00237 The Bastard's Boys "put a «House Bolton» or non-[stark] character with printed cost 5 or lower into
    play from your hand", 04050 "a [lannister] or «House Bolton» character": the second alternative is from your hand
    too (it had no owner: any player's)."""
    (put,) = [e for e in ability(pool, code).effects if e.kind is EffectKind.PUT_INTO_PLAY]
    assert put.target.also and all(t.subject.scope is Scope.YOU_OWN for t in (put.target, *put.target.also))


@pytest.mark.parametrize("code", ["01006", "00161", "19006"])
def test_every_alternative_searched_for_is_in_your_deck(pool, code: str) -> None:
    """01006 Building Orders "search the top 10 cards of your deck for an attachment or a location": the location is
    in your deck too (it had neither zone nor owner)."""
    search = ability(pool, code).effects[0]
    assert search.kind is EffectKind.SEARCH_DECK and search.target.also
    for t in (search.target, *search.target.also):
        assert (t.subject.scope, t.subject.zone) == (Scope.YOU_OWN, Zone.DRAW_DECK)


@pytest.mark.parametrize("code", ["25102", "04103", "00225"])
def test_after_a_plot_is_revealed_names_no_phase(pool, code: str) -> None:
    """25102 Deepwood Motte "after a «Winter» plot card is revealed": a plot can be revealed outside the plot phase (by
    an effect: The Rains of Castamere's Schemes), so the trigger names no phase (the plot phase was added)."""
    (a,) = [x for x in compile_card(pool.get(code).raw) if x.trigger is not None
            and x.trigger.event.value == "plot_revealed"][:1]
    assert a.trigger is not None and a.trigger.phase is None


@pytest.mark.parametrize("code", ["00105", "20001"])
def test_move_power_to_another_card_is_another_than_the_source(pool, code: str) -> None:
    """00105 / 20001 Ser Richard Horpe "move 1 power from a card you control to another card in play": another than
    that card (not chosen before), and Horpe himself can get it (it was read as "not ~")."""
    a = ability(pool, code)
    assert a.compiled is Compiled.FULL and uncovered(a) == []
    (move,) = a.effects
    assert move.kind is EffectKind.MOVE_POWER and move.source is not None and move.source.ref is TargetRef.CHOSEN
    assert move.target.subject.chosen is False and move.target.subject.other is False


def test_the_card_that_paid_is_it_whichever_alternative_it_fits(pool) -> None:
    """02021 Winterfell Kennel Master "kneel a «Direwolf» character or a character with a «Direwolf» attachment to have
    it participate": "it" is the card knelt, in either alternative (the second was a new choice)."""
    (part,) = ability(pool, "02021").effects
    assert part.kind is EffectKind.PARTICIPATE
    assert [t.ref for t in (part.target, *part.target.also)] == [TargetRef.COST, TargetRef.COST]


@pytest.mark.parametrize(("code", "kind"), [("08050", AbilityType.ACTION), ("00336", AbilityType.WHEN_REVEALED),
                                            ("11036", AbilityType.REACTION)])
def test_another_on_an_event_or_plot_is_another_than_the_card_named_before(pool, code: str, kind: AbilityType) -> None:
    """08050 Sparring in Secret "kneel a «Knight» character to choose and stand another «Knight» character", 00336
    Melisandre's Gambit "kill a character you control ... put another character into play", 11036 Serve. Obey.
    Protect. "return a [martell] character to your hand to put a different [martell] character into play": ~ is an
    event or a plot, so "another" is another than the card knelt, killed or returned (``chosen=False``), not "not ~"
    (which restricted nothing: the same card could come back)."""
    a = ability(pool, code, kind)
    assert uncovered(a) == []
    (e,) = [x for x in a.effects if x.kind in (EffectKind.STAND, EffectKind.PUT_INTO_PLAY)]
    assert e.target.subject.chosen is False and e.target.subject.other is False
