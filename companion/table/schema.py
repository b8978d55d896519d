"""What the table's SQLite file holds: its tables, their migrations, and the rows read back.

Tables: ``games`` (kind, the record's setup with its seats and settings, the version, the
dice of the turn in progress, the roll counter of the game's seeded generator and the
game's ``number``), ``seats`` (names in seat order, for listing), ``journal`` (each game's
accepted actions in record format, numbered from 1; an entry's key is its game's number
times :data:`ENTRY_SPAN` plus its number, so a game's entries are one range of rows),
``rings`` (the last settled offset of each ring), ``settings`` (e.g. which ring-board game
is on the board) and ``tokens`` (SHA-256 digests of the host and
seat tokens of card games with hidden hands), ``owners`` (the digests of the owner tokens the
phones holding the owner role present, with a label and a public id to revoke them by) and
``pair_codes`` (digests of the one-time codes ``mandala pair`` prints, with their expiry);
the logbook's ``players``, ``player_names``, ``plays`` and ``play_seats``
(``companion.table.logbook_store`` says what they hold); ``summaries`` (what the
games list shows of each game's state, with the version it is of: the list needs no journal
replayed; a summary of an older version is worked out again).

``PRAGMA user_version`` carries the schema version: migration ``i`` brings a file from
version ``i`` to ``i + 1``. The store (``companion.table.store``) opens and changes the file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _schema_1(db: sqlite3.Connection) -> None:
    # executescript() would commit the migration's transaction: run statement by statement.
    script = """
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            setup TEXT NOT NULL,
            version INTEGER NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL,
            seed INTEGER NOT NULL,
            rolls INTEGER NOT NULL DEFAULT 0,
            dice TEXT,
            dice_source TEXT
        );
        CREATE TABLE seats (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        );
        CREATE TABLE journal (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        );
        CREATE TABLE rings (
            ring INTEGER PRIMARY KEY,
            offset INTEGER NOT NULL
        );
        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _schema_2(db: sqlite3.Connection) -> None:
    # Hidden-hand card games: the SHA-256 digests of each game's host token (seat -1) and
    # seat tokens (seat 0, 1, ...). The tokens themselves are never stored.
    db.execute(
        """
        CREATE TABLE tokens (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            digest TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )
        """
    )


def _schema_3(db: sqlite3.Connection) -> None:
    # The owner role: the digests of owner tokens (never the tokens) and of pairing codes.
    db.execute(
        """
        CREATE TABLE owners (
            id TEXT PRIMARY KEY,
            digest TEXT NOT NULL UNIQUE,
            label TEXT NOT NULL,
            how TEXT NOT NULL,
            created REAL NOT NULL
        )
        """
    )
    db.execute("CREATE TABLE pair_codes (digest TEXT PRIMARY KEY, expires REAL NOT NULL)")


