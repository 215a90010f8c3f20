"""Play computer players against each other: the part of tools/tournament.py
that runs on the MicroPython unix port (or CPython, with firmware/ and the
micropython shim on the path). Prints one line per result; the wrapper
adds them up.

    micropython tools/arena.py a=hard b=medium game=scopa players=2 \
        deals=100 start=0 matches=0 mstart=0 nodes=220 seed=1 heap=1

Seats: A plays side `rot` (and its partners), B every other seat; with
paired deals each deal is played once per side for A (rot 0, 1, ...).
Output lines:

    D <deal> <rot> <points of each side ...>   one deal (first round of a seed)
    M <match> <rot> <winner side> <rounds>     one match to the target
    T <a|b> <k>:<n> ...                        n decisions took k/10 to (k+1)/10 ms
    H <a|b> <bytes>                            most allocated in one decision
                                               (GC off: a bound on its peak)
    B <bytes>                                  heap after the imports (code)
    P <bytes>                                  the hard player's buffers
"""

import gc
import sys
from array import array

from ai import core, easy, hard, medium
from scopa import engine as E
from scopa.game import Game
from scopa.rng import Rng
from scopa.rules import Rules

try:
    from time import ticks_diff, ticks_us
except ImportError:
    import time

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


NBUCKET = 2000  # thinking time histogram: 0.1 ms buckets up to 200 ms


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

    def pick(self, st, rules, seat, mv):
        lv = self.level
        if lv == "hard":
            return hard.decide(st, rules, seat, self.rng, self.nodes, mv)
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
        "nodes": str(hard.DEFAULT_NODES),
        "seed": "1",
        "heap": "1",
        "paired": "1",
    }
    for s in sys.argv[1:]:
        k, v = s.split("=")
        a[k] = v
    return a


def main():
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
    measure = int(a["heap"])
    seed0 = int(a["seed"])
    rots = rules.sides if int(a["paired"]) else 1
    seats = [pb] * rules.players

    def play(g, rot, whole):
        for s in range(rules.players):
            seats[s] = pa if s % rules.sides == rot else pb
        st = g.st
        mv = g.mv
        rounds = 1
        while True:
            seat = st[E.TURN]
            p = seats[seat]
            if measure:
                gc.collect()
                gc.disable()
                m0 = gc.mem_alloc()
            t0 = ticks_us()
            off = p.pick(st, rules, seat, mv)
            dt = ticks_diff(ticks_us(), t0)
            if measure:
                h = gc.mem_alloc() - m0
                gc.enable()
                if h > p.heap:
                    p.heap = h
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

    gc.collect()
    m = gc.mem_alloc()
    hard._init()
    gc.collect()
    print("P", gc.mem_alloc() - m)
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
        print("H", p.tag, p.heap)


main()
