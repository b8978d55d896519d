"""``/api/health``: the doctor's checks on the running companion, its guided tests, the bundle.

``GET /api/health`` runs every check against the hardware the server holds (emulated or
real) and this machine's data directory, database and clock, and answers them with the
ring test's progress, the buttons seen and the LED test's step; ``GET /api/health/live``
answers only the last three (cheap enough to poll). The ACTIONS are the box owner's
(``companion.web.owner``: 403 ``owner_required`` for everyone else):
``POST /api/health/ring-test`` (start the guided ring test), ``POST /api/health/leds``
(``{"show": "spokes"|"entrances"|"bases"|"scores"|"off"}`` or ``{"show": "pixel", "pixel":
n}``) and ``GET /api/health/bundle`` (the diagnostics .zip).
"""

from __future__ import annotations

import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from companion.doctor.bundle import make_bundle, map_text
from companion.doctor.checks import (
    Check,
    check_clock,
    check_data_dir,
    check_database,
    run_checks,
)
from companion.doctor.probes import (
    HostDisk,
    HostFiles,
    SqliteDatabase,
    SystemClock,
    running_probes,
)
from companion.games.base import as_str, check_keys, get
from companion.table.schema import SCHEMA_VERSION
from companion.table.store import DB_NAME
from companion.web.context import json_body, table
from companion.web.owner import owner_only

blueprint = Blueprint("api_health", __name__, url_prefix="/api/health")


def current_checks() -> list[Check]:
    """Every check against the running companion (fewer when no ring board is attached)."""
    service = table()
    hardware = service.hardware
    data_dir = service.data_dir
    if hardware is None:
        return [
            Check("hardware", "warn", "no ring board is attached to this companion"),
            check_data_dir(data_dir, HostDisk(), serving=True),
            check_database(data_dir / DB_NAME, SqliteDatabase(), SCHEMA_VERSION),
            check_clock(SystemClock(HostFiles())),
        ]
    probes = running_probes(hardware)
    return run_checks(
        hardware.pin_map,
        data_dir,
        probes,
        schema_version=SCHEMA_VERSION,
        db_name=DB_NAME,
        serving=True,
    )


@blueprint.get("")
def health() -> Response:
    hardware = table().hardware
    answer: dict[str, Any] = {
        "checks": [check.to_json() for check in current_checks()],
        "emulated": bool(hardware is not None and hardware.emulated),
        **table().health_view(),
    }
    return jsonify(answer)


@blueprint.get("/live")
def live() -> Response:
    return jsonify(table().health_view())


@blueprint.post("/ring-test")
@owner_only("start the ring test")
def ring_test() -> Response:
    check_keys(json_body(empty={}), "request body", ())
    return jsonify(table().start_ring_test())


@blueprint.post("/leds")
@owner_only("run the LED test")
def leds() -> Response:
    body = json_body()
    check_keys(body, "request body", ("show",), ("pixel",))
    return jsonify(table().led_test(as_str(get(body, "show"), "show"), body.get("pixel")))


@blueprint.get("/bundle")
@owner_only("download the diagnostics bundle")
def bundle() -> Response:
    service = table()
    hardware = service.hardware
    options = current_app.config.get("SERVE_OPTIONS")
    config_file: Path | None = current_app.config.get("CONFIG_FILE")
    logs = current_app.config.get("LOG_BUFFER")
    maps: dict[str, str] = {}
    parsed: dict[str, Any] = {}
    sensors: Any = None
    if hardware is not None:
        bundled = "pins-pwm.toml" if hardware.emulated else "pins.toml"
        maps["pins.toml"] = map_text(getattr(options, "pin_map", None), bundled)
        maps["leds.toml"] = map_text(getattr(options, "led_map", None), "leds.toml")
        parsed = {"pin_map": hardware.pin_map, "led_map": hardware.led_map}
        sensors = [asdict(status) for status in hardware.bank.status()]
    config_text = None
    if config_file is not None:
        try:
            config_text = Path(config_file).read_text(encoding="utf-8")
        except OSError as error:
            config_text = f"# {config_file}: cannot be read: {error.strerror or error}\n"
    data = make_bundle(
        current_checks(),
        config_text,
        options,
        maps,
        parsed,
        {"rings": sensors, "health": service.health_view()},
        service.status(),
        logs.lines() if logs is not None else [],
    )
    name = time.strftime("mandala-diagnostics-%Y%m%d-%H%M%S.zip")
    response = Response(data, mimetype="application/zip")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response
