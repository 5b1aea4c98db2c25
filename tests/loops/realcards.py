"""Helpers of the loop tests: real cards of the vendored pool in a loop model, and single steps of it.

:func:`model` builds the loop model of a cycle of real abilities (card keys
``CODE`` / ``opp:CODE``) with other named cards in it; :class:`Run` applies
steps to a chosen state on the concrete evaluator, so a test can say what one
ability does to the game state, under the rules and under a mutant.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Mapping

from ruleproof.cards.abilities import Ability
from ruleproof.cards.graph import Candidate, split_key, two_player_abilities
from ruleproof.cards.overrides import Overrides, compile_pool, parse_overrides
from ruleproof.cards.pool import Pool, load_pool
from ruleproof.evaluator import Evaluator
from ruleproof.ir import System
from ruleproof.loops.encode import Encoding, LoopCard, ModelSpec, build_model, cid, encode
from ruleproof.loops.search import loop_card

POOL: Pool = load_pool()


def keyed(codes: Iterable[str], overrides: str = "") -> tuple[dict[str, tuple[Ability, ...]], dict[str, LoopCard]]:
    """Abilities and card facts of real cards by key (``opp:CODE`` for the opponent's copy, ``CODE/2`` for a second
    copy; a second copy's key comes after the first's)."""
    keys = list(codes)
    ov: Overrides | None = parse_overrides(overrides, "test.yaml") if overrides else None
    plain = list(dict.fromkeys(split_key(k)[1] for k in keys))
    compiled = compile_pool(POOL, ov, plain)
    abil = two_player_abilities(compiled, [split_key(k)[1] for k in keys if split_key(k)[0] == "you"],
                                [split_key(k)[1] for k in keys if split_key(k)[0] == "opponent"])
    cards: dict[str, LoopCard] = {}
    for k in keys:
        who, code = split_key(k)
        card = POOL.get(code)
        assert card is not None, code
        cards[k] = dataclasses.replace(loop_card(card, "opp" if who == "opponent" else "you"), code=k)
    return abil, cards


def encoding(cycle: list[tuple[str, int]], named: Iterable[str] = (), overrides: str = "") -> Encoding:
    """The encoding of the cycle of abilities ``cycle`` (card key, ability index), with the ``named`` cards in the
    model too (as ``ruleproof loops --cards`` puts every named card in)."""
    keys = list(dict.fromkeys([k for k, _ in cycle] + list(named)))
    abil, cards = keyed(keys, overrides)
    cand = Candidate(tuple(sorted({k for k, _ in cycle})), tuple(cycle), (), (), False, True)
    enc = encode(cand, abil, cards, named=[cards[k] for k in named])
    assert isinstance(enc, Encoding), enc
    return enc


def model(enc: Encoding, mutant: str = "") -> System:
    """The loop model of ``enc`` (the rules as written, or a mutant)."""
    return build_model(enc, ModelSpec(mutant=mutant))


class Run:
    """Single steps of a loop model from a state the test describes (card keys and plain values)."""

    def __init__(self, system: System, **state: Any) -> None:
        self.system = system
        self.ev = Evaluator(system)
        start = {iv.var: iv.values[0] for iv in system.init_vars}  # any start: the test sets what matters
        start.update({k: True for k in start if k.startswith("standing[")})
        start.update({k: False for k in start if k.startswith("pending[")})
        start.update({k: "none" for k in start if k.startswith("imm[")})
        self.state = dict(start)
        self.set(**state)

    def set(self, **state: Any) -> Run:
        """Set variables: ``zone={"17122": "play"}`` sets ``zone[c17122]``; ``gold={"you": 3}``; ``pos=0``."""
        for var, val in state.items():
            if isinstance(val, Mapping):
                for key, v in val.items():
                    name = f"{var}[{cid(key) if f'{var}[{cid(key)}]' in self.state else key}]"
                    assert name in self.state, name
                    self.state[name] = v
            else:
                assert var in self.state, var
                self.state[var] = val
        return self

    def step(self, ability: int, by: str | None = None, **choices: Any) -> bool:
        """Apply the ``ability``-th ability of the cycle (initiated ``by`` a player when that is a choice) with the
        choices (card keys for card choices); False when it cannot fire (also when its guard folded to false and
        the model dropped it)."""
        try:
            index = action(self.system, f"ability{ability}", by)
        except KeyError:
            return False
        a = self.system.actions[index]
        raw: dict[str, Any] = {}
        for c in a.choices:
            if c.name in choices:
                v = choices[c.name]
                raw[c.name] = cid(v) if isinstance(v, str) and cid(v) in getattr(c.type, "values", ()) else v
            elif c.name.startswith("dup_") or c.name.startswith("use"):
                raw[c.name] = False
            else:
                raw[c.name] = next(iter(getattr(c.type, "values", (False,))))
        nxt = self.ev.apply(index, self.ev.from_dict(self.state), raw)
        if nxt is None:
            return False
        self.state = self.ev.as_dict(nxt)
        return True

    def get(self, var: str, key: str) -> Any:
        """The value of ``var`` for card ``key`` (or player/ability name)."""
        name = f"{var}[{cid(key)}]"
        return self.state[name if name in self.state else f"{var}[{key}]"]


def action(system: System, family: str, by: str | None = None) -> int:
    """The index of ability ``family`` (``ability0``...), initiated ``by`` a player when it is a choice."""
    for i, a in enumerate(system.actions):
        if a.family == family and (by is None or dict(a.params).get("p") == by):
            return i
    raise KeyError(family)
