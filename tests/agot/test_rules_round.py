"""The game round (Appendix I), the first player and the active player: model/agot/round.py."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest
from agot_rules_helpers import MODEL, Concrete, assert_caught, check, drop_guard_label, full_check, load

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_property
from ruleproof.mutants import mutants_of
from ruleproof.results import Verdict

ORDER = "phases follow the Appendix I order"
MARSHALS_WHEN = ("a character enters play only in the marshaling phase, from the hand of its owner while they are "
                 "the active player")
ATTACKS_WHEN = "a challenge begins only in the challenges phase, with the active player attacking"
ONCE = "each player is active exactly once per marshaling and challenges phase"
FULL_ROUND = "sanity: a full round completes and a second round begins"
TITLES_BORNE = "in a melee game each player bears one title from step 1.4 to step 7.4, no two players the same title"
SELECTED = "titles are selected in player order from the first player, each from the titles no player bears"
SUPPORTS = "a player never initiates a challenge against the bearer of the title their title supports"
RIVALS_BONUS = ("the challenge winner gains 1 power for winning against the bearer of a rival title, once per opponent "
                "per round")
AT_MOST_ONE_BONUS = "at most one rivals bonus per rival opponent per round"
RECORDED = ("a rivals bonus is recorded for its winner against the losing opponent when the winner gains power "
            "(bookkeeping)")
RECORDS_AFRESH = "the rivals bonuses recorded start afresh each round (bookkeeping)"
NO_JOUST_TITLES = "no player bears a title in a joust game"
WINNER = "the challenge is won by the side with the higher STR, ties to the attacker"
DOMINANCE = "dominance is won by the single highest total of standing STR and gold"
OWN_SIDES = ("a challenge is between two players, each side's participating characters its own player's "
             "(strengthening)")
BONUS_DECIDES = "sanity: a title's STR bonus decides a challenge about to be resolved"
REGENT_DECIDES = "sanity: the Crown Regent's bonus decides dominance as the dominance phase begins"


@pytest.fixture(scope="module")
def default_results():
    return full_check("round", "default", coverage_depth=8)


def test_every_round_property_is_proved_at_two_players_six_characters(default_results):
    bad = [(r.property, r.verdict.value, r.reason) for r in default_results if r.verdict is not Verdict.PROVED]
    assert bad == []
    names = {r.property for r in default_results}
    assert {ORDER, ONCE, FULL_ROUND, "at most one challenge of each type per player per phase"} <= names
    s = load("round", "default")
    assert len([x for x in s.vars if x.array == "in_play"]) == 12  # 2 players x 6 characters


def test_a_full_round_is_witnessed_in_the_appendix_order():
    """From the start of the game, the witness of the full-round sanity target walks through every phase once, in
    order."""
    r = check(load("round", "small"), FULL_ROUND, depth=10)
    assert r.verdict is Verdict.PROVED and r.trace is not None
    phases = [ch.new for st in r.trace.steps for ch in st.changes if ch.var == "phase"]
    assert phases == ["draw", "marshaling", "challenges", "dominance", "standing", "taxation", "plot"]


def test_every_round_action_fires_within_the_checked_depth(default_results):
    cov = default_results[0].coverage
    assert cov is not None and cov.never == () and cov.unknown == ()
    assert {"initiate_challenge", "declare_defenders", "resolve_challenge", "end_turn", "marshal"} <= set(cov.fired)


def test_melee_round_properties_are_proved_at_three_players_four_characters_and_a_melee_round_completes():
    """The rules that depend on the number of players, with the strengthening invariants they need."""
    names = [
        "plots are revealed only in the plot phase (strengthening)",
        "the first player is active first",
        "the next player in player order becomes the active player",
        "a player is active at most once per phase",
        ONCE,
        MARSHALS_WHEN,
        "gold is collected once per round, as income (strengthening)",
        "the challenges a player initiated this phase match their used challenge types (strengthening)",
        "at most one challenge of each type per player per phase",
        "a player never challenges themselves",
        "dominance is won by the single highest total of standing STR and gold",
        TITLES_BORNE,
        "in the plot phase the players who bear titles are the first player and the players after them "
        "(strengthening)",
        SELECTED,
        SUPPORTS,
        OWN_SIDES,
        WINNER,
        RIVALS_BONUS,
        AT_MOST_ONE_BONUS,
    ]
    s = load("round", "melee")
    lemmas = []
    for n in names:
        r = check_property(s, s.prop(n), "kind", Options(depth=10, kmax=1, rlimit=DEFAULT_RLIMIT, timeout=600), lemmas)
        assert r.verdict is Verdict.PROVED, (n, r.reason)
        if r.kind != "action":
            lemmas.append(s.prop(n))
    # a 3-player round needs 15 steps: three title selections (1.4), and one more turn in each of the marshaling and
    # challenges phases (witnessed with one character each: the characters play no part in it)
    small = load("round", "melee_small")
    r = check_property(small, small.prop(FULL_ROUND), "bmc", Options(depth=15, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict is Verdict.PROVED and r.trace is not None and len(r.trace.steps) == 15
    assert sum(st.action.startswith("select_title") for st in r.trace.steps) == 3


@pytest.mark.parametrize(
    ("mutant", "prop", "scenario", "depth"),
    [
        ("skip_dominance", ORDER, "tiny", 8),
        ("no_reveal", "the plot phase ends only after plots are revealed and a first player chosen", "tiny", 2),
        ("low_initiative_chooses", "the first player is chosen by a player with the highest initiative", "tiny", 2),
        ("new_plot_new_first", "a plot revealed by a card ability does not change the first player", "tiny", 3),
        ("draw_one", "each player draws 2 cards in the draw phase", "tiny", 3),
        ("no_rotation", "the next player in player order becomes the active player", "tiny", 5),
        ("skip_player", "the next player in player order becomes the active player", "melee_small", 9),
        ("first_not_first", "the first player is active first", "tiny", 4),
        ("income_first_only", "the active player collects income on becoming active", "tiny", 5),
        ("marshal_not_active", MARSHALS_WHEN, "tiny", 5),
        ("challenge_not_active", ATTACKS_WHEN, "tiny", 7),
        # misreadings of who acts when, caught by properties over every step, not by the actions' requirements
        ("marshal_in_challenges", MARSHALS_WHEN, "tiny", 6),
        ("first_player_attacks", ATTACKS_WHEN, "tiny", 8),
        ("second_military", "at most one challenge of each type per player per phase", "small", 10),
        ("self_challenge", "a player never challenges themselves", "tiny", 7),
        ("knelt_attacker",
         "attackers are standing characters the attacker controls with the challenge's icon, and kneel", "tiny", 8),
        ("tie_to_defender", "the challenge is won by the side with the higher STR, ties to the attacker", "tiny", 9),
        ("dominance_tie", "dominance is won by the single highest total of standing STR and gold", "tiny", 8),
        ("stand_skips", "after the standing phase begins every card stands", "tiny", 10),
        ("taxation_keeps_gold", "after taxation no player has gold", "tiny", 10),
        ("reserve_ignored", "taxation discards down to the reserve value and no further", "tiny", 10),
    ],
)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop, scenario, depth):
    assert_caught("round", mutant, prop, scenario=scenario, depth=depth)


def test_any_tied_player_winning_initiative_is_caught():
    """Power totals differ only where the round is observed anywhere (here only the rivals bonus changes them)."""
    prop = "a tie for initiative is won by the tied player with the lowest power total"
    bad = check(load("round", "tiny", start="anywhere", mutant="any_tied_player"), prop, depth=1)
    assert bad.verdict is Verdict.VIOLATED and bad.trace is not None
    assert check(load("round", "tiny", start="anywhere"), prop, depth=1).verdict is not Verdict.VIOLATED


# ------------------------------------------------------------------ rulings as scenarios
# small scenario: c1, c2 belong to player 1 and c3, c4 to player 2; each player's first character
# has every icon and STR 2, the second a military icon only and STR 1 (cost 0 and 1).


def _start(c: Concrete, **extra):
    values = {"in_play[c1]": True, "in_play[c2]": True, "in_play[c3]": True, "in_play[c4]": True}
    values.update(extra)
    return c.state(values)


def _reveal(c: Concrete, s, winner: str, first: str, init=(1, 1), gold=(2, 2), reserve=(3, 3)):
    ch = {}
    for i, p in enumerate(("p1", "p2")):
        ch.update({f"initiative[{p}]": init[i], f"gold[{p}]": gold[i], f"reserve[{p}]": reserve[i]})
    return c.step(f"reveal_plots({winner}, {first})", s, ch)


def _attack(c: Concrete, s, label: str, attackers: list[str]):
    return c.step(label, s, {f"attackers[c{i}]": f"c{i}" in attackers for i in range(1, 5)})


def _defend(c: Concrete, s, label: str, defenders: list[str]):
    return c.step(label, s, {f"defenders[c{i}]": f"c{i}" in defenders for i in range(1, 5)})


def test_the_player_who_wins_initiative_chooses_the_first_player():
    """Rules Reference, 1.3 Reveal plots (I, II) and Initiative: the highest initiative wins and chooses
    any player as first player, possibly an opponent; the lower initiative cannot choose."""
    c = Concrete(load("round", "small"))
    s = _start(c)
    assert _reveal(c, s, "p1", "p1", init=(0, 2)) is None
    s = _reveal(c, s, "p2", "p1", init=(0, 2))
    assert c.get(s, "first") == "p1"
    s = c.step("next_phase", c.step("next_phase", s))  # draw, then marshaling
    assert (c.get(s, "phase"), c.get(s, "active")) == ("marshaling", "p1")


def test_review_f13_a_tie_for_initiative_is_won_by_the_lowest_power_total():
    """Rules Reference, Initiative: "If there is a tie at that time for initiative, the tied player with the lowest
    power total wins initiative"; a tie in power too is broken at random (either may win).  At 3e7e81c any tied
    player won initiative."""
    c = Concrete(load("round", "small"))
    s = _start(c, **{"power[p1]": 3, "power[p2]": 1})
    assert _reveal(c, s, "p1", "p1", init=(2, 2)) is None
    assert c.get(_reveal(c, s, "p2", "p1", init=(2, 2)), "first") == "p1"
    assert _reveal(c, s, "p1", "p1", init=(3, 2)) is not None  # no tie: power does not matter
    s = _start(c, **{"power[p1]": 1, "power[p2]": 1})
    assert _reveal(c, s, "p1", "p1", init=(2, 2)) is not None
    assert _reveal(c, s, "p2", "p2", init=(2, 2)) is not None


def test_a_plot_revealed_by_an_ability_does_not_change_the_first_player():
    """FAQ, At Prince Doran's Behest: when a card ability reveals another plot during step 1.3, "there will
    be no new initiative comparison ... (i.e. the first player will not change)"."""
    c = Concrete(load("round", "small"))
    s = _reveal(c, _start(c), "p1", "p1", init=(1, 0))
    s = c.step("ability_reveals_plot(p2)", s, {"initiative": 3, "gold": 1, "reserve": 2})
    assert (c.get(s, "first"), c.get(s, "initiative[p2]")) == ("p1", 3)
    bad = Concrete(load("round", "small", mutant="new_plot_new_first"))
    t = _reveal(bad, _start(bad), "p1", "p1", init=(1, 0))
    t = bad.step("ability_reveals_plot(p2)", t, {"initiative": 3, "gold": 1, "reserve": 2})
    assert bad.get(t, "first") == "p2"


