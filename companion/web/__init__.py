"""The phone panel: a Flask app (HTTP API under ``/api``, server-rendered pages, live events).

What lives here: :func:`create_app` (the only place things are wired), one blueprint per area
(``api_games``, ``api_board``, ``api_boards``, ``api_box``, ``api_update``, ``api_health``,
``api_wifi``, ``api_join``, ``events``, ``owner``, ``pages``, ``table_view``; the logbook's
``api_logbook`` and ``logbook_pages``; the language's ``i18n``), the one JSON error helper
(``errors``), the owner guard (``owner.owner_only``) and what every view does first
(``context``). Views parse the request, call the table service and serialise its answer;
nothing else. The process around it (config, hardware, waitress, systemd) is wired in
``companion.serve``.

What must not: game rules (those are the engines'), state of its own (the table service owns
every game and the rings), threads other than waitress's, or anything fetched from the
internet (pages, scripts and styles are all served from ``static/``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from flask import Flask

from companion.box.address import Reach
from companion.web import (
    api_board,
    api_boards,
    api_box,
    api_cards,
    api_damaged,
    api_exports,
    api_games,
    api_health,
    api_join,
    api_logbook,
    api_update,
    api_wifi,
    errors,
    events,
    i18n,
    logbook_pages,
    owner,
    pages,
    plot_views,
    security,
    table_view,
)
from companion.web.api_advisor import blueprint as advisor_blueprint
from companion.web.context import DIAGNOSTICS_KEY, TABLE_KEY, Diagnostics, TableService

#: Defaults a caller's ``config`` may override.
DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 256 * 1024,  # the largest request body; more gets 413
    "SSE_HEARTBEAT_SECONDS": 15.0,  # a comment line on every idle live stream this often
    "SSE_UNSENT_BYTES": 256 * 1024,  # a live stream with more unsent is told to reload, ended
    "BOARDS_DIR": None,  # where the board editor saves (``<data>/boards``)
    "JSON_SORT_KEYS": False,
    "ALLOWED_HOSTS": [],  # host names answered besides the box's own (``security``)
    "UPDATE_INSTALL": None,  # the install an updater updates (``api_update``); None: no updater
    "LANGUAGE": "en",  # the box's language: the table view's, and a phone's that names none
}


def create_app(
    config: Mapping[str, Any] | None = None,
    *,
    table: TableService,
    more_errors: Sequence[errors.Mapping] = (),
    diagnostics: Diagnostics | None = None,
    wifi: api_wifi.WifiService | None = None,
    reach: Reach | None = None,
) -> Flask:
    """Build the panel around a running table service.

    ``config`` may set ``MAX_CONTENT_LENGTH``, ``SSE_HEARTBEAT_SECONDS`` and ``BOARDS_DIR``
    (a :class:`~pathlib.Path`; the board editor saves there and lists what is there).
    ``more_errors`` maps more error types (the firmware's, which this layer does not import) to a
    status and code, as :data:`companion.web.errors.MAPPED` does. ``diagnostics`` is the
    doctor the Health page asks (without one, ``/health`` and ``/api/health`` answer 404).
    ``wifi`` is the box's Wi-Fi (``companion.box.wifi_box.WifiBox``; without one, ``/api/wifi``
    answers 404 and the captive-portal probes are never answered). ``reach`` is what the
    server listens on (``companion.box.address.Reach``): the join codes' addresses (without
    one, ``/api/join`` and ``/join.svg`` answer 404 and the home page shows no code).
    """
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(dict(config or {}))
    if app.config["BOARDS_DIR"] is not None:
        app.config["BOARDS_DIR"] = Path(app.config["BOARDS_DIR"])
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions[TABLE_KEY] = table
    app.extensions[DIAGNOSTICS_KEY] = diagnostics
    app.extensions[api_join.REACH_KEY] = reach
    errors.register(app, (*more_errors, *api_wifi.ERRORS))
    api_wifi.register(app, wifi)  # the captive probes are answered before the Host check
    security.register(app)
    i18n.register(app)  # the language of each page, the switch, the scripts' catalogue
    for blueprint in (
        api_games.blueprint,
        api_board.blueprint,
        api_box.blueprint,
        api_update.blueprint,
        api_boards.blueprint,
        api_cards.blueprint,
        api_damaged.blueprint,
        api_exports.blueprint,
        advisor_blueprint,
        api_health.blueprint,
        api_join.blueprint,
        api_wifi.blueprint,
        events.blueprint,
        owner.blueprint,
        pages.blueprint,
        plot_views.blueprint,
        api_logbook.blueprint,
        logbook_pages.blueprint,
        table_view.blueprint,
    ):
        app.register_blueprint(blueprint)
    return app


__all__ = ["create_app"]
