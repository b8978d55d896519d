"""Exports of finished plays: BG Stats' JSON and links, the CSV parsed back, BGG's text.

Plays are made by hand (known start, end and seats) so every figure is worked out here:
a 2-seat play of 45 minutes started 2026-11-28 18:30:00 UTC, Ann 12 beating Bo 7, and a
3-seat tie (Ann and Cy 9 share rank 1, Bo 4 is 3rd).
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from collections.abc import Iterator
from urllib.parse import unquote

import pytest

from companion.table import play_export as export
from companion.table.adapters.result import result_of

START = 1795890600.0  # 2026-11-28T18:30:00Z
WIN = export.from_result(
    "g1",
    result_of(
        "stones", ["Ann", "Bo"], [12, 7], 0, variant=None, board=None,
        started=START, ended=START + 45 * 60,
    ),
)  # fmt: skip
TIE = export.from_result(
    "g2",
    result_of(
        "rings", ["Ann", "Bo", "Cy"], [9, 4, 9], None, variant="standard", board="reference",
        started=START + 86400, ended=START + 86400 + 20,
    ),
    {"Cy": "player-7"},
)  # fmt: skip


@pytest.fixture
def kolkata() -> Iterator[None]:
    """The box's clock set to India's time (UTC+5:30), so local and UTC times differ."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "IST-5:30"  # POSIX form: no time zone database needed (a bare Debian)
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


@pytest.mark.usefixtures("kolkata")
def test_the_bgstats_play_is_dated_in_the_boxs_local_time_and_lists_every_field() -> None:
    assert export.bgstats_play(WIN) == {
        "sourceName": "Mandala Companion",
        "sourcePlayId": "g1",
        "playDate": "2026-11-29 00:00:00",
        "durationMin": 45,
        "game": {
            "name": "Mandala Stones",
            "sourceGameId": "stones",
            "bggId": 317504,
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": "Ann",
                "sourcePlayerId": "name:ann",
                "score": 12,
                "winner": True,
                "startPlayer": True,
                "rank": 1,
            },
            {
                "name": "Bo",
                "sourcePlayerId": "name:bo",
                "score": 7,
                "winner": False,
                "startPlayer": False,
                "rank": 2,
            },
        ],
    }


def test_a_kind_without_a_confirmed_bgg_id_leaves_bggid_out_and_ties_share_the_win() -> None:
    play = export.bgstats_play(TIE)
    assert play["game"] == {
        "name": "Mandala (1983 ring board)",
        "sourceGameId": "rings",
        "highestWins": True,
        "noPoints": False,
    }
    assert play["durationMin"] == 1  # 20 seconds: at least a minute, as the history shows
    assert [
        (p["name"], p["sourcePlayerId"], p["winner"], p["rank"])
        for p in play["players"]  # type: ignore[union-attr]
    ] == [("Ann", "name:ann", True, 1), ("Bo", "name:bo", False, 3), ("Cy", "player-7", True, 1)]


def test_both_links_carry_the_same_url_encoded_json_that_decodes_to_the_play() -> None:
    play = export.bgstats_play(WIN)
    links = export.bgstats_links(play)
    app, web = links["url"], links["web_url"]
    assert app.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    assert web.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert app.split("?data=", 1)[1] == web.split("?data=", 1)[1]
    data = web.split("?data=", 1)[1]
    assert not set(data) & set(' "{}:,&=#?/')
    assert json.loads(unquote(data)) == play


def test_a_name_with_ampersands_and_accents_survives_the_link() -> None:
    odd = export.from_result(
        "g3",
        result_of(
            "stones", ["Zoë & Jo?", "Bo=1#"], [3, 1], 0, variant=None, board=None,
            started=START, ended=START + 60,
        ),
    )  # fmt: skip
    play = export.bgstats_play(odd)
    data = export.bgstats_links(play)["web_url"].split("?data=", 1)[1]
    assert json.loads(unquote(data))["players"][0]["name"] == "Zoë & Jo?"


def test_the_csv_has_a_row_per_seat_per_play_and_parses_back() -> None:
    text = "".join(export.plays_csv([WIN, TIE]))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == export.CSV_COLUMNS
    assert [(r["play"], r["seat"], r["player"], r["score"], r["rank"]) for r in rows] == [
        ("g1", "1", "Ann", "12", "1"),
        ("g1", "2", "Bo", "7", "2"),
        ("g2", "1", "Ann", "9", "1"),
        ("g2", "2", "Bo", "4", "3"),
        ("g2", "3", "Cy", "9", "1"),
    ]
    assert [r["winner"] for r in rows] == ["yes", "no", "yes", "no", "yes"]
    assert [r["start_player"] for r in rows] == ["yes", "no", "yes", "no", "no"]
    assert rows[0] == {
        "play": "g1",
        "kind": "stones",
        "game": "Mandala Stones",
        "variant": "",
        "started": "2026-11-28T18:30:00Z",
        "ended": "2026-11-28T19:15:00Z",
        "duration_min": "45",
        "seat": "1",
        "player": "Ann",
        "score": "12",
        "rank": "1",
        "winner": "yes",
        "start_player": "yes",
    }
    assert rows[2]["variant"] == "standard"


def test_a_csv_text_cell_a_spreadsheet_would_run_as_a_formula_is_quoted() -> None:
    sly = export.from_result(
        "g4",
        result_of(
            "stones", ["=HYPERLINK(1)", "Bo, the 2nd"], [3, 1], 0, variant=None, board=None,
            started=START, ended=START + 60,
        ),
    )  # fmt: skip
    rows = list(csv.DictReader(io.StringIO("".join(export.plays_csv([sly])))))
    assert [r["player"] for r in rows] == ["'=HYPERLINK(1)", "Bo, the 2nd"]


def test_no_plays_is_the_header_alone() -> None:
    assert "".join(export.plays_csv([])) == ",".join(export.CSV_COLUMNS) + "\r\n"


def test_the_json_of_a_play_shows_its_seats_and_only_what_the_record_shows() -> None:
    assert export.play_json(TIE) == {
        "id": "g2",
        "kind": "rings",
        "game": "Mandala (1983 ring board)",
        "variant": "standard",
        "started": "2026-11-29T18:30:00Z",
        "ended": "2026-11-29T18:30:20Z",
        "duration_min": 1,
        "tie": True,
        "seats": [
            {"player": "Ann", "player_id": "name:ann", "score": 9, "rank": 1, "winner": True},
            {"player": "Bo", "player_id": "name:bo", "score": 4, "rank": 3, "winner": False},
            {"player": "Cy", "player_id": "player-7", "score": 9, "rank": 1, "winner": True},
        ],
    }


@pytest.mark.usefixtures("kolkata")
def test_the_bgg_text_says_the_local_date_and_marks_a_tie() -> None:
    assert export.bgg_text(TIE) == (
        "Date: 2026-11-30\n"
        "Game: Mandala (1983 ring board)\n"
        "Length: 1 min\n"
        "Players (in seat order):\n"
        "- Ann: score 9, rank 1, winner (tie), start player\n"
        "- Bo: score 4, rank 3\n"
        "- Cy: score 9, rank 1, winner (tie)\n"
        "Comments: played with Mandala Companion (game g2, variant standard)\n"
    )


def test_a_players_id_by_name_ignores_case_and_spacing() -> None:
    assert export.player_id("  Ann  Marie ") == export.player_id("ann marie") == "name:ann marie"
