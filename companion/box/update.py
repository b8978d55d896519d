"""Updates from the panel: a newer release staged by the service, installed by the updater.

Two halves, because the service cannot replace itself (it runs as the ``mandala`` user in a
read-only system and stopping it ends it):

**The service stages** (:func:`stage`, from ``companion.web.api_update``): it checks the
release file whole (``companion.box.release``: foreign, damaged, not newer are refused and
nothing changes), has a backup made first (the caller's ``backup``, ``companion.table.backup``),
writes the file to ``<data>/updates/<release>.mandala-release`` and then, last,
``<data>/updates/request.json``. Where the box has internet the release may instead come from
its git checkout's tags (:func:`newest_tag`: ``git fetch --tags``, the newest ``v*`` tag above
the running release; :func:`~companion.box.release.release_from_git` makes its file).

**The updater installs** (:func:`apply`; ``python -m companion.box.update``, run by
``mandala-update.service`` as root when ``mandala-update.path`` sees the request). The install
(``/opt/mandala``) holds the releases side by side::

    venv/                  the shared virtual environment: Python and the dependencies
    releases/<release>/    each release unpacked (the service's PYTHONPATH is current)
    current -> releases/<release>

Without ``current`` the service runs the release installed in the venv by
``systemd/install.sh``. The updater takes the request (deletes it), checks the file again,
unpacks it into ``releases/<release>``, then ``systemctl stop`` the service, points
``current`` at the new release, and ``systemctl start`` it: for a ``Type=notify`` unit that
returns once the service sent ``READY=1``, and fails when it exits first. When it has not
within :data:`WINDOW_S` (``--window``), the updater stops it, points ``current`` back where it
was, ``systemctl reset-failed`` and starts the previous release again. Every step is written
to ``<data>/updates/status.json`` (:func:`read_status`), which the panel shows: ``waiting``,
``installing``, ``updated``, ``rolled-back`` (with why), ``refused`` or ``failed``.

The symlink is only ever switched while the service is stopped, so a running service never
imports a module of another release. An update cut short (a power cut while ``installing``)
is finished at the next boot (:func:`resume`): the new release is kept only if it reports
ready, else the previous one comes back. Only the current release and the one before it are kept.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from companion.box.release import (
    NAME,
    SUFFIX,
    ReleaseRefused,
    check_release,
    git,
    installed_release,
    unpack_release,
)
from companion.files import release_key, write_file
from companion.phrases import Phrase, error_words, phrase_from_json, say

UPDATES_DIR: Final = "updates"
"""The staging directory inside the data directory (never backed up)."""
REQUEST: Final = "request.json"
STATUS: Final = "status.json"
WINDOW_S: Final = 60.0
"""How long a new release has to report ready to systemd before it is rolled back."""
UNIT: Final = "mandala.service"
KEEP_RELEASES: Final = 2


def running_release() -> str:
    """This process's release (the package's version: the current release's ``dist-info``)."""
    try:
        return importlib.metadata.version(NAME)
    except importlib.metadata.PackageNotFoundError:
        return "0.0.0"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# The status the panel shows ---------------------------------------------------------------


def write_status(data_dir: Path, state: str, said: Phrase, **more: Any) -> dict[str, Any]:
    """Record the update's state: ``state``, ``phrase`` (what happened, ``Phrase.to_json``:
    the panel says it in the phone's language, :func:`status_words` gives it back), ``at``
    and ``more``."""
    status: dict[str, Any] = {"state": state, "phrase": said.to_json(), "at": _now(), **more}
    folder = data_dir / UPDATES_DIR
    folder.mkdir(exist_ok=True)
    write_file(folder / STATUS, json.dumps(status).encode("utf-8"), make_folders=False)
    os.chmod(folder / STATUS, 0o644)  # the updater is root; the service reads it
    return status


