"""A client that is not the owner creates at most CREATES_PER_MINUTE games a minute (429)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.table.limits import CREATES_PER_MINUTE, CreateRate, TooManyRequests
from tests.web.conftest import assert_error, pair_owner

NEW_GAME = {"kind": "icehouse", "seats": ["Ann", "Bo"], "seed": 1}


def test_one_game_beyond_a_clients_minute_is_429_and_stores_nothing(client: FlaskClient) -> None:
    for _ in range(CREATES_PER_MINUTE):
        assert client.post("/api/games", json=NEW_GAME).status_code == 201
    refused = client.post("/api/games", json=NEW_GAME)
    wait = refused.headers["Retry-After"]  # 60 s after the first of them, whole seconds
    assert 1 <= int(wait) <= 60
    assert_error(
        refused,
        429,
        "too_many",
        f"too many new games from 127.0.0.1: {CREATES_PER_MINUTE} in the last minute; "
        f"try again in {wait} s",
    )
    assert client.get("/api/games").get_json()["total"] == CREATES_PER_MINUTE
    other = client.post("/api/games", json=NEW_GAME, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 201  # another phone is not held back


def test_refused_bodies_do_not_count_against_the_minute(client: FlaskClient) -> None:
    for _ in range(2 * CREATES_PER_MINUTE):
        assert client.post("/api/games", json={"kind": "icehouse"}).status_code == 400
    assert client.post("/api/games", json=NEW_GAME).status_code == 201


def test_the_owner_is_not_capped(client: FlaskClient, data_dir: Path) -> None:
    pair_owner(client, data_dir)
    for _ in range(CREATES_PER_MINUTE + 5):
        assert client.post("/api/games", json=NEW_GAME).status_code == 201


def test_the_minute_slides_one_game_at_a_time() -> None:
    now = [1000.0]
    rate = CreateRate(limit=3, window=60.0, clock=lambda: now[0])
    for step in (0.0, 10.0, 20.0):
        now[0] = 1000.0 + step
        rate.check("192.168.1.20")
        rate.record("192.168.1.20")
    now[0] = 1030.0
    with pytest.raises(TooManyRequests) as refused:
        rate.check("192.168.1.20")
    assert refused.value.retry_after == 30
    assert str(refused.value) == (
        "too many new games from 192.168.1.20: 3 in the last minute; try again in 30 s"
    )
    rate.check("2001:db8::1")  # others are counted apart
    now[0] = 1060.0  # the first game left the minute
    rate.check("192.168.1.20")


def test_an_ipv6_client_is_counted_by_its_64_network() -> None:
    rate = CreateRate(limit=1)
    rate.record("2001:db8:1:2::aaaa")
    with pytest.raises(TooManyRequests):
        rate.check("2001:db8:1:2::bbbb")
    rate.check("2001:db8:1:3::aaaa")
