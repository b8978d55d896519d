"""``/api/box``: backups downloaded and restored from the panel, owner only; the phone's time."""

from __future__ import annotations

import calendar
import http.client
import json
import os
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.phrases import phrase_from_json
from companion.serve import BODY_BYTES
from companion.table import backup, clock, rolling
from companion.table.clock import BoxClock
from companion.table.owner import HOW_TO
from companion.table.store import DB_NAME
from companion.table.table import Table
from companion.web import create_app
from companion.web.api_box import RESTORE_MAX_BYTES
from tests.conftest import SPEC_EXAMPLES
from tests.web.conftest import NEW_RINGS_GAME, assert_error, pair_owner, serving

HOUR = 3600.0


def needs_owner(what: str) -> str:
    return f"only the box's owner can {what}; {HOW_TO}"


def game(names: tuple[str, str] = ("Ann", "Bo")) -> dict[str, Any]:
    return {
        **NEW_RINGS_GAME,
        "seats": [{"name": names[0], "corner": 0}, {"name": names[1], "corner": 2}],
    }


def ids(client: FlaskClient) -> list[str]:
    return sorted(g["id"] for g in client.get("/api/games").get_json()["games"])


def download(client: FlaskClient) -> bytes:
    answer = client.get("/api/box/backup")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.headers["Content-Disposition"].endswith(f'{backup.SUFFIX}"')
    return answer.get_data()


def test_every_backup_action_is_the_owners_alone(client: FlaskClient, data_dir: Path) -> None:
    client.post("/api/games", json=game())
    assert backup.keep_daily(data_dir) is not None
    name = backup.kept_backups(data_dir)[0].name
    before = ids(client)
    refusals = [
        (client.get("/api/box/backup"), "download a backup"),
        (client.get("/api/box/backups"), "see the kept backups"),
        (client.post("/api/box/restore", data=b"anything"), "restore a backup"),
        (client.post(f"/api/box/backups/{name}/restore"), "restore a backup"),
    ]
    for response, what in refusals:
        assert_error(response, 403, "owner_required", needs_owner(what))
    assert ids(client) == before
    about = client.get("/api/box").get_json()  # what release and where the time comes from
    assert about["release"] == backup.release() and about["time"]["source"] in {"box", "network"}
    pair_owner(client, data_dir)
    assert client.get("/api/box/backups").get_json()["backups"][0]["name"] == name


def test_a_restore_takes_effect_on_the_running_table_at_once(
    client: FlaskClient, owner: str, table: Table
) -> None:
    kept = client.post("/api/games", json=game()).get_json()["id"]
    data = download(client)
    later = client.post("/api/games", json=game(("Cy", "Di"))).get_json()["id"]
    assert client.delete(f"/api/games/{kept}").status_code == 200
    stream = table.subscribe()
    assert stream.get(timeout=5)["type"] == "state"  # type: ignore[index]
    answer = client.post("/api/box/restore", data=data, content_type="application/octet-stream")
    assert answer.status_code == 200, answer.get_json()
    said = answer.get_json()
    assert said["games"] == 1 and said["owner"] is True
    assert said["restored"]["release"] == backup.release()
    assert ids(client) == [kept]
    assert client.get(f"/api/games/{later}").status_code == 404
    item = stream.get(timeout=5)
    assert item is not None and item["type"] == "state"
    assert [g["id"] for g in item["games"]] == [kept]  # every phone is told
    stream.close()
    created = client.post("/api/games", json=game(("Ed", "Flo")))  # the table goes on
    assert created.status_code == 201


def test_a_restored_box_has_the_backups_owners(
    client: FlaskClient, app: Flask, data_dir: Path
) -> None:
    client.post("/api/games", json=game())
    first = pair_owner(FlaskClient(app), data_dir)  # the owner at the time of the backup
    data = FlaskClient(app).get("/api/box/backup", headers={"X-Owner-Token": first}).get_data()
    second = pair_owner(client, data_dir)
    answer = client.post("/api/box/restore", data=data, headers={"X-Owner-Token": second})
    assert answer.status_code == 200 and answer.get_json()["owner"] is False
    assert_error(
        client.get("/api/box/backups", headers={"X-Owner-Token": second}),
        403,
        "owner_required",
        needs_owner("see the kept backups"),
    )
    assert (
        FlaskClient(app).get("/api/box/backups", headers={"X-Owner-Token": first}).status_code
        == 200
    )


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (lambda d: d[:-3], "the backup is damaged: its checksum does not match"),
        (
            lambda d: b'{"game": "rings"}',
            "not a Mandala Companion backup (it does not start as one)",
        ),
        (
            lambda d: d.replace(b'"release": "', b'"release": "9', 1),
            "the backup was made by release 9",
        ),
        (lambda d: b"", "request body: send the backup file as the body"),
    ],
)
def test_a_refused_restore_changes_nothing(
    client: FlaskClient, owner: str, spoil: Any, said: str
) -> None:
    client.post("/api/games", json=game())
    data = download(client)
    client.post("/api/games", json=game(("Cy", "Di")))
    before = ids(client)
    answer = client.post("/api/box/restore", data=spoil(data))
    assert answer.status_code == 400, answer.get_data(as_text=True)
    assert answer.get_json()["error"]["code"] == "malformed"
    assert answer.get_json()["error"]["message"].startswith(said)
    assert ids(client) == before


