"""scopa.engine's table grouped by value and a hand's cards (the first
steps of gen_moves), its legal moves (gen) and a play (apply), as viper
code: the same bytes in a fraction of the instructions of the engine's
own code as native code, whose every operation on an int or a byte was a
call into the runtime (that code is now bytecode, the reference). With
ai.leaf's threat, gen and apply took 44% / 47% (median / p95) off a
Scopone a 10 decision's instructions and 30% / 27% off the mixed
4-player team's, for the same moves (docs/ai-results.md, thirty-fifth
pass).

Only for a port with a native emitter: scopa.engine imports it there and
keeps its own `_group`, gen_moves' enumeration and `apply` (plain Python,
the same bytes) where this module does not compile (the WebAssembly
port), is left out of the build (the flash tool compiles it only with
-march, tools/flash/compiler.py: VIPER) or does not load. Under CPython
(the host tests, with host_tests/shim) `micropython.viper` and `ptr8` are
the identity and this runs as plain Python; the tests hold both to the
same bytes on CPython and on the unix port. The buffers are the engine's
(it takes these in place of its own).
"""

import micropython
from micropython import const

cnt = bytearray(11)  # table cards per value 1..10
suf = bytearray(12)  # the table's values from v up added up
start = bytearray(12)  # start of each value's cards in byv
byv = bytearray(40)  # table cards grouped by value
hand = bytearray(40)  # the cards at place h, ascending
_fill = bytearray(12)
_VAL = bytes(c % 10 + 1 for c in range(40))  # a card's value


@micropython.viper
def group(st: ptr8, h: int) -> int:
    """Group the table of state `st` (scopa.engine's layout) by value
    into cnt, suf, start and byv, the matta (card 16) at its rank when
    designated; write the cards at place `h` (HAND + seat; 255: none)
    into hand, ascending; returns their number."""
    val = ptr8(_VAL)
    ct = ptr8(cnt)
    sf = ptr8(suf)
    sa = ptr8(start)
    fl = ptr8(_fill)
    bv = ptr8(byv)
    for i in range(11):
        ct[i] = 0
    n = st[120]
    m = st[132]
    tot = 0
    for i in range(n):
        c = st[80 + i]
        v = val[c]
        if c == 16 and m:
            v = m
        ct[v] += 1
        tot += v
    s = 0
    for v in range(1, 11):
        sa[v] = s
        fl[v] = s
        s += ct[v]
        sf[v] = tot
        tot -= v * ct[v]
    sa[11] = s
    for i in range(n):
        c = st[80 + i]
        v = val[c]
        if c == 16 and m:
            v = m
        bv[fl[v]] = c
        fl[v] += 1
    k = 0
    if h != 255:
        hd = ptr8(hand)
        for c in range(40):
            if st[c] == h:
                hd[k] = c
                k += 1
    return k


# gen's scratch, one buffer (one global to load a call): per value 1..10
# (and 11) the cards of it in the sum being built (at 0), the sum still to
# make (_R) and the cards chosen so far (_C); per place of a capture's
# cards its index into byv (_P), its value (_SG), its first (_INI) and its
# last (_LIM) index in byv
_R = const(12)
_C = const(24)
_P = const(36)
_SG = const(76)
_INI = const(116)
_LIM = const(156)
_gs = bytearray(196)


