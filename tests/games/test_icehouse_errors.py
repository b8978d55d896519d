"""Refusals: illegal picks, bad paths and seats, malformed records; exit 2 and one clear line."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.games import icehouse
from companion.games.base import IllegalAction, RecordError
from companion.games.icehouse import Pick
from tests.conftest import assert_cli_error, run_cli
from tests.games.icehouse_helpers import block_path, record

SEATS = ["Ann", "Bo"]
NEEDS = "path: needs exactly 5 pieces of each of the 15 kinds (75 in all), got "
KINDS_LIST = (
    "red-1, red-2, red-3, yellow-1, yellow-2, yellow-3, green-1, green-2, green-3, "
    "blue-1, blue-2, blue-3, black-1, black-2, black-3"
)


def exactly(message: str) -> str:
    """A pattern matching ``message`` and nothing else."""
    return f"^{re.escape(message)}$"


def replay_error(rec: dict[str, Any], message: str) -> None:
    """``mandala replay`` refuses ``rec`` with exactly ``mandala: <message>``."""
    result = run_cli(["replay", "-"], stdin=json.dumps(rec))
    assert_cli_error(result, message)
    assert result.stderr == f"mandala: {message}\n"


def without(rec: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in rec.items() if k != key}


# Illegal picks (IllegalAction), named by their number


def test_a_pick_behind_the_pawn_is_refused() -> None:
    state = icehouse.apply(
        icehouse.apply(icehouse.new_game(record(SEATS, block_path(), [])), Pick(20)), Pick(30)
    )
    with pytest.raises(IllegalAction, match=r"^Ann cannot pick 19: it is behind the pawn at 20$"):
        icehouse.apply(state, Pick(19))
    replay_error(
        record(SEATS, block_path(), [20, 30, 19]),
        "pick 3: Ann cannot pick 19: it is behind the pawn at 20",
    )


def test_a_fallen_piece_is_behind_the_pawn() -> None:
    # Ann 3, Bo 7: index 1 fell; it is behind Ann's pawn.
    replay_error(
        record(SEATS, block_path(), [3, 7, 1]),
        "pick 3: Ann cannot pick 1: it is behind the pawn at 3",
    )


def test_a_place_another_seat_emptied_is_refused() -> None:
    replay_error(
        record(SEATS, block_path(), [3, 9, 9]), "pick 3: Ann cannot pick 9: the place is empty"
    )


def test_the_place_the_pawn_stands_on_is_empty() -> None:
    replay_error(
        record(SEATS, block_path(), [3, 4, 3]), "pick 3: Ann cannot pick 3: the place is empty"
    )


@pytest.mark.parametrize(("index", "number"), [(75, 1), (-1, 1), (1000, 1)])
def test_an_index_outside_the_path_is_refused(index: int, number: int) -> None:
    replay_error(
        record(SEATS, block_path(), [index]), f"pick {number}: index {index} is out of range 0..74"
    )


def test_a_pick_after_the_end_is_refused_and_the_state_is_unchanged() -> None:
    # Ann 73, Bo 74: both at the end, the game is over.
    state = icehouse.new_game(record(SEATS, block_path(), []))
    state = icehouse.apply(icehouse.apply(state, Pick(73)), Pick(74))
    before = icehouse.state_to_json(state)
    with pytest.raises(IllegalAction, match=r"^the game is over$"):
        icehouse.resolve(state, Pick(10))
    assert icehouse.state_to_json(state) == before
    replay_error(record(SEATS, block_path(), [73, 74, 10]), "pick 3: the game is over")


def test_a_refused_pick_leaves_the_state_as_it_was() -> None:
    state = icehouse.apply(icehouse.new_game(record(SEATS, block_path(), [])), Pick(20))
    before = icehouse.state_to_json(state)
    for bad in (20, 75, -1):
        with pytest.raises(IllegalAction):
            icehouse.apply(state, Pick(bad))
    assert icehouse.state_to_json(state) == before
    assert state.to_move == 1


# Malformed picks (RecordError)


@pytest.mark.parametrize(
    ("pick", "got"),
    [("3", "a string"), (3.0, "a number"), (True, "a boolean"), (None, "null"), ([3], "a list")],
)
def test_a_pick_that_is_not_a_whole_number_is_refused(pick: object, got: str) -> None:
    with pytest.raises(RecordError, match=f"^index: expected a whole number, got {got}$"):
        icehouse.parse_action(icehouse.new_game(record(SEATS, block_path(), [])), pick)
    replay_error(
        record(SEATS, block_path(), [10, pick]),
        f"pick 2: index: expected a whole number, got {got}",
    )


def test_picks_must_be_a_list() -> None:
    replay_error(
        {**record(SEATS, block_path(), []), "picks": 3}, "picks: expected a list, got a number"
    )


def test_a_record_without_picks_is_refused() -> None:
    replay_error(without(record(SEATS, block_path(), []), "picks"), "picks: missing key")


# Paths


def test_a_path_without_five_of_each_kind_is_refused() -> None:
    path = block_path()
    path[5] = "red-1"  # six red-1, four red-2
    with pytest.raises(RecordError, match=re.escape("red-1 6 times, red-2 4 times") + "$"):
        icehouse.new_game(record(SEATS, path, []))
    replay_error(
        record(SEATS, path, []),
        NEEDS + "75 pieces with red-1 6 times, red-2 4 times",
    )


def test_a_short_path_is_refused() -> None:
    replay_error(
        record(SEATS, block_path()[:74], []),
        NEEDS + "74 pieces with black-3 4 times",
    )


def test_a_long_path_is_refused() -> None:
    replay_error(
        record(SEATS, [*block_path(), "red-1"], []),
        NEEDS + "76 pieces with red-1 6 times",
    )


@pytest.mark.parametrize("piece", ["purple-1", "red-4", "red", "Red-1", "red-01"])
def test_a_piece_that_is_not_a_kind_is_refused(piece: str) -> None:
    path = block_path()
    path[3] = piece
    replay_error(record(SEATS, path, []), f"path[3]: {piece!r} is not one of {KINDS_LIST}")


def test_a_piece_that_is_not_a_string_is_refused() -> None:
    path: list[Any] = block_path()
    path[3] = 7
    replay_error(record(SEATS, path, []), "path[3]: expected a string, got a number")


def test_a_path_that_is_not_a_list_is_refused() -> None:
    replay_error(
        {**record(SEATS, block_path(), []), "path": {}}, "path: expected a list, got an object"
    )


def test_a_record_without_path_or_seed_is_refused() -> None:
    replay_error(
        without(record(SEATS, block_path(), []), "path"),
        "path: missing key (give a path or a seed)",
    )


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        (-3, "seed: -3 is out of 0..9223372036854775807"),
        ("7", "seed: expected a whole number, got a string"),
        (1.5, "seed: expected a whole number, got a number"),
    ],
)
def test_a_bad_seed_is_refused(seed: object, message: str) -> None:
    rec = {**without(record(SEATS, block_path(), []), "path"), "seed": seed}
    replay_error(rec, message)


# Seats and keys


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["Ann"], "seats: 2 to 5 seats, got 1"),
        (["A", "B", "C", "D", "E", "F"], "seats: 2 to 5 seats, got 6"),
        (["Ann", "Ann"], "seats[1]: 'Ann' is already a seat"),
        (["Ann", " "], "seats[1]: a seat needs a name"),
        (["Ann", 3], "seats[1]: expected a string, got a number"),
        ("Ann", "seats: expected a list, got a string"),
    ],
)
def test_bad_seats_are_refused(seats: Any, message: str) -> None:
    rec = {**record(SEATS, block_path(), []), "seats": seats}
    with pytest.raises(RecordError, match=exactly(message)):
        icehouse.new_game(rec)
    replay_error(rec, message)


def test_a_record_without_seats_is_refused() -> None:
    replay_error(without(record(SEATS, block_path(), []), "seats"), "seats: missing key")


def test_an_unknown_record_key_is_refused() -> None:
    replay_error({**record(SEATS, block_path(), []), "sead": 7}, "sead: unknown key")


def test_a_setup_for_another_game_is_refused() -> None:
    with pytest.raises(RecordError, match=exactly("game: 'rings' is not one of icehouse")):
        icehouse.new_game({**record(SEATS, block_path(), []), "game": "rings"})


def test_a_setup_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RecordError, match=exactly("record: expected an object, got a list")):
        icehouse.new_game([])  # type: ignore[arg-type]


# States read back from JSON


def test_a_state_whose_keys_disagree_with_its_picks_is_refused() -> None:
    state = icehouse.apply(icehouse.new_game(record(SEATS, block_path(), [])), Pick(20))
    obj = icehouse.state_to_json(state)
    obj["scores"] = {"Ann": 5, "Bo": 0}
    with pytest.raises(
        RecordError, match=exactly("state: its keys do not agree with its seats, path and picks")
    ):
        icehouse.state_from_json(obj)


def test_a_state_with_an_illegal_pick_is_refused() -> None:
    obj = icehouse.state_to_json(icehouse.new_game(record(SEATS, block_path(), [])))
    obj["picks"] = [20, 30, 30]
    with pytest.raises(
        RecordError, match=exactly("state: pick 3: Ann cannot pick 30: the place is empty")
    ):
        icehouse.state_from_json(obj)


def test_a_state_missing_a_key_is_refused() -> None:
    obj = icehouse.state_to_json(icehouse.new_game(record(SEATS, block_path(), [])))
    del obj["seed"]
    with pytest.raises(RecordError, match=exactly("state.seed: missing key")):
        icehouse.state_from_json(obj)
