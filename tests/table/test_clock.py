"""The box's time: taken from the first phone while unsynchronised, never otherwise."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, cast

import pytest

from companion.catalogue import render
from companion.phrases import phrase_from_json
from companion.table import clock
from companion.table.clock import BoxClock, correct_stamps
from companion.table.store import DB_NAME
from companion.table.table import Table

BOX = 1_796_000_000.0  # the box's own (wrong) clock, seconds since 1970 (2026-12)
HOUR = 3600.0


class Stand:
    """A wall clock, a monotonic clock and a sync state the test moves by hand."""

    def __init__(self, synced: bool | None) -> None:
        self.wall = BOX
        self.mono = 0.0
        self.synced = synced
        self.asked = 0

    def synchronised(self) -> bool | None:
        self.asked += 1
        return self.synced

    def clock(self) -> BoxClock:
        return BoxClock(self.synchronised, lambda: self.wall, lambda: self.mono)


def ms(seconds: float) -> str:
    return str(int(seconds * 1000))


def test_an_unsynchronised_box_takes_the_first_phones_time() -> None:
    stand = Stand(False)
    box = stand.clock()
    taken = box.offer(ms(BOX + 3 * HOUR), "Ann's phone")
    assert taken is not None and taken.offset == 3 * HOUR and taken.phone == "Ann's phone"
    assert box.now() == BOX + 3 * HOUR
    assert box.offer(ms(BOX + 5 * HOUR), "Bo's phone") is None  # the first phone's stays
    assert box.now() == BOX + 3 * HOUR
    said = box.source()
    assert said["source"] == "phone" and said["phone"] == "Ann's phone"
    phrase = phrase_from_json(cast(dict[str, Any], said["phrase"]))
    assert "the box's clock was 3 h behind" in phrase.english()
    assert box.source_phrase() == phrase
    assert render(phrase, "de") == (
        "von einem Handy übernommen (Ann's phone) um 2026-11-30 03:53 UTC: die Uhr der Box ging"
        " 3 h nach; sie wurde seit dem Start nie synchronisiert"
    )


@pytest.mark.parametrize(
    ("corrected", "english", "german"),
    [
        (1, "the times of 1 game stored before", "die Zeiten von 1 vorher gespeicherten Spiel "),
        (2, "the times of 2 games stored before", "die Zeiten von 2 vorher gespeicherten Spielen "),
    ],
)
def test_the_corrected_games_are_counted_in_the_singular_and_the_plural(
    corrected: int, english: str, german: str
) -> None:
    box = Stand(False).clock()
    box.offer(ms(BOX + 3 * HOUR), "Ann's phone")
    box.corrected = corrected
    phrase = phrase_from_json(cast(dict[str, Any], box.source()["phrase"]))
    assert phrase.english().endswith(f"; {english} were corrected")
    assert render(phrase, "de").endswith(f"; {german}wurden korrigiert")


def test_a_synchronised_box_never_takes_a_phones_time() -> None:
    stand = Stand(True)
    box = stand.clock()
    assert box.offer(ms(BOX + 3 * HOUR), "Ann's phone") is None
    assert box.now() == BOX
    assert box.source() == {
        "source": "network",
        "phrase": {"text": "the box's clock is synchronised"},
    }


def test_a_box_that_cannot_tell_takes_no_phones_time() -> None:
    box = Stand(None).clock()
    assert box.offer(ms(BOX + 3 * HOUR), "Ann's phone") is None
    assert box.source()["source"] == "box"
    assert "cannot be checked" in box.source_phrase().english()


def test_implausible_times_and_times_behind_the_box_are_not_taken() -> None:
    box = Stand(False).clock()
    for value in ["", "soon", "-5", ms(BOX - HOUR), "1" * 17, ms(5e9), ms(1e9), "1e12"]:
        assert box.offer(value, "phone") is None, value
    assert box.taken is None
    assert box.offer(ms(BOX - 60), "phone") is not None  # a minute behind: the phones' own


def test_the_difference_is_dropped_once_the_clock_is_synchronised() -> None:
    stand = Stand(False)
    box = stand.clock()
    box.offer(ms(BOX + 3 * HOUR), "phone")
    stand.synced = True
    assert box.now() == BOX + 3 * HOUR  # asked again only after a minute
    stand.mono = clock.RECHECK_S
    stand.wall = BOX + 3 * HOUR  # the time server set the clock
    assert box.now() == BOX + 3 * HOUR
    assert box.taken is None and box.source()["source"] == "network"
    asked = stand.asked
    stand.mono += 10 * clock.RECHECK_S
    box.now()
    assert stand.asked == asked  # synchronised stays synchronised: never asked again


def test_the_sync_state_is_asked_at_most_once_a_minute() -> None:
    stand = Stand(False)
    box = stand.clock()
    for _ in range(50):
        box.offer("x", "phone")
        box.source()
    assert stand.asked == 1


def test_stamps_stored_before_are_corrected_and_marked(tmp_path: Path) -> None:
    seats = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}]
    game = {"kind": "rings", "seats": seats, "board": "reference", "variant": "standard"}
    stand = Stand(False)
    stand.wall = time.time()  # the table stamps with the real clock until a phone's is taken
    box = stand.clock()
    before = box.started - 10 * HOUR  # a game from an earlier run keeps its times
    with Table(tmp_path) as service:
        old = str(service.create_game(game)["id"])
        new = str(service.create_game(game)["id"])
        service.act(new, 1, {"dice": {"red": 1, "blue": 0, "green": 2, "yellow": 0, "brown": 3}})
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        db.execute("UPDATE games SET created = ?, updated = ? WHERE id = ?", (before, before, old))
        (created,) = db.execute("SELECT created FROM games WHERE id = ?", (new,)).fetchone()
    stand.wall = time.time() + 1
    taken = box.offer(ms(stand.wall + 2 * HOUR), "Ann's phone")
    assert taken is not None
    assert correct_stamps(str(tmp_path / DB_NAME), box.started, taken) == [new]
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        rows = dict(db.execute("SELECT id, created FROM games").fetchall())
        (updated,) = db.execute("SELECT updated FROM games WHERE id = ?", (new,)).fetchone()
        (mark,) = db.execute(
            "SELECT value FROM settings WHERE key = ?", (clock.MARK_KEY,)
        ).fetchone()
    assert rows == {old: before, new: created + taken.offset}
    assert updated >= created + taken.offset  # the dice entered after it was created
    assert json.loads(mark) == [
        {
            "phone": "Ann's phone",
            "offset_s": round(taken.offset, 3),
            "at": clock.iso(stand.wall + 2 * HOUR),
            "games": [new],
        }
    ]


def test_stamps_after_a_phones_time_was_taken_carry_its_difference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = BoxClock(lambda: False)
    assert box.offer(ms(time.time() + 2 * HOUR), "Ann's phone") is not None
    monkeypatch.setattr(clock, "_installed", [box])
    seats = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}]
    game = {"kind": "rings", "seats": seats, "board": "reference", "variant": "standard"}
    with Table(tmp_path) as service:
        service.create_game(game)
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        (created,) = db.execute("SELECT created FROM games").fetchone()
    assert abs(created - (time.time() + 2 * HOUR)) < 60
