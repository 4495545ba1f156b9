"""Run Buster at the table: a game's page, turn by turn from photos of the printed mat.

Each capture is one photo (or the four zones typed) taken after a roll: the mat's zones give both hands and
the roll, the rules say whom the roll busts and what the roller may keep, and the exact advisor ranks the
keeps by the chance of winning. A zone read wrongly is fixed by typing its dice, kept as a correction of the
capture (the zone's key in the correction's `cell`, its dice as digits in `die`, None for an empty zone).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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
    load_game_of_kind,
    refuse_if_ended,
    seated_names,
    send_demo,
    sent_photo,
    submission_key,
    undo_last_fix,
)
from companion_app.photos import keep_photo
from engine.core import ParseError
from engine.runbuster.straights import Dice, dashed, format_dice, parse_dice
from vision.decode import DecodedImage
from vision.errors import ModelUnavailable, VisionError
from vision.markers import MatNotFound
from vision.runbuster.mat import ZONE_KEYS, Paper, Side, zone_named
from vision.runbuster.position import TableDice, Turn, read_turn
from vision.runbuster.zones import SharedRecognizer, read_mat_photo

bp = Blueprint("runbuster", __name__)

KIND = "runbuster"
DEMO_FOLDER = Path(__file__).parent / "demo" / "runbuster"
NO_READER = "The photo is kept, but this TableSight cannot read dice from photos: type the dice in each zone."


MatPhotoReader = Callable[[DecodedImage, Paper], dict[str, Any]]
"""What `PHOTO_READERS["runbuster"]` holds: a photo and the paper of the game's mat to the reading."""


def read_photo(decoded: DecodedImage, paper: Paper) -> dict[str, Any]:
    """The photo reader this page plugs into `PHOTO_READERS`: the mat's zones as recognised.

    The paper matters: a die is taller in mat units on A4, and the dice are looked for and read at its
    height (12 rendered A4 mats read as A3: 183 of 193 dice right; as A4: 193; the mats and the A4 count
    are those of tests/vision/runbuster/test_end_to_end.py::test_a_mat_printed_on_a4_is_read_as_well, the
    A3 count the same test reading with Paper.A3).
    """
    reading = read_mat_photo(SharedRecognizer(), decoded.pixels, paper).to_json()
    outside = reading["outside"]
    reading["message"] = f"{outside} dice lie outside the zones and were not counted" if outside else None
    return reading


@bp.record_once
def _plug_in_reader(state: BlueprintSetupState) -> None:
    """Read Run Buster photos with the recognizer unless the app was given another reader."""
    state.app.config["PHOTO_READERS"].setdefault(KIND, read_photo)


# --- a new game ---------------------------------------------------------------------------------------------


@bp.get("/new/runbuster")
def new_game() -> str:
    return render_template("runbuster/new.html", form=request.form, error=None, papers=list(Paper))


@bp.post("/new/runbuster")
def create_game() -> Response | tuple[str, int]:
    problem = None
    try:
        names = [name for _, name in seated_names(request.form, [side.label for side in Side])]
    except SeatingError as error:
        problem = str(error)
    else:
        if len(names) < len(Side):
            problem = "Run Buster is for two players: give both a name"
    paper = request.form.get("paper", "a3")
    if paper not in ("a3", "a4"):
        problem = f"print the mat on A3 or A4, not {paper!r}"
    if problem is not None:
        page = render_template("runbuster/new.html", form=request.form, error=problem, papers=list(Paper))
        return page, 400
    players = [
        history.NewPlayer(name, side.label, {"side": side.label})
        for name, side in zip(names, Side, strict=True)
    ]
    game = history.create_game(KIND, {"paper": paper}, players)
    return redirect(url_for("runbuster.game", token=game.token), code=303)


# --- the game page ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnView:
    """One capture as the page shows it: the zones (corrections applied), the rules' verdict, and what
    does not follow from the capture before it."""

    number: int
    capture: Capture
    zones: Mapping[str, Dice] | None  # None when nothing was read or typed
    corrected: frozenset[str]
    turn: Turn | None
    continuity: tuple[str, ...]

    @property
    def message(self) -> str | None:
        message = self.capture.reading.get("message")
        return str(message) if message else None

    @property
    def unsure(self) -> tuple[str, ...]:
        return tuple(self.capture.reading.get("unsure", ()))


