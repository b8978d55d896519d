"""``/api/box/update``: a newer release staged from the panel, owner only, refusals change nothing.

What the updater does with a staged release is ``tests/service/test_update.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.box import update
from companion.box.release import release_from_git
from companion.doctor.panel import PanelDoctor
from companion.phrases import say
from companion.table import backup
from companion.table.owner import HOW_TO
from companion.table.table import Table
from companion.web import create_app
from tests.conftest import tree
from tests.phrase_json import english
from tests.service.releases import make_repo, run_git
from tests.web.conftest import assert_error, pair_owner

OCTETS = {"Content-Type": "application/octet-stream"}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("repo"), "0.2.0")


@pytest.fixture(scope="module")
def files(repo: Path) -> dict[str, bytes]:
    return {tag: release_from_git(repo, f"v{tag}") for tag in ("0.1.0", "0.2.0")}


def make_app(table: Table, install: Path | None) -> Flask:
    config = {"UPDATE_INSTALL": install}
    return create_app(config, table=table, diagnostics=PanelDoctor())


@pytest.fixture
def box(table: Table, tmp_path: Path) -> FlaskClient:
    """The panel of a box with an updater installed (``MANDALA_INSTALL``)."""
    return make_app(table, tmp_path / "opt").test_client()


@pytest.fixture
def laptop(table: Table) -> Iterator[FlaskClient]:
    """The panel of ``mandala serve`` on a laptop: no updater."""
    yield make_app(table, None).test_client()


def staged_files(data_dir: Path) -> list[str]:
    folder = data_dir / update.UPDATES_DIR
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_every_update_action_is_the_owners_alone(
    box: FlaskClient, data_dir: Path, files: dict[str, bytes]
) -> None:
    before = tree(data_dir)
    message = f"only the box's owner can install a release; {HOW_TO}"
    answer = box.post("/api/box/update", data=files["0.2.0"], headers=OCTETS)
    assert_error(answer, 403, "owner_required", message)
    assert_error(box.post("/api/box/update/git", json={}), 403, "owner_required", message)
    assert tree(data_dir) == before
    # Anyone sees the release and the last update's state.
    seen = box.get("/api/box/update").get_json()
    assert seen == {"release": backup.release(), "status": None, "pending": False,
                    "from_file": True, "from_git": False}  # fmt: skip


def test_the_owners_release_file_is_staged_after_a_backup(
    box: FlaskClient, data_dir: Path, files: dict[str, bytes]
) -> None:
    pair_owner(box, data_dir)
    answer = box.post("/api/box/update", data=files["0.2.0"], headers=OCTETS)
    assert answer.status_code == 202, answer.get_data(as_text=True)
    status = answer.get_json()["status"]
    assert status["state"] == "waiting"
    assert status["release"] == "0.2.0"
    assert status["backup"].startswith("before-update-")
    assert (data_dir / "backups" / status["backup"]).is_file()
    assert staged_files(data_dir) == ["0.2.0.mandala-release", "request.json", "status.json"]
    assert (data_dir / "updates" / "0.2.0.mandala-release").read_bytes() == files["0.2.0"]
    seen = box.get("/api/box/update").get_json()
    assert seen["pending"] is True
    assert english(seen["status"]["phrase"]) == (
        "release 0.2.0 is waiting to be installed; a backup was made first"
    )
    # The staged file is not part of a backup.
    assert "updates/" not in backup.make_backup(data_dir).decode("latin-1").split("\n", 2)[1]
    before = tree(data_dir)
    again = box.post("/api/box/update", data=files["0.2.0"], headers=OCTETS)
    assert_error(again, 409, "conflict", "an update is already waiting to be installed")
    assert tree(data_dir) == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (lambda f: f["0.1.0"], "release 0.1.0 is not newer than this box's release 0.1.0"),
        (lambda f: f["0.2.0"][:-100], "the release file is damaged: its checksum does not match"),
        (lambda f: b"MANDALA-BACKUP 1\n{}\n", "not a Mandala Companion release file"),
        (lambda f: b"", "request body: send the release file as the body"),
        # A form type, as a page of another site can send without asking.
        (lambda f: f["0.2.0"][:1000], "application/json"),
    ],
    ids=["not-newer", "damaged", "foreign", "empty", "as-text-plain"],
)
def test_a_refused_file_is_400_in_one_line_and_nothing_changes(
    box: FlaskClient, data_dir: Path, files: dict[str, bytes], body: object, message: str
) -> None:
    pair_owner(box, data_dir)
    before = tree(data_dir)
    kind = "text/plain" if message == "application/json" else OCTETS["Content-Type"]
    data = body(files)  # type: ignore[operator]
    answer = box.post("/api/box/update", data=data, headers={"Content-Type": kind})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "malformed"
    assert message in answer.get_json()["error"]["message"]
    assert tree(data_dir) == before


def test_without_an_updater_the_panel_says_to_use_git(
    laptop: FlaskClient, data_dir: Path, files: dict[str, bytes]
) -> None:
    pair_owner(laptop, data_dir)
    before = tree(data_dir)
    answer = laptop.post("/api/box/update", data=files["0.2.0"], headers=OCTETS)
    assert answer.status_code == 409
    assert (
        "not installed as a service (systemd/install.sh)" in answer.get_json()["error"]["message"]
    )
    assert tree(data_dir) == before
    assert laptop.get("/api/box/update").get_json()["from_file"] is False


def test_the_newest_tag_of_the_boxs_checkout_is_staged(
    box: FlaskClient, data_dir: Path, repo: Path, tmp_path: Path
) -> None:
    """The remote is a real bare repository; the box's checkout a clone of it."""
    pair_owner(box, data_dir)
    remote = tmp_path / "remote.git"
    run_git(tmp_path, "clone", "-q", "--bare", str(repo), str(remote))
    checkout = data_dir / "updates" / "checkout"
    run_git(tmp_path, "clone", "-q", str(remote), str(checkout))
    assert box.get("/api/box/update").get_json()["from_git"] is True
    answer = box.post("/api/box/update/git", json={})
    assert answer.status_code == 202, answer.get_data(as_text=True)
    assert answer.get_json()["status"]["release"] == "0.2.0"
    assert (data_dir / "updates" / "0.2.0.mandala-release").is_file()


