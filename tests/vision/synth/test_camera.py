import numpy as np
import pytest

from vision.synth.camera import look_at_table


@pytest.mark.parametrize("tilt", [0.0, 20.0, 35.0])
def test_the_table_origin_projects_to_the_image_centre(tilt: float) -> None:
    camera = look_at_table(
        width=641, height=481, focal=500.0, tilt_deg=tilt, azimuth_deg=40, roll_deg=75, distance=12.0
    )
    assert np.allclose(camera.project(np.zeros((1, 3))), [[320.0, 240.0]])
    assert camera.center[2] == pytest.approx(12.0 * np.cos(np.radians(tilt)))


def test_backproject_inverts_project_on_any_plane() -> None:
    camera = look_at_table(
        width=640, height=640, focal=600.0, tilt_deg=30, azimuth_deg=200, roll_deg=10, distance=15
    )
    pixels = np.array([[0.0, 0.0], [639.0, 17.0], [320.5, 600.25]])
    for height in (0.0, 1.0):
        ground = camera.backproject(pixels, height)
        points = np.column_stack((ground, np.full(len(ground), height)))
        assert np.allclose(camera.project(points), pixels, atol=1e-6)


def test_a_higher_point_looks_bigger_and_nearer() -> None:
    camera = look_at_table(
        width=640, height=640, focal=600.0, tilt_deg=0, azimuth_deg=0, roll_deg=0, distance=10
    )
    low = camera.project(np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]))
    high = camera.project(np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 1.0]]))
    assert np.linalg.norm(high[1] - high[0]) > np.linalg.norm(low[1] - low[0])
    assert camera.depth(np.array([[0.0, 0.0, 1.0]]))[0] == pytest.approx(9.0)
