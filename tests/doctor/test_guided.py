"""The guided ring test over a real ring bank on emulated pins, and the LED test's frames."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from companion.table.guided import RingTest, chase_frame, role_frame, role_pixels
from firmware.emulator import RingTurner
from firmware.maps import PinMap, load_led_map, load_pin_map
from firmware.pins import make_factory
from firmware.rings import RingBank
from tests.doctor.ring_results import passed_ring
from tests.phrase_json import english
from tests.table.test_announce import rendered

WHITE = (255, 255, 255)


class Bench:
    """A ring bank on emulated pins with a turner, and a ring test fed its reports."""

    def __init__(self, pin_map: PinMap) -> None:
        self.factory = make_factory("mock")
        self.turner = RingTurner(self.factory, pin_map)
        self.reports: list[Any] = []
        self.bank = RingBank(pin_map, 16, self.factory, self.reports.append)
        self.test = RingTest(pin_map, self.bank.status())

    def ring(self, index: int) -> dict[str, Any]:
        """What the test says of one ring after every report so far."""
        self.factory.flush()
        for report in self.reports:
            self.test.take(report)
        self.reports.clear()
        return self.test.result(self.bank.status())[index]

    def close(self) -> None:
        self.bank.close()
        self.factory.close()


@pytest.fixture
def bench() -> Iterator[Bench]:
    made = Bench(load_pin_map())
    yield made
    made.close()


def test_with_two_detents_a_slot_one_click_is_not_yet_a_slot() -> None:
    base = load_pin_map()
    bench = Bench(replace(base, rings=tuple(replace(r, detents_per_slot=2) for r in base.rings)))
    try:
        bench.turner.turn(1, 1)
        assert english(bench.ring(1)["phrase"]) == (
            "ring 1: +1 not yet, −1 not yet, lines A and B both toggled, 0 errors"
        )
        bench.turner.turn(1, 1)
        assert bench.ring(1)["plus"] is True
        bench.turner.turn(1, -2)
        assert bench.ring(1) == passed_ring(1, [8, 8])
        assert english(bench.ring(1)["phrase"]) == (
            "ring 1: +1 ✓, −1 ✓, lines A and B both toggled, 0 errors"
        )
    finally:
        bench.close()


def test_errors_while_turning_keep_a_ring_from_passing(bench: Bench) -> None:
    bench.turner.turn(2, 1, drop=1)  # a missed edge: one error
    bench.turner.turn(2, 1)
    bench.turner.turn(2, -1)
    ring = bench.ring(2)
    assert ring["verdict"] == "failed"
    assert ring["errors"] == 1
    assert english(ring["phrase"]).endswith("1 error (bounce: check the filter, or a loose wheel)")


def test_a_ring_not_yet_turned_waits_and_the_others_are_not_disturbed(bench: Bench) -> None:
    bench.turner.turn(0, 1)
    assert bench.ring(0)["verdict"] == "turning"
    assert bench.ring(9) == {
        "ring": 9,
        "verdict": "waiting",
        "plus": False,
        "minus": False,
        "line_edges": [0, 0],
        "errors": 0,
        "phrase": {"text": "ring {ring}: not turned yet", "values": {"ring": 9}},
    }
    assert english(bench.ring(9)["phrase"]) == "ring 9: not turned yet"


def german(ring: dict[str, Any]) -> str:
    """A ring's result as a German phone reads it (its phrase, through the catalogue)."""
    return rendered(ring["phrase"], "de")


def test_in_german_each_ring_says_what_it_has_seen_and_the_line_that_never_moved(
    bench: Bench,
) -> None:
    assert german(bench.ring(4)) == "Ring 4: noch nicht gedreht"
    bench.turner.turn(3, 1)
    assert german(bench.ring(3)) == (
        "Ring 3: +1 ✓, −1 noch nicht, Leitungen A und B haben beide geschaltet, 0 Fehler"
    )
    bench.turner.turn(2, 1, drop=1)  # a missed edge: one error
    bench.turner.turn(2, 1)
    bench.turner.turn(2, -1)
    assert german(bench.ring(2)) == (
        "Ring 2: +1 ✓, −1 ✓, Leitungen A und B haben beide geschaltet, 1 Fehler "
        "(Prellen: prüfe den Filter oder ein lockeres Rad)"
    )
    pins = bench.test.pin_map.rings[6]
    line_a = bench.factory.pin(pins.a)
    for _ in range(2):  # a hand turns the ring; only line A reaches the Pi
        line_a.drive_low()
        line_a.drive_high()
    assert german(bench.ring(6)) == (
        f"Ring 6: Leitung B (GPIO{pins.b}) hat sich nie bewegt, während Leitung A 4-mal "
        "geschaltet hat: prüfe das Kabel von Leitung B, ihren Pull-up und ihren Filter"
    )


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
