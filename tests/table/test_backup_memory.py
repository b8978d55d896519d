"""A backup is compressed as its tar is written: making one of a year of games holds the
compressed file in memory, not the whole database again besides it (issue 23: the day's
rolling backup runs while the box serves, within its memory)."""

from __future__ import annotations

import gzip
import io
import sqlite3
import tarfile
import tracemalloc
from pathlib import Path

from companion.files import split_header
from companion.table.backup import FORMAT, MAGIC, make_backup

DATABASE_BYTES = 6 * 1024 * 1024


def test_making_a_backup_holds_far_less_than_the_database_in_memory(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "table.db")
    row = ("a turn of a long game " * 50).encode()
    with db:
        db.execute("CREATE TABLE journal (body BLOB)")
        db.executemany("INSERT INTO journal VALUES (?)", [(row,)] * (DATABASE_BYTES // len(row)))
    db.close()
    assert (tmp_path / "table.db").stat().st_size >= DATABASE_BYTES
    tracemalloc.start()
    try:
        data = make_backup(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < DATABASE_BYTES / 3, f"{peak} bytes held at once for a {DATABASE_BYTES} database"
    header, body = split_header(data, MAGIC, FORMAT)
    assert header["bytes"] == len(body)
    with tarfile.open(fileobj=gzip.GzipFile(fileobj=io.BytesIO(body))) as tar:
        copy = tar.extractfile("table.db")
        assert copy is not None and len(copy.read()) == (tmp_path / "table.db").stat().st_size
