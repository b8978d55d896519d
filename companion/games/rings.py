"""The 1983 Mandala ring board: board files, records, the rules of a turn, and their inverse.

Everything here follows ``rings.md`` of the spec. A :class:`Board` comes from a board file
(TOML, or the same keys as a JSON object); a :class:`State` is an immutable value; a
:class:`Turn` is five dice and the rotations they allow; :func:`resolve` plays one turn and
reports what happened as :class:`Event` values in order; :func:`explain` works backwards from
sensed ring offsets to the rotations that explain them (or the reason none does).

Pegs ride their ring, so a peg is stored as ``(seat, ring, slot)``: turning a ring changes
only its offset. Its spoke is ``(slot + offsets[ring]) % spokes`` and the cell ``(ring, s)``
is slot ``(s - offsets[ring]) % spokes`` of that ring.
"""

from __future__ import annotations

import itertools
import json
import operator
import random
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal, cast

from companion.games.base import (
    JSON,
    IllegalAction,
    RecordError,
    as_dict,
    as_int,
    as_list,
    as_str,
    check_keys,
    get,
    join,
    type_name,
)
from companion.phrases import Phrase, say, say_n

KIND = "rings"
ACTIONS_KEY = "turns"
STEP_WORD = "turn"

COLOURS = ("red", "blue", "green", "yellow", "brown")
"""The five dice colours; each colours exactly two rings."""
COLOUR_WORDS = {
    "red": say("red"),
    "blue": say("blue"),
    "green": say("green"),
    "yellow": say("yellow"),
    "brown": say("brown"),
}
"""Each dice colour's name as people read it (the refusals' words)."""
RINGS = 10
"""Rings on the board: 0 is the outermost, 9 the innermost."""
INNER = RINGS - 1
VARIANTS = ("standard", "two-bases", "solo")
SEAT_COLOURS = ("orange", "purple", "cyan", "white")
"""The default seat (peg) colour of each corner."""
WINNING_SCORE = 6
PEGS_PER_SEAT = 6
SPOKES_RANGE = (8, 64)
BOARD_KEYS = ("name", "spokes", "corners", "entrances", "dice", "rings")
RING_KEYS = ("colour", "black")
_BOARD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")

Variant = Literal["standard", "two-bases", "solo"]
EventKind = Literal["advance", "snipe", "centre", "entry", "win"]
DieState = Literal["used", "unused", "wrong", "void"]
Cell = tuple[int, int]
"""``(ring, spoke)``."""


# --------------------------------------------------------------------------------------------
# Boards


@dataclass(frozen=True)
class Ring:
    """One ring: its dice colour and its black (open) slot numbers."""

    colour: str
    black: frozenset[int]


@dataclass(frozen=True)
class BoardTables:
    """Per-board lookup tables the rules use on every step (built once per board)."""

    spokes: int
    black: tuple[int, ...]
    """Per ring, a bit mask of its black slots (bit j set: slot j is black)."""
    ring_colour: tuple[str, ...]
    colour_rings: Mapping[str, tuple[int, int]]
    entrances: int
    """Bit mask of the entrance spokes."""
    faces: frozenset[int]


@dataclass(frozen=True)
class Board:
    """A board file: geometry, dice and the black slots of the ten rings."""

    name: str
    spokes: int
    corners: tuple[int, ...]
    entrances: frozenset[int]
    dice: tuple[int, ...]
    rings: tuple[Ring, ...]

    @cached_property
    def tables(self) -> BoardTables:
        """Return the lookup tables of this board (computed on first use, then kept)."""
        colour_rings: dict[str, list[int]] = {c: [] for c in COLOURS}
        for index, ring in enumerate(self.rings):
            colour_rings[ring.colour].append(index)
        return BoardTables(
            spokes=self.spokes,
            black=tuple(sum(1 << j for j in ring.black) for ring in self.rings),
            ring_colour=tuple(ring.colour for ring in self.rings),
            colour_rings={c: (rs[0], rs[1]) for c, rs in colour_rings.items()},
            entrances=sum(1 << s for s in self.entrances),
            faces=frozenset(self.dice),
        )


def _colour(colour: str) -> Phrase | str:
    """A ring colour's name as people read it (a board's own colour as it is)."""
    return COLOUR_WORDS.get(colour, colour)


def _text(value: object) -> str:
    """Quote a value from a file or record in a message."""
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _numbers(value: JSON, where: str, spokes: int, word: str) -> list[int]:
    """Parse a list of distinct numbers in 0..spokes-1 (slots or spokes)."""
    items = as_list(value, where)
    seen: set[int] = set()
    result = []
    for index, item in enumerate(items):
        number = as_int(item, join(where, index))
        if not 0 <= number < spokes:
            raise RecordError(f"{where}: {word} {number} is out of 0..{spokes - 1}")
        if number in seen:
            raise RecordError(f"{where}: {word} {number} is repeated")
        seen.add(number)
        result.append(number)
    return result


def _parse_name(value: JSON) -> str:
    if not isinstance(value, str) or not value.strip():
        shown = repr(value) if isinstance(value, str) else type_name(value)
        raise RecordError(f"name: expected a non-empty string, got {shown}")
    return value


def _parse_spokes(value: JSON) -> int:
    spokes = as_int(value, "spokes")
    low, high = SPOKES_RANGE
    if not low <= spokes <= high:
        raise RecordError(f"spokes: {spokes} is out of {low}..{high}")
    if spokes % 4:
        raise RecordError(f"spokes: {spokes} is not a multiple of 4")
    return spokes


def _parse_faces(value: JSON, spokes: int) -> list[int]:
    faces = as_list(value, "dice")
    if not faces:
        raise RecordError("dice: expected at least one face, got none")
    dice = []
    for index, item in enumerate(faces):
        face = as_int(item, join("dice", index))
        if not 0 <= face <= spokes // 2:
            raise RecordError(f"dice: face {face} is out of 0..{spokes // 2}")
        dice.append(face)
    return dice


