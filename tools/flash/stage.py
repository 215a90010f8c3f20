"""The staging folder: every file a board gets, at the path it has there."""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .boards import BoardConfig
from .common import LIB, RECORD, FlashError
from .compiler import VIPER, Compiler, MpyFormat
from .package import firmware_files


@dataclass
class Stage:
    """The staging folder: device path -> file in it, plus libraries."""

    root: Path
    files: dict[str, Path] = field(default_factory=dict)
    online_libs: list[str] = field(default_factory=list)
    offline_libs: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what was left out, and why
    _sha: dict[str, str] = field(default_factory=dict)

    def sha(self, path: str) -> str:
        if path not in self._sha:
            self._sha[path] = hashlib.sha256(self.files[path].read_bytes()).hexdigest()
        return self._sha[path]

    def size(self, path: str) -> int:
        return self.files[path].stat().st_size


# In every staging folder build_stage makes, and only there: the mark that
# lists what it wrote, one JSON string (a path relative to the folder) a line
# after the first, each added before its file is written. A later
# build_stage removes those files only, and refuses a folder that holds
# anything else (check_stage_root).
STAMP = ".flash-stage"
STAMP_TEXT = (
    "A staging folder of the Scopa flash tool (tools/flash); the files it wrote here, "
    "which its next run removes:\n"
)

# Files a board runs only as source (it never looks for boot.mpy / main.mpy).
SOURCE_ONLY = frozenset({"main.py", "boot.py"})


def device_path(rel: str, source: bool) -> str:
    """Where firmware file `rel` goes: `.py` -> `.mpy` unless source."""
    if rel in SOURCE_ONLY or source or not rel.endswith(".py"):
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
    """Fills `root` with the files of a board. `mark`: an open STAMP file,
    to which each file's path is added before the file is written."""

    def __init__(self, root: Path, compiler: Compiler | None, mark: TextIO | None = None) -> None:
        self.stage = Stage(root)
        self.compiler = compiler
        self.mark = mark
        self.jobs: list[tuple[Path, Path, str]] = []
        # device paths left out, not refused, when they do not compile
        self.optional: set[str] = set()

    def target(self, device: str) -> Path:
        """The file of `device` in the folder, noted in the mark; its folder made."""
        dest = self.stage.root / device
        if self.mark is not None:
            self.mark.write(json.dumps(device) + "\n")
            self.mark.flush()
        dest.parent.mkdir(parents=True, exist_ok=True)
        self.stage.files[device] = dest
        return dest

    def add(self, device: str, src: Path, origin: str) -> None:
        if device in self.stage.files:
            raise FlashError(f"two files go to /{device} on the board (one is {origin})")
        dest = self.target(device)
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
                done = [(job, pool.submit(compiler.compile, *job)) for job in self.jobs]
                for (_, dest, name), future in done:
                    try:
                        future.result()
                    except FlashError as e:
                        device = dest.relative_to(self.stage.root).as_posix()
                        if device not in self.optional:
                            raise
                        del self.stage.files[device]
                        why = e.what.strip().splitlines()[-1].strip()
                        self.stage.notes.append(
                            f"{name[:-3]} left out: this mpy-cross refuses its viper code "
                            f"({why}); the plain Python beside it plays the same moves, slower "
                            "(MicroPython 1.23 or later on the board loads it compiled)"
                        )
        return self.stage


def stage_firmware(stager: Stager, fw_dir: Path) -> None:
    """Add every file of the firmware in `fw_dir` to `stager` at its path on
    a board (`firmware/scopa/engine.py` -> `scopa/engine.mpy`, `main.py` as
    source, data files as they are). The one build of the firmware: the
    flash tool (build_stage), the tests, the benchmarks and the simulator
    (host_tests/mpy.compile_firmware) all run what this stages. Raises
    FlashError for a file that clashes with what the tool writes."""
    source = stager.compiler is None
    reserved = {"board.py", "board.mpy", "board.json", RECORD}
    for rel in firmware_files(fw_dir):
        viper = rel in VIPER and not source
        if viper and not stager.compiler.march:
            continue  # bytecode only: viper code needs -march (compiler.VIPER)
        device = device_path(rel, source)
        if device in reserved or rel.split("/", 1)[0] == LIB:
            raise FlashError(
                f"firmware/{rel} clashes with a file the flash tool writes (/{device})",
                "rename it: board.py, board.json and lib/ come from boards/ and libraries",
            )
        stager.add(device, fw_dir / rel, f"firmware/{rel}")
        if viper and stager.compiler.emits < (6, 3):
            # (the mpy-cross of MicroPython 1.19 to 1.22 refuses some of
            # this viper code: left out; a newer one's error stops the flash)
            stager.optional.add(device)


