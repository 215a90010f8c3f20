"""The simulator board: the real firmware on the MicroPython unix port.

Run it with ``python tools/sim.py`` (see ``--help``), which copies this file
to a folder as ``board.py`` and sets the environment below. Same contract as
every board: NAME, WIDTH, HEIGHT, COLOUR and ``setup() -> (display, buttons,
clock)``.

Environment:

- ``SCOPA_SIM_MODE``: ``mono`` (default) is a 128 x 64 MONO_VLSB framebuf,
  as the SSD1306; ``colour`` a 240 x 135 RGB565 one, as the Pico-LCD-1.14
  (pixels in the ST7789's byte order, see ui/palette.py).
- ``SCOPA_SIM_KEYS``: a key script (``parse_script``), or
  ``SCOPA_SIM_SCRIPT``: the path of one. The buttons then follow the
  script, on a virtual clock unless ``SCOPA_SIM_REALTIME=1``. When the
  script ends the sim quits (SystemExit).
- ``SCOPA_SIM_HEADLESS=1``: no terminal drawing; each changed frame is one
  line ``FRAME <w> <h> <mode> <hex>`` (mode ``mono_vlsb`` or ``rgb565``,
  hex of the framebuf bytes), a ``shot:name`` step writes ``SHOT <name>``
  (a screenshot of the last frame), the end of the script ``END <ms>``.
  Lines go to the file named by ``SCOPA_SIM_FRAMES``, else to stdout;
  ``/dev/null`` drops them unwritten (long runs).

Interactive (no script): ``show()`` draws the screen in the terminal with
half blocks (two pixel rows per text row: 128 x 33 characters for the mono
board, 240 x 69 for the colour one), in place; a smaller terminal gets the
mono screen in braille (2 x 4 pixels per character: 64 x 17, so an 80 x 24
terminal plays), the colour one 2 times smaller (each half block the
mean colour of its pixels: 120 x 35; 3 times smaller, in 80 x 24, nothing
could be read), and one too small even for that a message saying what it
needs, until it is resized (keys typed meanwhile do nothing, but ``q``).
``SCOPA_SIM_WINSIZE`` names a file holding the terminal's ``columns rows
redraw``, which tools/sim.py rewrites on a resize and after Ctrl-Z and
``fg`` (the unix port cannot ask the terminal); the board draws the whole
screen again when it changes. ``SCOPA_SIM_QUIT`` names a file whose
making tells the sim to quit as by ``q`` (tools/sim.py on SIGTERM and
SIGHUP). ``SCOPA_SIM_OUT`` names the file descriptor of the terminal
to draw on when the firmware's stdout and stderr (its console: print,
tracebacks) go elsewhere, as a board's USB serial is apart from its
screen: tools/sim.py keeps them in a file (a crash's last lines said
after the run), so a line printed does not land on the screen drawn.
``SCOPA_SIM_TTY=set``: tools/sim.py has put the terminal in the sim's
mode and gives it back, so the board leaves its settings alone. Keys come
from stdin without blocking: arrows = directions, Enter = A, Backspace = B, ``h`` =
B held long (hint), ``q`` = quit. A terminal sends no key releases: each
key typed is a press and a release, one after another in the order typed
(keys that arrive together too), a key the terminal repeats (held down)
an arrow held, Enter or Backspace pressed once (see TerminalKeys).
Call ``restore()`` at the end to give the terminal back (tools/sim.py does).
"""

import framebuf
import os
import sys
import time
from micropython import const

from ui.buttons import DEBOUNCE_MS, DOWN, LEFT, LONG_MS, RIGHT, UP, A, B
from ui.clock import VirtualClock

_MODE = os.getenv("SCOPA_SIM_MODE") or "mono"
COLOUR = _MODE in ("colour", "color")
NAME = "sim-colour" if COLOUR else "sim"
WIDTH, HEIGHT = (240, 135) if COLOUR else (128, 64)

