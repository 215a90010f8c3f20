"""The rules engine: deal, legal moves, play, end of round.

The whole state of a round is one `bytearray(SIZE)` (133 bytes) that copies
with ``bytearray(st)`` or ``dst[:] = st``; the computer players search over
it. Layout:

- ``st[c]`` for card c in 0..39: where c is: MAZZO, TABLE, HAND + seat,
  PILE + side.
- ``st[DECK:DECK+40]``: the deal order of this round (the mazzo).
- ``st[TAB:TAB+st[NTAB]]``: the table cards in the order they were laid.
- counters: DP (cards dealt so far), TURN (seat to play), DEALER, LAST
  (side that captured last, 255 for none), SCOPE..SCOPE+2 (scope per side,
  Cirulla's declarations included), INHAND (cards in all hands), OVER (1
  when the round is over), BONUS (dealer's scope from the first table),
  PLY (plays so far), MATTA (Cirulla: the rank 1..10 the matta 7C was
  designated when declared, 0 while it is a 7; see `declare`).

A move is a card played and the table cards it takes. Move lists are
written into a preallocated `Moves` buffer as ``card, n, taken * n``; a move
is named by its offset there. No list, dict or long int is built per move.
The flash tool compiles this module to native code for a board with a
native emitter (tools/flash/compiler.py: NATIVE), which allocates a slice
object where bytecode does not: no slices in gen_moves and apply. What
runs once a play or a round (start_round, find_move, the Moves readers...)
stays bytecode (`@micropython.bytecode`): as native code it took about
three times the board's heap, for no time that counts.

Sources for the rules: pagat.com "Scopa" and "Scopone"; Parlett, The
Penguin Book of Card Games, pp. 136-138; the rule texts the
cases of host_tests/rules cite (000 Scopa Regeln, 001 Scopone Spielanleitung, 003 Regler for
kortspillet Scopa).
"""

import micropython
from micropython import const

from scopa.rules import CIRULLA, SCOPA_15, SCOPONE_10

MAZZO = const(0)
TABLE = const(1)
HAND = const(2)  # + seat (0..5)
PILE = const(8)  # + side (0..2)

DECK = const(40)
TAB = const(80)
NTAB = const(120)
DP = const(121)
TURN = const(122)
DEALER = const(123)
LAST = const(124)
SCOPE = const(125)
INHAND = const(128)
OVER = const(129)
BONUS = const(130)
PLY = const(131)
MATTA = const(132)
SIZE = const(133)

_MATTA_CARD = const(16)  # Cirulla's matta: the 7 of coppe

NONE = const(255)

# Flags returned by `apply`.
CAPTURE = const(1)
SCOPA = const(2)
SWEEP = const(4)  # an Ace took the whole table by its take-all (not a lone Ace)
DEALT = const(8)  # new hands were dealt after this play
ROUND_OVER = const(16)


class IllegalMove(ValueError):
    """A move the rules do not allow. The message names the rule broken."""


class Moves:
    """A preallocated move list: ``buf`` holds ``card, n, taken * n`` per
    move, ``end`` is the used length in bytes and ``n`` the number of moves.

    `size` is the initial buffer in bytes; it grows (rarely) when a crowded
    table gives more options.
    """

    @micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
    def __init__(self, size=512):
        self.buf = bytearray(size)
        self.end = 0
        self.n = 0

    @micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
    def clear(self):
        self.end = 0
        self.n = 0

    @micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
    def _room(self, need):
        if self.end + need > len(self.buf):
            b = bytearray(2 * len(self.buf) + need)
            b[: self.end] = self.buf[: self.end]
            self.buf = b

    @micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
    def offsets(self):
        """Offsets of the moves in ``buf`` (a list; for tests and screens)."""
        out = []
        o = 0
        b = self.buf
        while o < self.end:
            out.append(o)
            o += 2 + b[o + 1]
        return out

    @micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
    def move(self, off):
        """Move at `off` as ``(card, (taken, ...))``."""
        b = self.buf
        n = b[off + 1]
        return b[off], tuple(b[off + 2 : off + 2 + n])

    @micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
    def tuples(self):
        """Every move as ``(card, (taken, ...))``, in enumeration order."""
        return [self.move(o) for o in self.offsets()]


