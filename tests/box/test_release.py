"""Release files: made from git (what is committed only), and every refusal changes nothing.

Also the git path's tag search against a real bare repository standing in for the remote,
and ``tools/release.py``.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from companion.box import update
from companion.box.release import (
    MAGIC,
    ReleaseRefused,
    check_release,
    installed_release,
    read_header,
    release_from_git,
    unpack_release,
)
from companion.catalogue import render
from tests.conftest import tree
from tests.service.releases import REPO, commit_release, make_repo, run_git


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("repo"), "0.2.0")


@pytest.fixture(scope="module")
def good(repo: Path) -> bytes:
    return release_from_git(repo, "v0.2.0")


def rebuilt(data: bytes, header_change: dict[str, object] | None = None,
            members: dict[str, bytes] | None = None) -> bytes:  # fmt: skip
    """``data`` with header fields changed or files added, its checksum made right again."""
    header, body = read_header(data)
    if members:
        raw = io.BytesIO(gzip.decompress(body))
        out = io.BytesIO()
        with tarfile.open(fileobj=raw) as old, tarfile.open(fileobj=out, mode="w") as new:
            for info in old:
                new.addfile(info, old.extractfile(info))
            for name, content in members.items():
                info = tarfile.TarInfo(name)
                info.size = len(content)
                new.addfile(info, io.BytesIO(content))
        body = gzip.compress(out.getvalue())
    fields = {**header.to_json(), "bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}
    fields.update(header_change or {})
    return MAGIC + json.dumps(fields).encode() + b"\n" + body


def test_a_release_file_holds_the_committed_packages_and_its_version(
    repo: Path, good: bytes, tmp_path: Path
) -> None:
    (repo / "companion" / "left_lying.py").write_text("x = 1\n")  # not committed: left out
    try:
        data = release_from_git(repo, "v0.2.0")
    finally:
        (repo / "companion" / "left_lying.py").unlink()
    header = check_release(data, "0.1.0")
    assert header.release == "0.2.0"
    assert "flask>=3.0" in header.requires
    unpack_release(data, tmp_path / "r")
    assert installed_release(tmp_path / "r") == "0.2.0"
    assert (tmp_path / "r" / "companion" / "cli.py").read_bytes() == (
        REPO / "companion" / "cli.py"
    ).read_bytes()
    assert (tmp_path / "r" / "hardware" / "pins.toml").is_file()
    assert not (tmp_path / "r" / "companion" / "left_lying.py").exists()
    assert not (tmp_path / "r" / "tests").exists()
    # The unpacked directory is that release to Python (importlib.metadata reads it).
    version = subprocess.run(
        [sys.executable, "-c",
         "import importlib.metadata as m; print(m.version('mandala-companion'))"],
        env={"PYTHONPATH": str(tmp_path / "r")}, capture_output=True, text=True, check=True,
        cwd=tmp_path,
    ).stdout.strip()  # fmt: skip
    assert version == "0.2.0"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: b"PK\x03\x04" + d[4:], "not a Mandala Companion release file"),
        (
            lambda d: rebuilt(d, {"name": "other-app"}),
            "not a Mandala Companion release file (it is 'other-app')",
        ),
        (lambda d: d[:-10] + bytes(10), "the release file is damaged: its checksum does not match"),
        (lambda d: d[: len(d) // 2], "the release file is damaged: its checksum does not match"),
        (lambda d: MAGIC + b"{not json\n" + d, "the release file is damaged: its header cannot"),
        (lambda d: rebuilt(d, {"release": "0.1.0"}), "release 0.1.0 is not newer than this box's"),
        (lambda d: rebuilt(d, {"release": "0.0.9"}), "release 0.0.9 is not newer than this box's"),
        (
            lambda d: rebuilt(d, {"release": "0.3.0"}),
            "holds a file named 'mandala_companion-0.2.0.dist-info",
        ),
        (lambda d: rebuilt(d, members={"../outside.py": b"x"}), "holds a file named '../outside"),
        (lambda d: rebuilt(d, members={"tests/x.py": b"x"}), "holds a file named 'tests/x.py'"),
    ],
    ids=[
        "foreign",
        "other-name",
        "bytes-changed",
        "cut-short",
        "header",
        "equal",
        "older",
        "version-not-its-own",
        "path-outside",
        "not-a-package",
    ],
)
def test_a_foreign_damaged_or_not_newer_file_is_refused_and_nothing_is_staged(
    good: bytes, tmp_path: Path, change: object, message: str
) -> None:
    data = change(good)  # type: ignore[operator]
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "table.db").write_bytes(b"kept as it is")
    before = tree(data_dir)
    backups: list[str] = []
    with pytest.raises(ReleaseRefused) as refused:
        update.stage(data_dir, data, "0.1.0", lambda: backups.append("made") or Path("x"))
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)
    assert tree(data_dir) == before
    assert backups == []  # refused before the backup
    assert not (tmp_path / "outside.py").exists()


def test_a_release_needing_a_package_the_box_lacks_is_refused(repo: Path, tmp_path: Path) -> None:
    """An update installs no package (it works offline): such a release needs install.sh."""
    run_git(repo, "checkout", "-q", "--detach", "v0.2.0")
    try:
        pyproject = repo / "pyproject.toml"
        text = pyproject.read_text().replace(
            '"waitress>=3.0",', '"waitress>=3.0",\n    "no-such-package-here>=1.0",'
        )
        pyproject.write_text(text.replace('version = "0.2.0"', 'version = "0.5.0"'))
        run_git(repo, "commit", "-q", "-am", "release 0.5.0 needs a new package")
        data = release_from_git(repo, "HEAD")
    finally:
        run_git(repo, "checkout", "-q", "main")
    before = tree(tmp_path)
    with pytest.raises(ReleaseRefused) as refused:
        update.stage(tmp_path, data, "0.1.0", lambda: tmp_path / "backup")
    assert str(refused.value) == (
        "release 0.5.0 needs no-such-package-here, which this box does not have: install it "
        "from a checkout with systemd/install.sh"
    )
    assert tree(tmp_path) == before


def test_a_second_update_while_one_waits_is_refused(good: bytes, tmp_path: Path) -> None:
    update.stage(tmp_path, good, "0.1.0", lambda: tmp_path / "backup")
    before = tree(tmp_path)
    with pytest.raises(ReleaseRefused, match="already waiting"):
        update.stage(tmp_path, good, "0.1.0", lambda: tmp_path / "backup")
    assert tree(tmp_path) == before


def test_the_newest_release_tag_above_the_running_one_comes_from_the_remote(
    repo: Path, tmp_path: Path
) -> None:
    """A bare repository stands in for the project's remote; the box's checkout is a clone."""
    remote = tmp_path / "remote.git"
    run_git(tmp_path, "clone", "-q", "--bare", str(repo), str(remote))
    box = tmp_path / "box"
    run_git(tmp_path, "clone", "-q", str(remote), str(box))
    run_git(box, "tag", "-d", "v0.2.0")  # a checkout made before 0.2.0 was tagged
    assert update.newest_tag(box, "0.1.0") == ("v0.2.0", "0.2.0")
    assert update.newest_tag(box, "0.2.0") is None
    # A newer tag pushed to the remote, and tags that are not releases, ignored.
    commit_release(repo, "0.10.0")
    run_git(repo, "tag", "vnext")
    run_git(repo, "push", "-q", str(remote), "v0.10.0", "vnext")
    assert update.newest_tag(box, "0.2.0") == ("v0.10.0", "0.10.0")
    assert check_release(release_from_git(box, "v0.10.0"), "0.2.0").release == "0.10.0"


def test_no_remote_is_one_line_naming_git(tmp_path: Path) -> None:
    run_git(tmp_path, "init", "-q")
    with pytest.raises(ReleaseRefused) as refused:
        update.newest_tag(tmp_path, "0.1.0")
    assert str(refused.value).startswith("git fetch: ")
    assert "\n" not in str(refused.value)


def test_tools_release_writes_the_file_of_a_tag(repo: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "release.py"), "v0.2.0", "--checkout", str(repo),
         "--out", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    path = tmp_path / "mandala-companion-0.2.0.mandala-release"
    assert done.stdout.strip() == str(path)
    assert check_release(path.read_bytes(), "0.1.0").release == "0.2.0"


@pytest.mark.parametrize(
    ("change", "german"),
    [
        (
            lambda d: b"PK\x03\x04" + d[4:],
            "Das ist keine Versionsdatei von Mandala Companion (sie beginnt nicht wie eine).",
        ),
        (
            lambda d: rebuilt(d, {"name": "other-app"}),
            "Das ist keine Versionsdatei von Mandala Companion (sie ist 'other-app').",
        ),
        (
            lambda d: d[:-10] + bytes(10),
            "Die Versionsdatei ist beschädigt: ihre Prüfsumme stimmt nicht",
        ),
        (
            lambda d: rebuilt(d, {"release": "0.0.9"}),
            "Version 0.0.9 ist nicht neuer als die Version 0.1.0 dieser Box.",
        ),
        (
            lambda d: rebuilt(d, members={"tests/x.py": b"x"}),
            "Die Versionsdatei ist beschädigt: sie enthält eine Datei namens 'tests/x.py'.",
        ),
    ],
    ids=["foreign", "other-name", "bytes-changed", "older", "not-a-package"],
)
def test_a_refused_release_file_says_why_in_german_on_a_german_page(
    good: bytes, change: object, german: str
) -> None:
    with pytest.raises(ReleaseRefused) as refused:
        check_release(change(good), "0.1.0")  # type: ignore[operator]
    assert refused.value.phrase is not None
    assert render(refused.value.phrase, "de").startswith(german)
