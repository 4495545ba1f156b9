"""Synthetic photos of Sagrada windows: pattern cards with translucent dice in their spaces, exactly labelled.

A window card is painted like the printed ones (a dark frame, 4x5 spaces: stained-glass colours, grey value
spaces showing a die face, light plain spaces, the pattern's name and difficulty dots below) and laid on the
table; dice stand in some of its spaces. The camera, light, table and photo effects are the dice scene's
(`vision.synth.scene`), so a window can lie at any rotation and perspective, on the table or on a printed
window mat (`vision.sagrada.mat`). `paste_real_dice` fills the spaces of a rendered window with dice cut
from real photos, for a test path on real dice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.sagrada.window import (
    ALL_CELLS,
    COLS,
    ROWS,
    Color,
    Die,
    Pattern,
    Restriction,
    Window,
    official_patterns,
)
from vision.colors import COLOR_SETS, HsvRange
from vision.sagrada.lattice import (
    CARD_HEIGHT,
    CARD_THICKNESS,
    CARD_WIDTH,
    FRAME,
    GRID_HEIGHT,
    GRID_WIDTH,
    GROUT,
    NAME_STRIP,
    PITCH,
    SPACE,
    WindowLattice,
)
from vision.sagrada.mat import DIE_EDGE_MM, SEATS, SHEET_MM, draw_mat
from vision.synth.camera import Camera, look_at_table
from vision.synth.dice import PIP_LAYOUTS, Box, DieLook, die_rotation, spread3
from vision.synth.real_dice import RealDieCrop, lay_crop
from vision.synth.scene import (
    Lighting,
    Placed,
    RenderedDie,
    SceneConfig,
    SceneConfigError,
    cast_shadows,
    draw_objects,
    fits,
    lay_print,
    paint_table,
    photograph,
    sample_die_look,
    sample_lighting,
)
from vision.synth.textures import solid_canvas

FloatArray = NDArray[np.float64]
Image = NDArray[np.float32]

PRINTED_COLORS: dict[Color, HsvRange] = {
    Color.RED: HsvRange((-5, 4), (170, 240), (150, 225)),
    Color.YELLOW: HsvRange((20, 28), (170, 245), (200, 250)),
    Color.GREEN: HsvRange((50, 72), (150, 230), (110, 190)),
    Color.BLUE: HsvRange((100, 115), (150, 235), (130, 210)),
    Color.PURPLE: HsvRange((130, 150), (110, 200), (100, 175)),
}
"""The stained-glass colours of the printed colour spaces."""


@dataclass(frozen=True)
class SagradaConfig:
    """What a rendered window photo may contain; `scene` supplies the image size, table, camera tilt, die
    looks and photo effects (its dice and distractor counts are not used)."""

    scene: SceneConfig = field(
        default_factory=lambda: SceneConfig(colors=COLOR_SETS["sagrada"], translucent_probability=0.9)
    )
    windows: tuple[int, int] = (1, 1)
    window_px: tuple[float, float] = (160.0, 400.0)
    """Width of the grid of spaces in the image, in pixels, for the first window; the whole card, turned any
    way, must fit in the image, so keep the top below about 0.65 of the image's shorter side."""
    fill: tuple[float, float] = (0.0, 1.0)
    """Share of the spaces holding a die."""
    legal_probability: float = 0.9
    """Per die: it meets its space's colour or value restriction."""
    loose_dice: tuple[int, int] = (0, 3)
    """Dice lying on the table beside the windows (the draft pool), labelled apart from the windows."""
    mat_probability: float = 0.0
    """Per window: its card lies on a printed window mat (`vision.sagrada.mat`, the seats in order), put
    in the outline by hand (a few millimetres and a degree or two off), the whole sheet in view."""

    def __post_init__(self) -> None:
        for name in ("windows", "window_px", "fill", "loose_dice"):
            low, high = getattr(self, name)
            if low > high or low < 0:
                raise SceneConfigError(
                    f"{name} must be a range (low, high) with 0 <= low <= high, got {low, high}"
                )
        if self.windows[0] < 1 or self.windows[1] > 24:
            raise SceneConfigError(
                f"windows must ask for 1 to 24 windows (the official patterns), got {self.windows}"
            )
        if self.fill[1] > 1:
            raise SceneConfigError(f"fill must be within 0-1, got {self.fill}")
        for name in ("legal_probability", "mat_probability"):
            if not 0 <= getattr(self, name) <= 1:
                raise SceneConfigError(f"{name} must be within 0-1, got {getattr(self, name)}")
        unknown = [c for c in self.scene.colors if c not in COLOR_SETS["sagrada"]]
        if unknown:
            raise SceneConfigError(
                f"scene.colors must be Sagrada colours {COLOR_SETS['sagrada']}, got {unknown}"
            )


