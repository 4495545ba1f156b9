"""`tablesight runbuster`: advice as a table and as JSON, the odds, the solve, and one-line errors."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion_app.cli import main
from engine.runbuster.solver import DATA_FILE, value_table


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["runbuster", *args])
    return result.exit_code, result.stdout, result.stderr


def test_advise_json_lists_every_keep_best_first() -> None:
    code, out, _ = run("advise", "--hand", "4,5", "--opponent", "2,3", "--roll", "3,4,4,6", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["bust"] is False and data["forced"] is False
    hands = [option["hand"] for option in data["options"]]
    assert sorted(hands) == [[3, 4, 5], [3, 4, 5, 6], [4, 5, 6]]
    chances = [option["win_probability"] for option in data["options"]]
    assert chances == sorted(chances, reverse=True)
    assert all(0 <= option["bust_risk"] <= 1 for option in data["options"])
    best = data["options"][0]
    assert best["win_probability"] == 1 - value_table().win_probability((2, 3), tuple(best["hand"]))


def test_advise_reports_a_bust_and_empty_hands_default_to_empty() -> None:
    code, out, _ = run("advise", "--opponent", "2,3,4", "--roll", "1,1,5,6,2,2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["bust"] is True
    assert [1, 2] in [option["hand"] for option in data["options"]]


def test_advise_a_forced_win_and_a_forced_pass() -> None:
    data = json.loads(run("advise", "--hand", "1,2,3,4,5", "--roll", "6", "--json")[1])
    assert data["forced"] is True
    win = {"hand": [1, 2, 3, 4, 5, 6], "move": "keep 6", "win_probability": 1.0, "bust_risk": 0.0}
    assert data["options"] == [win]
    data = json.loads(run("advise", "--hand", "4,5", "--roll", "1,2,4,5", "--json")[1])
    assert data["forced"] is True
    assert [option["hand"] for option in data["options"]] == [[4, 5]]
    assert data["options"][0]["move"] == "keep -"


def test_advise_prints_a_readable_table() -> None:
    code, out, _ = run("advise", "--hand", "4,5", "--opponent", "2,3", "--roll", "3,4,4,6")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "hand 4-5, opponent 2-3, roll 3-4-4-6"
    assert "win" in lines[1] and "bust risk" in lines[1]
    assert {line.split()[2] for line in lines[2:]} == {"3-4-5", "3-4-5-6", "4-5-6"}
    assert all(line.startswith("keep ") for line in lines[2:])


def test_advise_text_says_when_the_roll_busts_and_when_there_is_one_choice() -> None:
    out = run("advise", "--hand", "1,2,3,4,5", "--opponent", "1,2,3,4,5", "--roll", "6")[1]
    assert "busts the opponent" in out and "Only one choice." in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--roll", "1,2,3,4,5,7"], "not a die value 1-6"),
        (["--hand", "4,6", "--roll", "1,2,3,4"], "not a straight"),
        (["--opponent", "1,1", "--roll", "1,2,3,4,5,6"], "not a straight"),
        (["--hand", "4,5", "--roll", "1,2,3"], "roll 4 dice"),
        (["--roll", "3,,x"], "not a die value"),
        (["--hand", "1,2,3,4,5,6", "--roll", ""], "already won"),
    ],
)
def test_bad_input_is_a_one_line_error(args: list[str], message: str) -> None:
    code, out, err = run("advise", *args)
    assert code != 0
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert message in err


def test_roll_is_required() -> None:
    code, _, err = run("advise", "--hand", "4,5")
    assert code != 0 and "--roll" in err


def test_odds_prints_the_headline_probabilities_from_the_engine() -> None:
    code, out, _ = run("odds")
    assert code == 0
    assert "5/324 = 1.543%" in out
    assert f"{value_table().win_probability((), ()):.3%}" in out
    assert "2-3-4        1-5-6" in out


def test_solve_writes_the_shipped_table(tmp_path: Path) -> None:
    target = tmp_path / "values.json"
    code, _, err = run("solve", "--output", str(target))
    assert code == 0 and "solved 441 positions" in err
    shipped = resources.files("engine").joinpath(DATA_FILE).read_text("utf-8")
    assert json.loads(target.read_text("utf-8")) == json.loads(shipped)
