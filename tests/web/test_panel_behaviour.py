"""The panel as a family lives it, in a real Chromium against ``mandala serve --emulate``.

Phones in step (every open phone shows the same turn within a second; a request refused
because the game moved on says so in a line), the ring turn (no preview before the dice, the
"move the pegs" card at the top, hints in plain words) and feedback next to the control.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import api, as_owner, phone, shot
from tests.web.test_browser import NO_DICE, enter_dice, served  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

TWO = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 1}]


def new_game(base: str) -> tuple[dict[str, Any], str]:
    game = api(
        base,
        "/api/games",
        {"kind": "rings", "board": "open16", "variant": "standard", "seats": TWO},
    )
    return game, f"/api/games/{game['id']}"


def opened(browser: Any, base: str, path: str, owner_of: Path | None = None) -> Any:
    """A phone showing ``path`` of the served panel (paired as the owner of the data
    directory ``owner_of`` first, when given)."""
    page = phone(browser, base)
    if owner_of is not None:
        as_owner(page, base, owner_of)
    page.goto(base + path)
    return page


def in_viewport(page: Any, selector: str) -> bool:
    """Say whether the element is wholly inside the 360x740 viewport."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (  # to the pixel: a scrolled-to edge may sit a fraction over
        box is not None
        and box["x"] >= -1
        and box["y"] >= -1
        and box["x"] + box["width"] <= size["width"] + 1
        and box["y"] + box["height"] <= size["height"] + 1
    )


