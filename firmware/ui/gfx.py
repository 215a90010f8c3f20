"""Drawing helpers: card faces from a few pixels, a 3 x 5 font, layout.

A card face on a 128 x 64 screen is 9 x 15 pixels: a border, the rank from
the 3 x 5 font below and a 5 x 5 suit glyph. Larger screens draw the same
pixels `s` times bigger (`Layout.s`, computed from WIDTH and HEIGHT), so
one layout code serves every board. Everything here draws with
FrameBuffer's fill_rect / rect / hline / vline / pixel / text only: no
blit, no framebuf import, so the screens also run on CPython against a
stand-in. Every text a screen shows is drawn by `text` (or `centre`): the
built-in font is ASCII only, `text` adds the accented letters of the
languages (21 letters, 168 bytes of glyphs).

No character of a text becomes a str of its own: MicroPython keeps each
one-character string it makes (iterating or indexing a str, chr()) as a
name (qstr) for good, and its pool of names grows by doubling (on the
64-bit unix port its seventh block is 14 KB). The text is walked as the
bytes of its UTF-8 and sliced, never iterated.
"""

from micropython import const

# 3 x 5 glyphs: three bits a row, top row first, packed into 15 bits.
# Digits, the ranks' letters (AFCRJQKP), signs, then the other letters a
# scorekeeper's name may have (ui.keeper_setup.CHARS)
_CHARS = const(b"0123456789AFCRJQKP-:/ *+BDEGHILMNOSTUVWXYZ")
# each printable ASCII code's glyph in _CHARS (code 32 first), 255 for none
_AT = bytes(_CHARS.find(bytes((k,))) & 255 for k in range(32, 128))
_FONT = (
    0x7B6F,  # 0 111 101 101 101 111
    0x2C97,  # 1 010 110 010 010 111
    0x73E7,  # 2 111 001 111 100 111
    0x72CF,  # 3 111 001 011 001 111
    0x5BC9,  # 4 101 101 111 001 001
    0x79CF,  # 5 111 100 111 001 111
    0x79EF,  # 6 111 100 111 101 111
    0x7252,  # 7 111 001 001 010 010
    0x7BEF,  # 8 111 101 111 101 111
    0x7BCF,  # 9 111 101 111 001 111
    0x2BED,  # A 010 101 111 101 101
    0x79A4,  # F 111 100 110 100 100 (Fante)
    0x3923,  # C 011 100 100 100 011 (Cavallo)
    0x6BAD,  # R 110 101 110 101 101 (Re)
    0x126A,  # J 001 001 001 101 010
    0x2B73,  # Q 010 101 101 110 011
    0x5BAD,  # K 101 101 110 101 101
    0x6BA4,  # P 110 101 110 100 100
    0x01C0,  # - 000 000 111 000 000
    0x0410,  # : 000 010 000 010 000
    0x12A4,  # / 001 001 010 100 100
    0x0000,  # space
    0x0AA8,  # * 000 101 010 101 000
    0x05D0,  # + 000 010 111 010 000
    0x6BAE,  # B 110 101 110 101 110
    0x6B6E,  # D 110 101 101 101 110
    0x79A7,  # E 111 100 110 100 111
    0x396B,  # G 011 100 101 101 011
    0x5BED,  # H 101 101 111 101 101
    0x7497,  # I 111 010 010 010 111
    0x4927,  # L 100 100 100 100 111
    0x5FED,  # M 101 111 111 101 101
    0x6B6D,  # N 110 101 101 101 101
    0x2B6A,  # O 010 101 101 101 010
    0x388E,  # S 011 100 010 001 110
    0x7492,  # T 111 010 010 010 010
    0x5B6F,  # U 101 101 101 101 111
    0x5B6A,  # V 101 101 101 101 010
    0x5BFD,  # W 101 101 111 111 101
    0x5AAD,  # X 101 101 010 101 101
    0x5A92,  # Y 101 101 010 010 010
    0x72A7,  # Z 111 001 010 100 111
)

# 5 x 5 suit glyphs, one byte a row (bit 4 = left). Italian then French,
# each in suit order denari/diamonds, coppe/hearts, spade/spades,
# bastoni/clubs.
_SUITS = (
    b"\x0e\x11\x15\x11\x0e",  # denari: a coin
    b"\x11\x1f\x0e\x04\x0e",  # coppe: a cup
    b"\x04\x04\x04\x0e\x04",  # spade: a sword
    b"\x03\x07\x0e\x1c\x18",  # bastoni: a baton
    b"\x04\x0e\x1f\x0e\x04",  # diamonds
    b"\x0a\x1f\x1f\x0e\x04",  # hearts
    b"\x04\x0e\x1f\x04\x0e",  # spades
    b"\x0e\x0e\x1f\x1f\x04",  # clubs
)

