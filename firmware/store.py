"""Settings and the game in progress on the device's flash, saved so that
a power cut at any moment leaves a good copy.

A record is a text file: a header line ``SCOPA <version> <length>
<checksum>`` then the body (JSON). `save` writes ``name.tmp`` and closes
it, moves the previous good copy to ``name.bak`` and renames the new one
into place. `load` checks the header, the length and the checksum: a
whole .tmp first (a finished write whose renames were cut: the newest),
then the main copy, then the .bak; it says which copy it read and what
was wrong. A main copy
that `load` found unreadable is not moved over the good .bak by the next
`save`: it is set aside as ``name.bad`` (one, the latest), so that
nothing a player saved is overwritten unseen.

A journal is a file of lines appended one at a time after a record: each
``J <n> <value> <check>`` names its place n (1, 2, ...) after the record
and carries a checksum over a base that names the record (the game's: the
checksum of its replay code, which its seats do not change), n and the
value, so that a line cut short, out of order or left from an older
record is no line at all. The game is saved this way: its record at the start and the
end of a round, one short line a play in between, so that a play's save
costs the same few bytes however long the game (the whole record, written
again after every play, grew with the history and froze the app for a
tenth of a second and more on a Pico). A power cut in an append loses that
play at most; in the record's save, the rename protocol above holds, and
the journal of the record before is then refused by its checksum.

Wear: the game writes about a line a play and a record a round, some
thousands of small writes a match. On littlefs (wear-levelled) with
100,000 erase cycles a block that is years of daily play; keep it in mind
for a FAT filesystem.
"""

from micropython import const

FORMAT = const(1)
_HEAD = const(48)  # bytes read for a header line (one is at most 28)
_BUF = const(256)  # bytes read at a time to check a record

# load() results: what was read
OK = const(0)  # the main copy
TMP = const(1)  # a complete new copy whose rename was cut
BAK = const(2)  # the previous copy: the main one was damaged or missing
NONE = const(3)  # nothing saved
BAD = const(4)  # every copy damaged


def checksum(data):
    """Adler-32 style checksum of `data` (bytes) as 8 hex digits; small
    ints only (every value stays below 2**16)."""
    a, b = _adler(data, 1, 0)
    return "%04x%04x" % (b, a)


def _adler(data, a, b):
    # checksum's sums (a, b) carried on over `data`
    for x in data:
        a += x
        if a >= 65521:
            a -= 65521
        b += a
        if b >= 65521:
            b -= 65521
    return a, b


def _path(folder, name):
    return folder + "/" + name if folder else name


def _remove(p):
    import os

    try:
        os.remove(p)
    except OSError:
        pass


def _replace(p, dest):
    # move p to dest, replacing it; when dest cannot be replaced (a folder
    # put there), p goes instead, else every later save would fail. Raises
    # OSError when p stays (a read-only flash).
    import os

    _remove(dest)
    try:
        os.rename(p, dest)
    except OSError:
        _remove(p)
        if present(p):
            raise


def _exists(p):
    # Opened, not os.stat(): the stat tuple holds the file times (near
    # 1.7e9 on littlefs, over a 32-bit board's small ints: heap objects,
    # or OverflowError on a port without long ints). Allocated, measured
    # with the GC off: on the 32-bit WebAssembly port (posix files) open
    # 16 bytes, os.stat 160, scanning os.ilistdir (12 files) 480-690; on
    # littlefs with rp2's settings (unix port, 64-bit) open 1,280, one
    # file object with its cache, as the save's own .tmp file just closed.
    try:
        open(p, "rb").close()
        return True
    except OSError:
        return False


def encode(obj):
    """The bytes of a record holding `obj` (JSON-able)."""
    return _head(obj) + b"".join(bytes(_bytes(x)) for x in _pieces(obj))


def _head(obj):
    # the header line of the record of obj (bytes): its body's length and
    # checksum, counted over the pieces save() then writes
    n = 0
    a, b = 1, 0
    for x in _pieces(obj):
        x = _bytes(x)
        n += len(x)
        a, b = _adler(x, a, b)
    return ("SCOPA %d %d %04x%04x\n" % (FORMAT, n, b, a)).encode()


