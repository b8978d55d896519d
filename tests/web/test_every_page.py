"""Every page of the panel, at 360x740 and 1024x768, light and dark, in a real Chromium.

Three rules hold on every page and in every view, a phone and a tablet in German too (some
pages also once put in the state with the most words, :data:`PREPARE`): nothing is wider
than the screen (``scrollWidth`` <= the viewport), no control a finger aims at is under
44x44 px on a phone, and axe-core (vendored as ``tests/web/axe.min.js``, MPL-2.0, see
``axe.LICENSE``) finds no serious or critical violation. One server and one browser serve the
whole matrix; each page is loaded once per view, measured once and screenshotted to
``test-output/web/page-*.png``.

A new page is one line in :data:`PAGES` (and, for a new game, one in :func:`make_games`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games import cards, icehouse, rings, stones
from tests.games.icehouse_helpers import block_path
from tests.web import icehouse_game
from tests.web.browser import api, chromium, pair_owner, phone, serve_emulated, shot
from tests.web.conftest import open_board

pytestmark = pytest.mark.browser

AXE = Path(__file__).with_name("axe.min.js")
MIN_TARGET = 44
#: View name to (viewport, colour scheme, whether the phone is the owner's). The owner sees
#: the owner-only controls as well; the light views are the owner's, the dark ones a guest's.
VIEWS = {
    "360-light": ((360, 740), "light", True),
    "360-dark": ((360, 740), "dark", False),
    "1024-light": ((1024, 768), "light", True),
    "1024-dark": ((1024, 768), "dark", False),
}
#: The same on a phone whose browser asks for German (issue 27: German words are long); the
#: switch and Accept-Language are tested in tests/web/test_i18n*.py.
VIEWS["360-light-de"] = ((360, 740), "light", True)
VIEWS["800-light-de"] = ((800, 1280), "light", True)  # a tablet upright
GERMAN_VIEWS = {name for name in VIEWS if name.endswith("-de")}
PHONE_VIEWS = [name for name in VIEWS if name.startswith("360")]

#: Page name to (its path, or the game it shows; a selector that is there once it is drawn).
PAGES: dict[str, tuple[str, str]] = {
    "home": ("/", "#games li"),
    "rings-in-play": ("game:rings-in-play", "#board path"),
    "rings-over": ("game:rings-over", "#board path"),
    "icehouse-in-play": ("game:icehouse-in-play", "#mandala .piece"),
    "icehouse-over": ("game:icehouse-over", "#ice-ranking li"),
    "cards-table-in-play": ("game:cards-table-in-play", "#cards-mandalas .mandala"),
    "cards-table-over": ("game:cards-table-over", "#cards-mandalas .mandala"),
    "cards-play-in-play": ("game:cards-play-in-play", "#cards-mandalas .mandala"),
    "cards-play-over": ("game:cards-play-over", "#cards-mandalas .mandala"),
    "stones-in-play": ("game:stones-in-play", "#main-board .cell"),
    "stones-over": ("game:stones-over", "#main-board .cell"),
    "calibration": ("/calibrate", "#diag tr"),
    "calibration-asking": ("/calibrate", "#diag tr"),
    "health": ("/health", "main section"),
    "backups": ("/box", "#backups"),
    "wifi": ("/wifi", "#wifi-said"),
    "board-editor": ("/boards/new", "#board path"),
    "score-sheet": ("/cards/sheet", "#sheet"),
    "missing-game": ("/games/no-such-game", "main a[href='/']"),
    "history": ("/history", "#plays .play-card"),
    "player": ("/players/1", ".figures"),  # Ann, seated first in the first game made
    "missing-player": ("/players/9999", "main a[href='/history']"),
    "table-view": ("/table", "#tv-kind:not(:empty)"),  # in the box's language, not the phone's
}


def calibration_asking(page: Any) -> None:
    """Ask to zero the rings (the question open) and set a ring to a slot there is not (the
    refusal shown next to Set): the calibration page with every word it has."""
    page.click("#zero")
    page.fill("#set-ring-offset", "99")
    page.click("#set-ring button[type=submit]")
    page.wait_for_selector("#set-ring + .feedback.error:not([hidden])")


#: Page name to what is done on it, once drawn, before it is measured (a dialog opened, an
#: error shown: the state with the most words).
PREPARE: dict[str, Callable[[Any], None]] = {
    "calibration-asking": calibration_asking,
}

TWO_SEATS = [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}]
#: All slots black, the only entrance at spoke 2 (Ann's): Ann enters every turn and wins.
OPEN_BOARD = open_board("Open sixteen")


def played_out(engine: Any, setup: dict[str, Any], choose: Callable[[Any], Any]) -> dict[str, Any]:
    """Return ``setup`` as a record played to its end by ``choose(state)``."""
    state = engine.new_game(setup)
    steps = []
    while not engine.is_over(state):
        action = choose(state)
        steps.append(engine.action_to_json(action))
        state = engine.apply(state, action)
        assert len(steps) < 2000, "the game does not end"
    return {**setup, engine.ACTIONS_KEY: steps}


def make_games(base: str, owner: dict[str, str]) -> dict[str, str]:
    """Create every game the pages show, in play and over; return their ids by name."""
    rng = random.Random(22)

    def legal(module: Any) -> Callable[[Any], Any]:
        return lambda state: rng.choice(module.legal_actions(state))

    no_dice = rings.Turn(dict.fromkeys(["red", "blue", "green", "yellow", "brown"], 0), ())
    cards_table = {"game": "cards", "seats": ["Ann", "Bo"], "mode": "table"}
    cards_play = {"game": "cards", "seats": ["Ann", "Bo"], "mode": "play", "seed": 5}
    stones_setup = {"game": "stones", **stones.random_setup(3, ["Ann", "Bo", "Cy"])}
    created = {
        "rings-in-play": {
            "kind": "rings",
            "seats": TWO_SEATS,
            "board": "reference",
            "variant": "standard",
        },
        "rings-over": {
            "record": played_out(
                rings,
                {"game": "rings", "board": OPEN_BOARD, "variant": "standard", "seats": TWO_SEATS},
                lambda state: no_dice,
            )
        },
        "icehouse-in-play": {"kind": "icehouse", "seats": ["Ann", "Bo", "Cy"], "seed": 4},
        "icehouse-over": {
            "record": played_out(
                icehouse,
                {"game": "icehouse", "seats": icehouse_game.SEATS, "path": block_path()},
                legal(icehouse),
            )
        },
        "cards-table-in-play": {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "table"},
        "cards-table-over": {"record": played_out(cards, cards_table, legal(cards))},
        "cards-play-in-play": {"kind": "cards", "seats": ["Ann", "Bo"], "mode": "play"},
        "cards-play-over": {"record": played_out(cards, cards_play, legal(cards))},
        "stones-in-play": {"kind": "stones", "seats": ["Ann", "Bo", "Cy"], "seed": 3},
        "stones-over": {"record": played_out(stones, stones_setup, legal(stones))},
    }
    return {
        name: api(base, "/api/games", body, owner)["id"]  # importing needs the owner
        for name, body in created.items()
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str], str]]:
    """One ``mandala serve --emulate`` with every game; yields its URL, the games' ids and
    the owner's token."""
    data = tmp_path_factory.mktemp("pages") / "data"
    with serve_emulated(data) as base:
        token = pair_owner(base, data)
        yield base, make_games(base, {"X-Owner-Token": token}), token


