"""The hard player's per-node work as viper code (machine ints and byte
pointers): ai.core's util (the value of a search's leaf), view,
sweep_mask and threat, and the risks ai.medium.score weighs (after):
the same numbers for the same state in a fraction of the instructions of
native code. util alone took 18 to 29% off a decision (docs/ai-results.md,
sixteenth pass), view, sweep_mask and after with scopa.group about a
third of the rest (twenty-fifth pass), threat with scopa.group's moves and
plays about half of what was left in Scopone a 10 (thirty-fifth pass).

Only for a port with a native emitter: ai.core imports it there and
keeps its own plain-Python functions (the same numbers; ai.medium its
own risks) where this module
does not compile (the WebAssembly port: "invalid micropython decorator"),
is left out of the build (the flash tool and the web edition compile it
only with -march, tools/flash/compiler.py: VIPER; a plain `mpy-cross
ai/leaf.py` refuses it: "SyntaxError: invalid arch") or does not load.
Under CPython (the host tests, with host_tests/shim) `micropython.viper`
and `ptr8` are the identity and this runs as plain Python; the tests hold
both copies to the same values on CPython and on the unix port.

The ruleset's numbers are `opts`, which ai.core.setup fills (this module
imports nothing of ai.core, which imports it): sides, primiera with a
missing suit at 0, re bello's card + 1 (0: none), coin runs (napola,
Cirulla's piccola), Cirulla's grande, napoleone."""

import micropython

from scopa.rules import PRIMIERA as _PRIM  # primiera points by value - 1

opts = bytearray(13)  # the ruleset's numbers (above, then below): ai.core.setup
opts[0] = 2
# opts[6:13], for view and sweep_mask: players, partners' hands visible (with
# 4 or more), the game (1 Scopa a 15, 2 Cirulla, 0 another), strict
# priority, an Ace takes all, also on an Ace, and its sweep is a scopa
_VAL = bytes(c % 10 + 1 for c in range(40))  # a card's value
# ai.core's view (core aliases them): the seats whose hands are seen, the
# unseen cards per value 1..10 and the unseen cards, ascending
known = bytearray(8)
uval = bytearray(11)
unseen = bytearray(40)
# for after(), filled by ai.medium.score: the seat, its side, the unseen
# cards, cards a hand is dealt, the cost of a scopa given (ai.medium.SWEEP)
ctx = bytearray(5)
worth = b""  # ai.core.WORTH (set by ai.core)
_cnt = bytearray(3)  # cards in each side's pile
_coin = bytearray(3)  # denari in each side's pile
_pb = bytearray(12)  # best primiera points per side * 4 + suit
_tw = bytearray(11)  # threat(): the best worth on the table per value


