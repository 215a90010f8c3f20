"""A fake board for driving the whole app in-process: a display that
records what was drawn, scripted buttons and a virtual clock.

Runs on CPython (a small pure-Python FrameBuffer stands in for framebuf)
and on the MicroPython unix port (a real framebuf.FrameBuffer subclass).
The board contract is that of boards/<name>/board.py: NAME, WIDTH, HEIGHT,
COLOUR and setup() -> (display, buttons, clock).
"""

from ui import gfx
from ui.clock import VirtualClock

try:
    import framebuf
except ImportError:
    framebuf = None

UP = 1
DOWN = 2
LEFT = 4
RIGHT = 8
A = 16
B = 32
KEY_NAMES = {"U": UP, "D": DOWN, "L": LEFT, "R": RIGHT, "A": A, "B": B}


# The rightmost lit column (0..7; -1: none) of each character 32..126 of
# the built-in 8 x 8 font, as MicroPython's framebuf draws it
# (test_ui_strings checks it against the unix port's).
# fmt: off
FONT_RIGHT = bytes(
    c + 1
    for c in (
        -1, 4, 6, 7, 6, 6, 7, 6, 5, 5, 7, 6, 4, 6, 4, 7, 6, 6, 6, 6, 7, 6, 6, 6, 6, 6, 4, 4, 6,
        6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 6, 6, 6, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 6, 6,
        6, 5, 7, 5, 6, 7, 5, 6, 6, 6, 6, 6, 6, 6, 6, 4, 6, 6, 5, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6,
        7, 6, 6, 6, 6, 4, 6, 7,
    )
)
# fmt: on


def glyph_right(ch):
    """The rightmost lit column (0..7; -1: none) of character `ch` as
    gfx.text draws it: the built-in font's, or the glyph of an accented
    letter (ui/gfx.py GLYPHS8); any other character is glyph 127 (7)."""
    o = ord(ch)
    if 32 <= o < 127:
        return FONT_RIGHT[o - 32] - 1
    k = gfx.ACCENTED.find(ch)
    if k < 0:
        return 7
    r = -1
    for col in range(8):
        if gfx.GLYPHS8[8 * k + col]:
            r = col
    return r


def text_right(s, x):
    """The x of the rightmost lit pixel of text `s` drawn at `x` (-1: none)."""
    for i in range(len(s) - 1, -1, -1):
        r = glyph_right(s[i])
        if r >= 0:
            return x + 8 * i + r
    return -1


def _logged_text(fb, s, x, y, c=1):
    # gfx.text, logged whole: a string with accented letters reaches the
    # display as runs of ASCII (fb.text) and glyphs (vline), which a
    # TextLog would log as pieces, or not at all
    log = getattr(fb, "texts", None)
    if log is None or not s or max(s) < "\x80":
        _text(fb, s, x, y, c)
        return
    n = len(log)
    m = len(fb.overflow)
    _text(fb, s, x, y, c)
    del log[n:]
    del fb.overflow[m:]
    fb._log_text(s, x, y)


# every TextLog display below sees gfx.text's strings whole (once per
# process, however often this module is imported again)
_text = getattr(gfx, "_unlogged_text", gfx.text)
gfx._unlogged_text = _text
gfx.text = _logged_text


class TextLog:
    """Mixin: remembers the text drawn since the last fill() (one frame),
    checks that every text call fits on the screen, and counts frames."""

    def _log_init(self, w, h):
        self.w = w
        self.h = h
        self.texts = []  # (text, x, y) of the frame being drawn
        self.frame = []  # texts of the last shown frame
        self.frames = 0
        self.on = True
        self.level = -1
        self.overflow = []  # texts drawn (partly) off the screen

    def _log_text(self, s, x, y):
        self.texts.append((s, x, y))
        if x < 0 or y < 0 or x + 8 * len(s) > self.w or y + 8 > self.h:
            self.overflow.append((s, x, y))
        elif text_right(s, x) >= self.w - 1:
            self.overflow.append((s, x, y, "touches the right edge: keep a pixel"))

    def show(self):
        self.frame = self.texts
        self.texts = []
        self.frames += 1

    def contrast(self, v):
        self.level = v

    def poweroff(self):
        self.on = False

    def poweron(self):
        self.on = True

    def screen_text(self):
        """The text of the last shown frame, top to bottom, as one str."""
        rows = {}
        for s, x, y in self.frame:
            rows.setdefault(y, []).append((x, s))
        out = []
        for y in sorted(rows):
            out.append(" ".join(s for x, s in sorted(rows[y])))
        return "\n".join(out)


