"""Lasso classification of hand-made loop candidates, one per category (and mutants of the rules)."""

from __future__ import annotations

import dataclasses

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    ClauseRole,
    Compiled,
    Cost,
    CostKind,
    Effect,
    EffectKind,
    EventKind,
    Scope,
    Subject,
    Target,
    TargetRef,
    Trigger,
    Unread,
    Zone,
)
from ruleproof.cards.compiler import compile_text
from ruleproof.cards.graph import CardFacts, build_ability_graph, find_candidates
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import replay
from ruleproof.evaluator import Evaluator
from ruleproof.loops.encode import Encoding, LoopCard, ModelSpec, Unsupported, build_model, encode
from ruleproof.loops.lasso import Category, LoopResult, classify
from ruleproof.results import RawTrace

STAND_OTHER = "<b>Action:</b> Kneel {n} to choose and stand another character you control.{lim}"


def _card(code: str, name: str, ctype: str = "character", traits: tuple[str, ...] = ()) -> LoopCard:
    return LoopCard(code, name, ctype, "stark", traits, cost=2, strength=2)


def _pair(ta: str, tb: str, ta_type: str = "character", tb_type: str = "character") -> Encoding | Unsupported:
    cards = {"A": _card("A", "Alpha", ta_type), "B": _card("B", "Beta", tb_type)}
    abil = {"A": compile_text(ta, "Alpha", card_type=ta_type), "B": compile_text(tb, "Beta", card_type=tb_type)}
    return _encode_only(abil, cards)


def _encode_only(abil: dict[str, tuple[Ability, ...]], cards: dict[str, LoopCard]) -> Encoding | Unsupported:
    facts = {c: CardFacts(c, v.name, v.type, v.faction, v.traits) for c, v in cards.items()}
    (cand,) = [c for c in find_candidates(build_ability_graph(abil, facts)) if len(c.abilities) == 2]
    return encode(cand, abil, cards)


def _classify(enc: Encoding | Unsupported) -> LoopResult:
    assert isinstance(enc, Encoding), enc
    return classify(enc, timeout=30)


def _replays_passes(enc: Encoding, r: LoopResult, passes: int) -> None:
    """The witness is a replayed run whose last step completes pass ``passes``."""
    assert r.trace is not None and r.trace_passes == passes
    assert len(r.trace.steps) == passes * enc.n
    # replay once more, independently, on a fresh evaluator of the unlimited model
    system = build_model(enc, ModelSpec(limits=frozenset(enc.limited()), passes=(passes,)))
    idx = [v.name for v in system.vars]
    assert tuple(r.trace.var_names) == tuple(idx)
    ev = Evaluator(system)
    steps = []
    for s, _st in zip(r.trace.steps, r.trace.states[1:], strict=True):
        ai = next(i for i, a in enumerate(system.actions) if a.label == s.action)
        choices = tuple((c.name, _raw_choice(system.actions[ai], c.name, v)) for c in system.actions[ai].choices
                        for k, v in s.choices if k == c.label)
        steps.append((ai, choices))
    raw = RawTrace(tuple(r.trace.states), tuple(steps))
    t = replay(system, ev, raw, system.prop(f"passes>={passes}"))
    assert len(t.steps) == passes * enc.n


def _raw_choice(action, name, shown):  # type: ignore[no-untyped-def]
    c = next(c for c in action.choices if c.name == name)
    t = c.type
    if hasattr(t, "labels") and t.labels and shown in t.labels:
        return t.values[t.labels.index(shown)]
    return shown


# --------------------------------------------------------------------------- the FAQ's example


def test_faq_kneel_to_stand_each_other_is_unbounded() -> None:
    enc = _pair(STAND_OTHER.format(n="Alpha", lim=""), STAND_OTHER.format(n="Beta", lim=""))
    r = _classify(enc)
    assert r.category is Category.UNBOUNDED and r.passes is None
    assert dict(r.net_gain)["gold"] == 0 and dict(r.net_gain)["standing_characters"] == 0
    _replays_passes(enc, r, 2)


