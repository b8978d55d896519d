"""The :class:`Game` as the table thread keeps it: its journal, its states and their notes.

The table (``companion.table.service``) owns every ``Game``; the adapters
(``companion.table.adapters``) and the computer seats read them on the table thread.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import JSON, Engine


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
