"""What a phone does with the live stream's items: put a change together with what it holds.

The same rules as the panel's ``Panel.merge`` and ``Panel.mergeBoard``
(``companion/web/static/panel.js``), so tests of the table and of the server can check that
the changes sent add up to the whole view.
"""

from __future__ import annotations

from typing import Any

from companion.table import patch


def is_older(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether view (or item) ``a`` is older than ``b``: its version, then its ``seq``."""
    return bool((a["version"], a.get("seq", 0)) < (b["version"], b.get("seq", 0)))


def put_together(view: dict[str, Any], item: dict[str, Any]) -> dict[str, Any] | None:
    """The whole view after a ``game`` or ``live`` item; ``view`` when the item is not newer;
    None when the phone missed a change and must fetch the game."""
    if not is_older(view, item):
        return view
    if item["type"] == "live":
        if item["version"] != view["version"] or item["base"] not in (None, view["seq"]):
            return None
        return {**view, "seq": item["seq"], "state": patch.apply(view["state"], item["changes"])}
    log, held = item["log"], view["state"].get("log", [])
    if view["version"] < log["base"] or len(held) < log["from"]:
        return None
    state = {**item["state"], "log": held[: log["from"]] + log["entries"]}
    return {"id": item["id"], "kind": item["kind"], "version": item["version"],
            "seq": item["seq"], "state": state}  # fmt: skip


def board_together(board: dict[str, Any], item: dict[str, Any]) -> dict[str, Any] | None:
    """The board after a ``board`` item (its LED frame comes in ``leds`` items); None when
    the phone missed a change and must fetch the board."""
    if item["base"] not in (None, board["seq"]):
        return None
    return {**patch.apply(board, item["changes"]), "seq": item["seq"]}


def follow(
    view: dict[str, Any] | None, board: dict[str, Any], items: list[dict[str, Any]]
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The game (``view``'s) and the board after ``items``, as a phone on its page has them.

    :raises AssertionError: when a change cannot be put together (one was missed).
    """
    for item in items:
        if item["type"] in ("game", "live") and view is not None and item["id"] == view["id"]:
            merged = put_together(view, item)
            assert merged is not None, f"a change was missed before {item}"
            view = merged
        elif item["type"] == "board":
            moved = board_together(board, item)
            assert moved is not None, f"a board change was missed before {item}"
            board = moved
        elif item["type"] == "leds":
            board = {**board, "leds": item["leds"]}
    return view, board
