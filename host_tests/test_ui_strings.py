"""Every string of every language, and the How-to-play pages, fit where
they are drawn on the smallest screen (128 x 64, the 8 x 8 font: 16
columns by 8 rows).

Two kinds of checks: the data files themselves (keys in order, printable
ASCII or the accented letters ui/gfx.py draws, widths in characters, not
bytes), and every screen drawn in every language by the real app on a fake
128 x 64 board, whose display records each text drawn: none may leave the
screen and no two may overlap.
"""

import re
from pathlib import Path

import pytest

import app
import config
import lang
import ui_fakeboard as F
from ui import gfx

LANG_DIR = Path(lang.__file__).parent
COLS = 16
GAMES = config.GAME_KEYS  # a How-to-play section each


def ids():
    """The string ids of lang/__init__.py in order: [(name, value)]."""
    src = (LANG_DIR / "__init__.py").read_text("utf-8")
    out = re.findall(r"^([A-Z_]+) = const\((\d+)\)", src, re.M)
    return [(n, int(v)) for n, v in out if n != "N_STRINGS"]


def drawn(ch):
    """True for a character gfx.text draws: printable ASCII or a letter of
    its glyph table."""
    return 32 <= ord(ch) < 127 or ch in gfx.ACCENTED


def test_ids_are_dense():
    vals = [v for _, v in ids()]
    assert vals == list(range(lang.N_STRINGS))


@pytest.mark.parametrize("code", lang.LANGS)
def test_language_file_has_every_key_in_order(code):
    lines = (LANG_DIR / (code + ".txt")).read_text("utf-8").split("\n")
    assert lines[-1] == ""
    keys = [ln.split("\t")[0] for ln in lines[:-1]]
    assert keys == [n for n, _ in ids()]
    for ln in lines[:-1]:
        text = ln.split("\t", 1)[1]
        assert text and all(drawn(ch) for ch in text), ln
        # "|" breaks a line in two (the hint's reasons): each part fits
        assert all(len(part) <= COLS for part in text.split("|")), ln
        assert text.count("|") <= (1 if name_of(ln).startswith("WHY_") else 0), ln


@pytest.mark.parametrize("code", lang.LANGS)
def test_loaded_strings(code):
    lang.load(code)
    try:
        assert lang.code == code
        for name, i in ids():
            assert lang.tr(i) == _file_text(code, name)
    finally:
        lang.load("en")


@pytest.mark.parametrize("code", lang.LANGS)
def test_house_rule_choices_are_capitalised_alike(code):
    # a choice is a word with a capital, as Off / On beside it: the missing
    # suit's "esce", "raus", "ute" were not (the deal's game names aside)
    from ui.house import house_rules

    lang.load(code)
    try:
        for g in range(len(config.GAME_KEYS)):
            cfg = dict(config.default_settings()["cfg"], game=g)
            for k, label, choices in house_rules(cfg):
                for c in choices:
                    if k != "deal" and c[0].isalpha():
                        assert c[0].isupper(), (code, g, label, c)
    finally:
        lang.load("en")


def name_of(line):
    return line.split("\t")[0]


def _file_text(code, name):
    for ln in (LANG_DIR / (code + ".txt")).read_text("utf-8").split("\n"):
        if ln.startswith(name + "\t"):
            return ln.split("\t", 1)[1]
    raise KeyError(name)


# widest values put into the format strings
WIDE = {
    "SCOPA_FOR": 6,
    "ROUND": 99,
    "THINKING": "P6",
    "PASS_TO": "P6",
    "TEAM": "135",
    "MATCH_TO": "135",
    "WHY_SEVENS": 4,
    "WHY_COINS": 10,
    "WHY_TAKES_SAFE": 10,
    "WHY_TAKES": 10,
    "WHY_LEAVES": 40,
    "SK_SCOPE_PLAYS": 20,
    "SK_AT": (99, 99),
}


