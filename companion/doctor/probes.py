"""The probes the doctor's checks ask: on a Pi, in emulation, and inside the running server.

On a Pi the GPIO lines are asked through ``lgpio``'s own calls (line info says who holds a
line; a line is claimed as an input with a bias, read and released), the LED driver is
opened the way ``mandala serve`` opens it but without lighting a pixel, and the files are
read under a root folder (``/`` unless a test gives another). In emulation the lines are
gpiozero mock pins put at rest by the ring turner, exactly as ``mandala serve --emulate``
sees them. Inside the server the probes read the hardware it already holds.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from companion.doctor.checks import LineBusy, Lines, Probes, StripProbe
from companion.phrases import Phrase, say
from companion.table.clock import TIME_ERROR, TIMESYNC_FLAG, kernel_clock_state
from firmware.errors import HardwareError
from firmware.maps import PinMap, Pull, StripConfig

PULL_FLAGS: Final[dict[Pull, int]] = {"up": 32, "down": 64, "none": 128}
"""lgpio's line flags SET_PULL_UP, SET_PULL_DOWN and SET_PULL_NONE (``SET_BIAS_*`` in older
releases; the same numbers)."""
KERNEL_IN_USE: Final = 1
"""Bit 0 of lgpio's line flags: the kernel says the line is in use."""
GPIO_CHIPS: Final = 16
"""How many ``/dev/gpiochipN`` to look through for the header's chip."""


# -- files and accounts ------------------------------------------------------------------------


class HostFiles:
    """The system's files under ``root`` (``/``; a test gives a folder of stand-ins)."""

    def __init__(self, root: Path = Path("/")) -> None:
        self.root = root

    def _path(self, path: str) -> Path:
        return self.root / path.lstrip("/")

    def read(self, path: str) -> str | None:
        try:
            return self._path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def exists(self, path: str) -> bool:
        return self._path(path).exists()

    def usable(self, path: str) -> bool:
        return os.access(self._path(path), os.R_OK | os.W_OK)


class FileAccounts:
    """Accounts as ``/etc/passwd`` and ``/etc/group`` list them (read through ``files``)."""

    def __init__(self, files: HostFiles) -> None:
        self.files = files

    def groups_of(self, user: str) -> frozenset[str] | None:
        gid = None
        for line in (self.files.read("/etc/passwd") or "").splitlines():
            fields = line.split(":")
            if len(fields) >= 4 and fields[0] == user:
                gid = fields[3]
        if gid is None:
            return None
        groups: set[str] = set()
        for line in (self.files.read("/etc/group") or "").splitlines():
            fields = line.split(":")
            if len(fields) >= 4 and (fields[2] == gid or user in fields[3].split(",")):
                groups.add(fields[0])
        return frozenset(groups)


# -- GPIO lines --------------------------------------------------------------------------------


class LgpioLines:
    """The header's GPIO lines through ``lgpio``'s calls (the module, or a test's stand-in).

    The chip is the first ``/dev/gpiochipN`` whose label is a Pi's pin controller
    (``pinctrl-bcm2835``, ``pinctrl-bcm2711``, ``pinctrl-rp1``): gpiochip0 on most Pis,
    gpiochip4 on a Pi 5 with an older kernel.
    """

    owner: str | Phrase | None = None

    def __init__(self, lgpio: Any) -> None:
        self._lgpio = lgpio
        self._handle: int | None = None

    def _chip(self) -> int:
        if self._handle is not None:
            return self._handle
        lg, found = self._lgpio, []
        for number in range(GPIO_CHIPS):
            try:
                handle = int(lg.gpiochip_open(number))
            except Exception:  # lgpio.error (a plain Exception) or OSError: no such chip
                continue
            try:
                label = str(lg.gpio_get_chip_info(handle)[3])
            except Exception:
                label = ""
            if label.startswith("pinctrl-"):
                self._handle = handle
                return handle
            found.append(f"gpiochip{number} ({label})")
            lg.gpiochip_close(handle)
        seen = f" (found {', '.join(found)})" if found else ""
        raise HardwareError(
            f"no GPIO chip of a Raspberry Pi's header{seen}: is this a Pi, and may this user "
            "open /dev/gpiochip* (the gpio group)?"
        )

    def holder(self, pin: int) -> str | None:
        info = self._lgpio.gpio_get_line_info(self._chip(), pin)
        flags, user = int(info[2]), str(info[4])
        if not flags & KERNEL_IN_USE:
            return None
        return f"{user!r}" if user else "the kernel"

    def level(self, pin: int, pull: Pull) -> bool:
        lg, handle = self._lgpio, self._chip()
        try:
            lg.gpio_claim_input(handle, pin, PULL_FLAGS[pull])
        except Exception as error:  # lgpio.error: "GPIO busy", or a bad line
            if "busy" in str(error).lower():
                holder = self.holder(pin)
                raise LineBusy(
                    say("busy, held by {holder}", holder=holder or say("someone"))
                ) from error
            raise HardwareError(f"GPIO{pin} cannot be claimed: {error}") from error
        try:
            return bool(lg.gpio_read(handle, pin))
        finally:
            lg.gpio_free(handle, pin)

    def close(self) -> None:
        """Close the GPIO chip (idempotent)."""
        if self._handle is not None:
            self._lgpio.gpiochip_close(self._handle)
            self._handle = None


