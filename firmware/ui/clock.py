"""A virtual clock with the ``time`` module's ticks API.

A board's ``setup()`` returns a clock: the ``time`` module on real boards
(``ticks_ms()``, ``ticks_diff(a, b)``, ``sleep_ms(n)``), this class on the
simulator in scripted mode and in host tests, so that runs are fast and give
the same result every time: ``sleep_ms`` returns at once and moves the time on.
"""

from micropython import const

_TICKS_MASK = const(0x3FFFFFFF)  # ticks wrap at 2**30, as on a 32-bit board


class VirtualClock:
    """Time that moves only when told to: by ``sleep_ms`` or ``advance``.

    start_ms: the first ``ticks_ms()`` value (a value near 2**30 tests the wrap).
    """

    def __init__(self, start_ms=0):
        self._now = start_ms & _TICKS_MASK
        self.elapsed = 0  # ms since creation, never wraps

    def ticks_ms(self):
        """Current ticks in ms, wrapping at 2**30."""
        return self._now

    def ticks_add(self, ticks, delta):
        """``ticks + delta`` wrapped like ``ticks_ms()`` (delta >= 0)."""
        from ui.buttons import ticks_add

        return ticks_add(ticks, delta)

    def ticks_diff(self, a, b):
        """Signed ``a - b`` in ms across the wrap, as ``time.ticks_diff``."""
        from ui.buttons import ticks_diff

        return ticks_diff(a, b)

    def advance(self, ms):
        """Move the time on by `ms` (0 <= ms < 2**30). `elapsed` is a host
        tally (tests, the simulator): it passes 2**30 after 12 days."""
        if ms > 0:
            from ui.buttons import ticks_add

            self._now = ticks_add(self._now, ms)
            self.elapsed += ms

    def sleep_ms(self, ms):
        """Return at once, ``ms`` later in virtual time."""
        self.advance(ms)
