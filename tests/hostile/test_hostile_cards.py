"""Card inputs as users really write them: byte-order marks, names instead of codes, empty deck lists."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_helpers import attempt, make_pool, one_card_pack

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
