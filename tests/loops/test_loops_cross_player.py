"""Cycles through both players' abilities: graph edges across players, lasso classification per controller.

Rules: Ownership and Control, Costs, Triggering Condition, Forced Interrupts / Forced Reactions,
Limits and Maxima ("all limits and maxima are player specific"), FAQ (1.1) Infinite Loops.
"""

from __future__ import annotations

import dataclasses
import json

from ruleproof.cards.abilities import Ability
from ruleproof.cards.compiler import compile_text
from ruleproof.cards.graph import CardFacts, build_ability_graph, find_candidates
from ruleproof.cards.pool import load_pool
from ruleproof.engines import bmc
from ruleproof.engines.common import Options
from ruleproof.loops import Category, find_loops, report_json
from ruleproof.loops.encode import Encoding, LoopCard, ModelSpec, build_model, encode
from ruleproof.loops.lasso import LoopResult, classify
from ruleproof.results import Verdict

POOL = load_pool()
LEW = "19009"  # Left Hand Lew: "Action: Kneel Left Hand Lew to choose and stand a character owned by an opponent."
EBROSE = "09039"  # Archmaester Ebrose: "Action: Kneel a Maester character to choose and stand another Maester
# character. (Limit once per phase.)"


def _cards(spec: dict[str, tuple[str, str]]) -> tuple[dict[str, tuple[Ability, ...]], dict[str, LoopCard]]:
    """Card key -> (name, text): a character each, ``opp:`` keys owned and controlled by the opponent."""
    abil = {k: compile_text(text, name) for k, (name, text) in spec.items()}
    cards = {k: LoopCard(k, name, "character", "stark", cost=2, strength=2,
                         owner="opp" if k.startswith("opp:") else "you") for k, (name, _t) in spec.items()}
    return abil, cards


def _only_candidate(spec: dict[str, tuple[str, str]]) -> Encoding:
    abil, cards = _cards(spec)
    facts = {k.removeprefix("opp:"): CardFacts(k, c.name, "character", "stark") for k, c in cards.items()}
    (cand,) = find_candidates(build_ability_graph(abil, facts))
    assert cand.cross_player and cand.players == ("you", "opponent")
    enc = encode(cand, abil, cards)
    assert isinstance(enc, Encoding), enc
    return enc


def _classify(enc: Encoding) -> LoopResult:
    return classify(enc, timeout=30)


# --------------------------------------------------------------------------- real cards


def test_two_left_hand_lews_loop_only_while_both_players_continue() -> None:
    """Each Lew stands the other player's Lew: a lasso, but one optional action of each player per pass."""
    rep = find_loops(POOL, codes=[LEW], opponent_codes=[LEW])
    (r,) = rep.results
    assert r.cards == (LEW, f"opp:{LEW}") and r.abilities == ((LEW, 1), (f"opp:{LEW}", 1))
    assert r.category is Category.UNBOUNDED
    assert r.players == ("you", "opponent") and r.continued_by == ("you", "opponent")
    assert "neither player can repeat it alone" in r.reason
    gain = dict(r.net_gain)
    assert gain["standing_characters"] == 0 and gain["opponent_standing_characters"] == 0
    assert r.trace is not None and r.trace_passes == 2 and len(r.trace.steps) == 4
    assert [s.action for s in r.trace.steps] == ["ability0", "ability1"] * 2
    entry = report_json(rep)["loops"][0]
    assert entry["players"] == ["you", "opponent"] and entry["continued_by"] == ["you", "opponent"]
    assert entry["cards"] == [LEW, f"opp:{LEW}"] and entry["abilities"] == [f"{LEW}#1", f"opp:{LEW}#1"]
    json.dumps(report_json(rep))


def test_one_left_hand_lew_per_side_is_needed() -> None:
    """Your own two copies never stand each other ("owned by an opponent"): no candidate at all."""
    assert find_loops(POOL, codes=[LEW]).candidates == 0
    single = find_loops(POOL, codes=["01163", "04090"])  # a one-player search has no cross-player fields
    assert all("players" not in e for e in report_json(single)["loops"])


def test_two_archmaesters_are_limited_per_copy_and_player() -> None:
    rep = find_loops(POOL, codes=[EBROSE], opponent_codes=[EBROSE])
    (pair,) = [r for r in rep.results if len(r.cards) == 2]
    assert pair.category is Category.LIMITED and pair.passes == 1
    assert pair.continued_by == ("you", "opponent")
    assert set(pair.binding) == {"Archmaester Ebrose (09039#0): limit 1 per phase",
                                 "Archmaester Ebrose (opp:09039#0): limit 1 per phase"}
    # alone, each Ebrose can kneel itself to stand the other player's Ebrose (every named card is in the model),
    # but nothing stands it again: one pass, never two
    for r in rep.results:
        if len(r.cards) == 1:
            assert r.category is Category.NOT_A_LOOP and "cannot run twice" in r.reason, r.reason
            assert r.bystanders == ({"09039": "opp:09039", "opp:09039": "09039"}[r.cards[0]],)


# --------------------------------------------------------------------------- forced and optional across players

STOOD = "<b>{kind}:</b> After a character an opponent controls stands, kneel it."
KNELT = "<b>{kind}:</b> After a character you control is knelt, stand it."


