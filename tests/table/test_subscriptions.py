"""Change notifications (what the panel's Server-Sent Events read): state first, then changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.table import Conflict, Subscription, Table
from companion.table.hub import BACKLOG, MAX_SUBSCRIBERS, Hub
from tests.conftest import SPEC_EXAMPLES
from tests.stream import follow, put_together
from tests.table.conftest import NO_DICE, TWO_SEATS, settled_at, turn_ring

ICEHOUSE = json.loads((SPEC_EXAMPLES / "icehouse-01-eye-after-a-pick.record.json").read_text())


def drain(subscription: Subscription) -> list[dict[str, Any]]:
    items = []
    while (item := subscription.get(timeout=0.2)) is not None:
        items.append(item)
    return items


def test_the_first_item_is_the_current_state(table: Table) -> None:
    game = table.create_game({"record": ICEHOUSE})
    subscription = table.subscribe()
    first = subscription.get(timeout=1)
    assert first is not None
    assert first["type"] == "state"
    assert first["games"] == table.list_games()
    assert first["game"] is None  # no ring-board game on the board
    assert first["warnings"] == []
    assert first["board"]["hardware"] is False
    subscription.close()
    assert game["id"] == first["games"][0]["id"]


def test_every_change_of_a_game_is_sent_with_its_new_version(table: Table) -> None:
    game = table.create_game({"record": {**ICEHOUSE, "picks": []}})
    subscription = table.subscribe()
    drain(subscription)
    table.act(game["id"], 1, {"pick": 4})
    items = drain(subscription)
    # then what the pick did and whose turn it is, in words (companion.table.announce)
    assert [item["type"] for item in items] == ["game", "games", "say", "say"]
    assert items[0]["id"] == game["id"]
    assert items[0]["version"] == 2
    # The change, not the whole game: the state without its log, and the log's new entry.
    whole = table.get_game(game["id"])
    assert "log" not in items[0]["state"]
    assert items[0]["log"] == {"base": 1, "from": 0, "entries": whole["state"]["log"]}
    assert put_together(game, items[0]) == whole
    assert items[1]["games"] == table.list_games()
    table.undo(game["id"], 2)
    assert [(i["type"], i.get("version")) for i in drain(subscription)] == [
        ("game", 3),
        ("games", None),
        ("say", None),  # the pick taken back
        ("say", None),  # whose turn it is again
    ]
    table.delete(game["id"])
    assert drain(subscription) == [
        {"type": "game", "id": game["id"], "kind": "icehouse", "deleted": True},
        {"type": "games", "games": []},
    ]


def test_a_ring_turn_sends_the_board_the_leds_and_the_live_turn(rings_table: Table) -> None:
    game = rings_table.create_game(dict(TWO_SEATS))
    settled_at(rings_table, game["id"], [0] * 10)
    subscription = rings_table.subscribe()
    first = subscription.get(timeout=1)
    assert first is not None and first["game"]["id"] == game["id"]
    turn_ring(rings_table, 0, 1)
    settled_at(rings_table, game["id"], [1] + [0] * 9)
    items = drain(subscription)
    kinds = {item["type"] for item in items}
    assert kinds == {"live", "board", "leds"}  # the rings change the live turn, not the game
    # Changes only, which add up to the game and the board as they stand.
    view, board = follow(first["game"], first["board"], items)
    assert view is not None and view["state"]["live"]["rings"][0]["sensed"] == 1
    assert view == rings_table.get_game(game["id"])
    assert board["offsets"] == [1] + [0] * 9
    assert board["rings"][0]["settled"] is True
    assert board == rings_table.board()
    assert all(len(item["changes"]) < 10 for item in items if item["type"] == "board")


def test_too_many_subscribers_is_a_conflict(table: Table) -> None:
    subscriptions = [table.subscribe() for _ in range(MAX_SUBSCRIBERS)]
    with pytest.raises(Conflict) as refused:
        table.subscribe()
    assert str(refused.value) == (
        f"too many live streams: {MAX_SUBSCRIBERS} are open; close one and retry"
    )
    subscriptions[0].close()
    table.subscribe().close()  # a closed stream frees its place
    for subscription in subscriptions[1:]:
        subscription.close()


def test_a_closed_subscription_gives_nothing_more(table: Table) -> None:
    subscription = table.subscribe()
    subscription.close()
    table.create_game({"record": ICEHOUSE})
    assert subscription.get(timeout=0.05) is None


def test_a_subscriber_that_falls_behind_gets_a_fresh_state_not_a_stale_backlog(
    tmp_path: Path,
) -> None:
    with Table(tmp_path) as table:
        game = table.create_game({"record": {**ICEHOUSE, "picks": []}})
        subscription = table.subscribe()
        version = 1
        picks = [4, 1, 7, 9, 11, 13, 15, 16, 17, 18, 19, 20]
        rounds = 0
        while rounds * 2 <= BACKLOG:  # two items per change: game and games
            for pick in picks:
                version = table.act(game["id"], version, {"pick": pick})["version"]
            version = table.undo(game["id"], version)["version"]
            for _ in picks[1:]:
                version = table.undo(game["id"], version)["version"]
            rounds += len(picks) * 2
        items = drain(subscription)
        assert len(items) <= BACKLOG
        snapshots = [i for i, item in enumerate(items) if item["type"] == "state"]
        assert snapshots
        after = items[snapshots[-1] + 1 :]
        assert all(item["type"] in ("game", "games", "say") for item in after)
        final = [item for item in items if item["type"] == "games"] or [items[snapshots[-1]]]
        assert final[-1]["games"] == table.list_games()


def test_the_game_sent_after_a_confirm_carries_the_next_turns_live_view(
    rings_table: Table,
) -> None:
    # Another phone redraws from this item alone: it must not keep the last turn's dice
    # "used", its preview or a lit Confirm.
    game = rings_table.create_game(dict(TWO_SEATS))
    game = settled_at(rings_table, game["id"], [0] * 10)
    game = rings_table.act(game["id"], game["version"], {"dice": NO_DICE})
    assert game["state"]["live"]["can_confirm"] is True
    subscription = rings_table.subscribe()
    drain(subscription)
    confirmed = rings_table.act(game["id"], game["version"], {"confirm": True})
    sent = [item for item in drain(subscription) if item["type"] == "game"]
    assert sent[-1]["version"] == confirmed["version"]
    live = sent[-1]["state"]["live"]
    assert live == confirmed["state"]["live"]
    assert live["dice"] is None and live["dice_status"] == {}
    assert live["can_confirm"] is False


def test_one_client_holds_at_most_its_share_of_the_streams(table: Table) -> None:
    from companion.table.hub import PER_CLIENT

    mine = [table.subscribe(client="192.168.1.20") for _ in range(PER_CLIENT)]
    with pytest.raises(Conflict) as refused:
        table.subscribe(client="192.168.1.20")
    assert str(refused.value) == (
        f"too many live streams from 192.168.1.20: it holds {PER_CLIENT}; "
        "close a page of the panel and retry"
    )
    other = table.subscribe(client="192.168.1.21")  # another phone still gets one
    mine.pop().close()
    mine.append(table.subscribe(client="192.168.1.20"))  # a closed one frees its place
    for subscription in [*mine, other]:
        subscription.close()


def test_an_ipv6_client_is_counted_by_its_64_network_and_mapped_ipv4_as_ipv4() -> None:
    from companion.table.hub import client_key

    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::7")
    assert client_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:192.168.1.20") == "192.168.1.20"
    assert client_key("192.168.1.20") == "192.168.1.20"


def test_closing_every_stream_ends_them_and_opens_no_more(table: Table) -> None:
    subscriptions = [table.subscribe() for _ in range(3)]
    table.close_streams()
    assert all(subscription.closed for subscription in subscriptions)
    assert [subscription.get(timeout=5) for subscription in subscriptions] == [None] * 3
    assert table.hub.count() == 0
    with pytest.raises(Conflict) as refused:
        table.subscribe()
    assert str(refused.value) == "the companion is stopping; reconnect in a moment"


def test_each_item_is_serialised_once_however_many_phones_read_it() -> None:
    hub = Hub(lambda viewer: {"type": "state"})
    phones = [hub.subscribe({"type": "state"}, viewer) for viewer in ("ann", "ann", None, None)]
    assert all(phone.next(timeout=1) is not None for phone in phones)
    calls: list[str | None] = []

    def per_viewer(viewer: str | None) -> dict[str, Any]:
        calls.append(viewer)
        return {"type": "game", "for": viewer}

    hub.publish(per_viewer)
    hub.publish({"type": "games"})
    sent = [(phone.next(timeout=1), phone.next(timeout=1)) for phone in phones]
    assert sorted(calls, key=str) == [None, "ann"]  # once per distinct viewer
    assert sent[0][0] is sent[1][0] and sent[2][0] is sent[3][0]
    assert sent[0][0] is not None and sent[0][0].text == '{"type":"game","for":"ann"}'
    assert sent[2][0] is not None and sent[2][0].item == {"type": "game", "for": None}
    assert all(games is sent[0][1] for _, games in sent)  # one message for everybody