if framebuf is not None:

    class Display(framebuf.FrameBuffer, TextLog):
        def __init__(self, w, h, colour=False):
            if colour:
                self.buf = bytearray(w * h * 2)
                super().__init__(self.buf, w, h, framebuf.RGB565)
            else:
                self.buf = bytearray(w * ((h + 7) // 8))
                super().__init__(self.buf, w, h, framebuf.MONO_VLSB)
            self._log_init(w, h)

        def text(self, s, x, y, c=1):
            self._log_text(s, x, y)
            super().text(s, x, y, c)

else:

    class Display(TextLog):
        """Pure-Python stand-in: one byte (or int) per pixel, clipped."""

        def __init__(self, w, h, colour=False):
            self.px = [bytearray(w) for _ in range(h)] if not colour else None
            self.rows = self.px if self.px is not None else [[0] * w for _ in range(h)]
            self._log_init(w, h)

        def fill(self, c):
            self.texts = []
            for r in self.rows:
                r[:] = bytes([c & 255]) * self.w if self.px is not None else [c] * self.w

        def fill_rect(self, x, y, w, h, c):
            x0 = max(0, x)
            x1 = min(self.w, x + w)
            if x1 <= x0:
                return
            v = bytes([c & 255]) * (x1 - x0) if self.px is not None else [c] * (x1 - x0)
            for yy in range(max(0, y), min(self.h, y + h)):
                self.rows[yy][x0:x1] = v

        def pixel(self, x, y, c=None):
            if 0 <= x < self.w and 0 <= y < self.h:
                if c is None:
                    return self.rows[y][x]
                self.rows[y][x] = c & 255 if self.px is not None else c
            return None

        def hline(self, x, y, w, c):
            self.fill_rect(x, y, w, 1, c)

        def vline(self, x, y, h, c):
            self.fill_rect(x, y, 1, h, c)

        def rect(self, x, y, w, h, c, f=False):
            if f:
                self.fill_rect(x, y, w, h, c)
                return
            self.fill_rect(x, y, w, 1, c)
            self.fill_rect(x, y + h - 1, w, 1, c)
            self.fill_rect(x, y, 1, h, c)
            self.fill_rect(x + w - 1, y, 1, h, c)

        def text(self, s, x, y, c=1):
            self._log_text(s, x, y)
            # no font here: a box where each character goes
            for i in range(len(s)):
                if s[i] != " ":
                    self.fill_rect(x + 8 * i + 1, y + 1, 6, 6, c)


Clock = VirtualClock  # virtual milliseconds: sleep_ms advances them


class Buttons:
    """Plays a script of presses against the virtual clock.

    `script` is an iterator of (keys bitmask, hold_ms) pairs (0 as keys is
    a pause); each press is followed by `gap_ms` released. When the script
    ends every button stays released.
    """

    def __init__(self, clock, script=(), gap_ms=60):
        self.clock = clock
        self.script = iter(script)
        self.gap = gap_ms
        self.until = 0
        self.raw = 0
        self.releasing = False
        self.presses = 0  # presses of a key
        self.used = 0  # script steps played (presses and pauses)

    def push(self, script):
        self.script = iter(script)

    def read(self):
        now = self.clock.elapsed
        if now >= self.until:
            if self.raw and not self.releasing:
                self.raw = 0
                self.releasing = True
                self.until = now + self.gap
            else:
                self.releasing = False
                try:
                    keys, hold = next(self.script)
                except StopIteration:
                    self.raw = 0
                    self.until = now + 10
                    return 0
                self.raw = keys
                self.used += 1
                self.presses += 1 if keys else 0
                self.until = now + hold
        return self.raw


def keys(text, hold=60):
    """Script from a string of key letters U D L R A B; 'b' is a long B
    (the hint), '.' a pause of 500 ms."""
    for ch in text:
        if ch == "b":
            yield B, 900
        elif ch == ".":
            yield 0, 500
        elif ch in KEY_NAMES:
            yield KEY_NAMES[ch], hold


class Board:
    """A board object for app.run(): NAME, WIDTH, HEIGHT, COLOUR, setup()."""

    def __init__(self, script=(), w=128, h=64, colour=False, name="fake"):
        self.NAME = name
        self.WIDTH = w
        self.HEIGHT = h
        self.COLOUR = colour
        self.clock = Clock()
        self.display = Display(w, h, colour)
        self.buttons = Buttons(self.clock, script)

    def setup(self):
        return self.display, self.buttons, self.clock


class NullDisplay(TextLog):
    """Draws nothing, checks the drawing calls' arguments and logs text:
    for long runs (fuzz) where pixels are not looked at."""

    def __init__(self, w, h, colour=False):
        self._log_init(w, h)

    def fill(self, c):
        self.texts = []

    def fill_rect(self, x, y, w, h, c):
        pass

    def rect(self, x, y, w, h, c, f=False):
        pass

    def hline(self, x, y, w, c):
        pass

    def vline(self, x, y, h, c):
        pass

    def pixel(self, x, y, c=None):
        return 0

    def text(self, s, x, y, c=1):
        self._log_text(s, x, y)
