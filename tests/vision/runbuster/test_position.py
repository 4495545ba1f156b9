"""A table read from the mat, judged by the rules and put in words."""

from __future__ import annotations

import pytest

from engine.runbuster.game import Keep, Phase, RunBuster
from engine.runbuster.solver import advise
from vision.runbuster.position import TableDice, read_turn


def table(red_hand: str = "", red_roll: str = "", blue_hand: str = "", blue_roll: str = "") -> TableDice:
    def dice(text: str) -> tuple[int, ...]:
        return tuple(sorted(int(c) for c in text))

    return TableDice((dice(red_hand), dice(blue_hand)), (dice(red_roll), dice(blue_roll)))


def test_zone_values_become_hands_and_rolls() -> None:
    read = TableDice.from_zones({"red.hand": [5, 4], "blue.roll": [6, 1, 3, 3, 2, 2]})
    assert read == TableDice(((4, 5), ()), ((), (1, 2, 2, 3, 3, 6)))


def test_a_roll_showing_the_complement_busts_the_opponent() -> None:
    turn = read_turn(table(red_hand="234", blue_hand="456", blue_roll="156"))
    assert turn.roller == 1 and turn.busted == (0,)
    assert turn.sentences[0] == "Blue's roll 1,5,6 busts Red's 2-3-4: Red's hand goes back to the cup"
    assert turn.sentences[1] == "Blue cannot extend 4-5-6: the rolled dice go back to the cup"


def test_the_rule_texts_extension_example() -> None:
    """Hand 4-5, roll 3-4-4-6: 3-4-5, 3-4-5-6 or 4-5-6."""
    turn = read_turn(table(red_hand="45", red_roll="3446"))
    assert turn.options == ((3, 4, 5), (3, 4, 5, 6), (4, 5, 6))
    assert turn.sentences == ("Red must extend: 3-4-5 or 3-4-5-6 or 4-5-6",)
    assert turn.must_keep and turn.busted == () and turn.winner is None


def test_the_engine_position_is_the_roll_applied() -> None:
    turn = read_turn(table(red_hand="234", blue_hand="45", blue_roll="1566"))
    assert turn.state is not None
    assert turn.state.phase is Phase.KEEP and turn.state.to_move == 1
    assert turn.state.hands == ((), (4, 5)) and turn.state.roll == (1, 5, 6, 6)
    game = RunBuster()
    assert list(game.legal_moves(turn.state)) == [Keep((6,))]
    assert read_turn(table(red_hand="45")).state is None


def test_the_rule_texts_example_that_cannot_extend() -> None:
    turn = read_turn(table(red_hand="45", red_roll="1245"))
    assert turn.options == () and not turn.must_keep
    assert turn.sentences == ("Red cannot extend 4-5: the rolled dice go back to the cup",)


def test_an_empty_hand_keeps_any_straight_of_the_roll() -> None:
    """The rule text's first-turn example: roll 2-2-4-5-5-6."""
    turn = read_turn(table(red_roll="224556"))
    assert turn.options == ((2,), (4,), (4, 5), (4, 5, 6), (5,), (5, 6), (6,))
    assert turn.sentences == ("Red must keep a straight: 2 or 4 or 4-5 or 4-5-6 or 5 or 5-6 or 6",)


def test_completing_one_to_six_wins() -> None:
    turn = read_turn(table(blue_hand="2345", blue_roll="16", red_hand="3"), names=("Ann", "Bo"))
    assert turn.winner == 1 and "Bo completes 1-6 and wins" in turn.sentences
    held = read_turn(table(red_hand="123456"))
    assert held.winner == 0 and held.sentences == ("Red holds 1-6: Red wins",)


def test_the_advice_is_the_engines_for_the_same_position() -> None:
    turn = read_turn(table(red_hand="45", blue_hand="23", red_roll="3446"))
    assert turn.advice == advise((4, 5), (2, 3), (3, 4, 4, 6))
    assert turn.advice is not None
    assert {o.hand for o in turn.advice.options} == set(turn.options)


def test_no_roll_says_whose_move_it_is_not() -> None:
    turn = read_turn(table(red_hand="45"))
    assert turn.roller is None and turn.advice is None
    assert turn.sentences == (
        "No roll on the mat: the player whose turn it is rolls their cup into their roll zone",
    )


@pytest.mark.parametrize(
    ("dice", "problem"),
    [
        (table(red_hand="24", red_roll="1234"), "Red's hand 2-4 is not a straight"),
        (
            table(red_roll="12", blue_roll="3"),
            "both roll zones hold dice: only the player whose turn it is rolls",
        ),
        (
            table(red_hand="45", red_roll="123"),
            "Red rolls 4 dice with 4-5 in hand, but the roll zone shows 3",
        ),
        (table(blue_roll="1234567"), "Blue rolls 6 dice with an empty hand, but the roll zone shows 7"),
    ],
)
def test_an_impossible_table_is_named_not_judged(dice: TableDice, problem: str) -> None:
    turn = read_turn(dice)
    assert turn.problems == (problem,)
    assert turn.options == () and turn.advice is None and turn.winner is None
