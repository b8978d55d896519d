"""One server per data directory: a second ``mandala serve`` on it exits with one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.table.lock import LOCK_NAME, DataDirInUse, lock_data_dir
from tests.service.test_sigterm import Service


def test_a_second_lock_of_one_data_directory_is_refused_naming_the_holder(tmp_path: Path) -> None:
    held = lock_data_dir(tmp_path)
    try:
        assert (tmp_path / LOCK_NAME).read_text() == f"{os.getpid()}\n"
        with pytest.raises(DataDirInUse) as refused:
            lock_data_dir(tmp_path)
        assert str(refused.value) == (
            f"data: {tmp_path} is in use by another mandala serve (process {os.getpid()}); "
            "stop it first or give another --data"
        )
    finally:
        held.release()
    assert not (tmp_path / LOCK_NAME).exists()
    lock_data_dir(tmp_path).release()  # released: the directory can be locked again


def test_a_lock_file_left_by_a_killed_server_does_not_lock(tmp_path: Path) -> None:
    (tmp_path / LOCK_NAME).write_text("999999\n")  # what kill -9 or a power cut leaves
    held = lock_data_dir(tmp_path)
    assert (tmp_path / LOCK_NAME).read_text() == f"{os.getpid()}\n"
    held.release()


@pytest.mark.slow
def test_a_second_server_on_one_data_directory_exits_2_naming_the_first(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Service(data, tmp_path / "frames.jsonl", dict(os.environ))
    try:
        status, _ = first.request(
            "POST", "/api/games", {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1}
        )  # a new game (importing needs the owner)
        assert status == 201
        second = subprocess.run(
            [sys.executable, "-m", "companion.cli", "serve", "--emulate", "--port", "0",
             "--data", str(data)],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
        status, listing = first.request("GET", "/api/games")
        code, _, _, err = first.terminate()
    finally:
        first.kill()
    assert second.returncode == 2
    assert second.stdout == ""
    assert second.stderr.splitlines() == [
        f"mandala: data: {data} is in use by another mandala serve "
        f"(process {first.process.pid}); stop it first or give another --data"
    ]
    assert status == 200 and len(listing["games"]) == 1  # the first server serves on
    assert code == 0, err
    assert sorted(p.name for p in data.iterdir()) == ["backups", "boards", "table.db"]
