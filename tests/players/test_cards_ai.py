"""The card game's computer seat (issue 11): it decides from its seat's view only, legally."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import cards
from companion.games.cards import Claim, Discard, FieldPlay, MountainPlay
from companion.games.cards.rules import seeded_reshuffle
from companion.players import cards as ai
from companion.players.cards import _legal, _Sim, _to_action
from tests.games.cards_support import make_deck, start

NONE: cards.Cards = (0, 0, 0, 0, 0, 0)


def random_position(seed: int, plies: int) -> tuple[cards.State, tuple[cards.Cards, cards.Cards]]:
    """A seeded game after up to ``plies`` random legal actions, with each seat's memory."""
    state = cards.new_game({"seats": ["Ann", "Bo"], "seed": seed})
    seen = (NONE, NONE)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.over:
            break
        action = rng.choice(cards.legal_actions(state))
        after = cards.apply(state, action)
        seen = (
            ai.observe(seen[0], state, action, after, 0),
            ai.observe(seen[1], state, action, after, 1),
        )
        state = after
    return state, seen


def shuffle_hidden(state: cards.State, seat: int, rng: random.Random) -> cards.State:
    """The same game as ``seat`` sees it, with the other hand, other cup and deck redealt."""
    other = 1 - seat
    pool = [
        *cards.model.sorted_cards(state.hands[other]),
        *cards.model.sorted_cards(state.cups[other]),
        *state.deck,
    ]
    rng.shuffle(pool)
    hand_n, cup_n = sum(state.hands[other]), sum(state.cups[other])
    hands = list(state.hands)
    cups = list(state.cups)
    hands[other] = cards.cards_of(pool[:hand_n])
    cups[other] = cards.cards_of(pool[hand_n : hand_n + cup_n])
    return dataclasses.replace(
        state,
        hands=(hands[0], hands[1]),
        cups=(cups[0], cups[1]),
        deck=tuple(pool[hand_n + cup_n :]),
    )


# ---------------------------------------------------------------------------------------
# The view holds nothing hidden


# What a seat view holds; a new field must be reviewed for hidden information before it is
# added here (the companion's worker in the table gets exactly this, see tests/web).
SEAT_VIEW_FIELDS = {
    "seats",
    "seat",
    "hand",
    "cup",
    "other_cup_seen",
    "other_hand_size",
    "other_cup_size",
    "deck_size",
    "mountains",
    "fields",
    "rivers",
    "discard",
    "to_act",
    "claiming",
    "end_triggered",
    "over",
}


def test_seat_view_has_exactly_the_fields_a_seat_may_know() -> None:
    assert {f.name for f in dataclasses.fields(ai.SeatView)} == SEAT_VIEW_FIELDS


def test_view_at_setup_shows_own_cards_and_only_counts_of_the_rest() -> None:
    deck = make_deck(
        ["red", "orange"],
        ["yellow", "green"],
        ["red", "red", "purple", "black", "green", "yellow"],
        ["orange", "orange", "orange", "black", "black", "purple"],
        ann_cup=("green", "purple"),
        bo_cup=("black", "red"),
    )
    view = ai.view_of(start(deck), 0)
    assert view.hand == (2, 0, 1, 1, 1, 1)
    assert view.cup == (0, 0, 0, 1, 1, 0)
    assert view.other_cup_seen == NONE
    assert (view.other_hand_size, view.other_cup_size, view.deck_size) == (6, 2, 88)
    assert view.mountains == ((1, 1, 0, 0, 0, 0), (0, 0, 1, 1, 0, 0))
    assert view.discard == NONE
    assert view.to_act == 0
    # Unseen: 18 of each less Ann's hand (2 red ...), her cup and the two mountains.
    assert view.unseen() == (15, 17, 16, 15, 16, 17)


def test_view_is_the_same_whatever_the_other_hand_other_cup_and_deck_order() -> None:
    ann = ["red", "red", "purple", "black", "green", "yellow"]
    first = make_deck(
        ["red", "orange"],
        ["yellow", "green"],
        ann,
        ["orange", "orange", "orange", "black", "black", "purple"],
        ann_cup=("green", "purple"),
        bo_cup=("black", "red"),
    )
    second = make_deck(
        ["red", "orange"],
        ["yellow", "green"],
        ann,
        ["yellow", "yellow", "green", "green", "red", "purple"],
        ann_cup=("green", "purple"),
        bo_cup=("orange", "orange"),
    )
    second = second[:20] + list(reversed(second[20:]))
    assert first[20:] != second[20:]
    a, b = start(first), start(second)
    assert a.hands[1] != b.hands[1] and a.cups[1] != b.cups[1] and a.deck != b.deck
    assert ai.view_of(a, 0) == ai.view_of(b, 0)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 160), st.integers(0, 10**6))
