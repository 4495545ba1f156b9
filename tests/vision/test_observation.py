"""The box arithmetic recognition and its measurement share."""

from __future__ import annotations

import numpy as np

from vision.observation import box_iou, box_ious, kept_in_order


def test_box_ious_give_box_iou_of_every_pair() -> None:
    """The detector drops duplicates by the array form: it must agree with the pairwise one exactly, apart,
    touching, nested, equal and empty boxes included."""
    rng = np.random.default_rng(3)
    corners = rng.uniform(0, 100, (40, 2))
    boxes = np.concatenate([corners, corners + rng.uniform(0, 40, (40, 2))], axis=1)
    edge_cases = [(0, 0, 10, 10), (10, 0, 20, 10), (0, 0, 10, 10), (2, 2, 8, 8), (5, 5, 5, 9)]
    boxes = np.concatenate([boxes, np.array(edge_cases, np.float64)])
    expected = [[box_iou(tuple(a), tuple(b)) for b in boxes.tolist()] for a in boxes.tolist()]
    assert box_ious(boxes, boxes).tolist() == expected
    assert box_ious(boxes[-5:-4], boxes[-4:]).tolist() == [[0.0, 1.0, 0.36, 0.0]]


def test_only_a_kept_box_drops_those_that_clash_with_it() -> None:
    """Boxes 0 and 1 clash, and 1 and 2: taken in order 0, 1, 2, box 1 goes and so cannot drop box 2."""
    clashes = np.array([[False, True, False], [True, False, True], [False, True, False]])
    assert kept_in_order([0, 1, 2], clashes) == [0, 2]
    assert kept_in_order([1, 0, 2], clashes) == [1]
