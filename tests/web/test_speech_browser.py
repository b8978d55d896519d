"""Spoken announcements in a real Chromium (issue 25): only ``window.speechSynthesis`` is
stood in, at its API (``speak``, ``cancel``, ``speaking``, ``pending``, ``getVoices`` and
the utterance's ``onend``); the utterances, the page, the stream and the table are real.

The scripted game, on an all-black sixteen-spoke board (``test_browser.OPEN_BOARD``,
entrance on spoke 2): Ann (a person) rolls red 4 and turns ring 0 (red) four slots
counter-clockwise. Worked out by hand: Bo's peg (ring 0, slot 6) rides to spoke 2, Ann's
(slot 2) to spoke 14 and runs down it to ring 9; then Ann's base enters a peg on (0, 2),
which snipes Bo's peg there (Ann 1). Bo is a computer seat: it rolls, says which rings to
turn, turns the emulated rings and confirms.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from companion.games import rings
from companion.table.announce import computer_turn, dice_rolled
from tests.web import test_browser
from tests.web.browser import api, phone, shot
from tests.web.test_browser import NO_DICE, enter_dice, turn_ring

pytestmark = pytest.mark.browser
served = test_browser.served  # the open sixteen-spoke board, served (a fixture)

STUB = """
(() => {
  const spoken = [];
  const said = [];
  const synth = {
    speaking: false,
    pending: false,
    held: null,
    hold: false,
    cancels: 0,
    getVoices() { return []; },
    speak(utterance) {
      said.push(utterance);
      spoken.push(utterance.text);
      this.speaking = true;
      const end = () => { this.speaking = false; this.held = null; utterance.onend({}); };
      if (this.hold) this.held = end; else setTimeout(end, 0);
    },
    cancel() { this.cancels += 1; this.speaking = false; },
  };
  Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
  window.spoken = spoken;
  window.utterances = said;  // each one's lang too (test_german_browser)
})();
"""


ANN, BO = {"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 1}
TWO_PEOPLE = {"kind": "rings", "board": "open16", "variant": "standard", "seats": [ANN, BO]}


def speaking_phone(browser: Any, base: str) -> Any:
    page = phone(browser, base)
    page.add_init_script(STUB)
    return page


def spoken(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.spoken.slice()")
    return found


def said_until(page: Any, last: str, timeout: float = 30.0) -> list[str]:
    """What was spoken once ``last`` was (a hang guard, not a speed test)."""
    deadline = time.monotonic() + timeout
    while last not in (found := spoken(page)):
        assert time.monotonic() < deadline, f"{last!r} never spoken: {found}"
        page.wait_for_timeout(50)
    return found


def test_a_ring_turn_with_a_snipe_then_a_computer_seats_turn_are_spoken_in_order(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    game = api(
        served,
        "/api/games",
        {**TWO_PEOPLE, "seed": 5, "seats": [ANN, {**BO, "computer": "easy"}]},
    )
    page = speaking_phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    switch = page.locator("#speak-game")
    expect(switch).not_to_be_checked()  # off on a phone until turned on
    expect(page.locator("#to-move")).to_have_text("Ann to move")
    switch.check()
    expect(page.locator("#speak-note")).to_contain_text("On: this phone says")
    assert spoken(page) == []

    enter_dice(page, {**NO_DICE, "red": 4})
    turn_ring(page, 0, -4)
    expect(page.locator("#confirm")).to_be_enabled()
    page.click("#confirm")
    said_until(page, "Ann's turn")
    shot(page, "speech-01-rings-after-the-computer")

    record = api(served, f"/api/games/{game['id']}/record")
    played = record["turns"][1]
    state = rings.new_game(record)
    ordered = [(r["ring"], r["steps"]) for r in played["rotations"]]
    colours = [ring.colour for ring in state.board.rings]
    ordered.sort(key=lambda r: (rings.COLOURS.index(colours[r[0]]), r[0]))
    said = spoken(page)
    computer = [p.english() for p in computer_turn("Bo", ordered, state.board)]
    assert said[:5] == [
        "Ann enters a peg on spoke 2",
        "Ann snipes Bo on spoke 2",
        "Ann has 1 point",
        "Bo's turn",
        dice_rolled("Bo", played["dice"]).english(),
    ]
    assert said[5 : 5 + len(computer)] == computer
    assert said[-1] == "Ann's turn"
    assert re.fullmatch(r"Bo: turn the \w+ ring, .+, \d+ slots? (counter-)?clockwise", said[5])
    assert page.errors == []


def item(game: str, topic: str, *texts: str) -> dict[str, Any]:
    """A ``say`` item as the stream sends it (phrases without values)."""
    return {
        "type": "say",
        "game": game,
        "kind": "rings",
        "n": 1,
        "topic": topic,
        "phrases": [{"text": text, "values": {}} for text in texts],
    }


def test_one_announcement_at_a_time_a_newer_turn_replaces_a_waiting_one_and_old_ones_drop(
    served: str, browser: Any
) -> None:
    game = api(served, "/api/games", TWO_PEOPLE)
    page = speaking_phone(browser, served)
    page.clock.install()
    page.goto(f"{served}/games/{game['id']}")
    page.locator("#speak-game").check()
    page.evaluate("window.speechSynthesis.hold = true")
    take = "item => Speech.take(item)"
    release = "() => window.speechSynthesis.held()"
    gid = game["id"]

    page.evaluate(take, item(gid, "events", "Ann snipes Bo on spoke 2", "Ann has 1 point"))
    page.evaluate(take, item(gid, "turn", "Bo's turn"))
    page.evaluate(take, item("other", "turn", "Cy's turn"))  # another game: not this page's
    page.evaluate(take, item(gid, "events", "Bo enters a peg on spoke 6"))
    page.evaluate(take, item(gid, "turn", "Ann's turn"))  # replaces the waiting "Bo's turn"
    assert spoken(page) == ["Ann snipes Bo on spoke 2"]  # one at a time: the rest wait
    page.evaluate(release)
    assert spoken(page)[-1] == "Ann has 1 point"  # an announcement's sentences go together
    page.evaluate(release)
    page.evaluate(release)
    assert spoken(page) == [
        "Ann snipes Bo on spoke 2",
        "Ann has 1 point",
        "Bo enters a peg on spoke 6",
        "Ann's turn",
    ]

    # An announcement that waited more than STALE_MS (30 s) is dropped unspoken.
    page.evaluate(release)
    page.evaluate(take, item(gid, "events", "Bo snipes Ann on spoke 10"))
    page.evaluate(take, item(gid, "events", "Bo has 1 point"))
    assert page.evaluate("Speech.STALE_MS") == 30_000
    page.clock.set_system_time(page.evaluate("Date.now()") + 31_000)  # no timer runs
    page.evaluate(release)
    assert spoken(page)[-2:] == ["Ann's turn", "Bo snipes Ann on spoke 10"]
    assert not page.evaluate("window.speechSynthesis.speaking")

    # Turned off: the queue is emptied and the speech cancelled; nothing more is spoken.
    page.evaluate(take, item(gid, "events", "Ann enters a peg on spoke 2"))
    page.evaluate(take, item(gid, "turn", "Bo's turn"))
    page.locator("#speak-game").uncheck()
    assert page.evaluate("window.speechSynthesis.cancels") == 1
    page.evaluate(take, item(gid, "turn", "Ann's turn"))
    assert spoken(page)[-1] == "Ann enters a peg on spoke 2"
    assert page.errors == []


def test_the_switch_is_remembered_by_the_phone(served: str, browser: Any) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", TWO_PEOPLE)
    page = speaking_phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#speak-game")).not_to_be_checked()
    page.locator("#speak-game").check()
    page.reload()
    expect(page.locator("#speak-game")).to_be_checked()
    shot(page, "speech-02-switch-on")
    page.locator("#speak-game").uncheck()
    page.reload()
    expect(page.locator("#speak-game")).not_to_be_checked()
    assert page.errors == []


def test_the_table_view_speaks_the_game_it_shows_unless_its_switch_is_turned_off(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", TWO_PEOPLE)
    screen = speaking_phone(browser, served)
    screen.set_viewport_size({"width": 1280, "height": 720})
    screen.goto(f"{served}/table")
    expect(screen.locator("main.tv")).to_have_attribute("data-shown", game["id"])
    switch = screen.locator("#tv-speak")
    expect(switch).to_be_checked()  # on by default on the table view
    hand = phone(browser, served, browser.new_context())
    hand.goto(f"{served}/games/{game['id']}")
    enter_dice(hand, NO_DICE)  # Ann's peg runs down spoke 2 into Central Control
    hand.click("#confirm")
    assert said_until(screen, "Bo's turn") == [
        "Ann's peg enters Central Control",
        "Ann enters a peg on spoke 2",
        "Ann has 1 point",
        "Bo's turn",
    ]
    shot(screen, "speech-03-table-view")
    switch.uncheck()
    screen.reload()
    expect(screen.locator("#tv-speak")).not_to_be_checked()  # kept by this screen
    assert screen.errors == [] and hand.errors == []