def test_each_player_is_active_once_in_player_order_in_melee():
    """Rules Reference, Player Order and 3.3: with player 2 first, player 2, player 3 and player 1 are active
    in turn; then the phase ends, and player 2 is active first again in the challenges phase."""
    c = Concrete(load("round", "melee_small"))
    s = c.state({})
    ch = {f"{k}[p{i}]": 1 for k in ("initiative", "gold", "reserve") for i in (1, 2, 3)}
    s = c.step("reveal_plots(p1, p2)", s, ch)
    for p, t in (("p2", "crown_regent"), ("p3", "master_of_coin"), ("p1", "master_of_laws")):
        s = c.step(f"select_title({p}, {t})", s)
    s = c.step("next_phase", c.step("next_phase", s))
    seen = [c.get(s, "active")]
    while not c.enabled("next_phase", s):
        s = c.step(f"end_turn({seen[-1]})", s)
        seen.append(c.get(s, "active"))
    assert seen == ["p2", "p3", "p1"]
    assert not c.enabled("end_turn(p1)", s)
    s = c.step("next_phase", s)
    assert (c.get(s, "phase"), c.get(s, "active")) == ("challenges", "p2")
    assert [c.get(s, f"gold[p{i}]") for i in (1, 2, 3)] == [1, 1, 1]  # each collected income once


