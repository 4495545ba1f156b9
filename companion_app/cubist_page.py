"""Cubist at the table: each player's workroom from photos, checked against the placement rules and matched
to the installation cards.

A capture is one photo of one player's workroom (or its top view typed). A photo from above shows each
column's top value, not reliably its height (`vision.cubist.workroom`), so a capture holds a top view: the
rules it breaks whatever the heights, and the cards it can be with the heights each needs. The players fix
a misread column by typing its value (a correction of the capture: the column "x,y" in `cell`, its value
in `die`, None for no die there) and confirm the heights they see with one correction of them all
(`cell` "heights", `die` "x,y:h ..."). With every column's height known the workroom is a whole structure:
checked in three dimensions and matched to the cards exactly.

A workroom that is exactly an installation card can be completed for its points (a correction, `cell`
"completed", `die` the card), and each player says how many of their dice lie in the shared museum (a
capture with no photo, `{"source": "museum", "museum_dice": n}`, the latest one counting). The page keeps
the score sheet from these, and the game ends at once when a player completes their fifth installation,
or when the players end it at the table (the museum complete).
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from werkzeug.wrappers import Response

from companion_app import history
from companion_app.history import Capture, Game, Player
from companion_app.pages import (
    SeatingError,
    capture_of,
    demo_files,
    join_url,
    kept_drawing,
    load_game_of_kind,
    owner_of,
    player_in_seat,
    refuse_if_ended,
    remember_seat,
    remembered_seat,
    seated_names,
    send_demo,
    sent_photo,
    submission_key,
    undo_last_fix,
)
from companion_app.photos import keep_photo
from engine.core import EngineError
from engine.cubist.cards import CardSet, InstallationCard, bundled_cards
from engine.cubist.game import DICE_PER_PLAYER, PUBLISHED, PlayerScore, standings
from engine.cubist.structures import FACES, Column, Problem, Structure
from engine.cubist.topview import InstallationMatch, TopView
from vision.cubist.workroom import READING_LONG_SIDE, WORKROOM_COLORS, WorkroomReader, annotate
from vision.decode import DecodedImage
from vision.errors import ModelUnavailable, VisionError
from vision.read import SECOND_LOOK_BELOW

bp = Blueprint("cubist", __name__)

KIND = "cubist"
DEMO_FOLDER = Path(__file__).parent / "demo" / "cubist"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_TYPED_COLUMNS = 30
HEIGHTS_CELL = "heights"
COMPLETED_CELL = "completed"
MUSEUM_SOURCE = "museum"
NO_READER = "The photo is kept, but this TableSight cannot read dice from photos: type the top view."

_COMPLETING = threading.Lock()

WorkroomPhotoReader = Callable[[DecodedImage], dict[str, Any]]
"""What `PHOTO_READERS["cubist"]` holds: a photo decoded at least `READING_LONG_SIDE` long (where the photo
is), as the top-face finder needs, to the reading."""


class TypedError(ValueError):
    """A top view, column or heights typed on the page cannot be read; the message says what is wrong."""


@cache
def _shared_reader() -> WorkroomReader:
    """The process's workroom reader, loaded on the first photo and kept (a failed load is tried again)."""
    return WorkroomReader()


def read_photo(decoded: DecodedImage) -> dict[str, Any]:
    """The photo reader this page plugs into `PHOTO_READERS`: the columns as read, anything left out, and
    under "annotated" the photo with each face's column and value drawn on it (pixels, kept by the page)."""
    reading = _shared_reader().read_pixels(decoded.pixels, 1 / decoded.scale)
    columns = [
        {
            "x": column.column[0],
            "y": column.column[1],
            "value": column.face.value,
            "unsure": column.face.value_confidence < SECOND_LOOK_BELOW,
        }
        for column in reading.columns
    ]
    unplaced = len(reading.unplaced)
    message = f"{unplaced} dice seen apart from the structure were left out" if unplaced else None
    if not columns:
        message = "No die of a workroom was found on the photo: type the top view, or send another photo."
    return {
        "columns": columns,
        "color": reading.color,
        "unplaced": unplaced,
        "message": message,
        "annotated": annotate(decoded.pixels, reading),
    }


