"""Synthetic photos of dice on a table, with exact labels: what the dice models are trained and tested on.

`render_scene` places dice (and pipless distractors) on a procedural table without interpenetration, looks at
them through a randomly posed pinhole camera, draws shadows, lit and textured faces, and then degrades the
picture the way phones and webcams do (uneven light, white balance, motion blur, sensor noise, JPEG). Every
random choice comes from the generator passed in, so a seed reproduces a scene exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import TypeVar, cast

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colors import DIE_COLORS, OTHER_COLOR, PALETTES, PIP_COLORS, hsv_to_bgr
from vision.synth.camera import Camera, look_at_table
from vision.synth.dice import CANONICAL_VALUES, Box, DieLook, Glare, die_box, die_rotation, draw_box, spread3
from vision.synth.textures import BACKGROUND_KINDS, PAINT_SCALE, paint_surface

FloatArray = NDArray[np.float64]
Image = NDArray[np.float32]
Pixels = TypeVar("Pixels", NDArray[np.float32], NDArray[np.uint8])


class SceneConfigError(ValueError):
    """A SceneConfig field holds a value the renderer cannot honour; the message names the field."""


@dataclass(frozen=True)
class SceneConfig:
    """What a rendered scene may contain. Ranges are inclusive (low, high); probabilities are per scene
    unless a field says per die."""

    width: int = 640
    height: int = 640
    dice_count: tuple[int, int] = (1, 12)
    die_size_px: tuple[float, float] = (24.0, 90.0)
    """Edge length of a die's top face as seen in the image, in pixels (20-200 makes sense)."""
    colors: tuple[str, ...] = DIE_COLORS
    max_tilt_deg: float = 35.0
    backgrounds: tuple[str, ...] = BACKGROUND_KINDS
    """Table surfaces to draw from, uniformly; name a kind twice to draw it twice as often."""
    translucent_probability: float = 0.4
    """Per die: a translucent body instead of an opaque one."""
    dark_pips_probability: float = 0.15
    """Per die with a dark or coloured body: dark pips instead of white ones (light bodies get dark pips)."""
    colored_pips_probability: float = 0.1
    """Per die: gold, red or silver pips."""
    marbled_probability: float = 0.0
    """Per die: a marbled body labelled "other" instead of a colour from `colors`."""
    big_one_probability: float = 0.0
    """Per die: its 1 is one big pip (1.5-2.5x the others), ringed half the time."""
    cluster_probability: float = 0.35
    """Per die: placed touching an earlier die."""
    mixed_sizes_probability: float = 0.3
    """Per scene: dice of different sizes (up to about 1.6x apart) instead of one set."""
    glare_probability: float = 0.5
    """Per scene: a lamp's glare, then on each die's top face with 70% chance."""
    glare_streak_probability: float = 0.0
    """Per glare: a long thin streak (a strip light's or a window's reflection) instead of a round spot."""
    motion_blur_probability: float = 0.15
    jpeg_probability: float = 0.8
    jpeg_quality: tuple[int, int] = (40, 95)
    noise_sigma: tuple[float, float] = (0.0, 6.0)
    """Gaussian sensor noise, in 0-255 grey levels."""
    distractor_count: tuple[int, int] = (0, 4)
    """Pipless cubes and flat tokens on the table, not labelled as dice."""
    stack_probability: float = 0.0
    """Per die: it lies on top of an earlier die (stacks up to three high, as in Cubist)."""
    edge_dice_probability: float = 0.0
    """Per die: it may stick out of the picture, cut by its border (the centre of its top face stays in
    view). Its labels then reach past the image and its visible_fraction counts the part cut off as hidden."""

    def __post_init__(self) -> None:
        if self.width < 32 or self.height < 32:
            raise SceneConfigError(f"width and height must be at least 32 px, got {self.width}x{self.height}")
        for name in ("dice_count", "die_size_px", "jpeg_quality", "noise_sigma", "distractor_count"):
            low, high = getattr(self, name)
            if low > high or low < 0:
                raise SceneConfigError(
                    f"{name} must be a range (low, high) with 0 <= low <= high, got {low, high}"
                )
        if self.die_size_px[0] < 4:
            raise SceneConfigError(f"die_size_px must start at 4 px or more, got {self.die_size_px}")
        if not 0 <= self.max_tilt_deg <= 45:
            raise SceneConfigError(f"max_tilt_deg must be within 0-45, got {self.max_tilt_deg}")
        unknown = [c for c in self.colors if c not in DIE_COLORS]
        if unknown or not self.colors:
            raise SceneConfigError(f"colors must be a non-empty subset of {DIE_COLORS}, got {self.colors}")
        unknown = [b for b in self.backgrounds if b not in BACKGROUND_KINDS]
        if unknown or not self.backgrounds:
            raise SceneConfigError(
                f"backgrounds must be a non-empty subset of {BACKGROUND_KINDS}, got {unknown}"
            )
        for field in fields(self):
            if field.name.endswith("_probability") and not 0 <= getattr(self, field.name) <= 1:
                raise SceneConfigError(f"{field.name} must be within 0-1, got {getattr(self, field.name)}")


