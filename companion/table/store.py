"""Durable storage of the table: one SQLite file in the data directory.

What the file holds is ``companion.table.schema``; a game's state is the replay of its
journal. The file runs in WAL mode with ``synchronous=FULL``: a change returned by a method
here is on disk (one fsync each). Every change is one transaction; when SQLite refuses it (a
full disk, an I/O error) the transaction is rolled back, nothing already stored is touched
and :class:`StorageError` says what happened. For an SD card (``idle_writes``): small pages in
a new file; settled ring offsets and checkpoints wait for an idle table. Older
files are migrated on open, a file from a newer release is refused. A file that is not a
database or fails ``PRAGMA quick_check`` is moved aside (never deleted) and a new one is
started, with a warning that names the backup.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.table import clock, idle_writes
from companion.table.errors import StorageError
from companion.table.idle_writes import IdleWrites, upsert_offsets
from companion.table.schema import (
    ENTRY_SPAN,
    MIGRATIONS,
    SCHEMA_VERSION,
    Also,
    GameRow,
    OwnerRow,
    describe_sqlite_error,
)

log = logging.getLogger(__name__)

DB_NAME = "table.db"
"""The database file's name inside the data directory."""
DAMAGED_KEY = "damaged_copies"
"""The setting that lists the damaged files set aside, until the owner dismisses them."""


def compact(value: Any) -> str:
    """JSON as the file keeps it: without spaces (fewer bytes, fewer pages on the card)."""
    return json.dumps(value, separators=(",", ":"))


JOURNAL_INSERT = (
    "INSERT INTO journal (entry, game_id, seq, action, at) VALUES"
    f" ((SELECT number FROM games WHERE id = ?) * {ENTRY_SPAN} + ?, ?, ?, ?, ?)"
)
"""A journal entry (the game's id and seq, then its id, seq, action, time): its key says both."""
COLUMNS = "id, kind, setup, version, created, updated, seed, rolls, dice, dice_source"
"""The ``games`` columns a :class:`~companion.table.schema.GameRow` is read from."""


