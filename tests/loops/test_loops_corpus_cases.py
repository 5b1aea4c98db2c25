"""Judged card sets of the loop corpus (benchmarks/loop_corpus.yaml) as tests: the answers, and the text a judge reads.

Each case runs ``ruleproof loops --cards ...`` in this process on real cards of the vendored pool and checks the
answer the corpus gives from the card text and the Rules Reference (the rule is in the corpus entry of the same id).
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from ruleproof.cli import run


def _loops(*codes: str, as_json: bool = True, extra: tuple[str, ...] = ()) -> tuple[int, Any]:
    out, err = io.StringIO(), io.StringIO()
    argv = ["loops", *[a for c in codes for a in ("--cards", c)], *extra, *(["--json"] if as_json else [])]
    status = run(argv, out, err)
    return status, json.loads(out.getvalue()) if as_json else out.getvalue()


def _found(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in doc["loops"] if r["category"] in ("unbounded", "mandatory", "limited")]


@pytest.mark.parametrize(("case", "codes", "category", "continued_by", "passes"), [
    # Yoren cannot take a unique card its controller already controls a copy of: the Lews stay one per side
    ("lew-yoren-opp-lew", ("19009", "13085", "opp:19009"), "unbounded", ["you", "opponent"], None),
    # Melisandre's Favor has no restriction: on the opponent's Old Bear it makes the pair yours alone
    ("lew-melisandres-favor-opp-obm", ("19009", "16002", "opp:16010"), "unbounded", ["you"], None),
    # The New Gift kneels Satin, Satin stands the opponent's Lew, the Lew stands Satin: twice per phase
    ("satin-new-gift-opp-lew", ("07013", "07017", "opp:19009"), "limited", ["you", "opponent"], 2),
    # Ser Eldon stands a [baratheon] location once per round
    ("eldon-northern-encampment", ("13047", "06088"), "limited", ["you"], 1),
    # a cycle of 4 abilities: each New Gift kneels its own Satin, each Satin stands the other player's
    ("satin-mirror-new-gifts", ("07013", "07017", "opp:07013", "opp:07017"), "limited", ["you", "opponent"], 2),
    # Yoren takes the opponent's Satin: your New Gift kneels it, it stands your Lew, your Lew stands it
    ("lew-yoren-new-gift-opp-satin", ("19009", "13085", "07017", "opp:07013"), "limited", ["you"], 2),
    # the same from the other side: the opponent's Yoren takes your Satin
    ("opp-yoren-takes-satin", ("07013", "opp:13085", "opp:19009", "opp:07017"), "limited", ["opponent"], 2),
])
def test_corpus_loops_are_found_with_who_continues(case: str, codes: tuple[str, ...], category: str,
                                                   continued_by: list[str], passes: int | None) -> None:
    status, doc = _loops(*codes)
    best = _found(doc)
    assert best, f"{case}: no loop found"
    r = best[0]
    assert r["category"] == category, case
    assert sorted(r.get("continued_by") or ["you"]) == sorted(continued_by), case
    if passes is not None:
        assert r["passes"] == passes, case
    if category == "unbounded":
        assert status == 1, case
    elif any(x.get("unmodelled") for x in doc["loops"]):  # an answer rests on a constant the model leaves out
        assert status == 3 and doc["complete"] is False, case
    else:
        assert status == 0 and doc["complete"] is True, case


def test_a_loop_found_over_a_constant_left_out_is_not_a_complete_report() -> None:
    """Ser Eldon and Northern Encampment: the limited loop is found, but the Encampment's constant 'cannot stand
    during the standing phase unless ...' is not in the loop model, and a 'cannot' left out could make a loop
    found without it wrong: the result names it (``unmodelled``) and the report is not complete (exit 3; it said
    'complete', exit 0)."""
    status, doc = _loops("13047", "06088")
    (r,) = _found(doc)
    assert r["category"] == "limited" and any("Northern Encampment cannot stand" in u for u in r["unmodelled"])
    assert status == 3 and doc["complete"] is False


def test_a_no_loop_answer_over_a_constant_that_could_widen_is_not_complete() -> None:
    """Ward with the Oldtown Scholar mirror: Ward can take the opponent's Scholar (printed cost 3), and every
    candidate is 'not a loop', but Ward's 'attached character gains the [stark] affiliation' is not in the loop
    model and could let an ability choose a card it now cannot: each answer names it and the report is not
    complete (exit 3; with Ward beside The New Gift and the opponent's Satin it was 'complete', exit 0, while its
    own text said 'not modelled, and could change this')."""
    status, doc = _loops("02102", "10041", "opp:10041")
    assert not _found(doc) and doc["loops"]
    assert all(any("[stark] affiliation" in u for u in r["unmodelled"]) for r in doc["loops"])
    assert status == 3 and doc["complete"] is False


@pytest.mark.parametrize(("case", "codes", "category"), [
    # Ward needs a character of printed cost 4 or lower: the Ebroses cost 5 (limited, once per phase each)
    ("ebrose-mirror-ward", ("09039", "02102", "opp:09039"), "limited"),
    # Left Hand Lew and Satin take no attachment but a Weapon, The New Gift is a location
    ("lew-ward-new-gift-opp-satin", ("19009", "02102", "07017", "opp:07013"), "not_a_loop"),
])
def test_an_attachment_no_card_can_host_is_not_rested_on(case: str, codes: tuple[str, ...], category: str) -> None:
    """Ward's 'attached character gains the [stark] affiliation' is left out of the loop model, but no card of the
    model can host Ward: the affiliation never reaches one, so no answer rests on it and the report is complete
    (each answer said 'not modelled, and could change this: Ward: ...', exit 3)."""
    status, doc = _loops(*codes)
    assert doc["loops"], case
    assert (_found(doc)[0]["category"] if _found(doc) else "not_a_loop") == category, case
    assert not any(r.get("unmodelled") for r in doc["loops"]), case
    assert status == 0 and doc["complete"] is True, case


def test_which_constants_an_answer_rests_on() -> None:
    """'Not a loop' rests on the constants left out except the ones that only forbid; a loop found rests on all."""
    from types import SimpleNamespace

    from ruleproof.loops.lasso import Category, _resting_on

    enc: Any = SimpleNamespace(unmodelled=("A: 'cannot stand'", "B: 'gains [stark]'"),
                               forbidding=("A: 'cannot stand'",))
    assert _resting_on(enc, Category.NOT_A_LOOP) == ("B: 'gains [stark]'",)
    assert _resting_on(enc, Category.LIMITED) == enc.unmodelled


def test_a_no_loop_answer_does_not_rest_on_a_constant_that_only_forbids() -> None:
    """A constant whose every effect is a 'cannot' only narrows what the cards can do: leaving it out lets the
    model do more, so a 'not a loop' found without it stands; anything else (and any loop found) rests on it."""
    from ruleproof.cards.abilities import AbilityType
    from ruleproof.cards.overrides import compile_pool
    from ruleproof.cards.pool import load_pool
    from ruleproof.loops.encode.accept import _only_forbids

    compiled = compile_pool(load_pool())
    constants = [a for code in ("02102", "11003", "06088") for a in compiled[code] if a.type is AbilityType.CONSTANT]
    ward_stark = [a for a in constants if "affiliation" in a.text]
    armory = [a for a in compiled["11003"] if a.type is AbilityType.CONSTANT and "cannot stand" in a.text]
    assert ward_stark and not any(_only_forbids(a) for a in ward_stark)
    assert armory and all(_only_forbids(a) for a in armory)


def test_a_framework_value_no_ability_reads_is_not_rested_on() -> None:
    """The Red Keep mirror: each Red Keep kneels to cancel the other's cancel, and nothing stands it: 'not a loop'.
    Its '+1 Income.' changes only the gold collected in the marshaling phase, which no pass of a cycle of abilities
    reaches: the answer does not rest on it, and the report is complete (it said 'not modelled, and could change
    this: The Red Keep: +1 income.', exit 3)."""
    status, doc = _loops("15030", "opp:15030")
    assert [r["category"] for r in doc["loops"]] == ["not_a_loop"]
    assert not doc["loops"][0].get("unmodelled") and "income" not in doc["loops"][0]["reason"]
    assert status == 0 and doc["complete"] is True


def test_a_framework_value_some_ability_reads_is_rested_on() -> None:
    """A '+1 Reserve.' stays an answer's constant left out when another ability of the model reads the reserve
    value (Samwell Tarly: 'if your reserve value is 6 or higher'); income and initiative likewise."""
    from ruleproof.cards.abilities import AbilityType
    from ruleproof.cards.overrides import compile_pool
    from ruleproof.cards.pool import load_pool
    from ruleproof.loops.encode.accept import _unread_value

    compiled = compile_pool(load_pool())
    (reserve,) = [a for a in compiled["13066"] if a.type is AbilityType.CONSTANT]   # Blackbird: '+1 Reserve.'
    (income,) = [a for a in compiled["15030"] if a.type is AbilityType.CONSTANT]    # The Red Keep: '+1 Income.'
    sam = [a.text for a in compiled["22013"]]
    assert any("reserve value" in t for t in sam)
    assert _unread_value(reserve, ["kneel ~ to stand another location."])
    assert not _unread_value(reserve, sam)
    assert _unread_value(income, sam) and not _unread_value(income, ["+2 gold instead if your income is 5."])


@pytest.mark.parametrize(("case", "codes"), [
    ("obm-wyman-sacrifice", ("16010", "11021")),     # a sacrifice is not a kill: Old Bear never stands from it
    ("northern-armory-jeyne", ("11003", "05033")),   # 'Northern Armory cannot stand'
    ("obm-opp-jeyne", ("16010", "opp:05033")),       # neither stands the other's traits
    ("meribald-opp-lew", ("10040", "opp:19009")),     # Septon Meribald stands printed STR 1 or lower: Lew has 2
    ("bay-of-seals-opp-obm", ("08086", "opp:16010")),  # Old Bear stands characters, the Bay is a location
])
def test_corpus_no_loop_answers_are_complete(case: str, codes: tuple[str, ...]) -> None:
    status, doc = _loops(*codes)
    assert not _found(doc), case
    assert doc["complete"] is True and status == 0, case


def test_a_cycle_of_four_abilities_is_searched_and_a_shorter_search_is_not_complete() -> None:
    """Two players' Satin and The New Gift (corpus satin-mirror-new-gifts): the loop is a cycle of 4 abilities.  The
    named cards' graph is searched for every cycle (it was searched for cycles of up to 3 abilities and the report
    said 'complete' with no loop, exit 0); a search bounded below the size of the graph's cyclic part says the
    report is not complete (exit 3), naming --max-length."""
    codes = ("07013", "07017", "opp:07013", "opp:07017")
    status, doc = _loops(*codes)
    assert doc["max_length"] >= 4 and doc["longer_cycles_not_searched"] is False
    (r,) = [r for r in _found(doc) if len(r["abilities"]) == 4]
    assert r["category"] == "limited" and r["passes"] == 2 and status == 0 and doc["complete"] is True
    status, doc = _loops(*codes, extra=("--max-length", "3"))
    assert not _found(doc) and doc["longer_cycles_not_searched"] is True
    assert doc["complete"] is False and status == 3
    _, text = _loops(*codes, as_json=False, extra=("--max-length", "3"))
    assert text.splitlines()[-2] == ("not complete: cycles of more than 3 abilities were not searched (--max-length) "
                                     "(a loop could be missing: unknown)")


def test_too_many_long_cycles_fall_back_to_the_short_ones_and_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cyclic part of the named cards' graph with more cycles than the search takes on (a dense part of 8
    abilities holds thousands) is searched for cycles of up to 3 abilities, and the report is not complete."""
    from ruleproof.cards.pool import load_pool
    from ruleproof.loops import search

    pool = load_pool()
    full = search.search_space(pool, ["07013", "07017"], None, ["07013", "07017"])
    assert full.max_length >= 4 and not full.longer and len(full.candidates) == 8
    monkeypatch.setattr(search, "NAMED_ALL_CYCLES_MAX", 7)
    short = search.search_space(pool, ["07013", "07017"], None, ["07013", "07017"])
    assert short.max_length == 3 and short.longer and all(len(c.abilities) <= 3 for c in short.candidates)


def test_a_card_whose_control_is_taken_closes_the_cycle_and_the_text_names_the_taker() -> None:
    """Yoren takes control of the opponent's Satin (printed cost 2): The New Gift kneels it as a cost paid with a card
    you control, its reaction stands your Lew, and your Lew stands it (owned by an opponent).  The graph matched
    'a Steward character you control' only against your own cards, so no candidate formed and the report said
    'complete', exit 0.  Every ability is then yours: you alone continue, and the text says who took control."""
    status, text = _loops("19009", "13085", "07017", "opp:07013", as_json=False)
    lines = text.splitlines()
    head = lines.index("== limited (1)")
    assert lines[head + 1].endswith("passes: 2")
    assert "Yoren (13085) took control of Satin (opp:07013)" in lines[head + 2]
    assert lines[head + 4].strip() == "continued by: you alone"
    steps = [s.strip() for s in lines[head + 5:head + 11]]
    assert all(" by you " in s for s in steps) and status == 0


def test_a_taker_takes_one_card_and_both_players_continue() -> None:
    """The opponent's Yoren takes control of one character: your Left Hand Lew (then the opponent's Lew stands 'a
    character owned by an opponent', your Old Bear, who stands the Lew back), or your Old Bear, never both.  The
    corpus judged this 'not a loop' (the Lew never stands your own Old Bear) until the graph matched taken cards:
    the loop is the Lew under the opponent's control, each player initiating one ability, so both must continue.
    The model let one Yoren have taken every card it could choose, and the opponent ran the loop alone."""
    status, doc = _loops("19009", "opp:13085", "16010")
    (r,) = _found(doc)
    assert r["category"] == "unbounded" and sorted(r["continued_by"]) == ["opponent", "you"]
    assert sorted(r["players"]) == ["opponent", "you"] and status == 1
    steps = [s["description"] for s in r["trace"][1:]]
    assert any(s.endswith("by you") for s in steps) and any(s.endswith("by opp") for s in steps)


def test_limited_loop_text_names_who_acts_and_what_each_step_changes() -> None:
    """A judge reads the steps in game terms: who initiates each ability (the opponent's Lew is theirs), what it
    kneels, stands and gains, and which printed limits stop the loop."""
    status, text = _loops("07013", "07017", "opp:19009", as_json=False)
    assert status == 0
    lines = text.splitlines()
    head = lines.index("== limited (1)")
    block = lines[head:head + 11]
    assert "limit 2 per phase" in block[2] and "Satin (07013#1)" in block[2] and "The New Gift (07017#1)" in block[2]
    assert block[3] == "    per pass: gold +1"
    assert block[4] == ("    continued by: you and the opponent: each pass needs an ability of each, and either "
                        "ends it by declining")
    steps = [s.strip() for s in block[5:11]]
    assert steps[0] == ("1. Satin (07013#1): reaction by you (target0=Left Hand Lew (opp:19009)): "
                        "stands Left Hand Lew (opp:19009)")
    assert steps[1] == ("2. Left Hand Lew (opp:19009#1): action by opp (target0=Satin (07013)): "
                        "stands Satin (07013); kneels Left Hand Lew (opp:19009)")
    assert steps[2] == "3. The New Gift (07017#1): action by you (cost0=Satin (07013)): kneels Satin (07013); " \
                       "your gold 0 -> 1"
    assert steps[5].endswith("your gold 1 -> 2")
    assert not any("used[" in s or "pos " in s or "pending[" in s for s in steps)  # no model bookkeeping


def test_loop_text_shows_cards_moving_between_zones() -> None:
    """Two Drowned God Fanatics: the step says which copy goes from the dead pile into play and which is killed
    into the dead pile (not that the killed copy 'stands')."""
    _, text = _loops("11051", "11051", as_json=False)
    (step,) = [s for s in text.splitlines() if s.strip().startswith("1. Drowned God Fanatic")]
    assert step.endswith("Drowned God Fanatic (11051): dead pile -> play; "
                         "Drowned God Fanatic (11051/2): play -> dead pile")
    assert "stands" not in step and "by you" in step



def test_arianne_and_obara_are_no_loop_once_the_printed_cost_comparison_is_read() -> None:
    """Arianne Martell and Obara Sand (corpus: no loop, both cost 5, so Obara's 'lower printed cost' allows neither):
    the comparison with the card returned to pay is read, so the answer is the judged one, complete (exit 0).  Before
    it was read, the model found an unbounded loop and the report was an unknown naming the phrase."""
    status, text = _loops("01104", "10005", as_json=False)
    assert status == 0
    lines = text.splitlines()
    pair = lines.index("01104 + 10005  [01104#0, 10005#0]")
    assert lines[pair + 1].strip().startswith("Obara Sand (10005#0) can never fire after Arianne Martell (01104#0)")
    assert "== unknown" not in text and lines[-2].startswith("complete: ")


# Judged corpus answers the loop finder does not reach yet: each answer today is an honest unknown (exit 3, the
# unread or unmodelled text named), and the fix belongs to the reader (cards/ability.lark, grammar.py,
# compiler.py) or to the loop model (loops/encode/accept.py). strict: the test fails once the answer is reached,
# so the marker is removed with the fix.

def test_second_copy_of_a_unique_card_off_the_cycle_keeps_the_mirror() -> None:
    """The opponent's second copy of the unique Lew, off the cycle, can only be a duplicate of the first: the model
    leaves it out (duplicates are the model's own stock) and names it, where every candidate used to be refused as
    'two copies of a unique card for one player' (unsupported, exit 3)."""
    status, doc = _loops("19009", "opp:19009", "opp:19009")
    best = _found(doc)
    assert len(best) == 2 and all(r["category"] == "unbounded" for r in best)
    for r in best:
        assert sorted(r["continued_by"]) == ["opponent", "you"]
        (left,) = r["left_out"]
        assert "a second copy of a unique card, off the cycle" in left and left.endswith("(narrows)")
    assert status == 1 and doc["complete"] is True


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="loop model (loops/encode): 'each opponent may return his or her revealed plot card to his "
                   "or her plot deck and reveal a new plot card' is read (the opponent returns and reveals), but a "
                   "plot another player reveals, and a revealed plot going back to the plot deck, are not modelled: "
                   "the candidate is an honest unsupported (test below)")
def test_gathering_storm_mirror_repeats_while_both_players_choose() -> None:
    status, doc = _loops("16036", "opp:16036")
    best = _found(doc)
    assert best and best[0]["category"] == "unbounded"
    assert sorted(best[0]["continued_by"]) == ["opponent", "you"] and status == 1


def test_gathering_storm_is_never_read_as_its_controller_revealing() -> None:
    """The Storm's 'reveal a new plot card' is the opponent's (it was read as the Storm's controller revealing, which
    the loop model ran): the candidate of the two Storms is refused with the reason, an unknown (exit 3)."""
    status, doc = _loops("16036", "opp:16036")
    (r,) = doc["loops"]
    assert r["category"] == "unsupported" and "a plot card moved from where it is" in r["reason"]
    assert status == 3 and doc["complete"] is False


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="loop model: the Courtier's trigger is read (Margaery's '+3 STR' links to it), but a cycle "
                   "runs one copy's ability per pass: Margaery, one Courtier, Margaery, the other Courtier is no "
                   "candidate's pass, so the answer is an honest unknown (test below)")
def test_margaery_with_two_courtiers_is_limited_twice_per_phase() -> None:
    _, doc = _loops("01181", "09015", "09015")
    best = _found(doc)
    assert best and best[0]["category"] == "limited" and best[0]["passes"] == 2


def test_margaery_and_a_courtier_link_and_a_second_courtier_keeps_the_answer_open() -> None:
    """Highgarden Courtier reads 'after another character's STR is increased by a card effect': Margaery Tyrell's '+3
    STR' on herself triggers it, and the Courtier stands her.  With one Courtier the cycle cannot run twice (the
    Courtier knelt to pay, nothing stands it): a complete 'not a loop'.  With a second copy named, off the cycle, that
    copy could take the first's turn (limits are per copy), which the model does not run: the candidates of Margaery
    with one Courtier are an honest unknown naming the other copy, never 'not a loop'."""
    status, doc = _loops("01181", "09015")
    (r,) = doc["loops"]
    assert r["cards"] == ["01181", "09015"] and r["category"] == "not_a_loop"
    assert status == 0 and doc["complete"] is True
    status, doc = _loops("01181", "09015", "09015")
    pairs = [r for r in doc["loops"] if sorted(r["cards"]) in (["01181", "09015"], ["01181", "09015/2"])]
    assert len(pairs) == 2
    for r in pairs:
        assert r["category"] == "unknown" and "another copy of Highgarden Courtier" in r["reason"]
    assert status == 3 and doc["complete"] is False


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="loop model (loops/encode): 'initiate the when revealed ability of a City plot card in your "
                   "used pile' is read, but a card in the used pile is not modelled, so the chain of two City of "
                   "Spiders (no potential to change the game state: Abilities) is unsupported")
def test_two_cities_of_spiders_are_no_loop() -> None:
    status, doc = _loops("13080", "13080")
    assert not _found(doc) and doc["complete"] is True and status == 0


def test_westwatch_and_underground_vault_are_a_complete_no_loop_answer() -> None:
    """Underground Vault's '(2 gold instead if the gold value on an opponent's revealed plot card is 5 or higher)' is
    read (a condition on the opponent's plot): nothing stands Westwatch-by-the-Bridge, a complete answer (exit 0)."""
    status, doc = _loops("12032", "06046")
    assert not _found(doc) and doc["complete"] is True and status == 0


def test_marched_to_the_wall_is_a_complete_no_loop_answer() -> None:
    """Marched to the Wall's '(if able)' is read: a single when revealed ability that nothing initiates again is a
    complete answer (exit 0)."""
    status, doc = _loops("01015")
    assert not _found(doc) and doc["complete"] is True and status == 0


def test_a_decks_copies_are_copies_in_the_model(tmp_path: Any) -> None:
    """dgf-two-copies from a deck list: '2x Drowned God Fanatic' is two copies, one putting itself into play from
    the dead pile by killing the other ('Max once per round'): the limited loop that --cards 11051 --cards 11051
    finds.  The deck's copies were one card in the model, so the deck answered 'not a loop' for its one candidate."""
    deck = tmp_path / "deck.txt"
    deck.write_text("2x 11051\n", encoding="utf-8")
    _, by_deck = _loops(extra=("--deck", str(deck)))
    _, by_cards = _loops("11051", "11051")
    assert [r["category"] for r in _found(by_deck)] == [r["category"] for r in _found(by_cards)] == ["limited"]
    deck.write_text("1x 11051\n", encoding="utf-8")
    assert not _found(_loops(extra=("--deck", str(deck)))[1])


def test_a_unique_card_of_a_deck_is_one_copy(tmp_path: Any) -> None:
    """'3x Left Hand Lew' (unique) is one Lew in play; the others could only be duplicates: one card, as with
    --cards 19009."""
    deck = tmp_path / "deck.txt"
    deck.write_text("2x 19009\n1x 19009\n", encoding="utf-8")
    status, doc = _loops(extra=("--deck", str(deck)))
    assert status == 0 and doc["complete"] is True and doc["coverage"]["cards"] == 1 and doc["loops"] == []
