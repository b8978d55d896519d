"""The logbook's statistics, read from the plays stored (``logbook_store``) with SQL.

Per player, overall and per game kind: plays, wins (a tie is a shared win: every tied seat
counts it, and ``ties`` says how many of the wins were shared), win rate, mean and best
score, the current and the longest run of wins, last played; the opponents met with the
wins and losses against each; and each kind's own figures, added up from what each play
stored (``Adapter.figures``) without knowing the kind: a seat's numbers are totalled and
averaged per play, a seat's counts (a card river's colours) summed, most first, and a
play's numbers (the ring board's turns, the Stones VP spread) averaged with their highest.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, NamedTuple

from companion.games.base import JSON
from companion.table import logbook_store
from companion.table.game import iso


class SeatRow(NamedTuple):
    """One seat a player had at a finished play, as the statistics read it (oldest first)."""

    game_id: str
    kind: str
    ended: float
    score: int
    winner: bool
    figures: dict[str, JSON]
    play_figures: dict[str, JSON]
    winners: int
    """More than 1 when the player shared the win (a tie); else 1 when they won, 0 not."""


def seat_rows(db: sqlite3.Connection, player_id: int) -> list[SeatRow]:
    """Every seat ``player_id`` had, oldest play first."""
    rows = db.execute(
        "SELECT p.game_id, p.kind, p.ended, s.score, s.winner, s.figures, p.figures"
        " FROM play_seats s JOIN plays p ON p.game_id = s.game_id"
        " WHERE s.player_id = ? ORDER BY p.ended, p.game_id",
        (player_id,),
    ).fetchall()
    tied = {
        str(row[0])
        for row in db.execute(
            "SELECT DISTINCT s.game_id FROM play_seats s JOIN play_seats w"
            " ON w.game_id = s.game_id AND w.seat != s.seat"
            " WHERE s.player_id = ? AND s.winner AND w.winner",
            (player_id,),
        )
    }
    parsed: dict[str, dict[str, JSON]] = {}  # most plays share a few figures texts

    def read(text: str) -> dict[str, JSON]:
        found = parsed.get(text)
        if found is None:
            found = parsed[text] = logbook_store.figures_of(text)
        return found

    return [
        SeatRow(
            str(row[0]),
            str(row[1]),
            float(row[2]),
            int(row[3]),
            bool(row[4]),
            read(row[5]),
            read(row[6]),
            2 if str(row[0]) in tied else int(bool(row[4])),
        )
        for row in rows
    ]


def record(seats: Sequence[SeatRow]) -> dict[str, JSON]:
    """Plays, wins, ties, losses, win rate, mean and best score, streaks, last played."""
    wins = sum(seat.winner for seat in seats)
    ties = sum(1 for seat in seats if seat.winner and seat.winners > 1)
    scores = [seat.score for seat in seats]
    longest = current = 0
    for seat in seats:
        current = current + 1 if seat.winner else 0
        longest = max(longest, current)
    return {
        "plays": len(seats),
        "wins": wins,
        "ties": ties,
        "losses": len(seats) - wins,
        "win_rate": round(wins / len(seats), 3) if seats else None,
        "mean_score": round(sum(scores) / len(scores), 1) if scores else None,
        "best_score": max(scores) if scores else None,
        "current_streak": current,
        "longest_streak": longest,
        "last_played": iso(seats[-1].ended) if seats else None,
    }


def _is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def own_figures(seats: Sequence[SeatRow]) -> dict[str, JSON]:
    """A kind's own figures over the player's ``seats`` (see the module's docstring):
    ``{"totals": {name: n}, "per_play": {name: mean}, "counts": {name: [[key, n], ...]},
    "play_means": {name: mean}, "play_highest": {name: n}}``."""
    totals: dict[str, int] = {}
    counts: dict[str, dict[str, int]] = {}
    play_values: dict[str, list[int]] = {}
    for seat in seats:
        for name, value in seat.figures.items():
            if _is_number(value):
                totals[name] = totals.get(name, 0) + int(str(value))
            elif isinstance(value, dict):
                kept = counts.setdefault(name, {})
                for key, number in value.items():
                    if _is_number(number):
                        kept[key] = kept.get(key, 0) + int(str(number))
        for name, value in seat.play_figures.items():
            if _is_number(value):
                play_values.setdefault(name, []).append(int(str(value)))
    played = len(seats) or 1
    return {
        "totals": dict(totals),
        "per_play": {name: round(total / played, 2) for name, total in totals.items()},
        "counts": {
            name: [[key, number] for key, number in sorted(kept.items(), key=_most_first)]
            for name, kept in counts.items()
        },
        "play_means": {
            name: round(sum(values) / len(values), 1) for name, values in play_values.items()
        },
        "play_highest": {name: max(values) for name, values in play_values.items()},
    }


def _most_first(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0]


#: Per pair of seats at one play: the first's win alone, the other's, both (a tie), neither.
_VERSUS = (
    "count(*), sum(a.winner AND NOT b.winner), sum(b.winner AND NOT a.winner),"
    " sum(a.winner AND b.winner), sum(NOT a.winner AND NOT b.winner)"
)


def opponents(db: sqlite3.Connection, player_id: int) -> list[dict[str, JSON]]:
    """Everyone the player met: plays together, the player's wins, losses and ties against
    them (a loss: the other won and the player did not; neither: someone else won), most
    plays together first."""
    rows = db.execute(
        f"SELECT b.player_id, pl.name, {_VERSUS} FROM play_seats a"
        " JOIN play_seats b ON b.game_id = a.game_id AND b.player_id != a.player_id"
        " JOIN players pl ON pl.id = b.player_id WHERE a.player_id = ? GROUP BY b.player_id",
        (player_id,),
    ).fetchall()
    met: list[dict[str, JSON]] = [
        {
            "player_id": int(row[0]),
            "name": str(row[1]),
            "plays": int(row[2]),
            "wins": int(row[3] or 0),
            "losses": int(row[4] or 0),
            "ties": int(row[5] or 0),
            "neither": int(row[6] or 0),
        }
        for row in rows
    ]
    return sorted(met, key=lambda entry: (-int(str(entry["plays"])), str(entry["name"]).casefold()))


def figures(db: sqlite3.Connection, player_id: int) -> dict[str, JSON]:
    """A player's statistics: ``{"overall", "kinds": {kind: {... record, "figures": own
    figures}}, "opponents"}``."""
    seats = seat_rows(db, player_id)
    kinds: dict[str, list[SeatRow]] = {}
    for seat in seats:
        kinds.setdefault(seat.kind, []).append(seat)
    return {
        "overall": record(seats),
        "kinds": {
            kind: {**record(found), "figures": own_figures(found)}
            for kind, found in sorted(kinds.items())
        },
        "opponents": list(opponents(db, player_id)),
    }


def head_to_head(db: sqlite3.Connection, one: int, other: int) -> dict[str, JSON]:
    """The plays both sat at: how many, one's wins alone, the other's, shared wins (ties) and
    plays someone else won, overall and per kind, and the last 20 of them, newest first."""
    query = (
        f"SELECT p.kind, {_VERSUS} FROM play_seats a JOIN play_seats b ON b.game_id = a.game_id"
        " JOIN plays p ON p.game_id = a.game_id WHERE a.player_id = ? AND b.player_id = ?"
    )

    def tally(row: Any) -> dict[str, JSON]:
        names = ("plays", "one_wins", "other_wins", "ties", "neither")
        return {name: int(value or 0) for name, value in zip(names, row, strict=True)}

    overall = db.execute(query.replace("p.kind, ", ""), (one, other)).fetchone()
    kinds = db.execute(query + " GROUP BY p.kind ORDER BY p.kind", (one, other)).fetchall()
    recent = db.execute(
        "SELECT p.game_id FROM play_seats a JOIN play_seats b ON b.game_id = a.game_id"
        " JOIN plays p ON p.game_id = a.game_id WHERE a.player_id = ? AND b.player_id = ?"
        " ORDER BY p.ended DESC, p.game_id DESC LIMIT 20",
        (one, other),
    ).fetchall()
    shown = [logbook_store.play(db, str(row[0])) for row in recent]
    return {
        "one": one,
        "other": other,
        **tally(overall),
        "kinds": {str(row[0]): tally(row[1:]) for row in kinds},
        "recent": [play.to_json() for play in shown if play is not None],
    }


def abandoned(db: sqlite3.Connection, cutoff: float) -> list[dict[str, JSON]]:
    """The games not finished whose last move is before ``cutoff``, newest first."""
    rows = db.execute(
        "SELECT g.id, g.kind, g.updated FROM games g WHERE g.updated < ?"
        " AND NOT EXISTS (SELECT 1 FROM plays p WHERE p.game_id = g.id)"
        " ORDER BY g.updated DESC LIMIT 200",
        (cutoff,),
    ).fetchall()
    found: list[dict[str, JSON]] = []
    for game_id, kind, updated in rows:
        names = db.execute(
            "SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
        found.append(
            {
                "id": str(game_id),
                "kind": str(kind),
                "seats": [str(name[0]) for name in names],
                "updated": iso(float(updated)),
            }
        )
    return found