def test_one_challenge_of_each_type_and_never_against_oneself():
    """Rules Reference, 4.2: one military, one intrigue and one power challenge, against an opponent."""
    c = Concrete(load("round", "small"))
    s = _reveal(c, _start(c), "p1", "p1")
    s = c.step("next_phase", c.step("next_phase", s))  # draw, marshaling
    s = c.step("next_phase", c.step("end_turn(p1)", s))  # player 2 marshals, then challenges
    assert (c.get(s, "phase"), c.get(s, "active")) == ("challenges", "p1")
    assert not any(a.label.startswith("initiate_challenge(p1, p1") for a in c.system.actions)
    s = _attack(c, s, "initiate_challenge(p1, p2, military)", ["c1"])
    s = c.step("resolve_challenge", _defend(c, s, "declare_defenders(p2)", []))
    assert c.get(s, "outcome") == "attacker"  # unopposed
    assert _attack(c, s, "initiate_challenge(p1, p2, military)", ["c2"]) is None
    assert _attack(c, s, "initiate_challenge(p2, p1, intrigue)", ["c3"]) is None  # not the active player
    assert _attack(c, s, "initiate_challenge(p1, p2, power)", ["c2"]) is None  # c2 has no power icon
    assert _attack(c, s, "initiate_challenge(p1, p2, power)", ["c1"]) is None  # c1 knelt as an attacker


