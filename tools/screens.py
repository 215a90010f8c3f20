"""scopa-screens: the README's screenshots, taken with the simulator.

    python tools/screens.py [--out docs/screens] [--scale 3]

Each screen is reached by a key script that tools/sim.py plays on the real
firmware (MicroPython unix port, headless, virtual clock, so a script gives
the same game, and the same PNG bytes, every time). The menus' keys are
found by reading the menus (host_tests/menu_keys.py); the moments of a game
(a capture to choose, a hint taking two neighbours, the end of a round, the
winner) by reading the frames for the text the screen draws there, in the
8 x 8 font as the unix port's framebuf renders it.
host_tests/test_sim_match.py reads the winner's screen the same way. Every
shot is checked for a text it must show (`Shot.shows`), so that a menu or a
screen that moved stops the tool rather than a wrong picture.

Screens (PNG, mono dark on light, `--scale` pixels per screen pixel):
menu, setup (New game options), pick (the cursor on a card, framed twice),
hint (the hint asked for there: its card and the two cards it takes, each
inverted inside its own ring), choose (a card with several captures, the
second one highlighted), round (a round's breakdown), primiera (its next
page), winner, help (How to play); Scopa for 4 with the partner's hand
visible: partner (the table, the partner's seat dotted on the status line),
peek (UP: the partner's hand), info (DOWN: the round's page), teams (the
round's breakdown by side); replace (New game with a game saved), note (the
menu after a damaged save was replaced by its backup), doze (the table idle
for the sleep time). On the 240 x 135 colour board: colour-pick and colour
(the hint), as pick and hint, and colour-partner, as partner.
"""

import argparse
import contextlib
import io
import sys
import tempfile
from dataclasses import dataclass
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
    """The rows of a frame (sim.Frame): one int per y, bit x = pixel x
    (only the rows `ys` when given, the others 0). A mono frame's lit
    pixels; a colour frame's pixels of the text's colour (ui/palette.py
    WHITE, the fg), so that its text reads as on mono."""
    w, data = frame.width, frame.data
    rows = [0] * frame.height
    if frame.mode == png.MONO:
        for y in range(frame.height) if ys is None else ys:
            page = (y >> 3) * w
            bit = 1 << (y & 7)
            r = 0
            for x in range(w):
                if data[page + x] & bit:
                    r |= 1 << x
            rows[y] = r
        return rows
    mpy.setup_cpython_path()
    from ui import palette

    fg = bytes((palette.WHITE & 0xFF, palette.WHITE >> 8))  # framebuf stores it little-endian
    for y in range(frame.height) if ys is None else ys:
        o = 2 * w * y
        r = 0
        for x in range(w):
            if data[o + 2 * x : o + 2 * x + 2] == fg:
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


def shows(frame, glyph):
    """True when `glyph` (a Font.rows item) is drawn anywhere on `frame`,
    lit on dark or dark on lit (a selected row, a note)."""
    w, g = glyph
    mask = (1 << w) - 1
    inv = (w, [r ^ mask for r in g])
    rows = frame_rows(frame)
    for y in range(frame.height - 7):
        for x in range(frame.width - w + 1):
            if text_at(rows, glyph, x, y) or text_at(rows, inv, x, y):
                return True
    return False


def lit_cards(frame):
    """x of every highlighted table card of a mono 128 x 64 frame (gfx.LIT:
    its inside lit, a dark ring), from the first row inside the cards."""
    mpy.setup_cpython_path()
    from ui import gfx

    lay = gfx.Layout(frame.width, frame.height)
    y = lay.table_y + 1
    r = frame_rows(frame, [y])[y]
    xs = []
    x = 0
    while x < frame.width:
        n = 0
        while r >> (x + n) & 1:
            n += 1
        if n == lay.cw - 2:
            xs.append(x - 1)
        x += n or 1
    return xs


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
    tr = lang.get
    titles = [tr(lang.YOU_WIN), tr(lang.YOU_LOSE), tr(lang.DRAW)]
    bottom = tr(lang.NEW_MATCH)
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


@dataclass
class Shot:
    """A screenshot: `keys` played on `board`; the shot's frame must show
    each text of `shows`. `before`: a key script played first on the same
    flash, whose file `damage` is then cut short (a damaged save)."""

    board: str
    keys: str
    shows: tuple = ()
    before: str = ""
    damage: str = ""


def _turns(result, font):
    """The tap shots (1-based indices) whose frame is the player's turn."""
    lang = _lang()
    (yt,) = font.rows(lang.get(lang.YOUR_TURN))
    return [int(n[1:]) for n, fr in result.shots if n.startswith("t") and shows(fr, yt)]


