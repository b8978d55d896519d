"""Nim, a test-only engine: seats take 1 to 3 stones from one heap in turn; the last wins.

A record is ``{"game": "nim", "seats": ["Ann", "Bo"], "heap": 7, "takes": [3, 1, ...]}``;
each step is a bare count (the panel's action wraps it in its step word: ``{"take": 2}``).
It satisfies ``companion.games.base.Engine`` and nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import (
    JSON,
    IllegalAction,
    RecordError,
    as_int,
    as_list,
    as_str,
    check_keys,
    get,
    join,
)

KIND = "nim"
ACTIONS_KEY = "takes"
STEP_WORD = "take"
MAX_TAKE = 3
DEFAULT_HEAP = 7


@dataclass(frozen=True)
class State:
    """The seats, the stones left, each seat's stones taken and whose turn it is."""

    seats: tuple[str, ...]
    heap: int
    taken: tuple[int, ...]
    to_move: int


def new_game(setup: Mapping[str, JSON]) -> State:
    """Two or more named seats and a heap of 1..100 stones (given, or 5..15 picked by the
    ``seed``, or 7)."""
    check_keys(setup, "", ("game", "seats"), ("heap", "seed", ACTIONS_KEY))
    seats = as_list(get(setup, "seats"), "seats")
    if len(seats) < 2:
        raise RecordError(f"seats: Nim takes at least 2 seats, got {len(seats)}")
    names = tuple(as_str(seat, join("seats", i)) for i, seat in enumerate(seats))
    seed = setup.get("seed")
    picked = DEFAULT_HEAP if seed is None else 5 + as_int(seed, "seed", 0) % 11
    heap = as_int(setup.get("heap", picked), "heap", 1, 100)
    return State(names, heap, (0,) * len(names), 0)


def parse_action(state: State, obj: JSON) -> int:
    """A step is the number of stones taken."""
    return as_int(obj, "stones")


def apply(state: State, action: int) -> State:
    """Take ``action`` stones for the seat to move.

    :raises IllegalAction: the game is over, or not 1..3 stones that are on the heap.
    """
    if is_over(state):
        raise IllegalAction("the game is over")
    most = min(MAX_TAKE, state.heap)
    if not 1 <= action <= most:
        raise IllegalAction(f"{action} stones: take 1 to {most}")
    taken = tuple(t + action if i == state.to_move else t for i, t in enumerate(state.taken))
    return State(state.seats, state.heap - action, taken, (state.to_move + 1) % len(state.seats))


def is_over(state: State) -> bool:
    """The heap is empty."""
    return state.heap == 0


def winner(state: State) -> int | None:
    """The seat that took the last stone."""
    return (state.to_move - 1) % len(state.seats) if is_over(state) else None


def summary(state: State) -> dict[str, JSON]:
    """``{"game", "heap", "to_move", "over", "winner", "scores"}`` (stones taken)."""
    won = winner(state)
    return {
        "game": KIND,
        "heap": state.heap,
        "to_move": None if is_over(state) else state.seats[state.to_move],
        "over": is_over(state),
        "winner": None if won is None else state.seats[won],
        "scores": dict(zip(state.seats, state.taken, strict=True)),
    }


def action_to_json(action: int) -> JSON:
    """A step as the record has it: the count."""
    return action


def export_setup(setup: Mapping[str, JSON]) -> dict[str, Any]:
    """The setup as it is (Nim has no files to inline)."""
    return {key: value for key, value in setup.items() if key != ACTIONS_KEY}
