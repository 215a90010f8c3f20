"""Power cuts while the scorekeeper saves: the MicroPython process is killed
(SIGKILL) at every write boundary of the save path, then a fresh process
starts and loads the sheet, which must be the last confirmed state or the
one before: never damaged, never empty.

Two file-system layers, both in the killed process on the unix port:

- API level (`powerfs`): stands in for `os` and for store.py's `open`.
  Every byte written (one write(2) each), every create, close, remove and
  rename is an operation; with LIMIT = k the process is killed just before
  operation k + 1. Every k from 0 to the last operation is tried: hundreds
  of kill points for one save, each byte of the record one of them.
- Flash level (`blockdev`): littlefs v2 (os.VfsLfs2, the file system of
  the rp2 port) on a block device kept in a host file. The process is
  killed before a block program or erase, or half-way through one (half
  the bytes written), at every such operation of each save of an evening.

The kill: ``os.system("kill -9 $PPID")`` from the process (the shell's
parent is the micropython process), the nearest the unix port has to
pulling the plug: no finally clauses, no flush, no close.
"""

import concurrent.futures
import json
import os
import shutil
import subprocess

import pytest

import mpy
import sheet as S
import store
from scopa import cards as C
from scopa.rules import Rules

pytestmark = [pytest.mark.mpy, pytest.mark.slow]

WORKERS = max(2, os.cpu_count() or 2)

POWERFS = '''\
"""A file-system layer that cuts the power after LIMIT operations."""
import os as _os
import sys

ARMED = False
LIMIT = -1  # operations allowed once armed (-1: no cut, only count)
ops = 0  # operations since armed
_open = open


def cut():
    _os.system("kill -9 $PPID")
    while True:
        pass


def arm(limit):
    global ARMED, LIMIT, ops
    ARMED = True
    LIMIT = limit
    ops = 0


def _op():
    global ops
    if not ARMED:
        return
    if 0 <= LIMIT <= ops:
        cut()
    ops += 1


class File:
    def __init__(self, f):
        self.f = f

    def write(self, data):
        for i in range(len(data)):
            _op()
            self.f.write(data[i : i + 1])
        return len(data)

    def read(self, *a):
        return self.f.read(*a)

    def close(self):
        _op()
        self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_(path, mode="r"):
    if "w" in mode or "a" in mode:
        _op()  # creating or truncating a file
        return File(_open(path, mode))
    return _open(path, mode)  # (reading cuts nothing)


class Os:
    def __getattr__(self, name):
        return getattr(_os, name)

    def rename(self, a, b):
        _op()
        _os.rename(a, b)

    def remove(self, p):
        _op()
        _os.remove(p)


def install():
    sys.modules["os"] = Os()
    import store

    store.open = open_
'''

# The device: load the sheet as at start-up, make one change, save it
# (the confirm of a round), with the power cut after `limit` operations.
# argv: action limit [arm-at-load]
DEVICE = """\
import sys
import json
import powerfs
powerfs.install()
import sheet as S
action, limit = sys.argv[1], int(sys.argv[2])
at_load = len(sys.argv) > 3
if at_load:
    powerfs.arm(limit)
sh, status, why = S.load("")
if action == "add":
    sh.add({add!r})
elif action == "undo":
    sh.undo()
elif action == "edit":
    sh.edit(0, {edit!r})
elif action == "add2":
    sh.add({add2!r})
elif action == "new":
    sh = S.Sheet(sh.rules, ["NOI", "VOI"])
if action != "none":
    if not at_load:
        powerfs.arm(limit)
    S.save(sh, "")
print("OPS", powerfs.ops)
"""

# A fresh start: load every folder given (as the scorekeeper does).
CHECK = """\
import sys
import json
import sheet as S
for folder in sys.argv[1:]:
    sh, status, why = S.load(folder)
    print(json.dumps([sh.to_obj() if sh is not None else None, status, why]))
"""

ADD = {"t": [30, 10], "d": [8, 2], "s": 0, "p": 0, "sc": [2, 0]}
EDIT = {"t": [12, 28], "d": [1, 9], "s": 1, "p": 1, "sc": [0, 4]}
ADD2 = {"t": [21, 19], "d": [4, 6], "s": 1, "p": -1, "sc": [0, 1]}


