"""Your-turn alerts in a real Chromium (issue 25): only ``navigator.vibrate`` is stood in
(it records its calls); the sound is the real WebAudio of Chromium, its oscillator counted
by the page (``Alerts.beeps()``) and the context running after the first tap.

Each alerting phone's game changes come only from the stream (another phone acts), so when
its page shows the new turn the alert, made from the same item, has been given or not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games import cards
from tests.web import test_browser
from tests.web.browser import api, create_before_serving, phone, serve_emulated, shot
from tests.web.test_browser import NO_DICE, enter_dice
from tests.web.test_speech_browser import TWO_PEOPLE

pytestmark = pytest.mark.browser
served = test_browser.served  # the open sixteen-spoke board, served (a fixture)

VIBRATE = """
window.vibrated = [];
Object.defineProperty(navigator, "vibrate", {
  value: (pattern) => { window.vibrated.push(pattern); return true; }, configurable: true,
});
"""


def alerting_phone(browser: Any, base: str, context: Any = None) -> Any:
    page = phone(browser, base, context)
    page.add_init_script(VIBRATE)
    return page


def vibrated(page: Any) -> list[Any]:
    found: list[Any] = page.evaluate("window.vibrated.slice()")
    return found


def test_a_phone_that_claims_a_ring_seat_vibrates_and_beeps_on_that_seats_turn_only(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", TWO_PEOPLE)
    url = f"{served}/games/{game['id']}"
    bo = alerting_phone(browser, served, browser.new_context())
    bo.goto(url)
    expect(bo.locator("#turn-alert")).to_be_checked()  # on unless this phone turned it off
    bo.click("#speech-title")  # a first tap on the page: the browser allows sound from now on
    bo.select_option("#my-seat", "Bo")  # "This is my seat"
    shot(bo, "alerts-01-rings-my-seat")
    table = phone(browser, served, browser.new_context())
    table.goto(url)

    enter_dice(table, NO_DICE)  # Ann's turn, played on the other phone
    table.click("#confirm")
    expect(bo.locator("#to-move")).to_have_text("Bo to move")
    assert vibrated(bo) == [[200, 100, 200]]
    assert bo.evaluate("Alerts.beeps()") == 1
    assert bo.evaluate("Alerts.sound().state") == "running"

    enter_dice(table, NO_DICE)  # Bo's turn, confirmed: now Ann's, not this phone's
    table.click("#confirm")
    expect(bo.locator("#to-move")).to_have_text("Ann to move")
    assert vibrated(bo) == [[200, 100, 200]]

    bo.reload()  # the claim is this phone's
    expect(bo.locator("#my-seat")).to_have_value("Bo")
    bo.locator("#turn-alert").uncheck()  # and so is the switch: off, no alert
    bo.reload()
    expect(bo.locator("#turn-alert")).not_to_be_checked()
    enter_dice(table, NO_DICE)
    table.click("#confirm")
    expect(bo.locator("#to-move")).to_have_text("Bo to move")
    assert vibrated(bo) == []
    assert bo.errors == [] and table.errors == []


def test_the_phone_holding_a_card_seat_is_alerted_when_it_becomes_that_seats_turn(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    data = tmp_path / "data"
    body = {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "play", "seed": 5}
    game_id = create_before_serving(data, body)
    state = cards.new_game({"seats": ["Ann", "Bo"], "seed": 5})
    with serve_emulated(data) as base:
        url = f"{base}/games/{game_id}"
        ann = phone(browser, base, browser.new_context())
        bo = alerting_phone(browser, base, browser.new_context())
        for page in (ann, bo):
            page.goto(url)
        ann.click('button[data-take="0"]')
        bo.click('button[data-take="1"]')  # the tap that opens the sound too
        expect(bo.locator("#cards-status")).to_contain_text("you are Bo")
        expect(bo.locator("#my-seat-box")).to_be_hidden()  # the held seat is the one
        first = cards.legal_actions(state)[0]
        assert isinstance(first, cards.MountainPlay)
        ann.click(f'#cards-entry button[data-colour="{first.colour}"]')
        step = json.dumps(cards.action_to_json(first), separators=(",", ":"))
        ann.click(f"#cards-entry button[data-action='{step}']")
        expect(bo.locator("#cards-entry")).to_be_visible()  # Bo's turn on Bo's phone
        assert vibrated(bo) == [[200, 100, 200]]
        assert bo.evaluate("Alerts.beeps()") == 1
        expect(bo.locator("#cards-status")).to_contain_text("you are Bo")
        assert bo.evaluate("Alerts.sound().state") == "running"
        shot(bo, "alerts-02-cards-bos-turn")
        assert ann.errors == [] and bo.errors == []
