"""What changes a game: create, act, undo, delete, export, and its seats taken or freed.

Each change is on disk before the phones are told (the store first, then the
:class:`~companion.table.publish.Publisher`). Table thread only (``companion.table.table``
owns the :class:`Moves`).
"""

from __future__ import annotations

import secrets
from pathlib import Path

from companion.games.base import GAME_ERRORS, JSON, RecordError, as_dict
from companion.phrases import Phrase, say
from companion.table import clock, create, live, logbook, steps
from companion.table.adapters import adapter
from companion.table.computer import ComputerSeats
from companion.table.errors import Conflict, Forbidden, StorageError
from companion.table.game import Game
from companion.table.live_steps import LiveSteps, is_live_step
from companion.table.publish import Publisher
from companion.table.ringboard import RingBoard
from companion.table.seats import GameTokens, Viewer, digest
from companion.table.state import ACTIVE_KEY, TableState


class Moves:
    """The changes to the table's games, each stored, then published."""

    def __init__(
        self,
        state: TableState,
        ring_board: RingBoard,
        computer: ComputerSeats,
        publisher: Publisher,
        boards_dir: Path | None,
    ) -> None:
        self.state = state
        self.ring_board = ring_board
        self.publisher = publisher
        self.boards_dir = boards_dir
        self.live_steps = LiveSteps(
            ring_board,
            computer,
            state.db,
            self.act_step,
            self.put_on_board,
            lambda: state.active,
        )
        """The live steps of a ring-board turn (``companion.table.live_steps``)."""

    def create(self, body: JSON, hidden_deck: bool = False) -> dict[str, JSON]:
        """Start or import a game (see :meth:`Table.create_game`); answers its view."""
        game_id = secrets.token_hex(4)
        while game_id in self.state.entries:
            game_id = secrets.token_hex(4)
        request = create.Request(body, self.state.engines, self.boards_dir, hidden_deck)
        made = create.new_game(request, game_id, clock.now())
        game, imported, kind_adapter = made.game, made.imported, adapter(made.game.kind)
        actions = list(game.actions)
        host, digests = kind_adapter.host_tokens(game.state)
        store = self.state.db()
        store.add_game(
            made.row, game.seat_names(), actions, tokens=digests, also=logbook.starting(game)
        )
        self.state.add(game)
        self.state.tokens[game_id] = GameTokens(dict(digests))
        if kind_adapter.ring_board:
            self.put_on_board(game, "import" if imported else "new")
        self.publisher.changed(game)
        if host is None:
            return self.publisher.view(game)
        return {**self.publisher.view(game, Viewer((host,))), "host_token": host}

    def resync_board(self) -> None:
        """Guide the rings back to the board game's position (they may have moved meanwhile)."""
        self.ring_board.resync = None
        game = self.state.board_game()
        if game is not None and game.error is None and not game.over:
            self.ring_board.start_resync("restart", game.state.offsets)

    def press(self, name: str) -> None:
        """A press of the board's ``done`` or ``undo`` button: confirm or undo the turn of
        the board game (a refusal is shown on the board)."""
        game = self.state.board_game()
        if game is None:
            return
        self.ring_board.refusal = None
        try:
            if name == "done":
                self.act(game.id, None, {"confirm": True})
            elif name == "undo":
                self.undo(game.id, game.version)
        except (*GAME_ERRORS, Conflict, StorageError) as error:
            self.ring_board.refuse(f"the {name} button: {error}")
            self.publisher.changed(game)

    def put_on_board(self, game: Game, reason: live.ResyncReason) -> None:
        """Make ``game`` the ring-board game the sensors drive, and start its re-sync."""
        try:
            self.state.db().put_setting(ACTIVE_KEY, game.id)
        except StorageError as error:
            self.state.warnings.append(str(error))
        self.state.active = game.id
        self.ring_board.put_on(self.state.board_state(), game.over, reason)

    def act(
        self, game_id: str, version: int | None, action: JSON, viewer: Viewer | None = None
    ) -> dict[str, JSON]:
        """Apply one step (see :meth:`Table.act`); ``version`` None: not checked."""
        game = self.state.find(game_id)
        kind_adapter = adapter(game.kind)
        if game.error is None:
            kind_adapter.check_turn(game, self.state.tokens_of(game), viewer or Viewer())
        if version is not None:
            _check_version(game, version)
        if game.error is not None:
            raise Conflict(f"game {game.id} {game.error}")
        action = as_dict(action, "action")
        if is_live_step(kind_adapter.ring_board, action):
            self.live_steps.apply(game, action)
        else:
            word = game.engine.STEP_WORD
            # A step whose record form is not an object (an icehouse pick is a bare index)
            # comes wrapped in its step word: {"pick": 4}.
            step = action[word] if list(action) == [word] else action
            self.act_step(game, step)
        self.publisher.changed(game)
        return self.publisher.view(game, viewer)

    def act_step(self, game: Game, obj: JSON) -> None:
        """Play one record step and journal it (taken back when it cannot be stored)."""
        steps.play(game, obj)
        try:
            game.updated = self.state.db().append(
                game.id,
                len(game.actions),
                game.actions[-1],
                game.version + 1,
                word=game.engine.STEP_WORD,
                also=logbook.finishing(game),
            )
        except StorageError:
            steps.unplay(game)
            raise
        game.version += 1
        if adapter(game.kind).ring_board:
            game.dice = None
            game.dice_source = None

    def undo(self, game_id: str, version: int, viewer: Viewer | None = None) -> dict[str, JSON]:
        """Remove the game's last accepted action (see :meth:`Table.undo`)."""
        game = self.state.find(game_id)
        _check_version(game, version)
        if game.error is not None:
            raise Conflict(f"game {game.id} {game.error}")
        if not game.actions:
            raise Conflict.said(nothing_to_undo(game.engine.STEP_WORD))
        kind_adapter = adapter(game.kind)
        kind_adapter.check_undo(game, self.state.tokens_of(game), viewer or Viewer())
        dice, source = kind_adapter.undone_dice(game.actions[-1])
        game.updated = self.state.db().remove_last(
            game.id, len(game.actions), game.version + 1, dice, source
        )
        steps.unplay(game)
        game.version += 1
        if kind_adapter.ring_board:
            game.dice, game.dice_source = dice, source
            if game.id == self.state.active:
                self.ring_board.start_resync("undo", game.state.offsets)
        self.publisher.changed(game)
        return self.publisher.view(game, viewer)

    def delete(self, game_id: str, viewer: Viewer | None = None) -> None:
        """Remove a game and its journal (see :meth:`Table.delete`)."""
        game = self.state.find(game_id)
        if game.error is None:
            tokens = self.state.tokens_of(game)
            adapter(game.kind).check_delete(game, tokens, viewer or Viewer())
        self.state.db().delete_game(game.id)
        self.state.remove(game.id)
        if self.state.active == game.id:
            self.state.active = None
            self.ring_board.take_off()
        hub = self.publisher.hub
        if hub.count():
            hub.publish({"type": "game", "id": game.id, "kind": game.kind, "deleted": True})
        self.publisher.publish_games()
        self.publisher.refresh()

    def take_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, JSON]:
        """Give a phone a seat's token (see :meth:`Table.take_seat`)."""
        game = self.state.find(game_id)
        kind_adapter = adapter(game.kind)
        tokens = self.state.tokens_of(game)
        token = kind_adapter.token_to_give(game, tokens, seat, viewer)
        stored = digest(token)
        if tokens.digests.get(seat) != stored:
            self.state.db().set_token(game.id, seat, stored)
            tokens.digests[seat] = stored
            self.publisher.changed(game)
        name = kind_adapter.seat_name(game, seat)
        return {"id": game.id, "seat": seat, "name": name, "token": token}

    def free_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, JSON]:
        """Forget a seat's token (see :meth:`Table.free_seat`)."""
        game = self.state.find(game_id)
        tokens = self.state.tokens_of(game)
        adapter(game.kind).check_free(game, tokens, seat, viewer)
        if seat in tokens.digests:
            self.state.db().set_token(game.id, seat, None)
            del tokens.digests[seat]
            self.publisher.changed(game)
        return {"id": game.id, "seat": seat, "taken": False}


def export(game: Game) -> dict[str, JSON]:
    """The game's record. :raises Forbidden: it hides the seats' hands and is not over."""
    kind_adapter = adapter(game.kind)
    if kind_adapter.is_hidden(game):
        raise Forbidden.said(
            say(
                "game {id} hides the seats' hands: its record is exported once it is over",
                id=game.id,
            )
        )
    return kind_adapter.export(game)


def nothing_to_undo(word: str) -> Phrase:
    """The refusal of an undo before the first step (``word``: the engine's ``STEP_WORD``)."""
    if word == "turn":
        return say("nothing to undo: no turn yet")
    if word == "pick":
        return say("nothing to undo: no pick yet")
    if word == "action":
        return say("nothing to undo: no action yet")
    return say("nothing to undo: no {word} yet", word=word)  # a kind without its words yet


def _check_version(game: Game, version: object) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise RecordError(f"version: expected a whole number, got {version!r}")
    if version != game.version:
        raise Conflict(
            f"version {version} is stale: the game is at version {game.version}; "
            "reload it and try again"
        )
