"""The computer players (firmware/ai): legal moves in every family,
determinism, no peeking at hidden cards, the hint, the exact score at the
end of a round, and a whole hard-vs-hard game in a 96 KiB heap from the
firmware compiled to .mpy. No timed assertions: strength and speed are
measured by tools/tournament.py (docs/ai-results.md)."""

import os
import re

import pytest

import mpy
from ai import core, easy, hard, hint, medium
from scopa import engine as E
from scopa import scoring
from scopa.game import Game
from scopa.rng import Rng
from scopa.rules import CIRULLA, GAMES, Rules
from selfplay import FAMILIES, applicable, random_rules

OPTIONS = [
    {},
    {"match_priority": "free", "capture_mandatory": False},
    {"sum_choice": "fewest", "napola": True, "re_bello": "10D"},
    {"partners_visible": True, "ace_on_ace": "all", "primiera_missing_suit": "zero"},
]

NODES = 40  # a small search budget: fast on CPython, same code paths


def _rules(game, players, opts=None):
    opts = dict(opts or {}, players=players)
    return Rules(game, **applicable(game, opts))


def _choose(level, st, rules, seat, rng):
    if level == "easy":
        return easy.choose(st, rules, seat, rng)
    if level == "medium":
        return medium.choose(st, rules, seat, rng)
    if level == "hard":
        return hard.choose(st, rules, seat, rng, nodes=NODES)
    c, t, why = hint.hint(st, rules, seat, rng, nodes=NODES)
    return c, t


def _positions(rules, seed, count):
    """`count` states along a game of random legal moves (copies)."""
    g = Game(rules, seed)
    rng = Rng(seed + 7)
    out = []
    while len(out) < count:
        moves = g.legal_moves()
        if rng.below(2):
            out.append(bytearray(g.st))
        c, t = moves[rng.below(len(moves))]
        g.play(c, t)
        if g.round_over:
            if g.finished:
                g = Game(rules, seed + len(out) + 1)
            else:
                g.next_round()
    return out


def _legal(st, rules):
    mv = E.Moves()
    E.gen_moves(st, rules, mv)
    return {(c, tuple(sorted(t))) for c, t in mv.tuples()}


@pytest.mark.parametrize("game,players", FAMILIES)
def test_whole_round_every_level_plays_legal_moves(game, players):
    for k, opts in enumerate(OPTIONS):
        rules = _rules(game, players, opts)
        g = Game(rules, 100 + k)
        levels = ("hard", "medium", "easy", "hint", "hard", "medium")
        rngs = [Rng(s + 1) for s in range(players)]
        while not g.round_over:
            seat = g.turn
            lv = levels[(seat + k) % len(levels)]
            card, taken = _choose(lv, g.st, rules, seat, rngs[seat])
            assert isinstance(taken, tuple)
            assert (card, tuple(sorted(taken))) in _legal(g.st, rules), (lv, card, taken)
            g.play(card, taken)


@pytest.mark.parametrize("game,players", FAMILIES)
def test_random_positions_legal_and_deterministic(game, players):
    rules = _rules(game, players, OPTIONS[len(game) % len(OPTIONS)])
    for st in _positions(rules, 7 + players, 6):
        seat = st[E.TURN]
        legal = _legal(st, rules)
        for lv in ("easy", "medium", "hard", "hint"):
            before = bytes(st)
            a = _choose(lv, st, rules, seat, Rng(99))
            assert bytes(st) == before, "the player changed the state"
            assert (a[0], tuple(sorted(a[1]))) in legal
            assert _choose(lv, st, rules, seat, Rng(99)) == a


def _dealt_declarations(st, rules):
    """Cirulla, before a deal's first play: the seats whose hands as dealt
    declare (bit per seat), read from the engine, not from firmware/ai."""
    if rules.game != CIRULLA or st[E.INHAND] != rules.hand * rules.players:
        return 0
    m = 0
    for s in range(rules.players):
        if E.declaration(bytes(c for c in range(40) if st[c] == E.HAND + s)):
            m |= 1 << s
    return m


def _reshuffle_hidden(st, rules, seat, rng, shown=None):
    """Another layout of the hidden cards that `seat` cannot tell apart:
    the same seen cards, hands of the same sizes, another mazzo order and
    another (never read) record of the cards already dealt. In Cirulla a
    hand declared this deal (`shown`, bit per seat; by default the hands
    as dealt when no one has played yet) is seen, and before the deal's
    first play no other hand may declare."""
    st2 = bytearray(st)
    known = {seat}
    if rules.partners_visible and rules.players >= 4:
        known = {s for s in range(rules.players) if s % rules.sides == seat % rules.sides}
    if shown is None:
        shown = _dealt_declarations(st, rules)
    known |= {s for s in range(rules.players) if shown >> s & 1}
    hidden = [
        c
        for c in range(40)
        if st[c] == E.MAZZO or (E.HAND <= st[c] < E.PILE and st[c] - E.HAND not in known)
    ]
    slots = [st[c] for c in hidden]
    perm = list(hidden)
    rng.shuffle(perm)
    for c, loc in zip(perm, slots):
        st2[c] = loc
    if _dealt_declarations(st2, rules) != _dealt_declarations(st, rules):
        # another hand that declares is told apart: try again
        return _reshuffle_hidden(st, rules, seat, rng, shown)
    if st2[:40] == st[:40] and len(set(slots)) > 1:
        # no hidden card moved (a generator's first draws can leave them): again
        return _reshuffle_hidden(st, rules, seat, rng, shown)
    mazzo = [c for c in perm if st2[c] == E.MAZZO]
    dp = st[E.DP]
    assert len(mazzo) == 40 - dp
    rest = [c for c in range(40) if c not in mazzo]
    rng.shuffle(rest)
    st2[E.DECK : E.DECK + 40] = bytes(rest + mazzo)
    return st2


@pytest.mark.parametrize("game,players", FAMILIES)
def test_no_peeking(game, players):
    for k, opts in enumerate(OPTIONS[:: 3 if players < 4 else 1]):
        rules = _rules(game, players, opts)
        for st in _positions(rules, 31 + k, 4):
            seat = st[E.TURN]
            rng = Rng(5)
            others = [_reshuffle_hidden(st, rules, seat, rng) for _ in range(2)]
            assert any(o != st for o in others) or st[E.INHAND] == 0
            for lv in ("easy", "medium", "hard", "hint"):
                a = _choose(lv, st, rules, seat, Rng(3))
                for o in others:
                    assert _choose(lv, o, rules, seat, Rng(3)) == a, (lv, game, players)


def _declaring_deals(rules, want):
    """Yield (seat that declared, seat that decides, state, the seats that
    declared as a bit mask) for `want` Cirulla turns in a deal where a
    seat's hand declared, at the first turn of each seat in the deal, every
    play before it observed (use each before the next: observe() keeps one
    deal's note). Who declared is read from the engine at the deal's
    start (_dealt_declarations), not from firmware/ai."""
    seed = 0
    n = 0
    while n < want:
        seed += 1
        g = Game(rules, seed)
        rng = Rng(seed)
        shown = 0
        while not g.round_over and n < want:
            if g.st[E.INHAND] == rules.hand * rules.players:
                shown = _dealt_declarations(g.st, rules)
            first = g.st[E.INHAND] > rules.hand * (rules.players - 1)
            seat = g.turn
            for d in range(rules.players):
                if first and d != seat and shown >> d & 1 and n < want:
                    n += 1
                    yield d, seat, bytearray(g.st), shown
            moves = g.legal_moves()
            card, taken = moves[rng.below(len(moves))]
            core.observe(g.st, rules, card, tuple(taken))
            g.play(card, taken)


