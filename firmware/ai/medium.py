"""The medium player: the rules of thumb of a good player, one move ahead.

Each legal move is played on a scratch copy and scored (centipoints) by
what the round is then worth to the player's side (ai.core.util: cards,
coins, settebello, primiera, scope), less the risk it leaves:

- a sweep: the table left adds up to a value the next opponent may hold.
  The cards seen (table, piles, own hand) are counted, so a table of 7
  when all four sevens are gone is safe; the chance that a hand of h
  cards drawn from the unseen ones holds a sweeping card is exact.
- a laid card taken back: a seven or a coin laid where the next opponent
  is likely to hold its value.
- in partnerships the next seat is an opponent; a table the partner (who
  plays after it) may sweep is worth a little, and with visible partners
  a sweep the partner surely holds counts more.

No search, no sampling: a decision costs one `apply` per legal move.
"""

from micropython import const

from ai import core as K
from scopa import engine as E

SWEEP = 110  # cost of giving a scopa: the point and the cards

_w = bytearray(E.SIZE)
_strict = 1
_mv = None


def score(st, rules, seat, mv, out):
    """Score every move in `mv` (filled by gen_moves for `seat`, the seat
    to play) into the list `out` (len >= mv.n), in centipoints for the
    seat's side. Calls K.view(st, seat) first."""
    global _strict
    K.setup(rules)
    K.view(st, seat)
    _strict = rules.strict
    side = seat % K.sides
    u = K.nun
    w = _w
    b = mv.buf
    end = mv.end
    o = 0
    i = 0
    while o < end:
        k = b[o + 1]
        w[:] = st
        fl = E.apply(w, rules, b, o)
        v = K.util(w, side)
        if not w[E.OVER] and w[E.NTAB]:
            nxt = w[E.TURN]
            # the next seat's hand: dealt afresh, else from the counters
            h = K.hand if fl & E.DEALT else K.hand_size(w, nxt)
            opp = nxt % K.sides != side
            m = K.sweep_mask(w)
            if m:
                cnt = 0
                for x in range(1, 11):
                    if (m >> x) & 1:
                        cnt += K.uval[x]
                if cnt:
                    tw = 0
                    for j in range(w[E.NTAB]):
                        tw += K.WORTH[w[E.TAB + j]]
                    cost = SWEEP + tw
                    if opp:
                        v -= K.p_holds(cnt, u, h) * cost // 1000
                    elif K.sides == 2:
                        v += K.p_holds(cnt, u, h) * cost // 2000
                if K.sides == 2 and K.players >= 4 and K.known[(seat + 2) % K.players]:
                    # a visible partner, two seats on: does it hold the sweep?
                    ph = _HAND_BASE + (seat + 2) % K.players
                    for c in range(40):
                        if st[c] == ph and (m >> (c % 10 + 1)) & 1:
                            v += 30
                            break
            if k == 0 and opp:
                # the laid card taken back: by a card of its value, or of
                # its value plus one table card's
                c = b[o]
                x = c % 10 + 1
                loss = 0
                if K.uval[x]:
                    loss = K.p_holds(K.uval[x], u, h) * K.WORTH[c]
                if x < 10 and not (_strict and K.uval[x] and _single(w, x)):
                    for j in range(w[E.NTAB] - 1):
                        t = w[E.TAB + j]
                        y = x + t % 10 + 1
                        if y <= 10 and K.uval[y] and not _single(w, y):
                            q = K.p_holds(K.uval[y], u, h) * (K.WORTH[c] + K.WORTH[t])
                            if q > loss:
                                loss = q
                v -= loss // 1000
        out[i] = v
        i += 1
        o += 2 + k
    return i


_HAND_BASE = const(2)


def _single(w, y):
    # a table card of value y (a single match, taken before any sum)
    for j in range(w[E.NTAB]):
        if w[E.TAB + j] % 10 + 1 == y:
            return True
    return False


_out = [0] * 64


def pick(st, rules, seat, mv):
    """Offset in `mv` of the move to play (`mv` is filled here)."""
    global _out
    n = E.gen_moves(st, rules, mv, seat)
    if n == 1:
        return 0
    if n > len(_out):
        _out = [0] * n
    score(st, rules, seat, mv, _out)
    best = -99999
    bo = 0
    o = 0
    b = mv.buf
    for i in range(n):
        if _out[i] > best:
            best = _out[i]
            bo = o
        o += 2 + b[o + 1]
    return bo


def choose(st, rules, seat, rng=None, budget_ms=None, nodes=None):
    """The move for `seat` (the seat to play) as ``(card, taken)``. `rng`
    and the budget are unused (the medium player is deterministic)."""
    global _mv
    if _mv is None:
        _mv = E.Moves()
    return _mv.move(pick(st, rules, seat, _mv))
