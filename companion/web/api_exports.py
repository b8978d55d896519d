"""Finished plays for other tools: BG Stats' play link, BoardGameGeek's text, CSV and JSON.

- ``GET /api/games/<id>/bgstats``: ``{"url", "web_url", "play"}``, the BG Stats app's and
  web version's link and the play's JSON inside them;
- ``GET /api/games/<id>/bgg.txt``: the lines to copy into BoardGameGeek's "log play" form;
- ``GET /api/plays.csv``: every finished play, one row per seat (a file to download);
- ``GET /api/plays.json``: ``{"plays": [...]}``, every finished play, newest first.

The per-game routes answer 409 while the game is not over and 404 for no such game. Plays
come from the logbook (each seat as its player now, with the player's id), or for a finished
game the logbook lacks, from its result; what they show is made in
``companion.table.play_export`` from the finished record only. The game pages and the
history get the same links through :func:`play_links` (a template global).
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, jsonify, request, url_for

from companion.phrases import say
from companion.table import Conflict, NotFound
from companion.table import play_export as export
from companion.table.adapters.result import Result
from companion.web.api_logbook import logbook
from companion.web.context import table

blueprint = Blueprint("api_exports", __name__, url_prefix="/api")


def finished(game_id: str) -> export.ExportPlay:
    """The finished play of game ``game_id``.

    :raises NotFound: no such game. :raises Conflict: the game is not over yet.
    """
    stored = logbook().play(game_id)
    if stored is not None:
        return export.from_play(stored)
    result: Result | None = table().result(game_id)
    if result is None:
        raise Conflict.said(
            say(
                "game {id} is not over yet: its play can be sent once it has a winner",
                id=repr(game_id),
            )
        )
    return export.from_result(game_id, result)


def every_play() -> list[export.ExportPlay]:
    """Every finished play, newest first."""
    return export.from_rows(logbook().seat_rows())


@blueprint.get("/games/<game_id>/bgstats")
def bgstats(game_id: str) -> Response:
    play = export.bgstats_play(finished(game_id))
    return jsonify({**export.bgstats_links(play), "play": play})


@blueprint.get("/games/<game_id>/bgg.txt")
def bgg_text(game_id: str) -> Response:
    return Response(export.bgg_text(finished(game_id)), mimetype="text/plain")


@blueprint.get("/plays.csv")
def plays_csv() -> Response:
    plays = every_play()

    def pieces() -> Iterator[bytes]:
        yield "\ufeff".encode()  # a byte-order mark: spreadsheets then read the names right
        for piece in export.plays_csv(plays):
            yield piece.encode()

    response = Response(pieces(), mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="mandala-plays.csv"'
    return response


@blueprint.get("/plays.json")
def plays_json() -> Response:
    response = jsonify({"plays": [export.play_json(play) for play in every_play()]})
    if request.args.get("download") == "1":
        response.headers["Content-Disposition"] = 'attachment; filename="mandala-plays.json"'
    return response


@blueprint.app_template_global()
def play_links(game_id: str) -> dict[str, str] | None:
    """The links of a finished game's play for a page (None while it is not over):
    ``{"url", "web_url"}`` (BG Stats' app and web version) and ``bgg`` (BoardGameGeek's
    text)."""
    try:
        play = finished(game_id)
    except (Conflict, NotFound):
        return None
    links = export.bgstats_links(export.bgstats_play(play))
    return {**links, "bgg": url_for("api_exports.bgg_text", game_id=game_id)}
