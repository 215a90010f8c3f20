"""The Scopa handheld app: reads the board config, then runs the screens.

On the device `board.json` (written by the flash tool) names the board, and
`board.py` is that board's wiring (copied from `boards/<name>/board.py`).

The app is a state machine of screens (firmware/ui): each screen turns
button events into requests of the App, which alone changes the game and
the settings and saves them: the game's turns through ``app.turns``
(turns.py: ``turn``, ``computer_turn``, ``play``, ``uncover``, ``deal``),
the rest through App methods (``set_setting``, ``save_settings``,
``clear_note``, ``first_menu``, ``new_game``, ``commit_sheet``,
``keep_round``, ``go``, ``unload``).
A screen draws itself with ``draw(fb)``, which never changes state, and
never imports this module. A screen's module is imported when it is shown
and dropped from sys.modules when another module's screen replaces it;
the memory policy (_FREE) says what else leaves the heap when. Data
flows one way: buttons -> app -> engine (firmware/scopa) -> screen.

`run(board)` is the whole app and is what the host tests drive, with a fake
board (scripted buttons, a virtual clock) under CPython and MicroPython.
"""

import gc
import sys
from micropython import const

from consts import CONTRASTS, SETTINGS, SLEEPS, VERSION

# app.EASY.., app.GAME...: for the tools and tests
from consts import EASY as EASY
from consts import GAME as GAME
from consts import HARD as HARD
from consts import HUMAN as HUMAN
from consts import JOURNAL as JOURNAL
from consts import MEDIUM as MEDIUM

TYPE_CHECKING = const(0)  # true for pyright; MicroPython compiles no block under it
if TYPE_CHECKING:  # pyright only: the game modules load when a game starts
    from scopa.game import Game
    from turns import Turns
    from ui.buttons import Screen

_MPY = sys.implementation.name == "micropython"
CONFIG = "board.json"

TICK_MS = const(10)  # main loop period when nothing happens
FRAME_MS = const(30)  # at most one redraw per FRAME_MS
_SAVE_MS = const(1000)  # a setting or the round typed is saved at most this long after a change

_PLAY = ("table", "summary")  # the screens of a game in progress

# The memory policy: the modules dropped from sys.modules at each event
# (on MicroPython; CPython keeps them, its heap is not short and importing
# is slow there), imported again when needed; "ai.*" is the computer
# players' package and every module of it. Besides these only App._switch
# drops a screen's module when another module's screen replaces it.
# Each entry's saving, in a comment: the live heap without that drop minus
# with it, on the unix port (64-bit; a 32-bit board saves about two
# thirds), in tools/bench_app.py's match (Scopa for 2 vs Hard), at the
# start menu or at the match's peak.
_CONSTS = const(0)  # config or turns imported: consts' names are copied by then
_GAME = const(1)  # the table or the round's summary shows (at the start too)
_MENU = const(2)  # any other screen shows
_SUMMARY = const(3)  # the round's summary shows
_HINT = const(4)  # a hint computed (turns.py; the players it uses stay)
_IN_ROUND = const(5)  # the table shows, the round not over
_NO_ROOM = const(6)  # no memory for the computer player's search (turns.py)
_LOW = const(7)  # out of memory in a turn of the loop (App._low_memory)
_SAVED = const(8)  # the game's whole record saved (turns.py)
_NO_GAME = const(9)  # the start menu shows and no game was saved
# what the menus, new games and the app's start (ui.palette) load and a
# game does not use
_MENU_ONLY = ("config", "scopa.ruleopts", "scopa.cards", "scopa.explain", "ui.palette", "ui.house")
_FREE = (
    ("consts",),  # _CONSTS: 352 B at the menu, 384 B at the peak
    # _GAME: 14432 B at the peak; and the scorekeeper's sheet, whose own
    # scopa.scoring stays alive with it beside the one a round's end
    # imports, and the list screens' class (not at _LOW: the screens
    # shown hold their classes; ui.lists, 1.3 KB of .mpy, stays on the
    # scorekeeper's other screens once its set-up was shown)
    _MENU_ONLY + ("sheet", "ui.lists"),
    # _MENU: the computer players after a game (not in the measured match,
    # which never goes back to a menu; about what _SUMMARY saves), and the
    # table's pages should one be open as the table is left (App.unload)
    ("ai.*", "ui.round_info", "ui.peek"),
    # _SUMMARY: loaded again at the next computer turn: 3360 B at the peak
    # (which was at the match's last summary, now at a play of the table)
    ("ai.*", "ui.round_info", "ui.peek"),
    ("ai.hint",),  # _HINT: 2336 B at the peak of the match with a hint before each play
    ("scopa.scoring",),  # _IN_ROUND: until the round's end (scopa.game): 3200 B at the peak
    ("ai.*",),  # _NO_ROOM: a search cut short may have left its buffers half made
    ("ai.*",) + _MENU_ONLY,  # _LOW: what can be loaded again (_NO_ROOM, _LOW: no figure,
    # they happen only near the heap's limit)
    # _SAVED: a play's journal line needs only scopa.game (Game.last_index);
    # the record is written at a round's end, for a new or resumed game and
    # every 64 plays: 2944 B at the peak
    ("scopa.replay",),
    # _NO_GAME: the game's modules, read in by config.load_game to look for
    # a saved game, until New game: 16000 B at the menu
    ("scopa.replay", "scopa.game", "scopa.engine", "scopa.group", "scopa.rng"),
)


