"""Records, actions, the setup generator, export and state JSON: shapes and error paths."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.games import stones
from companion.games.base import RecordError, replay
from companion.games.stones import Objective, Pick, ScoreColour, ScoreTops
from tests.conftest import SPEC_EXAMPLES, assert_cli_error, run_cli
from tests.games.stones_build import data


def example(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    return record


def replay_error(record: dict[str, Any]) -> str:
    """Replay through the CLI, check the error contract and return the stderr line."""
    result = run_cli(["replay", "-"], stdin=json.dumps(record))
    assert_cli_error(result, "")
    return result.stderr.strip().removeprefix("mandala: ")


# ---------------------------------------------------------------- setup errors


def _setup_case(change: str) -> dict[str, Any]:
    record = example("stones-01-pick-blocked-clockwise")
    if change == "95 stones":
        record["stones"].pop()
    elif change == "13 red-dots":
        record["stones"][0] = "red-dots"  # was yellow-dots
    elif change == "bad stone":
        record["stones"][5] = "green-dots"
    elif change == "not a start":
        record["artists"][1]["at"] = [4, 4]
    elif change == "start twice":
        record["artists"][2]["at"] = [2, 4]
    elif change == "three dots":
        record["artists"][0]["pattern"] = "dots"
    elif change == "bad pattern":
        record["artists"][0]["pattern"] = "stripes"
    elif change == "artist key":
        record["artists"][3]["colour"] = "red"
    elif change == "one seat":
        record["seats"] = ["Ann"]
    elif change == "seat twice":
        record["seats"] = ["Ann", "Ann"]
    elif change == "unnamed seat":
        record["seats"] = ["Ann", " "]
    elif change == "unknown key":
        record["colour"] = "red"
    elif change == "no stones":
        del record["stones"]
    elif change == "no actions":
        del record["actions"]
    return record


SETUP_ERRORS = [
    ("95 stones", "stones: expected 96 stones, got 95"),
    ("13 red-dots", "stones: 13 red-dots; the set has 12 of each colour and pattern"),
    (
        "bad stone",
        "stones[5]: 'green-dots' is not a stone (a colour of red, purple, blue, yellow, '-', "
        "a pattern of dots, lines)",
    ),
    (
        "not a start",
        "artists[1].at: [4, 4] is not a start space ([2, 4], [4, 2], [4, 6], [6, 4])",
    ),
    ("start twice", "artists[2].at: [2, 4] is already taken by artists[0]"),
    ("three dots", "artists: 3 dots artists; there are two per pattern"),
    ("bad pattern", "artists[0].pattern: 'stripes' is not one of dots, lines"),
    ("artist key", "artists[3].colour: unknown key"),
    ("one seat", "seats: expected 2 to 4 seats, got 1"),
    ("seat twice", "seats[1]: 'Ann' is listed twice"),
    ("unnamed seat", "seats[1]: a seat needs a name"),
    ("unknown key", "colour: unknown key"),
    ("no stones", "stones: missing key"),
    ("no actions", "actions: missing key"),
]


@pytest.mark.parametrize(("change", "message"), SETUP_ERRORS, ids=[c for c, _ in SETUP_ERRORS])
def test_a_bad_setup_is_refused_naming_the_key(change: str, message: str) -> None:
    assert replay_error(_setup_case(change)) == message


# ---------------------------------------------------------------- action errors

PICK = {"artist": [2, 4], "to": [2, 6], "first": "W", "space": 3}
ACTION_ERRORS: list[tuple[Any, str]] = [
    ([1], "action 1: action: expected an object, got a list"),
    (
        {"pass": True},
        "action 1: action: expected a pick, score or objective action, got keys 'pass'",
    ),
    ({"pick": PICK, "vp": 1}, "action 1: vp: unknown key"),
    ({"pick": {**PICK, "colour": "red"}}, "action 1: pick.colour: unknown key"),
    (
        {"pick": {k: v for k, v in PICK.items() if k != "space"}},
        "action 1: pick.space: missing key",
    ),
    ({"pick": {**PICK, "first": "w"}}, "action 1: pick.first: 'w' is not one of N, E, S, W"),
    ({"pick": {**PICK, "space": 6}}, "action 1: pick.space: 6 is out of 1..5"),
    (
        {"pick": {**PICK, "to": [3, 4]}},
        "action 1: pick.to: [3, 4] is not an artist space (both even)",
    ),
    (
        {"pick": {**PICK, "to": [2, 6, 1]}},
        "action 1: pick.to: expected [row, column], got a list of 3",
    ),
    ({"score": "all"}, "action 1: score: 'all' is not one of colour, tops"),
    (
        {"score": "colour", "colour": "green", "order": [1]},
        "action 1: colour: 'green' is not one of red, purple, blue, yellow",
    ),
    ({"score": "colour", "colour": "red"}, "action 1: order: missing key"),
    ({"score": "tops", "spaces": [], "order": []}, "action 1: spaces: expected at least one space"),
    (
        {"score": "tops", "spaces": [1, 4], "order": [4]},
        "action 1: order: [4] must list exactly the scored spaces [1, 4]",
    ),
    (
        {"score": "tops", "spaces": [4, 4], "order": [4]},
        "action 1: spaces[1]: space 4 is listed twice",
    ),
    (
        {"score": "tops", "spaces": [1], "order": [1], "colour": "red"},
        "action 1: colour: unknown key",
    ),
    ({"objective": "Zed", "vp": 1}, "action 1: objective: 'Zed' is not a seat (Ann, Bo)"),
    ({"objective": "Ann", "vp": -1}, "action 1: vp: expected a whole number >= 0, got -1"),
    ({"objective": "Ann", "vp": True}, "action 1: vp: expected a whole number, got a boolean"),
]


@pytest.mark.parametrize(("action", "message"), ACTION_ERRORS, ids=[m for _, m in ACTION_ERRORS])
def test_a_malformed_action_is_refused_naming_the_action_and_key(action: Any, message: str) -> None:
    record = example("stones-01-pick-blocked-clockwise")
    record["actions"] = [action]
    assert replay_error(record) == message


ILLEGAL = [
    (
        [{"pick": {**PICK, "first": "S"}}],
        "action 1: first S: the stack at [3, 6] touches the artist on [4, 6]; it is not eligible",
    ),
    (
        [{"score": "tops", "spaces": [1], "order": [1]}],
        "action 1: score: Ann has no tower to score",
    ),
    (
        [{"pick": PICK}, {"pick": {"artist": [6, 4], "to": [2, 6], "first": "W", "space": 1}}],
        "action 2: to: another artist stands on [2, 6]",
    ),
    (
        [{"objective": "Ann", "vp": 3}],
        "action 1: objective: play has not stopped; it is Ann's turn to PICK or SCORE",
    ),
]


@pytest.mark.parametrize(("actions", "message"), ILLEGAL, ids=[m for _, m in ILLEGAL])
def test_an_illegal_action_stops_the_replay_naming_it(actions: list[Any], message: str) -> None:
    record = example("stones-01-pick-blocked-clockwise")
    record["actions"] = actions
    assert replay_error(record) == message


def test_objectives_must_come_in_seat_order_in_a_record() -> None:
    record = example("stones-06-objectives-tie")
    record["actions"][4:] = [{"objective": "Bo", "vp": 2}]
    assert replay_error(record) == "action 5: objective: it is Ann's objective entry, not Bo's"


def test_an_action_after_the_game_is_over_is_refused() -> None:
    record = example("stones-06-objectives-tie")
    record["actions"].append({"objective": "Ann", "vp": 1})
    assert replay_error(record) == "action 7: the game is over"


def test_a_record_file_replays_by_path(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(example("stones-04-tops-bonus")))
    result = run_cli(["replay", str(path)])
    assert result.status == 0
    assert result.json()["scores"] == {"Ann": 2, "Bo": 3}  # type: ignore[index]


# ---------------------------------------------------------------- actions as JSON


def test_actions_format_as_the_record_does_and_parse_back() -> None:
    state = stones.new_game(example("stones-01-pick-blocked-clockwise"))
    for obj in [
        {"pick": {"artist": [2, 4], "to": [4, 4], "first": "E", "space": 3}},
        {"score": "colour", "colour": "blue", "order": [5, 3]},
        {"score": "tops", "spaces": [1, 4], "order": [4, 1]},
        {"objective": "Ann", "vp": 6},
    ]:
        action = stones.parse_action(state, obj)
        assert stones.action_to_json(action) == obj
    assert stones.parse_action(state, {"score": "tops", "spaces": [4, 1], "order": [1, 4]}) == (
        ScoreTops((4, 1), (1, 4))
    )
    assert stones.parse_action(state, {"objective": "Bo", "vp": 0}) == Objective("Bo", 0)
    assert stones.parse_action(state, {"score": "colour", "colour": "red", "order": [2]}) == (
        ScoreColour("red", (2,))
    )
    assert isinstance(stones.parse_action(state, {"pick": PICK}), Pick)


# ---------------------------------------------------------------- setup generator, export


def test_the_same_seed_gives_the_same_setup_and_another_seed_another() -> None:
    one = stones.random_setup(42, ["Ann", "Bo"])
    assert one == stones.random_setup(42, ["Ann", "Bo"])
    assert one["stones"] != stones.random_setup(43, ["Ann", "Bo"])["stones"]
    assert list(one) == ["game", "seats", "seed", "stones", "artists"]
    assert one["game"] == "stones"
    assert one["seed"] == 42


def test_a_generated_setup_holds_the_whole_set_and_the_artists_on_the_start_spaces() -> None:
    for seed in range(20):
        setup = stones.random_setup(seed, ["Ann", "Bo", "Cy"])
        counts = Counter(setup["stones"])
        assert len(setup["stones"]) == 96
        assert set(counts.values()) == {12}
        assert len(counts) == 8
        assert [a["at"] for a in setup["artists"]] == [[2, 4], [4, 2], [4, 6], [6, 4]]
        assert sorted(a["pattern"] for a in setup["artists"]) == ["dots", "dots", "lines", "lines"]
        stones.new_game(setup)  # a valid record setup


def test_a_generated_setup_uses_the_given_data_files_start_spaces_inline() -> None:
    board = {**stones.data_file_to_json(data()), "artist_starts": [[2, 2], [2, 6], [6, 2], [6, 6]]}
    setup = stones.random_setup(5, ["Ann", "Bo"], stones.parse_data_file(board))
    assert setup["board"] == board
    assert [a["at"] for a in setup["artists"]] == [[2, 2], [2, 6], [6, 2], [6, 6]]
    assert [a.at for a in stones.new_game(setup).artists] == [(2, 2), (2, 6), (6, 2), (6, 6)]


def test_the_generator_refuses_bad_seats() -> None:
    with pytest.raises(RecordError) as error:
        stones.random_setup(1, ["Ann", "Bo", "Cy", "Di", "Ed"])
    assert str(error.value) == "seats: expected 2 to 4 seats, got 5"


def test_a_seed_alone_sets_up_the_generated_board() -> None:
    by_seed = stones.new_game({"game": "stones", "seats": ["Ann", "Bo"], "seed": 9})
    assert by_seed == stones.new_game(stones.random_setup(9, ["Ann", "Bo"]))


def test_a_seed_must_be_a_whole_number() -> None:
    with pytest.raises(RecordError) as error:
        stones.new_game({"seats": ["Ann", "Bo"], "seed": "nine"})
    assert str(error.value) == "seed: expected a whole number, got a string"


def test_export_inlines_the_data_file_and_writes_out_a_seeded_board() -> None:
    exported = stones.export_setup({"game": "stones", "seats": ["Ann", "Bo"], "seed": 3})
    generated = stones.random_setup(3, ["Ann", "Bo"])
    assert exported == {
        "game": "stones",
        "seats": ["Ann", "Bo"],
        "board": stones.data_file_to_json(stones.load_data_file()),
        "stones": generated["stones"],
        "artists": generated["artists"],
        "seed": 3,
    }


def test_an_exported_record_replays_to_the_same_summary() -> None:
    record = example("stones-04-tops-bonus")
    exported = {**stones.export_setup(record), "actions": record["actions"]}
    assert "board" in exported
    engine = stones
    assert engine.summary(replay(engine, exported)) == engine.summary(replay(engine, record))


# ---------------------------------------------------------------- state JSON


def test_a_state_round_trips_through_json() -> None:
    state = replay(stones, example("stones-05-end-round"))
    obj = json.loads(json.dumps(stones.state_to_json(state)))
    assert stones.state_from_json(obj) == state


def test_a_bad_state_is_refused_naming_the_key() -> None:
    state = replay(stones, example("stones-06-objectives-tie"))
    obj = stones.state_to_json(state)
    cases: list[tuple[str, Any, str]] = [
        ("to_move", 0, "to_move: expected null once the game is over"),
        ("stacks", obj["stacks"][:23], "stacks: expected 24 entries, got 23"),
        ("phase", "done", "phase: 'done' is not one of play, objectives, over"),
        ("boards", [[[], [], [], [], []]], "boards: expected 2 entries, got 1"),
    ]
    for key, value, message in cases:
        with pytest.raises(RecordError) as error:
            stones.state_from_json({**obj, key: value})
        assert str(error.value) == message
    with pytest.raises(RecordError) as error:
        stones.state_from_json({**obj, "stacks": [["red-dots"] * 5, *obj["stacks"][1:]]})
    assert str(error.value) == "stacks[0]: 5 stones; at most 4"


def test_a_seed_is_checked_even_when_the_stones_and_artists_are_given() -> None:
    setup = {**stones.random_setup(9, ["Ann", "Bo"]), "seed": "nine"}
    with pytest.raises(RecordError, match=r"^seed: expected a whole number, got a string$"):
        stones.new_game(setup)


def test_a_setup_of_another_game_is_refused_naming_it() -> None:
    setup = {**stones.random_setup(9, ["Ann", "Bo"]), "game": "rings"}
    with pytest.raises(RecordError, match=r"^game: 'rings' is not one of stones$"):
        stones.new_game(setup)


def test_a_setup_with_neither_stones_nor_artists_nor_a_seed_is_refused() -> None:
    with pytest.raises(RecordError, match=r"^stones: missing key$"):
        stones.new_game({"seats": ["Ann", "Bo"]})


@pytest.mark.parametrize("seed", [None, 9])
def test_stones_without_artists_are_refused_even_with_a_seed(seed: int | None) -> None:
    generated = stones.random_setup(9, ["Ann", "Bo"])
    setup: dict[str, Any] = {"seats": ["Ann", "Bo"], "stones": generated["stones"]}
    if seed is not None:
        setup["seed"] = seed
    with pytest.raises(RecordError, match=r"^artists: missing key$"):
        stones.new_game(setup)


def test_a_setup_with_too_few_artists_is_refused() -> None:
    setup = stones.random_setup(9, ["Ann", "Bo"])
    artists = setup["artists"]
    with pytest.raises(
        RecordError, match=rf"^artists: expected 4 artists, got {len(artists) - 1}$"
    ):
        stones.new_game({**setup, "artists": artists[:-1]})


@pytest.mark.parametrize(("space", "accepted"), [(0, False), (1, True), (5, True), (6, False)])
def test_a_score_names_only_the_player_boards_spaces_1_to_5(space: int, accepted: bool) -> None:
    state = stones.new_game(stones.random_setup(9, ["Ann", "Bo"]))
    obj = {"score": "colour", "colour": "red", "order": [space]}
    if accepted:
        assert stones.parse_action(state, obj) == ScoreColour("red", (space,))
    else:
        with pytest.raises(RecordError, match=rf"^order\[0\]: {space} is out of 1\.\.5$"):
            stones.parse_action(state, obj)


def test_while_objectives_are_due_the_one_listed_entry_is_the_seats_with_0_vp() -> None:
    record = example("stones-06-objectives-tie")
    record["actions"] = record["actions"][:4]
    state = replay(stones, record)
    assert state.phase == "objectives"
    assert stones.legal_actions(state) == [Objective("Ann", 0)]


def test_an_objective_entry_with_another_key_is_refused() -> None:
    state = stones.new_game(stones.random_setup(9, ["Ann", "Bo"]))
    with pytest.raises(RecordError, match=r"^extra: unknown key$"):
        stones.parse_action(state, {"objective": "Ann", "vp": 2, "extra": 1})


def test_the_seed_shuffles_which_start_space_each_pattern_of_artist_takes() -> None:
    layouts = {
        tuple(a["pattern"] for a in stones.random_setup(seed, ["Ann", "Bo"])["artists"])
        for seed in range(12)
    }
    assert len(layouts) > 1
    assert all(sorted(layout) == ["dots", "dots", "lines", "lines"] for layout in layouts)


@pytest.mark.parametrize(
    ("to", "message"),
    [
        ([0, 2], "pick.to[0]: 0 is out of 1..7"),
        ([2, 0], "pick.to[1]: 0 is out of 1..7"),
        ([8, 2], "pick.to[0]: 8 is out of 1..7"),
        ([2, 8], "pick.to[1]: 8 is out of 1..7"),
        ([1, 2], "pick.to: [1, 2] is not an artist space (both even)"),
        ([2, 1], "pick.to: [2, 1] is not an artist space (both even)"),
        ([2, 7], "pick.to: [2, 7] is not an artist space (both even)"),
    ],
)
def test_a_pick_to_a_cell_off_the_board_or_not_an_artist_space_is_refused(
    to: list[int], message: str
) -> None:
    state = stones.new_game(stones.random_setup(9, ["Ann", "Bo"]))
    pick = {"artist": [2, 4], "to": to, "first": "N", "space": 1}
    with pytest.raises(RecordError) as error:
        stones.parse_action(state, {"pick": pick})
    assert str(error.value) == message
