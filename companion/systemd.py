"""Run ``mandala serve`` under systemd: readiness, watchdog, a clean stop.

The unit (``systemd/mandala.service``) is ``Type=notify`` with ``WatchdogSec``. This module
speaks systemd's notify protocol with the standard library only (one datagram per message to
the socket named by ``NOTIFY_SOCKET``), so nothing extra is installed on the Pi:

- ``READY=1`` once the panel's socket is bound and the table is running;
- ``WATCHDOG=1`` every half ``WATCHDOG_USEC``, but only while a liveness check (the table
  thread alive and answering) passes -- a stalled table stops the heartbeats and systemd
  restarts the service;
- ``STOPPING=1`` as soon as SIGTERM (or SIGINT) arrives.

On SIGTERM the web server stops, the table closes (its queue drained, the journal closed),
then the LEDs go dark, and the process exits 0. Outside systemd (no ``NOTIFY_SOCKET``) every
notification is a no-op, so the same code runs on a laptop.

Typical use in ``mandala serve``::

    server = waitress.create_server(app, host=host, port=port)
    return run_service(
        server.run,
        is_alive=table_liveness(table),
        close_table=table.close,
        blank_leds=hardware.close,
        close_server=server.close,
    )
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import TextIO

EXIT_OK = 0
EXIT_FAILURE = 1
# The configured pin or LED backend cannot be opened (no lgpio, no /dev/gpiochip0 access,
# no SPI): sysexits' EX_UNAVAILABLE, so the journal and ``systemctl status`` tell it apart
# from a crash (1) and from a bad config file (2).
EXIT_UNAVAILABLE = 69

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class ServiceError(Exception):
    """The service cannot start as configured; the message says what and why."""


class StopRequested(SystemExit):
    """Raised in the main thread by the SIGTERM/SIGINT handler to leave the serving loop.

    A ``SystemExit`` so that waitress's ``run()`` treats it as its own shutdown request.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(EXIT_OK)
        self.signum = signum


def _socket_address(name: str) -> str:
    """Turn ``NOTIFY_SOCKET`` into an AF_UNIX address (``@name`` is the abstract namespace)."""
    return "\0" + name[1:] if name.startswith("@") else name


class Notifier:
    """Send sd_notify messages to systemd; every method is a no-op without ``NOTIFY_SOCKET``.

    A lost notification never raises: systemd may be gone while the service stops, and the
    service must still stop cleanly. ``sent`` counts the datagrams delivered.
    """

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address
        self.watchdog_usec = watchdog_usec
        self.sent = 0
        self._lock = threading.RLock()  # a signal handler may notify mid-send
        self._socket: socket.socket | None = None
        self._stopping = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, pid: int | None = None) -> Notifier:
        """Read ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and ``WATCHDOG_PID`` as sd_notify does.

        The watchdog is enabled only when ``WATCHDOG_USEC`` is a positive integer and
        ``WATCHDOG_PID`` (if set) is this process.

        :raises ServiceError: when ``WATCHDOG_USEC`` or ``WATCHDOG_PID`` is not a number.
        """
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        watchdog_usec: int | None = None
        usec_text = env.get("WATCHDOG_USEC")
        if usec_text:
            watchdog_usec = _parse_positive(usec_text, "WATCHDOG_USEC")
            pid_text = env.get("WATCHDOG_PID")
            if pid_text:
                owner = _parse_positive(pid_text, "WATCHDOG_PID")
                if owner != (os.getpid() if pid is None else pid):
                    watchdog_usec = None
        return cls(address, watchdog_usec)

    @property
    def enabled(self) -> bool:
        """Whether there is a systemd to talk to."""
        return self.address is not None

    @property
    def heartbeat_interval(self) -> float | None:
        """Seconds between heartbeats (half the watchdog timeout), or None without one."""
        if self.address is None or self.watchdog_usec is None:
            return None
        return self.watchdog_usec / 2_000_000

    def notify(self, *fields: str) -> bool:
        """Send one message of ``KEY=value`` lines; return whether it was delivered."""
        if self.address is None or not fields:
            return False
        payload = "\n".join(fields).encode("utf-8")
        with self._lock:
            if "STOPPING=1" in fields:
                self._stopping = True
            try:
                if self._socket is None:
                    self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self._socket.sendto(payload, _socket_address(self.address))
            except OSError:
                return False
            self.sent += 1
        return True

    def ready(self, status: str = "") -> bool:
        """Tell systemd the service is serving."""
        return self.notify("READY=1", *_status(status))

    def status(self, text: str) -> bool:
        """Set the line ``systemctl status`` shows."""
        return self.notify(*_status(text))

    def watchdog(self) -> bool:
        """Send one heartbeat, unless ``STOPPING=1`` has been sent (none may follow it)."""
        with self._lock:
            if self._stopping:
                return False
            return self.notify("WATCHDOG=1")

    def stopping(self, status: str = "") -> bool:
        """Tell systemd the service is shutting down."""
        return self.notify("STOPPING=1", *_status(status))

    def close(self) -> None:
        """Close the socket (a later message opens a new one)."""
        with self._lock:
            if self._socket is not None:
                self._socket.close()
                self._socket = None


