"""App benchmark: the heap of the whole app (screens, engine, hard computer
players) on the MicroPython unix port, compiled by mpy-cross as the flash
tool puts it on a board.

    python tools/bench_app.py [--markdown]

For each game (Scopa for 2; Scopone scientifico, the partner a computer)
the app runs on a lean board (a framebuf that shows nothing, a virtual
clock, buttons that follow a key script) as a board runs it: the script
starts a New game from the menu with every computer seat Hard, then presses
A until a match is over (the human plays the card under the cursor and its
first capture). Reported: the heap in use at the start menu, the peak of
live data (`gc.mem_alloc()` after a collection at every move and every
screen change; the board's own objects included, a few hundred bytes), the
smallest `-X heapsize` (to 1 KiB) in which the match completes with no
computer move falling back to a random one for lack of memory, and the time
of the match. `micropython.mem_peak()` adds up allocations the GC frees, so
it is not used. The 32-bit columns: the same match on a 32-bit MicroPython
(the WebAssembly port, host_tests/wasm.py), whose heap grows on demand (no
smallest heap there). A benchmark, not a test (host_tests/test_app.py checks the
match in TEST_HEAP with the same script): the README shows its latest output.

The same 2-player match on the 32-bit port with the colour board's screen
(240 x 135 RGB565, its 64,800-byte frame): its peak, the line under the
tables, with the native code an RP2040 loads.

A second table: the scorekeeper with a sheet of 0, 100 and sheet.MAX_ROUNDS
- 1 rounds on the flash (2-player Scopa): opened from the start menu, a
round typed by keys and confirmed (the sheet written), its history shown;
the peak of live data on both ports and the smallest heap, as above.
"""

import argparse
import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT / "host_tests", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import mpy  # noqa: E402  (host_tests/mpy.py: the unix port, mpy-cross)
import wasm  # noqa: E402  (host_tests/wasm.py: the 32-bit WebAssembly port)

# A lean board (compiled by mpy-cross, as a board's files are): a framebuf
# that shows nothing, a virtual clock, buttons that press the letters of
# KEYS (U D L R A B: 60 ms held, 60 ms released; H: B held 720 ms, a hint),
# then those of LOOP over and over.
BOARD = """
import framebuf
from micropython import const

KEYS = ""
LOOP = "A"
_TAP = const(60)
_LONG = const(720)


class Display(framebuf.FrameBuffer):
    def __init__(self, w, h):
        if COLOUR:  # (as the colour board's frame: 2 bytes a pixel)
            self.buf = bytearray(w * h * 2)
            super().__init__(self.buf, w, h, framebuf.RGB565)
        else:
            self.buf = bytearray(w * h // 8)
            super().__init__(self.buf, w, h, framebuf.MONO_VLSB)

    def show(self):
        pass


class Clock:
    def __init__(self):
        self.t = 0

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, n):
        self.t += n


class Keys:
    def __init__(self, clock):
        self.clock = clock
        self.i = 0
        self.mask = 0
        self.until = 2 * _TAP

    def read(self):
        t = self.clock.t
        if t >= self.until:
            if self.mask:
                self.mask = 0
                self.until = t + _TAP
            else:
                i = self.i
                self.i += 1
                # (slices: a character indexed alone would stay a name)
                j = (i - len(KEYS)) % len(LOOP)
                c = KEYS[i : i + 1] if i < len(KEYS) else LOOP[j : j + 1]
                self.mask = 1 << "UDLRABH".index(c) if c != "H" else 32
                self.until = t + (_LONG if c == "H" else _TAP)
        return self.mask


NAME = "bench"
WIDTH = const(128)
HEIGHT = const(64)
COLOUR = False


def setup():
    c = Clock()
    return Display(WIDTH, HEIGHT), Keys(c), c
"""

