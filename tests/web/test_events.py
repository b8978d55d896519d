"""Server-Sent Events on real waitress: current state first, every change, heartbeats, cap."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from tests.stream import follow
from tests.web.conftest import NEW_RINGS_GAME, is_error_format


class Stream:
    """One open ``/api/events`` connection, read line by line."""

    def __init__(self, base: str, source: str | None = None) -> None:
        """Connect to ``base`` (from the local address ``source``: another phone)."""
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=10, source_address=source and (source, 0)
        )
        self.connection.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()

    def lines(self) -> Iterator[str]:
        while True:
            line = self.response.readline()
            if not line:
                return
            yield line.decode("utf-8").rstrip("\n")

    def next_item(self) -> dict[str, Any]:
        for line in self.lines():
            if line.startswith("data: "):
                item: dict[str, Any] = json.loads(line[len("data: ") :])
                return item
        raise AssertionError("the stream ended")

    def wait_for(self, wanted: Any, seconds: float = 5.0) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            item = self.next_item()
            if wanted(item):
                return item
        raise AssertionError("no such item in time")

    def close(self) -> None:
        sock = self.connection.sock
        if sock is not None:  # the response's file keeps the socket open otherwise
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.response.close()
        self.connection.close()


@contextmanager
def stream(base: str) -> Iterator[Stream]:
    opened = Stream(base)
    try:
        yield opened
    finally:
        opened.close()


def post(base: str, path: str, body: object) -> tuple[int, Any]:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_first_item_is_the_current_state(server: str) -> None:
    with stream(server) as events:
        assert events.response.status == 200
        assert events.response.getheader("Content-Type", "").startswith("text/event-stream")
        first = events.next_item()
    assert first["type"] == "state"
    assert first["games"] == []
    assert first["board"]["offsets"] == [0] * 10
    assert first["board"]["emulated"] is True


def test_a_new_game_reaches_a_connected_client(server: str) -> None:
    with stream(server) as events:
        events.next_item()
        status, game = post(server, "/api/games", NEW_RINGS_GAME)
        assert status == 201
        item = events.wait_for(lambda i: i["type"] == "games")
    assert [g["id"] for g in item["games"]] == [game["id"]]


def test_a_ring_turn_reaches_a_connected_client_as_board_and_live_turn(server: str) -> None:
    status, game = post(server, "/api/games", NEW_RINGS_GAME)
    assert status == 201
    with stream(server) as events:
        first = events.next_item()
        post(server, "/api/emulator/rings/3/turn", {"detents": 2})
        items, view, board = [], first["game"], first["board"]
        while board["offsets"][3] != 2 or view["state"]["live"]["rings"][3]["sensed"] != 2:
            items.append(events.next_item())
            view, board = follow(view, board, items[-1:])
    assert board["offsets"] == [0, 0, 0, 2, 0, 0, 0, 0, 0, 0]
    live = [item for item in items if item["type"] == "live"]
    assert live and live[-1]["id"] == game["id"] and live[-1]["version"] == game["version"]


def test_a_reconnecting_client_gets_the_current_state_first(server: str) -> None:
    with stream(server) as events:
        events.next_item()
    status, game = post(server, "/api/games", NEW_RINGS_GAME)
    assert status == 201
    post(server, "/api/emulator/rings/0/turn", {"detents": -1})
    time.sleep(0.3)
    with stream(server) as again:
        first = again.next_item()
    assert first["type"] == "state"
    assert [g["id"] for g in first["games"]] == [game["id"]]
    assert first["game"]["id"] == game["id"]
    assert first["board"]["offsets"][0] == 15


def test_an_idle_stream_gets_heartbeats(server: str) -> None:
    with stream(server) as events:
        events.next_item()
        started = time.monotonic()
        lines = events.lines()
        line = next(lines)
        while line == "":
            line = next(lines)
    assert line == ": heartbeat"
    assert time.monotonic() - started < 5


def test_one_stream_beyond_a_clients_share_is_409_and_a_closed_one_frees_its_place(
    server: str,
) -> None:
    from companion.table.hub import PER_CLIENT

    opened = [Stream(server) for _ in range(PER_CLIENT)]
    try:
        for one in opened:
            one.next_item()
        refused = Stream(server)
        assert refused.response.status == 409
        body = refused.response.read()
        refused.close()
        assert is_error_format(body)
        assert json.loads(body)["error"] == {
            "code": "conflict",
            "message": f"too many live streams from 127.0.0.1: it holds {PER_CLIENT}; "
            "close a page of the panel and retry",
        }
    finally:
        for one in opened:
            one.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # a closed stream is noticed within a second
        again = Stream(server)
        if again.response.status == 200:
            assert again.next_item()["type"] == "state"
            again.close()
            return
        again.close()
        time.sleep(0.2)
    raise AssertionError("the closed streams never freed their places")