def test_the_health_page_brings_back_a_kept_backup(
    client: FlaskClient, owner: str, data_dir: Path
) -> None:
    first = client.post("/api/games", json=game()).get_json()["id"]
    assert backup.keep_daily(data_dir) is not None
    client.post("/api/games", json=game(("Cy", "Di")))
    listed = client.get("/api/box/backups").get_json()["backups"]
    assert [b["name"].startswith("daily-") for b in listed] == [True]
    answer = client.post(f"/api/box/backups/{listed[0]['name']}/restore", json={})
    assert answer.status_code == 200, answer.get_json()
    assert ids(client) == [first]
    names = [b["name"] for b in client.get("/api/box/backups").get_json()["backups"]]
    assert any(n.startswith("before-restore-") for n in names)  # the undo is kept too
    assert_error(
        client.post("/api/box/backups/nope/restore", json={}),
        400,
        "malformed",
        "backup: no kept backup named 'nope'",
    )


def test_a_backup_larger_than_an_ordinary_request_is_taken(
    client: FlaskClient, owner: str, data_dir: Path
) -> None:
    client.post("/api/games", json=game())
    (data_dir / "boards").mkdir(exist_ok=True)
    (data_dir / "boards" / "big.toml").write_bytes(os.urandom(512 * 1024))  # incompressible
    data = download(client)
    assert len(data) > client.application.config["MAX_CONTENT_LENGTH"]
    assert client.post("/api/box/restore", data=data).status_code == 200


def test_a_restore_larger_than_64_mib_is_refused_as_too_large_and_changes_nothing(
    client: FlaskClient, owner: str
) -> None:
    client.post("/api/games", json=game())
    before = ids(client)
    assert RESTORE_MAX_BYTES == BODY_BYTES == 64 * 1024 * 1024
    answer = client.post("/api/box/restore", data=b"\0" * (RESTORE_MAX_BYTES + 1))
    assert_error(answer, 413, "too_large", "request body is larger than the panel accepts")
    assert ids(client) == before


def test_a_restore_announcing_more_than_64_mib_is_answered_at_once_without_its_body(
    table: Table, data_dir: Path
) -> None:
    token = pair_owner(FlaskClient(create_app({}, table=table)), data_dir)
    for base in serving(table, {}):
        host, port = base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=30) as phone:
            length = RESTORE_MAX_BYTES + 1
            phone.sendall(
                b"POST /api/box/restore HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + f"X-Owner-Token: {token}\r\nContent-Length: {length}\r\n\r\n".encode()
            )  # the body never comes: the answer must not wait for it
            answer = http.client.HTTPResponse(phone)
            answer.begin()
            body = answer.read()
        assert answer.status == 413, body  # waitress's own answer: the panel never sees it
        assert call(base, "GET", "/api/games")[0] == 200  # the server still answers others


# A backup during a burst ------------------------------------------------------------------


@pytest.fixture
def running(table: Table, data_dir: Path) -> Iterator[str]:
    yield from serving(table, {"BOARDS_DIR": data_dir / "boards"})


