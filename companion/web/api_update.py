"""``/api/box/update``: the box's release, and a newer one installed from the panel (owner).

- ``GET /api/box/update`` (anyone): ``{"release", "status", "pending", "from_file",
  "from_git"}``: the running release, the last update's status (``companion.box.update``:
  ``waiting``, ``installing``, ``updated``, ``rolled-back``, ``refused``, ``failed``, with its
  ``phrase``; null before the first), whether one waits for the updater, and the ways this box
  can update (``from_file``: the updater is installed, ``UPDATE_INSTALL``; ``from_git``: its
  checkout ``<data>/updates/checkout`` is there too).
- ``POST /api/box/update`` (owner): the body is a release file (``companion.box.release``, at
  most :data:`RELEASE_MAX_BYTES`). A foreign, damaged or not newer file is 400 and nothing
  changes; else a backup is made first (``backup.keep_before_update``), the file is staged and
  the answer is 202 ``{"status"}`` (``waiting``): the updater stops the service, starts the new
  release and keeps it only when it reports ready, so the panel is away for a minute or so.
- ``POST /api/box/update/git`` (owner, ``{}``): fetch the checkout's tags and stage the
  newest ``v*`` release above the running one (202 as above), or 200 ``{"status": null,
  "text"}`` when there is none (``text`` in the phone's language).

Both refuse with 409 when no updater is installed (``mandala serve`` on a laptop: update the
checkout with git) or an update already waits.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Final

from flask import Blueprint, Response, current_app, jsonify, request

from companion.box import release as releases
from companion.box import update
from companion.phrases import say
from companion.table import Conflict, StorageError, backup
from companion.table.rolling import FILES_LOCK
from companion.web.context import json_body, table
from companion.web.i18n import words
from companion.web.owner import owner_only
from companion.web.security import takes_file

log = logging.getLogger(__name__)

blueprint = Blueprint("api_update", __name__)

RELEASE_MAX_BYTES: Final = 64 * 1024 * 1024
"""The largest release file the panel takes (a release is about a megabyte)."""
CHECKOUT: Final = "checkout"
"""The git checkout the box updates from, inside ``<data>/updates``."""


def data_dir() -> Path:
    return Path(table().data_dir)


def checkout() -> Path:
    return data_dir() / update.UPDATES_DIR / CHECKOUT


def installed() -> bool:
    """Whether an updater installs what the panel stages (``UPDATE_INSTALL`` is set)."""
    return bool(current_app.config.get("UPDATE_INSTALL"))


def about() -> dict[str, Any]:
    return {
        "release": backup.release(),
        "status": update.read_status(data_dir()),
        "pending": update.pending(data_dir()),
        "from_file": installed(),
        "from_git": installed() and (checkout() / ".git").exists(),
    }


@blueprint.get("/api/box/update")
def status() -> Response:
    return jsonify(about())


def staged(data: bytes) -> tuple[Response, int]:
    """Check ``data``, make the backup, stage it for the updater; answer 202."""
    releases.check_release(data, backup.release())  # refused before anything is made
    if not installed():
        raise Conflict.said(
            say(
                "this companion was not installed as a service (systemd/install.sh), so "
                "nothing can install a release here: update its checkout with git"
            )
        )
    folder = data_dir()
    if update.pending(folder):
        raise Conflict.said(say("an update is already waiting to be installed"))
    try:
        with FILES_LOCK:
            status = update.stage(
                folder, data, backup.release(), lambda: backup.keep_before_update(folder)
            )
    except OSError as error:
        reason = str(error.strerror or error)
        raise StorageError.said(
            say("update: cannot stage the release: {reason}", reason=reason)
        ) from None
    log.warning("update: %s", update.status_words(status).english())
    return jsonify({"status": status}), 202


@blueprint.post("/api/box/update")
@takes_file
@owner_only(say("install a release"))
def from_file() -> tuple[Response, int]:
    request.max_content_length = RELEASE_MAX_BYTES
    data = request.get_data(cache=False)
    if not data:
        raise releases.ReleaseRefused.said(say("request body: send the release file as the body"))
    return staged(data)


@blueprint.post("/api/box/update/git")
@owner_only(say("install a release"))
def from_git() -> tuple[Response, int]:
    json_body(empty={})
    if not installed() or not (checkout() / ".git").exists():
        raise Conflict.said(
            say(
                "this box has no git checkout to update from ({folder}): upload a release "
                "file instead",
                folder=str(checkout()),
            )
        )
    running = backup.release()
    newest = update.newest_tag(checkout(), running)
    if newest is None:
        newest_here = say(
            "release {release} is the newest: the checkout has no newer v* tag", release=running
        )
        return jsonify({"status": None, "text": words(newest_here)}), 200
    return staged(releases.release_from_git(checkout(), newest[0]))
