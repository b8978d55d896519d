"""What the live streams were last told, so that the next item can be a change.

Per game: the number (``seq``) of its last item, its version and log length when a view was
last made (an action adds one entry, an undo takes the last away), and the keys of its state
the rings change (:meth:`~companion.table.publish.Publisher.live_keys`); and the board as
last sent. Items are numbered by one counter, so a later item always has a larger ``seq``.

A change is only as good as what the phone holds: an item names its ``base`` (the ``seq`` it
changes) or None when it is whole. When something changed that no stream was told (none was
open), :meth:`Told.forget` makes the next items whole. Table thread only.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from companion.games.base import JSON
from companion.table import patch
from companion.table.game import Game

MAX_GAMES = 256
"""How many games are remembered (one forgotten gets its whole log sent once)."""
UNSENT_BOARD_KEYS = ("leds", "seq")
"""Keys of the board view its changes leave out: the LED frame has items of its own."""


@dataclass
class GameTold:
    """What the streams were told of one game, and the version and log a view last had."""

    game: weakref.ref[Game]
    version: int
    log_length: int
    seq: int = 0
    live: dict[str, JSON] | None = None


class Told:
    """The numbers and the last values of what was published (see the module's docstring)."""

    def __init__(self) -> None:
        self.seq = 0
        """The number of the last item published."""
        self.games: dict[str, GameTold] = {}
        self.board_seq = 0
        self.board: dict[str, Any] | None = None

    def game_seq(self, game: Game) -> int:
        """The ``seq`` a view of ``game`` carries: its last item's (the latest if unknown)."""
        told = self._of(game)
        return told.seq if told is not None else self.seq

    def seen(self, game: Game) -> GameTold:
        """Note the game's version and log length (a view of it was made); answer its record."""
        told = self._of(game)
        self.games.pop(game.id, None)
        if told is None:
            told = GameTold(weakref.ref(game), game.version, len(game.actions), self.seq)
        told.version, told.log_length = game.version, len(game.actions)
        self.games[game.id] = told
        if len(self.games) > MAX_GAMES:  # forget the games least recently seen
            for key in list(self.games)[: MAX_GAMES // 2]:
                del self.games[key]
        return told

    def log_change(self, game: Game) -> tuple[int, int]:
        """``(base, from)``: the log held at any version from ``base`` on keeps its first
        ``from`` entries ((0, 0): the whole log, when that is not known)."""
        told = self._of(game)
        if told is None or game.version - told.version not in (0, 1):
            return 0, 0
        # One step at most since: an action adds an entry, an undo takes the last away.
        return told.version, min(told.log_length, len(game.actions))

    def game_item(self, game: Game, live: dict[str, JSON] | None) -> int:
        """A ``game`` item of ``game`` (with these live keys) is sent: answer its ``seq``."""
        told = self.seen(game)
        self.seq += 1
        told.seq, told.live = self.seq, live
        return self.seq

    def live_item(self, game: Game, live: dict[str, JSON]) -> dict[str, JSON]:
        """The ``seq``, ``base`` and ``changes`` of a ``live`` item with these live keys."""
        told = self.seen(game)
        base, steps = _steps(told.seq, told.live, live)
        self.seq += 1
        told.seq, told.live = self.seq, live
        return {"seq": self.seq, "base": base, "changes": steps}

    def board_item(self, board: dict[str, Any]) -> dict[str, JSON]:
        """The ``seq``, ``base`` and ``changes`` of a ``board`` item of this board view."""
        sent = {key: value for key, value in board.items() if key not in UNSENT_BOARD_KEYS}
        base, steps = _steps(self.board_seq, self.board, sent)
        self.seq += 1
        self.board_seq, self.board = self.seq, sent
        return {"seq": self.seq, "base": base, "changes": steps}

    def forget(self) -> None:
        """Something changed that no stream was told: send the next live and board whole."""
        self.board = None
        for told in self.games.values():
            told.live = None

    def _of(self, game: Game) -> GameTold | None:
        told = self.games.get(game.id)
        return told if told is not None and told.game() is game else None


def _steps(
    seq: int, last: dict[str, Any] | None, now: dict[str, Any]
) -> tuple[int | None, list[list[Any]]]:
    """The base and the steps from ``last`` (sent as ``seq``) to ``now``; whole: no base."""
    if last is None or last.keys() != now.keys():
        return None, [[[key], value] for key, value in now.items()]
    return seq, patch.changes(last, now)