def check_stage_root(
    root: Path, fw_dir: Path | None = None, boards_dir: Path | None = None
) -> None:
    """Refuse `root` as a staging folder unless it is new, empty, or one that
    build_stage made (it holds STAMP) holding nothing but what STAMP lists,
    and unless it is outside the firmware folder `fw_dir` (whose files go to
    the board) and the boards folder `boards_dir` (whose every folder is
    taken for a board). Raises FlashError (what: why, todo: what to do)."""
    _own_files(root, fw_dir, boards_dir)


def _own_files(
    root: Path, fw_dir: Path | None, boards_dir: Path | None = None
) -> tuple[list[Path], list[Path]]:
    """check_stage_root; returns the files and folders in `root` that
    build_stage wrote (folders deepest first): all there is besides STAMP."""
    todo = "name an empty or new folder"
    try:
        for folder, what in (
            (fw_dir, "the firmware folder {}, whose files go to the board"),
            (boards_dir, "the boards folder {}, whose every folder is taken for a board"),
        ):
            if folder is None:
                continue
            fw, where = folder.resolve(), root.resolve()
            if where == fw or fw in where.parents:
                inside = "is" if where == fw else "is inside"
                what = f"{root} {inside} {what.format(folder)}"
                raise FlashError(what, "name a folder outside it")
        if not os.path.lexists(root):
            real = Path(os.path.realpath(root))
            if os.path.lexists(real):  # ("new/..": a folder there already, once made)
                return _own_files(real, fw_dir, boards_dir)
            _check_parents(root, todo)
            return [], []
        if not root.is_dir():
            what = "a file, not a folder" if root.exists() else "a broken link"
            raise FlashError(f"{root}: {what}", todo)
        stamp = root / STAMP
        if stamp.is_symlink() or not stamp.is_file():
            if next(root.iterdir(), None) is not None:
                raise FlashError(f"{root} is not empty and not a staging folder of flash", todo)
            return [], []
        files = _listed(stamp)
        folders = {rel.rsplit("/", n)[0] for rel in files for n in range(1, rel.count("/") + 1)}
        own_files: list[Path] = []
        own_dirs: list[Path] = []
        for dirpath, dirnames, filenames in os.walk(root, onerror=_raise):
            here = Path(dirpath)
            prefix = "" if here == root else here.relative_to(root).as_posix() + "/"
            dirnames.sort()
            for name in sorted(filenames) + dirnames:
                rel, path = prefix + name, here / name
                if rel == STAMP:
                    continue
                if path.is_symlink():
                    mine = False
                elif path.is_dir():
                    mine = rel in folders
                    own_dirs.append(path)
                else:
                    mine = (rel in files or _part_of(rel) in files) and path.is_file()
                    own_files.append(path)
                if not mine:
                    raise FlashError(
                        f"{root} holds {rel}, which flash did not write there",
                        "move it out of the folder, or name another folder",
                    )
    except OSError as e:
        raise FlashError(f"{root}: {e.strerror or e}", todo) from None
    return own_files, sorted(own_dirs, key=lambda d: len(d.parts), reverse=True)


def _part_of(rel: str) -> str:
    """The file a compiler's temporary file `rel` was being written for
    (compiler._atomic: `dir/.name.PID.tmp` -> `dir/name`; left behind by a
    run killed while it wrote), else ""."""
    head, _, name = rel.rpartition("/")
    parts = name.split(".")
    if len(parts) < 4 or parts[0] or parts[-1] != "tmp" or not parts[-2].isdigit():
        return ""
    return (head + "/" if head else "") + ".".join(parts[1:-2])


def _listed(stamp: Path) -> set[str]:
    """The paths STAMP lists (a line that is no JSON string lists none)."""
    listed = set()
    for line in stamp.read_text(encoding="utf-8", errors="replace").splitlines()[1:]:
        try:
            rel = json.loads(line)
        except ValueError:
            continue
        if isinstance(rel, str):
            listed.add(rel)
    return listed


def _raise(e: OSError) -> None:
    raise e