def call(base: str, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, bytes]:
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    headers = {"Content-Type": "application/json", "X-Owner-Token": token} if token else {}
    if body is not None:
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def test_a_backup_made_during_a_burst_restores_exactly_the_acknowledged_games(
    running: str, table: Table, data_dir: Path, tmp_path: Path
) -> None:
    token = pair_owner(FlaskClient(create_app({}, table=table)), data_dir)
    acknowledged: list[tuple[float, str]] = []  # (when the answer came, the game's id)
    stop = threading.Event()

    def play(worker: int) -> None:
        n = 0
        while not stop.is_set():
            status, body = call(running, "POST", "/api/games", game((f"P{worker}", f"Q{n}")))
            if status == 201:
                acknowledged.append((time.monotonic(), json.loads(body)["id"]))
            n += 1

    table.create_rate.limit = 10**9  # the burst is the test's, not a phone's
    workers = [threading.Thread(target=play, args=(w,)) for w in range(4)]
    for worker in workers:
        worker.start()
    while len(acknowledged) < 20:
        time.sleep(0.01)
    started = time.monotonic()
    status, data = call(running, "GET", "/api/box/backup", token=token)
    finished = time.monotonic()
    while len(acknowledged) < len([a for a in acknowledged if a[0] <= finished]) + 10:
        time.sleep(0.01)  # the burst goes on after the backup
    stop.set()
    for worker in workers:
        worker.join()
    assert status == 200
    before = {game_id for at, game_id in acknowledged if at < started}
    every = {game_id for _, game_id in acknowledged}
    backup.restore_files(tmp_path / "restored", data)
    with sqlite3.connect(tmp_path / "restored" / DB_NAME) as db:
        restored_ids = [str(row[0]) for row in db.execute("SELECT id FROM games")]
    with Table(tmp_path / "restored") as restored:
        records = {game_id: restored.export(game_id) for game_id in restored_ids}
    assert before <= set(records) <= every
    assert len(records) < len(every)  # games acknowledged after the backup are not in it
    for game_id, record in records.items():
        assert record == table.export(game_id)


# The phone's time -------------------------------------------------------------------------


@pytest.fixture
def installed_clock() -> Iterator[None]:
    """Put the process's clock back after a test installs one (as ``mandala serve`` does)."""
    before = clock.current()
    yield
    clock.install(before)


def clocked(table: Table, data_dir: Path, synced: bool) -> FlaskClient:
    clock.install(BoxClock(lambda: synced))
    return create_app({"BOARDS_DIR": data_dir / "boards"}, table=table).test_client()


def created_of(client: FlaskClient, game_id: str) -> float:
    """When the game started, as the home page's listing says (seconds since 1970)."""
    listed = client.get("/api/games").get_json()["games"]
    (stamp,) = [g["created"] for g in listed if g["id"] == game_id]
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))


@pytest.mark.usefixtures("installed_clock")
def test_an_unsynchronised_box_takes_the_phones_time_and_corrects_its_games(
    table: Table, data_dir: Path
) -> None:
    client = clocked(table, data_dir, synced=False)
    game_id = client.post("/api/games", json=game()).get_json()["id"]
    assert abs(created_of(client, game_id) - time.time()) < 60
    phone = time.time() + 3 * HOUR
    headers = {clock.HEADER: str(int(phone * 1000)), "User-Agent": "Mozilla/5.0 (iPhone)"}
    client.get("/api/games", headers=headers)
    assert abs(created_of(client, game_id) - (time.time() + 3 * HOUR)) < 60
    source = client.get("/api/box").get_json()["time"]
    said = phrase_from_json(source["phrase"]).english()
    assert source["source"] == "phone" and "was 3 h behind" in said
    assert said.endswith("; the times of 1 game stored before were corrected")
    later = client.post("/api/games", json=game()).get_json()["id"]  # stamped with its time
    assert abs(created_of(client, later) - (time.time() + 3 * HOUR)) < 60
    client.get("/api/games", headers={clock.HEADER: str(int((phone + HOUR) * 1000))})
    assert abs(created_of(client, game_id) - (time.time() + 3 * HOUR)) < 60  # taken once


def time_from(client: FlaskClient) -> dict[str, str]:
    return {g["id"]: g["time_from"] for g in client.get("/api/games").get_json()["games"]}


def play_started(client: FlaskClient, game_id: str) -> float:
    (play,) = [p for p in client.get("/api/plays").get_json()["plays"] if p["id"] == game_id]
    return calendar.timegm(time.strptime(play["started"], "%Y-%m-%dT%H:%M:%SZ"))


@pytest.mark.usefixtures("installed_clock")
def test_games_stamped_on_a_phones_time_are_marked_so_and_their_plays_corrected(
    table: Table, data_dir: Path
) -> None:
    client = clocked(table, data_dir, synced=False)
    finished = json.loads((SPEC_EXAMPLES / "icehouse-09-winner-tie-break.record.json").read_text())
    before = table.create_game({"record": finished})["id"]  # a finished play, imported
    assert time_from(client) == {before: "box"}
    assert abs(play_started(client, before) - time.time()) < 60
    phone = time.time() + 3 * HOUR
    client.get("/api/games", headers={clock.HEADER: str(int(phone * 1000))})
    later = client.post("/api/games", json=game()).get_json()["id"]
    assert time_from(client) == {before: "phone", later: "phone"}
    assert abs(play_started(client, before) - (time.time() + 3 * HOUR)) < 60  # logbook too
    with Table(data_dir) as reopened:  # the marks are stored with the games
        listed = {g["id"]: g["time_from"] for g in reopened.list_games()}
    assert listed == {before: "phone", later: "phone"}


