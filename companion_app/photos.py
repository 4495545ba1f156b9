"""Uploaded photos: checked by the vision decoder within the app's byte and pixel limits, then kept on disk.

Photos are stored under the instance folder by the SHA-256 of their bytes, written to a temporary name and
renamed into place, so two phones sending at once never overwrite each other and a crash leaves no half file.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

from vision.decode import DecodedImage, DecodeLimits, decode_image
from vision.errors import VisionError

SUFFIXES = {"JPEG": ".jpg", "PNG": ".png", "WebP": ".webp", "BMP": ".bmp"}


class PhotoRejected(ValueError):
    """The upload is not a photo the companion can use; the message says why, for the player to read."""


def decode_photo(data: bytes, max_bytes: int, max_pixels: int) -> DecodedImage:
    """The photo's pixels, or PhotoRejected when it is empty, too large, not an image or corrupt."""
    if not data:
        raise PhotoRejected("the photo is empty (0 bytes)")
    try:
        return decode_image(data, DecodeLimits(max_bytes=max_bytes, max_pixels=max_pixels))
    except VisionError as error:
        raise PhotoRejected(str(error)) from None


def keep_photo(data: bytes, image_format: str, folder: Path) -> str:
    """Store the bytes once and return the file's name under `folder`."""
    name = hashlib.sha256(data).hexdigest() + SUFFIXES.get(image_format, ".img")
    path = folder / name
    if not path.exists():
        partial = folder / f".{name}.{secrets.token_hex(8)}.part"
        partial.write_bytes(data)
        os.replace(partial, path)
    return name
