"""The Stones page in a real Chromium on a 360x740 phone, against `mandala serve --emulate`.

A two-seat game with seed 1 is started from the home page and played only by tapping: four
PICKs (each the first move the state lists: its artist, its destination, its first eligible
stone, the first empty space), then Ann's SCORE. A second phone follows live.

Worked out by hand for seed 1 and the bundled data file (space 1 `heights` counting empty
spaces, space 2 `level` 6/4/2/1, no bonus on places 1 and 2): after the four PICKs Ann has
[yellow-lines, blue-lines] on space 1 and [blue-lines] on space 2. Blue by colour is worth
9: space 1 first sees heights {2, 1, 0} = 3, then space 2 (height 1) scores level 6. The
next best is the tops of spaces 1 and 2 = 2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games import stones
from companion.games.base import replay
from tests.web.browser import api, pair_owner, phone, serve_emulated, shot

pytestmark = pytest.mark.browser


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serve_emulated(tmp_path / "data") as url:
        yield url


def cell(value: list[int]) -> str:
    return f"{value[0]},{value[1]}"


def neighbour(at: list[int], direction: str) -> list[int]:
    dr, dc = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}[direction]
    return [at[0] + dr, at[1] + dc]


def tap_first_pick(page: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Tap the first PICK the state lists; return it in the record format."""
    from playwright.sync_api import expect

    move = state["picks"][0]
    first = move["first"][0]
    board = state["boards"][state["to_move"]]
    space = next(i + 1 for i, tower in enumerate(board) if not tower)
    page.click(f'#main-board [data-artist="{cell(move["artist"])}"]')
    page.click(f'#main-board [data-cell="{cell(move["to"])}"]')
    page.click(f'#main-board [data-cell="{cell(neighbour(move["to"], first))}"]')
    page.click(f'#pick-spaces [data-space="{space}"]')
    expect(page.locator("#pick-go")).to_be_enabled()
    return {"pick": {"artist": move["artist"], "to": move["to"], "first": first, "space": space}}


def engine_state(base: str, game_id: str) -> Any:
    """The exported record replayed through the engine."""
    return replay(stones, api(base, f"/api/games/{game_id}/record"))


def shown_scores(page: Any, seats: list[str]) -> dict[str, int]:
    return {
        name: int(page.locator(f'#scores [data-seat="{name}"] .score').inner_text())
        for name in seats
    }


