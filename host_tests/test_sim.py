"""The simulator: boards/sim/board.py on the unix port, tools/sim.py, tools/png.py.

The sim is proven with a tiny demo app kept here (it draws and reads the
buttons only through the board API and ui/buttons.py), then with the real
app's start menu.
"""

import contextlib
import errno
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
import zlib

import pytest

import mpy
from tools import png, sim

SIM_DIR = mpy.ROOT / "boards" / "sim"

DEMO_APP = """\
# A demo app: a square that RIGHT/LEFT move, the last event as text.
import board
from ui.buttons import LEFT, RIGHT, Debouncer, name
from ui.palette import palette

bg, fg, accent, red, card, ink, dim = palette(board.COLOUR)
display, buttons, clock = board.setup()
deb = Debouncer(releases=True)
x = 0
print("demo", board.NAME, board.WIDTH, board.HEIGHT, board.COLOUR)
# its events on the terminal it is drawn on, for the tests to read (the
# console, print's, is shown after the run: SCOPA_SIM_OUT)
import os
import sys

said = open(int(os.getenv("SCOPA_SIM_OUT")), "w") if os.getenv("SCOPA_SIM_OUT") else sys.stdout


def draw(msg):
    display.fill(bg)
    display.text(msg, 0, 0, fg)
    display.fill_rect(x, 40, 8, 8, red)
    display.show()


draw("start")
try:
    while True:
        ev = deb.poll(buttons.read(), clock.ticks_ms())
        while ev:
            said.write("EV %d %s\\n" % (clock.ticks_ms(), name(ev)))
            if ev == RIGHT:
                x += 8
            elif ev == LEFT:
                x -= 8
                if os.getenv("DEMO_CRASH"):
                    for i in range(int(os.getenv("DEMO_CRASH"))):  # its console's lines
                        print("flood %d" % i, "x" * 3000 if i == 0 else "")
                    if os.getenv("DEMO_TMP"):  # the bytes of the files the run made
                        size = 0
                        for d in os.listdir(os.getenv("DEMO_TMP")):
                            d = os.getenv("DEMO_TMP") + "/" + d
                            if os.stat(d)[0] & 0x4000:
                                for f in os.listdir(d):
                                    size += os.stat(d + "/" + f)[6]
                        said.write("TMP %d BYTES\\n" % size)
                    raise RuntimeError("boom")
            draw(name(ev))
            ev = deb.poll(buttons.read(), clock.ticks_ms())
        clock.sleep_ms(10)
except (SystemExit, KeyboardInterrupt, Exception) as e:  # (as the app: what waits is written)
    # (said in a file, not on the terminal: a write the signal cut short
    # may hold the unix port's output)
    import os

    with open(os.getenv("DEMO_MARK") or "quit.txt", "w") as f:
        f.write(type(e).__name__)
    raise
"""


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("demo")
    (d / "demo_app.py").write_text(DEMO_APP)
    return d


def sim_board_code(body):
    """Unix-port code that imports the sim board from boards/sim."""
    return "import board\n" + body


def run_board(run_mpy, body, env=None, monkeypatch=None):
    return run_mpy(sim_board_code(body), path=(SIM_DIR, mpy.FIRMWARE))


# --- rendering ---------------------------------------------------------------


@pytest.mark.mpy
def test_half_blocks_of_a_mono_pattern(run_mpy):
    out = run_board(
        run_mpy,
        """
import framebuf
buf = bytearray(6 * 1)  # 6 x 5 MONO_VLSB: one page
fb = framebuf.FrameBuffer(buf, 6, 5, framebuf.MONO_VLSB)
fb.pixel(0, 0, 1)          # top only
fb.pixel(1, 1, 1)          # bottom only
fb.vline(2, 0, 2, 1)       # both
fb.pixel(4, 2, 1)
fb.vline(5, 0, 5, 1)       # whole column, odd height
for row in board.render_mono(buf, 6, 5):
    print("|" + row + "|")
""",
    )
    assert out.splitlines() == ["|▀▄█  █|", "|    ▀█|", "|     ▀|"]


@pytest.mark.mpy
def test_the_display_shows_without_allocating(run_mpy):
    # show(), poweroff() and poweron() with the heap locked: as a device's,
    # the display allocates nothing, so that the app's "Out of memory" note
    # shows in what heap a long score sheet left (each output then writes
    # a row or 256 bytes at a time)
    out = run_board(
        run_mpy,
        """
import micropython

class Out:
    def __init__(self):
        self.k = 0
        self.first = -1

    def frame(self, w, h, mode, data):
        self.k += 1
        self.first = 1 if data[0] else 0  # lit or dark

def steps(d, out, seen):
    micropython.heap_lock()
    try:
        d.fill(1)
        d.show()
        d.show()  # the same frame: not again
        seen[1] = out.k
        seen[2] = out.first
        d.poweroff()
        seen[3] = out.k
        seen[4] = out.first
        d.fill(0)
        d.show()  # off: kept for poweron
        seen[5] = out.k
        d.poweron()
        seen[6] = out.k
        seen[7] = out.first
    finally:
        micropython.heap_unlock()

for colour in (False, True):
    out = Out()
    d = board.SimDisplay(240 if colour else 128, 135 if colour else 64, colour, out)
    d.show()
    seen = [out.k] + [-1] * 7
    steps(d, out, seen)
    print(colour, *seen)
""",
    )
    assert out.splitlines() == ["False 1 2 1 3 0 3 4 0", "True 1 2 1 3 0 3 4 0"]


@pytest.mark.mpy
def test_a_frame_cut_short_by_a_memory_error_is_sent_again(run_mpy):
    # the output ran out of heap part way (a row or a piece of hex written):
    # the app's next show() sends the same frame again, whole; and the
    # headless line is ended, for tools/sim.py to skip
    out = run_board(
        run_mpy,
        """
class Out:
    def __init__(self):
        self.sent = []
    def frame(self, w, h, mode, data):
        if len(self.sent) == 1:
            self.sent.append("cut")
            raise MemoryError
        self.sent.append(data[0])

out = Out()
d = board.SimDisplay(128, 64, False, out)
d.show()
d.fill(1)
for _ in range(3):
    try:
        d.show()
    except MemoryError:
        print("MemoryError")
print(out.sent)

import io
class Cut(io.StringIO):
    def write(self, t):
        if len(t) > 40:
            raise MemoryError
        return super().write(t)

f = Cut()
sink = board.FrameSink()
sink._file = f
try:
    sink.frame(128, 64, "mono_vlsb", d.buffer)
except MemoryError:
    pass
print(repr(f.getvalue()))
""",
    )
    assert out.splitlines() == ["MemoryError", "[0, 'cut', 255]", "'FRAME 128 64 mono_vlsb \\n'"]


@pytest.mark.mpy
def test_half_blocks_of_text(run_mpy):
    out = run_board(
        run_mpy,
        """
import framebuf
buf = bytearray(16 * 2)
fb = framebuf.FrameBuffer(buf, 16, 16, framebuf.MONO_VLSB)
fb.text("Hi", 0, 0, 1)
for row in board.render_mono(buf, 16, 16):
    print("|" + row + "|")
""",
    )
    rows = out.splitlines()
    assert len(rows) == 8 and all(len(r) == 18 for r in rows)
    assert rows[:4] == [  # the 8x8 font's H and i
        "| ██  ██    ▀▀   |",
        "| ██▄▄██    ██   |",
        "| ██  ██    ██   |",
        "| ▀▀  ▀▀    ▀▀   |",
    ]
    assert rows[4:] == ["|" + " " * 16 + "|"] * 4


@pytest.mark.mpy
def test_colour_half_blocks_read_the_st7789_byte_order(run_mpy):
    out = run_board(
        run_mpy,
        """
import framebuf
from ui.palette import rgb565
buf = bytearray(2 * 3 * 2)  # 2 x 3 RGB565
fb = framebuf.FrameBuffer(buf, 2, 3, framebuf.RGB565)
red, blue, white = rgb565(255, 0, 0), rgb565(0, 0, 255), rgb565(255, 255, 255)
fb.pixel(0, 0, red)
fb.pixel(0, 1, blue)
fb.pixel(1, 0, red)
fb.pixel(1, 1, blue)
fb.pixel(0, 2, white)
print(buf[:2].hex())
for row in board.render_rgb565(buf, 2, 3):
    print(row.replace("\x1b", "ESC"))
""",
    )
    lines = out.splitlines()
    assert lines[0] == "f800"  # on the wire: high byte first
    # fg = top pixel, bg = bottom pixel; escapes only where a colour changes
    assert lines[1] == "ESC[38;2;255;0;0mESC[48;2;0;0;255m▀▀ESC[0m"
    assert lines[2] == "ESC[38;2;255;255;255mESC[48;2;0;0;0m▀ESC[38;2;0;0;0m▀ESC[0m"


def test_palette():
    from ui import palette

    mono = palette.palette(False)
    assert len(mono) == 7 and set(mono) <= {0, 1}
    bg, fg, accent, red, card, ink, dim = mono
    assert bg == card == 0 and fg == ink == 1
    col = palette.palette(True)
    assert len(set(col)) == 7
    assert palette.rgb565(255, 0, 0) == 0x00F8  # 0xF800 with its bytes swapped
    assert palette.rgb565(0, 255, 0) == 0xE007
    assert palette.rgb565(0, 0, 255) == 0x1F00
    # what the ST7789 gets (framebuf little-endian store) is RGB565 big-endian
    for r, g, b in ((208, 24, 32), (0, 88, 40), (255, 200, 0)):
        wire = struct.pack("<H", palette.rgb565(r, g, b))
        assert png.rgb565_to_rgb(struct.unpack(">H", wire)[0]) == (
            r & 0xF8 | r >> 5,
            g & 0xFC | g >> 6,
            b & 0xF8 | b >> 5,
        )


# --- PNG ---------------------------------------------------------------------


def _chunks(blob):
    assert blob[:8] == b"\x89PNG\r\n\x1a\n"
    pos = 8
    while pos < len(blob):
        (n,) = struct.unpack(">I", blob[pos : pos + 4])
        kind, payload = blob[pos + 4 : pos + 8], blob[pos + 8 : pos + 8 + n]
        (crc,) = struct.unpack(">I", blob[pos + 8 + n : pos + 12 + n])
        assert zlib.crc32(kind + payload) == crc
        yield kind, payload
        pos += 12 + n


