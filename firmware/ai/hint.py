"""The hint: the hard player's move for the human, with a short reason.

``hint(st, rules, seat, rng, budget_ms=None)`` returns ``(card, taken,
reason)``: the card to play, the table cards it takes (a tuple, ``()``
to lay it) and why, e.g. "scopa", "takes the settebello", "leaves 11 on
the table".
"""

from ai import core as K
from ai import hard as H
from scopa import engine as E

_w = bytearray(E.SIZE)


def reason(st, rules, seat, card, taken):
    """Why `card` taking `taken` is a good move for `seat`, in a few words."""
    K.setup(rules)
    K.view(st, seat)
    mv = H.moves()
    E.gen_moves(st, rules, mv, seat)
    o = E.find_move(st, rules, card, taken, mv)
    _w[:] = st
    fl = E.apply(_w, rules, mv.buf, o)
    if fl & E.SCOPA:
        return "scopa"
    got = (card,) + tuple(taken) if taken else ()
    if fl & E.SWEEP:
        return "the Ace takes the table"
    if 6 in got:
        return "takes the settebello"
    sevens = 0
    coins = 0
    for c in got:
        sevens += c % 10 == 6
        coins += c < 10
    if sevens:
        return "takes a seven" if sevens == 1 else "takes %d sevens" % sevens
    if coins >= 2:
        return "takes %d coins" % coins
    n = _w[E.NTAB]
    s = 0
    for i in range(n):
        s += _w[E.TAB + i] % 10 + 1
    m = K.sweep_mask(_w) if not _w[E.OVER] else 0
    danger = 0
    for v in range(1, 11):
        if (m >> v) & 1:
            danger += K.uval[v]
    if taken:
        if n and not danger:
            return "takes %d, leaves no scopa" % len(got)
        return "takes %d cards" % len(got)
    if n and not m and s > 10:
        return "leaves %d on the table" % s
    if n and m and not danger:
        return "no card left can sweep the %d" % s
    if m and danger:
        return "the least risky card to lay"
    return "lays a card that is hard to take"


def hint(st, rules, seat, rng, budget_ms=None, nodes=None):
    """The hard player's move for `seat` as ``(card, taken, reason)``."""
    card, taken = H.choose(st, rules, seat, rng, budget_ms, nodes)
    return card, taken, reason(st, rules, seat, card, taken)


choose = H.choose
