"""The mat's layout, the printed sheet and its PNG and PDF files."""

from __future__ import annotations

import re
import zlib

import cv2
import numpy as np
import pytest

from vision.markers import pdf_bytes, png_bytes
from vision.runbuster.locate import find_mat_markers
from vision.runbuster.mat import (
    DIE_EDGE,
    MARKER_SIDE,
    MARKERS,
    MAT_HEIGHT,
    MAT_WIDTH,
    PRINTED_AREAS,
    ZONE_KEYS,
    ZONES,
    Area,
    Paper,
    Side,
    zone,
    zone_label_area,
    zone_named,
)
from vision.runbuster.printable import draw_mat, mat_image


def test_every_player_has_a_hand_and_a_roll_zone() -> None:
    assert sorted(ZONE_KEYS) == ["blue.hand", "blue.roll", "red.hand", "red.roll"]
    assert zone(Side.RED, Area.HAND).key == "red.hand"
    assert zone_named("blue.roll") is zone(Side.BLUE, Area.ROLL)
    with pytest.raises(ValueError, match=r"no zone 'green\.hand'"):
        zone_named("green.hand")


def test_zones_lie_apart_by_more_than_a_die_and_clear_of_the_markers() -> None:
    for index, first in enumerate(ZONES):
        assert 0 < first.left < first.right < MAT_WIDTH and 0 < first.top < first.bottom < MAT_HEIGHT
        # Six dice fit in a row, and a die fits across.
        assert first.right - first.left > 6 * DIE_EDGE * 1.5 and first.bottom - first.top > 2.5 * DIE_EDGE
        for second in ZONES[index + 1 :]:
            gap_x = max(second.left - first.right, first.left - second.right)
            gap_y = max(second.top - first.bottom, first.top - second.bottom)
            assert max(gap_x, gap_y) >= DIE_EDGE / 2
        for marker in MARKERS:
            assert marker.left + MARKER_SIDE < first.left or marker.left > first.right


def test_lettering_lies_outside_every_zone_and_marker() -> None:
    assert len(PRINTED_AREAS) == 6
    for area in PRINTED_AREAS:
        assert 0 < area.left < area.right < MAT_WIDTH and 0 < area.top < area.bottom < MAT_HEIGHT
        for other in ZONES:
            assert (
                area.right < other.left
                or area.left > other.right
                or area.bottom < other.top
                or area.top > other.bottom
            )
        for marker in MARKERS:
            assert (
                area.right < marker.left
                or area.left > marker.left + MARKER_SIDE
                or area.bottom < marker.top
                or (area.top > marker.top + MARKER_SIDE)
            )
    # Each zone's name sits at its owner's left: Red's at the print's left, Blue's (seen upside down) right.
    assert zone_label_area(zone(Side.RED, Area.ROLL)).right < zone(Side.RED, Area.ROLL).left
    assert zone_label_area(zone(Side.BLUE, Area.ROLL)).left > zone(Side.BLUE, Area.ROLL).right


def test_the_letters_are_printed_in_their_areas_and_nowhere_in_the_zones() -> None:
    px_per_unit = 3.0
    image = draw_mat(px_per_unit)
    for area in PRINTED_AREAS:
        x0, y0, x1, y1 = (round(v * px_per_unit) for v in (area.left, area.top, area.right, area.bottom))
        assert image[y0:y1, x0:x1].min() < 120  # ink
    for z in ZONES:
        inner = image[
            round((z.top + 2) * px_per_unit) : round((z.bottom - 2) * px_per_unit),
            round((z.left + 2) * px_per_unit) : round((z.right - 2) * px_per_unit),
        ]
        assert inner.min() > 200  # the tint alone


def test_the_hand_zones_are_nearest_their_players() -> None:
    red_hand, red_roll = zone(Side.RED, Area.HAND), zone(Side.RED, Area.ROLL)
    blue_hand, blue_roll = zone(Side.BLUE, Area.HAND), zone(Side.BLUE, Area.ROLL)
    assert red_hand.top > red_roll.bottom > blue_roll.bottom > blue_hand.bottom