def _schema_4(db: sqlite3.Connection) -> None:
    # The logbook: players (a name, a colour; every name a seat was given maps to one),
    # each finished play with its seats; written with the action that finishes the game.
    for statement in (
        """CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            colour TEXT NOT NULL,
            created REAL NOT NULL
        )""",
        """CREATE TABLE player_names (
            name TEXT PRIMARY KEY COLLATE NOCASE,
            player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE
        )""",
        # A play goes with the journal entry that finished it (an undo, a deleted game).
        """CREATE TABLE plays (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER,
            kind TEXT NOT NULL,
            variant TEXT,
            board TEXT,
            started REAL NOT NULL,
            ended REAL NOT NULL,
            figures TEXT NOT NULL,
            FOREIGN KEY (game_id, seq) REFERENCES journal(game_id, seq) ON DELETE CASCADE
        )""",
        "CREATE INDEX plays_by_end ON plays (ended, game_id)",
        """CREATE TABLE play_seats (
            game_id TEXT NOT NULL REFERENCES plays(game_id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            player_id INTEGER NOT NULL REFERENCES players(id),
            name TEXT NOT NULL,
            score INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            figures TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX play_seats_by_player ON play_seats (player_id, game_id)",
        # the games left unfinished, found by their last move without reading their large rows
        # (dropped by schema 7)
        "CREATE INDEX games_by_update ON games (updated, id, kind)",
    ):
        db.execute(statement)


def _schema_5(db: sqlite3.Connection) -> None:
    # The games list without replaying journals: each game's summary (JSON, see
    # companion.table.listing) and the game version it was worked out at.
    db.execute(
        """
        CREATE TABLE summaries (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            summary TEXT NOT NULL
        )
        """
    )


def _schema_6(db: sqlite3.Connection) -> None:
    # Where a game's times came from: NULL the box's own clock; "phone" when any of its
    # stamps was made (or corrected) on a phone's time (companion.table.clock).
    db.execute("ALTER TABLE games ADD COLUMN clock TEXT")


def _schema_7(db: sqlite3.Connection) -> None:
    # Kinder to the SD card: schema 4's index of the games by their last move was written
    # twice a turn (the dice, the confirm), one more WAL page each time, for a list of
    # abandoned games that reads nearly every game anyway; that list now reads the table.
    db.execute("DROP INDEX IF EXISTS games_by_update")


ENTRY_SPAN = 1 << 24
"""A journal entry's key is its game's ``number`` times this plus its ``seq`` (schema 8)."""


def _schema_8(db: sqlite3.Connection) -> None:
    # Kinder to the SD card: a confirmed turn's journal entry changed two b-trees, the rows'
    # table and the (game_id, seq) primary key's index, each a WAL frame. Now the entry's
    # rowid is the key: its game's number (a new column of games) times ENTRY_SPAN plus its
    # seq, so a game's entries are one range of the table and an entry one page. What the
    # index gave goes with it: a deleted game's entries and an undone entry's play are
    # removed by triggers. Tables rebuilt as SQLite's ALTER TABLE steps say: the store runs
    # migrations with foreign keys off (dropping the old journal must not delete the plays
    # referring to it) and checks them before the commit.
    span = ENTRY_SPAN
    for statement in (
        "ALTER TABLE games ADD COLUMN number INTEGER",
        "UPDATE games SET number = rowid",
        "CREATE UNIQUE INDEX games_by_number ON games (number)",
        """CREATE TABLE journal_8 (
            entry INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            at REAL NOT NULL
        )""",
        f"INSERT INTO journal_8 (entry, game_id, seq, action, at)"
        f" SELECT g.number * {span} + j.seq, j.game_id, j.seq, j.action, j.at"
        " FROM journal AS j JOIN games AS g ON g.id = j.game_id ORDER BY 1",
        "DROP TABLE journal",
        "ALTER TABLE journal_8 RENAME TO journal",
        # plays referred to journal (game_id, seq), which has no index now
        """CREATE TABLE plays_8 (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER,
            kind TEXT NOT NULL,
            variant TEXT,
            board TEXT,
            started REAL NOT NULL,
            ended REAL NOT NULL,
            figures TEXT NOT NULL
        )""",
        "INSERT INTO plays_8 SELECT game_id, seq, kind, variant, board, started, ended, figures"
        " FROM plays",
        "DROP TABLE plays",
        "ALTER TABLE plays_8 RENAME TO plays",
        "CREATE INDEX plays_by_end ON plays (ended, game_id)",
        f"""CREATE TRIGGER journal_of_a_deleted_game AFTER DELETE ON games BEGIN
            DELETE FROM journal
            WHERE entry BETWEEN old.number * {span} AND old.number * {span} + {span - 1};
        END""",
        """CREATE TRIGGER play_of_a_removed_entry AFTER DELETE ON journal BEGIN
            DELETE FROM plays WHERE game_id = old.game_id AND seq = old.seq;
        END""",
    ):
        db.execute(statement)


Also = Callable[[sqlite3.Connection, float], None]
"""More a store change writes in its own transaction (given the connection and its time)."""

HOST_SEAT = -1
"""The ``seat`` of a game's host token in the ``tokens`` table."""

#: Migration ``i`` brings a database from schema version ``i`` to ``i + 1``.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _schema_1,
    _schema_2,
    _schema_3,
    _schema_4,
    _schema_5,
    _schema_6,
    _schema_7,
    _schema_8,
)
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(frozen=True)
class OwnerRow:
    """One phone holding the owner role: its public id, token digest, label, how and when."""

    id: str
    digest: str
    label: str
    how: str
    created: float


@dataclass(frozen=True)
class GameRow:
    """One game as stored: everything but its journal."""

    id: str
    kind: str
    setup: dict[str, Any]
    version: int
    created: float
    updated: float
    seed: int
    rolls: int
    dice: dict[str, int] | None
    dice_source: str | None


def describe_sqlite_error(error: sqlite3.Error) -> str:
    """Say in plain words why SQLite refused a change."""
    text = str(error)
    if "full" in text:
        return "the disk is full"
    if "readonly" in text or "read-only" in text:
        return "the database is read-only"
    if "disk I/O" in text:
        return "the disk failed (I/O error)"
    return f"the database refused it ({text})"


def schema_version(path: Path) -> int:
    """Read the schema version of the database file at ``path``."""
    db = sqlite3.connect(path, timeout=10.0)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()