@micropython.viper
def util(st: ptr8, side: int) -> int:
    """ai.core.util(st, side), for a state `st` (bytes, scopa.engine's
    layout) and a side: centipoints, the same int."""
    o = ptr8(opts)
    ns = o[0]
    cnt = ptr8(_cnt)
    coin = ptr8(_coin)
    pb = ptr8(_pb)
    pt = ptr8(_PRIM)
    cnt[0] = 0
    cnt[1] = 0
    cnt[2] = 0
    coin[0] = 0
    coin[1] = 0
    coin[2] = 0
    for i in range(12):
        pb[i] = 0
    pot = 0  # primiera points still to take: the best card left of each suit
    c = 0
    for su in range(4):
        top = 0
        for v in range(10):
            loc = st[c]
            p = pt[v]
            if loc >= 8:  # a pile
                s = loc - 8
                cnt[s] += 1
                k = s * 4 + su
                if p > pb[k]:
                    pb[k] = p
            elif p > top:
                top = p
            c += 1
        pot += top
    for c in range(10):  # denari
        loc = st[c]
        if loc >= 8:
            coin[loc - 8] += 1
    rem = 40 - cnt[0] - cnt[1] - cnt[2]
    remc = 10 - coin[0] - coin[1] - coin[2]
    # majorities: cards, coins, primiera (the others' best)
    pz = o[1]
    oc = 0
    oco = 0
    op = -1
    osc = 0
    mp = 0
    for s in range(ns):
        k = s * 4
        p0 = pb[k]
        p1 = pb[k + 1]
        p2 = pb[k + 2]
        p3 = pb[k + 3]
        t = p0 + p1 + p2 + p3
        if (p0 == 0 or p1 == 0 or p2 == 0 or p3 == 0) and pot == 0 and pz == 0:
            t = -1
        if s == side:
            mp = t
        else:
            if cnt[s] > oc:
                oc = cnt[s]
            if coin[s] > oco:
                oco = coin[s]
            if t > op:
                op = t
            osc += st[125 + s]  # scope
    # ai.core._maj(d, rem, slack), a point's share for a lead of d: cards
    d = cnt[side] - oc
    sl = rem // 3 + 1
    if d > rem:
        u = 100
    elif -d > rem:
        u = -100
    elif d >= 0:
        u = 100 * d // (d + sl)
    else:
        u = -(100 * -d // (sl - d))
    # coins
    d = coin[side] - oco
    sl = remc // 2 + 1
    if d > remc:
        u += 100
    elif -d > remc:
        u -= 100
    elif d >= 0:
        u += 100 * d // (d + sl)
    else:
        u -= 100 * -d // (sl - d)
    # primiera
    d = mp - op
    if pot == 0:
        if d > 0:
            u += 100
        elif d < 0:
            u -= 100
    else:
        sl = pot // 2 + 8
        if d > 999:
            u += 100
        elif -d > 999:
            u -= 100
        elif d >= 0:
            u += 100 * d // (d + sl)
        else:
            u -= 100 * -d // (sl - d)
    # scope
    if ns == 2:
        u += 100 * (st[125 + side] - osc)
    else:
        u += 50 * (2 * st[125 + side] - osc)
    # settebello, re bello
    loc = st[6]
    if loc >= 8:
        if loc - 8 == side:
            u += 100
        else:
            u += -100 // (ns - 1)
    rb = o[2]
    if rb:
        loc = st[rb - 1]
        if loc >= 8:
            if loc - 8 == side:
                u += 100
            else:
                u += -100 // (ns - 1)
    cr = o[3]
    if cr:  # runs of denari from the Ace; Cirulla's grande; napoleone
        for s in range(ns):
            p = 8 + s
            run = 0
            while run < 10 and st[run] == p:
                run += 1
            x = 0
            if run >= 3:
                x = run * 100 * cr
            if o[4] and st[7] == p and st[8] == p and st[9] == p:
                x += 500
            if o[5] and coin[s] == 10:
                x += 2000
            if x:
                if s == side:
                    u += x
                else:
                    u += -x // (ns - 1)
    return u


@micropython.viper
def view(st: ptr8, seat: int) -> int:
    """ai.core.view(st, seat) into known, uval and unseen: returns the
    number of unseen cards."""
    o = ptr8(opts)
    kn = ptr8(known)
    uv = ptr8(uval)
    us = ptr8(unseen)
    for s in range(8):
        kn[s] = 0
    kn[seat] = 1
    if o[7]:
        np = o[6]
        ns = o[0]
        s = seat + ns
        if s >= np:
            s -= np
        while s != seat:
            kn[s] = 1
            s += ns
            if s >= np:
                s -= np
    for i in range(11):
        uv[i] = 0
    val = ptr8(_VAL)
    n = 0
    for c in range(40):
        loc = st[c]
        if loc == 1 or loc >= 8 or (loc >= 2 and kn[loc - 2]):
            continue
        us[n] = c
        n += 1
        uv[val[c]] += 1
    return n


@micropython.viper
def sweep_mask(st: ptr8) -> int:
    """ai.core.sweep_mask(st): bit v set when a card of value v sweeps."""
    n = st[120]
    if n == 0:
        return 0
    o = ptr8(opts)
    val = ptr8(_VAL)
    s = 0
    vm = 0
    mt = st[132]  # the matta's declared rank (Cirulla), 0 while a 7
    for i in range(n):
        c = st[80 + i]
        v = val[c]
        if c == 16 and mt:
            v = mt
        s += v
        vm |= 1 << v
    m = 0
    g = o[8]
    if g != 1:
        if n == 1:
            m = 1 << s
        elif s <= 10 and not (o[9] and (vm >> s) & 1):
            m = 1 << s
        if g == 2 and 5 <= s and s <= 14:
            m |= 1 << (15 - s)
    elif 5 <= s and s <= 14:
        m = 1 << (15 - s)
    if o[10] and (o[11] or not vm & 2):
        if o[12] or s == 1 or (g == 2 and s == 14):
            m |= 2
        else:
            m &= 0x7FFD
    return m


@micropython.viper
def threat(st: ptr8, side: int) -> int:
    """ai.core.threat(st, side): what the seat to move can take at once,
    for or against `side`, centipoints (ai.core.THREAT, 70, for a sweep:
    sweep_mask's test, here inline)."""
    if st[129]:
        return 0
    n = st[120]
    if n == 0:
        return 0
    o = ptr8(opts)
    val = ptr8(_VAL)
    wt = ptr8(worth)
    tw = ptr8(_tw)
    s = 0
    vm = 0
    mt = st[132]
    for v in range(11):
        tw[v] = 0
    for i in range(n):
        c = st[80 + i]
        v = val[c]
        if c == 16 and mt:
            v = mt
        s += v
        vm |= 1 << v
        if wt[c] > tw[v]:
            tw[v] = wt[c]
    # sweep_mask(st), inline: a call from viper code costs what a bytecode
    # call does (docs/ai-results.md, thirty-fifth pass); the tests hold
    # both to ai.core's own
    m = 0
    g = o[8]
    if g != 1:
        if n == 1:
            m = 1 << s
        elif s <= 10 and not (o[9] and (vm >> s) & 1):
            m = 1 << s
        if g == 2 and 5 <= s and s <= 14:
            m |= 1 << (15 - s)
    elif 5 <= s and s <= 14:
        m = 1 << (15 - s)
    if o[10] and (o[11] or not vm & 2):
        if o[12] or s == 1 or (g == 2 and s == 14):
            m |= 2
        else:
            m &= 0x7FFD
    seat = st[122]
    h = 2 + seat
    best = 0
    for c in range(40):
        if st[c] == h:
            v = val[c]
            if c == 16 and mt:
                v = mt
            if (m >> v) & 1:
                best = 170  # THREAT + 100
                break
            if tw[v]:
                x = tw[v] + wt[c]
                if x > best:
                    best = x
    best = best * 70 // 100
    ns = o[0]
    if seat - (seat // ns) * ns == side:
        return best
    return -best


@micropython.viper
def _holds(k: int, u: int, h: int) -> int:
    # ai.core.p_holds(k, u, h), thousandths
    if k <= 0 or h <= 0:
        return 0
    q = 1000
    for i in range(h):
        if u - k - i <= 0:
            return 1000
        q = q * (u - k - i) // (u - i)
    return 1000 - q


@micropython.viper
def after(w: ptr8, st: ptr8, b: ptr8, o: int, fl: int, m: int) -> int:
    """What ai.medium.score adds to a move's value for the risk it leaves,
    in centipoints: `w` the state after the move at offset `o` of move
    buffer `b`, played from `st` with flags `fl` (scopa.engine.apply's),
    `m` its sweep_mask(w); ctx set for the seat. (Viper code passes no
    buffer to a call: ai.medium computes m.)"""
    if w[129] or not w[120]:
        return 0
    op = ptr8(opts)
    cx = ptr8(ctx)
    uv = ptr8(uval)
    wt = ptr8(worth)
    val = ptr8(_VAL)
    np = op[6]
    ns = op[0]
    seat = cx[0]
    side = cx[1]
    u = cx[2]
    nxt = w[122]
    if fl & 8:  # new hands dealt
        h = cx[3]
    else:
        n = w[128]
        h = n // np
        if n - h * np > 0:
            h += 1
    opp = 0
    if nxt - (nxt // ns) * ns != side:
        opp = 1
    nt = w[120]
    v = 0
    if m:
        cnt = 0
        for x in range(1, 11):
            if (m >> x) & 1:
                cnt += uv[x]
        if cnt:
            tw = 0
            for j in range(nt):
                tw += wt[w[80 + j]]
            cost = cx[4] + tw
            if opp:
                v -= int(_holds(cnt, u, h)) * cost // 1000
            elif ns == 2:
                v += int(_holds(cnt, u, h)) * cost // 2000
        if ns == 2 and np >= 4:
            pt = seat + 2
            if pt >= np:
                pt -= np
            kn = ptr8(known)
            if kn[pt]:
                ph = 2 + pt
                for c in range(40):
                    if st[c] == ph and (m >> val[c]) & 1:
                        v += 30
                        break
    if b[o + 1] == 0 and opp:
        c = b[o]
        x = val[c]
        loss = 0
        if uv[x]:
            loss = int(_holds(uv[x], u, h)) * wt[c]
        if x < 10 and not (op[9] and uv[x]):
            single = 0  # bit y: a table card of value y (taken before any sum)
            for j in range(nt):
                single |= 1 << val[w[80 + j]]
            for j in range(nt - 1):
                t = w[80 + j]
                y = x + val[t]
                if y <= 10 and uv[y] and not (single >> y) & 1:
                    q = int(_holds(uv[y], u, h)) * (wt[c] + wt[t])
                    if q > loss:
                        loss = q
        v -= loss // 1000
    return v
