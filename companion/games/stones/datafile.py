"""The data file of Mandala Stones: the printed values the rules need (stones.md section 1).

The bundled file is ``hardware/games/stones.toml`` (placeholders until the owner copies the
values from the box); a record may carry the same content inline under ``"board"``.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from companion.games.base import (
    JSON,
    RecordError,
    as_bool,
    as_dict,
    as_int,
    as_list,
    as_str,
    check_keys,
    get,
    join,
)
from companion.games.stones.pieces import (
    ARTIST_COUNT,
    SPACE_COUNT,
    STACK_HEIGHT,
    Cell,
    as_whole_at_least,
    cell_text,
    parse_artist_space,
)

Rule = Literal["heights", "level", "colours"]
RULES: tuple[Rule, ...] = get_args(Rule)
SEAT_COUNTS = (2, 3, 4)
BUNDLED_LABEL = "hardware/games/stones.toml"
_WHOLE = re.compile(r"-?[0-9]+")


@dataclass(frozen=True)
class Space:
    """One player-board space's scoring rule."""

    rule: Rule
    table: tuple[int, ...] = ()
    """``level`` only: the VP for the scored stone at heights 1, 2, 3, 4."""
    count_empty: bool = False
    """``heights`` only: an empty space counts as height 0."""


@dataclass(frozen=True)
class DataFile:
    """The printed values: artist starts, the five spaces' rules, the mandala board."""

    placeholder: bool
    artist_starts: tuple[Cell, ...]
    spaces: tuple[Space, ...]
    places: int
    bonus: tuple[tuple[int, int], ...]
    """(place, VP) pairs, places ascending."""
    end: tuple[tuple[int, int], ...]
    """(seat count, end place) for 2, 3 and 4 seats."""

    def bonus_at(self, place: int) -> int:
        """Return the VP printed on mandala place ``place`` (0 if none)."""
        for where, vp in self.bonus:
            if where == place:
                return vp
        return 0

    def end_place(self, seats: int) -> int:
        """Return the end place for ``seats`` seats."""
        return dict(self.end)[seats]


def _parse_space(value: JSON, where: str) -> Space:
    obj = as_dict(value, where)
    rule: Rule = as_str(get(obj, "rule", where), join(where, "rule"), RULES)  # type: ignore[assignment]
    if rule == "heights":
        check_keys(obj, where, ["rule"], ["count_empty"])
        count_empty = obj.get("count_empty", False)
        return Space(rule, count_empty=as_bool(count_empty, join(where, "count_empty")))
    if rule == "level":
        check_keys(obj, where, ["rule", "table"])
        table_where = join(where, "table")
        items = as_list(obj["table"], table_where)
        if len(items) != STACK_HEIGHT:
            raise RecordError(
                f"{table_where}: expected {STACK_HEIGHT} whole numbers >= 0 "
                f"(heights 1 to {STACK_HEIGHT}), got {len(items)}"
            )
        table = tuple(as_whole_at_least(v, join(table_where, i), 0) for i, v in enumerate(items))
        return Space(rule, table=table)
    check_keys(obj, where, ["rule"])
    return Space(rule)


def _parse_place_key(key: str, where: str) -> int:
    if not _WHOLE.fullmatch(key):
        raise RecordError(f"{where}: {key!r} is not a whole number")
    return int(key)


def _parse_mandala(
    value: JSON, where: str
) -> tuple[int, tuple[tuple[int, int], ...], dict[int, int]]:
    obj = as_dict(value, where)
    check_keys(obj, where, ["places", "end"], ["bonus"])
    places = as_whole_at_least(obj["places"], join(where, "places"), 1)
    bonus_where = join(where, "bonus")
    bonus: dict[int, int] = {}
    for key, vp in as_dict(obj.get("bonus", {}), bonus_where).items():
        key_where = join(bonus_where, key)
        place = _parse_place_key(key, key_where)
        if not 1 <= place <= places:
            raise RecordError(f"{key_where}: place {place} is out of 1..{places}")
        if place in bonus:
            raise RecordError(f"{key_where}: place {place} is given twice")
        bonus[place] = as_whole_at_least(vp, key_where, 0)
    end_where = join(where, "end")
    end_obj = as_dict(get(obj, "end", where), end_where)
    end: dict[int, int] = {}
    for key, place_value in end_obj.items():
        key_where = join(end_where, key)
        if key not in {str(n) for n in SEAT_COUNTS}:
            raise RecordError(f"{key_where}: unknown key (the seat counts are 2, 3 and 4)")
        seats = int(key)
        place = as_int(place_value, key_where)
        if not 1 <= place <= places:
            raise RecordError(f"{key_where}: place {place} is out of 1..{places}")
        end[seats] = place
    for seats in SEAT_COUNTS:
        if seats not in end:
            raise RecordError(f"{end_where}: the end place for {seats} seats is missing")
    return places, tuple(sorted(bonus.items())), end


