"""A pinhole camera looking down at the table plane, the geometry every rendered scene shares.

World coordinates: the table is the plane z = 0, z points up, and one unit is the edge of a standard die, so
sizes of dice, tokens and table textures are all in die edges. The camera looks at a point on the table from
a tilt of 0 (straight down) to a few tens of degrees, from any direction, with any roll of the image.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class Camera:
    """Intrinsics `k` (3x3), world-to-camera rotation `rotation` (3x3) and `translation` (3,), image size."""

    k: FloatArray
    rotation: FloatArray
    translation: FloatArray
    width: int
    height: int

    @cached_property
    def center(self) -> FloatArray:
        """The camera's position in world coordinates."""
        return np.asarray(-self.rotation.T @ self.translation)

    @property
    def focal(self) -> float:
        return float(self.k[0, 0])

    def project(self, points: FloatArray) -> FloatArray:
        """Image pixel coordinates (N, 2) of world points (N, 3), all in front of the camera."""
        cam = points @ self.rotation.T + self.translation
        pix = cam @ self.k.T
        return np.asarray(pix[:, :2] / pix[:, 2:3])

    def depth(self, points: FloatArray) -> FloatArray:
        """Distance of world points (N, 3) along the optical axis."""
        return np.asarray(points @ self.rotation[2] + self.translation[2])

    def plane_homography(self, height: float = 0.0) -> FloatArray:
        """The 3x3 map from (x, y, 1) on the horizontal plane z = `height` to image pixels."""
        columns = np.column_stack(
            (self.rotation[:, 0], self.rotation[:, 1], self.rotation[:, 2] * height + self.translation)
        )
        return np.asarray(self.k @ columns)

    @cached_property
    def _rays_from_pixels(self) -> FloatArray:
        """Maps homogeneous pixels to world ray directions."""
        return np.asarray(self.rotation.T @ np.linalg.inv(self.k))

    def backproject(self, pixels: FloatArray, height: float = 0.0) -> FloatArray:
        """World (x, y) on the plane z = `height` seen at image pixels (N, 2)."""
        rays = np.column_stack((pixels, np.ones(len(pixels)))) @ self._rays_from_pixels.T
        center = self.center
        along = (height - center[2]) / rays[:, 2:3]
        return np.asarray(center[:2] + along * rays[:, :2])


def look_at_table(
    *,
    width: int,
    height: int,
    focal: float,
    tilt_deg: float,
    azimuth_deg: float,
    roll_deg: float,
    distance: float,
    principal_offset: tuple[float, float] = (0.0, 0.0),
) -> Camera:
    """A camera `distance` units from the table origin, tilted `tilt_deg` from straight down.

    `azimuth_deg` turns the camera around the vertical through the origin and `roll_deg` turns the image about
    the optical axis, so together they give any orientation of the table in the picture.
    """
    tilt = math.radians(tilt_deg)
    # Camera axes (x right, y down, z forward) before turning: looking along +y, tilted down from vertical.
    right = np.array([1.0, 0.0, 0.0])
    down = np.array([0.0, -math.cos(tilt), -math.sin(tilt)])
    forward = np.array([0.0, math.sin(tilt), -math.cos(tilt)])
    roll = math.radians(roll_deg)
    right, down = (
        math.cos(roll) * right + math.sin(roll) * down,
        -math.sin(roll) * right + math.cos(roll) * down,
    )
    azimuth = math.radians(azimuth_deg)
    turn = np.array(
        [
            [math.cos(azimuth), -math.sin(azimuth), 0.0],
            [math.sin(azimuth), math.cos(azimuth), 0.0],
            [0, 0, 1.0],
        ]
    )
    axes = np.vstack((right, down, forward)) @ turn.T
    center = -distance * axes[2]
    k = np.array(
        [
            [focal, 0.0, (width - 1) / 2.0 + principal_offset[0]],
            [0.0, focal, (height - 1) / 2.0 + principal_offset[1]],
            [0.0, 0.0, 1.0],
        ]
    )
    return Camera(k=k, rotation=axes, translation=-axes @ center, width=width, height=height)