TAP_MS = const(80)  # a key, scripted or typed, is held this long
GAP_MS = const(80)  # then a scripted key is released this long
LONG_HOLD_MS = LONG_MS + 200  # `long:B` and the `h` key hold this long
START_MS = const(100)  # a script's first step starts this late
END_MS = const(300)  # the sim quits this long after a script's last step
# Keys typed: the same key again within this long is the terminal repeating
# a key held down (every 25 to 40 ms: 25 Hz in X, 30 Hz in GNOME and
# Windows), not a key typed again (by hand, 80 ms apart at the quickest)
REPEAT_GAP_MS = const(60)
# A key held down: the terminal sends it, then after its delay (250 ms to
# 1 s: 500 in GNOME and Windows, 660 in X) repeats it. Enter or Backspace
# typed again this long after the same key may be that first repeat: it
# waits REPEAT_GAP_MS for the next one (see TerminalKeys)
HOLD_MIN_MS = const(200)
HOLD_MAX_MS = const(700)
_HOLD_KEYS = (4, 5)  # A and B's bit numbers (not h's long press)
_LONG = const(8)  # a key's number: its button's bit number, + _LONG for h
_SEEN_MS = DEBOUNCE_MS + 5  # a typed press or release lasts this long at least
_QUEUE_MAX = const(16)  # typed presses waiting for the one held, at most

KEYS = {"up": UP, "down": DOWN, "left": LEFT, "right": RIGHT, "a": A, "b": B}

# Mono frames drawn in the terminal: lit pixels bright white on black.
_MONO_ON = "\x1b[97;40m"
_RESET = "\x1b[0m"
_HELP = "arrows: move  Enter: A  Backspace: B  h: hint (B long)  q: quit"
_HELP_SHORT = "arrows Enter:A Bksp:B h:hint q:quit"  # a terminal narrower than _HELP


# --- key scripts -------------------------------------------------------------


def _mask(spec):
    mask = 0
    for k in spec.split("+"):
        bit = KEYS.get(k.lower())
        if bit is None:
            raise ValueError("key script: unknown key " + repr(k))
        mask |= bit
    return mask


def _int(text, token):
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise ValueError("key script: bad number in " + repr(token))
    return n


def parse_script(text):
    """Timeline of a key script: list of ``(t_ms, what, arg)`` in time order.

    Tokens, separated by spaces or new lines (``#`` starts a comment):

    - ``right``, ``A``, ``A+B``: tap (hold ``TAP_MS``, release ``GAP_MS``);
      ``right*3`` taps three times. Keys: up down left right A B.
    - ``long:B``: hold for ``LONG_HOLD_MS`` (a long press), then release.
    - ``hold:right:1000``: hold for 1000 ms, then release.
    - ``wait:500``: nothing held for 500 ms.
    - ``shot:name``: screenshot of the screen at that moment.
    - ``quit``: end here, as the sim's q: the app writes what waits for a
      timed save (the round being typed) on its way out.
    - ``off``: the power goes off here: the process stops, nothing is
      written on the way out (PowerOff).

    what/arg: ``"keys", mask`` (the held mask from t on), ``"shot", name``
    and one final ``"end", None`` or ``"off", None``. Raises ValueError on
    a bad token.
    """
    return list(steps(text.split("\n")))


def steps(lines):
    """The timeline of `parse_script`, a step at a time, from an iterable
    of the script's lines (a file: a script of any length in a small heap)."""
    t = START_MS
    for line in lines:
        line = line.split("#")[0].replace(",", " ")
        for token in line.split():
            head, _, rest = token.partition(":")
            head = head.lower()
            if head == "wait" and rest:
                t += _int(rest, token)
            elif head == "shot" and rest:
                yield (t, "shot", rest)
            elif head == "long" and rest:
                yield (t, "keys", _mask(rest))
                t += LONG_HOLD_MS
                yield (t, "keys", 0)
                t += GAP_MS
            elif head == "hold" and rest:
                spec, _, ms = rest.partition(":")
                mask = _mask(spec)
                yield (t, "keys", mask)
                t += _int(ms, token)
                yield (t, "keys", 0)
                t += GAP_MS
            elif token.lower() in ("quit", "q"):
                yield (t, "end", None)
                return
            elif token.lower() == "off":
                yield (t, "off", None)
                return
            elif not rest:
                spec, _, n = token.partition("*")
                mask = _mask(spec)
                for _ in range(_int(n, token) if n else 1):
                    yield (t, "keys", mask)
                    t += TAP_MS
                    yield (t, "keys", 0)
                    t += GAP_MS
            else:
                raise ValueError("key script: bad token " + repr(token))
    yield (t + END_MS, "end", None)


class PowerOff(BaseException):
    """A key script's ``off``: the power cut. Raised from ScriptKeys.read;
    not an Exception nor a SystemExit, so it passes the app's handlers and
    nothing is written on the way out (app.run writes on a quit)."""


