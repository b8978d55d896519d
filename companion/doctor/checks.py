"""The doctor's checks: pure functions over small probes, each answering one :class:`Check`.

A probe (a ``Protocol`` below) is the only thing a check asks: files under ``/proc``,
``/dev`` and ``/boot``, the accounts, the GPIO lines, the LED driver, the disk, the
database, the clock. :mod:`companion.doctor.probes` answers them on a Pi, in emulation and
inside the running server; tests answer them with stand-ins only where this machine lacks
the real thing. Every message says what was found and, for ``warn`` and ``fail``, what to
do, in one line.

A check's words are a :class:`~companion.phrases.Phrase` (the Health page shows them in the
phone's language); ``mandala doctor`` prints their English. What the firmware or the system
says (an error's own text) is a plain string, shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, Protocol

from companion.phrases import Phrase, Value, say, say_n
from firmware.errors import FirmwareError
from firmware.maps import SPI_CHIP_SELECTS, PinMap, Pull, RingPins, StripConfig, pin_uses

Status = Literal["ok", "warn", "fail"]

SERVICE_USER: Final = "mandala"
"""The account ``systemd/install.sh`` creates and the unit runs as."""
SERIAL_PINS: Final = frozenset({14, 15})
SERIAL_CONSOLES: Final = ("serial0", "ttyAMA0", "ttyS0")
"""``console=`` names of the UART on GPIO14/15: ``serial0`` is its alias on every Pi (the
mini UART ``ttyS0`` on a Pi 3/4 with Bluetooth, ``ttyAMA0`` otherwise). A Pi 5's
``ttyAMA10`` is its separate debug connector, not GPIO14/15."""
SPI_DEVICE: Final = "/dev/spidev0.0"
PIO_DEVICE: Final = "/dev/pio0"
LOW_SPACE: Final = 100 * 1024 * 1024
"""Below this much free space the data directory check warns."""
NO_SPACE: Final = 5 * 1024 * 1024
"""Below this much it fails: a game's next actions may not fit."""


Words = Callable[[Phrase], str]
"""How a phrase becomes text: :meth:`Phrase.english`, or a request's language on the panel."""


@dataclass(frozen=True)
class Check:
    """One check's answer: its name, ``ok``/``warn``/``fail``, and one line of what and why
    (words to translate, or a plain string that is shown as it is)."""

    name: str
    status: Status
    words: Phrase | str

    @property
    def message(self) -> str:
        """The line of what and why, in English."""
        return self.text(Phrase.english)

    def text(self, words: Words) -> str:
        """The line of what and why, rendered by ``words``."""
        return words(self.words) if isinstance(self.words, Phrase) else self.words

    def line(self) -> str:
        """The line ``mandala doctor`` prints: ``fail pins: GPIO17 (rings[0].b) is busy ...``."""
        return f"{self.status:<4} {self.name}: {' '.join(self.message.split())}"

    def to_json(self, words: Words = Phrase.english) -> dict[str, str]:
        """The check as the Health page gets it (its message rendered by ``words``)."""
        return {"name": self.name, "status": self.status, "message": self.text(words)}


def has_failure(checks: Sequence[Check]) -> bool:
    """Say whether any check failed (``mandala doctor`` then exits 1)."""
    return any(check.status == "fail" for check in checks)


# -- probes ------------------------------------------------------------------------------------


class Files(Protocol):
    """The system's files the checks read (``/proc/cmdline``, ``/dev/spidev0.0``, ...)."""

    def read(self, path: str) -> str | None:
        """The file's text, or ``None`` when it is missing or unreadable."""
        ...

    def exists(self, path: str) -> bool:
        """Whether the path exists."""
        ...

    def usable(self, path: str) -> bool:
        """Whether this process may read and write the path."""
        ...


class Accounts(Protocol):
    """Who the service runs as, and the groups an account is in."""

    def groups_of(self, user: str) -> frozenset[str] | None:
        """The account's groups (its own group included), or ``None`` when it does not exist."""
        ...


