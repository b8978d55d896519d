"""The :class:`Game` as the table thread keeps it: its journal, its states and their notes.

The table (``companion.table.table``) owns every ``Game``; the adapters
(``companion.table.adapters``) and the computer seats read them on the table thread;
:class:`SeatHost` is what those seats use of the table (public methods only).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from companion.games.base import JSON, Engine
from companion.table.seats import Viewer

T = TypeVar("T")


@dataclass
class Game:
    """One game as the table thread keeps it (mutable; owned by that thread)."""

    id: str
    kind: str
    engine: Engine
    setup: dict[str, JSON]
    version: int
    created: float
    updated: float
    seed: int
    rolls: int
    dice: dict[str, int] | None
    dice_source: str | None
    actions: list[JSON] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    notes: list[list[str]] = field(default_factory=list)
    """Per accepted action, the plain instructions of what it did (rings: ``describe``)."""
    error: str | None = None

    @property
    def state(self) -> Any:
        """The current state (the replay of the journal)."""
        return self.states[-1]

    @property
    def over(self) -> bool:
        """Say whether the game has ended."""
        return self.error is None and bool(self.engine.is_over(self.state))

    def seat_names(self) -> list[str]:
        """The seats' names in order."""
        names: list[str] = []
        seats = self.setup.get("seats")
        for seat in seats if isinstance(seats, list) else []:
            if isinstance(seat, dict):
                names.append(str(seat.get("name", "")))
            else:
                names.append(str(seat))
        return names


def iso(stamp: float) -> str:
    """A time as ISO 8601 in UTC to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


class SeatHost(Protocol):
    """What the seats the companion plays (``computer``, ``cards_companion``) use of the
    table: its public methods only (``companion.table.table.Table`` has them)."""

    def call(self, function: Callable[[], T]) -> T:
        """Run ``function`` on the table thread (from any thread)."""
        ...

    def find(self, game_id: str) -> Game:
        """The game ``game_id`` (table thread). :raises NotFound: no such game."""
        ...

    def game(self, game_id: str) -> Game | None:
        """The game ``game_id``, or ``None`` when it went (table thread)."""
        ...

    def games(self) -> list[Game]:
        """Every game here (table thread)."""
        ...

    def act(
        self,
        game_id: str,
        version: int,
        action: dict[str, JSON],
        viewer: Viewer | None = None,
    ) -> dict[str, JSON]:
        """Apply one step as ``viewer`` (the same path as a phone's)."""
        ...

    def changed(self, game: Game) -> None:
        """Tell the panel that ``game`` changed (table thread)."""
        ...
