"""The home page's list is paged on a phone: "More games" leads to older ones (real Chromium)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.table.listing import PAGE_SIZE
from tests.web.browser import api, pair_owner, phone, serve_emulated, shot

pytestmark = pytest.mark.browser

ICEHOUSE = {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1}


def test_more_games_shows_the_older_page_and_it_follows_new_games(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    with serve_emulated(tmp_path / "data") as served:
        # the owner, as more games than one client may create in a minute
        owner = {"X-Owner-Token": pair_owner(served, tmp_path / "data")}
        ids = [api(served, "/api/games", ICEHOUSE, owner)["id"] for _ in range(PAGE_SIZE + 3)]
        page = phone(browser, served)
        page.goto(served + "/")
        rows = page.locator("#games li[data-id]")
        expect(rows).to_have_count(PAGE_SIZE)
        expect(rows.first).to_have_attribute("data-id", ids[-1])  # newest first
        pages = page.locator("#pages")
        expect(pages).to_contain_text(f"page 1 of 2 ({PAGE_SIZE + 3} games)")
        page.get_by_role("link", name="More games").click()
        expect(rows).to_have_count(3)
        assert [rows.nth(i).get_attribute("data-id") for i in range(3)] == ids[2::-1]
        expect(page.get_by_role("link", name="Newer games")).to_be_visible()
        shot(page, "home-paged-older-360")
        newest = api(served, "/api/games", ICEHOUSE)["id"]
        expect(pages).to_contain_text(f"page 2 of 2 ({PAGE_SIZE + 4} games)")
        expect(rows).to_have_count(4)  # one game moved down from the first page
        assert newest not in [rows.nth(i).get_attribute("data-id") for i in range(4)]
        page.get_by_role("link", name="Newer games").click()
        expect(rows.first).to_have_attribute("data-id", newest)
        assert page.errors == []
