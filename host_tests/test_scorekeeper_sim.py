"""A whole evening on the scorekeeper through the simulator: the real
firmware, compiled by mpy-cross, on the MicroPython unix port, driven by a
key script (tools/sim.py), as a player would press the buttons.

Names are typed, rounds entered, a wrong round undone, an early round
edited (the matches after it recounted), three matches played. Every total
is checked three ways against a scorer written here, independent of the
engine: the line the device prints for each round, the large digits on
the screen (read back from the frame), and the sheet on the flash at the
end. Then the device is switched off in the middle of a round and on
again: that round is typed on where it was written, a second at most
before the cut.
"""

import pytest

import sheet as S
from scopa import cards as C
from test_scorekeeper import entry_keys
from tools import sim
from ui import gfx

pytestmark = [pytest.mark.mpy, pytest.mark.slow]

CHARS = " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"  # ui/keeper_setup.py
FIELDS = ["t", "d", "s", "p", "sc"]
PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
TARGET = 11


# --- the scorer of this test (pagat.com Scopa; not the engine's code) ----------


def _alone(vals):
    top = max(v for v in vals if v is not None)
    who = [i for i, v in enumerate(vals) if v == top]
    return who[0] if len(who) == 1 else -1


def points(e):
    n = len(e["t"])
    pts = list(e["sc"])
    for key in ("t", "d"):
        w = _alone(e[key])
        if w >= 0:
            pts[w] += 1
    pts[e["s"]] += 1
    if "pc" in e:
        tot = []
        for cards in e["pc"]:
            have = [PRIMIERA[c % 10 + 1] for c in cards if c >= 0]
            tot.append(sum(have) if len(have) == 4 else None)
        w = _alone(tot) if any(t is not None for t in tot) else -1
    else:
        w = e["p"]
    if w >= 0:
        pts[w] += 1
    assert len(pts) == n
    return pts


def evening(rounds):
    """[(points, totals after, winner or None)] per round, matches to 11."""
    out = []
    totals = [0, 0]
    for e in rounds:
        p = points(e)
        totals = [a + b for a, b in zip(totals, p)]
        winner = None
        if max(totals) >= TARGET and totals.count(max(totals)) == 1:
            winner = totals.index(max(totals))
        out.append((p, totals, winner))
        if winner is not None:
            totals = [0, 0]
    return out


# --- the big digits on the screen -------------------------------------------------


def _lit(frame, x, y):
    return bool(frame.data[(y >> 3) * frame.width + x] & (1 << (y & 7)))