def test_cirullas_search_mid_round_spreads_over_deals(monkeypatch):
    # a Cirulla decision mid-round rested on one or two sampled deals: a
    # third of the budget for one candidate on one deal let the search run
    # to the round's end on the first; at a sixth (MIDW) it is shallower,
    # on five deals or more (docs/ai-results.md, thirty-eighth pass)
    rules = _rules("cirulla", 2)
    assert hard.MIDW[hard.family(rules)] == 6
    calls = [0]
    real = hard._search

    def counted(d, alpha, beta):
        calls[0] += d == 1  # a candidate searched on one deal
        return real(d, alpha, beta)

    monkeypatch.setattr(hard, "_search", counted)

    def fewest():
        least = 99
        for st in _positions(rules, 6, 80):
            core.setup(rules)
            n = E.gen_moves(st, rules, E.Moves())
            if core.last_deal(st) or n < 2:
                continue  # (the last deal's search; no choice)
            calls[0] = 0
            hard.choose(st, rules, st[E.TURN], Rng(5))
            least = min(least, calls[0] // min(n, hard.ROOTMAX))
        return least

    assert fewest() >= 5
    monkeypatch.setattr(hard, "MIDW", bytearray((3,) * len(hard.MIDW)))
    assert fewest() <= 2


@pytest.mark.parametrize("players", [2, 4])
def test_hard_deals_a_declared_cirulla_hand_as_shown(players):
    # a Cirulla hand that declares is shown (Parlett p.138): the hard
    # player's deals give that seat its real cards, before the deal's first
    # play and after it (read then from observe()'s note of that play)
    rules = _rules("cirulla", players)
    firsts = 0
    searched = 0
    for d, seat, st, _shown in _declaring_deals(rules, 60 if players == 4 else 24):
        mv = E.Moves()
        if E.gen_moves(st, rules, mv, seat) < 3:
            continue  # decided without a search
        hard.decide(st, rules, seat, Rng(4))
        if not hard._nodes:
            continue  # the medium player's move (4 players, mid-round)
        searched += 1
        firsts += st[E.INHAND] == rules.hand * players
        assert hard._known[d], (d, seat)
        w = hard._S[0]
        for c in range(40):
            if st[c] == E.HAND + d:
                assert w[c] == E.HAND + d, (d, seat, c)
    assert searched >= 6 and 0 < firsts < searched  # both ways of knowing are covered


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_declared_cirulla_hand_is_all_the_hard_player_reads(players):
    # the hard player and the hint read the declared hands and nothing
    # else: their choice is the same for every layout of the cards still
    # hidden (with 3 and 4 players other hands stay hidden beside the
    # declared one); the medium player reads no declaration (issue 12
    # keeps it as it is), and no layout changes its choice either
    # (the family's own budget: NODES searches too little to read a hand)
    rules = _rules("cirulla", players)
    levels = {
        "medium": lambda x, seat: medium.choose(x, rules, seat, Rng(3)),
        "hard": lambda x, seat: hard.choose(x, rules, seat, Rng(3)),
        "hint": lambda x, seat: hint.hint(x, rules, seat, Rng(3))[:2],
    }
    for d, seat, st, shown in _declaring_deals(rules, 12):
        others = [_reshuffle_hidden(st, rules, seat, Rng(20 + i), shown) for i in range(2)]
        for lv, choose in levels.items():
            a = choose(st, seat)
            for o in others:
                assert choose(o, seat) == a, (lv, d, seat)


def test_a_declared_next_hand_does_not_make_the_others_known():
    # 4 players, last deal: with the next seat's declared hand seen, the
    # unseen cards may still number no more than its hand while another
    # hidden hand holds some; the search took that deal as fully known
    # and searched one sampled layout exactly, as if it were the real one
    # (a reviewer's find). Only a deal with every hidden card placed is.
    rules = _rules("cirulla", 4)
    seen = 0
    seed = 0
    while seen < 5 and seed < 400:
        seed += 1
        g = Game(rules, seed)
        rng = Rng(seed)
        shown = 0
        while not g.round_over:
            st = g.st
            if st[E.INHAND] == 12:
                shown = _dealt_declarations(st, rules)
            seat = g.turn
            nxt = (seat + 1) % 4
            # the hands this seat has not seen that hold cards, and their cards
            hidden = [
                s
                for s in range(4)
                if s not in (seat, nxt) and not shown >> s & 1 and core.hand_size(st, s)
            ]
            unseen = sum(core.hand_size(st, s) for s in hidden)
            few = unseen <= core.hand_size(st, nxt)
            if core.last_deal(st) and shown >> nxt & 1 and few and len(hidden) > 1:
                hard.decide(bytearray(st), rules, seat, Rng(1))
                if hard._nodes and len(g.legal_moves()) > 1:
                    seen += 1
                    assert hard._model == hard.MODEL[0], (seed, st[E.PLY])
            moves = g.legal_moves()
            card, taken = moves[rng.below(len(moves))]
            core.observe(g.st, rules, card, tuple(taken))
            g.play(card, taken)
    assert seen >= 5


def test_a_declaration_is_read_only_in_its_own_deal():
    # observe()'s note of the deal's declarations holds for that deal only:
    # another deal, of this game or another, is read afresh or not at all
    rules = _rules("cirulla", 2)
    d, seat, st, shown = next(_declaring_deals(rules, 1))
    core.setup(rules)
    assert core.declared(st) == shown
    g = Game(rules, 1000)
    while g.st[E.INHAND] > 3:
        g.play(*g.legal_moves()[0])
    assert core.declared(g.st) == 0  # mid-deal, its first play not observed
    g2 = Game(rules, 1001)
    assert core.declared(g2.st) == _dealt_declarations(g2.st, rules)  # before a first play


@pytest.mark.parametrize("game,players", [("scopa", 2), ("scopone_scientifico", 4), ("cirulla", 2)])
def test_the_record_of_plays_holds_no_hidden_card(game, players):
    # what observe() keeps of a play (the hard player deals its samples by
    # it) is the same whatever the hidden hands and the mazzo hold
    rules = _rules(game, players)
    for st in _positions(rules, 77, 6):
        seat = st[E.TURN]
        card, taken = _legal_list(st, rules)[0]
        others = [_reshuffle_hidden(st, rules, seat, Rng(9 + i)) for i in range(2)]
        seen = []
        for o in [st] + others:
            core.hist_n = 0
            core._lk[1] = 255  # a fresh deal for observe()
            core.observe(o, rules, card, taken)
            o = core.HSTEP * (core.hist_n - 1)
            play = bytes(core.hmove[o : o + core.HSTEP])
            seen.append((bytes(core.hist0), play, list(core.lacks)))
        assert seen[1] == seen[0] and seen[2] == seen[0]


@pytest.mark.parametrize(
    "game,players",
    [
        ("scopa", 4),
        ("scopa", 6),
        ("cirulla", 4),
        ("scopa_15", 6),
        ("scopa_d_assi", 6),
        ("cirulla", 2),
    ],
)
def test_the_record_rebuilds_the_state_before_each_play(game, players):
    # observe() keeps a deal's first state and its plays, not a state a
    # play (0.5 KiB for every play before the hands' last cards with six
    # players, where 9 states took 1.4): the hard player's checks rebuild
    # the state before each play by making the plays before it. It is the
    # state the table showed then, every hidden card in the mazzo
    rules = _rules(game, players)
    core.setup(rules)
    hard._rules = rules
    p = bytearray(E.SIZE)
    want = bytearray(E.SIZE)
    checked = 0
    for seed in range(3):
        g = Game(rules, 40 + seed)
        rng = Rng(seed)
        while not g.round_over:
            moves = g.legal_moves()
            card, taken = moves[rng.below(len(moves))]
            n = core.hist_n if core.observed(g.st) else 0
            core.observe(g.st, rules, card, tuple(taken))
            if core.hist_n == n + 1:  # recorded
                want[:] = g.st
                core.public(want)
                p[:] = core.hist0
                for j in range(n):
                    hard._advance(p, core.hmove, core.HSTEP * j)
                # (the mazzo's stand-in order too before a deal's last play,
                # which deals from it)
                deck = slice(E.DECK, E.DECK + 40) if p[E.INHAND] > 1 else slice(0, 0)
                p[deck] = want[deck]
                assert p == want, (seed, g.st[E.PLY])
                checked += 1
            else:
                assert core.hist_n == n == core.HMAX
            g.play(card, taken)
    assert checked >= 3 * min(core.HMAX, rules.players * rules.hand)


def test_the_record_stops_at_a_play_not_observed():
    # a reviewer's: a catch-up cut short by the heap (turns.catch_up) leaves
    # a play of the deal unobserved; the plays after it, recorded after the
    # one before, rebuilt states the table never showed. The record stops
    rules = _rules("scopa", 6)
    core.setup(rules)
    g = Game(rules, 5)
    rng = Rng(2)
    for i in range(5):
        moves = g.legal_moves()
        card, taken = moves[rng.below(len(moves))]
        if i != 2:  # the third play not observed
            core.observe(g.st, rules, card, tuple(taken))
        g.play(card, taken)
    assert core.observed(g.st) and core.hist_n == 2


def _legal_list(st, rules):
    mv = E.Moves()
    E.gen_moves(st, rules, mv)
    return mv.tuples()


def test_hint_names_the_hard_move_and_a_reason():
    rules = Rules("scopa")
    for st in _positions(rules, 3, 12):
        seat = st[E.TURN]
        c, t, why = hint.hint(st, rules, seat, Rng(1), nodes=NODES)
        assert (c, t) == hard.choose(st, rules, seat, Rng(1), nodes=NODES)
        assert (c, tuple(sorted(t))) in _legal(st, rules)
        assert isinstance(why, str) and 3 <= len(why) <= 32


@pytest.mark.parametrize("game,players", FAMILIES)
def test_hint_names_the_hard_move_in_every_family(game, players):
    rules = _rules(game, players)
    for st in _positions(rules, 13 + players, 4):
        seat = st[E.TURN]
        c, t, why = hint.hint(st, rules, seat, Rng(2), nodes=NODES)
        assert (c, t) == hard.choose(st, rules, seat, Rng(2), nodes=NODES)
        # the cards it names are the move: playing them is legal
        assert (c, tuple(sorted(t))) in _legal(st, rules), (game, players)


def test_every_game_has_a_family_in_every_table():
    # each game and player count the rules allow reads its knobs from one
    # family index, present in every per-family table
    tables = (hard.FAMILY, hard.TRIES, hard.PAIRS, hard.SOLO, hard.PAIRD, hard.PARTNER)
    seen = set()
    for game in GAMES:
        for players in (2, 3, 4, 6):
            try:
                rules = Rules(game, players=players)
            except ValueError:
                continue
            f = hard.family(rules)
            seen.add(f)
            assert all(0 <= f < len(t) for t in tables), (game, players, f)
    assert seen == set(range(len(hard.FAMILY)))  # no table row unused
    assert len({len(t) for t in tables}) == 1


@pytest.mark.parametrize("game,players", FAMILIES + [("scopa_15", 6), ("scopa_d_assi", 6)])
def test_default_budget_is_the_family_s_and_deterministic(game, players):
    rules = _rules(game, players)
    budget = hard.nodes_for(None, rules)
    assert budget == 10 * hard.FAMILY[hard.family(rules)] > 0
    for st in _positions(rules, 19 + players, 3):
        seat = st[E.TURN]
        a = hard.choose(st, rules, seat, Rng(4))
        assert (a[0], tuple(sorted(a[1]))) in _legal(st, rules)
        assert hard._nodes + hard._root <= budget * 2
        assert hard.choose(st, rules, seat, Rng(4)) == a


def _state(rules, hand, table, seat=0, piles=()):
    st = E.new_state()
    st[E.DEALER] = rules.players - 1
    st[E.TURN] = seat
    for c in hand:
        st[c] = E.HAND + seat
    for i, c in enumerate(table):
        st[c] = E.TABLE
        st[E.TAB + i] = c
    st[E.NTAB] = len(table)
    for side, cs in enumerate(piles):
        for c in cs:
            st[c] = E.PILE + side
    # the other seats hold three cards each from the rest, the mazzo the others
    rest = [c for c in range(40) if st[c] == E.MAZZO]
    s = (seat + 1) % rules.players
    while s != seat:
        for _ in range(len(hand)):
            st[rest.pop()] = E.HAND + s
        s = (s + 1) % rules.players
    st[E.INHAND] = len(hand) * rules.players
    st[E.DP] = 40 - len(rest)
    for i, c in enumerate(rest):
        st[E.DECK + st[E.DP] + i] = c
    st[E.LAST] = E.NONE
    return st


def test_hint_reasons():
    rules = Rules("scopa")
    # 5 of coppe takes 2S + 3B: the table is cleared
    st = _state(rules, [14, 39, 28], [21, 32])
    assert hint.hint(st, rules, 0, Rng(1), nodes=200) == (14, (21, 32), "scopa")
    # the 7 of bastoni takes the settebello
    st = _state(rules, [36, 9, 19], [6, 29, 18])
    c, t, why = hint.hint(st, rules, 0, Rng(1), nodes=200)
    assert (c, t, why) == (36, (6,), "takes the settebello")
    # a 7 taking a 7: both go to the pile (a new user read "Takes 2
    # sevens" as two taken); the device's line says "Presa"
    st = _state(rules, [16, 9, 19], [26, 33])
    assert hint.why(st, rules, 0, 16, (26,)) == (hint.SEVENS, 2)
    assert hint.reason(st, rules, 0, 16, (26,)) == "2 sevens to the pile"
    import lang

    lang.load("en")
    assert lang.tr(lang.WHY_SCOPA + hint.SEVENS) % 2 == "Presa: 2 sevens"
    # a 7 taking 2 + 5 wins no seven from the table: every presa of that 7
    # holds it, so it says nothing of sevens (a new user's find)
    st = _state(rules, [16, 9, 19], [21, 34, 33])
    assert hint.why(st, rules, 0, 16, (21, 34))[0] not in (hint.A_SEVEN, hint.SEVENS)
    st = _state(rules, [39, 1, 12], [26, 32, 33])  # a King taking 7 + 3
    assert hint.why(st, rules, 0, 39, (26, 32)) == (hint.A_SEVEN, 1)


@pytest.mark.parametrize("game", ["cirulla", "scopa_d_assi", "scopa"])
def test_a_hint_that_keeps_the_ace_says_so(game):
    # a new user's Cirulla hint: the Ace of bastoni in hand, only the
    # Cavallo of spade on the table; the hint laid the 3 of denari as
    # "Least risky lay", where the Ace would have taken the table
    rules = Rules(game)
    st = _state(rules, [30, 2, 15], [28])
    lay = hint.why(st, rules, 0, 2, ())
    if rules.ace_takes_all:
        assert lay == (hint.KEEPS_ACE, 0)
        want = hint.SCOPA if rules.ace_sweep_scopa else hint.ACE_SWEEP
        assert hint.why(st, rules, 0, 30, (28,)) == (want, 0)
    else:
        assert lay[0] != hint.KEEPS_ACE and hint.why(st, rules, 0, 30, ())[0] != hint.KEEPS_ACE
    # Cirulla's matta (7C) standing as an Ace sweeps the 4S as the Ace does
    if game == "cirulla":
        st = _state(rules, [16, 11, 25], [23])
        assert hint.why(st, rules, 0, 11, ())[0] != hint.KEEPS_ACE  # a plain 7
        st[E.MATTA] = 1
        assert hint.why(st, rules, 0, 11, ()) == (hint.KEEPS_ACE, 0)
        assert hint.why(st, rules, 0, 16, (23,)) == (hint.SCOPA, 0)
    # the reasons of a move found before the Ace are kept (the settebello)
    st = _state(rules, [30, 36, 15], [6, 13])
    assert hint.why(st, rules, 0, 36, (6,)) == (hint.SETTEBELLO, 0)
    # without an Ace in hand, the lay's own reason
    st = _state(rules, [1, 2, 15], [28])
    assert hint.why(st, rules, 0, 2, ())[0] not in (hint.KEEPS_ACE, hint.SCOPA)


def test_a_risky_lay_says_why_when_a_safer_lay_is_there():
    rules = Rules("scopa")
    # 1D or 2D on the 3C: a 4 or a 5 sweeps, as many of each unseen
    st = _state(rules, [0, 1], [12])
    assert hint.why(st, rules, 0, 0, ()) == hint.why(st, rules, 0, 1, ()) == (hint.LEAST_RISK, 0)
    # the 8D on the 2C makes 10, for the 10B held (laying the 10B is safer)
    st = _state(rules, [7, 39], [11])
    assert hint.why(st, rules, 0, 7, ()) == (hint.SETS_UP, 0)
    assert hint.why(st, rules, 0, 39, ())[0] == hint.LEAVES
    # the 2C on the 6C makes 8, which the 9S held cannot take: laying the
    # 9S (15) was safer, so the lay holds on to the 9
    st = _state(rules, [11, 28], [15])
    # (the card itself: a rank's plural name said "Keeps 7s" of one card)
    assert hint.why(st, rules, 0, 11, ()) == (hint.HOLDS, 28)
    assert hint.reason(st, rules, 0, 11, ()) == "keeps the 9S for later"
    # the 1D on the 3C makes 4, and it is the only lay: the 3S must take the
    # 3C. Not "the least risky lay" of one, but the 3S kept
    st = _state(rules, [0, 22], [12])
    assert hint.why(st, rules, 0, 0, ()) == (hint.HOLDS, 22)
    # an illegal move is refused, as the docstring says: a card not held,
    # a lay where the card must take
    for card, taken in ((5, ()), (28, (11,))):
        with pytest.raises(E.IllegalMove):
            hint.why(st, rules, 0, card, taken)


def test_the_hint_leaves_the_menus_card_names_unloaded():
    # scopa.cards is the menu's (app._MENU_ONLY: a game does not keep it);
    # the hint had imported it to name the card it keeps, which cost a
    # game with hints some 5 KiB of heap (tools/bench_app.py)
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from ai import hint\n"
        "print(hint.REASONS[hint.HOLDS] % 'x', 'scopa.cards' in sys.modules)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, (mpy.SHIM, mpy.FIRMWARE))))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.split() == ["keeps", "the", "x", "for", "later", "False"], out


def test_a_forced_lay_and_an_all_seen_table_say_so():
    # the last card of the hand, a lay: the only move (not "least risky")
    rules = Rules("scopa")
    st = _state(rules, [7], [11])
    assert hint.why(st, rules, 0, 7, ()) == (hint.ONLY, 0)
    # a forced presa too (a new user's: "Presa: 2 cards"), unless it is
    # worth naming: the 4C must take the 4D; alone on the table, a scopa
    st = _state(rules, [13], [3, 25])
    assert hint.why(st, rules, 0, 13, (3,)) == (hint.ONLY, 0)
    # the 6S it leaves is safe once the other 6s are seen: said too
    st = _state(rules, [13], [3, 25], piles=((5, 15), (35,)))
    assert hint.why(st, rules, 0, 13, (3,)) == (hint.ONLY_SAFE, 0)
    assert hint.reason(st, rules, 0, 13, (3,)) == "the only move, no scopa"
    st = _state(rules, [13], [3])
    assert hint.why(st, rules, 0, 13, (3,)) == (hint.SCOPA, 0)
    # Cirulla: the 3D on the 6S makes 9, swept by a 9, a 6 (to 15) or an
    # Ace; every one of them seen: the rank named is the table's sum, 9
    rules = Rules("cirulla")
    seen = [0, 10, 20, 30, 5, 15, 35, 8, 18, 28, 38]
    st = _state(rules, [2, 13], [25], piles=((), seen))
    assert hint.why(st, rules, 0, 2, ()) == (hint.ALL_OUT, 9)
    # a new user's find: the 2B laid on the 7D makes 9, and the other 9s
    # are seen, but the seat holds the 9D itself: not "All 9s seen"
    rules = Rules("scopa")
    st = _state(rules, [8, 31], [6], piles=((), [18, 28, 38]))
    assert hint.why(st, rules, 0, 31, ()) == (hint.SETS_UP, 0)
    st = _state(rules, [0, 31], [6], piles=((), [8, 18, 28, 38]))
    assert hint.why(st, rules, 0, 31, ()) == (hint.ALL_OUT, 9)


def test_the_hints_safe_from_scopa_is_the_engines():
    # a reviewer's finds, where ai.core's sweep_mask prices the table
    # otherwise: with the Ace's take-all no scopa, an Ace still takes 7D +
    # 4S + 3C (14) by fifteen, a scopa ("Table sums 14, safe from scopa")
    safe = (hint.LEAVES, hint.ALL_OUT, hint.TAKES_SAFE)
    rules = Rules("cirulla", ace_sweep_scopa=False)
    st = _state(rules, [12, 38], [6, 23])
    assert hint.why(st, rules, 0, 12, ())[0] not in safe
    # the matta (7C) standing as an Ace, laid on 10C + 2S: 13, which an
    # unseen 2 takes for fifteen ("All Aces seen, safe from scopa")
    rules = Rules("cirulla", capture_mandatory=False)
    st = _state(rules, [16, 20, 30], [19, 21], piles=((0, 10),))
    st[E.MATTA] = 1
    assert hint.why(st, rules, 0, 16, ())[0] not in safe
    # a new user's find: the matta unseen, made an Ace by a declaration,
    # sweeps the 10S + 6S laid (16: the Ace's take-all) though every Ace
    # is seen ("All Aces seen, safe from scopa")
    rules = Rules("cirulla")
    st = _state(rules, [6, 13, 25], [29], piles=((0, 10, 20, 30),))
    assert hint.why(st, rules, 0, 25, ()) == (hint.ALL_OUT, 1)  # a 7: it sweeps nothing
    st[E.MATTA] = 1
    assert hint.why(st, rules, 0, 25, ())[0] not in safe
    # a new user's find: the last card of the hand takes, new hands are
    # dealt, and one of them may declare with the unseen matta, which then
    # stands as an Ace and sweeps the 10S + 9S left (every Ace seen)
    st = _state(rules, [25], [29, 28, 5], piles=((0, 10, 20, 30),))
    other = next(c for c in range(40) if st[c] == E.HAND + 1)
    st[other] = E.PILE + 1  # the other seat played its last card
    st[E.INHAND] = 1
    assert st[16] == E.MAZZO
    assert hint.why(st, rules, 0, 25, (5,)) == (hint.TAKES, 2)
    # the same capture with a card of the hand left: nobody declares now
    st[12] = E.HAND + 0
    st[E.INHAND] = 2
    assert hint.why(st, rules, 0, 25, (5,)) == (hint.TAKES_SAFE, 2)
    # a reviewer's: every Ace on the table, which takes them all (Ace on
    # ace), so no Ace but the matta made one by the new deal sweeps it
    rules = Rules("cirulla", capture_mandatory=False, ace_on_ace="all")
    st = _state(rules, [28], [0, 10, 20, 30, 8])
    other = next(c for c in range(40) if st[c] == E.HAND + 1)
    st[other] = E.PILE + 1
    st[E.INHAND] = 1
    assert st[16] == E.MAZZO
    assert hint.why(st, rules, 0, 28, ())[0] not in safe
    st[16] = E.PILE + 1  # the matta seen: nothing sweeps 22
    assert hint.why(st, rules, 0, 28, ()) == (hint.LEAVES, 22)
    # and the sum it names counts the matta on the table as its rank: the
    # 9B laid on it and the 10C makes 20, not 26 (every Ace seen)
    rules = Rules("cirulla")
    st = _state(rules, [38, 2], [16, 19], piles=((0, 10, 20, 30),))
    st[E.MATTA] = 1
    assert hint.why(st, rules, 0, 38, ()) == (hint.LEAVES, 20)


def test_the_searchs_sweep_mask_is_the_engines():
    # ai.core.sweep_mask (the search's and the medium player's odds): bit v
    # set when a card of rank v played now takes the whole table for a
    # scopa, as scopa.engine plays it. The cases it priced otherwise: with
    # Ace = scopa off, an Ace still takes Cirulla's 7D + 4S + 3B (14) to
    # fifteen, a scopa; so does it a lone Ace with Ace on ace taking all
    rules = Rules("cirulla", ace_sweep_scopa=False)
    core.setup(rules)
    st = _state(rules, [12, 38], [6, 23, 32])
    assert core.sweep_mask(st) == 1 << 1
    rules = Rules("scopa_d_assi", ace_on_ace="all")
    core.setup(rules)
    st = _state(rules, [12, 38], [20])
    assert core.sweep_mask(st) == 1 << 1
    # the matta on the table stands as the rank a declaration gave it: an
    # Ace with the 3S makes 4, swept by a 4 (not 10 with the 7 it is drawn)
    rules = Rules("cirulla")
    core.setup(rules)
    st = _state(rules, [12, 38], [16, 22])
    st[E.MATTA] = 1
    assert core.sweep_mask(st) == 1 << 4
    for s in range(2):
        assert core.threat(st, s) == core._threat(st, s)
    st[E.MATTA] = 0
    assert core.sweep_mask(st) == 1 << 1 | 1 << 5 | 1 << 10
    # every rank on random tables of every game with random house rules,
    # the matta at random ranks: each case above met many times
    rng = Rng(5)
    w = bytearray(E.SIZE)
    w2 = bytearray(E.SIZE)
    mv = E.Moves(512)
    met = [0, 0, 0]  # a declared matta on the table; Cirulla's 14; a lone Ace
    for k in range(3000):
        rules = random_rules(rng, GAMES[k % len(GAMES)])
        core.setup(rules)
        cards = list(range(40))
        rng.shuffle(cards)
        table = cards[: 1 + rng.below(4)]
        st = _state(rules, cards[5:8], table)
        if rules.game == CIRULLA:
            st[E.MATTA] = rng.below(11)
        vals = [E.value(st, c) for c in table]
        if st[16] == E.TABLE and st[E.MATTA] not in (0, 7):
            met[0] += 1
        if rules.game == CIRULLA and sum(vals) == 14 and not rules.ace_sweep_scopa:
            met[1] += rules.ace_on_ace_all or 1 not in vals
        if rules.ace_takes_all and rules.ace_on_ace_all and vals == [1]:
            met[2] += 1
        m = core.sweep_mask(st)
        assert m == core._sweep_mask(st)
        for v in range(1, 11):
            # a card of rank v off the table, played now by the seat to play
            c = next((c for c in range(40) if st[c] != E.TABLE and E.value(st, c) == v), -1)
            if c < 0:
                continue
            w[:] = st
            w[c] = E.HAND
            E.gen_card_moves(w, rules, c, mv)
            scopa = False
            for o in mv.offsets():
                w2[:] = w
                scopa = scopa or bool(E.apply(w2, rules, mv.buf, o) & E.SCOPA)
            assert scopa == bool(m >> v & 1), (rules.code(), table, st[E.MATTA], v)
            # and capture_mask (the lacks a lay shows): it captures at all
            takes = any(mv.buf[o + 1] for o in mv.offsets())
            assert takes == bool(core.capture_mask(st) >> v & 1), (rules.code(), table, v)
    assert min(met) >= 5, met


def test_players_take_the_settebello_and_avoid_leaving_a_scopa():
    rules = Rules("scopa")
    st = _state(rules, [36, 9, 19], [6, 29, 18])
    for lv in ("medium", "hard"):
        assert _choose(lv, st, rules, 0, Rng(1)) == (36, (6,))
    # table 4C: laying the 5D leaves 9 (a nine sweeps); laying the 10D
    # leaves 14 (no sweep)
    st = _state(rules, [4, 9], [13])
    for lv in ("medium", "hard"):
        assert _choose(lv, st, rules, 0, Rng(1)) == (9, ())


@pytest.mark.parametrize("game,players", [f for f in FAMILIES if f[1] in (2, 4)])
def test_util_is_exact_at_the_end_of_a_round(game, players):
    for k, opts in enumerate(OPTIONS):
        rules = _rules(game, players, opts)
        core.setup(rules)
        g = Game(rules, 50 + k)
        rng = Rng(k)
        while not g.round_over:
            moves = g.legal_moves()
            g.play(*moves[rng.below(len(moves))])
        sc = g.score
        if sc.napoleone >= 0:
            continue
        piles = [g.pile(s) for s in range(2)]
        sc = scoring.score_piles(rules, piles, [g.scope(s) for s in range(2)])
        for side in range(2):
            want = 100 * (sc.total[side] - sc.total[1 - side])
            assert core.util(g.st, side) == want, (game, opts, side)


@pytest.mark.parametrize("priority", ["strict", "free"])
def test_risk_is_the_expected_best_capture_of_the_seat_to_move(priority):
    import itertools

    rules = Rules("scopa", match_priority=priority)
    core.setup(rules)
    # seat 1 to move on 5C + AD + 4D (10 in all: a ten sweeps); seat 0
    # holds the 10, 9 and 8 of bastoni: 34 cards are hidden from it
    table = [14, 0, 3]
    st = _state(rules, [5, 7, 8], table, seat=1)
    w = core.WORTH
    gain = {10: core.SWEEP + sum(w[c] for c in table), 1: w[0], 4: w[3]}
    gain[6] = w[14] + w[0]
    gain[9] = w[14] + w[3]
    # a 5 takes the 5C; with free priority it may take AD + 4D instead
    gain[5] = w[14] if priority == "strict" else max(w[14], w[0] + w[3])
    unseen = [c for c in range(40) if st[c] == E.MAZZO or st[c] == E.HAND + 1]
    assert len(unseen) == 34
    # every hand seat 1 may hold, each taking its best capture
    total = n = 0
    for hand in itertools.combinations(unseen, 3):
        total += max(gain.get(c % 10 + 1, 0) for c in hand)
        n += 1
    assert abs(core.risk(st, 0) + total / n) <= 2
    if priority == "free":  # more to fear than under strict priority
        free = core.risk(st, 0)
        core.setup(Rules("scopa"))
        assert free < core.risk(st, 0)
        core.setup(rules)
    # nothing to take on an empty table, and nothing once the round is over
    assert core.risk(_state(rules, [5, 7, 8], [], seat=1), 0) == 0
    st[E.OVER] = 1
    assert core.risk(st, 0) == 0


def test_observe_deals_no_capturing_card_to_a_seat_that_laid():
    rules = Rules("scopa")
    # seat 1 lays the 9C on a table of 2S + 3B: it holds no 2, 3 or 5
    st = _state(rules, [18, 39, 28], [21, 32], seat=1)
    core.observe(st, rules, 18, ())
    mv = E.Moves()
    E.gen_moves(st, rules, mv)
    E.apply(st, rules, mv.buf, E.find_move(st, rules, 18, (), mv))
    assert core.observed(st) and core.lacks[1] == (1 << 2) | (1 << 3) | (1 << 5)
    # seat 0 decides: in every sample seat 1 holds none
    for seed in range(5):
        hard.decide(st, rules, 0, Rng(seed), 200)
        hand = [c for c in range(40) if hard._S[0][c] == E.HAND + 1]
        assert len(hand) == 2 and all(c % 10 + 1 not in (2, 3, 5) for c in hand)
    # a new deal, or another game, forgets it
    assert not core.observed(_state(rules, [4], [13]))
    # with Must take off a lay is a choice: it says only that the seat
    # could not sweep (no 5), not that it could not take the 2 or the 3
    free = Rules("scopa", capture_mandatory=False)
    st = _state(free, [18, 39, 28], [21, 32], seat=1)
    core.observe(st, free, 18, ())
    assert core.lacks[1] == 1 << 5


def test_player_by_level():
    import sys

    import ai

    # the module imported now (the app's tests drop ai.* from sys.modules
    # between games, so this file's own `hard` may be an older copy)
    for level in ai.LEVELS:
        m = ai.player(level)
        assert m is sys.modules["ai." + level] and m.__name__ == "ai." + level
        assert callable(m.choose)
    with pytest.raises(ValueError):
        ai.player("expert")


def test_node_budget_and_ms_budget():
    assert hard.nodes_for(None) == hard.DEFAULT_NODES
    assert hard.nodes_for(10) == 10 * hard.NODES_PER_MS


def _exact(st, rules, side, medium_replies):
    # the round's value for `side` (core.util at its end), every hand known:
    # minimax, or with the other side replying as the medium player would
    if st[E.OVER]:
        core.setup(rules)
        return core.util(st, side)
    seat = st[E.TURN]
    mv = E.Moves()
    if medium_replies and seat % rules.sides != side:
        offs = [medium.pick(st, rules, seat, mv)]
    else:
        E.gen_moves(st, rules, mv)
        offs = mv.offsets()
    vals = []
    for o in offs:
        nx = bytearray(st)
        E.apply(nx, rules, mv.buf, o)
        vals.append(_exact(nx, rules, side, medium_replies))
    return max(vals) if seat % rules.sides == side else min(vals)


def _last_deal_positions(rules, count):
    # positions of the last deal (the mazzo empty) where the seat to play
    # has from 2 to hard.ROOTMAX moves, along games of random legal moves
    out = []
    seed = 1
    while len(out) < count:
        for st in _positions(rules, seed, 200):
            if st[E.DP] == 40 and not st[E.OVER] and 2 <= len(_legal(st, rules)) <= hard.ROOTMAX:
                out.append(st)
        seed += 1
    return out[:count]


@pytest.mark.parametrize("game", sorted({g for g, p in FAMILIES if p == 2}))
def test_last_deal_hard_gives_up_nothing_and_plays_for_a_slip(game):
    # two players, the mazzo empty: every hand is known. Hard's move has the
    # best minimax value, and of those moves the best against the medium
    # player's replies; on some positions that is not the move hard played
    # before the tie-break (TIES 0), so the test sees the tie-break at work
    rules = _rules(game, 2)
    changed = 0
    for st in _last_deal_positions(rules, 120):
        seat = st[E.TURN]
        side = seat % rules.sides
        mv = E.Moves()
        E.gen_moves(st, rules, mv)
        exact = {}
        slip = {}
        for o in mv.offsets():
            nx = bytearray(st)
            E.apply(nx, rules, mv.buf, o)
            c, t = mv.move(o)
            key = (c, tuple(sorted(t)))
            exact[key] = _exact(nx, rules, side, False)
            slip[key] = _exact(nx, rules, side, True)
        best = max(exact.values())
        top = max(slip[k] for k in exact if exact[k] == best)
        c, t = hard.choose(bytearray(st), rules, seat, Rng(3))
        got = (c, tuple(sorted(t)))
        assert exact[got] == best and slip[got] == top
        hard.TIES[0] = 0
        try:
            c, t = hard.choose(bytearray(st), rules, seat, Rng(3))
        finally:
            hard.TIES[0] = 1
        changed += (c, tuple(sorted(t))) != got
    assert changed


def test_last_deal_hard_searches_every_move_past_the_mediums_best():
    # Scopa a 15, a second round's last deal: 2C 3B 4B against 6C 1S 2B,
    # ten moves on a table of seven. 3B taking 3C 9D (then 4B takes 1C
    # 10D: the denari tied) is the one move worth -3, every other -4, and
    # the medium player rates it ninth: hard searched its eight best and
    # took 1C 10S with 4B (a tester's find)
    from scopa import replay

    done = replay.decode(
        "S1.421100001b100001000.fgt."
        "111000000100211100111100100100021100111000210000201100401000010100.30"
    )
    g = Game(done.rules, done.seed, done.first)
    for i in replay.each_index(done.history):
        if g.round_over:
            g.next_round()
        card, taken = g.legal_moves()[i]
        core.observe(g.st, g.rules, card, taken)
        g.play_index(i)
    st, rules = g.st, g.rules
    seat = st[E.TURN]
    assert len(g.legal_moves()) == 10 > hard.ROOTMAX
    exact = {}
    for card, taken in g.legal_moves():
        nx = bytearray(st)
        E.apply(nx, rules, *_offset_of(st, rules, card, taken))
        exact[(card, tuple(sorted(taken)))] = _exact(nx, rules, seat % rules.sides, False)
    best = max(exact.values())
    assert [k for k in exact if exact[k] == best] == [(32, (8, 12))]  # 3B takes 9D 3C
    c, t = hard.choose(bytearray(st), rules, seat, Rng(3))
    assert (c, tuple(sorted(t))) == (32, (8, 12))


def _offset_of(st, rules, card, taken):
    # (move list, offset) of the legal move `card` taking `taken`
    mv = E.Moves()
    E.gen_moves(st, rules, mv)
    for o in mv.offsets():
        c, t = mv.move(o)
        if c == card and sorted(t) == sorted(taken):
            return mv.buf, o
    raise AssertionError((card, taken))


# --------------------------------------------------------------------------
# On the MicroPython unix port

_GAME_MPY = """
import gc
gc.collect()
from ai import core, hard
from scopa import engine as E
from scopa.game import Game
from scopa.rng import Rng
from scopa.rules import Rules
rules = Rules(%r)
g = Game(rules, %d)
rng = Rng(1)
alloc = getattr(gc, "mem_alloc", lambda: 0)
gc.collect()
m = alloc()
hard._init()
gc.collect()
buffers = alloc() - m
most = 0
h = 7
moves = 0
while True:
    seat = g.st[E.TURN]
    gc.collect()
    gc.disable()
    m = alloc()
    off = hard.decide(g.st, rules, seat, rng, hard.DEFAULT_NODES, g.mv)
    used = alloc() - m
    gc.enable()
    most = max(most, used)
    b = g.mv.buf
    for i in range(2 + b[off + 1]):
        h = (h * 131 + b[off + i]) %% 1000000007
    core.observe(g.st, rules, b[off], b[off + 2 : off + 2 + b[off + 1]])
    moves += 1
    if g._apply(off) & E.ROUND_OVER:
        if g.finished:
            break
        g.next_round()
print("moves", moves, "rounds", g.round_no, "buffers", buffers, "most", most, "digest", h)
"""


def _parse(out):
    f = out.split()
    return {f[i]: int(f[i + 1]) for i in range(0, len(f), 2)}


@pytest.mark.mpy
@pytest.mark.parametrize("game,seed", [("scopa", 11), ("scopone_scientifico", 4)])
def test_hard_vs_hard_game_in_96k_heap_from_mpy(run_mpy, mpy_firmware, game, seed):
    out = run_mpy(_GAME_MPY % (game, seed), heapsize="96K", path=(mpy_firmware,))
    r = _parse(out)
    assert r["rounds"] >= 1 and r["moves"] >= 36
    # the search's working memory: its buffers plus the most one decision
    # allocates (with the GC off, nothing is freed: a bound on the peak)
    assert r["buffers"] + r["most"] <= 16 * 1024, r


def _game_128k(run_mpy, mpy_firmware, game, players):
    code = _GAME_MPY.replace("Rules(%r)", "Rules(%r, players=%d)") % (game, players, 5)
    code = code.replace("hard.DEFAULT_NODES, g.mv", "None, g.mv")  # the family's budget
    r = _parse(run_mpy(code, heapsize="128K", path=(mpy_firmware,)))
    assert r["rounds"] >= 1 and r["moves"] >= 36
    return r


@pytest.mark.mpy
@pytest.mark.parametrize("game,players", FAMILIES)
def test_hard_vs_hard_game_of_every_family_in_128k_heap(run_mpy, mpy_firmware, game, players):
    r = _game_128k(run_mpy, mpy_firmware, game, players)
    # allocated once, nothing per decision (Cirulla too, since the engine
    # counts a dealt hand's declaration in place)
    assert r["most"] == 0, r


@pytest.mark.mpy
@pytest.mark.slow
def test_same_choices_on_cpython_and_micropython(run_mpy):
    code = _GAME_MPY % ("scopa", 23)
    out = run_mpy(code)
    # the same script on CPython: the digest of every move must match
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, "game", "exec"), {"__name__": "game"})
    assert _parse(out)["digest"] == _parse(buf.getvalue())["digest"]