# 8 x 8 glyphs of the letters the languages need beyond ASCII, which the
# built-in font (FrameBuffer.text) lacks: it draws glyph 127 for any byte
# outside 32..127, and a UTF-8 letter is two bytes, two glyphs. In that
# font's layout (a byte a column, bit 0 the top row) and style (strokes
# two pixels wide): an accented letter is the font's own letter (a capital
# 5 rows high, rows 2 to 6, as the lower case) under a 1-row accent in row
# 0 (grave left, acute right, diaeresis over the stems), row 1 clear; the
# ring of a a 2 x 2 dot on it; ß, æ, ø, Æ and Ø whole letters. No capital
# Ò, Ù, Ö or Ü: 5 rows high they would be their lower case (no string
# needs them; host_tests/test_ui_text.py keeps the languages to this set).
ACCENTED = const("àèéìòùÀÈÉÌäöüÄßæøåÆØÅ")
GLYPHS8 = const(
    b"\x00\x21\x75\x55\x54\x7c\x78\x00"  # à
    b"\x00\x39\x7d\x55\x54\x5c\x58\x00"  # è
    b"\x00\x38\x7c\x54\x55\x5d\x59\x00"  # é
    b"\x00\x01\x01\x7d\x7c\x00\x00\x00"  # ì
    b"\x00\x39\x7d\x45\x44\x7c\x38\x00"  # ò
    b"\x00\x3d\x7d\x41\x40\x7c\x3c\x00"  # ù
    b"\x00\x79\x7d\x15\x14\x7c\x78\x00"  # À
    b"\x00\x7d\x7d\x55\x54\x44\x44\x00"  # È
    b"\x00\x7c\x7c\x54\x55\x45\x45\x00"  # É
    b"\x00\x01\x45\x7d\x7c\x44\x00\x00"  # Ì
    b"\x00\x21\x75\x54\x54\x7d\x79\x00"  # ä
    b"\x00\x39\x7d\x44\x44\x7d\x39\x00"  # ö
    b"\x00\x3d\x7d\x40\x40\x7d\x3d\x00"  # ü
    b"\x00\x79\x7d\x14\x14\x7d\x79\x00"  # Ä
    b"\x00\x7e\x7f\x01\x49\x7f\x36\x00"  # ß
    b"\x20\x74\x54\x14\x7c\x7c\x54\x50"  # æ
    b"\x00\xb8\x7c\x74\x5c\x7c\x3a\x00"  # ø
    b"\x00\x20\x74\x57\x57\x7c\x78\x00"  # å
    b"\x00\x7e\x7f\x09\x7f\x7f\x49\x41"  # Æ
    b"\x40\x3e\x7f\x59\x4d\x7f\x3e\x01"  # Ø
    b"\x00\x78\x7c\x17\x17\x7c\x78\x00"  # Å
)

_RANKS_IT = const(b"A234567FCR")
_RANKS_FR = const(b"A234567JQK")
_SUIT_LETTERS = const(b"DCSB")  # denari, coppe, spade, bastoni, as the rule cases write them
_SUIT_LETTERS_FR = const(b"DHSC")  # the same suits drawn French: diamonds, hearts, spades, clubs


def card_text(c, french=False):
    """Card `c` (0..39) as its face shows it: its rank ("A".."7", then F C
    R, or J Q K with French faces) and its suit's letter (D C S B, or D H
    S C with French faces: the suit drawn): "7D", "CB"; "7D", "KC"."""
    r = c % 10
    su = c // 10
    if french:
        return (_RANKS_FR[r : r + 1] + _SUIT_LETTERS_FR[su : su + 1]).decode()
    return (_RANKS_IT[r : r + 1] + _SUIT_LETTERS[su : su + 1]).decode()


CARD_W = const(9)  # pixels at scale 1
CARD_H = const(15)

# Card drawing modes
FACE = const(0)
LIT = const(1)  # highlighted (taken, played): inverted inside a dark ring
BACK = const(2)  # face down
GHOST = const(3)  # an empty slot (dotted outline)
SELECT = const(4)  # the card under the cursor: a double frame
SELECT_LIT = const(5)  # the cursor's card, highlighted too (the hint's card)


