"""How fast the Cubist and River Dragons engines play: time per random game and per `legal_moves` call.

Run from the repository root:

    python3 bench/bench_playouts.py [games per setting, default 5]

Each setting plays seeded random games (uniform legal moves, chance outcomes by their exact weights) under a
limit that random play needs to end (Cubist's illustrative cards ask for structures random play seldom
builds; River Dragons' pawns wander): it prints the median time per game, the median and slowest
`legal_moves` call, the average number of moves offered at a decision, and how the games ended.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core import Game, sample_chance
from engine.cubist.game import Cubist
from engine.cubist.game import Rules as CubistRules
from engine.riverdragons.game import TEXT as RIVER_TEXT
from engine.riverdragons.game import RiverDragons

Ending = Callable[[Any], str]


def play_one(game: Game[Any, Any], state: Any, seed: int) -> tuple[Any, float, list[float], list[int]]:
    """One seeded game from `state`: the final state, its wall time, each `legal_moves` call's time and
    move count."""
    rng = random.Random(seed)
    call_times: list[float] = []
    move_counts: list[int] = []
    started = time.perf_counter()
    while game.outcome(state) is None:
        if game.is_chance_node(state):
            state = game.apply(state, sample_chance(game.chance_outcomes(state), rng))
            continue
        before = time.perf_counter()
        moves = list(game.legal_moves(state))
        call_times.append(time.perf_counter() - before)
        move_counts.append(len(moves))
        state = game.apply(state, rng.choice(moves))
    return state, time.perf_counter() - started, call_times, move_counts


def settings() -> list[tuple[str, Game[Any, Any], Callable[[], Any], Ending]]:
    """(label, game, initial state, how a final state ended) for each setting timed."""
    found: list[tuple[str, Game[Any, Any], Callable[[], Any], Ending]] = []
    for players in (2, 3, 4):
        cubist = Cubist(players, CubistRules(name="simulation", turn_limit=200))
        found.append((f"cubist {players}p", cubist, cubist.initial_state, lambda s: str(s.ended_by)))
    for players in (2, 4, 6):
        river = RiverDragons(players, replace(RIVER_TEXT, name="simulation", round_limit=20))
        found.append((f"riverdragons {players}p", river, river.initial_state, lambda s: str(s.ended_by)))
    return found


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    header = f"{'setting':16} {'ms/game':>9} {'legal_moves ms (median / max)':>30} {'moves offered':>14}"
    print(f"{header}  endings")
    for label, game, start, ending in settings():
        walls: list[float] = []
        calls: list[float] = []
        counts: list[int] = []
        endings: Counter[str] = Counter()
        for seed in range(games):
            final, wall, call_times, move_counts = play_one(game, start(), seed)
            walls.append(wall)
            calls.extend(call_times)
            counts.extend(move_counts)
            endings[ending(final)] += 1
        print(
            f"{label:16} {statistics.median(walls) * 1000:>9.0f} "
            f"{statistics.median(calls) * 1000:>17.2f} / {max(calls) * 1000:>9.1f} "
            f"{statistics.mean(counts):>14.1f}  {', '.join(f'{k} {n}' for k, n in sorted(endings.items()))}"
        )


if __name__ == "__main__":
    main()
