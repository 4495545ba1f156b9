"""The mat's zones seen from straight above at a known scale: where dice are found and read.

Warping the photo through the homography of a plane parallel to the paper shows everything lying in that
plane as it lies on the mat, whatever the camera's angle. Two such views serve the dice:
- at the height of a die's middle, a die's box is centred on its footprint and is about a die's edge
  across, so the detector sees every die at the same size and a box's centre is where the die stands;
- at the height of the dice's tops, each top face is an upright square of a die's edge centred on the
  footprint, so the reader can be shown the face alone, without the sides whose pips a slanted view
  mixes in.

Both views cover the same rectangle of the mat at the same scale, so a view pixel maps to mat units
alike in both: only which part of a die lies where it belongs differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import cv2
import numpy as np

from vision.detect import DetectorSettings
from vision.markers import BGRImage, FloatArray, MatLocation
from vision.runbuster.mat import MAT_WIDTH, ZONES

VIEW_MARGIN = 12.0
"""Mat units shown round the zones: a die overhanging a zone's edge by half its size stays in view."""
VIEW_LEFT = min(zone.left for zone in ZONES) - VIEW_MARGIN
VIEW_TOP = min(zone.top for zone in ZONES) - VIEW_MARGIN
VIEW_RIGHT = max(zone.right for zone in ZONES) + VIEW_MARGIN
VIEW_BOTTOM = max(zone.bottom for zone in ZONES) + VIEW_MARGIN
VIEW_SCALE = DetectorSettings().working_long_side / max(VIEW_RIGHT - VIEW_LEFT, VIEW_BOTTOM - VIEW_TOP)
"""View pixels per mat unit: the view's long side is the detector's working size, so it is never shrunk
(a die of the A3 print is then about 34 px across)."""
VIEW_SIZE = (round((VIEW_RIGHT - VIEW_LEFT) * VIEW_SCALE), round((VIEW_BOTTOM - VIEW_TOP) * VIEW_SCALE))
"""Width and height in pixels."""


def view_to_mat(points: FloatArray) -> FloatArray:
    """Mat coordinates (N, 2) of view pixels (N, 2), the same in every view."""
    return np.asarray(points, np.float64) / VIEW_SCALE + (VIEW_LEFT, VIEW_TOP)


def mat_to_view(points: FloatArray) -> FloatArray:
    """View pixels (N, 2) of mat coordinates (N, 2)."""
    return (np.asarray(points, np.float64) - (VIEW_LEFT, VIEW_TOP)) * VIEW_SCALE


def view_to_photo(location: MatLocation, height: float) -> FloatArray:
    """The homography from a view's pixels to the photo's, for the plane `height` mat units above the
    paper."""
    view_to_mat_matrix = np.array(
        [[1 / VIEW_SCALE, 0, VIEW_LEFT], [0, 1 / VIEW_SCALE, VIEW_TOP], [0, 0, 1]], np.float64
    )
    return location.plane_homography(height) @ view_to_mat_matrix


SHRINK_ABOVE = 2.0
"""A photo showing the mat at more than this many times the view's scale is shrunk (by area) first, so
the view samples it without aliasing."""


def plane_views(pixels: BGRImage, location: MatLocation, heights: Sequence[float]) -> list[BGRImage]:
    """For each height (mat units above the paper), that plane of the photo `pixels` seen from straight
    above: VIEW_SIZE pixels covering VIEW_LEFT-VIEW_RIGHT x VIEW_TOP-VIEW_BOTTOM of the mat."""
    photo_scale = float(np.ptp(location.outline[:, 0])) / MAT_WIDTH
    shrink = min(1.0, SHRINK_ABOVE * VIEW_SCALE / photo_scale)
    if shrink < 1.0:
        size = (max(1, round(pixels.shape[1] * shrink)), max(1, round(pixels.shape[0] * shrink)))
        pixels = cast(BGRImage, cv2.resize(pixels, size, interpolation=cv2.INTER_AREA))
    photo_to_shrunk = np.diag([shrink, shrink, 1.0])
    return [
        cast(
            BGRImage,
            cv2.warpPerspective(
                pixels,
                photo_to_shrunk @ view_to_photo(location, height),
                VIEW_SIZE,
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            ),
        )
        for height in heights
    ]
