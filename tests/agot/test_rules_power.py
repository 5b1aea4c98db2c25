"""Gaining and moving power, moving attachments: model/agot/power.py.

``test_review_f5_*`` reproduces finding F5 of the AGoT rules review: run against commit 3e7e81c's model
(``RULEPROOF_AGOT_MODEL=<3e7e81c checkout>/model/agot``) it fails (gains were refused once 6 power tokens were
on the cards); it passes on this model.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from agot_rules_helpers import Concrete, assert_caught, full_check, ir_mutant_violates, load, mutant_names

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.mutants import baseline, judge, mutants_of
from ruleproof.results import Verdict

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "agot-rules-reference.txt"

NOT_SAME = "a power move never goes to the current placement"
ATT_NOT_SAME = "an attachment move never goes to its current placement"
NO_DEST = "a move with no valid destination is never attempted"
NOT_GAINED = "moving power never gains power"
CONSERVED = "power is conserved: the supply is split between the treasury and the cards"
MOVE_CONSERVES = "power is conserved by a move"
IN_PLAY = "only cards in play carry power"
TOTAL = "a player's power total is the power on the cards they control"
ATTACHED = "an attachment in play is attached to a character in play"


@pytest.fixture(scope="module")
def default_results():
    return full_check("power", "default", coverage_depth=3)


def test_every_power_property_is_proved_at_two_players_six_characters(default_results):
    bad = [(r.property, r.verdict.value, r.reason) for r in default_results if r.verdict is not Verdict.PROVED]
    assert bad == []
    assert {r.property for r in default_results} >= {
        NOT_SAME,
        ATT_NOT_SAME,
        NO_DEST,
        NOT_GAINED,
        CONSERVED,
        MOVE_CONSERVES,
    }


def test_every_power_action_fires_within_the_checked_depth(default_results):
    cov = default_results[0].coverage
    assert cov is not None and cov.never == () and cov.unknown == ()
    assert {"resolve_power_move", "resolve_attachment_move", "leave_play"} <= set(cov.fired)


def test_every_cited_section_is_a_rules_reference_section():
    sections = set(re.findall(r"^## (.+?)\s*$", REFERENCE.read_text(), flags=re.M))
    s = load("power", "small")
    cited = {c for p in s.properties for c in p.cites} | {c for a in s.actions for c in a.cites}
    assert cited and cited <= sections, cited - sections


@pytest.mark.parametrize(
    ("mutant", "prop"),
    [
        ("same_placement", NOT_SAME),
        ("same_placement", ATT_NOT_SAME),
        ("no_destination", NO_DEST),
        ("move_gains", NOT_GAINED),
        ("copy_power", MOVE_CONSERVES),
        ("out_of_play_destination", IN_PLAY),
        ("total_stays", TOTAL),
        ("attachments_stay", ATTACHED),
        ("tokens_stay", IN_PLAY),
        ("gain_after_victory", "no power changes hands once a player has won (gain_power)"),
    ],
)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop):
    if mutant == "gain_after_victory":  # 15 power is far from the start: judge the step from a state near it
        c = Concrete(load("power", "default", mutant=mutant))
        s = _board(c, ["c1"], **{"power[c1]": 15, "total[p1]": 15, "treasury": _supply(c) - 15})
        t = c.step("gain_power(c1)", s)
        gain = next(a for a in c.system.actions if a.label == "gain_power(c1)")
        assert t is not None and not c.ev.step_ok(c.system.prop(prop), gain, s, t, {})
        return
    assert_caught("power", mutant, prop, depth=5)


def test_every_rule_mutant_has_a_catching_property():
    assert mutant_names("power") == {
        "same_placement",
        "no_destination",
        "move_gains",
        "copy_power",
        "out_of_play_destination",
        "total_stays",
        "attachments_stay",
        "tokens_stay",
        "gain_after_victory",
    }


def _supply(c: Concrete) -> int:
    """The power in the game: the treasury and the cards share it (all of it in the treasury at the most)."""
    (values,) = [iv.values for iv in c.system.init_vars if iv.var == "treasury"]
    return int(max(values))


# ------------------------------------------------------------------ rulings as scenarios
# default scenario: f1/pl1/ag1 and c1..c6 belong to player 1, f2/pl2/ag2 and c7..c12 to player 2.


def _board(c: Concrete, in_play: list[str], **extra):
    values = {f"in_play[c{i}]": False for i in range(1, 13)}
    values.update({f"in_play[{x}]": True for x in in_play})
    values["treasury"] = _supply(c)  # no power on the cards unless the test puts some there
    values.update(extra)
    s = c.state(values)
    assert all(c.holds(p, s) for p in (CONSERVED, TOTAL, IN_PLAY)), "the scenario must start in a consistent state"
    return s


def test_power_can_be_moved_to_a_revealed_plot_but_not_to_an_agenda():
    """FAQ "A Cask of Ale": power can be moved to a player's revealed plot card (in play, under that
    player's control) but not to an agenda, which is not in play."""
    c = Concrete(load("power", "default"))
    s = _board(c, ["c1"], **{"power[c1]": 2, "treasury": _supply(c) - 2, "total[p1]": 2})
    s = c.step("initiate_power_move(c1)", s, {"amount": 1, "to_character": False})
    assert s is not None
    assert c.step("resolve_power_move(c1)", s, {"to": "ag2"}) is None
    t = c.step("resolve_power_move(c1)", s, {"to": "pl2"})
    assert t is not None
    assert [c.get(t, k) for k in ("power[c1]", "power[pl2]", "total[p1]", "total[p2]")] == [1, 1, 1, 1]


