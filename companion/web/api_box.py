"""``/api/box`` and ``/box``: backups and restores from the panel, and where the time comes from.

- ``GET /api/box``: ``{"release", "schema", "time": {"source": "network"|"phone"|"box",
  "phrase", ...}}`` (anyone: the Health page shows the time's source; ``phrase`` is
  ``BoxClock.source_phrase`` as JSON);
- ``GET /api/box/backup`` (owner): the backup file of the whole data directory
  (``companion.table.backup``), as an attachment ``mandala-YYYYMMDD-HHMMSS.mandala-backup``;
- ``GET /api/box/backups`` (owner): ``{"backups": [{"name", "bytes", "made"}]}``, the rolling
  backups kept on the SD card (newest first);
- ``POST /api/box/restore`` (owner): the body is a backup file (at most
  :data:`RESTORE_MAX_BYTES`); ``POST /api/box/backups/<name>/restore`` (owner) restores a kept
  one. Both answer ``{"restored": {"release", "schema", "created", ...}, "games": n,
  "owner": bool}`` (``owner``: whether this phone is still the owner; the owners are the
  backup's). A foreign, damaged or newer file answers 400 and nothing is changed.

A restore takes effect on the running server at once: the table closes its database, the
files are swapped (:func:`~companion.table.backup.restore_files`), the table opens them again
and replays every game, and every phone is sent the new state (``Table.swap_data``).

Every request may take the phone's time from ``X-Phone-Time`` while the box's clock was never
synchronised (the clock ``mandala serve`` installs, ``companion.table.clock``; the stamps
stored before are corrected then). The rolling backups are made by the process's own thread
(``companion.table.rolling``, started by ``companion.serve``); :data:`FILES_LOCK` keeps them
and the panel's backups and restores apart.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Final

from flask import Blueprint, Response, jsonify, render_template, request

from companion.phrases import say
from companion.table import backup, clock
from companion.table.phones import phone_label
from companion.table.rolling import FILES_LOCK
from companion.table.schema import SCHEMA_VERSION
from companion.table.store import DB_NAME
from companion.web.context import json_body, table
from companion.web.i18n import words
from companion.web.owner import owner_only, owner_token, owners
from companion.web.security import takes_file

log = logging.getLogger(__name__)

blueprint = Blueprint("api_box", __name__)

RESTORE_MAX_BYTES: Final = 64 * 1024 * 1024
"""The largest backup file the panel takes (a box's data is a few megabytes)."""


def data_dir() -> Path:
    return Path(table().data_dir)


@blueprint.before_app_request
def _every_request() -> None:
    take_phone_time()


def take_phone_time() -> None:
    """Take the phone's time if the box needs one, then correct the stamps stored before."""
    box = clock.current()
    taken = box.offer(
        request.headers.get(clock.HEADER), phone_label(request.headers.get("User-Agent", ""))
    )
    if taken is None or abs(taken.offset) < clock.CORRECT_MIN_S:
        return
    database = str(data_dir() / DB_NAME)
    corrected = table().swap_data(lambda: clock.correct_stamps(database, box.started, taken))
    box.corrected = len(corrected)
    log.warning("clock: %s; %d game(s) corrected", box.source_phrase().english(), len(corrected))


@blueprint.get("/box")
def page() -> str:
    from companion.web.pages import page_config

    box = about()
    said = words(clock.current().source_phrase())
    return render_template("box.html", data={"box": box, "time_said": said}, page=page_config())


def about() -> dict[str, Any]:
    return {
        "release": backup.release(),
        "schema": SCHEMA_VERSION,
        "time": clock.current().source(),
    }


@blueprint.get("/api/box")
def status() -> Response:
    return jsonify(about())


@blueprint.get("/api/box/backup")
@owner_only(say("download a backup"))
def download() -> Response:
    with FILES_LOCK:
        data = backup.make_backup(data_dir())
    name = time.strftime("mandala-%Y%m%d-%H%M%S", time.gmtime(clock.now())) + backup.SUFFIX
    response = Response(data, mimetype="application/octet-stream")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/api/box/backups")
@owner_only(say("see the kept backups"))
def kept() -> Response:
    return jsonify({"backups": [k.to_json() for k in backup.kept_backups(data_dir())]})


@blueprint.post("/api/box/restore")
@takes_file
@owner_only(say("restore a backup"))
def restore_upload() -> Response:
    request.max_content_length = RESTORE_MAX_BYTES
    data = request.get_data(cache=False)
    if not data:
        raise backup.BackupRefused.said(say("request body: send the backup file as the body"))
    return restored(data)


@blueprint.post("/api/box/backups/<name>/restore")
@owner_only(say("restore a backup"))
def restore_kept(name: str) -> Response:
    json_body(empty={})
    return restored(backup.kept_backup(data_dir(), name).read_bytes())


def restored(data: bytes) -> Response:
    """Check ``data`` whole, then swap it in under the running table; say what came back."""
    backup.check_backup(data)  # refused before the table is disturbed
    folder = data_dir()
    with FILES_LOCK:
        header, _ = table().swap_data(lambda: backup.restore_files(folder, data))
    log.warning("backup: restored a backup made %s by release %s", header.created, header.release)
    games = int(table().games_page(1)["total"])
    return jsonify(
        {
            "restored": header.to_json(),
            "games": games,
            "owner": owners().owner_id(owner_token()) is not None,
        }
    )
