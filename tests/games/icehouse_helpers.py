"""Paths and records for the Icehouse tests, written the way the spec examples describe them."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

COLOURS = ("red", "yellow", "green", "blue", "black")
# Written out here, not taken from the engine, so the tests do not trust the code under test.
BLOCK_KINDS = [f"{colour}-{size}" for colour in COLOURS for size in (1, 2, 3)]


def block_path() -> list[str]:
    """red-1 x5 at 0-4, red-2 x5 at 5-9, ..., black-3 x5 at 70-74."""
    return [kind for kind in BLOCK_KINDS for _ in range(5)]


def layout(front: Sequence[str], back: Sequence[str] = ()) -> list[str]:
    """Put ``front`` first and ``back`` last, the rest of the 75 pieces in block order."""
    used = Counter(front) + Counter(back)
    middle: list[str] = []
    for kind in BLOCK_KINDS:
        middle += [kind] * (5 - used[kind])
    path = [*front, *middle, *back]
    assert len(path) == 75 and all(n == 5 for n in Counter(path).values())
    return path


def record(seats: Sequence[str], path: Sequence[str], picks: Sequence[Any]) -> dict[str, Any]:
    """An icehouse record."""
    return {"game": "icehouse", "seats": list(seats), "path": list(path), "picks": list(picks)}


def record_text(seats: Sequence[str], path: Sequence[str], picks: Sequence[Any]) -> str:
    """An icehouse record as JSON text, for ``mandala replay -``."""
    return json.dumps(record(seats, path, picks))
