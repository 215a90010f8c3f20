"""The table's round page, one key away (UP or DOWN on the player's turn):
what the round has done, in words.

    Mazzo 30             the cards left to deal
    Last take P2         the side that captured last (the table's rest
                         goes there; You+P3 in teams)
    Scope You 1          each side's scope this round (a line they go
          P2 0           on to starts under the first, or two in)
    P2:4B+2 P3:7D        each other seat's last play this round (the one
                         that ended a hand too): the card and how many it
                         took
    Any key: back

Loaded only while it is shown (ui/table.py imports it on the key), so the
table's heap during play does not hold it. Draws only: the game (the
App's) keeps each seat's last play (`Game.last_play`), a resumed game too,
rebuilt from its save.
"""

from micropython import const

import lang
from lang import tr
from scopa import engine
from ui import gfx

# characters a line: 120 of the 128 px (some glyphs, 4 and M, fill their
# eighth column: a 16th character could touch the edge)
_COLS = const(15)


def _pack(out, items, label=False):
    """Append `items` (str) to `out`, as many to a line as fit _COLS
    characters; with `label` the first item names the rest, and a line
    they go on to is indented: under the second item when every item fits
    there ("Scope You 1" then "      P2 0"), else by two ("Letzter Stich"
    then "  P2"), so that it reads as one list, not a row of its own."""
    pad = ""
    if label and len(items) > 1:
        w = 0
        for t in items[1:]:
            w = max(w, len(t))
        n = len(items[0]) + 1
        pad = " " * (n if n + w <= _COLS else 2 if 2 + w <= _COLS else 0)
    row = ""
    for t in items:
        if row and len(row) + 1 + len(t) > _COLS:
            out.append(row)
            row = pad
        row = (row + " " + t) if row.strip() else row + t
    if row:
        out.append(row)


def lines(screen):
    """The page's text lines (list of str, each at most _COLS characters)."""
    app = screen.app
    g = app.game
    st = g.st
    r = g.rules
    last = st[engine.LAST]
    out = ["%s %d" % (tr(lang.MAZZO), 40 - st[engine.DP])]
    # the engine keeps the side that took last (its seats in teams)
    label = app.turns.side_label
    _pack(out, [tr(lang.LAST_TAKE), label(last) if last != engine.NONE else "-"], True)
    scope = ["%s %d" % (label(side), g.scope(side)) for side in range(r.sides)]
    _pack(out, [tr(lang.SCOPE)] + scope, True)
    # the other seats from the one after the seat to play: the order played
    fr = app.french()
    plays = []
    for i in range(1, r.players):
        seat = (g.turn + i) % r.players
        p = g.last_play(seat)
        if p:
            c, n = p
            # "P2:4B+2": a colon, unlike a side's scope ("P2 0") above it
            t = "%s:%s" % (app.turns.seat_label(seat), gfx.card_text(c, fr))
            plays.append(t + "+%d" % n if n else t)
    _pack(out, plays)
    return out


def draw(screen, fb):
    """The page, in place of the table (rows of the 8 x 8 font)."""
    app = screen.app
    p = app.pal
    rows = app.h // 8
    out = lines(screen)
    if len(out) < rows:
        out.append(tr(lang.ANY_BACK))  # when there is room (not with six players)
    y = 0
    for t in out[:rows]:
        gfx.text(fb, t, 0, y, p.FG)
        y += 8
