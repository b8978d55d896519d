"""The logbook's plays: written with the action that finishes a game, gone with its undo,
found once for games finished before the logbook, listed newest first and paged.

A real Table on a real SQLite file; games are spec examples imported whole, or imported
one step short and finished through ``Table.act`` as a phone does.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from companion.table import Table
from companion.table.adapters import adapter
from companion.table.colours import stable_pick
from companion.table.logbook import ABANDONED_DAYS, BACKFILLED_KEY
from companion.table.logbook_store import PAGE_SIZE, Play
from companion.table.store import DB_NAME
from tests.conftest import SPEC_EXAMPLES
from tests.games.icehouse_helpers import block_path
from tests.table.old_files import as_schema_7
from tests.web import icehouse_game as plan

FINISHED = {
    "rings": "rings-08-win-by-centre-entry",
    "icehouse": "icehouse-09-winner-tie-break",
    "cards": "cards-10-reshuffle-same-turn-destruction-ends",
    "stones": "stones-06-objectives-tie",
}

# Finished through the table's act: a card game tracking a real table (one played on the
# panel needs its seats' tokens, tests/web's business).
FINISHED_BY_ACT = {**FINISHED, "cards": "cards-t2-cups-decide"}


def record(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    return loaded


def steps_key(found: dict[str, Any]) -> str:
    return next(key for key in ("turns", "picks", "actions") if key in found)


def import_game(table: Table, found: dict[str, Any]) -> str:
    game_id: str = table.create_game({"record": found})["id"]
    return game_id


def seats(play: Play) -> list[tuple[str, int, int, bool]]:
    return [(seat.player, seat.score, seat.rank, seat.winner) for seat in play.seats]


def test_an_imported_finished_game_of_each_kind_is_a_play_with_its_seats(table: Table) -> None:
    ids = {kind: import_game(table, record(name)) for kind, name in FINISHED.items()}
    plays = {play.kind: play for play in table.logbook.plays_page(1)["plays"]}
    assert set(plays) == set(FINISHED)
    assert seats(plays["rings"]) == [("Ann", 6, 1, True), ("Bo", 0, 2, False)]
    assert seats(plays["icehouse"]) == [
        ("Ann", 5, 1, True),
        ("Bo", 5, 2, False),
        ("Cy", 5, 2, False),
    ]
    # A tie the rules leave: both seats won, both rank first.
    assert seats(plays["cards"]) == [("Ann", 0, 1, True), ("Bo", 0, 1, True)]
    assert plays["cards"].to_json()["tie"] is True
    assert seats(plays["stones"]) == [("Ann", 5, 1, True), ("Bo", 5, 2, False)]
    for kind, play in plays.items():
        assert play.id == ids[kind]
        result = table.result(ids[kind])
        assert result is not None
        assert (play.started, play.ended) == (result.started, result.ended)
        assert (play.variant, play.board) == (result.variant, result.board)
    assert plays["rings"].figures == {"turns": 11}
    assert plays["stones"].figures == {"spread": 0}


def test_a_game_still_in_play_is_no_play(table: Table) -> None:
    import_game(table, record("rings-01-riding-pegs"))
    assert table.logbook.plays_page(1)["plays"] == []
    assert table.logbook.plays_page(1)["total"] == 0


def finish_one_step_short(table: Table, name: str) -> tuple[str, int]:
    """Import ``name`` without its last step, then play that step through the table."""
    found = record(name)
    key = steps_key(found)
    last = found[key].pop()
    game_id = import_game(table, found)
    game = table.get_game(game_id)
    assert table.logbook.play(game_id) is None
    word = table.call(lambda: table.find(game_id).engine.STEP_WORD)
    answer = table.act(game_id, game["version"], {word: last})
    return game_id, int(answer["version"])


@pytest.mark.parametrize("kind", sorted(FINISHED_BY_ACT))
def test_the_step_that_finishes_a_game_writes_its_play_and_its_undo_removes_it(
    table: Table, kind: str
) -> None:
    game_id, version = finish_one_step_short(table, FINISHED_BY_ACT[kind])
    play = table.logbook.play(game_id)
    assert play is not None and play.kind == kind
    listing = next(game for game in table.list_games() if game["id"] == game_id)
    assert play.to_json()["ended"] == listing["updated"]
    table.undo(game_id, version)
    assert table.logbook.play(game_id) is None
    assert table.logbook.plays_page(1)["total"] == 0


def test_a_finished_play_is_on_disk_with_the_step_that_finished_it(
    table: Table, tmp_path: Path
) -> None:
    game_id, _ = finish_one_step_short(table, FINISHED["stones"])
    other = sqlite3.connect(table.data_dir / DB_NAME)
    try:
        (journal,) = other.execute(
            "SELECT max(seq) FROM journal WHERE game_id = ?", (game_id,)
        ).fetchone()
        found = other.execute("SELECT seq FROM plays WHERE game_id = ?", (game_id,)).fetchone()
    finally:
        other.close()
    assert found == (journal,)


def test_deleting_a_finished_game_removes_its_play(table: Table) -> None:
    game_id = import_game(table, record(FINISHED["rings"]))
    table.delete(game_id)
    assert table.logbook.play(game_id) is None


def test_plays_finished_before_the_logbook_are_found_once_at_start(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        ids = {import_game(table, record(name)) for name in FINISHED.values()}
        import_game(table, record("rings-01-riding-pegs"))
    # The file as a release before the logbook left it: schema 3, no logbook tables (nor
    # schema 5's summaries, nor schema 6's games.clock).
    as_schema_7(tmp_path / DB_NAME)
    db = sqlite3.connect(tmp_path / DB_NAME)
    for name in ("play_seats", "plays", "player_names", "players", "summaries"):
        db.execute(f"DROP TABLE {name}")
    db.execute("ALTER TABLE games DROP COLUMN clock")
    db.execute("DELETE FROM settings WHERE key = ?", (BACKFILLED_KEY,))
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    with Table(tmp_path) as table:
        assert {play.id for play in table.logbook.plays_page(1)["plays"]} == ids
        assert {player.name for player in table.logbook.players()} == {"Ann", "Bo", "Cy"}
    # Once: a play removed by hand is not found again at the next start.
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("DELETE FROM plays WHERE kind = 'rings'")
    db.commit()
    db.close()
    with Table(tmp_path) as table:
        assert len(table.logbook.plays_page(1)["plays"]) == 3


def test_plays_are_listed_newest_first_in_pages(table: Table) -> None:
    made = []
    for _ in range(PAGE_SIZE + 3):
        made.append(import_game(table, record(FINISHED["stones"])))
        time.sleep(0.002)  # distinct creation times: the imports' end times are their own
    first, second = table.logbook.plays_page(1), table.logbook.plays_page(2)
    assert (first["total"], first["pages"], second["page"]) == (PAGE_SIZE + 3, 2, 2)
    listed = [play.id for play in first["plays"] + second["plays"]]
    assert listed == made[::-1]
    assert table.logbook.plays_page(3)["plays"] == []


def test_the_ring_board_figures_count_snipes_made_and_suffered_and_centre_entries(
    table: Table,
) -> None:
    game_id = import_game(table, record("rings-04-snipe-two-in-one-run"))
    game = table.call(lambda: table.find(game_id))
    play, by_seat = table.call(lambda: adapter("rings").figures(game))
    assert play == {"turns": 5}
    # Ann's 2 points are the two pegs she sniped in one run (1 point each); no peg entered
    # Central Control.
    assert by_seat == [
        {"snipes_made": 2, "snipes_suffered": 0, "pegs_entered": 0},
        {"snipes_made": 0, "snipes_suffered": 2, "pegs_entered": 0},
    ]


def test_icehouse_sets_won_are_the_kinds_a_seat_took_the_most_points_of(table: Table) -> None:
    # tests/web/icehouse_game.py, worked out by hand: Bo takes red-1, Cy red-2, red-3 is
    # lost to the Eye, Ann yellow-1, Cy the ten kinds of its collection and black-3.
    setup = {"game": "icehouse", "seats": plan.SEATS, "path": block_path(), "picks": plan.PICKS}
    game_id = import_game(table, setup)
    play = table.logbook.play(game_id)
    assert play is not None
    assert play.figures == {"sets": 15}
    assert [seat.figures for seat in play.seats] == [
        {"sets_won": 1},
        {"sets_won": 1},
        {"sets_won": 12},
    ]
    # equal scores share a place in the result (adapters/result.py: "1, 2, 2, 4")
    assert seats(play) == [("Ann", 7, 2, False), ("Bo", 7, 2, False), ("Cy", 56, 1, True)]


def test_a_card_games_figures_are_its_rivers_as_the_finished_record_shows_them(
    table: Table,
) -> None:
    game_id = import_game(table, record("cards-t2-cups-decide"))
    play = table.logbook.play(game_id)
    assert play is not None
    summary = json.loads((SPEC_EXAMPLES / "cards-t2-cups-decide.summary.json").read_text())
    for seat in play.seats:
        river = summary["rivers"][seat.name]
        assert seat.figures == {"river": {colour: river.count(colour) for colour in river}}
    assert play.figures == {}


def test_a_player_keeps_the_colour_their_seat_had_else_the_panels_pick(table: Table) -> None:
    import_game(table, record(FINISHED["rings"]))
    import_game(table, record(FINISHED["icehouse"]))
    colours = {player.name: player.colour for player in table.logbook.players()}
    rings_seats = record(FINISHED["rings"])["seats"]
    engine_colours = table.call(lambda: [seat.colour for seat in table.games()[0].state.seats])
    assert [colours[seat["name"]] for seat in rings_seats] == engine_colours
    assert colours["Cy"] == stable_pick("Cy")


def test_games_left_unfinished_for_a_week_are_listed_apart(table: Table) -> None:
    waiting = import_game(table, record("rings-01-riding-pegs"))
    import_game(table, record(FINISHED["stones"]))
    assert table.logbook.abandoned() == []
    later = time.time() + (ABANDONED_DAYS + 1) * 86400
    listed = table.logbook.abandoned(now=later)
    assert [game["id"] for game in listed] == [waiting]
    assert listed[0]["seats"] == ["Ann", "Bo"]
    assert table.logbook.plays_page(1)["total"] == 1


def test_a_players_first_seat_naming_a_colour_gives_it_as_on_the_panel(table: Table) -> None:
    table.create_game({"kind": "icehouse", "seats": ["Zed", "Bo"], "seed": 1})
    colours = {player.name: player.colour for player in table.logbook.players()}
    assert colours["Zed"] == stable_pick("Zed") == "white"
    seats = [{"name": "Zed", "corner": 0, "colour": "purple"}, {"name": "Bo", "corner": 2}]
    table.create_game(
        {"kind": "rings", "board": "reference", "variant": "standard", "seats": seats}
    )
    assert {p.name: p.colour for p in table.logbook.players()}["Zed"] == "purple"
    later = [{"name": "Zed", "corner": 0, "colour": "white"}, {"name": "Bo", "corner": 2}]
    table.create_game(
        {"kind": "rings", "board": "reference", "variant": "standard", "seats": later}
    )
    assert {p.name: p.colour for p in table.logbook.players()}["Zed"] == "purple"  # the first
    assert table.player_colours()["Zed"] == "purple"  # what the panel gives Zed
