"""The board editor on a phone whose browser asks for German (issue 27), in a real Chromium
against ``mandala serve --emulate``: a ring's slots switched, the board saved, saved again
under the name in use (the box refuses it in German, and the editor still offers Overwrite),
then under a bundled board's name. Every line is checked word for word, and the page with
its refusal showing fits at 360 px and passes axe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import as_owner, phone, shot
from tests.web.test_browser import served  # noqa: F401 (a fixture)
from tests.web.test_every_page import rules_broken

pytestmark = pytest.mark.browser


def test_a_board_is_edited_saved_and_saved_over_in_german(
    served: str,  # noqa: F811
    browser: Any,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    # bypass_csp lets the test inject axe-core; the page's own rules stay
    context = browser.new_context(locale="de-DE", bypass_csp=True)
    page = phone(browser, served, context)
    as_owner(page, served, tmp_path / "data")  # saving a board needs the owner
    page.goto(served + "/boards/new")
    expect(page.locator("h1")).to_have_text("Brett-Editor")
    page.click('button[data-ring-tab="4"]')
    expect(page.locator('button[data-ring-tab="4"]')).to_have_attribute("title", "Ring 4 (Braun)")
    slot_3 = page.locator('button[data-slot-button="3"]')  # reference ring 4: slot 3 coloured
    expect(slot_3).to_have_text("3N Braun")
    slot_3.click()
    expect(slot_3).to_have_text("3Schwarz")
    page.click('button[data-slot-button="1"]')  # and slot 1 to coloured
    expect(page.locator("#ring-summary")).to_have_text(
        "Ring 4 (Braun, N): schwarze Felder 2 3 4 6 8 10 12 14"
    )
    page.fill("#board-name", "Kitchen board")
    expect(page.locator("#board-file")).to_have_value("kitchen-board")
    page.click("#save button[type=submit]")
    expect(page.locator("#message")).to_have_text("Gespeichert als kitchen-board.")
    expect(page.locator("#use-board")).to_have_text("Für ein neues Spiel nutzen")

    page.click("#save button[type=submit]")  # the name is the owner's board now
    line = page.locator("#save .feedback")
    expect(line).to_contain_text(
        "Ein Brett hat schon diesen Namen: Wähl einen anderen oder überschreib es."
    )
    expect(page.locator("#overwrite")).to_have_text("kitchen-board überschreiben")
    shot(page, "editor-de-name-used")
    assert rules_broken(page, on_phone=True) == []
    page.click("#overwrite")
    expect(line).to_be_hidden()  # the refusal gives way to the saved message
    expect(page.locator("#message")).to_have_text("Gespeichert als kitchen-board.")

    page.fill("#board-file", "reference")  # a board that comes with the companion
    page.click("#save button[type=submit]")
    expect(line).to_have_text(
        "„reference“ ist ein Brett, das mit der Box kommt: Wähl einen anderen Namen."
    )
    expect(page.locator("#overwrite")).to_have_count(0)
    assert page.errors == []
    context.close()
