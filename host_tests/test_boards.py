"""The board files under CPython with fake hardware modules.

Checks the wiring constants only: every board.py follows the contract
(NAME, WIDTH, HEIGHT, COLOUR, setup() -> (display, buttons, clock)), no
GPIO is used twice, all six buttons are mapped, the Pico-LCD-1.14 pins are
Waveshare's, the manifests name their board. No hardware is simulated
beyond recording which pins were made and what each button pin reads.
"""

import importlib.util
import json
import sys
import types

import pytest

import mpy
from ui import buttons as ui_buttons
from ui import pins as ui_pins

BOARDS = mpy.ROOT / "boards"
PICO_BOARDS = ["pico_ssd1306", "pico_lcd_114"]
SIX = (
    ui_buttons.UP,
    ui_buttons.DOWN,
    ui_buttons.LEFT,
    ui_buttons.RIGHT,
    ui_buttons.A,
    ui_buttons.B,
)
# RP2040 GPIOs brought out on the Pico's header.
PICO_GPIOS = set(range(0, 23)) | {26, 27, 28}

# Waveshare Pico-LCD-1.14 (wiki pinout and their MicroPython demo).
WAVESHARE_LCD_114 = {
    "SCK": 10,
    "MOSI": 11,
    "CS": 9,
    "DC": 8,
    "RST": 12,
    "BL": 13,
}
WAVESHARE_KEYS_114 = {
    ui_buttons.UP: [2],
    ui_buttons.DOWN: [18],
    ui_buttons.LEFT: [16],
    ui_buttons.RIGHT: [20],
    ui_buttons.A: [3, 15],  # joystick press and key A
    ui_buttons.B: [17],
}


class Hardware:
    """Fake `machine`, `ssd1306` and `Pico_LCD_114_V2` modules recording use."""

    def __init__(self):
        self.pins = {}  # gpio -> FakePin (last made)
        self.uses = []  # (gpio, what)
        self.i2c = []
        self.on_i2c = [0x3C]  # the addresses that answer a scan: the OLED
        self.modules = {}
        self.late = None  # a list: edges whose handlers run later (scheduled)
        self._build()

    def _build(self):
        hw = self

        class Pin:
            IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 1, 2
            IRQ_FALLING, IRQ_RISING = 4, 8

            def __init__(self, gpio, mode=-1, pull=None, value=None):
                self.gpio, self.mode, self.pull = gpio, mode, pull
                self.level = 1 if pull == Pin.PULL_UP else 0
                self.handler, self.trigger = None, 0
                hw.pins[gpio] = self

            def irq(self, handler=None, trigger=0):
                self.handler, self.trigger = handler, trigger

            def drive(self, level):
                """The button moves the line: the edge interrupt runs."""
                edge = self.IRQ_RISING if level > self.level else self.IRQ_FALLING
                changed = level != self.level
                self.level = level
                if changed and self.handler and self.trigger & edge:
                    if hw.late is not None:
                        hw.late.append(self)  # MicroPython runs it when it can
                    else:
                        self.handler(self)

            def value(self, v=None):
                if v is None:
                    return self.level
                self.level = v

            def __call__(self, v=None):
                return self.value(v)

        class I2C:
            def __init__(self, id, *, sda, scl, freq=400_000):
                hw.i2c.append((id, sda.gpio, scl.gpio, freq))
                hw.uses += [(sda.gpio, "I2C SDA"), (scl.gpio, "I2C SCL")]

            def scan(self):
                return list(hw.on_i2c)

        machine = types.ModuleType("machine")
        machine.Pin, machine.I2C = Pin, I2C

        class FrameBufferish:
            def show(self):
                pass

            def contrast(self, level):
                pass

            def poweroff(self):
                pass

            def poweron(self):
                pass

        class SSD1306_I2C(FrameBufferish):
            def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
                self.width, self.height, self.addr = width, height, addr

        ssd1306 = types.ModuleType("ssd1306")
        ssd1306.SSD1306_I2C = SSD1306_I2C

        class LCD_114:  # the mip driver's pins, as published
            WIDTH, HEIGHT = 240, 135
            DC, CS, RST, SCK, MOSI, BL = 8, 9, 12, 10, 11, 13

            def __init__(self):
                self.width, self.height = self.WIDTH, self.HEIGHT
                self.backlight = 25
                self.cmds = []
                self.buffer = bytearray(self.WIDTH * self.HEIGHT * 2)
                lcd = self
                lcd.lines = {"cs": 1, "dc": 1}

                def line(name):
                    return lambda v: lcd.lines.__setitem__(name, v)

                self.cs, self.dc = line("cs"), line("dc")

                class SPI:
                    baudrate = 10_000_000  # the driver's

                    def init(self, baudrate=None):
                        assert baudrate is not None, "only the rate changes"
                        self.baudrate = baudrate

                    def write(self, buf):
                        assert lcd.lines["cs"] == 0, "written with CS high"
                        if lcd.lines["dc"] == 0:
                            lcd.cmds.append(buf[0])
                        else:
                            lcd.cmds.append(buf if buf is lcd.buffer else bytes(buf))

                self.spi = SPI()
                for g, what in ((10, "SPI SCK"), (11, "SPI MOSI"), (9, "CS"), (8, "DC")):
                    hw.uses.append((g, what))
                hw.uses += [(12, "RST"), (13, "BL")]

            def set_backlight(self, rate):
                self.backlight = rate

            def write_cmd(self, cmd):
                self.cmds.append(cmd)

            def show(self):
                pass

        lcd = types.ModuleType("Pico_LCD_114_V2")
        lcd.LCD_114 = LCD_114
        self.modules = {"machine": machine, "ssd1306": ssd1306, "Pico_LCD_114_V2": lcd}


