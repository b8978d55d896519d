"""Games are loaded when they are opened, not at start-up (issue 23).

The list comes from each game's stored summary, so a table that starts with many stored games
replays none but the ring-board game's; a game is replayed the first time it is opened or
acted on and kept among the :data:`~companion.table.state.LOADED` most recently used. A game
keeps its newest states and a few checkpoints (``companion.table.game.States``); undo and
every view stay as they were. Real Table, real SQLite file, real engines; the games are
played with random legal moves (``bench/played.py``).
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games import cards, stones
from companion.table import Table
from companion.table.game import CHECKPOINT, RECENT
from companion.table.listing import PAGE_SIZE
from companion.table.state import LOADED
from companion.table.store import DB_NAME
from tests.conftest import ROOT
from tests.table.conftest import TWO_SEATS, opener

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import played

ICEHOUSE = {"game": "icehouse", "seats": ["Ann", "Bo"], "seed": 7, "picks": []}


def stored(data: Path, count: int) -> list[str]:
    """Store ``count`` played games of every kind (oldest first); answer their ids."""
    with Table(data) as table:
        return [
            table.create_game({"record": played.record(played.KINDS[n % 4], n)})["id"]
            for n in range(count)
        ]


def by_hand(data: Path, statement: str) -> None:
    """Change the stopped table's database with one SQL statement."""
    db = sqlite3.connect(data / DB_NAME)
    with db:
        db.execute(statement)
    db.close()


def on_board(table: Table) -> list[str]:
    """The ring-board game's id, if there is one: it is replayed at start-up."""
    game_id = table.board()["game"]
    return [game_id] if game_id else []


def views(table: Table, ids: list[str]) -> dict[str, Any]:
    return {game_id: table.get_game(game_id) for game_id in ids}


def test_a_table_started_with_stored_games_replays_none_and_lists_them_as_before(
    tmp_path: Path,
) -> None:
    ids = stored(tmp_path, PAGE_SIZE + 6)
    with Table(tmp_path) as table:
        before = (table.games_page(1), table.games_page(2), table.list_games())
        shown = views(table, ids)
        results = {game_id: table.result(game_id) for game_id in ids}
        exports = {game_id: table.export(game_id) for game_id in ids[-3:]}
    with Table(tmp_path) as table:
        board = on_board(table)
        assert board and table.loaded_games() == board and table.state.replays == 1
        assert (table.games_page(1), table.games_page(2), table.list_games()) == before
        assert table.player_colours()  # every stored game's colours, still no replay
        assert table.seat_colours(ids[1])
        assert table.loaded_games() == board and table.state.replays == 1
        opened = [game_id for game_id in ids if game_id not in board][:3]
        assert views(table, opened) == {key: shown[key] for key in opened}
        assert table.loaded_games() == board + opened
        assert table.state.replays == 4
        assert views(table, ids) == shown
        assert {game_id: table.result(game_id) for game_id in ids} == results
        assert {game_id: table.export(game_id) for game_id in ids[-3:]} == exports