def test_png_round_trip_mono(tmp_path):
    w, h = 128, 64
    data = bytearray(w * h // 8)
    lit = {(0, 0), (127, 63), (5, 9), (64, 32)}
    for x, y in lit:
        data[(y // 8) * w + x] |= 1 << (y % 8)
    path = tmp_path / "m.png"
    png.write_frame_png(path, w, h, "mono_vlsb", bytes(data), scale=4)
    blob = path.read_bytes()
    chunks = dict(_chunks(blob))
    width, height, depth, ctype = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (width, height, depth, ctype) == (512, 256, 8, 2)
    raw = zlib.decompress(chunks[b"IDAT"])  # by hand: filter byte + RGB rows
    assert len(raw) == 256 * (1 + 512 * 3)
    row = raw[: 1 + 512 * 3]
    assert (
        row[0] == 0
        and row[1:4] == bytes(png.INK)
        and row[4 * 3 + 1 : 4 * 3 + 4] == bytes(png.PAPER)
    )
    W, H, rgb = png.read_png(path)
    assert (W, H) == (512, 256)
    for y in range(h):
        for x in range(w):
            px = rgb[((y * 4 + 3) * W + x * 4 + 2) * 3 :][:3]
            assert px == bytes(png.INK if (x, y) in lit else png.PAPER), (x, y)


def test_png_round_trip_colour():
    w, h = 3, 2
    wire = [0xF800, 0x07E0, 0x001F, 0xFFFF, 0x0000, 0x8410]
    data = b"".join(struct.pack(">H", v) for v in wire)
    rgb = png.frame_to_rgb(w, h, "rgb565", data)
    W, H, back = png.decode_png(png.encode_png(w, h, rgb))
    assert (W, H) == (3, 2) and back == rgb
    assert [back[i : i + 3] for i in range(0, 18, 3)] == [
        bytes(c)
        for c in ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255,) * 3, (0,) * 3, (132, 130, 132))
    ]
    with pytest.raises(ValueError):
        png.frame_to_rgb(w, h, "rgb565", data[:-1])


def test_png_decoder_handles_all_filters():
    # A 2x2 RGBA image, rows with filters Sub and Paeth, built by hand.
    rows = [bytes([1, 10, 20, 30, 255, 5, 5, 5, 0]), bytes([4, 1, 1, 1, 0, 1, 1, 1, 0])]
    ihdr = struct.pack(">IIBBBBB", 2, 2, 8, 6, 0, 0, 0)

    def chunk(k, p):
        return struct.pack(">I", len(p)) + k + p + struct.pack(">I", zlib.crc32(k + p))

    blob = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + chunk(b"IEND", b"")
    )
    assert png.decode_png(blob) == (2, 2, bytes([10, 20, 30, 15, 25, 35, 11, 21, 31, 16, 26, 36]))
    bad = bytearray(blob)
    bad[-5] ^= 1
    with pytest.raises(ValueError):
        png.decode_png(bytes(bad))


def test_parse_frames():
    lines = ["Scopa 0.1.0 on sim", "FRAME 2 8 mono_vlsb 0180", "SHOT first", "junk", "END 250"]
    frames, shots, end = sim.parse_frames(lines)
    assert len(frames) == 1 and frames[0].data == b"\x01\x80"
    assert shots == [("first", frames[0])] and end == 250
    # lines cut short by a MemoryError in the firmware (the board then
    # sends the frame again whole): skipped
    cut = ["FRAME 2 8 mono_vlsb ", "FRAME 2 8 mono_vlsb 018", "FRAME 2 8 mono_vlsb 01"]
    frames, _, _ = sim.parse_frames(cut + ["FRAME 2 8 mono_vlsb 0280"])
    assert [f.data for f in frames] == [b"\x02\x80"]


# --- key scripts -------------------------------------------------------------


@pytest.mark.mpy
def test_key_script_timeline(run_mpy):
    out = run_board(
        run_mpy,
        """
for step in board.parse_script("right A+B wait:500 shot:x long:B hold:up:1000 down*2 # note"):
    print(step)
for bad in ("jump", "wait:x", "hold:up", "long:C"):
    try:
        board.parse_script(bad)
    except ValueError as e:
        print("error", e)
print(board.parse_script("A quit B")[-1])
print(board.parse_script("A off B")[-1])
""",
    )
    lines = out.splitlines()
    assert lines[:16] == [
        "(100, 'keys', 8)",
        "(180, 'keys', 0)",
        "(260, 'keys', 48)",
        "(340, 'keys', 0)",
        "(920, 'shot', 'x')",
        "(920, 'keys', 32)",
        "(1720, 'keys', 0)",
        "(1800, 'keys', 1)",
        "(2800, 'keys', 0)",
        "(2880, 'keys', 2)",
        "(2960, 'keys', 0)",
        "(3040, 'keys', 2)",
        "(3120, 'keys', 0)",
        "(3500, 'end', None)",
        "error key script: unknown key 'jump'",
        "error key script: bad number in 'wait:x'",
    ]
    assert lines[16].startswith("error key script: bad number in 'hold:up'")
    assert lines[17] == "error key script: unknown key 'C'"
    assert lines[18] == "(260, 'end', None)"
    assert lines[19:] == ["(260, 'off', None)"]


# --- keys typed in the terminal ----------------------------------------------

# The sim board's TerminalKeys on a virtual clock (board.time replaced), read
# by the firmware's Debouncer as the app reads them: no wall-clock time. Its
# stdin is a FIFO that never has a byte: the keys are fed with feed(), at the
# times given (as its sleep reads them), or if typed between two reads at
# the second one, typed since the first (as its read() takes them); the
# bytes of one time arrive together (one read). Prints `EV <ms> <event>`
# for each event (RELEASEs too with `releases`).
TYPED = """
import board
from ui.buttons import Debouncer, name
from ui.clock import VirtualClock

clock = VirtualClock(1000)
board.time = clock  # the key source's time
keys = board.TerminalKeys(open({fifo!r}, "r+b"), {shown})
deb = Debouncer(releases={releases!r})
typed = {typed!r}  # ms -> bytes typed then
steps = {steps!r}  # the ms between reads, repeated
end = {end!r}
todo = sorted(typed.items())
t = i = last = 0
while t < end:
    while todo and todo[0][0] <= t:
        at, cs = todo.pop(0)
        for c in cs:
            if at == t:
                keys.feed(c)  # typed now
            else:
                keys.feed(c, clock.ticks_ms(), last)  # typed since the last read
    last = clock.ticks_ms()
    ev = deb.poll(keys.read(), clock.ticks_ms())
    while ev:
        print("EV", t, name(ev))
        ev = deb.poll(keys.read(), clock.ticks_ms())
    step = steps[i % len(steps)]
    i += 1
    clock.advance(step)
    t += step
"""

_ARROW_DOWN = b"\x1b[B"


def _typed(run_mpy, tmp_path, typed, end, steps=(10,), releases=False, shown="None"):
    """Events of the keys `typed` ({ms: bytes}) read every `steps` ms;
    `shown`: TerminalKeys' predicate, an expression (`t`: the ms)."""
    fifo = tmp_path / "stdin"
    if not fifo.exists():
        os.mkfifo(fifo)
    code = TYPED.format(
        fifo=str(fifo), typed=typed, steps=list(steps), end=end, releases=releases, shown=shown
    )
    out = run_board(run_mpy, code)
    return [line.split(" ", 2)[2] for line in out.splitlines() if line.startswith("EV ")]


def _autorepeat(key, first, every, until):
    """A held key as a terminal sends it: once, then again from `first` ms
    every `every` ms until `until`."""
    return {0: key, **{t: key for t in range(first, until, every)}}


@pytest.mark.mpy
@pytest.mark.parametrize("steps", [(10,), (40,), (10, 20, 10, 5)], ids=["10ms", "40ms", "uneven"])
@pytest.mark.parametrize(
    "key,event",
    [(_ARROW_DOWN, "PRESS DOWN"), (b"\r", "PRESS A"), (b"\x7f", "PRESS B"), (b"h", "LONG B")],
    ids=["down", "enter", "backspace", "h"],
)
def test_each_key_typed_is_a_press_even_80ms_after_the_last(run_mpy, tmp_path, key, event, steps):
    # a terminal sends no key releases: each key typed is a press and its
    # release, however soon the next one comes (the review: Down three
    # times 80 ms apart moved the menu's cursor once), read often (10 ms,
    # the app's tick) or seldom (40 ms, the app asleep) or unevenly
    gap = 900 if key == b"h" else 80  # (h: a long press each, not the same one thrice)
    got = _typed(run_mpy, tmp_path, {0: key, gap: key, 2 * gap: key}, 3 * gap + 1500, steps)
    assert got == [event] * 3


@pytest.mark.mpy
@pytest.mark.parametrize("every", [30, 40])
@pytest.mark.parametrize("steps", [(10,), (10, 20, 10, 15)], ids=["10ms", "uneven"])
def test_a_key_the_terminal_repeats_is_held(run_mpy, tmp_path, every, steps):
    # a key held down: the terminal sends it, then after its delay (500 ms
    # here) again every 30 or 40 ms: a press, and then the button held
    # (REPEAT every 120 ms after 400 ms), not a press per character
    got = _typed(run_mpy, tmp_path, _autorepeat(_ARROW_DOWN, 500, every, 1600), 2000, steps)
    assert got[:2] == ["PRESS DOWN", "PRESS DOWN"] and len(got) >= 2 + 5
    assert set(got[2:]) == {"REPEAT DOWN"}
    # h held: B held long, one hint; Backspace held: one press (its repeats
    # after the terminal's delay go on with it: test_enter_or_backspace_held...)
    assert _typed(run_mpy, tmp_path, _autorepeat(b"h", 500, every, 1600), 2500, steps) == ["LONG B"]
    got = _typed(run_mpy, tmp_path, _autorepeat(b"\x7f", 500, every, 1600), 2500, steps)
    assert got == ["PRESS B"]
    # once it repeats, its repeats that arrive two at a time (ssh: 33 ms
    # apart, sent in pairs) still hold it
    pairs = {t: _ARROW_DOWN * 2 for t in range(566, 1600, 66)}
    got = _typed(run_mpy, tmp_path, {**_autorepeat(_ARROW_DOWN, 500, every, 560), **pairs}, 2000)
    assert got[:2] == ["PRESS DOWN", "PRESS DOWN"] and set(got[2:]) == {"REPEAT DOWN"}


