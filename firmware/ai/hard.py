"""The hard player: sampling and a short alpha-beta search.

For each decision it deals the cards it has not seen into the other
hands and the mazzo, at random but consistently with what it has seen:
every seen card in its place (in Cirulla a declared hand's too, shown
when it was declared: ai.core.declared), each hand of its public size, no card of a
value a seat showed it lacks (ai.core.observe: it laid a card while it
could capture, or did not sweep), and, of up to TRIES deals, the first
in which every other seat (in 4- and 6-player Scopa every opponent,
PARTNER) would have made its plays of this deal as the medium player
would (ai.core.hmove). On each deal it plays the ROOTMAX
best moves of the medium player forward (every legal move, up to ROOTALL,
when every hand is known): to the end of the deal (of the
round from the next-to-last deal), its own side's moves searched by
alpha-beta, the other sides playing the medium player's move (they do
not see the hands either); when every hand is known (two players, last
deal) every reply is searched, to the end of the round, exactly, and
among the moves of the best minimax value the one worth most against
replies the medium player would make wins (_ties): it gives up nothing
against a perfect reply and takes what a human's slip leaves. Leaves
score the whole round's points (ai.core.util: cards, coins, settebello,
primiera, scope, the variants' extras) plus what the seat to move can
take at once (for another side: its best capture, weighted by the odds
that it holds the card for it, ai.core.risk; with six players and in
Scopone a 10 beside hard partners its best capture with the hand the
deal gives it, RISK). A move's value is its mean
over the deals plus the medium player's score of it (MIX; not when every
hand is known: the exact values decide); the best wins.
With four or six players three other hands are hidden, too much for a
few deals: mid-round it plays the medium player's move and searches only
the end of the round, except in Scopone (ten cards in hand, one deal),
where it searches the medium player's three best moves through a whole
turn of the table (its partner's and both opponents' replies, all played
as the medium player would, its partner maximizing the same side's
value; in Scopone a 10 on to its own next move, the next opponent's
capture from the hand the deal gives it) over as many deals as the
budget allows (PAIRS), beside a
partner that is not a hard player (a person, or the medium player, whom
the medium player models) in the other 4-player games but Cirulla, where
it searches the medium player's two best moves six plies deep (SOLO,
PAIRD), and with six players in the last deal, where the search to the
end of the round does not reach it yet (its first plays), the medium
player's two best seven plies deep (Scopa a 15: six).

It never reads a hidden card: the deals are built from the list of
unseen cards (ai.core.view), in card order, so any other layout of the
hidden cards consistent with what it saw gives the same choice.

Budget: a count of nodes (moves played in the search, positions scored,
about three per move the medium player scores and _PICK more per move it
chooses, _SAMPLE per deal dealt), not a clock, so that a seed gives the
same move on every machine and under any load. The default is per family
(FAMILY, nodes_for), calibrated so that the p95 decision time on the
unix port stays within 10 ms on issue 12's idle machine, counted in
instructions against the issue's reference decision (tools/tournament.py
--instructions; docs/ai-results.md), as the flash tool compiles the
firmware for a board with a native emitter: scopa.engine and ai.core
native code, the per-node work (ai.core's util, view, sweep_mask and
threat, ai.medium's risks, the engine's table by value, its moves and
plays) the viper code of ai.leaf and scopa.group (tools/flash/compiler.py:
NATIVE, VIPER); as
bytecode a node costs more (about twice as much before the viper view,
risks and grouping; not measured since). `budget_ms` is turned
into nodes with NODES_PER_MS for the platform. Memory: the search's
states and move lists and the record of plays are allocated once
(`_init` and core.init_history: about 7.7 KiB on the 64-bit unix port,
6.2 KiB on a 32-bit build); a decision allocates nothing, in every family.
"""

import sys
from array import array
from micropython import const

from ai import core, medium
from scopa import engine

# scopa.engine's state layout (its constants, folded here; host_tests/test_ai.py checks them)
_DECK = const(40)
_DP = const(121)
_HAND = const(2)
_INHAND = const(128)
_MAZZO = const(0)
_OVER = const(129)
_TURN = const(122)

