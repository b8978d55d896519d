"""Card game: the legal actions are exactly the actions the rules accept, in both modes."""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import cards
from companion.games.base import IllegalAction
from companion.games.cards import Claim, CupEntry, Deal, Discard, FieldPlay, MountainPlay
from tests.games.cards_support import COLOURS, make_deck, start
from tests.games.legal_support import check_legal_list_is_complete
from tests.games.test_cards_properties import SEATS, random_game

#: Every choice of 0 to 3 colours, in every order (the list names each choice once).
COLOUR_CHOICES = [c for n in range(4) for c in itertools.product(COLOURS, repeat=n)]


def candidates() -> list[cards.Action]:
    """Every action of every kind, with counts one past what any hand holds."""
    pool: list[cards.Action] = []
    for m, colour in itertools.product((0, 1), COLOURS):
        pool.append(MountainPlay(m, colour))
        pool.extend(FieldPlay(m, colour, n) for n in range(10))
    for colour in COLOURS:
        pool.append(Claim(colour))
        pool.extend(Discard(colour, n) for n in range(10))
    for choice in COLOUR_CHOICES:
        pool.extend(Deal(m, choice) for m in (0, 1))
        pool.extend(CupEntry(seat, choice) for seat in (*SEATS, "Cy"))
    return pool


CANDIDATES = candidates()


def same(action: cards.Action) -> Hashable:
    """Deals and cup entries name a choice of colours, whatever the order."""
    if isinstance(action, Deal | CupEntry):
        order = tuple(sorted(action.colours, key=COLOURS.index))
        return type(action)(action.mandala if isinstance(action, Deal) else action.seat, order)
    return action


@settings(max_examples=20)
@given(mode=st.sampled_from(["play", "table"]), seed=st.integers(0, 2**32), every=st.integers(1, 9))
def test_every_action_the_rules_accept_is_listed_and_every_listed_action_is_accepted(
    mode: str, seed: int, every: int
) -> None:
    """On random reachable states of random games (every ``every``-th state, up to six)."""
    _, _, states = random_game(mode, seed, random.Random(seed))
    for state in [*states[::every][:5], states[-1]]:
        legal = cards.legal_actions(state)
        check_legal_list_is_complete(cards.apply, state, legal, CANDIDATES, same=same)
    assert cards.legal_actions(states[-1]) == []


def test_a_field_play_or_discard_of_no_cards_or_fewer_is_refused() -> None:
    """Only ``apply`` stands between a hand-built action and the state: no empty plays."""
    state = start(make_deck(["red"] * 2, ["orange"] * 2, ["green"] * 6, ["black"] * 6))
    for count in (0, -1):
        with pytest.raises(IllegalAction) as refused:
            cards.apply(state, FieldPlay(0, "green", count))
        assert str(refused.value) == (
            f"Ann cannot play {count} green into field 0: a play or discard takes at least one card"
        )
        with pytest.raises(IllegalAction) as refused:
            cards.apply(state, Discard("green", count))
        assert str(refused.value) == (
            f"Ann cannot discard {count} green: a play or discard takes at least one card"
        )
