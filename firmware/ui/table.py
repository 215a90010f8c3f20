"""The table: the hand of the player to play, the table cards, every other
seat's card count, the score, whose turn it is and the computer thinking.

Stages (one at a time):

- PICK: LEFT / RIGHT choose a card of the hand, A plays it when it has one
  outcome or goes to CHOOSE; with partners_visible (the German worksheet:
  "everyone may look at their partner's hand") UP shows each partner's
  hand in turn in place of one's own (UP / DOWN step through them), and
  any other key comes back to it; otherwise UP or DOWN (DOWN always) shows
  the round's page (ui/round_info.py: the mazzo, the scope, who took last,
  the hand's last plays), any key back; B long asks for a hint (the suggested card is
  selected, the cards it takes are highlighted and the band gives the
  reason, e.g. "Takes settebello"); B goes to the menu
  (the game is saved after every play and Continue comes back).
- CHOOSE: the card has several captures; LEFT / RIGHT / UP / DOWN cycle
  through them with the table cards of each highlighted (laying it, when
  capture is not mandatory: none lit, the band says so), A confirms, B
  goes back to PICK; B long asks for a hint: its capture is selected when
  it plays this card, else PICK shows it on its card.
- COVER: pass-and-play with several people: the hand is hidden until the
  next player presses A, COVER_MS after it was hidden at the soonest (an A
  of the player before, pressed twice, does not show it).
- THINK: a computer seat is choosing (shown for at least THINK_MS).
- SHOW: a move about to be played: the card in the band, the cards it
  takes highlighted on the table; SHOW_MS (A / B skip).
- SCOPA: a scopa is announced for ANNOUNCE_MS (any key skips).
- NEWS: at a fresh deal of Scopa a 15 and Cirulla, the dealer's first
  table of 15 or 30 and each Cirulla declaration (cirulla, decino: the
  engine has already added them to the scope) are announced one by one,
  ANNOUNCE_MS each (any key skips); at a round's end the table's rest
  going to the side that took last, then in Scopone a 10 the mazzo's four
  cards going to the dealer's side.
"""

from micropython import const

import lang
from lang import tr
from scopa import engine, rules
from ui import buttons as keys
from ui import gfx

IDLE = const(0)
PICK = const(1)
CHOOSE = const(2)
COVER = const(3)
THINK = const(4)
SHOW = const(5)
SCOPA = const(6)
NEWS = const(7)

HUMAN = const(3)  # consts.HUMAN: a seat played by a person
# turns.Turns.turn: what the seat to play does next (turns._PICK...)
_TURN_PICK = const(0)
_TURN_COVER = const(1)
_TURN_COMPUTER = const(2)
_TURN_OVER = const(3)
_MATTA = const(16)  # Cirulla's matta, 7C: drawn as its designated rank
_HOLDS = const(14)  # ai.hint.HOLDS: its number is the card kept, not a rank
THINK_MS = const(400)
SHOW_MS = const(1500)  # a computer's move
HUMAN_SHOW_MS = const(600)  # the player's own move
ANNOUNCE_MS = const(1200)
COVER_MS = const(800)


