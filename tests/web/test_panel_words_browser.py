"""The shared panel script's own words in German (issue 27), in a real Chromium against a real
``mandala serve --emulate``: the live badge, a player dot's colour, the file-download line,
the stale-version sentence, and, once the server has stopped, the badge and the next call
saying the box cannot be reached. The English of each is asserted where its page is tested
(test_health_browser, test_panel_behaviour)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import api, as_owner, chromium, phone, serve_emulated, shot
from tests.web.test_browser import NO_DICE

pytestmark = pytest.mark.browser

#: The player colours in German (the catalogue's, as docs/glossary-de.md keeps them).
GERMAN_COLOURS = {
    "orange": "Orange",
    "purple": "Lila",
    "cyan": "Türkis",
    "pink": "Pink",
    "lime": "Hellgrün",
    "teal": "Petrol",
    "white": "Weiß",
}
SEATS = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}]


def test_the_shared_script_says_its_words_in_german(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    data = tmp_path / "data"
    with chromium() as browser:
        context = browser.new_context(locale="de-DE")  # Accept-Language: de-DE
        with serve_emulated(data) as base:
            page: Any = phone(browser, base, context)
            as_owner(page, base, data)
            body = {"kind": "rings", "seats": SEATS, "board": "reference", "variant": "standard"}
            game = api(base, "/api/games", body)

            page.goto(base + "/")
            badge = page.locator("#live")
            expect(badge).to_have_text("live")
            expect(badge).to_have_attribute("title", "Live-Aktualisierung")
            colours = api(base, "/api/games")["games"][0]["colours"]
            dots = page.locator(f'.game-card[data-id="{game["id"]}"] .player-dot')
            for i, (name, colour) in enumerate(zip(["Ann", "Bo"], colours, strict=True)):
                expect(dots.nth(i)).to_have_attribute("title", f"{name}: {GERMAN_COLOURS[colour]}")

            # a stale version, as the table refuses it, is said in the players' words
            page.evaluate(
                "([id, dice]) => Panel.api('POST', '/api/games/' + id + '/actions',"
                " { version: 99, action: { dice } }).catch(() => {})",
                [game["id"], NO_DICE],
            )
            changed = "Das Spiel wurde auf einem anderen Handy geändert. "
            changed += "Du siehst es jetzt, wie es steht."
            expect(page.locator("#message")).to_have_text(changed)

            page.goto(base + "/health")
            with page.expect_download():
                page.click("#bundle")
            expect(page.locator("#bundle-said")).to_have_text(
                re.compile(r"^mandala-diagnostics-\S+\.zip heruntergeladen \(\d+ kB\)\.$")
            )
            expect(badge).to_have_text("live")
        # the server has stopped: the stream and the next call say so
        expect(badge).to_have_text("verbinde neu")
        page.evaluate("Panel.api('GET', '/api/games').catch(() => {})")
        expect(page.locator("#message")).to_have_text(
            re.compile(r"^Die Box ist nicht erreichbar: \S")
        )
        shot(page, "panel-words-de-unreachable")
        assert page.errors == []
        context.close()
