"""A card game played on the panel against the companion (issue 11), through the API.

Ann (a phone, seat 0, the page's cookie) plays the companion (seat 1, ``"computer"`` on the
seat object). The companion is driven by the real table: a worker thread decides from the
seat's view with the real ``companion.players.cards.decide`` (wrapped only to record what it
is given) and posts its action through the table's ``act``.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.catalogue import render
from companion.config import read_config
from companion.games import cards
from companion.games.base import RecordError
from companion.phrases import phrase_from_json
from companion.players import cards as players
from companion.table.cards_companion import explain_words
from companion.table.table import Table
from companion.web import create_app
from tests.conftest import run_cli
from tests.players.test_cards_ai import SEAT_VIEW_FIELDS
from tests.web.conftest import assert_error, stacked_cards
from tests.web.test_cards_hidden import (
    Phone,
    Secrets,
    Stream,
    assert_text_hides,
    assert_view_hides,
    base,  # noqa: F401  (the fixture: the app on real waitress, for the live streams)
    check_answer,
    check_every_route,
)

SEED = 9
SEATS = ["Ann", "Bo"]
AGAINST = ["Ann", {"name": "Bo", "computer": "hard"}]
WAIT_S = 60.0
"""A hang guard for the companion's action (it takes its pause plus a few milliseconds)."""


