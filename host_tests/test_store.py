"""store.py: atomic saves, damage and truncation found, fallbacks."""

import os

import pytest

import config
import store


def test_round_trip(tmp_path):
    obj = {"code": "S1.abc", "levels": [3, 1]}
    store.save("game", obj, str(tmp_path))
    assert store.load("game", str(tmp_path)) == (obj, store.OK, "")
    assert not (tmp_path / "game.tmp").exists()


def test_nothing_saved(tmp_path):
    assert store.load("game", str(tmp_path)) == (None, store.NONE, "")


def test_second_save_keeps_the_first_as_bak(tmp_path):
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    store.save("game", {"n": 2}, d)
    assert store.load("game", d)[0] == {"n": 2}
    assert store.decode((tmp_path / "game.bak").read_bytes()) == {"n": 1}


@pytest.mark.parametrize("cut", [0, 5, 20, -1])
def test_truncated_main_falls_back_to_bak(tmp_path, cut):
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    store.save("game", {"n": 2, "pad": "x" * 40}, d)
    p = tmp_path / "game"
    data = p.read_bytes()
    p.write_bytes(data[:cut])
    obj, status, why = store.load("game", d)
    assert (obj, status) == ({"n": 1}, store.BAK)
    assert "game:" in why


def test_damaged_byte_is_found(tmp_path):
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    store.save("game", {"n": 22}, d)
    p = tmp_path / "game"
    data = bytearray(p.read_bytes())
    data[-3] ^= 0x04
    p.write_bytes(bytes(data))
    obj, status, why = store.load("game", d)
    assert (obj, status) == ({"n": 1}, store.BAK)
    assert "checksum" in why or "JSON" in why


def test_old_format_version_is_refused(tmp_path):
    body = b'{"n": 1}'
    head = b"SCOPA 0 %d %s\n" % (len(body), store.checksum(body).encode())
    (tmp_path / "game").write_bytes(head + body)
    obj, status, why = store.load("game", str(tmp_path))
    assert (obj, status) == (None, store.BAD)
    assert "format 0" in why


def test_power_cut_between_the_renames(tmp_path):
    # save() was cut after moving the old copy to .bak: the complete .tmp wins
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    (tmp_path / "game.tmp").write_bytes(store.encode({"n": 2}))
    os.rename(tmp_path / "game", tmp_path / "game.bak")
    assert store.load("game", d)[:2] == ({"n": 2}, store.TMP)
    store.save("game", {"n": 3}, d)
    assert store.load("game", d)[:2] == ({"n": 3}, store.OK)


def test_power_cut_after_the_tmp_is_written_keeps_the_new_copy(tmp_path):
    # save() was cut before its renames: the whole .tmp is newer than the
    # main copy (a score sheet or the settings have no journal to make up
    # for it), so it is the one loaded
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    (tmp_path / "game.tmp").write_bytes(store.encode({"n": 2}))
    assert store.load("game", d)[:2] == ({"n": 2}, store.TMP)
    store.save("game", {"n": 3}, d)
    assert store.load("game", d)[:2] == ({"n": 3}, store.OK)
    # the load finished the cut save's renames: its copy is the .bak now
    assert store.load("game.bak", d)[:2] == ({"n": 2}, store.OK)


def test_a_damaged_main_copy_beside_a_whole_tmp_is_set_aside(tmp_path):
    # the .tmp is loaded, but the damaged main copy is said and kept as
    # .bad (the load finishes the cut save's renames): not moved over the
    # good .bak
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    store.save("game", {"n": 2}, d)
    (tmp_path / "game").write_bytes(store.encode({"n": 2})[:-3])
    (tmp_path / "game.tmp").write_bytes(store.encode({"n": 3}))
    obj, status, why = store.load("game", d)
    assert (obj, status) == ({"n": 3}, store.TMP) and "game: truncated" in why
    assert (tmp_path / "game.bad").exists()
    assert store.load("game.bak", d)[:2] == ({"n": 1}, store.OK)
    store.save("game", {"n": 4}, d)
    assert store.load("game.bak", d)[:2] == ({"n": 3}, store.OK)


