"""The owner role: what needs it, the two ways to get it, the phones that hold it (issue 21)."""

from __future__ import annotations

import base64
import logging
import time
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.table.owner import HOW_TO, MAX_WRONG_CODES, add_pair_code, code_digest
from companion.table.store import DB_NAME
from companion.table.table import Table
from companion.web import create_app
from tests.conftest import SPEC_EXAMPLES, run_cli
from tests.web.conftest import NEW_RINGS_GAME, assert_error, open_board, pair_owner

RECORD = (SPEC_EXAMPLES / "icehouse-01-eye-after-a-pick.record.json").read_text()
BOARD = open_board("Ours")


def needs_owner(what: str) -> str:
    return f"only the box's owner can {what}; {HOW_TO}"


def code_from(data_dir: Path) -> str:
    printed = run_cli(["pair", "--data", str(data_dir)])
    assert printed.status == 0 and printed.stderr == ""
    return printed.stdout.splitlines()[-1]


# What needs the owner ------------------------------------------------------------------


def test_a_stranger_cannot_delete_import_save_a_board_or_touch_the_rings(
    emulated_client: FlaskClient,
) -> None:
    client = emulated_client
    game_id = client.post("/api/games", json=NEW_RINGS_GAME).get_json()["id"]
    offsets = client.get("/api/board").get_json()["offsets"]
    refusals = [
        (client.delete(f"/api/games/{game_id}"), "delete a game"),
        (client.post("/api/games", json={"record": {"game": "icehouse"}}), "import a game"),
        (client.post("/api/boards", json={"file": "ours", "board": BOARD}), "save a board"),
        (client.post("/api/board/zero", json={}), "zero the rings"),
        (client.post("/api/board/rings/3/offset", json={"offset": 5}), "set a ring"),
    ]
    for response, what in refusals:
        assert_error(response, 403, "owner_required", needs_owner(what))
    assert [g["id"] for g in client.get("/api/games").get_json()["games"]] == [game_id]
    assert client.get("/api/boards").get_json()["saved"] == []
    assert client.get("/api/board").get_json()["offsets"] == offsets


def test_play_needs_no_owner(client: FlaskClient) -> None:
    game = client.post("/api/games", json=NEW_RINGS_GAME)
    assert game.status_code == 201
    game_id = game.get_json()["id"]
    dice = {"red": 1, "blue": 0, "green": 2, "yellow": 0, "brown": 3}
    turn = {"version": 1, "action": {"dice": dice}}
    assert client.post(f"/api/games/{game_id}/actions", json=turn).status_code == 200
    undone = client.post(f"/api/games/{game_id}/undo", json={"version": 2})
    assert_error(undone, 409, "conflict", "nothing to undo: no turn yet")  # the rules, not 403
    assert client.get(f"/api/games/{game_id}/record").status_code == 200


def test_the_owner_may_do_what_a_stranger_may_not(client: FlaskClient, data_dir: Path) -> None:
    token = pair_owner(FlaskClient(client.application), data_dir)  # another phone pairs
    header = {"X-Owner-Token": token}
    game_id = client.post("/api/games", json=NEW_RINGS_GAME).get_json()["id"]
    imported = client.post("/api/games", data=RECORD_BODY, headers=header)
    assert imported.status_code == 201, imported.get_json()
    saved = client.post("/api/boards", json={"file": "ours", "board": BOARD}, headers=header)
    assert saved.status_code == 201
    assert client.delete(f"/api/games/{game_id}", headers=header).get_json() == {
        "id": game_id,
        "deleted": True,
    }


RECORD_BODY = '{"record": ' + RECORD + "}"


# The code from `mandala pair` ----------------------------------------------------------


def test_mandala_pair_prints_the_code_alone_on_its_last_line(data_dir: Path) -> None:
    printed = run_cli(["pair", "--data", str(data_dir)])
    assert printed.status == 0
    lines = printed.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("mandala: the box's own Wi-Fi ")  # its password (issue 26)
    assert "it works once, for 10 minutes" in lines[1]
    assert len(lines[-1]) == 9 and lines[-1][4] == "-" and lines[-1].replace("-", "").isdigit()


