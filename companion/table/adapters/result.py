"""The finished-play result: one shape for every game kind (the logbook builds on it).

A :class:`Result` lists the seats in their order with each one's score and rank, the
winners (more than one when the rules leave a tie), the variant and board played and when
the play started and ended. Ranks are shared on a tie ("1, 2, 2, 4"): the seats the rules
name winner rank first; then every other seat by its score, most first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.base import JSON
from companion.table.game import iso


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished play: its name, final score and rank (1 is first)."""

    name: str
    score: int
    rank: int

    def to_json(self) -> dict[str, JSON]:
        """``{"name", "score", "rank"}``."""
        return {"name": self.name, "score": self.score, "rank": self.rank}


@dataclass(frozen=True)
class Result:
    """A finished play of any kind."""

    kind: str
    seats: tuple[SeatResult, ...]
    winners: tuple[str, ...]
    variant: str | None
    board: str | None
    started: float
    ended: float

    def to_json(self) -> dict[str, JSON]:
        """The result as JSON: seats in order, winners, variant, board, start and end (UTC)."""
        return {
            "kind": self.kind,
            "seats": [seat.to_json() for seat in self.seats],
            "winners": list(self.winners),
            "variant": self.variant,
            "board": self.board,
            "started": iso(self.started),
            "ended": iso(self.ended),
        }


def ranked(scores: Sequence[int], winners: Sequence[int]) -> tuple[int, ...]:
    """Each seat's rank: the ``winners`` (seat numbers) first, sharing rank 1, then the
    others by score, most first; equal scores share a rank ("1, 2, 2, 4")."""
    keys = [(seat not in winners, -score) for seat, score in enumerate(scores)]
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def result_of(
    kind: str,
    names: Sequence[str],
    scores: Sequence[int],
    winner: int | None,
    *,
    variant: str | None,
    board: str | None,
    started: float,
    ended: float,
) -> Result:
    """Build the result of a finished play from its seats' names and scores in seat order.

    ``winner`` is the seat the rules name, or None when they leave a tie: then every seat
    of the best score wins.
    """
    if winner is not None:
        winners: tuple[int, ...] = (winner,)
    else:
        best = max(scores, default=0)
        winners = tuple(seat for seat, score in enumerate(scores) if score == best)
    ranks = ranked(scores, winners)
    seats = tuple(
        SeatResult(name, score, rank)
        for name, score, rank in zip(names, scores, ranks, strict=True)
    )
    return Result(
        kind, seats, tuple(names[seat] for seat in winners), variant, board, started, ended
    )
