"""The scorekeeper: the score sheet of games played with real cards.

Screens here: `Screen` (the match totals in large digits, readable across
a table), `History` (every round of the evening, running totals) and
`Undo`. Entering or editing a round is ui/keeper_entry.py; setting up a
new sheet and the scorekeeper's menu ui/keeper_setup.py.

The sheet (firmware/sheet.py) goes from screen to screen as the `arg` of
``app.go``: a Sheet, or ``(sheet, note)`` where note is a list of lines
shown once. Opened from the start menu (no arg) the sheet is read from
flash; a damaged file is reported and its last good copy used; a round
that was being typed when the power went (App.keep_round) is typed on
(after the note, when there is one); one whose every copy was damaged is
said lost (SK_DRAFT_LOST), kept as round.sav.bad.
Every change is written to flash at once (App.commit_sheet).

Keys on the totals: A enters the next round, UP / DOWN the history,
B the scorekeeper's menu (the key line says A and B, a row of its own
UP / DOWN where the digits leave one: three sides, the colour screen).
A sheet holds sheet.MAX_ROUNDS rounds: then A opens the menu too, for a
New sheet. A sheet that cannot be read for want of heap is said so and
left on flash as it is; a key goes to the start menu. A long sheet says
"Reading..." while it is read (`reading`).
"""

from micropython import const

import lang
import sheet
from lang import tr
from ui import buttons as keys
from ui import gfx

_LONG = const(2048)  # bytes of a sheet that says "Reading..." (reading)
_PLUS = const(43)  # "+" (ui.gfx.glyph takes a code point)
_TROUBLE = {sheet.CUT: lang.SK_CUT, sheet.DAMAGED: lang.SK_DAMAGED}
_TROUBLE[sheet.NEWER] = lang.SK_NEWER
_TROUBLE[sheet.OLDER] = lang.SK_OLDER


