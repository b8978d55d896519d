"""The journal's layout (schema 8): an entry keyed by its game's number and its seq, one page
a confirmed turn; a file of schema 7 migrated keeping every entry and every play.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from companion.table import Table
from companion.table.schema import ENTRY_SPAN, SCHEMA_VERSION
from companion.table.store import DB_NAME
from tests.table.old_files import as_schema_7, schema_sql
from tests.table.test_logbook import FINISHED, import_game, record, steps_key


def rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    """What another process reads from the file."""
    db = sqlite3.connect(path)
    try:
        return db.execute(query).fetchall()
    finally:
        db.close()


def journal_rows(path: Path) -> list[tuple[Any, ...]]:
    return rows(path, "SELECT game_id, seq, action, at FROM journal ORDER BY game_id, seq")


def play_rows(path: Path) -> list[tuple[Any, ...]]:
    return rows(path, "SELECT * FROM plays ORDER BY game_id")


def file_schema(path: Path) -> dict[str, str]:
    found = rows(path, "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
    return {str(name): str(sql) for name, sql in found}


def test_an_entry_is_keyed_by_its_games_number_and_seq_without_an_index(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        first = import_game(table, record("icehouse-01-eye-after-a-pick"))
        second = import_game(table, record(FINISHED["rings"]))
    path = tmp_path / DB_NAME
    numbers = dict(rows(path, "SELECT id, number FROM games"))
    assert sorted(numbers.values()) == [1, 2]
    entries = rows(path, "SELECT entry, game_id, seq FROM journal")
    assert {game for _, game, _ in entries} == {first, second}
    assert all(entry == numbers[game] * ENTRY_SPAN + seq for entry, game, seq in entries)
    # the rows' own b-tree is the only one: an entry changes one page
    indexes = rows(
        path, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal'"
    )
    assert indexes == []


def test_a_deleted_games_entries_go_and_a_new_game_starts_its_own_range(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        kept = import_game(table, record("icehouse-01-eye-after-a-pick"))
        gone = import_game(table, record(FINISHED["rings"]))
        before = table.export(kept)
        table.delete(gone)
        again = import_game(table, record("icehouse-01-eye-after-a-pick"))  # the number 2 again
        assert table.export(kept) == before
        assert table.export(again)["picks"] == before["picks"]
    path = tmp_path / DB_NAME
    assert {game for (game,) in rows(path, "SELECT game_id FROM journal")} == {kept, again}
    assert rows(path, "SELECT count(*) FROM plays") == [(0,)]


def test_a_schema_7_file_is_migrated_keeping_every_entry_and_play(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    finished_name = FINISHED["icehouse"]
    with Table(tmp_path) as table:
        finished = import_game(table, record(finished_name))
        playing = import_game(table, record("rings-01-riding-pegs"))
        import_game(table, record(FINISHED["stones"]))  # the newest game: the others are not
        views = {key: table.get_game(key) for key in (finished, playing)}
    assert play_rows(path) != []
    as_schema_7(path)
    assert file_schema(path) == schema_sql(7)
    journal, plays = journal_rows(path), play_rows(path)
    with Table(tmp_path) as table:
        assert file_schema(path) == schema_sql(SCHEMA_VERSION)
        assert rows(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
        assert rows(path, "PRAGMA foreign_key_check") == []
        assert journal_rows(path) == journal  # every entry, as it was
        assert play_rows(path) == plays  # none lost with the old journal
        assert {key: table.get_game(key) for key in views} == views
        # the finishing step undone takes its play; played again, it is a play again
        found = record(finished_name)
        last = found[steps_key(found)][-1]
        undone = table.undo(finished, int(views[finished]["version"]))
        assert table.logbook.play(finished) is None
        word = table.call(lambda: table.find(finished).engine.STEP_WORD)
        table.act(finished, int(undone["version"]), {word: last})
        assert table.logbook.play(finished) is not None
        table.delete(finished)
        assert table.call(lambda: table.state.db().integrity()) == ["ok"]
    assert {game for game, *_ in journal_rows(path)} == {game for game, *_ in journal} - {finished}
    assert [row[0] for row in play_rows(path)] == [row[0] for row in plays if row[0] != finished]
