"""Build the handheld's web page into build/web/ and serve it on 127.0.0.1.

    tools/web                 build, then serve on port 8642 (or the next free)
    tools/web --port 8000     that port
    tools/web --build-only    build and stop

The page (boards/web/: index.html, scopa.js, sw.js) runs the firmware on
MicroPython's WebAssembly port, pinned in tools/wasm/package-lock.json
(installed by tools/check): micropython.mjs and micropython.wasm are
copied from tools/wasm/node_modules. The firmware is compiled by mpy-cross
as the flash tool compiles it for a board (bytecode: the port's .mpy has no
native architecture) together with the web board (boards/web/board.py),
and packed into one file, firmware.pack (see `pack`). Everything is a
static file: any static server can serve build/web/.
"""

import argparse
import hashlib
import http.server
import json
import os
import shutil
import struct
import sys
import tempfile
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT / "host_tests", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import mpy  # noqa: E402  (host_tests/mpy.py: mpy-cross)

PAGE = ROOT / "boards" / "web"
PORT_PKG = ROOT / "tools" / "wasm" / "node_modules" / "@micropython"
PORT_PKG = PORT_PKG / "micropython-webassembly-pyscript"
PORT_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "scopa.js")
OUT = ROOT / "build" / "web"
MPY_BUILD = ROOT / "build" / "web-mpy"
WASM_MPY_CROSS_ARGS = ()  # bytecode only: sys.implementation._mpy is 774 (v6.3, no arch)
# The firmware files the page does not need: main.py is the boot stub that
# reads board.json, the page starts the app through the board instead.
SKIP = frozenset({"main.py"})


def pack(files):
    """The bytes of firmware.pack holding `files`, a list of ``(path,
    bytes)``: b"SCPK", the index's length (uint32 little-endian), the index
    (JSON ``[[path, size], ...]``), then the files' bytes in its order."""
    index = json.dumps([[p, len(d)] for p, d in files], separators=(",", ":")).encode()
    return b"SCPK" + struct.pack("<I", len(index)) + index + b"".join(d for _, d in files)


def unpack(blob):
    """The ``[(path, bytes)]`` of a firmware.pack. Raises ValueError when
    `blob` is not one."""
    if blob[:4] != b"SCPK" or len(blob) < 8:
        raise ValueError("not a firmware pack")
    (n,) = struct.unpack("<I", blob[4:8])
    index = json.loads(blob[8 : 8 + n])
    out, o = [], 8 + n
    for path, size in index:
        out.append((path, blob[o : o + size]))
        o += size
    if o != len(blob):
        raise ValueError("firmware pack: %d bytes left over" % (len(blob) - o))
    return out


def firmware_files():
    """``[(path, bytes)]``, sorted by path: what the flash tool stages for a
    board (tools.flash.stage: firmware/ compiled by mpy-cross, data files as
    they are) with the web board as board.mpy, minus `SKIP`."""
    from tools.flash import Stager
    from tools.flash.stage import stage_firmware

    if MPY_BUILD.exists():
        shutil.rmtree(MPY_BUILD)
    stager = Stager(MPY_BUILD, mpy._compiler(WASM_MPY_CROSS_ARGS, mpy.MPY_CACHE))
    stage_firmware(stager, mpy.FIRMWARE)
    stager.add_py("board.py", PAGE / "board.py", False, "boards/web/board.py")
    stage = stager.finish()
    return sorted((dev, path.read_bytes()) for dev, path in stage.files.items() if dev not in SKIP)


def build(out=OUT):
    """Build the page into the folder `out`, replaced whole once the new
    page is complete (built beside it first: an interrupted build leaves
    the old page); returns ``{file name: size in bytes}``. Raises
    FileNotFoundError when the wasm port is not installed (tools/check
    installs it)."""
    out = Path(out)
    for name in PORT_FILES:
        if not (PORT_PKG / name).is_file():
            raise FileNotFoundError(
                f"{PORT_PKG / name}: the WebAssembly port is not installed "
                "(tools/check --install runs npm ci in tools/wasm)"
            )
    out.parent.mkdir(parents=True, exist_ok=True)
    new = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-", dir=out.parent))
    umask = os.umask(0)
    os.umask(umask)
    new.chmod(0o777 & ~umask)  # as mkdir makes it (mkdtemp's is the owner's only)
    try:
        sizes = _build(new)
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
            out.rename(old / out.name)
            new.rename(out)
            shutil.rmtree(old)
        else:
            new.rename(out)
    finally:
        shutil.rmtree(new, ignore_errors=True)  # (gone once renamed)
    return sizes


