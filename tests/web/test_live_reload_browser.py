"""A phone told to reload its live stream does so at once and catches up (real Chromium).

The server ends a stream whose phone fell behind with ``{"type": "reload"}``
(``companion.web.events``). Here the phone's first stream is that marker alone, sent with a
``retry`` of a minute: EventSource by itself would wait that minute before reconnecting, so
the game created meanwhile appears only because the page reloads on the marker.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import api, phone, serve_emulated, shot

pytestmark = pytest.mark.browser

DROPPED = 'retry: 60000\n\ndata: {"type": "reload"}\n\n'
NEW_ICEHOUSE = {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1}  # the same game, made new


def test_a_phone_told_to_reload_does_so_at_once_and_shows_what_changed(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    with serve_emulated(tmp_path / "data") as served:
        page = phone(browser, served)
        streams: list[str] = []

        def events(route: Any) -> None:
            streams.append(route.request.url)
            if len(streams) == 1:
                route.fulfill(status=200, content_type="text/event-stream", body=DROPPED)
            else:
                route.continue_()

        page.route(re.compile(r".*/api/events$"), events)
        page.goto(served + "/")
        expect(page.locator("#games")).to_contain_text("No games yet.")
        game = api(served, "/api/games", NEW_ICEHOUSE)
        listed = page.locator(f'#games li[data-id="{game["id"]}"]')
        expect(listed).to_contain_text("Icehouse Mandala · Ann's turn", timeout=10_000)
        expect(page.locator("#live")).to_have_text("live")
        shot(page, "live-reload-home-360")
        assert len(streams) == 2
        assert page.errors == []