class Recorder:
    """Wraps the real ``decide``: records each argument and the thread it ran on."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, str, int]] = []
        self.threads: list[str] = []

    def __call__(self, view: Any, level: Any, rng: random.Random, budget_ms: int) -> Any:
        self.calls.append((view, level, budget_ms))
        self.threads.append(threading.current_thread().name)
        return players.decide(view, level, rng, budget_ms)


@pytest.fixture
def recorder(table: Table) -> Recorder:
    found = Recorder()
    table.companion.decide = found
    table.companion.configure(budget_ms=5, pause_ms=0)
    return found


def replayed(log: list[dict[str, Any]], seed: int = SEED) -> cards.State:
    """The true state: the public actions of the log replayed on the engine from the seed."""
    state = cards.new_game({"seats": SEATS, "seed": seed})
    for entry in log:
        state = cards.apply(state, cards.parse_action(state, entry["action"]))
    return state


def wait_for(get: Callable[[], dict[str, Any]], ready: Callable[[dict[str, Any]], bool]) -> Any:
    deadline = time.monotonic() + WAIT_S
    while True:
        game = get()
        if ready(game):
            return game
        assert time.monotonic() < deadline, f"the companion did not act: {game['state']}"
        time.sleep(0.005)


def new_game(client: FlaskClient, seats: list[Any], seed: int = SEED) -> tuple[str, FlaskClient]:
    """Create a game against the companion; Ann takes seat 0 on a phone (cookie kept)."""
    game_id = str(stacked_cards(client, {"seats": seats, "seed": seed})["id"])
    return game_id, client


def ann_phone(app: Flask, game_id: str) -> FlaskClient:
    ann = app.test_client()
    taken = ann.post(f"/api/games/{game_id}/seats/0/take", json={})
    assert taken.status_code == 200, taken.get_json()
    return ann


def ann_before_the_companion(app: Flask, table: Table) -> tuple[str, str, FlaskClient, list[Any]]:
    """Start a game against the companion paused for a minute, so its turn waits; return
    the game's id and URL, Ann's phone (seat 0 taken) and her legal actions."""
    table.companion.configure(pause_ms=60_000)
    game_id, _ = new_game(app.test_client(), AGAINST)
    url = f"/api/games/{game_id}"
    ann = ann_phone(app, game_id)
    return game_id, url, ann, ann.get(url).get_json()["state"]["legal"]


def ann_to_act(game: dict[str, Any]) -> bool:
    return bool(game["state"]["over"] or game["state"]["legal"])


# ---------------------------------------------------------------------------------------
# A whole game


def states_of(log: list[dict[str, Any]]) -> list[cards.State]:
    """The true state before the first action and after each one (version v: ``[v - 1]``)."""
    states = [cards.new_game({"seats": SEATS, "seed": SEED})]
    for entry in log:
        states.append(cards.apply(states[-1], cards.parse_action(states[-1], entry["action"])))
    return states


def check_stream(stream: Stream, seat: int | None, game_id: str, game: dict[str, Any]) -> int:
    """Check every item of a live stream up to ``game``'s version, each against the true
    state of its own version (the companion's actions come in between Ann's)."""
    states = states_of(game["state"]["log"])
    latest = states[0]
    items = stream.until_version(game_id, game["version"])
    for item, raw in items:
        if item.get("type") == "game" and item.get("id") == game_id:
            latest = states[int(item["version"]) - 1]
        secrets = Secrets.of(latest, seat)
        assert_text_hides(raw, secrets, f"stream of seat {seat}")
        assert_view_hides(item, secrets, f"stream of seat {seat}")
    return len(items)


def test_a_whole_game_against_the_companion_ends_replays_and_never_shows_its_hand(
    app: Flask, table: Table, recorder: Recorder, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    served = str(request.getfixturevalue("base"))
    host = app.test_client()
    game_id, _ = new_game(host, AGAINST)
    url = f"/api/games/{game_id}"
    ann = ann_phone(app, game_id)
    cookie = ann.get_cookie(f"mandala_seat_{game_id}")
    assert cookie is not None
    streams = [
        (Stream(served, {"Cookie": f"mandala_seat_{game_id}={cookie.value}"}), 0),
        (Stream(served, {}), None),
    ]
    streamed = 0
    phones = [
        Phone("Ann", ann, 0, {}),
        Phone("shared", app.test_client(), None, {}),
        Phone("host", host, None, {}),
    ]
    rng = random.Random(2026)
    ann_actions = 0
    checked = 0
    while True:
        # The companion acts on its own; the game stands still once it is Ann's action.
        game = wait_for(lambda: ann.get(url).get_json(), ann_to_act)
        state = replayed(game["state"]["log"])
        counts = check_every_route(app, phones, game_id, state, game["version"])
        checked += counts["hidden"]
        for stream, seat in streams:  # (version 1 was made before the streams opened)
            streamed += check_stream(stream, seat, game_id, game) if game["version"] > 1 else 0
        seen = game["state"]
        assert seen["players"] == [
            {"name": "Ann", "computer": None},
            {"name": "Bo", "computer": "hard"},
        ]
        if state.over:
            break
        assert seen["hands"]["Bo"] == state.hand_size(1)  # a count, never the colours
        assert seen["cups"]["Bo"] == sum(state.cups[1])
        assert seen["scores"]["Bo"] is None
        action = rng.choice(seen["legal"])  # a random legal person
        answer = ann.post(url + "/actions", json={"version": game["version"], "action": action})
        assert answer.status_code == 200, answer.get_json()
        ann_actions += 1
    for stream, _ in streams:
        stream.close()
    assert checked > 100  # hidden hands and cups were there to be looked for, many times
    assert streamed > len(seen["log"])  # every action reached both streams
    log = seen["log"]
    assert seen["over"] is True and seen["companion"] is None
    # The lines the companion said: one per action of its seat, as the engine explains it.
    said = seen["companion_said"]
    start = cards.new_game({"seats": SEATS, "seed": SEED})
    before = start
    expected = []
    english = []  # what the engine explains, word for word
    for number, entry in enumerate(log, start=1):
        action = cards.parse_action(before, entry["action"])
        if cards.acting_seat(before) == 1:
            expected.append(
                {
                    "action": number,
                    "seat": "Bo",
                    "phrase": explain_words("Bo", action, before).to_json(),
                }
            )
            english.append("Bo (companion) " + players.explain(action, before))
        before = cards.apply(before, action)
    assert said == expected
    # Its words say the same in English, and in German on a German page.
    for line, words in zip(said, english, strict=True):
        phrase = phrase_from_json(line["phrase"])
        assert phrase.english() == words
        german = render(phrase, "de")
        assert german.startswith("Bo (Companion) ") and "companion" not in german, german
    assert len(said) == len(log) - ann_actions > 0
    # The worker was given the companion's view, exactly, before each of its actions.
    views = [call[0] for call in recorder.calls]
    assert len(views) == len(said)
    for line, view in zip(said, views, strict=True):
        assert type(view) is players.SeatView
        assert {f.name for f in fields(view)} == SEAT_VIEW_FIELDS
        number = int(line["action"]) - 1
        steps = []
        state = start
        for entry in log[:number]:
            step = cards.parse_action(state, entry["action"])
            steps.append(step)
            state = cards.apply(state, step)
        assert view == players.view_of_game(start, steps, 1)
        assert view.seat == 1 and view.hand == state.hands[1]
    assert {call[1] for call in recorder.calls} == {"hard"}
    assert {call[2] for call in recorder.calls} == {5}
    assert set(recorder.threads) == {"cards-companion"}
    # After the end the export is the plain record; `mandala replay` gives the same state.
    record = phones[1].get(url + "/record")
    assert record.status_code == 200
    exported = record.get_json()
    assert exported["seats"] == SEATS and exported["seed"] == SEED
    assert exported["actions"] == [entry["action"] for entry in log]
    path = tmp_path / "against.record.json"
    path.write_text(record.get_data(as_text=True))
    result = run_cli(["replay", str(path)])
    assert result.status == 0, result.stderr
    final = replayed(log)
    summary = cards.summary(final)
    assert json.loads(result.stdout) == summary
    for key in ("scores", "winner", "rivers", "cups", "hands", "over"):
        assert seen[key] == summary[key]


def test_the_companion_plays_easy_too_and_claims_in_turn(
    app: Flask, table: Table, recorder: Recorder
) -> None:
    host = app.test_client()
    game_id, _ = new_game(host, [{"name": "Ann"}, {"name": "Bo", "computer": "easy"}], seed=4)
    url = f"/api/games/{game_id}"
    ann = ann_phone(app, game_id)
    rng = random.Random(4)
    claims_by_bo = 0
    while True:
        game = wait_for(lambda: ann.get(url).get_json(), ann_to_act)
        if game["state"]["over"]:
            break
        action = rng.choice(game["state"]["legal"])
        assert (
            ann.post(
                url + "/actions", json={"version": game["version"], "action": action}
            ).status_code
            == 200
        )
    state = replayed(game["state"]["log"], seed=4)
    assert state.over
    before = cards.new_game({"seats": SEATS, "seed": 4})
    for entry in game["state"]["log"]:
        action = cards.parse_action(before, entry["action"])
        if isinstance(action, cards.Claim) and before.seat == 1:
            claims_by_bo += 1
        before = cards.apply(before, action)
    assert claims_by_bo > 0  # it claimed during destructions, in its turn
    assert {call[1] for call in recorder.calls} == {"easy"}


# ---------------------------------------------------------------------------------------
# Seats, the pause, restarts


def test_nobody_can_take_or_free_the_companions_seat(app: Flask, table: Table) -> None:
    host = app.test_client()
    game_id, _ = new_game(host, AGAINST)
    url = f"/api/games/{game_id}"
    message = "seat 1 (Bo) is the companion's: no phone may take it"
    assert_error(app.test_client().post(url + "/seats/1/take", json={}), 403, "forbidden", message)
    assert_error(host.post(url + "/seats/1/take", json={}), 403, "forbidden", message)
    freed = host.post(url + "/seats/1/free", json={})
    assert_error(freed, 403, "forbidden", "seat 1 (Bo) is the companion's: no phone may free it")
    shown = app.test_client().get(url).get_json()["state"]
    assert shown["taken"] == [False, False]
    assert shown["players"][1] == {"name": "Bo", "computer": "hard"}
    assert ann_phone(app, game_id).get(url).get_json()["state"]["seat"] == "Ann"


def test_a_person_cannot_act_for_the_companion(app: Flask, table: Table) -> None:
    table.companion.configure(pause_ms=60_000)  # the companion waits: it is still its turn
    game_id, _ = new_game(app.test_client(), [{"name": "Ann", "computer": "easy"}, "Bo"])
    url = f"/api/games/{game_id}"
    bo = app.test_client()
    assert bo.post(f"{url}/seats/1/take", json={}).status_code == 200
    game = bo.get(url).get_json()
    assert game["state"]["to_move"] == "Ann" and game["state"]["legal"] == []
    thinking = game["state"]["companion"]
    assert {key: value for key, value in thinking.items() if key != "phrase"} == {
        "seat": "Ann",
        "level": "easy",
        "error": None,
    }
    said = phrase_from_json(thinking["phrase"])
    assert said.english() == "Ann (companion, easy) is thinking"
    assert render(said, "de") == "Ann (Companion, leicht) überlegt"
    refused = bo.post(
        url + "/actions", json={"version": 1, "action": {"discard": "red", "count": 1}}
    )
    assert_error(
        refused, 403, "forbidden", "it is Ann's turn: only the phone that took Ann's seat may act"
    )


def test_each_companion_action_waits_out_the_configured_pause(
    app: Flask, table: Table, recorder: Recorder
) -> None:
    table.companion.configure(pause_ms=300)
    game_id, _ = new_game(app.test_client(), AGAINST)
    url = f"/api/games/{game_id}"
    ann = ann_phone(app, game_id)
    game = ann.get(url).get_json()
    action = game["state"]["legal"][0]
    began = time.monotonic()
    assert ann.post(url + "/actions", json={"version": 1, "action": action}).status_code == 200
    thinking = ann.get(url).get_json()
    assert thinking["version"] == 2 and thinking["state"]["companion"]["seat"] == "Bo"
    played = wait_for(lambda: ann.get(url).get_json(), lambda g: g["version"] == 3)
    assert time.monotonic() - began >= 0.3
    assert played["state"]["companion"] is None
    assert len(played["state"]["companion_said"]) == 1


def test_the_companions_seat_survives_a_restart(data_dir: Path) -> None:
    first = Table(data_dir, None, data_dir / "boards")
    first.start()
    app = create_app({"BOARDS_DIR": data_dir / "boards"}, table=first)
    # The companion is still deciding when the table stops.
    game_id, url, ann, legal = ann_before_the_companion(app, first)
    action = legal[0]
    assert ann.post(url + "/actions", json={"version": 1, "action": action}).status_code == 200
    first.close()
    again = Table(data_dir, None, data_dir / "boards")
    again.start()
    try:
        again.companion.configure(pause_ms=0, budget_ms=5)
        app = create_app({"BOARDS_DIR": data_dir / "boards"}, table=again)
        client = app.test_client()
        client.set_cookie(*_cookie(ann, game_id))
        game = wait_for(lambda: client.get(url).get_json(), lambda g: g["version"] == 3)
        state = game["state"]
        assert state["seat"] == "Ann"
        assert state["players"][1] == {"name": "Bo", "computer": "hard"}
        assert [line["action"] for line in state["companion_said"]] == [2]
    finally:
        again.close()


def _cookie(client: FlaskClient, game_id: str) -> tuple[str, str]:
    cookie = client.get_cookie(f"mandala_seat_{game_id}")
    assert cookie is not None
    return cookie.key, cookie.value


# ---------------------------------------------------------------------------------------
# Undo (cards.md section 11) with the companion


def test_a_person_undoes_a_field_play_during_the_pause_and_the_companion_decides_again(
    app: Flask, table: Table, recorder: Recorder
) -> None:
    _, url, ann, legal = ann_before_the_companion(app, table)
    field = next(a for a in legal if "field" in a)
    mountain = next(a for a in legal if "mountain" in a)
    assert ann.post(url + "/actions", json={"version": 1, "action": field}).status_code == 200
    wait_for(lambda: ann.get(url).get_json(), lambda g: len(recorder.calls) == 1)
    undone = ann.post(url + "/undo", json={"version": 2})
    assert undone.status_code == 200, undone.get_json()
    state = undone.get_json()["state"]
    assert (undone.get_json()["version"], state["to_move"], state["log"]) == (3, "Ann", [])
    assert state["companion"] is None  # its decision for the undone position is dropped
    assert table.call(lambda: dict(table.companion.plans)) == {}
    table.companion.configure(pause_ms=0)
    assert ann.post(url + "/actions", json={"version": 3, "action": mountain}).status_code == 200
    game = wait_for(lambda: ann.get(url).get_json(), lambda g: g["version"] == 5)
    log = game["state"]["log"]
    assert [entry["action"] for entry in log][:1] == [mountain] and len(log) == 2
    assert [line["action"] for line in game["state"]["companion_said"]] == [2]
    assert len(recorder.calls) == 2
    # The companion has acted: Ann's action is no longer hers to undo, nor is its own.
    assert_error(
        ann.post(url + "/undo", json={"version": 5}),
        409,
        "conflict",
        "cannot undo: only Bo may undo the last action",
    )


def test_a_mountain_play_against_the_companion_is_final(
    app: Flask, table: Table, recorder: Recorder
) -> None:
    _, url, ann, legal = ann_before_the_companion(app, table)
    mountain = next(a for a in legal if "mountain" in a)
    assert ann.post(url + "/actions", json={"version": 1, "action": mountain}).status_code == 200
    assert_error(
        ann.post(url + "/undo", json={"version": 2}),
        409,
        "conflict",
        "cannot undo: the last action drew cards: it is final",
    )


# ---------------------------------------------------------------------------------------
# Setups the companion refuses


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"seats": ["Ann", {"name": "Bo", "computer": "medium"}]},
            "seats[1].computer: 'medium' is not one of easy, hard",
        ),
        (
            {"seats": [{"name": "Ann", "computer": "easy"}, {"name": "Bo", "computer": "hard"}]},
            "seats[1].computer: the companion plays one seat; the other is a person's",
        ),
        (
            {"seats": ["Ann", {"name": "Bo", "computer": "hard"}], "mode": "table"},
            "seats[1].computer: the companion plays only games played on the panel "
            "(mode 'play'), not a tracked table",
        ),
        (
            {"seats": ["Ann", {"name": "Bo", "computer": "hard", "hints": True}]},
            "seats[1].hints: unknown key",
        ),
        ({"seats": ["Ann", {"computer": "hard"}]}, "seats[1].name: missing key"),
    ],
)
def test_a_companion_setup_that_cannot_be_played_is_refused(
    client: FlaskClient, body: dict[str, Any], message: str
) -> None:
    answer = client.post("/api/games", json={"kind": "cards", **body})
    assert_error(answer, 400, "malformed", message)
    assert client.get("/api/games").get_json()["games"] == []


def test_a_game_of_two_people_has_no_companion_lines(app: Flask, table: Table) -> None:
    game_id, _ = new_game(app.test_client(), SEATS)
    state = app.test_client().get(f"/api/games/{game_id}").get_json()["state"]
    assert state["players"] == [{"name": "Ann", "computer": None}, {"name": "Bo", "computer": None}]
    assert (state["companion"], state["companion_said"]) == (None, [])


def test_the_secrets_helper_sees_the_companions_hand_as_hidden() -> None:
    state = cards.new_game({"seats": SEATS, "seed": SEED})
    assert cards.cards_to_json(state.hands[1]) in Secrets.of(state, 0).hidden


def test_an_answer_with_the_companions_hand_would_be_caught() -> None:
    state = cards.new_game({"seats": SEATS, "seed": SEED})

    class Leaky:
        status_code = 200
        mimetype = "application/json"

        def get_data(self, as_text: bool = True) -> str:
            return json.dumps({"hand": cards.cards_to_json(state.hands[1])})

        def get_json(self) -> Any:
            return {"hand": cards.cards_to_json(state.hands[1])}

    with pytest.raises(AssertionError):
        check_answer(Leaky(), Secrets.of(state, 0), "leak")


# ---------------------------------------------------------------------------------------
# The config


def test_the_config_file_sets_the_companions_budget_and_pause(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("cards_budget_ms = 150\ncards_pause_ms = 0\n")
    options = read_config(path)
    assert (options.cards_budget_ms, options.cards_pause_ms) == (150, 0)
    path.write_text("")
    assert (read_config(path).cards_budget_ms, read_config(path).cards_pause_ms) == (None, None)


def test_without_a_config_the_companion_thinks_200_ms_and_pauses_700_ms(table: Table) -> None:
    assert (table.companion.budget_ms, table.companion.pause_ms) == (200, 700)
    table.companion.configure(None, None)  # what serve passes without the config keys
    assert (table.companion.budget_ms, table.companion.pause_ms) == (200, 700)
    table.companion.configure(150, 0)
    assert (table.companion.budget_ms, table.companion.pause_ms) == (150, 0)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("cards_budget_ms = 0", "cards_budget_ms: 0 is out of 1..60000"),
        ("cards_pause_ms = -1", "cards_pause_ms: -1 is out of 0..60000"),
        ('cards_pause_ms = "fast"', "cards_pause_ms: expected a whole number, got a string"),
    ],
)
def test_a_bad_companion_config_value_is_refused(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(line + "\n")
    with pytest.raises(RecordError) as error:
        read_config(path)
    assert str(error.value) == f"{path}: {message}"
