"""The command line: `flash` and `python -m tools.flash`."""

from __future__ import annotations

import argparse
import os
import sys
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
        help="build the staging folder in DIR and keep it: a new or empty folder, or one "
        "flash made before (default: a temporary one)",
    )
    p.add_argument("--timeout", type=float, default=10.0, help=hidden)
    p.add_argument("--host-board", action="store_true", help=hidden)
    args = p.parse_args(argv)
    if not args.board and not args.write_package_json:
        known = ", ".join(
            known_boards(Path(args.boards_dir or os.environ.get("SCOPA_BOARDS_DIR") or BOARDS))
        )
        p.error(f"--board is required (boards: {known or 'none'})")
    try:
        check_paths(args)
    except FlashError as e:
        p.error(f"{e.what}; {e.todo}" if e.todo else e.what)
    return args


def check_paths(args: argparse.Namespace) -> None:
    """Look at the folder of --stage and the file of --write-package-json
    before anything runs. Raises FlashError naming the option."""
    checks = [
        ("--stage", args.stage, check_stage_root),
        ("--write-package-json", args.write_package_json, check_output_file),
    ]
    for option, value, check in checks:
        if value:
            try:
                check(Path(value))
            except FlashError as e:
                e.what = f"{option} {e.what}"
                raise


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.write_package_json:
            fw_dir = Path(args.firmware_dir or os.environ.get("SCOPA_FIRMWARE_DIR") or FIRMWARE)
            path = Path(args.write_package_json)
            write_package_json(path, fw_dir)
            say(f"wrote {path}")
            if not args.board:
                return 0
        return Flasher(args).run()
    except FlashError as e:
        print(f"flash: {e.what}", file=sys.stderr)
        if e.todo:
            print(f"  what to do: {e.todo}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("flash: interrupted; run flash again to finish", file=sys.stderr)
        return 130
