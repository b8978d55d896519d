"""``mandala replay`` on bad rings records: exit 2, nothing on stdout, one line naming where."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.conftest import assert_cli_error, run_cli
from tests.games.rings_helpers import ZERO, board_json, dice, record, zero_turn

GOOD = record("reference", (("Ann", 0), ("Bo", 2)), [zero_turn(), zero_turn()])


def replay_text(text: str) -> Any:
    return run_cli(["replay", "-"], stdin=text)


def replay_record(obj: object) -> Any:
    return replay_text(json.dumps(obj))


def changed(change: Any) -> dict[str, Any]:
    obj = copy.deepcopy(GOOD)
    change(obj)
    return obj


def test_a_good_record_replays() -> None:
    result = replay_record(GOOD)
    assert result.status == 0
    printed = result.json()
    assert isinstance(printed, dict)
    assert printed["turns"] == 2


def test_malformed_json_is_refused_with_its_position() -> None:
    assert_cli_error(replay_text('{"game": "rings", "board": }'), "stdin: not JSON: line 1")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("board"), "board: missing key"),
        (lambda r: r.pop("variant"), "variant: missing key"),
        (lambda r: r.pop("seats"), "seats: missing key"),
        (lambda r: r.pop("turns"), "turns: missing key"),
        (lambda r: r.update(board="nosuch"), "board: no board named 'nosuch'"),
        (lambda r: r.update(board=[1]), "board: expected a board name or object, got a list"),
        (
            lambda r: r.update(variant="chaos"),
            "variant: 'chaos' is not one of standard, two-bases, solo",
        ),
        (lambda r: r.update(variant=2), "variant: expected a string, got a number"),
        (lambda r: r.update(seats={}), "seats: expected a list, got an object"),
        (lambda r: r.update(turns={}), "turns: expected a list, got an object"),
        (
            lambda r: r["seats"].pop(),
            "seats: the standard variant takes 2 to 4 seats, got 1",
        ),
        (
            lambda r: r.update(variant="solo"),
            "seats: the solo variant takes 1 seat, got 2",
        ),
        (
            lambda r: r["seats"].append({"name": "Cy", "corner": 2}),
            "seats[2]: corner 2 is already taken",
        ),
        (
            lambda r: r["seats"][1].update(name="Ann"),
            "seats[1]: name 'Ann' is already taken",
        ),
        (lambda r: r["seats"][1].pop("corner"), "seats[1].corner: missing key"),
        (lambda r: r["seats"][0].pop("name"), "seats[0].name: missing key"),
        (lambda r: r["seats"][0].update(name=""), "seats[0].name: expected a non-empty string"),
        (lambda r: r["seats"][0].update(corner=4), "seats[0].corner: 4 is out of 0..3"),
        (
            lambda r: r["seats"][0].update(corner="0"),
            "seats[0].corner: expected a whole number, got a string",
        ),
        (lambda r: r["seats"].__setitem__(0, "Ann"), "seats[0]: expected an object, got a str"),
        (
            lambda r: r["seats"][0].update(colour="red"),
            "seats[0].colour: 'red' is a ring colour",
        ),
        (
            lambda r: r["seats"][1].update(colour="orange"),
            "seats[1]: colour 'orange' is already taken",
        ),
        (lambda r: r["seats"][0].update(colour=5), "seats[0].colour: expected a string"),
    ],
)
def test_errors_in_the_record_as_a_whole_name_the_key(change: Any, message: str) -> None:
    assert_cli_error(replay_record(changed(change)), f"mandala: {message}")


def test_two_bases_seats_may_not_share_a_diagonal_corner() -> None:
    bad = record(board_json(), (("Ann", 0), ("Bo", 2)), [], variant="two-bases")
    assert_cli_error(replay_record(bad), "mandala: seats[1]: corner 2 is already taken")


def test_other_keys_of_the_record_and_of_a_seat_are_ignored() -> None:
    obj = changed(lambda r: r.update(exported_at="today"))
    obj["seats"][0]["colour"] = "teal"
    obj["seats"][1]["phone"] = "x"
    assert replay_record(obj).status == 0


@pytest.mark.parametrize(
    ("bad_turn", "message"),
    [
        ([], "turn 2: expected a turn object, got a list"),
        ({"dice": ZERO}, "turn 2: rotations: missing key"),
        ({"rotations": []}, "turn 2: dice: missing key"),
        ({**zero_turn(), "note": 1}, "turn 2: note: unknown key"),
        ({"dice": [0] * 5, "rotations": []}, "turn 2: dice: expected an object, got a list"),
        (
            {"dice": {"red": 0, "blue": 0, "green": 0, "yellow": 0}, "rotations": []},
            "turn 2: dice.brown: missing key",
        ),
        ({"dice": {**ZERO, "white": 1}, "rotations": []}, "turn 2: dice.white: unknown key"),
        (
            {"dice": {**ZERO, "red": "1"}, "rotations": []},
            "turn 2: dice.red: expected a whole number, got a string",
        ),
        (
            {"dice": {**ZERO, "red": True}, "rotations": []},
            "turn 2: dice.red: expected a whole number, got a boolean",
        ),
        ({"dice": ZERO, "rotations": {}}, "turn 2: rotations: expected a list, got an object"),
        ({"dice": ZERO, "rotations": [3]}, "turn 2: rotations[0]: expected an object"),
        (
            {"dice": dice(red=1), "rotations": [{"ring": 0}]},
            "turn 2: rotations[0].steps: missing key",
        ),
        (
            {"dice": dice(red=1), "rotations": [{"ring": 0, "steps": 1, "by": "Ann"}]},
            "turn 2: rotations[0].by: unknown key",
        ),
        (
            {"dice": dice(red=1), "rotations": [{"ring": 10, "steps": 1}]},
            "turn 2: rotations[0].ring: 10 is out of 0..9",
        ),
        (
            {"dice": dice(red=1), "rotations": [{"ring": 0, "steps": 1.0}]},
            "turn 2: rotations[0].steps: expected a whole number, got a number",
        ),
        (
            {"dice": dice(red=4), "rotations": [{"ring": 0, "steps": 4}]},
            "turn 2: the red die shows 4, not a face of this board's dice (0, 1, 2, 3)",
        ),
        (
            {"dice": dice(red=1), "rotations": [{"ring": 0, "steps": 1}, {"ring": 0, "steps": 1}]},
            "turn 2: ring 0 (red) turned twice",
        ),
        (
            {"dice": dice(), "rotations": [{"ring": 2, "steps": 0}]},
            "turn 2: the green die shows 0 but ring 2 (green) turned",
        ),
        (
            {"dice": dice(yellow=3), "rotations": [{"ring": 8, "steps": -13}]},
            "turn 2: ring 8 (yellow) turned -13 but the yellow die shows 3",
        ),
        (
            {
                "dice": dice(brown=2),
                "rotations": [{"ring": 4, "steps": 2}, {"ring": 9, "steps": 2}],
            },
            "turn 2: both brown rings turned",
        ),
        (
            {"dice": dice(blue=2), "rotations": []},
            "turn 2: the blue die shows 2 but no blue ring turned",
        ),
    ],
)
def test_a_bad_turn_is_named_with_its_reason(bad_turn: object, message: str) -> None:
    obj = changed(lambda r: r["turns"].__setitem__(1, bad_turn))
    assert_cli_error(replay_record(obj), f"mandala: {message}")


def test_a_turn_after_the_end_is_refused() -> None:
    # win demo: spoke 0 is the only entrance, so Ann's pegs run straight into the centre on
    # every one of her turns (1, 3, ..., 11): she has 6 points after turn 11.
    board = board_json(entrances=[0])
    obj = record(board, (("Ann", 0), ("Bo", 1)), [zero_turn() for _ in range(12)])
    assert_cli_error(replay_record(obj), "mandala: turn 12: the game is over")
    obj["turns"].pop()
    printed = replay_record(obj).json()
    assert isinstance(printed, dict)
    assert (printed["over"], printed["winner"], printed["turns"]) == (True, "Ann", 11)
