"""Setting up a new score sheet: the game, players (2 or 3 sides, or 2
teams of 2 or 3), target, best of three, the variants, and a short name
per side, picked from a list with LEFT / RIGHT or typed: A on a name opens
the name editor (UP / DOWN: the letter, LEFT / RIGHT: the position, A:
done, B: leave it as it was). Start writes the new sheet to flash.

arg: the sheet in use (the new one starts from its game and names; B goes
back to it unchanged), or None: then the sheet of a round being typed
when every copy of its sheet was lost (App.keep_round's draft, still on
flash) is the one started from, and Start types that new round on as the
new sheet's first when it has as many sides, names or rules changed or
not (the steps the new rules ask for that were not typed yet open on
their defaults; an edit of an old round is not carried); with no such
round, the last choices made here (the setting "kset", kept as New
game's are: a restart on this screen opens them as they were left).

`Menu` is the scorekeeper's menu (B on the totals): history, undo the
last round, a new sheet, back to the start menu.
"""

from micropython import const

import lang
import sheet
from lang import tr
from scopa.rules import CIRULLA, SCOPA, TARGETS, Rules
from ui import buttons as keys
from ui import gfx
from ui.lists import List, re_bello_cards

# Scopone: the Scopone manual's deal, all 40 cards, 10 each (scientifico)
GAMES = ("scopa", "scopone_scientifico", "cirulla")
GAME_NAMES = ("Scopa", "Scopone", "Cirulla")
PLAYERS = ((2, 3, 4, 6), (4,), (2, 3, 4))
PRESETS = ("P1", "P2", "P3", "NOI", "VOI", "LOR")
CHARS = " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
RE_BELLO = (-1, 9, 5)  # off, the King or the 6 of denari
PICCOLA_CAPS = (0, 5, 6)  # Cirulla's piccola: uncapped, at most 5 or 6
NAME_LEN = const(3)


def _game_of(rules):
    g = rules.game
    if g == CIRULLA:
        return 2
    if rules.players == 4 and g != SCOPA:
        return 1
    return 0


def _lost(app):
    # the round being typed on a sheet that is gone (every copy damaged,
    # or removed), as (draft, its sheet with no rounds); (None, None):
    # none, or not of a sheet this screen makes. Raises MemoryError (the
    # draft left on flash: App._switch makes this screen again)
    try:
        d = app.commit_sheet(None, "kept")[0]
        if d is not None:
            sh = sheet.Sheet(Rules.from_code(d.get("rules")), d.get("names"))
            for i, x in enumerate(sh.names):  # as this screen gives them
                if not (isinstance(x, str) and 0 < len(x) <= NAME_LEN) or x in sh.names[:i]:
                    raise ValueError
                for j in range(len(x)):
                    if CHARS.find(x[j : j + 1]) < 0:  # (slices: ui.gfx)
                        raise ValueError
            TARGETS.index(sh.rules.target)
            return d, sh
    except (ValueError, TypeError):
        pass
    return None, None


def _carry(d, old, sh):
    # draft `d` of a new round typed on sheet `old`, as the first round of
    # sheet `sh` (a copy; keeper_entry.draft's keys): of the steps chosen,
    # those `sh` asks for; at the step it was on, or the first of `sh`'s
    # that `old` did not ask for, or was not reached (the review: past the
    # last field)
    d = dict(d)
    was = old.fields()
    now = sh.fields()
    k = d.get("k")
    g = d.get("g")
    if isinstance(g, list) and isinstance(k, int):
        same = list(was)  # the steps that ask what they asked
        if old.rules.re_bello != sh.rules.re_bello and "rb" in same:
            same.remove("rb")  # (another card: asked anew)
            v = d.get("v")
            if isinstance(v, dict):
                d["v"] = v = dict(v)
                v.pop("rb", None)
        d["g"] = [x for x in g if x in now and x in same]
        j = 0
        while j < len(now) and now[j] in same and was.index(now[j]) < k:
            j += 1
        d["k"] = j
    d["names"] = sh.names
    d["rules"] = sh.rules.code()
    d["n"] = 0
    d["e0"] = None
    return d


