"""Backups of the data directory: what one holds, what a restore refuses, the rolling ones."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import sqlite3
import tarfile
import time
from pathlib import Path

import pytest

from companion.table import backup, rolling
from companion.table.backup import BackupRefused, check_backup, make_backup, restore_files
from companion.table.lock import lock_data_dir
from companion.table.store import DB_NAME, SCHEMA_VERSION
from companion.table.table import Table
from tests.conftest import tree

SEATS = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}]
GAME = {"kind": "rings", "seats": SEATS, "board": "reference", "variant": "standard"}
DICE = {"red": 1, "blue": 0, "green": 2, "yellow": 0, "brown": 3}


def filled(data: Path) -> list[dict[str, object]]:
    """A data directory with two games (one with a turn's dice), a board and a config file;
    returns the games' exported records."""
    with Table(data) as service:
        first = service.create_game(GAME)
        service.create_game({**GAME, "seats": SEATS[::-1]})
        service.act(str(first["id"]), 1, {"dice": DICE})
        records = [service.export(str(g["id"])) for g in service.list_games()]
    (data / "boards").mkdir(exist_ok=True)
    (data / "boards" / "ours.toml").write_text('name = "Ours"\n')
    (data / "config.toml").write_text("port = 80\n")
    return records


def records_in(data: Path) -> list[dict[str, object]]:
    with Table(data) as service:
        return [service.export(str(g["id"])) for g in service.list_games()]


def reheader(data: bytes, **changes: object) -> bytes:
    """The backup with header fields changed (the body and its checksum kept)."""
    first = data.index(b"\n", len(backup.MAGIC))
    header = {**json.loads(data[len(backup.MAGIC) : first]), **changes}
    return backup.MAGIC + json.dumps(header).encode() + data[first:]


def with_body(members: dict[str, bytes], kind: bytes = tarfile.REGTYPE) -> bytes:
    """A well-formed backup file whose archive holds ``members`` (checksum right)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            info.type = kind
            tar.addfile(info, io.BytesIO(content))
    body = gzip.compress(raw.getvalue())
    header = {
        "format": 1,
        "release": backup.release(),
        "schema": SCHEMA_VERSION,
        "created": "2026-12-01T00:00:00Z",
        "files": len(members),
        "bytes": len(body),
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    return backup.MAGIC + json.dumps(header).encode() + b"\n" + body


def test_a_backup_restores_every_game_board_and_config_on_a_fresh_box(tmp_path: Path) -> None:
    records = filled(tmp_path / "old")
    data = make_backup(tmp_path / "old")
    header = check_backup(data)
    assert (header.release, header.schema, header.files) == (backup.release(), SCHEMA_VERSION, 3)
    header_back, kept = restore_files(tmp_path / "new", data)
    assert header_back == header and kept is None  # nothing was there to keep
    assert records_in(tmp_path / "new") == records
    assert (tmp_path / "new" / "boards" / "ours.toml").read_text() == 'name = "Ours"\n'
    assert (tmp_path / "new" / "config.toml").read_text() == "port = 80\n"


def test_a_restored_file_keeps_who_may_read_it(tmp_path: Path) -> None:
    filled(tmp_path / "old")
    secret = tmp_path / "old" / "access-point.key"
    secret.write_text("a password\n")
    secret.chmod(0o600)
    (tmp_path / "old" / "config.toml").chmod(0o644)
    (tmp_path / "old" / "boards" / "ours.toml").chmod(0o775)
    restore_files(tmp_path / "new", make_backup(tmp_path / "old"))
    new = tmp_path / "new"
    assert (new / "access-point.key").read_text() == "a password\n"
    assert (new / "access-point.key").stat().st_mode & 0o777 == 0o600
    assert (new / "config.toml").stat().st_mode & 0o777 == 0o644
    assert (new / "boards" / "ours.toml").stat().st_mode & 0o777 == 0o644  # never more


def test_a_backup_leaves_out_the_lock_the_side_files_and_the_rolling_backups(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    filled(data)
    assert backup.keep_daily(data) is not None
    lock = lock_data_dir(data)
    with Table(data) as service:  # running: the -wal and -shm side files are there
        service.create_game(GAME)
        assert (data / f"{DB_NAME}-wal").exists()
        made = make_backup(data)
    lock.release()
    body = made[made.index(b"\n", len(backup.MAGIC)) + 1 :]
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(body))) as tar:
        names = sorted(tar.getnames())
    assert names == ["boards/ours.toml", "config.toml", DB_NAME]


def test_restoring_over_data_replaces_all_of_it_and_keeps_what_was_there(tmp_path: Path) -> None:
    old_records = filled(tmp_path / "old")
    data = make_backup(tmp_path / "old")
    target = tmp_path / "box"
    with Table(target) as service:
        service.create_game(GAME)
    (target / "stray.txt").write_text("made after the backup")
    before = records_in(target)
    _, kept = restore_files(target, data)
    assert records_in(target) == old_records
    assert not (target / "stray.txt").exists()
    assert kept is not None and kept.parent == target / backup.BACKUPS_DIR
    restore_files(tmp_path / "undo", kept.read_bytes())
    assert records_in(tmp_path / "undo") == before


def backup_and_box(tmp_path: Path) -> tuple[bytes, Path]:
    """A backup of one box with games, and another box with games of its own to restore on."""
    filled(tmp_path / "old")
    data = make_backup(tmp_path / "old")
    target = tmp_path / "box"
    filled(target)
    return data, target


def test_a_newer_release_or_schema_is_refused_in_one_line_and_nothing_changes(
    tmp_path: Path,
) -> None:
    data, target = backup_and_box(tmp_path)
    before = tree(target)
    newer_release = reheader(data, release="99.0.0")
    with pytest.raises(BackupRefused) as refused:
        restore_files(target, newer_release)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith(
        f"the backup was made by release 99.0.0 (schema {SCHEMA_VERSION}); this is "
    )
    assert message.endswith("install release 99.0.0 or later to restore it")
    with pytest.raises(BackupRefused, match=r"\(schema 99\)"):
        restore_files(target, reheader(data, schema=99))
    assert tree(target) == before


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda d: d[:-10], "the backup is damaged: its checksum does not match"),
        (lambda d: d[:-1] + bytes([d[-1] ^ 1]), "the backup is damaged: its checksum does not"),
        (lambda d: d.replace(b'"sha256"', b'"sha"', 1), "the backup is damaged: its header"),
        (lambda d: d[: len(backup.MAGIC) + 5], "the backup is damaged: its header"),
        (lambda d: b"PK\x03\x04" + d, "not a Mandala Companion backup"),
        (lambda d: b"", "not a Mandala Companion backup"),
    ],
)
def test_a_damaged_or_foreign_file_is_refused_and_nothing_changes(
    tmp_path: Path, damage: object, said: str
) -> None:
    data, target = backup_and_box(tmp_path)
    before = tree(target)
    with pytest.raises(BackupRefused, match=said):
        restore_files(target, damage(data))  # type: ignore[operator]
    assert tree(target) == before


@pytest.mark.parametrize(
    ("members", "said"),
    [
        ({"../escape.txt": b"x", DB_NAME: b""}, "it holds a file named '../escape.txt'"),
        ({"/etc/x": b"x"}, "it holds a file named '/etc/x'"),
        ({"boards/ours.toml": b"x"}, f"it holds no {DB_NAME}"),
        ({DB_NAME: b"not a database at all, but long enough" * 20}, "its database"),
    ],
)
def test_an_archive_with_bad_members_is_refused_and_nothing_changes(
    tmp_path: Path, members: dict[str, bytes], said: str
) -> None:
    target = tmp_path / "box"
    filled(target)
    before = tree(target)
    with pytest.raises(BackupRefused, match=f"the backup is damaged: {said}"):
        restore_files(target, with_body(members))
    assert tree(target) == before
    assert not (tmp_path / "escape.txt").exists()


def test_a_link_in_the_archive_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BackupRefused, match=r"'table\.db' is not a file"):
        restore_files(tmp_path / "box", with_body({DB_NAME: b""}, tarfile.SYMTYPE))
    assert not (tmp_path / "box" / DB_NAME).exists()


def test_a_directory_without_a_database_has_nothing_to_back_up(tmp_path: Path) -> None:
    with pytest.raises(BackupRefused, match=f"no {DB_NAME} there: nothing to back up"):
        make_backup(tmp_path)


def test_the_rolling_backup_is_made_once_a_day_and_keeps_the_last_seven(tmp_path: Path) -> None:
    data = tmp_path / "data"
    filled(data)
    day = 86400.0
    start = time.mktime((2026, 11, 1, 12, 0, 0, 0, 0, -1))
    for n in range(10):
        assert backup.keep_daily(data, start + n * day) is not None
        assert backup.keep_daily(data, start + n * day + 3600) is None  # the same day
    names = sorted(p.name for p in (data / backup.BACKUPS_DIR).iterdir())
    assert names == [f"daily-2026-11-{d:02d}{backup.SUFFIX}" for d in range(4, 11)]
    assert next(k.name for k in backup.kept_backups(data)) == f"daily-2026-11-10{backup.SUFFIX}"


def test_a_rolling_backup_after_the_data_directory_vanished_creates_nothing(
    tmp_path: Path,
) -> None:
    data, moved = tmp_path / "data", tmp_path / "moved"
    filled(data)
    data.rename(moved)
    rolling.roll(data)
    assert not data.exists()
    assert not (moved / backup.BACKUPS_DIR).exists()


def test_a_data_directory_moved_while_its_rolling_backup_is_made_is_not_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    data, moved = tmp_path / "data", tmp_path / "moved"
    filled(data)
    real = backup.make_backup

    def made_then_moved(folder: Path) -> bytes:  # the real backup; the folder moves after it
        made = real(folder)
        folder.rename(moved)
        return made

    monkeypatch.setattr(backup, "make_backup", made_then_moved)
    rolling.roll(data)
    assert not data.exists()  # neither data/ nor data/backups/ was made again
    assert not (moved / backup.BACKUPS_DIR).exists()
    assert "the rolling backup could not be made" in caplog.text


def test_a_backup_made_while_the_table_writes_is_one_consistent_state(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Table(data) as service:
        ids = [str(service.create_game(GAME)["id"]) for _ in range(3)]
        made = [make_backup(data)]
        for game_id in ids:
            service.act(game_id, 1, {"dice": DICE})
        made.append(make_backup(data))
    first, second = (tmp_path / "a", tmp_path / "b")
    restore_files(first, made[0])
    restore_files(second, made[1])
    for folder, versions in ((first, {1}), (second, {2})):
        with sqlite3.connect(folder / DB_NAME) as db:
            found = {row[0] for row in db.execute("SELECT version FROM games")}
        assert found == versions
