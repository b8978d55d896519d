"""Live streams under a hostile or careless client, against a real ``mandala serve``; prints
the figures.

1. One client (127.0.0.1) holds 100 open ``/api/events`` streams; another phone (127.0.0.2)
   connects: the seconds until its first item, and from a change (an Icehouse pick posted)
   until that phone has it. Target: both under 1 s.
2. 1,000 stored games and 32 streams (32 addresses) that never read a byte, then 300
   changes: the server's resident memory before and at its peak (``VmHWM``), and how many of
   the stalled streams the server ended with ``{"type": "reload"}``. Target: under 100 MB.
3. A stream closed by its phone: the seconds until the server has freed its place.
4. ``SIGTERM`` with 20 phones connected: the seconds until the process has exited.
   Target: under 1 s.

Other phones are other loopback addresses (Linux routes 127/8 to the loopback); all traffic
goes to 127.0.0.1. ``--src DIR`` runs the server from another checkout (e.g. an older commit,
for a before/after figure; its own package on ``PYTHONPATH``).

Run: ``.venv/bin/python bench/streams.py [--src DIR] [--trials N]``.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NEW_GAME = {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1}
STORED = 1000
STALLED = 32
CHANGES = 300
HOG = 100
PHONES = 20


class Server:
    """``mandala serve --emulate --port 0`` on a data directory, run from ``src``."""

    def __init__(self, src: Path, data: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(src)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--emulate", "--port", "0",
             "--data", str(data)],
            cwd=src, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        self.port = 0
        for line in self.process.stdout:
            found = re.search(r"open the panel at http://127\.0\.0\.1:(\d+)/", line)
            if found:
                self.port = int(found.group(1))
                break
        if not self.port:
            raise SystemExit(f"mandala serve did not start: {self.process.communicate()}")

    def request(self, method: str, path: str, body: object = None) -> Any:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            payload = None if body is None else json.dumps(body)
            headers = {"Content-Type": "application/json"} if body is not None else {}
            connection.request(method, path, body=payload, headers=headers)
            return json.loads(connection.getresponse().read())
        finally:
            connection.close()

    def memory(self, key: str) -> float:
        """``VmRSS`` or ``VmHWM`` of the server process, in MB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
        raise LookupError(key)

    def stop(self) -> float:
        """SIGTERM; the seconds until the process exited."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        self.process.communicate(timeout=60)
        return time.monotonic() - started


class Stream:
    """One reading phone's ``/api/events``: items arrive on a thread, with their time."""

    def __init__(self, port: int, address: str, timeout: float = 60) -> None:
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=timeout, source_address=(address, 0)
        )
        self.connection.connect()
        self.sock = self.connection.sock  # http.client may hand it to the response
        self.connection.request("GET", "/api/events")
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.items: list[tuple[float, dict[str, Any]]] = []
        self.ended = threading.Event()
        self._changed = threading.Condition()
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.response.read()

    def _read(self) -> None:
        try:
            while line := self.response.readline():
                if line.startswith(b"data: "):
                    with self._changed:
                        self.items.append((time.monotonic(), json.loads(line[6:])))
                        self._changed.notify_all()
        except (OSError, ValueError):
            pass
        self.ended.set()

    def wait_for(self, wanted: Callable[[dict[str, Any]], bool], seconds: float = 30) -> float:
        """The time the first item ``wanted`` accepts arrived (waiting up to ``seconds``)."""
        deadline = time.monotonic() + seconds
        with self._changed:
            while True:
                for at, item in self.items:
                    if wanted(item):
                        return at
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no such item")
                self._changed.wait(left)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)  # the FIN goes now; the reader sees the end
        self.connection.close()


def stalled_stream(port: int, address: str) -> socket.socket:
    """A phone that asks for ``/api/events`` and never reads a byte."""
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.bind((address, 0))
    stalled.connect(("127.0.0.1", port))
    stalled.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return stalled


def ended_with_reload(stalled: socket.socket) -> bool:
    """Read what the server sent; say whether it ended the stream after ``reload``."""
    stalled.settimeout(2)
    received = bytearray()
    try:
        while chunk := stalled.recv(1 << 20):
            received += chunk
    except OSError:
        return False  # still open: the server never ended it
    finally:
        stalled.close()
    events = [line for line in bytes(received).split(b"\n") if line.startswith(b"data: ")]
    return bool(events) and json.loads(events[-1][6:]) == {"type": "reload"}


def pick_and_undo(server: Server, game: dict[str, Any], changes: int, first: int = 0) -> int:
    """Post ``changes`` changes to an Icehouse game (a pick, its undo, ...); the version.

    ``first``: how many changes were posted before (an odd number: an undo comes next).
    """
    version = int(game["version"])
    path = f"/api/games/{game['id']}"
    for n in range(first, first + changes):
        if n % 2 == 0:
            step = {"version": version, "action": {"pick": 4}}
            answer = server.request("POST", path + "/actions", step)
        else:
            answer = server.request("POST", path + "/undo", {"version": version})
        if "version" not in answer:
            raise SystemExit(f"change {n + 1} refused: {answer}")
        version = int(answer["version"])
    return version


