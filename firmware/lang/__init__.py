"""The strings of the screens, one language at a time, read by index.

Each language is a data file `lang/<code>.txt` next to this module: one
string a line, as ``KEY<TAB>text``, in the order of the ids below (the host
tests check that every file has every key in this order and that every
string fits where it is drawn on a 128 x 64 screen). Text is UTF-8:
printable ASCII and the accented letters ui/gfx.py draws (`gfx.text`: the
built-in 8 x 8 framebuf font is ASCII only), 8 pixels a character, so a
width is `len()` of the str, in characters, not bytes.

The loaded language is one bytes blob and one array of offsets: two heap
objects, not a dict of strings. `get(i)` (also called `tr`) returns a str.

How-to-play pages are `lang/<code>_help.txt`, read from flash a page at a
time by `page()`.
"""

from micropython import const

LANGS = ("en", "it", "de", "no")
NAMES = ("English", "Italiano", "Deutsch", "Norsk")

# String ids, in file order. Append new ids at the end of a group only
# together with every language file.
NEW_GAME = const(0)
CONTINUE = const(1)
SCOREKEEPER = const(2)
SETTINGS = const(3)
HOW_TO = const(4)
ABOUT = const(5)
SCOPA_FOR = const(6)  # "Scopa for %d"
SEAT = const(7)
PARTNER = const(8)
OPPONENTS = const(9)
TARGET = const(10)
BEST_OF = const(11)
MUST_TAKE = const(12)
PAIR_FIRST = const(13)
NAPOLA = const(14)
RE_BELLO = const(15)
START = const(16)
EASY = const(17)
MEDIUM = const(18)
HARD = const(19)
HUMAN = const(20)
ON = const(21)
OFF = const(22)
LANGUAGE = const(23)
FACES = const(24)
ITALIAN = const(25)
FRENCH = const(26)
CONTRAST = const(27)
SLEEP = const(28)
NEVER = const(29)
PASS_PLAY = const(30)
VERSION = const(31)
FREE_MEM = const(32)
BOARD = const(33)
YOU = const(34)
THINKING = const(35)
YOUR_TURN = const(36)
HINT = const(37)
SCOPA = const(38)
OK_BACK = const(39)
PASS_TO = const(40)
PRESS_A = const(41)
ROUND = const(42)
CARDS = const(43)
COINS = const(44)
SETTEBELLO = const(45)
PRIMIERA = const(46)
SCOPE = const(47)
TOTAL = const(48)
MATCH = const(49)
WINS = const(50)  # "%s wins"
YOU_WIN = const(51)
YOU_LOSE = const(52)
DRAW = const(53)
NEW_MATCH = const(54)
NEXT_ROUND = const(55)
NOT_YET = const(56)
SAVE_RESTORED = const(57)
SAVE_LOST = const(58)
TEAM = const(59)  # "Team %s"
PLAYS = const(60)
MATCH_TO = const(61)  # "Match to %s"
USED_MEM = const(62)
PAGE_KEYS = const(63)
PICCOLA = const(64)
GRANDE = const(65)
BACK = const(66)
# The scorekeeper (ui/scorekeeper.py, ui/keeper_*.py)
SK_HISTORY = const(67)
SK_UNDO = const(68)
SK_UNDO_Q = const(69)
SK_NEW_SHEET = const(70)
SK_EXIT = const(71)
SK_GAME = const(72)
SK_PLAYERS = const(73)
SK_NAME = const(74)
SK_KEYS = const(75)
SK_NOBODY = const(76)
SK_BY_CARDS = const(77)
SK_SUM = const(78)
SK_MORE = const(79)
SK_NO_COINS = const(80)
SK_TWICE = const(81)
SK_CLASH = const(82)
SK_CUT = const(83)
SK_DAMAGED = const(84)
SK_NEWER = const(85)
SK_OLDER = const(86)
NOT_SAVED = const(87)
SK_CARDS_FIT = const(88)
SK_SEVEN = const(89)  # "7D is %s's"
SK_NO_SEVEN = const(90)
SK_NO_ROUNDS = const(91)  # the history of a sheet without rounds
# The regional games' options (ui/menu.py) and the all-coins match win
DEAL = const(92)
ACE_ON_ACE = const(93)
TAKES_ACE = const(94)
TAKES_ALL = const(95)
ACE_SCOPA = const(96)
KINGS = const(97)
NAPOLEONE = const(98)
ALL_COINS = const(99)
# The idle screen: dimmed with a note, the scorekeeper's choice (Settings)
WAKE_KEY = const(100)  # "Any key wakes"
KEEPER_IDLE = const(101)  # Settings: what the scorekeeper does when idle
DIM = const(102)
REPLACE_GAME = const(103)  # New game with a game saved: "Replace game?"
# More readings of the rule books (ui/menu.py, ui/keeper_setup.py, help)
NO_SUIT = const(104)  # primiera_missing_suit
OUT = const(105)
SEE_PARTNER = const(106)
PER_CARD = const(107)
FIXED_THREE = const(108)
PICCOLA_MAX = const(109)
HOUSE_RULES = const(110)
# Ranks by name, plural (the hint's "All Aces are out"): RANK_N formats
# 2..7 ("%ds"), the others are the Ace, Fante, Cavallo and Re (rank())
RANK_N = const(111)
RANK_ACE = const(112)
RANK_FANTE = const(113)
RANK_CAVALLO = const(114)
RANK_RE = const(115)
# The table's round page (ui/round_info.py)
MAZZO = const(116)
LAST_TAKE = const(117)
ANY_BACK = const(118)
SETTINGS_LOST = const(119)  # settings.sav and its .bak damaged: the defaults
PLAYS_LOST = const(120)  # game.jrn damaged: the plays after the damage lost
# The hint's reason (ai.hint.why codes, in their order): the last group
WHY_SCOPA = const(121)
WHY_ACE = const(122)
WHY_SETTEBELLO = const(123)
WHY_A_SEVEN = const(124)
WHY_SEVENS = const(125)
WHY_COINS = const(126)
WHY_TAKES_SAFE = const(127)
WHY_TAKES = const(128)
WHY_LEAVES = const(129)
WHY_ALL_OUT = const(130)
WHY_LEAST_RISK = const(131)
WHY_HARD_TO_TAKE = const(132)
N_STRINGS = const(133)

