"""Waveshare Pico-LCD-1.14: ST7789 240x135 IPS LCD, joystick and two keys.

The one file that knows this board's wiring (Peter Hinch's
``hardware_setup.py`` style); copied to the device as ``/board.py``. The
HAT plugs onto the Pico, so the wiring is Waveshare's (wiki Pico-LCD-1.14,
and their demo's pins): README.md has the table.

Display driver: ``Pico_LCD_114_V2`` (its one file from
github:tacker66/Pico_LCD_114_V2, installed by mip from manifest.json), a
``framebuf.FrameBuffer`` subclass in RGB565 written for this HAT. It
fixes the pins itself, so ``setup()`` checks them against the constants
below; ``Display`` adds the methods the app needs (``contrast``,
``poweroff``, ``poweron``). Colours are RGB565 with the bytes swapped
(ui/palette.py): framebuf stores pixels little-endian, the ST7789 reads
them big-endian.
"""

import gc
import time
from machine import Pin
from micropython import const

from Pico_LCD_114_V2 import LCD_114  # pyright: ignore[reportMissingImports]  (mip)

from ui.buttons import DOWN, LEFT, RIGHT, UP, A, B
from ui.pins import PinButtons

NAME = "pico_lcd_114"
WIDTH, HEIGHT = 240, 135
COLOUR = True

# ST7789 on SPI1.
SPI_ID = 1
SCK = 10
MOSI = 11
CS = 9
DC = 8
RST = 12
BL = 13  # backlight, PWM
# SPI clock, Hz: the driver's 10 MHz takes 52 ms a frame on the wire, this
# 17 ms (the RP2040's 125 MHz / 4). The ST7789V writes at up to 62.5 MHz
# (datasheet: 16 ns serial write cycle); nano-gui runs this HAT at 30 MHz,
# russhughes' st7789_mpy at 62.5.
SPI_HZ = const(31_250_000)

# Joystick and keys, to GND with pull-ups: pressed reads 0. The joystick's
# press is a second A, next to the thumb.
BUTTONS = (
    (UP, 2),
    (DOWN, 18),
    (LEFT, 16),
    (RIGHT, 20),
    (A, 15),  # key A
    (B, 17),  # key B
    (A, 3),  # joystick press
)

# ST7789 commands, and the window of the panel's 240 x 135 in its 320 x 240
# memory (columns 40-279, rows 53-187: the driver's, with its MADCTL 0x70)
_DISPOFF = b"\x28"
_DISPON = b"\x29"
_SLPIN = b"\x10"
_SLPOUT = b"\x11"
_CASET = b"\x2a"
_RASET = b"\x2b"
_RAMWR = b"\x2c"
_COLUMNS = b"\x00\x28\x01\x17"
_ROWS = b"\x00\x35\x00\xbb"


class Display(LCD_114):
    """The driver's framebuf with contrast (backlight) and power control,
    its SPI at ``SPI_HZ``."""

    def __init__(self):
        super().__init__()
        self.spi.init(baudrate=SPI_HZ)  # the rest as the driver set it
        self._slept = time.ticks_add(time.ticks_ms(), -120)  # (awake: as long ago)
        self.level = 255
        self.contrast(255)

    def _cmd(self, cmd, data=None):
        # a command and its data (bytes objects made once: the driver's
        # write_cmd and write_data make a bytearray for every byte)
        cs = self.cs
        cs(1)
        self.dc(0)
        cs(0)
        self.spi.write(cmd)
        if data is not None:
            self.dc(1)
            self.spi.write(data)
        cs(1)

    def show(self):
        """The frame to the panel in one SPI write of the framebuf's 64,800
        bytes (the driver's own show() copies each of its 135 lines: as
        many bytes of garbage a frame)."""
        self._cmd(_CASET, _COLUMNS)
        self._cmd(_RASET, _ROWS)
        self._cmd(_RAMWR, self.buffer)

    def contrast(self, level):
        """Backlight from `level` 0..255 (0 stays faintly readable: 4 %)."""
        self.level = max(0, min(255, level))
        self.set_backlight(4 + self.level * 96 // 255)

    def poweroff(self):
        """Display off, controller asleep, backlight off."""
        self._cmd(_DISPOFF)
        self._cmd(_SLPIN)
        self._slept = time.ticks_ms()
        self.set_backlight(0)

    def poweron(self):
        """Wake the controller, display on, backlight back. The ST7789V
        (datasheet, 10h and 11h) wakes no sooner than 120 ms after SLPIN
        and takes a command 5 ms after SLPOUT; its other 120 ms, before the
        next SLPIN, the app's sleep timeout (seconds) keeps. A key that
        wakes the screen so waits 5 ms, not 120."""
        d = time.ticks_diff(time.ticks_ms(), self._slept)
        if 0 <= d < 120:  # (a key just after the screen slept; asleep past
            time.sleep_ms(120 - d)  # ticks_ms's wrap, 6 days and more, d < 0)
        self._cmd(_SLPOUT)
        time.sleep_ms(5)
        self._cmd(_DISPON)
        self.contrast(self.level)


def setup():
    """Create the hardware and return (display, buttons, clock)."""
    wired = (LCD_114.SCK, LCD_114.MOSI, LCD_114.CS, LCD_114.DC, LCD_114.RST, LCD_114.BL)
    if wired != (SCK, MOSI, CS, DC, RST, BL) or (LCD_114.WIDTH, LCD_114.HEIGHT) != (WIDTH, HEIGHT):
        raise RuntimeError("Pico_LCD_114_V2 driver pins differ from board.py")
    gc.collect()  # one 64800-byte framebuf: allocate it before the heap fragments
    display = Display()
    # with the clock: edge interrupts catch a press made while the app is busy
    pins = [(bit, Pin(gp, Pin.IN, Pin.PULL_UP)) for bit, gp in BUTTONS]
    buttons = PinButtons(pins, clock=time)
    return display, buttons, time
