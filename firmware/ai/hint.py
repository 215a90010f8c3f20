"""The hint: the hard player's move for the human, with a short reason.

``hint(st, rules, seat, rng, budget_ms=None)`` returns ``(card, taken,
reason)``: the card to play, the table cards it takes (a tuple, ``()``
to lay it) and why, e.g. "scopa", "takes the settebello", "leaves 11 on
the table". `why` gives the reason as a code (and a number) that the
screens name in the player's language.
"""

from micropython import const

from ai import core, hard
from scopa import engine
from scopa.rules import CIRULLA

_w = bytearray(engine.SIZE)
_w2 = bytearray(engine.SIZE)  # another move tried: an Ace's, a sweep on _w's table (_sweeps)
_mv = engine.Moves(64)  # its moves
_uv = bytearray(11)  # unseen cards per rank the seat fears (_unseen)
# Cirulla's matta (7C) while why() reads a move: [0] the rank _uv counts it
# under when unseen (else 0, and in other games); [1] 1 when new hands are
# dealt after the move, where a declaration may make the unseen matta an
# Ace (_danger)
_mat = bytearray(2)


# Why a move is good: a code, and the number some of them show. The
# screens name them in the player's language (lang.WHY_SCOPA + code).
SCOPA = const(0)
ACE_SWEEP = const(1)
SETTEBELLO = const(2)
A_SEVEN = const(3)  # the presa wins a seven from the table
SEVENS = const(4)  # n: the presa's sevens, the card played too, when it wins one from the table
COINS = const(5)  # n: the same of denari (at least two)
TAKES_SAFE = const(6)  # n: as TAKES, and no unseen card sweeps what is left
TAKES = const(7)  # n: the presa's cards, the card played too
LEAVES = const(8)  # n: what the table adds up to (over 10)
ALL_OUT = const(9)  # n: the rank that would sweep (1..10), all seen
LEAST_RISK = const(10)
HARD_TO_TAKE = const(11)
KEEPS_ACE = const(12)  # an Ace in hand would take the table (ace_takes_all)
SETS_UP = const(13)  # a lay that a card in hand takes next (riskier than another, or safe)
HOLDS = const(14)  # n: the card (0..39) a safer lay, or a presa where no other lay is, gives up
ONLY = const(15)  # the seat's one legal move (a lay, or a plain presa)
ONLY_SAFE = const(16)  # the same, and no unseen card sweeps the table left

_MATTA_CARD = const(16)  # Cirulla's matta (scopa.engine)

REASONS = (
    "scopa",
    "the Ace takes the table",
    "takes the settebello",
    "a seven to the pile",
    "%d sevens to the pile",
    "%d denari to the pile",
    "%d cards to the pile, no scopa",
    "%d cards to the pile",
    "leaves %d on the table, no scopa",
    "every card of rank %d that could sweep is out",
    "the least risky card to lay",
    "lays a card that is hard to take",
    "keeps the Ace to take the table later",
    "sets up a presa",
    "keeps the %s for later",
    "the only move",
    "the only move, no scopa",
)


def why(st, rules, seat, card, taken):
    """Why `card` taking `taken` is a good move for `seat`, the seat to
    play in `st`: ``(code, n)``, a code above and the number it shows (0
    when none; for HOLDS the card kept, 0..39). Raises
    scopa.engine.IllegalMove for an illegal move."""
    core.setup(rules)
    core.view(st, seat)
    r = _unseen(st)
    mv = hard.moves()
    engine.gen_moves(st, rules, mv, seat)
    o = engine.find_move(st, rules, card, taken, mv)
    if o < 0:
        raise engine.IllegalMove("not a legal move: %d taking %r" % (card, tuple(taken)))
    _w[:] = st
    fl = engine.apply(_w, rules, mv.buf, o)
    _mat[0] = r if rules.game == CIRULLA else 0
    _mat[1] = 1 if _mat[0] and fl & engine.DEALT else 0
    if fl & engine.SCOPA:
        return SCOPA, 0
    k = len(taken)
    if fl & engine.SWEEP:
        return ACE_SWEEP, 0
    # the sevens and denari the presa wins from the table, counted with
    # the card played when it wins any (a 7 taking a 7: "2 sevens"; a 7
    # taking 2 + 5 says nothing of sevens, which every presa of that 7 has)
    sevens = 0
    coins = 0
    if k:
        if card == 6:
            return SETTEBELLO, 0
        for c in taken:
            if c == 6:
                return SETTEBELLO, 0
            sevens += c % 10 == 6
            coins += c < 10
        if sevens:
            sevens += card % 10 == 6
            return (A_SEVEN, 1) if sevens == 1 else (SEVENS, sevens)
        if coins:
            coins += card < 10
        if coins >= 2:
            return COINS, coins
    if rules.ace_takes_all and engine.value(st, card) != 1:
        # an Ace of the hand (or Cirulla's matta standing as one) would take
        # the table now: the move keeps it for a fuller table (the hard
        # player passes up that scopa on purpose: in Cirulla, always taking
        # it costs 0.7 points a deal)
        b = mv.buf
        a = 0
        for _ in range(mv.n):
            c = b[a]
            if c != card and engine.value(st, c) == 1:
                _w2[:] = st
                if engine.apply(_w2, rules, b, a) & (engine.SWEEP | engine.SCOPA):
                    return KEEPS_ACE, 0
            a += 2 + b[a + 1]
    n = _w[engine.NTAB]
    m = _sweeps(_w, rules)
    danger = _danger(m)
    if mv.n == 1:
        # no choice: a lay, or a presa of nothing above
        return (ONLY_SAFE, 0) if n and not danger else (ONLY, 0)
    s = 0
    for i in range(n):
        s += engine.value(_w, _w[engine.TAB + i])
    if k:
        if n and not danger:
            return TAKES_SAFE, k + 1
        return TAKES, k + 1
    if n and not m and s > 10:
        return LEAVES, s
    if n and m and not danger:
        for c in range(40):
            if st[c] == engine.HAND + seat and c != card and (m >> engine.value(st, c)) & 1:
                return SETS_UP, 0  # the sweeper left is the seat's own (not "all seen")
        v = 10
        while not (m >> v) & 1:
            v -= 1
        return ALL_OUT, v  # the highest rank that would sweep: all seen
    if m and danger:
        return _risky(st, rules, seat, card, mv, o, danger)
    return HARD_TO_TAKE, 0


