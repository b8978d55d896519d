"""The games list's index in the store: what the list needs of every game, and its summaries.

The ``summaries`` table (schema 5) holds each game's list summary (``companion.table.listing``)
with the game version it is of; :func:`index` reads every game's row, seat names and stored
summary without reading a journal, :func:`save` stores summaries worked out again. A summary
only spares a replay: a stale or missing one is worked out from the game
(``companion.table.state``).
"""

from __future__ import annotations

import json
from typing import Any

from companion.table import clock
from companion.table.listing import Entry
from companion.table.store import Store


def index(store: Store) -> list[Entry]:
    """Every game's list entry (its row, seat names and stored summary), oldest first, with
    no journal read."""
    seats: dict[str, list[str]] = {}
    for game_id, name in store.db.execute(
        "SELECT game_id, name FROM seats ORDER BY game_id, seat"
    ).fetchall():
        seats.setdefault(str(game_id), []).append(str(name))
    rows = store.db.execute(
        "SELECT g.id, g.kind, g.version, g.created, g.updated, s.version, s.summary, g.clock"
        " FROM games AS g LEFT JOIN summaries AS s ON s.game_id = g.id"
        " ORDER BY g.created, g.id"
    ).fetchall()
    return [
        Entry(
            id=row[0],
            kind=row[1],
            seats=seats.get(row[0], []),
            version=row[2],
            created=row[3],
            updated=row[4],
            summarised=-1 if row[5] is None else int(row[5]),
            summary=_summary(row[6]),
            time_from_phone=row[7] == clock.PHONE,
        )
        for row in rows
    ]


def save(store: Store, summaries: list[tuple[str, int, dict[str, Any]]]) -> None:
    """Store games' list summaries: ``(game id, the version it is of, summary)`` each.

    One transaction for many games, made when the list worked them out or the table
    closes, never per turn. :raises StorageError: not saved (nothing changed).
    """
    with store.transaction("summaries") as db:
        db.executemany(
            "INSERT INTO summaries (game_id, version, summary)"
            " SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE id = ?)"
            " ON CONFLICT (game_id) DO UPDATE SET"
            " version = excluded.version, summary = excluded.summary",
            [(key, version, json.dumps(value), key) for key, version, value in summaries],
        )


def _summary(text: str | None) -> dict[str, Any] | None:
    try:
        found = json.loads(text) if text else None
    except ValueError:
        return None
    return found if isinstance(found, dict) else None
