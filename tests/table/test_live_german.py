"""The ring board's live turn says its reasons as phrases, in one form: each die's status, why
the turn cannot be confirmed yet, a ring's difference and the re-sync prompt read in German
from the catalogue, and their English stays word for word what it was
(tests/games/test_rings_explain.py, tests/table/test_rings_live.py)."""

from __future__ import annotations

from companion import catalogue
from companion.games import rings
from companion.games.base import JSON
from companion.phrases import Phrase, phrase_from_json
from companion.table import live
from tests.games.rings_helpers import (
    board_json,
    dice,
    position,
    reference_game,
    sensed,
)


def german(phrase: Phrase | None) -> str:
    assert phrase is not None
    return catalogue.render(phrase, "de")


def shown(found: JSON) -> Phrase:
    """A phrase as the live turn's JSON carries it."""
    assert isinstance(found, dict)
    return phrase_from_json(found)


def test_each_dies_status_reads_in_german_and_its_english_is_unchanged() -> None:
    rolled = {"red": 1, "blue": 2, "green": 0, "yellow": 3, "brown": 1}
    found = rings.explain(reference_game(), rolled, sensed(r5=1, r1=14, r3=3, r9=15))
    blue, green = found.dice["blue"], found.dice["green"]
    assert blue.phrase is not None and blue.phrase.english() == blue.reason
    assert german(blue.phrase) == "Ring 1 (Blau) um 2 gegen den Uhrzeigersinn gedreht"
    assert german(green.phrase) == "Der Würfel in Grün zeigt 0: Kein Ring in Grün wird gedreht"
    unused = rings.explain(reference_game(), dice(blue=3), sensed())
    assert unused.reason_phrase is not None
    assert unused.reason_phrase.english() == unused.reason
    assert german(unused.reason_phrase) == (
        "Der Würfel in Blau zeigt 3, aber kein Ring in Blau wurde gedreht"
    )


def test_a_void_die_reads_in_german() -> None:
    pegs = [(0, 6, 0), (0, 7, 0), (0, 8, 0), (0, 9, 0), (0, 6, 4), (0, 7, 4)]
    state = position(board_json(entrances=[1]), (("Ann", 0),), pegs, [[0, 0]], [0], "solo")
    found = rings.explain(state, dice(red=1, blue=1), sensed(r6=1))
    assert german(found.dice["red"].phrase) == (
        "Der Würfel in Rot ist ungültig: Beide Ringe in Rot sind gesperrt"
    )


def test_why_the_turn_cannot_be_confirmed_reads_in_german() -> None:
    state = reference_game()
    still = [live.RingSense(0) for _ in range(10)]
    turn = live.live_turn(state, None, still, None)
    assert shown(turn.to_json()["blocked"]).english() == "enter or roll the dice first"
    assert german(turn.blocked) == "Gib zuerst die Würfel ein oder würfle"
    moving = [live.RingSense(0, settled=number != 4) for number in range(10)]
    turn = live.live_turn(state, dice(), moving, None)
    assert shown(turn.to_json()["blocked"]).english() == "ring 4 is still moving"
    assert german(turn.blocked) == "Ring 4 bewegt sich noch"
    wrong = live.live_turn(state, dice(blue=3), still, None)
    assert wrong.blocked is not None
    assert wrong.blocked.english() == "the blue die shows 3 but no blue ring turned"
    statuses = wrong.to_json()["dice_status"]
    assert isinstance(statuses, dict) and isinstance(statuses["blue"], dict)
    assert wrong.to_json()["blocked"] == statuses["blue"]["reason"]
    resync = live.Resync("undo", tuple([0] * 10))
    turn = live.live_turn(state, dice(), still, resync)
    assert shown(turn.to_json()["blocked"]).english() == (
        "re-sync first: the last turn was undone: turn the rings back to where the game has them"
    )
    assert german(turn.blocked) == (
        "Erst die Ringe neu abgleichen: Der letzte Zug wurde rückgängig gemacht: "
        "Dreh die Ringe zurück, wie das Spiel sie hat"
    )


def test_each_dies_reason_goes_out_as_one_phrase() -> None:
    turn = live.live_turn(
        reference_game(), dice(blue=3), [live.RingSense(0) for _ in range(10)], None
    )
    statuses = turn.to_json()["dice_status"]
    assert isinstance(statuses, dict)
    blue = statuses["blue"]
    assert isinstance(blue, dict) and set(blue) == {"status", "reason"}
    assert blue["status"] == "unused"
    assert shown(blue["reason"]).english() == "the blue die shows 3 but no blue ring turned"
    assert german(shown(blue["reason"])) == (
        "Der Würfel in Blau zeigt 3, aber kein Ring in Blau wurde gedreht"
    )


def test_the_resync_prompt_reads_in_german() -> None:
    view = live.resync_view(live.Resync("new", tuple([0] * 10)), [live.RingSense(0)] * 10, 16)
    prompt = shown(view["prompt"])
    assert prompt.english() == "a new game: set every ring's mark at the star"
    assert german(prompt) == "Ein neues Spiel: Stell die Marke jedes Rings auf den Stern"
    for phrase in live.RESYNC_PHRASES.values():
        assert german(phrase) != phrase.english()


def test_how_far_a_ring_stands_from_the_game_reads_in_german() -> None:
    state = reference_game()
    sense = [live.RingSense(offset) for offset in sensed(r0=2, r3=15)]
    for explained in (None, dice(red=1)):
        views = live.live_turn(state, explained, sense, None).to_json()["rings"]
        assert isinstance(views, list)
        differences = {}
        for view in views:
            assert isinstance(view, dict)
            if view["difference"] is not None:
                differences[view["ring"]] = shown(view["difference"])
        assert set(differences) == {0, 3}
        assert differences[0].english() == "ring 0 is 2 slots clockwise of where the game has it"
        assert german(differences[0]) == (
            "Ring 0 steht 2 Felder im Uhrzeigersinn von dort, wo das Spiel ihn hat"
        )
        assert german(differences[3]) == (
            "Ring 3 steht 1 Feld gegen den Uhrzeigersinn von dort, wo das Spiel ihn hat"
        )
