"""Icehouse state JSON: the views it writes, a seeded state read back, a malformed one refused."""

from __future__ import annotations

import pytest

from companion.games import icehouse
from companion.games.base import RecordError
from companion.games.icehouse import Pick
from tests.games.icehouse_helpers import block_path, record

SEATS = ["Ann", "Bo", "Cy"]


def play(picks: list[int]) -> icehouse.State:
    state = icehouse.new_game(record(SEATS, block_path(), []))
    for index in picks:
        state = icehouse.apply(state, Pick(index))
    return state


def test_the_state_json_names_where_every_piece_is_path_eye_or_the_seat_holding_it() -> None:
    # Ann takes 3, Bo 10, Cy 12: the rearmost pawn is Ann's at 3, so 0-2 fall into the Eye.
    obj = icehouse.state_to_json(play([3, 10, 12]))
    expected = ["path"] * 75
    expected[0:3] = ["eye"] * 3
    expected[3], expected[10], expected[12] = "Ann", "Bo", "Cy"
    assert obj["places"] == expected


def test_the_state_json_lists_the_seats_at_the_end_and_only_those() -> None:
    # Ann takes the last piece: nothing is ahead of her pawn; Bo and Cy are still at the start.
    obj = icehouse.state_to_json(play([74]))
    assert obj["at_end"] == ["Ann"]
    assert obj["over"] is False


def test_a_seeded_state_json_reads_back_as_the_same_state() -> None:
    state = icehouse.new_game({"game": "icehouse", "seats": SEATS, "seed": 5, "picks": []})
    for _ in range(4):
        state = icehouse.apply(state, icehouse.legal_actions(state)[2])
    obj = icehouse.state_to_json(state)
    assert obj["seed"] == 5
    assert icehouse.state_from_json(obj) == state


def test_a_state_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RecordError) as refused:
        icehouse.state_from_json([])
    assert str(refused.value) == "state: expected an object, got a list"
