"""The Scopa handheld app: reads the board config, then runs the screens.

On the device `board.json` (written by the flash tool) names the board, and
`board.py` is that board's wiring (copied from `boards/<name>/board.py`).

The app is a state machine of screens (firmware/ui): each screen turns
button events into calls on the `App` (which alone changes the game and
saves it) and draws itself with ``draw(fb)``, which never changes state.
A screen's module is imported when it is shown and dropped from
sys.modules when another module's screen replaces it; on the device a game
in progress also drops the menus' code, the computer players leave with the
game's screens and the round's scoring between rounds (see `_switch`).
Data flows one way: buttons -> app -> engine (firmware/scopa) -> screen.

`run(board)` is the whole app and is what the host tests drive, with a fake
board (scripted buttons, a virtual clock) under CPython and MicroPython.
"""

import gc
import sys
from micropython import const

# (EASY, MEDIUM: app.EASY... for the tools and tests)
from consts import CONTRASTS, GAME, HARD, HUMAN, JOURNAL, SETTINGS, SLEEPS, VERSION
from consts import EASY as EASY
from consts import MEDIUM as MEDIUM

TYPE_CHECKING = const(0)  # true for pyright; MicroPython compiles no block under it
if TYPE_CHECKING:  # pyright only: the game modules load when a game starts
    from scopa.game import Game

_MPY = sys.implementation.name == "micropython"
CONFIG = "board.json"

RESERVE = const(2048)  # bytes kept free for saving the game (save_game)
TICK_MS = const(10)  # main loop period when nothing happens
FRAME_MS = const(30)  # at most one redraw per FRAME_MS

_PLAY = ("table", "summary")  # the screens of a game in progress

JOURNAL_MAX = const(64)  # plays in the journal before game.sav is written again


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


def observe(game, card, taken):
    """Tell the computer players what a play (anyone's) shows of that
    seat's hand, before it is played (ai.core.observe: public cards only).
    Without firmware/ai, or short of heap, nothing."""
    if not USE_AI or "ai.core" not in sys.modules and not _has_ai():
        return
    try:
        from ai import core
        from scopa import engine as E

        taken = tuple(taken)
        E.gen_moves(game.st, game.rules, game.mv)
        if not game.round_over and E.find_move(game.st, game.rules, card, taken, game.mv) >= 0:
            core.observe(game.st, game.rules, card, taken)
    except (ImportError, MemoryError):
        pass


def _has_ai():
    try:
        import ai  # noqa: F401
    except ImportError:
        return False
    return True


def _add30(a, b):
    # (a + b) % 2**30 for a, b in 0..2**30-1, the sum never reaching 2**30
    # (a heap int on a 32-bit board)
    room = 0x3FFFFFFF - a
    return a + b if b <= room else b - room - 1


def _mul30(a, b):
    # (a * b) % 2**30 for a, b in 0..2**30-1, in 15-bit halves: no step
    # reaches 2**30
    al = a & 0x7FFF
    bl = b & 0x7FFF
    mid = ((a >> 15) * bl & 0x7FFF) + (al * (b >> 15) & 0x7FFF)
    return _add30((mid & 0x7FFF) << 15, al * bl)


def computer_move(game, seat, level, hint=False):
    """The move ``(card, taken)`` the computer at `level` plays for `seat`,
    or suggests to a human with `hint`, then as ``(card, taken, why)``
    with `why` the reason ``(code, n)`` of ai.hint.why, or None: the one
    call site of the computer players (firmware/ai). Their generator is
    seeded by the game and the move number, so a resumed game plays on
    the same. Without firmware/ai (or with USE_AI false) a random legal
    move."""
    from scopa.rng import Rng

    rng = Rng(_add30(game.seed, 7919 * game.moves_played() + seat + (101 if hint else 0)))
    ai = None
    if USE_AI:
        try:
            import ai
        except ImportError:
            pass
    why = None
    if ai is None or not hasattr(ai, "player"):
        moves = game.legal_moves()
        card, taken = moves[rng.below(len(moves))]
        return (card, taken, why) if hint else (card, taken)
    try:
        if hint:
            from ai import hint as H

            card, taken = H.choose(game.st, game.rules, seat, rng)
            why = H.why(game.st, game.rules, seat, card, taken)
        else:
            name = ai.LEVELS[min(level, len(ai.LEVELS) - 1)]
            card, taken = ai.player(name).choose(game.st, game.rules, seat, rng)
    except MemoryError:
        # no room to search: a plain legal move rather than no move; the
        # players are loaded again at their next turn (a search cut short
        # may have left its buffers half made)
        print("app: no memory for the computer player")
        _drop_ai()
        gc.collect()
        moves = game.legal_moves()
        card, taken = moves[rng.below(len(moves))]
    if hint:
        return card, tuple(taken), why
    return card, tuple(taken)


