"""Standard-library helpers for the box's own files, shared by the table (backups) and the box
(release files, updates), which may not import each other: the order of release numbers,
and a file written so that a power cut leaves either the old file or the whole new one."""

from __future__ import annotations

import os
from pathlib import Path


def release_key(text: str) -> tuple[int, ...]:
    """A release as numbers to compare (``"0.10.2"`` -> ``(0, 10, 2)``).

    :raises ValueError: when it is not one to four dotted numbers.
    """
    parts = text.split(".")
    if not 1 <= len(parts) <= 4 or not all(p.isdigit() and len(p) <= 6 for p in parts):
        raise ValueError(text)
    return tuple(int(p) for p in parts)


def write_file(path: Path, data: bytes, make_folders: bool = True) -> None:
    """Write ``data`` to ``path`` durably: a temporary file beside it, fsync, rename, fsync
    the folder.

    ``make_folders``: create the missing folders above ``path`` first (else a missing one
    is a ``FileNotFoundError``).
    """
    if make_folders:
        path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.partial")
    with temporary.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    sync_dir(path.parent)


def sync_dir(directory: Path) -> None:
    """fsync a folder, so that the names just made or renamed in it survive a power cut."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
