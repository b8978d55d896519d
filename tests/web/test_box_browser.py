"""Backups on a phone in Chromium: download one, restore it on a fresh box, refusals said."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.table import backup
from tests.web.browser import api, as_owner, phone, serve_emulated, shot
from tests.web.conftest import NEW_RINGS_GAME
from tests.web.test_stream_limits import wait_until

pytestmark = pytest.mark.browser


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serve_emulated(tmp_path / "data") as url:
        yield url


def owner_on(browser: Any, served: str, data: Path, path: str) -> Any:
    """The owner's phone on ``path``, once the page says where the time comes from."""
    from playwright.sync_api import expect

    page = phone(browser, served)
    as_owner(page, served, data)
    page.goto(served + path)
    expect(page.locator("#time-said")).to_contain_text("The time: ")
    return page


def test_the_owner_downloads_a_backup_and_restores_it_on_a_fresh_box(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", NEW_RINGS_GAME)
    # The day's rolling backup, made on the server's own low-priority thread as it starts.
    assert wait_until(lambda: backup.kept_backups(tmp_path / "data"), seconds=60)
    page = owner_on(browser, served, tmp_path / "data", "/box")
    expect(page.locator("#kept-backups li")).to_have_count(1)
    expect(page.locator("#kept-backups li").first).to_contain_text("daily-")
    with page.expect_download() as downloading:
        page.click("#backup-download")
    saved = tmp_path / "box.mandala-backup"
    downloading.value.save_as(saved)
    expect(page.locator("#backup-said")).to_contain_text("Downloaded mandala-")
    assert downloading.value.suggested_filename.endswith(backup.SUFFIX)
    assert backup.check_backup(saved.read_bytes()).files >= 1
    shot(page, "box-01-downloaded")

    with serve_emulated(tmp_path / "fresh") as fresh:
        other = phone(browser, fresh, browser.new_context())
        as_owner(other, fresh, tmp_path / "fresh")
        other.goto(fresh + "/box")
        expect(other.locator("#restore-upload")).to_be_disabled()
        other.set_input_files("#restore-file", str(saved))
        other.click("#restore-upload")
        expect(other.locator("#restore-question")).to_contain_text(
            "Replace everything on this box with the backup in box.mandala-backup?"
        )
        shot(other, "box-02-asks-on-the-page")
        other.click("#restore-yes")
        said = other.locator("#restore-said")
        expect(said).to_contain_text("Restored the backup made ")
        expect(said).to_contain_text("1 game on the box now.")
        expect(said).to_contain_text("This phone is not the owner any more")
        shot(other, "box-03-restored")
        assert [g["id"] for g in api(fresh, "/api/games")["games"]] == [game["id"]]
        assert other.errors == []
    assert page.errors == []


def test_a_foreign_file_is_refused_next_to_the_control_and_nothing_changes(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", NEW_RINGS_GAME)
    page = owner_on(browser, served, tmp_path / "data", "/health")
    foreign = tmp_path / "photo.jpg"
    foreign.write_bytes(b"\xff\xd8\xff\xe0 not a backup")
    page.set_input_files("#restore-file", str(foreign))
    page.click("#restore-upload")
    page.click("#restore-no")
    expect(page.locator("#restore-said")).to_have_text("Nothing was changed.")
    page.click("#restore-upload")
    page.click("#restore-yes")
    expect(page.locator("#restore-said")).to_have_text(
        "Nothing was changed: not a Mandala Companion backup (it does not start as one)"
    )
    page.locator("#backups").scroll_into_view_if_needed()
    shot(page, "box-04-foreign-refused")
    assert [g["id"] for g in api(served, "/api/games")["games"]] == [game["id"]]
    assert page.errors == []


def test_a_stranger_is_told_only_the_owner_may_download(served: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    page.goto(served + "/box")
    expect(page.locator("#kept-said")).to_contain_text("Only the box's owner sees the kept backups")
    page.click("#backup-download")
    refusal = page.get_by_role("alert").filter(
        has_text="only the box's owner can download a backup"
    )
    expect(refusal).to_be_visible()
    shot(page, "box-05-stranger")
    assert page.errors == []


def test_a_german_phone_is_asked_and_told_in_german(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    assert wait_until(lambda: backup.kept_backups(tmp_path / "data"), seconds=60)
    page = phone(browser, served)
    as_owner(page, served, tmp_path / "data")
    page.context.add_cookies([{"name": "mandala_lang", "value": "de", "url": served + "/"}])
    page.goto(served + "/box")
    expect(page.locator("#time-said")).to_contain_text("Die Uhrzeit: ")
    kept = page.locator("#kept-backups li").first
    expect(kept).to_contain_text("vom ")
    name = kept.get_attribute("data-kept")
    kept.locator("button").click()
    expect(page.locator("#restore-question")).to_have_text(
        f"Alles auf dieser Box durch die aufbewahrte Sicherung {name} ersetzen?"
    )
    page.click("#restore-no")
    expect(page.locator("#restore-said")).to_have_text("Nichts wurde geändert.")
    expect(page.locator("#restore-no")).to_have_text("Behalten, was hier ist")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.errors == []