# scopa.rules' games
_SC1 = const(1)  # SCOPONE
_SC2 = const(2)  # SCOPONE_SCIENTIFICO
_ASSI = const(3)  # SCOPA_D_ASSI
_S15 = const(4)  # SCOPA_15
_CIR = const(5)  # CIRULLA
_SC3 = const(6)  # SCOPONE_10

MAXD = const(14)  # deepest search, plies
INF = const(30000)
KMIN = const(1)  # samples at least ...
KMAX = const(40)  # ... and at most
ROOTMAX = const(8)  # candidate moves searched (the medium player's best)
# ... and where every hand is known (two players, last deal), every legal
# move up to this many: a Scopa a 15 hand of 2C 3B 4B on a table of seven
# has ten, and the one that ties the denari was the medium player's ninth
ROOTALL = const(24)
EXACT = const(400)  # search to the end when the lines left are fewer
_SAMPLE = const(8)  # nodes of a sampled deal
_PICK = const(8)  # nodes of a medium player's move besides its scored moves (view, moves)
DEFAULT_NODES = const(200)  # nodes_for(None): the budget when the rules are not given
# By family (family()): 0 Scopa, 1 Scopa d'Assi, 2 Scopa a 15, 3 Cirulla,
# each with 2 players; 4 any game with 3 players; 5 Scopa and
# Scopa d'Assi with 4; 6 any game with 6; 7 Scopone scientifico, 8
# Scopone (classico), 9 Scopone a 10; 10 Cirulla with 4 (the search of 5,
# its own budget: a Cirulla node costs more); 11 Scopa a 15 with 6 (the
# search of 6, its own budget: its nodes cost about 1.15 times as much).
# The default budget (nodes_for), in tens of nodes, calibrated so that
# the p95 decision time on the unix port (the flash tool's build: native
# scopa.engine and ai.core, viper ai.leaf and scopa.group) stays within 10
# ms on issue 12's idle machine, where 10 ms is 48.8 M instructions (x64,
# callgrind) and the reference decision takes 23.9 M for its 4.9
# ms at p95 (tools/tournament.py --instructions; docs/ai-results.md,
# sixteenth and twenty-fifth passes: since the viper view, sweep_mask,
# medium risks and table grouping, every family's p95 is at most 7 ms, but
# the mixed 4-player team's turn search, SOLO, 8.3 ms, and with the nodes
# that time bought Scopa d'Assi 8.1 ms and Cirulla 8.9: twenty-sixth
# pass). With the nodes the
# native code buys: 2-player Scopa 2400 (1000 paired deals, three seeds:
# +0.05 over 1600; 2000: +0.04 less), 4-player Scopa 4000 (two seeds:
# +0.09 / +0.08 over 2550; 2900: +0.07 less; 5800, which the thirty-fifth
# pass's viper moves and plays pay for, gave the mixed team +0.002 +-
# 0.032 over 8000 paired deals, its p95 9.19 ms, 6.12 at 4000), Scopa
# d'Assi 3000 with the
# viper code (five seeds: +0.029 over 2000, +0.05 / +0.07 / -0.02 / 0.00 /
# +0.04, every seed then at or above +0.8; p95 8.14 ms by the count;
# 2000 had +0.07 over 1600), Cirulla 3200 with the viper code (four
# seeds of 1000 matches: 74.3% / 72.7% / 73.0% / 74.1%, at 2400 72.7% /
# 72.3% / 71.9% / 75.1%; p95 8.93 ms by the count; 2400 had 72.5% of 2000
# where 1700 had 71.1%), Scopone a 10 3200 with its later end search (ENDW; six seeds:
# +0.062 +- 0.053 over 2600, every seed at or above 0; p95 9.59 ms by the
# count, 7.64 at 2600; before ENDW 3100 gave -0.02; 3800 since its five-ply
# turn search, RISK: +0.029 +- 0.029 over 20000 paired deals, seeds 1 to
# 20, 13 above 0, +0.030 +- 0.038 over seeds 9 to 20 run after the choice;
# p95 9.19 ms by the count, 7.69 at 3200), 7200 since scopa.group's moves
# and plays and ai.leaf's threat took 47% off its p95 (4.82 ms at 3800:
# +0.030 +- 0.037 over 12000 paired deals, seeds 1 to 12, 8 above 0; p95
# 9.18 ms by the count; thirty-fifth pass), 6 players 4000 with
# ai.leaf (three seeds: +0.32 / +0.29 / +0.29, at 3600 +0.28 / +0.24 /
# +0.28; Scopa a 15 with 6 keeps 2000: at 3600 its p95 reached 10 ms
# without ai.leaf), and 5000 with the turn search in the last deal (PAIRS:
# +0.038 +- 0.032 over 4000 nodes with it, seeds 1 to 8, six above 0,
# where without it 5000 gave +0.023 +- 0.026; p95 8.50 ms by the count,
# Scopa d'Assi with 6 8.05).
# Without ai.leaf the first five took 10.5 to 12.7 ms at p95 by the count.
FAMILY = array("H", (240, 300, 130, 320, 130, 400, 500, 130, 160, 720, 200, 200))
# Deals tried for one consistent with the plays seen (core.hmove). In
# Scopone the checks cost more than the deals they would replace; in 4- and
# 6-player Scopa (the end of the round) 16 pay, the partners' plays
# unchecked (PARTNER); in the 2-player games 16 pay with a larger budget
# (2-player Scopa, 400 paired deals: +0.47 with 4 tries at 1300 nodes,
# +0.56 with 16, +0.67 with 16 at 1800; Cirulla at 1700 nodes +0.38
# points a round over two seeds of 400; Scopa d'Assi at 1600 nodes and a
# 15 at 1300, +0.06 and +0.12 over two seeds of 1000; docs/ai-results.md).
TRIES = bytearray((16, 16, 16, 16, 4, 16, 16, 1, 1, 1, 16, 16))
# Mid-round with four or six players: the medium player's best PAIRS[f]
# moves (0: play the medium player's move), when the second is within
# _PAIRM centipoints of the first, searched PAIRD[f] plies deep (a whole
# turn of the table: the partner's and both opponents' replies); with
# _INLAST added, in the last deal only. With six players beside hard
# partners, the medium player's two best six plies deep (a whole turn of
# the table) in the last deal, before the search to the end of the round
# reaches its end (the deal's first plays; MAXD): +0.042 +- 0.024 over
# 16000 paired deals at 4000 nodes (seeds 1 to 16, 14 above 0; p95 6.76
# ms by the count, 6.09 without), +0.064 +- 0.033 with 5000 (seeds 1 to
# 8, all above 0; p95 8.50 ms), where the same search in the first deal
# too had tied (+0.012 over seeds 1 to 3) and three candidates or eight
# plies lean negative (seven pay: PAIRD); in Scopa a 15 with six (2000
# nodes) +0.072 +- 0.046 over 6000 paired deals (seeds 1 to 6, all above
# 0; p95 3.87 ms, 3.32 without; docs/ai-results.md, twenty-eighth and
# thirty-second passes).
PAIRS = bytearray((0, 0, 0, 0, 0, 0, 0x82, 3, 3, 3, 0, 0x82))
_INLAST = const(128)
# The same where the seat's partners are not hard players (decide's
# `mates` 0: a person, or a medium or easy player), whom the turn search
# models as the medium player. In 4-player Scopa a hard player with a
# medium partner gains from it (+0.046 +- 0.047 over 4000 paired deals,
# seeds 1 to 4: +0.11, -0.04, +0.01, +0.11, at 4 plies), where a hard
# pair lost (-0.029 +- 0.106: docs/ai-results.md, twenty-fifth pass); so
# does it in Scopa d'Assi and Scopa a 15 with four (+0.09, +0.12 on 1000
# paired deals of seed 1: twenty-sixth pass). With six players, as beside
# hard partners, in the last deal (_INLAST): beside two medium partners
# +0.026 +- 0.024 over 8000 paired deals (seeds 1 to 8, six above 0;
# thirty-second pass).
SOLO = bytearray((0, 0, 0, 0, 0, 2, 0x82, 3, 3, 3, 0, 0))
_PAIRM = const(250)
# Plies of the turn search, by family: a turn of the table (4); beside a
# medium partner in 4-player Scopa (SOLO) six, on to the seat's own next
# move and the next opponent's reply (+0.044 +- 0.047 over 4000
# paired deals, seeds 1 to 4: -0.02, +0.12, +0.06, +0.02; 8.3 ms at p95
# by the count: docs/ai-results.md, twenty-fifth pass); with six players
# (PAIRS, the last deal) seven, on to the seat's own next move, the next
# opponent's capture at the leaf from the hand the deal gives it (RISK 0),
# not six (a whole turn of the table): +0.039 +- 0.028
# over 8000 paired deals at 5000 nodes with the odds (seeds 1 to 8, seven
# above 0; p95 10.10 ms by the count), and from the hand +0.034 +- 0.023
# over 12000 (seeds 1 to 12, eleven above 0; the row +0.43 / +0.42 / +0.44
# on seeds 1 to 3, +0.40 over 1 to 8); p95 9.22 ms by the count (8.61 at
# six plies; docs/ai-results.md, thirty-third pass); Scopa a 15 with six
# keeps six. In Scopone a 10 five, the same way on to the seat's own next
# move (RISK 0), not four (back to the seat): +0.053 +- 0.032 over 16000
# paired deals (seeds 1 to 16, 13 above 0; +0.045 +- 0.036 over seeds 4
# to 16, run after the choice), the row +0.61 / +0.66 / +0.56 on seeds 1
# to 3 (+0.54 / +0.56 / +0.47 before), +0.56 over 1 to 8 (+0.51); p95
# 7.69 ms by the count (6.12 at four plies), where five plies with the
# odds had lost (-0.055, twenty-sixth pass).
PAIRD = bytearray((4, 4, 4, 4, 4, 6, 7, 4, 4, 5, 4, 6))
# The search to the end of the round starts when its estimated work for one
# candidate on one deal (_depth) is at most nodes // ENDW[f]. In Scopone a 10
# a later start (12: at about 8 cards in the hands, not 12, with some 14
# deals, not 3; the turn search until then) gave +0.048 +- 0.036 over 6000
# paired deals (seeds 1 to 6: +0.07, +0.06, +0.07, +0.07, +0.01, +0.01;
# docs/ai-results.md, twenty-third pass); in classico and scientifico it
# lost (-0.11, -0.05).
ENDW = bytearray((3, 3, 3, 3, 3, 3, 3, 3, 3, 12, 3, 3))
# 1: the partners' plays are read as the medium player's (checked by
# _consistent; their lacks from core.observe); 0: they are not, a partner
# being a player of its own (a hard partner does not play as the medium
# player: on 400 paired deals, in 4-player Scopa at 16 tries +0.44 with
# them, +0.57 without; in Scopone classico +0.50 / +0.65, seed 2 +0.48 /
# +0.70; in scientifico +0.72 / +0.87, but a mixed team, Hard + Medium,
# +0.40 / +0.31: kept there; docs/ai-results.md)
PARTNER = bytearray((1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0))
# Mid-round: the lines of play searched, by players. 0 (partnerships): a few
# deals of the many hidden cards of three other hands estimate the risks
# worse than the medium player's exact odds, so mid-round it plays the
# medium player's move and searches only the end of the round.
LINES = bytearray((0, 0, 40, 40, 0, 0, 0))
# Mid-round with two or three players: the search's depth, at most LINES
# lines of the seat's own play and an estimated work of at most
# nodes // MIDW[f] for one candidate on one deal (_depth). In Cirulla a
# sixth, not a third: a position with five candidates had spent the whole
# budget on one deal searched to the round's end; shallower, on more
# deals, +0.027 +- 0.018 over 12000 paired deals (seeds 1 to 12, nine above
# 0; +0.022 +- 0.022 over seeds 5 to 12, run after the choice), where a
# ninth gave +0.022 +- 0.026 over seeds 1 to 8 and in 2-player Scopa
# +0.003 (docs/ai-results.md, thirty-seventh and thirty-eighth passes).
MIDW = bytearray((3, 3, 3, 6, 3, 3, 3, 3, 3, 3, 3, 3))

