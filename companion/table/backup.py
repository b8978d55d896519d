"""One-file backups of the data directory, their checks, restoring one, the rolling backups.

A backup file is three parts: the line ``MANDALA-BACKUP 1``, one line of JSON (the header:
``format``, ``release`` and ``schema`` of the companion that made it, ``created``, ``files``,
``bytes`` and the ``sha256`` of the body) and the body, a gzipped tar of every file in the
data directory: ``table.db`` (games and journals, players, calibration, settings, the owner
phones) as a consistent copy taken with SQLite's online backup API while the companion may
be writing, and every other file as it is (``boards/``, a config file kept there, whatever
later releases keep there). Left out: ``serve.lock``, the database's ``-wal``/``-shm`` side
files (the copy holds their content) and :data:`BACKUPS_DIR`, the rolling backups.

:func:`check_backup` refuses, with one line and before anything is changed, a file that is
not a backup (foreign), one whose checksum, archive or database is damaged, and one made by a
newer release or schema. :func:`restore_files` checks first, unpacks into a staging
directory beside the data, keeps a backup of what was there in :data:`BACKUPS_DIR`, then
swaps the files in. Nothing here may run while a table holds the database open: the CLI
restores with the server stopped (it takes ``serve.lock``), the panel through
``Table.swap_data`` (the table closes its store, the files change, it opens them again).

The rolling backups (:func:`keep_daily`): one a day in ``<data>/backups/``, the newest
:data:`KEEP_DAYS` kept, older ones deleted.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import io
import json
import os
import shutil
import sqlite3
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Final

from companion.files import ForeignFile, release_key, split_header, sync_dir, write_file
from companion.games.base import RecordError
from companion.phrases import Phrase, say
from companion.table.lock import LOCK_NAME
from companion.table.schema import SCHEMA_VERSION
from companion.table.store import DB_NAME

MAGIC: Final = b"MANDALA-BACKUP 1\n"
"""The first line of every backup file."""
FORMAT: Final = 1
BACKUPS_DIR: Final = "backups"
"""The rolling backups' directory inside the data directory (never itself backed up)."""
KEEP_DAYS: Final = 7
"""How many daily backups the rolling backup keeps."""
KEEP_BEFORE_RESTORE: Final = 3
"""How many copies of the data a restore replaced are kept."""
KEEP_BEFORE_UPDATE: Final = 3
"""How many backups made before an update are kept."""
SUFFIX: Final = ".mandala-backup"
MAX_BYTES: Final = 256 * 1024 * 1024
"""The most a backup may unpack to (a file claiming more is refused as damaged)."""
MAX_FILES: Final = 10_000
UPDATES_DIR: Final = "updates"
"""Where a release file waits for the updater (``companion.box.update``; never backed up)."""
SKIPPED: Final = frozenset(
    {LOCK_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm", BACKUPS_DIR, UPDATES_DIR}
)
STAGING_PREFIX: Final = ".restoring-"


class BackupRefused(RecordError):
    """A file that cannot be restored (foreign, damaged, newer); the message says which, in
    the phone's language too (made with :meth:`~companion.games.base.MandalaError.said`;
    paths, names and SQLite's or the system's own words are its values, as they are)."""


def _damaged(why: Phrase) -> BackupRefused:
    return BackupRefused.said(say("the backup is damaged: {why}", why=why))


def release() -> str:
    """This companion's release (the installed package's version)."""
    try:
        return importlib.metadata.version("mandala-companion")
    except importlib.metadata.PackageNotFoundError:
        return "0.0.0"


@dataclass(frozen=True)
class Header:
    """What a backup file says about itself."""

    release: str
    schema: int
    created: str
    files: int
    bytes: int
    sha256: str

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "release": self.release,
            "schema": self.schema,
            "created": self.created,
            "files": self.files,
            "bytes": self.bytes,
            "sha256": self.sha256,
        }


# Making one -----------------------------------------------------------------------------


