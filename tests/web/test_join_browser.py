"""Join from a phone, in Chromium: the QR code on the page decodes (zbar, from a screenshot of
the real page) to the address the page prints, that address opens the panel, and a hidden card
game's free seats each get a code that carries the game and seat, never a token."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.box.address import Reach, network_addresses
from companion.table import Table
from tests.web.browser import SHOTS, phone, shot
from tests.web.conftest import NEW_RINGS_GAME, serving

pytestmark = pytest.mark.browser


def decoded(page: Any, name: str) -> list[str]:
    """Every QR code in the page's join block as zbar reads it (zbar-tools' zbarimg) from a
    screenshot of that part of the real page; the whole page is saved too, to look at."""
    zbarimg = shutil.which("zbarimg")
    assert zbarimg is not None, "zbarimg is not installed: apt-get install zbar-tools"
    shot(page, name)
    picture = SHOTS / f"{name}-join.png"
    # In the middle of the screen: not under the sticky header or a page's bottom bar.
    page.locator("#join").evaluate("(box) => box.scrollIntoView({ block: 'center' })")
    page.locator("#join").screenshot(path=str(picture))
    found = subprocess.run(
        [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(picture)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert found.returncode in (0, 4), found.stderr  # 4: no code in the picture
    return sorted(found.stdout.splitlines())


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    data = tmp_path / "data"
    with Table(data, None, data / "boards") as service:
        yield service


def served(table: Table, host: str) -> Iterator[str]:
    return serving(table, {"BOARDS_DIR": table.data_dir / "boards"}, reach=Reach(host, 0))


@pytest.fixture
def on_lan(table: Table) -> Iterator[str]:
    """The panel listening on this machine's network address, as phones would reach it."""
    yield from served(table, network_addresses()[0])


@pytest.mark.parametrize(("view", "size"), [("phone", (360, 740)), ("tablet", (1280, 720))])
def test_the_home_pages_code_decodes_to_the_address_it_prints_which_opens_the_panel(
    on_lan: str, browser: Any, view: str, size: tuple[int, int]
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, on_lan, size=size)
    page.goto(on_lan + "/")
    block = page.locator("#join")
    expect(block).to_be_visible()
    expect(page.locator("#join-url")).to_have_text(on_lan + "/")
    expect(page.locator("#join-words")).to_contain_text("Scan the code, or open " + on_lan + "/")
    image = page.locator("#join img.qr")
    expect(image).to_have_attribute("alt", f"QR code of the panel's address, {on_lan}/")
    page.wait_for_function("() => document.querySelector('#join img.qr').naturalWidth > 0")
    printed = page.locator("#join-url").inner_text()
    assert decoded(page, f"join-01-home-{view}") == [printed]
    assert "127.0.0.1" not in printed
    box = image.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]
    page.goto(printed)  # what a phone that scanned it opens
    expect(page.locator("h1")).to_have_text("Games here")
    assert page.errors == []


def test_listening_on_127_0_0_1_the_home_page_says_phones_cannot_join_and_shows_no_code(
    table: Table, browser: Any
) -> None:
    from playwright.sync_api import expect

    for base in served(table, "127.0.0.1"):
        page = phone(browser, base)
        page.goto(base + "/")
        expect(page.locator("#join-words")).to_have_text(
            "Phones cannot join: the panel listens on this computer only (127.0.0.1). Start it "
            'with ./run.sh --host 0.0.0.0 (or put host = "0.0.0.0" in its config file) so '
            "phones on the same network can open it."
        )
        expect(page.locator("#join-start")).to_have_text("./run.sh --host 0.0.0.0")
        expect(page.locator("#join img")).to_have_count(0)
        assert decoded(page, "join-02-local-only-phone") == []
        assert page.errors == []


def test_each_free_seat_has_a_code_that_opens_the_game_ready_to_take_that_seat(
    table: Table, on_lan: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    game = table.create_game({"kind": "cards", "seats": ["Ann", "Bo"], "seed": 11})
    game_id, host_token = game["id"], game["host_token"]
    host = phone(browser, on_lan)
    host.context.add_cookies(
        [{"name": f"mandala_host_{game_id}", "value": host_token, "url": on_lan + "/"}]
    )
    host.goto(f"{on_lan}/games/{game_id}")
    codes = host.locator("#join img.qr")
    expect(codes).to_have_count(2)
    expect(host.locator("#join figcaption")).to_have_text(
        ["Scan to take Ann's seat", "Scan to take Bo's seat"]
    )
    host.wait_for_function(
        "() => [...document.querySelectorAll('#join img.qr')].every((i) => i.naturalWidth > 0)"
    )
    payloads = decoded(host, "join-03-seats-phone")
    assert payloads == [f"{on_lan}/games/{game_id}?seat={n}" for n in (0, 1)]
    assert not any(host_token in payload for payload in payloads)

    bo = phone(browser, on_lan, context=browser.new_context())
    bo.goto(payloads[1])  # Bo's phone scanned the second code
    ready = bo.locator('[data-take="1"]')
    expect(ready).to_be_focused()
    expect(ready).to_have_text("Take Bo's seat")
    shot(bo, "join-04-scanned-bo-phone")
    ready.click()
    expect(bo.locator("#cards-seat-list")).to_contain_text("Bo — your seat")
    # The host's page drops Bo's code as the seat is taken (the live stream, then the answer).
    expect(host.locator("#join figcaption")).to_have_text(["Scan to take Ann's seat"])
    assert decoded(host, "join-05-one-left") == [payloads[0]]
    assert host.errors == [] and bo.errors == []


@pytest.mark.parametrize("kind", ["rings", "cards"])
def test_the_table_views_code_decodes_to_its_address_and_a_free_seats_without_overflow(
    table: Table, on_lan: str, browser: Any, kind: str
) -> None:
    """At 1280x720: the address's code (and each free seat's, in a hidden card game) decodes
    to what the view prints, and the block fits the screen with the rest of the view."""
    from playwright.sync_api import expect

    from tests.web.test_table_view_browser import OUTSIDE

    body = NEW_RINGS_GAME if kind == "rings" else {"kind": "cards", "seats": ["Ann", "Bo"]}
    game_id = table.create_game(body)["id"]
    tv = phone(browser, on_lan, size=(1280, 720))
    tv.goto(on_lan + "/table")
    expect(tv.locator("main.tv")).to_have_attribute("data-shown", game_id)
    expect(tv.locator("#join-url")).to_have_text(on_lan + "/")
    seats = [f"{on_lan}/games/{game_id}?seat={n}" for n in (0, 1)] if kind == "cards" else []
    expect(tv.locator("#join img.qr")).to_have_count(1 + len(seats))
    tv.wait_for_function(
        "() => [...document.querySelectorAll('#join img.qr')].every((i) => i.naturalWidth > 0)"
    )
    assert decoded(tv, f"join-06-table-{kind}-1280") == sorted([on_lan + "/", *seats])
    assert tv.evaluate(OUTSIDE) == []
    assert tv.errors == []
