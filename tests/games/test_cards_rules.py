"""One test per rule of cards.md (play mode), with values worked out by hand.

Decks are made with ``make_deck``: the deal of section 1 (mountain 0, mountain 1, Ann's
hand, Bo's hand, Ann's cup, Bo's cup), then the cards drawn, then the rest.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games import cards
from companion.games.base import IllegalAction, RecordError
from companion.games.cards import Claiming, cards_of
from companion.games.cards.rules import seeded_reshuffle
from companion.games.cards.rules import start as start_game
from tests.games.cards_support import make_deck, play, start, summary

# ---------------------------------------------------------------------------------------
# Section 1: setup

SETUP_DECK = make_deck(
    m0=["red", "orange"],
    m1=["yellow", "green"],
    ann=["red", "red", "yellow", "purple", "black", "black"],
    bo=["purple", "purple", "purple", "purple", "orange", "red"],
    draws=["orange", "yellow", "green", "purple", "black", "red", "yellow"],
)


def test_setup_deals_mountains_hands_and_cups_from_the_top() -> None:
    s = summary(start(SETUP_DECK))
    assert s["mandalas"] == [
        {"mountain": {"red": 1, "orange": 1}, "fields": {"Ann": {}, "Bo": {}}},
        {"mountain": {"yellow": 1, "green": 1}, "fields": {"Ann": {}, "Bo": {}}},
    ]
    assert s["hands"] == {
        "Ann": {"red": 2, "yellow": 1, "purple": 1, "black": 2},
        "Bo": {"red": 1, "orange": 1, "purple": 4},
    }
    assert s["cups"] == {"Ann": {"purple": 2}, "Bo": {"black": 2}}
    assert s["deck"] == 88
    assert s["discard"] == 0
    assert s["to_move"] == "Ann"
    assert s["actions"] == 0
    assert s["over"] is False
    assert s["claiming"] is None


# ---------------------------------------------------------------------------------------
# Section 3: the draw after a mountain play is min(3, 8 - h)


def test_mountain_play_from_a_hand_of_six_draws_three_from_the_top() -> None:
    state = start(SETUP_DECK, {"mountain": 0, "colour": "red"})
    s = summary(state)
    # 6 - 1 = 5, draws 3: orange, yellow, green.
    assert s["hands"]["Ann"] == {
        "red": 1,
        "orange": 1,
        "yellow": 2,
        "green": 1,
        "purple": 1,
        "black": 2,
    }
    assert s["deck"] == 85
    assert s["mandalas"][0]["mountain"] == {"red": 2, "orange": 1}
    assert s["to_move"] == "Bo"


def test_mountain_play_from_a_hand_of_eight_draws_one() -> None:
    state = start(
        SETUP_DECK,
        {"mountain": 0, "colour": "red"},
        {"field": 0, "colour": "purple", "count": 4},
        {"mountain": 1, "colour": "black"},
    )
    s = summary(state)
    # Ann 8 - 1 = 7 draws 1 (purple, the 4th card drawn).
    assert s["hands"]["Ann"] == {
        "red": 1,
        "orange": 1,
        "yellow": 2,
        "green": 1,
        "purple": 2,
        "black": 1,
    }
    assert s["deck"] == 84


def test_mountain_play_from_a_small_hand_draws_three_at_most() -> None:
    state = start(
        SETUP_DECK,
        {"mountain": 0, "colour": "red"},
        {"field": 0, "colour": "purple", "count": 4},
        {"mountain": 1, "colour": "black"},
        {"mountain": 1, "colour": "red"},
    )
    s = summary(state)
    # Bo 2 - 1 = 1 draws 3 (black, red, yellow), not 7: a hand of 4.
    assert s["hands"]["Bo"] == {"red": 1, "orange": 1, "yellow": 1, "black": 1}
    assert s["deck"] == 81


def test_field_play_draws_nothing() -> None:
    state = start(SETUP_DECK, {"field": 1, "colour": "black", "count": 2})
    s = summary(state)
    assert s["hands"]["Ann"] == {"red": 2, "yellow": 1, "purple": 1}
    assert s["mandalas"][1]["fields"]["Ann"] == {"black": 2}
    assert s["deck"] == 88
    assert s["to_move"] == "Bo"


# ---------------------------------------------------------------------------------------
# Section 2: the rule of colour


def test_mountain_play_is_refused_when_the_colour_is_in_the_other_seats_field() -> None:
    state = start(
        SETUP_DECK,
        {"mountain": 0, "colour": "red"},
        {"field": 0, "colour": "purple", "count": 4},
    )
    with pytest.raises(IllegalAction) as caught:
        play(state, {"mountain": 0, "colour": "purple"})
    assert str(caught.value) == (
        "Ann cannot play purple into mountain 0: purple is in a field of mandala 0"
    )


def test_mountain_play_is_refused_when_the_colour_is_in_the_players_own_field() -> None:
    state = start(
        SETUP_DECK,
        {"field": 0, "colour": "black", "count": 1},
        {"field": 1, "colour": "purple", "count": 1},
    )
    with pytest.raises(IllegalAction) as caught:
        play(state, {"mountain": 0, "colour": "black"})
    assert str(caught.value) == (
        "Ann cannot play black into mountain 0: black is in a field of mandala 0"
    )


def test_field_play_is_refused_when_the_colour_is_in_that_mountain() -> None:
    with pytest.raises(IllegalAction) as caught:
        start(SETUP_DECK, {"field": 0, "colour": "red", "count": 2})
    assert str(caught.value) == "Ann cannot play 2 red into field 0: red is in mountain 0"


def test_field_play_is_refused_when_the_colour_is_in_the_other_seats_field() -> None:
    state = start(
        SETUP_DECK,
        {"mountain": 0, "colour": "red"},
        {"field": 0, "colour": "purple", "count": 4},
    )
    with pytest.raises(IllegalAction) as caught:
        play(state, {"field": 0, "colour": "purple", "count": 1})
    assert str(caught.value) == "Ann cannot play purple into field 0: purple is in Bo's field 0"


def test_field_play_may_add_to_a_colour_in_the_players_own_field() -> None:
    state = start(
        SETUP_DECK,
        {"field": 0, "colour": "black", "count": 1},
        {"field": 1, "colour": "purple", "count": 1},
        {"field": 0, "colour": "black", "count": 1},
    )
    assert summary(state)["mandalas"][0]["fields"]["Ann"] == {"black": 2}


def test_mountain_may_take_a_colour_it_already_holds() -> None:
    state = start(SETUP_DECK, {"mountain": 0, "colour": "red"})
    assert summary(state)["mandalas"][0]["mountain"] == {"red": 2, "orange": 1}


def test_rule_of_colour_holds_in_each_mandala_on_its_own() -> None:
    # Red is in mountain 0, yet Ann may put red into her field of mandala 1.
    state = start(SETUP_DECK, {"field": 1, "colour": "red", "count": 2})
    # Red in Ann's field 1 does not stop Bo putting red into mountain 0 ...
    state = play(state, {"mountain": 0, "colour": "red"})
    assert summary(state)["mandalas"][0]["mountain"] == {"red": 2, "orange": 1}
    # ... and purple in Bo's field 0 would not stop Ann's purple in mountain 1.
    state = play(state, {"mountain": 1, "colour": "purple"})
    assert summary(state)["mandalas"][1]["mountain"] == {"yellow": 1, "green": 1, "purple": 1}
    # But in mandala 1 itself red is taken by Ann's field.
    with pytest.raises(IllegalAction) as caught:
        play(state, {"mountain": 1, "colour": "red"})
    assert str(caught.value) == "Bo cannot play red into mountain 1: red is in a field of mandala 1"


def test_a_seat_cannot_play_a_colour_it_does_not_hold() -> None:
    with pytest.raises(IllegalAction) as caught:
        start(SETUP_DECK, {"mountain": 1, "colour": "orange"})
    assert str(caught.value) == "Ann cannot play orange into mountain 1: Ann holds no orange"
    with pytest.raises(IllegalAction) as caught:
        start(SETUP_DECK, {"field": 1, "colour": "black", "count": 3})
    assert str(caught.value) == "Ann cannot play 3 black into field 1: Ann holds only 2 black"


# ---------------------------------------------------------------------------------------
# Section 3: keep one card on a field play

SIX_BLACK = make_deck(
    m0=["red", "orange"],
    m1=["yellow", "green"],
    ann=["black"] * 6,
    bo=["purple", "purple", "purple", "purple", "orange", "red"],
)


def test_field_play_must_keep_one_card_in_hand() -> None:
    with pytest.raises(IllegalAction) as caught:
        start(SIX_BLACK, {"field": 0, "colour": "black", "count": 6})
    assert str(caught.value) == "Ann cannot play 6 black into field 0: a card must stay in hand"


def test_field_play_of_all_but_one_card_is_allowed() -> None:
    state = start(SIX_BLACK, {"field": 0, "colour": "black", "count": 5})
    s = summary(state)
    assert s["hands"]["Ann"] == {"black": 1}
    assert s["mandalas"][0]["fields"]["Ann"] == {"black": 5}


# ---------------------------------------------------------------------------------------
# Section 3: discards

DISCARD_DECK = make_deck(
    m0=["red", "orange"],
    m1=["yellow", "green"],
    ann=["red", "red", "red", "orange", "yellow", "green"],
    bo=["purple", "purple", "purple", "purple", "orange", "red"],
    draws=["black", "black", "purple"],
)


def test_discard_of_three_cards_of_one_colour_draws_three() -> None:
    state = start(DISCARD_DECK, {"discard": "red", "count": 3})
    s = summary(state)
    assert s["hands"]["Ann"] == {"orange": 1, "yellow": 1, "green": 1, "purple": 1, "black": 2}
    assert s["discard"] == 3
    assert s["deck"] == 85
    assert s["to_move"] == "Bo"


def test_discard_may_put_down_some_of_a_colour() -> None:
    state = start(DISCARD_DECK, {"discard": "red", "count": 2})
    s = summary(state)
    assert s["hands"]["Ann"] == {
        "red": 1,
        "orange": 1,
        "yellow": 1,
        "green": 1,
        "black": 2,
    }
    assert s["discard"] == 2
    assert s["deck"] == 86


def test_discard_of_more_than_the_hand_holds_of_a_colour_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        start(DISCARD_DECK, {"discard": "red", "count": 4})
    assert str(caught.value) == "Ann cannot discard 4 red: Ann holds only 3 red"


@pytest.mark.parametrize(
    ("count", "message"),
    [
        (1, "Ann cannot discard black: Ann holds no black"),
        (2, "Ann cannot discard 2 black: Ann holds no black"),
    ],
)
def test_a_refused_discard_names_one_card_by_its_colour_and_more_by_their_count(
    count: int, message: str
) -> None:
    with pytest.raises(IllegalAction) as caught:
        start(DISCARD_DECK, {"discard": "black", "count": count})
    assert str(caught.value) == message


def test_discard_of_one_card_of_a_whole_hand_leaves_the_hand_size() -> None:
    state = start(DISCARD_DECK, {"discard": "green", "count": 1})
    assert state.hand_size(0) == 6
    assert summary(state)["discard"] == 1


# ---------------------------------------------------------------------------------------
# Section 4: destruction -- who chooses first

CHOOSER_DECK = make_deck(
    m0=["red", "orange"],
    m1=["yellow", "green"],
    ann=["yellow", "purple", "red", "red", "red", "red"],
    bo=["green", "green", "black", "orange", "orange", "orange"],
    ann_cup=["black", "orange"],
    bo_cup=["purple", "purple"],
    draws=["orange", "orange", "orange", "yellow", "yellow", "yellow", "green", "black"],
)


def test_seat_with_more_field_cards_chooses_first_even_if_it_completed() -> None:
    state = start(
        CHOOSER_DECK,
        {"field": 0, "colour": "yellow", "count": 1},
        {"field": 0, "colour": "green", "count": 2},
        {"mountain": 0, "colour": "purple"},
        {"mountain": 0, "colour": "black"},
    )
    s = summary(state)
    # Bo completed mandala 0 (mountain red, orange, purple, black; yellow; green) and has
    # 2 field cards to Ann's 1: Bo chooses first.
    assert s["claiming"] == {"mandala": 0, "chooser": "Bo"}
    assert s["to_move"] == "Bo"
    assert s["mandalas"][0]["mountain"] == {"red": 1, "orange": 1, "purple": 1, "black": 1}


def test_claims_alternate_then_fields_are_discarded_and_the_mountain_is_dealt() -> None:
    state = start(
        CHOOSER_DECK,
        {"field": 0, "colour": "yellow", "count": 1},
        {"field": 0, "colour": "green", "count": 2},
        {"mountain": 0, "colour": "purple"},
        {"mountain": 0, "colour": "black"},
        {"claim": "red"},
        {"claim": "orange"},
        {"claim": "purple"},
        {"claim": "black"},
    )
    s = summary(state)
    assert s["rivers"] == {"Ann": ["orange", "black"], "Bo": ["red", "purple"]}
    assert s["cups"] == {"Ann": {"orange": 1, "black": 1}, "Bo": {"purple": 2}}
    # Ann: orange space 1 + black space 2 = 3; Bo: two purples on space 2 = 4.
    assert s["scores"] == {"Ann": 3, "Bo": 4}
    assert s["discard"] == 3  # the fields: yellow 1, green 2
    assert s["mandalas"][0] == {
        "mountain": {"green": 1, "black": 1},
        "fields": {"Ann": {}, "Bo": {}},
    }
    assert s["deck"] == 80  # 88 - 3 - 3 - 2 dealt
    assert s["hands"] == {"Ann": {"red": 4, "orange": 3}, "Bo": {"orange": 3, "yellow": 3}}
    assert s["to_move"] == "Ann"  # Bo completed, Ann moves next
    assert s["claiming"] is None
    assert s["actions"] == 8


def test_field_tie_lets_the_seat_that_did_not_complete_choose_first() -> None:
    state = start(
        CHOOSER_DECK,
        {"field": 0, "colour": "yellow", "count": 1},
        {"field": 0, "colour": "green", "count": 1},
        {"mountain": 0, "colour": "purple"},
        {"mountain": 0, "colour": "black"},
    )
    # 1 - 1 and Bo completed: Ann chooses.
    assert summary(state)["claiming"] == {"mandala": 0, "chooser": "Ann"}
    assert summary(state)["to_move"] == "Ann"


def test_field_tie_when_the_first_seat_completes_lets_the_second_choose() -> None:
    deck = make_deck(
        m0=["red", "orange"],
        m1=["yellow", "green"],
        ann=["yellow", "purple", "black", "red", "red", "red"],
        bo=["green", "orange", "orange", "orange", "orange", "red"],
    )
    state = start(
        deck,
        {"field": 0, "colour": "yellow", "count": 1},
        {"field": 0, "colour": "green", "count": 1},
        {"mountain": 0, "colour": "purple"},
        {"discard": "red", "count": 1},
        {"mountain": 0, "colour": "black"},
    )
    assert summary(state)["claiming"] == {"mandala": 0, "chooser": "Bo"}
    assert summary(state)["to_move"] == "Bo"


def test_a_claim_must_name_a_colour_in_the_mountain() -> None:
    state = start(
        CHOOSER_DECK,
        {"field": 0, "colour": "yellow", "count": 1},
        {"field": 0, "colour": "green", "count": 2},
        {"mountain": 0, "colour": "purple"},
        {"mountain": 0, "colour": "black"},
    )
    with pytest.raises(IllegalAction) as caught:
        play(state, {"claim": "green"})
    assert str(caught.value) == "Bo cannot claim 'green': it is not in mountain 0"


def test_no_other_action_while_a_claim_is_due() -> None:
    state = start(
        CHOOSER_DECK,
        {"field": 0, "colour": "yellow", "count": 1},
        {"field": 0, "colour": "green", "count": 2},
        {"mountain": 0, "colour": "purple"},
        {"mountain": 0, "colour": "black"},
    )
    with pytest.raises(IllegalAction) as caught:
        play(state, {"discard": "orange", "count": 1})
    assert str(caught.value) == "Bo must claim a colour from mountain 0"


def test_a_claim_outside_a_destruction_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        start(CHOOSER_DECK, {"claim": "red"})
    assert str(caught.value) == "a claim when no destruction is under way"


# ---------------------------------------------------------------------------------------
# Section 4: claims by a seat with an empty field; both fields empty

EMPTY_FIELD_DECK = make_deck(
    m0=["red", "orange"],
    m1=["yellow", "green"],
    ann=["yellow", "yellow", "purple", "red", "red", "red"],
    bo=["green", "black", "orange", "orange", "orange", "orange"],
    ann_cup=["green", "black"],
    bo_cup=["orange", "orange"],
)


def test_claims_of_a_seat_with_an_empty_field_go_to_the_discard_pile() -> None:
    state = start(
        EMPTY_FIELD_DECK,
        {"field": 0, "colour": "yellow", "count": 2},
        {"mountain": 0, "colour": "green"},
        {"mountain": 0, "colour": "purple"},
        {"mountain": 0, "colour": "black"},
    )
    # Ann 2 field cards, Bo none: Ann chooses; Bo still takes his turns.
    assert summary(state)["claiming"] == {"mandala": 0, "chooser": "Ann"}
    state = play(
        state,
        {"claim": "red"},
        {"claim": "orange"},
        {"claim": "green"},
        {"claim": "purple"},
        {"claim": "black"},
    )
    s = summary(state)
    assert s["rivers"] == {"Ann": ["red", "green", "black"], "Bo": []}
    assert s["cups"] == {"Ann": {"green": 1, "black": 1}, "Bo": {"orange": 2}}
    assert s["scores"] == {"Ann": 5, "Bo": 0}  # green 2 + black 3
    assert s["discard"] == 4  # Bo's orange and purple, Ann's field of 2 yellow
    assert s["deck"] == 79  # 88 - 3 - 3 - 1 - 2 dealt
    assert s["to_move"] == "Ann"
    assert s["claiming"] is None


BOTH_EMPTY_DECK = make_deck(
    m0=["red", "orange"],
    m1=["yellow", "green"],
    ann=["yellow", "purple", "red", "red", "red", "red"],
    bo=["green", "black", "orange", "orange", "orange", "orange"],
    draws=["red", "red", "red", "orange", "orange", "orange", "yellow", "green", "purple", "black"],
)


def test_both_fields_empty_sends_the_mountain_to_the_discard_pile_without_claims() -> None:
    state = start(
        BOTH_EMPTY_DECK,
        {"mountain": 0, "colour": "yellow"},
        {"mountain": 0, "colour": "green"},
        {"mountain": 0, "colour": "purple"},
        {"mountain": 0, "colour": "black"},
    )
    s = summary(state)
    assert s["claiming"] is None
    assert s["discard"] == 6
    assert s["mandalas"][0] == {
        "mountain": {"purple": 1, "black": 1},
        "fields": {"Ann": {}, "Bo": {}},
    }
    assert s["deck"] == 78  # 3 + 3 + 1 + 1 drawn, 2 dealt
    assert s["to_move"] == "Ann"
    assert s["rivers"] == {"Ann": [], "Bo": []}
    assert s["over"] is False


# ---------------------------------------------------------------------------------------
# Section 4: river and cup placement (states set up by hand mid-destruction)


def mid_destruction(
    mountain: list[str],
    ann_field: list[str],
    bo_field: list[str],
    ann_river: tuple[str, ...] = (),
    bo_river: tuple[str, ...] = (),
    chooser: int = 0,
) -> cards.State:
    base = cards.new_game({"seats": ["Ann", "Bo"], "deck": SETUP_DECK})
    return replace(
        base,
        mountains=(base.mountains[0], cards_of(mountain)),
        fields=(base.fields[0], (cards_of(ann_field), cards_of(bo_field))),
        rivers=(ann_river, bo_river),
        cups=(cards_of(["purple", "black"]), cards_of(["red"])),
        claiming=Claiming(1, chooser, 1),
        seat=chooser,
    )


def test_first_claim_of_a_colour_puts_one_card_in_the_river_and_the_rest_in_the_cup() -> None:
    state = mid_destruction(["red", "red", "red", "black"], ["yellow"], ["green"])
    state = play(state, {"claim": "red"})
    assert state.rivers[0] == ("red",)
    assert summary(state)["cups"]["Ann"] == {"red": 2, "purple": 1, "black": 1}


def test_next_river_space_is_the_next_free_one() -> None:
    state = mid_destruction(["red", "black"], ["yellow"], ["green"], ann_river=("orange", "green"))
    state = play(state, {"claim": "black"})
    assert state.rivers[0] == ("orange", "green", "black")
    assert summary(state)["cups"]["Ann"] == {"purple": 1, "black": 1}


def test_claim_of_a_colour_already_in_the_river_goes_all_to_the_cup() -> None:
    state = mid_destruction(["red", "red", "black"], ["yellow"], ["green"], ann_river=("red",))
    state = play(state, {"claim": "red"})
    assert state.rivers[0] == ("red",)
    assert summary(state)["cups"]["Ann"] == {"red": 2, "purple": 1, "black": 1}


def test_sixth_river_colour_ends_the_game_once_the_destruction_is_finished() -> None:
    state = mid_destruction(
        ["black", "red", "red"],
        ["yellow"],
        ["green"],
        ann_river=("red", "orange", "yellow", "green", "purple"),
    )
    deck_before = state.deck_size()
    state = play(state, {"claim": "black"})
    # Sixth colour in Ann's river, but Bo still claims the reds.
    assert state.rivers[0] == ("red", "orange", "yellow", "green", "purple", "black")
    assert summary(state)["over"] is False
    assert summary(state)["to_move"] == "Bo"
    state = play(state, {"claim": "red"})
    s = summary(state)
    assert s["over"] is True
    assert s["to_move"] is None
    assert s["claiming"] is None
    assert s["mandalas"][1] == {"mountain": {}, "fields": {"Ann": {}, "Bo": {}}}
    assert s["deck"] == deck_before  # no new mountain cards
    assert s["rivers"]["Bo"] == ["red"]
    assert s["cups"] == {"Ann": {"purple": 1, "black": 1}, "Bo": {"red": 2}}
    # Ann: purple space 5 + black space 6 = 11; Bo: 2 red on space 1 = 2.
    assert s["scores"] == {"Ann": 11, "Bo": 2}
    assert s["winner"] == "Ann"


def test_no_action_after_the_end() -> None:
    state = mid_destruction(
        ["black"], ["yellow"], ["green"], ann_river=("red", "orange", "yellow", "green", "purple")
    )
    state = play(state, {"claim": "black"})
    assert cards.is_over(state)
    assert cards.legal_actions(state) == []
    with pytest.raises(IllegalAction) as caught:
        play(state, {"discard": "red", "count": 1})
    assert str(caught.value) == "the game is over"


# ---------------------------------------------------------------------------------------
# Section 3 and 5: reshuffles and the end they trigger (states set up by hand)

FIVE_COLOURS = ["red", "orange", "yellow", "green", "purple"]


def set_up(**changes: object) -> cards.State:
    base = cards.new_game({"seats": ["Ann", "Bo"], "deck": SETUP_DECK})
    return replace(base, **changes)  # type: ignore[arg-type]


def test_reshuffle_and_completion_in_the_same_turn_end_the_game_after_that_destruction() -> None:
    state = set_up(
        deck=("green",),
        discard=cards_of(["red", "red", "orange"]),
        reshuffles=(("orange", "red", "red"),),
        mountains=(cards_of(FIVE_COLOURS), cards_of(["yellow", "green"])),
        hands=(cards_of(["black"] * 6), cards_of(["red"] * 6)),
    )
    state = play(state, {"mountain": 0, "colour": "black"})
    s = summary(state)
    # Ann 5 cards draws 3: green (the deck's last), then the discard pile is shuffled into
    # orange, red, red and she draws orange and red. Mandala 0 is complete with both fields
    # empty: its 6 cards are discarded, and that destruction ends the game: no new deal.
    assert s["hands"]["Ann"] == {"red": 1, "orange": 1, "green": 1, "black": 5}
    assert state.reshuffled == 1
    assert s["deck"] == 1
    assert s["discard"] == 6
    assert s["over"] is True
    assert s["mandalas"][0]["mountain"] == {}


def test_reshuffle_in_a_discards_draw_triggers_the_end_without_ending_at_once() -> None:
    state = set_up(
        deck=(),
        discard=cards_of(["red", "orange"]),
        reshuffles=(("black", "red", "orange", "black"),),
        hands=(cards_of(["black"] * 6), cards_of(["red"] * 6)),
    )
    state = play(state, {"discard": "black", "count": 2})
    s = summary(state)
    # The pile is red, orange and the two blacks just put down; shuffled as given, Ann
    # draws black and red.
    assert s["hands"]["Ann"] == {"red": 1, "black": 5}
    assert s["deck"] == 2
    assert s["discard"] == 0
    assert s["end_triggered"] is True
    assert s["over"] is False
    assert s["to_move"] == "Bo"


def test_reshuffle_while_dealing_after_a_destruction_ends_the_next_one() -> None:
    state = set_up(
        deck=("green", "red", "orange"),
        discard=cards_of(["red", "orange"]),
        reshuffles=(("yellow", "green", "red", "red", "orange", "orange", "purple", "black"),),
        mountains=(cards_of(FIVE_COLOURS), cards_of(FIVE_COLOURS)),
        hands=(cards_of(["black"] * 6), cards_of(["black"] * 6)),
    )
    state = play(state, {"mountain": 0, "colour": "black"})
    s = summary(state)
    # Ann draws the deck's last 3 cards; mandala 0 is destroyed (both fields empty: 6 cards
    # to the pile, now 8); dealing its new cards needs the reshuffle: yellow, green.
    assert s["over"] is False
    assert s["end_triggered"] is True
    assert s["mandalas"][0]["mountain"] == {"yellow": 1, "green": 1}
    assert s["deck"] == 6
    assert s["discard"] == 0
    assert s["to_move"] == "Bo"
    state = play(state, {"mountain": 1, "colour": "black"})
    s = summary(state)
    # Bo draws red, red, orange and completes mandala 1: that destruction ends the game.
    assert s["hands"]["Bo"] == {"red": 2, "orange": 1, "black": 5}
    assert s["over"] is True
    assert s["deck"] == 3
    assert s["discard"] == 6
    assert s["mandalas"][1]["mountain"] == {}


def test_draw_stops_short_when_the_deck_and_the_discard_pile_are_empty() -> None:
    state = set_up(deck=(), hands=(cards_of(["black"] * 6), cards_of(["red"] * 6)))
    state = play(state, {"mountain": 1, "colour": "black"})
    assert state.hand_size(0) == 5
    assert state.reshuffled == 0
    assert summary(state)["end_triggered"] is False


def test_wrong_reshuffle_is_an_error_of_the_record() -> None:
    state = set_up(
        deck=(),
        discard=cards_of(["red", "orange"]),
        reshuffles=(("orange", "orange"),),
        hands=(cards_of(["black"] * 6), cards_of(["red"] * 6)),
    )
    with pytest.raises(RecordError) as caught:
        play(state, {"mountain": 1, "colour": "black"})
    assert str(caught.value) == (
        "reshuffles[0]: not a shuffle of the discard pile (2 cards given; the pile holds 2: "
        "1 red, 1 orange)"
    )


def test_missing_reshuffle_is_an_error_of_the_record() -> None:
    state = set_up(
        deck=(),
        discard=cards_of(["red", "orange"]),
        hands=(cards_of(["black"] * 6), cards_of(["red"] * 6)),
    )
    with pytest.raises(RecordError) as caught:
        play(state, {"mountain": 1, "colour": "black"})
    assert str(caught.value) == (
        "reshuffles[0]: missing: the deck is empty and the discard pile (2 cards) must be "
        "shuffled into a new deck"
    )


def test_a_turn_that_begins_with_an_empty_hand_ends_the_game() -> None:
    state = set_up(
        deck=(),
        hands=(cards_of(["black"]), cards_of([])),
        cups=(cards_of(["red", "red"]), cards_of(["red"])),
        rivers=(("red",), ("orange", "red")),
    )
    state = play(state, {"mountain": 1, "colour": "black"})
    s = summary(state)
    # Ann's card leaves her hand and nothing can be drawn; Bo's turn begins with no card.
    assert s["over"] is True
    assert s["to_move"] is None
    # Ann: 2 red on space 1 = 2; Bo: 1 red on space 2 = 2; a tie, Bo has fewer cup cards.
    assert s["scores"] == {"Ann": 2, "Bo": 2}
    assert s["winner"] == "Bo"


# ---------------------------------------------------------------------------------------
# Section 6: scoring


def test_cup_card_scores_its_colours_river_space_and_zero_outside_the_river() -> None:
    cup = {"red": 4, "green": 2, "black": 1, "yellow": 1}
    assert cards.cup_score(["red", "green", "black"], cup) == 4 * 1 + 2 * 2 + 1 * 3 + 0


def test_river_cards_themselves_score_nothing() -> None:
    assert cards.cup_score(["red", "orange", "yellow", "green", "purple", "black"], {}) == 0


def test_most_points_wins() -> None:
    assert cards.winner_index([5, 7], [1, 9]) == 1


def test_points_tie_goes_to_fewer_cup_cards() -> None:
    assert cards.winner_index([6, 6], [3, 2]) == 1
    assert cards.winner_index([6, 6], [2, 3]) == 0


def test_full_tie_has_no_winner() -> None:
    assert cards.winner_index([3, 3], [4, 4]) is None


def test_a_lone_score_wins_and_a_tie_is_only_between_the_best_two() -> None:
    assert cards.winner_index([3], [4]) == 0
    assert cards.winner_index([2, 3, 3], [0, 4, 4]) is None
    assert cards.winner_index([3, 2, 2], [4, 0, 0]) == 0


def test_winner_is_null_until_the_game_is_over() -> None:
    state = set_up(cups=(cards_of(["red"] * 2), cards_of([])), rivers=(("red",), ()))
    s = summary(state)
    assert s["scores"] == {"Ann": 2, "Bo": 0}
    assert s["winner"] is None


# ---------------------------------------------------------------------------------------
# Seeded games (panel play)


def test_seeded_game_deals_from_a_shuffled_deck_of_18_per_colour() -> None:
    deck = cards.seeded_deck(2026)
    assert sorted(deck) == sorted(c for c in cards.COLOURS for _ in range(18))
    assert cards.seeded_deck(2026) == deck
    assert cards.seeded_deck(2027) != deck
    state = cards.new_game({"seats": ["Ann", "Bo"], "seed": 2026})
    assert state.mountains[0] == cards_of(deck[:2])
    assert state.hands[1] == cards_of(deck[10:16])
    assert state.deck == deck[20:]


def test_a_seeded_reshuffle_shuffles_the_pile_by_the_seed_and_the_reshuffles_number() -> None:
    pile = (5, 4, 3, 3, 2, 1)
    first = seeded_reshuffle(2026, 0, pile)
    assert cards_of(first) == pile
    assert seeded_reshuffle(2026, 0, pile) == first
    assert list(first) != sorted(first, key=cards.COLOURS.index)
    assert seeded_reshuffle(2026, 1, pile) != first
    assert seeded_reshuffle(2027, 0, pile) != first


def test_a_play_game_needs_a_deck_or_a_seed_to_deal() -> None:
    with pytest.raises(RecordError, match=r"^deck: missing key \(or a seed to shuffle one\)$"):
        start_game(("Ann", "Bo"), "play")


def test_export_setup_writes_out_a_seeded_deck_and_keeps_the_seed() -> None:
    setup = cards.export_setup({"seats": ["Ann", "Bo"], "seed": 5})
    assert setup == {
        "seats": ["Ann", "Bo"],
        "seed": 5,
        "game": "cards",
        "deck": list(cards.seeded_deck(5)),
    }
    table_setup = {"game": "cards", "mode": "table", "seats": ["Ann", "Bo"]}
    assert cards.export_setup(table_setup) == table_setup


def test_a_score_sheet_takes_a_full_river_of_six_colours_and_refuses_a_seventh() -> None:
    full = ["red", "orange", "yellow", "green", "purple", "black"]
    sheet = {"Ann": {"river": full, "cup": {"black": 1}}, "Bo": {"river": [], "cup": {}}}
    assert cards.score_sheet({"game": "cards", "sheet": sheet})["scores"] == {"Ann": 6, "Bo": 0}
    sheet["Ann"]["river"] = [*full, "red"]
    with pytest.raises(RecordError, match=r"^sheet\.Ann\.river: 7 colours; a river has at most 6$"):
        cards.score_sheet({"game": "cards", "sheet": sheet})
