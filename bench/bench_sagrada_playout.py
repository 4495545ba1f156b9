"""How fast whole Sagrada games play out: seconds per random playout and per `legal_moves` call.

Run from the repository root:

    python3 bench/bench_sagrada_playout.py [games per setting, default 5]

For 1-4 players under the official and the text rules it plays seeded random games (uniform legal moves,
chance outcomes by their exact weights) and prints the median time per game, the median and slowest
`legal_moves` call, and the average number of legal moves offered at a decision.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from engine.core import sample_chance
from engine.sagrada.game import SagradaGame
from engine.sagrada.rules import OFFICIAL, TEXT


def play_one(game: SagradaGame, seed: int) -> tuple[float, list[float], list[int]]:
    """One seeded game: its wall time, each `legal_moves` call's time and move count."""
    rng = random.Random(seed)
    state = game.deal(seed)
    call_times: list[float] = []
    move_counts: list[int] = []
    started = time.perf_counter()
    while not game.is_over(state):
        if game.is_chance_node(state):
            state = game.apply(state, sample_chance(game.chance_outcomes(state), rng))
            continue
        before = time.perf_counter()
        moves = list(game.legal_moves(state))
        call_times.append(time.perf_counter() - before)
        move_counts.append(len(moves))
        state = game.apply(state, rng.choice(moves))
    return time.perf_counter() - started, call_times, move_counts


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    header = f"{'rules':8} {'players':>7} {'ms/game':>9} {'legal_moves ms (median / max)':>30}"
    print(f"{header} {'moves offered':>14}")
    for rules in (OFFICIAL, TEXT):
        for players in (1, 2, 3, 4):
            game = SagradaGame(players, rules)
            walls: list[float] = []
            calls: list[float] = []
            counts: list[int] = []
            for seed in range(games):
                wall, call_times, move_counts = play_one(game, seed)
                walls.append(wall)
                calls.extend(call_times)
                counts.extend(move_counts)
            print(
                f"{rules.name:8} {players:>7} {statistics.median(walls) * 1000:>9.0f} "
                f"{statistics.median(calls) * 1000:>17.2f} / {max(calls) * 1000:>9.1f} "
                f"{statistics.mean(counts):>14.1f}"
            )


if __name__ == "__main__":
    main()