@dataclass(frozen=True)
class RenderedDie:
    """A die's label. Coordinates are image pixels (x right, y down, pixel centres at integers).

    `top_face` lists the top face's corners in the order of the printed face (top-left, top-right,
    bottom-right, bottom-left of its pip layout), so warping them to a square shows the face upright.
    """

    value: int
    color: str
    top_face: NDArray[np.float32]
    outline: NDArray[np.float32]
    box: tuple[float, float, float, float]
    center: tuple[float, float]
    visible_fraction: float
    level: int = 0
    """0 for a die on the table, 1 for one lying on another die (a stack, as in Cubist), and so on."""
    glare: float = 0.0
    """The peak brightness a lamp's glare adds to the top face (0.3-1.2 of full white; 0 without one): where
    the pips are hardest to tell from a highlight. A real die laid from a photo keeps its photo's glare,
    which this does not count."""


@dataclass(frozen=True)
class Scene:
    image: NDArray[np.uint8]
    dice: tuple[RenderedDie, ...]


@dataclass(frozen=True)
class Placed:
    """An object in the scene: its solid, its look, its top value (None when it is no die), its label colour
    and how many dice it lies on."""

    box: Box
    look: DieLook
    value: int | None
    color: str
    level: int = 0


def separated(first: FloatArray, second: FloatArray) -> bool:
    """Whether two rectangular footprints (4, 2) are apart or just touching: the separating-axis test."""
    edges = np.array([first[1] - first[0], first[3] - first[0], second[1] - second[0], second[3] - second[0]])
    axes = edges / np.sqrt((edges**2).sum(axis=1, keepdims=True))
    a, b = first @ axes.T, second @ axes.T
    return bool(np.any((a.max(axis=0) <= b.min(axis=0) + 1e-6) | (b.max(axis=0) <= a.min(axis=0) + 1e-6)))


def sample_camera(config: SceneConfig, rng: np.random.Generator) -> Camera:
    """A pose a phone or webcam might take: 10-60 die edges (16-95 cm) away, field of view at most 80 degrees
    (a narrower one stands for a crop of a larger photo), die size drawn log-uniformly from the range."""
    low, high = config.die_size_px
    # Keep clear of the range's ends, so that the dice's own size spread still lands inside it.
    if high > low * 1.12:
        low, high = low * 1.05, high / 1.05
    die_px = math.exp(rng.uniform(math.log(low), math.log(high)))
    widest_focal = (max(config.width, config.height) / 2.0) / math.tan(math.radians(40.0))
    distance = max(math.exp(rng.uniform(math.log(10.0), math.log(60.0))), widest_focal / die_px)
    return look_at_table(
        width=config.width,
        height=config.height,
        focal=die_px * distance,
        tilt_deg=rng.uniform(0.0, config.max_tilt_deg),
        azimuth_deg=rng.uniform(0, 360),
        roll_deg=rng.uniform(0, 360),
        distance=distance + 1.0,
        principal_offset=tuple(rng.normal(0, 0.02, 2) * np.array([config.width, config.height])),
    )


def _pick(options: tuple[str, ...], rng: np.random.Generator) -> str:
    """One of `options`, uniformly (cheaper than Generator.choice on a tuple of strings)."""
    return options[int(rng.integers(len(options)))]


