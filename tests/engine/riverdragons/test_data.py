"""The move notation, the state's JSON form, and the violations of positions read from the table."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from engine.core import EngineError, InvalidData, ParseError
from engine.riverdragons.game import LaidPlank, Phase, RiverDragons, Rules, State
from engine.riverdragons.moves import Jump, Lay, Plan, Plank, RemovePlank, Walk, parse_move
from tests.engine.riverdragons.helpers import GAME, WAITING, bridged, planned, program, table

# --- notation -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "plan stone1",
        "plan dragon-purple",
        "stone i5",
        "lay red3 v1-i10",
        "lay white6 i4-i18",
        "lose green2",
        "remove plank i2-i3",
        "remove stone i27",
        "move v1-i10",
        "move i2-i3 v4",
        "jump i3-i7 i7-i9",
        "jump v1-i10 v1",
    ],
)
def test_move_notation_round_trips(text: str) -> None:
    move = parse_move(text)
    assert str(move) == text and GAME.parse_move(str(move)) == move


def test_plank_places_are_written_villages_first_then_by_number() -> None:
    assert str(parse_move("lay red3 i10-v1")) == "lay red3 v1-i10"
    assert parse_move("remove plank i10-i2") == RemovePlank(("i2", "i10"))
    assert parse_move("jump i7-i3 v4") == Jump(("i3", "i7"), "v4")
    assert parse_move("move i3-i2 i3-i4") == Walk(("i2-i3", "i3-i4"))
    assert Lay(Plank("red", 3), ("i10", "v1")) == parse_move("lay red3 v1-i10")
    assert parse_move("  plan   jump ") == Plan("jump")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("fly i3", "expected 'plan <card>'"),
        ("plan dragon-black", "unknown card 'dragon-black'"),
        ("plan stone3", "unknown card 'stone3'"),
        ("stone x5", "malformed support 'x5'"),
        ("lay red7 v1-i10", "no plank red7"),
        ("lay black3 v1-i10", "malformed plank 'black3'"),
        ("lay red3 v1", "expected two supports"),
        ("lay red3 v1-v1", "two different supports"),
        ("lose", "expected 'plan <card>'"),
        ("remove bridge i2-i3", "expected 'plan <card>'"),
        ("move i3", "not on island 'i3'"),
        ("move v1-i10 i2-i10 i2-i3", "expected 'plan <card>'"),
        ("jump v1 v1-i10", "expected two supports"),
    ],
)
def test_malformed_moves_raise_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        GAME.parse_move(text)


# --- JSON ---------------------------------------------------------------------------------------------


def mid_round_state() -> State:
    state = planned(GAME, bridged(pawns={0: "i3-i4"}), program("stone2"), WAITING)
    return GAME.apply(state, parse_move("stone i5"))


def test_state_json_round_trips() -> None:
    for state in (GAME.initial_state(), mid_round_state(), replace(table(), lost=(Plank("red", 2),))):
        data = json.loads(json.dumps(GAME.state_to_json(state)))
        assert GAME.state_from_json(data) == state
    assert GAME.state_to_json(mid_round_state())["planks"][0] == {"on": "v1-i10", "plank": "red3"}


def test_a_hand_made_state_waiting_at_a_card_without_a_decision_is_played_on() -> None:
    data = GAME.state_to_json(mid_round_state())
    data["programs"][0] = ["dragon-yellow", "stone1", "plank1", "plank2", "remove"]
    state = GAME.state_from_json(data)
    # Red's dragon acts alone and cancels yellow's plank1, so red's stone1 at position 2 is the next decision.
    assert (state.to_move, state.position) == (0, 2)
    assert "stone i1" in {str(m) for m in GAME.legal_moves(state)}


def test_a_state_breaking_the_rules_is_read_as_written() -> None:
    data = GAME.state_to_json(mid_round_state())
    data["programs"][0] = ["dragon-yellow"]
    state = GAME.state_from_json(data)
    assert (state.to_move, state.position, state.programs[0]) == (0, 1, ("dragon-yellow",))
    assert [v.rule for v in GAME.violations(state)] == ["program-size"]


def changed(change: dict[str, Any]) -> dict[str, Any]:
    return GAME.state_to_json(mid_round_state()) | change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rules": "house"}, "ruleset 'house'"),
        ({"colours": ["red", "blue"]}, "colours"),
        ({"phase": "break"}, "'break' is not a valid Phase"),
        ({"pawns": "v1 v4"}, "pawns must be a list"),
        ({"pawns": ["v1"]}, "2 to 6 players"),
        ({"pawns": ["v1", "v4", "v2"]}, "3 reserves"),
        ({"pawns": ["i3", "v4"]}, "not on island 'i3'"),
        ({"pawns": ["v9", "v4"]}, "no village or island 'v9'"),
        ({"stones": ["i99"]}, "no village or island 'i99'"),
        ({"stones": [5]}, "a stone must be text"),
        ({"planks": [{"on": "v1-i10"}]}, "a plank must be text"),
        ({"planks": ["v1-i10 red3"]}, "an object with 'on' and 'plank'"),
        ({"planks": [{"on": "v1-i40", "plank": "red3"}]}, "no village or island 'i40'"),
        ({"reserves": [["red9"], []]}, "no plank red9"),
        ({"programs": [["fly"], []]}, "unknown card 'fly'"),
        ({"programs": [["stone1"] * 6, []]}, "at most 5 cards"),
        ({"supply": "27"}, "supply must be an integer"),
        ({"supply": -1}, "cannot be below"),
        ({"to_move": True}, "to_move must be an integer"),
        ({"to_move": 5}, "outside 0-1"),
        ({"to_move": None}, "to_move must be null exactly when the game is over"),
        ({"position": 0}, "position 1-5"),
    ],
)
def test_malformed_state_json_is_rejected_with_a_clear_message(change: dict[str, Any], message: str) -> None:
    with pytest.raises((InvalidData, ParseError), match=message):
        GAME.state_from_json(changed(change))


def test_a_state_json_missing_a_key_or_not_an_object_is_rejected() -> None:
    data = GAME.state_to_json(GAME.initial_state())
    del data["lost"]
    with pytest.raises(InvalidData, match="the key 'lost' is missing"):
        GAME.state_from_json(data)
    with pytest.raises(InvalidData, match="JSON object"):
        GAME.state_from_json([])  # type: ignore[arg-type]


def test_a_state_for_another_table_size_is_rejected() -> None:
    data = RiverDragons(3).state_to_json(RiverDragons(3).initial_state())
    with pytest.raises(EngineError, match="colours"):
        GAME.state_from_json(data)


# --- violations ---------------------------------------------------------------------------------------


def rules_broken(state: State, game: RiverDragons = GAME) -> dict[str, tuple[str, ...]]:
    found = game.violations(state)
    assert all(v.message for v in found)
    return {v.rule: v.cells for v in found}


def loaded(change: dict[str, Any]) -> State:
    """A table read from JSON (the shape is checked, not the rules); laid planks leave their reserves."""
    data = GAME.state_to_json(table()) | change
    laid = {p["plank"] for p in data["planks"]}
    data["reserves"] = [[p for p in reserve if p not in laid] for reserve in data["reserves"]]
    return GAME.state_from_json(data)


def test_a_legal_position_has_no_violations() -> None:
    assert GAME.violations(mid_round_state()) == []
    assert GAME.violations(bridged(pawns={0: "i3-i4", 1: "i2-i10"})) == []


def test_stones_on_a_village_or_doubled_on_an_island_are_violations() -> None:
    state = loaded({"stones": ["v2", "i5", "i5"], "supply": 24})
    assert rules_broken(state) == {"stone-island": ("v2",), "one-stone-per-island": ("i5",)}


def test_stone_counts_that_do_not_add_up_are_violations() -> None:
    assert rules_broken(loaded({"stones": ["i5"]}))["stone-supply"] == ("supply",)
    too_many = loaded({"stones": [f"i{n}" for n in range(1, 28)] + ["i1"], "supply": 0})
    assert "stone-count" in rules_broken(too_many)


def test_bad_plank_supports_are_violations() -> None:
    planks = [
        {"on": "v1-i10", "plank": "red3"},  # i10 has no stone
        {"on": "v1-v2", "plank": "red6"},  # two villages, 100 apart
        {"on": "i2-i3", "plank": "red1"},
    ]
    state = loaded({"stones": ["i2", "i3"], "supply": 25, "planks": planks})
    broken = rules_broken(state)
    assert broken["plank-support"] == ("v1-i10", "i10")
    assert broken["plank-supports"] == ("v1-v2",)
    assert broken["plank-length"] == ("v1-v2",)
    assert "i2-i3" not in str(broken)


def test_a_plank_too_short_for_its_gap_is_a_violation() -> None:
    state = loaded({"stones": ["i10"], "supply": 26, "planks": [{"on": "v1-i10", "plank": "red2"}]})
    assert rules_broken(state) == {"plank-length": ("v1-i10",)}


def test_crossing_doubled_and_overloaded_planks_are_violations() -> None:
    stones = ["i1", "i2", "i3", "i4", "i6", "i8", "i9"]
    planks = [
        {"on": "i3-i9", "plank": "yellow5"},
        {"on": "i2-i8", "plank": "red5"},
        {"on": "i1-i2", "plank": "red2"},
        {"on": "i1-i4", "plank": "red3"},
        {"on": "i1-i6", "plank": "red4"},
        {"on": "i1-i8", "plank": "red6"},
        {"on": "i1-i8", "plank": "yellow6"},
    ]
    state = loaded({"stones": stones, "supply": 20, "planks": planks})
    broken = rules_broken(state)
    assert broken["plank-doubled"] == ("i1-i8",)
    assert broken["support-limit"] == ("i1",)
    assert ("i2-i8", "i3-i9") in {v.cells for v in GAME.violations(state) if v.rule == "plank-crossing"}
    lenient = RiverDragons(rules=Rules("text", planks_may_cross=True, planks_per_support=5))
    assert set(rules_broken(state, lenient)) == {"plank-doubled"}


def test_pawns_sharing_a_plank_or_standing_where_no_plank_lies_are_violations() -> None:
    state = bridged(pawns={0: "i3-i4", 1: "i3-i4"})
    assert rules_broken(state) == {"plank-occupied": ("i3-i4",)}
    floating = loaded({"pawns": ["i5-i6", "v4"]})
    assert rules_broken(floating) == {"pawn-place": ("i5-i6",)}


def test_a_pawn_on_its_goal_in_a_running_game_is_a_violation() -> None:
    assert rules_broken(loaded({"pawns": ["v4", "v4"]})) == {"arrived": ("v4",)}


def test_reserves_break_the_length_and_colour_limits() -> None:
    three = RiverDragons(3)
    state = table(three, reserves={0: "red1 yellow1 green2"})
    broken = rules_broken(state, three)
    assert broken["reserve-lengths"] == ("p0.reserve",) and broken["reserve-colours"] == ("p0.reserve",)
    doubled = {v.cells for v in three.violations(state) if v.rule == "plank-piece"}
    assert doubled == {("yellow1",), ("green2",)}  # still in their owners' reserves too


def test_a_plank_of_no_players_colour_is_a_violation() -> None:
    assert rules_broken(table(reserves={0: "red1 white2"})) == {"plank-colour": ("white2",)}


def test_programs_breaking_the_planning_rules_are_violations() -> None:
    state = replace(
        planned(GAME, table(), program("stone1"), WAITING),
        programs=(("stone1", "stone1", "dragon-yellow", "dragon-red", "move1"), ("plank1",)),
    )
    broken = rules_broken(state)
    assert broken["card-once"] == ("p0.program",)
    assert broken["card-in-hand"] == ("p0.program",)
    assert broken["one-dragon"] == ("p0.program",)
    assert broken["program-size"] == ("p1.program",)


def test_violations_read_a_lost_plank_and_a_finished_game() -> None:
    state = replace(table(), lost=(Plank("red", 1),), reserves=((Plank("red", 1),), ()))
    assert rules_broken(state) == {"plank-piece": ("red1",)}
    won = replace(table(), pawns=("v4", "v4"), phase=Phase.OVER, to_move=None, winner=0, ended_by="arrived")
    assert GAME.violations(won) == [] and GAME.outcome(won) is not None
    assert LaidPlank(("i10", "v1"), Plank("red", 3)).place == "v1-i10"
