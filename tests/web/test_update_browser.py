"""The update part of ``/box`` on a phone in Chromium: the release shown, a file refused next to
the control, a newer one staged after asking on the page, and a rollback as the page says it.

The served box is a real ``mandala serve --emulate`` told that an updater is installed
(``MANDALA_INSTALL``, as the unit sets it); what the updater does is
``tests/service/test_update.py``. Here its last step, the status it writes, is written with
its own function so that the page's report of a rollback can be seen.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.box import update
from companion.box.release import release_from_git
from companion.phrases import say
from companion.table import backup
from tests.phrase_json import english
from tests.service.releases import make_repo
from tests.web.browser import as_owner, phone, serve_emulated, shot

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    repo = make_repo(tmp_path_factory.mktemp("repo"), "0.2.0")
    out = tmp_path_factory.mktemp("files")
    made = {}
    for release in ("0.1.0", "0.2.0"):
        path = out / f"mandala-companion-{release}.mandala-release"
        path.write_bytes(release_from_git(repo, f"v{release}"))
        made[release] = path
    return made


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("MANDALA_INSTALL", str(tmp_path / "opt"))
    with serve_emulated(tmp_path / "data") as url:
        yield url


def test_the_owner_installs_a_newer_release_and_sees_how_it_went(
    served: str, browser: Any, tmp_path: Path, files: dict[str, Path]
) -> None:
    from playwright.sync_api import expect

    data = tmp_path / "data"
    page = phone(browser, served)
    as_owner(page, served, data)
    page.goto(served + "/box")
    running = backup.release()
    expect(page.locator("#update-release")).to_have_text(running)
    expect(page.locator("#update-upload")).to_be_disabled()

    # Not newer: refused under the button, nothing staged.
    page.set_input_files("#update-file", str(files["0.1.0"]))
    page.click("#update-upload")
    page.click("#update-yes")
    said = page.locator("#update-said")
    expect(said).to_contain_text(
        f"Nothing was changed: release 0.1.0 is not newer than this box's release {running}"
    )
    assert not update.pending(data)
    page.locator("#updates").scroll_into_view_if_needed()
    shot(page, "update-01-not-newer-refused")

    page.set_input_files("#update-file", str(files["0.2.0"]))
    page.click("#update-upload")
    expect(page.locator("#update-question")).to_have_text(
        "Install the release in mandala-companion-0.2.0.mandala-release and restart the box?"
    )
    shot(page, "update-02-asks-on-the-page")
    page.click("#update-yes")
    expect(said).to_contain_text("Release 0.2.0 is being installed; a backup was made first.")
    expect(page.locator("#update-state")).to_contain_text(
        "Waiting: release 0.2.0 is waiting to be installed; a backup was made first"
    )
    assert update.pending(data)
    assert any(k.name.startswith("before-update-") for k in backup.kept_backups(data))
    shot(page, "update-03-waiting")

    # The updater takes the request; the new release never reported ready; it went back.
    assert update.take_request(data) is not None
    update.write_status(
        data, "rolled-back",
        say("release {release} did not report ready within {window} s, so the box went back "
            "to release {running}", release="0.2.0", window="60", running=running),
        release="0.2.0", previous=running,
    )  # fmt: skip
    expect(page.locator("#update-state")).to_contain_text(
        f"Not updated: release 0.2.0 did not report ready within 60 s, so the box went back "
        f"to release {running}"
    )
    expect(said).to_be_hidden()
    shot(page, "update-04-rolled-back")
    tablet = phone(browser, served, browser.new_context(), size=(800, 1280))
    as_owner(tablet, served, data)
    tablet.goto(served + "/health")
    expect(tablet.locator("#update-state")).to_contain_text("Not updated: release 0.2.0")
    expect(tablet.locator("#update-release")).to_have_text(running)
    tablet.locator("#updates").scroll_into_view_if_needed()
    shot(tablet, "update-05-health-tablet")
    assert page.errors == []
    assert tablet.errors == []


def test_a_phone_that_is_not_the_owner_is_told_so_next_to_the_control(
    served: str, browser: Any, tmp_path: Path, files: dict[str, Path]
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    page.goto(served + "/box")
    page.set_input_files("#update-file", str(files["0.2.0"]))
    page.click("#update-upload")
    page.click("#update-yes")
    expect(page.locator("#update-said")).to_contain_text(
        "Nothing was changed: only the box's owner can install a release"
    )
    assert not update.pending(tmp_path / "data")
    page.locator("#updates").scroll_into_view_if_needed()
    shot(page, "update-06-not-the-owner")
    assert page.errors == []


def test_a_german_phone_is_asked_in_german_and_nothing_is_installed(
    served: str, browser: Any, tmp_path: Path, files: dict[str, Path]
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    as_owner(page, served, tmp_path / "data")
    page.context.add_cookies([{"name": "mandala_lang", "value": "de", "url": served + "/"}])
    page.goto(served + "/box")
    page.set_input_files("#update-file", str(files["0.2.0"]))
    expect(page.locator("#update-upload")).to_have_text("Diese Version installieren")
    page.click("#update-upload")
    expect(page.locator("#update-question")).to_have_text(
        "Die Version in mandala-companion-0.2.0.mandala-release installieren und die Box neu "
        "starten?"
    )
    page.click("#update-no")
    expect(page.locator("#update-said")).to_have_text("Nichts wurde geändert.")
    assert not update.pending(tmp_path / "data")
    page.locator("#updates").scroll_into_view_if_needed()
    shot(page, "update-07-german-asks")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.errors == []


def test_a_german_phone_reads_the_updaters_status_in_german(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    data = tmp_path / "data"
    written = update.write_status(
        data,
        "rolled-back",
        say(
            "release {release} did not report ready within {window} s, so the box "
            "went back to release {running}",
            release="0.2.0",
            window="60",
            running="0.1.0",
        ),
        release="0.2.0",
        previous="0.1.0",
    )
    assert english(written["phrase"]) == (
        "release 0.2.0 did not report ready within 60 s, so the box went back to release 0.1.0"
    )
    page = phone(browser, served)
    page.context.add_cookies([{"name": "mandala_lang", "value": "de", "url": served + "/"}])
    page.goto(served + "/box")
    expect(page.locator("#update-state")).to_contain_text(
        "Nicht aktualisiert: Version 0.2.0 war nach 60 s nicht bereit. Die Box ist zurück auf "
        "Version 0.1.0"
    )
    page.locator("#updates").scroll_into_view_if_needed()
    shot(page, "update-08-german-status")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.errors == []