MIN_PIP_LIGHTNESS_GAP = 20.0
"""Least difference in CIE lightness (0-100) between pips and body. Dice are made to be read: a drawn pip
colour about as light as the body (gold on yellow, dark on black, red on red) is no die anyone makes or can
read, so `readable_pip` replaces it."""
_PLAIN_PIPS = ((0.92, 0.92, 0.92), (0.08, 0.08, 0.08))
"""White and black: the pips a die of any body colour can carry."""


def lightness(bgr: tuple[float, float, float]) -> float:
    """CIE L* (0-100) of a BGR colour with channels in 0..1."""
    return float(cv2.cvtColor(np.array([[bgr]], np.float32), cv2.COLOR_BGR2Lab)[0, 0, 0])


def readable_pip(
    pip: tuple[float, float, float], body: tuple[float, float, float]
) -> tuple[float, float, float]:
    """`pip`, unless it is too close to the body in lightness: then white or black pips, whichever stands
    out more. Draws nothing random, so scenes whose pips already stand out render exactly as before."""
    body_lightness = lightness(body)
    if abs(lightness(pip) - body_lightness) >= MIN_PIP_LIGHTNESS_GAP:
        return pip
    return max(_PLAIN_PIPS, key=lambda plain: abs(lightness(plain) - body_lightness))


def sample_die_look(color: str, config: SceneConfig, rng: np.random.Generator) -> tuple[DieLook, str]:
    """A die's appearance and its label colour."""
    translucent = rng.random() < config.translucent_probability
    label = color
    if rng.random() < config.marbled_probability:
        label = OTHER_COLOR
        body = PALETTES[_pick(DIE_COLORS, rng)].sample_bgr(rng, translucent=False)
        marble: tuple[float, float, float] | None = PALETTES[_pick(DIE_COLORS, rng)].sample_bgr(
            rng, translucent=False
        )
        translucent = False
        light = False
    else:
        palette = PALETTES[color]
        body = palette.sample_bgr(rng, translucent=translucent)
        marble = None
        light = palette.light
    if rng.random() < config.colored_pips_probability:
        pip_kind = _pick(("gold", "red", "silver"), rng)
    elif light or rng.random() < config.dark_pips_probability:
        pip_kind = "dark"
    else:
        pip_kind = "white"
    opacity = rng.uniform(0.35, 0.75) if translucent else 1.0
    # The light a translucent body passes is its own colour, paled and dimmed alike in every channel so it
    # keeps the body's hue. Three shares are drawn and one used, which keeps every later draw where it was.
    tint = (0.0, 0.0, 0.0)
    if translucent:
        peak = max(max(body), 1e-3)
        clarity = float(rng.uniform(0.5, 0.9, 3)[0])
        blue, green, red = (clarity * (0.25 + 0.75 * c / peak) for c in body)
        tint = (blue, green, red)
    look = DieLook(
        body=body,
        pip=readable_pip(PIP_COLORS[pip_kind].sample_bgr(rng), body),
        opacity=opacity,
        tint=tint,
        # Corner, pip size and spread come in steps so that the cached masks get reused.
        corner_radius=0.05 + 0.03 * int(rng.integers(8)),
        pip_radius=0.075 + 0.01 * int(rng.integers(5)),
        pip_spread=0.22 + 0.02 * int(rng.integers(4)),
        bevel=rng.uniform(-0.2, 0.45),
        marble=marble,
        rim=rng.uniform(0.05, 0.4) if rng.random() < 0.6 else 0.0,
    )
    # Drawn only when asked for, so that scenes rendered without big 1s keep their random stream.
    if config.big_one_probability > 0 and rng.random() < config.big_one_probability:
        look = replace(look, one_pip_scale=0.25 * int(rng.integers(6, 11)), ringed_one=rng.random() < 0.5)
    return look, label


