"""Live updates as changes (issue 23), read by real ``/api/events`` clients on waitress.

A ring move sends the board, the LED frame and the live turn only; a changed game its state
and its log's new entries; a phone that joins or reconnects gets the whole state once. Each
phone puts the changes together with the game it holds (``tests.stream``, as the panel's
``Panel.merge`` does) and ends up with the game as ``GET /api/games/<id>`` answers it.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from bench.long_game import long_record
from companion.table import Table
from tests.stream import follow, put_together
from tests.web.conftest import NEW_RINGS_GAME
from tests.web.test_events import Stream, post, stream

LONG = 300
"""Turns of the long game: a phone receives the same few hundred bytes per ring move."""
NO_DICE = {"red": 0, "blue": 0, "green": 0, "yellow": 0, "brown": 0}


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return json.loads(answer.read())


def read_item(events: Stream) -> tuple[dict[str, Any], int]:
    """The next item and every byte the stream sent up to its end (heartbeats included)."""
    size = 0
    while True:
        raw = events.response.readline()
        assert raw, "the stream ended"
        size += len(raw)
        if raw.startswith(b"data: "):
            events.response.readline()  # the blank line that ends the event
            return json.loads(raw[len(b"data: ") :]), size + 1


def until(events: Stream, wanted: Any) -> tuple[list[dict[str, Any]], int]:
    """Items up to the first that ``wanted`` accepts, and the bytes they took."""
    items, size = [], 0
    while True:
        item, took = read_item(events)
        items.append(item)
        size += took
        if wanted(item):
            return items, size


class Phone:
    """One ``/api/events`` reader that keeps the board game and the board as the stream's
    changes make them."""

    def __init__(self, events: Stream) -> None:
        self.events = events
        self.first, _ = read_item(events)
        assert self.first["type"] == "state"
        self.board: dict[str, Any] = self.first["board"]
        self.view: dict[str, Any] | None = self.first["game"]

    def turn(self, base: str, ring: int, detents: int) -> tuple[list[dict[str, Any]], int]:
        """Turn ``ring`` on the emulator; the items (and bytes) until this phone has it
        settled there."""
        target = (self.board["offsets"][ring] + detents) % 16
        status, _ = post(base, f"/api/emulator/rings/{ring}/turn", {"detents": detents})
        assert status == 200

        def settled(item: dict[str, Any]) -> bool:
            self.view, self.board = follow(self.view, self.board, [item])
            ring_now = self.board["rings"][ring]
            return bool(self.board["offsets"][ring] == target and ring_now["settled"])

        return until(self.events, settled)

    def board_to_game(self, base: str, offsets: list[int]) -> None:
        """Turn each emulated ring to the game's offset (the re-sync after an import)."""
        for ring, offset in enumerate(offsets):
            if offset:
                self.turn(base, ring, offset)


def put_all_together(held: dict[str, Any], items: list[dict[str, Any]]) -> dict[str, Any]:
    view, _ = follow(held, {"seq": None}, [item for item in items if item["type"] != "board"])
    assert view is not None
    return view


@pytest.fixture(scope="module")
def long_game() -> dict[str, Any]:
    return {"record": long_record(LONG)}


def test_a_ring_move_sends_each_phone_under_2_kb_in_a_game_of_hundreds_of_turns(
    server: str, emulated_table: Table, long_game: dict[str, Any]
) -> None:
    game = emulated_table.create_game(long_game)  # an import: the owner's, below the panel
    assert game["state"]["turns"] == LONG
    with stream(server) as events:
        phone = Phone(events)
        first = phone.first
        phone.board_to_game(server, game["state"]["offsets"])
        sizes, seen = [], []
        for ring, detents in [(0, 1), (0, -1), (5, 1), (5, -1), (9, -1), (9, 1)]:
            items, size = phone.turn(server, ring, detents)
            sizes.append(size)
            seen.extend(items)
    assert max(sizes) < 2048, sizes
    assert {item["type"] for item in seen} <= {"board", "leds", "live"}
    assert any(item["type"] == "live" for item in seen)
    # The changes add up to the game and the board as they stand, 300 log entries included.
    whole = get(server, f"/api/games/{game['id']}")
    assert first["game"]["state"]["log"] == whole["state"]["log"]
    assert len(whole["state"]["log"]) == LONG
    assert phone.view == whole
    assert phone.board == get(server, "/api/board")