# Scratch for the enumeration (module level: allocated once).
_cnt = bytearray(11)  # table cards per value 1..10
_suf = bytearray(12)  # the table's values from v up added up (at most 223, the matta a 10)
_start = bytearray(12)  # start of each value's cards in _byv
_fill = bytearray(12)
_byv = bytearray(40)  # table cards grouped by value
_hand = bytearray(40)  # the cards of the hand whose moves are made
_k = bytearray(11)  # cards of each value in the sum being built
_pick = bytearray(40)  # the table cards of the option being built


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def new_state():
    """A fresh state buffer (bytearray of SIZE bytes, all cards in the mazzo)."""
    st = bytearray(SIZE)
    for i in range(40):
        st[DECK + i] = i
    st[LAST] = NONE
    return st


# --------------------------------------------------------------------------
# Dealing


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def start_round(st, rules, rng, dealer):
    """Shuffle with `rng` and deal a new round with `dealer` (seat) dealing.

    Redeals (same dealer, a new shuffle) while the first table breaks the
    redeal rule. Scopa a 15 and Cirulla give the dealer the first table when
    it adds up to 15 (1 scopa) or 30 (2 scope). Returns the number of
    redeals. Allocates nothing.
    """
    redeals = 0
    while True:
        for i in range(40):
            st[DECK + i] = i
        rng.shuffle(st, 40, DECK)
        for i in range(40):
            st[i] = MAZZO
        st[NTAB] = 0
        st[DP] = 0
        st[DEALER] = dealer
        st[TURN] = (dealer + 1) % rules.players
        st[LAST] = NONE
        st[SCOPE] = st[SCOPE + 1] = st[SCOPE + 2] = 0
        st[INHAND] = 0
        st[OVER] = 0
        st[BONUS] = 0
        st[PLY] = 0
        st[MATTA] = 0
        _deal_hands(st, rules)
        for _ in range(rules.table):
            c = st[DECK + st[DP]]
            st[DP] += 1
            st[c] = TABLE
            st[TAB + st[NTAB]] = c
            st[NTAB] += 1
        if not initial_redeal(rules, st, TAB, st[NTAB]):
            break
        redeals += 1
    g = rules.game
    if g == SCOPA_15 or g == CIRULLA:
        sc = dealer_scope(rules, st, TAB, st[NTAB])
        if sc:
            side = rules.side(dealer)
            for i in range(st[NTAB]):
                st[st[TAB + i]] = PILE + side
            st[NTAB] = 0
            st[SCOPE + side] += sc
            st[BONUS] = sc
            st[LAST] = side
    return redeals


def _deal_hands(st, rules):
    p = rules.players
    h = rules.hand
    d = st[DEALER]
    cirulla = rules.game == CIRULLA
    for i in range(1, p + 1):
        seat = (d + i) % p
        for _ in range(h):
            st[st[DECK + st[DP]]] = HAND + seat
            st[DP] += 1
        if cirulla:
            # the hands are dealt when every hand is empty: the seat's hand
            # is the h cards just dealt
            declare(st, rules, seat, st, DECK + st[DP] - h, h)
    st[INHAND] = h * p


def declare(st, rules, seat, hand, start=0, n=-1):
    """Cirulla: score the declaration of the hand just dealt to `seat`, the
    `n` cards of `hand` from `start` (read as in `declaration`), to its
    side's scope and, when the matta (7C) completes it, designate the
    matta's rank in st[MATTA]: the rank of the other two for three of a
    kind, else the Ace (a total under 10, where the declaration counts it
    1). Parlett p.138: "it must be designated as a particular rank, and
    then played as such... if it is called an Ace, it can be used to sweep
    the table". The rank holds for the rest of the round (Parlett: for the
    deal), in hand and on the table; in the scoring (cards, primiera) the
    card stays the 7 of coppe. No choice is asked: the rank the
    declaration counts it as. Returns the points declared."""
    pts = declaration(hand, start, n)
    st[SCOPE + rules.side(seat)] += pts
    if pts and st[_MATTA_CARD] == HAND + seat:
        a = 0
        b = 0
        for i in range(start, start + 3):
            c = hand[i]
            if c != _MATTA_CARD:
                if a:
                    b = c % 10 + 1
                else:
                    a = c % 10 + 1
        st[MATTA] = a if a == b else 1
    return pts


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def initial_redeal(rules, table, start=0, n=-1):
    """True when the first table forces a new deal: three or more Kings
    (redeal_kings; pagat.com Scopa), or in Cirulla two or more Aces
    (Parlett p.138). The table is the `n` cards (ints) of `table` (any
    indexable: list, bytes, the state) from index `start`, all of them
    when n < 0."""
    if n < 0:
        n = len(table) - start
    if rules.game == CIRULLA:
        aces = 0
        for i in range(start, start + n):
            aces += table[i] % 10 == 0
        return aces >= 2
    if not rules.redeal_kings:
        return False
    kings = 0
    for i in range(start, start + n):
        kings += table[i] % 10 == 9
    return kings >= 3


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def dealer_scope(rules, table, start=0, n=-1):
    """Scope the dealer scores by taking a first table adding up to 15 (1)
    or 30 (2): Scopa a 15 and Cirulla only (Parlett p.138). The table is
    read as in `initial_redeal`. In Cirulla the matta (7C) among them is
    wild, "and represents any valid count the dealer wishes" (Parlett pp.
    137-138): any value 1..10, 30 before 15, so 7C 5B 2S 4D is 1 (the matta
    a 4) and 7C 10B 9S 8D is 2 (a 3)."""
    g = rules.game
    if g != SCOPA_15 and g != CIRULLA:
        return 0
    if n < 0:
        n = len(table) - start
    s = 0
    wild = 0
    for i in range(start, start + n):
        c = table[i]
        if c == _MATTA_CARD and g == CIRULLA:
            wild = 1
        else:
            s += c % 10 + 1
    if wild:
        return 2 if 20 <= s <= 29 else 1 if 5 <= s <= 14 else 0
    return 1 if s == 15 else 2 if s == 30 else 0


