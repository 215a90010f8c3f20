"""The web board (boards/web/board.py) on the MicroPython unix port, without
a browser: the app a turn at a time (`App.step`, as the page calls it) does
what `App.loop` does, and
its keys must hand every tap to the app however long a turn lasts; and the
page's firmware pack (tools/web) holds the firmware as the flash tool
stages it, as bytecode the WebAssembly port loads."""

import os

import pytest

import app
import mpy

WEB = mpy.ROOT / "boards" / "web"

# The same key script on two apps: one runs App.loop for N turns, the other
# App.step for N turns, as the web board's page runs it, sleeping what each
# turn asks.
SAME = """
import sys
sys.path.append({host!r})
sys.path.append({web!r})
import app
import board as web
import ui_fakeboard as F
from scopa import replay


def run(stepped, folder):
    b = F.Board(F.keys({keys!r}))
    a = app.App(b, folder)
    a.start()
    if stepped:
        for _ in range({n}):
            a.clock.sleep_ms(a.step())
    else:
        a.loop({n})
    print("code", replay.encode(a.game) if a.game else None)
    print("screen", a.screen_mod, a.plays, a.matches, a.asleep)
    print("frames", b.display.frames, b.display.on, bytes(b.display.buf).hex())


print("== loop")
run(False, {folder!r} + "/loop")
print("== web")
run(True, {folder!r} + "/web")
"""


def _menu_keys():
    import menu_keys

    return menu_keys.new_game_keys("scopa", 2, opp=app.MEDIUM)


@pytest.mark.mpy
@pytest.mark.slow
def test_app_a_step_at_a_time_plays_as_app_loop(tmp_path):
    # a game started from the menu, cards played and a hint asked; idle
    # until the screen dozes (the default setting: 60 s), a key that wakes
    # the dimmed screen, then idle until it sleeps (twice that)
    keys = _menu_keys() + "A" * 12 + "RRA" + "b" + "A" * 6 + "." * 130 + "A" + "." * 250
    host = str(mpy.ROOT / "host_tests")
    code = SAME.format(host=host, web=str(WEB), keys=keys, folder=str(tmp_path), n=30000)
    (tmp_path / "loop").mkdir()
    (tmp_path / "web").mkdir()
    out = mpy.run_mpy(code, timeout=600)
    loop, _, web = out.partition("== web")
    lines = [ln for ln in loop.splitlines() if ln.split()[:1] in (["code"], ["screen"], ["frames"])]
    wlines = [ln for ln in web.splitlines() if ln.split()[:1] in (["code"], ["screen"], ["frames"])]
    assert len(lines) == 3, out
    assert "code S1." in lines[0], lines[0]  # a game was played
    assert lines[1].endswith(" True"), lines[1]  # and the screen went to sleep
    assert lines == wlines


# the web board's keys on a clock the script sets (c.t, ms)
CLOCKED = """
import sys
sys.path.append({web!r})
import board as web
from ui.buttons import A, B, DOWN, LEFT, UP


class Clock:
    t = 0

    def ticks_ms(self):
        return self.t


c = Clock()
k = web.WebKeys(c)
"""

KEYS = (
    CLOCKED
    + """
k.push(A, True)  # a tap far shorter than a turn
k.push(A, False)
k.push(B, True)
k.push(B, True)  # a key down twice: changes nothing
k.push(B, False)
seen = []
for t in (0, 1, 39, 40, 200, 239, 240, 1000):
    c.t = t
    seen.append(k.read())
print("masks", seen)
"""
)


@pytest.mark.mpy
def test_keys_hold_each_change_long_enough():
    out = mpy.run_mpy(KEYS.format(web=str(WEB)))
    # the board's first change waits HOLD_MS (40) from its creation, then
    # each change lasts HOLD_MS of the clock and two reads at least (A's
    # press, read once at 40 and gone at 200, was one the debouncer drops)
    assert "masks [0, 0, 0, 16, 16, 0, 0, 32]" in out, out