@dataclass(frozen=True)
class RenderedWindow:
    """A window's label. `corners` are the outer corners of the 4x5 grid of spaces in the image, in the
    order r1c1 (top-left as printed), r1c5, r4c5, r4c1; `cells` the image centres of the 20 spaces,
    row-major; `dice` each space's die label (None where empty), in the same order as `window`."""

    pattern: str
    corners: NDArray[np.float32]
    card_corners: NDArray[np.float32]
    cells: NDArray[np.float32]
    window: Window
    dice: tuple[RenderedDie | None, ...]
    mat_seat: int | None = None
    """The seat of the printed mat the card lies on, None when it lies on the table."""


@dataclass(frozen=True)
class WindowScene:
    image: NDArray[np.uint8]
    windows: tuple[RenderedWindow, ...]
    loose_dice: tuple[RenderedDie, ...]


def phone_photo_config() -> SagradaConfig:
    """Two to four windows in a 12 MP phone photo (4032x3024), the first grid 600-1000 px wide: a table of
    players' windows photographed from a seat, the later windows anywhere in view."""
    base = SagradaConfig(windows=(2, 4), window_px=(600.0, 1000.0))
    return replace(base, scene=replace(base.scene, width=4032, height=3024))


def on_mats(config: SagradaConfig) -> SagradaConfig:
    """`config` with every card on a printed window mat, photographed by a steady (fixed) camera."""
    return replace(config, mat_probability=1.0, scene=replace(config.scene, motion_blur_probability=0.0))


def mat_photo_config() -> SagradaConfig:
    """A card on a printed window mat in a 1280x960 photo from a steady camera, the grid 190-260 px wide: a
    fixed overhead camera watching a seat."""
    base = on_mats(SagradaConfig(window_px=(190.0, 260.0)))
    return replace(base, scene=replace(base.scene, width=1280, height=960))


def random_window(
    pattern: Pattern, fill: float, legal_probability: float, rng: np.random.Generator
) -> Window:
    """Dice in about `fill` of the spaces, each meeting its space's restriction with `legal_probability`.

    Only the printed restrictions are honoured, not the neighbour rules: recognition must read illegal
    windows as they are.
    """
    colors = list(Color)
    dice: list[Die | None] = []
    for restriction in pattern.grid:
        if rng.random() >= fill:
            dice.append(None)
            continue
        color = colors[int(rng.integers(len(colors)))]
        value = int(rng.integers(1, 7))
        if rng.random() < legal_probability:
            color = restriction.color or color
            value = restriction.value or value
        dice.append(Die(color, value))
    return Window(tuple(dice))


def _print_space(
    card: NDArray[np.uint8], restriction: Restriction, x: int, y: int, side: int, rng: np.random.Generator
) -> None:
    """Paint one space of the card with its top-left pixel at (x, y)."""
    space = card[y : y + side, x : x + side]
    if restriction.color is not None:
        colour = np.asarray(PRINTED_COLORS[restriction.color].sample_bgr(rng), np.float32)
        # Stained glass: a soft diagonal sheen and a little mottling.
        ramp = np.linspace(0.85, 1.1, side, dtype=np.float32)
        sheen = (ramp[None, :] + ramp[:, None]) / 2
        mottle = cv2.resize(rng.uniform(0.93, 1.07, (4, 4)).astype(np.float32), (side, side))
        space[:] = np.clip(colour * (sheen * mottle)[..., None] * 255, 0, 255).astype(np.uint8)
    elif restriction.value is not None:
        grey = rng.uniform(0.42, 0.62)
        space[:] = int(grey * 255)
        pip = int(rng.uniform(0.82, 0.95) * 255)
        radius = max(int(side * 0.1 * 16), 8)
        for col, row in PIP_LAYOUTS[restriction.value]:
            cx = (0.5 + col * 0.27) * side
            cy = (0.5 + row * 0.27) * side
            cv2.circle(space, (int(cx * 16), int(cy * 16)), radius, (pip, pip, pip), -1, cv2.LINE_AA, 4)
    else:
        light = int(rng.uniform(0.8, 0.95) * 255)
        space[:] = (light, light, light - int(rng.uniform(0, 15)))


