"""The LED frame as a pure function of the table's state (hardware.md, "LEDs").

:func:`scene_of` picks out of the game and the live turn what the strip shows;
:func:`render_frame` turns a scene into one colour per pixel through the owner's LED map.
Brightness and the current limit are the strip's business (``firmware.leds``); colours here
are full-scale.

- spoke: green (steady) where a full black path runs into Central Control; the moving seat's
  colour (steady) where one of its pegs would advance if the turn ended now; red, blinking
  fast, where a snipe would happen; white, blinking slowly, where a ring's mark must go
  during a re-sync; every spoke red for one pulse when the rings make an illegal turn;
- base: the seat's colour, full for the seat to move, dim for the others;
- scores: one lit pixel per point in the seat's colour;
- a computer seat's announced turn: while a ring it announced still has to turn, the spoke
  pixels chase round the rim in the direction to turn it, in its die colour (one lit pixel
  in every :data:`CHASE_GAP`, moving one spoke per quarter second), over everything else but
  the illegal-turn pulse.

The blink rhythm (``phase``, counted in quarter seconds) tells a snipe from a path without
relying on colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from companion.games import rings

RGB = tuple[int, int, int]

OFF: RGB = (0, 0, 0)
GREEN: RGB = (0, 255, 0)
RED: RGB = (255, 0, 0)
WHITE: RGB = (255, 255, 255)
DIM = 4
"""Bases of the seats not to move shine at 1/DIM of their colour."""
CHASE_GAP = 4
"""A chase lights one spoke pixel in this many."""

#: The dice colours (a chase shows the colour of the ring to turn).
DIE_COLOURS: dict[str, RGB] = {
    "red": (255, 0, 0),
    "blue": (0, 0, 255),
    "green": (0, 255, 0),
    "yellow": (255, 200, 0),
    "brown": (150, 60, 0),
}

#: Seat colours (rings.md section 2 and any a record may name) as pixels.
SEAT_COLOURS: dict[str, RGB] = {
    "orange": (255, 96, 0),
    "purple": (160, 0, 255),
    "cyan": (0, 255, 255),
    "white": (255, 255, 255),
    "pink": (255, 64, 160),
    "magenta": (255, 0, 255),
    "black": (40, 40, 40),
    "grey": (128, 128, 128),
    "gray": (128, 128, 128),
    "silver": (192, 192, 192),
    "gold": (255, 190, 0),
    "violet": (140, 60, 255),
    "indigo": (75, 0, 130),
    "teal": (0, 128, 128),
    "lime": (128, 255, 0),
    "navy": (0, 0, 128),
}


def seat_rgb(colour: str) -> RGB:
    """A seat colour's pixel value (an unknown name shines white)."""
    return SEAT_COLOURS.get(colour.lower(), WHITE)


class LedMapLike(Protocol):
    """The roles of ``firmware.maps.LedMap``: pixel indices per spoke, entrance, base, score."""

    @property
    def spokes(self) -> tuple[int, ...]: ...
    @property
    def entrances(self) -> tuple[int, ...]: ...
    @property
    def bases(self) -> tuple[int, ...]: ...
    @property
    def scores(self) -> tuple[tuple[int, ...], ...]: ...


@dataclass(frozen=True)
class Base:
    """One base's pixel: its corner, the seat's colour, whether that seat moves next."""

    corner: int
    colour: str
    to_move: bool


@dataclass(frozen=True)
class Score:
    """One corner's score pixels: the seat's points and colour."""

    corner: int
    points: int
    colour: str


@dataclass(frozen=True)
class Chase:
    """A ring a computer seat announced that still has to turn: which way, in which colour.

    ``direction`` is +1 (clockwise: spoke numbers go up) or -1 (counter-clockwise).
    """

    ring: int
    direction: int
    colour: str


def chase_lit(spoke: int, direction: int, phase: int) -> bool:
    """Say whether a chase lights ``spoke`` at ``phase``: the lit spokes step one spoke per
    phase in ``direction`` (+1 clockwise, -1 counter-clockwise)."""
    return (spoke - direction * phase) % CHASE_GAP == 0


@dataclass(frozen=True)
class Scene:
    """Everything a frame depends on (all of it derived from the table's state)."""

    open_paths: frozenset[int] = frozenset()
    advance: frozenset[int] = frozenset()
    mover_colour: str | None = None
    snipes: frozenset[int] = frozenset()
    guide: frozenset[int] = frozenset()
    illegal: bool = False
    bases: tuple[Base, ...] = ()
    scores: tuple[Score, ...] = ()
    chase: Chase | None = None

    @property
    def blinks(self) -> bool:
        """Say whether the frame changes with the phase (the table re-renders it on a timer)."""
        return bool(self.snipes or self.guide or self.chase)


