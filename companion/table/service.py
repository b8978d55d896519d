"""The :class:`Table`: one command queue, one thread that applies every command.

Callers (web requests, the CLI, tests) call the public methods from any thread; each puts a
command on the queue and waits for its answer. Pin callbacks (ring reports, button presses)
only put an item on the queue. The table thread is the only code that touches a game, the
store, the sensed rings or the LED strip, so no lock guards the game state.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from companion import games as registry
from companion.games import rings
from companion.games.base import (
    GAME_ERRORS,
    JSON,
    Engine,
    RecordError,
    as_dict,
)
from companion.table import clock, create, listing, live, steps
from companion.table.adapters import Result, adapter
from companion.table.board_parts import BoardHardware, HardwareOpener, RingReportLike
from companion.table.cards_companion import CompanionSeats
from companion.table.computer import ComputerSeats
from companion.table.computer import hints as advisor_hints
from companion.table.errors import Conflict, Forbidden, NotFound, StorageError
from companion.table.game import Game, iso
from companion.table.health import HealthDesk
from companion.table.hub import Hub, Subscription
from companion.table.limits import CreateRate
from companion.table.live_steps import LiveSteps, is_live_step
from companion.table.owner import OwnerRole
from companion.table.ringboard import RingBoard
from companion.table.schema import GameRow
from companion.table.seats import GameTokens, Viewer, digest
from companion.table.store import DAMAGED_KEY, Store

log = logging.getLogger(__name__)

T = TypeVar("T")

ACTIVE_KEY = "active_rings_game"
CALL_TIMEOUT = 30.0
"""How long a caller waits for the table thread before it is told to try again."""


@dataclass(frozen=True)
class _Call:
    function: Callable[[], Any]
    future: Future[Any]


@dataclass(frozen=True)
class _RingReport:
    report: RingReportLike


@dataclass(frozen=True)
class _Button:
    name: str


class _Stop:
    pass


_Item = _Call | _RingReport | _Button | _Stop
"""What the table thread takes from its queue."""


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
        self._engines: Callable[[str], Engine] = lambda kind: adapter(kind).engine(engines(kind))
        self._max_page_count = max_page_count
        self._queue: queue.Queue[_Item] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._running = False
        self._store: Store | None = None
        self._games: dict[str, Game] = {}
        self._active: str | None = None
        self.warnings: list[str] = []
        self._announced: list[str] = []  # the warnings the phones were last told
        self._tokens: dict[str, GameTokens] = {}
        """Per game, the digests of its host and seat tokens (cards played on the panel)."""
        self.hub = Hub(self._snapshot)
        self.create_rate = CreateRate()
        """How many games each client created in the last minute (``companion.table.limits``)."""
        self.computer = ComputerSeats(self)
        """The ring board's computer seats (``companion.table.computer``)."""
        self.companion = CompanionSeats(self)
        """The companion's seats of card games (``companion.table.cards_companion``)."""
        self.health = HealthDesk()
        """The Health page's ring test, LED test and buttons seen (table thread only)."""
        self.ring_board = RingBoard(hardware, self.health, self._board_state, self._db)
        """The ring board's live part (``companion.table.ringboard``; table thread only)."""
        self.live_steps = LiveSteps(
            self.ring_board,
            self.computer,
            self._db,
            self._act_step,
            self._put_on_board,
            lambda: self._active,
        )
        """The live steps of a ring-board turn (``companion.table.live_steps``)."""
        self.owner = OwnerRole(self, self._db)
        """Who holds the owner role (``companion.table.owner``)."""
        self.started_at = 0.0

    # Life cycle ---------------------------------------------------------------------------

    def start(self) -> None:
        """Open the store, replay every game, attach the rings, start the table thread.

        :raises StorageError: when the database cannot be used (the message says why).
        """
        if self._running:
            return
        self._open_store()
        self.ring_board.attach(self.when_ring, self.when_button)
        self._resync_active()
        self._running = True
        self.started_at = time.time()
        self._refresh(publish=False)
        self._thread = threading.Thread(target=self._run, name="table", daemon=True)
        self._thread.start()

    def _open_store(self) -> None:
        """Open the database and replay every game in it."""
        self._store = Store(self.data_dir, max_page_count=self._max_page_count)
        self.warnings.extend(self._store.warnings)
        self._games = {}
        for row in self._store.games():
            self._games[row.id] = self._load(row, self._store.journal(row.id))
        self._tokens = {key: GameTokens(value) for key, value in self._store.tokens().items()}
        self.owner.load()
        active = self._store.setting(ACTIVE_KEY)
        self._active = active if active in self._games else None

    def _resync_active(self) -> None:
        """Guide the rings back to the active game's position (they may have moved meanwhile)."""
        self.ring_board.resync = None
        if self._active is not None:
            game = self._games[self._active]
            if game.error is None and not game.over:
                self.ring_board.start_resync("restart", game.state.offsets)

    def swap_data(self, change: Callable[[], T]) -> T:
        """Close the database, run ``change`` (which may replace the data directory's files:
        a restore, stamps corrected), open it again and replay every game; every phone is
        sent the new state. The files ``change`` leaves are opened even when it raises."""

        def swap() -> T:
            store = self._db()
            store.close()
            self._store = None
            # The old file's warnings (a damaged one kept aside) go with it.
            self.warnings = [text for text in self.warnings if text not in store.warnings]
            try:
                return change()
            finally:
                self._open_store()
                self._resync_active()
                self._refresh(publish=False)
                self.hub.publish(self._snapshot)

        return self.call(swap)

    @property
    def hardware(self) -> BoardHardware | None:
        """The ring board's opened parts, or ``None`` (no ring board is attached)."""
        return self.ring_board.hardware

    def _board_state(self) -> rings.State | None:
        """The state of the ring-board game on the board, if one is (and it replayed)."""
        game = self._games.get(self._active) if self._active else None
        if game is None or game.error is not None:
            return None
        state: rings.State = game.state
        return state

    def close(self) -> None:
        """Stop the thread, blank the LEDs, close the store (and hardware the table opened)."""
        if self._thread is not None and self._running:
            self._queue.put(_Stop())
            self._thread.join(timeout=10)
        self._running = False
        self._thread = None
        self.ring_board.close()
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> Table:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def is_alive(self) -> bool:
        """Say whether the table thread is running (the systemd watchdog asks)."""
        return self._thread is not None and self._thread.is_alive()

    # The thread ---------------------------------------------------------------------------

    def call(self, function: Callable[[], T]) -> T:
        """Run ``function`` on the table thread and answer what it returns (any thread).

        :raises Conflict: the table is not running, or did not answer in time.
        """
        if threading.current_thread() is self._thread:
            return function()
        if not self._running:
            raise Conflict("the table service is not running")
        future: Future[T] = Future()
        self._queue.put(_Call(function, future))
        try:
            return future.result(timeout=CALL_TIMEOUT)
        except TimeoutError as error:
            raise Conflict(
                f"the table service did not answer within {CALL_TIMEOUT:.0f} s; try again"
            ) from error

    def when_ring(self, report: RingReportLike) -> None:
        """Take a ring report from the sensors (any thread; only enqueues)."""
        self._queue.put(_RingReport(report))

    def when_button(self, name: str) -> None:
        """Take a button press (any thread; only enqueues)."""
        self._queue.put(_Button(name))

    def _run(self) -> None:
        pending: _Item | None = None
        while True:
            item = pending
            pending = None
            if item is None:
                try:
                    item = self._queue.get(timeout=self._wake_in())
                except queue.Empty:
                    try:
                        self._tick()
                    except Exception:  # a strip that fails must not stop the table thread
                        log.exception("table thread: LED tick failed")
                    continue
            if isinstance(item, _Stop):
                self._refuse_waiting()
                return
            try:
                pending = self._handle(item)
            except Exception:  # the one thread must outlive any bug in a report's handling
                log.exception("table thread: %r failed", item)
            try:
                self.computer.tick()  # a computer seat to move starts, follows or confirms
                self.companion.tick()  # a card game's companion to act starts deciding
            except Exception:  # the table thread must outlive a failing computer seat
                log.exception("table thread: computer seat failed")

    def _refuse_waiting(self) -> None:
        """Answer every call still queued at shutdown, so no caller waits for ever."""
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, _Call) and item.future.set_running_or_notify_cancel():
                item.future.set_exception(Conflict("the table service is stopping"))

    def _handle(self, item: _Call | _RingReport | _Button) -> _Item | None:
        """Apply one queued item; return an item taken from the queue but not yet handled."""
        pending: _Item | None = None
        if isinstance(item, _Call):
            if item.future.set_running_or_notify_cancel():
                try:
                    item.future.set_result(item.function())
                except Exception as error:  # the caller gets every refusal as raised
                    item.future.set_exception(error)
            self._announce_warnings()
        elif isinstance(item, _RingReport):
            self.ring_board.take_report(item.report)
            # Many reports arrive in a burst while a ring turns: take them all, then
            # work out the live turn once.
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if isinstance(more, _RingReport):
                    self.ring_board.take_report(more.report)
                else:
                    pending = more
                    break
            self._after_rings()
        else:
            self._press(item.name)
        return pending

    def _wake_in(self) -> float | None:
        return self.ring_board.wake_in(time.monotonic())

    def _tick(self) -> None:
        if self.ring_board.tick():
            self._publish_leds()

    # Public API (each method runs on the table thread) ------------------------------------

    def list_games(self) -> list[dict[str, JSON]]:
        """The newest games (``listing.PAGE_SIZE``, the first page): id, kind, seats,
        version, over, last change, on the board."""
        return self.call(self._list)

    def player_colours(self) -> dict[str, str]:
        """Each player's colour as their earliest ring-board game gave it (the new-game
        form offers it again; see ``companion.table.colours``)."""
        return self.call(self._known_colours)

    def seat_colours(self, game_id: str) -> dict[str, str]:
        """The colour each seat of a game shows, by name (as in the games list).

        :raises NotFound: no such game.
        """

        def find() -> dict[str, str]:
            game = self.find(game_id)
            chosen = listing.seat_colours(game, self._known_colours())
            return dict(zip(game.seat_names(), chosen, strict=False))

        return self.call(find)

    def games_page(self, page: int = 1) -> dict[str, JSON]:
        """One page of the games here, newest first: ``{"games", "page", "pages", "total"}``.

        A page past the last is empty. :raises RecordError: ``page`` is not a whole number
        from 1.
        """
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise RecordError(f"page: expected a whole number from 1, got {page!r}")
        return self.call(lambda: listing.page_of(self._games.values(), page, self._active))

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
            answer = self._create(body, hidden_deck)
            if client is not None:
                self.create_rate.record(client)
            return answer

        return self.call(create)

    def get_game(self, game_id: str, viewer: Viewer | None = None) -> dict[str, JSON]:
        """``{"id", "kind", "version", "state"}``; rings add the live turn to the state.

        A card game played on the panel shows ``viewer`` only what its tokens may see.

        :raises NotFound: when there is no such game.
        """
        return self.call(lambda: self._view(self.find(game_id), viewer))

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
        return self.call(lambda: self._act(game_id, version, action, viewer))

    def undo(self, game_id: str, version: int, viewer: Viewer | None = None) -> dict[str, JSON]:
        """Remove the game's last accepted action (rings: the last confirmed turn, whose
        dice become the dice of the turn in progress again). The version goes up.

        :raises NotFound: no such game. :raises Conflict: stale version or nothing to undo
            (or, cards, refused by section 11). :raises Forbidden: cards played on the
            panel, without a seat token.
        """
        return self.call(lambda: self._undo(game_id, version, viewer))

    def delete(self, game_id: str, viewer: Viewer | None = None) -> None:
        """Remove a game and its journal. :raises NotFound: no such game.

        :raises Forbidden: a card game hiding hands, without its host token.
        """
        self.call(lambda: self._delete(game_id, viewer))

    def take_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, JSON]:
        """Give a phone the token of ``seat`` of a card game played on the panel.

        A free seat gets a new token; a taken seat only its own token again. Answers
        ``{"id", "seat", "name", "token"}``.

        :raises Forbidden: taken by another phone. :raises NotFound: no such game or seat.
        :raises Conflict: not a game with seats to take.
        """
        return self.call(lambda: self._take_seat(game_id, seat, viewer))

    def free_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, JSON]:
        """Forget ``seat``'s token (the host's phone only); answers ``{"id", "seat", "taken"}``.

        :raises Forbidden: without the host token. :raises NotFound: no such game or seat.
        """
        return self.call(lambda: self._free_seat(game_id, seat, viewer))

    def export(self, game_id: str) -> dict[str, JSON]:
        """The game's record (its board or data file inlined); ``mandala replay`` reads it.

        :raises NotFound: no such game.
        """
        return self.call(lambda: self._export(self.find(game_id)))

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
        return self.call(lambda: self._act(game_id, None, {"resume": True}))

    def hints(self, game_id: str) -> dict[str, JSON]:
        """The advisor's best three rotation sets for the roll of a ring-board game, each with
        what it does (worked out on the caller's thread, not the table's).

        :raises NotFound: no such game. :raises Conflict: no dice yet, over, not rings.
        """
        return advisor_hints(self, game_id)

    def board(self) -> dict[str, JSON]:
        """The rings as sensed, the LED frame, whether it is emulated and which game is on."""
        return self.call(self._board_view)

    def zero_rings(self) -> dict[str, JSON]:
        """Every ring's mark is at the star: set all offsets to 0 (and store them)."""
        return self.call(self._zero)

    def set_ring_offset(self, ring: int, offset: int) -> dict[str, JSON]:
        """Set one ring's sensed offset by hand (re-sync after a slip).

        :raises NotFound: no such ring. :raises RecordError: offset out of 0..N-1.
        """
        return self.call(lambda: self._set_offset(ring, offset))

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
        return self.call(lambda: self.hub.subscribe(self._snapshot(viewer), viewer, client))

    def close_streams(self) -> None:
        """End every live stream now (the server is stopping; each phone sees the end)."""
        self.hub.close_all()

    def status(self) -> dict[str, JSON]:
        """Health of the service: thread alive, warnings (e.g. a database set aside)."""
        return {
            "alive": self.is_alive(),
            "warnings": self._warnings(),
            "started": iso(self.started_at) if self.started_at else None,
            "subscribers": self.hub.count(),
        }

    def damaged_copies(self) -> list[dict[str, str]]:
        """The damaged databases kept aside (``{"backup", "reason", "at"}``) not dismissed yet."""
        return self.call(lambda: self._db().damaged_notices())

    def dismiss_damaged(self) -> None:
        """Stop showing the damaged-database banner (the kept copies stay on disk)."""
        self.call(lambda: self._db().put_setting(DAMAGED_KEY, None))

    def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check`` of the database (``["ok"]`` when sound)."""
        return self.call(lambda: self._db().integrity())

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
        return self.call(lambda: self._led_test(show, pixel))

    def _led_test(self, show: str, pixel: JSON) -> dict[str, JSON]:
        self.ring_board.led_test(show, pixel)
        self._show()
        return {"led_step": self.health.step, "leds": self.ring_board.frame_json()}

    # Games --------------------------------------------------------------------------------

    def _db(self) -> Store:
        if self._store is None:
            raise Conflict("the table service is not running")
        return self._store

    def find(self, game_id: str) -> Game:
        """The game ``game_id`` (table thread). :raises NotFound: no such game."""
        game = self._games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise NotFound(f"no game {game_id!r}")
        return game

    def game(self, game_id: str) -> Game | None:
        """The game ``game_id``, or ``None`` when there is none (table thread)."""
        return self._games.get(game_id)

    def games(self) -> list[Game]:
        """Every game here, oldest first (table thread)."""
        return list(self._games.values())

    def board_game(self) -> Game | None:
        """The ring-board game on the board, if any (table thread)."""
        return self._games.get(self._active) if self._active else None

    def _load(self, row: GameRow, actions: list[JSON]) -> Game:
        game = Game(
            id=row.id,
            kind=row.kind,
            engine=self._engines(row.kind),
            setup=row.setup,
            version=row.version,
            created=row.created,
            updated=row.updated,
            seed=row.seed,
            rolls=row.rolls,
            dice=row.dice,
            dice_source=row.dice_source,
        )
        try:
            game.states = [game.engine.new_game(game.setup)]
            for obj in actions:
                steps.play(game, obj)
        except GAME_ERRORS as error:
            game.error = f"cannot replay its journal: {error}"
            log.error("game %s %s", row.id, game.error)
            if not game.states:
                game.states = [None]
        return game

    def _list(self) -> list[dict[str, JSON]]:
        return listing.newest(self._games.values(), 0, self._active)

    def _known_colours(self) -> dict[str, str]:
        """Each player's colour from their earliest ring-board game (``colours``)."""
        return listing.known_colours(self._games.values())

    def _create(self, body: JSON, hidden_deck: bool = False) -> dict[str, JSON]:
        game_id = secrets.token_hex(4)
        while game_id in self._games:
            game_id = secrets.token_hex(4)
        request = create.Request(body, self._engines, self.boards_dir, hidden_deck)
        made = create.new_game(request, game_id, clock.now())
        game, imported, kind_adapter = made.game, made.imported, adapter(made.game.kind)
        actions = list(game.actions)
        host, digests = kind_adapter.host_tokens(game.state)
        store = self._db()
        store.add_game(made.row, game.seat_names(), actions, tokens=digests)
        self._games[game_id] = game
        self._tokens[game_id] = GameTokens(dict(digests))
        if kind_adapter.ring_board:
            self._put_on_board(game, "import" if imported else "new")
        self.changed(game)
        if host is None:
            return self._view(game)
        return {**self._view(game, Viewer((host,))), "host_token": host}

    def _put_on_board(self, game: Game, reason: live.ResyncReason) -> None:
        """Make ``game`` the ring-board game the sensors drive, and start its re-sync."""
        try:
            self._db().put_setting(ACTIVE_KEY, game.id)
        except StorageError as error:
            self.warnings.append(str(error))
        self._active = game.id
        self.ring_board.put_on(self._board_state(), game.over, reason)

    def _check_version(self, game: Game, version: object) -> None:
        if isinstance(version, bool) or not isinstance(version, int):
            raise RecordError(f"version: expected a whole number, got {version!r}")
        if version != game.version:
            raise Conflict(
                f"version {version} is stale: the game is at version {game.version}; "
                "reload it and try again"
            )

    def _act(
        self, game_id: str, version: int | None, action: JSON, viewer: Viewer | None = None
    ) -> dict[str, JSON]:
        game = self.find(game_id)
        kind_adapter = adapter(game.kind)
        if game.error is None:
            kind_adapter.check_turn(game, self._tokens_of(game), viewer or Viewer())
        if version is not None:
            self._check_version(game, version)
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
            self._act_step(game, step)
        self.changed(game)
        return self._view(game, viewer)

    def _act_step(self, game: Game, obj: JSON) -> None:
        steps.play(game, obj)
        try:
            game.updated = self._db().append(
                game.id,
                len(game.actions),
                game.actions[-1],
                game.version + 1,
                word=game.engine.STEP_WORD,
            )
        except StorageError:
            steps.unplay(game)
            raise
        game.version += 1
        if adapter(game.kind).ring_board:
            game.dice = None
            game.dice_source = None

    def _undo(self, game_id: str, version: int, viewer: Viewer | None = None) -> dict[str, JSON]:
        game = self.find(game_id)
        self._check_version(game, version)
        if game.error is not None:
            raise Conflict(f"game {game.id} {game.error}")
        if not game.actions:
            raise Conflict(f"nothing to undo: no {game.engine.STEP_WORD} yet")
        kind_adapter = adapter(game.kind)
        kind_adapter.check_undo(game, self._tokens_of(game), viewer or Viewer())
        dice, source = kind_adapter.undone_dice(game.actions[-1])
        game.updated = self._db().remove_last(
            game.id, len(game.actions), game.version + 1, dice, source
        )
        steps.unplay(game)
        game.version += 1
        if kind_adapter.ring_board:
            game.dice, game.dice_source = dice, source
            if game.id == self._active:
                self.ring_board.start_resync("undo", game.state.offsets)
        self.changed(game)
        return self._view(game, viewer)

    def _delete(self, game_id: str, viewer: Viewer | None = None) -> None:
        game = self.find(game_id)
        if game.error is None:
            adapter(game.kind).check_delete(game, self._tokens_of(game), viewer or Viewer())
        self._db().delete_game(game.id)
        del self._games[game.id]
        self._tokens.pop(game.id, None)
        if self._active == game.id:
            self._active = None
            self.ring_board.take_off()
        if self.hub.count():
            self.hub.publish({"type": "game", "id": game.id, "kind": game.kind, "deleted": True})
        self._publish_games()
        self._refresh()

    def _export(self, game: Game) -> dict[str, JSON]:
        kind_adapter = adapter(game.kind)
        if kind_adapter.is_hidden(game):
            raise Forbidden(
                f"game {game.id} hides the seats' hands: its record is exported once it is over"
            )
        return kind_adapter.export(game)

    def _tokens_of(self, game: Game) -> GameTokens:
        return self._tokens.setdefault(game.id, GameTokens())

    def _take_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, JSON]:
        game = self.find(game_id)
        kind_adapter = adapter(game.kind)
        tokens = self._tokens_of(game)
        token = kind_adapter.token_to_give(game, tokens, seat, viewer)
        stored = digest(token)
        if tokens.digests.get(seat) != stored:
            self._db().set_token(game.id, seat, stored)
            tokens.digests[seat] = stored
            self.changed(game)
        name = kind_adapter.seat_name(game, seat)
        return {"id": game.id, "seat": seat, "name": name, "token": token}

    def _free_seat(self, game_id: str, seat: int, viewer: Viewer) -> dict[str, JSON]:
        game = self.find(game_id)
        tokens = self._tokens_of(game)
        adapter(game.kind).check_free(game, tokens, seat, viewer)
        if seat in tokens.digests:
            self._db().set_token(game.id, seat, None)
            del tokens.digests[seat]
            self.changed(game)
        return {"id": game.id, "seat": seat, "taken": False}

    def _view(self, game: Game, viewer: Viewer | None = None) -> dict[str, JSON]:
        kind_adapter = adapter(game.kind)
        if game.error is not None:
            state: dict[str, JSON] = {"error": game.error}
        else:
            state = kind_adapter.view(game, self._tokens_of(game), viewer or Viewer())
            if kind_adapter.seat_tokens:
                state.update(self.companion.view(game))
        # "log", not "history": a summary may have its own "history" (icehouse does).
        state["log"] = [
            {"action": action, "instructions": notes}
            for action, notes in zip(game.actions, game.notes, strict=True)
        ]
        if kind_adapter.ring_board and game.error is None:
            on_board = game.id == self._active
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

    # The rings ----------------------------------------------------------------------------

    def _after_rings(self) -> None:
        self.ring_board.check_resync()
        self._refresh(board_changed=True)

    def _zero(self) -> dict[str, JSON]:
        self.ring_board.zero()
        self._refresh(board_changed=True)
        return self._board_view()

    def _set_offset(self, ring: int, offset: int) -> dict[str, JSON]:
        self.ring_board.set_offset(ring, offset)
        self._refresh(board_changed=True)
        return self._board_view()

    def _press(self, name: str) -> None:
        self.health.pressed(name)
        if name == "done" and self.owner.when_done():
            return  # the press answered a phone asking to become the owner
        game = self._games.get(self._active) if self._active else None
        if game is None:
            return
        self.ring_board.refusal = None
        try:
            if name == "done":
                self._act(game.id, None, {"confirm": True})
            elif name == "undo":
                self._undo(game.id, game.version)
        except (*GAME_ERRORS, Conflict, StorageError) as error:
            self.ring_board.refuse(f"the {name} button: {error}")
            self.changed(game)

    def _board_view(self) -> dict[str, JSON]:
        return self.ring_board.view(self._active)

    # Derived state: live turn, LEDs, notifications ----------------------------------------

    def _refresh(
        self, *, publish: bool = True, board_changed: bool = False, game_published: str = ""
    ) -> None:
        """Work out the live turn and the LED frame again; tell the subscribers."""
        game = self._games.get(self._active) if self._active else None
        state = self._board_state()
        self.ring_board.refresh(
            state,
            game.dice if game is not None else None,
            board_changed,
            lambda: self.computer.chase(game) if game is not None else None,
        )
        changed = self._show(publish=publish)
        if not publish or self.hub.count() == 0:
            return
        if game is not None and game.id != game_published and (board_changed or changed):
            self.hub.publish({"type": "game", **self._view(game)})
        if board_changed:
            self.hub.publish({"type": "board", "board": self._board_view()})

    def _show(self, *, publish: bool = True) -> bool:
        changed = self.ring_board.show()
        if changed and publish:
            self._publish_leds()
        return changed

    def _publish_leds(self) -> None:
        if self.hub.count():
            self.hub.publish({"type": "leds", "leds": self.ring_board.frame_json()})

    def changed(self, game: Game) -> None:
        """Work out the board's view again, then tell the subscribers about a changed game.

        The live turn comes first: the published view carries it, and one worked out before
        the change (the last turn's dice "used", its preview, a lit Confirm) would leave every
        other phone showing the old turn until the rings next moved.
        """
        self._refresh(game_published=game.id)
        if self.hub.count():
            self.hub.publish(lambda viewer: {"type": "game", **self._view(game, viewer)})
        self._publish_games()

    def _publish_games(self) -> None:
        if self.hub.count():
            self.hub.publish({"type": "games", "games": self._list()})

    def _snapshot(self, viewer: Viewer | None = None) -> dict[str, JSON]:
        game = self._games.get(self._active) if self._active else None
        return {
            "type": "state",
            "games": self._list(),
            "board": self._board_view(),
            "game": self._view(game, viewer) if game is not None else None,
            "warnings": self._warnings(),
            "banner": self._banner(),
        }

    def _banner(self) -> list[str]:
        """The warnings every page shows in its banner: the table's, less the damaged
        database's notices (the home page has their own banner, which the owner dismisses)."""
        kept_aside = self._store.warnings if self._store is not None else []
        return [text for text in self._warnings() if text not in kept_aside]

    def _announce_warnings(self) -> None:
        """Tell every phone when the banner's warnings changed (e.g. the data directory went)."""
        banner = self._banner()
        if banner != self._announced and self.hub.count():
            self.hub.publish({"type": "warnings", "banner": list(banner)})
        self._announced = banner

    def _warnings(self) -> list[str]:
        """The warnings every page shows: the table's, and the store's when its file went."""
        gone = self._store.gone if self._store is not None else None
        return [*self.warnings, *([gone] if gone else [])]