def test_ties_go_to_the_attacker_and_zero_str_wins_nothing():
    """Rules Reference, Winning a Challenge: a tie at 1 STR or more goes to the attacker; a side needs at
    least 1 STR to win, otherwise neither player wins."""
    c = Concrete(load("round", "small"))
    s = _reveal(c, _start(c), "p1", "p1")
    s = c.step("next_phase", c.step("next_phase", s))
    s = c.step("next_phase", c.step("end_turn(p1)", s))
    attack = _attack(c, s, "initiate_challenge(p1, p2, military)", ["c1"])
    tie = c.step("resolve_challenge", _defend(c, attack, "declare_defenders(p2)", ["c3"]))
    assert c.get(tie, "outcome") == "attacker"  # 2 against 2
    attack = _attack(c, s, "initiate_challenge(p1, p2, military)", ["c2"])
    lost = c.step("resolve_challenge", _defend(c, attack, "declare_defenders(p2)", ["c3"]))
    assert c.get(lost, "outcome") == "defender"  # 1 against 2


def test_dominance_counts_standing_str_and_gold_and_a_tie_wins_nothing():
    """Rules Reference, 5.2 Determine dominance: standing STR plus 1 per gold; a tie: no player wins."""
    c = Concrete(load("round", "small"))
    base = {"phase": "challenges", "first": "p1", "active": "p2"}
    s = c.step("next_phase", _start(c, **base, **{"knelt[c1]": True, "gold[p1]": 1}))
    # player 1: c2 (1) + 1 gold = 2; player 2: c3 (2) + c4 (1) = 3
    assert (c.get(s, "dominance[p1]"), c.get(s, "dominance[p2]")) == (False, True)
    s = c.step("next_phase", _start(c, **base, **{"knelt[c1]": True, "gold[p1]": 2, "income[p1]": 2}))
    assert (c.get(s, "dominance[p1]"), c.get(s, "dominance[p2]")) == (False, False)  # 3 against 3
    s = c.step("next_phase", _start(c, **base, **{"in_play[c1]": False, "in_play[c2]": False, "in_play[c3]": False,
                                                   "in_play[c4]": False, "gold[p1]": 1, "income[p1]": 1}))
    assert c.get(s, "dominance[p1]") is True  # dominance with no standing characters


def test_standing_and_taxation_phases():
    """Rules Reference, 6.2 Stand cards, 7.2 Return unspent gold and 7.3 Check reserve: every knelt card
    stands; all gold returns; a hand above the reserve value is discarded down to it, one at or below
    it is kept."""
    c = Concrete(load("round", "small"))
    s = _start(c, **{"phase": "dominance", "knelt[c1]": True, "knelt[c4]": True, "gold[p1]": 2, "income[p1]": 3,
                     "hand[p1]": 5, "hand[p2]": 1, "reserve[p1]": 2, "reserve[p2]": 3})
    s = c.step("next_phase", s)
    assert [c.get(s, f"knelt[c{i}]") for i in range(1, 5)] == [False] * 4
    s = c.step("next_phase", s)
    assert c.get(s, "phase") == "taxation"
    assert [c.get(s, k) for k in ("gold[p1]", "hand[p1]", "hand[p2]")] == [0, 2, 1]
    s = c.step("next_phase", s)
    assert (c.get(s, "phase"), c.get(s, "round")) == ("plot", 2)


# ------------------------------------------------------------------ the properties that catch the generated mutants
# The checked scenarios observe the round anywhere (``start="anywhere"``): every phase is within a few steps.

