"""ai.core.util, the value of a search's leaf, as viper code: the same
centipoints for the same state, in about an eighth of the instructions of
ai.core's native util on the unix port (7.0 K against 57.5 K a call), so
the hard player's decisions take 18 to 29% fewer (docs/ai-results.md,
sixteenth pass).

Only for a port with a native emitter: ai.core imports it there and
keeps its own util (plain Python, the same numbers) where this module
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
Cirulla's piccola), Cirulla's grande, napoleone.
"""

import micropython

from scopa.rules import PRIMIERA as _PRIM  # primiera points by value - 1

opts = bytearray((2, 0, 0, 0, 0, 0))  # the ruleset's numbers (above): ai.core.setup
_cnt = bytearray(3)  # cards in each side's pile
_coin = bytearray(3)  # denari in each side's pile
_pb = bytearray(12)  # best primiera points per side * 4 + suit


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
