"""The sd_notify protocol against a fake systemd: a real AF_UNIX datagram socket bound here."""

from __future__ import annotations

import io
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.systemd import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_UNAVAILABLE,
    Notifier,
    ServiceError,
    Watchdog,
    report_unavailable,
    run_service,
    table_liveness,
)


class FakeSystemd:
    """The receiving end of ``NOTIFY_SOCKET``: collects every datagram in arrival order."""

    def __init__(self, path: str) -> None:
        self.address = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        bind_to = "\0" + path[1:] if path.startswith("@") else path
        self.sock.bind(bind_to)
        self.sock.settimeout(0.05)
        self.received: list[str] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._collect, daemon=True)
        self._thread.start()

    def _collect(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            with self._lock:
                self.received.append(data.decode("utf-8"))

    def messages(self) -> list[str]:
        with self._lock:
            return list(self.received)

    def wait_for(self, text: str, timeout: float = 5.0) -> list[str]:
        """Wait until a message containing the line ``text`` arrived; return all so far."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.messages()
            if any(text in message.split("\n") for message in got):
                return got
            time.sleep(0.01)
        raise AssertionError(f"no {text!r} within {timeout} s; got {self.messages()!r}")

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(str(tmp_path / "notify.sock"))
    yield fake
    fake.close()


def kinds(messages: list[str]) -> list[str]:
    """The first line of every message: READY=1, WATCHDOG=1, STOPPING=1, STATUS=..."""
    return [message.split("\n")[0] for message in messages]


def test_notifier_from_env_reads_socket_and_watchdog(systemd: FakeSystemd) -> None:
    env = {"NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "30000000"}
    note = Notifier.from_env(env)
    assert note.enabled
    assert note.heartbeat_interval == 15.0
    assert note.ready("serving on port 80")
    assert systemd.wait_for("READY=1") == ["READY=1\nSTATUS=serving on port 80"]


def test_abstract_namespace_socket_is_supported(tmp_path: Path) -> None:
    fake = FakeSystemd(f"@mandala-test-{os.getpid()}-{tmp_path.name}")
    try:
        note = Notifier.from_env({"NOTIFY_SOCKET": fake.address})
        assert note.stopping()
        assert fake.wait_for("STOPPING=1") == ["STOPPING=1"]
    finally:
        fake.close()


def test_watchdog_pid_of_another_process_disables_heartbeats(systemd: FakeSystemd) -> None:
    env = {"NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1"}
    assert Notifier.from_env(env, pid=4242).heartbeat_interval is None
    env["WATCHDOG_PID"] = "4242"
    assert Notifier.from_env(env, pid=4242).heartbeat_interval == 1.0


def test_malformed_watchdog_usec_is_a_service_error() -> None:
    with pytest.raises(ServiceError, match=r"^WATCHDOG_USEC: not a number: 'soon'$"):
        Notifier.from_env({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "soon"})
    with pytest.raises(ServiceError, match=r"^WATCHDOG_USEC: must be positive: '0'$"):
        Notifier.from_env({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "0"})


def test_without_notify_socket_every_notification_is_a_no_op() -> None:
    note = Notifier.from_env({"WATCHDOG_USEC": "1000000"})
    assert not note.enabled
    assert note.heartbeat_interval is None
    assert not note.ready()
    assert not note.watchdog()
    assert note.sent == 0


def test_a_vanished_systemd_does_not_raise(tmp_path: Path) -> None:
    note = Notifier(str(tmp_path / "nobody-listens.sock"))
    assert note.stopping() is False
    assert note.sent == 0


def test_ready_is_sent_before_serving_and_stopping_after(systemd: FakeSystemd) -> None:
    calls: list[str] = []

    def serve_forever() -> None:
        # READY must already be there while the server runs.
        calls.append("serve:" + ",".join(kinds(systemd.wait_for("READY=1"))))

    status = run_service(
        serve_forever,
        is_alive=lambda: True,
        close_table=lambda: calls.append("close_table"),
        blank_leds=lambda: calls.append("blank_leds"),
        close_server=lambda: calls.append("close_server"),
        notifier=Notifier(systemd.address),
        stderr=io.StringIO(),
    )
    assert status == EXIT_OK
    assert calls == ["serve:READY=1", "close_server", "close_table", "blank_leds"]
    assert systemd.wait_for("STOPPING=1") == [
        "READY=1\nSTATUS=serving",
        "STOPPING=1\nSTATUS=stopping",
    ]


def test_heartbeats_are_sent_while_the_table_answers(systemd: FakeSystemd) -> None:
    note = Notifier(systemd.address, watchdog_usec=100_000)  # a heartbeat every 0.05 s
    stop = threading.Event()

    def serve_forever() -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if kinds(systemd.messages()).count("WATCHDOG=1") >= 4:
                return
            time.sleep(0.01)
        stop.set()

    status = run_service(
        serve_forever,
        is_alive=lambda: True,
        close_table=lambda: None,
        blank_leds=lambda: None,
        notifier=note,
        stderr=io.StringIO(),
    )
    assert status == EXIT_OK
    assert not stop.is_set(), "fewer than 4 heartbeats in 5 s"
    seen = kinds(systemd.wait_for("STOPPING=1"))
    assert seen[0] == "READY=1"
    assert seen[-1] == "STOPPING=1"
    assert set(seen[1:-1]) == {"WATCHDOG=1"}
    assert len(seen[1:-1]) >= 4


def heartbeats_during(systemd: FakeSystemd, seconds: float) -> int:
    before = kinds(systemd.messages()).count("WATCHDOG=1")
    time.sleep(seconds)
    return kinds(systemd.messages()).count("WATCHDOG=1") - before


def test_heartbeats_stop_when_the_liveness_check_fails_and_resume_after(
    systemd: FakeSystemd,
) -> None:
    alive = threading.Event()
    alive.set()
    log = io.StringIO()
    dog = Watchdog(Notifier(systemd.address), alive.is_set, interval=0.05, stderr=log)
    dog.start()
    try:
        systemd.wait_for("WATCHDOG=1")
        alive.clear()
        systemd.wait_for("STATUS=table thread not answering")
        assert heartbeats_during(systemd, 0.4) == 0
        alive.set()
        systemd.wait_for("STATUS=serving")
        assert heartbeats_during(systemd, 0.4) >= 3
    finally:
        dog.stop()
    assert log.getvalue().splitlines() == [
        "mandala: table thread not answering; watchdog heartbeats withheld",
        "mandala: table thread answers again; watchdog heartbeats resumed",
    ]


def test_heartbeats_stop_while_the_table_thread_is_stalled(systemd: FakeSystemd) -> None:
    stalled = threading.Event()
    release = threading.Event()

    def is_alive() -> bool:
        if stalled.is_set():
            release.wait()  # the table never answers, as if its thread hung
        return True

    dog = Watchdog(Notifier(systemd.address), is_alive, interval=0.05, stderr=io.StringIO())
    dog.start()
    try:
        systemd.wait_for("WATCHDOG=1")
        stalled.set()
        systemd.wait_for("STATUS=table thread not answering")
        assert heartbeats_during(systemd, 0.4) == 0
        # Only one probe is ever pending: a hung table does not pile up threads.
        probes = [t for t in threading.enumerate() if t.name == "watchdog-probe"]
        assert len(probes) == 1
    finally:
        release.set()
        started = time.monotonic()
        dog.stop()
        assert time.monotonic() - started < 2


def test_a_liveness_check_that_raises_counts_as_dead(systemd: FakeSystemd) -> None:
    def is_alive() -> bool:
        raise RuntimeError("table thread is not running")

    log = io.StringIO()
    dog = Watchdog(Notifier(systemd.address), is_alive, interval=0.05, stderr=log)
    dog.start()
    try:
        systemd.wait_for("STATUS=table thread not answering")
        assert heartbeats_during(systemd, 0.3) == 0
    finally:
        dog.stop()
    lines = log.getvalue().splitlines()
    assert lines[0] == "mandala: liveness check failed: RuntimeError: table thread is not running"
    assert "mandala: table thread not answering; watchdog heartbeats withheld" in lines


def test_sigterm_stops_serving_then_closes_the_table_then_blanks_the_leds(
    systemd: FakeSystemd,
) -> None:
    calls: list[str] = []
    before = signal.getsignal(signal.SIGTERM)

    def serve_forever() -> None:
        systemd.wait_for("READY=1")
        threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGTERM)).start()
        while True:  # a server loop that only a signal ends
            time.sleep(0.01)

    log = io.StringIO()
    status = run_service(
        serve_forever,
        is_alive=lambda: True,
        close_table=lambda: calls.append("close_table"),
        blank_leds=lambda: calls.append("blank_leds"),
        close_server=lambda: calls.append("close_server"),
        notifier=Notifier(systemd.address, watchdog_usec=100_000),
        stderr=log,
    )
    assert status == EXIT_OK
    assert calls == ["close_server", "close_table", "blank_leds"]
    seen = systemd.wait_for("STOPPING=1")
    assert seen[0] == "READY=1\nSTATUS=serving"
    assert seen[-1] == "STOPPING=1\nSTATUS=stopping (SIGTERM)"
    assert log.getvalue().splitlines() == [
        "mandala: SIGTERM received, stopping",
        "mandala: stopped cleanly",
    ]
    assert signal.getsignal(signal.SIGTERM) is before
    time.sleep(0.2)
    assert kinds(systemd.messages()).count("STOPPING=1") == 1
    assert kinds(systemd.messages())[-1] == "STOPPING=1", "a heartbeat after STOPPING"


def test_a_failing_shutdown_step_does_not_skip_the_others(systemd: FakeSystemd) -> None:
    calls: list[str] = []

    def close_table() -> None:
        raise OSError("disk I/O error")

    log = io.StringIO()
    status = run_service(
        lambda: None,
        is_alive=lambda: True,
        close_table=close_table,
        blank_leds=lambda: calls.append("blank_leds"),
        notifier=Notifier(systemd.address),
        stderr=log,
    )
    assert status == EXIT_FAILURE
    assert calls == ["blank_leds"]
    assert log.getvalue().splitlines() == [
        "mandala: closing the table failed: OSError: disk I/O error"
    ]


def test_a_crashing_server_still_closes_the_table_and_blanks_the_leds(
    systemd: FakeSystemd,
) -> None:
    calls: list[str] = []

    def serve_forever() -> None:
        raise OSError("address already in use")

    log = io.StringIO()
    status = run_service(
        serve_forever,
        is_alive=lambda: True,
        close_table=lambda: calls.append("close_table"),
        blank_leds=lambda: calls.append("blank_leds"),
        notifier=Notifier(systemd.address),
        stderr=log,
    )
    assert status == EXIT_FAILURE
    assert calls == ["close_table", "blank_leds"]
    assert log.getvalue().splitlines() == [
        "mandala: serving failed: OSError: address already in use"
    ]
    assert kinds(systemd.wait_for("STOPPING=1"))[-1] == "STOPPING=1"


def test_unavailable_backend_exits_69_with_one_clear_line(systemd: FakeSystemd) -> None:
    log = io.StringIO()
    status = report_unavailable(
        ModuleNotFoundError("No module named 'lgpio'"),
        "lgpio",
        notifier=Notifier(systemd.address),
        stderr=log,
    )
    assert status == EXIT_UNAVAILABLE == 69
    expected = "the 'lgpio' hardware backend is unavailable: No module named 'lgpio'"
    assert log.getvalue() == f"mandala: {expected}\n"
    assert systemd.wait_for("ERRNO=69") == [f"STATUS={expected}\nERRNO=69"]


class StuckReport:
    """A ring report whose ``ring`` cannot be read until released: the table thread hangs."""

    def __init__(self) -> None:
        self.reading = threading.Event()
        self.release = threading.Event()

    @property
    def ring(self) -> int:
        self.reading.set()
        self.release.wait()
        return 0


def test_heartbeats_stop_while_the_real_table_thread_is_stuck_and_resume(
    systemd: FakeSystemd, tmp_path: Path
) -> None:
    from companion.table import Table

    table = Table(tmp_path / "data")
    table.start()
    check = table_liveness(table)
    stuck = StuckReport()
    dog = Watchdog(Notifier(systemd.address), check, interval=0.05, stderr=io.StringIO())
    try:
        assert check() is True
        dog.start()
        systemd.wait_for("WATCHDOG=1")
        table.when_ring(stuck)  # the public, enqueue-only entry the sensors use
        assert stuck.reading.wait(5)
        systemd.wait_for("STATUS=table thread not answering")
        assert table.is_alive()  # alive, but not answering: still no heartbeat
        assert heartbeats_during(systemd, 0.4) == 0
        stuck.release.set()
        systemd.wait_for("STATUS=serving")
        assert heartbeats_during(systemd, 0.3) >= 2
    finally:
        stuck.release.set()
        dog.stop()
        table.close()
    assert check() is False  # a closed table's thread is gone