@bp.record_once
def _plug_in_reader(state: BlueprintSetupState) -> None:
    """Read workroom photos with the shipped models unless the app was given another reader."""
    state.app.config["PHOTO_READERS"].setdefault(KIND, read_photo)


# --- the workroom a capture shows ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Workroom:
    """A capture's workroom with its corrections in force: each column's top value, and the heights once
    the players have confirmed them for exactly these columns."""

    values: Mapping[Column, int]
    heights: Mapping[Column, int] | None
    corrected: frozenset[Column]
    unsure: frozenset[Column]
    color: str | None
    completed: str | None  # the installation card the players completed it as, if they did

    @property
    def view(self) -> TopView:
        return TopView(self.values)

    @property
    def structure(self) -> Structure | None:
        return self.view.with_heights(self.heights) if self.heights is not None and self.values else None

    @property
    def shown_heights(self) -> Mapping[Column, int]:
        """The heights confirmed, else one die per column: what the heights form starts from."""
        return self.heights if self.heights is not None else dict.fromkeys(self.values, 1)

    def rows(self) -> list[list[Column]]:
        """The columns' grid from the top row down (y up, as the structure counts), one spare cell round it
        so a missed die can be added beside the others."""
        if not self.values:
            return [[(0, 0)]]
        xs = [x for x, _ in self.values]
        ys = [y for _, y in self.values]
        return [
            [(x, y) for x in range(min(xs) - 1, max(xs) + 2)] for y in range(max(ys) + 1, min(ys) - 2, -1)
        ]


@dataclass(frozen=True)
class Verdict:
    """What the rules say of a workroom: the problems, and the cards (with heights from the top view alone;
    exactly, by structure, once the heights are confirmed)."""

    problems: tuple[Problem, ...]
    matches: tuple[InstallationMatch, ...]
    exact: tuple[InstallationCard, ...] | None  # None until the heights are known


def workroom_of(capture: Capture) -> Workroom:
    """The capture's columns as read or typed, each column fix applied, then the heights confirmed."""
    read = capture.reading.get("columns") or []
    values: dict[Column, int] = {(c["x"], c["y"]): c["value"] for c in read}
    unsure = {(c["x"], c["y"]) for c in read if c.get("unsure")}
    corrections = capture.corrected_cells()
    fixed: set[Column] = set()
    for cell, die in corrections.items():
        if cell in (HEIGHTS_CELL, COMPLETED_CELL):
            continue
        column = parse_column(cell)
        fixed.add(column)
        if die is None:
            values.pop(column, None)
        else:
            values[column] = int(die)
    heights_text = corrections.get(HEIGHTS_CELL)
    heights = parse_heights(heights_text) if heights_text else None
    if heights is not None and set(heights) != set(values):
        heights = None  # confirmed for other columns: a column fixed since needs its heights again
    return Workroom(
        values,
        heights,
        frozenset(fixed),
        frozenset(unsure - fixed),
        capture.reading.get("color"),
        corrections.get(COMPLETED_CELL),
    )


def verdict_of(workroom: Workroom, cards: CardSet) -> Verdict:
    structure = workroom.structure
    if structure is not None:
        exact = tuple(card for card in cards.installations.values() if structure.matches(card.structure))
        return Verdict(tuple(structure.problems()), (), exact)
    view = workroom.view
    matches = tuple(view.matching_installations(cards)) if len(view) else ()
    return Verdict(tuple(view.problems()), matches, None)


def parse_column(text: str) -> Column:
    match = re.fullmatch(r"\s*(-?\d{1,2})\s*,\s*(-?\d{1,2})\s*", text)
    if match is None:
        raise TypedError(f"a column is written x,y like 1,0, not {text!r}")
    return int(match[1]), int(match[2])


def format_column(column: Column) -> str:
    return f"{column[0]},{column[1]}"


def parse_heights(text: str) -> dict[Column, int]:
    """Heights written `x,y:h` per column, spaces between (`format_heights` writes them)."""
    heights: dict[Column, int] = {}
    for item in text.split():
        spot, colon, height = item.partition(":")
        if not colon or not height.isdigit() or not 1 <= int(height) <= 9:
            raise TypedError(f"a height is written x,y:h with h from 1, like 1,0:2, not {item!r}")
        heights[parse_column(spot)] = int(height)
    return heights


