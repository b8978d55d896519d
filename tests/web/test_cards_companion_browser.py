"""A person against the companion at the card game, in Chromium on a 360x740 phone.

The game is made on the home page ("play on the panel", opponent "the companion (hard)"; no
seed: the panel shuffles, and the test reads the seed from the data directory as the box's
shell can; Ann, the first seat, moves first); the phone takes Ann's seat as it creates the
game. Ann taps a field play (kept in hand: no draw), the companion answers after its pause
with one line ("Bo (companion) ..."), and it is Ann's turn again. The companion's hand shows
only as a count on her phone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion import catalogue
from companion.games import cards
from companion.phrases import phrase_from_json
from companion.players import cards as players
from companion.table.cards_companion import explain_words
from tests.web.browser import api, phone, serve_emulated, shot
from tests.web.conftest import stored_setup
from tests.web.test_cards_browser import play

pytestmark = pytest.mark.browser


def test_one_turn_of_a_person_and_one_of_the_companion(tmp_path: Path, browser: Any) -> None:
    from playwright.sync_api import expect

    with serve_emulated(tmp_path / "data") as base:
        page = phone(browser, base)
        page.goto(base + "/")
        page.select_option("#kind", "cards")
        expect(page.locator("#cards-opponent-row")).to_be_hidden()  # tracking a table: no
        page.select_option("#cards-mode", "play")
        page.select_option("#cards-opponent", "hard")
        expect(page.locator("#cards-companion-seat")).to_have_value("1")
        expect(page.locator("#seed")).to_be_hidden()  # the panel shuffles its own deck
        shot(page, "cards-companion-01-home")
        page.click("#new-game button[type=submit]")
        page.wait_for_url(re.compile(r"/games/\w+$"))
        game_id = page.url.rsplit("/", 1)[1]

        # The phone holds Ann's seat; Bo's seat is the companion's, not free to take.
        expect(page.locator("#cards-entry-title")).to_have_text("Your turn, Ann")
        seat = page.locator('#cards-seat-list li[data-seat="1"]')
        expect(seat).to_contain_text("Bo — played by the companion (hard)")
        expect(seat.locator("button")).to_have_count(0)
        seed = stored_setup(tmp_path / "data", game_id)["seed"]
        start = cards.new_game({"seats": ["Ann", "Bo"], "seed": seed})
        expect(page.locator('[data-player="Bo"] .hand')).to_have_text(f"{start.hand_size(1)} cards")
        expect(page.locator("#cards-companion")).to_be_hidden()  # it has said nothing yet

        # Ann's turn: one card of a colour she holds into her field of mandala 0.
        field = next(a for a in cards.legal_actions(start) if isinstance(a, cards.FieldPlay))
        shown = cards.action_to_json(field)
        assert isinstance(shown, dict)
        play(page, {**shown, "count": 1})
        shot(page, "cards-companion-02-ann-played")

        # The companion's turn: it says what it played, and it is Ann's turn again.
        said = page.locator("#cards-companion-said li")
        expect(said).to_have_count(1, timeout=30_000)
        expect(said.first).to_have_text(re.compile(r"^Bo \(companion\) (plays|discards) "))
        expect(page.locator("#cards-entry-title")).to_have_text("Your turn, Ann")
        expect(page.locator("#cards-companion-now")).to_be_hidden()
        shot(page, "cards-companion-03-companion-played")

        game = api(base, f"/api/games/{game_id}")
        log = game["state"]["log"]
        assert log[0]["action"] == {**shown, "count": 1}
        assert len(log) == 2 and game["version"] == 3
        before = cards.apply(start, cards.parse_action(start, log[0]["action"]))
        companion = cards.parse_action(before, log[1]["action"])
        text = "Bo (companion) " + players.explain(companion, before)
        # the page counts mountains, fields and mandalas from 1 (the API from 0)
        counted = re.sub(
            r"\b(mountain|field|mandala) (\d+)", lambda m: f"{m[1]} {int(m[2]) + 1}", text
        )
        assert said.first.inner_text() == counted
        assert game["state"]["companion_said"] == [
            {
                "action": 2,
                "seat": "Bo",
                "phrase": explain_words("Bo", companion, before).to_json(),
            }
        ]
        assert phrase_from_json(game["state"]["companion_said"][0]["phrase"]).english() == text
        # Bo's hand and cup never reach Ann's page: counts only, and no colours in its data.
        after = cards.apply(before, companion)
        expect(page.locator('[data-player="Bo"] .hand')).to_have_text(f"{after.hand_size(1)} cards")
        data = json.loads(page.locator("#data").text_content() or "{}")
        assert data["game"]["state"]["hands"]["Bo"] == start.hand_size(1)

        # On a German page the companion's line is German, counted from 1 as in English.
        page.context.add_cookies([{"name": "mandala_lang", "value": "de", "url": base + "/"}])
        page.reload()
        german = catalogue.render(explain_words("Bo", companion, before), "de")
        german = re.sub(r"\b(Zentrum|Feld) (\d+)", lambda m: f"{m[1]} {int(m[2]) + 1}", german)
        expect(said.first).to_have_text(german)
        assert german.startswith("Bo (Companion) ")
        shot(page, "cards-companion-04-german")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.errors == []
