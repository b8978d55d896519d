"""The LED frame: a pure function of the table's state, pixel by pixel, worked out by hand.

The bundled LED map: spokes 0-15 on pixels 0-15, entrances 16-19, bases 20-23, scores per
corner on 24-29, 30-35, 36-41, 42-47 (48 pixels).
"""

from __future__ import annotations

from companion.games import rings
from companion.table import Table
from companion.table.led_scenes import Base, Scene, Score, render_frame, scene_of_rings
from firmware.leds import scale_frame
from firmware.maps import load_led_map
from tests.table.conftest import TWO_SEATS, settled_at, turn_ring, wait_for

LED_MAP = load_led_map()
OFF = (0, 0, 0)
GREEN = (0, 255, 0)
RED = (255, 0, 0)
WHITE = (255, 255, 255)
ORANGE = (255, 96, 0)
PURPLE = (160, 0, 255)
DIM_PURPLE = (40, 0, 63)  # a quarter of purple, rounded down
CYAN = (0, 255, 255)
DIM_CYAN = (0, 63, 63)
DIM_ORANGE = (63, 24, 0)


def frame(**pixels: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """48 pixels off but those given as p<index>=colour."""
    out = [OFF] * 48
    for key, colour in pixels.items():
        out[int(key[1:])] = colour
    return out


SCENE = Scene(
    open_paths=frozenset({2, 6}),
    advance=frozenset({6}),
    mover_colour="orange",
    snipes=frozenset({10}),
    bases=(Base(0, "orange", True), Base(2, "purple", False)),
    scores=(Score(0, 2, "orange"), Score(2, 0, "purple")),
)


def test_paths_are_green_advances_the_movers_colour_snipes_blink_red() -> None:
    common = {"p2": GREEN, "p6": ORANGE, "p20": ORANGE, "p22": DIM_PURPLE}
    common |= {"p24": ORANGE, "p25": ORANGE}
    assert render_frame(SCENE, LED_MAP, 48, phase=0) == frame(**common, p10=RED)
    assert render_frame(SCENE, LED_MAP, 48, phase=1) == frame(**common)


def test_an_illegal_turn_turns_every_spoke_red() -> None:
    scene = Scene(open_paths=frozenset({2}), illegal=True, bases=(Base(1, "cyan", True),))
    spokes = {f"p{spoke}": RED for spoke in range(16)}
    assert render_frame(scene, LED_MAP, 48) == frame(**spokes, p21=(0, 255, 255))


def test_the_re_sync_guide_blinks_white_slowly_where_a_mark_must_go() -> None:
    scene = Scene(guide=frozenset({5}), open_paths=frozenset({5}))
    assert [render_frame(scene, LED_MAP, 48, phase)[5] for phase in range(4)] == [
        WHITE,
        WHITE,
        OFF,
        OFF,
    ]


def test_one_score_pixel_per_point_and_none_past_the_six() -> None:
    scene = Scene(scores=(Score(3, 6, "white"),))
    assert render_frame(scene, LED_MAP, 48) == frame(**{f"p{i}": WHITE for i in range(42, 48)})


def test_pixels_beyond_the_strip_are_left_out() -> None:
    assert render_frame(SCENE, LED_MAP, 8, phase=0) == [OFF, OFF, GREEN, OFF, OFF, OFF, ORANGE, OFF]


def test_an_empty_table_is_dark() -> None:
    assert render_frame(Scene(), LED_MAP, 48) == [OFF] * 48


def test_a_new_game_lights_the_open_paths_the_advance_and_the_bases(rings_table: Table) -> None:
    # Reference board, all offsets 0 (Ann corner 0 orange, Bo corner 2 cyan): spokes 2, 6,
    # 10 and 14 are full black paths. Ann's peg on (0, 2) would run in along spoke 2 and
    # enter, so spoke 2 shows Ann's orange.
    game = rings_table.create_game(dict(TWO_SEATS))
    settled_at(rings_table, game["id"], [0] * 10)
    expected = frame(p2=ORANGE, p6=GREEN, p10=GREEN, p14=GREEN, p20=ORANGE, p22=DIM_CYAN)
    assert rings_table.board()["leds"] == [list(pixel) for pixel in expected]
    strip = rings_table.hardware.strip
    assert strip.last_frame == scale_frame(expected, 0.5, 1500)


def test_turning_a_ring_moves_the_lights_live(rings_table: Table) -> None:
    # Ring 0 one slot clockwise: spoke s shows ring 0's slot s-1; of 2, 6, 10, 14 only
    # 10 (slot 9) stays black, and Ann's peg now rides to spoke 3, where ring 1 is coloured.
    game = rings_table.create_game(dict(TWO_SEATS))
    settled_at(rings_table, game["id"], [0] * 10)
    turn_ring(rings_table, 0, 1)
    settled_at(rings_table, game["id"], [1] + [0] * 9)
    expected = frame(p10=GREEN, p20=ORANGE, p22=DIM_CYAN)
    wait_for(lambda: rings_table.board()["leds"] == [list(pixel) for pixel in expected])


def test_after_a_confirmed_turn_the_other_seat_is_bright_and_the_score_shows(
    rings_table: Table,
) -> None:
    # All dice 0, no ring turned: Ann's peg enters Central Control on spoke 2 (1 point)
    # and a new peg enters at (0, 2). Then Bo (corner 2, purple) is to move; Bo's peg on
    # (0, 10) would run in along spoke 10, which is open. Corner 2's seat colour is cyan.
    game = rings_table.create_game(dict(TWO_SEATS))
    game = settled_at(rings_table, game["id"], [0] * 10)
    game = rings_table.act(
        game["id"],
        game["version"],
        {"dice": dict.fromkeys(("red", "blue", "green", "yellow", "brown"), 0)},
    )
    game = rings_table.act(game["id"], game["version"], {"confirm": True})
    assert game["state"]["scores"] == {"Ann": 1, "Bo": 0}
    expected = frame(p2=GREEN, p6=GREEN, p10=CYAN, p14=GREEN, p20=DIM_ORANGE, p22=CYAN, p24=ORANGE)
    assert rings_table.board()["leds"] == [list(pixel) for pixel in expected]


def test_a_two_bases_seat_lights_both_its_bases_as_the_state_gives_them() -> None:
    # Ann (corner 0) and Bo (corner 1) each also have the diagonal base: 2 and 3.
    state = rings.new_game(
        {
            "game": "rings",
            "board": "reference",
            "variant": "two-bases",
            "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 1}],
        }
    )
    assert [state.bases(0), state.bases(1)] == [(0, 2), (1, 3)]
    scene = scene_of_rings(state)
    shown = render_frame(scene, LED_MAP, 48)
    assert shown == frame(p20=ORANGE, p22=ORANGE, p21=DIM_PURPLE, p23=DIM_PURPLE)
