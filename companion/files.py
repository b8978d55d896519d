"""Standard-library helpers for the box's own files, shared by the table (backups) and the box
(release files, updates), which may not import each other: the order of release numbers,
the header line both kinds of file open with, and a file written so that a power cut leaves
either the old file or the whole new one."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def release_key(text: str) -> tuple[int, ...]:
    """A release as numbers to compare (``"0.10.2"`` -> ``(0, 10, 2)``).

    :raises ValueError: when it is not one to four dotted numbers.
    """
    parts = text.split(".")
    if not 1 <= len(parts) <= 4 or not all(p.isdigit() and len(p) <= 6 for p in parts):
        raise ValueError(text)
    return tuple(int(p) for p in parts)


HEADER_LIMIT = 64 * 1024  # bytes: a header line is far shorter; a longer one is not one


class ForeignFile(ValueError):
    """A file that is not of the kind expected; the message says why (``it does not start
    as one``)."""


def split_header(data: bytes, magic: bytes, form: int) -> tuple[dict[str, Any], bytes]:
    """Split a file that opens with the line ``magic`` then a JSON header line of format
    ``form`` into that header and the rest.

    :raises ForeignFile: when it does not open with ``magic``.
    :raises ValueError: when the header line is missing, not JSON or of another format.
    """
    if not data.startswith(magic):
        raise ForeignFile("it does not start as one")
    end = data.find(b"\n", len(magic), len(magic) + HEADER_LIMIT)
    if end < 0:
        raise ValueError("no header line")
    found = json.loads(data[len(magic) : end].decode("ascii"))
    if not isinstance(found, dict) or found.get("format") != form:
        raise ValueError("unknown format")
    return found, data[end + 1 :]


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
