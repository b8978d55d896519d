"""The logbook's statistics: pure functions of a player's finished plays.

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
from collections.abc import Iterable, Sequence
from typing import Any

from companion.games.base import JSON
from companion.table.game import iso
from companion.table.logbook_store import Play, PlaySeat


def seat_of(play: Play, player_id: int) -> PlaySeat | None:
    """The seat ``player_id`` had at ``play`` (the first, should they have had two)."""
    return next((seat for seat in play.seats if seat.player_id == player_id), None)


def record(plays: Sequence[Play], player_id: int) -> dict[str, JSON]:
    """Plays, wins, ties, losses, win rate, mean and best score, streaks, last played."""
    seats = [(play, seat_of(play, player_id)) for play in plays]
    mine = [(play, seat) for play, seat in seats if seat is not None]
    won = [seat.winner for _, seat in mine]
    wins = sum(won)
    ties = sum(1 for play, seat in mine if seat.winner and len(play.winners) > 1)
    scores = [seat.score for _, seat in mine]
    longest = current = 0
    for flag in won:
        current = current + 1 if flag else 0
        longest = max(longest, current)
    return {
        "plays": len(mine),
        "wins": wins,
        "ties": ties,
        "losses": len(mine) - wins,
        "win_rate": round(wins / len(mine), 3) if mine else None,
        "mean_score": round(sum(scores) / len(scores), 1) if scores else None,
        "best_score": max(scores) if scores else None,
        "current_streak": current,
        "longest_streak": longest,
        "last_played": iso(mine[-1][0].ended) if mine else None,
    }


def own_figures(plays: Sequence[Play], player_id: int) -> dict[str, JSON]:
    """A kind's own figures over ``plays`` for the player (see the module's docstring):
    ``{"totals": {name: n}, "per_play": {name: mean}, "counts": {name: [[key, n], ...]},
    "play_means": {name: mean}, "play_highest": {name: n}}``."""
    totals: dict[str, int] = {}
    counts: dict[str, dict[str, int]] = {}
    play_values: dict[str, list[int]] = {}
    for play in plays:
        seat = seat_of(play, player_id)
        if seat is None:
            continue
        for name, value in seat.figures.items():
            if isinstance(value, int) and not isinstance(value, bool):
                totals[name] = totals.get(name, 0) + value
            elif isinstance(value, dict):
                kept = counts.setdefault(name, {})
                for key, number in value.items():
                    if isinstance(number, int):
                        kept[key] = kept.get(key, 0) + number
        for name, value in play.figures.items():
            if isinstance(value, int) and not isinstance(value, bool):
                play_values.setdefault(name, []).append(value)
    played = len(plays) or 1
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


def opponents(plays: Iterable[Play], player_id: int) -> list[dict[str, JSON]]:
    """Everyone the player met: plays together, the player's wins, losses and ties against
    them (a loss: the other won and the player did not; neither: someone else won), most
    plays together first."""
    met: dict[int, dict[str, Any]] = {}
    for play in plays:
        mine = seat_of(play, player_id)
        if mine is None:
            continue
        for seat in play.seats:
            if seat.player_id == player_id:
                continue
            entry = met.setdefault(
                seat.player_id,
                {"player_id": seat.player_id, "name": seat.player, "plays": 0}
                | {"wins": 0, "losses": 0, "ties": 0, "neither": 0},
            )
            entry["plays"] += 1
            entry[_versus(mine.winner, seat.winner)] += 1
    return sorted(met.values(), key=lambda entry: (-entry["plays"], entry["name"].casefold()))


def _versus(mine: bool, theirs: bool) -> str:
    if mine and theirs:
        return "ties"
    if mine:
        return "wins"
    return "losses" if theirs else "neither"


def figures(player_id: int, plays: Sequence[Play]) -> dict[str, JSON]:
    """A player's statistics from their plays (oldest first): ``{"overall", "kinds":
    {kind: {... record, "figures": own figures}}, "opponents"}``."""
    kinds: dict[str, list[Play]] = {}
    for play in plays:
        kinds.setdefault(play.kind, []).append(play)
    return {
        "overall": record(plays, player_id),
        "kinds": {
            kind: {**record(found, player_id), "figures": own_figures(found, player_id)}
            for kind, found in sorted(kinds.items())
        },
        "opponents": [dict(entry) for entry in opponents(plays, player_id)],
    }


def head_to_head(one: int, other: int, plays: Sequence[Play]) -> dict[str, JSON]:
    """The plays both sat at (``plays``: one's, oldest first): how many, one's wins, the
    other's wins, shared wins (ties) and plays someone else won, overall and per kind, and
    the last 20 of them, newest first."""
    both = [play for play in plays if seat_of(play, other) is not None]

    def tally(found: Sequence[Play]) -> dict[str, JSON]:
        counts = {"plays": len(found), "wins": 0, "losses": 0, "ties": 0, "neither": 0}
        for play in found:
            a, b = seat_of(play, one), seat_of(play, other)
            if a is not None and b is not None:
                counts[_versus(a.winner, b.winner)] += 1
        return {
            "plays": counts["plays"],
            "one_wins": counts["wins"],
            "other_wins": counts["losses"],
            "ties": counts["ties"],
            "neither": counts["neither"],
        }

    kinds: dict[str, list[Play]] = {}
    for play in both:
        kinds.setdefault(play.kind, []).append(play)
    return {
        "one": one,
        "other": other,
        **tally(both),
        "kinds": {kind: tally(found) for kind, found in sorted(kinds.items())},
        "recent": [play.to_json() for play in reversed(both[-20:])],
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