def test_faq_pair_with_a_limit_once_per_phase_is_limited_to_one_pass() -> None:
    enc = _pair(STAND_OTHER.format(n="Alpha", lim=" (Limit once per phase.)"), STAND_OTHER.format(n="Beta", lim=""))
    r = _classify(enc)
    assert r.category is Category.LIMITED and r.passes == 1
    assert r.binding == ("Alpha (A#0): limit 1 per phase",)
    _replays_passes(enc, r, 1)


def test_the_smaller_limit_binds() -> None:
    enc = _pair(STAND_OTHER.format(n="Alpha", lim=" (Limit 3 times per phase.)"),
                STAND_OTHER.format(n="Beta", lim=" (Limit twice per phase.)"))
    r = _classify(enc)
    assert r.category is Category.LIMITED and r.passes == 2
    assert r.binding == ("Beta (B#0): limit 2 per phase",)
    _replays_passes(enc, r, 2)


def test_mutant_limit_not_enforced_makes_it_unbounded() -> None:
    """Mutant of "Limits and Maxima": drop the limit and the same pair repeats forever."""
    enc = _pair(STAND_OTHER.format(n="Alpha", lim=" (Limit once per phase.)"), STAND_OTHER.format(n="Beta", lim=""))
    assert isinstance(enc, Encoding)
    system = build_model(enc, ModelSpec(limits=frozenset(), passes=(3,)))
    from ruleproof.engines import bmc
    from ruleproof.engines.common import Options
    from ruleproof.results import Verdict

    r3 = bmc.check(system, system.prop("passes>=3"), Options(depth=3 * enc.n))
    assert r3.verdict is Verdict.PROVED and r3.trace is not None  # the limit was what stopped it
    enforced = build_model(enc, ModelSpec(limits=frozenset({0}), passes=(2,)))
    r2 = bmc.check(enforced, enforced.prop("passes>=2"), Options(depth=2 * enc.n))
    assert r2.verdict is Verdict.UNKNOWN and r2.reason.startswith("target not reached")


# --------------------------------------------------------------------------- forced


def test_forced_pair_is_mandatory() -> None:
    enc = _pair("<b>Forced Reaction:</b> After a character you control is knelt, stand it.",
                "<b>Forced Reaction:</b> After a character you control stands, kneel it.")
    r = _classify(enc)
    assert r.category is Category.MANDATORY
    assert "forced" in r.reason
    _replays_passes(enc, r, 2)


def test_forced_pair_with_limit_is_limited_not_mandatory() -> None:
    enc = _pair("<b>Forced Reaction:</b> After a character you control is knelt, stand it. (Limit twice per round.)",
                "<b>Forced Reaction:</b> After a character you control stands, kneel it.")
    r = _classify(enc)
    assert r.category is Category.LIMITED and r.passes == 2
    assert r.binding == ("Alpha (A#0): limit 2 per round",)


# --------------------------------------------------------------------------- not a loop


def test_cost_paid_from_a_shrinking_gold_pool_is_not_a_loop() -> None:
    enc = _pair("<b>Action:</b> Pay 2 gold to choose and stand a character.",
                "<b>Action:</b> Kneel Beta to gain 1 gold.")
    r = _classify(enc)
    assert r.category is Category.NOT_A_LOOP
    assert "gold (-1 per pass" in r.reason
    assert dict(r.net_gain)["gold"] == -1 and r.trace is not None
    # the same pair when the gold comes back in full: a loop
    ok = _classify(_pair("<b>Action:</b> Pay 1 gold to choose and stand a character.",
                         "<b>Action:</b> Kneel Beta to gain 1 gold."))
    assert ok.category is Category.UNBOUNDED and dict(ok.net_gain)["gold"] == 0


