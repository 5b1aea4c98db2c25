"""Unique cards, duplicates, the dead pile and control: model/agot/unique.py.

``test_review_f8_*`` reproduces finding F8 of the AGoT rules review: run against commit 3e7e81c's model
(``RULEPROOF_AGOT_MODEL=<3e7e81c checkout>/model/agot``) it fails (a duplicate could be discarded with nothing
leaving play); it passes on this model.
"""

from __future__ import annotations

import pytest
from agot_rules_helpers import (
    MODEL,
    Concrete,
    assert_caught,
    check,
    full_check,
    ir_mutant_violates,
    load,
    mutant_names,
    rule_mutant_violates,
)

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_system
from ruleproof.results import Verdict

ONE = "each player owns or controls at most one instance of each unique title in play"
DUP_UNDER = "a duplicate lies under an in-play copy of the same unique title that its owner owns"
EXCEPTION = "an effect can bring the only copy of a unique card in a dead pile back into play"
NOT_ONE_OF_TWO = "an effect cannot bring a unique card back from a dead pile that holds another copy"
LEAVE = "a card that would leave play leaves it with its duplicates, unless one duplicate is discarded to save it"
DUP_ENTERS = ("a card enters play as a duplicate only on an in-play copy of its unique title that its owner owns and "
              "controls")


@pytest.fixture(scope="module")
def default_results():
    return full_check("unique", "default")


def test_every_unique_property_is_proved_at_two_players_six_cards(default_results):
    bad = [(r.property, r.verdict.value, r.reason) for r in default_results if r.verdict is not Verdict.PROVED]
    assert bad == []
    names = {r.property for r in default_results}
    assert {ONE, DUP_UNDER, EXCEPTION, NOT_ONE_OF_TWO, "marshalling a duplicate costs no gold", LEAVE} <= names
    assert all(r.engine == "auto/kind" for r in default_results if r.kind != "reachable")


def test_every_unique_action_fires_within_the_checked_depth(default_results):
    cov = default_results[0].coverage
    assert cov is not None and cov.never == () and cov.unknown == ()
    assert {"marshal_duplicate", "return_from_dead", "leave_play", "take_control"} <= set(cov.fired)


def test_melee_unique_properties_are_proved():
    rs = check_system(load("unique", "melee"), "auto",
            Options(depth=8, rlimit=DEFAULT_RLIMIT, timeout=600), coverage_depth=3)
    bad = [(r.property, r.verdict.value, r.reason) for r in rs if r.verdict is not Verdict.PROVED]
    assert bad == []
    assert rs[0].coverage is not None and rs[0].coverage.never == ()


CAUGHT_BY = [
    ("second_copy", ONE),
    ("second_copy", "a copy of a unique card its owner has in play is marshalled only as a duplicate"),
    ("duplicate_costs", "marshalling a duplicate costs no gold"),
    ("marshal_free", "marshalling a card pays its gold cost"),
    ("marshal_while_dead", "a unique card is not marshalled while a copy is in its owner's dead pile"),
    ("take_second_copy", ONE),
    ("take_second_copy", "no player takes control of a unique card while owning or controlling another copy in play"),
    ("take_while_dead", "no player takes control of a unique card while a copy is in their dead pile"),
    ("put_ignores_owner", ONE),
    (
        "put_ignores_owner_dead",
        "a unique card is not put into play while a copy is in play or in the dead pile of its owner or new controller",
    ),
    ("save_keeps_duplicate", LEAVE),
    ("save_all_dups", LEAVE),
    ("dups_survive_kill", DUP_UNDER),
    ("dups_survive_kill", LEAVE),
    ("no_dead_exception", EXCEPTION),
    ("return_with_copy_dead", NOT_ONE_OF_TWO),
    ("duplicate_on_opponents_copy", DUP_ENTERS),
    ("duplicate_on_opponents_copy", DUP_UNDER),
    ("duplicate_on_controlled_copy", DUP_ENTERS),
    ("duplicate_on_controlled_copy", DUP_UNDER),
    ("second_copy_put_into_play", ONE),
    ("only_controlled_copies_count", ONE),
]


