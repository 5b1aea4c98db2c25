"""Triggered-ability initiation, limits, maxima, costs and cancels: model/agot/abilities.py."""

from __future__ import annotations

import pytest
from agot_rules_helpers import Concrete, assert_caught, check, full_check, ir_mutant_violates, load

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.mutants import equivalence, mutants_of
from ruleproof.results import Verdict

LIMIT = "each copy of an ability is used at most its limit per period"
MAX = "each player initiates a title's ability at most its maximum per round"
CAN = "a copy of an ability under its limit can be initiated"
CAN_EVENT = "an event under its player's maximum can be played"
ONCE = "each copy is initiated at most once per occurrence of its triggering condition"
DECLINE = "sanity: a player may decline an optional reaction"
ENTERS = "a card entering play comes from an out of play area and enters play standing"


@pytest.fixture(scope="module")
def default_results():
    return full_check("abilities", "default")


def test_every_ability_property_is_proved_at_two_players_six_characters(default_results):
    bad = [(r.property, r.verdict.value, r.reason) for r in default_results if r.verdict is not Verdict.PROVED]
    assert bad == []
    names = {r.property for r in default_results}
    assert {LIMIT, MAX, CAN, CAN_EVENT, ONCE, DECLINE} <= names
    # the invariants and action properties are proved for all depths, not only reached or bounded
    assert all(r.engine.startswith("auto/kind") for r in default_results if r.kind != "reachable")
    # Every step of the families these properties judge changes the state (``declared`` flips at each
    # declaration), so k-induction's simple-path constraint (s1 != s0) excludes no step: the proofs are sound.
    actions = [r for r in default_results if r.kind == "action"]
    assert len(actions) >= 15 and all(r.reason == "1-inductive" for r in actions)


def test_every_ability_action_fires_within_the_checked_depth(default_results):
    cov = default_results[0].coverage
    assert cov is not None and cov.never == () and cov.unknown == ()
    assert {"initiate", "play_event", "cancel", "resolve", "close_window", "enter_play"} <= set(cov.fired)


def test_melee_limits_and_maxima_are_proved():
    """Three players: the same rules, proved by k-induction after the strengthening invariants."""
    from ruleproof.engines.runner import check_property

    s = load("abilities", "melee")
    strengthening = [p.name for p in s.properties if p.name.endswith("(strengthening)")]
    assert len(strengthening) == 5
    lemmas = []
    for n in [*strengthening, LIMIT, MAX, ONCE, CAN, CAN_EVENT]:
        r = check_property(s, s.prop(n), "kind", Options(depth=10, kmax=2, rlimit=DEFAULT_RLIMIT, timeout=600), lemmas)
        assert r.verdict is Verdict.PROVED, (n, r.reason)
        lemmas.append(s.prop(n))


@pytest.mark.parametrize(
    ("mutant", "prop"),
    [
        ("limit_per_title", CAN),
        ("max_per_copy", MAX),
        ("max_not_player_specific", CAN_EVENT),
        ("cancel_uncounted", "a cancelled ability still counts against its limit or maximum"),
        ("cancel_refund", "a cancelled ability's costs stay paid"),
        ("cancelled_event_to_hand", "a cancelled event is still played and placed in the discard pile"),
        ("keep_count", "a card entering play brings a new copy of its ability"),
        ("reset_by_phase", "the count of a copy's limit is the uses of its current object this period (strengthening)"),
        ("twice_per_occurrence", ONCE),
        ("no_cost", "initiating an ability pays its cost (initiate)"),
        ("unpayable", "an ability is initiated only if its cost can be paid (initiate)"),
        ("no_effect_ok", "an ability is initiated only if its effect would change the game state (initiate)"),
        ("forced_skippable", "a reaction window closes only after every eligible forced reaction has resolved"),
        ("optional_before_forced", "no optional reaction is initiated while a forced reaction is due (initiate)"),
        ("may_mandatory", "a player may decline the optional reactions: the window can close once no forced "
         "reaction is due"),
        ("may_effect_mandatory", "an event's controller may draw or decline to draw"),
        ("enters_knelt", ENTERS),
    ],
)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop):
    assert_caught("abilities", mutant, prop)


