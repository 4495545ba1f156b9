"""Printed mats with ArUco markers (the Run Buster mat, the Sagrada window mats): finding one in a photo, and
writing one out to print.

A mat's markers give the homography from the paper to the photo. A die or a card lies above the paper, so
mapping its image through the paper's homography puts it too far from the camera, by up to half a die at a
steep angle. From the homography alone (square pixels, principal point at the image centre) the focal length
and the camera's pose follow, and with them the homography of the plane at any height above the paper.

Every mat uses OpenCV's predefined 4x4 dictionary, each game its own ids, so one photo can hold several.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import VisionError

FloatArray = NDArray[np.float64]
BGRImage = NDArray[np.uint8]

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
MIN_MARKERS = 2
"""Markers needed to place a mat: two give eight corners, enough for its homography."""
PLAUSIBLE_FOCAL = (0.3, 6.0)
"""Focal lengths outside these multiples of the image's long side are taken as unmeasurable."""
DEFAULT_FOCAL = 0.9
"""The focal length, in long sides, assumed when the photo is too square-on to measure one (a phone's)."""
MM_PER_INCH = 25.4
POINTS_PER_INCH = 72.0


class MatNotFound(VisionError):
    """Too few of a mat's markers are visible in the photo to place it."""


def aruco_dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)


@dataclass(frozen=True)
class Marker:
    """One ArUco marker: its id, the top-left corner of its black square and its side, in mat units."""

    id: int
    left: float
    top: float
    side: float

    @property
    def corners(self) -> FloatArray:
        """The four corners in OpenCV's detection order: top-left, top-right, bottom-right, bottom-left."""
        x, y, s = self.left, self.top, self.side
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]])

    def covers(self, x: float, y: float) -> bool:
        """Whether the mat point (x, y) lies on the marker."""
        return self.left <= x <= self.left + self.side and self.top <= y <= self.top + self.side


@dataclass(frozen=True)
class MatLocation:
    """Where a mat lies in an image: mat units -> pixels for the paper, and the camera that explains it."""

    homography: FloatArray
    """Maps mat (x, y, 1) on the paper to image pixels."""
    camera_matrix: FloatArray
    rotation: FloatArray
    translation: FloatArray
    markers: tuple[int, ...]
    """The ids of the markers found."""
    reprojection_error: float
    """Mean distance in pixels between the found marker corners and where the homography puts them."""
    size: tuple[float, float]
    """The mat's width and height in mat units."""

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
        width, height = self.size
        return self.to_image(np.array([[0, 0], [width, 0], [width, height], [0, height]]))


def find_markers(
    pixels: BGRImage,
    ids: Collection[int],
    long_side: int,
    smallest: int | None = None,
    min_side: float | None = None,
) -> dict[int, FloatArray]:
    """Every marker of `ids` visible in the image: id -> its four corners in pixels (OpenCV's order).

    The search runs in a copy at most `long_side` pixels long. A shaken photo smears the markers' edges and
    halving the picture halves the smear, so with `smallest` set, copies down to that long side are searched
    too until every marker is found, and the copy that shows the most markers wins. With `min_side` set,
    markers under that many pixels a side in the copy are not looked for, which halves the search's cost.
    """
    grey = pixels if pixels.ndim == 2 else np.asarray(cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY), np.uint8)
    scale = min(1.0, long_side / max(grey.shape[:2]))
    best = _markers_at(grey, scale, ids, min_side)
    while smallest is not None and len(best) < len(ids) and max(grey.shape[:2]) * scale / 2 >= smallest:
        scale /= 2
        found = _markers_at(grey, scale, ids, min_side)
        if len(found) > len(best):
            best = found
    return best


_SMALL_MARKER_WINDOW = 3
"""OpenCV's smallest adaptive-threshold window, which only markers of one or two pixels a cell need."""