def _distractor(rng: np.random.Generator, x: float, y: float, yaw: float) -> tuple[Box, DieLook]:
    """A pipless cube, a flat square token or a disc: like a die from afar, and must not be taken for one."""
    rotation = die_rotation(1, yaw)
    kind = rng.random()
    corner_radius = rng.uniform(0.0, 0.2)
    if kind < 0.45:
        size = rng.uniform(0.5, 1.3)
        half = np.full(3, size / 2)
    elif kind < 0.8:
        half = np.array([rng.uniform(0.25, 0.9), rng.uniform(0.25, 0.9), rng.uniform(0.04, 0.2)])
    else:
        radius = rng.uniform(0.3, 0.8)
        half = np.array([radius, radius, rng.uniform(0.04, 0.15)])
        corner_radius = 0.5
    box = Box(np.array([x, y, half[2]]), half, rotation)
    body = hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 1), rng.uniform(0.15, 1))
    look = DieLook(
        body=body,
        pip=body,
        opacity=1.0,
        tint=(0.0, 0.0, 0.0),
        corner_radius=corner_radius,
        pip_radius=0.1,
        pip_spread=0.25,
        bevel=rng.uniform(-0.1, 0.3),
        pips=False,
    )
    return box, look


def fits(
    camera: Camera,
    box: Box,
    placed: list[Placed],
    top_edge_px: tuple[float, float] | None = None,
    *,
    whole_in_view: bool = True,
) -> bool:
    """Whether `box` stands clear of every `placed` object, in view (wholly, or else the centre of its top
    face), with its top face's mean edge within `top_edge_px` when given."""
    for other in placed:
        reach = box.radius + other.box.radius
        dx, dy = box.center[0] - other.box.center[0], box.center[1] - other.box.center[1]
        if dx * dx + dy * dy < reach * reach and not separated(box.footprint, other.box.footprint):
            return False
    corners = camera.project(box.all_face_corners.reshape(-1, 3))
    quad = corners[4 * box.up_face : 4 * box.up_face + 4]
    in_view = corners if whole_in_view else quad.mean(axis=0, keepdims=True)
    if in_view.min() < 1 or in_view[:, 0].max() > camera.width - 2 or in_view[:, 1].max() > camera.height - 2:
        return False
    if top_edge_px is None:
        return True
    edge = float(np.sqrt(((quad[[1, 2, 3, 0]] - quad) ** 2).sum(axis=1)).mean())
    return top_edge_px[0] <= edge <= top_edge_px[1]


def place_dice(config: SceneConfig, camera: Camera, rng: np.random.Generator) -> list[Placed]:
    """Stand dice on the table, fully in view, sized within `die_size_px`, some touching, none overlapping."""
    placed: list[Placed] = []
    supporting: set[int] = set()
    mixed = rng.random() < config.mixed_sizes_probability
    typical_px = camera.focal / float(np.linalg.norm(camera.center))
    count = int(rng.integers(config.dice_count[0], config.dice_count[1] + 1))
    for _ in range(count):
        color = _pick(config.colors, rng)
        value = int(rng.integers(1, 7))
        look, label = sample_die_look(color, config, rng)
        cut = rng.random() < config.edge_dice_probability
        for _attempt in range(40):
            size = rng.uniform(0.78, 1.25) if mixed else rng.uniform(0.97, 1.03)
            free_tops = [i for i, p in enumerate(placed) if p.level < 2 and i not in supporting]
            if free_tops and rng.random() < config.stack_probability:
                below = free_tops[int(rng.integers(len(free_tops)))]
                stacked = _stack_on(placed[below], value, size, rng)
                others = placed[:below] + placed[below + 1 :]
                if fits(camera, stacked, others, config.die_size_px, whole_in_view=not cut):
                    placed.append(Placed(stacked, look, value, label, placed[below].level + 1))
                    supporting.add(below)
                    break
                continue
            if placed and rng.random() < config.cluster_probability:
                anchor = placed[int(rng.integers(len(placed)))].box
                anchor_yaw = math.atan2(anchor.rotation[1, 0], anchor.rotation[0, 0])
                side = anchor_yaw + int(rng.integers(4)) * math.pi / 2
                reach = anchor.half_extents[0] + size / 2 + rng.uniform(0.0, 0.06)
                slide = rng.uniform(-0.6, 0.6) * anchor.half_extents[0] * 2
                x = anchor.center[0] + reach * math.cos(side) - slide * math.sin(side)
                y = anchor.center[1] + reach * math.sin(side) + slide * math.cos(side)
                yaw = side + rng.normal(0, 0.08)
            else:
                margin = (
                    0.0 if cut else min(typical_px * size * 0.8, config.width / 2 - 1, config.height / 2 - 1)
                )
                pixel = rng.uniform([margin, margin], [config.width - margin, config.height - margin])[None]
                x, y = camera.backproject(pixel, size / 2)[0]
                yaw = rng.uniform(0, 2 * math.pi)
            box = die_box(x, y, size, die_rotation(value, yaw))
            if fits(camera, box, placed, config.die_size_px, whole_in_view=not cut):
                placed.append(Placed(box, look, value, label))
                break
    return placed


