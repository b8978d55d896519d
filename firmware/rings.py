"""The ring bank: ten encoders on gpiozero input pins, decoded into ring offsets.

Pin callbacks (lgpio's thread on a Pi, the mock factory's callback thread in emulation) only
decode and hand the change to the caller's ``report`` callback; the bank's own timer thread
reports each ring as settled once it has sat on one slot for ``settle_ms``. Both run under
one lock, so the reports of a ring arrive in the order the changes happened, and ``zero`` and
``set_offset`` from any other thread fall cleanly between two edges.

A ring's offset is the slot it last stood on: turning it part of the way to the next slot
leaves the offset alone and makes it *unaligned*; arriving on the next slot changes the
offset. ``detents_per_slot`` clicks make one slot; offsets are modulo the board's spokes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from gpiozero import InputDevice
from gpiozero.exc import GPIOZeroError

from firmware.decoder import LINE_A, LINE_B, Decoder, Step
from firmware.errors import HardwareError, RequestError
from firmware.maps import PinMap

ReportKind = Literal["moved", "settled", "set"]
DEFAULT_SETTLE_MS: Final = 300

_monotonic = time.monotonic
_new_tuple = tuple.__new__
_MOVED: Final[ReportKind] = "moved"
NO_FACTORY: Final = (
    "no pin factory given: choose the backend explicitly with firmware.pins.make_factory "
    "(gpiozero's default would fall back silently)"
)

log = logging.getLogger(__name__)


class RingReport(NamedTuple):
    """One change of one ring, handed to the bank's ``report`` callback.

    ``kind``: ``"moved"`` (an edge changed the offset, alignment or settledness),
    ``"settled"`` (it has sat on one slot for ``settle_ms``), ``"set"`` (``zero`` or
    ``set_offset`` changed it). ``detents`` is the raw count of detents turned since the bank
    started (clockwise positive; zero and set leave it alone).

    Immutable like a frozen dataclass, but a NamedTuple: one is made on the pin callback path
    for every change, and a NamedTuple costs a quarter of the time to build.
    """

    ring: int
    offset: int
    aligned: bool
    settled: bool
    kind: ReportKind
    detents: int


@dataclass(frozen=True)
class RingStatus:
    """One ring's sensed state and health.

    ``last_movement`` is the wall-clock time (seconds since the epoch) of the last edge, or
    ``None`` when it has not moved since the bank started.
    """

    offset: int
    aligned: bool
    settled: bool
    edges: int
    errors: int
    last_movement: float | None
    detents: int


_BETWEEN: Final = 0
"""An edge from one phase between rests to another: the ring was already unaligned."""
_LEFT: Final = 1
"""An edge from a rest to a phase between rests: the ring may have left its slot."""
_AT_REST: Final = 2
"""An edge arriving at a rest (where a detent may be counted)."""


def _where(old_at_rest: bool, new_at_rest: bool) -> int:
    if new_at_rest:
        return _AT_REST
    return _LEFT if old_at_rest else _BETWEEN


class _Ring:
    """A ring's mutable sensing state; touched only under the bank's lock."""

    __slots__ = (
        "aligned",
        "anchor_detent",
        "anchor_slot",
        "at_rest",
        "detents",
        "detents_per_slot",
        "edges",
        "errors",
        "fast_table",
        "index",
        "moved_at",
        "moving",
        "offset",
        "phase",
        "settled",
        "spokes",
    )

    def __init__(  # noqa: PLR0917
        self,
        index: int,
        decoder: Decoder,
        detents_per_slot: int,
        lines: int,
        offset: int,
        spokes: int,
    ) -> None:
        self.index = index
        self.spokes = spokes
        table: tuple[Step, ...] = decoder.edge_table
        self.at_rest = tuple(decoder.at_rest(p) for p in range(len(table) // 4))
        # The edge table with where each edge goes added: (phase, detents, error, where).
        self.fast_table = tuple(
            (*step, _where(self.at_rest[index // 4], self.at_rest[step.phase]))
            for index, step in enumerate(table)
        )
        if any(counted and where != _AT_REST for _, counted, _, where in self.fast_table):
            raise AssertionError("a decoder counted a detent away from a rest")
        self.detents_per_slot = detents_per_slot
        self.phase = decoder.start(lines)
        self.detents = 0
        self.edges = 0
        self.errors = 0
        self.moved_at: float | None = None
        self.anchor_detent = 0
        self.anchor_slot = offset
        self.offset = offset
        self.aligned = self.at_rest[self.phase]
        self.settled = self.aligned
        self.moving = False
        """Whether an edge came since the settle timer last looked (it settles the ring
        ``settle_ms`` after ``moved_at``)."""


class RingBank:
    """Ten rings' encoders, read through ``factory``'s pins.

    :param pin_map: the rings' pins and encoder types.
    :param spokes: the board's spokes (offsets are modulo this).
    :param factory: an explicitly chosen gpiozero pin factory (see :mod:`firmware.pins`).
    :param report: called with every :class:`RingReport`, from pin and timer threads while
        the bank's lock is held: it must only enqueue.
    :param settle_ms: how long a ring must sit on one slot to count as settled.
    :param offsets: persisted offsets to resume from (default all 0).
    :raises RequestError: when ``spokes``, ``settle_ms`` or ``offsets`` are out of range.
    :raises HardwareError: when a pin cannot be claimed.
    """

    def __init__(  # noqa: PLR0917 -- the contract's positional order
        self,
        pin_map: PinMap,
        spokes: int,
        factory: Any,
        report: Callable[[RingReport], None],
        settle_ms: int = DEFAULT_SETTLE_MS,
        offsets: Sequence[int] | None = None,
    ) -> None:
        if factory is None:
            raise HardwareError(NO_FACTORY)
        if isinstance(spokes, bool) or not isinstance(spokes, int) or spokes < 1:
            raise RequestError(f"spokes must be 1 or more, got {spokes!r}")
        if isinstance(settle_ms, bool) or not isinstance(settle_ms, int) or settle_ms < 0:
            raise RequestError(f"settle_ms must be 0 or more, got {settle_ms!r}")
        count = len(pin_map.rings)
        start = list(offsets) if offsets is not None else [0] * count
        if len(start) != count:
            raise RequestError(f"offsets: {len(start)} given for {count} rings")
        for index, offset in enumerate(start):
            self._check_offset(index, offset, spokes, "offsets")
        self.spokes = spokes
        self.settle_s = settle_ms / 1000
        self._report = report
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._devices: list[Any] = []
        self._handlers: list[Callable[[float, Any], None]] = []
        self._rings: list[_Ring] = []
        try:
            for index, pins in enumerate(pin_map.rings):
                a = self._claim(factory, pins.a, f"rings[{index}].a")
                b = self._claim(factory, pins.b, f"rings[{index}].b")
                lines = (2 if a.pin.state else 0) | (1 if b.pin.state else 0)
                self._rings.append(
                    _Ring(
                        index,
                        Decoder.for_ring(pins),
                        pins.detents_per_slot,
                        lines,
                        start[index],
                        spokes,
                    )
                )
            with self._lock:
                for ring in self._rings:
                    for line, device in (
                        (LINE_A, self._devices[2 * ring.index]),
                        (LINE_B, self._devices[2 * ring.index + 1]),
                    ):
                        handler = self._handler(ring, line)
                        self._handlers.append(handler)  # the pin only keeps a weak reference
                        device.pin.edges = "both"
                        device.pin.when_changed = handler
        except BaseException:
            self._close_devices()
            raise
        self._timer = threading.Thread(target=self._settle_loop, name="ring-settle", daemon=True)
        self._timer.start()

    def _claim(self, factory: Any, pin: int, key: str) -> Any:
        try:
            device = InputDevice(pin, pull_up=None, active_state=True, pin_factory=factory)
        except GPIOZeroError as error:
            raise HardwareError(f"{key}: cannot use GPIO{pin}: {error}") from error
        self._devices.append(device)
        if device.pin_factory is not factory:
            raise HardwareError(f"{key}: GPIO{pin} fell back to another pin backend")
        return device

    # -- the hot path ----------------------------------------------------------------------

    def _handler(self, ring: _Ring, line: int) -> Callable[[float, Any], None]:
        """Make the pin callback for one line of one ring: decode, then report any change.

        This is the hot path (every edge of every ring), so everything it needs is bound
        here: one look-up in the ring's edge table (which also says whether the edge arrives
        at a rest, where alone a detent is counted, leaves one, or runs between two), a few
        slot reads and writes, and a report only when the offset, alignment or settledness
        changes. The
        lock is taken with its bound methods rather than ``with``, which costs twice as much,
        and a report is built with ``tuple.__new__``, skipping the NamedTuple's Python-level
        ``__new__`` (half the cost).
        """
        low = line * 2
        high = low + 1
        acquire, release = self._lock.acquire, self._lock.release
        notify, report = self._wake.notify, self._report
        table = ring.fast_table
        per_slot = ring.detents_per_slot
        index = ring.index
        monotonic, new_report = _monotonic, _new_tuple

        def when_changed(ticks: float, state: Any) -> None:
            acquire()
            try:
                if self._closed:
                    return
                phase, counted, error, where = table[ring.phase * 4 + (high if state else low)]
                ring.phase = phase
                ring.edges += 1
                if error:
                    ring.errors += 1
                ring.moved_at = monotonic()
                if not ring.moving:
                    ring.moving = True
                    notify()
                if where == _AT_REST:
                    detents = ring.detents + counted
                    ring.detents = detents
                    slots, off_slot = divmod(detents - ring.anchor_detent, per_slot)
                    if not off_slot:  # on a slot
                        offset = (ring.anchor_slot + slots) % ring.spokes
                        if offset != ring.offset or not ring.aligned or ring.settled:
                            ring.offset = offset
                            ring.aligned = True
                            ring.settled = False
                            arrived = (index, offset, True, False, _MOVED, detents)
                            report(new_report(RingReport, arrived))
                        return
                # Between two rests a ring is never aligned (nor settled): only an edge that
                # leaves a rest, or one onto a rest off its slot, can change that.
                if where and (ring.aligned or ring.settled):  # it has left its slot
                    ring.aligned = ring.settled = False
                    unaligned = (index, ring.offset, False, False, _MOVED, ring.detents)
                    report(new_report(RingReport, unaligned))
            finally:
                release()

        return when_changed

    # -- settling --------------------------------------------------------------------------

    def _settle_loop(self) -> None:
        with self._wake:
            while not self._closed:
                now = time.monotonic()
                next_deadline: float | None = None
                for ring in self._rings:
                    if not ring.moving or ring.moved_at is None:
                        continue
                    deadline = ring.moved_at + self.settle_s
                    if deadline <= now:
                        ring.moving = False
                        if ring.aligned and not ring.settled:
                            ring.settled = True
                            self._send(ring, "settled")
                    elif next_deadline is None or deadline < next_deadline:
                        next_deadline = deadline
                self._wake.wait(None if next_deadline is None else next_deadline - now)

    def _send(self, ring: _Ring, kind: ReportKind) -> None:
        report = RingReport(ring.index, ring.offset, ring.aligned, ring.settled, kind, ring.detents)
        try:
            self._report(report)
        except Exception:
            # A failing consumer must not stop the timer (or the caller's zero/set).
            log.exception("ring report %s failed", report)

    # -- commands --------------------------------------------------------------------------

    @staticmethod
    def _check_offset(ring: int, offset: object, spokes: int, where: str) -> int:
        if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset < spokes:
            raise RequestError(f"{where}: ring {ring}: offset {offset!r} is out of 0..{spokes - 1}")
        return offset

    def _check_open(self) -> None:
        if self._closed:
            raise HardwareError("the ring bank is closed")

    def _set(self, ring: _Ring, offset: int) -> None:
        ring.anchor_detent = ring.detents
        ring.anchor_slot = offset
        aligned = ring.at_rest[ring.phase]
        if offset != ring.offset or aligned != ring.aligned:
            ring.offset = offset
            ring.aligned = aligned
            if not aligned:
                ring.settled = False
            self._send(ring, "set")

    def zero(self) -> None:
        """Make every ring's current slot offset 0 (every mark stands at the star).

        :raises HardwareError: when the bank is closed.
        """
        with self._lock:
            self._check_open()
            for ring in self._rings:
                self._set(ring, 0)

    def set_offset(self, ring: int, offset: int) -> None:
        """Make ring ``ring``'s current slot ``offset`` (a re-sync after a slip).

        :raises RequestError: when the ring or offset is out of range.
        :raises HardwareError: when the bank is closed.
        """
        if isinstance(ring, bool) or not isinstance(ring, int) or not 0 <= ring < len(self._rings):
            raise RequestError(f"ring {ring!r} is out of 0..{len(self._rings) - 1}")
        self._check_offset(ring, offset, self.spokes, "set offset")
        with self._lock:
            self._check_open()
            self._set(self._rings[ring], offset)

    def set_spokes(self, spokes: int, offsets: Sequence[int] | None = None) -> None:
        """Count offsets modulo ``spokes`` from now on (another board went on the table).

        Each ring's current slot becomes ``offsets[ring]`` (default: its offset modulo the new
        spokes), and every ring is reported with kind ``"set"`` -- even an unchanged one --
        so a consumer that queued reports counted under the old spokes ends on the new ones.

        :raises RequestError: when ``spokes`` or an offset is out of range.
        :raises HardwareError: when the bank is closed.
        """
        if isinstance(spokes, bool) or not isinstance(spokes, int) or spokes < 1:
            raise RequestError(f"spokes must be 1 or more, got {spokes!r}")
        with self._lock:
            self._check_open()
            start = (
                list(offsets)
                if offsets is not None
                else [ring.offset % spokes for ring in self._rings]
            )
            if len(start) != len(self._rings):
                raise RequestError(f"offsets: {len(start)} given for {len(self._rings)} rings")
            for index, offset in enumerate(start):
                self._check_offset(index, offset, spokes, "offsets")
            self.spokes = spokes
            for ring, offset in zip(self._rings, start, strict=True):
                ring.spokes = spokes
                ring.anchor_detent = ring.detents
                ring.anchor_slot = offset
                ring.offset = offset
                ring.aligned = ring.at_rest[ring.phase]
                if not ring.aligned:
                    ring.settled = False
                self._send(ring, "set")

    # -- queries ---------------------------------------------------------------------------

    def offsets(self) -> list[int]:
        """Return every ring's offset (the slot it last stood on)."""
        with self._lock:
            return [ring.offset for ring in self._rings]

    def status(self) -> list[RingStatus]:
        """Return every ring's state and health."""
        with self._lock:
            mono, wall = time.monotonic(), time.time()
            return [
                RingStatus(
                    offset=ring.offset,
                    aligned=ring.aligned,
                    settled=ring.settled,
                    edges=ring.edges,
                    errors=ring.errors,
                    last_movement=None if ring.moved_at is None else wall - (mono - ring.moved_at),
                    detents=ring.detents,
                )
                for ring in self._rings
            ]

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    def close(self) -> None:
        """Release the pins and stop the settle timer (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._wake.notify_all()
        if self._timer is not threading.current_thread():
            self._timer.join()
        self._close_devices()

    def _close_devices(self) -> None:
        for device in self._devices:
            device.close()
        self._devices.clear()
        self._handlers.clear()

    def __enter__(self) -> RingBank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