@pytest.mark.mpy
@pytest.mark.parametrize("steps", [(10,), (40,)], ids=["10ms", "40ms"])
def test_q_sent_with_the_keys_before_it_quits_after_them(run_mpy, tmp_path, steps):
    # keys that arrive together with q (typed while the app was busy) are
    # pressed first, then the sim quits (a new user's find: they were
    # dropped, and with them the round being typed); keys after q do nothing
    got = _typed(run_mpy, tmp_path, {100: _ARROW_DOWN * 3 + b"q\r"}, 3000, steps)
    assert got == ["PRESS DOWN"] * 3
    assert _typed(run_mpy, tmp_path, {100: b"q", 300: b"\r"}, 1000, steps) == []


@pytest.mark.mpy
def test_keys_typed_while_the_terminal_is_too_small_do_nothing(run_mpy, tmp_path):
    # the terminal too small for the screen says "enlarge the window": a
    # key typed then (Enter) is not pressed, nor later when the screen
    # shows again (it once opened a menu the player never saw); one typed
    # after is
    typed = {100: b"\r", 500: b"\x7f"}
    hidden = "lambda: not 50 <= t < 300"
    assert _typed(run_mpy, tmp_path, typed, 1000, shown=hidden) == ["PRESS B"]
    assert _typed(run_mpy, tmp_path, typed, 1000) == ["PRESS A", "PRESS B"]


@pytest.mark.mpy
def test_a_key_held_through_a_busy_step_stays_held(run_mpy, tmp_path):
    # the app busy 400 ms (the hint it was asked for, a computer move): the
    # key's repeats read together after it still hold the button, not a
    # press again (a second hint, a jump of the cursor)
    steps = [10] * 72 + [400] + [10] * 200  # reads every 10 ms but 720 to 1120
    hint = _typed(run_mpy, tmp_path, _autorepeat(b"h", 500, 30, 1600), 2500, steps)
    assert hint == ["LONG B"]
    got = _typed(run_mpy, tmp_path, _autorepeat(_ARROW_DOWN, 500, 30, 1600), 2500, steps)
    assert got[:2] == ["PRESS DOWN", "PRESS DOWN"] and set(got[2:]) == {"REPEAT DOWN"}
    # taps typed during the busy step: one press, as a board's buttons then
    taps = {0: _ARROW_DOWN, 800: _ARROW_DOWN, 900: _ARROW_DOWN, 1000: _ARROW_DOWN}
    assert _typed(run_mpy, tmp_path, taps, 1600, steps) == ["PRESS DOWN"] * 2
    # (when each was typed is not known: the same key several times in a row
    # is one press, a held key's repeats or taps; other keys between them,
    # which a terminal's repeat never sends, are presses of their own, in order)
    taps = {800: _ARROW_DOWN, 850: _ARROW_DOWN, 900: b"\r", 1000: _ARROW_DOWN}
    assert _typed(run_mpy, tmp_path, taps, 1600, steps) == ["PRESS DOWN", "PRESS A", "PRESS DOWN"]


@pytest.mark.mpy
@pytest.mark.parametrize("steps", [(10,), (40,), (10, 20, 10, 5)], ids=["10ms", "40ms", "uneven"])
@pytest.mark.parametrize("when", [0, 5], ids=["while_asleep", "between_reads"])
@pytest.mark.parametrize(
    "typed, want",
    [
        # the start menu: Down, Down, Enter opens the 3rd item (Settings)
        (_ARROW_DOWN + _ARROW_DOWN + b"\r", ["DOWN", "DOWN", "A"]),
        # Settings: Right changes the row, then Down moves (not Down first)
        (b"\x1b[C" + _ARROW_DOWN, ["RIGHT", "DOWN"]),
        (b"\r" + b"\x1b[A", ["A", "UP"]),
        (b"\x7f" + _ARROW_DOWN, ["B", "DOWN"]),  # (B's PRESS comes at its release)
        (b"h" + b"\x1b[D", ["LONG B", "LEFT"]),  # the hint, then the move
        (b"\x1b[D\x7f\x1b[D\r\r", ["LEFT", "B", "LEFT", "A", "A"]),
    ],
    ids=["down_down_enter", "right_down", "enter_up", "backspace_down", "h_left", "five"],
)
def test_keys_that_arrive_together_are_taps_in_the_order_typed(
    run_mpy, tmp_path, typed, want, when, steps
):
    # keys sent in one write (typed fast at launch, bundled by ssh or mosh):
    # Down Down Enter once opened the 2nd item (the two Downs one press), and
    # keys of different buttons were pressed together, their events in the
    # buttons' order (Down before Right): each is a press and its release,
    # one after another, in the order typed
    got = _typed(run_mpy, tmp_path, {when: typed}, 2500, steps, releases=True)
    events = []
    for n in want:
        button = n.split()[-1]
        events += [n if " " in n else "PRESS " + n, "RELEASE " + button]
    assert got == events
    # and the first key 5 ms before the others, read with them: the same
    first = typed[:3] if typed[:1] == b"\x1b" else typed[:1]
    got = _typed(run_mpy, tmp_path, {1: first, 6: typed[len(first) :]}, 2500, (10,), True)
    assert got == events


@pytest.mark.mpy
@pytest.mark.parametrize("every", [30, 40])
@pytest.mark.parametrize("delay", [250, 500, 660])
@pytest.mark.parametrize("steps", [(10,), (10, 20, 10, 15)], ids=["10ms", "uneven"])
@pytest.mark.parametrize(
    "key,event", [(b"\r", "PRESS A"), (b"\x7f", "PRESS B")], ids=["enter", "bs"]
)
def test_enter_or_backspace_held_is_one_press(run_mpy, tmp_path, key, event, steps, delay, every):
    # Enter held on New game: its first character a press, the terminal's
    # repeat after its delay a second one (a screen skipped). The repeat goes
    # on with the press the first character made: one press
    got = _typed(
        run_mpy, tmp_path, _autorepeat(key, delay, every, delay + 1200), delay + 2000, steps
    )
    assert got == [event]
    # held again later: one press again
    again = _autorepeat(key, delay, every, delay + 300)
    again.update({2000 + t: k for t, k in again.items()})
    assert _typed(run_mpy, tmp_path, again, 4000, steps) == [event] * 2


@pytest.mark.mpy
@pytest.mark.parametrize("steps", [(10,), (40,), (10, 20, 10, 5)], ids=["10ms", "40ms", "uneven"])
@pytest.mark.parametrize(
    "key,event", [(b"\r", "PRESS A"), (b"\x7f", "PRESS B")], ids=["enter", "bs"]
)
def test_enter_or_backspace_typed_again_after_a_pause_is_a_press(
    run_mpy, tmp_path, key, event, steps
):
    # typed again 200 to 700 ms later, as long as a terminal's delay before
    # its repeat: no repeat follows, so it is a press (a little late)
    taps = {0: key, 200: key, 450: key, 1100: key, 1400: key, 1490: key, 1600: b"\x1b[A"}
    got = _typed(run_mpy, tmp_path, taps, 2500, steps)
    assert got == [event] * 6 + ["PRESS UP"]


# --- the sim running an app --------------------------------------------------


def events(stdout):
    return [line.split(" ", 2)[2] for line in stdout.splitlines() if line.startswith("EV ")]