# a DOWN tap pushed just before the read at `tap`, the keys read at `times`
# (ms) and handed to the debouncer as the app does: the events it gives
TAPPED = (
    CLOCKED
    + """
from ui.buttons import Debouncer

deb = Debouncer()
evs = []
for t in {times}:
    c.t = t
    if t == {tap}:
        k.push(DOWN, True)
        k.push(DOWN, False)
    ev = deb.poll(k.read(), t)
    while ev:
        evs.append(ev)
        ev = deb.next()
print("events", evs, DOWN)
"""
)


@pytest.mark.mpy
def test_a_tap_wakes_the_screen_read_every_40_ms():
    # asleep, the app reads the keys every 40 ms: a tap was handed to it
    # for one read, which the debouncer takes for a bounce, so a short tap
    # did not wake the screen (a tester's find, in the browser)
    # (read every 40 ms, as the app asleep; a 30 ms tap between two reads)
    out = mpy.run_mpy(TAPPED.format(web=str(WEB), times="range(0, 400, 40)", tap=80))
    evs, down = out.split("events ")[1].rsplit(" ", 1)
    assert evs == "[%d]" % int(down), out  # its PRESS, once


@pytest.mark.mpy
def test_a_tap_is_taken_when_the_turns_come_unevenly():
    # the press handed over at 40 and read again at 52 (12 ms: not yet
    # debounced), its release handed over at 95: the debouncer never saw
    # the press held 20 ms, and the tap was lost (New game's keys in the
    # browser test under a heavy load)
    # (turns at irregular times: a loaded machine)
    out = mpy.run_mpy(TAPPED.format(web=str(WEB), times=(40, 52, 95, 140, 200), tap=40))
    evs, down = out.split("events ")[1].rsplit(" ", 1)
    assert evs == "[%d]" % int(down), out  # its PRESS, once


MASHED = (
    CLOCKED
    + """
for i in range(31):  # taps far faster than the app reads them: 62 changes
    k.push(A, True)
    k.push(A, False)
k.push(A, True)  # A held, then B pressed, on a full queue
k.push(B, True)
k.push(B, False)
k.push(A, False)
for i in range(40):  # and more taps on a full queue
    k.push(A, True)
    k.push(A, False)
while k._queue:
    c.t += 40
    k.read()
k.push(B, True)  # B held through a mash faster than it is read
for i in range(600):
    k.push((A, UP, DOWN, LEFT)[i % 4], True)
    k.push((A, UP, DOWN, LEFT)[i % 4], False)
    if i % 3 == 0:
        c.t += 40
        k.read()
print("queued", len(k._queue))
k.push(B, False)
while k._queue:
    c.t += 40
    k.read()
print("held", k.mask)
"""
)


@pytest.mark.mpy
def test_mashed_keys_never_stay_held():
    # past 64 queued changes every change was dropped, the releases too: a
    # key pressed stayed held (B: the hint) until pressed again (a tester's
    # find, in the browser)
    out = mpy.run_mpy(MASHED.format(web=str(WEB)))
    assert "held 0" in out, out
    queued = int(out.split("queued ")[1].split()[0])
    assert 8 <= queued <= 8 + 6, out  # a release of each key held, past 8


LAG = (
    CLOCKED
    + """
from ui.buttons import RIGHT, Debouncer


def fresh():
    # new keys, read for 100 ms: the presses the app gets from here on
    global k, deb, got
    k = web.WebKeys(c)
    deb = Debouncer()
    got = ""
    run(100)


def run(ms):
    # the app awake: a read every 10 ms for `ms`
    global got
    for _ in range(ms // 10):
        c.t += 10
        ev = deb.poll(k.read(), c.t)
        while ev:
            if ev in (A, RIGHT):
                got += "A" if ev == A else "R"
            ev = deb.next()


def idle():
    # ms until every change queued is read and no key is held
    t0 = c.t
    while k._queue or k.mask:
        run(10)
    return c.t - t0


fresh()
for i in range(40):  # mashed: 40 taps faster than a turn
    k.push(RIGHT, True)
    k.push(RIGHT, False)
print("mashed", idle(), got)
fresh()
for i in range(40):  # mashed, then A: the A dropped (it would play another card)
    k.push(RIGHT, True)
    k.push(RIGHT, False)
k.push(A, True)
k.push(A, False)
idle()
print("then-a", got)
for gap in (150, 90):  # a human pace: each tap read
    fresh()
    for i in range(20):
        k.push(RIGHT, True)
        run(40)
        k.push(RIGHT, False)
        run(gap - 40)
    idle()
    print("pace", gap, len(got))
fresh()
for i in range(3):  # three taps in a 500 ms turn (a computer's decision)
    k.push(A, True)
    k.push(A, False)
c.t += 500
idle()
print("turn", got)
"""
)


