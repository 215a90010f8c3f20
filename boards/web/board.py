"""The web board: the firmware on MicroPython's WebAssembly port, in a page.

`tools/web` builds the page (this folder's index.html, scopa.js and
sw.js) with MicroPython's WebAssembly port and the firmware staged by the
flash tool (mpy-cross), this file compiled beside it as ``board.mpy``.
Same contract as every board (boards/README.md): NAME, WIDTH, HEIGHT,
COLOUR and ``setup() -> (display, buttons, clock)``.

The page drives the app a turn at a time instead of calling ``app.run``:
`App.loop` runs forever and sleeps between turns, but a page's thread may
never block (the browser draws, takes keys and runs its timers only
between calls into Python), and the port collects garbage only when
control is back in JavaScript. So the page calls `App.step`, the body of
`App.loop`, a turn at a time (host_tests/test_web_board.py plays the same
game both ways). The page calls, from JavaScript:

- ``configure(colour)``: before the app starts: the 128 x 64 MONO_VLSB
  board (NAME ``web``, as the SSD1306) or the 240 x 135 RGB565 one
  (``web-colour``, as the Pico-LCD-1.14, pixels in the ST7789's byte
  order, see ui/palette.py).
- ``start(folder)``: makes the `app.App` on this board, its saved files in
  `folder` (the flash, which the page keeps in the browser's storage), and
  shows the first screen, as ``app.run`` does.
- ``step() -> int``: one `App.step` (read the buttons, hand their
  events to the screen, tick, switch screens, redraw at most once per
  ``app.FRAME_MS``, sleep the screen when idle). The int holds: bit 0, the
  turn showed a new frame (its bytes are then in the file ``FRAME``); bits
  1-10, the ms to wait before the next turn (``app.TICK_MS``, longer
  asleep); bit 11, the screen is off (asleep: the page dims it). A turn
  lasts as long as what the app does in it (a computer's decision, a
  save); between turns the page is free.
- ``key(bit, down)``: a key of the page went down (`down` true) or up;
  `bit` is one of ui.buttons UP DOWN LEFT RIGHT A B.
- ``flush(play=True)``: the page goes (a reload, a tab closed) or, `play`
  False, is hidden (a tab switched, a phone's switch to another app,
  after which it may be killed unsaid): `App.flush` writes now what waits
  for its timed save (a setting, the round being typed) and plays the
  player's move shown, as on a quit; with `play` also a computer's move
  shown that is not its level's (its search short of heap; any other is
  shown again at the restart); the app plays on if the page comes back.
  Never raises.
- ``status() -> str``: ``screen=<module> page=<k>/<n> plays=<n>
  matches=<n> asleep=<0|1> busy=<0|1> keys=<mask>/<queued>`` for the
  page's tests (``busy``: the screen is doing something by itself, such as
  a computer's turn; ``keys``: the buttons held now and the key changes
  still queued).

Keys: a tap may be shorter than a turn (the computer's decision), so
`WebKeys` queues the page's key changes and hands them to the app one at a
time, each held at least ``HOLD_MS``, longer than ui.buttons.DEBOUNCE_MS,
and for two reads at least (the debouncer takes a change that a second
read finds: asleep, the app reads every 40 ms), a key's next change only
once a read DEBOUNCE_MS after its last returned it, so that no tap is lost
and none is taken for a bounce. Keys mashed faster than that keep a few
taps only, the last ones: the app stops a moment after the keys do.
"""

import framebuf
import time
from micropython import const

from ui.buttons import DEBOUNCE_MS, ticks_diff

NAME = "web"
WIDTH, HEIGHT = 128, 64
COLOUR = False

HOLD_MS = const(40)  # a key change stays at least this long (the debounce is 20)
_QUEUE_MAX = const(8)  # changes waiting: 4 taps, 320 ms of HOLD_MS
FRAME = "/frame.bin"  # the last frame shown, for the page to draw


def configure(colour):
    """Choose the board: the colour one when `colour`, else the mono one.
    Call before ``setup()``."""
    global NAME, WIDTH, HEIGHT, COLOUR
    COLOUR = bool(colour)
    NAME = "web-colour" if COLOUR else "web"
    WIDTH, HEIGHT = (240, 135) if COLOUR else (128, 64)


