"""Table service latency, memory and start-up, measured in emulation; prints the figures.

1. From the last quadrature edge of a ring turn (the RingTurner has driven it on the mock
   pins) to the live preview: the new LED frame shown and the change notified to a
   subscriber (the ``board`` item, published after the LED frame and the ``game`` item).
   1,000 turns of one detent, p50/p99 (target p99 < 10 ms).
2. From the end of ``settle_ms`` after the last edge to the notification that the ring has
   settled (the settled frame), 1,000 turns, p50/p99.
3. The running ``mandala serve --emulate``: start-up time (spawn to the first answered
   ``GET /api/games``) and idle RSS (target < 60 MB).
4. Issue 23's live updates with phones: the table, its emulated rings and strip, and the
   panel on ``mandala serve``'s waitress server (``companion.serve.make_server``, a thread of
   this process, as ``mandala serve --emulate`` wires them), a 650-turn game on the board
   (imported from ``bench/long_game.py``'s record through the real table and journal), and
   10 phones on real ``/api/events`` streams (``bench/phones.py``, another process, out of
   the stand-in's cgroup: the phones are other devices). Once every phone has its first
   item, ``--moves`` ring moves of one detent through the emulated encoder pins, each left to
   settle (``settle_ms`` as served, 300 ms): from the last edge to the LED frame written to the
   strip (the time ``show`` returned, timed by a wrapper of the emulated strip), p50/p99/max
   (target p99 < 10 ms here, < 100 ms on the Zero 2 stand-in); from the last edge to the
   ``board`` item with the ring at rest taken by the last of the phones; and the bytes each
   phone receives per ring move (target < 2 KB, whatever the game's length). The moves open
   or close a path with dice entered for them, so each changes the frame. The benchmark
   follows the board through a subscription of its own (an 11th stream, in this process),
   and says, for frames later than 10 ms, how long the threads on the way (the emulated
   pins', the table's) waited for a CPU: on a busy machine that is other processes' time.

Each figure is printed twice (``bench/zero2.py``): here, and on the Pi Zero 2 stand-in.

Run: ``.venv/bin/python bench/table_latency.py [--figures phones,preview,settle,service]
[--turns N] [--game-turns 650] [--phones 10] [--moves 250]``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import itertools
import json
import queue
import re
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))

import long_game  # noqa: E402
import zero2  # noqa: E402
from long_game import long_record  # noqa: E402

from companion.games import rings  # noqa: E402
from companion.table import Subscription, Table, live  # noqa: E402
from firmware.hardware import Hardware  # noqa: E402
from firmware.leds import LedStrip  # noqa: E402
from firmware.maps import load_led_map, load_pin_map  # noqa: E402
from firmware.rings import DEFAULT_SETTLE_MS  # noqa: E402

SETUP = {
    "kind": "rings",
    "board": "reference",
    "variant": "standard",
    "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
}


class TimedStrip:
    """The emulated strip, noting when each frame was written (``show`` returned)."""

    def __init__(self, strip: LedStrip) -> None:
        self.strip = strip
        self.written: queue.Queue[float] = queue.Queue()

    @property
    def count(self) -> int:
        return self.strip.count

    def show(self, frame: Any) -> None:
        self.strip.show(frame)
        self.written.put(time.perf_counter())

    def close(self) -> None:
        self.strip.close()


def opener(settle_ms: int, strips: list[TimedStrip] | None = None) -> Callable[..., Hardware]:
    """Open the emulated hardware as ``mandala serve --emulate`` does; with ``strips``, its
    strip is a :class:`TimedStrip` (appended there)."""
    pin_map, led_map = load_pin_map(), load_led_map()

    def open_hardware(report_ring: Any, report_button: Any, spokes: int, offsets: Any) -> Any:
        hardware = Hardware.open(
            pin_map,
            led_map,
            spokes,
            True,
            report_ring,
            report_button,
            offsets,
            settle_ms=settle_ms,
        )
        if strips is None:
            return hardware
        strips.append(TimedStrip(hardware.strip))
        return dataclasses.replace(hardware, strip=strips[-1])

    return open_hardware


def listen(subscription: Subscription) -> queue.Queue[tuple[float, dict[str, Any]]]:
    """Timestamp every item as the subscriber receives it (on its own thread)."""
    items: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()

    def run() -> None:
        while not subscription.closed:
            item = subscription.get(timeout=0.5)
            if item is not None:
                items.put((time.perf_counter(), item))

    threading.Thread(target=run, daemon=True).start()
    return items


def ring_at(ring: int, offset: int, flag: str) -> Callable[[dict[str, Any]], bool]:
    """Return a check that a board snapshot has ``ring`` at ``offset`` with ``flag`` set."""

    def check(board: dict[str, Any]) -> bool:
        return bool(board["offsets"][ring] == offset and board["rings"][ring][flag])

    return check


class Sensed:
    """The board as a subscriber has it: whole ``board`` items, or their changes."""

    def __init__(self, board: dict[str, Any]) -> None:
        self.board = board

    def take(self, item: dict[str, Any]) -> dict[str, Any]:
        if "board" in item:  # a whole board (before issue 23)
            self.board = item["board"]
        else:
            for path, value in item["changes"]:
                at: Any = self.board
                for key in path[:-1]:
                    at = at[key]
                if path:
                    at[path[-1]] = value
            self.board["seq"] = item["seq"]
        return self.board


WAIT_S = 600.0 if zero2.on_stand_in() else 60.0
"""How long a step may take before the benchmark gives up (it only guards a hang)."""


def wait_board(
    items: queue.Queue[tuple[float, dict[str, Any]]],
    check: Callable[[dict[str, Any]], bool],
    sensed: Sensed | None = None,
) -> tuple[float, float | None]:
    """Wait for the first ``board`` item passing ``check``; also the last ``leds`` before it."""
    leds_at = None
    held = sensed or Sensed({})
    while True:
        at, item = items.get(timeout=WAIT_S)
        if item["type"] == "leds":
            leds_at = at
        if item["type"] == "board" and check(held.take(item)):
            return at, leds_at


def drain(items: queue.Queue[tuple[float, dict[str, Any]]]) -> None:
    while True:
        try:
            items.get_nowait()
        except queue.Empty:
            return


def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms (n={len(ms)})"


def preview_latency(turns: int) -> None:
    with tempfile.TemporaryDirectory() as folder, Table(Path(folder), opener(60_000)) as table:
        table.create_game(dict(SETUP))
        turner = table.ring_board.turner()
        subscription = table.subscribe()
        items = listen(subscription)
        sensed = Sensed(table.board())
        board: list[float] = []
        frames: list[float] = []
        for number in range(turns):
            ring = number % 10
            steps = 1 if (number // 10) % 2 == 0 else -1
            drain(items)
            target = (table.board()["offsets"][ring] + steps) % 16
            turner.turn(ring, steps)
            last_edge = time.perf_counter()
            at, leds_at = wait_board(items, ring_at(ring, target, "aligned"), sensed)
            board.append(at - last_edge)
            if leds_at is not None:
                frames.append(leds_at - last_edge)
        subscription.close()
    print(f"last edge -> live preview notified (board item): {percentiles(board)}")
    if frames:
        print(f"last edge -> new LED frame notified (when it changed): {percentiles(frames)}")


def settle_latency(turns: int, settle_ms: int) -> None:
    with tempfile.TemporaryDirectory() as folder, Table(Path(folder), opener(settle_ms)) as table:
        table.create_game(dict(SETUP))
        turner = table.ring_board.turner()
        subscription = table.subscribe()
        items = listen(subscription)
        sensed = Sensed(table.board())
        late: list[float] = []
        for number in range(turns):
            ring = number % 10
            steps = 1 if (number // 10) % 2 == 0 else -1
            target = (table.board()["offsets"][ring] + steps) % 16
            drain(items)
            turner.turn(ring, steps)
            settle_end = time.perf_counter() + settle_ms / 1000
            at, _ = wait_board(items, ring_at(ring, target, "settled"), sensed)
            late.append(at - settle_end)
        subscription.close()
    print(f"end of settle_ms ({settle_ms} ms) -> settled frame notified: {percentiles(late)}")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def service_figures() -> None:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from companion.cli import main; sys.exit(main())",
                "serve",
                "--emulate",
                "--port",
                "0",
                "--data",
                folder,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
        )
        try:
            assert process.stdout is not None
            port = None
            for line in process.stdout:
                found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
                if found:
                    port = int(found.group(1))
                    break
            assert port is not None
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games") as answer:
                json.loads(answer.read())
            ready = time.perf_counter() - started
            body = json.dumps(SETUP).encode()
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/games",
                data=body,
                method="POST",
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request) as answer:
                json.loads(answer.read())
            time.sleep(3)
            idle = rss_kb(process.pid)
        finally:
            process.kill()
            process.wait()
    print(f"mandala serve --emulate start-up (spawn -> first API answer): {ready * 1000:.0f} ms")
    print(f"mandala serve --emulate idle RSS with one ring-board game: {idle / 1024:.1f} MB")


class Phones:
    """``bench/phones.py`` in a process of its own, and its answers (each awaited)."""

    def __init__(self, port: int, count: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "phones.py"), str(port), str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def answer(self, word: str | None = None) -> str:
        """Send ``word`` (when given), then wait for the next line the phones print."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        if word is not None:
            stdin.write(word + "\n")
            stdin.flush()
        readable, _, _ = select.select([stdout], [], [], WAIT_S)
        line = stdout.readline() if readable else ""
        if not line or line.startswith("error"):
            self.process.kill()
            raise RuntimeError(f"the phones did not answer {word or 'ready'}: {line.strip()}")
        return line.strip()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.answer_nothing("stop")
        try:
            self.process.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def answer_nothing(self, word: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(word + "\n")
        self.process.stdin.close()


def resync(
    table: Table,
    offsets: list[int],
    items: queue.Queue[tuple[float, dict[str, Any]]],
    sensed: Sensed,
) -> None:
    """Turn the emulated rings to the imported game's ``offsets`` (its re-sync), one by one."""
    turner = table.ring_board.turner()
    assert turner is not None
    for ring, offset in enumerate(offsets):
        now = sensed.board["offsets"][ring]
        if offset != now:
            turner.turn(ring, (offset - now) % 16)
            wait_board(items, ring_at(ring, offset, "settled"), sensed)


def phones_figures(game_turns: int, phones: int, moves: int) -> None:
    from companion.serve import firmware_errors, make_server, stop_server
    from companion.web import create_app

    made_by = hashlib.sha256(Path(long_game.__file__).read_bytes()).hexdigest()[:8]
    cache = Path(tempfile.gettempdir()) / f"mandala-bench-long-{game_turns}-{made_by}.json"
    if not cache.exists():  # made once (here), read again on the stand-in
        cache.write_text(json.dumps(long_record(game_turns)))
    record = json.loads(cache.read_text())
    strips: list[TimedStrip] = []
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        table = Table(data, opener(DEFAULT_SETTLE_MS, strips), data / "boards")
        table.start()
        game = table.create_game({"record": record})
        subscription = table.subscribe()
        items = listen(subscription)
        sensed = Sensed(items.get(timeout=WAIT_S)[1]["board"])
        resync(table, game["state"]["offsets"], items, sensed)
        dice, planned = path_moves(table.find(str(game["id"])).state, moves)
        table.act(str(game["id"]), int(game["version"]), {"dice": dice})  # entered on a phone
        config = {"BOARDS_DIR": data / "boards", "ALLOWED_HOSTS": []}
        app = create_app(config, table=table, more_errors=firmware_errors())
        httpd: Any = make_server(app, "127.0.0.1", 0)
        server = threading.Thread(target=httpd.run, daemon=True)
        server.start()
        clients = Phones(int(httpd.effective_port), phones)
        try:
            clients.answer()  # "ready": every phone has its first item, the whole state
            clients.answer("mark")
            spokes = table.find(str(game["id"])).state.board.spokes
            frames, board_seqs, last_edges, late = drive_moves(
                table, items, sensed, strips[0], planned, spokes
            )
            told = json.loads(clients.answer(f"upto {sensed.board['seq']}"))
        finally:
            clients.stop()
            subscription.close()
            stop_server(httpd, table)
            server.join(timeout=WAIT_S)
            table.close()
    print(
        f"{game_turns}-turn game, {phones} phones: last edge -> LED frame written: "
        f"{percentiles(frames)}"
    )
    if late:
        print(
            f"   ({len(late)} of {len(frames)} frames later than {LATE_S * 1000:.0f} ms: in "
            f"those moves the pin and table threads waited {sum(w for _, w in late) * 1000:.0f}"
            f" ms for a CPU, on the run queue, of {sum(t for t, _ in late) * 1000:.0f} ms)"
        )
    if not phones:
        return
    reached = [
        told["board_at"][str(seq)] - edge
        for seq, edge in zip(board_seqs, last_edges, strict=True)
        if str(seq) in told["board_at"]
    ]
    print(
        f"last edge -> the last of the {phones} phones has the board item: {percentiles(reached)}"
    )
    per_move = [n / moves for n in told["bytes"]]
    print(
        f"bytes each phone receives per ring move: mean {statistics.mean(per_move):.0f}, "
        f"max {max(per_move):.0f} over {moves} moves (target < 2048)"
    )


def path_moves(state: rings.State, count: int) -> tuple[dict[str, int], list[tuple[int, int]]]:
    """Dice and ``count`` one-detent moves ``(ring, detents)`` for them: each move opens or
    closes a path from the game's offsets (so the LED frame changes), in pairs (a ring
    turned, then turned back). The dice show 1 for the moved rings' colour and 0 for the
    others, so a move is a legal turn (or no turn): none ends in the red pulse of a ring
    turn the dice do not explain."""
    paths, spokes = rings.open_paths(state), state.board.spokes
    for colour in rings.COLOURS:
        found: list[tuple[int, int]] = []
        for ring, steps in itertools.product(range(len(state.offsets)), (1, -1)):
            turned = list(state.offsets)
            turned[ring] = (turned[ring] + steps) % spokes
            same = state.board.rings[ring].colour == colour
            if same and rings.open_paths(live.at_offsets(state, turned)) != paths:
                found.append((ring, steps))
        if found:
            dice = {other: int(other == colour) for other in rings.COLOURS}
            pairs = itertools.cycle([((r, d), (r, -d)) for r, d in found])
            moves = [move for _ in range(count // 2 + 1) for move in next(pairs)]
            return dice, moves[:count]
    raise RuntimeError("no ring turned one detent opens or closes a path")


def drive_moves(
    table: Table,
    items: queue.Queue[tuple[float, dict[str, Any]]],
    sensed: Sensed,
    strip: TimedStrip,
    moves: list[tuple[int, int]],
    spokes: int,
) -> tuple[list[float], list[int], list[float], list[tuple[float, float]]]:
    """Make ``moves`` on the emulated encoders, each left to settle. Answers the times from
    the last edge to the LED frame written (for the moves whose frame changed), and each
    move's ``board`` item with the ring at rest (its ``seq``) and its last edge's time; and
    for each frame later than :data:`LATE_S`, its time and how long the threads on the way
    waited for a CPU meanwhile (a busy machine's other processes, not the table's work)."""
    turner = table.ring_board.turner()
    assert turner is not None
    frames: list[float] = []
    seqs: list[int] = []
    edges: list[float] = []
    path = [t.native_id for t in threading.enumerate() if t.name in PATH_THREADS]
    late: list[tuple[float, float]] = []
    for ring, steps in moves:
        target = (sensed.board["offsets"][ring] + steps) % spokes
        drain_times(strip.written)
        waited = run_queue_wait(path)
        turner.turn(ring, steps)
        last_edge = time.perf_counter()
        aligned_at, _ = wait_board(items, ring_at(ring, target, "aligned"), sensed)
        written = [at for at in drain_times(strip.written) if at <= aligned_at]
        if written:
            frames.append(written[-1] - last_edge)
            if frames[-1] > LATE_S:
                late.append((frames[-1], run_queue_wait(path) - waited))
        seqs.append(int(sensed.board["seq"]))
        edges.append(last_edge)
        wait_board(items, ring_at(ring, target, "settled"), sensed)
    return frames, seqs, edges, late


PATH_THREADS = ("mock-pin-callbacks", "table")
"""The threads an edge goes through to the LED frame (the emulated pins', the table's)."""
LATE_S = 0.01


def run_queue_wait(threads: list[int | None]) -> float:
    """Seconds ``threads`` (native ids, this process's) have waited for a CPU in all: the
    second figure of ``/proc/self/task/ID/schedstat`` (0 where the kernel has none)."""
    total = 0
    for native in threads:
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int(Path(f"/proc/self/task/{native}/schedstat").read_text().split()[1])
    return total / 1e9


def drain_times(written: queue.Queue[float]) -> list[float]:
    times = []
    while True:
        try:
            times.append(written.get_nowait())
        except queue.Empty:
            return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--figures", default="phones,preview,settle,service")
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--settle-ms", type=int, default=20)
    parser.add_argument("--game-turns", type=int, default=650)
    parser.add_argument("--phones", type=int, default=10)
    parser.add_argument("--moves", type=int, default=250)
    args = parser.parse_args()
    figures = args.figures.split(",")
    if "phones" in figures:
        phones_figures(args.game_turns, args.phones, args.moves)
    if "preview" in figures:
        preview_latency(args.turns)
    if "settle" in figures:
        settle_latency(args.turns, args.settle_ms)
    if "service" in figures:
        service_figures()


if __name__ == "__main__":
    zero2.twice(main)
