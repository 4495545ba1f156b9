"""`tablesight riverdragons check`: a River Dragons table saved as the engine's JSON, checked and scored."""

from __future__ import annotations

import json
from pathlib import Path

import click

from companion_app.commands.files import read_json_object
from engine.core import EngineError
from engine.riverdragons.board import Board, default_board, load_board
from engine.riverdragons.game import RiverDragons, Standing, rules_named

MOVES_SHOWN = 12


@click.group()
def riverdragons() -> None:
    """River Dragons / Dragon Delta: check a table and see how far each pawn is from its goal."""


@riverdragons.command("check")
@click.argument("state_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--board",
    "board_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A board layout calibrated to your copy, in engine/data/riverdragons_board.json's format.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def check_command(state_file: Path, board_path: Path | None, as_json: bool) -> None:
    """Check a River Dragons table saved as the engine's state JSON: every rule the position breaks, each
    pawn's progress (the fewest steps to its goal over the planks laid), the result once the game is over,
    else the legal moves of the player to move."""
    data = read_json_object(state_file, "River Dragons state")
    board = _board(board_path)
    try:
        pawns = data.get("pawns")
        colours = data.get("colours")
        game = RiverDragons(
            len(pawns) if isinstance(pawns, list) else 0,
            rules_named(str(data.get("rules"))),
            board,
            tuple(str(c) for c in colours) if isinstance(colours, list) else (),
        )
        state = game.state_from_json(data)
    except EngineError as exc:
        raise click.ClickException(f"{state_file}: {exc}") from None
    standings = game.score(state)
    violations = game.violations(state)
    outcome = game.outcome(state)
    moves = [] if outcome is not None else [str(m) for m in game.legal_moves(state)]
    if as_json:
        report = {
            "standings": [s.to_json() for s in standings],
            "violations": [v.to_json() for v in violations],
            "outcome": None if outcome is None else outcome.to_json(),
            "to_move": state.to_move,
            "legal_moves": moves,
        }
        click.echo(json.dumps(report))
        return
    for standing in standings:
        click.echo(_standing_line(standing))
    for violation in violations:
        click.echo(f"  ! {violation.rule}: {violation.message}")
    if outcome is not None:
        winner = f"player {outcome.winners[0]} wins" if outcome.winners else "nobody wins"
        click.echo(f"Game over ({outcome.reason}): {winner}")
    else:
        shown = ", ".join(moves[:MOVES_SHOWN])
        more = f" and {len(moves) - MOVES_SHOWN} more" if len(moves) > MOVES_SHOWN else ""
        click.echo(f"Player {state.to_move} to move: {len(moves)} legal moves: {shown}{more}")


def _board(path: Path | None) -> Board:
    if path is None:
        return default_board()
    try:
        return load_board(read_json_object(path, "board"))
    except EngineError as exc:
        raise click.ClickException(f"{path}: {exc}") from None


def _standing_line(standing: Standing) -> str:
    if standing.arrived:
        progress = "arrived"
    elif standing.steps_to_goal is None:
        progress = "no route yet"
    else:
        progress = f"{standing.steps_to_goal} steps to go"
    reserve = " ".join(str(p) for p in standing.reserve) or "empty"
    return (
        f"Player {standing.player} ({standing.colour}) at {standing.place}, goal {standing.goal}: "
        f"{progress}; reserve {reserve}"
    )
