"""``/api/board`` (the sensed rings: read, zero, set one) and ``/api/emulator`` (turn, press)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.games.base import as_int, check_keys, get
from companion.games.rings import RINGS
from companion.phrases import say
from companion.table import NotFound
from companion.web.context import json_body, table
from companion.web.owner import owner_only

blueprint = Blueprint("api_board", __name__, url_prefix="/api")

MAX_DETENTS = 1000
BUTTONS = ("done", "undo")


def ring_number(ring: int) -> int:
    """Check a ring number from the path (the routing already made it a whole number).

    :raises NotFound: when there is no such ring.
    """
    if not 0 <= ring < RINGS:
        raise NotFound(f"no ring {ring}; the rings are 0..{RINGS - 1}")
    return ring


@blueprint.get("/board")
def board() -> Response:
    return jsonify(table().board())


@blueprint.post("/board/zero")
@owner_only(say("zero the rings"))
def zero() -> Response:
    check_keys(json_body(empty={}), "request body", ())
    table().zero_rings()
    return jsonify(table().board())


@blueprint.post("/board/rings/<int:ring>/offset")
@owner_only(say("set a ring"))
def set_offset(ring: int) -> Response:
    body = json_body()
    check_keys(body, "request body", ("offset",))
    offset = as_int(get(body, "offset"), "offset", 0)
    table().set_ring_offset(ring_number(ring), offset)
    return jsonify(table().board())


@blueprint.post("/emulator/rings/<int:ring>/turn")
def turn(ring: int) -> Response:
    body = json_body()
    check_keys(body, "request body", ("detents",))
    detents = as_int(get(body, "detents"), "detents", -MAX_DETENTS, MAX_DETENTS)
    table().emulator_turn(ring_number(ring), detents)
    return jsonify({"ring": ring, "detents": detents})


@blueprint.post("/emulator/buttons/<name>/press")
def press(name: str) -> Response:
    check_keys(json_body(empty={}), "request body", ())
    if name not in BUTTONS:
        raise NotFound(f"no button {name!r}; the buttons are {', '.join(BUTTONS)}")
    table().emulator_press(name)
    return jsonify({"button": name, "pressed": True})
