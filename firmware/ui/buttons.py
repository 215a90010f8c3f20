"""Buttons: bit constants, a pin reader, a polled debouncer, and `Screen`,
the base of every screen (what the app hands the buttons' events to).

The six buttons are bits of a raw mask (1 = held now): UP DOWN LEFT RIGHT A B.
A board's ``setup()`` returns an object whose ``read()`` gives that mask:
``ui.pins.PinButtons`` on real boards (the board creates the Pins), a
keyboard or key script on the simulator. A reader may add, in bits 8-13 (``CAUGHT``),
the buttons pressed since its last read that it saw by an edge interrupt,
and in bits 16-21 (``CAUGHT_LONG``) those of them held ``LONG_MS`` before
their release: a press made and released while the app was busy (a save,
a computer move) still arrives, a long B as the hint.

``Debouncer`` turns the raw mask and the time into events, in the style of
Adafruit's debouncer: it touches no hardware and is fed by the caller::

    deb = Debouncer()
    while True:
        ev = deb.poll(buttons.read(), clock.ticks_ms())
        while ev:
            handle(ev)
            ev = deb.poll(buttons.read(), clock.ticks_ms())
        clock.sleep_ms(POLL_MS)

An event is a small int: the button bit ORed with its kind, and 0 is no
event. A press is the bare bit (PRESS is 0), so ``ev == A`` is "A pressed",
``ev == B | LONG`` the hint, ``button(ev) == UP`` any UP event and
``ev & ~REPEAT == UP`` UP pressed or repeating.

- PRESS (0): the button went down (debounced). For a button in
  ``long_mask`` (B by default: B long = hint) the PRESS comes at the release
  instead, and only when it was held less than ``long_ms``.
- LONG: a ``long_mask`` button has been held ``long_ms`` (once per hold);
  its release then gives no PRESS.
- REPEAT: a ``repeat_mask`` button (the directions) still held,
  ``repeat_delay_ms`` after its PRESS and then every ``repeat_ms``.
- RELEASE: the button went up (debounced), after any PRESS above. Only
  with ``Debouncer(releases=True)``: off by default, so that code reading
  ``ev & ALL`` never takes a release for a press.
"""

from micropython import const

UP = const(1)
DOWN = const(2)
LEFT = const(4)
RIGHT = const(8)
A = const(16)
B = const(32)
DIRECTIONS = const(15)
ALL = const(63)
N_BUTTONS = const(6)

PRESS = const(0)
LONG = const(0x40)
REPEAT = const(0x80)
RELEASE = const(0x100)
KINDS = const(0x1C0)

NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
KIND_NAMES = ("PRESS", "LONG", "REPEAT", "RELEASE")

# Times in milliseconds.
DEBOUNCE_MS = const(20)  # a raw change must hold this long to count
LONG_MS = const(600)  # B long = hint
REPEAT_DELAY_MS = const(400)  # held direction: first REPEAT after PRESS
REPEAT_MS = const(120)  # then one REPEAT every REPEAT_MS
POLL_MS = const(10)  # suggested poll period

CAUGHT = const(8)  # raw >> CAUGHT: buttons pressed since the last read (edges)
CAUGHT_LONG = const(16)  # raw >> CAUGHT_LONG: of those, held LONG_MS or more

_QUEUE_MAX = const(16)
_TICKS_MASK = const(0x3FFFFFFF)  # MicroPython ticks wrap at 2**30 on 32-bit ports
_TICKS_HALF = const(0x20000000)


def ticks_diff(a, b):
    """Signed difference ``a - b`` of two tick values (0 .. 2**30 - 1), in ms.

    Correct across the wrap of any ticks counter whose period is a multiple
    of 2**30 (time.ticks_ms on every port), while ``|a - b| < 2**29``. No
    step reaches 2**30 (a heap int on a 32-bit board).
    """
    d = a - b
    if d >= _TICKS_HALF:
        return d - _TICKS_MASK - 1
    if d < -_TICKS_HALF:
        return d + _TICKS_MASK + 1
    return d