def _status(text: str) -> tuple[str, ...]:
    line = " ".join(text.split())
    return (f"STATUS={line}",) if line else ()


def _parse_positive(text: str, name: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ServiceError(f"{name}: not a number: {text!r}") from None
    if value <= 0:
        raise ServiceError(f"{name}: must be positive: {text!r}")
    return value


class Watchdog:
    """Send ``WATCHDOG=1`` every ``interval`` seconds while ``is_alive()`` says yes.

    The check runs on its own short-lived thread and must answer within ``check_timeout``
    seconds (default: half the interval); a check that returns False, raises, or has not
    answered (a stalled table thread) withholds that heartbeat, and no second check starts
    while one is still pending. Heartbeats resume if the check passes again.
    """

    def __init__(
        self,
        notifier: Notifier,
        is_alive: Callable[[], bool],
        interval: float,
        check_timeout: float | None = None,
        stderr: TextIO | None = None,
    ) -> None:
        if interval <= 0:
            raise ServiceError(f"watchdog interval must be positive, not {interval}")
        self.notifier = notifier
        self.is_alive = is_alive
        self.interval = interval
        self.check_timeout = interval / 2 if check_timeout is None else check_timeout
        self.beats = 0
        self.missed = 0
        self._stderr = stderr
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pending: threading.Thread | None = None
        self._healthy = True

    def start(self) -> None:
        """Start the heartbeat thread (a daemon: it never keeps the process alive)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop sending heartbeats and wait for the thread to finish."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def check(self) -> bool:
        """Run the liveness check once, bounded by ``check_timeout``."""
        if self._pending is not None and self._pending.is_alive():
            return False
        answer: list[bool] = []

        def probe() -> None:
            try:
                answer.append(bool(self.is_alive()))
            except Exception as error:  # a failing check means "not alive", never a crash
                self._log(f"liveness check failed: {type(error).__name__}: {error}")
                answer.append(False)

        self._pending = threading.Thread(target=probe, name="watchdog-probe", daemon=True)
        self._pending.start()
        self._pending.join(self.check_timeout)
        return bool(answer) and answer[0]

    def _run(self) -> None:
        while not self._stop.is_set():
            alive = self.check()
            if self._stop.is_set():
                break
            if alive:
                if self.notifier.watchdog():
                    self.beats += 1
                if not self._healthy:
                    self._log("table thread answers again; watchdog heartbeats resumed")
                    self.notifier.status("serving")
            else:
                self.missed += 1
                if self._healthy:
                    self._log("table thread not answering; watchdog heartbeats withheld")
                    self.notifier.status("table thread not answering")
            self._healthy = alive
            self._stop.wait(self.interval)

    def _log(self, message: str) -> None:
        stream = self._stderr if self._stderr is not None else sys.stderr
        print(f"mandala: {message}", file=stream, flush=True)


@contextmanager
def stop_signals(
    handler: Callable[[int], None], signals: Sequence[signal.Signals] = STOP_SIGNALS
) -> Iterator[None]:
    """Call ``handler(signum)`` on SIGTERM/SIGINT inside the block; restore afterwards.

    Must be used from the main thread (Python delivers signals only there).
    """

    def on_signal(signum: int, frame: FrameType | None) -> None:
        handler(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in signals}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def run_service(
    serve_forever: Callable[[], object],
    *,
    is_alive: Callable[[], bool],
    close_table: Callable[[], object],
    blank_leds: Callable[[], object],
    close_server: Callable[[], object] | None = None,
    end_streams: Callable[[], object] | None = None,
    notifier: Notifier | None = None,
    ready_status: str = "serving",
    stderr: TextIO | None = None,
) -> int:
    """Serve until SIGTERM/SIGINT, talking to systemd; return the exit status.

    Call it from the main thread once the server's socket is bound and the table is
    started. Order: ``READY=1``, the watchdog, then ``serve_forever()`` (which the
    signal handler leaves by raising ``StopRequested``, a ``SystemExit`` that waitress's
    ``run()`` also treats as a shutdown); on the way out ``STOPPING=1``, the watchdog
    stops, ``close_server()``, ``close_table()`` (no more frames are rendered after it),
    then ``blank_leds()``. Every step runs even if an earlier one failed. ``end_streams()``
    runs in the signal handler itself, before serving is left: waitress's ``run()`` waits
    for its threads as it returns, so the live streams holding them must end first.

    :returns: 0 after a signal or a normal return; 1 when serving or a shutdown step
        failed (each failure is one line on stderr).
    """
    note = notifier if notifier is not None else Notifier.from_env()
    err = stderr if stderr is not None else sys.stderr
    failures: list[str] = []
    stop = _SignalStop(note, end_streams, failures)
    watchdog: Watchdog | None = None
    try:
        with stop_signals(stop):
            try:
                note.ready(ready_status)
                watchdog = _start_watchdog(note, is_alive, err)
                serve_forever()
            except StopRequested:
                pass
            except Exception as error:  # the stop must still blank the LEDs and close
                failures.append(f"serving failed: {type(error).__name__}: {error}")
            finally:
                stop.serving = False
            if stop.received:
                _log(err, f"{signal.Signals(stop.received[0]).name} received, stopping")
            else:
                note.stopping("stopping")
            if watchdog is not None:
                watchdog.stop()
            steps = (
                ("closing the server", close_server),
                ("closing the table", close_table),
                ("blanking the LEDs", blank_leds),
            )
            _run_steps(steps, failures)
    finally:
        note.close()
    for failure in failures:
        _log(err, failure)
    if not failures:
        _log(err, "stopped cleanly")
    return EXIT_FAILURE if failures else EXIT_OK


class _SignalStop:
    """The SIGTERM/SIGINT handler of :func:`run_service`: tell systemd, end the streams, leave.

    Only the first signal, and only while serving, interrupts: a second one must not cut the
    shutdown steps short.
    """

    def __init__(
        self, note: Notifier, end_streams: Callable[[], object] | None, failures: list[str]
    ) -> None:
        self.note = note
        self.end_streams = end_streams
        self.failures = failures
        self.received: list[int] = []
        self.serving = True

    def __call__(self, signum: int) -> None:
        self.received.append(signum)
        if len(self.received) != 1:
            return
        self.note.stopping(f"stopping ({signal.Signals(signum).name})")
        if not self.serving:
            return
        if self.end_streams is not None:
            try:
                self.end_streams()
            except Exception as error:  # the stop goes on: waitress waits 5 s at most
                self.failures.append(f"ending the streams failed: {type(error).__name__}: {error}")
        raise StopRequested(signum)


def _start_watchdog(note: Notifier, is_alive: Callable[[], bool], err: TextIO) -> Watchdog | None:
    """Start the heartbeats when systemd asked for them (``WATCHDOG_USEC``)."""
    interval = note.heartbeat_interval
    if interval is None:
        return None
    watchdog = Watchdog(note, is_alive, interval, stderr=err)
    watchdog.start()
    return watchdog


def _run_steps(
    steps: Sequence[tuple[str, Callable[[], object] | None]], failures: list[str]
) -> None:
    """Run every shutdown step, even after one failed; each failure is one line."""
    for name, step in steps:
        if step is None:
            continue
        try:
            step()
        except Exception as error:
            failures.append(f"{name} failed: {type(error).__name__}: {error}")


def _log(err: TextIO, message: str) -> None:
    print(f"mandala: {message}", file=err, flush=True)


def report_unavailable(
    error: BaseException,
    backend: str,
    *,
    notifier: Notifier | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Say on stderr (and to systemd) that the configured backend cannot be used.

    :returns: ``EXIT_UNAVAILABLE`` (69), for ``mandala serve`` to exit with.
    """
    note = notifier if notifier is not None else Notifier.from_env()
    err = stderr if stderr is not None else sys.stderr
    reason = " ".join(str(error).split()) or type(error).__name__
    message = f"the {backend!r} hardware backend is unavailable: {reason}"
    print(f"mandala: {message}", file=err, flush=True)
    note.notify(f"STATUS={message}", f"ERRNO={EXIT_UNAVAILABLE}")
    note.close()
    return EXIT_UNAVAILABLE


def table_liveness(table: object, method: str = "board") -> Callable[[], bool]:
    """Return a liveness check: the table thread is alive *and* answers through its queue.

    ``table.is_alive()`` (when the table has one) says the thread runs; then
    ``table.<method>()`` -- like every public table method it enqueues a command and waits
    for the table thread's answer -- proves the thread is not stuck. Give the result to
    ``run_service(is_alive=...)``: the watchdog bounds the wait, so a hung table stops the
    heartbeats instead of hanging the watchdog.
    """
    running = getattr(table, "is_alive", None)
    ask = getattr(table, method)

    def check() -> bool:
        if callable(running) and not running():
            return False
        ask()
        return True

    return check