@micropython.viper
def gen(st, rules, h: int, b: ptr8, size: int) -> int:
    """scopa.engine.gen_moves' moves for the hand at place `h` of state
    `st`, written into `b` (a Moves' buffer of `size` bytes) in the same
    order, as the same bytes: returns the bytes used plus the number of
    moves * 65536, -1 when `b` is too small (the engine's own code then
    makes them, growing the buffer; with the fewest cards also when the
    list would fit only once the captures of more cards are dropped; a
    list past 65535 bytes, a crowded Cirulla table's, as its size is
    returned in 16 bits). The ruleset is read once per Rules object
    (_setup)."""
    if size > 0xFFFF:
        size = 0xFFFF
    if rules is not _rules:
        _setup(rules)
    nh = int(group(st, h))
    s = ptr8(st)
    fl = int(ptr8(_rf)[7])
    val = ptr8(_VAL)
    ct = ptr8(cnt)
    sf = ptr8(suf)
    sa = ptr8(start)
    bv = ptr8(byv)
    hd = ptr8(hand)
    kk = ptr8(_gs)
    n = s[120]
    m = s[132]
    e = 0
    nm = 0
    for i in range(nh):
        c = hd[i]
        v = val[c]
        if c == 16 and m:
            v = m
        first = e
        n0 = nm
        if n and v == 1 and (fl & 4) and (ct[1] == 0 or (fl & 8)):
            # the Ace's sweep: the table in the order laid
            if e + 2 + n > size:
                return -1
            b[e] = c
            b[e + 1] = n
            for j in range(n):
                b[e + 2 + j] = s[80 + j]
            e += 2 + n
            nm += 1
        elif n:
            for t in range(2):
                rem = 0
                minc = 1
                if t == 0:
                    if fl & 1:
                        rem = 15 - v
                    else:
                        if ct[v]:  # a card of its value
                            for j in range(sa[v], sa[v] + ct[v]):
                                if e + 3 > size:
                                    return -1
                                b[e] = c
                                b[e + 1] = 1
                                b[e + 2] = bv[j]
                                e += 3
                                nm += 1
                        if not ct[v] or not (fl & 16):
                            rem = v
                            minc = 2
                else:
                    if (fl & 32) and nm - n0 > 1:
                        # only the captures of the fewest cards
                        least = 99
                        o = first
                        while o < e:
                            if b[o + 1] < least:
                                least = b[o + 1]
                            o += 2 + b[o + 1]
                        o = first
                        w = first
                        while o < e:
                            k = b[o + 1]
                            if k == least:
                                for j in range(2 + k):
                                    b[w + j] = b[o + j]
                                w += 2 + k
                            else:
                                nm -= 1
                            o += 2 + k
                        e = w
                    if fl & 2:
                        rem = 15 - v  # Cirulla's captures to fifteen
                if rem <= 0:
                    continue
                # every choice of counts per value 1..10 adding up to rem,
                # in the engine's order (_sums: the lower values first,
                # fewer of each first), depth first
                lv = 1
                kk[1] = 0
                kk[_R + 1] = rem
                kk[_C + 1] = 0
                while True:
                    r = kk[_R + lv]
                    down = 0
                    if r == 0:
                        if kk[_C + lv] >= minc:
                            # the cards: for each value, its choices of
                            # kk[value] of them in byv order (_expand)
                            tot = kk[_C + lv]
                            q = 0
                            for u in range(1, lv):
                                a = kk[u]
                                for j in range(a):
                                    kk[_P + q] = sa[u] + j
                                    kk[_INI + q] = sa[u] + j
                                    kk[_LIM + q] = sa[u] + ct[u] - a + j
                                    kk[_SG + q] = u
                                    q += 1
                            while True:
                                if e + 2 + tot > size:
                                    return -1
                                b[e] = c
                                b[e + 1] = tot
                                for j in range(tot):
                                    b[e + 2 + j] = bv[kk[_P + j]]
                                e += 2 + tot
                                nm += 1
                                q = tot - 1
                                while q >= 0 and kk[_P + q] >= kk[_LIM + q]:
                                    q -= 1
                                if q < 0:
                                    break
                                kk[_P + q] += 1
                                u = kk[_SG + q]
                                for j in range(q + 1, tot):
                                    if kk[_SG + j] == u:
                                        kk[_P + j] = kk[_P + j - 1] + 1
                                    else:
                                        kk[_P + j] = kk[_INI + j]
                    elif lv <= 10 and lv <= r and sf[lv] >= r:
                        k = kk[lv]
                        if k <= ct[lv] and k * lv <= r:
                            down = 1
                    if down:
                        kk[_R + lv + 1] = r - kk[lv] * lv
                        kk[_C + lv + 1] = kk[_C + lv] + kk[lv]
                        kk[lv + 1] = 0
                        lv += 1
                    else:
                        lv -= 1
                        if lv == 0:
                            break
                        kk[lv] += 1
        if nm == n0 or not (fl & 64):
            if e + 2 > size:
                return -1
            b[e] = c
            b[e + 1] = 0
            e += 2
            nm += 1
    return e + (nm << 16)


