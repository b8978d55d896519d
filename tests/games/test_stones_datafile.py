"""The data file (stones.md section 1): the bundled placeholders, validation naming the key."""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from companion.games import stones
from companion.games.base import RecordError
from companion.games.stones import DataFile, Space
from tests.conftest import SPEC_EXAMPLES, assert_cli_error, run_cli
from tests.games.stones_build import SPEC_BOARD, board_with


def test_the_bundled_file_holds_the_specs_placeholder_values() -> None:
    data = stones.load_data_file()
    assert data == DataFile(
        placeholder=True,
        artist_starts=((2, 4), (4, 2), (4, 6), (6, 4)),
        spaces=(
            Space("heights", count_empty=True),
            Space("level", table=(6, 4, 2, 1)),
            Space("level", table=(2, 4, 4, 2)),
            Space("level", table=(1, 2, 4, 6)),
            Space("colours"),
        ),
        places=96,
        bonus=((4, 1), (9, 2), (16, 2), (25, 3), (36, 3), (49, 4), (64, 5)),
        end=((2, 48), (3, 64), (4, 80)),
    )
    assert data.bonus_at(9) == 2
    assert data.bonus_at(10) == 0
    assert data.end_place(3) == 64


def test_the_bundled_file_tells_the_owner_to_copy_the_values_from_the_box() -> None:
    text = (resources.files("hardware") / "games" / "stones.toml").read_text(encoding="utf-8")
    assert "PLACEHOLDERS" in text
    assert "copy the real values from your box" in text
    assert "placeholder = true" in text


def test_a_data_file_round_trips_through_json() -> None:
    data = stones.load_data_file()
    assert stones.parse_data_file(stones.data_file_to_json(data)) == data
    assert stones.data_file_to_json(data) == SPEC_BOARD | {
        "spaces": [
            {"rule": "heights", "count_empty": True},
            *SPEC_BOARD["spaces"][1:],
        ]
    }


def test_count_empty_defaults_to_false() -> None:
    board = board_with(spaces=[{"rule": "heights"}, *copy.deepcopy(SPEC_BOARD["spaces"][1:])])
    assert stones.parse_data_file(board).spaces[0] == Space("heights", count_empty=False)


def test_placeholder_is_optional_and_defaults_to_false() -> None:
    board = board_with()
    del board["placeholder"]
    assert stones.parse_data_file(board).placeholder is False


def _spaces(index: int, space: Any) -> list[Any]:
    spaces = copy.deepcopy(SPEC_BOARD["spaces"])
    spaces[index] = space
    return spaces


BAD_FILES: list[tuple[dict[str, Any], str]] = [
    (board_with(colour=1), "board.colour: unknown key"),
    (
        board_with(spaces=_spaces(2, {"rule": "towers"})),
        "board.spaces[2].rule: 'towers' is not one of heights, level, colours",
    ),
    (board_with(spaces=SPEC_BOARD["spaces"][:4]), "board.spaces: expected 5 spaces, got 4"),
    (
        board_with(spaces=_spaces(1, {"rule": "level", "table": [6, 4, 2]})),
        "board.spaces[1].table: expected 4 whole numbers >= 0 (heights 1 to 4), got 3",
    ),
    (
        board_with(spaces=_spaces(1, {"rule": "level", "table": [6, 4, -2, 1]})),
        "board.spaces[1].table[2]: expected a whole number >= 0, got -2",
    ),
    (
        board_with(spaces=_spaces(3, {"rule": "level", "table": [1, 2.5, 4, 6]})),
        "board.spaces[3].table[1]: expected a whole number, got a number",
    ),
    (
        board_with(spaces=_spaces(3, {"rule": "level"})),
        "board.spaces[3].table: missing key",
    ),
    (
        board_with(spaces=_spaces(0, {"rule": "heights", "table": [1, 1, 1, 1]})),
        "board.spaces[0].table: unknown key",
    ),
    (
        board_with(spaces=_spaces(0, {"rule": "heights", "count_empty": "yes"})),
        "board.spaces[0].count_empty: expected true or false, got a string",
    ),
    (
        board_with(spaces=_spaces(4, {"rule": "colours", "count_empty": True})),
        "board.spaces[4].count_empty: unknown key",
    ),
    (
        board_with(artist_starts=[[2, 4], [4, 2], [4, 6]]),
        "board.artist_starts: expected 4 distinct artist spaces, got 3",
    ),
    (
        board_with(artist_starts=[[2, 4], [4, 2], [4, 6], [2, 4]]),
        "board.artist_starts[3]: [2, 4] is listed twice",
    ),
    (
        board_with(artist_starts=[[2, 4], [4, 2], [4, 6], [3, 4]]),
        "board.artist_starts[3]: [3, 4] is not an artist space (both even)",
    ),
    (
        board_with(artist_starts=[[2, 4], [4, 2], [4, 6], [8, 4]]),
        "board.artist_starts[3][0]: 8 is out of 1..7",
    ),
    (board_with(places=0), "board.mandala.places: expected a whole number >= 1, got 0"),
    (
        board_with(bonus={"4": -1}),
        "board.mandala.bonus.4: expected a whole number >= 0, got -1",
    ),
    (board_with(bonus={"4": 1.5}), "board.mandala.bonus.4: expected a whole number, got a number"),
    (board_with(bonus={"97": 1}), "board.mandala.bonus.97: place 97 is out of 1..96"),
    (board_with(bonus={"0": 1}), "board.mandala.bonus.0: place 0 is out of 1..96"),
    (board_with(bonus={"four": 1}), "board.mandala.bonus.four: 'four' is not a whole number"),
    (
        board_with(end={"2": 48, "4": 80}),
        "board.mandala.end: the end place for 3 seats is missing",
    ),
    (board_with(end={"2": 48, "3": 97, "4": 80}), "board.mandala.end.3: place 97 is out of 1..96"),
    (
        board_with(end={"2": 48, "3": 64, "4": 80, "5": 90}),
        "board.mandala.end.5: unknown key (the seat counts are 2, 3 and 4)",
    ),
    (board_with(mandala_colour=1), "board.mandala_colour: unknown key"),
]


