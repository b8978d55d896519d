"""Sending a finished play to BG Stats from a phone (Chromium at 360x740, ``mandala serve``).

A Stones game (spec example 06: Ann and Bo tie on 5 VP, Ann wins the tie-break) is played
through the API up to its last step with the game's page open on a phone: no links yet.
The last step comes from another phone; the page shows "Send to BG Stats" on the live
news. Following the link's https form (routed in Chromium to a local page: no internet
here) arrives with the play's JSON in its ``data``, which is compared with the game.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.conftest import SPEC_EXAMPLES
from tests.web.browser import SHOTS, api, phone, serve_emulated, shot

pytestmark = pytest.mark.browser

BGSTATS = "https://app.bgstatsapp.com/createPlay.html"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serve_emulated(tmp_path / "data") as url:
        yield url


def act(base: str, game: dict[str, Any], action: Any) -> dict[str, Any]:
    answer: dict[str, Any] = api(
        base, f"/api/games/{game['id']}/actions", {"version": game["version"], "action": action}
    )
    return answer


def stones_06(base: str, leave: int) -> tuple[dict[str, Any], list[Any]]:
    """Start example 06 and play all its steps but the last ``leave``; answer the game and
    the steps left."""
    record = json.loads((SPEC_EXAMPLES / "stones-06-objectives-tie.record.json").read_text())
    setup = {k: v for k, v in record.items() if k not in ("game", "actions")}
    game = api(base, "/api/games", {"kind": "stones", **setup})
    steps = record["actions"]
    for action in steps[: len(steps) - leave]:
        game = act(base, game, action)
    return game, steps[len(steps) - leave :]


def test_a_game_that_ends_on_another_phone_offers_bgstats_and_its_link_carries_the_play(
    browser: Any, served: str
) -> None:
    from playwright.sync_api import expect

    game, last = stones_06(served, leave=1)
    page = phone(browser, served)
    arrived: list[str] = []

    def bgstats(route: Any) -> None:  # BG Stats' web page, as a local stand-in
        arrived.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<h1>BG Stats</h1>")

    page.route(BGSTATS + "*", bgstats)
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#live")).to_have_text("live")
    expect(page.locator("#play-exports")).to_be_hidden()

    game = act(served, game, last[0])  # the last step, from another phone
    assert game["state"]["over"] is True
    link = page.get_by_role("link", name="Send to BG Stats")
    expect(link).to_be_visible()
    expect(page.get_by_role("link", name="Open the BG Stats app")).to_have_attribute(
        "href", api(served, f"/api/games/{game['id']}/bgstats")["url"]
    )
    page.locator("#play-exports").scroll_into_view_if_needed()
    shot(page, "exports-game-finished-360")
    box = link.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44

    link.click()
    expect(page.get_by_role("heading", name="BG Stats")).to_be_visible()
    assert len(arrived) == 1
    play = json.loads(parse_qs(urlsplit(arrived[0]).query)["data"][0])
    assert play == api(served, f"/api/games/{game['id']}/bgstats")["play"]
    state = game["state"]
    assert play["sourcePlayId"] == game["id"]
    assert play["game"]["name"] == "Mandala Stones" and play["game"]["bggId"] == 317504
    assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in play["players"]] == [
        (name, state["scores"][name], name == state["winner"], rank)
        for name, rank in zip(state["scores"], [1, 2], strict=True)
    ]
    assert page.errors == []


def test_a_game_finished_before_the_page_opened_shows_the_links_at_once(
    browser: Any, served: str
) -> None:
    from playwright.sync_api import expect

    game, _ = stones_06(served, leave=0)
    page = phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    links = api(served, f"/api/games/{game['id']}/bgstats")
    expect(page.get_by_role("link", name="Send to BG Stats")).to_have_attribute(
        "href", links["web_url"]
    )
    text = page.get_by_role("link", name="Text for BoardGameGeek")
    expect(text).to_have_attribute("href", f"/api/games/{game['id']}/bgg.txt")
    assert page.errors == []


def test_the_history_sends_a_play_to_bgstats_and_the_players_page_draws_their_plots(
    browser: Any, served: str
) -> None:
    from playwright.sync_api import expect

    older, _ = stones_06(served, leave=0)
    newest, _ = stones_06(served, leave=0)
    page = phone(browser, served)
    arrived: list[str] = []

    def bgstats(route: Any) -> None:
        arrived.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<h1>BG Stats</h1>")

    page.route(BGSTATS + "*", bgstats)
    page.goto(f"{served}/history")
    cards = page.locator("#plays .play-card")
    expect(cards).to_have_count(2)
    first = cards.nth(0)
    expect(first).to_have_attribute("data-play", newest["id"])
    expect(first.get_by_role("link", name="Text for BoardGameGeek")).to_have_attribute(
        "href", f"/api/games/{newest['id']}/bgg.txt"
    )
    shot(page, "exports-history-360")
    first.get_by_role("link", name="Send to BG Stats").click()
    expect(page.get_by_role("heading", name="BG Stats")).to_be_visible()
    play = json.loads(parse_qs(urlsplit(arrived[0]).query)["data"][0])
    assert play == api(served, f"/api/games/{newest['id']}/bgstats")["play"]
    assert play["sourcePlayId"] == newest["id"] != older["id"]

    page.goto(f"{served}/history")
    page.locator("#players").get_by_role("link", name="Ann").click()
    rate = page.locator("#plot-win-rate")
    expect(rate).to_be_visible()
    expect(page.locator("#plot-win-rate-desc")).to_have_text(
        re.compile(r"^Ann has won 2 plays of 2: 100% now \(highest 100%\)")
    )
    expect(page.locator("#plot-scores-stones")).to_be_visible()
    box = rate.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    shot(page, "exports-player-plots-360")
    page.locator(".plots").screenshot(path=str(SHOTS / "exports-player-plots-360-detail.png"))
    page.set_viewport_size({"width": 1024, "height": 768})
    shot(page, "exports-player-plots-1024")
    page.emulate_media(color_scheme="dark")
    shot(page, "exports-player-plots-1024-dark")
    assert page.errors == []
