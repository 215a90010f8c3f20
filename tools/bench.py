"""Engine benchmark: speed on CPython and on the MicroPython unix port, heap
on the unix port, the unix port running the firmware compiled by mpy-cross
as the flash tool compiles it (scopa.engine as native code).

    python tools/bench.py [--rounds N] [--markdown]

Reports random full rounds per second (2-player Scopa and Scopone
scientifico), the time to enumerate the legal moves on a crowded table (16
low cards, free priority, capture optional: hundreds of options), and the
heap of a whole Scopone scientifico match from the .mpy firmware: the heap
in use after the imports, the peak of live data (`gc.mem_alloc()` after a
collection at every move) and the smallest `-X heapsize` that completes it.
(`micropython.mem_peak()` adds up allocations the GC frees, so it is not
used.). The same two heap figures on a 32-bit MicroPython (the WebAssembly
port, host_tests/wasm.py) go in a column of their own; its heap grows on
demand, so it has no smallest heap. Then the bytes allocated per deal of
random self-play with the GC off (`gc.disable()`, `gc.mem_alloc()` before
and after, per family): the engine alone, and through `scopa.game.Game`.
A benchmark, not a test:
the README shows its latest output.
"""

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_tests import mpy  # noqa: E402

# Runs on both interpreters: prints "name value unit" lines.
BODY = """
import gc
try:
    from time import ticks_us, ticks_diff
except ImportError:
    from time import perf_counter
    def ticks_us():
        return int(perf_counter() * 1000000)
    def ticks_diff(a, b):
        return a - b
from scopa import engine as E
from scopa.rules import Rules
from scopa.rng import Rng

def rounds(game, n):
    rules = Rules(game)
    rng = Rng(1)
    st = E.new_state()
    mv = E.Moves()
    t = ticks_us()
    for k in range(n):
        E.start_round(st, rules, rng, k % rules.players)
        while not st[E.OVER]:
            m = E.gen_moves(st, rules, mv)
            i = rng.below(m)
            off = 0
            for _ in range(i):
                off += 2 + mv.buf[off + 1]
            E.apply(st, rules, mv.buf, off)
    return n * 1000000 // max(1, ticks_diff(ticks_us(), t))

def crowded(reps):
    rules = Rules("scopa", match_priority="free", capture_mandatory=False)
    st = E.new_state()
    for c in range(40):
        st[c] = E.MAZZO
    n = 0
    for c in range(40):
        if c % 10 < 4 and c != 33:
            st[c] = E.TABLE
            st[E.TAB + n] = c
            n += 1
    st[E.NTAB] = n
    for c in (9, 19, 29):  # three Kings in hand
        st[c] = E.HAND
    mv = E.Moves(8192)
    t = ticks_us()
    for _ in range(reps):
        k = E.gen_moves(st, rules, mv, 0)
    return ticks_diff(ticks_us(), t) // reps, n, k

print("rounds_scopa", rounds("scopa", ROUNDS), "rounds/s")
print("rounds_scientifico", rounds("scopone_scientifico", ROUNDS), "rounds/s")
us, n, k = crowded(REPS)
print("crowded_us", us, "us", n, k)
"""

HEAP = """
import gc
gc.collect()
from scopa.rules import Rules
from scopa.rng import Rng
from scopa.game import Game
from scopa import scoring, replay
gc.collect()
base = gc.mem_alloc()
live = base
rng = Rng(77)
g = Game(Rules("scopone_scientifico"), 2024)
while not g.finished:
    while not g.round_over:
        g.play_index(rng.below(len(g.legal_moves())))
        gc.collect()
        live = max(live, gc.mem_alloc())
    if not g.finished:
        g.next_round()
code = replay.encode(g)
print("heap_code", base, "bytes")
print("heap_live", live, "bytes")
"""


# HEAP on the 32-bit WebAssembly port, in steps (host_tests/wasm.py: there
# a collection is done only between two calls of wasm_step): one move a
# step, the live heap read at the start of the next one.
HEAP_WASM = """
import gc
from scopa.rules import Rules
from scopa.rng import Rng
from scopa.game import Game
from scopa import scoring, replay
gc.collect()
S = [None, None, 0, 0, 0]  # game, rng, base, live, measure


def wasm_step():
    if S[0] is None:
        S[2] = S[3] = gc.mem_alloc()
        S[1] = Rng(77)
        S[0] = Game(Rules("scopone_scientifico"), 2024)
        return True
    g = S[0]
    if S[4]:
        S[3] = max(S[3], gc.mem_alloc())
    if g.finished:
        replay.encode(g)
        print("heap_code", S[2], "bytes")
        print("heap_live", S[3], "bytes")
        return False
    if g.round_over:
        g.next_round()
    g.play_index(S[1].below(len(g.legal_moves())))
    S[4] = 1
    gc.collect()
    return True
"""


def heap_wasm():
    """HEAP on the 32-bit WebAssembly port from the firmware compiled for
    it (bytecode .mpy): parsed lines heap_code and heap_live, bytes."""
    from host_tests import wasm

    with tempfile.TemporaryDirectory() as tmp:
        fw = mpy.compile_firmware(Path(tmp) / "fw", wasm.WASM_MPY_CROSS_ARGS)
        return parse(wasm.run_wasm(HEAP_WASM, path=(fw,)))