def test_decisions_depend_only_on_the_view(seed: int, plies: int, redeal: int) -> None:
    state, seen = random_position(seed, plies)
    seat = cards.acting_seat(state)
    if seat is None:
        return
    twin = shuffle_hidden(state, seat, random.Random(redeal))
    view = ai.view_of(state, seat, seen[seat])
    assert ai.view_of(twin, seat, seen[seat]) == view
    for level in ai.LEVELS:
        chosen = ai.decide(view, level, random.Random(7), iterations=30)
        again = ai.decide(
            ai.view_of(twin, seat, seen[seat]), level, random.Random(7), iterations=30
        )
        assert chosen == again


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 200))
def test_unseen_cards_are_exactly_the_other_hand_its_unseen_cup_and_the_deck(
    seed: int, plies: int
) -> None:
    state, seen = random_position(seed, plies)
    for seat in (0, 1):
        other = 1 - seat
        view = ai.view_of(state, seat, seen[seat])
        # The memory of claims is a part of the other cup that really is there.
        assert all(s <= c for s, c in zip(seen[seat], state.cups[other], strict=True))
        hidden = [
            h + c - s + d
            for h, c, s, d in zip(
                state.hands[other],
                state.cups[other],
                seen[seat],
                cards.cards_of(state.deck),
                strict=True,
            )
        ]
        assert list(view.unseen()) == hidden


# ---------------------------------------------------------------------------------------
# Legal choices


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 200), st.sampled_from(ai.LEVELS))
def test_choices_are_legal_in_the_real_state(seed: int, plies: int, level: ai.Level) -> None:
    state, seen = random_position(seed, plies)
    seat = cards.acting_seat(state)
    if seat is None:
        return
    view = ai.view_of(state, seat, seen[seat])
    assert view.legal() == cards.legal_actions(state)
    action = ai.decide(view, level, random.Random(seed), iterations=40)
    assert action in cards.legal_actions(state)


def test_hard_on_a_wall_time_budget_returns_a_legal_action() -> None:
    state, seen = random_position(3, 10)
    seat = cards.acting_seat(state)
    assert seat is not None
    action = ai.decide(ai.view_of(state, seat, seen[seat]), "hard", random.Random(1), 20)
    assert action in cards.legal_actions(state)


@pytest.mark.parametrize("levels", [("hard", "easy"), ("easy", "hard")])
def test_a_whole_game_between_computer_seats_ends(levels: tuple[ai.Level, ai.Level]) -> None:
    start_state = cards.new_game({"seats": ["Ann", "Bo"], "seed": 2026})
    state = start_state
    played: list[cards.Action] = []
    rng = random.Random(5)
    while not cards.is_over(state):
        seat = cards.acting_seat(state)
        assert seat is not None
        view = ai.view_of_game(start_state, played, seat)
        action = ai.decide(view, levels[seat], rng, iterations=25)
        assert action in cards.legal_actions(state)
        state = cards.apply(state, action)
        played.append(action)
        assert len(played) < 400
    assert cards.legal_actions(state) == []
    assert max(cards.scores(state)) > 0


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 150), st.integers(0, 2**32))
def test_hard_is_deterministic_for_a_seed_with_an_iteration_cap(
    seed: int, plies: int, rng_seed: int
) -> None:
    state, seen = random_position(seed, plies)
    seat = cards.acting_seat(state)
    if seat is None:
        return
    view = ai.view_of(state, seat, seen[seat])
    first = ai.decide(view, "hard", random.Random(rng_seed), iterations=60)
    assert ai.decide(view, "hard", random.Random(rng_seed), iterations=60) == first


# ---------------------------------------------------------------------------------------
# The search's copy of the rules agrees with the engine


