"""Rulesets: a game family from a preset plus options.

Names and defaults are those of host_tests/rules/FORMAT.md. A `Rules` object is
a handful of small ints; `code()` gives it as a short text for replay codes
and saved games, and `Rules.from_code()` reads it back.
"""

from micropython import const

SCOPA = const(0)
SCOPONE = const(1)
SCOPONE_SCIENTIFICO = const(2)
SCOPA_D_ASSI = const(3)
SCOPA_15 = const(4)
CIRULLA = const(5)
SCOPONE_10 = const(6)  # Scopone a 10 carte: 9 each, empty table

GAMES = (
    "scopa",
    "scopone",
    "scopone_scientifico",
    "scopa_d_assi",
    "scopa_15",
    "cirulla",
    "scopone_10",
)

TARGETS = (11, 16, 21, 31, 51)

# Primiera points by card value - 1: 7=21 6=18 A=16 5=15 4=14 3=13 2=12
# J/Q/K=10 (pagat.com Scopa; Parlett, Penguin Book of Card Games p.136).
# Here, in the module every part of the game loads, so that scoring, the
# computer players and the cards share one table.
PRIMIERA = b"\x10\x0c\x0d\x0e\x0f\x12\x15\x0a\x0a\x0a"

# The digits of codes (rules: one a field; scopa.replay), values 0..63.
# Bytes: a code is read and written a byte at a time, never a character
# (a str of its own), which MicroPython would keep as a name for good
# (ui.gfx).
DIGITS = const(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_")


def digit(k):
    """The value (0..63) of byte `k` (an int) as a digit of DIGITS, -1
    when it is none (worked out, not looked up: nothing allocated)."""
    if 48 <= k <= 57:  # 0-9
        return k - 48
    if 97 <= k <= 122:  # a-z
        return k - 87
    if 65 <= k <= 90:  # A-Z
        return k - 29
    return 62 if k == 45 else 63 if k == 95 else -1  # - _


# Field order of `code()`; append only (older codes stay readable).
_FIELDS = (
    "game",
    "players",
    "strict",
    "mandatory",
    "fewest",
    "primiera_zero",
    "re_bello",
    "napola",
    "napoleone",
    "target",
    "best_of",
    "recount",
    "ace_takes_all",
    "ace_on_ace_all",
    "ace_sweep_scopa",
    "redeal_kings",
    "partners_visible",
    "napola_fixed",
    "piccola_cap",
)
_OLD_CODE = const(17)  # fields in the codes written before napola_fixed, piccola_cap


class Rules:
    """One ruleset. Attributes are small ints (booleans as 0/1):

    game (SCOPA.. SCOPONE_10), players (2, 3, 4, 6), strict (single-match
    priority), mandatory (capture mandatory), fewest (sum_choice fewest),
    primiera_zero (a missing suit counts 0), re_bello (card 0..39, or -1),
    napola, napoleone, target (points), best_of (1 or 3 matches), recount
    (tie_at_target recount), ace_takes_all, ace_on_ace_all, ace_sweep_scopa,
    redeal_kings, partners_visible, napola_fixed (the napola scores 3
    whatever its length: the Scopone manual's "fixed bonus (3 points)"),
    piccola_cap (Cirulla: the most the piccola scores, 0 for none, 5 or 6;
    see scoring).

    Derived: sides (2 or 3 sides: each seat with 2 or 3 players, else two
    teams), hand (cards dealt to each seat per deal: 3, 9 in Scopone, 10 in
    Scopone scientifico), table (cards face up at the start: 4, or 0),
    deals (deals per round: 2 players 6, 3: 4, 4: 3, 6: 2, Scopone 1).
    """

    def __init__(self, game="scopa", **options):
        """Preset of `game` (a name of GAMES) with `options` (attribute
        names above, or the FORMAT.md keys and values).

        Raises ValueError naming the game or option that is not valid, or
        the option and the game when the option does not apply to the game
        (scopa.ruleopts.applies: for example ace_takes_all in scopa_15,
        napola in cirulla; its preset value is accepted).
        """
        if game not in GAMES:
            raise ValueError("unknown game %r: one of %s" % (game, ", ".join(GAMES)))
        g = GAMES.index(game)
        self.game = g
        self.players = 4 if g in (SCOPONE, SCOPONE_SCIENTIFICO, SCOPONE_10) else 2
        self.strict = 1
        self.mandatory = 1
        self.fewest = 0
        self.primiera_zero = 0
        self.re_bello = -1
        self.napola = 0
        self.napoleone = 1
        self.target = 51 if g == CIRULLA else 11
        self.best_of = 1
        self.recount = 0
        self.ace_takes_all = 1 if g in (SCOPA_D_ASSI, CIRULLA) else 0
        self.ace_on_ace_all = 0
        self.ace_sweep_scopa = 1 if g == CIRULLA else 0
        self.redeal_kings = 0 if g == CIRULLA else 1
        self.partners_visible = 0
        self.napola_fixed = 0
        self.piccola_cap = 0
        for k in options:
            self._set(k, options[k])
        self._check(len(options) > 0)

    def _set(self, key, v):
        if key == "game":
            return
        if key in _FIELDS and key != "re_bello" and isinstance(v, int):
            setattr(self, key, int(v))
        else:
            # FORMAT.md keys and values: parsed by a module loaded only here
            from scopa import ruleopts

            ruleopts.set_option(self, key, v)

    def _check(self, options=True):
        # options false: the preset as it is (no option to check)
        g = self.game
        if g in (SCOPONE, SCOPONE_SCIENTIFICO, SCOPONE_10):
            if self.players != 4:
                raise ValueError("players: %s is for 4 players" % GAMES[g])
        elif g == CIRULLA:
            if self.players not in (2, 3, 4):
                raise ValueError("players: cirulla is for 2, 3 or 4 players")
        elif self.players not in (2, 3, 4, 6):
            raise ValueError("players: %r is not 2, 3, 4 or 6" % (self.players,))
        self._derive()  # (after the players: a code of 0 players divided by 0)
        if self.target not in TARGETS:
            raise ValueError("target: %r is not one of 11, 16, 21, 31, 51" % (self.target,))
        if self.best_of not in (1, 3):
            raise ValueError("best_of: %r is not 1 or 3" % (self.best_of,))
        if not -1 <= self.re_bello < 40:
            raise ValueError("re_bello: not a card")
        for f in _FIELDS[2:]:
            if f in ("re_bello", "target", "best_of", "piccola_cap"):
                continue
            if getattr(self, f) not in (0, 1):
                raise ValueError("%s: must be 0 or 1" % f)
        if options:
            # which options apply to which game: a module loaded only here
            from scopa import ruleopts

            ruleopts.check_applies(self, Rules(GAMES[g]), _FIELDS[2:], GAMES[g])

    def _derive(self):
        # sizes as plain attributes: read in the computer players' loops
        g = self.game
        self.sides = self.players if self.players < 4 else 2
        if g == SCOPONE_SCIENTIFICO:
            self.hand = 10
        elif g in (SCOPONE, SCOPONE_10):
            self.hand = 9
        else:
            self.hand = 3
        self.table = 0 if g in (SCOPONE_SCIENTIFICO, SCOPONE_10) else 4
        self.deals = (40 - self.table) // (self.hand * self.players)

    def side(self, seat):
        """Side (0..sides-1) of `seat`: partners alternate round the table."""
        return seat % self.sides

    # Codes --------------------------------------------------------------

    def code(self):
        """Short text (one char per field) that `from_code` reads back; it
        also reads the shorter codes of before napola_fixed and piccola_cap."""
        out = bytearray(len(_FIELDS))
        for i, f in enumerate(_FIELDS):
            v = getattr(self, f)
            out[i] = DIGITS[v + 1 if f == "re_bello" else v]
        return out.decode()

    @classmethod
    def from_code(cls, text):
        """Rules of a `code()` text. Raises ValueError when malformed, or
        naming the option and the game when it sets an option that does
        not apply to the game."""
        if not isinstance(text, str) or not _OLD_CODE <= len(text) <= len(_FIELDS):
            raise ValueError("bad rules code %r" % (text,))
        r = cls()
        for i, f in enumerate(_FIELDS[: len(text)]):  # an older code: the rest 0
            v = digit(ord(text[i : i + 1]))
            if v < 0:
                raise ValueError("bad rules code %r" % (text,))
            setattr(r, f, v - 1 if f == "re_bello" else v)
        if r.game >= len(GAMES):
            raise ValueError("bad rules code %r: unknown game" % (text,))
        r._check()
        return r

    @classmethod
    def from_dict(cls, d):
        """Rules from a rule case's ``rules`` object (FORMAT.md keys).
        Raises ValueError."""
        d = dict(d)
        game = d.pop("game", None)
        if game is None:
            raise ValueError("rules: 'game' is required")
        return cls(game, **d)

    def __eq__(self, other):
        return isinstance(other, Rules) and self.code() == other.code()

    def __repr__(self):
        return "Rules(%s, %d players, code %s)" % (GAMES[self.game], self.players, self.code())
