"""scopa-scores: the scorekeeper's sheet from a board, as CSV.

    scopa-scores --port auto --out evening.csv
    scopa-scores --port /dev/ttyACM0            (CSV on stdout)
    scopa-scores --file sheet.sav --out x.csv   (a copied file)

Reads the sheet file (``sheet.sav``, and its ``.tmp`` and ``.bak`` copies)
from the board's flash over the raw REPL with mpremote's library (as the
flash tool does), then picks the copy exactly as the device does: the
firmware's own store.py checks the header, the length and the checksum,
and sheet.py checks the sheet and recounts it with the engine's scoring.
Reading interrupts the app on the board; it is restarted after (a soft
reset from the REPL runs main.py again) unless ``--no-restart``.

The CSV has one row per round: the evening's round number, the game (a
best of three is one game), the match and the round in it, the counts
entered for the round (each side's cards, denari and scope, who took the
settebello and the primiera or each side's best card of every suit, and
the variant's re bello, napola run and grande), each side's points per
category (cards, denari, settebello, primiera, scope and the variant's:
the game's terms, see TERMS) and for the round, each side's match total after the round, and
the winner on the round that ends a match.
"""

import argparse
import contextlib
import csv
import io
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
SHIM = ROOT / "host_tests" / "shim"  # `micropython` (const) for CPython
BAUDRATE = 115200
SUFFIXES = ("", ".tmp", ".bak")


class ScoresError(Exception):
    """What went wrong, said for the user."""


def _firmware():
    """Import the firmware's store and sheet modules (CPython)."""
    for p in (str(SHIM), str(FIRMWARE)):
        if p not in sys.path:
            sys.path.insert(0, p)
    import sheet
    import store

    return store, sheet


def find_port():
    """The first USB serial device, as ``mpremote connect auto`` picks it
    (the flash tool's choice, said the same way)."""
    from tools.flash.common import FlashError
    from tools.flash.device import find_port as first_port

    try:
        return first_port()
    except FlashError as e:
        raise ScoresError(f"{e.what}: {e.todo}") from None


