"""The panel in a real Chromium on a phone-sized screen, against `mandala serve --emulate`.

A two-seat game on an all-black board (entrance on spoke 2 only) is played only through the
panel: dice taps, the emulator's ring buttons and confirm. Worked out by hand:

- turn 1, Ann, no dice: her peg runs (0,2) -> (9,2) and enters Central Control (Ann 1);
  a new peg enters at (0,2).
- turn 2, Bo, no dice: his peg runs (0,6) -> (9,6) and stops (6 is no entrance); a new peg
  enters at (0,6).
- turn 3, Ann, brown 4: ring 9 turned 4 counter-clockwise carries Bo's ring-9 peg (slot 6)
  to spoke 2; Ann's peg runs down spoke 2, snipes it (Ann 2) and enters (Ann 3).
- turn 4, Bo, no dice: his outer peg runs (0,6) -> (9,6) and stops; Bo stays at 0.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import api, as_owner, phone, serve_emulated, shot
from tests.web.conftest import NEW_RINGS_GAME

pytestmark = pytest.mark.browser

OPEN_BOARD = """name = "Open sixteen"
spokes = 16
corners = [2, 6, 10, 14]
entrances = [2]
dice = [0, 1, 2, 3, 4]
""" + "".join(
    f'\n[[rings]]\ncolour = "{colour}"\nblack = {list(range(16))}\n'
    for colour in ["red", "blue", "green", "yellow", "brown"] * 2
)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """Run ``mandala serve --emulate`` with the open sixteen-spoke board saved; yield its URL."""
    data = tmp_path / "data"
    (data / "boards").mkdir(parents=True)
    (data / "boards" / "open16.toml").write_text(OPEN_BOARD)
    with serve_emulated(data) as url:
        yield url


def enter_dice(page: Any, dice: dict[str, int]) -> None:
    for colour, face in dice.items():
        page.click(f'button[data-die="{colour}"][data-face="{face}"]')
    page.click("#enter-dice")


def turn_ring(page: Any, ring: int, detents: int) -> None:
    for _ in range(abs(detents)):
        page.click(f'button[data-turn="{ring}"][data-detents="{1 if detents > 0 else -1}"]')


def expect_scores(page: Any, ann: int, bo: int) -> None:
    from playwright.sync_api import expect

    expect(page.locator('[data-seat="Ann"] .score')).to_have_text(str(ann))
    expect(page.locator('[data-seat="Bo"] .score')).to_have_text(str(bo))


NO_DICE = {"red": 0, "blue": 0, "green": 0, "yellow": 0, "brown": 0}


def test_a_two_seat_game_played_with_the_emulated_rings(served: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    page.goto(served + "/")
    page.select_option("#kind", "rings")
    page.select_option("#board", "open16")
    expect(page.locator("#seed")).to_be_hidden()  # the ring board has no random layout
    seats = page.locator("#seats .seat")
    seats.nth(0).locator("[name=seat-name]").fill("Ann")
    seats.nth(1).locator("[name=seat-name]").fill("Bo")
    seats.nth(1).locator('[name=seat-corner] [data-corner="1"]').click()
    seats.nth(1).locator("[name=seat-colour]").select_option("purple")
    shot(page, "01-home-new-game")
    page.click("#new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#to-move")).to_have_text("Ann to move")
    expect_scores(page, 0, 0)
    shot(page, "02-ring-board-start")

    # turn 1: Ann's peg runs into Central Control
    enter_dice(page, NO_DICE)
    expect(page.locator("#confirm")).to_be_enabled()
    page.click("#confirm")
    expect_scores(page, 1, 0)
    expect(page.locator("#to-move")).to_have_text("Bo to move")

    # turn 2: Bo's peg runs to ring 9 and stops
    enter_dice(page, NO_DICE)
    expect(page.locator("#confirm")).to_be_enabled()
    page.click("#confirm")
    expect_scores(page, 1, 0)
    expect(page.locator("#to-move")).to_have_text("Ann to move")

    # a second phone on the same game
    other = phone(browser, served)
    other.goto(page.url)
    expect(other.locator("#live")).to_have_text("live")
    expect_scores(other, 1, 0)

    # turn 3: brown 4, ring 9 four slots counter-clockwise: a snipe and a centre entry
    enter_dice(page, {**NO_DICE, "brown": 4})
    brown = page.locator('[data-die-status="brown"]')
    expect(brown).to_have_class(re.compile(r"\bs-unused\b"))
    expect(brown).to_contain_text("the brown die shows 4 but no brown ring turned")
    expect(page.locator("#confirm")).to_be_disabled()
    turn_ring(page, 9, -1)
    expect(brown).to_have_class(re.compile(r"\bs-wrong\b"))
    expect(brown).to_contain_text("ring 9 (brown) turned -1 but the brown die shows 4")
    expect(other.locator('[data-die-status="brown"]')).to_have_class(re.compile(r"\bs-wrong\b"))
    turn_ring(page, 9, -3)
    expect(brown).to_have_class(re.compile(r"\bs-used\b"))
    expect(brown).to_contain_text("ring 9 (brown) turned 4 counter-clockwise")
    expect(page.locator("#preview")).to_contain_text("Bo's peg on ring 9, spoke 2 is sniped")
    shot(page, "03-turn-3-rings-turned")
    expect(page.locator("#confirm")).to_be_enabled()
    page.click("#confirm")
    expect_scores(page, 3, 0)
    instructions = page.locator("#instructions")
    expect(instructions).to_contain_text("Bo's peg on ring 9, spoke 2 is sniped")
    expect(instructions).to_contain_text(
        "Ann's peg on ring 9, spoke 2 enters Central Control (1 point)"
    )
    expect_scores(other, 3, 0)  # the second phone, without reloading
    shot(page, "04-after-snipe-and-centre")
    shot(other, "05-second-phone")

    # undo: the re-sync guide asks for ring 9 back, ticks it off, then the turn is replayed
    page.click("#undo")
    expect_scores(page, 1, 0)
    guide = page.locator("#resync")
    expect(guide).to_be_visible()
    expect(page.locator('#resync-list li[data-ring="9"]')).to_have_text(
        "the brown ring (N), the innermost: 4 slots clockwise (its mark to spoke 0)"
    )
    shot(page, "06-resync-guide")
    turn_ring(page, 9, 4)
    expect(guide).to_be_hidden()
    expect(page.locator('[data-die-status="brown"]')).to_have_class(re.compile(r"\bs-unused\b"))
    turn_ring(page, 9, -4)
    expect(page.locator("#confirm")).to_be_enabled()
    page.click("#confirm")
    expect_scores(page, 3, 0)

    # turn 4: Bo, no dice
    expect(page.locator("#to-move")).to_have_text("Bo to move")
    enter_dice(page, NO_DICE)
    expect(page.locator("#confirm")).to_be_enabled()
    page.click("#confirm")
    expect_scores(page, 3, 0)
    expect(page.locator("#to-move")).to_have_text("Ann to move")
    game = api(served, "/api/games/" + page.url.rsplit("/", 1)[1])
    assert game["state"]["turns"] == 4
    assert game["state"]["scores"] == {"Ann": 3, "Bo": 0}
    assert game["state"]["offsets"] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 12]
    shot(page, "07-after-turn-4")
    assert page.errors == [] and other.errors == []


def deaf_phone_on_a_new_game(served: str, browser: Any) -> tuple[Any, dict[str, Any], str]:
    """Start a two-seat game and open it on a phone whose live stream is cut: it keeps the
    version it loaded, whatever other phones do. Return the page, the game and its API path."""
    from playwright.sync_api import expect

    game = api(
        served,
        "/api/games",
        {
            "kind": "rings",
            "board": "open16",
            "variant": "standard",
            "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 1}],
        },
    )
    path = f"/api/games/{game['id']}"
    page = phone(browser, served)
    page.route(re.compile(r".*/api/events.*"), lambda route: route.abort())
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#to-move")).to_have_text("Ann to move")
    return page, game, path


def test_dice_entered_on_a_phone_that_missed_a_change_still_count(
    served: str, browser: Any
) -> None:
    # The phone still holds the old version after another phone enters dice. Its own entry
    # meets a version conflict; as the turn is the same, it takes the new version and sends
    # its dice again, and they count.
    from playwright.sync_api import expect

    page, game, path = deaf_phone_on_a_new_game(served, browser)
    moved = api(
        served,
        path + "/actions",
        {"version": game["version"], "action": {"dice": {**NO_DICE, "red": 1}}},
    )
    assert moved["version"] > game["version"]
    enter_dice(page, {**NO_DICE, "brown": 4})
    brown = page.locator('[data-die-status="brown"]')
    expect(brown).to_contain_text("the brown die shows 4 but no brown ring turned")
    after = api(served, path)
    assert after["state"]["turns"] == 0
    assert after["version"] > moved["version"]
    assert page.errors == []


def test_dice_entered_on_a_phone_that_missed_a_whole_turn_are_not_sent_again(
    served: str, browser: Any
) -> None:
    # As above, but the other phone played Ann's whole turn: the conflict brings Bo's turn,
    # and Ann's stale dice must not become Bo's.
    from playwright.sync_api import expect

    page, game, path = deaf_phone_on_a_new_game(served, browser)
    game = api(served, path + "/actions", {"version": game["version"], "action": {"dice": NO_DICE}})
    game = api(served, path + "/actions", {"version": game["version"], "action": {"confirm": True}})
    assert game["state"]["turns"] == 1
    enter_dice(page, {**NO_DICE, "brown": 4})
    expect(page.locator("#to-move")).to_have_text("Bo to move")
    expect(page.locator('[data-die-status="brown"]')).to_have_count(0)
    assert api(served, path)["version"] == game["version"]
    assert page.errors == []


def test_a_board_made_in_the_editor_is_used_for_a_new_game(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    as_owner(page, served, tmp_path / "data")  # saving a board needs the owner
    page.goto(served + "/boards/new")
    page.click('button[data-ring-tab="4"]')
    slot = page.locator('path[data-ring="4"][data-slot="3"]')
    expect(slot).to_have_attribute("data-black", "0")  # reference ring 4: slot 3 coloured
    slot_3 = page.locator('button[data-slot-button="3"]')  # on a phone the slots are buttons
    expect(slot_3).to_have_attribute("aria-pressed", "false")
    expect(slot_3).to_have_text("3N brown")
    slot_3.click()
    expect(page.locator('path[data-ring="4"][data-slot="3"]')).to_have_attribute("data-black", "1")
    expect(slot_3).to_have_attribute("aria-pressed", "true")
    expect(slot_3).to_have_text("3black")
    page.click('button[data-slot-button="1"]')  # and slot 1 to coloured
    expect(page.locator("#ring-summary")).to_have_text(
        "Ring 4 (brown, N): black slots 2 3 4 6 8 10 12 14"
    )
    page.fill("#board-name", "Kitchen board")
    expect(page.locator("#board-file")).to_have_value("kitchen-board")
    shot(page, "08-board-editor")
    page.click("#save button[type=submit]")
    expect(page.locator("#message")).to_have_text("Saved as kitchen-board.")
    page.click("#use-board")
    expect(page.locator("#board")).to_have_value("kitchen-board")
    page.click("#new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\w+$"))
    record = api(served, "/api/games/" + page.url.rsplit("/", 1)[1] + "/record")
    assert record["board"]["name"] == "Kitchen board"
    assert record["board"]["rings"][4]["black"] == [2, 3, 4, 6, 8, 10, 12, 14]
    expect(page.locator('path[data-ring="4"][data-slot="3"]')).to_have_attribute("data-black", "1")
    shot(page, "09-game-on-edited-board")
    assert page.errors == []


def test_calibration_zeroes_and_sets_rings_and_shows_diagnostics(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    as_owner(page, served, tmp_path / "data")  # setting and zeroing the rings need the owner
    page.goto(served + "/calibrate")
    turn_ring(page, 2, 3)
    expect(page.locator('#diag tr[data-ring="2"] td').nth(1)).to_have_text("3")
    page.select_option("#set-ring-number", "5")
    page.fill("#set-ring-offset", "7")
    page.click("#set-ring button[type=submit]")
    expect(page.locator('#diag tr[data-ring="5"] td').nth(1)).to_have_text("7")
    page.click("#zero")
    page.click("#zero-yes")
    for ring in (2, 5):
        expect(page.locator(f'#diag tr[data-ring="{ring}"] td').nth(1)).to_have_text("0")
    assert api(served, "/api/board")["offsets"] == [0] * 10
    deadline = time.monotonic() + 5
    while not page.locator("#leds .led").count() and time.monotonic() < deadline:
        time.sleep(0.1)
    shot(page, "10-calibrate")
    assert page.errors == []


def test_calibration_asks_on_the_page_before_zeroing_and_says_when_each_ring_last_moved(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    as_owner(page, served, tmp_path / "data")  # zeroing the rings needs the owner
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(served + "/calibrate")
    expect(page.locator('#diag tr[data-ring="3"] [data-last-move]')).to_have_text("—")
    turn_ring(page, 3, 2)
    expect(page.locator('#diag tr[data-ring="3"] td').nth(1)).to_have_text("2")
    last_move = page.locator('#diag tr[data-ring="3"] [data-last-move]')
    expect(last_move).to_have_text(re.compile(r"^[0-9]+ s ago$"))
    expect(last_move).not_to_have_text("0 s ago", timeout=5_000)  # it keeps counting
    page.click("#zero")  # asks first, next to the button; Cancel leaves the rings alone
    expect(page.locator("#zero-confirm")).to_be_visible()
    expect(page.locator("#zero-question")).to_have_text(re.compile("mark at the star"))
    assert page.locator("#zero-yes").bounding_box()["y"] < 740
    shot(page, "10-calibrate-asks")
    page.click("#zero-no")
    expect(page.locator("#zero-confirm")).to_be_hidden()
    assert api(served, "/api/board")["offsets"][3] == 2
    page.click("#zero")
    page.click("#zero-yes")
    expect(page.locator("#zero-done")).to_have_text("All rings set to 0.")
    expect(page.locator('#diag tr[data-ring="3"] td').nth(1)).to_have_text("0")
    assert api(served, "/api/board")["offsets"] == [0] * 10
    assert dialogs == []
    assert page.errors == []
    guest = phone(browser, served, browser.new_context())  # not the owner: told by the box
    guest.goto(served + "/calibrate")
    guest.click("#zero")
    guest.click("#zero-yes")
    refusal = guest.locator("#zero-confirm + .feedback")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("owner")
    assert refusal.bounding_box()["y"] < 740
    expect(guest.locator("#zero-done")).to_have_text("")


def test_on_a_wide_screen_a_click_on_the_editors_picture_switches_a_slot_too(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served, size=(1024, 768))
    page.goto(served + "/boards/new")
    page.click('button[data-ring-tab="4"]')
    page.locator('path[data-ring="4"][data-slot="3"]').click()
    expect(page.locator('path[data-ring="4"][data-slot="3"]')).to_have_attribute("data-black", "1")
    expect(page.locator('button[data-slot-button="3"]')).to_have_attribute("aria-pressed", "true")
    shot(page, "08-board-editor-wide")
    page.set_viewport_size({"width": 360, "height": 740})  # a phone: only the buttons switch
    expect(page.locator('path[data-ring="4"][data-slot="3"]')).not_to_have_class("tap")
    assert page.errors == []


def test_the_ring_board_is_legible_on_a_phone_and_zooms_to_twice_its_size(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", NEW_RINGS_GAME)  # the reference board: 16 lettered slots
    page = phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    letters = page.locator("#board .slots text")
    expect(letters.first).to_be_attached()

    def letter_px() -> float:
        # The board is drawn again as the stream's items come: a letter between two drawings
        # has no box (CI under load met one); ask again until one is drawn (10 s: a hang).
        deadline = time.monotonic() + 10
        box = letters.first.bounding_box()
        while box is None and time.monotonic() < deadline:
            box = letters.first.bounding_box()
        assert box is not None
        return float(box["height"])

    assert letter_px() >= 8  # was about 5 px
    zoom = page.locator('button[data-zoom="board-box"]')
    zoom.click()
    expect(zoom).to_have_attribute("aria-pressed", "true")
    assert letter_px() >= 16
    box = page.locator("#board-box")
    middle = box.evaluate("b => [b.scrollLeft, (b.scrollWidth - b.clientWidth) / 2]")
    assert middle[1] > 0 and abs(middle[0] - middle[1]) <= 2  # it opens at the board's middle
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360  # the box scrolls, never the page
    shot(page, "11-ring-board-zoomed")
    zoom.click()
    expect(zoom).to_have_attribute("aria-pressed", "false")
    assert letter_px() < 16
    assert page.errors == []


def test_a_late_answer_to_undo_never_puts_back_a_guide_the_rings_have_done_since(
    served: str, browser: Any
) -> None:
    """The live stream tells of the undo, then of the ring turned back, at the same version as
    this phone's own answer to its Undo; the answer, arriving last, is the oldest of the three
    and must not show the guide again (rings.js takes every view through one takeGame)."""
    from playwright.sync_api import expect

    game = api(
        served,
        "/api/games",
        {
            "kind": "rings",
            "board": "open16",
            "variant": "standard",
            "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 1}],
        },
    )
    page = phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#live")).to_have_text("live")
    enter_dice(page, {**NO_DICE, "brown": 4})
    turn_ring(page, 9, -4)
    expect(page.locator("#confirm")).to_be_enabled()
    page.click("#confirm")
    expect(page.locator("#to-move")).to_have_text("Bo to move")
    held: list[tuple[Any, Any]] = []
    # The server undoes at once; the phone hears its answer only when released.
    page.route("**/undo", lambda route: held.append((route, route.fetch())))
    page.click("#undo")
    guide = page.locator("#resync")
    expect(guide).to_be_visible()  # the stream's news of the undo
    # The ring turned back at the table (not on this page, which would fetch the game after).
    api(served, "/api/emulator/rings/9/turn", {"detents": 4})
    expect(page.locator('#emu-rings [data-offset="9"]')).to_have_text(re.compile(r"at 0$"))
    expect(guide).to_be_hidden()  # the stream told the ring settled back where it was
    page.unroute("**/undo")
    route, answer = held.pop()
    route.fulfill(response=answer)
    expect(page.get_by_text("Undone: turn the rings back as the guide shows.")).to_be_visible()
    expect(guide).to_be_hidden()
    expect(page.locator("#to-move")).to_have_text("Ann to move")
    shot(page, "08-late-undo-answer")
    assert page.errors == []
