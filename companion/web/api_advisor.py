"""``/api/games/<id>/hints``: the ring-board advisor's best three options for the roll."""

from __future__ import annotations

from typing import Any, Protocol, cast

from flask import Blueprint, Response, jsonify

from companion.web.context import table

blueprint = Blueprint("api_advisor", __name__, url_prefix="/api/games")


class Advisor(Protocol):
    """The table's advisor (``companion.table.Table.hints``)."""

    def hints(self, game_id: str) -> dict[str, Any]: ...


@blueprint.get("/<game_id>/hints")
def hints(game_id: str) -> Response:
    """The best three rotation sets for the dice of the turn in progress, each with what it
    does; 404 for no such game, 409 before the dice, once over, or for another game kind."""
    return jsonify(cast(Advisor, table()).hints(game_id))
