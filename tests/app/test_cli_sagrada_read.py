"""`tablesight sagrada read`: bad input stops with one line naming it and a non-zero exit."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from companion_app.cli import main


def test_an_unreadable_file_is_one_line_and_fails(tmp_path: Path) -> None:
    photo = tmp_path / "table.jpg"
    photo.write_bytes(b"not a photo at all")
    result = CliRunner().invoke(main, ["sagrada", "read", str(photo)])
    assert result.exit_code != 0
    assert result.output.strip().count("\n") == 0 and result.output.startswith("Error:")
    assert "table.jpg" in result.output and "model" not in result.output


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["sagrada", "read", str(tmp_path / "nowhere.png")])
    assert result.exit_code != 0 and "nowhere.png" in result.output


def test_an_unknown_pattern_is_named_in_the_error(tmp_path: Path) -> None:
    photo = tmp_path / "table.png"
    photo.write_bytes(b"")
    result = CliRunner().invoke(main, ["sagrada", "read", str(photo), "--pattern", "Nonesuch"])
    assert result.exit_code != 0
    assert "--pattern" in result.output and "Nonesuch" in result.output


def test_negative_tokens_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["sagrada", "read", str(tmp_path / "x.png"), "--tokens", "-1"])
    assert result.exit_code != 0 and "--tokens" in result.output
