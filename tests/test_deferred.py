"""What ``mandala serve`` leaves unloaded (``companion.deferred``): OpenSSL stays out of a
served box, the hashes it takes are the same, and Werkzeug's server still loads when used.

The server is a real ``mandala serve --emulate`` process; the import checks run in fresh
interpreters, since this test process has long imported Flask and ``hashlib``.
"""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.web.i18n import scripts_catalogue
from tests.service.test_sigterm import Service

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Service]:
    service = Service(tmp_path / "data", tmp_path / "frames.jsonl", dict(os.environ))
    try:
        yield service
    finally:
        service.kill()


def get(port: int, path: str, language: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers={"Accept-Language": language})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_a_serving_box_never_loads_openssl_and_its_hashes_are_the_same(
    server: Service,
) -> None:
    assert server.request("GET", "/api/games")[0] == 200
    status, home = get(server.port, "/", "de")
    assert status == 200
    # The page's catalogue version is a SHA-256 the server took with Python's own hashes;
    # this process took the same one with OpenSSL's.
    assert re.findall(r"/catalogue/de\.js\?v=([0-9a-f]+)", home) == [scripts_catalogue("de")[1]]
    libraries = Path(f"/proc/{server.process.pid}/maps").read_text()
    assert "libssl" not in libraries
    assert "libcrypto" not in libraries


def child(code: str) -> str:
    """What a fresh interpreter running ``code`` prints."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=False,  # the error, not just the status, when it fails
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_werkzeugs_server_is_loaded_the_first_time_it_is_used() -> None:
    said = child(
        "import sys\n"
        "from companion.deferred import lighter_imports\n"
        "print(lighter_imports())\n"
        "import flask, werkzeug.serving\n"
        "print('ssl' in sys.modules, '_hashlib' in sys.modules and sys.modules['_hashlib'])\n"
        "print(werkzeug.serving.is_running_from_reloader())\n"
        "from werkzeug.serving import make_server, run_simple\n"
        "real = sys.modules['werkzeug.serving']\n"
        "print(type(real).__name__, make_server is real.make_server, 'ssl' in sys.modules)\n"
    )
    assert said.splitlines() == [
        "(True, True)",
        "False None",
        "False",
        "module True True",
    ]


def test_nothing_is_changed_once_the_libraries_are_loaded() -> None:
    said = child(
        "import sys, hashlib, werkzeug\n"
        "from companion.deferred import lighter_imports\n"
        "print(lighter_imports(), type(sys.modules['_hashlib']).__name__)\n"
        "print(hashlib.sha256(b'abc').hexdigest() == hashlib.new('sha256', b'abc').hexdigest())\n"
    )
    assert said.splitlines() == ["(False, False) module", "True"]


def test_the_builtin_hashes_answer_as_openssls_do() -> None:
    import hashlib
    import hmac

    said = child(
        "from companion.deferred import builtin_hashes\n"
        "assert builtin_hashes()\n"
        "import hashlib, hmac, secrets\n"
        "print(hashlib.sha256(b'mandala' * 1000).hexdigest())\n"
        "print(hmac.new(b'key', b'seat', 'sha256').hexdigest())\n"
        "print(hmac.compare_digest('ab', 'ab'), len(secrets.token_urlsafe(16)) > 0)\n"
    )
    assert said.splitlines() == [
        hashlib.sha256(b"mandala" * 1000).hexdigest(),
        hmac.new(b"key", b"seat", "sha256").hexdigest(),
        "True True",
    ]