def has_version(version: int) -> Callable[[dict[str, Any]], bool]:
    """Accept the ``game`` item of that version."""
    return lambda item: item.get("type") == "game" and item.get("version") == version


def hog(src: Path, trials: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(src, Path(folder))
        try:
            game = server.request("POST", "/api/games", NEW_GAME)
            held: list[Stream] = []
            with contextlib.suppress(OSError):  # the server may stop answering this client
                held.extend(Stream(server.port, "127.0.0.1", timeout=10) for _ in range(HOG))
            connects, changes = [], []
            for trial in range(trials):
                started = time.monotonic()
                try:
                    phone = Stream(server.port, "127.0.0.2", timeout=10)
                except OSError as error:
                    print(
                        f"1. one client opened {len(held) + 1} of {HOG} streams, then got no "
                        f"answer; another phone got none either ({error})"
                    )
                    return
                if phone.status != 200:
                    print(f"1. the other phone was refused: HTTP {phone.status}")
                    return
                connects.append(phone.wait_for(lambda i: i["type"] == "state") - started)
                posted = time.monotonic()
                version = pick_and_undo(server, game, 1, first=trial)
                got = phone.wait_for(has_version(version))
                changes.append(got - posted)
                phone.close()
                game = server.request("GET", f"/api/games/{game['id']}")
            served = sum(1 for one in held if one.status == 200)
            for one in held:
                one.close()
        finally:
            server.stop()
    print(
        f"1. one client holds {HOG} streams ({served} open, {HOG - served} refused); another "
        f"phone over {trials} trials: first item after {statistics.median(connects):.3f} s "
        f"median ({max(connects):.3f} max), a change reaches it after "
        f"{statistics.median(changes):.3f} s median ({max(changes):.3f} max)"
    )


def memory(src: Path) -> None:
    sys.path.insert(0, str(src))
    from companion.table import Table

    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        with Table(data) as table:
            for _ in range(STORED):
                table.create_game(dict(NEW_GAME))
        server = Server(src, data)
        peak = [0.0]
        running = threading.Event()
        running.set()

        def sample() -> None:
            while running.is_set():
                peak[0] = max(peak[0], server.memory("VmRSS"))
                time.sleep(0.05)

        try:
            game = server.request("POST", "/api/games", NEW_GAME)
            before = server.memory("VmRSS")
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            stalled = [stalled_stream(server.port, f"127.0.1.{2 + n}") for n in range(STALLED)]
            started = time.monotonic()
            pick_and_undo(server, game, CHANGES)
            took = time.monotonic() - started
            time.sleep(0.5)  # the last items reach the stalled streams' buffers
            running.clear()
            sampler.join()
            high = server.memory("VmHWM")
            after = server.memory("VmRSS")
            reloaded = sum(ended_with_reload(one) for one in stalled)
        finally:
            running.clear()
            server.stop()
    print(
        f"2. {STORED} stored games, {STALLED} streams that never read, {CHANGES} changes in "
        f"{took:.1f} s: RSS {before:.1f} MB before, {after:.1f} MB after, peak {high:.1f} MB "
        f"(sampled {peak[0]:.1f} MB); {reloaded} of {STALLED} stalled streams ended with reload"
    )


def freed(src: Path, trials: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(src, Path(folder))
        try:
            times = []
            for _ in range(trials):
                streams = [Stream(server.port, "127.0.0.3") for _ in range(64)]
                mine = [one for one in streams if one.status == 200]
                if not mine:  # the last trial's places are still held
                    times.append(float("inf"))
                    break
                for one in mine:
                    one.wait_for(lambda i: i["type"] == "state")
                mine[0].close()
                closed = time.monotonic()
                while True:
                    again = Stream(server.port, "127.0.0.3")
                    if again.status == 200:
                        times.append(time.monotonic() - closed)
                        again.close()
                        break
                    if time.monotonic() - closed > 60:
                        times.append(float("inf"))
                        break
                    time.sleep(0.05)
                for one in mine[1:]:
                    one.close()
                time.sleep(2)  # every place is free again before the next trial
        finally:
            server.stop()
    print(
        f"3. a closed stream's place is free again after {statistics.median(times):.2f} s "
        f"median ({max(times):.2f} max, {trials} trials)"
    )


def sigterm(src: Path, trials: int) -> None:
    times = []
    for _ in range(trials):
        with tempfile.TemporaryDirectory() as folder:
            server = Server(src, Path(folder))
            phones = [Stream(server.port, f"127.0.2.{2 + n}") for n in range(PHONES)]
            for phone in phones:
                phone.wait_for(lambda i: i["type"] == "state")
            times.append(server.stop())
    print(
        f"4. SIGTERM with {PHONES} phones connected: exited after "
        f"{statistics.median(times):.2f} s median ({max(times):.2f} max, {trials} trials)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT, help="the checkout to serve from")
    parser.add_argument("--trials", type=int, default=5, help="trials of 1, 3 and 4")
    args = parser.parse_args()
    src = args.src.resolve()
    hog(src, args.trials)
    memory(src)
    freed(src, args.trials)
    sigterm(src, args.trials)


if __name__ == "__main__":
    main()
