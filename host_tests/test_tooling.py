"""The test harness itself: the unix port, heap limits, compiled firmware."""

import sys

import pytest

import mpy


@pytest.mark.mpy
def test_unix_port_is_micropython(run_mpy):
    out = run_mpy("import sys\nprint(sys.implementation.name, sys.implementation._mpy)")
    name, mpy_ver = out.split()
    assert name == "micropython"
    # Low byte: the .mpy version mpy-cross must emit (v6 since MicroPython 1.19).
    assert int(mpy_ver) & 0xFF == 6


def test_cpython_side_uses_the_shim():
    import micropython

    assert sys.implementation.name == "cpython"
    assert micropython.const(7) == 7
    assert micropython.__file__.endswith("host_tests/shim/micropython.py")


@pytest.mark.mpy
def test_small_heap_raises_memory_error(run_mpy):
    code = (
        "try:\n"
        "    b = bytearray(64 * 1024)\n"
        "    print('allocated', len(b))\n"
        "except MemoryError:\n"
        "    print('MemoryError')\n"
    )
    assert run_mpy(code, heapsize="16K").strip() == "MemoryError"
    assert run_mpy(code, heapsize=256 * 1024).strip() == "allocated 65536"


@pytest.mark.mpy
def test_uncaught_exception_raises_with_output(run_mpy):
    with pytest.raises(mpy.MicroPythonError) as excinfo:
        run_mpy("print('before')\nraise ValueError('boom')")
    assert "before" in excinfo.value.stdout
    assert "ValueError: boom" in str(excinfo.value)


@pytest.mark.mpy
def test_frozen_modules_stay_importable(run_mpy, tmp_path):
    # MICROPYPATH replaces the default path, '.frozen' included: run_mpy adds it back.
    assert run_mpy("import asyncio\nprint('ok')", path=(tmp_path,)).strip() == "ok"


@pytest.mark.mpy
def test_stdin_is_passed(run_mpy):
    assert run_mpy("import sys\nprint(sys.stdin.read().upper())", stdin="mano").strip() == "MANO"


def _make_package(src):
    (src / "mazzo").mkdir(parents=True)
    (src / "mazzo" / "__init__.py").write_text("")
    (src / "mazzo" / "carte.py").write_text(
        "from micropython import const\n"
        "_SETTEBELLO = const(6)\n"
        "def settebello():\n"
        "    return _SETTEBELLO\n"
        "def fail():\n"
        "    raise ValueError('in carte')\n"
    )
    (src / "main.py").write_text("import mazzo.carte\n")


@pytest.mark.mpy
def test_compiled_module_imports_from_mpy_only(run_mpy, tmp_path):
    src = tmp_path / "src"
    _make_package(src)
    out = mpy.compile_firmware(tmp_path / "out", src_root=src, cache_dir=tmp_path / "cache")
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == ["main.py", "mazzo/__init__.mpy", "mazzo/carte.mpy"]
    assert (out / "mazzo" / "carte.mpy").read_bytes()[:2] == b"M\x06"

    code = (
        "import mazzo.carte as c\n"
        "print(c.__file__)\n"
        "print(c.settebello())\n"
        "try:\n"
        "    c.fail()\n"
        "except ValueError as e:\n"
        "    import sys\n"
        "    sys.print_exception(e)\n"
    )
    lines = run_mpy(code, path=(out,)).splitlines()
    assert lines[0].endswith("mazzo/carte.mpy")
    assert lines[1] == "6"
    # The embedded source name is the path inside the source root.
    assert any('File "mazzo/carte.py"' in line for line in lines)


def test_compile_firmware_caches_and_prunes(tmp_path):
    src = tmp_path / "src"
    _make_package(src)
    cache = tmp_path / "cache"
    out = tmp_path / "out"
    mpy.compile_firmware(out, src_root=src, cache_dir=cache)
    assert len(list(cache.glob("*.mpy"))) == 2
    mpy.compile_firmware(out, src_root=src, cache_dir=cache)
    assert len(list(cache.glob("*.mpy"))) == 2  # nothing compiled again

    (src / "mazzo" / "carte.py").unlink()
    (src / "mazzo" / "coppe.py").write_text("X = 1\n")
    mpy.compile_firmware(out, src_root=src, cache_dir=cache)
    assert not (out / "mazzo" / "carte.mpy").exists()
    assert (out / "mazzo" / "coppe.mpy").exists()
    assert len(list(cache.glob("*.mpy"))) == 3


def test_compile_error_is_reported(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "bad.py").write_text("def f(:\n")
    with pytest.raises(RuntimeError, match="bad.py"):
        mpy.compile_firmware(tmp_path / "out", src_root=src, cache_dir=tmp_path / "cache")


@pytest.mark.mpy
def test_native_code_runs_from_mpy(run_mpy, tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "fast.py").write_text(
        "import micropython\n@micropython.viper\ndef triple(x: int) -> int:\n    return x * 3\n"
    )
    out = mpy.compile_firmware(
        tmp_path / "out", mpy.UNIX_MPY_CROSS_ARGS, src_root=src, cache_dir=tmp_path / "cache"
    )
    assert run_mpy("import fast\nprint(fast.triple(14))", path=(out,)).strip() == "42"


@pytest.mark.mpy
def test_mpy_firmware_fixture(mpy_firmware):
    # Whatever firmware/ holds now, it compiled, and no source but main.py/boot.py remains.
    sources = [p.name for p in mpy_firmware.rglob("*.py")]
    assert set(sources) <= mpy.SOURCE_ONLY


@pytest.mark.mpy
@pytest.mark.parametrize(
    "args, said",
    [
        (["--level", "hrad"], "--level {easy,medium,hard}"),
        (["--game", "foo"], "textgame: unknown game 'foo': one of scopa,"),
        (["--game", "scopone", "--players", "3"], "textgame: players: scopone is for 4 players"),
    ],
)
def test_textgame_wrong_arguments_are_usage_errors(args, said):
    # a wrong level played random moves; a wrong game printed a traceback
    import subprocess

    cmd = [sys.executable, str(mpy.ROOT / "tools" / "textgame.py"), "--seed", "5", *args]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert said in proc.stderr and "Traceback" not in proc.stderr
    assert "your move" not in proc.stdout


def test_a_tool_run_without_the_dev_tools_says_so_in_one_line():
    # python3 tools/sim.py with a Python that has no micropython beside it
    # nor on PATH (a new user's find: a traceback, even for --help)
    import subprocess

    code = (
        "import os, sys, runpy; os.environ['PATH'] = ''; sys.executable = '/nowhere/python'; "
        "sys.argv = ['sim.py', '--help']; runpy.run_path('tools/sim.py', run_name='__main__')"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=mpy.ROOT, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("sim.py: `micropython` not found") and r.stderr.count("\n") == 1
    assert "tools/check --install" in r.stderr


def test_check_help_is_its_own_usage_and_installs_nothing(tmp_path):
    # tools/check --help ran the whole install, ruff and pyright, then
    # printed pytest's help (a new user's find); a copy of the script in
    # a folder with no .venv shows it made none
    import shutil
    import subprocess

    (tmp_path / "tools").mkdir()
    shutil.copy(mpy.ROOT / "tools" / "check", tmp_path / "tools" / "check")
    for arg in ("--help", "-h"):
        r = subprocess.run(
            ["bash", str(tmp_path / "tools" / "check"), arg],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert r.returncode == 0 and not r.stderr, r.stderr
        assert "tools/check --quick" in r.stdout and "==>" not in r.stdout
        assert not r.stdout.startswith("#") and "set -euo" not in r.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tools"]
