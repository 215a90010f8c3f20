"""The virtual board's USB port (host_tests/vboard.py): a connected host
that reads late loses nothing; with no host connected the board runs on."""

from __future__ import annotations

import os
import time

import pytest

from vboard import VirtualBoard

pytestmark = pytest.mark.mpy

LINES = 300  # of 1,000 bytes: several times what a pty holds
FLOOD = b"[print('%%04d' %% i + 'x' * 995) for i in range(%d)]\r" % LINES
END = b"print('EN' + 'D')\r"


def read_until(fd: int, pattern: bytes, timeout: float = 60) -> bytes:
    got = bytearray()
    end = time.monotonic() + timeout
    while pattern not in got:
        assert time.monotonic() < end, bytes(got[-300:])
        try:
            got += os.read(fd, 65536)
        except BlockingIOError:
            time.sleep(0.01)
    return bytes(got)


def test_a_host_that_reads_late_loses_nothing(tmp_path):
    with VirtualBoard(tmp_path / "board") as board:
        assert board.wait_for(b">>> ", 10)
        fd = os.open(board.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            try:
                os.read(fd, 65536)  # the banner, if still there
            except BlockingIOError:
                pass
            os.write(fd, FLOOD + END)
            time.sleep(1)  # not reading: the board waits
            got = read_until(fd, b"\nEND")
        finally:
            os.close(fd)
    rows = [ln for ln in got.split(b"\n") if ln.rstrip(b"\r").endswith(b"x" * 995)]
    assert [int(r[:4]) for r in rows] == list(range(LINES))


def test_with_no_host_the_output_is_dropped_and_the_board_runs_on(tmp_path):
    with VirtualBoard(tmp_path / "board") as board:
        assert board.wait_for(b">>> ", 10)
        fd = os.open(board.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        os.write(fd, FLOOD + FLOOD + END)
        os.close(fd)  # the host goes away without reading
        assert board.wait_for(b"\nEND", 60)  # the relay did not wait for it


def test_the_board_leaves_nothing_in_the_users_home(tmp_path, monkeypatch):
    # the unix port's REPL keeps its history in $HOME/.micropython.history:
    # the virtual board's REPL is not the user's
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    with VirtualBoard(tmp_path / "board") as board:
        assert board.wait_for(b">>> ", 10)
        fd = os.open(board.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            os.write(fd, b"print('x' * 3)\r")
            assert b"xxx" in read_until(fd, b"xxx")
            os.write(fd, b"\x04")  # a soft reset: the REPL ends, and starts again
            assert board.wait_for(b"soft reboot", 10)
            assert board.soft_resets == 1
        finally:
            os.close(fd)
    assert list(home.iterdir()) == []


def test_a_ctrl_c_as_the_board_starts_is_taken_as_a_board_takes_it(tmp_path):
    # the unix port dies of a Ctrl-C (SIGINT) before its start-up code runs
    # and between that code's end and its REPL; a board never does: the
    # relay holds the host's bytes there, so the board is not restarted
    root = tmp_path / "board"
    root.mkdir()
    (root / "main.py").write_text("print('MAIN RAN')\n")
    board = VirtualBoard(root)
    fd = os.open(board.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        board.start()
        os.write(fd, b"\r\x03")  # as mpremote begins, at once
        assert board.wait_for(b">>> ", 10)
        os.write(fd, b"print('x' * 3)\r")
        assert b"xxx" in read_until(fd, b"xxx")
        assert board.soft_resets == 0 and board.boots == 1
    finally:
        os.close(fd)
        board.close()
    assert b"\x1b]vb" not in board._out  # the start-up code's marks never shown
