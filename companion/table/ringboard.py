"""The ring board's live part, owned by the table: sensors, re-sync, live turn, LED scenes.

:class:`RingBoard` holds what the table knows of the physical board: the opened hardware
(through the protocols of ``companion.table.board_parts``, never ``firmware`` itself), the
last report of every ring, the re-sync in progress, the live turn worked out from them, the
LED scene and the frame on the strip, and the emulator's hand. It runs on the table thread
only (the emulator's turner is thread-safe and only drives pins). It knows no game kind
but the ring board's: the table tells it the state of the game on the board
(``on_board``), and asks it for the views and frames.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from companion.games import rings
from companion.games.base import JSON, RecordError, as_int
from companion.phrases import Phrase, say
from companion.table import led_scenes, live
from companion.table.board_parts import (
    BoardHardware,
    ButtonReporter,
    HardwareOpener,
    RingBankLike,
    RingReporter,
    RingReportLike,
    RingStatusLike,
    TurnerLike,
)
from companion.table.errors import Conflict, Forbidden, NotFound, StorageError
from companion.table.health import LED_ROLES, LED_SHOWS, HealthDesk, RingTest
from companion.table.led_scenes import RGB, Chase
from companion.table.sensors import (
    SPOKES_KEY,
    fit_offsets,
    memory_key,
    parse_offsets,
    parse_spokes,
)
from companion.table.store import Store

log = logging.getLogger(__name__)

ALERT_SECONDS = 0.5
"""How long the spokes stay red after an illegal ring turn (one pulse)."""
MAX_DETENTS = 1000
DEFAULT_SPOKES = 16
"""The spokes the sensors count when no game is on the board and no board is attached."""


def sense_of(status: RingStatusLike) -> live.RingSense:
    """One ring's sensed state as the live turn reads it."""
    return live.RingSense(
        offset=int(status.offset),
        aligned=bool(status.aligned),
        settled=bool(status.settled),
        edges=int(status.edges),
        errors=int(status.errors),
        last_movement=status.last_movement,
    )