# Nodes per millisecond of budget, by platform (measured in 2-player Scopa
# and the Scopone games, docs/ai-results.md).
if sys.implementation.name != "micropython":
    NODES_PER_MS = 450  # CPython 3.11 here
elif sys.platform in ("linux", "darwin", "win32"):
    NODES_PER_MS = 300  # the unix port here (x86-64), bytecode: 260 to 390 (native: 450 to 570)
else:
    NODES_PER_MS = 3  # RP2040-class board, 125 MHz (80-100x slower)

_S = []  # per-ply states (filled by _init)
_MV = []  # per-ply move lists
_rmv = engine.Moves(256)  # the root's moves
# Stratified deals in Scopone a 10 (family 9, one try: no checks): each
# shuffle of the unseen cards is dealt _ROT times, the k-th rotated by
# k * n // _ROT places, so that the cards visit the hidden hands and the
# mazzo in turn. +0.030 +- 0.027 over 24000 paired deals (seeds 1 to 24,
# 14 above 0; +0.027 +- 0.028 without seed 1, where 3 was chosen), p95 6.15
# ms by the count (6.22 without); beside the mixed 4-player team's checks
# it lost (-0.088, -0.066: a deal rotated from one the checks refused is no
# fresh proposal; docs/ai-results.md, thirty-first pass).
_ROT = const(3)
_shuf = bytearray(80)  # a deal's unseen cards; from 40, the last shuffle (_ROT)
_unseen = bytearray(40)  # the root seat's view (core.view), kept through the search
_known = bytearray(8)
_nun = bytearray(3)  # the unseen cards; deals a shuffle (_ROT, or 0); the deal's place among them
_lacks = [0] * 8  # core.lacks when it holds for the state, else zeros
INFER = bytearray((1,))
MODEL = bytearray((1,))  # 1: the other sides play the medium player's move
# By family: 1, what an opponent can take at a leaf as odds from what the
# player saw (ai.core.risk); 0, its best capture with the hand the deal
# gives it (ai.core.threat), as for the seat's own side: with six players
# and in Scopone a 10 beside hard partners, where the turn search's
# leaves (seven plies, five) are an opponent's turn and the odds would
# cost too much time, or lost (PAIRD). Beside partners that are not hard
# players (SOLO) the turn search keeps the thirty-second pass's depth and
# the odds: the ply further was not measured there in Scopone a 10, and
# tied in 6 players (-0.002 +- 0.025 over 4 seeds; docs/ai-results.md,
# thirty-third pass).
RISK = bytearray((1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1))
# the root's candidates: their offsets in the move list, the search's
# values (their indices in _med while they are chosen), the medium scores
_roff = array("i", bytes(4 * ROOTALL))
_tot = array("i", bytes(4 * ROOTALL))
_med = array("i", bytes(256))  # the root's medium scores (64 moves; grows)
_rmed = array("i", bytes(4 * ROOTALL))
SHOWN = bytearray((1,))  # 1: a hand declared in Cirulla is dealt as shown (core.declared)
TIES = bytearray((1,))  # 1: break the last deal's minimax ties against the medium player (_ties)
MIX = bytearray((4,))  # weight of the medium score against the search's, in 1/4

