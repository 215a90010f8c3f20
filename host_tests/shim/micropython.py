"""CPython stand-in for MicroPython's built-in ``micropython`` module.

Only on ``sys.path`` for the CPython host tests (host_tests/conftest.py puts it
there). On the unix port and on a board the built-in module wins, so this file
is never loaded there and must never be copied to a device.
"""

import builtins


def const(expr):
    """Return ``expr``: MicroPython folds it into a compile-time constant."""
    return expr


def native(func):
    """No-op stand-in for the ``@micropython.native`` code emitter."""
    return func


def bytecode(func):
    """No-op stand-in for the ``@micropython.bytecode`` code emitter."""
    return func


def viper(func):
    """No-op stand-in for the ``@micropython.viper`` code emitter."""
    return func


def _cast(obj):
    """Viper's pointer casts as plain Python: the buffer itself."""
    return obj


# Inside a viper function ptr8(buf) etc. are built-in casts; run as plain
# Python (viper() above) they must exist as names: they give the buffer.
for _name in ("ptr", "ptr8", "ptr16", "ptr32"):
    if not hasattr(builtins, _name):
        setattr(builtins, _name, _cast)


def opt_level(level=None):
    """Stand-in for ``micropython.opt_level()``: reports level 0, sets nothing."""
    return 0 if level is None else None


def kbd_intr(ch):
    """Stand-in for ``micropython.kbd_intr()``: Ctrl-C handling is CPython's."""
    return None
