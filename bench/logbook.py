"""The logbook's figures: the history page and a player's statistics page with 5,000 finished
plays stored (target: each under 300 ms here), and the one-time backfill of 1,000 games
finished before the logbook existed.

The 5,000 plays are the four kinds' finished spec examples (a ring-board win, a card game
tracking a real table, an Icehouse tie-break, a Stones tie), each copied with seats drawn
from a family of six and its own start time, and stored as the table stores them: a game
row, its seats and journal, its play and the play's seats (the copies are rows, not replays,
so that building the file is quick; the table replays every game at start, as it does on a
real box). The pages are asked through the panel (``create_app`` on the running Table, its
test client: routing, the table thread, SQLite, the statistics, Jinja): the first answer,
then the median and the slowest of 15. The backfill replays each of 1,000 stored games once
and writes the plays of the finished ones.

Run: ``.venv/bin/python bench/logbook.py [--plays N] [--backfill N]`` (``zero2.twice``: here,
then on the Pi Zero 2 stand-in; the stand-in run reuses the file the first one built).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import zero2  # noqa: E402

from companion import games as registry  # noqa: E402
from companion.table import Table, logbook, logbook_store  # noqa: E402
from companion.table.adapters import adapter  # noqa: E402
from companion.table.state import TableState  # noqa: E402
from companion.table.store import DB_NAME, Store  # noqa: E402
from companion.web import create_app  # noqa: E402

EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"
TEMPLATES = [
    "rings-08-win-by-centre-entry",
    "cards-t2-cups-decide",
    "icehouse-09-winner-tie-break",
    "stones-06-objectives-tie",
]
FAMILY = ["Ann", "Bo", "Cy", "Dee", "Ed", "Flo"]
BUILT = "MANDALA_LOGBOOK_BENCH_DIR"
TARGET_MS = 300.0


def examples_dir() -> Path:
    """The spec examples (``../shared/spec/examples`` beside the checkout, or the copy)."""
    for folder in (EXAMPLES, ROOT / "tests" / "spec_examples"):
        if (folder / f"{TEMPLATES[0]}.record.json").exists():
            return folder
    raise SystemExit("bench/logbook.py: the spec examples are not here")


def templates(data: Path) -> list[str]:
    """Import the four finished examples into ``data``; answer their game ids."""
    folder = examples_dir()
    with Table(data) as table:
        return [
            str(
                table.create_game(
                    {"record": json.loads((folder / f"{n}.record.json").read_text())}
                )["id"]
            )
            for n in TEMPLATES
        ]


def copy_plays(data: Path, count: int, seed: int = 24) -> None:
    """Store ``count`` finished plays: copies of the four imported examples (see the module)."""
    ids = templates(data)
    rng = random.Random(seed)
    db = sqlite3.connect(data / DB_NAME, isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    games = {row[0]: row for row in db.execute("SELECT * FROM games")}
    seats = {
        game_id: [str(row[0]) for row in db.execute(
            "SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )]
        for game_id in ids
    }  # fmt: skip
    journals = {
        game_id: db.execute(
            "SELECT seq, action FROM journal WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        for game_id in ids
    }
    plays = {game_id: logbook_store.play(db, game_id) for game_id in ids}
    start = time.time() - count * 3600.0
    db.execute("BEGIN")
    for number in range(count):
        source = ids[number % len(ids)]
        names = rng.sample(FAMILY, len(seats[source]))
        swap = dict(zip(seats[source], names, strict=True))

        def renamed(text: str, swap: dict[str, str] = swap) -> str:
            for old in swap:
                text = text.replace(f'"{old}"', f'"@{old}@"')
            for old, new in swap.items():
                text = text.replace(f'"@{old}@"', f'"{new}"')
            return text

        game_id = f"b{number:07d}"
        began = start + number * 3600.0
        ended = began + rng.randint(10, 90) * 60.0
        row = list(games[source])
        row[0], row[2], row[4], row[5] = game_id, renamed(row[2]), began, ended
        db.execute(f"INSERT INTO games VALUES ({','.join('?' * len(row))})", row)
        db.executemany(
            "INSERT INTO seats (game_id, seat, name) VALUES (?, ?, ?)",
            [(game_id, seat, swap[name]) for seat, name in enumerate(seats[source])],
        )
        db.executemany(
            "INSERT INTO journal (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
            [(game_id, seq, renamed(action), ended) for seq, action in journals[source]],
        )
        play = plays[source]
        assert play is not None
        db.execute(
            "INSERT INTO plays (game_id, seq, kind, variant, board, started, ended, figures)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                len(journals[source]),
                play.kind,
                play.variant,
                play.board,
                began,
                ended,
                json.dumps(play.figures),
            ),
        )
        for seat in play.seats:
            name = swap[seat.name]
            db.execute(
                "INSERT INTO play_seats (game_id, seat, player_id, name, score, rank, winner,"
                " figures) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seat.seat,
                    logbook_store.player_for(db, name, None, began),
                    name,
                    seat.score,
                    seat.rank,
                    int(seat.winner),
                    json.dumps(seat.figures),
                ),
            )
    for game_id in ids:  # only the copies stay
        db.execute("DELETE FROM games WHERE id = ?", (game_id,))
    db.execute("COMMIT")
    db.close()


def timed(client: Any, path: str, repeats: int = 15) -> tuple[float, float, float]:
    """The first answer's time, then the median and the slowest of ``repeats``, in ms."""
    times = []
    for _ in range(repeats + 1):
        began = time.perf_counter()
        answer = client.get(path)
        times.append((time.perf_counter() - began) * 1000)
        assert answer.status_code == 200, (path, answer.status_code)
    return times[0], statistics.median(times[1:]), max(times[1:])


