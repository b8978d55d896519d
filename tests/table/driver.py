"""A serving process for the crash test: a real :class:`Table` taking JSON commands on stdin.

``python tests/table/driver.py DATA_DIR`` prints ``{"ready": true}`` once the table is up,
then answers each command line with one line: ``{"ok": result}`` or ``{"error": {"type",
"message"}}``. An answer is written only after the table has returned, i.e. after the
change is committed, exactly like an HTTP answer of the panel. Commands:
``{"op": "create", "body"}``, ``{"op": "act", "id", "version", "action"}``,
``{"op": "undo", "id", "version"}``, ``{"op": "get", "id"}``, ``{"op": "export", "id"}``,
``{"op": "list"}``, ``{"op": "integrity"}``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.games.base import GameError  # noqa: E402
from companion.table import Table, TableError  # noqa: E402


def answer(table: Table, command: dict[str, Any]) -> Any:
    op = command["op"]
    if op == "create":
        return table.create_game(command["body"])
    if op == "act":
        return table.act(command["id"], command["version"], command["action"])
    if op == "undo":
        return table.undo(command["id"], command["version"])
    if op == "get":
        return table.get_game(command["id"])
    if op == "export":
        return table.export(command["id"])
    if op == "list":
        return table.list_games()
    if op == "integrity":
        return table.integrity_check()
    raise ValueError(f"unknown op {op!r}")


def main() -> int:
    table = Table(Path(sys.argv[1]))
    table.start()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply: dict[str, Any] = {"ok": answer(table, json.loads(line))}
        except (GameError, TableError) as error:
            reply = {"error": {"type": type(error).__name__, "message": str(error)}}
        print(json.dumps(reply), flush=True)
    table.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