def _sweeps(w, rules):
    # bit v (1..10) set when a card of rank v played now on `w`'s table
    # takes all of it for a scopa, as the engine plays it (its captures,
    # fifteens, Aces and matta; no scopa on the round's last play): a card
    # of that rank not on the table tried; the matta, whose rank may be
    # another, only where every other card of the rank is on the table and
    # the unseen matta may play as it (_mat)
    if w[engine.OVER] or not w[engine.NTAB]:
        return 0
    m = 0
    r = _mat[0]
    for v in range(1, 11):
        c = v - 1
        while c < 40 and (w[c] == engine.TABLE or c == _MATTA_CARD):
            c += 10
        if c < 40:
            if _scopa(w, rules, c, 0):
                m |= 1 << v
        elif (r == v or r and _mat[1] and v == 1) and _scopa(w, rules, _MATTA_CARD, v):
            m |= 1 << v
    return m


def _scopa(w, rules, c, v):
    # does card `c` played now on `w` take its table for a scopa? (the
    # matta as rank `v` when v, set on `w` meanwhile)
    m = w[engine.MATTA]
    if v:
        w[engine.MATTA] = v
    engine.gen_card_moves(w, rules, c, _mv)
    b = _mv.buf
    o = 0
    hit = False
    for _ in range(_mv.n):
        if b[o + 1]:
            _w2[:] = w
            if engine.apply(_w2, rules, b, o) & engine.SCOPA:
                hit = True
                break
        o += 2 + b[o + 1]
    w[engine.MATTA] = m
    return hit


def _unseen(st):
    # core.uval (after core.view), with Cirulla's matta under the rank it
    # plays as once a declaration set it (an Ace, say), not as a 7; the
    # rank it is counted under when the 7C is unseen, else 0
    for v in range(11):
        _uv[v] = core.uval[v]
    r = st[engine.MATTA] or 7
    for i in range(core.nun):
        if core.unseen[i] == _MATTA_CARD:
            _uv[7] -= 1
            _uv[r] += 1
            return r
    return 0


def _danger(m):
    # how many unseen cards sweep by mask m (_sweeps)
    d = 0
    for v in range(1, 11):
        if (m >> v) & 1:
            d += _uv[v]
    r = _mat[0]
    if _mat[1] and m & 2 and not (m >> r) & 1:
        # new hands are dealt: a hand's declaration makes the matta an
        # Ace (engine.declare: a total under 10), which sweeps
        d += 1
    return d


def _risky(st, rules, seat, card, mv, lay, danger):
    # a lay (at offset `lay` of `mv`, the seat's moves) that leaves a sweep
    # (`danger`): the least risky of the lays, or why not: a card in hand
    # takes the laid card next (SETS_UP), or the safer lay's card is kept
    # (HOLDS, that card). Where no other lay is (each other card bound to
    # take), not "the least risky lay" of one: the presa's card kept.
    b = mv.buf
    o = 0
    low = danger
    safer = -1
    lays = 0
    kept = -1
    for _ in range(mv.n):
        if b[o] != card:
            if b[o + 1]:
                if kept < 0:
                    kept = b[o]
            else:
                lays += 1
                _w[:] = st
                engine.apply(_w, rules, b, o)
                d = _danger(_sweeps(_w, rules))
                if d < low:
                    low = d
                    safer = b[o]
        o += 2 + b[o + 1]
    if safer < 0:
        if lays or kept < 0:
            return LEAST_RISK, 0
        safer = kept
    _w[:] = st
    engine.apply(_w, rules, b, lay)  # (another lay: the hand keeps a card, none is dealt)
    for c in range(40):
        if st[c] == engine.HAND + seat and c != card:
            engine.gen_card_moves(_w, rules, c, mv)  # (the seat's moves are not read again)
            b = mv.buf
            o = 0
            for _ in range(mv.n):
                for i in range(b[o + 1]):
                    if b[o + 2 + i] == card:
                        return SETS_UP, 0
                o += 2 + b[o + 1]
    return HOLDS, safer


def reason(st, rules, seat, card, taken):
    """Why `card` taking `taken` is a good move for `seat`, in a few
    English words (`why` as text). Raises scopa.engine.IllegalMove for an
    illegal move."""
    code, n = why(st, rules, seat, card, taken)
    t = REASONS[code]
    if code == HOLDS:  # the card as scopa.cards.name writes it (a declared matta its rank)
        return t % ("%d%s" % (engine.value(st, n), "DCSB"[n // 10]))
    return t % n if "%" in t else t


def hint(st, rules, seat, rng, budget_ms=None, nodes=None, mates=1):
    """The hard player's move for `seat` as ``(card, taken, reason)``;
    `mates` as hard.choose's."""
    card, taken = hard.choose(st, rules, seat, rng, budget_ms, nodes, mates)
    return card, taken, reason(st, rules, seat, card, taken)


choose = hard.choose