def _parse_rings(value: JSON, spokes: int) -> list[Ring]:
    tables = as_list(value, "rings")
    if len(tables) != RINGS:
        raise RecordError(f"rings: expected {RINGS} rings, got {len(tables)}")
    rings = []
    for index, item in enumerate(tables):
        where = join("rings", index)
        table = as_dict(item, where)
        check_keys(table, where, RING_KEYS)
        colour = as_str(table["colour"], join(where, "colour"), COLOURS)
        black = _numbers(table["black"], join(where, "black"), spokes, "slot")
        rings.append(Ring(colour, frozenset(black)))
    for colour in COLOURS:
        count = sum(1 for ring in rings if ring.colour == colour)
        if count != 2:
            raise RecordError(
                f"rings: colour {colour!r} has {count} ring{'s' * (count != 1)}, expected 2"
            )
    return rings


def _parse_board(obj: Mapping[str, JSON]) -> Board:
    check_keys(obj, "", BOARD_KEYS)
    name = _parse_name(obj["name"])
    spokes = _parse_spokes(obj["spokes"])
    corners = _numbers(obj["corners"], "corners", spokes, "spoke")
    if len(corners) != 4:
        raise RecordError(f"corners: expected 4 corners, got {len(corners)}")
    entrances = _numbers(obj["entrances"], "entrances", spokes, "spoke")
    if not entrances:
        raise RecordError("entrances: expected at least one spoke, got none")
    dice = _parse_faces(obj["dice"], spokes)
    rings = _parse_rings(obj["rings"], spokes)
    for index, spoke in enumerate(corners):
        if spoke not in rings[0].black:
            raise RecordError(
                f"corners[{index}]: the outer cell of spoke {spoke} "
                f"(ring 0, slot {spoke}) is not black"
            )
    return Board(
        name=name,
        spokes=spokes,
        corners=tuple(corners),
        entrances=frozenset(entrances),
        dice=tuple(dice),
        rings=tuple(rings),
    )


def parse_board(obj: Mapping[str, JSON], where: str = "board") -> Board:
    """Validate a board object (the keys of a board file) and build the board.

    :raises RecordError: naming the key and the value, e.g.
        ``board: rings[3].black: slot 16 is out of 0..15``.
    """
    if not isinstance(obj, Mapping):
        raise RecordError(f"{where}: expected an object, got {type_name(obj)}")
    try:
        return _parse_board(dict(obj))
    except RecordError as error:
        raise error.at(where) from None


def parse_board_text(text: str, label: str) -> Board:
    """Parse a board file's text: TOML, or a JSON object with the same keys.

    ``label`` names the file in syntax errors; other errors start with ``board:``.

    :raises RecordError: for a syntax error or any rejection of rings.md section 4.
    """
    obj: object
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(
                f"{label}: not JSON: line {error.lineno} column {error.colno}: {error.msg}"
            ) from None
        except RecursionError:
            raise RecordError(f"{label}: not JSON: nested too deeply") from None
    else:
        try:
            obj = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise RecordError(f"{label}: not TOML: {error}") from None
        except RecursionError:
            raise RecordError(f"{label}: not TOML: nested too deeply") from None
    return parse_board(cast(Mapping[str, JSON], obj))


def board_to_json(board: Board) -> dict[str, JSON]:
    """Return the board as a JSON object with the board file's keys (parses back equal)."""
    return {
        "name": board.name,
        "spokes": board.spokes,
        "corners": list(board.corners),
        "entrances": sorted(board.entrances),
        "dice": list(board.dice),
        "rings": [{"colour": ring.colour, "black": sorted(ring.black)} for ring in board.rings],
    }


def board_report(board: Board) -> dict[str, JSON]:
    """Return what ``mandala board check`` prints for a valid board."""
    zero = (0,) * RINGS
    return {
        "ok": True,
        **board_to_json(board),
        "black_slots": [len(ring.black) for ring in board.rings],
        "open_paths": _open_paths(board, zero),
    }


def _bundled_dir() -> resources.abc.Traversable:
    return resources.files("hardware") / "boards"


def bundled_board_names() -> list[str]:
    """Return the names of the board files shipped with the package."""
    return sorted(
        entry.name[: -len(".toml")]
        for entry in _bundled_dir().iterdir()
        if entry.name.endswith(".toml")
    )


@lru_cache(maxsize=32)
def _bundled_board(name: str) -> Board | None:
    entry = _bundled_dir() / f"{name}.toml"
    if not entry.is_file():
        return None
    return parse_board_text(entry.read_text(encoding="utf-8"), f"board {name!r}")


def load_board(ref: object, search_dirs: Sequence[Path] = ()) -> Board:
    """Find a board by name, or build an inline board object.

    A name finds ``<dir>/<name>.toml`` in ``search_dirs`` first (in order), then the bundled
    ``hardware/boards/<name>.toml``.

    :raises RecordError: ``board: ...`` for an unknown name or an invalid board.
    """
    if isinstance(ref, Mapping):
        return parse_board(ref)
    if not isinstance(ref, str):
        raise RecordError(f"board: expected a board name or object, got {type_name(ref)}")
    if not _BOARD_NAME.fullmatch(ref) or ".." in ref:
        raise RecordError(f"board: {ref!r} is not a board name")
    for folder in search_dirs:
        path = Path(folder) / f"{ref}.toml"
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                raise RecordError(f"board: cannot read {path}: {error}") from None
            return parse_board_text(text, str(path))
    board = _bundled_board(ref)
    if board is None:
        known = ", ".join(bundled_board_names())
        raise RecordError(f"board: no board named {ref!r} (bundled: {known})")
    return board


def _open_paths(board: Board, offsets: Sequence[int]) -> list[int]:
    tables = board.tables
    spokes = tables.spokes
    result = []
    for spoke in sorted(board.entrances):
        if all(
            tables.black[ring] >> ((spoke - offsets[ring]) % spokes) & 1 for ring in range(RINGS)
        ):
            result.append(spoke)
    return result


# --------------------------------------------------------------------------------------------
# Seats, states, turns


@dataclass(frozen=True)
class Seat:
    """A player's place: name, corner (0-3, clockwise from top right) and peg colour."""

    name: str
    corner: int
    colour: str