def ticks_add(t, d):
    """``t + d`` (a tick value and 0 <= d < 2**30 ms) wrapped at 2**30, no
    step reaching 2**30."""
    room = _TICKS_MASK - t
    return t + d if d <= room else d - room - 1


def button(ev):
    """The button bit of event `ev` (UP ... B)."""
    return ev & ALL


def kind(ev):
    """The kind of event `ev` (PRESS, LONG, REPEAT or RELEASE)."""
    return ev & KINDS


def name(ev):
    """Text form of event `ev` for logs and tests, e.g. ``PRESS A``; '' for 0."""
    if not ev:
        return ""
    k = ev >> 6
    i = 0
    while k:
        k >>= 1
        i += 1
    b = ev & ALL
    j = 0
    while b > 1:
        b >>= 1
        j += 1
    return KIND_NAMES[i] + " " + NAMES[j]


class Debouncer:
    """Polled debouncer with press, long press, auto-repeat and release.

    Pure logic: ``poll(raw, now_ms)`` with the raw mask and a ticks_ms value.
    Debounces each button on its own: a raw change of one button counts once
    it has stayed ``debounce_ms``, whatever the others do. Times in ms;
    ``releases``: also give RELEASE events.
    """

    def __init__(
        self,
        debounce_ms=DEBOUNCE_MS,
        long_ms=LONG_MS,
        repeat_delay_ms=REPEAT_DELAY_MS,
        repeat_ms=REPEAT_MS,
        long_mask=B,
        repeat_mask=DIRECTIONS,
        releases=False,
    ):
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        self.long_mask = long_mask
        self.repeat_mask = repeat_mask & ~long_mask
        self.releases = releases
        self.held = 0  # debounced mask of the buttons down now
        self._raw = 0  # raw mask at the last poll
        self._changed = [0] * N_BUTTONS  # ticks of each button's last raw change
        self._down = [0] * N_BUTTONS  # ticks of each debounced press
        self._next = [0] * N_BUTTONS  # ticks of each next REPEAT
        self._long = 0  # mask of the buttons whose LONG has fired this hold
        self._caught_long = 0  # held buttons whose reader saw their release LONG_MS on
        self._pend = 0  # caught presses, not debounced down nor given as taps yet
        self._pend_long = 0  # of those, released LONG_MS or more after the press
        self._queue = []

    def clear(self):
        """Drop the events not yet returned (e.g. when the screen changes)."""
        self._queue = []

    def next(self):
        """The next event found by the last poll, or 0 (a poll's events
        come out one per call: no new read, no new time)."""
        return self._queue.pop(0) if self._queue else 0

    def _emit(self, ev):
        if len(self._queue) < _QUEUE_MAX:
            self._queue.append(ev)

    def poll(self, raw, now):
        """Feed the raw mask `raw` read at ticks `now` (ms); return an event or 0.

        Events found together (simultaneous presses) queue up, in button bit
        order, and come out one per call: `next` gives the rest (or poll
        again with a new read; a read's CAUGHT bits given again are taps
        again).
        A button in the ``CAUGHT`` bits of `raw` was pressed by the reader's
        edges since its last read. Not debounced down: its press debounced,
        it is that press; else, once it has read released for
        ``debounce_ms`` from this read on (a poll may read the contact open
        mid-bounce), it gives its PRESS, or its LONG when it is a
        ``long_mask`` button in the ``CAUGHT_LONG`` bits of a read since
        (and its RELEASE with ``releases``). Debounced down: it was let go
        and pressed again unseen (the app busy): the first press ends
        there, and the new one counts as above.
        """
        held = self.held
        caught = (raw >> CAUGHT) & ALL
        cl = (raw >> CAUGHT_LONG) & self.long_mask
        raw &= ALL
        again = caught & held  # released and pressed again since the last read
        # released long after its press while nobody polled (the app busy):
        # LONG when its release is taken (the first press, if pressed again)
        self._caught_long |= cl & held
        # a press the reader caught, not debounced down: a tap once the
        # button has read released for debounce_ms, unless its press is
        # debounced first
        pend = self._pend | caught
        self._pend_long |= cl & pend & ~again
        changed = (raw ^ self._raw) | (caught & ~raw)  # a tap's wait starts now
        self._raw = raw
        bit = 1
        for i in range(N_BUTTONS):
            if changed & bit:
                self._changed[i] = now
            down = raw & bit
            if again & bit:
                self._released(bit)  # then the new press, as any caught one
            if (down ^ self.held) & bit:
                if ticks_diff(now, self._changed[i]) >= self.debounce_ms:
                    if down:
                        self._pressed(i, bit, now)
                    else:
                        self._released(bit)
            elif self.held & bit:
                self._holding(i, bit, now)
            elif pend & bit and ticks_diff(now, self._changed[i]) >= self.debounce_ms:
                self._emit((LONG if self._pend_long & bit else PRESS) | bit)
                if self.releases:
                    self._emit(RELEASE | bit)
                pend &= ~bit
                self._pend_long &= ~bit
            bit <<= 1
        self._pend = pend & ~self.held
        if self._queue:
            return self._queue.pop(0)
        return 0

    def _pressed(self, i, bit, now):
        self.held |= bit
        self._pend_long &= ~bit
        self._caught_long &= ~bit
        self._down[i] = now
        if not bit & self.long_mask:
            self._emit(PRESS | bit)
        if bit & self.repeat_mask:
            self._next[i] = ticks_add(now, self.repeat_delay_ms)

    def _released(self, bit):
        self.held &= ~bit
        if bit & self.long_mask and not bit & self._long:
            # held long_ms while nobody polled: LONG all the same, as the
            # reader's edges timed it (the time between two polls cannot
            # tell a long hold from a short press before a busy moment)
            self._emit((LONG if bit & self._caught_long else PRESS) | bit)
        self._caught_long &= ~bit
        self._long &= ~bit
        if self.releases:
            self._emit(RELEASE | bit)

    def _holding(self, i, bit, now):
        if bit & self.repeat_mask:
            if ticks_diff(now, self._next[i]) >= 0:
                self._emit(REPEAT | bit)
                nxt = ticks_add(self._next[i], self.repeat_ms)
                if ticks_diff(now, nxt) >= 0:  # polled late: no burst
                    nxt = ticks_add(now, self.repeat_ms)
                self._next[i] = nxt
        elif bit & self.long_mask and not bit & self._long:
            if ticks_diff(now, self._down[i]) >= self.long_ms:
                self._long |= bit
                self._emit(LONG | bit)


