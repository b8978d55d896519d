"""A virtual hand on the rings: genuine quadrature edges driven onto mock pins.

The turner drives a ring's A and B pins through the exact sequence its encoder type makes
(see :func:`firmware.decoder.quadrature_edges`), optionally with contact bounce or dropped
edges, so the real decoder and ring bank run unchanged in emulation. It works on any
gpiozero ``MockFactory``; with :func:`firmware.pins.make_factory` ``("mock")`` the pin
events then reach the bank on the factory's one callback thread, as on a Pi.

Create the turner before the ring bank: it puts each encoder at rest first (a ``"closed"``
encoder pulls its lines low), and the bank reads the lines it starts from.
"""

from __future__ import annotations

import threading
from typing import Any, Final

from gpiozero.pins.mock import MockFactory

from firmware.decoder import LINE_A, LINE_B, REST_LINES, quadrature_edges
from firmware.errors import HardwareError, RequestError
from firmware.maps import PinMap, RingPins

BOUNCE_TOGGLES: Final = 2
"""With ``bounce=True`` each edge flickers back and forth this many times before it holds."""


class RingTurner:
    """Turn the emulated rings and press the emulated buttons; safe from many threads.

    :raises HardwareError: when ``factory`` is not a mock pin factory.
    """

    def __init__(self, factory: Any, pin_map: PinMap) -> None:
        if not isinstance(factory, MockFactory):
            raise HardwareError("the ring turner needs the mock pin backend (--emulate)")
        self._rings: list[tuple[Any, Any, RingPins, threading.Lock]] = []
        for pins in pin_map.rings:
            a, b = factory.pin(pins.a), factory.pin(pins.b)
            rest = REST_LINES[pins.rest]
            for pin, level in ((a, rest & 0b10), (b, rest & 0b01)):
                if level:
                    pin.drive_high()
                else:
                    pin.drive_low()
            self._rings.append((a, b, pins, threading.Lock()))
        self._buttons = {
            name: (factory.pin(pin), threading.Lock()) for name, pin in pin_map.buttons.items()
        }

    def turn(self, ring: int, detents: int, bounce: bool = False, drop: int = 0) -> None:
        """Turn ``ring`` by ``detents`` clicks (negative: anticlockwise).

        ``bounce``: every edge flickers :data:`BOUNCE_TOGGLES` times before it holds.
        ``drop``: the first ``drop`` edges change the line without an event (missed edges).
        One ring's turns are applied whole, one after another.

        :raises RequestError: when the ring, detents or drop are out of range.
        """
        if isinstance(ring, bool) or not isinstance(ring, int) or not 0 <= ring < len(self._rings):
            raise RequestError(f"ring {ring!r} is out of 0..{len(self._rings) - 1}")
        if isinstance(detents, bool) or not isinstance(detents, int):
            raise RequestError(f"detents must be a whole number, got {detents!r}")
        a, b, pins, lock = self._rings[ring]
        total = abs(detents) * pins.edges_per_detent
        if isinstance(drop, bool) or not isinstance(drop, int) or not 0 <= drop <= total:
            raise RequestError(f"drop {drop!r} is out of 0..{total} (the turn's edges)")
        with lock:
            lines = (2 if a.state else 0) | (1 if b.state else 0)
            edges = quadrature_edges(lines, detents, pins.edges_per_detent, pins.invert)
            drives = {
                (LINE_A, 0): a.drive_low,
                (LINE_A, 1): a.drive_high,
                (LINE_B, 0): b.drive_low,
                (LINE_B, 1): b.drive_high,
            }
            for line, level in edges[:drop]:
                # The level moves but no event is raised: an edge the Pi missed.
                (a if line == LINE_A else b)._change_state(bool(level))
            if bounce:
                for line, level in edges[drop:]:
                    drive, undo = drives[line, level], drives[line, 1 - level]
                    for _ in range(BOUNCE_TOGGLES):
                        drive()
                        undo()
                    drive()
            else:
                for edge in edges[drop:]:
                    drives[edge]()

    def press(self, name: str) -> None:
        """Press and release the button ``name``.

        :raises RequestError: when the pin map has no such button.
        """
        pin, lock = self._button(name)
        with lock:
            pin.drive_low()
            pin.drive_high()

    def _button(self, name: str) -> tuple[Any, threading.Lock]:
        if name not in self._buttons:
            wired = ", ".join(self._buttons) or "none"
            raise RequestError(f"no {name!r} button in the pin map (wired: {wired})")
        return self._buttons[name]

    def hold(self, name: str, seconds: float) -> None:
        """Hold the button ``name`` down for ``seconds`` (this thread waits), then let go.

        :raises RequestError: when the pin map has no such button.
        """
        pin, lock = self._button(name)
        with lock:
            pin.drive_low()
            try:
                threading.Event().wait(seconds)  # the hand on the button: the hold itself
            finally:
                pin.drive_high()
