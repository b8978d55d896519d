"""Release trees for the update tests: a real git repository of this checkout's packages.

:func:`make_repo` copies the files a release carries (``pyproject.toml``, ``companion/``,
``firmware/``, ``hardware/`` as they are in this working tree, untracked new files included,
ignored ones not) into a new git repository and tags it ``v0.1.0``; :func:`commit_release`
commits a change and tags the next release: ``good`` (only the version changes), ``exits``
(the command exits 1 before it is ready) or ``hangs`` (it never says ready).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CARRIED = ("pyproject.toml", "companion", "firmware", "hardware")

BROKEN = {
    "exits": (
        '"""A broken release: it exits before it is ready."""\n'
        "import sys\n\n\n"
        "def main(argv=None):\n"
        '    print("mandala: broken on purpose", file=sys.stderr)\n'
        "    return 1\n\n\n"
        'if __name__ == "__main__":\n'
        "    sys.exit(main())\n"
    ),
    "hangs": (
        '"""A broken release: it runs but never tells systemd it is ready."""\n'
        "import sys\nimport time\n\n\n"
        "def main(argv=None):\n"
        "    time.sleep(3600)\n"
        "    return 0\n\n\n"
        'if __name__ == "__main__":\n'
        "    sys.exit(main())\n"
    ),
}


def run_git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout


def make_repo(path: Path, *good: str) -> Path:
    """A git repository at ``path`` holding this checkout's release files, tagged v0.1.0,
    and a good release (tagged) for each version in ``good``."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-co", "--exclude-standard", "--", *CARRIED],
        capture_output=True, text=True, check=True,
    ).stdout.split("\n")  # fmt: skip
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            target = path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    run_git(path, "init", "-q", "-b", "main")
    set_version(path, "0.1.0")
    run_git(path, "add", "-A")
    run_git(path, "commit", "-q", "-m", "release 0.1.0")
    run_git(path, "tag", "v0.1.0")
    for version in good:
        commit_release(path, version)
    return path


def set_version(repo: Path, version: str) -> None:
    pyproject = repo / "pyproject.toml"
    text = re.sub(r'(?m)^version = ".*"$', f'version = "{version}"', pyproject.read_text())
    pyproject.write_text(text)


def commit_release(repo: Path, version: str, kind: str = "good") -> str:
    """Commit release ``version`` of ``kind`` on top of v0.1.0 and tag it; return the tag."""
    run_git(repo, "checkout", "-q", "--detach", "v0.1.0")
    set_version(repo, version)
    if kind != "good":
        (repo / "companion" / "cli.py").write_text(BROKEN[kind])
    run_git(repo, "commit", "-q", "-am", f"release {version} ({kind})")
    run_git(repo, "tag", f"v{version}")
    run_git(repo, "checkout", "-q", "main")
    return f"v{version}"
