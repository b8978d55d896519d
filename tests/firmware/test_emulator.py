"""The virtual ring turner and the buttons: genuine edge sequences on the mock pins."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from firmware.buttons import HOLD_S, Buttons
from firmware.emulator import RingTurner
from firmware.errors import HardwareError, RequestError
from firmware.maps import PinMap
from firmware.pins import EmulatedFactory
from tests.firmware.conftest import Recorder
from tests.firmware.helpers import with_ring


class PinLog:
    """Listens on some pins and logs (GPIO, level) in the order the callbacks see them."""

    def __init__(self, factory: EmulatedFactory, numbers: list[int]) -> None:
        self.events: list[tuple[int, int]] = []
        self._handlers = []
        for number in numbers:

            def handler(ticks: float, state: Any, number: int = number) -> None:
                self.events.append((number, int(state)))

            self._handlers.append(handler)
            factory.pin(number).when_changed = handler


def test_turner_drives_a_full_cycle_per_detent_clockwise(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    log = PinLog(factory, [4, 17])
    turner.turn(0, 1)
    factory.flush()
    assert log.events == [(4, 0), (17, 0), (4, 1), (17, 1)]


def test_turner_drives_anticlockwise_b_first(factory: EmulatedFactory, pin_map: PinMap) -> None:
    turner = RingTurner(factory, pin_map)
    log = PinLog(factory, [27, 22])
    turner.turn(1, -1)
    factory.flush()
    assert log.events == [(22, 0), (27, 0), (22, 1), (27, 1)]


def test_turner_rests_closed_encoders_low_and_starts_from_there(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, with_ring(pin_map, 2, rest="closed"))
    assert (factory.pin(5).state, factory.pin(6).state) == (False, False)
    log = PinLog(factory, [5, 6])
    turner.turn(2, 1)
    factory.flush()
    assert log.events == [(5, 1), (6, 1), (5, 0), (6, 0)]


def test_turner_drives_half_a_cycle_per_detent(factory: EmulatedFactory, pin_map: PinMap) -> None:
    turner = RingTurner(factory, with_ring(pin_map, 3, edges_per_detent=2))
    log = PinLog(factory, [13, 19])
    turner.turn(3, 1)
    factory.flush()
    assert log.events == [(13, 0), (19, 0)]


def test_bounce_flickers_each_edge_before_it_holds(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    log = PinLog(factory, [4, 17])
    turner.turn(0, 1, bounce=True)
    factory.flush()
    assert log.events == [
        (4, 0),
        (4, 1),
        (4, 0),
        (4, 1),
        (4, 0),
        (17, 0),
        (17, 1),
        (17, 0),
        (17, 1),
        (17, 0),
        (4, 1),
        (4, 0),
        (4, 1),
        (4, 0),
        (4, 1),
        (17, 1),
        (17, 0),
        (17, 1),
        (17, 0),
        (17, 1),
    ]


def test_dropped_edges_change_the_line_without_an_event(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    log = PinLog(factory, [4, 17])
    turner.turn(0, 1, drop=2)
    factory.flush()
    assert log.events == [(4, 1), (17, 1)]
    assert (factory.pin(4).state, factory.pin(17).state) == (True, True)


@pytest.mark.parametrize(
    ("ring", "detents", "drop", "message"),
    [
        (10, 1, 0, "ring 10 is out of 0..9"),
        (-1, 1, 0, "ring -1 is out of 0..9"),
        (0, 2, 9, "drop 9 is out of 0..8 (the turn's edges)"),
        (0, 1.5, 0, "detents must be a whole number, got 1.5"),
    ],
)
def test_turner_refuses_turns_out_of_range(
    factory: EmulatedFactory, pin_map: PinMap, ring: int, detents: Any, drop: int, message: str
) -> None:
    turner = RingTurner(factory, pin_map)
    with pytest.raises(RequestError) as caught:
        turner.turn(ring, detents, drop=drop)
    assert str(caught.value) == message


def test_turner_needs_mock_pins(pin_map: PinMap) -> None:
    with pytest.raises(HardwareError) as caught:
        RingTurner(object(), pin_map)
    assert str(caught.value) == "the ring turner needs the mock pin backend (--emulate)"


def test_pressing_done_reports_done_once(factory: EmulatedFactory, pin_map: PinMap) -> None:
    turner = RingTurner(factory, pin_map)
    pressed = Recorder()
    buttons = Buttons(pin_map, factory, pressed)
    assert buttons.names == ("done",)
    turner.press("done")
    turner.press("done")
    factory.flush()
    assert pressed.items == ["done", "done"]
    buttons.close()


def test_undo_button_reports_undo(factory: EmulatedFactory, pin_map: PinMap) -> None:
    wired = PinMap(pin_map.rings, pin_map.leds, {"done": 21, "undo": 11})
    turner = RingTurner(factory, wired)
    pressed = Recorder()
    buttons = Buttons(wired, factory, pressed)
    turner.press("undo")
    turner.press("done")
    factory.flush()
    assert pressed.items == ["undo", "done"]
    buttons.close()


def test_pressing_an_unwired_button_is_refused(factory: EmulatedFactory, pin_map: PinMap) -> None:
    turner = RingTurner(factory, pin_map)
    with pytest.raises(RequestError) as caught:
        turner.press("undo")
    assert str(caught.value) == "no 'undo' button in the pin map (wired: done)"


def test_button_on_a_claimed_pin_is_a_hardware_error(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    first = Buttons(pin_map, factory, Recorder())
    with pytest.raises(HardwareError) as caught:
        Buttons(pin_map, factory, Recorder())
    assert str(caught.value).startswith("buttons.done: cannot use GPIO21: ")
    first.close()


class Held:
    """Records each hold report with the time it came, and wakes a waiting test."""

    def __init__(self) -> None:
        self.items: list[tuple[str, float]] = []
        self.event = threading.Event()

    def __call__(self, name: str) -> None:
        self.items.append((name, time.monotonic()))
        self.event.set()


def test_done_held_for_the_hold_time_is_reported_held_once_and_never_as_a_press(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    pressed, held = Recorder(), Held()
    buttons = Buttons(pin_map, factory, pressed, held, hold_s=0.3)
    began = time.monotonic()
    turner.hold("done", 0.9)
    assert held.event.wait(10)
    factory.flush()  # the release too: a held done never also confirms the turn
    assert pressed.items == []
    assert [name for name, _ in held.items] == ["done"]  # once per hold, not repeated
    assert held.items[0][1] - began >= 0.3
    buttons.close()


def test_a_press_shorter_than_the_hold_time_is_not_held(
    factory: EmulatedFactory, pin_map: PinMap
) -> None:
    turner = RingTurner(factory, pin_map)
    pressed, held = Recorder(), Held()
    buttons = Buttons(pin_map, factory, pressed, held, hold_s=0.6)
    turner.hold("done", 0.1)
    turner.press("done")
    second = time.monotonic()
    turner.hold("done", 1.0)  # only this one is long enough
    assert held.event.wait(10)
    factory.flush()
    assert pressed.items == ["done", "done"]  # each short one as it is let go; not the hold
    assert len(held.items) == 1
    assert held.items[0][1] - second >= 0.6  # it came from the last hold, not the short one
    buttons.close()


def test_the_real_hold_is_three_seconds(factory: EmulatedFactory, pin_map: PinMap) -> None:
    assert HOLD_S == 3.0
    turner = RingTurner(factory, pin_map)
    held = Held()
    buttons = Buttons(pin_map, factory, Recorder(), held)
    began = time.monotonic()
    turner.hold("done", 3.4)
    assert held.event.wait(10)
    assert 3.0 <= held.items[0][1] - began < 3.4
    buttons.close()


def test_holding_an_unwired_button_is_refused(factory: EmulatedFactory, pin_map: PinMap) -> None:
    turner = RingTurner(factory, pin_map)
    with pytest.raises(RequestError) as caught:
        turner.hold("undo", 1.0)
    assert str(caught.value) == "no 'undo' button in the pin map (wired: done)"
