"""Whole matches played through the simulator by key scripts: tools/sim.py
runs the real firmware on the MicroPython unix port (board sim, headless,
virtual clock), a key script starts a New game from the start menu and then
taps A until the script ends: the human plays the card under the cursor
(and, with several captures, the first). The match must reach the winner's
screen: the app prints ``match: side N wins T-U`` (ui/summary.py) and one
of the frames is the summary's last page, read from its pixels ("You win!"
or "You lose", "A: new match"), which must agree with that line.

The menus' keys are found by reading the menus (host_tests/menu_keys.py),
so the scripts follow the menus as they change. Runs: Scopa for 2 against
the default level from source, against Hard compiled to .mpy (as the flash
tool puts it on a board), and Scopone scientifico with a computer partner,
compiled.
"""

import contextlib
import io

import pytest

import app
import lang
import menu_keys
import store
from lang import tr
from scopa import replay
from scopa.rules import GAMES
from tools import png, screens, sim

pytestmark = [pytest.mark.mpy, pytest.mark.slow]

# A taps after the menus: a match of Scopa for 2 takes about 350 here and
# one of Scopone scientifico about 450; the script is bounded, not the game.
TAPS = 1500


@pytest.fixture(scope="module")
def font():
    return screens.Font()


def play_match(tmp_path, game, players, partner=None, opp=None, mpy_compiled=False):
    with contextlib.redirect_stdout(io.StringIO()):  # the in-process app's lines
        keys = menu_keys.new_game_keys(game, players, partner=partner, opp=opp)
    script = menu_keys.sim_script(keys) + " A*%d" % TAPS
    flash = tmp_path / "flash"
    r = sim.run("sim", script, mpy_compiled=mpy_compiled, flash=flash, capture=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r, flash


def check_match(r, flash, font, tmp_path, game, players, levels):
    out = r.stdout.splitlines()
    assert out[0].startswith("Scopa ") and out[0].endswith(" on sim")
    # the game played, as saved on the sim's flash: its rules and seats
    rec, status, _ = store.load(app.GAME, str(flash))
    g = replay.decode(rec["code"])
    assert (GAMES[g.rules.game], g.rules.players) == (game, players)
    assert rec["levels"] == levels
    # the end of the first match, printed, then its winner's screen
    ends = [ln for ln in out if ln.startswith("match: ")]
    assert ends, "no match over in %d taps:\n%s" % (TAPS, "\n".join(out[-5:]))
    first = ends[0].split()
    assert first[1] in ("side", "draw")
    pts = [int(t) for t in first[-1].split("-")]
    assert max(pts) >= g.rules.target
    titles = [(i, screens.winner(f, font)) for i, f in enumerate(r.frames)]
    shown = [(i, t) for i, t in titles if t]
    assert shown, "no frame of the winner's screen"
    i, title = shown[0]
    if first[1] == "draw":
        assert title == tr(lang.DRAW)
    else:
        side = int(first[2]) - 1
        assert pts[side] == max(pts)
        me = g.rules.side(levels.index(app.HUMAN))
        assert title == tr(lang.YOU_WIN if side == me else lang.YOU_LOSE)
    # and a screenshot of it
    f = r.frames[i]
    png.write_frame_png(tmp_path / "winner.png", f.width, f.height, f.mode, f.data, 3)
    assert (tmp_path / "winner.png").read_bytes().startswith(b"\x89PNG")
    return ends


def test_scopa_match_against_the_default_level(tmp_path, font):
    r, flash = play_match(tmp_path, "scopa", 2)
    default = app._config().default_settings()["cfg"]["opp"]
    ends = check_match(r, flash, font, tmp_path, "scopa", 2, [app.HUMAN, default])
    assert len(ends) >= 1


def test_scopa_match_against_hard_compiled(tmp_path, font):
    r, flash = play_match(tmp_path, "scopa", 2, opp=app.HARD, mpy_compiled=True)
    check_match(r, flash, font, tmp_path, "scopa", 2, [app.HUMAN, app.HARD])


def test_scopone_scientifico_match_with_a_computer_partner_compiled(tmp_path, font):
    r, flash = play_match(
        tmp_path, "scopone_scientifico", 4, partner=app.HARD, opp=app.HARD, mpy_compiled=True
    )
    levels = [app.HUMAN, app.HARD, app.HARD, app.HARD]
    check_match(r, flash, font, tmp_path, "scopone_scientifico", 4, levels)
