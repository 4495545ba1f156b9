"""Set-up, planning, the order of resolution, dragons, the end of a round and of the game, the score."""

from __future__ import annotations

import pytest

from engine.core import IllegalMove, InvalidData
from engine.riverdragons.game import PRESETS, TEXT, Phase, RiverDragons, Rules, State, rules_named
from engine.riverdragons.moves import Plan, Plank
from tests.engine.riverdragons.helpers import GAME, WAITING, bridged, planned, play, program, table

STONES_FIRST = "stone1 stone2 plank1 plank2 remove"


# --- set-up -------------------------------------------------------------------------------------------


def test_the_opening_table() -> None:
    state = GAME.initial_state()
    assert state.phase is Phase.PLAN and state.to_move == 0 and state.start_player == 0 and state.round == 1
    assert state.pawns == ("v1", "v4") and state.supply == 27 and state.stones == () and state.planks == ()
    assert state.reserves[1] == tuple(Plank("yellow", n) for n in range(1, 7))
    assert GAME.violations(state) == []
    assert not GAME.is_chance_node(state) and GAME.chance_outcomes(state) == []


@pytest.mark.parametrize(
    ("players", "starts"),
    [
        (2, ("v1", "v4")),
        (3, ("v1", "v3", "v5")),
        (4, ("v1", "v2", "v4", "v5")),
        (5, ("v1", "v2", "v3", "v4", "v5")),
        (6, ("v1", "v2", "v3", "v4", "v5", "v6")),
    ],
)
def test_villages_in_use_by_player_count(players: int, starts: tuple[str, ...]) -> None:
    game = RiverDragons(players)
    assert game.initial_state().pawns == starts
    goals = {game.goal(p) for p in range(players)}
    if players == 3:
        assert not goals & set(starts)  # the opposites of the three villages are free
    if players in (2, 4, 6):
        assert goals == set(starts)  # opposite pairs
    assert all(game.board.opposite(game.goal(p)) == starts[p] for p in range(players))


def test_each_player_holds_eight_actions_and_a_dragon_per_opponent() -> None:
    game = RiverDragons(6)
    hand = game.hand(0)
    assert len(hand) == 13 and hand[:8] == (
        "stone1",
        "stone2",
        "plank1",
        "plank2",
        "remove",
        "move1",
        "move2",
        "jump",
    )
    assert hand[8:] == ("dragon-yellow", "dragon-green", "dragon-blue", "dragon-purple", "dragon-white")
    assert GAME.hand(1)[8:] == ("dragon-red",)


def test_players_and_colours_are_checked() -> None:
    for players in (1, 7):
        with pytest.raises(InvalidData, match="2 to 6 players"):
            RiverDragons(players)
    with pytest.raises(InvalidData, match="different colours"):
        RiverDragons(2, colours=("red", "red"))
    with pytest.raises(InvalidData, match="different colours"):
        RiverDragons(2, colours=("red", "black"))
    assert RiverDragons(2, colours=("blue", "white")).hand(0)[8:] == ("dragon-white",)
    with pytest.raises(InvalidData, match="start player 2"):
        GAME.initial_state(start_player=2)


def test_rulesets_by_name() -> None:
    assert rules_named("text") is TEXT and list(PRESETS) == ["text"]
    with pytest.raises(InvalidData, match="unknown River Dragons ruleset 'house'; choose one of: text"):
        rules_named("house")


# --- planning -----------------------------------------------------------------------------------------


def test_planning_goes_card_by_card_from_the_start_player_clockwise() -> None:
    game = RiverDragons(3)
    state = game.initial_state(start_player=2)
    assert {str(m) for m in game.legal_moves(state)} == {f"plan {c}" for c in game.hand(2)}
    for card in STONES_FIRST.split():
        assert state.to_move == 2
        state = game.apply(state, Plan(card))
    assert state.to_move == 0 and state.programs[2] == tuple(STONES_FIRST.split())
    state = planned_rest(game, state)
    assert state.phase is Phase.RESOLVE and state.position == 1 and state.to_move == 2


def planned_rest(game: RiverDragons, state: State) -> State:
    """The remaining planners of the round each plan STONES_FIRST."""
    while state.phase is Phase.PLAN:
        for card in STONES_FIRST.split():
            state = game.apply(state, Plan(card))
    return state


def test_a_card_is_planned_once_a_round() -> None:
    state = GAME.apply(GAME.initial_state(), Plan("jump"))
    assert Plan("jump") not in set(GAME.legal_moves(state))
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, Plan("jump"))
    assert caught.value.rule == "card-once"


def test_at_most_one_dragon_a_round() -> None:
    game = RiverDragons(3)
    state = game.apply(game.initial_state(), Plan("dragon-yellow"))
    assert not any(m.card.startswith("dragon") for m in game.legal_moves(state) if isinstance(m, Plan))
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, Plan("dragon-green"))
    assert caught.value.rule == "one-dragon"


def test_a_player_has_no_dragon_of_their_own_colour_nor_of_an_absent_one() -> None:
    for card in ("dragon-red", "dragon-green"):
        with pytest.raises(IllegalMove) as caught:
            GAME.apply(GAME.initial_state(), Plan(card))
        assert caught.value.rule == "card-in-hand" and "dragon-yellow" in caught.value.message


