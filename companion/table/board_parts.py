"""What the table needs of the ring board's hardware, as protocols (the seam to ``firmware``).

The table never imports ``firmware``: it declares here what it uses of the opened parts
(the ring bank, the LED strip, the maps, the emulator's turner) and the process wiring hands
it ``firmware.hardware.Hardware``, which satisfies :class:`BoardHardware` structurally
(``mypy --strict`` checks it where the process is wired). Every member is read-only, as the
firmware's frozen dataclasses and named tuples are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from companion.table.led_scenes import RGB, LedMapLike


class RingSensedLike(Protocol):
    """Where one ring stands as sensed: its offset, and whether it is in a slot and at rest."""

    @property
    def offset(self) -> int: ...
    @property
    def aligned(self) -> bool: ...
    @property
    def settled(self) -> bool: ...
    @property
    def detents(self) -> int: ...


class RingReportLike(RingSensedLike, Protocol):
    """One change of one ring (``firmware.rings.RingReport``)."""

    @property
    def ring(self) -> int: ...
    @property
    def kind(self) -> str: ...


class RingStatusLike(RingSensedLike, Protocol):
    """One ring's sensed state and health (``firmware.rings.RingStatus``)."""

    @property
    def edges(self) -> int: ...
    @property
    def errors(self) -> int: ...
    @property
    def last_movement(self) -> float | None: ...
    @property
    def line_edges(self) -> tuple[int, int]: ...
    @property
    def line_errors(self) -> tuple[int, int]: ...


class RingBankLike(Protocol):
    """The ten ring sensors (``firmware.rings.RingBank``)."""

    @property
    def spokes(self) -> int: ...
    def status(self) -> Sequence[RingStatusLike]: ...
    def offsets(self) -> list[int]: ...
    def zero(self) -> None: ...
    def set_offset(self, ring: int, offset: int) -> None: ...
    def set_spokes(self, spokes: int, offsets: Sequence[int] | None = None) -> None: ...


class StripLike(Protocol):
    """The LED strip (``firmware.leds.LedStrip``)."""

    def show(self, frame: Sequence[tuple[int, int, int]]) -> None: ...


class TurnerLike(Protocol):
    """The emulator's hand on the rings and buttons (``firmware.emulator.RingTurner``)."""

    def turn(self, ring: int, detents: int, bounce: bool = False, drop: int = 0) -> None: ...
    def press(self, name: str) -> None: ...


class RingPinsLike(Protocol):
    """One ring's encoder wiring (``firmware.maps.RingPins``): what a slot is in detents."""

    @property
    def a(self) -> int: ...
    @property
    def b(self) -> int: ...
    @property
    def detents_per_slot(self) -> int: ...


class StripConfigLike(Protocol):
    """The strip's wiring (``firmware.maps.StripConfig``)."""

    @property
    def count(self) -> int: ...


class PinMapLike(Protocol):
    """Everything wired to the header (``firmware.maps.PinMap``)."""

    @property
    def rings(self) -> Sequence[RingPinsLike]: ...
    @property
    def leds(self) -> StripConfigLike: ...
    @property
    def buttons(self) -> Mapping[str, int]: ...


class BoardHardware(Protocol):
    """The opened parts of the ring board (``firmware.hardware.Hardware``).

    ``turner`` is ``None`` on a real board; ``strip`` is ``None`` where no strip is wired.
    """

    @property
    def bank(self) -> RingBankLike: ...
    @property
    def strip(self) -> StripLike | None: ...
    @property
    def turner(self) -> TurnerLike | None: ...
    @property
    def pin_map(self) -> PinMapLike: ...
    @property
    def led_map(self) -> LedMapLike: ...
    @property
    def emulated(self) -> bool: ...
    def close(self) -> None: ...


RingReporter = Callable[[RingReportLike], None]
"""Where the bank hands each ring report (the table's ``when_ring``)."""
ButtonReporter = Callable[[str], None]
"""Where the buttons hand each press (the table's ``when_button``)."""
HardwareOpener = Callable[[RingReporter, ButtonReporter, int, "list[int] | None"], BoardHardware]
"""``(report_ring, report_button, spokes, offsets) -> the opened hardware``."""

__all__ = [
    "RGB",
    "BoardHardware",
    "ButtonReporter",
    "HardwareOpener",
    "LedMapLike",
    "PinMapLike",
    "RingBankLike",
    "RingPinsLike",
    "RingReportLike",
    "RingReporter",
    "RingSensedLike",
    "RingStatusLike",
    "StripConfigLike",
    "StripLike",
    "TurnerLike",
]
