"""Hidden information over a whole scripted card game played on the panel (interfaces.md).

Seed 9, two seats; each step is the first legal action of the engine's list in the order
claim, field play of one card, mountain play, discard (every seventh step: discard before
mountain and field). The game runs 57 actions with five destructions (10 claims) and ends
when Ann's river gets its sixth colour, Ann 28 to Bo 21. After EVERY action, every route of
the app -- each GET route of the URL map that names at most the game, each POST/DELETE route
of the game, the live stream ``/api/events`` -- is requested as the other seat, as the
shared view (no token) and as the host (shared view with a host token), and no answer holds
the colours of a hand or cup that is not the viewer's, nor another seat's score before the
end. Seat 0 (Ann) is identified by the page's cookie, seat 1 (Bo) by the ``X-Seat-Token``
header. The table view (``/table``, ``/api/table``, the stream ``?view=table``) holds no hand
or cup at all, asked by any phone, Ann's included.

The hidden multisets come from replaying the same actions on the engine here (the actual
cards, not the panel's view of them).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import cards
from companion.table.table import Table
from tests.web.conftest import stacked_cards

SEED = 9
SEATS = ["Ann", "Bo"]
SKIPPED_GET_RULES = {"/static/<path:filename>", "/api/boards/<name>", "/api/events"}
"""GET routes not requested per step: static files, a named ring board, and the stream
(checked on its own, per subscriber)."""
TABLE_VIEW_RULES = {"/table", "/api/table"}
"""GET routes that are the shared view whoever asks: checked as the shared view, per phone."""
ARGUMENTS = {"game_id": "", "player_id": "1", "other": "2", "code": "de"}
"""What each GET route's placeholders are filled with: the game, the logbook's first two
players (the game's first seats, so a player's page speaks of this game's people), and a
language (the switch, the scripts' catalogue)."""
PLACEHOLDER = re.compile(r"<(?:\w+:)?(\w+)>")


def policy(state: cards.State, step: int) -> cards.Action:
    legal = cards.legal_actions(state)
    order: tuple[type, ...] = (cards.Claim, cards.FieldPlay, cards.MountainPlay, cards.Discard)
    if step % 7 == 6:
        order = (cards.Claim, cards.Discard, cards.MountainPlay, cards.FieldPlay)
    for kind in order:
        for action in legal:
            if isinstance(action, kind) and not (
                isinstance(action, cards.FieldPlay) and action.count != 1
            ):
                return action
    return legal[0]


# ---------------------------------------------------------------------------------------
# What must not be seen


@dataclass
class Secrets:
    """The hidden multisets a viewer must not see, and the public ones that may equal them."""

    state: cards.State
    viewer: int | None
    hidden: list[dict[str, int]] = field(default_factory=list)
    public: list[dict[str, int]] = field(default_factory=list)
    public_lists: list[Counter[str]] = field(default_factory=list)
    coincidences: int = 0

    @classmethod
    def of(cls, state: cards.State, viewer: int | None) -> Secrets:
        found = cls(state, viewer)
        if state.over:
            return found
        for seat in (0, 1):
            if seat == viewer:
                found.public += [cards.cards_to_json(state.hands[seat])]
                found.public += [cards.cards_to_json(state.cups[seat])]
                continue
            for cards_of in (state.hands[seat], state.cups[seat]):
                if sum(cards_of):
                    found.hidden.append(cards.cards_to_json(cards_of))
        for m in (0, 1):
            found.public.append(cards.cards_to_json(state.mountains[m]))
            for seat in (0, 1):
                found.public.append(cards.cards_to_json(state.fields[m][seat]))
        found.public_lists = [Counter(river) for river in state.rivers]
        # Every card page prints the six colours once each (the score sheet's colour list),
        # so a hidden set of exactly one card of each colour cannot be told from it.
        found.public_lists.append(Counter(cards.COLOURS))
        found.coincidences = len(found.hidden) - len(found.checked())
        return found

    def checked(self) -> list[dict[str, int]]:
        """The hidden multisets that no public one happens to equal (those are checkable)."""
        return [
            secret
            for secret in self.hidden
            if secret not in self.public and Counter(secret) not in self.public_lists
        ]


def walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def assert_view_hides(value: Any, secrets: Secrets, where: str) -> None:
    """Check JSON: each card-game view in it is the viewer's; no hidden multiset anywhere."""
    state = secrets.state
    for node in walk(value):
        if isinstance(node, dict) and node.get("game") == "cards" and "hands" in node:
            for seat, name in enumerate(SEATS):
                if state.over or seat == secrets.viewer:
                    continue
                assert node["hands"][name] == state.hand_size(seat), where
                assert node["cups"][name] == sum(state.cups[seat]), where
                assert node["scores"][name] is None, where
            if secrets.viewer is not None and not state.over:
                me = SEATS[secrets.viewer]
                assert node["hands"][me] == cards.cards_to_json(state.hands[secrets.viewer])
                assert node["seat"] == me, where
            elif not state.over:
                assert node["seat"] is None, where
    for secret in secrets.checked():
        for node in walk(value):
            assert node != secret, f"{where}: a hidden multiset {secret} is in the answer"
            if isinstance(node, list) and node and all(isinstance(c, str) for c in node):
                assert Counter(node) != Counter(secret), f"{where}: hidden cards as a list"


def assert_text_hides(text: str, secrets: Secrets, where: str) -> None:
    """Check a raw body: no hidden multiset written out, in any JSON spacing."""
    for secret in secrets.checked():
        for form in (json.dumps(secret), json.dumps(secret, separators=(",", ":"))):
            assert form not in text, f"{where}: {form} is in the body"
        listed = json.dumps([c for c, n in secret.items() for _ in range(n)])
        assert listed not in text, f"{where}: {listed} is in the body"


PAGE_DATA = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)


def check_answer(response: Any, secrets: Secrets, where: str) -> None:
    text = response.get_data(as_text=True)
    assert response.status_code < 500, f"{where}: {response.status_code} {text[:300]}"
    assert_text_hides(text, secrets, where)
    if response.mimetype == "application/json":
        assert_view_hides(response.get_json(), secrets, where)
    elif response.mimetype == "text/html":
        for embedded in PAGE_DATA.findall(text):
            assert_view_hides(json.loads(embedded), secrets, where + " (page data)")


# ---------------------------------------------------------------------------------------
# The live streams, per subscriber, on real waitress


class Stream:
    def __init__(self, base: str, headers: dict[str, str], path: str = "/api/events") -> None:
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port, timeout=10
        )
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()

    def until_version(self, game_id: str, version: int) -> list[tuple[dict[str, Any], str]]:
        """Every item up to the game's item at ``version`` (with its raw text)."""
        items = []
        while True:
            line = self.response.readline().decode("utf-8")
            assert line, "the stream ended"
            if not line.startswith("data: "):
                continue
            raw = line[len("data: ") :]
            item = json.loads(raw)
            items.append((item, raw))
            if (item.get("type"), item.get("id"), item.get("version")) == (
                "game",
                game_id,
                version,
            ):
                return items

    def close(self) -> None:
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.response.close()
        self.connection.close()


