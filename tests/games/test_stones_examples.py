"""Every stones example of the spec reproduced exactly through ``mandala replay``."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import SPEC_EXAMPLES, assert_cli_error, example_names, run_cli

SUMMARIES = example_names("stones-", ".summary.json")
ERRORS = example_names("stones-", ".error.txt")


def test_the_stones_examples_are_all_here() -> None:
    assert len(SUMMARIES) == 6
    assert len(ERRORS) == 2


@pytest.mark.parametrize("name", SUMMARIES)
def test_replay_gives_the_examples_summary(name: str) -> None:
    result = run_cli(["replay", str(SPEC_EXAMPLES / f"{name}.record.json")])
    assert result.status == 0, result.stderr
    assert result.stderr == ""
    summary = result.json()
    expected = json.loads((SPEC_EXAMPLES / f"{name}.summary.json").read_text())
    assert isinstance(summary, dict)
    for key, value in expected.items():
        assert summary[key] == value, key
    assert list(summary)[: len(expected)] == list(expected)


@pytest.mark.parametrize("name", ERRORS)
def test_replay_refuses_the_examples_action(name: str) -> None:
    expected = (SPEC_EXAMPLES / f"{name}.error.txt").read_text().strip()
    step = re.match(r"action \d+:", expected)
    assert step is not None
    result = run_cli(["replay", str(SPEC_EXAMPLES / f"{name}.record.json")])
    assert_cli_error(result, step.group(0))
    assert result.stderr.strip() == f"mandala: {expected}"


def test_the_spec_summary_of_record_04_is_printed_in_spec_key_order() -> None:
    result = run_cli(["replay", str(SPEC_EXAMPLES / "stones-04-tops-bonus.record.json")])
    summary = result.json()
    assert isinstance(summary, dict)
    assert list(summary) == [
        "game", "actions", "to_move", "phase", "over", "winner", "scores", "boards",
        "stacks", "artists", "mandala", "end_triggered",
    ]  # fmt: skip
    assert len(summary["stacks"]) == 24
