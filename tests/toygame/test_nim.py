"""A fifth game is cheap to add: Nim, registered from here, plays end to end on the panel.

Nim's engine (``tests/toygame/nim.py``) and its adapter (the defaults: ``Adapter``) go
into the public registries; no line of ``companion/table/`` or ``companion/web/`` knows
Nim. It is played through the HTTP API on the real waitress server while a phone follows
the live stream: create, a legal take, an illegal one refused with the JSON error, undo,
the listing, the game page, the home page's form, the export and its replay by ``mandala replay``.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

from companion.games.base import replay
from tests.conftest import run_cli
from tests.toygame import nim
from tests.web.conftest import is_error_format
from tests.web.test_events import stream

NEW_NIM = {"kind": "nim", "seats": ["Ann", "Bo"], "heap": 5}


def call(base: str, method: str, path: str, body: object = None) -> tuple[int, Any, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data, {"Content-Type": "application/json"}, method=method
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            raw = answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        raw, status = error.read(), error.code
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = None
    return status, parsed, raw


def take(base: str, game_id: str, version: int, count: object) -> tuple[int, Any, bytes]:
    body = {"version": version, "action": {"take": count}}
    return call(base, "POST", f"/api/games/{game_id}/actions", body)


def test_nim_plays_end_to_end_through_the_api_and_the_live_stream(panel: str) -> None:
    with stream(panel) as phone:
        assert phone.next_item()["type"] == "state"

        status, game, _ = call(panel, "POST", "/api/games", NEW_NIM)
        assert status == 201, game
        assert (game["kind"], game["version"]) == ("nim", 1)
        assert game["state"]["heap"] == 5 and game["state"]["to_move"] == "Ann"
        game_id = game["id"]
        listed = phone.wait_for(lambda item: item["type"] == "games")
        assert [(g["id"], g["kind"], g["seats"]) for g in listed["games"]] == [
            (game_id, "nim", ["Ann", "Bo"])
        ]

        status, game, _ = take(panel, game_id, 1, 3)
        assert status == 200, game
        assert (game["version"], game["state"]["heap"], game["state"]["to_move"]) == (2, 2, "Bo")
        assert game["state"]["log"] == [{"action": 3, "instructions": []}]
        seen = phone.wait_for(lambda item: item["type"] == "game" and item["id"] == game_id)
        assert (seen["version"], seen["state"]["heap"]) == (2, 2)

        status, refused, raw = take(panel, game_id, 2, 3)
        assert status == 409 and is_error_format(raw), raw
        assert refused["error"]["message"] == "take 2: 3 stones: take 1 to 2"
        status, refused, raw = take(panel, game_id, 2, "two")
        assert status == 400 and is_error_format(raw), raw
        assert (
            refused["error"]["message"] == "take 2: stones: expected a whole number, got a string"
        )
        status, game, _ = call(panel, "GET", f"/api/games/{game_id}")
        assert (game["version"], game["state"]["heap"]) == (2, 2)  # nothing lost

        status, game, _ = call(panel, "POST", f"/api/games/{game_id}/undo", {"version": 2})
        assert status == 200, game
        assert (game["version"], game["state"]["heap"], game["state"]["log"]) == (3, 5, [])
        seen = phone.wait_for(lambda item: item["type"] == "game" and item["version"] == 3)
        assert seen["state"]["heap"] == 5

        for version, count in ((3, 2), (4, 3)):
            status, game, _ = take(panel, game_id, version, count)
            assert status == 200, game
        assert game["state"]["over"] is True and game["state"]["winner"] == "Bo"
        listed = phone.wait_for(
            lambda item: item["type"] == "games" and item["games"][0]["over"] is True
        )
    entry = listed["games"][0]
    assert (entry["winner"], entry["scores"], entry["to_move"]) == ("Bo", {"Ann": 2, "Bo": 3}, None)

    status, page, _ = call(panel, "GET", "/api/games")
    assert status == 200 and [g["id"] for g in page["games"]] == [game_id]
    status, _, html = call(panel, "GET", f"/games/{game_id}")
    assert status == 200 and b"Ann" in html

    status, _, home = call(panel, "GET", "/")
    assert status == 200 and b'<option value="nim">Nim</option>' in home  # the new-game form
    embedded = re.search(rb'<script type="application/json" id="data">(.*?)</script>', home)
    assert embedded is not None
    assert json.loads(embedded.group(1))["forms"]["nim"] == {
        "title": "Nim",
        "seats": [2, 4],
        "seat_fields": "name",
        "options": None,
        "seed": True,
    }

    status, record, _ = call(panel, "GET", f"/api/games/{game_id}/record")
    assert status == 200
    assert record == {"game": "nim", "seats": ["Ann", "Bo"], "heap": 5, "takes": [2, 3]}
    summary = nim.summary(replay(nim, record))
    assert {key: game["state"][key] for key in summary} == summary
    replayed = run_cli(["replay", "-"], stdin=json.dumps(record))
    assert replayed.status == 0, replayed
    assert json.loads(replayed.stdout) == summary
