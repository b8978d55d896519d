"""The mock pin backend delivers events like lgpio: on one separate callback thread, in order."""

from __future__ import annotations

import threading
import warnings
from typing import Any

import pytest
from gpiozero.exc import PinFactoryFallback

from firmware.buttons import Buttons
from firmware.errors import HardwareError
from firmware.maps import PinMap
from firmware.pins import EmulatedFactory, make_factory
from firmware.rings import RingBank


def test_mock_pin_events_run_on_one_separate_callback_thread(factory: EmulatedFactory) -> None:
    seen: list[str] = []
    pins = [factory.pin(n) for n in (5, 6, 13)]
    handlers = []
    for pin in pins:

        def handler(ticks: float, state: Any) -> None:
            seen.append(threading.current_thread().name)

        handlers.append(handler)
        pin.when_changed = handler

    def drive(pin: Any) -> None:
        for _ in range(50):
            pin.drive_low()
            pin.drive_high()

    threads = [threading.Thread(target=drive, args=(pin,)) for pin in pins]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    factory.flush()
    assert len(seen) == 300
    assert set(seen) == {"mock-pin-callbacks"}
    assert factory.callback_thread.name == "mock-pin-callbacks"
    assert factory.callback_thread is not threading.main_thread()


def test_mock_pin_events_keep_their_order_and_the_level_at_the_time(
    factory: EmulatedFactory,
) -> None:
    levels: list[bool] = []
    pin = factory.pin(19)

    def handler(ticks: float, state: Any) -> None:
        levels.append(bool(state))

    pin.when_changed = handler
    for _ in range(500):
        pin.drive_low()
        pin.drive_high()
    factory.flush()
    assert levels == [False, True] * 500


def test_emulated_pins_start_high_like_pulled_up_encoder_lines(factory: EmulatedFactory) -> None:
    assert factory.pin(20).state is True


def test_silently_driven_pin_changes_level_without_an_event(factory: EmulatedFactory) -> None:
    events: list[bool] = []
    pin = factory.pin(22)

    def handler(ticks: float, state: Any) -> None:
        events.append(bool(state))

    pin.when_changed = handler
    pin.drive_silently(False)
    factory.flush()
    assert (pin.state, events) == (False, [])


def test_failing_callback_is_recorded_and_the_thread_goes_on() -> None:
    pins = make_factory("mock")
    assert isinstance(pins, EmulatedFactory)
    calls: list[bool] = []
    pin = pins.pin(23)

    def handler(ticks: float, state: Any) -> None:
        calls.append(bool(state))
        if not state:
            raise RuntimeError("consumer bug")

    pin.when_changed = handler
    pin.drive_low()
    pin.drive_high()
    pins.flush()
    assert calls == [False, True]
    assert [str(error) for error in pins.failures] == ["consumer bug"]
    pins.close()


def test_close_stops_the_callback_thread() -> None:
    pins = make_factory("mock")
    thread = pins.callback_thread
    pins.close()
    assert not thread.is_alive()


def test_unknown_backend_is_refused_with_the_choices() -> None:
    with pytest.raises(HardwareError) as caught:
        make_factory("native")
    assert str(caught.value) == "unknown pin backend 'native' (choose one of mock, lgpio, rpigpio)"


def test_gpiozero_fallback_warnings_are_errors_in_these_tests() -> None:
    with pytest.raises(PinFactoryFallback):
        warnings.warn(PinFactoryFallback("Falling back from lgpio"), stacklevel=1)


NO_FACTORY = (
    "no pin factory given: choose the backend explicitly with firmware.pins.make_factory "
    "(gpiozero's default would fall back silently)"
)


def test_ring_bank_refuses_to_use_gpiozeros_default_factory(pin_map: PinMap) -> None:
    with pytest.raises(HardwareError) as caught:
        RingBank(pin_map, 16, None, lambda report: None)
    assert str(caught.value) == NO_FACTORY


def test_buttons_refuse_to_use_gpiozeros_default_factory(pin_map: PinMap) -> None:
    with pytest.raises(HardwareError) as caught:
        Buttons(pin_map, None, lambda name: None)
    assert str(caught.value) == NO_FACTORY
