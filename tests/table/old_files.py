"""Files as older releases left them, made from a current one (for the migration tests)."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from companion.table.schema import MIGRATIONS

REBUILT_BY_8 = ("journal", "plays")
"""The tables schema 8 makes again (its new forms are kept aside, the old ones put back)."""


def schema_sql(count: int) -> dict[str, str]:
    """Every table's, index's and trigger's SQL as the first ``count`` migrations make it."""
    with tempfile.TemporaryDirectory() as folder:
        db = sqlite3.connect(Path(folder) / "made.db", isolation_level=None)
        try:
            for migration in MIGRATIONS[:count]:
                migration(db)
            rows = db.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
            return {str(name): str(sql) for name, sql in rows.fetchall()}
        finally:
            db.close()


def as_schema_7(path: Path) -> None:
    """Turn a current (schema 8) file into what schema 7 had, keeping every row: the journal
    keyed by (game_id, seq) with its index, plays referring to its entries, no game numbers.
    """
    old = schema_sql(7)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("BEGIN IMMEDIATE")
        for trigger in ("journal_of_a_deleted_game", "play_of_a_removed_entry"):
            db.execute(f"DROP TRIGGER {trigger}")
        for table in REBUILT_BY_8:
            columns = [str(row[1]) for row in db.execute(f"PRAGMA table_info({table})")]
            kept = [name for name in columns if name != "entry"]
            db.execute(f"CREATE TEMP TABLE kept_{table} AS SELECT * FROM {table}")
            db.execute(f"DROP TABLE {table}")
            db.execute(old[table])
            listed = ", ".join(kept)
            db.execute(f"INSERT INTO {table} ({listed}) SELECT {listed} FROM kept_{table}")
            db.execute(f"DROP TABLE kept_{table}")
        db.execute(old["plays_by_end"])
        db.execute("DROP INDEX games_by_number")
        db.execute("ALTER TABLE games DROP COLUMN number")
        db.execute("PRAGMA user_version = 7")
        db.execute("COMMIT")
    finally:
        db.close()