def _stack_on(below: Placed, value: int, size: float, rng: np.random.Generator) -> Box:
    """A die lying on `below`'s top, a little off-centre and askew, never wider than the die it rests on."""
    support = below.box
    size = min(size, support.half_extents[0] * 2.05)
    yaw = math.atan2(support.rotation[1, 0], support.rotation[0, 0]) + rng.normal(0, 0.15)
    x, y = support.center[:2] + rng.uniform(-0.12, 0.12, 2) * support.half_extents[0] * 2
    return die_box(x, y, size, die_rotation(value, yaw), base=support.center[2] + support.half_extents[2])


def place_distractors(
    config: SceneConfig, camera: Camera, placed: list[Placed], rng: np.random.Generator
) -> list[Placed]:
    """Stand pipless cubes and tokens in the free places left between the `placed` dice."""
    distractors: list[Placed] = []
    for _ in range(int(rng.integers(config.distractor_count[0], config.distractor_count[1] + 1))):
        for _attempt in range(20):
            pixel = np.array([[rng.uniform(0, config.width), rng.uniform(0, config.height)]])
            x, y = camera.backproject(pixel, 0.3)[0]
            box, look = _distractor(rng, x, y, rng.uniform(0, 2 * math.pi))
            if fits(camera, box, placed + distractors):
                distractors.append(Placed(box, look, None, ""))
                break
    return distractors


