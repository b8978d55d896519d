"""The :class:`Game` as the table thread keeps it: its journal, its states and their notes.

A game keeps its current state, the few before it (what an undo needs) and one state in every
:data:`CHECKPOINT`; any other state is replayed from the nearest one kept (:class:`States`).

The table (``companion.table.table``) owns every ``Game``; the adapters
(``companion.table.adapters``) and the computer seats read them on the table thread;
:class:`SeatHost` is what those seats use of the table (public methods only).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, overload

from companion.games.base import JSON, Engine
from companion.phrases import Phrase
from companion.table.seats import Viewer

T = TypeVar("T")

RECENT = 4
"""The newest states a game keeps (the current one and three before it: undo needs them)."""
CHECKPOINT = 32
"""A game keeps state number ``i`` when ``i % CHECKPOINT == 0``: an older state is replayed
from the nearest of these (at most ``CHECKPOINT - 1`` steps)."""


class States(Sequence[Any]):
    """A game's states: the start, then the state after each of its journal's actions.

    Only the newest :data:`RECENT` and one in every :data:`CHECKPOINT` are kept; any other
    is replayed on demand (``redo(state, action)``: the engine's parse and apply) from the
    nearest kept one. Indexing (negative too), ``len`` and iterating answer as the list of
    every state would.
    """

    def __init__(self, start: Any, actions: list[JSON], redo: Callable[[Any, JSON], Any]):
        self._kept: dict[int, Any] = {0: start}
        self._count = 1
        self._actions = actions
        self._redo = redo

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return True

    def kept(self) -> int:
        """How many states are held in memory (the rest are replayed when asked)."""
        return len(self._kept)

    def append(self, state: Any) -> None:
        """The state after the newest action."""
        self._kept[self._count] = state
        self._count += 1
        old = self._count - 1 - RECENT
        if old > 0 and old % CHECKPOINT:
            self._kept.pop(old, None)

    def pop(self) -> Any:
        """Take back the newest state (its action was undone); answer it."""
        last = self[-1]
        self._count -= 1
        self._kept.pop(self._count, None)
        return last

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return list(self)[index]
        number = index + self._count if index < 0 else index
        if not 0 <= number < self._count:
            raise IndexError(f"state {index} of {self._count}")
        found = self._kept.get(number)
        if found is not None or number in self._kept:
            return found
        base = max(i for i in self._kept if i < number)
        state = self._kept[base]
        for obj in self._actions[base:number]:
            state = self._redo(state, obj)
        if number >= self._count - RECENT:
            self._kept[number] = state
        return state

    def __iter__(self) -> Iterator[Any]:
        state = self._kept[0]
        yield state
        for number in range(1, self._count):
            kept = self._kept.get(number)
            state = kept if kept is not None else self._redo(state, self._actions[number - 1])
            yield state


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
    states: States = field(init=False)
    """The start and the state after each action (:class:`States`; :meth:`begin` sets it)."""
    notes: list[list[Phrase]] = field(default_factory=list)
    """Per accepted action, the plain instructions of what it did (rings: ``describe``), as
    phrases: the panel says them in the phone's language (``.english()`` in English)."""
    error: str | None = None

    def begin(self, start: Any) -> None:
        """Start the game's states at ``start`` (before any action)."""
        engine = self.engine
        self.states = States(
            start,
            self.actions,
            lambda state, obj: engine.apply(state, engine.parse_action(state, obj)),
        )

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
        """The game ``game_id`` (replayed when not in memory), or ``None`` when it went
        (table thread)."""
        ...

    def games(self) -> list[Game]:
        """The games in memory, the most recently used (table thread)."""
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