class SaidError(Exception):
    """An error of the doctor's own whose message is words (its English in ``str(error)``)."""

    def __init__(self, words: Phrase | str) -> None:
        super().__init__(words.english() if isinstance(words, Phrase) else words)
        self.words = words


class LineBusy(SaidError, FirmwareError):
    """A GPIO line is held by someone else; the message names the holder when known."""


def reason(error: Exception) -> Phrase | str:
    """An error's message: its words when it is the doctor's own, else its text."""
    return error.words if isinstance(error, SaidError) else str(error)


class Lines(Protocol):
    """The GPIO lines the pin map names.

    ``owner`` is ``None`` when the doctor claims the lines itself (and releases them), or
    who holds them all already (the running companion, whose Health page asks).
    """

    owner: str | Phrase | None

    def holder(self, pin: int) -> str | None:
        """Who else holds the line (``None`` when it is free).

        :raises HardwareError: when there is no GPIO chip to ask.
        """
        ...

    def level(self, pin: int, pull: Pull) -> bool:
        """The line's level (``True`` high), read as an input with the bias ``pull``.

        :raises LineBusy: when someone else holds the line.
        :raises HardwareError: when there is no GPIO chip to ask.
        """
        ...


class StripProbe(Protocol):
    """The LED strip's driver and its device files."""

    emulated: bool

    def open(self, config: StripConfig) -> str | Phrase:
        """Open the driver as ``mandala serve`` would (without lighting a pixel), close it,
        and say what was opened.

        :raises HardwareError: saying why it cannot be opened.
        """
        ...


class Disk(Protocol):
    """The data directory's disk."""

    def write_test(self, folder: Path) -> str | None:
        """Write, flush and remove a small file in ``folder``; ``None`` or why not."""
        ...

    def free_bytes(self, folder: Path) -> int:
        """Bytes free for this process on ``folder``'s file system."""
        ...


class Database(Protocol):
    """The games' database, opened read-only (safe while the server runs)."""

    def quick_check(self, path: Path) -> tuple[list[str], int]:
        """``PRAGMA quick_check``'s rows and ``PRAGMA user_version``.

        :raises OSError: when the file cannot be opened (the message says why).
        """
        ...


class Clock(Protocol):
    """What the system knows about its clock's synchronisation."""

    def synchronised(self) -> tuple[bool | None, str | Phrase]:
        """Whether the clock was synchronised since boot (``None``: nothing could tell) and
        which source said so."""
        ...


# -- helpers -----------------------------------------------------------------------------------


def _is_spi(config: StripConfig) -> bool:
    return config.driver == "neopixel-spi"


def needed_groups(config: StripConfig) -> tuple[str, ...]:
    """The groups the service user needs: ``gpio`` (the GPIO chip), ``spi`` for the SPI strip."""
    return ("gpio", "spi") if _is_spi(config) else ("gpio",)


def probe_pull(ring: RingPins) -> Pull:
    """The bias to read a ring's lines at rest with.

    With an internal bias configured, that bias (as the service reads them). With none (the
    wiring guide's external 10 kOhm pull-ups), the internal bias *against* the rest level:
    a line that should rest high is read with the pull-down on, so only a working external
    pull-up makes it read high (a line left floating may read either way).
    """
    if ring.pull != "none":
        return ring.pull
    return "down" if ring.rest == "open" else "up"


def _commas(items: Sequence[Value]) -> Value:
    """``a, b, c``: the items of a list, each one of its own."""
    if len(items) == 1:
        return items[0]
    return say("{first}, {rest}", first=items[0], rest=_commas(items[1:]))


def _and(items: Sequence[Value]) -> Value:
    """``a, b and c``."""
    if len(items) == 1:
        return items[0]
    return say("{items} and {last}", items=_commas(items[:-1]), last=items[-1])


def _semicolons(items: Sequence[Phrase]) -> Phrase:
    """``a; b; c``: findings one after the other."""
    if len(items) == 1:
        return items[0]
    return say("{first}; {rest}", first=items[0], rest=_semicolons(items[1:]))


