"""A stored Mandala Stones state is read back only within its bounds: the seat to move, the
scores, the objectives and the action count one past their limits are refused naming the
key, the limits themselves accepted; a state that is not an object, names another game or
has a key missing or unknown is refused."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.games import stones
from companion.games.base import RecordError, replay
from tests.conftest import SPEC_EXAMPLES


def stored(name: str = "stones-05-end-round") -> dict[str, Any]:
    record = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    obj: dict[str, Any] = json.loads(json.dumps(stones.state_to_json(replay(stones, record))))
    return obj


def refused(obj: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match="^" + re.escape(message) + "$"):
        stones.state_from_json(obj)


def test_the_seat_to_move_is_one_of_the_seats() -> None:
    obj = stored()
    seats = len(obj["seats"])
    for seat in (0, seats - 1):
        assert stones.state_from_json({**obj, "to_move": seat}).to_move == seat
    refused({**obj, "to_move": -1}, f"to_move: -1 is out of 0..{seats - 1}")
    refused({**obj, "to_move": seats}, f"to_move: {seats} is out of 0..{seats - 1}")
    refused({**obj, "to_move": "Ann"}, "to_move: expected a whole number, got a string")


@pytest.mark.parametrize("key", ["scores", "objectives"])
def test_scores_and_objectives_are_whole_numbers_from_0(key: str) -> None:
    obj = stored("stones-06-objectives-tie")
    values = obj[key]
    assert values, key
    assert getattr(stones.state_from_json({**obj, key: [0] * len(values)}), key) == (0,) * len(
        values
    )
    with pytest.raises(RecordError, match=rf"^{key}\[0\]: "):
        stones.state_from_json({**obj, key: [-1, *values[1:]]})


def test_the_action_count_is_a_whole_number_from_0() -> None:
    obj = stored()
    assert stones.state_from_json({**obj, "actions": 0}).actions == 0
    with pytest.raises(RecordError, match=r"^actions: "):
        stones.state_from_json({**obj, "actions": -1})


def test_a_stored_state_that_is_not_an_object_or_of_another_game_is_refused() -> None:
    refused([], "state: expected an object, got a list")  # type: ignore[arg-type]
    refused({**stored(), "game": "cards"}, "game: 'cards' is not one of stones")


def test_a_stored_state_with_a_key_missing_or_unknown_is_refused_naming_it() -> None:
    refused({**stored(), "colour": "red"}, "state.colour: unknown key")
    obj = stored()
    del obj["end_triggered"]
    refused(obj, "state.end_triggered: missing key")
