"""``mandala backup`` (the server running or not) and ``mandala restore`` (the server stopped)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.table import backup
from companion.table.lock import LOCK_NAME, lock_data_dir
from companion.table.schema import SCHEMA_VERSION
from companion.table.table import Table
from tests.conftest import assert_cli_error, run_cli, tree

SEATS = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}]
GAME = {"kind": "rings", "seats": SEATS, "board": "reference", "variant": "standard"}


def exported(data: Path) -> list[dict[str, object]]:
    with Table(data) as service:
        return [service.export(str(g["id"])) for g in service.list_games()]


def test_backup_while_the_server_runs_then_restore_on_a_fresh_box(tmp_path: Path) -> None:
    data, file = tmp_path / "data", tmp_path / "box.mandala-backup"
    data.mkdir()
    held = lock_data_dir(data)  # as `mandala serve` holds it
    with Table(data) as service:
        service.create_game(GAME)
        records = [service.export(str(g["id"])) for g in service.list_games()]
        made = run_cli(["backup", "--data", str(data), str(file)])
    held.release()
    assert made.status == 0, made
    assert made.stdout == f"mandala: backed up {data} to {file}\n"
    fresh = tmp_path / "fresh"
    restored = run_cli(["restore", "--data", str(fresh), str(file)])
    assert restored.status == 0, restored
    assert restored.stdout.startswith(f"mandala: restored {fresh} from {file} (made ")
    assert exported(fresh) == records


def backed_up(tmp_path: Path) -> tuple[Path, Path]:
    """A data directory with one game, and the backup ``mandala backup`` made of it."""
    data, file = tmp_path / "data", tmp_path / "box.mandala-backup"
    with Table(data) as service:
        service.create_game(GAME)
    assert run_cli(["backup", "--data", str(data), str(file)]).status == 0
    return data, file


def test_restore_is_refused_while_a_server_runs_and_nothing_changes(tmp_path: Path) -> None:
    data, file = backed_up(tmp_path)
    held = lock_data_dir(data)
    before = tree(data)
    refused = run_cli(["restore", "--data", str(data), str(file)])
    held.release()
    assert_cli_error(refused, f"data: {data} is in use by another mandala serve (process ")
    assert "stop it first" in refused.stderr
    del before[LOCK_NAME]  # the lock file goes with the server that held it
    assert tree(data) == before


def test_restore_refuses_a_newer_release_in_one_line(tmp_path: Path) -> None:
    data, file = backed_up(tmp_path)
    content = file.read_bytes()
    end = content.index(b"\n", len(backup.MAGIC))
    header = {**json.loads(content[len(backup.MAGIC) : end]), "release": "7.0"}
    file.write_bytes(backup.MAGIC + json.dumps(header).encode() + content[end:])
    before = tree(data)
    refused = run_cli(["restore", "--data", str(data), str(file)])
    said = f"the backup was made by release 7.0 (schema {SCHEMA_VERSION}); this is release "
    assert_cli_error(refused, said)
    assert tree(data) == before


def test_restore_refuses_a_damaged_or_foreign_file(tmp_path: Path) -> None:
    data, file = backed_up(tmp_path)
    before = tree(data)
    file.write_bytes(file.read_bytes()[:-5])
    assert_cli_error(
        run_cli(["restore", "--data", str(data), str(file)]),
        "mandala: the backup is damaged: its checksum does not match",
    )
    file.write_text('{"game": "rings"}\n')
    assert_cli_error(
        run_cli(["restore", "--data", str(data), str(file)]),
        "mandala: not a Mandala Companion backup",
    )
    assert_cli_error(
        run_cli(["restore", "--data", str(data), str(tmp_path / "missing")]),
        "missing: cannot read: No such file or directory",
    )
    assert tree(data) == before


def test_backup_of_a_directory_without_games_says_so(tmp_path: Path) -> None:
    assert_cli_error(
        run_cli(["backup", "--data", str(tmp_path), str(tmp_path / "x")]),
        f"{tmp_path}: no table.db there: nothing to back up",
    )
