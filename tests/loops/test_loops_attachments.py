"""Attachments in the loop encoder: the host is fixed, "attached character" is the host, and the host leaving play
takes the attachment with it (Attachment Cards, Terminal)."""

from __future__ import annotations

import dataclasses

from ruleproof.cards.abilities import EffectKind, TargetRef
from ruleproof.cards.compiler import compile_text
from ruleproof.cards.graph import CardFacts, build_ability_graph, find_candidates
from ruleproof.cards.pool import load_pool
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines import bmc
from ruleproof.engines.common import Options
from ruleproof.evaluator import Evaluator
from ruleproof.loops.driver import find_loops
from ruleproof.loops.encode import Encoding, LoopCard, ModelSpec, Unsupported, build_model, can_host, encode
from ruleproof.loops.lasso import Category, classify
from ruleproof.results import Verdict

KNEEL_FOR_GOLD = "<b>Action:</b> Kneel {n} to gain 1 gold."
STAND_ATTACHED = "{restriction}\n<b>Action:</b> Pay 1 gold to stand attached character.{limit}"


def _char(code: str, name: str, traits: tuple[str, ...] = (), keywords: tuple[str, ...] = ()) -> LoopCard:
    return LoopCard(code, name, "character", "stark", traits, cost=2, strength=2, keywords=keywords)


def _gift(traits: tuple[str, ...] = (), keywords: tuple[str, ...] = ()) -> LoopCard:
    return LoopCard("G", "Gift", "attachment", "stark", traits, cost=1, keywords=keywords)


def _encode(restriction: str, limit: str = "", bystanders: tuple[LoopCard, ...] = (),
            alpha: LoopCard | None = None) -> Encoding | Unsupported:
    """Alpha kneels itself for 1 gold; the Gift pays 1 gold to stand the character it is attached to."""
    alpha = alpha or _char("A", "Alpha")
    abil = {"A": compile_text(KNEEL_FOR_GOLD.format(n="Alpha"), "Alpha"),
            "G": compile_text(STAND_ATTACHED.format(restriction=restriction, limit=limit), "Gift", "attachment")}
    cards = {"A": alpha, "G": _gift()}
    facts = {k: CardFacts(k, v.name, v.type, v.faction, v.traits) for k, v in cards.items()}
    (cand,) = find_candidates(build_ability_graph(abil, facts))
    return encode(cand, abil, cards, bystanders)


def test_an_attachment_on_the_kneeling_character_is_limited_by_its_limit() -> None:
    enc = _encode("Non-<i>Lady</i> character only.", " (Limit twice per phase.)")
    assert isinstance(enc, Encoding), enc
    assert [c.host for c in enc.cards if c.type == "attachment"] == ["A"]
    r = classify(enc, timeout=30)
    assert r.category is Category.LIMITED and r.passes == 2, r.reason
    assert any("Gift" in b for b in r.binding) and dict(r.net_gain)["gold"] == 0
    assert r.hosts == (("G", "A"),)


def test_without_a_limit_it_repeats_forever() -> None:
    enc = _encode("Non-<i>Lady</i> character only.")
    assert isinstance(enc, Encoding)
    assert classify(enc, timeout=30).category is Category.UNBOUNDED


def test_the_restriction_decides_the_host() -> None:
    """Alpha is no Lady: the Gift goes on Beta (a Lady not on the cycle), so standing Beta never restands Alpha."""
    beta = _char("B", "Beta", ("Lady",))
    enc = _encode("<i>Lady</i> character only.", bystanders=(beta,))
    assert isinstance(enc, Encoding), enc
    assert [c.code for c in enc.cards] == ["A", "G", "B"] and enc.cards[1].host == "B"
    r = classify(enc, timeout=30)
    assert r.category is Category.NOT_A_LOOP, r.reason
    assert "Gift is attached to Beta (B), a card not on the cycle" in r.reason