@dataclass(frozen=True)
class Rotation:
    """Ring ``ring`` turned by ``steps`` (> 0 clockwise, < 0 counter-clockwise)."""

    ring: int
    steps: int


@dataclass(frozen=True)
class Turn:
    """One turn: the five dice (every colour) and the rotations made for them."""

    dice: Mapping[str, int]
    rotations: tuple[Rotation, ...] = ()


@dataclass(frozen=True)
class State:
    """A ring-board game between turns (immutable).

    ``pegs`` holds every peg on the board as ``(seat, ring, slot)``, sorted; ``waiting`` the
    pegs waiting at each base of each seat (base order: the seat's corner, then the diagonal
    one in the two-base variants); ``scores`` the points (``solo``: pegs entered);
    ``to_move`` and ``winner`` are seat indices (``to_move`` is None once over).
    """

    board: Board
    variant: Variant
    seats: tuple[Seat, ...]
    offsets: tuple[int, ...]
    pegs: tuple[tuple[int, int, int], ...]
    waiting: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    turns: int = 0
    to_move: int | None = 0
    winner: int | None = None

    @property
    def over(self) -> bool:
        """Say whether the game has ended."""
        return self.to_move is None

    def bases(self, seat: int) -> tuple[int, ...]:
        """Return the corners of a seat's bases, in base order."""
        return _bases(self.variant, self.seats[seat].corner)

    def spoke(self, ring: int, slot: int) -> int:
        """Return the spoke that slot ``slot`` of ring ``ring`` lies on now."""
        return (slot + self.offsets[ring]) % self.board.spokes

    def peg_cells(self) -> list[tuple[int, int, int]]:
        """Return every peg as ``(seat, ring, spoke)``, sorted by seat, ring, spoke."""
        return sorted((seat, ring, self.spoke(ring, slot)) for seat, ring, slot in self.pegs)


def _bases(variant: str, corner: int) -> tuple[int, ...]:
    if variant == "standard":
        return (corner,)
    return (corner, (corner + 2) % 4)


@dataclass(frozen=True)
class Event:
    """One thing that happened in a turn, in order.

    - ``advance``: ``seat``'s peg moved inward from ``start`` to ``end`` (cells on one spoke).
    - ``snipe``: ``seat``'s peg on ``end`` was sniped by ``by``; it waits at ``base`` now.
    - ``centre``: ``seat``'s peg on ``start`` (ring 9) entered Central Control, 1 point; it
      waits at ``base`` again (``solo``: ``base`` is None, it left the game).
    - ``entry``: a peg from ``seat``'s ``base`` was placed on the outer cell ``end``.
    - ``win``: ``seat`` won; the turn stops here.

    ``base`` is a corner number (0-3); cells are ``(ring, spoke)`` after the rotations.
    """

    kind: EventKind
    seat: int
    start: Cell | None = None
    end: Cell | None = None
    base: int | None = None
    by: int | None = None


@dataclass(frozen=True)
class Outcome:
    """The state after a turn and what happened in it."""

    state: State
    events: tuple[Event, ...]


@dataclass(frozen=True)
class DieStatus:
    """How the sensed rings use one die: used, unused, wrong or void (``solo`` locks)."""

    status: DieState
    reason: str
    #: ``reason`` as a phrase, for the reader's language (``reason`` is its English).
    phrase: Phrase | None = field(default=None, compare=False)


def _die_status(status: DieState, phrase: Phrase) -> DieStatus:
    return DieStatus(status, phrase.english(), phrase)


@dataclass(frozen=True)
class Explanation:
    """What the sensed offsets mean for this roll (see :func:`explain`)."""

    rotations: tuple[Rotation, ...] | None
    dice: dict[str, DieStatus]
    rings: dict[int, str]
    reason: str | None
    #: ``reason`` as a phrase, for the reader's language.
    reason_phrase: Phrase | None = field(default=None, compare=False)


_new = object.__new__


def _new_state(
    board: Board,
    variant: Variant,
    seats: tuple[Seat, ...],
    *,
    offsets: tuple[int, ...],
    pegs: tuple[tuple[int, int, int], ...],
    waiting: tuple[tuple[int, ...], ...],
    scores: tuple[int, ...],
    turns: int,
    to_move: int | None,
    winner: int | None,
) -> State:
    """Build a State without the frozen dataclass's per-field ``__setattr__`` calls.

    The rules build one state per turn (and 1,024 per roll preview), and the frozen
    ``__init__`` costs as much as the advance itself. The result equals ``State(...)``.
    """
    state: State = _new(State)
    fields = state.__dict__
    fields["board"] = board
    fields["variant"] = variant
    fields["seats"] = seats
    fields["offsets"] = offsets
    fields["pegs"] = pegs
    fields["waiting"] = waiting
    fields["scores"] = scores
    fields["turns"] = turns
    fields["to_move"] = to_move
    fields["winner"] = winner
    return state


def _event(
    kind: EventKind,
    seat: int,
    start: Cell | None = None,
    end: Cell | None = None,
    *,
    base: int | None = None,
    by: int | None = None,
) -> Event:
    """Build an Event like ``Event(...)`` does, only faster (see :func:`_new_state`)."""
    event: Event = _new(Event)
    fields = event.__dict__
    fields["kind"] = kind
    fields["seat"] = seat
    fields["start"] = start
    fields["end"] = end
    fields["base"] = base
    fields["by"] = by
    return event


# --------------------------------------------------------------------------------------------
# Records


