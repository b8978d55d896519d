"""BG Stats' play link and BoardGameGeek's text over HTTP, for finished games of every kind.

Each finished game, imported from a spec example or played step by step through the API, is
asked for ``/api/games/<id>/bgstats``; the JSON inside both links is decoded and compared,
field by field, with what ``GET /api/games/<id>`` says (the game's summary: seats, scores,
winner) and the games list (when it started and last changed). Ranks are worked out by
hand from each example's summary (``tests/table/test_results.py`` has the same).
"""

from __future__ import annotations

import calendar
import json
import time
from typing import Any
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient

from companion.table import Table
from tests.conftest import SPEC_EXAMPLES
from tests.web.conftest import assert_error

APP = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB = "https://app.bgstatsapp.com/createPlay.html?data="

#: A finished example of each kind: its game's name and BoardGameGeek id in exports, and
#: each seat's rank in seat order (winner first; ties share a rank).
FINISHED = {
    "rings-08-win-by-centre-entry": ("Mandala (1983 ring board)", None, [1, 2]),
    "icehouse-09-winner-tie-break": ("Mandala (Icehouse)", None, [1, 2, 2]),
    "cards-t2-cups-decide": ("Mandala", 264241, [1, 2]),
    "stones-06-objectives-tie": ("Mandala Stones", 317504, [1, 2]),
}
STEPS = ("turns", "picks", "actions")  # where each kind's record keeps its steps


def record_of(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    return record


def imported(client: FlaskClient, name: str) -> str:
    response = client.post("/api/games", json={"record": record_of(name)})
    assert response.status_code == 201, response.get_json()
    game_id: str = response.get_json()["id"]
    return game_id


def played(client: FlaskClient, name: str) -> str:
    """Start a game with the example's setup and play each of its steps through the API."""
    record = record_of(name)
    key = next(key for key in STEPS if key in record)
    setup = {k: v for k, v in record.items() if k not in ("game", key)}
    created = client.post("/api/games", json={"kind": record["game"], **setup})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    for step in record[key]:
        action = {"pick": step} if key == "picks" else step
        url = f"/api/games/{game['id']}/actions"
        answer = client.post(url, json={"version": game["version"], "action": action})
        assert answer.status_code == 200, answer.get_json()
        game = answer.get_json()
    assert game["state"]["over"] is True
    game_id: str = game["id"]
    return game_id


def decoded(url: str, prefix: str) -> dict[str, Any]:
    assert url.startswith(prefix)
    data = url[len(prefix) :]
    assert all(c not in data for c in ' "{}&#'), "the JSON is URL-encoded"
    play: dict[str, Any] = json.loads(unquote(data))
    return play


def local(iso: str) -> str:
    stamp = calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(stamp))


def player_ids(table: Table) -> dict[str, str]:
    """Each logbook player's id as exports give it, by name."""
    return {player.name: f"player-{player.id}" for player in table.logbook.players()}


def check_against_summary(
    client: FlaskClient, table: Table, game_id: str, name: str
) -> dict[str, Any]:
    """Ask for the game's BG Stats links and compare the play with the game, field by field."""
    answer = client.get(f"/api/games/{game_id}/bgstats")
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert set(body) == {"url", "web_url", "play"}
    play = decoded(body["url"], APP)
    assert decoded(body["web_url"], WEB) == play == body["play"]

    summary = client.get(f"/api/games/{game_id}").get_json()
    state = summary["state"]
    listing = next(g for g in client.get("/api/games").get_json()["games"] if g["id"] == game_id)
    title, bgg_id, ranks = FINISHED[name]
    assert list(play) == [
        "sourceName",
        "sourcePlayId",
        "playDate",
        "durationMin",
        "game",
        "players",
    ]
    assert play["sourceName"] == "Mandala Companion"
    assert play["sourcePlayId"] == game_id
    assert play["playDate"] == local(listing["created"])
    started, ended = (
        calendar.timegm(time.strptime(listing[key], "%Y-%m-%dT%H:%M:%SZ"))
        for key in ("created", "updated")
    )
    assert play["durationMin"] == max(1, round((ended - started) / 60))
    game = {"name": title, "sourceGameId": summary["kind"], "highestWins": True, "noPoints": False}
    if bgg_id is not None:
        game["bggId"] = bgg_id
    assert play["game"] == game
    names = listing["seats"]
    winners = [state["winner"]] if state["winner"] else names  # a tie: every seat won
    assert play["players"] == [
        {
            "name": seat,
            "sourcePlayerId": player_ids(table)[seat],
            "score": state["scores"][seat],
            "winner": seat in winners,
            "startPlayer": number == 0,
            "rank": ranks[number],
        }
        for number, seat in enumerate(names)
    ]
    return play


@pytest.mark.usefixtures("owner")
@pytest.mark.parametrize("name", list(FINISHED))
def test_an_imported_finished_games_bgstats_links_carry_its_summary(
    client: FlaskClient, table: Table, name: str
) -> None:
    check_against_summary(client, table, imported(client, name), name)


@pytest.mark.usefixtures("owner")
@pytest.mark.parametrize("name", list(FINISHED))
def test_a_game_played_through_the_api_gets_bgstats_links_carrying_its_summary(
    client: FlaskClient, table: Table, name: str
) -> None:
    check_against_summary(client, table, played(client, name), name)


@pytest.mark.usefixtures("owner")
def test_a_tie_the_rules_leave_makes_both_players_winners_of_rank_1(
    client: FlaskClient,
) -> None:
    game_id = imported(client, "cards-10-reshuffle-same-turn-destruction-ends")
    play = client.get(f"/api/games/{game_id}/bgstats").get_json()["play"]
    assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in play["players"]] == [
        ("Ann", 0, True, 1),
        ("Bo", 0, True, 1),
    ]


@pytest.mark.usefixtures("owner")
def test_a_game_still_in_play_has_no_bgstats_play_409_and_nothing_changes(
    client: FlaskClient,
) -> None:
    game_id = imported(client, "rings-01-riding-pegs")
    before = client.get(f"/api/games/{game_id}").get_json()
    message = f"game {game_id!r} is not over yet: its play can be sent once it has a winner"
    assert_error(client.get(f"/api/games/{game_id}/bgstats"), 409, "conflict", message)
    assert_error(client.get(f"/api/games/{game_id}/bgg.txt"), 409, "conflict", message)
    assert client.get(f"/api/games/{game_id}").get_json() == before


def test_no_such_game_has_no_bgstats_play_404(client: FlaskClient) -> None:
    assert_error(client.get("/api/games/nope/bgstats"), 404, "not_found", "no game 'nope'")


@pytest.mark.usefixtures("owner")
def test_the_bgg_text_names_the_date_game_length_seats_scores_and_winner(
    client: FlaskClient,
) -> None:
    game_id = imported(client, "stones-06-objectives-tie")
    listing = next(g for g in client.get("/api/games").get_json()["games"] if g["id"] == game_id)
    answer = client.get(f"/api/games/{game_id}/bgg.txt")
    assert answer.status_code == 200
    assert answer.mimetype == "text/plain"
    assert answer.get_data(as_text=True) == (
        f"Date: {local(listing['created'])[:10]}\n"
        "Game: Mandala Stones (BoardGameGeek id 317504)\n"
        "Length: 1 min\n"
        "Players (in seat order):\n"
        "- Ann: score 5, rank 1, winner, start player\n"
        "- Bo: score 5, rank 2\n"
        f"Comments: played with Mandala Companion (game {game_id})\n"
    )
