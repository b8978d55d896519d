"""The box's time: its own clock when synchronised, else the first phone's that sends one.

A Raspberry Pi has no battery clock: without a time server it starts from the time it last
saved (``fake-hwclock``) and every game it stores would carry a wrong date. The panel sends
the phone's clock on its fetches (``X-Phone-Time``, milliseconds since 1970); while the box's
clock was never synchronised since boot, the first such time is taken (:meth:`BoxClock.offer`)
and from then on :func:`now` is the box's clock plus the difference. Stamps the table stored
before, in this run, are corrected by the same difference (the table does that, see
``companion.web.api_box``) and the correction is written down (:data:`MARK_KEY`), so the
times taken from a phone stay marked. The service cannot set the system clock itself
(its unit has ``ProtectClock=yes``).

Never taken: when the clock is synchronised (or cannot be told, e.g. no ``timedatectl``), a
second time, a phone time earlier than the box's (a box's saved clock is never ahead of the
real time), or one outside :data:`PLAUSIBLE`. When the clock becomes synchronised later, the
difference is dropped: the system clock is right from then on.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from companion.phrases import Phrase, Value, say, say_n
from companion.table.phones import phone_label_words

MARK_KEY: Final = "clock_taken"
"""The setting that records each time taken from a phone and the stamps corrected with it."""
PLAUSIBLE: Final = (1_704_067_200.0, 4_102_444_800.0)
"""Phone times outside 2024-01-01 .. 2100-01-01 (seconds since 1970) are never taken."""
AHEAD_SLACK_S: Final = 300.0
"""A phone time this much behind the box's own is still taken (their clocks disagree a bit)."""
CORRECT_MIN_S: Final = 60.0
"""Stamps are corrected only for a difference at least this large (less is the phones' own)."""
RECHECK_S: Final = 60.0
"""How often a box on a phone's time asks again whether its clock got synchronised."""
PHONE: Final = "phone"
"""A game's ``clock`` when any of its stamps came from a phone's time (else NULL)."""
HEADER: Final = "X-Phone-Time"
"""The request header the panel sends its clock in (milliseconds since 1970)."""

Synchronised = Callable[[], "bool | None"]
"""Say whether the system clock was synchronised since boot (``None``: cannot tell)."""


@dataclass(frozen=True)
class Taken:
    """A time taken from a phone: from whom, the difference, and when (the box's own clock)."""

    phone: str
    offset: float
    box_time: float