def _check_parents(root: Path, todo: str) -> None:
    """Raises FlashError when the nearest existing parent of `root` (which
    does not exist) is not a folder, or a name to make under it is longer
    than its file system takes."""
    for parent in root.absolute().parents:
        if os.path.lexists(parent):
            if not parent.is_dir():
                raise FlashError(f"{root}: {parent} is a file, not a folder", todo)
            pathconf = getattr(os, "pathconf", None)  # (Unix only)
            try:
                most = pathconf(parent, "PC_NAME_MAX") if pathconf else 0
            except (OSError, ValueError):
                return
            for name in root.absolute().relative_to(parent).parts:
                if 0 < most < len(os.fsencode(name)):
                    raise FlashError(f"{root}: a name longer than {most} bytes", todo)
            return


def _fresh_root(root: Path, fw_dir: Path | None) -> TextIO:
    """Make `root` an empty staging folder holding STAMP: created, or
    emptied of what build_stage wrote there before (check_stage_root).
    Returns STAMP, open to note the files to come. Raises FlashError
    (check_stage_root; or the folder cannot be made)."""
    files, dirs = _own_files(root, fw_dir)
    new = []  # the folders to make, `root` first: taken back on a failure
    path = Path(os.path.realpath(root))
    while not os.path.lexists(path):
        new.append(path)
        path = path.parent
    mark = None
    try:
        root.mkdir(parents=True, exist_ok=True)
        for path in files:
            path.unlink()
        for path in dirs:  # deepest first; rmdir: only an empty folder
            path.rmdir()
        mark = (root / STAMP).open("w", encoding="utf-8")
        mark.write(STAMP_TEXT)
        mark.flush()
        return mark
    except OSError as e:
        if mark is not None:
            try:
                mark.close()
            except OSError:
                pass
        for path in new:  # (rmdir: only what is empty, STAMP the one file a new root holds)
            try:
                if mark is not None and path == new[0]:
                    (path / STAMP).unlink()
                path.rmdir()
            except OSError:
                pass
        raise FlashError(f"cannot make the staging folder {root}: {e.strerror or e}") from None


def build_stage(
    root: Path,
    fw_dir: Path,
    board: BoardConfig,
    version: str,
    compiler: Compiler | None,
    offline: Path | None,
    board_fmt: MpyFormat | None,
) -> Stage:
    """Fill a clean staging folder `root`: a new or empty folder, or one an
    earlier build_stage made (the files it wrote there removed first).
    Raises FlashError for any other folder, one inside `fw_dir`
    (check_stage_root), and for a firmware the tool cannot stage."""
    mark = _fresh_root(root, fw_dir)
    try:
        source = compiler is None
        stager = Stager(root, compiler, mark)
        stage_firmware(stager, fw_dir)
        if "main.py" not in stager.stage.files:
            raise FlashError(f"{fw_dir}/main.py is missing", "the board runs main.py at boot")
        stager.add_py("board.py", board.board_py, source, str(board.board_py))
        config = stager.target("board.json")
        config.write_text(json.dumps({"board": board.name, "version": version}, sort_keys=True))
        for spec in board.libs:
            if offline is None:
                stager.stage.online_libs.append(spec)
            else:
                before = set(stager.stage.files)
                _stage_offline(stager, offline, spec, source, board_fmt, set())
                stager.stage.offline_libs[spec] = sorted(set(stager.stage.files) - before)
        return stager.finish()
    finally:
        mark.close()


def _stage_offline(
    stager: Stager,
    offline: Path,
    spec: str,
    source: bool,
    board_fmt: MpyFormat | None,
    seen: set[str],
) -> None:
    """Stage the library of mip spec `spec` from the folder `offline` (see
    the docstring)."""
    name = lib_name(spec)
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
            _stage_offline(stager, offline, dep_spec, source, board_fmt, seen)
    elif py.is_file():
        stager.add_py(f"{LIB}/{name}.py", py, source, str(py))
    elif mpy.is_file():
        _check_mpy(mpy, board_fmt)
        stager.add(f"{LIB}/{name}.mpy", mpy, str(mpy))
    else:
        origin = "micropython-lib" if ":" not in spec and "/" not in spec else spec
        raise FlashError(
            f"library {name!r} is not in {offline}",
            f"put {name}.py (from {origin}), {name}.mpy or a mip package "
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