def test_may_mutant_loses_the_option_to_decline():
    """May / Abilities: the controller of an optional ability chooses whether to use it. With
    optional reactions made mandatory, no window closes while one is still available: the reachability
    target alone gives only UNKNOWN (review F14), the invariant stating the option gives a counterexample."""
    good = check(load("abilities", "small"), DECLINE, depth=5)
    assert good.verdict is Verdict.PROVED and good.trace is not None  # reached: the option exists
    bad = check(load("abilities", "small", mutant="may_mandatory"), DECLINE, depth=5)
    assert bad.verdict is Verdict.UNKNOWN  # not reached within 5 steps (the model needs 2)
    may = "a player may decline the optional reactions: the window can close once no forced reaction is due"
    assert check(load("abilities", "small", mutant="may_mandatory"), may, depth=5).verdict is Verdict.VIOLATED


def test_an_optional_reaction_waits_for_a_due_forced_reaction():
    """Rules Reference, Forced Interrupts / Forced Reactions: "forced reactions take priority and initiate
    before non-forced reactions" (review F7: commit 3e7e81c let c1 react first). While c6's forced reaction
    is due, neither c1's optional reaction nor the event c9 starts; once c6 has resolved, both can."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c1", "c6"])
    assert not _initiated(c, c.step("initiate(c1)", s), "c1")
    assert not _initiated(c, c.step("play_event(c9)", s), "c9")
    s = c.step("resolve", c.step("initiate(c6)", s))
    assert _initiated(c, c.step("initiate(c1)", s), "c1")
    assert _initiated(c, c.step("play_event(c9)", s), "c9")


def test_you_may_draw_lets_the_events_controller_decline_but_a_reaction_draws():
    """May: "If no player is specified, the option is granted to the controller of the card with the ability
    in question." The event c9 reads "you may draw 1 card": its controller may decline (the event is still
    played and discarded); a character's reaction "draw 1 card" draws whatever the choice."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c1"])
    ev = c.step("play_event(c9)", s)
    declined = c.step("resolve", ev, {"draw": False})
    drawn = c.step("resolve", ev, {"draw": True})
    assert (c.get(declined, "deck[p1]"), c.get(declined, "zone[c9]")) == (3, "discard")
    assert c.get(drawn, "deck[p1]") == 2
    ch = c.step("initiate(c1)", s)
    assert c.get(c.step("resolve", ch, {"draw": False}), "deck[p1]") == 2


# ------------------------------------------------------------------ rulings as scenarios
# default scenario, player 1: c1, c2 (title ct1, Limit N per round), c3, c4 (ct2, per phase),
# c5 (ct3, per phase), c6 (forced, per phase); events c7, c8 (et1, cost 1), c9 (et2, cost 0).
# Player 2: c10..c15 and c16..c18 likewise.


def _start(c: Concrete, in_play: list[str], **extra):
    values = {"deck[p1]": 3, "deck[p2]": 3, "gold[p1]": 3, "gold[p2]": 3}
    values.update({f"zone[{x}]": "play" for x in in_play})
    values.update(extra)
    return c.step("occur", c.state(values))


def _initiated(c: Concrete, s, card: str) -> bool:
    return bool(c.get(s, "busy")) and c.get(s, "src") == card


def test_a_cancelled_ability_counts_against_its_limit_and_its_cost_stays_paid():
    """Rules Reference, Limits and Maxima: "If the effects of a card or ability with a limit or a maximum
    are canceled, it is still counted against the limit/maximum." Cancel: "the ability is still considered
    to have been used, and any costs have still been paid." c1 (Limit 1 per round) kneels to react; the
    effect is cancelled; c1 stays knelt, nothing is drawn, and after standing it cannot react again this
    round, not even to a new occurrence."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c1"], **{"printed[ct1]": 1})
    s = c.step("initiate(c1)", s)
    assert _initiated(c, s, "c1") and c.get(s, "knelt[c1]") is True
    s = c.step("cancel", s)
    assert (c.get(s, "knelt[c1]"), c.get(s, "deck[p1]"), c.get(s, "busy")) == (True, 3, False)
    s = c.step("close_window", c.step("stand(c1)", s))
    s = c.step("occur", c.step("end_phase", s))  # a per-round limit survives the end of a phase
    assert not _initiated(c, c.step("initiate(c1)", s), "c1")
    s = c.step("occur", c.step("end_round", c.step("close_window", s)))
    assert _initiated(c, c.step("initiate(c1)", s), "c1")


def test_limit_once_per_phase_resets_when_the_phase_ends():
    """FAQ errata, Driftwood Cudgel: its interrupt reads "(Limit once per phase.)". A per-phase limit: c3
    (ct2, Limit 1 per phase) is used once; standing again and a new occurrence in the same phase do not let
    it react again; in the next phase it can."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c3"], **{"printed[ct2]": 1})
    s = c.step("resolve", c.step("initiate(c3)", s))
    assert c.get(s, "deck[p1]") == 2
    s = c.step("occur", c.step("close_window", c.step("stand(c3)", s)))
    assert not _initiated(c, c.step("initiate(c3)", s), "c3")
    s = c.step("occur", c.step("end_phase", c.step("close_window", s)))
    assert _initiated(c, c.step("initiate(c3)", s), "c3")


