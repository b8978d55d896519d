"""The seeded setup generator: a random main board for the table to build."""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.base import JSON
from companion.games.stones.datafile import DataFile, data_file_to_json, load_data_file
from companion.games.stones.pieces import (
    ARTIST_COUNT,
    KINDS,
    PATTERNS,
    STONES_PER_KIND,
    parse_seats,
)


def random_setup(seed: int, seats: Sequence[str], data: DataFile | None = None) -> dict[str, JSON]:
    """Return a record setup for ``seats``: the 96 stones shuffled by ``seed`` (setup order,
    stones.md section 2) and the artists on the data file's start spaces, two per pattern.

    The same seed always gives the same setup. With ``data`` given, the setup carries it
    inline under ``board``; without, it uses the bundled data file.

    :raises RecordError: when ``seats`` is not 2-4 distinct names, or the bundled file is bad.
    """
    names = parse_seats(list(seats))
    rng = random.Random(seed)
    stones = [str(kind) for kind in KINDS for _ in range(STONES_PER_KIND)]
    rng.shuffle(stones)
    patterns = [p for p in PATTERNS for _ in range(ARTIST_COUNT // len(PATTERNS))]
    rng.shuffle(patterns)
    starts = (data or load_data_file()).artist_starts
    setup: dict[str, JSON] = {"game": "stones", "seats": list(names), "seed": seed}
    if data is not None:
        setup["board"] = data_file_to_json(data)
    setup["stones"] = stones
    setup["artists"] = [
        {"at": list(cell), "pattern": pattern}
        for cell, pattern in zip(starts, patterns, strict=True)
    ]
    return setup
