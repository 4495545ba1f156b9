"""Run Buster timings: the whole exact solve, loading the shipped table, and one advice (medians).

Run from the repository root: python3 -m bench.bench_runbuster [--solves 3] [--advice 2000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.runbuster.solver import HANDS, advise, solve, value_table
from engine.runbuster.straights import DICE_PER_PLAYER


def median_seconds(runs: int, action: Callable[[], object]) -> float:
    """The median wall time of `runs` calls of `action`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--solves", type=int, default=3)
    parser.add_argument("--advice", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    solve_s = median_seconds(args.solves, solve)
    print(f"whole game, exact solve (441 positions): {solve_s:.2f} s median of {args.solves}")

    def load() -> None:
        value_table.cache_clear()
        value_table()

    print(f"loading the shipped table: {median_seconds(5, load) * 1000:.1f} ms median of 5")

    rng = random.Random(args.seed)
    cases = []
    for _ in range(args.advice):
        hand, opponent = rng.choice(HANDS), rng.choice(HANDS)
        roll = tuple(rng.randint(1, 6) for _ in range(DICE_PER_PLAYER - len(hand)))
        cases.append((hand, opponent, roll))
    times = []
    for hand, opponent, roll in cases:
        start = time.perf_counter()
        advise(hand, opponent, roll)
        times.append(time.perf_counter() - start)
    advice_us = statistics.median(times) * 1e6
    print(f"one advice (random position and roll): {advice_us:.0f} us median of {args.advice}")


if __name__ == "__main__":
    main()
