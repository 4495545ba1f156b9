"""`tablesight riverdragons check`: a saved table's standings, violations, result or moves; bad files."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from companion_app.cli import main
from tests.engine.riverdragons.helpers import GAME, bridged, table


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["riverdragons", *args])
    return result.exit_code, result.stdout, result.stderr


def saved(tmp_path: Path, data: dict[str, object]) -> str:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_check_shows_each_pawns_way_to_its_goal_and_the_moves_to_plan(tmp_path: Path) -> None:
    state = bridged(pawns={0: "v1-i10"})
    code, out, _ = run("check", saved(tmp_path, GAME.state_to_json(state)), "--json")
    assert code == 0
    report = json.loads(out)
    red, yellow = report["standings"]
    assert (red["place"], red["goal"], red["steps_to_goal"]) == ("v1-i10", "v4", 6)
    assert yellow["steps_to_goal"] is not None and report["violations"] == []
    assert report["outcome"] is None and report["to_move"] == 0
    assert "plan move2" in report["legal_moves"]
    code, text, _ = run("check", saved(tmp_path, GAME.state_to_json(state)))
    assert code == 0 and "Player 0 (red) at v1-i10, goal v4: 6 steps to go; reserve empty" in text


def test_check_names_every_rule_a_photographed_table_breaks(tmp_path: Path) -> None:
    state = table(stones=("i10",), planks={"v1-i2": "red1"})
    code, out, _ = run("check", saved(tmp_path, GAME.state_to_json(state)), "--json")
    assert code == 0
    rules = {v["rule"] for v in json.loads(out)["violations"]}
    assert rules == {"plank-support", "plank-length"}  # i2 holds no stone; a 1 spans 24 of the 73 needed
    code, text, _ = run("check", saved(tmp_path, GAME.state_to_json(state)))
    assert code == 0 and text.count("  ! ") == len(json.loads(out)["violations"])


def test_check_refuses_unreadable_or_malformed_tables_and_boards(tmp_path: Path) -> None:
    code, _, err = run("check", str(tmp_path / "missing.json"))
    assert code == 1 and "cannot read the River Dragons state" in err
    good = GAME.state_to_json(GAME.initial_state())
    for data, named in (
        ({**good, "rules": "house"}, "unknown"),
        ({**good, "pawns": ["v1"]}, "River Dragons seats 2 to 6 players, not 1"),
        ({**good, "phase": "dancing"}, "malformed River Dragons state"),
    ):
        code, _, err = run("check", saved(tmp_path, data))
        assert code == 1 and named in err, (data, err)
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"name": "mine"}))
    code, _, err = run("check", saved(tmp_path, good), "--board", str(board))
    assert code == 1 and "lacks the key 'villages'" in err
