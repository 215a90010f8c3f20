"""Buttons: bit constants, a pin reader and a polled debouncer.

The six buttons are bits of a raw mask (1 = held now): UP DOWN LEFT RIGHT A B.
A board's ``setup()`` returns an object whose ``read()`` gives that mask:
``PinButtons`` on real boards (the board creates the Pins), a keyboard or
key script on the simulator. A reader may add, in bits 8-13 (``CAUGHT``),
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
    """Signed difference ``a - b`` of two tick values, in ms.

    Correct across the wrap of any ticks counter whose period is a multiple
    of 2**30 (time.ticks_ms on every port), while ``|a - b| < 2**29``.
    """
    return ((a - b + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF


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


def ticks_none():
    """The clock of a PinButtons without one (no interrupt calls it)."""
    return 0


class PinButtons:
    """Raw reader over Pins that the board created: ``read() -> mask``.

    pins: sequence of ``(bit, pin)`` pairs; a bit may have several pins
        (the Pico-LCD joystick press and key A are both A).
    active_low: True for buttons to GND with pull-ups (value 0 = held).
    clock: an object with ``ticks_ms()`` (the board's ``time``). Given, each
        pin gets an edge interrupt (``Pin.irq``, both edges) that counts a
        press when the pin reads held after ``debounce_ms`` (ms) without an
        edge, and a long one when it is released ``long_ms`` or more after
        that, so a press made while nobody reads is not lost. The handler
        allocates nothing: it bumps counters in preallocated bytearrays, and
        ``read()`` alone writes what it has seen, so no lock is needed.
    """

    def __init__(
        self, pins, active_low=True, clock=None, debounce_ms=DEBOUNCE_MS, long_ms=LONG_MS
    ):
        self.pins = tuple(pins)
        self._idle = 1 if active_low else 0
        n = len(self.pins)
        self._count = bytearray(n)  # presses seen by the interrupt, mod 256
        self._longs = bytearray(n)  # of those, released after long_ms, mod 256
        self._seen = bytearray(n)  # _count at the last read
        self._seen_long = bytearray(n)  # _longs at the last read
        self._edge_at = [0] * n  # ticks of each pin's last edge
        self._down_at = [0] * n  # ticks of each pin's last counted press
        self._ticks_ms = clock.ticks_ms if clock is not None else ticks_none
        self._debounce = debounce_ms
        self._long_ms = long_ms
        if clock is not None:
            handler = self._edge  # one bound method, made once
            for _bit, pin in self.pins:
                pin.irq(handler, pin.IRQ_FALLING | pin.IRQ_RISING)

    def _edge(self, pin):
        now = self._ticks_ms()
        pins = self.pins
        for i in range(len(pins)):
            if pins[i][1] is pin:
                quiet = ticks_diff(now, self._edge_at[i]) >= self._debounce
                self._edge_at[i] = now
                if not quiet:
                    return
                if pin.value() != self._idle:
                    self._count[i] = (self._count[i] + 1) & 0xFF
                    self._down_at[i] = now
                elif ticks_diff(now, self._down_at[i]) >= self._long_ms:
                    self._longs[i] = (self._longs[i] + 1) & 0xFF
                return

    def read(self):
        """Mask of the buttons held now (no debouncing), and in bits
        ``CAUGHT``.. the buttons the interrupt saw pressed since the last
        read, and in bits ``CAUGHT_LONG``.. those released after a long
        hold (with a clock only)."""
        mask = 0
        idle = self._idle
        count = self._count
        seen = self._seen
        longs = self._longs
        seen_long = self._seen_long
        i = 0
        for bit, pin in self.pins:
            if pin.value() != idle:
                mask |= bit
            n = count[i]
            if n != seen[i]:
                seen[i] = n
                mask |= bit << CAUGHT
            n = longs[i]
            if n != seen_long[i]:
                seen_long[i] = n
                mask |= bit << CAUGHT_LONG
            i += 1
        return mask


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
        self._queue = []

    def clear(self):
        """Drop the events not yet returned (e.g. when the screen changes)."""
        self._queue = []

    def _emit(self, ev):
        if len(self._queue) < _QUEUE_MAX:
            self._queue.append(ev)

    def poll(self, raw, now):
        """Feed the raw mask `raw` read at ticks `now` (ms); return an event or 0.

        Events found together (simultaneous presses) queue up, in button bit
        order, and come out one per call: call again until it returns 0.
        A button in the ``CAUGHT`` bits of `raw` that is neither held nor
        debounced down was pressed and released between two polls: it gives
        its PRESS, or its LONG when it is a ``long_mask`` button also in the
        ``CAUGHT_LONG`` bits (and its RELEASE with ``releases``).
        """
        tapped = (raw >> CAUGHT) & ALL & ~raw & ~self.held
        longs = (raw >> CAUGHT_LONG) & tapped & self.long_mask
        raw &= ALL
        changed = raw ^ self._raw
        self._raw = raw
        bit = 1
        for i in range(N_BUTTONS):
            if changed & bit:
                self._changed[i] = now
            down = raw & bit
            if (down ^ self.held) & bit:
                if ticks_diff(now, self._changed[i]) >= self.debounce_ms:
                    if down:
                        self._pressed(i, bit, now)
                    else:
                        self._released(bit)
            elif self.held & bit:
                self._holding(i, bit, now)
            elif tapped & bit:
                self._emit((LONG if longs & bit else PRESS) | bit)
                if self.releases:
                    self._emit(RELEASE | bit)
            bit <<= 1
        if self._queue:
            return self._queue.pop(0)
        return 0

    def _pressed(self, i, bit, now):
        self.held |= bit
        self._down[i] = now
        if not bit & self.long_mask:
            self._emit(PRESS | bit)
        if bit & self.repeat_mask:
            self._next[i] = now + self.repeat_delay_ms

    def _released(self, bit):
        self.held &= ~bit
        if bit & self.long_mask and not bit & self._long:
            self._emit(PRESS | bit)
        self._long &= ~bit
        if self.releases:
            self._emit(RELEASE | bit)

    def _holding(self, i, bit, now):
        if bit & self.repeat_mask:
            if ticks_diff(now, self._next[i]) >= 0:
                self._emit(REPEAT | bit)
                nxt = self._next[i] + self.repeat_ms
                if ticks_diff(now, nxt) >= 0:  # polled late: no burst
                    nxt = now + self.repeat_ms
                self._next[i] = nxt
        elif bit & self.long_mask and not bit & self._long:
            if ticks_diff(now, self._down[i]) >= self.long_ms:
                self._long |= bit
                self._emit(LONG | bit)
