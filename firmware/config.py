"""Settings and the start of games: what the app needs at boot and in the
menus but not while a game is played, so it is a module of its own that
the app drops from the heap once the table shows (app.py imports it when
needed; its memory policy, app._FREE).

Settings (saved as store record consts.SETTINGS): language, faces (0
Italian, 1 French), contrast and sleep (indices of consts.CONTRASTS and
consts.SLEEPS), pass-and-play, sheet (1: the scorekeeper was left on its
sheet, which a restart opens), the last New game choices (cfg) and the
last New sheet choices of the scorekeeper (kset: ui.keeper_setup's rows
and typed names, ints; read by that screen, which checks them).

It returns what it reads or makes; the app keeps it and saves it. Reading
the saves (called by the app) it writes only their recovery: a damaged
copy set aside as .bad, a cut save's renames finished, the journal moved
beside the record it follows (store.load, store.give_up, store.rotate).
"""

from micropython import const

from consts import CONTRASTS, EASY, GAME, HUMAN, JOURNAL, MEDIUM, SETTINGS, SLEEPS
from scopa.rules import GAMES as GAME_KEYS  # cfg["game"] indexes the presets

GAME_NAMES = (
    "Scopa",
    "Scopone",
    "Sc. scientifico",
    "Scopa d'Assi",
    "Scopa a 15",
    "Cirulla",
    "Scopone a 10",
)
SCOPA = const(0)
SCOPONE = const(1)
SCIENTIFICO = const(2)
D_ASSI = const(3)
A_15 = const(4)
CIRULLA = const(5)
SCOPONE_10 = const(6)

# New game's list: Scopa for 2, 3, 4, 6, then these games.
MENU_GAMES = (SCOPONE, D_ASSI, A_15, CIRULLA)
# Scopone's deal (cfg "deal"): the game of each choice, in its own words.
# The Scopone manual's Scopone deals all 40 cards, 10 each, none on the
# table: scientifico first.
DEALS = (SCIENTIFICO, SCOPONE, SCOPONE_10)
DEAL_NAMES = ("scientifico", "classico", "a 10 carte")

TARGETS = (11, 16, 21, 31)
CIRULLA_TARGETS = (51, 31, 21)  # cfg "ctarget"
RE_BELLO = (None, "10D", "6D")  # cfg "rebello": off, King or 6 of coins
PICCOLA_CAPS = (None, 5, 6)  # cfg "piccola": Cirulla's piccola uncapped, at most 5, 6
# cfg "napola": 0 off, 1 one point a card of the run, 2 a fixed 3


def default_settings():
    """Settings of a new device (a dict; see the module's docstring)."""
    return {
        "lang": 0,
        "faces": 0,
        "contrast": 3,
        "sleep": 1,
        "keeper": 0,
        "sheet": 0,  # 1: the scorekeeper's sheet was left shown (a restart opens it)
        "pass": 0,
        "kset": {},
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
            "fewest": 0,  # 1: of the sums a card can take, only those of the fewest cards
            "napola": 0,
            "rebello": 0,
            # the regional games' options (FORMAT.md defaults)
            "deal": 0,
            "ctarget": 0,
            "napoleone": 1,
            "aceace": 0,
            "acescopa": 0,
            "cacescopa": 0,  # Cirulla: the Ace's sweep is a scopa (first: yes)
            "kings": 1,
            "pzero": 0,  # primiera: a side missing a suit is out (1: it counts 0)
            "pvis": 0,  # teams: the partner's hand may be looked at
            "piccola": 0,
        },
    }


def family(g):
    """The New game row of game `g` (index of GAME_KEYS): SCOPA, SCOPONE
    (with its deal), D_ASSI, A_15 or CIRULLA."""
    return SCOPONE if g in DEALS else g


def player_choices(g):
    """Numbers of players game `g` can be set to (a tuple)."""
    if g in DEALS:
        return (4,)
    if g == CIRULLA:
        return (2, 3, 4)
    return (2, 3, 4, 6)


def players(cfg):
    """cfg's number of players, made valid for its game."""
    ps = player_choices(cfg["game"])
    n = cfg["players"]
    if n in ps:
        return n
    return ps[-1] if n > ps[-1] else ps[0]


