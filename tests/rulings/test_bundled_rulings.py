"""Every bundled ruling (rulings/agot, rulings/berserk) is one test, named by its file, name and source.

A change of the rules models that contradicts a ruling fails here with the ruling's name and source in the test id
and the trace where the model and the ruling part in the message.  Every quote is checked word for word against
the reference texts the project carries (docs/reference).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleproof.rulings import Outcome, bundled_rulings_dir, check_ruling, load_rulings
from ruleproof.rulings.render import render_one, ruling_title

ROOT = Path(__file__).resolve().parents[2]
RULINGS = load_rulings([ROOT / "rulings"])
REFERENCE = ROOT / "docs" / "reference"


def test_the_bundled_rulings_are_the_ones_in_the_checkout():
    assert bundled_rulings_dir().resolve() == (ROOT / "rulings").resolve()
    games = {Path(r.file).parent.name for r in RULINGS}
    assert games == {"agot", "berserk"}


def test_ruling_names_are_unique_per_file():
    seen = [(r.file, r.name) for r in RULINGS]
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("r", RULINGS, ids=[ruling_title(r) for r in RULINGS])
def test_bundled_ruling(r):
    result = check_ruling(r, timeout=120)
    assert result.outcome is Outcome.PASS, "\n".join(render_one(result))


def _norm(text: str) -> str:
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'").replace("*", "")
    return " ".join(text.replace("•", " ").split())


def _sources() -> str:
    files = [REFERENCE / "agot-rules-reference.txt", REFERENCE / "agot-faq.txt", REFERENCE / "berserk-rules-notes.md",
             *sorted((REFERENCE / "seeds").glob("*.txt"))]
    return _norm(" ".join(f.read_text(encoding="utf-8") for f in files))


@pytest.mark.parametrize("r", RULINGS, ids=[ruling_title(r) for r in RULINGS])
def test_the_quote_is_in_the_source_word_for_word(r):
    """Each fragment of the quote (fragments are joined by '...') occurs verbatim in the reference texts."""
    text = _sources()
    for part in re.split(r"\s*\.\.\.\s*", r.quote):
        part = part.strip()
        if part:
            assert _norm(part) in text, part
