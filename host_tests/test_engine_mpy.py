"""The engine on the MicroPython unix port: same games as CPython, and a
whole Scopone scientifico match in a 64 KiB heap from .mpy files. The same
games on the 32-bit WebAssembly port (host_tests/wasm.py) too."""

import json
import shutil
import sys

import pytest

import mpy
import wasm
from selfplay import digest

HOST_TESTS = mpy.ROOT / "host_tests"

# The MicroPythons that play the games: the unix port (64-bit) and the
# WebAssembly port (32-bit: pointers of 4 bytes, small ints of 31 bits).
PORTS = [
    pytest.param(mpy.run_mpy, id="unix", marks=pytest.mark.mpy),
    pytest.param(wasm.run_wasm, id="wasm32", marks=(pytest.mark.wasm, pytest.mark.slow)),
]


@pytest.mark.slow
@pytest.mark.parametrize("run", PORTS)
def test_500_random_games_match_cpython_move_by_move(run):
    n = 500
    want = digest(n)
    out = run(
        "from selfplay import digest\nprint(digest(%d))\n" % n,
        path=(mpy.FIRMWARE, HOST_TESTS),
        timeout=300,
    )
    assert out.strip() == str(want)
    assert want[1] > 500 * 20  # moves played in all


@pytest.mark.mpy
def test_every_family_is_in_the_random_games():
    from scopa.rng import Rng
    from selfplay import random_rules

    rng = Rng(12345)
    seen = set()
    for _ in range(500):
        r = random_rules(rng)
        seen.add((r.game, r.players))
        rng.below(30000)
    assert {g for g, _ in seen} == set(range(7))
    assert {p for _, p in seen} == {2, 3, 4, 6}


@pytest.mark.mpy
def test_scopone_scientifico_match_in_64k_heap_from_mpy(mpy_firmware, tmp_path):
    """Compiled by mpy-cross as a board gets it; the selfplay driver too."""
    shutil.copy(HOST_TESTS / "selfplay.py", tmp_path / "selfplay.py")
    code = """
import gc, micropython
from scopa.rules import Rules
from scopa.rng import Rng
from scopa.game import Game
gc.collect()
base = micropython.mem_current()
micropython.mem_peak_reset() if hasattr(micropython, 'mem_peak_reset') else None
rng = Rng(77)
g = Game(Rules('scopone_scientifico'), 2024)
moves = 0
while not g.finished:
    while not g.round_over:
        ms = g.legal_moves()
        g.play(*ms[rng.below(len(ms))])
        moves += 1
    if not g.finished:
        g.next_round()
print('done', g.round_no, moves, g.winner, max(g.totals))
"""
    out = mpy.run_mpy(code, heapsize="64K", path=(mpy_firmware,))
    done, rounds, moves, winner, top = out.split()
    assert done == "done" and int(rounds) >= 1 and int(moves) == 40 * int(rounds)
    assert int(top) >= 11 and winner in ("0", "1")


def _traced(run, *args):
    """``run(*args)`` with every int the firmware makes checked against a
    32-bit board's small ints: each arithmetic result, call result, loop
    target and constant (intcheck: the firmware imported again,
    instrumented), and every int held in a local variable at each line it
    runs (sys.settrace). Returns ``(run's result, the largest int met in a
    local)``; raises AssertionError naming an int of 2**30 or more and
    where it was made. Call it in a forked process (it replaces the
    firmware's modules)."""
    import intcheck

    intcheck.install(also=("selfplay", "ui_fakeboard", "test_scorekeeper"))
    limit = 1 << 30
    worst = [0]

    def local(frame, event, arg):
        for v in frame.f_locals.values():
            if type(v) is int:
                a = -v if v < 0 else v
                if a > worst[0]:
                    if v >= limit or v < -limit:
                        raise AssertionError("int %d in %s" % (v, frame.f_code.co_name))
                    worst[0] = a
        return local

    def tracer(frame, event, arg):
        return local if "firmware" in frame.f_code.co_filename else None

    sys.settrace(tracer)
    try:
        res = run(*args)
    finally:
        sys.settrace(None)
    return res, worst[0]


