"""Stand-ins for what this machine lacks: lgpio's C calls on a Pi's header, a Pi's files.

:class:`Header` answers the ``lgpio`` calls the doctor makes as lgpio does on a Pi 4
(gpiochip0 labelled ``pinctrl-bcm2711``): ``gpio_get_line_info`` returns ``[status, offset,
flags, name, user]`` with bit 0 of the flags set for a line in use, claiming a line someone
else holds raises ``lgpio.error("GPIO busy")``, and a line reads as its wiring makes it: an
external pull-up wins over the Pi's internal bias, otherwise the bias decides (a line with no
bias at all reads low, as a floating CMOS input near ground may).
"""

from __future__ import annotations

from pathlib import Path

SET_PULL_UP = 32
SET_PULL_DOWN = 64
SET_PULL_NONE = 128


class error(Exception):  # lgpio's own name for its exception
    """lgpio's exception: a plain ``Exception`` carrying lgpio's error text."""


class Header:
    """A Pi's GPIO header behind lgpio's calls."""

    error = error

    def __init__(self, pulled_up: set[int], busy: dict[int, str] | None = None) -> None:
        self.pulled_up = set(pulled_up)
        self.busy = dict(busy or {})
        self.bias: dict[int, int] = {}
        self.claimed: set[int] = set()
        self.open_handles: set[int] = set()

    def gpiochip_open(self, number: int) -> int:
        if number != 0:
            raise error("can not open gpiochip")
        self.open_handles.add(number)
        return number

    def gpiochip_close(self, handle: int) -> int:
        self.open_handles.discard(handle)
        return 0

    def gpio_get_chip_info(self, handle: int) -> list[object]:
        return [0, 58, "gpiochip0", "pinctrl-bcm2711"]

    def gpio_get_line_info(self, handle: int, gpio: int) -> list[object]:
        in_use = gpio in self.busy or gpio in self.claimed
        return [0, gpio, 1 if in_use else 0, f"GPIO{gpio}", self.busy.get(gpio, "")]

    def gpio_claim_input(self, handle: int, gpio: int, flags: int = 0) -> int:
        if gpio in self.busy:
            raise error("GPIO busy")
        self.claimed.add(gpio)
        self.bias[gpio] = flags
        return 0

    def gpio_read(self, handle: int, gpio: int) -> int:
        if gpio not in self.claimed:
            raise error("GPIO not allocated")
        if gpio in self.pulled_up:
            return 1
        return 1 if self.bias[gpio] & SET_PULL_UP else 0

    def gpio_free(self, handle: int, gpio: int) -> int:
        self.claimed.discard(gpio)
        return 0


def pi_files(root: Path, *, cmdline: str = "console=tty1 root=PARTUUID=1 rootwait") -> Path:
    """A Pi's files under ``root``: SPI on, the mandala user in gpio and spi, a kernel
    command line (the serial console off unless ``cmdline`` says otherwise)."""
    (root / "dev").mkdir(parents=True)
    (root / "dev" / "spidev0.0").write_bytes(b"")
    (root / "proc").mkdir()
    (root / "proc" / "cmdline").write_text(cmdline + "\n")
    (root / "etc").mkdir()
    (root / "etc" / "passwd").write_text(
        "root:x:0:0:root:/root:/bin/bash\nmandala:x:995:995::/var/lib/mandala:/usr/sbin/nologin\n"
    )
    (root / "etc" / "group").write_text(
        "root:x:0:\ngpio:x:997:pi,mandala\nspi:x:999:pi,mandala\nmandala:x:995:\n"
    )
    return root
