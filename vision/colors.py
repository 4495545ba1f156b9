"""Die colour names shared by the renderer and the colour reader, and the palettes the renderer draws from.

A palette is a range of body colours per name, in OpenCV's HSV (hue 0-180, saturation and value 0-255),
kept separately for opaque and translucent dice: a translucent red die is darker and more saturated than an
opaque one, and a "white" translucent die is clear or frosted. The ranges are deliberately wide so that a
model trained on rendered dice meets shades it has never seen in real photos.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DIE_COLORS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple", "orange", "white", "black")

COLOR_SETS: dict[str, tuple[str, ...]] = {
    "sagrada": ("red", "yellow", "green", "blue", "purple"),
    "cubist": ("blue", "purple", "orange", "green", "red"),
    "all": DIE_COLORS,
}

OTHER_COLOR = "other"
"""The label of a die that is not clearly one colour (marbled, bronze): a distractor for the colour reader."""


@dataclass(frozen=True)
class HsvRange:
    """Inclusive ranges of hue (0-180, may wrap past 180), saturation and value (0-255)."""

    hue: tuple[float, float]
    saturation: tuple[float, float]
    value: tuple[float, float]

    def sample_bgr(self, rng: np.random.Generator) -> tuple[float, float, float]:
        """One colour drawn uniformly from the range, as BGR floats in 0..1."""
        hue = rng.uniform(*self.hue) % 180.0
        saturation = rng.uniform(*self.saturation) / 255.0
        value = rng.uniform(*self.value) / 255.0
        return hsv_to_bgr(hue, saturation, value)


@dataclass(frozen=True)
class Palette:
    """The body colours a die of one colour name may have, opaque and translucent."""

    opaque: tuple[HsvRange, ...]
    translucent: tuple[HsvRange, ...]
    light: bool
    """Light bodies (white, yellow) usually carry dark pips; the others usually white ones."""

    def sample_bgr(self, rng: np.random.Generator, *, translucent: bool) -> tuple[float, float, float]:
        ranges = self.translucent if translucent else self.opaque
        return ranges[int(rng.integers(len(ranges)))].sample_bgr(rng)


PALETTES: dict[str, Palette] = {
    "red": Palette(
        opaque=(HsvRange((-6, 6), (170, 255), (120, 235)), HsvRange((-4, 4), (120, 200), (70, 130))),
        translucent=(HsvRange((-5, 5), (190, 255), (90, 210)),),
        light=False,
    ),
    "yellow": Palette(
        opaque=(HsvRange((20, 31), (150, 255), (190, 255)),),
        translucent=(HsvRange((20, 30), (170, 255), (170, 250)),),
        light=True,
    ),
    "green": Palette(
        opaque=(HsvRange((45, 78), (140, 255), (90, 210)), HsvRange((78, 90), (140, 255), (90, 190))),
        translucent=(HsvRange((48, 80), (170, 255), (70, 190)),),
        light=False,
    ),
    "blue": Palette(
        opaque=(HsvRange((100, 120), (150, 255), (90, 230)),),
        translucent=(HsvRange((100, 118), (170, 255), (80, 220)),),
        light=False,
    ),
    "purple": Palette(
        opaque=(HsvRange((125, 155), (100, 230), (70, 190)),),
        translucent=(HsvRange((125, 160), (120, 240), (60, 170)),),
        light=False,
    ),
    "orange": Palette(
        opaque=(HsvRange((8, 17), (190, 255), (200, 255)),),
        translucent=(HsvRange((8, 16), (200, 255), (180, 250)),),
        light=False,
    ),
    "white": Palette(
        opaque=(HsvRange((0, 180), (0, 25), (215, 255)),),
        translucent=(HsvRange((0, 180), (0, 20), (200, 250)),),
        light=True,
    ),
    "black": Palette(
        opaque=(HsvRange((0, 180), (0, 40), (15, 55)),),
        translucent=(HsvRange((0, 180), (0, 45), (25, 75)),),
        light=False,
    ),
}

PIP_COLORS: dict[str, HsvRange] = {
    "white": HsvRange((0, 180), (0, 20), (215, 255)),
    "dark": HsvRange((0, 180), (0, 60), (5, 45)),
    "gold": HsvRange((20, 30), (140, 230), (190, 255)),
    "red": HsvRange((-5, 5), (180, 255), (150, 230)),
    "silver": HsvRange((0, 180), (0, 15), (150, 200)),
}
"""Pip colours: white on dark bodies, dark on light ones, and now and then a coloured or metallic pip."""


def hsv_to_bgr(hue: float, saturation: float, value: float) -> tuple[float, float, float]:
    """Convert one OpenCV-scaled hue (0-180) with saturation and value in 0..1 to BGR floats in 0..1."""
    h = (hue % 180.0) / 30.0
    sector = int(h) % 6
    fraction = h - int(h)
    p = value * (1.0 - saturation)
    q = value * (1.0 - saturation * fraction)
    t = value * (1.0 - saturation * (1.0 - fraction))
    red, green, blue = (
        (value, t, p),
        (q, value, p),
        (p, value, t),
        (p, q, value),
        (t, p, value),
        (value, p, q),
    )[sector]
    return (blue, green, red)
