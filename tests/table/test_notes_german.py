"""The table's notes (the log's instructions, the last turn, the live preview) are phrases:
each page says them in the phone's language, here German from the catalogue, while English
stays word for word what it was (the English tests beside each game's own)."""

from __future__ import annotations

import json
from typing import Any

from companion import catalogue
from companion.games import rings
from companion.table import Table
from tests.conftest import SPEC_EXAMPLES
from tests.games.rings_helpers import ZERO, board_json, position, turn
from tests.phrase_json import from_json


def record_of(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((SPEC_EXAMPLES / f"{name}.record.json").read_text())
    return value


def german(found: Any) -> list[str]:
    """A log entry's instructions (phrase JSON) in German."""
    return [catalogue.render(from_json(note), "de") for note in found]


def test_a_snipe_and_an_entry_read_in_german() -> None:
    state = position(
        board_json(coloured=[(6, 0)], entrances=[1]),
        (("Ann", 0), ("Bo", 2)),
        pegs=[(0, 0, 0), (0, 9, 1), (1, 1, 0), (1, 0, 4)],
        waiting=[[4], [4]],
        scores=[0, 0],
    )
    notes = rings.describe_all(rings.resolve(state, turn(dict(ZERO))))
    assert [catalogue.render(note, "de") for note in notes] == [
        "Der Stift von Ann auf Ring 9, Speiche 1 erreicht die Mitte (1 Punkt): "
        "zurück in den Startbereich von Ann",
        "Setz den Stift von Ann auf Speiche 0 von Ring 0 auf Ring 1",
        "Der Stift von Bo auf Ring 1, Speiche 0 wird rausgeworfen: "
        "zurück in den Startbereich von Bo",
        "Setz den Stift von Ann auf Speiche 0 von Ring 1 auf Ring 5",
        "Setz einen Stift aus dem Startbereich von Ann auf Ring 0, Speiche 0",
    ]
    assert notes[2].english() == "Bo's peg on ring 1, spoke 0 is sniped: back to Bo's base"


def test_a_card_claim_reads_in_german_through_the_log(table: Table) -> None:
    record = record_of("cards-t1-deals-destruction-deal")
    record["actions"] = record["actions"][:8]  # Ann claims yellow from mountain 1
    log = table.create_game({"record": record})["state"]["log"]
    # The phrases' mandala numbers count from 0 as the records do; the page shows them + 1.
    assert german(log[6]["instructions"]) == [
        "Ann spielt Orange in das eigene Feld von Mandala 1",
        "Mandala 1 ist vollständig: Ann wählt zuerst (mehr Karten im eigenen Feld dort)",
        "Ann nimmt als Nächstes",
    ]
    assert german(log[7]["instructions"]) == [
        "Ann nimmt 2 Karten Gelb: 1 in den Fluss von Ann (Platz 1), 1 in den Kelch von Ann",
        "Bo nimmt als Nächstes",
    ]
    assert from_json(log[7]["instructions"][0]).english() == (
        "Ann claims 2 yellow: 1 to Ann's river (space 1), 1 to Ann's cup"
    )


def test_an_icehouse_pick_reads_in_german_through_the_log(table: Table) -> None:
    record = json.loads((SPEC_EXAMPLES / "icehouse-01-eye-after-a-pick.record.json").read_text())
    game = table.create_game({"record": {**record, "picks": []}})
    table.act(game["id"], 1, {"pick": 4})
    log = table.get_game(game["id"])["state"]["log"]
    assert german(log[0]["instructions"]) == ["Ann nimmt Gelb-2 von Platz 4"]
    assert from_json(log[0]["instructions"][0]).english() == "Ann takes the yellow-2 at 4"
