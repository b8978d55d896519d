"""Make a release file of this checkout: ``.venv/bin/python tools/release.py [REF] [--out DIR]``.

The file (``companion.box.release`` describes it) holds what commit or tag ``REF`` (default
``HEAD``) holds, never uncommitted changes; its release is that commit's ``pyproject.toml``
version. It is written to ``DIR/mandala-companion-<release>.mandala-release`` (default: the
current directory) and its name printed. Upload it on the box's ``/box`` page ("Install a
newer release"); the box refuses it unless it is newer than the box's own release.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.box.release import SUFFIX, ReleaseRefused, read_header, release_from_git


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/release.py", description=__doc__)
    parser.add_argument("ref", nargs="?", default="HEAD", help="a commit or tag (HEAD)")
    parser.add_argument("--out", type=Path, default=Path(), help="the folder to write into")
    parser.add_argument(
        "--checkout", type=Path, default=Path(__file__).resolve().parents[1],
        help="the git checkout (this one)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    try:
        data = release_from_git(args.checkout, args.ref)
    except ReleaseRefused as error:
        print(f"release: {error}", file=sys.stderr)
        return 2
    header, _ = read_header(data)
    path = args.out / f"mandala-companion-{header.release}{SUFFIX}"
    path.write_bytes(data)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