# The base of the screens lives here, in a module the app always holds: a
# module of its own (ui/screen.py) measured 160 bytes more at the start
# menu and 320 more at a match's peak (64-bit unix port, bench_app).
class Screen:
    """The base of every screen (firmware/ui), what the app asks of one:
    ``key(ev)`` hands a button event (a key bit with REPEAT or LONG flags)
    to ``press(k, ev)``, `k` its key (``ev & ALL``), unless the event has
    one of the screen's SKIP flags; ``tick(now_ms)`` moves time-driven
    stages on; ``busy()`` is true while the screen does something by
    itself (no idle sleep then); ``quit()`` finishes what it shows as
    done when the app is quit; ``draw(fb)`` draws it and changes
    nothing. A screen reads the app's state and asks the app for every
    change (app.py's docstring); `arg` is what ``app.go`` was given."""

    SKIP = 0  # the flags (REPEAT, LONG) of the events press never sees

    def __init__(self, app, arg=None):
        self.app = app

    def busy(self):
        return False

    def tick(self, now):
        pass

    def key(self, ev):
        if not ev & self.SKIP:
            self.press(ev & ALL, ev)

    def press(self, k, ev):
        pass

    def quit(self, gone=True):
        """The app is quit (the simulator's q, Ctrl-C; `gone` False: a web
        page hidden, which may come back): finish at once what the screen
        shows as done, through the app (the player's play shown, and when
        `gone` a computer's that is not its level's: played, so saved)."""

    def draw(self, fb):
        pass
