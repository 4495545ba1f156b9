"""The front page and new games: pick a game, seat the players, deal the set-up, get the join link."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion_app import history, sagrada_table
from companion_app.pages import SeatingError, seated_names

bp = Blueprint("home", __name__)

PLAYER_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")


@dataclass(frozen=True)
class GameKind:
    """A game the companion knows: `new_game` and `page` are the endpoints of its set-up form and its
    game page."""

    key: str
    title: str
    summary: str
    new_game: str
    page: str


GAMES: tuple[GameKind, ...] = (
    GameKind(
        "sagrada",
        "Sagrada",
        "Dice windows of stained glass: running score and placement rules.",
        "home.new_game",
        "table.game",
    ),
    GameKind(
        "cubist",
        "Cubist",
        "Dice workrooms from photos: placement rules, the installation cards they can be, the score.",
        "cubist.new_game",
        "cubist.game",
    ),
    GameKind(
        "runbuster",
        "Run Buster",
        "Roll for straights, bust your rival's dice.",
        "runbuster.new_game",
        "runbuster.game",
    ),
    GameKind(
        "river-dragons",
        "River Dragons / Dragon Delta",
        "Cross the delta island by island.",
        "riverdragons.new_game",
        "riverdragons.game",
    ),
)


def game_kind(key: str) -> GameKind:
    for kind in GAMES:
        if kind.key == key:
            return kind
    abort(404, description=f"This version of TableSight knows no game called {key!r}.")


@bp.get("/")
def index() -> str:
    return render_template("index.html", games=GAMES)


@bp.get("/new/<kind>")
def unknown_game(kind: str) -> str:
    """Every game's own form route comes before this one, so a name that reaches it is no game's."""
    abort(404, description=f"TableSight knows no game called {kind!r}.")


@bp.get("/new/sagrada")
def new_game() -> str:
    return _setup_form(error=None)


@bp.post("/new/sagrada")
def create_game() -> Response | tuple[str, int]:
    try:
        seated = _seated_players()
        game_setup, player_setups = sagrada_table.read_setup(request.form, [seat for seat, _, _ in seated])
    except (SeatingError, sagrada_table.SetupError) as error:
        return _setup_form(error=str(error)), 400
    players = [
        history.NewPlayer(name, colour, setup)
        for (_, name, colour), setup in zip(seated, player_setups, strict=True)
    ]
    game = history.create_game(sagrada_table.KIND, game_setup, players)
    return redirect(url_for("table.game", token=game.token), code=303)


def _seated_players() -> list[tuple[int, str, str]]:
    """(seat, name, colour) for every seat with a name; seats left blank stay empty."""
    seated = []
    for seat, name in seated_names(request.form, range(1, sagrada_table.MAX_PLAYERS + 1)):
        colour = request.form.get(f"colour_{seat}", "")
        if colour not in PLAYER_COLOURS:
            raise SeatingError(f"player {seat}: choose a colour from the list, not {colour!r}")
        seated.append((seat, name, colour))
    return seated


def _setup_form(error: str | None) -> str:
    return render_template(
        "new_sagrada.html",
        choices=sagrada_table.setup_choices(),
        colours=PLAYER_COLOURS,
        seats=range(1, sagrada_table.MAX_PLAYERS + 1),
        form=request.form,
        error=error,
    )