def base_sheet():
    """The evening so far: three rounds, one with the primiera by cards."""
    sh = S.Sheet(Rules("scopa"), ["ADA", "BO"])
    sh.add({"t": [22, 18], "d": [6, 4], "s": 0, "p": 0, "sc": [1, 0]})
    pc = [[C.parse(x) for x in ("7D", "7C", "7S", "5B")], [C.parse("6D"), -1, -1, C.parse("7B")]]
    sh.add({"t": [25, 15], "d": [3, 7], "s": 0, "pc": pc, "sc": [0, 2]})
    sh.add({"t": [17, 23], "d": [5, 5], "s": 0, "p": 1, "sc": [0, 0]})
    return sh


def after(action, sh):
    sh = S.Sheet.from_obj(json.loads(json.dumps(sh.to_obj())))
    if action == "add":
        sh.add(ADD)
    elif action == "undo":
        sh.undo()
    elif action == "edit":
        sh.edit(0, EDIT)
    elif action == "new":
        sh = S.Sheet(sh.rules, ["NOI", "VOI"])
    elif action == "add2":
        sh.add(ADD2)
    return sh


@pytest.fixture(scope="module")
def kit(tmp_path_factory, mpy_firmware):
    """Scripts, the compiled firmware and a folder holding the saved
    evening (the sheet and its previous copy, as after a few confirms)."""
    d = tmp_path_factory.mktemp("powerloss")
    (d / "lib").mkdir()
    (d / "lib" / "powerfs.py").write_text(POWERFS)
    (d / "device.py").write_text(DEVICE.format(add=ADD, edit=EDIT, add2=ADD2))
    (d / "check.py").write_text(CHECK)
    base = d / "base"
    base.mkdir()
    sh = base_sheet()
    first = S.Sheet(sh.rules, sh.names)
    for e in list(sh.rounds)[:2]:
        first.add(e)
    S.save(first, str(base))
    S.save(sh, str(base))
    return {"dir": d, "fw": mpy_firmware, "base": base, "sheet": sh}