def _names(players: Sequence[Player]) -> tuple[str, str]:
    by_side = {p.setup["side"]: p.name for p in players}
    return by_side[Side.RED.label], by_side[Side.BLUE.label]


def captured_zones(capture: Capture) -> dict[str, Dice] | None:
    """The capture's zones with its corrections in force; None when nothing was read and nothing fixed."""
    read = capture.reading.get("zones")
    corrections = capture.corrected_cells()
    if read is None and not corrections:
        return None
    zones = {key: tuple(sorted(read.get(key, ()))) if read else () for key in ZONE_KEYS}
    for key, dice in corrections.items():
        zones[key] = parse_dice(dice) if dice else ()
    return zones


def turn_views(captures: Sequence[Capture], names: tuple[str, str]) -> list[TurnView]:
    """Every capture in order, each judged alone and against the verdict of the capture before it."""
    views: list[TurnView] = []
    previous: Turn | None = None
    for number, capture in enumerate(captures, start=1):
        zones = captured_zones(capture)
        turn = read_turn(TableDice.from_zones(zones), names) if zones is not None else None
        continuity = _continuity(previous, turn, names) if turn is not None else ()
        views.append(TurnView(number, capture, zones, frozenset(capture.corrected_cells()), turn, continuity))
        if turn is not None:
            previous = turn
    return views


def _continuity(before: Turn | None, now: Turn, names: tuple[str, str]) -> tuple[str, ...]:
    """What the hands on this photo break, given the roll on the previous one."""
    if before is None or before.roller is None or before.problems or before.winner is not None:
        return ()
    roller = before.roller
    notes = []
    hand_before, hand_now = before.table.hands[roller], now.table.hands[roller]
    if before.options and hand_now not in before.options:
        allowed = " or ".join(dashed(o) for o in before.options)
        notes.append(f"{names[roller]}'s hand is {dashed(hand_now)}, but the roll allowed only {allowed}")
    if not before.options and hand_now != hand_before:
        notes.append(
            f"{names[roller]} could not extend {dashed(hand_before)}, yet the hand is now {dashed(hand_now)}"
        )
    for busted in before.busted:
        if now.table.hands[busted]:
            notes.append(
                f"{names[busted]}'s hand was busted and belongs in the cup, "
                f"but {dashed(now.table.hands[busted])} is still on the mat"
            )
    return tuple(notes)


def page_context(game: Game) -> dict[str, Any]:
    players = history.players(game)
    names = _names(players)
    views = turn_views(history.captures(game), names)
    judged = [v for v in views if v.turn is not None]
    winner = next((names[v.turn.winner] for v in judged if v.turn and v.turn.winner is not None), None)
    return {
        "game": game,
        "players": players,
        "names": names,
        "turns": views[::-1],
        "latest": judged[-1] if judged else None,
        "winner": winner,
        "paper": _paper(game).name.lower(),
        "last_event_id": history.last_event_id(game),
        "zone_keys": ZONE_KEYS,
        "zone_title": _zone_title(names),
    }


def _zone_title(names: tuple[str, str]) -> dict[str, str]:
    titles = {}
    for key in ZONE_KEYS:
        zone = zone_named(key)
        titles[key] = f"{names[zone.side.value]}'s {zone.area.value}"
    return titles


def _load(token: str) -> Game:
    return load_game_of_kind(token, KIND, "Run Buster")


@bp.get("/g/<token>/runbuster")
def game(token: str) -> str:
    game = _load(token)
    return render_template(
        "runbuster/game.html",
        join_url=join_url(game),
        submission=secrets.token_urlsafe(24),
        demos=demo_photos(),
        **page_context(game),
    )


@bp.get("/g/<token>/runbuster/panel")
def panel(token: str) -> str:
    """The live part of the page alone, fetched again whenever the game changes."""
    return render_template("runbuster/_turns.html", **page_context(_load(token)))


# --- captures and corrections -------------------------------------------------------------------------------


def demo_photos() -> list[str]:
    return demo_files(DEMO_FOLDER)


@bp.get("/runbuster/demo/<name>")
def demo_photo(name: str) -> Response:
    return send_demo(DEMO_FOLDER, name)


