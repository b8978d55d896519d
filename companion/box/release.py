"""Release files: one file that carries a whole release of the companion, made and checked.

A release file is three parts, like a backup file (``companion.table.backup``):

1. the line ``MANDALA-RELEASE 1``;
2. one line of JSON, the header: ``format`` (1), ``name`` (``mandala-companion``),
   ``release`` (its version, dotted numbers), ``made`` (UTC), ``requires`` (the Python
   packages it needs, as its ``pyproject.toml`` lists them), ``files``, ``bytes`` and the
   ``sha256`` of the body;
3. the body, a gzipped tar of the release as it runs: the packages ``companion/``,
   ``firmware/`` and ``hardware/`` exactly as committed, and
   ``mandala_companion-<release>.dist-info/`` (``METADATA`` with its name and version,
   ``entry_points.txt``), so that a directory holding the unpacked body, first on
   ``PYTHONPATH``, is that release (``importlib.metadata`` reads its version there).

:func:`release_from_git` makes one from a git checkout's commit or tag (``git archive``: only
what is committed; ``tools/release.py`` is the command). :func:`check_release` refuses, with
one line and before anything is changed, a foreign file, a damaged one (checksum, archive, a
name outside the packages, a version that is not the header's) and one not newer than the
running release. :func:`unpack_release` writes the body into a directory.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import io
import json
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Final

from companion.files import ForeignFile, release_key, split_header
from companion.games.base import RecordError
from companion.phrases import Phrase, say

MAGIC: Final = b"MANDALA-RELEASE 1\n"
"""The first line of every release file."""
FORMAT: Final = 1
NAME: Final = "mandala-companion"
DIST_INFO: Final = "mandala_companion"
PACKAGES: Final = ("companion", "firmware", "hardware")
"""The top-level directories a release carries (``pyproject.toml``'s packages)."""
SUFFIX: Final = ".mandala-release"
MAX_BYTES: Final = 64 * 1024 * 1024
"""The most a release may unpack to (a file claiming more is refused as damaged)."""
MAX_FILES: Final = 5_000
GIT_TIMEOUT_S: Final = 120.0


class ReleaseRefused(RecordError):
    """A release file that cannot be installed (foreign, damaged, not newer); says which."""


@dataclass(frozen=True)
class ReleaseHeader:
    """What a release file says about itself."""

    release: str
    made: str
    requires: tuple[str, ...]
    files: int
    bytes: int
    sha256: str

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "name": NAME,
            "release": self.release,
            "made": self.made,
            "requires": list(self.requires),
            "files": self.files,
            "bytes": self.bytes,
            "sha256": self.sha256,
        }


# Making one -----------------------------------------------------------------------------


def _project(tree: Path) -> tuple[str, tuple[str, ...]]:
    """The version and dependencies ``tree/pyproject.toml`` declares."""
    try:
        project = tomllib.loads((tree / "pyproject.toml").read_text("utf-8"))["project"]
        if project["name"] != NAME:
            raise ValueError(f"the project is {project['name']!r}, not {NAME!r}")
        version = str(project["version"])
        release_key(version)
        requires = tuple(str(r) for r in project.get("dependencies", []))
    except (OSError, KeyError, TypeError, ValueError) as error:
        raise ReleaseRefused.said(
            say(
                "{tree}: not a Mandala Companion checkout ({error})",
                tree=str(tree),
                error=str(error),
            )
        ) from None
    return version, requires


def _tree_files(tree: Path) -> Iterator[tuple[Path, str]]:
    for package in PACKAGES:
        for path in sorted((tree / package).rglob("*")):
            relative = path.relative_to(tree)
            if "__pycache__" in relative.parts or path.suffix == ".pyc":
                continue
            if path.is_file() and not path.is_symlink():
                yield path, relative.as_posix()


