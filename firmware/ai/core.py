"""What the computer players share: the player's view of a state, a fast
estimate of the round's points, sweep threats and the odds that a hidden
hand holds a card.

Points are ints in hundredths of a point (centipoints), never floats. The
functions keep their scratch in module-level buffers and allocate nothing
per call; `setup(rules)` caches the ruleset's numbers in module globals
before a decision. The flash tool compiles this module to native code
for a board with a native emitter (tools/flash/compiler.py: NATIVE), which
allocates a slice object where bytecode does not: no slices in the
per-node functions. The functions run once a play or a decision
(observe, declared...) stay bytecode (`@micropython.bytecode`): as native
code they took about three times the board's heap, for no time that counts.

What a seat may read of a state `st` (scopa.engine): the table, the piles,
its own hand, a partner's hand when the rules make it visible, and the
public counters. Never ``st[DECK:]`` (the real deal order) nor another
hand: a hidden card is only ever known as "not seen".
"""

import micropython
from micropython import const

from scopa.engine import declaration
from scopa.rules import CIRULLA, SCOPA_15
from scopa.rules import PRIMIERA as _PRIM  # primiera points by value - 1

_MAZZO = const(0)
_TABLE = const(1)
_HAND = const(2)
_PILE = const(8)
_TAB = const(80)
_NTAB = const(120)
_DP = const(121)
_TURN = const(122)
_SCOPE = const(125)
_INHAND = const(128)
_OVER = const(129)
_PLY = const(131)
_MATTA = const(132)
_MATTA_CARD = const(16)  # Cirulla's matta (7C), of rank st[_MATTA] once declared
_DECK = const(40)
_SIZE = const(133)

THREAT = const(70)  # a sweep the side to move can make: worth ~0.7 point
SWEEP = 110  # a scopa given away: the point and the tempo (plus the cards)


# What a card is worth to the side that takes it, in centipoints: the
# card's share of "cards", coins, primiera (sevens, sixes, aces) and the
# settebello. For the medium player's quick sums only.
# fmt: off
WORTH = bytes(
    (
        25, 20, 20, 20, 22, 28, 180, 18, 18, 18,  # denari
        12, 6, 6, 7, 8, 16, 40, 4, 4, 4,  # coppe
        12, 6, 6, 7, 8, 16, 40, 4, 4, 4,  # spade
        12, 6, 6, 7, 8, 16, 40, 4, 4, 4,  # bastoni
    )
)
# fmt: on

# Ruleset numbers, cached by setup().
players = 2
sides = 2
game = 0
hand = 3
_strict = 1
_ace = 0
_aceall = 0
_acescopa = 0
_rebello = -1
_coinrun = 0  # napola or cirulla: runs of coins from the Ace score
_grande = 0
_napoleone = 0
_pzero = 0
_pvis = 0
_rules = None
# The same for ai.leaf's viper util, as bytes: sides, _pzero, _rebello + 1,
# _coinrun, _grande, _napoleone (ai.leaf.opts once ai.leaf is imported).
_leaf = bytearray(13)

# Scratch.
_cnt = [0, 0, 0]
_coin = [0, 0, 0]
_pb = bytearray(12)  # best primiera points per side * 4 + suit
_prim = [0, 0, 0]
_tw = bytearray(11)  # best worth on the table per value

# The view of the seat that decides (filled by view()).
unseen = bytearray(40)  # the cards it has not seen, ascending
uval = bytearray(11)  # unseen cards per value 1..10
known = bytearray(8)  # 1 for the seats whose hands it sees
nun = 0


