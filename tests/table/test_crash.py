"""Crash safety with real processes: kill -9 the serving process again and again.

The serving process is ``tests/table/driver.py``: a real :class:`~companion.table.Table` on a
real SQLite file that answers JSON commands on stdin only after they are committed (the
panel's ``mandala serve`` was not there when this test was written). A scripted two-seat
ring-board game (turns, rolled dice, undos) is played across many process lifetimes; each
lifetime ends in ``SIGKILL`` at a random moment, most of them while a command is in flight.
After every restart: every acknowledged change is there, the in-flight one is wholly there
or wholly absent, ``PRAGMA integrity_check`` passes, and the game goes on.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.games import rings

DRIVER = Path(__file__).with_name("driver.py")
RUNS = 55
SETUP = {
    "kind": "rings",
    "board": "reference",
    "variant": "standard",
    "seats": [{"name": "Ann", "corner": 0}, {"name": "Bo", "corner": 2}],
}

pytestmark = pytest.mark.slow


class Server:
    """One lifetime of the serving process."""

    def __init__(self, data: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(DRIVER), str(data)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        assert self.process.stdout is not None and self.process.stdin is not None
        self.stdin = self.process.stdin
        self.stdout = self.process.stdout
        assert json.loads(self.stdout.readline()) == {"ready": True}

    def send(self, command: dict[str, Any]) -> None:
        self.stdin.write(json.dumps(command) + "\n")
        self.stdin.flush()

    def receive(self) -> dict[str, Any]:
        line = self.stdout.readline()
        assert line, "the serving process died"
        reply: dict[str, Any] = json.loads(line)
        return reply

    def call(self, command: dict[str, Any]) -> Any:
        self.send(command)
        reply = self.receive()
        assert "ok" in reply, reply
        return reply["ok"]

    def kill(self) -> list[dict[str, Any]]:
        """SIGKILL; return the answers that were already written before it died."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        rest = self.stdout.read()
        self.stdin.close()
        self.stdout.close()
        return [json.loads(line) for line in rest.splitlines() if line.strip()]


@dataclass
class Model:
    """What the client knows was acknowledged: the journal and the version."""

    journal: list[dict[str, Any]] = field(default_factory=list)
    version: int = 1
    dice: dict[str, int] | None = None

    def state(self, setup: dict[str, Any]) -> Any:
        state = rings.new_game(setup)
        for turn in self.journal:
            state = rings.apply(state, rings.parse_action(state, turn))
        return state


def next_command(
    model: Model, setup: dict[str, Any], game_id: str, rng: random.Random
) -> tuple[dict[str, Any], Model]:
    """Pick a command and the model after it (if it lands)."""
    state = model.state(setup)
    choice = rng.random()
    over = rings.is_over(state)
    if model.journal and (choice < 0.15 or over):
        undone = model.journal[-1]
        after = Model(model.journal[:-1], model.version + 1, dict(undone["dice"]))
        return {"op": "undo", "id": game_id, "version": model.version}, after
    if choice < 0.3:
        after = Model(list(model.journal), model.version + 1, None)  # dice: whatever rolled
        return {
            "op": "act",
            "id": game_id,
            "version": model.version,
            "action": {"roll": True},
        }, after
    dice = rings.roll(rng, state.board)
    rotation_set = rng.choice(rings.legal_rotation_sets(state, dice))
    turn = {"dice": dice, "rotations": [{"ring": r.ring, "steps": r.steps} for r in rotation_set]}
    after = Model([*model.journal, turn], model.version + 1, None)
    return {"op": "act", "id": game_id, "version": model.version, "action": turn}, after


def same(model: Model, journal: list[Any], version: int) -> bool:
    return model.journal == journal and model.version == version


def test_kill_9_at_random_moments_loses_no_acknowledged_change(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    server = Server(tmp_path)
    created = server.call({"op": "create", "body": SETUP})
    game_id = created["id"]
    setup = server.call({"op": "export", "id": game_id})
    model = Model(version=created["version"])
    runs = in_flight_kills = landed = absent = idle_kills = acked_total = 0
    started = time.monotonic()
    while runs < RUNS:
        in_flight: Model | None = None
        for _ in range(rng.randint(0, 5)):
            command, after = next_command(model, setup, game_id, rng)
            reply = server.call(command)
            model = after
            model.dice = reply["state"]["dice"]
            acked_total += 1
        if rng.random() < 0.85:
            command, in_flight = next_command(model, setup, game_id, rng)
            server.send(command)
            time.sleep(rng.choice((0.0, rng.uniform(0, 0.003))))
        else:
            time.sleep(rng.uniform(0, 0.002))
        early = server.kill()
        runs += 1
        if in_flight is not None and early:
            # The answer was written before the kill: it is acknowledged, it must be there.
            assert "ok" in early[0], early
            model, in_flight = in_flight, None
            acked_total += 1
            idle_kills += 1
        elif in_flight is not None:
            in_flight_kills += 1
        else:
            idle_kills += 1

        server = Server(tmp_path)
        assert server.call({"op": "integrity"}) == ["ok"]
        record = server.call({"op": "export", "id": game_id})
        version = server.call({"op": "get", "id": game_id})["version"]
        journal = record["turns"]
        if same(model, journal, version):
            if in_flight is not None:
                absent += 1
        else:
            assert in_flight is not None, (model, journal, version)
            assert same(in_flight, journal, version), (in_flight, journal, version)
            landed += 1
            model = in_flight
        # The game goes on after the restart: one more acknowledged step.
        command, after = next_command(model, setup, game_id, rng)
        reply = server.call(command)
        model = after
        acked_total += 1
    record = server.call({"op": "export", "id": game_id})
    assert record["turns"] == model.journal
    server.call({"op": "get", "id": game_id})
    server.kill()
    elapsed = time.monotonic() - started
    print(
        f"\ncrash test: {runs} runs, {in_flight_kills} kills with a request in flight "
        f"({landed} landed whole, {absent} wholly absent), {idle_kills} other kills, "
        f"{acked_total} acknowledged changes all present, {elapsed:.1f} s"
    )
    assert runs >= 50
    assert in_flight_kills > runs // 2
