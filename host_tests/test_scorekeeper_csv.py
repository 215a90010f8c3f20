"""tools/scores.py (scopa-scores): the sheet read from a board over the raw
REPL with mpremote, checked with the firmware's store and sheet, written
as CSV. The board is host_tests/vboard.py: the real unix port behind a
pseudo-terminal, its flash a folder, as mpremote sees a board.
"""

import csv
import io
import os
import subprocess
import sys

import pytest

import sheet as S
import store
from scopa.rules import Rules
from test_scorekeeper_sim import R, evening
from tools import scores

NAMES = ["ADA", "BO"]


def saved_evening(folder, rounds=R):
    """The sheet of test_scorekeeper_sim's evening saved in `folder` (the
    previous copy one round shorter)."""
    sh = S.Sheet(Rules("scopa"), NAMES)
    for e in rounds[:-1]:
        sh.add(e)
    S.save(sh, str(folder))
    sh.add(rounds[-1])
    S.save(sh, str(folder))
    return sh


def parse(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]


def check_csv(text, rounds=R):
    """Every row against the scorer of test_scorekeeper_sim (not the
    engine's code): round points, match totals, winners."""
    head, rows = parse(text)
    assert head[:4] == ["round", "game", "match", "match round"]
    assert "ADA primiera" in head and "BO scope" in head and head[-1] == "winner"
    # one vocabulary, the game's: denari (never "coins"), settebello, re bello
    words = {w for h in head for w in h.split()}
    assert "denari" in words and not words & {"coins", "coin", "re_bello", "7"}
    assert len(rows) == len(rounds)
    match = 1
    no = 1
    for i, ((p, t, w), row) in enumerate(zip(evening(rounds), rows)):
        assert row["round"] == str(i + 1)
        assert (row["match"], row["match round"]) == (str(match), str(no))
        assert [int(row["ADA points"]), int(row["BO points"])] == p
        assert [int(row["ADA total"]), int(row["BO total"])] == t
        cats = ("cards", "denari", "settebello", "primiera", "scope")
        for k, name in enumerate(NAMES):
            assert sum(int(row[f"{name} {c}"]) for c in cats) == p[k]
        assert row["winner"] == ("" if w is None else NAMES[w])
        no += 1
        if w is not None:
            match += 1
            no = 1
    return rows


def test_csv_from_a_file(tmp_path, capsys):
    saved_evening(tmp_path)
    out = tmp_path / "evening.csv"
    assert scores.main(["--file", str(tmp_path / S.FILE), "--out", str(out)]) == 0
    rows = check_csv(out.read_text())
    assert rows[4]["ADA primiera"] == "0" and rows[4]["BO primiera"] == "1"  # by the cards
    assert "8 rounds of ADA, BO" in capsys.readouterr().err


def test_one_round_is_said_so(tmp_path, capsys):
    saved_evening(tmp_path, R[:1])
    out = tmp_path / "one.csv"
    assert scores.main(["--file", str(tmp_path / S.FILE), "--out", str(out)]) == 0
    assert "1 round of ADA, BO" in capsys.readouterr().err


def test_csv_carries_the_counts_entered(tmp_path):
    saved_evening(tmp_path)
    out = tmp_path / "evening.csv"
    assert scores.main(["--file", str(tmp_path / S.FILE), "--out", str(out)]) == 0
    head, rows = parse(out.read_text())
    for e, row in zip(R, rows):
        for i, name in enumerate(NAMES):
            assert int(row[f"{name} cards taken"]) == e["t"][i]
            assert int(row[f"{name} denari taken"]) == e["d"][i]
            assert int(row[f"{name} scope made"]) == e["sc"][i]
        assert row["settebello to"] == NAMES[e["s"]]
        if "pc" in e:
            assert row["primiera to"] == "by the cards"
            assert row["ADA primiera cards"].count(" ") == 3
        else:
            assert row["primiera to"] == (NAMES[e["p"]] if e["p"] >= 0 else "nobody")
    assert any("pc" in e for e in R) and any("pc" not in e for e in R)