def test_a_card_that_leaves_and_re_enters_play_brings_a_new_copy_of_its_ability():
    """Rules Reference, Limits and Maxima: "If a card leaves play and re-enters play during the same period,
    the card is considered to be bringing a new copy of the ability to the game." c1 (Limit 1 per round) has
    used its limit; after leaving and re-entering play in the same round it reacts again."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c1"], **{"printed[ct1]": 1})
    s = c.step("close_window", c.step("resolve", c.step("initiate(c1)", s)))
    s = c.step("occur", c.step("stand(c1)", s))
    assert not _initiated(c, c.step("initiate(c1)", s), "c1")
    s = c.step("enter_play(c1)", c.step("leave_play(c1)", s))
    assert _initiated(c, c.step("initiate(c1)", s), "c1")


def test_a_limit_of_two_allows_exactly_two_uses_in_the_period():
    """Rules Reference, Limits and Maxima: "Each copy of an ability with such a limit may be used X times
    during the designated period." c1 (Limit 2 per round) reacts to two occurrences; a third is refused."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c1"], **{"printed[ct1]": 2})
    for _ in range(2):
        s = c.step("initiate(c1)", s)
        assert _initiated(c, s, "c1")
        s = c.step("occur", c.step("stand(c1)", c.step("close_window", c.step("resolve", s))))
    assert not _initiated(c, c.step("initiate(c1)", s), "c1")
    assert c.get(s, "deck[p1]") == 1


def test_each_copy_of_a_reaction_may_be_used_once_per_occurrence():
    """Rules Reference, Reactions: "If multiple copies of the same reaction are eligible, each copy may be
    used once." The limit is per copy, not per title: c1 and c2 (both ct1, Limit 1) react to the same
    occurrence; c1 cannot react a second time to it, even standing again."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c1", "c2"], **{"printed[ct1]": 1})
    s = c.step("resolve", c.step("initiate(c1)", s))
    s = c.step("resolve", c.step("initiate(c2)", s))
    assert c.get(s, "deck[p1]") == 1
    s = c.step("stand(c1)", s)
    assert not _initiated(c, c.step("initiate(c1)", s), "c1")


def test_a_maximum_counts_every_copy_by_title_for_each_player_separately():
    """Rules Reference, Limits and Maxima: "Max X per [period]" limits initiations "from all copies (by title)
    of cards bearing the ability"; "All limits and maxima are player specific." Max 1 per round on et1:
    player 1 plays c7; the other copy c8 is refused, even when c7's effects were cancelled; et2 (c9) and
    player 2's copy of et1 (c16) can still be played; next round c8 can."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, [], **{"printed[et1]": 1, "printed[et2]": 1})
    s = c.step("play_event(c7)", s)
    assert _initiated(c, s, "c7") and c.get(s, "zone[c7]") == "playing" and c.get(s, "gold[p1]") == 2
    s = c.step("cancel", s)
    # FAQ (1.5) / Cancel: a cancelled event is still played and placed in the discard pile; its cost stays paid
    assert (c.get(s, "zone[c7]"), c.get(s, "gold[p1]"), c.get(s, "deck[p1]")) == ("discard", 2, 3)
    assert not _initiated(c, c.step("play_event(c8)", s), "c8")
    s = c.step("resolve", c.step("play_event(c9)", s), {"draw": True})
    s = c.step("resolve", c.step("play_event(c16)", s), {"draw": True})
    assert (c.get(s, "deck[p1]"), c.get(s, "deck[p2]")) == (2, 2)
    s = c.step("occur", c.step("end_round", c.step("close_window", s)))
    assert _initiated(c, c.step("play_event(c8)", s), "c8")


