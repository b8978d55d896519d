"""``/api/players`` and ``/api/plays``: the family logbook as JSON.

- ``GET /api/players``: ``{"players": [{"id", "name", "colour", "names", "plays", "wins",
  "win_rate", "last_played"}]}``, most plays first;
- ``GET /api/players/<id>``: ``{"player", "statistics"}`` (``logbook_stats.figures``);
- ``GET /api/players/<id>/versus/<other>``: their head-to-head (``logbook_stats.head_to_head``);
- ``POST /api/players/<id>/rename`` ``{"name"}`` and ``POST /api/players/<id>/merge``
  ``{"into": other id}`` (the owner only) answer the player after the change;
- ``GET /api/plays?page=N``: ``{"plays", "page", "pages", "total"}``, finished plays newest
  first, each with ``id``, ``kind``, ``started``, ``ended``, ``seats`` as ``[{"player",
  "score", "rank", "winner", ...}]``; ``GET /api/plays/abandoned``: ``{"games"}``, the games
  left unfinished (listed apart, never counted).
"""

from __future__ import annotations

from typing import Any, cast

from flask import Blueprint, Response, jsonify

from companion.games.base import as_int, check_keys, get
from companion.phrases import say
from companion.table.logbook import MAX_ID, Logbook
from companion.web.api_games import page_number
from companion.web.context import json_body, table
from companion.web.owner import owner_only

blueprint = Blueprint("api_logbook", __name__, url_prefix="/api")


def logbook() -> Logbook:
    """The running table's logbook."""
    return cast(Logbook, cast(Any, table()).logbook)


@blueprint.get("/players")
def players() -> Response:
    return jsonify({"players": logbook().players_json()})


@blueprint.get("/players/<int:player_id>")
def player(player_id: int) -> Response:
    found = logbook().player(player_id)
    return jsonify({"player": found.to_json(), "statistics": logbook().statistics(player_id)})


@blueprint.get("/players/<int:player_id>/versus/<int:other>")
def versus(player_id: int, other: int) -> Response:
    return jsonify(logbook().head_to_head(player_id, other))


@blueprint.post("/players/<int:player_id>/rename")
@owner_only(say("rename a player"))
def rename(player_id: int) -> Response:
    body = json_body()
    check_keys(body, "request body", ("name",))
    return jsonify({"player": logbook().rename(player_id, body["name"]).to_json()})


@blueprint.post("/players/<int:player_id>/merge")
@owner_only(say("merge two players"))
def merge(player_id: int) -> Response:
    body = json_body()
    check_keys(body, "request body", ("into",))
    into = as_int(get(body, "into", "request body"), "into", 1, MAX_ID)
    return jsonify({"player": logbook().merge(player_id, into).to_json()})


@blueprint.get("/plays")
def plays() -> Response:
    found = logbook().plays_page(page_number())
    return jsonify({**found, "plays": [play.to_json() for play in found["plays"]]})


@blueprint.get("/plays/abandoned")
def abandoned() -> Response:
    return jsonify({"games": logbook().abandoned()})
