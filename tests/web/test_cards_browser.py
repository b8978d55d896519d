"""The card game's pages in a real Chromium on a phone-sized screen (`mandala serve --emulate`).

1. A tracked real table through a destruction, entered only by tapping (the entries of
   ``cards-t1-deals-destruction-deal``): deals black+yellow into both mountains; Ann green
   into mountain 1; Bo 1 red into his field 1; Ann 2 purple into her field 1; Bo yellow into
   mountain 1; Ann 1 orange into her field 1 -- mandala 1 now holds all six colours, Ann has
   3 field cards there to Bo's 1, so Ann chooses first. Ann claims yellow (2 cards: 1 to her
   river space 1, 1 to her cup), Bo green (1 card, his river space 1), Ann black (1 card,
   river space 2); the fields go to the discard pile and a deal into mountain 1 is due.
   Deck: 88 - 3 (Ann's draw) - 3 (Bo's draw) = 82.
2. Two browser contexts (two phones) each take a seat of a game played on the panel and see
   only their own hand; the shared view (a third phone) sees counts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games import cards
from tests.web.browser import api, create_before_serving, phone, serve_emulated, shot

pytestmark = pytest.mark.browser

LETTERS = {"red": "R", "orange": "O", "yellow": "Y", "green": "G", "purple": "P", "black": "K"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serve_emulated(tmp_path / "data") as url:
        yield url


def deal(page: Any, colours: list[str]) -> None:
    for i, colour in enumerate(colours):
        page.select_option(f'#cards-entry select[name="deal-{i}"]', colour)
    page.click("#cards-enter-deal")


def play(page: Any, action: dict[str, Any], count: int = 1) -> None:
    from playwright.sync_api import expect

    colour = action.get("colour", action.get("discard"))
    button = f'#cards-entry button[data-colour="{colour}"]'
    page.click(button)
    expect(page.locator(button)).to_have_attribute("aria-pressed", "true")  # the pick is drawn
    page.select_option("#cards-count", str(count))
    selector = f"#cards-entry button[data-action='{json.dumps(action, separators=(',', ':'))}']"
    page.click(selector)


def test_a_tracked_table_through_a_destruction(browser: Any, served: str) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    page.goto(served + "/")
    page.select_option("#kind", "cards")
    page.select_option("#cards-mode", "table")
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/games/*")
    expect(page.locator("#cards-status")).to_contain_text(
        "Enter the cards turned up into mountain 1"
    )
    deal(page, ["black", "yellow"])
    expect(page.locator("#cards-status")).to_contain_text("mountain 2")
    deal(page, ["black", "yellow"])
    expect(page.locator("#cards-status")).to_contain_text("Ann to play")
    play(page, {"mountain": 1, "colour": "green"})
    expect(page.locator("#cards-status")).to_contain_text("Bo to play")
    play(page, {"field": 1, "colour": "red", "count": 1})
    expect(page.locator("#cards-status")).to_contain_text("Ann to play")
    play(page, {"field": 1, "colour": "purple", "count": 2}, count=2)
    expect(page.locator("#cards-status")).to_contain_text("Bo to play")
    play(page, {"mountain": 1, "colour": "yellow"})
    expect(page.locator("#cards-status")).to_contain_text("Ann to play")
    play(page, {"field": 1, "colour": "orange", "count": 1})
    # The destruction, guided: complete, who chooses, where each colour would go.
    expect(page.locator("#cards-status .what")).to_have_text(
        "Mandala 2 is complete: Ann claims a colour"
    )
    expect(page.locator("#cards-claim-who")).to_have_text(
        "Ann chose first. Now Ann claims a colour from mountain 2:"
    )
    claims = page.locator("#cards-claim-list li")
    expect(claims).to_have_text(
        [
            "Claim Y yellow ×2 → 1 to Ann's river, space 1, 1 to the cup",
            "Claim G green ×1 → 1 to Ann's river, space 1",
            "Claim K black ×1 → 1 to Ann's river, space 1",
        ]
    )
    expect(page.locator('.mandala[data-mandala="1"]')).to_have_class("mandala complete")
    shot(page, "cards-table-destruction")
    page.click('button[data-claim="yellow"]')
    expect(page.locator("#cards-claim-who")).to_contain_text("Now Bo claims")
    page.click('button[data-claim="green"]')
    expect(page.locator("#cards-claim-who")).to_contain_text("Now Ann claims")
    expect(page.locator("#cards-claim-list li")).to_have_text(
        ["Claim K black ×1 → 1 to Ann's river, space 2"]
    )
    page.click('button[data-claim="black"]')
    expect(page.locator("#cards-status")).to_contain_text(
        "Enter the cards turned up into mountain 2"
    )
    expect(page.locator("#cards-counts")).to_have_text("Deck: 82 · discard pile: 4")
    ann = page.locator('.player[data-player="Ann"]')
    expect(ann.locator(".river")).to_have_text("1Y2K")
    expect(ann.locator(".cup")).to_have_text("Y")
    expect(ann.locator(".score")).to_have_text("1")
    expect(page.locator("#cards-log li").first).to_contain_text(
        "Ann claims black: 1 to Ann's river (space 2). Mandala 2 is destroyed"
    )
    deal(page, ["green", "black"])
    expect(page.locator("#cards-status")).to_contain_text("Bo to play")
    expect(page.locator("#cards-counts")).to_have_text("Deck: 80 · discard pile: 4")
    shot(page, "cards-table-after-deal")
    # Undo the deal (tracking a table: the last entry can always be undone).
    page.click("#cards-undo")
    expect(page.locator("#cards-status")).to_contain_text("mountain 2")
    game_id = page.url.rsplit("/", 1)[1]
    record = api(served, f"/api/games/{game_id}/record")
    assert record["mode"] == "table"
    assert len(record["actions"]) == 10
    assert page.errors == []


def hand_of(page: Any, name: str) -> Any:
    return page.locator(f'.player[data-player="{name}"] .hand')


def test_two_phones_each_see_only_their_own_hand(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    # A known deck: made in the data directory before serving (the panel refuses a chosen one).
    data = tmp_path / "data"
    body = {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "play", "seed": 5}
    game_id = create_before_serving(data, body)
    with serve_emulated(data) as served:
        state = cards.new_game({"seats": ["Ann", "Bo"], "seed": 5})
        ann_hand = cards.cards_to_json(state.hands[0])
        bo_hand = cards.cards_to_json(state.hands[1])
        assert ann_hand != bo_hand
        url = f"{served}/games/{game_id}"
        ann_phone = browser.new_context()
        bo_phone = browser.new_context()
        table_phone = browser.new_context()
        ann = phone(browser, served, ann_phone)
        bo = phone(browser, served, bo_phone)
        shared = phone(browser, served, table_phone)
        for page in (ann, bo, shared):
            page.goto(url)
        ann.click('button[data-take="0"]')
        expect(ann.locator("#cards-status")).to_contain_text("you are Ann")
        bo.click('button[data-take="1"]')
        expect(bo.locator("#cards-status")).to_contain_text("you are Bo")
        # The shared view shows both seats taken (live) and counts only.
        expect(shared.locator("#cards-seat-list li")).to_have_text(
            ["Ann — taken by a phone", "Bo — taken by a phone"]
        )
        expect(hand_of(shared, "Ann")).to_have_text("6 cards")
        expect(hand_of(shared, "Bo")).to_have_text("6 cards")
        # Each phone sees its own hand as cards and the other's as a count.
        expect(hand_of(ann, "Ann").locator(".card:not(.hidden)")).to_have_count(len(ann_hand))
        expect(hand_of(ann, "Bo")).to_have_text("6 cards")
        expect(hand_of(bo, "Bo").locator(".card:not(.hidden)")).to_have_count(len(bo_hand))
        expect(hand_of(bo, "Ann")).to_have_text("6 cards")
        for colour, n in ann_hand.items():
            suffix = f" ×{n}" if n > 1 else ""
            expect(hand_of(ann, "Ann").locator(f".card.{colour}")).to_have_text(
                LETTERS[colour] + suffix
            )
        expect(bo.locator('.player[data-player="Ann"] .score')).to_have_text("hidden until the end")
        # A third phone cannot take a taken seat.
        third = api_status(served, f"/api/games/{game_id}/seats/0/take")
        assert third == (403, "seat 0 (Ann) is taken by another phone; the host may free it")
        # Ann plays her first legal move by tapping; Bo's phone sees it live.
        first = cards.legal_actions(state)[0]
        assert isinstance(first, cards.MountainPlay)
        ann.click(f'#cards-entry button[data-colour="{first.colour}"]')
        step = json.dumps(cards.action_to_json(first), separators=(",", ":"))
        ann.click(f"#cards-entry button[data-action='{step}']")
        expect(bo.locator("#cards-log li").first).to_contain_text(
            f"Ann plays {first.colour} into mountain {first.mandala + 1}. Ann draws 3"
        )
        expect(hand_of(bo, "Ann")).to_have_text("8 cards")
        expect(bo.locator("#cards-entry")).to_be_visible()  # Bo's turn on Bo's phone
        expect(ann.locator("#cards-entry")).to_be_hidden()
        shot(ann, "cards-play-ann")
        shot(bo, "cards-play-bo")
        shot(shared, "cards-play-shared")
        # Ann's page never held Bo's hand.
        after = cards.apply(state, first)
        bo_now = cards.cards_to_json(after.hands[1])
        for page in (ann, shared):
            assert json.dumps(bo_now) not in page.content()
        # Reload and sleep: the cookie keeps the seat; without the cookie the kept token does.
        ann.reload()
        expect(ann.locator("#cards-status")).to_contain_text("you are Ann")
        ann_phone.clear_cookies()
        ann.reload()
        expect(ann.locator("#cards-status")).to_contain_text("you are Ann")
        expect(hand_of(ann, "Ann").locator(".card:not(.hidden)")).to_have_count(
            len(cards.cards_to_json(after.hands[0]))
        )
        for page in (ann, bo, shared):
            assert page.errors == []
        for context in (ann_phone, bo_phone, table_phone):
            context.close()


def api_status(base: str, path: str) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(base + path, data=b"{}", method="POST")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, ""
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())["error"]["message"]
