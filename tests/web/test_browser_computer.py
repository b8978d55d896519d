"""A person and a computer seat at the emulated ring board, in Chromium on a 360x740 phone.

The game is made on the home page with seat 1 played by the computer (medium). The computer
seat rolls, announces its rotations on the panel, turns the emulated rings and confirms;
then the person (Bo) rolls, turns the rings through the emulator controls and confirms, and
the computer answers with its next turn.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.games import rings
from companion.games.base import replay
from tests.web.browser import api, phone, serve_emulated, shot

pytestmark = pytest.mark.browser


def test_a_person_plays_after_the_computer_seats_announced_turn(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    with serve_emulated(tmp_path / "data") as base:
        page = phone(browser, base)
        page.goto(base + "/")
        page.select_option("#kind", "rings")
        seats = page.locator("#seats .seat")
        seats.nth(0).locator("[name=seat-name]").fill("Ann")
        seats.nth(0).locator("[name=seat-player]").select_option("medium")
        seats.nth(1).locator("[name=seat-name]").fill("Bo")
        seats.nth(1).locator("[name=seat-hints]").select_option("on")
        shot(page, "computer-01-home")
        page.click("#new-game button[type=submit]")
        page.wait_for_url(re.compile(r"/games/\w+$"))
        game_id = page.url.rsplit("/", 1)[1]

        # The computer seat's turn: the announcement in words, then the turn in the history.
        say = page.locator("#computer-say")
        expect(say).to_contain_text(re.compile(r"Ann \(computer(, medium)?\) rolled red \d"))
        shot(page, "computer-02-announced")
        expect(page.locator("#computer-play")).to_be_hidden()  # only after an undo
        expect(page.locator("#hints")).to_be_disabled()  # no hints for the computer's roll
        expect(page.locator('#history li[data-turn="1"]')).to_be_visible()
        expect(say).to_contain_text("Turn 1: Ann (computer) rolled")
        expect(page.locator("#to-move")).to_have_text("Bo to move")
        record = api(base, f"/api/games/{game_id}/record")
        first = record["turns"][0]["rotations"]
        words = [
            f"turn ring {r['ring']} "
            f"{['no', 'one', 'two', 'three'][abs(r['steps'])]} slot{'s' * (abs(r['steps']) != 1)} "
            f"{'clockwise' if r['steps'] > 0 else 'counter-clockwise'}"
            for r in first
        ]
        for text in words:
            expect(say).to_contain_text(text)
        shot(page, "computer-03-played")

        # The person: roll, hints shown unasked (Bo turned them on), turn the rings, confirm.
        page.click("#roll")
        # the advisor's three, options that differ only in a ring's direction as one line
        expect(page.locator("#hints-list li").first).to_be_visible()  # the dice are in
        options = api(base, f"/api/games/{game_id}/hints")["options"]
        assert len(options) == 3
        lines = {
            (
                o["text"].split(": ", 1)[1],
                tuple((r["ring"], abs(r["steps"])) for r in o["rotations"]),
            )
            for o in options
        }
        expect(page.locator("#hints-list li")).to_have_count(len(lines))
        game = api(base, f"/api/games/{game_id}")
        dice = game["state"]["dice"]
        state = replay(rings, record)
        chosen = rings.legal_rotation_sets(state, dice)[0]
        for rotation in chosen:
            api(base, f"/api/emulator/rings/{rotation.ring}/turn", {"detents": rotation.steps})
        expect(page.locator("#confirm")).to_be_enabled()
        page.click("#confirm")
        expect(page.locator('#history li[data-turn="2"]')).to_be_visible()
        # ... and the game goes on: the computer seat answers with turn 3.
        expect(page.locator('#history li[data-turn="3"]')).to_be_visible(timeout=30_000)
        expect(say).to_contain_text("Turn 3: Ann (computer) rolled")
        shot(page, "computer-04-game-goes-on")
        record = api(base, f"/api/games/{game_id}/record")
        assert len(record["turns"]) == 3
        assert record["turns"][1]["dice"] == dice
        assert {(r["ring"], r["steps"]) for r in record["turns"][1]["rotations"]} == {
            (r.ring, r.steps) for r in chosen
        }
        expect(page.locator("#message")).not_to_contain_text("hints")  # none asked too early
        assert page.errors == []