def _pins_text(pins: Sequence[str]) -> Value:
    return _and(pins)


# -- the checks --------------------------------------------------------------------------------


def check_strip(config: StripConfig, files: Files, strip: StripProbe) -> Check:
    """SPI (or the PWM/PIO device) is there and the LED driver opens."""
    name = "leds"
    if strip.emulated:
        try:
            opened = strip.open(config)
        except FirmwareError as error:
            return Check(
                name, "fail", say("the emulated strip does not open: {error}", error=reason(error))
            )
        return Check(name, "ok", say("{opened} (emulated: no SPI needed)", opened=opened))
    if _is_spi(config):
        if not files.exists(SPI_DEVICE):
            return Check(
                name,
                "fail",
                say(
                    "SPI is off (no {device}): add dtparam=spi=on to /boot/firmware/config.txt "
                    "(sudo systemd/install.sh does) and reboot",
                    device=SPI_DEVICE,
                ),
            )
        if not files.usable(SPI_DEVICE):
            return Check(
                name,
                "fail",
                say(
                    "{device} is there but this user may not use it: run as the {user} user, "
                    "or add the user to the spi group",
                    device=SPI_DEVICE,
                    user=SERVICE_USER,
                ),
            )
    elif config.driver == "pi5" and not files.exists(PIO_DEVICE):
        return Check(
            name,
            "fail",
            say(
                "no {device} for the pi5 driver: update Raspberry Pi OS (the PIO driver came "
                "with kernel 6.6) and reboot",
                device=PIO_DEVICE,
            ),
        )
    try:
        opened = strip.open(config)
    except FirmwareError as error:
        return Check(name, "fail", reason(error))
    if _is_spi(config):
        return Check(
            name, "ok", say("SPI is on ({device}) and {opened}", device=SPI_DEVICE, opened=opened)
        )
    return Check(name, "ok", opened)


def check_groups(
    config: StripConfig, accounts: Accounts, emulated: bool, user: str = SERVICE_USER
) -> Check:
    """The service user is in the groups its devices belong to."""
    name = "groups"
    if emulated:
        return Check(name, "ok", say("emulated pins and strip need no groups"))
    groups = accounts.groups_of(user)
    if groups is None:
        return Check(
            name,
            "fail",
            say(
                "there is no {user} user: install the service with sudo systemd/install.sh",
                user=repr(user),
            ),
        )
    missing = [group for group in needed_groups(config) if group not in groups]
    if missing:
        joined = ",".join(missing)
        return Check(
            name,
            "fail",
            say(
                "the {user} user is not in the {groups} group: sudo usermod -aG {joined} {user} "
                "(sudo systemd/install.sh does), then sudo systemctl restart mandala",
                user=user,
                groups=" and ".join(missing),
                joined=joined,
            ),
        )
    return Check(
        name,
        "ok",
        say("the {user} user is in {groups}", user=user, groups=", ".join(needed_groups(config))),
    )


def check_serial(pin_map: PinMap, files: Files, emulated: bool) -> Check:
    """The serial console is off when GPIO14/15 are in the pin map."""
    name = "serial"
    used = [f"GPIO{pin} ({key})" for key, pin in pin_uses(pin_map) if pin in SERIAL_PINS]
    if not used:
        return Check(
            name, "ok", say("GPIO14/15 are not in the pin map: the serial console may stay")
        )
    if emulated:
        return Check(name, "ok", say("emulated pins: no serial console on GPIO14/15"))
    cmdline = files.read("/proc/cmdline") or ""
    consoles = [
        word.split("=", 1)[1].split(",")[0]
        for word in cmdline.split()
        if word.startswith("console=")
    ]
    serial = [console for console in consoles if console in SERIAL_CONSOLES]
    fix = say(
        "turn it off: sudo raspi-config nonint do_serial_cons 1 (or raspi-config, "
        "Interface Options, Serial Port, login shell: no), then reboot"
    )
    if serial:
        return Check(
            name,
            "fail",
            say(
                "the serial console is on (console={console} in /proc/cmdline) but {pins} are "
                "ring lines: {fix}",
                console=serial[0],
                pins=_pins_text(used),
                fix=fix,
            ),
        )
    for tty in ("ttyS0", "ttyAMA0", "serial0"):
        unit = f"/etc/systemd/system/getty.target.wants/serial-getty@{tty}.service"
        if files.exists(unit):
            return Check(
                name,
                "fail",
                say(
                    "a login prompt runs on the serial port (serial-getty@{tty}) but {pins} are "
                    "ring lines: {fix}",
                    tty=tty,
                    pins=_pins_text(used),
                    fix=fix,
                ),
            )
    return Check(
        name,
        "ok",
        say("the serial console is off ({pins} are free for rings)", pins=_pins_text(used)),
    )


