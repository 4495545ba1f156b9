"""Typed errors of the vision package: each message names the image or model and what was wrong with it."""

from __future__ import annotations


class VisionError(ValueError):
    """Base of every error the vision package raises on bad input or a missing model."""


class UnreadableImage(VisionError):
    """The bytes are not an image in a supported format, or the image data is corrupt."""


class ImageTooLarge(VisionError):
    """The file or its pixel count exceeds the configured limit (guards memory against hostile uploads)."""


class ModelUnavailable(VisionError):
    """A shipped ONNX model is missing or cannot be loaded by onnxruntime."""


class ColourlessImage(VisionError):
    """The photo is greyscale where what it shows can only be read in colour (a Sagrada window)."""
