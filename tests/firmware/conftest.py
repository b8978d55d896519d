"""Firmware fixtures: an explicit mock pin factory per test, gpiozero's warnings as errors.

Every test gets gpiozero's fallback warnings (``PinFactoryFallback`` and the rest of
``GPIOZeroWarning``) turned into errors, and ends by checking that nothing set gpiozero's
global default factory: every device must have been given its factory explicitly.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.exc import GPIOZeroWarning

from firmware.maps import PinMap, load_pin_map
from firmware.pins import EmulatedFactory, make_factory


@pytest.fixture(autouse=True)
def gpiozero_warnings_are_errors() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error", GPIOZeroWarning)
        yield
    assert Device.pin_factory is None, "a device fell back to gpiozero's default factory"


@pytest.fixture
def factory() -> Iterator[EmulatedFactory]:
    """The emulated backend: MockFactory pins, events on one separate callback thread."""
    pins = make_factory("mock")
    assert isinstance(pins, EmulatedFactory)
    yield pins
    pins.close()
    assert pins.failures == []


@pytest.fixture
def pin_map() -> PinMap:
    """The bundled starting map."""
    return load_pin_map()


def write_map(tmp_path: Path, text: str, name: str = "pins.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


class Recorder:
    """Collects reports from any thread (list.append is atomic)."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def __call__(self, item: Any) -> None:
        self.items.append(item)
