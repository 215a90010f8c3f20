"""scopa-screens: the README's screenshots, taken with the simulator.

    python tools/screens.py [--out docs/screens] [--scale 3]

Each screen is reached by a key script that tools/sim.py plays on the real
firmware (MicroPython unix port, headless, virtual clock, so a script gives
the same game every time). The menus' keys are found by reading the menus
(host_tests/menu_keys.py); the moments of a game (a capture to choose, the
end of a round, the winner) by reading the frames for the text the screen
draws there, in the 8 x 8 font as the unix port's framebuf renders it.
host_tests/test_sim_match.py reads the winner's screen the same way.

Screens (PNG, mono dark on light, `--scale` pixels per screen pixel):
menu, setup (New game options), choose (a card with several captures, the
second one highlighted), round (a round's breakdown), primiera (its next
page), winner, help (How to
play), colour (the table on the 240 x 135 colour board, a hint shown).
"""

import argparse
import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT / "host_tests", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import mpy  # noqa: E402  (host_tests/mpy.py)
from tools import png, sim  # noqa: E402

OUT = ROOT / "docs" / "screens"

_FONT = """
import framebuf
for t in {texts!r}:
    buf = bytearray(8 * len(t) or 1)
    fb = framebuf.FrameBuffer(buf, 8 * len(t) or 1, 8, framebuf.MONO_VLSB)
    fb.text(t, 0, 0, 1)
    print("G", buf.hex())
"""


class Font:
    """Texts in the built-in 8 x 8 font as glyphs ``(width, rows)``: rows
    are 8 ints, bit x set for a lit pixel at x. Rendered by the unix port's
    framebuf."""

    def __init__(self):
        self._rows = {}

    def rows(self, *texts):
        todo = [t for t in texts if t not in self._rows]
        if todo:
            out = mpy.run_mpy(_FONT.format(texts=todo), path=())
            hexes = [ln[2:] for ln in out.splitlines() if ln.startswith("G ")]
            for t, h in zip(todo, hexes):
                buf = bytes.fromhex(h)
                self._rows[t] = (
                    8 * len(t),
                    [sum(((buf[x] >> y) & 1) << x for x in range(8 * len(t))) for y in range(8)],
                )
        return [self._rows[t] for t in texts]


def frame_rows(frame, ys=None):
    """The rows of a mono frame (sim.Frame): one int per y, bit x = pixel x
    (only the rows `ys` when given, the others 0)."""
    if frame.mode != png.MONO:
        raise ValueError("text is read from mono frames only")
    w, data = frame.width, frame.data
    rows = [0] * frame.height
    for y in range(frame.height) if ys is None else ys:
        page = (y >> 3) * w
        bit = 1 << (y & 7)
        r = 0
        for x in range(w):
            if data[page + x] & bit:
                r |= 1 << x
        rows[y] = r
    return rows


def text_at(rows, glyph, x, y):
    """True when `glyph` (a Font.rows item) is drawn at x, y of `rows`."""
    w, g = glyph
    if y < 0 or y + 8 > len(rows) or x < 0:
        return False
    mask = (1 << w) - 1
    return all(((rows[y + i] >> x) & mask) == g[i] for i in range(8))


def find_text(rows, glyph, x=0):
    """The first y where `glyph` is drawn at x, or -1."""
    for y in range(len(rows) - 7):
        if text_at(rows, glyph, x, y):
            return y
    return -1


def _lang():
    mpy.setup_cpython_path()
    import lang

    if lang.code != "en" or lang.get(0) == "?":
        lang.load("en")
    return lang


def winner(frame, font):
    """The title of the summary's last page when `frame` is it (the match
    won, lost or drawn: "You win!", ... as ui/summary.py draws it, with
    "A: new match" at the bottom), else None."""
    lang = _lang()
    T = lang.get
    titles = [T(lang.YOU_WIN), T(lang.YOU_LOSE), T(lang.DRAW)]
    bottom = T(lang.NEW_MATCH)
    glyphs = font.rows(bottom, *titles)
    h = frame.height
    rows = frame_rows(frame, range(h - 8, h))
    if not text_at(rows, glyphs[0], 0, h - 8):
        return None
    rows = frame_rows(frame, range(4, 12))
    for t, g in zip(titles, glyphs[1:]):
        if text_at(rows, g, (frame.width - 8 * len(t)) // 2, 4):
            return t
    return None


def _keys(fn, *args, **kw):
    import menu_keys

    mpy.setup_cpython_path()
    with contextlib.redirect_stdout(io.StringIO()):  # the app's own lines
        return menu_keys.sim_script(fn(*args, **kw))


def _taps(n):
    """A script that taps A n times, a shot after each (shot:t1 ...)."""
    return " ".join("A shot:t%d" % (i + 1) for i in range(n))


def _first(result, pred):
    """Index (1-based) of the first tap shot whose frame satisfies pred."""
    for name, fr in result.shots:
        if name.startswith("t") and pred(fr):
            return int(name[1:])
    return None


def scripts(font, taps=700):
    """{name: (board, key script)} of every screen (see the docstring)."""
    lang = _lang()
    T = lang.get
    import app
    import menu_keys as M

    start = _keys(M.new_game_keys, "scopa", 2, opp=app.HARD)
    out = {
        "menu": ("sim", "wait:300 shot:menu"),
        "help": ("sim", _keys(M.keys_to, lang.HOW_TO) + " A shot:help"),
    }
    # New game: the options of Scopa for 2, "Opponents" just set to Hard
    setup = _keys(M.new_game_keys, "scopa", 2, opp=app.HARD, start=False)
    out["setup"] = ("sim", setup + " shot:setup")
    # a game: A taps, a shot after each; find the moments
    r = sim.run("sim", start + " " + _taps(taps), timeout=600, capture=True)
    ok, rnd = font.rows(T(lang.OK_BACK), T(lang.ROUND) % 1)
    i = _first(r, lambda f: find_text(frame_rows(f), ok) >= 0)
    j = _first(r, lambda f: text_at(frame_rows(f), rnd, 0, 0))
    k = _first(r, lambda f: winner(f, font) is not None)
    if i is None or j is None or k is None:
        raise RuntimeError("no capture choice, round end or winner in %d taps" % taps)
    out["choose"] = ("sim", start + " A" * (i - 1) + " A right shot:choose")
    out["round"] = ("sim", start + " A" * j + " shot:round")
    out["primiera"] = ("sim", start + " A" * j + " right shot:primiera")
    out["winner"] = ("sim", start + " A" * k + " shot:winner")
    # the colour board: the first turn, a hint asked for (B held)
    colour = _keys(M.new_game_keys, "scopa", 2)
    out["colour"] = ("sim-colour", colour + " wait:500 long:B wait:500 shot:colour")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help="folder for the PNGs")
    ap.add_argument("--scale", type=int, default=3, help="PNG pixels per screen pixel")
    a = ap.parse_args(argv)
    font = Font()
    for name, (board, keys) in scripts(font).items():
        r = sim.run(board, keys, png_dir=a.out, scale=a.scale, timeout=600, capture=True)
        names = [n for n, _ in r.shots]
        if name not in names or r.returncode:
            print("scopa-screens: %s: no shot (exit %d)" % (name, r.returncode), file=sys.stderr)
            return 1
        print("scopa-screens: %s" % (a.out / (name + ".png")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
