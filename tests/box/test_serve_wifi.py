"""``mandala serve``'s Wi-Fi wiring: when the box manages it, and the ``done`` button held 3 s."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from companion.config import ServeOptions, read_config
from companion.games.base import RecordError
from companion.serve import when_held, wifi_for
from companion.table import Table
from firmware.hardware import Hardware
from firmware.maps import load_led_map, load_pin_map
from tests.box.conftest import StandinNM
from tests.phrase_json import english


@pytest.mark.parametrize(
    ("mode", "backend", "managed"),
    [
        ("auto", "lgpio", True),  # a Pi
        ("auto", "rpigpio", True),
        ("auto", "mock", False),  # emulation: the laptop's own network is left alone
        ("on", "mock", True),  # asked for in emulation
        ("off", "lgpio", False),
    ],
)
def test_the_box_manages_its_wifi_on_a_pi_and_in_emulation_only_when_asked(
    tmp_path: Path, mode: str, backend: str, managed: bool
) -> None:
    found = wifi_for(ServeOptions(wifi=mode), backend, tmp_path)
    assert (found is not None) is managed
    assert (when_held(found) is not None) is managed


def test_the_config_says_wifi_auto_on_or_off(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('wifi = "on"\n')
    assert read_config(config).wifi == "on"
    assert ServeOptions().wifi == "auto"
    config.write_text('wifi = "sometimes"\n')
    with pytest.raises(RecordError) as caught:
        read_config(config)
    assert str(caught.value).startswith(f"{config}: wifi: ")


def test_holding_done_for_3_s_on_the_emulated_box_opens_its_own_wifi(
    nm: StandinNM, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    wifi = wifi_for(ServeOptions(wifi="on"), "mock", data)
    assert wifi is not None
    pin_map, led_map = load_pin_map(), load_led_map()

    def open_hardware(report_ring: Any, report_button: Any, spokes: int, offsets: Any) -> Any:
        return Hardware.open(
            pin_map, led_map, spokes, True, report_ring, report_button, offsets,
            settle_ms=50, report_hold=when_held(wifi),
        )  # fmt: skip

    with Table(data, open_hardware, data / "boards") as table:
        hardware: Any = table.ring_board.hardware
        hardware.turner.press("done")  # a press is a press (one AP is opened below, not two)
        hardware.turner.hold("done", 3.3)  # the real hold time
        deadline = time.monotonic() + 60
        while nm.state["active"] != "Mandala-AP":
            assert time.monotonic() < deadline, nm.calls()
            time.sleep(0.05)
        assert wifi.wait_idle(60)
        last = wifi.status()["last"]
        assert last["ok"] is True
        assert english(last["phrase"]) == f"opened {wifi.wifi.ssid} (the done button was held)"
        adds = [call for call in nm.calls() if call[1:3] == ["connection", "add"]]
        assert len(adds) == 1