def dim(colour: RGB, factor: int = DIM) -> RGB:
    """The colour at 1/``factor`` of its brightness."""
    return (colour[0] // factor, colour[1] // factor, colour[2] // factor)


def spoke_colour(scene: Scene, spoke: int, phase: int) -> RGB:
    """The colour of one spoke pixel; the most urgent meaning wins."""
    if scene.illegal:
        return RED
    if scene.chase is not None:
        lit = chase_lit(spoke, scene.chase.direction, phase)
        return DIE_COLOURS.get(scene.chase.colour, WHITE) if lit else OFF
    if spoke in scene.snipes:
        return RED if phase % 2 == 0 else OFF
    if spoke in scene.guide:
        return WHITE if phase % 4 < 2 else OFF
    if spoke in scene.advance and scene.mover_colour is not None:
        return seat_rgb(scene.mover_colour)
    if spoke in scene.open_paths:
        return GREEN
    return OFF


def spokes_fit(led_map: LedMapLike, spokes: int | None) -> bool:
    """Say whether the map's spoke pixels can show a board of ``spokes`` spokes (one each).

    ``None`` (no board on the table) fits any map.
    """
    return spokes is None or len(led_map.spokes) == spokes


def spokes_warning(led_map: LedMapLike, spokes: int | None) -> str | None:
    """The panel's warning when the spoke pixels do not fit the board, else ``None``."""
    if spokes_fit(led_map, spokes) or not led_map.spokes:
        return None
    return (
        f"the LED map has {len(led_map.spokes)} spoke pixels but this board has {spokes} "
        "spokes: the spoke LEDs stay off (bases and scores still light)"
    )


def render_frame(
    scene: Scene, led_map: LedMapLike, count: int, phase: int = 0, spokes: int | None = None
) -> list[RGB]:
    """Return the colour of every pixel of a ``count``-pixel strip for ``scene``.

    ``phase`` counts quarter seconds (blinking elements alternate with it). Pixel indices
    the map gives beyond ``count`` are ignored; pixels the map does not name stay off.
    ``spokes``: the board's spokes; when the map's spoke pixels do not fit them
    (:func:`spokes_fit`), the spoke pixels stay off and only bases and scores light.
    """
    frame: list[RGB] = [OFF] * count

    def put(index: int, colour: RGB) -> None:
        if 0 <= index < count:
            frame[index] = colour

    if spokes_fit(led_map, spokes):
        for spoke, index in enumerate(led_map.spokes):
            put(index, spoke_colour(scene, spoke, phase))
    for base in scene.bases:
        if 0 <= base.corner < len(led_map.bases):
            colour = seat_rgb(base.colour)
            put(led_map.bases[base.corner], colour if base.to_move else dim(colour))
    for score in scene.scores:
        if 0 <= score.corner < len(led_map.scores):
            pixels = led_map.scores[score.corner]
            for number, index in enumerate(pixels):
                put(index, seat_rgb(score.colour) if number < score.points else OFF)
    return frame


def blank(count: int) -> list[RGB]:
    """Every pixel off."""
    return [OFF] * count


def scene_of_rings(
    state: rings.State,
    *,
    open_paths: frozenset[int] = frozenset(),
    advance: frozenset[int] = frozenset(),
    snipes: frozenset[int] = frozenset(),
    guide: frozenset[int] = frozenset(),
    illegal: bool = False,
    chase: Chase | None = None,
) -> Scene:
    """Build the scene of a ring-board game from its state and its live turn.

    Each seat lights the corners the state gives its bases (two in the two-base variants),
    full for the seat to move (``state.to_move``), and its points at its own corner.
    """
    to_move = state.to_move
    bases: list[Base] = []
    score_pixels: list[Score] = []
    for number, seat in enumerate(state.seats):
        moving = to_move == number
        bases.extend(Base(corner, seat.colour, moving) for corner in state.bases(number))
        points = state.scores[number] if number < len(state.scores) else 0
        score_pixels.append(Score(seat.corner, points, seat.colour))
    mover = state.seats[to_move].colour if to_move is not None else None
    return Scene(
        open_paths=open_paths,
        advance=advance,
        mover_colour=mover,
        snipes=snipes,
        guide=guide,
        illegal=illegal,
        bases=tuple(bases),
        scores=tuple(score_pixels),
        chase=chase,
    )