def _parse_seats(value: JSON, variant: str) -> tuple[Seat, ...]:
    items = as_list(value, "seats")
    low, high = {"standard": (2, 4), "two-bases": (2, 2), "solo": (1, 1)}[variant]
    if not low <= len(items) <= high:
        wanted = f"{low} to {high} seats" if low != high else f"{low} seat" + "s" * (low > 1)
        raise RecordError(f"seats: the {variant} variant takes {wanted}, got {len(items)}")
    seats: list[Seat] = []
    corners: set[int] = set()
    for index, item in enumerate(items):
        where = join("seats", index)
        seat = as_dict(item, where)
        name = as_str(get(seat, "name", where), join(where, "name"))
        if not name.strip():
            raise RecordError(f"{where}.name: expected a non-empty string, got {name!r}")
        corner = as_int(get(seat, "corner", where), join(where, "corner"), 0, 3)
        if any(other.name == name for other in seats):
            raise RecordError(f"{where}: name {name!r} is already taken")
        for base in _bases(variant, corner):
            if base in corners:
                raise RecordError(f"{where}: corner {base} is already taken")
            corners.add(base)
        if "colour" in seat:
            colour = as_str(seat["colour"], join(where, "colour"))
            if not colour.strip():
                raise RecordError(f"{where}.colour: expected a non-empty string, got {colour!r}")
            if colour in COLOURS:
                raise RecordError(
                    f"{where}.colour: {colour!r} is a ring colour; seats use other colours"
                )
        else:
            colour = SEAT_COLOURS[corner]
        if any(other.colour == colour for other in seats):
            raise RecordError(f"{where}: colour {colour!r} is already taken")
        seats.append(Seat(name, corner, colour))
    return tuple(seats)


def new_game(setup: Mapping[str, JSON], search_dirs: Sequence[Path] = ()) -> State:
    """Build the starting state from a record's setup (``board``, ``variant``, ``seats``).

    :raises RecordError: naming the key, e.g. ``seats[1]: corner 2 is already taken``.
    """
    setup = as_dict(setup, "record")
    board = load_board(get(setup, "board"), search_dirs)
    variant = cast(Variant, as_str(get(setup, "variant"), "variant", VARIANTS))
    seats = _parse_seats(get(setup, "seats"), variant)
    pegs = []
    waiting = []
    for index, seat in enumerate(seats):
        bases = _bases(variant, seat.corner)
        per_base = PEGS_PER_SEAT // len(bases)
        for corner in bases:
            pegs.append((index, 0, board.corners[corner]))
        waiting.append((per_base - 1,) * len(bases))
    return State(
        board=board,
        variant=variant,
        seats=seats,
        offsets=(0,) * RINGS,
        pegs=tuple(sorted(pegs)),
        waiting=tuple(waiting),
        scores=(0,) * len(seats),
    )


def export_setup(setup: Mapping[str, JSON], search_dirs: Sequence[Path] = ()) -> dict[str, JSON]:
    """Return the setup with its board inlined (so it replays the same after board edits).

    :raises RecordError: when the board cannot be found or is invalid.
    """
    setup = as_dict(setup, "record")
    board = load_board(get(setup, "board"), search_dirs)
    return {**setup, "board": board_to_json(board)}


def _parse_dice(value: JSON, where: str = "dice") -> dict[str, int]:
    dice = as_dict(value, where)
    check_keys(dice, where, COLOURS)
    return {colour: as_int(dice[colour], join(where, colour)) for colour in COLOURS}


def parse_action(state: State, obj: JSON) -> Turn:
    """Parse a turn ``{"dice": {...}, "rotations": [{"ring", "steps"}, ...]}``.

    Only the shape is checked here; :func:`resolve` checks the rules.

    :raises RecordError: naming the key, e.g. ``rotations[1].steps: missing key``.
    """
    if not isinstance(obj, dict):
        raise RecordError(f"expected a turn object, got {type_name(obj)}")
    check_keys(obj, "", ("dice", "rotations"))
    dice = _parse_dice(obj["dice"])
    rotations = []
    for index, item in enumerate(as_list(obj["rotations"], "rotations")):
        where = join("rotations", index)
        rotation = as_dict(item, where)
        check_keys(rotation, where, ("ring", "steps"))
        ring = as_int(rotation["ring"], join(where, "ring"), 0, RINGS - 1)
        steps = as_int(rotation["steps"], join(where, "steps"))
        rotations.append(Rotation(ring, steps))
    return Turn(dice, tuple(rotations))


def action_to_json(action: Turn) -> dict[str, JSON]:
    """Format a turn as the record does (:func:`parse_action` reads it back)."""
    return {
        "dice": {colour: action.dice[colour] for colour in COLOURS},
        "rotations": [{"ring": r.ring, "steps": r.steps} for r in action.rotations],
    }


def is_over(state: State) -> bool:
    """Say whether the game has ended."""
    return state.to_move is None


def summary(state: State) -> dict[str, JSON]:
    """Return the replay summary of rings.md section 6 (keys in that order)."""
    names = [seat.name for seat in state.seats]
    return {
        "game": KIND,
        "turns": state.turns,
        "to_move": None if state.to_move is None else names[state.to_move],
        "over": state.over,
        "winner": None if state.winner is None else names[state.winner],
        "scores": dict(zip(names, state.scores, strict=True)),
        "offsets": list(state.offsets),
        "pegs": [[names[seat], ring, spoke] for seat, ring, spoke in state.peg_cells()],
        "waiting": {name: list(w) for name, w in zip(names, state.waiting, strict=True)},
    }


# --------------------------------------------------------------------------------------------
# State JSON


def state_to_json(state: State) -> dict[str, JSON]:
    """Return the whole state as JSON (:func:`state_from_json` reads it back equal).

    Pegs are ``[seat, ring, slot]`` (the slot, not the spoke: pegs ride their ring).
    """
    return {
        "board": board_to_json(state.board),
        "variant": state.variant,
        "seats": [
            {"name": seat.name, "corner": seat.corner, "colour": seat.colour}
            for seat in state.seats
        ],
        "offsets": list(state.offsets),
        "pegs": [list(peg) for peg in state.pegs],
        "waiting": [list(w) for w in state.waiting],
        "scores": list(state.scores),
        "turns": state.turns,
        "to_move": state.to_move,
        "winner": state.winner,
    }


def _optional_seat(value: JSON, where: str, seats: int) -> int | None:
    if value is None:
        return None
    return as_int(value, where, 0, seats - 1)


