"""Change notifications: each subscriber gets the current state first, then every change.

The table thread publishes; a subscriber (one panel's ``/api/events`` stream) reads with
:meth:`Subscription.get` from its own thread. Publishing never blocks the table thread: a
subscriber that falls more than :data:`BACKLOG` items behind has its backlog replaced by a
fresh snapshot of the current state (it loses intermediate steps, never the present).

Each subscription has a ``viewer`` (who opened it; see ``companion.table.seats``): an item
published as a function is called once per subscription with its viewer, so a game with
hidden hands reaches each phone as that phone may see it.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from companion.table.errors import Conflict

Item = dict[str, Any] | Callable[[Any], dict[str, Any]]
"""What the table publishes: one item for everybody, or a function of the viewer."""

MAX_SUBSCRIBERS = 32
"""How many live streams the table serves at once; one more is refused with Conflict."""

BACKLOG = 256
"""How many undelivered items one subscriber may hold before it is resynchronised."""


class Subscription:
    """One live stream of changes (thread-safe; read by one consumer)."""

    def __init__(self, hub: Hub, first: dict[str, Any], viewer: Any = None) -> None:
        self._hub = hub
        self.viewer = viewer
        self._items: deque[dict[str, Any]] = deque([first])
        self._ready = threading.Condition()
        self.closed = False

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """Return the next item, or None when ``timeout`` seconds pass with none (or closed)."""
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

    def put(self, item: Item, snapshot: Callable[..., dict[str, Any]]) -> None:
        """Queue one item, rendered for this viewer when it is a function (called by the hub)."""
        with self._ready:
            if self.closed:
                return
            if len(self._items) >= BACKLOG:
                self._items.clear()
                self._items.append(snapshot(self.viewer))
            else:
                self._items.append(item(self.viewer) if callable(item) else item)
            self._ready.notify_all()


class Hub:
    """The set of subscriptions; :meth:`publish` is called by the table thread."""

    def __init__(self, snapshot: Callable[..., dict[str, Any]], limit: int = MAX_SUBSCRIBERS):
        """``snapshot(viewer)`` is the current state as that viewer may see it."""
        self._snapshot = snapshot
        self._limit = limit
        self._lock = threading.Lock()
        self._subscriptions: list[Subscription] = []

    def subscribe(self, first: dict[str, Any], viewer: Any = None) -> Subscription:
        """Open a stream for ``viewer`` whose first item is ``first``.

        :raises Conflict: when :data:`MAX_SUBSCRIBERS` streams are already open.
        """
        with self._lock:
            if len(self._subscriptions) >= self._limit:
                raise Conflict(
                    f"too many live streams: {self._limit} are open; close one and retry"
                )
            subscription = Subscription(self, first, viewer)
            self._subscriptions.append(subscription)
            return subscription

    def remove(self, subscription: Subscription) -> None:
        """Forget a closed stream."""
        with self._lock:
            if subscription in self._subscriptions:
                self._subscriptions.remove(subscription)

    def publish(self, item: Item) -> None:
        """Send one change to every open stream (a function: rendered per viewer)."""
        with self._lock:
            targets = list(self._subscriptions)
        for subscription in targets:
            subscription.put(item, self._snapshot)

    def count(self) -> int:
        """How many streams are open."""
        with self._lock:
            return len(self._subscriptions)
