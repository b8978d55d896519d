"""Hypothesis properties of the card game: random legal games, in both modes."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import cards
from companion.games.base import replay
from tests.games.cards_support import all_cards

SEATS = ["Ann", "Bo"]
STEP_CAP = 2000  # a random game takes about 80 actions; the cap only catches a loop


def random_game(
    mode: str, seed: int, chooser: random.Random
) -> tuple[dict[str, Any], list[Any], list[cards.State]]:
    """Play random legal actions to the end; return the setup, the actions and every state."""
    setup: dict[str, Any] = {"game": "cards", "seats": SEATS}
    if mode == "table":
        setup["mode"] = "table"
    else:
        setup["seed"] = seed
    state = cards.new_game(setup)
    states = [state]
    actions: list[Any] = []
    while not cards.is_over(state):
        legal = cards.legal_actions(state)
        assert legal, "not over, yet nothing is legal"
        action = chooser.choice(legal)
        actions.append(cards.action_to_json(action))
        state = cards.apply(state, action)
        states.append(state)
        assert len(actions) < STEP_CAP
    return setup, actions, states


@settings(max_examples=300)
@given(seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_the_108_cards_are_conserved_at_every_step_of_play(seed: int, play_seed: int) -> None:
    choices = random.Random(play_seed)
    _, _, states = random_game("play", seed, choices)
    for state in states:
        assert all_cards(state) == [18] * 6
        assert sum(state.hands_unseen) == 0 and state.deck_unseen == 0
        assert sum(state.cups_unseen) == 0
        assert all(0 <= state.hand_size(s) <= 8 for s in (0, 1))


@settings(max_examples=300)
@given(play_seed=st.integers(0, 2**32))
def test_every_card_is_accounted_for_when_tracking_a_table(play_seed: int) -> None:
    choices = random.Random(play_seed)
    _, _, states = random_game("table", 0, choices)
    for state in states[2:]:  # once the two setup deals are in
        known = sum(all_cards(state))
        unseen = state.deck_unseen + sum(state.hands_unseen) + sum(state.cups_unseen)
        assert known + unseen == 108


@settings(max_examples=100)
@given(
    mode=st.sampled_from(["play", "table"]),
    seed=st.integers(0, 2**32),
    play_seed=st.integers(0, 2**32),
)
def test_random_legal_games_end_and_are_over_exactly_when_nothing_is_legal(
    mode: str, seed: int, play_seed: int
) -> None:
    choices = random.Random(play_seed)
    _, actions, states = random_game(mode, seed, choices)
    assert cards.is_over(states[-1])
    assert cards.legal_actions(states[-1]) == []
    assert all(cards.legal_actions(s) for s in states[:-1])
    final = cards.summary(states[-1])
    assert final["over"] is True
    assert final["to_move"] is None
    assert final["actions"] == len(actions)


@settings(max_examples=100)
@given(
    mode=st.sampled_from(["play", "table"]),
    seed=st.integers(0, 2**32),
    play_seed=st.integers(0, 2**32),
)
def test_replaying_the_exported_record_gives_the_live_state(
    mode: str, seed: int, play_seed: int
) -> None:
    choices = random.Random(play_seed)
    setup, actions, states = random_game(mode, seed, choices)
    record = json.loads(json.dumps(cards.export_record(setup, actions, states[-1])))
    assert replay(cards, record) == states[-1]
    # Without its seed the exported record still replays: deck and reshuffles are written out.
    if mode == "play":
        del record["seed"]
        replayed = replay(cards, record)
        assert cards.summary(replayed) == cards.summary(states[-1])
    # Every prefix replays to the state reached live.
    cut = choices.randrange(len(actions) + 1)
    prefix = {**cards.export_record(setup, actions[:cut], states[cut]), "actions": actions[:cut]}
    assert replay(cards, prefix) == states[cut]


@settings(max_examples=60)
@given(
    mode=st.sampled_from(["play", "table"]),
    seed=st.integers(0, 2**32),
    play_seed=st.integers(0, 2**32),
)
def test_states_and_actions_round_trip_through_json(mode: str, seed: int, play_seed: int) -> None:
    choices = random.Random(play_seed)
    _, actions, states = random_game(mode, seed, choices)
    for state in states:
        text = json.dumps(cards.state_to_json(state))
        assert cards.state_from_json(json.loads(text)) == state
    for state, obj in zip(states, actions, strict=False):
        action = cards.parse_action(state, obj)
        assert (
            cards.parse_action(state, json.loads(json.dumps(cards.action_to_json(action))))
            == action
        )


def scramble_hidden(state: cards.State, viewer: int, rng: random.Random) -> cards.State:
    """Deal the cards the viewer cannot see (other hand, other cup, deck) differently."""
    other = 1 - viewer
    cards_pool = (
        [c for c, n in zip(cards.COLOURS, state.hands[other], strict=True) for _ in range(n)]
        + [c for c, n in zip(cards.COLOURS, state.cups[other], strict=True) for _ in range(n)]
        + list(state.deck)
    )
    rng.shuffle(cards_pool)
    hand_n, cup_n = sum(state.hands[other]), sum(state.cups[other])
    new_hand = cards.cards_of(cards_pool[:hand_n])
    new_cup = cards.cards_of(cards_pool[hand_n : hand_n + cup_n])
    new_deck = tuple(cards_pool[hand_n + cup_n :])
    hands = list(state.hands)
    cups = list(state.cups)
    hands[other], cups[other] = new_hand, new_cup
    return replace(
        state,
        hands=(hands[0], hands[1]),
        cups=(cups[0], cups[1]),
        deck=new_deck,
        seed=None if state.seed is None else state.seed + 1,
    )


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_a_seat_view_does_not_change_with_what_the_seat_may_not_see(
    seed: int, play_seed: int
) -> None:
    choices = random.Random(play_seed)
    _, _, states = random_game("play", seed, choices)
    for state in states[:-1]:  # once over, everything is shown
        for viewer in (0, 1):
            view = cards.seat_view(state, viewer)
            twin = scramble_hidden(state, viewer, choices)
            assert cards.seat_view(twin, viewer) == view
            assert cards.seat_view_for_decision(twin, viewer) == cards.seat_view_for_decision(
                state, viewer
            )
        shared = cards.seat_view(state, None)
        assert cards.seat_view(scramble_hidden(state, 0, choices), None) == shared
        assert cards.seat_view(scramble_hidden(state, 1, choices), None) == shared