REVEALED_ONCE = "plots are revealed once per plot phase"
PLOT_VALUES = "each revealed plot gives its player its initiative, gold and reserve values"
NEW_PLOT = "a plot revealed by a card ability, in the plot phase after the plots, gives its values to its player only"
MARSHALS = "marshalling a card pays its cost and puts it into play standing"
INITIATES = "a challenge of its type is initiated by the active player against the chosen opponent, one at a time"
DEFENDS = "the characters the defending player chooses defend, after the attackers are declared"
KNEELS = "a card ability kneels a standing card in play"
IN_PLAY = "only cards in play kneel"
COUNTED = "a challenge initiated is counted for its attacking player and type (bookkeeping)"
AFRESH = "the challenges counted start afresh when the challenges phase begins (bookkeeping)"
AT_MOST_ONCE = "a player is active at most once per phase"


def _guard(require: str, part: str = "") -> str:
    """The drop-guard label of the requirement ``require`` (its source text), with its part (" (part 2 of 2)")."""
    family = {
        '(phase == "plot") & ~revealed': "reveal_plots",
        '(phase == "plot") & revealed': "ability_reveals_plot",
        "ready & (~turning | (clockwise(active) == first))": "next_phase",
        "clockwise(p) != first": "end_turn",
        '(stage == "attack") & (defender == q)': "declare_defenders",
        'stage == "defend"': "resolve_challenge",
        "in_play[c] & ~knelt[c]": "kneel",
    }[require]
    return drop_guard_label("round", family, f"a.require({require})") + part


@pytest.fixture(scope="module")
def anywhere():
    """The tiny scenario observed anywhere in the round, and its generated mutants by label (built once)."""
    s = load("round", "tiny", start="anywhere")
    return s, {x.label: x.system for x in mutants_of(s)}


@pytest.mark.parametrize(
    ("label", "prop", "depth"),
    [
        ("drop-update reveal_plots: revealed", REVEALED_ONCE, 1),
        (_guard("(phase == \"plot\") & ~revealed", " (part 2 of 2)"), REVEALED_ONCE, 2),
        ("off-by-one reveal_plots: income", PLOT_VALUES, 1),
        ("drop-update reveal_plots: reserve", PLOT_VALUES, 1),
        ("drop-update ability_reveals_plot: income", NEW_PLOT, 1),
        (_guard("(phase == \"plot\") & revealed", " (part 2 of 2)"), NEW_PLOT, 1),
        ("drop-update marshal: in_play", MARSHALS, 1),
        ("off-by-one marshal: gold", MARSHALS, 1),
        ("drop-update initiate_challenge: ctype", INITIATES, 1),
        ("drop-update initiate_challenge: defender", INITIATES, 1),
        ("drop-update declare_defenders: defending", DEFENDS, 2),
        (_guard("(stage == \"attack\") & (defender == q)", " (part 1 of 2)"), DEFENDS, 1),
        ("drop-update resolve_challenge: stage", WINNER, 3),
        (_guard("stage == \"defend\""), WINNER, 1),
        ("drop-update kneel: knelt", KNEELS, 1),
        (_guard("in_play[c] & ~knelt[c]", " (part 2 of 2)"), KNEELS, 1),
        (_guard("in_play[c] & ~knelt[c]", " (part 1 of 2)"), IN_PLAY, 1),
        ("drop-update initiate_challenge: initiated", COUNTED, 1),
        ("off-by-one next_phase: initiated", AFRESH, 1),
        ("drop-update next_phase: used", "no challenge type is used when the marshaling phase is under way "
         "(strengthening)", 1),
        (_guard("clockwise(p) != first"), AT_MOST_ONCE, 1),
        (_guard("ready & (~turning | (clockwise(active) == first))", " (part 2 of 2)"), ONCE, 1),
    ],
)
def test_a_generated_mutant_is_caught_where_the_round_is_observed_anywhere(anywhere, label, prop, depth):
    """Each property stated from the rule text catches the mutant that breaks its rule, within a few steps of a
    point anywhere in the round; the rules themselves keep it."""
    s, mutants = anywhere
    bad = check(mutants[label], prop, depth=depth)
    assert bad.verdict is Verdict.VIOLATED and bad.trace is not None, (label, bad.verdict, bad.reason)
    assert check(s, prop, depth=depth).verdict is not Verdict.VIOLATED