def test_an_ability_whose_cost_cannot_be_paid_cannot_be_initiated():
    """Rules Reference, Abilities: "A card ability can only be initiated if its cost (after modifiers) has
    the potential to be paid in full." A knelt c1 cannot kneel to react; an event costing 1 cannot be played
    with 0 gold, while a 0-cost event can."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c1"], **{"knelt[c1]": True, "gold[p1]": 0, "printed[et1]": 2})
    for card, fam in (("c1", "initiate"), ("c7", "play_event")):
        assert not _initiated(c, c.step(f"{fam}({card})", s), card)
    assert _initiated(c, c.step("play_event(c9)", s), "c9")


def test_an_ability_whose_effect_would_not_change_the_game_state_cannot_be_initiated():
    """Rules Reference, Abilities / Costs: "A card ability can only be initiated if its effect has the
    potential to change the game state." With an empty deck, "draw 1 card" changes nothing: neither a
    reaction nor an event can be initiated, and a forced reaction does not hold the window open."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c1", "c6"], **{"deck[p1]": 0})
    assert not _initiated(c, c.step("initiate(c1)", s), "c1")
    assert not _initiated(c, c.step("play_event(c9)", s), "c9")
    assert not _initiated(c, c.step("initiate(c6)", s), "c6")
    assert c.enabled("close_window", s)


def test_a_forced_reaction_must_resolve_before_its_window_closes_and_needs_no_choice():
    """Rules Reference, Forced Interrupts / Forced Reactions: forced abilities "must be resolved immediately
    whenever the triggering condition ... occurs"; FAQ (Catelyn Stark): forced abilities are initiated
    automatically by the game. c6's forced reaction keeps the window open until it has resolved; optional
    reactions (c1) may be left unused."""
    c = Concrete(load("abilities", "default"))
    s = _start(c, ["c1", "c6"])
    assert not c.enabled("close_window", s)
    s = c.step("resolve", c.step("initiate(c6)", s))
    assert c.get(s, "knelt[c6]") is False  # no cost
    assert c.enabled("close_window", s)  # c1's optional reaction is declined
    s = c.step("close_window", s)
    assert c.get(s, "declined") is True and c.get(s, "knelt[c1]") is False


def test_a_card_enters_play_standing_whatever_it_was_before():
    """Rules Reference, Stand, Standing: "The default state in which cards enter play is standing." c1 is in
    hand, knelt as it was when it last left the table (the game shows no kneeling out of play); it enters play
    standing and can kneel to react (before the fix it entered knelt: rule mutant ``enters_knelt``)."""
    c = Concrete(load("abilities", "default"))
    s = c.state({"deck[p1]": 3, "zone[c1]": "hand", "knelt[c1]": True})
    s = c.step("enter_play(c1)", s)
    assert (c.get(s, "zone[c1]"), c.get(s, "knelt[c1]")) == ("play", False)
    assert _initiated(c, c.step("initiate(c1)", c.step("occur", s)), "c1")


