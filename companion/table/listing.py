"""The games list as the home page and ``GET /api/games`` show it, and each seat's colour.

The list is made from an :class:`Entry` per stored game (the store's index row and a
summary of its state), never from a replayed journal: a game is replayed only when it is
opened (``companion.table.state``). A game in memory brings its entry up to date
(:func:`refresh`); a summary of an older version is worked out again by loading that game.
Pure functions otherwise: a page of the newest, each game's listing (who is to move or won,
the scores, the seats' colours) and each player's colour from their earliest ring-board game
(``companion.table.colours``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import JSON
from companion.table import clock, colours
from companion.table.adapters import adapter
from companion.table.game import Game, iso

PAGE_SIZE = 20
"""Games per page of the list (``GET /api/games?page=N``, the home page, live updates)."""
SUMMARY_FORM = 1
"""The shape of :func:`summary_of`; a stored summary of another form is worked out again."""


@dataclass
class Entry:
    """One game as the list knows it without its journal: the stored row and a summary.

    ``summary`` (:func:`summary_of`) is of version ``summarised``; it is stale (worked out
    again from the game) when that is not ``version``.
    """

    id: str
    kind: str
    seats: list[str]
    version: int
    created: float
    updated: float
    summarised: int = -1
    summary: dict[str, Any] | None = None
    time_from_phone: bool = False
    """Whether any of the game's stamps came from a phone's time (``companion.table.clock``)."""

    @property
    def fresh(self) -> bool:
        """Say whether the summary is of the game's version (and of this release's form)."""
        return (
            self.summary is not None
            and self.summarised == self.version
            and self.summary.get("form") == SUMMARY_FORM
        )

    @property
    def over(self) -> bool | None:
        """Whether the game has ended, as its summary says (None: no summary yet)."""
        return None if self.summary is None else bool(self.summary.get("over"))


def summary_of(game: Game) -> dict[str, Any]:
    """What the list shows of a game's state: over, error, to move, winner, scores, and
    each seat's name with the colour its record gives it (None: none)."""
    found: dict[str, Any] = {
        "form": SUMMARY_FORM,
        "over": game.over,
        "error": game.error,
        "colours": [list(pair) for pair in adapter(game.kind).seat_colours(game)],
    }
    if game.error is None:  # who is to move or won, and the score, as a family reads it
        summary = game.engine.summary(game.state)
        found.update((key, summary.get(key)) for key in ("to_move", "winner", "scores"))
    return found


def entry_of(game: Game) -> Entry:
    """A new game's entry."""
    entry = Entry(game.id, game.kind, game.seat_names(), game.version, game.created, 0.0)
    refresh(entry, game)
    return entry


def refresh(entry: Entry, game: Game) -> bool:
    """Bring ``entry`` up to ``game`` in memory; say whether its summary was worked out."""
    if (entry.version, entry.updated) != (game.version, game.updated):  # stored just now
        entry.time_from_phone = entry.time_from_phone or clock.from_phone()
    entry.version, entry.updated = game.version, game.updated
    if entry.fresh:
        return False
    entry.summary, entry.summarised = summary_of(game), game.version
    return True


def record_colours(entry: Entry) -> list[tuple[str, str | None]]:
    """Each seat's name and the colour its record gives it (a game's seats never change)."""
    pairs = (entry.summary or {}).get("colours")
    if not isinstance(pairs, list):
        return [(name, None) for name in entry.seats]
    return [(str(pair[0]), None if pair[1] is None else str(pair[1])) for pair in pairs]


def known_colours(entries: Iterable[Entry]) -> dict[str, str]:
    """Each player's colour from their earliest game whose record names one."""
    return colours.known_colours((entry.created, record_colours(entry)) for entry in entries)


def seat_colours(entry: Entry, known: dict[str, str]) -> list[str]:
    """The colour each seat of the game shows, in seat order."""
    return colours.seat_colours(record_colours(entry), known)


def listing(entry: Entry, known: dict[str, str], active: str | None) -> dict[str, JSON]:
    """One game as the list shows it (``active``: the game on the ring board)."""
    summary = entry.summary or {}
    shown: dict[str, JSON] = {
        "id": entry.id,
        "kind": entry.kind,
        "seats": list(entry.seats),
        "version": entry.version,
        "over": bool(summary.get("over")),
        "created": iso(entry.created),
        "updated": iso(entry.updated),
        "time_from": clock.PHONE if entry.time_from_phone else "box",
        "on_board": entry.id == active,
        "error": summary.get("error"),
        "colours": seat_colours(entry, known),
    }
    if summary.get("error") is None:
        shown.update((key, summary.get(key)) for key in ("to_move", "winner", "scores"))
    return shown


def newest(entries: Sequence[Entry], skip: int) -> list[Entry]:
    """The :data:`PAGE_SIZE` entries after the ``skip`` newest (newest first)."""
    end = len(entries) - skip
    return list(reversed(entries[max(0, end - PAGE_SIZE) : max(0, end)]))


def page_of(shown: list[dict[str, JSON]], page: int, total: int) -> dict[str, JSON]:
    """Page ``page`` (from 1) of ``total`` games: ``{"games", "page", "pages", "total"}``."""
    pages = max(1, -(-total // PAGE_SIZE))
    return {"games": list(shown), "page": page, "pages": pages, "total": total}
