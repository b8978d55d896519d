"""Change notifications: each subscriber gets the current state first, then every change.

The table thread publishes; a subscriber (one panel's ``/api/events`` stream) reads with
:meth:`Subscription.get` from its own thread. Publishing never blocks the table thread: a
subscriber that falls more than :data:`BACKLOG` items behind has its backlog replaced by a
fresh snapshot of the current state (it loses intermediate steps, never the present).

Each subscription has a ``viewer`` (who opened it; see ``companion.table.seats``): an item
published as a function is called with each viewer, so a game with hidden hands reaches each
phone as that phone may see it.

Each item is serialised to JSON once, when it is published (a :class:`Message`), however many
phones read it; an item published as a function once per distinct viewer.

Places are limited per client (:data:`PER_CLIENT` streams per address, an IPv6 client by its
/64 network, which a device's privacy addresses share) and in all (:data:`MAX_SUBSCRIBERS`,
what the web server has threads for), so one device cannot take every place.
"""

from __future__ import annotations

import ipaddress
import json
import threading
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from companion.phrases import say
from companion.table.errors import Conflict

Item = dict[str, Any] | Callable[[Any], dict[str, Any]]
"""What the table publishes: one item for everybody, or a function of the viewer."""

MAX_SUBSCRIBERS = 64
"""How many live streams the table serves at once; one more is refused with Conflict."""

PER_CLIENT = 8
"""How many live streams one client address may hold (a browser opens at most 6 per host)."""

BACKLOG = 256
"""How many undelivered items one subscriber may hold before it is resynchronised."""


class Message:
    """One published item and its JSON text, made once for every stream that sends it."""

    __slots__ = ("item", "text")

    def __init__(self, item: dict[str, Any]) -> None:
        self.item = item
        self.text = json.dumps(item, separators=(",", ":"))


class Subscription:
    """One live stream of changes (thread-safe; read by one consumer)."""

    def __init__(
        self, hub: Hub, first: dict[str, Any], viewer: Any = None, client: str | None = None
    ) -> None:
        self._hub = hub
        self.viewer = viewer
        self.client = client
        """The client's key for :data:`PER_CLIENT` (see :func:`client_key`), or None."""
        self._items: deque[Message] = deque([Message(first)])
        self._ready = threading.Condition()
        self.closed = False

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """Return the next item, or None when ``timeout`` seconds pass with none (or closed)."""
        message = self.next(timeout)
        return None if message is None else message.item

    def next(self, timeout: float | None = None) -> Message | None:
        """Return the next item with its JSON text, or None as :meth:`get` does."""
        with self._ready:
            if not self._items and not self.closed:
                self._ready.wait(timeout)
            if self._items:
                return self._items.popleft()
            return None

    def close(self) -> None:
        """Stop the stream and free its place (idempotent)."""
        with self._ready:
            self.closed = True
            self._items.clear()
            self._ready.notify_all()
        self._hub.remove(self)

    def put(
        self, message: Callable[[Any], Message], snapshot: Callable[..., dict[str, Any]]
    ) -> None:
        """Queue ``message(viewer)`` for this viewer (called by the hub)."""
        with self._ready:
            if self.closed:
                return
            if len(self._items) >= BACKLOG:
                self._items.clear()
                self._items.append(Message(snapshot(self.viewer)))
            else:
                self._items.append(message(self.viewer))
            self._ready.notify_all()


class Hub:
    """The set of subscriptions; :meth:`publish` is called by the table thread."""

    def __init__(self, snapshot: Callable[..., dict[str, Any]], limit: int = MAX_SUBSCRIBERS):
        """``snapshot(viewer)`` is the current state as that viewer may see it."""
        self._snapshot = snapshot
        self._limit = limit
        self._lock = threading.Lock()
        self._subscriptions: list[Subscription] = []
        self._stopped = False

    def subscribe(
        self, first: dict[str, Any], viewer: Any = None, client: str | None = None
    ) -> Subscription:
        """Open a stream for ``viewer`` whose first item is ``first``.

        ``client`` is the address the stream comes from (None: not counted per client).

        :raises Conflict: when this client already holds :data:`PER_CLIENT` streams, or
            :data:`MAX_SUBSCRIBERS` streams are open in all, or the hub was closed.
        """
        key = None if client is None else client_key(client)
        with self._lock:
            if self._stopped:
                raise Conflict.said(say("the companion is stopping; reconnect in a moment"))
            held = Counter(s.client for s in self._subscriptions)
            if key is not None and held[key] >= PER_CLIENT:
                raise Conflict.said(
                    say(
                        "too many live streams from {client}: it holds {count}; "
                        "close a page of the panel and retry",
                        client=str(client),
                        count=PER_CLIENT,
                    )
                )
            if len(self._subscriptions) >= self._limit:
                raise Conflict.said(
                    say(
                        "too many live streams: {count} are open; close one and retry",
                        count=self._limit,
                    )
                )
            subscription = Subscription(self, first, viewer, key)
            self._subscriptions.append(subscription)
            return subscription

    def remove(self, subscription: Subscription) -> None:
        """Forget a closed stream."""
        with self._lock:
            if subscription in self._subscriptions:
                self._subscriptions.remove(subscription)

    def publish(self, item: Item) -> None:
        """Send one change to every open stream (a function: rendered once per viewer)."""
        with self._lock:
            targets = list(self._subscriptions)
        if not targets:
            return
        render = _renderer(item)
        for subscription in targets:
            subscription.put(render, self._snapshot)

    def count(self) -> int:
        """How many streams are open."""
        with self._lock:
            return len(self._subscriptions)

    def close_all(self) -> None:
        """Close every stream at once and open no more (the server is stopping)."""
        with self._lock:
            self._stopped = True
            targets = list(self._subscriptions)
        for subscription in targets:
            subscription.close()


def _renderer(item: Item) -> Callable[[Any], Message]:
    """The message of ``item`` for a viewer: one for everybody, or one per distinct viewer."""
    if not callable(item):
        message = Message(item)
        return lambda _viewer: message
    rendered: dict[Any, Message] = {}

    def render(viewer: Any) -> Message:
        if viewer not in rendered:
            rendered[viewer] = Message(item(viewer))
        return rendered[viewer]

    return render


def client_key(address: str) -> str:
    """The key a client's streams are counted under: its address, an IPv6 one by its /64."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)