# One match on the unix port: prints "name value..." lines.
APP_MATCH = """
import gc
import sys
import bench_board

bench_board.KEYS = {keys!r}
bench_board.LOOP = {loop!r}
gc.collect()
print("heap_board", gc.mem_alloc())
import app

peak = [0, "", 0, None, 0, 0]  # bytes, where, plays, screen, at the menu, the end


def until(a):
    if a.plays != peak[2] or a.screen_mod != peak[3]:
        peak[2] = a.plays
        peak[3] = a.screen_mod
        gc.collect()
        m = gc.mem_alloc()
        if not peak[4]:
            peak[4] = m
        if m > peak[0]:
            peak[0] = m
            peak[1] = "%s/%d" % (a.screen_mod, a.plays)
    # the end: the winner's page of the match's summary
    s = a.screen
    if a.matches >= 1 and a.screen_mod == "summary" and s and s.k == len(s.pages) - 1:
        peak[5] = 1
    return peak[5]


a = app.run(bench_board, max_steps={max_steps}, until=until)
g = a.game
print("levels", " ".join(str(v) for v in a.levels))
print("game", g.rules.code(), "players", g.rules.players)
print("over", g.over, "winner", g.winner, "plays", a.plays)
print("totals", " ".join(str(t) for t in g.totals), "target", g.rules.target)
print("heap_menu", peak[4])
print("heap_peak", peak[0], peak[1])
print("winner_page", peak[5])
print("saved", a.saved_bytes, a.plays)
from scopa import replay
print("code", replay.encode(g))
import micropython
micropython.qstr_info()  # "qstr pool: n_pool=.., n_qstr=.., ..., n_total_bytes=.."
"""


# APP_MATCH on the 32-bit WebAssembly port, in steps (host_tests/wasm.py:
# there a collection is done only between two calls of wasm_step). The
# app's loop stops (`until`) at every move and screen change, as APP_MATCH
# measures; the next step reads the live heap, then goes on with the loop
# in the state it left: the same debouncer (ui.buttons.Debouncer gives the
# one made first) and the loop turn's sleep that the stop skipped.
APP_MATCH_WASM = """
import gc
import sys
import bench_board

bench_board.KEYS = {keys!r}
bench_board.LOOP = {loop!r}
gc.collect()
peak = [0, "", 0, None, 0]  # bytes, where, plays, screen, at the menu
S = [None, 0, 0, 0, None, 0]  # the app, loop turns, measure, over, -, the winner's page


def until(a):
    S[1] += 1
    s = a.screen
    # the end: the winner's page of the match's summary
    S[5] = a.matches >= 1 and a.screen_mod == "summary" and s and s.k == len(s.pages) - 1
    S[3] = S[5] or S[1] >= {max_steps}
    if a.plays != peak[2] or a.screen_mod != peak[3]:
        peak[2] = a.plays
        peak[3] = a.screen_mod
        S[2] = 1
    return S[2] or S[3]


def wasm_step():
    if S[0] is None:
        print("heap_board", gc.mem_alloc())
        import app

        S[0] = app.App(bench_board, "")
        S[0].start()
    a = S[0]
    if S[2]:
        S[2] = 0
        m = gc.mem_alloc()
        if not peak[4]:
            peak[4] = m
        if m > peak[0]:
            peak[0] = m
            peak[1] = "%s/%d" % (a.screen_mod, a.plays)
        if not S[3]:
            a.clock.sleep_ms(sys.modules["app"].TICK_MS)  # skipped by the stop
    if S[3]:
        g = a.game
        print("levels", " ".join(str(v) for v in a.levels))
        print("game", g.rules.code(), "players", g.rules.players)
        print("over", g.over, "winner", g.winner, "plays", a.plays)
        print("totals", " ".join(str(t) for t in g.totals), "target", g.rules.target)
        print("heap_menu", peak[4])
        print("heap_peak", peak[0], peak[1])
        print("winner_page", 1 if S[5] else 0)
        import micropython

        micropython.qstr_info()
        return False
    a.loop(None, until)  # App.step keeps the debouncer and the ticks between calls
    gc.collect()
    return True
"""