@pytest.mark.mpy
def test_mashed_keys_stop_soon_after_the_last():
    # 64 changes were queued, each held 40 ms: 40 taps mashed in 80 ms
    # moved the cursor for 2.8 s after the last, and queued A presses
    # played a card after the user stopped (a tester's find, in the browser)
    out = mpy.run_mpy(LAG.format(web=str(WEB)))
    ms, taps = out.split("mashed ")[1].split()[:2]
    assert int(ms) <= 400 and 1 <= len(taps) <= 4, out  # a few taps, not 40
    # the oldest RIGHT taps dropped; the A after them too, not played on a
    # card the player did not aim at (it was, "RRRA": a reviewer's find)
    assert "then-a RRRR\n" in out, out
    assert "pace 150 20" in out and "pace 90 20" in out, out
    assert "turn AAA" in out, out


STOPPED = """
import board as web
web.FRAME = "frame.bin"
import store

a = web.start("")
a.set_setting("sleep", 3)  # saved a second later (a timed save)


def bug(now):
    raise ValueError("a bug")


a.screen.tick = bug
from ui import gfx

text = gfx.text
gfx.text = lambda fb, t, *args: print("text", t) or text(fb, t, *args)
try:
    web.step()
except ValueError:
    print("raised")
print("sleep", store.load("settings.sav")[0]["sleep"])
"""


@pytest.mark.mpy
def test_a_firmware_error_writes_what_waits_and_says_stopped():
    # the page drives App.step, not app.run: an error lost the setting
    # waiting for its timed save, and the screen kept its last frame
    out = mpy.run_mpy(STOPPED, path=(mpy.FIRMWARE, WEB))
    assert "raised" in out and "sleep 3" in out, out
    assert "text Scopa stopped:\ntext ValueError\n" in out, out


HIDDEN = """
import board as web
web.FRAME = "frame.bin"
import store

a = web.start("")
web.step()
a.set_setting("sleep", 3)  # saved a second later (a timed save)
web.flush()  # the page hidden within that second
print("sleep", store.load("settings.sav")[0]["sleep"])
a.set_setting("sleep", 2)
for _ in range(3):  # shown again: the app plays on
    web.step()
print("screen", a.screen_mod)
"""


@pytest.mark.mpy
def test_flush_writes_what_waits_and_the_app_plays_on():
    # a reload or a tab closed within a second of a change lost it: the
    # page had no way to write what waits for a timed save
    out = mpy.run_mpy(HIDDEN, path=(mpy.FIRMWARE, WEB))
    assert "sleep 3" in out and "screen menu" in out, out


SHOWN = """
import time
import board as web
web.FRAME = "frame.bin"
from ui import table

a = web.start("")
a.new_game()
a.levels = [1] * len(a.levels)  # every seat a computer's: its move is shown
a.go("table")
for _ in range(500):  # (the page's turns: THINK_MS, then the move shown)
    time.sleep_ms(web.step() >> 1 & 1023)
    if a.screen_mod == "table" and a.screen.stage == table.SHOW:
        break
plays = a.plays
web.flush(False)  # hidden (a tab switched): the move stays shown
print("hidden", a.screen.stage == table.SHOW, a.plays - plays)
web.flush()  # gone (a reload): not played, shown again after it
print("gone", a.screen.stage == table.SHOW, a.plays - plays)
a.turns.short = a.game  # as when its search had no heap: the medium player's move
web.flush(False)
print("short hidden", a.screen.stage == table.SHOW, a.plays - plays)
web.flush()  # gone: played (the restart's heap may let the search play another)
print("short gone", a.screen.stage == table.SHOW, a.plays - plays)
a.levels[a.game.turn] = 3  # the player's own move shown: played, hidden too
card, taken = a.game.legal_moves()[0]
a.screen._show(card, taken)
web.flush(False)
print("own hidden", a.screen.stage == table.SHOW, a.plays - plays)
"""