def test_moved_power_is_not_gained_but_gained_power_is():
    """Moving Power: "Power that is moved is not considered 'gained'", and power moved to a card under
    another player's control counts toward that player's victory condition. A gain (Gains) opens the
    'when you gain power' reaction; the move does not."""
    c = Concrete(load("power", "default"))
    s = _board(c, ["c1", "c7"])
    s = c.step("gain_power(c1)", s)
    assert (c.get(s, "reaction[p1]"), c.get(s, "treasury"), c.get(s, "total[p1]")) == (True, _supply(c) - 1, 1)
    s = c.step("react_to_gain(p1)", s)
    s = c.step("initiate_power_move(c1)", s, {"amount": 1, "to_character": True})
    s = c.step("resolve_power_move(c1)", s, {"to": "c7"})
    assert [c.get(s, k) for k in ("power[c1]", "power[c7]", "total[p1]", "total[p2]")] == [0, 1, 0, 1]
    assert (c.get(s, "reaction[p1]"), c.get(s, "reaction[p2]"), c.get(s, "treasury")) == (False, False, _supply(c) - 1)


def test_a_move_ability_without_a_destination_cannot_be_initiated():
    """Move: "If there is no valid destination for a move, the move attempt cannot be made." With one
    character in play, power on it cannot be moved 'to another character', and its attachment cannot be
    moved; once a second character is in play both moves can be made, never to the same placement."""
    c = Concrete(load("power", "default"))
    s = _board(c, ["c1"], **{"power[c1]": 1, "treasury": _supply(c) - 1, "total[p1]": 1})
    s = c.step("attach(a1)", s, {"to": "c1"})
    assert c.step("initiate_power_move(c1)", s, {"amount": 1, "to_character": True}) is None
    assert c.step("initiate_power_move(c1)", s, {"amount": 1, "to_character": False}) is not None  # to a faction card
    assert not c.enabled("initiate_attachment_move(a1)", s)
    s = c.step("enter_play(c8)", s)
    m = c.step("initiate_attachment_move(a1)", s)
    assert m is not None
    assert c.step("resolve_attachment_move(a1)", m, {"to": "c1"}) is None  # its current placement
    m = c.step("resolve_attachment_move(a1)", m, {"to": "c8"})
    assert c.get(m, "attached_to[a1]") == "c8"


def test_a_character_leaving_play_returns_its_power_and_attachments():
    """Leaves Play: tokens on the card return to the treasury; attachments return to their owners' hands."""
    c = Concrete(load("power", "default"))
    s = _board(c, ["c7"], **{"power[c7]": 2, "treasury": _supply(c) - 2, "total[p2]": 2})
    s = c.step("attach(a1)", s, {"to": "c7"})
    s = c.step("leave_play(c7)", s)
    assert [c.get(s, k) for k in ("power[c7]", "treasury", "total[p2]", "att_in_play[a1]")] == [0, _supply(c), 0, False]


def test_review_f5_power_is_gained_whatever_the_treasury_holds():
    """F5 (medium). Tokens, Running out of: "There is no limit to the number of gold, power, or influence tokens".
    With 4 power on player 1's faction card and 2 on player 2's, a character still gains power (at 3e7e81c the
    6-token supply was then exhausted and every gain refused); at 15 power the game is over (Winning the Game)."""
    c = Concrete(load("power", "default"))
    power = {"power[f1]": 4, "total[p1]": 4, "power[f2]": 2, "total[p2]": 2}
    in_treasury = _supply(c) - 6
    s = _board(c, ["c1"], **power, treasury=in_treasury)
    assert c.enabled("gain_power(c1)", s)
    s = _board(c, ["c1"], **{"power[f1]": 15, "total[p1]": 15, "treasury": max(0, _supply(c) - 15)})
    assert not c.enabled("gain_power(c1)", s)


# ------------------------------------------------------------------ the move ability's steps (IR mutants)
def _label(system, family: str, target: str, detail: str = "") -> str:
    """The label of ``family``'s IR mutant ``target`` (``drop-update power``), or of its drop-guard whose dropped
    condition reads ``detail``."""
    found = {
        x.label
        for x in mutants_of(system)
        if x.family == family
        and ((x.kind == "drop-guard" and detail in x.detail) if detail else f"{x.kind} {x.target}" == target)
    }
    (label,) = found
    return label