def paint_card(pattern: Pattern, px_per_unit: float, rng: np.random.Generator) -> NDArray[np.uint8]:
    """The printed window card seen from straight above, 8-bit BGR, row 1 at the top."""
    width, height = round(CARD_WIDTH * px_per_unit), round(CARD_HEIGHT * px_per_unit)
    frame = rng.uniform(0.04, 0.16)
    frame_colour = np.round(np.array([frame, frame, frame * rng.uniform(0.9, 1.2)]) * 255).clip(0, 255)
    card = solid_canvas(height, width, frame_colour, np.uint8)
    side = round(SPACE * px_per_unit)
    for cell in ALL_CELLS:
        x = round((FRAME + GROUT + cell.col * PITCH) * px_per_unit)
        y = round((FRAME + GROUT + cell.row * PITCH) * px_per_unit)
        _print_space(card, pattern.restriction(cell), x, y, side, rng)
    text_colour = (235, 235, 235)
    baseline = round((CARD_HEIGHT - FRAME - NAME_STRIP * 0.25) * px_per_unit)
    scale = NAME_STRIP * px_per_unit / 50.0
    cv2.putText(
        card,
        pattern.name,
        (round((FRAME + GROUT) * px_per_unit), baseline),
        cv2.FONT_HERSHEY_TRIPLEX,
        scale,
        text_colour,
        max(1, round(scale * 1.5)),
        cv2.LINE_AA,
    )
    dot_radius = NAME_STRIP * 0.13 * px_per_unit
    for index in range(pattern.difficulty):
        cx = (CARD_WIDTH - FRAME - GROUT - 0.2 - index * 0.34) * px_per_unit
        cy = (CARD_HEIGHT - FRAME - NAME_STRIP * 0.45) * px_per_unit
        cv2.circle(card, (int(cx * 16), int(cy * 16)), int(dot_radius * 16), text_colour, -1, cv2.LINE_AA, 4)
    return card


@dataclass(frozen=True)
class _Mat:
    """A printed window mat on the table: its seat, the world point under the sheet's centre, its yaw."""

    seat: int
    center: tuple[float, float]
    yaw: float

    def to_world(self) -> FloatArray:
        """Mat millimetres (x, y, 1) -> world (x, y, 1) on the table: y runs down the sheet as printed, up
        the world's y, as a card's rows do."""
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        to_local = np.array(
            [
                [1 / DIE_EDGE_MM, 0, -SHEET_MM[0] / 2 / DIE_EDGE_MM],
                [0, -1 / DIE_EDGE_MM, SHEET_MM[1] / 2 / DIE_EDGE_MM],
                [0, 0, 1],
            ]
        )
        placed = np.array([[c, -s, self.center[0]], [s, c, self.center[1]], [0, 0, 1]])
        return np.asarray(placed @ to_local, np.float64)

    @property
    def corners(self) -> FloatArray:
        """The sheet's corners in the world, on the table."""
        width, height = SHEET_MM
        mm = np.array([[0, 0, 1], [width, 0, 1], [width, height, 1], [0, height, 1]], np.float64)
        world = mm @ self.to_world().T
        return np.column_stack((world[:, :2], np.zeros(4)))