def big_totals(frame, n=2):
    """The totals the totals screen shows in large digits (ui/scorekeeper.py:
    the 3 x 5 font of ui/gfx.py, centred in each side's column at y = 11)."""
    w, h = frame.width, frame.height
    cw = w // n
    s = min(cw // 10, (h - 34) // 5)
    out = []
    for i in range(n):
        found = None
        for length in (1, 2, 3):
            tw = 4 * s * length - s
            tx = i * cw + (cw - tw) // 2
            text = ""
            for k in range(length):
                bits = 0
                for row in range(5):
                    for col in range(3):
                        x = tx + 4 * s * k + col * s + s // 2
                        y = 11 + row * s + s // 2
                        bits = bits << 1 | _lit(frame, x, y)
                j = gfx._FONT.index(bits) if bits in gfx._FONT else -1
                text += chr(gfx._CHARS[j]) if j >= 0 else "?"
            # nothing lit just left and right of the digits (the winner's
            # frame is 3 pixels away)
            clear = all(
                not _lit(frame, x, 11 + row * s + s // 2)
                for x in (tx - 1, tx + tw)
                for row in range(5)
            )
            if text.isdigit() and clear:
                found = int(text)
                break
        out.append(found)
    return out


# --- key scripts ----------------------------------------------------------------


def name_keys(old, new):
    """Keys in the name editor from `old` to `new` (3 characters)."""
    old = (old + "   ")[:3]
    new = (new + "   ")[:3]
    keys = []
    for j in range(3):
        d = (CHARS.index(new[j]) - CHARS.index(old[j])) % len(CHARS)
        keys += ["up"] * d if d <= len(CHARS) // 2 else ["down"] * (len(CHARS) - d)
        keys.append("right" if j < 2 else "A")
    return keys


def setup_keys(names):
    """From the start menu: the scorekeeper's set-up (no sheet yet), two
    names typed, Start. Rows: Game Players Target Best Napola Re-bello
    Name1 Name2 Start (Start selected)."""
    keys = ["down", "A", "up", "up", "A"] + name_keys("P1", names[0])
    keys += ["down", "A"] + name_keys("P2", names[1]) + ["down", "A"]
    return keys


def round_keys(e, label):
    return ["A"] + entry_keys(e, FIELDS, 2) + ["shot:" + label]


PC = [
    [C.parse(x) for x in ("6D", "6C", "1S", "5B")],  # 67
    [C.parse(x) for x in ("7D", "7C", "7S", "7B")],  # 84: with the settebello (s 1)
]
R = [
    {"t": [22, 18], "d": [6, 4], "s": 0, "p": 0, "sc": [1, 0]},  # 5 0
    {"t": [16, 24], "d": [3, 7], "s": 1, "p": 1, "sc": [0, 2]},  # 0 6
    {"t": [25, 15], "d": [7, 3], "s": 0, "p": 0, "sc": [2, 1]},  # 6 1
    {"t": [20, 20], "d": [5, 5], "s": 0, "p": -1, "sc": [0, 0]},  # 1 0
    {"t": [19, 21], "d": [4, 6], "s": 1, "pc": PC, "sc": [0, 0]},  # 0 4
    {"t": [30, 10], "d": [9, 1], "s": 0, "p": 0, "sc": [3, 0]},  # 7 0
    {"t": [12, 28], "d": [2, 8], "s": 1, "p": 1, "sc": [0, 5]},  # 0 9
    {"t": [21, 19], "d": [5, 5], "s": 1, "pc": PC, "sc": [1, 1]},  # 2 3
]
WRONG = {"t": [18, 22], "d": [5, 5], "s": 1, "p": 1, "sc": [0, 0]}


def plan():
    """The evening: the key script, the confirmed rounds at each shot, the
    final rounds and the lines the device prints, in order."""
    keys = ["wait:300"] + setup_keys(["ADA", "BO"]) + ["shot:new"]
    shots = {"new": []}
    lines = []
    state = []

    def add(e):
        state.append(e)
        p, t, w = evening(state)[-1]
        won = " (%s wins)" % ("ADA", "BO")[w] if w is not None else ""
        lines.append("sheet: add round %d: %d %d -> %d %d%s" % (len(state), *p, *t, won))
        label = "r%d" % len(lines)
        shots[label] = list(state)
        return round_keys(e, label)

    for i, e in enumerate(R[:4]):
        keys += add(e)
        if i == 1:  # a wrong round, undone
            keys += add(WRONG)
            keys += ["B", "down", "A", "A", "shot:undone"]  # menu, Undo last, yes
            state.pop()
            t = evening(state)[-1][1]
            lines.append("sheet: undo round %d -> %d %d" % (len(state) + 1, *t))
            shots["undone"] = list(state)
    for e in R[4:]:
        keys += add(e)
    # edit round 2 (R[1]): the history from the last row up to the second
    edited = {"t": [16, 24], "d": [3, 7], "s": 1, "p": 0, "sc": [0, 0]}  # 1 3
    keys += ["down"] + ["up"] * (len(state) - 2) + ["A", "A"]
    keys += entry_keys(edited, FIELDS, 2, old=R[1]) + ["B", "shot:edited"]
    state[1] = edited
    p, t, w = evening(state)[1]
    lines.append("sheet: edit round 2: %d %d -> %d %d" % (*p, *t))
    shots["edited"] = list(state)
    for e in (R[0], R[5]):
        keys += add(e)
    return keys, shots, state, lines


@pytest.fixture(scope="module")
def compiled(mpy_firmware):
    """firmware/ compiled by mpy-cross with its data files (lang/*.txt),
    first on the sim's path. (tools/sim.py --mpy leaves the data files out,
    so the strings would not load.)"""
    from test_app import _with_data

    return _with_data(mpy_firmware)


def _sim(keys, flash, compiled):
    return sim.run(
        keys=" ".join(keys),
        flash=flash,
        extra_path=[compiled],
        capture=True,
        heapsize="512K",
        timeout=600,
    )


def test_an_evening_in_the_simulator(tmp_path, compiled):
    keys, shots, rounds, lines = plan()
    flash = tmp_path / "flash"
    r = _sim(keys, flash, compiled)
    assert r.returncode == 0, r.stderr[-2000:]
    # the lines the device printed: every round's points and match totals
    printed = [ln for ln in r.stdout.split("\n") if ln.startswith("sheet: ")][1:]
    assert printed == lines
    # the large digits on every totals screen
    shot = dict(r.shots)
    assert set(shot) == set(shots)
    for name, confirmed in shots.items():
        totals = evening(confirmed)[-1][1] if confirmed else [0, 0]
        assert big_totals(shot[name]) == totals, (name, totals)
    # the sheet on the flash
    sh, status, why = S.load(str(flash))
    assert (status, why) == (0, "") and sh.rounds == rounds and sh.names == ["ADA", "BO"]
    ms = sh.recount()
    ev = evening(rounds)
    assert [m["winner"] for m in ms if m["over"]] == [w for _, _, w in ev if w is not None]
    assert ms[-1]["totals"] == ev[-1][1]
    assert len(ms) >= 3  # several matches


def test_switched_off_in_the_middle_of_a_round(tmp_path, compiled):
    flash = tmp_path / "flash"
    keys = ["wait:300"] + setup_keys(["ADA", "BO"])
    keys += round_keys(R[0], "one") + round_keys(R[1], "two")
    keys += ["A"] + entry_keys(R[2], FIELDS, 2)[:-4] + ["shot:typing", "off"]
    r = _sim(keys, flash, compiled)
    assert r.returncode == 0, r.stderr[-2000:]
    assert big_totals(dict(r.shots)["two"]) == [5, 6]
    # the round being typed was written as it was typed, a second after a
    # change at most: its cards, typed more than a second before the cut
    d, lost = S.kept_draft(str(flash))
    assert d is not None and not lost and d["v"]["t"] == R[2]["t"]
    # on again: that round where it was written, on the sheet as it was
    r = _sim(["wait:300", "shot:back"], flash, compiled)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "sheet: the round being typed, typed on" in r.stdout
    assert S.load(str(flash))[0].rounds == R[:2]


def test_quit_in_the_middle_of_a_round_keeps_it(tmp_path, compiled):
    # the sim's q (a script's quit) at once after a key: the round being
    # typed is written on the way out (it waited for its timed save, a
    # second after the last key, and was lost: a new user's find)
    flash = tmp_path / "flash"
    keys = ["wait:300"] + setup_keys(["ADA", "BO"]) + round_keys(R[0], "one")
    keys += ["A"] + entry_keys(R[1], FIELDS, 2)[:-4] + ["quit"]
    r = _sim(keys, flash, compiled)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (flash / S.DRAFT).exists()
    assert S.load(str(flash))[0].rounds == R[:1]


def _frame(display):
    """A sim Frame (MONO_VLSB) of the CPython fake display's pixels."""
    w, h = display.w, display.h
    data = bytearray(w * ((h + 7) // 8))
    for y in range(h):
        for x in range(w):
            if display.rows[y][x]:
                data[(y >> 3) * w + x] |= 1 << (y & 7)
    return sim.Frame(w, h, "mono_vlsb", bytes(data))


@pytest.mark.parametrize("s0,sc", [(0, (0, 0)), (1, (7, 10)), (0, (18, 8)), (0, (39, 39))])
def test_big_digits_reader(tmp_path, s0, sc):
    # the reader above, on totals drawn by ui/scorekeeper.py on CPython
    from scopa.rules import Rules
    from test_scorekeeper import Keeper

    sh = S.Sheet(Rules("scopa"), ["ADA", "BO"])
    e = {"t": [20, 20], "d": [5, 5], "s": s0, "p": -1, "sc": list(sc)}
    sh.add(e)
    k = Keeper(tmp_path)
    k.app.go("scorekeeper", "Screen", sh)
    k.app._switch()
    k.app.draw()
    want = [sc[0] + (s0 == 0), sc[1] + (s0 == 1)]
    assert big_totals(_frame(k.board.display)) == want