def test_every_rule_mutant_has_a_catching_property():
    assert {m for m, _ in CAUGHT_BY} == mutant_names("unique")


@pytest.mark.parametrize(("mutant", "prop"), CAUGHT_BY)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop):
    assert_caught("unique", mutant, prop)


# ------------------------------------------------------------------ rulings as scenarios
# default scenario: player 1 owns c1, c2 (title 1, unique), c3, c4 (title 2, unique), c5, c6 (title 3,
# not unique); player 2 owns c7, c8 (title 1), c9, c10 (title 2), c11, c12 (title 3).


def _game(**values):
    c = Concrete(load("unique", "default"))
    return c, c.state(values)


def test_a_second_copy_is_marshalled_only_as_a_free_duplicate():
    """Rules Reference, Unique Cards ("may marshal ... additional copies ... placed as a duplicate on that card,
    for no cost") and FAQ (1.3) ("each other copy of that card that he or she owns and controls that would enter
    play does so as a duplicate"). c1 costs 1 gold, its copy c2 costs 2."""
    c, s = _game(**{"gold[p1]": 4})
    s = c.step("marshal(p1, c1)", s)
    assert c.get(s, "gold[p1]") == 3
    assert c.step("marshal(p1, c2)", s) is None  # not as a second instance in play
    assert c.step("put_into_play(p1, c2)", s) is None
    s = c.step("marshal_duplicate(p1, c2, c1)", s)
    assert (c.get(s, "zone[c2]"), c.get(s, "under[c2]"), c.get(s, "gold[p1]")) == ("dup", "c1", 3)


def test_non_unique_copies_can_all_be_in_play_and_are_never_duplicates():
    """Rules Reference, Unique Cards: the limit applies to cards with the unique symbol only."""
    c, s = _game(**{"gold[p1]": 4})
    s = c.step("marshal(p1, c6)", c.step("marshal(p1, c5)", s))
    assert (c.get(s, "zone[c5]"), c.get(s, "zone[c6]")) == ("play", "play")
    assert not c.enabled("marshal_duplicate(p1, c6, c5)", s)


KILL = {"to": "dead", "save": False, "duplicate": "c1"}


def test_a_duplicate_is_discarded_to_save_the_card_it_is_under():
    """Rules Reference, Duplicates: "Interrupt: When the overlapping unique card would leave play, discard this
    duplicate to save that card." Without a duplicate the kill goes through and the card is placed in the dead pile."""
    c, s = _game(**{"zone[c1]": "play", "zone[c2]": "dup", "under[c2]": "c1"})
    s = c.step("leave_play(c1)", s, {"to": "dead", "save": True, "duplicate": "c2"})
    assert (c.get(s, "zone[c1]"), c.get(s, "zone[c2]")) == ("play", "discard")
    assert c.step("leave_play(c1)", s, {"to": "dead", "save": True, "duplicate": "c2"}) is None
    s = c.step("leave_play(c1)", s, KILL)
    assert c.get(s, "zone[c1]") == "dead"


def test_a_killed_card_takes_its_duplicates_to_the_discard_pile():
    """Rules Reference, Leaves Play: "All duplicates on the card are discarded." """
    c, s = _game(**{"zone[c1]": "play", "zone[c2]": "dup", "under[c2]": "c1"})
    s = c.step("leave_play(c1)", s, KILL)
    assert (c.get(s, "zone[c1]"), c.get(s, "zone[c2]")) == ("dead", "discard")