# ------------------------------------------------------------------ melee titles (review F9)
# melee_small observed anywhere: players 1 to 3 have one character each (c1, c2, c3: every icon, STR 2, cost 0).


@pytest.fixture(scope="module")
def melee_anywhere():
    """The 3-player scenario with one character each, observed anywhere in the round, and its generated mutants."""
    s = load("round", "melee_small", start="anywhere")
    return s, {x.label: x.system for x in mutants_of(s)}


@pytest.mark.parametrize(
    ("mutant", "prop", "depth", "chars"),
    [
        ("support_ignored", SUPPORTS, 1, 1),
        ("duplicate_titles", TITLES_BORNE, 1, 1),
        ("titles_out_of_order", SELECTED, 1, 1),
        ("titles_not_returned", TITLES_BORNE, 1, 1),
        ("rivals_twice", AT_MOST_ONE_BONUS, 3, 1),
        ("rivals_any_title", RIVALS_BONUS, 3, 1),
        # a defender wins only with more STR: the second character of each player has STR 1, the first STR 2
        ("rivals_attacker_only", RIVALS_BONUS, 3, 2),
        # the titles' STR bonuses (Title Cards): with one STR 2 character each, a bonus decides a tie
        ("title_str_ignored", WINNER, 3, 1),
        ("title_str_any_type", WINNER, 3, 1),
        ("regent_in_challenges", WINNER, 3, 1),
        ("regent_missing", DOMINANCE, 1, 1),
        # a bonus without a participating character decides only against an attacker of STR 0 (each fourth character)
        ("title_str_not_participating", WINNER, 3, 4),
    ],
)
def test_a_melee_title_mutant_is_caught_where_the_round_is_observed_anywhere(mutant, prop, depth, chars):
    bad = check(load("round", "melee_small", start="anywhere", chars=chars, mutant=mutant), prop, depth=depth)
    assert bad.verdict is Verdict.VIOLATED and bad.trace is not None, (mutant, bad.verdict, bad.reason)
    good = load("round", "melee_small", start="anywhere", chars=chars)
    assert check(good, prop, depth=depth).verdict is not Verdict.VIOLATED


def test_a_joust_that_uses_titles_is_caught():
    """Joust Game: melee title cards and the steps 1.4 and 7.4 are not used in a joust game."""
    bad = check(load("round", "tiny", start="anywhere", mutant="joust_titles"), NO_JOUST_TITLES, depth=1)
    assert bad.verdict is Verdict.VIOLATED and bad.trace is not None
    assert [st.family for st in bad.trace.steps] == ["reveal_plots"]
    assert check(load("round", "tiny", start="anywhere"), NO_JOUST_TITLES, depth=1).verdict is not Verdict.VIOLATED


@pytest.mark.parametrize(
    ("label", "prop", "depth"),
    [
        ("drop-update resolve_challenge: rivals", RECORDED, 3),
        ("drop-update next_phase: rivals", RECORDS_AFRESH, 1),
        ("drop-update resolve_challenge: power", RIVALS_BONUS, 3),
        ("drop-update next_phase: title", TITLES_BORNE, 1),
        ("drop-update select_title: title", SELECTED, 1),
    ],
)
def test_a_generated_melee_title_mutant_is_caught(melee_anywhere, label, prop, depth):
    s, mutants = melee_anywhere
    bad = check(mutants[label], prop, depth=depth)
    assert bad.verdict is Verdict.VIOLATED and bad.trace is not None, (label, bad.verdict, bad.reason)
    assert check(s, prop, depth=depth).verdict is not Verdict.VIOLATED


