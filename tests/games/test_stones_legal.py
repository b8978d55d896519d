"""Mandala Stones: the legal actions are exactly the actions the rules accept."""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import stones
from companion.games.base import RecordError
from companion.games.stones import Objective, Pick, ScoreColour, ScoreTops
from tests.games.legal_support import check_legal_list_is_complete
from tests.games.test_stones_properties import SEATS, choose

SPACES = range(1, stones.pieces.SPACE_COUNT + 1)
#: Every order of every non-empty set of player-board spaces.
ORDERS = [o for n in SPACES for o in itertools.permutations(SPACES, n)]


def candidates(state: stones.State) -> list[stones.Action]:
    """Every pick between artist spaces (space 0 to 6), every score order, objectives."""
    cells = stones.ARTIST_SPACES
    pool: list[stones.Action] = [
        Pick(artist, to, first, space)
        for artist, to, first in itertools.product(cells, cells, stones.DIRECTIONS)
        for space in range(7)
    ]
    pool.extend(ScoreColour(colour, order) for colour in stones.COLOURS for order in ORDERS)
    for order in ORDERS:
        pool.append(ScoreTops(tuple(sorted(order)), order))
        pool.append(ScoreTops(order, tuple(sorted(order))))
        if len(order) > 1:
            pool.append(ScoreTops(order[1:], order))  # an order naming a space not scored
    pool.extend(Objective(seat, vp) for seat in [*state.seats, "nobody"] for vp in (-1, 0, 4))
    return pool


def same(action: stones.Action) -> Hashable:
    """Tops are listed with their spaces ascending; an objective entry stands for any VP."""
    if isinstance(action, ScoreTops):
        return ScoreTops(tuple(sorted(action.spaces)), action.order)
    if isinstance(action, Objective) and action.vp >= 0:
        return Objective(action.seat, 0)
    return action


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4), every=st.integers(5, 40))
def test_every_action_the_rules_accept_is_listed_and_every_listed_action_is_accepted(
    seed: int, seats: int, every: int
) -> None:
    """On random reachable states of random games (every ``every``-th state, up to four)."""
    rng = random.Random(seed)
    state = stones.new_game(stones.random_setup(seed, SEATS[:seats]))
    checked = 0
    while checked < 4:
        legal = stones.legal_actions(state)
        if state.actions % every == 0 or stones.is_over(state):
            check_legal_list_is_complete(stones.apply, state, legal, candidates(state), same=same)
            checked += 1
        if stones.is_over(state):
            assert legal == []
            return
        state = stones.apply(state, choose(rng, state))


def test_an_objective_entry_below_0_vp_is_refused() -> None:
    """``apply`` is the gate for a hand-built entry too, not only the record's parser."""
    state = stones.new_game(stones.random_setup(1, SEATS[:2]))
    rng = random.Random(1)
    while state.phase == "play":
        state = stones.apply(state, choose(rng, state))
    with pytest.raises(RecordError) as refused:
        stones.apply(state, Objective(state.seats[0], -1))
    assert str(refused.value) == "vp: expected a whole number >= 0, got -1"


def playing_state() -> stones.State:
    return stones.new_game(stones.random_setup(1, SEATS[:2]))


@pytest.mark.parametrize("space", [0, 6, -1])
def test_a_pick_onto_a_space_off_the_player_board_is_refused(space: int) -> None:
    state = playing_state()
    pick = next(a for a in stones.legal_actions(state) if isinstance(a, Pick))
    with pytest.raises(RecordError) as refused:
        stones.apply(state, Pick(pick.artist, pick.to, pick.first, space))
    assert str(refused.value) == f"pick.space: {space} is out of 1..5"


def test_a_tops_score_whose_order_is_not_its_spaces_is_refused() -> None:
    state = playing_state()
    rng = random.Random(2)
    while not any(
        isinstance(a, ScoreTops) and len(a.spaces) >= 2 for a in stones.legal_actions(state)
    ):
        state = stones.apply(state, choose(rng, state))
    tops = next(
        a for a in stones.legal_actions(state) if isinstance(a, ScoreTops) and len(a.spaces) >= 2
    )
    with pytest.raises(RecordError) as refused:
        stones.apply(state, ScoreTops(tops.spaces[1:], tops.order))
    assert str(refused.value) == (
        f"order: {list(tops.order)} must list exactly the scored spaces {sorted(tops.spaces[1:])}"
    )