def _mp(kit, script, args, cwd):
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([".frozen", str(kit["dir"] / "lib"), str(kit["fw"])])
    return subprocess.run(
        [mpy.MICROPYTHON, str(kit["dir"] / script), *map(str, args)],
        cwd=str(cwd),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _device(kit, folder, action, limit, at_load=False):
    args = [action, limit] + (["load"] if at_load else [])
    p = _mp(kit, "device.py", args, folder)
    if limit < 0:
        assert p.returncode == 0, p.stderr
        return int(p.stdout.split("OPS ")[1])
    assert p.returncode in (-9, 137), (action, limit, p.returncode, p.stdout, p.stderr)
    return None


def _check(kit, folders):
    out = []
    for i in range(0, len(folders), 100):
        p = _mp(kit, "check.py", folders[i : i + 100], kit["dir"])
        assert p.returncode == 0, p.stderr
        out += [json.loads(line) for line in p.stdout.strip().split("\n")]
    return out


def _copy(src, dst):
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    return dst


_done = {}


def _cut_everywhere(kit, start, action, name, at_load=False, every=1):
    """Kill the device at every operation of `action` from folder `start`
    (with `every` > 1: at every such byte, and at each of the first and
    last few operations). Returns (number of operations, [folder after
    each cut], folder after no cut), the cut folders in order of the kill
    point. The folders are those the cuts left: copy one to change it."""
    key = (str(start), action, at_load, every)
    if key not in _done:
        _done[key] = _cut(kit, start, action, name, at_load, every)
    return _done[key]


def _cut(kit, start, action, name, at_load, every):
    d = kit["dir"] / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir()
    full = _copy(start, d / "full")
    ops = _device(kit, full, action, -1, at_load)
    assert ops > 0
    points = [k for k in range(ops) if k < 3 or k >= ops - 6 or k % every == 0]
    folders = [_copy(start, d / ("k%04d" % k)) for k in points]
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        list(
            pool.map(
                lambda i: _device(kit, folders[i], action, points[i], at_load), range(len(points))
            )
        )
    return ops, folders, full


def _states(results):
    return [r[0] for r in results]


# A round confirmed, and one edited: a cut at every byte; undo and a new
# sheet: at every third byte (and every other operation).
@pytest.mark.parametrize("action,every", [("add", 1), ("edit", 1), ("undo", 3), ("new", 3)])
def test_cut_at_every_byte_of_a_save(kit, action, every):
    sh = kit["sheet"]
    old = sh.to_obj()
    new = after(action, sh).to_obj()
    record = len(store.encode(new))
    ops, folders, full = _cut_everywhere(kit, kit["base"], action, "cut-" + action, every=every)
    # one operation per byte of the record, plus create, close, remove, renames
    assert record < ops <= record + 6
    assert len(folders) >= ops // every
    tmp_sizes = set()
    for f in folders:
        t = f / "sheet.sav.tmp"
        if t.exists() and t.stat().st_size < record:
            tmp_sizes.add(t.stat().st_size)
    # a torn .tmp of every length 0 .. record - 1 (every `every`-th)
    assert len(tmp_sizes) >= record // every
    work = kit["dir"] / ("check-" + action)
    shutil.rmtree(work, ignore_errors=True)
    copies = [_copy(f, work / f.name) for f in folders + [full]]
    results = _check(kit, [str(f) for f in copies])
    states = _states(results)
    assert states[-1] == new  # no cut: the new state
    seen_new = False
    for k, got in enumerate(states):
        assert got is not None, (k, results[k])
        assert got in (old, new), k  # never damaged, never empty
        if got == new:
            seen_new = True
        else:
            assert not seen_new, ("went back to the old state after the new one", k)
    assert states[0] == old and seen_new
    # after that start, the main copy is good (start-up saved it again)
    for f in copies:
        assert store.load("sheet.sav", str(f), S.Sheet.from_obj)[1] == store.OK


def _tmp_window(kit):
    """The cut between the two renames (no main file, a complete .tmp):
    the one kill point where start-up reads the .tmp copy."""
    ops, folders, _ = _cut_everywhere(kit, kit["base"], "add", "cut-add")
    hits = [f for f in folders if not (f / "sheet.sav").exists() and (f / "sheet.sav.tmp").exists()]
    assert len(hits) == 1
    return hits[0]


def test_cut_again_while_start_up_repairs(kit):
    # A cut between the renames, then another one while start-up (which
    # read the .tmp) saves the sheet again: still the last state or the one
    # before, and then the next round saves normally.
    start = _tmp_window(kit)
    old = kit["sheet"].to_obj()
    new = after("add", kit["sheet"]).to_obj()
    start = _copy(start, kit["dir"] / "win-1")
    ops, folders, full = _cut_everywhere(kit, start, "none", "repair", at_load=True, every=9)
    assert ops > 100  # the whole record is written again
    states = _states(_check(kit, [str(f) for f in folders] + [str(full)]))
    assert all(s in (old, new) for s in states)
    assert states[-1] == new
    for f in folders[::7] + [full]:
        got = S.Sheet.from_obj(_check(kit, [str(f)])[0][0])
        _device(kit, f, "add2", -1)
        assert _states(_check(kit, [str(f)]))[0] == after("add2", got).to_obj()


def test_cut_in_the_next_save_after_a_cut(kit):
    # Without the save that start-up makes after reading the .tmp, a cut in
    # the next save's .tmp would fall back to the .bak: two states back.
    start = _copy(_tmp_window(kit), kit["dir"] / "win-2")
    s1 = after("add", kit["sheet"])
    s2 = after("add2", s1).to_obj()
    ops, folders, full = _cut_everywhere(kit, start, "add2", "next", every=9)
    states = _states(_check(kit, [str(f) for f in folders] + [str(full)]))
    assert states[-1] == s2
    assert all(s in (s1.to_obj(), s2) for s in states)


# --- littlefs on a block device ---------------------------------------------

BLOCKDEV = '''\
"""A flash chip in a host file: littlefs on it; the power is cut before
block operation CUT (a program or an erase) or half-way through it."""
import os

BS = 512
BLOCKS = 64
CUT = -1  # operations allowed
HALF = False  # the cut operation writes half its bytes first
ops = 0


def cut():
    os.system("kill -9 $PPID")
    while True:
        pass


class Flash:
    def __init__(self, path):
        try:
            self.f = open(path, "r+b")
        except OSError:
            self.f = open(path, "w+b")
            self.f.write(b"\\xff" * BS * BLOCKS)

    def readblocks(self, n, buf, off=0):
        self.f.seek(n * BS + off)
        self.f.readinto(buf)

    def _write(self, pos, data):
        global ops
        if CUT >= 0 and ops >= CUT:
            if HALF:
                self.f.seek(pos)
                self.f.write(data[: len(data) // 2])
            cut()
        ops += 1
        self.f.seek(pos)
        self.f.write(data)

    def writeblocks(self, n, buf, off=0):
        self._write(n * BS + off, bytes(buf))

    def ioctl(self, op, arg):
        if op == 4:
            return BLOCKS
        if op == 5:
            return BS
        if op == 6:
            self._write(arg * BS, b"\\xff" * BS)
        return 0


def mount(path):
    dev = Flash(path)
    try:
        vfs = os.VfsLfs2(dev)
    except OSError:
        os.VfsLfs2.mkfs(dev)
        vfs = os.VfsLfs2(dev)
    os.mount(vfs, "/flash")
'''

# argv: image step cut half: step `step` of the evening on the flash image
# (the sheet as start-up loads it, the change, the save), the power cut
# after `cut` block operations of the save (-1: no cut).
EVENING = """\
import sys
import blockdev
import sheet as S
from scopa.rules import Rules
image, step, limit, half = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
blockdev.mount(image)
what, e = {steps!r}[step]
sh, status, why = S.load("/flash")
if what == "new":
    sh = S.Sheet(Rules("scopa", napola=True), ["ADA", "BO"])
elif what == "add":
    sh.add(e)
elif what == "undo":
    sh.undo()
else:
    sh.edit(e[0], e[1])
blockdev.ops = 0
blockdev.CUT = limit
blockdev.HALF = half
S.save(sh, "/flash")
print("OPS", blockdev.ops)
"""

LFS_CHECK = """\
import os
import sys
import json
import blockdev
import sheet as S
for image in sys.argv[1:]:
    blockdev.mount(image)
    sh, status, why = S.load("/flash")
    print(json.dumps([sh.to_obj() if sh is not None else None, status, why]))
    os.umount("/flash")
"""

EVENING_STEPS = [
    ("new", None),
    ("add", {"t": [22, 18], "d": [6, 4], "s": 0, "p": 0, "sc": [1, 0], "np": [0, 0]}),
    ("add", {"t": [15, 25], "d": [3, 7], "s": 1, "p": 1, "sc": [0, 2], "np": [0, 4]}),
    ("add", {"t": [24, 16], "d": [6, 4], "s": 0, "p": 0, "sc": [3, 0], "np": [3, 0]}),
    ("undo", None),
    ("add", {"t": [24, 16], "d": [6, 4], "s": 0, "p": 0, "sc": [2, 0], "np": [3, 0]}),
    ("edit", (0, {"t": [20, 20], "d": [5, 5], "s": 1, "p": -1, "sc": [0, 0], "np": [0, 0]})),
]


def _lfs_states():
    """The sheet after each step of the evening (to_obj), from CPython."""
    sh = S.Sheet(Rules("scopa", napola=True), ["ADA", "BO"])
    out = []
    for what, e in EVENING_STEPS:
        if what == "new":
            pass
        elif what == "add":
            sh.add(e)
        elif what == "undo":
            sh.undo()
        else:
            sh.edit(e[0], e[1])
        out.append(json.loads(json.dumps(sh.to_obj())))
    return out


def test_littlefs_cut_at_every_block_operation(kit, tmp_path):
    d = kit["dir"]
    (d / "lib" / "blockdev.py").write_text(BLOCKDEV)
    (d / "evening.py").write_text(EVENING.format(steps=EVENING_STEPS))
    (d / "lfs_check.py").write_text(LFS_CHECK)
    states = _lfs_states()
    # the image before each step, made by running the steps before it
    images = []
    img = tmp_path / "flash.img"
    for i in range(len(EVENING_STEPS)):
        images.append(tmp_path / ("before%d.img" % i))
        if img.exists():
            shutil.copyfile(img, images[-1])
        p = _mp(kit, "evening.py", [img, i, -1, 0], tmp_path)
        assert p.returncode == 0, p.stderr
    cases = []
    for i in range(len(EVENING_STEPS)):
        if images[i].exists():
            shutil.copyfile(images[i], tmp_path / "probe.img")
        else:
            (tmp_path / "probe.img").unlink(missing_ok=True)
        p = _mp(kit, "evening.py", [tmp_path / "probe.img", i, -1, 0], tmp_path)
        assert p.returncode == 0, p.stderr
        ops = int(p.stdout.split("OPS ")[1])
        assert ops >= 2
        for k in range(ops):
            for half in (0, 1):
                cases.append((i, k, half))

    def run(case):
        i, k, half = case
        im = tmp_path / ("cut-%d-%d-%d.img" % case)
        if images[i].exists():
            shutil.copyfile(images[i], im)
        p = _mp(kit, "evening.py", [im, i, k, half], tmp_path)
        assert p.returncode in (-9, 137), (case, p.stdout, p.stderr)
        return im

    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        imgs = list(pool.map(run, cases))
    q = _mp(kit, "lfs_check.py", imgs, tmp_path)
    assert q.returncode == 0, q.stderr
    results = list(zip(cases, [json.loads(x) for x in q.stdout.strip().split("\n")]))
    assert len(results) >= 60
    for (i, k, half), (got, status, why) in results:
        before = states[i - 1] if i else None  # before the first save: no sheet
        assert got in (states[i], before), (i, k, half, status, why)