@pytest.mark.mpy
def test_tournament_runs_on_the_unix_port(capsys):
    import sys

    sys.path.insert(0, str(mpy.ROOT))
    from tools import tournament

    tournament.main(
        ["--a", "hard", "--b", "easy", "--deals", "2", "--paired", "--matches", "1"]
        + ["--nodes", "30", "--jobs", "1"]
    )
    out = capsys.readouterr().out
    assert "points per deal" in out and "matches to the target" in out
    assert "decision time A (hard)" in out and "heap:" in out


def test_tournament_matches_alone_play_no_deals(capsys):
    # --matches without --deals plays only the matches (deals default to 100
    # only when no matches are asked for)
    import sys

    sys.path.insert(0, str(mpy.ROOT))
    from tools import tournament

    tournament.main(["--a", "medium", "--b", "easy", "--matches", "1", "--cpython", "--jobs", "1"])
    out = capsys.readouterr().out
    assert "matches to the target" in out and re.search(r" of 1$", out, re.M)
    assert "points per deal" not in out


@pytest.mark.mpy
def test_tournament_counts_each_hard_decisions_instructions(capsys, monkeypatch, tmp_path):
    # --instructions: callgrind's count of each of A's decisions, framed by
    # tools/arena.py's markers; the markers change no move
    import shutil
    import sys
    import tempfile

    if not shutil.which("valgrind"):
        pytest.skip("no valgrind (Debian's package valgrind)")
    sys.path.insert(0, str(mpy.ROOT))
    from tools import tournament

    base = ["--deals", "1", "--paired", "--nodes", "60", "--seed", "3"]
    tournament.main(base + ["--jobs", "1", "--no-heap"])
    plain = capsys.readouterr().out
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    tournament.main(base + ["--instructions"])
    out = capsys.readouterr().out
    pts = [line for line in plain.splitlines() if "points per deal" in line]
    assert pts and pts == [line for line in out.splitlines() if "points per deal" in line]
    n = plain.split("decision time A (hard)")[1].split(" decisions")[0].split()[-1]
    line = out.split("instructions per decision A (hard), callgrind: ")[1].splitlines()[0]
    assert line.split(" decisions")[0].endswith(f"over {n}")
    md, p95 = (float(line.split(k + " ")[1].split(" M")[0]) for k in ("median", "p95"))
    assert 0 < md <= p95 < 20  # millions: a default 2-player decision takes 30 to 45 M
    assert "2.7 / 4.9 ms" in line
    assert not list(tmp_path.iterdir())  # callgrind's dumps removed
    # a count that misses decisions (no symbols, a stray hash()) is refused
    real = tournament._callgrind
    monkeypatch.setattr(tournament, "_callgrind", lambda d: real(d)[1:])
    with pytest.raises(SystemExit) as e:
        tournament.main(base + ["--instructions"])
    assert f"counted {int(n) - 1} of A's {n} decisions" in str(e.value.code)
    assert not list(tmp_path.iterdir())