# Native and viper code (tools/flash/compiler.py NATIVE, VIPER): never
# dropped once loaded where it is machine code. MicroPython keeps the
# machine code of every native .mpy it imports alive for good (its list
# of relocated code, MICROPY_PERSISTENT_CODE_TRACK_RELOC_CODE; on an ARM
# board that code is in the heap), so a module dropped at a round's end
# and imported again held its code twice, round after round (the unix
# port, whose code is outside its heap: about 700 B a round). Where they
# are bytecode (the WebAssembly port, whose build has no viper modules:
# _VIPER not loaded) the policy drops them as it says.
_RESIDENT = ("ai.core", "ai.leaf", "scopa.engine", "scopa.group")
_VIPER = ("ai.leaf", "scopa.group")  # loaded only where the build has machine code


def _free(event):
    """Drop the modules of `event` (one of _CONSTS.._LOW) from
    sys.modules (_drop), as the memory policy _FREE says."""
    for name in _FREE[event]:
        _drop(name)


def _kept(name):
    # a module of machine code, or the package of one (_RESIDENT), where
    # the build has machine code (a _VIPER module loaded)
    if _VIPER[0] not in sys.modules and _VIPER[1] not in sys.modules:
        return False
    for r in _RESIDENT:
        if (r == name or r.startswith(name + ".")) and r in sys.modules:
            return True
    return False


def _drop(name):
    """Forget module `name` (e.g. "ui.menu"; "ai.*": the package ai and
    every module of it), from sys.modules and from its package, so that its
    heap is freed at the next collection (it is imported again when
    needed); not a module of machine code, nor its package (_RESIDENT)."""
    if name[-2:] == ".*":
        pkg = name[:-2]
        for k in [k for k in sys.modules if k.startswith(pkg + ".")]:
            _drop(k)
        name = pkg
    if _kept(name):
        return
    sys.modules.pop(name, None)
    pkg, _, attr = name.rpartition(".")
    p = sys.modules.get(pkg) if pkg else None
    if p is not None and attr in p.__dict__:
        delattr(p, attr)


# What a game may load after its first table, not the computer players
# (machine code: loaded, it stays), whose names _intern meets there.
_LATE = ("scopa.scoring", "ui.summary", "ui.round_info", "ui.peek", "ui.pages")


