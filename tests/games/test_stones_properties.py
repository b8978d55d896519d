"""Hypothesis properties over random legal games of Mandala Stones."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import stones
from companion.games.base import replay
from companion.games.stones import Action, Objective, Pick, ScoreColour, ScoreTops, State
from tests.conftest import run_cli

SEATS = ["Ann", "Bo", "Cy", "Di"]
# Every stone moves at most twice (stack -> player board -> mandala board) and every play
# action moves at least one, so a game has at most 2 * 96 play actions plus the objectives.
MAX_ACTIONS = 2 * 96 + len(SEATS)
WHOLE_SET = Counter(dict.fromkeys(stones.engine.KINDS, 12))


def all_stones(state: State) -> Counter[stones.Stone]:
    """Every stone in the game: stacks, player boards and the mandala board."""
    counts: Counter[stones.Stone] = Counter()
    for stack in state.stacks:
        counts.update(stack)
    for board in state.boards:
        for tower in board:
            counts.update(tower)
    counts.update(state.mandala)
    return counts


def choose(rng: random.Random, state: State) -> Action:
    """A random legal action; the kind first, so that picks are not drowned by score orders."""
    legal = stones.legal_actions(state)
    assert legal, "a game that is not over has a legal action"
    if isinstance(legal[0], Objective):
        return Objective(legal[0].seat, rng.randrange(0, 12))
    kinds: dict[type, list[Action]] = {}
    for action in legal:
        kinds.setdefault(type(action), []).append(action)
    return rng.choice(rng.choice(list(kinds.values())))


def play(
    seed: int, seats: int, rng: random.Random, check: bool = True
) -> tuple[dict[str, Any], State]:
    """Play a random legal game to its end; return the record and the final state."""
    setup = stones.random_setup(seed, SEATS[:seats])
    state = stones.new_game(setup)
    actions: list[Any] = []
    while not stones.is_over(state):
        assert len(actions) <= MAX_ACTIONS
        action = choose(rng, state)
        obj = stones.action_to_json(action)
        assert stones.parse_action(state, json.loads(json.dumps(obj))) == action
        before = state
        state = stones.apply(state, action)
        actions.append(obj)
        if check:
            assert all_stones(state) == WHOLE_SET
            assert state.actions == before.actions + 1
            again = stones.state_from_json(json.loads(json.dumps(stones.state_to_json(state))))
            assert again == state
    return {**setup, "actions": actions}, state


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4), rng=st.randoms(use_true_random=False))
def test_random_legal_games_end_and_conserve_the_96_stones(
    seed: int, seats: int, rng: random.Random
) -> None:
    record, state = play(seed, seats, rng)
    assert state.phase == "over"
    assert state.to_move is None
    assert stones.legal_actions(state) == []
    assert len(state.objectives) == seats
    assert state.winner is not None
    best = max(state.scores)
    assert state.winner == state.scores.index(best)  # earliest seat among the best
    assert len(record["actions"]) == state.actions <= MAX_ACTIONS


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4), rng=st.randoms(use_true_random=False))
def test_replaying_a_record_gives_the_live_state(seed: int, seats: int, rng: random.Random) -> None:
    record, state = play(seed, seats, rng, check=False)
    assert replay(stones, record) == state
    exported = {**stones.export_setup(record), "actions": record["actions"]}
    assert replay(stones, json.loads(json.dumps(exported))) == state
    result = run_cli(["replay", "-"], stdin=json.dumps(record))
    assert result.status == 0
    assert result.json() == stones.summary(state)


@settings(max_examples=20)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4), rng=st.randoms(use_true_random=False))
def test_score_options_are_every_legal_score_worth_what_applying_it_gives(
    seed: int, seats: int, rng: random.Random
) -> None:
    state = stones.new_game(stones.random_setup(seed, SEATS[:seats]))
    while state.phase == "play":
        seat = state.to_move
        assert seat is not None
        options = stones.score_options(state)
        legal = [a for a in stones.legal_actions(state) if isinstance(a, ScoreColour | ScoreTops)]
        # The options are the legal scores up to the mandala order (tops: up to spaces order).
        assert {_score_key(o.action) for o in options} == {_score_key(a) for a in legal}
        assert [o.vp for o in options] == sorted((o.vp for o in options), reverse=True)
        for option in options:
            after = stones.apply(state, option.action)
            assert after.scores[seat] - state.scores[seat] == option.vp
            assert option.vp == option.stones_vp + option.bonus_vp
            covered = len(state.mandala) < state.end_place <= len(after.mandala)
            assert option.covers_end is covered
        state = stones.apply(state, choose(rng, state))
    assert stones.score_options(state) == []


def _score_key(action: Action) -> tuple[str, frozenset[int]]:
    if isinstance(action, ScoreColour):
        return (action.colour, frozenset(action.order))
    assert isinstance(action, ScoreTops)
    return ("tops", frozenset(action.spaces))


@settings(max_examples=20)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4), rng=st.randoms(use_true_random=False))
def test_play_is_over_exactly_when_the_seat_to_move_can_do_nothing(
    seed: int, seats: int, rng: random.Random
) -> None:
    state = stones.new_game(stones.random_setup(seed, SEATS[:seats]))
    while state.phase == "play":
        assert state.to_move is not None
        legal = stones.legal_actions(state)
        assert stones.can_move(state, state.to_move)
        assert any(isinstance(a, Pick) for a in legal) is stones.can_pick(state, state.to_move)
        for action in legal[:: max(1, len(legal) // 20)]:  # a sample of them apply cleanly
            stones.apply(state, action)
        state = stones.apply(state, choose(rng, state))
    assert state.phase == "objectives"
    assert state.to_move == 0
    # Play stopped: either the round with the end place finished, or the next seat is stuck.
    assert state.end_triggered or not all(stones.can_move(state, seat) for seat in range(seats))
