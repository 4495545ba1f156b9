"""Dice and other boxes as 3D solids, their printed faces, and how they are drawn into an image.

A die is a cube of edge `size` standing on the table. Its faces carry the standard pips, opposite faces
summing to 7, with 1, 2 and 3 running counterclockwise around their shared corner (the handedness of Western
dice). Each visible face is drawn by painting a small square texture (body colour, pips, rounded corners,
bevel light, glare) and warping it onto the face's projected quadrilateral; a translucent body lets the
background through, tinted by the body, and shows the pips of the faces behind it faintly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth.camera import Camera

FloatArray = NDArray[np.float64]
Image = NDArray[np.float32]

# Canonical faces of a cube: outward normal and the texture's "right" axis; the texture's "down" axis is
# normal x right negated, so a face seen from outside is never mirrored. Faces 2k and 2k+1 are opposite.
_FACE_NORMALS = np.array(
    [[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], dtype=np.float64
)
_FACE_RIGHTS = np.array(
    [[1, 0, 0], [1, 0, 0], [0, 1, 0], [0, -1, 0], [-1, 0, 0], [1, 0, 0]], dtype=np.float64
)
CANONICAL_VALUES: tuple[int, ...] = (1, 6, 2, 5, 3, 4)
"""Value on each canonical face: 1 up, 2 on +x, 3 on +y, so (n1 x n2) . n3 > 0: counterclockwise 1-2-3."""

PIP_LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Pip positions per value on a 3x3 grid, (column, row) in -1..1; 2, 3 and 6 have an orientation."""


def _axis_rotation(axis: int, angle: float) -> FloatArray:
    """Rotation by `angle` radians about world axis 0 (x), 1 (y) or 2 (z)."""
    c, s = math.cos(angle), math.sin(angle)
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    rotation = np.eye(3)
    rotation[i, i], rotation[i, j], rotation[j, i], rotation[j, j] = c, -s, s, c
    return rotation


_TOP_ROTATIONS: dict[int, FloatArray] = {
    1: np.eye(3),
    6: _axis_rotation(0, math.pi),
    2: _axis_rotation(1, -math.pi / 2),
    5: _axis_rotation(1, math.pi / 2),
    3: _axis_rotation(0, math.pi / 2),
    4: _axis_rotation(0, -math.pi / 2),
}


def die_rotation(top_value: int, yaw: float) -> FloatArray:
    """Rotation of a die lying with `top_value` up, turned by `yaw` radians about the vertical."""
    return np.asarray(_axis_rotation(2, yaw) @ _TOP_ROTATIONS[top_value])


def _face_corner_signs() -> FloatArray:
    """(6, 4, 3) corners of each canonical face of the cube [-1, 1]^3, in texture order."""
    signs = np.empty((6, 4, 3))
    for face, (normal, right) in enumerate(zip(_FACE_NORMALS, _FACE_RIGHTS, strict=True)):
        down = np.cross(-normal, right)
        signs[face] = [
            normal - right - down,
            normal + right - down,
            normal + right + down,
            normal - right + down,
        ]
    return signs


_FACE_CORNER_SIGNS = _face_corner_signs()
_CORNER_SIGNS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], np.float64)


@dataclass(frozen=True)
class Box:
    """A rectangular solid on the table: centre, half extents along its own axes, and rotation to world."""

    center: FloatArray
    half_extents: FloatArray
    rotation: FloatArray

    @cached_property
    def corners(self) -> FloatArray:
        """The 8 corners in world coordinates."""
        return np.asarray((_CORNER_SIGNS * self.half_extents) @ self.rotation.T + self.center)

    @cached_property
    def all_face_corners(self) -> FloatArray:
        """(6, 4, 3) world corners of each canonical face in texture order: top-left, top-right,
        bottom-right, bottom-left as the face is printed and seen from outside."""
        return np.asarray((_FACE_CORNER_SIGNS * self.half_extents) @ self.rotation.T + self.center)

    def face_corners(self, face: int) -> FloatArray:
        return np.asarray(self.all_face_corners[face])

    @cached_property
    def face_normals(self) -> FloatArray:
        return np.asarray(_FACE_NORMALS @ self.rotation.T)

    @cached_property
    def up_face(self) -> int:
        """The canonical face lying uppermost: for a die, the one whose value counts."""
        return int(np.argmax(self.face_normals[:, 2]))

    @cached_property
    def footprint(self) -> FloatArray:
        """The (4, 2) corners of the box's bottom face seen from above, for overlap tests."""
        return np.asarray(self.all_face_corners[self.up_face ^ 1, :, :2])

    @cached_property
    def radius(self) -> float:
        """Radius of the footprint's circumscribed circle, for quick overlap rejection."""
        return float(np.linalg.norm(self.footprint[0] - self.center[:2]))

    def faces_toward(self, point: FloatArray) -> list[int]:
        """Canonical faces whose outside faces `point` (the camera): the visible ones."""
        centers = self.all_face_corners.mean(axis=1)
        facing = np.einsum("ij,ij->i", point - centers, self.face_normals)
        return [int(f) for f in np.flatnonzero(facing > 1e-9)]