@pytest.fixture(scope="module")
def contexts(site: tuple[str, dict[str, str], str]) -> Iterator[dict[str, Any]]:
    """One browser; one context per view (size, colour scheme, owner), made on first use."""
    base, _, token = site
    with chromium() as browser:
        made: dict[str, Any] = {}

        def context(view: str) -> Any:
            if view not in made:
                size, scheme, is_owner = VIEWS[view]
                made[view] = browser.new_context(
                    viewport={"width": size[0], "height": size[1]},
                    color_scheme=scheme,
                    locale="de-DE" if view in GERMAN_VIEWS else "en-GB",
                    bypass_csp=True,  # lets the test inject axe-core; the page's own rules stay
                )
                if is_owner:
                    cookie = {"name": "mandala_owner", "value": token, "url": base + "/"}
                    made[view].add_cookies([{**cookie, "httpOnly": True, "sameSite": "Strict"}])
            return made[view]

        yield {"context": context, "browser": browser}
        for opened in made.values():
            opened.close()


MEASURE = """() => {
  const root = document.documentElement;
  const width = root.clientWidth;
  const describe = (node) => {
    const label = (node.getAttribute("aria-label") || node.textContent || "").trim();
    return node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") +
      (node.getAttribute("class") ? "." + node.getAttribute("class").split(" ").join(".") : "") +
      (label ? ' "' + label.slice(0, 30) + '"' : "");
  };
  const seen = (node) => {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" &&
      !node.closest("[hidden], details:not([open]) > :not(summary)");
  };
  const scrolled = (node) => {  /* inside a box that scrolls (or clips) on its own */
    for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  const wide = [...document.body.querySelectorAll("*")].filter((node) => seen(node) &&
    node.getBoundingClientRect().right > width + 0.5 && !scrolled(node)).map(describe);
  const controls = new Set(document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], " +
    "[onclick], [tabindex]:not([tabindex='-1'])"));
  for (const node of document.body.querySelectorAll("*")) {
    /* anything that shows a pointing hand is tapped (clickable SVG pieces included); its
       children inherit the cursor, so only the outermost counts */
    if (getComputedStyle(node).cursor === "pointer" &&
        getComputedStyle(node.parentElement).cursor !== "pointer") controls.add(node);
  }
  const small = [];
  for (const node of controls) {
    if (!seen(node) || node.closest("[inert]")) continue;  // inert: not tapped, not focused
    const box = node.getBoundingClientRect();
    if (box.width < 44 - 0.5 || box.height < 44 - 0.5) {
      small.push(describe(node) + ` ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return { scrollWidth: Math.max(root.scrollWidth, document.body.scrollWidth), width,
    wide: wide.slice(0, 8), small };
}"""


