"""What the phones are told: a game's view, the live turn and LED frame worked out again,
the state a new stream starts with, and the changes and warnings sent to every stream.

Table thread only (``companion.table.table`` owns the :class:`Publisher`).
"""

from __future__ import annotations

from companion.games.base import JSON
from companion.table.adapters import adapter
from companion.table.cards_companion import CompanionSeats
from companion.table.computer import ComputerSeats
from companion.table.game import Game
from companion.table.hub import Hub
from companion.table.ringboard import RingBoard
from companion.table.seats import Viewer
from companion.table.state import TableState


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

    def view(self, game: Game, viewer: Viewer | None = None) -> dict[str, JSON]:
        """``{"id", "kind", "version", "state"}`` of ``game`` as ``viewer`` may see it."""
        kind_adapter = adapter(game.kind)
        if game.error is not None:
            state: dict[str, JSON] = {"error": game.error}
        else:
            tokens = self.state.tokens_of(game)
            state = kind_adapter.view(game, tokens, viewer or Viewer())
            if kind_adapter.seat_tokens:
                state.update(self.companion.view(game))
        # "log", not "history": a summary may have its own "history" (icehouse does).
        state["log"] = [
            {"action": action, "instructions": notes}
            for action, notes in zip(game.actions, game.notes, strict=True)
        ]
        if kind_adapter.ring_board and game.error is None:
            on_board = game.id == self.state.active
            state["dice"] = game.dice
            state["dice_source"] = game.dice_source
            state["on_board"] = on_board
            live_keys = self.ring_board.game_view(on_board, game.state)
            state["live"] = live_keys["live"]
            state["resync"] = live_keys["resync"]
            # What the last turn did, as instructions for the table (kept across restarts).
            state["last_turn"] = game.notes[-1] if game.notes else []
            state["refusal"] = live_keys["refusal"]
            state.update(self.computer.view(game))
        return {"id": game.id, "kind": game.kind, "version": game.version, "state": state}

    def board_view(self) -> dict[str, JSON]:
        """The rings as sensed, the LED frame, whether emulated and which game is on."""
        return self.ring_board.view(self.state.active)

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
            return
        if game is not None and game.id != game_published and (board_changed or changed):
            self.hub.publish({"type": "game", **self.view(game)})
        if board_changed:
            self.hub.publish({"type": "board", "board": self.board_view()})

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
        if self.hub.count():
            self.hub.publish(lambda viewer: {"type": "game", **self.view(game, viewer)})
        self.publish_games()

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
