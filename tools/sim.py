"""scopa-sim: run the real firmware on the MicroPython unix port.

Interactive, in the terminal (128 x 33 characters at full size; in a
smaller one, down to 64 x 17 such as a default 80 x 24, the mono screen is
drawn in braille; 240 x 69 with ``--board sim-colour``, which a smaller
terminal, down to 120 x 35, gets 2 times smaller; a terminal smaller still
is asked to grow, as 3 times smaller nothing could be read)::

    python tools/sim.py
    python tools/sim.py --board sim-colour --mpy

Arrows move, Enter = A, Backspace = B, h = B held long (hint), q quits;
Ctrl-Z stops it with the terminal's settings given back, ``fg`` goes on.

Headless, with a key script (see boards/sim/board.py ``parse_script``): the
buttons follow the script on a virtual clock, and each ``shot:name`` writes
``name.png`` (4x, mono dark on light)::

    python tools/sim.py --keys "right right A shot:menu long:B shot:hint"
    python tools/sim.py --script game.keys --png-dir /tmp/shots

``--watch`` plays the script in the terminal in real time instead.

How: a folder stands for the board's flash (``--flash DIR`` to keep it
between runs; a DIR that does not exist is made, a new empty flash, and a
line says so, before the play and after it: a name mistyped is seen): it
gets ``board.py`` (boards/sim/board.py) and ``board.json`` and is the
process's working folder. One simulator at a
time uses a ``--flash`` folder: its ``sim.lock`` (FlashLock) stops a
second one with a line saying whose it is, exit status 2, as every
refusal before the firmware starts (no game ran: a wrong argument, no
terminal). A firmware that crashes ends with its traceback, then a line
with the traceback's last line and what the flash kept, exit status 1;
so does an error of this program's own once the firmware has started
(Crashed), and a firmware ended by a signal (kill -9, the OOM killer:
a line says which). This program ended by SIGTERM or SIGHUP (a window
closed) exits 128 + the signal, after the app quit as on q in a
terminal (a key script's firmware is stopped, its saves as of then).
Other exit statuses: 0 the app quit (q, a key script's end or its
``off``), 130 Ctrl-C, 3 the firmware out of its ``--heapsize`` (said with
the heap it needs), 124 a key script past ``--timeout``. Stdin must be a
terminal, but for a key script. MICROPYPATH holds it
and firmware/ (compiled by mpy-cross with ``--mpy``); a small runner
imports ``main`` as a board does at boot, and restores the terminal after.
"""

import argparse
import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from contextlib import nullcontext as _nothing
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT / "host_tests", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import mpy  # noqa: E402  (host_tests/mpy.py: the unix port, mpy-cross)
from tools import png  # noqa: E402

BOARD_SRC = ROOT / "boards" / "sim" / "board.py"
BOARDS = {"sim": "mono", "sim-colour": "colour"}
SIZES = {"sim": (128, 64), "sim-colour": (240, 135)}
MPY_BUILD = ROOT / "build" / "sim-mpy"
DEFAULT_PNG_DIR = ROOT / "build" / "sim-shots"

RUNNER = """\
import sys
try:
    import board
    import {entry}
except KeyboardInterrupt:
    sys.exit(130)
except SystemExit:
    raise
except MemoryError:
    with open({error!r}, "w") as f:
        f.write("memory")
    sys.exit(3)
except BaseException as e:
    if isinstance(e, ValueError) and str(e).startswith("key script:"):
        # a bad key script (board.setup reads it whole before the app
        # starts): one line for tools/sim.py, not a traceback
        with open({error!r}, "w") as f:
            f.write(str(e))
        sys.exit(2)
    if type(e).__name__ == "PowerOff":
        # a key script's off (board.PowerOff): the power cut, a normal end
        sys.exit(0)
    # a crash: the traceback as always, its last line for tools/sim.py
    try:
        with open({error!r}, "w") as f:
            f.write("crash:" + type(e).__name__ + (": " if e.args else "") + str(e))
    except BaseException:
        pass
    raise
finally:
    if "board" in sys.modules:
        sys.modules["board"].restore()
"""


# The guardian: a small process that outlives a SIGKILLed tools/sim.py. It
# reads the firmware's pid on stdin; at the end of its stdin (the parent
# gone, whatever the way) it kills the firmware if it still runs, removes
# the flash folder's lock file then (when it still names tools/sim.py's
# pid), gives the terminal its settings back (every field, c_line too:
# _give_back) and removes the run's temporary folder.
GUARD = """\
import os, shutil, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
signal.signal(signal.SIGTSTP, signal.SIG_IGN)
tmp, attrs, raw, fd = sys.argv[1], eval(sys.argv[2]), eval(sys.argv[3]), int(sys.argv[4])
lock, owner = sys.argv[5], sys.argv[6]
pid = 0
for line in sys.stdin:
    pid = int(line)
if pid:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    if lock:
        try:
            with open(lock) as f:
                if f.read().split() == [owner]:
                    os.remove(lock)
        except OSError:
            pass
if attrs is not None:
    try:
        import termios
        if raw is not None:
            import fcntl
            fcntl.ioctl(fd, termios.TCSETS, raw)
        else:
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
        os.write(fd, b"\\x1b[0m\\x1b[?25h")
    except Exception:
        pass
shutil.rmtree(tmp, ignore_errors=True)
"""


MAX_SCALE = 16  # --scale's most: a 240 x 135 screen as a 3840 x 2160 PNG
LOCK_NAME = "sim.lock"  # in the flash folder while a simulator uses it


class OutOfMemory(Exception):
    """The firmware ran out of its heap (-X heapsize): no usage error.
    `result`: the run's Result, the shots before it written as PNGs."""

    result = None


class ScriptError(ValueError):
    """The key script is wrong (the board read it before the app started:
    no game ran): a usage error."""


class Crashed(Exception):
    """tools/sim.py failed once the firmware had started (a bug of its
    own): no usage error, a game may have been played and saved."""


