"""Every route of the app, with arbitrary bodies, headers and path values: never a 500, and
every 4xx in the one error format. Runs on a real Table with emulated rings."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.table.service import Table
from companion.web import create_app
from tests.web.conftest import NEW_RINGS_GAME, is_error_format

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
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
BODIES = st.one_of(
    st.binary(max_size=64),
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
        app = create_app(config, table=table)
        client = app.test_client()
        game_id = client.post("/api/games", json=NEW_RINGS_GAME).get_json()["id"]
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
                known = st.sampled_from([game_id, "reference", "done", "undo"])
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
                st.sampled_from(["X-Seat-Token", "Accept", "Cookie", "Content-Length", "Origin"]),
                HEADER_TEXT,
                max_size=2,
            ),
        )
        def check(route: tuple[str, str], data: st.DataObject, body: bytes, content_type: str,
                  extra: dict[str, str]) -> None:  # fmt: skip
            rule, method = route
            url = fill(rule, data)
            headers = dict(extra)
            headers.pop("Content-Length", None)  # the client sets the true length
            if content_type:
                headers["Content-Type"] = content_type
            response = client.open(url, method=method, data=body, headers=headers, buffered=False)
            try:
                status = response.status_code
                assert status < 500, (method, url, body, response.get_data()[:300])
                if rule == "/games/<game_id>" and status == 404:  # a page with a way home
                    assert response.mimetype == "text/html", (method, url)
                elif 400 <= status < 500 and method != "HEAD":
                    assert is_error_format(response.get_data()), (method, url, body)
            finally:
                response.close()

        check()
    finally:
        table.close()