def scripts(font, taps=700):
    """{name: Shot} of every screen (see the docstring)."""
    lang = _lang()
    tr = lang.get
    import app
    import menu_keys as M

    start = _keys(M.new_game_keys, "scopa", 2, opp=app.HARD)
    out = {
        "menu": Shot("sim", "wait:300 shot:menu"),
        "help": Shot("sim", _keys(M.keys_to, lang.HOW_TO) + " A shot:help"),
    }
    # New game: the options of Scopa for 2, "Opponents" just set to Hard
    setup = _keys(M.new_game_keys, "scopa", 2, opp=app.HARD, start=False)
    out["setup"] = Shot("sim", setup + " shot:setup", (tr(lang.OPPONENTS),))
    # a game: A taps, a shot after each; find the moments
    r = sim.run("sim", start + " " + _taps(taps), timeout=600, capture=True)
    ok, rnd = font.rows(tr(lang.OK_BACK), tr(lang.ROUND) % 1)
    i = _first(r, lambda f: find_text(frame_rows(f), ok) >= 0)
    j = _first(r, lambda f: text_at(frame_rows(f), rnd, 0, 0))
    k = _first(r, lambda f: winner(f, font) is not None)
    if i is None or j is None or k is None:
        raise RuntimeError("no capture choice, round end or winner in %d taps" % taps)
    # the first turn where the hint takes two cards side by side: the
    # cursor there (pick), then the hint (hint, and on the colour board)
    hint = " wait:500 long:B wait:500 shot:"
    for h in _turns(r, font):
        hr = sim.run("sim", start + " A" * h + hint + "hint", timeout=600, capture=True)
        xs = lit_cards(hr.shots[-1][1])
        if any(b - a == gfx_step() for a, b in zip(xs, xs[1:])):
            break
    else:
        raise RuntimeError("no hint taking two neighbours in %d taps" % taps)
    at = start + " A" * h
    out["pick"] = Shot("sim", at + " wait:500 shot:pick", (tr(lang.YOUR_TURN),))
    out["hint"] = Shot("sim", at + hint + "hint")
    out["choose"] = Shot(
        "sim", start + " A" * (i - 1) + " A right shot:choose", (tr(lang.OK_BACK),)
    )
    out["round"] = Shot("sim", start + " A" * j + " shot:round", (tr(lang.ROUND) % 1,))
    out["primiera"] = Shot("sim", start + " A" * j + " right shot:primiera", (tr(lang.PRIMIERA),))
    out["winner"] = Shot("sim", start + " A" * k + " shot:winner")
    # Scopa for 4, partners Hard, the partner's hand visible: the round's
    # end, then the turns of the next round's first hand (the player plays
    # last there: the round's page lists the three plays before)
    start4 = _keys(
        M.new_game_keys,
        "scopa",
        4,
        partner=app.HARD,
        opp=app.HARD,
        rows=[(lang.SEE_PARTNER, tr(lang.ON))],
    )
    r = sim.run("sim", start4 + " " + _taps(taps // 3), timeout=600, capture=True)
    j = _first(r, lambda f: text_at(frame_rows(f), rnd, 0, 0))
    turns = [t for t in _turns(r, font) if j is not None and t > j]
    if j is None or len(turns) < 3:
        raise RuntimeError("no round end and three turns after it in %d taps" % (taps // 3))
    first = start4 + " A" * turns[0]
    partner = tr(lang.PARTNER) + " P3"
    out["partner"] = Shot("sim", first + " wait:500 shot:partner", (tr(lang.YOUR_TURN),))
    out["peek"] = Shot("sim", first + " wait:500 up shot:peek", (partner,))
    out["info"] = Shot("sim", start4 + " A" * turns[2] + " down shot:info", (tr(lang.MAZZO),))
    out["teams"] = Shot("sim", start4 + " A" * j + " shot:teams", (tr(lang.ROUND) % 1,))
    # a game saved: New game asks first; a damaged save: the menu's note
    out["replace"] = Shot("sim", start + " B up A shot:replace", (tr(lang.REPLACE_GAME),))
    out["note"] = Shot(
        "sim", "wait:300 shot:note", (tr(lang.SAVE_RESTORED),), start + " A" * 40, app.GAME
    )
    # the table idle for the sleep time (a minute): dimmed, a key wakes it
    out["doze"] = Shot("sim", start + " wait:61000 shot:doze", (tr(lang.WAKE_KEY),))
    # the colour board: the pick and the hint above, the partner's mark
    out["colour-pick"] = Shot(
        "sim-colour", at + " wait:500 shot:colour-pick", (tr(lang.YOUR_TURN),)
    )
    out["colour"] = Shot("sim-colour", at + hint + "colour")
    out["colour-partner"] = Shot(
        "sim-colour", first + " wait:500 shot:colour-partner", (tr(lang.YOUR_TURN),)
    )
    return out


def gfx_step():
    """The x step of side-by-side cards on the 128 x 64 mono screen."""
    mpy.setup_cpython_path()
    from ui import gfx

    lay = gfx.Layout(128, 64)
    return lay.cw + lay.gap


def take(name, shot, font, out, scale):
    """Play `shot` and write `out`/`name`.png; the Result. Raises
    RuntimeError when the shot is missing or does not show its texts."""
    with tempfile.TemporaryDirectory(prefix="scopa_screens_") as flash:
        if shot.before:
            r = sim.run(shot.board, shot.before, flash=flash, timeout=600, capture=True)
            if r.returncode:
                raise RuntimeError("%s: the script before it ended %d" % (name, r.returncode))
            p = Path(flash) / shot.damage
            p.write_bytes(p.read_bytes()[:-5])
        r = sim.run(
            shot.board, shot.keys, flash=flash, png_dir=out, scale=scale, timeout=600, capture=True
        )
    frames = [fr for n, fr in r.shots if n == name]
    if not frames or r.returncode:
        raise RuntimeError("%s: no shot (exit %d)" % (name, r.returncode))
    for t, g in zip(shot.shows, font.rows(*shot.shows)):
        if not shows(frames[-1], g):
            raise RuntimeError("%s: the screen does not show %r" % (name, t))
    return r


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help="folder for the PNGs")
    ap.add_argument("--scale", type=int, default=3, help="PNG pixels per screen pixel")
    a = ap.parse_args(argv)
    font = Font()
    try:
        for name, shot in scripts(font).items():
            take(name, shot, font, a.out, a.scale)
            print("scopa-screens: %s" % (a.out / (name + ".png")))
    except RuntimeError as e:
        print("scopa-screens: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
