"""A ring turn and a card-game destruction played with the panel in German (issue 27), the
announcements' sentences checked word for word: a real ``mandala serve --emulate``, a real
Chromium whose browser asks for German (``Accept-Language: de-DE``), the real stream and
table; only ``window.speechSynthesis`` is stood in, at its API (``test_speech_browser.STUB``).

1. The ring board (``test_browser.OPEN_BOARD``, entrance on spoke 2), as in
   ``test_speech_browser``: Ann rolls red 4 and turns ring 0 (red) four slots
   counter-clockwise; Bo's peg rides to spoke 2, Ann's runs down spoke 14; Ann's base enters
   a peg on spoke 2, which snipes Bo's peg there (Ann 1). Bo is a computer seat: it rolls,
   says in German which rings to turn, turns the emulated rings and confirms.
2. The card game tracking a real table, as in ``test_cards_browser``: black+yellow dealt
   into both mountains; Ann green into mountain 2 (the record's mountain 1); Bo 1 red into
   his field; Ann 2 purple into hers; Bo yellow into the mountain; Ann 1 orange into her field
   completes mandala 2 (Ann has 3 field cards there to Bo's 1, so she chooses first). Ann
   claims yellow, Bo green, Ann black: mandala 2 is destroyed, and Ann's river scores 1.
3. One game, two readers: the table view of a box set to German (``language = "de"``) says
   the step that completes mandala 2 in German, a phone that asks for English in English.

The pages' own words are being put into the catalogue this session; this test asserts the
announcements and the words already in the catalogue (the speech switch's note, whose turn
on the table view), and finds the rest by their ids and data attributes.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from companion import catalogue
from companion.games import rings
from companion.table.announce import computer_turn, dice_rolled
from tests.web import test_browser
from tests.web.browser import api, phone, shot
from tests.web.test_browser import NO_DICE, enter_dice, turn_ring
from tests.web.test_cards_browser import deal, play
from tests.web.test_speech_browser import ANN, BO, STUB, TWO_PEOPLE, spoken

pytestmark = pytest.mark.browser
served = test_browser.served  # the open sixteen-spoke board, served (a fixture)

SPEAKING = (
    "An: Dieses Handy sagt, wer am Zug ist, die Würfel und was jeder Zug bewirkt hat. Nach dem"
    " Neuladen spricht es ab deinem ersten Tippen auf diese Seite: Vorher spricht ein Browser"
    " nicht."
)
"""The speech switch's note once it is on (``speech.js``), as the catalogue has it."""


def german_phone(browser: Any, base: str) -> Any:
    """A 360x740 phone whose browser asks for German, its speech stood in."""
    context = browser.new_context(locale="de-DE", viewport={"width": 360, "height": 740})
    page = phone(browser, base, context)
    page.add_init_script(STUB)
    return page


def speak(page: Any, url: str) -> None:
    """Open ``url`` in German and turn the phone's speech on."""
    from playwright.sync_api import expect

    page.goto(url)
    assert page.evaluate("document.documentElement.lang") == "de"
    page.locator("#speak-game").check()
    expect(page.locator("#speak-note")).to_have_text(SPEAKING)
    assert spoken(page) == []


def said_until(page: Any, last: str, after: int = 0, timeout: float = 30.0) -> list[str]:
    """What was spoken after the first ``after`` sentences, once ``last`` was among them (a
    hang guard, not a speed test)."""
    deadline = time.monotonic() + timeout
    while last not in (found := spoken(page)[after:]):
        assert time.monotonic() < deadline, f"{last!r} never spoken: {found}"
        page.wait_for_timeout(50)
    return found


def languages(page: Any) -> set[str]:
    """The languages the stood-in synthesis was asked to speak in."""
    found: list[str] = page.evaluate("window.utterances.map((u) => u.lang)")
    return set(found)


