"""The panel as a family lives it, in a real Chromium against ``mandala serve --emulate``.

Phones in step (every open phone shows the same turn within a second; a request refused
because the game moved on says so in a line), the ring turn (no preview before the dice, the
"move the pegs" card at the top, hints in plain words) and feedback next to the control.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.browser import api, phone, shot
from tests.web.test_browser import NO_DICE, enter_dice, served  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

TWO = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 1}]


def new_game(base: str) -> tuple[dict[str, Any], str]:
    game = api(
        base,
        "/api/games",
        {"kind": "rings", "board": "open16", "variant": "standard", "seats": TWO},
    )
    return game, f"/api/games/{game['id']}"


def in_viewport(page: Any, selector: str) -> bool:
    """Say whether the element is wholly inside the 360x740 viewport."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def test_a_second_phone_shows_the_next_turn_with_fresh_dice_within_a_second(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game, _ = new_game(served)
    first = phone(browser, served)
    second = phone(browser, served)
    for page in (first, second):
        page.goto(f"{served}/games/{game['id']}")
        expect(page.locator("#live")).to_have_text("live")
    enter_dice(first, NO_DICE)
    expect(second.locator('[data-die-status="red"]')).to_be_visible()
    expect(second.locator("#confirm")).to_be_enabled()
    second.click('button[data-die="red"][data-face="3"]')  # picked, never entered
    first.click("#confirm")
    expect(first.locator("#to-move")).to_have_text("Bo to move")
    # within a second of the change, whatever the second phone was showing
    expect(second.locator("#to-move")).to_have_text("Bo to move", timeout=1000)
    expect(second.locator("#confirm")).to_be_disabled(timeout=1000)
    expect(second.locator("[data-die-status]")).to_have_count(0, timeout=1000)
    expect(second.locator('#dice button[aria-pressed="true"]')).to_have_count(0, timeout=1000)
    expect(second.locator("#preview-box")).to_be_hidden()
    shot(second, "i22a-second-phone-after-confirm")
    assert first.errors == [] and second.errors == []


def test_a_confirm_from_a_stale_phone_says_the_turn_was_confirmed_elsewhere(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game, path = new_game(served)
    game = api(served, path + "/actions", {"version": game["version"], "action": {"dice": NO_DICE}})
    stale = phone(browser, served)
    stale.route(re.compile(r".*/api/events.*"), lambda route: route.abort())  # a deaf phone
    stale.goto(f"{served}/games/{game['id']}")
    expect(stale.locator("#confirm")).to_be_enabled()
    api(served, path + "/actions", {"version": game["version"], "action": {"confirm": True}})
    stale.click("#confirm")
    line = stale.locator("#message")
    expect(line).to_have_text("Ann confirmed the turn on another phone; now it is Bo's turn.")
    assert in_viewport(stale, "#message")
    expect(stale.locator("#to-move")).to_have_text("Bo to move")
    expect(stale.locator("#confirm")).to_be_disabled()
    assert api(served, path)["state"]["turns"] == 1  # nothing was confirmed twice
    shot(stale, "i22a-stale-confirm")
    assert stale.errors == []


def test_the_preview_waits_for_the_dice_and_the_pegs_card_comes_first_after_confirm(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game, _ = new_game(served)
    page = phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#to-move")).to_have_text("Ann to move")
    expect(page.locator("#preview-box")).to_be_hidden()
    expect(page.locator("#preview")).not_to_be_visible()
    enter_dice(page, NO_DICE)
    expect(page.locator("#preview-box")).to_be_visible()
    expect(page.locator("#preview")).to_contain_text("enters Central Control")
    page.click("#confirm")
    card = page.locator("#last")
    expect(card).to_be_visible()
    expect(page.locator("#last-title")).to_have_text("Move the pegs (Ann's turn 1)")
    expect(page.locator("#instructions")).to_contain_text("enters Central Control (1 point)")
    # at the top: above the board and the next seat's dice, inside the first screen
    assert in_viewport(page, "#last-done")
    top = card.bounding_box()["y"]
    assert top < page.locator("#board").bounding_box()["y"]
    assert top < page.locator("#dice").bounding_box()["y"]
    shot(page, "i22a-pegs-card")
    page.set_viewport_size({"width": 1024, "height": 768})
    shot(page, "i22a-pegs-card-tablet")
    page.set_viewport_size({"width": 360, "height": 740})
    page.click("#last-done")
    expect(card).to_be_hidden()
    expect(page.locator("#last-folded")).to_contain_text("Pegs moved for turn 1")
    page.click("#last-show")
    expect(card).to_be_visible()
    assert page.errors == []


def test_one_detent_a_slot_gives_one_button_each_way_next_to_the_dice(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game, _ = new_game(served)
    page = phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    ring = page.locator("#emu-rings .emu-ring").nth(3)
    expect(ring.locator("button")).to_have_count(2)
    expect(ring.locator("button").nth(0)).to_have_attribute(
        "aria-label", "ring 3 one slot counter-clockwise"
    )
    expect(ring.locator("button").nth(1)).to_have_attribute(
        "aria-label", "ring 3 one slot clockwise"
    )
    # the controls follow the dice, not the preview and the bottom bar
    dice = page.locator("#enter-dice").bounding_box()
    emulator = page.locator("#emulator").bounding_box()
    assert 0 <= emulator["y"] - (dice["y"] + dice["height"]) < 120  # only the Hints row between
    # the emulated strip names every lit pixel's colour, not colour alone
    lit = page.locator("#leds .led:not(.off)")
    expect(lit.first).to_have_attribute("title", re.compile(r"^pixel \d+: (dim )?\w+$"))
    expect(lit.first).not_to_have_text("")
    assert page.errors == []
