"""Computer players and the hint.

Levels, one module each (import only the one used): `ai.easy` (a
beginner: greedy captures, random lays), `ai.medium` (a good player's
rules of thumb, one move ahead), `ai.hard` (samples the unseen cards and
searches), and `ai.hint` (the hard player's move for the human, with a
reason).

The API, the same in every level module::

    card, taken = level.choose(st, rules, seat, rng, budget_ms=None, mates=1)

`st` is the engine's state (scopa.engine), `seat` the seat to play
(``st[engine.TURN]``), `rng` a scopa.rng.Rng (the hard player's samples; the
easy player's lays), `budget_ms` the hard player's thinking budget (None:
its default: a few tenths of a second on an RP2040). It returns the card to
play and the tuple of table cards it takes (``()`` to lay it), ready for
``Game.play(card, taken)``. `mates` is 1 when the seat's partners play
at its level, 0 when not (a person, or another level): the hard player
then models them as the medium player mid-round. `nodes=` gives the hard player's budget as a
count of nodes instead (tests). A choice depends only on what the seat
may see, the rules, the rng's state and the budget: never on the clock.

Before every play, the human's too, the app calls
``ai.core.observe(st, rules, card, taken)``: what a play shows of the
hand that made it (it laid a card while it could capture, or did not
sweep), and in Cirulla which hands were declared (shown), is what the
hard player and the hint deal the hidden cards by. Without it they only
count the cards seen (a declared hand too before the deal's first play).

The fast path for searches and benchmarks is ``level.pick`` /
``hard.decide``: they fill a preallocated scopa.engine.Moves with the
legal moves and return the offset of the chosen one, allocating nothing.

`ticks_ms` / `ticks_diff` are MicroPython's, or equivalents on CPython.
"""

LEVELS = ("easy", "medium", "hard")

try:
    from time import ticks_diff, ticks_ms  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython
    import time

    def ticks_ms():  # pyright: ignore[reportRedeclaration]
        return time.monotonic_ns() // 1000000  # pyright: ignore[reportAttributeAccessIssue]

    def ticks_diff(a, b):  # pyright: ignore[reportRedeclaration]
        return a - b


def mates(levels, sides, seat, level):
    """`choose`'s `mates` for `seat`: 1 when every partner of it (the seats
    of its side, of `sides`) plays at `level` in `levels` (one per seat,
    e.g. its own level, or hard's for a hint), 0 when one does not (a
    person, another level)."""
    for s in range(len(levels)):
        if s != seat and s % sides == seat % sides and levels[s] != level:
            return 0
    return 1


def player(level):
    """The module of `level` ("easy", "medium" or "hard"), imported now."""
    if level not in LEVELS:
        raise ValueError("unknown level %r: one of %s" % (level, ", ".join(LEVELS)))
    return __import__("ai." + level, None, None, ("choose",))