def test_titles_are_selected_in_player_order_from_the_pool_and_returned_in_the_taxation_phase():
    """Rules Reference, 1.4 Select titles: after the plots, the first player takes a title, then each player in
    player order, from the titles no player has taken; the plot phase ends only when every player has one.
    7.4 Return melee title cards: every title returns to the title pool."""
    c = Concrete(load("round", "melee_small"))
    s = c.state({})
    assert not c.enabled("select_title(p2, crown_regent)", s)  # not before the plots are revealed
    ch = {f"{k}[p{i}]": 1 for k in ("initiative", "gold", "reserve") for i in (1, 2, 3)}
    s = c.step("reveal_plots(p1, p2)", s, ch)
    assert not c.enabled("select_title(p1, crown_regent)", s) and not c.enabled("select_title(p3, crown_regent)", s)
    s = c.step("select_title(p2, crown_regent)", s)
    assert not c.enabled("select_title(p3, crown_regent)", s)  # no longer in the title pool
    assert not c.enabled("select_title(p1, master_of_coin)", s)  # player 3 selects before player 1
    assert not c.enabled("next_phase", s)
    s = c.step("select_title(p3, master_of_coin)", s)
    s = c.step("select_title(p1, master_of_laws)", s)
    assert [c.get(s, f"title[p{i}]") for i in (1, 2, 3)] == ["master_of_laws", "crown_regent", "master_of_coin"]
    for _ in range(6):  # draw ... taxation
        s = c.step("next_phase", s) if c.enabled("next_phase", s) else c.step(f"end_turn({c.get(s, 'active')})", s)
    while c.get(s, "phase") != "taxation":
        s = c.step("next_phase", s) if c.enabled("next_phase", s) else c.step(f"end_turn({c.get(s, 'active')})", s)
    assert c.get(s, "title[p1]") == "master_of_laws"  # borne until 7.4
    s = c.step("next_phase", s)
    assert (c.get(s, "phase"), [c.get(s, f"title[p{i}]") for i in (1, 2, 3)]) == ("plot", ["none"] * 3)


def _challenges(c: Concrete, **extra):
    """Player 1 active in the challenges phase, every character in play and standing."""
    values = {"phase": "challenges", "first": "p1", "active": "p1", **{f"in_play[c{i}]": True for i in (1, 2, 3)}}
    values.update(extra)
    return c.state(values)


def _unopposed(c: Concrete, s, label: str):
    """Player 1 initiates ``label`` with c1 against player 3, who declares no defender; the challenge resolves."""
    s = c.step(label, s, {"attackers[c1]": True})
    return c.step("resolve_challenge", c.step("declare_defenders(p3)", s, {"defenders[c3]": False}))


def test_supports_and_the_rivals_bonus():
    """Rules Reference, Supports: the Hand of the King ("Supports: Master of Laws") cannot initiate a challenge against
    the Master of Laws; Rivals and 4.2.3: winning against the Master of Coin (a rival on the Hand's card) gains 1
    power, once per rival opponent per round; a title that is no rival gives nothing."""
    c = Concrete(load("round", "melee_small", start="anywhere"))
    titles = {"title[p1]": "hand_of_the_king", "title[p2]": "master_of_laws", "title[p3]": "master_of_coin"}
    s = _challenges(c, **titles)
    assert c.step("initiate_challenge(p1, p2, military)", s, {"attackers[c1]": True}) is None
    won = _unopposed(c, s, "initiate_challenge(p1, p3, military)")
    assert (c.get(won, "outcome"), c.get(won, "power[p1]"), c.get(won, "power[p3]")) == ("attacker", 1, 0)
    again = _challenges(c, **titles, **{"rivals[p1,p3]": 1})  # a rivals bonus against player 3 this round already
    won = _unopposed(c, again, "initiate_challenge(p1, p3, power)")
    assert (c.get(won, "outcome"), c.get(won, "power[p1]")) == ("attacker", 0)
    regent = _challenges(c, **{**titles, "title[p1]": "crown_regent"})  # "Supports: None", "Rivals: None"
    assert c.step("initiate_challenge(p1, p2, military)", regent, {"attackers[c1]": True}) is not None
    won = _unopposed(c, regent, "initiate_challenge(p1, p3, military)")
    assert (c.get(won, "outcome"), c.get(won, "power[p1]")) == ("attacker", 0)


def _resolve(c: Concrete, s, label: str, defends: bool):
    """Player 1 initiates ``label`` with c1 against player 3, who defends with c3 or not; the challenge resolves."""
    s = c.step(label, s, {"attackers[c1]": True})
    return c.step("resolve_challenge", c.step("declare_defenders(p3)", s, {"defenders[c3]": defends}))