def test_review_f8_a_duplicate_is_discarded_only_as_its_card_would_leave_play():
    """F8 (medium). Duplicates: the save is an interrupt to the card *would leave play* (killed, discarded,
    returned to hand).  In a quiet state (c1 in play with its duplicate c2) no step discards c2 while c1 stays in
    play, except one in which c1 would leave play and is saved; the same save from a discard or a return to hand
    works too.  At 3e7e81c a free-standing 'save' discarded the duplicate with nothing leaving play."""
    c, s = _game(**{"zone[c1]": "play", "zone[c2]": "dup", "under[c2]": "c1"})
    discarding = {
        c.system.actions[i].label
        for i, _, t in c.ev.successors(s)
        if c.get(t, "zone[c2]") == "discard" and c.get(t, "zone[c1]") == "play"
    }
    assert discarding == {"leave_play(c1)"}
    for dest in ("discard", "hand"):
        t = c.step("leave_play(c1)", s, {"to": dest, "save": True, "duplicate": "c2"})
        assert (c.get(t, "zone[c1]"), c.get(t, "zone[c2]")) == ("play", "discard")
        t = c.step("leave_play(c1)", s, {"to": dest, "save": False, "duplicate": "c1"})
        assert (c.get(t, "zone[c1]"), c.get(t, "zone[c2]")) == (dest, "discard")


def test_a_copy_in_the_dead_pile_blocks_marshal_put_into_play_and_take_control():
    """FAQ (1.3): "A player cannot marshal, put into play, or take/gain control of a unique card if another copy of
    that card is in his or her dead pile." Player 1's c1 is dead; player 2's copy c7 is in play."""
    c, s = _game(**{"zone[c1]": "dead", "zone[c7]": "play", "zone[c8]": "discard", "gold[p1]": 4})
    assert c.step("marshal(p1, c2)", s) is None
    assert c.step("put_into_play(p1, c2)", s) is None
    assert c.step("take_control(p1, c7)", s) is None
    assert c.step("put_into_play(p1, c8)", s) is None  # an opponent's copy, too
    # another title is not affected
    assert c.step("marshal(p1, c3)", s) is not None


def test_a_duplicate_cannot_enter_play_while_a_copy_is_in_the_dead_pile():
    """FAQ (1.2): "A player cannot bring a unique card into play as a duplicate if another copy of that unique card
    is in his or her dead pile." Small scenario: player 1 owns c1, c2, c3 of one unique title; c1 is in play and an
    ability places c3 from the hand in the dead pile."""
    c = Concrete(load("unique", "small"))
    s = c.step("place_in_dead_pile(c3)", c.state({"zone[c1]": "play"}))
    assert c.step("marshal_duplicate(p1, c2, c1)", s) is None
    assert c.step("put_into_play_duplicate(p1, c2, c1)", s) is None
    s = c.state({"zone[c1]": "play", "zone[c2]": "hand", "zone[c3]": "discard"})
    assert c.step("marshal_duplicate(p1, c2, c1)", s) is not None
    s = c.step("put_into_play_duplicate(p1, c3, c1)", c.step("marshal_duplicate(p1, c2, c1)", s))
    assert [c.get(s, f"under[{d}]") for d in ("c2", "c3")] == ["c1", "c1"]  # two duplicates on one card


def test_the_only_copy_in_the_dead_pile_can_be_brought_back_but_not_one_of_two():
    """Rules Reference, Dead Pile: "A single instance of a unique card in a player's dead pile does not prevent an
    effect that would cause the card to enter play directly from the dead pile." FAQ (1.3): "An ability that puts a
    unique card into play from a player's dead pile functions only if there would be no other copies of that card in
    that dead pile upon resolution of the ability." """
    c, s = _game(**{"zone[c1]": "dead"})
    s1 = c.step("return_from_dead(p1, c1)", s)
    assert (c.get(s1, "zone[c1]"), c.get(s1, "controller[c1]")) == ("play", "p1")
    s = c.state({"zone[c1]": "dead", "zone[c2]": "dead"})
    s2 = c.step("return_from_dead(p1, c1)", s)
    assert (c.get(s2, "zone[c1]"), c.get(s2, "zone[c2]")) == ("dead", "dead")  # the effect fails