@pytest.fixture
def base(app: Flask) -> Iterator[str]:
    from waitress.server import create_server

    httpd: Any = create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=httpd.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.effective_port}"
    httpd.close()
    thread.join(timeout=5)


# ---------------------------------------------------------------------------------------
# The phones


@dataclass
class Phone:
    name: str
    client: FlaskClient
    seat: int | None
    headers: dict[str, str]

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, body: Any) -> Any:
        return self.client.post(path, json=body, headers=self.headers)

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self.headers)


def get_paths(app: Flask, game_id: str) -> list[str]:
    paths = []
    values = {**ARGUMENTS, "game_id": game_id}
    for rule in app.url_map.iter_rules():
        if (
            "GET" not in (rule.methods or set())
            or rule.rule in SKIPPED_GET_RULES | TABLE_VIEW_RULES
        ):
            continue
        assert set(rule.arguments) <= set(ARGUMENTS), f"a new GET route to check: {rule.rule}"
        paths.append(PLACEHOLDER.sub(lambda m: values[m.group(1)], rule.rule))
    return paths


def check_every_route(
    app: Flask, phones: list[Phone], game_id: str, state: cards.State, version: int
) -> Counter[str]:
    """Request every route as each phone; count the hidden multisets checked and skipped."""
    counts: Counter[str] = Counter()
    acting = cards.acting_seat(state)
    legal = cards.legal_actions(state)
    for phone in phones:
        secrets = Secrets.of(state, phone.seat)
        for path in get_paths(app, game_id):
            check_answer(phone.get(path), secrets, f"{phone.name} GET {path}")
        # The sweep's GET /language/de switched this phone to German (its cookie): back to
        # English, so the refusal below is read word for word (German ones: test_errors_german).
        assert phone.get("/language/en").status_code in {302, 303}
        shared = Secrets.of(state, None)  # the table view: never a hand, whoever asks
        for path in ("/table", "/api/table", f"/api/table?game={game_id}"):
            check_answer(phone.get(path), shared, f"{phone.name} GET {path} (table view)")
        url = f"/api/games/{game_id}"
        record = phone.get(url + "/record")
        if not state.over:
            assert record.status_code == 403
        if legal and acting is not None and phone.seat != acting:
            step = {"version": version, "action": cards.action_to_json(legal[0])}
            refused = phone.post(url + "/actions", step)
            assert refused.status_code == 403, refused.get_json()
            check_answer(refused, secrets, f"{phone.name} POST actions")
        if acting is not None and phone.seat == acting:
            # An illegal action of its own: the message may speak of its own hand only.
            absent = [c for c, n in zip(cards.COLOURS, state.hands[acting], strict=True) if not n]
            if absent and state.claiming is None:
                wrong = {"version": version, "action": {"discard": absent[0], "count": 1}}
                refused = phone.post(url + "/actions", wrong)
                assert refused.status_code == 409
                assert refused.get_json()["error"]["message"] == (
                    f"action {state.actions + 1}: {SEATS[acting]} cannot discard "
                    f"{absent[0]}: {SEATS[acting]} holds no {absent[0]}"
                )
                check_answer(refused, secrets, f"{phone.name} POST illegal action")
        if phone.get(url).get_json()["state"]["undo"] is not None:  # refused: try it
            refused = phone.post(url + "/undo", {"version": version})
            assert refused.status_code in (403, 409)
            check_answer(refused, secrets, f"{phone.name} POST undo")
        for seat in (0, 1):
            if phone.seat != seat:
                taken = phone.post(f"{url}/seats/{seat}/take", {})
                assert taken.status_code == 403
                check_answer(taken, secrets, f"{phone.name} take {seat}")
        if phone.name == "host":
            continue  # the host may delete the game and free seats: it is not asked to here
        if not state.over:
            refused = phone.delete(url)
            assert refused.status_code == 403
            check_answer(refused, secrets, f"{phone.name} DELETE")
        for seat in (0, 1):
            refused = phone.post(f"{url}/seats/{seat}/free", {})
            assert refused.status_code == 403
            check_answer(refused, secrets, f"{phone.name} free {seat}")
        counts["hidden"] += len(secrets.hidden)
        counts["skipped"] += secrets.coincidences
    return counts