def _build(out):
    for name in PAGE_FILES:
        shutil.copyfile(PAGE / name, out / name)
    for name in PORT_FILES:
        shutil.copyfile(PORT_PKG / name, out / name)
    (out / "firmware.pack").write_bytes(pack(firmware_files()))
    cached = ["./", *PAGE_FILES, *PORT_FILES, "firmware.pack"]
    h = hashlib.sha256()
    for name in cached[1:]:
        h.update(name.encode() + b"\0" + (out / name).read_bytes())
    sw = (PAGE / "sw.js").read_text()
    sw = sw.replace("@VERSION@", h.hexdigest()[:16]).replace("@FILES@", json.dumps(cached))
    (out / "sw.js").write_text(sw)
    return {p.name: p.stat().st_size for p in sorted(out.iterdir())}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, never cached by the browser beyond the service worker;
    quiet unless asked."""

    verbose = False
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        if self.verbose:
            super().log_message(format, *args)


# The browser keeps the page's saves (localStorage) per port: one port run
# after run, so that the games and score sheets are there the next time.
DEFAULT_PORT = 8642
PORT_TRIES = 10  # in use: the next ones, in order (the same one again next time)


def open_server(port=None, verbose=False):
    """(server, note): `port` given, on it (OSError when it cannot); None,
    on DEFAULT_PORT or the first free of the PORT_TRIES after it, with a
    note saying so (the saves made on another port are not seen there)."""
    if port is not None:
        return server(OUT, port, verbose), ""
    for p in range(DEFAULT_PORT, DEFAULT_PORT + PORT_TRIES):
        try:
            httpd = server(OUT, p, verbose)
        except OSError:
            continue
        note = (
            ""
            if p == DEFAULT_PORT
            else (
                f"tools/web: port {DEFAULT_PORT} is in use: serving on {p}; the browser keeps "
                f"saves per port, so games saved on {DEFAULT_PORT} are not seen there"
            )
        )
        return httpd, note
    httpd = server(OUT, 0, verbose)
    return httpd, (
        f"tools/web: ports {DEFAULT_PORT}-{DEFAULT_PORT + PORT_TRIES - 1} are in use: serving "
        f"on {httpd.server_address[1]}, whose saves the next run will not see"
    )


def server(directory=OUT, port=0, verbose=False):
    """An HTTP server of `directory` on 127.0.0.1:`port` (0: a free one),
    not yet serving: call ``serve_forever()`` (``server_address[1]`` is the
    port)."""
    handler = type("PageHandler", (Handler,), {"verbose": verbose})
    return http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), partial(handler, directory=str(directory))
    )


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tools/web", description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"port on 127.0.0.1 (default: {DEFAULT_PORT}, or the next free one; the "
        "browser keeps saves per port; 0: any free one)",
    )
    ap.add_argument("--build-only", action="store_true", help="build build/web/ and stop")
    ap.add_argument("--verbose", action="store_true", help="log every request")
    args = ap.parse_args(argv)
    if args.port is not None and not 0 <= args.port <= 65535:
        ap.error(f"--port {args.port}: a port is 0 to 65535 (0: a free one)")
    httpd = None
    note = ""
    if not args.build_only:  # the port first: a port in use rebuilds nothing
        try:
            httpd, note = open_server(args.port, args.verbose)
        except OSError as e:
            why = e.strerror or e
            print(f"tools/web: cannot serve on 127.0.0.1:{args.port}: {why}", file=sys.stderr)
            print(
                f"tools/web: choose another --port, or leave it out (port {DEFAULT_PORT} or after)",
                file=sys.stderr,
            )
            return 1
    try:
        sizes = build()
    except (FileNotFoundError, KeyboardInterrupt) as e:
        if httpd is not None:
            httpd.server_close()
        if isinstance(e, FileNotFoundError):
            print(f"tools/web: {e}", file=sys.stderr)
            return 1
        # Ctrl-C: the shell's status for it, 128 + SIGINT
        print("tools/web: interrupted; the page in build/web is as it was", file=sys.stderr)
        return 130
    total = sum(sizes.values())
    print(f"tools/web: built {OUT.relative_to(ROOT)}/: {total:,} bytes")
    for name, size in sizes.items():
        print(f"  {name:20} {size:>9,}")
    if httpd is None:
        return 0
    if note:
        print(note, file=sys.stderr)
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    print(f"tools/web: serving {url} (Ctrl-C stops)", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