def test_the_only_dead_copy_comes_back_as_a_duplicate_when_its_owner_has_a_copy_in_play():
    """Rules Reference, Dead Pile (the single-instance exception) with Put into Play: "If an additional copy of a
    unique card a player already owns and controls is put into play under his or her control, it enters play as a
    duplicate." If the copy in play is controlled by an opponent, the card cannot enter play at all (Unique Cards)."""
    c, s = _game(**{"zone[c1]": "play", "zone[c2]": "dead"})
    s1 = c.step("return_from_dead(p1, c2)", s)
    assert (c.get(s1, "zone[c2]"), c.get(s1, "under[c2]")) == ("dup", "c1")
    s = c.state({"zone[c1]": "play", "controller[c1]": "p2", "zone[c2]": "dead"})
    assert c.get(c.step("return_from_dead(p1, c2)", s), "zone[c2]") == "dead"


def test_an_opponents_unique_card_cannot_be_put_into_play_while_a_copy_is_in_play_or_in_its_owners_dead_pile():
    """FAQ (1.3): "A player cannot marshal or put into play a copy of an opponent's unique card if another copy of
    that unique card (owned either by the player attempting to bring the card into play, or by the opponent who owns
    the unique card that is attempting to enter play) is already in play or is in its owner's dead pile." Player 1
    tries to put player 2's c8 into play from player 2's discard pile."""
    c, _ = _game()
    base = {"zone[c8]": "discard"}
    assert c.step("put_into_play(p1, c8)", c.state(base)) is not None
    assert c.step("put_into_play(p1, c8)", c.state({**base, "zone[c1]": "play"})) is None  # player 1's copy in play
    assert c.step("put_into_play(p1, c8)", c.state({**base, "zone[c7]": "play"})) is None  # player 2's copy in play
    assert c.step("put_into_play(p1, c8)", c.state({**base, "zone[c7]": "dead"})) is None  # in its owner's dead pile
    s = c.step("put_into_play(p1, c8)", c.state(base))
    assert (c.get(s, "zone[c8]"), c.get(s, "controller[c8]")) == ("play", "p1")


def test_a_stolen_unique_card_blocks_both_its_controller_and_its_owner():
    """FAQ (1.3): "If a player controls a unique card that he or she does not own, that player and that card's owner
    cannot marshal or put into play additional copies of that card, regardless of ownership." FAQ (1.2): a duplicate
    needs both cards owned and controlled by the player. Player 2 controls player 1's c1."""
    c, s = _game(**{"zone[c1]": "play", "controller[c1]": "p2", "gold[p1]": 4, "gold[p2]": 4})
    for label in (
        "marshal(p1, c2)",
        "put_into_play(p1, c2)",
        "marshal_duplicate(p1, c2, c1)",
        "marshal(p2, c7)",
        "put_into_play(p2, c7)",
    ):
        assert c.step(label, s) is None, label
    assert not any(c.enabled(f"marshal_duplicate(p2, c7, {u})", s) for u in ("c1", "c8"))
    s = c.step("revert_control(c1)", s)
    assert c.step("marshal_duplicate(p1, c2, c1)", s) is not None
    assert c.step("marshal(p2, c7)", s) is not None


def test_a_player_controlling_a_unique_card_cannot_take_control_of_another_copy():
    """FAQ (1.3): "If a player controls a unique card (regardless of ownership) that player cannot take/gain control
    of other copies of that card." Melee scenario (one unique title): player 1 owns c1, c2, player 2 owns c3, c4,
    player 3 owns c5, c6. Player 1 controls player 2's c3; player 3's c5 is in play."""
    c = Concrete(load("unique", "melee"))
    s = c.state({"zone[c3]": "play", "controller[c3]": "p1", "zone[c5]": "play"})
    assert c.step("take_control(p1, c5)", s) is None
    assert c.step("take_control(p2, c5)", s) is None  # player 2 still owns an in-play copy
    s = c.step("revert_control(c3)", s)
    assert c.step("take_control(p1, c5)", s) is not None
    s = c.step("leave_play(c1)", c.state({"zone[c1]": "play", "zone[c5]": "play"}), KILL)
    assert c.step("take_control(p1, c5)", s) is None  # a copy in player 1's dead pile blocks it too


