"""Hardware.open: every part opened together, emulated or real, and closed as one."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from firmware.errors import HardwareError
from firmware.hardware import Hardware
from firmware.leds import EmulatedStrip
from firmware.maps import LedMap, MapError, PinMap, load_led_map
from tests.firmware.conftest import Recorder
from tests.firmware.helpers import wait_for

K = (0, 0, 0)


def open_emulated(
    pin_map: PinMap, rings: Recorder, buttons: Recorder, offsets: list[int] | None = None
) -> Hardware:
    return Hardware.open(pin_map, load_led_map(), 16, True, rings, buttons, offsets, settle_ms=20)


def test_emulated_hardware_turns_presses_and_shows(pin_map: PinMap) -> None:
    rings, buttons = Recorder(), Recorder()
    hardware = open_emulated(pin_map, rings, buttons)
    assert hardware.emulated is True
    assert hardware.turner is not None
    assert isinstance(hardware.strip, EmulatedStrip)
    # The self-test sweep ran: 48 single-pixel frames then all off.
    assert len(hardware.strip.frames) == 49
    assert hardware.strip.frames[0][0] == (127, 0, 0)
    assert hardware.strip.last_frame == [K] * 48
    hardware.turner.turn(3, 2)
    hardware.turner.press("done")
    hardware.factory.flush()
    wait_for(lambda: hardware.bank.status()[3].settled)
    assert hardware.bank.offsets()[3] == 2
    assert buttons.items == ["done"]
    assert rings.items[-1].kind == "settled"
    hardware.strip.show([(255, 0, 0)] * 48)
    hardware.close()
    assert hardware.strip.last_frame == [K] * 48
    assert hardware.bank.closed


def test_closing_stops_every_thread_it_started(pin_map: PinMap) -> None:
    before = set(threading.enumerate())
    hardware = open_emulated(pin_map, Recorder(), Recorder())
    try:
        # Pin callbacks, ring settling, and gpiozero's hold thread for the done button.
        assert len(set(threading.enumerate()) - before) == 3
    finally:
        hardware.close()
    assert set(threading.enumerate()) - before == set()


def test_emulated_hardware_resumes_from_saved_offsets(pin_map: PinMap) -> None:
    saved = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    hardware = open_emulated(pin_map, Recorder(), Recorder(), saved)
    assert hardware.bank.offsets() == saved
    hardware.close()


def test_led_spoke_pixels_that_do_not_fit_the_board_do_not_stop_the_hardware(
    pin_map: PinMap,
) -> None:
    # The board changes with the game: the table leaves the spoke pixels off instead.
    hardware = Hardware.open(pin_map, load_led_map(), 12, True, Recorder(), Recorder())
    try:
        assert hardware.bank.spokes == 12
        assert len(hardware.led_map.spokes) == 16
    finally:
        hardware.close()


def test_led_map_must_fit_the_strip(pin_map: PinMap) -> None:
    short = replace(pin_map, leds=replace(pin_map.leds, count=30))
    with pytest.raises(MapError) as caught:
        Hardware.open(short, load_led_map(), 16, True, Recorder(), Recorder())
    assert (
        str(caught.value) == "leds: scores[1][0]: pixel 30 is outside the strip's 30 pixels (0..29)"
    )


def test_real_hardware_on_a_laptop_fails_at_start_up_and_leaves_nothing_open(
    pin_map: PinMap,
) -> None:
    before = set(threading.enumerate())
    with pytest.raises(HardwareError) as caught:
        Hardware.open(pin_map, LedMap(), 16, False, Recorder(), Recorder())
    assert str(caught.value).startswith("pin backend 'lgpio' is not available here (")
    assert set(threading.enumerate()) - before == set()


def test_emulation_refuses_a_real_pin_backend(pin_map: PinMap) -> None:
    with pytest.raises(HardwareError) as caught:
        Hardware.open(pin_map, LedMap(), 16, True, Recorder(), Recorder(), pin_backend="lgpio")
    assert str(caught.value) == "emulation needs the mock pin backend, not 'lgpio'"
