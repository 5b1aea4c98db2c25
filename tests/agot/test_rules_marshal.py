"""Marshaling, the active player, costs, events and put into play: model/agot/marshal.py.

``test_review_f5_*`` reproduces finding F5 of the AGoT rules review: run against commit 3e7e81c's model
(``RULEPROOF_AGOT_MODEL=<3e7e81c checkout>/model/agot``) it fails (income was short-paid and a property said so);
it passes on this model.
"""

from __future__ import annotations

import pytest
from agot_rules_helpers import (
    MODEL,
    Concrete,
    assert_caught,
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

ORDER = "in the marshaling phase players become active one at a time in player order from the first player"
NEXT = "the turn passes to the next player in player order"
ACTIVE = ("a card enters play paid for from its owner's pool only in the marshaling phase, while its owner is the "
          "active player and has collected income")
PAYS = "marshalling returns the card's cost from the gold pool to the treasury"
ONLY_ACTIVE_COLLECTED = "only a player who has been active this phase has collected income (strengthening)"
EARLIER_COLLECTED = ("in the marshaling phase every player who was active before the active player collected income "
                     "(strengthening)")
EVENT = "a played event is paid for and placed in its owner's discard pile, even when canceled"
INCOME = "the active player collects income equal to the plot's gold value, once, from the treasury"


@pytest.fixture(scope="module")
def default_results():
    return full_check("marshal", "default")


def test_every_marshal_property_is_proved_at_two_players_six_characters(default_results):
    bad = [(r.property, r.verdict.value, r.reason) for r in default_results if r.verdict is not Verdict.PROVED]
    assert bad == []
    assert {ORDER, NEXT, ACTIVE, EVENT, "putting a card into play by an ability pays nothing"} <= {
        r.property for r in default_results
    }
    # proved for all depths: by k-induction or by Spacer's inductive invariant, never only to a bound
    assert all(r.engine in ("auto/kind", "auto/chc") for r in default_results if r.kind != "reachable")


def test_every_marshal_action_fires_within_the_checked_depth(default_results):
    cov = default_results[0].coverage
    assert cov is not None and cov.never == () and cov.unknown == ()
    assert {"marshal", "end_marshaling", "put_into_play", "play_event"} <= set(cov.fired)


def test_melee_marshal_properties_are_proved():
    """Three players: the rotation goes round all of them (coverage depth 6 reaches the end of the phase)."""
    rs = check_system(load("marshal", "melee"), "auto",
            Options(depth=8, rlimit=DEFAULT_RLIMIT, timeout=600), coverage_depth=6)
    bad = [(r.property, r.verdict.value, r.reason) for r in rs if r.verdict is not Verdict.PROVED]
    assert bad == []
    assert rs[0].coverage is not None and rs[0].coverage.never == () and rs[0].coverage.unknown == ()


@pytest.mark.parametrize(
    ("mutant", "prop", "scenario"),
    [
        ("marshal_any_phase", ACTIVE, "small"),
        ("marshal_not_active", ACTIVE, "small"),
        ("marshal_before_income", ACTIVE, "small"),
        ("marshal_free", PAYS, "small"),
        ("overspend", PAYS, "small"),
        ("marshal_after_turn", ACTIVE, "small"),
        ("first_player_pays", PAYS, "small"),
        ("income_at_phase_start", ONLY_ACTIVE_COLLECTED, "small"),
        ("pass_without_income", EARLIER_COLLECTED, "small"),
        ("put_into_play_pays", "putting a card into play by an ability pays nothing", "small"),
        ("put_counts_as_marshal", "a card put into play is not marshalled", "small"),
        ("marshal_events", "event cards never enter play", "small"),
        ("event_into_play", "event cards never enter play", "small"),
        ("event_into_play", EVENT, "small"),
        ("cancel_refunds", EVENT, "small"),
        ("start_not_first", "the first player is the first active player of the marshaling phase", "small"),
        ("start_not_first", ORDER, "small"),
        ("skip_player", NEXT, "small_melee"),
        ("skip_player", ORDER, "small_melee"),
        ("counter_clockwise", NEXT, "small_melee"),
        ("counter_clockwise", ORDER, "small_melee"),
        ("end_early", "the marshaling phase ends only after every player has been the active player", "small"),
        ("collect_twice", INCOME, "small"),
        ("short_income", INCOME, "small"),
        ("restart_marshaling", "the marshaling phase begins once per round, after the plot phase", "small"),
        ("keep_unspent_gold", "in the plot phase a pool holds at most its starting gold (strengthening)", "small"),
    ],
)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop, scenario):
    assert_caught("marshal", mutant, prop, scenario=scenario)


