"""The command line's error contract, independent of any one game."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import assert_cli_error, run_cli


def test_a_file_that_is_not_json_is_refused_with_its_position(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "rings",\n  oops}')
    assert_cli_error(run_cli(["replay", str(bad)]), "bad.json: not JSON: line 2 column 3")


def test_a_missing_file_is_refused_by_name(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert_cli_error(run_cli(["replay", str(missing)]), "nope.json: cannot read")


def test_a_record_that_is_not_an_object_is_refused() -> None:
    assert_cli_error(run_cli(["replay", "-"], stdin="[1, 2]"), "record: expected an object")


def test_a_record_without_a_game_key_is_refused() -> None:
    assert_cli_error(run_cli(["replay", "-"], stdin="{}"), "game: missing key")


def test_an_unknown_game_is_refused_with_the_known_ones() -> None:
    result = run_cli(["replay", "-"], stdin='{"game": "chess"}')
    assert_cli_error(result, "game: unknown game 'chess'; one of rings, icehouse, cards, stones")


def test_deeply_nested_json_is_refused_without_a_traceback() -> None:
    assert_cli_error(run_cli(["replay", "-"], stdin="[" * 100_000), "stdin: not JSON")
