"""An update in a temporary install: a good release kept, broken ones rolled back.

The install is the real layout (``releases/<release>/`` unpacked from real release files made
from git tags, a ``current`` symlink), the service the real ``mandala serve --emulate`` of the
release ``current`` points to (``PYTHONPATH``, as the unit sets it), and the updater the real
``python -m companion.box.update`` as ``mandala-update.service`` runs it. systemd is played by
``systemctl_standin.py`` on ``PATH``: it runs the unit's command with a real ``NOTIFY_SOCKET``
(an AF_UNIX datagram socket it listens on) and ``start`` succeeds only once that very process
sent ``READY=1``, as ``systemctl start`` of a ``Type=notify`` unit does.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.box import update
from companion.box.release import release_from_git, unpack_release
from companion.phrases import say
from companion.table import backup
from tests.service.releases import commit_release, make_repo
from tests.service.systemctl_standin import alive

HERE = Path(__file__).resolve().parent
STANDIN = HERE / "systemctl_standin.py"
REPO = HERE.parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def release_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Release files made from tags: 0.1.0 (this checkout), 0.2.0 good, 0.3.0 exits,
    0.4.0 hangs."""
    repo = make_repo(tmp_path_factory.mktemp("repo"), "0.2.0")
    tags = ["v0.1.0", "v0.2.0"]
    tags.append(commit_release(repo, "0.3.0", "exits"))
    tags.append(commit_release(repo, "0.4.0", "hangs"))
    return {tag[1:]: release_from_git(repo, tag) for tag in tags}


def free_port() -> int:
    """A free port below the kernel's ephemeral range, as a service's fixed port is.

    The service is stopped and started on it several times; a port from the ephemeral range
    could be taken meanwhile as the local end of any connection on the machine.
    """
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    while True:
        port = random.randrange(max(1024, low - 12000), low)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


class Box:
    """A temporary install with release 0.1.0 running under the stand-in systemd."""

    def __init__(self, base: Path, files: dict[str, bytes]) -> None:
        self.files = files
        self.install = update.Install(base / "opt" / "mandala")
        self.data = base / "data"
        self.state = base / "systemd"
        self.state.mkdir()
        tools = base / "bin"
        tools.mkdir()
        script = tools / "systemctl"
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STANDIN}" "$@"\n')
        script.chmod(0o755)
        self.env = {
            **os.environ,
            "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
            "STANDIN_SYSTEMD": str(self.state),
        }
        self.port = free_port()
        unit = {
            "argv": [sys.executable, "-m", "companion.cli", "serve", "--emulate",
                     "--host", "127.0.0.1", "--port", str(self.port), "--data", str(self.data)],
            "env": {"PYTHONPATH": str(self.install.current)},
            "cwd": str(self.state),  # WorkingDirectory=: never a checkout (python -m's path[0])
        }  # fmt: skip
        (self.state / "unit.json").write_text(json.dumps(unit))
        unpack_release(files["0.1.0"], self.install.releases / "0.1.0")
        self.install.point("releases/0.1.0")
        assert self.systemctl("start", "mandala.service").returncode == 0, self.log()

    def systemctl(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["systemctl", *args], check=False, env=self.env, capture_output=True, text=True,
            cwd=self.state, timeout=120,
        )  # fmt: skip

    def log(self) -> str:
        path = self.state / "service.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def calls(self) -> list[str]:
        return (self.state / "calls.log").read_text().splitlines()

    def pids(self) -> list[int]:
        return [int(line) for line in (self.state / "pids.log").read_text().split()]

    def release(self) -> str:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", "/api/box")
            answer: dict[str, Any] = json.loads(connection.getresponse().read())
        finally:
            connection.close()
        return str(answer["release"])

    def stage(self, release: str) -> None:
        update.stage(
            self.data, self.files[release], "0.1.0", lambda: backup.keep_before_update(self.data)
        )

    def updater(self, window: float = 60.0) -> subprocess.CompletedProcess[str]:
        """Run the updater as mandala-update.service does (the stand-in systemctl on PATH)."""
        return subprocess.run(
            [sys.executable, "-m", "companion.box.update", "--data", str(self.data),
             "--install", str(self.install.root), "--window", str(window)],
            check=False, env=self.env, capture_output=True, text=True, cwd=REPO, timeout=300,
        )  # fmt: skip

    def releases(self) -> list[str]:
        return sorted(p.name for p in self.install.releases.iterdir())


@pytest.fixture
def box(tmp_path: Path, release_files: dict[str, bytes]) -> Iterator[Box]:
    made = Box(tmp_path, release_files)
    yield made
    made.systemctl("stop", "mandala.service")