def test_picks_and_a_score_recorded_by_tapping_show_the_engines_values(
    served: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    page = phone(browser, served)
    page.goto(served + "/")
    page.select_option("#kind", "stones")
    page.fill("#seed", "1")
    seats = page.locator("#seats .seat [name=seat-name]")
    for i in range(seats.count()):
        seats.nth(i).fill(["Ann", "Bo"][i] if i < 2 else "")
    page.click("#new-game button[type=submit]")
    page.wait_for_url(f"{served}/games/*")
    game_id = page.url.rsplit("/", 1)[1]
    record = api(served, f"/api/games/{game_id}/record")
    assert record["seed"] == 1 and record["seats"] == ["Ann", "Bo"]

    # The main board to build: every stack space shows its stones bottom to top, each with
    # its colour, pattern and letter; the artists with their pattern.
    start = api(served, f"/api/games/{game_id}")["state"]
    for key, stack in start["stacks"].items():
        names = page.locator(f'#main-board [data-cell="{key}"] [data-stone]')
        assert [names.nth(i).get_attribute("data-stone") for i in range(names.count())] == stack
    first_stone = start["stacks"]["1,2"][0]
    colour, pattern = first_stone.split("-")
    bottom = page.locator('#main-board [data-cell="1,2"] [data-stone]').first
    assert sorted(bottom.get_attribute("class").split()) == sorted(["stone", colour, pattern])
    mark = {"dots": "•", "lines": "≡"}[pattern]
    assert (
        bottom.inner_text()
        == {"red": "R", "purple": "P", "blue": "B", "yellow": "Y"}[colour] + mark
    )
    for artist in start["artists"]:
        expect(page.locator(f'#main-board [data-artist="{cell(artist["at"])}"]')).to_contain_text(
            artist["pattern"]
        )
    shot(page, "stones-01-board-to-build")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll

    watcher = phone(browser, served)
    watcher.goto(f"{served}/games/{game_id}")
    expect(watcher.locator("#live")).to_have_text("live")

    played: list[dict[str, Any]] = []
    for turn in range(4):
        state = api(served, f"/api/games/{game_id}")["state"]
        played.append(tap_first_pick(page, state))
        if turn == 0:
            shot(page, "stones-02-pick-chosen")
        page.click("#pick-go")
        expect(page.locator("#history li")).to_have_count(turn + 1)
        expect(watcher.locator("#history li")).to_have_count(turn + 1)
    record = api(served, f"/api/games/{game_id}/record")
    assert record["actions"] == played

    state = engine_state(served, game_id)
    assert [[str(s) for s in tower] for tower in state.boards[0]] == [
        ["yellow-lines", "blue-lines"],
        ["blue-lines"],
        [],
        [],
        [],
    ]
    expected = [stones.score_option_to_json(o) for o in stones.score_options(state)]
    buttons = page.locator("#options [data-option]")
    expect(buttons).to_have_count(len(expected))
    shown = [
        {
            "action": json.loads(buttons.nth(i).get_attribute("data-action")),
            "vp": buttons.nth(i).locator(".vp").inner_text(),
        }
        for i in range(buttons.count())
    ]
    assert shown == [{"action": o["action"], "vp": f"+{o['vp']}"} for o in expected]
    assert shown[0] == {
        "action": {"score": "colour", "colour": "blue", "order": [1, 2]},
        "vp": "+9",
    }
    assert shown[1] == {"action": {"score": "tops", "spaces": [1, 2], "order": [1, 2]}, "vp": "+2"}
    watched = watcher.locator("#options [data-option] .vp")
    expect(watched).to_have_text([f"+{o['vp']}" for o in expected])

    # Ann scores blue, placing space 2's stone on the mandala board first.
    buttons.nth(0).click()
    page.click('#order-spaces [data-order="2"]')
    page.click('#order-spaces [data-order="1"]')
    expect(page.locator("#order-now")).to_have_text("2 → 1")
    shot(page, "stones-03-score-options")
    page.click("#score-go")
    expect(page.locator("#history li")).to_have_count(5)
    record = api(served, f"/api/games/{game_id}/record")
    assert record["actions"][-1] == {"score": "colour", "colour": "blue", "order": [2, 1]}
    after = engine_state(served, game_id)
    assert shown_scores(page, ["Ann", "Bo"]) == {"Ann": 9, "Bo": 0}
    assert dict(zip(after.seats, after.scores, strict=True)) == {"Ann": 9, "Bo": 0}
    expect(watcher.locator('#scores [data-seat="Ann"] .score')).to_have_text("9")
    expect(page.locator('#mandala [data-place="1"] [data-stone]')).to_have_attribute(
        "data-stone", "blue-lines"
    )
    expect(page.locator('#player-boards [data-board="Ann"] [data-stone]')).to_have_count(1)
    # Bo's options now, as the engine has them.
    bo_options = [stones.score_option_to_json(o) for o in stones.score_options(after)]
    expect(page.locator("#options [data-option] .vp")).to_have_text(
        [f"+{o['vp']}" for o in bo_options]
    )
    shot(page, "stones-04-after-score")

    # Undo on the watching phone takes the score back on both.
    watcher.click("#undo")
    expect(page.locator('#scores [data-seat="Ann"] .score')).to_have_text("0")
    expect(page.locator("#history li")).to_have_count(4)
    assert api(served, f"/api/games/{game_id}")["version"] == 7
    assert page.errors == [] and watcher.errors == []


def test_objectives_are_entered_on_the_page_and_the_winner_shown(
    served: str, browser: Any, tmp_path: Path
) -> None:
    # Spec example 06 up to its objectives: Ann 1 VP, Bo 3 VP; Ann enters 4, Bo 2: a 5-5 tie
    # that goes to Ann, first in seat order.
    from playwright.sync_api import expect

    from tests.conftest import SPEC_EXAMPLES

    record = json.loads((SPEC_EXAMPLES / "stones-06-objectives-tie.record.json").read_text())
    record["actions"] = record["actions"][:4]
    owner = {"X-Owner-Token": pair_owner(served, tmp_path / "data")}  # importing needs it
    game = api(served, "/api/games", {"record": record}, owner)
    page = phone(browser, served)
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#turn-line")).to_have_text(
        "Play has stopped: Ann enters the objective scored"
    )
    expect(page.locator("#pick-panel")).to_be_hidden()
    expect(page.locator("#score-panel")).to_be_hidden()
    page.fill("#objective-vp", "4")
    shot(page, "stones-05-objectives")
    page.click("#objective button[type=submit]")
    expect(page.locator("#turn-line")).to_have_text(
        "Play has stopped: Bo enters the objective scored"
    )
    page.fill("#objective-vp", "two")
    page.click("#objective button[type=submit]")
    expect(page.locator("#message")).to_have_text(
        "action 6: vp: expected a whole number, got a string"
    )
    page.fill("#objective-vp", "2")
    page.click("#objective button[type=submit]")
    expect(page.locator("#turn-line")).to_have_text("Game over: Ann wins with 5 VP")
    assert shown_scores(page, ["Ann", "Bo"]) == {"Ann": 5, "Bo": 5}
    expect(page.locator("#objective-panel")).to_be_hidden()
    shot(page, "stones-06-over")
    assert page.errors == []