_rules = None
_side = 0
_maxd = 2
_nodes = 0
_cap = 0
_model = 0
_model_all = 0
_partner = 1
_seat = 0
_root = 0  # nodes of the root's scoring (3 per move)


def _init():
    # top up, so that a MemoryError half way leaves nothing half made
    core.init_history()
    while len(_S) <= MAXD:
        _S.append(bytearray(engine.SIZE))
    while len(_MV) <= MAXD:
        _MV.append(engine.Moves(160))


def _sample(st, rng, w):
    # deal the unseen cards (core.view) into the hidden hands and the mazzo
    n = _nun[0]
    r = _nun[1]
    t = _nun[2]
    if t:  # the last shuffle again, rotated (_ROT)
        t = t * n // r
        for i in range(n):
            j = i + t
            _shuf[i] = _shuf[40 + j - n if j >= n else 40 + j]
    else:
        for i in range(n):
            _shuf[i] = _unseen[i]
        rng.shuffle(_shuf, n)
        if r:
            for i in range(n):
                _shuf[40 + i] = _shuf[i]
    if r:
        _nun[2] = (_nun[2] + 1) % r
    w[:] = st
    k = 0
    for s in range(core.players):
        if not _known[s]:
            no = _lacks[s]
            for _ in range(core.hand_size(st, s)):
                q = k
                if no:
                    # a card of a value the seat showed it lacks goes elsewhere
                    while q < n and (no >> (_shuf[q] % 10 + 1)) & 1:
                        q += 1
                    if q == n:
                        q = k
                c = _shuf[q]
                _shuf[q] = _shuf[k]
                _shuf[k] = c
                w[c] = _HAND + s
                k += 1
    dp = st[_DP]
    for i in range(40 - dp):
        c = _shuf[k]
        k += 1
        w[c] = _MAZZO
        w[_DECK + dp + i] = c


