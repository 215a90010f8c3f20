"""The 8 x 8 text with accented letters (gfx.text): the glyphs drawn in the
built-in font's style on the unix port's framebuf, ASCII at the cost of
one FrameBuffer.text call, the fake boards reading the texts back whole,
and the language files written with their letters, not ASCII stand-ins."""

import re
from pathlib import Path

import pytest

import app
import lang
import ui_fakeboard as F
from ui import gfx

LANG_DIR = Path(lang.__file__).parent

# the letters the languages need (gfx.ACCENTED holds at least these) and
# the letter each is made of
BASE = dict(zip("àèéìòùÀÈÉÌäöüßÄæøåÆØÅ", "aeeiouAEEIaousAaoaAOA"))
# a lower case letter's glyph is the font's own letter below row 1
LOWER = "àèéìòùäöüå"


class Calls:
    """A display that records the drawing calls gfx.text makes."""

    def __init__(self):
        self.calls = []

    def text(self, s, x, y, c=1):
        self.calls.append(("text", s, x, y, c))

    def vline(self, x, y, h, c):
        self.calls.append(("vline", x, y, h, c))

    def pixel(self, x, y, c=None):
        self.calls.append(("pixel", x, y, c))

    def fill_rect(self, x, y, w, h, c):
        self.calls.append(("fill_rect", x, y, w, h, c))


def test_the_table_has_every_letter_the_languages_need():
    assert set(BASE) <= set(gfx.ACCENTED)
    assert len(gfx.GLYPHS8) == 8 * len(gfx.ACCENTED)
    assert len(set(gfx.ACCENTED)) == len(gfx.ACCENTED)
    for code in lang.LANGS:
        for name in (code + ".txt", code + "_help.txt"):
            text = (LANG_DIR / name).read_text("utf-8")
            assert all(ord(ch) < 128 or ch in gfx.ACCENTED for ch in text), name


@pytest.mark.parametrize("s", ["Hauptmenu", "A:ok B:back", "", " ", "Scopa for 4", "P6: Hint..."])
def test_ascii_is_one_framebuf_text_call(s):
    d = Calls()
    gfx.text(d, s, 3, 5, 1)
    assert d.calls == [("text", s, 3, 5, 1)]


def test_accented_letters_are_glyphs_among_the_fonts_characters():
    d = Calls()
    gfx.text(d, "Zurück A", 10, 20, 1)
    texts = [c for c in d.calls if c[0] == "text"]
    # the runs of ASCII each one call, in their cells
    assert texts == [("text", "Zur", 10, 20, 1), ("text", "ck A", 42, 20, 1)]
    px = [c for c in d.calls if c[0] != "text"]
    assert px and all(c[0] == "pixel" and 34 <= c[1] < 42 and 20 <= c[2] < 28 for c in px)
    # a character without a glyph is glyph 127, one cell, as framebuf
    # draws a byte outside 32..127
    d = Calls()
    gfx.text(d, "€5", 0, 0, 1)
    assert d.calls == [("text", "\x7f", 0, 0, 1), ("text", "5", 8, 0, 1)]
    d = Calls()
    gfx.text(d, "ßø", 0, 0, 1)
    assert {c[0] for c in d.calls} == {"pixel"}
    assert max(c[1] for c in d.calls) < 16


def test_the_fake_display_reads_accented_text_back_whole():
    d = F.Display(128, 16)
    d.fill(0)
    gfx.text(d, "Zurück", 0, 0, 1)
    gfx.centre(d, "Hauptmenü", 8, 1, 128)
    d.show()
    assert d.screen_text() == "Zurück\nHauptmenü"
    assert d.frame == [("Zurück", 0, 0), ("Hauptmenü", 28, 8)]
    assert not d.overflow
    # its glyph drawn: pixels in the ü's cell (24..31) above the u
    assert any(d.rows[0][x] for x in range(24, 32))
    # the right-edge check knows the glyphs' widths
    assert F.text_right("ü", 0) == 6 and F.text_right("Ø", 0) == 7 and F.text_right("€", 0) == 7