def check_streams(
    streams: dict[str, tuple[Stream, int | None]], game_id: str, state: cards.State, version: int
) -> None:
    for name, (stream, seat) in streams.items():
        secrets = Secrets.of(state, seat)
        for item, raw in stream.until_version(game_id, version):
            assert_text_hides(raw, secrets, f"{name} stream")
            assert_view_hides(item, secrets, f"{name} stream")


def test_no_route_shows_a_hidden_hand_cup_or_score_after_any_action(
    app: Flask, table: Table, base: str
) -> None:
    host = app.test_client()
    game_id = stacked_cards(host, {"seats": SEATS, "seed": SEED})["id"]
    url = f"/api/games/{game_id}"
    ann = app.test_client()
    assert ann.post(f"{url}/seats/0/take", json={}).status_code == 200  # cookie kept
    bo_token = app.test_client().post(f"{url}/seats/1/take", json={}).get_json()["token"]
    phones = [
        Phone("Ann", ann, 0, {}),
        Phone("Bo", app.test_client(), 1, {"X-Seat-Token": bo_token}),
        Phone("shared", app.test_client(), None, {}),
        Phone("host", host, None, {}),
    ]
    cookie = ann.get_cookie(f"mandala_seat_{game_id}")
    assert cookie is not None
    ann_cookie = {"Cookie": f"mandala_seat_{game_id}={cookie.value}"}
    streams = {
        "Ann": (Stream(base, ann_cookie), 0),
        "Bo": (Stream(base, {"X-Seat-Token": bo_token}), 1),
        "shared": (Stream(base, {}), None),
        # the table view's stream on a phone that holds Ann's seat: still the shared view
        "table view": (Stream(base, ann_cookie, "/api/events?view=table"), None),
    }
    state = cards.new_game({"seats": SEATS, "seed": SEED})
    version = 1
    counts = check_every_route(app, phones, game_id, state, version)
    steps = claims = undone = 0
    try:
        while not state.over:
            action = policy(state, steps)
            actor = phones[cards.acting_seat(state) or 0]
            answer = actor.post(
                url + "/actions", {"version": version, "action": cards.action_to_json(action)}
            )
            assert answer.status_code == 200, answer.get_json()
            before, state, version = state, cards.apply(state, action), version + 1
            steps += 1
            claims += isinstance(action, cards.Claim)
            check_streams(streams, game_id, state, version)
            counts += check_every_route(app, phones, game_id, state, version)
            if isinstance(action, cards.FieldPlay) and undone < 2:
                # Undo as section 11 allows: only the seat that played, before the other acts.
                undo = actor.post(url + "/undo", {"version": version})
                assert undo.status_code == 200, undo.get_json()
                version += 1
                check_streams(streams, game_id, before, version)
                counts += check_every_route(app, phones, game_id, before, version)
                again = {"version": version, "action": cards.action_to_json(action)}
                assert actor.post(url + "/actions", again).status_code == 200
                version += 1
                undone += 1
                check_streams(streams, game_id, state, version)
    finally:
        for stream, _ in streams.values():
            stream.close()
    assert (steps, claims, undone) == (57, 10, 2)
    # A hidden multiset equal to a public one (a 2-card cup and a fresh mountain) cannot be
    # told apart in a body; such coincidences stay rare (the counts and nulls are checked).
    assert counts["skipped"] * 20 <= counts["hidden"], counts
    final = phones[2].get(url).get_json()["state"]
    assert final["over"] is True
    assert (
        final["scores"]
        == dict(zip(SEATS, cards.scores(state), strict=True))
        == {
            "Ann": 28,
            "Bo": 21,
        }
    )
    assert final["hands"] == {
        n: cards.cards_to_json(h) for n, h in zip(SEATS, state.hands, strict=True)
    }
    exported = phones[2].get(url + "/record")
    assert exported.status_code == 200
    assert len(exported.get_json()["actions"]) == 57
