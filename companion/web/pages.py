"""The panel's pages: home, a game (the ring board or the generic view), calibration, health,
the board editor.

Pages are server-rendered; each embeds what it first shows as JSON (no extra round trip),
then its script follows ``/api/events`` and redraws.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

from flask import Blueprint, Response, current_app, json, render_template, request, url_for
from flask_babel import pgettext
from jinja2 import Template

from companion.games import ENGINES, rings
from companion.games.base import GAME_ERRORS
from companion.table import NotFound
from companion.table.adapters import adapter
from companion.table.colours import PALETTE
from companion.web.api_boards import find_board, saved_names
from companion.web.api_damaged import damaged_copies
from companion.web.api_games import page_number
from companion.web.api_join import has_reach
from companion.web.api_logbook import logbook
from companion.web.context import diagnostics, table
from companion.web.i18n import words
from companion.web.viewer import viewer

blueprint = Blueprint("pages", __name__)

#: Colour name to the letter shown beside it in English (colour is never the only signal);
#: :func:`letters` gives them in the page's language.
LETTERS = {
    "red": "R",
    "blue": "B",
    "green": "G",
    "yellow": "Y",
    "brown": "N",
    "orange": "O",
    "purple": "P",
    "cyan": "C",
    "pink": "I",
    "lime": "L",
    "teal": "T",
    "white": "W",
    "black": "K",
}


def letters() -> dict[str, str]:
    """Colour name to its letter in the page's language: one letter of the colour's name
    there, no two colours alike (docs/glossary-de.md lists the German ones)."""
    # Each is one letter of the colour's name, shown beside it and on the ring board;
    # no two colours may share one.
    return {
        "red": pgettext("letter of red", "R"),
        "blue": pgettext("letter of blue", "B"),
        "green": pgettext("letter of green", "G"),
        "yellow": pgettext("letter of yellow", "Y"),
        "brown": pgettext("letter of brown", "N"),
        "orange": pgettext("letter of orange", "O"),
        "purple": pgettext("letter of purple", "P"),
        "cyan": pgettext("letter of cyan", "C"),
        "pink": pgettext("letter of pink", "I"),
        "lime": pgettext("letter of lime", "L"),
        "teal": pgettext("letter of teal", "T"),
        "white": pgettext("letter of white", "W"),
        "black": pgettext("letter of black", "K"),
    }


SEAT_COLOURS = PALETTE
"""The colours a ring-board seat may pick on the new-game form (every player colour)."""


def available_kinds() -> list[str]:
    """Return the game kinds whose engines are installed now."""
    kinds = []
    for kind, module in ENGINES.items():
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        kinds.append(kind)
    return kinds


def new_game_forms(kinds: list[str]) -> dict[str, Any]:
    """Each kind's name (in the page's language) and new-game form fields, as its adapter
    gives them (home's form)."""
    return {
        kind: {"title": words(adapter(kind).title_words), **adapter(kind).form.to_json()}
        for kind in kinds
    }


def board_names() -> dict[str, list[str]]:
    """Return the boards a new ring game may use: the owner's, then the bundled ones."""
    return {"saved": saved_names(), "bundled": rings.bundled_board_names()}


def ring_setup(game_id: str) -> dict[str, Any]:
    """Return a ring game's board (as JSON) and seats (name, corner, colour) from its record."""
    record = table().export(game_id)
    folder = current_app.config["BOARDS_DIR"]
    board = rings.load_board(record.get("board"), [folder] if folder else [])
    seats = []
    for seat in record.get("seats", []):
        corner = int(seat.get("corner", 0))
        colour = seat.get("colour") or rings.SEAT_COLOURS[corner % len(rings.SEAT_COLOURS)]
        seats.append({"name": str(seat.get("name")), "corner": corner, "colour": colour})
    return {"board": rings.board_to_json(board), "seats": seats}


def page_config() -> dict[str, Any]:
    """Return what every page's script needs besides its data."""
    return {"letters": letters(), "detents_per_slot": current_app.config.get("DETENTS_PER_SLOT")}


#: The home-screen icons in ``static/icons/`` (``tools/icons.py`` draws them).
ICONS = [
    ("icons/icon.svg", "any", "image/svg+xml"),
    ("icons/icon-192.png", "192x192", "image/png"),
    ("icons/icon-512.png", "512x512", "image/png"),
]


@blueprint.get("/manifest.webmanifest")
def manifest() -> Response:
    """Describe the panel to a phone that adds it to its home screen (a web app manifest)."""
    body = {
        "name": "Mandala Companion",
        "short_name": "Mandala",
        "description": "The board game's bookkeeping: paths, pegs, scores and turns.",
        "start_url": url_for("pages.home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f4ef",
        "theme_color": "#23201b",
        "icons": [
            {
                "src": url_for("static", filename=path),
                "sizes": sizes,
                "type": kind,
                "purpose": "any",
            }
            for path, sizes, kind in ICONS
        ],
    }
    return Response(json.dumps(body), mimetype="application/manifest+json")


@blueprint.get("/")
def home() -> str:
    listing = table().games_page(page_number())
    kinds = available_kinds()
    forms = new_game_forms(kinds)
    data = {
        **listing,
        "boards": board_names(),
        "kinds": kinds,
        "kind_names": {kind: form["title"] for kind, form in forms.items()},
        "forms": forms,
        "player_colours": table().player_colours(),
        "known_players": logbook().known_names(),
        "palette": list(PALETTE),
    }
    return render_template(
        "home.html",
        data=data,
        page=page_config(),
        seat_colours=SEAT_COLOURS,
        damaged=damaged_copies(),
        joinable=has_reach(),
    )


@blueprint.get("/games/<game_id>")
def game(game_id: str) -> str | tuple[str, int]:
    try:
        answer = table().get_game(game_id, viewer(game_id))
    except NotFound:  # a page, with a way home (the API answers its JSON)
        page = render_template(
            "missing.html", data={"id": game_id}, page=page_config(), missing=True
        )
        return page, 404
    kind = str(answer.get("kind"))
    # Each game may ship its own page as ``templates/<kind>.html`` (it gets the game and
    # fetches anything more through the API); the generic page serves the rest.
    pages: list[str | Template] = [f"{kind}.html"] if kind in ENGINES else []
    pages.append("game.html")
    data: dict[str, Any] = {"game": answer}
    if adapter(kind).ring_board:  # the page draws the board and follows the sensed rings
        data.update(ring_setup(game_id), rings=table().board())
    else:
        data["colours"] = table().seat_colours(game_id)
    return render_template(pages, data=data, page=page_config())


@blueprint.get("/calibrate")
def calibrate() -> str:
    sensed = table().board()
    colours = None
    if isinstance(sensed.get("game"), str):
        board = ring_setup(sensed["game"])["board"]
        colours = [ring["colour"] for ring in board["rings"]]
    # The page shows "last move 12 s ago" from the Pi's clock, which need not agree with
    # the phone's: it sends its own time so the phone can tell the difference.
    data = {"rings": sensed, "boards": board_names(), "colours": colours, "now": time.time()}
    return render_template("calibrate.html", data=data, page=page_config())


@blueprint.get("/health")
def health() -> str:
    doctor = diagnostics()
    hardware = table().hardware
    roles: list[tuple[str, int]] = []
    count = 0
    if hardware is not None:
        count = int(hardware.pin_map.leds.count)
        roles = doctor.led_roles(hardware)
    data = {
        "checks": doctor.checks(table()),
        "emulated": bool(hardware is not None and hardware.emulated),
        "board": table().board(),
        "leds": {"count": count, "roles": roles},
        **table().health_view(),
    }
    return render_template("health.html", data=data, page=page_config())


@blueprint.get("/boards/new")
def editor() -> str:
    start = request.args.get("from", "reference")
    try:
        board = rings.board_to_json(find_board(start))
    except (*GAME_ERRORS, LookupError):
        board = rings.board_to_json(find_board(rings.bundled_board_names()[0]))
    data = {"board": board, "boards": board_names()}
    return render_template("editor.html", data=data, page=page_config())
