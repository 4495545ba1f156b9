"""Whole games: a scripted crossing from the opening, random playouts, and invariants of random play.

Random play almost never builds a crossing from the opening (a plank chosen before stones lie on the
board fits nowhere and is lost, and a jump with nobody to jump over drops the pawn in the river), so the
playouts that should end in a win start from red's finished bridge with red's pawn on its last plank.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import random_playout
from engine.riverdragons.game import STONES, Phase, RiverDragons, Rules, State
from engine.riverdragons.moves import parse_move
from tests.engine.riverdragons.helpers import GAME, bridged, planned, play

YELLOW_WAITS = "stone1 stone2 move1 move2 jump"


def test_red_bridges_the_delta_with_its_own_six_planks_and_wins_mid_round() -> None:
    state = planned(GAME, GAME.initial_state(), "stone2 stone1 plank2 plank1 move1", YELLOW_WAITS)
    state = play(GAME, state, "stone i10", "stone i2", "stone i20")  # position 1: red twice, yellow
    state = play(GAME, state, "stone i3", "stone i21", "stone i22")  # position 2
    state = play(GAME, state, "lay red3 v1-i10", "lay red4 i10-i2")  # position 3; yellow falls in at home
    state = play(GAME, state, "lay red1 i2-i3")  # position 4
    state = play(GAME, state, "move v1-i10")  # position 5
    assert (state.phase, state.round, state.start_player, state.to_move) == (Phase.PLAN, 2, 1, 1)
    assert state.pawns == ("v1-i10", "v4") and state.lost == ()

    state = planned(GAME, state, "stone2 plank2 plank1 move2 move1", YELLOW_WAITS)
    state = play(GAME, state, "stone i23", "stone i4", "stone i18")  # position 1: yellow first now
    state = play(GAME, state, "stone i24", "stone i25", "lay red2 i3-i4", "lay red6 i4-i18")
    state = play(GAME, state, "lay red5 i18-v4")  # position 3, after yellow's move1 fell in
    assert GAME.score(state)[0].steps_to_goal == 6
    state = play(GAME, state, "move v4-i18 v4", "move i2-i10 i2-i3")  # position 4
    state = play(GAME, state, "move i3-i4")  # position 5: yellow's jump had nobody to jump over
    assert (state.round, state.start_player, state.pawns) == (3, 0, ("i3-i4", "v4"))

    state = planned(GAME, state, "move2 move1 stone1 stone2 plank1", YELLOW_WAITS)
    state = play(GAME, state, "move i4-i18 v4-i18", "stone i26", "move v4")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "arrived"
    assert state.position == 2 and state.round == 3 and GAME.violations(state) == []
    assert len(state.stones) == 12 and state.supply == STONES - 12 and state.reserves[0] == ()


def check_finished(game: RiverDragons, final: State) -> None:
    outcome = game.outcome(final)
    assert outcome is not None and final.phase is Phase.OVER
    assert game.violations(final) == []
    assert game.state_from_json(json.loads(json.dumps(game.state_to_json(final)))) == final
    if outcome.winners:
        (winner,) = outcome.winners
        assert final.pawns[winner] == game.goal(winner) and outcome.reason == "arrived"
    else:
        assert outcome.reason == "round-limit" and final.round == game.rules.round_limit


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_playouts_from_the_opening_finish_under_a_round_limit(players: int) -> None:
    game = RiverDragons(players, Rules("simulation", round_limit=12))
    for seed in (1, 2):
        check_finished(game, random_playout(game, game.initial_state(), random.Random(seed)))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_playouts_on_a_finished_bridge_end_in_wins(players: int) -> None:
    game = RiverDragons(players, Rules("simulation", round_limit=5))
    winners: list[int] = []
    for seed in range(8):
        final = random_playout(game, bridged(game, pawns={0: "v4-i18"}), random.Random(seed))
        check_finished(game, final)
        outcome = game.outcome(final)
        assert outcome is not None
        winners += outcome.winners
    assert winners


def check_invariants(game: RiverDragons, state: State) -> None:
    assert len(state.stones) + state.supply == STONES
    load = Counter(s for p in state.planks for s in p.ends)
    assert all(count <= game.rules.planks_per_support for count in load.values())
    assert game.violations(state) == []
    assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
    assert list(game.legal_moves(state)) or game.outcome(state) is not None


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 6),
    from_bridge=st.booleans(),
    seed=st.integers(0, 2**32),
    steps=st.integers(1, 400),
)
def test_any_legal_play_keeps_the_table_legal(players: int, from_bridge: bool, seed: int, steps: int) -> None:
    """`steps` moves chosen at random among the legal ones keep every invariant of a table."""
    game = RiverDragons(players)
    state = bridged(game) if from_bridge else game.initial_state()
    rng = random.Random(seed)
    check_invariants(game, state)
    for _ in range(steps):
        moves = list(game.legal_moves(state))
        if not moves:
            break
        move = rng.choice(moves)
        assert parse_move(str(move)) == move
        state = game.apply(state, move)
        check_invariants(game, state)
