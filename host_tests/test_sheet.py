"""The score sheet model: entries checked, points from the engine's
scoring, undo, edit and recount, match ends with the tie rules."""

import pytest

from scopa import cards as C
from scopa.rules import Rules
from sheet import EntryError, Sheet


def entry(t0=22, d0=6, s=0, p=0, sc=(0, 0), **extra):
    e = {"t": [t0, 40 - t0], "d": [d0, 10 - d0], "s": s, "p": p, "sc": list(sc)}
    e.update(extra)
    return e


def test_points_of_a_round():
    sh = Sheet(Rules("scopa"), ["Ada", "Bo"])
    sc = sh.points(entry(sc=(2, 1)))
    assert sc.total == [6, 1]  # cards, coins, settebello, primiera, 2 scope; 1 scopa


@pytest.mark.parametrize(
    "bad,msg",
    [
        ({"t": [20, 19]}, "cards add up to 39"),
        ({"d": [5, 4]}, "denari add up to 9"),
        ({"t": [3, 37], "d": [5, 5]}, "more denari than cards"),
        ({"s": 2}, "settebello"),
        ({"d": [0, 10], "s": 0}, "took the settebello but no denari"),
        ({"p": 5}, "primiera"),
        ({"sc": [1]}, "one number per side"),
    ],
)
def test_entries_that_cannot_be_right(bad, msg):
    sh = Sheet(Rules("scopa"), ["A", "B"])
    e = entry()
    e.update(bad)
    with pytest.raises(EntryError, match=msg):
        sh.add(e)
    assert sh.rounds == []


def test_primiera_worked_out_from_the_best_cards():
    sh = Sheet(Rules("scopa"), ["A", "B"])
    seven = [C.parse(x) for x in ("7D", "7C", "7S", "6B")]
    other = [C.parse(x) for x in ("6D", "6C", "6S", "7B")]
    e = entry()
    del e["p"]
    e["pc"] = [other, seven]
    assert sh.points(e).primiera == [0, 1]
    e["pc"] = [other, [seven[0], seven[1], seven[2], -1]]  # B lacks bastoni
    assert sh.points(e).primiera == [1, 0]


def test_undo_edit_recount_and_match_end():
    sh = Sheet(Rules("scopa"), ["A", "B"])
    for _ in range(2):
        sh.add(entry(sc=(1, 0)))  # 5 - 0 each
    assert sh.standing()[:3] == ([10, 0], False, None)
    sh.add(entry(t0=10, d0=2, s=1, p=1, sc=(0, 3)))  # 0 - 7
    assert sh.standing()[:3] == ([10, 7], False, None)
    sh.add(entry(sc=(0, 0)))  # 4 - 0: A reaches 14
    totals, over, winner, wins = sh.standing()
    assert (totals, over, winner, wins) == ([14, 7], True, 0, [1, 0])
    sh.add(entry(t0=10, d0=2, s=1, p=1))  # a new match
    assert sh.standing()[0] == [0, 4]
    assert sh.undo()["s"] == 1
    sh.edit(0, entry(t0=10, d0=2, s=1, p=1, sc=(0, 5)))  # first round now 0 - 9
    # recounted: 0-9, 5-9, 5-16 (B wins the match), then 4-0 opens a new one
    ms = sh.recount()
    assert [m["totals"] for m in ms] == [[5, 16], [4, 0]] and ms[0]["winner"] == 1
    assert sh.standing() == ([4, 0], False, None, [0, 1])


def test_tie_at_target_plays_on():
    sh = Sheet(Rules("scopa"), ["A", "B"])
    sh.add(entry(sc=(6, 0)))  # 10 - 0
    sh.add(entry(t0=10, d0=2, s=1, p=1, sc=(0, 6)))  # 10 - 10
    sh.add(entry(t0=20, d0=5, s=0, p=1, sc=(0, 0)))  # 11 - 11: level past 11
    assert sh.standing()[:3] == ([11, 11], False, None)


def test_save_round_trip_and_damaged_sheet():
    sh = Sheet(Rules("scopa", re_bello="10D", napola=True), ["A", "B"])
    sh.add(entry(rb=1, np=[4, 0]))
    again = Sheet.from_obj(sh.to_obj())
    assert again.standing() == sh.standing()
    assert again.points(again.rounds[0]).napola == [4, 0]
    assert again.points(again.rounds[0]).re_bello == [0, 1]
    with pytest.raises(ValueError):
        Sheet.from_obj({"v": 9})
