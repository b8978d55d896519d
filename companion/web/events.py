"""``/api/events``: Server-Sent Events, the current state first, then every change.

Each item of the table's subscription goes out as one ``data:`` line of JSON (its ``type``
says what changed); an idle stream gets a comment line every ``SSE_HEARTBEAT_SECONDS`` so
phones and proxies keep it open and a gone client is noticed. A phone that reconnects
(EventSource does so by itself, after the ``retry`` we send) gets the current state again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from flask import Blueprint, Response, current_app

from companion.web.service import Subscription, table
from companion.web.viewer import viewer

blueprint = Blueprint("events", __name__, url_prefix="/api")

RETRY_MS = 1000


def stream(subscription: Subscription, heartbeat: float) -> Iterator[str]:
    """Yield the SSE text of a subscription, with heartbeats while it is idle."""
    yield f"retry: {RETRY_MS}\n\n"
    while True:
        item = subscription.get(timeout=heartbeat)
        if item is None:
            yield ": heartbeat\n\n"
        else:
            yield f"data: {json.dumps(item, separators=(',', ':'))}\n\n"


@blueprint.get("/events")
def events() -> Response:
    # Each stream sees the games as its phone's tokens may (cards with hidden hands).
    subscription = table().subscribe(viewer())  # the cap on subscribers raises Conflict (409)
    heartbeat = float(current_app.config["SSE_HEARTBEAT_SECONDS"])
    response = Response(stream(subscription, heartbeat), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.call_on_close(subscription.close)
    return response