def test_the_titles_str_bonuses_decide_challenges_and_dominance():
    """Rules Reference, Title Cards: "The Hand of the King contributes 1 additional STR to its bearer's total during any
    [power] challenge in which he or she controls a participating character"; "The Crown Regent contributes 2
    additional STR to its bearer's total for dominance."  One STR 2 character each: the Hand's defender wins a power
    challenge the tie would give the attacker, not a military one, and not without a defending character."""
    c = Concrete(load("round", "melee_small", start="anywhere"))
    titles = {"title[p1]": "crown_regent", "title[p2]": "master_of_coin", "title[p3]": "hand_of_the_king"}
    s = _challenges(c, **titles)
    assert c.get(_resolve(c, s, "initiate_challenge(p1, p3, power)", True), "outcome") == "defender"  # 2 against 3
    assert c.get(_resolve(c, s, "initiate_challenge(p1, p3, military)", True), "outcome") == "attacker"  # 2 against 2
    assert c.get(_resolve(c, s, "initiate_challenge(p1, p3, power)", False), "outcome") == "attacker"  # 2 against 0
    # dominance (player 3, the last active player, passes): 2 STR standing each, the Crown Regent's bearer 2 more
    ends = {**titles, "active": "p3"}
    s = c.step("next_phase", _challenges(c, **ends))
    assert [c.get(s, f"dominance[p{i}]") for i in (1, 2, 3)] == [True, False, False]
    s = c.step("next_phase", _challenges(c, **{**ends, "title[p1]": "master_of_laws", "title[p2]": "crown_regent",
                                                 "knelt[c2]": True}))
    assert [c.get(s, f"dominance[p{i}]") for i in (1, 2, 3)] == [False, False, False]  # 2, 0 + 2, 2: a tie


def test_a_title_str_bonus_is_seen_deciding_a_challenge_and_dominance():
    """The STR bonuses are not vacuous: a challenge about to be resolved whose winner the bonus changes, and a
    dominance the Crown Regent's 2 STR decide, are reached (and neither exists in the mutant without them)."""
    s = load("round", "melee_small", start="anywhere")
    for target in (BONUS_DECIDES, REGENT_DECIDES):
        r = check(s, target, depth=3)
        assert r.verdict is Verdict.PROVED and r.trace is not None, (target, r.verdict, r.reason)


def _title_cards() -> dict[str, tuple[str | None, set[str]]]:
    """The six title cards of the vendored Core Set: name -> (the title it supports, its rivals), read from the text."""
    pack = Path(__file__).resolve().parents[2] / "src" / "ruleproof" / "data" / "agot-cards" / "packs" / "Core.json"
    data = json.loads(pack.read_text(encoding="utf-8"))
    cards = data if isinstance(data, list) else data["cards"]

    def key(name: str) -> str:
        return name.strip().strip(".").lower().replace(" ", "_")

    out: dict[str, tuple[str | None, set[str]]] = {}
    for card in cards:
        if card.get("type") != "title":
            continue
        text = card["text"]
        sup = re.search(r"^Supports: (.+?)\.?$", text, re.M).group(1)
        riv = re.search(r"^Rivals: (.+?)\.?$", text, re.M).group(1)
        out[key(card["name"])] = (None if sup == "None" else key(sup),
                                  set() if riv == "None" else {key(x) for x in riv.split(",")})
    return out


def test_the_title_relations_are_the_cards_text():
    """The supports and rivals of the model and of the properties are those printed on the six title cards of the
    vendored card pool (Core Set 01206 to 01211)."""
    cards = _title_cards()
    assert len(cards) == 6
    model = {t: (sup, set(riv)) for t, (sup, riv) in _module(MODEL / "round.py").TITLES.items()}
    assert model == cards
    props = _module(MODEL.parents[1] / "properties" / "agot" / "round.py")
    assert {t: (props.TITLE_SUPPORTS.get(t), set(props.TITLE_RIVALS.get(t, ()))) for t in cards} == cards


def test_the_title_str_bonuses_are_the_cards_text():
    """The STR bonuses of the model and of the properties are those printed on the title cards ("+1 STR [power]",
    "+2 STR for Dominance") and stated in the Rules Reference (Title Cards)."""
    pack = Path(__file__).resolve().parents[2] / "src" / "ruleproof" / "data" / "agot-cards" / "packs" / "Core.json"
    data = json.loads(pack.read_text(encoding="utf-8"))
    printed = {}
    for card in data if isinstance(data, list) else data["cards"]:
        found = re.search(r"^\+(\d) STR (?:\[(\w+)\]|for Dominance)$", card.get("text", ""), re.M)
        if card.get("type") == "title" and found:
            name = card["name"].lower().replace(" ", "_")
            printed[name] = (found.group(2) or "dominance", int(found.group(1)))
    assert len(printed) == 4
    assert _module(MODEL / "round.py").TITLE_STR == printed
    props = _module(MODEL.parents[1] / "properties" / "agot" / "round.py")
    assert {**{t: (ty, 1) for t, ty in props.TITLE_CHALLENGE_STR.items()},
            "crown_regent": ("dominance", props.REGENT_STR)} == printed


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_rules_{path.parent.name}_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
