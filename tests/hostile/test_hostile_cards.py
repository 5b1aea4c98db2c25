"""Card inputs as users really write them: byte-order marks, names instead of codes, empty deck lists."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_helpers import COUNTER, attempt, make_pool, one_card_pack

BOM = b"\xef\xbb\xbf"


def test_a_deck_list_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """A deck saved by Windows Notepad starts with a BOM: its first line was 'unknown card '\\ufeff1x 01163''."""
    deck = tmp_path / "deck.txt"
    deck.write_bytes(BOM + b"1x 01163\r\n")
    res = attempt("loops", "--deck", str(deck), "--json", expect={0, 3})
    assert res.json["coverage"]["cards"] == 1
    attempt("graph", "--what", "abilities", "--deck", str(deck), "--format", "dot", "--out", str(tmp_path / "g.dot"),
            expect={0})
    assert "01163" in (tmp_path / "g.dot").read_text(encoding="utf-8")


def test_a_pack_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    pool = make_pool(tmp_path / "pool", {"X.json": BOM + one_card_pack().encode("utf-8")})
    res = attempt("cards", "coverage", str(pool), "--json", expect={0})
    assert res.json["cards"] == 1


@pytest.mark.parametrize("text", ["", "# my deck\n\n// nothing\n", BOM.decode("utf-8")])
def test_an_empty_deck_names_its_file_for_graph_too(tmp_path: Path, text: str) -> None:
    """``graph --what abilities --deck EMPTY`` said 'give ... --deck FILE' although a deck was given."""
    deck = tmp_path / "empty.txt"
    deck.write_text(text, encoding="utf-8")
    for argv in (["loops", "--deck", str(deck)],
                 ["graph", "--what", "abilities", "--deck", str(deck), "--out", str(tmp_path / "g.dot")]):
        line = attempt(*argv, expect={2}).error_line()
        assert line.startswith(f"{deck}: error: the deck list names no card"), line
    assert not (tmp_path / "g.dot").exists()


@pytest.mark.parametrize(("given", "words"), [
    ("A Clash of Kings", "--cards takes a code; 'A Clash of Kings' is the card 01001"),
    ("opp:A Clash of Kings", "is the card 01001"),
    ("1163", "did you mean 01163"),
    ("", "unknown card code ''"),
    ("   ", "unknown card code '   '"),
])
def test_cards_that_are_not_codes_get_a_hint(given: str, words: str, tmp_path: Path) -> None:
    for argv in (["loops", "--cards", given, "--json"],
                 ["graph", "--what", "abilities", "--cards", given, "--out", str(tmp_path / "g.dot")]):
        assert words in attempt(*argv, expect={2}).error_line()


ESCAPES = "\x1b[2J\x1b]0;pwned\x07\u202e\x9b31m\r"


def test_control_sequences_in_a_card_never_reach_the_terminal(tmp_path: Path) -> None:
    """A card named with ANSI escapes (clear the screen, set the title), a bidi override and a C1 CSI was printed
    raw: a pool from the internet could rewrite what the user reads.  Text shows them as \\uXXXX; JSON keeps the
    same strings."""
    import json

    from ruleproof.cards.pool import default_pool_dir

    core = json.loads((default_pool_dir() / "packs" / "Core.json").read_text(encoding="utf-8"))
    card = next(c for c in core["cards"] if c["code"] == "01163")
    evil = {**card, "name": f"Evil{ESCAPES}Card", "text": f"<b>Reaction:</b> After {ESCAPES} you win, gain 1 gold."}
    pool = make_pool(tmp_path / "pool", {"X.json": json.dumps({**core, "cards": [evil]})})
    text = attempt("loops", "--pool", str(pool), "--cards", "01163", expect={3}).out
    assert "Evil\\u001b[2J\\u001b]0;pwned\\u0007\\u202e\\u009b31m\\u000dCard" in text
    assert not any(ch in text for ch in "\x1b\x07\u202e\x9b\r")
    obj = attempt("loops", "--pool", str(pool), "--cards", "01163", "--json", expect={3}).json
    assert obj["unread"][0]["name"] == evil["name"]


def test_a_line_break_or_a_huge_phrase_in_a_card_is_one_clipped_line_of_the_text_report(tmp_path: Path) -> None:
    """Card text reached the text report as it was: a line break in a name could forge a line of the report
    ("complete: ..."), and an unread phrase of 100,000 characters was one 100,000-character line.  Text shows each
    name and phrase on one line, clipped (and says how long it was); JSON keeps the whole text."""
    import json

    from ruleproof.cards.pool import default_pool_dir
    from ruleproof.loops.cli import PHRASE_LIMIT, REASON_LIMIT

    core = json.loads((default_pool_dir() / "packs" / "Core.json").read_text(encoding="utf-8"))
    card = next(c for c in core["cards"] if c["code"] == "01163")
    forged = "complete: every ability read in full and every candidate decided"
    huge = "A" * 100_000
    evil = {**card, "name": f"Two\n{forged}", "text": f"<b>Reaction:</b> After you win {huge}\n, gain 1 gold."}
    pool = make_pool(tmp_path / "pool", {"X.json": json.dumps({**core, "cards": [evil]})})
    text = attempt("loops", "--pool", str(pool), "--cards", "01163", expect={3}).out
    lines = text.splitlines()
    assert forged not in lines and not any(line.startswith(forged) for line in lines)
    assert f"Two\\u000a{forged} (01163#0)" in text
    assert max(len(line) for line in lines) <= REASON_LIMIT + 100
    assert any(len(line) > PHRASE_LIMIT and "characters)" in line for line in lines)  # clipped, with its length
    assert lines[-1].startswith("cards: 1  candidates:")
    obj = attempt("loops", "--pool", str(pool), "--cards", "01163", "--json", expect={3}).json
    assert obj["unread"][0]["name"] == evil["name"]
    assert any(huge.lower() in p for p in obj["unread"][0]["phrases"])


def test_control_sequences_in_a_model_and_in_an_error(tmp_path: Path) -> None:
    model = tmp_path / "m.py"
    source = Path(COUNTER).read_text(encoding="utf-8")
    model.write_text(source.replace('"x never reaches 2"', repr("x stays small" + ESCAPES)), encoding="utf-8")
    res = attempt("check", str(model), expect={1})
    assert "x stays small\\u001b[2J" in res.out and "\x1b" not in res.out
    line = attempt("check", str(model), "-p", "no\x1b[2Jsuch", expect={2}).error_line()
    assert "no\\u001b[2Jsuch" in line and "\x1b" not in line


@pytest.mark.parametrize(("pack", "words"), [
    ('{"cgdbId": 1, "code": "X", "name": "X", "releaseDate": "2015-01-01", "cards": null}',
     "X.json:1: error: schema violation in field 'cards': None is"),
    ("[1, 2]", "X.json:1: error: schema violation in the pack: [1, 2] is not of type 'object'"),
])
def test_a_pack_that_is_not_a_pack_names_its_file_and_line(tmp_path: Path, pack: str, words: str) -> None:
    """A pack whose 'cards' is not a list (or that is not an object) said 'X.json: error: schema violation in None
    is not of type ...': no line, and the words ran together."""
    pool = make_pool(tmp_path / "pool", {"X.json": pack})
    for argv in (["loops", "--pool", str(pool), "--cards", "01001"], ["cards", "coverage", str(pool)]):
        got = attempt(*argv, expect={2}).error_line()
        assert got.startswith(str(pool / "packs")) and words in got, got


