"""The games list as the home page and ``GET /api/games`` show it, and each seat's colour.

Pure functions of the table's games (kept in the order they were created): a page of the
newest, each game's listing (who is to move or won, the scores, the seats' colours) and
each player's colour from their earliest ring-board game (``companion.table.colours``).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable

from companion.games.base import JSON
from companion.table import colours
from companion.table.adapters import adapter
from companion.table.game import Game, iso

PAGE_SIZE = 20
"""Games per page of the list (``GET /api/games?page=N``, the home page, live updates)."""


def known_colours(games: Iterable[Game]) -> dict[str, str]:
    """Each player's colour from their earliest game whose record names one."""
    return colours.known_colours(
        (game.created, adapter(game.kind).seat_colours(game)) for game in games
    )


def seat_colours(game: Game, known: dict[str, str]) -> list[str]:
    """The colour each seat of ``game`` shows, in seat order."""
    return colours.seat_colours(adapter(game.kind).seat_colours(game), known)


def listing(game: Game, known: dict[str, str], active: str | None) -> dict[str, JSON]:
    """One game as the list shows it (``active``: the game on the ring board)."""
    entry: dict[str, JSON] = {
        "id": game.id,
        "kind": game.kind,
        "seats": game.seat_names(),
        "version": game.version,
        "over": game.over,
        "created": iso(game.created),
        "updated": iso(game.updated),
        "on_board": game.id == active,
        "error": game.error,
        "colours": seat_colours(game, known),
    }
    if game.error is None:  # who is to move or won, and the score, as a family reads it
        summary = game.engine.summary(game.state)
        entry.update((key, summary.get(key)) for key in ("to_move", "winner", "scores"))
    return entry


def newest(games: Collection[Game], skip: int, active: str | None) -> list[dict[str, JSON]]:
    """The listings of :data:`PAGE_SIZE` games after the ``skip`` newest (newest first)."""
    known = known_colours(games)
    kept = itertools.islice(reversed(list(games)), skip, skip + PAGE_SIZE)
    return [listing(game, known, active) for game in kept]


def page_of(games: Collection[Game], page: int, active: str | None) -> dict[str, JSON]:
    """Page ``page`` (from 1) of the games: ``{"games", "page", "pages", "total"}``."""
    total = len(games)
    shown = newest(games, (page - 1) * PAGE_SIZE, active) if page <= total else []
    pages = max(1, -(-total // PAGE_SIZE))
    return {"games": list(shown), "page": page, "pages": pages, "total": total}