def test_a_ring_turn_with_a_snipe_and_a_computer_seats_turn_are_said_in_german(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    body = {**TWO_PEOPLE, "seed": 5, "seats": [ANN, {**BO, "computer": "easy"}]}
    game = api(served, "/api/games", body)
    page = german_phone(browser, served)
    speak(page, f"{served}/games/{game['id']}")
    enter_dice(page, {**NO_DICE, "red": 4})
    turn_ring(page, 0, -4)
    expect(page.locator("#confirm")).to_be_enabled()
    page.click("#confirm")
    said = said_until(page, "Ann ist am Zug")
    shot(page, "german-01-rings-after-the-computer")
    # What turn 1 told the table, in the history, from the catalogue too.
    expect(page.locator('#history li[data-turn="1"]')).to_contain_text(
        "Der Stift von Bo auf Ring 0, Speiche 2 wird rausgeworfen: "
        "zurück in den Startbereich von Bo"
    )

    assert said[:4] == [
        "Ann setzt einen Stift auf Speiche 2 ein",
        "Ann wirft Bo auf Speiche 2 raus",
        "Ann hat 1 Punkt",
        "Bo ist am Zug",
    ]
    record = api(served, f"/api/games/{game['id']}/record")
    played = record["turns"][1]
    dice = ", ".join(
        f"{word} {played['dice'][colour]}"
        for colour, word in zip(rings.COLOURS, DICE_WORDS, strict=True)
    )
    assert said[4] == f"Bo hat gewürfelt: {dice}"
    assert said[4] == catalogue.render(dice_rolled("Bo", played["dice"]), "de")
    # The computer's instructions, one sentence per ring, in the panel's order.
    state = rings.new_game(record)
    colours = [ring.colour for ring in state.board.rings]
    ordered = [(r["ring"], r["steps"]) for r in played["rotations"]]
    ordered.sort(key=lambda r: (rings.COLOURS.index(colours[r[0]]), r[0]))
    told = [catalogue.render(p, "de") for p in computer_turn("Bo", ordered, state.board)]
    assert said[5 : 5 + len(told)] == told
    assert re.fullmatch(r"Bo: Dreh" + INSTRUCTION.removeprefix("Dann dreh"), told[0]), told
    assert all(re.fullmatch(INSTRUCTION, line) for line in told[1:]), told
    # What Bo's turn did (his pegs enter, ride, snipe, score), then whose turn it is.
    done = said[5 + len(told) : -1]
    assert all(re.fullmatch(EVENT, line) for line in done), done
    assert said[-1] == "Ann ist am Zug"
    assert languages(page) == {"de"}
    assert page.errors == []


DICE_WORDS = ("Rot", "Blau", "Grün", "Gelb", "Braun")
"""The dice colours in German, in ``rings.COLOURS``' order (red, blue, green, yellow, brown)."""
INSTRUCTION = (
    r"Dann dreh den Ring in (Rot|Blau|Grün|Gelb|Braun), den (äußersten|innersten|(zweiten|dritten"
    r"|vierten|fünften) von (außen|innen)), um (1 Feld|[2-9] Felder|1[0-5] Felder)"
    r" (im|gegen den) Uhrzeigersinn"
)
"""A computer seat's instruction for its next ring, as a German player says it."""
EVENT = (
    r"Bo setzt einen Stift auf Speiche \d+ ein|Bo wirft Ann auf Speiche \d+ raus"
    r"|Bo wirft \d Stifte von Ann auf Speiche \d+ raus|Ein Stift von Bo erreicht die Mitte"
    r"|Bo hat 1 Punkt|Bo hat \d+ Punkte"
)
"""What a ring turn of Bo's can do, said in German."""


def test_a_card_game_destruction_tracked_on_the_panel_is_said_in_german(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "table"})
    page = german_phone(browser, served)
    speak(page, f"{served}/games/{game['id']}")
    status = page.locator("#cards-status .what")
    log = page.locator("#cards-log li")
    deal(page, ["black", "yellow"])
    expect(log).to_have_count(1)  # the page has the first deal: the second is mountain 2's
    deal(page, ["black", "yellow"])
    expect(log).to_have_count(2)
    said_until(page, "Ann ist am Zug")
    plays: list[tuple[dict[str, Any], int, str]] = [
        ({"mountain": 1, "colour": "green"}, 1, "Bo ist am Zug"),
        ({"field": 1, "colour": "red", "count": 1}, 1, "Ann ist am Zug"),
        ({"field": 1, "colour": "purple", "count": 2}, 2, "Bo ist am Zug"),
        ({"mountain": 1, "colour": "yellow"}, 1, "Ann ist am Zug"),
    ]
    for number, (action, count, next_turn) in enumerate(plays, start=3):
        before = len(spoken(page))
        play(page, action, count)
        expect(log).to_have_count(number)
        expect(status).to_contain_text(next_turn.split()[0])
        said_until(page, next_turn, after=before)
    assert spoken(page)[-8:] == [
        "Ann spielt Grün ins Zentrum von Mandala 2",
        "Bo ist am Zug",
        "Bo spielt 1 Karte Rot in das eigene Feld von Mandala 2",
        "Ann ist am Zug",
        "Ann spielt 2 Karten Lila in das eigene Feld von Mandala 2",
        "Bo ist am Zug",
        "Bo spielt Gelb ins Zentrum von Mandala 2",
        "Ann ist am Zug",
    ]
    before = len(spoken(page))
    play(page, {"field": 1, "colour": "orange", "count": 1})
    expect(log).to_have_count(7)
    expect(page.locator('.mandala[data-mandala="1"]')).to_have_class("mandala complete")
    said_until(page, "Mandala 2 ist vollständig: Ann wählt zuerst", after=before)
    shot(page, "german-02-cards-mandala-complete")
    for number, colour in enumerate(["yellow", "green", "black"], start=8):
        page.click(f'button[data-claim="{colour}"]')
        expect(log).to_have_count(number)  # the claim is in before the next one is tapped
    said = said_until(page, "Mandala 2 wird aufgelöst", after=before)
    assert said == [
        "Ann spielt 1 Karte Orange in das eigene Feld von Mandala 2",
        "Mandala 2 ist vollständig: Ann wählt zuerst",
        "Ann ist am Zug",
        "Ann nimmt Gelb",
        "Ann hat 1 Punkt",  # her cup's yellow, at space 1 of her river
        "Bo ist am Zug",
        "Bo nimmt Grün",
        "Ann ist am Zug",
        "Ann nimmt Schwarz",
        "Mandala 2 wird aufgelöst",  # then a deal is due: nobody's turn is said
    ]
    expect(page.locator('.player[data-player="Ann"] .score')).to_have_text("1")
    # The log's notes, mandalas counted from 1 as the page draws them.
    expect(log.nth(2)).to_have_text(
        "Ann nimmt 2 Karten Gelb: 1 in den Fluss von Ann (Platz 1), 1 in den Kelch von Ann."
        " Bo nimmt als Nächstes"
    )
    expect(log.first).to_contain_text("Ann nimmt Schwarz: 1 in den Fluss von Ann (Platz 2). ")
    expect(log.first).to_contain_text("Mandala 2 ist aufgelöst")
    shot(page, "german-03-cards-destroyed")
    assert languages(page) == {"de"}
    assert page.errors == []