def check_pins_free(pin_map: PinMap, lines: Lines) -> Check:
    """Every ring and button pin of the map is free (or held by this companion)."""
    name = "pins"
    uses = [(key, pin) for key, pin in pin_uses(pin_map) if key != "leds.pin"]
    if lines.owner is not None:
        return Check(
            name,
            "ok",
            say(
                "all {count} ring and button pins are held by {owner}",
                count=len(uses),
                owner=lines.owner,
            ),
        )
    busy: list[Phrase] = []
    chip_selects = False
    try:
        for key, pin in uses:
            holder = lines.holder(pin)
            if holder is not None:
                busy.append(
                    say(
                        "GPIO{pin} ({key}) is busy, held by {holder}",
                        pin=pin,
                        key=key,
                        holder=holder,
                    )
                )
                chip_selects |= pin in SPI_CHIP_SELECTS and "spi" in holder.lower()
    except FirmwareError as error:
        return Check(name, "fail", reason(error))
    if chip_selects:
        return Check(
            name,
            "fail",
            say(
                "{busy}: SPI still keeps its chip selects on GPIO7/8; add dtoverlay=spi0-0cs to "
                "/boot/firmware/config.txt (sudo systemd/install.sh does when "
                "leds.spi_chip_selects = false) and reboot",
                busy=_semicolons(busy),
            ),
        )
    if busy:
        return Check(
            name,
            "fail",
            say(
                "{busy}: stop what holds it (sudo systemctl stop mandala if it is the companion, "
                "or open its Health page instead) or change the pin map",
                busy=_semicolons(busy),
            ),
        )
    return Check(name, "ok", say("all {count} ring and button pins are free", count=len(uses)))


def check_rest_levels(pin_map: PinMap, lines: Lines) -> Check:
    """Each encoder line sits at its ``rest`` level (catches a missing pull-up)."""
    name = "rest"
    problems: list[Phrase] = []
    unread: list[Phrase] = []
    if lines.owner is not None:  # the lines are another's: one question says whether
        try:
            lines.level(pin_map.rings[0].a, probe_pull(pin_map.rings[0]))
        except LineBusy as error:
            return Check(
                name,
                "warn",
                say(
                    "not read: the encoder lines are {error}: its Health page reads them; or "
                    "stop it (sudo systemctl stop mandala) and check again",
                    error=reason(error),
                ),
            )
    for index, ring in enumerate(pin_map.rings):
        pull = probe_pull(ring)
        levels: list[bool | None] = []
        for line, pin in (("A", ring.a), ("B", ring.b)):
            try:
                levels.append(lines.level(pin, pull))
            except LineBusy as error:
                unread.append(
                    say(
                        "ring {index} line {line} (GPIO{pin}: {error})",
                        index=index,
                        line=line,
                        pin=pin,
                        error=reason(error),
                    )
                )
                levels.append(None)
            except FirmwareError as error:
                return Check(name, "fail", reason(error))
        problem = _rest_problem(index, ring, levels, pull)
        if problem is not None:
            problems.append(problem)
    if problems:
        return Check(name, "fail", _semicolons(problems))
    if unread:
        return Check(name, "warn", say("not read: {lines}", lines=_semicolons(unread)))
    return Check(
        name,
        "ok",
        say("all {count} rings rest with both lines at their rest level", count=len(pin_map.rings)),
    )