def _parse_pegs(
    value: JSON, seats: int, spokes: int
) -> tuple[set[tuple[int, int, int]], list[int]]:
    """Parse a state's ``pegs``; return them and how many each seat has on the board."""
    pegs: set[tuple[int, int, int]] = set()
    cells: set[tuple[int, int]] = set()
    counts = [0] * seats
    for index, item in enumerate(as_list(value, "pegs")):
        where = join("pegs", index)
        triple = as_list(item, where)
        if len(triple) != 3:
            raise RecordError(f"{where}: expected [seat, ring, slot], got {len(triple)} items")
        seat = as_int(triple[0], join(where, 0), 0, seats - 1)
        ring = as_int(triple[1], join(where, 1), 0, RINGS - 1)
        slot = as_int(triple[2], join(where, 2), 0, spokes - 1)
        if (ring, slot) in cells:
            raise RecordError(f"{where}: ring {ring} slot {slot} holds two pegs")
        cells.add((ring, slot))
        pegs.add((seat, ring, slot))
        counts[seat] += 1
    return pegs, counts


def _parse_waiting(value: JSON, variant: str, seats: tuple[Seat, ...]) -> list[tuple[int, ...]]:
    """Parse a state's ``waiting``: per seat, the pegs waiting at each of its bases."""
    waiting_list = as_list(value, "waiting")
    if len(waiting_list) != len(seats):
        raise RecordError(f"waiting: expected {len(seats)} lists, got {len(waiting_list)}")
    waiting = []
    for index, item in enumerate(waiting_list):
        where = join("waiting", index)
        bases = len(_bases(variant, seats[index].corner))
        values = as_list(item, where)
        if len(values) != bases:
            raise RecordError(f"{where}: expected {bases} bases, got {len(values)}")
        waiting.append(tuple(as_int(v, join(where, b), 0) for b, v in enumerate(values)))
    return waiting


def state_from_json(obj: JSON) -> State:
    """Rebuild a state from :func:`state_to_json`'s output, checking it is consistent.

    :raises RecordError: naming the key that is wrong.
    """
    obj = as_dict(obj, "state")
    keys = ("board", "variant", "seats", "offsets", "pegs", "waiting", "scores")
    check_keys(obj, "", (*keys, "turns", "to_move", "winner"))
    board = parse_board(obj["board"])
    variant = cast(Variant, as_str(obj["variant"], "variant", VARIANTS))
    seats = _parse_seats(obj["seats"], variant)
    spokes = board.spokes
    offsets = as_list(obj["offsets"], "offsets")
    if len(offsets) != RINGS:
        raise RecordError(f"offsets: expected {RINGS} offsets, got {len(offsets)}")
    offset_values = tuple(
        as_int(value, join("offsets", i), 0, spokes - 1) for i, value in enumerate(offsets)
    )
    pegs, counts = _parse_pegs(obj["pegs"], len(seats), spokes)
    waiting = _parse_waiting(obj["waiting"], variant, seats)
    for index, item in enumerate(waiting):
        counts[index] += sum(item)
    score_list = as_list(obj["scores"], "scores")
    if len(score_list) != len(seats):
        raise RecordError(f"scores: expected {len(seats)} scores, got {len(score_list)}")
    scores = tuple(as_int(v, join("scores", i), 0, WINNING_SCORE) for i, v in enumerate(score_list))
    if variant == "solo":
        counts[0] += scores[0]
    for index, count in enumerate(counts):
        if count != PEGS_PER_SEAT:
            raise RecordError(
                f"pegs: seat {seats[index].name!r} has {count} pegs in all, "
                f"expected {PEGS_PER_SEAT}"
            )
    turns = as_int(get(obj, "turns"), "turns", 0)
    to_move = _optional_seat(get(obj, "to_move"), "to_move", len(seats))
    winner = _optional_seat(get(obj, "winner"), "winner", len(seats))
    if (to_move is None) != (winner is not None):
        raise RecordError("to_move: null exactly when there is a winner")
    return State(
        board=board,
        variant=variant,
        seats=seats,
        offsets=offset_values,
        pegs=tuple(sorted(pegs)),
        waiting=tuple(waiting),
        scores=scores,
        turns=turns,
        to_move=to_move,
        winner=winner,
    )


# --------------------------------------------------------------------------------------------
# The rules


def locked_rings(state: State) -> frozenset[int]:
    """Return the rings that may not turn this turn (``solo`` only; empty otherwise).

    A ring is locked when no peg waits at any base and every peg on the board lies on a
    ring with a higher index.
    """
    if state.variant != "solo" or any(any(w) for w in state.waiting):
        return frozenset()
    lowest = min((ring for _, ring, _ in state.pegs), default=RINGS)
    return frozenset(range(lowest))


def _check_dice(state: State, dice: Mapping[str, int]) -> None:
    try:
        values = [dice[colour] for colour in COLOURS]
    except KeyError:
        values = []
    if len(values) != len(COLOURS) or len(dice) != len(COLOURS):
        raise RecordError(f"dice: expected exactly the colours {', '.join(COLOURS)}")
    faces = state.board.tables.faces
    if faces.issuperset(values):
        return
    for colour, value in zip(COLOURS, values, strict=True):
        if value not in faces:
            shown = ", ".join(str(f) for f in sorted(faces))
            raise IllegalAction.said(
                say(
                    "the {colour} die shows {value}, not a face of this board's dice ({faces})",
                    colour=_colour(colour),
                    value=_text(value),
                    faces=shown,
                )
            )


def parse_dice(state: State, value: JSON) -> dict[str, int]:
    """Read a roll of the five dice entered on their own (the live ring-board step).

    The same checks as the dice of a turn: the shape here, the faces by the rules.

    :raises RecordError: naming the key, e.g. ``dice.blue: missing key``.
    :raises IllegalAction: a value that is not a face of this board's dice.
    """
    dice = _parse_dice(value)
    _check_dice(state, dice)
    return dice


