"""Buttons on Pins: the raw reader of the real boards, with edge capture.

Only the boards with buttons on GPIOs import this (boards/pico_*), so the
simulator's and the browser's heap do not hold it.
"""

from micropython import const

from ui.buttons import CAUGHT, CAUGHT_LONG, DEBOUNCE_MS, LONG_MS, ticks_add, ticks_diff

_MOD = const(0xFF)
# An edge that finds the pin as the last edge left it is the late handling
# of that edge's bounce, unless the pin is released and this long (ms) went
# by since its last release: then a whole tap whose edges were both handled
# late. (A flash erase holds the handlers up to about 200 ms.)
_LATE_MS = const(250)
# ticks_add(t, _LATE_AGO) is t - _LATE_MS (the ticks' period is 2**30, which
# is no small int on a 32-bit board: the difference written out)
_LATE_AGO = const(0x3FFFFF06)


def ticks_none():
    """The clock of a PinButtons without one (no interrupt calls it)."""
    return 0


class PinButtons:
    """Raw reader over Pins that the board created: ``read() -> mask``.

    pins: sequence of ``(bit, pin)`` pairs; a bit may have several pins
        (the Pico-LCD joystick press and key A are both A).
    active_low: True for buttons to GND with pull-ups (value 0 = held).
    clock: an object with ``ticks_ms()`` (the board's ``time``). Given, each
        pin gets an edge interrupt (``Pin.irq``, both edges) whose handler
        takes the first edge after ``debounce_ms`` (ms) without one (the
        others are contact bounce): a press when no press of the pin is
        open, else its release, a long one when ``long_ms`` or more after
        the press; so a press made while nobody reads is not lost. The
        handler runs when MicroPython schedules it, maybe after the
        release (a tap during a long I2C write): an edge that finds the
        pin released with no press open is a tap whose edges were both
        handled late, counted as a press, when 250 ms or more went by since
        its last release; sooner (or held with a press open), that edge's
        bounce handled late, no press. ``read()`` sets a pin that reads
        otherwise than its last edge left it, ``debounce_ms`` after that
        edge, as it reads (MicroPython drops the handlers of a full
        schedule queue: a bounce during a long write fills it).
        The edges inside ``debounce_ms`` count nothing but leave the press
        open or closed as the pin then reads (the handler reads the level
        when it runs, which may be mid-bounce).
        The handler allocates nothing: it bumps counters in preallocated
        bytearrays; ``read()`` writes what it has seen and, for a pin whose
        handlers were dropped, that pin's state, with its edge's time set
        to now (a handler that runs then takes its edge for a bounce): no
        lock is needed.
    """

    def __init__(self, pins, active_low=True, clock=None, debounce_ms=DEBOUNCE_MS, long_ms=LONG_MS):
        self.pins = tuple(pins)
        self._idle = 1 if active_low else 0
        n = len(self.pins)
        self._count = bytearray(n)  # presses seen by the interrupt, mod 256
        self._longs = bytearray(n)  # of those, released after long_ms, mod 256
        self._seen = bytearray(n)  # _count at the last read
        self._seen_long = bytearray(n)  # _longs at the last read
        self._ticks_ms = clock.ticks_ms if clock is not None else ticks_none
        t0 = self._ticks_ms()
        self._edge_at = [t0] * n  # ticks of each pin's last edge
        self._down_at = [t0] * n  # ticks of each pin's last press (held at start: the start)
        # ticks of each pin's last release: none yet, as if _LATE_MS ago
        self._up_at = [ticks_add(t0, _LATE_AGO)] * n
        # 1: a press counted, not yet released (held at start: its release
        # ends a press, it is no tap)
        self._open = bytearray(1 if pin.value() != self._idle else 0 for _, pin in self.pins)
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
                # quiet: no edge for debounce_ms (or for over 6 days: the
                # ticks' difference wraps negative)
                d = ticks_diff(now, self._edge_at[i])
                self._edge_at[i] = now
                held = pin.value() != self._idle
                if 0 <= d < self._debounce:
                    # bounce: no new press, but the level after it is the
                    # press's (a first edge read mid-bounce; a tap shorter
                    # than debounce_ms), and a long one's release counts
                    if not held and self._open[i]:
                        if ticks_diff(now, self._down_at[i]) >= self._long_ms:
                            self._longs[i] = (self._longs[i] + 1) & _MOD
                    self._open[i] = 1 if held else 0
                    return
                if held != (self._open[i] == 1):
                    if held:  # a press
                        self._count[i] = (self._count[i] + 1) & _MOD
                        self._down_at[i] = now
                        self._open[i] = 1
                    else:  # its release
                        self._open[i] = 0
                        self._up_at[i] = now
                        if ticks_diff(now, self._down_at[i]) >= self._long_ms:
                            self._longs[i] = (self._longs[i] + 1) & _MOD
                elif not held and not 0 <= ticks_diff(now, self._up_at[i]) < _LATE_MS:
                    # released as the last edge left it, long after the
                    # last release: both edges of a tap handled late
                    self._count[i] = (self._count[i] + 1) & _MOD
                    self._down_at[i] = now
                    self._up_at[i] = now
                # else the bounce of the last edge, its handler run late
                # (during a long write), maybe reading it mid-bounce: no
                # press (nor one pressed again as fast, which is as rare)
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
        opened = self._open
        now = self._ticks_ms()
        i = 0
        for bit, pin in self.pins:
            held = 1 if pin.value() != idle else 0
            if held:
                mask |= bit
            if held != opened[i] and not 0 <= ticks_diff(now, self._edge_at[i]) < self._debounce:
                # its edges' handlers dropped (a full schedule queue): as it reads
                opened[i] = held
                self._edge_at[i] = now
                if held:
                    self._down_at[i] = now
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
