"""Power cuts while the game saves (turns.Turns.save_game: a journal line a play,
the whole record at a round's end and after a resume, store.py): the
MicroPython process is killed (SIGKILL) at every operation of the save
path, as host_tests/test_powerloss.py does for the score sheet (its
`powerfs` layer: every byte written, create, close, remove and rename is
one operation), then a fresh start resumes the game, which must be the
position before the play or the one after it: never damaged, never lost,
never older.

Three plays are cut, each at every operation: a play journalled in the
middle of a round, the last play of a round (its line, then the record
and the journal moved to .bak), and the first play after a resume (the
record written twice, so that its .bak holds it too).
"""

import concurrent.futures
import json
import shutil

import pytest

import app
import mpy
import store
from scopa import replay
from scopa.game import Game
from scopa.rules import Rules
from test_powerloss import POWERFS, WORKERS, _mp

pytestmark = [pytest.mark.mpy, pytest.mark.slow]

# The device: resume the game in the folder, play `before` moves (the first
# legal one each time) with the power on, then one more with the power cut
# after `limit` operations (-1: no cut, print the operations counted).
DEVICE = """\
import sys
sys.path.append({host!r})
import powerfs
powerfs.install()
import ui_fakeboard as F
import app
before, limit = int(sys.argv[1]), int(sys.argv[2])
a = app.App(F.Board(()), "")
a.start()
def play():
    g = a.game
    if g.round_over:
        g.next_round()
    card, taken = g.legal_moves()[0]
    a.turns.play(card, taken)
for _ in range(before):
    play()
powerfs.arm(limit)
play()
print("OPS", powerfs.ops)
"""

# A fresh start: the game each folder resumes (as at power-on).
CHECK = """\
import sys
sys.path.append({host!r})
import json
import ui_fakeboard as F
import app
from scopa import replay
for folder in sys.argv[1:]:
    a = app.App(F.Board(()), folder)
    ok = a.load_game()
    print(json.dumps([replay.encode(a.game) if ok else None, a.note]))
"""


def first_moves(g, n):
    """`g` after `n` more plays of the first legal move (the device's)."""
    for _ in range(n):
        if g.round_over:
            g.next_round()
        card, taken = g.legal_moves()[0]
        g.play(card, taken)
    return g


@pytest.fixture(scope="module")
def kit(tmp_path_factory, mpy_firmware):
    d = tmp_path_factory.mktemp("powerloss_game")
    (d / "lib").mkdir()
    (d / "lib" / "powerfs.py").write_text(POWERFS)
    host = str(mpy.ROOT / "host_tests")
    (d / "device.py").write_text(DEVICE.format(host=host))
    (d / "check.py").write_text(CHECK.format(host=host))
    return {"dir": d, "fw": mpy_firmware}


def saved_game(folder, moves):
    """A folder holding a game of Scopa (seed 11) after `moves` plays, as the
    app saves it at a resume: its record."""
    g = first_moves(Game(Rules("scopa"), 11), moves)
    store.save(app.GAME, {"code": replay.encode(g), "levels": [app.HUMAN, app.MEDIUM]}, str(folder))
    return g


def cut_everywhere(kit, name, moves, before):
    """Resume the game saved after `moves` plays, play `before`, then cut
    the next play at every operation; the codes a fresh start resumes, in
    kill-point order, then with no cut; and the positions before / after."""
    d = kit["dir"] / name
    shutil.rmtree(d, ignore_errors=True)
    start = d / "start"
    start.mkdir(parents=True)
    g = saved_game(start, moves)
    old = replay.encode(first_moves(g, before))
    new = replay.encode(first_moves(g, 1))
    full = shutil.copytree(start, d / "full")
    p = _mp(kit, "device.py", [before, -1], full)
    assert p.returncode == 0, p.stderr
    ops = int(p.stdout.split("OPS ")[1])
    folders = [shutil.copytree(start, d / ("k%04d" % k)) for k in range(ops)]

    def cut(k):
        p = _mp(kit, "device.py", [before, k], folders[k])
        assert p.returncode in (-9, 137), (k, p.returncode, p.stdout, p.stderr)

    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        list(pool.map(cut, range(ops)))
    got = []
    every = [str(f) for f in folders + [full]]
    for i in range(0, len(every), 100):
        p = _mp(kit, "check.py", every[i : i + 100], kit["dir"])
        assert p.returncode == 0, p.stderr
        got += [json.loads(line) for line in p.stdout.strip().split("\n")]
    return ops, got, old, new


@pytest.mark.parametrize(
    "name,moves,before,most",
    [
        # a play in the middle of a round: one line of about 20 bytes
        ("journal", 10, 1, 30),
        # the round's last play: its line, the record, the journal to .bak
        ("round_end", 34, 1, 600),
        # the first play after a resume: the record twice
        ("resume", 10, 0, 900),
    ],
)
def test_cut_at_every_operation_of_a_plays_save(kit, name, moves, before, most):
    ops, got, old, new = cut_everywhere(kit, name, moves, before)
    assert 3 < ops <= most
    codes = [c for c, _ in got]
    assert codes[-1] == new  # no cut: after the play
    seen_new = False
    for k, (code, note) in enumerate(got):
        assert code in (old, new), (k, code, note)  # never damaged, never lost
        assert note == "", (k, note)  # no copy was damaged: nothing to say
        if code == new:
            seen_new = True
        else:
            assert not seen_new, ("back to the old position after the new one", k)
    assert codes[0] == old and seen_new
    if name == "round_end":
        assert replay.decode(new).round_over