@pytest.mark.parametrize("size", [(360, 740), (800, 1280)], ids=["360", "800"])
def test_a_pick_and_a_score_read_in_german_and_fit(
    served: str, browser: Any, size: tuple[int, int]
) -> None:
    """German words are long (issue 27): the PICK's steps and summary, the SCORE options and
    the mandala order, as a German phone taps them, in the catalogue's words (the compass
    letter of the first stone too: O for east), fitting and passing axe at both sizes."""
    from playwright.sync_api import expect

    from tests.web.test_every_page import rules_broken

    # bypass_csp lets the test inject axe-core; the page's own rules stay
    context = browser.new_context(locale="de-DE", bypass_csp=True)
    page = phone(browser, served, context, size=size)
    game = api(served, "/api/games", {"kind": "stones", "seats": ["Ann", "Bo"], "seed": 1})
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#turn-line")).to_have_text("Ann ist am Zug: NEHMEN oder WERTEN")
    # each colour's letter is one of its German name (I for Lila, E for Gelb)
    expect(page.locator("#legend")).to_contain_text("Buchstaben: R Rot, I Lila, B Blau, E Gelb;")
    step = page.locator("#pick-step")
    expect(step).to_have_text("1. Tipp auf den Künstler, der ziehen soll (blau umrandet).")

    state = game["state"]
    move = state["picks"][0]
    first = move["first"][0]
    letter = {"N": "N", "E": "O", "S": "S", "W": "W"}[first]
    artist = next(a for a in state["artists"] if a["at"] == move["artist"])
    pattern = {"dots": "Punkte", "lines": "Linien"}[artist["pattern"]]
    at, to = (f"[{c[0]}, {c[1]}]" for c in (move["artist"], move["to"]))
    page.click(f'#main-board [data-artist="{cell(move["artist"])}"]')
    expect(step).to_have_text("2. Tipp auf das Künstlerfeld, auf das er zieht (umrandet).")
    page.click(f'#main-board [data-cell="{cell(move["to"])}"]')
    if len(move["first"]) > 1:
        expect(step).to_contain_text("3. Tipp auf den ersten Stein")
        page.click(f'#main-board [data-cell="{cell(neighbour(move["to"], first))}"]')
    expect(step).to_have_text("4. Wähl das Feld auf der Spielertafel von Ann (unten).")
    taken = page.locator(f'#main-board [data-cell="{cell(neighbour(move["to"], first))}"]')
    expect(taken).to_contain_text(f"wählbar ({letter}), als 1. genommen")
    page.click('#pick-spaces [data-space="1"]')
    summary = page.locator("#pick-summary")
    # the tower's stones, each followed by its direction's letter, the first stone's first
    tower = re.escape(f"Künstler {pattern} {at} → {to}, Turm (unten zuerst): ")
    expect(summary).to_have_text(re.compile(rf"^{tower}\S+ {letter} (\S+ [NOSW] )*→ Feld 1$"))
    expect(step).to_have_text("Prüf alles, dann trag das NEHMEN ein.")
    shot(page, f"stones-de-{size[0]}-pick")
    assert rules_broken(page, on_phone=size[0] < 600) == []
    page.click("#pick-go")
    expect(page.locator("#message")).to_have_text("NEHMEN eingetragen.")
    expect(page.locator("#history li")).to_have_text(
        [f"Ann: NEHMEN, Künstler {at} → {to}, erster {letter}, Feld 1"]
    )

    # three more picks (as the first test plays them), then Ann's SCORE options
    for turn in range(1, 4):  # each read once the page has drawn the one before
        tap_first_pick(page, api(served, f"/api/games/{game['id']}")["state"])
        page.click("#pick-go")
        expect(page.locator("#history li")).to_have_count(turn + 1)
    options = page.locator("#options [data-option]")
    expect(options.first.locator(".label")).to_have_text("Blau (B) oben: Felder 1, 2")
    expect(options.first.locator(".why")).to_contain_text("nach den Regeln der Felder + ")
    expect(options.nth(1).locator(".label")).to_have_text("Oberste Steine der Felder 1, 2")
    options.first.click()
    page.click('#order-spaces [data-order="2"]')
    expect(page.locator('#order-spaces [data-order="2"]')).to_have_text("Feld 2 (1.)")
    expect(page.locator("#order-box p")).to_have_text(
        "Mandala-Reihenfolge: Tipp die Felder in der Reihenfolge an, in der ihre Steine auf die"
        " Mandalatafel kommen (jetzt 2 …)."
    )
    page.click('#order-spaces [data-order="1"]')
    shot(page, f"stones-de-{size[0]}-score")
    assert rules_broken(page, on_phone=size[0] < 600) == []
    page.click("#score-go")
    expect(page.locator("#message")).to_have_text("WERTEN eingetragen.")
    expect(page.locator('#player-boards [data-board="Ann"] h3')).to_have_text("Ann: 9 SP")
    expect(page.locator("#history li").last).to_have_text(
        "Ann: WERTEN Blau (B) oben: Felder 1, 2; Mandala-Reihenfolge 2, 1"
    )
    assert page.errors == []
    context.close()