def _markers_at(
    grey: NDArray[np.uint8], scale: float, ids: Collection[int], min_side: float | None
) -> dict[int, FloatArray]:
    if scale < 1.0:
        size = (round(grey.shape[1] * scale), round(grey.shape[0] * scale))
        # Area averaging, which a true shrink needs against aliasing, costs several times more than
        # interpolation; a marker's cells still span pixels when the copy is more than half the size.
        interpolation = cv2.INTER_AREA if scale <= 0.5 else cv2.INTER_LINEAR
        grey = cast(NDArray[np.uint8], cv2.resize(grey, size, interpolation=interpolation))
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if min_side is not None:
        # Candidate outlines shorter than a marker of `min_side` are dropped before they cost anything.
        parameters.minMarkerPerimeterRate = 4 * min_side / max(grey.shape[:2])
        parameters.adaptiveThreshWinSizeMin = _SMALL_MARKER_WINDOW + parameters.adaptiveThreshWinSizeStep
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(), parameters)
    corners, found_ids, _rejected = detector.detectMarkers(grey)
    found: dict[int, FloatArray] = {}
    if found_ids is None:
        return found
    for number, quad in zip(found_ids.ravel().tolist(), corners, strict=True):
        marker_id = int(number)
        if marker_id in ids and marker_id not in found:
            # OpenCV's corners are in pixel-centre coordinates of the resized copy.
            found[marker_id] = (np.asarray(quad, np.float64).reshape(4, 2) + 0.5) / scale - 0.5
    return found


def locate(
    found: dict[int, FloatArray],
    markers: Sequence[Marker],
    size: tuple[float, float],
    image_size: tuple[int, int],
    name: str,
) -> MatLocation:
    """The mat `name` (laid out as `markers` on a sheet of `size`) placed from the markers `found` in an
    image of `image_size` (width, height); MatNotFound when fewer than MIN_MARKERS of them are there."""
    by_id = {marker.id: marker for marker in markers}
    ids = tuple(sorted(i for i in found if i in by_id))
    if len(ids) < MIN_MARKERS:
        seen = ", ".join(str(i) for i in ids) or "none"
        raise MatNotFound(
            f"{name} needs {MIN_MARKERS} of its {len(markers)} corner markers in view, "
            f"found {len(ids)} (ids: {seen}); photograph the whole mat"
        )
    mat_points = np.vstack([by_id[i].corners for i in ids])
    image_points = np.vstack([found[i] for i in ids])
    fitted, _ = cv2.findHomography(mat_points, image_points, 0)
    if fitted is None:
        raise MatNotFound(f"the markers found ({', '.join(map(str, ids))}) do not fit {name}'s layout")
    homography = np.asarray(fitted, np.float64)
    projected = cv2.perspectiveTransform(mat_points.reshape(-1, 1, 2), homography).reshape(-1, 2)
    error = float(np.linalg.norm(projected - image_points, axis=1).mean())
    camera_matrix = _camera_matrix(homography, *image_size)
    rotation, translation = _pose(mat_points, image_points, camera_matrix)
    return MatLocation(homography, camera_matrix, rotation, translation, ids, error, size)


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


PRINT_DPI = (30, 1200)
"""The print resolutions a mat is drawn at: coarser loses the markers' cells, finer only grows the file."""


def print_scale(dpi: float) -> float:
    """Pixels per millimetre of a mat printed at `dpi`; ValueError outside PRINT_DPI."""
    if not PRINT_DPI[0] <= dpi <= PRINT_DPI[1]:
        raise ValueError(f"print resolution must be {PRINT_DPI[0]}-{PRINT_DPI[1]} dpi, got {dpi}")
    return dpi / MM_PER_INCH


def draw_markers(image: BGRImage, markers: Sequence[Marker], px_per_unit: float) -> None:
    """Print each marker (its black square, one bit of border) into the drawn mat `image`."""
    dictionary = aruco_dictionary()
    for marker in markers:
        side = round(marker.side * px_per_unit)
        x, y = round(marker.left * px_per_unit), round(marker.top * px_per_unit)
        square = cv2.aruco.generateImageMarker(dictionary, marker.id, side, borderBits=1)
        image[y : y + side, x : x + side] = square[..., None]


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


def pdf_bytes(image: BGRImage, page_mm: tuple[float, float]) -> bytes:
    """A one-page PDF of `page_mm` (width, height) showing `image` edge to edge.

    Written by hand (no PDF library): the drawn mat as a single lossless (Flate) RGB image, which keeps the
    markers' edges exact when printed at 100 %.
    """
    height, width = image.shape[:2]
    page_w, page_h = (size / MM_PER_INCH * POINTS_PER_INCH for size in page_mm)
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