def test_every_rule_mutant_has_a_catching_property():
    caught = {
        "marshal_any_phase", "marshal_not_active", "marshal_before_income", "marshal_free", "overspend",
        "put_into_play_pays", "put_counts_as_marshal", "marshal_events", "event_into_play", "cancel_refunds",
        "start_not_first", "skip_player", "counter_clockwise", "end_early", "collect_twice", "short_income",
        "restart_marshaling", "keep_unspent_gold", "marshal_after_turn", "first_player_pays", "income_at_phase_start",
        "pass_without_income",
    }
    assert caught == mutant_names("marshal")


def test_review_f5_income_is_the_full_gold_value_whatever_the_pools_hold():
    """F5 (medium). Income: "gaining an amount of gold from the treasury equal to the gold value on his or her revealed
    plot card"; Tokens, Running out of: no limit to the gold tokens.  With both pools as full as the scenario starts
    them, player 1 still collects the full income of 2 (at 3e7e81c the treasury was empty there: 0 gold, and the
    property spelled out ``min(income, treasury)``)."""
    c = Concrete(load("marshal", "default"))
    top = {iv.var: max(iv.values) for iv in c.system.init_vars if iv.var in ("gold[p1]", "gold[p2]", "treasury")}
    s = c.state({"phase": "marshaling", "gold[p1]": top["gold[p1]"], "gold[p2]": top["gold[p2]"],
                 "treasury": top["treasury"] - top["gold[p1]"] - top["gold[p2]"]})
    s2 = c.step("collect_income(p1)", s)
    assert c.get(s2, "gold[p1]") == c.get(s, "gold[p1]") + 2


# ------------------------------------------------------------------ rulings as scenarios
# default scenario: player 1 owns characters c1..c6 (costs 1, 2, 3, 0, 1, 2), location c7 (cost 3), attachment c8
# (cost 0) and event c9 (cost 1); player 2 owns c10..c18 in the same pattern. Income: player 1 2 gold, player 2 3.


def _plot(scenario: str = "default", **values):
    c = Concrete(load("marshal", scenario))
    return c, c.state({"phase": "plot", **values})


def test_two_player_marshaling_phase_rotates_from_the_first_player():
    """Appendix I 3.2 ("The first player is first to be the active player in the marshaling phase"; "The active
    player collects income") and 3.3 ("the next player (in player order) becomes the active player"), 3.4; Active
    Player: only the active player marshals. Player 2 is the first player."""
    c, s = _plot(**{"treasury": 20})
    s = c.step("begin_marshaling(p2)", s)
    assert c.get(s, "active") == "p2"
    assert c.step("marshal(p2, c10)", s) is None  # income first
    assert c.step("collect_income(p1)", s) is None  # not player 1's turn
    s = c.step("collect_income(p2)", s)
    assert c.get(s, "gold[p2]") == 3
    assert c.step("collect_income(p2)", s) is None  # once
    assert c.step("marshal(p1, c4)", s) is None  # player 1 is not active, even for a 0-cost card
    s = c.step("marshal(p2, c11)", s)  # cost 2
    assert (c.get(s, "gold[p2]"), c.get(s, "treasury"), c.get(s, "zone[c11]")) == (1, 19, "play")
    assert c.step("end_marshaling", s) is None  # player 1 has not been active yet
    s = c.step("next_active", s)
    assert c.get(s, "active") == "p1"
    assert c.step("marshal(p2, c10)", s) is None  # no longer active
    assert c.step("end_marshaling", s) is None  # player 1 collects income first
    s = c.step("end_marshaling", c.step("collect_income(p1)", s))
    assert c.get(s, "phase") == "challenges"
    assert c.step("marshal(p1, c4)", s) is None  # outside the marshaling phase


