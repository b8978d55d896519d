"""A Pi's files under a folder, for the checks that read ``/dev``, ``/proc`` and ``/etc``.

lgpio's C calls come from ``tests/firmware/standin/lgpio.py`` (the ``lgpio_kernel``
fixture in process, ``standin_env`` for a subprocess).
"""

from __future__ import annotations

from pathlib import Path


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