@pytest.mark.parametrize("code", lang.LANGS)
def test_formatted_strings_fit(code):
    for name, val in WIDE.items():
        t = _file_text(code, name) % val
        assert all(len(part) <= COLS for part in t.split("|")), (code, t)
    # the hint's "All <rank> seen", every rank named as players do
    lang.load(code)
    try:
        ranks = [lang.rank(v) for v in range(1, 11)]
        for r in ranks + [lang.rank(9, True)]:
            t = lang.tr(lang.WHY_ALL_OUT) % r
            assert all(len(part) <= COLS for part in t.split("|")), (code, t)
        # "Keeps <card> for later": the card as its face shows it ("7D")
        t = lang.tr(lang.WHY_HOLDS) % gfx.card_text(9)
        assert all(len(part) <= COLS for part in t.split("|")), (code, t)
        assert len(set(ranks)) == 10 and not any(r.startswith("1") for r in ranks[:1])
    finally:
        lang.load("en")
    # the winner line: "<Team 135> wins" and "<P3> wins"
    team = _file_text(code, "TEAM") % "135"
    assert len(_file_text(code, "WINS") % team) <= COLS
    # "SCOPA! <You>"
    for who in ("P6", _file_text(code, "YOU")):
        assert len(_file_text(code, "SCOPA") + " " + who) <= COLS
        assert len(_file_text(code, "THINKING") % who) <= COLS
    # the hint and turn lines with pass-and-play: "P6: Your turn"
    for k in ("YOUR_TURN", "HINT"):
        assert len("P6: " + _file_text(code, k)) <= COLS, (code, k)
    assert len("P6: " + _file_text(code, "HINT") + "...") <= COLS


def help_pages(code):
    text = (LANG_DIR / (code + "_help.txt")).read_text("utf-8")
    assert text.endswith("\n")
    return text[:-1].split("\n")


@pytest.mark.parametrize("code", lang.LANGS)
def test_help_file_lines_fit(code):
    sections = []
    page = 0
    for ln in help_pages(code):
        assert all(drawn(ch) for ch in ln), ln
        assert ln.startswith("@") or len(ln) <= COLS, (code, ln)
        if ln.startswith("@"):
            sections.append(ln[1:])
            page = 0
        elif ln == "-":
            page = 0
        else:
            page += 1
            assert page <= 7, (code, "page longer than 7 lines", ln)
    # then what each house rule means, a page each (ui/pages.explained)
    keys = ["target", "best", "must", "pair", "fewest", "pzero", "aceace", "acescopa", "kings"]
    keys += ["napola", "napoleone", "rebello", "piccola", "pvis"]
    assert sections == [*GAMES, "all"] + ["o_" + k for k in keys] + [lang.KEEPER]
    for k in keys:
        assert lang.pages("o_" + k, code) == 1 + lang.pages("no_such_game", code), k


@pytest.mark.parametrize("code", lang.LANGS)
def test_help_pages_read_one_at_a_time(code):
    for game in GAMES:
        n = lang.pages(game, code)
        assert n >= 8
        seen = []
        for k in range(n):
            lines = lang.page(game, k, code)
            assert 1 <= len(lines) <= 7
            assert all(ln.strip() for ln in lines)
            seen.append(lines)
        assert lang.page(game, n, code) == []
        # the common pages come after the game's own
        assert seen[-1] == lang.page("scopa", lang.pages("scopa", code) - 1, code)


# ---------------------------------------------------------------------------
# Every screen drawn, in every language


def _overlaps(texts):
    boxes = [(x, y, x + 8 * len(s), y + 8, s) for s, x, y in texts if s.strip()]
    bad = []
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i], boxes[j]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                bad.append((a[4], b[4]))
    return bad


class Walker:
    """Draws screens of a real App on a fake 128 x 64 board and checks the
    text of each frame."""

    def __init__(self, tmp_path, code, w=128, h=64, colour=False):
        self.board = F.Board((), w, h, colour)
        self.app = app.App(self.board, str(tmp_path))
        self.app.settings["lang"] = lang.LANGS.index(code)
        lang.load(code)
        self.frames = 0
        self.code = code

    def show(self, module, name="Screen", arg=None):
        self.app.go(module, name, arg)
        self.app._switch()
        self.draw()
        return self.app.screen

    def draw(self):
        self.app.draw()
        d = self.board.display
        assert not d.overflow, (self.code, type(self.app.screen).__name__, d.overflow)
        bad = _overlaps(d.frame)
        assert not bad, (self.code, type(self.app.screen).__name__, bad)
        self.frames += 1
        return d.screen_text()


def _walk_lists(w, screen):
    for i in range(len(screen.rows)):
        screen.sel = i
        screen.top = max(0, i - screen.visible() + 1)
        label, choices, _ = screen.rows[i]
        for k in range(len(choices or [None])):
            screen.rows[i][2] = k
            w.draw()
            if choices:
                assert len(label) + 1 + len(choices[k]) <= COLS, (w.code, label, choices[k])


