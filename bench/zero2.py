"""The Pi Zero 2 stand-in: one core limited to 10% by a cgroup, for the benchmarks' second column.

A benchmark that prints its figures twice calls :func:`twice` from its ``main``::

    if __name__ == "__main__":
        zero2.twice(main)

Run plainly, the script runs itself twice as child processes: once as it is ("this machine"),
then inside a cgroup that allows one core (``cpuset``) and 10 ms of CPU every 100 ms (cgroup v2
``cpu.max`` ``10000 100000``, or the same quota through cgroup v1's ``cpu.cfs_quota_us`` where
the cpu controller is bound to v1). Each child prints a heading and its own figures. When the
cgroup cannot be made (not root, no cgroup file system), the second run is left out and the
reason is printed. ``--only host`` or ``--only zero2`` runs one of the two.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

QUOTA_US, PERIOD_US = 10_000, 100_000
CHILD = "MANDALA_BENCH_CHILD"
ROOTS = (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified"))


def _v2_root() -> Path | None:
    for root in ROOTS:
        controllers = root / "cgroup.controllers"
        if controllers.exists() and "cpu" in controllers.read_text().split():
            return root
    return None


def make() -> tuple[list[Path], str]:
    """Make the stand-in's cgroup(s); answer the ``cgroup.procs`` files to join, or a reason."""
    name = f"mandala-zero2-{uuid.uuid4().hex[:8]}"
    try:
        root = _v2_root()
        if root is not None:
            (root / "cgroup.subtree_control").write_text("+cpu +cpuset")
            group = root / name
            group.mkdir()
            (group / "cpu.max").write_text(f"{QUOTA_US} {PERIOD_US}")
            (group / "cpuset.cpus").write_text("0")
            return [group / "cgroup.procs"], ""
        cpu, cpuset = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup/cpuset")
        if not (cpu / "cpu.cfs_quota_us").exists():
            return [], "no cgroup cpu controller on this machine"
        (cpu / name).mkdir()
        (cpu / name / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (cpu / name / "cpu.cfs_quota_us").write_text(str(QUOTA_US))
        procs = [cpu / name / "cgroup.procs"]
        if (cpuset / "cpuset.cpus").exists():
            (cpuset / name).mkdir()
            (cpuset / name / "cpuset.cpus").write_text("0")
            (cpuset / name / "cpuset.mems").write_text((cpuset / "cpuset.mems").read_text())
            procs.append(cpuset / name / "cgroup.procs")
        return procs, ""
    except OSError as error:
        return [], f"the cgroup could not be made ({error.strerror or error})"


def remove(procs: list[Path]) -> None:
    """Remove the stand-in's cgroups once their processes have ended."""
    for path in procs:
        with contextlib.suppress(OSError):
            path.parent.rmdir()


def run(command: list[str], **kwargs: object) -> tuple[subprocess.CompletedProcess[bytes], str]:
    """Run ``command`` on the stand-in; answer its result, or (when impossible) a reason."""
    procs, reason = make()
    if not procs:
        return subprocess.CompletedProcess(command, -1), reason

    def join() -> None:
        for path in procs:
            path.write_text(str(os.getpid()))

    try:
        return subprocess.run(command, preexec_fn=join, check=False, **kwargs), ""  # type: ignore[call-overload]
    finally:
        remove(procs)


def twice(main: Callable[[], None]) -> None:
    """Run ``main`` in a child here, then in a child on the stand-in (see the module text)."""
    if os.environ.get(CHILD):
        main()
        return
    argv = sys.argv[1:]
    only = ""
    if "--only" in argv and argv.index("--only") + 1 < len(argv):
        at = argv.index("--only")
        if argv[at + 1] in ("host", "zero2"):
            only = argv[at + 1]
            del argv[at : at + 2]
    command = [sys.executable, sys.argv[0], *argv]
    failed = 0
    if only != "zero2":
        print("== this machine (unconstrained)", flush=True)
        failed |= subprocess.run(command, env={**os.environ, CHILD: "host"}, check=False).returncode
    if only != "host":
        print(f"== Pi Zero 2 stand-in (one core, cpu.max {QUOTA_US} {PERIOD_US})", flush=True)
        done, reason = run(command, env={**os.environ, CHILD: "zero2"})
        if reason:
            print(f"   not measured: {reason}", flush=True)
        else:
            failed |= done.returncode
    raise SystemExit(1 if failed else 0)


def on_stand_in() -> bool:
    """True in the child that runs on the stand-in (e.g. to scale a deadline by ten)."""
    return os.environ.get(CHILD) == "zero2"


def leave() -> str:
    """Move this process out of the stand-in's cgroup(s), back to the root ones (a no-op off
    the stand-in): for what stands in for other devices, such as the phones on the Wi-Fi,
    which must not spend the box's tenth of a core. Answers why it could not, or ""."""
    if not on_stand_in():
        return ""
    root = _v2_root()
    roots = (
        [root] if root is not None else [Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup/cpuset")]
    )
    try:
        for folder in roots:
            (folder / "cgroup.procs").write_text(str(os.getpid()))
    except OSError as error:
        return f"it stays on the stand-in ({error.strerror or error})"
    return ""
