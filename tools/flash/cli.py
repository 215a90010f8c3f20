"""The command line: `flash` and `python -m tools.flash`."""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path

from .boards import known_boards
from .common import BOARDS, FIRMWARE, PACKAGE_JSON, FlashError, say
from .flasher import Flasher
from .package import check_output_file, write_package_json
from .stage import check_stage_root


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="flash",
        description="Take the Scopa firmware to a MicroPython board (see tools/flash/__init__.py).",
    )
    p.add_argument("--board", help="a folder of boards/, e.g. pico_ssd1306 (or its path)")
    p.add_argument(
        "--port",
        default="auto",
        help="serial port of the board (default: auto, the first USB serial device)",
    )
    p.add_argument(
        "--source",
        action="store_true",
        help="copy .py sources instead of compiling them with mpy-cross",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="look at the board and show what would change, change nothing (no board "
        "attached: what a fresh flash of --board would write)",
    )
    p.add_argument(
        "--wipe",
        action="store_true",
        help="first remove every file an earlier flash wrote (never other files)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="replace the files of the app's paths (main.py, app.py, ...) that the flash "
        "tool did not write, e.g. another program's (without it the flash refuses)",
    )
    p.add_argument(
        "--offline",
        metavar="DIR",
        help="install the board's libraries from DIR instead of with mip",
    )
    p.add_argument(
        "--write-package-json",
        nargs="?",
        const=str(PACKAGE_JSON),
        metavar="PATH",
        help="write the firmware's mip package.json (default: at the repo root)",
    )
    hidden = argparse.SUPPRESS
    p.add_argument("--boards-dir", help=hidden)
    p.add_argument("--firmware-dir", help=hidden)
    p.add_argument("--mip-index", help=hidden)
    p.add_argument(
        "--stage",
        metavar="DIR",
        help="build the staging folder in DIR and keep it (default: a temporary one): as a "
        "board is flashed or looked at, or with --dry-run and no board, its sources (the "
        "board's .mpy format is unknown). DIR: new, empty, or one flash made, outside the "
        "firmware and boards folders; the next run removes only the files flash wrote there, "
        "and refuses a DIR that holds anything else",
    )
    p.add_argument("--timeout", type=float, default=10.0, help=hidden)
    p.add_argument("--host-board", action="store_true", help=hidden)
    args = p.parse_args(argv)
    for name in ("stage", "offline", "write_package_json"):  # (`--stage=~/x`: no shell's ~)
        value = getattr(args, name)
        if value:
            setattr(args, name, os.path.expanduser(value))
    try:
        check_values(args)
        if not args.board and not args.write_package_json:
            known = ", ".join(known_boards(boards_dir(args)))
            p.error(f"--board is required (boards: {known or 'none'})")
        check_paths(args)
    except FlashError as e:  # one line, without the usage: it is about the value
        why = f"{e.what}; {e.todo}" if e.todo else e.what
        p.exit(2, f"{p.prog}: error: {why}\n")
    return args


def check_values(args: argparse.Namespace) -> None:
    """Refuse an empty value (`--stage ''`), which would read as the option
    not given. Raises FlashError naming the option."""
    empty = [
        ("--port", args.port, "name the board's serial port, or leave --port out to find it"),
        ("--stage", args.stage, "name a folder, or leave --stage out"),
        ("--write-package-json", args.write_package_json, "name a file, or give no PATH"),
        ("--offline", args.offline, "name the folder of the libraries"),
    ]
    for option, value, todo in empty:
        if value == "":
            raise FlashError(f"{option} is empty", todo)


def check_paths(args: argparse.Namespace) -> None:
    """Look at the folder of --stage and the file of --write-package-json
    before anything runs. Raises FlashError naming the option."""
    fw_dir = firmware_dir(args)
    boards = boards_dir(args)
    checks = [
        ("--stage", args.stage, lambda path: check_stage_root(path, fw_dir, boards)),
        ("--write-package-json", args.write_package_json, check_output_file),
    ]
    for option, value, check in checks:
        if value:
            try:
                check(Path(value))
            except FlashError as e:
                e.what = f"{option} {e.what}"
                raise


def firmware_dir(args: argparse.Namespace) -> Path:
    """The firmware folder the tool stages: --firmware-dir, SCOPA_FIRMWARE_DIR or firmware/."""
    return Path(args.firmware_dir or os.environ.get("SCOPA_FIRMWARE_DIR") or FIRMWARE)


def boards_dir(args: argparse.Namespace) -> Path:
    """The boards folder: --boards-dir, SCOPA_BOARDS_DIR or boards/."""
    return Path(args.boards_dir or os.environ.get("SCOPA_BOARDS_DIR") or BOARDS)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # the staging folder and the board cleaned up as on Ctrl-C


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # a closed terminal (SIGHUP), an IDE's stop button (SIGTERM): as Ctrl-C
    caught = [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    before = {sig: signal.signal(sig, _interrupt) for sig in caught}
    try:
        return _main(args)
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _main(args: argparse.Namespace) -> int:
    flasher: Flasher | None = None
    try:
        if args.write_package_json:
            path = Path(args.write_package_json)
            write_package_json(path, firmware_dir(args))
            say(f"wrote {path}")
            if not args.board:
                return 0
        flasher = Flasher(args)
        return flasher.run()
    except FlashError as e:
        if flasher is not None and flasher.midline:  # a copy's line: end it
            say()
        say(f"flash: {e.what}", err=True)
        if e.todo:
            say(f"  what to do: {e.todo}", err=True)
        return 1
    except KeyboardInterrupt:
        if flasher is not None and flasher.midline:  # a copy's progress line: end it
            say()
        if flasher is not None and flasher.touched:
            say("flash: interrupted; run flash again to finish", err=True)
        else:
            say("flash: interrupted; the board was not changed", err=True)
        return 130