def test_tournament_versus_pairs_the_same_decks(capsys):
    import sys

    sys.path.insert(0, str(mpy.ROOT))
    from tools import tournament

    base = ["--a", "hard", "--b", "medium", "--deals", "3", "--paired", "--no-heap", "--jobs", "1"]
    # a knob at its default value plays every deck the same: no difference
    tournament.main(base + ["--nodes", "100", "--versus", "hard.TIES.0=1"])
    out = capsys.readouterr().out
    line = "paired difference, the second run (hard.TIES.0=1) less the first: +0.000 +- 0.000"
    assert line in out
    assert "over 3 decks" in out
    # both runs are reported, the difference is named by its knob
    tournament.main(base + ["--nodes", "100", "--versus", "hard.INFER.0=0", "--seed", "2"])
    out = capsys.readouterr().out
    assert out.count("paired deals, A - B") == 2 and "second run: hard.INFER.0=0" in out


@pytest.mark.parametrize(
    "knob,why",
    [
        ("foo", "expected MODULE.NAME=int"),
        ("os.sep=1", "expected MODULE.NAME=int"),
        ("hard.NOPE=1", "ai.hard has no NOPE"),
        ("hard.TIES.5=0", "index 0 to 0"),
        ("hard.TIES.0=x", "whole numbers"),
        ("hard.TIES.0=300", "0 to 255"),
        ("hard.FAMILY.5=70000", "0 to 65535"),
        ("hard.TIES=0", "is a table: give an index"),
        ("hard.INF.0=1", "is a const(): compiled into the code"),
        ("hard.NODES_PER_MS.0=1", "is not a table"),
        ("hard._S.0=1", "not a knob: knobs have upper-case names"),
        ("core.hist_n=9", "not a knob: knobs have upper-case names"),
        ("hard.INF=1", "is a const(): compiled into the code"),
        ("core.THREAT=50", "is a const(): compiled into the code"),
        ("hard.const=1", "is not a knob"),
    ],
)
def test_tournament_refuses_a_bad_knob_before_playing(capsys, knob, why):
    import sys

    sys.path.insert(0, str(mpy.ROOT))
    from tools import tournament

    assert tournament.knob_error("hard.TIES.0=0") is None
    assert tournament.knob_error("hard.MIX.0=2") is None
    assert tournament.knob_error("hard.FAMILY.5=350") is None
    assert tournament.knob_error("medium.SWEEP=100") is None
    for opt in ("--set", "--versus"):
        with pytest.raises(SystemExit) as e:
            tournament.main(["--deals", "1", "--no-heap", opt, knob])
        assert e.value.code == 2
        err = capsys.readouterr()
        assert why in err.err and "points per deal" not in err.out
    with pytest.raises(SystemExit):
        tournament.main(["--deals", "0", "--matches", "1", "--versus", "hard.TIES.0=0"])
    assert "give --deals N" in capsys.readouterr().err