# What the plays showed of the hands (observe()): bit v of lacks[seat] is set
# when that seat cannot hold a card of value v, as far as this deal goes.
lacks = [0] * 8
LAY_INFER = bytearray((1,))  # 1: a seat that lays a card had no capture
_lk_seen = bytearray(40)  # the public cards when last observed
# cards dealt (DP) and plies (PLY) when last observed, (Cirulla) the seats
# that declared their hands that deal, a bit each (declared), and 1 once a
# play of the deal went unrecorded (the record stops there)
_lk = bytearray(4)
# The plays of this deal (observe()), for the hard player to check its
# deals against: the state before the first of them with every hidden card
# put in the mazzo (hist0: `public`), and each play, in playing order, as
# card, n, taken * n in HSTEP bytes of hmove (play j at HSTEP * j); the
# state before play j is hist0 with the plays before it made
# (ai.hard._advance: 0.5 KiB, where a state a play took 1.4 for 9 plays).
HMAX = const(12)  # with six players, every play before the hands' last cards
HSTEP = const(24)
hist0 = None  # (init_history)
hmove = None
hist_n = 0


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def observe(st, rules, card, taken):
    """Note what `card` taking `taken`, about to be played by the seat to
    play in `st`, shows of its hand: a player who could sweep the table or
    take the settebello does (with any other play, it holds no card that
    could); a player who lays holds no card that captures, when capture
    is mandatory. Call it before every play, the human's too; a hard player and
    the hint then deal the hidden cards accordingly. Public cards only."""
    global hist_n
    setup(rules)
    if not observed(st):
        for i in range(8):
            lacks[i] = 0
        hist_n = 0
        _lk[2] = declared(st)
        _lk[3] = 0
    elif st[_PLY] != _lk[1] + 1:
        # a play of the deal not observed (a catch-up cut short by the
        # heap): the plays after it would not follow the record's
        _lk[3] = 1
    init_history()
    seat = st[_TURN]
    k = len(taken)
    if hist_n < HMAX and k < HSTEP - 1 and not _lk[3]:
        if not hist_n:
            hist0[:] = st  # pyright: ignore[reportOptionalSubscript]
            public(hist0)
        _record(hmove, HSTEP * hist_n, card, taken)
        hist_n += 1
    else:
        _lk[3] = 1  # (a later play recorded would not follow the one before)
    n = st[_NTAB]
    if n and k == 0 and LAY_INFER[0] and rules.mandatory:
        # it laid a card: it had nothing that captures (with Must take
        # off a lay says nothing: any card may be laid)
        lacks[seat] |= capture_mask(st)
    elif n and k < n:
        m = sweep_mask(st)
        if st[6] == _TABLE and card != 6:
            m |= 1 << 7
            for i in range(k):
                if taken[i] == 6:
                    m &= ~(1 << 7)
        lacks[seat] |= m
    for c in range(40):
        loc = st[c]
        _lk_seen[c] = 1 if loc == _TABLE or loc >= _PILE else 0
    _lk[0] = st[_DP]
    _lk[1] = st[_PLY]


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def declared(st):
    """Cirulla: bit s set when seat s declared its hand this deal. A
    declaring player shows the hand (Parlett p.138; regoledelgioco.com
    Cirulla: "mostrando le carte"), so every card of it still in hand is
    public. Read from the hands as dealt before the deal's first play
    (whether each hand declares is public then), from observe()'s note of
    that play after it; 0 when neither is at hand (a game resumed mid-deal)
    and in the other games."""
    if game != CIRULLA:
        return 0
    if st[_INHAND] != hand * players:
        return _lk[2] if observed(st) else 0
    m = 0
    for s in range(players):
        h = _HAND + s
        k = 0
        for c in range(40):
            if st[c] == h and k < 3:
                _tw[k] = c  # (threat's scratch, free here)
                k += 1
        if k == 3 and declaration(_tw, 0, 3):
            m |= 1 << s
    return m


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def show(st, m):
    """Add the hands of the seats of bit mask `m` (`declared`) to the view
    that `view` filled: they become known, their cards seen. Returns the
    number unseen."""
    global nun
    n = 0
    for i in range(nun):
        c = unseen[i]
        loc = st[c]
        if _HAND <= loc < _PILE and (m >> (loc - _HAND)) & 1:
            uval[c % 10 + 1] -= 1
            continue
        unseen[n] = c
        n += 1
    for s in range(8):
        if (m >> s) & 1:
            known[s] = 1
    nun = n
    return n


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def init_history():
    """Allocate the record of plays (once; about 0.5 KiB). Raises
    MemoryError when the heap is short; a later call completes it."""
    global hist0, hmove
    if hist0 is None:
        hist0 = bytearray(_SIZE)
    if hmove is None:
        hmove = bytearray(HSTEP * HMAX)


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def public(h):
    """Put every hidden card of state `h` (in a hand or the mazzo) in the
    mazzo, in place: the cards to deal, a stand-in order (card order,
    never the real one) of as many as the mazzo holds."""
    dp = h[_DP]
    j = 0
    for c in range(40):
        loc = h[c]
        if loc != _TABLE and loc < _PILE:
            h[c] = _MAZZO
            if j < 40 - dp:
                h[_DECK + dp + j] = c
                j += 1
    for i in range(dp):
        h[_DECK + i] = 0


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def _record(mv, o, card, taken):
    k = len(taken)
    mv[o] = card
    mv[o + 1] = k
    for i in range(k):
        mv[o + 2 + i] = taken[i]


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def capture_mask(st):
    """Bit v set (v 1..10) when a card of value v captures something on
    the table: a card of its value, cards adding up to it (to 15 with it
    in scopa a 15 and Cirulla), or the table with an Ace that takes all.
    Cirulla's matta on the table counts as the rank a declaration made it
    (as sweep_mask reads it)."""
    sums = 1
    mt = st[_MATTA]
    for i in range(st[_NTAB]):
        c = st[_TAB + i]
        sums = (sums | sums << (mt if c == _MATTA_CARD and mt else c % 10 + 1)) & 0x7FFF
    m = 0
    if game != SCOPA_15:
        m = sums & 0x7FE
    if game == SCOPA_15 or game == CIRULLA:
        for v in range(1, 11):
            if (sums >> (15 - v)) & 1:
                m |= 1 << v
    if _ace and st[_NTAB]:
        m |= 2
    return m


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def observed(st):
    """True when `lacks` holds for `st`: the same deal, later on."""
    if st[_DP] != _lk[0] or st[_PLY] <= _lk[1]:
        return False
    for c in range(40):
        if _lk_seen[c]:
            loc = st[c]
            if loc != _TABLE and loc < _PILE:
                return False
    return True