# "Kneel Beta to put a character you own into play from your hand", written as a structured ability
PUT_FROM_HAND = Ability(AbilityType.ACTION, costs=(Cost(CostKind.KNEEL, Target(TargetRef.SELF, Subject())),),
                        effects=(Effect(EffectKind.PUT_INTO_PLAY, 1, Target(TargetRef.CHOSEN, Subject(
                            Scope.YOU_OWN, CardKind.CHARACTER, zone=Zone.HAND))),))


def _with_put(first: str) -> Encoding | Unsupported:
    cards = {"A": _card("A", "Alpha"), "B": _card("B", "Beta")}
    return _encode_only({"A": compile_text(first, "Alpha"), "B": (PUT_FROM_HAND,)}, cards)


def test_sacrifice_cost_cannot_be_paid_twice() -> None:
    enc = _with_put("<b>Action:</b> Sacrifice Alpha to choose and stand a character.")
    r = _classify(enc)
    assert r.category is Category.NOT_A_LOOP
    # sacrificed to the discard pile (Sacrifice), Alpha is not in hand: Beta has nothing to put into play; the
    # semantics table says so (nothing in the cycle puts a card in hand), and so does the solver
    assert r.reason.startswith("Beta (B#0): no effect can change the game state again (put into play needs in hand")
    assert isinstance(enc, Encoding)
    solved = _classify(dataclasses.replace(enc, static=""))
    assert solved.reason.startswith("Beta (B#0) can never fire after Alpha (A#0)")


def test_return_to_hand_cost_makes_it_a_loop() -> None:
    enc = _with_put("<b>Action:</b> Return Alpha to your hand to choose and stand a character.")
    assert _classify(enc).category is Category.UNBOUNDED


def test_effect_that_would_not_change_the_game_state_cannot_initiate() -> None:
    """Abilities: the effect test ignores the cost, so kneeling Alpha to stand Alpha is never legal."""
    a = compile_text("<b>Action:</b> Kneel Alpha to choose and stand a character you control.", "Alpha")
    cards = {"A": _card("A", "Alpha")}
    facts = {"A": CardFacts("A", "Alpha", "character", "stark")}
    (cand,) = find_candidates(build_ability_graph({"A": a}, facts))
    enc = encode(cand, {"A": a}, cards)
    assert isinstance(enc, Encoding)
    r = classify(enc, timeout=30)
    assert r.category is Category.NOT_A_LOOP and "can never fire" in r.reason


def test_missing_target_is_named() -> None:
    knights = "<b>Action:</b> Kneel a «Knight» character to choose and stand another «Knight» character."
    a = compile_text(knights, "Drill")
    cards = {"E": LoopCard("E", "Drill", "event", "stark", cost=0)}
    facts = {"E": CardFacts("E", "Drill", "event", "stark")}
    (cand,) = find_candidates(build_ability_graph({"E": a}, facts))
    r = classify(encode(cand, {"E": a}, cards), timeout=30)  # type: ignore[arg-type]
    assert r.category is Category.NOT_A_LOOP and "«Knight» character" in r.reason


def _save_pair(removal: EffectKind, trigger_event: EventKind) -> Encoding | Unsupported:
    """Alpha: kneel Alpha to <removal> another character you control.  Beta: when Beta would <...>, save it and
    stand a character."""
    other = Target(TargetRef.CHOSEN, Subject(Scope.YOU_CONTROL, CardKind.CHARACTER, other=True))
    a = Ability(AbilityType.ACTION, costs=(Cost(CostKind.KNEEL, Target(TargetRef.SELF, Subject(Scope.SELF))),),
                effects=(Effect(removal, 1, other),))
    b = Ability(AbilityType.INTERRUPT, Trigger(trigger_event, Subject(Scope.SELF, CardKind.CHARACTER)),
                effects=(Effect(EffectKind.SAVE, 1, Target(TargetRef.TRIGGER, Subject(Scope.SELF))),
                         Effect(EffectKind.STAND, 1, other)))
    return _encode_only({"A": (a,), "B": (b,)}, {"A": _card("A", "Alpha"), "B": _card("B", "Beta")})