# The same board with the colour board's screen (boards/pico_lcd_114: 240 x
# 135 RGB565, a 64,800-byte frame where the mono one is 1,024)
COLOUR_BOARD = (
    BOARD.replace("WIDTH = const(128)", "WIDTH = const(240)")
    .replace("HEIGHT = const(64)", "HEIGHT = const(135)")
    .replace("COLOUR = False", "COLOUR = True")
)
assert COLOUR_BOARD.count("240") == COLOUR_BOARD.count("135") == 1


def board_dir(dest, mpy_cross_args=mpy.UNIX_MPY_CROSS_ARGS, colour=False):
    """`dest` (a folder) with bench_board.mpy, the lean board (`colour`:
    with the colour board's screen), compiled."""
    src = Path(dest) / "src"
    src.mkdir(parents=True, exist_ok=True)
    (src / "bench_board.py").write_text(COLOUR_BOARD if colour else BOARD)
    return mpy.compile_firmware(Path(dest) / "mpy", mpy_cross_args, src_root=src)


FALLBACK = "app: no memory for the computer player"
LOW = "app: low memory"

HARD = 2  # app.HARD
GAMES = {"scopa": 2, "scopone_scientifico": 4}  # the games measured: players
# The heap the app tests play a match in (host_tests/test_app.py): well above
# the smallest heap this benchmark finds, so that the tests assert what the
# app does, not a margin (64-bit unix port; about 117 KiB on a 32-bit board,
# where a Pico has 240 KB free)
TEST_HEAP = "160K"


def keys(game="scopa", level=HARD, partner=None):
    """Key letters that start `game` from a fresh start menu with the
    opponents at `level` and the partner at `partner` (default: `level`),
    found by reading the menus (host_tests/menu_keys.py)."""
    mpy.setup_cpython_path()
    import menu_keys

    players = GAMES[game]
    if players == 2:
        partner = None
    elif partner is None:
        partner = level
    with contextlib.redirect_stdout(io.StringIO()):  # the app's own lines
        return menu_keys.new_game_keys(game, players, partner=partner, opp=level)


def script(game="scopa", level=HARD, partner=None, max_steps=400000, keys_=None, loop="A"):
    """The unix-port code of one match (see APP_MATCH); `keys_` the menu
    keys when already known; `loop` the letters pressed over and over
    after them ("HA": a hint before each A)."""
    k = keys_ if keys_ is not None else keys(game, level, partner)
    return APP_MATCH.format(keys=k, loop=loop, max_steps=max_steps)


def parse(out):
    """Dict of the match's lines, plus fallback and low-memory counts."""
    res = {"fallbacks": 0, "low": 0}
    for line in out.splitlines():
        if line.startswith("qstr pool:"):  # the names met, the bytes they take
            pool = dict(kv.split("=") for kv in line[10:].replace(",", " ").split())
            res["names"] = [pool["n_qstr"], pool["n_total_bytes"]]
        if line.startswith(FALLBACK):
            res["fallbacks"] += 1
        elif line.startswith(LOW):
            res["low"] += 1
        parts = line.split()
        if (
            parts
            and parts[0] in ("levels", "game", "over", "totals", "winner_page", "saved", "code")
            or (line.startswith("heap_"))
        ):
            res[parts[0]] = parts[1:]
    return res


_keys = {}


def play(
    fw, game="scopa", heapsize="128K", level=HARD, partner=None, timeout=600, cwd=None, loop="A"
):
    """One match in `heapsize` of the firmware compiled in `fw`: (parsed
    lines, seconds). `cwd`: the board's flash (a temporary folder when
    None); the firmware and the lean board are linked into it for the run,
    at a board's paths (mpy.board_links), so the heap does not depend on
    where `fw` and `cwd` are. `loop`: see `script`. Raises
    mpy.MicroPythonError when the app stops on an error."""
    k = (game, level, partner)
    if k not in _keys:
        _keys[k] = keys(game, level, partner)
    code = script(game, keys_=_keys[k], loop=loop)
    with tempfile.TemporaryDirectory(prefix="bench_app_") as tmp:
        board = board_dir(Path(tmp) / "board")
        t = time.monotonic()
        out = mpy.run_mpy(
            code, heapsize=heapsize, path=(board, fw), timeout=timeout, cwd=cwd or tmp
        )
        secs = time.monotonic() - t
    return parse(out), secs