def test_a_stolen_card_killed_goes_to_its_owners_dead_pile():
    """Rules Reference, Dead Pile: a killed character is placed on top of its owner's dead pile; the owner may not
    then marshal another copy."""
    c, s = _game(**{"zone[c1]": "play", "controller[c1]": "p2", "gold[p1]": 4})
    s = c.step("leave_play(c1)", s, KILL)
    assert (c.get(s, "zone[c1]"), c.get(s, "controller[c1]")) == ("dead", "p1")
    assert c.step("marshal(p1, c2)", s) is None


# ------------------------------------------------------------------ where each card ends up (IR mutants)
EFFECTS = [
    ("drop-update gain_gold: gold", "a player who gains gold adds it to his or her own gold pool"),
    ("drop-update marshal: zone", "a marshalled card is placed in play under its marshalling player's control"),
    ("drop-update marshal_duplicate: under", "a card marshalled as a duplicate is placed under the copy it duplicates"),
    ("drop-update put_into_play: zone",
     "a card put into play enters play under the control of the player the ability names"),
    ("drop-update put_into_play: controller",
     "a card put into play enters play under the control of the player the ability names"),
    ("drop-update take_control: controller", "a player who takes control of a card controls it"),
    ("drop-update revert_control: controller", "when control reverts, the card's owner controls it"),
    ("drop-update place_in_dead_pile: zone",
     "a card placed in the dead pile from its owner's hand or discard pile is in the dead pile"),
    ("drop-update discard_from_hand: zone", "a card discarded from hand is in its owner's discard pile"),
]


@pytest.mark.parametrize(("label", "prop"), EFFECTS)
def test_a_step_that_forgets_where_the_card_goes_is_caught(label, prop):
    """The step happens but the card (or the gold) stays where it was. ``drop-update gain_gold: gold`` survived
    every property before these were added (``ruleproof mutants``, default and melee scenarios), and
    ``drop-update marshal: zone`` did in the small scenario; the others forget an update the same way."""
    s = load("unique", "small")
    assert ir_mutant_violates(s, label, [prop], depth=4) == [prop]


# ------------------------------------------------------------------ steps the rules do not allow (IR mutants)
# Each drops one requirement of an action (named by its model line); each survived every property at 54f0f34
# (`ruleproof mutants model/agot/unique.py`, default and melee scenarios) and is caught by the property written
# from the rule text.
OUT_OF_PLAY = "a card put into play comes from an out of play area"
GUARDS = [
    ("put_into_play", "a.require((zone[c] == \"hand\") | (zone[c] == \"discard\"))", None, OUT_OF_PLAY),
    ("put_into_play", "a.require(zone[c] == \"discard\")  # e.g. \"put into play a character from an opponent's "
     "discard pile\"", None, OUT_OF_PLAY),
    ("put_into_play_duplicate", "a.require(((zone[c] == \"hand\") | (zone[c] == \"discard\")) & (zone[u] == \"play\")"
     " & (controller[u] == p))", 1, "a card put into play as a duplicate comes from an out of play area"),
    ("put_into_play_duplicate", "a.require(((zone[c] == \"hand\") | (zone[c] == \"discard\")) & (zone[u] == \"play\")"
     " & (controller[u] == p))", 3, DUP_ENTERS),
    ("return_from_dead", "a.require(zone[c] == \"dead\")", None,
     "a card brought back from the dead pile comes from its owner's dead pile"),
    ("take_control", "a.require((zone[c] == \"play\") & (controller[c] != p))", 2,
     "a player takes control only of a card another player controls"),
    ("revert_control", "a.require((zone[c] == \"play\") & (controller[c] != owner[c]))", 2,
     "control reverts only of a card its owner does not control"),
]


def _guard_label(family: str, require: str) -> str:
    """The IR mutant dropping ``require`` of ``family``: its line within that action's function (the same text
    may stand in another action too)."""
    lines = (MODEL / "unique.py").read_text(encoding="utf-8").splitlines()
    start = next(i for i, x in enumerate(lines) if x.strip().startswith(f"def {family}("))
    line = next(i for i, x in enumerate(lines[start:], start + 1) if x.strip() == require)
    return f"drop-guard {family}: require at unique.py:{line}"