class MissingLines:
    """Lines that cannot be asked: every question fails with ``reason``."""

    owner: str | Phrase | None = None

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def holder(self, pin: int) -> str | None:
        raise HardwareError(self.reason)

    def level(self, pin: int, pull: Pull) -> bool:
        raise HardwareError(self.reason)


class HeldLines:
    """Lines another process of the companion holds (``mandala serve`` on this data): the
    doctor does not claim them, and says who has them."""

    def __init__(self, owner: str) -> None:
        self.owner: str | Phrase | None = owner

    def holder(self, pin: int) -> str | None:
        return None

    def level(self, pin: int, pull: Pull) -> bool:
        raise LineBusy(say("held by {owner}", owner=self.owner or ""))


def running_companion(data_dir: Path, files: HostFiles) -> int | None:
    """The process id of a ``mandala serve`` running on ``data_dir``, if one is.

    Read from its lock file (``companion.table.lock``) and checked against ``/proc``; the
    lock itself is never taken, so a server starting meanwhile is not disturbed.
    """
    from companion.table.lock import LOCK_NAME

    text = HostFiles(data_dir).read(LOCK_NAME) if data_dir.is_dir() else None
    pid = text.strip() if text else ""
    if not pid.isdigit():
        return None
    command = files.read(f"/proc/{pid}/cmdline") or ""
    return int(pid) if "mandala" in command and "serve" in command else None


class EmulatedLines:
    """The mock pins of an emulated factory, as the ring turner left them."""

    owner: str | Phrase | None = None

    def __init__(self, factory: Any) -> None:
        self._factory = factory

    def holder(self, pin: int) -> str | None:
        return None  # nothing outside this process holds an emulated line

    def level(self, pin: int, pull: Pull) -> bool:
        # The mock pins stand for lines with the wiring guide's pull-ups: their level is
        # what the turner drove, and setting a bias on a mock pin would drive it instead.
        return bool(self._factory.pin(pin).state)


class RunningLines:
    """The lines the running companion holds (its Health page): levels from its ring bank."""

    owner: str | Phrase | None = say("this companion")

    def __init__(self, bank: Any, pin_map: PinMap) -> None:
        self._bank = bank
        self._where = {
            pin: (index, line)
            for index, ring in enumerate(pin_map.rings)
            for line, pin in ((0, ring.a), (1, ring.b))
        }
        self._levels: list[tuple[bool, bool]] | None = None

    def holder(self, pin: int) -> str | None:
        return None

    def level(self, pin: int, pull: Pull) -> bool:
        if self._levels is None:
            self._levels = self._bank.line_levels()
        ring, line = self._where[pin]
        return bool(self._levels[ring][line])


# -- the LED strip -----------------------------------------------------------------------------


class PiStrip:
    """The strip's driver on a Pi, opened without lighting a pixel."""

    emulated = False

    def open(self, config: StripConfig) -> str:
        driver = config.driver
        try:
            if driver == "neopixel-spi":
                board = importlib.import_module("board")
                importlib.import_module("neopixel_spi")
                bus = board.SPI()
                bus.deinit()
            elif driver == "neopixel":
                importlib.import_module("board")
                importlib.import_module("neopixel")
                if os.geteuid() != 0:
                    raise HardwareError(
                        "the neopixel (PWM) driver needs root, and the service runs as the "
                        "mandala user: use the neopixel-spi driver on GPIO10"
                    )
            else:
                importlib.import_module("board")
                importlib.import_module("adafruit_raspberry_pi5_neopixel_write")
        except ImportError as error:
            raise HardwareError(
                f"LED driver {driver!r} is not installed ({error}): install the pi extra "
                "(sudo systemd/install.sh does)"
            ) from error
        except (OSError, RuntimeError, ValueError, NotImplementedError, AttributeError) as error:
            raise HardwareError(f"LED driver {driver!r} does not open: {error}") from error
        return f"the {driver} driver opens (GPIO{config.pin}, {config.count} pixels)"


class EmulatedStripProbe:
    """The emulated strip: opened and closed as ``mandala serve --emulate`` does."""

    emulated = True

    def open(self, config: StripConfig) -> str:
        from firmware.leds import make_strip

        make_strip(config, emulate=True).close()
        return f"the emulated strip of {config.count} pixels opens"


