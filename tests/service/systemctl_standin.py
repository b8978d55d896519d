"""A stand-in for ``systemctl`` managing one ``Type=notify`` unit, for the updater's tests.

The smallest honest part of systemd the updater talks to: ``start`` runs the unit's command
(``$STANDIN_SYSTEMD/unit.json``: ``argv``, ``env`` and ``cwd``, systemd's
``WorkingDirectory=``) as a real process in its own session,
with ``NOTIFY_SOCKET`` naming a real AF_UNIX datagram socket this stand-in listens on, and,
as systemd does for ``Type=notify`` with ``NotifyAccess=main``, returns 0 once that process
(checked by the sender's credentials, ``SO_PASSCRED``) sent ``READY=1``, or 1 when it exited
first. A caller that gives up earlier kills this stand-in; the process goes on "activating".
``stop`` sends SIGTERM and waits for the exit (SIGKILL after ``TimeoutStopSec``=15 s);
``is-active`` says ``active`` (running and ready), ``activating`` or ``failed``/``inactive``;
``reset-failed`` forgets a failure. Every call is appended to ``calls.log``, every datagram to
``notify.log``, each started process's id to ``pids.log``, its output to ``service.log``.
No watchdog and no restarts: the updater never relies on them.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

STATE = Path(os.environ.get("STANDIN_SYSTEMD", "/nonexistent"))  # the tests import alive()
STOP_TIMEOUT_S = 15.0


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie nobody reaped has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in {"Z", "X"}


def main_pid() -> int | None:
    try:
        pid = int((STATE / "pid").read_text())
    except (OSError, ValueError):
        return None
    return pid if alive(pid) else None


def start() -> int:
    if main_pid() is not None and (STATE / "ready").exists():
        return 0
    unit = json.loads((STATE / "unit.json").read_text())
    address = str(STATE / "notify.sock")
    Path(address).unlink(missing_ok=True)
    (STATE / "ready").unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    sock.settimeout(0.1)
    env = {**os.environ, **unit["env"], "NOTIFY_SOCKET": address}
    env.pop("STANDIN_SYSTEMD", None)
    with (STATE / "service.log").open("ab") as log:
        process = subprocess.Popen(
            unit["argv"], env=env, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
            cwd=unit["cwd"], start_new_session=True,
        )  # fmt: skip
    (STATE / "pid").write_text(str(process.pid))
    with (STATE / "pids.log").open("a") as log:
        log.write(f"{process.pid}\n")
    (STATE / "failed").unlink(missing_ok=True)
    while True:
        try:
            data, ancillary, _flags, _address = sock.recvmsg(4096, socket.CMSG_SPACE(12))
        except TimeoutError:
            if process.poll() is not None:
                (STATE / "failed").write_text(str(process.returncode))
                return 1
            continue
        sender = next(
            (struct.unpack("iII", d[:12])[0] for level, kind, d in ancillary
             if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS),
            None,
        )  # fmt: skip
        with (STATE / "notify.log").open("a") as log:
            log.write(f"{sender}: {data.decode('utf-8', 'replace')!r}\n")
        if sender == process.pid and "READY=1" in data.decode("utf-8", "replace").split("\n"):
            (STATE / "ready").write_text(str(process.pid))
            return 0


def stop() -> int:
    pid = main_pid()
    if pid is not None:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    for name in ("pid", "ready"):
        (STATE / name).unlink(missing_ok=True)
    return 0


def is_active(quiet: bool) -> int:
    if main_pid() is not None:
        state = "active" if (STATE / "ready").exists() else "activating"
    else:
        state = "failed" if (STATE / "failed").exists() else "inactive"
    if not quiet:
        print(state)
    return 0 if state == "active" else 3


def main(argv: list[str]) -> int:
    with (STATE / "calls.log").open("a") as log:
        log.write(" ".join(argv) + "\n")
    words = [a for a in argv if not a.startswith("-")]
    if len(words) != 2 or words[1] != os.environ.get("STANDIN_UNIT", "mandala.service"):
        print(f"systemctl (stand-in): cannot do {argv!r}", file=sys.stderr)
        return 1
    command = words[0]
    if command == "start":
        return start()
    if command == "stop":
        return stop()
    if command == "is-active":
        return is_active("--quiet" in argv)
    if command == "reset-failed":
        (STATE / "failed").unlink(missing_ok=True)
        return 0
    print(f"systemctl (stand-in): unknown command {command!r}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
