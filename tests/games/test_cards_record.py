"""The card game's record is read strictly: a setup that is not an object or names another
game, and a table entry for a mandala that does not exist, are refused with the key named."""

from __future__ import annotations

from typing import Any, cast

import pytest

from companion.games import cards
from companion.games.base import RecordError
from tests.games.cards_support import make_deck, record, table

DECK = make_deck(
    m0=["red", "orange"],
    m1=["yellow", "green"],
    ann=["red", "red", "yellow", "purple", "black", "black"],
    bo=["purple", "purple", "purple", "purple", "orange", "red"],
)


@pytest.mark.parametrize("setup", [[], "cards", 7, None])
def test_a_setup_that_is_not_an_object_is_refused(setup: Any) -> None:
    with pytest.raises(RecordError, match=r"^record: expected an object, got "):
        cards.new_game(cast(Any, setup))


@pytest.mark.parametrize("game", ["rings", "Cards", 1])
def test_a_setup_of_another_game_is_refused_naming_it(game: Any) -> None:
    with pytest.raises(RecordError, match=rf"^game: {game!r} is not 'cards'$"):
        cards.new_game(record(DECK, game=game))


def test_a_setup_that_names_the_card_game_is_read() -> None:
    assert cards.new_game(record(DECK, game="cards")) == cards.new_game(record(DECK))


@pytest.mark.parametrize("mandala", [0, 1])
def test_a_deal_entry_for_either_mandala_is_read(mandala: int) -> None:
    action = cards.parse_action(table(), {"deal": mandala, "colours": ["red", "red"]})
    assert action == cards.Deal(mandala, ("red", "red"))


@pytest.mark.parametrize("mandala", [-1, 2])
def test_a_deal_entry_for_a_mandala_that_does_not_exist_is_refused(mandala: int) -> None:
    with pytest.raises(RecordError, match=rf"^deal: {mandala} is out of 0\.\.1$"):
        cards.parse_action(table(), {"deal": mandala, "colours": ["red", "red"]})