def setup(rules):
    """Cache `rules` in module globals (once per decision)."""
    global players, sides, game, hand, _strict, _ace, _aceall, _acescopa
    global _rebello, _coinrun, _grande, _napoleone, _pzero, _pvis, _rules
    if rules is _rules:
        return
    _rules = rules
    players = rules.players
    sides = rules.sides
    game = rules.game
    hand = rules.hand
    _strict = rules.strict
    _ace = rules.ace_takes_all
    _aceall = rules.ace_on_ace_all
    _acescopa = rules.ace_sweep_scopa
    _rebello = rules.re_bello
    cir = game == CIRULLA
    _coinrun = rules.napola + (1 if cir else 0)  # napola and piccola both score
    _grande = 1 if cir else 0
    _napoleone = 1 if (cir or (rules.napola and rules.napoleone)) else 0
    _pzero = rules.primiera_zero
    _pvis = rules.partners_visible
    lf = _leaf
    lf[0] = sides
    lf[1] = 1 if _pzero else 0
    lf[2] = _rebello + 1
    lf[3] = _coinrun
    lf[4] = _grande
    lf[5] = _napoleone
    lf[6] = players
    lf[7] = 1 if _pvis and players >= 4 else 0
    lf[8] = 1 if game == SCOPA_15 else 2 if cir else 0
    lf[9] = 1 if _strict else 0
    lf[10] = 1 if _ace else 0
    lf[11] = 1 if _aceall else 0
    lf[12] = 1 if _acescopa else 0


def hand_size(st, seat):
    """Cards in the hand of `seat`, from the public counters only."""
    n = st[_INHAND]
    q = n // players
    return q + (1 if (seat - st[_TURN]) % players < n - q * players else 0)


def last_deal(st):
    """True when no more hands will be dealt this round."""
    return 40 - st[_DP] < hand * players


def view(st, seat):
    """Fill `unseen`, `uval`, `known` and `nun` for `seat`: every card
    that is not on the table, in a pile, in its hand or in a visible
    partner's hand is unseen. Returns the number unseen."""
    global nun
    for s in range(8):
        known[s] = 0
    known[seat] = 1
    if _pvis and players >= 4:
        s = (seat + sides) % players
        while s != seat:
            known[s] = 1
            s = (s + sides) % players
    uv = uval
    for i in range(11):  # not uv[:] = ...: native code allocates the slice
        uv[i] = 0
    kn = known
    us = unseen
    n = 0
    for c in range(40):
        loc = st[c]
        if loc == _TABLE or loc >= _PILE or (loc >= _HAND and kn[loc - _HAND]):
            continue
        us[n] = c
        n += 1
        uv[c % 10 + 1] += 1
    nun = n
    return n


def p_holds(k, u, h):
    """Chance in thousandths that a hand of `h` cards drawn from `u` unseen
    cards holds at least one of `k` given ones."""
    if k <= 0 or h <= 0:
        return 0
    q = 1000
    for i in range(h):
        if u - k - i <= 0:
            return 1000
        q = q * (u - k - i) // (u - i)
    return 1000 - q