_blob = b""
_offs = None
code = "en"


def _dir():
    f = __file__
    i = f.rfind("/")
    return f[: i + 1] if i >= 0 else ""


def load(lang):
    """Load language `lang` (a code of LANGS, or its index). Unknown codes
    load English. Raises OSError when the data file is missing."""
    global _blob, _offs, code
    from array import array

    if isinstance(lang, int):
        lang = LANGS[lang] if 0 <= lang < len(LANGS) else "en"
    if lang not in LANGS:
        lang = "en"
    _blob = b""
    _offs = None
    with open(_dir() + lang + ".txt", "rb") as f:
        blob = f.read()
    offs = array("H", bytes(4 * N_STRINGS))
    pos = 0
    n = 0
    size = len(blob)
    while pos < size and n < N_STRINGS:
        end = blob.find(b"\n", pos)
        if end < 0:
            end = size
        tab = blob.find(b"\t", pos, end)
        offs[2 * n] = tab + 1 if tab >= 0 else end
        offs[2 * n + 1] = end
        n += 1
        pos = end + 1
    _blob = blob
    _offs = offs
    code = lang


def get(i):
    """String `i` (an id above) of the loaded language, as str (decoded
    from UTF-8)."""
    o = _offs
    if o is None:
        return "?"
    return _blob[o[2 * i] : o[2 * i + 1]].decode()


tr = get  # the screens' name for it: tr(lang.ROUND), "translated"


def rank(v):
    """The plural name of rank `v` (1..10) in the loaded language: "Aces",
    "7s", "Kings" (lang RANK_*)."""
    if v == 1:
        return get(RANK_ACE)
    if v >= 8:
        return get(RANK_FANTE + v - 8)  # RANK_FANTE, RANK_CAVALLO, RANK_RE
    return get(RANK_N) % v


def pages(game, lang=None):
    """Number of How-to-play pages of section `game` (str, e.g. "scopa")."""
    return _scan(game, lang, -1)[0]


def page(game, k, lang=None):
    """Page `k` (from 0) of the How-to-play section `game`: a list of lines
    (str, at most 16 characters), read from flash; [] past the end.

    The help file has sections that start with a line ``@name``; ``@all``
    is shown for every game after the game's own pages. Pages inside a
    section end at a line holding only ``-``.
    """
    return _scan(game, lang, k)[1]


def _scan(game, lang, want):
    # (pages of `game` then of "all", the lines of page `want`)
    lang = lang or code
    k = 0
    for name in (game, "all"):
        try:
            f = open(_dir() + lang + "_help.txt", encoding="utf-8")
        except OSError:
            return k, []
        with f:
            inside = False
            lines = []
            for ln in f:
                ln = ln.rstrip("\r\n")
                if ln[:1] == "@" or ln == "-":
                    if inside and lines:
                        if k == want:
                            return k + 1, lines
                        k += 1
                    lines = []
                    if ln[:1] == "@":
                        inside = ln[1:] == name
                elif inside:
                    lines.append(ln if k == want else "")
            if inside and lines:
                if k == want:
                    return k + 1, lines
                k += 1
    return k, []