def _pieces(obj):
    # the JSON text of obj as pieces (str), lists and dicts opened and
    # closed here, so that no long text is made at once (json.dumps of a
    # long sheet grew one string through the heap and ran it out)
    import json

    if isinstance(obj, dict):
        sep = "{"
        for k in obj:
            yield sep + json.dumps(k if isinstance(k, str) else str(k)) + ": "  # (as CPython's)
            sep = ", "
            yield from _pieces(obj[k])
        yield "}" if sep == ", " else "{}"
    elif isinstance(obj, (list, tuple)) or not isinstance(obj, str) and hasattr(obj, "__iter__"):
        sep = "["
        for x in obj:
            yield sep
            sep = ", "
            yield from _pieces(x)
        yield "]" if sep == ", " else "[]"
    else:
        yield json.dumps(obj)


def _bytes(s):
    # the UTF-8 bytes of str s: the str itself on MicroPython (a str is a
    # buffer there: no copy)
    try:
        return memoryview(s)  # pyright: ignore[reportArgumentType]  (MicroPython)
    except TypeError:  # CPython: a str is no buffer
        return s.encode()


def decode(data):
    """The object in record `data` (bytes). Raises ValueError saying what
    is wrong: not a record, another format version, truncated, damaged."""
    from io import BytesIO

    return _read(BytesIO(data))


class _Missing:  # _load's answer for a copy that is not there
    pass


def _load(p):
    # decode() of the file at path p, _Missing() when there is none (a
    # record may hold null). Raises ValueError (what decode says), OSError
    # (there but unreadable: a folder in its place), MemoryError.
    try:
        f = open(p, "rb")
    except OSError:
        if present(p):
            raise
        return _Missing()
    with f:
        return _read(f)


def _read(f):
    # decode() of the record in file f: its body checked through a small
    # buffer, then parsed from the file (no copy of a long record on the heap)
    import json

    head = f.read(_HEAD)
    nl = head.find(b"\n")
    if nl < 0 or not head.startswith(b"SCOPA "):
        raise ValueError("not a saved record")
    parts = head[:nl].split()
    if len(parts) != 4:
        raise ValueError("bad header")
    try:
        ver = int(parts[1])
        size = int(parts[2])
    except ValueError:
        raise ValueError("bad header") from None
    if ver != FORMAT:
        raise ValueError("format %d, not %d" % (ver, FORMAT))
    f.seek(nl + 1)
    buf = bytearray(_BUF)
    got = 0
    a, b = 1, 0
    while True:
        k = f.readinto(buf)
        if not k:
            break
        got += k
        a, b = _adler(memoryview(buf)[:k], a, b)
    if got < size:
        raise ValueError("truncated: %d of %d bytes" % (got, size))
    if got > size:
        raise ValueError("%d bytes too many" % (got - size))
    if ("%04x%04x" % (b, a)).encode() != parts[3]:
        raise ValueError("damaged: checksum")
    f.seek(nl + 1)
    try:
        return json.load(f)
    except ValueError:
        raise ValueError("damaged: not JSON") from None


def save(name, obj, folder=""):
    """Save `obj` (JSON-able; in place of a list, an object whose iteration
    gives its items afresh each time: it is iterated twice, to count and to
    write) as record `name` atomically, written a JSON value at a time (no
    copy of a long record on the heap); returns the bytes written. Raises
    OSError when the flash is full or read-only (the old copy is then kept,
    and no part of the new one; a .tmp written whole before a later error
    is the copy `load` reads next), MemoryError when the heap is short
    (most before anything is written: the record is counted and the file
    opened first; a part written is removed; one in a later rename leaves
    the whole .tmp, as an OSError does). A folder at the .tmp name is
    moved aside as .bad first (else no save of this record would pass)."""
    import os

    p = _path(folder, name)
    tmp = p + ".tmp"
    head = _head(obj)
    # what allocates comes before the write (opening the main copy to see
    # it is there takes a file object: 1,280 bytes on littlefs), so that a
    # MemoryError leaves no new .tmp that load() would read back
    set_aside(name, folder)  # a copy load() could not read: to .bad, the .bak stays
    main = _exists(p)
    try:
        f = open(tmp, "wb")
    except OSError:
        if not present(tmp):
            raise  # (a full or read-only flash)
        _replace(tmp, p + ".bad")
        f = open(tmp, "wb")
    try:
        n = len(head)
        with f:
            f.write(head)
            for x in _pieces(obj):
                x = _bytes(x)
                f.write(x)
                n += len(x)
    except (OSError, MemoryError):
        # the flash filled up, or a piece found no heap: no part of a copy
        # left to take its room
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    _renames(p, main)
    return n


