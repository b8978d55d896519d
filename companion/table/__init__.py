"""The table service: the one mutable object that joins sensors, engines, storage and panel.

What lives here: :class:`Table` (``table``: one command queue, one thread applying every
command, the only code that changes a game; its parts ``worker``, the queue and the thread,
``state``, the games in memory, ``moves``, what changes a game, and ``publish``, the views
and what the phones are told), ``store`` (SQLite: games, journals, ring offsets), ``live``
(the ring-board turn at a real table: dice, matching sensed offsets, preview, re-sync),
``leds`` (the LED frame as a pure function of the table's state), ``hub`` (change
notifications for the panel's Server-Sent Events, rendered per subscriber), ``seats`` (host
and seat tokens of card games with hidden hands: who a request is), ``cards_view`` (what
each viewer of a card game sees, plain instructions per card action, who may act or undo),
``adapters`` (one per game kind: its setup, who may act, its view, export and finished-play
result; the table never branches on the kind), ``game`` (a game as the table thread keeps
it), ``create`` (a new game from a request), ``steps`` (a step played or taken back in
memory) and ``listing`` (the games list and the seats' colours).

What must not: game rules (the engines in ``companion.games`` have them), pin access (the
``firmware`` package has it; the table only receives its reports and drives its LED strip),
or HTTP (``companion.web`` calls the table's public methods).
"""

from __future__ import annotations

from companion.table.errors import Conflict, Forbidden, NotFound, StorageError, TableError
from companion.table.hub import Subscription
from companion.table.table import Table

__all__ = [
    "Conflict",
    "Forbidden",
    "NotFound",
    "StorageError",
    "Subscription",
    "Table",
    "TableError",
]