def test_the_ring_board_game_is_replayed_at_start_and_stays_loaded(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Table(data, opener()) as table:
        board_game = table.create_game(dict(TWO_SEATS))["id"]
        others = [table.create_game({"record": ICEHOUSE})["id"] for _ in range(LOADED + 3)]
    with Table(data, opener()) as table:
        assert table.loaded_games() == [board_game]
        assert table.board()["game"] == board_game
        for game_id in others:
            table.get_game(game_id)
        loaded = table.loaded_games()
        assert len(loaded) == LOADED and board_game in loaded


def test_a_game_evicted_from_memory_is_the_same_when_opened_again(tmp_path: Path) -> None:
    ids = stored(tmp_path, LOADED + 4)
    with Table(tmp_path) as table:
        first = table.get_game(ids[1])
        for game_id in ids[2:]:
            table.get_game(game_id)
        assert len(table.loaded_games()) == LOADED
        assert ids[1] not in table.loaded_games() and ids[1] not in on_board(table)
        assert table.get_game(ids[1]) == first
        assert table.loaded_games()[-1] == ids[1]


def test_a_game_played_then_evicted_lists_and_reopens_at_its_new_version(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        game = table.create_game({"record": ICEHOUSE})
        played_to = table.act(game["id"], 1, {"pick": 4})
        for _ in range(LOADED):
            table.get_game(table.create_game({"record": ICEHOUSE})["id"])
        assert game["id"] not in table.loaded_games()
        listed = {g["id"]: g for g in table.games_page(1)["games"]}[game["id"]]
        assert listed["version"] == 2
        assert table.get_game(game["id"]) == played_to
    with Table(tmp_path) as table:
        listed = {g["id"]: g for g in table.games_page(1)["games"]}[game["id"]]
        assert listed["version"] == 2 and table.state.replays == 0


def test_undo_after_a_restart_takes_back_each_step_in_turn(tmp_path: Path) -> None:
    record = played.record("stones", 11, steps=CHECKPOINT + RECENT + 6)
    steps = record[stones.ACTIONS_KEY]
    assert len(steps) == CHECKPOINT + RECENT + 6
    with Table(tmp_path) as table:
        game = table.create_game({"record": {**record, stones.ACTIONS_KEY: []}})
        game_id, seen = game["id"], [game["state"]]
        version = 1
        for action in steps:
            seen.append(table.act(game_id, version, action)["state"])
            version += 1
    with Table(tmp_path) as table:
        for expected in reversed(seen[:-1]):
            undone = table.undo(game_id, version)
            version += 1
            assert undone["state"] == {**expected, "log": undone["state"]["log"]}
            assert len(undone["state"]["log"]) == len(expected["log"])


def test_a_stale_stored_summary_is_worked_out_again(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        game = table.create_game({"record": ICEHOUSE})
        table.act(game["id"], 1, {"pick": 4})
        listed = table.list_games()
    by_hand(tmp_path, "UPDATE summaries SET version = 1, summary = '{\"over\": true}'")
    with Table(tmp_path) as table:
        assert table.list_games() == listed
        assert table.loaded_games() == [game["id"]]


def test_a_database_without_summaries_lists_its_games_once_replayed(tmp_path: Path) -> None:
    ids = stored(tmp_path, 6)
    with Table(tmp_path) as table:
        listed = table.list_games()
    by_hand(tmp_path, "DELETE FROM summaries")
    with Table(tmp_path) as table:
        assert table.list_games() == listed
        assert table.state.replays == len(ids)
    with Table(tmp_path) as table:  # the summaries worked out were stored
        assert table.list_games() == listed and table.state.replays == len(on_board(table))


def test_the_summaries_name_the_finished_games_without_replaying_them(tmp_path: Path) -> None:
    ids = stored(tmp_path, 12)
    with Table(tmp_path) as table:
        over = {game_id for game_id in ids if table.result(game_id) is not None}
    with Table(tmp_path) as table:
        entries = table.summaries()
        assert [entry.id for entry in entries] == ids
        assert {entry.id for entry in entries if entry.over} == over
        assert over and table.loaded_games() == on_board(table)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_games_states_answer_as_the_list_of_every_state(seed: int) -> None:
    from companion.table.game import States

    rng = random.Random(seed)
    state = cards.new_game({"game": "cards", "mode": "table", "seats": ["Ann", "Bo"]})
    every: list[Any] = [state]
    actions: list[Any] = []
    states = States(state, actions, lambda s, obj: cards.apply(s, cards.parse_action(s, obj)))
    while not cards.is_over(every[-1]):
        action = rng.choice(cards.legal_actions(every[-1]))
        actions.append(cards.action_to_json(action))
        every.append(cards.apply(every[-1], action))
        states.append(every[-1])
    assert len(every) > CHECKPOINT + RECENT
    assert states.kept() <= RECENT + len(every) // CHECKPOINT + 1
    assert list(states) == every and len(states) == len(every)
    assert [states[i] for i in range(len(every))] == every
    assert [states[-i] for i in range(1, len(every) + 1)] == every[::-1]
    while len(every) > 1:
        assert states.pop() == every.pop()
        actions.pop()
        assert states[-1] == every[-1]
    with pytest.raises(IndexError):
        states[1]


def test_the_start_up_path_does_not_import_the_ring_players() -> None:
    # The computer seats' and the advisor's search loads when a computer seat or a hint
    # first needs it, not for every start of ``mandala serve``.
    probe = (
        "import sys, companion.serve, companion.table, companion.web, firmware.hardware\n"
        "from companion.table.adapters import adapter\n"
        "adapter('rings').check_setup({'seats': [{'name': 'Ann'}, {'name': 'Bo'}]})\n"
        "print('companion.players.rings' in sys.modules)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert found.stdout.split() == ["False"]
