"""Deck lists: a ThronesDB text export (deck name, faction, agendas, packs, section headings) reads as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.cards.pool import Pool, load_deck, load_pool, parse_deck
from ruleproof.errors import InputError

EXPORT = """\
Winter Is Coming 1.0

House Stark
Fealty
The Lord of the Crossing


Packs:
From Core Set to Wolves of the North


Plots

1x A Noble Cause (Core Set)

Characters

3x Eddard Stark (Wolves of the North)
2x Winterfell Steward (Core Set)

Locations

1x The Kingsroad (Core Set)

Attachment

1x Bodyguard (Core Set)

Events

3x Put to the Sword (Core Set)

https://thronesdb.com/deck/view/123
"""


@pytest.fixture(scope="module")
def pool() -> Pool:
    return load_pool()


def test_a_thronesdb_export_reads_its_header_and_every_entry(pool: Pool) -> None:
    deck = parse_deck(EXPORT, pool, "stark.txt")
    assert deck.name == "Winter Is Coming 1.0" and deck.faction == "House Stark"
    assert [(e.card.code, e.count) for e in deck.entries] == [
        ("01027", 1), ("02060", 1),  # the agendas
        ("01004", 1), ("03003", 3), ("01152", 2), ("01039", 1), ("01033", 1), ("01041", 3)]
    assert deck.entries[3].loc.line == 18  # Eddard Stark, from the pack the line names


def test_a_plain_list_keeps_its_first_line_as_a_card(pool: Pool) -> None:
    deck = parse_deck("A Noble Cause\nCharacters\n2x Winterfell Steward\n", pool)
    assert [(e.card.code, e.count) for e in deck.entries] == [("01004", 1), ("01152", 2)]
    assert deck.name == "" and deck.faction == ""


def test_a_single_pack_line_and_a_misspelled_agenda(pool: Pool) -> None:
    deck = parse_deck("Solo\nNeutral\nPacks: Core Set\nPlots\n1x A Noble Cause (Core)\n", pool)
    assert deck.faction == "Neutral" and [e.card.code for e in deck.entries] == ["01004"]
    with pytest.raises(InputError) as bad:
        parse_deck("Deck\nHouse Stark\nFeality\nPacks:\nCore Set\nPlots\n1x A Noble Cause\n", pool, "d.txt")
    assert bad.value.render().startswith("d.txt:3: error: unknown card 'Feality'; did you mean 'Fealty'")


def test_load_deck_reads_an_export_file(tmp_path: Path, pool: Pool) -> None:
    p = tmp_path / "stark.txt"
    p.write_text(EXPORT, encoding="utf-8")
    assert len(load_deck(p, pool).entries) == 8
