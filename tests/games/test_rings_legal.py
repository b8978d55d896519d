"""Ring board: the legal rotation sets are exactly the turns the rules accept for the roll."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import rings
from companion.games.rings import Rotation, Turn
from tests.games.legal_support import check_legal_list_is_complete
from tests.games.test_rings_properties import random_board, random_rotations, random_setup


def near_misses(
    state: rings.State, rolled: dict[str, int], rng: random.Random, most: int = 40
) -> list[tuple[Rotation, ...]]:
    """The legal sets, and every change in one place of ``most`` of them (drawn at random):
    a rotation dropped, moved to the other ring of its colour, turned one slot too far or
    too short, or one more rotation of any ring."""
    tables = state.board.tables
    sets = rings.legal_rotation_sets(state, rolled)
    found: set[tuple[Rotation, ...]] = {()}
    for legal in rng.sample(sets, min(most, len(sets))):
        for i, rotation in enumerate(legal):
            rest = legal[:i] + legal[i + 1 :]
            found.add(rest)
            first, second = tables.colour_rings[tables.ring_colour[rotation.ring]]
            sibling = second if rotation.ring == first else first
            found.add((*rest, Rotation(sibling, rotation.steps)))
            found.add((*rest, Rotation(rotation.ring, rotation.steps + 1)))
            found.add((*rest, Rotation(rotation.ring, rotation.steps - 1)))
        for ring in range(rings.RINGS):
            value = rolled[tables.ring_colour[ring]]
            for steps in {value, -value, 1}:
                found.add((*legal, Rotation(ring, steps)))
    changed = {tuple(sorted(f, key=lambda r: r.ring)) for f in found} - set(sets)
    return sets + sorted(changed, key=lambda rotations: [(r.ring, r.steps) for r in rotations])


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), every=st.integers(1, 12))
def test_every_rotation_set_the_rules_accept_is_listed_and_every_listed_set_is_accepted(
    seed: int, every: int
) -> None:
    """On random boards, variants and reachable positions, for the roll of the turn."""
    rng = random.Random(seed)
    state = rings.new_game(random_setup(rng, random_board(rng)))
    checked = 0
    while checked < 4 and state.turns < 200:
        rolled = rings.roll(rng, state.board)
        if state.turns % every == 0 or state.over:
            legal = rings.legal_rotation_sets(state, rolled)
            check_legal_list_is_complete(
                rings.apply,
                state,
                [Turn(rolled, rotations) for rotations in legal],
                [Turn(rolled, rotations) for rotations in near_misses(state, rolled, rng)],
                same=lambda turn: tuple(sorted(turn.rotations, key=lambda r: r.ring)),
            )
            checked += 1
        if state.over:
            assert legal == []
            return
        state = rings.apply(state, Turn(rolled, random_rotations(rng, state, rolled)))