@pytest.mark.parametrize(("board", "message"), BAD_FILES, ids=[m for _, m in BAD_FILES])
def test_a_bad_data_file_is_refused_naming_the_key(board: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError) as error:
        stones.parse_data_file(board)
    assert str(error.value) == message


def test_an_unknown_mandala_key_is_refused() -> None:
    board = board_with()
    board["mandala"]["track"] = 1
    with pytest.raises(RecordError) as error:
        stones.parse_data_file(board)
    assert str(error.value) == "board.mandala.track: unknown key"


def test_a_data_file_that_is_not_toml_is_refused_with_its_label() -> None:
    with pytest.raises(RecordError) as error:
        stones.parse_data_file_text("placeholder = = true", "my.toml")
    assert str(error.value).startswith("my.toml: not TOML: ")


def test_a_toml_data_file_names_the_file_and_the_key() -> None:
    text = (resources.files("hardware") / "games" / "stones.toml").read_text(encoding="utf-8")
    assert stones.parse_data_file_text(text, "x.toml") == stones.load_data_file()
    bad = text.replace("table = [2, 4, 4, 2]", "table = [2, 4, 4]")
    with pytest.raises(RecordError) as error:
        stones.parse_data_file_text(bad, "x.toml")
    assert str(error.value) == (
        "x.toml: spaces[2].table: expected 4 whole numbers >= 0 (heights 1 to 4), got 3"
    )


def test_replay_refuses_a_record_with_a_bad_inline_data_file(tmp_path: Path) -> None:
    record = json.loads((SPEC_EXAMPLES / "stones-05-end-round.record.json").read_text())
    del record["board"]["mandala"]["end"]["3"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert_cli_error(
        run_cli(["replay", str(path)]), "board.mandala.end: the end place for 3 seats is missing"
    )


def test_an_inline_data_file_replaces_the_bundled_one() -> None:
    # Record 05 has end place 2; with the bundled file (end 64 for 3 seats) play goes on.
    record = json.loads((SPEC_EXAMPLES / "stones-05-end-round.record.json").read_text())
    assert run_cli(["replay", "-"], stdin=json.dumps(record)).json()["phase"] == "objectives"  # type: ignore[index]
    del record["board"]
    summary = run_cli(["replay", "-"], stdin=json.dumps(record)).json()
    assert isinstance(summary, dict)
    assert (summary["phase"], summary["end_triggered"], summary["to_move"]) == (
        "play",
        False,
        "Ann",
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bonus": {"0": 1}}, "board.mandala.bonus.0: place 0 is out of 1..96"),
        ({"bonus": {"97": 1}}, "board.mandala.bonus.97: place 97 is out of 1..96"),
        ({"bonus": {"1": 1, "01": 2}}, "board.mandala.bonus.01: place 1 is given twice"),
        ({"end": {"2": 0, "3": 64, "4": 80}}, "board.mandala.end.2: place 0 is out of 1..96"),
        ({"end": {"2": 48, "3": 64, "4": 97}}, "board.mandala.end.4: place 97 is out of 1..96"),
    ],
)
def test_a_mandala_place_off_the_track_or_given_twice_is_refused(
    changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(RecordError) as error:
        stones.parse_data_file(board_with(**changes))
    assert str(error.value) == message


def test_the_first_and_last_places_of_the_track_take_a_bonus_and_an_end() -> None:
    data = stones.parse_data_file(
        board_with(bonus={"1": 1, "96": 2}, end={"2": 1, "3": 96, "4": 96})
    )
    assert data.bonus == ((1, 1), (96, 2))
    assert data.end == ((2, 1), (3, 96), (4, 96))


def test_a_data_file_without_a_label_is_named_data_file() -> None:
    with pytest.raises(RecordError) as error:
        stones.parse_data_file([], "")
    assert str(error.value) == "data file: expected an object, got a list"


def test_a_bundled_data_file_that_cannot_be_read_is_named_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A broken install (no ``hardware/games/stones.toml``): the real read fails in a
    directory without the file, and the refusal names the bundled file and the OS error."""
    from companion.games.stones import datafile

    (tmp_path / "games").mkdir()
    monkeypatch.setattr(datafile.importlib.resources, "files", lambda package: tmp_path)
    datafile.load_data_file.cache_clear()
    try:
        with pytest.raises(RecordError) as error:
            datafile.load_data_file()
    finally:
        monkeypatch.undo()
        datafile.load_data_file.cache_clear()
    assert str(error.value).startswith(f"{datafile.BUNDLED_LABEL}: cannot read: ")
    assert "No such file or directory" in str(error.value)
