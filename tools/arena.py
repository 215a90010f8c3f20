"""Play computer players against each other: the part of tools/tournament.py
that runs on the MicroPython unix port (or CPython, with firmware/ and the
micropython shim on the path). Prints one line per result; the wrapper
adds them up.

    micropython tools/arena.py a=hard b=medium game=scopa players=2 \
        deals=100 start=0 matches=0 mstart=0 nodes=0 seed=1 heap=1 mixed=0

(nodes=0: the hard player's default budget for the family.) mixed=1: A plays
only the first seat of its side, its partners play B's level (a mixed team,
Hard + Medium against Medium + Medium). mark=1: each of A's decisions is
framed by calls of the builtins callable() before and hash() after, which
the firmware never calls: valgrind's callgrind, told to zero its counts
at the first and dump them at the second (tools/tournament.py
--instructions), counts each decision's instructions in one dump.

Seats: A plays side `rot` (and its partners), B every other seat; with
paired deals each deal is played once per side for A (rot 0, 1, ...).
Output lines:

    D <deal> <rot> <points of each side ...>   one deal (first round of a seed)
    M <match> <rot> <winner side> <rounds>     one match to the target
    T <a|b> <k>:<n> ...                        n decisions took k/10 to (k+1)/10 ms
    N <a|b> <k>:<n> ...                        n hard decisions used 10k to 10k+9 nodes
    U <a|b> <k>:<n> ...                        n decisions took k ms of the process's CPU
                                               time (time.clock, 1 ms steps; unix port)
    H <a|b> <bytes>                            most allocated in one decision
                                               (GC off: a bound on its peak)
    B <bytes>                                  heap after the imports (code)
    P <bytes>                                  the hard player's buffers
    Q <bytes>                                  the same objects on a 32-bit build
                                               (an estimate, see buffers32())
"""

import gc
import sys
from array import array

import ai
from ai import core, easy, hard, medium
from scopa import engine as E
from scopa.game import Game
from scopa.rng import Rng
from scopa.rules import Rules

try:
    from time import clock  # the process's CPU time, s (the unix port)
except ImportError:

    def clock():
        return 0.0


try:
    from time import ticks_diff, ticks_us
except ImportError:
    import time

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


NBUCKET = 2000  # thinking time histogram: 0.1 ms buckets up to 200 ms
NCPU = 200  # CPU time histogram: 1 ms buckets
NNODE = 1000  # nodes histogram: buckets of 10 nodes up to 10,000


def _gc32(n):
    # bytes a 32-bit port's heap spends on n bytes: 16-byte blocks
    return (n + 15) // 16 * 16


def _obj32(o):
    # a 32-bit build: a bytearray is 4 words and its bytes; a list 4 words
    # and a word per item; an instance (a Moves) 2 words and its attribute
    # map (8 words for 3 attributes); small ints are not objects
    if isinstance(o, bytearray):
        return _gc32(16) + _gc32(len(o))
    if isinstance(o, list):
        return _gc32(16) + _gc32(4 * len(o)) + sum(_obj32(x) for x in o)
    if isinstance(o, E.Moves):
        return _gc32(8) + _gc32(32) + _obj32(o.buf)
    return 0


def buffers32():
    """What the hard player's buffers (hard._init) take on a 32-bit port:
    the same bytearrays with 4-byte words and 16-byte heap blocks."""
    return _obj32(hard._S) + _obj32(hard._MV) + _obj32(core.hist0) + _obj32(core.hmove)


class Player:
    def __init__(self, level, nodes, tag):
        self.level = level
        self.nodes = nodes
        self.tag = tag
        self.rng = Rng(1)
        self.times = array("I")  # decisions per 0.1 ms of thinking time
        for _ in range(NBUCKET):
            self.times.append(0)
        self.heap = 0
        self.cpu = array("I")  # decisions per ms of CPU time
        for _ in range(NCPU):
            self.cpu.append(0)
        self.counts = array("I")  # hard decisions per 10 nodes used
        for _ in range(NNODE if level == "hard" else 0):
            self.counts.append(0)

    def pick(self, st, rules, seat, mv, mates=1):
        # mates: 0 when a partner of the seat plays another level (mixed)
        lv = self.level
        if lv == "hard":
            o = hard.decide(st, rules, seat, self.rng, self.nodes or None, mv, mates)
            k = (hard._nodes + hard._root) // 10  # the nodes it used, its scoring of the root's too
            self.counts[k if k < NNODE else NNODE - 1] += 1
            return o
        if lv == "medium":
            return medium.pick(st, rules, seat, mv)
        return easy.pick(st, rules, seat, mv, self.rng)


