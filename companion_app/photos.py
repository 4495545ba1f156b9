"""Uploaded photos: checked by the vision decoder within the app's byte and pixel limits, then kept on disk.

Photos are stored under the instance folder by the SHA-256 of their bytes, written to a temporary name and
renamed into place, so two phones sending at once never overwrite each other and a crash leaves no half file.
Next to each photo goes a small JPEG preview made from the decoder's reduced pixels, which is what the
phones load; the full photo is one tap away.

Reading a photo is a plug-in per game: `PHOTO_READERS` in the app config maps a game's key to its reader,
a function from the decoded image and what that game knows of the photo (Sagrada: the player's pattern
card, `companion_app.sagrada_photos`; Run Buster: the mat's paper, `companion_app.runbuster_page`) to that
game's reading; tests swap in their own. A picture the server draws, such as a photo annotated with what
was read, is kept the same way, named by its JPEG's bytes.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

import cv2

from vision.decode import BGRImage, DecodedImage, DecodeLimits, decode_image, resized
from vision.errors import VisionError

SUFFIXES = {"JPEG": ".jpg", "PNG": ".png", "WebP": ".webp", "BMP": ".bmp"}
PREVIEW_SUFFIX = ".preview.jpg"
PREVIEW_QUALITY = 80
PREVIEW_LONG_SIDE = 1600
"""Previews are made from the pixels the game's reader was given; a reader that needs many (Cubist's) does
not make the phones load them all."""


class PhotoRejected(ValueError):
    """The upload is not a photo the companion can use; the message says why, for the player to read."""


def decode_photo(
    data: bytes, max_bytes: int, max_pixels: int, target_long_side: int = DecodeLimits.target_long_side
) -> DecodedImage:
    """The photo's pixels, at least `target_long_side` long where the photo is (what the game's reader
    needs), or PhotoRejected when it is empty, too large, not an image or corrupt."""
    if not data:
        raise PhotoRejected("the photo is empty (0 bytes)")
    limits = DecodeLimits(max_bytes=max_bytes, max_pixels=max_pixels, target_long_side=target_long_side)
    try:
        return decode_image(data, limits)
    except VisionError as error:
        raise PhotoRejected(str(error)) from None


def keep_photo(data: bytes, decoded: DecodedImage, folder: Path) -> str:
    """Store the bytes and their preview (at most `PREVIEW_LONG_SIDE` long) once; return the photo's file
    name under `folder`."""
    name = hashlib.sha256(data).hexdigest() + SUFFIXES.get(decoded.image_format, ".img")
    pixels = decoded.pixels
    if max(pixels.shape[:2]) > PREVIEW_LONG_SIDE:
        pixels = resized(pixels, PREVIEW_LONG_SIDE)
    ok, preview = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, PREVIEW_QUALITY])
    if not ok:
        raise PhotoRejected("the photo decoded, but no preview could be made of it")
    _write_once(folder / name, data)
    _write_once(folder / preview_name(name), preview.tobytes())
    return name


def keep_drawn(pixels: BGRImage, folder: Path) -> str:
    """Store a picture the server drew (an annotated photo) as a JPEG once; return its file name. OSError
    when it cannot be encoded or written: the server's fault, not the player's photo."""
    try:
        ok, encoded = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, PREVIEW_QUALITY])
    except cv2.error as error:
        raise OSError(f"the annotated photo could not be encoded as JPEG: {error}") from None
    if not ok:
        raise OSError("the annotated photo could not be encoded as JPEG")
    data = encoded.tobytes()
    name = hashlib.sha256(data).hexdigest() + ".jpg"
    _write_once(folder / name, data)
    return name


def preview_name(photo_file: str) -> str:
    return photo_file.rsplit(".", 1)[0] + PREVIEW_SUFFIX


def _write_once(path: Path, data: bytes) -> None:
    if path.exists():
        return
    partial = path.with_name(f".{path.name}.{secrets.token_hex(8)}.part")
    partial.write_bytes(data)
    os.replace(partial, path)