def _consistent(w):
    # would each hidden seat, holding in this deal what the sample `w` gives
    # it, have made its plays of this deal as the medium player would? (the
    # state before each play: the record's first, the plays before it made)
    global _nodes
    r = _S[MAXD]
    p = _S[MAXD - 1]
    mv = _MV[MAXD]
    m = core.hmove
    p[:] = core.hist0
    pl = core.players
    for j in range(core.hist_n):
        if j:
            _advance(p, m, core.HSTEP * (j - 1))
        s = p[_TURN]
        if _known[s] or (not _partner and s % core.sides == _side):
            continue
        r[:] = p
        h = _HAND + s
        for c in range(40):
            if w[c] == h:
                r[c] = h
        j2 = j
        while j2 < core.hist_n:  # its plays, one a turn of the table (a range of a step allocates)
            r[m[core.HSTEP * j2]] = h
            j2 += pl
        o = medium.pick(r, _rules, s, mv)
        _nodes += _PICK + 3 * mv.n
        q = core.HSTEP * j
        b = mv.buf
        n = m[q + 1]
        if b[o] != m[q] or b[o + 1] != n:
            return False
        for i in range(n):
            t = m[q + 2 + i]
            ok = False
            for x in range(n):
                if b[o + 2 + x] == t:
                    ok = True
            if not ok:
                return False
    return True


