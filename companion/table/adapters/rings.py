"""The ring board's adapter (rings.md): boards by name, computer seats, dice, peg colours.

A ring-board game is played on the sensed board (``ring_board``): the table drives its
live turn, dice, re-sync and LEDs. Here: the owner's board files inlined into the setup
(so the record replays anywhere), the computer and hints settings of its seats, the seed
of its dice rolls (kept in the setup when given), each turn's table instructions, the
dice an undone turn leaves, the seats' own peg colours and the result's variant and board.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from typing import Any

from companion.games import rings
from companion.games.base import (
    JSON,
    Engine,
    RecordError,
    as_bool,
    as_int,
    as_str,
    join,
    seat_refused,
)
from companion.phrases import Phrase, say
from companion.table.adapters.base import Form, Setting, StateScores
from companion.table.game import Game

BOARD_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
"""The names of the owner's board files (``<data>/boards/NAME.toml``) a game may name."""


COMPUTER = "computer"
"""A seat object's key: the computer level playing it (``companion.table.computer``)."""
HINTS = "hints"
"""A seat object's key: ``true`` when its person wants the advisor's options shown unasked."""


def check_seats(setup: Mapping[str, JSON]) -> None:
    """Check the computer and hints settings of a ring-board game's seats.

    :raises RecordError: naming the key, e.g. ``seats[1].computer: expected one of easy,
        medium, hard, got 'expert'`` or ``seats[0].computer: a computer seat needs another
        seat to play against (this game has one seat)``.
    """
    seats = setup.get("seats")
    if not isinstance(seats, list):
        return  # the engine names what is wrong with the seats
    for index, seat in enumerate(seats):
        if not isinstance(seat, dict):
            continue
        where = join("seats", index)
        level = seat.get(COMPUTER)
        if level is not None:
            from companion.players.rings import LEVELS  # on first use: not at start-up

            as_str(level, join(where, COMPUTER), LEVELS)
            if len(seats) < 2:
                alone = say(
                    "a computer seat needs another seat to play against (this game has one seat)"
                )
                raise RecordError.said(seat_refused(join(where, COMPUTER), alone))
        if HINTS in seat:
            as_bool(seat[HINTS], join(where, HINTS))


class RingsAdapter(StateScores):
    """The 1983 ring board."""

    ring_board = True
    export_name = "Mandala (1983 ring board)"  # no BoardGameGeek id could be confirmed

    def __init__(self) -> None:
        form = Form(
            seats={"standard": [2, 4], "two-bases": [2, 2], "solo": [1, 1]},
            seat_fields="seat",
            options="rings-options",
            seed=False,
        )
        super().__init__(rings.KIND, say("Ring board (1983)"), form)

    def setup(self, setup: dict[str, JSON], setting: Setting) -> dict[str, JSON]:
        """Inline a board named in the owner's boards directory (so it replays anywhere)."""
        ref = setup.get("board")
        folder = setting.boards_dir
        if not isinstance(ref, str) or folder is None:
            return setup
        if not BOARD_FILE.fullmatch(ref) or not (folder / f"{ref}.toml").is_file():
            # A name no file of the boards directory can have (too long, a path) is not one
            # of the owner's boards: the engine names it unknown.
            return setup
        board = rings.load_board(ref, [folder])
        return {**setup, "board": rings.board_to_json(board)}

    def check_setup(self, setup: Mapping[str, JSON]) -> None:
        """Check the seats' computer and hints settings (:func:`check_seats`)."""
        check_seats(setup)

    def seed(self, setup: Mapping[str, JSON]) -> int:
        """The setup's ``seed`` when it has one (the rolls replay), else a random one."""
        value = setup.get("seed")
        return as_int(value, "seed", 0) if value is not None else secrets.randbelow(2**31)

    def play(self, engine: Engine, state: Any, action: Any) -> tuple[Any, list[Phrase]]:
        """Resolve the turn; its notes say what to do at the table, event by event."""
        outcome = rings.resolve(state, action)
        return outcome.state, [rings.describe(event, state) for event in outcome.events]

    def undone_dice(self, undone: JSON) -> tuple[dict[str, int] | None, str | None]:
        """The undone turn's dice become the dice of the turn in progress again."""
        if isinstance(undone, dict) and isinstance(undone.get("dice"), dict):
            return dict(undone["dice"]), "kept"
        return None, None

    def seat_colours(self, game: Game) -> list[tuple[str, str | None]]:
        """Each seat's peg colour as its record gives it."""
        if game.error is not None:
            return super().seat_colours(game)
        return [(str(seat.name), str(seat.colour)) for seat in game.state.seats]

    def figures(self, game: Game) -> tuple[dict[str, JSON], list[dict[str, JSON]]]:
        """The turns played; each seat's snipes made and suffered and pegs that entered
        Central Control (each turn resolved again from the journal)."""
        count = len(game.state.seats)
        made, suffered, entered = [0] * count, [0] * count, [0] * count
        for before, obj in zip(game.states, game.actions, strict=False):
            for event in rings.resolve(before, game.engine.parse_action(before, obj)).events:
                if event.kind == "snipe" and event.by is not None:
                    made[event.by] += 1
                    suffered[event.seat] += 1
                elif event.kind == "centre":
                    entered[event.seat] += 1
        seats: list[dict[str, JSON]] = [
            {"snipes_made": made[n], "snipes_suffered": suffered[n], "pegs_entered": entered[n]}
            for n in range(count)
        ]
        return {"turns": int(game.state.turns)}, seats

    def variant(self, game: Game) -> str | None:
        """``standard``, ``two-bases`` or ``solo``."""
        return str(game.state.variant)

    def board(self, game: Game) -> str | None:
        """The board's name (its file's, or the inline board's own)."""
        return str(game.state.board.name)
