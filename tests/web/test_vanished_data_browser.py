"""A phone acting after the data directory was removed sees why, next to the control.

The companion refuses the write with 503 (``tests/web/test_vanished_data.py``); the phone
shows that message in plain words where it tapped, and its game stays where it was.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import api, phone, serve_emulated, shot

pytestmark = pytest.mark.browser

NEW_ICEHOUSE = {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1}


def test_a_pick_after_the_data_directory_went_says_so_next_to_take(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    data = tmp_path / "data"
    with serve_emulated(data) as served:
        game = api(served, "/api/games", NEW_ICEHOUSE)
        page = phone(browser, served)
        page.goto(f"{served}/games/{game['id']}")
        shutil.rmtree(data)
        page.click('#mandala [data-index="4"]')
        page.click("#ice-take")
        said = page.locator(".feedback:visible, #message:visible")
        expect(said).to_contain_text(
            "not saved: the database " + str(data / "table.db") + " was removed or replaced "
            "while the companion ran"
        )
        expect(said).to_contain_text("put the data directory back and restart the companion")
        box = said.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360  # the long path wraps
        assert said.evaluate("e => e.scrollWidth <= e.clientWidth")
        shot(page, "vanished-data-pick-360")
        assert api(served, f"/api/games/{game['id']}")["version"] == game["version"]
        assert page.errors == []


def test_every_open_page_warns_once_the_data_directory_went(tmp_path: Path, browser: Any) -> None:
    from playwright.sync_api import expect

    data = tmp_path / "data"
    with serve_emulated(data) as served:
        game = api(served, "/api/games", NEW_ICEHOUSE)
        home = phone(browser, served)
        home.goto(served + "/")
        expect(home.locator("#live")).to_have_text("live")
        banner = home.locator("#warnings")
        expect(banner).to_be_hidden()
        page = phone(browser, served)
        page.goto(f"{served}/games/{game['id']}")
        shutil.rmtree(data)
        page.click('#mandala [data-index="4"]')
        page.click("#ice-take")
        # the other phone, without reloading, and any page opened afterwards
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Warning: the database " + str(data / "table.db"))
        expect(banner).to_contain_text("put the data directory back and restart the companion")
        later = phone(browser, served)
        later.goto(served + "/calibrate")
        expect(later.locator("#warnings")).to_contain_text("was removed or replaced")
        shot(home, "vanished-data-banner-360")
        assert home.errors == [] and page.errors == [] and later.errors == []
