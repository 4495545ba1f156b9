"""The printable mat: drawn from the layout in `vision.runbuster.mat` as a PNG or a one-page PDF.

The PDF is written by hand (no PDF library): one page the size of the paper holding the drawn mat as a
single lossless (Flate) RGB image, which keeps the markers' edges exact when printed at 100 %.
"""

from __future__ import annotations

import zlib
from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.runbuster.mat import (
    MARKER_SIDE,
    MARKERS,
    MAT_HEIGHT,
    MAT_WIDTH,
    ZONES,
    Area,
    Paper,
    Side,
    Zone,
    aruco_dictionary,
)

BGRImage = NDArray[np.uint8]
MM_PER_INCH = 25.4
SCALE_BAR = 50.0
"""The length of the bar printed to check the print scale, in millimetres on A3."""
POINTS_PER_INCH = 72.0

INK = {Side.RED: (43, 49, 200), Side.BLUE: (200, 99, 45)}
TINT = {Side.RED: (228, 231, 252), Side.BLUE: (252, 236, 226)}
ZONE_HINT = {
    Area.HAND: "HAND - your straight stays here",
    Area.ROLL: "ROLL - roll your cup here",
}


def draw_mat(px_per_unit: float) -> BGRImage:
    """The mat as printed, `px_per_unit` pixels per mat unit (millimetre of the A3 print), white paper."""
    width, height = round(MAT_WIDTH * px_per_unit), round(MAT_HEIGHT * px_per_unit)
    image = np.full((height, width, 3), 255, np.uint8)
    for zone in ZONES:
        _draw_zone(image, zone, px_per_unit)
    dictionary = aruco_dictionary()
    side = round(MARKER_SIDE * px_per_unit)
    for marker in MARKERS:
        x, y = round(marker.left * px_per_unit), round(marker.top * px_per_unit)
        square = cv2.aruco.generateImageMarker(dictionary, marker.id, side, borderBits=1)
        image[y : y + side, x : x + side] = square[..., None]
    _draw_title(image, px_per_unit)
    # Blue reads the mat from the far edge: its labels are drawn on the sheet turned half a turn.
    turned = cast(BGRImage, cv2.rotate(image, cv2.ROTATE_180))
    for zone in ZONES:
        if zone.side is Side.BLUE:
            flipped = Zone(
                zone.side,
                zone.area,
                MAT_WIDTH - zone.right,
                MAT_HEIGHT - zone.bottom,
                MAT_WIDTH - zone.left,
                MAT_HEIGHT - zone.top,
            )
            _label_zone(turned, flipped, px_per_unit)
    image = cast(BGRImage, cv2.rotate(turned, cv2.ROTATE_180))
    for zone in ZONES:
        if zone.side is Side.RED:
            _label_zone(image, zone, px_per_unit)
    return image


def _point(x: float, y: float, px_per_unit: float) -> tuple[int, int]:
    return round(x * px_per_unit), round(y * px_per_unit)


def _draw_zone(image: BGRImage, zone: Zone, px_per_unit: float) -> None:
    top_left = _point(zone.left, zone.top, px_per_unit)
    bottom_right = _point(zone.right, zone.bottom, px_per_unit)
    cv2.rectangle(image, top_left, bottom_right, TINT[zone.side], -1)
    line = max(1, round(1.2 * px_per_unit))
    cv2.rectangle(image, top_left, bottom_right, INK[zone.side], line, cv2.LINE_AA)


def _label_zone(image: BGRImage, zone: Zone, px_per_unit: float) -> None:
    """The zone's name along its edge nearest the player (the bottom edge as drawn)."""
    text = f"{zone.side.name} {ZONE_HINT[zone.area]}"
    scale = 4.5 * px_per_unit / 22.0
    thickness = max(1, round(0.45 * px_per_unit))
    origin = _point(zone.left + 4.0, zone.bottom - 3.5, px_per_unit)
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_DUPLEX, scale, INK[zone.side], thickness, cv2.LINE_AA)


def _draw_title(image: BGRImage, px_per_unit: float) -> None:
    """The game's name in the middle band and a bar to check the print scale."""
    middle = MAT_HEIGHT / 2
    scale = 7.0 * px_per_unit / 22.0
    thickness = max(1, round(0.8 * px_per_unit))
    cv2.putText(
        image,
        "RUN BUSTER",
        _point(60.0, middle + 3.5, px_per_unit),
        cv2.FONT_HERSHEY_DUPLEX,
        scale,
        (40, 40, 40),
        thickness,
        cv2.LINE_AA,
    )
    bar_left, bar_right = 300.0, 300.0 + SCALE_BAR
    cv2.rectangle(
        image,
        _point(bar_left, middle - 1.0, px_per_unit),
        _point(bar_right, middle + 1.0, px_per_unit),
        (40, 40, 40),
        -1,
    )
    cv2.putText(
        image,
        f"{SCALE_BAR:.0f} mm on A3",
        _point(bar_left, middle + 6.5, px_per_unit),
        cv2.FONT_HERSHEY_SIMPLEX,
        3.0 * px_per_unit / 22.0,
        (40, 40, 40),
        max(1, round(0.3 * px_per_unit)),
        cv2.LINE_AA,
    )


def mat_image(paper: Paper, dpi: float) -> BGRImage:
    """The mat drawn for `paper` at `dpi` dots per inch."""
    if not 30 <= dpi <= 1200:
        raise ValueError(f"print resolution must be 30-1200 dpi, got {dpi}")
    return draw_mat(dpi / MM_PER_INCH * paper.scale)


def png_bytes(image: BGRImage, dpi: float) -> bytes:
    """PNG bytes carrying the resolution (pHYs), so a viewer prints it at the right size."""
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("OpenCV could not encode the mat as PNG")
    data = encoded.tobytes()
    dots_per_metre = round(dpi / MM_PER_INCH * 1000)
    body = b"pHYs" + dots_per_metre.to_bytes(4, "big") * 2 + b"\x01"
    chunk = (9).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    header_end = 8 + 8 + 13 + 4  # signature, IHDR length and type, IHDR data, CRC
    return data[:header_end] + chunk + data[header_end:]


def pdf_bytes(image: BGRImage, paper: Paper) -> bytes:
    """A one-page PDF the size of `paper` (landscape) showing `image` edge to edge."""
    height, width = image.shape[:2]
    page_w, page_h = (size / MM_PER_INCH * POINTS_PER_INCH for size in paper.value)
    rgb = np.ascontiguousarray(image[..., ::-1]).tobytes()
    pixels = zlib.compress(rgb, 6)
    content = f"q {page_w:.3f} 0 0 {page_h:.3f} 0 0 cm /Mat Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w:.3f} {page_h:.3f}] "
        "/Resources << /XObject << /Mat 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceRGB "
        f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n".encode()
        + pixels
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
