"""The Health page's state on the table: the guided ring test, the LED test, buttons seen.

The :class:`HealthDesk` belongs to the table thread like everything else on the table: ring
reports and button presses reach it there, and while an LED test step is showing, the table
shows its frame instead of the game's until :data:`LED_TEST_HOLD_S` after the last step
(a phone that walks away does not leave the strip on the test).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Final

from companion.games.base import JSON
from companion.table.board_parts import RingReportLike
from companion.table.guided import LED_ROLES, RingTest, chase_frame, role_frame
from companion.table.led_scenes import RGB, LedMapLike

__all__ = ["LED_ROLES", "LED_SHOWS", "LED_TEST_HOLD_S", "HealthDesk", "RingTest"]

LED_TEST_HOLD_S: Final = 30.0
"""How long an LED test frame stays on the strip after the owner's last step."""
LED_SHOWS: Final = (*LED_ROLES, "pixel", "off")
"""What one LED test step may show: a role of the LED map, one pixel, or the game again."""


class HealthDesk:
    """What the Health page has started and what the table has seen for it."""

    def __init__(self) -> None:
        self.ring_test: RingTest | None = None
        self._frame: list[RGB] | None = None
        self._until = 0.0
        self.step: dict[str, JSON] | None = None
        self.presses: dict[str, int] = {}
        self.last_press: dict[str, float] = {}

    # Buttons ------------------------------------------------------------------------------

    def pressed(self, name: str) -> None:
        """Count a press of the button ``name`` (whatever it then does to the game)."""
        self.presses[name] = self.presses.get(name, 0) + 1
        self.last_press[name] = time.time()

    def buttons(self, wired: Sequence[str]) -> list[dict[str, JSON]]:
        """Each wired button with how often it was seen pressed since the start."""
        return [
            {
                "button": name,
                "presses": self.presses.get(name, 0),
                "last": self.last_press.get(name),
            }
            for name in wired
        ]

    # The ring test ------------------------------------------------------------------------

    def take_report(self, report: RingReportLike) -> None:
        """Pass a ring report on to a running ring test."""
        if self.ring_test is not None:
            self.ring_test.take(report)

    # The LED test -------------------------------------------------------------------------

    def show_role(self, led_map: LedMapLike, count: int, role: str) -> list[RGB]:
        """Hold the frame lighting ``role``'s pixels (see :func:`role_frame`)."""
        frame = role_frame(led_map, count, role)
        self._hold(frame, {"show": role})
        return frame

    def show_pixel(self, count: int, pixel: int) -> list[RGB]:
        """Hold the frame lighting only ``pixel`` (one step of the counted chase)."""
        frame = chase_frame(count, pixel)
        self._hold(frame, {"show": "pixel", "pixel": pixel, "of": count})
        return frame

    def _hold(self, frame: list[RGB], step: dict[str, JSON]) -> None:
        self._frame = frame
        self.step = step
        self._until = time.monotonic() + LED_TEST_HOLD_S

    def end_led_test(self) -> None:
        """Give the strip back to the game."""
        self._frame = None
        self.step = None
        self._until = 0.0

    def led_frame(self, now: float) -> list[RGB] | None:
        """The LED test's frame while it holds, else ``None`` (the game's frame shows)."""
        if self._frame is not None and now >= self._until:
            self.end_led_test()
        return self._frame

    def wake_in(self, now: float) -> float | None:
        """Seconds until the LED test's hold ends (the table wakes to show the game again)."""
        return max(0.0, self._until - now) if self._frame is not None else None