def test_power_cut_while_writing_tmp(tmp_path):
    # the part of a copy is no damage (nothing said) and is removed: it
    # took flash room until the next save
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    (tmp_path / "game.tmp").write_bytes(store.encode({"n": 2})[:7])
    assert store.load("game", d) == ({"n": 1}, store.OK, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]


def test_a_first_save_cut_while_writing_is_nothing_saved(tmp_path):
    # no other copy: it was "every copy damaged" (BAD, nothing said why),
    # so the device said "Save damaged" (or "Settings reset") for a save
    # that had never finished
    d = str(tmp_path)
    (tmp_path / "game.tmp").write_bytes(store.encode({"n": 1})[:20])
    assert store.load("game", d) == (None, store.NONE, "")
    assert not list(tmp_path.iterdir())


def test_a_whole_tmp_a_check_refuses_stays(tmp_path):
    # decoded whole, refused by the caller's check: not a cut write, kept
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    (tmp_path / "game.tmp").write_bytes(store.encode({"n": -2}))

    def check(obj):
        if obj["n"] < 0:
            raise ValueError("negative")

    assert store.load("game", d, check=check)[:2] == ({"n": 1}, store.OK)
    assert (tmp_path / "game.tmp").exists()


def test_a_flash_full_while_writing_leaves_no_part_of_a_copy(tmp_path, monkeypatch):
    # ENOSPC half way through the .tmp: its part took the room the next
    # (smaller) save could have had, and every later save wrote it again
    import builtins

    store.save("g", {"a": 1}, str(tmp_path))
    real = builtins.open

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, data):
            self.f.write(data[:10])
            raise OSError(28, "ENOSPC")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    def full_open(path, mode="r", *a):
        f = real(path, mode, *a)
        return Full(f) if str(path).endswith(".tmp") else f

    monkeypatch.setattr(builtins, "open", full_open)
    with pytest.raises(OSError):
        store.save("g", {"a": 2, "b": "x" * 100}, str(tmp_path))
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g"]
    assert store.load("g", str(tmp_path))[0] == {"a": 1}


def test_no_memory_to_open_the_main_copy_writes_nothing(tmp_path, monkeypatch):
    # a MemoryError once the .tmp was whole (opening the main copy to see
    # that it is there allocates a file object): the caller was told "not
    # saved", and the next start read the .tmp's new copy all the same
    d = str(tmp_path)
    store.save("g", {"a": 1}, d)
    store.save("g", {"a": 2}, d)

    def no_memory(*a):
        raise MemoryError

    monkeypatch.setattr(store, "_exists", no_memory)
    with pytest.raises(MemoryError):
        store.save("g", {"a": 3}, d)
    monkeypatch.undo()
    assert not (tmp_path / "g.tmp").exists()
    assert store.load("g", d) == ({"a": 2}, store.OK, "")


def test_no_memory_after_the_write_leaves_the_new_tmp(tmp_path, monkeypatch):
    # a rename's MemoryError after the write: the whole new .tmp stays, the
    # copy load reads next, as after an OSError (removing it, a first mend,
    # lost both copies with a folder at the .bak's name)
    import os

    d = str(tmp_path)
    store.save("g", {"a": 1}, d)
    (tmp_path / "g.bak").mkdir()
    (tmp_path / "g.bak" / "x").write_text("x")

    def no_memory(*a):
        raise MemoryError

    real = os.rename
    monkeypatch.setattr(
        os, "rename", lambda a, b: no_memory() if a.endswith(".tmp") else real(a, b)
    )
    with pytest.raises(MemoryError):
        store.save("g", {"a": 2}, d)
    monkeypatch.undo()
    assert store.load("g", d)[:2] == ({"a": 2}, store.TMP)