def test_mutant_attached_any_is_caught() -> None:
    """Mutant: "attached character" read as any character; the Gift on Beta would then stand Alpha forever."""
    enc = _encode("<i>Lady</i> character only.", bystanders=(_char("B", "Beta", ("Lady",)),))
    assert isinstance(enc, Encoding)
    mutant = build_model(enc, ModelSpec(lasso_drop=((),), mutant="attached_any"))
    assert bmc.check(mutant, mutant.prop("lasso"),
            Options(depth=2 * enc.n, rlimit=DEFAULT_RLIMIT, timeout=600)).verdict is Verdict.PROVED
    rules = build_model(enc, ModelSpec(lasso_drop=((),)))
    r = bmc.check(rules, rules.prop("lasso"), Options(depth=2 * enc.n, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict is Verdict.UNKNOWN and r.reason.startswith("target not reached"), r.reason  # not a timeout


def test_no_host_is_unsupported_with_the_reason() -> None:
    r = _encode("<i>Lady</i> character only.")
    assert isinstance(r, Unsupported) and "no card can host" in r.reason
    no_att = _encode("Non-<i>Lady</i> character only.", alpha=_char("A", "Alpha", keywords=("no attachments",)))
    assert isinstance(no_att, Unsupported)


def test_no_attachments_except_a_trait() -> None:
    weapon = LoopCard("W", "Sword", "attachment", "stark", ("Weapon",))
    cloak = LoopCard("C", "Cloak", "attachment", "stark", ("Item",))
    satin = _char("S", "Satin", keywords=("no attachments except weapon",))
    from ruleproof.cards.abilities import CardKind, Scope, Subject

    char = Subject(Scope.ANY, CardKind.CHARACTER)
    assert can_host(weapon, char, satin) and not can_host(cloak, char, satin)


def _host_leaves(keywords: tuple[str, ...]) -> str:
    """Kill the host with a Gift on it: where does the Gift go?"""
    kill = "<b>Action:</b> Kneel Alpha to choose and kill a character."
    abil = {"A": compile_text(kill, "Alpha"),
            "G": compile_text(STAND_ATTACHED.format(restriction="", limit=""), "Gift", "attachment")}
    beta = _char("B", "Beta")
    cards = {"A": _char("A", "Alpha"), "G": _gift(keywords=keywords)}
    from ruleproof.cards.graph import Candidate

    cand = Candidate(("A", "G"), (("A", 0), ("G", 0)), (), (), False, True)
    enc = encode(cand, abil, cards, (beta,))
    assert isinstance(enc, Encoding) and enc.cards[1].host == "A"  # Alpha can host it (first candidate card)
    enc = encode(cand, abil, {"A": cards["A"], "G": cards["G"]}, ())
    assert isinstance(enc, Encoding)
    system = build_model(enc, ModelSpec())
    ev = Evaluator(system)
    s = {iv.var: iv.values[0] for iv in system.init_vars}  # any start; the cards that matter are set below
    s.update({"zone[cA]": "play", "standing[cA]": True, "zone[cG]": "play", "pos": 0})
    s.update({k: False for k in s if k.startswith("pending[")})
    choice = next(c.name for c in system.actions[0].choices)
    after = ev.apply(0, ev.from_dict(s), {choice: "cA"})
    assert after is not None
    d = ev.as_dict(after)
    assert d["zone[cA]"] == "dead"
    return str(d["zone[cG]"])


def test_an_attachment_returns_to_hand_with_its_host_and_a_terminal_one_is_discarded() -> None:
    assert _host_leaves(()) == "hand"
    assert _host_leaves(("terminal",)) == "discard"


def test_queensguard_and_the_new_gift_on_a_steward_from_the_pool() -> None:
    """Real cards: Queensguard has no host among the two, so a «Steward» from the pool carries it."""
    pool = load_pool()
    r = find_loops(pool, codes=["11054", "07017"], timeout=30)
    (x,) = [x for x in r.results if x.hosts]
    host = x.hosts[0][1]
    assert x.hosts[0][0] == "11054" and host not in ("11054", "07017")
    assert "Steward" in pool.get(host).traits and "Lady" not in pool.get(host).traits
    assert x.category is not Category.UNSUPPORTED and "a card not on the cycle" in x.reason


def test_a_cost_free_stand_is_re_enabled_by_the_kneel_cost_it_follows() -> None:
    """Abilities: "Stand attached character" (no cost) can change the game state again once Alpha kneels, so the
    graph links Alpha's kneel cost to it and the pair is a candidate: limited by the Gift's limit, +1 gold a pass."""
    abil = {"A": compile_text(KNEEL_FOR_GOLD.format(n="Alpha"), "Alpha"),
            "G": compile_text("<b>Action:</b> Stand attached character. (Limit twice per phase.)", "Gift",
                              "attachment")}
    g = build_ability_graph(abil)
    assert "cost kneel re-enables effect stand" in g.edges[("A", 0), ("G", 0)]["reason"]
    (cand,) = find_candidates(g)
    enc = encode(cand, abil, {"A": _char("A", "Alpha"), "G": _gift()})
    assert isinstance(enc, Encoding)
    r = classify(enc, timeout=30)
    assert r.category is Category.LIMITED and r.passes == 2 and dict(r.net_gain)["gold"] == 1, r.reason
    # no edge when nothing the ability targets is knelt: a kneel of a location does not re-enable standing a character
    loc = {"L": compile_text("<b>Action:</b> Kneel Keep to gain 1 gold.", "Keep", "location"), "G": abil["G"]}
    facts = {"L": CardFacts("L", "Keep", "location", "stark"), "G": CardFacts("G", "Gift", "attachment", "stark")}
    assert not build_ability_graph(loc, facts).has_edge(("L", 0), ("G", 0))


def test_ser_eldon_stands_the_northern_encampment_once_per_round() -> None:
    """A real pair the whole-pool run finds: Northern Encampment kneels for 2 gold, Ser Eldon Estermont stands a
    [baratheon] location once per round.  The Encampment's constant text is named as not modelled."""
    r = find_loops(load_pool(), codes=["06088", "13047"], timeout=30)
    (x,) = r.results
    assert x.category is Category.LIMITED and x.passes == 1 and dict(x.net_gain)["gold"] == 2
    assert x.binding == ("Ser Eldon Estermont (13047#0): limit 1 per round",)
    assert "Northern Encampment: 'Northern Encampment cannot stand during the standing phase" in x.reason
    assert x.trace is not None and len(x.trace.steps) == 2


# --------------------------------------------------------------------------- gold on cards

KNEEL_ME = "<b>Action:</b> Kneel Alpha to gain 1 gold.\n<b>Action:</b> Pay 1 gold to stand Alpha."


def _dreams(reaction: str) -> Encoding | Unsupported:
    abil = {"A": compile_text(KNEEL_ME, "Alpha"), "G": compile_text(reaction, "Gift", "attachment")}
    cards = {"A": _char("A", "Alpha"), "G": _gift()}
    facts = {k: CardFacts(k, v.name, v.type, v.faction, v.traits) for k, v in cards.items()}
    cands = [c for c in find_candidates(build_ability_graph(abil, facts)) if len(c.abilities) == 3]
    assert len(cands) == 1, cands
    return encode(cands[0], abil, cards)


def test_gold_on_a_card_runs_out() -> None:
    """Fever Dreams' shape: "discard 1 gold from ~" spends gold on the card, which nothing in the cycle restores."""
    enc = _dreams("<b>Reaction:</b> After attached character is knelt, discard 1 gold from Gift to gain 1 gold.")
    assert isinstance(enc, Encoding), enc
    r = classify(enc, timeout=30)
    # the semantics table rules it out before the solver; the solver, asked anyway, agrees and names the same
    assert r.category is Category.NOT_A_LOOP and "spends gold on a card" in r.reason, r.reason
    solved = classify(dataclasses.replace(enc, static=""), timeout=30)
    assert solved.category is Category.NOT_A_LOOP and "each pass spends gold on cards" in solved.reason, solved.reason
    free = _dreams("<b>Reaction:</b> After attached character is knelt, gain 1 gold.")
    assert isinstance(free, Encoding)
    assert classify(free, timeout=30).category is Category.UNBOUNDED  # the same cycle without the card's gold


def test_gold_on_a_card_is_not_the_players_gold() -> None:
    """The graph: "~ gains 1 gold" re-enables "discard 1 gold from ~" on that card only, never a gold cost."""
    abil = {"V": compile_text("<b>Action:</b> Kneel Varys to have Varys gain 1 gold.", "Varys"),
            "S": compile_text("<b>Reaction:</b> After a character is knelt, Sunspear gains 1 gold.", "Sunspear",
                              "location"),
            "P": compile_text("<b>Action:</b> Pay 1 gold to stand a character.", "Payer"),
            "D": compile_text("<b>Action:</b> Discard 1 gold from Dreams to stand a character.", "Dreams")}
    (s_gain,) = abil["S"]
    assert [(e.kind, e.target.ref) for e in s_gain.effects] == [(EffectKind.GAIN_GOLD, TargetRef.SELF)]
    g = build_ability_graph(abil)
    assert not g.has_edge(("S", 0), ("P", 0)) and not g.has_edge(("S", 0), ("D", 0))
    both = build_ability_graph({"S": abil["S"], "D2": compile_text(
        "<b>Action:</b> Discard 1 gold from Sunspear to stand a character.", "Sunspear", "location")})
    assert not both.has_edge(("S", 0), ("D2", 0))  # another card's gold, even with the same name


def test_two_attachments_on_one_bystander_add_it_once() -> None:
    """Regression: the second attachment found the bystander the first one brought in and added it again."""
    from ruleproof.cards.graph import Candidate

    stand = compile_text("<b>Action:</b> Pay 1 gold to stand attached character.", "Gift", "attachment")
    abil = {"A": compile_text(KNEEL_FOR_GOLD.format(n="Alpha"), "Alpha"), "G": stand, "H": stand}
    cards = {"A": LoopCard("A", "Alpha", "location", "stark"), "G": _gift(),
             "H": LoopCard("H", "Hat", "attachment", "stark", cost=1)}
    cand = Candidate(("A", "G", "H"), (("A", 0), ("G", 0), ("H", 0)), (), (), False, True)
    enc = encode(cand, abil, cards, (_char("B", "Beta"),))
    assert isinstance(enc, Encoding), enc
    assert [c.code for c in enc.cards] == ["A", "G", "H", "B"]
    assert [c.host for c in enc.cards] == [None, "B", "B", None]
    build_model(enc, ModelSpec())  # the card sort has no duplicate


def test_an_ill_formed_candidate_model_is_unknown_not_a_crash() -> None:
    """A loop-encoder bug on one candidate (here: a card listed twice) yields UNKNOWN with the reason, so a
    whole-pool run still reports every other candidate."""
    from dataclasses import replace

    enc = _encode("Non-<i>Lady</i> character only.")
    assert isinstance(enc, Encoding)
    broken = replace(enc, cards=enc.cards + (enc.cards[0],))
    r = classify(broken, timeout=30)
    assert r.category is Category.UNKNOWN and "a ruleproof bug" in r.reason and "twice" in r.reason