@dataclass(frozen=True)
class _Card:
    pattern: Pattern
    window: Window
    center: tuple[float, float]
    yaw: float
    mat: _Mat | None = None

    def to_world(self, local: FloatArray, height: float) -> FloatArray:
        """World points of card-local (x right, y up as printed) points (N, 2) at `height`."""
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        x = self.center[0] + local[:, 0] * c - local[:, 1] * s
        y = self.center[1] + local[:, 0] * s + local[:, 1] * c
        return np.column_stack((x, y, np.full(len(local), height)))

    @property
    def reach(self) -> float:
        """The diagonal of what the card takes on the table (its mat's, when it lies on one), in die edges:
        two cards stand at least the mean of their reaches apart."""
        if self.mat is not None:
            return math.hypot(*SHEET_MM) / DIE_EDGE_MM
        return math.hypot(CARD_WIDTH, CARD_HEIGHT)

    @property
    def box(self) -> Box:
        return Box(
            np.array([self.center[0], self.center[1], CARD_THICKNESS / 2]),
            np.array([CARD_WIDTH / 2, CARD_HEIGHT / 2, CARD_THICKNESS / 2]),
            die_rotation(1, self.yaw),
        )


def _grid_local() -> FloatArray:
    """Card-local corners of the grid of spaces: r1c1, r1c5, r4c5, r4c1."""
    left, top = -CARD_WIDTH / 2 + FRAME, CARD_HEIGHT / 2 - FRAME
    return np.array(
        [
            [left, top],
            [left + GRID_WIDTH, top],
            [left + GRID_WIDTH, top - GRID_HEIGHT],
            [left, top - GRID_HEIGHT],
        ]
    )


def _cell_centers_local() -> FloatArray:
    left, top = -CARD_WIDTH / 2 + FRAME + GROUT + SPACE / 2, CARD_HEIGHT / 2 - FRAME - GROUT - SPACE / 2
    return np.array([[left + cell.col * PITCH, top - cell.row * PITCH] for cell in ALL_CELLS])


_CARD_LOCAL = np.array(
    [
        [-CARD_WIDTH / 2, CARD_HEIGHT / 2],
        [CARD_WIDTH / 2, CARD_HEIGHT / 2],
        [CARD_WIDTH / 2, -CARD_HEIGHT / 2],
        [-CARD_WIDTH / 2, -CARD_HEIGHT / 2],
    ]
)


def _window_camera(config: SagradaConfig, rng: np.random.Generator) -> Camera:
    scene = config.scene
    grid_px = rng.uniform(*config.window_px)
    unit_px = grid_px / GRID_WIDTH
    widest_focal = (max(scene.width, scene.height) / 2.0) / math.tan(math.radians(40.0))
    # 25-80 cm from a card about 11 cm wide: people step back to get the whole window in the picture.
    distance = max(math.exp(rng.uniform(math.log(15.0), math.log(50.0))), widest_focal / unit_px)
    return look_at_table(
        width=scene.width,
        height=scene.height,
        focal=unit_px * distance,
        tilt_deg=rng.uniform(0.0, scene.max_tilt_deg),
        azimuth_deg=rng.uniform(0, 360),
        roll_deg=rng.uniform(0, 360),
        distance=distance,
    )


def _in_view(camera: Camera, points: FloatArray) -> bool:
    pixels = camera.project(points)
    return bool(
        pixels.min() >= 1
        and pixels[:, 0].max() <= camera.width - 2
        and pixels[:, 1].max() <= camera.height - 2
    )


def _place_cards(
    config: SagradaConfig,
    camera: Camera,
    contents: Sequence[tuple[Pattern, Window]],
    rng: np.random.Generator,
) -> list[_Card]:
    cards: list[_Card] = []
    seats = iter(SEATS)
    for index, (pattern, window) in enumerate(contents):
        # Four mats at most, one a seat; drawn only when asked for, so that scenes rendered without mats
        # keep their random stream.
        seat = None
        if config.mat_probability > 0 and rng.random() < config.mat_probability:
            seat = next(seats, None)
        for _attempt in range(40):
            if index == 0:
                spread = 0.25 * np.array([camera.width, camera.height])
                pixel = np.array([[camera.width / 2, camera.height / 2]]) + rng.uniform(-1, 1, 2) * spread
            else:
                pixel = rng.uniform(0, 1, (1, 2)) * np.array([camera.width, camera.height])
            x, y = camera.backproject(pixel, CARD_THICKNESS)[0]
            card = _Card(pattern, window, (float(x), float(y)), rng.uniform(0, 2 * math.pi))
            if seat is not None:
                card = _laid_on_mat(card, seat, rng)
            clear = all(
                float(np.linalg.norm(np.subtract(card.center, other.center))) > (card.reach + other.reach) / 2
                for other in cards
            )
            in_view = _in_view(camera, card.box.corners) and (
                card.mat is None or _in_view(camera, card.mat.corners)
            )
            if clear and in_view:
                cards.append(card)
                break
    return cards