def _rest_problem(
    index: int, ring: RingPins, levels: Sequence[bool | None], pull: Pull
) -> Phrase | None:
    a, b = levels
    if ring.edges_per_detent == 2:  # rests at both levels in turn: A and B agree in a detent
        if a is None or b is None or a == b:
            return None
        return say(
            "ring {index}: line A (GPIO{a}) reads {a_level} and B (GPIO{b}) {b_level}: the ring "
            "is between two clicks (turn it into one) or a line's pull-up is missing",
            index=index,
            a=ring.a,
            a_level=_level(a),
            b=ring.b,
            b_level=_level(b),
        )
    want = ring.rest == "open"
    wrong = [
        (line, pin)
        for line, pin, level in (("A", ring.a, a), ("B", ring.b, b))
        if level is not None and level != want
    ]
    if not wrong:
        return None
    said = _and([say("line {line} (GPIO{pin})", line=line, pin=pin) for line, pin in wrong])
    rest = say('rest = "{rest}" expects {level}', rest=ring.rest, level=_level(want))
    why: list[Phrase] = []
    if want:
        why.append(
            say(
                "a missing pull-up (10 kOhm to 3.3 V), a broken wire, or the ring is between "
                "two clicks (turn it into one and check again)"
            )
        )
        if pull == "down":
            why.append(
                say("it was read with the Pi's pull-down on, so only a pull-up makes it high")
            )
    else:
        why.append(
            say('the encoder\'s common is not on ground, or it rests open: set rest = "open"')
        )
    if len(wrong) == 2 and want:
        why.append(say('an encoder that rests closed needs rest = "closed"'))
    values: dict[str, Value] = {
        "index": index,
        "lines": said,
        "level": _level(not want),
        "rest": rest,
        "why": _semicolons(why),
    }
    return say_n(
        "ring {index}: {lines} reads {level} at rest ({rest}): {why}",
        "ring {index}: {lines} read {level} at rest ({rest}): {why}",
        len(wrong),
        **values,
    )


def _level(high: bool) -> Phrase:
    if high:
        # TRANSLATORS: a GPIO line's level, as an electrician says it ("reads high at rest")
        return say("high")
    # TRANSLATORS: a GPIO line's level, as an electrician says it ("reads low at rest")
    return say("low")


def check_data_dir(folder: Path, disk: Disk, *, serving: bool = False) -> Check:
    """The data directory is writable, with its free space (``serving``: this companion
    runs on it, so it must be there)."""
    name = "data"
    if not folder.is_dir() and serving:
        return Check(
            name,
            "fail",
            say(
                "{folder} is gone: every change is refused until it is back; check the disk, "
                "then restart the companion (sudo systemctl restart mandala)",
                folder=str(folder),
            ),
        )
    if not folder.is_dir():
        return Check(
            name,
            "warn",
            say(
                "{folder} does not exist yet: the companion creates it at its first start "
                "(check again after starting it)",
                folder=str(folder),
            ),
        )
    problem = disk.write_test(folder)
    if problem is not None:
        return Check(
            name,
            "fail",
            say(
                "{folder} is not writable ({problem}): games cannot be saved; check the disk "
                "(read-only after an error?) and that it belongs to the {user} user",
                folder=str(folder),
                problem=problem,
                user=SERVICE_USER,
            ),
        )
    free = disk.free_bytes(folder)
    values: dict[str, Value] = {"folder": str(folder), "free": _size(free)}
    if free < NO_SPACE:
        return Check(
            name,
            "fail",
            say(
                "{folder} is writable, {free} free: free some space, games cannot be saved",
                **values,
            ),
        )
    if free < LOW_SPACE:
        return Check(
            name, "warn", say("{folder} is writable, {free} free: free some space soon", **values)
        )
    return Check(name, "ok", say("{folder} is writable, {free} free", **values))