def test_a_phone_that_connects_mid_game_gets_the_whole_state_once_then_changes(
    server: str, emulated_table: Table, long_game: dict[str, Any]
) -> None:
    game = emulated_table.create_game(long_game)
    path = f"/api/games/{game['id']}"
    with stream(server) as events:
        phone = Phone(events)
        first = phone.first
        assert first["game"] == get(server, path)  # the whole game, its whole log
        phone.board_to_game(server, game["state"]["offsets"])
        version = get(server, path)["version"]
        for action in ({"dice": NO_DICE}, {"confirm": True}):
            status, answer = post(server, path + "/actions", {"version": version, "action": action})
            assert status == 200, answer
            version = answer["version"]
        items, _ = until(events, lambda i: i["type"] == "game" and i["version"] == version)
    games = [item for item in items if item["type"] == "game"]
    assert [len(item["log"]["entries"]) for item in games] == [0, 1]  # the dice; the turn
    assert all("log" not in item["state"] for item in games)
    assert phone.view is not None
    assert put_all_together(phone.view, items) == get(server, path)


def test_log_entries_arrive_in_order_and_an_undo_takes_the_last_away(server: str) -> None:
    status, game = post(server, "/api/games", NEW_RINGS_GAME)
    assert status == 201
    path = f"/api/games/{game['id']}"
    version = game["version"]
    with stream(server) as events:
        first, _ = read_item(events)
        lengths = []

        def send(route: str, body: dict[str, Any]) -> None:
            nonlocal version
            status, answer = post(server, path + route, {"version": version, **body})
            assert status == 200, answer
            version = answer["version"]
            items, _ = until(events, lambda i: i["type"] == "game" and i["version"] == version)
            held[0] = put_all_together(held[0], items)
            lengths.append(len(held[0]["state"]["log"]))

        held = [first["game"]]
        for _ in range(3):
            send("/actions", {"action": {"dice": NO_DICE}})
            send("/actions", {"action": {"confirm": True}})
        send("/undo", {})
        send("/actions", {"action": {"confirm": True}})
    assert lengths == [0, 1, 1, 2, 2, 3, 2, 3]
    whole = get(server, path)
    assert held[0] == whole
    turns = [entry["action"]["dice"] for entry in whole["state"]["log"]]
    assert turns == [NO_DICE] * 3


def test_a_phone_that_reconnects_after_missing_changes_gets_the_whole_state(server: str) -> None:
    status, game = post(server, "/api/games", NEW_RINGS_GAME)
    assert status == 201
    path = f"/api/games/{game['id']}"
    with stream(server) as events:
        first, _ = read_item(events)
    version = first["game"]["version"]
    for action in ({"dice": NO_DICE}, {"confirm": True}, {"dice": NO_DICE}, {"confirm": True}):
        status, answer = post(server, path + "/actions", {"version": version, "action": action})
        assert status == 200, answer
        version = answer["version"]
    with stream(server) as again:
        back, _ = read_item(again)
    assert back["type"] == "state"
    assert back["game"] == get(server, path)
    assert len(back["game"]["state"]["log"]) == 2
    # What it held cannot take the next change: it fetches the game (Panel.merge says so).
    change = {"type": "game", **{k: v for k, v in back["game"].items() if k != "state"}}
    change["state"] = {k: v for k, v in back["game"]["state"].items() if k != "log"}
    change["log"] = {"base": back["game"]["version"], "from": 2, "entries": []}
    assert put_together(first["game"], change) is None
