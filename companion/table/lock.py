"""One server per data directory: an exclusive ``flock`` on ``<data>/serve.lock``.

Two servers on one ``table.db`` lose data (each undoes the other's journal rows), so
``mandala serve`` holds this lock for its whole life. The file carries the holder's process
id, for the one line a second server exits with. The kernel drops the lock when the process
ends, however it ends (a power cut or ``kill -9`` leaves the file, never a stale lock); a
clean stop removes the file while it still holds the lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

LOCK_NAME = "serve.lock"
"""The lock file's name inside the data directory."""


class DataDirInUse(Exception):
    """Another process holds the data directory's lock; the message names its process id."""


class DataLock:
    """The held lock of one data directory (:func:`lock_data_dir` takes it)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    def release(self) -> None:
        """Remove the lock file and let the lock go (idempotent)."""
        if self._fd is None:
            return
        # Unlink while still holding it: a process that opened the old file meanwhile sees
        # that its file is no longer the path's and starts over (see lock_data_dir).
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(self._fd)
        self._fd = None


def lock_data_dir(data_dir: Path) -> DataLock:
    """Take the exclusive lock of ``data_dir`` (which must exist) and write our pid into it.

    :raises DataDirInUse: when another process holds it.
    :raises OSError: when the lock file cannot be created.
    """
    path = data_dir / LOCK_NAME
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            who = f"process {holder}" if holder else "another process"
            raise DataDirInUse(
                f"data: {data_dir} is in use by another mandala serve ({who}); "
                "stop it first or give another --data"
            ) from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the holder removed this file as it stopped: lock the path's new file
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    return DataLock(path, fd)


def _holder(fd: int) -> int | None:
    """The process id written in the lock file, if it is there yet."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None