class WebDisplay(framebuf.FrameBuffer):
    """A framebuf over a bytearray whose ``show()`` writes the frame to the
    file `FRAME` for the page. ``contrast`` is kept but not drawn (the
    simulator's frames do not show it either); ``poweroff`` shows a dark screen until
    ``poweron`` shows the last frame again."""

    def __init__(self, width, height, colour):
        self.width = width
        self.height = height
        if colour:
            self.buffer = bytearray(width * height * 2)
            fmt = framebuf.RGB565
        else:
            self.buffer = bytearray(width * ((height + 7) // 8))
            fmt = framebuf.MONO_VLSB
        super().__init__(self.buffer, width, height, fmt)
        self.level = 255
        self.on = True
        self.shown = 0  # frames shown so far

    def _write(self, data):
        with open(FRAME, "wb") as f:
            f.write(data)
        self.shown += 1

    def show(self):
        if self.on:
            self._write(self.buffer)

    def contrast(self, level):
        self.level = max(0, min(255, level))

    def poweroff(self):
        self.on = False
        self._write(bytes(len(self.buffer)))

    def poweron(self):
        self.on = True
        self._write(self.buffer)


class WebKeys:
    """Buttons from the page's keys: ``read() -> mask``.

    The page calls ``push(bit, down)`` for each key change; ``read`` takes
    them in order, one per `HOLD_MS` of `clock` time and two reads at
    most, and the next change of the same key only once a read
    DEBOUNCE_MS or more after a change returned it (turns that come
    unevenly, a read 12 ms after a press and the next 55 ms later, had
    handed its release over before the debouncer took the press). Changes that
    change nothing (a key down twice, the release of a press dropped) are
    dropped. At most `_QUEUE_MAX` wait (4 taps: more than a human pace
    queues through the longest turns seen, 250 ms): past that a press
    drops the oldest whole tap of its own key queued (a press and its
    release), so the app stops soon after the keys do; with none queued
    the press itself is dropped (an A after a flood of RIGHT would act on
    a card other than the one the player aimed at). The release of a key
    held is never dropped (else it would stay held, a B held the hint):
    one for each of the six keys at most past `_QUEUE_MAX`.
    """

    def __init__(self, clock):
        self.clock = clock
        self.mask = 0
        self._queue = []
        self._held = 0  # the mask once every change queued is read
        self._since = clock.ticks_ms()
        self._reads = 2  # reads that returned the mask since its change (2 at most)
        self._last = 0  # the key of the last change
        self._late = True  # a read DEBOUNCE_MS or more after it returned it

    def push(self, bit, down):
        held = self._held | bit if down else self._held & ~bit
        if held == self._held:
            return
        if down and len(self._queue) >= _QUEUE_MAX and not self._drop_tap(bit):
            return
        self._held = held
        self._queue.append((bit, bool(down)))

    def _drop_tap(self, key):
        # the oldest press of `key` queued whose release is queued too, both
        # dropped (a key's changes alternate: the next change of its key
        # after a press is its release); False when there is none
        q = self._queue
        for i in range(len(q)):
            bit, down = q[i]
            if down and bit == key:
                for j in range(i + 1, len(q)):
                    if q[j][0] == bit:
                        del q[j]
                        del q[i]
                        return True
        return False

    def read(self):
        now = self.clock.ticks_ms()
        q = self._queue
        while (
            q
            and self._reads >= 2
            and ticks_diff(now, self._since) >= HOLD_MS
            and (self._late or q[0][0] != self._last)
        ):
            bit, down = q.pop(0)
            mask = self.mask | bit if down else self.mask & ~bit
            if mask != self.mask:
                self.mask = mask
                self._since = now
                self._reads = 0
                self._late = False
                self._last = bit
        if self._reads < 2:
            self._reads += 1
        if ticks_diff(now, self._since) >= DEBOUNCE_MS:
            self._late = True  # the debouncer has taken the last change
        return self.mask


class WebClock:
    """The port's ``time`` ticks (the browser's clock); ``sleep_ms``
    returns at once: the page waits between turns, not the app."""

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_add(self, ticks, delta):
        return time.ticks_add(ticks, delta)

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def sleep_ms(self, ms):
        pass


_hw = None


def setup():
    """Create the board's display, keys and clock and return (display,
    buttons, clock). Called again, returns the same objects."""
    global _hw
    if _hw is None:
        clock = WebClock()
        _hw = (WebDisplay(WIDTH, HEIGHT, COLOUR), WebKeys(clock), clock)
    return _hw


def key(bit, down):
    """A key of the page went down or up (see the module docstring)."""
    setup()[1].push(bit, down)


_app = None


def start(folder=""):
    """Make the app on this board, saved files in `folder`, and show its
    first screen (``app.run`` without the loop). Returns the App."""
    global _app
    import app as A

    a = A.App(__import__("board"), folder)
    _app = a
    try:
        a.start()
    except Exception as e:  # as app.run: saved, said on the screen, raised
        A.stop(a, e)
        raise
    return a


def step():
    """One turn of the app; returns the frame, wait and off bits of the
    module docstring."""
    a = _app
    if a is None:
        raise RuntimeError("board.start() first")
    display = a.fb
    before = display.shown
    try:
        wait = a.step()
    except Exception as e:  # as app.run: saved, said on the screen, raised
        import app as A

        A.stop(a, e)
        raise
    drawn = 1 if display.shown != before else 0
    off = 0 if display.on else 1
    return drawn | min(wait, 1023) << 1 | off << 11


def flush(play=True):
    """Write now what waits for a timed save (see the module docstring)."""
    if _app is not None:
        _app.flush(play)


def status():
    """The app's screen and counts, one line (see the module docstring)."""
    a = _app
    if a is None:
        return "screen=none"
    s = a.screen
    k = getattr(s, "k", 0)
    pages = getattr(s, "pages", None)
    n = len(pages) if pages else 0
    keys = a.buttons
    return "screen=%s page=%d/%d plays=%d matches=%d asleep=%d busy=%d keys=%d/%d" % (
        a.screen_mod,
        k,
        n,
        a.plays,
        a.matches,
        1 if a.asleep else 0,
        1 if s is None or s.busy() else 0,
        keys.mask,
        len(keys._queue),
    )
