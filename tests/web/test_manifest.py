"""The panel on a phone's home screen: every page links a web app manifest whose icons exist."""

from __future__ import annotations

import re
import struct

from flask.testing import FlaskClient

from tests.web.conftest import NEW_RINGS_GAME


def png_size(body: bytes) -> tuple[int, int]:
    """Return a PNG's width and height from its IHDR chunk."""
    assert body[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_every_page_links_the_manifest_the_icons_and_both_colour_schemes(
    client: FlaskClient,
) -> None:
    game = client.post("/api/games", json=NEW_RINGS_GAME).get_json()
    for path in ("/", f"/games/{game['id']}", "/calibrate", "/boards/new", "/cards/sheet"):
        page = client.get(path)
        assert page.status_code == 200, path
        html = page.get_data(as_text=True)
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, path
        assert re.search(r'<link rel="icon" href="/static/icons/icon\.svg"', html), path
        assert '<link rel="apple-touch-icon" href="/static/icons/icon-180.png">' in html, path
        assert '<meta name="color-scheme" content="light dark">' in html, path


def test_the_manifest_starts_the_panel_standalone_with_icons_a_phone_can_fetch(
    client: FlaskClient,
) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    manifest = answer.get_json(force=True)
    assert manifest["name"] == "Mandala Companion"
    assert manifest["short_name"] == "Mandala"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        body = client.get(icon["src"])
        assert body.status_code == 200, icon["src"]
        assert body.mimetype == icon["type"], icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(body.get_data())
            assert icon["sizes"] == f"{width}x{height}", icon["src"]
            sizes.add(width)
        else:
            assert icon["sizes"] == "any"
            assert body.get_data(as_text=True).lstrip().startswith("<svg")
    assert {192, 512} <= sizes  # what Android asks for to install a web app


def test_the_iphone_home_screen_icon_is_a_180_px_png(client: FlaskClient) -> None:
    body = client.get("/static/icons/icon-180.png")
    assert body.status_code == 200
    assert png_size(body.get_data()) == (180, 180)