def sweep_mask(st):
    """Bit v set (v 1..10) when a card of value v played now takes the whole
    table as a scopa, as scopa.engine plays it (Cirulla's matta on the
    table at the rank a declaration gave it; the Ace's take-all a scopa
    with Ace = scopa, or where an ordinary capture takes the same cards:
    a lone Ace, or Cirulla's table of 14 taken to fifteen). 0 for an
    empty table. Ignores sum_choice fewest."""
    n = st[_NTAB]
    if n == 0:
        return 0
    s = 0
    vm = 0
    mt = st[_MATTA]
    for i in range(n):
        c = st[_TAB + i]
        v = mt if c == _MATTA_CARD and mt else c % 10 + 1
        s += v
        vm |= 1 << v
    m = 0
    if game != SCOPA_15:
        if n == 1:
            m = 1 << s
        elif s <= 10 and not (_strict and (vm >> s) & 1):
            m = 1 << s
        if game == CIRULLA and 5 <= s <= 14:
            m |= 1 << (15 - s)
    elif 5 <= s <= 14:
        m = 1 << (15 - s)
    if _ace and (_aceall or not vm & 2):
        if _acescopa or s == 1 or (s == 14 and game == CIRULLA):
            m |= 2
        else:
            m &= ~2
    return m


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def threat(st, side):
    """What the seat to move can take at once, for or against `side`:
    THREAT for a sweep, else most of the worth of its best single-card
    match. For searches over a sampled deal only, where every hand is
    known."""
    if st[_OVER]:
        return 0
    n = st[_NTAB]
    if n == 0:
        return 0
    m = sweep_mask(st)
    mt = st[_MATTA]
    for v in range(11):
        _tw[v] = 0
    for i in range(n):
        c = st[_TAB + i]
        v = mt if c == _MATTA_CARD and mt else c % 10 + 1
        w = WORTH[c]
        if w > _tw[v]:
            _tw[v] = w
    seat = st[_TURN]
    h = _HAND + seat
    best = 0
    for c in range(40):
        if st[c] == h:
            v = mt if c == _MATTA_CARD and mt else c % 10 + 1
            if (m >> v) & 1:
                best = THREAT + 100
                break
            if _tw[v]:
                g = _tw[v] + WORTH[c]
                if g > best:
                    best = g
    best = best * THREAT // 100
    return best if seat % sides == side else -best


