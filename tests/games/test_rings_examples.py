"""Every rings example of the spec, reproduced exactly through ``mandala replay``."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import SPEC_EXAMPLES, assert_cli_error, example_names, run_cli

SUMMARIES = [*example_names("rings-", ".summary.json"), "spec-rings"]
ERRORS = example_names("rings-", ".error.txt")


def test_the_examples_are_all_there() -> None:
    assert len(SUMMARIES) == 11
    assert len(ERRORS) == 6


@pytest.mark.parametrize("name", SUMMARIES)
def test_replay_prints_the_examples_summary(name: str) -> None:
    result = run_cli(["replay", str(SPEC_EXAMPLES / f"{name}.record.json")])
    assert result.status == 0, result.stderr
    assert result.stderr == ""
    printed = result.json()
    expected = json.loads((SPEC_EXAMPLES / f"{name}.summary.json").read_text())
    assert isinstance(printed, dict)
    assert {key: printed.get(key) for key in expected} == expected
    assert list(printed)[: len(expected)] == list(expected)


@pytest.mark.parametrize("name", SUMMARIES)
def test_replay_reads_the_record_from_stdin_too(name: str) -> None:
    text = (SPEC_EXAMPLES / f"{name}.record.json").read_text()
    result = run_cli(["replay", "-"], stdin=text)
    assert result.status == 0
    expected = json.loads((SPEC_EXAMPLES / f"{name}.summary.json").read_text())
    printed = result.json()
    assert isinstance(printed, dict)
    assert {key: printed.get(key) for key in expected} == expected


@pytest.mark.parametrize("name", ERRORS)
def test_replay_fails_on_the_examples_turn(name: str) -> None:
    expected = (SPEC_EXAMPLES / f"{name}.error.txt").read_text().strip()
    step = re.match(r"turn \d+:", expected)
    assert step is not None
    result = run_cli(["replay", str(SPEC_EXAMPLES / f"{name}.record.json")])
    assert_cli_error(result, step.group(0))
    # the engine's wording is the examples' wording
    assert result.stderr.strip() == f"mandala: {expected}"
