"""Board files (rings.md section 4): the reference layout, loading, and every rejection."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.games import rings
from companion.games.base import RecordError
from tests.conftest import ROOT, assert_cli_error, run_cli
from tests.games.rings_helpers import board_json

REFERENCE_TABLE = {  # rings.md section 4, typed in from the spec
    0: ("red", [0, 2, 4, 6, 9, 10, 12, 14]),
    1: ("blue", [1, 2, 5, 6, 8, 10, 13, 14]),
    2: ("green", [2, 3, 6, 7, 10, 11, 14, 15]),
    3: ("yellow", [0, 2, 5, 6, 9, 10, 13, 14]),
    4: ("brown", [1, 2, 4, 6, 8, 10, 12, 14]),
    5: ("red", [2, 3, 6, 7, 9, 10, 14, 15]),
    6: ("blue", [0, 2, 4, 6, 10, 11, 13, 14]),
    7: ("green", [1, 2, 5, 6, 8, 10, 12, 14]),
    8: ("yellow", [2, 3, 6, 7, 10, 11, 14, 15]),
    9: ("brown", [0, 2, 5, 6, 9, 10, 12, 14]),
}
REFERENCE_FILE = ROOT / "hardware" / "boards" / "reference.toml"


def test_the_reference_board_is_the_spec_layout() -> None:
    board = rings.load_board("reference")
    assert board.name == "Reference layout"
    assert board.spokes == 16
    assert board.corners == (2, 6, 10, 14)
    assert board.entrances == frozenset({2, 6, 10, 14})
    assert board.dice == (0, 1, 1, 2, 2, 3)
    for index, (colour, black) in REFERENCE_TABLE.items():
        assert board.rings[index] == rings.Ring(colour, frozenset(black))


def test_the_reference_board_file_passes_board_check() -> None:
    result = run_cli(["board", "check", str(REFERENCE_FILE)])
    assert result.status == 0, result.stderr
    report = result.json()
    assert isinstance(report, dict)
    assert report["ok"] is True
    assert report["name"] == "Reference layout"
    assert report["spokes"] == 16
    assert report["black_slots"] == [8] * 10
    # at setup every ring of the spec's table lists slots 2, 6, 10 and 14
    assert report["open_paths"] == [2, 6, 10, 14]


def test_bundled_boards_include_the_reference() -> None:
    assert "reference" in rings.bundled_board_names()


def test_a_board_round_trips_through_json() -> None:
    board = rings.load_board("reference")
    again = rings.parse_board(json.loads(json.dumps(rings.board_to_json(board))))
    assert again == board


def test_a_json_board_file_is_read_like_toml(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(board_json(name="json board")))
    result = run_cli(["board", "check", str(path)])
    assert result.status == 0
    report = result.json()
    assert isinstance(report, dict)
    assert report["name"] == "json board"
    assert report["open_paths"] == [1]


def test_a_board_file_from_stdin() -> None:
    result = run_cli(["board", "check", "-"], stdin=REFERENCE_FILE.read_text())
    assert result.status == 0


def test_an_owners_board_is_found_before_the_bundled_one(tmp_path: Path) -> None:
    (tmp_path / "reference.toml").write_text(
        REFERENCE_FILE.read_text().replace('"Reference layout"', '"My own"')
    )
    assert rings.load_board("reference", [tmp_path]).name == "My own"
    assert rings.load_board("reference", [tmp_path / "nothing"]).name == "Reference layout"


def test_an_inline_board_object_is_a_board() -> None:
    assert rings.load_board(board_json(name="inline")).name == "inline"


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("nosuch", "board: no board named 'nosuch' (bundled: "),
        ("../etc/passwd", "board: '../etc/passwd' is not a board name"),
        ("", "board: '' is not a board name"),
        (7, "board: expected a board name or object, got a number"),
    ],
)
def test_an_unknown_or_unsafe_board_name_is_refused(ref: object, message: str) -> None:
    with pytest.raises(RecordError) as refused:
        rings.load_board(ref)
    assert str(refused.value).startswith(message)


def edited(change: Any) -> dict[str, Any]:
    board = copy.deepcopy(board_json(spokes=16, entrances=[2], dice=[0, 1, 2, 3]))
    change(board)
    return board


def drop(key: str) -> Any:
    return lambda b: b.pop(key)


def put(key: str, value: object) -> Any:
    return lambda b: b.__setitem__(key, value)


def ring(index: int, key: str, value: object) -> Any:
    return lambda b: b["rings"][index].__setitem__(key, value)


REJECTIONS = [
    (drop("spokes"), "board: spokes: missing key"),
    (drop("name"), "board: name: missing key"),
    (put("extra", 1), "board: extra: unknown key"),
    (lambda b: b["rings"][2].pop("black"), "board: rings[2].black: missing key"),
    (ring(4, "shade", "dark"), "board: rings[4].shade: unknown key"),
    (put("name", ""), "board: name: expected a non-empty string, got ''"),
    (put("name", 3), "board: name: expected a non-empty string, got a number"),
    (put("spokes", 68), "board: spokes: 68 is out of 8..64"),
    (put("spokes", 4), "board: spokes: 4 is out of 8..64"),
    (put("spokes", "16"), "board: spokes: expected a whole number, got a string"),
    (ring(3, "black", [0, 16]), "board: rings[3].black: slot 16 is out of 0..15"),
    (ring(3, "black", [-1]), "board: rings[3].black: slot -1 is out of 0..15"),
    (ring(3, "black", [1, 2, 1]), "board: rings[3].black: slot 1 is repeated"),
    (ring(3, "black", "all"), "board: rings[3].black: expected a list, got a string"),
    (ring(3, "black", [1.5]), "board: rings[3].black[0]: expected a whole number, got a number"),
    (put("corners", [0, 4, 8, 16]), "board: corners: spoke 16 is out of 0..15"),
    (put("corners", [0, 4, 4, 12]), "board: corners: spoke 4 is repeated"),
    (put("corners", [0, 4, 8]), "board: corners: expected 4 corners, got 3"),
    (put("corners", [0, 4, 8, 12, 14]), "board: corners: expected 4 corners, got 5"),
    (put("entrances", []), "board: entrances: expected at least one spoke, got none"),
    (put("entrances", [3, 20]), "board: entrances: spoke 20 is out of 0..15"),
    (put("entrances", [3, 3]), "board: entrances: spoke 3 is repeated"),
    (put("dice", []), "board: dice: expected at least one face, got none"),
    (put("dice", [0, 9]), "board: dice: face 9 is out of 0..8"),
    (put("dice", [-1]), "board: dice: face -1 is out of 0..8"),
    (ring(5, "colour", "pink"), "board: rings[5].colour: 'pink' is not one of red, blue"),
    (ring(5, "colour", "blue"), "board: rings: colour 'red' has 1 ring, expected 2"),
    (lambda b: b["rings"].pop(), "board: rings: expected 10 rings, got 9"),
    (
        lambda b: b["rings"].append(dict(b["rings"][0])),
        "board: rings: expected 10 rings, got 11",
    ),
    (put("rings", {}), "board: rings: expected a list, got an object"),
    (
        ring(0, "black", [0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]),
        "board: corners[1]: the outer cell of spoke 4 (ring 0, slot 4) is not black",
    ),
    (put("spokes", 10), "board: spokes: 10 is not a multiple of 4"),
    (put("spokes", 18), "board: spokes: 18 is not a multiple of 4"),
]


@pytest.mark.parametrize(("change", "message"), REJECTIONS)
def test_every_board_rejection_names_the_key_and_value(change: Any, message: str) -> None:
    with pytest.raises(RecordError) as refused:
        rings.parse_board(edited(change))
    assert str(refused.value).startswith(message), str(refused.value)


@pytest.mark.parametrize(("change", "message"), REJECTIONS)
def test_board_check_refuses_a_json_file_with_the_same_message(
    tmp_path: Path, change: Any, message: str
) -> None:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(edited(change)))
    assert_cli_error(run_cli(["board", "check", str(path)]), f"mandala: {message}")


def test_board_check_refuses_a_toml_file_with_a_slot_out_of_range(tmp_path: Path) -> None:
    text = REFERENCE_FILE.read_text().replace(
        "black = [0, 2, 5, 6, 9, 10, 13, 14]", "black = [0, 2, 5, 6, 9, 10, 13, 16]"
    )
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert_cli_error(
        run_cli(["board", "check", str(path)]), "board: rings[3].black: slot 16 is out of 0..15"
    )


def test_board_check_refuses_text_that_is_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("name = \nspokes = 16\n")
    assert_cli_error(run_cli(["board", "check", str(path)]), "bad.toml: not TOML: ")


def test_board_check_refuses_a_json_object_that_does_not_parse(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"name": "x",\n "spokes": }')
    assert_cli_error(run_cli(["board", "check", str(path)]), "bad.json: not JSON: line 2 column")


def test_board_check_refuses_a_missing_file(tmp_path: Path) -> None:
    assert_cli_error(
        run_cli(["board", "check", str(tmp_path / "none.toml")]), "none.toml: cannot read"
    )


def test_a_ring_may_have_no_black_slot_and_corner_order_is_not_checked() -> None:
    board = edited(ring(7, "black", []))
    board["corners"] = [12, 8, 4, 0]
    parsed = rings.parse_board(board)
    assert parsed.rings[7].black == frozenset()
    assert parsed.corners == (12, 8, 4, 0)


def test_a_bad_inline_board_in_a_record_is_named_in_the_replay_error() -> None:
    record = {
        "game": "rings",
        "board": edited(ring(3, "black", [16])),
        "variant": "standard",
        "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
        "turns": [],
    }
    assert_cli_error(
        run_cli(["replay", "-"], stdin=json.dumps(record)),
        "mandala: board: rings[3].black: slot 16 is out of 0..15",
    )


def test_export_setup_inlines_a_named_board() -> None:
    setup = {"game": "rings", "board": "reference", "variant": "standard", "seats": []}
    exported = rings.export_setup(setup)
    assert exported["board"] == rings.board_to_json(rings.load_board("reference"))
    assert exported["variant"] == "standard"
    assert setup["board"] == "reference"


def test_a_board_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RecordError) as refused:
        rings.parse_board([], "record.board")  # type: ignore[arg-type]
    assert str(refused.value) == "record.board: expected an object, got a list"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"name": ' + "[" * 100_000 + "]" * 100_000 + "}",
            "deep.board: not JSON: nested too deeply",
        ),
        ("name = " + "[" * 100_000 + "]" * 100_000, "deep.board: not TOML: nested too deeply"),
    ],
)
def test_a_board_file_nested_too_deeply_is_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError) as refused:
        rings.parse_board_text(text, "deep.board")
    assert str(refused.value) == message


def test_an_owners_board_file_that_is_not_utf8_is_refused_by_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_bytes(b"name = '\xff'\n")
    with pytest.raises(RecordError) as refused:
        rings.load_board("mine", [tmp_path])
    assert str(refused.value).startswith(f"board: cannot read {path}: 'utf-8' codec can't decode")