@pytest.mark.mpy
def test_a_hidden_page_keeps_a_computers_move_shown():
    # a tab switched while a computer's move was shown played it at once:
    # back within 1.5 s, the player never saw it (a reviewer's find); the
    # page gone, it is not played either (shown again when the page comes
    # back, ui.table's quit) but for a move not of its level. The player's
    # own move is played, hidden too (a phone may kill a hidden page)
    out = mpy.run_mpy(SHOWN, path=(mpy.FIRMWARE, WEB))
    assert "hidden True 0" in out and "gone True 0" in out, out
    assert "short hidden True 0" in out and "short gone False 1" in out, out
    assert "own hidden False 2" in out, out


def test_firmware_pack_holds_the_staged_firmware_as_bytecode():
    from tools import web
    from tools.flash.compiler import VIPER

    files = web.firmware_files()
    blob = web.pack(files)
    assert web.unpack(blob) == files
    names = {p for p, _ in files}
    fw = mpy.FIRMWARE
    want = {p.relative_to(fw).with_suffix(".mpy").as_posix() for p in fw.rglob("*.py")}
    want -= {"main.mpy"}  # the boot stub: the page starts the app through the board
    # viper code: no native emitter there (ai.core, ai.medium and
    # scopa.engine keep their plain-Python code)
    viper = {n[:-3] + ".mpy" for n in VIPER}
    assert viper == {"ai/leaf.mpy", "scopa/group.mpy"}
    want -= viper
    assert not viper & names
    assert want and want <= names
    assert "board.mpy" in names
    assert {p for p in names if p.endswith(".txt")}  # the language files, as they are
    for p, data in files:
        if p.endswith(".mpy"):
            # "M", version 6, flags 0: bytecode, no native architecture
            # (the port's sys.implementation._mpy is 774: v6.3, no arch)
            assert data[:3] == b"M\x06\x00", p
    with pytest.raises(ValueError):
        web.unpack(blob[:-1])


def test_tools_web_says_why_it_cannot_serve(monkeypatch, capsys):
    import socket

    from tools import web

    builds = []
    monkeypatch.setattr(web, "build", lambda: builds.append(1) or {"index.html": 1})
    with pytest.raises(SystemExit) as e:
        web.main(["--port", "99999"])
    assert e.value.code == 2 and "a port is 0 to 65535" in capsys.readouterr().err
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        busy = s.getsockname()[1]
        assert web.main(["--port", str(busy)]) == 1
    err = capsys.readouterr().err
    assert f"cannot serve on 127.0.0.1:{busy}" in err and "Traceback" not in err
    assert builds == []  # the page another server may be serving is left alone


def test_an_interrupted_build_leaves_the_page_as_it_was(tmp_path, monkeypatch, capsys):
    from tools import web

    port = tmp_path / "port"
    port.mkdir()
    for name in web.PORT_FILES:
        (port / name).write_bytes(b"port")
    monkeypatch.setattr(web, "PORT_PKG", port)
    out = tmp_path / "web"
    out.mkdir()
    (out / "index.html").write_text("the old page")

    def cut(new):
        (new / "index.html").write_text("half a new page")
        raise KeyboardInterrupt

    monkeypatch.setattr(web, "_build", cut)
    with pytest.raises(KeyboardInterrupt):
        web.build(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["port", "web"]  # no half page left
    assert (out / "index.html").read_text() == "the old page"
    build = web.build
    monkeypatch.setattr(web, "build", lambda: build(out))  # still cut: Ctrl-C in main
    assert web.main(["--build-only"]) == 130
    assert capsys.readouterr().err == "tools/web: interrupted; the page in build/web is as it was\n"

    def whole(new):
        (new / "index.html").write_text("the new page")
        return {"index.html": 12}

    monkeypatch.setattr(web, "_build", whole)
    assert build(out) == {"index.html": 12}
    assert (out / "index.html").read_text() == "the new page"
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~umask  # a server of another user reads it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["port", "web"]  # the old one gone