def _intern():
    """Meet at a game's first table the names a game meets later.
    MicroPython keeps every name and one-character string it meets (qstrs)
    in pools it grows by doubling: on the 64-bit unix port the pool after
    the 1,260th name is a single block of 14 KB. Met first at a round's end
    (its scoring's and its summary's names), a fragmented heap had no such
    block, and the summary never showed (Cirulla against Hard in the
    simulator's 160K to 220K). Met here (_LATE's names; the screens draw no
    character as a str of its own: ui.gfx), the block is needed, if at all, at the
    computer's next import, where its want plays the medium player's move
    and the table says "Out of memory" (turns.computer_move), rather than
    at a screen that cannot be shown. Short of heap it gives up."""
    try:
        for name in _LATE:
            __import__(name)
    except MemoryError:
        pass
    for name in _LATE[1:]:
        _drop(name)  # (the table frees the scoring: _IN_ROUND)


def board_name(path=CONFIG):
    """Return the board name from the config file at `path` (str).

    Raises OSError when the file is missing and ValueError when it is not a
    JSON object with a "board" string.
    """
    import json

    with open(path) as f:
        cfg = json.load(f)
    if not isinstance(cfg, dict) or not isinstance(cfg.get("board"), str):
        raise ValueError("board.json: no board name")
    return cfg["board"]


# False: computer players and hints are random legal moves (tests of the
# screens that should not spend their time searching).
USE_AI = True