def test_the_small_font_draws_an_accented_capital_as_its_letter():
    def bits(s):
        d = F.Display(12, 5)
        d.fill(0)
        gfx.small(d, s, 0, 0, 1)
        return [bytes(r) for r in d.rows]

    assert bits("À") == bits("A") and any(any(r) for r in bits("A"))
    assert bits("Å") == bits("Ä") == bits("A")
    assert bits("Ø") == bits("é") == bits("z") == bits(" ")  # no O: nothing, as any letter it lacks


@pytest.mark.mpy
def test_glyphs_on_the_unix_ports_framebuf(run_mpy):
    # each glyph lit, unlike glyph 127 and its base letter; a lower case
    # letter's base is the font's own glyph (rows 2 to 7); ASCII runs drawn
    # as fb.text draws them; and drawing keeps nothing
    code = """
import framebuf, gc
from ui import gfx
W = 8 * 10
buf = bytearray(W)
fb = framebuf.FrameBuffer(buf, W, 8, framebuf.MONO_VLSB)
def cell(s, ours=True):
    fb.fill(0)
    if ours:
        gfx.text(fb, s, 0, 0, 1)
    else:
        fb.text(s, 0, 0, 1)
    return bytes(buf[:8 * len(s)]).hex()
for ch in %r:
    print(ch, cell(ch), cell("\\x7f", False))
print("W", cell("Zurück A"), cell("Zuruck A", False))
import micropython
def kept(s):
    gc.collect()
    a = gc.mem_alloc()
    for _ in range(50):
        gfx.text(fb, s, 0, 0, 1)
        gfx.small(fb, s, 0, 0, 1)
    gc.collect()
    return gc.mem_alloc() - a
micropython.qstr_info()
print("kept", kept("Hauptmenu B:back"), kept("Zurück ~^|"), kept("QRS+-:/ Å9"), kept(""))
micropython.qstr_info()
"""
    out = run_mpy(code % gfx.ACCENTED).splitlines()
    font = _font(run_mpy, "".join(set(BASE.values())))
    glyphs = {}
    for ln in out[: len(gfx.ACCENTED)]:
        ch, g, g127 = ln.split(" ")
        g = bytes.fromhex(g)
        glyphs[ch] = g
        assert g == gfx.GLYPHS8[8 * gfx.ACCENTED.index(ch) :][:8]
        assert any(g) and g != bytes.fromhex(g127), ch
        assert g != font[BASE[ch]], ch
        if ch in LOWER:
            assert bytes(b & 0xFC for b in g) == bytes(b & 0xFC for b in font[BASE[ch]]), ch
            assert all(b & 2 == 0 for b in g) or ch == "å", ch  # row 1 clear
    # no two letters alike (a capital O or U, 5 rows high, would be its
    # lower case: the table has none)
    assert len(set(glyphs.values())) == len(glyphs)
    assert not set("ÒÙÖÜ") & set(gfx.ACCENTED)
    w = [ln for ln in out if ln.startswith("W ")][0].split(" ")
    a, b = bytes.fromhex(w[1]), bytes.fromhex(w[2])
    assert a[:24] == b[:24] and a[32:] == b[32:] and a[24:32] == glyphs["ü"]
    # drawing keeps nothing: no heap once collected, and no character as a
    # name of its own (MicroPython keeps each one-character string it
    # makes as a qstr for good: once 78 names drawn, and pools grown)
    assert out[-2] == "kept 0 0 0 0"
    names = [ln for ln in out if ln.startswith("qstr pool")]
    assert len(names) == 2 and names[0] == names[1], names


def _font(run_mpy, chars):
    code = """
import framebuf
buf = bytearray(8)
fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
for ch in %r:
    fb.fill(0)
    fb.text(ch, 0, 0, 1)
    print(bytes(buf).hex())
"""
    out = run_mpy(code % chars, path=()).split()
    return {ch: bytes.fromhex(h) for ch, h in zip(chars, out)}


# ---------------------------------------------------------------------------
# The languages, written with their letters


