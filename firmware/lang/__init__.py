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
PARTNERS = const(9)  # the partner row with two partners (6 players)
OPPONENTS = const(10)
TARGET = const(11)
BEST_OF = const(12)
MUST_TAKE = const(13)
PAIR_FIRST = const(14)
NAPOLA = const(15)
RE_BELLO = const(16)
START = const(17)
EASY = const(18)
MEDIUM = const(19)
HARD = const(20)
HUMAN = const(21)
ON = const(22)
OFF = const(23)
LANGUAGE = const(24)
FACES = const(25)
ITALIAN = const(26)
FRENCH = const(27)
CONTRAST = const(28)
SLEEP = const(29)
NEVER = const(30)
PASS_PLAY = const(31)
VERSION = const(32)
FREE_MEM = const(33)
BOARD = const(34)
YOU = const(35)
THINKING = const(36)
YOUR_TURN = const(37)
HINT = const(38)
SCOPA = const(39)
OK_BACK = const(40)
PASS_TO = const(41)
PRESS_A = const(42)
ROUND = const(43)
CARDS = const(44)
COINS = const(45)
SETTEBELLO = const(46)
PRIMIERA = const(47)
SCOPE = const(48)
TOTAL = const(49)
MATCH = const(50)
WINS = const(51)  # "%s wins"
YOU_WIN = const(52)
YOU_LOSE = const(53)
DRAW = const(54)
NEW_MATCH = const(55)
NOT_YET = const(56)
SAVE_RESTORED = const(57)
SAVE_LOST = const(58)
TEAM = const(59)  # "Team %s"
MATCH_TO = const(60)  # "Match to %s"
NEXT_MATCH = const(61)
MATCH_WON = const(62)
MATCH_LOST = const(63)
MATCHES = const(64)
USED_MEM = const(65)
PICCOLA = const(66)
GRANDE = const(67)
BACK = const(68)
# The scorekeeper (ui/scorekeeper.py, ui/keeper_*.py)
SK_HISTORY = const(69)
SK_UNDO = const(70)
SK_UNDO_Q = const(71)
SK_NEW_SHEET = const(72)
SK_EXIT = const(73)
SK_GAME = const(74)
SK_PLAYERS = const(75)
SK_NAME = const(76)
SK_KEYS = const(77)
SK_NOBODY = const(78)
SK_BY_CARDS = const(79)
SK_SUM = const(80)
SK_MORE = const(81)
SK_NO_COINS = const(82)
SK_TWICE = const(83)
SK_CLASH = const(84)
SK_CUT = const(85)
SK_DAMAGED = const(86)
SK_NEWER = const(87)
SK_OLDER = const(88)
NOT_SAVED = const(89)
SK_CARDS_FIT = const(90)
SK_SEVEN = const(91)  # "7D is %s's"
SK_NO_SEVEN = const(92)
SK_NO_ROUNDS = const(93)  # the history of a sheet without rounds
SK_PICK = const(94)  # a scorekeeper choice not made yet
# The regional games' options (ui/menu.py) and the all-coins match win
DEAL = const(95)
ACE_ON_ACE = const(96)
TAKES_ACE = const(97)
TAKES_ALL = const(98)
ACE_SCOPA = const(99)
KINGS = const(100)
NAPOLEONE = const(101)
ALL_COINS = const(102)
# The idle screen: dimmed with a note, the scorekeeper's choice (Settings)
WAKE_KEY = const(103)  # "Any key wakes"
KEEPER_IDLE = const(104)  # Settings: what the scorekeeper does when idle
DIM = const(105)
REPLACE_GAME = const(106)  # New game with a game saved: "Replace game?"
# More readings of the rule books (ui/menu.py, ui/keeper_setup.py, help)
NO_SUIT = const(107)  # primiera_missing_suit
OUT = const(108)
SEE_PARTNER = const(109)
SEE_PARTNERS = const(110)  # the option with two partners (6 players)
PER_CARD = const(111)
FIXED_THREE = const(112)
PICCOLA_MAX = const(113)
HOUSE_RULES = const(114)
# Ranks by name, plural (the hint's "All Aces are out"): RANK_N formats
# 2..7 ("%ds"), the others are the Ace, Fante, Cavallo and Re (rank())
RANK_N = const(115)
RANK_ACE = const(116)
RANK_FANTE = const(117)
RANK_CAVALLO = const(118)
RANK_RE = const(119)
# The table's round page (ui/round_info.py)
MAZZO = const(120)
LAST_TAKE = const(121)
ANY_BACK = const(122)
SETTINGS_LOST = const(123)  # settings.sav and its .bak damaged: the defaults
PLAYS_LOST = const(124)  # game.jrn damaged: the plays after the damage lost
LAY_IT = const(125)  # CHOOSE on the choice that takes nothing (capture not mandatory)
# The hint's reason (ai.hint.why codes, in their order)
WHY_SCOPA = const(126)
WHY_ACE = const(127)
WHY_SETTEBELLO = const(128)
WHY_A_SEVEN = const(129)
WHY_SEVENS = const(130)
WHY_COINS = const(131)
WHY_TAKES_SAFE = const(132)
WHY_TAKES = const(133)
WHY_LEAVES = const(134)
WHY_ALL_OUT = const(135)
WHY_LEAST_RISK = const(136)
WHY_HARD_TO_TAKE = const(137)
WHY_KEEPS_ACE = const(138)  # an Ace in hand would take the table: kept for later
WHY_SETS_UP = const(139)  # a lay a card in hand can take next: "Sets up a presa"
WHY_HOLDS = const(140)  # a lay that keeps the safer lay's card: "Keeps %s|for later" (a card: "7D")
WHY_ONLY = const(141)  # one legal move: a lay, or a presa of no sweep, 7 or 2+ denari
WHY_ONLY_SAFE = const(142)  # the same, and no unseen card sweeps the table it leaves
SK_REPLACE = const(143)  # New sheet on a sheet with rounds: ask first
RANK_DONNA = const(144)  # the 9 with French faces (Q): "Queens"
SK_TIE = const(145)  # the sheet: sides tied at or past the target
SK_NEW_WINNER = const(146)  # an edit whose recount changes a match's winner
SK_ALL_CARDS = const(147)  # the primiera's "Nobody" when one side took every card
SK_FULL = const(148)  # the sheet holds sheet.MAX_ROUNDS: the totals' key line
NO_MEMORY = const(149)  # no heap: the sheet not read, or a key's action not done
SK_DROP = const(150)  # B out of a round typed in part: a second B drops it
READING = const(151)  # a long sheet being read from flash (App._switch)
FEWEST = const(152)  # New game's house rule: of the sums a card can take, the fewest cards
TAKES_REST = const(153)  # the round's end: the table's rest to the side that took last
SK_SCOPE_CARDS = const(154)  # the sheet: more scope than half a side's cards
SK_NO_WINNER = const(155)  # an edit that leaves a match it ended without a winner
SK_SCOPE_PLAYS = const(156)  # the sheet: more scope than a side can make ("Scope max %d")
SK_SCOPE_ALL = const(157)  # the sheet: the sides' scope together more than a round allows
SK_DRAFT_LOST = const(158)  # the round being typed: every copy of round.sav damaged
SK_EDIT_KEYS = const(159)  # a round's review opened from the history: A edits it
SK_AT = const(160)  # a round of the sheet, review and edit: "R1 M2" ("P.2", never a name's "P2")
SK_HIST_KEYS = const(161)  # the totals, where a row is free: UP / DOWN open the history
SK_HELD = const(162)  # the re bello or grande step: the side the denari named say holds it
SK_KEPT_ROUNDS = const(163)  # the sheet read from an older copy: the rounds it holds
OPPONENT = const(164)  # the opponents' row with one opponent (2 players)
MAZZO_TO = const(165)  # Scopone a 10: the mazzo's four to the dealer's side (round's end)
OTHERS = const(166)  # the round's summary: re bello, napola, piccola and grande added up
N_STRINGS = const(167)

