"""What the phones are told: a game's view, the live turn and LED frame worked out again,
the state a new stream starts with, and the changes and warnings sent to every stream.

The streams get changes, not whole games (``companion.table.told`` keeps what they were
told): a new stream starts with the whole state once; a changed game goes out as a ``game``
item whose ``state`` has no ``log`` and whose ``log`` is ``{"base", "from", "entries"}``
(keep the first ``from`` entries of the log held at any version from ``base`` on, then add
``entries``); a ring move sends the LED frame, a ``live`` item and a ``board`` item, each of
the last two ``{"seq", "base", "changes"}``: the ``[path, value]`` steps
(``companion.table.patch``) from the game's state or the board view numbered ``base`` (None:
the steps set every key). Every view of a game or of the board carries its ``seq``, so a
phone can tell which of an answer and an item is newer at the same ``version``.

Table thread only (``companion.table.table`` owns the :class:`Publisher`).
"""

from __future__ import annotations

from typing import Any

from companion.games.base import JSON
from companion.table.adapters import adapter
from companion.table.announce import Announcer
from companion.table.cards_companion import CompanionSeats
from companion.table.computer import ComputerSeats
from companion.table.game import Game
from companion.table.hub import Hub
from companion.table.ringboard import RingBoard
from companion.table.seats import Viewer
from companion.table.state import TableState
from companion.table.told import Told


