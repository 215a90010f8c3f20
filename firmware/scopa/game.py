"""A match: rounds dealt from a seed, moves checked, points added up.

`Game` wraps the engine's state buffer with the match around it: the
ruleset, the seeded shuffle, match points, best of three, and the list of
moves that a replay code (scopa.replay) rebuilds the game from.
"""

from micropython import const

from scopa import engine
from scopa.rng import Rng

_MATTA = const(16)  # Cirulla's matta, 7C (scopa.engine._MATTA_CARD)


class Game:
    """One match (or best of three) of `rules` from `seed` (int 0..2**30-1).

    Seats are 0..players-1 in playing order; the first dealer is `first`
    (a seat; the last seat when None, so that seat 0 leads the first
    round), and the deal passes to the next seat each round, a best of
    three's next match too. Raises ValueError for a `first` that is no
    seat. Attributes: rules, seed, first, st (the engine state), totals
    (match points per side), round_no (from 1), score (the last round's
    Score or None), over (match over), winner (side or None), wins
    (matches won per side, best of three), history (bytearray of move
    indices, for replay codes), played (bytearray: each seat's last play
    this round, see last_play), deal (the state as this deal's first card
    was to be played) and deal_at (len(history) then).
    """

    def __init__(self, rules, seed=1, first=None):
        if first is None:
            first = rules.players - 1
        if not 0 <= first < rules.players:
            raise ValueError("first dealer %d is not a seat" % first)
        self.rules = rules
        self.seed = seed & 0x3FFFFFFF
        self.first = first
        self.rng = Rng(self.seed)
        self.st = engine.new_state()
        self._w = engine.new_state()  # the next state, while a move is played
        self.mv = engine.Moves()
        self.history = bytearray()
        # the state as this deal's first card was to be played, and the
        # length of history then: a resumed game's computer players read
        # the deal's plays from them (turns.Turns.catch_up)
        self.deal = engine.new_state()
        self.deal_at = 0
        # per seat, its last play this round: the card + 1 (0: none yet),
        # then the number of cards it took; a replayed game has them too
        self.played = bytearray(2 * rules.players)
        self.wins = [0] * rules.sides
        self.match_no = 1
        self._new_match(first)

    def _new_match(self, dealer):
        self.totals = [0] * self.rules.sides
        self.round_no = 0
        self.over = False
        self.winner = None
        self._deal(dealer)

    def _deal(self, dealer):
        self.round_no += 1
        self.score = None
        self.round_over = False
        p = self.played
        for i in range(len(p)):
            p[i] = 0
        engine.start_round(self.st, self.rules, self.rng, dealer)
        self.deal[:] = self.st
        self.deal_at = len(self.history)

    # Reading the state ---------------------------------------------------

    @property
    def turn(self):
        """Seat to play."""
        return self.st[engine.TURN]

    @property
    def dealer(self):
        return self.st[engine.DEALER]

    def hand(self, seat):
        """Cards in the hand of `seat` (list, ascending)."""
        return engine.hand_of(self.st, seat)

    def table(self):
        """Cards on the table (list, in the order laid)."""
        return engine.table_of(self.st)

    def pile(self, side):
        """Cards taken by `side` this round (list)."""
        return engine.pile_of(self.st, side)

    def scope(self, side):
        """Scope of `side` this round."""
        return self.st[engine.SCOPE + side]

    def deck_left(self):
        """Cards still in the mazzo."""
        return 40 - self.st[engine.DP]

    def undealt(self):
        """The cards still in the mazzo (list of ints 0..39, in dealing
        order): in Scopone a 10 the four no deal gives out, which go to the
        dealer's side at the round's end (FORMAT.md scopone_10)."""
        st = self.st
        return [st[engine.DECK + i] for i in range(st[engine.DP], 40)]

    def legal_moves(self):
        """Legal moves of the seat to play: list of ``(card, (taken, ...))``
        in enumeration order (the order replay codes index)."""
        if self.round_over:
            return []
        engine.gen_moves(self.st, self.rules, self.mv)
        return self.mv.tuples()

    def options(self, card):
        """The legal captures of `card` for the seat to play: list of tuples
        of table cards (``()`` for laying it)."""
        return [t for c, t in self.legal_moves() if c == card]

    def announcements(self):
        """What the deal just made announces (Scopa a 15, Cirulla): a list
        of ``(seat, points, name, cards, matta)``: the dealer's table adding
        up to 15 or 30 (name None, points the scope it scores, cards the
        table's four it took, matta the value 1..10 Cirulla's matta counts
        among them as the dealer's wild card, else 0), then each hand's
        declaration in playing order (name "Cirulla" or "Decino", points 3
        or 10, cards the hand, which a declaration shows, matta 0: the
        engine's designation, scopa.engine.declaration). Empty in other games
        and once the deal's first card is played. Source: as
        scopa.engine.declaration and the dealer's bonus scope (Parlett
        p.138, regoledelgioco.com: the hand is shown to declare)."""
        from scopa import rules as R

        r = self.rules
        st = self.st
        out = []
        if r.game != R.SCOPA_15 and r.game != R.CIRULLA:
            return out
        if st[engine.INHAND] != r.hand * r.players:
            return out
        bonus = st[engine.BONUS]
        if bonus and st[engine.DP] == r.table + r.hand * r.players:
            # (the round's first deal: its only cards taken yet, the table's)
            four = engine.pile_of(st, r.side(self.dealer))
            m = 0
            if r.game == R.CIRULLA and _MATTA in four:  # wild: the rest of the 15 or 30
                m = 15 * bonus
                for c in four:
                    m -= 0 if c == _MATTA else c % 10 + 1
            out.append((self.dealer, bonus, None, four, m))
        if r.game == R.CIRULLA:
            for i in range(1, r.players + 1):
                seat = (self.dealer + i) % r.players
                hand = self.hand(seat)
                n = engine.declaration(hand)
                if n:
                    out.append((seat, n, "Decino" if n == 10 else "Cirulla", hand, 0))
        return out

    # Playing ------------------------------------------------------------

    def play(self, card, taken=None):
        """Play `card` (int) for the seat to play, taking the table cards
        `taken` (iterable; ``()`` lays it). With `taken` None the card's
        only legal outcome is played.

        Returns the engine flags (engine.CAPTURE, engine.SCOPA, engine.SWEEP, engine.DEALT,
        engine.ROUND_OVER). Raises engine.IllegalMove naming the rule broken (the game
        is then unchanged), also when `taken` is None and the card has
        several outcomes.
        """
        if self.round_over:
            raise engine.IllegalMove("the round is over: deal the next one")
        if taken is None:
            opts = self.options(card)
            if len(opts) != 1:
                if not opts:
                    engine.gen_moves(self.st, self.rules, self.mv)
                    raise engine.IllegalMove(_explain(self, card, ()))
                raise engine.IllegalMove("choose what to take: the card has %d options" % len(opts))
            taken = opts[0]
        taken = tuple(taken)
        engine.gen_moves(self.st, self.rules, self.mv)
        off = engine.find_move(self.st, self.rules, card, taken, self.mv)
        if off < 0:
            raise engine.IllegalMove(_explain(self, card, taken))
        return self._apply(off)

    def play_index(self, i):
        """Play the `i`-th move of `legal_moves()`. Raises IllegalMove when
        there is no such move."""
        if self.round_over:
            raise engine.IllegalMove("the round is over: deal the next one")
        n = engine.gen_moves(self.st, self.rules, self.mv)
        if not 0 <= i < n:
            raise engine.IllegalMove("no move %d: %d legal moves" % (i, n))
        off = 0
        b = self.mv.buf
        for _ in range(i):
            off += 2 + b[off + 1]
        return self._apply(off)

    def _apply(self, off):
        # The move is played on a copy of the state and the round scored
        # from it before anything is changed: a MemoryError (a board short
        # of heap) leaves the game as it was, so the play can be retried.
        b = self.mv.buf
        idx = 0
        o = 0
        while o < off:
            o += 2 + b[o + 1]
            idx += 1
        w = self._w
        w[:] = self.st
        flags = engine.apply(w, self.rules, b, off)
        res = self._score(w) if flags & engine.ROUND_OVER else None
        self._log(idx)
        i = 2 * self.st[engine.TURN]
        self.played[i] = b[off] + 1
        self.played[i + 1] = b[off + 1]
        self.st[:] = w
        if flags & engine.DEALT:
            self.deal[:] = w
            self.deal_at = len(self.history)
        if res is not None:
            self.score, self.totals, self.over, self.winner = res
            self.round_over = True
            if self.over and self.winner is not None:
                self.wins[self.winner] += 1
        return flags

    def _log(self, idx):
        # varint, 7 bits a byte, added at once (or not at all)
        if idx < 128:
            self.history.append(idx)
            return
        out = bytearray()
        while idx >= 128:
            out.append(128 | (idx & 127))
            idx >>= 7
        out.append(idx)
        self.history.extend(out)

    def _score(self, st):
        # (score, totals, over, winner) of the round over in `st`; scoring
        # is imported here, at the end of a round, so that a board can free
        # its heap while the round is played (app.py does)
        from scopa import scoring

        r = self.rules
        sides = r.sides
        piles = [engine.pile_of(st, s) for s in range(sides)]
        sc = scoring.score_piles(r, piles, [st[engine.SCOPE + s] for s in range(sides)])
        totals = [self.totals[i] + sc.total[i] for i in range(sides)]
        if sc.napoleone >= 0:
            return sc, totals, True, sc.napoleone
        # the categories only count for a recount (as_dict: about 1 KB)
        cats = sc.as_dict() if r.recount else None
        over, winner = scoring.match_result(r, totals, cats, self.totals)
        return sc, totals, over, winner

    @property
    def finished(self):
        """True when the whole game is over: the match, or with best of
        three, the second match won by one side."""
        if not self.over:
            return False
        return self.rules.best_of == 1 or max(self.wins) * 2 > self.rules.best_of

    def next_round(self):
        """Deal the next round (the deal passes to the next seat), or the
        next match of a best of three. Raises ValueError when the round is
        not over or the game is finished."""
        if not self.round_over:
            raise ValueError("the round is not over")
        if self.finished:
            raise ValueError("the game is over")
        dealer = (self.dealer + 1) % self.rules.players
        if self.over:
            self.match_no += 1
            self._new_match(dealer)
        else:
            self._deal(dealer)

    def last_index(self):
        """The last move's index (int) in the history (each move its index
        among the legal moves, 7 bits a byte, low bits first, a byte >= 128
        when more follow: scopa.replay.each_index), or -1 before the first
        move; reads only the last bytes. The journal's line of a play
        (turns.py), without scopa.replay on the heap."""
        h = self.history
        i = len(h) - 1
        if i < 0:
            return -1
        j = i
        while j > 0 and h[j - 1] >= 128:
            j -= 1
        v = 0
        sh = 0
        for k in range(j, i + 1):
            v |= (h[k] & 127) << sh
            sh += 7
        return v

    def last_play(self, seat):
        """The last play of `seat` this round, ``(card, cards taken)``, or
        None before its first (kept through a deal: the play that ended a
        hand)."""
        p = self.played
        c = p[2 * seat]
        return (c - 1, p[2 * seat + 1]) if c else None

    def moves_played(self):
        """Number of moves played so far in the whole game."""
        n = 0
        for b in self.history:
            n += b < 128
        return n


def _explain(game, card, taken):
    from scopa.explain import explain

    return explain(game.st, game.rules, card, taken, game.mv)
