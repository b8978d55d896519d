"""The card game's own routes: taking and freeing seats, the score sheet (cards.md 9).

``POST /api/games/<id>/seats/<n>/take`` gives a phone seat ``n``'s token (and keeps it in
a cookie); ``POST /api/games/<id>/seats/<n>/free`` (host only) forgets it. ``POST
/api/cards/score`` scores a sheet as ``mandala score`` does; ``GET /cards/sheet`` is the
page to enter one.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from companion.games.cards import COLOURS, score_sheet
from companion.web.context import json_body, table
from companion.web.pages import page_config
from companion.web.viewer import keep_token, seat_cookie, viewer

blueprint = Blueprint("api_cards", __name__)


@blueprint.post("/api/games/<game_id>/seats/<int:seat>/take")
def take_seat(game_id: str, seat: int) -> Response:
    json_body(empty={})  # no options yet; a body that is not a JSON object is malformed
    answer = table().take_seat(game_id, seat, viewer(game_id))
    response = jsonify(answer)
    keep_token(response, seat_cookie(game_id), str(answer["token"]))
    return response


@blueprint.post("/api/games/<game_id>/seats/<int:seat>/free")
def free_seat(game_id: str, seat: int) -> Response:
    json_body(empty={})
    return jsonify(table().free_seat(game_id, seat, viewer(game_id)))


@blueprint.post("/api/cards/score")
def score() -> Response:
    """Score ``{"game": "cards", "sheet": {...}}``: ``{"scores", "winner"}`` or a 400."""
    return jsonify(score_sheet(json_body()))


@blueprint.get("/cards/sheet")
def sheet() -> str:
    data = {"colours": list(COLOURS)}
    return render_template("cards_sheet.html", data=data, page=page_config())
