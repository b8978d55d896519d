"""``/api/health``: the doctor's checks on the running companion, its guided tests, the bundle.

``GET /api/health`` runs every check against the hardware the server holds (emulated or
real) and this machine's data directory, database and clock, and answers them with the
ring test's progress, the buttons seen and the LED test's step; ``GET /api/health/live``
answers only the last three (cheap enough to poll). The ACTIONS are the box owner's
(``companion.web.owner``: 403 ``owner_required`` for everyone else):
``POST /api/health/ring-test`` (start the guided ring test), ``POST /api/health/leds``
(``{"show": "spokes"|"entrances"|"bases"|"scores"|"off"}`` or ``{"show": "pixel", "pixel":
n}``) and ``GET /api/health/bundle`` (the diagnostics .zip). The checks and the bundle are
the doctor's, handed to ``create_app(diagnostics=...)`` by the process wiring.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from companion.games.base import as_str, check_keys, get
from companion.phrases import say
from companion.web.context import diagnostics, json_body, table
from companion.web.owner import owner_only

blueprint = Blueprint("api_health", __name__, url_prefix="/api/health")


@blueprint.get("")
def health() -> Response:
    hardware = table().hardware
    answer: dict[str, Any] = {
        "checks": diagnostics().checks(table()),
        "emulated": bool(hardware is not None and hardware.emulated),
        **table().health_view(),
    }
    return jsonify(answer)


@blueprint.get("/live")
def live() -> Response:
    return jsonify(table().health_view())


@blueprint.post("/ring-test")
@owner_only(say("start the ring test"))
def ring_test() -> Response:
    check_keys(json_body(empty={}), "request body", ())
    return jsonify(table().start_ring_test())


@blueprint.post("/leds")
@owner_only(say("run the LED test"))
def leds() -> Response:
    body = json_body()
    check_keys(body, "request body", ("show",), ("pixel",))
    return jsonify(table().led_test(as_str(get(body, "show"), "show"), body.get("pixel")))


@blueprint.get("/bundle")
@owner_only(say("download the diagnostics bundle"))
def bundle() -> Response:
    name, data = diagnostics().bundle(table())
    response = Response(data, mimetype="application/zip")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response