def test_interrupt_save_keeps_the_card_in_play() -> None:
    enc = _save_pair(EffectKind.KILL, EventKind.WOULD_BE_KILLED)
    r = _classify(enc)
    assert r.category is Category.UNBOUNDED
    assert isinstance(enc, Encoding)
    _replays_passes(enc, r, 2)


def test_a_sacrificed_card_cannot_be_saved() -> None:
    """Save / Sacrifice: the interrupt still stands Alpha, but Beta leaves play for good."""
    r = _classify(_save_pair(EffectKind.SACRIFICE, EventKind.WOULD_LEAVE_PLAY))
    assert r.category is Category.NOT_A_LOOP
    killed = _classify(_save_pair(EffectKind.KILL, EventKind.WOULD_LEAVE_PLAY))
    assert killed.category is Category.UNBOUNDED  # the same interrupt does save from a kill


# --------------------------------------------------------------------------- unsupported


def _faq_pair_with(unread: Unread) -> Encoding | Unsupported:
    part = Ability(AbilityType.ACTION, costs=(Cost(CostKind.KNEEL, Target(TargetRef.SELF, Subject())),),
                   effects=(Effect(EffectKind.STAND, 1, Target(TargetRef.CHOSEN, Subject(card_type=CardKind.CHARACTER,
                                                                                           other=True))),),
                   compiled=Compiled.PARTIAL, unread=(unread,))
    full = compile_text(STAND_OTHER.format(n="Beta", lim=""), "Beta")
    cards = {"A": _card("A", "Alpha"), "B": _card("B", "Beta")}
    return _encode_only({"A": (part,), "B": full}, cards)


def test_a_loop_found_without_an_unread_restriction_is_unknown_naming_it() -> None:
    """An unread condition only restricts Alpha: the model (without it) loops, the printed card may not."""
    enc = _faq_pair_with(Unread("unless it is winter", ClauseRole.CONDITION))
    assert isinstance(enc, Encoding)
    assert [x.phrase for x in enc.left_out] == ["condition not read: 'unless it is winter'"]
    r = _classify(enc)
    assert r.category is Category.UNKNOWN and r.trace is None
    assert "restrictions that could stop it" in r.reason and "unless it is winter" in r.reason


def test_a_loop_found_without_an_unread_alternative_is_a_loop_naming_it() -> None:
    """An unread "or location" only adds targets: the loop found without it is a loop of the printed card."""
    enc = _faq_pair_with(Unread("or location", ClauseRole.ALTERNATIVE))
    r = _classify(enc)
    assert r.category is Category.UNBOUNDED and "found without" in r.reason and "or location" in r.reason
    assert r.left_out == ("Alpha (A#0): alternative not read: 'or location' (narrows)",)


def test_an_unread_effect_makes_any_answer_unknown() -> None:
    """An unread mandatory effect could help or stop the loop: no answer, and the solver is not asked."""
    enc = _faq_pair_with(Unread("then discard a card", ClauseRole.EFFECT))
    r = _classify(enc)
    assert r.category is Category.UNKNOWN and "then discard a card" in r.reason
    assert r.reason.startswith("the answer depends on text the model leaves out") and r.trace is None


def test_not_a_loop_found_without_an_unread_alternative_is_unknown() -> None:
    """Gold runs down in the model; the unread alternative could pay differently, so "not a loop" is unknown."""
    a = compile_text("<b>Action:</b> Pay 2 gold to choose and stand a character.", "Alpha")
    alt = Unread("or kneel a card", ClauseRole.ALTERNATIVE)
    a = (dataclasses.replace(a[0], compiled=Compiled.PARTIAL, unread=(alt,)),)
    b = compile_text("<b>Action:</b> Kneel Beta to gain 1 gold.", "Beta")
    enc = _encode_only({"A": a, "B": b}, {"A": _card("A", "Alpha"), "B": _card("B", "Beta")})
    r = _classify(enc)
    assert r.category is Category.UNKNOWN and "or kneel a card" in r.reason and "gold" in r.reason