class RunningStrip:
    """The strip the running companion holds."""

    def __init__(self, emulated: bool) -> None:
        self.emulated = emulated

    def open(self, config: StripConfig) -> str | Phrase:
        return say(
            "the strip ({driver}, {count} pixels) is open in this companion",
            driver=config.driver,
            count=config.count,
        )


# -- disk, database, clock ---------------------------------------------------------------------


class HostDisk:
    """The data directory's file system."""

    def write_test(self, folder: Path) -> str | None:
        try:
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-") as probe:
                probe.write(b"mandala doctor\n")
                probe.flush()
                os.fsync(probe.fileno())
        except OSError as error:
            return error.strerror or str(error)
        return None

    def free_bytes(self, folder: Path) -> int:
        return shutil.disk_usage(folder).free


class SqliteDatabase:
    """The database opened read-only: a running server's writes are not disturbed (WAL)."""

    def quick_check(self, path: Path) -> tuple[list[str], int]:
        uri = f"file:{urllib.parse.quote(str(path))}?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, timeout=5)
        except sqlite3.Error as error:
            raise OSError(str(error)) from error
        try:
            rows = [str(row[0]) for row in db.execute("PRAGMA quick_check").fetchall()]
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.OperationalError as error:
            if "unable to open" in str(error) or "readonly" in str(error):
                raise OSError(str(error)) from error
            return [str(error)], 0
        except sqlite3.DatabaseError as error:  # not a database, malformed
            return [str(error)], 0
        finally:
            db.close()
        return rows, version


Runner = Callable[[Sequence[str]], str | None]


def run_command(argv: Sequence[str]) -> str | None:
    """Run a command; its output, or ``None`` when it is missing or fails."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


class SystemClock:
    """What systemd-timesyncd, timedatectl and the kernel say about the clock."""

    def __init__(
        self,
        files: HostFiles,
        run: Runner = run_command,
        kernel_state: Callable[[], int | None] = kernel_clock_state,
    ) -> None:
        self.files = files
        self.run = run
        self.kernel_state = kernel_state

    def synchronised(self) -> tuple[bool | None, str | Phrase]:
        if self.files.exists(TIMESYNC_FLAG):
            return True, "systemd-timesyncd"
        answer = self.run(["timedatectl", "show", "--property=NTPSynchronized", "--value"])
        if answer is not None and answer.strip() == "yes":
            return True, "timedatectl"
        state = self.kernel_state()
        if state is None:
            if answer is not None:
                return False, say("timedatectl says no")
            return None, say("no timedatectl")
        if state == TIME_ERROR:
            return False, say("adjtimex: the kernel clock is unsynchronised")
        return True, say("adjtimex: the kernel clock is synchronised")


# -- assembled ---------------------------------------------------------------------------------


def _lgpio_lines() -> LgpioLines | MissingLines:
    try:
        lgpio = importlib.import_module("lgpio")
    except ImportError as error:
        return MissingLines(
            f"lgpio is not installed ({error}): install python3-lgpio from Raspberry Pi OS's "
            "archive and keep the virtual environment's --system-site-packages"
        )
    return LgpioLines(lgpio)


def _probes(files: HostFiles, lines: Lines, strip: StripProbe, emulated: bool) -> Probes:
    return Probes(
        files=files,
        accounts=FileAccounts(files),
        lines=lines,
        strip=strip,
        disk=HostDisk(),
        database=SqliteDatabase(),
        clock=SystemClock(files),
        emulated=emulated,
    )


@contextlib.contextmanager
def host_probes(
    pin_map: PinMap, emulate: bool, root: Path = Path("/"), held_by: str | None = None
) -> Iterator[Probes]:
    """The probes ``mandala doctor`` uses: this machine's files, disk and clock, and either
    the Pi's GPIO lines (through the ``lgpio`` module) and LED driver or emulated ones
    (mock pins put at rest). ``held_by`` names a running companion that holds the lines."""
    files = HostFiles(root)
    if emulate:
        from firmware.emulator import RingTurner
        from firmware.pins import make_factory

        factory = make_factory("mock")
        try:
            RingTurner(factory, pin_map)  # puts every encoder at rest, as the server's does
            yield _probes(files, EmulatedLines(factory), EmulatedStripProbe(), True)
        finally:
            factory.close()
        return
    lines = _lgpio_lines() if held_by is None else HeldLines(held_by)
    try:
        yield _probes(files, lines, PiStrip(), False)
    finally:
        if isinstance(lines, LgpioLines):
            lines.close()


def running_probes(hardware: Any, root: Path = Path("/")) -> Probes:
    """The probes of the Health page: the hardware the server holds, this machine's rest."""
    lines = RunningLines(hardware.bank, hardware.pin_map)
    emulated = bool(hardware.emulated)
    return _probes(HostFiles(root), lines, RunningStrip(emulated), emulated)