BUSY = "not (moving_att[a1]"  # the dropped condition: no move is resolving
WON = "15 <= total[p1]"  # the dropped condition: nobody has won
QUIET = "nothing else happens while a move resolves ({})"
ONCE = "a 'when you gain power' reaction is initiated once for each gain"
INITIATED = "a power move ability initiated is the move that resolves: its amount and its kind of destination"
ATT_INITIATED = "an attachment move ability initiated is the move that resolves"
ATTACH = "an attachment out of play enters play attached to the chosen character"
SOURCE_IN_PLAY = "power is moved only off a card in play"
OVER = "after a move resolves no move is pending ({})"
STEPS = [
    ("gain_power", "", BUSY, QUIET.format("gain_power")),
    ("gain_power", "", WON, "no power changes hands once a player has won (gain_power)"),
    ("react_to_gain", "drop-update reaction", "", ONCE),
    ("react_to_gain", "", BUSY, QUIET.format("react_to_gain")),
    ("react_to_gain", "", "reaction[p1]", ONCE),
    ("initiate_power_move", "drop-update moving_pow", "", INITIATED),
    ("initiate_power_move", "off-by-one moving_pow", "", INITIATED),
    ("initiate_power_move", "drop-update to_char", "", INITIATED),
    ("initiate_power_move", "", WON, "no power changes hands once a player has won (initiate_power_move)"),
    ("resolve_power_move", "", "not to_char",
     "a power move moves the amount its ability names, to a character when it says so"),
    ("resolve_power_move", "drop-update moving_pow", "", OVER.format("resolve_power_move")),
    ("resolve_power_move", "off-by-one moving_pow", "", OVER.format("resolve_power_move")),
    ("initiate_attachment_move", "drop-update moving_att", "", ATT_INITIATED),
    ("resolve_attachment_move", "drop-update moving_att", "",
     "after a move resolves no move is pending (resolve_attachment_move)"),
    ("resolve_attachment_move", "", "moving_att[a1]", "an attachment moves only by the move ability initiated for it"),
    ("attach", "drop-update att_in_play", "", ATTACH),
    ("attach", "", BUSY, QUIET.format("attach")),
    ("attach", "", "not att_in_play[a1]", ATTACH),
    ("enter_play", "drop-update in_play", "", "a card entering play is in play"),
    ("enter_play", "", BUSY, QUIET.format("enter_play")),
    ("leave_play", "drop-update in_play", "", "a card leaving play is out of play"),
    ("leave_play", "", BUSY, QUIET.format("leave_play")),
    ("leave_play", "", BUSY, SOURCE_IN_PLAY),
]


@pytest.mark.parametrize(("family", "target", "detail", "prop"), STEPS)
def test_a_step_of_a_move_or_of_play_that_goes_wrong_is_caught(family, target, detail, prop):
    """Each of these mutants survived the power properties before these were added (judged by reading the
    model; the row's measurement was stopped): a gain, reaction or card entering play while a move resolves,
    a move ability initiated that never resolves, a move 'to a character' that goes to a plot, a reaction
    initiated twice for one gain, an attachment that re-enters play where it is; a character leaving play while
    power is being moved off it (Abilities: card abilities only interact with cards in play).  The amount a power
    move ability moves is held by the pending move on its source (``moving_pow``): a move ability that names one
    more power than chosen, and a resolved move whose amount is not cleared (dropped or set to 1), leave a move
    pending or moving the wrong amount.  When the amount was a record of its own (``move_n``), the two resolution
    mutants left it stale where the game does not show it and were neither killed nor proved equivalent within
    the default rlimit."""
    s = load("power", "small")
    label = _label(s, family, target, detail)
    assert ir_mutant_violates(s, label, [prop], depth=4) == [prop]


# ------------------------------------------------------------------ what the game does not show (equivalent mutants)
OPTS = Options(depth=6, kmax=4, rlimit=DEFAULT_RLIMIT, timeout=600)


@pytest.fixture(scope="module")
def small_rules():
    s = load("power", "small")
    return s, baseline(s, OPTS)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("family", "target", "detail"),
    [
        ("resolve_power_move", "drop-update to_char", ""),
        ("initiate_power_move", "", "in_play[f1]"),
    ],
)
def test_a_mutant_that_changes_only_what_the_game_does_not_show_is_equivalent(small_rules, family, target, detail):
    """Judged as ``ruleproof mutants`` judges them (every property kept, then the product system).  The kind of
    destination a power move ability names is shown only while a power move resolves, not while an attachment
    moves (it was declared shown while any move resolved: the stale flag then differed); and the requirement
    that the source of a power move be in play is implied by "power on a card implies it is in play" together
    with "a power move takes at least 1 power off its source", once both are proved of the mutant."""
    s, base = small_rules
    label = _label(s, family, target, detail)
    (mut,) = [x.system for x in mutants_of(s) if x.label == label]
    r = judge(label, [(s, mut, base)], OPTS)
    assert r.status == "equivalent", (r.status, r.reason)