def die_box(x: float, y: float, size: float, rotation: FloatArray, base: float = 0.0) -> Box:
    """A die of edge `size` resting at height `base` (0 on the table) with its centre above (x, y)."""
    return Box(np.array([x, y, base + size / 2]), np.full(3, size / 2), rotation)


@dataclass(frozen=True)
class DieLook:
    """How one die looks. Colours are BGR floats in 0..1."""

    body: tuple[float, float, float]
    pip: tuple[float, float, float]
    opacity: float
    """1 for an opaque body; lower lets the background through, tinted by `tint`."""
    tint: tuple[float, float, float]
    corner_radius: float
    """Rounding of the face corners as a fraction of the edge (0 sharp, 0.25 very round)."""
    pip_radius: float
    pip_spread: float
    """Distance of the outer pips from the centre, as a fraction of the edge."""
    bevel: float
    """Darkening of the rounded edges (negative lightens them)."""
    marble: tuple[float, float, float] | None = None
    """A second body colour swirled through the first, for marbled dice."""
    pips: bool = True
    rim: float = 0.0
    """White sheen along the rounded edges: the light they reflect towards the camera."""
    one_pip_scale: float = 1.0
    """The 1 face's pip radius as a multiple of `pip_radius`: many dice print a big 1."""
    ringed_one: bool = False
    """The 1 face's pip drawn as a dot inside a ring, as on some casino-style and marbled dice."""


@cache
def _rounded_square(size: int, radius_percent: int) -> tuple[Image, Image]:
    """Coverage (anti-aliased) and edge closeness (1 at the rim, 0 inside a bevel) of a rounded square."""
    half = size / 2.0
    radius = max(size * radius_percent / 100.0, 0.5)
    coords = np.abs(np.arange(size, dtype=np.float32) + 0.5 - half)
    qx = coords[None, :] - (half - radius)
    qy = coords[:, None] - (half - radius)
    outside = np.sqrt(np.maximum(qx, 0) ** 2 + np.maximum(qy, 0) ** 2)
    signed = outside + np.minimum(np.maximum(qx, qy), 0) - radius
    coverage = np.clip(0.5 - signed, 0.0, 1.0).astype(np.float32)
    bevel_width = max(size * 0.14, 1.5)
    edge = (np.clip(1.0 + signed / bevel_width, 0.0, 1.0) ** 2).astype(np.float32)
    return coverage, edge