class Palette:
    """Colours by role, from ui.palette: BG (screen), FG (text), CARD (a
    face), INK (rank and black suits), RED (red suits), LIT and LIT_INK (a
    highlighted face), BACKC (the pattern of card backs); mono: 0 / 1."""

    def __init__(self, colour):
        from ui import palette

        bg, fg, accent, red, card, ink, dim = palette.palette(colour)
        self.mono = not colour
        self.BG, self.FG, self.CARD, self.INK, self.RED = bg, fg, card, ink, red
        self.DIM = dim
        if self.mono:
            self.LIT, self.LIT_INK, self.BACKC = fg, bg, fg
        else:
            self.LIT, self.LIT_INK, self.BACKC = accent, ink, palette.BLUE


def glyph(fb, code, x, y, c, s=1):
    """Draw the character of code point `code` (an int: 65 is "A") in the
    3 x 5 font at (x, y), scale `s`; a character the font lacks as
    nothing, but an accented A (À to Å, the font's only accented letter)
    as A."""
    if 32 <= code < 128:
        i = _AT[code - 32]
        if i == 255:
            return
    elif 0xC0 <= code <= 0xC5:
        i = 10  # A
    else:
        return
    bits = _FONT[i]
    for row in range(5):
        r = (bits >> (12 - 3 * row)) & 7
        if r:
            _run(fb, r, 3, x, y + row * s, c, s)


def _run(fb, bits, n, x, y, c, s):
    # one fill_rect per run of set bits in the `n` bits of `bits`
    col = 0
    top = 1 << (n - 1)
    while col < n:
        if bits & (top >> col):
            k = 1
            while col + k < n and bits & (top >> (col + k)):
                k += 1
            fb.fill_rect(x + col * s, y, k * s, s, c)
            col += k
        else:
            col += 1


def small(fb, text, x, y, c, s=1):
    """Draw `text` in the 3 x 5 font (4 pixels a character at scale 1);
    returns the x after it."""
    b = text.encode()
    n = len(b)
    i = 0
    while i < n:
        k = b[i]
        i += 1
        if k >= 0x80:  # a letter of 2 to 4 bytes: its code point if of 2
            k = (k & 0x1F) << 6 | b[i] & 0x3F if k < 0xE0 else 0xFFFF
            while i < n and b[i] & 0xC0 == 0x80:
                i += 1
        glyph(fb, k, x, y, c, s)
        x += 4 * s
    return x


def small_width(text, s=1):
    return 4 * s * len(text) - s if text else 0


def suit(fb, su, x, y, c, s=1, french=False):
    """Draw the 5 x 5 glyph of suit `su` (0..3) at (x, y)."""
    g = _SUITS[su + (4 if french else 0)]
    for row in range(5):
        if g[row]:
            _run(fb, g[row], 5, x, y + row * s, c, s)


