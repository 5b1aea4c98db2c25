"""Copies of one card for one player, and honest completeness (issue 12 §2, §3 "a card that leaves play and
re-enters is a new copy (its Limit resets, a Max per title does not)").

Drowned God Fanatic (11051): "Action: Kill a character to put Drowned God Fanatic into play from your dead pile.
(Max once per round.)".  Two copies, one in play and one in the dead pile: the dead copy kills the other to come
back, and the killed copy could do the same.  A Max counts every copy by title (Limits and Maxima), so the title
fires once per round: never a whole pass of the two-copy cycle in one round.  Its interrupt ("... place ~ into your
dead pile from your hand to cancel those effects") is not read in full, so no answer about these cards is complete.
"""

from __future__ import annotations

import io
import json
from typing import Any

from realcards import POOL, encoding, keyed

from ruleproof.cards.graph import Candidate, card_key, split_key, two_player_abilities
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines import bmc
from ruleproof.engines.common import Options
from ruleproof.loops import Category, find_loops
from ruleproof.loops.cli import loops
from ruleproof.loops.encode import Direction, Encoding, ModelSpec, Unsupported, build_model, encode
from ruleproof.results import Verdict

FANATIC = "11051"
SECOND = card_key(FANATIC, copy=2)


def _cli(args: list[str]) -> tuple[int, dict[str, Any]]:
    out, err = io.StringIO(), io.StringIO()

    class S:
        def __init__(self) -> None:
            self.out, self.err = out, err

    rv = loops.main(args=args + ["--json"], prog_name="loops", standalone_mode=False, obj=S())
    return int(rv), json.loads(out.getvalue())


def test_a_code_named_twice_is_two_copies_for_that_player() -> None:
    assert SECOND == "11051/2" and split_key(SECOND) == ("you", FANATIC) and split_key("opp:11051/2")[1] == FANATIC
    both = two_player_abilities({FANATIC: ()}, [FANATIC, FANATIC], [FANATIC])
    assert list(both) == [FANATIC, SECOND, "opp:11051"]


def test_two_fanatics_take_turns_once_per_round_and_the_report_is_not_complete() -> None:
    """The two-copy cycle is found and bounded by the Max; each copy alone never repeats.  The unread interrupt
    keeps the report incomplete: exit 3, ``complete`` false, not "nothing found" with exit 0."""
    rep = find_loops(POOL, codes=[FANATIC, FANATIC], timeout=30)
    by_cycle = {r.abilities: r for r in rep.results}
    pair = by_cycle[((FANATIC, 0), (SECOND, 0))]
    assert pair.category is Category.LIMITED and pair.passes == 0
    assert "max 1 per round" in pair.reason and "1 of its 2 abilities fires in cycle order" in pair.reason
    assert pair.trace is not None and len(pair.trace.steps) == 1  # one copy kills the other to come back
    assert by_cycle[((FANATIC, 0),)].category is Category.NOT_A_LOOP
    # the interrupt's cost "place ~ into your dead pile from your hand" is not read: it could put a Fanatic where
    # the other ability takes one from, so it could close a cycle
    assert [u.key for u in rep.unread] == [FANATIC] and [u.key for u in rep.through_unread] == [FANATIC]
    assert not rep.complete
    rc, obj = _cli(["--cards", FANATIC, "--cards", FANATIC])
    assert rc == 3 and obj["complete"] is False and obj["unread"][0]["could_link"] == ["out", "in"]


def test_mutant_max_per_copy_is_caught() -> None:
    """Each copy counting only its own uses would let the pair make a whole pass every round."""
    enc = encoding([(FANATIC, 0), (SECOND, 0)])
    everything = frozenset(enc.limited())
    for mutant, reached in (("", False), ("max_per_copy", True)):
        m = build_model(enc, ModelSpec(limits=everything, passes=(1,), mutant=mutant))
        res = bmc.check(m, m.prop("passes>=1"), Options(depth=enc.n, rlimit=DEFAULT_RLIMIT, timeout=600))
        assert (res.verdict is Verdict.PROVED) is reached, (mutant, res)


def test_two_copies_of_a_unique_card_for_one_player_are_not_modelled() -> None:
    """Only one copy of a unique card can be in play for a player (the other is a duplicate); the model lets both
    be, so it refuses a candidate with both copies on the cycle rather than answer.  A second copy off the cycle
    can only be the duplicate of the first: it is left out, and named (narrows)."""
    lew = "19009"  # Left Hand Lew, unique
    second = card_key(lew, copy=2)
    abil, cards = keyed([lew, second])

    both = Candidate((lew, second), ((lew, 1), (second, 1)), (), (), False, True)
    got = encode(both, abil, cards)
    assert isinstance(got, Unsupported) and "two copies of a unique card" in got.reason
    cand = Candidate((lew,), ((lew, 1),), (), (), False, True)
    enc = encode(cand, abil, cards, named=[cards[second]])
    assert isinstance(enc, Encoding) and [c.code for c in enc.cards] == [lew]
    (left,) = enc.left_out
    assert left.label == f"Left Hand Lew ({second})" and left.direction is Direction.NARROWS
