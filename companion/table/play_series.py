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


class SeatRow(NamedTuple):
    """One seat of a finished play as the files of every play list it."""

    game_id: str
    kind: str
    variant: str | None
    started: float
    ended: float
    player_id: int
    player: str
    """The player's name now (a renamed player's new name)."""
    score: int
    rank: int
    winner: bool


def seat_rows(db: sqlite3.Connection) -> list[SeatRow]:
    """Every seat of every finished play: plays newest first (as the history), seats in
    order; one query, no play objects."""
    rows = db.execute(
        "SELECT p.game_id, p.kind, p.variant, p.started, p.ended, s.player_id, pl.name,"
        " s.score, s.rank, s.winner FROM plays p JOIN play_seats s ON s.game_id = p.game_id"
        " JOIN players pl ON pl.id = s.player_id"
        " ORDER BY p.ended DESC, p.game_id DESC, s.seat"
    ).fetchall()
    return [
        SeatRow(str(g), str(k), v, float(a), float(b), int(i), str(n), int(sc), int(r), bool(w))
        for g, k, v, a, b, i, n, sc, r, w in rows
    ]


class KindScores:
    """Everyone's scores counted per kind (:func:`kind_scores`), counted again only when the
    plays changed (their number or the latest end: a play finished, undone or deleted), so
    the history's first page does not count every seat on each visit."""

    def __init__(self) -> None:
        self.key: tuple[int, float | None] | None = None
        self.counts: dict[str, dict[int, int]] = {}

    def read(self, db: sqlite3.Connection) -> dict[str, dict[int, int]]:
        """The counts, from the last count while the plays are the same."""
        count, latest = db.execute("SELECT COUNT(*), MAX(ended) FROM plays").fetchone()
        key = (int(count), None if latest is None else float(latest))
        if key != self.key:
            self.counts, self.key = kind_scores(db), key
        return self.counts
