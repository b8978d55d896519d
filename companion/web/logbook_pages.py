"""The logbook's pages: ``/history`` (every finished play, newest first, and the games left
unfinished apart) and ``/players/<id>`` (a player's statistics, rivals and plays).

Server-rendered from the table's logbook (``companion.table.logbook``), in plain words:
each seat shows its name, score, place and "won" or "tie" as text, a player's colour always
with their initial. Optional partials a template includes when they exist:
``_logbook_plots.html`` (plots on a player's page) and ``_play_links.html`` (a play's
exports in the history).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from babel.dates import format_datetime
from babel.numbers import format_decimal
from flask import Blueprint, render_template, request
from flask_babel import pgettext

from companion.games.base import RecordError
from companion.phrases import say
from companion.table import NotFound
from companion.table.adapters import adapter
from companion.table.logbook_store import Play
from companion.web.api_games import page_number
from companion.web.api_logbook import logbook
from companion.web.i18n import language, words
from companion.web.pages import LETTERS, letters, page_config

blueprint = Blueprint("logbook_pages", __name__)


#: A kind's own figures in words (``Adapter.figures``' names).
FIGURE_WORDS = {
    "snipes_made": say("Snipes made"),
    "snipes_suffered": say("Snipes suffered"),
    "pegs_entered": say("Pegs into Central Control"),
    "sets_won": say("Sets won"),
    "river": say("River colours"),
    "turns": say("Turns per game"),
    "sets": say("Sets completed per game"),
    "spread": say("VP spread (winner's VP less the last seat's)"),
}


#: A player colour's name (Panel.colourName's words in the scripts); the English is the
#: stored name, as the player page always showed it.
PLAYER_COLOUR_WORDS = {
    "red": say("red"),
    "blue": say("blue"),
    "green": say("green"),
    "yellow": say("yellow"),
    "brown": say("brown"),
    "orange": say("orange"),
    "purple": say("purple"),
    "cyan": say("cyan"),
    "pink": say("pink"),
    "lime": say("lime"),
    "teal": say("teal"),
    "white": say("white"),
    "black": say("black"),
}


@blueprint.app_template_filter("decimal")
def decimal(value: object) -> str:
    """A figure as the page's language writes it (``15.8``, ``15,8`` in German; ``2.33``,
    the per-game figures' two places, as ``str`` writes it in English); a whole number or a
    word stays as it is."""
    if isinstance(value, float):
        return str(format_decimal(value, format="0.0#", locale=language()))
    return str(value)


def fill(colour: str) -> str:
    """The class of a player colour's dot (``static/logbook.css``; the panel's CSP allows no
    inline style)."""
    return f"fill-{colour}" if colour in LETTERS else "fill-white"


def local_time(stamp: float) -> str:
    """A time as the box's clock shows it, in the page's language: ``Wed 2 Dec 2026, 19:05``
    (``Mi. 2 Dez. 2026, 19:05``)."""
    shown = datetime.fromtimestamp(stamp)  # the box's local time, as it is
    return format_datetime(shown, "EEE d MMM y, HH:mm", locale=language())


def place(rank: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... (``1.``, ``2.`` in German)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank if rank < 20 else rank % 10, "th")
    ordinals = {  # by the English ending; another language may say every place alike
        "st": say("{rank}st", rank=rank),
        "nd": say("{rank}nd", rank=rank),
        "rd": say("{rank}rd", rank=rank),
        "th": say("{rank}th", rank=rank),
    }
    return words(ordinals[suffix])


def variant_words(kind: str | None, variant: str | None) -> str | None:
    """A play's variant as the page's language says it (the log stores its code: a ring
    game's ``standard``, ``two-bases`` or ``solo``, a card game's ``play`` or ``table``); a
    code it does not know stays as it is."""
    if variant is None:
        return None
    known = {
        ("rings", "standard"): say("standard"),
        ("rings", "two-bases"): say("two-bases"),
        ("rings", "solo"): say("solo"),
        # the English is the stored code, as the page always showed it
        ("cards", "play"): pgettext("a card game played on the panel", "play"),
        ("cards", "table"): pgettext("a card game tracking a real table", "table"),
    }
    found = known.get((kind or "", variant))
    if found is None:
        return variant
    return found if isinstance(found, str) else words(found)


def play_view(play: Play, colours: dict[int, str]) -> dict[str, Any]:
    """A play as the pages show it."""
    tie = len(play.winners) > 1
    return {
        "id": play.id,
        "game": words(adapter(play.kind).title_words) if play.kind else play.kind,
        "variant": variant_words(play.kind, play.variant),
        "board": play.board,
        "when": local_time(play.started),
        "minutes": play.minutes,
        "tie": tie,
        "seats": [
            {
                "player_id": seat.player_id,
                "player": seat.player,
                "name": seat.name,
                "score": seat.score,
                "place": place(seat.rank),
                "result": ("tie" if tie else "won") if seat.winner else "",
                "fill": fill(colours.get(seat.player_id, "white")),
                "colour": colours.get(seat.player_id, "white"),
            }
            for seat in play.seats
        ],
    }


def players_view() -> list[dict[str, Any]]:
    """Every player with their totals and the fill of their colour."""
    return [{**found, "fill": fill(str(found["colour"]))} for found in logbook().players_json()]


def colour_map(players: list[dict[str, Any]]) -> dict[int, str]:
    """Each player's colour by id."""
    return {int(found["id"]): str(found["colour"]) for found in players}


