"""The engine's invariants of a game in progress, checked by the random
button tests (host_tests/test_ui_fuzz.py) on CPython and, in the
simulator, on the MicroPython unix port: plain Python that runs on both."""

from scopa import engine as E


def check_invariants(g):
    """The engine's state of Game `g` is consistent: 40 cards accounted
    for, the table list matching the cards on the table, hand sizes
    consistent with the turn. Returns the hand sizes; AssertionError
    otherwise."""
    st = g.st
    r = g.rules
    where = [0] * 16
    for c in range(40):
        loc = st[c]
        ok = loc in (E.MAZZO, E.TABLE) or E.HAND <= loc < E.HAND + r.players
        assert ok or E.PILE <= loc < E.PILE + r.sides, (c, loc)
        where[loc] += 1
    ntab = st[E.NTAB]
    assert sorted(st[E.TAB : E.TAB + ntab]) == [c for c in range(40) if st[c] == E.TABLE]
    assert where[E.MAZZO] == 40 - st[E.DP] or st[E.OVER]
    sizes = [where[E.HAND + s] for s in range(r.players)]
    assert sum(sizes) == st[E.INHAND]
    piles = sum(where[E.PILE + s] for s in range(r.sides))
    assert piles + ntab + sum(sizes) + where[E.MAZZO] == 40
    if not g.round_over:
        # from the seat to play round the table: h, ..., h, then h - 1, ...
        turn = st[E.TURN]
        seq = [sizes[(turn + i) % r.players] for i in range(r.players)]
        h = seq[0]
        assert h >= 1 and all(x in (h, h - 1) for x in seq)
        assert seq == sorted(seq, reverse=True), seq
    else:
        assert sum(sizes) == 0
    return sizes


class Watch:
    """An App.loop until() hook: checks the game every `every` loop turns;
    counts the checks and the games seen (by seed and rules: an id() is
    reused once its game is freed, so a count of ids varied from run to
    run)."""

    def __init__(self, every=25):
        self.every = every
        self.n = 0
        self.checks = 0
        self.games = set()

    def __call__(self, a):
        self.n += 1
        if self.n % self.every == 0 and a.game is not None:
            check_invariants(a.game)
            self.checks += 1
            self.games.add((a.game.seed, a.game.rules.code()))
        return False