def _args():
    a = {
        "a": "hard",
        "b": "medium",
        "game": "scopa",
        "players": "0",
        "deals": "0",
        "start": "0",
        "matches": "0",
        "mstart": "0",
        "nodes": "0",
        "seed": "1",
        "heap": "1",
        "paired": "1",
        "mixed": "0",
        "mark": "0",
    }
    for s in sys.argv[1:]:
        k, v = s.split("=")
        a[k] = v
    return a


def main():
    heap_ok = hasattr(gc, "mem_alloc")  # MicroPython's; CPython has no heap figure
    if heap_ok:
        gc.collect()
        print("B", gc.mem_alloc())  # the code: modules imported, nothing played
    a = _args()
    opts = {}
    if int(a["players"]):
        opts["players"] = int(a["players"])
    rules = Rules(a["game"], **opts)
    mods = {"hard": hard, "medium": medium, "easy": easy, "core": core}
    for k in a:
        f = k.split(".")
        if f[0] in mods:  # experiments: MODULE.NAME=int or MODULE.NAME.i=int
            if len(f) == 3:
                getattr(mods[f[0]], f[1])[int(f[2])] = int(a[k])
            else:
                setattr(mods[f[0]], f[1], int(a[k]))
    nodes = int(a["nodes"])
    if "budget" in a:
        nodes = hard.nodes_for(int(a["budget"]))
    pa = Player(a["a"], nodes, "a")
    pb = Player(a["b"], nodes, "b")
    measure = int(a["heap"]) and heap_ok
    seed0 = int(a["seed"])
    rots = rules.sides if int(a["paired"]) else 1
    seats = [pb] * rules.players
    mixed = int(a["mixed"])
    mates = [1] * rules.players  # 0: a partner of the seat plays another level
    mark = int(a["mark"])

    def play(g, rot, whole):
        for s in range(rules.players):
            seats[s] = pa if s % rules.sides == rot and not (mixed and s >= rules.sides) else pb
        levels = [p.level for p in seats]
        for s in range(rules.players):
            mates[s] = ai.mates(levels, rules.sides, s, levels[s])
        st = g.st
        mv = g.mv
        rounds = 1
        while True:
            seat = st[E.TURN]
            p = seats[seat]
            c0 = clock()
            if measure:
                gc.collect()
                gc.disable()
                m0 = gc.mem_alloc()
            if mark and p is pa:
                callable(p)
            t0 = ticks_us()
            off = p.pick(st, rules, seat, mv, mates[seat])
            dt = ticks_diff(ticks_us(), t0)
            if mark and p is pa:
                hash(p)
            if measure:
                h = gc.mem_alloc() - m0
                gc.enable()
                if h > p.heap:
                    p.heap = h
            k = int((clock() - c0) * 1000 + 0.5)
            p.cpu[k if k < NCPU else NCPU - 1] += 1
            k = dt // 100
            p.times[k if k < NBUCKET else NBUCKET - 1] += 1
            b = mv.buf
            core.observe(st, rules, b[off], b[off + 2 : off + 2 + b[off + 1]])
            fl = g._apply(off)
            if fl & E.ROUND_OVER:
                if not whole or g.finished:
                    return rounds
                g.next_round()
                rounds += 1

    if heap_ok:
        gc.collect()
        m = gc.mem_alloc()
        hard._init()
        gc.collect()
        print("P", gc.mem_alloc() - m)
        print("Q", buffers32())
    start = int(a["start"])
    for i in range(start, start + int(a["deals"])):
        for rot in range(rots):
            seed = seed0 * 100003 + i
            g = Game(rules, seed)
            pa.rng.seed(seed * 7 + 1 + rot)
            pb.rng.seed(seed * 7 + 4 + rot)
            play(g, rot, False)
            print("D", i, rot, " ".join(str(t) for t in g.score.total))
    start = int(a["mstart"])
    for i in range(start, start + int(a["matches"])):
        for rot in range(rots):
            seed = seed0 * 100003 + 50000 + i
            g = Game(rules, seed)
            pa.rng.seed(seed * 7 + 1 + rot)
            pb.rng.seed(seed * 7 + 4 + rot)
            r = play(g, rot, True)
            print("M", i, rot, -1 if g.winner is None else g.winner, r)
    for p in (pa, pb):
        t = p.times
        out = []
        for k in range(NBUCKET):
            if t[k]:
                out.append("%d:%d" % (k, t[k]))
                if len(out) == 50:
                    print("T", p.tag, " ".join(out))
                    out = []
        if out:
            print("T", p.tag, " ".join(out))
        out = []
        for k in range(NCPU):
            if p.cpu[k]:
                out.append("%d:%d" % (k, p.cpu[k]))
        print("U", p.tag, " ".join(out))
        out = []
        for k in range(len(p.counts)):
            if p.counts[k]:
                out.append("%d:%d" % (k, p.counts[k]))
                if len(out) == 50:
                    print("N", p.tag, " ".join(out))
                    out = []
        if out:
            print("N", p.tag, " ".join(out))
        print("H", p.tag, p.heap)


main()
