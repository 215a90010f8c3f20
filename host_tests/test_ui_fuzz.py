"""Random button presses: the app never crashes or hangs, and the game it
shows keeps the engine's invariants (40 cards accounted for, hand sizes
consistent with the turn). 100,000 presses on CPython (random computer
moves), 20,000 on the MicroPython unix port in a 256 KiB heap, and
100,000 through the simulator (tools/sim.py, the sim board's key script,
the computer players and the hint searching)."""

import gc
import random
from pathlib import Path

import pytest

import app
import sheet as S
import ui_fakeboard as F
from invariants import Watch

KEYS = (F.UP, F.DOWN, F.LEFT, F.RIGHT, F.A, F.A, F.A, F.B)


def random_presses(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        r = rng.random()
        if r < 0.03:
            yield F.B, 700 + rng.randrange(400)  # the hint
        elif r < 0.06:
            yield rng.choice((F.LEFT, F.RIGHT, F.UP, F.DOWN)), 400 + rng.randrange(500)  # repeat
        elif r < 0.07:
            yield 0, rng.randrange(3000)  # a pause: the computer plays on
        elif r < 0.075:
            yield F.A | F.B, 40
        else:
            yield rng.choice(KEYS), 25 + rng.randrange(40)


def fuzz(tmp_path, seed, presses, monkeypatch):
    monkeypatch.setattr(app, "USE_AI", False)
    # The firmware's gc.collect() calls tidy MicroPython's heap; on CPython
    # (in pytest's large process) each costs tens of ms and changes nothing.
    monkeypatch.setattr(gc, "collect", lambda *a: 0)
    b = F.Board(random_presses(seed, presses))
    if presses > 10000:
        b.display = F.NullDisplay(128, 64)  # the pixels are not looked at
    watch = Watch()
    a = app.App(b, str(tmp_path))
    a.start()
    while b.buttons.used < presses:
        a.loop(10000, watch)
    a.loop(500, watch)  # the last press and what follows
    return a, b, watch


@pytest.mark.slow
def test_fuzz_100k_presses(tmp_path, monkeypatch):
    a, b, w = fuzz(tmp_path, 3, 100000, monkeypatch)
    assert b.buttons.used == 100000
    # (the round's page, one key away on the table, the question before a
    # saved game is replaced and the scorekeeper take keys of their own:
    # seeds 1, 2, 3 made 194, 100, 547 plays in 3, 1, 7 games, so seed 3,
    # the walk that reaches the table most: 455 plays in 5 games at
    # 0fa17c2, 327 in 4 since B asks before it drops a round typed on the
    # scorekeeper (seeds 4 to 7: 376, 316, 366, 326 plays in 4, 3, 3, 5);
    # the seed is fixed, so these move only when the screens do; games are
    # told apart by seed and rules, not by id(), which a freed game's
    # successor may take)
    assert w.checks > 1000 and len(w.games) >= 4
    assert a.plays > 300, a.plays
    assert not b.display.overflow


def no_scorekeeper(monkeypatch):
    """Send the random keys back to the menu instead of the scorekeeper,
    whose round entry takes up every key of a short run (a round in about
    a hundred presses); the 100,000-press runs keep it."""
    go = app.App.go

    def back_to_menu(self, module, name="Screen", arg=None):
        keeper = module.startswith("keeper") or module == "scorekeeper"
        go(self, "menu" if keeper else module, name, arg)

    monkeypatch.setattr(app.App, "go", back_to_menu)


@pytest.mark.parametrize("seed", [2, 3])
def test_fuzz_short(tmp_path, monkeypatch, seed):
    no_scorekeeper(monkeypatch)
    a, b, w = fuzz(tmp_path, seed, 5000, monkeypatch)
    assert a.plays > 20
    assert not b.display.overflow


MPY_FUZZ = """
import sys
sys.path.append({host!r})
import ui_fakeboard as F
import app
from scopa.rng import Rng
app.USE_AI = False
# The scorekeeper (its own issue and tests) is left out here: its sheet
# grows with every round the random keys enter.
_go = app.App.go
def go(self, module, name="Screen", arg=None):
    _go(self, "menu" if module.startswith("keeper") or module == "scorekeeper" else module,
        name, arg)
app.App.go = go
KEYS = (F.UP, F.DOWN, F.LEFT, F.RIGHT, F.A, F.A, F.A, F.B)
def presses(n):
    rng = Rng({seed})
    for _ in range(n):
        r = rng.below(100)
        if r < 3:
            yield F.B, 700 + rng.below(400)
        elif r < 5:
            yield 0, rng.below(3000)
        else:
            yield KEYS[rng.below(len(KEYS))], 25 + rng.below(40)
N = {n}
b = F.Board(presses(N))
a = app.App(b, "")
a.start()
while b.buttons.used < N:
    a.loop(10000)
a.loop(500)
print("presses", b.buttons.used, "plays", a.plays, "overflow", len(b.display.overflow))
"""


@pytest.mark.mpy
@pytest.mark.slow
def test_fuzz_on_the_unix_port(run_mpy, mpy_firmware, tmp_path):
    from test_app import _with_data

    fw = _with_data(mpy_firmware)
    host = str(Path(__file__).parent)
    out = run_mpy(
        MPY_FUZZ.format(host=host, seed=5, n=20000),
        heapsize="256K",
        path=(fw,),
        cwd=tmp_path,
        timeout=600,
    )
    words = out.split()
    assert int(words[words.index("presses") + 1]) == 20000
    assert int(words[words.index("plays") + 1]) > 20
    assert words[words.index("overflow") + 1] == "0"


# ---------------------------------------------------------------------------
# Through the simulator: tools/sim.py, the sim board and its key scripts, on
# the unix port, with the computer players and the hint searching.

SIM_ENTRY = """
import board
import app
from invariants import Watch  # host_tests/invariants.py, on the sim's path


w = Watch()
a = app.App(board, "")
a.start()
try:
    a.loop(None, w)
except SystemExit:  # the end of the key script
    print("fuzz: end of script, checks", w.checks, "games", len(w.games), "plays", a.plays)
    raise
"""


def sim_presses(seed, n):
    """A key script of `n` random presses (the mix of random_presses)."""
    rng = random.Random(seed)
    keys = ("up", "down", "left", "right", "A", "A", "A", "B")
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.03:
            out.append("hold:B:%d" % (700 + rng.randrange(400)))  # the hint
        elif r < 0.06:
            k = rng.choice(("left", "right", "up", "down"))
            out.append("hold:%s:%d" % (k, 400 + rng.randrange(500)))  # repeat
        elif r < 0.07:
            out.append("wait:%d" % rng.randrange(3000))  # the computer plays on
        elif r < 0.075:
            out.append("hold:A+B:40")
        else:
            out.append("hold:%s:%d" % (rng.choice(keys), 25 + rng.randrange(40)))
    return "\n".join(out)


@pytest.mark.mpy
@pytest.mark.slow
def test_fuzz_100k_presses_through_the_simulator(tmp_path):
    from tools import sim

    entry = tmp_path / "entry"
    entry.mkdir()
    (entry / "fuzz_entry.py").write_text(SIM_ENTRY)
    r = sim.run(
        "sim",
        sim_presses(12, 100000),
        mpy_compiled=True,
        flash=tmp_path / "flash",
        extra_path=(entry, Path(__file__).parent),
        entry="fuzz_entry",
        capture=True,
        frames=False,
        # The unix port's default heap. The random keys make a sheet of
        # some 450 rounds; its History once ended the run here with a
        # MemoryError and most of the heap free (see the next test). What
        # is live stays under 400 KB all the way.
        heapsize="2M",
        timeout=1200,
    )
    assert r.returncode == 0, (r.stdout or "")[-2000:] + (r.stderr or "")[-3000:]
    end = [ln for ln in r.stdout.splitlines() if ln.startswith("fuzz: end of script")]
    assert end, r.stdout[-2000:]
    words = end[0].split()
    assert int(words[words.index("checks") + 1]) > 1000
    # (the walk spends much of its keys in the scorekeeper and the menus,
    # so what it reaches changes with them: at f979897 seeds 11 and 13
    # make 72 and 819 plays in 1 and 6 games, seed 12 made 906 in 9 at
    # 6a42b2c; seed 11 made 234 in 2 before the round entry reopened the
    # steps its counts rule out)
    assert int(words[words.index("games") + 1]) >= 2
    assert int(words[words.index("plays") + 1]) > 100


LONG_SHEET = """
import gc
import sheet as S
from scopa.rules import Rules
from ui import gfx, scorekeeper


class App:  # what History asks of the app
    w = 128
    h = 64
    pal = gfx.Palette(False)


sh = S.Sheet(Rules("scopa"), ["P1", "P2"])
e = {{"t": [22, 18], "d": [6, 4], "s": 0, "p": 0, "sc": [1, 0]}}  # 5 - 0: 3 rounds a match
for _ in range({n}):
    sh.add(e)
gc.collect()
h = scorekeeper.History(App(), (sh, {n}))
h.draw(framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB))
print("sel", h.sel, "last", sh.row({n} - 1), "matches", len(sh.winners()))
"""


@pytest.mark.mpy
def test_history_of_the_longest_sheet_in_a_small_heap(run_mpy, mpy_firmware):
    assert S.MAX_ROUNDS == 500
    # What the 100k-press fuzz found at a 2 MiB heap: the recount kept a
    # little of each round among a few KiB of its garbage, so a collection
    # in the middle of it left the heap in small holes; a list grown by
    # append then found none (MemoryError with most of the heap free, 300
    # rounds in a 1 MiB heap). A round is now a record and a row of the
    # sheet's tally, counted once: the longest sheet, its History drawn,
    # in a sixth of that heap.
    # (160K: below about 134K the records' growth to 500 rounds, a block of
    # 10.5 KB copied beside the old one, fits or not by where the heap's
    # holes fall; tools/bench_app.py gives the app's smallest heaps)
    out = run_mpy(
        "import framebuf\n" + LONG_SHEET.format(n=500), heapsize="160K", path=(mpy_firmware,)
    )
    assert out.split("\n")[0] == "sel 499 last (2, [5, 0], [10, 0], -1) matches 166"