def test_csv_on_stdout_and_best_of_three(tmp_path, capsys):
    sh = S.Sheet(Rules("scopa", best_of=3, napola=True), NAMES)
    big = {"t": [30, 10], "d": [8, 2], "s": 0, "p": 0, "sc": [7, 0], "np": [0, 0]}
    for _ in range(3):
        sh.add(big)
    S.save(sh, str(tmp_path))
    assert scores.main(["--file", str(tmp_path / S.FILE)]) == 0
    head, rows = parse(capsys.readouterr().out)
    assert "ADA napola" in head
    assert [r["game"] for r in rows] == ["1", "1", "2"]  # 2-0: the second game starts
    assert [r["winner"] for r in rows] == ["ADA"] * 3


def test_a_whole_tmp_beside_the_sheet_is_used_and_said(tmp_path, capsys):
    # a save cut between its write and its renames: the device reads the
    # .tmp (the newest); so does scopa-scores, and it says so
    saved_evening(tmp_path)
    p = tmp_path / S.FILE
    old = p.read_bytes()
    sh = S.load(str(tmp_path))[0]
    sh.add(R[0])
    S.save(sh, str(tmp_path))
    os.replace(p, str(p) + ".tmp")
    p.write_bytes(old)
    out = tmp_path / "x.csv"
    assert scores.main(["--file", str(p), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "used sheet.sav.tmp: newer than sheet.sav: a save cut before its renames" in err
    check_csv(out.read_text(), R + R[:1])


def test_damaged_copies_and_no_sheet(tmp_path, capsys):
    saved_evening(tmp_path)
    p = tmp_path / S.FILE
    data = bytearray(p.read_bytes())
    data[-5] ^= 1  # one bit: the checksum finds it
    p.write_bytes(bytes(data))
    out = tmp_path / "x.csv"
    assert scores.main(["--file", str(p), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "used sheet.sav.bak: sheet.sav: damaged: checksum" in err
    assert not err.rstrip().endswith(";")
    check_csv(out.read_text(), R[:-1])
    (tmp_path / (S.FILE + ".bak")).write_bytes(b"junk")
    assert scores.main(["--file", str(p)]) == 1
    assert "every copy of sheet.sav in %s is damaged" % tmp_path in capsys.readouterr().err
    assert scores.main(["--file", str(tmp_path / "none.sav")]) == 1
    assert "no such file: " in capsys.readouterr().err
    # not a sheet at all, and a CSV that cannot be written: one line each
    (tmp_path / "notes.txt").write_text("hello")
    assert scores.main(["--file", str(tmp_path / "notes.txt")]) == 1
    err = capsys.readouterr().err
    assert "notes.txt in %s is not a score sheet" % tmp_path in err
    assert not err.rstrip().endswith(";")
    # a valid record that is no sheet (the settings), a folder: said so
    store.save("settings.sav", {"lang": 0}, str(tmp_path))
    assert scores.main(["--file", str(tmp_path / "settings.sav")]) == 1
    err = capsys.readouterr().err
    assert "settings.sav in %s is not a score sheet" % tmp_path in err
    assert "is damaged" not in err and not err.rstrip().endswith(";")
    # a round draft (round.sav), whose "v" is its values: not "damaged:
    # format {...}, not 2" (a tester's find)
    store.save(S.DRAFT, {"k": 0, "g": 0, "v": {"t": [20, 20]}}, str(tmp_path))
    assert scores.main(["--file", str(tmp_path / S.DRAFT)]) == 1
    err = capsys.readouterr().err
    assert "%s in %s is not a score sheet" % (S.DRAFT, tmp_path) in err
    assert "is damaged" not in err and "format" not in err
    assert scores.main(["--file", str(tmp_path)]) == 1
    assert "%s is a folder" % tmp_path in capsys.readouterr().err
    (tmp_path / (S.FILE + ".bak")).unlink()
    (tmp_path / S.FILE).unlink()
    saved_evening(tmp_path)
    assert scores.main(["--file", str(p), "--out", str(tmp_path / "no" / "x.csv")]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err


def test_console_script(tmp_path):
    saved_evening(tmp_path)
    exe = __import__("shutil").which("scopa-scores") or str(
        __import__("pathlib").Path(sys.executable).parent / "scopa-scores"
    )
    p = subprocess.run([exe, "--file", str(tmp_path / S.FILE)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    check_csv(p.stdout)
    p = subprocess.run([exe, "--help"], capture_output=True, text=True)
    assert "--port" in p.stdout and "--out" in p.stdout


# --- from a (virtual) board over mpremote --------------------------------------


@pytest.fixture
def board(tmp_path):
    vboard = pytest.importorskip("vboard")
    root = tmp_path / "board"
    root.mkdir()
    # the app on the board: here a stand-in main.py that says it ran
    (root / "main.py").write_text("print('MAIN RAN')\n")
    with vboard.VirtualBoard(root) as b:
        assert b.wait_for(b"MAIN RAN", 10)
        yield b


@pytest.mark.mpy
def test_csv_from_a_board(board, tmp_path, capsys):
    sh = saved_evening(board.root)
    # the same file read by the firmware on the board itself: good
    out = tmp_path / "board.csv"
    mark = board.mark()
    assert scores.main(["--port", board.port, "--out", str(out)]) == 0
    rows = check_csv(out.read_text())
    assert len(rows) == len(sh.rounds)
    # the app was interrupted to read, then the board restarted it
    assert board.wait_for(b"MAIN RAN", 10, start=mark)
    assert board.soft_resets == 1
    # the same CSV as from the file
    assert scores.main(["--file", str(board.root / S.FILE)]) == 0
    assert capsys.readouterr().out == out.read_text()


@pytest.mark.mpy
def test_board_with_a_cut_save_and_no_restart(board, tmp_path, capsys):
    sh = saved_evening(board.root)
    # a power cut between the renames: no main copy, a complete .tmp
    (board.root / (S.FILE + ".tmp")).write_bytes(store.encode(sh.to_obj()))
    (board.root / S.FILE).unlink()
    assert scores.main(["--port", board.port, "--no-restart"]) == 0
    check_csv(capsys.readouterr().out)
    assert board.soft_resets == 0  # left in the REPL
    assert not (board.root / S.FILE).exists()  # the tool only reads


@pytest.mark.mpy
def test_board_without_a_sheet(board, capsys):
    assert scores.main(["--port", board.port]) == 1
    assert "no sheet.sav on the board" in capsys.readouterr().err


def test_port_errors_say_what_the_port_is(tmp_path, capsys):
    # as the flash tool says them: missing, a folder, empty
    for port, said in (
        ("/dev/no-such-port", "scopa-scores: no such device /dev/no-such-port; list the boards"),
        (str(tmp_path), f"scopa-scores: {tmp_path} is not a serial device (a folder); "),
        ("", "scopa-scores: --port is empty"),
    ):
        assert scores.main(["--port", port]) == 1
        out, err = capsys.readouterr()
        assert err.startswith(said) and out == ""


def test_a_silent_port_leaves_stdout_clean(capsys):
    # a port nobody answers on: the reason on stderr, nothing in the CSV
    master, slave = os.openpty()
    try:
        assert scores.main(["--port", os.ttyname(slave)]) == 1
    finally:
        os.close(master)
        os.close(slave)
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("scopa-scores: no MicroPython answers on ")


def test_every_category_has_its_csv_term():
    from scopa.scoring import CATEGORIES

    assert set(scores.TERMS) == set(CATEGORIES)
    assert "coins" not in scores.TERMS.values() and scores.TERMS["coins"] == "denari"