@pytest.fixture(scope="module")
def measured(
    site: tuple[str, dict[str, str], str], contexts: dict[str, Any]
) -> Callable[[str, str], dict[str, Any]]:
    """Load a page in a view once; return what it measured (sizes, small controls, axe)."""
    base, games, _ = site
    cache: dict[tuple[str, str], dict[str, Any]] = {}

    def measure(name: str, view: str) -> dict[str, Any]:
        if (name, view) in cache:
            return cache[(name, view)]
        where, ready = PAGES[name]
        path = "/games/" + games[where[5:]] if where.startswith("game:") else where
        page = phone(contexts["browser"], base, contexts["context"](view), VIEWS[view][0])
        page.goto(base + path)
        page.wait_for_selector(ready, state="attached")
        if name in PREPARE:
            PREPARE[name](page)
        page.evaluate("document.fonts.ready")
        result = page.evaluate(MEASURE)
        page.add_script_tag(path=str(AXE))
        answer = page.evaluate(
            "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
        )
        result["axe"] = [
            f"{v['id']} ({v['impact']}): {v['help']} at "
            + ", ".join(" ".join(node["target"]) for node in v["nodes"][:5])
            for v in answer
            if v["impact"] in ("serious", "critical")
        ]
        shot(page, f"page-{name}-{view}")
        result["errors"] = list(page.errors)
        page.close()
        cache[(name, view)] = result
        return result

    return measure


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("name", list(PAGES))
def test_no_page_is_wider_than_the_screen(
    measured: Callable[[str, str], dict[str, Any]], name: str, view: str
) -> None:
    result = measured(name, view)
    assert result["scrollWidth"] <= result["width"], "too wide: " + "; ".join(result["wide"])
    assert result["errors"] == []


@pytest.mark.parametrize("view", PHONE_VIEWS)
@pytest.mark.parametrize("name", list(PAGES))
def test_every_control_on_a_phone_is_at_least_44_px_square(
    measured: Callable[[str, str], dict[str, Any]], name: str, view: str
) -> None:
    small = measured(name, view)["small"]
    assert small == [], "under 44x44 px: " + "; ".join(small)


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_serious_or_critical_violation(
    measured: Callable[[str, str], dict[str, Any]], name: str, view: str
) -> None:
    violations = measured(name, view)["axe"]
    assert violations == [], "axe: " + "; ".join(violations)


def rules_broken(page: Any, *, on_phone: bool) -> list[str]:
    """What breaks the three rules on ``page`` as a test has brought it (an error shown, a
    form open): too wide, a control under 44x44 px on a phone, axe's serious or critical
    violations. For the states a page's own browser test reaches, in German too."""
    page.evaluate("document.fonts.ready")
    result = page.evaluate(MEASURE)
    broken = []
    if result["scrollWidth"] > result["width"]:
        broken.append("too wide: " + "; ".join(result["wide"]))
    if on_phone:
        broken += ["under 44x44 px: " + small for small in result["small"]]
    page.add_script_tag(path=str(AXE))
    answer = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    broken += [
        f"axe: {v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in answer
        if v["impact"] in ("serious", "critical")
    ]
    return broken