@pytest.mark.parametrize("game,players", [("scopa", 0), ("scopa", 3), ("cirulla", 0)])
def test_tournament_refuses_mixed_without_partners(capsys, game, players):
    # --mixed in a game with no partners was played as if it were not given
    import sys

    sys.path.insert(0, str(mpy.ROOT))
    from tools import tournament

    args = ["--game", game, "--players", str(players), "--deals", "1", "--no-heap", "--mixed"]
    with pytest.raises(SystemExit) as e:
        tournament.main(args)
    assert e.value.code == 2
    err = capsys.readouterr()
    assert "--mixed is for partnerships" in err.err and "points per deal" not in err.out
    assert tournament.partnership("scopone", 0) == 0 and tournament.partnership("scopa", 6) == 0


def test_tournament_summary_row_names_the_mixed_team(capsys):
    # the row of a --mixed run read "hard vs medium", as a hard pair's
    import sys

    sys.path.insert(0, str(mpy.ROOT))
    from tools import tournament

    args = ["--game", "scopa", "--players", "4", "--deals", "1", "--paired", "--nodes", "30"]
    tournament.main([*args, "--jobs", "1", "--cpython", "--mixed"])
    rows = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  | ")]
    assert rows and rows[-1].startswith("  | hard + medium vs medium | scopa 4p | ")


