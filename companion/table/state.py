"""What the table holds in memory: its games, their tokens, the board game, the store.

The table thread is the only code that changes it (``companion.table.table``); its parts
(``publish``, ``moves``) read and change it there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from companion.games import rings
from companion.games.base import GAME_ERRORS, JSON, Engine
from companion.table import listing, steps
from companion.table.errors import Conflict, NotFound
from companion.table.game import Game
from companion.table.schema import GameRow
from companion.table.seats import GameTokens
from companion.table.store import Store

log = logging.getLogger(__name__)

ACTIVE_KEY = "active_rings_game"


class TableState:
    """The games in memory (replayed from the store), their tokens and the board game.

    :param engines: kind -> the engine its games replay with.
    """

    def __init__(self, engines: Callable[[str], Engine]) -> None:
        self.engines = engines
        self.store: Store | None = None
        self.games: dict[str, Game] = {}
        self.active: str | None = None
        """The id of the ring-board game on the board, if any."""
        self.tokens: dict[str, GameTokens] = {}
        """Per game, the digests of its host and seat tokens (cards played on the panel)."""
        self.warnings: list[str] = []

    def open(self, data_dir: Path, max_page_count: int | None) -> Store:
        """Open the database and replay every game in it."""
        store = self.store = Store(data_dir, max_page_count=max_page_count)
        self.warnings.extend(store.warnings)
        self.games = {}
        for row in store.games():
            self.games[row.id] = self.load(row, store.journal(row.id))
        self.tokens = {key: GameTokens(value) for key, value in store.tokens().items()}
        active = store.setting(ACTIVE_KEY)
        self.active = active if active in self.games else None
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

    def db(self) -> Store:
        """The open store. :raises Conflict: the table is not running."""
        if self.store is None:
            raise Conflict("the table service is not running")
        return self.store

    def find(self, game_id: str) -> Game:
        """The game ``game_id``. :raises NotFound: no such game."""
        game = self.games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise NotFound(f"no game {game_id!r}")
        return game

    def board_game(self) -> Game | None:
        """The ring-board game on the board, if any."""
        return self.games.get(self.active) if self.active else None

    def board_state(self) -> rings.State | None:
        """The state of the ring-board game on the board, if one is (and it replayed)."""
        game = self.board_game()
        if game is None or game.error is not None:
            return None
        state: rings.State = game.state
        return state

    def tokens_of(self, game: Game) -> GameTokens:
        """The host and seat tokens of ``game`` (none yet: an empty set, kept)."""
        return self.tokens.setdefault(game.id, GameTokens())

    def listed(self) -> list[dict[str, JSON]]:
        """The first page of the games list."""
        return listing.newest(self.games.values(), 0, self.active)

    def known_colours(self) -> dict[str, str]:
        """Each player's colour from their earliest ring-board game (``colours``)."""
        return listing.known_colours(self.games.values())

    def shown_warnings(self) -> list[str]:
        """The warnings every page shows: the table's, and the store's when its file went."""
        gone = self.store.gone if self.store is not None else None
        return [*self.warnings, *([gone] if gone else [])]

    def banner(self) -> list[str]:
        """The warnings every page shows in its banner: the table's, less the damaged
        database's notices (the home page has their own banner, which the owner dismisses)."""
        kept_aside = self.store.warnings if self.store is not None else []
        return [text for text in self.shown_warnings() if text not in kept_aside]