def test_melee_marshaling_phase_goes_clockwise_round_every_player():
    """Appendix I 3.3 and Player Order ("followed by the other players in clockwise order"): three players, player 2
    first: player 2, player 3, player 1, then the phase ends."""
    c, s = _plot("melee", **{"treasury": 15})
    s = c.step("begin_marshaling(p2)", s)
    seen = [c.get(s, "active")]
    for _ in range(2):
        s = c.step("collect_income(" + seen[-1] + ")", s)
        assert c.step("end_marshaling", s) is None
        s = c.step("next_active", s)
        seen.append(c.get(s, "active"))
    assert seen == ["p2", "p3", "p1"]
    s = c.step("collect_income(p1)", s)
    assert c.step("next_active", s) is None  # everyone has been active
    assert c.get(c.step("end_marshaling", s), "phase") == "challenges"


def test_a_card_whose_cost_cannot_be_paid_is_not_marshalled():
    """Costs: "If any part of a cost payment is prevented ... The card remains unplayed in its owner's hand." Player 1
    has 2 gold after income: c3 (cost 3) cannot be marshalled, c2 (cost 2) can, and then gold is 0, never below."""
    c, s = _plot(**{"treasury": 2})
    s = c.step("collect_income(p1)", c.step("begin_marshaling(p1)", s))
    assert c.get(s, "gold[p1]") == 2
    assert c.step("marshal(p1, c3)", s) is None
    s = c.step("marshal(p1, c2)", s)
    assert c.get(s, "gold[p1]") == 0
    assert c.step("marshal(p1, c1)", s) is None
    assert c.step("marshal(p1, c4)", s) is not None  # a 0-cost card needs no gold


def test_put_into_play_pays_nothing_and_is_not_marshalling():
    """Put into Play: "The gold cost of the card being 'put into play' is not paid." "A card that has been put into
    play is not considered to have been 'marshaled'." It works outside the marshaling phase and with no gold."""
    c = Concrete(load("marshal", "default"))
    s = c.state({"phase": "challenges", "treasury": 20})
    s = c.step("put_into_play(p2, c12)", s)  # cost 3, player 2 has no gold
    assert (c.get(s, "zone[c12]"), c.get(s, "marshalled[c12]"), c.get(s, "gold[p2]")) == ("play", False, 0)


def test_an_event_is_played_never_marshalled_and_goes_to_the_discard_pile():
    """Marshal: "Event cards are not marshaled, they are played." Event Cards: costs are paid and the card is placed
    in its owner's discard pile; "If the effects of an event card are canceled, the card is still considered to have
    been played, and its costs remain paid." FAQ (1.5) Playing Events; The Hand's Judgment: a copy being played is no
    longer in hand and cannot be played again."""
    c, s = _plot(**{"treasury": 20})
    s = c.step("collect_income(p1)", c.step("begin_marshaling(p1)", s))
    assert not c.enabled("marshal(p1, c9)", s)
    played = c.step("play_event(p1, c9)", s, {"canceled": False})
    assert (c.get(played, "zone[c9]"), c.get(played, "gold[p1]"), c.get(played, "resolved[c9]")) == ("discard", 1, True)
    assert c.step("play_event(p1, c9)", played, {"canceled": False}) is None
    canceled = c.step("play_event(p1, c9)", s, {"canceled": True})
    assert (c.get(canceled, "zone[c9]"), c.get(canceled, "gold[p1]"), c.get(canceled, "resolved[c9]")) == (
        "discard",
        1,
        False,
    )


