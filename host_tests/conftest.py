"""Shared fixtures: firmware on CPython and on the MicroPython unix port.

Importing this puts firmware/ and host_tests/shim (the CPython stand-in for
the ``micropython`` module) on sys.path, so tests import firmware modules
directly. Tests marked ``mpy`` run code on the unix port through ``run_mpy``;
the plain functions live in host_tests/mpy.py.
"""

import pytest

import mpy

mpy.setup_cpython_path()

MICROPYTHON = mpy.MICROPYTHON


@pytest.fixture(scope="session")
def mpy_firmware(tmp_path_factory):
    """Folder holding firmware/ compiled by mpy-cross, as a board gets it.

    Compiled once per session (and cached across sessions by content hash in
    build/mpy-cache). Pass it as ``path=(mpy_firmware,)`` to ``run_mpy``.
    """
    dest = tmp_path_factory.mktemp("mpy_firmware")
    return mpy.compile_firmware(dest, mpy.UNIX_MPY_CROSS_ARGS)


@pytest.fixture
def run_mpy():
    """``run_mpy(code, *, heapsize=None, path=(firmware,), timeout=120,
    stdin=None, cwd=None) -> stdout`` on the MicroPython unix port."""
    return mpy.run_mpy
