"""Every route of the app, with arbitrary bodies, headers and path values: never a 500, and
every 4xx in the one error format. Runs on a real Table with emulated rings.

The routes come from the app's URL map, so a new route is fuzzed without editing this test.
Requests go as a stranger and as the owner (so owner-only views parse their bodies too);
bodies include the inputs that once gave a 500: numbers over 4,300 digits, a 300-character
board name, lone surrogates in names, deep nesting."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.box.address import Reach
from companion.doctor.panel import PanelDoctor
from companion.table.table import Table
from companion.web import create_app
from companion.web.security import CONTENT_SECURITY_POLICY, FILE_VIEW
from tests.web.conftest import NEW_RINGS_GAME, is_error_format, pair_owner

SURROGATES = st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1)
TEXT = st.text(max_size=12) | SURROGATES | st.text(min_size=250, max_size=320)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | TEXT,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(
    ["version", "action", "kind", "seats", "record", "offset", "detents", "file", "board",
     "dice", "roll", "confirm", "accept_offsets", "resume", "variant"]
)  # fmt: skip
SHAPED = st.dictionaries(KEYS, JSON_VALUES | st.integers(-50, 50), max_size=4)
HUGE = st.integers(4301, 6000).map(lambda n: "9" * n)
NASTY = st.one_of(
    st.builds(lambda k, n: f'{{"{k}": {n}}}'.encode(), KEYS, HUGE),
    st.builds(lambda n: ("[" * n + "]" * n).encode(), st.integers(60, 3000)),
    st.builds(lambda k, n: f'{{"{k}": {"[" * n}{"]" * n}}}'.encode(), KEYS, st.integers(60, 200)),
    st.builds(
        lambda s: json.dumps({**NEW_RINGS_GAME, "seats": [{"name": s, "corner": 0}]}).encode(),
        SURROGATES,
    ),
    st.builds(
        lambda name: json.dumps({**NEW_RINGS_GAME, "board": name}).encode(),
        st.text(st.characters(min_codepoint=97, max_codepoint=122), min_size=250, max_size=320),
    ),
    st.sampled_from([b'{"seed": NaN}', b'{"version": Infinity}', b'{"offset": 1e999}']),
)
BODIES = st.one_of(
    st.binary(max_size=64),
    NASTY,
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
    SHAPED.map(lambda v: json.dumps(v).encode()),
    st.builds(
        lambda v, a: json.dumps({"version": v, "action": a}).encode(),
        st.integers(-1, 4),
        SHAPED | JSON_VALUES,
    ),
)
CONTENT_TYPES = st.sampled_from(
    ["application/json", "text/plain", "application/x-www-form-urlencoded",
     "multipart/form-data; boundary=x", "application/json; charset=latin-1", ""]
)  # fmt: skip
HEADER_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=20)
PLACEHOLDER = re.compile(r"<(?:(\w+):)?(\w+)>")


def test_no_route_answers_500_and_every_4xx_is_in_the_error_format(tmp_path: Path) -> None:
    data = tmp_path / "data"
    from firmware.hardware import Hardware
    from firmware.maps import load_led_map, load_pin_map

    pin_map, led_map = load_pin_map(), load_led_map()

    def open_hardware(report_ring: Any, report_button: Any, spokes: int, offsets: Any) -> Any:
        return Hardware.open(
            pin_map, led_map, spokes, True, report_ring, report_button, offsets, settle_ms=20
        )

    table = Table(data, open_hardware, data / "boards")
    table.start()
    try:
        config = {"BOARDS_DIR": data / "boards", "SSE_HEARTBEAT_SECONDS": 0.05}
        reach = Reach("0.0.0.0", 8000, addresses=lambda: ["192.168.1.20"])  # /join.svg draws
        app = create_app(config, table=table, diagnostics=PanelDoctor(), reach=reach)
        client = app.test_client()
        game_id = client.post("/api/games", json=NEW_RINGS_GAME).get_json()["id"]
        owner = pair_owner(app.test_client(), data)
        routes = [
            (rule.rule, method)
            for rule in app.url_map.iter_rules()
            for method in sorted(rule.methods or ())
        ]
        assert len({rule for rule, _ in routes}) >= 17  # every area is in the URL map

        def fill(rule: str, data: st.DataObject) -> str:
            def value(match: re.Match[str]) -> str:
                if match.group(1) == "int":
                    number = data.draw(st.integers(0, 12) | st.integers(0, 10**30))
                    return str(number)
                known = st.sampled_from([game_id, "reference", "done", "undo", "de"])
                text = data.draw(known | st.text(max_size=10))
                return quote(text, safe="")

            return PLACEHOLDER.sub(value, rule)

        @settings(max_examples=400, deadline=None)
        @given(
            route=st.sampled_from(routes),
            data=st.data(),
            body=BODIES,
            content_type=CONTENT_TYPES,
            extra=st.dictionaries(
                st.sampled_from(
                    [
                        "X-Seat-Token",
                        "Accept",
                        "Cookie",
                        "Content-Length",
                        "Origin",
                        "Host",
                        "Sec-Fetch-Site",
                    ]
                ),
                HEADER_TEXT,
                max_size=2,
            ),
            as_owner=st.booleans(),
        )
        def check(route: tuple[str, str], data: st.DataObject, body: bytes, content_type: str,
                  extra: dict[str, str], as_owner: bool) -> None:  # fmt: skip
            rule, method = route
            url = fill(rule, data)
            headers = dict(extra)
            if as_owner:
                headers["X-Owner-Token"] = owner
            headers.pop("Content-Length", None)  # the client sets the true length
            if content_type:
                headers["Content-Type"] = content_type
            response = client.open(url, method=method, data=body, headers=headers, buffered=False)
            try:
                status = response.status_code
                assert status < 500, (method, url, body, response.get_data()[:300])
                assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
                game_page = unquote(url.removeprefix("/games/"))
                routed = bool(game_page) and "/" not in game_page  # "/games/" routes nowhere
                # a game or a player not here: a page with a way home or back
                page_404 = rule == "/players/<int:player_id>" or (
                    rule == "/games/<game_id>" and routed
                )
                if page_404 and status == 404:
                    assert response.mimetype == "text/html", (method, url)
                elif 400 <= status < 500 and method != "HEAD":
                    assert is_error_format(response.get_data()), (method, url, body)
            finally:
                response.close()

        check()
    finally:
        table.close()


NOT_A_BACKUP = "not a Mandala Companion backup (it does not start as one)"
NOT_A_RELEASE = "not a Mandala Companion release file (it does not start as one)"
NASTY_BODIES = {
    "a number over 4,300 digits": (
        b'{"version": ' + b"9" * 4301 + b"}",
        "request body: a number of 4301 digits is too long (at most 4300)",
    ),
    "a lone surrogate in a name": (
        json.dumps({**NEW_RINGS_GAME, "seats": [{"name": "\ud800", "corner": 0}]}).encode(),
        "request body: text holds a lone surrogate (\\ud800); send real characters",
    ),
    "deep nesting": (b'{"action": ' + b"[" * 100 + b"]" * 100 + b"}", None),
    "NaN": (b'{"version": NaN}', "request body: not JSON: NaN is not a JSON value"),
}


def test_the_inputs_that_once_gave_500s_are_400_on_every_route_that_takes_a_body(
    emulated_client: FlaskClient, data_dir: Path
) -> None:
    client = emulated_client
    owner = {"X-Owner-Token": pair_owner(client, data_dir)}
    game_id = client.post("/api/games", json=NEW_RINGS_GAME).get_json()["id"]
    values = {
        "game_id": game_id,
        "ring": "0",
        "seat": "0",
        "name": "done",
        "owner_id": "x",
        "player_id": "1",
        "other": "2",
    }
    app = client.application
    rules = [
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        for method in sorted(rule.methods or ())
        if method == "POST"  # every POST reads a JSON body (DELETEs take none) or a file
    ]
    assert len(rules) >= 14
    file_routes = {
        rule.rule
        for rule in app.url_map.iter_rules()
        if getattr(app.view_functions[rule.endpoint], FILE_VIEW, False)
    }
    not_a_file = {"/api/box/restore": NOT_A_BACKUP, "/api/box/update": NOT_A_RELEASE}
    assert file_routes == set(not_a_file)
    games_before = client.get("/api/games").get_json()
    for rule, method in rules:
        url = PLACEHOLDER.sub(lambda m: values.get(m.group(2), "x"), rule)
        for what, (body, message) in NASTY_BODIES.items():
            response = client.open(
                url, method=method, data=body, headers=owner, content_type="application/json"
            )
            assert response.status_code == 400, (method, url, what, response.get_json())
            assert is_error_format(response.get_data())
            if rule in file_routes:  # the body is a file, not JSON: refused as not one
                assert response.get_json()["error"]["message"] == not_a_file[rule], (method, url)
            elif message is not None:
                assert response.get_json()["error"]["message"] == message, (method, url)
    assert client.get("/api/games").get_json() == games_before


def test_a_board_name_of_300_characters_is_400_not_a_file_error(
    client: FlaskClient, data_dir: Path
) -> None:
    (data_dir / "boards").mkdir(parents=True, exist_ok=True)
    name = "b" * 300
    response = client.post("/api/games", json={**NEW_RINGS_GAME, "board": name})
    assert response.status_code == 400
    assert is_error_format(response.get_data())