def _add(tar: tarfile.TarFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = mode
    tar.addfile(info, io.BytesIO(data))


def make_release(tree: Path, made: float | None = None) -> bytes:
    """The release file of the project in ``tree`` (a checkout or an archive of one).

    :raises ReleaseRefused: when ``tree`` is not a Mandala Companion checkout.
    """
    version, requires = _project(tree)
    raw = io.BytesIO()
    files = 0
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path, name in _tree_files(tree):
            _add(tar, name, path.read_bytes())
            files += 1
        info = f"{DIST_INFO}-{version}.dist-info"
        metadata = f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\n"
        metadata += "".join(f"Requires-Dist: {r}\n" for r in requires)
        _add(tar, f"{info}/METADATA", metadata.encode("utf-8"))
        _add(tar, f"{info}/entry_points.txt", b"[console_scripts]\nmandala = companion.cli:main\n")
        files += 2
    body = gzip.compress(raw.getvalue(), mtime=0)
    stamp = time.gmtime(time.time() if made is None else made)
    header = ReleaseHeader(
        release=version,
        made=time.strftime("%Y-%m-%dT%H:%M:%SZ", stamp),
        requires=requires,
        files=files,
        bytes=len(body),
        sha256=hashlib.sha256(body).hexdigest(),
    )
    return MAGIC + json.dumps(header.to_json()).encode("ascii") + b"\n" + body


def git(checkout: Path, *args: str) -> str:
    """Run ``git -C checkout ARGS`` and return its output.

    :raises ReleaseRefused: when git fails (its last line of error says why).
    """
    try:
        done = subprocess.run(
            ["git", "-C", str(checkout), *args],
            capture_output=True,
            check=False,
            timeout=GIT_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ReleaseRefused(f"git {args[0]}: {error}") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"]
        raise ReleaseRefused(f"git {args[0]}: {lines[-1]}")
    return done.stdout.decode("utf-8", "replace")


def release_from_git(checkout: Path, ref: str = "HEAD") -> bytes:
    """The release file of commit or tag ``ref`` of the git checkout ``checkout``.

    Only what is committed goes in (``git archive``), never a file left lying in the tree.
    """
    with tempfile.TemporaryDirectory(prefix="mandala-release-") as scratch:
        archive = Path(scratch) / "tree.tar"
        git(checkout, "archive", "--format=tar", f"--output={archive}", f"{ref}^{{commit}}")
        tree = Path(scratch) / "tree"
        with tarfile.open(archive) as tar:
            _extract_plain(tar, tree)
        return make_release(tree)


def _extract_plain(tar: tarfile.TarFile, target: Path) -> None:
    """Extract the plain files and folders of ``tar`` (a ``git archive``, of a tag that may
    come from the network) into ``target``; a name outside it is refused; links and devices
    are left out (a release holds none). By hand: Debian 12's Python (3.11.2) has no
    extraction filters."""
    for member in tar.getmembers():
        name = PurePosixPath(member.name)
        if name.is_absolute() or ".." in name.parts:
            raise ReleaseRefused.said(
                say("the checkout's archive names a path outside it: {name}", name=member.name)
            )
        path = target.joinpath(*name.parts)
        if member.isdir():
            path.mkdir(parents=True, exist_ok=True)
        elif member.isfile():
            source = tar.extractfile(member)
            if source is None:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            with source, path.open("wb") as handle:
                shutil.copyfileobj(source, handle)


# Checking one ---------------------------------------------------------------------------


def _damaged(why: Phrase) -> ReleaseRefused:
    return ReleaseRefused.said(say("the release file is damaged: {why}", why=why))


def read_header(data: bytes) -> tuple[ReleaseHeader, bytes]:
    """The header and the body of a release file, unchecked but for their form.

    :raises ReleaseRefused: a foreign file, or a header that cannot be read.
    """
    try:
        obj, body = split_header(data, MAGIC, FORMAT)
    except ForeignFile:  # "it does not start as one"
        raise ReleaseRefused.said(
            say("not a Mandala Companion release file (it does not start as one)")
        ) from None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
        raise _damaged(say("its header cannot be read ({error})", error=str(error))) from None
    if obj.get("name") != NAME:
        raise ReleaseRefused.said(
            say(
                "not a Mandala Companion release file (it is {name})",
                name=repr(obj.get("name")),
            )
        )
    try:
        header = ReleaseHeader(
            release=str(obj["release"]),
            made=str(obj["made"]),
            requires=tuple(str(r) for r in obj["requires"]),
            files=int(obj["files"]),
            bytes=int(obj["bytes"]),
            sha256=str(obj["sha256"]),
        )
        release_key(header.release)
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
        raise _damaged(say("its header cannot be read ({error})", error=str(error))) from None
    return header, body


def check_release(data: bytes, running: str) -> ReleaseHeader:
    """Say what release ``data`` holds, or refuse it (nothing is changed either way).

    Checks the header, that the release is newer than ``running``, the checksum, that every
    file of the archive is a plain file under the packages or the release's own ``dist-info``
    whose ``METADATA`` names this version, and that the packages it needs are installed.

    :raises ReleaseRefused: ``not a Mandala Companion release file ...``, ``the release file
        is damaged: ...``, ``release X is not newer than this box's release Y`` or ``release
        X needs P, which this box does not have: ...``.
    """
    header, body = read_header(data)
    if release_key(header.release) <= release_key(running):
        raise ReleaseRefused.said(
            say(
                "release {release} is not newer than this box's release {running}",
                release=header.release,
                running=running,
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
    _members(body, header.release, None)
    missing = missing_requirements(header.requires)
    if missing:
        raise ReleaseRefused.said(
            say(
                "release {release} needs {missing}, which this box does not "
                "have: install it from a checkout with systemd/install.sh",
                release=header.release,
                missing=", ".join(missing),
            )
        )
    return header


def missing_requirements(requires: tuple[str, ...]) -> list[str]:
    """The packages of ``requires`` (``name>=1.0`` lines) not installed for this Python.

    Only the names are checked (an update never installs a package: it works offline);
    a version too old shows when the release starts, and the updater goes back.
    """
    missing = []
    for requirement in requires:
        found = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
        if found is None:
            raise _damaged(say("it requires {requirement}", requirement=repr(requirement[:80])))
        try:
            importlib.metadata.distribution(found.group(0))
        except importlib.metadata.PackageNotFoundError:
            missing.append(found.group(0))
    return missing


def _safe_name(name: str, release: str) -> str:
    path = PurePosixPath(name)
    info = f"{DIST_INFO}-{release}.dist-info"
    if (
        path.is_absolute()
        or len(path.parts) < 2
        or ".." in path.parts
        or "\\" in name
        or path.parts[0] not in (*PACKAGES, info)
    ):
        raise _damaged(say("it holds a file named {name}", name=repr(name[:200])))
    return path.as_posix()


def _members(body: bytes, release: str, target: Path | None) -> int:
    """Check every file of the body (and write it under ``target`` when given)."""
    total = files = 0
    metadata = b""
    try:
        with tarfile.open(fileobj=io.BytesIO(gzip.decompress(body)), mode="r:") as tar:
            for info in tar:
                if info.isdir():
                    continue
                if not info.isfile():
                    raise _damaged(say("{name} is not a plain file", name=repr(info.name[:200])))
                name = _safe_name(info.name, release)
                total += info.size
                files += 1
                if total > MAX_BYTES or files > MAX_FILES:
                    raise _damaged(say("it unpacks to too much"))
                source = tar.extractfile(info)
                assert source is not None  # a regular file always has content
                if name.endswith(".dist-info/METADATA"):
                    metadata = source.read(64 * 1024)
                    source = io.BytesIO(metadata)
                if target is not None:
                    path = target / name
                    path.parent.mkdir(parents=True, exist_ok=True)
                    with path.open("wb") as handle:
                        shutil.copyfileobj(source, handle)
    except (OSError, EOFError, tarfile.TarError, gzip.BadGzipFile) as error:
        raise _damaged(say("its archive cannot be read ({error})", error=str(error))) from None
    if f"\nVersion: {release}\n".encode() not in metadata:
        raise _damaged(say("it does not hold release {release}'s metadata", release=release))
    return files


def unpack_release(data: bytes, target: Path) -> ReleaseHeader:
    """Write the release in ``data`` into the new directory ``target`` (checked as it goes).

    :raises ReleaseRefused: a foreign or damaged file (``target`` is then removed).
    :raises FileExistsError: when ``target`` exists.
    """
    header, body = read_header(data)
    if len(body) != header.bytes or hashlib.sha256(body).hexdigest() != header.sha256:
        raise _damaged(say("its checksum does not match"))
    target.mkdir(parents=True)
    try:
        _members(body, header.release, target)
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)
        raise
    return header


def installed_release(directory: Path) -> str | None:
    """The release an unpacked release directory holds (its ``dist-info``), or None."""
    for info in sorted(directory.glob(f"{DIST_INFO}-*.dist-info")):
        try:
            for line in (info / "METADATA").read_text("utf-8").splitlines():
                if line.startswith("Version: "):
                    return line.removeprefix("Version: ").strip()
        except OSError:
            continue
    return None