class Cut(BaseException):
    pass


@pytest.mark.parametrize("main", [None, b"junk", {"a": 1}])
def test_a_second_cut_cannot_lose_a_whole_tmp(tmp_path, monkeypatch, main):
    # a save cut before its renames left the newest copy whole in the
    # .tmp; the next save (sheet.load saves such a copy again at once)
    # emptied it as it opened it, and a second cut there lost it: nothing
    # at all when there was no other good copy (a verifier's case)
    import builtins

    d = str(tmp_path)
    if main is not None:
        data = main if isinstance(main, bytes) else store.encode(main)
        (tmp_path / "g").write_bytes(data)
    (tmp_path / "g.tmp").write_bytes(store.encode({"a": 2}))
    assert store.load("g", d)[:2] == ({"a": 2}, store.TMP)
    real = builtins.open

    def cut_open(path, mode="r", *a):
        if "w" in mode:
            real(path, mode, *a).close()  # emptied, then the power goes
            raise Cut
        return real(path, mode, *a)

    monkeypatch.setattr(builtins, "open", cut_open)
    with pytest.raises(Cut):
        store.save("g", {"a": 2}, d)
    monkeypatch.undo()
    store._unreadable.clear()  # (a restart)
    assert store.load("g", d)[0] == {"a": 2}


@pytest.mark.parametrize("main", ["damaged", "bak_folder"])
def test_a_finished_tmp_leaves_no_journal_of_no_record(tmp_path, main):
    # a round's record cut before its renames, beside a damaged main copy
    # (or a folder at the .bak's name): the first start read the .tmp and
    # finished its renames; the journal, of the old main copy, then
    # followed no record, and the second start said "Last plays lost" on
    # a whole game (a verifier's case)
    from scopa import replay

    d = str(tmp_path)
    g, lv = config.new_game(config.default_settings(), 12345)
    lv = [config.HUMAN] + [config.MEDIUM] * (len(lv) - 1)

    def play(n):
        out = []
        for _ in range(n):
            if g.round_over:
                g.next_round()
            c, t = g.legal_moves()[0]
            g.play(c, t)
            out.append(g.last_index())
        return out

    def record():
        return store.encode({"code": replay.encode(g), "levels": lv})

    play(3)
    if main == "damaged":
        (tmp_path / "game.sav.bak").write_bytes(record())
    else:
        (tmp_path / "game.sav.bak").mkdir()
        (tmp_path / "game.sav.bak" / "x").write_text("x")
    play(3)
    r0 = replay.encode(g)
    (tmp_path / "game.sav").write_bytes(record()[:-5] if main == "damaged" else record())
    for i, v in enumerate(play(3)):
        store.append("game.jrn", i + 1, v, store.checksum(r0.encode()), d)
    (tmp_path / "game.sav.tmp").write_bytes(record())
    want = replay.encode(g)
    for start in (1, 2):
        store._unreadable.clear()
        got, _, note = config.load_game(d)
        assert replay.encode(got) == want and note == "", (start, note)


def test_a_tmp_the_journal_follows_keeps_its_plays(tmp_path):
    # a .tmp copy of the very record the journal follows (a new user's
    # case): the journal was moved aside with it, and its plays were lost
    from scopa import replay

    d = str(tmp_path)
    g, lv = config.new_game(config.default_settings(), 12345)
    lv = [config.HUMAN] + [config.MEDIUM] * (len(lv) - 1)
    rec = store.encode({"code": replay.encode(g), "levels": lv})
    (tmp_path / "game.sav").write_bytes(rec)
    base = store.checksum(replay.encode(g).encode())
    for i in range(5):
        c, t = g.legal_moves()[0]
        g.play(c, t)
        store.append("game.jrn", i + 1, g.last_index(), base, d)
    (tmp_path / "game.sav.tmp").write_bytes(rec)
    for start in (1, 2):
        store._unreadable.clear()
        got, _, note = config.load_game(d)
        assert got.moves_played() == 5 and note == "", (start, note)


