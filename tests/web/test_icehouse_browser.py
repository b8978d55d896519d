"""The Icehouse page in a real Chromium on a 360x740 phone, against ``mandala serve --emulate``.

A whole three-seat game on the block path is played only by tapping pieces (then Take); the
plan and every value are worked out by hand in ``tests/web/icehouse_game.py``. The final
scores shown are checked against that and against ``mandala replay`` of the exported record.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.games.icehouse_helpers import block_path
from tests.web import icehouse_game as plan
from tests.web.browser import api, phone, serve_emulated, shot

pytestmark = pytest.mark.browser

LETTER = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "black": "K"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serve_emulated(tmp_path / "data") as url:
        yield url


def label(kind: str) -> str:
    colour, size = kind.split("-")
    return LETTER[colour] + size


def tap_and_take(page: Any, index: int) -> None:
    from playwright.sync_api import expect

    page.click(f'#mandala [data-index="{index}"]')
    expect(page.locator("#ice-take")).to_be_enabled()
    page.click("#ice-take")


def expect_scores(page: Any, scores: dict[str, int]) -> None:
    from playwright.sync_api import expect

    for name, points in scores.items():
        expect(page.locator(f'#ice-scores [data-seat="{name}"] .score')).to_have_text(str(points))


def expect_set(page: Any, kind: str, text: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator(f'#ice-kinds [data-set="{kind}"]')).to_contain_text(text)


def test_a_new_icehouse_game_from_home_draws_the_seeds_layout_outermost_first(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    page.goto(served + "/")
    page.select_option("#kind", "icehouse")
    expect(page.locator("#rings-options")).to_be_hidden()
    expect(page.locator("#seats .seat").first.locator("[name=seat-corner]")).to_be_hidden()
    page.fill("#seed", "7")
    page.click("#add-seat")  # two players to start with; Cy is a third
    seats = page.locator("#seats .seat [name=seat-name]")
    for i, name in enumerate(["Ann", "Bo", "Cy"]):
        seats.nth(i).fill(name)
    shot(page, "icehouse-01-home-new-game")
    page.click("#new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\w+$"))
    game_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#ice-to-move")).to_have_text("Ann to move")
    expect_scores(page, {"Ann": 0, "Bo": 0, "Cy": 0})

    record = api(served, f"/api/games/{game_id}/record")
    assert record["seats"] == ["Ann", "Bo", "Cy"] and record["seed"] == 7
    pieces = page.locator("#mandala [data-index]")
    expect(pieces).to_have_count(75)
    drawn = pieces.evaluate_all(
        "nodes => nodes.map(n => [Number(n.dataset.index), n.dataset.kind,"
        " n.querySelector('text').textContent])"
    )
    assert drawn == [[i, kind, label(kind)] for i, kind in enumerate(record["path"])]
    # place 0 is the outermost; each next place lies nearer the Eye at the centre
    radii = pieces.evaluate_all(
        "nodes => nodes.map(n => { const m = n.transform.baseVal[0].matrix;"
        " return Math.hypot(m.e, m.f); })"
    )
    assert all(outer > inner for outer, inner in itertools.pairwise(radii))
    # the build list: fifteen lines of five, in path order
    page.click("#ice-build summary")
    lines = page.locator("#ice-list li")
    expect(lines).to_have_count(15)
    expect(lines.first).to_have_text("0–4" + "".join(label(k) for k in record["path"][:5]))
    expect(page.locator("#ice-seed")).to_have_text("seed 7")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "icehouse-02-new-layout")
    assert page.errors == []


def test_an_empty_seed_gets_a_random_layout_kept_in_the_record(served: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    page.goto(served + "/")
    page.select_option("#kind", "icehouse")
    page.click("#new-game button[type=submit]")  # Ann and Bo, no seed
    page.wait_for_url(re.compile(r"/games/\w+$"))
    record = api(served, f"/api/games/{page.url.rsplit('/', 1)[1]}/record")
    assert isinstance(record["seed"], int) and len(record["path"]) == 75
    expect(page.locator("#ice-seed")).to_have_text(f"seed {record['seed']}")
    expect(page.locator("#mandala [data-index='0'] text")).to_have_text(label(record["path"][0]))
    assert page.errors == []


def test_a_whole_three_seat_game_tapped_on_the_phone_ends_with_the_scores_and_ranking(
    served: str, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    game = api(
        served, "/api/games", {"kind": "icehouse", "seats": plan.SEATS, "path": block_path()}
    )
    page = phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#live")).to_have_text("live")
    shot(page, "icehouse-03-block-path-start")

    movers = [*plan.MOVERS[1:], None]
    other = None
    for number, (index, mover, following) in enumerate(
        zip(plan.PICKS, plan.MOVERS, movers, strict=True), start=1
    ):
        expect(page.locator("#ice-to-move")).to_have_text(f"{mover} to move")
        if number == 4:
            # a tap on an empty place is refused on the phone: nothing is sent
            page.click('#mandala [data-index="0"]')
            expect(page.locator("#message")).to_have_text("Place 0 is empty.")
            expect(page.locator("#ice-take")).to_be_disabled()
        if number == 1:
            # one-handed: the arrows step through the places Ann may take (0, then 1)
            page.click("#ice-next")
            expect(page.locator("#ice-take")).to_have_text("Ann takes R1 at 0")
            page.click("#ice-next")
            expect(page.locator("#ice-take")).to_have_text("Ann takes R1 at 1")
            page.click("#ice-take")
        else:
            tap_and_take(page, index)
        expect(page.locator(f'#mandala [data-index="{index}"]')).to_have_attribute(
            "data-place", mover
        )
        if following is not None:
            expect(page.locator("#ice-to-move")).to_have_text(f"{following} to move")
        if number == 2:
            # a second phone on the same game, kept open (never reloaded) to the end
            other = phone(browser, served)
            other.goto(page.url)
            expect(other.locator("#live")).to_have_text("live")
            other.evaluate("window.notReloaded = true")
            expect(other.locator("#ice-to-move")).to_have_text("Cy to move")
        if number == 3:
            expect(page.locator('#mandala [data-index="0"]')).to_have_attribute("data-place", "eye")
            expect(page.locator("#ice-eye-count")).to_have_text("1 piece")
            assert other is not None
            expect(other.locator("#ice-eye-count")).to_have_text("1 piece")
        if number == 5:
            # red-1 by hand: Ann 2 pieces, Bo 2; Bo's pawn (4) ahead of Ann's (3): Bo 3, Ann 2
            expect_set(page, "red-1", "✓ Bo 3, Ann 2")
            expect_scores(page, {"Ann": 2, "Bo": 3, "Cy": 0})
            assert other is not None
            expect_scores(other, {"Ann": 2, "Bo": 3, "Cy": 0})
            expect(page.locator("#ice-notes li")).to_have_text(
                ["Bo takes the red-1 at 4", "red-1 scores: Bo 3, Ann 2"]
            )
            shot(page, "icehouse-04-red-1-scored")
        if number == 6:
            # undo on the phone: Cy's pick comes back, on both phones; then Cy takes it again
            page.click("#undo")
            expect(page.locator("#ice-to-move")).to_have_text("Cy to move")
            expect(page.locator('#mandala [data-index="6"]')).to_have_attribute(
                "data-place", "path"
            )
            assert other is not None
            expect(other.locator("#ice-to-move")).to_have_text("Cy to move")
            tap_and_take(page, 6)
            expect(page.locator("#ice-to-move")).to_have_text("Ann to move")
        if number == 9:
            # red-2 by hand: Cy 3 pieces: 3; second tied 1-1, Bo's pawn (8) ahead: Bo 2
            expect_set(page, "red-2", "✓ Cy 3, Bo 2")
            expect_scores(page, {"Ann": 2, "Bo": 5, "Cy": 3})
        if number == 12:
            expect_set(page, "red-3", "✓ lost to the Eye")
            expect(page.locator("#ice-eye-count")).to_have_text("6 pieces")
            shot(page, "icehouse-05-red-3-lost")

    expect(page.locator("#ice-to-move")).to_have_text("Game over: Cy wins")
    expect_scores(page, plan.FINAL_SCORES)
    expect_set(page, "yellow-1", "✓ Ann 3, Bo 2")
    expect_set(page, "black-3", "✓ Cy 3, Ann 2")
    expect(page.locator("#ice-scored-count")).to_have_text("15 of 15 scored")
    expect(page.locator("#ice-take")).to_be_disabled()

    # the engine's word on the same game: `mandala replay` of the exported record
    record = api(served, f"/api/games/{game['id']}/record")
    assert record["picks"] == plan.PICKS
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    replayed = run_cli(["replay", str(path)])
    assert replayed.status == 0, replayed.stderr
    summary = replayed.json()
    assert isinstance(summary, dict)
    assert summary["scores"] == plan.FINAL_SCORES
    assert summary["winner"] == "Cy"

    for phone_page in (page, other):
        assert phone_page is not None
        expect_scores(phone_page, summary["scores"])
        ranking = phone_page.locator("#ice-ranking li")
        expect(ranking).to_have_text(["Cy 56 points — wins", "Ann 7 points", "Bo 7 points"])
        assert ranking.evaluate_all("nodes => nodes.map(n => n.dataset.rank)") == plan.RANKING
    assert other is not None
    assert other.evaluate("window.notReloaded") is True
    shot(page, "icehouse-06-game-over")
    shot(other, "icehouse-07-second-phone-game-over")
    assert page.errors == []
    assert other.errors == []


def test_a_piece_tapped_on_the_new_turn_stays_chosen_when_this_phones_own_answer_comes_late(
    served: str, browser: Any
) -> None:
    """The live stream often tells the new turn before the phone's own answer to its Take
    arrives; a piece tapped in between is for the new turn and must not be dropped."""
    from playwright.sync_api import expect

    game = api(
        served, "/api/games", {"kind": "icehouse", "seats": plan.SEATS, "path": block_path()}
    )
    page = phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#live")).to_have_text("live")
    held: list[tuple[Any, Any]] = []
    # The server takes the pick at once; the phone hears its answer only when released.
    page.route("**/actions", lambda route: held.append((route, route.fetch())))
    page.click(f'#mandala [data-index="{plan.PICKS[0]}"]')
    page.click("#ice-take")
    expect(page.locator("#ice-to-move")).to_have_text(f"{plan.MOVERS[1]} to move")  # the stream
    page.click(f'#mandala [data-index="{plan.PICKS[1]}"]')
    expect(page.locator("#ice-take")).to_be_enabled()
    page.unroute("**/actions")
    route, answer = held.pop()
    with page.expect_event("requestfinished"):
        route.fulfill(response=answer)
    page.click("#ice-take")  # the piece tapped for the new turn is still the one taken
    expect(page.locator("#ice-to-move")).to_have_text(f"{plan.MOVERS[2]} to move")
    assert not held
