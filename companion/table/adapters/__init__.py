"""One adapter per game kind: everything the table and the panel must know about a kind.

What lives here: :class:`~companion.table.adapters.base.Adapter` (the defaults: public
information, the summary as the view, setup plus steps as the record), one adapter per
kind that does otherwise (``rings``, ``icehouse``, ``cards``, ``stones``), the registry
(:func:`register`, :func:`adapter`, :func:`kinds`) kept beside the engine registry
(``companion.games``), and the finished play's :class:`~companion.table.adapters.result.Result`.

What must not: game rules (the engines have them), the table's thread or storage, or HTTP.
The table and the web layer ask the adapter of a game's kind and never branch on the kind.
"""

from __future__ import annotations

from companion.games import ENGINES
from companion.games.base import RecordError
from companion.table.adapters.base import Adapter, Form, Setting
from companion.table.adapters.cards import CardsAdapter
from companion.table.adapters.icehouse import IcehouseAdapter
from companion.table.adapters.result import Result, SeatResult
from companion.table.adapters.rings import RingsAdapter
from companion.table.adapters.stones import StonesAdapter

__all__ = [
    "ADAPTERS",
    "Adapter",
    "Form",
    "Result",
    "SeatResult",
    "Setting",
    "adapter",
    "kinds",
    "register",
]

ADAPTERS: dict[str, Adapter] = {}
"""Game kind to its adapter (:func:`register` adds one)."""


def register(kind_adapter: Adapter) -> None:
    """Make the table and the panel use ``kind_adapter`` for its kind.

    The kind's engine is registered with ``companion.games.register``; a kind with an engine
    and no adapter of its own gets the defaults (:class:`Adapter`).
    """
    ADAPTERS[kind_adapter.kind] = kind_adapter


def adapter(kind: str) -> Adapter:
    """Return the adapter of a game kind (the defaults for a kind registered without one).

    :raises RecordError: when no engine is registered for ``kind``.
    """
    found = ADAPTERS.get(kind)
    if found is not None:
        return found
    if kind not in ENGINES:
        raise RecordError(f"game: unknown game {kind!r}; one of {', '.join(ENGINES)}")
    return Adapter(kind, kind)


def kinds() -> list[str]:
    """The game kinds an engine is registered for, in the registry's order."""
    return list(ENGINES)


for _each in (RingsAdapter(), IcehouseAdapter(), CardsAdapter(), StonesAdapter()):
    register(_each)
