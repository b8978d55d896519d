"""The logbook in a real Chromium on a 360x740 phone, against ``mandala serve --emulate``.

The hand-worked Icehouse game (``tests/web/icehouse_game.py``: Cy wins 56, Ann 7, Bo 7) is
played by its phones up to the last pick, which is tapped on the game's page; then the
history (from the nav) shows the play, and Cy's page (from the history) Cy's figures. The
owner renames Ann on her page. Screenshots: ``test-output/web/logbook-*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.games.icehouse_helpers import block_path
from tests.web import icehouse_game as plan
from tests.web.browser import api, as_owner, phone, serve_emulated, shot

pytestmark = pytest.mark.browser


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serve_emulated(tmp_path / "data") as url:
        yield url


def one_pick_short(served: str) -> str:
    game = api(
        served, "/api/games", {"kind": "icehouse", "seats": plan.SEATS, "path": block_path()}
    )
    for pick in plan.PICKS[:-1]:
        game = api(
            served,
            f"/api/games/{game['id']}/actions",
            {"version": game["version"], "action": {"pick": pick}},
        )
    game_id: str = game["id"]
    return game_id


def test_a_finished_game_shows_in_the_history_and_on_its_players_pages(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    game_id = one_pick_short(served)
    page = phone(browser, served)
    page.goto(f"{served}/games/{game_id}")
    page.click(f'#mandala [data-index="{plan.PICKS[-1]}"]')
    page.click("#ice-take")
    expect(page.locator("#ice-ranking li").first).to_contain_text("Cy")
    page.click("header nav >> text=History")
    card = page.locator(f'#plays [data-play="{game_id}"]')
    expect(card).to_contain_text("Icehouse Mandala")
    seats = card.locator(".play-seat")
    expect(seats).to_have_count(3)
    # seat order, each with its score, place and (in words) who won
    expect(seats.nth(0)).to_contain_text("Ann")
    expect(seats.nth(0)).to_contain_text("7")
    expect(seats.nth(0)).to_contain_text("2nd")
    expect(seats.nth(2)).to_contain_text("Cy")
    expect(seats.nth(2)).to_contain_text("56")
    expect(seats.nth(2)).to_contain_text("1st")
    expect(seats.nth(2)).to_contain_text("won")
    expect(seats.nth(0)).not_to_contain_text("won")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "logbook-01-history-360")
    seats.nth(2).locator("a").click()
    expect(page.locator("h1")).to_contain_text("Cy")
    overall = page.locator(".figures").first
    expect(overall).to_contain_text("Plays1")
    expect(overall).to_contain_text("Win rate100%")
    icehouse = page.locator('.kind-figures[data-kind="icehouse"]')
    # Cy took the most of red-2, yellow-2 to black-2 (10 kinds) and black-3: 12 sets
    expect(icehouse).to_contain_text("Sets won12 (12.0 a game)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "logbook-02-player-360")
    page.click("text=Ann")  # the table of opponents links to them
    expect(page.locator("#versus")).to_contain_text("Cy won 1")
    assert page.errors == []


def test_the_owner_renames_a_player_on_their_page_and_the_history_follows(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    game_id = one_pick_short(served)
    api(
        served,
        f"/api/games/{game_id}/actions",
        {"version": len(plan.PICKS), "action": {"pick": plan.PICKS[-1]}},
    )
    players = {p["name"]: p["id"] for p in api(served, "/api/players")["players"]}
    page = phone(browser, served)
    page.goto(f"{served}/players/{players['Ann']}")
    page.fill("#rename [name=name]", "Annie")
    page.click("#rename button[type=submit]")
    expect(page.locator("#rename + .feedback")).to_contain_text("only the box's owner")
    as_owner(page, served, tmp_path / "data")
    page.click("#rename button[type=submit]")
    expect(page.locator("h1")).to_contain_text("Annie")
    expect(page.locator("main")).to_contain_text("also played as Ann")
    page.goto(f"{served}/history")
    expect(page.locator(f'#plays [data-play="{game_id}"] .play-seat').first).to_contain_text(
        "Annie (as Ann)"
    )
    page.goto(f"{served}/")
    expect(page.locator("#known-players-row")).to_contain_text("Annie")
    page.fill("#seats .seat >> nth=0 >> [name=seat-name]", "")
    page.click('[data-known-player="Cy"]')
    expect(page.locator("#seats .seat [name=seat-name]").first).to_have_value("Cy")
    shot(page, "logbook-03-home-known-players-360")
    assert page.errors == []