def snapshot_database(source: Path, target: Path) -> None:
    """Copy the database at ``source`` to ``target`` with SQLite's online backup API.

    The copy is one consistent state even while the table writes (WAL mode: the copy reads
    a snapshot, the writer is never blocked for long); it is a single file, no side files.
    """
    src = sqlite3.connect(f"{source.as_uri()}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
    finally:
        src.close()


def _data_files(data_dir: Path) -> list[tuple[Path, str]]:
    """Every file of ``data_dir`` a backup carries, but the database, as (path, name)."""
    found: list[tuple[Path, str]] = []
    for root, dirs, files in os.walk(data_dir):
        here = Path(root)
        top = here == data_dir
        dirs[:] = sorted(
            d for d in dirs if not (top and d in SKIPPED) and not d.startswith(STAGING_PREFIX)
        )
        for name in sorted(files):
            if top and (name in SKIPPED or name == DB_NAME):
                continue
            path = here / name
            if path.is_file() and not path.is_symlink():
                found.append((path, path.relative_to(data_dir).as_posix()))
    return found


def make_backup(data_dir: Path) -> bytes:
    """Back up ``data_dir`` (the server running or not) and return the backup file's bytes.

    :raises BackupRefused: when the directory holds no database (nothing to back up).
    :raises OSError: when a file cannot be read.
    """
    database = data_dir / DB_NAME
    if not database.is_file():
        raise BackupRefused.said(
            say(
                "{folder}: no {database} there: nothing to back up",
                folder=str(data_dir),
                database=DB_NAME,
            )
        )
    with tempfile.TemporaryDirectory(prefix="mandala-backup-") as scratch:
        copy = Path(scratch) / DB_NAME
        try:
            snapshot_database(database, copy)
            schema = int(sqlite3.connect(copy).execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.Error as error:
            raise BackupRefused.said(
                say(
                    "{database}: cannot copy the database: {error}",
                    database=str(database),
                    error=str(error),
                )
            ) from error
        members = [(copy, DB_NAME), *_data_files(data_dir)]
        # The tar is compressed as it is written: only the compressed file is held in memory
        # (a year of games, an 8.4 MB database: 1.6 MB), never the whole tar besides it.
        # Level 6, not gzip's 9: a year of games (7.6 MB) compresses in 0.56 s instead of 1.3 s
        # here (ten times that on a Zero 2, before the day's first start serves) for 2% more.
        packed = io.BytesIO()
        with (
            gzip.GzipFile(fileobj=packed, mode="wb", compresslevel=6, mtime=0) as zipped,
            tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar,
        ):
            for path, name in members:
                info = tar.gettarinfo(str(path), arcname=name)
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                with path.open("rb") as handle:
                    tar.addfile(info, handle)
        body = packed.getvalue()
    header = Header(
        release=release(),
        schema=schema,
        created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        files=len(members),
        bytes=len(body),
        sha256=hashlib.sha256(body).hexdigest(),
    )
    return MAGIC + json.dumps(header.to_json()).encode("ascii") + b"\n" + body


# Checking one ---------------------------------------------------------------------------


def _header(data: bytes) -> tuple[Header, bytes]:
    try:
        obj, body = split_header(data, MAGIC, FORMAT)
        header = Header(
            release=str(obj["release"]),
            schema=int(obj["schema"]),
            created=str(obj["created"]),
            files=int(obj["files"]),
            bytes=int(obj["bytes"]),
            sha256=str(obj["sha256"]),
        )
        release_key(header.release)
    except ForeignFile:  # "it does not start as one"
        raise BackupRefused.said(
            say("not a Mandala Companion backup (it does not start as one)")
        ) from None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
        raise _damaged(say("its header cannot be read ({error})", error=str(error))) from None
    return header, body


def check_backup(data: bytes) -> Header:
    """Say what ``data`` is a backup of, or refuse it (nothing is changed either way).

    :raises BackupRefused: ``not a Mandala Companion backup``, ``the backup is damaged: ...``
        or ``the backup was made by release X (schema N); this is release Y (schema M):
        install release X or later to restore it``.
    """
    header, body = _header(data)
    mine = release()
    if release_key(header.release) > release_key(mine) or header.schema > SCHEMA_VERSION:
        raise BackupRefused.said(
            say(
                "the backup was made by release {release} (schema {schema}); this is release "
                "{mine} (schema {my_schema}): install release {release} or later to restore it",
                release=header.release,
                schema=header.schema,
                mine=mine,
                my_schema=SCHEMA_VERSION,
            )
        )
    if len(body) != header.bytes or hashlib.sha256(body).hexdigest() != header.sha256:
        raise _damaged(
            say(
                "its checksum does not match ({got} of {bytes} bytes)",
                got=len(body),
                bytes=header.bytes,
            )
        )
    return header


def _safe_name(name: str) -> str:
    path = PurePosixPath(name)
    if path.is_absolute() or not path.parts or ".." in path.parts or "\\" in name:
        raise _damaged(say("it holds a file named {name}", name=repr(name)))
    return path.as_posix()


def _unpack(body: bytes, target: Path) -> list[str]:
    """Unpack the body's regular files into ``target``; return their names."""
    names: list[str] = []
    total = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(gzip.decompress(body)), mode="r:") as tar:
            for info in tar:
                if info.isdir():
                    continue
                if not info.isfile():
                    raise _damaged(say("{name} is not a file", name=repr(info.name)))
                name = _safe_name(info.name)
                total += info.size
                if total > MAX_BYTES or len(names) >= MAX_FILES:
                    raise _damaged(say("it unpacks to too much"))
                source = tar.extractfile(info)
                assert source is not None  # a regular file always has content
                path = target / name
                path.parent.mkdir(parents=True, exist_ok=True)
                # Each file keeps who may read it (the access point's password is 0600), but
                # never more than it had: no execute bit, no writing by others.
                mode = (info.mode & 0o644) | 0o600
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
                os.fchmod(descriptor, mode)  # past the umask, which os.open applies
                with os.fdopen(descriptor, "wb") as handle:
                    shutil.copyfileobj(source, handle)
                names.append(name)
    except (OSError, EOFError, tarfile.TarError, gzip.BadGzipFile) as error:
        raise _damaged(say("its archive cannot be read ({error})", error=str(error))) from None
    return names


def _check_database(path: Path) -> None:
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            check = db.execute("PRAGMA quick_check").fetchall()
            schema = int(db.execute("PRAGMA user_version").fetchone()[0])
            db.execute("SELECT count(*) FROM games").fetchone()
        finally:
            db.close()
    except sqlite3.Error as error:
        raise _damaged(say("its database cannot be read ({error})", error=str(error))) from None
    if check != [("ok",)] or not 1 <= schema <= SCHEMA_VERSION:
        raise _damaged(say("its database fails SQLite's check"))


# Restoring one --------------------------------------------------------------------------


def restore_files(data_dir: Path, data: bytes) -> tuple[Header, Path | None]:
    """Make ``data_dir`` hold exactly what the backup ``data`` holds.

    Nobody may have the database open (see the module's docstring). Before anything is
    changed the backup is checked whole (header, checksum, archive, database); then what
    was there is kept as a backup in :data:`BACKUPS_DIR` and the files are swapped in.
    Returns the backup's header and the file keeping what was there (``None``: nothing was).

    :raises BackupRefused: the file is foreign, damaged or newer (nothing was changed).
    :raises OSError: the data directory cannot be written (the staging files are removed).
    """
    header = check_backup(data)
    data_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=data_dir))
    try:
        names = _unpack(_header(data)[1], staging)
        if DB_NAME not in names:
            raise _damaged(say("it holds no {database}", database=DB_NAME))
        _check_database(staging / DB_NAME)
        kept = None
        if (data_dir / DB_NAME).is_file():
            kept = _keep(data_dir, make_backup(data_dir), "before-restore", KEEP_BEFORE_RESTORE)
        _clear(data_dir, staging)
        for name in sorted(names):
            target = data_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / name, target)
        sync_dir(data_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return header, kept


def _clear(data_dir: Path, staging: Path) -> None:
    """Remove what the data directory held, but the lock, the backups, a waiting update,
    ``staging`` and the damaged databases kept aside (never deleted: ``companion.table.store``)."""
    for entry in data_dir.iterdir():
        if entry.name in {LOCK_NAME, BACKUPS_DIR, UPDATES_DIR} or entry == staging:
            continue
        if entry.name.startswith(f"{DB_NAME}.damaged-"):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


# The rolling backups --------------------------------------------------------------------


@dataclass(frozen=True)
class Kept:
    """One backup file in :data:`BACKUPS_DIR`."""

    name: str
    path: Path
    size: int
    modified: float

    def to_json(self) -> dict[str, Any]:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.modified))
        return {"name": self.name, "bytes": self.size, "made": stamp}


