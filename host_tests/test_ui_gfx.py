"""Card faces and the layout: a hand of ten and a table of twelve read at
a glance on 128 x 64, and the same code draws bigger faces on 240 x 135."""

import pytest

import ui_fakeboard as F
from ui import gfx


def face_bits(c, french=False, s=1, mode=gfx.FACE):
    d = F.Display(gfx.CARD_W * s, gfx.CARD_H * s)
    d.fill(0)
    gfx.card(d, 0, 0, c, gfx.Palette(False), s, mode, french)
    return tuple(bytes(r) for r in d.rows)


@pytest.mark.parametrize("french", [False, True])
def test_every_face_is_different(french):
    faces = {face_bits(c, french) for c in range(40)}
    assert len(faces) == 40
    lit = {face_bits(c, french, mode=gfx.LIT) for c in range(40)}
    assert len(lit) == 40 and not lit & faces


def test_face_has_border_rank_and_suit():
    rows = face_bits(6)  # the settebello
    assert all(rows[0]) and all(rows[-1])
    assert all(r[0] and r[-1] for r in rows)
    inside = [r[1:-1] for r in rows[1:-1]]
    assert sum(sum(r) for r in inside) > 12  # a rank and a suit glyph


def test_scaled_face_is_the_same_picture():
    one = face_bits(27)
    two = face_bits(27, s=2)
    # the same rank and suit pixels, twice the size (the border stays thin)
    for y, row in enumerate(two):
        for x, v in enumerate(row):
            if 1 <= y // 2 < gfx.CARD_H - 1 and 1 <= x // 2 < gfx.CARD_W - 1:
                assert v == one[y // 2][x // 2]


@pytest.mark.parametrize("w,h,scale", [(128, 64, 1), (240, 135, 2), (320, 240, 2)])
def test_layout_fits_ten_in_hand_and_twelve_on_the_table(w, h, scale):
    lay = gfx.Layout(w, h)
    assert lay.s == scale
    for n, xs in ((10, lay.hand(10)), (12, [x for x, _ in lay.table(12)])):
        assert len(xs) == n
        assert xs[0] >= 0 and xs[-1] + lay.cw <= w
        for a, b in zip(xs, xs[1:]):
            assert b - a >= lay.cw + 1  # side by side, not overlapping
    assert all(y == lay.table_y for _, y in lay.table(12))
    assert lay.table_y >= lay.status_h
    assert lay.band_y >= lay.table_y + lay.ch
    assert lay.band_h >= 8 * scale or lay.band_h >= 17  # room for a line of text
    assert lay.hand_y + lay.ch == h
    assert lay.hand_y - lay.lift >= lay.band_y + lay.band_h


def test_crowded_table_takes_two_rows():
    lay = gfx.Layout(128, 64)
    pos = lay.table(20)
    assert len(pos) == 20 and len({y for _, y in pos}) == 2
    for x, y in pos:
        assert 0 <= x and x + lay.cw <= 128 and y + lay.ch <= lay.hand_y - lay.lift


def test_small_font():
    d = F.Display(20, 5)
    d.fill(0)
    end = gfx.small(d, "7:3", 0, 0, 1)
    assert end == 12 and gfx.small_width("7:3") == 11
    assert sum(sum(r) for r in d.rows) > 10


def _bits(d):
    return tuple(bytes(r) for r in d.rows)


def test_the_cursor_is_unmistakable_and_apart_from_the_highlights():
    # the cursor's card is no face merely lifted: a second frame and a bar
    # below; the hint's card is that, inverted; both differ from a card
    # being taken (LIT)
    w, h = gfx.CARD_W, gfx.CARD_H
    looks = {}
    for mode in (gfx.FACE, gfx.LIT, gfx.SELECT, gfx.SELECT_LIT):
        d = F.Display(w, h + 3)
        d.fill(0)
        gfx.card(d, 0, 0, 6, gfx.Palette(False), 1, mode)
        looks[mode] = _bits(d)
    assert len(set(looks.values())) == 4
    face, sel = looks[gfx.FACE], looks[gfx.SELECT]
    assert sel[1][1:-1] != face[1][1:-1]  # the inner frame
    for mode in (gfx.SELECT, gfx.SELECT_LIT):
        assert any(looks[mode][h + 1]) and not any(looks[gfx.FACE][h + 1])  # the bar
        assert not any(looks[mode][h])  # apart from the card


def test_highlighted_cards_stay_apart_when_a_row_overlaps():
    # two LIT cards 6 px apart (a crowded table): a dark column between them
    d = F.Display(20, gfx.CARD_H)
    d.fill(0)
    pal = gfx.Palette(False)
    gfx.card(d, 0, 0, 6, pal, 1, gfx.LIT)
    gfx.card(d, 6, 0, 16, pal, 1, gfx.LIT)
    col = [r[6] for r in d.rows]
    assert not any(col)  # the second card's ring
    assert sum(r[5] > 0 for r in d.rows) >= 8  # the first card's lit face beside it


def test_the_cursor_and_the_rings_scale_with_the_faces():
    # on the colour board (s = 2) the cursor's inner frame is as wide as
    # the glyphs' strokes, all round, and a highlighted card's ring of
    # felt too, so that an overlapping neighbour stays apart
    s = gfx.Layout(240, 135).s
    assert s == 2
    pal = gfx.Palette(True)
    w, h = gfx.CARD_W * s, gfx.CARD_H * s
    d = F.Display(w, h + 2 * s, colour=True)
    d.fill(pal.BG)
    gfx.card(d, 0, 0, 6, pal, s, gfx.SELECT)
    for i in range(s, 2 * s):
        assert all(d.rows[i][x] == pal.INK for x in range(i, w - i))  # top
        assert all(d.rows[h - 1 - i][x] == pal.INK for x in range(i, w - i))  # bottom
        assert all(d.rows[y][i] == pal.INK for y in range(i, h - i))  # left
        assert all(d.rows[y][w - 1 - i] == pal.INK for y in range(i, h - i))  # right
    assert d.rows[2 * s][2 * s] == pal.CARD  # the face inside the frame
    d = F.Display(2 * w, h, colour=True)
    d.fill(pal.BG)
    gfx.card(d, 0, 0, 6, pal, s, gfx.LIT)
    gfx.card(d, w - 2 * s, 0, 16, pal, s, gfx.LIT)  # overlapping by 2 s
    for x in range(w - 2 * s, w - s):
        assert all(d.rows[y][x] == pal.BG for y in range(h))  # the second card's ring
    assert d.rows[h // 2][w - 2 * s - 1] == pal.LIT  # the first card's face beside it