class Store:
    """The table's SQLite file; used by the table thread only (one connection, no sharing)."""

    def __init__(self, data_dir: Path, *, max_page_count: int | None = None) -> None:
        """Open (creating, migrating or recovering) ``<data_dir>/table.db``.

        ``max_page_count`` caps the file's size in pages (SQLite's ``PRAGMA max_page_count``;
        tests use it to stand in for a full disk).

        :raises StorageError: when the directory or file cannot be used at all, or the file
            comes from a newer release.
        """
        self.path = data_dir / DB_NAME
        self.warnings: list[str] = []
        self.idle = IdleWrites()
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageError(f"data directory {data_dir}: cannot create it: {error}") from error
        set_aside: tuple[Path, str] | None = None
        try:
            self.db = self._open()
        except sqlite3.DatabaseError as error:
            if not self._damaged(error):
                raise StorageError(f"{self.path}: cannot open the database: {error}") from error
            backup = self._set_aside(str(error))
            self.warnings.append(
                f"{self.path} was damaged ({error}); it was kept as {backup} and a new, "
                "empty database was started"
            )
            log.error("%s", self.warnings[-1])
            try:
                self.db = self._open()
            except sqlite3.Error as again:
                raise StorageError(f"{self.path}: cannot start a new database: {again}") from again
            set_aside = (backup, str(error))
        if max_page_count is not None:
            self.db.execute(f"PRAGMA max_page_count = {int(max_page_count)}")
        self._identity = self._file_identity()
        if set_aside is not None:
            self.keep_damaged_notice(*set_aside)
        self.gone: str | None = None
        """Why the file is no longer where it was opened (every write is refused), or None."""

    @staticmethod
    def _damaged(error: sqlite3.DatabaseError) -> bool:
        text = str(error)
        return isinstance(error, sqlite3.DatabaseError) and (
            "not a database" in text or "malformed" in text or "damaged" in text
        )

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute(f"PRAGMA page_size = {idle_writes.PAGE_SIZE}")  # a new, empty file only
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise sqlite3.DatabaseError(f"cannot switch to WAL mode (got {mode})")
            db.execute("PRAGMA synchronous = FULL")
            db.execute(f"PRAGMA wal_autocheckpoint = {idle_writes.AUTO_CHECKPOINT_PAGES}")
            check = db.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                problems = "; ".join(str(row[0]) for row in check[:3])
                raise sqlite3.DatabaseError(f"the database is damaged: {problems}")
            self._migrate(db)
        except BaseException:
            db.close()
            raise
        return db

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"{self.path}: schema version {version} is newer than this release "
                f"understands ({SCHEMA_VERSION}); install a newer mandala-companion"
            )
        if version == SCHEMA_VERSION:
            return
        # A migration that rebuilds a table drops the old one: with foreign keys on, that
        # would delete the rows referring to it (SQLite's ALTER TABLE steps). They are
        # checked instead before each migration's commit.
        db.execute("PRAGMA foreign_keys = OFF")
        try:
            while version < SCHEMA_VERSION:
                db.execute("BEGIN IMMEDIATE")
                try:
                    MIGRATIONS[version](db)
                    broken = db.execute("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise sqlite3.DatabaseError(
                            f"schema {version + 1}: rows refer to missing ones: {broken[:3]}"
                        )
                    version += 1
                    db.execute(f"PRAGMA user_version = {version}")
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
        finally:
            db.execute("PRAGMA foreign_keys = ON")

    def _set_aside(self, reason: str) -> Path:
        stamp = time.strftime("%Y%m%dT%H%M%S")
        backup = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        number = 1
        while backup.exists():
            number += 1
            backup = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{number}")
        try:
            self.path.rename(backup)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    side.rename(backup.with_name(backup.name + suffix))
        except OSError as error:
            raise StorageError(
                f"{self.path} is damaged ({reason}) and cannot be moved aside: {error}; "
                "nothing was changed"
            ) from error
        return backup

    def keep_damaged_notice(self, backup: Path, reason: str) -> None:
        """Remember a damaged file set aside until the owner dismisses it (it survives restarts)."""
        notices = self.damaged_notices()
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        notices.append({"backup": str(backup), "reason": reason, "at": stamp})
        try:
            self.put_setting(DAMAGED_KEY, json.dumps(notices))
        except StorageError as failed:  # the warning above still says it for this run
            log.error("%s", failed)

    def damaged_notices(self) -> list[dict[str, str]]:
        """The damaged files set aside that the owner has not dismissed yet, oldest first."""
        value = self.setting(DAMAGED_KEY)
        try:
            found = json.loads(value) if value else []
        except ValueError:
            return []
        return [dict(item) for item in found if isinstance(item, dict)]

    def close(self) -> None:
        """Write the offsets kept, close the file (the last close checkpoints the WAL)."""
        self.idle.write(self, synced=True)
        self.db.close()

    def _file_identity(self) -> tuple[int, int] | None:
        try:
            found = os.stat(self.path)
        except OSError:
            return None
        return found.st_dev, found.st_ino

    def _check_in_place(self, what: str) -> None:
        """Refuse a write when the file is no longer the one at its path.

        The connection keeps writing to the file it opened even after the data directory
        was removed, moved or replaced: those writes would be answered as saved and found
        nowhere after a restart.

        :raises StorageError: ``"<what>: not saved: the database ... was removed ..."``.
        """
        if self._file_identity() == self._identity:
            return
        if self.gone is None:
            self.gone = (
                f"the database {self.path} was removed or replaced while the companion ran: "
                "nothing is saved any more; put the data directory back and restart the "
                "companion"
            )
            log.error("%s", self.gone)
        raise StorageError(f"{what}: not saved: {self.gone}")

    @contextmanager
    def transaction(self, what: str, *, synced: bool = True) -> Iterator[sqlite3.Connection]:
        """Run a block as one durable transaction; all of it lands or none of it does.

        The settled offsets kept (:attr:`idle`) go in with it. ``synced=False``
        (offsets only) commits without an fsync: a power cut may undo it, never half of it.

        :raises StorageError: ``"<what>: not saved: the disk is full"`` and the like, or when
            the file was removed from under the companion (see :meth:`_check_in_place`).
        """
        self._check_in_place(what)
        try:
            self.db.execute(f"PRAGMA synchronous = {'FULL' if synced else 'NORMAL'}")
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise StorageError(f"{what}: not saved: {describe_sqlite_error(error)}") from error
        try:
            if self.idle.offsets:
                upsert_offsets(self.db, self.idle.offsets)
            yield self.db
            self.db.execute("COMMIT")
            self.idle.committed()
        except sqlite3.Error as error:
            self._rollback()
            raise StorageError(
                f"{what}: not saved: {describe_sqlite_error(error)}; nothing was changed"
            ) from error
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.Error as error:  # SQLite may have rolled back by itself already
            log.debug("rollback: %s", error)

    # Reading ------------------------------------------------------------------------------

    def games(self, game_id: str | None = None) -> list[GameRow]:
        """Every game, oldest first (with ``game_id``: that one, when it is there)."""
        where, key = ("WHERE id = ?", (game_id,)) if game_id is not None else ("", ())
        rows = self.db.execute(f"SELECT {COLUMNS} FROM games {where} ORDER BY created, id", key)
        return [
            GameRow(
                id=row[0],
                kind=row[1],
                setup=json.loads(row[2]),
                version=row[3],
                created=row[4],
                updated=row[5],
                seed=row[6],
                rolls=row[7],
                dice=json.loads(row[8]) if row[8] is not None else None,
                dice_source=row[9],
            )
            for row in rows.fetchall()
        ]

    def journal(self, game_id: str) -> list[Any]:
        """A game's accepted actions in order, as record JSON."""
        rows = self.db.execute(
            f"SELECT j.action FROM games AS g, journal AS j WHERE g.id = ?"
            f" AND j.entry BETWEEN g.number * {ENTRY_SPAN} AND g.number * {ENTRY_SPAN} + ?"
            " ORDER BY j.entry",
            (game_id, ENTRY_SPAN - 1),
        ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def tokens(self) -> dict[str, dict[int, str]]:
        """Every game's token digests: game id -> seat (``HOST_SEAT`` for the host) -> digest."""
        found: dict[str, dict[int, str]] = {}
        for game_id, seat, digest in self.db.execute(
            "SELECT game_id, seat, digest FROM tokens ORDER BY game_id, seat"
        ).fetchall():
            found.setdefault(str(game_id), {})[int(seat)] = str(digest)
        return found

    def owners(self) -> list[OwnerRow]:
        """The phones holding the owner role, first paired first."""
        rows = self.db.execute(
            "SELECT id, digest, label, how, created FROM owners ORDER BY created, id"
        ).fetchall()
        return [OwnerRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4])) for r in rows]

    def ring_offsets(self) -> dict[int, int]:
        """The last settled offset of each ring seen so far (written or still kept)."""
        stored = dict(self.db.execute("SELECT ring, offset FROM rings").fetchall())
        return {**stored, **self.idle.offsets}

    def setting(self, key: str) -> str | None:
        """A setting's value, or None."""
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def integrity(self) -> list[str]:
        """``PRAGMA integrity_check`` of the file (``["ok"]`` when sound)."""
        return [str(row[0]) for row in self.db.execute("PRAGMA integrity_check").fetchall()]

    # Writing (each method is one transaction) ----------------------------------------------

    def add_game(
        self,
        row: GameRow,
        seats: list[str],
        actions: list[Any],
        *,
        tokens: dict[int, str] | None = None,
        also: Also | None = None,
    ) -> None:
        """Store a new game with its seats, (for an import) its journal, tokens and play."""
        with self.transaction("new game") as db:
            self._insert_game(db, row, seats, actions)
            db.executemany(
                "INSERT INTO tokens (game_id, seat, digest) VALUES (?, ?, ?)",
                [(row.id, seat, digest) for seat, digest in sorted((tokens or {}).items())],
            )
            if also is not None:
                also(db, row.updated)

    def set_token(self, game_id: str, seat: int, digest: str | None) -> None:
        """Store (or, with None, remove) the digest of a game's seat or host token."""
        with self.transaction("seat token") as db:
            if digest is None:
                db.execute("DELETE FROM tokens WHERE game_id = ? AND seat = ?", (game_id, seat))
            else:
                db.execute(
                    "INSERT INTO tokens (game_id, seat, digest) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, seat) DO UPDATE SET digest = excluded.digest",
                    (game_id, seat, digest),
                )

    def add_owner(self, row: OwnerRow) -> None:
        """Store a phone that now holds the owner role."""
        with self.transaction("owner") as db:
            db.execute(
                "INSERT INTO owners (id, digest, label, how, created) VALUES (?, ?, ?, ?, ?)",
                (row.id, row.digest, row.label, row.how, row.created),
            )

    def remove_owner(self, owner_id: str) -> bool:
        """Revoke a phone's owner role; say whether it held it."""
        with self.transaction("owner") as db:
            return db.execute("DELETE FROM owners WHERE id = ?", (owner_id,)).rowcount > 0

    def take_pair_code(self, code_digest: str, now: float) -> bool:
        """Use up a pairing code: say whether it was there and unexpired (it is gone after)."""
        with self.transaction("pairing code") as db:
            db.execute("DELETE FROM pair_codes WHERE expires <= ?", (now,))
            found = db.execute("DELETE FROM pair_codes WHERE digest = ?", (code_digest,))
            return found.rowcount > 0

    def clear_pair_codes(self) -> None:
        """Forget every pairing code (after too many wrong guesses)."""
        with self.transaction("pairing code") as db:
            db.execute("DELETE FROM pair_codes")

    @staticmethod
    def _insert_game(
        db: sqlite3.Connection, row: GameRow, seats: list[str], actions: list[Any]
    ) -> None:
        db.execute(
            "INSERT INTO games (id, kind, setup, version, created, updated, seed, rolls,"
            " dice, dice_source, clock, number) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " (SELECT COALESCE(MAX(number), 0) + 1 FROM games))",
            (
                row.id,
                row.kind,
                compact(row.setup),
                row.version,
                row.created,
                row.updated,
                row.seed,
                row.rolls,
                None if row.dice is None else compact(row.dice),
                row.dice_source,
                clock.PHONE if clock.from_phone() else None,
            ),
        )
        db.executemany(
            "INSERT INTO seats (game_id, seat, name) VALUES (?, ?, ?)",
            [(row.id, number, name) for number, name in enumerate(seats)],
        )
        db.executemany(
            JOURNAL_INSERT,
            [
                (row.id, seq, row.id, seq, compact(action), row.created)
                for seq, action in enumerate(actions, start=1)
            ],
        )

    def append(
        self,
        game_id: str,
        seq: int,
        action: Any,
        version: int,
        *,
        dice: dict[str, int] | None = None,
        word: str = "action",
        also: Also | None = None,
    ) -> float:
        """Journal step ``seq`` (a ``word``, e.g. turn), set the version and dice (``also``
        writes in the same transaction, e.g. the play a last step finishes)."""
        now = clock.now()
        with self.transaction(f"{word} {seq}") as db:
            db.execute(JOURNAL_INSERT, (game_id, seq, game_id, seq, compact(action), now))
            self._set_game(db, game_id, version, now, dice, None)
            if also is not None:
                also(db, now)
        return now

    def remove_last(
        self, game_id: str, seq: int, version: int, dice: dict[str, int] | None, source: str | None
    ) -> float:
        """Remove journal entry ``seq`` (the last), set the version and the live dice."""
        now = clock.now()
        with self.transaction("undo") as db:
            db.execute(
                f"DELETE FROM journal WHERE entry ="
                f" (SELECT number FROM games WHERE id = ?) * {ENTRY_SPAN} + ?",
                (game_id, seq),
            )
            self._set_game(db, game_id, version, now, dice, source)
        return now

    def set_dice(
        self,
        game_id: str,
        version: int,
        dice: dict[str, int] | None,
        source: str | None,
        rolls: int | None = None,
    ) -> float:
        """Store the dice of the turn in progress (and the roll counter when it rolled)."""
        now = clock.now()
        with self.transaction("dice") as db:
            self._set_game(db, game_id, version, now, dice, source)
            if rolls is not None:
                db.execute("UPDATE games SET rolls = ? WHERE id = ?", (rolls, game_id))
        return now

    @staticmethod
    def _set_game(  # noqa: PLR0917
        db: sqlite3.Connection,
        game_id: str,
        version: int,
        now: float,
        dice: dict[str, int] | None,
        source: str | None,
    ) -> None:
        db.execute(
            "UPDATE games SET version = ?, updated = ?, dice = ?, dice_source = ?,"
            " clock = COALESCE(?, clock) WHERE id = ?",
            (
                version,
                now,
                None if dice is None else compact(dice),
                source,
                clock.PHONE if clock.from_phone() else None,
                game_id,
            ),
        )

    def delete_game(self, game_id: str) -> None:
        """Remove a game with its seats and journal."""
        with self.transaction("delete") as db:
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            db.execute(
                "DELETE FROM settings WHERE key = 'active_rings_game' AND value = ?", (game_id,)
            )

    def save_offsets(self, offsets: dict[int, int]) -> None:
        """Store ring offsets now (a calibration, offsets fitted to another board)."""
        with self.transaction("ring offsets") as db:
            upsert_offsets(db, offsets)

    def put_setting(self, key: str, value: str | None) -> None:
        """Store (or, with None, remove) a setting."""
        with self.transaction("setting") as db:
            if value is None:
                db.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                db.execute(
                    "INSERT INTO settings (key, value) VALUES (?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