def journal_line(base, n, value):
    """The journal line (bytes) of small int `value` at place `n` (1, 2, ...)
    after the record whose checksum (`checksum`) is `base` (str)."""
    check = checksum(("%s %d %d" % (base, n, value)).encode())
    return ("J %d %d %s\n" % (n, value, check)).encode()


def append(name, n, value, base, folder=""):
    """Append the journal line of `value` at place `n` after the record of
    checksum `base` to file `name` (one write of about 20 bytes); returns
    the bytes written. Raises OSError when the flash is full or read-only."""
    line = journal_line(base, n, value)
    with open(_path(folder, name), "ab") as f:
        f.write(line)
    return len(line)


def rotate(name, folder=""):
    """Move journal `name` to ``name.bak`` (replacing it), if there: after
    the record it follows was saved again (its old copy now the .bak).
    Raises OSError when the flash is read-only."""
    p = _path(folder, name)
    if _exists(p):
        _replace(p, p + ".bak")  # (a .bak that stays: the journal goes, its record is whole)


def load(name, folder="", check=None, spare=False):
    """Load record `name`: returns ``(obj, status, why)``. status is TMP, OK or
    BAK (obj read from that copy, tried in this order: a whole .tmp is a
    save cut between its write and its renames, newer than the main copy),
    NONE (nothing saved; obj None) or BAD (every copy damaged; obj None);
    why is "" or what was wrong with the copies not used ("game: missing;
    game.bak: truncated"). `check`: optional function called with each
    object read; a ValueError it raises counts as damage (another copy is
    tried). A copy too large for the free heap (MemoryError while it is
    read, decoded or checked; why says "too large for the free memory") or
    there but unreadable (an OSError other than ENOENT: a folder in its
    place) counts as damage too, and a main copy is kept as .bad
    (set_aside). A copy read from the .tmp becomes the main copy, as the
    cut save would have left it (the main one the .bak, or .bad when
    damaged; on a read-only flash or a short heap nothing moves). With
    `spare` a MemoryError is raised instead, every copy left as it is (a
    record that never outgrows the heap: short of memory is not damage). A
    .tmp that does not decode (a save cut while it wrote it) is removed
    (on a read-only flash it stays); a whole one that could not be read or
    checked is said in why and kept, as .bad at the next save."""
    p = _path(folder, name)
    why = ""
    found = False
    # a .tmp that reads is the newest: save wrote it whole, then was cut
    # before its renames
    for suffix, status in ((".tmp", TMP), ("", OK), (".bak", BAK)):
        read = False  # decoded whole (a check may still refuse it)
        try:
            obj = _load(p + suffix)
            read = True
            if isinstance(obj, _Missing):
                if suffix == "" and not found:
                    # (no save leaves a .bak without its main copy: one
                    # removed by hand; said, as damage is)
                    why = "%s: missing; " % name
                continue
            if check is not None:
                check(obj)
        except (ValueError, MemoryError, OSError) as e:
            if spare and isinstance(e, MemoryError):
                raise
            # (a copy larger than the free heap or that cannot be read:
            # damage too, another copy is tried and this one is kept, as
            # .bad for the main copy)
            if suffix == ".tmp" and not read and isinstance(e, ValueError):
                # a .tmp cut while written: no damage, nothing to keep (a
                # first save cut so: nothing saved, as before it began)
                _remove(p + suffix)
                continue
            found = True
            if suffix != ".tmp":
                why += _bad(p, name, suffix, e)
            elif not isinstance(e, OSError):
                # a whole .tmp too large for the free heap, or refused by
                # the check: the newest copy, kept (.bad at the next save,
                # not emptied by its open)
                why += _bad(p, name, suffix, e)
            continue
        found = True
        if status == TMP:
            # is the main copy beside it damaged? (decoded only: `check`
            # may keep what it is given)
            try:
                _load(p)
            except (ValueError, MemoryError, OSError) as e:
                if spare and isinstance(e, MemoryError):
                    raise
                why += _bad(p, name, "", e)
            _finish(p, name, folder)
        return obj, status, why[:-2]  # (no "; " after the last)
    return None, BAD if found else NONE, why[:-2] if found else ""


