"""More refusals come in the phone's language through the real API (issue 27): a Stones pick
of a stack that is not eligible, a seat to take in a game without seats, the Health page's
tests without a ring board or LED strip, the table view asked for no game, a computer seat
that cannot go on and the backups the box refuses. Each keeps its English word for word."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.catalogue import render
from companion.games import stones
from companion.games.base import IllegalAction
from companion.games.stones import Pick
from companion.phrases import phrase_from_json
from companion.players import rings as players
from tests.conftest import SPEC_EXAMPLES
from tests.games.stones_build import position
from tests.table.conftest import wait_for
from tests.web.conftest import NEW_RINGS_GAME, assert_error

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en"}


def created(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.get_json()
    game: dict[str, Any] = answer.get_json()
    return game


# Stones ------------------------------------------------------------------------------------


def test_a_stones_pick_of_a_blocked_stack_is_refused_in_german(client: FlaskClient) -> None:
    record = json.loads(
        (SPEC_EXAMPLES / "stones-x1-first-is-a-blocked-stack.record.json").read_text()
    )
    body = {key: value for key, value in record.items() if key not in ("game", "actions")}
    game = created(client, {"kind": "stones", **body})
    url = f"/api/games/{game['id']}/actions"
    pick = {"version": 1, "action": record["actions"][0]}
    assert_error(
        client.post(url, json=pick, headers=GERMAN),
        409,
        "illegal",
        "Zug 1: Erster Stein S: der Stapel auf [3, 6] grenzt an den Künstler auf [4, 6]. "
        "Er ist nicht wählbar.",
    )
    english = (SPEC_EXAMPLES / "stones-x1-first-is-a-blocked-stack.error.txt").read_text()
    assert_error(client.post(url, json=pick, headers=ENGLISH), 409, "illegal", english.strip())
    assert client.get(url.removesuffix("/actions")).get_json()["version"] == 1


def test_a_pick_that_takes_no_stone_names_each_direction_and_stone_in_german() -> None:
    stacks = {(3, 4): ["red-lines"], (4, 5): ["blue-lines"]}
    artists = (((2, 2), "dots"), ((2, 6), "lines"), ((6, 2), "dots"), ((6, 6), "lines"))
    with pytest.raises(IllegalAction) as refused:
        stones.apply(position(stacks=stacks, artists=artists), Pick((2, 2), (4, 4), "N", 1))
    assert refused.value.phrase is not None
    assert render(refused.value.phrase, "de") == (
        "Kein Stein ist für den Künstler (Punkte) auf [4, 4] wählbar ("
        "N: der oberste Stein des Stapels auf [3, 4] ist Rot, Linien, nicht Punkte wie der "
        "Künstler; O: der oberste Stein des Stapels auf [4, 5] ist Blau, Linien, nicht Punkte "
        "wie der Künstler; S: der Stapel auf [5, 4] ist leer; W: der Stapel auf [4, 3] ist leer)."
    )
    assert str(refused.value) == refused.value.phrase.english()


# Seats, the Health page's tests, the table view ----------------------------------------------


def test_taking_a_seat_in_a_game_without_seats_is_refused_in_german(client: FlaskClient) -> None:
    game = created(client, NEW_RINGS_GAME)
    for does, german in (("take", "Nehmen"), ("free", "Freigeben")):
        url = f"/api/games/{game['id']}/seats/0/{does}"
        assert_error(
            client.post(url, json={}, headers=GERMAN),
            409,
            "conflict",
            f"Spiel {game['id']} hat keine Plätze zum {german}: Das gibt es nur beim "
            "Kartenspiel auf dem Panel.",
        )
        assert_error(
            client.post(url, json={}, headers=ENGLISH),
            409,
            "conflict",
            f"game {game['id']} has no seats to {does}: only cards played on the panel",
        )


@pytest.mark.usefixtures("owner")
def test_the_health_pages_tests_without_a_ring_board_are_refused_in_german(
    client: FlaskClient,
) -> None:
    ring_test = ("/api/health/ring-test", {})
    leds = ("/api/health/leds", {"show": "spokes"})
    for (url, body), german, english in (
        (ring_test, "An dieser Box hängt kein Ringbrett.", "no ring board is attached"),
        (leds, "An dieser Box hängt kein LED-Streifen.", "no LED strip is attached"),
    ):
        assert_error(client.post(url, json=body, headers=GERMAN), 409, "conflict", german)
        assert_error(client.post(url, json=body, headers=ENGLISH), 409, "conflict", english)


def test_the_table_view_asked_for_no_game_is_refused_in_german(client: FlaskClient) -> None:
    answer = client.get("/api/table?game=", headers=GERMAN)
    assert_error(answer, 404, "not_found", "Es gibt kein Spiel ''")
    assert_error(client.get("/api/table?game=", headers=ENGLISH), 404, "not_found", "no game ''")


# The computer seat ---------------------------------------------------------------------------


def test_a_computer_seat_that_cannot_choose_says_so_in_the_readers_language(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cannot(*_: object) -> None:
        raise ValueError("no set fits the dice")

    monkeypatch.setattr(players, "choose", cannot)
    seats = [{"name": "Ann", "corner": 0, "computer": "easy"}, {"name": "Bo", "corner": 2}]
    game = created(client, {**NEW_RINGS_GAME, "seats": seats})

    def failed() -> dict[str, Any] | None:
        state = client.get(f"/api/games/{game['id']}").get_json()["state"]
        computer: dict[str, Any] | None = state.get("computer")
        return computer if computer and computer.get("error") else None

    error = phrase_from_json(wait_for(failed)["error"])
    assert error.english() == "the computer seat could not choose: no set fits the dice"
    assert render(error, "de") == "Der Computerplatz konnte nicht wählen: no set fits the dice"


# Backups -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spoil", "german", "english"),
    [
        (
            lambda d: d[:-3],
            "Die Sicherung ist beschädigt: ihre Prüfsumme stimmt nicht (",
            "the backup is damaged: its checksum does not match (",
        ),
        (
            lambda d: b'{"game": "rings"}',
            "Das ist keine Sicherung von Mandala Companion (sie beginnt nicht wie eine).",
            "not a Mandala Companion backup (it does not start as one)",
        ),
        (
            lambda d: d.replace(b'"release": "', b'"release": "9', 1),
            "Die Sicherung stammt von Version 9",
            "the backup was made by release 9",
        ),
        (
            lambda d: b"",
            "Anfrage: Schick die Sicherungsdatei als Inhalt.",
            "request body: send the backup file as the body",
        ),
    ],
    ids=["damaged", "foreign", "newer", "empty"],
)
def test_a_refused_restore_is_said_in_german(
    client: FlaskClient, owner: str, spoil: Any, german: str, english: str
) -> None:
    created(client, NEW_RINGS_GAME)
    download = client.get("/api/box/backup")
    assert download.status_code == 200
    spoiled = spoil(download.get_data())
    for headers, said in ((GERMAN, german), (ENGLISH, english)):
        answer = client.post("/api/box/restore", data=spoiled, headers=headers)
        assert answer.status_code == 400, answer.get_data(as_text=True)
        assert answer.get_json()["error"]["code"] == "malformed"
        assert answer.get_json()["error"]["message"].startswith(said)


def test_a_kept_backup_that_is_not_there_is_refused_in_german(
    client: FlaskClient, owner: str, data_dir: Path
) -> None:
    url = "/api/box/backups/daily-nope.mandala-backup/restore"
    assert_error(
        client.post(url, json={}, headers=GERMAN),
        400,
        "malformed",
        "Es gibt keine aufbewahrte Sicherung namens 'daily-nope.mandala-backup'.",
    )
    assert_error(
        client.post(url, json={}, headers=ENGLISH),
        400,
        "malformed",
        "backup: no kept backup named 'daily-nope.mandala-backup'",
    )
