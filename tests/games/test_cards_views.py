"""Hidden information (interfaces.md) and the undo rules (cards.md section 11)."""

from __future__ import annotations

import json
from dataclasses import replace

from companion import catalogue
from companion.games import cards
from companion.games.cards import Claiming, cards_of
from companion.phrases import Phrase
from tests.games.cards_support import make_deck, play, start, table

DECK = make_deck(
    m0=["red", "orange"],
    m1=["yellow", "green"],
    ann=["yellow", "purple", "red", "red", "red", "red"],
    bo=["green", "green", "black", "orange", "orange", "orange"],
    ann_cup=["black", "orange"],
    bo_cup=["purple", "purple"],
    draws=["orange", "orange", "orange", "yellow", "yellow", "yellow", "green", "black"],
)

# Bo completes mandala 0 with 2 field cards to Ann's 1: Bo chooses first.
TO_CLAIMS = (
    {"field": 0, "colour": "yellow", "count": 1},
    {"field": 0, "colour": "green", "count": 2},
    {"mountain": 0, "colour": "purple"},
    {"mountain": 0, "colour": "black"},
)


def english(phrase: Phrase | None) -> str | None:
    """A refusal in English (None: no refusal)."""
    return None if phrase is None else phrase.english()


def test_seat_sees_its_own_hand_cup_and_score_and_only_counts_of_the_other() -> None:
    view = cards.seat_view(start(DECK), 0)
    assert view["seat"] == "Ann"
    assert view["hands"] == {"Ann": {"red": 4, "yellow": 1, "purple": 1}, "Bo": 6}
    assert view["cups"] == {"Ann": {"orange": 1, "black": 1}, "Bo": 2}
    assert view["scores"] == {"Ann": 0, "Bo": None}
    assert view["deck"] == 88
    assert view["to_move"] == "Ann"


def test_second_seat_view_mirrors_the_first() -> None:
    view = cards.seat_view(start(DECK), 1)
    assert view["seat"] == "Bo"
    assert view["hands"] == {"Ann": 6, "Bo": {"orange": 3, "green": 2, "black": 1}}
    assert view["cups"] == {"Ann": 2, "Bo": {"purple": 2}}
    assert view["scores"] == {"Ann": None, "Bo": 0}
    assert view["legal"] == []  # not Bo's turn


def test_shared_view_shows_counts_only() -> None:
    view = cards.seat_view(start(DECK), None)
    assert view["seat"] is None
    assert view["hands"] == {"Ann": 6, "Bo": 6}
    assert view["cups"] == {"Ann": 2, "Bo": 2}
    assert view["scores"] == {"Ann": None, "Bo": None}
    assert view["legal"] == []


def test_views_carry_no_deck_order_and_no_seed() -> None:
    state = cards.new_game({"seats": ["Ann", "Bo"], "seed": 12345})
    for seat in (0, 1, None):
        view = cards.seat_view(state, seat)
        assert view["deck"] == 88
        assert "seed" not in view
        assert "12345" not in json.dumps(view)
        assert "reshuffles" not in view


def test_public_areas_are_in_every_view() -> None:
    state = start(DECK, *TO_CLAIMS, {"claim": "red"})
    for seat in (0, 1, None):
        view = cards.seat_view(state, seat)
        assert view["rivers"] == {"Ann": [], "Bo": ["red"]}
        assert view["mandalas"][0]["mountain"] == {"orange": 1, "purple": 1, "black": 1}
        assert view["mandalas"][0]["fields"] == {"Ann": {"yellow": 1}, "Bo": {"green": 2}}
        assert view["claiming"] == {"mandala": 0, "chooser": "Bo"}
        assert view["to_move"] == "Ann"


def test_seat_to_act_sees_its_legal_actions() -> None:
    state = start(DECK, *TO_CLAIMS)
    view = cards.seat_view_for_decision(state, 1)
    assert view["legal"] == [{"claim": c} for c in ("red", "orange", "purple", "black")]
    assert cards.seat_view_for_decision(state, 0)["legal"] == []


def test_everything_is_shown_once_the_game_is_over() -> None:
    base = start(DECK)
    state = replace(
        base,
        mountains=(base.mountains[0], cards_of(["black"])),
        fields=(base.fields[0], (cards_of(["yellow"]), cards_of(["green"]))),
        rivers=(("red", "orange", "yellow", "green", "purple"), ()),
        claiming=Claiming(1, 0, 1),
    )
    state = play(state, {"claim": "black"})
    assert cards.is_over(state)
    for seat in (0, 1, None):
        view = cards.seat_view(state, seat)
        # Ann: orange space 2 + black space 6 = 8; Bo: purple not in his river.
        assert view["scores"] == {"Ann": 8, "Bo": 0}
        assert view["winner"] == "Ann"
        assert view["cups"] == {"Ann": {"orange": 1, "black": 1}, "Bo": {"purple": 2}}
        assert view["hands"]["Bo"] == {"orange": 3, "green": 2, "black": 1}