class App:
    """The running app: the board's display, buttons and clock, the
    settings, the game in progress and the screen shown."""

    # Declared for pyright; None until set (game: no game in progress).
    game: "Game"
    levels: list
    screen: "Screen"
    turns: "Turns"

    def __init__(self, board, folder=""):
        from ui import gfx

        self.board = board
        self.name = getattr(board, "NAME", "?")
        self.fb, self.buttons, self.clock = board.setup()
        self.w = board.WIDTH
        self.h = board.HEIGHT
        self.pal = gfx.Palette(board.COLOUR)
        self.lay = gfx.Layout(self.w, self.h)
        self.folder = folder
        self.now = 0  # ms since start, wrapping at 2**30 (ui.buttons.ticks_add)
        self.screen = None  # type: ignore
        self.screen_mod = None
        self._next = None
        self.dirty = True
        self.last_draw = -FRAME_MS
        self.asleep = False
        self.dozing = False  # idle: dimmed, a note says a key wakes it
        self.short_key = False  # a key found no memory: the top row says so until the next key
        self.idle_since = 0
        self._interned = False  # _intern() done (the first table)
        self.note = ""  # a line the menu shows once (save restored...)
        self._later = ""  # a second note, shown once the first is seen
        self.unread = False  # a saved game the start had no heap to read
        self.menu_shown = False
        self.game = None  # type: ignore
        self.levels = []
        self.shown = -1  # pass-and-play: the seat whose hand is shown
        self.cursor = -1  # the card under the table's cursor when B left it for the menu
        self.saves = 0
        self.saved_bytes = 0  # written to flash by the game's saves
        self.unsaved = False  # the game's last save failed (flash full): the table says so
        self.turns = None  # type: ignore  (a turns.Turns once a game starts)
        self.plays = 0
        self.matches = 0
        self.verbose = getattr(board, "VERBOSE", False)
        # (the buttons' Debouncer.poll and .next, ui.buttons.ticks_add, ticks_diff) (step)
        self._fns = None
        self._last = 0  # the board's ticks at the last step
        self._short = 0  # steps in a row that ran out of memory
        self._changed = -1  # self.now at the first setting changed and not saved, else -1
        self._round = None  # the scorekeeper's round being typed (keep_round)
        self._round_at = -1  # self.now at its first change not saved, else -1
        self.settings, self.note = _config().load_settings(folder)
        if self.note:
            # a damaged settings.sav: the copy in use saved again (the damaged
            # one kept as .bad), so that the note is shown once, not at every start
            self.save_settings()
        self.apply_contrast()

    # Settings -------------------------------------------------------------

    def save_settings(self, pending=False):
        """Write the settings to flash now (store.save); with `pending`
        only when a change is not saved yet. On an OSError (flash full)
        the menu notes that they were not saved; a MemoryError (before
        anything is written: store.save) is raised, the change still
        pending."""
        if pending and self._changed < 0:
            return
        import store

        try:
            store.save(SETTINGS, self.settings, self.folder)
            self._changed = -1
        except OSError as e:
            self._changed = -1  # not again at every turn: the note says so
            print("store: settings not saved:", e)
            import lang

            self.note = lang.tr(lang.NOT_SAVED)  # the menu says so

    def set_setting(self, key, value):
        """Set setting `key` (int), or New game choice `key` of
        settings["cfg"]; a language or contrast takes effect at once.
        Saved _SAVE_MS after the first change not yet saved (step), so
        that a power cut loses at most the last second's changes, and keys
        held to run through the choices write once a second, not at every
        key; or at once by save_settings."""
        s = self.settings
        if key not in s:
            s = s["cfg"]
        if s.get(key) == value:
            return
        if key == "lang":
            import lang

            try:
                lang.load(value)
            except (OSError, MemoryError) as e:
                # its file missing (a partial install) or no heap for it:
                # the language before stays, whole (no heap: the top row
                # says so, as for any key that found none)
                print("lang: no strings:", repr(e))
                if isinstance(e, MemoryError):
                    self.short_key = True
                    self.dirty = True
                return
        s[key] = value
        if self._changed < 0:  # (not pushed back by the next change: _SAVE_MS at most)
            self._changed = self.now
        if key == "contrast":
            self.apply_contrast()

    def keep_round(self, draft):
        """The scorekeeper's round being typed, `draft` (a dict, from
        ui.keeper_entry), saved _SAVE_MS after its first change not yet
        saved (step, sheet.keep_draft), so that a power cut loses at most
        the last second's keys, however fast they come (one write a second
        while they do); None (the round confirmed or left): removed from
        flash now."""
        self._round = draft
        if draft is None:
            self._round_at = -1
            self.commit_sheet(None, "draft")
        elif self._round_at < 0:
            self._round_at = self.now

    def flush(self, play=True):
        """Write now what waits for its timed save (a setting changed, the
        round being typed: set_setting, keep_round) and what the screen
        shows as done (Screen.quit: the player's play shown, and with `play`
        a computer's fallback move shown), as the app stops (a quit, or a
        bug) or the web page goes (boards/web; hidden only, `play` False: a
        computer's move shown stays shown for the player who comes back).
        Never raises: what cannot be written is said."""
        try:
            if self.screen is not None:
                self.screen.quit(play)
        except Exception as e:  # (the rest is written all the same)
            _say("app: not played on the way out:", e)
        try:
            self.save_settings(pending=True)
            if self._round_at >= 0:
                self._round_at = -1
                self.commit_sheet(self._round, "draft")
        except Exception as e:
            _say("app: not saved on the way out:", e)

    def first_menu(self):
        """True the first time the start menu is built (its line is
        printed once, for a text-only observer)."""
        first = not self.menu_shown
        self.menu_shown = True
        return first

    def clear_note(self):
        """The menu's note has been seen: the next one, if any, shows
        (True then)."""
        self.note = self._later
        self._later = ""
        return bool(self.note)

    def apply_contrast(self):
        i = self.settings["contrast"]
        self._display("contrast", CONTRASTS[i % len(CONTRASTS)])

    def _display(self, name, *args):
        # the display's contrast / poweroff / poweron, when it has one (a
        # driver's own AttributeError is not hidden)
        f = getattr(self.fb, name, None)
        if f is not None:
            f(*args)

    def sleep_ms(self):
        return 1000 * SLEEPS[self.settings["sleep"] % len(SLEEPS)]

    def french(self):
        return self.settings["faces"] == 1

    # The game -------------------------------------------------------------

    def to_menu(self, card):
        """B on the table: the start menu; the table's cursor comes back to
        `card` (-1: none) if it is still in the hand then."""
        self.cursor = card
        self.go("menu")

    def take_cursor(self):
        """The card the table's cursor goes back to (-1: none), once."""
        c = self.cursor
        self.cursor = -1
        return c

    def new_game(self):
        """Start a game from the settings' New game choices (config.py);
        saved."""
        t = self._turns()
        self.game, self.levels = _config().new_game(self.settings, t.seed())
        self.unread = False  # (a saved game not read: replaced, as asked)
        self.shown = -1
        self.cursor = -1
        t.save_game()

    def _turns(self):
        """The game's turns (turns.Turns), made at the first game."""
        if self.turns is None:
            import turns

            self.turns = turns.Turns(self, USE_AI, _free)
            if _MPY:
                _free(_CONSTS)
        return self.turns

    def _add_note(self, note):
        # the menu's note (App.__init__'s, the settings', first); a second,
        # other one shown once the first is seen
        if note and self.note and note != self.note:
            self._later = note
        elif note:
            self.note = note

    def resume(self):
        """Continue: the game in progress, on its table or its round's
        summary; one the start had no heap to read (unread) read again
        first. Raises MemoryError when it still does not fit (the files
        as they are)."""
        if self.game is None and self.unread:
            if not self.load_game():
                self.unread = False  # (gone since: nothing to continue)
                self.go("menu")
                return
            self.unread = False
        self._again()

    def _again(self):
        # the saved game's screen: a round over its summary, a match over
        # on the winner's page (its other pages a LEFT away), else the table
        if self.game.round_over:
            self.go("summary", "Screen", True)
        else:
            self.go("table")

    def load_game(self):
        """Read the saved game (config.py); True when there is one. Sets
        the note when a damaged save was replaced by its backup, or lost.
        Raises MemoryError when the heap is short, the files left as they
        are."""
        game, levels, note = _config().load_game(self.folder)
        self._add_note(note)
        if game is None:
            return False
        self.game = game
        self.levels = levels
        self.shown = -1
        if note:
            # rebuilt from the .bak, or resumed before a damaged journal line:
            # saved whole again at once (the damaged record kept as
            # game.sav.bad), so that the note is shown once, not at every start
            self._turns().save_game()
        return True

    # The scorekeeper's sheet (firmware/sheet.py) --------------------------

    def commit_sheet(self, sh, op, i=-1, e=None):
        """Change sheet `sh` by `op` and save it (sheet.commit): "" or why
        it was not saved; the round being typed is then removed, but for
        "save" with `e`: the draft of a round typed for this new sheet
        (ui.keeper_setup), written before the sheet and kept. `op`
        "load": the sheet on flash, ``(sheet or None, status, why)``
        (sheet.load, which saves again a sheet read from a backup copy);
        "draft": `sh` is the round being typed, saved now (None: removed;
        sheet.keep_draft); "kept": that round's draft on flash, ``(draft
        or None, lost)`` (sheet.kept_draft)."""
        import sheet

        if op == "load":
            return sheet.load(self.folder)
        if op == "draft":
            return sheet.keep_draft(sh, self.folder)
        if op == "kept":
            return sheet.kept_draft(self.folder)
        typed = op == "save" and e is not None
        if typed:
            sheet.keep_draft(e, self.folder)
        err = sheet.commit(sh, self.folder, op, i, e)
        if not err and not typed:
            # the sheet written: no round typed before outlives it (the
            # round just confirmed, or one the flash did not take before)
            self.keep_round(None)
        return err

    # Screens --------------------------------------------------------------

    def unload(self, name):
        """Forget module ui.`name`, a page of the shown screen that was
        just closed (ui.round_info, ui.peek), so that its heap is freed; on
        the device only (on CPython modules stay, as in _switch)."""
        if _MPY:
            _drop("ui." + name)

    def go(self, module, name="Screen", arg=None):
        """Show screen class `name` of module ui.`module` (after the event
        being handled)."""
        self._next = (module, name, arg)

    def _switch(self):
        nxt = self._next
        if nxt is None:
            return
        module, name, arg = nxt
        self._next = None
        old = self.screen_mod
        self.screen = None  # type: ignore
        if _MPY:
            # On the device free the heap of what the next screen does not
            # use (on CPython keep it: importing is slow there and the heap
            # is not short): the old screen's module, the computer players
            # off the table, the menus' code in a game.
            if old and old != module:
                _drop("ui." + old)  # (the one drop not in _FREE: its name varies)
                if module not in ("menu", "pages"):
                    _drop("ui.house")  # (the house rules' rows: theirs alone)
            if module == "table" and not self._interned:
                self._interned = True
                _intern()
            _free(_GAME if module in _PLAY else _MENU)
            if module == "summary":
                _free(_SUMMARY)
            if module == "table" and self.game is not None and not self.game.round_over:
                _free(_IN_ROUND)
            gc.collect()  # (a full collection is slow on CPython and not needed)
        try:
            if module in _PLAY:
                self._turns()
            try:
                mod = __import__("ui." + module, None, None, (name,))
            except ImportError as e:
                # a screen missing from the flash: say so rather than stop
                # (an ImportError of the screen's own imports is a bug:
                # raised, as any)
                if ("'ui.%s'" % module) not in str(e):
                    raise
                print("app: no screen %s.%s:" % (module, name), e)
                import lang

                module, name, arg = "pages", "Note", lang.tr(lang.NOT_YET)
                mod = __import__("ui.pages", None, None, (name,))
            if module == "scorekeeper" and arg is None:
                mod.reading(self)  # the sheet read from flash: a long one says so first
            self.screen = getattr(mod, name)(self, arg)
        except MemoryError:
            self._next = nxt  # no screen: tried again at the next turn
            raise
        self.screen_mod = module
        self.dirty = True
        if name == "Screen" and module in ("menu", "scorekeeper"):
            # where a restart opens: the sheet when it was left on it (not
            # its "Out of memory" note: the menu, else every start would
            # fail at it)
            sheet = 1 if module == "scorekeeper" and not getattr(self.screen, "short", False) else 0
            if self.settings.get("sheet", 0) != sheet:
                self.settings["sheet"] = sheet
                try:
                    self.save_settings()
                except MemoryError:  # (the screen is made: saved later)
                    self._changed = self.now

    def start(self):
        """The first screen: the scorekeeper's sheet when it was the last
        thing shown, else the saved game when there is one, else the menu;
        the menu too (Continue resumes) when a damaged save was replaced by
        its backup, so that its note is seen; the menu saying "Out of
        memory" when the saved game does not fit the heap (every copy left
        on flash as it is: short of memory is not damage; the sheet when it
        was left on it, the menu's Continue reading the game later)."""
        try:
            game = self.load_game()
        except MemoryError:
            print("app: saved game not read: out of memory")
            gc.collect()
            game = False
            self.unread = True  # Continue reads it again; New game asks first
            import lang

            if not self.settings.get("sheet", 0):  # (on the sheet: it opens as ever)
                self._add_note(lang.tr(lang.NO_MEMORY))
        if self.settings.get("sheet", 0) and not self.note:
            # the scorekeeper was left on its sheet (a power cut at the
            # table): the sheet again, the saved game kept for Continue
            self.go("scorekeeper")
        elif game and not self.note:
            # for a text-only observer, as the menu line
            print("resume: round %d, move %d" % (self.game.round_no, self.game.moves_played()))
            self._again()
        else:
            self.go("menu")
        if _MPY and not game:
            # the game's modules, read in to look, until New game (_NO_GAME):
            # freed before the first screen, which then has their heap
            _free(_NO_GAME)
            gc.collect()
        try:
            self._switch()
        except MemoryError:
            # the first screen does not fit (the scorekeeper's code and a
            # long sheet, in a small heap): the menu, not a stop at every
            # start; the sheet stays on flash as it is (_switch raises only
            # before the screen is made)
            print("app: low memory at the start")
            import lang

            # the cursor on what did not fit: Scorekeeper, or Continue; the
            # top row says why
            sheet = self._next is not None and self._next[0] == "scorekeeper"
            self._next = None
            _free(_LOW)
            gc.collect()
            self.go("menu", "Screen", lang.SCOREKEEPER if sheet else lang.CONTINUE)
            self.short_key = True
            self._switch()
        if _MPY and self.screen_mod in _PLAY:
            _free(_GAME)
            gc.collect()

    def draw(self):
        fb = self.fb
        fb.fill(self.pal.BG)
        self.screen.draw(fb)
        if self.dozing or self.short_key:
            # dimmed: the top row (the status line, the names) says that
            # a key wakes the screen; the hand and the totals stay in view.
            # A key that did nothing for want of memory (Start in a small
            # heap) says so there, until the next key.
            import lang
            from ui import gfx

            p = self.pal
            t = lang.tr(lang.WAKE_KEY if self.dozing else lang.NO_MEMORY)
            fb.fill_rect(0, 0, self.w, 9, p.FG)
            gfx.text(fb, t, (self.w - 8 * len(t)) // 2, 1, p.BG)
        fb.show()

    def _low_memory(self):
        """Out of memory in a turn of the loop: free what can be loaded
        again (the computer players, the menus' code) and redraw at the
        next turn."""
        print("app: low memory")
        _free(_LOW)
        gc.collect()
        self.dirty = True

    def doze(self):
        """Idle for the sleep time: the screen dims (still readable) and its
        top row says a key wakes it; that key does nothing else (a card is
        never played by the key that wakes the table)."""
        self.dozing = True
        self._display("contrast", 0)
        self.dirty = True

    def stays_readable(self):
        """True when the screen shown stays dimmed rather than going off:
        the scorekeeper's (READABLE), unless Settings say it sleeps too."""
        return getattr(self.screen, "READABLE", False) and not self.settings.get("keeper", 0)

    def sleep(self):
        """Idle twice the sleep time: the screen goes off; the key that
        wakes it does nothing else."""
        self.asleep = True
        self._display("poweroff")

    def wake(self):
        self.asleep = False
        self._display("poweron")
        self.undoze()

    def undoze(self):
        self.dozing = False
        self.apply_contrast()
        self.dirty = True

    def loop(self, max_steps=None, until=None):
        """Poll, dispatch, tick, redraw, sleep; `max_steps` loop turns at
        most (None: forever); stops early when `until(app)` is true."""
        clk = self.clock
        steps = 0
        while max_steps is None or steps < max_steps:
            steps += 1
            wait = self.step()
            if wait > TICK_MS:  # asleep: polled less often
                clk.sleep_ms(wait)
                continue
            if until is not None and until(self):
                break
            clk.sleep_ms(wait)

    def step(self):
        """One turn of the loop: read the buttons and hand the events to the
        screen, tick it, switch and draw screens, doze or sleep when idle.
        Returns the ms to wait before the next turn (TICK_MS; 4 * TICK_MS
        asleep). A board whose loop is not the app's (the browser page)
        calls this a turn at a time."""
        fns = self._fns
        if fns is None:
            from ui import buttons

            # bound once: an import in each turn allocates (32 bytes)
            deb = buttons.Debouncer()
            fns = self._fns = (deb.poll, deb.next, buttons.ticks_add, buttons.ticks_diff)
            self._last = self.clock.ticks_ms()
        poll, pending, ticks_add, ticks_diff = fns
        t = self.clock.ticks_ms()
        # ms since start, wrapping like the board's ticks: a small int
        # even after 12 days on (times are compared with ticks_diff)
        self.now = ticks_add(self.now, max(0, self.clock.ticks_diff(t, self._last)))
        self._last = t
        now = self.now
        raw = self.buttons.read()
        ev = poll(raw, now)  # then the rest of this read's events (its taps once)
        while ev:
            self.idle_since = now
            if self.asleep or self.dozing:
                # the key that wakes a dark or a dimmed screen does nothing
                # else (a dimmed one says so), and is the next key for a
                # note that a key found no memory
                self.short_key = False
                self.wake()
                ev = pending()
                continue
            if self._next is None:
                if self.short_key:
                    self.short_key = False
                    self.dirty = True
                try:
                    self.screen.key(ev)
                except MemoryError:
                    self._low_memory()
                    self.short_key = True
            ev = pending()
        if self.asleep:
            return 4 * TICK_MS
        try:
            if self._changed >= 0 and ticks_diff(now, self._changed) >= _SAVE_MS:
                # short of memory, tried again _SAVE_MS later (not at every
                # turn, which would stop the app: _short)
                self._changed = now
                self.save_settings()
            if self._round_at >= 0 and ticks_diff(now, self._round_at) >= _SAVE_MS:
                self._round_at = now  # short of memory: tried again later
                self.commit_sheet(self._round, "draft")
                self._round_at = -1
            if self._next is None:
                self.screen.tick(now)
            if self._next is not None:
                self._switch()
            # (not 0 <= d < FRAME_MS: after 6 days without a frame ticks_diff
            # turns negative, which would hold every frame back as long again)
            d = ticks_diff(now, self.last_draw)
            if self.dirty and not 0 <= d < FRAME_MS:
                self.dirty = False
                self.last_draw = now
                self.draw()
            self._short = 0
        except MemoryError:
            self._short += 1  # turns in a row that ran out of memory
            nxt = self._next
            if self._short > 3 and nxt is not None and nxt[0] != "menu":
                # a screen that does not fit (the table of a game just
                # started, in a small heap): the menu, the top row saying
                # so, rather than a stop; the game stays (Continue)
                print("app: no room for the screen", nxt[0])
                import lang

                self._short = 0
                # (the cursor on what did not fit: Scorekeeper, or Continue)
                sid = lang.SCOREKEEPER if nxt[0] == "scorekeeper" else lang.CONTINUE
                self.go("menu", "Screen", sid)
                self.short_key = True
            elif self._short > 3:
                raise
            self._low_memory()
        scr = self.screen  # None while a screen to come could not be made
        if scr is None or scr.busy():
            self.idle_since = now
        else:
            timeout = self.sleep_ms()
            idle = ticks_diff(now, self.idle_since)
            if timeout and idle >= timeout:
                if not self.dozing:
                    self.doze()
                elif idle >= 2 * timeout and not self.stays_readable():
                    self.sleep()
        return TICK_MS


def _config():
    import config

    if _MPY:
        _free(_CONSTS)
    return config


def run(board, max_steps=None, folder="", until=None):
    """Run the app on `board` (a module or object with NAME, WIDTH, HEIGHT,
    COLOUR and setup()) for `max_steps` loop turns (None: forever), with
    the saved files in `folder`. Returns the App."""
    app = App(board, folder)
    try:
        app.start()
        app.loop(max_steps, until)
    except (SystemExit, KeyboardInterrupt):
        app.flush()  # a quit (the sim's q, Ctrl-C): nothing left for a timed save
        raise
    except Exception as e:  # a bug: said on the screen, then raised as always
        stop(app, e)
        raise
    return app


def stop(app, e):
    """The app stopped on error `e` (a bug): what was typed and shown is
    written first, as on a quit (an error that is no bug of the app's,
    such as a print to a terminal that is gone, loses nothing either),
    then the screen says "Scopa stopped:" and the error's name. Never
    raises; the caller raises `e` as always."""
    app.flush()
    try:
        from ui import stopped

        stopped.show(app, e)
    except Exception:  # (no heap for it, or the display): printed anyway
        pass


def _say(what, e):
    # a line on the way out, where the output itself may be gone
    try:
        print(what, repr(e))
    except OSError:
        pass


def main():
    """Boot: print the boot line `Scopa <version> on <board>` and run."""
    try:
        name = board_name()
    except (OSError, ValueError) as e:
        print("Scopa", VERSION, "no board config:", e)
        return
    print("Scopa", VERSION, "on", name)
    import board  # type: ignore (board.py: the board's wiring, on the device)

    run(board)