@bp.post("/g/<token>/runbuster/captures")
def add_capture(token: str) -> Response:
    """A photo of the mat (uploaded or a demo), or the dice typed zone by zone; a resent form counts once."""
    game = _load(token)
    refuse_if_ended(game)
    submission = submission_key()
    sent = sent_photo(DEMO_FOLDER, demo_photos())
    typed = {key: request.form.get(key.replace(".", "_"), "").strip() for key in ZONE_KEYS}
    if sent is None and not any(typed.values()):
        abort(400, description="Choose a photo or type the dice in at least one zone, then send again.")
    photo = None
    if sent is not None:
        decoded = sent.decoded()
        reading = {"source": "demo" if sent.demo else "photo", **_read_photo(decoded, _paper(game))}
        name = keep_photo(sent.data, decoded, Path(current_app.config["PHOTO_FOLDER"]))
        photo = (name, decoded.stored_width, decoded.stored_height)
        summary = f"Sent {sent.label}"
    else:
        reading = {
            "source": "typed",
            "zones": _typed_zones(typed),
            "unsure": [],
            "outside": 0,
            "message": None,
        }
        summary = "Typed the dice on the mat"
    history.add_capture(game, _first_player(game), submission, reading, summary, photo)
    return redirect(url_for("runbuster.game", token=token), code=303)


def _typed_zones(typed: Mapping[str, str]) -> dict[str, list[int]]:
    zones = {}
    for key, text in typed.items():
        try:
            zones[key] = list(parse_dice(text))
        except ParseError as error:
            abort(400, description=f"The dice typed for {key} could not be read: {error}.")
    return zones


def _paper(game: Game) -> Paper:
    """The paper the game's mat is printed on, as chosen when the game was started."""
    return Paper.named(game.setup.get("paper", "a3"))


def _read_photo(decoded: DecodedImage, paper: Paper) -> dict[str, Any]:
    """What the photo shows, or why nothing could be read (the photo is kept either way)."""
    reader: MatPhotoReader | None = current_app.config["PHOTO_READERS"].get(KIND)
    if reader is None:
        return {"zones": None, "message": NO_READER}
    try:
        return reader(decoded, paper)
    except MatNotFound as error:
        return {"zones": None, "message": f"The photo is kept, but {error}. Send another photo."}
    except ModelUnavailable:
        return {"zones": None, "message": NO_READER}
    except VisionError as error:
        return {"zones": None, "message": f"The photo is kept, but it could not be read ({error})."}


def _first_player(game: Game) -> Player:
    """Captures show the whole mat, so each is filed under the first seat."""
    return history.players(game)[0]


@bp.post("/g/<token>/runbuster/captures/<int:capture_id>/zones")
def correct_zone(token: str, capture_id: int) -> Response:
    """Fix one zone of a capture: the dice really lying there (nothing typed: the zone is empty)."""
    game = _load(token)
    refuse_if_ended(game)
    capture = capture_of(game, capture_id)
    key = request.form.get("zone", "")
    if key not in ZONE_KEYS:
        abort(400, description=f"The mat has no zone {key!r}; its zones are {', '.join(ZONE_KEYS)}.")
    try:
        dice = parse_dice(request.form.get("dice", ""))
    except ParseError as error:
        abort(400, description=f"The dice typed for {key} could not be read: {error}.")
    history.add_correction(
        game,
        capture.id,
        key,
        format_dice(dice) if dice else None,
        f"Turn photo {capture.id}: {key} set to {dashed(dice)}",
    )
    return redirect(url_for("runbuster.game", token=token, _anchor=f"capture-{capture.id}"), code=303)


@bp.post("/g/<token>/runbuster/captures/<int:capture_id>/undo")
def undo(token: str, capture_id: int) -> Response:
    game = _load(token)
    refuse_if_ended(game)
    capture = capture_of(game, capture_id)

    def summary(undone: history.Correction) -> str:
        return f"Turn photo {capture.id}: undid {undone.cell} set to {dashed(parse_dice(undone.die or ''))}"

    undo_last_fix(game, capture, summary)
    return redirect(url_for("runbuster.game", token=token, _anchor=f"capture-{capture.id}"), code=303)