def read_status(data_dir: Path) -> dict[str, Any] | None:
    """The last update's status, or None when there was none (or it cannot be read)."""
    try:
        status = json.loads((data_dir / UPDATES_DIR / STATUS).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(status, dict) or "state" not in status:
        return None
    if not isinstance(status.get("phrase"), dict):
        # written by an updater of an earlier release: its English ``text`` only
        status["phrase"] = say("{reason}", reason=str(status.pop("text", ""))).to_json()
    return status


def status_words(status: Mapping[str, Any]) -> Phrase:
    """What a status (:func:`write_status`, :func:`read_status`) says, as a phrase."""
    return phrase_from_json(status["phrase"])


# The service's half: staging ------------------------------------------------------------


def pending(data_dir: Path) -> bool:
    """Whether a staged release waits for the updater."""
    return (data_dir / UPDATES_DIR / REQUEST).is_file()


def stage(data_dir: Path, data: bytes, running: str, backup: Callable[[], Path]) -> dict[str, Any]:
    """Check the release file ``data``, have a backup made, and ask the updater to install it.

    Returns the status written (``waiting``). Nothing is written when the file is refused.

    :raises ReleaseRefused: a foreign, damaged or not newer file, or an update already waiting.
    :raises OSError: when the data directory cannot be written.
    """
    header = check_release(data, running)
    if pending(data_dir):
        raise ReleaseRefused.said(say("an update is already waiting to be installed"))
    kept = backup()
    folder = data_dir / UPDATES_DIR
    folder.mkdir(exist_ok=True)
    for old in folder.glob(f"*{SUFFIX}"):
        old.unlink()
    name = f"{header.release}{SUFFIX}"
    write_file(folder / name, data, make_folders=False)
    status = write_status(
        data_dir,
        "waiting",
        say(
            "release {release} is waiting to be installed; a backup was made first",
            release=header.release,
        ),
        release=header.release,
        previous=running,
        backup=kept.name,
    )
    request = {"release": header.release, "file": name, "from": running, "asked": _now()}
    write_file(folder / REQUEST, json.dumps(request).encode("utf-8"), make_folders=False)
    return status


def newest_tag(checkout: Path, running: str) -> tuple[str, str] | None:
    """Fetch the checkout's tags; the newest ``v<release>`` above ``running`` as (tag, release).

    :raises ReleaseRefused: when git fails (no network, not a checkout), with git's line.
    """
    git(checkout, "fetch", "--tags", "--force", "--quiet", "origin")
    best: tuple[tuple[int, ...], str, str] | None = None
    for tag in git(checkout, "tag", "--list", "v*").split():
        try:
            key = release_key(tag[1:])
        except ValueError:
            continue
        if key > release_key(running) and (best is None or key > best[0]):
            best = (key, tag, tag[1:])
    return None if best is None else (best[1], best[2])


# The updater's half: installing ---------------------------------------------------------


@dataclass
class Service:
    """The systemd unit the updater stops and starts, through ``systemctl``."""

    unit: str = UNIT
    systemctl: Sequence[str] = ("systemctl",)
    window: float = WINDOW_S
    back_window: float = WINDOW_S
    """How long the previous release may take to start again (systemd's own timeout)."""
    log: list[str] = field(default_factory=list)

    def run(self, *args: str, timeout: float = 30.0) -> bool:
        """Run ``systemctl ARGS unit``; whether it succeeded in time."""
        command = [*self.systemctl, *args, self.unit]
        self.log.append(" ".join(command))
        try:
            done = subprocess.run(command, capture_output=True, check=False, timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        except OSError as error:
            raise UpdateFailed(f"{self.systemctl[0]}: {error}") from None
        return done.returncode == 0

    def start_ready(self, window: float) -> bool:
        """Start the unit; whether it reported ready (``READY=1``) within ``window`` s.

        ``systemctl start`` of a ``Type=notify`` unit waits for ``READY=1``; then
        ``is-active`` must say ``active`` (not a process that exited at once).
        """
        return self.run("start", timeout=window) and self.run("is-active", "--quiet")


class UpdateFailed(RuntimeError):
    """The updater could not do its work (``systemctl`` missing, the install unwritable)."""


@dataclass(frozen=True)
class Install:
    """The program's directory (``/opt/mandala``): releases side by side, ``current``."""

    root: Path

    @property
    def releases(self) -> Path:
        return self.root / "releases"

    @property
    def current(self) -> Path:
        return self.root / "current"

    def target(self) -> str | None:
        """The release directory ``current`` names (relative), or None without one."""
        return os.readlink(self.current) if self.current.is_symlink() else None

    def release(self) -> str:
        """The release the service runs: ``current``'s, else the venv's."""
        if self.current.is_symlink():
            found = installed_release(self.current)
            if found is not None:
                return found
        return running_release()

    def point(self, target: str | None) -> None:
        """Point ``current`` at ``target`` (a path relative to the root), or remove it."""
        if target is None:
            self.current.unlink(missing_ok=True)
            return
        temporary = self.root / ".current.partial"
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(target)
        os.replace(temporary, self.current)

    def prune(self, keep: Sequence[str | None]) -> None:
        """Remove every release directory but those named in ``keep``."""
        kept = {Path(k).name for k in keep if k is not None}
        for directory in self.releases.iterdir():
            if directory.name not in kept:
                shutil.rmtree(directory, ignore_errors=True)


def take_request(data_dir: Path) -> dict[str, Any] | None:
    """The staged request, deleted so that it is taken once; None when there is none."""
    path = data_dir / UPDATES_DIR / REQUEST
    try:
        request = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        request = {}
    path.unlink(missing_ok=True)
    return request if isinstance(request, dict) else {}


def apply(data_dir: Path, install: Install, service: Service) -> dict[str, Any] | None:
    """Install the staged release, keep it if it reports ready, else go back; the status.

    Returns None when nothing was staged.
    """
    request = take_request(data_dir)
    if request is None:
        return None
    running = install.release()
    try:
        name = str(request["file"])
        if "/" in name or not name.endswith(SUFFIX):
            raise ReleaseRefused.said(say("the update request is damaged"))
        data = (data_dir / UPDATES_DIR / name).read_bytes()
        header = check_release(data, running)
    except (KeyError, OSError, ReleaseRefused) as error:
        text = error_words(error) if isinstance(error, ReleaseRefused) else None
        if not isinstance(text, Phrase):
            text = say("the staged file is missing")
        return write_status(data_dir, "refused", text, previous=running)
    new = f"releases/{header.release}"
    install.releases.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(install.root / new, ignore_errors=True)
    unpack_release(data, install.root / new)
    (data_dir / UPDATES_DIR / name).unlink(missing_ok=True)
    old = install.target()
    write_status(
        data_dir,
        "installing",
        say("installing release {release}", release=header.release),
        release=header.release,
        previous=running,
        old=old,
        new=new,
    )
    return _settle(
        data_dir,
        install,
        service=service,
        release=header.release,
        running=running,
        targets=(old, new),
    )


def resume(data_dir: Path, install: Install, service: Service) -> dict[str, Any] | None:
    """Finish an update the box lost power (or the updater died) in the middle of.

    The status still says ``installing``: start what ``current`` should be and keep it only
    when it reports ready, as :func:`apply` does; else go back. None when there is nothing
    to finish. ``mandala-update.service`` runs at every boot for this.
    """
    status = read_status(data_dir)
    if status is None or status.get("state") != "installing" or "new" not in status:
        return None
    release, running = str(status.get("release")), str(status.get("previous"))
    new = f"releases/{release}"
    old = status.get("old")
    # The status is in the service's directory: trust only release directories that exist.
    try:
        release_key(release)
        release_key(running)
    except ValueError:
        return write_status(data_dir, "failed", say("the interrupted update's status is damaged"))
    if status["new"] != new or not (install.root / new).is_dir():
        return write_status(data_dir, "failed", say("the interrupted update's status is damaged"))
    kept = isinstance(old, str) and old.startswith("releases/") and old.count("/") == 1
    if not kept or ".." in str(old) or not (install.root / str(old)).is_dir():
        old = None
    return _settle(
        data_dir, install, service=service, release=release, running=running, targets=(old, new)
    )


def _settle(
    data_dir: Path,
    install: Install,
    *,
    service: Service,
    release: str,
    running: str,
    targets: tuple[str | None, str],
) -> dict[str, Any]:
    """Stop the service, point ``current`` at the new release, start it; keep it or go back."""
    old, new = targets
    service.run("stop")
    install.point(new)
    if service.start_ready(service.window):
        install.prune([new, old])
        return write_status(
            data_dir,
            "updated",
            say("updated from release {running} to {release}", running=running, release=release),
            release=release,
            previous=running,
        )
    return _roll_back(
        data_dir, install, service=service, release=release, running=running, old=old, new=new
    )


def _roll_back(
    data_dir: Path,
    install: Install,
    *,
    service: Service,
    release: str,
    running: str,
    old: str | None,
    new: str,
) -> dict[str, Any]:
    service.run("stop")
    install.point(old)
    service.run("reset-failed")
    why = say(
        "release {release} did not report ready within {window} s, so the box "
        "went back to release {running}",
        release=release,
        window=f"{service.window:g}",
        running=running,
    )
    if not service.start_ready(service.back_window):
        return write_status(
            data_dir,
            "failed",
            say("{why}, which did not start either: see journalctl -u mandala", why=why),
            release=release,
            previous=running,
        )
    install.prune([old])
    shutil.rmtree(install.root / new, ignore_errors=True)
    return write_status(data_dir, "rolled-back", why, release=release, previous=running)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.box.update --data DIR --install DIR``: apply a staged update,
    or finish one a power cut interrupted."""
    parser = argparse.ArgumentParser(prog="python -m companion.box.update", description=__doc__)
    parser.add_argument("--data", type=Path, required=True, help="the data directory")
    parser.add_argument("--install", type=Path, required=True, help="the install (/opt/mandala)")
    parser.add_argument("--unit", default=UNIT, help="the service's unit")
    parser.add_argument("--window", type=float, default=WINDOW_S, help="seconds to be ready")
    args = parser.parse_args(argv)
    service = Service(unit=args.unit, window=args.window)
    try:
        install = Install(args.install)
        status = apply(args.data, install, service) or resume(args.data, install, service)
    except (OSError, ReleaseRefused, UpdateFailed) as error:
        write_status(
            args.data, "failed", say("the update failed: {error}", error=error_words(error))
        )
        print(f"mandala-update: {error}", file=sys.stderr)
        return 1
    if status is None:
        print("mandala-update: nothing to install", file=sys.stderr)
        return 0
    print(f"mandala-update: {status_words(status).english()}", file=sys.stderr)
    return 0 if status["state"] in {"updated", "refused"} else 1


if __name__ == "__main__":
    sys.exit(main())
