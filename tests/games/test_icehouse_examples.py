"""Every Icehouse worked example of the spec is reproduced exactly by ``mandala replay``."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import SPEC_EXAMPLES, assert_cli_error, example_names, run_cli

SUMMARIES = example_names("icehouse-", ".summary.json") + example_names(
    "spec-icehouse", ".summary.json"
)
ERRORS = example_names("icehouse-", ".error.txt")


def test_the_icehouse_examples_are_all_found() -> None:
    assert len(SUMMARIES) == 10
    assert len(ERRORS) == 4


@pytest.mark.parametrize("name", SUMMARIES)
def test_example_summary_is_reproduced(name: str) -> None:
    result = run_cli(["replay", str(SPEC_EXAMPLES / f"{name}.record.json")])
    assert result.status == 0, result.stderr
    assert result.stderr == ""
    got = result.json()
    want = json.loads((SPEC_EXAMPLES / f"{name}.summary.json").read_text())
    assert isinstance(got, dict)
    for key, value in want.items():
        assert got[key] == value, key


def test_the_spec_summary_keys_come_in_the_order_of_section_5() -> None:
    result = run_cli(["replay", str(SPEC_EXAMPLES / "spec-icehouse.record.json")])
    got = result.json()
    assert isinstance(got, dict)
    assert list(got) == [
        "game", "picks", "to_move", "over", "winner", "scores", "pawns", "held", "eye",
        "scored", "left",
    ]  # fmt: skip
    assert got == json.loads((SPEC_EXAMPLES / "spec-icehouse.summary.json").read_text())


@pytest.mark.parametrize("name", ERRORS)
def test_example_error_names_the_same_pick(name: str) -> None:
    expected = (SPEC_EXAMPLES / f"{name}.error.txt").read_text().strip()
    step = re.match(r"pick \d+:", expected)
    assert step is not None
    result = run_cli(["replay", str(SPEC_EXAMPLES / f"{name}.record.json")])
    assert_cli_error(result, step.group(0))
    # Our wording is the example's wording.
    assert result.stderr.strip() == f"mandala: {expected}"
