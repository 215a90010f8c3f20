"""Raspberry Pi Pico + SSD1306 128x64 I2C OLED + six push buttons.

The one file that knows this board's wiring (Peter Hinch's
``hardware_setup.py`` style); copied to the device as ``/board.py``. The
OLED driver is micropython-lib's ``ssd1306`` (``mpremote mip install
ssd1306``, listed in manifest.json). Wiring table: README.md.
"""

import time
from machine import I2C, Pin

import ssd1306  # pyright: ignore[reportMissingImports]  (installed by mip)

from ui.buttons import DOWN, LEFT, RIGHT, UP, A, B
from ui.pins import PinButtons

NAME = "pico_ssd1306"
WIDTH, HEIGHT = 128, 64
COLOUR = False

# OLED on I2C0: SDA GP4 (pin 6), SCL GP5 (pin 7).
I2C_ID = 0
SDA = 4
SCL = 5
I2C_FREQ = 400_000
OLED_ADDR = 0x3C

# Buttons between a GPIO and GND, internal pull-ups: pressed reads 0.
# GP10..GP15 sit on pins 14-17 and 19-20 with GND on pin 18 between them.
BUTTONS = (
    (UP, 10),
    (DOWN, 11),
    (LEFT, 12),
    (RIGHT, 13),
    (A, 14),
    (B, 15),
)


def setup():
    """Create the hardware and return (display, buttons, clock).

    Raises OSError naming the bus, its pins and the addresses found when no
    device answers at OLED_ADDR (the OLED unwired, unpowered, or strapped to
    another address: README.md), where the driver's first write would
    raise a bare EIO."""
    i2c = I2C(I2C_ID, sda=Pin(SDA), scl=Pin(SCL), freq=I2C_FREQ)
    found = i2c.scan()
    if OLED_ADDR not in found:
        raise OSError(
            "no OLED at 0x%02x on I2C%d (SDA GP%d, SCL GP%d); found: %s; check the "
            "wiring (boards/%s/README.md) or OLED_ADDR in board.py"
            % (
                OLED_ADDR,
                I2C_ID,
                SDA,
                SCL,
                ", ".join("0x%02x" % a for a in found) or "none",
                NAME,
            )
        )
    display = ssd1306.SSD1306_I2C(WIDTH, HEIGHT, i2c, addr=OLED_ADDR)
    # with the clock: edge interrupts catch a press made while the app is busy
    pins = [(bit, Pin(gp, Pin.IN, Pin.PULL_UP)) for bit, gp in BUTTONS]
    buttons = PinButtons(pins, clock=time)
    return display, buttons, time
