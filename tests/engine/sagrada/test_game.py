"""The Sagrada game's set-up, turn order, drafting, round track, chance nodes, end, score and tie-breakers.

The helpers at the top build positions directly (a pool, windows, a round track) with the bag adjusted so
that all 90 dice stay accounted for; test_tools.py and test_solo.py use them too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from engine.core import JSON, IllegalMove, InvalidData, ParseError, sample_chance
from engine.sagrada.game import (
    DICE_PER_COLOR,
    SagradaGame,
    SagradaState,
    sorted_dice,
    turn_order,
    window_cards,
)
from engine.sagrada.moves import ChoosePattern, Draft, Pass, Roll, SagradaMove, UseTool, parse_move
from engine.sagrada.rules import OFFICIAL, TEXT, Rules
from engine.sagrada.tools import TOOL_SETS, Tool
from engine.sagrada.window import BLANK_PATTERN, Cell, Color, Die, Pattern, Window, find_pattern

NO_SCORE_PUBLICS = ("Row Color Variety", "Column Color Variety", "Row Shade Variety")


def window(spec: str = "") -> Window:
    """A window from `cell=die` pairs, e.g. "r1c1=r5 r2c2=g3"."""
    result = Window()
    for pair in spec.split():
        cell, die = pair.split("=")
        result = result.with_die(Cell.parse(cell), Die.parse(die))
    return result


def dice(spec: str) -> tuple[Die, ...]:
    return tuple(Die.parse(d) for d in spec.split())


def started(
    game: SagradaGame,
    *,
    tools: Sequence[Tool] | None = None,
    patterns: Sequence[Pattern] | None = None,
    privates: Sequence[Sequence[Color]] | None = None,
    publics: Sequence[str] = NO_SCORE_PUBLICS,
    start_player: int = 0,
) -> SagradaState:
    """A game whose players have chosen their patterns (blank unless given): round 1, before the roll."""
    n = game.players
    if tools is None:
        tools = TOOL_SETS[game.rules.tool_set][:3]
    if privates is None:
        colors = list(Color)
        privates = [colors[:2]] if n == 1 else [[c] for c in colors[:n]]
    offers = [[patterns[i] if patterns else BLANK_PATTERN] for i in range(n)]
    if n == 1:
        publics = publics[:2]
    elif game.rules.public_objectives != len(publics):
        publics = publics[: game.rules.public_objectives]
    state = game.setup(offers, privates, tools, publics, start_player=start_player)
    for _ in range(n):
        state = game.apply(state, ChoosePattern(1))
    return state


def table(
    state: SagradaState,
    *,
    pool: str = "",
    windows: Mapping[int, str] | None = None,
    track: Sequence[str] = (),
    tokens: Mapping[int, int] | None = None,
) -> SagradaState:
    """The position with this pool, these windows and round track; the bag holds every other die."""
    players = list(state.players)
    for index, spec in (windows or {}).items():
        players[index] = replace(players[index], window=window(spec))
    for index, count in (tokens or {}).items():
        players[index] = replace(players[index], favor_tokens=count)
    round_track = tuple(sorted_dice(dice(t)) for t in track)
    out = [*dice(pool), *(d for t in round_track for d in t)]
    out.extend(d for p in players for _, d in p.window.placed())
    bag = tuple(DICE_PER_COLOR - sum(1 for d in out if d.color is c) for c in Color)
    return replace(
        state,
        players=tuple(players),
        pool=sorted_dice(dice(pool)),
        round_track=round_track,
        round=max(state.round, len(round_track) + 1),
        bag=bag,
        to_draw=0,
    )


def play(game: SagradaGame, state: SagradaState, *moves: str) -> SagradaState:
    for text in moves:
        state = game.apply(state, parse_move(text))
    return state


def rule_of(game: SagradaGame, state: SagradaState, move: str | SagradaMove) -> str:
    """The rule id `apply` names when it refuses the move."""
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, parse_move(move) if isinstance(move, str) else move)
    return caught.value.rule


# ---- set-up ------------------------------------------------------------------------------------------------


def test_window_cards_pair_the_24_patterns_into_12_cards() -> None:
    cards = window_cards()
    assert len(cards) == 12
    assert len({p.name for card in cards for p in card}) == 24


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("rules", [OFFICIAL, TEXT])
def test_seeded_deal_gives_each_player_two_cards_and_distinct_privates(players: int, rules: Rules) -> None:
    game = SagradaGame(players, rules)
    state = game.deal(7)
    assert state == game.deal(7)
    cards = window_cards()
    dealt = [p.offers for p in state.players]
    for offer in dealt:
        assert len(offer) == 4
        assert (offer[0], offer[1]) in cards and (offer[2], offer[3]) in cards
    assert len({p for offer in dealt for p in offer}) == 4 * players
    privates = [c for p in state.players for c in p.private]
    assert len(privates) == len(set(privates)) == (2 if players == 1 else players)
    assert len(state.tools) == 3 and all(s.tool in TOOL_SETS[rules.tool_set] for s in state.tools)
    assert len(state.public_objectives) == (2 if players == 1 else rules.public_objectives)
    assert state.round == 0 and game.current_player(state) == 0


def test_patterns_are_chosen_in_seat_order_and_give_favor_tokens() -> None:
    game = SagradaGame(2, OFFICIAL)
    state = game.deal(3)
    assert list(game.legal_moves(state)) == [ChoosePattern(i) for i in (1, 2, 3, 4)]
    assert rule_of(game, state, "choose 5") == "no-such-pattern"
    assert rule_of(game, state, "pass") == "choose-pattern"
    state = play(game, state, "choose 2")
    assert state.players[0].pattern == state.players[0].offers[1]
    assert state.players[0].favor_tokens == state.players[0].offers[1].difficulty
    assert game.current_player(state) == 1
    state = play(game, state, "choose 1")
    assert state.round == 1 and state.to_draw == 5 and game.is_chance_node(state)


@pytest.mark.parametrize(("players", "tokens"), [(2, 7), (3, 5), (4, 5)])
def test_text_rules_give_five_favor_tokens_or_seven_with_two_players(players: int, tokens: int) -> None:
    game = SagradaGame(players, TEXT)
    state = started(game, patterns=[find_pattern("Virtus")] * players)
    assert all(p.favor_tokens == tokens for p in state.players)


def test_a_user_pattern_may_be_offered_at_setup() -> None:
    own = Pattern.from_rows("Kitchen Window", 4, ["r....", ".....", ".....", "....1"])
    game = SagradaGame(2)
    state = game.setup(
        [[own], [BLANK_PATTERN]],
        [[Color.RED], [Color.BLUE]],
        TOOL_SETS[OFFICIAL.tool_set][:3],
        NO_SCORE_PUBLICS,
    )
    state = play(game, state, "choose 1", "choose 1")
    assert state.players[0].pattern == own and state.players[0].favor_tokens == 4


def test_setup_rejects_repeated_privates_wrong_tools_and_unknown_objectives() -> None:
    game = SagradaGame(2)
    tools = TOOL_SETS[OFFICIAL.tool_set][:3]
    offers = [[BLANK_PATTERN], [BLANK_PATTERN]]
    with pytest.raises(InvalidData, match="colour may repeat"):
        game.setup(offers, [[Color.RED], [Color.RED]], tools, NO_SCORE_PUBLICS)
    with pytest.raises(InvalidData, match="tool set"):
        game.setup(offers, [[Color.RED], [Color.BLUE]], TOOL_SETS[TEXT.tool_set][:3], NO_SCORE_PUBLICS)
    with pytest.raises(InvalidData, match="unknown public objective"):
        game.setup(
            offers, [[Color.RED], [Color.BLUE]], tools, ["Row Color Variety", "Rainbow", "Light Shades"]
        )
    with pytest.raises(InvalidData, match="1-4 players"):
        SagradaGame(5)


# ---- the pool: chance nodes --------------------------------------------------------------------------------


def test_each_pool_die_is_drawn_and_rolled_with_exact_probabilities() -> None:
    game = SagradaGame(2)
    state = table(started(game), windows={0: "r1c1=r1 r1c2=r2"})
    state = replace(state, to_draw=5)
    outcomes = game.chance_outcomes(state)
    assert len(outcomes) == 30
    assert sum(o.probability for o in outcomes) == 1
    red_six = next(o for o in outcomes if o.move == Roll((Die(Color.RED, 6),)))
    assert red_six.probability == Fraction(16, 88) * Fraction(1, 6)
    blue_one = next(o for o in outcomes if o.move == Roll((Die(Color.BLUE, 1),)))
    assert blue_one.probability == Fraction(18, 88) * Fraction(1, 6)


def test_a_pool_read_at_once_equals_the_same_dice_rolled_one_by_one() -> None:
    game = SagradaGame(2)
    state = started(game)
    at_once = play(game, state, "roll b3 r5 g1 r5 y6")
    one_by_one = play(game, state, "roll r5", "roll g1", "roll b3", "roll y6", "roll r5")
    assert at_once == one_by_one
    assert at_once.pool == dice("r5 r5 y6 g1 b3")
    assert at_once.bag == (16, 17, 17, 17, 18)
    assert not game.is_chance_node(at_once) and game.current_player(at_once) == 0


def test_rolls_are_checked_against_what_is_due_and_what_is_in_the_bag() -> None:
    game = SagradaGame(2)
    state = started(game)
    assert rule_of(game, state, "roll r1 r2 r3 r4 r5 r6") == "roll-count"
    assert rule_of(game, state, "pass") == "chance-pending"
    no_red = replace(state, bag=(0, 18, 18, 18, 18))
    assert rule_of(game, no_red, "roll r3") == "bag-empty"
    assert Roll((Die(Color.RED, 3),)) not in [o.move for o in game.chance_outcomes(no_red)]
    assert len(game.chance_outcomes(no_red)) == 24
    rolled = play(game, state, "roll r1 r2 r3 r4 r5")
    assert rule_of(game, rolled, "roll g2") == "not-chance"


# ---- turn order, drafting, round track ---------------------------------------------------------------------


def test_turn_order_is_a_snake_from_the_start_player() -> None:
    assert turn_order(3, 1) == (1, 2, 0, 0, 2, 1)
    assert turn_order(4, 0) == (0, 1, 2, 3, 3, 2, 1, 0)
    assert turn_order(1, 0) == (0, 0)


def test_a_round_goes_out_and_back_then_the_leftover_goes_on_the_track_and_the_start_passes_on() -> None:
    game = SagradaGame(3)
    state = table(started(game, start_player=1), pool="r1 r2 y3 g4 b5 p6 p1")
    seen = []
    for turn in ("draft 1 r1c1", "draft 1 r1c1", "draft 1 r1c1", "", "", "draft 1 r1c2"):
        seen.append(game.current_player(state))
        state = play(game, state, *filter(None, [turn, "pass"]))
    assert seen == [1, 2, 0, 0, 2, 1]
    assert state.round == 2 and state.start_player == 2 and state.turn == 0
    assert state.round_track == (dice("b5 p1 p6"),)
    assert state.pool == () and state.to_draw == 7 and game.is_chance_node(state)
    assert game.violations(state) == []


def test_under_the_text_rules_the_leftover_die_is_discarded_not_put_on_the_track() -> None:
    game = SagradaGame(2, TEXT)
    state = table(started(game), pool="r1")
    while state.round == 1:
        state = play(game, state, "pass")
    assert state.round_track == () and dice("r1")[0] in state.set_aside
    assert game.violations(state) == []


@pytest.mark.parametrize(("players", "start", "next_start"), [(3, 2, 0), (4, 3, 0), (2, 0, 1), (1, 0, 0)])
def test_the_start_player_passes_clockwise_each_round(players: int, start: int, next_start: int) -> None:
    game = SagradaGame(players)
    state = table(started(game, start_player=start), pool="r1")
    while state.round == 1:
        state = play(game, state, "pass")
    assert state.start_player == next_start and state.round_track == (dice("r1"),)


def test_pass_ends_the_turn_before_or_after_drafting() -> None:
    game = SagradaGame(2)
    state = table(started(game), pool="r1 y2 g3 b4 p5")
    assert Pass() in list(game.legal_moves(state))
    passed = play(game, state, "pass")
    assert game.current_player(passed) == 1 and passed.pool == state.pool
    drafted = play(game, state, "draft 1 r1c1")
    assert Pass() in list(game.legal_moves(drafted))
    assert game.current_player(play(game, drafted, "pass")) == 1


def test_draft_places_the_die_and_allows_one_draft_per_turn() -> None:
    game = SagradaGame(2)
    state = table(started(game), pool="r1 y2 g3 b4 p5")
    after = play(game, state, "draft 2 r4c5")
    assert after.players[0].window[Cell(3, 4)] == Die(Color.YELLOW, 2)
    assert after.pool == dice("r1 g3 b4 p5") and after.drafted
    assert game.current_player(after) == 0  # the tool card may still be used
    assert rule_of(game, after, "draft 1 r3c5") == "one-draft-per-turn"
    assert rule_of(game, state, "draft 6 r1c1") == "no-such-die"


@pytest.mark.parametrize(
    ("windows", "move", "rule"),
    [
        ({}, "draft 1 r2c2", "first-die-edge"),
        ({0: "r1c1=g5"}, "draft 1 r3c3", "must-touch"),
        ({0: "r1c1=g5"}, "draft 3 r1c2", "neighbour-color"),
        ({0: "r1c1=b2"}, "draft 1 r1c2", "neighbour-value"),
        ({0: "r1c1=b2"}, "draft 2 r1c1", "occupied"),
    ],
)
def test_draft_must_follow_the_placement_rules(windows: dict[int, str], move: str, rule: str) -> None:
    game = SagradaGame(2)
    state = table(started(game), pool="r2 y3 g1 b4 p5", windows=windows)
    assert rule_of(game, state, move) == rule


def test_draft_honours_the_pattern_spaces() -> None:
    game = SagradaGame(2)
    virtus = find_pattern("Virtus")  # rows 4.25g / ..6g2 / .3g4. / 5g1..
    state = table(started(game, patterns=[virtus, virtus]), pool="r4 y3 g1 b4 p5")
    assert rule_of(game, state, "draft 3 r1c1") == "space-value"
    assert rule_of(game, state, "draft 1 r1c5") == "space-color"
    assert play(game, state, "draft 1 r1c1").players[0].window[Cell(0, 0)] == Die(Color.RED, 4)
    # the first die goes on an edge space that takes a red 4: r1c1 (a 4) and the blank edge spaces
    expected = ["r1c1", "r1c2", "r2c1", "r3c1", "r3c5", "r4c4", "r4c5"]
    assert sorted(map(str, game.legal_placements(state, Die(Color.RED, 4)))) == expected


FULL_WINDOW = " ".join(
    f"r{r}c{c}={'rgbyp'[(r + c) % 5]}{(r + 2 * c) % 6 + 1}" for r in range(1, 5) for c in range(1, 6)
)


def test_official_rules_forbid_drafting_a_die_that_fits_nowhere() -> None:
    game = SagradaGame(2, OFFICIAL)
    state = table(started(game), pool="r6 g6 y1 b2 p3", windows={0: FULL_WINDOW})
    assert game.violations(state) == []
    assert Pass() in list(game.legal_moves(state))
    assert not any(isinstance(m, Draft) for m in game.legal_moves(state))
    assert rule_of(game, state, "draft 1 discard") == "must-place"
    assert rule_of(game, state, "draft 1 r1c1") == "occupied"


def test_text_rules_draft_and_discard_a_die_that_fits_nowhere() -> None:
    game = SagradaGame(2, TEXT)
    state = table(started(game), pool="r3 g1 g2", windows={0: "r1c1=g3"})
    assert Draft(2, None) not in list(game.legal_moves(state))
    assert rule_of(game, state, "draft 2 discard") == "die-placeable"
    full = table(started(game), pool="r3 g1 g2", windows={0: FULL_WINDOW})
    assert Draft(2, None) in list(game.legal_moves(full))
    after = play(game, full, "draft 2 discard")
    assert after.set_aside == dice("g1") and after.pool == dice("r3 g2")
    assert game.violations(after) == []


# ---- the end, the score and the winner ---------------------------------------------------------------------


def finished(game: SagradaGame, state: SagradaState, *, final_start: int = 0) -> SagradaState:
    """The position after round 10, whose start player was `final_start`."""
    n = len(state.players)
    return replace(state, round=game.rules.rounds + 1, start_player=(final_start + 1) % n, pool=(), to_draw=0)


def test_the_game_ends_after_round_ten() -> None:
    game = SagradaGame(2)
    state = table(started(game), pool="r1 y2 g3 b4 p5", track=["r1"] * 9)
    assert state.round == 10 and game.outcome(state) is None
    state = play(game, state, "pass", "pass", "pass", "pass")
    assert game.is_over(state) and not game.is_chance_node(state)
    assert list(game.legal_moves(state)) == []
    assert len(state.round_track) == 10
    assert game.outcome(state) is not None
    assert rule_of(game, state, "pass") == "game-over"


def test_final_score_uses_the_public_cards_private_colour_tokens_and_empty_spaces() -> None:
    game = SagradaGame(2, OFFICIAL)
    state = started(game, publics=("Light Shades", "Color Diagonals", "Row Color Variety"))
    state = table(state, windows={0: "r1c1=r1 r1c2=y2 r2c1=g2 r2c2=r5", 1: "r1c1=b6"}, tokens={0: 2, 1: 0})
    score = game.score(finished(game, state))
    first = score.players[0]
    # Light Shades: one 1 and two 2s make one set = 2; Color Diagonals: r1 and r5 touch diagonally = 2;
    # private red: 1 + 5 = 6; tokens 2; 16 empty spaces at -1 each: 2 + 2 + 6 + 2 - 16 = -4
    assert [o.points for o in first.objectives] == [2, 2, 0]
    assert first.private_points == 6 and first.favor_tokens == 2 and first.total == -4
    assert score.players[1].total == -19 and score.solo_target is None


def test_text_rules_score_minus_five_per_empty_space_and_return_card_tokens_to_the_last_user() -> None:
    game = SagradaGame(2, TEXT)
    state = table(started(game), windows={0: "r1c1=r3", 1: "r1c1=b2"}, tokens={0: 1, 1: 4})
    slots = (replace(state.tools[0], tokens=3, uses=2, last_user=0), *state.tools[1:])
    score = game.score(finished(game, replace(state, tools=slots)))
    assert score.players[0].favor_tokens == 1 + 3
    assert score.players[0].total == 3 + 4 - 19 * 5
    assert score.players[1].total == 0 + 4 - 19 * 5  # player 2's private colour is yellow


def tie(
    game: SagradaGame, windows: dict[int, str], tokens: dict[int, int], final_start: int = 0
) -> SagradaState:
    return finished(game, table(started(game), windows=windows, tokens=tokens), final_start=final_start)


def test_official_tie_break_most_private_points_first() -> None:
    game = SagradaGame(2, OFFICIAL)
    # player 1 (red): 5 private + 0 tokens - 19; player 2 (yellow): 2 private + 3 tokens - 19: both -14
    state = tie(game, {0: "r1c1=r5", 1: "r1c1=y2"}, {0: 0, 1: 3})
    outcome = game.outcome(state)
    assert outcome is not None and outcome.details["scores"] == [-14, -14]
    assert outcome.winners == (0,) and outcome.ranking == (0, 1)


def test_official_tie_break_then_most_favor_tokens() -> None:
    game = SagradaGame(2, OFFICIAL)
    # player 1: red 5 + 2 tokens - 19 = -12; player 2: yellow 5, a blue die, 1 token - 18 = -12
    state = tie(game, {0: "r1c1=r5", 1: "r1c1=y5 r1c2=b1"}, {0: 2, 1: 1})
    outcome = game.outcome(state)
    assert outcome is not None and outcome.details["scores"] == [-12, -12]
    assert outcome.winners == (0,)


@pytest.mark.parametrize(("final_start", "winner"), [(0, 1), (1, 0)])
def test_official_tie_break_then_the_later_player_in_the_final_round(final_start: int, winner: int) -> None:
    game = SagradaGame(2, OFFICIAL)
    state = tie(game, {0: "r1c1=r5", 1: "r1c1=y5"}, {0: 1, 1: 1}, final_start=final_start)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (winner,)
    assert outcome.ranking == (winner, 1 - winner)


def test_text_rules_share_a_victory_that_private_points_and_tokens_do_not_break() -> None:
    game = SagradaGame(3, TEXT)
    state = tie(game, {0: "r1c1=r5", 1: "r1c1=y5", 2: "r1c1=g1"}, {0: 1, 1: 1, 2: 1})
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.ranking[2] == 2
    assert outcome.reason == "shared victory"
    # red 5 + 1 token - 95 against yellow 6 + 0 tokens - 95: equal totals, the private points decide
    private_decides = tie(game, {0: "r1c1=r5", 1: "r1c1=y6", 2: "r1c1=g1"}, {0: 1, 1: 0, 2: 0})
    decided = game.outcome(private_decides)
    assert decided is not None and decided.details["scores"][:2] == [-89, -89]
    assert decided.winners == (1,) and decided.reason == "highest score"


# ---- notation, JSON, violations ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "choose 3",
        "draft 3 r2c3",
        "draft 1 discard",
        "pass",
        "tool 1 draft 3 +1 r2c3",
        "tool 2 draft 1 -1 r4c5",
        "tool 2 move r1c1 r2c2",
        "tool 3 move r1c1 r2c2 move r3c3 r4c4",
        "tool 1 draft 2 swap g4 r1c5",
        "tool 3 draft 2 as b r1c1",
        "tool 1 reroll 4",
        "tool 1 pay 2 draft 3 r1c1",
        "tool 2",
        "place r3c4",
        "value 6",
        "roll r3 g5 b1",
        "draw p",
    ],
)
def test_move_notation_round_trips(text: str) -> None:
    assert str(parse_move(text)) == text
    assert parse_move(str(parse_move(text))) == parse_move(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "draft",
        "draft x r1c1",
        "draft 1 r9c9",
        "tool",
        "tool 1 draft",
        "tool 1 +1 +1",
        "tool 1 wobble r1c1",
        "value 7",
        "roll",
        "roll x9",
        "draw q",
        "choose 0",
    ],
)
def test_malformed_moves_are_refused_with_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        parse_move(text)


def test_tool_moves_parse_to_their_fields() -> None:
    move = parse_move("tool 2 pay 1 draft 3 -1 r2c3")
    assert move == UseTool(2, pay=1, draft=3, delta=-1, target=Cell(1, 2))


def test_state_json_round_trips_mid_game() -> None:
    game = SagradaGame(3, TEXT)
    state = random_steps(game, game.deal(11), 40, seed=5)
    data = game.state_to_json(state)
    assert game.state_from_json(data) == state
    assert game.state_from_json(json.loads(json.dumps(data))) == state
    with pytest.raises(InvalidData, match="rules"):
        SagradaGame(3, OFFICIAL).state_from_json(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("pool"), "missing field 'pool'"),
        (lambda d: d.update(pool=["x9"]), "unknown colour 'x'"),
        (lambda d: d.update(game="cubist"), "not text"),
        (lambda d: d["players"][0].update(window="r1 r2"), "malformed window"),
    ],
)
def test_state_from_json_names_what_is_wrong(change: Callable[[JSON], object], message: str) -> None:
    game = SagradaGame(2, TEXT)
    data = game.state_to_json(game.deal(1))
    change(data)
    with pytest.raises(InvalidData, match=f"malformed Sagrada state: .*{message}"):
        game.state_from_json(data)


def random_steps(
    game: SagradaGame, state: SagradaState, steps: int, seed: int, *, stop_at_end: bool = False
) -> SagradaState:
    """Up to `steps` random moves and chance outcomes from `state` (fewer if the game ends first)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if stop_at_end and game.is_over(state):
            break
        if game.is_chance_node(state):
            state = game.apply(state, sample_chance(game.chance_outcomes(state), rng))
        else:
            state = game.apply(state, rng.choice(list(game.legal_moves(state))))
    return state


def test_violations_name_the_player_the_rule_and_the_cells() -> None:
    game = SagradaGame(2)
    state = table(started(game), windows={1: "r1c1=r5 r1c2=r3 r3c3=g2"})
    found = {(v.rule, v.cells) for v in game.violations(state)}
    assert ("neighbour-color", ("p2:r1c1", "p2:r1c2")) in found
    assert ("disconnected", ("p2:r3c3",)) in found
    lost = replace(state, bag=(0, 18, 18, 18, 18))
    assert any(v.rule == "dice-count" for v in game.violations(lost))