def test_a_good_release_is_installed_beside_the_old_started_and_kept(box: Box) -> None:
    assert box.release() == "0.1.0"
    box.stage("0.2.0")
    assert update.read_status(box.data)["state"] == "waiting"  # type: ignore[index]
    done = box.updater()
    assert done.returncode == 0, (done.stderr, box.log())
    assert box.release() == "0.2.0"
    assert os.readlink(box.install.current) == "releases/0.2.0"
    assert box.releases() == ["0.1.0", "0.2.0"]  # the previous one kept beside it
    status = update.read_status(box.data)
    assert status is not None
    assert status["state"] == "updated"
    assert update.status_words(status).english() == "updated from release 0.1.0 to 0.2.0"
    # A backup first; the staged file and the request are gone.
    kept = [k.name for k in backup.kept_backups(box.data)]
    assert len([name for name in kept if name.startswith("before-update-")]) == 1, kept
    assert sorted(p.name for p in (box.data / "updates").iterdir()) == ["status.json"]
    # The old process was stopped before the symlink changed; the new one is another.
    first, second = box.pids()
    assert not alive(first)
    assert alive(second)
    assert box.calls()[-3:] == ["stop mandala.service", "start mandala.service",
                                "is-active --quiet mandala.service"]  # fmt: skip


@pytest.mark.parametrize(("release", "window"), [("0.3.0", 60.0), ("0.4.0", 3.0)])
def test_a_release_that_never_reports_ready_is_rolled_back_to_the_previous(
    box: Box, release: str, window: float
) -> None:
    """0.3.0 exits before READY=1 (start fails at once); 0.4.0 runs but never says ready
    (the window ends)."""
    box.stage(release)
    done = box.updater(window)
    assert done.returncode == 1
    assert "went back to release 0.1.0" in done.stderr
    assert box.release() == "0.1.0"
    assert os.readlink(box.install.current) == "releases/0.1.0"
    assert box.releases() == ["0.1.0"]  # the broken one removed
    status = update.read_status(box.data)
    assert status is not None
    assert status["state"] == "rolled-back"
    assert update.status_words(status).english() == (
        f"release {release} did not report ready within {window:g} s, so the box went back "
        "to release 0.1.0"
    )
    *broken, back = box.pids()
    assert len(broken) == 2  # 0.1.0 at first, then the broken release
    assert not any(alive(pid) for pid in broken)
    assert alive(back)
    assert box.calls()[-4:] == [
        "stop mandala.service",
        "reset-failed mandala.service",
        "start mandala.service",
        "is-active --quiet mandala.service",
    ]
    if release == "0.3.0":
        assert "broken on purpose" in box.log()


def test_the_updater_with_nothing_staged_changes_nothing(box: Box) -> None:
    done = box.updater()
    assert done.returncode == 0
    assert "nothing to install" in done.stderr
    assert box.calls() == ["start mandala.service"]
    assert box.release() == "0.1.0"


@pytest.mark.parametrize(("release", "state"), [("0.2.0", "updated"), ("0.3.0", "rolled-back")])
def test_an_update_a_power_cut_interrupted_is_finished_at_the_next_boot(
    box: Box, release: str, state: str
) -> None:
    """The power went after the updater pointed ``current`` at the new release and before
    it saw it ready: the state it left is rebuilt here, then the updater runs as it does at
    boot. A good release is kept; one that exits is replaced by the previous again."""
    box.stage(release)
    request = update.take_request(box.data)  # the updater took the request,
    assert request is not None
    staged = box.data / "updates" / request["file"]
    unpack_release(staged.read_bytes(), box.install.releases / release)
    staged.unlink()
    update.write_status(
        box.data, "installing", say("installing release {release}", release=release),
        release=release,
        previous="0.1.0", old="releases/0.1.0", new=f"releases/{release}",
    )  # fmt: skip
    assert box.systemctl("stop", "mandala.service").returncode == 0
    box.install.point(f"releases/{release}")  # ...switched, and the power went.
    done = box.updater()
    status = update.read_status(box.data)
    assert status is not None
    assert status["state"] == state, (done.stderr, box.log())
    if state == "updated":
        assert box.release() == release
        assert box.releases() == ["0.1.0", release]
    else:
        assert box.release() == "0.1.0"
        assert os.readlink(box.install.current) == "releases/0.1.0"
        assert box.releases() == ["0.1.0"]


def test_a_damaged_interrupted_status_touches_nothing_outside_the_releases(box: Box) -> None:
    update.write_status(
        box.data, "installing", say("installing release {release}", release="../../x"),
        release="../../x", previous="0.1.0",
        old="../../data", new="../../data",
    )  # fmt: skip
    done = box.updater()
    assert done.returncode == 1
    assert update.read_status(box.data)["state"] == "failed"  # type: ignore[index]
    assert box.data.is_dir()
    assert os.readlink(box.install.current) == "releases/0.1.0"
    assert box.calls() == ["start mandala.service"]
