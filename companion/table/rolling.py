"""The rolling backup kept on the SD card: one a day, made by a thread of the process's own.

:func:`start` makes the day's backup at once (a box started today has today's before the
first request) and starts a daemon thread that looks again every :data:`ROLL_EVERY_S` (a
ring-board game may be played all day with the box's buttons alone, no request coming).
``mandala serve`` starts it (``companion.serve``); :data:`FILES_LOCK` keeps it and the
panel's backups and restores (``companion.web.api_box``) from touching the files together.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Final

from companion.table import backup, clock

log = logging.getLogger(__name__)

FILES_LOCK = threading.Lock()
"""Held while a backup reads the data directory or a restore changes it (never both)."""

ROLL_EVERY_S: Final = 3600.0
"""How often the rolling backup looks whether today's is made (a day's first is made then)."""


def roll(folder: Path) -> None:
    """Make the day's rolling backup when there is none (a failure is logged, not raised)."""
    try:
        with FILES_LOCK:
            made = backup.keep_daily(folder, clock.now())
        if made is not None:
            log.info("backup: made the rolling backup %s", made)
    except (OSError, backup.BackupRefused) as error:
        log.error("backup: the rolling backup could not be made: %s", error)


def keep_rolling(folder: Path) -> None:
    """Look for the day's rolling backup every :data:`ROLL_EVERY_S`, for ever."""
    while True:
        time.sleep(ROLL_EVERY_S)
        roll(folder)


def start(folder: Path) -> threading.Thread:
    """Make the day's rolling backup of ``folder`` now, then keep rolling on a daemon thread."""
    roll(folder)
    thread = threading.Thread(target=keep_rolling, args=(folder,), name="backups", daemon=True)
    thread.start()
    return thread
