"""Start-up and memory of ``mandala serve --emulate`` with a year of stored games (issue 23).

Prints, for a real server process (spawned as systemd would, ``mandala serve --emulate``):

1. start-up to the first answer: from spawning the process to the first 200 of
   ``GET /api/games``, with 1,000 stored games (target < 2 s here, < 10 s on the stand-in),
   for a restart and for the day's first start (which makes the day's rolling backup of the
   data directory before it serves);
2. idle resident memory with an empty database (VmRSS after the first answer and a pause;
   target < 45 MB);
3. resident memory with the 1,000 games and 10 phones on the live stream while a family
   plays: games started and played turn by turn through the panel's API, old games opened
   and the list paged, as an hour of play does (scaled down: ``--turns`` steps, the figure
   printed after N and after 2N steps to show it is flat; target < 60 MB). VmHWM is the
   peak.

The 1,000 games are played with random legal moves (``bench/played.py``: all four kinds, most
finished) and stored once through the real table and store into ``--cache`` (one directory
per schema version); each run copies them, so every start sees the same files. The code is
byte-compiled first (``compileall``), as ``pip install`` leaves it on the Pi: a start that
compiles every module is not what a box sees.

Run: ``.venv/bin/python bench/startup_memory.py [--games 1000] [--turns 150]``; it prints
the figures twice (this machine, then the Pi Zero 2 stand-in, ``bench/zero2.py``). With
``MANDALA_BENCH_TRACEMALLOC=FOLDER`` the server runs under tracemalloc (a hook of the
bench's own, never in the product) and writes its top allocating lines after each figure
into FOLDER; the figures themselves then include tracemalloc's own memory.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import played  # noqa: E402
import zero2  # noqa: E402

PHONES = 10
"""Phones on the live stream while the family plays (``--phones``)."""


def made_games(cache: Path, count: int) -> Path:
    """The data directory holding ``count`` played games (made once, then reused)."""
    from companion.table import Table
    from companion.table.schema import SCHEMA_VERSION

    folder = cache / f"games-{count}-schema-{SCHEMA_VERSION}"
    if (folder / "done").exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    started = time.perf_counter()
    with Table(folder / "data") as table:
        for number in range(count):
            kind = played.KINDS[number % len(played.KINDS)]
            table.create_game({"record": played.record(kind, number)})
    (folder / "done").write_text("")
    print(f"   (stored {count} games in {time.perf_counter() - started:.0f} s, once)")
    return folder


def status(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM of a process, in MB."""
    found: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0]) / 1024
    return found


TRACE = "MANDALA_BENCH_TRACEMALLOC"
"""Set to a folder to see where the server's Python memory is: the server runs under
tracemalloc, and each figure is followed by the top allocating lines written there."""

SERVE = "import sys; from companion.cli import main; sys.exit(main())"
TRACED = """
import os, sys, threading, time, tracemalloc
tracemalloc.start(1)
folder = os.environ["MANDALA_BENCH_TRACEMALLOC"]
def answer():  # asked by <folder>/ask; the snapshot's top lines go to <folder>/N.txt
    number = 0
    while True:
        time.sleep(0.2)
        if os.path.exists(os.path.join(folder, "ask")):
            stats = tracemalloc.take_snapshot().statistics("lineno")
            number += 1
            with open(os.path.join(folder, f"{number}.txt"), "w") as out:
                print(f"traced {sum(s.size for s in stats) / 1e6:.1f} MB", file=out)
                print(*stats[:25], sep="\\n", file=out)
            os.remove(os.path.join(folder, "ask"))
threading.Thread(target=answer, daemon=True).start()
"""


def traced(pid: int) -> None:
    """With :data:`TRACE` set, have the server write its tracemalloc figures (and wait)."""
    folder = os.environ.get(TRACE)
    if not folder or not Path(f"/proc/{pid}").exists():
        return
    ask = Path(folder) / "ask"
    ask.write_text("")
    deadline = time.monotonic() + 300
    while ask.exists() and time.monotonic() < deadline:
        time.sleep(0.2)


class Server:
    """A spawned ``mandala serve --emulate --port 0`` on a data directory."""

    def __init__(self, data: Path) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [
                *(
                    sys.executable,
                    "-c",
                    (TRACED if os.environ.get(TRACE) else "") + SERVE,
                ),
                *("serve", "--emulate", "--port", "0", "--data", str(data)),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
        )
        assert self.process.stdout is not None
        port = None
        for line in self.process.stdout:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))
                break
        assert port is not None, "the server did not say its address"
        self.port = port
        self.request("GET", "/api/games")
        self.ready = time.perf_counter() - self.started

    def request(self, method: str, path: str, body: object = None) -> Any:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        try:
            data = None if body is None else json.dumps(body).encode()
            headers = {"Content-Type": "application/json"} if data else {}
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            text = answer.read()
            if answer.status not in (200, 201):
                raise RuntimeError(f"{method} {path}: {answer.status} {text[:200]!r}")
            return json.loads(text)
        finally:
            connection.close()

    def memory(self) -> dict[str, float]:
        found = status(self.process.pid)
        traced(self.process.pid)
        return found

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def phone(port: int, stop: threading.Event, counts: list[int], index: int) -> None:
    """A phone on the live stream, reading every item (as the panel does); each phone comes
    from an address of its own (127.0.0.2, ...), as phones on the Wi-Fi do."""
    source = (f"127.0.0.{index + 2}", 0)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600, source_address=source)
    connection.request("GET", "/api/events")
    response = connection.getresponse()
    while not stop.is_set():
        line = response.readline()
        if not line:
            return
        if line.startswith(b"data: "):
            counts[index] += 1
    connection.close()


