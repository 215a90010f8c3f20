"""The whole app driven in-process by a fake board: boot, menus, a match
by scripted keys, save and resume, idle sleep; on CPython and on the
MicroPython unix port (compiled to .mpy, in a 128 KiB heap)."""

import json
import shutil
import sys

import pytest

import app
import lang
import store
import ui_fakeboard as F
from scopa import replay


def forever(key=F.A, hold=60):
    while True:
        yield key, hold


def run(script, tmp_path, steps=20000, until=None, **kw):
    b = F.Board(script, **kw)
    a = app.run(b, max_steps=steps, folder=str(tmp_path), until=until)
    return a, b


def test_boot_line_and_menu_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "board.json").write_text(json.dumps({"board": "fake"}))
    monkeypatch.chdir(tmp_path)
    b = F.Board(())
    monkeypatch.setitem(sys.modules, "board", b)
    real = app.run
    monkeypatch.setattr(app, "run", lambda board: real(board, max_steps=50))
    app.main()
    out = capsys.readouterr().out.split("\n")
    assert out[0] == "Scopa %s on fake" % app.VERSION
    assert out[1].startswith("menu: New game | ")
    assert "About" in out[1]
    assert "New game" in b.display.screen_text() or "Scopa" in b.display.screen_text()


def test_boot_without_config(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    app.main()
    assert capsys.readouterr().out.startswith("Scopa %s no board config" % app.VERSION)


def test_menu_shows_continue_only_with_a_saved_game(tmp_path):
    a, b = run(F.keys(""), tmp_path, 20)
    assert "Continue" not in b.display.screen_text()
    a, b = run(F.keys("AAA"), tmp_path, 400)
    assert a.screen_mod == "table"
    a, b = run(F.keys(""), tmp_path, 20)
    assert a.screen_mod == "table"  # a saved game resumes at once
    a, b = run(F.keys("B"), tmp_path, 100)
    assert a.screen_mod == "menu"
    assert "Continue" in b.display.screen_text()


def test_new_game_scopone_scientifico_by_keys(tmp_path):
    # New game, down to Scopone, its options (the deal: scientifico first,
    # the Scopone manual's), Start is selected: A
    a, b = run(F.keys("ADDDDAA"), tmp_path, 1500)
    g = a.game
    assert g.rules.game == 2 and g.rules.players == 4 and g.rules.hand == 10
    assert a.levels[0] == app.HUMAN and a.levels.count(app.HUMAN) == 1
    assert len(g.hand(0)) == 10 or a.plays


def test_whole_match_by_pressing_a(tmp_path):
    a, b = run(forever(), tmp_path, 400000, until=lambda a: a.matches >= 1)
    g = a.game
    assert g.over and g.winner is not None
    assert max(g.totals) >= g.rules.target
    assert a.screen_mod == "summary"
    # then A through the last page starts a new match
    a.loop(20000, until=lambda a: a.screen_mod == "table")
    assert a.game is not g and a.game.round_no == 1 and a.game.totals == [0, 0]


def test_saved_after_every_play_and_resumed(tmp_path):
    a, b = run(forever(), tmp_path, 3000, until=lambda a: a.plays >= 7)
    code = replay.encode(a.game)
    obj, status, _ = store.load(app.GAME, str(tmp_path))
    assert status == store.OK and obj["code"] == code
    a2, b2 = run(F.keys(""), tmp_path, 5)
    assert replay.encode(a2.game) == code
    assert a2.levels == a.levels


def test_damaged_save_falls_back_and_says_so(tmp_path):
    a, b = run(forever(), tmp_path, 3000, until=lambda a: a.plays >= 4)
    p = tmp_path / app.GAME
    p.write_bytes(p.read_bytes()[:-5])
    a2, b2 = run(F.keys(""), tmp_path, 5)
    assert a2.note == lang.T(lang.SAVE_RESTORED)
    assert a2.game.moves_played() == a.game.moves_played() - 1
    # shown on the menu (Continue resumes), not hidden behind the table
    assert a2.screen_mod == "menu"
    assert lang.T(lang.SAVE_RESTORED) in b2.display.screen_text()
    (tmp_path / app.GAME).write_bytes(b"junk")
    (tmp_path / (app.GAME + ".bak")).write_bytes(b"junk")
    a3, b3 = run(F.keys(""), tmp_path, 5)
    assert a3.game is None and a3.screen_mod == "menu"
    assert a3.note == lang.T(lang.SAVE_LOST)
    assert lang.T(lang.SAVE_LOST) in b3.display.screen_text()


@pytest.mark.parametrize("backup", [True, False])
def test_damaged_settings_fall_back_and_say_so(tmp_path, backup):
    a, b = run(F.keys(""), tmp_path, 5)
    a.settings["faces"] = 1
    a.save_settings()
    a.save_settings()  # a .bak of the same settings
    p = tmp_path / app.SETTINGS
    p.write_bytes(p.read_bytes()[:-3])
    if not backup:
        (tmp_path / (app.SETTINGS + ".bak")).write_bytes(b"junk")
    a2, b2 = run(F.keys(""), tmp_path, 5)
    want = lang.T(lang.SAVE_RESTORED if backup else lang.SAVE_LOST)
    assert a2.note == want and want in b2.display.screen_text()
    assert a2.settings["faces"] == (1 if backup else 0)


def test_out_of_memory_while_a_screen_is_made_retries(tmp_path, monkeypatch, capsys):
    # MemoryError while the next screen is built: the app frees what it can
    # and builds it at the next turn of the loop (no screen in between).
    import ui.menu as M

    real = M.Games.build
    calls = []

    def build(self):
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError
        real(self)

    monkeypatch.setattr(M.Games, "build", build)
    a, b = run(F.keys("A"), tmp_path, 100)
    assert len(calls) == 2 and type(a.screen).__name__ == "Games"
    assert "app: low memory" in capsys.readouterr().out
    assert lang.T(lang.NEW_GAME) in b.display.screen_text()


def test_idle_sleep_and_wake(tmp_path):
    a, b = run(F.keys(""), tmp_path, 10)
    timeout = a.sleep_ms()
    assert timeout > 0
    a.loop(timeout // app.TICK_MS + 50)
    assert a.asleep and not b.display.on
    b.buttons.push(F.keys("D"))
    a.loop(30)
    assert not a.asleep and b.display.on
    assert a.screen.sel == 0  # the waking key did nothing else


def test_settings_persist(tmp_path):
    # Settings, language: one to the right (Italiano), back
    a, b = run(F.keys("DDARB"), tmp_path, 300)
    assert a.settings["lang"] == 1
    assert "Nuova partita" in b.display.screen_text()
    a2, b2 = run(F.keys(""), tmp_path, 5)
    assert a2.settings["lang"] == 1 and lang.code == "it"
    lang.load("en")


# ---------------------------------------------------------------------------
# On the MicroPython unix port, compiled to .mpy


def _with_data(mpy_firmware):
    """The compiled firmware plus its data files (lang/*.txt), which the
    flash tool copies as they are."""
    src = app.__file__.rsplit("/", 1)[0] + "/lang"
    for p in sorted(__import__("pathlib").Path(src).glob("*.txt")):
        shutil.copyfile(p, mpy_firmware / "lang" / p.name)
    return mpy_firmware


@pytest.mark.mpy
@pytest.mark.parametrize("loop", ["A", "HAA"], ids=["plays", "hint_each_play"])
@pytest.mark.parametrize("game", ["scopa", "scopone_scientifico"])
def test_compiled_app_plays_a_match_against_hard_in_128k(game, loop, mpy_firmware, tmp_path):
    # The whole app compiled, on a lean board (tools/bench_app.py): a key
    # script starts the game with every computer seat Hard (Scopone
    # scientifico: the partner too) and plays the human's cards until the
    # winner's page (asking a hint before each play: HAA); no computer
    # move may fall back to a random one for lack of memory.
    from tools import bench_app

    fw = _with_data(mpy_firmware)
    res, _ = bench_app.play(fw, game, "128K", cwd=tmp_path, loop=loop)
    assert bench_app.completes(res), res
    assert res["over"][:2] == ["True", "winner"], res
    levels = [int(v) for v in res["levels"]]
    assert levels.count(app.HUMAN) == 1 and levels.count(app.HARD) == len(levels) - 1
    assert len(levels) == bench_app.GAMES[game]
    totals = [int(t) for t in res["totals"][:-2]]
    assert max(totals) >= int(res["totals"][-1])
    assert int(res["heap_peak"][0]) < 128 * 1024


@pytest.mark.mpy
def test_compiled_app_heap_does_not_depend_on_the_folders(mpy_firmware, tmp_path):
    # The firmware and the flash at paths of three lengths (as pytest's
    # --basetemp, TMPDIR and the user name make them): the same match has
    # the same live-heap peak to the byte, because the app runs from a
    # board's paths (scopa/engine.mpy), not from the folders' own.
    from tools import bench_app

    fw = _with_data(mpy_firmware)
    peaks = set()
    for n in (1, 36, 83):
        d = tmp_path / ("d" * n)
        shutil.copytree(fw, d / "fw")
        (d / "flash").mkdir()
        res, _ = bench_app.play(d / "fw", "scopa", "128K", cwd=d / "flash")
        assert bench_app.completes(res), res
        peaks.add((res["heap_menu"][0], res["heap_peak"][0]))
        # the links are gone: the flash holds what the app wrote
        left = sorted(p.name for p in (d / "flash").iterdir())
        assert left == sorted([app.GAME, app.GAME + ".bak", app.SETTINGS]), left
    assert len(peaks) == 1, peaks


# ---------------------------------------------------------------------------
# Killed at random moments, the app restarts into the same position

KILL_RUN = """
import sys
sys.path.append({host!r})
import ui_fakeboard as F
import app
def forever():
    while True:
        yield F.A, 60
b = F.Board(forever())
b.VERBOSE = True
app.run(b)
"""

RESUME = """
import sys
sys.path.append({host!r})
import ui_fakeboard as F
import app
from scopa import replay
a = app.run(F.Board(()), max_steps=3)
print("resumed", replay.encode(a.game) if a.game else None, a.screen_mod)
"""


def _saved_codes(text):
    return [ln.split()[1] for ln in text.split("\n") if ln.startswith("saved: ")]


@pytest.mark.mpy
@pytest.mark.slow
def test_resume_after_kill_at_random_moments(mpy_firmware, tmp_path):
    import os
    import random
    import subprocess
    import time
    from pathlib import Path

    import mpy

    fw = _with_data(mpy_firmware)
    host = str(Path(__file__).parent)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([".frozen", str(fw)]))
    rng = random.Random(7)
    checked = 0
    for k in range(8):
        d = tmp_path / str(k)
        d.mkdir()
        (d / "run.py").write_text(KILL_RUN.format(host=host))
        (d / "resume.py").write_text(RESUME.format(host=host))
        with open(d / "out.txt", "w") as out:
            p = subprocess.Popen([mpy.MICROPYTHON, "run.py"], cwd=d, env=env, stdout=out)
            time.sleep(0.3 + rng.random() * 1.2)
            p.kill()
            p.wait()
        saved = _saved_codes((d / "out.txt").read_text())
        r = subprocess.run([mpy.MICROPYTHON, "resume.py"], cwd=d, env=env, capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        line = [ln for ln in r.stdout.split("\n") if ln.startswith("resumed ")][0]
        code = line.split()[1]
        if not saved:
            continue
        last = saved[-1]
        if code != last:
            # killed inside the save of the next position: that one or the last
            g, g0 = replay.decode(code), replay.decode(last)
            if g.seed == g0.seed:
                assert replay.indices(g)[:-1] == replay.indices(g0), (code, last)
            else:
                assert g.moves_played() <= 1  # a new match had just begun
        checked += 1
    assert checked >= 6