class ScriptKeys:
    """Buttons that follow a key script: ``read() -> mask``.

    `timeline`: the script's steps (a list from `parse_script`, or the
    iterator of `steps`, consumed as the time comes). On a VirtualClock
    each ``read()`` also moves the time on by 1 ms, so that an app that
    polls without sleeping still gets to the end.
    """

    def __init__(self, timeline, clock, out):
        self._it = iter(timeline)
        self._step = next(self._it, None)
        self.clock = clock
        self.out = out
        self.mask = 0
        self._t0 = clock.ticks_ms()
        self._virtual = hasattr(clock, "advance")

    def elapsed(self):
        return self.clock.ticks_diff(self.clock.ticks_ms(), self._t0)

    def read(self):
        if self._virtual:
            self.clock.advance(1)
        now = self.elapsed()
        while self._step is not None and self._step[0] <= now:
            _, what, arg = self._step
            self._step = next(self._it, None)
            if what == "keys":
                self.mask = arg
            elif what == "shot":
                self.out.shot(arg)
            else:
                self.out.end(now)
                restore()
                if what == "off":
                    raise PowerOff
                raise SystemExit(0)
        return self.mask


# --- the terminal ------------------------------------------------------------


class TerminalKeys:
    """Buttons from the keys typed on stdin, read without blocking; also
    the interactive sim's clock (``ticks_ms``, ``ticks_diff``,
    ``sleep_ms``), whose sleep reads the keys as they come.

    A terminal sends no key releases, only a character per key typed and,
    while a key is held down, the same again every 25 to 40 ms after a
    delay (its autorepeat). So each key typed is a press of its own: the
    button held ``TAP_MS`` (``h``: ``LONG_HOLD_MS``), then released. The
    presses come one after another, in the order typed, whatever the
    buttons (one queue): a key typed while another is held ends that press
    as soon as the debouncer has counted it (but ``h``'s long press) and
    follows its release; keys that arrive together (a burst: sent together
    by ssh or mosh, or pasted) are taps of their own, in order.

    A key typed again within ``REPEAT_GAP_MS`` of the same key (or, once it
    repeats, while it is still held, even in one burst) is the terminal
    repeating it: the button stays held, as a button held down (a
    direction's REPEAT); so does ``h`` typed again while its long press
    lasts (one hint, not one per ``h``). The terminal's first repeat
    comes after its delay, when the first character's tap has ended: an
    arrow then presses again (as the first REPEAT would); Enter or
    Backspace typed again ``HOLD_MIN_MS`` to ``HOLD_MAX_MS`` after the same
    key waits ``REPEAT_GAP_MS``, and followed by its repeat meanwhile it is
    the key held: the press that its first character made goes on, nothing
    more (Enter held chooses once, Backspace held goes back once; the
    hint is ``h``). Typed again by hand (no repeat follows), it is a press,
    ``REPEAT_GAP_MS`` late.

    Each press and release lasts until a read at least ``_SEEN_MS`` after
    the first read that gave it: the debouncer (ui/buttons.py) sees every
    one, however seldom the app reads. The same key several times in a
    row, read together after a busy step of the app (when each was typed
    is not known: a key held, or tapped; the app's start is one), goes on
    with its press held or is one press, as a board's button pressed
    during a busy step; other keys between them (which no terminal's
    repeat sends) are presses of their own, in order.
    """

    def __init__(self, stdin=None, shown=None):
        import select

        self.stdin = stdin or sys.stdin
        # a predicate, false while nothing of the screen can be seen (the
        # terminal too small): keys typed then do nothing, as on a screen
        # that is off (q still quits)
        self._shown = shown
        self._poll = select.poll()
        self._poll.register(self.stdin, select.POLLIN)
        self._open = True
        self._esc = 0  # 0, or 1 after ESC, 2 after ESC [ or ESC O
        # A key: its button's bit number, + _LONG for h (B's long press).
        self._held = -1  # the key whose press is in the mask read last, or -1
        self._at = 0  # ticks of the first read of that press or release
        self._seen = True  # that press or release read long enough to count
        self._until = 0  # ticks at which the press ends (none waiting)
        self._streak = False  # the press goes on by the terminal's repeat
        self._queue = []  # the keys to press next, in the order typed
        self._pend = False  # the queue's last key: held, or typed again?
        self._pend_until = 0  # ticks from which it is a tap (no repeat came)
        self._swallow = False  # the key last typed is held: its repeats do nothing
        self._prev = -1  # the key last typed
        self._last = 0  # ticks of its reading
        self._checked = time.ticks_ms()  # ticks when stdin was last found empty
        self._quitting = False  # q typed (or the input's end): after the presses before it

    # the clock
    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def ticks_add(self, a, b):
        return time.ticks_add(a, b)

    def sleep_ms(self, ms):
        """Sleep `ms`, reading the keys typed meanwhile as they come: each
        has the time it was typed (to tell the terminal's repeat from keys
        typed again), not that of the next read."""
        end = time.ticks_add(time.ticks_ms(), ms)
        while True:
            start = time.ticks_ms()
            left = time.ticks_diff(end, start)
            if left <= 0:
                return
            if not self._open or not self._poll.poll(left):
                time.sleep_ms(max(0, time.ticks_diff(end, time.ticks_ms())))
                self._checked = time.ticks_ms()
                return
            now = time.ticks_ms()
            # typed this very moment, or (there at once) since the last look
            self._take(now, now if time.ticks_diff(now, start) > 0 else self._checked)

    def _take(self, now, early):
        """Feed every byte waiting on stdin, read at `now`, typed since
        `early`."""
        while self._open and not self._quitting and self._poll.poll(0):
            try:
                b = self.stdin.buffer.read(1)
            except OSError:  # (the terminal gone, its window closed: EIO)
                b = b""
            if not b:  # end of input (a pipe or /dev/null): quit, as q does
                self._poll.unregister(self.stdin)
                self._open = False
                self._quit()
                return
            self.feed(b[0], now, early)
        self._checked = now

    def _key(self, bit, ms, now, early):
        """Button `bit` typed between ticks `early` and `now`: a press of
        `ms` to come, or the one held going on."""
        key = 0
        while bit > 1 << key:
            key += 1
        if ms > TAP_MS:
            key += _LONG
        same = key == self._prev
        gap = time.ticks_diff(now, self._last)
        self._prev = key
        self._last = now
        # read after a busy step (the app drawing, thinking): when it was
        # typed is not known, so it goes on with what it may have gone on
        busy = time.ticks_diff(now, early) >= REPEAT_GAP_MS
        # (the same key read together with it, the app not busy: a burst)
        repeat = same and (busy or 0 < gap < REPEAT_GAP_MS)
        if self._swallow:  # the key held after its first tap
            if same and (busy or gap < TAP_MS):
                return
            self._swallow = False
        queue = self._queue
        if self._pend:  # the key before waits: followed by its repeat, it is held
            self._pend = False
            if same and not busy and 0 < gap < REPEAT_GAP_MS:
                queue.pop()
                self._swallow = True
                return
        if queue:  # presses wait: after them, or the last one's key repeating
            if not (repeat and queue[-1] == key) and len(queue) < _QUEUE_MAX:
                queue.append(key)
            return
        if self._held == key and time.ticks_diff(self._until, early) > 0:
            long = key >= _LONG  # h typed (or repeated) while h holds B
            if long or self._streak or repeat:
                if not long:
                    self._streak = True
                until = time.ticks_add(now, TAP_MS)
                if time.ticks_diff(until, self._until) > 0:
                    self._until = until
                return
        queue.append(key)
        if same and not busy and key in _HOLD_KEYS and HOLD_MIN_MS <= gap <= HOLD_MAX_MS:
            self._pend = True  # the terminal's delay, then its repeat?
            self._pend_until = time.ticks_add(now, REPEAT_GAP_MS)

    def feed(self, c, now=None, early=None):
        """Take one byte `c` (int) typed on the keyboard at ticks `now`
        (None: now), or between `early` and `now`."""
        if self._quitting:
            return  # (typed after q)
        if now is None:
            now = time.ticks_ms()
        if early is None:
            early = now
        if self._esc == 1:
            if c in (0x5B, 0x4F):  # '[' or 'O': an arrow's sequence
                self._esc = 2
                return
            self._esc = 0  # a lone Esc: this byte is a key of its own
        if self._esc == 2:
            if 0x30 <= c <= 0x3F:  # parameters: ESC [ 1 ; 2 A
                return
            self._esc = 0
            bit = {0x41: UP, 0x42: DOWN, 0x43: RIGHT, 0x44: LEFT}.get(c)
            if bit:
                self._key(bit, TAP_MS, now, early)
            return
        if c == 0x1B:
            self._esc = 1
        elif c in (0x0D, 0x0A, 0x20):  # Enter, space
            self._key(A, TAP_MS, now, early)
        elif c in (0x7F, 0x08):  # Backspace
            self._key(B, TAP_MS, now, early)
        elif c == 0x68:  # h
            self._key(B, LONG_HOLD_MS, now, early)
        elif c in (0x71, 0x51, 0x03, 0x04):  # q Q ^C ^D
            self._quit()

    def _quit(self):
        # quit (SystemExit), once the keys typed before have been pressed
        # (read): keys sent together with q, typed while the app was busy,
        # are not lost; nothing typed after counts
        if self._queue or self._held >= 0:
            self._quitting = True
            return
        restore()
        raise SystemExit(0)

    def read(self):
        now = time.ticks_ms()  # (before a redraw: the time the app polls at)
        if isinstance(_out, Terminal):
            _out.check_size()  # polled each tick: a resize redraws at once
            if _out.quit and not self._quitting:
                self._quit()  # (asked by tools/sim.py: as q)
        self._take(now, self._checked)
        queue = self._queue
        if self._shown is not None and queue and not self._shown():
            del queue[:]  # typed blind: not pressed later, when it can be seen
            self._pend = False
        if self._pend and time.ticks_diff(now, self._pend_until) >= 0:
            self._pend = False  # no repeat came: typed again, a press
        if self._held >= 0:
            ended = time.ticks_diff(now, self._until) >= 0
            if self._seen and (ended or (queue and self._held < _LONG)):
                self._held = -1  # released
                self._at = now
                self._seen = False
        elif queue and self._seen and not (self._pend and len(queue) == 1):
            key = queue.pop(0)  # the next press
            self._held = key
            self._at = now
            self._seen = False
            self._until = time.ticks_add(now, LONG_HOLD_MS if key >= _LONG else TAP_MS)
            self._streak = False
        if not self._seen and time.ticks_diff(now, self._at) >= _SEEN_MS:
            self._seen = True  # this read's mask: the debouncer counts it
        elif self._quitting and self._seen and self._held < 0 and not queue:
            self._quitting = False
            self._quit()  # (every key before q pressed and released)
        return 1 << (self._held & 7) if self._held >= 0 else 0


