"""One run of the flash tool: the steps of the package's docstring."""

from __future__ import annotations

import argparse
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .boards import BoardConfig, load_board, refuse_host_board
from .common import (
    BOARDS,
    FIRMWARE,
    LIB,
    MIP_SILENCE,
    MIP_TIMEOUT,
    MPY_CACHE,
    PACKAGE_JSON,
    PAUSED_MAIN,
    RECORD,
    TMP_SUFFIX,
    FlashError,
    kib,
    say,
)
from .compiler import Compiler, find_compiler, native_modules
from .device import BoardInfo, Device, find_port, mpremote
from .package import app_version, package_json, render_package_json
from .plan import Plan, Record, _dirs_of, make_plan, parents, space_needed
from .stage import Stage, build_stage, lib_name


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
        self.mip_wrote: list[str] = []  # files mip wrote (its "Installing:" lines)
        self.touched = False  # the board changed (or may have): not restarted on the way out
        self.midline = False  # a copy's progress line is open on the terminal

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
            # a run that changed nothing (a dry run, a refusal) starts the
            # app it interrupted again, as it found the board
            self.device.close(restart=not self.touched)
            self.device = None

    def run(self) -> int:
        try:
            return self._run()
        finally:
            self.disconnect()

    def _run(self) -> int:
        args = self.args
        board = load_board(self.boards_dir, args.board)
        if not args.host_board:
            refuse_host_board(self.boards_dir, board)
        version = app_version(self.fw_dir)
        if args.offline:
            offline = Path(args.offline)
            if offline.exists() and not offline.is_dir():
                raise FlashError(
                    f"--offline {args.offline}: a file, not a folder",
                    "give the folder that holds the libraries "
                    "(NAME.py, NAME.mpy or NAME/package.json for each)",
                )
            if not offline.is_dir():
                raise FlashError(f"--offline {args.offline}: no such folder")
        if args.port != "auto":
            self.port = args.port
        elif args.dry_run:
            try:
                self.port = find_port()
            except FlashError as e:  # nothing to look at: plan against an empty board
                return self.dry_run_without_board(board, version, e)
        else:
            self.port = find_port()
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
            if compiler is not None and compiler.march:
                what += f", {native_modules()} as native code"
            say(f"  staged {len(stage.files)} files, {what}" + (f" in {root}" if keep else ""))
            if compiler is not None and compiler.note:
                say(f"  note: {compiler.note}")
            for note in stage.notes:
                say(f"  note: {note}")
            self.check_package_json()
            return self.apply(board, version, info, stage)
        finally:
            if tmp is not None:
                tmp.cleanup()

    def dry_run_without_board(self, board: BoardConfig, version: str, why: FlashError) -> int:
        """--dry-run with no board found: stage `board` (sources, the .mpy
        format being the board's) and show the plan of a fresh flash."""
        args = self.args
        say(f"flash: board {board.name!r}: {why.what}")
        say("  dry run against an empty board (what a fresh flash writes)")
        keep = Path(args.stage) if args.stage else None
        with tempfile.TemporaryDirectory(prefix="scopa-flash-") as tmp:
            root = keep or Path(tmp) / "stage"
            offline = Path(args.offline) if args.offline else None
            stage = build_stage(root, self.fw_dir, board, version, None, offline, None)
            where = f" in {root}" if keep else ""
            say(f"  staged {len(stage.files)} files, sources (.py){where}")
            if not args.source:
                say(
                    "  note: on a board every .py but main.py is compiled by mpy-cross "
                    "for the .mpy format of its MicroPython, which only the board can tell"
                )
            plan = make_plan(stage, {}, Record(), True)
            self.show_plan(plan, stage)
            total = sum(stage.size(p) for p in plan.copy)
            say(
                f"dry run: {len(plan.copy)} to copy ({kib(total)}), "
                f"{_libraries(plan)} to install; no board was looked at "
                "or changed (plug one in, or pass --port, for the plan against its files)"
            )
        return 0

    def show_plan(self, plan: Plan, stage: Stage) -> None:
        """The plan's lines of a dry run: each copy, removal and library."""
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
            compiler = find_compiler(info.fmt, ".".join(str(x) for x in info.version[:2]))
            compiler.cache = MPY_CACHE
            return compiler
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
        record_bytes = device.read_bytes(RECORD)
        record = Record.parse(record_bytes)
        lib_files = {f for fs in record.libs.values() for f in fs}
        known = set(stage.files) | record.files | lib_files | {PAUSED_MAIN}
        sizes = {p: stage.size(p) for p in stage.files}
        sizes[PAUSED_MAIN] = stage.size("main.py")
        board_files = device.scan(_dirs_of(known), sizes)
        main_there = bool(board_files.get("main.py"))
        if not record.complete:
            if args.dry_run:
                say("  the last flash did not finish: flash would finish it")
            else:
                say("  the last flash did not finish: finishing it")

        gone: set[str] = set()
        wiped: list[int] = []  # the sizes of the files the wipe removes
        if args.wipe:
            # planned as if already wiped; removed only once the libraries
            # are installed (step 4), so that a mip that fails wipes nothing
            gone = {f for f in record.files | lib_files if board_files.get(f)}
            gone |= {f for f in board_files if f.endswith(TMP_SUFFIX) or f == PAUSED_MAIN}
            gone |= {RECORD} if board_files.get(RECORD) else set()
            verb = "would remove" if args.dry_run else "remove"
            say(f"  wipe: {len(gone)} files written by the flash tool")
            for f in sorted(gone):
                say(f"    {verb} /{f}")
            wiped = [v[0] for p, v in board_files.items() if v and p in gone]
            board_files = {p: v for p, v in board_files.items() if p not in gone}
            record = Record()
            lib_files = set()

        plan = make_plan(stage, board_files, record, info.sha256, bool(args.source))
        for note in plan.notes:
            say(f"  note: {note}")
        if plan.foreign and not args.force:
            self.touched = False  # nothing changed: the app it found starts again
            n = len(plan.foreign)
            shown = ", ".join("/" + p for p in plan.foreign[:8]) + (", ..." if n > 8 else "")
            if record.unreadable:
                whose = "the flash tool cannot tell it wrote (its record is damaged)"
                why = f"/{RECORD} is unreadable, so no file on the board is known as the tool's"
            else:
                whose = "the flash tool did not write"
                why = "another program's, or the app installed by mip?"
            raise FlashError(
                f"the board holds {n} files {whose} that this flash "
                f"would replace or remove (the app's own, or a .py that would shadow "
                f"its .mpy): {shown}; {why}",
                f"copy off what you want to keep ({mpremote()} connect {self.port} cp "
                f":/{plan.foreign[0]} .), then run flash again with --force, which "
                "replaces them (other files stay)",
            )
        elif plan.foreign:
            for path in plan.foreign:
                say(f"  --force: replacing /{path}, which the flash tool did not write")
        need, freed = space_needed(plan, stage, board_files, info.block, wiped)
        if info.free is not None and need > info.free + freed:
            raise FlashError(
                f"not enough flash: the new files need {kib(need)}, the board has "
                f"{kib(info.free)} free (+{kib(freed)} after removals)",
                f"remove files you do not need from the board ({mpremote()} fs ls / fs rm), "
                "or use a board with more flash",
            )

        if args.dry_run:
            self.show_plan(plan, stage)
            say(
                f"dry run: {len(plan.copy)} to copy, {len(plan.same)} unchanged, "
                f"{len(plan.remove) + len(gone)} to remove, {_libraries(plan)} "
                "to install; the board was not changed"
            )
            return 0

        # 4. libraries from mip, before anything of the app changes
        self.touched = True
        installed: dict[str, list[str]] = dict(plan.libs_keep)
        for spec in plan.libs_keep:
            say(f"  library {spec}: installed")
        early = False  # main.py paused for mip
        if plan.libs_install:
            # mip writes each file under its own name: cut short, it leaves
            # half a library. Until the libraries are in, main.py is paused
            # (the board boots to the REPL, not into an app importing half a
            # library) and the record does not list them (the next flash
            # installs them again)
            pending = Record(
                record.files | lib_files,
                {k: v for k, v in record.libs.items() if k not in plan.libs_install},
                complete=False,
                sources=record.sources,
            )
            device.write(RECORD, pending.dump(board.name, version), None)
            if main_there:
                device.rename("main.py", PAUSED_MAIN)
                early = True
            self.disconnect()
            try:
                for spec in plan.libs_install:
                    installed[spec] = self.mip_install(spec, args.source)
                    self.libs_done.append(spec)
            except FlashError as e:
                self.undo_pause(e, early, record_bytes)
                raise
            device = self.connect()
        for spec, files in stage.offline_libs.items():
            installed[spec] = files
            self.libs_done.append(f"{spec} (offline)")
        mip_files = {f for spec in plan.libs_install for f in installed[spec]}
        if gone:
            # the wipe, now that the libraries are in place (not what mip just wrote)
            gone -= mip_files
            if early:  # main.py is paused: the copy replaces it
                gone -= {"main.py", PAUSED_MAIN}
            device.remove(gone)
            device.rmdirs_if_empty(_dirs_of(gone) - {""})
            self.counts["removed"] += len(gone)

        changes = bool(plan.copy or plan.remove or plan.libs_install or plan.restore_main)
        final = Record(
            set(stage.files) | {f for fs in installed.values() for f in fs},
            installed,
            True,
            sources=set(installed) if args.source else set(),
        )
        if changes:
            # the record first: every file about to be written is in it
            pending = Record(
                final.files | record.files | lib_files,
                {**record.libs, **installed},
                complete=False,
                sources=(record.sources - set(installed)) | final.sources,
            )
            device.write(RECORD, pending.dump(board.name, version), None)
            paused = early or (
                "main.py" in board_files and bool(set(plan.copy) - {"main.py"} or plan.remove)
            )
            if paused and not early:
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
            crash = text.find("Traceback (most recent call last)")
            if expect in text and text.index(expect) < crash:  # its line, then a traceback
                what = f"the app started ({expect!r}) and then stopped with an error"
            else:
                what = f"the app did not start: no {expect!r} after the reset"
            raise FlashError(
                f"{what}; the board said:\n{shown or '    (nothing)'}",
                f"fix what its last lines name (the firmware, or the wiring: "
                f"boards/{board.name}/README.md) and run flash again; "
                f"`{mpremote()} connect {self.port} repl` and Ctrl-D show the start again",
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

            self.midline = True
            progress(0, len(data) or 1)
            device.write(path, data, progress)
            say(f"\r{label} copied")
            self.midline = False
        else:
            say(label, end="")  # a cut shows which file it was
            self.midline = True
            device.write(path, data, None)
            say(" copied")
            self.midline = False
        self.counts["copied"] += 1
        self.counts["bytes"] += len(data)

    def undo_pause(self, e: FlashError, early: bool, record_bytes: bytes | None) -> None:
        """mip failed (`e`) having written nothing: main.py and the record
        back as they were. Having written part of a library, main.py stays
        paused (no app on a half-updated library). `e` says which."""
        if self.mip_wrote:
            e.what += (
                "\n  Part of the library was written: "
                + ("main.py stays paused (the board starts to the REPL) " if early else "")
                + "until a flash finishes."
            )
            return
        try:
            device = self.connect()
            if early:
                device.rename(PAUSED_MAIN, "main.py")
            if record_bytes is None:
                device.remove([RECORD])
            else:
                device.write(RECORD, record_bytes, None)
            self.touched = False  # as found: the app starts again
        except FlashError:
            e.what += "\n  The board was lost: main.py stays paused until a flash finishes."
            return
        e.what += "\n  The app files were not changed."

    def mip_install(self, spec: str, source: bool) -> list[str]:
        """`mpremote mip install --target lib SPEC`; returns the files it wrote."""
        command = [
            sys.executable,
            "-u",  # its lines as they come: a pipe would hold them until it ends
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
        returncode, lines = run_shown(command, mip_silence(), MIP_TIMEOUT)
        files: list[str] = []
        for line in lines:
            m = re.match(r"(Installing|Exists): (.+)$", line.strip())
            if m:
                files.append(re.sub(r"^(\./|/)+", "", m.group(2).replace("//", "/")))
                if m.group(1) == "Installing":
                    self.mip_wrote.append(files[-1])
        err = ([line.strip() for line in lines if line.strip()] or [""])[-1]
        if returncode != 0:
            name = lib_name(spec)
            package = ":" in spec or spec.split("@", 1)[0].endswith(".json")
            if package and "JSONDecodeError" in err:  # (MicroPython's json is laxer)
                raise FlashError(
                    f"could not install the library {spec!r} with mip: its package.json is not "
                    f"JSON to mpremote ({err})",
                    f"name the library's file instead of its package in the board's "
                    f'manifest.json, e.g. "github:OWNER/REPO/{name}.py", or put {name}.py in a '
                    "folder DIR and run flash with --offline DIR",
                )
            origin = "from micropython-lib" if ":" not in spec else f"from {spec}"
            raise FlashError(
                f"could not install the library {spec!r} with mip: {err or 'failed'}",
                f"check the network and retry (flash again, or by hand: {mpremote()} connect "
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


def mip_silence() -> float:
    """Seconds mpremote mip may print nothing before it counts as stalled
    (a board that lost power with its port open): MIP_SILENCE, or
    SCOPA_MIP_SILENCE for tests."""
    try:
        return float(os.environ.get("SCOPA_MIP_SILENCE", MIP_SILENCE))
    except ValueError:
        return MIP_SILENCE


def run_shown(command: list[str], silence: float, limit: float) -> tuple[int, list[str]]:
    """Run `command`, showing its output (stdout and stderr) line by line as
    it comes; stopped after `silence` seconds without a line or `limit` in
    all. Returns (exit status, its lines); a stop adds a last line that
    says why, with status 1."""
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    pumping = threading.Thread(target=pump, daemon=True)
    pumping.start()
    out: list[str] = []
    end = time.monotonic() + limit
    stopped = ""
    try:
        while True:
            wait = min(silence, end - time.monotonic())
            try:
                line = lines.get(timeout=max(wait, 0))
            except queue.Empty:
                why = f"{silence:g} s without a word" if wait == silence else f"over {limit:g} s"
                stopped = f"stopped: {why} (the board or the network stalled)"
                break
            if line is None:
                return proc.wait(), out
            say(f"    {line}")
            out.append(line)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    pumping.join(2)  # what it said before it was stopped counts too
    while True:
        try:
            line = lines.get_nowait()
        except queue.Empty:
            break
        if line is not None:
            say(f"    {line}")
            out.append(line)
    out.append(stopped)
    return 1, out


def _libraries(plan: Plan) -> str:
    """ "1 library", "2 libraries": the plan's libraries to install with mip."""
    n = len(plan.libs_install)
    return f"{n} {'library' if n == 1 else 'libraries'}"
