"""Gold-economy invariants on growing scenarios: symbolic engines vs explicit search.

Run:  PYTHONHASHSEED=0 python benchmarks/bench_gold.py [--max-cards 12] [--explicit-cap 300000]

For 2 players and 2..12 cards (starting pools growing up to 0..25 each), it checks the
gold-economy invariants with k-induction (``kind``, proofs) and with explicit
breadth-first search (bounded by a state cap), and prints per size the time
of each and the ratio explicit/symbolic, measured in the same run.  Expected
shape: explicit search grows with the number of states (and hits its cap),
the k-induction proof stays nearly flat.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ruleproof.engines import explicit, kind
from ruleproof.engines.common import Options
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict

ROOT = Path(__file__).resolve().parents[1]
PROPS = (
    "gold is conserved",
    "no gold pool, treasury or token count goes below zero",
    "a card out of play carries no tokens",
)


def gold_params(cards: int) -> tuple[int, dict[str, int]]:
    """The size's gold (both starting pools together at most) and the gold system's build parameters.

    The treasury is unlimited (review fix F5: gold tokens are not limited), so the size is the pools' start.
    """
    max_gold = min(50, 5 * cards)
    return max_gold, {"players": 2, "cards": cards, "max_start_gold": max_gold // 2}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-cards", type=int, default=12)
    ap.add_argument("--explicit-cap", type=int, default=300_000)
    ap.add_argument("--depth", type=int, default=6)
    args = ap.parse_args()
    spec = discover(ROOT / "model" / "agot" / "gold.py")[0]
    print(f"{'cards':>5} {'gold':>5} {'kind s':>8} {'explicit s':>11} {'explicit/kind':>14}  explicit states / verdict")
    for cards in range(2, args.max_cards + 1, 2):
        max_gold, params = gold_params(cards)
        s = load_system(spec, "default", params)
        t0 = time.perf_counter()
        for name in PROPS:
            r = kind.check(s, s.prop(name), Options(kmax=4))
            assert r.verdict is Verdict.PROVED, (name, r)
        tk = time.perf_counter() - t0
        t0 = time.perf_counter()
        verdicts = []
        for name in PROPS:
            r = explicit.check(s, s.prop(name), Options(depth=args.depth, max_states=args.explicit_cap))
            verdicts.append(f"{r.verdict.value}({r.depth})")
        te = time.perf_counter() - t0
        print(f"{cards:>5} {max_gold:>5} {tk:>8.3f} {te:>11.3f} {te / tk:>14.1f}  {verdicts[0]}: {r.reason}")


if __name__ == "__main__":
    main()