@pytest.mark.parametrize(("family", "require", "part", "prop"), GUARDS)
def test_a_step_the_rules_do_not_allow_is_caught(family, require, part, prop):
    """Put into Play ("directly into play from an out of play state"; duplicates are in play: In Play and Out of
    Play), FAQ (1.2) (a duplicate and the card it duplicates both owned and controlled by the player), Dead Pile
    ("directly from the dead pile") and Ownership and Control (taking control and its reverting change control)."""
    label = _guard_label(family, require)
    if part is not None:
        label += f" (part {part} of {3 if family == 'put_into_play_duplicate' else 2})"
    assert ir_mutant_violates(load("unique", "small"), label, [prop], depth=4) == [prop]
    assert check(load("unique", "small"), prop, depth=4).verdict is not Verdict.VIOLATED


# ------------------------------------------------------------------ review F15: misreadings, not dropped guards
MISREADINGS = [
    # the duplicate's host leaving play does not discard a duplicate its owner does not own (Leaves Play)
    ("duplicate_on_opponents_copy", {DUP_ENTERS, DUP_UNDER, LEAVE}),
    ("duplicate_on_controlled_copy", {DUP_ENTERS, DUP_UNDER, LEAVE}),
    ("second_copy_put_into_play", {ONE, "a unique card is not put into play while a copy is in play or in the dead "
                                   "pile of its owner or new controller",
                                   "outcomes are determined (no two rules set one value differently at once)"}),
    ("only_controlled_copies_count", {ONE, "a copy of a unique card its owner has in play is marshalled only as a "
                                      "duplicate"}),
]


@pytest.mark.parametrize(("mutant", "props"), MISREADINGS)
def test_review_f15_a_misreading_of_unique_cards_is_caught(mutant, props):
    """F15 (review): "a duplicate is placed on a copy its owner owns and controls" (and its put-into-play twin) were
    the requirements of ``marshal_duplicate`` and ``put_into_play_duplicate`` restated.  They are replaced by one
    property over every step, on where the card goes (a card that becomes a duplicate lies under an in-play copy of
    its unique title that its owner owns and controls), whatever action puts it there.  Each rule mutant here
    misreads Unique Cards / Duplicates / FAQ (1.2), (1.3) rather than dropping a requirement (a card marshalled
    while an opponent's copy is in play becomes a duplicate on it; a duplicate on a copy the player controls but
    does not own; the one-instance limit read as a limit on marshalling only; only controlled copies counted): these
    are all the properties (sanity targets aside) that catch it.  For the first two, the step property and the state
    invariants on duplicates; for the last two, besides the guard restatements kept for ``put_into_play`` and
    ``marshal``, the invariant "each player owns or controls at most one instance", stated over every card in play
    and independent of any requirement."""
    assert rule_mutant_violates("unique", mutant, "small", depth=4) == props


@pytest.mark.parametrize("family", ["marshal_duplicate", "put_into_play_duplicate"])
def test_review_f15_a_duplicate_on_a_copy_taken_away_is_caught_only_by_the_step_property(family):
    """FAQ (1.2): the duplicate and the unique card must both be owned and controlled by the player.  Dropping
    ``controller[u] == p`` (a duplicate on a copy the player owns while an opponent controls it) breaks no
    state invariant (the duplicate still lies under a copy its owner owns); only the step property sees it.
    Without that property this IR mutant survives every other property (the test fails)."""
    s = load("unique", "small")
    props = [p.name for p in s.properties if p.kind.value != "reachable"]
    require = {
        "marshal_duplicate": 'a.require((zone[c] == "hand") & (zone[u] == "play") & (controller[u] == p) & '
                             "~dead_copy(p.name, c))",
        "put_into_play_duplicate": 'a.require(((zone[c] == "hand") | (zone[c] == "discard")) & (zone[u] == "play") '
                                   "& (controller[u] == p))",
    }[family]
    label = _guard_label(family, require) + f" (part 3 of {4 if family == 'marshal_duplicate' else 3})"
    assert ir_mutant_violates(s, label, props, depth=4) == [DUP_ENTERS]
