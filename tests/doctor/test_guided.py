"""The guided ring test over a real ring bank on emulated pins, and the LED test's frames."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.doctor.guided import RingTest, chase_frame, role_frame, role_pixels
from firmware.emulator import RingTurner
from firmware.maps import load_led_map, load_pin_map
from firmware.pins import make_factory
from firmware.rings import RingBank

WHITE = (255, 255, 255)


def test_with_two_detents_a_slot_one_click_is_not_yet_a_slot() -> None:
    base = load_pin_map()
    pin_map = replace(base, rings=tuple(replace(r, detents_per_slot=2) for r in base.rings))
    factory = make_factory("mock")
    turner = RingTurner(factory, pin_map)
    reports: list[Any] = []
    bank = RingBank(pin_map, 16, factory, reports.append)
    try:
        test = RingTest(pin_map, bank.status())

        def ring_1() -> dict[str, Any]:
            factory.flush()
            for report in list(reports):
                test.take(report)
            reports.clear()
            return test.result(bank.status())[1]

        turner.turn(1, 1)
        assert (
            ring_1()["text"]
            == "ring 1: +1 not yet, −1 not yet, lines A and B both toggled, 0 errors"
        )
        turner.turn(1, 1)
        assert ring_1()["plus"] is True
        turner.turn(1, -2)
        assert ring_1() == {
            "ring": 1,
            "verdict": "passed",
            "plus": True,
            "minus": True,
            "line_edges": [8, 8],
            "errors": 0,
            "text": "ring 1: +1 ✓, −1 ✓, lines A and B both toggled, 0 errors",
        }
    finally:
        bank.close()
        factory.close()


def test_errors_while_turning_keep_a_ring_from_passing() -> None:
    pin_map = load_pin_map()
    factory = make_factory("mock")
    turner = RingTurner(factory, pin_map)
    reports: list[Any] = []
    bank = RingBank(pin_map, 16, factory, reports.append)
    try:
        test = RingTest(pin_map, bank.status())
        turner.turn(2, 1, drop=1)  # a missed edge: one error
        turner.turn(2, 1)
        turner.turn(2, -1)
        factory.flush()
        for report in reports:
            test.take(report)
        ring = test.result(bank.status())[2]
        assert ring["verdict"] == "failed"
        assert ring["errors"] == 1
        assert ring["text"].endswith("1 error (bounce: check the filter, or a loose wheel)")
    finally:
        bank.close()
        factory.close()


def test_each_role_lights_exactly_its_pixels_in_white() -> None:
    led_map = load_led_map()
    for role in ("spokes", "entrances", "bases", "scores"):
        frame = role_frame(led_map, 48, role)
        lit = {i for i, pixel in enumerate(frame) if pixel != (0, 0, 0)}
        assert lit == set(role_pixels(led_map, role))
        assert {frame[i] for i in lit} == {WHITE}
    assert role_pixels(led_map, "scores") == list(range(24, 48))


def test_the_chase_lights_one_pixel_and_refuses_one_off_the_strip() -> None:
    assert chase_frame(3, 2) == [(0, 0, 0), (0, 0, 0), WHITE]
    with pytest.raises(ValueError, match=r"pixel 3 is not on the strip \(0\.\.2\)"):
        chase_frame(3, 3)
    with pytest.raises(ValueError, match="role 'rims' is not one of spokes"):
        role_pixels(load_led_map(), "rims")
