"""Nim from the home page's new-game form in a real Chromium on a 360x740 phone.

The form's script names no kind: Nim's seats (2 to 4 plain names), its seed field and its
lack of options all come from its adapter, as the server sends them.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import api, phone, shot

pytestmark = pytest.mark.browser


def test_a_nim_game_starts_from_the_new_game_form_with_plain_names_and_a_seed(
    browser: Any, panel: str
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, panel)
    page.goto(panel + "/")
    page.select_option("#kind", "nim")
    expect(page.locator("#seat-rule")).to_have_text("Nim: 2 to 4 players")
    for block in ("#rings-options", "#cards-options"):
        expect(page.locator(block)).to_be_hidden()
    expect(page.locator("#seed-row")).to_be_visible()
    expect(page.locator("#seats .seat .corners").first).to_be_hidden()
    expect(page.locator("#computer-note")).to_be_hidden()
    names = page.locator("#seats .seat [name=seat-name]")
    expect(names).to_have_count(2)
    page.click("#add-seat")
    page.click("#add-seat")
    expect(page.locator("#add-seat")).to_be_hidden()  # four is Nim's most
    for i, name in enumerate(["Ann", "Bo", "Cy", "Di"]):
        names.nth(i).fill(name)
    page.fill("#seed", "5")
    shot(page, "nim-01-new-game-form")
    page.click("#new-game button[type=submit]")
    page.wait_for_url(f"{panel}/games/*")
    game_id = page.url.rsplit("/", 1)[1]
    record = api(panel, f"/api/games/{game_id}/record")
    assert record == {
        "game": "nim",
        "seats": ["Ann", "Bo", "Cy", "Di"],
        "seed": 5,
        "takes": [],
    }
    assert api(panel, f"/api/games/{game_id}")["state"]["heap"] == 10  # 5 + seed 5 % 11
    expect(page.locator("h1")).to_have_text("nim game")
    shot(page, "nim-02-game-page")
    assert page.errors == []
