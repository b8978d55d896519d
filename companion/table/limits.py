"""How many games a client may create: :data:`CREATES_PER_MINUTE` in any 60 seconds.

One phone created 383 games in 5 s; every stored game costs memory and disk. The table
counts the games each client address created (an IPv6 one by its /64 network, as the live
streams do) over a sliding minute and refuses one more with :class:`TooManyRequests`
(HTTP 429). The box's owner is not counted (restoring or importing many records).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

from companion.phrases import say
from companion.table.errors import TableError
from companion.table.hub import client_key

CREATES_PER_MINUTE = 20
"""New games one client may create in any :data:`WINDOW_SECONDS`."""
WINDOW_SECONDS = 60.0
MAX_CLIENTS = 1024
"""Clients remembered at once; beyond, those with nothing in the window are forgotten."""


class TooManyRequests(TableError):
    """A client went over its rate: HTTP 429; ``retry_after`` is the seconds to wait."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class CreateRate:
    """The games each client created in the last minute (used by the table thread only)."""

    def __init__(
        self,
        limit: int = CREATES_PER_MINUTE,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._created: dict[str, deque[float]] = {}

    def check(self, client: str) -> None:
        """Refuse when ``client`` already created :attr:`limit` games in the window.

        :raises TooManyRequests: ``too many new games from <client>: ...; try again in N s``.
        """
        now = self._clock()
        times = self._recent(client_key(client), now)
        if len(times) >= self.limit:
            wait = max(1, math.ceil(times[0] + self.window - now))
            said = say(
                "too many new games from {client}: {limit} in the last minute; "
                "try again in {wait} s",
                client=client,
                limit=self.limit,
                wait=wait,
            )
            refused = TooManyRequests(said.english(), wait)
            refused.phrase = said
            raise refused

    def record(self, client: str) -> None:
        """Count one game ``client`` created now."""
        key = client_key(client)
        now = self._clock()
        if key not in self._created and len(self._created) >= MAX_CLIENTS:
            for other in list(self._created):
                self._recent(other, now)
        self._created.setdefault(key, deque()).append(now)

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._created.get(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            self._created.pop(key, None)
        return times
