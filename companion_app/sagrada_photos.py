"""Sagrada photos at the table: the shipped window reader, and which window in the photo is the player's.

A photo often shows more than one window (the neighbour's card at the edge, the whole table). A card lying on
the player's printed window mat (`tablesight mat sagrada --seat N`, N their seat) is theirs; else the window
whose print the reader identifies as the player's pattern card; failing that, the largest and most central
one. A window is scored as the player's card (its print then only decides which way up the card lies). The
page's message says which window was taken and why.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, cast

import cv2
import numpy as np

from engine.sagrada.window import Pattern
from vision.decode import BGRImage, DecodedImage
from vision.errors import VisionError
from vision.sagrada.reader import SagradaReader, SagradaReading, WindowReading, annotate

TOO_DARK = 35.0
"""Mean grey level (0-255) below which a photo with no window found is called too dark."""
ANNOTATED_LONG_SIDE = 1280
"""The annotated photo is shrunk to this size at most: phones show it at screen width."""


PlayerWindowReader = Callable[[DecodedImage, Pattern, int], dict[str, Any]]
"""What `PHOTO_READERS["sagrada"]` holds: a photo, the player's pattern card and seat to the answer that
`sagrada_table.photo_reading` checks, plus the photo annotated with what was read (`"annotated"`, BGR
pixels) when there is one and the seat of the printed mat the window lay on (`"mat"`, None off a mat).
Raises VisionError when nothing can be read."""


class WindowNotFound(VisionError):
    """No Sagrada window could be found in the photo; the message says what to try next."""


class SagradaPhotoReader:
    """The Sagrada entry of `PHOTO_READERS`: a decoded photo, the player's pattern card and seat to the
    reading `sagrada_table.photo_reading` checks, with the annotated photo and a message for the page.

    The space classifier loads on the first photo, once per app, and is shared by every request after it.
    The last photo's reading is kept, so asking for each player's window in one photo (the table camera
    watching every mat) reads it once.
    """

    def __init__(self) -> None:
        self._reader: SagradaReader | None = None
        self._loading = threading.Lock()
        self._last: tuple[DecodedImage, SagradaReading] | None = None

    def _loaded(self) -> SagradaReader:
        with self._loading:
            if self._reader is None:
                self._reader = SagradaReader()
            return self._reader

    def _reading(self, decoded: DecodedImage) -> SagradaReading:
        with self._loading:
            last = self._last
        if last is not None and last[0] is decoded:
            return last[1]
        reading = self._loaded().read_decoded(decoded)
        with self._loading:
            self._last = (decoded, reading)
        return reading

    def __call__(self, decoded: DecodedImage, pattern: Pattern, seat: int) -> dict[str, Any]:
        reading = self._reading(decoded)
        if not reading.windows:
            raise WindowNotFound(_why_no_window(decoded))
        height, width = decoded.pixels.shape[:2]
        chosen, message = choose_window(reading.windows, pattern, seat, width, height)
        if chosen.pattern != pattern:
            # Read as the player's card: its print then decides which way up the card lies, and the window
            # is scored as their pattern.
            chosen = chosen.read_as(pattern)
        return {
            "window": str(chosen.window),
            "unsure": [str(space.cell) for space in chosen.uncertain],
            "alternatives": {str(space.cell): list(space.alternatives) for space in chosen.uncertain},
            "message": message,
            "mat": chosen.lattice.mat_seat,
            "annotated": _shrunk(annotate(SagradaReading((chosen,), reading.pixels))),
        }


def choose_window(
    windows: Sequence[WindowReading], pattern: Pattern, seat: int, width: int, height: int
) -> tuple[WindowReading, str]:
    """The player's window among those found in a `width` x `height` photo, and the sentence that says
    which one it is."""
    others = len(windows) - 1
    among = f" (the photo shows {others} other window{'s' if others > 1 else ''})" if others else ""
    on_their_mat = [window for window in windows if window.lattice.mat_seat == seat]
    if on_their_mat:
        return on_their_mat[0], f"Read the window on mat {seat}{among}."
    theirs = [window for window in windows if window.pattern == pattern]
    if theirs:
        return max(theirs, key=_area), f"Read the {pattern.name} window{among}."

    def prominence(window: WindowReading) -> float:
        centre = window.corners.mean(axis=0)
        offset = float(np.hypot(centre[0] / width - 0.5, centre[1] / height - 0.5))
        return _area(window) * (1.0 - offset)

    chosen = max(windows, key=prominence)
    if others:
        which = f"None of the {others + 1} windows in the photo looks like {pattern.name}: the largest, most "
        return chosen, which + f"central one was read as {pattern.name}."
    if chosen.pattern is None:
        return chosen, f"Read the window as {pattern.name} (too little of its print shows to confirm it)."
    return chosen, (
        f"The window in the photo looks like {chosen.pattern.name}, not {pattern.name}; it was read as "
        f"{pattern.name}. Check the photo is of the right player's window."
    )


def _area(window: WindowReading) -> float:
    x, y = window.corners[:, 0], window.corners[:, 1]
    return float(abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))) / 2)


def _why_no_window(decoded: DecodedImage) -> str:
    grey = float(cv2.cvtColor(decoded.pixels, cv2.COLOR_BGR2GRAY).mean())
    if grey < TOO_DARK:
        return "the photo is too dark to find a window in: add light or use the flash, then send another"
    return (
        "no Sagrada window was found in the photo: photograph the whole card, frame included, "
        "from above and filling most of the picture"
    )


def _shrunk(pixels: BGRImage) -> BGRImage:
    shrink = ANNOTATED_LONG_SIDE / max(pixels.shape[:2])
    if shrink >= 1:
        return pixels
    return cast(BGRImage, cv2.resize(pixels, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA))
