"""Boards with another number of spokes than the LED map: the table starts, counts and lights.

Real Table, real SQLite, the firmware's real ring bank on mock pins: the 8-spoke board of the
spec example ``rings-05`` against the bundled 16-spoke LED map and 16-spoke reference board.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.table import Table
from companion.table.led_scenes import OFF
from tests.conftest import SPEC_EXAMPLES
from tests.table.conftest import TWO_SEATS, opener, turn_ring, wait_for

EIGHT = json.loads((SPEC_EXAMPLES / "rings-05-centre-only-on-entrance.record.json").read_text())
WARNING = (
    "the LED map has 16 spoke pixels but this board has 8 spokes: the spoke LEDs stay off "
    "(bases and scores still light)"
)


def sensed(table: Table) -> list[int]:
    return list(table.board()["offsets"])


def settled_offsets(table: Table, offsets: list[int]) -> None:
    def there() -> bool:
        board = table.board()
        return board["offsets"] == offsets and all(r["settled"] for r in board["rings"])

    wait_for(there)


def bank_spokes(table: Table) -> int:
    return int(table.hardware.bank.spokes)


def import_eight(table: Table) -> dict[str, Any]:
    return table.create_game({"record": EIGHT})


def test_the_table_starts_with_an_eight_spoke_game_on_a_sixteen_pixel_led_map(
    tmp_path: Path,
) -> None:
    with Table(tmp_path, opener()) as table:
        game = import_eight(table)
        assert game["state"]["on_board"] is True
    with Table(tmp_path, opener()) as table:  # failed with MapError before
        board = table.board()
        assert board["spokes"] == 8
        assert board["game"] == game["id"]
        assert board["led_warning"] == WARNING
        assert bank_spokes(table) == 8
        assert table.get_game(game["id"])["state"]["resync"]["reason"] == "restart"
        turn_ring(table, 3, -1)  # 0 - 1 on 8 spokes
        settled_offsets(table, [0, 0, 0, 7, 0, 0, 0, 0, 0, 0])


def test_a_restart_after_sixteen_spoke_offsets_starts_the_eight_spoke_board_in_range(
    tmp_path: Path,
) -> None:
    with Table(tmp_path, opener()) as table:
        first = table.create_game(dict(TWO_SEATS))
        turn_ring(table, 2, 13)
        settled_offsets(table, [0, 0, 13, 0, 0, 0, 0, 0, 0, 0])
        second = import_eight(table)
        # 13 on a board of 16 has no meaning on 8: never seen 8 before, so 13 mod 8.
        assert sensed(table) == [0, 0, 5, 0, 0, 0, 0, 0, 0, 0]
    with Table(tmp_path, opener()) as table:
        assert bank_spokes(table) == 8
        assert sensed(table) == [0, 0, 5, 0, 0, 0, 0, 0, 0, 0]
        # Back to the 16-spoke game: the offsets it last had come back.
        table.resume(first["id"])
        assert bank_spokes(table) == 16
        assert sensed(table) == [0, 0, 13, 0, 0, 0, 0, 0, 0, 0]
    with Table(tmp_path, opener()) as table:
        assert bank_spokes(table) == 16
        assert sensed(table) == [0, 0, 13, 0, 0, 0, 0, 0, 0, 0]
        assert table.board()["led_warning"] is None
        assert second["id"] in {g["id"] for g in table.list_games()}


def test_resuming_games_of_different_spokes_back_and_forth_restores_each_boards_offsets(
    tmp_path: Path,
) -> None:
    with Table(tmp_path, opener()) as table:
        big = table.create_game(dict(TWO_SEATS))
        turn_ring(table, 0, 3)
        settled_offsets(table, [3, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        small = import_eight(table)
        assert bank_spokes(table) == 8
        assert sensed(table) == [3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        turn_ring(table, 0, 6)  # 3 + 6 = 9 -> 1 on 8 spokes
        turn_ring(table, 9, 1)
        settled_offsets(table, [1, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        resumed = table.resume(big["id"])
        assert bank_spokes(table) == 16
        assert sensed(table) == [3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        assert resumed["state"]["resync"]["rings"][0]["instruction"] == (
            "turn ring 0 3 slots counter-clockwise (its mark to spoke 0)"
        )
        turn_ring(table, 0, 14)  # 3 + 14 = 17 -> 1 on 16 spokes
        settled_offsets(table, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        resumed = table.resume(small["id"])
        assert bank_spokes(table) == 8
        assert sensed(table) == [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]
        # The 8-spoke game wants ring 9 at 1: it is there; nothing else moved.
        assert [r["ok"] for r in resumed["state"]["resync"]["rings"]] == [False] + [True] * 9
        turn_ring(table, 0, -1)
        wait_for(lambda: table.get_game(small["id"])["state"]["resync"] is None)
        table.resume(big["id"])
        assert sensed(table) == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]


def test_offsets_count_modulo_the_spokes_of_the_board_on_the_table(tmp_path: Path) -> None:
    with Table(tmp_path, opener()) as table:
        import_eight(table)
        turn_ring(table, 4, 11)  # 11 mod 8
        turn_ring(table, 5, -9)  # -9 mod 8
        settled_offsets(table, [0, 0, 0, 0, 3, 7, 0, 0, 0, 0])
        # A 16-spoke game goes on: the offsets last sensed on 16 spokes (all 0) come back.
        table.create_game(dict(TWO_SEATS))
        assert sensed(table) == [0] * 10
        turn_ring(table, 4, 11)  # 11 on 16 spokes
        turn_ring(table, 5, -3)  # -3 mod 16
        settled_offsets(table, [0, 0, 0, 0, 11, 13, 0, 0, 0, 0])


def test_with_the_spoke_pixels_unfit_only_bases_and_scores_light(tmp_path: Path) -> None:
    with Table(tmp_path, opener()) as table:
        import_eight(table)
        # Bo (corner 1, purple) to move: bright; Ann (corner 0, orange) dim, one point.
        expected: list[list[int]] = [list(OFF)] * 48
        expected[20] = [255 // 4, 96 // 4, 0]
        expected[21] = [160, 0, 255]
        expected[24] = [255, 96, 0]
        board = table.board()
        assert board["leds"] == expected
        assert board["led_warning"] == WARNING
        # Turning a ring (an advance would show on a spoke) leaves every spoke pixel off.
        turn_ring(table, 0, 1)
        settled_offsets(table, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        assert table.board()["leds"][:16] == [list(OFF)] * 16


# The pure parts ------------------------------------------------------------------------------


def test_render_frame_leaves_spoke_pixels_off_when_the_map_does_not_fit_the_board() -> None:
    from companion.table.led_scenes import GREEN, Scene, render_frame
    from firmware.maps import LedMap

    led_map = LedMap(spokes=(0, 1, 2, 3), bases=(4,))
    scene = Scene(open_paths=frozenset({0, 2}))
    assert render_frame(scene, led_map, 5, spokes=4) == [GREEN, OFF, GREEN, OFF, OFF]
    assert render_frame(scene, led_map, 5, spokes=8) == [OFF] * 5
    assert render_frame(scene, led_map, 5) == [GREEN, OFF, GREEN, OFF, OFF]


def test_fit_offsets_keeps_restores_or_wraps() -> None:
    from companion.table.sensors import fit_offsets

    saved = [13, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    assert fit_offsets(saved, 16, 16) == saved
    assert fit_offsets(saved, 16, 8) == [5, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    memory = [1, 2, 3, 4, 5, 6, 7, 0, 1, 2]
    assert fit_offsets(saved, 16, 8, memory) == memory
    # Stored before the spokes were stored: used as they are when they fit, else wrapped.
    assert fit_offsets(saved, None, 16) == saved
    assert fit_offsets(saved, None, 8) == [5, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    assert fit_offsets(None, None, 8) is None
    assert fit_offsets(None, None, 8, memory) == memory
    # A remembered list that does not fit the board is not used.
    assert fit_offsets(saved, 16, 8, [9] * 10) == [5, 0, 0, 0, 0, 0, 0, 0, 0, 2]
