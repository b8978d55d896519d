"""The panel's Content Security Policy refuses nothing its own pages need (Chromium, CSP on).

``phone()`` records every CSP refusal as a page error; this visits every page, with a game of
every kind, at 360 px and at tablet size.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.web.security import CONTENT_SECURITY_POLICY
from tests.web.browser import api, phone, serve_emulated, shot
from tests.web.conftest import NEW_RINGS_GAME

pytestmark = pytest.mark.browser

NEW_GAMES = [
    NEW_RINGS_GAME,
    {"kind": "icehouse", "seats": ["Ann", "Bo"]},
    {"kind": "stones", "seats": ["Ann", "Bo"]},
    {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "table"},
    {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "play"},
]
PAGES = ["/", "/calibrate", "/health", "/boards/new", "/cards/sheet", "/games/no-such-game"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serve_emulated(tmp_path / "data") as url:
        yield url


@pytest.mark.parametrize("size", [(360, 740), (1024, 768)])
def test_every_page_works_under_the_panels_content_security_policy(
    served: str, browser: Any, size: tuple[int, int]
) -> None:
    games = [api(served, "/api/games", body)["id"] for body in NEW_GAMES]
    page = phone(browser, served)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    for path in PAGES + [f"/games/{game_id}" for game_id in games]:
        response = page.goto(served + path)
        assert response is not None
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        page.wait_for_load_state("networkidle")
    page.goto(f"{served}/games/{games[0]}")  # the ring board: coloured dots set by script
    page.wait_for_load_state("networkidle")
    shot(page, f"csp-rings-{size[0]}")
    assert page.errors == []
