"""One colour per player: a name keeps its colour across games and kinds.

A player's colour is the one their earliest ring-board game gave them (that record names
it, the pegs and the LEDs show it); a name that never sat at the ring board gets a stable
pick from :data:`PALETTE` by its letters. Within one game two players never share a colour:
a later seat whose colour is taken gets the next free one. Colour is never the only signal:
the panel shows each seat's initial with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

PALETTE = ("orange", "purple", "cyan", "pink", "lime", "teal", "white")
"""Player colours (none is a ring colour, so ring-board seats may take any of them)."""


def stable_pick(name: str) -> str:
    """The palette colour a name gets when no ring-board game named one (FNV-1a of the
    lower-cased name; ``static/panel.js`` picks the same for names typed in a form)."""
    digest = 0x811C9DC5
    for byte in name.strip().lower().encode("utf-8"):
        digest = ((digest ^ byte) * 0x01000193) & 0xFFFFFFFF
    return PALETTE[digest % len(PALETTE)]


def known_colours(
    games: Iterable[tuple[float, Sequence[tuple[str, str | None]]]],
) -> dict[str, str]:
    """Each name's colour from its earliest game that names one.

    ``games``: ``(created, [(name, colour or None), ...])`` per game, in any order.
    """
    known: dict[str, str] = {}
    for _, seats in sorted(games, key=lambda game: game[0]):
        for name, colour in seats:
            if colour and name not in known:
                known[name] = colour
    return known


def seat_colours(seats: Sequence[tuple[str, str | None]], known: Mapping[str, str]) -> list[str]:
    """The colour each seat shows: its record's, else the player's, else a free one."""
    taken = {colour for _, colour in seats if colour}
    chosen: list[str] = []
    for name, colour in seats:
        if colour:
            chosen.append(colour)
            continue
        wanted = known.get(name) or stable_pick(name)
        if wanted in taken:
            start = PALETTE.index(wanted) if wanted in PALETTE else 0
            free = [PALETTE[(start + i) % len(PALETTE)] for i in range(len(PALETTE))]
            wanted = next((c for c in free if c not in taken), wanted)
        taken.add(wanted)
        chosen.append(wanted)
    return chosen
