"""The easy player: a beginner's game.

It takes the capture with the most cards (the settebello first when it
can), and otherwise lays a card at random; and SLIP percent of the time
it plays any legal move at random. It never counts cards and
never looks at what it leaves on the table, so a player who guards
against sweeps beats it.
"""

from scopa import engine

_mv = None
SLIP = 30  # percent of moves played at random


def pick(st, rules, seat, mv, rng):
    """Offset in `mv` of the move to play (`mv` is filled here)."""
    n = engine.gen_moves(st, rules, mv, seat)
    b = mv.buf
    if rng is not None and rng.below(100) < SLIP:
        # a beginner's slip: any legal move
        i = rng.below(n)
        o = 0
        for _ in range(i):
            o += 2 + b[o + 1]
        return o
    best = -1
    bo = -1
    lays = 0
    o = 0
    for _ in range(n):
        k = b[o + 1]
        if k:
            v = 2 * k + (10 if b[o] == 6 else 0)
            for j in range(k):
                if b[o + 2 + j] == 6:
                    v += 10
            if v > best:
                best = v
                bo = o
        else:
            lays += 1
        o += 2 + k
    if bo >= 0:
        return bo
    i = rng.below(lays) if rng is not None else 0
    o = 0
    while True:
        k = b[o + 1]
        if k == 0:
            if i == 0:
                return o
            i -= 1
        o += 2 + k


def choose(st, rules, seat, rng=None, budget_ms=None, nodes=None, mates=1):
    """The move for `seat` (the seat to play) as ``(card, taken)``. The
    budget and `mates` are unused."""
    global _mv
    if _mv is None:
        _mv = engine.Moves()
    return _mv.move(pick(st, rules, seat, _mv, rng))