# Bytes allocated per deal with the GC off, per family (host_tests/selfplay.py:
# engine_alloc, game_alloc): the engine alone, then through scopa.game.Game.
ALLOC = """
from scopa.rules import GAMES, Rules
from selfplay import engine_alloc, game_alloc

def per(b):
    return (b + DEALS // 2) // DEALS

for name in GAMES:
    r = Rules(name)
    moves, ends, deals = game_alloc(r, 7, DEALS)
    print("alloc", name, per(engine_alloc(r, 7, DEALS)), per(moves), per(ends), per(deals))
"""

SHORT = {"scopone_scientifico": "scientifico", "scopa_d_assi": "d'assi", "scopa_15": "15"}


def alloc_rows(deals):
    """README rows: the bytes allocated per deal of random self-play with the
    GC off on the unix port (gc.disable(), gc.mem_alloc() before and after
    `deals` deals), per family; the engine alone, then through Game split
    into its history (scopa.game) and the round's score (scopa.scoring)."""
    out = mpy.run_mpy(
        "DEALS = %d\n" % deals + ALLOC, path=(mpy.FIRMWARE, ROOT / "host_tests"), timeout=600
    )
    fams = [ln.split()[1:] for ln in out.splitlines() if ln.startswith("alloc ")]
    names = ", ".join(SHORT.get(f[0], f[0].replace("scopone_", "")) for f in fams)
    return [
        (
            "bytes allocated per deal with the GC off, engine random self-play (%s)" % names,
            "",
            " / ".join(f[1] for f in fams),
        ),
        (
            "the same through scopa.game.Game: its history + the round's score (scopa.scoring)"
            " + the deal",
            "",
            " / ".join("%s+%s+%s" % (f[2], f[3], f[4]) for f in fams),
        ),
    ]


def smallest_heap(fw):
    """Smallest heap (KiB, to 1 KiB) in which the match completes."""
    lo, hi = 4, 64
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            mpy.run_mpy(HEAP, heapsize="%dK" % mid, path=(fw,))
            hi = mid
        except mpy.MicroPythonError:
            lo = mid + 1
    return lo


def parse(out):
    res = {}
    for line in out.splitlines():
        parts = line.split()
        if parts:
            res[parts[0]] = parts[1:]
    return res


def run_cpython(code):
    import contextlib
    import io

    mpy.setup_cpython_path()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, "bench", "exec"), {"__name__": "bench"})
    return buf.getvalue()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=300, help="random rounds per family")
    ap.add_argument("--reps", type=int, default=20, help="crowded-table enumerations")
    ap.add_argument("--heapsize", default="64K", help="unix port heap for the match")
    ap.add_argument("--markdown", action="store_true", help="print a README table")
    ap.add_argument("--alloc-deals", type=int, default=50, help="deals per family, alloc rows")
    a = ap.parse_args(argv)
    code = "ROUNDS = %d\nREPS = %d\n" % (a.rounds, a.reps) + BODY
    cpy = parse(run_cpython(code))
    with tempfile.TemporaryDirectory() as tmp:
        fw = mpy.compile_firmware(Path(tmp) / "fw", mpy.UNIX_MPY_CROSS_ARGS)
        upy = parse(mpy.run_mpy(code, timeout=600, path=(fw,)))
        heap = parse(mpy.run_mpy(HEAP, heapsize=a.heapsize, path=(fw,)))
        least = smallest_heap(fw)
    heap32 = heap_wasm()
    rows = [
        ("random rounds/s, Scopa 2 players", cpy["rounds_scopa"][0], upy["rounds_scopa"][0]),
        (
            "random rounds/s, Scopone scientifico",
            cpy["rounds_scientifico"][0],
            upy["rounds_scientifico"][0],
        ),
        (
            "legal moves on a crowded table (%s cards, %s moves), us"
            % (upy["crowded_us"][2], upy["crowded_us"][3]),
            cpy["crowded_us"][0],
            upy["crowded_us"][0],
        ),
        (
            "heap in use after importing the engine (.mpy), bytes",
            "",
            heap["heap_code"][0],
            heap32["heap_code"][0],
        ),
        (
            "peak live heap during a Scopone scientifico match (.mpy), bytes",
            "",
            heap["heap_live"][0],
            heap32["heap_live"][0],
        ),
        ("smallest -X heapsize that completes that match (.mpy), KiB", "", least),
    ]
    rows += alloc_rows(a.alloc_deals)
    if a.markdown:
        print(
            "| engine benchmark | CPython %d.%d | MicroPython unix port (64-bit) | "
            "MicroPython wasm port (32-bit) |" % sys.version_info[:2]
        )
        print("|---|---:|---:|---:|")
        for name, c, u, *w in rows:
            print("| %s | %s | %s | %s |" % (name, c, u, "".join(w)))
    else:
        print("%-75s %10s %10s %10s" % ("", "CPython", "unix 64", "wasm 32"))
        for name, c, u, *w in rows:
            print("%-75s %10s %10s %10s" % (name, c, u, "".join(w)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
