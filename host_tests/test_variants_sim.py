"""A whole match of each regional game in the simulator: the real
firmware on the MicroPython unix port (tools/sim.py, board sim, headless,
virtual clock), driven by a key script as a player would press the
buttons: New game, the game, its options, every computer at Easy, Start,
then A (play the card under the cursor, its first capture; next page;
next round) until the match is over.

The keys of the menus are found by reading them (the real app on CPython,
a fake board), so they follow the menus when rows move. The winner screen
is recognised on the frames themselves: the match page's "You win!" or
"You lose" line, pixel for pixel as framebuf draws it.
"""

import re
import tempfile

import pytest

import app
import config as C
import lang
import menu_keys
import mpy
from scopa.rules import Rules
from tools import sim

pytestmark = [pytest.mark.mpy, pytest.mark.slow]

TAPS = 2000  # A presses after Start: about three matches of Cirulla to 51


# --- the menus, read on CPython --------------------------------------------------


class Menus(menu_keys.Menus):
    def down_to(self, pred, what):
        if not self.go_row(lambda i, r: pred(self.screen)):
            raise LookupError("no row " + what)

    def right_until(self, pred, what):
        for _ in range(8):
            if pred():
                return
            self.press("R")
        raise LookupError("no choice " + what)


def start_keys(game, players, **opts):
    """Letters (ui_fakeboard.keys) that start `game` (an index of
    config.GAME_KEYS) for `players` from a fresh start menu, with the
    Options rows `opts` (cfg key -> index) and every computer at Easy.
    Returns (letters, the Rules they start)."""
    with tempfile.TemporaryDirectory(prefix="variants_sim_") as folder:
        m = Menus(folder)
        cfg = m.app.settings["cfg"]
        m.down_to(lambda s: s.rows[s.sel][0] == lang.tr(lang.NEW_GAME), "New game")
        m.press("A")
        if game == C.SCOPA:
            title = lang.tr(lang.SCOPA_FOR) % players
        else:
            title = C.GAME_NAMES[C.family(game)]
        m.down_to(lambda s: s.rows[s.sel][0] == title, title)
        m.press("A")

        def row(key):
            m.down_to(lambda s: s.keys[s.sel] == key, key)

        if game in C.DEALS:
            row("deal")
            m.right_until(lambda: cfg["game"] == game, "deal")
        elif game != C.SCOPA:
            row("players")
            m.right_until(lambda: cfg["players"] == players, "players")
        want = dict(opts, opp=app.EASY)
        if players >= 4:
            want["partner"] = app.EASY
        for key, v in want.items():
            row(key)
            m.right_until(lambda key=key, v=v: cfg[key] == v, "%s %s" % (key, v))
        row(None)  # Start
        m.press("A")
        g = m.app.game
        assert g is not None and g.rules == C.make_rules(cfg)
        assert m.app.levels.count(app.EASY) == players - 1
        return m.keys, g.rules


# --- the winner screen on the frames ------------------------------------------------

RENDER = """
import framebuf
buf = bytearray(128 * 8)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
for t in {texts!r}:
    fb.fill(0)
    fb.text(t, (128 - 8 * len(t)) // 2, {y}, 1)
    print(buf.hex())
"""


def _rows(data, y0, h):
    # pixel rows y0..y0+h-1 of a 128-wide MONO_VLSB buffer, as bit strings
    out = []
    for y in range(y0, y0 + h):
        page, bit = divmod(y, 8)
        out.append("".join(str(data[page * 128 + x] >> bit & 1) for x in range(128)))
    return out


@pytest.fixture(scope="module")
def winner_lines(tmp_path_factory):
    """The pixel rows of the match page's verdict (ui/summary.py: centred
    at y = 4), English."""
    lang.load("en")
    texts = [lang.tr(lang.YOU_WIN), lang.tr(lang.YOU_LOSE)]
    out = mpy.run_mpy(RENDER.format(texts=texts, y=4))
    return {t: _rows(bytes.fromhex(h), 4, 8) for t, h in zip(texts, out.split())}


def winner_screens(frames, winner_lines):
    """(frame index, verdict) of each frame that shows a match's verdict."""
    seen = []
    for i, fr in enumerate(frames):
        if (fr.width, fr.height) != (128, 64):
            continue
        rows = _rows(fr.data, 4, 8)
        for text, want in winner_lines.items():
            if rows == want:
                seen.append((i, text))
    return seen


# --- the matches -----------------------------------------------------------------

VARIANTS = [
    pytest.param(C.D_ASSI, 2, {}, id="scopa_d_assi"),
    pytest.param(C.A_15, 2, {}, id="scopa_15"),
    pytest.param(C.CIRULLA, 2, {}, id="cirulla"),
    pytest.param(C.SCOPONE_10, 4, {}, id="scopone_10"),
    pytest.param(C.SCOPA, 2, {"napola": 1, "rebello": 1}, id="scopa_re_bello_napola"),
]


@pytest.mark.parametrize("game, players, opts", VARIANTS)
def test_whole_match_by_key_script(game, players, opts, winner_lines):
    letters, rules = start_keys(game, players, **opts)
    script = menu_keys.sim_script(letters) + " A*%d" % TAPS
    r = sim.run("sim", script, capture=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    out = r.stdout.splitlines()
    started = [ln for ln in out if ln.startswith("new game: ")]
    assert started == [
        "new game: %s, %d players, rules %s" % (C.GAME_KEYS[game], players, rules.code())
    ], started
    # the rounds of the first match, to the target
    totals = []
    for ln in out:
        m = re.match(r"round (\d+) over: ([\d ]+)$", ln)
        if m:
            if m.group(1) == "1" and totals:
                break  # the next match
            totals.append([int(t) for t in m.group(2).split()])
    assert totals, "no round was played"
    last = totals[-1]
    assert max(last) >= rules.target, totals
    assert last.count(max(last)) == 1, totals  # one side ahead: the match is won
    # the winner screen was shown, saying who won
    shown = winner_screens(r.frames, winner_lines)
    assert shown, "no winner screen in %d frames" % len(r.frames)
    first = shown[0][1]
    want = lang.tr(lang.YOU_WIN) if last.index(max(last)) == 0 else lang.tr(lang.YOU_LOSE)
    assert first == want, (first, totals)
    # the device's own line at the match's end, when it prints one
    said = [ln for ln in out if ln.startswith("match: ")]
    if said:
        assert said[0].endswith("-".join(str(t) for t in last)), (said[0], last)
    if game == C.CIRULLA:
        assert any(ln.startswith("news: ") for ln in out)  # declarations, the dealer's 15


def test_start_keys_give_the_house_rules():
    letters, rules = start_keys(C.D_ASSI, 3, aceace=1, acescopa=1, kings=0, rebello=2)
    assert rules == Rules(
        "scopa_d_assi",
        players=3,
        ace_on_ace="all",
        ace_sweep_scopa=True,
        redeal_kings=False,
        re_bello="6D",
    )
    assert letters.startswith("A")
