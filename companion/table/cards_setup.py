"""The companion's seat in a card game's setup: checked, read, and run by the card engine.

A card game played on the panel (mode ``play``) may have one seat played by the companion:
that seat is an object ``{"name": "Bo", "computer": "hard"}`` (``"easy"`` or ``"hard"``) in
the game's ``seats``; the other seat is a plain name (or an object without ``computer``): a
person's. The seat object stays in the stored setup, so the companion keeps its seat across
restarts. The card engine knows seat names only, so the table runs it through
:class:`CardsEngine`, which checks the seat objects and hands the engine the names.

The card game's adapter (``companion.table.adapters.cards``) and the seat's driver
(``companion.table.cards_companion``) both use this module; it imports neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import JSON, RecordError, as_str, check_keys, join
from companion.players import cards as players
from companion.table.errors import Forbidden
from companion.table.game import Game
from companion.table.seats import Viewer

COMPUTER = "computer"
COMPANION = Viewer(("the companion's own seat",))
"""The viewer the companion acts as; the table recognises this very object (not its token:
no digest of it is ever stored, so a request presenting the same text is nobody)."""


@dataclass(frozen=True)
class Companion:
    """The companion's seat of a game: its number, name and level."""

    seat: int
    name: str
    level: str


def companion_of(setup: Mapping[str, JSON]) -> Companion | None:
    """The companion's seat in a (checked) setup, or None when both seats are people's."""
    seats = setup.get("seats")
    for number, seat in enumerate(seats if isinstance(seats, list) else []):
        if isinstance(seat, dict) and isinstance(seat.get(COMPUTER), str):
            return Companion(number, str(seat.get("name", "")), str(seat[COMPUTER]))
    return None


def check_setup(setup: Mapping[str, JSON]) -> None:
    """Check the seat objects of a card game's setup.

    :raises RecordError: naming the key, e.g. ``seats[1].computer: 'medium' is not one of
        easy, hard`` or ``seats[1].computer: the companion plays only games played
        on the panel (mode 'play'), not a tracked table``.
    """
    seats = setup.get("seats")
    if not isinstance(seats, list):
        return  # the engine names what is wrong with the seats
    computers = []
    for number, seat in enumerate(seats):
        if not isinstance(seat, dict):
            continue
        where = join("seats", number)
        check_keys(seat, where, ["name"], ["name", COMPUTER])
        if seat.get(COMPUTER) is not None:
            as_str(seat[COMPUTER], join(where, COMPUTER), players.LEVELS)
            computers.append(join(where, COMPUTER))
    if not computers:
        return
    if setup.get("mode", "play") != "play":
        raise RecordError(
            f"{computers[0]}: the companion plays only games played on the panel "
            "(mode 'play'), not a tracked table"
        )
    if len(computers) > 1:
        raise RecordError(f"{computers[1]}: the companion plays one seat; the other is a person's")


def engine_setup(setup: Mapping[str, JSON]) -> dict[str, JSON]:
    """The setup as the card engine reads it: each seat object becomes its name."""
    out = dict(setup)
    seats = out.get("seats")
    if isinstance(seats, list):
        out["seats"] = [
            seat["name"] if isinstance(seat, dict) and "name" in seat else seat for seat in seats
        ]
    return out


class CardsEngine:
    """The card engine as the table runs it: seat objects (a companion's seat) allowed.

    Everything but the setup goes straight to the engine module ``inner``.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.KIND: str = inner.KIND
        self.ACTIONS_KEY: str = inner.ACTIONS_KEY
        self.STEP_WORD: str = inner.STEP_WORD

    def new_game(self, setup: Mapping[str, JSON]) -> Any:
        """Check the seat objects, then build the start from the names.

        :raises RecordError: naming the key.
        """
        check_setup(setup)
        return self.inner.new_game(engine_setup(setup))

    def parse_action(self, state: Any, obj: JSON) -> Any:
        """As the engine."""
        return self.inner.parse_action(state, obj)

    def apply(self, state: Any, action: Any) -> Any:
        """As the engine."""
        return self.inner.apply(state, action)

    def is_over(self, state: Any) -> bool:
        """As the engine."""
        return bool(self.inner.is_over(state))

    def summary(self, state: Any) -> dict[str, JSON]:
        """As the engine."""
        out: dict[str, JSON] = self.inner.summary(state)
        return out

    def action_to_json(self, action: Any) -> JSON:
        """As the engine."""
        out: JSON = self.inner.action_to_json(action)
        return out

    def export_setup(self, setup: Mapping[str, JSON]) -> dict[str, JSON]:
        """As the engine (seat objects kept: this is what the table stores)."""
        out: dict[str, JSON] = self.inner.export_setup(setup)
        return out


def check_seat(game: Game, seat: int, doing: str) -> None:
    """Refuse to take or free (``doing``) the companion's seat.

    :raises Forbidden: ``seat 1 (Bo) is the companion's: no phone may take it``.
    """
    companion = companion_of(game.setup)
    if companion is not None and companion.seat == seat:
        raise Forbidden(
            f"seat {seat} ({companion.name}) is the companion's: no phone may {doing} it"
        )
