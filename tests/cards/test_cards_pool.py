"""Loading the vendored pool, schema errors, deck lists."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ruleproof.cards.pool import default_pool_dir, load_deck, load_pool, parse_deck
from ruleproof.errors import InputError


@pytest.fixture(scope="module")
def pool():
    return load_pool()


def test_vendored_pool_has_all_records(pool) -> None:
    assert len(pool) == 2240
    assert len(list((default_pool_dir() / "packs").glob("*.json"))) == 71
    assert "shared" not in str(default_pool_dir())


def test_card_fields(pool) -> None:
    jaime = pool.get("01087")
    assert jaime is not None
    assert (jaime.name, jaime.type, jaime.faction, jaime.cost, jaime.strength) == (
        "Ser Jaime Lannister", "character", "lannister", 6, 5)
    assert jaime.icons == ("military", "intrigue") and jaime.unique and jaime.pack_code == "Core"
    assert "Knight" in jaime.traits
    assert pool.get("01029").keywords == ("stealth",)
    assert pool.get("99999") is None


def test_errata_text_is_current() -> None:
    from ruleproof.cards.compiler import card_text

    rec = {"text": "old", "errata": [{"text": "first"}, {"text": "<b>Action:</b> newest"}]}
    assert card_text(rec) == "<b>Action:</b> newest"
    assert card_text({"text": "plain"}) == "plain"


def test_schema_violation_names_file_and_record(tmp_path: Path) -> None:
    root = tmp_path / "pool"
    shutil.copytree(default_pool_dir(), root)
    core = root / "packs" / "Core.json"
    text = core.read_text(encoding="utf-8")
    plot = '"code": "01005",\n            "type": "plot'
    broken = text.replace(plot + '"', plot + 't"', 1)  # the type "plott" is not in the schema
    assert broken != text
    core.write_text(broken, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_pool(root)
    err = exc.value
    assert err.loc is not None and err.loc.file.endswith("Core.json")
    expected_line = broken.splitlines().index('            "code": "01005",') + 1
    assert err.loc.line == expected_line
    assert "01005" in err.message and "type" in err.message


def test_invalid_json_line(tmp_path: Path) -> None:
    root = tmp_path / "pool"
    shutil.copytree(default_pool_dir(), root)
    (root / "packs" / "Core.json").write_text('{\n  "cards": [\n    {,}\n  ]\n}\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_pool(root)
    assert exc.value.loc.line == 3


def test_not_a_pool(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="packs"):
        load_pool(tmp_path)


def test_deck_list_forms(pool) -> None:
    deck = parse_deck(
        "My deck\n".replace("My deck", "# My deck")
        + "Plots (7):\n1x A Clash of Kings (Core)\n\nCharacters:\n3x Ser Jaime Lannister (Core)\n2 01029\n01146\n"
        "Agenda: none\n",
        pool,
        "deck.txt",
    )
    assert [(e.card.code, e.count) for e in deck.entries] == [("01001", 1), ("01087", 3), ("01029", 2), ("01146", 1)]
    assert deck.entries[1].loc.line == 6
    assert deck.codes() == ("01001", "01087", "01029", "01146")


def test_deck_unknown_name_suggests(pool) -> None:
    with pytest.raises(InputError) as exc:
        parse_deck("1x A Clash of Kings\n\n2x Ser Jamie Lanister (Core)\n", pool, "d.txt")
    assert exc.value.loc.line == 3 and exc.value.loc.file == "d.txt"
    assert "did you mean 'Ser Jaime Lannister'" in exc.value.message


def test_deck_unknown_code_and_bad_lines(pool) -> None:
    with pytest.raises(InputError) as exc:
        parse_deck("01001\n99999\n", pool, "d.txt")
    assert exc.value.loc.line == 2 and "99999" in exc.value.message
    with pytest.raises(InputError) as exc:
        parse_deck("0x A Clash of Kings\n", pool, "d.txt")
    assert exc.value.loc.line == 1
    with pytest.raises(InputError) as exc:
        parse_deck("ok\n".replace("ok", "# ok") + "3x\n", pool, "d.txt")
    assert exc.value.loc.line == 2
    with pytest.raises(InputError, match="not in pack"):
        parse_deck("1x A Clash of Kings (WotN)\n", pool, "d.txt")


def test_deck_file(tmp_path: Path, pool) -> None:
    p = tmp_path / "deck.txt"
    p.write_text("2x Varys (Core)\n", encoding="utf-8")
    assert load_deck(p, pool).entries[0].count == 2
    with pytest.raises(InputError):
        load_deck(tmp_path / "missing.txt", pool)