def test_unspent_gold_returns_to_the_treasury_at_the_end_of_the_round():
    """Appendix I 7.2 Return unspent gold (Taxation Phase): the next marshaling phase starts from the treasury."""
    c = Concrete(load("marshal", "default"))
    s = c.state({"phase": "challenges", "gold[p1]": 3, "gold[p2]": 4, "treasury": 13})
    s = c.step("end_round", s)
    assert (c.get(s, "gold[p1]"), c.get(s, "gold[p2]"), c.get(s, "treasury"), c.get(s, "phase")) == (0, 0, 20, "plot")


# ------------------------------------------------------------------ steps no property stated before (IR mutants)
def _guard(family: str, require: str, part: str = "") -> str:
    """The label of the IR mutant dropping ``require`` (its source line) in action ``family`` (the first such line
    after ``def family(``), with `` (part i of n)`` when the requirement has several conditions."""
    lines = (MODEL / "marshal.py").read_text(encoding="utf-8").splitlines()
    start = next(i for i, x in enumerate(lines, 1) if x.strip().startswith(f"def {family}("))
    line = next(i for i, x in enumerate(lines, 1) if i > start and x.strip() == require)
    return f"drop-guard {family}: require at marshal.py:{line}" + (f" ({part})" if part else "")


INCOME_CHECK = 'a.require((phase == "marshaling") & collected[active])'
ENDS = ("the marshaling phase ends in the marshaling phase, once every player collected income, and the challenges "
        "phase follows")
ROUND_ENDS = ("the round ends after the challenges phase: unspent gold returns to the treasury and a new round begins "
              "with the plot phase")
LEAVES = "a card leaves play only from play, to an out of play state"
STEPS = [
    (("marshal", 'a.require(zone[c] == "hand")'), "a card is marshalled from its owner's hand"),
    (("leave_play", 'a.require(zone[c] == "play")'), LEAVES),
    ("drop-update leave_play: zone", LEAVES),
    (("end_marshaling", INCOME_CHECK, "part 1 of 2"), ENDS),
    (("end_marshaling", INCOME_CHECK, "part 2 of 2"), ENDS),
    (("end_round", 'a.require(phase == "challenges")'), ROUND_ENDS),
    ("drop-update end_round: phase", ROUND_ENDS),
    ("drop-update play_event: resolved", "a played event's effects resolve unless they are canceled"),
]


@pytest.mark.parametrize(("mutant", "prop"), STEPS)
def test_a_step_the_rules_do_not_allow_is_caught(mutant, prop):
    """Each of these IR mutants survived every marshal property at 76587f0 (README, Mutation testing): marshalling a
    card that is not in hand (Marshal: "from his or her hand"), a card leaving play that is not in play or that stays
    there (Leaves Play), the marshaling phase ending from another phase or before the last active player collected
    income (3.2, 3.4), the round ending before the challenges phase is over or not going on to the plot phase (7.2,
    7.5), an event whose effects never resolve (Event Cards).  Each is now caught by the property stated from that
    rule."""
    label = mutant if isinstance(mutant, str) else _guard(*mutant)
    assert ir_mutant_violates(load("marshal", "small"), label, [prop], depth=6) == [prop]



TURN_UNDER_WAY = "outside the marshaling phase no player's marshaling turn is under way"


def test_income_outside_the_marshaling_phase_is_caught():
    """3.2: income is collected in the marshaling phase; a mutant that lets the active player collect it in the plot
    phase (the drop of ``phase == "marshaling"`` in ``collect_income``) leaves a player's income collected outside
    the phase while not every player has been active."""
    label = "drop-guard collect_income: require at marshal.py:121"
    assert _guard("collect_income", 'a.require(phase == "marshaling", active == p, ~collected[p])') == label
    assert ir_mutant_violates(load("marshal", "small"), label, [TURN_UNDER_WAY], depth=3) == [TURN_UNDER_WAY]