def declaration(hand, start=0, n=-1):
    """Points a Cirulla hand of three cards is worth when declared: three of
    a kind 10, a total under 10 3, else 0. The 7 of coppe (matta) is wild:
    it counts 1 towards the total and matches any value. The hand is the
    `n` cards (ints) of `hand` from index `start` (all of them when n < 0;
    any indexable, as in `initial_redeal`); a hand of other than three
    cards is worth 0. Source: Parlett p.138, regoledelgioco.com Cirulla."""
    if n < 0:
        n = len(hand) - start
    if n != 3:
        return 0
    wild = 0
    total = 0
    first = 0  # the value the cards other than the matta share; 0 none yet
    tris = True
    for i in range(start, start + 3):
        c = hand[i]
        if c == 16:
            wild += 1
            continue
        v = c % 10 + 1
        total += v
        if first == 0:
            first = v
        elif v != first:
            tris = False
    if tris:
        return 10
    return 3 if total + wild < 10 else 0


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def hand_of(st, seat):
    """Cards (list, ascending) in the hand of `seat`."""
    h = HAND + seat
    return [c for c in range(40) if st[c] == h]


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def table_of(st):
    """Cards (list) on the table, in the order laid."""
    return list(st[TAB : TAB + st[NTAB]])


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def pile_of(st, side):
    """Cards (list, ascending) taken by `side` so far."""
    p = PILE + side
    return [c for c in range(40) if st[c] == p]


# --------------------------------------------------------------------------
# Legal moves


