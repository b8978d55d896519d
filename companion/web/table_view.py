"""The table view (``/table``): one game shown big on a screen in the middle of the table.

Read-only, and always the shared view (``Viewer()``): a browser that also holds a seat of a
hidden card game sees no hand or cup here, whatever its cookies say. The page follows the
live stream as ``/api/events?view=table`` (the same shared view, see ``events``) and asks
``GET /api/table`` again when another game may have become the one in play.

The game in play is the one something happened in last: a step taken (the games list's last
move, ``updated``) or, for the game on the ring board, a ring turned (the rings' last
movement); on a tie, the game on the ring board. ``GET /api/table?game=<id>`` shows that game
instead (the page asks for the game the stream just told of).
"""

from __future__ import annotations

import calendar
import time
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from companion.games.base import JSON
from companion.phrases import say
from companion.table import NotFound
from companion.table.adapters import adapter
from companion.table.seats import Viewer
from companion.web.context import table
from companion.web.i18n import speaks_for_box
from companion.web.pages import available_kinds, page_config, ring_setup

blueprint = Blueprint("table_view", __name__)

EVENTS_URL = "/api/events?view=table"
"""The stream the table view follows: every game as the shared view shows it."""


def seconds(stamp: object) -> float:
    """A list entry's ISO time (``2026-12-01T10:00:00Z``) as seconds since the epoch (0: none)."""
    try:
        return float(calendar.timegm(time.strptime(str(stamp), "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        return 0.0


def last_ring_movement(rings: dict[str, Any]) -> float:
    """When a ring of the board last moved (seconds since the epoch; 0: never)."""
    moved = [ring.get("last_movement") for ring in rings.get("rings", [])]
    return max((float(at) for at in moved if isinstance(at, int | float)), default=0.0)


def game_in_play(games: list[dict[str, Any]], rings: dict[str, Any]) -> str | None:
    """The id of the game something happened in last (see the module's docstring)."""
    on_board = rings.get("game")
    best: tuple[float, bool] | None = None
    chosen = None
    for listed in games:  # newest first: on a full tie the newest game wins
        moved = seconds(listed.get("updated"))
        board = listed.get("id") == on_board
        if board:
            moved = max(moved, last_ring_movement(rings))
        if best is None or (moved, board) > best:
            best, chosen = (moved, board), listed.get("id")
    return str(chosen) if chosen is not None else None


def scene(game_id: str | None) -> dict[str, JSON]:
    """What the table view draws: the games list, the sensed rings, the game shown (the
    shared view) and what its drawing needs (a ring game's board and seats, else the seats'
    colours).

    :raises NotFound: ``game_id`` names no game.
    """
    games: list[dict[str, Any]] = list(table().games_page(1)["games"])
    rings = table().board()
    shown = game_id if game_id is not None else game_in_play(games, rings)
    # As phrases: the view renders them in the box's language, and /api/table answers
    # whoever asks (a phone's Accept-Language would otherwise name the game in its own).
    names = {kind: adapter(kind).title_words.to_json() for kind in available_kinds()}
    found: dict[str, JSON] = {"games": games, "rings": rings, "game": None, "kind_names": names}
    if shown is None:
        return found
    view = table().get_game(shown, Viewer())
    found["game"] = view
    if adapter(str(view.get("kind"))).ring_board:
        found.update(ring_setup(shown))  # the game page's own: the board and the seats
    else:
        found["colours"] = table().seat_colours(shown)
    return found


def chosen_game() -> str | None:
    """The game asked for with ``?game=<id>`` (None: the game in play)."""
    asked = request.args.get("game")
    if asked is not None and not asked:
        raise NotFound.said(say("no game {game}", game=repr(asked)))
    return asked


@blueprint.get("/table")
@speaks_for_box  # read by everyone at the table: the box's language, not one phone's
def page() -> str:
    return render_template(
        "table.html", data=scene(chosen_game()), page=page_config(), events=EVENTS_URL
    )


@blueprint.get("/api/table")
def api_table() -> Response:
    return jsonify(scene(chosen_game()))