def load_board(name, monkeypatch):
    hw = Hardware()
    for mod_name, mod in hw.modules.items():
        monkeypatch.setitem(sys.modules, mod_name, mod)
    monkeypatch.setitem(sys.modules, "time", _fake_time(monkeypatch))
    spec = importlib.util.spec_from_file_location(f"board_{name}", BOARDS / name / "board.py")
    board = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(board)
    return board, hw


def _fake_time(monkeypatch):
    import time as real_time

    t = types.ModuleType("time")
    t.__dict__.update(real_time.__dict__)
    t.ticks_ms = lambda: int(real_time.monotonic() * 1000) & 0x3FFFFFFF
    t.ticks_diff = ui_buttons.ticks_diff
    t.ticks_add = lambda a, b: (a + b) & 0x3FFFFFFF
    t.sleep_ms = lambda ms: None
    return t


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_board_contract(name, monkeypatch):
    board, hw = load_board(name, monkeypatch)
    assert board.NAME == name
    assert isinstance(board.COLOUR, bool)
    display, buttons, clock = board.setup()
    assert (display.width, display.height) == (board.WIDTH, board.HEIGHT)
    for method in ("show", "contrast", "poweroff", "poweron"):
        assert callable(getattr(display, method)), method
    for fn in ("ticks_ms", "ticks_diff", "sleep_ms"):
        assert callable(getattr(clock, fn)), fn
    assert buttons.read() == 0  # all pulled up, nothing held


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_buttons_wiring(name, monkeypatch):
    board, hw = load_board(name, monkeypatch)
    _, buttons, _ = board.setup()
    by_bit = {}
    for bit, gpio in board.BUTTONS:
        by_bit.setdefault(bit, []).append(gpio)
        pin = hw.pins[gpio]
        assert pin.mode == 0 and pin.pull == 1, f"GP{gpio}: input with pull-up"
    assert set(by_bit) == set(SIX), "all six buttons mapped"
    # each button pin, pulled to GND, reads as its button and only it
    for bit, gpio in board.BUTTONS:
        hw.pins[gpio].level = 0
        assert buttons.read() == bit, f"GP{gpio}"
        hw.pins[gpio].level = 1
    # all at once
    for _, gpio in board.BUTTONS:
        hw.pins[gpio].level = 0
    assert buttons.read() == ui_buttons.ALL