class EngineShuffle(random.Random):
    """Shuffles a reshuffled discard pile exactly as a seeded engine game does."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self.game_seed = seed
        self.number = 0

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        pile = cards.cards_of(cards.COLOURS[c] for c in x)
        new_deck = seeded_reshuffle(self.game_seed, self.number, pile)
        self.number += 1
        x[:] = [cards.COLOURS.index(c) for c in reversed(new_deck)]


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**6))
def test_search_rules_play_random_games_exactly_like_the_engine(seed: int) -> None:
    state = cards.new_game({"seats": ["Ann", "Bo"], "seed": seed})
    sim = _Sim.of_state(state, EngineShuffle(seed))
    rng = random.Random(seed)
    while True:
        moves = _legal(sim)
        assert [_to_action(m) for m in moves] == cards.legal_actions(state)
        if state.over:
            assert sim.over and sim.winner() == cards.winner(state)
            break
        index = rng.randrange(len(moves))
        sim.play(moves[index])
        state = cards.apply(state, cards.legal_actions(state)[index])
        expected = _Sim.of_state(state, sim.rng)
        for name in _Sim.__slots__:
            if name != "completer" or sim.claim_m >= 0:  # only a destruction needs it
                assert getattr(sim, name) == getattr(expected, name), name


# ---------------------------------------------------------------------------------------
# Claims, memory and explanations: a destruction worked out by hand

ANN = ["yellow", "red", "purple", "yellow", "yellow", "yellow"]
BO = ["green", "orange", "black", "green", "green", "green"]


def destruction() -> cards.State:
    """Mandala 0 completed by Bo with 3 red, orange, purple and black in its mountain.

    Ann and Bo each hold one card in field 0 (a tie), so Ann, who did not complete it,
    chooses first.
    """
    deck = make_deck(["red", "red"], ["black", "black"], ANN, BO)
    return start(
        deck,
        {"field": 0, "colour": "yellow", "count": 1},
        {"field": 0, "colour": "green", "count": 1},
        {"mountain": 0, "colour": "red"},
        {"mountain": 0, "colour": "orange"},
        {"mountain": 0, "colour": "purple"},
        {"mountain": 0, "colour": "black"},
    )


def test_claim_explanations_say_where_the_cards_go() -> None:
    state = destruction()
    assert state.claiming is not None and state.seat == 0
    view = ai.view_of(state, 0)
    assert ai.explain(Claim("red"), view) == "claims red (river space 1, 2 to the cup)"
    assert ai.explain(Claim("orange"), view) == "claims orange (river space 1)"
    after = cards.apply(state, Claim("orange"))
    assert ai.explain(Claim("red"), after) == "claims red (river space 1, 2 to the cup)"


def test_claims_by_a_seat_with_an_empty_field_are_explained_as_discarded() -> None:
    deck = make_deck(["red", "red"], ["black", "black"], ANN, BO)
    state = start(
        deck,
        {"field": 0, "colour": "yellow", "count": 2},
        {"mountain": 0, "colour": "green"},
        {"mountain": 0, "colour": "red"},
        {"mountain": 0, "colour": "orange"},
        {"mountain": 0, "colour": "purple"},
        {"mountain": 0, "colour": "black"},
    )
    # Ann (2 field cards) chose first: give Bo, who has none, a claim.
    state = cards.apply(state, Claim("red"))
    assert state.seat == 1
    assert ai.explain(Claim("green"), ai.view_of(state, 1)) == "claims green (to the discard pile)"


def test_explanations_of_turns() -> None:
    assert ai.explain(MountainPlay(1, "purple")) == "plays purple into mountain 1"
    assert ai.explain(FieldPlay(0, "green", 1)) == "plays green into field 0"
    assert ai.explain(FieldPlay(1, "black", 3)) == "plays 3 black into field 1"
    assert ai.explain(Discard("green", 2)) == "discards 2 green"
    assert ai.explain(Discard("red", 1)) == "discards red"
    assert ai.explain(Claim("red")) == "claims red"


def test_a_seat_remembers_what_the_other_claimed_into_its_cup() -> None:
    state = destruction()
    ann_seen = NONE
    for claim in (Claim("orange"), Claim("red")):  # Ann orange, then Bo 3 red
        after = cards.apply(state, claim)
        ann_seen = ai.observe(ann_seen, state, claim, after, 0)
        state = after
    # Bo's 3 red: 1 to his river, 2 to his cup -- seen by Ann; his 2 black start cards not.
    assert ann_seen == (2, 0, 0, 0, 0, 0)
    view = ai.view_of(state, 0, ann_seen)
    assert view.other_cup_size == 4
    assert view.rivers == (("orange",), ("red",))


def test_view_of_game_replays_the_memory_of_claims() -> None:
    deck = make_deck(["red", "red"], ["black", "black"], ANN, BO)
    begin = start(deck)
    actions: list[cards.Action] = [
        FieldPlay(0, "yellow", 1),
        FieldPlay(0, "green", 1),
        MountainPlay(0, "red"),
        MountainPlay(0, "orange"),
        MountainPlay(0, "purple"),
        MountainPlay(0, "black"),
        Claim("orange"),
        Claim("red"),
    ]
    assert ai.view_of_game(begin, actions, 0).other_cup_seen == (2, 0, 0, 0, 0, 0)
    assert ai.view_of_game(begin, actions, 1).other_cup_seen == NONE


def test_easy_claims_the_colour_worth_most() -> None:
    # Ann's river is empty: 3 red (2 to the cup at space 1) beats any single card.
    view = ai.view_of(destruction(), 0)
    assert ai.decide(view, "easy", random.Random(0)) == Claim("red")


# ---------------------------------------------------------------------------------------
# Refusals


def test_deciding_out_of_turn_is_refused() -> None:
    view = ai.view_of(cards.new_game({"seats": ["Ann", "Bo"], "seed": 1}), 1)
    with pytest.raises(ValueError, match=r"^it is not Bo's action$"):
        ai.decide(view, "easy", random.Random(0))


def test_an_unknown_level_is_refused() -> None:
    view = ai.view_of(cards.new_game({"seats": ["Ann", "Bo"], "seed": 1}), 0)
    with pytest.raises(ValueError, match=r"^level 'medium': expected 'easy' or 'hard'$"):
        ai.decide(view, "medium", random.Random(0))  # type: ignore[arg-type]


def test_a_table_tracking_game_has_no_computer_seat() -> None:
    state = cards.new_game({"game": "cards", "mode": "table", "seats": ["Ann", "Bo"]})
    with pytest.raises(ValueError, match=r"^a computer seat plays only games played on the panel"):
        ai.view_of(state, 0)


def test_a_seat_outside_the_two_is_refused() -> None:
    state = cards.new_game({"seats": ["Ann", "Bo"], "seed": 1})
    with pytest.raises(ValueError, match=r"^seat 2: expected 0 or 1$"):
        ai.view_of(state, 2)