def test_remove(tmp_path):
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    store.save("game", {"n": 2}, d)
    store.remove("game", d)
    assert store.load("game", d) == (None, store.NONE, "")


def test_a_main_copy_removed_by_hand_is_said(tmp_path):
    # no save leaves a .bak without its main copy: the .bak is read, and
    # why says the main copy is missing (the screens' "Backup loaded")
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    store.save("game", {"n": 2}, d)
    (tmp_path / "game").unlink()
    assert store.load("game", d) == ({"n": 1}, store.BAK, "game: missing")
    (tmp_path / "game.bak").unlink()
    assert store.load("game", d) == (None, store.NONE, "")


def test_checksum_small_ints():
    assert store.checksum(b"") == "00000001"
    assert store.checksum(b"Wikipedia") == "11e60398"  # Adler-32's example
    assert len(store.checksum(bytes(range(256)) * 40)) == 8


@pytest.mark.mpy
def test_store_on_the_unix_port(run_mpy, tmp_path):
    code = (
        "import store\n"
        "store.save('g', {'n': 1})\n"
        "store.save('g', {'n': 2})\n"
        "print(store.load('g'))\n"
        "f = open('g', 'wb'); f.write(b'SCOPA 1 9'); f.close()\n"
        "print(store.load('g')[:2])\n"
    )
    out = run_mpy(code, cwd=tmp_path).split("\n")
    assert out[0] == "({'n': 2}, 0, '')"
    assert out[1] == "({'n': 1}, 2)"


def test_a_damaged_copy_is_set_aside_not_moved_over_the_good_one(tmp_path):
    store.save("game", {"n": 1}, str(tmp_path))
    store.save("game", {"n": 2}, str(tmp_path))
    main = tmp_path / "game"
    bad = main.read_bytes()[:-1] + b"X"
    main.write_bytes(bad)
    obj, status, why = store.load("game", str(tmp_path))
    assert (obj, status) == ({"n": 1}, store.BAK) and "damaged" in why
    # the player plays on: the damaged copy goes to .bad, the .bak stays
    store.save("game", {"n": 3}, str(tmp_path))
    assert (tmp_path / "game.bad").read_bytes() == bad
    assert store.decode((tmp_path / "game.bak").read_bytes()) == {"n": 1}
    assert store.load("game", str(tmp_path)) == ({"n": 3}, store.OK, "")
    # from then on the usual rotation
    store.save("game", {"n": 4}, str(tmp_path))
    assert store.decode((tmp_path / "game.bak").read_bytes()) == {"n": 3}
    assert (tmp_path / "game.bad").read_bytes() == bad
    # every copy damaged: the newest is kept as .bad when a new one is saved
    main.write_bytes(b"junk")
    (tmp_path / "game.bak").write_bytes(b"junk too")
    assert store.load("game", str(tmp_path))[1] == store.BAD
    store.save("game", {"n": 5}, str(tmp_path))
    assert (tmp_path / "game.bad").read_bytes() == b"junk"
    # or set aside at once, when no good copy is left to save
    main.write_bytes(b"junk 2")
    (tmp_path / "game.bak").write_bytes(b"junk too")
    assert store.load("game", str(tmp_path))[1] == store.BAD
    store.set_aside("game", str(tmp_path))
    assert (tmp_path / "game.bad").read_bytes() == b"junk 2" and not main.exists()
    store.set_aside("game", str(tmp_path))  # once only: nothing more moves
    assert (tmp_path / "game.bad").read_bytes() == b"junk 2"
    assert (tmp_path / "game.bak").read_bytes() == b"junk too"