def format_heights(heights: Mapping[Column, int]) -> str:
    return " ".join(f"{format_column(column)}:{height}" for column, height in sorted(heights.items()))


def parse_top_view(text: str) -> dict[Column, int]:
    """A top view typed row by row from the back of the workroom to the front (rows split by "/" or new
    lines), a digit per column and "." for none: "43/34" is two columns of two, 4 behind 3."""
    rows = [row.replace(" ", "") for row in re.split(r"[/\n]", text.strip()) if row.strip()]
    values: dict[Column, int] = {}
    for row_number, row in enumerate(rows):
        y = len(rows) - 1 - row_number
        for x, mark in enumerate(row):
            if mark == ".":
                continue
            if not mark.isdigit() or int(mark) not in FACES:
                raise TypedError(f"a top view holds digits 1-6 and '.' for no die, not {mark!r}")
            values[(x, y)] = int(mark)
    if not values:
        raise TypedError("the top view holds no die: type a digit 1-6 per column, like 43/34")
    if len(values) > MAX_TYPED_COLUMNS:
        raise TypedError(f"a workroom has at most {MAX_TYPED_COLUMNS} columns, not {len(values)}")
    return values


# --- the page -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaptureView:
    """One capture as the page shows it: whose workroom, what it holds and what the rules say."""

    number: int
    capture: Capture
    player: Player
    workroom: Workroom
    verdict: Verdict

    @property
    def message(self) -> str | None:
        message = self.capture.reading.get("message")
        return str(message) if message else None

    @property
    def completed_card(self) -> InstallationCard | None:
        """The card this workroom was completed as, while it still is that card (a fix since can undo it)."""
        exact = self.verdict.exact or ()
        return next((card for card in exact if card.id == self.workroom.completed), None)

    @property
    def may_go(self) -> Mapping[Column, tuple[int, ...]]:
        """The values a die placed next may show in each column (beside the others or on top), once the
        workroom is a whole structure that keeps the rules and is still being built; empty otherwise."""
        structure = self.workroom.structure
        if structure is None or self.verdict.problems or self.completed_card is not None:
            return {}
        may_go: dict[Column, tuple[int, ...]] = {}
        for spot in structure.candidate_positions():
            values = tuple(v for v in FACES if structure.refusal(spot, v, "workroom") is None)
            if values:
                may_go[spot[:2]] = values
        return may_go

    @property
    def colour_note(self) -> str | None:
        """A workroom read in another player's colour was probably photographed for the wrong player."""
        colour = self.workroom.color
        if colour is None or colour == self.player.colour:
            return None
        player = self.player
        return f"These dice look {colour}, but {player.name} plays {player.colour}: is it their workroom?"


def is_museum_tally(capture: Capture) -> bool:
    return capture.reading.get("source") == MUSEUM_SOURCE


def capture_views(
    captures: Sequence[Capture], players: Sequence[Player], cards: CardSet
) -> list[CaptureView]:
    """The workroom captures, numbered from 1 in the order they came (the museum tallies left out)."""
    by_id = {player.id: player for player in players}
    views = []
    workrooms = [capture for capture in captures if not is_museum_tally(capture)]
    for number, capture in enumerate(workrooms, start=1):
        workroom = workroom_of(capture)
        views.append(
            CaptureView(number, capture, by_id[capture.player_id], workroom, verdict_of(workroom, cards))
        )
    return views


@dataclass(frozen=True)
class ScoreSheet:
    """The points so far, in seat order: installations completed on this page and museum dice as last told;
    the players ahead (the winners once the game is over) and why it ended."""

    scores: tuple[tuple[Player, PlayerScore], ...]
    ahead: tuple[Player, ...]
    over: bool
    ended_by: str | None

    @property
    def taken(self) -> frozenset[str]:
        """The installation cards completed, which no other workroom can be completed as."""
        return frozenset(card for _, score in self.scores for card, _ in score.installations)


