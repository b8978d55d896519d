"""``mandala serve``'s memory: glibc's fixed malloc thresholds and trim, threads on demand."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion import serve

ROOT = Path(__file__).resolve().parent.parent

# Large blocks freed between small ones that stay: how much of them goes back to the system.
PINNED = """
import sys
if sys.argv[1] == "tuned":
    from companion.serve import tune_malloc
    assert tune_malloc()

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024

big = bytearray(4 * 1024 * 1024)  # freed: untuned glibc raises its mmap threshold to 4 MB
del big
before = rss()
blocks, small = [], []
for _ in range(60):
    blocks.append(bytearray(200 * 1024))  # a stream buffer, a game's JSON
    small.append(bytearray(600))  # beyond pymalloc: malloc's heap, between the big ones
blocks.clear()
print(rss() - before)
"""


def child_mb(code: str, mode: str) -> float:
    """The megabytes a child Python running ``code`` prints (no MALLOC_ settings inherited)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    done = subprocess.run(
        [sys.executable, "-c", code, mode],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return float(done.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_freed_large_blocks_go_back_to_the_system_once_malloc_is_tuned() -> None:
    # 60 blocks of 200 KB are 12 MB: untuned, the small blocks between them pin the heap
    assert child_mb(PINNED, "plain") > 8
    assert child_mb(PINNED, "tuned") < 2


def test_tune_malloc_leaves_a_threshold_the_environment_chose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "131072")
    assert serve.tune_malloc() is False


class Blocked:
    """A task as waitress's dispatcher runs it (``service``), held until released."""

    def __init__(self, running: list[str], release: threading.Event) -> None:
        self.running, self.release = running, release
        self.done = threading.Event()

    def service(self) -> None:
        self.running.append(threading.current_thread().name)
        self.release.wait(timeout=30)
        self.done.set()

    def cancel(self) -> None:
        self.done.set()


def test_threads_start_when_every_one_is_busy_and_never_beyond_the_most() -> None:
    dispatcher = serve.dispatcher(most=5, first=2)
    release, running = threading.Event(), list[str]()
    try:
        assert len(dispatcher.threads) == 2
        tasks = [Blocked(running, release) for _ in range(7)]
        for task in tasks:
            dispatcher.add_task(task)
        with dispatcher.lock:
            waiting = len(dispatcher.queue)
        assert len(dispatcher.threads) == 5  # one started for each task that found none idle
        assert waiting >= 2  # the 6th and 7th wait for a thread to be free
        release.set()
        for task in tasks:
            assert task.done.wait(timeout=30)
        assert len(dispatcher.threads) == 5
    finally:
        release.set()
        dispatcher.shutdown()


def all_idle(dispatcher: Any) -> bool:
    """Wait until every thread of ``dispatcher`` waits for a task (False after 30 s)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with dispatcher.lock:
            if dispatcher.active_count == 0:
                return True
        time.sleep(0.001)
    return False


def test_idle_threads_take_tasks_before_any_is_started() -> None:
    dispatcher = serve.dispatcher(most=5, first=3)
    release, running = threading.Event(), list[str]()
    release.set()
    try:
        for _ in range(10):
            assert all_idle(dispatcher)
            task = Blocked(running, release)
            dispatcher.add_task(task)
            assert task.done.wait(timeout=30)
        assert len(dispatcher.threads) == 3
    finally:
        dispatcher.shutdown()


# Small blocks freed around a few that stay: free pages inside the heap, not at its top.
SCATTERED = """
import sys
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024

blocks = [bytearray(600) for _ in range(40_000)]  # 24 MB on malloc's heap
kept = blocks[::200]
blocks.clear()
before = rss()
if sys.argv[1] == "trimmed":
    from companion.serve import trim_malloc
    assert trim_malloc()
print(before - rss())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_trim_gives_back_the_free_pages_inside_the_heap() -> None:
    assert child_mb(SCATTERED, "plain") < 1
    assert child_mb(SCATTERED, "trimmed") > 15