class Publisher:
    """Views of the table's games, and the changes published to the streams."""

    def __init__(
        self,
        state: TableState,
        hub: Hub,
        ring_board: RingBoard,
        computer: ComputerSeats,
        companion: CompanionSeats,
    ) -> None:
        self.state = state
        self.hub = hub
        self.ring_board = ring_board
        self.computer = computer
        self.companion = companion
        self.announced: list[str] = []
        """The warnings the phones were last told."""
        self.told = Told()
        """What the streams were last told (what the next items change)."""
        self.announcer = Announcer()
        """What was last said of each game (the ``say`` items)."""
        self.said = 0
        """The number of the last ``say`` item published."""

    def view(self, game: Game, viewer: Viewer | None = None) -> dict[str, JSON]:
        """``{"id", "kind", "version", "seq", "state"}`` of ``game`` as ``viewer`` may see it."""
        view = self.view_without_log(game, viewer)
        view["state"]["log"] = log_entries(game, 0)
        self.told.seen(game)
        return view

    def view_without_log(self, game: Game, viewer: Viewer | None = None) -> dict[str, Any]:
        """The view of ``game`` as ``viewer`` may see it, its state without the ``log``."""
        kind_adapter = adapter(game.kind)
        if game.error is not None:
            state: dict[str, JSON] = {"error": game.error}
        else:
            tokens = self.state.tokens_of(game)
            state = kind_adapter.view(game, tokens, viewer or Viewer())
            if kind_adapter.seat_tokens:
                state.update(self.companion.view(game))
        if kind_adapter.ring_board and game.error is None:
            # What the last turn did, as instructions for the table (kept across restarts).
            state["last_turn"] = [note.to_json() for note in game.notes[-1]] if game.notes else []
            state.update(self.live_keys(game))
        return {
            "id": game.id,
            "kind": game.kind,
            "version": game.version,
            "seq": self.told.game_seq(game),
            "state": state,
        }

    def live_keys(self, game: Game) -> dict[str, JSON]:
        """The keys of a ring-board game's state that change as the rings move (not its
        version): the dice, whether on the board, the live turn, the re-sync, the refusal
        and the computer seats' turn (its rings done)."""
        on_board = game.id == self.state.active
        keys: dict[str, JSON] = {
            "dice": game.dice,
            "dice_source": game.dice_source,
            "on_board": on_board,
        }
        keys.update(self.ring_board.game_view(on_board, game.state))
        keys.update(self.computer.view(game))
        return keys

    def board_view(self) -> dict[str, JSON]:
        """The rings as sensed, the LED frame, whether emulated, which game is on, ``seq``."""
        return {**self.sensed_board(), "seq": self.told.board_seq}

    def sensed_board(self) -> dict[str, Any]:
        """The board view without its ``seq``, each ring's last movement to the millisecond:
        worked out again from the monotonic clock at every view, it would otherwise differ
        in its last digits each time, and every ring's would go out as a change."""
        board: dict[str, Any] = self.ring_board.view(self.state.active)
        for ring in board["rings"]:
            if ring["last_movement"] is not None:
                ring["last_movement"] = round(ring["last_movement"], 3)
        return board

    def snapshot(self, viewer: Viewer | None = None) -> dict[str, JSON]:
        """The state a new stream starts with, as ``viewer`` may see it."""
        game = self.state.board_game()
        return {
            "type": "state",
            "games": self.state.listed(),
            "board": self.board_view(),
            "game": self.view(game, viewer) if game is not None else None,
            "warnings": self.state.shown_warnings(),
            "banner": self.state.banner(),
        }

    def refresh(
        self, *, publish: bool = True, board_changed: bool = False, game_published: str = ""
    ) -> None:
        """Work out the live turn and the LED frame again; tell the subscribers."""
        game = self.state.board_game()
        self.ring_board.refresh(
            self.state.board_state(),
            game.dice if game is not None else None,
            board_changed,
            lambda: self.computer.chase(game) if game is not None else None,
        )
        changed = self.show(publish=publish)
        if not publish or self.hub.count() == 0:
            self.told.forget()  # no stream heard of this: the next items are whole
            return
        if game is not None and game.id != game_published and (board_changed or changed):
            self.publish_live(game)
        if board_changed:
            self.hub.publish({"type": "board", **self.told.board_item(self.sensed_board())})

    def after_rings(self) -> None:
        """The rings moved (a burst of sensor reports taken): re-sync, live turn, LEDs."""
        self.ring_board.check_resync()
        self.refresh(board_changed=True)

    def zero_rings(self) -> dict[str, JSON]:
        """Set every ring's offset to 0; answers the board's view."""
        self.ring_board.zero()
        self.refresh(board_changed=True)
        return self.board_view()

    def set_ring_offset(self, ring: int, offset: int) -> dict[str, JSON]:
        """Set one ring's sensed offset by hand; answers the board's view."""
        self.ring_board.set_offset(ring, offset)
        self.refresh(board_changed=True)
        return self.board_view()

    def led_test(self, show: str, pixel: JSON) -> dict[str, JSON]:
        """Light a role of the LED map or one pixel (the Health page's LED test)."""
        self.ring_board.led_test(show, pixel)
        self.show()
        return {"led_step": self.ring_board.health.step, "leds": self.ring_board.frame_json()}

    def tick(self) -> None:
        """The LEDs' next step (an animation, the LED test's hold); published when shown."""
        if self.ring_board.tick():
            self.publish_leds()

    def show(self, *, publish: bool = True) -> bool:
        """Show the LED frame; say whether it changed (and publish it when it did)."""
        changed = self.ring_board.show()
        if changed and publish:
            self.publish_leds()
        return changed

    def publish_leds(self) -> None:
        """Send every stream the LED frame."""
        if self.hub.count():
            self.hub.publish({"type": "leds", "leds": self.ring_board.frame_json()})

    def changed(self, game: Game) -> None:
        """Work out the board's view again, then tell the subscribers about a changed game.

        The live turn comes first: the published view carries it, and one worked out before
        the change (the last turn's dice "used", its preview, a lit Confirm) would leave every
        other phone showing the old turn until the rings next moved.
        """
        self.refresh(game_published=game.id)
        if not self.hub.count():
            self.told.seen(game)
            self.told.forget()
        else:
            base, start = self.told.log_change(game)
            log = {"base": base, "from": start, "entries": log_entries(game, start)}
            ring_board = adapter(game.kind).ring_board and game.error is None
            self.told.game_item(game, self.live_keys(game) if ring_board else None)

            def item(viewer: Viewer | None) -> dict[str, JSON]:
                return {"type": "game", **self.view_without_log(game, viewer), "log": log}

            self.hub.publish(item)
        self.publish_games()
        self.publish_said(game)

    def publish_live(self, game: Game) -> None:
        """Send every stream what the rings changed of ``game`` (its view's :meth:`live_keys`)."""
        if game.error is not None:
            return
        item = {"type": "live", "id": game.id, "kind": game.kind, "version": game.version}
        keys = self.live_keys(game)
        self.hub.publish({**item, **self.told.live_item(game, keys)})
        self.publish_said(game, keys)

    def publish_said(self, game: Game, live: dict[str, JSON] | None = None) -> None:
        """Send every stream what is new to say of ``game`` (``companion.table.announce``):
        one ``say`` item per announcement, ``{"type": "say", "game", "kind", "n", "topic",
        "phrases"}``, ``n`` counting every ``say`` item this process published."""
        if live is None and adapter(game.kind).ring_board and game.error is None:
            live = self.live_keys(game)
        for announcement in self.announcer.after(game, live):
            if not self.hub.count():
                continue
            self.said += 1
            self.hub.publish(
                {"type": "say", "game": game.id, "kind": game.kind, "n": self.said}
                | announcement.to_json()
            )

    def publish_games(self) -> None:
        """Send every stream the games list."""
        if self.hub.count():
            self.hub.publish({"type": "games", "games": self.state.listed()})

    def announce_warnings(self) -> None:
        """Tell every phone when the banner's warnings changed (e.g. the data directory went)."""
        banner = self.state.banner()
        if banner != self.announced and self.hub.count():
            self.hub.publish({"type": "warnings", "banner": list(banner)})
        self.announced = banner


def log_entries(game: Game, start: int) -> list[JSON]:
    """The game's log from entry ``start`` on: each step and what it told the table."""
    return [
        {"action": action, "instructions": [note.to_json() for note in notes]}
        for action, notes in zip(game.actions[start:], game.notes[start:], strict=True)
    ]
