"""Tracking a real table (cards.md section 10): deals, counts, claims, cup entries."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.games import cards
from companion.games.base import IllegalAction, RecordError
from companion.games.cards import Due, cards_of
from tests.conftest import SPEC_EXAMPLES
from tests.games.cards_support import play, summary, table

SETUP = ({"deal": 0, "colours": ["red", "orange"]}, {"deal": 1, "colours": ["yellow", "green"]})

DESTRUCTION = (
    *SETUP,
    {"field": 0, "colour": "yellow", "count": 1},
    {"field": 0, "colour": "green", "count": 1},
    {"mountain": 0, "colour": "purple"},
    {"mountain": 0, "colour": "black"},
    {"claim": "red"},
    {"claim": "orange"},
    {"claim": "purple"},
    {"claim": "black"},
)


def t2_entries() -> list[dict[str, object]]:
    record = json.loads((SPEC_EXAMPLES / "cards-t2-cups-decide.record.json").read_text())
    entries: list[dict[str, object]] = record["actions"]
    return entries


def test_setup_deals_are_due_before_anything_else() -> None:
    s = summary(table())
    assert s["due"] == {"deal": 0}
    assert s["to_move"] is None
    assert s["deck"] == 88
    assert s["hands"] == {"Ann": 6, "Bo": 6}
    s = summary(table(SETUP[0]))
    assert s["due"] == {"deal": 1}
    assert s["mandalas"][0]["mountain"] == {"red": 1, "orange": 1}


def test_setup_deals_do_not_lower_the_deck_count() -> None:
    s = summary(table(*SETUP))
    assert s["due"] is None
    assert s["to_move"] == "Ann"
    assert s["deck"] == 88
    assert s["actions"] == 2
    assert s["cups"] == {"Ann": {}, "Bo": {}}


def test_turn_before_the_setup_deals_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        table({"mountain": 0, "colour": "red"})
    assert str(caught.value) == "a mountain play while the deal for mountain 0 is due"


def test_deal_for_the_wrong_mountain_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        table(SETUP[1])
    assert str(caught.value) == "a deal for mountain 1 while the deal for mountain 0 is due"


def test_setup_deal_turns_up_exactly_two_cards() -> None:
    with pytest.raises(IllegalAction) as caught:
        table({"deal": 0, "colours": ["red"]})
    assert str(caught.value) == "the deal for mountain 0 turns up 2 cards, not 1"


def test_deal_when_none_is_due_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        table(*SETUP, SETUP[0])
    assert str(caught.value) == "a deal for mountain 0 when no deal is due"


def test_mountain_play_draws_unseen_cards_from_the_deck_count() -> None:
    s = summary(table(*SETUP, {"mountain": 0, "colour": "purple"}))
    assert s["hands"] == {"Ann": 8, "Bo": 6}  # 6 - 1 + 3
    assert s["deck"] == 85
    assert s["mandalas"][0]["mountain"] == {"red": 1, "orange": 1, "purple": 1}


def test_keep_one_card_is_checked_against_the_hand_count() -> None:
    state = table(
        *SETUP, {"mountain": 0, "colour": "purple"}, {"field": 1, "colour": "red", "count": 2}
    )
    with pytest.raises(IllegalAction) as caught:
        play(state, {"field": 0, "colour": "black", "count": 8})
    assert str(caught.value) == "Ann cannot play 8 black into field 0: a card must stay in hand"
    s = summary(play(state, {"field": 0, "colour": "black", "count": 7}))
    assert s["hands"] == {"Ann": 1, "Bo": 4}


def test_discard_draws_as_many_and_may_not_exceed_the_hand() -> None:
    state = table(
        *SETUP, {"mountain": 0, "colour": "purple"}, {"field": 1, "colour": "red", "count": 2}
    )
    with pytest.raises(IllegalAction) as caught:
        play(state, {"discard": "red", "count": 9})
    assert str(caught.value) == "Ann cannot discard 9 red: Ann holds only 8 cards"
    s = summary(play(state, {"discard": "red", "count": 8}))
    assert s["hands"] == {"Ann": 8, "Bo": 4}
    assert s["deck"] == 77  # 85 - 8
    assert s["discard"] == 8


def test_rule_of_colour_is_checked_when_tracking() -> None:
    state = table(*SETUP)
    with pytest.raises(IllegalAction) as caught:
        play(state, {"field": 1, "colour": "green", "count": 1})
    assert str(caught.value) == "Ann cannot play green into field 1: green is in mountain 1"


def test_destruction_ends_with_the_deal_due_and_nobody_to_move() -> None:
    s = summary(table(*DESTRUCTION))
    assert s["due"] == {"deal": 0}
    assert s["to_move"] is None
    assert s["claiming"] is None
    # Ann chose (1-1 tie, Bo completed): red, purple to her river; Bo orange, black.
    assert s["rivers"] == {"Ann": ["red", "purple"], "Bo": ["orange", "black"]}
    assert s["cups"] == {"Ann": {}, "Bo": {}}
    assert s["discard"] == 2  # the fields' yellow and green
    assert s["deck"] == 82  # 88 - 3 - 3, the deal not yet made
    assert s["hands"] == {"Ann": 7, "Bo": 7}


def test_turn_while_the_deal_is_due_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        table(*DESTRUCTION, {"field": 1, "colour": "red", "count": 1})
    assert str(caught.value) == "a field play while the deal for mountain 0 is due"


def test_deal_after_a_destruction_takes_two_from_the_deck_and_the_other_seat_moves() -> None:
    s = summary(table(*DESTRUCTION, {"deal": 0, "colours": ["black", "black"]}))
    assert s["mandalas"][0]["mountain"] == {"black": 2}
    assert s["deck"] == 80
    assert s["due"] is None
    assert s["to_move"] == "Ann"
    assert s["actions"] == 11


def test_deal_turns_up_only_what_the_deck_and_discard_pile_hold() -> None:
    state = replace(table(*DESTRUCTION), deck_unseen=0, discard=cards_of(["red"]))
    with pytest.raises(IllegalAction) as caught:
        play(state, {"deal": 0, "colours": ["red", "red"]})
    assert str(caught.value) == "the deal for mountain 0 turns up 1 card, not 2"
    after = play(state, {"deal": 0, "colours": ["red"]})
    # The deck count is 0: the discard pile (1 card) becomes the deck and the end is
    # triggered for a later destruction.
    assert after.deck_size() == 0
    assert sum(after.discard) == 0
    assert after.end_triggered is True
    assert summary(after)["to_move"] == "Ann"


def test_empty_deck_count_turns_the_discard_pile_into_the_deck() -> None:
    state = replace(table(*SETUP), deck_unseen=1, discard=cards_of(["red"] * 5))
    s = summary(play(state, {"mountain": 0, "colour": "purple"}))
    # Draws 3: the deck's 1, then the pile of 5 becomes the deck and 2 more come from it.
    assert s["hands"]["Ann"] == 8
    assert s["deck"] == 3
    assert s["discard"] == 0
    assert s["end_triggered"] is True
    assert s["over"] is False


def test_cup_entries_come_in_seat_order_once_play_has_ended() -> None:
    entries = t2_entries()
    state = table(*entries[:29])
    s = summary(state)
    assert s["due"] == {"cup": "Ann"}
    assert s["to_move"] is None
    assert s["over"] is False
    assert s["scores"] == {"Ann": 0, "Bo": 1}
    with pytest.raises(IllegalAction) as caught:
        play(state, {"cup": "Bo", "colours": ["green", "green"]})
    assert str(caught.value) == "a cup entry for Bo while the cup entry for Ann is due"
    with pytest.raises(IllegalAction) as caught:
        play(state, {"cup": "Ann", "colours": ["orange", "black", "red"]})
    assert str(caught.value) == "Ann's cup entry gives 3 colours, not 2"
    with pytest.raises(IllegalAction) as caught:
        play(state, {"mountain": 0, "colour": "black"})
    assert str(caught.value) == "a mountain play while the cup entry for Ann is due"
    state = play(state, {"cup": "Ann", "colours": ["orange", "black"]})
    s = summary(state)
    assert s["due"] == {"cup": "Bo"}
    assert s["over"] is False
    # Ann's river: black 1, red 2, green 3, purple 4, yellow 5, orange 6: 6 + 1 = 7.
    assert s["scores"] == {"Ann": 7, "Bo": 1}
    state = play(state, {"cup": "Bo", "colours": ["green", "green"]})
    s = summary(state)
    assert s["over"] is True
    assert s["winner"] == "Ann"
    assert s["due"] is None


def test_cup_entry_before_play_has_ended_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        table(*SETUP, {"cup": "Ann", "colours": ["red", "red"]})
    assert str(caught.value) == "a cup entry before play has ended"


def test_cup_entry_for_an_unknown_seat_is_an_error_of_the_entry() -> None:
    with pytest.raises(RecordError) as caught:
        table(*SETUP, {"cup": "Cy", "colours": ["red", "red"]})
    assert str(caught.value) == "cup: 'Cy' is not one of Ann, Bo"


def test_every_entry_counts_as_an_action() -> None:
    assert summary(table(*t2_entries()))["actions"] == 31


def test_table_game_starts_with_the_setup_deal_due() -> None:
    state = table()
    assert state.due == Due("deal", 0, setup=True)
    assert cards.acting_seat(state) is None
    assert len(cards.legal_actions(state)) == 21  # every unordered pair of colours


def test_a_late_deal_lists_only_the_cards_the_deck_and_pile_still_hold() -> None:
    one_left = replace(table(*DESTRUCTION), deck_unseen=0, discard=cards_of(["red"]))
    assert cards.legal_actions(one_left) == [cards.Deal(0, (c,)) for c in cards.COLOURS]
    none_left = replace(table(*DESTRUCTION), deck_unseen=0, discard=cards_of([]))
    assert cards.legal_actions(none_left) == [cards.Deal(0, ())]
    after = cards.apply(none_left, cards.Deal(0, ()))
    assert after.due is None and sum(after.mountains[0]) == 0


def test_a_deal_that_leaves_the_seat_to_act_without_a_card_ends_play() -> None:
    state = table(*DESTRUCTION)
    empty_handed = replace(state, hands_unseen=(0, state.hands_unseen[1]))
    after = play(empty_handed, {"deal": 0, "colours": ["black", "black"]})
    assert after.due == Due("cup", 0)
    assert summary(after)["to_move"] is None


@pytest.mark.parametrize(
    ("entry", "words"),
    [(cards.Deal(0, ("red", "red")), "a deal"), (cards.CupEntry("Ann", ("red",)), "a cup entry")],
)
def test_a_table_entry_in_a_game_played_on_the_panel_is_refused(
    entry: cards.Action, words: str
) -> None:
    state = cards.new_game({"game": "cards", "seats": ["Ann", "Bo"], "seed": 1})
    with pytest.raises(IllegalAction, match=f"^{words} is only for tracking a real table$"):
        cards.apply(state, entry)
