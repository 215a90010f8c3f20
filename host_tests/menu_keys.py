"""The key presses that start a game from the start menu, found by reading
the menus as a player reads the screen: the real app runs in-process on
CPython (fake board, fresh settings), a key at a time, and the rows, their
labels and choices are looked at between keys. Key scripts built from them
(the simulator's, the app benchmark's) so follow the menus when rows are
added or moved.

    keys = new_game_keys("scopone_scientifico", 4, partner=app.HARD, opp=app.HARD)
    sim_script(keys)  # "A down down ... A"

The letters are those of ui_fakeboard.keys: U D L R A B.
"""

import tempfile

import app
import lang
import ui_fakeboard as F
from lang import tr
from scopa.rules import GAMES

SIM_KEYS = {"U": "up", "D": "down", "L": "left", "R": "right", "A": "A", "B": "B"}


class Menus:
    """The app at its start menu, driven a key at a time; ``keys`` holds
    the letters pressed so far."""

    def __init__(self, folder):
        self.board = F.Board(())
        self.app = app.App(self.board, folder)
        self.app.start()
        self.app.loop(5)
        self.keys = ""

    def press(self, k):
        self.board.buttons.push(F.keys(k))
        self.app.loop(30)  # held 60 ms, released 60 ms, the next screen shown
        self.keys += k

    @property
    def screen(self):
        return self.app.screen

    def row(self):
        s = self.screen
        return s.rows[s.sel]

    def go_row(self, pred):
        """DOWN until the selected row satisfies `pred(index, row)`; False
        when no row does."""
        for _ in range(len(self.screen.rows) + 1):
            if pred(self.screen.sel, self.row()):
                return True
            self.press("D")
        return False

    def go_label(self, sid):
        return self.go_row(lambda i, r: r[0] == tr(sid))

    def choose(self, text):
        """RIGHT until the selected row's choice reads `text`."""
        for _ in range(len(self.row()[1]) + 1):
            label, choices, idx = self.row()
            if choices[idx] == text:
                return True
            self.press("R")
        return False


def _level_name(level):
    return tr((lang.EASY, lang.MEDIUM, lang.HARD, lang.HUMAN)[level])


def new_game_keys(game="scopa", players=2, partner=None, opp=None, start=True, rows=()):
    """Letters that start `game` (a scopa.rules.GAMES name) for `players`
    from a fresh start menu, the partners' and opponents' levels set to
    `partner` / `opp` (app.EASY .. app.HARD; None keeps the default), then
    each house rule of `rows`, pairs (lang id of the row's label, the
    choice's text as shown), set.
    With `start` false, the letters stop in the game's options, after the
    levels are set. Raises LookupError when the menus offer no such game."""
    want = (GAMES.index(game), players)

    def matches(m):
        r = app._config().make_rules(m.app.settings["cfg"])
        return (r.game, r.players) == want

    with tempfile.TemporaryDirectory(prefix="menu_keys_") as folder:
        m = Menus(folder)
        if not m.go_label(lang.NEW_GAME):
            raise LookupError("no New game in the start menu")
        m.press("A")
        found = False
        for i in range(len(m.screen.rows)):  # each game of the New game list
            m.go_row(lambda j, r, i=i: j == i)
            m.press("A")
            found = matches(m)
            # the rows above "Your seat" choose the players or the deal
            seat = [r[0] for r in m.screen.rows].index(tr(lang.SEAT))
            for j in range(seat):
                if found:
                    break
                m.go_row(lambda k, r, j=j: k == j)
                for _ in range(len(m.row()[1] or ())):
                    m.press("R")
                    found = matches(m)
                    if found:
                        break
            if found:
                break
            m.press("B")  # back to the list of games
        if not found:
            raise LookupError("no %s for %d in the New game menus" % (game, players))
        opps = lang.OPPONENT if players == 2 else lang.OPPONENTS
        for sid, level in ((lang.PARTNER, partner), (opps, opp)):
            if level is not None:
                if not (m.go_label(sid) and m.choose(_level_name(level))):
                    raise LookupError("no %s row with %s" % (tr(sid), _level_name(level)))
        for sid, text in rows:
            if not (m.go_label(sid) and m.choose(text)):
                raise LookupError("no %s row with %s" % (tr(sid), text))
        if not start:
            return m.keys
        m.go_label(lang.START)
        m.press("A")
        g = m.app.game
        if g is None or (g.rules.game, g.rules.players) != want:
            raise LookupError("Start did not start %s for %d" % (game, players))
        return m.keys


def keys_to(*sids):
    """Letters that open, from a fresh start menu, the rows labelled by
    the lang ids `sids` in turn (DOWN to each, A)."""
    with tempfile.TemporaryDirectory(prefix="menu_keys_") as folder:
        m = Menus(folder)
        for sid in sids:
            if not m.go_label(sid):
                raise LookupError("no row %r" % tr(sid))
            m.press("A")
        return m.keys


def sim_script(keys):
    """The simulator's key script (boards/sim/board.py) of letters `keys`."""
    return " ".join(SIM_KEYS[k] for k in keys)
