"""Writes for an SD card: fsyncs per confirmed turn, settled ring offsets written in batches
when the table is idle, checkpoints when it is idle, small pages in a new file.

The fsyncs are counted for real: ``bench/sd_writes.py`` plays confirmed turns at a real table
(emulated rings turned on their pins) under ``strace``, which sees every ``fsync`` and
``fdatasync`` the process makes, SQLite's own included. Another connection to the file reads
what is in it (the WAL included), as a process started after a crash would.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

import pytest

from companion.table import Table
from companion.table.idle_writes import (
    AUTO_CHECKPOINT_PAGES,
    CHECKPOINT_COMMITS,
    OFFSETS_WRITE_SECONDS,
    PAGE_SIZE,
    RETRY_SECONDS,
)
from companion.table.store import DB_NAME, Store
from tests.table.conftest import opener, turn_ring, wait_for

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import sd_writes  # noqa: E402


def on_disk(data: Path) -> dict[int, int]:
    """The ring offsets in the file, as another process opening it reads them."""
    db = sqlite3.connect(data / DB_NAME)
    try:
        return dict(db.execute("SELECT ring, offset FROM rings").fetchall())
    finally:
        db.close()


def in_main_file(data: Path, key: str) -> bool:
    """Whether a setting is in the database file itself (its WAL ignored)."""
    db = sqlite3.connect(f"file:{data / DB_NAME}?immutable=1", uri=True)
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        found = (
            "settings" in tables
            and db.execute("SELECT 1 FROM settings WHERE key = ?", (key,)).fetchone()
        )
        return bool(found)
    finally:
        db.close()


@pytest.mark.slow
def test_a_confirmed_turn_costs_at_most_two_fsyncs(tmp_path: Path) -> None:
    # Each turn: the dice rolled (synced), rings turned and settled, a pause longer than the
    # offsets may wait (so they are written while the table is idle), the turn confirmed
    # (synced). Before the offsets were batched, every settled ring cost a synced write.
    turns = 6
    figures = sd_writes.measure(tmp_path / "data", turns, settle_ms=20, pause=1.2)
    assert len(figures["delays"]) >= turns  # rings were turned and settled
    assert 2 * turns - 1 <= figures["syncs"] <= 2 * turns
    # the checkpoint the turns owe, run after them: the WAL, then the file, once each
    assert figures["checkpoint_synced"] == {"table.db-wal": 1, "table.db": 1}
    # and the idle one comes first: the changes it waits for (at the pages these changes
    # wrote, a new file's tables included) fill less WAL than SQLite's own checkpoint waits for
    per_change = figures["wal_frames"] / figures["owed"]
    assert per_change * CHECKPOINT_COMMITS < AUTO_CHECKPOINT_PAGES


def test_a_settled_ring_reaches_the_file_while_the_table_is_idle(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Table(data, opener()) as table:
        turn_ring(table, 3, 2)
        # the hang guard is ten times the bound; the write comes OFFSETS_WRITE_SECONDS after
        wait_for(lambda: on_disk(data).get(3) == 2, timeout=10 * OFFSETS_WRITE_SECONDS)
        assert table.board()["offsets"][3] == 2


def test_settled_offsets_wait_in_memory_then_the_idle_work_writes_them(tmp_path: Path) -> None:
    store = Store(tmp_path)
    try:
        now = time.monotonic()
        store.idle.note({3: 5}, now)
        store.idle.note({3: 6, 4: 1}, now + 0.5)  # a later settle of a ring wins
        assert store.ring_offsets() == {3: 6, 4: 1}  # the table reads what it keeps
        assert on_disk(tmp_path) == {}
        assert store.idle.due_in(now) == OFFSETS_WRITE_SECONDS  # from the oldest one
        store.idle.work(store, now + OFFSETS_WRITE_SECONDS / 2)
        assert on_disk(tmp_path) == {}  # not due yet
        store.idle.work(store, now + OFFSETS_WRITE_SECONDS)
        assert on_disk(tmp_path) == {3: 6, 4: 1}
        assert store.idle.due_in(now + 5) is None  # nothing waits any more
    finally:
        store.close()


def test_settled_offsets_go_in_with_the_next_change(tmp_path: Path) -> None:
    store = Store(tmp_path)
    try:
        store.idle.note({0: 7}, time.monotonic())
        store.put_setting("key", "value")
        assert on_disk(tmp_path) == {0: 7}
        assert store.idle.due_in(time.monotonic()) is None
    finally:
        store.close()


def test_settled_offsets_survive_a_clean_stop(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.idle.note({1: 9, 2: 3}, time.monotonic())
    store.close()
    assert on_disk(tmp_path) == {1: 9, 2: 3}
    again = Store(tmp_path)
    try:
        assert again.ring_offsets() == {1: 9, 2: 3}
    finally:
        again.close()


def test_offsets_that_cannot_be_written_are_kept_and_tried_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store(tmp_path / "data")
    try:
        now = time.monotonic()
        store.idle.note({5: 4}, now)
        (tmp_path / "data").rename(tmp_path / "moved")
        store.idle.work(store, now + OFFSETS_WRITE_SECONDS)
        assert "ring offsets: not saved: the database" in caplog.text
        assert store.ring_offsets() == {5: 4}
        failed = now + OFFSETS_WRITE_SECONDS
        assert store.idle.due_in(failed) == RETRY_SECONDS  # one log line, not one a second
    finally:
        store.close()


def test_a_checkpoint_waits_for_an_idle_table_after_enough_changes(tmp_path: Path) -> None:
    store = Store(tmp_path)
    try:
        for number in range(CHECKPOINT_COMMITS):  # unsynced: the same pages, sooner
            with store.transaction("setting", synced=False) as db:
                db.execute(
                    "INSERT INTO settings (key, value) VALUES (?, 'value')", (f"key {number}",)
                )
        last = f"key {CHECKPOINT_COMMITS - 1}"
        assert not in_main_file(tmp_path, last)  # in the WAL only: no checkpoint in a commit
        assert store.idle.due_in(time.monotonic()) == 0.0
        store.idle.work(store, time.monotonic())
        assert in_main_file(tmp_path, last)
        assert store.idle.due_in(time.monotonic()) is None
    finally:
        store.close()


def test_a_new_file_has_small_pages_and_an_old_file_keeps_its_own(tmp_path: Path) -> None:
    store = Store(tmp_path / "new")
    try:
        assert store.db.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE == 1024
    finally:
        store.close()
    old = tmp_path / "old"
    old.mkdir()
    made = sqlite3.connect(old / DB_NAME)
    made.execute("PRAGMA page_size = 4096")
    made.execute("CREATE TABLE before (x)")
    made.close()
    store = Store(old)
    try:
        assert store.db.execute("PRAGMA page_size").fetchone()[0] == 4096
        store.put_setting("key", "value")
        assert store.setting("key") == "value"
    finally:
        store.close()
