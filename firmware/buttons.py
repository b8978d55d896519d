"""The optional ``done`` and ``undo`` buttons: pressed -> the caller's ``report(name)``.

A button held down for ``hold_s`` (:data:`HOLD_S`, 3 s) is reported to ``report_hold(name)``
instead, when one is given (gpiozero's ``when_held``, once per hold): ``mandala serve`` opens
the box's own Wi-Fi when ``done`` is held. A press is then reported as the button is let go,
and only when it was not held, so holding ``done`` never also confirms the turn.

Buttons connect their pin to ground; the Pi's internal pull-up holds the line high (the pin
map's ``pull`` may say otherwise: ``down`` for a button to 3.3 V, ``none`` for a board with
its own resistor). The callback runs on the pin backend's callback thread, so ``report``
must only enqueue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from gpiozero import Button

from firmware.errors import HardwareError
from firmware.maps import PinMap
from firmware.pins import claim_error, claim_errors, release, set_bias
from firmware.rings import NO_FACTORY

BOUNCE_S: Final = 0.02
"""The pin backend's debounce for button contacts (ignored by mock pins)."""
HOLD_S: Final = 3.0
"""How long a button is held down before ``report_hold`` hears of it."""


class Buttons:
    """The pin map's buttons on ``factory``'s pins, each press reported by name.

    :raises HardwareError: when a pin cannot be claimed.
    """

    def __init__(
        self,
        pin_map: PinMap,
        factory: Any,
        report: Callable[[str], None],
        report_hold: Callable[[str], None] | None = None,
        hold_s: float = HOLD_S,
    ) -> None:
        if factory is None:
            raise HardwareError(NO_FACTORY)
        self._devices: dict[str, Any] = {}
        self._handlers: list[object] = []  # the callbacks given to gpiozero, kept alive
        try:
            for name, pin in pin_map.buttons.items():
                pull = pin_map.button_pull(name)
                try:
                    # Pulled up, a press reads low; otherwise active_state says which way.
                    button = Button(
                        pin,
                        pull_up=True if pull == "up" else None,
                        active_state=None if pull == "up" else pull == "down",
                        bounce_time=BOUNCE_S,
                        hold_time=hold_s,
                        pin_factory=factory,
                    )
                except claim_errors() as error:
                    raise claim_error(f"buttons.{name}", pin, error, factory) from error
                self._devices[name] = button
                try:
                    set_bias(button, pull)
                except claim_errors() as error:
                    raise claim_error(f"buttons.{name}", pin, error, factory) from error
                if button.pin_factory is not factory:
                    raise HardwareError(
                        f"buttons.{name}: GPIO{pin} fell back to another pin backend"
                    )
                if report_hold is None:
                    handler = _pressed(name, report)
                    self._handlers.append(handler)
                    button.when_pressed = handler
                else:
                    press = _PressOrHold(name, report, report_hold)
                    self._handlers.append(press)
                    button.when_pressed = press.pressed
                    button.when_held = press.held
                    button.when_released = press.released
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
            release(button)
        self._devices.clear()
        self._handlers.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _PressOrHold:
    """One button's press, told on release, or its hold, told after ``hold_s``: never both."""

    def __init__(
        self, name: str, report: Callable[[str], None], report_hold: Callable[[str], None]
    ) -> None:
        self.name, self.report, self.report_hold = name, report, report_hold
        self.was_held = False

    def pressed(self) -> None:
        self.was_held = False

    def held(self) -> None:
        self.was_held = True
        self.report_hold(self.name)

    def released(self) -> None:
        if not self.was_held:
            self.report(self.name)
        self.was_held = False


def _pressed(name: str, report: Callable[[str], None]) -> Callable[[], None]:
    def when_pressed() -> None:
        report(name)

    return when_pressed