@blueprint.get("/history")
def history() -> str:
    found = logbook().plays_page(page_number())
    players = players_view()
    colours = colour_map(players)
    data = {
        "plays": [play_view(play, colours) for play in found["plays"]],
        "page": found["page"],
        "pages": found["pages"],
        "total": found["total"],
        "abandoned": [
            {**game, "game": words(adapter(str(game["kind"])).title_words)}
            for game in logbook().abandoned()
        ],
        "players": players,
    }
    return render_template("history.html", data=data, page=page_config(), letters=letters())


@blueprint.get("/players/<int:player_id>")
def player(player_id: int) -> str | tuple[str, int]:
    book = logbook()
    try:
        found = book.player(player_id)
    except NotFound:  # a page, with a way back (the API answers its JSON)
        gone = {"id": player_id}
        return render_template("missing_player.html", data=gone, page=page_config()), 404
    statistics = book.statistics(player_id)
    versus = request.args.get("versus", "")
    head: dict[str, Any] | None = None
    if versus:
        if not (versus.isascii() and versus.isdigit()) or len(versus) > 9:
            raise RecordError(f"versus: expected a player's number, got {versus[:40]!r}")
        other = book.player(int(versus))
        head = {"other": other.to_json(), **book.head_to_head(player_id, other.id)}
    players = [
        {**other.to_json(), "fill": fill(other.colour)} for other in book.players()
    ]  # the colours and the merge's choices; no totals needed here
    colours = colour_map(players)
    recent = [play_view(play, colours) for play in book.recent(player_id)]
    kinds = {
        kind: {**figures, "title": words(adapter(kind).title_words)}
        for kind, figures in statistics["kinds"].items()
    }
    data = {
        "player": found.to_json(),
        "fill": fill(found.colour),
        "colour_words": (
            words(PLAYER_COLOUR_WORDS[found.colour])
            if found.colour in PLAYER_COLOUR_WORDS
            else found.colour
        ),
        "colour_names": {name: words(phrase) for name, phrase in PLAYER_COLOUR_WORDS.items()},
        "statistics": {**statistics, "kinds": kinds},
        "head": head,
        "recent": recent,
        "players": players,
        "words": {name: words(phrase) for name, phrase in FIGURE_WORDS.items()},
    }
    return render_template("player.html", data=data, page=page_config(), letters=letters())
