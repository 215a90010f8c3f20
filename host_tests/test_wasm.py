"""The firmware on a real 32-bit MicroPython: MicroPython's WebAssembly port
(host_tests/wasm.py), where pointers take 4 bytes and small ints 31 bits as
on the boards (the unix port is 64-bit). The engine's digest on it is in
test_engine_mpy.py."""

import pytest

import app
import mpy
import store
import wasm

pytestmark = pytest.mark.wasm


@pytest.fixture(scope="module")
def wasm_mpy():
    """The port's sys.implementation._mpy."""
    return int(wasm.run_wasm("import sys\nprint(sys.implementation._mpy)\n"))


@pytest.fixture(scope="module")
def wasm_firmware(tmp_path_factory, wasm_mpy):
    """firmware/ compiled as the flash tool compiles it for a board of the
    port's .mpy format (its compiler choice: no -march for no native arch)."""
    from tools import flash

    compiler = flash.find_compiler(flash.MpyFormat.from_sys(wasm_mpy))
    args = () if compiler.march is None else ("-march=" + compiler.march,)
    assert args == wasm.WASM_MPY_CROSS_ARGS
    return mpy.compile_firmware(tmp_path_factory.mktemp("wasm_firmware"), args)


def test_the_port_is_a_32_bit_micropython():
    out = wasm.run_wasm(
        "import sys\nprint(sys.implementation.name, sys.maxsize, sys.platform)\nprint(sys.path)\n"
    )
    first, path = out.splitlines()
    assert first.split() == ["micropython", str(2**31 - 1), "webassembly"]
    assert path == "['', '.frozen', '/lib']"  # a board's


def test_ints_of_2_to_the_30_are_heap_objects_there():
    # No collection runs while a script runs (see wasm.py), so
    # gc.mem_alloc() counts every allocation: 2**30 - 1 is a small int,
    # 2**30 takes heap (on the 64-bit unix port both are small).
    code = """
import gc
def ints(n):
    a = gc.mem_alloc()
    for i in range(100):
        x = n + i
    return gc.mem_alloc() - a
print(ints((1 << 30) - 100), ints(1 << 30))
"""
    small, big = map(int, wasm.run_wasm(code).split())
    assert small == 0 and big >= 100 * 16


def test_loads_the_bytecode_mpy_of_the_repos_mpy_cross(wasm_mpy, wasm_firmware):
    assert wasm_mpy & 0xFF == 6 and (wasm_mpy >> 8) & 3 == 3 and wasm_mpy >> 10 == 0  # v6.3
    assert (wasm_firmware / "scopa" / "engine.mpy").read_bytes()[:3] == b"M\x06\x00"
    assert not (wasm_firmware / "scopa" / "engine.py").exists()
    out = wasm.run_wasm(
        "from scopa import engine\nimport lang\nlang.load('it')\nprint(engine.__file__)\n",
        path=(wasm_firmware,),
    )
    assert out.strip() == "scopa/engine.mpy"  # relative, at the flash's root


def test_ai_keeps_its_own_util_without_a_native_emitter(wasm_firmware, tmp_path):
    # ai.leaf is viper code: from source the port cannot compile it, and the
    # build for a board without native code leaves it out; ai.core keeps
    # its plain-Python util either way (the same values: test_ai.py)
    code = """from ai import core
print(core.util is core._util)
try:
    import ai.leaf
except SyntaxError as e:
    print("SyntaxError", e)
"""
    out = wasm.run_wasm(code, path=(mpy.FIRMWARE,), cwd=tmp_path)
    assert out.split("\n")[:2] == ["True", "SyntaxError invalid micropython decorator"]
    assert not (wasm_firmware / "ai" / "leaf.mpy").exists()
    out = wasm.run_wasm(
        "from ai import core\nprint(core.util is core._util)\n", path=(wasm_firmware,)
    )
    assert out.strip() == "True"


def test_live_heap_is_collected_between_steps_only():
    code = """
import gc
junk = [None]
n = [0]
def wasm_step():
    print(gc.mem_alloc())
    n[0] += 1
    for i in range(200):
        junk[0] = bytearray(1000)
    junk[0] = None
    gc.collect()
    print(gc.mem_alloc())
    return n[0] < 3
"""
    seen = [int(v) for v in wasm.run_wasm(code).split()]
    assert len(seen) == 6
    starts, ends = seen[0::2], seen[1::2]
    assert all(e - s >= 200 * 1000 for s, e in zip(starts, ends))  # not collected yet
    assert max(starts) < 20000  # collected before each step


def test_traceback_and_exit_status_of_an_uncaught_exception():
    with pytest.raises(wasm.WasmError) as e:
        wasm.run_wasm("print('before')\ndef f():\n    1 // 0\nf()\n")
    assert e.value.returncode == 1
    assert e.value.stdout == "before\n"
    assert "ZeroDivisionError" in e.value.stderr and "in f" in e.value.stderr
    with pytest.raises(wasm.WasmError) as e:
        wasm.run_wasm("raise SystemExit(3)")
    assert e.value.returncode == 3
    assert wasm.run_wasm("import sys\nprint('x', end='')\nsys.exit(0)") == "x"


def test_the_boards_files_are_written_back_to_cwd(tmp_path):
    (tmp_path / "old.txt").write_text("old")
    (tmp_path / "gone.txt").write_text("gone")
    code = """
import os
print(open('old.txt').read(), sorted(os.listdir('/lang'))[:1])
open('new.sav', 'w').write('saved')
os.mkdir('sub')
open('sub/a.txt', 'w').write('a')
os.remove('gone.txt')
"""
    out = wasm.run_wasm(code, path=(mpy.FIRMWARE,), cwd=tmp_path)
    assert out.split() == ["old", "['__init__.py']"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.sav", "old.txt", "sub"]
    assert (tmp_path / "new.sav").read_text() == "saved"
    assert (tmp_path / "sub" / "a.txt").read_text() == "a"


def test_store_tells_a_missing_copy_from_one_that_cannot_be_read(tmp_path):
    # this port raises a missing file's OSError as 44 (its errno module says
    # ENOENT is 2): once every missing save read as damaged here
    code = """
import os, store, config
os.mkdir('game')
print(store.load('none'), store.load('game')[1], config.journal('j', 'b'))
"""
    out = wasm.run_wasm(code, path=(mpy.FIRMWARE,), cwd=tmp_path)
    assert out.split("\n")[0] == "(None, %d, '') %d ([], False)" % (store.NONE, store.BAD)


@pytest.mark.parametrize("game", ["scopa", "scopone_scientifico"])
def test_compiled_app_plays_a_match_against_hard(game, wasm_firmware, tmp_path):
    # tools/bench_app.py's lean board and key script: New game from the
    # menu, every computer seat Hard, A pressed until the winner's page.
    from tools import bench_app

    res, _ = bench_app.play_wasm(wasm_firmware, game, cwd=tmp_path)
    assert res["fallbacks"] == 0 and res["low"] == 0, res
    assert res["over"][:2] == ["True", "winner"], res
    levels = [int(v) for v in res["levels"]]
    assert levels.count(app.HUMAN) == 1 and levels.count(app.HARD) == len(levels) - 1
    assert len(levels) == bench_app.GAMES[game]
    totals = [int(t) for t in res["totals"][:-2]]
    assert max(totals) >= int(res["totals"][-1])
    assert int(res["heap_board"][0]) < int(res["heap_menu"][0]) <= int(res["heap_peak"][0])
    assert (tmp_path / app.GAME).is_file()  # saved on its flash