def _size(count: int) -> Value:
    """A size to one decimal (``75.1 GB``), its decimal mark the reader's language's."""
    if count >= 1024**3:
        whole, tenth = f"{count / 1024**3:.1f}".split(".")
        # TRANSLATORS: a size: {whole} and {tenth} are its digits, put your decimal mark between
        return say("{whole}.{tenth} GB", whole=whole, tenth=tenth)
    if count >= 1024**2:
        whole, tenth = f"{count / 1024**2:.1f}".split(".")
        # TRANSLATORS: a size: {whole} and {tenth} are its digits, put your decimal mark between
        return say("{whole}.{tenth} MB", whole=whole, tenth=tenth)
    if count >= 1024:
        whole, tenth = f"{count / 1024:.1f}".split(".")
        # TRANSLATORS: a size: {whole} and {tenth} are its digits, put your decimal mark between
        return say("{whole}.{tenth} kB", whole=whole, tenth=tenth)
    return say("{count} bytes", count=count)


def check_database(path: Path, database: Database, schema_version: int) -> Check:
    """The database passes ``PRAGMA quick_check`` and is not from a newer release."""
    name = "database"
    if not path.exists():
        return Check(
            name, "ok", say("no {file} yet: it is created at the first start", file=path.name)
        )
    try:
        rows, version = database.quick_check(path)
    except OSError as error:
        return Check(
            name,
            "warn",
            say(
                "{path} cannot be read here ({error}): run as root or the {user} user",
                path=str(path),
                error=str(error),
                user=SERVICE_USER,
            ),
        )
    if rows != ["ok"]:
        found = "; ".join(rows[:3])
        return Check(
            name,
            "fail",
            say(
                "{path} is damaged ({found}): copy it somewhere safe; at its next start the "
                "companion keeps it aside as {file}.damaged-<time> and starts a new one",
                path=str(path),
                found=found,
                file=path.name,
            ),
        )
    if version > schema_version:
        return Check(
            name,
            "fail",
            say(
                "{path} is from a newer release (schema {version}, this one reads {schema}): "
                "install the newer mandala-companion again",
                path=str(path),
                version=version,
                schema=schema_version,
            ),
        )
    return Check(
        name,
        "ok",
        say("{path} passes quick_check (schema {version})", path=str(path), version=version),
    )


def check_clock(clock: Clock) -> Check:
    """The clock was synchronised (a Pi has no battery clock: game times need the network)."""
    name = "clock"
    synced, source = clock.synchronised()
    if synced:
        return Check(name, "ok", say("synchronised ({source})", source=source))
    advice = say(
        "game times may be wrong until the Pi reaches a time server; connect it to a network "
        "with internet access (timedatectl timesync-status shows progress)"
    )
    if synced is False:
        said = say(
            "the clock was never synchronised since boot ({source}): {advice}",
            source=source,
            advice=advice,
        )
    else:
        said = say(
            "the clock was synchronisation unknown ({source}): {advice}",
            source=source,
            advice=advice,
        )
    return Check(name, "warn", said)


# -- all of them -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Probes:
    """Everything the checks ask, for one place (a Pi, emulation, the running server)."""

    files: Files
    accounts: Accounts
    lines: Lines
    strip: StripProbe
    disk: Disk
    database: Database
    clock: Clock
    emulated: bool


def run_checks(
    pin_map: PinMap,
    data_dir: Path,
    probes: Probes,
    *,
    schema_version: int,
    db_name: str,
    serving: bool = False,
) -> list[Check]:
    """Run every check in the order ``mandala doctor`` prints them."""
    return [
        check_strip(pin_map.leds, probes.files, probes.strip),
        check_groups(pin_map.leds, probes.accounts, probes.emulated),
        check_serial(pin_map, probes.files, probes.emulated),
        check_pins_free(pin_map, probes.lines),
        check_rest_levels(pin_map, probes.lines),
        check_data_dir(data_dir, probes.disk, serving=serving),
        check_database(data_dir / db_name, probes.database, schema_version),
        check_clock(probes.clock),
    ]