def test_tournament_on_cpython_has_no_heap_figures(capsys):
    import sys

    sys.path.insert(0, str(mpy.ROOT))
    from tools import tournament

    tournament.main(["--deals", "1", "--paired", "--nodes", "30", "--jobs", "1", "--cpython"])
    out = capsys.readouterr().out
    assert "points per deal" in out and "heap:" not in out


@pytest.mark.skipif(
    not os.path.exists("/proc/self/task"), reason="reads the arenas from /proc (Linux)"
)
def test_tournament_interrupted_says_so_and_leaves_no_arena():
    # Ctrl-C in a terminal reaches the tool and its arenas (one process
    # group): a line, the shell's status 130, no traceback, no arena left
    import signal
    import subprocess
    import sys
    import time

    cmd = [sys.executable, str(mpy.ROOT / "tools" / "tournament.py"), "--cpython"]
    cmd += ["--deals", "5000", "--paired", "--nodes", "30", "--jobs", "2", "--no-heap"]
    p = subprocess.Popen(
        cmd,
        cwd=mpy.ROOT,
        start_new_session=True,
        # a shell without job control starts background jobs (a CI run
        # too) with SIGINT ignored, which Python then keeps: as a terminal would
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    kids = []
    try:
        deadline = time.monotonic() + 60
        while len(kids) < 2 and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.2)
            with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
                kids = [int(k) for k in f.read().split()]
        assert len(kids) == 2, "the arenas did not start"
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    assert p.returncode == 130, err
    assert "tournament: interrupted (no results)" in err and "Traceback" not in err, err
    assert "points per deal" not in out
    assert not [k for k in kids if os.path.exists("/proc/%d" % k)]