class FlashInUse(Exception):
    """The flash folder is another simulator's: its lock is held."""

    def __init__(self, flash, pid):
        self.flash, self.pid = flash, pid
        who = f" (pid {pid})" if pid else ""
        super().__init__(f"{flash} is in use by another simulator{who}")


class FlashLock:
    """The flash folder `flash` (created if need be) taken for one
    simulator: its file ``sim.lock`` holds this process's pid under an
    exclusive flock. Raises FlashInUse when another process holds it. A lock
    file that no live process holds (a simulator killed) is stale: taken
    over without a word. ``release()`` removes the file (safe twice).
    An OSError (a folder that cannot be made or written, a full disk)
    names the folder, and leaves no lock file half made.

    The flock lives as long as an open copy of ``fd`` (the firmware gets
    one): a second simulator cannot start while the first one's firmware
    still runs, whatever became of tools/sim.py.
    """

    def __init__(self, flash):
        self.flash = Path(flash)
        self.path = self.flash / LOCK_NAME
        self.fd = -1
        try:
            self.fd = self._take(flash)
        except OSError as e:
            raise _naming(e, flash) from None

    def _take(self, flash):
        import fcntl

        self.flash.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                try:
                    pid = int(os.read(fd, 32).split()[0])
                except (OSError, ValueError, IndexError):
                    pid = None  # (being written this very moment)
                os.close(fd)
                raise FlashInUse(flash, pid) from None
            except BaseException:
                os.close(fd)
                raise
            # locked; still the file at `path`, not one that the simulator
            # before has just removed (that one would lock nothing)?
            try:
                st = os.stat(self.path)
                mine = os.fstat(fd)
                if (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino):
                    break
            except FileNotFoundError:
                pass
            os.close(fd)
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except BaseException:  # (a full disk): no empty lock file left behind
            try:
                os.unlink(self.path)
            except OSError:
                pass
            os.close(fd)
            raise
        return fd

    def release(self):
        if self.fd < 0:
            return
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        os.close(self.fd)
        self.fd = -1


def _term_size():
    """(columns, rows) of the terminal on stdout (not $COLUMNS, which a
    parent may have set for itself), else shutil's answer."""
    try:
        return tuple(os.get_terminal_size(sys.__stdout__.fileno()))
    except (OSError, AttributeError, ValueError):
        return tuple(shutil.get_terminal_size((0, 0)))


_winsize_state = [False, False, 0]  # writing, asked again meanwhile, the latest redraw


def _write_winsize(path, redraw=0):
    """`columns rows redraw` of the terminal into `path` (replaced whole):
    the board draws again, whole, when any of them changes. Signal handlers
    call it (SIGWINCH, SIGCONT), nested when the size changes quickly: a
    call that comes while one writes leaves it to that one, which then
    writes once more with the latest size."""
    state = _winsize_state
    state[2] = max(state[2], redraw)
    if state[0]:
        state[1] = True
        return
    state[0] = True
    try:
        while True:
            state[1] = False
            cols, rows = _term_size()
            if cols and rows:
                tmp = Path(str(path) + ".new")
                tmp.write_text(f"{cols} {rows} {state[2]}")
                os.replace(tmp, path)
            if not state[1]:
                break
    finally:
        state[0] = False


def _terminal_state():
    """(fd, termios attributes, the kernel's whole struct termios as bytes
    or None) of the terminal on stdin, or (-1, None, None). The bytes keep
    what termios.tcgetattr leaves out (c_line on Linux)."""
    try:
        import termios
    except ImportError:
        return -1, None, None
    try:
        attrs = termios.tcgetattr(0)
    except (termios.error, OSError, ValueError):  # not a terminal
        return -1, None, None
    raw = None
    if hasattr(termios, "TCGETS"):
        import fcntl

        try:
            raw = fcntl.ioctl(0, termios.TCGETS, bytes(64))
        except OSError:
            raw = None
    return 0, attrs, raw


def _sim_mode(fd, attrs):
    """The simulator's terminal mode: keys one by one (no ICANON), not
    echoed, Enter as CR (no ICRNL); ISIG stays (Ctrl-C, Ctrl-Z). Set here
    with CPython's termios, which keeps the fields it does not name (the
    unix port's termios.tcsetattr fills c_line with stack garbage)."""
    import termios

    mode = list(attrs)
    mode[0] &= ~termios.ICRNL
    mode[3] &= ~(termios.ICANON | termios.ECHO)
    try:
        termios.tcsetattr(fd, termios.TCSANOW, mode)
    except (termios.error, OSError):
        pass


def _give_back(fd, attrs, raw=None):
    """The terminal's settings as they were, every field (after a firmware
    that died in raw mode, or at a stop), the colours reset and the cursor
    shown."""
    if attrs is None:
        return
    import termios

    try:
        if raw is not None:
            import fcntl

            fcntl.ioctl(fd, termios.TCSETS, raw)
        else:
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
        os.write(fd, b"\x1b[0m\x1b[?25h")
    except (termios.error, OSError):
        pass