def _new_game(w, game, players=2, seat=0, human_partner=False):
    cfg = w.app.settings["cfg"]
    cfg.update(game=game, players=players, seat=seat)
    w.app.settings["pass"] = 1 if human_partner else 0
    if human_partner:
        cfg["partner"] = app.HUMAN
        cfg["opp"] = app.HUMAN
    w.app.new_game()


@pytest.fixture(params=lang.LANGS)
def walker(request, tmp_path):
    w = Walker(tmp_path, request.param)
    yield w
    lang.load("en")


def test_menus_fit(walker):
    w = walker
    s = w.show("menu")
    _walk_lists(w, s)
    w.app.note = lang.tr(lang.SAVE_RESTORED)
    w.show("menu")
    w.app.note = lang.tr(lang.SAVE_LOST)
    w.show("menu")
    w.app.note = lang.tr(lang.SETTINGS_LOST)
    w.show("menu")
    w.app.note = lang.tr(lang.PLAYS_LOST)
    w.show("menu")
    _walk_lists(w, w.show("menu", "Games"))
    for pass_play in (0, 1):
        w.app.settings["pass"] = pass_play
        for game, players in ((0, 2), (0, 3), (0, 4), (0, 6), (1, 4), (2, 4), (6, 4)):
            w.app.settings["cfg"].update(game=game, players=players)
            _walk_lists(w, w.show("menu", "Options"))
        for game in (3, 4, 5):
            for players in config.player_choices(game):
                for napola in (0, 1):
                    w.app.settings["cfg"].update(game=game, players=players, napola=napola)
                    _walk_lists(w, w.show("menu", "Options"))
    w.app.settings["cfg"]["napola"] = 0
    _walk_lists(w, w.show("menu", "Settings"))
    _walk_lists(w, w.show("menu", "Help"))
    # the scorekeeper's menu, and its question before a new sheet
    import sheet
    from scopa.rules import Rules

    sh = sheet.Sheet(Rules("scopa"), ["P1", "P2"])
    _walk_lists(w, w.show("keeper_setup", "Menu", sh))
    _walk_lists(w, w.show("keeper_setup", "Replace", sh))
    w.app.game = None


def test_pages_fit(walker):
    w = walker
    w.show("pages", "About")
    w.show("pages", "Note", lang.tr(lang.NOT_YET))
    for game in [*GAMES, lang.KEEPER]:
        s = w.show("pages", "Help", game)
        for k in range(s.n):
            s.turn(1) if k else None
            w.draw()


def _table_stages(w):
    from ui import table as TB

    s = w.show("table")
    g = w.app.game
    for stage in (TB.PICK, TB.CHOOSE, TB.THINK, TB.SHOW, TB.SCOPA, TB.COVER, TB.NEWS):
        s.stage = stage
        s.line = w.app.turns.seat_label(0) + ": Decino +10"  # NEWS, the widest
        hand = g.hand(g.turn)
        s.opts = [(), tuple(g.table()[:2])]
        s.oi = 1
        s.move = (hand[0], tuple(g.table()[:1]))
        s.hint = (hand[0], (), None) if stage == TB.PICK else None
        s.seat = g.turn
        w.draw()
        if stage == TB.CHOOSE:
            s.asking = True  # "Hint..." in place of "A:ok B:back"
            w.draw()
            s.asking = False
        if stage == TB.PICK:
            # every reason of the hint, with its widest number
            from ai import hint as H

            for code in range(lang.WHY_ONLY_SAFE + 1 - lang.WHY_SCOPA):
                # ALL_OUT names a rank (1..10), HOLDS a card (0..39)
                ns = range(1, 11) if code == H.ALL_OUT else range(40) if code == H.HOLDS else (40,)
                for n in ns:
                    s.hint = (hand[0], (), (code, n))
                    w.draw()
            s.hint = None
            w.draw()
            # the round's page, with a play of every seat (a king that took 3)
            before = bytes(g.played)
            for seat in range(g.rules.players):
                g.played[2 * seat : 2 * seat + 2] = bytes((9 + 1, 3))
            s.info = True
            w.draw()
            s.info = False
            g.played[:] = before
            s.asking = True
            w.draw()
            s.asking = False


def test_table_fits(walker):
    w = walker
    for game, players in ((0, 2), (0, 3), (0, 6), (1, 4), (2, 4), (3, 2), (4, 6), (5, 4), (6, 4)):
        _new_game(w, game, players)
        _table_stages(w)
    _new_game(w, 0, 4, human_partner=True)
    _table_stages(w)