def test_hard_buffers_complete_after_a_memory_error(monkeypatch):
    # a board short of heap: the 5th move list fails; the next decision
    # tops the buffers up instead of searching with too few plies
    real = E.Moves
    made = []

    def short(*a):
        made.append(1)
        if len(made) == 5:
            raise MemoryError
        return real(*a)

    monkeypatch.setattr(hard, "_S", [])
    monkeypatch.setattr(hard, "_MV", [])
    monkeypatch.setattr(E, "Moves", short)
    with pytest.raises(MemoryError):
        hard._init()
    assert len(hard._MV) == 4
    monkeypatch.setattr(E, "Moves", real)
    rules = Rules("scopa")
    st = _state(rules, [36, 9, 19], [6, 29, 18])
    assert hard.choose(st, rules, 0, Rng(1), nodes=200) == (36, (6,))
    assert len(hard._S) == len(hard._MV) == hard.MAXD + 1


@pytest.mark.parametrize("mod", [core, hard, medium], ids=lambda m: m.__name__)
def test_folded_constants_match_the_engine(mod):
    # the players fold scopa.engine's state layout into their own const()s
    # (an attribute of another module is looked up at run time); under
    # CPython const() is the identity, so the names are there to compare
    names = [n for n in vars(mod) if n[0] == "_" and n[1:].isupper() and hasattr(E, n[1:])]
    assert len(names) >= 6, names
    for n in names:
        assert getattr(mod, n) == getattr(E, n[1:]), n


def _ai_digest(args, exe=None, fw=mpy.FIRMWARE, timeout=120):
    # tools/ai_digest.py ARGS on the unix port (or on CPython with the shim)
    # with the firmware in `fw` (source, or compiled): the finished process
    import os
    import subprocess

    if exe is None:
        exe, var, first = str(mpy.MICROPYTHON), "MICROPYPATH", (".frozen",)
    else:
        var, first = "PYTHONPATH", (mpy.SHIM,)
    paths = (*first, fw, mpy.ROOT / "host_tests")
    env = dict(os.environ, **{var: os.pathsep.join(map(str, paths))})
    tool = str(mpy.ROOT / "tools" / "ai_digest.py")
    return subprocess.run(
        [exe, tool, *args], env=env, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.mpy
def test_ai_digest_of_one_family_is_the_same_on_cpython():
    # tools/ai_digest.py GAME PLAYERS SEEDS: one family's checksum, as
    # played on the unix port and on CPython
    import sys

    args = ["scopa_15", "2", "1"]
    runs = (_ai_digest(args), _ai_digest(args, sys.executable))
    for p in runs:
        assert p.returncode == 0, p.stderr
    out = runs[0].stdout.split()
    assert out[:2] == ["scopa_15", "2"] and int(out[2]) >= 30
    assert runs[1].stdout.split() == out


# ai.leaf's viper util, view, sweep_mask, threat and after against ai.core's
# and ai.medium's plain-Python ones (core._util, _view, _sweep_mask,
# _threat, the risks of medium.score), and scopa.group's _group, gen (the
# moves) and apply against scopa.engine's (_group_py, gen_moves without
# _gen, _apply_py), for
# every side (seat) of every position of random games of every family and
# house rule (selfplay.random_rules, partners' hands visible in every other
# game), round ends included, and random layouts of the cards; prints the
# positions and whether the viper ones are in use.
_LEAF = """
from ai import core, leaf, medium
from scopa import engine as E
from scopa import group
from scopa.game import Game
from scopa.rng import Rng
from selfplay import random_rules

mv = E.Moves()


def views(st, rules):
    # ai.leaf's view and sweep_mask against ai.core's plain-Python ones
    for seat in range(rules.players):
        k = core._view(st, seat)  # (into ai.leaf's buffers, as leaf.view)
        want = (k, bytes(core.unseen[:k]), bytes(core.uval), bytes(core.known))
        k = leaf.view(st, seat)
        if (k, bytes(core.unseen[:k]), bytes(core.uval), bytes(core.known)) != want:
            raise SystemExit("%s seat %d: view" % (rules.code(), seat))
    if core._sweep_mask(st) != leaf.sweep_mask(st):
        raise SystemExit("%s table %s: sweep_mask" % (rules.code(), list(st[80 : 80 + st[120]])))
    for s in range(rules.sides):
        if core._threat(st, s) != leaf.threat(st, s):
            raise SystemExit("%s side %d: threat" % (rules.code(), s))
    # scopa.group's viper _group against the engine's (the same buffers)
    for h in (E.HAND + st[E.TURN], E.HAND, E.NONE):
        k = E._group_py(st, h)
        want = (k, bytes(E._cnt), bytes(E._suf), bytes(E._start), E._byv[: st[120]], E._hand[:k])
        k = E._group(st, h)
        got = (k, bytes(E._cnt), bytes(E._suf), bytes(E._start), E._byv[: st[120]], E._hand[:k])
        if got != want:
            raise SystemExit("%s table %s: _group" % (rules.code(), list(st[80 : 80 + st[120]])))


mv2 = E.Moves(16)  # (small: gen's full buffer, the engine's own code grows it)
w1 = bytearray(E.SIZE)
w2 = bytearray(E.SIZE)
fenced = [0]


def fence(st, rules, seat, want):
    # gen into every buffer size from 0 to past the moves' `want` bytes:
    # the moves or -1 (with the fewest cards, -1 also where the captures
    # it drops do not fit), never a byte past the size (viper code writing
    # past it corrupts the heap, it raises nothing); every 50th position
    fenced[0] += 1
    if fenced[0] % 50:
        return
    for size in list(range(want + 1)) + [want + 4096]:
        b = bytearray(b"\\xee" * (size + 8))
        r = group.gen(st, rules, E.HAND + seat, b, size)
        if b[size:] != b"\\xee" * 8:
            raise SystemExit("%s seat %d size %d: gen wrote past" % (rules.code(), seat, size))
        if r != -1 and (r & 0xFFFF != want or size < want):
            raise SystemExit("%s seat %d size %d: gen" % (rules.code(), seat, size))
    if r == -1:
        raise SystemExit("%s seat %d: gen's full size" % (rules.code(), seat))


def moves(st, rules, play=True):
    # scopa.group's gen (every seat's moves) and apply (each of the seat to
    # play's, `play`: in a game's positions) against the engine's
    # plain-Python ones
    gen = E._gen
    for seat in range(rules.players):
        n = E.gen_moves(st, rules, mv2, seat)
        got = (n, mv2.end, bytes(mv2.buf[: mv2.end]))
        E._gen = None
        n = E.gen_moves(st, rules, mv2, seat)
        E._gen = gen
        if got != (n, mv2.end, bytes(mv2.buf[: mv2.end])):
            raise SystemExit("%s seat %d: gen_moves" % (rules.code(), seat))
        fence(st, rules, seat, mv2.end)
    if st[E.OVER] or not play:
        return
    E.gen_moves(st, rules, mv2)
    for o in mv2.offsets():
        w1[:] = st
        w2[:] = st
        if E.apply(w1, rules, mv2.buf, o) != E._apply_py(w2, rules, mv2.buf, o) or w1 != w2:
            raise SystemExit("%s move %s: apply" % (rules.code(), mv2.move(o)))


def scores(st, rules):
    # ai.medium.score with ai.leaf's after against its own risks (core.after None)
    seat = st[E.TURN]
    if not st[E.OVER] and E.gen_moves(st, rules, mv, seat):
        got = [0] * mv.n
        want = [0] * mv.n
        medium.score(st, rules, seat, mv, got)
        core.after = None
        medium.score(st, rules, seat, mv, want)
        core.after = leaf.after
        if got != want:
            raise SystemExit("%s seat %d: medium.score %s %s" % (rules.code(), seat, got, want))


rng = Rng(11)
n = 0
for k in range(60):
    rules = random_rules(rng, partners_visible=k % 2 == 1)
    core.setup(rules)
    g = Game(rules, k + 1)
    st = g.st
    while True:
        for s in range(rules.sides):
            a = core._util(st, s)
            b = leaf.util(st, s)
            if a != b:
                raise SystemExit("%s side %d: %d != %d" % (rules.code(), s, a, b))
        views(st, rules)
        scores(st, rules)
        moves(st, rules)
        n += 1
        if g.play_index(rng.below(E.gen_moves(st, rules, g.mv))) & E.ROUND_OVER:
            for s in range(rules.sides):
                if core._util(st, s) != leaf.util(st, s):
                    raise SystemExit("%s round over, side %d" % (rules.code(), s))
            break
# random layouts of the 40 cards (mostly piles: the coin runs, napoleone,
# grande, re bello and primiera cases that games seldom reach)
for k in range(300):
    rules = random_rules(rng)
    core.setup(rules)
    ns = rules.sides
    st = bytearray(E.SIZE)
    mode = rng.below(3)
    for c in range(40):
        if mode == 0:
            st[c] = rng.below(8 + ns)
        elif mode == 1 or c < 10:
            st[c] = 8 + rng.below(ns)
        else:
            st[c] = (0, 1, 8)[rng.below(3)]
    for s in range(ns):
        st[E.SCOPE + s] = rng.below(12)
    for c in range(40):  # the table's list, the matta at any rank
        if st[c] == E.TABLE:
            st[E.TAB + st[E.NTAB]] = c
            st[E.NTAB] += 1
    st[E.MATTA] = rng.below(11)
    for s in range(ns):
        if core._util(st, s) != leaf.util(st, s):
            raise SystemExit("%s layout %s side %d" % (rules.code(), list(st[:40]), s))
        n += 1
    views(st, rules)
    moves(st, rules, False)
viper = core.util is leaf.util and core.sweep_mask is leaf.sweep_mask and core.threat is leaf.threat
grouped = E._group is group.group and E._gen is group.gen and E.apply is group.apply
print(n, viper and core.after is leaf.after and grouped)
"""


def test_leaf_util_gives_core_utils_values():
    # on CPython ai.leaf runs as plain Python (the shim's viper and ptr8)
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(_LEAF, "leaf", "exec"), {"__name__": "leaf"})
    n, same = buf.getvalue().split()
    assert int(n) > 1500 and same == "True"


