"""Colours to pass to framebuf drawing calls, for mono and colour screens.

``palette(board.COLOUR)`` returns the tuple ``(bg, fg, accent, red, card,
ink, dim)``; unpack it::

    bg, fg, accent, red, card, ink, dim = palette(board.COLOUR)

On a mono screen (SSD1306, MONO_VLSB) every entry is 0 or 1: bg and card
are 0 (dark), the others 1 (lit).

On a colour screen the framebuf is RGB565 and a colour is its RGB565 value
with the two bytes swapped (``rgb565(r, g, b)``): framebuf stores a pixel
little-endian, the ST7789 reads the bytes it is sent as big-endian, so an
unswapped 0xF800 (red) would show as dark blue-green. The simulator's colour
mode and its PNGs read the buffer in the ST7789's order, so they show what
the LCD would. The named colours below are such values (colour screens only).
"""


def rgb565(r, g, b):
    """Framebuf value of colour (r, g, b), each 0..255, for an RGB565 ST7789.

    The RGB565 value ``rrrrrggg gggbbbbb`` with its bytes swapped, so that
    framebuf's little-endian store puts them on the wire high byte first.
    """
    c = (r & 0xF8) << 8 | (g & 0xFC) << 3 | b >> 3
    return (c & 0xFF) << 8 | c >> 8


FELT = rgb565(0, 88, 40)  # the table: dark green
WHITE = rgb565(255, 255, 255)
BLACK = 0
IVORY = rgb565(248, 244, 232)  # card faces
INK = rgb565(16, 16, 16)  # rank and black suits on a face
RED = rgb565(208, 24, 32)  # red suits
YELLOW = rgb565(255, 200, 0)  # gold: cursor, selection
BLUE = rgb565(40, 64, 200)  # card backs
GREY = rgb565(128, 136, 128)  # secondary text

_MONO = (0, 1, 1, 1, 0, 1, 1)
_COLOUR = (FELT, WHITE, YELLOW, RED, IVORY, INK, GREY)


def palette(colour):
    """The tuple (bg, fg, accent, red, card, ink, dim) of framebuf colours.

    colour: the board's COLOUR (True: RGB565 framebuf; False: mono 0/1).
    """
    return _COLOUR if colour else _MONO
