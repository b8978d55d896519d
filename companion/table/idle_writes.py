"""The store's choices for an SD card: page size, checkpoints, settled offsets written later.

``bench/sd_writes.py`` measures them. A new file has :data:`PAGE_SIZE` pages, so a confirmed
turn appends a few small WAL frames. A confirmed action is synced
before the panel shows it (``companion.table.store``); a ring that comes to rest is no
confirmed action, so its offset waits here: it goes in with the next change's transaction
(and its fsync), or, when :data:`OFFSETS_WRITE_SECONDS` have passed with the table idle, in a
transaction of its own that is not synced (the next synced change, a checkpoint or the
kernel's write-back takes it to the card). The WAL is copied into the file when the table is
idle after :data:`CHECKPOINT_COMMITS` changes, not inside a confirm's commit (SQLite's own
checkpoint only past :data:`AUTO_CHECKPOINT_PAGES`). A checkpoint costs three fsyncs (the WAL
and the file, then the WAL's new header at the next change) and copies each page changed
since the last one once, so a rare one is cheap per turn. The table thread runs
:meth:`IdleWrites.work` when nothing else waits (``RingBoard.tick``).

Not chosen here: SQLite's ``-shm`` beside the file (the WAL index, memory-mapped) is written
back by the kernel about every 30 s while the table changes, which makes a slow turn cost
more bytes than a quick one; ``locking_mode=EXCLUSIVE`` would keep it in memory but lock
``mandala pair`` and ``mandala backup`` out of a running server's file.
"""

from __future__ import annotations

import logging
import sqlite3
from contextlib import AbstractContextManager
from typing import Protocol

from companion.table.errors import StorageError
from companion.table.schema import describe_sqlite_error

log = logging.getLogger(__name__)

PAGE_SIZE = 1024
"""A new file's page size: a confirmed turn appends about four WAL frames of it."""
AUTO_CHECKPOINT_PAGES = 10_000
"""SQLite's own checkpoint, inside a commit, for when the table is never idle (a WAL of about
10 MB; :data:`CHECKPOINT_COMMITS` changes write about half of that)."""

OFFSETS_WRITE_SECONDS = 1.0
"""The longest settled ring offsets wait in memory while the table thread is idle."""
RETRY_SECONDS = 30.0
"""How long offsets that could not be written wait before the next try (one log line each)."""
CHECKPOINT_COMMITS = 2000
"""Changes after which the table thread, once idle, copies the WAL into the file: 650 to
1,000 confirmed turns (the dice, the confirm, and the rings' offsets when written apart)."""


def upsert_offsets(db: sqlite3.Connection, offsets: dict[int, int]) -> None:
    """Store ring offsets in the open transaction (ring -> offset)."""
    db.executemany(
        "INSERT INTO rings (ring, offset) VALUES (?, ?)"
        " ON CONFLICT (ring) DO UPDATE SET offset = excluded.offset",
        sorted(offsets.items()),
    )


class Store(Protocol):
    """What the idle work uses of the store (``companion.table.store.Store``)."""

    db: sqlite3.Connection

    def transaction(
        self, what: str, *, synced: bool = True
    ) -> AbstractContextManager[sqlite3.Connection]:
        """One transaction, which writes the offsets kept (see the store)."""
        ...


class IdleWrites:
    """What the store still owes the file: unsaved offsets, and changes since a checkpoint."""

    def __init__(self) -> None:
        self.offsets: dict[int, int] = {}
        """Settled ring offsets not written yet (ring -> offset)."""
        self.since: float | None = None
        """When (``time.monotonic()``) the oldest of them came (moved on when a write failed)."""
        self.commits = 0
        """Changes committed since the last checkpoint."""

    def note(self, offsets: dict[int, int], now: float) -> None:
        """Keep settled offsets until they are written (a later one of a ring wins)."""
        self.offsets.update(offsets)
        if self.since is None:
            self.since = now

    def committed(self) -> None:
        """A change was committed, with every offset kept so far."""
        self.offsets, self.since = {}, None
        self.commits += 1

    def checkpoint_due(self) -> bool:
        """Say whether enough changes were committed for a checkpoint."""
        return self.commits >= CHECKPOINT_COMMITS

    def due_in(self, now: float) -> float | None:
        """Seconds until something is due (0: now; None: nothing waits)."""
        if self.checkpoint_due():
            return 0.0
        if self.since is None:
            return None
        return max(0.0, self.since + OFFSETS_WRITE_SECONDS - now)

    def work(self, store: Store, now: float) -> None:
        """Write the offsets kept (unsynced) once due, checkpoint once due; a write that
        fails is tried again :data:`RETRY_SECONDS` later."""
        due = self.due_in(now)
        if due is None or due > 0:
            return
        if not self.write(store, synced=False):
            self.since = now + RETRY_SECONDS - OFFSETS_WRITE_SECONDS
        if self.checkpoint_due():
            self.checkpoint(store)

    def checkpoint(self, store: Store) -> int | None:
        """Copy the WAL into the file now; answer the WAL's frames (pages) it held, or None
        when it failed (logged: SQLite's own checkpoint comes later)."""
        self.commits = 0
        try:
            row = store.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as error:
            log.error("checkpoint: %s", describe_sqlite_error(error))
            return None
        return int(row[1])

    def write(self, store: Store, *, synced: bool) -> bool:
        """Write the offsets kept now, if any; say whether that worked (failures are logged)."""
        if not self.offsets:
            return True
        try:
            with store.transaction("ring offsets", synced=synced):
                pass  # every transaction writes the offsets kept
        except StorageError as error:
            log.error("%s", error)
            return False
        return True
