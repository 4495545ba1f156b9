"""Decode stage: formats, reduced JPEG decoding, stored orientation, and typed errors for bad input."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.decode import DecodeLimits, decode_image, read_image_size
from vision.errors import ImageTooLarge, UnreadableImage, VisionError

REAL_PHOTO = Path(__file__).resolve().parents[1] / "data" / "dice_real" / "images" / "IMG_20191208_111304.jpg"


def encoded(extension: str, width: int, height: int) -> bytes:
    image = np.zeros((height, width, 3), np.uint8)
    image[: height // 2, : width // 2] = (255, 0, 0)
    ok, data = cv2.imencode(extension, image)
    assert ok
    return data.tobytes()


@pytest.mark.parametrize(
    ("extension", "name"), [(".jpg", "JPEG"), (".png", "PNG"), (".webp", "WebP"), (".bmp", "BMP")]
)
def test_header_sizes_match_the_encoded_image(extension: str, name: str) -> None:
    assert read_image_size(encoded(extension, 123, 77)) == (name, 123, 77)


def test_small_photo_is_decoded_whole() -> None:
    decoded = decode_image(REAL_PHOTO)
    assert decoded.pixels.shape == (640, 640, 3)
    assert (decoded.stored_width, decoded.stored_height, decoded.scale) == (640, 640, 1.0)


def test_big_jpeg_is_decoded_at_reduced_resolution() -> None:
    decoded = decode_image(encoded(".jpg", 4032, 3024))
    assert decoded.pixels.shape == (756, 1008, 3)
    assert decoded.scale == pytest.approx(0.25)
    assert (decoded.stored_width, decoded.stored_height) == (4032, 3024)


def test_big_png_is_shrunk_right_after_decoding() -> None:
    decoded = decode_image(encoded(".png", 3000, 2000), DecodeLimits(target_long_side=600))
    assert decoded.pixels.shape == (400, 600, 3)


def test_exif_rotation_is_ignored_so_pixels_stay_as_stored() -> None:
    data = encoded(".jpg", 200, 100)
    orientation_6_entry = b"\x00\x01" + b"\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00" + bytes(4)
    exif_orientation_6 = b"Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08" + orientation_6_entry
    app1 = b"\xff\xe1" + struct.pack(">H", len(exif_orientation_6) + 2) + exif_orientation_6
    rotated_tag = data[:2] + app1 + data[2:]
    assert cv2.imdecode(np.frombuffer(rotated_tag, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (200, 100)
    decoded = decode_image(rotated_tag)
    assert decoded.pixels.shape[:2] == (100, 200)
    assert decoded.pixels[10, 10, 0] > 200 and decoded.pixels[90, 190, 0] < 50


def test_pixel_limit_is_checked_from_the_header_before_decoding() -> None:
    header_only = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 20000, 20000)
    with pytest.raises(ImageTooLarge, match="20000x20000"):
        decode_image(header_only + b"\x08\x02\x00\x00\x00")


def test_byte_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.jpg"
    big.write_bytes(b"\xff\xd8" + bytes(50 * 1024 * 1024))
    with pytest.raises(ImageTooLarge, match=r"big\.jpg: 52\.4 MB"):
        decode_image(big)


@pytest.mark.parametrize(
    "data",
    [b"", b"hello, not an image", b"\xff\xd8\xff\xe0" + bytes(20), encoded(".jpg", 64, 64)[:300]],
    ids=["empty", "text", "jpeg-without-frame", "truncated-jpeg"],
)
def test_corrupt_or_non_image_bytes_raise_a_vision_error(data: bytes) -> None:
    with pytest.raises(UnreadableImage, match="image bytes"):
        decode_image(data)


def test_missing_file_is_named_in_the_error(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match=r"nowhere\.jpg: cannot read the file"):
        decode_image(tmp_path / "nowhere.jpg")
