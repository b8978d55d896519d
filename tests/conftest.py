"""Shared fixtures: where the spec examples are, Hypothesis profiles, the CLI runner."""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from companion.cli import main
from tests.box.conftest import machine_id, nm  # noqa: F401 -- the stand-in nmcli, everywhere
from tests.firmware.lgpio_standin import lgpio_kernel  # noqa: F401 -- for every test folder

ROOT = Path(__file__).resolve().parent.parent
SPEC_EXAMPLES = Path(__file__).resolve().parent / "spec_examples"

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@dataclass(frozen=True)
class CliResult:
    """What one run of the ``mandala`` command did."""

    status: int
    stdout: str
    stderr: str

    def json(self) -> object:
        return json.loads(self.stdout)


def run_cli(argv: Sequence[str], stdin: str = "") -> CliResult:
    """Run ``mandala`` in-process and capture its status and output."""
    out, err = io.StringIO(), io.StringIO()
    try:
        status = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    except SystemExit as stop:
        status = int(stop.code or 0)
    return CliResult(status, out.getvalue(), err.getvalue())


def assert_cli_error(result: CliResult, fragment: str) -> None:
    """Check the error contract: exit 2, nothing on stdout, one stderr line with ``fragment``."""
    assert result.status == 2, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in result.stderr


def tree(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with its content's digest (what "nothing changed" means)."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def example_names(prefix: str, suffix: str) -> list[str]:
    """Names of the spec examples ``<prefix>*<suffix>`` (without the suffix)."""
    return sorted(p.name[: -len(suffix)] for p in SPEC_EXAMPLES.glob(f"{prefix}*{suffix}"))


@pytest.fixture
def cli() -> object:
    return run_cli
