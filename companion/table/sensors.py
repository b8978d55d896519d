"""Which offsets the ring sensors count from when the board on the table changes.

The ring bank counts offsets modulo the spokes of the board of the game on the table. When
a game with another number of spokes goes on (resumed, imported, new, or on the board at a
restart), the bank is told the new spokes and where to start counting from. Offsets sensed
for a board of N spokes mean nothing on a board of M: the table remembers the last offsets
it had for each spoke count (in the store's settings) and restores them when a board of
that count comes back; a count never seen before starts from the offsets modulo M. The
re-sync that follows (resume, import, restart) still guides the rings to the game's offsets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from companion.games.rings import RINGS

SPOKES_KEY = "ring_offsets_spokes"
"""Setting: the spokes the stored ring offsets count in."""


def memory_key(spokes: int) -> str:
    """The setting that remembers the last offsets sensed on a board of ``spokes`` spokes."""
    return f"ring_offsets_for_{spokes}"


def valid(offsets: Sequence[int] | None, spokes: int) -> bool:
    """Say whether ``offsets`` are ten offsets in 0..spokes-1."""
    return (
        offsets is not None
        and len(offsets) == RINGS
        and all(isinstance(o, int) and not isinstance(o, bool) and 0 <= o < spokes for o in offsets)
    )


def parse_offsets(text: str | None, spokes: int) -> list[int] | None:
    """Read remembered offsets (JSON list) from a setting; ``None`` when absent or unusable."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, list) or not valid(value, spokes):
        return None
    return [int(o) for o in value]


def parse_spokes(text: str | None) -> int | None:
    """Read the stored spokes setting; ``None`` when absent or not a positive number."""
    if text is None or not text.isdigit() or int(text) < 1:
        return None
    return int(text)


def fit_offsets(
    saved: Sequence[int] | None,
    saved_spokes: int | None,
    spokes: int,
    memory: Sequence[int] | None = None,
) -> list[int] | None:
    """The offsets the sensors start from on a board of ``spokes`` spokes.

    ``saved``: the last offsets sensed, counted modulo ``saved_spokes`` (``None`` when not
    known: a database from before boards could change; then they are used as they are if
    they fit). ``memory``: the last offsets sensed on a board of ``spokes`` spokes, if any.
    Returns ``None`` when nothing is known (the sensors start at 0).
    """
    if saved is not None and len(saved) == RINGS:
        if saved_spokes == spokes or (saved_spokes is None and valid(saved, spokes)):
            return [int(o) for o in saved] if valid(saved, spokes) else None
        if valid(memory, spokes):
            assert memory is not None
            return [int(o) for o in memory]
        return [int(o) % spokes for o in saved]
    if valid(memory, spokes):
        assert memory is not None
        return [int(o) for o in memory]
    return None
