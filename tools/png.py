"""Frames of the simulator to PNG, with zlib only (CPython).

A frame is what the sim board writes: width, height, mode and the bytes of
its framebuf (``FRAME <w> <h> <mode> <hex>``):

- ``mono_vlsb``: framebuf.MONO_VLSB, the SSD1306 layout: byte
  ``(y // 8) * w + x``, bit ``y % 8``; 1 = lit. Drawn dark on light.
- ``rgb565``: framebuf.RGB565 bytes in the ST7789's wire order, i.e. each
  pixel big-endian ``rrrrrggg gggbbbbb`` (palette.rgb565 values swapped).
"""

import struct
import zlib

MONO = "mono_vlsb"
RGB565 = "rgb565"
MODES = (MONO, RGB565)

INK = (24, 24, 32)  # a lit mono pixel
PAPER = (240, 240, 232)  # an unlit mono pixel

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def frame_size(width, height, mode):
    """Bytes of a framebuf of `width` x `height` pixels in `mode`."""
    if mode == MONO:
        return width * ((height + 7) // 8)
    if mode == RGB565:
        return width * height * 2
    raise ValueError(f"unknown frame mode {mode!r}")


def rgb565_to_rgb(v):
    """(r, g, b) 0..255 of the RGB565 value `v`, by bit replication."""
    r = (v >> 11) & 0x1F
    g = (v >> 5) & 0x3F
    b = v & 0x1F
    return (r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2)


def frame_to_rgb(width, height, mode, data, ink=INK, paper=PAPER):
    """RGB888 bytes, row by row, of one frame (see the module docstring)."""
    if len(data) != frame_size(width, height, mode):
        raise ValueError(
            f"{mode} frame {width}x{height} needs {frame_size(width, height, mode)} bytes, "
            f"got {len(data)}"
        )
    out = bytearray(width * height * 3)
    o = 0
    if mode == MONO:
        ink, paper = bytes(ink), bytes(paper)
        for y in range(height):
            page = (y >> 3) * width
            bit = 1 << (y & 7)
            for x in range(width):
                out[o : o + 3] = ink if data[page + x] & bit else paper
                o += 3
    else:
        cache = {}
        for i in range(0, len(data), 2):
            v = data[i] << 8 | data[i + 1]
            px = cache.get(v)
            if px is None:
                px = cache[v] = bytes(rgb565_to_rgb(v))
            out[o : o + 3] = px
            o += 3
    return bytes(out)


def scale_rgb(width, height, rgb, factor):
    """Nearest-neighbour scale of RGB888 rows by the int `factor` >= 1."""
    if factor == 1:
        return bytes(rgb)
    out = bytearray()
    stride = width * 3
    for y in range(height):
        row = rgb[y * stride : (y + 1) * stride]
        wide = b"".join(row[x : x + 3] * factor for x in range(0, stride, 3))
        out += wide * factor
    return bytes(out)


def _chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body))


def encode_png(width, height, rgb):
    """PNG file bytes of RGB888 rows `rgb` (8-bit truecolour, filter 0)."""
    stride = width * 3
    if len(rgb) != stride * height:
        raise ValueError(f"{width}x{height} RGB needs {stride * height} bytes, got {len(rgb)}")
    raw = b"".join(b"\x00" + rgb[y * stride : (y + 1) * stride] for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        _SIGNATURE
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def write_frame_png(path, width, height, mode, data, scale=4):
    """Write one frame as a PNG at `path`, each pixel `scale` x `scale`."""
    rgb = scale_rgb(width, height, frame_to_rgb(width, height, mode, data), scale)
    with open(path, "wb") as f:
        f.write(encode_png(width * scale, height * scale, rgb))


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_png(blob):
    """(width, height, RGB888 rows) of an 8-bit RGB or RGBA, non-interlaced PNG.

    Checks every chunk's CRC; raises ValueError on anything else. Enough to
    read back what ``encode_png`` writes (tests) and simple screenshots.
    """
    if blob[:8] != _SIGNATURE:
        raise ValueError("not a PNG")
    pos = 8
    idat = b""
    width = height = channels = None
    while pos < len(blob):
        (length,) = struct.unpack(">I", blob[pos : pos + 4])
        kind = blob[pos + 4 : pos + 8]
        payload = blob[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", blob[pos + 8 + length : pos + 12 + length])
        if zlib.crc32(kind + payload) != crc:
            raise ValueError(f"bad CRC in {kind!r} chunk")
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", payload)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("only 8-bit RGB/RGBA non-interlaced PNGs")
            channels = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += payload
        elif kind == b"IEND":
            break
    if width is None or height is None or channels is None:
        raise ValueError("no IHDR chunk")
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    out = bytearray()
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 0xFF
            elif ftype == 2:
                line[i] = (line[i] + b) & 0xFF
            elif ftype == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
            elif ftype == 4:
                line[i] = (line[i] + _paeth(a, b, c)) & 0xFF
            elif ftype != 0:
                raise ValueError(f"bad filter type {ftype}")
        prev = line
        if channels == 4:
            line = bytearray(line)
            del line[3::4]  # drop alpha
        out += line
    return width, height, bytes(out)


def read_png(path):
    """(width, height, RGB888 rows) of the PNG file at `path`."""
    with open(path, "rb") as f:
        return decode_png(f.read())
