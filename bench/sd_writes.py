"""The SD card's share of a confirmed turn: block-layer bytes, fsyncs, and the settled frame.

A child process (the "player") plays confirmed ring-board turns through a real
:class:`~companion.table.Table` on a real SQLite file, with the emulated rings driven on
their mock pins as a player's hands would turn them: the dice rolled, each ring of a legal
rotation set turned and left to settle, the turn confirmed. It runs under
``strace -f -e trace=fsync,fdatasync`` (only those calls stop it, through seccomp-bpf), so
every fsync the process makes is counted, SQLite's included. Between the rings and the
confirm the player pauses (``--pause``, longer than settled offsets wait in memory, so they
are written while the table is idle, as at a real table). It prints, for the turns only
(start-up, a new game's start when one ends, and shut-down left out; the idle work the turns
cause, checkpoints included, counted):

1. block-layer bytes written per confirmed turn: ``write_bytes`` of ``/proc/self/io`` (the
   bytes of the pages the process dirtied, which the kernel sends to the disk: WAL frames,
   checkpoints, the ``-shm`` file's write-back), next to the bytes the turn adds to the
   journal; the data directory must be on a disk (not a tmpfs, where the figure stays 0 and
   the script says so). After the last turn the checkpoint the turns owe (the pages they
   changed since the last one, copied into the file) is run and its bytes counted in;
2. fsync/fdatasync calls per confirmed turn: the turns' own, and with the checkpoints' share
   (those in the run, and the owed one's three, the next change's WAL header included, for
   the part of its :data:`~companion.table.idle_writes.CHECKPOINT_COMMITS` changes the
   turns made);
3. from the end of ``settle_ms`` after a ring's last edge to the ``board`` item that shows
   it settled (the settled frame), p50/p99/max.

Run: ``.venv/bin/python bench/sd_writes.py [--turns N] [--dir PARENT]`` (needs ``strace``);
``--page-size`` and ``--checkpoint-commits`` measure other settings than the store's.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import zero2  # noqa: E402
from table_latency import Sensed, listen  # noqa: E402

from companion.games import rings  # noqa: E402
from companion.table import Table, idle_writes  # noqa: E402
from firmware.hardware import Hardware  # noqa: E402
from firmware.maps import load_led_map, load_pin_map  # noqa: E402

SETUP = {
    "kind": "rings",
    "board": "reference",
    "variant": "standard",
    "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
}
SYNC_CALL = re.compile(r"^\d+\s+(\d+\.\d+)\s+(?:fsync|fdatasync)\(\d+<([^>]*)>")


def write_bytes() -> int:
    """The bytes this process has sent to the block layer so far (``/proc/self/io``)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    raise RuntimeError("/proc/self/io has no write_bytes")


def journal_bytes(data: Path) -> int:
    """The bytes of every stored journal entry (what a turn means to keep)."""
    db = sqlite3.connect(f"file:{data / 'table.db'}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT COALESCE(SUM(LENGTH(action)), 0) FROM journal").fetchone()[0])
    finally:
        db.close()


def opener(settle_ms: int) -> Callable[..., Any]:
    """Open the emulated rings and LEDs as ``mandala serve --emulate`` does."""
    pin_map, led_map = load_pin_map(), load_led_map()

    def open_hardware(report_ring: Any, report_button: Any, spokes: int, offsets: Any) -> Any:
        return Hardware.open(
            pin_map, led_map, spokes, True, report_ring, report_button, offsets, settle_ms=settle_ms
        )

    return open_hardware


def wait_settled(
    items: queue.Queue[tuple[float, dict[str, Any]]], sensed: Sensed, ring: int, offset: int
) -> float:
    """Wait for the ``board`` item (whole, or its changes to ``sensed``) that shows ``ring``
    settled at ``offset``; answer when."""
    while True:
        at, item = items.get(timeout=30)
        if item.get("type") != "board":
            continue
        board = sensed.take(item)
        if board["offsets"][ring] == offset and board["rings"][ring]["settled"]:
            return at


def new_game(table: Any) -> dict[str, Any]:
    """Start a game on the board, every ring's mark at the star (as a player sets them)."""
    table.zero_rings()
    view: dict[str, Any] = table.create_game(dict(SETUP))
    if view["state"].get("resync") is not None:
        view = table.act(str(view["id"]), int(view["version"]), {"accept_offsets": True})
    return view


