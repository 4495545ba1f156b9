"""Finding the mat in a photo: its ArUco markers give a homography, and a camera estimate corrects parallax.

A die's image lies above the paper, so mapping it through the paper's homography puts it too far from the
camera, by up to half a die at a steep angle. From the homography alone (square pixels, principal point at
the image centre) the focal length and the camera's pose follow, and with them the homography of the plane
at any height above the paper: a die's centre is then mapped at the height of the die's middle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import VisionError
from vision.runbuster.mat import MARKERS, MAT_HEIGHT, MAT_WIDTH, aruco_dictionary

FloatArray = NDArray[np.float64]
BGRImage = NDArray[np.uint8]

DETECTION_LONG_SIDE = 2400
"""Markers are searched for in a copy at most this large: a 12 MP photo gains nothing above it."""
SMALLEST_SEARCH = 400
"""The smallest copy (long side, pixels) searched for markers."""
MIN_MARKERS = 2
PLAUSIBLE_FOCAL = (0.3, 6.0)
"""Focal lengths outside these multiples of the image's long side are taken as unmeasurable."""
DEFAULT_FOCAL = 0.9
"""The focal length, in long sides, assumed when the photo is too square-on to measure one (a phone's)."""


class MatNotFound(VisionError):
    """Too few of the mat's markers are visible in the photo to place it."""


@dataclass(frozen=True)
class MatLocation:
    """Where the mat lies in an image: mat units -> pixels for the paper, and the camera that explains it."""

    homography: FloatArray
    """Maps mat (x, y, 1) on the paper to image pixels."""
    camera_matrix: FloatArray
    rotation: FloatArray
    translation: FloatArray
    markers: tuple[int, ...]
    """The ids of the markers found."""
    reprojection_error: float
    """Mean distance in pixels between the found marker corners and where the homography puts them."""

    def plane_homography(self, height: float) -> FloatArray:
        """Maps mat (x, y, 1) on the plane `height` mat units above the paper to image pixels."""
        # The mat's axes run right and down the sheet, so their cross product points into the table.
        columns = np.column_stack(
            (self.rotation[:, 0], self.rotation[:, 1], self.translation - height * self.rotation[:, 2])
        )
        return np.asarray(self.camera_matrix @ columns, np.float64)

    def to_mat(self, pixels: FloatArray, height: float = 0.0) -> FloatArray:
        """Mat coordinates (N, 2) of points seen at image `pixels` (N, 2) lying `height` above the paper."""
        homography = self.homography if height == 0 else self.plane_homography(height)
        points = np.asarray(pixels, np.float64).reshape(-1, 1, 2)
        return cast(FloatArray, cv2.perspectiveTransform(points, np.linalg.inv(homography)).reshape(-1, 2))

    def to_image(self, points: FloatArray, height: float = 0.0) -> FloatArray:
        """Image pixels (N, 2) of mat points (N, 2) at `height` above the paper."""
        homography = self.homography if height == 0 else self.plane_homography(height)
        source = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cast(FloatArray, cv2.perspectiveTransform(source, homography).reshape(-1, 2))

    @property
    def camera_position(self) -> FloatArray:
        """Where the camera is, in mat units: x and y on the sheet, z negative above it."""
        return np.asarray(-self.rotation.T @ self.translation, np.float64)

    @property
    def outline(self) -> FloatArray:
        """The sheet's corners in the image: top-left, top-right, bottom-right, bottom-left as printed."""
        return self.to_image(np.array([[0, 0], [MAT_WIDTH, 0], [MAT_WIDTH, MAT_HEIGHT], [0, MAT_HEIGHT]]))


def find_markers(pixels: BGRImage) -> dict[int, FloatArray]:
    """Every mat marker visible in the image: id -> its four corners in pixels (OpenCV's order).

    A shaken photo smears the markers' edges; halving the picture halves the smear, so smaller copies are
    searched too until every marker is found, and the copy that shows the most markers wins.
    """
    grey = pixels if pixels.ndim == 2 else np.asarray(cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY), np.uint8)
    scale = min(1.0, DETECTION_LONG_SIDE / max(grey.shape[:2]))
    best = _markers_at(grey, scale)
    while len(best) < len(MARKERS) and max(grey.shape[:2]) * scale / 2 >= SMALLEST_SEARCH:
        scale /= 2
        found = _markers_at(grey, scale)
        if len(found) > len(best):
            best = found
    return best