def score_sheet(
    views: Sequence[CaptureView], captures: Sequence[Capture], players: Sequence[Player], ended: bool
) -> ScoreSheet:
    completed: dict[int, list[tuple[str, int]]] = {player.id: [] for player in players}
    taken: set[str] = set()
    for view in views:
        card = view.completed_card
        if card is not None and card.id not in taken:  # taken once, by the first to complete it
            taken.add(card.id)
            completed[view.player.id].append((card.id, card.points))
    museum = dict.fromkeys(completed, 0)
    for capture in captures:
        if is_museum_tally(capture):
            museum[capture.player_id] = int(capture.reading["museum_dice"])
    per_die = PUBLISHED.points_per_museum_die
    scores = tuple(
        (
            player,
            PlayerScore(index, tuple(completed[player.id]), museum[player.id], per_die * museum[player.id]),
        )
        for index, player in enumerate(players)
    )
    _, winners = standings([score for _, score in scores])
    scored = ended or any(score.total for _, score in scores)
    ahead = tuple(players[index] for index in winners) if scored else ()
    finisher = next((p for p, s in scores if len(s.installations) >= PUBLISHED.installations_to_end), None)
    ended_by = None
    if ended:
        ended_by = (
            f"{finisher.name} completed {PUBLISHED.installations_to_end} installations"
            if finisher is not None
            else "ended at the table"
        )
    return ScoreSheet(scores, ahead, ended, ended_by)


def page_context(game: Game) -> dict[str, Any]:
    players = history.players(game)
    captures = history.captures(game)
    views = capture_views(captures, players, bundled_cards())
    latest = {view.player.id: view for view in views}
    ended = history.has_ended(game)
    return {
        "game": game,
        "players": players,
        "ended": ended,
        "sheet": score_sheet(views, captures, players, ended),
        "latest": [latest.get(player.id) for player in players],
        "captures": views[::-1],
        "last_event_id": history.last_event_id(game),
        "format_column": format_column,
        "format_heights": format_heights,
        "points_per_museum_die": PUBLISHED.points_per_museum_die,
        "installations_to_end": PUBLISHED.installations_to_end,
    }


def _load(token: str) -> Game:
    return load_game_of_kind(token, KIND, "Cubist")


@bp.get("/new/cubist")
def new_game() -> str:
    return _setup_form(error=None)


@bp.post("/new/cubist")
def create_game() -> Response | tuple[str, int]:
    try:
        seated = _seated_players()
    except SeatingError as error:
        return _setup_form(error=str(error)), 400
    game = history.create_game(KIND, {}, seated)
    return redirect(url_for("cubist.game", token=game.token), code=303)


def _seated_players() -> list[history.NewPlayer]:
    """The players named on the form, each with a colour of Cubist's dice of their own."""
    seated = seated_names(request.form, range(1, MAX_PLAYERS + 1))
    if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS:
        raise SeatingError(f"Cubist is for {MIN_PLAYERS} to {MAX_PLAYERS} players: give at least two a name")
    players = []
    for seat, name in seated:
        colour = request.form.get(f"colour_{seat}", "")
        if colour not in WORKROOM_COLORS:
            allowed = ", ".join(WORKROOM_COLORS)
            raise SeatingError(f"player {seat}: choose a colour of Cubist's dice ({allowed}), not {colour!r}")
        players.append(history.NewPlayer(name, colour, {}))
    if len({p.colour for p in players}) != len(players):
        raise SeatingError("two players have the same colour; each builds with dice of their own")
    return players


def _setup_form(error: str | None) -> str:
    return render_template(
        "cubist/new.html",
        form=request.form,
        error=error,
        seats=range(1, MAX_PLAYERS + 1),
        colours=WORKROOM_COLORS,
    )


@bp.get("/g/<token>/cubist")
def game(token: str) -> str:
    game = _load(token)
    return render_template(
        "cubist/game.html",
        join_url=join_url(game),
        submission=secrets.token_urlsafe(24),
        museum_submission=secrets.token_urlsafe(24),
        max_museum_dice=DICE_PER_PLAYER,
        demos=demo_photos(),
        my_seat=remembered_seat(token),
        **page_context(game),
    )


@bp.get("/g/<token>/cubist/panel")
def panel(token: str) -> str:
    """The live part of the page alone, fetched again whenever the game changes."""
    return render_template("cubist/_workrooms.html", **page_context(_load(token)))


def demo_photos() -> list[str]:
    return demo_files(DEMO_FOLDER)


@bp.get("/cubist/demo/<name>")
def demo_photo(name: str) -> Response:
    return send_demo(DEMO_FOLDER, name)


# --- captures and corrections -------------------------------------------------------------------------------