def _laid_on_mat(card: _Card, seat: int, rng: np.random.Generator) -> _Card:
    """The card put in a mat's outline by hand: the sheet centred on the card's place, the card up to 2 mm
    off centre and turned up to 1.5 degrees."""
    mat = _Mat(seat, card.center, card.yaw)
    offset = rng.uniform(-2.0, 2.0, 2) / DIE_EDGE_MM
    c, s = math.cos(card.yaw), math.sin(card.yaw)
    center = (card.center[0] + c * offset[0] - s * offset[1], card.center[1] + s * offset[0] + c * offset[1])
    return replace(card, center=center, yaw=card.yaw + math.radians(rng.uniform(-1.5, 1.5)), mat=mat)


def _card_look() -> DieLook:
    return DieLook(
        body=(0.06, 0.06, 0.07),
        pip=(0.0, 0.0, 0.0),
        opacity=1.0,
        tint=(0.0, 0.0, 0.0),
        corner_radius=0.02,
        pip_radius=0.1,
        pip_spread=0.25,
        bevel=0.0,
        pips=False,
    )


def _dice_in_card(card: _Card, config: SagradaConfig, rng: np.random.Generator) -> list[tuple[int, Placed]]:
    """The card's dice standing in their spaces, a little off-centre and askew, with their cell index."""
    placed = []
    centers = _cell_centers_local()
    for index, die in enumerate(card.window.dice):
        if die is None:
            continue
        size = rng.uniform(0.88, 1.0)
        slack = (SPACE - size) / 2
        local = centers[index] + rng.uniform(-slack, slack, 2) * 0.8
        x, y, _ = card.to_world(local[None], 0.0)[0]
        yaw = card.yaw + int(rng.integers(4)) * math.pi / 2 + rng.normal(0, 0.06)
        box = Box(
            np.array([x, y, CARD_THICKNESS + size / 2]), np.full(3, size / 2), die_rotation(die.value, yaw)
        )
        look, _ = sample_die_look(die.color.label, replace(config.scene, marbled_probability=0.0), rng)
        placed.append((index, Placed(box, look, die.value, die.color.label)))
    return placed


def _loose_dice(
    config: SagradaConfig, camera: Camera, cards: list[_Card], rng: np.random.Generator
) -> list[Placed]:
    obstacles = [Placed(card.box, _card_look(), None, "") for card in cards]
    loose: list[Placed] = []
    scene = replace(config.scene, marbled_probability=0.0)
    for _ in range(int(rng.integers(config.loose_dice[0], config.loose_dice[1] + 1))):
        color = scene.colors[int(rng.integers(len(scene.colors)))]
        value = int(rng.integers(1, 7))
        look, _ = sample_die_look(color, scene, rng)
        for _attempt in range(30):
            pixel = rng.uniform(0, 1, (1, 2)) * np.array([camera.width, camera.height])
            x, y = camera.backproject(pixel, 0.5)[0]
            box = Box(
                np.array([x, y, 0.5]), np.full(3, 0.5), die_rotation(value, rng.uniform(0, 2 * math.pi))
            )
            if fits(camera, box, obstacles + loose):
                loose.append(Placed(box, look, value, color))
                break
    return loose