def paint_table(config: SceneConfig, camera: Camera, rng: np.random.Generator) -> Image:
    """The table surface as the camera sees it."""
    w, h = config.width, config.height
    corners = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
    ground = camera.backproject(corners)
    x0, y0 = ground.min(axis=0) - 0.5
    x1, y1 = ground.max(axis=0) + 0.5
    kind = _pick(config.backgrounds, rng)
    px_per_unit = min(max(w, h) / max(x1 - x0, y1 - y0), 64.0) * PAINT_SCALE.get(kind, 0.5)
    canvas_w = max(math.ceil((x1 - x0) * px_per_unit), 8)
    canvas_h = max(math.ceil((y1 - y0) * px_per_unit), 8)
    canvas = paint_surface(kind, canvas_h, canvas_w, px_per_unit, rng)
    canvas_to_world = np.array([[1 / px_per_unit, 0, x0], [0, -1 / px_per_unit, y1], [0, 0, 1]])
    homography = camera.plane_homography() @ canvas_to_world
    return np.asarray(
        cv2.warpPerspective(canvas, homography, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    )


_CIRCLE = np.array([[math.cos(a), math.sin(a)] for a in np.linspace(0, 2 * math.pi, 16, endpoint=False)])


def _silhouette_points(placed: Placed) -> FloatArray:
    """Points whose hull is the object: a box's corners, or two rings for a disc (fully rounded corners)."""
    box = placed.box
    if placed.look.corner_radius < 0.5:
        return box.corners
    ring = box.center[:2] + _CIRCLE * box.half_extents[0]
    low, high = box.center[2] - box.half_extents[2], box.center[2] + box.half_extents[2]
    return np.vstack((np.column_stack((ring, np.full(16, low))), np.column_stack((ring, np.full(16, high)))))


def lay_print(
    image: Image,
    camera: Camera,
    print_to_world: FloatArray,
    print_width: float,
    printed_at: Callable[[float], Image],
    lighting: Lighting,
    rng: np.random.Generator,
) -> None:
    """A printed sheet laid flat on the table, lit like the table and a little off-white.

    `print_to_world` maps the print's units (x, y, 1) to the table's (x, y, 1), `print_width` is the sheet's
    width in those units, and `printed_at(px_per_unit)` draws it (BGR in 0..1) at a resolution chosen so it
    is sampled a little finer than the photo shows it.
    """
    ends = print_to_world @ np.array([[0.0, print_width], [0.0, 0.0], [1.0, 1.0]])
    seen = camera.project(np.column_stack((ends[:2].T, np.zeros(2))))
    span = float(np.linalg.norm(seen[1] - seen[0]))
    px_per_unit = float(np.clip(round(span / print_width * 1.5 * 2) / 2, 1.0, 8.0))
    printed = printed_at(px_per_unit)
    shade = lighting.ambient + (1 - lighting.ambient) * max(float(lighting.direction[2]), 0.0)
    paper = rng.uniform(0.86, 1.0, 3).astype(np.float32) * np.float32(shade)
    texture_to_print = np.array(
        [[1 / px_per_unit, 0, 0.5 / px_per_unit], [0, 1 / px_per_unit, 0.5 / px_per_unit], [0, 0, 1]]
    )
    cv2.warpPerspective(
        printed * paper,
        camera.plane_homography() @ print_to_world @ texture_to_print,
        (image.shape[1], image.shape[0]),
        dst=image,
        flags=cv2.INTER_AREA if px_per_unit > 2 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )


def cast_shadows(
    image: Image, camera: Camera, objects: list[Placed], light: FloatArray, rng: np.random.Generator
) -> None:
    """Darken the table under and beside each object: a soft cast shadow and a tight contact shadow."""
    h, w = image.shape[:2]
    scale = 0.5
    small = (max(int(w * scale), 1), max(int(h * scale), 1))
    cast = np.zeros((small[1], small[0]), np.float32)
    contact = np.zeros_like(cast)
    along = -light[:2] / max(light[2], 0.2)
    ordered = sorted(objects, key=lambda placed: placed.look.opacity)
    for placed in ordered:
        corners = _silhouette_points(placed)
        ground = corners.copy()
        ground[:, :2] += corners[:, 2:3] * along
        ground[:, 2] = 0
        hull = cv2.convexHull((camera.project(np.vstack((corners, ground))) * scale * 16).astype(np.int32))
        cv2.fillConvexPoly(cast, hull, 1.0 - 0.55 * (1 - placed.look.opacity), cv2.LINE_AA, 4)
        base = corners[corners[:, 2] < corners[:, 2].min() + 1e-6].copy()
        base[:, :2] = placed.box.center[:2] + (base[:, :2] - placed.box.center[:2]) * 1.08
        hull = cv2.convexHull((camera.project(base) * scale * 16).astype(np.int32))
        cv2.fillConvexPoly(contact, hull, 1.0, cv2.LINE_AA, 4)
    die_px = camera.focal / max(float(np.linalg.norm(camera.center)), 1.0) * scale
    cast_soft = cv2.GaussianBlur(cast, (0, 0), max(die_px * rng.uniform(0.05, 0.35), 0.5))
    contact_soft = cv2.GaussianBlur(contact, (0, 0), max(die_px * 0.06, 0.5))
    strength = rng.uniform(0.2, 0.6)
    factor = (1 - strength * cast_soft) * (1 - 0.35 * contact_soft)
    # Only the shadowed part of the picture needs scaling: enlarge and apply the factor over its box.
    rows, cols = np.nonzero(factor < 0.999)
    if rows.size == 0:
        return
    x0, y0 = max(int(cols.min() / scale) - 2, 0), max(int(rows.min() / scale) - 2, 0)
    x1, y1 = min(int((cols.max() + 1) / scale) + 2, w), min(int((rows.max() + 1) / scale) + 2, h)
    to_small = np.array([[scale, 0, (scale - 1) / 2 + x0 * scale], [0, scale, (scale - 1) / 2 + y0 * scale]])
    enlarged = cv2.warpAffine(
        factor, to_small, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderValue=1.0
    )
    image[y0:y1, x0:x1] *= spread3(np.asarray(enlarged, np.float32))


@cache
def _noise_bank() -> Image:
    """Fixed unit Gaussian noise, cropped at random offsets: far cheaper than fresh noise per image."""
    return np.random.default_rng(20261129).standard_normal((1024, 1024, 3), dtype=np.float32)


def _sensor_noise(height: int, width: int, rng: np.random.Generator) -> Image:
    bank = _noise_bank()
    reps = (math.ceil((height + 64) / bank.shape[0]), math.ceil((width + 64) / bank.shape[1]), 1)
    if reps != (1, 1, 1):
        bank = np.tile(bank, reps)
    y, x = int(rng.integers(bank.shape[0] - height + 1)), int(rng.integers(bank.shape[1] - width + 1))
    return bank[y : y + height, x : x + width]


def motion_blur(image: Pixels, length: int, angle_deg: float) -> Pixels:
    """`image` smeared along a line `length` px long at `angle_deg`: the camera moved while it took it."""
    kernel = np.zeros((length, length), np.float32)
    cv2.line(kernel, (0, length // 2), (length - 1, length // 2), 1.0, 1)
    rotation = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle_deg, 1.0)
    turned = np.asarray(cv2.warpAffine(kernel, rotation, (length, length)), np.float32)
    turned /= max(float(turned.sum()), 1e-6)
    return cast(Pixels, np.asarray(cv2.filter2D(image, -1, turned), image.dtype))


def veiled(image: Image, share: float, veil: float | NDArray[np.float32]) -> Image:
    """`image` with light of level `veil` (grey, or per channel) laid over it at `share`: a hazy lens, a
    window's flare, a webcam's flat picture. Colours fade and blacks lift, which no white balance gain
    undoes."""
    return cast(Image, (image * np.float32(1 - share) + np.float32(share) * veil).astype(np.float32))


def photograph(image: Image, config: SceneConfig, rng: np.random.Generator) -> NDArray[np.uint8]:
    """Uneven light, white balance and exposure, blur, noise and JPEG: the camera's part."""
    h, w = image.shape[:2]
    coarse = 1.0 + rng.uniform(0.05, 0.45) * (rng.random((3, 3)).astype(np.float32) - 0.5)
    field = cv2.resize(coarse, (32, 32), interpolation=cv2.INTER_CUBIC)
    ys, xs = np.mgrid[-1:1:32j, -1:1:32j].astype(np.float32)
    field *= 1 - rng.uniform(0, 0.25) * (xs**2 + ys**2) / 2
    gains = rng.uniform(0.92, 1.08, 3).astype(np.float32) * np.float32(rng.uniform(0.75, 1.2) * 255.0)
    image *= cv2.resize(field[..., None] * gains, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < config.motion_blur_probability:
        length = max(3, int(rng.uniform(0.004, 0.015) * max(w, h)))
        image = motion_blur(image, length, rng.uniform(0, 180))
    elif rng.random() < 0.3:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.1)), np.float32)
    sigma = rng.uniform(*config.noise_sigma)
    if sigma > 0:
        image = np.asarray(cv2.scaleAdd(_sensor_noise(h, w, rng), float(sigma), image), np.float32)
    np.add(image, 0.5, out=image)
    np.clip(image, 0, 255, out=image)
    result: NDArray[np.uint8] = image.astype(np.uint8)
    if rng.random() < config.jpeg_probability:
        quality = int(rng.integers(config.jpeg_quality[0], config.jpeg_quality[1] + 1))
        ok, encoded = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            result = np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), np.uint8)
    return result