def _advance(p, m, o):
    # the public state `p` after the play at offset `o` of the record `m`
    # (core.hmove), its card from the hand of the seat to play; the
    # mazzo's stand-in order (core.public) made again only before a deal's
    # last play, the one that may deal from it
    p[m[o]] = _HAND + p[_TURN]
    engine.apply(p, _rules, m, o)
    if p[_INHAND] <= 1:
        core.public(p)


def _search(d, alpha, beta):
    global _nodes
    st = _S[d]
    _nodes += 1
    if st[_OVER]:
        return core.util(st, _side)
    if d >= _maxd or _nodes > _cap:
        if not _model_all and st[_TURN] % core.sides != _side:
            return core.util(st, _side) + core.risk(st, _seat)
        return core.util(st, _side) + core.threat(st, _side)
    mv = _MV[d]
    nx = _S[d + 1]
    seat = st[_TURN]
    if _model and (_model == 2 or seat != _seat):
        # every other seat, a partner too, plays as the medium player would:
        # it cannot see the hands of this deal either
        o = medium.pick(st, _rules, seat, mv)
        _nodes += _PICK + 3 * mv.n  # a scored move costs about three nodes
        nx[:] = st
        engine.apply(nx, _rules, mv.buf, o)
        return _search(d + 1, alpha, beta)
    engine.gen_moves(st, _rules, mv)
    b = mv.buf
    end = mv.end
    maxi = st[_TURN] % core.sides == _side
    best = -INF if maxi else INF
    for lay in (0, 1):  # captures first
        o = 0
        while o < end:
            k = b[o + 1]
            if (k == 0) == lay:
                nx[:] = st
                engine.apply(nx, _rules, b, o)
                v = _search(d + 1, alpha, beta)
                if maxi:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                else:
                    if v < best:
                        best = v
                        if v < beta:
                            beta = v
                if alpha >= beta:
                    return best
            o += 2 + k
    return best


def _ties(nr, b, s0, s1):
    # every hand known (two players, last deal): _tot holds each move's
    # exact minimax value; among the moves of the best one, the one worth
    # most against a player who replies as the medium player would
    global _model
    top = -INF
    for i in range(nr):
        if _tot[i] > top:
            top = _tot[i]
    _model = 1  # within the decision's cap: cut short, the values are estimates
    for i in range(nr):
        if _tot[i] == top:
            s1[:] = s0
            engine.apply(s1, _rules, b, _roff[i])
            _tot[i] = _search(1, -INF, INF)
        else:
            _tot[i] = -INF
    _model = 0


