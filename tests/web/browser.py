"""What every browser test needs: a real ``mandala serve --emulate`` and a phone in Chromium.

Browser test modules mark themselves ``pytestmark = pytest.mark.browser`` and use the
``browser`` fixture (``tests/web/conftest.py``) with :func:`serve_emulated` and :func:`phone`.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-output" / "web"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@contextmanager
def serve_emulated(data: Path, port: int = 0) -> Iterator[str]:
    """Run ``mandala serve --emulate --port PORT --data DATA`` (``port`` 0: a free one); yield
    its URL (no trailing /)."""
    data.mkdir(parents=True, exist_ok=True)
    mandala = Path(sys.executable).parent / "mandala"
    process = subprocess.Popen(
        [str(mandala), "serve", "--emulate", "--port", str(port), "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = None
        assert process.stdout is not None
        for line in process.stdout:
            found = re.search(r"open the panel at (http://127\.0\.0\.1:(\d+)/)", line)
            if found:
                url = found.group(1)
                assert found.group(2) != "0"
                break
        assert url is not None, process.stderr.read() if process.stderr else ""
        yield url.rstrip("/")
    finally:
        process.terminate()
        process.wait(timeout=15)


def create_before_serving(data: Path, body: dict[str, Any]) -> str:
    """Create a game in ``data`` through the table's own API before a server runs there
    (below the panel's checks: e.g. a card game played on the panel with a known deck);
    return its id."""
    from companion.table.table import Table

    table = Table(data, None, data / "boards")
    table.start()
    try:
        return str(table.create_game(body)["id"])
    finally:
        table.close()


@contextmanager
def chromium() -> Iterator[Any]:
    """Launch Debian's headless Chromium through Playwright."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=15_000)  # a generous hang guard: the CI machine is shared
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def phone(browser: Any, base: str, context: Any = None, size: tuple[int, int] = (360, 740)) -> Any:
    """A 360x740 page (or ``size``) that records script errors and requests that would leave
    the machine.

    The test asserts ``page.errors == []`` at its end.
    """
    viewport = {"width": size[0], "height": size[1]}
    if context is None:
        page = browser.new_page(viewport=viewport)
    else:  # a context (another phone, its own cookies) takes no viewport per page
        page = context.new_page()
        page.set_viewport_size(viewport)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def console(message: Any) -> None:  # the panel's CSP refused something a page needs
        if message.type == "error" and "Content Security Policy" in message.text:
            errors.append("CSP: " + message.text)

    page.on("console", console)

    def refuse(route: Any) -> None:
        errors.append("left the machine: " + route.request.url)
        route.abort()

    page.route(re.compile(r"^(?!" + re.escape(base) + ").*"), refuse)
    page.errors = errors
    return page


def pair_owner(base: str, data: Path) -> str:
    """Become the owner as the box's shell allows: ``mandala pair --data DATA`` prints a code
    (its last line), which goes to ``POST /api/owner/pair``; return the owner token."""
    mandala = Path(sys.executable).parent / "mandala"
    printed = subprocess.run(
        [str(mandala), "pair", "--data", str(data)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    answer = api(base, "/api/owner/pair", {"code": printed.stdout.splitlines()[-1]})
    token: str = answer["owner_token"]
    return token


def as_owner(page: Any, base: str, data: Path) -> None:
    """Pair ``page``'s phone as the owner: its browser keeps the panel's owner cookie."""
    cookie = {"name": "mandala_owner", "value": pair_owner(base, data), "url": base + "/"}
    page.context.add_cookies([{**cookie, "httpOnly": True, "sameSite": "Strict"}])


def shot(page: Any, name: str) -> None:
    """Save a full-page screenshot under ``test-output/web/``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def api(base: str, path: str, body: object = None, headers: dict[str, str] | None = None) -> Any:
    """GET (or POST ``body`` as JSON) an API path of the served companion; return the JSON."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())
