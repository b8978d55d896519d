"""Finished plays as other tools take them: BG Stats' play link, CSV, JSON, BoardGameGeek text.

Pure functions of an :class:`ExportPlay`, made from the logbook's stored play
(:func:`from_play`) or a finished game's :class:`~companion.table.adapters.result.Result`
(:func:`from_result`), so an export shows exactly what the finished record shows and nothing
hidden (a card game's hands, deck and cups never reach either). The game's name and
BoardGameGeek id come from its kind's adapter (``export_name``, ``bgg_id``).

- :func:`bgstats_play` is BG Stats' ``createPlay`` JSON (their "push plays from other apps"
  format): ``sourceName``, ``sourcePlayId``, ``playDate`` (``"YYYY-MM-DD HH:MM:SS"``, the
  box's local time when the play started), ``durationMin``, ``game`` and ``players``;
  :func:`bgstats_links` puts it URL-encoded behind the app's and the web version's address.
- :func:`plays_csv` has one row per seat per play (:data:`CSV_COLUMNS`); a text cell that
  a spreadsheet would run as a formula (starting ``=``, ``+``, ``-``, ``@``, tab or carriage
  return) is written with a leading ``'``, as spreadsheets expect.
- :func:`play_json` is one play as the JSON of all plays lists it.
- :func:`bgg_text` is a play as plain lines to copy into BoardGameGeek's own "log play"
  form (BGG has no way to write a play from outside).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import quote

from companion.games.base import JSON
from companion.table.adapters import adapter
from companion.table.adapters.result import Result
from companion.table.game import iso
from companion.table.logbook_store import Play
from companion.table.play_series import SeatRow

SOURCE_NAME: Final = "Mandala Companion"
"""How BG Stats names where the play came from."""

BGSTATS_APP: Final = "bgstats://app.bgstatsapp.com/createPlay.html?data="
BGSTATS_WEB: Final = "https://app.bgstatsapp.com/createPlay.html?data="

CSV_COLUMNS: Final = (
    "play",
    "kind",
    "game",
    "variant",
    "started",
    "ended",
    "duration_min",
    "seat",
    "player",
    "score",
    "rank",
    "winner",
    "start_player",
)
"""The CSV's header: the play's id, kind, name and variant, start and end (UTC, ISO 8601),
minutes played, then the seat (1 first), its player, score, rank, whether it won (``yes``/
``no``; a tie has several) and whether it moved first."""

FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class ExportSeat:
    """One seat of a play as exports show it: the player's name and id, score, rank, win."""

    name: str
    player_id: str
    score: int
    rank: int
    winner: bool


@dataclass(frozen=True)
class ExportPlay:
    """A finished play as exports show it (its seats in seat order; the first moved first)."""

    id: str
    kind: str
    variant: str | None
    started: float
    ended: float
    seats: tuple[ExportSeat, ...]

    @property
    def is_tie(self) -> bool:
        """Whether more than one seat won."""
        return sum(seat.winner for seat in self.seats) > 1


def player_id(name: str) -> str:
    """A stable id for a seat's player known only by name: the name, case and spacing
    ignored."""
    return "name:" + " ".join(name.casefold().split())


def from_result(
    game_id: str, result: Result, player_ids: Mapping[str, str] | None = None
) -> ExportPlay:
    """The play of a finished game's result; ``player_ids`` gives a player's id by name (a
    name without one gets :func:`player_id`)."""
    ids = player_ids or {}
    seats = tuple(
        ExportSeat(
            seat.name,
            ids.get(seat.name) or player_id(seat.name),
            seat.score,
            seat.rank,
            seat.name in result.winners,
        )
        for seat in result.seats
    )
    return ExportPlay(game_id, result.kind, result.variant, result.started, result.ended, seats)


def from_play(play: Play) -> ExportPlay:
    """The logbook's stored play: each seat as its player now (a renamed player under the
    new name, with the logbook's id ``player-N``, so BG Stats keeps matching them)."""
    seats = tuple(
        ExportSeat(seat.player, f"player-{seat.player_id}", seat.score, seat.rank, seat.winner)
        for seat in play.seats
    )
    return ExportPlay(play.id, play.kind, play.variant, play.started, play.ended, seats)


def from_rows(rows: Iterable[SeatRow]) -> list[ExportPlay]:
    """The plays of the logbook's seat rows (``play_series.seat_rows``: each play's seats
    together, in order), in the rows' order."""
    plays = []
    for _, group in itertools.groupby(rows, key=lambda row: row.game_id):
        seats = list(group)
        first = seats[0]
        plays.append(
            ExportPlay(
                first.game_id,
                first.kind,
                first.variant,
                first.started,
                first.ended,
                tuple(
                    ExportSeat(
                        row.player, f"player-{row.player_id}", row.score, row.rank, row.winner
                    )
                    for row in seats
                ),
            )
        )
    return plays