def render_mono(buf, width, height):
    """Rows of half-block characters of a MONO_VLSB framebuf (no escapes),
    one at a time (a generator: one row's heap at once).

    One character per pixel column and two pixel rows: ' ' neither lit,
    '▀' the top one, '▄' the bottom one, '█' both.
    """
    chars = " ▀▄█"
    for y in range(0, height, 2):
        page = (y >> 3) * width
        top = 1 << (y & 7)
        bot = top << 1 if y + 1 < height else 0
        row = []
        for x in range(width):
            v = buf[page + x]
            row.append(chars[(1 if v & top else 0) | (2 if v & bot else 0)])
        yield "".join(row)


def render_braille(buf, width, height):
    """Rows of braille characters of a MONO_VLSB framebuf (no escapes), one
    at a time: one character per 2 x 4 pixels, a dot per lit pixel (U+2800
    + dot bits)."""
    dots = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
    for y in range(0, height, 4):
        row = []
        for x in range(0, width, 2):
            bits = 0
            for dy in range(4):
                yy = y + dy
                if yy >= height:
                    break
                page = (yy >> 3) * width
                mask = 1 << (yy & 7)
                for dx in range(2):
                    if x + dx < width and buf[page + x + dx] & mask:
                        bits |= dots[dy][dx]
            row.append(chr(0x2800 + bits))
        yield "".join(row)