def fetch(port, path, restart=True):
    """The bytes of `path` and its .tmp and .bak copies on the board at
    `port`: {suffix: bytes}, missing copies left out."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport

    if not port:
        raise ScoresError("--port is empty: give the board's port, or auto")
    try:
        t = SerialTransport(port, baudrate=BAUDRATE)
    except TransportError as e:
        if os.name == "nt" or "://" in port:  # a COM port, a URL: no node to look at
            raise ScoresError(f"cannot open {port}: {e}") from None
        from tools.flash.device import port_error

        why = port_error(port, str(e))  # what the flash tool says of the same port
        raise ScoresError(f"{why.what}; {why.todo}" if why.todo else why.what) from None
    t.serial.timeout = 5  # a pty read blocks without one
    out = {}
    try:
        try:
            # mpremote prints what it got instead of the banner (b'' from a
            # silent port) on stdout, where the CSV goes: the message says it
            with contextlib.redirect_stdout(io.StringIO()):
                t.enter_raw_repl(soft_reset=False)
        except (TransportError, OSError) as e:
            raise ScoresError(f"no MicroPython answers on {port}: {e}") from None
        for suffix in SUFFIXES:
            try:
                out[suffix] = bytes(t.fs_readfile(path + suffix))
            except OSError:
                continue  # no such copy
            except TransportError as e:
                raise ScoresError(f"reading {path}{suffix} on {port}: {e}") from None
        t.exit_raw_repl()
        if restart:
            t.serial.write(b"\x04")  # soft reset from the friendly REPL: main.py runs
    finally:
        t.close()
    return out


def read_local(path):
    """{suffix: bytes} of the file `path` and its .tmp / .bak next to it."""
    out = {}
    for suffix in SUFFIXES:
        try:
            out[suffix] = Path(str(path) + suffix).read_bytes()
        except OSError:
            continue
    return out


def choose(copies, name="sheet.sav", where="on the board"):
    """The sheet in `copies` ({suffix: bytes}), chosen as the device does
    (store.load with sheet's check): ``(Sheet, which copy, why)``. Raises
    ScoresError when there is none or none is good."""
    store, sheet = _firmware()
    with tempfile.TemporaryDirectory(prefix="scopa-scores-") as tmp:
        for suffix, data in copies.items():
            Path(tmp, name + suffix).write_bytes(data)
        obj, status, why = store.load(name, tmp, sheet.Sheet.from_obj)
    if obj is None:
        if status == store.NONE:
            raise ScoresError(f"no {name} {where}: no sheet was saved yet")
        if all("not a saved record" in w or "not a score sheet" in w for w in why.split("; ")):
            raise ScoresError(f"{name} {where} is not a score sheet: {why}")
        raise ScoresError(f"every copy of {name} {where} is damaged: {why}")
    which = {store.OK: name, store.TMP: name + ".tmp", store.BAK: name + ".bak"}[status]
    return sheet.Sheet.from_obj(obj), which, why


# The engine's category names (scopa/scoring.py CATEGORIES) as the CSV
# names them: the game's terms, as the firmware's English strings
# (firmware/lang/en.txt: Cards, Denari, Primiera, Scope, Re bello, Napola,
# Piccola, Grande; the settebello as its hints say it, "Takes settebello").
TERMS = {
    "cards": "cards",
    "coins": "denari",
    "settebello": "settebello",
    "primiera": "primiera",
    "scope": "scope",
    "re_bello": "re bello",
    "napola": "napola",
    "piccola": "piccola",
    "grande": "grande",
}


def categories(sh):
    """The scoring categories in play for the sheet's rules (those the
    engine's Score lists), from a dummy round."""
    n = sh.rules.sides
    e = {"t": [40] + [0] * (n - 1), "d": [10] + [0] * (n - 1), "s": 0, "p": 0, "sc": [0] * n}
    for f in sh.fields():  # side 0 took everything: all the denari are its
        if f in ("rb", "gr"):
            e[f] = 0
        elif f == "np":
            e[f] = [10] + [0] * (n - 1)
    return list(sh.points(e).categories)


def _card(c):
    from scopa import cards

    return "-" if c < 0 else cards.name(c)


def entered(sh, names):
    """(header, row maker) of the counts typed in for a round: each side's
    cards, denari and scope, the settebello's side, the primiera's side or
    each side's best card of every suit, and the variant's fields."""
    fields = sh.fields()
    head = []
    for what in ("cards taken", "denari taken", "scope made"):
        head += [f"{x} {what}" for x in names]
    head += ["settebello to", "primiera to"] + [f"{x} primiera cards" for x in names]
    if "rb" in fields:
        head.append("re bello to")
    if "np" in fields:
        head += [f"{x} napola run" for x in names]
    if "gr" in fields:
        head.append("grande to")

    def side(i):
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else ""

    def row(e):
        out = list(e["t"]) + list(e["d"]) + list(e["sc"]) + [side(e["s"])]
        if "pc" in e:
            out.append("by the cards")
            out += [" ".join(_card(c) for c in pc) for pc in e["pc"]]
        else:
            out.append(side(e.get("p", -1)) or "nobody")
            out += [""] * len(names)
        if "rb" in fields:
            out.append(side(e.get("rb", -1)))
        if "np" in fields:
            out += list(e.get("np") or [0] * len(names))
        if "gr" in fields:
            out.append(side(e.get("gr", -1)))
        return out

    return head, row


def rows(sh):
    """The CSV rows (lists) of sheet `sh`, the header first."""
    names = sh.names
    if len(set(names)) < len(names):
        names = ["%d:%s" % (i + 1, x) for i, x in enumerate(names)]
    cats = categories(sh)
    counts, count_row = entered(sh, names)
    head = ["round", "game", "match", "match round"] + counts
    for c in [TERMS.get(c, c) for c in cats] + ["points"]:
        head += [f"{x} {c}" for x in names]
    head += [f"{x} total" for x in names] + ["winner"]
    out = [head]
    for k, m in enumerate(sh.recount(scores=True)):
        last = len(m["rounds"]) - 1
        for j, (i, sc, after) in enumerate(m["rounds"]):
            row = [i + 1, m["game"] + 1, k + 1, j + 1] + count_row(sh.rounds[i])
            for c in cats:
                row += getattr(sc, c)
            row += sc.total + after
            won = m["over"] and j == last and m["winner"] is not None
            row.append(sh.names[m["winner"]] if won else "")
            out.append(row)
    return out


def to_csv(sh):
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows(sh))
    return buf.getvalue()


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="scopa-scores",
        description="Read the scorekeeper's sheet from a board (mpremote) and write it as CSV.",
    )
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--port", help="serial port of the board, or auto (the first USB one)")
    src.add_argument("--file", type=Path, help="a sheet file copied from a board instead")
    ap.add_argument("--out", type=Path, help="CSV file to write (default: stdout)")
    ap.add_argument("--path", default="sheet.sav", help="the sheet file on the board")
    ap.add_argument("--no-restart", action="store_true", help="leave the board in its REPL")
    a = ap.parse_args(argv)
    name = os.path.basename(a.path)
    where = "on the board"
    try:
        if a.file is not None:
            if a.file.is_dir():
                raise ScoresError(
                    f"{a.file} is a folder: give the sheet file in it (--file {a.file / name})"
                )
            copies = read_local(a.file)
            name = a.file.name
            where = f"in {a.file.parent}"
            if not copies:
                raise ScoresError(f"no such file: {a.file} (nor its .tmp or .bak)")
        else:
            port = find_port() if a.port == "auto" else a.port
            copies = fetch(port, a.path, restart=not a.no_restart)
        sh, which, why = choose(copies, name, where)
    except ScoresError as e:
        print(f"scopa-scores: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: the shell's status for it, 128 + SIGINT
        print("scopa-scores: interrupted; nothing written", file=sys.stderr)
        return 130
    if which.endswith(".tmp") and not why:
        why = f"newer than {name}: a save cut before its renames"
    if why:
        print(f"scopa-scores: used {which}: {why}", file=sys.stderr)
    text = to_csv(sh)
    if a.out is None:
        sys.stdout.write(text)
    else:
        try:
            a.out.write_text(text)
        except OSError as e:
            print(f"scopa-scores: cannot write {a.out}: {e.strerror}", file=sys.stderr)
            return 1
        n = len(sh.rounds)
        rounds = "1 round" if n == 1 else f"{n} rounds"
        print(f"scopa-scores: {rounds} of {', '.join(sh.names)} -> {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
