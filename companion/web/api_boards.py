"""``/api/boards``: the ring-board files here (bundled and the owner's), and the editor's save.

An owner's boards are TOML files in ``<data>/boards/`` (the app's ``BOARDS_DIR``), named by
the file stem, which is what a new game's ``board`` names.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from companion.games import rings
from companion.games.base import RecordError, as_bool, as_str, check_keys, get
from companion.phrases import say
from companion.table import Conflict, NotFound
from companion.web.context import json_body
from companion.web.owner import owner_only

blueprint = Blueprint("api_boards", __name__, url_prefix="/api/boards")

FILE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def boards_dir() -> Path | None:
    """Return where the owner's boards live, if this app has such a place."""
    folder: Path | None = current_app.config["BOARDS_DIR"]
    return folder


def saved_names() -> list[str]:
    """Return the names of the owner's board files, sorted."""
    folder = boards_dir()
    if folder is None or not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.toml") if FILE_NAME.fullmatch(p.stem))


def find_board(name: str) -> rings.Board:
    """Load a board by name, the owner's first.

    :raises NotFound: when no board has that name.
    """
    if not FILE_NAME.fullmatch(name) or name not in saved_names() + rings.bundled_board_names():
        raise NotFound.said(say("no board {name}", name=repr(name)))
    folder = boards_dir()
    return rings.load_board(name, [folder] if folder is not None else [])


def board_to_toml(board: rings.Board) -> str:
    """Write a board as the TOML board file of rings.md section 4."""
    data: dict[str, Any] = rings.board_to_json(board)
    lines = [
        f"name = {toml_string(data['name'])}",
        f"spokes = {data['spokes']}",
        f"corners = {list(data['corners'])}",
        f"entrances = {list(data['entrances'])}",
        f"dice = {list(data['dice'])}",
    ]
    for ring in data["rings"]:
        lines += ["", "[[rings]]", f"colour = {toml_string(ring['colour'])}"]
        lines.append(f"black = {list(ring['black'])}")
    return "\n".join(lines) + "\n"


def toml_string(text: str) -> str:
    """Quote text as a TOML basic string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in escaped) + '"'


@blueprint.get("")
def list_boards() -> Response:
    return jsonify({"bundled": rings.bundled_board_names(), "saved": saved_names()})


@blueprint.get("/<name>")
def get_board(name: str) -> Response:
    return jsonify({"file": name, "board": rings.board_to_json(find_board(name))})


@blueprint.post("")
@owner_only(say("save a board"))
def save_board() -> tuple[Response, int]:
    body = json_body()
    check_keys(body, "request body", ("file", "board"), ("overwrite",))
    overwrite = as_bool(body.get("overwrite", False), "overwrite")
    name = as_str(get(body, "file"), "file")
    if not FILE_NAME.fullmatch(name):
        raise RecordError(
            f"file: {name!r} is not a board file name (1-40 of a-z, 0-9 and -, not - first)"
        )
    board = rings.parse_board(get(body, "board"), "board")
    folder = boards_dir()
    if folder is None:
        raise Conflict.said(say("this companion has no data directory to save boards in"))
    # An own board may be saved over when asked; a bundled one never (it ships with us).
    if name in rings.bundled_board_names() or (name in saved_names() and not overwrite):
        raise Conflict.said(
            say("file: a board named {name} exists already; choose another name", name=repr(name))
        )
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    temporary = path.with_suffix(".toml.tmp")
    temporary.write_text(board_to_toml(board), encoding="utf-8")
    temporary.replace(path)
    return jsonify({"file": name, "board": rings.board_to_json(board)}), 201