def reading(app):
    """Before the sheet is read from flash (App._switch, this screen made
    with no sheet): a sheet of _LONG bytes or more (about 50 rounds) takes
    a noticeable time to read on a board (about 7 ms a round on a Pico),
    so the screen says "Reading..." first rather than keep the last frame
    as if the device had hung."""
    import store

    if store.size(sheet.FILE, app.folder) < _LONG:
        return
    fb = app.fb
    fb.fill(app.pal.BG)
    gfx.centre(fb, tr(lang.READING), (app.h - 8) // 2, app.pal.FG, app.w)
    fb.show()


def open_sheet(app):
    """Read the sheet from flash: ``(sheet or None, note lines)``. The
    note says which copy was used, what was wrong with the newer one and
    how many rounds the copy used holds (the newer may have had more);
    with no good copy, also a round being typed whose every copy was
    damaged (set aside: sheet.kept_draft). Raises MemoryError (every copy
    left as it is: sheet.load)."""
    sh, status, why = app.commit_sheet(None, "load")
    note = []
    if why:
        print("sheet:", why)
        note.append(tr(lang.SAVE_RESTORED if sh is not None else lang.SAVE_LOST))
        t = sheet.trouble(why)
        if t in _TROUBLE:
            note.append(tr(_TROUBLE[t]))
        if sh is not None:  # what it holds: a round the newer copy had may be lost
            note.append(tr(lang.SK_KEPT_ROUNDS) % len(sh.rounds))
        try:
            if sh is None and app.commit_sheet(None, "kept")[1]:
                note.append(tr(lang.SK_DRAFT_LOST))  # (its round being typed too)
        except MemoryError:
            pass  # (the sheet's note first: the draft is read again at New sheet)
    if sh is not None:
        n = len(sh.rounds)
        print("sheet: %d round%s, %s" % (n, "" if n == 1 else "s", " ".join(sh.names)))
    return sh, note


def _resume(app, sh):
    # a round typed when the power went (App.keep_round): typed on, when
    # it was typed on this sheet as it is now (not once it was confirmed:
    # a new round, the sheet then has one more; an edit, its round then
    # differs from the one the edit started from); a new round typed on a
    # sheet longer than this one (read from its older copy, the newer
    # damaged: the draft is newer than any confirm) as this sheet's next.
    # Returns the note to show: the draft's every copy damaged, it says so
    d, lost = app.commit_sheet(None, "kept")
    if d is None:
        return [tr(lang.SK_DRAFT_LOST), tr(lang.SK_DAMAGED)] if lost else []
    i = d.get("i")
    n = len(sh.rounds)
    dn = d.get("n")
    if (
        isinstance(dn, int)
        and (dn == n or (i == -1 and dn > n))
        and d.get("names") == sh.names
        and d.get("rules") == sh.rules.code()
        and isinstance(i, int)
        and -1 <= i < n
        and (i < 0 or d.get("e0") == sh.rounds[i])
    ):
        print("sheet: the round being typed, typed on")
        app.go("keeper_entry", "Screen", (sh, i, False, d))
    else:
        app.keep_round(None)
    return []


def unpack(arg):
    """(sheet, note) of a screen's arg: a Sheet or (Sheet, note)."""
    if isinstance(arg, tuple):
        return arg[0], arg[1]
    return arg, []


class Screen(keys.Screen):
    """The totals of the match in progress (or just finished)."""

    READABLE = True  # idle: dimmed, never off (App.stays_readable)
    SKIP = keys.REPEAT | keys.LONG

    short = False  # the sheet could not be read for want of heap: B, A to the menu
    read = False  # the sheet was read from flash with a note: a kept round after it

    def __init__(self, app, arg=None):
        self.app = app
        try:
            if isinstance(arg, sheet.Sheet) or isinstance(arg, tuple):
                self.sh, self.note = unpack(arg)
            else:
                self.sh, self.note = open_sheet(app)
                if self.sh is None and not self.note:
                    app.go("keeper_setup")
                elif self.sh is not None and not self.note:
                    self.note = _resume(app, self.sh)
                else:
                    self.read = self.sh is not None
            self.m = self.sh.match() if self.sh is not None else None
        except MemoryError:
            # (not damage: the sheet stays on flash as it is, for the next
            # opening; a new one set up now would replace it)
            print("sheet: not read: out of memory")
            self.sh = self.m = None
            self.note = [tr(lang.NO_MEMORY)]
            self.short = True

    def press(self, k, ev):
        app = self.app
        if self.note:
            note = []
            if self.short:  # (the cursor on Scorekeeper, where it was left)
                app.go("menu", "Screen", lang.SCOREKEEPER)
            elif self.sh is None:
                app.go("keeper_setup")
            elif self.read:  # the round being typed, once the note is read
                note = _resume(app, self.sh)  # (no heap: the note stays, the next key again)
                self.read = False
            self.note = note
            app.dirty = True
            return
        sh = self.sh
        if sh is None:
            return
        if k == keys.A and len(sh.rounds) >= sheet.MAX_ROUNDS:
            app.go("keeper_setup", "Menu", sh)  # (its New sheet)
        elif k == keys.A:
            app.go("keeper_entry", "Screen", (sh, -1))
        elif k in (keys.UP, keys.DOWN):
            app.go("scorekeeper", "History", (sh, len(sh.rounds) - 1))
        elif k == keys.B:
            app.go("keeper_setup", "Menu", sh)

    def draw(self, fb):
        app = self.app
        p = app.pal
        w = app.w
        h = app.h
        if self.note:
            y = (h - 8 * len(self.note)) // 2
            for line in self.note:
                gfx.centre(fb, line, y, p.FG, w)
                y += 10
            return
        sh = self.sh
        m = self.m
        if sh is None or m is None:
            return
        n = sh.rules.sides
        cw = w // n
        s0 = max(1, min(cw // 10, (h - 34) // 5))  # the digits' scale (a long total's less)
        if 14 + 5 * s0 + 2 <= h - 28:  # a row free below the digits (and a winner's box)
            gfx.centre(fb, tr(lang.SK_HIST_KEYS), h - 28, p.FG, w)
        for i in range(n):
            x = i * cw
            name = sh.names[i]
            gfx.centre(fb, name, 0, p.FG, cw, x)
            if sh.rules.best_of > 1:  # matches won in this game: a box each
                bx = x + (cw + 8 * len(name)) // 2 + 2
                for _ in range(m["wins"][i]):
                    fb.fill_rect(bx, 2, 4, 4, p.FG)
                    bx += 6
            t = str(m["totals"][i])
            s = s0
            while s > 1 and gfx.small_width(t, s) > cw - 4:
                s -= 1
            tw = gfx.small_width(t, s)
            tx = x + (cw - tw) // 2
            gfx.small(fb, t, tx, 11, p.FG, s)
            if m["over"] and m["winner"] == i:
                fb.rect(tx - 3, 8, tw + 6, 5 * s + 6, p.FG)
        y = h - 18
        full = len(sh.rounds) >= sheet.MAX_ROUNDS  # no round more: A, B the menu
        if full:
            gfx.centre(fb, tr(lang.SK_FULL), y, p.FG, w)
        elif m["over"]:  # what A does now, as the table says it
            t = tr(lang.NEW_MATCH if m["finished"] else lang.NEXT_MATCH)
            gfx.centre(fb, t, y, p.FG, w)
        else:
            gfx.text(fb, tr(lang.ROUND) % (m["n"] + 1), 0, y, p.FG)
            t = "/%d" % sh.rules.target
            gfx.text(fb, t, w - 8 * len(t) - 1, y, p.FG)
        y = h - 8
        if m["over"]:
            who = sh.names[m["winner"]]
            t = tr(lang.WINS) % who if m["finished"] else tr(lang.MATCH_TO) % who
            fb.fill_rect(0, y - 1, w, 9, p.FG)
            gfx.centre(fb, t, y, p.BG, w)
        elif not full:
            tot = m["totals"]
            top = max(tot)
            tied = top >= sh.rules.target and tot.count(top) > 1  # another round
            gfx.centre(fb, tr(lang.SK_TIE if tied else lang.SK_KEYS), y, p.FG, w)


ROW_H = const(9)


class History(keys.Screen):
    """Every round of the evening, newest at the bottom: each side's
    points in the round (small digits) and the match total after it; a
    line between matches, the winner's last total reversed. A shows the
    round (and edits it from there), B goes back to the totals."""

    READABLE = True  # idle: dimmed, never off (App.stays_readable)

    def __init__(self, app, arg):
        self.app = app
        self.sh, sel = arg
        self.sel = max(0, min(sel, len(self.sh.rounds) - 1))
        self.top = 0
        self._scroll()

    def visible(self):
        return max(1, (self.app.h - ROW_H) // ROW_H)

    def _scroll(self):
        vis = self.visible()
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + vis:
            self.top = self.sel - vis + 1

    def press(self, k, ev):
        app = self.app
        n = len(self.sh.rounds)
        if k == keys.UP and n:
            self.sel = (self.sel - 1) % n
        elif k == keys.DOWN and n:
            self.sel = (self.sel + 1) % n
        elif ev & (keys.REPEAT | keys.LONG):
            return
        elif k == keys.A and n:
            app.go("keeper_entry", "Screen", (self.sh, self.sel, True))
        elif k == keys.B:
            app.go("scorekeeper", "Screen", self.sh)
        else:
            return
        self._scroll()
        app.dirty = True

    def columns(self):
        n = self.sh.rules.sides
        cw = (self.app.w - 25) // n  # a pixel of margin
        return [24 + (i + 1) * cw for i in range(n)]  # right edges

    def draw(self, fb):
        app = self.app
        p = app.pal
        w = app.w
        ends = self.columns()
        for i, x in enumerate(ends):
            name = self.sh.names[i]
            gfx.text(fb, name, x - 8 * len(name), 0, p.FG)
        fb.hline(0, ROW_H - 1, w, p.FG)
        n = len(self.sh.rounds)
        if not n:
            gfx.centre(fb, tr(lang.SK_NO_ROUNDS), (app.h + ROW_H) // 2 - 4, p.FG, w)
        for j in range(self.visible()):
            r = self.top + j
            if r >= n:
                break
            no, pts, totals, won = self.sh.row(r)
            y = ROW_H + 1 + j * ROW_H
            fg = p.FG
            bg = p.BG
            if r == self.sel:
                fb.fill_rect(0, y - 1, w, ROW_H, p.FG)
                fg = p.BG
                bg = p.FG
            elif no == 1 and r:
                fb.hline(0, y - 1, w, p.FG)
            gfx.text(fb, str(no), 0, y, fg)
            left = 8 * len(str(no))  # the round's number, then each column's total
            for k, x in enumerate(ends):
                t = str(totals[k])
                tx = x - 8 * len(t)
                if k == won:  # the winning total reversed out of its row
                    fb.fill_rect(tx - 2, y - 1, 8 * len(t) + 2, ROW_H, fg)
                    gfx.text(fb, t, tx, y, bg)
                else:
                    gfx.text(fb, t, tx, y, fg)
                pt = str(pts[k])  # the round's points: small, after a plus,
                px = tx - 4 - gfx.small_width(pt)
                if px - 5 >= left + 6:  # clear of the total on their left (A shows them)
                    gfx.small(fb, pt, px, y + 2, fg)
                    gfx.glyph(fb, _PLUS, px - 5, y + 2, fg)  # 2 px before them
                left = x


class Undo(keys.Screen):
    """Undo the last round? A: yes, B: no."""

    READABLE = True  # idle: dimmed, never off (App.stays_readable)
    SKIP = keys.REPEAT | keys.LONG

    def __init__(self, app, arg):
        self.app = app
        self.sh = arg
        sh = arg
        self.sc = sh.points(sh.rounds[-1])
        # the round's number, as the sheet places it: once, not per frame
        # (place() rescores every round)
        self.no = sh.place(len(sh.rounds) - 1)[1]

    def press(self, k, ev):
        app = self.app
        sh = self.sh
        if k == keys.A:
            note = [tr(lang.NOT_SAVED)] if app.commit_sheet(sh, "undo") else []
            t = sh.standing()[0]
            print("sheet: undo round %d -> %s" % (len(sh.rounds) + 1, " ".join(str(x) for x in t)))
            app.go("scorekeeper", "Screen", (sh, note))
        elif k == keys.B:
            app.go("scorekeeper", "Screen", sh)

    def draw(self, fb):
        app = self.app
        p = app.pal
        sh = self.sh
        gfx.centre(fb, tr(lang.SK_UNDO_Q) % self.no, 16, p.FG, app.w)
        n = sh.rules.sides
        cw = app.w // n
        for i in range(n):  # each side's points in that round
            gfx.centre(fb, sh.names[i], 28, p.FG, cw, i * cw)
            gfx.centre(fb, str(self.sc.total[i]), 38, p.FG, cw, i * cw)
        gfx.centre(fb, tr(lang.OK_BACK), app.h - 8, p.FG, app.w)
