"""Properties of random legal games on random valid boards, every variant and seat count."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import rings
from companion.games.base import IllegalAction, replay

TURN_CAP = 200


def random_board(rng: random.Random) -> dict[str, Any]:
    """A valid board: the spec's limits, rings mostly black so that games can end."""
    spokes = rng.choice([8, 12, 16, 20, 32])
    corners = rng.sample(range(spokes), 4)
    openness = rng.uniform(0.5, 0.95)
    colours = list(rings.COLOURS * 2)
    rng.shuffle(colours)
    board_rings = []
    for ring in range(10):
        black = {s for s in range(spokes) if rng.random() < openness}
        if ring == 0:
            black |= set(corners)
        board_rings.append({"colour": colours[ring], "black": sorted(black)})
    return {
        "name": f"random {spokes}",
        "spokes": spokes,
        "corners": corners,
        "entrances": rng.sample(range(spokes), rng.randint(1, spokes // 2)),
        "dice": [rng.randint(0, spokes // 2) for _ in range(rng.randint(1, 6))],
        "rings": board_rings,
    }


def random_setup(rng: random.Random, board: dict[str, Any]) -> dict[str, Any]:
    variant = rng.choice(rings.VARIANTS)
    if variant == "standard":
        corners = rng.sample(range(4), rng.randint(2, 4))
    elif variant == "two-bases":
        first = rng.randrange(4)
        corners = [first, (first + rng.choice([1, 3])) % 4]
    else:
        corners = [rng.randrange(4)]
    seats = [{"name": f"seat {i}", "corner": c} for i, c in enumerate(corners)]
    return {"game": "rings", "board": board, "variant": variant, "seats": seats}


def random_rotations(
    rng: random.Random, state: rings.State, rolled: dict[str, int]
) -> tuple[rings.Rotation, ...]:
    """One legal set, chosen without enumerating them all (that is checked separately)."""
    locked = rings.locked_rings(state)
    chosen = []
    for colour in rings.COLOURS:
        free = [r for r, ring in enumerate(state.board.rings) if ring.colour == colour]
        free = [r for r in free if r not in locked]
        if rolled[colour] and free:
            chosen.append(rings.Rotation(rng.choice(free), rng.choice([1, -1]) * rolled[colour]))
    return tuple(sorted(chosen, key=lambda r: r.ring))


def check_invariants(state: rings.State) -> None:
    cells = [(ring, slot) for _, ring, slot in state.pegs]
    assert len(cells) == len(set(cells)), "two pegs on one cell"
    for seat in range(len(state.seats)):
        on_board = sum(1 for s, _, _ in state.pegs if s == seat)
        entered = state.scores[seat] if state.variant == "solo" else 0
        assert on_board + sum(state.waiting[seat]) + entered == rings.PEGS_PER_SEAT
        assert 0 <= state.scores[seat] <= rings.WINNING_SCORE
    assert (state.to_move is None) == (state.winner is not None)
    if state.winner is not None:
        assert state.scores[state.winner] == rings.WINNING_SCORE


def play_game(seed: int) -> tuple[dict[str, Any], rings.State, list[dict[str, Any]]]:
    rng = random.Random(seed)
    board = random_board(rng)
    setup = random_setup(rng, board)
    state = rings.new_game(setup)
    turns: list[dict[str, Any]] = []
    check_invariants(state)
    while not state.over and state.turns < TURN_CAP:
        rolled = rings.roll(rng, state.board)
        rotations = random_rotations(rng, state, rolled)
        played = rings.Turn(rolled, rotations)
        outcome = rings.resolve(state, played)
        assert rings.apply(state, played) == outcome.state
        if state.turns % 25 == 0:
            assert rotations in rings.legal_rotation_sets(state, rolled)
            explained = rings.explain(state, rolled, outcome.state.offsets)
            assert explained.reason is None
            assert explained.rotations is not None
            assert rings.apply(state, rings.Turn(rolled, explained.rotations)) == outcome.state
            assert rings.preview(state, outcome.state.offsets) == outcome
        turns.append(rings.action_to_json(played))
        state = outcome.state
        check_invariants(state)
    return setup, state, turns


@settings(max_examples=400)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_games_never_raise_and_end_or_reach_the_cap(seed: int) -> None:
    _setup, state, turns = play_game(seed)
    assert state.over or state.turns == TURN_CAP
    assert len(turns) == state.turns


@settings(max_examples=150)
@given(st.integers(min_value=0, max_value=2**32))
def test_replaying_the_record_gives_the_live_state(seed: int) -> None:
    setup, state, turns = play_game(seed)
    text = json.dumps({**setup, "turns": turns})
    assert replay(rings, json.loads(text)) == state


@settings(max_examples=150)
@given(st.integers(min_value=0, max_value=2**32))
def test_summary_and_state_round_trip_through_json(seed: int) -> None:
    _setup, state, _turns = play_game(seed)
    summary = rings.summary(state)
    assert json.loads(json.dumps(summary)) == summary
    assert rings.state_from_json(json.loads(json.dumps(rings.state_to_json(state)))) == state


@settings(max_examples=20)
@given(st.integers(min_value=0, max_value=2**32))
def test_every_legal_set_resolves_and_a_refused_turn_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    setup = random_setup(rng, random_board(rng))
    state = rings.new_game(setup)
    for _ in range(rng.randint(0, 30)):
        if state.over:
            break
        rolled = rings.roll(rng, state.board)
        state = rings.apply(state, rings.Turn(rolled, random_rotations(rng, state, rolled)))
    if state.over:
        return
    rolled = rings.roll(rng, state.board)
    sets = rings.legal_rotation_sets(state, rolled)
    assert sets
    for rotations, outcome in rings.outcomes(state, rolled):
        check_invariants(outcome.state)
        assert outcome.state.turns == state.turns + 1
        assert rotations in sets
    before = rings.state_to_json(state)
    locked = rings.locked_rings(state)
    needed = [
        colour
        for colour in rings.COLOURS
        if rolled[colour]
        and any(
            r not in locked for r, ring in enumerate(state.board.rings) if ring.colour == colour
        )
    ]
    if needed:
        with pytest.raises(IllegalAction) as refused:
            rings.apply(state, rings.Turn(rolled, ()))
        colour = needed[0]
        assert str(refused.value) == (
            f"the {colour} die shows {rolled[colour]} but no {colour} ring turned"
        )
    else:
        assert rings.apply(state, rings.Turn(rolled, ())).turns == state.turns + 1
    assert rings.state_to_json(state) == before
