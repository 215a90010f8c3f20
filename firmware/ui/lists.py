"""The list screen the menus and the scorekeeper's set-up share: rows of
``[label, choices, index]``. choices is None for a row that does
something when A is pressed, else a list of str the row cycles through
with LEFT / RIGHT (and A). UP / DOWN move, B goes back. The title is the
first text row; the selected row is drawn inverted.

A module of its own, so that a screen built on it loads this and not the
start menu's screens (ui.menu).
"""

from micropython import const

from ui import buttons as keys

ROW_H = const(9)  # pixels per row: 8 x 8 text and a gap


class List(keys.Screen):
    """A scrolling list of rows. Subclasses fill `rows` and override
    `action(i)`, `changed(i)` and `back()`."""

    title = ""
    home = None  # the start menu's item back() returns to (its lang id)

    def __init__(self, app, arg=None):
        self.app = app
        self.arg = arg
        self.rows = []
        self.sel = 0
        self.top = 0
        self.build()
        self.scroll()

    def build(self):
        pass

    def visible(self):
        return max(1, (self.app.h - ROW_H - 1) // ROW_H)

    def press(self, k, ev):
        n = len(self.rows)
        if not n:
            if k == keys.B:
                self.back()
            return
        row = self.rows[self.sel]
        if k == keys.UP:
            self.sel = (self.sel - 1) % n
        elif k == keys.DOWN:
            self.sel = (self.sel + 1) % n
        elif k in (keys.LEFT, keys.RIGHT) and row[1]:
            row[2] = (row[2] + (1 if k == keys.RIGHT else -1)) % len(row[1])
            self.changed(self.sel)
        elif k == keys.A and not ev & (keys.LONG | keys.REPEAT):
            if row[1]:
                row[2] = (row[2] + 1) % len(row[1])
                self.changed(self.sel)
            else:
                self.action(self.sel)
        elif k == keys.B and not ev & keys.REPEAT:
            self.back()
        else:
            return
        self.scroll()
        self.app.dirty = True

    def scroll(self):
        """Scroll so that the selected row shows."""
        vis = self.visible()
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + vis:
            self.top = self.sel - vis + 1

    def action(self, i):
        pass

    def changed(self, i):
        pass

    def back(self):
        self.app.go("menu", "Screen", self.home)

    def draw(self, fb):
        from ui.gfx import text

        app = self.app
        p = app.pal
        w = app.w
        text(fb, self.title, (w - 8 * len(self.title)) // 2, 0, p.FG)
        fb.hline(0, ROW_H - 1, w, p.FG)
        vis = self.visible()
        bar = len(self.rows) > vis  # a scroll mark on the right edge
        for j in range(vis):
            i = self.top + j
            if i >= len(self.rows):
                break
            label, choices, idx = self.rows[i]
            y = ROW_H + 1 + j * ROW_H
            fg = p.FG
            if i == self.sel:
                fb.fill_rect(0, y - 1, w, ROW_H, p.FG)
                fg = p.BG
            text(fb, label, 0, y, fg)
            if choices:
                v = choices[idx]
                text(fb, v, w - 8 * len(v) - (3 if bar else 1), y, fg)
        if bar:
            h = app.h - ROW_H
            y = ROW_H + h * self.top // len(self.rows)
            fb.vline(w - 1, y, max(2, h * vis // len(self.rows)), p.FG)


def re_bello_cards(french):
    """The Re bello option's cards as their faces show them: the re (king)
    of denari, the 6 of denari."""
    return ["KD" if french else "RD", "6D"]
