"""`tablesight cubist`: check a structure of dice against the placement rules and the installation cards,
and score a Cubist table saved as the engine's JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from companion_app.commands.files import read_json_object
from engine.core import EngineError
from engine.cubist.cards import CardSet, bundled_cards, load_cards
from engine.cubist.game import Cubist, PlayerScore, rules_named
from engine.cubist.structures import FACES, Structure, format_position, parse_structure

CARDS_HELP = "A card set in the bundled file's JSON format (default: the illustrative set)."


def _cards(path: Path | None) -> CardSet:
    if path is None:
        return bundled_cards()
    try:
        return load_cards(read_json_object(path, "card set"))
    except EngineError as exc:
        raise click.ClickException(f"{path}: {exc}") from None


@click.group()
def cubist() -> None:
    """Cubist: the dice placement rules, installation cards and the final score."""


@cubist.command("check")
@click.argument("structure")
@click.option("--dice", default="", help="Dice you may place next, e.g. 3,4: where each may go.")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False, path_type=Path), help=CARDS_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def check_command(structure: str, dice: str, cards_path: Path | None, as_json: bool) -> None:
    """Check a workroom's STRUCTURE ("0,0,0=3 1,0,0=4 1,0,1=4": x,y,level=value per die): every rule it
    breaks, the installation cards it matches in any of its four turns, and where --dice may go."""
    try:
        built = parse_structure(structure)
    except EngineError as exc:
        raise click.ClickException(str(exc)) from None
    values = [part.strip() for part in dice.split(",") if part.strip()]
    if not all(v.isdigit() and int(v) in FACES for v in values):
        raise click.ClickException(f"--dice: dice show 1-6, separated by commas, got {dice!r}")
    report = _check(built, sorted({int(v) for v in values}), _cards(cards_path))
    if as_json:
        click.echo(json.dumps(report))
        return
    click.echo(f"Structure {built} ({len(built)} dice)")
    for problem in report["problems"]:
        click.echo(f"  ! {problem['rule']} at {' '.join(problem['positions'])}: {problem['message']}")
    if not report["problems"]:
        click.echo("  every placement rule is kept")
    matches = [f"{m['card']} ({m['points']} points)" for m in report["matches"]]
    click.echo(f"Matches {', '.join(matches)}" if matches else "Matches no installation card")
    for value, spots in report["placements"].items():
        click.echo(f"A {value} may go at {' '.join(spots) or 'no position'}")


def _check(built: Structure, values: list[int], cards: CardSet) -> dict[str, Any]:
    return {
        "structure": str(built),
        "problems": [
            {"rule": p.rule, "positions": [format_position(x) for x in p.positions], "message": p.message}
            for p in built.problems()
        ],
        "matches": [
            {"card": card.id, "points": card.points}
            for card in cards.installations.values()
            if len(built) and built.matches(card.structure)
        ],
        "placements": {
            str(value): [
                format_position(spot)
                for spot in built.candidate_positions()
                if built.refusal(spot, value, "workroom") is None
            ]
            for value in values
        },
    }


@cubist.command("score")
@click.argument("state_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False, path_type=Path), help=CARDS_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def score_command(state_file: Path, cards_path: Path | None, as_json: bool) -> None:
    """Score a Cubist table saved as the engine's state JSON: each player's points, every rule broken,
    the result once the game is over, else the legal moves of the player to move."""
    data = read_json_object(state_file, "Cubist state")
    cards = _cards(cards_path)
    try:
        boards = data.get("boards")
        players = len(boards) if isinstance(boards, list) else 0
        game = Cubist(players, rules_named(str(data.get("rules"))), cards)
        state = game.state_from_json(data)
    except EngineError as exc:
        raise click.ClickException(f"{state_file}: {exc}") from None
    scores = game.score(state)
    violations = game.violations(state)
    outcome = game.outcome(state)
    waiting = outcome is not None or game.is_chance_node(state)
    moves = [] if waiting else [str(m) for m in game.legal_moves(state)]
    if as_json:
        report = {
            "scores": [s.to_json() for s in scores],
            "violations": [v.to_json() for v in violations],
            "outcome": None if outcome is None else outcome.to_json(),
            "to_move": state.to_move,
            "legal_moves": moves,
        }
        click.echo(json.dumps(report))
        return
    for score in scores:
        click.echo(_score_line(score))
    for violation in violations:
        click.echo(f"  ! {violation.rule}: {violation.message}")
    if outcome is not None:
        winners = " and ".join(f"player {p}" for p in outcome.winners)
        click.echo(f"Game over ({outcome.reason}): {winners} {'win' if len(outcome.winners) > 1 else 'wins'}")
    elif game.is_chance_node(state):
        click.echo("Waiting for a roll or a card to be turned up")
    else:
        shown = ", ".join(moves[:12]) + (f" and {len(moves) - 12} more" if len(moves) > 12 else "")
        click.echo(f"Player {state.to_move} to move: {len(moves)} legal moves: {shown}")


def _score_line(score: PlayerScore) -> str:
    cards = " + ".join(f"{card} {points}" for card, points in score.installations) or "no installation"
    return (
        f"Player {score.player}: {score.total} points ({cards}; {score.museum_dice} museum dice = "
        f"{score.museum_points})"
    )