class _JobControl:
    """Ctrl-Z and `fg` for the interactive sim. On SIGTSTP: the terminal's
    settings given back, then the firmware and this process stop (the
    terminal sends the signal to the whole foreground process group; a
    SIGTSTP sent to this process alone stops the firmware too). On SIGCONT,
    in the foreground: the simulator's terminal mode again, the firmware
    continued, and the whole screen drawn again (the redraw count in the
    winsize file, which the board reads every 250 ms)."""

    def __init__(self, fd, attrs, raw, winsize):
        self.fd, self.attrs, self.raw, self.winsize = fd, attrs, raw, winsize
        self.child = None
        self.redraws = 0
        self.conts = 0
        self._old = {}

    def __enter__(self):
        for sig, fn in ((signal.SIGTSTP, self._stop), (signal.SIGCONT, self._cont)):
            self._old[sig] = signal.signal(sig, fn)
        return self

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)

    def _stop(self, *_):
        # (SIGTTOU ignored: run by a script, tools/play, whose shell takes
        # the terminal back at once, this process is in the background by
        # now, and a terminal change would stop it here, never continued)
        ttou = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        try:
            _give_back(self.fd, self.attrs, self.raw)
        finally:
            signal.signal(signal.SIGTTOU, ttou)
        if self.child is not None and self.child.poll() is None:
            try:
                os.kill(self.child.pid, signal.SIGSTOP)
            except OSError:
                pass
        conts = self.conts
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        try:
            os.kill(os.getpid(), signal.SIGTSTP)  # stops here until SIGCONT
        finally:
            signal.signal(signal.SIGTSTP, self._stop)
        if self.conts == conts:  # not stopped (an orphaned process group) or not yet told
            self._cont()

    def _cont(self, *_):
        self.conts += 1
        try:
            foreground = os.tcgetpgrp(self.fd) == os.getpgrp()
        except OSError:  # not this process's controlling terminal: no job control
            foreground = True
        if foreground:  # (in the background a terminal change would stop it again)
            _sim_mode(self.fd, self.attrs)
            self.redraws += 1
            _write_winsize(self.winsize, self.redraws)
        if self.child is not None and self.child.poll() is None:
            try:
                os.kill(self.child.pid, signal.SIGCONT)
            except OSError:
                pass


@dataclass
class Frame:
    width: int
    height: int
    mode: str
    data: bytes

    def rgb(self):
        """RGB888 rows of the frame (mono: dark on light)."""
        return png.frame_to_rgb(self.width, self.height, self.mode, self.data)


@dataclass
class Result:
    returncode: int
    frames: list = field(default_factory=list)  # every FRAME, in order
    shots: list = field(default_factory=list)  # (name, Frame) per shot:name
    end_ms: int | None = None  # virtual time at the end of the script
    pngs: list = field(default_factory=list)  # paths written
    stdout: str | None = None  # when captured
    stderr: str | None = None
    error: str | None = None  # the firmware crashed: its traceback's last line