def pip_mask(size: int, value: int, radius: float, spread: float, ringed: bool = False) -> Image:
    """Anti-aliased mask of the pips of `value` on a face texture of `size` pixels; `ringed` draws each pip
    as a dot inside a ring."""
    shift = 4
    scale = 1 << shift
    mask = np.zeros((size, size), np.uint8)
    # OpenCV's anti-aliased disc reaches about half a pixel past its radius.
    r = max(round((radius * size - 0.5) * scale), scale // 2)
    for col, row in PIP_LAYOUTS[value]:
        centre = (
            round(((0.5 + col * spread) * size - 0.5) * scale),
            round(((0.5 + row * spread) * size - 0.5) * scale),
        )
        cv2.circle(mask, centre, r, 255, -1, cv2.LINE_AA, shift)
        if ringed:
            cv2.circle(mask, centre, round(r * 0.72), 0, -1, cv2.LINE_AA, shift)
            cv2.circle(mask, centre, round(r * 0.45), 255, -1, cv2.LINE_AA, shift)
    return mask.astype(np.float32) * (1.0 / 255.0)


@lru_cache(maxsize=2048)
def _pips(
    size: int, value: int, radius_permille: int, spread_permille: int, ringed: bool = False
) -> tuple[Image, Image]:
    """Pip mask and the body's darkening around each pip (its recess), cached: faces repeat a lot."""
    mask = pip_mask(size, value, radius_permille / 1000, spread_permille / 1000, ringed)
    ring = np.clip(cv2.GaussianBlur(mask, (0, 0), max(size * 0.012, 0.6)) - mask, 0.0, 1.0)
    return mask, (1.0 - 0.5 * ring).astype(np.float32)


TEXTURE_SIZES: tuple[int, ...] = (16, 24, 32, 48, 64, 96, 128, 192, 256)
GHOST_SIDES_FROM_PX = 48
"""Texture size from which a translucent die also shows the pips of its hidden sides, not just its bottom."""


def _marble(size: int, rng: np.random.Generator) -> Image:
    """Swirling bands in 0..1: where a marbled die shows its second colour."""
    grid = rng.random((5, 5)).astype(np.float32)
    noise = cv2.resize(grid, (size, size), interpolation=cv2.INTER_CUBIC)
    return np.asarray(0.5 + 0.5 * np.sin(noise * rng.uniform(8.0, 16.0)), np.float32)


@dataclass(frozen=True)
class Glare:
    """A specular highlight on a face: centre in face fractions, radius fraction, peak added brightness.

    A lamp's bulb makes a round spot; a strip light or a window makes a streak: `stretch` times longer
    along `angle` (radians from the face's x axis) than its `radius` across."""

    x: float
    y: float
    radius: float
    strength: float
    angle: float = 0.0
    stretch: float = 1.0


def _glare_highlight(glare: Glare, size: int) -> Image:
    """The brightness a glare adds over a face texture `size` pixels a side. A round spot stays the product
    of two 1-D Gaussians: the rotated form rounds differently and would change every existing render."""
    coords = (np.arange(size, dtype=np.float32) + 0.5) / size
    if glare.stretch == 1.0:
        gx = np.exp(-(((coords - glare.x) / glare.radius) ** 2))
        gy = np.exp(-(((coords - glare.y) / glare.radius) ** 2))
        return np.float32(glare.strength) * np.outer(gy, gx)
    xs, ys = coords[None, :] - np.float32(glare.x), coords[:, None] - np.float32(glare.y)
    cos, sin = np.float32(math.cos(glare.angle)), np.float32(math.sin(glare.angle))
    along = (xs * cos + ys * sin) / np.float32(glare.radius * glare.stretch)
    across = (ys * cos - xs * sin) / np.float32(glare.radius)
    return np.float32(glare.strength) * np.exp(-(along**2) - across**2)


GLARE_IN_PIPS = 0.15
"""Share of a lamp's glare on a face that shows in its pips: a pip is a painted recess whose curved sides
send the light elsewhere, so a highlight across the face leaves the pips standing out in it. (Glare drawn
over the pips as over the face washed them out: dice no one could read.)"""


def face_texture(
    look: DieLook,
    value: int | None,
    size: int,
    shade: float,
    rng: np.random.Generator,
    glare: Glare | None = None,
) -> Image:
    """A (size, size, 4) texture of premultiplied BGR and coverage, with a fifth channel for a translucent
    body: the clear part of the coverage.

    `value` None draws a blank face (a token, a pipless cube); `shade` is the light falling on this face.
    """
    coverage, edge = _rounded_square(size, round(look.corner_radius * 100))
    # A translucent body's rounded edges pass light on instead of turning it away: half the darkening.
    bevel = look.bevel if look.opacity >= 1.0 else look.bevel * 0.5
    light = (1.0 - bevel * edge) * np.float32(shade)
    pips: Image | None = None
    body_light = light
    if value is not None and look.pips:
        pips, recess = _face_pips(look, value, size)
        body_light = light * recess
    # Light that does not take the body's colour: the sheen of the rounded edges and a lamp's glare.
    sheen: Image | None = None
    if look.rim > 0:
        sheen = np.float32(look.rim * shade) * edge * edge
    opacity: Image | None = None
    if look.opacity < 1.0:
        solid = edge * 0.3 if pips is None else np.maximum(pips, edge * 0.3)
        opacity = look.opacity + (1.0 - look.opacity) * solid
    if glare is not None:
        highlight = _glare_highlight(glare, size)
        if pips is not None:
            highlight *= 1.0 - np.float32(1.0 - GLARE_IN_PIPS) * pips
        sheen = highlight if sheen is None else sheen + highlight
        if opacity is not None:
            opacity = np.maximum(opacity, np.minimum(highlight, 1.0))
    solid_coverage = coverage if opacity is None else opacity * coverage
    swirl = None if look.marble is None else _marble(size, rng)
    veins = look.body if look.marble is None else look.marble
    # Channel by channel: (H, W, 1) x (3,) broadcasting is several times slower than 2-D arithmetic.
    planes = []
    for channel in range(3):
        body = np.float32(look.body[channel])
        if swirl is None:
            colour = body_light * body
        else:
            colour = body_light * (body + swirl * np.float32(veins[channel] - look.body[channel]))
        if pips is not None:
            colour += pips * (light * np.float32(look.pip[channel]) - colour)
        if sheen is not None:
            colour += sheen
        planes.append(colour * solid_coverage)
    planes.append(coverage)
    if opacity is not None:
        planes.append(coverage - solid_coverage)
    return np.asarray(cv2.merge(planes), np.float32)


def _face_pips(look: DieLook, value: int, size: int) -> tuple[Image, Image]:
    """The pips of one face of `look` and their recess (the 1 may be bigger, or ringed)."""
    if value == 1:
        radius = look.pip_radius * look.one_pip_scale
        return _pips(size, 1, round(radius * 1000), round(look.pip_spread * 1000), look.ringed_one)
    return _pips(size, value, round(look.pip_radius * 1000), round(look.pip_spread * 1000))


def ghost_texture(look: DieLook, value: int, size: int, strength: float) -> Image:
    """The pips of a face behind a translucent body, as seen faintly through it."""
    pips = _face_pips(look, value, size)[0] * strength
    return np.asarray(cv2.merge([pips * np.float32(c) for c in look.pip] + [pips]), np.float32)


def spread3(plane: Image) -> Image:
    """A 2-D plane repeated into three interleaved channels, to scale a BGR image pixel by pixel: NumPy's
    (H, W, 1) x (H, W, 3) broadcasting runs an inner loop of length 3 and is many times slower."""
    return np.asarray(cv2.merge((plane, plane, plane)), np.float32)


def warp_texture(texture: Image, quad: FloatArray, origin: tuple[int, int], size: tuple[int, int]) -> Image:
    """`texture` warped so that its top-left, top-right, bottom-right and bottom-left corners land on the
    image quadrilateral `quad`, as a (rows, cols) = `size` window whose top-left pixel is image `origin`."""
    rows, cols = texture.shape[:2]
    source = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32) - 0.5
    target = (quad - np.array(origin)).astype(np.float32)
    homography = cv2.getPerspectiveTransform(source, target)
    return np.asarray(
        cv2.warpPerspective(
            texture, homography, (size[1], size[0]), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
        ),
        np.float32,
    )


