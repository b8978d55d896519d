"""The Health page in a real Chromium at 360 px against ``mandala serve --emulate``.

The owner opens Health from the navigation, reads the checks, runs the guided ring test by
turning a ring with the emulator, lights the LED map's roles and steps the counted chase,
presses the emulated "done" button, and downloads the diagnostics bundle.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import SHOTS, api, as_owner, phone, serve_emulated, shot

pytestmark = pytest.mark.browser

SPOKES = set(range(16))  # hardware/leds.toml
WHITE = [255, 255, 255]
OFF = [0, 0, 0]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serve_emulated(tmp_path / "data") as url:
        yield url


def open_health(browser: Any, base: str, data: Path) -> Any:
    """Open the Health page on a phone paired as the owner (its actions need the owner)."""
    from playwright.sync_api import expect

    page = phone(browser, base)
    as_owner(page, base, data)
    page.goto(base + "/")
    page.click("nav >> text=Health")
    expect(page).to_have_url(base + "/health")
    return page


def lit(base: str) -> set[int]:
    """The pixels the emulated strip's current frame lights."""
    return {i for i, pixel in enumerate(api(base, "/api/board")["leds"]) if pixel != OFF}


def test_the_health_page_shows_every_check_in_words_and_fits_a_phone(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = open_health(browser, served, tmp_path / "data")
    checks = page.locator("#checks li")
    expect(checks).to_have_count(8)
    for name in ("leds", "groups", "serial", "pins", "rest", "data", "database", "clock"):
        item = page.locator(f'#checks li[data-check="{name}"]')
        expect(item).to_contain_text(f"{name}: ")
        assert item.locator(".status").inner_text() in ("ok", "warn")  # a word, not a colour
    expect(page.locator('#checks li[data-check="rest"]')).to_have_text(
        "ok rest: all 10 rings rest with both lines at their rest level"
    )
    expect(page.locator('#checks li[data-check="pins"]')).to_contain_text("held by this companion")
    expect(page.locator("#checked")).to_have_text("nothing failed")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
    shot(page, "health-checks-360")
    tablet = phone(browser, served, size=(1024, 768))
    tablet.goto(served + "/health")
    expect(tablet.locator("#checks li")).to_have_count(8)
    assert tablet.evaluate("document.documentElement.scrollWidth") <= 1024
    shot(tablet, "health-checks-tablet")
    tablet.emulate_media(color_scheme="dark")
    shot(tablet, "health-checks-tablet-dark")
    assert tablet.errors == []
    page.click("#recheck")
    expect(page.locator("#checked")).to_have_text("nothing failed")
    assert page.errors == []


def test_the_ring_test_ticks_off_a_ring_turned_one_slot_each_way(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = open_health(browser, served, tmp_path / "data")
    expect(page.locator("#ring-test-summary")).to_have_text("Not started.")
    page.click("#start-ring-test")
    ring = page.locator('#ring-results li[data-ring="3"]')
    expect(ring).to_have_text("waiting ring 3: not turned yet")
    page.click('button[data-turn="3"][data-detents="1"]')
    expect(ring).to_have_text(
        "turning ring 3: +1 ✓, −1 not yet, lines A and B both toggled, 0 errors"
    )
    page.click('button[data-turn="3"][data-detents="-1"]')
    expect(ring).to_have_text("passed ring 3: +1 ✓, −1 ✓, lines A and B both toggled, 0 errors")
    expect(page.locator("#ring-test-summary")).to_have_text("1 of 10 rings passed.")
    expect(page.locator('#ring-results li[data-ring="4"]')).to_have_text(
        "waiting ring 4: not turned yet"
    )
    shot(page, "health-ring-test-360")
    assert page.errors == []


def test_the_led_test_lights_each_role_then_counts_the_chase(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = open_health(browser, served, tmp_path / "data")
    # Each part in turn, by itself: spokes, entrances, bases, score pixels, then the game.
    page.click("#roles-in-turn")
    step = page.locator("#led-step")
    for text, pixels in (
        ("Lit: the spokes (16 pixels), white.", SPOKES),
        ("Lit: the entrances (4 pixels), white.", {16, 17, 18, 19}),
        ("Lit: the bases (4 pixels), white.", {20, 21, 22, 23}),
        ("Lit: the score pixels (24 pixels), white.", set(range(24, 48))),
    ):
        expect(step).to_have_text(text)
        assert lit(served) == pixels
    expect(step).to_have_text("Done: spokes, entrances, bases, score pixels were lit in turn.")
    assert lit(served) == set()
    # And one part at a time by hand.
    page.click('button[data-role="spokes"]')
    expect(page.locator("#led-step")).to_have_text("Lit: the spokes (16 pixels), white.")
    assert lit(served) == SPOKES
    assert {tuple(api(served, "/api/board")["leds"][i]) for i in SPOKES} == {tuple(WHITE)}
    page.click('button[data-role="bases"]')
    expect(page.locator("#led-step")).to_have_text("Lit: the bases (4 pixels), white.")
    assert lit(served) == {20, 21, 22, 23}
    page.click('button[data-role="scores"]')
    expect(page.locator("#led-step")).to_have_text("Lit: the score pixels (24 pixels), white.")
    assert lit(served) == set(range(24, 48))
    # The counted chase, one pixel at a time in strip order.
    page.click("#chase-next")
    expect(page.locator("#led-step")).to_have_text("Pixel 1 of 48 is lit (index 0 in the LED map).")
    assert lit(served) == {0}
    page.click("#chase-next")
    expect(page.locator("#led-step")).to_have_text("Pixel 2 of 48 is lit (index 1 in the LED map).")
    assert lit(served) == {1}
    page.click("#chase-back")
    page.click("#chase-back")
    expect(page.locator("#led-step")).to_have_text(
        "Pixel 48 of 48 is lit (index 47 in the LED map)."
    )
    assert lit(served) == {47}
    page.click("#chase-start")
    expect(page.locator("#led-step")).to_have_text("Pixel 3 of 48 is lit (index 2 in the LED map).")
    page.click("#chase-start")  # pause
    shot(page, "health-led-chase-360")
    page.click("#led-off")
    expect(page.locator("#led-step")).to_have_text("The strip shows the game.")
    assert lit(served) == set()
    assert page.errors == []


def test_a_button_press_is_seen_and_the_bundle_downloads(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = open_health(browser, served, tmp_path / "data")
    done = page.locator('#buttons li[data-button="done"]')
    expect(done).to_have_text("waiting “done”: not pressed yet")
    page.click('button[data-press="done"]')
    expect(done).to_contain_text("passed “done”: seen 1 time, last at ")
    expect(page.locator('#buttons li[data-button="undo"]')).to_have_text(
        "waiting “undo”: not pressed yet"
    )
    with page.expect_download() as download:
        page.click("#bundle")
    path = download.value.path()
    assert download.value.suggested_filename.startswith("mandala-diagnostics-")
    with zipfile.ZipFile(io.BytesIO(Path(path).read_bytes())) as archive:
        names = set(archive.namelist())
        assert {
            "README.txt",
            "checks.txt",
            "pins.toml",
            "leds.toml",
            "versions.txt",
            "sensors.json",
            "log.txt",
        } <= names
        assert "ok   rest: all 10 rings rest" in archive.read("checks.txt").decode()
        assert "flask==" in archive.read("versions.txt").decode()
    expect(page.locator("#bundle-said")).to_contain_text("Downloaded mandala-diagnostics-")
    shot(page, "health-buttons-bundle-360")
    assert page.errors == []


def test_a_phone_that_is_not_the_owner_is_told_how_next_to_the_button(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    page.goto(served + "/health")
    expect(page.locator("#checks li")).to_have_count(8)  # the checks are for everybody
    page.click("#start-ring-test")
    refusal = page.locator("#ring-test .feedback")
    expect(refusal).to_contain_text("only the box's owner can start the ring test; to become")
    expect(page.locator("#ring-results li")).to_have_count(0)
    page.click('button[data-role="spokes"]')
    expect(page.locator("#led-test .feedback")).to_contain_text(
        "only the box's owner can run the LED test"
    )
    assert lit(served) == set()
    refusal = page.locator("#led-test .feedback")
    refusal.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "health-not-owner-360.png"))
    assert page.errors == []  # a refusal is said, never an unhandled error


def test_a_german_phone_reads_the_checks_and_the_led_test_in_german(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    as_owner(page, served, tmp_path / "data")
    page.context.add_cookies([{"name": "mandala_lang", "value": "de", "url": served + "/"}])
    page.goto(served + "/health")
    expect(page.locator('#checks li[data-check="rest"]')).to_have_text(
        "ok Ruhepegel: Alle 10 Ringe ruhen mit beiden Leitungen auf ihrem Ruhepegel"
    )
    expect(page.locator('#checks li[data-check="pins"]')).to_contain_text("gehören dieser Box")
    expect(page.locator("#checked")).to_have_text("nichts fehlgeschlagen")
    expect(page.locator("#ring-test-summary")).to_have_text("Nicht gestartet.")
    expect(page.locator('#buttons li[data-button="done"]')).to_have_text(
        "wartet „Fertig“: noch nicht gedrückt"
    )
    expect(page.locator('#led-roles [data-role="spokes"]')).to_have_text("Speichen (16)")
    page.click("#chase-next")
    expect(page.locator("#led-step")).to_have_text(
        "Pixel 1 von 48 leuchtet (Index 0 in der LED-Belegung)."
    )
    page.click('#led-roles [data-role="spokes"]')
    expect(page.locator("#led-step")).to_have_text("Es leuchten: die Speichen (16 Pixel), weiß.")
    page.click("#led-off")
    expect(page.locator("#led-step")).to_have_text("Der Streifen zeigt das Spiel.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.errors == []
