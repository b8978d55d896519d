"""The rolling backup kept on the SD card: one a day, made by a thread of the process's own.

:func:`start` starts a daemon thread that makes the day's backup at once, then looks again
every :data:`ROLL_EVERY_S` (a ring-board game may be played all day with the box's buttons
alone, no request coming). The thread runs at the lowest CPU priority (Linux gives each
thread its own nice value): on a Pi Zero 2 the day's first backup takes seconds, and the
panel answers its first phones meanwhile instead of after it.
``mandala serve`` starts it (``companion.serve``); :data:`FILES_LOCK` keeps it and the
panel's backups and restores (``companion.web.api_box``) from touching the files together.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from companion.table import backup, clock

log = logging.getLogger(__name__)

FILES_LOCK = threading.Lock()
"""Held while a backup reads the data directory or a restore changes it (never both)."""

LOWEST_PRIORITY: Final = 19
"""The backups thread's nice value (the panel's threads keep the process's own)."""
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


def keep_rolling(folder: Path, first: threading.Event) -> None:
    """Make the day's rolling backup now, then look again every :data:`ROLL_EVERY_S`."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux: the same priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST_PRIORITY)
    roll(folder)
    first.set()
    while True:
        time.sleep(ROLL_EVERY_S)
        roll(folder)


@dataclass(frozen=True)
class Rolling:
    """The rolling backups' thread, and the event set once the day's first look is done."""

    thread: threading.Thread
    first: threading.Event


def start(folder: Path) -> Rolling:
    """Keep rolling backups of ``folder`` on a daemon thread, the day's first made at once."""
    first = threading.Event()
    thread = threading.Thread(
        target=keep_rolling, args=(folder, first), name="backups", daemon=True
    )
    thread.start()
    return Rolling(thread, first)
