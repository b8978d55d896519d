"""SIGTERM to a running emulated ``mandala serve``, as systemd stops the unit.

The service runs as a real subprocess under a fake systemd (``NOTIFY_SOCKET`` bound here,
``WATCHDOG_USEC`` set). Its emulated LED strip's frames are copied to a file as they change
(``serve_recording_leds.py``), so the last frame the service showed is still there after it
exited. The journal (SQLite in WAL mode) must be closed cleanly -- no ``-wal`` file left behind --
pass SQLite's integrity check, and a second start must find the game at its version.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.service.test_notify import FakeSystemd, kinds

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "serve_recording_leds.py"
UNIT = HERE.parents[1] / "systemd" / "mandala.service"
LED_COUNT = 48  # hardware/pins.toml: [leds] count
SEATS = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}]


def stop_timeout() -> float:
    """The unit's ``TimeoutStopSec``: systemd kills the service after that."""
    match = re.search(r"^TimeoutStopSec=(\d+)$", UNIT.read_text(), re.MULTILINE)
    assert match is not None
    return float(match.group(1))


class Service:
    """One ``mandala serve --emulate`` subprocess on a free port."""

    def __init__(self, data: Path, frames: Path, env: dict[str, str]) -> None:
        self.frames = frames
        self.process = subprocess.Popen(
            [sys.executable, str(DRIVER), str(frames), "serve", "--emulate", "--port", "0",
             "--data", str(data)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )  # fmt: skip
        self.port = self._wait_for_port()

    def _wait_for_port(self) -> int:
        assert self.process.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            found = re.search(r"open the panel at http://127\.0\.0\.1:(\d+)/", line)
            if found:
                return int(found.group(1))
        self.process.kill()
        raise AssertionError(f"mandala serve did not start: {self.process.communicate()}")

    def request(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            payload = None if body is None else json.dumps(body)
            headers = {"Content-Type": "application/json"} if body is not None else {}
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            connection.close()

    def terminate(self) -> tuple[int, float, str, str]:
        """SIGTERM; return the exit status, the seconds it took, stdout and stderr."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=stop_timeout() * 2)
        return self.process.returncode, time.monotonic() - started, out, err

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()


@pytest.fixture
def service_env(tmp_path: Path) -> Iterator[tuple[dict[str, str], FakeSystemd]]:
    systemd = FakeSystemd(str(tmp_path / "notify.sock"))
    env = dict(os.environ)
    env.update({"NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "1000000"})
    env.pop("WATCHDOG_PID", None)
    yield env, systemd
    systemd.close()


def open_event_stream(port: int) -> tuple[http.client.HTTPConnection, threading.Event]:
    """A phone's open ``/api/events`` stream; the event is set once the first event came."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/api/events")
    response = connection.getresponse()
    got_first = threading.Event()

    def read() -> None:
        try:
            while line := response.readline():
                if line.startswith(b"data:"):
                    got_first.set()
        except OSError:
            pass

    threading.Thread(target=read, daemon=True).start()
    return connection, got_first


def is_off(frame: list[list[int]]) -> bool:
    return all(pixel == [0, 0, 0] for pixel in frame)


@pytest.mark.slow
def test_sigterm_blanks_the_leds_closes_the_journal_and_exits_0(
    tmp_path: Path, service_env: tuple[dict[str, str], FakeSystemd]
) -> None:
    env, systemd = service_env
    data, frames = tmp_path / "data", tmp_path / "frames.jsonl"
    service = Service(data, frames, env)
    try:
        seen = kinds(systemd.wait_for("READY=1", timeout=30))
        assert seen[0] == "READY=1"
        status, game = service.request(
            "POST", "/api/games",
            {"kind": "rings", "seats": SEATS, "variant": "standard", "board": "reference"},
        )  # fmt: skip
        assert status == 201, game
        status, played = service.request(
            "POST", f"/api/games/{game['id']}/actions",
            {"version": game["version"], "action": {"dice": {
                "red": 1, "blue": 0, "green": 0, "yellow": 0, "brown": 0}}},
        )  # fmt: skip
        assert status == 200, played
        version = played["version"]
        assert version == game["version"] + 1
        status, board = service.request("GET", "/api/board")
        assert status == 200
        assert len(board["leds"]) == LED_COUNT
        assert not is_off(board["leds"]), "the bases should be lit while a game is on"
        stream, got_first = open_event_stream(service.port)
        assert got_first.wait(10)
        systemd.wait_for("WATCHDOG=1", timeout=10)

        code, took, _out, err = service.terminate()
        stream.close()
    finally:
        service.kill()

    assert code == 0, err
    assert took < stop_timeout()
    assert "Traceback" not in err
    assert err.splitlines()[-2:] == [
        "mandala: SIGTERM received, stopping",
        "mandala: stopped cleanly",
    ]
    messages = systemd.wait_for("STOPPING=1")
    assert messages[-1] == "STOPPING=1\nSTATUS=stopping (SIGTERM)"
    assert kinds(messages).count("READY=1") == 1
    assert "WATCHDOG=1" in kinds(messages)
    # The LEDs: lit while serving, and the last frame the strip got is all off.
    recorded = [json.loads(line) for line in frames.read_text().splitlines()]
    assert any(not is_off(entry["frame"]) for entry in recorded)
    assert recorded[-1]["frame"] == [[0, 0, 0]] * LED_COUNT
    # The journal: sound, and the game is there at its version after a restart.
    # WAL mode: only a clean close of the database checkpoints and removes the -wal file
    # (backups/ holds the rolling backup the start made).
    assert sorted(p.name for p in data.iterdir()) == ["backups", "boards", "table.db"]
    with closing(sqlite3.connect(data / "table.db")) as db:
        assert db.execute("PRAGMA journal_mode").fetchall() == [("wal",)]
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]

    again = Service(data, tmp_path / "frames-2.jsonl", dict(os.environ))
    try:
        status, listing = again.request("GET", f"/api/games/{game['id']}")
        code, _, _, err = again.terminate()
    finally:
        again.kill()
    assert status == 200, listing
    assert listing["version"] == version
    assert code == 0, err


def test_an_unavailable_backend_exits_69_with_one_line_and_never_reports_ready(
    tmp_path: Path, service_env: tuple[dict[str, str], FakeSystemd]
) -> None:
    env, systemd = service_env
    assert importlib.util.find_spec("lgpio") is None, "this test needs a machine without lgpio"
    config = tmp_path / "config.toml"
    config.write_text(f'hardware = "lgpio"\nport = 0\ndata = "{tmp_path / "data"}"\n')
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "serve", "--config", str(config)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 69
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(
        "mandala: the 'lgpio' hardware backend is unavailable: pin backend 'lgpio' is not "
        "available here (No module named 'lgpio'): install python3-lgpio"
    )
    messages = systemd.wait_for("ERRNO=69")
    assert kinds(messages) == [lines[0].replace("mandala: ", "STATUS=", 1)]