def test_an_older_scopa_group_leaves_the_engine_whole(monkeypatch):
    # a board's scopa.group of the version before gen: the engine had taken
    # its _group before reading gen failed, its own buffers kept, and every
    # move came out as card 0 taking nothing (a reviewer's find)
    import importlib.util
    import sys
    import types

    import scopa
    from scopa import group

    old = types.ModuleType("scopa.group")
    for k in ("group", "cnt", "suf", "start", "byv", "hand"):
        setattr(old, k, getattr(group, k))
    monkeypatch.setitem(sys.modules, "scopa.group", old)
    monkeypatch.setattr(scopa, "group", old)
    spec = importlib.util.find_spec("scopa.engine")
    eng = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(eng)
    assert eng._gen is None and eng._group is eng._group_py and eng.apply is eng._apply_py
    rules = Rules("scopa")
    st = E.new_state()
    E.start_round(st, rules, Rng(3), 0)
    a, b = E.Moves(), E.Moves()
    assert eng.gen_moves(st, rules, a) == E.gen_moves(st, rules, b) > 1
    assert a.buf[: a.end] == b.buf[: b.end]


@pytest.mark.mpy
def test_leaf_util_as_viper_gives_core_utils_values(run_mpy):
    # the unix port compiles ai.leaf as viper code: the same values
    n, same = run_mpy(_LEAF, path=(mpy.FIRMWARE, mpy.ROOT / "host_tests")).split()
    assert int(n) > 1500 and same == "True"


@pytest.mark.mpy
def test_native_modules_play_the_same_moves_as_bytecode(mpy_firmware, tmp_path):
    # the flash tool compiles the search's modules (tools.flash.compiler.NATIVE)
    # to native code for a board with a native emitter, as the tests' .mpy
    # firmware is for the unix port: every family plays the same moves as
    # from bytecode (the WebAssembly port's build) and from source
    from tools.flash.compiler import NATIVE

    bytecode = mpy.compile_firmware(tmp_path / "bytecode")
    for name in ("ai/core", "ai/easy", "scopa/engine", "scopa/game"):
        arch = {
            f: (fw / (name + ".mpy")).read_bytes()[2] >> 2
            for f, fw in (("native", mpy_firmware), ("bytecode", bytecode))
        }
        assert arch == {"native": 2 if name + ".py" in NATIVE else 0, "bytecode": 0}, name
    # ai.leaf and scopa.group (viper) only where the .mpy carries native
    # code: the bytecode build plays with ai.core's and scopa.engine's own
    for name in ("ai/leaf.mpy", "scopa/group.mpy"):
        assert (mpy_firmware / name).read_bytes()[2] >> 2 == 2
        assert not (bytecode / name).exists()
    runs = [_ai_digest(["2"], fw=fw, timeout=300) for fw in (mpy_firmware, bytecode, mpy.FIRMWARE)]
    for p in runs:
        assert p.returncode == 0, p.stderr
    lines = runs[0].stdout.splitlines()
    assert len(lines) == len(FAMILIES) and all(int(x.split()[2]) >= 60 for x in lines)
    assert runs[1].stdout == runs[2].stdout == runs[0].stdout


@pytest.mark.mpy
@pytest.mark.parametrize(
    "args,says",
    [(["scopa"], "usage"), (["scopa", "x", "1"], "usage"), (["nope", "2", "1"], "unknown game")],
)
def test_ai_digest_refuses_bad_arguments(args, says):
    p = _ai_digest(args)
    assert p.returncode == 2 and says in p.stdout, (p.returncode, p.stdout, p.stderr)


@pytest.mark.parametrize(
    "opts,why",
    [
        (["--game", "cirula"], "unknown game 'cirula'"),
        (["--game", "scopa", "--players", "5"], "5 is not 2, 3, 4 or 6"),
        (["--game", "scopone", "--players", "2"], "scopone is for 4 players"),
        (["--deals", "-3"], "--deals must be 0 or more"),
        (["--nodes", "-1"], "--nodes must be 0 or more"),
        (["--deals", "0"], "nothing to play: give --deals N or --matches N"),
        (["--jobs", "0"], "--jobs must be 1 or more"),
        (["--seed", "-1"], "--seed must be 0 to 10000"),
        (["--seed", "1073741824"], "--seed must be 0 to 10000"),
        (["--heapsize", "banana"], "'banana' is not a size"),
        (["--heapsize", "1K"], "give at least 16K"),
    ],
)
def test_tournament_refuses_a_bad_game_or_count_before_playing(capsys, opts, why):
    import sys

    sys.path.insert(0, str(mpy.ROOT))
    from tools import tournament

    with pytest.raises(SystemExit) as e:
        tournament.main(["--no-heap", *opts])
    assert e.value.code == 2
    err = capsys.readouterr()
    assert why in err.err and "points per deal" not in err.out


def test_hard_searches_mid_round_beside_partners_of_another_level():
    # 4-player Scopa: mid-round a hard player whose partner is hard plays
    # the medium player's move (no node searched); beside a partner of
    # another level (mates 0: ai.hard.SOLO) it searches a turn of the table
    rules = Rules("scopa", players=4)
    core.setup(rules)
    searched = {0: 0, 1: 0}
    differ = 0
    for k in range(12):
        g = Game(rules, 40 + k)
        st = g.st
        while not core.last_deal(st):
            seat = st[E.TURN]
            core.observe(st, rules, *g.legal_moves()[0])
            picks = []
            for mates in (1, 0):
                o = hard.decide(st, rules, seat, Rng(k), 400, g.mv, mates)
                searched[mates] += hard._nodes > 0
                picks.append(g.mv.move(o))
            differ += picks[0] != picks[1]
            g.play(*g.legal_moves()[0])
    assert searched[1] == 0 and searched[0] > 20 and differ > 0, (searched, differ)


@pytest.mark.parametrize("mates", [1, 0])
@pytest.mark.parametrize("game,players,plies", [("scopone_10", 4, 5), ("scopa", 6, 7)])
def test_the_turn_search_ends_at_an_opponent_scored_from_its_dealt_hand(
    monkeypatch, game, players, plies, mates
):
    # Scopone a 10 and 6 players: the turn search goes one ply past the
    # seat's own side (PAIRD 5 and 7, a turn of the table 4 and 6), its
    # leaf the next opponent's turn, what it can take from the hand the
    # deal gives it (core.threat), not the odds over the unseen cards
    # (core.risk: RISK 0, which cost the time). Beside partners that are
    # not hard players (mates 0: not measured so) a ply less, as before
    rules = _rules(game, players)
    fam = hard.family(rules)
    assert hard.PAIRD[fam] == plies and not hard.RISK[fam]
    calls = {"risk": 0, "threat": 0}
    for name in calls:
        real = getattr(core, name)

        def counted(*a, _real=real, _name=name):
            calls[_name] += 1
            return _real(*a)

        monkeypatch.setattr(core, name, counted)
    positions = []
    if players == 6:
        positions = _positions(rules, 11, 60)
    else:  # the first plays of a round (later: the end search)
        for seed in range(12):
            g = Game(rules, seed)
            for _ in range(3):
                positions.append(bytearray(g.st))
                g.play(*g.legal_moves()[0])
    depths = []
    for st in positions:
        core.setup(rules)
        if players == 6 and not core.last_deal(st):
            continue  # (the first deal: the medium player's move)
        if sum(E.HAND <= st[c] < E.PILE for c in range(40)) < (33 if players == 4 else 15):
            continue  # (the search to the end of the round; a card's place: st[c])
        hard._maxd = -1  # (left so by the medium player's move: a clear choice)
        hard.choose(st, rules, st[E.TURN], Rng(5), mates=mates)
        depths.append(hard._maxd)
    want = plies if mates else plies - 1
    assert set(depths) <= {-1, want} and depths.count(want) > 3, depths
    assert calls["threat"] > 0 and calls["risk"] == 0, calls


@pytest.mark.parametrize("mates", [1, 0])
def test_six_players_search_the_first_plays_of_the_last_deal(monkeypatch, mates):
    # the search to the end of the round reaches 14 plies: the first plays
    # of the 18-ply last deal were the medium player's move; now its two
    # best moves are searched a turn of the table deep (PAIRS, SOLO: in the
    # last deal only), the first deal still the medium player's move
    rules = _rules("scopa", 6)
    fam = hard.family(rules)
    assert hard.PAIRS[fam] & hard._INLAST and hard.SOLO[fam] & hard._INLAST

    def searched(positions):
        n = {True: 0, False: 0}
        for st in positions:
            hard._maxd = -1  # (a search's depth; the medium player's move leaves it)
            hard.choose(st, rules, st[E.TURN], Rng(3), mates=mates)
            core.setup(rules)
            n[core.last_deal(st)] += hard._maxd >= 0
        return n

    positions = _positions(rules, 5, 80)
    now = searched(positions)
    monkeypatch.setattr(hard, "PAIRS", bytearray(len(hard.PAIRS)))
    monkeypatch.setattr(hard, "SOLO", bytearray(len(hard.SOLO)))
    before = searched(positions)
    assert now[False] == before[False] == 0  # the first deal: never
    assert now[True] > before[True]  # the last deal: its first plays too