# ------------------------------------------------------------------ the steps around an initiation (IR mutants)
RESOLVES = "an effect resolves only after it attempted to initiate, and once"
CANCELS = "a cancel prevents an effect attempting to initiate, which is then no longer imminent"
QUIET = "while an effect attempts to initiate, only its cancel or its resolution follows ({})"
CLOSES = "a reaction window closes only while it is open"
OPENS = "a triggering condition that occurs opens its reaction window"
PERIOD = "a period ends only once the triggering condition's sequence is complete ({})"
LEAVES = "a card leaving play goes from play to an out of play area"
STANDS = "an effect stands a kneeling card in play"
STEPS = [
    ("resolve", "", "busy", RESOLVES),
    ("resolve", "drop-update busy", "", RESOLVES),
    ("cancel", "", "busy", CANCELS),
    ("cancel", "drop-update busy", "", CANCELS),
    ("occur", "drop-update open", "", OPENS),
    ("close_window", "", "open", CLOSES),
    ("close_window", "drop-update open", "", CLOSES),
    ("end_phase", "", "not open", PERIOD.format("end_phase")),
    ("end_round", "", "not open", PERIOD.format("end_round")),
    ("enter_play", "drop-update zone", "", ENTERS),
    ("enter_play", "drop-update knelt", "", ENTERS),
    ("enter_play", "", "not busy", QUIET.format("enter_play")),
    ("enter_play", "", "not (zone[c1] == play)", ENTERS),
    ("leave_play", "", "not busy", QUIET.format("leave_play")),
    ("leave_play", "", "(zone[c1] == play)", LEAVES),
    ("leave_play", "drop-update zone", "", LEAVES),
    ("stand", "drop-update knelt", "", STANDS),
    ("stand", "", "not busy", QUIET.format("stand")),
    ("stand", "", "(zone[c1] == play)", STANDS),
    ("stand", "", "knelt[c1]", STANDS),
]


def _label(system, family: str, target: str, detail: str) -> str:
    """The label of ``family``'s IR mutant ``target`` (``drop-update busy``), or its drop-guard dropping ``detail``."""
    found = {
        x.label
        for x in mutants_of(system)
        if x.family == family and ((x.kind == "drop-guard" and x.detail == detail) if detail
                                   else f"{x.kind} {x.target}" == target)
    }
    (label,) = found
    return label


@pytest.mark.parametrize(("family", "target", "detail", "prop"), STEPS)
def test_a_step_around_an_initiation_that_goes_wrong_is_caught(family, target, detail, prop):
    """Each of these IR mutants was not caught by the properties before these were stated (read against the
    model): an effect resolved or cancelled with nothing initiating, or that stays initiating; a window closed
    that was not open; a phase or round ending inside a reaction window; a card entering play that was in play,
    or knelt, or during an initiation; a card leaving play that was not in play; a stand that stands nothing; a
    triggering condition that opens no reaction window (before, only a sanity target, unreachable then, noticed)."""
    s = load("abilities", "small")
    assert ir_mutant_violates(s, _label(s, family, target, detail), [prop], depth=4) == [prop]


@pytest.mark.parametrize("label", ["drop-update initiate: declared", "drop-update play_event: declared",
                                   "drop-update leave_play: knelt"])
def test_a_mutant_that_changes_only_what_the_game_does_not_show_is_equivalent(label):
    """``declared`` is a device of the proof (it flips at each declaration), and whether a card kneels is shown
    only while it is in play (it enters play standing): a mutant that changes only these agrees with the rules."""
    s = load("abilities", "small")
    (mut,) = [x.system for x in mutants_of(s) if x.label == label]
    j = equivalence(s, mut, Options(depth=6, kmax=4, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert j.status == "equivalent", j.reason


# ------------------------------------------------------------------ the observation records, tied to the game
RECORDS = "the records of initiations follow the game ({})"


@pytest.mark.parametrize(
    ("label", "family"),
    [
        ("drop-update initiate: g_period", "initiate"),
        ("off-by-one initiate: g_occ", "initiate"),
        ("drop-update play_event: g_title", "play_event"),
        ("drop-update occur: g_occ", "occur"),
        ("drop-update close_window: declined", "close_window"),
        ("drop-update end_phase: g_period", "end_phase"),
        ("drop-update end_round: g_title", "end_round"),
        ("drop-update enter_play: g_occ", "enter_play"),
    ],
)
def test_a_record_the_model_keeps_wrong_is_caught_by_its_tie_to_the_game(label, family):
    """The properties read the observation records (``g_period``, ``g_title``, ``g_occ``, ``declined``) that the
    model writes; each step that writes one is tied to the game by a property, which catches a wrong record."""
    s = load("abilities", "small")
    prop = RECORDS.format(family)
    assert ir_mutant_violates(s, label, [prop], depth=6) == [prop]


def test_the_records_are_not_observable():
    """The game shows no record of initiations: a survivor is compared on the game's state, not on them."""
    s = load("abilities", "small")
    hidden = {v.array for v in s.vars if not v.observable}
    assert {"g_period", "g_title", "g_occ", "declined", "declared"} <= hidden
