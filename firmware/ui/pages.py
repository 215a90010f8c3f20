"""Text pages: How to play (read from flash a page at a time), About and
a one-line note. How to play: RIGHT / DOWN (A) the next page, LEFT / UP
the previous one, A on the last page or B goes back; About and a note: A
or B goes back. A screen as tall as two pages (the 240 x 135 colour
board) shows two at a time, one under the other, in the middle.
"""

from micropython import const

import lang
from lang import tr
from ui import buttons as keys
from ui import gfx

_PAGE_W = const(128)  # px of a page: 16 columns of 8 px
_PAGE_H = const(64)  # px of a page and the gap under it: 7 lines of 8 px, 8


class Pages(keys.Screen):
    home = None  # the start menu's item back() returns to (its lang id)

    def __init__(self, app, arg=None):
        self.app = app
        self.arg = arg
        self.k = 0
        self.setup()

    def setup(self):
        pass

    def back(self):
        self.app.go("menu", "Screen", self.home)

    def press(self, k, ev):
        if ev & keys.B and not ev & keys.LONG:
            self.back()
        elif ev & keys.A:
            self.back()


class Note(Pages):
    """One line of text (e.g. Coming soon); A or B goes back."""

    def draw(self, fb):
        app = self.app
        t = self.arg or ""
        gfx.text(fb, t, (app.w - 8 * len(t)) // 2, (app.h - 8) // 2, app.pal.FG)


class About(Pages):
    """Version, board and memory."""

    home = lang.ABOUT

    def draw(self, fb):
        import gc

        from consts import VERSION

        app = self.app
        p = app.pal
        gc.collect()
        free = getattr(gc, "mem_free", lambda: -1)()
        used = getattr(gc, "mem_alloc", lambda: -1)()
        board = tr(lang.BOARD)
        cols = app.w // 8
        name = app.name[:cols]
        rows = [("Scopa", VERSION), (board, name)]
        if len(board) + 1 + len(name) > cols:  # the name on a row of its own
            rows[1:] = [(board, ""), ("", name)]
        rows.append((tr(lang.FREE_MEM), "%d KiB" % (free // 1024)))
        rows.append((tr(lang.USED_MEM), "%d KiB" % (used // 1024)))
        t = tr(lang.ABOUT)
        gfx.text(fb, t, (app.w - 8 * len(t)) // 2, 0, p.FG)
        fb.hline(0, 8, app.w, p.FG)
        for i, (a, b) in enumerate(rows):
            y = 12 + 10 * i
            gfx.text(fb, a, 0, y, p.FG)
            gfx.text(fb, b, app.w - 8 * len(b) - 1, y, p.FG)


class Help(Pages):
    """The rules of one game and the tips, paged (or the scorekeeper's
    pages, `arg` lang.KEEPER, alone), then the house rules
    that New game has set for that game (each option and its value, as
    the Options screen shows them), then what each of them means (a page
    each, the help file's section ``@o_<key>``); LEFT / RIGHT (or A) turn
    the page, B goes back to the index."""

    def setup(self):
        self.fixed = lang.pages(self.arg)
        if self.arg == lang.KEEPER:  # (no house rules: the sheet's are its own)
            self.house, self.keys = [], []
        else:
            cfg = self.app.settings["cfg"]
            self.house, self.keys = house_pages(cfg, self.arg, self.app.french())
        self.n = self.fixed + len(self.house) + len(self.keys)
        # pages a screen shows, one under the other: 7 lines of 8 px and a
        # gap each, the page number's row below (128 x 64: one; 240 x 135:
        # two, where German's How to play took 35 pages of a corner)
        self.per = max(1, (self.app.h - 6) // _PAGE_H)
        self.lines = self._page(0)
        self.more = self._pages(0)

    def _page(self, k):
        if k < self.fixed:
            return lang.page(self.arg, k)
        k -= self.fixed
        if k < len(self.house):
            return self.house[k]
        return lang.page(explained(self.keys[k - len(self.house)]), 0)

    def back(self):
        self.app.go("menu", "Help", self.arg)  # the cursor on this game

    def _pages(self, k):
        # the pages shown under page k (self.per in all, up to the last)
        return [self._page(j) for j in range(k + 1, min(k + self.per, self.n))]

    def turn(self, d):
        """The next screen of pages (d = 1) or the one before (-1); False
        where there is none."""
        k = self.k + d * self.per
        if 0 <= k < self.n:
            self.k = k
            self.lines = self._page(k)
            self.more = self._pages(k)
            self.app.dirty = True
            return True
        return False

    def press(self, k, ev):
        if k in (keys.RIGHT, keys.DOWN):
            self.turn(1)
        elif k in (keys.LEFT, keys.UP):
            self.turn(-1)
        elif k == keys.A and not ev & keys.REPEAT:
            if not self.turn(1):
                self.back()
        elif k == keys.B and not ev & (keys.LONG | keys.REPEAT):
            self.back()

    def draw(self, fb):
        app = self.app
        p = app.pal
        x = 0 if self.per == 1 else (app.w - _PAGE_W) // 2
        for j, lines in enumerate([self.lines] + self.more):
            y = j * _PAGE_H
            if j:  # a rule between two pages
                fb.hline(x, y - 4, _PAGE_W, p.FG)
            for i, ln in enumerate(lines):
                gfx.text(fb, ln, x, y + i * 8, p.FG)
        # page number ("3/35", "3-4/35"), bottom right, in the 3 x 5 font
        last = self.k + len(self.more)
        t = (
            "%d/%d" % (self.k + 1, self.n)
            if last == self.k
            else "%d-%d/%d" % (self.k + 1, last + 1, self.n)
        )
        gfx.small(fb, t, app.w - gfx.small_width(t), app.h - 5, p.FG)


def explained(key):
    """The help file's section that says what house rule `key` (a cfg key
    of config.option_keys but deal and players) means: one page."""
    return "o_" + {"ctarget": "target", "cacescopa": "acescopa"}.get(key, key)


def house_pages(cfg, game, french=False):
    """``(pages, keys)``: the pages (lists of at most 7 lines of 16
    columns) of the house rules of `game` (a scopa.rules GAMES name) as the
    New game choices `cfg` set them, a title, then a line per option, its
    value right-aligned, and the options' cfg keys in that order;
    `french`: cards named by French faces (Re bello's KD)."""
    from config import GAME_KEYS, players
    from ui.house import house_rules

    c = dict(cfg)
    c["game"] = GAME_KEYS.index(game) if game in GAME_KEYS else 0
    c["players"] = players(c)
    lines = []
    shown = []
    for k, label, choices in house_rules(c, french):
        if k in ("deal", "players"):
            continue
        v = choices[c[k]] if 0 <= c[k] < len(choices) else choices[0]
        lines.append(label + " " * max(1, 16 - len(label) - len(v)) + v)
        shown.append(k)
    pages = []
    title = tr(lang.HOUSE_RULES)
    while lines:
        pages.append([title] + lines[:6])
        lines = lines[6:]
    return pages, shown