def test_mandala_pair_reads_the_data_directory_from_the_config(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('data = "box"\n')
    code = run_cli(["pair", "--config", str(config)]).stdout.splitlines()[-1]
    with Table(tmp_path / "box") as table:
        assert table.owner.pair_with_code(code, "test")["owner_token"]


def test_a_code_printed_while_the_server_runs_makes_a_phone_the_owner(
    client: FlaskClient, data_dir: Path
) -> None:
    code = code_from(data_dir)
    answer = client.post("/api/owner/pair", json={"code": code})
    assert answer.status_code == 200
    token = answer.get_json()["owner_token"]
    assert len(base64.urlsafe_b64decode(token + "==")) * 8 >= 128
    assert client.get("/api/owner").get_json() == {"owner": True, "id": answer.get_json()["id"]}
    cookie = client.get_cookie("mandala_owner")
    assert cookie is not None and cookie.value == token and cookie.http_only
    assert cookie.same_site == "Strict"
    assert client.post("/api/board/zero", json={}).status_code == 409  # owner: "no ring board"


def test_a_code_works_once(client: FlaskClient, data_dir: Path) -> None:
    code = code_from(data_dir)
    assert client.post("/api/owner/pair", json={"code": code.replace("-", " ")}).status_code == 200
    again = FlaskClient(client.application).post("/api/owner/pair", json={"code": code})
    assert_error(
        again,
        403,
        "forbidden",
        "that code is wrong, used or expired (a code works once, for 10 minutes): "
        "run `mandala pair` on the box for a new one",
    )


def test_an_expired_code_is_refused(client: FlaskClient, data_dir: Path) -> None:
    add_pair_code(data_dir, code_digest("1111-2222"), time.time() - 1)
    answer = client.post("/api/owner/pair", json={"code": "1111-2222"})
    assert answer.status_code == 403
    assert client.get("/api/owner").get_json() == {"owner": False, "id": None}


def test_too_many_wrong_codes_cancel_every_code(client: FlaskClient, data_dir: Path) -> None:
    code = code_from(data_dir)
    wrong = "0000-0000" if code != "0000-0000" else "0000-0001"
    for _ in range(MAX_WRONG_CODES - 1):
        assert client.post("/api/owner/pair", json={"code": wrong}).status_code == 403
    assert_error(
        client.post("/api/owner/pair", json={"code": wrong}),
        403,
        "forbidden",
        f"that code is wrong; after {MAX_WRONG_CODES} wrong codes every code was cancelled: "
        "run `mandala pair` on the box again",
    )
    assert client.post("/api/owner/pair", json={"code": code}).status_code == 403


def test_a_pairing_body_that_is_not_a_code_or_the_button_is_400(client: FlaskClient) -> None:
    assert_error(
        client.post("/api/owner/pair", json={}),
        400,
        "malformed",
        'request body: send {"code": ...} with the code `mandala pair` printed, or '
        '{"button": true} and press the box\'s done button',
    )
    assert client.post("/api/owner/pair", json={"code": 12345678}).status_code == 400
    assert client.post("/api/owner/pair", json={"code": "1" * 33}).status_code == 400


# The done button ------------------------------------------------------------------------


def test_pressing_done_while_a_phone_asks_makes_it_the_owner_and_confirms_nothing(
    emulated_client: FlaskClient,
) -> None:
    client = emulated_client
    game_id = client.post("/api/games", json=NEW_RINGS_GAME).get_json()["id"]
    asked = client.post("/api/owner/pair", json={"button": True})
    assert asked.status_code == 202
    request = asked.get_json()["request"]
    waiting = client.post("/api/owner/pair", json={"request": request})
    assert waiting.status_code == 202 and waiting.get_json()["waiting"] is True
    assert client.post("/api/emulator/buttons/done/press", json={}).status_code == 200
    deadline = time.monotonic() + 10
    answer = client.post("/api/owner/pair", json={"request": request})
    while answer.status_code == 202 and time.monotonic() < deadline:
        answer = client.post("/api/owner/pair", json={"request": request})
    assert answer.status_code == 200, answer.get_json()
    assert client.get("/api/owner").get_json()["owner"] is True
    assert client.get(f"/api/games/{game_id}").get_json()["version"] == 1  # no confirm
    used = client.post("/api/owner/pair", json={"request": request})
    assert used.status_code == 403


def test_when_two_phones_ask_at_the_press_neither_becomes_the_owner(
    emulated_client: FlaskClient,
) -> None:
    client = emulated_client
    stranger = FlaskClient(client.application)
    mine = client.post("/api/owner/pair", json={"button": True}).get_json()["request"]
    theirs = stranger.post("/api/owner/pair", json={"button": True}).get_json()["request"]
    assert client.post("/api/emulator/buttons/done/press", json={}).status_code == 200
    deadline = time.monotonic() + 10
    answer = client.post("/api/owner/pair", json={"request": mine})
    while answer.status_code == 202 and time.monotonic() < deadline:
        answer = client.post("/api/owner/pair", json={"request": mine})
    message = (
        "2 phones asked to become the owner when the done button was pressed, so none was "
        "trusted; ask again on one phone only"
    )
    assert_error(answer, 409, "conflict", message)
    assert_error(
        stranger.post("/api/owner/pair", json={"request": theirs}), 409, "conflict", message
    )
    assert client.get("/api/owner").get_json()["owner"] is False


# The phones holding the role -------------------------------------------------------------


def test_the_owner_sees_and_revokes_the_phones_holding_the_role(
    client: FlaskClient, data_dir: Path
) -> None:
    other = FlaskClient(client.application)
    pair_owner(client, data_dir)
    other_token = pair_owner(other, data_dir)
    phones = client.get("/api/owner/phones").get_json()["phones"]
    assert [p["this"] for p in phones] == [True, False]
    assert all(p["how"] == "a code" and p["label"] for p in phones)
    other_id = phones[1]["id"]
    assert client.delete(f"/api/owner/phones/{other_id}").get_json() == {
        "id": other_id,
        "revoked": True,
    }
    refused = client.application.test_client().delete(
        "/api/owner/phones/x", headers={"X-Owner-Token": other_token}
    )
    assert_error(refused, 403, "owner_required", needs_owner("take the owner role from a phone"))
    assert [p["id"] for p in client.get("/api/owner/phones").get_json()["phones"]] == [
        phones[0]["id"]
    ]
    assert_error(
        client.delete("/api/owner/phones/nope"),
        404,
        "not_found",
        "no phone 'nope' holds the owner role",
    )


def test_a_stranger_cannot_list_the_owner_phones(client: FlaskClient) -> None:
    assert_error(
        client.get("/api/owner/phones"),
        403,
        "owner_required",
        needs_owner("see the phones that hold the owner role"),
    )


def test_the_owner_role_survives_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Table(data) as table:
        token = table.owner.pair_with_code(code_from(data), "phone")["owner_token"]
    with Table(data) as table:
        client = create_app({}, table=table).test_client()
        assert client.get("/api/owner", headers={"X-Owner-Token": token}).get_json()["owner"]


# Tokens: random, stored as digests, never logged -----------------------------------------


@pytest.mark.usefixtures("table")
def test_owner_tokens_and_codes_are_stored_only_as_digests_and_never_logged(
    client: FlaskClient, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    code = code_from(data_dir)
    token = client.post("/api/owner/pair", json={"code": code}).get_json()["owner_token"]
    client.get("/api/owner/phones", headers={"X-Owner-Token": token})
    other = pair_owner(FlaskClient(client.application), data_dir)
    assert token != other
    stored = b"".join(path.read_bytes() for path in data_dir.glob(DB_NAME + "*"))
    assert token.encode() not in stored and code.replace("-", "").encode() not in stored
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert token not in logged and code not in logged


def test_a_stranger_cannot_run_the_health_pages_actions(emulated_client: FlaskClient) -> None:
    client = emulated_client
    refusals = [
        (client.post("/api/health/ring-test", json={}), "start the ring test"),
        (client.post("/api/health/leds", json={"show": "spokes"}), "run the LED test"),
        (client.get("/api/health/bundle"), "download the diagnostics bundle"),
    ]
    for response, what in refusals:
        assert_error(response, 403, "owner_required", needs_owner(what))
    assert client.get("/api/health/live").status_code == 200  # looking needs no owner
