"""The benchmarks' Pi Zero 2 stand-in (``bench/zero2.py``): a child joins a cgroup limited to
10% of one core, or the reason it could not is said (and the second column left out)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import zero2  # noqa: E402

SHOW = "print(open('/proc/self/cgroup').read())"


def test_a_child_on_the_stand_in_runs_in_a_cgroup_of_one_core_at_ten_percent() -> None:
    done, reason = zero2.run([sys.executable, "-c", SHOW], stdout=subprocess.PIPE)
    if reason:
        assert done.returncode == -1 and "cgroup" in reason
        return
    groups = done.stdout.decode()
    assert done.returncode == 0 and "mandala-zero2-" in groups


def test_twice_prints_both_columns_or_says_why_the_second_is_missing(tmp_path: Path) -> None:
    script = tmp_path / "bench_x.py"
    script.write_text(
        f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); import zero2\n"
        "zero2.twice(lambda: print('figure', 'zero2' if zero2.on_stand_in() else 'host'))\n"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert lines[:2] == ["== this machine (unconstrained)", "figure host"]
    assert lines[2].startswith("== Pi Zero 2 stand-in (one core, cpu.max 10000 100000)")
    assert lines[3] == "figure zero2" or lines[3].startswith("   not measured: ")


def test_leave_takes_a_process_on_the_stand_in_out_of_its_cgroup() -> None:
    # What stands in for the phones leaves the box's tenth of a core (bench/phones.py).
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); import zero2\n"
        "before = open('/proc/self/cgroup').read()\n"
        "reason = zero2.leave()\n"
        "print(repr(reason), 'mandala-zero2-' in before, 'mandala-zero2-' in "
        "open('/proc/self/cgroup').read())\n"
    )
    env = {**os.environ, zero2.CHILD: "zero2"}
    done, reason = zero2.run([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env)
    if reason:
        assert done.returncode == -1 and "cgroup" in reason
        return
    assert done.returncode == 0
    assert done.stdout.decode().split() == ["''", "True", "False"]


def test_leave_is_nothing_off_the_stand_in() -> None:
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); import zero2\n"
        "before = open('/proc/self/cgroup').read()\n"
        "print(repr(zero2.leave()), before == open('/proc/self/cgroup').read())\n"
    )
    env = {key: value for key, value in os.environ.items() if key != zero2.CHILD}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, check=True)
    assert done.stdout.decode().split() == ["''", "True"]