def _depth(st, limit, work):
    # the most plies (at least 1) whose lines of play number at most limit
    # and whose nodes are about `work` at most, to the end of this deal, or
    # of the round when only the last deal is still to come (whose hands
    # every seat can then count); with the model, only the player's own
    # plies branch, the others cost a scored move each (3 nodes). MAXD + 1:
    # to the end of the round.
    n = st[_INHAND]
    seat = st[_TURN]
    p = core.players
    h = core.hand
    more = (40 - st[_DP]) // (h * p)
    total = n + h * p if more == 1 else n
    prod = 1
    cost = 0
    for i in range(total):
        if i >= MAXD:
            return n if n < MAXD else MAXD
        s = (seat + i) % p
        size = core.hand_size(st, s) - i // p if i < n else h - (i - n) // p
        if not _model or (_model == 1 and s == _seat):
            prod *= size
            cost += prod
        else:
            cost += prod * (_PICK + 3 * size)
        if prod > limit or cost > work:
            if i >= n:
                return n
            return i if i > 1 else 1
    return MAXD + 1 if more <= 1 else n


def decide(st, rules, seat, rng, nodes=None, mv=None, mates=1):
    """Search and return the offset of the chosen move in `mv` (an
    engine.Moves; the module's own when None, see `moves()`), filled here with
    the legal moves of `seat`, the seat to play. `nodes`: the budget (the
    family's default when None); `_nodes + _root` is then the nodes used.
    `mates`: 1 when the seat's partners are hard players too, 0 when not
    (SOLO)."""
    global _rules, _side, _maxd, _nodes, _cap, _med, _model, _model_all, _seat, _root
    global _partner
    _init()
    _nodes = 0
    _root = 0
    fam = family(rules)
    if nodes is None:
        nodes = 10 * FAMILY[fam]
    if mv is None:
        mv = _rmv
    core.setup(rules)
    _rules = rules
    n = engine.gen_moves(st, rules, mv, seat)
    if n == 1:
        return 0
    if n > len(_med):
        _med = array("i", bytes(4 * n))
    use = INFER[0] and core.observed(st)
    for i in range(8):
        _lacks[i] = core.lacks[i] if use else 0
        if not PARTNER[fam] and i % core.sides == seat % core.sides and i != seat:
            _lacks[i] = 0
    medium.score(st, rules, seat, mv, _med)  # also fills core.view for seat
    if rules.game == _CIR:
        m = core.declared(st) & ~(1 << seat) if SHOWN[0] else 0
        if m:
            core.show(st, m)  # medium's scores stay its own: it reads no declaration
    _root = _PICK + 3 * n
    b = mv.buf
    # every unseen card's place known: all of them in the one hidden hand
    # that holds cards (two players; with more, the others seen, as a
    # declared Cirulla hand), the mazzo empty
    unique = core.last_deal(st)
    h = -1
    for s in range(core.players):
        if unique and not core.known[s] and core.hand_size(st, s):
            unique = h < 0
            h = s
    unique = unique and core.nun <= (core.hand_size(st, h) if h >= 0 else 0)
    # the ROOTMAX best moves by the medium player's score (every move,
    # up to ROOTALL, where the search is exact)
    top = ROOTALL if unique else ROOTMAX
    nr = 0
    o = 0
    for i in range(n):
        v = _med[i]
        j = nr
        if j < top:
            nr += 1
        elif v <= _med[_tot[top - 1]]:
            o += 2 + b[o + 1]
            continue
        else:
            j = top - 1
        while j > 0 and _med[_tot[j - 1]] < v:
            _tot[j] = _tot[j - 1]
            _rmed[j] = _rmed[j - 1]
            _roff[j] = _roff[j - 1]
            j -= 1
        _tot[j] = i
        _rmed[j] = v
        _roff[j] = o
        o += 2 + b[o + 1]
    if nr == 1:
        return _roff[0]
    for i in range(nr):
        _tot[i] = 0  # candidates are in the medium player's order: ties go to its choice
    _side = seat % core.sides
    _seat = seat
    _partner = PARTNER[fam]
    # depth: to the end when the last deal is small enough, else short
    # with every hand known (two players, last deal) each reply is searched;
    # else the other side plays the medium player's move
    _model = 0 if unique else MODEL[0]
    if core.last_deal(st) and _depth(st, EXACT, nodes if unique else nodes // ENDW[fam]) > MAXD:
        _maxd = MAXD  # to the end of the round
    else:
        lim = LINES[core.players]
        if not lim:
            pairs = PAIRS[fam] if mates else SOLO[fam]
            if pairs & _INLAST:
                pairs = pairs - _INLAST if core.last_deal(st) else 0
            if not pairs or _rmed[0] - _rmed[1] > _PAIRM:
                return _roff[0]
            if nr > pairs:
                nr = pairs
            # (beside partners that are not hard players the ply past the
            # seat's side only where the odds price it: RISK, measured so)
            _maxd = PAIRD[fam] if mates or RISK[fam] else PAIRD[fam] - 1
        else:
            _maxd = _depth(st, lim, nodes // MIDW[fam])
        if _maxd > MAXD:
            _maxd = MAXD
    _model_all = _model == 2 or (mates and not RISK[fam])  # (no odds at the leaves: RISK)
    for i in range(40):
        _unseen[i] = core.unseen[i]
    for i in range(8):
        _known[i] = core.known[i]
    _nun[0] = core.nun
    _nun[1] = _ROT if fam == 9 else 0
    _nun[2] = 0
    _nodes = 0
    _cap = nodes + nodes // 4
    s0 = _S[0]
    s1 = _S[1]
    k = 0
    tries = TRIES[fam] if INFER[0] and core.hist_n and core.observed(st) else 1
    while True:
        t = 0
        while True:
            _sample(st, rng, s0)
            _nodes += _SAMPLE
            t += 1
            if t >= tries or _consistent(s0):
                break
        for i in range(nr):
            s1[:] = s0
            engine.apply(s1, rules, b, _roff[i])
            _tot[i] += _search(1, -INF, INF)
            if i >= ROOTMAX and _nodes > _cap:
                nr = i  # (a move past the medium player's best: compared when searched whole)
                break
        if unique and TIES[0]:
            _ties(nr, b, s0, s1)
        k += 1
        if unique or k >= KMAX or (k >= KMIN and _nodes + _nodes // k > nodes):
            break
    mix = 0 if unique and TIES[0] else MIX[0]  # exact values: no rule of thumb
    for i in range(nr):
        _tot[i] = _tot[i] // k + mix * _rmed[i] // 4
    best = 0
    for i in range(1, nr):
        if _tot[i] > _tot[best]:
            best = i
    return _roff[best]


def moves():
    """The module's root move list (after `decide` with mv None)."""
    return _rmv


def family(rules):
    """The family of `rules` (0..11, see FAMILY) that sets the hard player's
    default budget and search."""
    p = rules.players
    g = rules.game
    if p == 2:
        return 1 if g == _ASSI else 2 if g == _S15 else 3 if g == _CIR else 0
    if p == 4:
        return 7 if g == _SC2 else 8 if g == _SC1 else 9 if g == _SC3 else 10 if g == _CIR else 5
    return 4 if p == 3 else 11 if g == _S15 else 6


def nodes_for(budget_ms, rules=None):
    """Node budget for `budget_ms` milliseconds on this platform; when None
    the default: of the family of `rules` (FAMILY), DEFAULT_NODES
    without rules."""
    if budget_ms is None:
        return DEFAULT_NODES if rules is None else 10 * FAMILY[family(rules)]
    n = budget_ms * NODES_PER_MS
    return n if n > 1 else 1


def choose(st, rules, seat, rng, budget_ms=None, nodes=None, mates=1):
    """The move for `seat` (the seat to play) as ``(card, taken)``.
    `rng`: a scopa.rng.Rng (the samples); `nodes` overrides `budget_ms`;
    `mates`: 0 when the seat's partners are not hard players (decide)."""
    if nodes is None:
        nodes = nodes_for(budget_ms, rules)
    o = decide(st, rules, seat, rng, nodes, None, mates)
    return _rmv.move(o)
