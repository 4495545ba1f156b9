"""The table camera: a camera plugged into the computer that runs `tablesight serve`, watched all the time.

When the scene has moved (a hand placing a die) and then stayed still for a moment, that frame becomes a
capture of the player the camera is aimed at, exactly as if a phone had sent it. Aimed at every mat, an
overhead camera that sees the whole table sends each player whose card lies on their seat's printed window
mat (`tablesight mat sagrada --seat N`) a capture of their own window. Players aim it from the game page;
until then frames are looked at and dropped.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from flask import Blueprint, Flask, abort, current_app, redirect, request, url_for
from werkzeug.wrappers import Response

from companion_app import history
from companion_app.photos import PhotoRejected, decode_photo, keep_photo
from companion_app.table import load_sagrada_game, read_photo, read_photo_on_mat

bp = Blueprint("camera", __name__, url_prefix="/g/<token>")

Frame = npt.NDArray[np.uint8]
EXTENSION_KEY = "table_camera"
LOOK_SIZE = (64, 48)  # frames are compared at this size: enough to see a hand, blind to sensor noise
JPEG_QUALITY = 92


class CameraUnavailable(RuntimeError):
    """The camera could not be opened or stopped giving frames."""


@dataclass
class StillDetector:
    """Says when to take a picture: once per still scene, after `still_seconds` without movement.

    Movement is a mean grey-level change above `threshold` (out of 255) between two looks.
    """

    still_seconds: float = 1.5
    threshold: float = 4.0
    _previous: npt.NDArray[np.int16] | None = field(default=None, init=False, repr=False)
    _still_since: float = field(default=0.0, init=False, repr=False)
    _taken: bool = field(default=False, init=False, repr=False)

    def look(self, frame: Frame, now: float) -> bool:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        small = cv2.resize(grey, LOOK_SIZE, interpolation=cv2.INTER_AREA).astype(np.int16)
        moved = self._previous is None or float(np.abs(small - self._previous).mean()) > self.threshold
        self._previous = small
        if moved:
            self._still_since, self._taken = now, False
            return False
        if self._taken or now - self._still_since < self.still_seconds:
            return False
        self._taken = True
        return True


@dataclass(frozen=True)
class Aim:
    """Whose window the camera's pictures go to: one seat's, or (`seat` None) every player's whose card lies
    on their seat's mat."""

    token: str
    seat: int | None

    EVERY_MAT = "mats"
    """The form's value for aiming at every mat."""


class TableCamera:
    """Watches frames on a thread of its own and stores each still scene as a capture for its aim."""

    def __init__(
        self,
        app: Flask,
        frames: Callable[[], Iterator[Frame]],
        detector: StillDetector | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self._frames = frames
        self._detector = detector or StillDetector()
        self._clock = clock
        self._aim: Aim | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.problem: str | None = None  # why the camera stopped, shown on the game page

    @property
    def aim(self) -> Aim | None:
        with self._lock:
            return self._aim

    def aim_at(self, aim: Aim | None) -> None:
        with self._lock:
            self._aim = aim

    def start(self) -> None:
        self._thread = threading.Thread(target=self.watch, name="table-camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def watch(self) -> None:
        """Look at every frame until stopped or the frames run out; store the still ones."""
        try:
            for frame in self._frames():
                if self._stop.is_set():
                    return
                if self._detector.look(frame, self._clock()):
                    self._send(frame)
        except CameraUnavailable as error:
            self.problem = str(error)

    def _send(self, frame: Frame) -> None:
        aim = self.aim
        if aim is None:
            return
        ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            self.problem = "a camera frame could not be encoded as JPEG"
            return
        with self.app.app_context():
            self._store(aim, encoded.tobytes())

    def _store(self, aim: Aim, data: bytes) -> None:
        game = history.game_by_token(aim.token)
        players = history.players(game) if game else []
        aimed = [p for p in players if aim.seat is None or p.seat == aim.seat]
        if game is None or not aimed or history.has_ended(game):
            self.aim_at(None)
            return
        config = self.app.config
        try:
            decoded = decode_photo(data, config["MAX_CONTENT_LENGTH"], config["MAX_IMAGE_PIXELS"])
        except PhotoRejected as error:
            self.problem = f"a camera frame was not accepted: {error}"
            return
        if aim.seat is None:
            readings = [(player, read_photo_on_mat(player, decoded)) for player in aimed]
            found = [(player, reading) for player, reading in readings if reading is not None]
        else:
            found = [(player, read_photo(player, decoded)) for player in aimed]
        if not found:
            return
        name = keep_photo(data, decoded, Path(config["PHOTO_FOLDER"]))
        photo = (name, decoded.stored_width, decoded.stored_height)
        for player, reading in found:
            summary = f"The table camera sent a photo of {player.name}'s window"
            history.add_capture(game, player, secrets.token_urlsafe(24), reading, summary, photo)


def camera_frames(index: int) -> Callable[[], Iterator[Frame]]:
    """Frames from OpenCV's camera `index`; raises CameraUnavailable when it cannot be opened."""
    capture = cv2.VideoCapture(index)
    if not capture.isOpened():
        capture.release()
        raise CameraUnavailable(f"camera {index} could not be opened")

    def frames() -> Iterator[Frame]:
        try:
            while True:
                ok, frame = capture.read()
                if not ok:
                    raise CameraUnavailable(f"camera {index} stopped giving frames")
                yield np.asarray(frame, dtype=np.uint8)
        finally:
            capture.release()

    return frames


def table_camera(app: Flask) -> TableCamera | None:
    """The camera `serve --camera` attached to this app, if any."""
    camera = app.extensions.get(EXTENSION_KEY)
    return camera if isinstance(camera, TableCamera) else None


def attach(app: Flask, camera: TableCamera) -> None:
    app.extensions[EXTENSION_KEY] = camera


@bp.app_context_processor
def camera_state() -> dict[str, TableCamera | str | None]:
    """Pages show the camera's controls only when the server has one."""
    return {"table_camera": table_camera(current_app), "every_mat": Aim.EVERY_MAT}


@bp.post("/camera")
def aim(token: str) -> Response:
    """Point the table camera at a player's window (`seat`), at every mat (`seat` "mats"), or stop it
    sending (`stop`)."""
    game = load_sagrada_game(token)
    camera = table_camera(current_app)
    if camera is None:
        abort(
            404, description="This server has no table camera; start it with `tablesight serve --camera N`."
        )
    if "stop" in request.form:
        camera.aim_at(None)
    else:
        seat = request.form.get("seat", "")
        if seat == Aim.EVERY_MAT:
            camera.aim_at(Aim(game.token, None))
        elif any(str(player.seat) == seat for player in history.players(game)):
            camera.aim_at(Aim(game.token, int(seat)))
        else:
            abort(400, description=f"This game has no player in seat {seat!r}. Pick a player from the list.")
    return redirect(url_for("table.game", token=token), code=303)
