"""Everything the table needs from the hardware, opened and closed as one.

``Hardware.open(..., emulate=True)`` runs the real decoder and ring bank on mock pins (events
on one callback thread, as lgpio delivers them) with a :class:`RingTurner` to turn the
virtual rings and an :class:`EmulatedStrip`; ``emulate=False`` opens lgpio and the strip's
driver and fails at start-up, never falls back, when either is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from firmware.buttons import HOLD_S, Buttons
from firmware.emulator import RingTurner
from firmware.errors import HardwareError
from firmware.leds import LedStrip, make_strip, self_test
from firmware.maps import LedMap, PinMap, check_led_map, pin_uses
from firmware.pins import check_serial_console, make_factory
from firmware.rings import DEFAULT_SETTLE_MS, RingBank, RingReport


@dataclass(frozen=True)
class Hardware:
    """The opened parts; ``turner`` is ``None`` on a real Pi."""

    bank: RingBank
    buttons: Buttons
    strip: LedStrip
    turner: RingTurner | None
    pin_map: PinMap
    led_map: LedMap
    emulated: bool
    factory: Any

    @classmethod
    def open(  # noqa: PLR0917 -- the contract's positional order
        cls,
        pin_map: PinMap,
        led_map: LedMap,
        spokes: int,
        emulate: bool,
        report_ring: Callable[[RingReport], None],
        report_button: Callable[[str], None],
        offsets: Sequence[int] | None = None,
        *,
        settle_ms: int = DEFAULT_SETTLE_MS,
        pin_backend: str | None = None,
        sweep_delay_s: float | None = None,
        report_hold: Callable[[str], None] | None = None,
        hold_s: float = HOLD_S,
    ) -> Hardware:
        """Check the maps against each other and the board, then open every part.

        ``pin_backend`` defaults to ``"mock"`` when emulating and ``"lgpio"`` otherwise;
        ``sweep_delay_s`` (the self-test's pause per frame) to 0 when emulating.
        ``report_hold`` hears of a button held down ``hold_s`` seconds (``firmware.buttons``).

        ``spokes`` is the board the sensors count for now (``bank.set_spokes`` changes it);
        an LED map with another number of spoke pixels is accepted.

        :raises MapError: when the LED map does not fit the strip.
        :raises HardwareError: when a backend cannot be used here (nothing is left open).
        """
        check_led_map(led_map, pin_map.leds.count, "leds")
        # An LED map whose spoke pixels do not fit the board is no reason to refuse: the
        # board changes with the game, and the table leaves those pixels off (and says so).
        backend = pin_backend or ("mock" if emulate else "lgpio")
        if emulate and backend != "mock":
            raise HardwareError(f"emulation needs the mock pin backend, not {backend!r}")
        opened: list[Any] = []
        try:
            factory = make_factory(backend)
            opened.append(factory)
            if not emulate:  # before a pin is claimed: claiming 14/15 takes them off the UART
                check_serial_console(pin_uses(pin_map))
            turner = RingTurner(factory, pin_map) if emulate else None
            bank = RingBank(pin_map, spokes, factory, report_ring, settle_ms, offsets)
            opened.append(bank)
            buttons = Buttons(pin_map, factory, report_button, report_hold, hold_s)
            opened.append(buttons)
            strip = make_strip(pin_map.leds, emulate)
            opened.append(strip)
            delay = sweep_delay_s if sweep_delay_s is not None else (0.0 if emulate else 0.02)
            self_test(strip, pin_map.leds.count, delay)
        except BaseException:
            for part in reversed(opened):
                part.close()
            raise
        return cls(bank, buttons, strip, turner, pin_map, led_map, emulate, factory)

    def close(self) -> None:
        """Blank the LEDs, release the pins, stop the threads (idempotent)."""
        try:
            self.strip.close()
        finally:
            self.buttons.close()
            self.bank.close()
            self.factory.close()
