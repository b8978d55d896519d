"""The pieces and the main board of Mandala Stones: stones, cells, stack and artist spaces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from companion.games.base import (
    JSON,
    RecordError,
    as_int,
    as_list,
    as_str,
    join,
    seat_refused,
)
from companion.phrases import say

Colour = Literal["red", "purple", "blue", "yellow"]
Pattern = Literal["dots", "lines"]
Direction = Literal["N", "E", "S", "W"]

COLOURS: tuple[Colour, ...] = get_args(Colour)
PATTERNS: tuple[Pattern, ...] = get_args(Pattern)
#: Clockwise, starting at north.
DIRECTIONS: tuple[Direction, ...] = get_args(Direction)
STEPS: dict[Direction, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}

STONES_PER_KIND = 12  # per colour and pattern: 4 colours x 2 patterns x 12 = 96
STONE_COUNT = len(COLOURS) * len(PATTERNS) * STONES_PER_KIND
STACK_HEIGHT = 4
SPACE_COUNT = 5  # spaces on a player board
ARTIST_COUNT = 4
MIN_SEATS, MAX_SEATS = 2, 4
SIZE = 7

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Stone:
    """One stone: a colour and a pattern, written ``<colour>-<pattern>``."""

    colour: Colour
    pattern: Pattern

    def __str__(self) -> str:
        return f"{self.colour}-{self.pattern}"


#: The eight kinds of stone, colour by colour.
KINDS: tuple[Stone, ...] = tuple(Stone(c, p) for c in COLOURS for p in PATTERNS)
_BY_NAME: dict[str, Stone] = {str(stone): stone for stone in KINDS}


def parse_stone(value: JSON, where: str) -> Stone:
    """Read a stone written ``<colour>-<pattern>``, e.g. ``"blue-dots"``.

    :raises RecordError: naming ``where`` for anything else.
    """
    text = as_str(value, where)
    stone = _BY_NAME.get(text)
    if stone is None:
        raise RecordError(
            f"{where}: {text!r} is not a stone (a colour of {', '.join(COLOURS)}, "
            f"'-', a pattern of {', '.join(PATTERNS)})"
        )
    return stone


def is_artist_space(cell: Cell) -> bool:
    """Say whether both coordinates are even (the nine artist spaces)."""
    return 1 <= cell[0] <= SIZE and 1 <= cell[1] <= SIZE and cell[0] % 2 == 0 == cell[1] % 2


def is_stack_space(cell: Cell) -> bool:
    """Say whether exactly one coordinate is even (the 24 stack spaces)."""
    return 1 <= cell[0] <= SIZE and 1 <= cell[1] <= SIZE and (cell[0] + cell[1]) % 2 == 1


ALL_CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(1, SIZE + 1) for c in range(1, SIZE + 1))
#: The stack spaces in reading order (row 1 to 7, column 1 to 7 within a row).
STACK_SPACES: tuple[Cell, ...] = tuple(cell for cell in ALL_CELLS if is_stack_space(cell))
ARTIST_SPACES: tuple[Cell, ...] = tuple(cell for cell in ALL_CELLS if is_artist_space(cell))
STACK_INDEX: dict[Cell, int] = {cell: i for i, cell in enumerate(STACK_SPACES)}


def neighbour(cell: Cell, direction: Direction) -> Cell:
    """Return the cell one step from ``cell`` in ``direction``."""
    dr, dc = STEPS[direction]
    return (cell[0] + dr, cell[1] + dc)


def clockwise_from(first: Direction) -> tuple[Direction, ...]:
    """Return the four directions clockwise, starting at ``first``."""
    start = DIRECTIONS.index(first)
    return DIRECTIONS[start:] + DIRECTIONS[:start]


#: For each stack space, the artist spaces it touches (one or two).
STACK_TOUCHES: dict[Cell, tuple[Cell, ...]] = {
    stack: tuple(neighbour(stack, d) for d in DIRECTIONS if is_artist_space(neighbour(stack, d)))
    for stack in STACK_SPACES
}


def cell_text(cell: Cell) -> str:
    """Write a cell the way records do: ``[2, 4]``."""
    return f"[{cell[0]}, {cell[1]}]"


def stack_key(cell: Cell) -> str:
    """Name a stack space the way summaries do: ``"2,4"``."""
    return f"{cell[0]},{cell[1]}"


def as_whole_at_least(value: JSON, where: str, low: int) -> int:
    """Check that ``value`` is a whole number >= ``low`` (``as_int`` with no upper bound)."""
    number = as_int(value, where)
    if number < low:
        raise RecordError(f"{where}: expected a whole number >= {low}, got {number}")
    return number


def parse_cell(value: JSON, where: str) -> Cell:
    """Read ``[row, column]``, both whole numbers 1..7."""
    items = as_list(value, where)
    if len(items) != 2:
        raise RecordError(f"{where}: expected [row, column], got a list of {len(items)}")
    return (
        as_int(items[0], f"{where}[0]", 1, SIZE),
        as_int(items[1], f"{where}[1]", 1, SIZE),
    )


def parse_artist_space(value: JSON, where: str) -> Cell:
    """Read a cell that must be an artist space (both coordinates even)."""
    cell = parse_cell(value, where)
    if not is_artist_space(cell):
        raise RecordError(f"{where}: {cell_text(cell)} is not an artist space (both even)")
    return cell


def parse_seats(value: JSON, where: str = "seats") -> tuple[str, ...]:
    """Read the seats: 2 to 4 distinct, non-blank names.

    :raises RecordError: ``seats[i]: ...`` naming the seat.
    """
    items = as_list(value, where)
    if not MIN_SEATS <= len(items) <= MAX_SEATS:
        raise RecordError(f"{where}: expected {MIN_SEATS} to {MAX_SEATS} seats, got {len(items)}")
    seats: list[str] = []
    for i, item in enumerate(items):
        name = as_str(item, join(where, i))
        if not name.strip():
            raise RecordError.said(seat_refused(join(where, i), say("a seat needs a name")))
        if name in seats:
            raise RecordError.said(
                seat_refused(join(where, i), say("{name} is listed twice", name=repr(name)))
            )
        seats.append(name)
    return tuple(seats)
