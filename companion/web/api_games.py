"""``/api/games``: list, create or import, read, act, undo, delete and export games."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from companion.games.base import RecordError, as_dict, as_int, get
from companion.phrases import say
from companion.web.context import json_body, table
from companion.web.owner import owner_only, owner_token, owners, require_owner
from companion.web.viewer import host_cookie, keep_token, viewer

blueprint = Blueprint("api_games", __name__, url_prefix="/api/games")


def version_of(body: dict[str, object]) -> int:
    """Read the ``version`` the client last saw (a stale one is the table's 409)."""
    return as_int(get(body, "version", "request body"), "version", 0)


@blueprint.get("")
def list_games() -> Response:
    return jsonify(table().games_page(page_number()))


def page_number() -> int:
    """Read ``?page=N`` (1, the newest games, when absent).

    :raises RecordError: ``page: ...`` when it is not a whole number from 1.
    """
    text = request.args.get("page", "1")
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
        raise RecordError(f"page: expected a whole number from 1, got {text[:40]!r}")
    return int(text)


@blueprint.post("")
def create_game() -> tuple[Response, int]:
    body = json_body()
    if "record" in body:
        require_owner(say("import a game"))
    # Games a client creates per minute are capped; the owner's are not.
    is_owner = owners().owner_id(owner_token()) is not None
    counted = None if is_owner else request.remote_addr or "an unknown address"
    answer = table().create_game(body, counted, hidden_deck=True)
    response = jsonify(answer)
    host = answer.get("host_token")
    if isinstance(host, str):  # cards played on the panel: this phone is the host
        keep_token(response, host_cookie(str(answer["id"])), host)
    return response, 201


@blueprint.get("/<game_id>")
def get_game(game_id: str) -> Response:
    return jsonify(table().get_game(game_id, viewer(game_id)))


@blueprint.post("/<game_id>/actions")
def act(game_id: str) -> Response:
    body = json_body()
    action = as_dict(get(body, "action", "request body"), "action")
    return jsonify(table().act(game_id, version_of(body), action, viewer(game_id)))


@blueprint.post("/<game_id>/undo")
def undo(game_id: str) -> Response:
    return jsonify(table().undo(game_id, version_of(json_body()), viewer(game_id)))


@blueprint.delete("/<game_id>")
@owner_only(say("delete a game"))
def delete(game_id: str) -> Response:
    table().delete(game_id, viewer(game_id))
    return jsonify({"id": game_id, "deleted": True})


@blueprint.get("/<game_id>/record")
def record(game_id: str) -> Response:
    response = jsonify(table().export(game_id))
    response.headers["Content-Disposition"] = f'attachment; filename="{safe_name(game_id)}.json"'
    return response


def safe_name(game_id: str) -> str:
    """Make a file name of a game id (letters, digits, ``-`` and ``_`` only)."""
    kept = "".join(c for c in game_id if c.isascii() and (c.isalnum() or c in "-_"))
    return f"mandala-{kept or 'game'}"