def test_decisions_and_plans_out_of_their_phase_are_refused() -> None:
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(GAME.initial_state(), GAME.parse_move("stone i5"))
    assert caught.value.rule == "plan-phase"
    resolving = planned(GAME, table(), STONES_FIRST, STONES_FIRST)
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(resolving, Plan("jump"))
    assert caught.value.rule == "resolve-phase"
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(resolving, GAME.parse_move("move v1-i10"))
    assert caught.value.rule == "wrong-action" and "stone1" in caught.value.message


# --- resolution order ---------------------------------------------------------------------------------


def test_each_position_resolves_from_the_start_player_clockwise() -> None:
    game = RiverDragons(3)
    state = planned(game, game.initial_state(start_player=1), *[STONES_FIRST] * 3)
    order = []
    for island in range(1, 7):
        order.append((state.position, state.to_move))
        state = play(game, state, f"stone i{island}")
    assert order == [(1, 1), (1, 2), (1, 0), (2, 1), (2, 1), (2, 2)]


# --- dragons ------------------------------------------------------------------------------------------


def test_a_dragon_cancels_its_colours_card_at_its_position_only() -> None:
    state = planned(GAME, table(), "dragon-yellow stone1 plank1 plank2 remove", STONES_FIRST)
    assert (state.position, state.to_move) == (2, 0)  # yellow's stone1 at position 1 was skipped
    assert GAME.cancelled(state, 1, 1) and not GAME.cancelled(state, 1, 2)
    after = play(GAME, state, "stone i1")
    assert (after.position, after.to_move) == (2, 1)  # yellow's position-2 card plays


def test_a_dragon_cancels_a_card_resolved_before_its_own() -> None:
    start = GAME.initial_state(start_player=1)
    state = planned(GAME, start, "dragon-yellow stone1 plank1 plank2 remove", STONES_FIRST)
    assert (state.position, state.to_move) == (2, 1) and state.stones == ()


def test_a_dragon_is_not_cancelled_by_a_dragon() -> None:
    """Red cancels yellow at position 1, yet yellow's own dragon there still cancels green."""
    game = RiverDragons(3)
    state = planned(
        game,
        game.initial_state(),
        "dragon-yellow stone1 plank1 plank2 remove",
        "dragon-green stone1 plank1 plank2 remove",
        STONES_FIRST,
    )
    assert (state.position, state.to_move) == (2, 0) and state.stones == ()
    assert game.cancelled(state, 2, 1)


def test_several_dragons_at_one_position_all_work() -> None:
    game = RiverDragons(4)
    state = planned(
        game,
        game.initial_state(),
        STONES_FIRST,
        STONES_FIRST,
        "dragon-red stone1 plank1 plank2 remove",
        "dragon-yellow stone1 plank1 plank2 remove",
    )
    assert (state.position, state.to_move) == (2, 0) and state.stones == ()


# --- end of a round and of the game -------------------------------------------------------------------


def finish_round(game: RiverDragons, state: State) -> State:
    """Take the first legal decision until the round is over."""
    while state.phase is Phase.RESOLVE:
        state = game.apply(state, next(game.legal_moves(state)))
    return state


def test_at_the_end_of_a_round_cards_return_and_the_start_player_passes_left() -> None:
    game = RiverDragons(3)
    state = game.initial_state(start_player=2)
    for expected_start in (2, 0, 1, 2):
        assert state.phase is Phase.PLAN and state.start_player == expected_start == state.to_move
        assert state.programs == ((), (), ())
        state = finish_round(game, planned(game, state, *[STONES_FIRST] * 3))
    assert state.round == 5


def test_a_round_limit_ends_the_game_with_no_winner() -> None:
    game = RiverDragons(rules=Rules("short", round_limit=1))
    state = finish_round(game, planned(game, game.initial_state(), STONES_FIRST, STONES_FIRST))
    outcome = game.outcome(state)
    assert state.phase is Phase.OVER and outcome is not None
    assert outcome.winners == () and outcome.reason == "round-limit" and outcome.details["round"] == 1
    assert list(game.legal_moves(state)) == []


def test_the_score_tells_each_player_where_they_stand() -> None:
    state = bridged(pawns={0: "i3-i4"})
    red, yellow = GAME.score(state)
    assert (red.place, red.goal, red.arrived, red.reserve, red.steps_to_goal) == ("i3-i4", "v4", False, (), 3)
    assert yellow.steps_to_goal == 7 and len(yellow.reserve) == 6
    assert yellow.to_json()["reserve"] == ["yellow1", "yellow2", "yellow3", "yellow4", "yellow5", "yellow6"]
    assert [s.steps_to_goal for s in GAME.score(GAME.initial_state())] == [None, None]


def test_an_unfinished_game_has_no_outcome_and_always_a_move() -> None:
    state = planned(GAME, bridged(), program("move1"), WAITING)
    assert GAME.outcome(state) is None and list(GAME.legal_moves(state))