def test_journal_reads_its_lines_up_to_the_first_bad_one(tmp_path):
    d = str(tmp_path)
    assert config.journal("j", "base", d) == ([], False)  # none yet
    sizes = [store.append("j", n, v, "base", d) for n, v in ((1, 5), (2, 0), (3, 17))]
    assert config.journal("j", "base", d) == ([5, 0, 17], False)
    assert max(sizes) <= 24  # a short line whatever came before
    # lines of another record (a power cut before the journal's rotation),
    # or a damaged first line: load_game tells them apart
    assert config.journal("j", "other", d) == ([], None)
    p = tmp_path / "j"
    whole = p.read_bytes()
    for cut in range(len(whole)):  # a cut anywhere: the whole lines before it
        p.write_bytes(whole[:cut])
        got = config.journal("j", "base", d)
        assert got == ([5, 0, 17][: whole[:cut].count(b"\n")], False), cut
    # damage: the lines before it, and it says so
    p.write_bytes(whole.replace(b"J 2 0", b"J 2 1"))  # a changed value
    assert config.journal("j", "base", d) == ([5], True)
    p.write_bytes(whole + store.journal_line("base", 5, 3))  # a line out of place
    assert config.journal("j", "base", d) == ([5, 0, 17], True)
    p.write_bytes(b"\x00garbage\n" + whole)  # garbage from the first line
    assert config.journal("j", "base", d) == ([], True)
    p.write_bytes(whole + b"\xff" * 40)  # more bytes than a line holds, no newline
    assert config.journal("j", "base", d) == ([5, 0, 17], True)
    p.write_bytes(whole[:20] + b"\xff" * 4 + whole[24:])  # bytes of a line overwritten
    got, damaged = config.journal("j", "base", d)
    assert got == [5] and damaged


def test_a_folder_in_place_of_a_copy_is_damage_and_the_bak_stays(tmp_path):
    # a folder named game.sav (a copy set on the board by hand): once read as
    # no copy, so the next save moved it over the good .bak
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    store.save("game", {"n": 2}, d)
    main = tmp_path / "game"
    main.unlink()
    main.mkdir()
    obj, status, why = store.load("game", d)
    assert (obj, status) == ({"n": 1}, store.BAK) and why.startswith("game: ")
    store.save("game", {"n": 3}, d)
    assert (tmp_path / "game.bad").is_dir()
    assert store.decode((tmp_path / "game.bak").read_bytes()) == {"n": 1}
    assert store.load("game", d) == ({"n": 3}, store.OK, "")
    # a journal folder: damaged, not "no plays since the record"
    (tmp_path / "j").mkdir()
    assert config.journal("j", "base", d) == ([], True)


def test_folders_at_the_bak_and_bad_names_do_not_stop_the_saves(tmp_path):
    # a folder set aside (or put there by hand) as game.sav.bad, game.sav.bak
    # or game.jrn.bak cannot be replaced: the saves once failed ever after
    d = str(tmp_path)
    for name in ("game.sav.bad", "game.sav.bak", "game.jrn.bak"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "x").write_text("the player's")
    store.save("game.sav", {"n": 1}, d)
    store.save("game.sav", {"n": 2}, d)  # no .bak this time
    assert store.load("game.sav", d) == ({"n": 2}, store.OK, "")
    (tmp_path / "game.sav").write_bytes(b"junk")  # damage, to be set aside
    assert store.load("game.sav", d)[:2] == (None, store.BAD)
    store.save("game.sav", {"n": 3}, d)
    assert store.load("game.sav", d) == ({"n": 3}, store.OK, "")
    store.append("game.jrn", 1, 5, "base", d)
    store.rotate("game.jrn", d)  # the journal goes, nothing raised
    assert not (tmp_path / "game.jrn").exists()
    for name in ("game.sav.bad", "game.sav.bak", "game.jrn.bak"):
        assert (tmp_path / name / "x").read_text() == "the player's"