def option_keys(cfg):
    """The cfg keys the Options screen shows for cfg's game, in order
    (besides the seats, which depend on the players): each a house rule
    where it applies, with FORMAT.md's default as its first value."""
    g = cfg["game"]
    out = []
    if g in DEALS:
        out.append("deal")
    elif g != SCOPA:
        out.append("players")
    out += ["ctarget" if g == CIRULLA else "target", "best", "must"]
    if g != A_15:  # Scopa a 15 takes by fifteen only: no pair to prefer
        out.append("pair")
    out.append("fewest")  # (in Scopa a 15 the takes to fifteen; in Cirulla not those)
    out.append("pzero")
    if g in (D_ASSI, CIRULLA):
        out.append("aceace")
    if g == D_ASSI:
        out.append("acescopa")
    elif g == CIRULLA:
        out.append("cacescopa")
    if g not in (CIRULLA, SCIENTIFICO, SCOPONE_10):  # four cards face up
        out.append("kings")
    if g != CIRULLA:  # Cirulla has its own piccola and grande
        out.append("napola")
        if cfg["napola"]:
            out.append("napoleone")
        out.append("rebello")
    else:
        out.append("piccola")
    if g in DEALS or players(cfg) >= 4:  # teams
        out.append("pvis")
    return out


def make_rules(cfg):
    """The scopa Rules of New game choices `cfg` (see default_settings).
    Options that do not apply to the game keep the preset's value."""
    from scopa.rules import Rules

    g = cfg["game"]
    if not 0 <= g < len(GAME_KEYS):
        g = 0
    keys = option_keys(cfg)
    opts = {
        "best_of": 3 if cfg["best"] else 1,
        "capture_mandatory": bool(cfg["must"]),
    }
    if g == CIRULLA:
        opts["target"] = CIRULLA_TARGETS[cfg["ctarget"] % len(CIRULLA_TARGETS)]
    else:
        opts["target"] = TARGETS[cfg["target"] % len(TARGETS)]
    if g not in DEALS:
        opts["players"] = players(cfg)
    if "pair" in keys:
        opts["match_priority"] = "strict" if cfg["pair"] else "free"
    if "fewest" in keys:
        opts["sum_choice"] = "fewest" if cfg["fewest"] else "any"
    if "aceace" in keys:
        opts["ace_on_ace"] = "all" if cfg["aceace"] else "ace"
    if "acescopa" in keys:
        opts["ace_sweep_scopa"] = bool(cfg["acescopa"])
    if "cacescopa" in keys:
        opts["ace_sweep_scopa"] = not cfg["cacescopa"]
    if "kings" in keys:
        opts["redeal_kings"] = bool(cfg["kings"])
    opts["primiera_missing_suit"] = "zero" if cfg["pzero"] else "excluded"
    if "napola" in keys:
        opts["napola"] = bool(cfg["napola"])
        if cfg["napola"]:
            opts["napoleone"] = bool(cfg["napoleone"])
            opts["napola_score"] = "fixed" if cfg["napola"] == 2 else "per_card"
        opts["re_bello"] = RE_BELLO[cfg["rebello"] % len(RE_BELLO)]
    if "piccola" in keys:
        opts["piccola_cap"] = PICCOLA_CAPS[cfg["piccola"] % len(PICCOLA_CAPS)]
    if "pvis" in keys:
        opts["partners_visible"] = bool(cfg["pvis"])
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