def _group(st, h):
    # the table by value (_cnt, _suf, _start, _byv) and the cards at
    # place h into _hand (255: none); returns their number
    n = st[NTAB]
    cnt = _cnt
    for i in range(11):  # not cnt[:] = ...: native code allocates the slice
        cnt[i] = 0
    m = st[MATTA]
    tot = 0
    for i in range(n):
        c = st[TAB + i]
        v = m if c == _MATTA_CARD and m else c % 10 + 1
        cnt[v] += 1
        tot += v
    start = _start
    fill = _fill
    suf = _suf
    s = 0
    for v in range(1, 11):
        start[v] = s
        fill[v] = s
        s += cnt[v]
        suf[v] = tot
        tot -= v * cnt[v]
    start[11] = s
    fill[11] = s
    byv = _byv
    for i in range(n):
        c = st[TAB + i]
        v = m if c == _MATTA_CARD and m else c % 10 + 1
        byv[fill[v]] = c
        fill[v] += 1
    k = 0
    if h != NONE:
        hand = _hand
        for c in range(40):
            if st[c] == h:
                hand[k] = c
                k += 1
    return k


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def _emit(mv, c, n):
    e = mv.end
    b = mv.buf
    if e + 2 + n > len(b):
        mv._room(2 + n)
        b = mv.buf
    b[e] = c
    b[e + 1] = n
    e += 2
    for i in range(n):
        b[e + i] = _pick[i]
    mv.end = e + n
    mv.n += 1


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def _choose(mv, c, v, i, left, pos):
    # choose `left` more cards of value v from _byv[i:], then go on to v + 1
    if left == 0:
        _expand(mv, c, v + 1, pos)
        return
    end = _start[v] + _cnt[v]
    while i + left <= end:
        _pick[pos] = _byv[i]
        _choose(mv, c, v, i + 1, left - 1, pos + 1)
        i += 1


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def _expand(mv, c, v, pos):
    while v <= 10 and _k[v] == 0:
        v += 1
    if v > 10:
        _emit(mv, c, pos)
        return
    _choose(mv, c, v, _start[v], _k[v], pos)


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def _sums(mv, c, v, rem, count, minc):
    # every choice of counts per value (v..10) adding up to rem
    if rem == 0:
        if count >= minc:
            _expand(mv, c, 1, 0)
        return
    while v <= rem and v <= 10 and not _cnt[v]:
        v += 1  # no table card of value v: none in the sum
    if v > 10 or v > rem or _suf[v] < rem:
        return
    top = _cnt[v]
    if top * v > rem:
        top = rem // v
    for k in range(top + 1):
        _k[v] = k
        _sums(mv, c, v + 1, rem - k * v, count + k, minc)
    _k[v] = 0


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def _gen_card(st, rules, c, mv):
    v = st[MATTA] if c == _MATTA_CARD and st[MATTA] else c % 10 + 1
    n = st[NTAB]
    first = mv.end
    n0 = mv.n
    g = rules.game
    if n and v == 1 and rules.ace_takes_all and (_cnt[1] == 0 or rules.ace_on_ace_all):
        # the Ace's sweep: a capture like any other, so optional when
        # capture is (Must take off, as the rules of How to play say)
        for i in range(n):
            _pick[i] = st[TAB + i]
        _emit(mv, c, n)
    elif n:
        if g == SCOPA_15:
            _sums(mv, c, 1, 15 - v, 0, 1)
        else:
            if _cnt[v]:
                for i in range(_start[v], _start[v] + _cnt[v]):
                    _pick[0] = _byv[i]
                    _emit(mv, c, 1)
            if not _cnt[v] or not rules.strict:
                _sums(mv, c, 1, v, 0, 2)
        if rules.fewest and mv.n - n0 > 1:
            _keep_fewest(mv, first)
        if g == CIRULLA:
            # fewest is the simple take's rule: a take to fifteen stays
            # beside it (regoledelgioco.com, Cirulla: a 7 on 3 5 6 7 takes
            # the 7 alone as a simple take, and may take 3 + 5 to fifteen)
            _sums(mv, c, 1, 15 - v, 0, 1)
    if mv.n == n0 or not rules.mandatory:
        _emit(mv, c, 0)


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def _keep_fewest(mv, first):
    b = mv.buf
    least = 99
    before = 0
    o = first
    while o < mv.end:
        if b[o + 1] < least:
            least = b[o + 1]
        o += 2 + b[o + 1]
        before += 1
    o = w = first
    kept = 0
    while o < mv.end:
        n = b[o + 1]
        if n == least:
            for i in range(2 + n):
                b[w + i] = b[o + i]
            w += 2 + n
            kept += 1
        o += 2 + n
    mv.n -= before - kept
    mv.end = w


def gen_moves(st, rules, mv, seat=-1):
    """Write every legal move of `seat` (default: the seat to play) into
    `mv` (a Moves, cleared first). Returns the number of moves.

    Captures (pagat.com Scopa; FORMAT.md options): a card takes one table
    card of equal value or, when none is down (or always, with free
    priority), table cards adding up to its value; with fewest, only the
    options with the fewest cards. Scopa a 15: the card and the cards taken
    add up to 15. Cirulla: both, plus captures to 15 (fewest limits only
    the captures of its value). Scopa d'Assi and
    Cirulla: an Ace takes the whole table when no Ace is on it. A card that
    takes nothing is laid; with capture optional it may always be laid.
    """
    if seat < 0:
        seat = st[TURN]
    if _gen is not None:
        b = mv.buf
        r = _gen(st, rules, HAND + seat, b, len(b))
        if r >= 0:
            mv.end = r & 0xFFFF
            mv.n = r >> 16
            return mv.n
    mv.clear()
    hand = _hand
    for i in range(_group(st, HAND + seat)):
        _gen_card(st, rules, hand[i], mv)
    return mv.n


def value(st, c):
    """The rank (1..10) card `c` plays as in `st`: its own, or Cirulla's
    matta (the 7 of coppe) the rank a declaration gave it (`declare`)."""
    return st[MATTA] if c == _MATTA_CARD and st[MATTA] else c % 10 + 1


def gen_card_moves(st, rules, c, mv):
    """Write the legal moves of card `c` alone into `mv` (cleared first);
    returns their number. `c` need not be in a hand (rule cases)."""
    mv.clear()
    _group(st, NONE)
    _gen_card(st, rules, c, mv)
    return mv.n