class Windows:
    """The stretches of time the turns took (a new game's start left out), with their bytes."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float]] = []
        self.bytes = 0
        self.opened, self.at_bytes = time.time(), write_bytes()

    def close(self) -> tuple[float, float]:
        self.spans.append((self.opened, time.time()))
        self.bytes += write_bytes() - self.at_bytes
        return self.spans[-1]

    def reopen(self) -> None:
        self.opened, self.at_bytes = time.time(), write_bytes()


def play(data: Path, turns: int, settle_ms: int, seed: int, pause: float) -> dict[str, Any]:
    """Play ``turns`` confirmed turns at a real table in ``data``; answer the figures."""
    rng = random.Random(seed)
    delays: list[float] = []
    with Table(data, opener(settle_ms)) as table:
        turner = table.ring_board.turner()
        subscription = table.subscribe()
        items = listen(subscription)
        sensed = Sensed(table.board())
        view = new_game(table)
        state = rings.new_game(dict(SETUP))
        start_journal = journal_bytes(data)
        windows = Windows()
        for _ in range(turns):
            if rings.is_over(state):
                windows.close()
                view = new_game(table)
                state = rings.new_game(dict(SETUP))
                windows.reopen()
            view = table.act(str(view["id"]), int(view["version"]), {"roll": True})
            dice = {str(k): int(v) for k, v in view["state"]["live"]["dice"].items()}
            chosen = rng.choice(rings.legal_rotation_sets(state, dice))
            offsets = list(table.board()["offsets"])
            for rotation in chosen:
                if rotation.steps == 0:
                    continue
                offsets[rotation.ring] = (offsets[rotation.ring] + rotation.steps) % 16
                turner.turn(rotation.ring, rotation.steps)
                settle_end = time.perf_counter() + settle_ms / 1000
                at = wait_settled(items, sensed, rotation.ring, offsets[rotation.ring])
                delays.append(at - settle_end)
            time.sleep(pause)  # the player looks before confirming: the table is idle
            try:
                view = table.act(str(view["id"]), int(view["version"]), {"confirm": True})
            except Exception as error:
                sensed = table.board()["offsets"]
                raise RuntimeError(f"{dice} {chosen}: rings at {sensed}: {error}") from error
            turn = {
                "dice": dice,
                "rotations": [{"ring": r.ring, "steps": r.steps} for r in chosen],
            }
            state = rings.apply(state, rings.parse_action(state, turn))
        time.sleep(pause)  # the idle work the last turn left (a checkpoint due) is done
        windows.close()
        store = table.state.db()
        owed = store.idle.commits  # the changes since the last checkpoint
        windows.reopen()
        frames = table.call(lambda: store.idle.checkpoint(store))
        checkpoint = windows.close()
        subscription.close()
    return {
        "spans": windows.spans[:-1],
        "checkpoint": [checkpoint],
        "owed": owed,
        "wal_frames": frames,
        "write_bytes": windows.bytes,
        "journal_bytes": journal_bytes(data) - start_journal,
        "delays": delays,
    }


def count_syncs(log: Path, spans: list[tuple[float, float]]) -> dict[str, int]:
    """The fsync/fdatasync calls an ``strace -ttt -y`` log shows within the spans of time,
    by the file synced (its name)."""
    counts: dict[str, int] = {}
    for line in log.read_text().splitlines():
        found = SYNC_CALL.match(line)
        if found and any(start <= float(found.group(1)) <= end for start, end in spans):
            name = Path(found.group(2)).name
            counts[name] = counts.get(name, 0) + 1
    return counts


def measure(
    data: Path,
    turns: int,
    settle_ms: int,
    pause: float,
    seed: int = 1,
    settings: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Run the player under strace in a child process; answer its figures and its fsyncs.

    :raises RuntimeError: no ``strace`` on this machine, or the player failed.
    """
    strace = shutil.which("strace")
    if strace is None:
        raise RuntimeError("strace is missing; install it with: apt-get install strace")
    log = data.with_name(data.name + ".strace")
    command = [
        strace,
        "--seccomp-bpf",
        "-f",
        "-qq",
        "-y",
        "-e",
        "trace=fsync,fdatasync",
        "-e",
        "signal=none",
        "-ttt",
        "-o",
        str(log),
        sys.executable,
        __file__,
        "--player",
        str(data),
        "--turns",
        str(turns),
        "--settle-ms",
        str(settle_ms),
        "--seed",
        str(seed),
        "--pause",
        str(pause),
        *settings,
    ]
    # The player runs once, in this process's column (a child stays in its parent's cgroup);
    # without the mark it would run itself twice, and its last line would be the second's.
    env = {**os.environ, zero2.CHILD: os.environ.get(zero2.CHILD, "host")}
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"the player failed ({done.returncode}): {done.stderr[-2000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    figures["synced"] = count_syncs(log, figures["spans"])
    figures["syncs"] = sum(figures["synced"].values())
    figures["checkpoint_synced"] = count_syncs(log, figures["checkpoint"])
    log.unlink()
    return figures


