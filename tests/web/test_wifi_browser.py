"""The Wi-Fi page in Chromium at 360 px and tablet size, over the stand-in nmcli: owner only,
look for networks, a wrong password said next to the page's status, join, be its own Wi-Fi."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.box.wifi import Wifi
from companion.box.wifi_box import WifiBox
from companion.table import Table
from tests.box.conftest import StandinNM
from tests.web.browser import as_owner, phone, shot
from tests.web.conftest import serving
from tests.web.test_every_page import rules_broken

pytestmark = pytest.mark.browser


@pytest.fixture
def served(nm: StandinNM, tmp_path: Path, machine_id: Path) -> Iterator[str]:
    data = tmp_path / "data"
    with Table(data, None, data / "boards") as table:
        box = WifiBox(Wifi(data, machine_id=machine_id))
        yield from serving(table, {"BOARDS_DIR": data / "boards"}, box)


@pytest.mark.parametrize(("view", "size"), [("phone", (360, 740)), ("tablet", (1024, 768))])
def test_the_owner_looks_for_networks_is_told_a_wrong_password_joins_and_opens_its_own(
    served: str, browser: Any, tmp_path: Path, nm: StandinNM, view: str, size: tuple[int, int]
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served, size=size)
    page.goto(served + "/wifi")
    expect(page.locator("#wifi-said")).to_contain_text("Only the box's owner changes its Wi-Fi")
    expect(page.locator("#wifi-join")).to_be_hidden()
    shot(page, f"wifi-01-not-owner-{view}")
    as_owner(page, served, tmp_path / "data")
    page.reload()
    expect(page.locator("#wifi-said")).to_have_text("The box is on the Wi-Fi Home.")
    expect(page.locator("#wifi-own")).to_contain_text("Its own Wi-Fi is Mandala-")
    page.click("#wifi-scan")
    expect(page.locator("#scan-said")).to_have_text("3 in reach; choose one.")
    expect(page.locator("#wifi-networks li")).to_have_count(3)
    expect(page.locator("#wifi-networks li").first).to_contain_text("strong signal (82%)")
    shot(page, f"wifi-02-networks-{view}")
    page.click('button[data-choose="Cabin: upstairs"]')
    page.fill("#wifi-password", "short")
    page.click("#wifi-join-button")
    expect(page.locator("#join-said")).to_have_text("A Wi-Fi password has at least 8 characters.")
    page.fill("#wifi-password", "wrong-one")
    page.click("#wifi-join-button")
    outcome = page.locator("#wifi-outcome")
    expect(outcome).to_have_text(
        "It did not work: 'Cabin: upstairs' did not take that password; check it (capital "
        "letters count) and try again.",
        timeout=60_000,
    )
    expect(page.locator("#wifi-said")).to_have_text("The box is on the Wi-Fi Home.")
    shot(page, f"wifi-03-wrong-password-{view}")
    page.click("#wifi-scan")  # the list is looked for again after a change
    page.click('button[data-choose="Cabin: upstairs"]')
    page.fill("#wifi-password", "cabin-secret")
    page.click("#wifi-join-button")
    expect(outcome).to_have_text("Done: joined 'Cabin: upstairs'.", timeout=60_000)
    expect(page.locator("#wifi-said")).to_have_text("The box is on the Wi-Fi Cabin: upstairs.")
    expect(page.locator("#known-list li")).to_have_count(2)
    expect(page.locator("#wifi-networks li")).to_have_count(0)  # seen before the change
    page.click("#ap-open")
    expect(page.locator("#wifi-said")).to_contain_text(
        "The box is its own Wi-Fi now: Mandala-", timeout=60_000
    )
    expect(outcome).to_contain_text("Done: opened Mandala-", timeout=60_000)
    expect(page.locator("#ap-close")).to_be_visible()
    expect(page.locator("#ap-open")).to_be_hidden()
    shot(page, f"wifi-04-own-wifi-{view}")
    assert nm.state["active"] == "Mandala-AP"
    assert page.errors == []


@pytest.mark.parametrize(
    ("view", "size", "scheme"),
    [
        ("360-light", (360, 740), "light"),
        ("360-dark", (360, 740), "dark"),
        ("800-light", (800, 1280), "light"),
        ("800-dark", (800, 1280), "dark"),
    ],
)
def test_a_german_owner_reads_the_wifi_page_in_german_and_it_fits(
    served: str,
    browser: Any,
    tmp_path: Path,
    view: str,
    size: tuple[int, int],
    scheme: str,
) -> None:
    """German words are long: the page with the most words (the networks listed, the join
    form open, a refusal from the box said) fits and passes axe, in the box's words."""
    from playwright.sync_api import expect

    # bypass_csp lets the test inject axe-core; the page's own rules stay
    context = browser.new_context(locale="de-DE", color_scheme=scheme, bypass_csp=True)
    page = phone(browser, served, context, size=size)
    as_owner(page, served, tmp_path / "data")
    page.goto(served + "/wifi")
    expect(page.locator("#wifi-said")).to_have_text("Die Box ist im WLAN Home.")
    expect(page.locator("#wifi-own")).to_contain_text("Ihr eigenes WLAN heißt Mandala-")
    page.click("#wifi-scan")
    expect(page.locator("#scan-said")).to_have_text("3 in Reichweite; wähle eins.")
    expect(page.locator("#wifi-networks li").first).to_contain_text("starkes Signal (82 %)")
    page.click('button[data-choose="Cabin: upstairs"]')
    expect(page.locator("#wifi-join-button")).to_have_text("Mit Cabin: upstairs verbinden")
    page.fill("#wifi-password", "wrong-one")
    page.click("#wifi-join-button")
    expect(page.locator("#wifi-outcome")).to_have_text(
        "Das hat nicht geklappt: 'Cabin: upstairs' hat das Passwort nicht angenommen; prüfe "
        "es (Großbuchstaben zählen) und versuch es noch einmal.",
        timeout=60_000,
    )
    page.click("#wifi-scan")
    page.click('button[data-choose="Cabin: upstairs"]')
    expect(page.locator("#wifi-networks li")).to_have_count(3)
    expect(page.locator("#wifi-form")).to_be_visible()
    shot(page, f"wifi-de-{view}")
    assert rules_broken(page, on_phone=size[0] < 600) == []
    assert page.errors == []
    context.close()