def _turned_offsets(state: State, turn: Turn) -> tuple[int, ...]:
    """Check a turn's dice and rotations against section 3.2; return the new offsets."""
    if state.to_move is None:
        raise IllegalAction.said(say("the game is over"))
    dice = turn.dice
    _check_dice(state, dice)
    tables = state.board.tables
    spokes = tables.spokes
    locked = locked_rings(state) if state.variant == "solo" else frozenset()
    offsets = list(state.offsets)
    turned: set[str] = set()
    rings: set[int] = set()
    for rotation in turn.rotations:
        ring, steps = rotation.ring, rotation.steps
        if not 0 <= ring < RINGS:
            raise RecordError(f"ring {ring} is out of 0..{RINGS - 1}")
        colour = tables.ring_colour[ring]
        named = _colour(colour)
        if ring in rings:
            raise IllegalAction.said(
                say("ring {ring} ({colour}) turned twice", ring=ring, colour=named)
            )
        rings.add(ring)
        if ring in locked:
            raise IllegalAction.said(
                say("ring {ring} ({colour}) is locked", ring=ring, colour=named)
            )
        value = dice[colour]
        if value == 0:
            raise IllegalAction.said(
                say(
                    "the {colour} die shows 0 but ring {ring} ({colour}) turned",
                    ring=ring,
                    colour=named,
                )
            )
        if steps not in (value, -value):
            raise IllegalAction.said(
                say(
                    "ring {ring} ({colour}) turned {steps} but the {colour} die shows {value}",
                    ring=ring,
                    colour=named,
                    steps=steps,
                    value=value,
                )
            )
        if colour in turned:
            raise IllegalAction.said(say("both {colour} rings turned", colour=named))
        turned.add(colour)
        offsets[ring] = (offsets[ring] + steps) % spokes
    for colour in COLOURS:
        value = dice[colour]
        if value and colour not in turned:
            first, second = tables.colour_rings[colour]
            if first not in locked or second not in locked:
                raise IllegalAction.said(
                    say(
                        "the {colour} die shows {value} but no {colour} ring turned",
                        colour=_colour(colour),
                        value=value,
                    )
                )
    return tuple(offsets)


