"""What every part of the flash tool shares: the repository's folders, the
names it writes on a board, its error and how it talks to the user."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
FIRMWARE = REPO / "firmware"
BOARDS = REPO / "boards"
PACKAGE_JSON = REPO / "package.json"
MPY_CACHE = REPO / "build" / "mpy-cache"  # compiled files, by content (compiler.Compiler)

RECORD = ".flash.json"  # on the board: what the tool wrote
TMP_SUFFIX = ".flash-new"  # a file being written
PAUSED_MAIN = "main.py.flash-off"  # main.py while a flash is under way
LIB = "lib"  # where libraries go (/lib on a board)
CHUNK = 1024  # bytes of a file per write command
BAUDRATE = 115200
MIP_TIMEOUT = 300  # seconds for one `mpremote mip install`
MIP_SILENCE = 60  # seconds it may print nothing (a stalled board or network)


class FlashError(Exception):
    """Why the flash cannot go on (`what`) and what to do about it (`todo`)."""

    def __init__(self, what: str, todo: str = "") -> None:
        super().__init__(what)
        self.what = what
        self.todo = todo


def say(*parts: object, end: str = "\n", err: bool = False) -> None:
    """Print to stdout (stderr with `err`), flushed. A reader gone (`flash
    ... | head`) silences the stream, not the flash: a board is never left
    half written because nobody reads what the tool says."""
    stream = sys.stderr if err else sys.stdout
    try:
        print(*parts, end=end, file=stream, flush=True)
    except BrokenPipeError:
        # what comes next (and Python's flush at the exit) goes nowhere
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)


def kib(n: int) -> str:
    """A size for people: 612 B, 4.9 KiB, 1.2 MiB, 79.6 GiB."""
    if n < 1024:
        return f"{n} B"
    size = n / 1024
    for unit in ("KiB", "MiB"):
        if size < 1024:
            return f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GiB"
