"""The end of a game: the score sheet (page, CSV, JSON) and the timeline of every capture and correction."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, render_template

from companion_app import history, sagrada_table
from companion_app.pages import load_game
from companion_app.table import load_sagrada_game

bp = Blueprint("results", __name__, url_prefix="/g/<token>")

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def _standings(game: history.Game) -> list[sagrada_table.Standing]:
    views = sagrada_table.player_windows(game.setup, history.players(game), history.captures(game))
    return sagrada_table.standings(game.setup, views)


def _solo(game: history.Game, standings: list[sagrada_table.Standing]) -> sagrada_table.SoloResult | None:
    return sagrada_table.solo_result([line.view for line in standings], history.captures(game))


@bp.get("/scores")
def score_sheet(token: str) -> str:
    game = load_sagrada_game(token)
    standings = _standings(game)
    return render_template(
        "scores.html",
        game=game,
        standings=standings,
        solo=_solo(game, standings),
        ended=history.has_ended(game),
    )


@bp.get("/scores.json")
def score_json(token: str) -> dict[str, Any]:
    game = load_sagrada_game(token)
    standings = _standings(game)
    solo = _solo(game, standings)
    return {
        "game": game.kind,
        "created_at": game.created_at,
        "ended": history.has_ended(game),
        "setup": game.setup,
        "standings": [
            {
                "place": line.place,
                "player": line.view.player.name,
                "colour": line.view.player.colour,
                "pattern": line.view.pattern.name,
                "private_objective": line.view.private_objective_names,
                "window": str(line.view.window) if line.view.window is not None else None,
                "score": line.view.score.to_json() if line.view.score is not None else None,
            }
            for line in standings
        ],
        "solo": {"target": solo.target, "beaten": solo.beaten} if solo is not None else None,
    }


@bp.get("/scores.csv")
def score_csv(token: str) -> Response:
    game = load_sagrada_game(token)
    objectives: list[str] = list(game.setup["public_objectives"])
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(
        [
            "place",
            "player",
            "pattern",
            *objectives,
            "private objective",
            "favor tokens",
            "empty spaces",
            "total",
        ]
    )
    for line in _standings(game):
        score = line.view.score
        points = {objective.name: objective.points for objective in score.objectives} if score else {}
        parts = [points.get(name, 0) for name in objectives]
        writer.writerow(
            [
                line.place,
                _cell_text(line.view.player.name),
                line.view.pattern.name,
                *parts,
                line.private_points,
                line.favor_tokens,
                score.empty_space_points if score else 0,
                line.total,
            ]
        )
    filename = f"tablesight-{game.kind}-{game.created_at[:10]}.csv"
    return Response(
        buffer.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.get("/timeline")
def timeline(token: str) -> str:
    game = load_game(token)
    captures = {capture.id: capture for capture in history.captures(game)}
    return render_template(
        "timeline.html", game=game, events=history.events_after(game, 0), captures=captures
    )


def _cell_text(text: str) -> str:
    """Keep a spreadsheet from running a player's name as a formula."""
    return f"'{text}" if text.startswith(FORMULA_PREFIXES) else text
