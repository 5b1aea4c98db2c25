"""Control changes by cards off the cycle, on real cards (Rules Reference: Ownership and Control, Unique Cards;
FAQ 1.1 Infinite Loops, 1.3, 2.7).

Left Hand Lew (19009: "Action: Kneel Left Hand Lew to choose and stand a character owned by an opponent.") and the
opponent's Old Bear Mormont (16010: "Action: Kneel Old Bear Mormont to choose and stand another [thenightswatch] or
Lord character.") stand each other: each player's choice continues it.  Ward (02102, "Take control of attached
character.") on the Old Bear, or Yoren's reaction (13085, "take control of a character with printed cost 5 or
lower until Yoren leaves play"), makes both abilities yours: you alone repeat it.  Ward cannot go on the Lew ("No
attachments except Weapon"), so Ward beside your Old Bear and their Lew changes nothing.  Sea Bitch (04112) cannot
take the opponent's Westwatch-by-the-Bridge while you have yours in play (unique): the Westwatches stay on
opposite sides.

Old Bear Mormont's action and Westwatch's replacement '(printed cost 4 or lower instead if ...)' are read here by
overrides that read less than the printed card (the Lord alternative and the replacement left out: both only add
targets), so a loop found with them is a loop of the printed cards.
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines import bmc
from ruleproof.engines.common import Options
from ruleproof.loops import Category
from ruleproof.loops.encode import Encoding, ModelSpec, build_model
from ruleproof.loops.lasso import classify
from ruleproof.results import Verdict

LEW, OBM, WARD, YOREN, SEA_BITCH, WESTWATCH = "19009", "16010", "02102", "13085", "04112", "12032"

READ_LESS = """
"16010":
  - type: action
    optional: true
    costs:
      - {kind: kneel, target: {ref: self, subject: {scope: self, card_type: character}}}
    effects:
      - kind: stand
        target: {ref: chosen, subject: {scope: any, card_type: character, other: true, factions: [thenightswatch]}}
"12032":
  - type: action
    optional: true
    costs:
      - {kind: kneel, target: {ref: self, subject: {scope: self, card_type: location}}}
    effects:
      - kind: stand
        target:
          ref: chosen
          subject:
            scope: any
            card_type: location
            other: true
            factions: [thenightswatch]
            compare: [{stat: printed_cost, op: le, value: 1}]
"""


def _solo_lasso(enc: Encoding, mutant: str = "") -> bool:
    """Does the model (the rules, or a mutant) have a lasso in which you initiate every optional ability?"""
    m = build_model(enc, ModelSpec(solo="you", mutant=mutant))
    return bmc.check(m, m.prop("lasso"),
            Options(depth=2 * enc.n, rlimit=DEFAULT_RLIMIT, timeout=600)).verdict is Verdict.PROVED


def _lew_and_old_bear(named: list[str]) -> Encoding:
    return encoding([(LEW, 1), (f"opp:{OBM}", 0)], named=named, overrides=READ_LESS)


def test_without_a_control_change_both_players_continue() -> None:
    enc = _lew_and_old_bear([LEW, f"opp:{OBM}"])
    r = classify(enc, timeout=60)
    assert r.category is Category.UNBOUNDED and r.continued_by == ("you", "opponent")


def test_ward_on_the_opponents_old_bear_makes_it_your_loop_and_the_mutant_owner_initiates_is_caught() -> None:
    enc = _lew_and_old_bear([LEW, WARD, f"opp:{OBM}"])
    assert enc.controls == ((WARD, f"opp:{OBM}"),)
    r = classify(enc, timeout=60)
    assert r.category is Category.UNBOUNDED and r.continued_by == ("you",)
    assert "you may repeat it as often as you like" in r.reason
    assert r.trace is not None and all("by you" in s.description for s in r.trace.steps)
    assert _solo_lasso(enc) and not _solo_lasso(enc, "owner_initiates")


def test_yoren_took_the_old_bear_before_the_loop_and_the_mutant_owner_initiates_is_caught() -> None:
    enc = _lew_and_old_bear([LEW, YOREN, f"opp:{OBM}"])
    assert enc.taken == ((YOREN, f"opp:{OBM}", True),)  # until Yoren leaves play
    r = classify(enc, timeout=60)
    assert r.category is Category.UNBOUNDED and r.continued_by == ("you",)
    assert _solo_lasso(enc) and not _solo_lasso(enc, "owner_initiates")


def test_the_controller_initiates_the_old_bear_and_the_mutant_owner_initiates_is_caught() -> None:
    """One step: the opponent-owned Old Bear you control (Yoren took it) is yours to use, not its owner's."""
    enc = _lew_and_old_bear([LEW, YOREN, f"opp:{OBM}"])
    zone = {LEW: "play", YOREN: "play", f"opp:{OBM}": "play"}
    for mutant, you, owner in (("", True, False), ("owner_initiates", False, True)):
        for by, expected in (("you", you), ("opp", owner)):
            run = Run(model(enc, mutant), zone=zone, standing={LEW: False, f"opp:{OBM}": True},
                      ctl={LEW: "you", YOREN: "you", f"opp:{OBM}": "you"}, pos=1)
            assert run.step(1, by=by, target0=LEW) is expected, (mutant, by)
            assert not expected or run.get("standing", LEW) is True


