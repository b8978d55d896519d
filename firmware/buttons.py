"""The optional ``done`` and ``undo`` buttons: pressed -> the caller's ``report(name)``.

Buttons connect their pin to ground; the Pi's internal pull-up holds the line high. The
callback runs on the pin backend's callback thread, so ``report`` must only enqueue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from gpiozero import Button
from gpiozero.exc import GPIOZeroError

from firmware.errors import HardwareError
from firmware.maps import PinMap
from firmware.rings import NO_FACTORY

BOUNCE_S: Final = 0.02
"""The pin backend's debounce for button contacts (ignored by mock pins)."""


class Buttons:
    """The pin map's buttons on ``factory``'s pins, each press reported by name.

    :raises HardwareError: when a pin cannot be claimed.
    """

    def __init__(self, pin_map: PinMap, factory: Any, report: Callable[[str], None]) -> None:
        if factory is None:
            raise HardwareError(NO_FACTORY)
        self._devices: dict[str, Any] = {}
        self._handlers: list[Callable[[], None]] = []
        try:
            for name, pin in pin_map.buttons.items():
                try:
                    button = Button(pin, pull_up=True, bounce_time=BOUNCE_S, pin_factory=factory)
                except GPIOZeroError as error:
                    raise HardwareError(f"buttons.{name}: cannot use GPIO{pin}: {error}") from error
                self._devices[name] = button
                if button.pin_factory is not factory:
                    raise HardwareError(
                        f"buttons.{name}: GPIO{pin} fell back to another pin backend"
                    )
                handler = _pressed(name, report)
                self._handlers.append(handler)
                button.when_pressed = handler
        except BaseException:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        """The buttons wired, in pin map order."""
        return tuple(self._devices)

    def close(self) -> None:
        """Release the buttons' pins (idempotent)."""
        for button in self._devices.values():
            button.close()
        self._devices.clear()
        self._handlers.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pressed(name: str, report: Callable[[str], None]) -> Callable[[], None]:
    def when_pressed() -> None:
        report(name)

    return when_pressed
