"""Live streams one device cannot starve, on real waitress (``mandala serve``'s own server).

Other phones are other local addresses (127.0.0.2, ...): Linux routes all of 127/8 to the
loopback, so each connection comes from its own client address, as phones on a Wi-Fi do.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from companion.table.hub import MAX_SUBSCRIBERS, PER_CLIENT
from companion.table.table import Table
from tests.web.conftest import is_error_format, serving
from tests.web.test_events import Stream, post

ICEHOUSE = {"game": "icehouse", "seats": ["Ann", "Bo"], "seed": 1, "picks": []}
NEW_ICEHOUSE = {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1}  # the same game, made new


@pytest.fixture
def quiet_server(table: Table) -> Iterator[str]:
    """The panel with the production heartbeat (15 s): a gone client is not noticed by it."""
    yield from serving(table, {})


def wait_until(check: Any, seconds: float = 10.0) -> bool:
    """Poll ``check`` until it is true (a deadline that only guards a hang)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_one_client_holding_100_streams_does_not_stop_another_phone(
    table: Table, quiet_server: str
) -> None:
    hog = [Stream(quiet_server) for _ in range(100)]
    try:
        statuses = [one.response.status for one in hog]
        assert statuses.count(200) == PER_CLIENT
        assert statuses.count(409) == 100 - PER_CLIENT
        refused = next(one for one in hog if one.response.status == 409)
        body = refused.response.read()
        assert is_error_format(body)
        assert json.loads(body)["error"]["message"] == (
            f"too many live streams from 127.0.0.1: it holds {PER_CLIENT}; "
            "close a page of the panel and retry"
        )
        with_place = [one for one in hog if one.response.status == 200]
        for one in with_place:
            assert one.next_item()["type"] == "state"
        phone = Stream(quiet_server, source="127.0.0.2")
        try:
            assert phone.response.status == 200
            assert phone.next_item()["type"] == "state"
            status, game = post(quiet_server, "/api/games", NEW_ICEHOUSE)
            assert status == 201
            seen = phone.wait_for(lambda i: i["type"] == "games")
            assert [g["id"] for g in seen["games"]] == [game["id"]]
        finally:
            phone.close()
    finally:
        for one in hog:
            one.close()


def test_streams_beyond_the_total_are_refused_even_from_a_new_client(quiet_server: str) -> None:
    sources = [f"127.0.0.{2 + n // PER_CLIENT}" for n in range(MAX_SUBSCRIBERS)]
    opened = [Stream(quiet_server, source=source) for source in sources]
    try:
        assert [one.response.status for one in opened] == [200] * MAX_SUBSCRIBERS
        late = Stream(quiet_server, source="127.0.1.1")
        assert late.response.status == 409
        assert json.loads(late.response.read())["error"] == {
            "code": "conflict",
            "message": f"too many live streams: {MAX_SUBSCRIBERS} are open; close one and retry",
        }
        late.close()
    finally:
        for one in opened:
            one.close()


def test_a_closed_stream_frees_its_place_within_5_seconds(table: Table, quiet_server: str) -> None:
    opened = [Stream(quiet_server) for _ in range(PER_CLIENT)]
    try:
        for one in opened:
            assert one.next_item()["type"] == "state"
        refused = Stream(quiet_server)
        assert refused.response.status == 409
        refused.close()
        opened.pop().close()
        closed_at = time.monotonic()
        assert wait_until(lambda: table.hub.count() == PER_CLIENT - 1, seconds=5)
        freed_after = time.monotonic() - closed_at
        again = Stream(quiet_server)
        assert again.response.status == 200
        again.close()
    finally:
        for one in opened:
            one.close()
    assert freed_after < 5


@pytest.mark.slow
def test_a_stream_that_does_not_read_is_told_to_reload_and_dropped(
    table: Table, quiet_server: str
) -> None:
    for _ in range(20):  # a list of games in every "games" item
        table.create_game({"record": ICEHOUSE})
    game = table.create_game({"record": ICEHOUSE})
    port = int(quiet_server.rsplit(":", 1)[1])
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect(("127.0.0.1", port))
    stalled.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    try:
        assert wait_until(lambda: table.hub.count() == 1)
        version, changes = game["version"], 0
        while table.hub.count() and changes < 4000:  # it never reads a byte
            version = table.act(game["id"], version, {"pick": 4})["version"]
            version = table.undo(game["id"], version)["version"]
            changes += 2
        assert table.hub.count() == 0, f"still streaming after {changes} changes"
        stalled.settimeout(10)
        received = b""
        while chunk := stalled.recv(1 << 16):  # the server ends the response
            received += chunk
    finally:
        stalled.close()
    events = [line for line in received.split(b"\n") if line.startswith(b"data: ")]
    assert json.loads(events[-1][len(b"data: ") :]) == {"type": "reload"}
    assert json.loads(events[0][len(b"data: ") :])["type"] == "state"
    assert received.endswith(b"\r\n0\r\n\r\n")  # the chunked body's end: nothing after it
