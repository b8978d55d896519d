"""The ``mandala`` command: replay records, score sheets, check board files, serve the panel,
print a code that makes a phone the box's owner (``mandala pair``), back up and restore the
data directory (``mandala backup``, ``mandala restore``).

Every failure caused by the input ends with exit status 2, nothing on stdout and one line on
stderr that says what and where; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn, TextIO

from companion.games import engine
from companion.games.base import GAME_ERRORS, RecordError, as_dict, get, replay

EXIT_BAD_INPUT = 2


class InputError(RecordError):
    """A file or stream that cannot be used; the message says which and why."""


def read_text(name: str, stdin: TextIO) -> str:
    """Read a file's text, or standard input for ``-``."""
    if name == "-":
        return stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise InputError(f"{name}: cannot read: {reason}") from error


def read_json(name: str, stdin: TextIO) -> Any:
    """Read and parse a JSON file (or ``-``)."""
    text = read_text(name, stdin)
    label = "stdin" if name == "-" else name
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{label}: not JSON: line {error.lineno} column {error.colno}: {error.msg}"
        ) from error
    except RecursionError as error:
        raise InputError(f"{label}: not JSON: nested too deeply") from error


def cmd_replay(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Replay a record of any game and return its summary."""
    record = as_dict(read_json(args.record, stdin), "record")
    game = engine(get(record, "game"))
    return game.summary(replay(game, record))


def cmd_score(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Score a card-game score sheet."""
    from companion.games import cards

    return cards.score_sheet(read_json(args.sheet, stdin))


def cmd_board_check(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Validate a ring-board file and describe it."""
    from companion.games import rings

    label = "stdin" if args.file == "-" else args.file
    board = rings.parse_board_text(read_text(args.file, stdin), label)
    return rings.board_report(board)


def cmd_serve(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Run the companion: the table, its rings (real or emulated) and the panel."""
    from companion import serve

    status = serve.run(cmd_options(args), args.stdout, args.stderr)
    if status:
        raise SystemExit(status)
    return None


def cmd_doctor(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Check this box: SPI, groups, serial console, pins, rest levels, data, database, clock."""
    from companion.doctor.command import doctor

    options = cmd_options(args)
    status = doctor(options, args.stdout)
    if status:
        raise SystemExit(status)
    return None


def cmd_options(args: argparse.Namespace) -> Any:
    """The config file's options with those given on the command line over them."""
    from companion import config

    options = config.ServeOptions()
    if args.config is not None:
        options = config.read_config(Path(args.config))
    overrides: dict[str, Any] = {
        "host": getattr(args, "host", None),
        "port": getattr(args, "port", None),
        "data": Path(args.data) if args.data is not None else None,
        "hardware": "emulate" if args.emulate else None,
    }
    return replace(options, **{k: v for k, v in overrides.items() if v is not None})


def cmd_pair(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Print a one-time code that makes a phone the box's owner (the code is the last line)."""
    import time

    from companion.table.errors import StorageError
    from companion.table.owner import CODE_SECONDS, add_pair_code, code_digest, new_pair_code

    options = cmd_options(args)
    code = new_pair_code()
    try:
        add_pair_code(options.data_dir, code_digest(code), time.time() + CODE_SECONDS)
    except StorageError as error:
        raise InputError(str(error)) from error
    print_access_point(options.data_dir, args.stdout)
    print(
        f"mandala: on the phone, open Owner on the panel's home page and enter this code "
        f"(it works once, for {CODE_SECONDS // 60} minutes):",
        file=args.stdout,
    )
    print(code, file=args.stdout)
    return None


def print_access_point(data_dir: Path, stdout: TextIO) -> None:
    """Print the box's own Wi-Fi and its password (``companion.box.wifi``)."""
    from companion.box.wifi import Wifi, WifiError

    try:
        point = Wifi(data_dir).access_point()
    except WifiError as error:
        print(f"mandala: the box's own Wi-Fi: {error}", file=stdout)
        return
    print(
        f"mandala: the box's own Wi-Fi (opened when it finds no known network, or when the "
        f"done button is held for 3 s): {point.ssid}, password {point.password}; then open "
        f"http://{point.address}/",
        file=stdout,
    )


def cmd_backup(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Write a backup of the data directory to FILE (the server may be running)."""
    from companion.files import write_file
    from companion.table import backup

    data = cmd_options(args).data_dir
    try:
        write_file(Path(args.file), backup.make_backup(data))
    except OSError as error:
        raise InputError(
            f"{args.file}: cannot write the backup: {error.strerror or error}"
        ) from error
    print(f"mandala: backed up {data} to {args.file}", file=args.stdout)
    return None


def cmd_restore(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Replace the data directory with a backup's (the server must be stopped)."""
    from companion.table import backup
    from companion.table.lock import DataDirInUse, lock_data_dir

    data = cmd_options(args).data_dir
    try:
        content = Path(args.file).read_bytes()
    except OSError as error:
        raise InputError(f"{args.file}: cannot read: {error.strerror or error}") from error
    backup.check_backup(content)  # a foreign, damaged or newer file: refused before any change
    try:
        data.mkdir(parents=True, exist_ok=True)
        lock = lock_data_dir(data)  # no server may start while the files change
    except DataDirInUse as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(f"data: cannot use {data}: {error.strerror or error}") from None
    try:
        header, kept = backup.restore_files(data, content)
    except OSError as error:
        raise InputError(f"data: cannot restore into {data}: {error.strerror or error}") from None
    finally:
        lock.release()
    said = f"; what was there is kept as {kept}" if kept is not None else ""
    print(
        f"mandala: restored {data} from {args.file} (made {header.created} by release "
        f"{header.release}){said}",
        file=args.stdout,
    )
    return None


def port_number(text: str) -> int:
    """Read ``--port`` (0 picks a free port)."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number 0..65535")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    """Describe the command line."""
    parser = argparse.ArgumentParser(prog="mandala", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay_cmd = commands.add_parser("replay", help="replay a game record, print its summary")
    replay_cmd.add_argument("record", metavar="RECORD.json", help="the record, or - for stdin")
    replay_cmd.set_defaults(run=cmd_replay)

    score_cmd = commands.add_parser("score", help="score a card-game score sheet")
    score_cmd.add_argument("sheet", metavar="SHEET.json", help="the sheet, or - for stdin")
    score_cmd.set_defaults(run=cmd_score)

    board_cmd = commands.add_parser("board", help="ring-board files")
    board_commands = board_cmd.add_subparsers(dest="board_command", required=True)
    check_cmd = board_commands.add_parser("check", help="validate a board file")
    check_cmd.add_argument("file", metavar="FILE.toml", help="the board file (TOML or JSON)")
    check_cmd.set_defaults(run=cmd_board_check)

    serve_cmd = commands.add_parser("serve", help="run the companion and its phone panel")
    serve_cmd.add_argument(
        "--emulate", action="store_true", help="emulated rings and LEDs (the default off a Pi)"
    )
    serve_cmd.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve_cmd.add_argument(
        "--port", type=port_number, help="port to listen on (default 8000; 0 picks a free one)"
    )
    serve_cmd.add_argument("--data", metavar="DIR", help="where games and boards are kept")
    serve_cmd.add_argument("--config", metavar="FILE", help="a TOML config file")
    serve_cmd.set_defaults(run=cmd_serve)

    doctor_cmd = commands.add_parser(
        "doctor", help="check the Pi, the wiring and the data: one line per check"
    )
    doctor_cmd.add_argument(
        "--emulate", action="store_true", help="check the emulated pins and strip"
    )
    doctor_cmd.add_argument("--config", metavar="FILE", help="the service's TOML config file")
    doctor_cmd.add_argument("--data", metavar="DIR", help="where games are kept")
    doctor_cmd.set_defaults(run=cmd_doctor)

    pair_cmd = commands.add_parser("pair", help="print a code that makes a phone the owner")
    pair_cmd.add_argument("--data", metavar="DIR", help="the data directory the server uses")
    pair_cmd.add_argument("--config", metavar="FILE", help="the server's TOML config file")
    pair_cmd.set_defaults(run=cmd_pair, emulate=False)

    backup_cmd = commands.add_parser("backup", help="back up the data directory to one file")
    backup_cmd.add_argument("file", metavar="FILE", help="the backup file to write")
    restore_cmd = commands.add_parser(
        "restore", help="replace the data directory with a backup's (the server stopped)"
    )
    restore_cmd.add_argument("file", metavar="FILE", help="the backup file to restore")
    for command, run in ((backup_cmd, cmd_backup), (restore_cmd, cmd_restore)):
        command.add_argument("--data", metavar="DIR", help="the data directory the server uses")
        command.add_argument("--config", metavar="FILE", help="the server's TOML config file")
        command.set_defaults(run=run, emulate=False)
    return parser


def fail(message: str, stderr: TextIO) -> NoReturn:
    """Print one line on stderr and exit with status 2."""
    print(f"mandala: {' '.join(message.split())}", file=stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; return the exit status (argparse's own errors also exit 2)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace, TextIO], Any] = args.run
    args.stdout, args.stderr = stdout, stderr
    try:
        result = run(args, stdin)
    except GAME_ERRORS as error:  # InputError is a RecordError
        fail(str(error), stderr)
    if result is not None:
        print(json.dumps(result), file=stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