def test_no_newer_tag_is_said_and_nothing_is_staged(
    box: FlaskClient, data_dir: Path, repo: Path, tmp_path: Path
) -> None:
    pair_owner(box, data_dir)
    remote = tmp_path / "remote.git"
    run_git(tmp_path, "clone", "-q", "--bare", str(repo), str(remote))
    run_git(remote, "tag", "-d", "v0.2.0")
    checkout = data_dir / "updates" / "checkout"
    run_git(tmp_path, "clone", "-q", str(remote), str(checkout))
    answer = box.post("/api/box/update/git", json={})
    assert answer.status_code == 200
    assert answer.get_json() == {
        "status": None,
        "text": f"release {backup.release()} is the newest: the checkout has no newer v* tag",
    }
    assert staged_files(data_dir) == ["checkout"]


def test_a_box_without_a_checkout_says_to_upload_a_file(box: FlaskClient, data_dir: Path) -> None:
    pair_owner(box, data_dir)
    answer = box.post("/api/box/update/git", json={})
    assert answer.status_code == 409
    assert "upload a release file instead" in answer.get_json()["error"]["message"]


def test_the_status_carries_its_words_once_and_an_earlier_releases_english_still_shows(
    box: FlaskClient, data_dir: Path
) -> None:
    update.write_status(data_dir, "updated", say("updated from release {running} to {release}",
                        running="0.1.0", release="0.2.0"))  # fmt: skip
    status = box.get("/api/box/update").get_json()["status"]
    assert "text" not in status
    assert english(status["phrase"]) == "updated from release 0.1.0 to 0.2.0"
    # An updater of an earlier release wrote its English only: it is said as it is.
    written = {"state": "updated", "text": "updated from release 0.0.9 to 0.1.0", "at": "x"}
    (data_dir / update.UPDATES_DIR / update.STATUS).write_text(json.dumps(written))
    status = box.get("/api/box/update").get_json()["status"]
    assert "text" not in status
    assert english(status["phrase"]) == "updated from release 0.0.9 to 0.1.0"