def pages(data: Path, count: int) -> None:
    began = time.perf_counter()
    with Table(data) as table:
        started = time.perf_counter() - began
        app = create_app({"BOARDS_DIR": data / "boards"}, table=table)
        client = app.test_client()
        first_page = table.logbook.plays_page(1)
        stored, last = first_page["total"], first_page["pages"]
        listed = table.logbook.players_json()[0]  # the player with the most plays
        top = table.logbook.player(int(str(listed["id"])))
        print(f"   {stored} plays stored ({count} asked), {len(FAMILY)} players;"
              f" the table started in {started:.1f} s")  # fmt: skip
        rows = [
            ("history page (/history)", "/history"),
            (f"history, last page (/history?page={last})", f"/history?page={last}"),
            (f"player page ({top.name}, /players/{top.id})", f"/players/{top.id}"),
            ("GET /api/plays", "/api/plays"),
            (f"GET /api/players/{top.id}", f"/api/players/{top.id}"),
        ]
        for label, path in rows:
            first, median, slowest = timed(client, path)
            verdict = "" if median < TARGET_MS * (10 if zero2.on_stand_in() else 1) else "  SLOW"
            print(f"   {label:<44} first {first:7.1f} ms  median {median:7.1f} ms"
                  f"  slowest {slowest:7.1f} ms{verdict}")  # fmt: skip


def backfill(data: Path, count: int) -> None:
    """Time the one-time backfill of ``count`` stored games (each replayed once)."""
    copy_plays(data, count)
    db = sqlite3.connect(data / DB_NAME, isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("DELETE FROM plays")
    db.execute("DELETE FROM settings WHERE key = ?", (logbook.BACKFILLED_KEY,))
    db.close()
    state = TableState(lambda kind: adapter(kind).engine(registry.engine(kind)))
    state.store = Store(data)  # no games in memory: the backfill replays every one
    try:
        began = time.perf_counter()
        written = logbook.backfill(state)
        took = time.perf_counter() - began
    finally:
        state.store.close()
    print(f"   backfill of {count} games finished before the logbook: {written} plays written"
          f" in {took:.2f} s ({took / max(1, count) * 1000:.2f} ms a game)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=5000)
    parser.add_argument("--backfill", type=int, default=1000)
    args = parser.parse_args()
    built = Path(os.environ[BUILT])
    with tempfile.TemporaryDirectory(prefix="mandala-logbook-") as scratch:
        data = Path(scratch) / "data"
        if (built / DB_NAME).exists():  # the stand-in run measures the file the first built
            shutil.copytree(built, data)
        else:
            copy_plays(data, args.plays)
            shutil.copytree(data, built, dirs_exist_ok=True)
        pages(data, args.plays)
        backfill(Path(scratch) / "backfill", args.backfill)


if __name__ == "__main__":
    if BUILT not in os.environ:
        os.environ[BUILT] = tempfile.mkdtemp(prefix="mandala-logbook-built-")
    try:
        zero2.twice(main)
    finally:
        if not os.environ.get(zero2.CHILD):
            shutil.rmtree(os.environ[BUILT], ignore_errors=True)