def test_objectives_are_entered_in_german_and_the_winner_shown(
    served: str, browser: Any, tmp_path: Path
) -> None:
    """Spec example 06's objectives (as the English test enters them) on a German phone: the
    turn line, the objective's label and the winner in the catalogue's words; the form fits
    and passes axe at 360 px."""
    from playwright.sync_api import expect

    from tests.conftest import SPEC_EXAMPLES
    from tests.web.test_every_page import rules_broken

    record = json.loads((SPEC_EXAMPLES / "stones-06-objectives-tie.record.json").read_text())
    record["actions"] = record["actions"][:4]
    owner = {"X-Owner-Token": pair_owner(served, tmp_path / "data")}  # importing needs it
    game = api(served, "/api/games", {"record": record}, owner)
    # bypass_csp lets the test inject axe-core; the page's own rules stay
    context = browser.new_context(locale="de-DE", bypass_csp=True)
    page = phone(browser, served, context)
    page.goto(f"{served}/games/{game['id']}")
    expect(page.locator("#turn-line")).to_have_text(
        "Spiel angehalten: Ann trägt den erfüllten Auftrag ein"
    )
    expect(page.locator("#objective-panel h2")).to_have_text("Aufträge")
    expect(page.locator("#objective-label")).to_have_text(
        "SP des Auftrags von Ann (0, wenn keiner)"
    )
    page.fill("#objective-vp", "4")
    shot(page, "stones-de-objectives")
    assert rules_broken(page, on_phone=True) == []
    page.click("#objective button[type=submit]")
    expect(page.locator("#turn-line")).to_have_text(
        "Spiel angehalten: Bo trägt den erfüllten Auftrag ein"
    )
    page.fill("#objective-vp", "2")
    page.click("#objective button[type=submit]")
    expect(page.locator("#turn-line")).to_have_text("Spiel vorbei: Ann gewinnt mit 5 SP")
    expect(page.locator('#scores [data-seat="Ann"]')).to_have_text("AAnn (Sieger)5SP")
    expect(page.locator("#history li").last).to_have_text("Bo: Auftrag 2 SP")
    assert page.errors == []
    context.close()