def _screen(tmp_path, code, module, name="Screen", arg=None):
    b = F.Board()
    a = app.App(b, str(tmp_path))
    a.settings["lang"] = lang.LANGS.index(code)
    lang.load(code)
    a.go(module, name, arg)
    a._switch()
    a.draw()
    return a, b


def test_a_german_help_page_shows_its_umlauts(tmp_path):
    try:
        a, b = _screen(tmp_path, "de", "pages", "Help", "scopa")
        seen = []
        for _ in range(a.screen.n):
            seen.append(b.display.screen_text())
            a.screen.turn(1)
            a.draw()
    finally:
        lang.load("en")
    text = "\n".join(seen)
    for word in ("Hände", "Plätze", "wählen", "bestätigt", "zurück.", "außer", "Münzen", "König"):
        assert word in text, word


def test_german_and_norwegian_menus_show_their_letters(tmp_path):
    try:
        a, b = _screen(tmp_path, "de", "menu")
        assert "Punktezähler" in b.display.screen_text()
        a, b = _screen(tmp_path, "no", "menu", "Settings")
        assert "Språk" in b.display.screen_text()
        assert lang.tr(lang.TARGET) == "Mål" and lang.tr(lang.WHY_HARD_TO_TAKE) == "Vanskelig å ta"
        lang.load("de")
        assert lang.tr(lang.BACK) == "Zurück" and lang.tr(lang.OK_BACK) == "A:ok B:zurück"
        assert lang.rank(10) == "Könige" and len(lang.tr(lang.SK_UNDO)) == len("Letzte löschen")
        lang.load("it")
        assert lang.tr(lang.ON) == "Sì" and lang.tr(lang.SK_SEVEN) % "P2" == "7D è di P2"
    finally:
        lang.load("en")


# ASCII stand-ins that were in the files, per language: none may come back
STAND_INS = {
    "de": "zurueck Zurueck Punktezaehler Hauptmenue Menue Koenig Koenige Druecke gekuerzt "
    "loeschen Zuege Laesst laesst Aeltere Haende Plaetze naechsten Abraeumen zaehlt zaehlen "
    "zaehle ausser fuer hoechste franzoesisch Muenzen waehlen bestaetigt verlaesst draussen",
    "it": "piu Piu puo gia Giu parita c'e",
    "no": "Maal Maa maa paa aa Aa Spraak foerst foer foerste Foerste faar aapne Naar naar "
    "haendene Haand haand haanden gaar Hoeyest hoeyre maalet vaere Oeverst tommes",
}