def _draw_card(
    image: Image,
    camera: Camera,
    card: _Card,
    lighting: Lighting,
    glare_probability: float,
    rng: np.random.Generator,
) -> None:
    """The card's dark edge as its silhouette, then its printed face warped onto its top, sometimes with
    the soft reflection of a lamp on its glossy print."""
    silhouette = cv2.convexHull((camera.project(card.box.corners) * 16).astype(np.int32))
    edge = 0.05 * lighting.ambient
    cv2.fillConvexPoly(image, silhouette, (edge, edge, edge), cv2.LINE_AA, 4)
    top = camera.project(card.to_world(_CARD_LOCAL, CARD_THICKNESS))
    span = float(np.linalg.norm(top[1] - top[0]))
    px_per_unit = float(np.clip(span / CARD_WIDTH * 1.2, 12.0, 90.0))
    printed = paint_card(card.pattern, px_per_unit, rng)
    shade = lighting.ambient + (1 - lighting.ambient) * max(float(lighting.direction[2]), 0.0)
    rows, cols = printed.shape[:2]
    source = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32) - 0.5
    x0, y0 = np.floor(top.min(axis=0)).astype(int).clip(0)
    x1, y1 = np.ceil(top.max(axis=0)).astype(int) + 1
    region = image[y0:y1, x0:x1]
    homography = cv2.getPerspectiveTransform(source, (top - [x0, y0]).astype(np.float32))
    face = printed.astype(np.float32) * np.float32(shade / 255)
    cv2.warpPerspective(
        face,
        homography,
        region.shape[1::-1],
        dst=region,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )
    if rng.random() < glare_probability * 0.6:
        weights = rng.dirichlet(np.ones(4))
        center = weights @ (top - [x0, y0])
        radius = span * rng.uniform(0.08, 0.35)
        xs = np.arange(region.shape[1], dtype=np.float32)
        ys = np.arange(region.shape[0], dtype=np.float32)
        blob = np.outer(
            np.exp(-(((ys - center[1]) / radius) ** 2)), np.exp(-(((xs - center[0]) / radius) ** 2))
        )
        inside = np.zeros(region.shape[:2], np.float32)
        cv2.fillConvexPoly(inside, np.round((top - [x0, y0]) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        region += spread3((np.float32(rng.uniform(0.15, 0.6)) * blob * inside).astype(np.float32))


@cache
def _printed_mat(seat: int, px_per_mm: float) -> Image:
    return draw_mat(seat, px_per_mm).astype(np.float32) * np.float32(1 / 255)


def render_window_scene(
    config: SagradaConfig,
    rng: np.random.Generator,
    contents: Sequence[tuple[Pattern, Window]] | None = None,
) -> WindowScene:
    """Render a photo of one or more windows; deterministic for a given state of `rng`.

    `contents` fixes each window's pattern and dice; by default official patterns are drawn at random and
    filled by `random_window`. A window that finds no place fully in view is left out.
    """
    if contents is None:
        patterns = list(official_patterns().values())
        count = int(rng.integers(config.windows[0], config.windows[1] + 1))
        chosen = [patterns[int(i)] for i in rng.choice(len(patterns), size=count, replace=False)]
        contents = [
            (pattern, random_window(pattern, rng.uniform(*config.fill), config.legal_probability, rng))
            for pattern in chosen
        ]
    camera = _window_camera(config, rng)
    cards = _place_cards(config, camera, contents, rng)
    in_cards = [_dice_in_card(card, config, rng) for card in cards]
    loose = _loose_dice(config, camera, cards, rng)
    dice = [placed for card_dice in in_cards for _, placed in card_dice] + loose
    lighting = sample_lighting(rng)
    image = paint_table(config.scene, camera, rng)
    card_solids = [Placed(card.box, _card_look(), None, "") for card in cards]
    cast_shadows(image, camera, card_solids + dice, lighting.direction, rng)
    for card in cards:
        if card.mat is not None:
            printed_at = partial(_printed_mat, card.mat.seat)
            lay_print(image, camera, card.mat.to_world(), SHEET_MM[0], printed_at, lighting, rng)
    for card in cards:
        _draw_card(image, camera, card, lighting, config.scene.glare_probability, rng)
    labels = draw_objects(image, camera, dice, lighting, config.scene, rng)
    windows = []
    position = 0
    for card, card_dice in zip(cards, in_cards, strict=True):
        per_cell: list[RenderedDie | None] = [None] * (ROWS * COLS)
        for cell_index, _ in card_dice:
            per_cell[cell_index] = labels[position]
            position += 1
        windows.append(
            RenderedWindow(
                pattern=card.pattern.name,
                corners=camera.project(card.to_world(_grid_local(), CARD_THICKNESS)).astype(np.float32),
                card_corners=camera.project(card.to_world(_CARD_LOCAL, CARD_THICKNESS)).astype(np.float32),
                cells=camera.project(card.to_world(_cell_centers_local(), CARD_THICKNESS)).astype(np.float32),
                window=card.window,
                dice=tuple(per_cell),
                mat_seat=card.mat.seat if card.mat else None,
            )
        )
    loose_labels = tuple(label for label in labels[position:] if label is not None)
    return WindowScene(photograph(image, config.scene, rng), tuple(windows), loose_labels)


def paste_real_dice(
    scene: WindowScene,
    crops: Sequence[RealDieCrop],
    rng: np.random.Generator,
    fill: float = 0.6,
    window_index: int = 0,
) -> WindowScene:
    """Lay real dice crops into about `fill` of the empty spaces of one window and relabel it.

    The crops are top-down photos, so they are laid flat into the spaces (scaled, turned, with a soft
    shadow); render the window empty (`SagradaConfig.fill = (0, 0)`) to fill it with real dice only. Flat,
    a die's face lies a die's height lower than a real one's: the value readers, which cut the spaces in the
    plane of the dice's tops (`vision.sagrada.cells`), see it moved by the camera's slant, so these windows
    judge the space classifier more than them (`models/SAGRADA_FACES.md`, session 50).
    """
    if not crops:
        raise ValueError("paste_real_dice needs at least one crop; load_real_dice found none")
    target = scene.windows[window_index]
    grid_to_image = WindowLattice.through(target.corners).grid_to_image
    image = scene.image.astype(np.float32)
    dice = list(target.window.dice)
    labels = list(target.dice)
    for cell in ALL_CELLS:
        if dice[cell.index] is not None or rng.random() >= fill:
            continue
        crop = crops[int(rng.integers(len(crops)))]
        side = SPACE * rng.uniform(0.8, 0.92)
        angle = rng.uniform(0, 2 * math.pi)
        center = np.array([GROUT + cell.col * PITCH + SPACE / 2, GROUT + cell.row * PITCH + SPACE / 2])
        center += rng.uniform(-1, 1, 2) * (SPACE - side) / 3
        rows, cols = crop.pixels.shape[:2]
        scale = side / (max(rows, cols) / 1.12)
        c, s = math.cos(angle) * scale, math.sin(angle) * scale
        crop_to_grid = np.array(
            [
                [c, -s, center[0] - c * cols / 2 + s * rows / 2],
                [s, c, center[1] - s * cols / 2 - c * rows / 2],
                [0, 0, 1],
            ]
        )
        homography = grid_to_image @ crop_to_grid
        image = lay_crop(image, crop, homography, max(scale * rows * 0.03, 1.0))
        corners = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32) * 0.9 + 0.05 * np.array(
            [cols, rows], np.float32
        )
        quad = cv2.perspectiveTransform(corners[None], homography)[0].astype(np.float32)
        middle = cv2.perspectiveTransform(np.array([[[cols / 2, rows / 2]]], np.float32), homography)[0, 0]
        dice[cell.index] = Die(Color.parse(crop.color), crop.value)
        labels[cell.index] = RenderedDie(
            value=crop.value,
            color=crop.color,
            top_face=quad,
            outline=quad,
            box=(
                float(quad[:, 0].min()),
                float(quad[:, 1].min()),
                float(quad[:, 0].max()),
                float(quad[:, 1].max()),
            ),
            center=(float(middle[0]), float(middle[1])),
            visible_fraction=1.0,
        )
    windows = list(scene.windows)
    windows[window_index] = replace(target, window=Window(tuple(dice)), dice=tuple(labels))
    result = np.clip(image + 0.5, 0, 255).astype(np.uint8)
    return WindowScene(result, tuple(windows), scene.loose_dice)