def play_wasm(
    fw,
    game="scopa",
    level=HARD,
    partner=None,
    timeout=900,
    cwd=None,
    loop="A",
    max_steps=400000,
    colour=False,
):
    """`play` on the 32-bit WebAssembly port (host_tests/wasm.py), the
    firmware in `fw` and the lean board compiled for it (bytecode only;
    `colour`: the colour board's screen). Its heap grows on demand: the
    match cannot run short of memory, and its heap_ lines are the 32-bit
    live heap. Raises wasm.WasmError when the app stops on an error."""
    k = (game, level, partner)
    if k not in _keys:
        _keys[k] = keys(game, level, partner)
    code = APP_MATCH_WASM.format(keys=_keys[k], loop=loop, max_steps=max_steps)
    with tempfile.TemporaryDirectory(prefix="bench_app_") as tmp:
        board = board_dir(Path(tmp) / "board", wasm.WASM_MPY_CROSS_ARGS, colour)
        t = time.monotonic()
        out = wasm.run_wasm(code, path=(board, fw), timeout=timeout, cwd=cwd)
        secs = time.monotonic() - t
    return parse(out), secs


# The scorekeeper with a sheet of N rounds on the flash: the start menu's
# Scorekeeper, the totals (the sheet read and counted), a round typed and
# confirmed (the sheet written), the history; live heap after a collection
# at every screen change, as APP_MATCH measures.
KEEPER_KEYS = "DA" + "A" + "UUAUAUAUAUAAA" + "U"  # E1 of host_tests/test_scorekeeper.py
KEEPER_TOP = 220  # KiB: the smallest heap is looked for from here down
APP_KEEPER = """
import gc
import sys
import bench_board

bench_board.KEYS = {keys!r}
bench_board.LOOP = "D"
gc.collect()
print("heap_board", gc.mem_alloc())
import app

peak = [0, "", 0, 0]  # bytes, the screen shown, at the menu, done


def until(a):
    s = a.screen
    shown = "%s.%s" % (a.screen_mod, type(s).__name__)
    if shown != peak[1]:
        peak[1] = shown
        gc.collect()
        m = gc.mem_alloc()
        if not peak[2]:
            peak[2] = m
        if m > peak[0]:
            peak[0] = m
    if shown == "scorekeeper.History" and len(s.sh.rounds) == {rounds} + 1:
        peak[3] = 1
    return peak[3]


a = app.run(bench_board, max_steps={max_steps}, until=until)
print("heap_menu", peak[2])
print("heap_peak", peak[0])
print("keeper_done", peak[3])
"""


# APP_KEEPER on the 32-bit WebAssembly port, in steps (as APP_MATCH_WASM).
APP_KEEPER_WASM = """
import gc
import sys
import bench_board

bench_board.KEYS = {keys!r}
bench_board.LOOP = "D"
gc.collect()
peak = [0, "", 0, 0]  # bytes, the screen shown, at the menu, done
S = [None, 0, 0]  # the app, loop turns, measure


def until(a):
    S[1] += 1
    s = a.screen
    shown = "%s.%s" % (a.screen_mod, type(s).__name__)
    if shown != peak[1]:
        peak[1] = shown
        S[2] = 1
    if shown == "scorekeeper.History" and len(s.sh.rounds) == {rounds} + 1:
        peak[3] = 1
    return S[2] or peak[3] or S[1] >= {max_steps}


def wasm_step():
    if S[0] is None:
        print("heap_board", gc.mem_alloc())
        import app

        S[0] = app.App(bench_board, "")
        S[0].start()
    a = S[0]
    if S[2]:
        S[2] = 0
        m = gc.mem_alloc()
        if not peak[2]:
            peak[2] = m
        if m > peak[0]:
            peak[0] = m
        a.clock.sleep_ms(sys.modules["app"].TICK_MS)  # skipped by the stop
    if peak[3] or S[1] >= {max_steps}:
        print("heap_menu", peak[2])
        print("heap_peak", peak[0])
        print("keeper_done", peak[3])
        return False
    a.loop(None, until)
    gc.collect()
    return True
"""