@pytest.mark.mpy
@pytest.mark.parametrize("compiled", [False, True], ids=["source", "mpy"])
def test_headless_demo_gets_keys_and_gives_frames(demo_dir, tmp_path, compiled):
    r = sim.run(
        keys="right right shot:two A long:B left shot:end",
        extra_path=[demo_dir],
        entry="demo_app",
        png_dir=tmp_path,
        capture=True,
        mpy_compiled=compiled,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert "demo sim 128 64 False" in r.stdout
    assert events(r.stdout) == [
        "PRESS RIGHT",
        "RELEASE RIGHT",
        "PRESS RIGHT",
        "RELEASE RIGHT",
        "PRESS A",
        "RELEASE A",
        "LONG B",
        "RELEASE B",
        "PRESS LEFT",
        "RELEASE LEFT",
    ]
    # one frame per change: start + one per event
    assert len(r.frames) == 11 and r.frames[0].mode == "mono_vlsb"
    assert [n for n, _ in r.shots] == ["two", "end"]
    # taps are 80 ms held + 80 ms up, long:B 800 + 80; the end 300 ms later
    # (reached at the app's next read: it polls every 10 ms)
    assert 100 + 4 * 160 + 880 + 300 <= r.end_ms < 100 + 4 * 160 + 880 + 300 + 15
    assert sorted(p.name for p in r.pngs) == ["end.png", "two.png"]
    W, H, rgb = png.read_png(tmp_path / "two.png")
    assert (W, H) == (512, 256)

    def px(x, y):  # screen pixel (x, y) of the 4x PNG
        i = ((y * 4 + 1) * W + x * 4 + 1) * 3
        return rgb[i : i + 3]

    ink, paper = bytes(png.INK), bytes(png.PAPER)
    assert px(16, 40) == ink and px(23, 47) == ink  # square moved right twice
    assert px(8, 40) == paper and px(24, 40) == paper
    _, _, rgb = png.read_png(tmp_path / "end.png")
    assert px(8, 40) == ink and px(16, 40) == paper  # and back left once


@pytest.mark.mpy
def test_headless_colour_mode(demo_dir, tmp_path):
    r = sim.run(
        "sim-colour",
        keys="right shot:one",
        extra_path=[demo_dir],
        entry="demo_app",
        png_dir=tmp_path,
        capture=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert "demo sim-colour 240 135 True" in r.stdout
    fr = r.shots[0][1]
    assert (fr.width, fr.height, fr.mode) == (240, 135, "rgb565")
    W, H, rgb = png.read_png(tmp_path / "one.png")
    assert (W, H) == (960, 540)
    i = ((41 * 4) * W + 9 * 4) * 3
    assert tuple(rgb[i : i + 3]) == (214, 24, 33)  # palette red (208, 24, 32) via RGB565
    i = ((100 * 4) * W + 100 * 4) * 3
    assert tuple(rgb[i : i + 3]) == (0, 89, 41)  # felt


@pytest.mark.mpy
def test_script_end_quits_an_app_that_never_sleeps(demo_dir, tmp_path):
    busy = tmp_path / "busy_app.py"
    busy.write_text(
        "import board\n"
        "d, b, c = board.setup()\n"
        "n = 0\n"
        "while True:\n"
        "    n += 1\n"
        "    if b.read():\n"
        "        print('held at', n)\n"
        "        break\n"
        "while True:\n"
        "    b.read()\n"
    )
    r = sim.run(keys="A", extra_path=[tmp_path], entry="busy_app", capture=True, timeout=30)
    assert r.returncode == 0
    assert "held at 100" in r.stdout  # 1 ms of virtual time per read: A at 100 ms
    assert r.end_ms == 100 + 160 + 300


@pytest.mark.parametrize(
    "args,message",
    [
        (["--keys", "right foo"], "key script: unknown key 'foo'"),
        (["--keys", "hold:A"], "key script: bad number in 'hold:A'"),
        (["--script", "/nonexistent/keys.txt"], "--script: No such file or directory"),
        (["--keys", "shot:x", "--scale", "0"], "--scale: 1 to 16 PNG"),
        # (a new user's --scale 1000: some 70 GB for one PNG)
        (["--keys", "shot:x", "--scale", "17"], "--scale: 1 to 16 PNG"),
        (["--keys", "A", "--timeout", "0"], "--timeout: a number of seconds above 0"),
        (["--keys", "A", "--flash", str(sim.ROOT / "README.md")], "is a file, not a folder"),
        (["--keys", "A", "--png-dir", str(sim.ROOT / "README.md")], "is a file, not a folder"),
        # board.py, board.json and the saves once landed among the sources
        (["--keys", "A", "--flash", str(sim.ROOT / "firmware")], "in the repository (firmware/)"),
        (["--keys", "A", "--flash", str(sim.ROOT / "boards" / "x")], "in the repository (boards/)"),
        (
            ["--keys", "A", "--flash", str(sim.ROOT / "host_tests")],
            "in the repository (host_tests/)",
        ),
        (["--keys", "A", "--flash", str(sim.ROOT / ".git")], "in the repository (.git/)"),
        (["--keys", "A", "--flash", str(sim.ROOT)], "in the repository's top folder"),
        # empty: --flash '' once played on the current folder (board.py left in it)
        (["--flash", ""], "argument --flash: an empty name: give a folder (. for this one)"),
        (["--keys", "A", "--flash="], "argument --flash: an empty name"),
        (["--keys", "A", "--png-dir", ""], "argument --png-dir: an empty name"),
        (["--script", ""], "argument --script: an empty name: give a file"),
        (["--keys", "A", "--path", ""], "argument --path: an empty name"),
        (["--keys", "A", "--entry", ""], "argument --entry: an empty name: give a module"),
    ],
)
def test_bad_arguments_are_one_line_errors(args, message, capsys):
    with pytest.raises(SystemExit) as e:
        sim.main(args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and message in err and "Traceback" not in err


def test_unwritable_folders_and_timeouts_are_one_line_errors(tmp_path, capsys):
    ro = tmp_path / "file"
    ro.write_text("")
    assert sim.main(["--keys", "A", "--flash", str(ro / "flash")]) == 2
    assert "Not a directory" in capsys.readouterr().err
    assert sim.main(["--keys", "wait:50000000", "--timeout", "1"]) == 124
    err = capsys.readouterr().err
    assert "did not end within 1 s;" in err and "--timeout" in err


def test_a_full_flash_folder_is_one_line_naming_it_and_leaves_no_lock(
    tmp_path, capsys, monkeypatch
):
    # a flash folder on a full disk: `No space left on device: None` (os.write
    # names no file), and the lock file left empty behind
    flash = tmp_path / "T"
    no_space = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def full(*args, **kwargs):
        raise no_space

    args = ["--flash", str(flash), "--keys", "wait:100", "--png-dir", str(tmp_path / "png")]
    with monkeypatch.context() as m:
        m.setattr(os, "write", full)  # the lock's pid
        assert sim.main(args) == 2
    assert capsys.readouterr().err == f"scopa-sim: {flash}: No space left on device\n"
    assert list(flash.iterdir()) == []
    with monkeypatch.context() as m:
        m.setattr(sim.shutil, "copyfile", full)  # the lock written, then board.py
        assert sim.main(args) == 2
    assert capsys.readouterr().err == f"scopa-sim: {flash}: No space left on device\n"
    assert list(flash.iterdir()) == []


NEW_FLASH = (
    ": no such folder, so made: a new, empty flash (no saved game, settings or score "
    "sheet); check the name if you meant another one"
)


def test_a_flash_folder_that_does_not_exist_is_made_and_said(demo_dir, tmp_path, capsys):
    # --flash with a name mistyped made a new, empty device without a word:
    # the game meant seemed lost
    flash = tmp_path / "buidl" / "sim-flash"
    args = ["--keys", "wait:100", "--entry", "demo_app", "--path", str(demo_dir)]
    args += ["--flash", str(flash), "--png-dir", str(tmp_path / "png")]
    assert sim.main(args) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"scopa-sim: --flash {flash}{NEW_FLASH}"
    assert (flash / "board.py").exists()  # (the demo's quit.txt beside it)
    assert sim.main(args) == 0  # there now: not a word
    assert "no such folder" not in capsys.readouterr().err


@pytest.mark.mpy
def test_play_says_a_flash_folder_was_made_and_not_its_own(tmp_path):
    play = str(mpy.ROOT / "tools" / "play")
    run = dict(cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    args = ["--keys", "wait:100", "--png-dir", "png"]
    proc = subprocess.run([play, "--flash", "typo", *args], **run)
    assert proc.returncode == 0, proc.stderr
    assert f"scopa-sim: --flash typo{NEW_FLASH}" in proc.stderr.splitlines()
    proc = subprocess.run([play, "--flash", "typo", *args], **run)
    assert proc.returncode == 0 and "no such folder" not in proc.stderr


def test_play_with_an_empty_flash_folder_name_is_a_usage_error(tmp_path):
    # tools/play --flash '' played on the repository's folder (board.py and
    # board.json left there; removed here if this test made them)
    left = [mpy.ROOT / name for name in ("board.py", "board.json", "sim.lock")]
    before = [p.exists() for p in left]
    try:
        for args in (["--flash", ""], ["--flash="]):
            proc = subprocess.run(
                [str(mpy.ROOT / "tools" / "play"), *args, "--keys", "wait:100"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert proc.returncode == 2
            assert "scopa-sim: error: argument --flash: an empty name" in proc.stderr
            assert "Traceback" not in proc.stderr and not proc.stdout.strip()
        assert [p.exists() for p in left] == before
    finally:
        for p, was in zip(left, before):
            if not was and p.exists():
                p.unlink()


def test_firmware_stopped_by_a_signal_is_one_line(tmp_path):
    import store

    assert sim.firmware_stopped(9) == (
        "the firmware stopped: killed by signal 9 (SIGKILL); its saves were on a temporary "
        "flash folder, now removed (--flash DIR keeps them between runs)"
    )
    f = str(tmp_path)
    assert sim.firmware_stopped(15, f).endswith(f"(SIGTERM); on {f}: nothing saved yet")
    (tmp_path / "sheet.sav").write_text("x")  # damaged: no save (it was "saved")
    assert sim.firmware_stopped(15, f).endswith(f"(SIGTERM); on {f}: nothing saved yet")
    store.save("settings.sav", {"lang": 1}, f)  # (it said "nothing saved yet")
    assert sim.firmware_stopped(15, f).endswith(
        f"on {f}: the settings saved, no game or score sheet yet"
    )
    store.save("sheet.sav", {"v": 2}, f)  # killed in the scorekeeper: not "the game"
    assert sim.firmware_stopped(15, f).endswith(
        f"on {f}: the score sheet up to the last round saved"
    )
    store.save("game.sav.bak", {"code": "x"}, f)  # a .bak alone (main removed): saved
    assert sim.firmware_stopped(15, f).endswith(
        f"on {f}: the game up to the last play and the score sheet up to the last round saved"
    )


def test_help_lists_the_keys(capsys):
    with pytest.raises(SystemExit) as e:
        sim.main(["--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    for key in ("Enter", "Backspace", "h ", "q ", "arrows", "long:B", "shot:NAME"):
        assert key in out, key


@pytest.mark.parametrize("size", ["abc", "1K", "12", "-5K"])
def test_a_bad_heapsize_is_one_line(size, capsys):
    with pytest.raises(SystemExit) as e:
        sim.main(["--keys", "A", "--heapsize", size])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--heapsize" in err and "Traceback" not in err


@pytest.mark.mpy
def test_a_heap_too_small_for_the_app_is_one_line(capsys):
    # a line, not a usage error with the whole usage text
    assert sim.main(["--keys", "A", "--heapsize", "24K"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("scopa-sim: the firmware ran out of memory in a heap of 24K")
    assert "Traceback" not in err and "usage" not in err and err.count("\n") == 1


SHORT_APP = """\
# A frame, a while for the script's shot, then the heap runs out.
import board

display, buttons, clock = board.setup()
display.fill(1)
display.show()
for _ in range(60):
    buttons.read()
    clock.sleep_ms(10)
raise MemoryError
"""


@pytest.mark.mpy
def test_the_shots_before_the_heap_ran_out_are_written(tmp_path, capsys):
    # the firmware out of memory: every PNG of the run was lost
    (tmp_path / "short_app.py").write_text(SHORT_APP)
    args = ["--entry", "short_app", "--path", str(tmp_path), "--png-dir", str(tmp_path / "png")]
    assert sim.main(["--keys", "wait:300 shot:before wait:2000", *args]) == 3
    err = capsys.readouterr().err
    assert (tmp_path / "png" / "before.png").exists()
    assert "wrote" in err and "the firmware ran out of memory" in err.splitlines()[-1]


def test_a_long_keys_line_is_read_a_token_at_a_time():
    # the board reads a script a line at a time: a long --keys line was
    # one list of every token in the firmware's heap (300 taps ran a
    # 150K heap out); comments stay comments
    assert sim._one_a_line("A  wait:100 # a note\nright*2,B") == "A\nwait:100\nright*2,B\n"


def test_an_entry_module_that_is_not_there_is_a_usage_error(tmp_path, capsys):
    # it ran, printed MicroPython's traceback, then "end at None ms"
    with pytest.raises(SystemExit) as e:
        sim.main(["--keys", "A", "--entry", "nonexist", "--path", str(tmp_path)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--entry nonexist: no such module" in err
    assert "Traceback" not in err


def test_a_shots_folder_that_cannot_be_made_stops_before_the_play(tmp_path, capsys):
    # it played the whole key script (here: until the timeout), then failed
    (tmp_path / "file").write_text("")
    args = ["--keys", "wait:50000000", "--timeout", "5", "--png-dir"]
    assert sim.main([*args, str(tmp_path / "file" / "shots")]) == 2
    err = capsys.readouterr().err
    assert err == f"scopa-sim: {tmp_path / 'file' / 'shots'}: Not a directory\n"


@pytest.mark.parametrize("how", ["play", "scopa-sim"])
def test_a_stdin_that_is_no_terminal_is_one_line_and_exit_2(demo_dir, tmp_path, how):
    # tools/play < /dev/null once drew escapes to no one and ended with 0:
    # it says why it cannot play, before anything is drawn
    if how == "play":
        cmd = [str(mpy.ROOT / "tools" / "play"), "--flash", str(tmp_path / "flash")]
    else:
        cmd = [sys.executable, str(mpy.ROOT / "tools" / "sim.py")]
    cmd += ["--path", str(demo_dir), "--entry", "demo_app"]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.decode().splitlines() == [
        "scopa-sim: stdin is not a terminal; use .venv/bin/scopa-sim --keys ... "
        "(or --script FILE) for scripted play"
    ]
    assert b"\x1b" not in proc.stdout + proc.stderr  # nothing drawn
    assert not proc.stdout.strip()  # (nor tools/play's line about a game saved)


def test_a_temporary_folder_too_long_for_the_unix_port_is_said(tmp_path):
    # the unix port stops at once ("FATAL: uncaught NLR") on an argument or
    # a MICROPYPATH folder of more than 255 bytes: with a TMPDIR that long
    # the simulator said only that, and a new user could not tell why
    deep = tmp_path / ("d" * 120) / ("e" * 120)
    deep.mkdir(parents=True)
    cmd = [sys.executable, str(mpy.ROOT / "tools" / "sim.py"), "--headless", "--keys", "A"]
    env = dict(os.environ, TMPDIR=str(deep))
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "FATAL" not in proc.stderr
    said = proc.stderr.splitlines()[-1]
    assert said.startswith("scopa-sim: error: MicroPython's unix port takes paths of at most 255")
    assert f"the temporary folder (TMPDIR) {deep} makes one of " in said
    # (--flash does not help: the runner is in TMPDIR too; a new user's find)
    assert said.endswith(": set TMPDIR to a shorter folder")
    assert not any(deep.iterdir())  # nothing made there
    # the same through a link of a short name: the message names TMPDIR
    # still (a reviewer's find: "the folder .../scopa_sim_xxxxxxxx/flash")
    link = tmp_path / "tmp"
    link.symlink_to(deep)
    env["TMPDIR"] = str(link)
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert f"the temporary folder (TMPDIR) {link} makes one of " in proc.stderr
    # the same folder as --flash, TMPDIR short again
    flash = deep / "flash"
    proc = subprocess.run(
        cmd + ["--flash", str(flash)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2, proc.stderr
    assert f"and --flash {flash} makes one of " in proc.stderr
    assert proc.stderr.rstrip().endswith(": give --flash a shorter folder")
    assert not flash.exists()


def _play(*args, cwd=mpy.ROOT):
    # tools/play with `args`, no terminal, run from `cwd` (the repository's
    # folder: what the README types)
    return subprocess.run(
        [str(mpy.ROOT / "tools" / "play"), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.mark.mpy
def test_play_says_the_game_is_saved_only_when_it_is(tmp_path):
    def play(*args, flash="flash"):
        proc = _play("--flash", str(tmp_path / flash), *args)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.splitlines()[-1]

    png_dir = ("--png-dir", str(tmp_path / "png"))
    assert play("--keys", "wait:300", *png_dir) == "tools/play: the simulator has stopped."
    assert not (tmp_path / "flash" / "game.sav").exists()  # the menu only: no game
    last = play("--keys", "A A A wait:300", *png_dir)
    assert (tmp_path / "flash" / "game.sav").exists()
    # (a --flash of its own: what resumes it says so, not plain tools/play;
    # run from the repository's folder, tools/play as the README has it)
    flash = tmp_path / "flash"
    assert last.endswith(f"the game is saved on its flash (tools/play --flash {flash} resumes it).")
    # the scorekeeper's sheet, no game: not "the simulator has stopped." alone
    last = play("--keys", "down A A wait:300", *png_dir, flash="sheet")
    # (and what resumes it, as for a game: the device opens where it was left)
    assert last == (
        "tools/play: the simulator has stopped; the score sheet is saved on its flash "
        f"(tools/play --flash {tmp_path / 'sheet'} resumes it)."
    )
    # a game and a sheet: what resumes is where it was left (it said "the
    # game" when the scorekeeper's round was what reopened)
    both = tmp_path / "both"
    shutil.copytree(tmp_path / "flash", both)
    shutil.copy(tmp_path / "sheet" / "sheet.sav", both)
    last = play("--keys", "wait:300", *png_dir, flash="both")
    assert last == (
        "tools/play: the simulator has stopped; the game and the score sheet are saved on its "
        f"flash (tools/play --flash {both} resumes where it was left)."
    )
    # a damaged sheet the run did not open is no save (it said "saved")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "sheet.sav").write_bytes(b"junk")
    last = play("--keys", "wait:300", *png_dir, flash="bad")
    assert last == "tools/play: the simulator has stopped."


@pytest.mark.mpy
def test_play_names_a_command_that_resumes_from_anywhere(tmp_path):
    # run from another folder with a relative --flash, the line said
    # "tools/play --flash rel dir": a path that pasted there named nothing
    # and a space that split it (a new user's find)
    proc = _play(
        "--flash",
        "rel dir",
        "--keys",
        "A A A wait:300",
        "--png-dir",
        str(tmp_path / "png"),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    flash = str(tmp_path / "rel dir").replace(" ", "\\ ")
    play = str(mpy.ROOT / "tools" / "play").replace(" ", "\\ ")
    assert proc.stdout.splitlines()[-1].endswith(f"({play} --flash {flash} resumes it).")


def _play_signalled(tmp_path, sig):
    """tools/play's simulator sent `sig` once the game is saved: (the
    flash folder, tools/play's exit status, stdout, stderr)."""
    flash = tmp_path / "flash"
    proc = subprocess.Popen(
        [str(mpy.ROOT / "tools" / "play"), "--flash", str(flash), "--keys", "A A A wait:50000000"]
        + ["--png-dir", str(tmp_path / "png")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=mpy.ROOT,
    )
    try:
        deadline = time.monotonic() + 60
        while not (flash / "game.sav").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        sim = _children(proc.pid)  # (tools/play's: the simulator)
        assert len(sim) == 1 and (flash / "game.sav").exists()
        os.kill(sim[0], sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return flash, proc.returncode, out, err


@pytest.mark.mpy
def test_play_tells_a_sigterm_from_a_crash(tmp_path):
    # the simulator ended by SIGTERM (a kill, as the README lists it: its
    # saves written) was "the simulator crashed (exit 143)"
    flash, rc, out, err = _play_signalled(tmp_path, signal.SIGTERM)
    assert rc == 143, err
    assert out.splitlines()[-1] == (
        "tools/play: the simulator has stopped; the game is saved on its flash "
        f"(tools/play --flash {flash} resumes it)."
    )


@pytest.mark.mpy
def test_play_says_a_kill_on_a_line_of_its_own(tmp_path):
    # the simulator killed (kill -9) was "the simulator crashed (exit
    # 137)", after bash's own "tools/play: line N: 9269 Killed ..." glued
    # to the keys' row
    flash, rc, out, err = _play_signalled(tmp_path, signal.SIGKILL)
    assert rc == 137, err
    assert "Killed" not in err, err
    assert out.splitlines()[-2:] == [
        "",
        "tools/play: the simulator was killed by signal 9 (SIGKILL); the game is saved on its "
        f"flash, {flash} (tools/play --flash {flash} resumes it).",
    ]


@pytest.mark.mpy
def test_play_tells_a_heap_too_small_from_a_crash(tmp_path):
    # a --heapsize too small for the firmware (exit 3, said by scopa-sim
    # with the heap it needs) was "the simulator crashed (exit 3)"
    proc = _play(
        "--flash",
        str(tmp_path / "flash"),
        "--mpy",
        "--heapsize",
        "64K",
        "--keys",
        "A A A wait:300",
        "--png-dir",
        str(tmp_path / "png"),
    )
    assert proc.returncode == 3, proc.stderr
    assert "ran out of memory in a heap of 64K" in proc.stderr
    assert proc.stdout.splitlines()[-1] == "tools/play: the firmware ran out of memory (exit 3)."


@pytest.mark.mpy
def test_play_tells_a_timeout_from_a_crash(tmp_path):
    # a key script past --timeout (exit 124, said by scopa-sim) was "the
    # simulator crashed (exit 124)"
    proc = _play(
        "--flash",
        str(tmp_path / "flash"),
        "--keys",
        "wait:50000000",
        "--timeout",
        "1",
        "--png-dir",
        str(tmp_path / "png"),
    )
    assert proc.returncode == 124, proc.stderr
    assert proc.stdout.splitlines()[-1] == (
        "tools/play: the key script ran past its --timeout (exit 124)."
    )


CRASH_APP = """\
# The real app, with a bug's stand-in: it crashes once its game is saved.
import os

import app

step = app.App.step


def crashing(self):
    try:
        os.stat("game.sav")
    except OSError:
        return step(self)
    raise RuntimeError("boom")


app.App.step = crashing
app.main()
"""


@pytest.mark.mpy
def test_play_tells_a_crash_from_a_stop_and_says_what_is_saved(tmp_path):
    # a crashed simulator ended as a stop ("has stopped"), or with exit
    # status 2 as no game at all, not a word of the game saved
    (tmp_path / "crash_app.py").write_text(CRASH_APP)
    flash = tmp_path / "flash"
    proc = _play(
        "--flash",
        str(flash),
        "--keys",
        "A A A wait:300",
        "--entry",
        "crash_app",
        "--path",
        str(tmp_path),
        "--png-dir",
        str(tmp_path / "png"),
    )
    assert proc.returncode == 1, proc.stderr
    assert (flash / "game.sav").exists()
    # the traceback (the unix port's, on stdout), then its last line and
    # what the flash kept
    out = proc.stdout.splitlines()
    assert "Traceback (most recent call last):" in out and "RuntimeError: boom" in out
    assert proc.stderr.splitlines()[-1] == (
        f"scopa-sim: the firmware crashed: RuntimeError: boom; on {flash}: "
        "the game up to the last play saved"
    )
    # (it said "the simulator crashed" under scopa-sim's "the firmware crashed")
    assert out[-1] == (
        "tools/play: the simulator stopped on what it said above (exit 1); the game is saved "
        f"on its flash, {flash} "
        f"(tools/play --flash {flash} resumes it)."
    )


@pytest.mark.mpy
def test_play_says_the_settings_alone_are_saved_after_a_crash(tmp_path):
    # only settings.sav on the flash: "nothing was saved" (a new user's find)
    import store

    (tmp_path / "crash_now.py").write_text(
        "import app\n\ndef crashing(self):\n    raise RuntimeError('boom')\n\n"
        "app.App.step = crashing\napp.main()\n"
    )
    flash = tmp_path / "flash"
    flash.mkdir()
    store.save("settings.sav", {"lang": 0}, str(flash))
    proc = _play(
        "--flash", str(flash), "--keys", "A wait:300", "--entry", "crash_now",
        "--path", str(tmp_path), "--png-dir", str(tmp_path / "png"),
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines()[-1].endswith(
        f"on {flash}: the settings saved, no game or score sheet yet"
    )
    assert proc.stdout.splitlines()[-1] == (
        "tools/play: the simulator stopped on what it said above (exit 1); the settings are "
        "saved on its flash, no game or score sheet."
    )


def test_an_error_of_the_simulators_own_mid_game_is_a_crash_not_a_usage_error(
    demo_dir, tmp_path, monkeypatch, capsys
):
    # a ValueError or OSError of tools/sim.py once the firmware had started
    # was "scopa-sim: error: ..." with the usage, exit status 2: no game
    # ran, for tools/play
    def broken(lines):
        raise ValueError("a bug")

    monkeypatch.setattr(sim, "parse_frames", broken)
    flash = tmp_path / "flash"
    args = ["--keys", "wait:100", "--entry", "demo_app", "--path", str(demo_dir)]
    assert sim.main([*args, "--flash", str(flash), "--png-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "usage:" not in err and "ValueError: a bug" in err.splitlines()
    assert err.splitlines()[-1] == (
        f"scopa-sim: the simulator crashed: ValueError: a bug; on {flash}: nothing saved yet"
    )


@pytest.mark.mpy
def test_play_takes_paths_from_where_it_is_run(tmp_path):
    # tools/play worked from the repository: a relative --png-dir landed in
    # it, and --help ended with "the simulator has stopped"
    play = str(mpy.ROOT / "tools" / "play")
    run = dict(cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    proc = subprocess.run(
        [play, "--flash", "fl", "--keys", "shot:one", "--png-dir", "shots"], **run
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "fl").is_dir() and [p.name for p in (tmp_path / "shots").iterdir()]
    assert not (mpy.ROOT / "shots").exists() and not (mpy.ROOT / "fl").exists()
    proc = subprocess.run([play, "--help"], **run)
    assert proc.returncode == 0 and "stopped" not in proc.stdout


# --- interactive, in a pseudo-terminal ---------------------------------------


def _read_until(fd, needle, timeout=10.0):
    buf = b""
    end = time.monotonic() + timeout
    while needle not in buf:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{needle!r} not in output: {buf[-2000:]!r}")
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: no process holds the terminal any more
                chunk = b""
            if not chunk:
                raise AssertionError(f"the output ended before {needle!r}: {buf[-2000:]!r}")
            buf += chunk
    return buf


@pytest.mark.mpy
def test_colour_half_blocks_three_times_smaller_are_block_means(run_mpy):
    out = run_board(
        run_mpy,
        """
import framebuf
from ui.palette import rgb565
buf = bytearray(2 * 4 * 7)  # 4 x 7 RGB565: 2 x 3 pixels three times smaller
fb = framebuf.FrameBuffer(buf, 4, 7, framebuf.RGB565)
fb.fill(rgb565(255, 255, 255))
fb.fill_rect(0, 0, 3, 3, rgb565(0, 0, 0))
fb.pixel(1, 1, rgb565(255, 255, 255))  # one white in nine: 1/9 grey
fb.fill_rect(0, 3, 3, 3, rgb565(255, 0, 0))
for row in board.render_rgb565(buf, 4, 7, 3):
    print(row.replace("\x1b", "ESC"))
""",
    )
    rows = out.splitlines()
    assert len(rows) == 2  # ceil(ceil(7 / 3) / 2)
    # top = the 3 x 3 block's mean (31 // 9 = 3 of 31, 63 // 9 = 7 of 63), bottom = red;
    # the blocks clipped at the right (1 x 3) and at the bottom (3 x 1, 1 x 1): white
    assert rows[0] == (
        "ESC[38;2;24;28;24mESC[48;2;255;0;0m▀ESC[38;2;255;255;255mESC[48;2;255;255;255m▀ESC[0m"
    )
    assert rows[1] == "ESC[48;2;0;0;0m▀▀ESC[0m".replace("ESC[48", "ESC[38;2;255;255;255mESC[48")


@pytest.mark.mpy
@contextlib.contextmanager
def _sim_in_pty(demo_dir, rows, cols, env=None, args=()):
    """tools/sim.py running the demo app in a new pseudo-terminal of
    `rows` x `cols`: yields (master fd, slave fd, process, the terminal's
    settings before the run); at the end the process is killed if it still
    runs and both fds are closed."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen(
        [sys.executable, str(mpy.ROOT / "tools" / "sim.py"), "--path", str(demo_dir)]
        + ["--entry", "demo_app", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        env=env,
        # as a terminal starts it: Ctrl-C not ignored (a shell's background
        # job, such as a CI run started with &, ignores SIGINT, and what it
        # starts inherits that: a SIGINT to the simulator then did nothing)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        yield master, slave, proc, before
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for fd in (master, slave):
            try:
                os.close(fd)
            except OSError:  # (closed by the test: the window closed)
                pass


def _quit(master, proc):
    """`q`: the cursor shown again (the terminal given back), exit status 0;
    returns what was read."""
    os.write(master, b"q")
    out = _read_until(master, b"\x1b[?25h")
    assert proc.wait(10) == 0
    return out


def _settings(fd):
    """Every setting of the terminal `fd`: `stty -a` (c_line as `line =`
    included) and the kernel's whole struct termios (TCGETS)."""
    stty = subprocess.run(["stty", "-a"], stdin=fd, capture_output=True, text=True, check=True)
    return stty.stdout, fcntl.ioctl(fd, termios.TCGETS, bytes(64))


def test_interactive_in_a_terminal(demo_dir):
    with _sim_in_pty(demo_dir, 40, 140) as (master, slave, proc, before):
        settings = _settings(slave)
        out = _read_until(master, "arrows: move".encode())
        assert "\x1b[97;40m".encode() in out and "▀".encode() in out
        # the firmware's console (print) is not drawn over its screen: it
        # is said after the run, the terminal given back (below)
        assert b"demo sim" not in out
        assert {"-icanon", "-echo"} <= set(_settings(slave)[0].split())  # the sim's mode
        os.write(master, b"\x1b[C")  # right arrow
        _read_until(master, b"PRESS RIGHT")
        os.write(master, b"\r")  # Enter = A
        _read_until(master, b"PRESS A")
        os.write(master, b"\x7f")  # Backspace = B (PRESS at the release)
        _read_until(master, b"PRESS B")
        os.write(master, b"h")  # B held long
        _read_until(master, b"LONG B")
        os.write(master, b"\x1b\r")  # a lone Esc does not swallow the key after it
        _read_until(master, b"PRESS A")
        out = _quit(master, proc)
        out += os.read(master, 65536) if select.select([master], [], [], 1)[0] else b""
        assert b"demo sim" not in out  # (a stop: its screen said what it had to)
        after = termios.tcgetattr(slave)
        settings_after = _settings(slave)
    assert after[3] == before[3]  # lflag (ICANON, ECHO) restored
    assert after[0] == before[0]
    assert settings_after[0] == settings[0]  # every field of `stty -a`, `line = 0` too
    assert settings_after[1] == settings[1]  # the whole struct termios


def test_a_crash_in_a_terminal_says_its_console_below_the_screen(demo_dir):
    # the firmware's prints and traceback landed on the screen drawn (a
    # line of "app: low memory" over the cards); now they are kept apart
    # and, after a crash, said once the terminal is given back
    env = dict(os.environ, DEMO_CRASH="1")
    with _sim_in_pty(demo_dir, 40, 140, env) as (master, slave, proc, _):
        out = _read_until(master, "arrows: move".encode())
        assert b"demo sim" not in out
        os.write(master, b"\x1b[D")  # left: the demo's crash
        out = _read_until(master, b"scopa-sim: the firmware crashed")
        assert proc.wait(10) == 1
    said = out[out.index(b"\x1b[?25h") :]  # once the terminal is given back
    assert said.index(b"demo sim 128 64 False") < said.index(b"RuntimeError: boom")
    assert said.index(b"RuntimeError: boom") < said.index(b"scopa-sim: the firmware crashed")


def test_a_crash_after_a_flood_of_prints_says_its_last_lines(demo_dir, tmp_path):
    # the console was a file in the run's folder, read whole after a crash:
    # a runaway print loop filled the disk and the memory. Now only its last
    # 30 lines are kept
    env = dict(os.environ, DEMO_CRASH="5000", TMPDIR=str(tmp_path), DEMO_TMP=str(tmp_path))
    with _sim_in_pty(demo_dir, 40, 140, env) as (master, slave, proc, _):
        _read_until(master, "arrows: move".encode())
        os.write(master, b"\x1b[D")  # left: the flood, then the crash
        out = _read_until(master, b"scopa-sim: the firmware crashed")
        assert proc.wait(10) == 1
    # (the flood is 62 KB: the run's own files only, 8 KB)
    assert 0 < int(re.search(rb"TMP (\d+) BYTES", out)[1]) < 30000
    said = out[out.index(b"\x1b[?25h") : out.index(b"scopa-sim: the firmware crashed")]
    lines = said.decode().split("\r\n")[1:-1]
    assert len(lines) == 30 and lines[-1] == "RuntimeError: boom", lines
    assert "flood 4990 " in lines and "flood 4900 " not in lines and "demo sim" not in said.decode()
    assert not list(tmp_path.iterdir())  # nothing left behind


def test_a_default_80x24_terminal_plays_in_braille_then_resizes(demo_dir):
    with _sim_in_pty(demo_dir, 24, 80) as (master, slave, proc, _):
        out = _read_until(master, "arrows: move".encode())
        text = out.decode("utf-8", "replace")
        assert any(0x2801 <= ord(c) <= 0x28FF for c in text)  # dots drawn
        assert "▀" not in text and "▄" not in text
        assert max(len(line) for line in text.split("\n") if "\u2800" in line) < 80 + 20
        # every row erased to its end: a line the app printed (its menu line,
        # 72 characters) does not stay beside the 64 columns of braille
        rows = text.rsplit("\x1b[H", 1)[1].split("\r\n")
        assert len(rows) > 16 and all(r.endswith("\x1b[K") for r in rows[:-1])
        os.write(master, b"\x1b[C")
        _read_until(master, b"PRESS RIGHT")  # it plays
        # larger: half blocks; too small: it says what it needs
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
        os.kill(proc.pid, signal.SIGWINCH)
        _read_until(master, "▀".encode())
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 10, 40, 0, 0))
        os.kill(proc.pid, signal.SIGWINCH)
        # what it needs, and the keys' line, shorter: whole in 40 columns
        out = _read_until(master, b"q:quit")
        assert b"the screen needs 128x33 (or 64x17)" in out
        assert b"arrows Enter:A Bksp:B h:hint q:quit" in out
        _quit(master, proc)


def test_a_resize_during_a_resize_writes_the_latest_size(tmp_path, monkeypatch):
    # a window edge dragged: SIGWINCH arrives while its handler still writes
    # the last size (tools/sim.py _write_winsize, nested). It once crashed
    # the sim (the inner call renamed winsize.new away) or left the size
    # read first: the size written last is the latest
    path = tmp_path / "winsize"
    sizes = [(80, 24)]

    def term_size():
        size = sizes[-1]
        if len(sizes) == 1:
            sizes.append((130, 40))  # the window changes, its signal comes now
            sim._write_winsize(path, 2)
        return size

    monkeypatch.setattr(sim, "_term_size", term_size)
    monkeypatch.setattr(sim, "_winsize_state", [False, False, 0], raising=False)
    sim._write_winsize(path, 1)
    assert path.read_text() == "130 40 2"
    assert not (tmp_path / "winsize.new").exists()


# A shell with job control, the least of one: the terminal on its stdin
# becomes its controlling terminal, the command runs in its own process group
# in the foreground; at a stop it takes the terminal back and writes
# `STOPPED` on the fd of its 2nd argument, then waits for a line `fg` on the
# fd of its 1st to continue the job in the foreground; at the end it writes
# `EXIT <status>`.
JOB_SHELL = """\
import fcntl, os, signal, sys, termios
fcntl.ioctl(0, termios.TIOCSCTTY, 0)
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
orders, events, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.tcsetpgrp(0, os.getpgrp())
    signal.signal(signal.SIGTTOU, signal.SIG_DFL)
    os.execv(cmd[0], cmd)
try:
    os.setpgid(pid, pid)  # (as a shell does: the child does it too)
except PermissionError:
    pass  # the child has already set it and run its program
orders = os.fdopen(orders)
while True:
    _, st = os.waitpid(pid, os.WUNTRACED)
    if os.WIFSTOPPED(st):
        os.tcsetpgrp(0, os.getpgrp())
        os.write(events, b"STOPPED\\n")
        assert orders.readline().strip() == "fg"
        os.tcsetpgrp(0, pid)
        os.killpg(pid, signal.SIGCONT)
    else:
        os.write(events, b"EXIT %d\\n" % os.waitstatus_to_exitcode(st))
        break
"""


def _state(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


@pytest.mark.parametrize("stop", ["ctrl_z", "sigtstp_to_the_sim_alone"])
def test_ctrl_z_gives_the_terminal_back_and_fg_takes_it_again(demo_dir, stop):
    # Ctrl-Z (the terminal stops the foreground process group), or a SIGTSTP
    # sent to tools/sim.py alone: the terminal's settings as before the run
    # and the firmware stopped too; `fg`: the sim's mode again (a key acts at
    # once), the whole screen drawn again; at the end every setting as before.
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
    settings = _settings(slave)
    orders_r, orders_w = os.pipe()
    events_r, events_w = os.pipe()
    sim_cmd = [sys.executable, str(mpy.ROOT / "tools" / "sim.py"), "--path", str(demo_dir)]
    proc = subprocess.Popen(
        [sys.executable, "-c", JOB_SHELL, str(orders_r), str(events_w), *sim_cmd]
        + ["--entry", "demo_app"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        pass_fds=(orders_r, events_w),
    )
    os.close(orders_r)
    os.close(events_w)
    run = []
    try:
        _read_until(master, "arrows: move".encode())
        sim_pid = _children(proc.pid)[0]
        run = [sim_pid, *_children(sim_pid)]
        assert len(run) == 3, run  # tools/sim.py, the firmware, the guardian
        firmware = [p for p in run if b"micropython" in open(f"/proc/{p}/cmdline", "rb").read()]
        if stop == "ctrl_z":
            os.write(master, b"\x1a")
        else:
            os.kill(sim_pid, signal.SIGTSTP)
        _read_until(events_r, b"STOPPED")
        while _state(firmware[0]) != "T":  # (the stop reaches it a moment later)
            select.select([], [], [], 0.01)
        assert _state(sim_pid) == "T"
        guard = [p for p in run if p not in (sim_pid, *firmware)]
        assert _state(guard[0]) in "RS"  # the guardian waits on, in its own session
        stopped = _settings(slave)
        assert stopped == settings  # icanon echo, line = 0: as before the run
        os.write(master, b"\x1b[C")  # typed while stopped: waits in the terminal
        os.write(orders_w, b"fg\n")
        # the key acts, and the screen is drawn again whole (the cursor hidden
        # again, the screen cleared), in either order
        out = _read_until(master, b"PRESS RIGHT")
        redrawn = b"\x1b[?25l\x1b[H\x1b[J"
        if redrawn not in out:
            _read_until(master, redrawn)
        assert {"-icanon", "-echo"} <= set(_settings(slave)[0].split())
        os.write(master, b"\x1b[D")  # left, no Enter needed
        _read_until(master, b"PRESS LEFT")
        os.write(master, b"q")
        _read_until(events_r, b"EXIT 0")
        assert proc.wait(10) == 0
        after = _settings(slave)
    finally:
        for p in [proc.pid, *run]:
            if _alive(p):
                os.kill(p, 9)
        proc.wait()
        os.close(master)
        os.close(slave)
        os.close(orders_w)
        os.close(events_r)
    assert after == settings


def test_the_colour_board_asks_80x24_to_grow_and_plays_in_120x35_two_times_smaller(demo_dir):
    # 3 times smaller (80 x 46 pixels in 80 x 24) nothing could be read: the
    # colour board says what it needs, as the mono one below its braille
    with _sim_in_pty(demo_dir, 24, 80, args=("--board", "sim-colour")) as (master, slave, proc, _):
        out = _read_until(master, "arrows: move".encode())
        text = out.decode("utf-8", "replace")
        assert "240x69 characters at full size, 120x35 2 times smaller (any smaller is" in text
        assert "enlarge the window, or play without --board sim-colour (it fits 64x17)" in text
        frame = text.rsplit("\x1b[H", 1)[1]
        assert "the screen needs 240x69 (or 120x35, 2 times smaller)." in frame
        assert "Enlarge the window" in frame and "▀" not in frame
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 35, 120, 0, 0))
        os.kill(proc.pid, signal.SIGWINCH)
        out = _read_until(master, "▀".encode())
        if b"arrows: move" not in out.rsplit("▀".encode(), 1)[1]:
            out += _read_until(master, b"arrows: move")
        frame = out.decode("utf-8", "replace").rsplit("\x1b[H", 1)[1]
        lines = frame.split("\r\n")
        assert len(lines) == 35  # 34 rows of half blocks and the keys: no scrolling
        assert all(
            re.sub("\x1b\\[[0-9;]*[A-Za-z]", "", line).count("▀") == 120 for line in lines[:34]
        )
        assert "38;2;" in frame  # in colour
        os.write(master, b"\x1b[C")
        _read_until(master, b"PRESS RIGHT")  # it plays
        _quit(master, proc)


def _children(pid):
    """Pids of the live processes whose parent is `pid` (from /proc)."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(d))
    return out


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("killed", ["firmware", "sim", "firmware_then_sim"])
def test_sigkill_leaves_no_mess(demo_dir, tmp_path, killed):
    # SIGKILL of the firmware (in raw mode) and/or of tools/sim.py: the
    # terminal's settings are those from before the run, no process of the
    # run is left, no temporary folder either, nor (tools/sim.py killed as
    # the firmware runs: the guardian removes it) the flash folder's lock.
    env = dict(os.environ, TMPDIR=str(tmp_path))
    flash = tmp_path / "flash"
    args = ("--flash", str(flash)) if killed == "sim" else ()
    run = []
    with _sim_in_pty(demo_dir, 40, 140, env, args) as (master, slave, proc, before):
        settings = _settings(slave)
        try:
            _read_until(master, "arrows: move".encode())
            assert termios.tcgetattr(slave)[3] != before[3]  # the firmware's raw mode
            run = _children(proc.pid)  # the firmware and the guardian
            firmware = [p for p in run if b"micropython" in open(f"/proc/{p}/cmdline", "rb").read()]
            assert len(firmware) == 1 and len(run) == 2, run
            if args:
                assert (flash / "sim.lock").read_text().split() == [str(proc.pid)]
            said = b""
            if killed.startswith("firmware"):
                os.kill(firmware[0], 9)
                if killed == "firmware":
                    said = _read_until(master, b"now removed")  # one line says what happened
                    assert proc.wait(20) == 1  # (as a crash: not the sim's own kill)
            if killed.endswith("sim"):
                os.kill(proc.pid, 9)
                proc.wait(20)
            end = time.monotonic() + 20
            while any(_alive(p) for p in run) and time.monotonic() < end:
                try:
                    os.read(master, 65536) if select.select([master], [], [], 0.05)[0] else None
                except OSError:
                    break
            after = termios.tcgetattr(slave)
            settings_after = _settings(slave)
        finally:
            for p in run:  # (the sim itself: _sim_in_pty)
                if _alive(p):
                    os.kill(p, 9)
    assert not [p for p in run if _alive(p)]
    assert after[3] == before[3] and after[0] == before[0]  # lflag, iflag
    assert settings_after == settings  # every field, c_line (`line = 0`) too
    if killed == "firmware":
        # on a line of its own, not after the keys' help on the last row
        assert b"\nscopa-sim: " + sim.firmware_stopped(9).encode() in said
        assert b"Traceback" not in said
        # its console below, from a line of its own (it was "q:quitdemo sim")
        assert b"\x1b[?25h\ndemo sim 128 64" in said.replace(b"\r\n", b"\n"), said[-300:]
    assert not list(tmp_path.glob("scopa_sim_*"))
    if args:
        assert sorted(p.name for p in flash.iterdir()) == ["board.json", "board.py"]


@pytest.mark.parametrize("way", ["q", "ctrl_c", "sigint", "sigterm", "sighup"])
def test_one_simulator_at_a_time_on_a_flash_folder(demo_dir, tmp_path, capsys, way):
    # two simulators on one flash folder interleaved the saved game's journal:
    # the second one says whose the folder is and stops (exit 2) before it
    # touches anything; the first one's lock goes at every way out
    flash = tmp_path / "flash"
    lock = flash / "sim.lock"
    args = ("--flash", str(flash))
    with _sim_in_pty(demo_dir, 40, 140, args=args) as (master, slave, proc, before):
        _read_until(master, "arrows: move".encode())
        assert lock.read_text().split() == [str(proc.pid)]
        board_json = (flash / "board.json").read_text()
        shots = tmp_path / "w" / "x"  # (a new user's: left behind, empty)
        for board in ("sim-colour", "sim"):
            argv = ["--board", board, "--keys", "A", "--png-dir", str(shots), *args]
            assert sim.main(argv) == 2
            assert capsys.readouterr().err == (
                f"scopa-sim: {flash} is in use by another simulator (pid {proc.pid})\n"
            )
            assert not (tmp_path / "w").exists()
        assert (flash / "board.json").read_text() == board_json  # (not made sim-colour's)
        assert lock.read_text().split() == [str(proc.pid)]
        os.write(master, b"\x1b[C")
        _read_until(master, b"PRESS RIGHT")  # the first one plays on
        # (its frame drawn first: a SIGINT that cuts a write to the terminal
        # short can leave this unix port stuck, which is not what is tested)
        time.sleep(0.5)
        if way == "q":
            os.write(master, b"q")
        elif way == "ctrl_c":  # the terminal's Ctrl-C: SIGINT to its foreground group
            os.killpg(proc.pid, signal.SIGINT)
        elif way == "sigint":  # to tools/sim.py alone (`kill -INT`): it was killed after 2 s
            os.kill(proc.pid, signal.SIGINT)
        elif way == "sigterm":
            os.kill(proc.pid, signal.SIGTERM)
        else:  # the window closed
            os.killpg(proc.pid, signal.SIGHUP)
        _read_until(master, b"\x1b[?25h")  # the terminal given back
        code = {"q": 0, "ctrl_c": 130, "sigint": 130, "sigterm": 128 + 15, "sighup": 128 + 1}[way]
        assert proc.wait(20) == code
        after = termios.tcgetattr(slave)
    assert after[3] == before[3]
    # the firmware quit as by q (SIGTERM, SIGHUP: tools/sim.py asks it to;
    # SystemExit: the app writes what waits for a timed save), not killed.
    # (Ctrl-C: KeyboardInterrupt, when the SIGINT does not cut a write to
    # the terminal short, which can leave this unix port stuck: it is then
    # stopped after 2 s)
    if way != "ctrl_c":
        assert (flash / "quit.txt").read_text() == "SystemExit"
    (flash / "quit.txt").unlink(missing_ok=True)
    assert sorted(p.name for p in flash.iterdir()) == ["board.json", "board.py"]


def test_the_window_closed_quits_the_firmware_through_its_handlers(demo_dir, tmp_path):
    # the terminal gone (its window closed: the master closed, SIGHUP): the
    # firmware ends through the app's handlers (which write what waits for
    # a timed save), not killed (a tester's find: the round typed lost)
    mark = tmp_path / "mark"
    env = dict(os.environ, DEMO_MARK=str(mark))
    with _sim_in_pty(demo_dir, 40, 140, env) as (master, slave, proc, before):
        _read_until(master, "arrows: move".encode())
        os.write(master, b"\x1b[C")
        _read_until(master, b"PRESS RIGHT")
        os.close(master)
        os.killpg(proc.pid, signal.SIGHUP)
        assert proc.wait(20) == 128 + 1
    assert mark.read_text() in ("SystemExit", "KeyboardInterrupt", "OSError")


@pytest.mark.parametrize(
    "where, err, why",
    [
        ("sim.lock", "EROFS", "Read-only file system"),
        ("", "EROFS", "Read-only file system"),
        # a new user's: --flash /proc (a folder, but no file can be made in
        # it) said "/proc/sim.lock: No such file or directory" alone
        ("sim.lock", "ENOENT", "cannot be made (No such file or directory)"),
    ],
)
def test_a_read_only_flash_folder_says_what_the_simulator_needs(
    tmp_path, capsys, monkeypatch, where, err, why
):
    # a read-only --flash said "…/sim.lock: Read-only file system" alone,
    # where the README says a read-only flash plays on unsaved (on a board);
    # "": the folder itself (not made)
    import errno

    flash = tmp_path / "flash"
    flash.mkdir()
    path = flash / where if where else flash
    code = getattr(errno, err)

    def take(self, _flash):
        raise OSError(code, os.strerror(code), str(path))

    monkeypatch.setattr(sim.FlashLock, "_take", take)
    assert sim.main(["--keys", "A", "--flash", str(flash)]) == 2
    assert capsys.readouterr().err == (
        f"scopa-sim: {path}: {why}: the simulator writes its "
        "flash folder (board.py, its lock, the saves); give --flash a folder it can write\n"
    )


def test_a_flash_folder_that_cannot_be_made_says_so(tmp_path, capsys):
    # a new user's find: --flash /proc/x said "/proc/x: No such file or
    # directory" alone, not that the simulator had tried to make it
    flash = tmp_path / "file" / "flash"
    (tmp_path / "file").write_text("")
    assert sim.main(["--keys", "A", "--flash", str(flash)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"scopa-sim: --flash {flash}: no such folder, and it cannot be made (")
    assert not flash.exists()
    # (a reviewer's: a --png-dir that cannot be made is not the flash's fault)
    shots = tmp_path / "file" / "shots"
    new = tmp_path / "new"
    assert sim.main(["--keys", "A", "--png-dir", str(shots), "--flash", str(new)]) == 2
    assert capsys.readouterr().err == f"scopa-sim: {shots}: Not a directory\n"


def test_a_stale_flash_lock_is_taken_over_and_an_error_leaves_none(tmp_path, capsys):
    # a lock file whose simulator is gone (killed): taken over without a word
    flash = tmp_path / "flash"
    flash.mkdir()
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True
    )
    (flash / "sim.lock").write_text(gone.stdout.decode())
    args = ["--flash", str(flash), "--png-dir", str(tmp_path / "png")]
    assert sim.main(["--keys", "A", *args]) == 0
    err = capsys.readouterr().err
    assert "in use" not in err and "lock" not in err
    assert not (flash / "sim.lock").exists()
    # a run that ends in an error (a bad key script, found once the firmware
    # runs) leaves no lock behind either
    with pytest.raises(SystemExit) as e:
        sim.main(["--keys", "jump", *args])
    assert e.value.code == 2 and "unknown key 'jump'" in capsys.readouterr().err
    assert sorted(p.name for p in flash.iterdir()) == ["board.json", "board.py"]


# --- the real app ------------------------------------------------------------


@pytest.mark.mpy
@pytest.mark.parametrize("board", ["sim", "sim-colour"])
def test_real_app_start_menu(tmp_path, board):
    if not (mpy.FIRMWARE / "ui" / "menu.py").exists():
        pytest.skip("no start menu yet (firmware/ui/menu.py)")
    r = sim.run(board, keys="wait:300 shot:menu", png_dir=tmp_path, capture=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "Scopa" in r.stdout and f"on {board}" in r.stdout
    assert [n for n, _ in r.shots] == ["menu"]
    W, H, rgb = png.read_png(tmp_path / "menu.png")
    w, h = sim.SIZES[board]
    assert (W, H) == (w * 4, h * 4)
    colours = {rgb[i : i + 3] for i in range(0, len(rgb), 3 * 7)}
    assert len(colours) >= 2  # something is drawn
    fr = r.shots[0][1]
    assert any(fr.data) and fr.data != bytes([fr.data[0]]) * len(fr.data)