def _add_warped(
    layer: Image, texture: Image, quad: FloatArray, origin: tuple[int, int]
) -> tuple[tuple[slice, slice], Image] | None:
    """Warp `texture` onto `quad` and add it into `layer`, whose top-left pixel is image `origin`, over just
    the quad's bounding box; returns that box's slices of `layer` and the warped texture (None if empty)."""
    low, high = quad.min(axis=0) - origin, quad.max(axis=0) - origin
    x0, y0 = max(math.floor(low[0]) - 1, 0), max(math.floor(low[1]) - 1, 0)
    x1, y1 = min(math.ceil(high[0]) + 2, layer.shape[1]), min(math.ceil(high[1]) + 2, layer.shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    warped = warp_texture(texture, quad, (origin[0] + x0, origin[1] + y0), (y1 - y0, x1 - x0))
    window = (slice(y0, y1), slice(x0, x1))
    layer[window] += warped[..., : layer.shape[2]]
    return window, warped


def blend(region: Image, layer: Image, tint: tuple[float, float, float] | None) -> None:
    """Lay a warped `layer` (premultiplied BGR, coverage, and for a translucent one its clear part) over the
    image `region` of the same size, in place.

    `tint` colours the light let through the layer's clear part; None for an opaque layer."""
    channels = cv2.split(layer)
    kept = 1.0 - channels[3]
    if tint is None:
        region *= spread3(kept)
    else:
        region *= cv2.merge([kept + channels[4] * np.float32(t) for t in tint])
    region += cv2.merge(channels[:3])


def texture_size(quad: FloatArray) -> int:
    """The smallest of TEXTURE_SIZES fine enough for a face whose longest projected edge is as in `quad`."""
    edges = quad[[1, 2, 3, 0]] - quad
    longest = math.sqrt(float((edges * edges).sum(axis=1).max()))
    for size in TEXTURE_SIZES:
        if size >= longest:
            return size
    return TEXTURE_SIZES[-1]


def draw_box(
    canvas: Image,
    owner: NDArray[np.int32],
    camera: Camera,
    box: Box,
    look: DieLook,
    values: tuple[int, ...] | None,
    light: FloatArray,
    ambient: float,
    rng: np.random.Generator,
    owner_base: int,
    glare: Glare | None = None,
) -> tuple[FloatArray, int]:
    """Draw `box` (a die when `values` gives each canonical face's value, else blank) into `canvas`.

    The uppermost face's pixels are marked `owner_base + up_face` in `owner` and the sides' `owner_base + 6`.
    Returns the image corners of the uppermost face in texture order and how many pixels it covered.
    """
    visible = box.faces_toward(camera.center)
    up = box.up_face
    quads = camera.project(box.all_face_corners.reshape(-1, 3)).reshape(6, 4, 2)
    height, width = canvas.shape[:2]
    low, high = quads.reshape(-1, 2).min(axis=0), quads.reshape(-1, 2).max(axis=0)
    x0, y0 = max(math.floor(low[0]) - 1, 0), max(math.floor(low[1]) - 1, 0)
    x1, y1 = min(math.ceil(high[0]) + 2, width), min(math.ceil(high[1]) + 2, height)
    if x1 <= x0 or y1 <= y0:
        return quads[up], 0
    region = canvas[y0:y1, x0:x1]
    tint = look.tint if look.opacity < 1.0 else None
    if tint is not None and values is not None and look.pips:
        # The pips behind a translucent body: always the bottom face's, the hidden sides' on larger dice.
        seen_through = [up ^ 1]
        if texture_size(quads[up]) >= GHOST_SIDES_FROM_PX:
            seen_through += [f for f in range(6) if f not in visible and f != up ^ 1]
        strength = 0.25 * (1.0 - look.opacity) + 0.1
        ghosts = np.zeros((*region.shape[:2], 4), np.float32)
        for face in seen_through:
            ghost = ghost_texture(look, values[face], texture_size(quads[face]), strength)
            _add_warped(ghosts, ghost, quads[face], (x0, y0))
        blend(region, ghosts, None)
    if look.corner_radius >= 0.5:
        # A disc: its flat sides would show as straight bands, so lay its bottom (in shadow) under its top
        # instead; together they read as a short cylinder.
        bottom = np.zeros((*region.shape[:2], 4), np.float32)
        _add_warped(
            bottom,
            face_texture(look, None, texture_size(quads[up ^ 1]), ambient, rng),
            quads[up ^ 1],
            (x0, y0),
        )
        blend(region, bottom, None)
        visible = [up]
    layer = np.zeros((*region.shape[:2], 4 if tint is None else 5), np.float32)
    top: tuple[tuple[slice, slice], Image] | None = None
    for face in visible:
        lambert = max(float(np.dot(box.face_normals[face], light)), 0.0)
        shade = ambient + (1.0 - ambient) * lambert
        if tint is not None:  # light scattered inside a translucent body brightens its shaded sides
            shade = 0.5 * (shade + 1.0)
        value = None if values is None else values[face]
        texture = face_texture(
            look, value, texture_size(quads[face]), shade, rng, glare if face == up else None
        )
        placed = _add_warped(layer, texture, quads[face], (x0, y0))
        if face == up:
            top = placed
    blend(region, layer, tint)
    owned = owner[y0:y1, x0:x1]
    np.copyto(owned, owner_base + 6, where=layer[..., 3] > 0.5)
    if top is None:
        return quads[up], 0
    (rows, cols), warped = top
    top_covered = warped[..., 3] > 0.5
    np.copyto(owned[rows, cols], owner_base + up, where=top_covered)
    top_area = int(np.count_nonzero(top_covered))
    return quads[up], top_area
