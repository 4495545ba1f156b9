"""Reading the JSON files commands take (a table's state, a card set, a board), with one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

LARGEST_JSON_BYTES = 16 * 1024 * 1024


def read_json_object(path: Path, what: str) -> dict[str, Any]:
    """The JSON object in `path`; a missing, huge, non-JSON or non-object file stops the command."""
    try:
        if path.stat().st_size > LARGEST_JSON_BYTES:
            raise click.ClickException(f"{path}: a {what} file is at most 16 MB")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"{path}: cannot read the {what}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"{path}: the {what} is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise click.ClickException(f"{path}: the {what} must be a JSON object")
    return data