def keeper_sheet(folder, rounds):
    """Write to `folder` a 2-player Scopa sheet of `rounds` rounds (the
    firmware's own sheet.py, on CPython): ADA and BO, five-round matches."""
    mpy.setup_cpython_path()
    import sheet
    from scopa.rules import Rules

    sh = sheet.Sheet(Rules(), ["ADA", "BO"])
    e1 = {"t": [22, 18], "d": [6, 4], "s": 0, "p": 0, "sc": [0, 0]}  # 4 - 0
    e2 = {"t": [10, 30], "d": [2, 8], "s": 1, "p": 1, "sc": [0, 0]}  # 0 - 4
    for i in range(rounds):
        sh.add(e1 if i % 2 else e2)
    sheet.save(sh, str(folder))


def keeper(fw, rounds, heapsize="128K", timeout=600):
    """The scorekeeper's run (APP_KEEPER) on a sheet of `rounds` rounds in
    `heapsize`: (parsed lines, done). Raises mpy.MicroPythonError when the
    app stops on an error."""
    code = APP_KEEPER.format(keys=KEEPER_KEYS, rounds=rounds, max_steps=20000)
    with tempfile.TemporaryDirectory(prefix="bench_app_") as tmp:
        board = board_dir(Path(tmp) / "board")
        flash = Path(tmp) / "flash"
        flash.mkdir()
        keeper_sheet(flash, rounds)
        out = mpy.run_mpy(code, heapsize=heapsize, path=(board, fw), timeout=timeout, cwd=flash)
    res = parse(out)
    return res, "keeper_done 1" in out


def keeper_wasm(fw, rounds, timeout=900):
    """`keeper` on the 32-bit WebAssembly port (its heap grows: the live
    heap only). Raises wasm.WasmError when the app stops on an error."""
    code = APP_KEEPER_WASM.format(keys=KEEPER_KEYS, rounds=rounds, max_steps=20000)
    with tempfile.TemporaryDirectory(prefix="bench_app_") as tmp:
        board = board_dir(Path(tmp) / "board", wasm.WASM_MPY_CROSS_ARGS)
        flash = Path(tmp) / "flash"
        flash.mkdir()
        keeper_sheet(flash, rounds)
        out = wasm.run_wasm(code, path=(board, fw), timeout=timeout, cwd=flash)
    return parse(out), "keeper_done 1" in out


def keeper_smallest(fw, rounds, top=160):
    """Smallest heap (KiB) from which the scorekeeper's run completes in
    every heap up to `top` (as smallest_heap)."""
    k = top
    while k > 16:
        try:
            ok = keeper(fw, rounds, "%dK" % k)[1]
        except mpy.MicroPythonError:
            ok = False
        if not ok:
            break
        k -= 1
    return k + 1


def whole_record_bytes(code, levels):
    """What saving the whole record after every play (the scheme before the
    journal) writes over the match of replay code `code`: the sum of the
    records' sizes after each play, bytes (on CPython, the firmware's own
    store and replay)."""
    mpy.setup_cpython_path()
    import store
    from scopa import replay
    from scopa.game import Game

    g = replay.decode(code)
    idx = replay.indices(g)
    g = Game(g.rules, g.seed, g.first)
    total = 0
    for i in idx:
        if g.round_over:
            g.next_round()
        g.play_index(i)
        total += len(store.encode({"code": replay.encode(g), "levels": levels}))
    return total


def completes(res):
    """What "the match completes in N KiB" means, for this benchmark and for
    host_tests/test_app.py alike: the match is over, the app reached the
    winner's page, and no computer move fell back to a random one for lack
    of memory. A low-memory event (the app drops what it can and builds the
    screen again, unseen by the player) is counted in ``res["low"]`` but is
    no failure: that recovery is the app's behaviour near its limit."""
    return (
        res.get("over", [""])[0] == "True"
        and res.get("winner_page") == ["1"]
        and res["fallbacks"] == 0
    )


