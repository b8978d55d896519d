"""A stand-in for the Linux spidev device (``/dev/spidevB.C``) at the system-call boundary.

Blinka's ``busio.SPI`` on a Raspberry Pi goes through ``Adafruit_PureIO.spi.SPI``, which
checks ``os.path.exists("/dev/spidev0.0")``, opens it with ``os.open`` and then speaks only
``fcntl.ioctl``: ``SPI_IOC_WR_MODE``/``BITS_PER_WORD``/``MAX_SPEED_HZ`` (and their reads)
and ``SPI_IOC_MESSAGE(1)`` with a ``struct spi_ioc_transfer`` whose ``tx_buf`` is a pointer
to the bytes to send. This module replaces exactly those four calls for spidev paths (every
other path and descriptor goes to the real ones) and answers as the spidev driver does:
reads return what was written (the kernel's defaults first), a transfer with ``speed_hz`` 0
goes out at the device's ``max_speed_hz``. Each call is appended as one JSON line to the
file named by ``SPIDEV_STANDIN`` (``open``, ``mode``, ``bits``, ``speed``, ``transfer`` with
the bytes in hex, ``close``).

``SPIDEV_STANDIN_DEVICES`` lists the devices that exist (comma-separated; default
``/dev/spidev0.0,/dev/spidev0.1``; empty: SPI is off); ``SPIDEV_STANDIN_DENY`` those the
user may not open (not in the spi group). :func:`activate` installs it; the
``sitecustomize`` next to it does so in any Python started with this directory on
``PYTHONPATH`` and ``SPIDEV_STANDIN`` set.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import struct
import threading
from typing import Any

_TRANSFER = "QQIIHBBBBH"  # struct spi_ioc_transfer, as PureIO packs it
_SPI_MAGIC = ord("k")
_WRITE, _READ = 1, 2
KERNEL_MAX_SPEED_HZ = 125_000_000  # the Pi's device tree: spi-max-frequency


class _Device:
    def __init__(self, path: str) -> None:
        self.path = path
        self.mode = 0
        self.bits = 8
        self.speed = KERNEL_MAX_SPEED_HZ


_real_exists = os.path.exists
_real_open = os.open
_real_close = os.close
_real_ioctl = fcntl.ioctl
_open: dict[int, _Device] = {}
_lock = threading.Lock()


def _devices() -> set[str]:
    text = os.environ.get("SPIDEV_STANDIN_DEVICES", "/dev/spidev0.0,/dev/spidev0.1")
    return {name.strip() for name in text.split(",") if name.strip()}


def _log(record: dict[str, Any]) -> None:
    path = os.environ.get("SPIDEV_STANDIN")
    if path:
        with open(path, "a", encoding="utf-8") as file:
            file.write(json.dumps(record) + "\n")


def _is_spidev(path: Any) -> bool:
    return isinstance(path, str) and path.startswith("/dev/spidev")


def exists(path: Any) -> bool:
    if _is_spidev(path):
        return path in _devices()
    return _real_exists(path)


def open_(path: Any, flags: int, mode: int = 0o777, *, dir_fd: Any = None) -> int:
    if not _is_spidev(path):
        return _real_open(path, flags, mode, dir_fd=dir_fd)
    if path not in _devices():
        raise FileNotFoundError(2, "No such file or directory", path)
    if path in os.environ.get("SPIDEV_STANDIN_DENY", "").split(","):
        raise PermissionError(13, "Permission denied", path)  # crw-rw---- root:spi
    fd = _real_open(os.devnull, os.O_RDWR)  # a real descriptor number, never reused twice
    with _lock:
        _open[fd] = _Device(path)
    _log({"op": "open", "path": path, "fd": fd})
    return fd


def close(fd: int) -> None:
    with _lock:
        device = _open.pop(fd, None)
    if device is not None:
        _log({"op": "close", "path": device.path, "fd": fd})
    _real_close(fd)


def ioctl(fd: Any, request: int, arg: Any = 0, mutate_flag: bool = True) -> Any:
    device = _open.get(fd) if isinstance(fd, int) else None
    if device is None:
        return _real_ioctl(fd, request, arg, mutate_flag)
    direction, size = (request >> 30) & 3, (request >> 16) & 0x3FFF
    kind, number = (request >> 8) & 0xFF, request & 0xFF
    if kind != _SPI_MAGIC:
        raise OSError(25, "Inappropriate ioctl for device")
    if number == 0 and direction == _WRITE:
        return _transfer(device, bytes(arg), size)
    fields = {1: "mode", 3: "bits", 4: "speed", 5: "mode"}
    field = fields.get(number)
    if field is None:
        raise OSError(22, "Invalid argument")
    if direction == _READ:
        arg[0] = getattr(device, field)
        return 0
    value = struct.unpack("=I" if size == 4 else "=B", bytes(arg))[0]
    setattr(device, field, value)
    _log({"op": field, "path": device.path, "value": value})
    return 0


def _transfer(device: _Device, raw: bytes, size: int) -> int:
    count = size // struct.calcsize(_TRANSFER)
    sent = 0
    for i in range(count):
        tx, _rx, length, speed, delay, bits, *_ = struct.unpack_from(
            _TRANSFER, raw, i * struct.calcsize(_TRANSFER)
        )
        data = ctypes.string_at(tx, length) if tx else bytes(length)
        _log(
            {
                "op": "transfer",
                "path": device.path,
                "speed_hz": speed or device.speed,
                "bits": bits or device.bits,
                "mode": device.mode,
                "delay_usecs": delay,
                "data": data.hex(),
            }
        )
        sent += length
    return sent


def activate() -> None:
    """Route spidev paths and descriptors to the stand-in (idempotent)."""
    os.path.exists = exists
    os.open = open_  # type: ignore[assignment]
    os.close = close
    fcntl.ioctl = ioctl  # type: ignore[assignment]
