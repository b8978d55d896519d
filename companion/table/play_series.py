"""The logbook's plays as its plots read them: a player's (when each ended, won or not, the
score) and everyone's scores counted per kind.

Light queries over the logbook's ``plays`` and ``play_seats`` (``companion.table.schema``
migration 4), so the pages' plots need no play objects built.
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


def kind_scores(db: sqlite3.Connection) -> dict[str, dict[int, int]]:
    """Every seat's score of every play, counted per kind: kind to score to how often (kinds
    in the order first played)."""
    rows = db.execute(
        "SELECT p.kind, s.score, COUNT(*), MIN(p.ended) FROM play_seats s"
        " JOIN plays p ON p.game_id = s.game_id GROUP BY p.kind, s.score"
    ).fetchall()
    first: dict[str, float] = {}
    counts: dict[str, dict[int, int]] = {}
    for kind, score, count, ended in rows:
        first[kind] = min(first.get(kind, ended), ended)
        counts.setdefault(str(kind), {})[int(score)] = int(count)
    return {kind: counts[kind] for kind in sorted(counts, key=first.__getitem__)}
