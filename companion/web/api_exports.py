"""Finished plays for other tools: BG Stats' play link and BoardGameGeek's text per game.

``GET /api/games/<id>/bgstats`` answers ``{"url", "web_url", "play"}`` (the BG Stats app's
and web version's link, and the play's JSON inside them); ``GET /api/games/<id>/bgg.txt``
the lines to copy into BoardGameGeek's "log play" form. Both answer 409 while the game is
not over and 404 for no such game. What they show is made in
``companion.table.play_export`` from the finished record only.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.table import Conflict
from companion.table import play_export as export
from companion.table.adapters.result import Result
from companion.web.context import table

blueprint = Blueprint("api_exports", __name__, url_prefix="/api")


def finished(game_id: str) -> export.ExportPlay:
    """The finished play of game ``game_id``.

    :raises NotFound: no such game. :raises Conflict: the game is not over yet.
    """
    result: Result | None = table().result(game_id)
    if result is None:
        raise Conflict(
            f"game {game_id!r} is not over yet: its play can be sent once it has a winner"
        )
    return export.from_result(game_id, result)


@blueprint.get("/games/<game_id>/bgstats")
def bgstats(game_id: str) -> Response:
    play = export.bgstats_play(finished(game_id))
    return jsonify({**export.bgstats_links(play), "play": play})


@blueprint.get("/games/<game_id>/bgg.txt")
def bgg_text(game_id: str) -> Response:
    return Response(export.bgg_text(finished(game_id)), mimetype="text/plain")
