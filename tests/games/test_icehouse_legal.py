"""Icehouse: the legal picks are exactly the picks the rules accept, on random reachable states."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import icehouse
from companion.games.icehouse import Pick
from tests.games.icehouse_helpers import block_path, record
from tests.games.legal_support import check_legal_list_is_complete

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve"]


@settings(max_examples=25)
@given(
    seats=st.integers(2, 5),
    path=st.one_of(st.permutations(block_path()), st.just(block_path())),
    seed=st.integers(0, 2**32),
)
def test_every_pick_the_rules_accept_is_listed_and_every_listed_pick_is_accepted(
    seats: int, path: list[str], seed: int
) -> None:
    rng = random.Random(seed)
    state = icehouse.new_game(record(NAMES[:seats], path, []))
    candidates = [Pick(i) for i in range(-1, icehouse.PATH_LENGTH + 1)]
    while True:
        legal = icehouse.legal_actions(state)
        check_legal_list_is_complete(icehouse.apply, state, legal, candidates)
        if icehouse.is_over(state):
            assert legal == []
            return
        state = icehouse.apply(state, rng.choice(legal))