# apply's and gen's ruleset (_rules, the object it was read from):
# players, sides, hand, an Ace takes all, also on an Ace, Cirulla, the
# Ace's sweep a scopa; gen's flags: 1 Scopa a 15, 2 Cirulla, 4 an Ace
# takes all, 8 also on an Ace, 16 strict priority, 32 the fewest cards, 64
# capture mandatory
_SCOPA_15 = const(4)  # scopa.rules' games
_CIRULLA = const(5)
_rules = None
_rf = bytearray(8)
deal = None  # scopa.engine's _deal_hands and _end_round (set by it)
end = None


def _setup(rules):
    global _rules
    _rules = None  # (until every flag is read)
    f = _rf
    f[0] = rules.players
    f[1] = rules.sides
    f[2] = rules.hand
    f[3] = 1 if rules.ace_takes_all else 0
    f[4] = 1 if rules.ace_on_ace_all else 0
    f[5] = 1 if rules.game == _CIRULLA else 0
    f[6] = 1 if rules.ace_sweep_scopa else 0
    g = rules.game
    fl = 1 if g == _SCOPA_15 else 2 if g == _CIRULLA else 0
    if rules.ace_takes_all:
        fl |= 4
    if rules.ace_on_ace_all:
        fl |= 8
    if rules.strict:
        fl |= 16
    if rules.fewest:
        fl |= 32
    if rules.mandatory:
        fl |= 64
    f[7] = fl
    _rules = rules


@micropython.viper
def apply(st, rules, buf: ptr8, off: int) -> int:
    """scopa.engine.apply(st, rules, buf, off): the same play, the same
    flags (its constants: CAPTURE 1, SCOPA 2, SWEEP 4, DEALT 8,
    ROUND_OVER 16); the new hands and the end of the round are the
    engine's (deal, end). The ruleset is read once per Rules object
    (_setup)."""
    if rules is not _rules:
        _setup(rules)
    s = ptr8(st)
    f = ptr8(_rf)
    val = ptr8(_VAL)
    seat = s[122]
    np = f[0]
    ns = f[1]
    side = seat - (seat // ns) * ns
    c = buf[off]
    n = buf[off + 1]
    flags = 0
    ntab = s[120]
    if n == 0:
        s[c] = 1
        s[80 + ntab] = c
        s[120] = ntab + 1
    else:
        flags = 1
        pile = 8 + side
        m = s[132]
        v = val[c]
        if c == 16 and m:
            v = m
        if f[3] and n == ntab and v == 1:
            # the Ace's take-all (SWEEP), unless an ordinary capture takes
            # the same cards: a lone Ace, or in Cirulla cards adding to 14
            aces = 0
            tot = 0
            for i in range(ntab):
                t = s[80 + i]
                tv = val[t]
                if t == 16 and m:
                    tv = m
                if tv == 1:
                    aces += 1
                tot += tv
            if (aces == 0 or f[4]) and tot != 1:
                if tot != 14 or not f[5]:
                    flags |= 4
        for i in range(n):
            s[buf[off + 2 + i]] = pile
        s[c] = pile
        w = 0
        for i in range(ntab):
            t = s[80 + i]
            if s[t] == 1:
                s[80 + w] = t
                w += 1
        s[120] = w
        s[124] = side
    s[128] -= 1
    s[131] += 1
    seat += 1
    if seat >= np:
        seat = 0
    s[122] = seat
    more = 40 - s[121] >= f[2] * np
    if flags and s[120] == 0 and (s[128] or more):
        if not (flags & 4) or f[6]:
            flags |= 2
            s[125 + side] += 1
    if s[128] == 0:
        if more:
            deal(st, rules)  # pyright: ignore[reportOptionalCall]  (set by scopa.engine)
            flags |= 8
        else:
            end(st, rules)  # pyright: ignore[reportOptionalCall]
            flags |= 16
    return flags
