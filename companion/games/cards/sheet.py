"""The score sheet: score two rivers and cups entered by hand (cards.md section 9)."""

from __future__ import annotations

from companion.games.base import JSON, RecordError, as_dict, as_int, as_list, check_keys, join
from companion.games.cards.model import COLOURS, RIVER_SPACES
from companion.games.cards.record import KIND, parse_colour
from companion.games.cards.rules import cup_score, winner_index


def parse_river(value: JSON, where: str) -> list[str]:
    """Check a river: at most six different colours, space 1 first."""
    value = as_list(value, where)
    if len(value) > RIVER_SPACES:
        raise RecordError(f"{where}: {len(value)} colours; a river has at most {RIVER_SPACES}")
    river: list[str] = []
    for i, item in enumerate(value):
        colour = parse_colour(item, join(where, i))
        if colour in river:
            raise RecordError(f"{join(where, i)}: {colour!r} is already in the river")
        river.append(colour)
    return river


def parse_cup(value: JSON, where: str) -> dict[str, int]:
    """Check a cup: colour to a whole number of cards >= 0."""
    cup: dict[str, int] = {}
    for colour, count in as_dict(value, where).items():
        key = join(where, colour)
        if colour not in COLOURS:
            raise RecordError(f"{key}: {colour!r} is not one of {', '.join(COLOURS)}")
        n = as_int(count, key)
        if n < 0:
            raise RecordError(f"{key}: {n} is negative; counts are whole numbers >= 0")
        cup[colour] = n
    return cup


def score_sheet(obj: JSON) -> dict[str, JSON]:
    """Score a sheet ``{"game": "cards", "sheet": {seat: {"river", "cup"}, ...}}``.

    Returns ``{"scores": {seat: points}, "winner": seat or None}`` with the tie rules of
    section 6 (more points; then fewer cup cards; then nobody).

    :raises RecordError: naming the key, e.g. ``sheet.Ann.river[2]: 'red' is already in
        the river``.
    """
    obj = as_dict(obj, "sheet file")
    check_keys(obj, "record", ["game", "sheet"])
    if obj["game"] != KIND:
        raise RecordError(f"game: {obj['game']!r} is not {KIND!r}")
    sheet = as_dict(obj["sheet"], "sheet")
    if len(sheet) != 2:
        raise RecordError(f"sheet: the card game has 2 seats, got {len(sheet)}")
    points: dict[str, int] = {}
    cup_sizes: list[int] = []
    for name, value in sheet.items():
        where = join("sheet", name)
        entry = as_dict(value, where)
        check_keys(entry, where, ["river", "cup"])
        river = parse_river(entry["river"], join(where, "river"))
        cup = parse_cup(entry["cup"], join(where, "cup"))
        points[name] = cup_score(river, cup)
        cup_sizes.append(sum(cup.values()))
    names = list(points)
    best = winner_index([points[n] for n in names], cup_sizes)
    return {"scores": points, "winner": None if best is None else names[best]}
