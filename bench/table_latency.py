"""Table service latency, memory and start-up, measured in emulation; prints the figures.

1. From the last quadrature edge of a ring turn (the RingTurner has driven it on the mock
   pins) to the live preview: the new LED frame shown and the change notified to a
   subscriber (the ``board`` item, published after the LED frame and the ``game`` item).
   1,000 turns of one detent, p50/p99 (target p99 < 10 ms).
2. From the end of ``settle_ms`` after the last edge to the notification that the ring has
   settled (the settled frame), 1,000 turns, p50/p99.
3. The running ``mandala serve --emulate``: start-up time (spawn to the first answered
   ``GET /api/games``) and idle RSS (target < 60 MB).

Run: ``.venv/bin/python bench/table_latency.py [--turns N]``.
"""

from __future__ import annotations

import argparse
import json
import queue
import re
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

from companion.table import Subscription, Table  # noqa: E402
from firmware.hardware import Hardware  # noqa: E402
from firmware.maps import load_led_map, load_pin_map  # noqa: E402

SETUP = {
    "kind": "rings",
    "board": "reference",
    "variant": "standard",
    "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
}


def opener(settle_ms: int) -> Callable[..., Hardware]:
    pin_map, led_map = load_pin_map(), load_led_map()

    def open_hardware(report_ring: Any, report_button: Any, spokes: int, offsets: Any) -> Any:
        return Hardware.open(
            pin_map,
            led_map,
            spokes,
            True,
            report_ring,
            report_button,
            offsets,
            settle_ms=settle_ms,
        )

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
        return self.board


def wait_board(
    items: queue.Queue[tuple[float, dict[str, Any]]],
    check: Callable[[dict[str, Any]], bool],
    sensed: Sensed | None = None,
) -> tuple[float, float | None]:
    """Wait for the first ``board`` item passing ``check``; also the last ``leds`` before it."""
    leds_at = None
    held = sensed or Sensed({})
    while True:
        at, item = items.get(timeout=60)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--settle-ms", type=int, default=20)
    args = parser.parse_args()
    preview_latency(args.turns)
    settle_latency(args.turns, args.settle_ms)
    service_figures()


if __name__ == "__main__":
    main()
