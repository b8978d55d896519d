"""Every finished play as files: ``/api/plays.csv`` parsed back and ``/api/plays.json``.

Finished spec examples of the four kinds are imported (plus one still in play, which no file
lists); the CSV is read back with Python's csv module and compared row by row with each
game's summary (``GET /api/games/<id>``), and the JSON with the same. A renamed player shows
under the new name everywhere, with the same id.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.table import Table
from companion.table import play_export as export
from tests.web.test_exports_api import FINISHED, imported, player_ids


@pytest.fixture
def games(client: FlaskClient, owner: str) -> list[str]:
    """The four finished examples imported in order, and one game still in play."""
    ids = [imported(client, name) for name in FINISHED]
    imported(client, "rings-01-riding-pegs")
    return ids


def summaries(client: FlaskClient, ids: list[str]) -> dict[str, dict[str, Any]]:
    return {game_id: client.get(f"/api/games/{game_id}").get_json() for game_id in ids}


def test_the_csv_of_all_plays_has_a_row_per_seat_newest_first_and_parses_back(
    client: FlaskClient, table: Table, games: list[str]
) -> None:
    answer = client.get("/api/plays.csv")
    assert answer.status_code == 200
    assert answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"] == 'attachment; filename="mandala-plays.csv"'
    rows = list(csv.DictReader(io.StringIO(answer.get_data().decode("utf-8-sig"))))
    expected = []
    ids = player_ids(table)
    names_of = dict(zip(games, FINISHED, strict=True))
    for game_id in reversed(games):  # newest first, as the history
        summary = summaries(client, [game_id])[game_id]
        title, _, ranks = FINISHED[names_of[game_id]]
        names = list(summary["state"]["scores"])
        winner = summary["state"]["winner"]
        for number, seat in enumerate(names):
            expected.append(
                (game_id, summary["kind"], title, str(number + 1), seat, ids[seat],
                 str(summary["state"]["scores"][seat]), str(ranks[number]),
                 "yes" if seat == winner else "no", "yes" if number == 0 else "no")
            )  # fmt: skip
    assert [
        (r["play"], r["kind"], r["game"], r["seat"], r["player"], ids[r["player"]], r["score"],
         r["rank"], r["winner"], r["start_player"])
        for r in rows
    ] == expected  # fmt: skip
    assert list(rows[0]) == list(export.CSV_COLUMNS)


def test_the_json_of_all_plays_lists_each_finished_play_with_its_seats(
    client: FlaskClient, table: Table, games: list[str]
) -> None:
    answer = client.get("/api/plays.json")
    assert answer.status_code == 200
    plays = answer.get_json()["plays"]
    assert [play["id"] for play in plays] == list(reversed(games))
    ids = player_ids(table)
    for play in plays:
        state = client.get(f"/api/games/{play['id']}").get_json()["state"]
        assert [(s["player"], s["player_id"], s["score"], s["winner"]) for s in play["seats"]] == [
            (name, ids[name], score, name == state["winner"])
            for name, score in state["scores"].items()
        ]
    download = client.get("/api/plays.json?download=1")
    assert download.headers["Content-Disposition"] == 'attachment; filename="mandala-plays.json"'
    assert json.loads(download.get_data()) == answer.get_json()


def test_no_finished_play_gives_the_csv_header_alone_and_an_empty_list(
    client: FlaskClient,
) -> None:
    csv_text = client.get("/api/plays.csv").get_data().decode("utf-8-sig")
    assert csv_text == ",".join(export.CSV_COLUMNS) + "\r\n"
    assert client.get("/api/plays.json").get_json() == {"plays": []}


def test_a_renamed_player_is_exported_under_the_new_name_with_the_same_id(
    client: FlaskClient, table: Table, games: list[str]
) -> None:
    ann = next(player for player in table.logbook.players() if player.name == "Ann")
    table.logbook.rename(ann.id, "Annie")
    play = client.get(f"/api/games/{games[0]}/bgstats").get_json()["play"]
    assert play["players"][0]["name"] == "Annie"
    assert play["players"][0]["sourcePlayerId"] == f"player-{ann.id}"
    rows = csv.DictReader(io.StringIO(client.get("/api/plays.csv").get_data().decode("utf-8-sig")))
    assert "Ann" not in {row["player"] for row in rows}
