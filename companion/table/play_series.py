"""A player's plays as the logbook's plots read them: when each ended, won or not, the score.

One light query over the logbook's ``plays`` and ``play_seats`` (``companion.table.schema``
migration 4), oldest first, so a player page's plots need no play objects built.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple


class Point(NamedTuple):
    """One play of a player: its kind, when it ended, whether they won (a tie: every tied
    seat won) and their score."""

    kind: str
    ended: float
    won: bool
    score: int


def series(db: sqlite3.Connection, player_id: int) -> list[Point]:
    """Every play ``player_id`` sat at, oldest first (a seat each: a player sits once)."""
    rows = db.execute(
        "SELECT p.kind, p.ended, s.winner, s.score FROM play_seats s"
        " JOIN plays p ON p.game_id = s.game_id WHERE s.player_id = ?"
        " ORDER BY p.ended, p.game_id",
        (player_id,),
    ).fetchall()
    return [Point(str(k), float(ended), bool(won), int(score)) for k, ended, won, score in rows]