def load_settings(folder=""):
    """The saved settings in `folder`: ``(settings, note)``, settings a
    dict as default_settings (keys it does not know, or values of the
    wrong type or out of range, are left at their defaults), note "" or
    the line that says a damaged file was replaced by its backup
    (lang.SAVE_RESTORED), or lost (lang.SETTINGS_LOST: the defaults are
    used; the saved game is another file). A record that reads but holds
    no dict is damaged. Loads the language. Raises MemoryError when the
    heap is short (the copies left as they are: short of memory is not
    damage)."""
    import lang
    import store

    obj, status, why = store.load(SETTINGS, folder, _is_settings, spare=True)
    s = default_settings()
    # how many values each setting has (0 .. n - 1); one out of range (a
    # file written by hand) is left at its default, as the menus show it
    n = {"lang": len(lang.NAMES), "contrast": len(CONTRASTS), "sleep": len(SLEEPS)}
    cn = {
        "game": len(GAME_KEYS),
        "players": 7,  # (a number of players, made valid for the game by players())
        "seat": 6,
        "partner": HUMAN + 1,
        "opp": HUMAN + 1,
        "target": len(TARGETS),
        "napola": 3,
        "rebello": len(RE_BELLO),
        "deal": len(DEALS),
        "ctarget": len(CIRULLA_TARGETS),
        "piccola": len(PICCOLA_CAPS),
    }
    if obj is not None:
        for k in s:
            if k == "cfg" and isinstance(obj.get(k), dict):
                for j in s["cfg"]:
                    v = obj[k].get(j)
                    if isinstance(v, int) and 0 <= v < cn.get(j, 2):
                        s["cfg"][j] = v
            elif k == "kset" and isinstance(obj.get(k), dict):
                for j, v in obj[k].items():
                    if isinstance(j, str) and len(j) < 12 and isinstance(v, int) and len(s[k]) < 16:
                        s[k][j] = v
            elif isinstance(s[k], int):
                v = obj.get(k)
                if isinstance(v, int) and 0 <= v < n.get(k, 2):
                    s[k] = v
    if s["cfg"]["game"] in DEALS:  # the deal's index as DEALS orders it now
        s["cfg"]["deal"] = DEALS.index(s["cfg"]["game"])
    if why:
        print("store:", why)
    if status == store.BAD:
        try:
            store.give_up(SETTINGS, folder)  # kept as settings.sav.bad
        except OSError as e:
            print("store: settings.sav not set aside:", e)
    try:
        lang.load(s["lang"])
    except OSError as e:
        print("lang: no strings:", e)
    note = ""
    if status == store.BAK or status == store.BAD:
        # the settings' own line: the saved game, if any, is another file
        note = lang.tr(lang.SAVE_RESTORED if status == store.BAK else lang.SETTINGS_LOST)
    return s, note


def _is_settings(obj):
    # store.load's check: a record that reads but holds no settings is
    # damage (another copy is tried, the file kept as .bad)
    if not isinstance(obj, dict):
        raise ValueError("not a record")


def new_game(settings, seed):
    """A new game of the settings' New game choices: ``(game, levels)``,
    a scopa.game.Game dealt from `seed` (int below 2**30) and the level of
    each seat (make_levels)."""
    from scopa.game import Game

    cfg = settings["cfg"]
    rules = make_rules(cfg)
    levels = make_levels(cfg, rules.players, rules.sides, settings["pass"])
    return Game(rules, seed), levels


