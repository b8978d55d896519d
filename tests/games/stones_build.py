"""Build Mandala Stones positions by hand for the rule tests (stacks, boards, artists)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.games import stones
from companion.games.stones import Artist, Cell, DataFile, State, Stone

#: The spec's data-file example (= the bundled placeholders), as an inline ``board``.
SPEC_BOARD: dict[str, Any] = {
    "placeholder": True,
    "artist_starts": [[2, 4], [4, 2], [4, 6], [6, 4]],
    "spaces": [
        {"rule": "heights", "count_empty": True},
        {"rule": "level", "table": [6, 4, 2, 1]},
        {"rule": "level", "table": [2, 4, 4, 2]},
        {"rule": "level", "table": [1, 2, 4, 6]},
        {"rule": "colours"},
    ],
    "mandala": {
        "places": 96,
        "bonus": {"4": 1, "9": 2, "16": 2, "25": 3, "36": 3, "49": 4, "64": 5},
        "end": {"2": 48, "3": 64, "4": 80},
    },
}


def board_with(**changes: Any) -> dict[str, Any]:
    """Return a copy of :data:`SPEC_BOARD` with top-level keys or ``mandala`` keys changed."""
    board: dict[str, Any] = {
        "placeholder": SPEC_BOARD["placeholder"],
        "artist_starts": [list(c) for c in SPEC_BOARD["artist_starts"]],
        "spaces": [dict(s) for s in SPEC_BOARD["spaces"]],
        "mandala": dict(SPEC_BOARD["mandala"]),
    }
    for key, value in changes.items():
        if key in ("places", "bonus", "end"):
            board["mandala"][key] = value
        else:
            board[key] = value
    return board


def stone(name: str) -> Stone:
    """Read ``"blue-dots"``."""
    return stones.parse_stone(name, "test")


def tower(*names: str) -> tuple[Stone, ...]:
    """A tower or stack, bottom first."""
    return tuple(stone(n) for n in names)


def data(board: Mapping[str, Any] | None = None) -> DataFile:
    """The data file: the spec's example unless ``board`` is given."""
    return stones.parse_data_file(dict(board or SPEC_BOARD), "board")


def position(
    *,
    seats: Sequence[str] = ("Ann", "Bo"),
    stacks: Mapping[Cell, Sequence[str]] | None = None,
    artists: Sequence[tuple[Cell, str]] = (
        ((2, 4), "dots"),
        ((4, 2), "lines"),
        ((4, 6), "dots"),
        ((6, 4), "lines"),
    ),
    boards: Mapping[str, Sequence[Sequence[str]]] | None = None,
    mandala: int = 0,
    to_move: int = 0,
    board: Mapping[str, Any] | None = None,
) -> State:
    """A play-phase position: the named stacks (every other stack empty), the artists, the
    seats' player boards (five towers each, bottom first; missing seats empty), ``mandala``
    stones already on the mandala board (red-dots) and the seat to move."""
    stacks = stacks or {}
    boards = boards or {}
    start = stones.new_game(stones.random_setup(1, list(seats)))
    empty: tuple[tuple[Stone, ...], ...] = ((),) * 5
    return replace(
        start,
        data=data(board),
        stacks=tuple(tower(*stacks.get(cell, ())) for cell in stones.STACK_SPACES),
        artists=tuple(Artist(at, pattern) for at, pattern in artists),  # type: ignore[arg-type]
        boards=tuple(
            tuple(tower(*t) for t in boards[name]) if name in boards else empty for name in seats
        ),
        mandala=(stone("red-dots"),) * mandala,
        to_move=to_move,
    )


def spaces_of(state: State, seat: int) -> list[list[str]]:
    """A seat's player board as stone names."""
    return [[str(s) for s in t] for t in state.boards[seat]]


def stack_of(state: State, cell: Cell) -> list[str]:
    """A stack as stone names, bottom first."""
    return [str(s) for s in state.stack_at(cell)]
