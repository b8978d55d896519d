"""Becoming the owner on a phone in Chromium: by a code, by the done button; then deleting."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import api, phone, serve_emulated, shot
from tests.web.conftest import NEW_RINGS_GAME

pytestmark = pytest.mark.browser


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serve_emulated(tmp_path / "data") as url:
        yield url


def printed_code(data: Path) -> str:
    mandala = Path(sys.executable).parent / "mandala"
    done = subprocess.run(
        [str(mandala), "pair", "--data", str(data)], capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()[-1]


def test_a_phone_enters_the_code_becomes_the_owner_and_deletes_a_game(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", NEW_RINGS_GAME)
    page = phone(browser, served)
    page.goto(served + "/")
    expect(page.locator("#owner-status")).to_contain_text("This phone is not the owner.")
    page.click(f'button[data-delete="{game["id"]}"]')
    page.click(f'button[data-delete-yes="{game["id"]}"]')  # the panel asks in the page
    refusal = page.get_by_role("alert").filter(has_text="only the box's owner can delete a game")
    expect(refusal).to_be_visible()
    page.fill("#owner-code-input", "9999-9999")
    page.click("#owner-code button[type=submit]")
    expect(page.locator("#owner-code-status")).to_contain_text("that code is wrong")
    shot(page, "owner-01-wrong-code")
    page.fill("#owner-code-input", printed_code(tmp_path / "data"))
    page.click("#owner-code button[type=submit]")
    expect(page.locator("#owner-status")).to_contain_text("This phone is the box's owner")
    expect(page.locator("#owner-phone-list li")).to_have_count(1)
    expect(page.locator("#owner-phone-list li")).to_contain_text("(this phone)")
    shot(page, "owner-02-owner")
    page.click(f'button[data-delete="{game["id"]}"]')
    page.click(f'button[data-delete-yes="{game["id"]}"]')
    expect(page.get_by_role("alert").filter(has_text="Game deleted.")).to_be_visible()
    assert api(served, "/api/games")["games"] == []
    assert page.errors == []


def test_a_phone_asks_the_box_and_the_done_button_makes_it_the_owner(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    page.goto(served + "/")
    page.click("#owner-ask")
    expect(page.locator("#owner-ask-status")).to_contain_text("Now press the done button")
    api(served, "/api/emulator/buttons/done/press", {})  # the box's (emulated) done button
    expect(page.locator("#owner-status")).to_contain_text("This phone is the box's owner")
    expect(page.locator("#owner-phone-list li")).to_contain_text("the done button")
    page.set_viewport_size({"width": 1024, "height": 768})
    shot(page, "owner-03-tablet")
    assert page.errors == []


def test_the_damaged_database_banner_names_the_copy_and_the_owner_dismisses_it(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    from tests.web.browser import as_owner

    data = tmp_path / "damaged"
    data.mkdir()
    (data / "table.db").write_bytes(b"not a database at all" * 300)
    with serve_emulated(data) as served:
        backup = next(data.glob("table.db.damaged-*"))
        page = phone(browser, served)
        page.goto(served + "/")
        banner = page.locator("#damaged")
        expect(banner).to_contain_text("The games database was damaged")
        expect(banner).to_contain_text(str(backup))
        page.click("#damaged-dismiss")
        said = page.locator("#damaged + .feedback")  # said right under the banner
        expect(said).to_contain_text("only the box's owner can dismiss the damaged-database")
        shot(page, "owner-04-damaged-banner")
        as_owner(page, served, data)
        page.click("#damaged-dismiss")
        expect(banner).to_have_count(0)
        page.reload()
        expect(page.locator("#damaged")).to_have_count(0)
        assert page.errors == []


def test_the_owner_removes_a_phone_after_saying_yes_on_the_page_not_in_a_dialog(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    other = api(served, "/api/owner/pair", {"code": printed_code(tmp_path / "data")})
    page = phone(browser, served)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(served + "/")
    page.fill("#owner-code-input", printed_code(tmp_path / "data"))
    page.click("#owner-code button[type=submit]")
    rows = page.locator("#owner-phone-list li")
    expect(rows).to_have_count(2)
    theirs = rows.filter(has_not_text="(this phone)")
    theirs.locator("[data-revoke]").click()
    expect(theirs).to_contain_text("Take the owner role from this phone?")
    theirs.get_by_role("button", name="Keep it").click()  # Keep leaves the phone its role
    expect(theirs.locator("[data-revoke]")).to_be_visible()
    expect(rows).to_have_count(2)
    theirs.locator("[data-revoke]").click()
    theirs.get_by_role("button", name="Remove it").click()
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("(this phone)")
    shot(page, "owner-03-removed-a-phone")
    refused = api(served, "/api/owner", headers={"X-Owner-Token": other["owner_token"]})
    assert refused["owner"] is False
    assert dialogs == []
    assert page.errors == []