@bp.post("/g/<token>/cubist/captures")
def add_capture(token: str) -> Response:
    """A player's workroom: a photo (uploaded or a demo) or its top view typed; a resent form counts once."""
    game, submission, player = _open_form(token)
    sent = sent_photo(DEMO_FOLDER, demo_photos())
    typed = request.form.get("top", "").strip()
    if sent is None and not typed:
        abort(400, description="Choose a photo of the workroom or type its top view, then send again.")
    photo = None
    if sent is not None:
        decoded = sent.decoded(READING_LONG_SIDE)
        reading = {"source": "demo" if sent.demo else "photo", **_read_photo(decoded)}
        name = keep_photo(sent.data, decoded, Path(current_app.config["PHOTO_FOLDER"]))
        photo = (name, decoded.stored_width, decoded.stored_height)
        summary = f"{player.name}'s workroom: sent {sent.label}"
    else:
        try:
            values = parse_top_view(typed)
        except TypedError as error:
            abort(400, description=f"The top view could not be read: {error}.")
        columns = [{"x": x, "y": y, "value": v, "unsure": False} for (x, y), v in sorted(values.items())]
        reading = {"source": "typed", "columns": columns, "color": None, "unplaced": 0, "message": None}
        summary = f"{player.name}'s workroom: typed its top view"
    history.add_capture(game, player, submission, reading, summary, photo)
    remember_seat(token, player.seat)
    return redirect(url_for("cubist.game", token=token), code=303)


def _read_photo(decoded: DecodedImage) -> dict[str, Any]:
    """What the photo shows, or why nothing could be read (the photo is kept either way)."""
    reader: WorkroomPhotoReader | None = current_app.config["PHOTO_READERS"].get(KIND)
    if reader is None:
        return {"columns": None, "message": NO_READER}
    try:
        reading = reader(decoded)
    except ModelUnavailable:
        return {"columns": None, "message": NO_READER}
    except VisionError as error:
        return {"columns": None, "message": f"The photo is kept, but it could not be read ({error})."}
    annotated = reading.pop("annotated", None)
    kept = kept_drawing(annotated) if annotated is not None else None
    if kept is not None:
        reading["annotated"] = kept
    return reading


@bp.post("/g/<token>/cubist/captures/<int:capture_id>/columns")
def correct_column(token: str, capture_id: int) -> Response:
    """Fix one column of a capture: the value on top (nothing typed: no die stands there)."""
    game, capture = _open_workroom(token, capture_id)
    text = request.form.get("value", "").strip()
    try:
        column = parse_column(request.form.get("column", ""))
    except TypedError as error:
        abort(400, description=f"The column could not be read: {error}.")
    if text and not (text.isdigit() and int(text) in FACES):
        abort(400, description=f"A die shows 1 to 6, not {text!r}; leave the value empty for no die.")
    workroom = workroom_of(capture)
    where = format_column(column)
    if all(column not in row for row in workroom.rows()):
        abort(400, description=f"Column {where} is neither in the workroom nor beside it; dice touch.")
    if text and column not in workroom.values and len(workroom.values) >= MAX_TYPED_COLUMNS:
        abort(400, description=f"A workroom has at most {MAX_TYPED_COLUMNS} columns.")
    summary = f"{_photo_named(game, capture)}: column {where} "
    summary += f"shows {text}" if text else "holds no die"
    history.add_correction(game, capture.id, where, text or None, summary)
    return redirect(url_for("cubist.game", token=token, _anchor=f"capture-{capture.id}"), code=303)


@bp.post("/g/<token>/cubist/captures/<int:capture_id>/heights")
def confirm_heights(token: str, capture_id: int) -> Response:
    """The heights the players see, for every column at once (typed, or a matching card's, by a button)."""
    game, capture = _open_workroom(token, capture_id)
    workroom = workroom_of(capture)
    if not workroom.values:
        abort(400, description="The workroom holds no die yet: fix its columns first, then its heights.")
    try:
        heights = parse_heights(request.form.get("heights", ""))
        workroom.view.with_heights(heights)
    except (TypedError, EngineError) as error:
        abort(400, description=f"The heights could not be used: {error}.")
    summary = f"{_photo_named(game, capture)}: heights {format_heights(heights)}"
    history.add_correction(game, capture.id, HEIGHTS_CELL, format_heights(heights), summary)
    return redirect(url_for("cubist.game", token=token, _anchor=f"capture-{capture.id}"), code=303)