@dataclass(frozen=True)
class Lighting:
    """The main light's direction (a unit vector towards it) and the share of ambient light."""

    direction: FloatArray
    ambient: float


def sample_lighting(rng: np.random.Generator) -> Lighting:
    elevation = math.radians(rng.uniform(35, 85))
    azimuth = rng.uniform(0, 2 * math.pi)
    direction = np.array(
        [
            math.cos(elevation) * math.cos(azimuth),
            math.cos(elevation) * math.sin(azimuth),
            math.sin(elevation),
        ]
    )
    return Lighting(direction, rng.uniform(0.45, 0.75))


def _share_in_frame(quad: FloatArray, width: int, height: int) -> float:
    """How much of the convex `quad`'s area lies inside the image."""
    inside = quad.min() >= 0 and quad[:, 0].max() <= width - 1 and quad[:, 1].max() <= height - 1
    if inside:
        return 1.0
    frame = np.array([[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]])
    clipped, _ = cv2.intersectConvexConvex(quad.astype(np.float32), frame.astype(np.float32))
    return max(float(clipped) / max(float(cv2.contourArea(quad.astype(np.float32))), 1e-6), 1e-6)


def draw_objects(
    image: Image,
    camera: Camera,
    objects: list[Placed],
    lighting: Lighting,
    looks: SceneConfig,
    rng: np.random.Generator,
) -> list[RenderedDie | None]:
    """Draw `objects` far to near and return each one's label: a RenderedDie for a die, None otherwise.
    `looks` says how often a die's top face shows glare, and of what shape."""
    owner = np.full(image.shape[:2], -1, np.int32)
    glaring = rng.random() < looks.glare_probability
    order = sorted(range(len(objects)), key=lambda i: -float(camera.depth(objects[i].box.center[None])[0]))
    top_faces: dict[int, tuple[FloatArray, int]] = {}
    glares: dict[int, float] = {}
    for index in order:
        placed = objects[index]
        glare = None
        if glaring and placed.value is not None and rng.random() < 0.7:
            glare = Glare(
                rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8), rng.uniform(0.08, 0.3), rng.uniform(0.3, 1.2)
            )
            # Streaks draw from the generator only where asked for: a scene without them keeps its pixels.
            if looks.glare_streak_probability > 0 and rng.random() < looks.glare_streak_probability:
                glare = replace(
                    glare,
                    radius=rng.uniform(0.025, 0.07),
                    angle=rng.uniform(0, math.pi),
                    stretch=rng.uniform(5.0, 15.0),
                )
        glares[index] = glare.strength if glare is not None else 0.0
        values = CANONICAL_VALUES if placed.value is not None else None
        top_faces[index] = draw_box(
            image,
            owner,
            camera,
            placed.box,
            placed.look,
            values,
            lighting.direction,
            lighting.ambient,
            rng,
            8 * (index + 1),
            glare,
        )
    labels: list[RenderedDie | None] = []
    for index, placed in enumerate(objects):
        quad, area = top_faces[index]
        if placed.value is None:
            labels.append(None)
            continue
        hull = cv2.convexHull(camera.project(placed.box.corners).astype(np.float32))
        outline = np.asarray(hull, np.float32).reshape(-1, 2)
        top_center = placed.box.center + np.array([0, 0, placed.box.half_extents[2]])
        center = camera.project(top_center[None])[0]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int).clip(0)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        seen = int(np.count_nonzero(owner[y0:y1, x0:x1] == 8 * (index + 1) + placed.box.up_face))
        full_area = area / _share_in_frame(quad, image.shape[1], image.shape[0])
        labels.append(
            RenderedDie(
                value=placed.value,
                color=placed.color,
                top_face=quad.astype(np.float32),
                outline=outline,
                box=(
                    float(outline[:, 0].min()),
                    float(outline[:, 1].min()),
                    float(outline[:, 0].max()),
                    float(outline[:, 1].max()),
                ),
                center=(float(center[0]), float(center[1])),
                visible_fraction=min(seen / full_area, 1.0) if area else 0.0,
                level=placed.level,
                glare=glares[index],
            )
        )
    return labels