# --------------------------------------------------------------------------- the word "Then"

THEN_PAIR = ("<b>Action:</b> Kneel Alpha to gain 1 gold.",
             "<b>Reaction:</b> After a character is knelt, draw 1 card. Then, stand that character.")


def _lasso_reachable(enc: Encoding, mutant: str = "") -> bool:
    from ruleproof.engines import bmc
    from ruleproof.engines.common import Options
    from ruleproof.results import Verdict

    system = build_model(enc, ModelSpec(lasso_drop=((),), mutant=mutant))
    r = bmc.check(system, system.prop("lasso"), Options(depth=2 * enc.n, rlimit=DEFAULT_RLIMIT, timeout=600))
    assert r.verdict in (Verdict.PROVED, Verdict.UNKNOWN) and (r.verdict is Verdict.PROVED or "not reached" in r.reason)
    return r.verdict is Verdict.PROVED


def test_post_then_effect_needs_the_pre_then_effect_in_full() -> None:
    """The word "Then": with an empty deck the draw fails, so the character is not stood and the loop ends."""
    enc = _pair(*THEN_PAIR)
    assert isinstance(enc, Encoding) and [e.then for e in enc.abilities[1].effects] == [False, True]
    r = _classify(enc)
    assert r.category is Category.NOT_A_LOOP and "deck" in r.reason, r.reason
    assert not _lasso_reachable(enc)


def test_mutant_then_ignored_makes_it_unbounded() -> None:
    """Mutant: stand the character even when the draw failed; the pair then repeats forever on an empty deck."""
    enc = _pair(*THEN_PAIR)
    assert isinstance(enc, Encoding)
    assert _lasso_reachable(enc, mutant="then_ignored")


def test_without_then_the_same_pair_is_a_loop() -> None:
    """"Draw 1 card and stand that character": the stand does not wait for the draw (control for the two above)."""
    enc = _pair(THEN_PAIR[0], THEN_PAIR[1].replace(". Then, stand", " and stand"))
    assert isinstance(enc, Encoding) and not any(e.then for e in enc.abilities[1].effects)
    assert _classify(enc).category is Category.UNBOUNDED


def test_a_standing_jaime_does_not_discard_the_character_that_entered_play() -> None:
    """Ser Jaime Lannister's text ("stand ~. Then, discard that character from play"): the pre-then stand cannot
    change a standing ~, so the forced reaction cannot initiate and the character stays in play."""
    from ruleproof.cards.graph import Candidate
    from ruleproof.evaluator import Evaluator

    jaime = ("<b>Forced Reaction:</b> After a character enters play, stand Alpha. "
             "Then, discard that character from play.")
    enter = "<b>Action:</b> Put Beta into play from your hand."
    abil = {"B": compile_text(enter, "Beta"), "A": compile_text(jaime, "Alpha")}
    assert all(a.compiled is Compiled.FULL for x in abil.values() for a in x)
    cand = Candidate(("B", "A"), (("B", 0), ("A", 0)), (), (), False, True)
    enc = encode(cand, abil, {"A": _card("A", "Alpha"), "B": _card("B", "Beta")})
    assert isinstance(enc, Encoding), enc
    ev = Evaluator(build_model(enc, ModelSpec()))
    start = ev.as_dict(next(ev.initial_states()))
    for standing in (True, False):
        s = dict(start)
        s.update({"zone[cA]": "play", "standing[cA]": standing, "zone[cB]": "hand", "standing[cB]": True, "pos": 0})
        s.update({k: False for k in s if k.startswith("pending[")})
        after = ev.apply(0, ev.from_dict(s), {})
        assert after is not None and ev.as_dict(after)["zone[cB]"] == "play"
        fired = ev.apply(1, after, {})
        if standing:
            assert fired is None  # nothing to stand: the ability cannot initiate, the discard never happens
        else:
            assert fired is not None and ev.as_dict(fired)["zone[cB]"] == "discard"