TRACKED = [
    {"deal": 0, "colours": ["black", "yellow"]},
    {"deal": 1, "colours": ["black", "yellow"]},
    {"mountain": 1, "colour": "green"},
    {"field": 1, "colour": "red", "count": 1},
    {"field": 1, "colour": "purple", "count": 2},
    {"mountain": 1, "colour": "yellow"},
]
"""``cards-t1-deals-destruction-deal``'s steps before the one that completes mandala 2."""


def test_a_german_boxs_table_view_says_it_in_german_and_an_english_phone_in_english(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    from tests.web.test_table_view_browser import panel_without_rings

    with panel_without_rings(tmp_path / "data", {"LANGUAGE": "de"}) as base:
        game = api(base, "/api/games", {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "table"})
        path = f"/api/games/{game['id']}/actions"
        version = game["version"]
        for action in TRACKED:
            version = api(base, path, {"version": version, "action": action})["version"]
        screen = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 720})
        tv = phone(browser, base, screen, size=(1280, 720))
        tv.add_init_script(STUB)
        tv.goto(f"{base}/table")
        expect(tv.locator("main.tv")).to_have_attribute("data-shown", game["id"])
        expect(tv.locator("#tv-speak")).to_be_checked()  # on by default on the table view
        hand = browser.new_context(locale="en-GB", viewport={"width": 360, "height": 740})
        english = phone(browser, base, hand)
        english.add_init_script(STUB)
        english.goto(f"{base}/games/{game['id']}")
        english.locator("#speak-game").check()
        expect(english.locator("#speak-note")).to_contain_text("On: this phone says")
        heard, read = len(spoken(tv)), len(spoken(english))
        last = {"field": 1, "colour": "orange", "count": 1}
        api(base, path, {"version": version, "action": last})
        assert said_until(tv, "Ann ist am Zug", after=heard) == [
            "Ann spielt 1 Karte Orange in das eigene Feld von Mandala 2",
            "Mandala 2 ist vollständig: Ann wählt zuerst",
            "Ann ist am Zug",
        ]
        assert said_until(english, "Ann's turn", after=read) == [
            "Ann plays 1 orange card into their field of mandala 2",
            "Mandala 2 is complete: Ann chooses first",
            "Ann's turn",
        ]
        assert languages(tv) == {"de"} and languages(english) == {"en"}
        assert tv.errors == [] and english.errors == []
        screen.close()
        hand.close()