def _frame_bytes(w, h, mode):
    # a whole frame's bytes: MONO_VLSB pages, or RGB565
    return w * h * 2 if mode == "rgb565" else w * ((h + 7) // 8)


def parse_frames(lines):
    """(frames, shots, end_ms) from the sim board's headless lines. A FRAME
    line cut short (a MemoryError in the firmware while it was written;
    the board then sends the frame again) is skipped."""
    frames, shots, end = [], [], None
    for line in lines:
        if line.startswith("FRAME "):
            parts = line.split()
            if len(parts) != 5:  # cut short by the firmware's MemoryError: sent again
                continue
            _, w, h, mode, hexdata = parts
            try:
                data = bytes.fromhex(hexdata)
            except ValueError:  # (the same, cut in a byte)
                continue
            if len(data) != _frame_bytes(int(w), int(h), mode):
                continue  # (the same, cut between two pieces)
            frames.append(Frame(int(w), int(h), mode, data))
        elif line.startswith("SHOT "):
            name = line[5:].strip()
            if frames:
                shots.append((name, frames[-1]))
            else:
                print(f"scopa-sim: shot:{name} before any frame, skipped", file=sys.stderr)
        elif line.startswith("END "):
            end = int(line.split()[1])
    return frames, shots, end


def prepare_flash(flash, board="sim"):
    """Put board.py and board.json for `board` in the folder `flash`. An
    OSError names the folder when it names no file (a full disk)."""
    flash = Path(flash)
    try:
        flash.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(BOARD_SRC, flash / "board.py")
        (flash / "board.json").write_text(json.dumps({"board": board}) + "\n")
    except OSError as e:
        raise _naming(e, flash) from None
    return flash


def _naming(e, folder):
    """OSError `e`, naming `folder` when it names no file (os.write's, a
    full disk's)."""
    if e.filename is None and e.errno is not None:
        return OSError(e.errno, e.strerror, str(folder))
    return e


def _png_name(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "shot"


# what --heapsize needs, for the messages: the sim's own drawing included
# (tools/bench_app.py measures the app on a lean board: 136K, 177K);
# measured with a match of A's and a sheet of 500 rounds opened, alone and
# with a game saved beside it (its record read at the start menu); the
# Hard player's own moves and hints, and a game after the scorekeeper,
# by a tester's scans of nine games, new and resumed (README, "Memory")
HEAP_NEEDED = (
    "(the app needs about 170K on this 64-bit port with --mpy, 230K for a game after "
    "the scorekeeper, 240K for the Hard player never to fall back to Medium's move in "
    "a game started from New game and for its hints, 270K in a game resumed at the "
    "start, 215K with a score sheet of 500 rounds, 240K with a game saved beside it; "
    "run from source, compiled as it is imported, about 300K)"
)


_CONSOLE_LINES = 30  # of a crash's console, said after the run
_CONSOLE_WIDTH = 1024  # bytes: a longer line is kept in pieces this long


class _Console:
    """The firmware's console (its stdout and stderr) in a terminal, kept
    off the screen drawn: read from a pipe as it comes, only its last
    _CONSOLE_LINES lines kept (a runaway print loop fills no memory and
    no disk), said below the screen after a run that did not quit (say).
    `fd` is the pipe's end for the firmware, closed here once it has it
    (close); `start` reads the other one, once the firmware runs (no
    thread while its process is made: Popen's preexec_fn)."""

    def __init__(self):
        import collections
        import threading

        self._r, self.fd = os.pipe()
        self._started = False
        self._lines = collections.deque(maxlen=_CONSOLE_LINES)
        self._reader = threading.Thread(target=self._read, args=(self._r,), daemon=True)

    def start(self):
        """Read the firmware's console from here on (its end closed here)."""
        self._started = True
        self.close()
        self._reader.start()

    def _read(self, r):
        with open(r, "rb") as f:  # (to the end: the firmware's end closed)
            while line := f.readline(_CONSOLE_WIDTH):
                self._lines.append(line.decode(errors="replace").rstrip("\n"))

    def close(self):
        """This process's copy of the firmware's end, and the other one
        when no firmware ran (again: nothing)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if not self._started and self._r >= 0:
            os.close(self._r)  # (its reader never started: closed by it else)
            self._r = -1

    def say(self, first=""):
        """After a firmware that did not quit (a crash, out of memory,
        killed), the terminal given back: `first` ("\\n" after a firmware
        killed, whose board did not end the keys' row), then the last
        _CONSOLE_LINES lines it printed (its traceback last), below its
        screen. A stop's lines (the rounds' news) are not said: its screen
        said them."""
        self.close()
        if self._reader.is_alive():
            self._reader.join(2)  # (the firmware has ended: its end is closed)
        try:
            if self._lines:
                sys.stderr.write(first + "\n".join(self._lines) + "\n")
                sys.stderr.flush()
        except OSError:  # (the terminal gone: its window closed)
            pass


def paths_too_long(flash, extra_path, mpy_compiled):
    """Why the unix port could not run the simulator from its folders (the
    flash folder, or the temporary one with its name as long as tempfile
    makes it; the --path folders; the firmware), or ""."""
    tmp_like = Path(tempfile.gettempdir()) / ("scopa_sim_" + "x" * 8)
    folders = [Path(flash) if flash else tmp_like / "flash", *(Path(p) for p in extra_path)]
    folders.append(MPY_BUILD if mpy_compiled else mpy.FIRMWARE)
    long = mpy.too_long([tmp_like / "run" / "sim_run.py"], [f.resolve() for f in folders])
    if not long:
        return ""
    path, n = long
    where, todo = f"the folder {path}", "clone the repository into a shorter folder"
    tmp = {tmp_like, tmp_like.resolve()}  # (a TMPDIR through a link: resolved above)
    if tmp & set(Path(path).parents) or Path(path).parent in tmp:
        where = f"the temporary folder (TMPDIR) {tempfile.gettempdir()}"
        todo = "set TMPDIR to a shorter folder"
    elif flash and Path(path) == Path(flash).resolve():
        where, todo = f"--flash {flash}", "give --flash a shorter folder"
    elif Path(path) in [Path(p).resolve() for p in extra_path]:
        todo = "give --path a shorter folder"
    return (
        f"MicroPython's unix port takes paths of at most {mpy.QSTR_MAX} bytes, and "
        f"{where} makes one of {n}: {todo}"
    )


def run(
    board="sim",
    keys=None,
    *,
    headless=True,
    watch=False,
    mpy_compiled=False,
    flash=None,
    extra_path=(),
    entry="main",
    png_dir=None,
    scale=4,
    all_frames=False,
    capture=False,
    timeout=None,
    heapsize=None,
    frames=True,
    flash_lock=None,
):
    """Run the firmware on the sim board; return a Result.

    keys: key script text, or None (interactive unless headless).
    headless: FRAME lines instead of the terminal (implies a script: "" if None).
    watch: play `keys` in the terminal in real time.
    mpy_compiled: run firmware/ compiled by mpy-cross (as the flash tool does).
    flash: folder for the board's files; a temporary one when None.
    extra_path: folders searched before firmware/ (tests put a demo app there).
    entry: module the runner imports (``main``, as a board at boot).
    png_dir: where shot PNGs go (None: no PNGs). all_frames: also every frame.
    capture: capture stdout/stderr into the Result instead of passing them on.
    frames: False drops the headless frames (and shots) unread: long runs.
    flash_lock: the FlashLock of `flash` when the caller holds it; else the
    run takes it (FlashInUse when another simulator has the folder) and
    releases it at the end.

    Raises ScriptError (a wrong key script), OutOfMemory, FlashInUse,
    subprocess.TimeoutExpired, OSError and ValueError before the firmware
    starts (its flash folder, the terminal), Crashed for any other error
    once it has started. A firmware that crashed is no error here: the
    Result's `error`.
    """
    if board not in BOARDS:
        raise ValueError(f"unknown sim board {board!r}: one of {', '.join(BOARDS)}")
    if watch:
        headless = False
    if headless and keys is None:
        keys = ""
    firmware = mpy.FIRMWARE
    long = paths_too_long(flash, extra_path, mpy_compiled)
    if long:  # (checked before anything is made)
        raise ValueError(long)
    if mpy_compiled:
        firmware = mpy.compile_firmware(MPY_BUILD, mpy.UNIX_MPY_CROSS_ARGS)
    guard = None
    short = None  # OutOfMemory, raised once the shots before it are written
    lock = flash_lock
    if flash and lock is None:
        lock = FlashLock(flash)
    ran = False  # the firmware started: from here an error is a crash
    try:
        fd, attrs, raw = _terminal_state() if not headless else (-1, None, None)
        with tempfile.TemporaryDirectory(prefix="scopa_sim_") as tmp:
            tmp = Path(tmp)
            # the guard first: from here a kill of this process leaves no
            # folder behind (the guard removes it)
            tty = os.dup(fd) if fd >= 0 else -1  # its stdin is the pipe: the tty elsewhere
            try:
                owner = (str(lock.path), str(os.getpid())) if lock else ("", "")
                guard = subprocess.Popen(
                    [sys.executable, "-c", GUARD, str(tmp), repr(attrs), repr(raw), str(tty)]
                    + list(owner),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    pass_fds=(tty,) if tty >= 0 else (),
                    start_new_session=True,  # no Ctrl-C, no hang-up from the terminal
                    text=True,
                )
            finally:
                if tty >= 0:
                    os.close(tty)
            flash_dir = prepare_flash(Path(flash) if flash else tmp / "flash", board)
            runner = tmp / "run" / "sim_run.py"
            runner.parent.mkdir()
            error_file = tmp / "error.txt"
            runner.write_text(RUNNER.format(entry=entry, error=str(error_file)))
            frames_file = tmp / "frames.txt"
            dirs = [flash_dir, *(Path(p) for p in extra_path), firmware]
            env = dict(os.environ)
            env["MICROPYPATH"] = os.pathsep.join(
                [".frozen"] + [str(Path(d).resolve()) for d in dirs]
            )
            for k in list(env):
                if k.startswith("SCOPA_SIM_"):
                    del env[k]
            env["SCOPA_SIM_MODE"] = BOARDS[board]
            if keys is not None:  # a file: no limit on a script's length
                script = tmp / "keys.txt"
                script.write_text(_one_a_line(keys))
                env["SCOPA_SIM_SCRIPT"] = str(script)
            if headless:
                env["SCOPA_SIM_HEADLESS"] = "1"
                env["SCOPA_SIM_FRAMES"] = str(frames_file) if frames else os.devnull
            if watch:
                env["SCOPA_SIM_REALTIME"] = "1"
            winsize = tmp / "winsize"
            jobs = _JobControl(fd, attrs, raw, winsize)
            old_winch = None
            quit_file = tmp / "quit"  # made: the board quits as by q
            if not headless:  # the terminal's size, for the board to fit its drawing
                env["SCOPA_SIM_WINSIZE"] = str(winsize)
                env["SCOPA_SIM_QUIT"] = str(quit_file)
                _write_winsize(winsize)
                old_winch = signal.signal(
                    signal.SIGWINCH, lambda *_: _write_winsize(winsize, jobs.redraws)
                )
            args = [mpy.MICROPYTHON]
            if heapsize is not None:
                args += ["-X", f"heapsize={heapsize}"]
            args.append(str(runner))
            # (Ctrl-C reaches the firmware, whose app quits writing what waits
            # for a timed save, and this process, which gives it 2 s: below)
            pipe = subprocess.PIPE if capture else None
            sink = pipe  # where its stdout and stderr go
            console = None  # the firmware's console in a terminal: apart (below)
            term = -1
            child = None
            try:
                if not headless and pipe is None:
                    # its prints and tracebacks kept apart (_Console), and the
                    # screen drawn on a copy of stdout: a line printed (a
                    # save's damage, "app: low memory") no longer lands on it
                    console = _Console()
                    sink = console.fd
                    term = os.dup(sys.stdout.fileno())
                    env["SCOPA_SIM_OUT"] = str(term)
                if attrs is not None:  # the terminal's mode is set here, not by the board
                    env["SCOPA_SIM_TTY"] = "set"
                    _sim_mode(fd, attrs)
                with (
                    jobs if attrs is not None else _nothing(),
                    subprocess.Popen(
                        args,
                        env=env,
                        cwd=flash_dir,
                        stdin=subprocess.DEVNULL if headless else None,
                        stdout=sink,
                        stderr=sink,
                        text=True,
                        # the flock as long as it runs; the terminal drawn on
                        pass_fds=((lock.fd,) if lock else ()) + ((term,) if term >= 0 else ()),
                        # the window closed (SIGHUP to the terminal's group):
                        # not the end of the firmware, which tools/sim.py
                        # asks to quit as by q (below); the guard kills it
                        # should tools/sim.py be killed
                        preexec_fn=_ignore_sighup,
                    ) as child,
                ):
                    if console is not None:
                        console.start()  # (the firmware has its end)
                    ran = True
                    jobs.child = child
                    assert guard.stdin is not None
                    guard.stdin.write(f"{child.pid}\n")
                    guard.stdin.flush()
                    try:
                        out, err = child.communicate(timeout=timeout)
                    except subprocess.TimeoutExpired:
                        child.kill()
                        child.wait()
                        raise
                    except BaseException as e:
                        # Ctrl-C: the firmware has it too. SIGTERM or SIGHUP
                        # (_ExitOnSignals) in a terminal, or a SIGINT sent to
                        # this process alone: the app is asked to quit as by
                        # q (the file SCOPA_SIM_QUIT; no SIGINT, which a write
                        # it cuts short can leave stuck in this unix port).
                        # Either way it writes what waits for a timed save;
                        # stopped if it has not quit within 2 s.
                        ctrl_c = isinstance(e, KeyboardInterrupt)
                        if ctrl_c or not headless:
                            if not headless:
                                quit_file.write_text("")
                            try:
                                child.communicate(timeout=2)
                            except BaseException:
                                pass  # (stopped below)
                        if child.poll() is None:
                            child.kill()
                            child.wait()
                        raise
                    finally:
                        jobs.child = None
                proc = subprocess.CompletedProcess(args, child.returncode, out, err)
            finally:
                _give_back(fd, attrs, raw)
                if old_winch is not None:
                    signal.signal(signal.SIGWINCH, old_winch)
                if term >= 0:
                    os.close(term)
                if console is not None:
                    console.close()
                    if child is not None and child.returncode not in (0, 130, None):
                        console.say("\n" if child.returncode < 0 else "")
                assert guard.stdin is not None
                try:  # the firmware has ended: its pid is no longer the guard's to kill
                    guard.stdin.write("0\n")
                    guard.stdin.flush()
                except OSError:
                    pass
            why = error_file.read_text() if error_file.exists() else ""
            if why == "memory":
                # the shots taken before it are still written (below)
                short = OutOfMemory(
                    f"the firmware ran out of memory in a heap of {heapsize or 'the default'}: "
                    "give a larger --heapsize " + HEAP_NEEDED
                )
            elif why and not why.startswith("crash:"):
                raise ScriptError(why)
            result = Result(proc.returncode, stdout=proc.stdout, stderr=proc.stderr)
            if why.startswith("crash:"):
                result.error = why[6:].split("\n")[0] or "an error"
            if frames_file.exists():
                with open(frames_file) as f:
                    result.frames, result.shots, result.end_ms = parse_frames(f)
    except (ScriptError, OutOfMemory, FlashInUse, subprocess.TimeoutExpired):
        raise
    except Exception as e:
        if not ran:
            raise
        raise Crashed(f"{type(e).__name__}: {e}") from e
    finally:
        if lock is not None and flash_lock is None:
            lock.release()
        if guard is not None and guard.stdin is not None:
            guard.stdin.close()  # after the temporary folder is gone: the guard ends
            guard.wait(10)
    if png_dir is not None:
        out = Path(png_dir)
        out.mkdir(parents=True, exist_ok=True)
        todo = [(_png_name(n), fr) for n, fr in result.shots]
        if all_frames:
            todo += [(f"frame-{i:04d}", fr) for i, fr in enumerate(result.frames, 1)]
        for name, fr in todo:
            path = out / f"{name}.png"
            png.write_frame_png(path, fr.width, fr.height, fr.mode, fr.data, scale)
            result.pngs.append(path)
    if short is not None:
        short.result = result
        raise short
    return result


def _one_a_line(keys):
    """Key script text with a token a line, its comments dropped: the board
    reads a line at a time (boards/sim/board.py `steps`), so that a long
    --keys line does not take the firmware's heap (300 taps on one line ran
    a 150K heap out)."""
    return "".join(t + "\n" for line in keys.split("\n") for t in line.split("#")[0].split())


# The colour screen in a smaller terminal: drawn at most this many times
# smaller (boards/sim/board.py _MAX_SHRINK): 3 times, in 80 x 24, nothing
# could be read.
COLOUR_MAX_SHRINK = 2
NOTE_S = 1.0  # how long a note before the play stays on the terminal, s


def _check_terminal(board):
    """A note when the terminal is smaller than the full-size drawing (the
    board then draws the mono screen in braille, the colour one 2 times
    smaller, or says what it needs until a resize)."""
    w, h = SIZES[board]
    cols, rows = _term_size()
    if cols and rows and (cols < w or rows < (h + 1) // 2 + 1):
        if board == "sim":
            small = cols >= w // 2 and rows >= h // 4 + 1
            how = "; drawing it in braille"
            enlarge = f", {w // 2}x{h // 4 + 1} in braille: enlarge the window"
        else:
            k = COLOUR_MAX_SHRINK
            sw, sh = -(-w // k), (-(-h // k) + 1) // 2 + 1
            small = cols >= sw and rows >= sh
            how = f"; drawing it {k} times smaller"
            mw, mh = SIZES["sim"]
            enlarge = (
                f", {sw}x{sh} {k} times smaller (any smaller is unreadable): enlarge the "
                f"window, or play without --board sim-colour (it fits {mw // 2}x{mh // 4 + 1})"
            )
        print(
            f"scopa-sim: the terminal is {cols}x{rows}; the {board} screen needs "
            f"{w}x{(h + 1) // 2 + 1} characters at full size" + (how if small else enlarge),
            file=sys.stderr,
        )
        time.sleep(NOTE_S)


def _ignore_sighup():
    # (in the firmware's process, before its exec: kept through the exec)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


class _ExitOnSignals:
    """SIGTERM and SIGHUP (a window closed) end tools/sim.py by
    SystemExit(128 + signal) instead of at once, so that every ``finally``
    runs: the firmware stopped, the terminal given back, the flash folder's
    lock removed. Further ones are ignored meanwhile."""

    SIGNALS = (signal.SIGTERM, signal.SIGHUP)

    def __enter__(self):
        self._old = {sig: signal.signal(sig, self._exit) for sig in self.SIGNALS}
        return self

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)

    def _exit(self, signum, frame):
        for sig in self.SIGNALS:
            # (a handler that does nothing, not SIG_IGN: a signal pending
            # as its handler turns SIG_IGN makes CPython raise "OSError:
            # Signal 15 ignored due to race condition" later)
            signal.signal(sig, _ignore)
        raise SystemExit(128 + signum)


def _ignore(signum, frame):
    pass


KEYS_HELP = """\
keys in the terminal:
  arrows     UP DOWN LEFT RIGHT
  Enter      A (play, choose)
  Backspace  B (back)
  h          B held long (the hint)
  q          quit (the game is saved on the flash)
  Ctrl-Z     stop, the terminal as it was; `fg` goes on, the screen drawn again

A terminal sends no key releases, only a key's character, and while it is
held the same again after a delay (its autorepeat). So each key typed is a
press, in the order typed (keys that arrive together too); a key held:
an arrow keeps moving, Enter and Backspace act once (h is the hint).
Enter or Backspace typed again 0.2 to 0.7 s after the same key acts 60 ms
late: the time to see whether the terminal repeats it. What a terminal
cannot tell: the same key typed several times while the app is busy
(thinking, drawing) counts once, as a key held then; a key held from
while the app is busy, or whose repeats come bundled (ssh, mosh), may
count more than once.

key script words (--keys / --script): up down left right A B, long:B,
wait:MS, shot:NAME, quit (as q), off (the power cut: nothing written on
the way out); see boards/sim/board.py parse_script.
"""


def firmware_stopped(signum, flash=None):
    """One line: the firmware process ended by signal `signum` (an int),
    and what it kept (kept)."""
    try:
        name = f"signal {signum} ({signal.Signals(signum).name})"
    except ValueError:
        name = f"signal {signum}"
    return f"the firmware stopped: killed by {name}; {kept(flash)}"


def firmware_crashed(error, flash=None, who="the firmware"):
    """One line: `who` crashed on `error` (its traceback's last line,
    "RuntimeError: boom"), and what it kept (kept)."""
    return f"{who} crashed: {error}; {kept(flash)}"


def kept(flash=None):
    """What a run that ended there kept: the app saves a game after every
    play and the score sheet after every round, on `flash` (a folder) or
    on a temporary flash folder that the run has removed."""
    if flash:
        saves = []
        if saved(flash, "game.sav"):
            saves.append("the game up to the last play")
        if saved(flash, "sheet.sav"):
            saves.append("the score sheet up to the last round")
        if saves:
            return f"on {flash}: " + " and ".join(saves) + " saved"
        if saved(flash, "settings.sav"):
            return f"on {flash}: the settings saved, no game or score sheet yet"
        return f"on {flash}: nothing saved yet"
    return (
        "its saves were on a temporary flash folder, now removed "
        "(--flash DIR keeps them between runs)"
    )


def saved(flash, name):
    """Whether a copy of record `name` (its main copy, .tmp or .bak) on the
    folder `flash` reads (the firmware's store.decode): a damaged file the
    app did not open is no save, a lone .bak is one."""
    mpy.setup_cpython_path()
    import store

    for copy in ("", ".tmp", ".bak"):
        try:
            store.decode((Path(flash) / (name + copy)).read_bytes())
            return True
        except (OSError, ValueError):
            pass
    return False


def new_flash(flash):
    """One line: the folder `flash` named by --flash did not exist and was
    made, an empty flash (no saved game, settings or score sheet), so
    that a name mistyped is seen as a new device."""
    return (
        f"--flash {flash}: no such folder, so made: a new, empty flash (no saved game, "
        "settings or score sheet); check the name if you meant another one"
    )


def folder_arg(text):
    """A folder's name, not empty: ``--flash ''`` once used the current
    folder (board.py and board.json left in it)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty name: give a folder (. for this one)")
    return Path(text)


def file_arg(text):
    """A file's name, not empty."""
    if not text:
        raise argparse.ArgumentTypeError("an empty name: give a file")
    return Path(text)


def _module_found(name, folders):
    """Module `name` (dotted) as a .py, .mpy or package in one of `folders`."""
    rel = name.replace(".", "/")
    for d in folders:
        d = Path(d)
        if any((d / (rel + ext)).is_file() for ext in (".py", ".mpy")) or (d / rel).is_dir():
            return True
    return False


def module_arg(text):
    """A module's name, not empty."""
    if not text:
        raise argparse.ArgumentTypeError("an empty name: give a module")
    return text


def heapsize_arg(text):
    """--heapsize: bytes with K or M, at least 16K, as `micropython -X`."""
    m = re.fullmatch(r"(\d+)([KkMm]?)", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: give e.g. 192K or 2M")
    n = int(m.group(1)) * {"": 1, "k": 1024, "m": 1024 * 1024}[m.group(2).lower()]
    if n < 16 * 1024:
        raise argparse.ArgumentTypeError(
            f"{text} is too small for MicroPython and the firmware: give at least 16K "
            + HEAP_NEEDED
        )
    return m.group(1) + m.group(2).upper()


def _remove_empty(folder):
    """Remove `folder` and the folders in it when they hold no file."""
    try:
        for sub in sorted(folder.rglob("*"), reverse=True):
            sub.rmdir()  # (deepest first; a file stops it: OSError)
        folder.rmdir()
    except OSError:
        pass


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="scopa-sim",
        description="Run the Scopa firmware on the MicroPython unix port.",
        epilog=KEYS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--board", choices=sorted(BOARDS), default="sim")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--script", type=file_arg, help="key script file (implies --headless)")
    src.add_argument("--keys", help='key script text, e.g. "right A wait:500 long:B shot:hint"')
    ap.add_argument("--headless", action="store_true", help="no terminal: frames to PNGs")
    ap.add_argument("--watch", action="store_true", help="play the script in the terminal")
    ap.add_argument("--png-dir", type=folder_arg, default=None, help=f"default {DEFAULT_PNG_DIR}")
    ap.add_argument("--all-frames", action="store_true", help="also a PNG of every frame")
    ap.add_argument(
        "--scale", type=int, default=4, help=f"PNG pixels per screen pixel (1 to {MAX_SCALE})"
    )
    ap.add_argument("--mpy", action="store_true", help="run the firmware compiled by mpy-cross")
    ap.add_argument(
        "--flash",
        type=folder_arg,
        help="keep the board's files (saved game, settings, score sheet) in this folder "
        "(made, and said so, when there is none); without it they go to a temporary "
        "folder, deleted at the end (tools/play uses build/sim-flash)",
    )
    ap.add_argument("--heapsize", type=heapsize_arg, help="MicroPython heap, e.g. 192K")
    ap.add_argument(
        "--entry", type=module_arg, default="main", help="module to run instead of main (a demo)"
    )
    ap.add_argument(
        "--path", type=folder_arg, action="append", default=[], help="extra module folder"
    )
    ap.add_argument("--timeout", type=float, default=None, help="seconds (headless: 120)")
    a = ap.parse_args(argv)
    if not 1 <= a.scale <= MAX_SCALE:
        # (a new user's --scale 1000: some 70 GB for one PNG)
        ap.error(f"--scale: 1 to {MAX_SCALE} PNG pixels per screen pixel")
    if a.timeout is not None and a.timeout <= 0:
        ap.error("--timeout: a number of seconds above 0")
    for opt, path in (("--flash", a.flash), ("--png-dir", a.png_dir)):
        if path is not None and path.exists() and not path.is_dir():
            ap.error(f"{opt}: {path} is a file, not a folder")
    if a.flash is not None:
        # board.py, board.json and the saves would land among the sources
        # (a board.py in host_tests/ or firmware/ shadows the real one): in
        # the repository only under build/
        here = a.flash.resolve()
        build = ROOT / "build"
        if (here == ROOT or ROOT in here.parents) and not (here == build or build in here.parents):
            top = here.relative_to(ROOT).parts[:1]
            where = f"the repository ({top[0]}/)" if top else "the repository's top folder"
            ap.error(
                f"--flash {a.flash}: in {where}; give a folder under build/ or outside "
                "the repository (tools/play uses build/sim-flash)"
            )
    if a.entry != "main" and not _module_found(a.entry, [ROOT / "firmware", *a.path]):
        where = ", ".join(str(p) for p in a.path) or "no --path given"
        ap.error(f"--entry {a.entry}: no such module in firmware/ or the --path folders ({where})")
    long = paths_too_long(a.flash, a.path, a.mpy)
    if long:  # (before the flash folder is made)
        ap.error(long)
    try:
        keys = a.script.read_text() if a.script else a.keys
    except OSError as e:
        ap.error(f"--script: {e.strerror}: {a.script}")
    headless = (a.headless or keys is not None) and not a.watch
    limit = a.timeout if a.timeout is not None else (120 if headless else None)
    if not headless and not a.watch and not (sys.stdin and sys.stdin.isatty()):
        # (`tools/play < /dev/null`: nothing to play with, escapes to no one)
        print(
            "scopa-sim: stdin is not a terminal; use .venv/bin/scopa-sim --keys ... "
            "(or --script FILE) for scripted play",
            file=sys.stderr,
        )
        return 2
    lock = None
    made = False  # --flash named no folder: made
    shots = None  # the PNG folder, when this run made it (removed if left empty)
    try:
        with _ExitOnSignals():
            if headless:  # where the shots go, before the play rather than after it
                out = a.png_dir or DEFAULT_PNG_DIR
                if not out.exists():  # (its first folder that is new)
                    shots = out.absolute()
                    while not shots.parent.exists():
                        shots = shots.parent
                out.mkdir(parents=True, exist_ok=True)
                if not os.access(out, os.W_OK):
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(out))
            if a.flash is not None:  # taken before the play: a second simulator stops here
                made = not a.flash.exists()
                lock = FlashLock(a.flash)
                if made:  # (a name mistyped: a new device, not the one meant)
                    print(f"scopa-sim: {new_flash(a.flash)}", file=sys.stderr)
                    if not headless:  # read before the screen is drawn over it
                        time.sleep(NOTE_S)
            if not headless:
                _check_terminal(a.board)
            result = run(
                a.board,
                keys,
                headless=headless,
                watch=a.watch,
                mpy_compiled=a.mpy,
                flash=a.flash,
                png_dir=(a.png_dir or DEFAULT_PNG_DIR) if headless else None,
                scale=a.scale,
                all_frames=a.all_frames,
                timeout=limit,
                heapsize=a.heapsize,
                entry=a.entry,
                extra_path=a.path,
                flash_lock=lock,
            )
    except FlashInUse as e:
        print(f"scopa-sim: {e}", file=sys.stderr)
        return 2
    except Crashed as e:  # a bug of this file's, the game played: no usage error
        traceback.print_exception(e.__cause__ or e)
        print(f"scopa-sim: {firmware_crashed(e, a.flash, 'the simulator')}", file=sys.stderr)
        return 1
    except OutOfMemory as e:
        for p in e.result.pngs if e.result else ():
            print(f"scopa-sim: wrote {p}", file=sys.stderr)
        print(f"scopa-sim: {e}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        return 130
    except ValueError as e:  # (before the firmware started: a wrong key script...)
        ap.error(str(e))
    except subprocess.TimeoutExpired as e:
        print(
            f"scopa-sim: the run did not end within {limit or e.timeout:g} s; "
            "a longer key script needs --timeout SECONDS",
            file=sys.stderr,
        )
        return 124
    except OSError as e:  # --flash or --png-dir where nothing can be written
        where = f"{e.filename}: " if e.filename else ""
        why = e.strerror
        flash = Path(a.flash).resolve() if a.flash else None
        what = Path(e.filename).resolve() if flash and e.filename else None
        if what and not flash.is_dir() and (what == flash or what in flash.parents):
            # (a new user's find: "/proc/x: No such file or directory" alone)
            where = f"--flash {a.flash}: "
            why = f"no such folder, and it cannot be made ({e.strerror}); give a folder that can be"
        elif what and e.errno in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOENT):
            if e.errno == errno.ENOENT and flash in what.parents:
                # (a folder where no file can be made, as /proc: a new
                # user's find, "/proc/sim.lock: No such file or directory")
                why = f"cannot be made ({e.strerror})"
            if what == flash or flash in what.parents:
                # (a read-only flash on a board plays on, "Not saved!"; this
                # folder also holds the board's files and the simulator's lock)
                why += (
                    ": the simulator writes its flash folder (board.py, its lock, the "
                    "saves); give --flash a folder it can write"
                )
        print(f"scopa-sim: {where}{why}", file=sys.stderr)
        return 2
    finally:
        if lock is not None:  # every way out: the flash folder free again
            lock.release()
        if shots is not None:  # made for this run: gone again if no PNG went in
            _remove_empty(shots)
    # (on a new line: the terminal's last row, the keys' help, has none)
    nl = "" if headless else "\n"
    if made and not headless:  # again: the note at the start was drawn over
        print(f"{nl}scopa-sim: {new_flash(a.flash)}", file=sys.stderr)
        nl = ""
    if result.returncode < 0:  # the firmware ended by a signal (kill -9, the OOM killer)
        print(f"{nl}scopa-sim: {firmware_stopped(-result.returncode, a.flash)}", file=sys.stderr)
        return 1  # (as a crash: 128 + signal is this program's own SIGTERM, SIGHUP)
    if headless:
        print(
            f"scopa-sim: {len(result.frames)} frames, end at {result.end_ms} ms (virtual), "
            f"exit {result.returncode}",
            file=sys.stderr,
        )
        for p in result.pngs:
            print(f"scopa-sim: wrote {p}", file=sys.stderr)
        if not result.pngs:
            print("scopa-sim: no shot:NAME in the key script, so no PNG", file=sys.stderr)
    if result.error is not None:  # (its traceback above)
        print(f"scopa-sim: {firmware_crashed(result.error, a.flash)}", file=sys.stderr)
        return result.returncode or 1
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