class App:
    """The running app: the board's display, buttons and clock, the
    settings, the game in progress and the screen shown."""

    # Declared for pyright; None until set (game: no game in progress).
    game: "Game"
    levels: list
    screen: "Screen"

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
        self.idle_since = 0
        self.note = ""  # a line the menu shows once (save restored...)
        self.menu_shown = False
        self.game = None  # type: ignore
        self.levels = []
        self.shown = -1  # pass-and-play: the seat whose hand is shown
        self.saves = 0
        self.saved_bytes = 0  # written to flash by the game's saves
        self._base = None  # store.checksum of game.sav's code (the journal's base)
        self._base_game = None  # the Game that game.sav holds
        self._since = 0  # journal lines since game.sav
        self.plays = 0
        self.matches = 0
        self.verbose = getattr(board, "VERBOSE", False)
        self._poll = None  # the buttons' Debouncer.poll (step)
        self._last = 0  # the board's ticks at the last step
        self._short = 0  # steps in a row that ran out of memory
        self._reserve = None
        self._hold()
        self.settings, self.note = _config().load_settings(folder)
        self.apply_contrast()

    # Settings -------------------------------------------------------------

    def save_settings(self):
        import store

        try:
            store.save(SETTINGS, self.settings, self.folder)
        except OSError as e:
            print("store: settings not saved:", e)

    def apply_contrast(self):
        i = self.settings["contrast"]
        try:
            self.fb.contrast(CONTRASTS[i % len(CONTRASTS)])
        except AttributeError:
            pass

    def sleep_ms(self):
        return 1000 * SLEEPS[self.settings["sleep"] % len(SLEEPS)]

    def french(self):
        return self.settings["faces"] == 1

    # The game -------------------------------------------------------------

    def humans(self):
        return [s for s in range(len(self.levels)) if self.levels[s] == HUMAN]

    def hide_hands(self):
        """True when pass-and-play hides the hand between turns."""
        return len(self.humans()) > 1

    def viewer(self):
        """The seat whose hand the table shows, or -1 (hands hidden)."""
        if self.hide_hands():
            return self.shown
        return self.humans()[0]

    def seat_label(self, seat):
        """"You" for the only human seat, else P1..P6."""
        import lang

        if not self.hide_hands() and self.levels[seat] == HUMAN:
            return lang.T(lang.YOU)
        return "P%d" % (seat + 1)

    def new_game(self):
        """Start a game from the settings' New game choices (config.py);
        saved."""
        self.game, self.levels = _config().new_game(self.settings, self.seed())
        self.shown = -1
        self.save_game()

    def load_game(self):
        """Read the saved game (config.py); True when there is one. Sets
        the note when a damaged save was replaced by its backup, or lost."""
        game, levels, note = _config().load_game(self.folder)
        if note:
            self.note = note
        if game is None:
            return False
        self.game = game
        self.levels = levels
        self.shown = -1
        return True

    def new_match(self):
        """A new match with the same rules and seats."""
        from scopa.game import Game

        self.game = Game(self.game.rules, self.seed())
        self.shown = -1
        self.save_game()

    def seed(self):
        """A seed for a new game (int below 2**30): ``(ticks_ms * 2654435 +
        now * 97 + seeds taken * 7919) % 2**30``, every step a small int
        on a 32-bit board (`_add30`, `_mul30`; the plain product of the
        ticks is not)."""
        self.saves += 1
        s = _add30(_mul30(self.clock.ticks_ms(), 2654435), _mul30(self.now & 0x3FFFFFFF, 97))
        return _add30(s, _mul30(self.saves, 7919))

    def play(self, card, taken):
        """Play a move for the seat to play; saves the game. Returns the
        engine's flags."""
        observe(self.game, card, taken)
        flags = self.game.play(card, taken)
        self.plays += 1
        if self.game.round_over and self.game.over:
            self.matches += 1
        self.save_game()
        if _MPY:
            gc.collect()  # a tidy heap for the next search
        return flags

    def next_round(self):
        self.game.next_round()
        self.shown = -1

    def save_game(self):
        """Save the game after a play: one journal line (store.append: the
        play's move index, about 20 bytes); then, for a new game, at the
        end of a round, after a resume and every JOURNAL_MAX plays, the
        whole record too (its replay code and the seats, store.save), the
        journal moving to game.jrn.bak beside game.sav.bak. A play's save so
        costs the same however long the game; config.load_game reads them
        back (the .bak pair when game.sav is damaged).

        The record's save builds its text in a few KiB at once. On
        MicroPython the heap of a long game is fragmented (the free memory
        is in small holes), so the app keeps a reserve block allocated early
        and frees it for the save: the save's allocations fit in that hole.
        """
        import store
        from scopa import replay

        g = self.game
        if self._base is not None and self._base_game is g and g.history:
            # the play, journalled after the record; and so the record's
            # .bak with the journal's .bak make the record again, should it
            # be damaged
            try:
                self.saved_bytes += store.append(
                    JOURNAL, self._since + 1, replay.last_index(g.history), self._base, self.folder
                )
                self._since += 1
                if not g.round_over and self._since < JOURNAL_MAX:
                    if self.verbose:
                        print("saved:", replay.encode(g))
                    self._reserve = None
                    self._hold()
                    return
            except OSError as e:
                print("store: play not journalled:", e)  # the record then
        self._reserve = None
        if _MPY:
            gc.collect()
        rec = None
        for _ in range(2):
            try:
                rec = {"code": replay.encode(self.game), "levels": self.levels}
                # a game this app has not saved yet (new, or resumed) is
                # saved twice: its .bak then holds it too, should the record
                # be damaged before the next round's
                for _ in range(2 if self._base_game is not g else 1):
                    self.saved_bytes += store.save(GAME, rec, self.folder)
                    # the journal follows the record before, now game.sav.bak
                    store.rotate(JOURNAL, self.folder)
                self._base = store.checksum(rec["code"].encode())
                self._base_game = g
                self._since = 0
                break
            except OSError as e:
                print("store: game not saved:", e)
                break
            except MemoryError:
                self._low_memory()  # then once more
        else:
            print("store: game not saved: no memory")
        if rec is None:
            return
        if self.verbose:
            print("saved:", rec["code"])
        rec = None
        self._hold()

    def _hold(self):
        if _MPY:
            gc.collect()
            n = RESERVE
            if self.game is not None:
                # replay.encode and store.save: about 8 bytes at once
                # (a bytearray, its slice, str copies) per history byte
                n += 8 * len(self.game.history)
            try:
                self._reserve = bytearray(n)
            except MemoryError:
                self._reserve = None

    def hint(self):
        g = self.game
        h = computer_move(g, g.turn, HARD, True)
        if _MPY:
            _drop("ai.hint")  # (the players it uses stay for the next turn)
        return h

    # Screens --------------------------------------------------------------

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
                _drop("ui." + old)
            if module not in _PLAY:
                _drop_ai()
            if module in _PLAY:
                for m in _MENU_ONLY:
                    _drop(m)
            if module == "table" and self.game is not None and not self.game.round_over:
                _drop("scopa.scoring")  # until the round's end (scopa.game)
            gc.collect()  # (a full collection is slow on CPython and not needed)
        try:
            try:
                mod = __import__("ui." + module, None, None, (name,))
            except ImportError as e:
                # a screen missing from the flash: say so rather than stop
                print("app: no screen %s.%s:" % (module, name), e)
                import lang

                module, name, arg = "pages", "Note", lang.T(lang.NOT_YET)
                mod = __import__("ui.pages", None, None, (name,))
            self.screen = getattr(mod, name)(self, arg)
        except MemoryError:
            self._next = nxt  # no screen: tried again at the next turn
            raise
        self.screen_mod = module
        self.dirty = True

    def start(self):
        """The first screen: the saved game when there is one, else the
        menu; the menu too (Continue resumes) when a damaged save was
        replaced by its backup, so that its note is seen."""
        if self.load_game() and not self.note:
            # for a text-only observer, as the menu line
            print("resume: round %d, move %d" % (self.game.round_no, self.game.moves_played()))
            if self.game.round_over:
                self.go("summary")
            else:
                self.go("table")
        else:
            self.go("menu")
        self._switch()
        if _MPY and self.screen_mod in _PLAY:
            for m in _MENU_ONLY:
                _drop(m)  # until a menu needs them again
            gc.collect()

    def draw(self):
        fb = self.fb
        fb.fill(self.pal.BG)
        self.screen.draw(fb)
        if self.dozing:
            # dimmed: the last row says that a key wakes the screen
            import lang

            p = self.pal
            t = lang.T(lang.WAKE_KEY)
            fb.fill_rect(0, self.h - 9, self.w, 9, p.FG)
            fb.text(t, (self.w - 8 * len(t)) // 2, self.h - 8, p.BG)
        fb.show()

    def _low_memory(self):
        """Out of memory in a turn of the loop: free what can be loaded
        again (the computer players, the menus' code, the save reserve)
        and redraw at the next turn."""
        print("app: low memory")
        self._reserve = None
        _drop_ai()
        for m in _MENU_ONLY:
            _drop(m)
        gc.collect()
        self.dirty = True

    def doze(self):
        """Idle for the sleep time: the screen dims and says a key wakes it
        (still readable: a key then acts as always)."""
        self.dozing = True
        try:
            self.fb.contrast(0)
        except AttributeError:
            pass
        self.dirty = True

    def stays_readable(self):
        """True when the screen shown stays dimmed rather than going off:
        the scorekeeper's (READABLE), unless Settings say it sleeps too."""
        return getattr(self.screen, "READABLE", False) and not self.settings.get("keeper", 0)

    def sleep(self):
        """Idle twice the sleep time: the screen goes off; the key that
        wakes it does nothing else."""
        self.asleep = True
        try:
            self.fb.poweroff()
        except AttributeError:
            pass

    def wake(self):
        self.asleep = False
        try:
            self.fb.poweron()
        except AttributeError:
            pass
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
        from ui.buttons import ticks_add, ticks_diff

        if self._poll is None:
            from ui.buttons import Debouncer

            self._poll = Debouncer().poll
            self._last = self.clock.ticks_ms()
        poll = self._poll
        t = self.clock.ticks_ms()
        # ms since start, wrapping like the board's ticks: a small int
        # even after 12 days on (times are compared with ticks_diff)
        self.now = ticks_add(self.now, max(0, self.clock.ticks_diff(t, self._last)))
        self._last = t
        now = self.now
        raw = self.buttons.read()
        ev = poll(raw, now)
        while ev:
            self.idle_since = now
            if self.asleep:
                self.wake()  # the key that wakes does nothing else
                ev = poll(raw, now)
                continue
            if self.dozing:
                self.undoze()  # the screen was readable: the key acts too
            if self._next is None:
                try:
                    self.screen.key(ev)
                except MemoryError:
                    self._low_memory()
            ev = poll(raw, now)
        if self.asleep:
            return 4 * TICK_MS
        try:
            if self._next is None:
                self.screen.tick(now)
            if self._next is not None:
                self._switch()
            if self.dirty and ticks_diff(now, self.last_draw) >= FRAME_MS:
                self.dirty = False
                self.last_draw = now
                self.draw()
            self._short = 0
        except MemoryError:
            self._short += 1  # turns in a row that ran out of memory
            if self._short > 3:
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

    return config


# Modules the menus, new games and the app's start (ui.palette) load that a
# game in progress does not use: dropped when the table or the round
# summary shows (on MicroPython).
_MENU_ONLY = ("config", "scopa.ruleopts", "scopa.cards", "scopa.explain", "ui.palette")


def _drop(name):
    """Forget module `name` (e.g. "ui.menu"), from sys.modules and from its
    package, so that its heap is freed at the next collection (it is
    imported again when needed)."""
    sys.modules.pop(name, None)
    pkg, _, attr = name.rpartition(".")
    p = sys.modules.get(pkg) if pkg else None
    if p is not None and attr in p.__dict__:
        delattr(p, attr)


def _drop_ai():
    """Forget the computer players (loaded again at their next turn)."""
    for k in [k for k in sys.modules if k == "ai" or k[:3] == "ai."]:
        del sys.modules[k]


if TYPE_CHECKING:

    class Screen:
        """What the app asks of a screen (firmware/ui): ``key(ev)`` handles
        a button event, ``tick(now_ms)`` moves time-driven stages on,
        ``busy()`` is true while the screen is doing something by itself
        (no idle sleep then), ``draw(fb)`` draws it (and changes nothing)."""

        def key(self, ev):
            pass

        def tick(self, now):
            pass

        def busy(self):
            return False

        def draw(self, fb):
            pass


def run(board, max_steps=None, folder="", until=None):
    """Run the app on `board` (a module or object with NAME, WIDTH, HEIGHT,
    COLOUR and setup()) for `max_steps` loop turns (None: forever), with
    the saved files in `folder`. Returns the App."""
    app = App(board, folder)
    app.start()
    app.loop(max_steps, until)
    return app


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
