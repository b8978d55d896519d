"""Panel figures: bytes to load the ring page (and requests leaving the machine), time for a
change to reach 10 live SSE clients (p50, p99), requests/second of the game state endpoint.

Runs a real ``mandala serve --emulate`` on a free port with a temporary data directory.
"""

from __future__ import annotations

import http.client
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]  # fmt: skip
GAME = {"kind": "rings", "board": "reference", "variant": "standard",
        "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}]}  # fmt: skip


def post(base: str, path: str, body: object) -> Any:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def page_weight(base: str, game_id: str) -> tuple[int, int, int]:
    from playwright.sync_api import sync_playwright

    sizes: list[int] = []
    outside: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 740})

        def finished(request: Any) -> None:
            if not request.url.startswith(base):
                outside.append(request.url)
                return
            if "/api/events" in request.url:
                return
            response = request.response()
            if response is not None:
                sizes.append(len(response.body()) + len(str(response.headers)))

        page.on("requestfinished", finished)
        page.on(
            "requestfailed", lambda r: outside.append(r.url) if not r.url.startswith(base) else None
        )
        page.goto(f"{base}/games/{game_id}")
        page.wait_for_timeout(1500)
        browser.close()
    return sum(sizes), len(sizes), len(outside)


def sse_latency(base: str, clients: int = 10, rounds: int = 60) -> list[float]:
    port = int(base.rsplit(":", 1)[1])
    seen: list[list[float]] = [[] for _ in range(clients)]
    ready = threading.Barrier(clients + 1)

    def listen(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        first = True
        while True:
            line = response.readline()
            if not line:
                return
            if line.startswith(b"data: ") and first:
                first = False
                ready.wait()
            elif line.startswith(b"data: ") and b'"type":"games"' in line:
                seen[index].append(time.perf_counter())
                if len(seen[index]) >= rounds:
                    connection.close()
                    return

    threads = [threading.Thread(target=listen, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    ready.wait()
    sent: list[float] = []
    for _ in range(rounds):
        sent.append(time.perf_counter())
        post(base, "/api/games", GAME)
        time.sleep(0.05)
    for thread in threads:
        thread.join(timeout=30)
    latencies = []
    for round_number, start in enumerate(sent):
        arrivals = [times[round_number] for times in seen if len(times) > round_number]
        if len(arrivals) == clients:
            latencies.append((max(arrivals) - start) * 1000)
    return latencies


def state_rps(base: str, game_id: str, seconds: float = 5.0, workers: int = 4) -> float:
    port = int(base.rsplit(":", 1)[1])
    counts = [0] * workers
    stop = time.monotonic() + seconds

    def hammer(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.monotonic() < stop:
            connection.request("GET", f"/api/games/{game_id}")
            connection.getresponse().read()
            counts[index] += 1

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / seconds


def main() -> None:
    data = Path(tempfile.mkdtemp(prefix="mandala-bench-"))
    mandala = Path(sys.executable).parent / "mandala"
    process = subprocess.Popen(
        [str(mandala), "serve", "--emulate", "--port", "0", "--data", str(data)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        base = ""
        for line in process.stdout:
            found = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
            if found:
                base = found.group(1)
                break
        game_id = post(base, "/api/games", GAME)["id"]
        total, requests, outside = page_weight(base, game_id)
        print(f"ring page load: {total / 1024:.1f} KB in {requests} requests "
              f"(target < 150 KB); requests leaving the machine: {outside}")  # fmt: skip
        latencies = sse_latency(base)
        quantiles = statistics.quantiles(latencies, n=100)
        print(f"change -> all 10 SSE clients: p50 {statistics.median(latencies):.1f} ms, "
              f"p99 {quantiles[98]:.1f} ms over {len(latencies)} changes")  # fmt: skip
        print(f"GET /api/games/<id>: {state_rps(base, game_id):.0f} requests/s (4 clients)")
    finally:
        process.terminate()
        process.wait(timeout=15)


if __name__ == "__main__":
    main()
