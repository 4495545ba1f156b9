"""The front page and new games: pick a game, seat the players, deal the set-up, get the join link."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion_app import history, sagrada_table

bp = Blueprint("home", __name__)

MAX_NAME_LENGTH = 40
PLAYER_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")


class PlayerError(ValueError):
    """A player's name or colour on the new-game form is missing or not allowed."""


@dataclass(frozen=True)
class GameKind:
    """A game the companion knows; `page` is the endpoint of its game page once it is wired end to end."""

    key: str
    title: str
    summary: str
    page: str | None

    @property
    def ready(self) -> bool:
        return self.page is not None


GAMES: tuple[GameKind, ...] = (
    GameKind(
        "sagrada",
        "Sagrada",
        "Dice windows of stained glass: running score and placement rules.",
        "table.game",
    ),
    GameKind("cubist", "Cubist", "Stacked dice sculptures and the museum.", None),
    GameKind("runbuster", "Run Buster", "Roll for straights, bust your rival's dice.", "runbuster.game"),
    GameKind("river-dragons", "River Dragons / Dragon Delta", "Cross the delta island by island.", None),
)


def game_kind(key: str) -> GameKind:
    for kind in GAMES:
        if kind.key == key:
            return kind
    abort(404, description=f"TableSight knows no game called {key!r}.")


@bp.get("/")
def index() -> str:
    return render_template("index.html", games=GAMES)


@bp.get("/new/<kind>")
def new_game(kind: str) -> str:
    return _setup_form(_ready_kind(kind), error=None)


@bp.post("/new/<kind>")
def create_game(kind: str) -> Response | tuple[str, int]:
    game_kind = _ready_kind(kind)
    try:
        seated = _seated_players()
        game_setup, player_setups = sagrada_table.read_setup(request.form, [seat for seat, _, _ in seated])
    except (PlayerError, sagrada_table.SetupError) as error:
        return _setup_form(game_kind, error=str(error)), 400
    players = [
        history.NewPlayer(name, colour, setup)
        for (_, name, colour), setup in zip(seated, player_setups, strict=True)
    ]
    game = history.create_game(game_kind.key, game_setup, players)
    return redirect(url_for("table.game", token=game.token), code=303)


def _seated_players() -> list[tuple[int, str, str]]:
    """(seat, name, colour) for every seat with a name; seats left blank stay empty."""
    seated = []
    for seat in range(1, sagrada_table.MAX_PLAYERS + 1):
        name = " ".join(request.form.get(f"name_{seat}", "").split())
        if not name:
            continue
        if len(name) > MAX_NAME_LENGTH:
            raise PlayerError(f"player {seat}: a name is at most {MAX_NAME_LENGTH} characters")
        colour = request.form.get(f"colour_{seat}", "")
        if colour not in PLAYER_COLOURS:
            raise PlayerError(f"player {seat}: choose a colour from the list, not {colour!r}")
        seated.append((seat, name, colour))
    names = [name.casefold() for _, name, _ in seated]
    if len(set(names)) != len(names):
        raise PlayerError("two players have the same name; give each a different one")
    return seated


def _ready_kind(key: str) -> GameKind:
    """The game whose set-up form is served here (Sagrada); other games' forms live with their pages."""
    kind = game_kind(key)
    if kind.key != sagrada_table.KIND:
        ready = ", ".join(k.title for k in GAMES if k.ready)
        abort(404, description=f"{kind.title} is coming; for now TableSight tracks {ready} games.")
    return kind


def _setup_form(kind: GameKind, error: str | None) -> str:
    return render_template(
        "new_sagrada.html",
        kind=kind,
        choices=sagrada_table.setup_choices(),
        colours=PLAYER_COLOURS,
        seats=range(1, sagrada_table.MAX_PLAYERS + 1),
        form=request.form,
        error=error,
    )
