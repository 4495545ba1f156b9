"""`tablesight cubist`: checking a structure, scoring a saved table, and one-line errors for bad input."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from companion_app.cli import main
from engine.cubist.game import Cubist, Phase
from tests.engine.cubist.helpers import acting, started, taking, with_board


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["cubist", *args])
    return result.exit_code, result.stdout, result.stderr


def test_check_names_the_matching_installation_and_where_dice_may_go() -> None:
    code, out, _ = run("check", "0,0,0=3 0,1,0=4", "--dice", "2,5", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["problems"] == []
    assert {"card": "installation-01", "points": 2} in report["matches"]
    assert report["placements"]["2"] == ["1,0,0", "-1,0,0", "0,-1,0"]
    assert sorted(report["placements"]["5"]) == ["-1,1,0", "0,2,0", "1,1,0"]
    code, text, _ = run("check", "0,0,0=3 0,1,0=4")
    assert code == 0 and "every placement rule is kept" in text and "installation-01 (2 points)" in text


def test_check_reports_every_rule_a_structure_breaks() -> None:
    code, out, _ = run("check", "0,0,0=3 1,0,0=5 1,0,2=4", "--json")
    assert code == 0
    rules = [p["rule"] for p in json.loads(out)["problems"]]
    assert rules == ["differ-by-one", "stack-support", "connected"]
    code, text, _ = run("check", "0,0,0=2 0,0,1=3")
    assert "! stack-equal at 0,0,1 0,0,0" in text and "Matches no installation card" in text


def test_check_refuses_malformed_structures_dice_and_card_files(tmp_path: Path) -> None:
    code, _, err = run("check", "0,0=3")
    assert code == 1 and "malformed position '0,0'" in err
    code, _, err = run("check", "0,0,0=3", "--dice", "7")
    assert code == 1 and "--dice: dice show 1-6" in err
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps({"museums": [], "installations": [], "artists": []}))
    code, _, err = run("check", "0,0,0=3", "--cards", str(cards))
    assert code == 1 and "at least one installation card" in err


def test_score_reads_a_saved_table_and_lists_the_moves_of_the_player_to_move(tmp_path: Path) -> None:
    game = Cubist(2)
    state = acting(started(game=game), storeroom=(3, 4))
    saved = tmp_path / "table.json"
    saved.write_text(json.dumps(game.state_to_json(state)))
    code, out, _ = run("score", str(saved), "--json")
    assert code == 0
    report = json.loads(out)
    assert report["outcome"] is None and report["to_move"] == 0 and report["violations"] == []
    assert "place s3 w0 0,0,0" in report["legal_moves"] and "end 3 4" in report["legal_moves"]
    assert [s["total"] for s in report["scores"]] == [0, 0]


def test_score_reports_the_winner_and_violations_of_a_finished_table(tmp_path: Path) -> None:
    game = Cubist(2)
    state = with_board(taking(started(game=game), 1, "installation-03", (None,)), 1, storage=(1, 2, 3))
    state = replace(state, phase=Phase.OVER, to_move=None, ended_by="museum")
    saved = tmp_path / "table.json"
    saved.write_text(json.dumps(game.state_to_json(state)))
    code, out, _ = run("score", str(saved))
    assert code == 0
    assert "Player 1: 3 points (installation-03 3; 0 museum dice = 0)" in out
    assert "! storage-limit: player 1's storage holds 3 dice" in out
    assert "Game over (museum): player 1 wins" in out


def test_score_refuses_unreadable_or_malformed_tables(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    code, _, err = run("score", str(missing))
    assert code == 1 and "cannot read the Cubist state" in err
    for text, named in (
        ("not json", "is not JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"rules": "house", "boards": [{}, {}]}', "unknown Cubist ruleset 'house'"),
        ('{"rules": "published", "boards": [1, 2]}', "malformed Cubist state"),
        ('{"rules": "published", "boards": [1]}', "Cubist seats 2 to 4 players, not 1"),
    ):
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        code, _, err = run("score", str(bad))
        assert code == 1 and named in err, (text, err)