@pytest.mark.parametrize(("overrides", "line", "words"), [
    # a mistyped code: the override changed nothing and the card's own reading stayed in force, silently
    ('"19009": []\n"99999":\n  - {type: action}\n', 2, "unknown card code 99999"),
    # the same code twice in one file: the later entry replaced the earlier one, silently
    ('"19009": []\n"19009":\n  - {type: action}\n', 2, "19009: given twice in this file (first at line 1)"),
    # numbers that mean nothing on a card: "stand -1", "Limit 0 times per phase"
    ('"19009":\n  - {type: action, effects: [{kind: stand, amount: -1, target: {ref: self}}]}\n', 2,
     "19009[0].effects[0].amount: must be 0 or more, got -1"),
    ('"19009":\n  - {type: action, limit: {count: 0, period: phase}}\n', 2, "19009[0].limit.count: must be 1 or more"),
])
def test_malformed_overrides_are_refused_at_their_line(tmp_path: Path, overrides: str, line: int, words: str) -> None:
    ov = tmp_path / "ov.yaml"
    ov.write_text(overrides, encoding="utf-8")
    for argv in (["loops", "--overrides", str(ov), "--cards", "19009", "--cards", "opp:19009"],
                 ["graph", "--what", "abilities", "--overrides", str(ov), "--cards", "19009", "--out",
                  str(tmp_path / "g.dot")],
                 ["cards", "coverage", "--overrides", str(ov)]):
        got = attempt(*argv, expect={2}).error_line()
        assert got.startswith(f"{ov}:{line}: error: ") and words in got, got
    assert not (tmp_path / "g.dot").exists()


def test_a_modifier_override_may_lose(tmp_path: Path) -> None:
    """A modifier's amount says gains or loses: '-2 STR' is an override a card can need, not a malformed one."""
    ov = tmp_path / "ov.yaml"
    ov.write_text('"19009":\n  - {type: constant, effects: [{kind: str_mod, amount: -2, target: {ref: self}}]}\n',
                  encoding="utf-8")
    attempt("loops", "--overrides", str(ov), "--cards", "19009", "--json", expect={0, 3})
