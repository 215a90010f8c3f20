"""scopa.engine's table grouped by value and a hand's cards (the first
steps of gen_moves), as viper code: the same bytes in a fraction of the
instructions of the engine's native code.

Only for a port with a native emitter: scopa.engine imports it there and
keeps its own `_group` (plain Python, the same bytes) where this module
does not compile (the WebAssembly port), is left out of the build (the
flash tool compiles it only with -march, tools/flash/compiler.py: VIPER)
or does not load. Under CPython (the host tests, with host_tests/shim)
`micropython.viper` and `ptr8` are the identity and this runs as plain
Python; the tests hold both to the same bytes on CPython and on the unix
port. The buffers are the engine's (it takes these in place of its own).
"""

import micropython

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
