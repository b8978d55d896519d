"""The data directory removed, moved or made unwritable under a running ``mandala serve``.

SQLite keeps writing to the files it opened, even once they are unlinked: without a check,
every change was answered 200 and none was there after a restart. Now the next write is
refused with 503 and the JSON error, the panel's live stream carries the warning, and what
was acknowledged before is exactly what a restart finds.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from tests.service.test_sigterm import Service
from tests.web.browser import ROOT, pair_owner
from tests.web.conftest import is_error_format

ICEHOUSE = {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1}  # a new game: no owner needed


def first_event(port: int) -> dict[str, Any]:
    """The first item of a new live stream (the current state)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        while line := response.readline():
            if line.startswith(b"data: "):
                item: dict[str, Any] = json.loads(line[len(b"data: ") :])
                return item
    finally:
        connection.close()
    raise AssertionError("the stream ended")


def raw(
    service: Service, method: str, path: str, body: object, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=10)
    try:
        sent = {"Content-Type": "application/json", **(headers or {})}
        connection.request(method, path, body=json.dumps(body), headers=sent)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def refused_with_503(
    service: Service, method: str, path: str, body: object, headers: dict[str, str] | None = None
) -> str:
    status, answer = raw(service, method, path, body, headers)
    assert status == 503, answer
    assert is_error_format(answer)
    error = json.loads(answer)["error"]
    assert error["code"] == "storage"
    return str(error["message"])


def start_with_a_game(tmp_path: Path, data: Path) -> tuple[Service, dict[str, Any]]:
    service = Service(data, tmp_path / "frames.jsonl", dict(os.environ))
    status, game = service.request("POST", "/api/games", ICEHOUSE)
    assert status == 201, game
    status, game = service.request(
        "POST", f"/api/games/{game['id']}/actions", {"version": 1, "action": {"pick": 4}}
    )
    assert status == 200, game
    return service, game


def remove(folder: Path) -> None:
    """``rm -rf folder`` while the server may still write in it (the day's backup, made in
    the background after start-up): again, as a person would, until nothing is left (CI saw
    a file made between the removal's listing and its last rmdir)."""
    deadline = time.monotonic() + 60  # only against a hang
    while True:
        try:
            shutil.rmtree(folder)
            return
        except OSError:
            if not folder.exists():
                return
            if time.monotonic() > deadline:
                raise


@pytest.mark.slow
def test_a_removed_data_directory_refuses_every_write_with_503(tmp_path: Path) -> None:
    data = tmp_path / "data"
    service, game = start_with_a_game(tmp_path, data)
    try:
        owner = {"X-Owner-Token": pair_owner(f"http://127.0.0.1:{service.port}", data)}
        remove(data)
        path = f"/api/games/{game['id']}"
        message = refused_with_503(
            service, "POST", path + "/actions", {"version": 2, "action": {"pick": 1}}
        )
        assert message == (
            f"pick 2: not saved: the database {data / 'table.db'} was removed or replaced "
            "while the companion ran: nothing is saved any more; put the data directory "
            "back and restart the companion"
        )
        refused_with_503(service, "POST", path + "/undo", {"version": 2})
        refused_with_503(service, "POST", "/api/games", ICEHOUSE)
        refused_with_503(service, "DELETE", path, {}, owner)
        status, same = service.request("GET", path)
        assert status == 200 and same["version"] == 2  # nothing changed in memory either
        status, listing = service.request("GET", "/api/games")
        assert [g["id"] for g in listing["games"]] == [game["id"]]
        warnings = first_event(service.port)["warnings"]
        assert any("was removed or replaced while the companion ran" in w for w in warnings)
        code, _, _, err = service.terminate()
    finally:
        service.kill()
    assert code == 0, err
    assert "Traceback" not in err


@pytest.mark.slow
def test_a_moved_data_directory_refuses_writes_and_keeps_what_was_acknowledged(
    tmp_path: Path,
) -> None:
    data, moved = tmp_path / "data", tmp_path / "moved"
    service, game = start_with_a_game(tmp_path, data)
    try:
        data.rename(moved)
        path = f"/api/games/{game['id']}"
        refused_with_503(service, "POST", path + "/actions", {"version": 2, "action": {"pick": 1}})
        refused_with_503(service, "POST", "/api/games", ICEHOUSE)
        code, _, _, err = service.terminate()
    finally:
        service.kill()
    assert code == 0, err
    moved.rename(data)  # put back: a restart finds exactly what was acknowledged
    again = Service(data, tmp_path / "frames-2.jsonl", dict(os.environ))
    try:
        status, listing = again.request("GET", "/api/games")
        status_game, found = again.request("GET", path)
        again.terminate()
    finally:
        again.kill()
    assert status == 200 and [g["id"] for g in listing["games"]] == [game["id"]]
    assert status_game == 200 and found["version"] == 2
    assert found["state"]["log"] == game["state"]["log"]


def on_disk(tmp_path: Path) -> Path:
    """A fresh folder on a disk file system: tmpfs (Debian 13's /tmp) takes ``chattr +i`` but
    still lets writes through files opened before it, so the test would see no refusal."""
    for base in (tmp_path, Path("/var/tmp"), ROOT / "test-output"):
        base.mkdir(parents=True, exist_ok=True)
        kind = subprocess.run(
            ["stat", "-f", "-c", "%T", str(base)], capture_output=True, text=True, check=True
        ).stdout.strip()
        if kind != "tmpfs":
            return Path(tempfile.mkdtemp(prefix="vanished-", dir=base))
    pytest.fail("no folder here is on a disk file system (tmp, /var/tmp, test-output)")


@pytest.mark.slow
def test_an_unwritable_database_refuses_writes_with_503_until_it_is_writable(
    tmp_path: Path,
) -> None:
    # chattr +i: even root's writes through the files the server holds open now fail
    # (EPERM), as on a card the kernel has turned read-only.
    folder = on_disk(tmp_path)
    data = folder / "data"
    service, game = start_with_a_game(tmp_path, data)
    files = [str(data / name) for name in ("table.db", "table.db-wal")]
    locked = subprocess.run(["chattr", "+i", *files], capture_output=True, text=True, check=False)
    try:
        if locked.returncode != 0:
            pytest.skip(f"this file system cannot make a file immutable: {locked.stderr}")
        path = f"/api/games/{game['id']}"
        message = refused_with_503(
            service, "POST", path + "/actions", {"version": 2, "action": {"pick": 1}}
        )
        assert message.startswith("pick 2: not saved: ")
        assert message.endswith("; nothing was changed")
        status, same = service.request("GET", path)
        assert status == 200 and same["version"] == 2
    finally:
        subprocess.run(["chattr", "-i", *files], check=False)
    try:
        status, played = service.request(
            "POST", path + "/actions", {"version": 2, "action": {"pick": 1}}
        )
        assert status == 200, played
        assert played["version"] == 3
        code, _, _, err = service.terminate()
    finally:
        service.kill()
    assert code == 0, err
    again = Service(data, tmp_path / "frames-2.jsonl", dict(os.environ))
    try:
        status, found = again.request("GET", path)
        again.terminate()
    finally:
        again.kill()
    assert status == 200 and found["version"] == 3
    if not folder.is_relative_to(tmp_path):
        shutil.rmtree(folder)