def _rgb(v, cache):
    s = cache.get(v)
    if s is None:
        r = (v >> 11) & 0x1F
        g = (v >> 5) & 0x3F
        b = v & 0x1F
        s = "%d;%d;%d" % (r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2)
        cache[v] = s
    return s


def _row565(buf, width, height, k, y0):
    """Row `y0` of the RGB565 framebuf (ST7789 byte order) shrunk `k`
    times: 565 ints, each the mean colour of a k x k block (clipped at the
    edges); k = 1: the pixels as they are."""
    stride = width * 2
    if k == 1:
        top = y0 * stride
        return [buf[i] << 8 | buf[i + 1] for i in range(top, top + stride, 2)]
    row = []
    y1 = min(height, y0 + k)
    for x0 in range(0, width, k):
        x1 = min(width, x0 + k)
        r = g = b = 0
        for y in range(y0, y1):
            i = y * stride + x0 * 2
            for _ in range(x0, x1):
                v = buf[i] << 8 | buf[i + 1]
                r += v >> 11
                g += (v >> 5) & 0x3F
                b += v & 0x1F
                i += 2
        n = (y1 - y0) * (x1 - x0)
        row.append((r // n) << 11 | (g // n) << 5 | (b // n))
    return row


def render_rgb565(buf, width, height, k=1):
    """Rows of '▀' with 24-bit colour escapes of an RGB565 framebuf, one
    at a time.

    Pixels are read in the ST7789's byte order (big-endian). The foreground
    colour is the top pixel, the background the bottom one; an escape is
    written only where a colour changes; each row ends with a reset.
    `k` > 1 draws the screen `k` times smaller, each half character the
    mean colour of a k x k block: ceil(width / k) characters by
    ceil(ceil(height / k) / 2) rows (k = 2: 240 x 135 in 120 x 34).
    """
    cache = {}
    for y in range(0, height, 2 * k):
        row = []
        fg = bg = -1
        top = _row565(buf, width, height, k, y)
        bot = _row565(buf, width, height, k, y + k) if y + k < height else None
        for x in range(len(top)):
            t = top[x]
            b = bot[x] if bot is not None else 0
            if t != fg:
                row.append("\x1b[38;2;" + _rgb(t, cache) + "m")
                fg = t
            if b != bg:
                row.append("\x1b[48;2;" + _rgb(b, cache) + "m")
                bg = b
            row.append("▀")
        row.append(_RESET)
        yield "".join(row)


# Colour screens in a terminal too small for them: drawn this many times
# smaller, at most. 2: the 8 x 8 font in 4 x 4 mean colours still reads;
# 3 times smaller (the 240 x 135 screen in an 80 x 24 terminal) nothing
# reads, so the board asks for a larger window instead, as the mono one
# does below its braille.
_MAX_SHRINK = const(2)


def _fits(cols, lines, width, height, k=1):
    """Whether half blocks of a width x height screen shrunk `k` times fit
    in cols x lines characters, with the line of keys below."""
    w = (width + k - 1) // k
    h = (height + k - 1) // k
    return cols >= w and lines >= (h + 1) // 2 + 1


_CHECK_MS = const(250)  # how often the terminal's size is read again


def _winsize():
    """(columns, rows, redraw) of the terminal from ``SCOPA_SIM_WINSIZE``
    (``columns rows [redraw]``: tools/sim.py counts up `redraw` when the
    whole screen must be drawn again, after Ctrl-Z and ``fg``), or None."""
    path = os.getenv("SCOPA_SIM_WINSIZE")
    if not path:
        return None
    try:
        with open(path) as f:
            parts = f.read().split()
        return int(parts[0]), int(parts[1]), int(parts[2]) if len(parts) > 2 else 0
    except (OSError, ValueError, IndexError):
        return None


_term = sys.stdout  # the terminal drawn on (Terminal: SCOPA_SIM_OUT's)


class Terminal:
    """Draws each changed frame in the terminal, in place, in half blocks or
    (mono, a small terminal) braille; too small for either: says so."""

    def __init__(self):
        self._saved = None
        self._frame = None
        self.hidden = False  # the last frame did not fit: its message instead
        self._size = _winsize()
        # SCOPA_SIM_QUIT: a file tools/sim.py makes to have the sim quit as
        # by q (SIGTERM, SIGHUP: no signal, which a write it cuts short can
        # leave the unix port's output stuck in); looked for with the size
        self._quit_path = os.getenv("SCOPA_SIM_QUIT")
        self.quit = False
        self._checked = time.ticks_ms()
        # The unix port's termios.tcsetattr leaves c_line to chance (`stty -a`
        # then says `line = 255` after the run): tools/sim.py sets the mode.
        if os.getenv("SCOPA_SIM_TTY") != "set":
            try:
                import termios

                fd = sys.stdin.fileno()
                self._saved = termios.tcgetattr(fd)
                attrs = list(self._saved)
                attrs[0] &= ~0o400  # iflag: no ICRNL
                attrs[3] &= ~(0o2 | 0o10)  # lflag: no ICANON, no ECHO (ISIG stays)
                termios.tcsetattr(fd, termios.TCSANOW, attrs)
            except (ImportError, OSError):  # not a terminal
                self._saved = None
        global _term
        out = os.getenv("SCOPA_SIM_OUT")  # (a file descriptor)
        _term = open(int(out), "w") if out else sys.stdout
        # Clear the screen, hide the cursor.
        _term.write("\x1b[2J\x1b[?25l")

    def check_size(self):
        """Read the terminal's size again (every ``_CHECK_MS``); on a change,
        draw the last frame again to fit."""
        now = time.ticks_ms()
        if time.ticks_diff(now, self._checked) < _CHECK_MS:
            return
        self._checked = now
        if self._quit_path:
            try:
                os.stat(self._quit_path)
                self.quit = True
            except OSError:
                pass
        size = _winsize()
        if size != self._size:
            self._size = size
            if self._frame is not None:
                self._draw(*self._frame, True)

    def frame(self, width, height, mode, data):
        self._frame = (width, height, mode, data)  # (drawn again on a resize)
        self._draw(width, height, mode, data, False)

    def _draw(self, width, height, mode, data, resized):
        cols, lines = self._size[:2] if self._size else (10000, 10000)
        shrink = 0
        if mode == "rgb565":
            for k in range(1, _MAX_SHRINK + 1):
                if _fits(cols, lines, width, height, k):
                    shrink = k
                    break
        self.hidden = False
        on = off = ""  # each row between these
        if shrink:
            rows = render_rgb565(data, width, height, shrink)
        elif mode != "rgb565" and _fits(cols, lines, width, height):
            rows = render_mono(data, width, height)
            on, off = _MONO_ON, _RESET
        elif mode != "rgb565" and cols >= (width + 1) // 2 and lines >= (height + 3) // 4 + 1:
            rows = render_braille(data, width, height)
            on, off = _MONO_ON, _RESET
        else:
            need = "%dx%d" % (width, (height + 1) // 2 + 1)
            if mode != "rgb565":
                need += " (or %dx%d)" % ((width + 1) // 2, (height + 3) // 4 + 1)
            else:
                k = _MAX_SHRINK
                small = ((width + k - 1) // k, ((height + k - 1) // k + 1) // 2 + 1)
                need += " (or %dx%d, %d times smaller)" % (small[0], small[1], k)
            self.hidden = True
            rows = [
                "The terminal is %dx%d characters;" % (cols, lines),
                "the screen needs %s." % need,
                "Enlarge the window or zoom out.",
                "q quits.",
            ]
        keys = _HELP if len(_HELP) < cols else _HELP_SHORT
        # (drawn again whole: the cursor hidden again, after a Ctrl-Z showed it;
        # no newline after the last line: a screen that fits exactly does not scroll)
        # (each row erased to its end: a line the app printed, e.g. its menu
        # line, does not stay beside a screen narrower than the terminal)
        # A row at a time: the heap of one row, not of the screen (several
        # KB, 170 KB for the colour one), which a heap left short by the
        # app (its "Out of memory" note) could not give.
        write = _write
        write(("\x1b[?25l\x1b[H\x1b[J" if resized else "") + "\x1b[H")
        for r in rows:
            write(on + r + off + "\x1b[K\n")
        write(keys[: max(0, cols - 1)] + "\x1b[J")

    def shot(self, name):
        pass

    def end(self, ms):
        pass

    def close(self):
        try:  # (the terminal may be gone: its window closed)
            _term.write(_RESET + "\x1b[?25h\n")
            if self._saved is not None:
                import termios

                termios.tcsetattr(sys.stdin.fileno(), termios.TCSANOW, self._saved)
        except OSError:
            pass
        self._saved = None


def _write(text):
    # the terminal's output; gone (its window closed: EIO), the sim quits
    # (SystemExit: the app writes what waits for a timed save), not a bug
    try:
        _term.write(text)
    except OSError:
        raise SystemExit(0) from None


class FrameSink:
    """Headless output: FRAME, SHOT and END lines (see the module docstring)."""

    def __init__(self, path=None):
        self._drop = path == "/dev/null"  # long runs: no frames at all
        self._file = open(path, "w") if path and not self._drop else None

    def _line(self, text):
        if self._drop:
            return
        f = self._file or sys.stdout
        f.write(text + "\n")
        if self._file:
            self._file.flush()

    def frame(self, width, height, mode, data):
        if self._drop:
            return
        import binascii

        # the hex 256 bytes at a time: a small heap's worth (a frame's whole
        # hex is 2 KB, 130 KB for the colour screen)
        # (a MemoryError on the way still ends the line: tools/sim.py skips
        # a frame cut short, and the display sends it again whole)
        f = self._file or sys.stdout
        f.write("FRAME %d %d %s " % (width, height, mode))
        try:
            dark = isinstance(data, _Dark)
            mv = data if dark else memoryview(data)
            for i in range(0, len(data), 256):
                n = min(256, len(data) - i)
                f.write("00" * n if dark else binascii.hexlify(mv[i : i + n]).decode())
        finally:
            f.write("\n")
            if self._file:
                self._file.flush()

    def shot(self, name):
        self._line("SHOT " + name)

    def end(self, ms):
        self._line("END %d" % ms)

    def close(self):
        if self._file:
            self._file.close()
            self._file = None


# --- the display -------------------------------------------------------------


# what a SimDisplay's output shows (SimDisplay._sent)
_FRESH = const(0)  # nothing yet
_SHOWN = const(1)  # the frame shown
_DARK = const(2)  # a dark screen (poweroff)


class SimDisplay(framebuf.FrameBuffer):
    """A framebuf over a bytearray whose ``show()`` goes to the terminal or
    to FRAME lines. ``contrast`` is kept but not drawn; ``poweroff`` shows a
    dark screen until ``poweron`` shows the last frame again."""

    def __init__(self, width, height, colour, out):
        self.width = width
        self.height = height
        self.mode = "rgb565" if colour else "mono_vlsb"
        if colour:
            self.buffer = bytearray(width * height * 2)
            fmt = framebuf.RGB565
        else:
            self.buffer = bytearray(width * ((height + 7) // 8))
            fmt = framebuf.MONO_VLSB
        super().__init__(self.buffer, width, height, fmt)
        self.out = out
        self.level = 255
        self.on = True
        # The frame shown, copied in place: show() allocates nothing, as a
        # device's does not (the app's "Out of memory" note must show in
        # what heap is left). _sent: what the output shows (_FRESH nothing
        # yet, _SHOWN the frame, _DARK a dark screen); it gets a frame only
        # when that changes.
        self._shown = bytearray(len(self.buffer))
        self._dark = _Dark(len(self.buffer))
        self._sent = _FRESH

    def show(self):
        if self._shown != self.buffer:
            self._shown[:] = self.buffer
        elif self._sent == _SHOWN or not self.on:
            return
        if self.on:
            self._send(self._shown, _SHOWN)

    def _send(self, data, sent):
        # (an output cut short by a MemoryError: sent again at the next show)
        self._sent = _FRESH
        self.out.frame(self.width, self.height, self.mode, data)
        self._sent = sent

    def contrast(self, level):
        self.level = max(0, min(255, level))

    def poweroff(self):
        self.on = False
        if self._sent != _DARK:
            self._send(self._dark, _DARK)

    def poweron(self):
        self.on = True
        if self._sent != _SHOWN:
            self._send(self._shown, _SHOWN)


class _Dark:
    """A dark screen's bytes (every one 0) without a buffer of them: what
    the renderers read of a frame (len, [i])."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return 0


# --- setup -------------------------------------------------------------------

_hw = None
_out = None


def setup():
    """Create the simulated hardware and return (display, buttons, clock).

    Called again, returns the same objects.
    """
    global _hw, _out
    if _hw is not None:
        return _hw
    script = os.getenv("SCOPA_SIM_KEYS")
    path = os.getenv("SCOPA_SIM_SCRIPT")
    timeline = None
    if path:
        with open(path) as f:
            for _ in steps(f):  # a bad token stops here, before the app starts
                pass
        timeline = steps(open(path))  # then read as it plays
    elif script is not None:
        timeline = parse_script(script)
    if os.getenv("SCOPA_SIM_HEADLESS") == "1":
        _out = FrameSink(os.getenv("SCOPA_SIM_FRAMES"))
    else:
        _out = Terminal()
    if timeline is not None:
        clock = time if os.getenv("SCOPA_SIM_REALTIME") == "1" else VirtualClock()
        buttons = ScriptKeys(timeline, clock, _out)
    else:
        buttons = TerminalKeys(shown=_shown)
        clock = buttons  # its sleep reads the keys as they come
    _hw = (SimDisplay(WIDTH, HEIGHT, COLOUR, _out), buttons, clock)
    return _hw


def _shown():
    # TerminalKeys: whether the terminal shows the screen (not "enlarge")
    return not getattr(_out, "hidden", False)


def restore():
    """Give the terminal back and close the frame file (safe to call twice)."""
    global _out
    if _out is not None:
        _out.close()
        _out = None
