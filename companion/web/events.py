"""``/api/events``: Server-Sent Events, the current state first, then every change.

Each item of the table's subscription goes out as one ``data:`` line of JSON (its ``type``
says what changed; the JSON was made once for every stream, see ``companion.table.hub``);
an idle stream gets a comment line every ``SSE_HEARTBEAT_SECONDS`` so phones and proxies keep
it open. A phone that reconnects (EventSource does so by itself, after the ``retry`` we send)
gets the current state again. ``?view=table`` (the table view) is the shared view whatever
the request's tokens, so a screen that also holds a seat is never sent its hand.

No client can hold what others need: the table limits the streams per client address; a
stream whose client went away ends within :data:`POLL_SECONDS` (its place is free again);
a stream whose client does not read, so that more than ``SSE_UNSENT_BYTES`` wait unsent in
the server, is sent ``{"type": "reload"}`` and ended instead of buffering every change (the
panel reconnects and catches up from the current state); and every stream ends at once
when the server stops.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from flask import Blueprint, Response, current_app, request

from companion.table.seats import Viewer
from companion.web.context import Subscription, table
from companion.web.viewer import viewer

blueprint = Blueprint("events", __name__, url_prefix="/api")

RETRY_MS = 1000
POLL_SECONDS = 1.0
"""How often a stream with nothing to send looks whether its client is still there."""
RELOAD = {"type": "reload"}
"""The last item of a stream dropped for not reading: reconnect and take the current state."""


class Outlet:
    """What the web server says about one stream's connection: gone, and bytes not yet sent.

    Waitress puts its channel's ``check_client_disconnected`` in the environ; the channel it
    belongs to counts the bytes written but not sent (``total_outbufs_len``). WSGI has no
    standard way to ask either, so under another server a stream never looks gone and
    nothing counts as unsent.
    """

    def __init__(self, environ: Mapping[str, Any]) -> None:
        check = environ.get("waitress.client_disconnected")
        self._check: Callable[[], object] | None = check if callable(check) else None
        self._channel = getattr(check, "__self__", None)

    def gone(self) -> bool:
        """Say whether the client has closed its connection."""
        return self._check is not None and bool(self._check())

    def unsent(self) -> int:
        """How many bytes of this connection wait in the server, not yet taken by the client."""
        return int(getattr(self._channel, "total_outbufs_len", 0) or 0)


def stream(
    subscription: Subscription, heartbeat: float, outlet: Outlet, unsent_limit: int
) -> Iterator[str]:
    """Yield the SSE text of a subscription, with heartbeats while it is idle.

    Ends when the subscription is closed or the client has gone; ends after :data:`RELOAD`
    when more than ``unsent_limit`` bytes wait unsent.
    """
    yield f"retry: {RETRY_MS}\n\n"
    last = time.monotonic()
    while not subscription.closed and not outlet.gone():
        if outlet.unsent() > unsent_limit:
            yield f"data: {json.dumps(RELOAD)}\n\n"
            return
        message = subscription.next(timeout=min(heartbeat, POLL_SECONDS))
        if message is not None:
            yield f"data: {message.text}\n\n"  # serialised once, when it was published
            last = time.monotonic()
        elif not subscription.closed and time.monotonic() - last >= heartbeat:
            yield ": heartbeat\n\n"
            last = time.monotonic()


@blueprint.get("/events")
def events() -> Response:
    # Each stream sees the games as its phone's tokens may (cards with hidden hands); the
    # caps on streams (per client, in all) raise Conflict (409).
    shared = request.args.get("view") == "table"
    subscription = table().subscribe(Viewer() if shared else viewer(), request.remote_addr)
    heartbeat = float(current_app.config["SSE_HEARTBEAT_SECONDS"])
    limit = int(current_app.config["SSE_UNSENT_BYTES"])
    body = stream(subscription, heartbeat, Outlet(request.environ), limit)
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.call_on_close(subscription.close)
    return response
