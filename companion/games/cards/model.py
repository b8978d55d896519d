"""The card game's values: colours, card counts, actions and the frozen game state."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "purple", "black")
"""The six colours, in the order every count and summary lists them."""

PER_COLOUR = 18
DECK_SIZE = PER_COLOUR * len(COLOURS)  # 108
HAND_LIMIT = 8
MOUNTAIN_DRAW = 3
START_HAND = 6
START_CUP = 2
MOUNTAIN_DEAL = 2
RIVER_SPACES = 6
TABLE_START_DECK = DECK_SIZE - 2 * MOUNTAIN_DEAL - 2 * START_HAND - 2 * START_CUP  # 88

Mode = Literal["play", "table"]
MODES: tuple[Mode, ...] = ("play", "table")

Cards = tuple[int, ...]
"""How many cards of each colour, in :data:`COLOURS` order (always six numbers)."""


def cards_of(colours: Iterable[str]) -> Cards:
    """Count a sequence of colour names."""
    counts = [0] * len(COLOURS)
    for colour in colours:
        counts[COLOURS.index(colour)] += 1
    return tuple(counts)


def cards_to_json(cards: Cards) -> dict[str, int]:
    """Name the counts, zeros left out, in colour order (the summary's colour counts)."""
    return {colour: n for colour, n in zip(COLOURS, cards, strict=True) if n}


def sorted_cards(cards: Cards) -> list[str]:
    """Every card one by one, colour by colour."""
    return [colour for colour, n in zip(COLOURS, cards, strict=True) for _ in range(n)]


# Actions. A turn is a MountainPlay, FieldPlay or Discard; a Claim is one step of a
# destruction; Deal and CupEntry exist only when tracking a real table (mode "table").


@dataclass(frozen=True)
class MountainPlay:
    """Put one card of ``colour`` from hand into the mountain of ``mandala``."""

    mandala: int
    colour: str


@dataclass(frozen=True)
class FieldPlay:
    """Put ``count`` cards of ``colour`` from hand into the mover's own field of ``mandala``."""

    mandala: int
    colour: str
    count: int


@dataclass(frozen=True)
class Discard:
    """Put ``count`` cards of ``colour`` from hand on the discard pile, then draw as many."""

    colour: str
    count: int


@dataclass(frozen=True)
class Claim:
    """Take every card of ``colour`` from the mountain under destruction."""

    colour: str


@dataclass(frozen=True)
class Deal:
    """Table mode: the cards turned face up into mountain ``mandala``."""

    mandala: int
    colours: tuple[str, ...]


@dataclass(frozen=True)
class CupEntry:
    """Table mode: the colours of ``seat``'s two starting cup cards, entered at the end."""

    seat: str
    colours: tuple[str, ...]


Action = MountainPlay | FieldPlay | Discard | Claim | Deal | CupEntry


@dataclass(frozen=True)
class Claiming:
    """A destruction under way: its mandala, the seat that chose first, the completer."""

    mandala: int
    chooser: int
    completer: int


@dataclass(frozen=True)
class Due:
    """Table mode: the entry the table owes before play goes on.

    ``kind`` "deal" names a mountain (``index``; ``setup`` for the two deals of section 1,
    which the deck count of 88 already leaves out), "cup" names a seat.
    """

    kind: Literal["deal", "cup"]
    index: int
    setup: bool = False


@dataclass(frozen=True)
class State:
    """Everything about one game, between two actions.

    In play mode every card is known: ``deck`` is the draw order (top first). When tracking
    a real table the engine sees only public cards: the deck, the hands and the starting
    cups are counts (``deck_unseen``, ``hands_unseen``, ``cups_unseen``) and ``deck`` and
    ``hands`` hold nothing. Per mandala ``fields[m][s]`` is seat ``s``'s field.
    """

    mode: Mode
    seats: tuple[str, str]
    deck: tuple[str, ...]
    deck_unseen: int
    reshuffles: tuple[tuple[str, ...], ...]
    """The record's new decks, one per reshuffle (plus any generated from ``seed``)."""
    reshuffled: int
    """How many reshuffles have happened: ``reshuffles[:reshuffled]`` were used."""
    seed: int | None
    hands: tuple[Cards, Cards]
    hands_unseen: tuple[int, int]
    cups: tuple[Cards, Cards]
    cups_unseen: tuple[int, int]
    rivers: tuple[tuple[str, ...], tuple[str, ...]]
    mountains: tuple[Cards, Cards]
    fields: tuple[tuple[Cards, Cards], tuple[Cards, Cards]]
    discard: Cards
    seat: int
    """The seat to act: the mover, the claimer during a destruction, or (while a deal is
    due) the seat that moves once it is in."""
    claiming: Claiming | None
    due: Due | None
    end_triggered: bool
    """The deck was reshuffled: the next destruction to finish ends the game."""
    over: bool
    actions: int
    """Actions applied so far (claims, and in table mode deals and cup entries, included)."""

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds."""
        return sum(self.hands[seat]) + self.hands_unseen[seat]

    def deck_size(self) -> int:
        """How many cards are left to draw before a reshuffle."""
        return len(self.deck) + self.deck_unseen


def other(seat: int) -> int:
    """The other seat of two."""
    return 1 - seat
