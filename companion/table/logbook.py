"""The family logbook on the table's side: each finished play written as the game finishes,
the plays finished before the logbook existed found once, and what the panel reads.

A game's play is written in the transaction of the action that finishes it (:func:`finishing`
gives the store that extra write); undoing that action, or deleting the game, removes it
with it (``logbook_store``). :func:`backfill` replays every stored game once, the first
time a database is opened by a release with the logbook (or a restored backup from before
it), and writes the plays of the finished ones. :class:`Logbook` is what the panel asks:
every call runs on the table thread, which owns the store's connection.
"""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any, TypeVar

from companion.games.base import JSON, RecordError
from companion.phrases import say
from companion.table import logbook_stats, logbook_store, play_series
from companion.table.adapters import adapter
from companion.table.errors import Conflict, NotFound, StorageError
from companion.table.game import Game
from companion.table.schema import Also
from companion.table.state import TableState
from companion.table.store import Store

log = logging.getLogger(__name__)

T = TypeVar("T")

BACKFILLED_KEY = "logbook_backfilled"
"""The setting saying the plays finished before the logbook were written (once)."""
ABANDONED_DAYS = 7
"""An unfinished game with no move for this many days is listed apart as abandoned."""
MAX_ID = 2**63 - 1
"""The largest player number SQLite can hold (a larger one is no player)."""
MAX_NAME = 40
"""The longest player name (as the new-game form's seats)."""


def finishing(game: Game) -> Also | None:
    """The write that stores ``game``'s play, when its last step finished it (else None).

    Given to the store's change, it runs in that change's transaction with its time as the
    play's end.
    """
    kind_adapter = adapter(game.kind)
    result = kind_adapter.result(game)
    if result is None:
        return None
    figures, seat_figures = kind_adapter.figures(game)
    colours = [colour for _, colour in kind_adapter.seat_colours(game)]
    seq = len(game.actions)

    def write(db: sqlite3.Connection, now: float) -> None:
        ended = dataclasses.replace(result, ended=now)
        logbook_store.record_play(
            db,
            game.id,
            seq=seq,
            result=ended,
            figures=figures,
            seat_figures=seat_figures,
            colours=colours,
        )

    return write


def starting(game: Game) -> Also:
    """The write a new or imported game makes: its seats' players (a new name makes one),
    and its play when it is over already (an imported finished record)."""
    play = finishing(game)
    seats = adapter(game.kind).seat_colours(game)

    def write(db: sqlite3.Connection, now: float) -> None:
        for name, colour in seats:
            if name.strip():
                logbook_store.player_for(db, name, colour, now)
        if play is not None:
            play(db, now)

    return write


def backfill(state: TableState) -> int:
    """Write the plays of the finished games stored before the logbook, once per database.

    Each game not yet in the logbook is replayed (the one in memory when it is loaded).
    Returns how many plays it wrote (0 when done before). When it cannot be saved (a full
    disk) nothing is written, the table's warnings say so and the next start tries again.
    """
    store = state.db()
    if store.setting(BACKFILLED_KEY) is not None:
        return 0
    try:
        return _backfill(state, store)
    except StorageError as error:
        state.warnings.append(f"the logbook's earlier plays: {error}")
        log.error("%s", state.warnings[-1])
        return 0


def _backfill(state: TableState, store: Store) -> int:
    began = time.monotonic()
    written = 0
    with store.transaction("logbook: the plays finished before it") as db:
        known = {str(row[0]) for row in db.execute("SELECT game_id FROM plays")}
        for row in store.games():
            if row.id in known:
                continue
            game = state.games.get(row.id) or state.load(row, store.journal(row.id))
            write = finishing(game)
            if write is not None:
                write(db, game.updated)
                written += 1
        db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (BACKFILLED_KEY, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
        )
    log.info("logbook: %d earlier plays written in %.2f s", written, time.monotonic() - began)
    return written


def player_name(value: object) -> str:
    """Read a player's name: text of 1 to :data:`MAX_NAME` characters, trimmed.

    :raises RecordError: ``name: ...`` otherwise.
    """
    if not isinstance(value, str) or not value.strip():
        raise RecordError(f"name: expected a player's name, got {value!r}")
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise RecordError.said(
            say("name: at most {most} characters, got {count}", most=MAX_NAME, count=len(name))
        )
    return name


def no_player(player_id: int) -> NotFound:
    """The refusal of a player the logbook does not hold (merged, say, on another phone)."""
    return NotFound.said(say("no player {number}", number=player_id))