def render_scene(config: SceneConfig, rng: np.random.Generator) -> Scene:
    """Render one labelled photo of dice on a table; deterministic for a given state of `rng`.

    Dice that cannot be placed (no room left, or no pose giving a size within `die_size_px`) are left out,
    so a scene may hold fewer dice than `dice_count` asks for.
    """
    table = stage_table(config, rng)
    labels = draw_objects(
        table.image, table.camera, table.dice + table.distractors, table.lighting, config, rng
    )
    return Scene(image=photograph(table.image, config, rng), dice=tuple(label for label in labels if label))


@dataclass(frozen=True)
class StagedTable:
    """A table before anything stands drawn on it: the camera, where the dice and distractors stand, the
    light, and the painted table with their shadows already cast (`image`, drawn on in place)."""

    camera: Camera
    dice: list[Placed]
    distractors: list[Placed]
    lighting: Lighting
    image: Image


def stage_table(config: SceneConfig, rng: np.random.Generator) -> StagedTable:
    """Everything of `render_scene` but drawing the objects and photographing: shared by the scenes whose
    dice are drawn otherwise (`vision.synth.real_dice`)."""
    camera = sample_camera(config, rng)
    dice = place_dice(config, camera, rng)
    distractors = place_distractors(config, camera, dice, rng)
    lighting = sample_lighting(rng)
    image = paint_table(config, camera, rng)
    cast_shadows(image, camera, dice + distractors, lighting.direction, rng)
    return StagedTable(camera, dice, distractors, lighting, image)