def _play_round(game, rules_over=False):
    while not game.round_over:
        c, t = game.legal_moves()[0]
        game.play(c, t)


def test_summary_fits(walker):
    w = walker
    games = ((0, 2, 0), (0, 3, 0), (0, 6, 0), (1, 4, 0), (0, 4, 1), (0, 3, 1), (5, 3, 0), (5, 4, 0))
    for game, players, pp in games:
        w.app.settings["cfg"].update(napola=1, rebello=1)
        _new_game(w, game, players, human_partner=bool(pp))
        g = w.app.game
        while True:
            _play_round(g)
            s = w.show("summary")
            for k in range(len(s.pages)):
                s.k = k
                w.draw()
            if g.finished:
                g.score.napoleone = g.winner  # the all-coins line too
                w.draw()
                break
            g.next_round()
    w.app.settings["cfg"].update(napola=0, rebello=0)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("code, w, h", [(c, 128, 64) for c in lang.LANGS] + [("en", 240, 135)])
def test_primiera_labels_clear_the_cards(tmp_path, monkeypatch, code, w, h, players):
    # the round's primiera page: each side's label ("P2", "1+3", with 6
    # players "1+3+5"), its best card of each suit, its total; no text
    # under a card (the cards are drawn after the label) or touching one,
    # nothing off the screen
    from ui import gfx

    cards = []
    real = gfx.card

    def card(fb, x, y, c, pal, s=1, *a):
        cards.append((x, y, x + gfx.CARD_W * s, y + gfx.CARD_H * s))
        real(fb, x, y, c, pal, s, *a)

    wk = Walker(tmp_path, code, w, h, w > 128)
    try:
        _new_game(wk, 0, players)
        g = wk.app.game
        _play_round(g)
        monkeypatch.setattr(gfx, "card", card)
        s = wk.show("summary")
        s.k = s.pages.index("primiera")
        cards.clear()
        wk.draw()
        texts = wk.board.display.frame
        labels = [s.side_label(i) for i in range(g.rules.sides)]  # "You": in `code`
    finally:
        lang.load("en")
    assert [t for t, _, _ in texts if t in labels] == labels
    assert len(cards) == 4 * g.rules.sides and all(x1 < w and y1 <= h for _, _, x1, y1 in cards)
    for t, x, y in texts:
        right = F.text_right(t, x)
        under = [c for c in cards if x < c[2] and c[0] <= right and y < c[3] and c[1] < y + 8]
        assert not under, (code, players, t, x, y, under)
        if t in labels:  # 4 px clear of its first card at least (2 read as one)
            assert min(c[0] for c in cards) - right > 3, (code, players, t)


@pytest.mark.parametrize("code", ["en", "de"])
def test_colour_screen_fits(tmp_path, code):
    w = Walker(tmp_path, code, 240, 135, True)
    try:
        _walk_lists(w, w.show("menu", "Settings"))
        w.app.settings["cfg"].update(game=0, players=6)
        _walk_lists(w, w.show("menu", "Options"))
        for game, players in ((0, 3), (2, 4)):
            _new_game(w, game, players)
            _table_stages(w)
            g = w.app.game
            _play_round(g)
            s = w.show("summary")
            for k in range(len(s.pages)):
                s.k = k
                w.draw()
                if k != 1 and players == 3:
                    # room for every heading in the 8 x 8 font: "You", not
                    # the 128 x 64 columns' "YOU" in the 3 x 5 one
                    drawn = [t for t, _, _ in w.board.display.frame]
                    heads = [s.side_label(i) for i in range(3)]
                    assert all(t in drawn for t in heads), (code, k, drawn)
    finally:
        lang.load("en")


@pytest.mark.mpy
def test_the_fake_boards_font_widths_are_micropythons(run_mpy):
    # the right-edge check (a pixel of margin) reads each glyph's rightmost
    # lit column from ui_fakeboard.FONT_RIGHT: the unix port's framebuf font
    code = """
import framebuf
b = bytearray(8)
f = framebuf.FrameBuffer(b, 8, 8, framebuf.MONO_VLSB)
out = []
for c in range(32, 127):
    f.fill(0)
    f.text(chr(c), 0, 0, 1)
    r = -1
    for x in range(8):
        if b[x]:
            r = x
    out.append(r + 1)
print(bytes(out).hex())
"""
    assert bytes.fromhex(run_mpy(code).strip()) == F.FONT_RIGHT
    assert F.text_right("Opponents Medium", 0) == 127  # the 'm' reaches the edge
