"""`tablesight sagrada score` through click's test runner: text, JSON and every kind of bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result

from companion_app.cli import main
from engine.sagrada.objectives import PUBLIC_OBJECTIVES

README_WINDOW = "r5 g2 b1 p3 b2/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 r4"
# Colour index (2r + c) mod 5 and value (r + c) mod 6 + 1, with row 4 left empty: legal, 5 empty spaces.
THREE_ROWS = "r1 y2 g3 b4 p5/g2 b3 p4 r5 y6/p3 r4 y5 g6 b1/-- -- -- -- --"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["sagrada", "score", *args])


def test_text_output_shows_each_part_and_the_total() -> None:
    result = run(
        "--window", README_WINDOW, "--objectives", "Row Color Variety,Color Diagonals", "--private", "red"
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # Row 4 (b y p g r) is the only five-colour row: 6; Color Diagonals 15 (see test_objectives); reds
    # 5 + 1 + 4 = 10; no tokens, no empty space.
    assert any(line.split()[:4] == ["Row", "Color", "Variety", "6"] for line in lines)
    assert any(line.split()[:3] == ["Color", "Diagonals", "15"] for line in lines)
    assert any(line.split()[:4] == ["Shades", "of", "Red", "10"] for line in lines)
    assert lines[-3].split() == ["Total", "31"]
    assert lines[-1] == "No violations."


def test_text_output_lists_violations_and_marks_illegal_dice() -> None:
    result = run("--window", README_WINDOW, "--pattern", "firelight")
    assert result.exit_code == 0, result.output
    # Firelight prints a 3 on r1c1, where r5 lies.
    assert "space-value [r1c1]: space r1c1 needs a 3, got r5" in result.stdout
    assert "r5!" in result.stdout
    assert "Violations (10)" in result.stdout


def test_json_output_is_one_object_with_all_ten_cards_by_default() -> None:
    result = run("--window", README_WINDOW, "--private", "red", "--tokens", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data["objectives"]) == [card.name for card in PUBLIC_OBJECTIVES]
    # The hand counts of test_objectives' README window: 6 20 5 16 6 6 4 10 12 15 = 100; red 10; 2 tokens.
    assert sum(data["objectives"].values()) == 100
    assert (data["private"], data["favor_tokens"], data["empty_spaces"]) == (10, 2, 0)
    assert data["total"] == 112
    assert data["violations"] == []


def test_json_output_scores_only_the_named_cards_under_the_text_rules() -> None:
    result = run("--window", THREE_ROWS, "--objectives", "row color variety", "--rules", "text", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # Rows 1-3 have five colours each (18); five empty spaces at -5 each under the rule text.
    assert data["objectives"] == {"Row Color Variety": 18}
    assert (data["empty_spaces"], data["empty_space_points"], data["total"]) == (5, -25, -7)
    assert data["rules"] == "text"


def test_json_violations_carry_rule_cells_and_message() -> None:
    result = run("--window", "-- -- -- -- --/-- r3 -- -- --/-- -- -- -- --/-- -- -- -- --", "--json")
    data = json.loads(result.stdout)
    assert [(v["rule"], v["cells"]) for v in data["violations"]] == [("no-edge-die", ["r2c2"])]
    assert data["violations"][0]["message"]


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--window", "r5 g2 b1 p3 b2/p4 b6 p4 b5 y6"], "--window: malformed window"),
        (["--window", README_WINDOW.replace("g6", "g9")], "r3c3"),
        (
            ["--window", README_WINDOW, "--pattern", "Moon Glory"],
            "--pattern: unknown pattern 'Moon Glory'",
        ),
        (
            ["--window", README_WINDOW, "--objectives", "Diagonal Shades"],
            "--objectives: unknown public objective",
        ),
        (["--window", README_WINDOW, "--private", "pink"], "--private: unknown private objective 'pink'"),
        (["--window", README_WINDOW, "--rules", "house"], "--rules: unknown Sagrada ruleset 'house'"),
        (["--window", README_WINDOW, "--tokens", "-2"], "--tokens: unused favor tokens cannot be negative"),
    ],
)
def test_bad_input_fails_with_one_line_naming_what_is_wrong(args: list[str], names: str) -> None:
    result = run(*args)
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit)  # click's own exit, not a traceback
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: ") and names in line


def test_a_missing_window_is_a_usage_error() -> None:
    result = run("--json")
    assert result.exit_code == 2
    assert "--window" in result.stderr
