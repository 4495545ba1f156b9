"""What the demo photo writers share: the JPEG written or a clear error, and the `python -m` entry point
that writes a game's demo photos into a folder and lists them."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import cv2

from vision.decode import BGRImage


def write_jpeg(path: Path, image: BGRImage, quality: int) -> Path:
    if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, quality]):
        raise OSError(f"OpenCV could not write {path}")
    return path


def demo_main(
    write_demos: Callable[[Path], list[Path]], description: str | None, argv: list[str] | None
) -> None:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("out_dir", type=Path)
    for path in write_demos(parser.parse_args(argv).out_dir):
        print(path)