class _Turn:
    """The working state of one turn's advance and entry, for :func:`_play`.

    It holds the cells by index (``ring * spokes + slot``), the waiting pegs and the scores
    as lists the advance changes in place, and appends each event to ``log`` when there is one.
    """

    __slots__ = (
        "black",
        "entrances",
        "log",
        "mover",
        "occupied",
        "offsets",
        "scores",
        "seats",
        "solo",
        "spokes",
        "state",
        "waiting",
        "winner",
    )

    def __init__(
        self, state: State, mover: int, offsets: tuple[int, ...], log: list[Event] | None
    ) -> None:
        tables = state.board.tables
        self.state = state
        self.mover = mover
        self.offsets = offsets
        self.log = log
        self.spokes = tables.spokes
        self.black = tables.black
        self.entrances = tables.entrances
        self.solo = state.variant == "solo"
        self.seats = state.seats
        self.occupied = {ring * self.spokes + slot: seat for seat, ring, slot in state.pegs}
        self.waiting = [list(w) for w in state.waiting]
        self.scores = list(state.scores)
        self.winner: int | None = None

    def movers_pegs(self) -> list[tuple[int, int]]:
        """Return the mover's pegs as (ring, spoke), innermost first (rings.md section 3.3)."""
        spokes, offsets, mover = self.spokes, self.offsets, self.mover
        mine = [
            (-ring, (slot + offsets[ring]) % spokes)
            for seat, ring, slot in self.state.pegs
            if seat == mover
        ]
        mine.sort()
        return [(-negative_ring, spoke) for negative_ring, spoke in mine]

    def _back_to_base(self, seat: int) -> int:
        here = self.waiting[seat]
        index = 0 if len(here) == 1 or here[0] <= here[1] else 1
        here[index] += 1
        return _bases(self.state.variant, self.seats[seat].corner)[index]

    def _score(self) -> bool:
        """Count one point for the mover; return whether it won the game."""
        mover = self.mover
        self.scores[mover] += 1
        if self.scores[mover] >= WINNING_SCORE:
            self.winner = mover
            return True
        return False

    def _snipe(self, other: int, ring: int, spoke: int) -> bool:
        """Send ``other``'s peg at (ring, spoke) home and score; return whether the mover won."""
        base = self._back_to_base(other)
        if self.log is not None:
            self.log.append(_event("snipe", other, None, (ring, spoke), base=base, by=self.mover))
        return self._score()

    def _moved(self, start: int, ring: int, spoke: int) -> None:
        if self.log is not None and ring != start:
            self.log.append(_event("advance", self.mover, (start, spoke), (ring, spoke)))

    def advance(self, ring: int, spoke: int) -> None:
        """Move the mover's peg at ``ring`` on ``spoke`` inward while the next cell is open."""
        spokes, offsets, black, occupied, mover = (
            self.spokes,
            self.offsets,
            self.black,
            self.occupied,
            self.mover,
        )
        start = ring
        key = ring * spokes + (spoke - offsets[ring]) % spokes
        while ring != INNER:
            step = ring + 1
            slot = (spoke - offsets[step]) % spokes
            if not black[step] >> slot & 1:
                break
            target = step * spokes + slot
            other = occupied.get(target)
            if other == mover:
                break
            del occupied[key]
            occupied[target] = mover
            key = target
            ring = step
            if other is not None:
                self._moved(start, ring, spoke)
                start = ring
                if self._snipe(other, ring, spoke):
                    return
        self._moved(start, ring, spoke)
        if ring == INNER and self.entrances >> spoke & 1:
            del occupied[key]
            base = None if self.solo else self._back_to_base(mover)
            if self.log is not None:
                self.log.append(_event("centre", mover, (ring, spoke), base=base))
            self._score()

    def enter(self) -> None:
        """Enter one waiting peg at each of the mover's bases whose outer cell is open."""
        mover, spokes, occupied = self.mover, self.spokes, self.occupied
        offset, black = self.offsets[0], self.black[0]
        mine_waiting = self.waiting[mover]
        for index, corner in enumerate(_bases(self.state.variant, self.seats[mover].corner)):
            if not mine_waiting[index]:
                continue
            spoke = self.state.board.corners[corner]
            slot = (spoke - offset) % spokes
            if not black >> slot & 1:
                continue
            other = occupied.get(slot)
            if other == mover:
                continue
            occupied[slot] = mover
            mine_waiting[index] -= 1
            if self.log is not None:
                self.log.append(_event("entry", mover, None, (0, spoke), base=corner))
            if other is not None and self._snipe(other, 0, spoke):
                return

    def result(self) -> State:
        """Return the state after the turn."""
        state, spokes, winner = self.state, self.spokes, self.winner
        pegs = [(seat, key // spokes, key % spokes) for key, seat in self.occupied.items()]
        return _new_state(
            state.board,
            state.variant,
            self.seats,
            offsets=self.offsets,
            pegs=tuple(sorted(pegs)),
            waiting=tuple([tuple(w) for w in self.waiting]),
            scores=tuple(self.scores),
            turns=state.turns + 1,
            to_move=None if winner is not None else (self.mover + 1) % len(self.seats),
            winner=winner,
        )


def _play(state: State, offsets: tuple[int, ...], log: list[Event] | None) -> State:
    """Play the advance, the entry and the end of a turn with the rings at ``offsets``."""
    mover = state.to_move
    if mover is None:
        raise IllegalAction.said(say("the game is over"))
    turn = _Turn(state, mover, offsets, log)
    for ring, spoke in turn.movers_pegs():
        turn.advance(ring, spoke)
        if turn.winner is not None:
            break
    if turn.winner is None:
        turn.enter()
    if turn.winner is not None and log is not None:
        log.append(_event("win", turn.winner))
    return turn.result()


def resolve(state: State, turn: Turn) -> Outcome:
    """Play one turn: check it, turn the rings, advance, enter, and end (rings.md section 3).

    :raises IllegalAction: naming the reason, e.g. ``both red rings turned``.
    """
    offsets = _turned_offsets(state, turn)
    log: list[Event] = []
    after = _play(state, offsets, log)
    return Outcome(after, tuple(log))


def apply(state: State, action: Turn) -> State:
    """Return the state after a turn (``resolve(state, action).state``).

    :raises IllegalAction: when the rules refuse the turn.
    """
    return _play(state, _turned_offsets(state, action), None)


def _check_offsets(state: State, offsets: Sequence[int]) -> tuple[int, ...]:
    if len(offsets) != RINGS:
        raise RecordError(f"offsets: expected {RINGS} offsets, got {len(offsets)}")
    spokes = state.board.spokes
    return tuple(
        as_int(value, join("offsets", index)) % spokes for index, value in enumerate(offsets)
    )


def preview(state: State, offsets: Sequence[int]) -> Outcome:
    """Return what the advance and the entry would do if the turn ended at ``offsets``.

    The dice are not checked: this is the live preview while the rings are being turned.

    :raises IllegalAction: when the game is over.
    """
    log: list[Event] = []
    after = _play(state, _check_offsets(state, offsets), log)
    return Outcome(after, tuple(log))


def _choices(state: State, dice: Mapping[str, int]) -> list[list[Rotation]]:
    tables = state.board.tables
    locked = locked_rings(state)
    choices: list[list[Rotation]] = []
    for colour in COLOURS:
        value = dice[colour]
        free = [ring for ring in tables.colour_rings[colour] if ring not in locked]
        if value and free:
            choices.append([Rotation(ring, steps) for ring in free for steps in (value, -value)])
    return choices


def legal_rotation_sets(state: State, dice: Mapping[str, int]) -> list[tuple[Rotation, ...]]:
    """Return every legal rotation set for the roll, each sorted by ring.

    A colour showing v > 0 contributes one of its (unlocked) rings turned by +v or -v; zero
    and void dice contribute nothing. Empty once the game is over.

    :raises RecordError: for dice without exactly the five colours.
    :raises IllegalAction: for a die value that is not one of the board's faces.
    """
    _check_dice(state, dice)
    if state.to_move is None:
        return []
    return [
        tuple(sorted(combo, key=_ring_of)) for combo in itertools.product(*_choices(state, dice))
    ]


_ring_of = operator.attrgetter("ring")


def outcomes(state: State, dice: Mapping[str, int]) -> list[tuple[tuple[Rotation, ...], Outcome]]:
    """Resolve every legal rotation set of the roll: ``[(rotations, outcome), ...]``.

    :raises RecordError: for dice without exactly the five colours.
    :raises IllegalAction: for a die value that is not one of the board's faces.
    """
    spokes = state.board.spokes
    result = []
    for rotations in legal_rotation_sets(state, dice):
        offsets = list(state.offsets)
        for rotation in rotations:
            offsets[rotation.ring] = (offsets[rotation.ring] + rotation.steps) % spokes
        log: list[Event] = []
        after = _play(state, tuple(offsets), log)
        result.append((rotations, Outcome(after, tuple(log))))
    return result


def roll(rng: random.Random, board: Board) -> dict[str, int]:
    """Roll the five dice: each shows one of the board's faces."""
    return {colour: rng.choice(board.dice) for colour in COLOURS}


def open_paths(state: State) -> list[int]:
    """Return the entrance spokes along which every ring's cell is black (pegs ignored)."""
    return _open_paths(state.board, state.offsets)


def _signed(delta: int, spokes: int) -> int:
    """Return a turn modulo ``spokes`` as the shortest signed turn (half a turn is +)."""
    return delta if delta <= spokes // 2 else delta - spokes


def _offset_note(ring: int, delta: int, spokes: int) -> str:
    return offset_phrase(ring, _signed(delta, spokes)).english()


def offset_phrase(ring: int, steps: int) -> Phrase:
    """``ring 3 is 2 slots clockwise of where the game has it`` (``steps`` signed, not 0)."""
    way = say("clockwise") if steps > 0 else say("counter-clockwise")
    return say_n(
        "ring {ring} is {count} slot {way} of where the game has it",
        "ring {ring} is {count} slots {way} of where the game has it",
        abs(steps),
        ring=ring,
        way=way,
    )


def explain(state: State, dice: Mapping[str, int], offsets: Sequence[int]) -> Explanation:
    """Explain sensed offsets by the dice: the inverse of turning the rings.

    ``state.offsets`` are the offsets at the turn's start, ``offsets`` the sensed ones now.
    ``rotations`` is the legal set that gives exactly ``offsets`` (when v is half the board,
    the clockwise turn is named), else None and ``reason`` says the first reason, colour by
    colour, in the wording :func:`resolve` uses.

    :raises RecordError: for malformed dice or offsets.
    :raises IllegalAction: for a die value that is not one of the board's faces.
    """
    _check_dice(state, dice)
    now = _check_offsets(state, offsets)
    tables = state.board.tables
    spokes = tables.spokes
    delta = [(now[ring] - state.offsets[ring]) % spokes for ring in range(RINGS)]
    locked = locked_rings(state)
    statuses: dict[str, DieStatus] = {}
    notes: dict[int, str] = {}
    rotations: list[Rotation] = []
    reason: str | None = None
    reason_phrase: Phrase | None = None
    for colour in COLOURS:
        value = dice[colour]
        pair = tables.colour_rings[colour]
        turned = [ring for ring in pair if delta[ring]]
        void = bool(value) and all(ring in locked for ring in pair)
        named = _colour(colour)
        status: DieStatus
        if turned and (len(turned) == 2 or turned[0] in locked or not value or void):
            wrong = turned[0]
            if len(turned) == 2 and value and not void:
                why = say("both {colour} rings turned", colour=named)
            elif wrong in locked:
                why = say("ring {ring} ({colour}) is locked", ring=wrong, colour=named)
            else:
                why = say(
                    "the {colour} die shows 0 but ring {ring} ({colour}) turned",
                    ring=wrong,
                    colour=named,
                )
            status = _die_status("wrong", why)
            for ring in turned:
                notes[ring] = _offset_note(ring, delta[ring], spokes)
        elif turned:
            ring = turned[0]
            if delta[ring] == value % spokes:
                status = _die_status(
                    "used",
                    say(
                        "ring {ring} ({colour}) turned {value} clockwise",
                        ring=ring,
                        colour=named,
                        value=value,
                    ),
                )
                rotations.append(Rotation(ring, value))
            elif delta[ring] == -value % spokes:
                status = _die_status(
                    "used",
                    say(
                        "ring {ring} ({colour}) turned {value} counter-clockwise",
                        ring=ring,
                        colour=named,
                        value=value,
                    ),
                )
                rotations.append(Rotation(ring, -value))
            else:
                status = _die_status(
                    "wrong",
                    say(
                        "ring {ring} ({colour}) turned {steps} but the {colour} die shows {value}",
                        ring=ring,
                        colour=named,
                        steps=_signed(delta[ring], spokes),
                        value=value,
                    ),
                )
                notes[ring] = _offset_note(ring, delta[ring], spokes)
        elif void:
            status = _die_status(
                "void",
                say("the {colour} die is void: both {colour} rings are locked", colour=named),
            )
        elif value:
            status = _die_status(
                "unused",
                say(
                    "the {colour} die shows {value} but no {colour} ring turned",
                    colour=named,
                    value=value,
                ),
            )
        else:
            status = _die_status(
                "used", say("the {colour} die shows 0: no {colour} ring turns", colour=named)
            )
        statuses[colour] = status
        if reason is None and status.status in ("wrong", "unused"):
            reason = status.reason
            reason_phrase = status.phrase
    found = None if reason is not None else tuple(sorted(rotations, key=_ring_of))
    return Explanation(found, statuses, notes, reason, reason_phrase)


# --------------------------------------------------------------------------------------------
# Words for the table


def _base_words(state: State, seat: int, corner: int | None) -> Phrase:
    name = state.seats[seat].name
    if corner is None or state.variant == "standard":
        return say("{name}'s base", name=name)
    return say("{name}'s base at corner {corner}", name=name, corner=corner)


def describe(event: Event, state: State) -> Phrase:
    """Say what to do at the table for an event, in plain words (``.english()`` for English).

    ``state`` gives the seat names (the state before or after the turn; both have them).
    """
    name = state.seats[event.seat].name
    if event.kind == "advance" and event.start is not None and event.end is not None:
        return say(
            "move {name}'s peg on spoke {spoke} from ring {start} to ring {end}",
            name=name,
            spoke=event.start[1],
            start=event.start[0],
            end=event.end[0],
        )
    if event.kind == "snipe" and event.end is not None:
        ring, spoke = event.end
        return say(
            "{name}'s peg on ring {ring}, spoke {spoke} is sniped: back to {base}",
            name=name,
            ring=ring,
            spoke=spoke,
            base=_base_words(state, event.seat, event.base),
        )
    if event.kind == "centre" and event.start is not None:
        ring, spoke = event.start
        if event.base is None:
            return say(
                "{name}'s peg on ring {ring}, spoke {spoke} enters Central Control (1 point): "
                "it leaves the game",
                name=name,
                ring=ring,
                spoke=spoke,
            )
        return say(
            "{name}'s peg on ring {ring}, spoke {spoke} enters Central Control (1 point): "
            "back to {base}",
            name=name,
            ring=ring,
            spoke=spoke,
            base=_base_words(state, event.seat, event.base),
        )
    if event.kind == "entry" and event.end is not None:
        ring, spoke = event.end
        return say(
            "put a peg from {base} on ring {ring}, spoke {spoke}",
            base=_base_words(state, event.seat, event.base),
            ring=ring,
            spoke=spoke,
        )
    if event.kind == "win":
        if state.variant == "solo":
            return say("{name} has brought all six pegs into Central Control", name=name)
        return say("{name} wins with {points} points", name=name, points=WINNING_SCORE)
    return say("{kind} for {name}", kind=event.kind, name=name)


def describe_all(outcome: Outcome) -> list[Phrase]:
    """Return the table instructions for every event of an outcome, in order."""
    return [describe(event, outcome.state) for event in outcome.events]
