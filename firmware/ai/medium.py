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

from ai import core
from scopa import engine

# scopa.engine's state layout (its constants, folded here; host_tests/test_ai.py checks them)
_DEALT = const(8)
_HAND = const(2)
_NTAB = const(120)
_OVER = const(129)
_TAB = const(80)
_TURN = const(122)

SWEEP = 110  # cost of giving a scopa: the point and the cards

_w = bytearray(engine.SIZE)
_strict = 1
_mv = None


def score(st, rules, seat, mv, out):
    """Score every move in `mv` (filled by gen_moves for `seat`, the seat
    to play) into the list `out` (len >= mv.n), in centipoints for the
    seat's side. Calls core.view(st, seat) first."""
    global _strict
    core.setup(rules)
    core.view(st, seat)
    _strict = rules.strict
    side = seat % core.sides
    u = core.nun
    w = _w
    b = mv.buf
    end = mv.end
    o = 0
    i = 0
    lay = 0
    lv = 0
    # the risks below as viper code, where the port has it (its ctx holds
    # bytes: a SWEEP set past 255 for an experiment takes the code below)
    aft = core.after if SWEEP < 256 else None
    if aft is not None:
        cx = core.ctx
        cx[0] = seat
        cx[1] = side
        cx[2] = u
        cx[3] = core.hand
        cx[4] = SWEEP
    while o < end:
        k = b[o + 1]
        w[:] = st
        fl = engine.apply(w, rules, b, o)
        if fl:
            v = core.util(w, side)
        else:
            # a card laid, nothing dealt: the piles and scope as before
            if not lay:
                lv = core.util(w, side)
                lay = 1
            v = lv
        if aft is not None:
            v += aft(w, st, b, o, fl, core.sweep_mask(w))  # pyright: ignore[reportArgumentType]  (viper)
        elif not w[_OVER] and w[_NTAB]:
            nxt = w[_TURN]
            # the next seat's hand: dealt afresh, else from the counters
            h = core.hand if fl & _DEALT else core.hand_size(w, nxt)
            opp = nxt % core.sides != side
            m = core.sweep_mask(w)
            if m:
                cnt = 0
                for x in range(1, 11):
                    if (m >> x) & 1:
                        cnt += core.uval[x]
                if cnt:
                    tw = 0
                    for j in range(w[_NTAB]):
                        tw += core.WORTH[w[_TAB + j]]
                    cost = SWEEP + tw
                    if opp:
                        v -= core.p_holds(cnt, u, h) * cost // 1000
                    elif core.sides == 2:
                        v += core.p_holds(cnt, u, h) * cost // 2000
                if core.sides == 2 and core.players >= 4 and core.known[(seat + 2) % core.players]:
                    # a visible partner, two seats on: does it hold the sweep?
                    ph = _HAND + (seat + 2) % core.players
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
                if core.uval[x]:
                    loss = core.p_holds(core.uval[x], u, h) * core.WORTH[c]
                # (the laid card is a table card of value x: with strict
                # priority and an x unseen, no sum with it is counted)
                if x < 10 and not (_strict and core.uval[x]):
                    for j in range(w[_NTAB] - 1):
                        t = w[_TAB + j]
                        y = x + t % 10 + 1
                        if y <= 10 and core.uval[y] and not _single(w, y):
                            q = core.p_holds(core.uval[y], u, h) * (core.WORTH[c] + core.WORTH[t])
                            if q > loss:
                                loss = q
                v -= loss // 1000
        out[i] = v
        i += 1
        o += 2 + k
    return i


def _single(w, y):
    # a table card of value y (a single match, taken before any sum)
    for j in range(w[_NTAB]):
        if w[_TAB + j] % 10 + 1 == y:
            return True
    return False


_out = [0] * 64


def pick(st, rules, seat, mv):
    """Offset in `mv` of the move to play (`mv` is filled here)."""
    global _out
    n = engine.gen_moves(st, rules, mv, seat)
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


def choose(st, rules, seat, rng=None, budget_ms=None, nodes=None, mates=1):
    """The move for `seat` (the seat to play) as ``(card, taken)``. `rng`,
    the budget and `mates` are unused (the medium player is deterministic)."""
    global _mv
    if _mv is None:
        _mv = engine.Moves()
    return _mv.move(pick(st, rules, seat, _mv))
