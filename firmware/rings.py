"""The ring bank: ten encoders on gpiozero input pins, decoded into ring offsets.

Pin callbacks (lgpio's thread on a Pi, the mock factory's callback thread in emulation) only
decode and hand the change to the caller's ``report`` callback; the bank's own timer thread
reports each ring as settled once it has sat on one slot for ``settle_ms``. Both run holding
one :class:`Token` (a lock cheap enough for every edge), so the reports of a ring arrive in
the order the changes happened, and ``zero`` and ``set_offset`` from any other thread fall
cleanly between two edges.

A ring's offset is the slot it last stood on: turning it part of the way to the next slot
leaves the offset alone and makes it *unaligned*; arriving on the next slot changes the
offset. ``detents_per_slot`` clicks make one slot; offsets are modulo the board's spokes.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from gpiozero import InputDevice

from firmware.decoder import LINE_A, LINE_B, Decoder, Step
from firmware.errors import HardwareError, RequestError
from firmware.maps import PinMap, Pull
from firmware.pins import claim_error, claim_errors, release, set_bias

ReportKind = Literal["moved", "settled", "set"]
DEFAULT_SETTLE_MS: Final = 300
SETTLE_POLL_S: Final = 0.005
"""How often the settle timer looks at a moving ring's edge count: a ring settles between
``settle_ms`` and ``settle_ms`` plus this after its last edge reached the bank."""

_new_tuple = tuple.__new__
_PULL_UP: Final[dict[Pull, bool | None]] = {"up": True, "down": False, "none": None}
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

    ``last_movement`` is the wall-clock time (seconds since the epoch) of the last edge, to
    within :data:`SETTLE_POLL_S`, or ``None`` when it has not moved since the bank started.
    """

    offset: int
    aligned: bool
    settled: bool
    edges: int
    errors: int
    last_movement: float | None
    detents: int
    line_edges: tuple[int, int] = (0, 0)
    """Edges seen on line A and on line B (a line that never moves shows 0 here)."""
    line_errors: tuple[int, int] = (0, 0)
    """Errors detected on an edge of line A and of line B."""


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
    """A ring's mutable sensing state; touched only while holding the bank's token."""

    __slots__ = (
        "aligned",
        "anchor_detent",
        "anchor_slot",
        "at_rest",
        "detents",
        "detents_per_slot",
        "edges_a",
        "edges_b",
        "errors_a",
        "errors_b",
        "index",
        "moved_at",
        "moving",
        "offset",
        "phase",
        "rows",
        "seen_edges",
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
        # The edge table as rows[line][level][phase] -> (phase, detents, error, where): the
        # step with where the edge goes added, split so that the pin callback of one line
        # picks the row of the level it reports with a branch (indexing a tuple by a bool
        # is not specialised and cost a tenth of the callback) and indexes it by the phase.
        phases = len(table) // 4
        steps = [
            (*step, _where(self.at_rest[code // 4], self.at_rest[step.phase]))
            for code, step in enumerate(table)
        ]
        if any(counted and where != _AT_REST for _, counted, _, where in steps):
            raise AssertionError("a decoder counted a detent away from a rest")
        self.rows = tuple(
            tuple(
                tuple(steps[phase * 4 + line * 2 + level] for phase in range(phases))
                for level in (0, 1)
            )
            for line in (LINE_A, LINE_B)
        )
        self.detents_per_slot = detents_per_slot
        self.phase = decoder.start(lines)
        self.detents = 0
        # Counted per line, so a line that never moves can be named (the Health page's ring
        # test); ``edges`` and ``errors`` are their sums.
        self.edges_a = 0
        self.edges_b = 0
        self.errors_a = 0
        self.errors_b = 0
        self.moved_at: float | None = None
        """When the settle timer saw ``edges`` change (monotonic seconds)."""
        self.seen_edges = 0
        """``edges`` as the settle timer last saw it."""
        self.anchor_detent = 0
        self.anchor_slot = offset
        self.offset = offset
        self.aligned = self.at_rest[self.phase]
        self.settled = self.aligned
        self.moving = False
        """Whether the settle timer is watching the ring: set by the edge that starts a
        movement, cleared when the ring has sat still for ``settle_ms``."""

    @property
    def edges(self) -> int:
        """Edges seen on both lines."""
        return self.edges_a + self.edges_b

    @property
    def errors(self) -> int:
        """Errors detected on both lines."""
        return self.errors_a + self.errors_b


class Token:
    """Mutual exclusion for the pin callbacks: one token in a deque, taken by ``pop``.

    A deque's ``pop`` and ``append`` are atomic (the standard library documents them as
    thread-safe), and as C methods without arguments to parse they cost about a quarter of
    a ``threading.Lock``'s ``acquire`` and ``release``: on the edge path, called for every
    edge of every ring, the lock was a third of our time. The pin callback takes the token
    with ``take()``, falls back to :meth:`acquire` only when ``take`` raises ``IndexError``
    (another thread holds it), and always hands it back with ``give(None)``.

    :meth:`retire` takes the token for good: whoever waits for it afterwards gets ``False``
    from :meth:`acquire` instead. Closing the bank retires its token, so the edge path needs
    no check of its own for a closed bank.

    Contention is rare (a ``zero`` or a settling against an edge) and short (the holder
    runs a few microseconds of Python), so a waiter polls every :data:`POLL_S`, releasing
    the GIL as it sleeps. It is not reentrant: code holding it must not take it again.
    """

    POLL_S: Final = 0.000_05

    __slots__ = ("give", "retired", "take")

    def __init__(self) -> None:
        held: collections.deque[None] = collections.deque([None])
        self.take: Callable[[], None] = held.pop
        """Take the token, or raise ``IndexError`` at once if another thread holds it."""
        self.give: Callable[[None], None] = held.append
        """Hand the token back (with ``None``): only its holder may, and only once."""
        self.retired = False

    def acquire(self) -> bool:
        """Take the token, waiting while another thread holds it; ``False`` once retired."""
        take = self.take
        while True:
            try:
                take()
            except IndexError:
                if self.retired:
                    return False
                time.sleep(self.POLL_S)
            else:
                return True

    def retire(self) -> bool:
        """Take the token and never give it back; ``False`` when it was retired already."""
        if not self.acquire():
            return False
        self.retired = True
        return True

    def __enter__(self) -> bool:
        """Hold the token for a ``with`` block: ``as`` gets ``False`` when it is retired."""
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        if not self.retired:  # a block entered after retire() took nothing to give back
            self.give(None)


class RingBank:
    """Ten rings' encoders, read through ``factory``'s pins.

    :param pin_map: the rings' pins and encoder types.
    :param spokes: the board's spokes (offsets are modulo this).
    :param factory: an explicitly chosen gpiozero pin factory (see :mod:`firmware.pins`).
    :param report: called with every :class:`RingReport`, from pin and timer threads while
        the bank's token is held: it must only enqueue.
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
        self._token = Token()
        self._wake = threading.Event()
        """Set when a ring starts moving, or the bank closes: the settle timer looks again."""
        self._devices: list[Any] = []
        self._handlers: list[Callable[[float, Any], None]] = []
        self._rings: list[_Ring] = []
        try:
            for index, pins in enumerate(pin_map.rings):
                a = self._claim(factory, pins.a, pins.pull, f"rings[{index}].a")
                b = self._claim(factory, pins.b, pins.pull, f"rings[{index}].b")
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
            with self._token:
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

    def _claim(self, factory: Any, pin: int, pull: Pull, key: str) -> Any:
        # The decoder reads raw levels (pin.state), so active_state only satisfies gpiozero.
        # No debounce: an encoder edge is never bounce to drop (the transition table
        # cancels bounce, and a dropped edge would be a lost step).
        pull_up = _PULL_UP[pull]
        try:
            device = InputDevice(
                pin,
                pull_up=pull_up,
                active_state=True if pull_up is None else None,
                pin_factory=factory,
            )
        except claim_errors() as error:
            raise claim_error(f"{key}", pin, error, factory) from error
        self._devices.append(device)
        if device.pin_factory is not factory:
            raise HardwareError(f"{key}: GPIO{pin} fell back to another pin backend")
        try:
            set_bias(device, pull)
        except claim_errors() as error:
            raise claim_error(f"{key} (pull = {pull!r})", pin, error, factory) from error
        return device

    # -- the hot path ----------------------------------------------------------------------

    def _handler(self, ring: _Ring, line: int) -> Callable[[float, Any], None]:
        """Make the pin callback for one line of one ring: decode, then report any change.

        This is the hot path (every edge of every ring), so everything it needs is bound
        here: one look-up in the line's rows of the ring's edge table (which also say whether
        the edge arrives at a rest, where alone a detent is counted, leaves one, or runs
        between two), a few slot reads and writes, and a report only when the offset,
        alignment or settledness changes. The bank's :class:`Token` is taken with its bound
        deque methods, and a report is built with ``tuple.__new__``, skipping the
        NamedTuple's Python-level ``__new__`` (half the cost).
        """
        low, high = ring.rows[line]
        take, give, wait = self._token.take, self._token.give, self._token.acquire
        wake, report = self._wake.set, self._report
        per_slot = ring.detents_per_slot
        index = ring.index
        new_report = _new_tuple
        is_a = line == LINE_A

        def when_changed(ticks: float, state: Any) -> None:
            try:
                take()
            except IndexError:  # another thread holds it: wait for it
                if not wait():  # retired: the bank has closed
                    return
            try:
                phase, counted, error, where = (high if state else low)[ring.phase]
                ring.phase = phase
                if is_a:
                    ring.edges_a += 1
                else:
                    ring.edges_b += 1
                if error:
                    if is_a:
                        ring.errors_a += 1
                    else:
                        ring.errors_b += 1
                if not ring.moving:  # the settle timer watches the edge count from now on
                    ring.moving = True
                    wake()
                if where == _AT_REST:
                    detents = ring.detents + counted
                    ring.detents = detents
                    slots = detents - ring.anchor_detent
                    if per_slot == 1 or not slots % per_slot:  # on a slot
                        offset = (ring.anchor_slot + slots // per_slot) % ring.spokes
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
                give(None)

        return when_changed

    # -- settling --------------------------------------------------------------------------

    def _settle_loop(self) -> None:
        """Settle each ring ``settle_ms`` after the edge count it last saw change.

        The edge path reads no clock (a clock read was a sixth of its cost): it only counts
        edges and wakes this timer when a ring starts moving. While any ring moves, the
        timer looks every :data:`SETTLE_POLL_S`; an edge count that changed since its last
        look restarts that ring's wait. Counting from when the timer saw the edge, which is
        after the edge reached the bank, a ring never settles before its last edge has.
        """
        settle_s = self.settle_s
        while True:
            self._wake.clear()  # before looking: a ring that starts moving after it wakes us
            with self._token as held:
                if not held:  # the bank has closed
                    return
                now = time.monotonic()
                timeout: float | None = None
                for ring in self._rings:
                    if not ring.moving:
                        continue
                    if ring.edges != ring.seen_edges:
                        ring.seen_edges = ring.edges
                        ring.moved_at = now
                    assert ring.moved_at is not None
                    left = ring.moved_at + settle_s - now
                    if left <= 0:
                        ring.moving = False
                        if ring.aligned and not ring.settled:
                            ring.settled = True
                            self._send(ring, "settled")
                    else:
                        look = min(left, SETTLE_POLL_S)
                        timeout = look if timeout is None else min(timeout, look)
            self._wake.wait(timeout)

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

    @staticmethod
    def _check_open(held: bool) -> None:
        if not held:  # its token is retired
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
        with self._token as held:
            self._check_open(held)
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
        with self._token as held:
            self._check_open(held)
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
        with self._token as held:
            self._check_open(held)
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
        with self._token:
            return [ring.offset for ring in self._rings]

    def status(self) -> list[RingStatus]:
        """Return every ring's state and health."""
        with self._token:
            mono, wall = time.monotonic(), time.time()
            return [
                RingStatus(
                    offset=ring.offset,
                    aligned=ring.aligned,
                    settled=ring.settled,
                    edges=ring.edges,
                    errors=ring.errors,
                    last_movement=self._last_movement(ring, mono, wall),
                    detents=ring.detents,
                    line_edges=(ring.edges_a, ring.edges_b),
                    line_errors=(ring.errors_a, ring.errors_b),
                )
                for ring in self._rings
            ]

    def line_levels(self) -> list[tuple[bool, bool]]:
        """Read every ring's lines A and B now, as the pins report them (True: high).

        :raises HardwareError: when the bank is closed.
        """
        with self._token as held:
            self._check_open(held)
            devices = list(self._devices)
        return [
            (bool(devices[2 * i].pin.state), bool(devices[2 * i + 1].pin.state))
            for i in range(len(self._rings))
        ]

    @staticmethod
    def _last_movement(ring: _Ring, mono: float, wall: float) -> float | None:
        if ring.edges != ring.seen_edges:  # it moved since the settle timer last looked
            return wall
        return None if ring.moved_at is None else wall - (mono - ring.moved_at)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._token.retired

    def close(self) -> None:
        """Release the pins and stop the settle timer (idempotent)."""
        if not self._token.retire():  # closed already
            return
        self._wake.set()
        if self._timer is not threading.current_thread():
            self._timer.join()
        self._close_devices()

    def _close_devices(self) -> None:
        for device in self._devices:
            release(device)
        self._devices.clear()
        self._handlers.clear()

    def __enter__(self) -> RingBank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