def _games(chunk, games):
    # `games` random rounds, their rules and seeds from Rng(31337 + chunk)
    from scopa.game import Game
    from scopa.rng import Rng
    from selfplay import random_rules

    limit = 1 << 30
    rng = Rng(31337 + chunk)
    for k in range(games):
        rules = random_rules(rng)
        g = Game(rules, rng.below(30000) * 30000 + k)
        while not g.round_over:
            n = len(g.legal_moves())
            g.play_index(rng.below(n))
        for v in list(g.__dict__.values()) + list(g.rng.state()):
            if type(v) is int:
                assert -limit <= v < limit


def _trace_games(chunk, games):
    """Play `games` random rounds (their rules and seeds from Rng(31337 +
    chunk)) with every int of the firmware checked (`_traced`); returns the
    largest int met in a local (raises AssertionError on one of 2**30 or
    more)."""
    return _traced(_games, chunk, games)[1]


@pytest.mark.slow
def test_no_int_reaches_2_to_the_30_in_thousands_of_games():
    """32-bit boards keep small ints below 2**30; anything larger is a heap
    object. Trace every line the engine runs over 2,000 random games
    (every family) and check every int it computes, every int held in a
    local variable, the state and the game's attributes. The games are
    shared among processes (one a core: the tracing makes them slow)."""
    import multiprocessing
    import os

    total = 2000
    workers = max(1, min(8, os.cpu_count() or 1))
    sizes = [total // workers + (1 if i < total % workers else 0) for i in range(workers)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        worst = pool.starmap(_trace_games, list(enumerate(sizes)))
    assert sum(sizes) == total
    assert 0 < max(worst) < 1 << 30


class _BoardTime:
    """The clock of a board (its ``time`` module: host code here, as the C
    functions are on a board, so not checked), booted 20 s before
    ticks_ms wraps at 2**30: the app sees the wrap in its first match.
    (ui.clock.VirtualClock is the simulator's, not a board's.)"""

    MASK = (1 << 30) - 1

    def __init__(self):
        self.t = self.MASK - 20000
        self.elapsed = 0  # what ui_fakeboard's buttons read

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return ((a - b + (1 << 29)) & self.MASK) - (1 << 29)

    def ticks_add(self, a, d):
        return (a + d) & self.MASK

    def sleep_ms(self, ms):
        self.t = (self.t + ms) & self.MASK
        self.elapsed += ms

    advance = sleep_ms


def _app_paths(folder):
    """A whole match through the app (menu, Medium opponent, every play
    saved, the next match started), a resume of the saved game, a saved
    game of the largest seed played on, and the scorekeeper's add, edit
    and undo; returns what the checks need."""
    from pathlib import Path

    import app
    import store
    import ui_fakeboard as F
    from scopa import replay
    from test_scorekeeper import E1, E2, E3, entry_keys, new_sheet

    def board(script):
        b = F.Board(script)
        b.clock = b.buttons.clock = _BoardTime()
        return b

    def a_forever():
        while True:
            yield F.A, 60

    match = Path(folder) / "match"
    match.mkdir()
    a = app.run(board(a_forever()), 400000, str(match), until=lambda a: a.matches >= 1)
    g = a.game
    first = (g.over, g.winner is not None, max(g.totals) >= g.rules.target, a.plays)
    a.loop(20000, until=lambda a: a.screen_mod == "table" and a.game is not g)
    a.loop(3000, until=lambda a: a.game.moves_played() >= 3)
    code = replay.encode(a.game)
    # what a resume reads: the record and the plays journalled after it
    import config

    rec = store.load(app.GAME, str(match))[0]
    g2 = replay.decode(rec["code"])
    lines, damaged = config.journal(app.JOURNAL, store.checksum(rec["code"].encode()), str(match))
    assert not damaged
    for i in lines:
        if g2.round_over:
            g2.next_round()
        g2.play_index(i)
    saved = replay.encode(g2)
    resumed = replay.encode(app.run(board(()), 5, str(match)).game)

    # a game saved with the largest seed, resumed and played on: the
    # computer's generator is seeded from the game's seed and the move
    from scopa.game import Game

    late = Path(folder) / "late"
    late.mkdir()
    rec = {"code": replay.encode(Game(g.rules, (1 << 30) - 1)), "levels": list(a.levels)}
    store.save(app.GAME, rec, str(late))
    b = app.run(board(a_forever()), 3000, str(late), until=lambda a: a.game.moves_played() >= 6)
    late_game = (b.game.seed, b.game.moves_played())

    # the app's own clock (App.now) 12 days on, just before it wraps at
    # 2**30 ms: it wraps as the board's ticks do, times compared across it
    wrap = Path(folder) / "wrap"
    wrap.mkdir()
    w = app.App(board(a_forever()), str(wrap))
    w.start()
    w.now = w.idle_since = w.last_draw = (1 << 30) - 3000
    w.loop(5000, until=lambda a: a.plays >= 4 and a.now < 100000)
    wrapped = (w.plays >= 4, w.now < 100000)

    keeper = Path(folder) / "keeper"
    keeper.mkdir()
    k = new_sheet(keeper, names=["ADA", "BO"])
    for e in (E1, E1, E3, E2):
        k.add(e)
    k.press("down")
    k.press("up up up A")  # round 1's review
    k.press("A")  # edit it
    k.press(entry_keys(E2, k.sheet.fields(), 2, old=E1))
    edited = [dict(r) for r in k.sheet.rounds]
    k.press("B B down A A")  # undo the last round
    undone = [dict(r) for r in k.sheet.rounds]
    return first, code, saved, resumed, late_game, edited, undone, wrapped


@pytest.mark.slow
def test_no_int_reaches_2_to_the_30_in_the_app(tmp_path):
    """The same check (`_traced`) on the app's own paths: a whole match
    through the app on a fake board (booted 20 s before ticks_ms wraps at
    2**30, so the clock wraps in the match; the game saved after every play and
    the next match's seed taken from the clock), a resume of the saved
    game, the app played on across its own clock's wrap (App.now, after
    12 days on), and the scorekeeper's add, edit and undo (saved each
    time)."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(1) as pool:
        res, worst = pool.apply(_traced, (_app_paths, str(tmp_path)))
    first, code, saved, resumed, late_game, edited, undone, wrapped = res
    assert first[:3] == (True, True, True) and first[3] > 20  # the match was played out
    assert saved == code and resumed == code  # the second match, saved and resumed
    assert late_game == ((1 << 30) - 1, 6)
    assert len(edited) == 4 and edited[0]["sc"] == [0, 3]  # round 1 is now E2
    assert len(undone) == 3
    assert wrapped == (True, True)  # played on across App.now's wrap
    assert 0 < worst < 1 << 30


@pytest.mark.mpy
def test_engine_random_self_play_allocates_nothing_per_deal():
    """With the GC off, random deals of every family, and of 200 random
    rule mixes, allocate 0 bytes in the engine (selfplay.engine_alloc:
    gc.mem_alloc() before and after; the same deals played once before, so
    that a buffer grown once for good is not counted). The counter sees
    allocations: the plays that end a round through Game do allocate (the
    round's Score)."""
    code = """
from scopa.rules import GAMES, Rules
from scopa.rng import Rng
from selfplay import engine_alloc, game_alloc, random_rules
out = [engine_alloc(Rules(g), 7, 10) for g in GAMES]
rng = Rng(4242)
for k in range(200):
    out.append(engine_alloc(random_rules(rng), k, 2))
print(out)
print(game_alloc(Rules("scopa"), 7, 3)[1])
"""
    out = mpy.run_mpy(code, path=(mpy.FIRMWARE, HOST_TESTS), timeout=300).split("\n")
    per_rules = json.loads(out[0])
    assert len(per_rules) == 207 and per_rules == [0] * 207, per_rules
    assert int(out[1]) > 1000


VARIANTS = {
    "scopa_d_assi": ("scopa_d_assi", {}),
    "scopa_15": ("scopa_15", {}),
    "cirulla": ("cirulla", {}),
    "re_bello": ("scopa", {"re_bello": "10D"}),
    "napola": ("scopa", {"napola": True}),
    "scopone_10": ("scopone_10", {}),
}


@pytest.mark.mpy
@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_200_games_of_each_variant_match_cpython(variant):
    game, fixed = VARIANTS[variant]
    want = digest(200, 99, 2, game, **fixed)
    out = mpy.run_mpy(
        "from selfplay import digest\nprint(digest(200, 99, 2, %r, **%r))\n" % (game, fixed),
        path=(mpy.FIRMWARE, HOST_TESTS),
        timeout=300,
    )
    assert out.strip() == str(want)
