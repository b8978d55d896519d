"""Fixtures of the table tests: a real Table on a real SQLite file, with or without rings.

``rings_table`` opens the firmware's real ``Hardware`` in emulation (MockFactory pins, the real
decoder and ring bank, the emulated LED strip) with a short ``settle_ms`` so tests are quick.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.table import Table
from firmware.hardware import Hardware
from firmware.maps import load_led_map, load_pin_map

SETTLE_MS = 40
TWO_SEATS: dict[str, Any] = {
    "kind": "rings",
    "board": "reference",
    "variant": "standard",
    "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
}
NO_DICE = {"red": 0, "blue": 0, "green": 0, "yellow": 0, "brown": 0}


def wait_for(check: Callable[[], Any], timeout: float = 5.0) -> Any:
    """Poll ``check`` until it returns something truthy (a hang guard, not a speed test)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {check}")
        time.sleep(0.005)


def opener(settle_ms: int = SETTLE_MS) -> Callable[..., Hardware]:
    pin_map, led_map = load_pin_map(), load_led_map()

    def open_hardware(
        report_ring: Callable[[Any], None],
        report_button: Callable[[str], None],
        spokes: int,
        offsets: list[int] | None,
    ) -> Hardware:
        return Hardware.open(
            pin_map,
            led_map,
            spokes,
            True,
            report_ring,
            report_button,
            offsets,
            settle_ms=settle_ms,
        )

    return open_hardware


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Table(tmp_path / "data") as running:
        yield running


@pytest.fixture
def rings_table(tmp_path: Path) -> Iterator[Table]:
    with Table(tmp_path / "data", opener()) as running:
        yield running


def settled_at(table: Table, game_id: str, offsets: list[int]) -> dict[str, Any]:
    """Wait until the live turn shows every ring settled at ``offsets``; return the game."""

    def check() -> dict[str, Any] | None:
        game = table.get_game(game_id)
        rings = game["state"]["live"]["rings"]
        if [r["sensed"] for r in rings] == offsets and all(r["settled"] for r in rings):
            return game
        return None

    found: dict[str, Any] = wait_for(check)
    return found


def turn_ring(table: Table, ring: int, steps: int) -> None:
    """Turn an emulated ring by ``steps`` slots (one detent per slot in the bundled pin map)."""
    table.emulator_turn(ring, steps)