def risk(st, seat):
    """What the seat to move, on another side than `seat`, is expected to
    take at once, as minus centipoints: for each value, its best capture
    with a card of that value (a sweep: SWEEP and the table's worth; else
    the worth of the card of that value on the table, or of two adding up
    to it; an Ace that takes all: the table), weighted by the chance that
    a hand of the public size, drawn from the cards `seat` has not seen,
    holds that value and no better one. In scopa a 15 and Cirulla only
    the sweeps are counted. Allocates nothing."""
    if st[_OVER]:
        return 0
    n = st[_NTAB]
    if n == 0:
        return 0
    m = sweep_mask(st)
    for v in range(11):
        _gain[v] = 0
        _ucnt[v] = 0
    tw = SWEEP
    for i in range(n):
        tw += WORTH[st[_TAB + i]]
    if game != SCOPA_15 and game != CIRULLA:
        single = 0  # bit v: a card of value v on the table, taken before any sum
        for i in range(n):
            a = st[_TAB + i]
            v = a % 10 + 1
            single |= 1 << v
            if WORTH[a] > _gain[v]:
                _gain[v] = WORTH[a]
        for i in range(n):
            a = st[_TAB + i]
            for j in range(i + 1, n):
                b = st[_TAB + j]
                v = a % 10 + b % 10 + 2
                w = WORTH[a] + WORTH[b]
                if v <= 10 and w > _gain[v] and not (_strict and (single >> v) & 1):
                    _gain[v] = w
        if _ace and (_aceall or not single & 2):
            _gain[1] = tw - SWEEP  # the Ace takes the table (a scopa: below)
    for v in range(1, 11):
        if (m >> v) & 1:
            _gain[v] = tw
    mine = _HAND + seat
    u = 0
    for c in range(40):
        loc = st[c]
        if loc == _MAZZO or (loc >= _HAND and loc < _PILE and loc != mine):
            u += 1
            _ucnt[c % 10 + 1] += 1
    h = hand_size(st, st[_TURN])
    tot = 0
    k = 0
    prev = 0
    while True:
        bv = 0
        bg = 0
        for v in range(1, 11):
            if _ucnt[v] and _gain[v] > bg:
                bg = _gain[v]
                bv = v
        if not bv:
            break
        k += _ucnt[bv]
        _ucnt[bv] = 0
        p = p_holds(k, u, h)
        tot += bg * (p - prev)
        prev = p
    return -(tot // 1000)


_gain = [0] * 11  # risk(): the best take by the value of the card played
_ucnt = bytearray(11)  # risk(): unseen cards by value


def _maj(d, rem, slack):
    # share of one majority point for a lead of d with rem still to take
    if d > rem:
        return 100
    if -d > rem:
        return -100
    if d >= 0:
        return 100 * d // (d + slack)
    return -(100 * -d // (slack - d))


def util(st, side):
    """Estimated points of the round for `side` minus those of the others
    (the mean of the others with three sides), in centipoints. Exact for a
    round that is over (all but a few options' corner cases); mid-round an
    estimate from cards, coins, primiera, settebello, scope and the
    variants' extras. Reads only public cards (table and piles)."""
    ns = sides
    cnt = _cnt
    coin = _coin
    pb = _pb
    pt = _PRIM
    cnt[0] = cnt[1] = cnt[2] = 0
    coin[0] = coin[1] = coin[2] = 0
    for i in range(12):
        pb[i] = 0
    pot = 0
    for su in range(4):
        top = 0
        c = su * 10
        for v in range(10):
            loc = st[c]
            if loc >= _PILE:
                s = loc - _PILE
                cnt[s] += 1
                k = s * 4 + su
                p = pt[v]
                if p > pb[k]:
                    pb[k] = p
            else:
                p = pt[v]
                if p > top:
                    top = p
            c += 1
        pot += top
    for c in range(10):  # denari
        loc = st[c]
        if loc >= _PILE:
            coin[loc - _PILE] += 1
    rem = 40 - cnt[0] - cnt[1] - cnt[2]
    remc = 10 - coin[0] - coin[1] - coin[2]
    # majorities: cards, coins, primiera
    prim = _prim
    oc = 0
    oco = 0
    op = -1
    osc = 0
    for s in range(ns):
        k = s * 4
        p0 = pb[k]
        p1 = pb[k + 1]
        p2 = pb[k + 2]
        p3 = pb[k + 3]
        t = p0 + p1 + p2 + p3
        if not (p0 and p1 and p2 and p3) and pot == 0 and not _pzero:
            t = -1
        prim[s] = t
        if s != side:
            if cnt[s] > oc:
                oc = cnt[s]
            if coin[s] > oco:
                oco = coin[s]
            if t > op:
                op = t
            osc += st[_SCOPE + s]
    mine = cnt[side]
    mc = coin[side]
    u = _maj(mine - oc, rem, rem // 3 + 1)
    u += _maj(mc - oco, remc, remc // 2 + 1)
    if pot == 0:
        d = prim[side] - op
        u += 100 if d > 0 else -100 if d < 0 else 0
    else:
        u += _maj(prim[side] - op, 999, pot // 2 + 8)
    # scope
    if ns == 2:
        u += 100 * (st[_SCOPE + side] - osc)
    else:
        u += 50 * (2 * st[_SCOPE + side] - osc)
    # settebello, re bello
    loc = st[6]
    if loc >= _PILE:
        u += 100 if loc - _PILE == side else -100 // (ns - 1)
    rb = _rebello
    if rb >= 0:
        loc = st[rb]
        if loc >= _PILE:
            u += 100 if loc - _PILE == side else -100 // (ns - 1)
    if _coinrun:
        for s in range(ns):
            p = _PILE + s
            run = 0
            while run < 10 and st[run] == p:
                run += 1
            x = run * 100 * _coinrun if run >= 3 else 0
            if _grande and st[7] == p and st[8] == p and st[9] == p:
                x += 500
            if _napoleone and coin[s] == 10:
                x += 2000
            if x:
                u += x if s == side else -x // (ns - 1)
    return u


# Where the port compiles viper code, util is ai.leaf's: the same values in
# about an eighth of the instructions (so are view, sweep_mask and threat).
# This module's util stays the bytecode ports' (the WebAssembly port
# cannot compile ai.leaf: SyntaxError; a build without -march leaves it
# out: ImportError; native code in a fragmented heap: MemoryError) and the
# reference it is tested against (_util); threat, which ai.leaf's replaces
# in the search's leaves, is bytecode even where this module is native.
_util = util
_view = view
_sweep_mask = sweep_mask
_threat = threat
after = None  # ai.leaf.after where it compiles (ai.medium.score's risks)
ctx = None
try:
    from ai import leaf

    util = leaf.util
    _leaf = leaf.opts
    sweep_mask = leaf.sweep_mask
    threat = leaf.threat
    after = leaf.after
    ctx = leaf.ctx
    known = leaf.known
    uval = leaf.uval
    unseen = leaf.unseen
    leaf.worth = WORTH
    _lview = leaf.view

    def view(st, seat):  # (the docstring: _view's)
        global nun
        nun = _lview(st, seat)
        return nun
except Exception:  # no native emitter, not in the build, or no room: only slower
    pass
