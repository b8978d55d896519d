"""SIGTERM with phones connected: every live stream ends at once and the process exits.

Before, each stream's thread slept in its heartbeat wait, waitress waited 5 s for those
threads (``thread(s) still running``) and the stop took 5.3 s with 20 phones.
"""

from __future__ import annotations

import http.client
import os
import threading
from pathlib import Path

import pytest

from tests.service.test_sigterm import Service

PHONES = 20


class Phone:
    """One phone's open ``/api/events`` stream, read on a thread until the server ends it."""

    def __init__(self, port: int, address: str) -> None:
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=(address, 0)
        )
        self.connection.request("GET", "/api/events")
        self.response = self.connection.getresponse()
        self.first = threading.Event()
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while line := self.response.readline():
                if line.startswith(b"data:"):
                    self.first.set()
        except OSError:
            pass
        self.ended.set()


@pytest.mark.slow
def test_sigterm_ends_every_stream_at_once_and_exits_promptly_with_20_phones(
    tmp_path: Path,
) -> None:
    service = Service(tmp_path / "data", tmp_path / "frames.jsonl", dict(os.environ))
    try:
        phones = [Phone(service.port, f"127.0.0.{2 + n}") for n in range(PHONES)]
        assert [phone.response.status for phone in phones] == [200] * PHONES
        for phone in phones:
            assert phone.first.wait(10)
        code, took, _out, err = service.terminate()
    finally:
        service.kill()
    assert code == 0, err
    assert all(phone.ended.wait(5) for phone in phones)
    assert "still running" not in err  # waitress had no stream thread to wait for
    assert err.splitlines()[-2:] == [
        "mandala: SIGTERM received, stopping",
        "mandala: stopped cleanly",
    ]
    assert took < 2.5, f"took {took:.2f} s"  # guards a hang; bench/streams.py measures it