def parse_data_file(value: JSON, where: str = "board") -> DataFile:
    """Validate a data file given as an object (parsed TOML or an inline ``board``).

    :raises RecordError: naming the key, e.g. ``board.spaces[1].table: expected 4 whole
        numbers >= 0 (heights 1 to 4), got 3``.
    """
    obj = as_dict(value, where or "data file")
    check_keys(obj, where, ["artist_starts", "spaces", "mandala"], ["placeholder"])
    placeholder = as_bool(obj.get("placeholder", False), join(where, "placeholder"))

    starts_where = join(where, "artist_starts")
    starts_list = as_list(obj["artist_starts"], starts_where)
    if len(starts_list) != ARTIST_COUNT:
        raise RecordError(
            f"{starts_where}: expected {ARTIST_COUNT} distinct artist spaces, "
            f"got {len(starts_list)}"
        )
    starts: list[Cell] = []
    for i, item in enumerate(starts_list):
        cell = parse_artist_space(item, join(starts_where, i))
        if cell in starts:
            raise RecordError(f"{join(starts_where, i)}: {cell_text(cell)} is listed twice")
        starts.append(cell)

    spaces_where = join(where, "spaces")
    spaces_list = as_list(obj["spaces"], spaces_where)
    if len(spaces_list) != SPACE_COUNT:
        raise RecordError(f"{spaces_where}: expected {SPACE_COUNT} spaces, got {len(spaces_list)}")
    spaces = tuple(_parse_space(s, join(spaces_where, i)) for i, s in enumerate(spaces_list))

    places, bonus, end = _parse_mandala(obj["mandala"], join(where, "mandala"))
    return DataFile(
        placeholder=placeholder,
        artist_starts=tuple(starts),
        spaces=spaces,
        places=places,
        bonus=bonus,
        end=tuple(sorted(end.items())),
    )


def data_file_to_json(data: DataFile) -> dict[str, JSON]:
    """Write a data file as the object ``parse_data_file`` reads back (an inline ``board``)."""
    spaces: list[dict[str, JSON]] = []
    for space in data.spaces:
        entry: dict[str, JSON] = {"rule": space.rule}
        if space.rule == "heights":
            entry["count_empty"] = space.count_empty
        elif space.rule == "level":
            entry["table"] = list(space.table)
        spaces.append(entry)
    return {
        "placeholder": data.placeholder,
        "artist_starts": [list(cell) for cell in data.artist_starts],
        "spaces": spaces,
        "mandala": {
            "places": data.places,
            "bonus": {str(place): vp for place, vp in data.bonus},
            "end": {str(seats): place for seats, place in data.end},
        },
    }


def parse_data_file_text(text: str, label: str) -> DataFile:
    """Parse a data file's TOML text; errors start with ``label``.

    :raises RecordError: ``"<label>: not TOML: ..."`` or ``"<label>: <key>: <reason>"``.
    """
    try:
        obj = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RecordError(f"{label}: not TOML: {error}") from error
    try:
        return parse_data_file(obj, "")
    except RecordError as error:
        raise error.at(label) from error


@functools.cache
def load_data_file() -> DataFile:
    """Return the bundled data file, ``hardware/games/stones.toml`` (read once).

    :raises RecordError: when the bundled file is missing or invalid, naming it and the key.
    """
    resource = importlib.resources.files("hardware") / "games" / "stones.toml"
    try:
        text = resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"{BUNDLED_LABEL}: cannot read: {error}") from error
    return parse_data_file_text(text, BUNDLED_LABEL)


def data_file_from_setup(setup: Mapping[str, JSON]) -> DataFile:
    """Return the record's inline ``board`` if it has one, else the bundled data file."""
    if "board" in setup:
        return parse_data_file(setup["board"], "board")
    return load_data_file()
