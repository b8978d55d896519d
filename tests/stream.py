"""What a phone does with the live stream's items: put a change together with the game held.

The same rules as the panel's ``Panel.merge`` (``companion/web/static/panel.js``), so tests
of the table and of the server can check that the changes sent add up to the whole view.
"""

from __future__ import annotations

from typing import Any


def is_older(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether view (or item) ``a`` is older than ``b``: its version, then its ``seq``."""
    return bool((a["version"], a.get("seq", 0)) < (b["version"], b.get("seq", 0)))


def put_together(view: dict[str, Any], item: dict[str, Any]) -> dict[str, Any] | None:
    """The whole view after a ``game`` or ``live`` item; ``view`` when the item is not newer;
    None when the phone missed a change and must fetch the game."""
    if not is_older(view, item):
        return view
    if item["type"] == "live":
        if item["version"] != view["version"]:
            return None
        return {**view, "seq": item["seq"], "state": {**view["state"], **item["state"]}}
    log, held = item["log"], view["state"].get("log", [])
    if view["version"] < log["base"] or len(held) < log["from"]:
        return None
    state = {**item["state"], "log": held[: log["from"]] + log["entries"]}
    return {"id": item["id"], "kind": item["kind"], "version": item["version"],
            "seq": item["seq"], "state": state}  # fmt: skip
