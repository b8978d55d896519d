"""A new game from a request body: ``{"kind", "seats", ...options}`` or ``{"record"}``.

The kind's adapter works out the setup (seeds, random layouts, the owner's board files, what
the panel may not choose), the engine checks it, an imported record's steps are replayed.
Nothing is stored here: the table journals the game once it is whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.games.base import JSON, Engine, as_dict, as_list, as_str, get
from companion.table import steps
from companion.table.adapters import Setting, adapter
from companion.table.game import Game
from companion.table.schema import GameRow


@dataclass(frozen=True)
class NewGame:
    """A game made from a request: the game in memory, its stored row, whether imported."""

    game: Game
    row: GameRow
    imported: bool


@dataclass(frozen=True)
class Request:
    """What a new game is made from: the body, the engines, the owner's boards, the panel."""

    body: JSON
    engines: Callable[[str], Engine]
    boards_dir: Path | None
    hidden_deck: bool


def parse(request: Request) -> tuple[str, Engine, dict[str, JSON], list[JSON], bool]:
    """The body's kind, engine, setup (the engine's keys) and record steps, and if imported.

    :raises RecordError: naming the key.
    """
    body = as_dict(request.body, "request body")
    if "record" in body:
        record = as_dict(body["record"], "record")
        kind = as_str(get(record, "game", "record"), "game")
        engine = request.engines(kind)
        record_steps = as_list(get(record, engine.ACTIONS_KEY, "record"), engine.ACTIONS_KEY)
        setup = {key: value for key, value in record.items() if key != engine.ACTIONS_KEY}
        return kind, engine, setup, record_steps, True
    kind = as_str(get(body, "kind"), "kind")
    engine = request.engines(kind)
    setup = {"game": kind}
    setup.update(
        (key, value)
        for key, value in body.items()
        if key not in ("kind", "game", engine.ACTIONS_KEY)
    )
    return kind, engine, setup, [], False


def new_game(request: Request, game_id: str, now: float) -> NewGame:
    """Make the game ``game_id`` (created ``now``) from ``request``, its steps replayed.

    :raises RecordError: a malformed body, setup or step (naming it), or what the panel may
        not choose or see. :raises IllegalAction: a step the rules refuse (``turn 4: ...``).
    """
    kind, engine, setup, record_steps, imported = parse(request)
    kind_adapter = adapter(kind)
    setting = Setting(imported, request.hidden_deck, request.boards_dir)
    setup = kind_adapter.setup(setup, setting)
    setup = {"game": kind, **engine.export_setup(setup)}
    kind_adapter.check_setup(setup)
    seed = kind_adapter.seed(setup)
    row = GameRow(game_id, kind, setup, 1, now, now, seed, 0, None, None)
    game = Game(
        id=game_id,
        kind=kind,
        engine=engine,
        setup=setup,
        version=1,
        created=now,
        updated=now,
        seed=seed,
        rolls=0,
        dice=None,
        dice_source=None,
    )
    game.begin(engine.new_game(setup))
    for obj in record_steps:
        steps.play(game, obj)
    if request.hidden_deck and imported:
        kind_adapter.check_import(game)
    return NewGame(game, row, imported)