def test_a_second_phone_shows_the_next_turn_with_fresh_dice_within_a_second(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game, _ = new_game(served)
    first = phone(browser, served)
    second = phone(browser, served)
    for page in (first, second):
        page.goto(f"{served}/games/{game['id']}")
        expect(page.locator("#live")).to_have_text("live")
    enter_dice(first, NO_DICE)
    expect(second.locator('[data-die-status="red"]')).to_be_visible()
    expect(second.locator("#confirm")).to_be_enabled()
    second.click('button[data-die="red"][data-face="3"]')  # picked, never entered
    first.click("#confirm")
    expect(first.locator("#to-move")).to_have_text("Bo to move")
    # within a second of the change, whatever the second phone was showing
    expect(second.locator("#to-move")).to_have_text("Bo to move", timeout=1000)
    expect(second.locator("#confirm")).to_be_disabled(timeout=1000)
    expect(second.locator("[data-die-status]")).to_have_count(0, timeout=1000)
    expect(second.locator('#dice button[aria-pressed="true"]')).to_have_count(0, timeout=1000)
    expect(second.locator("#preview-box")).to_be_hidden()
    shot(second, "i22a-second-phone-after-confirm")
    assert first.errors == [] and second.errors == []


def test_a_confirm_from_a_stale_phone_says_the_turn_was_confirmed_elsewhere(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game, path = new_game(served)
    game = api(served, path + "/actions", {"version": game["version"], "action": {"dice": NO_DICE}})
    stale = phone(browser, served)
    stale.route(re.compile(r".*/api/events.*"), lambda route: route.abort())  # a deaf phone
    stale.goto(f"{served}/games/{game['id']}")
    expect(stale.locator("#confirm")).to_be_enabled()
    api(served, path + "/actions", {"version": game["version"], "action": {"confirm": True}})
    stale.click("#confirm")
    line = stale.locator("#message")
    expect(line).to_have_text("Ann confirmed the turn on another phone; now it is Bo's turn.")
    assert in_viewport(stale, "#message")
    expect(stale.locator("#to-move")).to_have_text("Bo to move")
    expect(stale.locator("#confirm")).to_be_disabled()
    assert api(served, path)["state"]["turns"] == 1  # nothing was confirmed twice
    shot(stale, "i22a-stale-confirm")
    assert stale.errors == []


def test_the_preview_waits_for_the_dice_and_the_pegs_card_comes_first_after_confirm(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game, _ = new_game(served)
    page = opened(browser, served, f"/games/{game['id']}")
    expect(page.locator("#to-move")).to_have_text("Ann to move")
    expect(page.locator("#preview-box")).to_be_hidden()
    expect(page.locator("#preview")).not_to_be_visible()
    enter_dice(page, NO_DICE)
    expect(page.locator("#preview-box")).to_be_visible()
    expect(page.locator("#preview")).to_contain_text("enters Central Control")
    page.click("#confirm")
    card = page.locator("#last")
    expect(card).to_be_visible()
    expect(page.locator("#last-title")).to_have_text("Move the pegs (Ann's turn 1)")
    expect(page.locator("#instructions")).to_contain_text("enters Central Control (1 point)")
    # at the top: above the board and the next seat's dice, inside the first screen
    assert in_viewport(page, "#last-done")
    top = card.bounding_box()["y"]
    assert top < page.locator("#board").bounding_box()["y"]
    assert top < page.locator("#dice").bounding_box()["y"]
    shot(page, "i22a-pegs-card")
    page.set_viewport_size({"width": 1024, "height": 768})
    shot(page, "i22a-pegs-card-tablet")
    page.set_viewport_size({"width": 360, "height": 740})
    page.click("#last-done")
    expect(card).to_be_hidden()
    expect(page.locator("#last-folded")).to_contain_text("Pegs moved for turn 1")
    page.click("#last-show")
    expect(card).to_be_visible()
    assert page.errors == []


def test_one_detent_a_slot_gives_one_button_each_way_next_to_the_dice(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game, _ = new_game(served)
    page = opened(browser, served, f"/games/{game['id']}")
    ring = page.locator("#emu-rings .emu-ring").nth(3)
    expect(ring.locator("button")).to_have_count(2)
    expect(ring.locator("button").nth(0)).to_have_attribute(
        "aria-label", "ring 3 one slot counter-clockwise"
    )
    expect(ring.locator("button").nth(1)).to_have_attribute(
        "aria-label", "ring 3 one slot clockwise"
    )
    # the controls follow the dice, not the preview and the bottom bar
    dice = page.locator("#enter-dice").bounding_box()
    emulator = page.locator("#emulator").bounding_box()
    assert 0 <= emulator["y"] - (dice["y"] + dice["height"]) < 120  # only the Hints row between
    # the emulated strip names every lit pixel's colour, not colour alone
    lit = page.locator("#leds .led:not(.off)")
    expect(lit.first).to_have_attribute("title", re.compile(r"^pixel \d+: (dim )?\w+$"))
    expect(lit.first).not_to_have_text("")
    assert page.errors == []


def below(page: Any, control: str, message: str) -> float:
    """How far below ``control`` the message starts (px); both must be in the viewport."""
    assert in_viewport(page, message), (message, page.locator(message).bounding_box())
    assert in_viewport(page, control), f"{control} is outside the viewport"
    top = page.locator(message).bounding_box()["y"]
    box = page.locator(control).bounding_box()
    return float(top - (box["y"] + box["height"]))


def test_home_shows_each_game_as_a_card_a_family_can_tell_apart(
    served: str,  # noqa: F811
    browser: Any,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    from tests.conftest import SPEC_EXAMPLES

    finished = json.loads(
        (SPEC_EXAMPLES / "rings-07-win-by-snipe-stops-turn.record.json").read_text()
    )
    page = phone(browser, served)
    as_owner(page, served, tmp_path / "data")  # importing and deleting need the owner
    owner = {"X-Owner-Token": page.context.cookies()[0]["value"]}
    api(served, "/api/games", {"record": finished}, owner)
    new_game(served)
    ice = api(served, "/api/games", {"kind": "icehouse", "seats": ["Cy", "Ann"], "seed": 3})
    page.goto(served + "/")
    cards = page.locator("#games .game-card")
    expect(cards).to_have_count(2)
    # newest first, named as a family knows them, whose turn, the score, no "version"
    expect(cards.nth(0)).to_have_attribute("data-id", ice["id"])
    expect(cards.nth(0).locator(".resume")).to_have_text("Icehouse Mandala · Cy's turn")
    expect(cards.nth(1).locator(".resume")).to_have_text("Ring board (1983) · Ann's turn")
    expect(cards.nth(1).locator('[data-player="Bo"] .score')).to_have_text("0")
    expect(cards.nth(1).locator(".when")).to_contain_text(re.compile(r"started today \d"))
    expect(cards.nth(1).locator(".when")).to_contain_text(re.compile(r"last move \d+ s ago"))
    expect(page.locator("#games")).not_to_contain_text("version")
    # one colour per player: Ann is orange in the ring game (corner 1) and in Icehouse too
    ann = cards.nth(1).locator('[data-player="Ann"] .dot')
    expect(ann).to_have_attribute("title", "Ann: orange")
    expect(ann).to_have_text("A")  # never colour alone
    expect(cards.nth(0).locator('[data-player="Ann"] .dot')).to_have_attribute(
        "title", "Ann: orange"
    )
    colours = api(served, "/api/games")["games"]
    assert {g["id"]: g["colours"] for g in colours}[ice["id"]][1] == "orange"
    # finished games apart, with who won
    done = page.locator("#finished .game-card")
    expect(done).to_have_count(1)
    expect(done.locator(".resume")).to_contain_text("Ann won")
    shot(page, "i22a-home-cards")
    page.set_viewport_size({"width": 1024, "height": 768})
    shot(page, "i22a-home-cards-tablet")
    page.set_viewport_size({"width": 360, "height": 740})
    # delete asks on the card, not in a browser dialog
    page.on("dialog", lambda dialog: (_ for _ in ()).throw(AssertionError(dialog.message)))
    cards.nth(0).locator("[data-delete]").click()
    expect(cards.nth(0).locator(".confirm-delete")).to_contain_text("Delete this game for good?")
    cards.nth(0).locator("text=Keep it").click()
    expect(page.locator(".confirm-delete")).to_have_count(0)
    cards.nth(0).locator("[data-delete]").click()
    page.locator("[data-delete-yes]").click()
    expect(cards).to_have_count(1)
    assert [g["id"] for g in api(served, "/api/games")["games"]].count(ice["id"]) == 0
    assert page.errors == []


def test_the_new_game_form_offers_exactly_the_seats_the_game_allows(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    page = opened(browser, served, "/")
    page.select_option("#kind", "rings")
    rows = page.locator("#seats .seat")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator(".seat-title")).to_have_text("Player 1")
    expect(page.locator("#seed")).to_be_hidden()
    page.click("#add-seat")
    page.click("#add-seat")
    expect(rows).to_have_count(4)
    expect(page.locator("#add-seat")).to_be_hidden()  # the standard game takes 2 to 4
    expect(page.locator("#seat-rule")).to_have_text("Ring board (1983): 2 to 4 players")
    shot(page, "i22a-new-game-four")
    page.select_option("#variant", "solo")
    expect(rows).to_have_count(1 + 1)  # Bo's row keeps its name: Start will say so
    page.select_option("#variant", "standard")
    expect(page.locator(".remove-seat:visible")).to_have_count(0)  # no fewer than 2
    page.click("#add-seat")
    rows.nth(0).locator(".remove-seat").click()
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("[name=seat-name]")).to_have_value("Bo")
    expect(rows.nth(0).locator(".seat-title")).to_have_text("Player 1")
    page.select_option("#kind", "cards")
    expect(rows).to_have_count(2)
    expect(page.locator("#add-seat")).to_be_hidden()
    page.select_option("#kind", "icehouse")
    expect(page.locator("#add-seat")).to_be_visible()
    expect(page.locator("#seed")).to_be_visible()
    assert page.errors == []


def test_start_with_a_taken_corner_says_whose_it_is_next_to_start(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    page = opened(browser, served, "/")
    page.select_option("#kind", "rings")
    rows = page.locator("#seats .seat")
    page.click("#add-seat")
    rows.nth(2).locator("[name=seat-name]").fill("Cy")
    rows.nth(2).locator('[data-corner="0"]').click()  # Ann's corner
    page.click("#new-game button[type=submit]")
    line = page.locator("#new-game .feedback")
    expect(line).to_have_text("Cy: corner 1 (top right) is already Ann's: tap a free corner.")
    assert 0 <= below(page, "#new-game button[type=submit]", "#new-game .feedback") < 40
    shot(page, "i22a-new-game-taken-corner")
    # too many seats for the variant: named rows stay and Start says what to do
    rows.nth(2).locator('[data-corner="3"]').click()
    page.select_option("#variant", "two-bases")
    page.click("#new-game button[type=submit]")
    expect(line).to_have_text(
        "The two-bases game takes 2 players; there are 3: remove a player or pick another variant."
    )
    assert 0 <= below(page, "#new-game button[type=submit]", "#new-game .feedback") < 40
    assert page.url.endswith("/")
    assert page.errors == []


def test_a_missing_game_is_a_page_with_a_way_home(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    answer = page.goto(served + "/games/gone1234")
    assert answer is not None and answer.status == 404
    expect(page.locator("h1")).to_have_text("This game is not here")
    shot(page, "i22a-missing-game")
    page.click("#home-link")
    page.wait_for_url(served + "/")
    expect(page.locator("#new-game")).to_be_visible()
    assert page.errors == []


def test_the_editor_says_a_used_name_next_to_save_and_may_overwrite_it(
    served: str,  # noqa: F811
    browser: Any,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    page = opened(
        browser, served, "/boards/new", tmp_path / "data"
    )  # saving a board needs the owner
    # no "offline" while the server runs: the editor follows no live stream
    expect(page.locator("#live")).to_be_hidden()
    # the file-name check works in Chromium (its pattern compiles with the v flag)
    page.fill("#board-file", "-bad")
    assert page.eval_on_selector("#board-file", "input => input.checkValidity()") is False
    page.fill("#board-name", "Kitchen board")
    expect(page.locator("#board-file")).to_have_value("kitchen-board")
    assert page.eval_on_selector("#board-file", "input => input.checkValidity()") is True
    page.click("#save button[type=submit]")
    expect(page.locator("#message")).to_have_text("Saved as kitchen-board.")
    page.click("#save button[type=submit]")
    line = page.locator("#save .feedback")
    expect(line).to_contain_text("The board's name is already used: choose another or overwrite.")
    assert 0 <= below(page, "#save button[type=submit]", "#save .feedback") < 40
    shot(page, "i22a-editor-name-used")
    page.click("#overwrite")
    expect(page.locator("#message")).to_have_text("Saved as kitchen-board.")
    page.fill("#board-file", "reference")
    page.click("#save button[type=submit]")
    expect(line).to_have_text(
        "“reference” is a board that comes with the companion: choose another name."
    )
    assert page.errors == []


def test_the_score_sheet_shows_no_offline_badge(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    page = opened(browser, served, "/cards/sheet")
    expect(page.locator("#live")).to_be_hidden()
    expect(page.locator("body")).not_to_contain_text("offline")
    assert page.errors == []


def test_card_game_counts_from_one_and_says_beside_each_closed_play_why(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "table"})
    page = opened(browser, served, f"/games/{game['id']}")
    expect(page.locator("#cards-status")).to_contain_text(
        "Enter the cards turned up into mountain 1"
    )
    expect(page.locator('[data-mandala="0"] h3')).to_have_text("Mandala 1")
    expect(page.locator('[data-mandala="1"] h3')).to_have_text("Mandala 2")
    ann = page.locator('.player[data-player="Ann"] h3 .player-dot')  # her colour, as on home
    expect(ann).to_have_attribute(
        "title", "Ann: " + api(served, "/api/games")["games"][0]["colours"][0]
    )
    # nothing is undone yet: the reason shows on the page, not only as a tooltip
    expect(page.locator("#cards-undo")).to_be_disabled()
    expect(page.locator("#cards-undo-why")).to_be_visible()
    expect(page.locator("#cards-undo-why")).to_contain_text("Undo: ")
    for mountain in (1, 2):
        expect(page.locator("#cards-entry-title")).to_have_text(f"Deal into mountain {mountain}")
        for i, colour in enumerate(["black", "yellow"]):
            page.select_option(f'#cards-entry select[name="deal-{i}"]', colour)
        page.click("#cards-enter-deal")
    expect(page.locator("#cards-status")).to_contain_text("Ann to play")
    page.click('#cards-entry button[data-colour="black"]')  # black is in both mountains
    closed = page.locator("#cards-why li")
    expect(closed.first).to_be_visible()
    expect(page.locator("#cards-why")).to_contain_text("Field 1: black is in mountain 1")
    expect(page.locator("#cards-why")).to_contain_text("Field 2: black is in mountain 2")
    for button in page.locator("#cards-entry button[data-action]:disabled").all():
        action = button.get_attribute("data-action")
        expect(page.locator(f"#cards-why li[data-why='{action}']")).to_be_visible()
    shot(page, "i22a-cards-why")
    assert page.errors == []


def test_a_stones_game_on_placeholder_data_says_so_and_where_to_fix_it(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    from companion.games.stones import datafile

    assert datafile.load_data_file().placeholder  # the bundled file is still the placeholder
    game = api(served, "/api/games", {"kind": "stones", "seats": ["Ann", "Bo"], "seed": 1})
    page = opened(browser, served, f"/games/{game['id']}")
    banner = page.locator("#placeholder-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("hardware/games/stones.toml")
    expect(banner).to_contain_text("placeholder = false")
    expect(page.locator('[data-seat="Ann"] .player-dot')).to_have_text("A")
    shot(page, "i22a-stones-placeholder")
    assert page.errors == []


def test_calibration_says_a_wrong_offset_next_to_set_in_plain_words(
    served: str,  # noqa: F811
    browser: Any,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    page = opened(
        browser, served, "/calibrate", tmp_path / "data"
    )  # setting a ring needs the owner
    page.select_option("#set-ring-number", "5")
    page.fill("#set-ring-offset", "99")
    page.click("#set-ring button[type=submit]")
    line = page.locator("#set-ring + .feedback")
    expect(line).to_have_text("Ring 5: 99 is not a slot of this board; an offset is 0 to 15.")
    assert 0 <= below(page, "#set-ring button[type=submit]", "#set-ring + .feedback") < 40
    page.fill("#set-ring-offset", "two")
    page.click("#set-ring button[type=submit]")
    expect(line).to_have_text(
        "Ring 5: the offset is a whole number of slots from the star, like 3."
    )
    shot(page, "i22a-calibrate-wrong-offset")
    assert api(served, "/api/board")["offsets"][5] == 0  # nothing changed
    assert page.errors == []


def test_hints_name_the_ring_by_colour_and_place_and_a_tap_shows_one_on_the_board(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game, _ = new_game(served)
    page = opened(browser, served, f"/games/{game['id']}")
    enter_dice(page, {**NO_DICE, "red": 1})
    page.click("#hints")
    hints = page.locator("#hints-list button.hint")
    expect(hints.first).to_be_visible()
    words = re.compile(
        r"^the red ring \(R\), (the outermost|\d(st|nd|rd|th) from the (outside|inside)): "
        r"1 slot (clockwise|counter-clockwise|either way) — "
    )
    expect(hints.first).to_have_text(words)
    expect(page.locator("#hints-list")).not_to_contain_text("+1")  # no notation
    before = page.locator("#board path[data-slot]").evaluate_all(
        "paths => paths.map(p => p.getAttribute('d')).join()"
    )
    hints.first.click()
    expect(hints.first).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#hint-shown")).to_be_visible()
    after = page.locator("#board path[data-slot]").evaluate_all(
        "paths => paths.map(p => p.getAttribute('d')).join()"
    )
    assert after != before  # the hinted ring drawn turned
    shot(page, "i22a-hint-on-board")
    hints.first.click()
    expect(page.locator("#hint-shown")).to_be_hidden()
    assert page.errors == []


def test_a_stale_pick_on_another_game_is_said_in_plain_words_not_the_apis(
    served: str,  # noqa: F811
    browser: Any,
) -> None:
    from playwright.sync_api import expect

    game = api(served, "/api/games", {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1})
    page = phone(browser, served)
    page.route(re.compile(r".*/api/events.*"), lambda route: route.abort())  # a deaf phone
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#ice-to-move")).to_have_text("Ann to move")
    from companion.games import icehouse

    start = icehouse.new_game(api(served, f"/api/games/{game['id']}/record"))
    first = icehouse.action_to_json(icehouse.legal_actions(start)[0])
    api(served, f"/api/games/{game['id']}/actions", {"version": 1, "action": {"pick": first}})
    page.click("#ice-next")
    page.click("#ice-take")
    expect(page.locator("#message")).to_have_text(
        "The game changed on another phone: it is shown as it stands now."
    )
    expect(page.locator("#ice-to-move")).to_have_text("Bo to move")
    assert page.errors == []