class Screen(keys.Screen):
    move: tuple  # SHOW: (card, taken)

    def __init__(self, app, arg=None):
        self.app = app
        self.stage = IDLE
        self.t0 = 0
        self.cur = 0  # cursor in the hand
        self.opts = []  # CHOOSE: the captures of the selected card
        self.oi = 0
        self.move = None  # type: ignore
        self.hint = None
        self.asking = False  # a hint asked for, not yet computed
        self.flags = 0
        self.seat = 0  # the seat of the last move played
        self.last_round = app.game.round_no
        self.news = []  # NEWS: lines still to announce at this deal
        self.line = ""  # NEWS: the line shown
        self.dealt = None  # (round, cards dealt) of the deal announced
        # NEWS's cards, lit in the table's place: the round's rest (to the
        # side that took last), the dealer's fifteen, a declared hand
        self.cards = ()
        self.matta = 0  # the rank the matta counts among the cards (0: its own)
        self.info = False  # PICK: the round's page (ui/round_info.py) shown
        self.peek = 0  # PICK: 0 the own hand, k the k-th partner's (partners_visible)
        # the first step now: the first frame is the deal's announcement or
        # the turn ("Your turn"), not a frame of the table before it
        self.tick(app.now)

    # State ----------------------------------------------------------------

    def busy(self):
        return self.stage in (IDLE, THINK, SHOW, SCOPA, NEWS)

    def hand(self):
        v = self.app.turns.viewer()
        return self.app.game.hand(v) if v >= 0 else []

    def _begin_turn(self, now):
        app = self.app
        turn = app.turns.turn()
        if turn == _TURN_OVER:
            return  # the round's summary shows
        self.hint = None
        self.peek = 0
        if turn == _TURN_COVER:
            self.stage = COVER
            self.t0 = now
        elif turn == _TURN_PICK:
            self.stage = PICK
            hand = self.hand()
            c = app.take_cursor()
            if c in hand:
                self.cur = hand.index(c)  # back from the menu: where it was
            if self.cur >= len(hand):
                self.cur = max(0, len(hand) - 1)
        else:
            self.stage = THINK
            self.t0 = now
        app.dirty = True

    def tick(self, now):
        app = self.app
        g = app.game
        st = self.stage
        if st == IDLE:
            # (once the round is over only Scopone a 10's mazzo: _apply)
            if not self._news(now):
                self._begin_turn(now)
        elif st == THINK:
            if keys.ticks_diff(now, self.t0) >= THINK_MS:
                self.move = app.turns.computer_turn()
                self.stage = SHOW
                self.t0 = now
                app.dirty = True
        elif st == SHOW:
            wait = SHOW_MS if app.levels[g.turn] != HUMAN else HUMAN_SHOW_MS
            if keys.ticks_diff(now, self.t0) >= wait:
                self._apply(now)
        elif st in (SCOPA, NEWS):
            if keys.ticks_diff(now, self.t0) >= ANNOUNCE_MS:
                self._done()
        elif st in (PICK, CHOOSE) and self.asking and not app.dirty:
            self.asking = False
            self.hint = app.turns.computer_turn(hint=True)
            hand = self.hand()
            if st == CHOOSE and self.hint[0] == hand[self.cur]:
                self._hint_opt(self.hint[1])
            elif self.hint[0] in hand:
                self.stage = PICK  # another card: the hint as on PICK
                self.cur = hand.index(self.hint[0])
            app.dirty = True
        if self.stage == IDLE and st != IDLE:
            # played, or an announcement over: the next line, turn or
            # summary in this step, no frame of the bare table between
            # (no word of whose turn; "Rest to", then "Mazzo to")
            self.tick(now)

    def quit(self, gone=True):
        # the player's move shown (its card on the table, SHOW) is played,
        # so saved: what the player chose stays chosen. A computer's is
        # not: the restart shows it again before it is played (the same
        # move: turns seeds it from the game's seed and the moves played),
        # but, when the app is `gone` (not a web page hidden, which may come
        # back to it), one not of its level (no heap for its search:
        # turns.short), which the restart's heap may not repeat
        app = self.app
        g = app.game
        if self.stage == SHOW and self.move is not None:
            if app.levels[g.turn] == HUMAN or (gone and app.turns.short is g):
                self._apply(app.now)

    def _apply(self, now):
        app = self.app
        card, taken = self.move
        # (cleared first: a quit during the play's save plays it once)
        self.move = None  # type: ignore
        g = app.game
        self.seat = g.turn
        n = g.moves_played()
        # the cards the last play of a deal leaves on the table: at the
        # round's end they go to the side that took last, which it says
        # (stage NEWS); no list made at the other plays
        rest = None
        four = None
        if g.st[engine.INHAND] == 1:
            rest = [c for c in g.table() if c not in taken] + ([] if taken else [card])
            if g.rules.game == rules.SCOPONE_10:  # the mazzo's four go to the dealer's side
                four = g.undealt()
        try:
            self.flags = app.turns.play(card, taken)
        except MemoryError:
            if g.moves_played() == n:
                self.move = (card, taken)  # not played: again at the next turn
            raise
        app.dirty = True
        last = g.st[engine.LAST]
        if four and g.round_over:  # said after the table's rest (_news)
            side = app.turns.side_label(g.rules.side(g.dealer))
            self.news = [(tr(lang.MAZZO_TO) % side, four, 0)]
        if self.flags & engine.SCOPA:
            self.stage = SCOPA
            self.t0 = now
        elif g.round_over and rest and last != engine.NONE:
            self.cards = rest
            self.matta = 0
            self.line = tr(lang.TAKES_REST) % app.turns.side_label(last)
            print("news:", self.line)
            self.stage = NEWS
            self.t0 = now
        else:
            self._done()

    def _news(self, now):
        """At a fresh deal, the next line to announce (stage NEWS): the
        dealer's fifteen (1 scopa) or thirty (2), then each hand's
        declaration; at Scopone a 10's round's end, the mazzo's four cards
        to the dealer's side (queued by _apply). False when there is none."""
        g = self.app.game
        r = g.rules
        st = g.st
        if r.game != rules.SCOPA_15 and r.game != rules.CIRULLA and not self.news:
            return False  # (Scopone a 10's mazzo at the round's end: _apply)
        deal = (g.round_no, st[engine.DP])
        if st[engine.INHAND] == r.hand * r.players and deal != self.dealt:
            self.dealt = deal
            news = g.announcements()
            label = self.app.turns.seat_label
            for i in range(len(news)):
                # (matta: the value Cirulla's matta counts among the
                # dealer's four, drawn so; 0 else)
                seat, n, what, cards, m = news[i]
                if what is None:  # the dealer's fifteen or thirty
                    news[i] = ("%s: %d +%d" % (label(seat), 15 * n, n), cards, m)
                else:
                    news[i] = ("%s: %s +%d" % (label(seat), what, n), cards, m)
            self.news = news
        if not self.news:
            return False
        self.line, self.cards, self.matta = self.news.pop(0)
        print("news:", self.line)
        self.stage = NEWS
        self.t0 = now
        self.app.dirty = True
        return True

    def _done(self):
        self.stage = IDLE
        self.cards = ()
        self.app.dirty = True

    def _select(self):
        """A on the card under the cursor."""
        hand = self.hand()
        if not hand:
            return
        card = hand[self.cur]
        opts = self.app.game.options(card)
        if not opts:
            return
        if len(opts) == 1:
            self._show(card, opts[0])
            return
        self.opts = opts
        self.oi = 0
        if self.hint and self.hint[0] == card:
            self._hint_opt(self.hint[1])
        self.stage = CHOOSE

    def _hint_opt(self, taken):
        """CHOOSE: select the capture of `taken` (the hint's cards)."""
        for i, o in enumerate(self.opts):
            if sorted(o) == sorted(taken):
                self.oi = i

    def _show(self, card, taken):
        self.move = (card, tuple(taken))
        self.stage = SHOW
        self.t0 = self.app.now
        self.hint = None
        self.asking = False  # a hint asked in the same step as the play: dropped

    def press(self, k, ev):
        app = self.app
        st = self.stage
        app.dirty = True
        vis = app.game.rules.partners_visible
        if st == PICK and self.info:
            if not ev & keys.REPEAT:
                self.info = False  # any key: back to the hand
                app.unload("round_info")
        elif st == PICK and vis and not self.peek and k == keys.UP:
            if not ev & keys.REPEAT:
                self.peek = 1  # the first partner's hand (ui/peek.py)
        elif st == PICK and self.peek:
            from ui import peek  # the partner's hand: loaded only with the option

            peek.key(self, ev)
            if not self.peek:
                app.unload("peek")
        elif st == PICK and k in (keys.UP, keys.DOWN) and not ev & keys.REPEAT:
            self.info = True  # the round's page: mazzo, scope, last plays
        elif st == PICK:
            n = len(self.hand())
            if k == keys.LEFT and n:
                self.cur = (self.cur - 1) % n
                self.hint = None
            elif k == keys.RIGHT and n:
                self.cur = (self.cur + 1) % n
                self.hint = None
            elif k == keys.A and not ev & keys.REPEAT:
                self._select()
            elif k == keys.B and ev & keys.LONG:
                self.asking = True  # drawn first ("Hint..."), then computed in tick
            elif k == keys.B and not ev & keys.REPEAT:
                app.to_menu(self.hand()[self.cur] if n else -1)
        elif st == CHOOSE:
            n = len(self.opts)
            if k in (keys.RIGHT, keys.DOWN):
                self.oi = (self.oi + 1) % n
            elif k in (keys.LEFT, keys.UP):
                self.oi = (self.oi - 1) % n
            elif k == keys.A and not ev & keys.REPEAT:
                self._show(self.hand()[self.cur], self.opts[self.oi])
            elif k == keys.B and ev & keys.LONG:
                self.asking = True  # as on PICK: "Hint...", then tick
            elif k == keys.B and not ev & keys.REPEAT:
                self.stage = PICK
        elif st == COVER:
            shown = keys.ticks_diff(app.now, self.t0)  # (< 0 after 2**29 ms: long shown)
            if k == keys.A and not ev & keys.REPEAT and not 0 <= shown < COVER_MS:
                app.turns.uncover()
                self.stage = PICK
                self.cur = 0
            elif k == keys.B and not ev & (keys.REPEAT | keys.LONG):
                app.go("menu")
        elif st == SHOW:
            if k in (keys.A, keys.B):
                self._apply(app.now)
        elif st in (SCOPA, NEWS):
            if k:
                self._done()

    # Drawing --------------------------------------------------------------

    def draw(self, fb):
        if self.stage == PICK and self.info:
            from ui import round_info  # loaded only while shown

            round_info.draw(self, fb)
            return
        app = self.app
        g = app.game
        lay = app.lay
        p = app.pal
        s = lay.s
        fr = app.french()
        st = self.stage
        self._status(fb)
        # the table, with the cards to be taken highlighted
        lit = ()
        if st == SHOW and self.move:
            lit = self.move[1]
        elif st == CHOOSE:
            lit = self.opts[self.oi]
        elif st == PICK and self.hint:
            lit = self.hint[1]
        tab = g.table()
        if self.cards:  # NEWS's: the round's rest, the dealer's fifteen, a declared hand
            tab = lit = self.cards
        pos = lay.table(len(tab))
        mr = g.st[engine.MATTA]  # Cirulla: the rank the matta was designated
        # (the dealer's fifteen or thirty: the matta as the dealer counts it)
        tm = self.matta if self.cards and self.matta else mr
        for i, c in enumerate(tab):
            x, y = pos[i]
            md = gfx.LIT if c in lit else gfx.FACE
            gfx.card(fb, x, y, c, p, s, md, fr, tm if c == _MATTA else 0)
        two_rows = len(pos) and pos[-1][1] != lay.table_y
        band_y = lay.band_y + (lay.ch + lay.gap if two_rows else 0)
        band_h = lay.hand_y - lay.lift - band_y
        # the hand
        v = app.turns.viewer()
        if st == PICK and self.peek:
            from ui import peek

            peek.draw(self, fb, mr)
        elif st == COVER or v < 0:
            n = len(g.hand(g.turn)) if st == COVER else 0
            for x in lay.hand(n):
                gfx.card(fb, x, lay.hand_y, 0, p, s, gfx.BACK)
        else:
            hand = g.hand(v)
            mine = g.turn == v and st in (PICK, CHOOSE)
            xs = lay.hand(len(hand))
            for i, c in enumerate(hand):
                y = lay.hand_y
                mode = gfx.FACE
                if mine and i == self.cur:
                    # the cursor: lifted, framed twice, a bar below; inverted
                    # too once chosen or hinted
                    y -= lay.lift
                    mode = gfx.SELECT
                    if st == CHOOSE or (self.hint and self.hint[0] == c):
                        mode = gfx.SELECT_LIT
                if st == SHOW and self.move and self.move[0] == c and g.turn == v:
                    y -= lay.lift
                    mode = gfx.LIT
                gfx.card(fb, xs[i], y, c, p, s, mode, fr, mr if c == _MATTA else 0)
        self._band(fb, st, band_y, band_h)

    def _why(self):
        """The hint's reason in the player's language ("Presa: 3 cards|safe
        from scopa": "|" between two lines), "" without one."""
        why = self.hint[2] if self.hint else None
        if not why:
            return ""
        code, n = why
        t = tr(lang.WHY_SCOPA + code)
        if code == _HOLDS:  # the card kept, as drawn (a declared matta its rank): "Keeps 7D"
            c = n - n % 10 + engine.value(self.app.game.st, n) - 1
            return t % gfx.card_text(c, self.app.french())
        if "%" in t:
            t = t % (lang.rank(n, self.app.french()) if "%s" in t else n)
        return t

    def _band(self, fb, st, y, h):
        app = self.app
        g = app.game
        p = app.pal
        lay = app.lay
        w = app.w
        ty = y + max(0, (h - 8) // 2)
        if st == PICK and self.peek:
            from ui import peek

            gfx.text(fb, peek.label(self), 0, ty, p.FG)
        elif st == PICK:
            t = self._why()
            if t:
                # the reason, e.g. "Takes settebello" (the hand shows whose)
                if "|" in t:
                    # two lines: "Presa: 3 cards" / "safe from scopa" (a band too
                    # low for two, under a second row of the table: the first)
                    t, t2 = t.split("|")
                    if h >= 17:
                        gfx.text(fb, t2, 0, ty + 5, p.FG)
                        ty -= 4
            else:
                t = tr(lang.HINT) if self.hint else tr(lang.YOUR_TURN)
                short = self.hint and app.turns.hint_short and not self.asking
                if short:
                    t = tr(lang.NO_MEMORY)  # the hint is not the hard player's
                if self.asking:
                    t = tr(lang.HINT) + "..."
                if app.turns.hide_hands() and not short:  # (a line holds one)
                    t = app.turns.seat_label(g.turn) + ": " + t
                if app.turns.short is g and not self.hint and not self.asking:
                    if not app.turns.hide_hands():  # (there the seat's label)
                        t = tr(lang.NO_MEMORY)  # the computer's last move was not its level's
                if app.unsaved and not self.hint and not self.asking:
                    t = tr(lang.NOT_SAVED)  # the flash full: the game not kept
            gfx.text(fb, t, 0, ty, p.FG)
        elif st == CHOOSE:
            t = tr(lang.HINT) + "..." if self.asking else tr(lang.OK_BACK)
            o = self.opts[self.oi]
            if not self.asking and not o:
                t = tr(lang.LAY_IT)  # the choice that takes nothing: no card lit says it
            h1 = self.hint
            if o and h1 and not self.asking and h1[2] and h1[0] == self.hand()[self.cur]:
                if sorted(self.opts[self.oi]) == sorted(h1[1]):
                    t = self._why().split("|")[0]  # on the hint's capture: its reason
            if h >= 17:
                c = "%d/%d" % (self.oi + 1, len(self.opts))
                gfx.small(fb, c, w - gfx.small_width(c), y, p.FG)
                ty = y + h - 8
            gfx.text(fb, t, 0, ty, p.FG)
        elif st == THINK:
            gfx.text(fb, tr(lang.THINKING) % app.turns.seat_label(g.turn), 0, ty, p.FG)
        elif st == SHOW and self.move:
            t = app.turns.seat_label(g.turn)
            gfx.text(fb, t, 0, ty, p.FG)
            x = 8 * len(t) + 4 * lay.s
            cy = y + (h - lay.ch) // 2
            c = self.move[0]
            mr = g.st[engine.MATTA] if c == _MATTA else 0
            gfx.card(fb, x, cy, c, p, lay.s, gfx.LIT, app.french(), mr)
            n = len(self.move[1])
            if n:
                # the number of cards taken
                gfx.text(fb, "+%d" % n, x + lay.cw + 4 * lay.s, ty, p.FG)
        elif st in (SCOPA, NEWS):
            fb.fill_rect(0, y, w, h, p.FG)
            t = self.line if st == NEWS else tr(lang.SCOPA) + " " + app.turns.seat_label(self.seat)
            gfx.text(fb, t, (w - 8 * len(t)) // 2, ty, p.BG)
        elif st == COVER:
            t = tr(lang.PASS_TO) % app.turns.seat_label(g.turn)
            gfx.text(fb, t, (w - 8 * len(t)) // 2, ty - 5 if h >= 18 else ty, p.FG)
            if h >= 18:
                t = tr(lang.PRESS_A)
                gfx.text(fb, t, (w - 8 * len(t)) // 2, ty + 5, p.FG)

    def _status(self, fb):
        """Top line, 3 x 5 font: every seat as <n>:<cards> (the seat to
        play inverted, the viewer's underlined, the viewer's partners
        underlined dotted), the match score right (before the round's
        points until the summary shows them)."""
        app = self.app
        g = app.game
        p = app.pal
        s = app.lay.s
        x = 0
        v = app.turns.viewer()
        for seat in range(g.rules.players):
            n = len(g.hand(seat))
            if self.stage == SHOW and self.move is not None and seat == g.turn:
                n -= 1  # the card shown played is out of the hand
            t = "%d:%d" % (seat + 1, n)
            wd = gfx.small_width(t, s)
            c = p.FG
            if seat == g.turn and self.stage not in (IDLE, SCOPA) and not g.round_over:
                fb.fill_rect(x, 0, wd + 2 * s, 5 * s + 2, p.FG)
                c = p.BG
            gfx.small(fb, t, x + s, 1, c, s)
            if seat == v:
                fb.hline(x + s, 5 * s + 2, wd, p.FG)
            elif v >= 0 and seat % g.rules.sides == v % g.rules.sides:
                for dx in range(0, wd, 2 * s):  # a partner: dotted
                    fb.fill_rect(x + s + dx, 5 * s + 2, s, s, p.FG)
            x += wd + 4 * s
        sc = g.score if g.round_over else None
        if sc is None:
            t = "-".join(str(t) for t in g.totals)
        else:  # the round's last play shown: its points are the summary's news
            t = "-".join(str(g.totals[i] - sc.total[i]) for i in range(len(g.totals)))
        gfx.small(fb, t, app.w - gfx.small_width(t, s), 1, p.FG, s)