class RingBoard:
    """The ring board on the table (table thread only).

    :param opener: ``None`` (no ring board) or what opens the hardware at :meth:`attach`.
    :param health: the Health page's desk (it sees every report; its LED test wins).
    :param on_board: the state of the game on the board, ``None`` when there is none.
    :param db: the table's store (it saves the sensed offsets there).
    """

    def __init__(
        self,
        opener: HardwareOpener | None,
        health: HealthDesk,
        on_board: Callable[[], rings.State | None],
        db: Callable[[], Store],
    ) -> None:
        self.opener = opener
        self.health = health
        self.on_board = on_board
        self._db = db
        self.hardware: BoardHardware | None = None
        self.sense: list[live.RingSense] = []
        self.resync: live.Resync | None = None
        self.live: live.LiveTurn | None = None
        self.frame: list[RGB] = []
        self.scene = led_scenes.Scene()
        self.alert_until = 0.0
        self.refusal: str | None = None
        self.last_reason: Phrase | None = None

    # Life cycle ---------------------------------------------------------------------------

    def attach(self, report_ring: RingReporter, report_button: ButtonReporter) -> None:
        """Open the hardware counting modulo the spokes of the game on the board.

        The offsets saved for another board are never handed to the sensors as they are.
        """
        if self.opener is None:
            return
        store = self._db()
        spokes = self.spokes()
        saved = store.ring_offsets()
        last = [saved.get(r, 0) for r in range(rings.RINGS)] if saved else None
        counted = parse_spokes(store.setting(SPOKES_KEY))
        offsets = fit_offsets(
            last, counted, spokes, parse_offsets(store.setting(memory_key(spokes)), spokes)
        )
        self.hardware = self.opener(report_ring, report_button, spokes, offsets)
        if offsets is not None and offsets != last:
            self._store_offsets(counted, last, offsets)
        self._remember_spokes(spokes)
        self.sense = [sense_of(status) for status in self.hardware.bank.status()]

    def close(self) -> None:
        """Blank the LEDs and close the hardware."""
        hardware = self.hardware
        if hardware is None:
            return
        with contextlib.suppress(Exception):
            count = self.led_count()
            if count and hardware.strip is not None:
                hardware.strip.show(led_scenes.blank(count))
        hardware.close()
        self.hardware = None

    # The sensors --------------------------------------------------------------------------

    def spokes(self) -> int:
        """The spokes of the board on the table (the game's, else the sensors')."""
        state = self.on_board()
        if state is not None:
            return int(state.board.spokes)
        if self.hardware is not None:
            return int(self.hardware.bank.spokes)
        return DEFAULT_SPOKES

    def fit_sensors(self, spokes: int) -> None:
        """Make the ring bank count modulo ``spokes`` (a board of another size went on).

        The offsets sensed on the old board are remembered for it; the new board starts
        from the offsets last sensed on a board of its size (see ``companion.table.sensors``).
        """
        if self.hardware is None:
            return
        bank = self.hardware.bank
        old = int(bank.spokes)
        if old == spokes:
            return
        current = [int(o) for o in bank.offsets()]
        store = self._db()
        offsets = fit_offsets(
            current, old, spokes, parse_offsets(store.setting(memory_key(spokes)), spokes)
        )
        # Reports queued under the old count are dropped or overwritten: the bank reports
        # every ring again ("set") once it counts modulo the new spokes.
        bank.set_spokes(spokes, offsets)
        self.sense = [sense_of(status) for status in bank.status()]
        self._store_offsets(old, current, [ring.offset for ring in self.sense])
        self._remember_spokes(spokes)

    def _store_offsets(self, old: int | None, last: list[int] | None, now: list[int]) -> None:
        """Remember ``last`` for boards of ``old`` spokes; store ``now`` as the offsets."""
        try:
            if old is not None and last is not None:
                self._db().put_setting(memory_key(old), json.dumps(last))
            self._db().save_offsets(dict(enumerate(now)))
        except StorageError as error:
            log.error("%s", error)

    def _remember_spokes(self, spokes: int) -> None:
        try:
            self._db().put_setting(SPOKES_KEY, str(spokes))
        except StorageError as error:
            log.error("%s", error)

    def take_report(self, report: RingReportLike) -> None:
        """Take one ring report into the sensed rings (and keep a ring come to rest's offset)."""
        self.health.take_report(report)
        ring = int(report.ring)
        if not 0 <= ring < len(self.sense) or not 0 <= int(report.offset) < self.spokes():
            return  # counted under another board's spokes (queued before a board change)
        old = self.sense[ring]
        self.sense[ring] = replace(
            old,
            offset=int(report.offset),
            aligned=bool(report.aligned),
            settled=bool(report.settled),
            last_movement=time.time() if report.kind == "moved" else old.last_movement,
        )
        if report.kind in ("settled", "set"):
            self._db().idle.note({ring: int(report.offset)}, time.monotonic())

    def bank(self) -> RingBankLike:
        """The ring bank. :raises Conflict: with no ring board attached."""
        if self.hardware is None:
            raise Conflict.said(say("no ring board is attached"))
        return self.hardware.bank

    def zero(self) -> None:
        """Every ring's mark is at the star: all offsets 0 (stored)."""
        self.bank().zero()
        self._recalibrated()

    def set_offset(self, ring: int, offset: int) -> None:
        """Set one ring's sensed offset by hand (stored).

        :raises NotFound: no such ring. :raises RecordError: offset out of 0..N-1.
        """
        bank = self.bank()
        if isinstance(ring, bool) or not isinstance(ring, int) or not 0 <= ring < rings.RINGS:
            raise NotFound(f"no ring {ring}: rings are 0..{rings.RINGS - 1}")
        as_int(offset, "offset", 0, self.spokes() - 1)
        bank.set_offset(ring, offset)
        self._recalibrated()

    def _recalibrated(self) -> None:
        self.sense = [sense_of(status) for status in self.bank().status()]
        self._db().save_offsets(dict(enumerate(ring.offset for ring in self.sense)))
        self.check_resync()

    # The re-sync --------------------------------------------------------------------------

    def start_resync(self, reason: live.ResyncReason, targets: Sequence[int]) -> None:
        """Guide the rings to ``targets`` (only with a ring board attached)."""
        if self.hardware is None:
            return
        self.resync = live.Resync(reason, tuple(targets))
        self.check_resync()

    def check_resync(self) -> None:
        """End the re-sync once every ring stands where it wants them."""
        if self.resync is not None and self.sense and live.resync_complete(self.resync, self.sense):
            self.resync = None

    def accept_offsets(self) -> None:
        """The seat accepts the sensed offsets. :raises Conflict: no re-sync in progress."""
        if self.resync is None:
            raise Conflict.said(say("nothing to accept: no re-sync is in progress"))
        self.resync = None

    def take_off(self) -> None:
        """The game on the board went (deleted): no re-sync, no live turn."""
        self.resync = None
        self.live = None

    def put_on(self, state: rings.State | None, over: bool, reason: live.ResyncReason) -> None:
        """A game went on the board: count its spokes, start its re-sync unless it is over."""
        self.resync = None
        self.refusal = None
        if self.hardware is None:
            return
        if state is not None:
            self.fit_sensors(int(state.board.spokes))
        if state is not None and not over:
            self.start_resync(reason, state.offsets)

    # The live turn ------------------------------------------------------------------------

    def compute_live(self, state: rings.State, dice: dict[str, int] | None) -> live.LiveTurn:
        """The turn in progress: the sensed rings matched against ``state`` and the dice."""
        return live.live_turn(state, dice, self.sense, self.resync)

    def game_view(self, on_board: bool, state: rings.State) -> dict[str, JSON]:
        """The live keys of the panel's state of a ring-board game (``on_board``: this one)."""
        return {
            "live": self.live.to_json() if on_board and self.live else None,
            "resync": (
                live.resync_view(self.resync, self.sense, int(state.board.spokes))
                if on_board and self.resync is not None and self.sense
                else None
            ),
            "refusal": self.refusal if on_board else None,
        }

    def refuse(self, reason: str) -> None:
        """A button press was refused: say why on the panel, pulse the spokes red."""
        self.refusal = reason
        self.alert_until = time.monotonic() + ALERT_SECONDS

    def refresh(
        self,
        state: rings.State | None,
        dice: dict[str, int] | None,
        board_changed: bool,
        chase: Callable[[], Chase | None],
    ) -> None:
        """Work out the live turn and the LED scene again for the game on the board."""
        self.live = None
        if state is None or not self.sense:
            self.scene = led_scenes.Scene()
            return
        turn = self.live = self.compute_live(state, dice)
        if board_changed:
            # Illegal ring turns blink the spokes red once: when the rings come to rest
            # away from the turn's start in a way the dice do not explain.
            settled = all(r.settled and r.aligned for r in self.sense)
            moved = any(
                r.offset != int(start) for r, start in zip(self.sense, state.offsets, strict=True)
            )
            reason = turn.reason if settled and moved and turn.dice is not None else None
            if reason is not None and reason != self.last_reason:
                self.alert_until = time.monotonic() + ALERT_SECONDS
            self.last_reason = reason
        guide: frozenset[int] = frozenset()
        if self.resync is not None:
            guide = frozenset(
                target
                for target, now in zip(self.resync.targets, self.sense, strict=True)
                if now.offset != target
            )
        self.scene = led_scenes.scene_of_rings(
            state,
            open_paths=turn.open_paths,
            advance=turn.advance_spokes,
            snipes=turn.snipe_spokes,
            guide=guide,
            illegal=self.alert_until > time.monotonic(),
            chase=chase(),
        )

    # The LEDs -----------------------------------------------------------------------------

    def led_warning(self) -> str | None:
        """The panel's warning when the LED map's spoke pixels do not fit the board."""
        if self.hardware is None or self.hardware.strip is None:
            return None
        return led_scenes.spokes_warning(self.hardware.led_map, self.spokes())

    def led_count(self) -> int:
        """The pixels of the strip (0 without one)."""
        hardware = self.hardware
        if hardware is None or hardware.strip is None:
            return 0
        return int(hardware.pin_map.leds.count)

    def show(self) -> bool:
        """Put the frame of now on the strip; say whether it changed."""
        count = self.led_count()
        if not count or self.hardware is None or self.hardware.strip is None:
            return False
        now = time.monotonic()
        frame = self.health.led_frame(now) or led_scenes.render_frame(
            self.scene, self.hardware.led_map, count, int(now * 4), spokes=self.spokes()
        )
        if frame == self.frame:
            return False
        self.frame = frame
        self.hardware.strip.show(frame)
        return True

    def wake_in(self, now: float) -> float | None:
        """Seconds until the frame changes by itself (a blink) or the store's idle work is due."""
        due = [t for t in (self._frame_wake_in(now), self._idle_due(now)) if t is not None]
        return min(due, default=None)

    def _idle_due(self, now: float) -> float | None:
        with contextlib.suppress(Conflict):  # no store while a restore swaps the file
            return self._db().idle.due_in(now)
        return None

    def _frame_wake_in(self, now: float) -> float | None:
        held = self.health.wake_in(now)
        if held is not None:
            return held
        if self.alert_until > now:
            return self.alert_until - now
        if self.scene.blinks:
            return 0.25 - (now % 0.25)
        return None

    def tick(self) -> bool:
        """Do the store's idle work, end an ended red pulse, show the frame (say if it changed)."""
        with contextlib.suppress(Conflict):  # no store while a restore swaps the file
            store = self._db()
            store.idle.work(store, time.monotonic())
        if self.alert_until and time.monotonic() >= self.alert_until:
            self.alert_until = 0.0
            self.scene = replace(self.scene, illegal=False)
        return self.show()

    def frame_json(self) -> list[JSON]:
        """The frame on the strip as the panel reads it."""
        return [list(pixel) for pixel in self.frame]

    # Views --------------------------------------------------------------------------------

    def view(self, game_id: str | None) -> dict[str, JSON]:
        """``GET /api/board``: the rings as sensed, the LED frame, which game is on."""
        hardware = self.hardware
        statuses: Sequence[RingStatusLike] = hardware.bank.status() if hardware else ()
        rings_json: list[JSON] = []
        for number, sense in enumerate(self.sense):
            status = statuses[number] if number < len(statuses) else None
            rings_json.append(
                {
                    "ring": number,
                    "offset": sense.offset,
                    "aligned": sense.aligned,
                    "settled": sense.settled,
                    "edges": int(status.edges) if status else sense.edges,
                    "errors": int(status.errors) if status else sense.errors,
                    "last_movement": status.last_movement if status else sense.last_movement,
                }
            )
        return {
            "offsets": [sense.offset for sense in self.sense],
            "rings": rings_json,
            "emulated": bool(hardware.emulated) if hardware is not None else False,
            "hardware": hardware is not None,
            "spokes": self.spokes(),
            "led_warning": self.led_warning(),
            "game": game_id,
            "leds": self.frame_json(),
        }

    # The emulator -------------------------------------------------------------------------

    def turner(self) -> TurnerLike:
        """The emulator's hand. :raises Conflict: no board. :raises Forbidden: a real one."""
        hardware = self.hardware
        if hardware is None:
            raise Conflict.said(say("no ring board is attached"))
        if not hardware.emulated or hardware.turner is None:
            raise Forbidden.said(
                say("emulator controls work only in emulation, not on real hardware")
            )
        return hardware.turner

    def emulator_turn(self, ring: int, detents: int) -> dict[str, JSON]:
        """Turn an emulated ring by ``detents`` clicks (genuine quadrature on the mock pins).

        Any thread: the turner is thread-safe and only drives pins; the decoder's reports
        come back through the table's queue like a hand on a real ring.
        """
        turner = self.turner()
        if not 0 <= ring < rings.RINGS:
            raise NotFound(f"no ring {ring}: rings are 0..{rings.RINGS - 1}")
        as_int(detents, "detents", -MAX_DETENTS, MAX_DETENTS)
        turner.turn(ring, detents)
        return {"ring": ring, "detents": detents}

    def emulator_press(self, name: str) -> dict[str, JSON]:
        """Press an emulated button (``done`` or ``undo``)."""
        turner = self.turner()
        assert self.hardware is not None
        wired = sorted(self.hardware.pin_map.buttons)
        if name not in wired:
            raise NotFound(f"no button {name!r}: the pin map wires {', '.join(wired) or 'none'}")
        turner.press(name)
        return {"button": name}

    def detents_per_slot(self, ring: int) -> int:
        """How many detents one slot of ``ring`` is (1 without a board)."""
        if self.hardware is None:
            return 1
        return int(self.hardware.pin_map.rings[ring].detents_per_slot)

    # The Health page ----------------------------------------------------------------------

    def start_ring_test(self) -> dict[str, JSON]:
        """Start the guided ring test afresh. :raises Conflict: with no ring board."""
        bank = self.bank()
        assert self.hardware is not None
        self.health.ring_test = RingTest(self.hardware.pin_map, bank.status())
        return self.health_view()

    def health_view(self) -> dict[str, JSON]:
        """The ring test's progress, the buttons seen and the LED test's step."""
        test = self.health.ring_test
        hardware = self.hardware
        wired = list(hardware.pin_map.buttons) if hardware is not None else []
        return {
            "rings": test.result(self.bank().status()) if test is not None else None,
            "buttons": self.health.buttons(wired),
            "led_step": self.health.step,
        }

    def led_test(self, show: str, pixel: JSON) -> None:
        """Hold one step of the LED test (the table then shows it).

        :raises RecordError: another ``show`` or a pixel not on the strip.
        :raises Conflict: with no LED strip attached.
        """
        count = self.led_count()
        if not count or self.hardware is None:
            raise Conflict.said(say("no LED strip is attached"))
        if show == "off":
            self.health.end_led_test()
        elif show == "pixel":
            number = as_int(pixel, "pixel", 0, count - 1)
            self.health.show_pixel(count, number)
        elif show in LED_ROLES:
            self.health.show_role(self.hardware.led_map, count, show)
        else:
            raise RecordError(f"show: {show!r} is not one of {', '.join(LED_SHOWS)}")
