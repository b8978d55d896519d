"""The damaged-database banner: on the home page, naming the kept copy, until the owner
dismisses it (and across restarts until then)."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from companion.table.store import DB_NAME
from companion.table.table import Table
from companion.web import create_app
from tests.web.conftest import assert_error, pair_owner

JUNK = b"these are not the pages you are looking for" * 200
DISMISS = (
    "only the box's owner can dismiss the damaged-database warning; to become the owner, "
    "open Owner on the home page and press the box's done button when it asks, or enter the "
    "code that `mandala pair` prints on the box"
)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data directory whose games database is damaged (junk where SQLite's pages go)."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / DB_NAME).write_bytes(JUNK)
    return folder


def test_the_home_page_names_the_kept_copy_until_the_owner_dismisses_it(data: Path) -> None:
    with Table(data) as table:
        backup = next(data.glob(f"{DB_NAME}.damaged-*"))
        client = create_app({}, table=table).test_client()
        page = html.unescape(client.get("/").get_data(as_text=True))
        assert "The games database was damaged" in page
        assert str(backup) in page and "file is not a database" in page
        listed = client.get("/api/damaged").get_json()["damaged"]
        assert [(d["backup"], d["reason"]) for d in listed] == [
            (str(backup), "file is not a database")
        ]
        assert_error(client.delete("/api/damaged"), 403, "owner_required", DISMISS)
    with Table(data) as table:  # a restart does not hide it
        client = create_app({}, table=table).test_client()
        assert str(backup) in html.unescape(client.get("/").get_data(as_text=True))
        pair_owner(client, data)
        assert client.delete("/api/damaged").get_json() == {"damaged": []}
        assert "The games database was damaged" not in client.get("/").get_data(as_text=True)
    with Table(data) as table:  # dismissed for good; the kept copy stays on disk
        client = create_app({}, table=table).test_client()
        assert client.get("/api/damaged").get_json() == {"damaged": []}
        assert "The games database was damaged" not in client.get("/").get_data(as_text=True)
    assert backup.read_bytes() == JUNK


def test_a_german_phone_reads_the_banner_in_german_with_the_kept_copy_named(data: Path) -> None:
    with Table(data) as table:
        backup = next(data.glob(f"{DB_NAME}.damaged-*"))
        client = create_app({}, table=table).test_client()
        page = client.get("/", headers={"Accept-Language": "de-DE,de"}).get_data(as_text=True)
        assert "Die Spieldatenbank war beschädigt" in page
        assert f'<code class="path">{html.escape(str(backup))}</code>' in page  # markup kept
        assert "(file is not a database)" in page  # SQLite's own words, as they are
        assert "Nur der Besitzer der Box kann diese Warnung ausblenden." in html.unescape(page)
        assert "The games database was damaged" not in page


def test_a_sound_database_shows_no_banner(client: object) -> None:
    from flask.testing import FlaskClient

    assert isinstance(client, FlaskClient)
    assert client.get("/api/damaged").get_json() == {"damaged": []}
    assert "The games database was damaged" not in client.get("/").get_data(as_text=True)
