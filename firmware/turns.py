"""The game in progress, for the App: the turn sequence (whose turn, the
computer's move, the hint, the end of a round and of the match) and the
game's saves. Game-only code: the app imports it when a game starts (not
at the menu, whose heap it would take) and keeps it from then on.

The App's `turns` (a `Turns`) is what the game's screens ask: ``turn()``
at the start of each turn, ``computer_turn()`` for a computer's move or
a hint, ``play(card, taken)`` for any move, ``uncover()`` when the next
person of pass-and-play looks, ``deal()`` after a round's summary. The
game, the seats and the shown hand stay the App's (``app.game``,
``app.levels``, ``app.shown``): a screen reads them and changes nothing.
"""

import gc
import sys
from micropython import const

from consts import GAME, HARD, HUMAN, JOURNAL, MEDIUM

_MPY = sys.implementation.name == "micropython"
_JOURNAL_MAX = const(64)  # plays in the journal before game.sav is written again

# Turns.turn: what the seat to play does next (ui/table.py has copies:
# underscored, they take no room in this module's globals)
_PICK = const(0)  # a person whose hand shows picks a card
_COVER = const(1)  # pass-and-play: the hand stays hidden until uncover()
_COMPUTER = const(2)  # a computer: ask computer_turn()
_OVER = const(3)  # the round (or the match) is over: its summary shows

# The memory policy's events this module meets (app._SUMMARY, app._HINT,
# app._NO_ROOM, app._SAVED)
_SUMMARY = const(3)
_HINT = const(4)
_NO_ROOM = const(6)
_SAVED = const(8)


def add30(a, b):
    """(a + b) % 2**30 for a, b in 0..2**30-1, the sum never reaching
    2**30 (a heap int on a 32-bit board)."""
    room = 0x3FFFFFFF - a
    return a + b if b <= room else b - room - 1


def mul30(a, b):
    """(a * b) % 2**30 for a, b in 0..2**30-1, in 15-bit halves: no step
    reaches 2**30."""
    al = a & 0x7FFF
    bl = b & 0x7FFF
    mid = ((a >> 15) * bl & 0x7FFF) + (al * (b >> 15) & 0x7FFF)
    return add30((mid & 0x7FFF) << 15, al * bl)


