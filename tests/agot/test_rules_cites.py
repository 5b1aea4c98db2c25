"""Every Rules Reference section the rules-model issue names is cited by some property of the bundled model."""

from __future__ import annotations

import re
from pathlib import Path

from ruleproof.loader import discover, load_system

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT.parent / "shared" / "reference" / "agot-rules-reference.txt"

NAMED = (
    "Treasury", "Triggered Abilities", "Triggering Condition", "Unique Cards", "Unopposed, Unopposed Challenge",
    "Marshal", "Max X (copies) (per period)", "May", "Melee Game", "Military Claim", "Intrigue Claim", "Power Claim",
    "Claim or Claim Value", "Save", "Kill, Killed", "Dead Pile", "Modifiers", "Base Value", "Duplicates",
    "Ownership and Control", "Costs", "Event Cards", "Put into Play", "Move", "Moving Power", "Limits and Maxima",
    "Cancel", "Interrupts", "Reactions", "Nested Ability Sequences", "Priority of Simultaneous Resolution",
    "Appendix I: Timing and Gameplay",
)


def _all_cites() -> set[str]:
    cites: set[str] = set()
    for spec in discover(ROOT / "model" / "agot"):
        for scenario in spec.checked:
            for p in load_system(spec, scenario).properties:
                cites.update(p.cites)
    return cites


def test_every_named_section_is_cited_by_some_property():
    cited = _all_cites()
    missing = [s for s in NAMED if s not in cited]
    assert missing == []


def test_every_cited_section_is_a_real_heading_or_a_numbered_appendix_step():
    if not REFERENCE.is_file():  # a user's clone has no ../shared; the names above are then trusted
        return
    headings = {m.group(1).strip() for m in re.finditer(r"^## (.+)$", REFERENCE.read_text(encoding="utf-8"), re.M)}
    unknown = sorted(c for c in _all_cites() if c not in headings)
    assert unknown == []