def test_a_folder_at_the_tmp_name_is_moved_aside_and_the_saves_pass(tmp_path):
    # save writes name.tmp first: a folder there failed every save for good
    d = str(tmp_path)
    store.save("s", {"n": 1}, d)
    (tmp_path / "s.tmp").mkdir()
    (tmp_path / "s.tmp" / "x").write_text("the player's")
    store.save("s", {"n": 2}, d)
    assert store.load("s", d) == ({"n": 2}, store.OK, "")
    assert (tmp_path / "s.bad" / "x").read_text() == "the player's"
    assert store.decode((tmp_path / "s.bak").read_bytes()) == {"n": 1}


@pytest.mark.mpy
def test_a_journal_larger_than_the_heap_is_read_a_line_at_a_time(run_mpy, tmp_path):
    # 3 MB appended to a journal (garbage, a runaway file) in a 256 KiB heap:
    # once a MemoryError at every start; now its lines, and damage said
    with open(tmp_path / "j", "wb") as f:
        for n, v in ((1, 5), (2, 0)):
            f.write(store.journal_line("base", n, v))
        f.write(bytes(3_000_000))
    code = "import config\nprint(config.journal('j', 'base'))\n"
    assert run_mpy(code, heapsize="256K", cwd=tmp_path).strip() == "([5, 0], True)"


def test_rotate_moves_the_journal_beside_the_records_bak(tmp_path):
    d = str(tmp_path)
    store.rotate("j", d)  # nothing to move
    store.append("j", 1, 4, "b", d)
    store.rotate("j", d)
    assert not (tmp_path / "j").exists() and config.journal("j.bak", "b", d) == ([4], False)
    store.append("j", 1, 9, "c", d)
    store.rotate("j", d)
    assert config.journal("j.bak", "c", d) == ([9], False)


# on the unix port: load "game" (what it read, its status, why), save it
# anew, load it again
LOAD_SAVE_LOAD = """
import store
obj, status, why = store.load('game')
print(obj, status, why)
store.save('game', {'n': 3})
print(store.load('game')[:2])
"""


@pytest.mark.mpy
def test_a_copy_larger_than_the_heap_is_damage_not_a_crash(run_mpy, tmp_path):
    # a main copy of 600 KB (a damaged length, a runaway sheet) in a 256 KiB
    # heap: MemoryError while it is read; the .bak is loaded, the main copy
    # is kept as .bad at the next save, nothing is lost
    store.save("game", {"n": 1}, str(tmp_path))
    store.save("game", {"n": 2, "pad": "x" * 600_000}, str(tmp_path))
    big = (tmp_path / "game").read_bytes()
    out = run_mpy(LOAD_SAVE_LOAD, heapsize="256K", cwd=tmp_path).split("\n")
    assert out[0] == "{'n': 1} 2 game: too large for the free memory"
    assert out[1] == "({'n': 3}, 0)"
    assert (tmp_path / "game.bad").read_bytes() == big
    assert store.decode((tmp_path / "game.bak").read_bytes()) == {"n": 1}


@pytest.mark.mpy
def test_a_whole_tmp_larger_than_the_heap_is_kept_not_emptied(run_mpy, tmp_path):
    # a save cut before its renames left a whole .tmp, the newest copy,
    # too large for the heap: the main copy was loaded with nothing said,
    # and the next save's open emptied the .tmp. It is said, and kept as
    # .bad; a .tmp its check refuses is kept the same way
    store.save("game", {"n": 1}, str(tmp_path))
    big = store.encode({"n": 2, "pad": "x" * 600_000})
    (tmp_path / "game.tmp").write_bytes(big)
    out = run_mpy(LOAD_SAVE_LOAD, heapsize="256K", cwd=tmp_path).split("\n")
    assert out[0] == "{'n': 1} 0 game.tmp: too large for the free memory"
    assert out[1] == "({'n': 3}, 0)"
    assert (tmp_path / "game.bad").read_bytes() == big
    assert not (tmp_path / "game.tmp").exists()
    refused = store.encode({"n": -2})
    (tmp_path / "game.tmp").write_bytes(refused)

    def check(obj):
        if obj["n"] < 0:
            raise ValueError("negative")

    d = str(tmp_path)
    assert store.load("game", d, check=check)[2] == "game.tmp: negative"
    store.save("game", {"n": 4}, d)
    assert (tmp_path / "game.bad").read_bytes() == refused