def _markers_at(grey: NDArray[np.uint8], scale: float) -> dict[int, FloatArray]:
    if scale < 1.0:
        size = (round(grey.shape[1] * scale), round(grey.shape[0] * scale))
        grey = cast(NDArray[np.uint8], cv2.resize(grey, size, interpolation=cv2.INTER_AREA))
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(), parameters)
    corners, ids, _rejected = detector.detectMarkers(grey)
    known = {marker.id for marker in MARKERS}
    found: dict[int, FloatArray] = {}
    if ids is None:
        return found
    for number, quad in zip(ids.ravel().tolist(), corners, strict=True):
        marker_id = int(number)
        if marker_id in known and marker_id not in found:
            # OpenCV's corners are in pixel-centre coordinates of the resized copy.
            found[marker_id] = (np.asarray(quad, np.float64).reshape(4, 2) + 0.5) / scale - 0.5
    return found


def locate_mat(pixels: BGRImage) -> MatLocation:
    """The mat's place in a BGR (or grey) image; MatNotFound when fewer than two markers are visible."""
    found = find_markers(pixels)
    if len(found) < MIN_MARKERS:
        seen = ", ".join(str(i) for i in sorted(found)) or "none"
        raise MatNotFound(
            f"the Run Buster mat needs {MIN_MARKERS} of its {len(MARKERS)} corner markers in view, "
            f"found {len(found)} (ids: {seen}); photograph the whole mat"
        )
    by_id = {marker.id: marker for marker in MARKERS}
    ids = tuple(sorted(found))
    mat_points = np.vstack([by_id[i].corners for i in ids])
    image_points = np.vstack([found[i] for i in ids])
    fitted, _ = cv2.findHomography(mat_points, image_points, 0)
    if fitted is None:
        raise MatNotFound(f"the markers found ({', '.join(map(str, ids))}) do not fit the mat's layout")
    homography = np.asarray(fitted, np.float64)
    projected = cv2.perspectiveTransform(mat_points.reshape(-1, 1, 2), homography).reshape(-1, 2)
    error = float(np.linalg.norm(projected - image_points, axis=1).mean())
    height, width = pixels.shape[:2]
    camera_matrix = _camera_matrix(homography, width, height)
    rotation, translation = _pose(mat_points, image_points, camera_matrix)
    return MatLocation(homography, camera_matrix, rotation, translation, ids, error)


def _camera_matrix(homography: FloatArray, width: int, height: int) -> FloatArray:
    """Intrinsics with the focal length measured from the homography (Zhang's two constraints with only the
    focal unknown), or a typical phone's when the view is too square-on for the measurement to hold."""
    cx, cy = (width - 1) / 2, (height - 1) / 2
    centred = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]]) @ homography
    h1, h2 = centred[:, 0], centred[:, 1]
    # Each constraint reads a / f^2 + b = 0; least squares over both gives 1 / f^2.
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    long_side = max(width, height)
    focal = DEFAULT_FOCAL * long_side
    denominator = float(a @ a)
    if denominator > 0:
        inverse_square = -float(a @ b) / denominator
        if inverse_square > 0:
            measured = 1 / math.sqrt(inverse_square)
            if PLAUSIBLE_FOCAL[0] * long_side <= measured <= PLAUSIBLE_FOCAL[1] * long_side:
                focal = measured
    return np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1]])


def _pose(
    mat_points: FloatArray, image_points: FloatArray, camera_matrix: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The mat's rotation (3x3) and translation (3,) in camera coordinates."""
    objects = np.column_stack((mat_points, np.zeros(len(mat_points))))
    ok, rotation_vector, translation = cv2.solvePnP(
        objects, image_points, camera_matrix, None, flags=cv2.SOLVEPNP_IPPE
    )
    if not ok:
        raise MatNotFound("the mat's markers were found but no camera pose explains them")
    rotation, _ = cv2.Rodrigues(rotation_vector)
    return np.asarray(rotation, np.float64), np.asarray(translation, np.float64).ravel()
