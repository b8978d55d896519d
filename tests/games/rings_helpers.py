"""Small inline boards and hand-placed positions for the ring-board tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.games import rings

RING_COLOURS = ("red", "blue", "green", "yellow", "brown") * 2
ZERO = {"red": 0, "blue": 0, "green": 0, "yellow": 0, "brown": 0}


def board_json(
    coloured: Iterable[tuple[int, int]] = (),
    entrances: Sequence[int] = (1,),
    dice: Sequence[int] = (0, 1, 2),
    spokes: int = 8,
    name: str = "test board",
) -> dict[str, Any]:
    """An inline board: every slot black except the ``(ring, slot)`` pairs in ``coloured``.

    Corners are [0, 2, 4, 6] scaled to ``spokes`` (corner c in front of spoke c * N / 4).
    """
    closed = set(coloured)
    return {
        "name": name,
        "spokes": spokes,
        "corners": [c * spokes // 4 for c in range(4)],
        "entrances": list(entrances),
        "dice": list(dice),
        "rings": [
            {
                "colour": RING_COLOURS[ring],
                "black": [s for s in range(spokes) if (ring, s) not in closed],
            }
            for ring in range(10)
        ],
    }


def dice(**values: int) -> dict[str, int]:
    """Five dice: the colours named, the others 0."""
    return {**ZERO, **values}


def turn(rolled: dict[str, int], *rotations: tuple[int, int]) -> rings.Turn:
    """A turn from dice and ``(ring, steps)`` pairs."""
    return rings.Turn(rolled, tuple(rings.Rotation(r, s) for r, s in rotations))


def position(
    board: dict[str, Any],
    seats: Sequence[tuple[str, int]],
    pegs: Sequence[tuple[int, int, int]],
    waiting: Sequence[Sequence[int]],
    scores: Sequence[int],
    variant: str = "standard",
    to_move: int = 0,
    offsets: Sequence[int] = (0,) * 10,
) -> rings.State:
    """A hand-placed position: ``pegs`` are ``(seat, ring, spoke)`` at the given offsets.

    Built through ``state_from_json`` so that every position is checked for consistency.
    """
    spokes = board["spokes"]
    return rings.state_from_json(
        {
            "board": board,
            "variant": variant,
            "seats": [
                {"name": name, "corner": corner, "colour": f"c{corner}"} for name, corner in seats
            ],
            "offsets": list(offsets),
            "pegs": [[s, r, (sp - offsets[r]) % spokes] for s, r, sp in pegs],
            "waiting": [list(w) for w in waiting],
            "scores": list(scores),
            "turns": 0,
            "to_move": to_move,
            "winner": None,
        }
    )


def record(
    board: object,
    seats: Sequence[tuple[str, int]],
    turns: Sequence[dict[str, Any]] = (),
    variant: str = "standard",
) -> dict[str, Any]:
    """A record in the format of rings.md section 5."""
    return {
        "game": "rings",
        "board": board,
        "variant": variant,
        "seats": [{"name": n, "corner": c} for n, c in seats],
        "turns": list(turns),
    }


def zero_turn() -> dict[str, Any]:
    return {"dice": dict(ZERO), "rotations": []}


#: Two seats on the reference board, at corners 0 and 2.
ANN_BO = (("Ann", 0), ("Bo", 2))


def reference_game() -> rings.State:
    """A new two-seat game on the reference board."""
    return rings.new_game(record("reference", ANN_BO))


def sensed(**turned: int) -> list[int]:
    """Offsets with ring ``rN`` at the given value, the others 0."""
    offsets = [0] * 10
    for key, value in turned.items():
        offsets[int(key[1:])] = value
    return offsets