def kept_backups(data_dir: Path) -> list[Kept]:
    """The backups kept in ``<data>/backups``, newest first."""
    found: list[Kept] = []
    folder = data_dir / BACKUPS_DIR
    if not folder.is_dir():
        return []
    for path in folder.glob(f"*{SUFFIX}"):
        info = path.stat()
        found.append(Kept(path.name, path, info.st_size, info.st_mtime))
    return sorted(found, key=lambda k: (k.modified, k.name), reverse=True)


def kept_backup(data_dir: Path, name: str) -> Path:
    """The path of the kept backup ``name``.

    :raises BackupRefused: when there is no such backup.
    """
    for kept in kept_backups(data_dir):
        if kept.name == name:
            return kept.path
    raise BackupRefused.said(say("backup: no kept backup named {name}", name=repr(name[:80])))


def _keep(data_dir: Path, data: bytes, kind: str, keep: int, day: str | None = None) -> Path:
    stamp = day or time.strftime("%Y-%m-%d-%H%M%S", time.gmtime())
    path = data_dir / BACKUPS_DIR / f"{kind}-{stamp}{SUFFIX}"
    # Only backups/ inside the data directory is made: a data directory moved or deleted
    # under the running server is never made again (FileNotFoundError: the caller's).
    path.parent.mkdir(exist_ok=True)
    write_file(path, data, make_folders=False)
    same = sorted((data_dir / BACKUPS_DIR).glob(f"{kind}-*{SUFFIX}"), reverse=True)
    for old in same[keep:]:
        old.unlink(missing_ok=True)
    return path


def keep_before_update(data_dir: Path) -> Path:
    """Back up ``data_dir`` into :data:`BACKUPS_DIR` before an update; return the file.

    The newest :data:`KEEP_BEFORE_UPDATE` are kept; the Health page lists them with the rest.
    """
    return _keep(data_dir, make_backup(data_dir), "before-update", KEEP_BEFORE_UPDATE)


def keep_daily(data_dir: Path, now: float | None = None) -> Path | None:
    """Make today's rolling backup unless there is one; keep the newest :data:`KEEP_DAYS`.

    Returns the new file, or ``None`` when today's was already made (or nothing to back up).
    """
    day = time.strftime("%Y-%m-%d", time.gmtime(time.time() if now is None else now))
    if (data_dir / BACKUPS_DIR / f"daily-{day}{SUFFIX}").exists():
        return None
    if not (data_dir / DB_NAME).is_file():
        return None
    return _keep(data_dir, make_backup(data_dir), "daily", KEEP_DAYS, day)