@pytest.mark.parametrize("scenario", ["default", "melee"])
def test_a_turn_passing_outside_the_marshaling_phase_is_proved_equivalent(scenario):
    """The drop of ``phase == "marshaling"`` in ``next_active`` survived at 2cdf9f8, proved equivalent only in the
    small scenario: outside the phase the turn cannot pass anyway (3.3, 3.4), but that is no k-inductive fact of the
    product system.  Stated from the rule text and proved of the rules (1-inductive), it is assumed of each side
    as :func:`ruleproof.mutants.judge` does with the rules' proved invariants, and the product is 1-inductive."""
    from ruleproof.engines.runner import check_property
    from ruleproof.mutants import equivalence, mutants_of

    opts = Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600)
    rules = load("marshal", scenario)
    proved = check_property(rules, rules.prop(TURN_UNDER_WAY), "kind", opts)
    assert proved.verdict is Verdict.PROVED, proved.reason
    label = _guard("next_active", 'a.require((phase == "marshaling") & collected[active])', "part 1 of 2")
    (mutant,) = [x for x in mutants_of(rules) if x.label == label]
    j = equivalence(rules, mutant.system, opts, (TURN_UNDER_WAY,), ())
    assert j.status == "equivalent", (j.status, j.reason)


# ------------------------------------------------------------------ review F15: misreadings, not dropped guards
MISREADINGS = [
    ("marshal_after_turn", {ACTIVE}),
    ("first_player_pays", {PAYS}),
    ("income_at_phase_start", {ONLY_ACTIVE_COLLECTED}),
    ("pass_without_income", {EARLIER_COLLECTED, "the marshaling phase ends in the marshaling phase, once every player "
                             "collected income, and the challenges phase follows"}),
]


@pytest.mark.parametrize(("mutant", "props"), MISREADINGS)
def test_review_f15_a_misreading_of_marshaling_is_caught(mutant, props):
    """F15 (review): the phase, active player, income and cost properties of ``marshal`` were its guard restated,
    one property per condition (and "the turn passes only after the active player has collected income" was
    ``next_active``'s).  They are replaced by a property over every step, on what the game shows (a card going
    from hand to play while gold leaves its owner's pool happens only in the marshaling phase, while the owner is
    the active player and has collected income), the payment property and the rotation invariants.  Each rule
    mutant here misreads Marshal or 3.2/3.3 (a player goes on marshaling after the turn passed; the first player
    pays for every card; every player collects income when the phase begins; income is optional); these are all
    the properties that catch it, so each test fails without its property."""
    assert rule_mutant_violates("marshal", mutant, "small", depth=6) == props


@pytest.mark.parametrize(("family", "require", "part", "prop"), [
    ("marshal", 'a.require(phase == "marshaling", active == p, collected[p])', "", ACTIVE),
    ("marshal", 'a.require(phase == "marshaling", active == p, collected[p])', "#2", ACTIVE),
    ("marshal", 'a.require(phase == "marshaling", active == p, collected[p])', "#3", ACTIVE),
    ("marshal", "a.require(gold[p] >= cost[c])", "", "no gold pool or treasury goes below zero"),
    ("next_active", INCOME_CHECK, "part 2 of 2", EARLIER_COLLECTED),
])
def test_review_f15_a_dropped_guard_is_caught_without_its_restatement(family, require, part, prop):
    """The IR mutants that the removed guard restatements caught are caught by the properties above."""
    label = _guard(family, require, "" if part.startswith("#") else part) + (f" {part}" if part.startswith("#") else "")
    assert prop in ir_mutant_violates(load("marshal", "small"), label, [prop], depth=6)
