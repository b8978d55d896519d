"""The live steps of a ring-board turn at a real table, applied on the table thread.

A phone (or the ``done`` button) sends one step at a time: the dice entered
(``{"dice": {...}}``) or rolled (``{"roll": true}``), the sensed rotations confirmed
(``{"confirm": true}``), the sensed offsets accepted during a re-sync
(``{"accept_offsets": true}``), the game put on the board (``{"resume": true}``) or a
computer seat let go on after an undo (``{"play": true}``). A record turn has ``dice`` *and*
``rotations`` and is no live step. The dice are journalled before the panel shows them.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.games import rings
from companion.games.base import JSON, IllegalAction, RecordError, as_bool, step_at
from companion.phrases import say
from companion.table.computer import ComputerSeats
from companion.table.errors import Conflict
from companion.table.game import Game
from companion.table.live import ResyncReason
from companion.table.ringboard import RingBoard
from companion.table.store import Store

LIVE_KEYS = ("dice", "roll", "confirm", "accept_offsets", "resume", "play")
"""Keys of a live ring-board step (a record turn has ``dice`` *and* ``rotations``)."""


def is_live_step(ring_board: bool, action: dict[str, JSON]) -> bool:
    """Say whether ``action`` is a live step of a ring-board game (not a record turn)."""
    return ring_board and "rotations" not in action and any(key in action for key in LIVE_KEYS)


class LiveSteps:
    """The live steps, over the table's parts (every method runs on the table thread).

    :param record_step: journals one record turn (the confirmed rotations) of a game.
    :param put_on_board: makes a game the one on the board (with the re-sync's reason).
    :param active: the id of the game on the board, or ``None``.
    """

    def __init__(  # noqa: PLR0917 -- the table's parts, each named
        self,
        ring_board: RingBoard,
        computer: ComputerSeats,
        db: Callable[[], Store],
        record_step: Callable[[Game, JSON], None],
        put_on_board: Callable[[Game, ResyncReason], None],
        active: Callable[[], str | None],
    ) -> None:
        self.ring_board = ring_board
        self.computer = computer
        self.db = db
        self.record_step = record_step
        self.put_on_board = put_on_board
        self.active = active

    def apply(self, game: Game, action: dict[str, JSON]) -> None:
        """Apply one live step to ``game``.

        :raises RecordError: malformed. :raises IllegalAction: the rules refuse it.
        :raises Conflict: not possible now (no board, not on it, nothing to accept).
        """
        if len(action) != 1:
            keys = ", ".join(sorted(action))
            raise RecordError(f"action: one live step at a time, got {keys}")
        key = next(iter(action))
        if key != "dice" and not as_bool(action[key], f"action.{key}"):
            raise RecordError(f"action.{key}: expected true")
        if key in ("dice", "roll", "confirm") and game.over:
            raise IllegalAction.said(say("the game is over"))
        if key == "dice":
            self._set_dice(game, rings.parse_dice(game.state, action["dice"]), "entered")
        elif key == "roll":
            rng = random.Random(f"{game.seed}:{game.rolls}")
            dice = {colour: int(v) for colour, v in rings.roll(rng, game.state.board).items()}
            self._set_dice(game, dice, "rolled")
        elif key == "resume":
            if game.id != self.active():
                self.put_on_board(game, "resume")
        elif key == "accept_offsets":
            self._need_board(game)
            self.ring_board.accept_offsets()
        elif key == "play":
            self.computer.play(game)
        else:
            self._confirm(game)

    def _set_dice(self, game: Game, dice: dict[str, int], source: str) -> None:
        rolls = game.rolls + 1 if source == "rolled" else None
        game.updated = self.db().set_dice(game.id, game.version + 1, dice, source, rolls=rolls)
        game.version += 1
        if rolls is not None:
            game.rolls = rolls
        game.dice, game.dice_source = dice, source

    def _need_board(self, game: Game) -> None:
        if self.ring_board.hardware is None:
            raise Conflict('no ring board is attached: post the turn as {"dice", "rotations"}')
        if game.id != self.active():
            raise Conflict(
                f'game {game.id} is not on the board: resume it first ({{"resume": true}})'
            )

    def _confirm(self, game: Game) -> None:
        self._need_board(game)
        turn = self.ring_board.compute_live(game.state, game.dice)
        if turn.blocked is not None:
            turn_number = step_at("turn", len(game.actions) + 1)
            if turn.reason is not None and turn.blocked == turn.reason:
                raise IllegalAction.said(turn.blocked).at(turn_number)
            raise Conflict.said(say("cannot confirm: {reason}", reason=turn.blocked)).at(
                turn_number
            )
        assert turn.dice is not None and turn.rotations is not None
        self.record_step(game, {"dice": turn.dice, "rotations": turn.rotations})