def test_ward_cannot_go_on_the_lew_so_the_pair_stays_both_players() -> None:
    """Your Old Bear, your Ward, the opponent's Lew ("No attachments except Weapon"): no card of the other player
    can carry Ward, so it changes nothing and is not named as text that could change the answer."""
    enc = encoding([(OBM, 0), (f"opp:{LEW}", 1)], named=[OBM, WARD, f"opp:{LEW}"], overrides=READ_LESS)
    assert enc.controls == () and not any("Take control" in u for u in enc.unmodelled)
    r = classify(enc, timeout=60)
    assert r.category is Category.UNBOUNDED and r.continued_by == ("you", "opponent")


def test_sea_bitch_cannot_take_a_second_unique_westwatch_and_the_mutant_is_caught() -> None:
    """Taking the opponent's Westwatch while yours is in play is not allowed (Unique Cards): the two stay on
    opposite sides, and both players continue.  The mutant that allows it gives you both."""
    enc = encoding([(WESTWATCH, 0), (f"opp:{WESTWATCH}", 0)], named=[WESTWATCH, SEA_BITCH, f"opp:{WESTWATCH}"],
                   overrides=READ_LESS)
    assert enc.taken == ((SEA_BITCH, f"opp:{WESTWATCH}", False),)
    r = classify(enc, timeout=60)
    assert r.category is Category.UNBOUNDED and r.continued_by == ("you", "opponent")
    assert not _solo_lasso(enc) and _solo_lasso(enc, "unique_control_ignored")


# --------------------------------------------------------------------------- alternative targets

EDDARD = "01144"  # Eddard Stark: a «Lord», not [thenightswatch]

OLD_BEAR_EITHER = """
"16010":
  - type: action
    optional: true
    costs:
      - {kind: kneel, target: {ref: self, subject: {scope: self, card_type: character}}}
    effects:
      - kind: stand
        target:
          ref: chosen
          subject: {scope: any, card_type: character, other: true, factions: [thenightswatch]}
          also:
            - {ref: chosen, subject: {scope: any, card_type: character, other: true, traits: [Lord]}}
"""


def test_old_bear_stands_a_lord_of_another_faction_and_the_mutant_first_alternative_only_is_caught() -> None:
    """'another [thenightswatch] or «Lord» character': Eddard Stark (a Lord of House Stark) can be chosen; nothing
    is left out of the model.  The mutant reading only the first alternative cannot choose him."""
    enc = encoding([(OBM, 0)], named=[OBM, EDDARD], overrides=OLD_BEAR_EITHER)
    assert enc.left_out == ()
    for mutant, expected in (("", True), ("first_alternative_only", False)):
        run = Run(model(enc, mutant), zone={OBM: "play", EDDARD: "play"}, standing={OBM: True, EDDARD: False},
                  pos=0)
        assert run.step(0, target0=EDDARD) is expected, mutant
        assert run.get("standing", EDDARD) is expected and run.get("standing", OBM) is not expected


def test_two_old_bears_with_both_alternatives_read_loop_and_nothing_is_left_out() -> None:
    enc = encoding([(OBM, 0), (f"opp:{OBM}", 0)], named=[OBM, f"opp:{OBM}"], overrides=OLD_BEAR_EITHER)
    r = classify(enc, timeout=60)
    assert r.category is Category.UNBOUNDED and r.continued_by == ("you", "opponent") and r.left_out == ()


# --------------------------------------------------------------------------- read by the reader: titles, replacements


def test_old_bears_raven_stands_only_a_card_with_that_title() -> None:
    """Old Bear's Raven (21014: "... stand Old Bear Mormont"): the title is a filter the model reads."""
    from realcards import keyed

    from ruleproof.cards.semantics import fits

    abil, cards = keyed(["21014", OBM, LEW])
    (stand,) = [e for a in abil["21014"] for e in a.effects if e.kind.value == "stand"]
    assert stand.target.subject.title is not None
    assert fits(stand.target.subject, cards[OBM]) and not fits(stand.target.subject, cards[LEW])


def test_westwatch_mirror_is_found_without_its_wider_replacement() -> None:
    """Westwatch-by-the-Bridge, printed: "stand another [thenightswatch] location with printed cost 1 or lower
    (printed cost 4 or lower instead if you control a Ranger, a Steward and a Builder)".  The replacement only adds
    targets, so the two Westwatches (one per player) are found standing each other without it, and it is named."""
    enc = encoding([(WESTWATCH, 0), (f"opp:{WESTWATCH}", 0)], named=[WESTWATCH, f"opp:{WESTWATCH}"])
    assert [x.direction.value for x in enc.left_out] == ["narrows", "narrows"]
    assert all(len(a.effects) == 1 for a in enc.abilities)
    r = classify(enc, timeout=60)
    assert r.category is Category.UNBOUNDED and r.continued_by == ("you", "opponent")
    assert "the wider target it may take instead" in r.reason