class Turns:
    """The game of `app` (an app.App) turn by turn. `use_ai` false: the
    computer players and hints are random legal moves; `free(event)` is
    the app's memory policy (app._free)."""

    def __init__(self, app, use_ai, free):
        self.app = app
        self.use_ai = use_ai
        # ai.core's machine code found no heap: not loaded again (each try
        # keeps what it loaded: MicroPython holds native code for good)
        self.no_code = False
        # the Game whose computer's last move (not a hint) was not its
        # level's, for want of heap, else None: the table's top row says
        # "Out of memory" until a computer plays its own again (another
        # game, a new one or one loaded, is another Game: not said there)
        self.short = None
        # the last hint was not the hard player's (no heap for it: the
        # medium player's move, no reason): the table says "Out of memory"
        # in place of "Hint"
        self.hint_short = False
        self.free = free
        self._base = None  # store.checksum of game.sav's code (the journal's base)
        self._base_game = None  # the Game that game.sav holds
        self._since = 0  # journal lines since game.sav

    # The seats -------------------------------------------------------------

    def humans(self):
        """The seats played by a person (list of ints)."""
        lv = self.app.levels
        return [s for s in range(len(lv)) if lv[s] == HUMAN]

    def hide_hands(self):
        """True when pass-and-play hides the hand between turns."""
        n = 0
        for lv in self.app.levels:  # (no list: read at every draw)
            if lv == HUMAN:
                n += 1
        return n > 1

    def viewer(self):
        """The seat whose hand the table shows, or -1 (hands hidden, or
        no seat a person's)."""
        if self.hide_hands():
            return self.app.shown
        lv = self.app.levels
        for s in range(len(lv)):
            if lv[s] == HUMAN:
                return s
        return -1

    def seat_label(self, seat):
        """The seat's label: "You" for the only human seat, else P1..P6."""
        import lang

        if not self.hide_hands() and self.app.levels[seat] == HUMAN:
            return lang.tr(lang.YOU)
        return "P%d" % (seat + 1)

    def side_label(self, side):
        """The players of `side` joined by "+": "You+P3", "P2+P4"; in threes
        the first by its label, the others by their numbers ("You+3+5",
        "P2+4+6": a line holds it); the player's own seat first ("You+P2",
        "You+2+6"); a seat's own label when sides are seats."""
        r = self.app.game.rules
        seats = list(range(side, r.players, r.sides))
        v = self.viewer()
        if v in seats and not self.hide_hands():  # (then v is "You")
            seats.remove(v)
            seats.insert(0, v)  # "You" first
        if len(seats) > 2:
            return "+".join([self.seat_label(seats[0])] + [str(s + 1) for s in seats[1:]])
        return "+".join(self.seat_label(s) for s in seats)

    # The turn sequence -------------------------------------------------------

    def turn(self):
        """What the seat to play does next: _PICK, _COVER, _COMPUTER (see
        above) or _OVER, the round's summary then shown."""
        app = self.app
        g = app.game
        if g.round_over:
            app.go("summary")
            return _OVER
        if app.levels[g.turn] != HUMAN:
            return _COMPUTER
        if self.hide_hands() and app.shown != g.turn:
            return _COVER
        return _PICK

    def uncover(self):
        """Pass-and-play: show the hand of the seat to play."""
        self.app.shown = self.app.game.turn

    def computer_turn(self, hint=False):
        """The computer's move ``(card, taken)`` for the seat to play (not
        played yet: the table shows it, then asks play); with `hint`, the
        move Hard suggests to the person to play, ``(card, taken, why)``
        (see computer_move)."""
        g = self.app.game
        if not hint:
            return self.computer_move(g.turn, self.app.levels[g.turn])
        h = self.computer_move(g.turn, HARD, True)
        if _MPY:
            self.free(_HINT)
        return h

    def play(self, card, taken):
        """Play a move for the seat to play; saves the game. Returns the
        engine's flags. Pass-and-play hides a person's hand after the
        play (until uncover)."""
        app = self.app
        g = app.game
        if app.levels[g.turn] == HUMAN and self.hide_hands():
            app.shown = -1
        self.observe(card, taken)
        flags = g.play(card, taken)
        app.plays += 1
        if g.round_over and g.over:
            app.matches += 1
        self.save_game()
        if _MPY:
            gc.collect()  # a tidy heap for the next search
        return flags

    def deal(self):
        """After a round's summary: the next round, or a new match with the
        same rules and seats once the match is finished (saved at once),
        the deal passing on to the seat after the last round's dealer."""
        app = self.app
        g = app.game
        if not g.finished:
            g.next_round()
            app.shown = -1
            return
        from scopa.game import Game

        app.game = Game(g.rules, self.seed(), (g.dealer + 1) % g.rules.players)
        app.shown = -1
        self.save_game()

    def seed(self):
        """A seed for a new game (int below 2**30): ``(ticks_ms * 2654435 +
        now * 97 + seeds taken * 7919) % 2**30``, every step a small int
        on a 32-bit board (`add30`, `mul30`; the plain product of the
        ticks is not)."""
        app = self.app
        app.saves += 1
        s = add30(mul30(app.clock.ticks_ms(), 2654435), mul30(app.now & 0x3FFFFFFF, 97))
        return add30(s, mul30(app.saves, 7919))

    # The computer players (firmware/ai) ---------------------------------------

    def observe(self, card, taken):
        """Tell the computer players what a play (anyone's) shows of that
        seat's hand, before it is played (ai.core.observe: public cards
        only). Without firmware/ai, or short of heap, nothing."""
        if not self.use_ai or self.no_code or "ai.core" not in sys.modules and not _has_ai():
            return
        game = self.app.game
        try:
            from ai import core
            from scopa import engine

            self.catch_up()
            taken = tuple(taken)
            engine.gen_moves(game.st, game.rules, game.mv)
            if (
                not game.round_over
                and engine.find_move(game.st, game.rules, card, taken, game.mv) >= 0
            ):
                core.observe(game.st, game.rules, card, taken)
        except (ImportError, MemoryError):
            pass

    def catch_up(self):
        """A game resumed mid-deal (read from flash, or after the computer
        players were dropped): tell ai.core what the deal's plays so far
        showed (core.observe, from Game.deal and the history since), so
        that the computer plays on as it would have without the pause: a
        declared Cirulla hand, the values a seat showed it lacks. Nothing
        when core already holds this deal's plays or is not loaded; short
        of heap it plays on with what core holds."""
        core = sys.modules.get("ai.core")
        g = self.app.game
        h = g.history
        if core is None or g.round_over or g.deal_at >= len(h) or core.observed(g.st):
            return
        try:
            from scopa import engine, replay

            st = bytearray(g.deal)
            mv = g.mv  # (the game's scratch list: filled again before its next use)
            for idx in replay.each_index(h[g.deal_at :]):
                engine.gen_moves(st, g.rules, mv)
                o = mv.offsets()[idx]
                card, taken = mv.move(o)
                core.observe(st, g.rules, card, taken)
                engine.apply(st, g.rules, mv.buf, o)
        except MemoryError:
            pass

    def computer_move(self, seat, level, hint=False):
        """The move ``(card, taken)`` the computer at `level` plays for
        `seat`, or suggests to a human with `hint`, then as ``(card, taken,
        why)`` with `why` the reason ``(code, n)`` of ai.hint.why, or None:
        the one call site of the computer players (firmware/ai). Their
        generator is seeded by the game and the move number, so a resumed
        game plays on the same. Without firmware/ai (or with use_ai false)
        a random legal move; with no heap for the level's search, the
        medium player's move (an easy player's: a random one), and from
        then on random moves when the players' machine code did not fit
        (`no_code`); `short` then tells the screens (`hint_short` for a
        hint)."""
        from scopa.rng import Rng

        game = self.app.game
        if _MPY:
            # a collection first: a player loaded again after a round needs
            # a few KiB at once, in the holes of what was freed since
            gc.collect()
        rng = Rng(add30(game.seed, 7919 * game.moves_played() + seat + (101 if hint else 0)))
        ai = None
        if self.use_ai and not self.no_code:
            try:
                import ai
            except ImportError:
                pass
        why = None
        card = None
        taken = ()
        fell = self.no_code  # the move is not the level's
        if ai is not None and hasattr(ai, "player"):
            # its partners at its level (a hint's: HARD), or not
            mates = ai.mates(self.app.levels, game.rules.sides, seat, level)
            try:
                if hint:
                    from ai import hint as advice

                    self.catch_up()
                    card, taken = advice.choose(game.st, game.rules, seat, rng, mates=mates)
                    why = advice.why(game.st, game.rules, seat, card, taken)
                else:
                    player = ai.player(ai.LEVELS[min(level, len(ai.LEVELS) - 1)])
                    self.catch_up()
                    card, taken = player.choose(game.st, game.rules, seat, rng, mates=mates)
            except MemoryError:
                # no room to search: the medium player's move (no search:
                # one scratch state, where the hard player's buffers did
                # not fit; an easy player's stays easy), else a plain legal
                # move rather than no move; the players are loaded again at
                # their next turn (a search cut short may have left its
                # buffers half made)
                print("app: no memory for the computer player")
                fell = True
                self.free(_NO_ROOM)
                gc.collect()
                card = None
                if _MPY and "ai.core" not in sys.modules and "scopa.group" in sys.modules:
                    # the machine code itself did not fit (a build with it:
                    # scopa.group loaded): every try would keep some of it
                    print("app: no memory for the computer players' code: random moves")
                    self.no_code = True
                if not self.no_code and (level >= MEDIUM or hint):
                    try:
                        card, taken = ai.player("medium").choose(game.st, game.rules, seat, rng)
                        fell = level > MEDIUM  # a medium player's move is its own
                    except MemoryError:
                        card = None
        if card is None:  # no players, or no heap for them: a plain legal move
            moves = game.legal_moves()
            card, taken = moves[rng.below(len(moves))]
        if not hint:
            self.short = game if fell else None
        if hint:
            self.hint_short = fell
            return card, tuple(taken), why
        return card, tuple(taken)

    # The game's saves ----------------------------------------------------------

    def save_game(self):
        """Save the game after a play: one journal line (store.append: the
        play's move index, about 20 bytes); then, for a new game, at the
        end of a round, after a resume and every _JOURNAL_MAX plays, the
        whole record too (its replay code and the seats, store.save), the
        journal moving to game.jrn.bak beside game.sav.bak. A play's save so
        costs the same however long the game; config.load_game reads them
        back (the .bak pair when game.sav is damaged).

        A full or failing flash (OSError) or too small a heap (MemoryError)
        is not raised: the game plays on in memory, app.unsaved is True (the table
        says "Not saved!") and the next save is the whole record, so that
        the journal never skips a play.

        The record's save builds its text in a few KiB at once. On
        MicroPython the heap of a long game is fragmented (the free memory
        is in small holes): at a round's end the computer players leave
        first, their code and buffers the holes the text fits in (and
        without scopa.replay a play's line needs no more than its own
        bytes). No block is kept in reserve: one measured no smaller
        heap (tools/bench_app.py) and held 2-3 KB at the peak.
        """
        try:
            self._save_game()
        except MemoryError:
            # the import of store or scopa.replay, or freeing modules: the
            # move is played (the table must not play it again), not saved
            print("store: game not saved: no memory")
            self.app.unsaved = True
            self._base = None  # the whole record next

    def _save_game(self):
        import store

        app = self.app
        g = app.game
        if self._base is not None and self._base_game is g and g.history:
            # the play, journalled after the record; and so the record's
            # .bak with the journal's .bak make the record again, should it
            # be damaged
            try:
                app.saved_bytes += store.append(
                    JOURNAL, self._since + 1, g.last_index(), self._base, app.folder
                )
                self._since += 1
                app.unsaved = False
                if not g.round_over and self._since < _JOURNAL_MAX:
                    if app.verbose:
                        from scopa import replay

                        print("saved:", replay.encode(g))
                    return
            except (OSError, MemoryError) as e:
                # (no heap for the file's buffers: the record, below, frees
                # what it can first)
                print("store: play not journalled:", repr(e))  # the record then
        if _MPY:
            if g.round_over:
                # the computer players leave at the round's summary anyway:
                # their code and buffers are holes for the record's text
                self.free(_SUMMARY)
            gc.collect()
        from scopa import replay

        rec = None
        for _ in range(2):
            try:
                rec = {"code": replay.encode(app.game), "levels": app.levels}
                # a game this app has not saved yet (new, or resumed) is
                # saved twice: its .bak then holds it too, should the record
                # be damaged before the next round's
                for _ in range(2 if self._base_game is not g else 1):
                    app.saved_bytes += store.save(GAME, rec, app.folder)
                    # the journal follows the record before, now game.sav.bak
                    store.rotate(JOURNAL, app.folder)
                self._base = store.checksum(rec["code"].encode())
                self._base_game = g
                self._since = 0
                app.unsaved = False
                break
            except OSError as e:
                print("store: game not saved:", e)
                app.unsaved = True  # the table says so until a save succeeds
                self._base = None  # the plays since are in no file: the whole record next
                break
            except MemoryError:
                app._low_memory()  # then once more
        else:
            print("store: game not saved: no memory")
            app.unsaved = True
            self._base = None
        if _MPY:
            self.free(_SAVED)  # scopa.replay, until the next record
        if rec is None:
            return
        if app.verbose:
            print("saved:", rec["code"])


def _has_ai():
    try:
        import ai  # noqa: F401
    except ImportError:
        return False
    return True
