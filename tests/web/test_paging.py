"""The game list is paged, newest first: ``GET /api/games?page=N``, the home page, live items.

However many games are stored, a request renders one page of them (``PAGE_SIZE``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.table.listing import PAGE_SIZE
from companion.table.table import Table
from tests.web.conftest import assert_error

ICEHOUSE = {"game": "icehouse", "seats": ["Ann", "Bo"], "seed": 1, "picks": []}
STORED = 2 * PAGE_SIZE + 5


@pytest.fixture
def created(table: Table) -> list[str]:
    """The ids of ``STORED`` games, in the order they were created."""
    return [table.create_game({"record": ICEHOUSE})["id"] for _ in range(STORED)]


def test_the_api_lists_one_page_of_games_newest_first(
    client: FlaskClient, created: list[str]
) -> None:
    newest_first = created[::-1]
    answers = [client.get(f"/api/games?page={n}") for n in (1, 2, 3, 4)]
    assert [a.status_code for a in answers] == [200] * 4
    pages: list[Any] = [a.get_json() for a in answers]
    assert [len(p["games"]) for p in pages] == [PAGE_SIZE, PAGE_SIZE, 5, 0]
    assert [(p["page"], p["pages"], p["total"]) for p in pages] == [
        (n, 3, STORED) for n in (1, 2, 3, 4)
    ]
    assert [g["id"] for p in pages for g in p["games"]] == newest_first
    assert client.get("/api/games").get_json() == pages[0]  # no page: the first


@pytest.mark.parametrize("page", ["0", "-1", "abc", "1.5", "9" * 40, "²"])
def test_a_page_that_is_not_a_whole_number_from_1_is_400(client: FlaskClient, page: str) -> None:
    response = client.get("/api/games", query_string={"page": page})
    message = f"page: expected a whole number from 1, got {page[:40]!r}"
    assert_error(response, 400, "malformed", message)


def test_live_items_and_the_first_state_carry_the_first_page(
    table: Table, created: list[str]
) -> None:
    subscription = table.subscribe()
    first = subscription.get(timeout=5)
    assert first is not None
    assert [g["id"] for g in first["games"]] == created[::-1][:PAGE_SIZE]
    newest = table.create_game({"record": ICEHOUSE})
    items = []
    while (item := subscription.get(timeout=0.5)) is not None:
        items.append(item)
    subscription.close()
    (games,) = [item for item in items if item["type"] == "games"]
    assert [g["id"] for g in games["games"]] == [newest["id"], *created[::-1][: PAGE_SIZE - 1]]


def listed(html: str) -> list[str]:
    return re.findall(r'<li class="game-card" data-id="([0-9a-f]+)">', html)


def test_the_home_page_shows_one_page_and_links_to_the_next(
    client: FlaskClient, created: list[str]
) -> None:
    first = client.get("/")
    assert first.status_code == 200
    html = first.get_data(as_text=True)
    assert listed(html) == created[::-1][:PAGE_SIZE]
    assert f"page 1 of 3 ({STORED} games)" in html
    assert 'rel="next" href="/?page=2">More games</a>' in html
    assert 'rel="prev"' not in html
    last = client.get("/?page=3").get_data(as_text=True)
    assert listed(last) == created[::-1][2 * PAGE_SIZE :]
    assert 'rel="prev" href="/?page=2">Newer games</a>' in last
    assert 'rel="next"' not in last
    assert_error(
        client.get("/?page=x"), 400, "malformed", "page: expected a whole number from 1, got 'x'"
    )


def test_the_home_page_of_many_games_is_as_large_as_one_page(
    client: FlaskClient, table: Table
) -> None:
    for _ in range(PAGE_SIZE):
        table.create_game({"record": ICEHOUSE})
    one_page = len(client.get("/").get_data())
    for _ in range(3 * PAGE_SIZE):
        table.create_game({"record": ICEHOUSE})
    many = client.get("/").get_data()
    assert len(listed(many.decode())) == PAGE_SIZE
    assert abs(len(many) - one_page) < 100  # only the count of games in the line differs
