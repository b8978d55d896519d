"""What the table holds in memory: its games, their tokens, the board game, the store.

Every stored game has an :class:`~companion.table.listing.Entry` (the list needs no
replay); a game's journal is replayed the first time it is opened, acted on or asked for,
and kept in a cache of the :data:`LOADED` most recently used games (the game on the ring
board always stays). The table thread is the only code that changes it
(``companion.table.table``); its parts (``publish``, ``moves``) read and change it there.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from companion.games import rings
from companion.games.base import GAME_ERRORS, JSON, Engine
from companion.phrases import say
from companion.table import listing, steps
from companion.table import summaries as stored_summaries
from companion.table.errors import Conflict, NotFound, StorageError
from companion.table.game import Game
from companion.table.listing import Entry
from companion.table.schema import GameRow
from companion.table.seats import GameTokens
from companion.table.store import Store

log = logging.getLogger(__name__)

ACTIVE_KEY = "active_rings_game"
LOADED = 12
"""The most games kept replayed in memory (the least recently used goes first)."""


def no_game(game_id: object) -> NotFound:
    """The refusal of a game the box does not hold (deleted, say, while a phone showed it)."""
    return NotFound.said(say("no game {game}", game=repr(game_id)))


class TableState:
    """The games (listed from the store, replayed when used), their tokens, the board game.

    :param engines: kind -> the engine its games replay with.
    """

    def __init__(self, engines: Callable[[str], Engine]) -> None:
        self.engines = engines
        self.store: Store | None = None
        self.entries: dict[str, Entry] = {}
        """Every stored game's list entry, oldest first."""
        self.games: OrderedDict[str, Game] = OrderedDict()
        """The games replayed in memory, least recently used first (see :meth:`find`)."""
        self.active: str | None = None
        """The id of the ring-board game on the board, if any."""
        self.tokens: dict[str, GameTokens] = {}
        """Per game, the digests of its host and seat tokens (cards played on the panel)."""
        self.warnings: list[str] = []
        self.replays = 0
        """How many journals were replayed since the store was opened."""
        self._unsaved: set[str] = set()
        self._known: dict[str, str] | None = None

    def open(self, data_dir: Path, max_page_count: int | None) -> Store:
        """Open the database and read its games' list entries (no journal is replayed
        but the ring-board game's)."""
        store = self.store = Store(data_dir, max_page_count=max_page_count)
        self.warnings.extend(store.warnings)
        self.games = OrderedDict()
        self.replays = 0
        self._unsaved = set()
        self._known = None
        self.entries = {entry.id: entry for entry in stored_summaries.index(store)}
        self.tokens = {key: GameTokens(value) for key, value in store.tokens().items()}
        active = store.setting(ACTIVE_KEY)
        self.active = active if active in self.entries else None
        if self.active is not None:
            self.find(self.active)
        return store

    def load(self, row: GameRow, actions: list[JSON]) -> Game:
        """The game of ``row`` with its journal replayed (its error says why one did not)."""
        game = Game(
            id=row.id,
            kind=row.kind,
            engine=self.engines(row.kind),
            setup=row.setup,
            version=row.version,
            created=row.created,
            updated=row.updated,
            seed=row.seed,
            rolls=row.rolls,
            dice=row.dice,
            dice_source=row.dice_source,
        )
        self.replays += 1
        try:
            game.begin(game.engine.new_game(game.setup))
        except GAME_ERRORS as error:
            game.begin(None)
            return _broken(game, error)
        try:
            for obj in actions:
                steps.play(game, obj)
        except GAME_ERRORS as error:
            return _broken(game, error)
        return game

    def add(self, game: Game) -> None:
        """Keep a new game (already stored) in memory and in the list."""
        self.entries[game.id] = listing.entry_of(game)
        self._unsaved.add(game.id)
        self._known = None
        self._keep(game)

    def remove(self, game_id: str) -> None:
        """Forget a deleted game."""
        self.entries.pop(game_id, None)
        self.games.pop(game_id, None)
        self._known = None
        self._unsaved.discard(game_id)
        self.tokens.pop(game_id, None)

    def _keep(self, game: Game) -> None:
        self.games[game.id] = game
        self.games.move_to_end(game.id)
        while len(self.games) > LOADED:
            oldest = next((key for key in self.games if key != self.active), None)
            if oldest is None:
                break
            self._note(self.games.pop(oldest))

    def _note(self, game: Game) -> None:
        """Bring a game's list entry up to its state in memory (saved later, see flush)."""
        entry = self.entries.get(game.id)
        if entry is None:
            return
        colours = listing.record_colours(entry)
        if listing.refresh(entry, game):
            self._unsaved.add(game.id)
            if listing.record_colours(entry) != colours:
                self._known = None

    def db(self) -> Store:
        """The open store. :raises Conflict: the table is not running."""
        if self.store is None:
            raise Conflict.said(say("the table service is not running"))
        return self.store

    def find(self, game_id: str) -> Game:
        """The game ``game_id``, replayed from the store when it is not in memory.

        :raises NotFound: no such game.
        """
        game = self.games.get(game_id) if isinstance(game_id, str) else None
        if game is not None:
            self.games.move_to_end(game_id)
            return game
        if not isinstance(game_id, str) or game_id not in self.entries:
            raise no_game(game_id)
        store = self.db()
        rows = store.games(game_id)
        if not rows:
            raise no_game(game_id)
        game = self.load(rows[0], store.journal(game_id))
        self._keep(game)
        return game

    def get(self, game_id: str) -> Game | None:
        """The game ``game_id`` (replayed when not in memory), or ``None`` when there is none."""
        try:
            return self.find(game_id)
        except NotFound:
            return None

    def board_game(self) -> Game | None:
        """The ring-board game on the board, if any (always in memory)."""
        if self.active is None:
            return None
        return self.games.get(self.active) or self.find(self.active)

    def board_state(self) -> rings.State | None:
        """The state of the ring-board game on the board, if one is (and it replayed)."""
        game = self.board_game()
        if game is None or game.error is not None:
            return None
        state: rings.State = game.state
        return state

    def summaries(self) -> list[Entry]:
        """Every game's list entry (a copy), oldest first, each summary of the game's version
        (a stale one is worked out by loading that game): e.g. the finished games
        (``entry.over``) without replaying any game whose summary is stored."""
        return [replace(entry) for entry in self._summarised(list(self.entries.values()))]

    def _summarised(self, entries: list[Entry]) -> list[Entry]:
        for entry in entries:
            game = self.games.get(entry.id)
            if game is not None:
                self._note(game)
            elif not entry.fresh:
                self._note(self.find(entry.id))
        if self._unsaved - set(self.games):
            self.flush()
        return entries

    def tokens_of(self, game: Game) -> GameTokens:
        """The host and seat tokens of ``game`` (none yet: an empty set, kept)."""
        return self.tokens.setdefault(game.id, GameTokens())

    def listed(self) -> list[dict[str, JSON]]:
        """The first page of the games list."""
        entries = list(self.entries.values())
        return self._shown(listing.newest(entries, 0))

    def page(self, page: int) -> dict[str, JSON]:
        """Page ``page`` (from 1) of the games: ``{"games", "page", "pages", "total"}``."""
        entries = list(self.entries.values())
        shown = self._shown(listing.newest(entries, (page - 1) * listing.PAGE_SIZE))
        return listing.page_of(shown, page, len(entries))

    def _shown(self, entries: list[Entry]) -> list[dict[str, JSON]]:
        self._summarised(entries)
        known = self.known_colours()
        return [listing.listing(entry, known, self.active) for entry in entries]

    def known_colours(self) -> dict[str, str]:
        """Each player's colour from their earliest ring-board game (``colours``)."""
        if self._known is None:
            missing = [entry for entry in self.entries.values() if entry.summary is None]
            self._summarised(missing)
            self._known = listing.known_colours(self.entries.values())
        return dict(self._known)

    def seat_colours(self, game_id: str) -> list[str]:
        """The colour each seat of a game shows (as in the list). :raises NotFound: none."""
        entry = self.entries.get(game_id) if isinstance(game_id, str) else None
        if entry is None:
            raise no_game(game_id)
        self._summarised([entry])
        return listing.seat_colours(entry, self.known_colours())

    def flush(self) -> None:
        """Store the list summaries worked out since the last flush (one transaction)."""
        for game in self.games.values():
            self._note(game)
        saved = [self.entries[key] for key in sorted(self._unsaved) if key in self.entries]
        self._unsaved = set()
        if not saved or self.store is None:
            return
        try:
            rows = [(entry.id, entry.summarised, entry.summary or {}) for entry in saved]
            stored_summaries.save(self.store, rows)
        except StorageError as error:  # only a replay is lost: it is worked out again
            log.warning("%s", error)

    def shown_warnings(self) -> list[str]:
        """The warnings every page shows: the table's, and the store's when its file went."""
        gone = self.store.gone if self.store is not None else None
        return [*self.warnings, *([gone] if gone else [])]

    def banner(self) -> list[str]:
        """The warnings every page shows in its banner: the table's, less the damaged
        database's notices (the home page has their own banner, which the owner dismisses)."""
        kept_aside = self.store.warnings if self.store is not None else []
        return [text for text in self.shown_warnings() if text not in kept_aside]


def _broken(game: Game, error: Exception) -> Game:
    game.error = f"cannot replay its journal: {error}"
    log.error("game %s %s", game.id, game.error)
    return game