def file_system(path: Path) -> str:
    """The type of the file system ``path`` is on (from ``/proc/self/mounts``)."""
    best, kind = "", "unknown"
    for line in Path("/proc/self/mounts").read_text().splitlines():
        fields = line.split()
        point = fields[1]
        inside = str(path).startswith(point.rstrip("/") + "/") or str(path) == point
        if inside and len(point) > len(best):
            best, kind = point, fields[2]
    return kind


def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--settle-ms", type=int, default=20)
    parser.add_argument("--dir", type=Path, default=None, help="where the data directory goes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pause", type=float, default=1.5, help="seconds between the rings and the confirm"
    )
    parser.add_argument("--page-size", type=int, default=idle_writes.PAGE_SIZE)
    parser.add_argument("--checkpoint-commits", type=int, default=idle_writes.CHECKPOINT_COMMITS)
    parser.add_argument("--player", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.player is not None:
        # the settings to compare (the defaults are the store's own)
        idle_writes.PAGE_SIZE = args.page_size
        idle_writes.CHECKPOINT_COMMITS = args.checkpoint_commits
        print(json.dumps(play(args.player, args.turns, args.settle_ms, args.seed, args.pause)))
        return
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        data = Path(folder) / "data"
        settings = (
            *("--page-size", str(args.page_size)),
            *("--checkpoint-commits", str(args.checkpoint_commits)),
        )
        figures = measure(data, args.turns, args.settle_ms, args.pause, args.seed, settings)
        kind = file_system(data.resolve())
    turns = args.turns
    print(
        f"data directory on {kind}; {turns} confirmed turns (roll, rings turned, "
        f"{args.pause:g} s, confirm); pages of {args.page_size} bytes, a checkpoint when "
        f"idle after {args.checkpoint_commits} changes"
    )
    if figures["write_bytes"] == 0:
        print(f"   block-layer bytes not counted on {kind}: put --dir on a disk")
    per_turn = figures["write_bytes"] / turns
    stored = figures["journal_bytes"] / turns
    print(
        f"block-layer bytes per confirmed turn: {per_turn / 1024:.1f} KB "
        f"(journal entry {stored:.0f} bytes; target <= 16 KB)"
    )
    synced = ", ".join(f"{name} {count}" for name, count in sorted(figures["synced"].items()))
    # the owed checkpoint's fsyncs, and the WAL header the next change syncs after it
    owed = sum(figures["checkpoint_synced"].values()) + 1
    share = owed * min(1.0, figures["owed"] / args.checkpoint_commits)
    print(
        f"fsyncs per confirmed turn: {(figures['syncs'] + share) / turns:.3f} with the "
        f"checkpoints' share, the turns' own {figures['syncs'] / turns:.3f} (target <= 2; "
        f"{figures['syncs']} in the turns: {synced or 'none'}, table.db's are checkpoints; "
        f"a checkpoint {owed}, {figures['owed']} of its {args.checkpoint_commits} changes "
        "made since the last)"
    )
    if figures["delays"]:
        print(
            f"end of settle_ms ({args.settle_ms} ms) -> settled frame notified: "
            f"{percentiles(figures['delays'])} (n={len(figures['delays'])})"
        )


if __name__ == "__main__":
    zero2.twice(main)
