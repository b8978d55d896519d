"""Storage: WAL and FULL sync, schema versions, a damaged file set aside, a full disk.

A tiny filesystem is not available in the test environment, so a full disk is simulated
with SQLite's own ``PRAGMA max_page_count`` (the database cannot grow past it and SQLite
answers SQLITE_FULL, the same error a full disk gives).
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path

import pytest

from companion.games import rings
from companion.games.base import replay
from companion.table import StorageError, Table
from companion.table.logbook import ABANDONED_DAYS
from companion.table.schema import MIGRATIONS, SCHEMA_VERSION
from companion.table.store import DB_NAME
from tests.conftest import SPEC_EXAMPLES
from tests.table.conftest import TWO_SEATS
from tests.table.old_files import as_schema_7

ICEHOUSE = json.loads((SPEC_EXAMPLES / "icehouse-01-eye-after-a-pick.record.json").read_text())
FINISHED_ICEHOUSE = json.loads(
    (SPEC_EXAMPLES / "icehouse-09-winner-tie-break.record.json").read_text()
)


def test_the_database_runs_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game({"record": ICEHOUSE})
        assert table.state.store is not None
        db = table.state.store.db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_file_that_is_not_a_database_is_kept_aside_and_a_new_one_started(
    tmp_path: Path,
) -> None:
    tmp_path.mkdir(exist_ok=True)
    junk = b"these are not the pages you are looking for" * 200
    (tmp_path / DB_NAME).write_bytes(junk)
    with Table(tmp_path) as table:
        assert table.list_games() == []
        warnings = table.status()["warnings"]
        assert len(warnings) == 1
        backups = sorted(tmp_path.glob(f"{DB_NAME}.damaged-*"))
        assert len(backups) == 1
        assert backups[0].read_bytes() == junk  # kept, byte for byte
        assert warnings[0] == (
            f"{tmp_path / DB_NAME} was damaged (file is not a database); it was kept as "
            f"{backups[0]} and a new, empty database was started"
        )
        first = table.subscribe().get(1)
        assert first["warnings"] == warnings  # the panel shows it
        assert first["banner"] == []  # in the home page's own banner, not every page's
        table.create_game({"record": ICEHOUSE})
    with Table(tmp_path) as table:
        assert len(table.list_games()) == 1
        assert table.status()["warnings"] == []


def test_a_database_with_damaged_pages_is_kept_aside(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        for _ in range(30):
            table.create_game({"record": ICEHOUSE})
    path = tmp_path / DB_NAME
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    for index in range(page * 2, len(data), 7):  # scribble over every page but the first
        data[index] = 0xA5
    path.write_bytes(bytes(data))
    with Table(tmp_path) as table:
        assert table.list_games() == []
        (warning,) = table.status()["warnings"]
        assert warning.startswith(f"{path} was damaged (")
        (backup,) = tmp_path.glob(f"{DB_NAME}.damaged-*")
        assert backup.read_bytes() == bytes(data)


def test_a_database_that_cannot_be_opened_is_refused_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).mkdir(parents=True)
    table = Table(tmp_path)
    with pytest.raises(StorageError) as refused:
        table.start()
    assert str(refused.value) == (
        f"{tmp_path / DB_NAME}: cannot open the database: unable to open database file"
    )
    assert (tmp_path / DB_NAME).is_dir()
    assert list(tmp_path.glob("*.damaged-*")) == []


def test_a_data_directory_that_cannot_be_made_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    table = Table(blocker / "data")
    with pytest.raises(StorageError) as refused:
        table.start()
    assert str(refused.value).startswith(f"data directory {blocker / 'data'}: cannot create it:")


def test_a_database_from_a_newer_release_is_refused_and_kept(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game({"record": ICEHOUSE})
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("PRAGMA user_version = 99")
    db.close()
    table = Table(tmp_path)
    with pytest.raises(StorageError) as refused:
        table.start()
    assert str(refused.value) == (
        f"{tmp_path / DB_NAME}: schema version 99 is newer than this release understands "
        f"({SCHEMA_VERSION}); install a newer mandala-companion"
    )
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    db.close()


def test_an_empty_database_of_schema_version_0_is_migrated(tmp_path: Path) -> None:
    sqlite3.connect(tmp_path / DB_NAME).close()  # a file with no tables, user_version 0
    with Table(tmp_path) as table:
        table.create_game({"record": ICEHOUSE})
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {
        "games", "seats", "journal", "rings", "settings", "tokens", "owners", "pair_codes",
        "players", "player_names", "plays", "play_seats",
        "summaries",
    }  # fmt: skip
    db.close()


def schema_of(db: sqlite3.Connection) -> set[tuple[str, str]]:
    """Every table's and index's name and SQL (SQLite's own autoindexes included)."""
    rows = db.execute("SELECT name, COALESCE(sql, '') FROM sqlite_master").fetchall()
    return {(str(name), str(sql)) for name, sql in rows}


def made_by_migrations(path: Path, count: int) -> set[tuple[str, str]]:
    """The schema an empty file gets from the first ``count`` migrations."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for migration in MIGRATIONS[:count]:
            migration(db)
        return schema_of(db)
    finally:
        db.close()


def test_a_schema_6_database_is_migrated_in_place_keeping_its_games(tmp_path: Path) -> None:
    # Schema 7 drops the index of the games by their last move (one more SD page per dice
    # roll and per confirm). A box's file of schema 6, with a game in play and a finished one:
    data = tmp_path / "data"
    with Table(data) as table:
        playing = table.create_game(dict(TWO_SEATS))
        playing = table.act(playing["id"], playing["version"], {"roll": True})
        finished = table.create_game({"record": FINISHED_ICEHOUSE})
        views = {game["id"]: table.get_game(game["id"]) for game in (playing, finished)}
    as_schema_7(data / DB_NAME)
    db = sqlite3.connect(data / DB_NAME, isolation_level=None)
    db.execute("CREATE INDEX games_by_update ON games (updated, id, kind)")  # as schema 4 made it
    db.execute("PRAGMA user_version = 6")
    assert schema_of(db) == made_by_migrations(tmp_path / "six.db", 6)  # schema 6's very shape
    db.close()
    with Table(data) as table:
        # what another process reads while the server runs: the migration is committed
        other = sqlite3.connect(data / DB_NAME)
        assert other.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 8
        assert schema_of(other) == made_by_migrations(tmp_path / "eight.db", 8)
        assert "games_by_update" not in {name for name, _ in schema_of(other)}
        other.close()
        assert {key: table.get_game(key) for key in views} == views
        # the list of games left unfinished reads the games without the index
        later = time.time() + (ABANDONED_DAYS + 1) * 86400
        assert [game["id"] for game in table.logbook.abandoned(now=later)] == [playing["id"]]
        assert table.call(lambda: table.state.db().integrity()) == ["ok"]


def page_count(path: Path) -> int:
    db = sqlite3.connect(path)
    count = int(db.execute("PRAGMA page_count").fetchone()[0])
    db.close()
    return count


def test_a_full_disk_refuses_a_new_game_with_a_clear_error_and_loses_nothing(
    tmp_path: Path,
) -> None:
    with Table(tmp_path) as table:
        table.create_game({"record": ICEHOUSE})
    cap = page_count(tmp_path / DB_NAME) + 2
    with Table(tmp_path, max_page_count=cap) as table:
        created = []
        with pytest.raises(StorageError) as full:
            for _ in range(100):
                created.append(table.create_game({"record": ICEHOUSE})["id"])
        assert str(full.value) == "new game: not saved: the disk is full; nothing was changed"
        listing = table.list_games()
        assert len(listing) == 1 + len(created)
        assert table.integrity_check() == ["ok"]
    with Table(tmp_path) as table:
        assert table.list_games() == listing
        assert table.integrity_check() == ["ok"]


def test_a_full_disk_refuses_an_action_and_the_game_stays_as_it_was(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        game_id = table.create_game({**TWO_SEATS, "seed": 5})["id"]
    cap = page_count(tmp_path / DB_NAME)
    rng = random.Random(3)
    with Table(tmp_path, max_page_count=cap) as table:
        version = 1
        with pytest.raises(StorageError) as full:
            for _ in range(200):
                state = replay(rings, table.export(game_id))
                roll = rings.roll(rng, state.board)
                chosen = rng.choice(rings.legal_rotation_sets(state, roll))
                turn = {
                    "dice": roll,
                    "rotations": [{"ring": r.ring, "steps": r.steps} for r in chosen],
                }
                version = table.act(game_id, version, turn)["version"]
        turns = version - 1
        assert str(full.value) == (
            f"turn {turns + 1}: not saved: the disk is full; nothing was changed"
        )
        game = table.get_game(game_id)
        assert game["version"] == version
        assert game["state"]["turns"] == turns
        before = table.export(game_id)
        assert len(before["turns"]) == turns
    with Table(tmp_path) as table:
        assert table.export(game_id) == before
        assert table.get_game(game_id)["version"] == version
        assert table.integrity_check() == ["ok"]