@pytest.mark.parametrize("code", sorted(STAND_INS))
def test_no_ascii_stand_ins_in_the_language_files(code):
    for name in (code + ".txt", code + "_help.txt"):
        text = (LANG_DIR / name).read_text("utf-8")
        words = set(re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?|[^\W\d_]+", text))
        bad = [w for w in STAND_INS[code].split() if w in words]
        assert not bad, (name, bad)
    # the Italian verb "è" (not "e", the conjunction): "7D è di", "è scopa"
    if code == "it":
        it = (LANG_DIR / "it_help.txt").read_text("utf-8")
        assert not re.search(r"\be scopa\b|\bnon e\b|\bed e\b", it)


# ---------------------------------------------------------------------------
# No character of a text becomes a name

NAMES_FUZZ = """
import os
import micropython
import bench_board
import lang
_setup = bench_board.setup
K = []
def setup():
    d, k, c = _setup()
    K.append(k)
    return d, k, c
bench_board.setup = setup
import app
app.USE_AI = False
def run(keys, folder):
    bench_board.KEYS = keys
    a = app.App(bench_board, folder)
    a.settings["lang"] = lang.LANGS.index({code!r})
    lang.load({code!r})
    a.start()
    a.loop(None, lambda a: K[-1].i >= len(keys))
    return a
a = run({walk!r}, "")
print("plays", a.plays, "lang", lang.tr(lang.NEW_GAME) != "New game")
os.mkdir("second")
a = run({typing!r}, "second")
print("names", ",".join(a.screen.names))
micropython.qstr_info(1)
"""


def _singles(paths, *texts):
    """The one-character names and strings the code of `paths` and `texts`
    spells out (an identifier of one letter, a literal of one character)."""
    import ast

    out = set()
    for t in [Path(p).read_text() for p in paths] + list(texts):
        for node in ast.walk(ast.parse(t)):
            if isinstance(node, ast.Name) and len(node.id) == 1:
                out.add(node.id)
            elif isinstance(node, ast.arg) and len(node.arg) == 1:
                out.add(node.arg)
            elif isinstance(node, ast.Attribute) and len(node.attr) == 1:
                out.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if len(node.value) == 1:
                    out.add(node.value)
    return out


def _mpy_names(path):
    """The names (qstrs, as str) a compiled .mpy file `path` brings: its
    qstr table (.mpy version 6: after the 4-byte header and the counts of
    qstrs and objects, each a varint of its length << 1, then its bytes
    and a NUL; an odd varint names a static qstr, in the interpreter
    already). Raises ValueError for another format."""
    data = Path(path).read_bytes()
    if data[:2] != b"M\x06":
        raise ValueError("%s: not a version 6 .mpy" % path)
    i = 4

    def uint():
        nonlocal i
        v = 0
        while True:
            b = data[i]
            i += 1
            v = v << 7 | b & 0x7F
            if not b & 0x80:
                return v

    n = uint()
    uint()  # the objects
    out = []
    for _ in range(n):
        v = uint()
        if not v & 1:
            out.append(data[i : i + (v >> 1)].decode())
            i += (v >> 1) + 1
    return out


def test_a_compiled_files_names_are_read(mpy_firmware):
    names = _mpy_names(mpy_firmware / "ui" / "gfx.mpy")
    assert "ui/gfx.py" in names and "text" in names and "glyph" in names
    # a local's name is not one (its slot is a number), nor a const()
    assert "run" not in names and "_CHARS" not in names and "fb" in names  # (an argument)


@pytest.mark.mpy
@pytest.mark.parametrize("code", ["de", "it"])
def test_no_character_drawn_typed_or_saved_becomes_a_name(run_mpy, mpy_firmware, tmp_path, code):
    # MicroPython keeps each one-character string it makes (a str iterated
    # or indexed, chr()) as a name (qstr) for good, in pools grown by
    # doubling (the 64-bit unix port's seventh is 14 KB): every character
    # the screens drew, the saves' replay codes and the scorekeeper's names
    # made one, some 80 in a game. Random keys through the menus, games,
    # saves and the scorekeeper, in a language with accented letters: the
    # one-character names at the end are those the code spells out itself.
    import random

    from test_app import _with_data
    from tools import bench_app

    fw = _with_data(mpy_firmware)
    rng = random.Random(3)
    walk = "".join(rng.choice("UDLRAAAB" * 12 + "H") for _ in range(3000))
    # then a name typed on the scorekeeper's first screen (its eighth row)
    typing = "DA" + "D" * 8 + "AUUURUUDA" + "U"  # (the last key is read, not acted on)
    src = NAMES_FUZZ.format(walk=walk, typing=typing, code=code)
    board = bench_app.board_dir(tmp_path / "board")  # the lean board
    out = run_mpy(src, heapsize="512K", path=(board, fw), cwd=tmp_path, timeout=600)
    words = out.split()
    assert int(words[words.index("plays") + 1]) > 20 and words[words.index("lang") + 1] == "True"
    assert words[words.index("names") + 1] == "S2,P2"  # P1 edited: P+3, 1+2-1
    names = set(re.findall(r"^Q\((.)\)$", out, re.M))
    # the one-character names of the compiled files, and of the sources
    # compiled on the port (main.py, the board, this script: every
    # identifier of those is a name)
    spelled = {x for p in fw.rglob("*.mpy") for x in _mpy_names(p) if len(x) == 1}
    spelled |= _singles(fw.rglob("*.py")) | _singles([], bench_app.BOARD + src)
    assert names - spelled == set(), sorted(names - spelled)