def test_zone_distance_is_zero_inside_and_grows_outside() -> None:
    hand = zone(Side.RED, Area.HAND)
    assert hand.contains(hand.left, hand.top) and hand.distance(hand.left + 1, hand.top + 1) == 0
    assert hand.distance(hand.left - 3, hand.top - 4) == pytest.approx(5.0)


def test_the_drawn_mat_shows_every_marker_where_the_layout_puts_it() -> None:
    px_per_unit = 4.0
    image = draw_mat(px_per_unit)
    assert image.shape == (round(MAT_HEIGHT * 4), round(MAT_WIDTH * 4), 3)
    found = find_mat_markers(image)
    assert sorted(found) == [m.id for m in MARKERS]
    for marker in MARKERS:
        expected = marker.corners * px_per_unit - 0.5
        assert np.abs(found[marker.id] - expected).max() < 1.5


def test_zones_are_tinted_in_their_players_colours() -> None:
    image = draw_mat(2.0)
    for area in Area:
        red, blue = zone(Side.RED, area), zone(Side.BLUE, area)
        r = image[round((red.top + 20) * 2), round(red.left + red.right)].astype(int)
        b = image[round((blue.top + 20) * 2), round(blue.left + blue.right)].astype(int)
        assert r[2] > r[0] and b[0] > b[2]  # BGR: red tint has more red, blue tint more blue


def test_print_sizes_follow_paper_and_resolution() -> None:
    assert mat_image(Paper.A4, 60).shape[:2] == (round(210 / 25.4 * 60), round(297 / 25.4 * 60))
    assert Paper.named("a3") is Paper.A3 and Paper.A4.scale == pytest.approx(297 / 420)
    with pytest.raises(ValueError, match="unknown paper 'letter'"):
        Paper.named("letter")
    with pytest.raises(ValueError, match="30-1200 dpi"):
        mat_image(Paper.A3, 5000)


def test_the_png_carries_its_resolution_and_decodes_to_the_mat() -> None:
    image = mat_image(Paper.A4, 50)
    data = png_bytes(image, 50)
    assert data[12:16] == b"IHDR" and data[37:41] == b"pHYs"
    dots_per_metre = int.from_bytes(data[41:45], "big")
    assert dots_per_metre == round(50 / 25.4 * 1000) and data[49] == 1
    body = data[37:50]
    assert int.from_bytes(data[50:54], "big") == zlib.crc32(body)
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(decoded, image)


def test_the_pdf_is_one_page_of_the_papers_size_holding_the_mat_losslessly() -> None:
    image = mat_image(Paper.A4, 40)
    data = pdf_bytes(image, Paper.A4.value)
    assert data.startswith(b"%PDF-1.4") and data.endswith(b"%%EOF\n")
    startxref = int(re.search(rb"startxref\n(\d+)\n", data).group(1))  # type: ignore[union-attr]
    assert data[startxref:].startswith(b"xref\n0 6\n")
    offsets = [int(line[:10]) for line in data[startxref:].split(b"\n")[3:8]]
    for number, offset in enumerate(offsets, start=1):
        assert data[offset:].startswith(f"{number} 0 obj".encode())
    media = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert media is not None
    assert float(media.group(1)) == pytest.approx(297 / 25.4 * 72, abs=0.01)
    assert float(media.group(2)) == pytest.approx(210 / 25.4 * 72, abs=0.01)
    header = re.search(rb"/Width (\d+) /Height (\d+) .*?/Length (\d+) >>\nstream\n", data)
    assert header is not None
    width, height, length = (int(v) for v in header.groups())
    assert (height, width) == image.shape[:2]
    pixels = zlib.decompress(data[header.end() : header.end() + length])
    rgb = np.frombuffer(pixels, np.uint8).reshape(height, width, 3)
    assert np.array_equal(rgb[..., ::-1], image)
