"""The rules engines: one module per game called Mandala, pure standard-library code.

What lives here: ``base`` (the shared errors, the engine contract and replay) and one engine
per game kind: ``rings`` (the 1983 ring board), ``icehouse`` (Kory Heath's Icehouse game),
``cards`` (Lookout's 2019 card game) and ``stones`` (Mandala Stones).

What must not: threads, timers, files other than bundled data, pins, or anything mutable.
States are frozen values; ``apply`` is the only gate and raises a typed ``IllegalAction``
(one branch of ``base.MandalaError``, the companion's one error root).
"""

from __future__ import annotations

import importlib

from companion.games.base import Engine, RecordError

#: Game kind (the record's ``game`` key) to the module that implements it.
ENGINES: dict[str, str] = {
    "rings": "companion.games.rings",
    "icehouse": "companion.games.icehouse",
    "cards": "companion.games.cards",
    "stones": "companion.games.stones",
}


def register(kind: str, module: str) -> None:
    """Register the engine of a game kind: ``module`` is its importable name.

    The table's adapter of the kind is registered beside it (``companion.table.adapters``).
    """
    ENGINES[kind] = module


def engine(kind: object) -> Engine:
    """Return the engine for a game kind.

    :raises RecordError: when ``kind`` is not one of :data:`ENGINES`.
    """
    if not isinstance(kind, str) or kind not in ENGINES:
        raise RecordError(f"game: unknown game {kind!r}; one of {', '.join(ENGINES)}")
    module: Engine = importlib.import_module(ENGINES[kind])
    return module