def load_game(folder=""):
    """The saved game in `folder` and the plays journalled after it:
    ``(game, levels, note)``, game None (and levels []) when none was found
    or it is unreadable; note "" or the line that says a damaged save was
    replaced by its backup, or lost, or that damaged journal lines lost
    the plays after them (the game resumes before them). Raises
    MemoryError when the heap is short (every copy left as it is)."""
    import lang
    import store
    from scopa import replay

    got = []  # the game of the copy that passed

    def check(obj):
        # a copy that reads but does not hold a game counts as damaged:
        # store.load then tries the next (the .bak)
        if not isinstance(obj, dict):
            raise ValueError("not a record")
        game = replay.decode(obj.get("code"))
        levels = obj.get("levels")
        if not isinstance(levels, list) or len(levels) != game.rules.players:
            raise ValueError("bad seats")
        for v in levels:
            if not isinstance(v, int) or not EASY <= v <= HUMAN:
                raise ValueError("bad seats")
        if HUMAN not in levels:
            raise ValueError("no human seat")
        got.append(game)

    # (spare: short of memory, the replay included, is not damage: a
    # MemoryError leaves every copy as it is, not the newest set aside)
    obj, status, why = store.load(GAME, folder, check, spare=True)
    if why:
        print("store:", why)
    game = got[-1] if got else None
    if obj is None or game is None:
        if status == store.BAD:
            try:
                # the journal of plays after them removed, then kept as
                # game.sav.bad, the other copies removed: the note said
                # once (a power cut between: the next start does it again)
                store.remove(JOURNAL, folder)
                store.give_up(GAME, folder)
            except OSError as e:
                print("store: game.sav not set aside:", e)
            return None, [], lang.tr(lang.SAVE_LOST)
        return None, [], ""
    levels = obj["levels"]
    note = lang.tr(lang.SAVE_RESTORED) if status == store.BAK else ""
    # then the plays journalled after the record (Turns.save_game); from the
    # .bak, first its journal's .bak, which leads to the damaged record
    code = obj["code"]
    for name in (JOURNAL + ".bak", JOURNAL) if status == store.BAK else (JOURNAL,):
        lines, damaged = journal(name, store.checksum(code.encode()), folder)
        if damaged is None and status == store.TMP:
            # store.load finished the cut save's renames (the main copy
            # now the .bak): a journal of the older record goes beside it,
            # as after Turns.save_game, or a later start would find it of
            # no record (the old main set aside as damaged): plays lost
            try:
                store.rotate(JOURNAL, folder)
            except (OSError, MemoryError):
                pass
        if damaged is None:
            # its first line is not of this record: of the record before
            # (game.sav.bak; a cut between game.sav and the journal's
            # rotation, or the .bak's journal of a record older still), or
            # damaged
            # (from a .tmp, the journal is the main copy's, older: the
            # record holds its plays)
            damaged = status == store.OK and not _of_bak(name, folder)
        try:
            for i in lines:
                if game.round_over:
                    game.next_round()
                game.play_index(i)
        except ValueError as e:  # IllegalMove: a line that does not fit
            print("store: journal stops:", e)
            damaged = True
        if damaged:
            print("store: plays lost: journal", name, "damaged")
            # (over "Backup loaded", which would say that nothing was lost)
            note = lang.tr(lang.PLAYS_LOST)
            break
        if lines:
            code = replay.encode(game)
    return game, levels, note


def _of_bak(name, folder):
    # whether journal `name` follows game.sav.bak's record (read as
    # store.load reads any record)
    import store

    obj = store.load(GAME + ".bak", folder)[0]
    code = obj.get("code") if isinstance(obj, dict) else None
    return isinstance(code, str) and bool(journal(name, store.checksum(code.encode()), folder)[0])


def journal(name, base, folder=""):
    """The values of journal `name` (store.append) after the record of
    checksum `base`: ``(values, damaged)``, values a list of ints in order
    up to the first line that is cut short, out of place or damaged ([]
    when there is no journal); damaged True when a whole line stops it
    (garbage, a changed line, a line out of place) or it ends in more
    bytes than a line holds, False at its end or at a last line cut short
    (a power cut while it was written), None when its first line is
    well formed but fails the check: a line of another record (a power
    cut between game.sav and the journal's rotation), or damaged."""
    import store

    out = []
    # read a line at a time, no longer than the longest line: a journal of
    # any size (garbage appended, a runaway file) costs a line of heap
    most = len(store.journal_line(base, 99, 0x3FFFFFFE))
    path = folder + "/" + name if folder else name
    try:
        with open(path, "rb") as f:
            while True:
                line = f.readline(most)
                if not line.endswith(b"\n"):
                    # the end, a line cut short (shorter than a whole line),
                    # or more bytes than a line holds
                    return out, len(line) >= most
                parts = line.split()
                if len(parts) != 4 or parts[0] != b"J":
                    break
                try:
                    n = int(parts[1])
                    v = int(parts[2])
                except ValueError:
                    break
                if n != len(out) + 1 or not 0 <= v < 0x3FFFFFFF:
                    break
                if store.journal_line(base, n, v) != line:
                    return out, True if out else None  # a changed line, or another record's
                out.append(v)
    except OSError:
        # none: no plays since the record; else there but unreadable (a
        # folder in its place): damaged
        return out, store.present(path)
    return out, True
