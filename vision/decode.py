"""Decode stage: file or bytes -> BGR pixels, with byte and pixel limits checked before any pixel is decoded.

The image is kept in its stored orientation (EXIF rotation is ignored): dice look the same in any rotation,
and every coordinate we report is then directly in the pixels of the file as stored on disk. Big JPEGs are
decoded at 1/2, 1/4 or 1/8 resolution by libjpeg itself (OpenCV's IMREAD_REDUCED_COLOR_*), which is several
times faster than decoding 12 MP and shrinking; other formats are decoded whole and shrunk early.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ImageTooLarge, UnreadableImage

BGRImage = npt.NDArray[np.uint8]

_REDUCED_JPEG_FLAGS = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


@dataclass(frozen=True)
class DecodeLimits:
    """What an input may cost: bytes read, pixels decoded, and the long side the pixels are reduced to.

    `target_long_side` is the smallest long side the later stages need: anything much bigger is decoded at
    reduced resolution (JPEG) or shrunk right after decoding (other formats).
    """

    max_bytes: int = 40 * 1024 * 1024
    max_pixels: int = 50_000_000
    target_long_side: int = 1000


@dataclass(frozen=True)
class DecodedImage:
    """Pixels ready for recognition and the stored image's size; `scale` maps stored px to these px."""

    pixels: BGRImage
    stored_width: int
    stored_height: int
    image_format: str

    @property
    def scale(self) -> float:
        return float(self.pixels.shape[1] / self.stored_width)


def decode_image(source: str | Path | bytes, limits: DecodeLimits | None = None) -> DecodedImage:
    """Read `source` (a path or the file's bytes) into BGR pixels within `limits`, or raise a VisionError."""
    limits = limits or DecodeLimits()
    name, data = _read_source(source, limits)
    image_format, width, height = read_image_size(data, name)
    if width * height > limits.max_pixels:
        megapixels, limit = width * height / 1e6, limits.max_pixels / 1e6
        raise ImageTooLarge(f"{name}: {width}x{height} is {megapixels:.0f} MP, over the {limit:.0f} MP limit")
    reduction = _jpeg_reduction(width, height, limits.target_long_side) if image_format == "JPEG" else 1
    flags = _REDUCED_JPEG_FLAGS[reduction] | cv2.IMREAD_IGNORE_ORIENTATION
    pixels = cast(BGRImage | None, cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags))
    if pixels is None or pixels.size == 0:
        raise UnreadableImage(f"{name}: the {image_format} data is corrupt or truncated")
    expected = (-(-height // reduction), -(-width // reduction))
    if pixels.shape[:2] != expected:
        raise UnreadableImage(
            f"{name}: decoded {pixels.shape[1]}x{pixels.shape[0]} px, header says {width}x{height}"
        )
    return DecodedImage(_shrink_early(pixels, limits.target_long_side), width, height, image_format)


def read_image_size(data: bytes, name: str = "image") -> tuple[str, int, int]:
    """Format, width and height from the file header alone, so limits hold before any pixel is decoded."""
    if data.startswith(b"\xff\xd8"):
        width, height = _jpeg_size(data, name)
        return "JPEG", width, height
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return _checked("PNG", width, height, name)
    if data.startswith(b"BM") and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return _checked("BMP", width, abs(height), name)
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP" and len(data) >= 30:
        return _checked("WebP", *_webp_size(data), name)
    raise UnreadableImage(f"{name}: not a JPEG, PNG, WebP or BMP image")


def _read_source(source: str | Path | bytes, limits: DecodeLimits) -> tuple[str, bytes]:
    if isinstance(source, bytes):
        name = "image bytes"
        size = len(source)
    else:
        name = str(source)
        try:
            size = Path(source).stat().st_size
        except OSError as error:
            raise UnreadableImage(f"{name}: cannot read the file ({error.strerror})") from error
    if size > limits.max_bytes:
        raise ImageTooLarge(f"{name}: {size / 1e6:.1f} MB, over the {limits.max_bytes / 1e6:.1f} MB limit")
    if isinstance(source, bytes):
        return name, source
    try:
        return name, Path(source).read_bytes()
    except OSError as error:
        raise UnreadableImage(f"{name}: cannot read the file ({error.strerror})") from error


def _checked(image_format: str, width: int, height: int, name: str) -> tuple[str, int, int]:
    if width <= 0 or height <= 0:
        raise UnreadableImage(f"{name}: the {image_format} header gives an empty size {width}x{height}")
    return image_format, width, height


def _jpeg_size(data: bytes, name: str) -> tuple[int, int]:
    """Walk the JPEG markers to the first start-of-frame segment, which holds the image size."""
    position = 2
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            break
        marker = data[position + 1]
        if marker == 0xFF:
            position += 1
            continue
        (length,) = struct.unpack(">H", data[position + 2 : position + 4])
        is_frame = 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC)
        if is_frame and position + 9 <= len(data):
            height, width = struct.unpack(">HH", data[position + 5 : position + 9])
            return _checked("JPEG", width, height, name)[1:]
        position += 2 + length
    raise UnreadableImage(f"{name}: a JPEG without a readable frame header (corrupt or truncated)")


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8X":
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return width, height
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return 0, 0


def _jpeg_reduction(width: int, height: int, target_long_side: int) -> int:
    """The largest libjpeg reduction (1, 2, 4, 8) that keeps the long side at or above the target."""
    long_side = max(width, height)
    reduction = 1
    while reduction < 8 and long_side // (reduction * 2) >= target_long_side:
        reduction *= 2
    return reduction


def _shrink_early(pixels: BGRImage, target_long_side: int) -> BGRImage:
    """Shrink images more than twice the target (non-JPEG, or past 1/8) so later stages stay cheap."""
    if max(pixels.shape[:2]) < 2 * target_long_side:
        return pixels
    return resized(pixels, target_long_side)


def resized(pixels: BGRImage, long_side: int) -> BGRImage:
    """`pixels` shrunk or enlarged so that the long side is `long_side`."""
    scale = long_side / max(pixels.shape[:2])
    if scale == 1.0:
        return pixels
    size = (max(1, round(pixels.shape[1] * scale)), max(1, round(pixels.shape[0] * scale)))
    interpolation = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_LINEAR
    return cast(BGRImage, cv2.resize(pixels, size, interpolation=interpolation))
