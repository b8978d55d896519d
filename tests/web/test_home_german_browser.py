"""The home page on a German phone (issue 27): the games, the new-game form and what it says
when Start is refused, and the Owner section, all in the catalogue's German.

The English of the same page is tested in ``test_panel_behaviour.py`` and
``test_owner_browser.py``; these tests read what a German family reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import api, as_owner, phone, shot
from tests.web.test_browser import served  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser


def german_phone(browser: Any, base: str) -> Any:
    """A 360x740 phone whose browser asks for German."""
    context = browser.new_context(locale="de-DE", viewport={"width": 360, "height": 740})
    return phone(browser, base, context)


def test_a_refused_start_says_why_in_german_next_to_start(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    page = german_phone(browser, served)
    page.goto(served + "/")
    assert page.evaluate("document.documentElement.lang") == "de"
    page.select_option("#kind", "rings")
    expect(page.locator("#kind option:checked")).to_have_text("Ringbrett (1983)")
    rows = page.locator("#seats .seat")
    expect(rows.nth(0).locator(".seat-title")).to_have_text("Spieler 1")
    expect(page.locator("#seat-rule")).to_have_text("Ringbrett (1983): 2 bis 4 Spieler")
    page.click("#add-seat")
    rows.nth(2).locator("[name=seat-name]").fill("Cy")
    rows.nth(2).locator('[data-corner="0"]').click()  # Ann's corner
    page.click("#new-game button[type=submit]")
    line = page.locator("#new-game .feedback")
    expect(line).to_have_text(
        "Cy: Ecke 1 (oben rechts) gehört schon Ann. Tippe auf eine freie Ecke."
    )
    rows.nth(2).locator('[data-corner="3"]').click()
    page.select_option("#variant", "two-bases")
    page.click("#new-game button[type=submit]")
    expect(line).to_have_text(
        "Die Variante „zwei Basen“ hat 2 Spieler; es sind 3. "
        "Entferne einen Spieler oder wähle eine andere Variante."
    )
    shot(page, "home-de-refused-start")
    assert page.url.endswith("/")
    assert page.errors == []


def test_a_game_card_and_the_owner_list_are_in_german(
    served: str,  # noqa: F811
    browser: Any,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    seats = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 1}]
    body = {"kind": "rings", "board": "open16", "variant": "standard", "seats": seats}
    api(served, "/api/games", body)
    page = german_phone(browser, served)
    page.goto(served + "/")
    card = page.locator("#games .game-card").first
    expect(card.locator(".resume strong")).to_have_text("Ringbrett (1983)")
    expect(card.locator(".state")).to_have_text(" · Ann ist am Zug")
    expect(card.locator('[data-player="Ann"] .mark')).to_have_text("← am Zug")
    expect(card.locator(".when")).to_contain_text("letzter Zug vor")
    expect(card.locator(".actions a.button").first).to_have_text("Weiter")
    expect(page.locator("#owner-status")).to_contain_text("Dieses Handy ist nicht der Besitzer.")
    card.locator("[data-delete]").click()
    expect(card.locator(".confirm-delete")).to_contain_text("Dieses Spiel endgültig löschen?")
    as_owner(page, served, tmp_path / "data")
    page.reload()
    expect(page.locator("#owner-status")).to_contain_text("Dieses Handy ist Besitzer der Box")
    mine = page.locator("#owner-phone-list li").first
    expect(mine).to_contain_text("(dieses Handy)")
    expect(mine.locator("small")).to_contain_text("mit einem Code verbunden am")
    expect(mine.locator("[data-revoke]")).to_have_text("Entfernen")
    shot(page, "home-de-owner")
    assert page.errors == []


def test_a_name_given_twice_is_refused_in_german_naming_the_player(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    page = german_phone(browser, served)
    page.goto(served + "/")
    page.select_option("#kind", "icehouse")
    rows = page.locator("#seats .seat")
    rows.nth(0).locator("[name=seat-name]").fill("Ann")
    rows.nth(1).locator("[name=seat-name]").fill("Ann")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#new-game .feedback")).to_have_text("Ann: 'Ann' hat schon einen Platz")
    shot(page, "home-de-name-twice")
    assert page.url.endswith("/")
    assert page.errors == []