class Screen(List):
    def __init__(self, app, arg=None):
        self.old = arg
        self.draft = None  # the lost sheet's round being typed (_lost), and
        self.lost = None  # that sheet
        if arg is None:
            self.draft, self.lost = _lost(app)
            arg = self.lost
        r = arg.rules if arg is not None else Rules()
        g = _game_of(r)
        self.cfg = {
            "game": g,
            "players": PLAYERS[g].index(r.players) if r.players in PLAYERS[g] else 0,
            "target": TARGETS.index(r.target),
            "best": 1 if r.best_of > 1 else 0,
            "napola": 2 if r.napola and r.napola_fixed else r.napola,
            "napoleone": r.napoleone,
            "rebello": RE_BELLO.index(r.re_bello) if r.re_bello in RE_BELLO else 0,
            "pzero": r.primiera_zero,
            "piccola": PICCOLA_CAPS.index(r.piccola_cap) if r.piccola_cap in PICCOLA_CAPS else 0,
        }
        self.want = r.players  # the Players row's last choice: a game that has it keeps it
        self.names = list(arg.names) if arg is not None else []
        # a side's name as the keeper gave it (typed, or a preset picked),
        # kept while fewer sides hide it; "" where it follows sides / teams
        # (an old sheet's name that was its side's default)
        teams = r.players > r.sides
        self.typed = [x if x != _default(i, teams) else "" for i, x in enumerate(self.names)]
        self.typed += [""] * 3
        if arg is None:
            self._kept(app.settings.get("kset"))
        self.editing = -1  # the side whose name is being typed
        self.chars = []
        self.pos = 0
        List.__init__(self, app, arg)

    def _kept(self, k):
        # the last choices made here (setting "kset": _keep), each checked:
        # a value out of its range, or of the wrong type, left at its default
        if not isinstance(k, dict):
            return
        cfg = self.cfg
        for key in cfg:
            v = k.get(key)
            if isinstance(v, int) and 0 <= v < 8:  # (every row has fewer choices: build)
                cfg[key] = v
        if not cfg["game"] < len(GAMES):
            cfg["game"] = 0
        if not cfg["players"] < len(PLAYERS[cfg["game"]]):
            cfg["players"] = 0
        if not cfg["target"] < len(TARGETS):
            cfg["target"] = 0
        self.want = self.players()
        for i in range(3):
            v = k.get("t%d" % i)
            name = ""
            while isinstance(v, int) and 0 < v < 50653 and len(name) < NAME_LEN:  # 37 ** 3
                name = CHARS[v % 37 : v % 37 + 1] + name  # (slices: ui.gfx)
                v //= 37
            name = name.strip()
            if name and name not in self.typed:
                self.typed[i] = name

    def _keep(self):
        # the choices as setting "kset" (ints: a typed name as its letters'
        # places in CHARS, base 37), saved by the app a second later
        k = dict(self.cfg)
        for i in range(3):
            v = 0
            name = self.typed[i]
            for j in range(min(len(name), NAME_LEN)):
                v = v * 37 + max(CHARS.find(name[j : j + 1]), 0)
            k["t%d" % i] = v
        self.app.set_setting("kset", k)

    def players(self):
        return PLAYERS[self.cfg["game"]][self.cfg["players"]]

    def sides(self):
        p = self.players()
        return p if p < 4 else 2

    def build(self):
        cfg = self.cfg
        g = cfg["game"]
        on_off = [tr(lang.OFF), tr(lang.ON)]
        self.title = tr(lang.SK_NEW_SHEET)
        rows: list = [("game", tr(lang.SK_GAME), list(GAME_NAMES))]
        if len(PLAYERS[g]) > 1:
            rows.append(("players", tr(lang.SK_PLAYERS), [str(x) for x in PLAYERS[g]]))
        rows += [
            ("target", tr(lang.TARGET), [str(t) for t in TARGETS]),
            ("best", tr(lang.BEST_OF), ["1", "3"]),
            ("pzero", tr(lang.NO_SUIT), [tr(lang.OUT), "0"]),
        ]
        if g != 2:  # Cirulla has its piccola and grande, always
            napola = [tr(lang.OFF), tr(lang.PER_CARD), tr(lang.FIXED_THREE)]
            rows.append(("napola", tr(lang.NAPOLA), napola))
            if cfg["napola"]:
                rows.append(("napoleone", tr(lang.NAPOLEONE), on_off))
            rows.append(
                ("rebello", tr(lang.RE_BELLO), [tr(lang.OFF)] + re_bello_cards(self.app.french()))
            )
        else:
            rows.append(("piccola", tr(lang.PICCOLA_MAX), [tr(lang.OFF), "5", "6"]))
        n = self.sides()
        teams = self.players() > n
        names = self.names[:n]
        for i in range(n):
            if i >= len(names):
                names.append(self.typed[i] if self.typed[i] not in names else "")
            elif names[i] in PRESETS and not self.typed[i]:  # not picked: follows sides / teams
                names[i] = ""
        for i in range(n):  # each side its own default, where no side has it
            d = _default(i, teams)
            if not names[i] and d not in names:
                names[i] = d
        for i in range(n):  # else the first preset free: P1 typed for side 3
            if not names[i]:  # made P3 P2 P1 (it was P2 P3 P1, side 2 renamed)
                names[i] = _choices(names, i)[1]
        self.names = names
        self.keys = []
        self.rows = []
        for k, label, choices in rows:
            v = cfg[k]
            if not 0 <= v < len(choices):
                v = cfg[k] = 0
            self.keys.append(k)
            self.rows.append([label, choices, v])
        for i in range(n):
            label = tr(lang.TEAM) % str(i + 1) if teams else tr(lang.SK_NAME) % (i + 1)
            self.keys.append(i)
            self.rows.append([label, _choices(self.names, i), 0])
        self.keys.append(None)
        self.rows.append([tr(lang.START), None, 0])
        self.sel = len(self.rows) - 1
        self.top = max(0, self.sel - self.visible() + 1)

    def changed(self, i):
        k = self.keys[i]
        v = self.rows[i][2]
        if isinstance(k, int):
            self.names[k] = self.typed[k] = self.rows[i][1][v]
            for j, kj in enumerate(self.keys):  # the other sides' choices
                if isinstance(kj, int) and kj != k:
                    row = self.rows[j]
                    row[1] = _choices(self.names, kj)
                    row[2] = 0
            self._keep()
            return
        if k == "game":
            self.cfg["game"] = v
            ps = PLAYERS[v]
            self.cfg["players"] = ps.index(self.want) if self.want in ps else 0
            # Cirulla is played to 51, the others to 11
            t = TARGETS[self.cfg["target"]]
            if v == 2 and t == 11:
                self.cfg["target"] = TARGETS.index(51)
            elif v != 2 and t == 51:
                self.cfg["target"] = 0
        else:
            self.cfg[k] = v
            if k == "players":
                self.want = self.players()
        self.build()
        self.sel = self.keys.index(k)
        self._keep()

    def rules(self):
        cfg = self.cfg
        g = GAMES[cfg["game"]]
        opts = {
            "target": TARGETS[cfg["target"]],
            "best_of": 3 if cfg["best"] else 1,
        }
        if g != GAMES[1]:
            opts["players"] = self.players()
        opts["primiera_missing_suit"] = "zero" if cfg["pzero"] else "excluded"
        if g != "cirulla":
            opts["napola"] = bool(cfg["napola"])
            opts["napoleone"] = bool(cfg["napoleone"])
            opts["napola_score"] = "fixed" if cfg["napola"] == 2 else "per_card"
            opts["re_bello"] = (None, "10D", "6D")[cfg["rebello"] % 3]
        else:
            opts["piccola_cap"] = PICCOLA_CAPS[cfg["piccola"] % 3] or None
        return Rules(g, **opts)

    def action(self, i):
        app = self.app
        sh = sheet.Sheet(self.rules(), self.names)
        d = self.draft
        if (
            d is not None
            and self.lost is not None
            and d.get("i") == -1
            and sh.rules.sides == self.lost.rules.sides
        ):
            # the lost sheet's new round: the new sheet's first, its draft
            # written for it before the sheet (a cut between them: typed
            # on as now) and kept by the sheet's save
            d = _carry(d, self.lost, sh)
        else:
            d = None
        note = [tr(lang.NOT_SAVED)] if app.commit_sheet(sh, "save", e=d) else []
        print("sheet: new %s %s" % (sh.rules.code(), " ".join(sh.names)))
        if d is not None and not note:
            app.go("keeper_entry", "Screen", (sh, -1, False, d))
        else:
            app.go("scorekeeper", "Screen", (sh, note))

    def back(self):
        if self.old is not None:
            self.app.go("scorekeeper", "Screen", self.old)
        else:
            self.app.go("menu", "Screen", lang.SCOREKEEPER)

    # The name editor ------------------------------------------------------

    def press(self, k, ev):
        if self.editing < 0:
            row = self.keys[self.sel]
            if isinstance(row, int) and ev == keys.A:
                self.editing = row
                name = self.names[row]
                # (slices: a character indexed or iterated alone would
                # stay a name for good, ui.gfx)
                n = min(len(name), NAME_LEN)
                self.chars = [max(CHARS.find(name[i : i + 1]), 0) for i in range(n)]
                self.chars += [0] * (NAME_LEN - len(self.chars))
                self.pos = 0
                self.app.dirty = True
                return
            List.press(self, k, ev)
            return
        if ev & keys.LONG:
            return
        if k in (keys.UP, keys.DOWN):
            d = 1 if k == keys.UP else -1
            self.chars[self.pos] = (self.chars[self.pos] + d) % len(CHARS)
        elif ev & keys.REPEAT:
            return
        elif k in (keys.LEFT, keys.RIGHT):
            self.pos = max(0, min(NAME_LEN - 1, self.pos + (1 if k == keys.RIGHT else -1)))
        elif k == keys.A:
            name = "".join(CHARS[c : c + 1] for c in self.chars).strip()
            if name and name != self.names[self.editing]:  # the same: nothing typed
                for j in range(len(self.names)):
                    if j != self.editing and self.names[j] == name:
                        # another side's name: it gives it up for a free preset
                        self.names[j] = self.typed[j] = ""
                self.names[self.editing] = self.typed[self.editing] = name
                self._keep()
            self._done()
        elif k == keys.B:
            self._done()
        self.app.dirty = True

    def _done(self):
        sel = self.sel
        self.editing = -1
        self.build()
        self.sel = sel

    def draw(self, fb):
        if self.editing < 0:
            List.draw(self, fb)
            return
        app = self.app
        p = app.pal
        label = self.rows[self.sel][0]
        gfx.text(fb, label, (app.w - 8 * len(label)) // 2, 0, p.FG)
        x0 = (app.w - 16 * NAME_LEN) // 2
        y = (app.h - 8) // 2
        for j in range(NAME_LEN):
            x = x0 + 16 * j + 4
            c = self.chars[j]
            ch = CHARS[c : c + 1]
            if j == self.pos:
                fb.fill_rect(x - 2, y - 2, 12, 12, p.FG)
                gfx.text(fb, ch, x, y, p.BG)
                gfx.text(fb, "^", x, y - 12, p.FG)
                gfx.text(fb, "v", x, y + 12, p.FG)
            else:
                gfx.text(fb, ch, x, y, p.FG)
                fb.hline(x, y + 10, 8, p.FG)


class Menu(List):
    """History, undo the last round, a new sheet, back to the start menu."""

    def __init__(self, app, arg: "sheet.Sheet"):
        self.sh = arg
        List.__init__(self, app, arg)
        if len(arg.rounds) >= sheet.MAX_ROUNDS:  # full: on New sheet, what A is for
            self.sel = self.ids.index(lang.SK_NEW_SHEET)
            self.scroll()

    def build(self):
        self.title = tr(lang.SCOREKEEPER)
        self.ids = [lang.SK_HISTORY]
        if self.sh.rounds:
            self.ids.append(lang.SK_UNDO)
        self.ids += [lang.SK_NEW_SHEET, lang.SK_EXIT]
        self.rows = [[tr(i), None, 0] for i in self.ids]

    def action(self, i):
        app = self.app
        k = self.ids[i]
        sh = self.sh
        if k == lang.SK_HISTORY:
            app.go("scorekeeper", "History", (sh, len(sh.rounds) - 1))
        elif k == lang.SK_UNDO:
            app.go("scorekeeper", "Undo", sh)
        elif k == lang.SK_NEW_SHEET:
            # a new sheet replaces this one at Start: ask first when it has rounds
            app.go("keeper_setup", "Replace" if sh.rounds else "Screen", sh)
        else:
            app.go("menu")  # Main menu: the start menu as at start (Continue, or New game)

    def back(self):
        self.app.go("scorekeeper", "Screen", self.sh)


class Replace(List):
    """New sheet on a sheet with rounds: back to it (the cursor's first
    place) or on to New sheet, which replaces it at Start."""

    def __init__(self, app, arg: "sheet.Sheet"):
        self.sh = arg
        List.__init__(self, app, arg)

    def build(self):
        self.title = tr(lang.SK_REPLACE)
        self.rows = [[tr(lang.CONTINUE), None, 0], [tr(lang.SK_NEW_SHEET), None, 0]]

    def action(self, i):
        if i == 1:
            self.app.go("keeper_setup", "Screen", self.sh)
        else:
            self.back()

    def back(self):
        self.app.go("scorekeeper", "Screen", self.sh)


def _default(i, teams):
    # side i's name when the keeper gives none: NOI / VOI for teams, else P1..
    return ("NOI", "VOI")[i] if teams else "P%d" % (i + 1)


def _choices(names, i):
    # side i's name, then the presets no side has taken: never two P1
    return [names[i]] + [x for x in PRESETS if x not in names]
