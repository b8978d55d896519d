"""The logbook's JSON API: ``/api/plays``, ``/api/players``, a player's statistics worked out
by hand for six plays of all four kinds, head-to-head, and renaming and merging (owner only).

The six plays are spec example records imported in this order, seats renamed so that:

1. rings-08: Ann 6 (won), Bo 0;            4. stones-06: Bo 5 (won, tie-break), Ann 5;
2. cards-t2: Ann 7 (won), Bo 1;            5. icehouse-09: Cy 5 (won), Ann 5, Bo 5;
3. cards-10: Ann 0, Bo 0 (a tie: both won); 6. rings-08: Ann 6 (won), Bo 0.

So Ann: 6 plays, 4 wins (1 shared), 2 losses, scores 6 7 0 5 5 6 (mean 4.8, best 7), runs of
wins W W W L L W (now 1, longest 3). Bo: 6 plays, 2 wins (1 shared), runs L L W W L L (now 0,
longest 2). Ann against Bo: 3 wins alone, 1 loss, 1 tie, 1 someone else won (Cy).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from companion.table.owner import HOW_TO
from companion.web import pages
from companion.web.logbook_pages import decimal
from tests.conftest import SPEC_EXAMPLES
from tests.web.conftest import assert_error, pair_owner

PLAYS = [
    ("rings-08-win-by-centre-entry", {}),
    ("cards-t2-cups-decide", {}),
    ("cards-10-reshuffle-same-turn-destruction-ends", {}),
    ("stones-06-objectives-tie", {"Ann": "Bo", "Bo": "Ann"}),
    ("icehouse-09-winner-tie-break", {"Ann": "Cy", "Bo": "Ann", "Cy": "Bo"}),
    ("rings-08-win-by-centre-entry", {}),
]


def renamed(name: str, names: dict[str, str]) -> dict[str, Any]:
    """The record ``name`` with its seats' names swapped as ``names`` says (everywhere the
    record names a seat, e.g. a Stones objective)."""
    text = (SPEC_EXAMPLES / f"{name}.record.json").read_text()
    for old in names:
        text = text.replace(f'"{old}"', f'"@{old}@"')
    for old, new in names.items():
        text = text.replace(f'"@{old}@"', f'"{new}"')
    found: dict[str, Any] = json.loads(text)
    return found


def six_plays(client: FlaskClient) -> list[str]:
    ids = []
    for name, names in PLAYS:
        answer = client.post("/api/games", json={"record": renamed(name, names)})
        assert answer.status_code == 201, answer.get_data(as_text=True)
        ids.append(answer.get_json()["id"])
        time.sleep(0.002)  # each import its own end time: the order is the order made
    return ids


def player_ids(client: FlaskClient) -> dict[str, int]:
    answer = client.get("/api/players")
    assert answer.status_code == 200
    return {player["name"]: player["id"] for player in answer.get_json()["players"]}


def test_plays_are_listed_newest_first_with_their_seats(client: FlaskClient, owner: str) -> None:
    ids = six_plays(client)
    answer = client.get("/api/plays")
    assert answer.status_code == 200
    body = answer.get_json()
    assert (body["page"], body["pages"], body["total"]) == (1, 1, 6)
    assert [play["id"] for play in body["plays"]] == ids[::-1]
    stones = body["plays"][2]
    assert stones["kind"] == "stones"
    assert {"id", "kind", "started", "ended", "seats"} <= set(stones)
    assert [
        {key: seat[key] for key in ("player", "score", "rank", "winner")}
        for seat in stones["seats"]
    ] == [
        {"player": "Bo", "score": 5, "rank": 1, "winner": True},
        {"player": "Ann", "score": 5, "rank": 2, "winner": False},
    ]
    tie = body["plays"][3]
    assert tie["kind"] == "cards" and tie["tie"] is True
    assert [seat["winner"] for seat in tie["seats"]] == [True, True]


def test_a_players_statistics_as_worked_out_by_hand(client: FlaskClient, owner: str) -> None:
    six_plays(client)
    ids = player_ids(client)
    assert list(ids) == ["Ann", "Bo", "Cy"]  # most plays first, then by name
    listed = client.get("/api/players").get_json()["players"]
    assert [(p["plays"], p["wins"], p["win_rate"]) for p in listed] == [
        (6, 4, 0.667),
        (6, 2, 0.333),
        (1, 1, 1.0),
    ]
    answer = client.get(f"/api/players/{ids['Ann']}")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["player"]["name"] == "Ann"
    overall = dict(body["statistics"]["overall"])
    assert overall.pop("last_played")
    assert overall == {
        "plays": 6,
        "wins": 4,
        "ties": 1,
        "losses": 2,
        "win_rate": 0.667,
        "mean_score": 4.8,
        "best_score": 7,
        "current_streak": 1,
        "longest_streak": 3,
    }
    kinds = body["statistics"]["kinds"]
    assert sorted(kinds) == ["cards", "icehouse", "rings", "stones"]
    brief = {
        kind: [figures[key] for key in ("plays", "wins", "ties", "mean_score", "best_score")]
        + [figures["current_streak"], figures["longest_streak"]]
        for kind, figures in kinds.items()
    }
    assert brief == {
        "rings": [2, 2, 0, 6.0, 6, 2, 2],
        "cards": [2, 2, 1, 3.5, 7, 2, 2],
        "stones": [1, 0, 0, 5.0, 5, 0, 0],
        "icehouse": [1, 0, 0, 5.0, 5, 0, 0],
    }
    assert kinds["rings"]["figures"]["play_means"] == {"turns": 11.0}
    assert kinds["stones"]["figures"]["play_means"] == {"spread": 0.0}
    assert set(kinds["rings"]["figures"]["totals"]) == {
        "snipes_made",
        "snipes_suffered",
        "pegs_entered",
    }
    assert set(kinds["icehouse"]["figures"]["totals"]) == {"sets_won"}
    rivers = kinds["cards"]["figures"]["counts"]["river"]
    assert rivers == sorted(rivers, key=lambda item: (-item[1], item[0]))
    assert body["statistics"]["opponents"] == [
        {"player_id": ids["Bo"], "name": "Bo", "plays": 6}
        | {"wins": 3, "losses": 1, "ties": 1, "neither": 1},
        {"player_id": ids["Cy"], "name": "Cy", "plays": 1}
        | {"wins": 0, "losses": 1, "ties": 0, "neither": 0},
    ]
    bo = client.get(f"/api/players/{ids['Bo']}").get_json()["statistics"]["overall"]
    assert [bo[key] for key in ("plays", "wins", "ties", "current_streak", "longest_streak")] == [
        6,
        2,
        1,
        0,
        2,
    ]


def test_head_to_head_counts_wins_alone_ties_and_plays_someone_else_won(
    client: FlaskClient, owner: str
) -> None:
    ids = six_plays(client)
    people = player_ids(client)
    answer = client.get(f"/api/players/{people['Ann']}/versus/{people['Bo']}")
    assert answer.status_code == 200
    body = answer.get_json()
    assert [body[key] for key in ("plays", "one_wins", "other_wins", "ties", "neither")] == [
        6,
        3,
        1,
        1,
        1,
    ]
    assert body["kinds"]["cards"] == {
        "plays": 2,
        "one_wins": 1,
        "other_wins": 0,
        "ties": 1,
        "neither": 0,
    }
    assert [play["id"] for play in body["recent"]] == ids[::-1]


def test_renaming_needs_the_owner_and_keeps_every_play(client: FlaskClient, data_dir: Path) -> None:
    pair_owner(client, data_dir)
    six_plays(client)
    ann = player_ids(client)["Ann"]
    stranger = FlaskClient(client.application)
    refused = stranger.post(f"/api/players/{ann}/rename", json={"name": "Anna"})
    assert_error(
        refused, 403, "owner_required", f"only the box's owner can rename a player; {HOW_TO}"
    )
    answer = client.post(f"/api/players/{ann}/rename", json={"name": "  Anna  "})
    assert answer.status_code == 200
    assert answer.get_json()["player"] == {
        "id": ann,
        "name": "Anna",
        "colour": answer.get_json()["player"]["colour"],
        "names": ["Ann"],
    }
    stats = client.get(f"/api/players/{ann}").get_json()["statistics"]["overall"]
    assert (stats["plays"], stats["wins"]) == (6, 4)
    plays = client.get("/api/plays").get_json()["plays"]
    assert all(seat["player"] != "Ann" for play in plays for seat in play["seats"])
    assert {"player": "Anna", "name": "Ann"}.items() <= plays[0]["seats"][0].items()
    # A later game seated under the old name is still hers.
    client.post("/api/games", json={"record": renamed("rings-08-win-by-centre-entry", {})})
    assert player_ids(client) == {
        "Anna": ann,
        "Bo": player_ids(client)["Bo"],
        "Cy": player_ids(client)["Cy"],
    }
    assert client.get(f"/api/players/{ann}").get_json()["statistics"]["overall"]["plays"] == 7


def test_a_name_another_player_has_is_refused_with_the_way_to_merge(
    client: FlaskClient, owner: str
) -> None:
    six_plays(client)
    ids = player_ids(client)
    answer = client.post(f"/api/players/{ids['Ann']}/rename", json={"name": "bo"})
    assert_error(
        answer,
        409,
        "conflict",
        "the name 'bo' is already Bo's; merge the two players instead if they are one person",
    )
    assert_error(
        client.post(f"/api/players/{ids['Ann']}/rename", json={"name": ""}),
        400,
        "malformed",
        "name: expected a player's name, got ''",
    )


def test_merging_moves_the_plays_and_names_and_refuses_two_people(
    client: FlaskClient, data_dir: Path
) -> None:
    pair_owner(client, data_dir)
    six_plays(client)
    client.post(
        "/api/games", json={"record": renamed("rings-08-win-by-centre-entry", {"Ann": "Annie"})}
    )
    ids = player_ids(client)
    stranger = FlaskClient(client.application)
    refused = stranger.post(f"/api/players/{ids['Annie']}/merge", json={"into": ids["Ann"]})
    assert_error(
        refused, 403, "owner_required", f"only the box's owner can merge two players; {HOW_TO}"
    )
    answer = client.post(f"/api/players/{ids['Annie']}/merge", json={"into": ids["Ann"]})
    assert answer.status_code == 200
    assert answer.get_json()["player"]["names"] == ["Annie"]
    assert "Annie" not in player_ids(client)
    overall = client.get(f"/api/players/{ids['Ann']}").get_json()["statistics"]["overall"]
    assert (overall["plays"], overall["wins"], overall["current_streak"]) == (7, 5, 2)
    assert_error(
        client.get(f"/api/players/{ids['Annie']}"), 404, "not_found", f"no player {ids['Annie']}"
    )
    both = client.post(f"/api/players/{ids['Bo']}/merge", json={"into": ids["Ann"]})
    assert both.status_code == 409
    assert "they are two people, not one" in both.get_json()["error"]["message"]


def test_bad_requests_get_a_clear_json_error(client: FlaskClient, owner: str) -> None:
    assert_error(client.get("/api/players/7"), 404, "not_found", "no player 7")
    assert_error(
        client.get("/api/plays?page=0"),
        400,
        "malformed",
        "page: expected a whole number from 1, got '0'",
    )
    six_plays(client)
    ann = player_ids(client)["Ann"]
    assert_error(
        client.post(f"/api/players/{ann}/merge", json={"into": 999}),
        404,
        "not_found",
        "no player 999",
    )
    assert client.post(f"/api/players/{ann}/merge", json={"into": "x"}).status_code == 400
    assert client.post(f"/api/players/{ann}/rename", json={"nom": "x"}).status_code == 400
    assert client.get("/api/plays?page=9").get_json()["plays"] == []


def test_the_pages_answer_and_a_player_not_here_gets_a_page_with_a_way_back(
    client: FlaskClient, owner: str
) -> None:
    six_plays(client)
    ann = player_ids(client)["Ann"]
    history = client.get("/history")
    assert history.status_code == 200
    text = history.get_data(as_text=True)
    assert text.count('class="play-card"') == 6
    assert "★ tie, shared win" in text and "★ won" in text
    page = client.get(f"/players/{ann}")
    assert page.status_code == 200
    assert "Win rate</dt><dd>67%" in page.get_data(as_text=True)
    versus = client.get(f"/players/{ann}?versus={player_ids(client)['Bo']}")
    assert "Ann won 3," in versus.get_data(as_text=True)
    missing = client.get("/players/999")
    assert missing.status_code == 404
    assert "This player is not here" in missing.get_data(as_text=True)
    assert_error(
        client.get(f"/players/{ann}?versus=x"),
        400,
        "malformed",
        "versus: expected a player's number, got 'x'",
    )


def test_numbers_no_player_can_have_are_refused_as_json_errors(
    client: FlaskClient, owner: str
) -> None:
    huge = 10**30
    assert_error(client.get(f"/api/players/{huge}"), 404, "not_found", f"no player {huge}")
    six_plays(client)
    ann = player_ids(client)["Ann"]
    assert_error(
        client.post(f"/api/players/{ann}/merge", json={"into": huge}),
        400,
        "malformed",
        f"into: {huge} is out of 1..{2**63 - 1}",
    )
    assert_error(
        client.get(f"/api/players/{ann}/versus/{ann}"),
        400,
        "malformed",
        "versus: pick another player than the player themselves",
    )
    assert client.get(f"/players/{huge}").status_code == 404


def test_the_german_history_names_each_plays_variant_in_german(
    client: FlaskClient, owner: str
) -> None:
    for name in ("cards-t2-cups-decide", "rings-08-win-by-centre-entry"):
        answer = client.post("/api/games", json={"record": renamed(name, {})})
        assert answer.status_code == 201, answer.get_data(as_text=True)
    german = client.get("/history", headers={"Accept-Language": "de"})
    assert german.status_code == 200
    text = german.get_data(as_text=True)
    assert "· am echten Tisch</span>" in text and "· Standard</span>" in text
    assert "· table</span>" not in text and "· standard</span>" not in text
    english = client.get("/history", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "· table</span>" in english and "· standard</span>" in english


def test_a_german_player_page_names_the_players_colour_in_german(
    client: FlaskClient, owner: str
) -> None:
    answer = client.post("/api/games", json={"record": renamed("cards-t2-cups-decide", {})})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    ids = player_ids(client)
    (colour,) = [p["colour"] for p in client.get("/api/players").get_json()["players"]
                 if p["name"] == "Ann"]  # fmt: skip
    german = client.get(f"/players/{ids['Ann']}", headers={"Accept-Language": "de"})
    assert german.status_code == 200
    said = {"orange": "Orange", "cyan": "Türkis", "teal": "Petrol"}[colour]
    assert re.search(rf"Farbe: [A-Z] {said}\b", german.get_data(as_text=True))
    english = client.get(f"/players/{ids['Ann']}", headers={"Accept-Language": "en"})
    assert f"Colour: {pages.LETTERS[colour]} {colour}" in english.get_data(as_text=True)


def test_a_german_player_page_writes_colours_and_decimals_in_german(
    client: FlaskClient, owner: str
) -> None:
    answer = client.post("/api/games", json={"record": renamed("cards-t2-cups-decide", {})})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    ann = player_ids(client)["Ann"]
    german = client.get(f"/players/{ann}", headers={"Accept-Language": "de"})
    english = client.get(f"/players/{ann}", headers={"Accept-Language": "en"})
    assert german.status_code == english.status_code == 200
    de, en = german.get_data(as_text=True), english.get_data(as_text=True)
    river = re.findall(r" ([a-z]+) ×\d", en)  # the river's colours, most used first
    assert river and all(name in pages.LETTERS for name in river)
    assert re.findall(r" ([a-z]+) ×\d", de) == []
    assert re.search(r"<dd>\d+\.\d</dd>", en) and not re.search(r"<dd>\d+\.\d</dd>", de)
    assert re.search(r"<dd>\d+,\d</dd>", de)  # the mean score, "23,0"


def test_a_figure_keeps_its_places_in_english_and_takes_the_german_decimal_comma(
    client: FlaskClient,
) -> None:
    """The per-game figures have two places (``2.33``) and the means one: each is written as
    before in English (``str``), with a comma in German."""
    for header, expected in (
        ("en", ["2.33", "15.8", "3.0", "7"]),
        ("de", ["2,33", "15,8", "3,0", "7"]),
    ):
        with client.application.test_request_context("/", headers={"Accept-Language": header}):
            assert [decimal(value) for value in (2.33, 15.8, 3.0, 7)] == expected
