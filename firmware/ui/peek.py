"""The table's view of a partner's hand (partners_visible; the German
Scopa worksheet: "everyone may look at their partner's hand"): in PICK,
UP shows each partner's hand in turn in place of one's own, DOWN steps
back, any other key comes back to it. A module of its own, loaded only in a game
with the option, so that other games keep its code off the heap.
"""

from micropython import const

import lang
from lang import tr
from ui import buttons as keys
from ui import gfx

_MATTA = const(16)  # Cirulla's matta, drawn as its designated rank


def partners(screen):
    """The seats (list, in playing order) whose hands the table's viewer
    may look at: its partners under partners_visible, else []."""
    app = screen.app
    r = app.game.rules
    v = app.turns.viewer()
    if not r.partners_visible or v < 0 or r.players <= r.sides:
        return []
    return [(v + k) % r.players for k in range(r.sides, r.players, r.sides)]


def key(screen, ev):
    """Key `ev` in PICK with the option on: UP shows the next partner's
    hand, after the last one the own hand again; DOWN steps back
    (screen.peek: 0 the own hand, k the k-th partner's); another key comes
    back to the own hand."""
    k = ev & keys.ALL
    n = len(partners(screen)) + 1
    if k in (keys.UP, keys.DOWN):
        if n > 1:
            screen.peek = (screen.peek + (1 if k == keys.UP else -1)) % n
    elif k and not ev & keys.REPEAT:
        screen.peek = 0


def draw(screen, fb, matta):
    """The partner's hand face up where the own hand is, nothing selected;
    `matta`: the matta's designated rank (0: none)."""
    app = screen.app
    lay = app.lay
    hand = app.game.hand(partners(screen)[screen.peek - 1])
    xs = lay.hand(len(hand))
    fr = app.french()
    for i, c in enumerate(hand):
        r = matta if c == _MATTA else 0
        gfx.card(fb, xs[i], lay.hand_y, c, app.pal, lay.s, gfx.FACE, fr, r)


def label(screen):
    """The band's line: "Partner P3"."""
    return tr(lang.PARTNER) + " " + screen.app.turns.seat_label(partners(screen)[screen.peek - 1])
