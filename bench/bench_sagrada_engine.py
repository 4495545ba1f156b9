"""Cost per call of the Sagrada engine's hot paths on realistic windows: legal placements, audit, scoring.

Windows come from seeded random games on the 24 official patterns: each draft rolls a pool of 5 dice and
places one of them on a legal space, as in play; windows are snapshotted after 5, 10, 15 and 20 drafts.
Each figure is the median over many single calls, in microseconds.

    python3 bench/bench_sagrada_engine.py            # 3000 calls per figure
    python3 bench/bench_sagrada_engine.py --calls 500 --seed 7
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.sagrada.audit import window_violations
from engine.sagrada.objectives import PUBLIC_OBJECTIVES, PublicObjective
from engine.sagrada.rules import OFFICIAL
from engine.sagrada.scoring import score_window
from engine.sagrada.window import Color, Die, Pattern, Window, legal_placements, official_patterns

SNAPSHOTS = (5, 10, 15, 20)
DRAFT_POOL = 5  # the dice rolled for a two-player round


def random_game_windows(rng: random.Random, pattern: Pattern) -> dict[int, Window]:
    """A window after 5, 10, 15 and 20 drafts; each draft takes a placeable die from a pool of 5."""
    window = Window()
    snapshots: dict[int, Window] = {}
    for draft in range(1, max(SNAPSHOTS) + 1):
        pool = [Die(rng.choice(list(Color)), rng.randint(1, 6)) for _ in range(DRAFT_POOL)]
        options = [(cell, die) for die in pool for cell in legal_placements(window, pattern, die)]
        if options:
            cell, die = rng.choice(options)
            window = window.with_die(cell, die)
        if draft in SNAPSHOTS:
            snapshots[draft] = window
    return snapshots


def median_microseconds(calls: int, call: Callable[[int], object]) -> float:
    timings = []
    for i in range(calls):
        start = time.perf_counter_ns()
        call(i)
        timings.append(time.perf_counter_ns() - start)
    return statistics.median(timings) / 1000


def bench_snapshot(
    cases: list[tuple[Pattern, Window]], dice: list[Die], cards: list[tuple[PublicObjective, ...]], calls: int
) -> tuple[float, float, float]:
    """Median microseconds of legal_placements, window_violations and score_window over `cases`."""

    def place(i: int) -> object:
        pattern, window = cases[i % len(cases)]
        return list(legal_placements(window, pattern, dice[i]))

    def audit(i: int) -> object:
        pattern, window = cases[i % len(cases)]
        return window_violations(window, pattern)

    def score(i: int) -> object:
        pattern, window = cases[i % len(cases)]
        return score_window(
            window, pattern, objectives=cards[i], private=dice[i].color, favor_tokens=3, rules=OFFICIAL
        ).total

    return (
        median_microseconds(calls, place),
        median_microseconds(calls, audit),
        median_microseconds(calls, score),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="calls per figure (default 3000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    patterns = list(official_patterns().values())
    games = [(pattern, random_game_windows(rng, pattern)) for pattern in patterns for _ in range(4)]
    dice = [Die(rng.choice(list(Color)), rng.randint(1, 6)) for _ in range(args.calls)]
    cards = [tuple(rng.sample(PUBLIC_OBJECTIVES, 3)) for _ in range(args.calls)]

    print(
        f"Sagrada engine: {len(games)} random games on {len(patterns)} patterns, median of {args.calls} calls"
    )
    print(
        f"{'drafts':>6} {'dice':>5} {'legal_placements':>17} {'window_violations':>18} {'score_window':>13}"
    )
    for drafts in SNAPSHOTS:
        cases = [(pattern, windows[drafts]) for pattern, windows in games]
        place_us, audit_us, score_us = bench_snapshot(cases, dice, cards, args.calls)
        mean_dice = statistics.mean(w.count for _, w in cases)
        print(f"{drafts:>6} {mean_dice:>5.1f} {place_us:>14.1f} us {audit_us:>15.1f} us {score_us:>10.1f} us")


if __name__ == "__main__":
    main()