def test_a_record_short_of_memory_while_written_leaves_no_part(tmp_path, monkeypatch):
    # the record is written a JSON value at a time: a MemoryError between
    # two removes what was written, the old copy stays as it was
    d = str(tmp_path)
    store.save("game", {"n": 1}, d)
    real = store._bytes
    calls = []

    def short(x):
        calls.append(x)
        if len(calls) == 14:  # (the count's pass has 11 pieces: the write's third)
            raise MemoryError
        return real(x)

    monkeypatch.setattr(store, "_bytes", short)
    with pytest.raises(MemoryError):
        store.save("game", {"n": 2, "s": [1, 2, 3]}, d)
    monkeypatch.undo()
    assert len(calls) == 14
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]
    assert store.load("game", d) == ({"n": 1}, store.OK, "")


def test_a_record_of_null_and_int_keys_read_back(tmp_path):
    # a record holding null was taken for a missing copy (the .bak read
    # instead), and an int key was written as no JSON (a tester's finds)
    d = str(tmp_path)
    store.save("r", {"x": 1}, d)
    store.save("r", None, d)
    assert store.load("r", d) == (None, store.OK, "")
    store.save("r", {1: "x"}, d)
    assert store.load("r", d) == ({"1": "x"}, store.OK, "")


@pytest.mark.parametrize(
    "copies, kept",
    [
        ({"game": b"main junk", "game.bak": b"bak junk"}, b"main junk"),
        # no main copy (removed by hand): the .bak was deleted unkept
        ({"game.bak": b"bak junk"}, b"bak junk"),
        ({"game.bak": b"bak junk", "game.bad": b"older"}, b"bak junk"),
        ({"game": b"main junk", "game.bad": b"older"}, b"main junk"),
    ],
)
def test_a_lost_record_keeps_its_newest_damaged_copy(tmp_path, copies, kept):
    for name, data in copies.items():
        (tmp_path / name).write_bytes(data)
    assert store.load("game", str(tmp_path))[:2] == (None, store.BAD)
    store.give_up("game", str(tmp_path))
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {"game.bad": kept}
    assert store.load("game", str(tmp_path)) == (None, store.NONE, "")


@pytest.mark.parametrize("cut", [1, 2, 3])
def test_a_power_cut_in_give_up_keeps_the_newest_damaged_copy(tmp_path, monkeypatch, cut):
    # the main copy moved to .bad, then a cut before the .bak's removal:
    # the next start found the main copy missing and moved the older .bak
    # over the .bad kept from the newer one
    d = str(tmp_path)
    (tmp_path / "game").write_bytes(b"main junk, newest")
    (tmp_path / "game.bak").write_bytes(b"bak junk, older")
    (tmp_path / "game.tmp").write_bytes(b"cut")
    real = os.remove
    done = []

    def remove(p):
        if len(done) + 1 >= cut:
            raise KeyboardInterrupt("power cut")
        done.append(p)
        real(p)

    assert store.load("game", d)[:2] == (None, store.BAD)
    monkeypatch.setattr(os, "remove", remove)
    monkeypatch.setattr(os, "rename", lambda *a: remove(None))
    with pytest.raises(KeyboardInterrupt):
        store.give_up("game", d)
    monkeypatch.undo()
    store._unreadable.clear()  # (a restart)
    assert store.load("game", d)[:2] == (None, store.BAD)
    store.give_up("game", d)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {
        "game.bad": b"main junk, newest"
    }
