"""CPython stand-in for MicroPython's built-in ``micropython`` module.

Only on ``sys.path`` for the CPython host tests (host_tests/conftest.py puts it
there). On the unix port and on a board the built-in module wins, so this file
is never loaded there and must never be copied to a device.
"""


def const(expr):
    """Return ``expr``: MicroPython folds it into a compile-time constant."""
    return expr


def native(func):
    """No-op stand-in for the ``@micropython.native`` code emitter."""
    return func


def viper(func):
    """No-op stand-in for the ``@micropython.viper`` code emitter."""
    return func


def opt_level(level=None):
    """Stand-in for ``micropython.opt_level()``: reports level 0, sets nothing."""
    return 0 if level is None else None


def kbd_intr(ch):
    """Stand-in for ``micropython.kbd_intr()``: Ctrl-C handling is CPython's."""
    return None
