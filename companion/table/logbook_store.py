"""The logbook's rows: players and finished plays in the table's SQLite file.

Tables (``companion.table.schema`` migration 4):

- ``players``: one row per person (``id``, ``name`` shown, ``colour``, ``created``);
- ``player_names``: every name a seat was given that means that person (case ignored): a
  renamed player keeps the old name too, a merged one hands all of theirs over, so the
  seats of old games map to players by name;
- ``plays``: one row per finished game (``game_id`` is the play's id), the journal entry
  that finished it (``seq``; undoing it or deleting the game removes the play), its kind,
  variant, board, start and end and its own figures (JSON, e.g. the ring board's turns);
- ``play_seats``: each seat of a play in seat order: the player, the name it was played
  under, score, rank, whether it won (ties: every tied seat) and the seat's own figures.

Functions take the open connection; the writing ones run inside the caller's transaction
(the action that finishes a game writes its play in the same one). Readers:
:func:`plays_page` (newest first, paged), :func:`play`, :func:`every_play`,
:func:`players`, :func:`player`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import JSON
from companion.table.adapters.result import Result
from companion.table.colours import stable_pick
from companion.table.game import iso

PAGE_SIZE = 20
"""Plays per page of the history (``GET /api/plays?page=N``)."""


@dataclass(frozen=True)
class PlaySeat:
    """One seat of a finished play."""

    seat: int
    player_id: int
    player: str
    """The player's name now (renaming a player renames it in every play)."""
    name: str
    """The name the seat was played under."""
    score: int
    rank: int
    winner: bool
    figures: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """``{"player", "player_id", "name", "score", "rank", "winner", "figures"}``."""
        return {
            "player": self.player,
            "player_id": self.player_id,
            "name": self.name,
            "score": self.score,
            "rank": self.rank,
            "winner": self.winner,
            "figures": self.figures,
        }


