"""Phones on the live stream, for the benchmarks: one process holding N real ``/api/events``
streams, each from an address of its own (127.0.0.2, ...), as phones on the Wi-Fi are.

Run as ``python bench/phones.py PORT COUNT``; it speaks one line at a time on stdin/stdout:

- at start it connects every phone (HTTP/1.1, the ``Host`` the panel answers to, as a
  browser's EventSource sends it) and prints ``ready`` once each has received its first item
  (the whole state); a phone answered other than 200 prints ``error ...`` and exits 1;
- ``mark``: count bytes from now on (prints ``marked``);
- ``upto SEQ``: once every phone has taken a ``board`` item numbered ``SEQ`` or later, prints
  one line of JSON: ``bytes``, what each phone received since ``mark`` on the wire (chunked
  framing included), and ``board_at``, for each ``board`` item's ``seq`` since ``mark``, the
  ``time.perf_counter()`` (``CLOCK_MONOTONIC``, one clock for every process) at which the
  last of the phones had taken it;
- ``stop``: exits.

The phones are other devices, not the box: on the Zero 2 stand-in this process leaves the
stand-in's cgroup first (:func:`zero2.leave`), so reading the streams takes none of the
box's tenth of a core.
"""

from __future__ import annotations

import json
import selectors
import socket
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import zero2


class Phone:
    """One stream: its socket, what it received, and the last board ``seq`` it took."""

    def __init__(self, port: int, index: int) -> None:
        self.socket = socket.create_connection(
            ("127.0.0.1", port), timeout=60, source_address=(f"127.0.0.{index + 2}", 0)
        )
        request = (
            f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        )
        self.socket.sendall(request.encode())
        self.socket.setblocking(False)
        self.received = 0
        self.items = 0
        self.board_seq = -1
        self.board_at: dict[int, float] = {}
        """When this phone took each ``board`` item, by its ``seq``."""
        self._head: bytes | None = b""  # the response head until it is complete, then None
        self._chunked = False
        self._chunks = b""  # the chunked body not yet decoded
        self._events = b""  # decoded SSE text not yet split into events

    def take(self, data: bytes) -> None:
        """Take bytes from the socket: the head, then chunks, then SSE events."""
        self.received += len(data)
        if self._head is not None:
            self._head += data
            if b"\r\n\r\n" not in self._head:
                return
            head, _, data = self._head.partition(b"\r\n\r\n")
            status = head.split(b"\r\n", 1)[0]
            if status.split()[1:2] != [b"200"]:
                raise SystemExit(f"error {status.decode(errors='replace')}")
            self._chunked = b"transfer-encoding: chunked" in head.lower()
            self._head = None
        if not self._chunked:
            self._events += data
            self._split()
            return
        self._chunks += data
        while True:
            size_line, found, rest = self._chunks.partition(b"\r\n")
            if not found:
                return
            size = int(size_line, 16)
            if len(rest) < size + 2:
                return
            self._events += rest[:size]
            self._chunks = rest[size + 2 :]
            self._split()

    def _split(self) -> None:
        while b"\n\n" in self._events:
            event, _, self._events = self._events.partition(b"\n\n")
            for line in event.split(b"\n"):
                if line.startswith(b"data: "):
                    self._item(json.loads(line[6:]))

    def _item(self, item: dict[str, Any]) -> None:
        self.items += 1
        if item["type"] == "board":
            self.board_seq = int(item["seq"])
            self.board_at[self.board_seq] = time.perf_counter()
        elif item["type"] == "state":
            self.board_seq = int(item["board"]["seq"])


def main() -> None:
    reason = zero2.leave()
    if reason:
        print(f"phones: {reason}", file=sys.stderr, flush=True)
    port, count = int(sys.argv[1]), int(sys.argv[2])
    selector = selectors.DefaultSelector()
    phones = [Phone(port, index) for index in range(count)]
    for phone in phones:
        selector.register(phone.socket, selectors.EVENT_READ, phone)
    selector.register(sys.stdin, selectors.EVENT_READ, None)
    marked = [0] * count
    ready = False
    waiting: int | None = None  # the board seq an ``upto`` waits for
    while True:
        if not ready and all(p.items for p in phones):
            ready = True
            print("ready", flush=True)
        for key, _ in selector.select():
            phone = key.data
            if phone is None:
                word, _, value = sys.stdin.readline().strip().partition(" ")
                if word in ("stop", ""):
                    return
                if word == "mark":
                    marked = [p.received for p in phones]
                    for p in phones:
                        p.board_at.clear()
                    print("marked", flush=True)
                elif word == "upto":
                    waiting = int(value)
            else:
                data = phone.socket.recv(65536)
                if not data:
                    raise SystemExit("error a stream was closed by the server")
                phone.take(data)
        if waiting is not None and all(p.board_seq >= waiting for p in phones):
            waiting = None
            board_at = {
                seq: max(p.board_at.get(seq, at) for p in phones)
                for seq, at in (phones[0].board_at if phones else {}).items()
            }
            sent = [p.received - m for p, m in zip(phones, marked, strict=True)]
            print(json.dumps({"bytes": sent, "board_at": board_at}), flush=True)


if __name__ == "__main__":
    main()
