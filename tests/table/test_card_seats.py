"""Seat and host tokens in the table: the viewer of a request, the schema migration, the
per-subscriber live stream (a card game played on the panel reaches each phone as its seat
may see it)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from companion.table import Table
from companion.table.hub import Hub
from companion.table.schema import SCHEMA_VERSION
from companion.table.seats import MAX_TOKEN_LENGTH, MAX_TOKENS, GameTokens, Viewer, digest
from companion.table.store import DB_NAME
from tests.table.old_files import as_schema_7

SEATS = ["Ann", "Bo"]


def test_the_viewer_takes_headers_first_then_that_games_cookies_then_the_rest() -> None:
    viewer = Viewer.from_request(
        {"X-Seat-Token": "h1", "X-Host-Token": "h2"},
        {
            "mandala_seat_aaa": "c1",
            "mandala_seat_bbb": "c2",
            "other": "x",
            "mandala_host_bbb": "c3",
        },
        "bbb",
    )
    assert viewer.tokens == ("h1", "h2", "c3", "c2", "c1")
    assert viewer.digests == tuple(digest(t) for t in viewer.tokens)


def test_the_viewer_ignores_empty_repeated_overlong_and_too_many_tokens() -> None:
    many = [f"t{i}" for i in range(MAX_TOKENS + 5)]
    viewer = Viewer.of(["", None, "a", "a", "x" * (MAX_TOKEN_LENGTH + 1), *many])
    assert viewer.tokens == ("a", *many[: MAX_TOKENS - 1])


def test_a_seat_is_matched_by_its_token_only() -> None:
    tokens = GameTokens({-1: digest("host"), 0: digest("ann"), 1: digest("bo")})
    assert tokens.seat_of(Viewer(("bo",))) == 1
    assert tokens.seat_of(Viewer(("bo", "ann"))) == 1  # the first token that matches a seat
    assert tokens.seat_of(Viewer(("host",))) is None  # the host is no seat
    assert tokens.seat_of(Viewer()) is None
    assert tokens.holds(Viewer(("x", "ann")), 0) is True
    assert tokens.holds(Viewer(("ann",)), 1) is False
    assert tokens.is_host(Viewer(("host",))) is True
    assert tokens.is_host(Viewer(("ann",))) is False
    assert tokens.taken(2) == [True, True]
    assert GameTokens({-1: digest("host")}).taken(2) == [False, False]


def test_a_schema_1_database_is_migrated_keeping_its_games(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        game = table.create_game({"kind": "cards", "seats": SEATS, "seed": 3})
    as_schema_7(tmp_path / DB_NAME)
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("DROP TABLE tokens")
    db.execute("DROP TABLE owners")  # schema 3's tables, made by the migration again
    db.execute("DROP TABLE pair_codes")
    for name in ("play_seats", "plays", "player_names", "players"):  # schema 4's
        db.execute(f"DROP TABLE {name}")
    db.execute("DROP TABLE summaries")  # schema 5's
    db.execute("ALTER TABLE games DROP COLUMN clock")  # schema 6's
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Table(tmp_path) as table:
        assert [g["id"] for g in table.list_games()] == [game["id"]]
        # The old game has no host token now: it is still hidden, and nobody is its host.
        assert table.get_game(game["id"])["state"]["hands"] == {"Ann": 6, "Bo": 6}
        assert table.take_seat(game["id"], 0, Viewer())["name"] == "Ann"
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 8
    assert db.execute("SELECT count(*) FROM tokens").fetchone()[0] == 1
    db.close()


def test_a_published_function_is_rendered_once_per_subscriber_viewer() -> None:
    hub = Hub(lambda viewer: {"type": "state", "viewer": viewer})
    first = hub.subscribe({"type": "state"}, viewer="ann")
    second = hub.subscribe({"type": "state"})
    hub.publish(lambda viewer: {"type": "game", "for": viewer})
    hub.publish({"type": "games"})
    seen: list[list[Any]] = [[], []]
    for items, subscription in zip(seen, (first, second), strict=True):
        while (item := subscription.get(timeout=0.05)) is not None:
            items.append(item)
    assert seen[0] == [{"type": "state"}, {"type": "game", "for": "ann"}, {"type": "games"}]
    assert seen[1] == [{"type": "state"}, {"type": "game", "for": None}, {"type": "games"}]


def test_each_subscription_of_the_table_sees_its_own_seat(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        game = table.create_game({"kind": "cards", "seats": SEATS, "seed": 3})
        ann_token = table.take_seat(game["id"], 0, Viewer())["token"]
        ann = table.subscribe(Viewer((ann_token,)))
        shared = table.subscribe()
        ann.get(1)
        shared.get(1)
        state = table.get_game(game["id"], Viewer((ann_token,)))["state"]
        action = state["legal"][0]
        table.act(game["id"], 1, action, Viewer((ann_token,)))
        mine = ann.get(1)
        theirs = shared.get(1)
        assert mine is not None and theirs is not None
        assert mine["type"] == theirs["type"] == "game"
        assert mine["state"]["seat"] == "Ann" and isinstance(mine["state"]["hands"]["Ann"], dict)
        assert theirs["state"]["seat"] is None and theirs["state"]["hands"]["Ann"] == 8
        ann.close()
        shared.close()
