"""Rulesets: a game family from a preset plus options.

Names and defaults are those of shared/rules/FORMAT.md. A `Rules` object is
a handful of small ints; `code()` gives it as a short text for replay codes
and saved games, and `Rules.from_code()` reads it back.
"""

from micropython import const

from scopa import cards

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

# One char per field in codes: values 0..63.
_B64 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"

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
)

# FORMAT.md key -> (attribute, values as given in the JSON -> int)
_CHOICES = {
    "match_priority": ("strict", {"strict": 1, "free": 0}),
    "primiera_missing_suit": ("primiera_zero", {"excluded": 0, "zero": 1}),
    "sum_choice": ("fewest", {"any": 0, "fewest": 1}),
    "tie_at_target": ("recount", {"play_on": 0, "recount": 1}),
    "ace_on_ace": ("ace_on_ace_all", {"ace": 0, "all": 1}),
}
_FLAGS = {
    "capture_mandatory": "mandatory",
    "napola": "napola",
    "napoleone": "napoleone",
    "ace_takes_all": "ace_takes_all",
    "ace_sweep_scopa": "ace_sweep_scopa",
    "redeal_kings": "redeal_kings",
    "partners_visible": "partners_visible",
}


class Rules:
    """One ruleset. Attributes are small ints (booleans as 0/1):

    game (SCOPA.. SCOPONE_10), players (2, 3, 4, 6), strict (single-match
    priority), mandatory (capture mandatory), fewest (sum_choice fewest),
    primiera_zero (a missing suit counts 0), re_bello (card 0..39, or -1),
    napola, napoleone, target (points), best_of (1 or 3 matches), recount
    (tie_at_target recount), ace_takes_all, ace_on_ace_all, ace_sweep_scopa,
    redeal_kings, partners_visible.

    Derived: sides (2 or 3), hand (cards per deal), table (cards face up at
    the start), deals (deals per round).
    """

    def __init__(self, game="scopa", **options):
        """Preset of `game` (a name of GAMES) with `options` (attribute
        names above, or the FORMAT.md keys and values).

        Raises ValueError naming the game or option that is not valid.
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
        for k in options:
            self._set(k, options[k])
        self._check()

    def _set(self, key, v):
        if key == "game":
            return
        if key in _CHOICES:
            attr, table = _CHOICES[key]
            if v not in table:
                raise ValueError("%s: %r is not one of %s" % (key, v, ", ".join(table)))
            setattr(self, attr, table[v])
        elif key in _FLAGS:
            setattr(self, _FLAGS[key], _flag(key, v))
        elif key == "re_bello":
            if v is None or v is False or v == -1:
                self.re_bello = -1
            elif v is True:
                self.re_bello = cards.RE_DENARI
            else:
                self.re_bello = cards.parse(v) if isinstance(v, str) else int(v)
        elif key in _FIELDS:
            setattr(self, key, int(v))
        else:
            raise ValueError("unknown rule option %r" % (key,))

    def _check(self):
        g = self.game
        if g in (SCOPONE, SCOPONE_SCIENTIFICO, SCOPONE_10):
            if self.players != 4:
                raise ValueError("players: %s is for 4 players" % GAMES[g])
        elif self.players not in (2, 3, 4, 6):
            raise ValueError("players: %r is not 2, 3, 4 or 6" % (self.players,))
        if g == CIRULLA and self.players not in (2, 3, 4):
            raise ValueError("players: cirulla is for 2, 3 or 4 players")
        if self.target not in TARGETS:
            raise ValueError("target: %r is not one of 11, 16, 21, 31, 51" % (self.target,))
        if self.best_of not in (1, 3):
            raise ValueError("best_of: %r is not 1 or 3" % (self.best_of,))
        if not -1 <= self.re_bello < 40:
            raise ValueError("re_bello: not a card")
        for f in _FIELDS[2:]:
            if f not in ("re_bello", "target", "best_of") and getattr(self, f) not in (0, 1):
                raise ValueError("%s: must be 0 or 1" % f)

    # Derived sizes ------------------------------------------------------

    @property
    def sides(self):
        """Number of sides: each seat with 2 or 3 players, else 2 teams."""
        return self.players if self.players < 4 else 2

    @property
    def hand(self):
        """Cards dealt to each seat per deal."""
        g = self.game
        if g == SCOPONE_SCIENTIFICO:
            return 10
        if g in (SCOPONE, SCOPONE_10):
            return 9
        return 3

    @property
    def table(self):
        """Cards dealt face up to the table at the start of a round."""
        return 0 if self.game in (SCOPONE_SCIENTIFICO, SCOPONE_10) else 4

    @property
    def deals(self):
        """Deals per round (2 players: 6, 3: 4, 4: 3, 6: 2; Scopone: 1)."""
        return (40 - self.table) // (self.hand * self.players)

    def side(self, seat):
        """Side (0..sides-1) of `seat`: partners alternate round the table."""
        return seat % self.sides

    # Codes --------------------------------------------------------------

    def code(self):
        """Short text (one char per field) that `from_code` reads back."""
        out = ""
        for f in _FIELDS:
            v = getattr(self, f)
            out += _B64[v + 1 if f == "re_bello" else v]
        return out

    @classmethod
    def from_code(cls, text):
        """Rules of a `code()` text. Raises ValueError when malformed."""
        if not isinstance(text, str) or len(text) != len(_FIELDS):
            raise ValueError("bad rules code %r" % (text,))
        r = cls()
        for i, f in enumerate(_FIELDS):
            v = _B64.find(text[i])
            if v < 0:
                raise ValueError("bad rules code %r" % (text,))
            setattr(r, f, v - 1 if f == "re_bello" else v)
        if r.game >= len(GAMES):
            raise ValueError("bad rules code %r: unknown game" % (text,))
        r._check()
        return r

    @classmethod
    def from_dict(cls, d):
        """Rules from a rule case's ``rules`` object (FORMAT.md keys)."""
        d = dict(d)
        game = d.pop("game", None)
        if game is None:
            raise ValueError("rules: 'game' is required")
        return cls(game, **d)

    def __eq__(self, other):
        return isinstance(other, Rules) and self.code() == other.code()

    def __repr__(self):
        return "Rules(%s, %d players, code %s)" % (GAMES[self.game], self.players, self.code())


def _flag(key, v):
    if v is True or v == 1:
        return 1
    if v is False or v == 0:
        return 0
    raise ValueError("%s: %r is not true or false" % (key, v))
