"""Shared fixtures: one recognizer for the whole session (loading models once, as the product does)."""

from __future__ import annotations

import pytest

from vision.recognizer import DiceRecognizer


@pytest.fixture(scope="session")
def recognizer() -> DiceRecognizer:
    return DiceRecognizer()
