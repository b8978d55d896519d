"""Every card-game example of the spec reproduced through the ``mandala`` command."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SPEC_EXAMPLES, assert_cli_error, example_names, run_cli

RECORDS = example_names("cards-", ".summary.json") + example_names("spec-cards", ".summary.json")
ERRORS = example_names("cards-", ".error.txt")
SHEETS = example_names("cards-sheet-", ".sheet.json")


def test_the_examples_are_all_there() -> None:
    assert len(RECORDS) == 13
    assert len(ERRORS) == 7
    assert len(SHEETS) == 3


@pytest.mark.parametrize("name", RECORDS)
def test_record_replays_to_its_summary(name: str) -> None:
    result = run_cli(["replay", str(SPEC_EXAMPLES / f"{name}.record.json")])
    assert result.status == 0, result.stderr
    assert result.stderr == ""
    summary = result.json()
    assert isinstance(summary, dict)
    expected = json.loads((SPEC_EXAMPLES / f"{name}.summary.json").read_text())
    assert {key: summary.get(key) for key in expected} == expected


@pytest.mark.parametrize("name", ERRORS)
def test_record_fails_naming_the_same_action(name: str) -> None:
    expected = (SPEC_EXAMPLES / f"{name}.error.txt").read_text().strip()
    step = expected.split(":", 1)[0]
    result = run_cli(["replay", str(SPEC_EXAMPLES / f"{name}.record.json")])
    assert_cli_error(result, f"mandala: {step}: ")


@pytest.mark.parametrize("name", ERRORS)
def test_error_wording_matches_the_example(name: str) -> None:
    expected = (SPEC_EXAMPLES / f"{name}.error.txt").read_text().strip()
    result = run_cli(["replay", str(SPEC_EXAMPLES / f"{name}.record.json")])
    assert result.stderr.strip() == f"mandala: {expected}"


@pytest.mark.parametrize("name", SHEETS)
def test_sheet_scores_exactly(name: str) -> None:
    result = run_cli(["score", str(SPEC_EXAMPLES / f"{name}.sheet.json")])
    assert result.status == 0, result.stderr
    expected = json.loads((SPEC_EXAMPLES / f"{name}.score.json").read_text())
    assert result.json() == expected


def test_record_replays_from_standard_input() -> None:
    text = (SPEC_EXAMPLES / "spec-cards.record.json").read_text()
    result = run_cli(["replay", "-"], stdin=text)
    assert result.status == 0
    summary = result.json()
    assert isinstance(summary, dict)
    assert summary["actions"] == 20
    assert summary["scores"] == {"Ann": 4, "Bo": 1}
