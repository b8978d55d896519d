"""The table view (``/table``) in a real Chromium: every game kind drawn big without
overflow at 1280x720 (light) and 1920x1080 (dark), with no serious axe-core finding;
following the game in play within a second; back by itself after the server restarts; the
screen kept awake."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import api, pair_owner, phone, serve_emulated, shot
from tests.web.test_every_page import AXE, make_games

pytestmark = pytest.mark.browser

SIZES = [(1280, 720), (1920, 1080)]
TURN_TYPE = "parseFloat(getComputedStyle(document.querySelector('#tv-turn')).fontSize)"
#: The kinds in play and over, and what is drawn once the game is on the screen.
DRAWN = {
    "rings-in-play": "#tv-rings .slots path",
    "rings-over": "#tv-rings .slots path",
    "icehouse-in-play": "#tv-spiral .piece",
    "icehouse-over": "#tv-spiral .piece",
    "stones-in-play": "#tv-stones-board .cell.stack",
    "stones-over": "#tv-stones-board .cell.stack",
    "cards-table-in-play": "#tv-cards .mandala",
    "cards-play-in-play": "#tv-cards .mandala",
    "cards-play-over": "#tv-cards .mandala",
}
#: Everything on the screen lies inside it and inside the box it is drawn in (nothing cut,
#: nothing to scroll); answers what does not.
OUTSIDE = """() => {
  const root = document.documentElement;
  const out = [];
  if (root.scrollWidth > innerWidth || root.scrollHeight > innerHeight) {
    out.push(`page ${root.scrollWidth}x${root.scrollHeight} in ${innerWidth}x${innerHeight}`);
  }
  for (const node of document.querySelectorAll("main *")) {
    if (node.closest("[hidden], .sr-only") || (node.closest("svg") && node.tagName !== "svg")) {
      continue;
    }
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    if (box.left < -0.5 || box.top < -0.5 || box.right > innerWidth + 0.5 ||
        box.bottom > innerHeight + 0.5) {
      out.push(`${node.tagName}#${node.id}.${node.className} at ${JSON.stringify(box)}`);
    }
    const clips = getComputedStyle(node).overflowY !== "visible";
    if (clips && node.scrollHeight > node.clientHeight + 1) {
      out.push(`${node.tagName}#${node.id} clips ${node.scrollHeight} > ${node.clientHeight}`);
    }
  }
  return out;
}"""


def axe_violations(page: Any) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    return [
        f"{v['id']}: {v['help']} at " + ", ".join(" ".join(n["target"]) for n in v["nodes"][:5])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def test_each_game_kind_is_drawn_big_without_overflow_at_both_sizes(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    data = tmp_path / "data"
    with serve_emulated(data) as base:
        games = make_games(base, {"X-Owner-Token": pair_owner(base, data)})
        for (width, height), scheme in zip(SIZES, ["light", "dark"], strict=True):
            # (bypass_csp lets the test add axe-core; the page's own rules stay)
            context = browser.new_context(color_scheme=scheme, bypass_csp=True)
            page = phone(browser, base, context, size=(width, height))
            for name, drawn in DRAWN.items():
                page.goto(f"{base}/table?game={games[name]}")
                expect(page.locator("main.tv")).to_have_attribute("data-shown", games[name])
                expect(page.locator(drawn).first).to_be_visible()
                expect(page.locator("#tv-turn")).not_to_be_empty()
                shot(page, f"table-{name}-{width}")
                assert page.evaluate(OUTSIDE) == [], (name, width)
                # read from two metres: whose turn at least 6% of the screen's height
                size = page.evaluate(TURN_TYPE)
                assert size >= 0.06 * height, (name, size)
                assert axe_violations(page) == [], (name, width)
            assert page.errors == []
            context.close()


NEW_RINGS = {
    "kind": "rings",
    "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
    "board": "reference",
    "variant": "standard",
}
NEW_ICEHOUSE = {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1}
#: Keep, in the page, when each game was first shown (Date.now(), the phones' shared clock).
WATCH_SHOWN = """() => {
  const main = document.querySelector("main.tv");
  window.shownAt = {};
  new MutationObserver(() => {
    if (!(main.dataset.shown in window.shownAt)) window.shownAt[main.dataset.shown] = Date.now();
  }).observe(main, { attributes: true, attributeFilter: ["data-shown"] });
}"""


def test_the_view_follows_a_game_started_on_a_phone_and_a_ring_turned_within_a_second(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    with serve_emulated(tmp_path / "data") as base:
        ring_game = api(base, "/api/games", NEW_RINGS)["id"]  # it goes onto the ring board
        tv = phone(browser, base, size=(1280, 720))
        tv.goto(base + "/table")
        shown = tv.locator("main.tv")
        expect(shown).to_have_attribute("data-shown", ring_game)
        expect(tv.locator("#live")).to_have_text("live")
        tv.evaluate(WATCH_SHOWN)

        # A family starts Icehouse on a phone: the screen shows it.
        hand = phone(browser, base)
        hand.goto(base + "/")
        hand.select_option("#kind", "icehouse")
        started = hand.evaluate("Date.now()")
        hand.click("#new-game button[type=submit]")
        hand.wait_for_url(re.compile(r"/games/\w+$"))
        icehouse_game = hand.url.rsplit("/", 1)[1]
        expect(shown).to_have_attribute("data-shown", icehouse_game)
        assert tv.evaluate(f"window.shownAt['{icehouse_game}']") - started < 1000
        expect(tv.locator("#tv-spiral .piece").first).to_be_visible()
        expect(tv.locator("#tv-turn-text")).to_have_text("Ann's turn")
        shot(tv, "table-follows-1-icehouse")

        # A ring turned on the (emulated) board: the ring game is the one in play again,
        # drawn at the ring's new offset.
        slot = tv.locator('#tv-rings path[data-ring="3"][data-slot="0"]')
        before = slot.get_attribute("d")
        turned = tv.evaluate("Date.now()")
        api(base, "/api/emulator/rings/3/turn", {"detents": 2})
        expect(shown).to_have_attribute("data-shown", ring_game)
        assert tv.evaluate(f"window.shownAt['{ring_game}']") - turned < 1000
        expect(slot).not_to_have_attribute("d", before or "")
        expect(tv.locator("#tv-rings")).to_be_visible()
        shot(tv, "table-follows-2-ring-turned")

        # A step taken in the Icehouse game on the phone: it is in play again.
        tv.evaluate("window.shownAt = {}")
        picked = hand.evaluate("Date.now()")
        api(base, f"/api/games/{icehouse_game}/actions", {"version": 1, "action": {"pick": 0}})
        expect(shown).to_have_attribute("data-shown", icehouse_game)
        assert tv.evaluate(f"window.shownAt['{icehouse_game}']") - picked < 1000
        expect(tv.locator("#tv-turn-text")).to_have_text("Bo's turn")
        assert tv.errors == [] and hand.errors == []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_the_view_comes_back_by_itself_after_the_server_restarts(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    data = tmp_path / "data"
    port = free_port()
    with serve_emulated(data, port) as base:
        first = api(base, "/api/games", NEW_ICEHOUSE)["id"]
        tv = phone(browser, base, size=(1920, 1080))
        tv.goto(base + "/table")
        expect(tv.locator("main.tv")).to_have_attribute("data-shown", first)
        expect(tv.locator("#live")).to_have_text("live")
    expect(tv.locator("#live")).to_have_text("reconnecting")  # the server is gone
    with serve_emulated(data, port) as again:
        assert again == base
        expect(tv.locator("#live")).to_have_text("live")  # the stream is back by itself
        later = api(again, "/api/games", NEW_RINGS)["id"]
        expect(tv.locator("main.tv")).to_have_attribute("data-shown", later)
        expect(tv.locator("#tv-rings .slots path").first).to_be_visible()
        shot(tv, "table-after-restart-1920")
    assert tv.errors == []


#: The Wake Lock API as Chromium gives it, counted: each request and the lock it answered.
COUNT_WAKE_LOCKS = """
window.wakeLocks = [];
const realRequest = navigator.wakeLock.request.bind(navigator.wakeLock);
navigator.wakeLock.request = async (type) => {
  const lock = await realRequest(type);
  window.wakeLocks.push(lock);
  return lock;
};
"""
REFUSE_WAKE_LOCKS = """
navigator.wakeLock.request = async () => {
  throw new DOMException("Wake Lock permission request denied", "NotAllowedError");
};
"""


def test_the_screen_is_kept_awake_and_asked_again_when_the_page_is_shown_again(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    with serve_emulated(tmp_path / "data") as base:
        tv = phone(browser, base, size=(1280, 720))
        tv.add_init_script(COUNT_WAKE_LOCKS)
        tv.goto(base + "/table")
        expect(tv.locator("main.tv")).to_have_attribute("data-awake", "yes")
        assert tv.evaluate("window.wakeLocks.map((lock) => lock.released)") == [False]
        # Hidden, the browser releases the lock; shown again, the page asks anew.
        tv.evaluate("window.wakeLocks[0].release()")
        tv.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        tv.wait_for_function("() => window.wakeLocks.length === 2")
        assert tv.evaluate("window.wakeLocks.map((lock) => lock.released)") == [True, False]

        refused = phone(browser, base, size=(1280, 720))
        refused.add_init_script(REFUSE_WAKE_LOCKS)
        refused.goto(base + "/table")
        expect(refused.locator("main.tv")).to_have_attribute("data-awake", "refused")
        expect(refused.locator("#message")).to_be_hidden()  # nothing said about it
        assert tv.errors == [] and refused.errors == []


HELD_CARDS = "[...document.querySelectorAll('.tv-river p .card')].map((c) => c.className)"
#: The seat and the hands of the card game in the page's first data.
HANDS_SHOWN = """() => {
  const state = Panel.data.game.state;
  return [state.seat, Object.values(state.hands).map((held) => typeof held)];
}"""


def test_a_screen_holding_a_seat_shows_no_hand_or_cup_of_a_hidden_card_game(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    with serve_emulated(tmp_path / "data") as base:
        game = api(base, "/api/games", {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "play"})
        url = f"{base}/api/games/{game['id']}"
        context = browser.new_context()
        taken = context.request.post(url + "/seats/0/take", data={})
        assert taken.ok  # this browser now holds Ann's seat (the panel's cookie)
        own = phone(browser, base, context, size=(1280, 720))
        own.goto(f"{base}/games/{game['id']}")  # on the game's page it sees Ann's hand
        expect(own.locator('[data-player="Ann"] .hand .card:not(.hidden)').first).to_be_visible()

        tv = phone(browser, base, context, size=(1280, 720))
        tv.goto(base + "/table")
        expect(tv.locator("main.tv")).to_have_attribute("data-shown", game["id"])
        assert tv.evaluate(HANDS_SHOWN) == [None, ["number", "number"]]
        for name in ("Ann", "Bo"):
            river = tv.locator(f'.tv-river[data-player="{name}"]')
            expect(river.locator(".card.hidden")).to_have_count(2)  # the hand and the cup
            expect(river.locator(".card.hidden").first).to_have_text("6 cards")
        # Ann plays on her phone: the screen follows, and still shows no hand.
        legal = context.request.get(url).json()["state"]["legal"]
        step = context.request.post(url + "/actions", data={"version": 1, "action": legal[0]})
        assert step.ok, step.text()
        expect(tv.locator("#tv-events li[data-step='1']")).to_be_visible()
        held = tv.evaluate(HELD_CARDS)  # the hands' and cups' chips: counts only
        assert len(held) == 4 and all("hidden" in name for name in held), held
        shot(tv, "table-cards-seat-held-1280")
        assert tv.errors == [] and own.errors == []
        context.close()


@contextmanager
def panel_without_rings(data: Path, config: dict[str, Any], reach: Any = None) -> Iterator[str]:
    """The panel of a table with no ring board, on waitress in this process (``config`` added
    to the app's, ``reach`` what it listens on); yields its base URL."""
    from companion.table import Table
    from tests.web.conftest import serving

    with Table(data, None, data / "boards") as table:
        lan = serving(table, {"BOARDS_DIR": data / "boards", **config}, reach=reach)
        try:
            yield next(lan)
        finally:
            lan.close()


def test_the_table_view_speaks_the_boxs_language_whatever_the_phone_chose(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    with panel_without_rings(tmp_path / "data", {"LANGUAGE": "de"}) as base:
        api(base, "/api/games", NEW_RINGS)
        context = browser.new_context(locale="en-GB")  # this phone asks for English
        tv = phone(browser, base, context, size=(1280, 720))
        tv.goto(base + "/table")
        expect(tv.locator("#tv-turn-text")).to_have_text("Ann ist am Zug")  # table.js's
        expect(tv.locator(".tv-events h2")).to_have_text("Letzte Züge")  # the template's
        expect(tv.locator("#tv-scores .mover")).to_have_text("am Zug")
        shot(tv, "table-rings-de-1280")
        assert tv.errors == []
        context.close()


def test_at_1920x1080_too_the_join_codes_fit_beside_the_game_and_decode(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    from companion.box.address import Reach, network_addresses
    from tests.web.test_join_browser import decoded

    lan = Reach(network_addresses()[0], 0)  # listening where phones reach it
    with panel_without_rings(tmp_path / "data", {}, lan) as base:
        game = api(base, "/api/games", {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "play"})
        # (tests/web/test_join_browser.py decodes them at 1280x720)
        for width, height in SIZES[1:]:
            tv = phone(browser, base, size=(width, height))
            tv.goto(base + "/table")
            expect(tv.locator("#join")).to_have_attribute("data-game", game["id"])
            expect(tv.locator("#join-seats li")).to_have_count(2)  # Ann's and Bo's seats free
            expect(tv.locator("#join img.qr")).to_have_count(3)
            tv.wait_for_function(
                "() => [...document.querySelectorAll('#join img.qr')].every((i) => i.complete)"
            )
            printed = tv.locator("#join-url").inner_text()
            seats = [f"{printed}games/{game['id']}?seat={seat}" for seat in (0, 1)]
            assert decoded(tv, f"table-join-{width}") == sorted([printed, *seats])
            assert tv.evaluate(OUTSIDE) == [], width
            assert tv.errors == []