class BoxClock:
    """Where the companion's time comes from, and the difference to the box's clock."""

    def __init__(
        self,
        synchronised: Synchronised,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._synchronised = synchronised
        self._wall = wall
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._known: bool | None = None
        self._asked = float("-inf")
        self.taken: Taken | None = None
        self.corrected = 0
        """How many games' stamps were corrected with the phone's difference."""
        self.started = wall()
        """The box's clock when this run began (stamps from then on may need correcting)."""

    def synchronised(self) -> bool | None:
        """The system clock's state, asked at most every :data:`RECHECK_S` until it is."""
        with self._lock:
            if self._known is not True and self._monotonic() - self._asked >= RECHECK_S:
                self._asked = self._monotonic()
                self._known = self._synchronised()
                if self._known:
                    self.taken = None  # the system clock is right now: no difference any more
            return self._known

    def now(self) -> float:
        """The time to stamp with: the box's clock plus a phone's difference, if taken."""
        taken = self.taken
        if taken is not None and self.synchronised():
            taken = None
        return self._wall() + (taken.offset if taken is not None else 0.0)

    def from_phone(self) -> bool:
        """Say whether :meth:`now` is a phone's time (stamps made now are marked so)."""
        return self.taken is not None and not self.synchronised()

    def offer(self, value: str | None, phone: str) -> Taken | None:
        """Take ``value`` (the header's text) as the time if the box needs one; say if so."""
        if value is None or self.taken is not None:
            return None
        phone_time = parse_phone_time(value)
        if phone_time is None or self.synchronised() is not False:
            return None
        with self._lock:
            if self.taken is not None:
                return None
            box = self._wall()
            if phone_time < box - AHEAD_SLACK_S:
                return None
            self.taken = Taken(phone[:80], phone_time - box, box)
            return self.taken

    def source(self) -> dict[str, object]:
        """What the Health page says about the time: its ``source``, the details, and
        :meth:`source_phrase` as JSON (``phrase``, said in the phone's language)."""
        found, said = self._source()
        return {**found, "phrase": said.to_json()}

    def source_phrase(self) -> Phrase:
        """Where the time comes from, in words (``.english()`` for the log)."""
        return self._source()[1]

    def _source(self) -> tuple[dict[str, object], Phrase]:
        synced = self.synchronised()
        found: dict[str, object]
        if synced:
            found, said = {"source": "network"}, say("the box's clock is synchronised")
        elif (taken := self.taken) is not None:
            found = {"source": "phone", "phone": taken.phone, "offset_s": round(taken.offset, 3)}
            values: dict[str, Value] = {
                "phone": phone_label_words(taken.phone),
                "time": plain(taken.box_time + taken.offset),
                "difference": describe(taken.offset),
            }
            said = say(
                "taken from a phone ({phone}) at {time}: the box's clock was {difference}; "
                "it was never synchronised since boot",
                **values,
            )
            if self.corrected:
                said = say_n(
                    "{said}; the times of {count} game stored before were corrected",
                    "{said}; the times of {count} games stored before were corrected",
                    self.corrected,
                    said=said,
                )
        elif synced is False:
            found = {"source": "box"}
            said = say(
                "the box's own clock, which was never synchronised since boot; "
                "no phone has sent its time yet"
            )
        else:
            found = {"source": "box"}
            said = say(
                "the box's own clock, which cannot be checked; no phone has sent its time yet"
            )
        return found, said


def correct_stamps(database: str, since: float, taken: Taken) -> list[str]:
    """Add a phone's difference to the stamps stored from ``since`` until it was taken.

    Runs on the closed database (``Table.swap_data``): games' ``created`` and ``updated``, the
    journal's ``at``, the logbook's plays and players; those games are marked (``clock``
    :data:`PHONE`, as the store marks games stamped later on the phone's time). Writes down
    the correction under :data:`MARK_KEY` (the phone, the difference, when, which games) and
    returns the ids of the games it corrected.
    """
    until = taken.box_time + 1.0
    window = (since - 1.0, until)
    db = sqlite3.connect(database, isolation_level=None)
    try:
        db.execute("PRAGMA synchronous = FULL")
        db.execute("BEGIN IMMEDIATE")
        try:
            ids = [
                str(row[0])
                for row in db.execute(
                    "SELECT id FROM games WHERE created BETWEEN ? AND ? OR updated BETWEEN ? AND ? "
                    "OR id IN (SELECT game_id FROM journal WHERE at BETWEEN ? AND ?)",
                    window * 3,
                )
            ]
            for column in ("created", "updated"):
                db.execute(
                    f"UPDATE games SET {column} = {column} + ? WHERE {column} BETWEEN ? AND ?",
                    (taken.offset, *window),
                )
            db.execute(
                "UPDATE journal SET at = at + ? WHERE at BETWEEN ? AND ?", (taken.offset, *window)
            )
            for table, column in (("plays", "started"), ("plays", "ended"), ("players", "created")):
                db.execute(
                    f"UPDATE {table} SET {column} = {column} + ? WHERE {column} BETWEEN ? AND ?",
                    (taken.offset, *window),
                )
            db.executemany(
                f"UPDATE games SET clock = '{PHONE}' WHERE id = ?", [(game,) for game in ids]
            )
            found = db.execute("SELECT value FROM settings WHERE key = ?", (MARK_KEY,)).fetchone()
            marks = json.loads(found[0]) if found else []
            marks.append(
                {
                    "phone": taken.phone,
                    "offset_s": round(taken.offset, 3),
                    "at": iso(taken.box_time + taken.offset),
                    "games": sorted(ids),
                }
            )
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                (MARK_KEY, json.dumps(marks)),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    finally:
        db.close()
    return sorted(ids)


def parse_phone_time(value: str) -> float | None:
    """The header's milliseconds as seconds, or ``None`` when it is not a plausible time."""
    text = value.strip()
    if not text.isdigit() or len(text) > 16:
        return None
    seconds = int(text) / 1000
    return seconds if PLAUSIBLE[0] <= seconds < PLAUSIBLE[1] else None


def describe(offset: float) -> Phrase:
    """A clock's difference in plain words (``3 h 2 min behind``)."""
    minutes = round(abs(offset) / 60)
    if minutes == 0:
        return say("right to the minute")
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [f"{days} d"] * bool(days) + [f"{hours} h"] * bool(hours) + [f"{mins} min"] * bool(mins)
    time_ = " ".join(parts)
    return say("{time} behind", time=time_) if offset > 0 else say("{time} ahead", time=time_)


def plain(stamp: float) -> str:
    """A time as people read it, in UTC to the minute (``2026-12-01 23:30 UTC``)."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(stamp))


def iso(stamp: float) -> str:
    """A time as ISO 8601 in UTC to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


TIME_ERROR: Final = 5
"""``adjtimex``'s answer when the kernel clock is not synchronised."""
TIMESYNC_FLAG: Final = "/run/systemd/timesync/synchronized"


def system_synchronised() -> bool | None:
    """Whether this box's clock was synchronised since boot (``None``: it cannot tell).

    systemd-timesyncd's flag file, then ``timedatectl show -p NTPSynchronized`` (chrony and
    ntpd set the kernel's flag it reads), then the kernel's own ``adjtimex`` state.
    """
    if os.path.exists(TIMESYNC_FLAG):
        return True
    try:
        answer = subprocess.run(
            ["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
        if answer.returncode == 0 and answer.stdout.strip() in {"yes", "no"}:
            return answer.stdout.strip() == "yes"
    except (OSError, subprocess.SubprocessError):
        pass
    return kernel_synchronised()


def kernel_clock_state() -> int | None:
    """``adjtimex(2)``'s clock state for a read-only query (Linux; ``None`` elsewhere);
    :data:`TIME_ERROR` means unsynchronised."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        buffer = ctypes.create_string_buffer(512)  # struct timex, larger than any ABI's
        state = int(libc.adjtimex(buffer))
    except (OSError, AttributeError):
        return None
    return None if state < 0 else state


def kernel_synchronised() -> bool | None:
    """The kernel clock's state from ``adjtimex(2)`` (Linux; ``None`` elsewhere)."""
    state = kernel_clock_state()
    return None if state is None else state != TIME_ERROR


_installed: list[BoxClock] = [BoxClock(lambda: None)]  # until `mandala serve` installs its own


def install(clock: BoxClock) -> None:
    """Make ``clock`` the process's time source (``mandala serve`` does it as it starts)."""
    _installed[0] = clock


def current() -> BoxClock:
    """The process's time source."""
    return _installed[0]


def now() -> float:
    """The time to stamp with (see :meth:`BoxClock.now`)."""
    return _installed[0].now()


def from_phone() -> bool:
    """Whether stamps made now carry a phone's time (see :meth:`BoxClock.from_phone`)."""
    return _installed[0].from_phone()