NEW_GAMES = {
    "rings": {
        "kind": "rings",
        "board": "reference",
        "variant": "standard",
        "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
    },
    "icehouse": {"kind": "icehouse", "seats": ["Ann", "Bo", "Cy"]},
    "cards": {"kind": "cards", "mode": "table", "seats": ["Ann", "Bo"]},
    "stones": {"kind": "stones", "seats": ["Ann", "Bo", "Cy"]},
}


def next_move(kind: str, state: Any, rng: random.Random) -> tuple[Any, Any] | None:
    """A random legal move of ``state`` as the API takes it, and the state after it."""
    from companion.games import engine, rings

    if kind == "rings":
        if state.over:
            return None
        dice = rings.roll(rng, state.board)
        turn = rings.Turn(dice, rng.choice(rings.legal_rotation_sets(state, dice)))
        return rings.action_to_json(turn), rings.apply(state, turn)
    rules: Any = engine(kind)
    legal = [] if rules.is_over(state) else rules.legal_actions(state)
    if not legal:
        return None
    action = rng.choice(legal)
    step = rules.action_to_json(action)
    return ({"pick": step} if kind == "icehouse" else step), rules.apply(state, action)


def play(server: Server, steps: int, rng: random.Random, stored: list[str]) -> None:
    """``steps`` steps of play as a family plays: a new game started on the panel and played
    to its end move by move (a new one after), an old game opened and a page of the list
    read every fifth move."""
    from companion.games import engine
    from companion.games.base import replay

    done = 0
    while done < steps:
        kind = played.KINDS[done % len(played.KINDS)]
        game = server.request("POST", "/api/games", NEW_GAMES[kind])
        record = server.request("GET", f"/api/games/{game['id']}/record")
        state, version = replay(engine(kind), record), game["version"]
        while done < steps and (move := next_move(kind, state, rng)) is not None:
            step, state = move
            path = f"/api/games/{game['id']}/actions"
            answer = server.request("POST", path, {"version": version, "action": step})
            version = answer["version"]
            done += 1
            if done % 5 == 0:
                server.request("GET", f"/api/games/{rng.choice(stored)}")
                server.request("GET", f"/api/games?page={rng.randint(1, 50)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=150, help="steps of play (N)")
    parser.add_argument("--phones", type=int, default=PHONES, help="phones on the live stream")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "mandala-bench")
    args = parser.parse_args()
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "companion", "firmware"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    source = made_games(args.cache, args.games)
    with tempfile.TemporaryDirectory() as folder:
        empty = Server(Path(folder) / "empty")
        try:
            time.sleep(2)
            idle = empty.memory()
        finally:
            empty.stop()
        print(f"idle, empty database: VmRSS {idle['VmRSS']:.1f} MB (target < 45 MB)", flush=True)
        data = Path(folder) / "year"
        shutil.copytree(source / "data", data)
        first = Server(data)  # the day's first start: the day's rolling backup is made first
        first.stop()
        server = Server(data)  # a restart: today's backup is there
        print(
            f"start-up to the first 200 of GET /api/games, {args.games} stored games: "
            f"{server.ready * 1000:.0f} ms; the day's first start (it makes the day's "
            f"rolling backup first) {first.ready * 1000:.0f} ms (target < 2000 here, "
            "< 10000 on the stand-in)",
            flush=True,
        )
        try:
            after_start = server.memory()
            stop = threading.Event()
            counts = [0] * args.phones
            phones = [
                threading.Thread(target=phone, args=(server.port, stop, counts, i), daemon=True)
                for i in range(args.phones)
            ]
            for thread in phones:
                thread.start()
            stored = [
                g["id"]
                for p in range(1, 6)
                for g in server.request("GET", f"/api/games?page={p * 10}")["games"]
            ]
            rng = random.Random(23)
            print(
                f"{args.games} games, after start-up: VmRSS {after_start['VmRSS']:.1f} MB",
                flush=True,
            )
            for round_number in (1, 2):
                play(server, args.turns, rng, stored)
                found = server.memory()
                print(
                    f"{args.games} games, {args.phones} phones, after {round_number * args.turns} "
                    f"steps of play: VmRSS {found['VmRSS']:.1f} MB, VmHWM {found['VmHWM']:.1f}"
                    " MB (target < 60 MB)",
                    flush=True,
                )
            stop.set()
            if counts:
                print(f"   (each phone read {min(counts)}-{max(counts)} live items)", flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    zero2.twice(main)