class Logbook:
    """What the panel reads and changes of the logbook (each call on the table thread).

    :param call: runs a function on the table thread (``Table.call``).
    :param store: the open store (``TableState.db``).
    """

    def __init__(self, call: Callable[[Callable[[], Any]], Any], store: Callable[[], Store]):
        self._call = call
        self._store = store
        self._kind_scores = play_series.KindScores()

    def _run(self, read: Callable[[sqlite3.Connection], T]) -> T:
        result: T = self._call(lambda: read(self._store().db))
        return result

    def plays_page(self, page: int = 1) -> dict[str, Any]:
        """Page ``page`` of the finished plays, newest first (``logbook_store.plays_page``)."""
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise RecordError(f"page: expected a whole number from 1, got {page!r}")
        return self._run(lambda db: logbook_store.plays_page(db, page))

    def play(self, game_id: str) -> logbook_store.Play | None:
        """The finished play of ``game_id``, or None (not over, or no such game)."""
        return self._run(lambda db: logbook_store.play(db, game_id))

    def every_play(self) -> list[logbook_store.Play]:
        """Every finished play, newest first."""
        return self._run(lambda db: list(logbook_store.every_play(db)))

    def abandoned(self, now: float | None = None) -> list[dict[str, JSON]]:
        """The unfinished games with no move for :data:`ABANDONED_DAYS` days, newest first
        (listed apart, never counted): ``{"id", "kind", "seats", "updated"}``."""
        cutoff = (time.time() if now is None else now) - ABANDONED_DAYS * 86400
        return self._run(lambda db: logbook_stats.abandoned(db, cutoff))

    def players(self) -> list[logbook_store.Player]:
        """Every player, by name (:meth:`players_json` has them most plays first)."""
        return self._run(logbook_store.players)

    def players_json(self) -> list[dict[str, JSON]]:
        """Every player with their plays, wins (shared ones too), win rate and last play."""

        def read(db: sqlite3.Connection) -> list[dict[str, JSON]]:
            listed: list[dict[str, JSON]] = []
            for found, total in logbook_store.players_with_totals(db):
                plays, wins = int(str(total["plays"])), int(str(total["wins"]))
                rate = round(wins / plays, 3) if plays else None
                listed.append({**found.to_json(), **total, "win_rate": rate})
            return listed

        return self._run(read)

    def player(self, player_id: int) -> logbook_store.Player:
        """The player ``player_id``. :raises NotFound: no such player."""
        if not 0 <= player_id <= MAX_ID:
            raise no_player(player_id)
        found = self._run(lambda db: logbook_store.player(db, player_id))
        if found is None:
            raise no_player(player_id)
        return found

    def statistics(self, player_id: int) -> dict[str, Any]:
        """The player's statistics, overall and per game kind (``logbook_stats.figures``).

        :raises NotFound: no such player.
        """
        self.player(player_id)
        return self._run(lambda db: logbook_stats.figures(db, player_id))

    def series(self, player_id: int) -> list[play_series.Point]:
        """The player's plays for the plots, oldest first (``play_series``)."""
        return self._run(lambda db: play_series.series(db, player_id))

    def kind_scores(self) -> dict[str, dict[int, int]]:
        """Every seat's score counted per kind, for the history's plots (``play_series``)."""
        return self._run(self._kind_scores.read)

    def seat_rows(self) -> list[play_series.SeatRow]:
        """Every seat of every finished play, newest play first, for the files of all plays."""
        return self._run(play_series.seat_rows)

    def recent(self, player_id: int, count: int = 10) -> list[logbook_store.Play]:
        """The player's ``count`` latest plays, newest first."""
        return self._run(lambda db: logbook_store.plays_of(db, player_id, count))

    def head_to_head(self, one: int, other: int) -> dict[str, Any]:
        """The plays ``one`` and ``other`` both sat at (``logbook_stats.head_to_head``).

        :raises NotFound: either player is unknown. :raises RecordError: the same player twice.
        """
        if one == other:
            raise RecordError.said(say("versus: pick another player than the player themselves"))
        self.player(one)
        self.player(other)
        return self._run(lambda db: logbook_stats.head_to_head(db, one, other))

    def rename(self, player_id: int, name: object) -> logbook_store.Player:
        """Show a player under a new name in every play; their old names still mean them.

        :raises RecordError: a bad name. :raises Conflict: another player has that name.
        :raises NotFound: no such player.
        """
        new = player_name(name)
        self.player(player_id)

        def change(db: sqlite3.Connection) -> None:
            if logbook_store.player(db, player_id) is None:
                raise no_player(player_id)
            holder = logbook_store.owner_of_name(db, new)
            if holder is not None and holder != player_id:
                other = logbook_store.player(db, holder)
                if other is None:
                    taken = say(
                        "the name {name} is already taken's; "
                        "merge the two players instead if they are one person",
                        name=repr(new),
                    )
                else:
                    taken = say(
                        "the name {name} is already {other}'s; "
                        "merge the two players instead if they are one person",
                        name=repr(new),
                        other=other.name,
                    )
                raise Conflict.said(taken)
            with self._store().transaction("rename player") as inside:
                logbook_store.rename_player(inside, player_id, new)

        self._run(change)
        return self.player(player_id)

    def merge(self, gone: int, into: int) -> logbook_store.Player:
        """Make ``gone``'s plays and names ``into``'s (one person under two names).

        :raises Conflict: the same player, or both sat at one play (two people).
        :raises NotFound: either player is unknown.
        """
        if gone == into:
            raise Conflict.said(say("a player cannot be merged into themselves"))
        self.player(gone)
        self.player(into)

        def change(db: sqlite3.Connection) -> None:
            for player_id in (gone, into):
                if logbook_store.player(db, player_id) is None:
                    raise no_player(player_id)
            shared = logbook_store.shared_play(db, gone, into)
            if shared is not None:
                raise Conflict.said(
                    say(
                        "both players sat at game {game}: they are two people, not one",
                        game=shared,
                    )
                )
            with self._store().transaction("merge players") as inside:
                logbook_store.merge_players(inside, gone, into)

        self._run(change)
        return self.player(into)

    def known_names(self) -> list[str]:
        """The players' names, most plays first (the new-game form offers them)."""
        return [str(found["name"]) for found in self.players_json()]