_blob = b""
_offs = None
code = "en"


def _dir():
    f = __file__
    i = f.rfind("/")
    return f[: i + 1] if i >= 0 else ""


def load(lang):
    """Load language `lang` (a code of LANGS, or its index). Unknown codes
    load English. Raises OSError when the data file is missing, MemoryError
    when the heap cannot hold its strings (about 3.5 KB): the language
    loaded before stays, whole (it is dropped only once the new one is
    read: a language changed in Settings, far below the app's peak)."""
    global _blob, _offs, code
    from array import array

    if isinstance(lang, int):
        lang = LANGS[lang] if 0 <= lang < len(LANGS) else "en"
    if lang not in LANGS:
        lang = "en"
    with open(_dir() + lang + ".txt", "rb") as f:  # missing: the strings loaded stay
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


def rank(v, french=False):
    """The plural name of rank `v` (1..10) in the loaded language: "Aces",
    "7s", "Kings" (lang RANK_*); `french`: as French faces show it (the 9
    a Queen, not a Knight)."""
    if v == 1:
        return get(RANK_ACE)
    if v == 9 and french:
        return get(RANK_DONNA)
    if v >= 8:
        return get(RANK_FANTE + v - 8)  # RANK_FANTE, RANK_CAVALLO, RANK_RE
    return get(RANK_N) % v


KEEPER = "keeper"  # the help file's section on the scorekeeper


def pages(game, lang=None):
    """Number of How-to-play pages of section `game` (str, e.g. "scopa"),
    "all"'s after a game's; KEEPER's alone."""
    return _scan(game, lang, -1)[0]


def page(game, k, lang=None):
    """Page `k` (from 0) of the How-to-play section `game`: a list of lines
    (str, at most 16 characters), read from flash; [] past the end.

    The help file has sections that start with a line ``@name``; ``@all``
    is shown for every game after the game's own pages (not after KEEPER,
    the scorekeeper's). Pages inside a section end at a line holding only
    ``-``.
    """
    return _scan(game, lang, k)[1]


def _scan(game, lang, want):
    # (pages of `game` then of "all", the lines of page `want`)
    lang = lang or code
    k = 0
    for name in (game,) if game == KEEPER else (game, "all"):
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