# --------------------------------------------------------------------------
# Playing


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def apply(st, rules, buf, off):
    """Play the move at `off` in `buf` (``card, n, taken * n``) for the seat
    to play, without checking it (the computer players' fast path: only
    moves from `gen_moves`). Returns flags: CAPTURE, SCOPA, SWEEP, DEALT,
    ROUND_OVER.
    """
    seat = st[TURN]
    players = rules.players
    side = seat % rules.sides
    c = buf[off]
    n = buf[off + 1]
    flags = 0
    ntab = st[NTAB]
    if n == 0:
        st[c] = TABLE
        st[TAB + ntab] = c
        st[NTAB] = ntab + 1
    else:
        flags = CAPTURE
        pile = PILE + side
        m = st[MATTA]
        if rules.ace_takes_all and n == ntab and (m if c == _MATTA_CARD and m else c % 10 + 1) == 1:
            # the Ace's take-all (SWEEP), unless an ordinary capture takes
            # the same cards: a lone Ace, or in Cirulla cards adding to 14
            aces = 0
            tot = 0
            for i in range(ntab):
                t = st[TAB + i]
                t = m if t == _MATTA_CARD and m else t % 10 + 1
                aces += t == 1
                tot += t
            if (aces == 0 or rules.ace_on_ace_all) and tot != 1:
                if tot != 14 or rules.game != CIRULLA:
                    flags |= SWEEP
        for i in range(n):
            st[buf[off + 2 + i]] = pile
        st[c] = pile
        w = 0
        for i in range(ntab):
            t = st[TAB + i]
            if st[t] == TABLE:
                st[TAB + w] = t
                w += 1
        st[NTAB] = w
        st[LAST] = side
    st[INHAND] -= 1
    st[PLY] += 1
    st[TURN] = (seat + 1) % players
    more = 40 - st[DP] >= rules.hand * players
    if flags and st[NTAB] == 0 and (st[INHAND] or more):
        if not (flags & SWEEP) or rules.ace_sweep_scopa:
            flags |= SCOPA
            st[SCOPE + side] += 1
    if st[INHAND] == 0:
        if more:
            _deal_hands(st, rules)
            flags |= DEALT
        else:
            _end_round(st, rules)
            flags |= ROUND_OVER
    return flags


def _end_round(st, rules):
    last = st[LAST]
    if last != NONE:
        for i in range(st[NTAB]):
            st[st[TAB + i]] = PILE + last
        st[NTAB] = 0
    if rules.game == SCOPONE_10:
        side = PILE + rules.side(st[DEALER])
        while st[DP] < 40:
            st[st[DECK + st[DP]]] = side
            st[DP] += 1
    st[OVER] = 1


@micropython.bytecode  # pyright: ignore[reportAttributeAccessIssue]
def find_move(st, rules, card, taken, mv):
    """Offset in `mv` of the legal move playing `card` and taking the cards
    `taken` (any order), after `gen_moves` filled `mv`; -1 when none."""
    b = mv.buf
    o = 0
    k = len(taken)
    while o < mv.end:
        n = b[o + 1]
        if b[o] == card and n == k:
            ok = True
            for i in range(n):
                if b[o + 2 + i] not in taken:
                    ok = False
                    break
            if ok:
                return o
        o += 2 + n
    return -1


# Where the port compiles viper code, _group is scopa.group's, over its
# buffers, gen_moves writes its moves with scopa.group's gen (this
# module's enumeration only where gen's buffer is full: it grows it) and
# apply is scopa.group's (which calls _deal_hands and _end_round): the same
# bytes in fewer instructions. This module's stay the bytecode ports' (the
# WebAssembly port cannot compile scopa.group: SyntaxError; a build
# without -march leaves it out: ImportError; native code in a fragmented
# heap: MemoryError) and the references they are tested against
# (_group_py, gen_moves with _gen None, _apply_py). So the enumeration
# (_gen_card and what it calls) and apply are bytecode even where this
# module is native (`@micropython.bytecode`: 4.9 KB less of armv6m .mpy;
# a board whose scopa.group does not load plays the same moves slower).
_group_py = _group
_apply_py = apply
_gen = None  # scopa.group.gen where it compiles: gen_moves' moves
try:
    from scopa import group as _fast

    # (every name read before any is taken: a scopa.group of another
    # version, without gen, leaves this module's own buffers and code whole)
    _x = (_fast.group, _fast.gen, _fast.apply, _fast.cnt, _fast.suf, _fast.start)
    _x += (_fast.byv, _fast.hand)
    _fast.deal = _deal_hands
    _fast.end = _end_round
    _group, _gen, apply, _cnt, _suf, _start, _byv, _hand = _x
    del _x
except Exception:  # no native emitter, not in the build, or no room: only slower
    pass
