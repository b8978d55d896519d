"""Computer seats and the advisor at the ring board, on a real Table with emulated rings.

Real SQLite, the firmware's real decoder and ring bank on mock pins; the computer seat turns
the emulated rings through the firmware's ring turner (the emulator buttons' path), and at a
"physical" board (the same pins, the table not told they are emulated) the test's hand turns
them.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.catalogue import render
from companion.games import rings
from companion.games.base import RecordError, replay
from companion.players import rings as players
from companion.table import Conflict, Table
from companion.table.computer import rotation_words
from companion.table.led_scenes import (
    CHASE_GAP,
    DIE_COLOURS,
    OFF,
    Chase,
    Scene,
    chase_lit,
    render_frame,
)
from firmware.hardware import Hardware
from firmware.maps import LedMap, load_led_map, load_pin_map
from tests.conftest import run_cli
from tests.phrase_json import english, from_json
from tests.table.conftest import NO_DICE, SETTLE_MS, opener, wait_for

SEED = 11
COMPUTER_FIRST: dict[str, Any] = {
    "kind": "rings",
    "board": "reference",
    "variant": "standard",
    "seed": SEED,
    "seats": [
        {"name": "Ann", "corner": 0, "computer": "medium"},
        {"name": "Bo", "corner": 2, "hints": True},
    ],
}


def fast(table: Table) -> Table:
    table.computer.turn_pause_s = 0.01
    return table


@pytest.fixture
def rings_table(tmp_path: Path) -> Iterator[Table]:
    with Table(tmp_path / "data", opener()) as running:
        yield fast(running)


def played(table: Table, game_id: str, turns: int) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        game = table.get_game(game_id)
        return game if game["state"]["turns"] == turns else None

    found: dict[str, Any] = wait_for(check, timeout=20)
    return found


# The words and the LEDs, by hand ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("ring", "steps", "words"),
    [
        (5, 2, "turn ring 5 two slots clockwise"),
        (1, -1, "turn ring 1 one slot counter-clockwise"),
        (9, 8, "turn ring 9 eight slots clockwise"),
        (0, -12, "turn ring 0 12 slots counter-clockwise"),
    ],
)
def test_a_rotation_is_announced_in_words(ring: int, steps: int, words: str) -> None:
    assert rotation_words(rings.Rotation(ring, steps)) == words


def test_the_chase_lights_every_fourth_spoke_stepping_in_the_direction_to_turn() -> None:
    assert CHASE_GAP == 4
    clockwise = [[s for s in range(8) if chase_lit(s, 1, phase)] for phase in range(3)]
    assert clockwise == [[0, 4], [1, 5], [2, 6]]
    counter = [[s for s in range(8) if chase_lit(s, -1, phase)] for phase in range(3)]
    assert counter == [[0, 4], [3, 7], [2, 6]]


def test_a_chase_takes_the_spoke_pixels_in_the_rings_die_colour() -> None:
    led_map = LedMap(spokes=(0, 1, 2, 3, 4, 5, 6, 7), bases=(8,))
    scene = Scene(
        open_paths=frozenset({1}),
        snipes=frozenset({2}),
        chase=Chase(ring=3, direction=-1, colour="yellow"),
    )
    yellow = DIE_COLOURS["yellow"]
    assert yellow == (255, 200, 0)
    assert render_frame(scene, led_map, 9, phase=1) == [
        OFF,
        OFF,
        OFF,
        yellow,
        OFF,
        OFF,
        OFF,
        yellow,
        OFF,
    ]
    assert scene.blinks is True
    # The illegal-turn pulse still wins.
    assert render_frame(replace(scene, illegal=True), led_map, 9, phase=1)[:8] == [(255, 0, 0)] * 8


# Settings ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "variant", "message"),
    [
        (
            [{"name": "Ann", "corner": 0, "computer": "expert"}, {"name": "Bo", "corner": 2}],
            "standard",
            "seats[0].computer: 'expert' is not one of easy, medium, hard",
        ),
        (
            [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2, "computer": 2}],
            "standard",
            "seats[1].computer: expected a string, got a number",
        ),
        (
            [{"name": "Ann", "corner": 0, "computer": "easy"}],
            "solo",
            "seats[0].computer: a computer seat needs another seat to play against "
            "(this game has one seat)",
        ),
        (
            [{"name": "Ann", "corner": 0, "hints": "yes"}, {"name": "Bo", "corner": 2}],
            "standard",
            "seats[0].hints: expected true or false, got a string",
        ),
    ],
)
def test_bad_computer_or_hints_settings_are_refused_naming_the_seat(
    tmp_path: Path, seats: list[dict[str, Any]], variant: str, message: str
) -> None:
    with Table(tmp_path) as table:
        with pytest.raises(RecordError) as caught:
            table.create_game(
                {"kind": "rings", "board": "reference", "variant": variant, "seats": seats}
            )
        assert str(caught.value) == message
        assert table.list_games() == []


def test_seat_settings_survive_a_restart_and_the_export_replays(tmp_path: Path) -> None:
    body = {**COMPUTER_FIRST, "seats": [dict(s) for s in COMPUTER_FIRST["seats"]]}
    body["seats"][0]["computer"] = "hard"
    with Table(tmp_path) as table:  # no ring board: the computer posts its turns itself
        game = table.create_game(body)
        game = played(table, game["id"], 1)
    with Table(tmp_path) as table:
        state = table.get_game(game["id"])["state"]
        assert state["players"] == [
            {"name": "Ann", "computer": "hard", "hints": False},
            {"name": "Bo", "computer": None, "hints": True},
        ]
        record = table.export(game["id"])
    assert record["seats"][0]["computer"] == "hard"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = run_cli(["replay", str(path)])
    assert result.status == 0, result.stderr
    assert json.loads(result.stdout)["turns"] == 1


# A computer seat's whole turn in emulation ----------------------------------------------------


def test_a_computer_seats_whole_turn_in_emulation(rings_table: Table) -> None:
    table = rings_table
    subscription = table.subscribe()
    game = table.create_game(COMPUTER_FIRST)
    game_id = game["id"]
    after = played(table, game_id, 1)
    items = []
    while (item := subscription.get(timeout=0.1)) is not None:
        items.append(item)
    subscription.close()
    # The seat rolled its dice with the game's seeded generator (the first roll).
    record = table.export(game_id)
    turn = record["turns"][0]
    board = rings.load_board("reference")
    assert turn["dice"] == rings.roll(random.Random(f"{SEED}:0"), board)
    # It chose as the medium player does for that roll.
    start = rings.new_game({k: v for k, v in COMPUTER_FIRST.items() if k != "kind"})
    chosen = players.choose(start, turn["dice"], "medium", random.Random())
    assert {(r["ring"], r["steps"]) for r in turn["rotations"]} == {
        (r.ring, r.steps) for r in chosen
    }
    # The announcement reached the panel before the confirm, ring by ring in words.
    announced = [
        i["state"]["computer"]
        for i in items
        if i.get("type") == "game"
        and i.get("state", {}).get("computer", {})
        and i["state"]["computer"]["stage"] == "turning"
    ]
    assert announced, "no announcement was published"
    words = {english(r["phrase"]) for r in announced[0]["rings"]}
    assert words == {rotation_words(r) for r in chosen}
    assert english(announced[0]["phrase"]).startswith("Ann (computer) rolled red ")
    # Its words once, as phrases: a German phone reads them in German.
    assert "text" not in announced[0] and all("text" not in r for r in announced[0]["rings"])
    assert render(from_json(announced[0]["phrase"]), "de").startswith("Ann (Computer) hat Rot ")
    # The emulated rings turned (genuine edges: 4 per detent, 1 detent per slot).
    edges = [r["edges"] for r in table.board()["rings"]]
    steps = {r.ring: abs(r.steps) for r in chosen}
    assert edges == [4 * steps.get(ring, 0) for ring in range(10)]
    # Confirmed: the journal, the outcome and the instructions are the engine's.
    outcome = rings.resolve(start, rings.parse_action(start, turn))
    state = after["state"]
    assert state["last_turn"] == [rings.describe(e, start).to_json() for e in outcome.events]
    assert state["log"] == [{"action": turn, "instructions": state["last_turn"]}]
    assert state["offsets"] == list(outcome.state.offsets)
    assert state["to_move"] == "Bo"
    assert state["computer"] is None
    assert state["computer_last"]["turn"] == 1
    assert state["computer_last"]["stage"] == "played"
    assert rings.summary(replay(rings, record)) == {
        k: v for k, v in state.items() if k in rings.summary(outcome.state)
    }


def test_the_human_then_plays_and_the_computer_answers(rings_table: Table) -> None:
    table = rings_table
    game = played(table, table.create_game(COMPUTER_FIRST)["id"], 1)
    game_id = game["id"]
    game = table.act(game_id, game["version"], {"dice": NO_DICE})
    game = table.act(game_id, game["version"], {"confirm": True})
    assert game["state"]["turns"] == 2
    played(table, game_id, 3)  # the computer seat plays on by itself


def test_after_an_undo_the_computer_waits_until_told_to_play(rings_table: Table) -> None:
    table = rings_table
    game = played(table, table.create_game(COMPUTER_FIRST)["id"], 1)
    game_id = game["id"]
    turn = game["state"]["log"][0]["action"]
    game = table.undo(game_id, game["version"])
    for rotation in turn["rotations"]:  # turn the rings back, as the re-sync guide says
        table.emulator_turn(rotation["ring"], -rotation["steps"])
    wait_for(lambda: table.get_game(game_id)["state"]["resync"] is None)
    time.sleep(0.3)
    game = table.get_game(game_id)
    assert game["state"]["turns"] == 0
    assert game["state"]["computer_waiting"] == "Ann"
    assert game["state"]["computer"] is None
    game = table.act(game_id, game["version"], {"play": True})
    again = played(table, game_id, 1)
    assert again["state"]["log"][0]["action"]["dice"] == turn["dice"]  # the kept dice
    with pytest.raises(Conflict) as caught:
        table.act(game_id, again["version"], {"play": True})
    assert str(caught.value) == "no computer seat is waiting to play in this game"


# At a physical board: the table's hand turns the rings -----------------------------------------


def test_at_a_real_board_the_computer_waits_for_the_rings_to_stand_as_announced(
    tmp_path: Path,
) -> None:
    pin_map, led_map = load_pin_map(), load_led_map()
    hardware = Hardware.open(
        pin_map, led_map, 16, True, lambda r: None, lambda b: None, settle_ms=SETTLE_MS
    )
    hand = hardware.turner
    assert hand is not None
    hardware.close()

    def open_real_looking(
        report_ring: Any, report_button: Any, spokes: int, offsets: Any
    ) -> Hardware:
        nonlocal hand
        opened = Hardware.open(
            pin_map, led_map, spokes, True, report_ring, report_button, offsets, settle_ms=SETTLE_MS
        )
        hand = opened.turner
        return replace(opened, emulated=False, turner=None)  # the table sees a real board

    with Table(tmp_path, open_real_looking) as table:
        game = table.create_game(COMPUTER_FIRST)
        game_id = game["id"]
        announced = wait_for(
            lambda: (table.get_game(game_id)["state"]["computer"] or {}).get("rings")
        )
        colours = [ring.colour for ring in rings.load_board("reference").rings]
        first = announced[0]

        # The LEDs chase on every fourth spoke in the first ring's die colour.
        def chasing() -> bool:
            spokes = table.board()["leds"][:16]
            lit = [i for i, pixel in enumerate(spokes) if pixel != list(OFF)]
            colour = list(DIE_COLOURS[colours[first["ring"]]])
            return (
                len(lit) == 4
                and all(spokes[i] == colour for i in lit)
                and all((i - lit[0]) % 4 == 0 for i in lit)
            )

        wait_for(chasing)
        assert hand is not None
        # One slot short on the first ring: nothing is confirmed.
        for ring in announced:
            short = (
                ring["steps"] - (1 if ring["steps"] > 0 else -1) if ring is first else ring["steps"]
            )
            if short:
                hand.turn(ring["ring"], short)
        time.sleep(0.5)
        game = table.get_game(game_id)
        assert game["state"]["turns"] == 0
        assert game["state"]["computer"]["rings"][0]["done"] is False
        hand.turn(first["ring"], 1 if first["steps"] > 0 else -1)
        game = played(table, game_id, 1)
        assert {
            (r["ring"], r["steps"]) for r in game["state"]["log"][0]["action"]["rotations"]
        } == {(r["ring"], r["steps"]) for r in announced}


# The advisor -------------------------------------------------------------------------------------


def test_hints_are_the_advisors_best_three_for_the_roll_and_only_on_request(
    rings_table: Table,
) -> None:
    table = rings_table
    human_first = {**COMPUTER_FIRST, "seats": list(reversed(COMPUTER_FIRST["seats"]))}
    human_first["seats"] = [
        {**human_first["seats"][0], "corner": 0},
        {**human_first["seats"][1], "corner": 2},
    ]
    game = table.create_game(human_first)
    game_id = game["id"]
    with pytest.raises(Conflict) as caught:
        table.hints(game_id)
    assert (
        str(caught.value) == "enter or roll the dice first: the hints are for the roll on the table"
    )
    dice = {**NO_DICE, "red": 1, "blue": 2}
    game = table.act(game_id, game["version"], {"dice": dice})
    assert "hints" not in game["state"]  # never in the game's state unasked
    answer = table.hints(game_id)
    state = rings.new_game({k: v for k, v in human_first.items() if k != "kind"})
    best = players.advise(state, dice, 3)
    assert answer["seat"] == "Bo"
    assert answer["dice"] == dice
    assert [o["text"] for o in answer["options"]] == [o.text for o in best]
    assert [o["points"] for o in answer["options"]] == [o.points for o in best]
    assert len(answer["options"]) == 3
