"""Finding the Run Buster mat in a photo by its six markers (`vision.markers` does the geometry)."""

from __future__ import annotations

from vision.markers import BGRImage, FloatArray, MatLocation, find_markers, locate
from vision.runbuster.mat import MARKERS, MAT_HEIGHT, MAT_WIDTH

DETECTION_LONG_SIDE = 2400
"""Markers are searched for in a copy at most this large: a 12 MP photo gains nothing above it."""
SMALLEST_SEARCH = 400
"""The smallest copy (long side, pixels) searched for markers in a shaken photo."""


def find_mat_markers(pixels: BGRImage) -> dict[int, FloatArray]:
    """The mat's markers visible in a BGR (or grey) image: id -> its four corners in pixels."""
    return find_markers(pixels, {marker.id for marker in MARKERS}, DETECTION_LONG_SIDE, SMALLEST_SEARCH)


def locate_mat(pixels: BGRImage) -> MatLocation:
    """The mat's place in a BGR (or grey) image; MatNotFound when fewer than two markers are visible."""
    found = find_mat_markers(pixels)
    height, width = pixels.shape[:2]
    return locate(found, MARKERS, (MAT_WIDTH, MAT_HEIGHT), (width, height), "the Run Buster mat")