@bp.post("/g/<token>/cubist/captures/<int:capture_id>/undo")
def undo(token: str, capture_id: int) -> Response:
    game, capture = _open_workroom(token, capture_id)

    def summary(undone: history.Correction) -> str:
        return f"{_photo_named(game, capture)}: undid the fix of {undone.cell}"

    undo_last_fix(game, capture, summary)
    return redirect(url_for("cubist.game", token=token, _anchor=f"capture-{capture.id}"), code=303)


@bp.post("/g/<token>/cubist/captures/<int:capture_id>/complete")
def complete(token: str, capture_id: int) -> Response:
    """Complete the workroom as an installation card it exactly is, for the card's points; a player's
    fifth installation ends the game at once."""
    with _COMPLETING:  # two phones completing the same card at once: the second finds it taken
        game, capture = _open_workroom(token, capture_id)
        _complete(game, capture, request.form.get("card", ""))
    return redirect(url_for("cubist.game", token=token, _anchor=f"capture-{capture.id}"), code=303)


def _complete(game: Game, capture: Capture, card_id: str) -> None:
    players = history.players(game)
    captures = history.captures(game)
    views = capture_views(captures, players, bundled_cards())
    view = next(view for view in views if view.capture.id == capture.id)
    sheet = score_sheet(views, captures, players, ended=False)
    exact = {card.id: card for card in view.verdict.exact or ()}
    if view.completed_card is not None:
        abort(409, description=f"This workroom is already completed as {view.completed_card.id}.")
    if card_id not in exact:
        known = ", ".join(exact) or "no card: confirm heights that make it one first"
        abort(400, description=f"This workroom is not {card_id!r}; with its heights it is {known}.")
    if card_id in sheet.taken:
        abort(409, description=f"{card_id} is already completed; each installation card is taken once.")
    points = exact[card_id].points
    summary = f"{view.player.name} completed {card_id} ({points} points) with workroom photo {view.number}"
    history.add_correction(game, capture.id, COMPLETED_CELL, card_id, summary)
    done = next(len(score.installations) for player, score in sheet.scores if player.id == view.player.id)
    if done + 1 >= PUBLISHED.installations_to_end:
        history.end_game(game)


@bp.post("/g/<token>/cubist/museum")
def museum_dice(token: str) -> Response:
    """How many of a player's dice lie in the museum now, 2 points each; the latest count stands."""
    game, submission, player = _open_form(token)
    text = request.form.get("dice", "").strip()
    if not (text.isdigit() and int(text) <= DICE_PER_PLAYER):
        abort(400, description=f"Say how many dice lie in the museum, 0 to {DICE_PER_PLAYER}, not {text!r}.")
    dice = int(text)
    reading = {"source": MUSEUM_SOURCE, "museum_dice": dice}
    summary = f"{player.name}: {dice} {'die' if dice == 1 else 'dice'} in the museum"
    history.add_capture(game, player, submission, reading, summary, None)
    remember_seat(token, player.seat)
    return redirect(url_for("cubist.game", token=token), code=303)


def _open_form(token: str) -> tuple[Game, str, Player]:
    """The game, while it has not ended, the form's one-time key and the player it was sent for."""
    game = _load(token)
    refuse_if_ended(game)
    return game, submission_key(), player_in_seat(game, request.form.get("seat", ""))


def _open_workroom(token: str, capture_id: int) -> tuple[Game, Capture]:
    """The game, while it has not ended, and its workroom capture (a museum tally is not one)."""
    game = _load(token)
    refuse_if_ended(game)
    capture = capture_of(game, capture_id)
    if is_museum_tally(capture):
        abort(404, description=f"Capture {capture_id} is a museum count, not a workroom.")
    return game, capture


def _photo_named(game: Game, capture: Capture) -> str:
    """How the game's feed names a capture, with the number the page shows: "Ann's workroom photo 3"."""
    workrooms = [c.id for c in history.captures(game) if not is_museum_tally(c)]
    return f"{owner_of(game, capture).name}'s workroom photo {workrooms.index(capture.id) + 1}"