def smallest_heap(fw, game, top=160, loop="A"):
    """Smallest heap (KiB) from which the match completes (see completes)
    in every heap up to `top` KiB: one run each, down from `top` to the
    first that fails (near the limit the heap's fragmentation makes
    success not monotonic, so a bisection could report a size that fails
    one KiB above). `top` + 1 when it fails in `top`."""
    k = top
    while k > 16:
        try:
            ok = completes(play(fw, game, "%dK" % k, loop=loop)[0])
        except mpy.MicroPythonError:
            ok = False
        if not ok:
            break
        k -= 1
    return k + 1


def main(argv=None):
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: the shell's status for it, 128 + SIGINT
        print("bench_app: interrupted (no results)", file=sys.stderr)
        return 130


def _main(argv=None):
    from tools.sim import heapsize_arg

    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument(
        "--heapsize",
        default=TEST_HEAP,
        type=heapsize_arg,
        help="unix port heap for the measured match (default: %(default)s)",
    )
    ap.add_argument("--markdown", action="store_true", help="print a README table")
    a = ap.parse_args(argv)
    cols = {}
    cols32 = {}  # the same on the 32-bit WebAssembly port
    with tempfile.TemporaryDirectory() as tmp:
        fw = mpy.compile_firmware(Path(tmp) / "fw", mpy.UNIX_MPY_CROSS_ARGS)
        for game in GAMES:
            try:
                res, secs = play(fw, game, a.heapsize)
            except mpy.MicroPythonError as e:
                last = (e.stderr or e.stdout or "").strip().split("\n")[-1]
                print(
                    "bench_app: %s stopped with an error in a %s heap: %s"
                    " (the default heap is %s)"
                    % (game, a.heapsize, last or "exit status %d" % e.returncode, TEST_HEAP),
                    file=sys.stderr,
                )
                return 1
            if not completes(res):
                print("bench_app: %s did not complete in %s: %r" % (game, a.heapsize, res))
                return 1
            cols[game] = (
                res["heap_board"][0],
                res["heap_menu"][0],
                res["heap_peak"][0],
                smallest_heap(fw, game),
                smallest_heap(fw, game, loop="HAA"),
                "%.1f" % secs,
                res["over"][-1],
                "%d / %d (%d)"
                % (
                    int(res["saved"][0]) // int(res["saved"][1]),
                    int(res["saved"][0]),
                    whole_record_bytes(res["code"][0], [int(v) for v in res["levels"]]),
                ),
                "%s / %s" % tuple(res["names"]),
            )
        fw32 = mpy.compile_firmware(Path(tmp) / "fw32", wasm.WASM_MPY_CROSS_ARGS)
        for game in GAMES:
            res, secs = play_wasm(fw32, game)
            if not completes(res):
                print("bench_app: %s did not complete on the wasm port: %r" % (game, res))
                return 1
            cols32[game] = (
                res["heap_board"][0],
                res["heap_menu"][0],
                res["heap_peak"][0],
                "",
                "",
                "%.1f" % secs,
                res["over"][-1],
                "",
                "%s / %s" % tuple(res["names"]),
            )
        res, _ = play_wasm(fw32, "scopa", colour=True)
        if not completes(res):
            print("bench_app: scopa did not complete on the colour board: %r" % (res,))
            return 1
        colour = (res["heap_peak"][0], cols32["scopa"][2])
        native = native_code(Path(tmp) / "armv6m", fw32)
        mpy.setup_cpython_path()
        import sheet

        sheets = (0, 100, sheet.MAX_ROUNDS - 1)  # the last: a full sheet once typed
        kept = []
        for n in sheets:
            res, done = keeper(fw, n, "256K")
            res32, done32 = keeper_wasm(fw32, n)
            if not (done and done32):
                print("bench_app: the scorekeeper with %d rounds did not complete" % n)
                return 1
            kept.append(
                (res["heap_peak"][0], res32["heap_peak"][0], keeper_smallest(fw, n, KEEPER_TOP))
            )
    rows = [
        "heap in use before the app (the unix port, the board), bytes",
        "heap in use at the start menu, bytes",
        "peak live heap during the match, bytes",
        "smallest -X heapsize from which it completes, the computer never short of memory, KiB",
        "the same, the human asking a hint (Hard) before each play, KiB",
        "time of the match (unix port, %s heap; wasm port), s" % a.heapsize,
        "moves in the match",
        "bytes the game's saves write to flash: per play / per match (the whole record each"
        " play, as before the journal)",
        "names (qstrs) met by the match's end / bytes their pools and text take (the port's"
        " own included; on the 64-bit port the pool after the 1,260th name is one block of"
        " 14 KB)",
    ]
    head = "Scopa, 2 players", "32-bit", "Scopone scientifico", "32-bit"

    def cells(i):
        g, h = "scopa", "scopone_scientifico"
        return cols[g][i], cols32[g][i], cols[h][i], cols32[h][i]

    if a.markdown:
        print(
            "| app benchmark: a match, human by key script vs Hard (.mpy; unix port, "
            "64-bit, and wasm port, 32-bit) | %s | %s | %s | %s |" % head
        )
        print("|---|---:|---:|---:|---:|")
        for i, name in enumerate(rows):
            print("| %s | %s | %s | %s | %s |" % (name, *cells(i)))
    else:
        print("%-66s %18s %8s %20s %8s" % ("", *head))
        for i, name in enumerate(rows):
            print("%-66s %18s %8s %20s %8s" % (name, *cells(i)))
    print()
    rows = [
        "peak live heap, bytes (unix port, 64-bit)",
        "the same on the wasm port (32-bit), bytes",
        "smallest -X heapsize from which it completes, KiB (64-bit)",
    ]
    head = ["a sheet of %d rounds, one more typed" % n for n in sheets]
    if a.markdown:
        print(
            "| the scorekeeper: opened from the menu, a round typed and confirmed, the"
            " history (.mpy) | %s |" % " | ".join(head)
        )
        print("|---|" + "---:|" * len(sheets))
        for i, name in enumerate(rows):
            print("| %s | %s |" % (name, " | ".join(str(k[i]) for k in kept)))
    else:
        print("%-60s %s" % ("scorekeeper", "  ".join("%d rounds" % n for n in sheets)))
        for i, name in enumerate(rows):
            print("%-60s %s" % (name, "  ".join(str(k[i]) for k in kept)))
    print()
    print(
        "On a board with a native emitter the search's hottest modules are native code"
        " (tools.flash.compiler.NATIVE and VIPER: %s), which an RP2040 loads into its"
        " heap: %d bytes of armv6m .mpy against %d of bytecode (the 32-bit columns), %d"
        " more. The unix port keeps native code outside its heap." % native
    )
    print()
    print(
        "On the colour board (240 x 135 RGB565: a 64,800-byte frame, the mono one 1,024)"
        " the 2-player match peaks at %s bytes of live heap on the 32-bit port (%s on the"
        " mono board); with the native code above, %d bytes on an RP2040."
        % (*colour, int(colour[0]) + native[-1])
    )
    return 0


def native_code(dest, bytecode):
    """The modules of tools.flash.compiler.NATIVE and VIPER compiled for an
    RP2040 (-march=armv6m, native) into `dest`, against their bytecode in
    the folder `bytecode` (which has no VIPER module: ai.core's own code
    stands in for it): (names, native bytes, bytecode bytes, difference),
    sizes of the .mpy files."""
    from tools.flash.compiler import NATIVE, VIPER, native_modules

    arm = mpy.compile_firmware(dest, ("-march=armv6m",))
    names = [n[:-3] + ".mpy" for n in NATIVE | VIPER]
    a = sum((arm / n).stat().st_size for n in names)
    b = sum((Path(bytecode) / n).stat().st_size for n in names if (Path(bytecode) / n).exists())
    return native_modules(), a, b, a - b


if __name__ == "__main__":
    sys.exit(main())