def test_table_views_are_the_public_summary() -> None:
    state = table({"deal": 0, "colours": ["red", "orange"]})
    view = cards.seat_view(state, 0)
    assert view["hands"] == {"Ann": 6, "Bo": 6}
    assert view["due"] == {"deal": 1}
    assert view["seat"] == "Ann"


# ---------------------------------------------------------------------------------------
# Undo


def last_step(*actions: dict[str, object]) -> tuple[cards.State, cards.Action]:
    before = start(DECK, *actions[:-1])
    return before, cards.parse_action(before, actions[-1])


def test_seat_may_undo_its_own_field_play() -> None:
    before, action = last_step({"field": 0, "colour": "yellow", "count": 1})
    assert cards.undo_refusal(before, action, 0) is None
    assert cards.can_undo(before, action, 0) is True


def test_the_other_seat_may_not_undo_it() -> None:
    before, action = last_step({"field": 0, "colour": "yellow", "count": 1})
    assert english(cards.undo_refusal(before, action, 1)) == "only Ann may undo the last action"
    assert english(cards.undo_refusal(before, action, None)) == "only Ann may undo the last action"
    assert cards.can_undo(before, action, 1) is False


def test_a_refusal_reads_in_german_from_the_catalogue() -> None:
    before, action = last_step({"field": 0, "colour": "yellow", "count": 1})
    refusal = cards.undo_refusal(before, action, 1)
    assert refusal is not None
    assert catalogue.render(refusal, "de") == "Nur Ann darf den letzten Zug rückgängig machen."


def test_mountain_play_that_drew_is_final() -> None:
    before, action = last_step({"mountain": 0, "colour": "purple"})
    assert (
        english(cards.undo_refusal(before, action, 0)) == "the last action drew cards: it is final"
    )


def test_discard_that_drew_is_final() -> None:
    before, action = last_step({"discard": "red", "count": 2})
    assert (
        english(cards.undo_refusal(before, action, 0)) == "the last action drew cards: it is final"
    )


def test_a_claim_may_be_undone_by_its_claimer() -> None:
    before, action = last_step(*TO_CLAIMS, {"claim": "red"})
    assert cards.undo_refusal(before, action, 1) is None
    assert english(cards.undo_refusal(before, action, 0)) == "only Bo may undo the last action"


def test_the_last_claim_is_final_when_new_mountain_cards_were_dealt() -> None:
    before, action = last_step(
        *TO_CLAIMS, {"claim": "red"}, {"claim": "orange"}, {"claim": "purple"}, {"claim": "black"}
    )
    assert (
        english(cards.undo_refusal(before, action, 0)) == "the last action drew cards: it is final"
    )


def test_mountain_play_that_drew_nothing_may_be_undone() -> None:
    before = replace(start(DECK), deck=())
    action = cards.parse_action(before, {"mountain": 1, "colour": "red"})
    assert cards.undo_refusal(before, action, 0) is None


def test_an_action_that_ended_the_game_is_final() -> None:
    base = start(DECK)
    before = replace(
        base,
        mountains=(base.mountains[0], cards_of(["black"])),
        fields=(base.fields[0], (cards_of(["yellow"]), cards_of(["green"]))),
        rivers=(("red", "orange", "yellow", "green", "purple"), ()),
        claiming=Claiming(1, 0, 1),
    )
    action = cards.Claim("black")
    assert english(cards.undo_refusal(before, action, 0)) == "the last action ended the game"


def test_tracking_a_table_the_last_entry_can_always_be_undone() -> None:
    before = table(
        {"deal": 0, "colours": ["red", "orange"]}, {"deal": 1, "colours": ["yellow", "green"]}
    )
    for obj in ({"mountain": 0, "colour": "purple"}, {"discard": "red", "count": 3}):
        action = cards.parse_action(before, obj)
        for seat in (0, 1, None):
            assert cards.undo_refusal(before, action, seat) is None
            assert cards.can_undo(before, action, seat) is True


def test_tracking_a_table_the_seat_to_act_sees_its_legal_actions_and_nobody_else_does() -> None:
    state = table(
        {"deal": 0, "colours": ["red", "orange"]}, {"deal": 1, "colours": ["yellow", "green"]}
    )
    listed = [cards.action_to_json(a) for a in cards.legal_actions(state)]
    assert listed and {"discard": "red", "count": 1} in listed
    assert cards.seat_view(state, 0)["legal"] == listed
    assert cards.seat_view(state, 1)["legal"] == []
    assert cards.seat_view(state, None)["legal"] == []