def game_name(kind: str) -> str:
    """The name exports give a kind's game (its adapter's ``export_name``, else its title)."""
    found = adapter(kind)
    return found.export_name or found.title


def duration_min(play: ExportPlay) -> int:
    """Whole minutes from the play's start to its end, at least 1 (as the history shows)."""
    return max(1, round((play.ended - play.started) / 60))


def local_time(stamp: float) -> str:
    """``"YYYY-MM-DD HH:MM:SS"`` in the box's local time (BG Stats' ``playDate``)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(stamp))


def bgstats_play(play: ExportPlay) -> dict[str, JSON]:
    """The play as BG Stats' ``createPlay`` JSON.

    Seats are listed in order; the first seat moved first (every kind's rules, as the spec
    fixes them). ``bggId`` is left out for a kind whose id was not confirmed.
    """
    kind = adapter(play.kind)
    game: dict[str, JSON] = {"name": game_name(play.kind), "sourceGameId": play.kind}
    if kind.bgg_id is not None:
        game["bggId"] = kind.bgg_id
    game.update({"highestWins": True, "noPoints": False})
    players: list[JSON] = [
        {
            "name": seat.name,
            "sourcePlayerId": seat.player_id,
            "score": seat.score,
            "winner": seat.winner,
            "startPlayer": number == 0,
            "rank": seat.rank,
        }
        for number, seat in enumerate(play.seats)
    ]
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.id,
        "playDate": local_time(play.started),
        "durationMin": duration_min(play),
        "game": game,
        "players": players,
    }


def bgstats_links(play: Mapping[str, JSON]) -> dict[str, str]:
    """``{"url", "web_url"}``: the app's and the web version's link for a play's JSON."""
    data = quote(json.dumps(play, ensure_ascii=False, separators=(",", ":")), safe="")
    return {"url": BGSTATS_APP + data, "web_url": BGSTATS_WEB + data}


def play_json(play: ExportPlay) -> dict[str, JSON]:
    """One play as the JSON of all plays lists it (times in UTC, ISO 8601)."""
    return {
        "id": play.id,
        "kind": play.kind,
        "game": game_name(play.kind),
        "variant": play.variant,
        "started": iso(play.started),
        "ended": iso(play.ended),
        "duration_min": duration_min(play),
        "tie": play.is_tie,
        "seats": [
            {
                "player": seat.name,
                "player_id": seat.player_id,
                "score": seat.score,
                "rank": seat.rank,
                "winner": seat.winner,
            }
            for seat in play.seats
        ],
    }


def safe_cell(text: str) -> str:
    """A text cell a spreadsheet shows as written (a formula's first character quoted)."""
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_rows(play: ExportPlay) -> list[list[str]]:
    """The CSV rows of one play, one per seat in seat order."""
    shared = [
        safe_cell(play.id),
        play.kind,
        safe_cell(game_name(play.kind)),
        safe_cell(play.variant or ""),
        iso(play.started),
        iso(play.ended),
        str(duration_min(play)),
    ]
    return [
        [
            *shared,
            str(number),
            safe_cell(seat.name),
            str(seat.score),
            str(seat.rank),
            "yes" if seat.winner else "no",
            "yes" if number == 1 else "no",
        ]
        for number, seat in enumerate(play.seats, start=1)
    ]


def plays_csv(plays: Iterable[ExportPlay]) -> Iterator[str]:
    """All ``plays`` as CSV text, in pieces: the header, then each play's rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    yield out.getvalue()
    for play in plays:
        out.seek(0)
        out.truncate()
        writer.writerows(csv_rows(play))
        yield out.getvalue()


def bgg_text(play: ExportPlay) -> str:
    """The play as lines to copy into BoardGameGeek's "log play" form.

    Date (the box's local date), game (with its BoardGameGeek id where known), minutes
    played, then each seat in order with its score, rank, and who won and who started.
    """
    kind = adapter(play.kind)
    game = game_name(play.kind)
    if kind.bgg_id is not None:
        game += f" (BoardGameGeek id {kind.bgg_id})"
    lines = [
        f"Date: {local_time(play.started)[:10]}",
        f"Game: {game}",
        f"Length: {duration_min(play)} min",
        "Players (in seat order):",
    ]
    for number, seat in enumerate(play.seats):
        notes = [f"score {seat.score}", f"rank {seat.rank}"]
        if seat.winner:
            notes.append("winner (tie)" if play.is_tie else "winner")
        if number == 0:
            notes.append("start player")
        lines.append(f"- {seat.name}: {', '.join(notes)}")
    variant = f", variant {play.variant}" if play.variant else ""
    lines.append(f"Comments: played with {SOURCE_NAME} (game {play.id}{variant})")
    return "\n".join(lines) + "\n"
