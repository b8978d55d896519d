"""run.sh and test.sh on a system that lacks what they need, and after a first run that failed.

The scripts run for real, in a copy of the checkout. ``python3`` on their PATH stands in for
Debian's python3 without python3-venv: the real interpreter with no ``ensurepip`` to import
(Debian moves it into python3-venv), whose ``-m venv`` fails as Debian's does, after making
``.venv/bin/python`` and before pip.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BASE_PYTHON = Path(sys.base_prefix) / "bin" / "python3"
HIDDEN = 'raise ModuleNotFoundError("No module named \'ensurepip\'", name="ensurepip")\n'


def readme_line(command: str) -> str:
    """The README's ``sudo apt-get install`` line right above COMMAND, as a user here types it."""
    lines = (REPO / "README.md").read_text().splitlines()
    above = [prev for prev, line in itertools.pairwise(lines) if line == command]
    assert len(above) == 1, f"README: {command} appears {len(above)} times on a line of its own"
    assert above[0].startswith("sudo apt-get install "), f"README: above {command}: {above[0]}"
    return above[0].removeprefix("sudo ") if os.geteuid() == 0 else above[0]


def checkout(tmp_path: Path, whole: bool = False) -> Path:
    """A copy of the scripts (WHOLE: and of everything ``pip install -e .`` needs)."""
    copy = tmp_path / "checkout"
    (copy / "tools").mkdir(parents=True)
    for name in ("run.sh", "test.sh", "pyproject.toml", "README.md", "tools/venv.sh"):
        shutil.copy2(REPO / name, copy / name)
    if whole:
        for package in ("companion", "firmware", "hardware"):
            shutil.copytree(
                REPO / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
            )
    return copy


def python_on_path(tmp_path: Path, venv_fails: bool) -> dict[str, str]:
    """An environment whose ``python3`` is the real one, or (VENV_FAILS) Debian's without
    python3-venv: no ensurepip to import, and ``-m venv`` makes bin/python, then fails."""
    bin_dir, lib = tmp_path / "bin", tmp_path / "lib"
    (lib / "ensurepip").mkdir(parents=True)
    (lib / "ensurepip" / "__init__.py").write_text(HIDDEN)
    bin_dir.mkdir()
    stand_in = bin_dir / "python3"
    stand_in.write_text(
        f"""#!/bin/sh
if [ "$1 $2" = "-m venv" ]; then
    {BASE_PYTHON} -m venv --without-pip "$3"
    echo "The virtual environment was not created successfully because ensurepip is not"
    echo "available.  On Debian/Ubuntu systems, you need to install the python3-venv package"
    exit 1
fi
PYTHONPATH={lib} exec {BASE_PYTHON} "$@"
"""
        if venv_fails
        else f'#!/bin/sh\nexec {BASE_PYTHON} "$@"\n'
    )
    stand_in.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    return env


def run(script: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(script), *args], env=env, capture_output=True, text=True, timeout=600, check=False
    )


def half_made_venv(copy: Path) -> None:
    """What a first run without python3-venv leaves: .venv/bin/python and no pip."""
    subprocess.run([str(BASE_PYTHON), "-m", "venv", "--without-pip", str(copy / ".venv")],
                   check=True)  # fmt: skip
    (copy / ".venv" / "left-by-the-failed-run").touch()
    assert subprocess.run([str(copy / ".venv/bin/python"), "-c", "import pip"],
                          capture_output=True, check=False).returncode != 0  # fmt: skip


@pytest.mark.parametrize("script", ["run.sh", "test.sh"])
def test_without_the_venv_module_a_script_names_its_readme_line_and_makes_nothing(
    tmp_path: Path, script: str
) -> None:
    copy = checkout(tmp_path)
    result = run(copy / script, python_on_path(tmp_path, venv_fails=True))
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"{copy / script}: missing Python's venv module; "
        f"install with: {readme_line('./' + script)}\n"
    )
    assert not (copy / ".venv").exists()


def test_the_readme_names_python3_venv_for_both_commands() -> None:
    for command in ("./run.sh", "./test.sh"):
        assert "python3-venv" in readme_line(command).split()
    assert {"chromium", "systemd", "libatomic1"} <= set(readme_line("./test.sh").split())


def test_a_half_made_venv_and_no_venv_module_still_get_the_one_line(tmp_path: Path) -> None:
    copy = checkout(tmp_path)
    half_made_venv(copy)
    result = run(copy / "test.sh", python_on_path(tmp_path, venv_fails=True))
    assert result.returncode == 1
    assert result.stderr.endswith(f"install with: {readme_line('./test.sh')}\n")
    assert result.stderr.count("\n") == 1


def test_a_venv_that_fails_half_way_is_not_left_behind(tmp_path: Path) -> None:
    # The check finds ensurepip (a real one), then making the venv fails as Debian's does.
    copy = checkout(tmp_path)
    env = python_on_path(tmp_path, venv_fails=True)
    (tmp_path / "lib" / "ensurepip" / "__init__.py").write_text("")
    result = run(copy / "run.sh", env)
    assert result.returncode == 1
    assert "ensurepip is not" in result.stdout
    assert result.stderr == (
        f"{copy / 'run.sh'}: could not make the virtual environment .venv (see above); "
        "nothing was left behind\n"
    )
    assert not (copy / ".venv").exists()


@pytest.mark.slow
def test_once_python3_venv_is_installed_run_sh_makes_a_half_made_venv_again(
    tmp_path: Path,
) -> None:
    copy = checkout(tmp_path, whole=True)
    half_made_venv(copy)
    result = run(copy / "run.sh", python_on_path(tmp_path, venv_fails=False), "--help")
    assert result.returncode == 0, result.stderr
    assert "usage: mandala serve" in result.stdout
    assert not (copy / ".venv" / "left-by-the-failed-run").exists()
    assert subprocess.run([str(copy / ".venv/bin/python"), "-c", "import pip"],
                          check=False).returncode == 0  # fmt: skip
