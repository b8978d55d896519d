"""The emulator's two buttons: the bundled PWM-driver pin map wires ``undo``, emulation uses it.

The map is checked by the firmware's own rules; the button is pressed through the API of a
real ``mandala serve --emulate`` (waitress, SQLite on disk, mock pins, the real decoder).
"""

from __future__ import annotations

import json
import time
import urllib.error
from pathlib import Path
from typing import Any

import pytest

from firmware.maps import PWM_PIN_MAP, load_pin_map, pin_uses
from tests.web.browser import api, serve_emulated

NO_DICE = {"red": 0, "blue": 0, "green": 0, "yellow": 0, "brown": 0}
TWO_SEATS = {
    "kind": "rings",
    "board": "reference",
    "variant": "standard",
    "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
}


def test_the_pwm_pin_map_wires_undo_on_a_pin_the_pwm_driver_frees() -> None:
    pin_map = load_pin_map(bundled=PWM_PIN_MAP)  # every pin rule checked while loading
    assert pin_map.leds.driver == "neopixel"
    assert pin_map.leds.pin == 18
    assert pin_map.buttons == {"done": 21, "undo": 9}
    used = [pin for _, pin in pin_uses(pin_map)]
    assert len(used) == len(set(used)) == 23  # 20 encoder lines, the strip, two buttons
    assert not {2, 3} & set(used)
    # Only ring 6 differs from the starting map: its A line left GPIO18 for the strip.
    spi = load_pin_map()
    changed = [i for i, (a, b) in enumerate(zip(pin_map.rings, spi.rings, strict=True)) if a != b]
    assert changed == [6]
    assert (pin_map.rings[6].a, pin_map.rings[6].b) == (10, 23)


def wait_for(check: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {check}")
        time.sleep(0.02)


def settled(base: str, offsets: list[int]) -> bool:
    board = api(base, "/api/board")
    return board["offsets"] == offsets and all(r["settled"] for r in board["rings"])


def test_the_emulators_undo_button_undoes_the_last_confirmed_turn(tmp_path: Path) -> None:
    with serve_emulated(tmp_path / "data") as base:
        game = api(base, "/api/games", TWO_SEATS)
        path = f"/api/games/{game['id']}"
        game = api(
            base,
            path + "/actions",
            {"version": game["version"], "action": {"dice": {**NO_DICE, "red": 1}}},
        )
        api(base, "/api/emulator/rings/0/turn", {"detents": 1})
        wait_for(lambda: settled(base, [1] + [0] * 9))
        game = api(base, path)
        game = api(
            base, path + "/actions", {"version": game["version"], "action": {"confirm": True}}
        )
        assert game["state"]["turns"] == 1
        assert api(base, "/api/emulator/buttons/undo/press", {}) == {
            "button": "undo",
            "pressed": True,
        }
        game = wait_for(lambda: (g := api(base, path))["state"]["turns"] == 0 and g)
        # The undone turn's dice are kept and the rings are guided back to the start.
        assert game["state"]["dice"] == {**NO_DICE, "red": 1}
        assert game["state"]["dice_source"] == "kept"
        assert game["state"]["resync"]["reason"] == "undo"
        assert game["state"]["resync"]["rings"][0]["instruction"] == (
            "turn ring 0 1 slot counter-clockwise (its mark to spoke 0)"
        )
        assert game["state"]["log"] == []


def test_pressing_a_button_the_map_does_not_wire_is_not_found(tmp_path: Path) -> None:
    with serve_emulated(tmp_path / "data") as base:
        with pytest.raises(urllib.error.HTTPError) as caught:
            api(base, "/api/emulator/buttons/reset/press", {})
        assert caught.value.code == 404
        assert json.loads(caught.value.read()) == {
            "error": {
                "code": "not_found",
                "message": "no button 'reset'; the buttons are done, undo",
            }
        }
