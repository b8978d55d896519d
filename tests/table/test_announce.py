"""Announcements: what happens in a game as short sentences to hear (issue 25).

The pure sentences by hand, then a real Table on a real SQLite file: the ``say`` items a
stream gets, in order, after each change.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from companion import catalogue
from companion.games import rings, stones
from companion.phrases import Phrase
from companion.table import Subscription, Table
from companion.table.announce import (
    RESYNC_SAID,
    computer_turn,
    dice_rolled,
    points,
    ring_position,
    turn_ring,
    whose_turn,
)
from companion.table.seats import Viewer
from tests.conftest import SPEC_EXAMPLES
from tests.phrase_json import english, from_json
from tests.table.conftest import opener


def record(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    return loaded


def said(subscription: Subscription, language: str = "en") -> list[tuple[str, list[str]]]:
    """The ``say`` items a stream got until it fell quiet: ``(topic, sentences)`` each, the
    sentences in ``language`` (as the phones and the Pi's speaker render them)."""
    found = []
    while (item := subscription.get(timeout=0.3)) is not None:
        if item["type"] == "say":
            found.append((item["topic"], [rendered(p, language) for p in item["phrases"]]))
    return found


def said_of(
    table: Table,
    game: dict[str, Any],
    action: dict[str, Any],
    language: str = "en",
    viewer: Viewer | None = None,
) -> list[tuple[str, list[str]]]:
    """What a stream newly subscribed is told of ``action`` on ``game`` (what it was told
    before the action taken out), in ``language``."""
    subscription = table.subscribe()
    said(subscription)
    table.act(game["id"], game["version"], action, viewer)
    return said(subscription, language)


def rendered(found: dict[str, Any], language: str) -> str:
    """A phrase's JSON rendered in ``language`` from the compiled catalogue."""
    return catalogue.render(from_json(found), language)


REFERENCE = rings.load_board("reference")


# The sentences, by hand ---------------------------------------------------------------------


def test_a_ring_is_named_by_its_colour_and_its_place_from_the_nearer_edge() -> None:
    assert ring_position(0, 10).english() == "the outermost"
    assert ring_position(1, 10).english() == "second from the outside"
    assert ring_position(4, 10).english() == "fifth from the outside"
    assert ring_position(5, 10).english() == "fifth from the inside"
    assert ring_position(9, 10).english() == "the innermost"


def test_a_computer_seats_instructions_name_the_colour_place_slots_and_way() -> None:
    blue = next(n for n, ring in enumerate(REFERENCE.rings) if ring.colour == "blue")
    brown = max(n for n, ring in enumerate(REFERENCE.rings) if ring.colour == "brown")
    words = [p.english() for p in computer_turn("Bo", [(blue, 2), (brown, -1)], REFERENCE)]
    place = ring_position(blue, 10).english()
    assert words == [
        f"Bo: turn the blue ring, {place}, 2 slots clockwise",
        f"Then turn the brown ring, {ring_position(brown, 10).english()}, 1 slot counter-clockwise",
    ]


def test_a_computer_seat_that_turns_no_ring_says_so() -> None:
    assert [p.english() for p in computer_turn("Bo", [], REFERENCE)] == ["Bo turns no ring"]


def test_the_dice_are_said_in_the_dice_colours_order() -> None:
    dice = {"brown": 1, "yellow": 3, "green": 0, "blue": 2, "red": 1}
    assert dice_rolled("Ann", dice).english() == (
        "Ann rolled red 1, blue 2, green 0, yellow 3, brown 1"
    )


def test_a_score_of_one_is_a_point_and_more_are_points_through_the_plural_form() -> None:
    assert points("Ann", 1).english() == "Ann has 1 point"
    assert points("Ann", 3).english() == "Ann has 3 points"
    assert points("Ann", 3).plural == "{name} has {count} points"  # a catalogue form, no "s"
    assert whose_turn("Bo").english() == "Bo's turn"


# What a stream is told -------------------------------------------------------------------------


def test_a_run_sniping_two_pegs_is_said_once_with_the_entry_the_score_and_whose_turn(
    table: Table,
) -> None:
    found = record("rings-04-snipe-two-in-one-run")
    last = found["turns"].pop()
    game = table.create_game({"record": found})
    assert said_of(table, game, last) == [
        (
            "events",
            [
                "Ann snipes 2 of Bo's pegs on spoke 0",
                "Ann enters a peg on spoke 0",
                "Ann has 2 points",
            ],
        ),
        ("turn", ["Bo's turn"]),
    ]


def said_until(subscription: Subscription, last: tuple[str, list[str]]) -> list[Any]:
    """The ``say`` items until ``last`` (a hang guard of 20 s, not a speed test)."""
    found: list[Any] = []
    deadline = time.monotonic() + 20
    while last not in found:
        item = subscription.get(timeout=max(0.0, deadline - time.monotonic()))
        assert item is not None, f"no {last} after {found}"
        if item["type"] == "say":
            found.append((item["topic"], [english(p) for p in item["phrases"]]))
    return found


def test_a_computer_seat_says_its_dice_then_each_ring_to_turn_then_what_its_turn_did(
    tmp_path: Path,
) -> None:
    with Table(tmp_path / "data", opener()) as table:
        table.computer.turn_pause_s = 0.01
        subscription = table.subscribe()
        game = table.create_game(
            {
                "kind": "rings",
                "board": "reference",
                "variant": "standard",
                "seed": 11,
                "seats": [
                    {"name": "Ann", "corner": 0, "computer": "medium"},
                    {"name": "Bo", "corner": 2},
                ],
            }
        )
        found = said_until(subscription, ("turn", ["Bo's turn"]))
        state = table.get_game(game["id"])["state"]
    played = state["log"][0]["action"]
    dice = played["dice"]
    rolled = dice_rolled("Ann", dice).english()
    turns = [(r["ring"], r["steps"]) for r in state["computer_last"]["rings"]]
    instructions = [p.english() for p in computer_turn("Ann", turns, REFERENCE)]
    topics = [topic for topic, _ in found]
    assert ("dice", [rolled]) in found
    assert ("computer", instructions) in found
    assert topics.index("dice") < topics.index("computer") < topics.index("events")
    assert found[-1] == ("turn", ["Bo's turn"])
    assert instructions[0].startswith("Ann: turn the ")


def test_an_icehouse_pick_says_the_piece_taken_what_falls_into_the_eye_and_whose_turn(
    table: Table,
) -> None:
    found = record("icehouse-01-eye-after-a-pick")
    last = found["picks"].pop()
    game = table.create_game({"record": found})
    assert said_of(table, game, {"pick": last}) == [
        ("events", ["Bo takes a large blue", "4 pieces fall into the Eye"]),
        ("turn", ["Cy's turn"]),
    ]


def test_an_undone_step_is_said_as_taken_back(table: Table) -> None:
    game = table.create_game({"record": record("icehouse-01-eye-after-a-pick")})
    subscription = table.subscribe()
    said(subscription)
    table.undo(game["id"], game["version"])
    assert said(subscription)[0] == ("events", ["The last move was taken back"])


def test_a_resync_says_why_and_each_ring_to_turn_then_that_the_rings_match(
    tmp_path: Path,
) -> None:
    from tests.table.conftest import TWO_SEATS, settled_at, turn_ring

    with Table(tmp_path / "data", opener()) as table:
        first = table.create_game(dict(TWO_SEATS))
        settled_at(table, first["id"], [0] * 10)
        second = table.create_game(dict(TWO_SEATS))  # on the board now
        settled_at(table, second["id"], [0] * 10)
        turn_ring(table, 0, 1)
        settled_at(table, second["id"], [1] + [0] * 9)
        subscription = table.subscribe()
        said(subscription)
        version = table.get_game(first["id"])["version"]
        table.act(first["id"], version, {"resume": True})
        outer = REFERENCE.rings[0].colour
        said_until(
            subscription,
            (
                "resync",
                [
                    "This game was resumed. Set the rings to where the game has them.",
                    f"Turn the {outer} ring, the outermost, 1 slot counter-clockwise",
                ],
            ),
        )
        turn_ring(table, 0, -1)
        assert said_until(subscription, ("resync", ["The rings match the game"]))


def test_the_last_step_of_a_stones_game_says_the_scores_it_changed_and_the_winner(
    table: Table,
) -> None:
    found = record("stones-06-objectives-tie")
    last = found["actions"].pop()
    game = table.create_game({"record": found})
    summary = json.loads((SPEC_EXAMPLES / "stones-06-objectives-tie.summary.json").read_text())
    assert summary["winner"] == "Ann" and summary["over"] is True
    assert said_of(table, game, last) == [("events", ["Bo has 5 points", "Ann wins"])]


def both_seats(table: Table, game_id: str) -> Viewer:
    """A phone holding both seats of a card game played on the panel (it may make any step)."""
    return Viewer(tuple(str(table.take_seat(game_id, s, Viewer())["token"]) for s in (0, 1)))


def test_a_card_play_that_completes_a_mandala_says_the_card_and_who_chooses_first_from_1(
    table: Table,
) -> None:
    found = record("cards-02-more-field-cards-choose-first")
    last = found["actions"].pop()
    assert last == {"mountain": 0, "colour": "black"}
    game = table.create_game({"record": found})
    phone = both_seats(table, game["id"])
    assert said_of(table, game, last, viewer=phone) == [
        (
            "events",
            ["Bo plays black into mountain 1", "Mandala 1 is complete: Ann chooses first"],
        ),
        ("turn", ["Ann's turn"]),
    ]


def test_the_last_claim_of_a_destruction_says_the_colour_and_that_the_mandala_is_destroyed(
    table: Table,
) -> None:
    found = record("cards-04-empty-field-claims-to-discard")
    last = found["actions"].pop()
    assert last == {"claim": "purple"}
    game = table.create_game({"record": found})
    phone = both_seats(table, game["id"])
    claimer = table.get_game(game["id"])["state"]["to_move"]
    assert said_of(table, game, last, viewer=phone)[0] == (
        "events",
        [f"{claimer} claims purple", "Mandala 1 is destroyed", f"{claimer} has 3 points"],
    )


def test_a_card_field_play_counts_its_cards_through_the_plural_form() -> None:
    from companion.games import cards
    from companion.table.announce_games import card_events

    before = cards.new_game(record("cards-02-more-field-cards-choose-first"))
    name = before.seats[before.seat]
    plays = [a for a in cards.legal_actions(before) if isinstance(a, cards.FieldPlay)]
    for count, cards_word in ((1, "card"), (2, "cards")):
        play = next(a for a in plays if a.count == count)
        assert [p.english() for p in card_events(before, play, cards.apply(before, play))] == [
            f"{name} plays {count} {play.colour} {cards_word} into their field of mandala"
            f" {play.mandala + 1}"
        ]


def test_a_stones_pick_says_how_many_stones_it_took_for_which_space(table: Table) -> None:
    found = record("stones-06-objectives-tie")
    actions = found["actions"]
    first = actions[0]
    assert "pick" in first
    found["actions"] = []
    game = table.create_game({"record": found})
    told = said_of(table, game, first)
    start = stones.new_game(found)
    after = stones.apply(start, stones.parse_action(start, first))
    count = len(after.boards[0][first["pick"]["space"] - 1])
    assert count >= 1
    stones_word = "stone" if count == 1 else "stones"
    assert told[0] == (
        "events",
        [f"Ann picks {count} {stones_word} for space {first['pick']['space']}"],
    )


def test_every_colour_of_every_game_is_a_word_of_its_own_in_the_catalogue() -> None:
    from companion.games import cards, icehouse
    from companion.table.announce_games import COLOUR_WORDS

    for colour in (*rings.COLOURS, *cards.COLOURS, *stones.COLOURS, *icehouse.COLOURS):
        assert COLOUR_WORDS[colour].english() == colour


# In German (the box's language for the table view and the Pi's speaker, a phone's own) ------


def german(phrase: Phrase) -> str:
    return catalogue.render(phrase, "de")


def test_in_german_a_computer_seat_names_the_ring_by_colour_and_place_and_the_slots_and_way() -> (
    None
):
    blue = next(n for n, ring in enumerate(REFERENCE.rings) if ring.colour == "blue")
    brown = max(n for n, ring in enumerate(REFERENCE.rings) if ring.colour == "brown")
    assert (blue, brown) == (1, 9)  # second from the outside, the innermost
    words = [german(p) for p in computer_turn("Bo", [(blue, 2), (brown, -1)], REFERENCE)]
    assert words == [
        "Bo: Dreh den Ring in Blau, den zweiten von außen, um 2 Felder im Uhrzeigersinn",
        "Dann dreh den Ring in Braun, den innersten, um 1 Feld gegen den Uhrzeigersinn",
    ]
    assert [german(p) for p in computer_turn("Bo", [], REFERENCE)] == ["Bo dreht keinen Ring"]
    places = [german(ring_position(ring, 10)) for ring in range(10)]
    assert places == [
        "den äußersten",
        "den zweiten von außen",
        "den dritten von außen",
        "den vierten von außen",
        "den fünften von außen",
        "den fünften von innen",
        "den vierten von innen",
        "den dritten von innen",
        "den zweiten von innen",
        "den innersten",
    ]


def test_in_german_the_dice_whose_turn_and_the_points_through_the_plural_form() -> None:
    dice = {"brown": 1, "yellow": 3, "green": 0, "blue": 2, "red": 1}
    assert german(dice_rolled("Ann", dice)) == (
        "Ann hat gewürfelt: Rot 1, Blau 2, Grün 0, Gelb 3, Braun 1"
    )
    assert german(points("Ann", 1)) == "Ann hat 1 Punkt"
    assert german(points("Ann", 3)) == "Ann hat 3 Punkte"
    assert german(whose_turn("Bo")) == "Bo ist am Zug"


def test_in_german_every_resync_says_why_and_how_to_turn_a_ring() -> None:
    assert {reason: german(p) for reason, p in RESYNC_SAID.items()} == {
        "restart": "Die Box wurde neu gestartet. Prüfe, ob ein Ring bewegt wurde, während sie"
        " aus war.",
        "undo": "Der letzte Zug wurde rückgängig gemacht. Dreh die Ringe zurück, wie das Spiel"
        " sie hat.",
        "resume": "Dieses Spiel wurde fortgesetzt. Stell die Ringe so, wie das Spiel sie hat.",
        "import": "Dieses Spiel wurde importiert. Stell die Ringe so, wie das Spiel sie hat.",
        "new": "Ein neues Spiel. Stell die Marke jedes Rings auf den Stern.",
    }
    step = turn_ring("none", "", "green", ring_position(9, 10), -5)
    assert (
        german(step) == "Dreh den Ring in Grün, den innersten, um 5 Felder gegen den Uhrzeigersinn"
    )


def test_in_german_a_run_sniping_two_pegs_is_one_sentence_with_the_plural_form(
    table: Table,
) -> None:
    found = record("rings-04-snipe-two-in-one-run")
    last = found["turns"].pop()
    game = table.create_game({"record": found})
    assert said_of(table, game, last, "de") == [
        (
            "events",
            [
                "Ann wirft 2 Stifte von Bo auf Speiche 0 raus",
                "Ann setzt einen Stift auf Speiche 0 ein",
                "Ann hat 2 Punkte",
            ],
        ),
        ("turn", ["Bo ist am Zug"]),
    ]


def test_in_german_an_icehouse_pick_names_the_piece_by_colour_and_size_after_a_colon(
    table: Table,
) -> None:
    found = record("icehouse-01-eye-after-a-pick")
    last = found["picks"].pop()
    game = table.create_game({"record": found})
    subscription = table.subscribe()
    said(subscription)
    table.act(game["id"], game["version"], {"pick": last})
    assert said(subscription, "de") == [
        ("events", ["Bo nimmt eine Pyramide: Blau, groß", "4 Pyramiden fallen ins Auge"]),
        ("turn", ["Cy ist am Zug"]),
    ]
    table.undo(game["id"], table.get_game(game["id"])["version"])
    assert said(subscription, "de")[0] == ("events", ["Der letzte Zug wurde zurückgenommen"])
