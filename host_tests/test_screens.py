"""tools/screens.py: the README's screenshots. The screens are read from
the simulator's frames as a player reads them (a text on either board,
lit or inverted; the highlighted cards), and the README shows every
screenshot in docs/screens and no other."""

import contextlib
import io
import re

import pytest

import app
import lang
import menu_keys
from lang import tr
from tools import screens, sim

README = screens.ROOT / "README.md"


@pytest.fixture(scope="module")
def font():
    screens._lang()  # the English strings, as the simulator's fresh settings
    return screens.Font()


def _start():
    with contextlib.redirect_stdout(io.StringIO()):  # the in-process app's lines
        return menu_keys.sim_script(menu_keys.new_game_keys("scopa", 2, opp=app.HARD))


@pytest.mark.mpy
@pytest.mark.parametrize("board", ["sim", "sim-colour"])
def test_a_text_is_read_on_either_board_lit_or_inverted(board, font):
    r = sim.run(board, "wait:300 shot:menu", capture=True, timeout=120)
    frame = dict(r.shots)["menu"]
    new, about, note = font.rows(tr(lang.NEW_GAME), tr(lang.ABOUT), tr(lang.SAVE_RESTORED))
    assert screens.shows(frame, new)  # the cursor's row: dark on lit
    assert screens.shows(frame, about)
    assert not screens.shows(frame, note)


@pytest.mark.mpy
def test_the_highlighted_cards_are_found():
    # the deal's seed is the time of Start: waited for longer, another deal,
    # until one whose hint takes cards (a lay lights none)
    hint = " wait:500 long:B wait:500 shot:hint"
    keys = _start()
    assert keys.endswith(" A")
    for w in range(0, 2000, 250):
        script = keys[:-2] + " wait:%d A wait:500 shot:pick" % (w + 10) + hint
        shots = dict(sim.run("sim", script, capture=True, timeout=120).shots)
        assert screens.lit_cards(shots["pick"]) == []  # no card highlighted on the turn
        xs = screens.lit_cards(shots["hint"])  # the hint's: what its card takes
        if xs:
            break
    assert xs and all(0 <= x <= 128 - 9 for x in xs)


def test_the_readme_shows_every_screenshot():
    shown = set(re.findall(r"\]\((docs/screens/[^)]+\.png)\)", README.read_text()))
    files = {"docs/screens/" + p.name for p in screens.OUT.glob("*.png")}
    assert shown == files
    # and screens.py takes each of them but the page's (host_tests/test_web.py)
    src = (screens.ROOT / "tools" / "screens.py").read_text()
    for f in files - {"docs/screens/web.png"}:
        name = f[len("docs/screens/") : -len(".png")]
        assert '"%s"' % name in src, name
