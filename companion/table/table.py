"""The :class:`Table`: one command queue, one thread that applies every command.

Callers (web requests, the CLI, tests) call the public methods from any thread; each puts a
command on the queue and waits for its answer. Pin callbacks (ring reports, button presses)
only put an item on the queue. The table thread is the only code that touches a game, the
store, the sensed rings or the LED strip, so no lock guards the game state.

Its parts: ``worker`` (the queue and the thread), ``state`` (the games in memory, the store),
``moves`` (what changes a game), ``publish`` (views, and what the phones are told).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from companion import games as registry
from companion.games.base import JSON, Engine, RecordError
from companion.table import listing, logbook, moves
from companion.table.adapters import Result, adapter
from companion.table.board_parts import BoardHardware, HardwareOpener, RingReportLike
from companion.table.cards_companion import CompanionSeats
from companion.table.computer import ComputerSeats
from companion.table.computer import hints as advisor_hints
from companion.table.game import Game, iso
from companion.table.health import HealthDesk
from companion.table.hub import Hub, Subscription
from companion.table.limits import CreateRate
from companion.table.logbook import Logbook
from companion.table.moves import Moves
from companion.table.owner import OwnerRole
from companion.table.publish import Publisher
from companion.table.ringboard import RingBoard
from companion.table.seats import Viewer
from companion.table.state import TableState
from companion.table.store import DAMAGED_KEY
from companion.table.worker import Handlers, Worker

T = TypeVar("T")


class Table:
    """The one owner of every game on this companion (contract C).

    :param data_dir: where ``table.db`` lives (created if missing).
    :param hardware: ``None`` (no ring board) or a :data:`HardwareOpener` the table calls at
        :meth:`start` with its own reporters (:meth:`when_ring`, :meth:`when_button`), the
        spokes of the board on the table and the last settled offsets; what it opens is the
        ring board's live part's (:class:`~companion.table.ringboard.RingBoard`).
    :param boards_dir: the owner's board files (``<data>/boards``), searched first by name.
    :param engines: kind -> engine (tests only; defaults to ``companion.games.engine``).
    :param max_page_count: cap on the database's pages (tests stand in a full disk with it).
    """

    def __init__(
        self,
        data_dir: Path,
        hardware: HardwareOpener | None = None,
        boards_dir: Path | None = None,
        *,
        engines: Callable[[str], Engine] = registry.engine,
        max_page_count: int | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.boards_dir = boards_dir
        self._max_page_count = max_page_count
        self.state = TableState(lambda kind: adapter(kind).engine(engines(kind)))
        """The games in memory, their tokens, the board game, the store (table thread)."""
        self.hub = Hub(self._snapshot)
        self.create_rate = CreateRate()
        """How many games each client created in the last minute (``companion.table.limits``)."""
        self.computer = ComputerSeats(self)
        """The ring board's computer seats (``companion.table.computer``)."""
        self.companion = CompanionSeats(self)
        """The companion's seats of card games (``companion.table.cards_companion``)."""
        self.health = HealthDesk()
        """The Health page's ring test, LED test and buttons seen (table thread only)."""
        self.ring_board = RingBoard(hardware, self.health, self.state.board_state, self.state.db)
        """The ring board's live part (``companion.table.ringboard``; table thread only)."""
        self.publisher = Publisher(
            self.state, self.hub, self.ring_board, self.computer, self.companion
        )
        """Views, and what the phones are told (``companion.table.publish``)."""
        self.moves = Moves(self.state, self.ring_board, self.computer, self.publisher, boards_dir)
        """What changes a game (``companion.table.moves``)."""
        self.owner = OwnerRole(self, self.state.db)
        """Who holds the owner role (``companion.table.owner``)."""
        self.logbook = Logbook(self.call, self.state.db)
        """The players and finished plays (``companion.table.logbook``)."""
        self.worker = Worker(
            Handlers(
                take_report=self.ring_board.take_report,
                after_reports=self.publisher.after_rings,
                press=self._press,
                after_call=self.publisher.announce_warnings,
                after_item=self._seats_tick,
                tick=self.publisher.tick,
                wake_in=lambda: self.ring_board.wake_in(time.monotonic()),
            )
        )
        """The table's queue and thread (``companion.table.worker``)."""
        self.started_at = 0.0

    @property
    def warnings(self) -> list[str]:
        """The table's warnings (e.g. a database kept aside); every page shows them."""
        return self.state.warnings

    # Life cycle ---------------------------------------------------------------------------

    def start(self) -> None:
        """Open the store (its games are replayed when first used; the ring-board game's
        now), attach the rings, start the table thread.

        :raises StorageError: when the database cannot be used (the message says why).
        """
        if self.worker.running:
            return
        self._open_store()
        self.ring_board.attach(self.when_ring, self.when_button)
        self.moves.resync_board()
        self.worker.open()
        self.started_at = time.time()
        self.publisher.refresh(publish=False)
        self.worker.start()

    def _open_store(self) -> None:
        """Open the database and list its games."""
        self.state.open(self.data_dir, self._max_page_count)
        logbook.backfill(self.state)
        self.owner.load()

    def swap_data(self, change: Callable[[], T]) -> T:
        """Close the database, run ``change`` (which may replace the data directory's files:
        a restore, stamps corrected), open it again and list its games; every phone is
        sent the new state. The files ``change`` leaves are opened even when it raises."""

        def swap() -> T:
            store = self.state.db()
            self.state.flush()
            store.close()
            self.state.store = None
            # The old file's warnings (a damaged one kept aside) go with it.
            kept = [text for text in self.state.warnings if text not in store.warnings]
            self.state.warnings[:] = kept
            try:
                return change()
            finally:
                self._open_store()
                self.moves.resync_board()
                self.publisher.refresh(publish=False)
                self.hub.publish(self._snapshot)

        return self.call(swap)

    @property
    def hardware(self) -> BoardHardware | None:
        """The ring board's opened parts, or ``None`` (no ring board is attached)."""
        return self.ring_board.hardware

    def close(self) -> None:
        """Stop the thread, blank the LEDs, close the store (and hardware the table opened)."""
        self.worker.stop()
        self.ring_board.close()
        if self.state.store is not None:
            self.state.flush()
            self.state.store.close()
            self.state.store = None

    def __enter__(self) -> Table:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def is_alive(self) -> bool:
        """Say whether the table thread is running (the systemd watchdog asks)."""
        return self.worker.is_alive()

    def call(self, function: Callable[[], T]) -> T:
        """Run ``function`` on the table thread and answer what it returns (any thread).

        :raises Conflict: the table is not running, or did not answer in time.
        """
        return self.worker.call(function)

    def when_ring(self, report: RingReportLike) -> None:
        """Take a ring report from the sensors (any thread; only enqueues)."""
        self.worker.when_ring(report)

    def when_button(self, name: str) -> None:
        """Take a button press (any thread; only enqueues)."""
        self.worker.when_button(name)

    def _seats_tick(self) -> None:
        self.computer.tick()  # a computer seat to move starts, follows or confirms
        self.companion.tick()  # a card game's companion to act starts deciding

    # Public API (each method runs on the table thread) ------------------------------------

    def list_games(self) -> list[dict[str, JSON]]:
        """The newest games (``listing.PAGE_SIZE``, the first page): id, kind, seats,
        version, over, last change, on the board."""
        return self.call(self.state.listed)

    def player_colours(self) -> dict[str, str]:
        """Each player's colour as their earliest ring-board game gave it (the new-game
        form offers it again; see ``companion.table.colours``)."""
        return self.call(self.state.known_colours)

    def seat_colours(self, game_id: str) -> dict[str, str]:
        """The colour each seat of a game shows, by name (as in the games list).

        :raises NotFound: no such game.
        """

        def find() -> dict[str, str]:
            chosen = self.state.seat_colours(game_id)
            return dict(zip(self.state.entries[game_id].seats, chosen, strict=False))

        return self.call(find)

    def games_page(self, page: int = 1) -> dict[str, JSON]:
        """One page of the games here, newest first: ``{"games", "page", "pages", "total"}``.

        A page past the last is empty. :raises RecordError: ``page`` is not a whole number
        from 1.
        """
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise RecordError(f"page: expected a whole number from 1, got {page!r}")
        return self.call(lambda: self.state.page(page))

    def create_game(
        self, body: dict[str, JSON], client: str | None = None, *, hidden_deck: bool = False
    ) -> dict[str, JSON]:
        """Start a game (``{"kind", "seats", ...options}``) or import one (``{"record"}``).

        ``client`` is the address of a caller whose creations are counted (None: not counted,
        e.g. the owner). With ``hidden_deck`` (the panel's requests) nobody may know the deck
        of a card game played on the panel: a new one given ``seed``, ``deck`` or
        ``reshuffles`` is refused, and so is importing one that is not over.

        :raises RecordError: for a malformed body or record (naming the key or step), or a
            deck the caller may not choose or see (with ``hidden_deck``).
        :raises IllegalAction: for a record step the rules refuse (``turn 4: ...``).
        :raises StorageError: when it cannot be saved (nothing is created).
        :raises TooManyRequests: ``client`` created too many games in the last minute.
        """

        def create() -> dict[str, JSON]:
            if client is not None:
                self.create_rate.check(client)
            answer = self.moves.create(body, hidden_deck)
            if client is not None:
                self.create_rate.record(client)
            return answer

        return self.call(create)

    def get_game(self, game_id: str, viewer: Viewer | None = None) -> dict[str, JSON]:
        """``{"id", "kind", "version", "state"}``; rings add the live turn to the state.

        A card game played on the panel shows ``viewer`` only what its tokens may see.

        :raises NotFound: when there is no such game.
        """
        return self.call(lambda: self.publisher.view(self.find(game_id), viewer))

    def act(
        self,
        game_id: str,
        version: int,
        action: dict[str, JSON],
        viewer: Viewer | None = None,
    ) -> dict[str, JSON]:
        """Apply one step: a record step, or a live ring-board step (dice, roll, confirm,
        accept_offsets, resume). Answers the new ``{"id", "kind", "version", "state"}``.

        :raises NotFound: no such game. :raises Conflict: stale version, or not possible now.
        :raises RecordError: malformed. :raises IllegalAction: the rules refuse it.
        :raises StorageError: not saved (nothing changed).
        :raises Forbidden: a card game played on the panel, without the acting seat's token.
        """
        return self.call(lambda: self.moves.act(game_id, version, action, viewer))

    def undo(self, game_id: str, version: int, viewer: Viewer | None = None) -> dict[str, JSON]:
        """Remove the game's last accepted action (rings: the last confirmed turn, whose
        dice become the dice of the turn in progress again). The version goes up.

        :raises NotFound: no such game. :raises Conflict: stale version or nothing to undo
            (or, cards, refused by section 11). :raises Forbidden: cards played on the
            panel, without a seat token.
        """
        return self.call(lambda: self.moves.undo(game_id, version, viewer))

    def delete(self, game_id: str, viewer: Viewer | None = None) -> None:
        """Remove a game and its journal. :raises NotFound: no such game.

        :raises Forbidden: a card game hiding hands, without its host token.
        """
        self.call(lambda: self.moves.delete(game_id, viewer))

    def take_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, JSON]:
        """Give a phone the token of ``seat`` of a card game played on the panel.

        A free seat gets a new token; a taken seat only its own token again. Answers
        ``{"id", "seat", "name", "token"}``.

        :raises Forbidden: taken by another phone. :raises NotFound: no such game or seat.
        :raises Conflict: not a game with seats to take.
        """
        return self.call(lambda: self.moves.take_seat(game_id, seat, viewer))

    def free_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, JSON]:
        """Forget ``seat``'s token (the host's phone only); answers ``{"id", "seat", "taken"}``.

        :raises Forbidden: without the host token. :raises NotFound: no such game or seat.
        """
        return self.call(lambda: self.moves.free_seat(game_id, seat, viewer))

    def export(self, game_id: str) -> dict[str, JSON]:
        """The game's record (its board or data file inlined); ``mandala replay`` reads it.

        :raises NotFound: no such game.
        """
        return self.call(lambda: moves.export(self.find(game_id)))

    def result(self, game_id: str) -> Result | None:
        """The finished play's result in the one shape of every kind (None until it is over).

        :raises NotFound: no such game.
        """

        def find() -> Result | None:
            game = self.find(game_id)
            return adapter(game.kind).result(game)

        return self.call(find)

    def resume(self, game_id: str) -> dict[str, JSON]:
        """Put a ring-board game on the board (same as the action ``{"resume": true}``)."""
        return self.call(lambda: self.moves.act(game_id, None, {"resume": True}))

    def hints(self, game_id: str) -> dict[str, JSON]:
        """The advisor's best three rotation sets for the roll of a ring-board game, each with
        what it does (worked out on the caller's thread, not the table's).

        :raises NotFound: no such game. :raises Conflict: no dice yet, over, not rings.
        """
        return advisor_hints(self, game_id)

    def board(self) -> dict[str, JSON]:
        """The rings as sensed, the LED frame, whether it is emulated and which game is on."""
        return self.call(self.publisher.board_view)

    def zero_rings(self) -> dict[str, JSON]:
        """Every ring's mark is at the star: set all offsets to 0 (and store them)."""
        return self.call(self.publisher.zero_rings)

    def set_ring_offset(self, ring: int, offset: int) -> dict[str, JSON]:
        """Set one ring's sensed offset by hand (re-sync after a slip).

        :raises NotFound: no such ring. :raises RecordError: offset out of 0..N-1.
        """
        return self.call(lambda: self.publisher.set_ring_offset(ring, offset))

    def emulator_turn(self, ring: int, detents: int) -> dict[str, JSON]:
        """Turn an emulated ring by ``detents`` clicks (genuine quadrature on the mock pins).

        :raises Forbidden: on real hardware. :raises Conflict: with no ring board at all.
        :raises NotFound: no such ring. :raises RecordError: ``|detents| > 1000``.
        """
        return self.ring_board.emulator_turn(ring, detents)

    def emulator_press(self, name: str) -> dict[str, JSON]:
        """Press an emulated button (``done`` or ``undo``).

        :raises Forbidden: on real hardware. :raises NotFound: no such button.
        """
        return self.ring_board.emulator_press(name)

    def subscribe(self, viewer: Viewer | None = None, client: str | None = None) -> Subscription:
        """A live stream: the current state first, then one item per change, as ``viewer``
        may see them. ``client`` is the address it comes from (its places are limited).

        :raises Conflict: when this client or everybody holds too many streams.
        """
        return self.call(
            lambda: self.hub.subscribe(self.publisher.snapshot(viewer), viewer, client)
        )

    def close_streams(self) -> None:
        """End every live stream now (the server is stopping; each phone sees the end)."""
        self.hub.close_all()

    def status(self) -> dict[str, JSON]:
        """Health of the service: thread alive, warnings (e.g. a database set aside)."""
        return {
            "alive": self.is_alive(),
            "warnings": self.state.shown_warnings(),
            "started": iso(self.started_at) if self.started_at else None,
            "subscribers": self.hub.count(),
        }

    def damaged_copies(self) -> list[dict[str, str]]:
        """The damaged databases kept aside (``{"backup", "reason", "at"}``) not dismissed yet."""
        return self.call(lambda: self.state.db().damaged_notices())

    def dismiss_damaged(self) -> None:
        """Stop showing the damaged-database banner (the kept copies stay on disk)."""
        self.call(lambda: self.state.db().put_setting(DAMAGED_KEY, None))

    def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check`` of the database (``["ok"]`` when sound)."""
        return self.call(lambda: self.state.db().integrity())

    # The Health page ----------------------------------------------------------------------

    def start_ring_test(self) -> dict[str, JSON]:
        """Start the guided ring test afresh (every ring from its state now); its progress.

        :raises Conflict: with no ring board attached.
        """
        return self.call(self.ring_board.start_ring_test)

    def health_view(self) -> dict[str, JSON]:
        """The ring test's progress (``None`` before one is started), the buttons seen and
        the LED test's step."""
        return self.call(self.ring_board.health_view)

    def led_test(self, show: str, pixel: JSON = None) -> dict[str, JSON]:
        """Light one role of the LED map (``spokes``, ``entrances``, ``bases``, ``scores``),
        one ``pixel`` (the counted chase), or give the strip back (``off``).

        :raises RecordError: for another ``show`` or a pixel not on the strip.
        :raises Conflict: with no LED strip attached.
        """
        return self.call(lambda: self.publisher.led_test(show, pixel))

    # Games (table thread) -----------------------------------------------------------------

    def find(self, game_id: str) -> Game:
        """The game ``game_id`` (table thread). :raises NotFound: no such game."""
        return self.state.find(game_id)

    def game(self, game_id: str) -> Game | None:
        """The game ``game_id`` (replayed when not in memory), or ``None`` when there is none
        (table thread)."""
        return self.state.get(game_id)

    def games(self) -> list[Game]:
        """The games in memory (the most recently used; table thread). Every stored game is
        in :meth:`summaries` without being replayed."""
        return list(self.state.games.values())

    def loaded_games(self) -> list[str]:
        """The ids of the games replayed in memory now, least recently used first."""
        return self.call(lambda: list(self.state.games))

    def summaries(self) -> list[listing.Entry]:
        """Every game here, oldest first, as the list knows it without replaying it: id,
        kind, seat names, version, created, updated and a summary (``over``, ``error``,
        ``to_move``, ``winner``, ``scores``, the seats' record colours). The finished games
        are those with ``entry.over``; :meth:`result` gives a finished one's result."""
        return self.call(self.state.summaries)

    def board_game(self) -> Game | None:
        """The ring-board game on the board, if any (table thread)."""
        return self.state.board_game()

    def changed(self, game: Game) -> None:
        """Work out the board's view again, then tell the subscribers about a changed game
        (``companion.table.publish``; table thread)."""
        self.publisher.changed(game)

    def _snapshot(self, viewer: Viewer | None = None) -> dict[str, JSON]:
        return self.publisher.snapshot(viewer)

    # The rings ----------------------------------------------------------------------------

    def _press(self, name: str) -> None:
        self.health.pressed(name)
        if name == "done" and self.owner.when_done():
            return  # the press answered a phone asking to become the owner
        self.moves.press(name)
