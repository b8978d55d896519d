"""The ring-board turn at an emulated table: real decoder on mock pins, real SQLite, real Table.

Every ring movement here is genuine quadrature driven by the firmware's RingTurner; the table
only ever learns of it through the ring bank's reports.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.games import rings
from companion.games.base import IllegalAction, RecordError, replay
from companion.table import Conflict, Forbidden, NotFound, Table
from firmware.hardware import Hardware
from firmware.maps import load_led_map, load_pin_map, parse_pin_map
from tests.conftest import run_cli
from tests.phrase_json import english
from tests.table.conftest import (
    NO_DICE,
    TWO_SEATS,
    opener,
    settled_at,
    turn_ring,
    wait_for,
)

ZERO = [0] * 10


def dice(**shown: int) -> dict[str, int]:
    return {**NO_DICE, **shown}


def new_game(table: Table) -> dict[str, Any]:
    game = table.create_game(dict(TWO_SEATS))
    return settled_at(table, game["id"], ZERO)


def play_red_one(table: Table, game: dict[str, Any]) -> dict[str, Any]:
    """Ann's first turn: red shows 1, ring 0 turns one slot clockwise; confirm it."""
    game = table.act(game["id"], game["version"], {"dice": dice(red=1)})
    turn_ring(table, 0, 1)
    game = settled_at(table, game["id"], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    return table.act(game["id"], game["version"], {"confirm": True})


def test_scripted_two_seat_game_through_the_rings_equals_replay_of_its_export(
    rings_table: Table,
) -> None:
    rng = random.Random(7)
    game = new_game(rings_table)
    game_id = game["id"]
    confirmed = 0
    for number in range(1, 13):
        record = rings_table.export(game_id)
        state = replay(rings, record)
        if rings.is_over(state):
            break
        if number % 2:
            game = rings_table.act(game_id, game["version"], {"roll": True})
            assert game["state"]["dice_source"] == "rolled"
            roll = game["state"]["dice"]
        else:
            roll = rings.roll(rng, state.board)
            game = rings_table.act(game_id, game["version"], {"dice": roll})
            assert game["state"]["dice_source"] == "entered"
        chosen = rng.choice(rings.legal_rotation_sets(state, roll))
        target = list(state.offsets)
        for rotation in chosen:
            turn_ring(rings_table, rotation.ring, rotation.steps)
            target[rotation.ring] = (target[rotation.ring] + rotation.steps) % 16
        game = settled_at(rings_table, game_id, target)
        live = game["state"]["live"]
        assert live["can_confirm"] is True, live
        assert all(s["status"] in ("used", "void") for s in live["dice_status"].values())
        preview = live["preview"]
        before = game["version"]
        if number % 3 == 0:
            rings_table.emulator_press("done")  # the physical button confirms too
            game = wait_for(
                lambda before=before: (g := rings_table.get_game(game_id))["version"] > before and g
            )
        else:
            game = rings_table.act(game_id, game["version"], {"confirm": True})
        confirmed += 1
        assert game["version"] == before + 1
        assert game["state"]["turns"] == confirmed
        assert game["state"]["last_turn"] == preview  # what the preview said is what happened
        assert game["state"]["offsets"] == target
    assert confirmed >= 10
    record = rings_table.export(game_id)
    assert len(record["turns"]) == confirmed
    assert isinstance(record["board"], dict)  # the board is inlined
    result = run_cli(["replay", "-"], stdin=json.dumps(record))
    assert result.status == 0, result.stderr
    summary = result.json()
    state = rings_table.get_game(game_id)["state"]
    assert isinstance(summary, dict)
    assert {key: state[key] for key in summary} == summary


def test_confirm_with_a_wrong_die_is_refused_with_the_engines_reason(rings_table: Table) -> None:
    game = new_game(rings_table)
    game = rings_table.act(game["id"], game["version"], {"dice": dice(red=1)})
    turn_ring(rings_table, 0, 2)
    game = settled_at(rings_table, game["id"], [2, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    live = game["state"]["live"]
    red = live["dice_status"]["red"]
    assert red["status"] == "wrong"
    assert english(red["reason"]) == "ring 0 (red) turned 2 but the red die shows 1"
    assert english(live["rings"][0]["difference"]) == (
        "ring 0 is 2 slots clockwise of where the game has it"
    )
    with pytest.raises(IllegalAction) as refused:
        rings_table.act(game["id"], game["version"], {"confirm": True})
    assert str(refused.value) == "turn 1: ring 0 (red) turned 2 but the red die shows 1"
    after = rings_table.get_game(game["id"])
    assert after["version"] == game["version"]
    assert after["state"]["turns"] == 0


def test_confirm_with_a_ring_the_dice_do_not_explain_is_refused(rings_table: Table) -> None:
    game = new_game(rings_table)
    game = rings_table.act(game["id"], game["version"], {"dice": dice(red=1)})
    turn_ring(rings_table, 0, 1)
    turn_ring(rings_table, 3, 1)
    game = settled_at(rings_table, game["id"], [1, 0, 0, 1, 0, 0, 0, 0, 0, 0])
    assert english(game["state"]["live"]["rings"][3]["difference"]) == (
        "ring 3 is 1 slot clockwise of where the game has it"
    )
    with pytest.raises(IllegalAction, match=r"^turn 1: the yellow die shows 0 but ring 3"):
        rings_table.act(game["id"], game["version"], {"confirm": True})
    turn_ring(rings_table, 3, -1)  # turned back: now it confirms
    game = settled_at(rings_table, game["id"], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    assert rings_table.act(game["id"], game["version"], {"confirm": True})["state"]["turns"] == 1


def test_confirm_while_a_ring_is_still_moving_is_refused(tmp_path: Path) -> None:
    with Table(tmp_path, opener(settle_ms=60_000)) as table:
        game = table.create_game(dict(TWO_SEATS))
        game = table.act(game["id"], game["version"], {"dice": dice(red=1)})
        turn_ring(table, 0, 1)
        wait_for(lambda: table.board()["offsets"][0] == 1)
        with pytest.raises(Conflict) as refused:
            table.act(game["id"], game["version"], {"confirm": True})
        assert str(refused.value) == "turn 1: cannot confirm: ring 0 is still moving"
        assert table.get_game(game["id"])["state"]["turns"] == 0


def test_confirm_with_a_ring_between_two_slots_is_refused(tmp_path: Path) -> None:
    text = (Path(rings.__file__).parents[2] / "hardware" / "pins.toml").read_text()
    import tomllib

    document = tomllib.loads(text.replace("detents_per_slot = 1", "detents_per_slot = 2"))
    pin_map = parse_pin_map(document)
    led_map = load_led_map()

    def open_hardware(report_ring: Any, report_button: Any, spokes: int, offsets: Any) -> Any:
        return Hardware.open(
            pin_map, led_map, spokes, True, report_ring, report_button, offsets, settle_ms=20
        )

    with Table(tmp_path, open_hardware) as table:
        game = table.create_game(dict(TWO_SEATS))
        game = table.act(game["id"], game["version"], {"dice": dice(red=1)})
        table.emulator_turn(0, 3)  # one slot and a half
        wait_for(lambda: table.board()["rings"][0]["aligned"] is False)
        with pytest.raises(Conflict) as refused:
            table.act(game["id"], game["version"], {"confirm": True})
        assert str(refused.value) == "turn 1: cannot confirm: ring 0 stands between two slots"


def test_confirm_before_the_dice_are_entered_is_refused(rings_table: Table) -> None:
    game = new_game(rings_table)
    with pytest.raises(Conflict) as refused:
        rings_table.act(game["id"], game["version"], {"confirm": True})
    assert str(refused.value) == "turn 1: cannot confirm: enter or roll the dice first"


def test_dice_entered_live_that_are_not_faces_are_refused_as_in_a_record_turn(
    rings_table: Table,
) -> None:
    # One rule, one place: the engine's check, with the error a record turn gets (409).
    game = new_game(rings_table)
    with pytest.raises(IllegalAction) as refused:
        rings_table.act(game["id"], game["version"], {"dice": dice(red=4)})
    assert str(refused.value) == "the red die shows 4, not a face of this board's dice (0, 1, 2, 3)"
    with pytest.raises(IllegalAction) as in_a_record:
        rings_table.act(
            game["id"],
            game["version"],
            {"dice": dice(red=4), "rotations": [{"ring": 0, "steps": 4}]},
        )
    assert str(in_a_record.value) == f"turn 1: {refused.value}"
    with pytest.raises(RecordError) as refused:
        rings_table.act(game["id"], game["version"], {"dice": {"red": 1}})
    assert str(refused.value) == "dice.blue: missing key"
    assert rings_table.get_game(game["id"])["version"] == game["version"]


def test_undo_after_a_confirm_keeps_the_dice_and_guides_the_rings_back(rings_table: Table) -> None:
    game = play_red_one(rings_table, new_game(rings_table))
    assert game["state"]["turns"] == 1
    game = rings_table.undo(game["id"], game["version"])
    state = game["state"]
    assert state["turns"] == 0
    assert state["dice"] == dice(red=1)
    assert state["dice_source"] == "kept"
    resync = state["resync"]
    assert resync["reason"] == "undo"
    assert resync["rings"][0] == {
        "ring": 0,
        "target": 0,
        "sensed": 1,
        "ok": False,
        "instruction": "turn ring 0 1 slot counter-clockwise (its mark to spoke 0)",
    }
    assert all(ring["ok"] for ring in resync["rings"][1:])
    with pytest.raises(Conflict, match="re-sync first"):
        rings_table.act(game["id"], game["version"], {"confirm": True})
    turn_ring(rings_table, 0, -1)  # turned back: the re-sync ends by itself
    game = settled_at(rings_table, game["id"], ZERO)
    assert game["state"]["resync"] is None
    turn_ring(rings_table, 0, 1)  # the same turn again with the same dice
    game = settled_at(rings_table, game["id"], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    game = rings_table.act(game["id"], game["version"], {"confirm": True})
    assert game["state"]["turns"] == 1


def test_undo_after_the_dice_of_the_next_turn_reopens_the_last_turn(rings_table: Table) -> None:
    game = play_red_one(rings_table, new_game(rings_table))
    game = rings_table.act(game["id"], game["version"], {"dice": dice(blue=2)})
    game = rings_table.undo(game["id"], game["version"])
    assert game["state"]["turns"] == 0
    assert game["state"]["dice"] == dice(red=1)  # the undone turn's dice, not Bo's
    assert game["state"]["to_move"] == "Ann"


def test_undo_in_the_middle_of_turning_guides_every_turned_ring_back(rings_table: Table) -> None:
    game = play_red_one(rings_table, new_game(rings_table))
    game = rings_table.act(game["id"], game["version"], {"dice": dice(blue=2)})
    turn_ring(rings_table, 1, 2)
    game = settled_at(rings_table, game["id"], [1, 2, 0, 0, 0, 0, 0, 0, 0, 0])
    game = rings_table.undo(game["id"], game["version"])
    guide = game["state"]["resync"]["rings"]
    assert [ring["instruction"] for ring in guide[:3]] == [
        "turn ring 0 1 slot counter-clockwise (its mark to spoke 0)",
        "turn ring 1 2 slots counter-clockwise (its mark to spoke 0)",
        None,
    ]
    turn_ring(rings_table, 1, -2)
    wait_for(lambda: rings_table.get_game(game["id"])["state"]["resync"]["rings"][1]["ok"])
    assert rings_table.get_game(game["id"])["state"]["resync"]["done"] is False
    turn_ring(rings_table, 0, -1)
    wait_for(lambda: rings_table.get_game(game["id"])["state"]["resync"] is None)


def test_undo_with_no_confirmed_turn_is_refused(rings_table: Table) -> None:
    game = new_game(rings_table)
    game = rings_table.act(game["id"], game["version"], {"dice": dice(red=1)})
    with pytest.raises(Conflict) as refused:
        rings_table.undo(game["id"], game["version"])
    assert str(refused.value) == "nothing to undo: no turn yet"
    assert rings_table.get_game(game["id"])["version"] == game["version"]


def test_the_undo_button_undoes_the_last_confirmed_turn(rings_table: Table) -> None:
    game = play_red_one(rings_table, new_game(rings_table))
    # The bundled pin map wires no undo button (every free pin is taken); the table gets
    # a press exactly as firmware.buttons.Buttons reports one.
    rings_table.when_button("undo")
    game = wait_for(
        lambda: (g := rings_table.get_game(game["id"]))["version"] == game["version"] + 1 and g
    )
    assert game["state"]["turns"] == 0
    assert game["state"]["dice"] == dice(red=1)


def test_the_done_button_with_a_wrong_turn_says_why_on_the_panel(rings_table: Table) -> None:
    game = new_game(rings_table)
    game = rings_table.act(game["id"], game["version"], {"dice": dice(red=1)})
    rings_table.emulator_press("done")
    refusal = wait_for(lambda: rings_table.get_game(game["id"])["state"]["refusal"])
    assert refusal == ("the done button: turn 1: the red die shows 1 but no red ring turned")
    assert rings_table.get_game(game["id"])["version"] == game["version"]


def test_after_a_restart_the_table_asks_before_the_game_goes_on(tmp_path: Path) -> None:
    with Table(tmp_path, opener()) as table:
        game = play_red_one(table, new_game(table))
        game_id = game["id"]
        last_turn = game["state"]["last_turn"]
        settled_at(table, game_id, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    with Table(tmp_path, opener()) as table:
        assert table.board()["offsets"] == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # resumed from disk
        game = table.get_game(game_id)
        assert game["state"]["last_turn"] == last_turn
        resync = game["state"]["resync"]
        assert resync["reason"] == "restart"
        assert english(resync["prompt"]) == (
            "the companion restarted: check that no ring was moved while it was off"
        )
        assert all(ring["ok"] for ring in resync["rings"])
        game = table.act(game_id, game["version"], {"dice": dice(blue=1)})
        turn_ring(table, 1, 1)
        game = settled_at(table, game_id, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
        assert game["state"]["resync"]["reason"] == "restart"  # still waits for the seat
        with pytest.raises(Conflict) as refused:
            table.act(game_id, game["version"], {"confirm": True})
        assert str(refused.value) == (
            "turn 2: cannot confirm: re-sync first: the companion restarted: "
            "check that no ring was moved while it was off"
        )
        game = table.act(game_id, game["version"], {"accept_offsets": True})
        assert game["state"]["resync"] is None
        game = table.act(game_id, game["version"], {"confirm": True})
        assert game["state"]["turns"] == 2


def test_a_resumed_game_guides_the_rings_to_its_offsets(rings_table: Table) -> None:
    first = play_red_one(rings_table, new_game(rings_table))
    second = rings_table.create_game(dict(TWO_SEATS))
    assert second["state"]["resync"]["reason"] == "new"
    turn_ring(rings_table, 0, -1)
    wait_for(lambda: rings_table.get_game(second["id"])["state"]["resync"] is None)
    resumed = rings_table.act(first["id"], first["version"], {"resume": True})
    assert resumed["state"]["on_board"] is True
    assert resumed["state"]["resync"]["reason"] == "resume"
    assert resumed["state"]["resync"]["rings"][0]["instruction"] == (
        "turn ring 0 1 slot clockwise (its mark to spoke 1)"
    )
    assert rings_table.get_game(second["id"])["state"]["on_board"] is False
    turn_ring(rings_table, 0, 1)
    wait_for(lambda: rings_table.get_game(first["id"])["state"]["resync"] is None)


def test_an_imported_game_goes_on_the_board_with_a_re_sync(rings_table: Table) -> None:
    record = {
        **{k: v for k, v in TWO_SEATS.items() if k != "kind"},
        "game": "rings",
        "turns": [{"dice": dice(blue=2), "rotations": [{"ring": 6, "steps": -2}]}],
    }
    game = rings_table.create_game({"record": record})
    assert game["state"]["turns"] == 1
    assert game["state"]["resync"]["reason"] == "import"
    assert game["state"]["resync"]["rings"][6]["target"] == 14
    turn_ring(rings_table, 6, -2)
    wait_for(lambda: rings_table.get_game(game["id"])["state"]["resync"] is None)


def test_accept_offsets_with_no_re_sync_is_refused(rings_table: Table) -> None:
    game = new_game(rings_table)
    with pytest.raises(Conflict) as refused:
        rings_table.act(game["id"], game["version"], {"accept_offsets": True})
    assert str(refused.value) == "nothing to accept: no re-sync is in progress"


def test_zero_and_set_calibrate_the_rings_and_are_stored(tmp_path: Path) -> None:
    with Table(tmp_path, opener()) as table:
        turn_ring(table, 4, 3)
        wait_for(lambda: table.board()["rings"][4]["settled"] and table.board()["offsets"][4] == 3)
        assert table.zero_rings()["offsets"] == ZERO
        assert table.set_ring_offset(2, 5)["offsets"] == [0, 0, 5, 0, 0, 0, 0, 0, 0, 0]
        with pytest.raises(NotFound) as missing:
            table.set_ring_offset(10, 1)
        assert str(missing.value) == "no ring 10: rings are 0..9"
        with pytest.raises(RecordError) as bad:
            table.set_ring_offset(2, 16)
        assert str(bad.value) == "offset: 16 is out of 0..15"
    with Table(tmp_path, opener()) as table:
        assert table.board()["offsets"] == [0, 0, 5, 0, 0, 0, 0, 0, 0, 0]


def test_emulator_controls_need_emulated_rings(table: Table) -> None:
    with pytest.raises(Conflict) as refused:
        table.emulator_turn(0, 1)
    assert str(refused.value) == "no ring board is attached"


def test_emulator_turn_checks_the_ring_and_the_detents(rings_table: Table) -> None:
    with pytest.raises(NotFound) as missing:
        rings_table.emulator_turn(10, 1)
    assert str(missing.value) == "no ring 10: rings are 0..9"
    with pytest.raises(RecordError) as bad:
        rings_table.emulator_turn(0, 1001)
    assert str(bad.value) == "detents: 1001 is out of -1000..1000"
    with pytest.raises(NotFound) as button:
        rings_table.emulator_press("reset")
    assert str(button.value) == "no button 'reset': the pin map wires done"


def test_emulator_controls_are_forbidden_on_real_hardware(tmp_path: Path) -> None:
    pin_map, led_map = load_pin_map(), load_led_map()

    def real_looking(report_ring: Any, report_button: Any, spokes: int, offsets: Any) -> Any:
        hardware = Hardware.open(
            pin_map, led_map, spokes, True, report_ring, report_button, offsets
        )
        # The same parts, but reporting themselves as a Pi's (no turner, not emulated).
        from dataclasses import replace

        return replace(hardware, emulated=False, turner=None)

    with Table(tmp_path, real_looking) as table:
        with pytest.raises(Forbidden) as refused:
            table.emulator_turn(0, 1)
        assert str(refused.value) == (
            "emulator controls work only in emulation, not on real hardware"
        )
