"""A board on a serial port, through mpremote's transport: the probe, the
scan of its files, writes under a temporary name, the reset.

mpremote's SerialTransport opens the port, enters the raw REPL and runs
the code. Two of its jobs are done here instead, on purpose: its
``fs_writefile`` sends ``repr()`` chunks of 256 bytes (a .mpy file, mostly
non-ASCII, travels as about three times its size; this sends base64 in
1 KiB chunks when the board has binascii) and writes in place, where a
flash must write under a temporary name, check the size and rename; and
its ``fs_hashfile`` hashes one file per command, where the scan lists and
hashes every folder in one.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import errno
import io
import os
import shutil
import stat
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .common import BAUDRATE, CHUNK, TMP_SUFFIX, FlashError, say
from .compiler import MpyFormat

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
            if os.name == "nt" or "://" in port:  # a COM port, a URL: no node to look at
                raise FlashError(
                    f"cannot open {port}: {e}",
                    f"check the port name (`{mpremote()} connect list`), that no other program "
                    "(Thonny, a serial terminal, mpremote repl) holds it, and on Linux that "
                    "you are in the dialout group",
                ) from None
            raise port_error(port, str(e)) from None
        # A pty read blocks without a timeout; a board answers in milliseconds.
        self.t.serial.timeout = 5
        self.base64 = False  # set by probe()

    def enter(self) -> None:
        """Interrupt any program, soft-reset and enter the raw REPL."""
        from mpremote.transport import TransportError

        try:
            # mpremote prints what it got instead of the banner (b'' from a
            # silent port): the message below says it
            with contextlib.redirect_stdout(io.StringIO()):
                self.t.enter_raw_repl(soft_reset=True)
        except (TransportError, OSError) as e:
            raise FlashError(
                f"the device on {self.port} does not answer like MicroPython ({e})",
                f"is MicroPython installed? Look with `{mpremote()} connect {self.port} repl`; "
                "a boot.py on the board that never returns keeps the tool out too (Ctrl-C "
                f"it there, then `{mpremote()} rm :boot.py`); press the reset button, or "
                "reinstall MicroPython from https://micropython.org/download/",
            ) from None

    def close(self, restart: bool = False) -> None:
        """Leave the raw REPL and let go of the port; `restart`: then
        soft-reset from the friendly REPL, so that main.py (the app the
        tool interrupted) runs again."""
        try:
            if self.t.in_raw_repl:
                self.t.exit_raw_repl()
            if restart:
                self.t.serial.write(b"\x04")
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

    def read_bytes(self, path: str) -> bytes | None:
        """The bytes of file `path` on the board, None when there is none
        (read as bytes: text that is not UTF-8 would stop the board's code)."""
        return self.eval(
            f"try:\n with open({path!r}, 'rb') as f:\n  print(repr(f.read()))\n"
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


def mpremote() -> str:
    """The mpremote command as it is typed here, for a message: `mpremote`
    where the shell finds this Python's own (an activated .venv), else its
    path beside this Python, relative to the current folder when inside it
    (`.venv/bin/mpremote`: the README runs `.venv/bin/flash`, and a new
    user's shell had no `mpremote`)."""
    here = os.path.dirname(sys.executable)  # (not resolved: a venv's bin/)
    exe = os.path.join(here, "mpremote.exe" if os.name == "nt" else "mpremote")
    found = shutil.which("mpremote")
    if not os.path.exists(exe) or found and os.path.samefile(found, exe):
        return "mpremote"
    try:
        rel = os.path.relpath(exe)
    except ValueError:  # (Windows: another drive)
        return exe
    if rel.startswith(".."):
        return exe
    return rel if os.sep in rel else os.path.join(".", rel)


def port_error(port: str, failed: str) -> FlashError:
    """Why the POSIX path `port` did not open as a serial port (mpremote said
    `failed`): no such device, not a serial device, no permission (only for
    EACCES on a device node) or held by another program."""
    listing = f"list the boards with `{mpremote()} connect list`"
    busy = "check that no other program (Thonny, a serial terminal, mpremote repl) holds it"
    try:
        st = os.stat(port)
    except FileNotFoundError:
        return FlashError(f"no such device {port}", listing)
    except OSError as e:
        return FlashError(f"cannot open {port}: {e.strerror or e}", listing)
    if not stat.S_ISCHR(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a file"
        return FlashError(f"{port} is not a serial device ({kind})", listing)
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.EACCES:
            group = _group_name(st.st_gid)
            return FlashError(
                f"no permission to open {port} (its group is {group})",
                f"join that group (on Linux: sudo usermod -aG {group} $USER), then log out "
                "and in again",
            )
        todo = busy if e.errno == errno.EBUSY else listing
        return FlashError(f"cannot open {port}: {e.strerror or e}", todo)
    try:
        tty = os.isatty(fd)
    finally:
        os.close(fd)
    if not tty:
        return FlashError(f"{port} is not a serial device", listing)
    return FlashError(f"cannot open {port}: {failed}", busy)


def _group_name(gid: int) -> str:
    """The name of group `gid` (`dialout` on most Linux systems for a serial
    port), or its number."""
    try:
        import grp

        return grp.getgrgid(gid).gr_name
    except (ImportError, KeyError):
        return str(gid)


def find_port() -> str:
    """The first USB serial device, as `mpremote connect auto` picks it."""
    import serial.tools.list_ports

    ports = [p for p in sorted(serial.tools.list_ports.comports()) if p.vid is not None]
    if not ports:
        raise FlashError(
            "no board found: no USB serial device is connected",
            "plug the board in with a data cable (not a charge-only one) and check "
            f"`{mpremote()} connect list`; or pass the port: --port /dev/ttyACM0 (Linux), "
            "--port /dev/cu.usbmodem101 (macOS), --port COM3 (Windows)",
        )
    if len(ports) > 1:
        others = ", ".join(p.device for p in ports[1:])
        say(
            f"note: several serial devices; using {ports[0].device} (also: {others}); "
            "pass --port to choose"
        )
    return ports[0].device