_unreadable = []  # main copies (and whole .tmps) load() could not read


def _renames(p, main):
    # a save's last steps, its .tmp whole: the main copy (when `main`, it
    # is there) to the .bak, the .tmp to the main copy
    import os

    if main:
        _replace(p, p + ".bak")
    os.rename(p + ".tmp", p)


def _finish(p, name, folder):
    # the renames of a save cut after its .tmp was written whole: done
    # now, so that the next save, whose open() empties the .tmp before it
    # writes, cannot lose the newest copy to a second cut; on a read-only
    # flash or a short heap the .tmp stays, the copy read first
    try:
        set_aside(name, folder)  # a damaged main copy: to .bad, the .bak stays
        _renames(p, _exists(p))
    except (OSError, MemoryError):
        pass


def size(name, folder=""):
    """Bytes of the largest copy of record `name` on flash (the main one,
    the .tmp or the .bak: `load` may read any), 0 when there is none (its
    end sought in the open file: os.stat's file times are heap ints on a
    32-bit board)."""
    p = _path(folder, name)
    n = 0
    for suffix in ("", ".tmp", ".bak"):
        try:
            with open(p + suffix, "rb") as f:
                n = max(n, f.seek(0, 2))
        except OSError:
            pass
    return n


def present(p):
    """Whether path `p` names a file or a folder (os.stat), for after an
    open() that failed: a missing file and one that cannot be read raise
    the same OSError, whose errno differs between ports (ENOENT is 2 on
    the unix port and littlefs, 44 on the WebAssembly port, whose errno
    module says 2). Its stat tuple allocates (ints over 2**30 on a 32-bit
    board): called when a load or a journal finds a file missing, never
    per play."""
    import os

    try:
        os.stat(p)
        return True
    except OSError:
        return False


def _bad(p, name, suffix, e):
    # what is wrong with a copy; a main copy (or whole .tmp) that does not
    # read is set aside as .bad at the next save (set_aside), not moved
    # over the .bak (or emptied by the save's open)
    if suffix != ".bak" and p + suffix not in _unreadable:
        _unreadable.append(p + suffix)
    if isinstance(e, MemoryError):
        e = "too large for the free memory"
    return "%s%s: %s; " % (name, suffix, e)


def set_aside(name, folder=""):
    """After `load` found no good copy of record `name` (BAD): move the
    main copy it could not read to ``name.bad`` (replacing one), so that a
    note saying so is true at once; `save` does it too, before it moves
    the main copy to the .bak, and to a whole .tmp that `load` could not
    read (too large for the free heap, or refused by its check), before
    its open empties it. Raises OSError when the flash is read-only."""
    p = _path(folder, name)
    for q in (p, p + ".tmp"):  # (the .tmp, newer, last: the .bad kept)
        if q in _unreadable:
            _replace(q, p + ".bad")  # (gone since: nothing to set aside)
            _unreadable.remove(q)


def give_up(name, folder=""):
    """After `load` found every copy of record `name` damaged (BAD): keep
    the newest as ``name.bad`` (the main copy, or a whole .tmp that `load`
    could not read; with neither, the .bak), replacing an older one, and
    remove the others, so that a note saying the record is lost is said
    once and what it held is not lost unseen. Raises OSError when the
    flash is read-only."""
    p = _path(folder, name)
    keep = p + ".bak"  # (no main copy: removed by hand)
    for q in (p + ".tmp", p):  # (the .tmp, newer, first)
        if q in _unreadable:
            keep = q
            break
    # the others first, the kept one moved last: a power cut between
    # leaves the newest, which the next load finds damaged again
    for q in (p + ".bak", p + ".tmp", p):
        if q != keep:
            _remove(q)
    if _exists(keep):
        _replace(keep, p + ".bad")
    for q in (p, p + ".tmp"):
        if q in _unreadable:
            _unreadable.remove(q)


def remove(name, folder="", bad=True):
    """Forget record `name` and every copy of it, the damaged one set
    aside (.bad) included unless `bad` is False, the oldest first (a cut
    between leaves the newest)."""
    p = _path(folder, name)
    for suffix in (".bad", ".bak", ".tmp", "") if bad else (".bak", ".tmp", ""):
        _remove(p + suffix)
