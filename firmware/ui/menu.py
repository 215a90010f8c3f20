"""The start menu, New game, the game's options, Settings and the
How-to-play index: list screens (ui.lists).
"""

from micropython import const

import lang
from lang import tr
from ui.house import house_rules
from ui.lists import ROW_H, List


class Screen(List):
    """The start menu; `arg`: the item (its lang id) the cursor starts on,
    the one a screen was left back to (Settings...), else Continue when a
    game is saved."""

    def build(self):
        app = self.app
        self.title = "Scopa"
        self.ids = [lang.NEW_GAME]
        saved = app.game is not None or app.unread  # (unread: no heap to read it at the start)
        if saved:
            self.ids.append(lang.CONTINUE)
        self.ids += [lang.SCOREKEEPER, lang.SETTINGS, lang.HOW_TO, lang.ABOUT]
        self.rows = [[tr(i), None, 0] for i in self.ids]
        if self.arg in self.ids:
            self.sel = self.ids.index(self.arg)
        elif saved:
            self.sel = 1  # a game is saved: the cursor on Continue
        if app.first_menu():
            en = ("New game", "Continue", "Scorekeeper", "Settings", "How to play", "About")
            print("menu: " + " | ".join(en[i] for i in self.ids))

    def action(self, i):
        app = self.app
        k = self.ids[i]
        if k == lang.NEW_GAME:
            # a new game replaces the saved one at Start: ask first
            app.go("menu", "Games" if app.game is None and not app.unread else "Replace")
        elif k == lang.CONTINUE:
            app.resume()
        elif k == lang.SCOREKEEPER:
            app.go("scorekeeper")
        elif k == lang.SETTINGS:
            app.go("menu", "Settings")
        elif k == lang.HOW_TO:
            app.go("menu", "Help")
        else:
            app.go("pages", "About")

    def back(self):
        pass

    def draw(self, fb):
        app = self.app
        if app.note:
            # a note ("Backup loaded") in place of the title, inverted, so
            # that it reads as a note and every item stays on screen; the
            # next key clears it
            self.title = ""
            List.draw(self, fb)
            self.title = "Scopa"
            fb.fill_rect(0, 0, app.w, ROW_H - 1, app.pal.FG)
            t = app.note
            from ui.gfx import text

            text(fb, t, max(0, (app.w - 8 * len(t)) // 2), 0, app.pal.BG)
        else:
            List.draw(self, fb)

    def press(self, k, ev):
        app = self.app
        if app.note and app.clear_note():
            # a second note (the settings' and the game's): this key shows
            # it and does nothing else, so that it is not skipped
            app.dirty = True
            return
        List.press(self, k, ev)


class Replace(List):
    """New game while a game is saved: Continue it (the cursor's first
    place) or go on to New game, which replaces it at Start."""

    home = lang.NEW_GAME

    def build(self):
        self.title = tr(lang.REPLACE_GAME)
        self.rows = [[tr(lang.CONTINUE), None, 0], [tr(lang.NEW_GAME), None, 0]]

    def action(self, i):
        app = self.app
        if i == 1:
            app.go("menu", "Games")
        else:
            app.resume()


def game_titles():
    """The rows of New game: Scopa for 2, 3, 4, 6, then config.MENU_GAMES."""
    from config import GAME_NAMES, MENU_GAMES

    out = [tr(lang.SCOPA_FOR) % n for n in (2, 3, 4, 6)]
    return out + [GAME_NAMES[g] for g in MENU_GAMES]


class Games(List):
    """New game: which game, and for how many (Scopa; the other games set
    their players, or Scopone its deal, in Options)."""

    home = lang.NEW_GAME

    def build(self):
        from config import MENU_GAMES, family

        self.title = tr(lang.NEW_GAME)
        self.rows = [[t, None, 0] for t in game_titles()]
        cfg = self.app.settings["cfg"]
        f = family(cfg["game"])
        if f in MENU_GAMES:
            self.sel = 4 + MENU_GAMES.index(f)
        elif cfg["players"] in (2, 3, 4, 6):
            self.sel = (2, 3, 4, 6).index(cfg["players"])

    def action(self, i):
        from config import DEALS, MENU_GAMES, SCOPONE, family, player_choices

        app = self.app
        if i < 4:
            app.set_setting("game", 0)
            app.set_setting("players", (2, 3, 4, 6)[i])
        else:
            g = MENU_GAMES[i - 4]
            if g == SCOPONE:
                g = DEALS[app.settings["cfg"]["deal"] % len(DEALS)]
            if family(g) != family(app.settings["cfg"]["game"]):
                # another game: its own first count of players (2), not
                # the last game's (Scopa for 4 made Cirulla a 4-player
                # game, its Players row out of sight above Start)
                app.set_setting("players", player_choices(g)[0])
            app.set_setting("game", g)
        app.go("menu", "Options")


_MEDIUM = const(1)  # consts.MEDIUM
_HUMAN = const(3)  # consts.HUMAN


def level_names(human):
    out = [tr(lang.EASY), tr(lang.MEDIUM), tr(lang.HARD)]
    if human:
        out.append(tr(lang.HUMAN))
    return out


class Options(List):
    """The options of the chosen game, then Start: the players or
    Scopone's deal, the seats, then the house rules that apply to the game
    (config.option_keys), each in the game's own words."""

    def build(self):
        import config

        app = self.app
        cfg = app.settings["cfg"]
        rules = config.make_rules(cfg)
        g = rules.game
        n = rules.players
        if g not in config.DEALS:
            app.set_setting("players", n)
        levels = level_names(app.settings["pass"] == 1)
        if g == config.SCOPA:
            self.title = tr(lang.SCOPA_FOR) % n
        else:
            self.title = config.GAME_NAMES[config.family(g)]
        keys = config.option_keys(cfg)
        seats = [("seat", tr(lang.SEAT), ["P%d" % (i + 1) for i in range(n)])]
        if n > rules.sides:
            word = lang.PARTNERS if n > 2 * rules.sides else lang.PARTNER
            seats.append(("partner", tr(word), levels))
        one = n - n // rules.sides == 1  # (2 players: "Opponent")
        seats.append(("opp", tr(lang.OPPONENT if one else lang.OPPONENTS), levels))
        rows = house_rules(cfg, app.french())
        at = 1 if keys[0] in ("deal", "players") else 0
        rows[at:at] = seats
        self.keys = [r[0] for r in rows] + [None]
        self.rows = []
        for k, label, ch in rows:
            if k == "deal":
                v = config.DEALS.index(g)
            elif k == "players":
                v = config.player_choices(g).index(n)
            else:
                v = cfg[k]
            if v == _HUMAN and k in ("partner", "opp") and v >= len(ch):
                # a person's seat with Pass & play off: played as Medium
                # (config.make_levels), shown so, kept for Pass & play on
                v = _MEDIUM
            elif not 0 <= v < len(ch):
                v = 0
                app.set_setting(k, 0)
            self.rows.append([label, ch, v])
        self.rows.append([tr(lang.START), None, 0])
        self.sel = len(self.rows) - 1

    def changed(self, i):
        import config

        app = self.app
        k = self.keys[i]
        v = self.rows[i][2]
        if k == "deal":
            app.set_setting("deal", v)
            app.set_setting("game", config.DEALS[v])
        elif k == "players":
            app.set_setting("players", config.player_choices(app.settings["cfg"]["game"])[v])
        else:
            app.set_setting(k, v)
        if k in ("deal", "players", "napola"):
            # rows come and go: the seats, Napoleone, the partner's hand
            self.build()
            self.sel = self.keys.index(k)
            self.scroll()

    def action(self, i):
        from config import GAME_KEYS

        app = self.app
        app.save_settings(pending=True)
        app.new_game()
        r = app.game.rules
        # for a text-only observer (the simulator's log)
        print("new game: %s, %d players, rules %s" % (GAME_KEYS[r.game], r.players, r.code()))
        app.go("table")

    def back(self):
        self.app.go("menu", "Games")


class Settings(List):
    """Language, card faces, contrast, sleep timeout, the scorekeeper when
    idle, pass-and-play."""

    home = lang.SETTINGS

    def build(self):
        from consts import CONTRASTS, SLEEPS

        s = self.app.settings
        self.title = tr(lang.SETTINGS)
        sleeps = []
        for t in SLEEPS:
            if not t:
                sleeps.append(tr(lang.NEVER))
            else:
                sleeps.append("%d s" % t if t < 60 else "%d min" % (t // 60))
        self.keys = ("lang", "faces", "contrast", "sleep", "keeper", "pass")
        self.rows = [
            [tr(lang.LANGUAGE), list(lang.NAMES), s["lang"]],
            [tr(lang.FACES), [tr(lang.ITALIAN), tr(lang.FRENCH)], s["faces"]],
            [tr(lang.CONTRAST), [str(i + 1) for i in range(len(CONTRASTS))], s["contrast"]],
            [tr(lang.SLEEP), sleeps, s["sleep"]],
            # the scorekeeper idle: dimmed, never off (the totals stay
            # readable at the table), or asleep like the other screens
            [tr(lang.KEEPER_IDLE), [tr(lang.DIM), tr(lang.SLEEP)], s["keeper"]],
            [tr(lang.PASS_PLAY), [tr(lang.OFF), tr(lang.ON)], s["pass"]],
        ]
        for r in self.rows:
            if not 0 <= r[2] < len(r[1]):
                r[2] = 0

    def changed(self, i):
        k = self.keys[i]
        self.app.set_setting(k, self.rows[i][2])  # the language loaded, the contrast set
        if k == "lang":
            sel = self.sel
            self.build()
            self.sel = sel

    def back(self):
        self.app.save_settings(pending=True)
        List.back(self)


class Help(List):
    """How to play: which game's rules (a section of lang/<code>_help.txt
    per game of config.GAME_KEYS), then the scorekeeper's (lang.KEEPER).
    `arg`: the section whose pages were left, the cursor's place; else
    New game's last game."""

    home = lang.HOW_TO

    def build(self):
        from config import GAME_KEYS, GAME_NAMES

        self.title = tr(lang.HOW_TO)
        self.rows = [[n, None, 0] for n in GAME_NAMES] + [[tr(lang.SCOREKEEPER), None, 0]]
        if self.arg in GAME_KEYS:
            self.sel = GAME_KEYS.index(self.arg)
        elif self.arg == lang.KEEPER:
            self.sel = len(GAME_NAMES)
        else:
            self.sel = self.app.settings["cfg"]["game"] % len(GAME_NAMES)

    def action(self, i):
        from config import GAME_KEYS

        self.app.go("pages", "Help", GAME_KEYS[i] if i < len(GAME_KEYS) else lang.KEEPER)
