"""What the Stones page needs besides the summary (stones.md; interfaces.md "Stones").

The table adds :func:`panel_state` to a stones game's state, so every phone gets, with each
change: every legal SCORE with what it is worth now, best first (the engine's
``score_options``), the PICK moves that take a stone (artist, destination, eligible first
stones), and the printed values the page draws (player-board rules, mandala places).
No rule is worked out here: everything comes from the engine.
"""

from __future__ import annotations

from companion.games.base import JSON
from companion.games.stones import (
    ARTIST_SPACES,
    State,
    eligible_directions,
    score_option_to_json,
    score_options,
)


def pick_moves(state: State) -> list[dict[str, JSON]]:
    """Return the artist moves that take a stone for the seat to move, each
    ``{"artist": [r, c], "to": [r, c], "first": [directions N, E, S, W order]}``.

    Empty unless a PICK is legal now (play, and an empty space on the seat's player board).
    """
    if state.phase != "play" or state.to_move is None or all(state.boards[state.to_move]):
        return []
    taken = {artist.at for artist in state.artists}
    moves: list[dict[str, JSON]] = []
    for mover, artist in enumerate(state.artists):
        for to in ARTIST_SPACES:
            if to in taken:
                continue
            first = eligible_directions(state, mover, to)
            if first:
                moves.append({"artist": list(artist.at), "to": list(to), "first": list(first)})
    return moves


def panel_state(state: State) -> dict[str, JSON]:
    """Return the keys the table adds to a stones game's state for the panel:
    ``score_options`` (engine order: best first), ``picks`` (:func:`pick_moves`),
    ``spaces`` (the five player-board rules), ``places``, ``bonus`` (place -> VP, keys as
    strings), ``end_place`` (for this many seats) and ``placeholder`` (the data file's
    values are not yet the printed game's)."""
    data = state.data
    return {
        "score_options": [score_option_to_json(option) for option in score_options(state)],
        "picks": pick_moves(state),
        "spaces": [
            {"rule": space.rule, "table": list(space.table), "count_empty": space.count_empty}
            for space in data.spaces
        ],
        "places": data.places,
        "bonus": {str(place): vp for place, vp in data.bonus},
        "end_place": state.end_place,
        "placeholder": bool(data.placeholder),
    }