@dataclass(frozen=True)
class Play:
    """A finished play: its game's id, kind, variant, board, times, seats and figures."""

    id: str
    kind: str
    variant: str | None
    board: str | None
    started: float
    ended: float
    seats: tuple[PlaySeat, ...]
    figures: dict[str, JSON] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[PlaySeat, ...]:
        """The seats that won (more than one: a tie)."""
        return tuple(seat for seat in self.seats if seat.winner)

    @property
    def minutes(self) -> int:
        """How long it lasted, in whole minutes (at least 1)."""
        return max(1, round((self.ended - self.started) / 60))

    def to_json(self) -> dict[str, JSON]:
        """The play as ``GET /api/plays`` lists it (times in UTC, ISO 8601)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "variant": self.variant,
            "board": self.board,
            "started": iso(self.started),
            "ended": iso(self.ended),
            "minutes": self.minutes,
            "tie": len(self.winners) > 1,
            "seats": [seat.to_json() for seat in self.seats],
            "figures": self.figures,
        }


@dataclass(frozen=True)
class Player:
    """A person of the logbook: an id, the name shown, a colour, the other names they had."""

    id: int
    name: str
    colour: str
    names: tuple[str, ...]

    def to_json(self) -> dict[str, JSON]:
        """``{"id", "name", "colour", "names"}``."""
        return {"id": self.id, "name": self.name, "colour": self.colour, "names": list(self.names)}


# Writing (inside the caller's transaction) ---------------------------------------------------


def player_for(db: sqlite3.Connection, name: str, colour: str | None, now: float) -> int:
    """The id of the player a seat named ``name`` is (case ignored), made when new.

    A new player gets ``colour`` (the seat's own, e.g. a ring-board peg colour), else the
    colour the panel picks from the name (``colours.stable_pick``). As on the panel, a
    player's first seat that names a colour gives them that colour from then on.
    """
    row = db.execute("SELECT player_id FROM player_names WHERE name = ?", (name,)).fetchone()
    if row is not None:
        if colour:  # still the name's pick: the first seat naming a colour gives its own
            db.execute(
                "UPDATE players SET colour = ? WHERE id = ? AND colour = ?",
                (colour, int(row[0]), stable_pick(name)),
            )
        return int(row[0])
    cursor = db.execute(
        "INSERT INTO players (name, colour, created) VALUES (?, ?, ?)",
        (name, colour or stable_pick(name), now),
    )
    player_id = int(cursor.lastrowid or 0)
    db.execute("INSERT INTO player_names (name, player_id) VALUES (?, ?)", (name, player_id))
    return player_id


def record_play(
    db: sqlite3.Connection,
    game_id: str,
    *,
    seq: int,
    result: Result,
    figures: dict[str, JSON],
    seat_figures: Sequence[dict[str, JSON]],
    colours: Sequence[str | None],
) -> None:
    """Store (or store again) the finished play of ``game_id`` from its result.

    ``seq`` is the journal entry that finished it (the play goes with it: an undo of that
    entry, or deleting the game, removes the play in the same transaction).
    ``seat_figures`` and ``colours`` (the seats' own colours, or None) are in seat order.
    """
    remove_play(db, game_id)
    db.execute(
        "INSERT INTO plays (game_id, seq, kind, variant, board, started, ended, figures)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game_id,
            seq if seq > 0 else None,
            result.kind,
            result.variant,
            result.board,
            result.started,
            result.ended,
            json.dumps(figures),
        ),
    )
    winners = set(result.winners)
    for number, seat in enumerate(result.seats):
        colour = colours[number] if number < len(colours) else None
        player_id = player_for(db, seat.name, colour, result.ended)
        extra = seat_figures[number] if number < len(seat_figures) else {}
        db.execute(
            "INSERT INTO play_seats (game_id, seat, player_id, name, score, rank, winner,"
            " figures) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                number,
                player_id,
                seat.name,
                seat.score,
                seat.rank,
                int(seat.name in winners),
                json.dumps(extra),
            ),
        )


def remove_play(db: sqlite3.Connection, game_id: str) -> None:
    """Forget the play of ``game_id``."""
    db.execute("DELETE FROM plays WHERE game_id = ?", (game_id,))


# Reading ----------------------------------------------------------------------------------

_PLAY_COLUMNS = "p.game_id, p.kind, p.variant, p.board, p.started, p.ended, p.figures"
_SEAT_QUERY = (
    "SELECT s.game_id, s.seat, s.player_id, pl.name, s.name, s.score, s.rank, s.winner,"
    " s.figures FROM play_seats s JOIN players pl ON pl.id = s.player_id"
)


def _plays(db: sqlite3.Connection, rows: list[Any]) -> list[Play]:
    """Build the plays of ``rows`` (``_PLAY_COLUMNS``) with their seats, in row order."""
    ids = [str(row[0]) for row in rows]
    seats: dict[str, list[PlaySeat]] = {game_id: [] for game_id in ids}
    for start in range(0, len(ids), 500):  # SQLite's host parameters are limited
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        query = f"{_SEAT_QUERY} WHERE s.game_id IN ({marks}) ORDER BY s.game_id, s.seat"
        for row in db.execute(query, chunk):
            seats[str(row[0])].append(_seat(row))
    return [
        Play(
            id=str(row[0]),
            kind=str(row[1]),
            variant=row[2],
            board=row[3],
            started=float(row[4]),
            ended=float(row[5]),
            seats=tuple(seats[str(row[0])]),
            figures=figures_of(row[6]),
        )
        for row in rows
    ]


def figures_of(text: str) -> dict[str, JSON]:
    """Read a stored figures object (most are empty)."""
    if text == "{}":
        return {}
    found: dict[str, JSON] = json.loads(text)
    return found


def _seat(row: Any) -> PlaySeat:
    return PlaySeat(
        seat=int(row[1]),
        player_id=int(row[2]),
        player=str(row[3]),
        name=str(row[4]),
        score=int(row[5]),
        rank=int(row[6]),
        winner=bool(row[7]),
        figures=figures_of(row[8]),
    )


def count_plays(db: sqlite3.Connection) -> int:
    """How many finished plays the logbook holds."""
    return int(db.execute("SELECT count(*) FROM plays").fetchone()[0])


def plays_page(db: sqlite3.Connection, page: int, size: int = PAGE_SIZE) -> dict[str, Any]:
    """Page ``page`` (from 1) of the plays, newest first: ``{"plays", "page", "pages",
    "total"}`` (``plays`` as :class:`Play`; a page past the last is empty)."""
    total = count_plays(db)
    rows = db.execute(
        f"SELECT {_PLAY_COLUMNS} FROM plays p ORDER BY p.ended DESC, p.game_id DESC"
        " LIMIT ? OFFSET ?",
        (size, (page - 1) * size),
    ).fetchall()
    pages = max(1, -(-total // size))
    return {"plays": _plays(db, rows), "page": page, "pages": pages, "total": total}


def play(db: sqlite3.Connection, game_id: str) -> Play | None:
    """The finished play of ``game_id``, or None (not finished, or no such game)."""
    rows = db.execute(
        f"SELECT {_PLAY_COLUMNS} FROM plays p WHERE p.game_id = ?", (game_id,)
    ).fetchall()
    found = _plays(db, rows)
    return found[0] if found else None


def every_play(db: sqlite3.Connection, batch: int = 500) -> Iterator[Play]:
    """Every play, newest first, read ``batch`` at a time (for the exports)."""
    offset = 0
    while True:
        rows = db.execute(
            f"SELECT {_PLAY_COLUMNS} FROM plays p ORDER BY p.ended DESC, p.game_id DESC"
            " LIMIT ? OFFSET ?",
            (batch, offset),
        ).fetchall()
        if not rows:
            return
        yield from _plays(db, rows)
        offset += batch


def plays_of(db: sqlite3.Connection, player_id: int, newest: int | None = None) -> list[Play]:
    """Every play ``player_id`` sat at, oldest first (for their statistics); with
    ``newest``, only that many of the latest, newest first."""
    order = "p.ended, p.game_id" if newest is None else "p.ended DESC, p.game_id DESC"
    rows = db.execute(
        f"SELECT {_PLAY_COLUMNS} FROM plays p WHERE p.game_id IN"
        f" (SELECT game_id FROM play_seats WHERE player_id = ?) ORDER BY {order} LIMIT ?",
        (player_id, -1 if newest is None else newest),
    ).fetchall()
    return _plays(db, rows)


def players(db: sqlite3.Connection) -> list[Player]:
    """Every player, by name (``players_with_totals`` lists them most plays first)."""
    names: dict[int, list[str]] = {}
    for name, player_id in db.execute("SELECT name, player_id FROM player_names ORDER BY name"):
        names.setdefault(int(player_id), []).append(str(name))
    rows = db.execute("SELECT id, name, colour FROM players ORDER BY name COLLATE NOCASE, id")
    return [_player(row, names.get(int(row[0]), [])) for row in rows]


def players_with_totals(db: sqlite3.Connection) -> list[tuple[Player, dict[str, JSON]]]:
    """Every player, most plays first, then by name, with ``{"plays", "wins",
    "last_played"}`` over every play (a shared win counts)."""
    names: dict[int, list[str]] = {}
    for name, player_id in db.execute("SELECT name, player_id FROM player_names ORDER BY name"):
        names.setdefault(int(player_id), []).append(str(name))
    rows = db.execute(
        "SELECT pl.id, pl.name, pl.colour, count(s.game_id) AS n, sum(s.winner), max(p.ended)"
        " FROM players pl LEFT JOIN play_seats s ON s.player_id = pl.id"
        " LEFT JOIN plays p ON p.game_id = s.game_id"
        " GROUP BY pl.id ORDER BY n DESC, pl.name COLLATE NOCASE"
    ).fetchall()
    return [
        (
            _player(row, names.get(int(row[0]), [])),
            {
                "plays": int(row[3]),
                "wins": int(row[4] or 0),
                "last_played": None if row[5] is None else iso(float(row[5])),
            },
        )
        for row in rows
    ]


def player(db: sqlite3.Connection, player_id: int) -> Player | None:
    """The player ``player_id``, or None."""
    row = db.execute("SELECT id, name, colour FROM players WHERE id = ?", (player_id,)).fetchone()
    if row is None:
        return None
    names = db.execute(
        "SELECT name FROM player_names WHERE player_id = ? ORDER BY name", (player_id,)
    ).fetchall()
    return _player(row, [str(name[0]) for name in names])


def _player(row: Any, names: list[str]) -> Player:
    shown = str(row[1])
    others = tuple(name for name in names if name.casefold() != shown.casefold())
    return Player(int(row[0]), shown, str(row[2]), others)


def owner_of_name(db: sqlite3.Connection, name: str) -> int | None:
    """The player a name means (case ignored), or None."""
    row = db.execute("SELECT player_id FROM player_names WHERE name = ?", (name,)).fetchone()
    return None if row is None else int(row[0])


def rename_player(db: sqlite3.Connection, player_id: int, name: str) -> None:
    """Show ``player_id`` as ``name`` from now on; the old name still means them."""
    db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
    db.execute(
        "INSERT INTO player_names (name, player_id) VALUES (?, ?)"
        " ON CONFLICT (name) DO UPDATE SET player_id = excluded.player_id",
        (name, player_id),
    )


def shared_play(db: sqlite3.Connection, one: int, other: int) -> str | None:
    """A play both players sat at (then they are two people), or None."""
    row = db.execute(
        "SELECT a.game_id FROM play_seats a JOIN play_seats b ON a.game_id = b.game_id"
        " WHERE a.player_id = ? AND b.player_id = ? LIMIT 1",
        (one, other),
    ).fetchone()
    return None if row is None else str(row[0])


def merge_players(db: sqlite3.Connection, gone: int, into: int) -> None:
    """Make ``gone``'s plays and names ``into``'s, and forget ``gone``."""
    db.execute("UPDATE play_seats SET player_id = ? WHERE player_id = ?", (into, gone))
    db.execute("UPDATE player_names SET player_id = ? WHERE player_id = ?", (into, gone))
    db.execute("DELETE FROM players WHERE id = ?", (gone,))
