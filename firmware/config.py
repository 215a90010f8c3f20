"""Settings and the start of games: what the app needs at boot and in the
menus but not while a game is played, so it is a module of its own that
the app drops from the heap once the table shows (app.py imports it when
needed).

Settings (saved as store record app.SETTINGS): language, faces (0
Italian, 1 French), contrast and sleep (indices of app.CONTRASTS and
app.SLEEPS), pass-and-play, and the last New game choices (cfg).
"""

from app import EASY, GAME, HUMAN, MEDIUM, SETTINGS

GAME_KEYS = ("scopa", "scopone", "scopone_scientifico")
TARGETS = (11, 16, 21, 31)


def default_settings():
    """Settings of a new device (a dict; see the module's docstring)."""
    return {
        "lang": 0,
        "faces": 0,
        "contrast": 3,
        "sleep": 1,
        "pass": 0,
        "cfg": {
            "game": 0,
            "players": 2,
            "seat": 0,
            "partner": MEDIUM,
            "opp": MEDIUM,
            "target": 0,
            "best": 0,
            "must": 1,
            "pair": 1,
            "napola": 0,
            "rebello": 0,
        },
    }


def make_rules(cfg):
    """The scopa Rules of New game choices `cfg` (see default_settings)."""
    from scopa.rules import Rules

    g = cfg["game"]
    opts = {
        "target": TARGETS[cfg["target"]],
        "best_of": 3 if cfg["best"] else 1,
        "capture_mandatory": bool(cfg["must"]),
        "match_priority": "strict" if cfg["pair"] else "free",
        "napola": bool(cfg["napola"]),
        "re_bello": True if cfg["rebello"] else None,
    }
    if g == 0:
        opts["players"] = cfg["players"]
    return Rules(GAME_KEYS[g], **opts)


def make_levels(cfg, players, sides, human_ok):
    """Level of each seat: HUMAN for the player's seat, the partner level
    for the seats of the player's side, the opponents' for the others
    (HUMAN levels only with pass-and-play)."""
    seat = cfg["seat"] % players
    out = []
    for s in range(players):
        if s == seat:
            lv = HUMAN
        elif s % sides == seat % sides:
            lv = cfg["partner"]
        else:
            lv = cfg["opp"]
        if lv == HUMAN and not human_ok and s != seat:
            lv = MEDIUM
        out.append(lv)
    return out


def load_settings(app):
    """Read the saved settings into app.settings (keys it does not know,
    or values of the wrong type, are left at their defaults); load the
    language and set the contrast."""
    import lang
    import store

    obj, status, why = store.load(SETTINGS, app.folder)
    s = app.settings
    if isinstance(obj, dict):
        for k in s:
            if k == "cfg" and isinstance(obj.get(k), dict):
                for j in s["cfg"]:
                    v = obj[k].get(j)
                    if isinstance(v, int):
                        s["cfg"][j] = v
            elif isinstance(obj.get(k), int):
                s[k] = obj[k]
    if why:
        print("store:", why)
    try:
        lang.load(s["lang"])
    except OSError as e:
        print("lang: no strings:", e)
    app.apply_contrast()


def new_game(app):
    """A new game in `app` from the settings' New game choices; saved."""
    from scopa.game import Game

    cfg = app.settings["cfg"]
    rules = make_rules(cfg)
    app.levels = make_levels(cfg, rules.players, rules.sides, app.settings["pass"])
    app.game = Game(rules, app.seed())
    app.shown = -1
    app.save_game()


def load_game(app):
    """Read the saved game into `app`; True when one was found. Sets
    app.note when a damaged save was replaced by its backup, or lost."""
    import lang
    import store
    from scopa import replay

    obj, status, why = store.load(GAME, app.folder)
    if why:
        print("store:", why)
    game = None
    levels = []
    if isinstance(obj, dict):
        try:
            game = replay.decode(obj.get("code"))
            levels = obj.get("levels")
            if not isinstance(levels, list) or len(levels) != game.rules.players:
                raise ValueError("bad seats")
            for v in levels:
                if not isinstance(v, int) or not EASY <= v <= HUMAN:
                    raise ValueError("bad seats")
            if HUMAN not in levels:
                raise ValueError("no human seat")
        except ValueError as e:
            print("store: saved game unreadable:", e)
            game = None
    if game is None or not isinstance(levels, list):
        if status == store.BAD or obj is not None:
            app.note = lang.T(lang.SAVE_LOST)
        return False
    if status == store.BAK:
        app.note = lang.T(lang.SAVE_RESTORED)
    app.game = game
    app.levels = levels
    app.shown = -1
    return True
