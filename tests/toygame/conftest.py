"""Fixtures of the toy game: Nim in the public registries, and the panel serving it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import games
from companion.table import Table, adapters
from companion.table.adapters import Adapter, Form
from tests.toygame import nim
from tests.web.conftest import browser, serving

__all__ = ["browser"]  # the same Chromium fixture as the panel's browser tests


@pytest.fixture
def nim_registered() -> Iterator[None]:
    """Nim in the engine and adapter registries for one test (then gone again)."""
    games.register(nim.KIND, "tests.toygame.nim")
    adapters.register(Adapter(nim.KIND, "Nim", Form(seats=[2, 4])))
    yield
    del games.ENGINES[nim.KIND]
    del adapters.ADAPTERS[nim.KIND]


@pytest.fixture
def panel(nim_registered: None, tmp_path: Path) -> Iterator[str]:
    data = tmp_path / "data"
    with Table(data, None, data / "boards") as table:
        config = {"BOARDS_DIR": data / "boards", "SSE_HEARTBEAT_SECONDS": 0.2}
        yield from serving(table, config)