@pytest.mark.usefixtures("installed_clock")
def test_a_synchronised_box_never_takes_a_phones_time(table: Table, data_dir: Path) -> None:
    client = clocked(table, data_dir, synced=True)
    game_id = client.post("/api/games", json=game()).get_json()["id"]
    headers = {clock.HEADER: str(int((time.time() + 3 * HOUR) * 1000))}
    client.get("/api/games", headers=headers)
    assert abs(created_of(client, game_id) - time.time()) < 60
    assert client.get("/api/box").get_json()["time"]["source"] == "network"


def test_a_server_with_rolling_backups_has_todays_as_it_starts(
    table: Table, data_dir: Path
) -> None:
    table.create_game(game())
    own = os.getpriority(os.PRIO_PROCESS, 0)
    started = rolling.start(data_dir)  # as mandala serve does, on a thread of its own
    assert started.thread.daemon and started.thread.is_alive()
    assert started.first.wait(timeout=60)  # a deadline only against a hang
    assert os.getpriority(os.PRIO_PROCESS, started.thread.native_id or 0) == 19
    assert os.getpriority(os.PRIO_PROCESS, 0) == own  # the panel's threads keep theirs
    day = time.strftime("%Y-%m-%d", time.gmtime())
    kept = [k.name for k in backup.kept_backups(data_dir)]
    assert kept == [f"daily-{day}{backup.SUFFIX}"]


def test_a_damaged_database_is_brought_back_from_the_rolling_backup(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Table(data) as before:
        game_id = str(before.create_game(game())["id"])
        record = before.export(game_id)
    assert backup.keep_daily(data) is not None
    (data / DB_NAME).write_bytes(b"these are not the pages you are looking for" * 200)
    with Table(data) as damaged:  # the damaged file is kept aside, an empty one started
        client = create_app({}, table=damaged).test_client()
        assert ids(client) == []
        assert len(client.get("/api/damaged").get_json()["damaged"]) == 1
        pair_owner(client, data)
        (kept,) = client.get("/api/box/backups").get_json()["backups"]
        answer = client.post(f"/api/box/backups/{kept['name']}/restore", json={})
        assert answer.status_code == 200, answer.get_json()
        assert ids(client) == [game_id]
        assert damaged.export(game_id) == record
        assert client.get("/api/damaged").get_json() == {"damaged": []}
        assert not any("was damaged" in text for text in damaged.status()["warnings"])
    kept_aside = [
        p for p in data.glob(f"{DB_NAME}.damaged-*") if p.name[-4:] not in {"-wal", "-shm"}
    ]
    assert len(kept_aside) == 1  # never deleted, by a restore neither
    assert kept_aside[0].read_bytes().startswith(b"these are not the pages")


def test_a_restore_with_the_ring_board_attached_guides_the_rings_back(
    emulated_client: FlaskClient, emulated_owner: str
) -> None:
    client = emulated_client
    game_id = client.post("/api/games", json=game()).get_json()["id"]
    data = download(client)
    assert client.post("/api/box/restore", data=data).status_code == 200
    state = client.get(f"/api/games/{game_id}").get_json()["state"]
    assert state["on_board"] is True
    assert state["resync"] is not None  # as after a restart: the rings may have moved
    assert client.get("/api/board").status_code == 200


@pytest.mark.usefixtures("installed_clock")
def test_a_german_box_page_names_the_phone_it_took_its_time_from_in_german(
    table: Table, data_dir: Path
) -> None:
    client = clocked(table, data_dir, synced=False)
    phone = time.time() + 3 * HOUR
    agent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36"
    client.get("/api/games", headers={clock.HEADER: str(int(phone * 1000)), "User-Agent": agent})
    page = client.get("/box", headers={"Accept-Language": "de"})
    assert page.status_code == 200
    (said,) = re.findall(r'<p id="time-said"[^>]*>([^<]*)</p>', page.get_data(as_text=True))
    assert said.startswith("von einem Handy übernommen (Chrome auf Linux) um ")
    english = phrase_from_json(client.get("/api/box").get_json()["time"]["phrase"]).english()
    assert english.startswith("taken from a phone (Chrome on Linux) at ")


def test_the_box_page_says_where_the_time_comes_from_in_the_phones_language(
    table: Table, data_dir: Path
) -> None:
    client = clocked(table, data_dir, synced=True)
    german = client.get("/box", headers={"Accept-Language": "de"})
    english = client.get("/box", headers={"Accept-Language": "en"})
    assert german.status_code == english.status_code == 200
    assert "die Uhr der Box ist synchronisiert" in german.get_data(as_text=True)
    assert "the box&#39;s clock is synchronised" in english.get_data(as_text=True)