def _clocked(name, monkeypatch, hold=None, edges=True):
    """A Pico board set up on a settable clock: (hw, buttons, now, gpio,
    events); events(ms) polls a Debouncer every 10 ms for `ms` (50) and
    names what it gave. `hold`: a button held as the board starts (its pin
    made held); `edges` False: its pins read without edge interrupts."""
    board, hw = load_board(name, monkeypatch)
    now = [1000]
    monkeypatch.setattr(board.time, "ticks_ms", lambda: now[0])
    gpio = {bit: g for bit, g in reversed(board.BUTTONS)}
    if hold is not None:
        real_pin = hw.modules["machine"].Pin

        class Held(real_pin):
            def __init__(self, gp, *a, **k):
                super().__init__(gp, *a, **k)
                if gp == gpio[hold]:
                    self.level = 0

        monkeypatch.setattr(board, "Pin", Held)
    _, buttons, _ = board.setup()
    if not edges:  # what a board without edge interrupts would see
        buttons = ui_pins.PinButtons(buttons.pins)
    deb = ui_buttons.Debouncer()

    def events(ms=50):
        out = []
        for _ in range(ms // 10):
            ev = deb.poll(buttons.read(), now[0])
            while ev:
                out.append(ui_buttons.name(ev))
                ev = deb.poll(buttons.read(), now[0])
            now[0] += 10
        return out

    return hw, buttons, now, gpio, events


def _timeline(board, steps, depth=4, until=400):
    """Play `steps` on a _clocked board (hw, now, gpio, events) from now
    (a multiple of 10 ms: the polls' times), ms by ms; the events polled.
    steps: (ms, button, level) edges; (ms, "write", ms long): the handlers
    of the write's edges run at its end, the first `depth` of them (the
    schedule queue); (ms, "busy", ms long): no poll."""
    hw, now, gpio, events = board
    t0 = now[0]
    got = []
    writes = {t0 + at: t0 + at + n for at, what, n in steps if what == "write"}
    busy = {t0 + at + k for at, what, n in steps if what == "busy" for k in range(n)}
    edges = {t0 + at: (bit, lv) for at, bit, lv in steps if bit not in ("write", "busy")}
    end = None
    for ms in range(t0, t0 + until):
        now[0] = ms
        if ms in writes:
            hw.late, end = [], writes[ms]
        if ms == end:
            for p in hw.late[:depth]:
                p.handler(p)
            hw.late = end = None
        if ms in edges:
            bit, lv = edges[ms]
            hw.pins[gpio[bit]].drive(lv)
        if ms % 10 == 0 and end is None and ms not in busy:
            got += events(10)
            now[0] = ms
    if end is not None:  # a write still under way: it ends, its handlers run
        for p in hw.late[:depth]:
            p.handler(p)
        hw.late = None
    now[0] = t0 + until
    return got


@pytest.mark.parametrize("name", PICO_BOARDS)
@pytest.mark.parametrize("edges", [True, False], ids=["edges", "polled_only"])
def test_presses_during_a_busy_moment_arrive(name, edges, monkeypatch):
    # The app busy for 300 ms (a save, a computer move) reads no button; an
    # 80 ms press of A with contact bounce, then a 700 ms hold of B (the
    # hint) that starts and ends in a second busy time, each arrive once.
    hw, _, now, gpio, poll = _clocked(name, monkeypatch, edges=edges)

    def busy(ms, *moves):  # (after ms, pin level) while nobody reads
        end = now[0] + ms
        for dt, bit, level in moves:
            now[0] += dt
            hw.pins[gpio[bit]].drive(level)
        now[0] = end

    assert poll(50) == []
    A, B = ui_buttons.A, ui_buttons.B
    busy(300, (100, A, 0), (2, A, 1), (1, A, 0), (80, A, 1), (1, A, 0), (1, A, 1))
    got = poll(100)
    busy(1000, (50, B, 0), (700, B, 1))
    got += poll(100)
    if edges:
        assert got == ["PRESS A", "LONG B"]
    else:
        assert got == []  # lost: why the boards catch edges


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_taps_whose_edges_are_handled_late_arrive(name, monkeypatch):
    # Pin.irq handlers are scheduled: during a long I2C write a tap's press
    # and release edges are both handled after the release, the pin reading
    # released. The tap was lost (its first edge read as a release), and a
    # B tap after it could come out LONG (the hint, not the menu).
    hw, _, now, gpio, events = _clocked(name, monkeypatch)
    A, B = ui_buttons.A, ui_buttons.B

    def late_tap(bit, down_ms=60):
        hw.late = []
        now[0] += 100
        hw.pins[gpio[bit]].drive(0)
        now[0] += down_ms
        hw.pins[gpio[bit]].drive(1)
        now[0] += 40  # the write ends: the handlers run, the pin released
        for pin in hw.late:
            pin.handler(pin)
        hw.late = None

    def on_time(bit, down_ms, busy_ms):
        # pressed and seen held, released down_ms on (the handlers on
        # time), then busy_ms before the next poll
        now[0] += 100
        hw.pins[gpio[bit]].drive(0)
        assert events() == []
        now[0] += down_ms
        hw.pins[gpio[bit]].drive(1)
        now[0] += busy_ms
        return events()

    assert events() == []
    late_tap(A)
    assert events() == ["PRESS A"]
    late_tap(B)
    assert events() == ["PRESS B"]
    # a hold handled on time is still a long one, and a tap after it a tap
    assert on_time(B, 700, 0) == ["LONG B"]
    late_tap(B)
    assert events() == ["PRESS B"]
    # the poll that sees a short B released comes late (a busy moment right
    # after the press): a short B, not the hint
    assert on_time(B, 50, 740) == ["PRESS B"]


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_bounce_read_by_the_handler_keeps_each_press_whole(name, monkeypatch):
    # The handler reads the pin when it runs, not at its edge. A press's
    # first edge read mid-bounce (the contact open again) was taken as a
    # whole tap, and the release as another: a 700 ms B while the app was
    # busy came out a short B, not the hint. A tap shorter than the
    # debounce time left its press open, and the next tap handled late was
    # read as that press's release: lost.
    hw, _, now, gpio, events = _clocked(name, monkeypatch)
    A, B = ui_buttons.A, ui_buttons.B

    def press_read_mid_bounce(bit):
        pin = hw.pins[gpio[bit]]
        hw.late = []
        pin.drive(0)
        now[0] += 1
        pin.drive(1)  # bounce: open again when the first handler runs
        for p in hw.late:
            p.handler(p)
        hw.late = None
        now[0] += 1
        pin.drive(0)  # closed for good, handled on time

    assert events() == []
    press_read_mid_bounce(B)
    now[0] += 700
    hw.pins[gpio[B]].drive(1)
    now[0] += 300  # busy all along: no poll saw the hold
    assert events() == ["LONG B"]

    now[0] += 100
    hw.pins[gpio[A]].drive(0)
    now[0] += 10
    hw.pins[gpio[A]].drive(1)  # a 10 ms flick, between two polls
    assert events() == ["PRESS A"]
    hw.late = []  # then a tap handled late
    now[0] += 100
    hw.pins[gpio[A]].drive(0)
    now[0] += 60
    hw.pins[gpio[A]].drive(1)
    now[0] += 40
    for p in hw.late:
        p.handler(p)
    hw.late = None
    assert events() == ["PRESS A"]


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_a_first_poll_that_reads_the_press_mid_bounce_gives_it_once(name, monkeypatch):
    # the poll right after a press read the contact open, the edge caught:
    # taken for a tap between two polls, a PRESS B at once, then the hold's
    # LONG B: "back" before the hint (the verifier's catch)
    hw, _, now, gpio, events = _clocked(name, monkeypatch)
    B = ui_buttons.B
    steps = [(8, B, 0), (9, B, 1), (11, B, 0), (811, B, 1)]  # the poll at 10: open
    assert _timeline((hw, now, gpio, events), steps, until=1000) == ["LONG B"]


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_a_press_released_and_pressed_again_while_busy_counts_twice(name, monkeypatch):
    # A held and given; the app busy; A let go and tapped again meanwhile:
    # the second press was dropped (A still counted as held)
    hw, _, now, gpio, events = _clocked(name, monkeypatch)
    A = ui_buttons.A
    steps = [(0, A, 0), (50, "busy", 300), (100, A, 1), (200, A, 0), (260, A, 1)]
    assert _timeline((hw, now, gpio, events), steps, until=500) == ["PRESS A", "PRESS A"]


@pytest.mark.parametrize("seed", range(8))
def test_random_presses_with_bounce_and_busy_moments_each_arrive_once(seed, monkeypatch):
    # a model of the real thing, millisecond by millisecond: contacts that
    # bounce up to 6 ms, an app polling every 10 ms but busy now and then
    # for 50-400 ms (no poll), its handlers late while a write (or a flash
    # erase) blocks, and dropped past the 4 the schedule queue holds; each
    # press of A is one PRESS, each of B a PRESS or (held 850 ms on) a LONG
    import random

    rng = random.Random(seed)
    hw, _, now, gpio, events = _clocked("pico_ssd1306", monkeypatch)
    for bit, name in ((ui_buttons.A, "A"), (ui_buttons.B, "B")):
        for _run in range(12):
            level = {}  # ms -> the pin's level from then
            want = []
            t = rng.randrange(20, 200)
            for _ in range(rng.randrange(1, 5)):
                # (a handler 200 ms late moves a press's time as much: B is
                # held under 400 ms or over 800 for the LONG to be clear)
                held = rng.choice((rng.randrange(40, 400), rng.randrange(850, 1100)))
                for at, to in ((t, 0), (t + held, 1)):
                    for k in range(rng.randrange(0, 4)):  # bounce: open, closed, ...
                        level[at + k * 2] = 1 - to
                        level[at + k * 2 + 1] = to
                    level.setdefault(at, to)
                want.append(("LONG " if bit == ui_buttons.B and held >= 600 else "PRESS ") + name)
                t += held + rng.randrange(420, 700)  # a busy moment holds one press at most
            steps = [(ms, bit, lv) for ms, lv in level.items()]
            b = 0
            while b < t:
                b += rng.randrange(100, 600)
                n = rng.randrange(50, 400)
                steps.append((b, "busy", n))
                if rng.random() < 0.5:  # a write (to 60 ms) or a flash erase (to 200)
                    steps.append((b, "write", rng.randrange(5, min(n, rng.choice((60, 200))))))
                b += n
            got = _timeline((hw, now, gpio, events), steps, until=t + 200)
            assert got == want, (seed, name, want, got)


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_a_press_one_poll_saw_and_the_app_missed_arrives(name, monkeypatch):
    # a poll sees A held 5 ms after its press (not yet debounced), then the
    # app is busy for 300 ms while A is released: the press was lost (its
    # caught edge spent on the poll that saw A held)
    hw, _, now, gpio, events = _clocked(name, monkeypatch)
    assert events(20) == []
    now[0] += 5
    hw.pins[gpio[ui_buttons.A]].drive(0)
    now[0] += 5
    assert events(10) == []  # one poll: held, not yet debounced
    now[0] += 70
    hw.pins[gpio[ui_buttons.A]].drive(1)
    now[0] += 230
    assert events() == ["PRESS A"]


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_a_button_held_at_start_is_no_tap_when_released(name, monkeypatch):
    # held while the board starts (no edge), let go before the first read:
    # its release edge was counted as a tap
    A = ui_buttons.A
    hw, _, now, gpio, events = _clocked(name, monkeypatch, hold=A)
    now[0] += 500
    hw.pins[gpio[A]].drive(1)
    now[0] += 100
    assert events() == []


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_what_a_long_write_holds_up_counts_as_it_happened(name, monkeypatch):
    # the reviewer's timelines (ms from the start; "write": the handlers
    # held up, the app polling nothing), each once a phantom or a loss
    hw, _, now, gpio, events = _clocked(name, monkeypatch)
    A, B, RIGHT = ui_buttons.A, ui_buttons.B, ui_buttons.RIGHT
    board = (hw, now, gpio, events)

    # a release's bounce held up 110 ms by a save: a second PRESS A
    steps = [(100, A, 0), (180, A, 1), (181, "write", 110), (181, A, 0), (182, A, 1)]
    assert _timeline(board, steps) == ["PRESS A"]
    # RIGHT's release bounce fills the queue, A's press handler is dropped
    steps = [(0, RIGHT, 0), (190, "write", 60), (200, RIGHT, 1), (201, RIGHT, 0)]
    steps += [(202, RIGHT, 1), (203, RIGHT, 0), (204, RIGHT, 1), (230, A, 0), (400, A, 1)]
    assert _timeline(board, steps, until=600) == ["PRESS RIGHT", "PRESS A"]
    # B held 660 ms, the app busy from 540: its first release handler,
    # held up, reads it mid-bounce; its LONG was lost
    steps = [(0, B, 0), (540, "busy", 160), (640, "write", 22)]
    steps += [(660, B, 1), (661, B, 0), (663, B, 1)]
    assert _timeline(board, steps, until=800) == ["LONG B"]


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_b_held_at_start_and_let_go_soon_is_a_short_b(name, monkeypatch):
    # its release measured the hold from tick 0: a LONG B (the hint)
    B = ui_buttons.B
    hw, _, now, gpio, events = _clocked(name, monkeypatch, hold=B)
    got = events(300)
    hw.pins[gpio[B]].drive(1)
    got += events(100)
    assert got == ["PRESS B"]
    assert ui_pins._LATE_AGO == (1 << 30) - ui_pins._LATE_MS  # (t - _LATE_MS, wrapped)


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_no_gpio_used_twice(name, monkeypatch):
    board, hw = load_board(name, monkeypatch)
    board.setup()
    uses = hw.uses + [(g, "button") for _, g in board.BUTTONS]
    gpios = [g for g, _ in uses]
    dup = {g for g in gpios if gpios.count(g) > 1}
    assert not dup, f"GPIOs used twice: {sorted(dup)} in {uses}"
    assert set(gpios) <= PICO_GPIOS


def test_pico_ssd1306_wiring(monkeypatch):
    board, hw = load_board("pico_ssd1306", monkeypatch)
    display, _, _ = board.setup()
    assert hw.i2c == [(0, 4, 5, 400_000)]  # I2C0 SDA GP4, SCL GP5
    assert display.addr == 0x3C
    assert (board.WIDTH, board.HEIGHT, board.COLOUR) == (128, 64, False)
    readme = (BOARDS / "pico_ssd1306" / "README.md").read_text()
    for _bit, gpio in board.BUTTONS:  # the wiring table names every button pin
        assert f"GP{gpio} " in readme or f"GP{gpio}|" in readme, f"GP{gpio} not in README"


@pytest.mark.parametrize("found", [[], [0x3D, 0x68]])
def test_pico_ssd1306_names_what_is_on_the_bus_without_its_oled(monkeypatch, found):
    # an OLED unwired, unpowered or strapped to 0x3D: the driver's first
    # write raised a bare OSError (EIO), and the flash tool blamed the firmware
    board, hw = load_board("pico_ssd1306", monkeypatch)
    hw.on_i2c = found
    with pytest.raises(OSError) as e:
        board.setup()
    what = ", ".join("0x%02x" % a for a in found) or "none"
    assert str(e.value) == (
        f"no OLED at 0x3c on I2C0 (SDA GP4, SCL GP5); found: {what}; check the "
        "wiring (boards/pico_ssd1306/README.md) or OLED_ADDR in board.py"
    )


def test_pico_lcd_114_matches_waveshare(monkeypatch):
    board, hw = load_board("pico_lcd_114", monkeypatch)
    assert (board.WIDTH, board.HEIGHT, board.COLOUR) == (240, 135, True)
    assert board.SPI_ID == 1
    assert {k: getattr(board, k) for k in WAVESHARE_LCD_114} == WAVESHARE_LCD_114
    keys = {}
    for bit, gpio in board.BUTTONS:
        keys.setdefault(bit, []).append(gpio)
    assert {b: sorted(g) for b, g in keys.items()} == WAVESHARE_KEYS_114


def test_pico_lcd_114_display_methods(monkeypatch):
    board, hw = load_board("pico_lcd_114", monkeypatch)
    display, _, _ = board.setup()
    assert display.backlight == 100  # contrast(255) at start
    display.contrast(0)
    assert display.backlight == 4
    display.poweroff()
    assert display.backlight == 0 and display.cmds[-2:] == [0x28, 0x10]
    display.poweron()
    assert display.cmds[-2:] == [0x11, 0x29] and display.backlight == 4
    # a frame: the window, then the framebuf itself in one write (the
    # driver's show() wrote 135 slices of it, 64,800 bytes of copies)
    display.cmds.clear()
    display.show()
    cols, rows = b"\x00\x28\x01\x17", b"\x00\x35\x00\xbb"
    assert display.cmds == [0x2A, cols, 0x2B, rows, 0x2C, display.buffer]
    assert display.lines["cs"] == 1
    # the wire at 31.25 MHz, within the ST7789V's 62.5: 17 ms a frame,
    # not the driver's 10 MHz and 52 ms
    assert display.spi.baudrate == 31_250_000
    assert len(display.buffer) * 8 * 1000 // display.spi.baudrate == 16


def test_pico_lcd_114_wakes_in_5_ms_and_never_within_120_of_sleeping(monkeypatch):
    # poweron waited 120 ms after SLPOUT, where the ST7789V takes a command
    # after 5: the key that woke the screen was held up. Its 120 ms are
    # between SLPIN and SLPOUT (and SLPOUT and SLPIN)
    board, hw = load_board("pico_lcd_114", monkeypatch)
    now = [1000]
    slept = []

    def sleep_ms(ms):
        slept.append(ms)
        now[0] += ms

    monkeypatch.setattr(board.time, "ticks_ms", lambda: now[0])
    monkeypatch.setattr(board.time, "sleep_ms", sleep_ms)
    display, _, _ = board.setup()
    display.poweroff()
    now[0] += 30_000  # the screen asleep a while, then a key
    display.poweron()
    assert slept == [5] and display.cmds[-2:] == [0x11, 0x29]
    display.poweroff()
    now[0] += 20  # a key 20 ms after the screen slept
    slept.clear()
    display.poweron()
    assert slept == [100, 5]
    display.poweroff()
    now[0] = (now[0] + 2**29 + 1000) & 0x3FFFFFFF  # asleep 6 days: ticks_diff < 0
    slept.clear()
    display.poweron()
    assert slept == [5]


def test_pico_lcd_114_refuses_a_driver_with_other_pins(monkeypatch):
    board, hw = load_board("pico_lcd_114", monkeypatch)
    monkeypatch.setattr(board.LCD_114, "DC", 7)
    with pytest.raises(RuntimeError):
        board.setup()


@pytest.mark.parametrize("name", PICO_BOARDS + ["sim"])
def test_manifest(name):
    path = BOARDS / name / "manifest.json"
    if not path.exists():
        pytest.skip(f"{path} not written yet")
    m = json.loads(path.read_text())
    assert m["name"] == name
    assert isinstance(m["description"], str) and m["description"]
    assert isinstance(m["mip"], list) and all(isinstance(p, str) for p in m["mip"])


@pytest.mark.parametrize("name", PICO_BOARDS)
def test_manifest_installs_what_board_imports(name):
    """Each library the manifest installs is a module the board's board.py
    imports, and a library from GitHub is named by its file: `mpremote mip`
    reads a repository's package.json with CPython's json, which refuses
    what MicroPython's accepts (tacker66/Pico_LCD_114_V2's list of files
    ends with a comma), while a file is copied as it is."""
    from tools.flash import lib_name

    specs = json.loads((BOARDS / name / "manifest.json").read_text())["mip"]
    assert specs
    imported = set()
    for line in (BOARDS / name / "board.py").read_text().splitlines():
        words = line.split()
        if words[:1] in (["import"], ["from"]):
            imported.add(words[1])
    for spec in specs:
        assert lib_name(spec) in imported, spec
        if spec.startswith("github:"):
            assert spec.split("@", 1)[0].endswith((".py", ".mpy")), spec


@pytest.mark.mpy
def test_sim_board_contract(run_mpy, monkeypatch, tmp_path):
    monkeypatch.setenv("SCOPA_SIM_HEADLESS", "1")
    monkeypatch.setenv("SCOPA_SIM_KEYS", "A")
    monkeypatch.setenv("SCOPA_SIM_FRAMES", str(tmp_path / "frames.txt"))
    code = (
        "import board\n"
        "d, b, c = board.setup()\n"
        "print(board.NAME, board.WIDTH, board.HEIGHT, board.COLOUR)\n"
        "print(d.width, d.height, b.read(), c.ticks_diff(c.ticks_ms(), 0))\n"
        "d.contrast(10); d.poweroff(); d.poweron(); d.show()\n"
        "print(board.setup() is board.setup())\n"
    )
    out = run_mpy(code, path=(BOARDS / "sim", mpy.FIRMWARE)).split()
    assert out == ["sim", "128", "64", "False", "128", "64", "0", "1", "True"]
    monkeypatch.setenv("SCOPA_SIM_MODE", "colour")
    out = run_mpy(code, path=(BOARDS / "sim", mpy.FIRMWARE)).split()
    assert out[:4] == ["sim-colour", "240", "135", "True"]
