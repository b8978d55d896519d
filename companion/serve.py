"""``mandala serve``: the process wiring, from the options to the companion's parts on waitress.

:func:`run` locks the data directory, reads the pin and LED maps (``companion.config``),
opens the hardware (``firmware``), starts the table, builds the panel with ``create_app`` (the
only web wiring; the firmware's errors are mapped here) and serves it under systemd's notify
protocol and watchdog (``companion.systemd``) until SIGTERM.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from companion.box.address import Reach
from companion.config import ServeOptions, choose_backend, is_raspberry_pi, load_maps
from companion.games.base import RecordError

if TYPE_CHECKING:
    from companion.box.wifi_box import WifiBox

log = logging.getLogger(__name__)


def firmware_errors() -> tuple[tuple[type[Exception], int, str], ...]:
    """The firmware's errors as the panel answers them (``create_app(more_errors=...)``).

    No such part (e.g. an unwired button) is 404 ``not_found``; hardware that fails is 503
    ``hardware``. The web layer does not import the firmware, so they are mapped here.
    """
    from firmware.errors import HardwareError, RequestError

    return ((RequestError, 404, "not_found"), (HardwareError, 503, "hardware"))


STREAM_THREADS = 8  # waitress threads beyond one per live stream, for ordinary requests
FIRST_THREADS = 4  # waitress threads started at once (the rest when needed, see dispatcher)
CONNECTIONS = 500  # open connections waitress accepts (its default, 100, is one busy client)
OUTBUF_BYTES = 512 * 1024  # the most one connection may hold unsent before its writer waits
BODY_BYTES = 64 * 1024 * 1024  # the largest request body waitress reads (a backup upload)


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
MMAP_BYTES = 64 * 1024  # a block this large or larger is its own mapping, given back when freed
TRIM_BYTES = 128 * 1024  # free memory this large at the heap's top is given back


def tune_malloc() -> bool:
    """Fix glibc malloc's thresholds so the memory of large blocks goes back to the system.

    glibc raises its mmap threshold to the size of each large block freed (up to 32 MB), so
    after the first big JSON item or stream buffer every later one comes from the heap,
    where the small blocks allocated between them pin it (10 phones and an hour of play
    grew the box by about 6 MB more with it). Answers whether glibc took both values (not
    glibc, e.g. musl's no-op: False, nothing changed). A ``MALLOC_MMAP_THRESHOLD_`` in the
    environment is the user's choice and is left as it is.
    """
    if not sys.platform.startswith("linux") or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_BYTES)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_BYTES)
    )


def trim_malloc() -> bool:
    """Give the free memory inside glibc malloc's heap back to the system (``malloc_trim(0)``),
    e.g. what start-up built and dropped; answers whether any was given (not glibc: False)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return bool(trim(0))


def dispatcher(most: int, first: int) -> Any:
    """Waitress's task dispatcher with its threads started when needed: ``first`` at once,
    then one more whenever a task finds none idle, up to ``most``.

    Waitress starts every thread at once; each idle one holds its stack and, after its
    first request, a malloc arena of its own (72 idle threads: about 1 MB of an idle box).
    A started thread stays, so a box that once had 10 phones keeps their threads.
    """
    from waitress.task import Task, ThreadedTaskDispatcher

    class OnDemand(ThreadedTaskDispatcher):
        def add_task(self, task: Task) -> None:
            with self.lock:  # waitress's own add_task, with a thread started first if needed
                running = len(self.threads) - self.stop_count
                idle = running - self.active_count
                if len(self.queue) >= idle and running < most:
                    number = next(
                        n for n in range(most + len(self.threads)) if n not in self.threads
                    )
                    self.threads.add(number)
                    self.active_count += 1  # as set_thread_count counts a thread starting
                    self.start_new_thread(self.handler_thread, number)
                self.queue.append(task)
                self.queue_cv.notify()

    found = OnDemand()
    found.set_thread_count(first)
    return found


def make_server(app: Any, host: str, port: int) -> Any:
    """Build the panel's waitress server (bound, not yet serving).

    A thread per live stream the table allows and :data:`STREAM_THREADS` more for ordinary
    requests, started as they are needed (:func:`dispatcher`). ``channel_request_lookahead``
    keeps reading a connection while its request runs, so a phone that closes a live stream
    is noticed at once (its place is freed) rather than at the next write;
    ``outbuf_high_watermark`` caps what one connection may hold unsent (a live stream is
    ended long before, see ``companion.web.events``). Waitress
    also keeps what a connection already sent in its output buffer until that buffer has
    taken the watermark's worth and a new one starts: each phone's live stream holds up to
    :data:`OUTBUF_BYTES` of memory (10 phones at 1 MB each kept the box over 60 MB).
    ``max_request_body_size`` makes waitress answer 413 at once to a body announced larger
    than the largest the panel takes (:data:`BODY_BYTES`, a backup), instead of reading up to
    its default of 1 GB into files on the SD card before the panel can refuse it.
    """
    from waitress.server import create_server

    from companion.table.hub import MAX_SUBSCRIBERS

    most = MAX_SUBSCRIBERS + STREAM_THREADS
    return create_server(
        app,
        _dispatcher=dispatcher(most, FIRST_THREADS),
        host=host,
        port=port,
        threads=most,
        ident="mandala",
        clear_untrusted_proxy_headers=True,
        channel_request_lookahead=1,
        connection_limit=CONNECTIONS,
        outbuf_high_watermark=OUTBUF_BYTES,
        max_request_body_size=BODY_BYTES,
    )


def bound_port(server: Any, reach: Reach) -> int:
    """The port the server was bound to (``--port 0`` picks one), told to ``reach`` too.

    The server is the last part built before serving: start-up's dropped memory goes back
    to the system here (:func:`trim_malloc`).
    """
    trim_malloc()
    listen = getattr(server, "effective_listen", None) or [
        (server.effective_host, server.effective_port)
    ]
    port = int(listen[0][1])
    reach.bound(port)
    return port


def stop_server(server: Any, table: Any) -> None:
    """End every live stream, then close the server (it waits for its threads to finish)."""
    table.close_streams()
    server.close()


def addresses(host: str, port: int) -> list[str]:
    """Return the panel's address(es) to open: the network's and 127.0.0.1 for a wildcard host."""
    from companion.box.address import WILDCARD_HOSTS, network_addresses, url_of

    if host in WILDCARD_HOSTS:
        return [url_of(name, port) for name in (*network_addresses(), "127.0.0.1")]
    return [url_of(host, port)]


def wifi_for(options: ServeOptions, backend: str, data: Path) -> WifiBox | None:
    """The box's Wi-Fi when this process manages it: on a Pi (``wifi = "auto"``), or asked
    (``"on"``, emulation too); None in emulation, where it is the laptop's own network."""
    if options.wifi == "off" or (options.wifi == "auto" and backend == "mock"):
        return None
    from companion.box.wifi import Wifi
    from companion.box.wifi_box import WifiBox

    return WifiBox(Wifi(data))


def when_held(wifi: WifiBox | None) -> Callable[[str], None] | None:
    """What a button held down 3 s does: ``done`` opens the box's own Wi-Fi (off the pin's
    thread: the box does it on its own)."""
    if wifi is None:
        return None

    def held(name: str) -> None:
        if name == "done":
            wifi.open_access_point_soon("the done button was held")

    return held


def run(options: ServeOptions, stdout: TextIO, stderr: TextIO, on_pi: bool | None = None) -> int:
    """Lock the data directory, then serve as :func:`serve` does until stopped.

    :raises RecordError: ``data: DIR is in use by another mandala serve (process N); ...``
        when another server holds the directory (one server per data directory).
    """
    from companion.deferred import lighter_imports

    lighter_imports()  # first: before anything imports Flask or hashlib
    from companion.table.lock import DataDirInUse, lock_data_dir

    data = options.data_dir
    try:
        data.mkdir(parents=True, exist_ok=True)
        lock = lock_data_dir(data)  # held for the process's life: one server per data dir
    except DataDirInUse as error:
        raise RecordError(str(error)) from None
    except OSError as error:
        raise RecordError(f"data: cannot use {data}: {error.strerror or error}") from None
    tune_malloc()  # before the table and the panel allocate
    try:
        return serve(options, stdout, stderr, on_pi)
    finally:
        lock.release()
        # The process exits next: spare it the final collection of every object the
        # companion built (0.7 s of a 1 s stop on the test machine); nothing is left to close.
        gc.freeze()


def speaker_for(options: ServeOptions, table: Any) -> Any:
    """The Pi's speaker saying the announcements (``[speech] speaker = true``), started, or
    None when it is off (``companion.speaker``)."""
    if not options.speech.speaker:
        return None
    from companion.speaker import Speaker

    speaker = Speaker(table.subscribe(), options.speech, options.language)
    speaker.start()
    if speaker.found() is None:
        log.warning("%s", speaker.check()[1])
    return speaker


BACKUP_WAIT_S = 8.0
"""The longest a stop waits for the day's backup (or a restore) in progress to finish, so that
the journal closes as the last user of its file (well inside the unit's TimeoutStopSec)."""


def close_table(
    table: Any, speaker: Any, files_lock: Any = None, wait_s: float = BACKUP_WAIT_S
) -> None:
    """Stop the speaker (its stream, the sentence being said), then the table: once a backup
    or restore in progress is done with the files (``files_lock``, the rolling backups' lock),
    so that the closing journal is the file's last user and checkpoints it, and no backup
    starts while it closes. A backup still running after ``wait_s`` is left (logged): the
    journal closes anyway and SQLite replays the WAL at the next start."""
    if speaker is not None:
        speaker.close()
    held = files_lock is not None and files_lock.acquire(timeout=wait_s)
    if files_lock is not None and not held:
        log.warning("stop: a backup still runs after %.0f s; closing the journal anyway", wait_s)
    try:
        table.close()
    finally:
        if held:
            files_lock.release()


def serve(options: ServeOptions, stdout: TextIO, stderr: TextIO, on_pi: bool | None = None) -> int:
    """Start the table (with its rings) and the panel on waitress; serve until stopped.

    :returns: the exit status (0 after SIGTERM/SIGINT, 69 when the pin backend is missing).
    :raises RecordError: for a pin or LED map that cannot be used (the CLI prints it).
    """
    from companion import systemd
    from companion.doctor import logbuffer
    from companion.doctor.panel import PanelDoctor
    from companion.table import Table, clock, rolling
    from companion.table.board_parts import BoardHardware, ButtonReporter, RingReporter
    from companion.table.errors import StorageError
    from companion.web import create_app
    from firmware import HardwareError
    from firmware.hardware import Hardware
    from firmware.maps import MapError

    backend, why = choose_backend(options.hardware, is_raspberry_pi() if on_pi is None else on_pi)
    pin_map, led_map = load_maps(options, backend)
    data = options.data_dir
    boards = data / "boards"
    try:
        boards.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RecordError(f"data: cannot use {data}: {error.strerror or error}") from None

    wifi = wifi_for(options, backend, data)

    def open_hardware(
        report_ring: RingReporter,
        report_button: ButtonReporter,
        spokes: int,
        offsets: list[int] | None,
    ) -> BoardHardware:
        # Typed with the table's protocols: mypy proves the firmware's parts fit them.
        emulate = backend == "mock"
        return Hardware.open(
            pin_map,
            led_map,
            spokes,
            emulate,
            report_ring,
            report_button,
            offsets,
            pin_backend=backend,
            report_hold=when_held(wifi),
        )

    clock.install(clock.BoxClock(clock.system_synchronised))  # a phone's time when unsynced
    log_buffer = logbuffer.install()  # the Health page's bundle carries the last lines
    table = Table(data, open_hardware, boards)
    table.companion.configure(options.cards_budget_ms, options.cards_pause_ms)
    try:
        table.start()
    except HardwareError as error:
        table.close()
        return systemd.report_unavailable(error, backend, stderr=stderr)
    except MapError as error:
        table.close()
        raise RecordError(str(error)) from None
    except (StorageError, sqlite3.Error, OSError) as error:
        # A database from a newer release, a read-only or damaged file: restarting the
        # service cannot fix it, so it is one line and exit 2, never a traceback.
        table.close()
        raise RecordError(f"data: {' '.join(str(error).split())}") from None
    config = {
        "BOARDS_DIR": boards,
        "DEFAULT_BOARD": options.board,
        "DETENTS_PER_SLOT": [ring.detents_per_slot for ring in pin_map.rings],
        "ALLOWED_HOSTS": list(options.allowed_hosts),
        "LANGUAGE": options.language,
        # The unit names the install its updater updates (systemd/mandala.service).
        "UPDATE_INSTALL": os.environ.get("MANDALA_INSTALL") or None,
    }
    rolling.start(data)  # one backup a day in <data>/backups, today's made while serving
    # The Pi's speaker (when on) is the doctor's too: the Health page shows how it does.
    doctor = PanelDoctor(options, options.config_file, log_buffer, speaker_for(options, table))
    reach = Reach(options.host, options.port)  # the join codes' addresses (api_join)
    app = create_app(
        config,
        table=table,
        more_errors=firmware_errors(),
        diagnostics=doctor,
        wifi=wifi,
        reach=reach,
    )
    server = make_server(app, options.host, options.port)
    port = bound_port(server, reach)
    print(f"mandala: {why}", file=stdout, flush=True)
    print(f"mandala: data in {data}", file=stdout, flush=True)
    for address in addresses(options.host, port):
        print(f"mandala: open the panel at {address}", file=stdout, flush=True)
    log.info("%s; data in %s; serving on port %d", why, data, port)
    if wifi is not None:
        wifi.start_when_no_network()  # its own Wi-Fi when no known network is joined soon
    return systemd.run_service(
        server.run,
        is_alive=systemd.table_liveness(table),
        close_table=lambda: close_table(table, doctor.speaker, rolling.FILES_LOCK),
        blank_leds=lambda: None,  # the table blanks the strip as it closes
        close_server=lambda: stop_server(server, table),
        end_streams=table.close_streams,
        ready_status=f"serving on port {port}",
        stderr=stderr,
    )
