"""The ring board page in German on a phone (issue 27), in the states with the most words.

A real ``mandala serve --emulate`` with the open sixteen-spoke board (``test_browser``), a
real Chromium at 360x740 whose browser asks for German. Ann enters brown 4 and turns ring 9
(brown, the innermost) four slots counter-clockwise; the dice's states, the hints and the
hint drawn on the board, the pegs card, the history and, after an undo, the re-sync guide
are read in German, and in each of those states nothing is wider than the screen, no control
is under 44x44 px and axe-core finds nothing serious (``test_every_page.rules_broken``).
The page's own words are checked word for word; the table's sentences (a die's reason, the
preview, the pegs to move) are not this page's and are only found by their place.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web import test_browser
from tests.web.browser import api, phone, shot
from tests.web.test_browser import NO_DICE, enter_dice, turn_ring
from tests.web.test_every_page import rules_broken
from tests.web.test_speech_browser import TWO_PEOPLE

pytestmark = pytest.mark.browser
served = test_browser.served  # the open sixteen-spoke board, served (a fixture)

RING_NAME = (
    r"Ring in (Rot|Blau|Grün|Gelb|Braun) \(\w\), "
    r"der (äußerste|innerste|[2-5]\. von (außen|innen))"
)
"""A ring by colour and place, as a German list item names it."""
SLOTS = (
    r"(1 Feld|([2-9]|1[0-5]) Felder)"
    r"( im Uhrzeigersinn| gegen den Uhrzeigersinn|, egal in welche Richtung)"
)
"""So many slots and which way, in German."""


def test_a_turn_its_hints_and_the_resync_guide_read_in_german_and_fit_a_phone(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", {**TWO_PEOPLE, "seed": 5})
    context = browser.new_context(
        locale="de-DE",
        viewport={"width": 360, "height": 740},
        bypass_csp=True,  # lets the test inject axe-core; the page's own rules stay
    )
    page = phone(browser, served, context)
    page.goto(f"{served}/games/{game['id']}")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.title() == "Ringbrett · Mandala Companion"
    expect(page.locator("#to-move")).to_have_text("Ann ist am Zug")
    expect(page.locator("#turn-line small")).to_have_text("· Zug 1")
    expect(page.locator("#legend")).to_have_text(
        re.compile(r"^Ringe: \w Rot · \w Blau · \w Grün · \w Gelb · \w Braun\. Schwarze Felder")
    )
    expect(page.locator("#ring-status li.muted")).to_have_text(
        "Gib die Würfel ein oder würfle. Dann dreh die Ringe."
    )
    expect(page.locator("#blocked")).to_have_text(re.compile(r"^Bestätigen geht noch nicht: "))
    # The server's reasons are phrases, said in the page's language too.
    expect(page.locator("#blocked")).to_have_text(
        "Bestätigen geht noch nicht: Gib zuerst die Würfel ein oder würfle"
    )

    enter_dice(page, {**NO_DICE, "brown": 4})
    brown = page.locator('[data-die-status="brown"]')
    expect(brown).to_have_text(re.compile(r"^Braun: ungenutzt — "))
    unused = "Der Würfel in Braun zeigt 4, aber kein Ring in Braun wurde gedreht"
    expect(brown).to_have_text(f"Braun: ungenutzt — {unused}")
    expect(page.locator("#blocked")).to_have_text(re.compile(r"^Bestätigen geht noch nicht: "))
    expect(page.locator("#blocked")).to_have_text(f"Bestätigen geht noch nicht: {unused}")
    expect(page.locator('.die-faces[aria-label="Würfel in Braun"]')).to_have_count(1)
    turn_ring(page, 9, -4)
    expect(brown).to_have_text(re.compile(r"^Braun: genutzt — "))
    expect(brown).to_have_text(
        "Braun: genutzt — Ring 9 (Braun) um 4 gegen den Uhrzeigersinn gedreht"
    )
    expect(page.locator("#confirm")).to_be_enabled()

    page.click("#hints")
    hints = page.locator("#hints-list button.hint")
    expect(hints.first).to_be_visible()
    for text in hints.all_text_contents():
        assert re.match(rf"({RING_NAME}: {SLOTS}(; |$| — )|keinen Ring drehen)", text), text
        # What a hint does is the advisor's phrase, in German too.
        if " — " in text:
            does = text.split(" — ", 1)[1]
            assert re.match(r"^Ann (versetzt|wirft|setzt|bringt)|^Ann: kein Stift", does), text
    hints.first.click()
    expect(page.locator("#hint-shown")).to_have_text(
        "Das Brett zeigt die Ringe so gedreht, wie dieser Tipp sagt. Tipp ihn noch einmal an, "
        "dann siehst du sie, wie sie stehen."
    )
    shot(page, "rings-de-01-hints")
    assert rules_broken(page, on_phone=True) == []
    hints.first.click()
    expect(page.locator("#hint-shown")).to_be_hidden()

    page.click("#confirm")
    expect(page.get_by_text("Zug bestätigt.", exact=True)).to_be_visible()
    expect(page.locator("#to-move")).to_have_text("Bo ist am Zug")
    expect(page.locator("#last-title")).to_have_text("Stifte versetzen (Zug 1 von Ann)")
    expect(page.locator("#last-done")).to_have_text("Fertig: Stifte sind versetzt")
    turn_1 = page.locator('#history li[data-turn="1"]')
    expect(turn_1.locator("strong")).to_have_text("Zug 1: ")
    expect(turn_1).to_contain_text(re.compile(r"Würfel \w0 \w0 \w0 \w0 \w4; Ring 9 -4"))
    shot(page, "rings-de-02-pegs-card")
    assert rules_broken(page, on_phone=True) == []
    page.click("#last-done")
    expect(page.locator("#last-folded")).to_have_text("✓ Stifte für Zug 1 versetzt. Wieder zeigen")

    page.click("#undo")
    expect(
        page.get_by_text("Rückgängig gemacht: Dreh die Ringe zurück, wie die Anleitung zeigt.")
    ).to_be_visible()
    expect(page.locator("#resync")).to_be_visible()
    expect(page.locator("#resync h2")).to_have_text("Ringe neu abgleichen")
    expect(page.locator("#resync-prompt")).to_have_text(
        re.compile(r"\. Jeder Ring wird abgehakt, sobald er dort ist\.$")
    )
    expect(page.locator("#resync-prompt")).to_have_text(
        "Der letzte Zug wurde rückgängig gemacht: Dreh die Ringe zurück, wie das Spiel sie hat. "
        "Jeder Ring wird abgehakt, sobald er dort ist."
    )
    expect(page.locator('#resync-list li[data-ring="9"]')).to_have_text(
        re.compile(
            r"^Ring in Braun \(\w\), der innerste: 4 Felder im Uhrzeigersinn "
            r"\(seine Marke auf Speiche 0\)$"
        )
    )
    expect(page.locator('#resync-list li[data-ring="4"]')).to_have_text(
        re.compile(r"^Ring in Braun \(\w\), der 5\. von außen: steht, wo das Spiel ihn hat$")
    )
    expect(page.locator("#resync-accept")).to_have_text("Ringe übernehmen, wie sie stehen")
    shot(page, "rings-de-03-resync")
    assert rules_broken(page, on_phone=True) == []
    assert page.errors == []