def card(fb, x, y, c, pal, s=1, mode=FACE, french=False, rank=0):
    """Draw card `c` (0..39) with its top left corner at (x, y), `s` times
    CARD_W x CARD_H px. `mode`: FACE, LIT, BACK, GHOST, or SELECT /
    SELECT_LIT, the cursor's card, which also draws a bar `s` px high one
    `s` below the card (the hand's card is lifted to make room). `rank`
    (1..10) draws that rank, inverted in a box, instead of the card's own
    (Cirulla's matta once designated), 0 the card's own."""
    w = CARD_W * s
    h = CARD_H * s
    if mode == GHOST:
        for i in range(0, w, 2 * s):
            fb.fill_rect(x + i, y, s, s, pal.FG)
            fb.fill_rect(x + i, y + h - s, s, s, pal.FG)
        return
    if mode == BACK:
        fb.fill_rect(x, y, w, h, pal.BG)
        fb.rect(x, y, w, h, pal.FG)
        for yy in range(y + 2 * s, y + h - 2 * s, 2 * s):
            for xx in range(x + 2 * s + (yy - y) % (4 * s) // 2, x + w - 2 * s, 2 * s):
                fb.fill_rect(xx, yy, s, s, pal.BACKC)
        return
    lit = mode == LIT or mode == SELECT_LIT
    bg = pal.LIT if lit else pal.CARD
    ink = pal.LIT_INK if lit else pal.INK
    if lit:
        # a ring of the screen's colour, `s` px wide, keeps two highlighted
        # cards apart, even where a crowded row overlaps them
        fb.fill_rect(x, y, w, h, pal.BG)
        fb.fill_rect(x + s, y + s, w - 2 * s, h - 2 * s, bg)
    else:
        fb.fill_rect(x, y, w, h, bg)
        fb.rect(x, y, w, h, ink if pal.mono else pal.BG)
    if mode == SELECT:
        # the cursor: framed twice, the inner frame `s` px wide as the
        # glyphs' strokes are (one thin line is lost on a larger screen)
        for i in range(s, 2 * s):
            fb.rect(x + i, y + i, w - 2 * i, h - 2 * i, ink)
    if mode >= SELECT:
        fb.fill_rect(x + s, y + h + s, w - 2 * s, s, pal.FG)  # and a bar below
    su = c // 10
    red = ink if lit or su > 1 else pal.RED
    r = rank - 1 if rank else c % 10
    g = (_RANKS_FR if french else _RANKS_IT)[r]  # its code
    if rank:
        # the rank it stands for, inverted in a box with a margin all round
        # the glyph (an underline under it, or the card's background right
        # below it, made the Fante's F read as an E)
        fb.fill_rect(x + 2 * s, y + s, 5 * s, 7 * s, ink)
        glyph(fb, g, x + 3 * s, y + 2 * s, bg, s)
    else:
        glyph(fb, g, x + 3 * s, y + 2 * s, ink, s)
    suit(fb, su, x + 2 * s, y + 8 * s, red, s, french)


def text(fb, s, x, y, c=1):
    """Draw `s` in the 8 x 8 font at (x, y), 8 pixels a character, as
    FrameBuffer.text does, and the letters of ACCENTED too. ASCII (most
    strings, all of English) is one fb.text call; otherwise a call a run
    of ASCII and a glyph of GLYPHS8 a letter (glyph 127 for a character
    without one, as framebuf draws a byte outside 32..127)."""
    b = s.encode()
    if len(b) == len(s):
        fb.text(s, x, y, c)
        return
    n = len(b)
    i = j = 0  # the byte and the character at hand
    run = 0  # the character that starts the run of ASCII being walked
    while i <= n:
        if i < n and b[i] < 0x80:
            i += 1
            j += 1
            continue
        if run < j:  # the run of ASCII before: one call
            fb.text(s[run:j], x, y, c)
            x += 8 * (j - run)
        if i == n:
            break
        i += 1
        while i < n and b[i] & 0xC0 == 0x80:
            i += 1
        k = ACCENTED.find(s[j : j + 1])
        if k < 0:
            fb.text("\x7f", x, y, c)
        else:
            for col in range(8):
                bits = GLYPHS8[8 * k + col]
                row = y
                while bits:
                    if bits & 1:
                        fb.pixel(x + col, row, c)
                    bits >>= 1
                    row += 1
        x += 8
        j += 1
        run = j


def centre(fb, s, y, c, w, x0=0):
    """Draw 8 x 8 `s` centred in the `w` pixels from x0."""
    text(fb, s, x0 + (w - 8 * len(s)) // 2, y, c)


class Layout:
    """Positions on a WIDTH x HEIGHT screen, from one set of rules.

    Attributes: w, h, s (card scale), cw, ch (card size), gap, status_h
    (the status line), table_y, hand_y (the hand's top; the selected card
    is drawn `lift` higher), band_y, band_h (the message band between the
    table and the hand).
    """

    def __init__(self, w, h):
        self.w = w
        self.h = h
        s = 1
        while 12 * (CARD_W + 1) * (s + 1) <= w and 2 * CARD_H * (s + 1) + 44 <= h:
            s += 1
        self.s = s
        self.cw = CARD_W * s
        self.ch = CARD_H * s
        self.gap = s
        self.lift = 3 * s
        self.status_h = 5 * s + 2
        self.table_y = self.status_h + 1
        self.hand_y = h - self.ch
        self.band_y = self.table_y + self.ch + 1
        self.band_h = self.hand_y - self.lift - self.band_y

    def row(self, n, y, x0=0, w=0):
        """x positions of `n` cards in a row centred in `w` pixels from x0
        (the whole width when 0), overlapping when they do not fit."""
        w = w or self.w
        step = self.cw + self.gap
        if n > 1 and n * step - self.gap > w:
            step = (w - self.cw) // (n - 1)
        total = (n - 1) * step + self.cw if n else 0
        x = x0 + (w - total) // 2
        return [x + i * step for i in range(n)]

    def table(self, n):
        """(x, y) of `n` table cards: one row, or two when they would
        overlap too much (the second row then takes the band)."""
        step_ok = (self.w - self.cw) // max(1, n - 1) >= self.cw * 2 // 3 + 1
        if n <= 1 or (n * (self.cw + self.gap) - self.gap <= self.w) or step_ok:
            return [(x, self.table_y) for x in self.row(n, self.table_y)]
        top = (n + 1) // 2
        out = [(x, self.table_y) for x in self.row(top, self.table_y)]
        y2 = self.table_y + self.ch + self.gap
        return out + [(x, y2) for x in self.row(n - top, y2)]

    def hand(self, n):
        """x positions of a hand of `n` cards."""
        return self.row(n, self.hand_y)