def test_forced_abilities_of_both_players_make_a_mandatory_loop() -> None:
    enc = _only_candidate({"A": ("Alpha", STOOD.format(kind="Forced Reaction")),
                           "opp:B": ("Beta", KNELT.format(kind="Forced Reaction"))})
    r = _classify(enc)
    assert r.category is Category.MANDATORY and r.continued_by == ()
    assert "forced abilities of both players" in r.reason
    # the opponent's Beta is the card knelt (by your Alpha) and stood (by the opponent's Beta), every pass
    assert r.trace is not None
    flips = [[(c.old, c.new) for c in s.changes if c.var.startswith("standing[")] for s in r.trace.steps]
    assert flips == [[(True, False)], [(False, True)]] * 2
    assert all(c.var == "standing[Beta (opp:B)]" for s in r.trace.steps for c in s.changes
               if c.var.startswith("standing["))


def test_your_optional_reaction_with_the_opponents_forced_one_is_yours_to_repeat() -> None:
    enc = _only_candidate({"A": ("Alpha", STOOD.format(kind="Reaction")),
                           "opp:B": ("Beta", KNELT.format(kind="Forced Reaction"))})
    r = _classify(enc)
    assert r.category is Category.UNBOUNDED and r.continued_by == ("you",)
    assert r.reason.endswith("you may repeat it as often as you like: the opponent's abilities on it are forced, "
                             "so only your choices continue it")


def test_the_opponents_optional_reaction_is_not_yours_to_repeat() -> None:
    enc = _only_candidate({"A": ("Alpha", STOOD.format(kind="Forced Reaction")),
                           "opp:B": ("Beta", KNELT.format(kind="Reaction"))})
    r = _classify(enc)
    assert r.category is Category.UNBOUNDED and r.continued_by == ("opponent",)
    assert "only the opponent's choices continue it" in r.reason


def test_scopes_are_read_per_controller() -> None:
    """The same two texts both on your side: Alpha answers only the opponent's characters, so no cycle."""
    abil, _cards_ = _cards({"A": ("Alpha", STOOD.format(kind="Forced Reaction")),
                            "B": ("Beta", KNELT.format(kind="Forced Reaction"))})
    g = build_ability_graph(abil)
    assert not g.has_edge(("A", 0), ("B", 0)) and find_candidates(g) == ()
    abil2, _ = _cards({"A": ("Alpha", STOOD.format(kind="Forced Reaction")),
                       "opp:B": ("Beta", KNELT.format(kind="Forced Reaction"))})
    g2 = build_ability_graph(abil2)
    assert g2.nodes[("opp:B", 0)]["controller"] == "opponent" and g2.nodes[("A", 0)]["controller"] == "you"
    assert g2.edges[("A", 0), ("opp:B", 0)]["cross_player"] == "true"
    assert g2.edges[("A", 0), ("opp:B", 0)]["reason"].startswith("[your ability -> the opponent's ability] "
                                                                  "effect kneel -> knelt")


# --------------------------------------------------------------------------- a discard from hand by the opponent

DRAWS = "<b>Reaction:</b> After a card is discarded from your hand, draw 1 card."
MAKES_DISCARD = ("<b>Forced Reaction:</b> After an opponent draws a card, each opponent discards 1 card from his or "
                 "her hand.")


def test_opponents_discard_from_your_hand_answers_your_reaction_but_the_deck_runs_down() -> None:
    enc = _only_candidate({"A": ("Alpha", DRAWS), "opp:B": ("Beta", MAKES_DISCARD)})
    # you draw 1 and discard 1 per pass: the hand holds, the draw deck shrinks (Draw Deck; Costs); the semantics
    # table sees it before the solver (nothing refills the deck), and the solver, asked anyway, agrees
    assert isinstance(enc, Encoding) and "draw needs cards in the draw deck" in enc.static
    r = _classify(dataclasses.replace(enc, static=""))
    assert r.category is Category.NOT_A_LOOP
    assert "cards left in the draw deck (you -1, opponent +0 per pass in the witness)" in r.reason
    gain = dict(r.net_gain)
    assert gain["deck"] == -1 and gain["cards_in_hand"] == 0 and gain["opponent_deck"] == 0


def test_discard_from_play_does_not_answer_a_discard_from_hand() -> None:
    abil, _ = _cards({"A": ("Alpha", DRAWS), "opp:B": (
        "Beta", "<b>Forced Reaction:</b> After an opponent draws a card, choose and discard a character from play.")})
    g = build_ability_graph(abil)
    assert g.has_edge(("A", 0), ("opp:B", 0)) and not g.has_edge(("opp:B", 0), ("A", 0))


# --------------------------------------------------------------------------- maxima are player specific

TWIN = "<b>Action:</b> Kneel Twin to choose and stand a character an opponent controls. (Max 1 per round.)"


def test_max_counts_per_player_and_the_mutant_counting_both_players_is_caught() -> None:
    """Limits and Maxima: "All limits and maxima are player specific": each player's Twin fires once."""
    enc = _only_candidate({"T": ("Twin", TWIN), "opp:T": ("Twin", TWIN)})
    r = _classify(enc)
    assert r.category is Category.LIMITED and r.passes == 1
    assert r.trace is not None and len(r.trace.steps) == 2
    everything = frozenset(enc.limited())
    ok = build_model(enc, ModelSpec(limits=everything, passes=(1,)))
    assert bmc.check(ok, ok.prop("passes>=1"), Options(depth=enc.n)).verdict is Verdict.PROVED
    # mutant: the maximum counted over both players' copies of the title stops the opponent's Twin
    mutant = build_model(enc, ModelSpec(limits=everything, passes=(1,), mutant="max_across_players"))
    res = bmc.check(mutant, mutant.prop("passes>=1"), Options(depth=enc.n))
    assert res.verdict is Verdict.UNKNOWN and res.reason.startswith("target not reached")
