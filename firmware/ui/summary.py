"""Round end and match end.

Pages (A or RIGHT: next, LEFT: back, B: the menu):

1. The breakdown per side: cards, coins, settebello, primiera, scope
   (the side that won each point drawn inverted), with re bello, napola,
   piccola or grande giving points their points added up ("Others"), the
   round's total and the match score (on 128 x 64 with "Others", on the
   third page: eight rows do not fit).
2. The primiera: each side's four cards and total.
3. With re bello, napola, piccola or grande in play: each of them.
4. At the end of a match: the winner (and when all ten coins won it at
   once, napoleone or Cirulla, that); A starts a new match (or the next
   match of a best of three).

A on the last page deals the next round.
"""

from micropython import const

import lang
from lang import tr
from ui import buttons as keys
from ui import gfx

HUMAN = const(3)  # consts.HUMAN

_EXTRA = (("re_bello", lang.RE_BELLO), ("napola", lang.NAPOLA))
_EXTRA += (("piccola", lang.PICCOLA), ("grande", lang.GRANDE))


def _others(sc):
    # the first page's "Others" (re bello, napola, piccola, grande added up:
    # Score.others); None when none of them gave a point (or no score)
    out = sc.others() if sc is not None else None
    return out if out and any(out) else None


class Screen(keys.Screen):
    def __init__(self, app, arg=None):
        self.app = app
        self.k = 0
        g = app.game
        sc = g.score
        self.pages = ["table", "primiera"]
        if sc is not None:
            for name, _ in _EXTRA:
                if name in sc.categories:
                    self.pages.append("extra")
                    break
        if g.over:
            self.pages.append("match")
            if arg:  # resumed (App._again): the winner's page, the round's a LEFT away
                self.k = len(self.pages) - 1
        self.others = _others(sc)  # (the round's score stays as the screen shows)
        # for a text-only observer (the simulator's log, the flash tool)
        print("round %d over: %s" % (g.round_no, " ".join(str(t) for t in g.totals)))
        if g.over:
            t = "-".join(str(t) for t in g.totals)
            if g.winner is None:
                print("match: draw", t)
            else:
                print("match: side %d wins %s" % (g.winner + 1, t))

    def press(self, k, ev):
        app = self.app
        if ev & keys.REPEAT and k not in (keys.LEFT, keys.RIGHT):
            return
        if k in (keys.RIGHT, keys.DOWN) and self.k + 1 < len(self.pages):
            self.k += 1
        elif k in (keys.LEFT, keys.UP) and self.k:
            self.k -= 1
        elif k == keys.A:
            if self.k + 1 < len(self.pages):
                self.k += 1
            else:
                self.proceed()
        elif k == keys.B and not ev & keys.LONG:
            app.go("menu")
        app.dirty = True

    def proceed(self):
        app = self.app
        app.turns.deal()  # the next round, or a new match
        app.go("table")

    # Drawing --------------------------------------------------------------

    def side_label(self, side):
        """A side's label: the seat's as the table gives it ("You" for the only
        human seat, "P2") when sides are seats; a team by its seats: "1+3",
        "2+4+6"."""
        r = self.app.game.rules
        if r.players == r.sides:
            return self.app.turns.seat_label(side)
        return "+".join(str(s + 1) for s in range(r.players) if s % r.sides == side)

    def head(self, side, cw):
        """A column's heading, `cw` px wide: the side's label, in capitals
        for a seat whose label ("You") is wider than the column (three
        sides: "YOU" in the 3 x 5 font _cell falls back to, which has no
        lower case), so that the player is "You" on every page."""
        t = self.side_label(side)
        r = self.app.game.rules
        if r.players == r.sides and 8 * len(t) > cw:
            return t.upper()
        return t

    def my_side(self):
        app = self.app
        h = app.turns.humans()
        if len(h) != 1:
            return -1
        return app.game.rules.side(h[0])

    def columns(self):
        """The sides' columns: their left x (px) and their width `cw` (px).
        Two sides: 3 characters and a gap ("1+3 2+4"), three: 2 and a gap;
        wider, so that every heading fits in the 8 x 8 font ("You", "1+3+5"),
        where the screen leaves "Primiera" its 8 characters and a gap (not
        on 128 x 64)."""
        app = self.app
        n = app.game.rules.sides
        cw = 28 if n == 2 else 20
        need = 4
        for i in range(n):
            need = max(need, 8 * len(self.side_label(i)) + 4)
        if cw < need <= (app.w - 1 - 68) // n:
            cw = need
        return [app.w - 1 - (n - i) * cw for i in range(n)], cw  # a pixel of margin

    def match_first(self):
        """True when the match's row is on the first page: without
        "Others" (seven rows), or where eight rows of at least 8 px fit
        under its heading (not on 128 x 64); else on the third page."""
        return self.app.h >= 8 + 8 * 8 or self.others is None

    def draw(self, fb):
        page = self.pages[self.k]
        if page == "table":
            self._table(fb)
        elif page == "primiera":
            self._primiera(fb)
        elif page == "extra":
            self._extra(fb)
        else:
            self._match(fb)

    def _cell(self, fb, text, x, cw, y, lit):
        p = self.app.pal
        if 8 * len(text) > cw:
            # a team wider than its column ("1+3+5"): the 3 x 5 font
            tx = x + cw - gfx.small_width(text)
            if lit:
                fb.fill_rect(tx - 1, y, gfx.small_width(text) + 2, 7, p.FG)
            gfx.small(fb, text, tx, y + 1, p.BG if lit else p.FG)
            return
        tx = x + cw - 8 * len(text)
        if lit:
            fb.fill_rect(tx - 1, y - 1 if y else 0, 8 * len(text) + 1, 9 if y else 8, p.FG)
        gfx.text(fb, text, tx, y, p.BG if lit else p.FG)

    def _table(self, fb):
        app = self.app
        g = app.game
        sc = g.score
        p = app.pal
        xs, cw = self.columns()
        me = self.my_side()
        gfx.text(fb, tr(lang.ROUND) % g.round_no, 0, 0, p.FG)
        for i, x in enumerate(xs):
            self._cell(fb, self.head(i, cw), x, cw, 0, i == me)
        if sc is None:
            return
        prim = [("-" if t is None else str(t)) for t in sc.primiera_total]
        rows = [
            (lang.CARDS, [str(t) for t in sc.taken], sc.cards),
            (lang.COINS, [str(t) for t in sc.denari], sc.coins),
            (lang.SETTEBELLO, [str(t) for t in sc.settebello], sc.settebello),
            (lang.PRIMIERA, prim, sc.primiera),
            (lang.SCOPE, [str(t) for t in sc.scope], None),
        ]
        others = self.others
        if others:  # re bello, napola...: added up, so that the rows make the total
            rows.append((lang.OTHERS, [str(t) for t in others], None))
        k = len(rows)  # the total's row, under a line where there is room
        rows.append((lang.TOTAL, [str(t) for t in sc.total], None))
        if self.match_first():  # (else on the third page: _extra)
            rows.append((lang.MATCH, [str(t) for t in g.totals], None))
        # (a step over 8 only where the rows fit under a heading 12 px down)
        step = max(8, min(10, (app.h - 12) // len(rows)))
        y0 = 8 if step == 8 else 12
        # the rows from the total lower, under a line, where there is room
        # for a pixel clear above and below the line (the 8 x 8 font fills
        # its 8 rows: capitals the top one, the p of Scope the last)
        low = 11 - step if step > 8 and y0 + (len(rows) - 1) * step + 19 - step <= app.h else 0
        for j, (sid, vals, won) in enumerate(rows):
            y = y0 + j * step + (low if j >= k else 0)
            if j == k and low:
                fb.hline(0, y - 2, app.w, p.FG)
            gfx.text(fb, tr(sid), 0, y, p.FG)
            for i, x in enumerate(xs):
                self._cell(fb, vals[i], x, cw, y, bool(won and won[i]))

    def _primiera(self, fb):
        app = self.app
        g = app.game
        sc = g.score
        p = app.pal
        lay = app.lay
        s = lay.s
        t = tr(lang.PRIMIERA)
        gfx.text(fb, t, 0, 0, p.FG)
        if sc is None:
            return
        rowh = lay.ch + s + 1
        # the cards after the widest label: 3 characters ("P2", "1+3"), 5
        # for teams of three ("1+3+5", 6 players), which the cards would
        # cover, and a gap that keeps them apart (2 px read as one)
        n = 3
        for i in range(sc.sides):
            n = max(n, len(self.side_label(i)))
        x0 = 8 * n + 4
        for i in range(sc.sides):
            y = 10 + i * rowh
            lab = self.side_label(i)
            gfx.text(fb, lab, 0, y + (lay.ch - 8) // 2, p.FG)
            x = x0
            won = sc.primiera[i]
            for c in sc.primiera_cards[i]:
                if c < 0:
                    gfx.card(fb, x, y, 0, p, s, gfx.GHOST)
                else:
                    gfx.card(fb, x, y, c, p, s, gfx.LIT if won else gfx.FACE, app.french())
                x += lay.cw + s
            tot = sc.primiera_total[i]
            v = "-" if tot is None else str(tot)
            gfx.text(fb, v, app.w - 8 * len(v) - 1, y + (lay.ch - 8) // 2, p.FG)

    def _extra(self, fb):
        app = self.app
        g = app.game
        sc = g.score
        p = app.pal
        xs, cw = self.columns()
        gfx.text(fb, tr(lang.ROUND) % g.round_no, 0, 0, p.FG)  # as on the first page
        for i, x in enumerate(xs):
            self._cell(fb, self.head(i, cw), x, cw, 0, i == self.my_side())
        j = 0
        for name, sid in _EXTRA:
            if name not in sc.categories:
                continue
            y = 10 + 10 * j
            vals = getattr(sc, name)
            gfx.text(fb, tr(sid), 0, y, p.FG)
            for i, x in enumerate(xs):
                self._cell(fb, str(vals[i]), x, cw, y, vals[i] > 0)
            j += 1
        if not self.match_first():  # the match's row, which the first page had no room for
            y = 11 + 10 * j  # (a pixel lower: its line a pixel clear of the rows, as on page 1)
            fb.hline(0, y - 2, app.w, p.FG)
            gfx.text(fb, tr(lang.MATCH), 0, y, p.FG)
            for i, x in enumerate(xs):
                self._cell(fb, str(g.totals[i]), x, cw, y, False)

    def _match(self, fb):
        app = self.app
        g = app.game
        p = app.pal
        w = app.w
        me = self.my_side()
        if g.winner is None:
            t = tr(lang.DRAW)
        elif not g.finished:
            # a match of a best of three: won or lost, not the series
            if me >= 0:
                t = tr(lang.MATCH_WON) if g.winner == me else tr(lang.MATCH_LOST)
            else:
                t = tr(lang.MATCH_TO) % self.side_label(g.winner)
        elif me >= 0:
            t = tr(lang.YOU_WIN) if g.winner == me else tr(lang.YOU_LOSE)
        else:
            lab = self.side_label(g.winner)
            if g.rules.players != g.rules.sides:
                team = tr(lang.TEAM) % lab
                # "Team 1+3+5 gewinnt" is 18 characters: then "1+3+5 gewinnt"
                if 8 * len(tr(lang.WINS) % team) <= w:
                    lab = team
            t = tr(lang.WINS) % lab
        gfx.centre(fb, t, 4, p.FG, w)
        if g.score is not None and g.score.napoleone >= 0:
            # all ten coins (napoleone; Cirulla): the match at once
            gfx.centre(fb, tr(lang.ALL_COINS), 12, p.FG, w)
        xs, cw = self.columns()
        for i, x in enumerate(xs):
            self._cell(fb, self.head(i, cw), x, cw, 20, i == me)
            self._cell(fb, str(g.totals[i]), x, cw, 30, i == g.winner)
            if g.rules.best_of > 1:
                self._cell(fb, str(g.wins[i]), x, cw, 40, False)
        gfx.text(fb, tr(lang.MATCH), 0, 30, p.FG)
        if g.rules.best_of > 1:
            gfx.text(fb, tr(lang.MATCHES), 0, 40, p.FG)  # matches won in the series
        t = tr(lang.NEW_MATCH) if g.finished else tr(lang.NEXT_MATCH)
        gfx.text(fb, t, 0, app.h - 8, p.FG)
