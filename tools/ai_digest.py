"""A checksum of the hard player's moves per family, to show that a change
plays the same moves (or not) as before: for each family, 20 seeds of a
first round with every seat hard at the family's default budget; prints
`game players decisions checksum`, for the families of
host_tests/selfplay.FAMILIES. Runs on the MicroPython unix port (or
CPython with host_tests/shim on the path), from the repository's root:

    MICROPYPATH=.frozen:firmware:host_tests micropython tools/ai_digest.py

`ai_digest.py GAME PLAYERS SEEDS` plays only that family's first SEEDS
seeds (for counting its work, e.g. under valgrind's callgrind);
`ai_digest.py SEEDS` every family's first SEEDS seeds.
"""

import sys

from ai import core, hard
from scopa import engine as E
from scopa.game import Game
from scopa.rng import Rng
from scopa.rules import Rules
from selfplay import FAMILIES

seeds = 20
if len(sys.argv) == 4 and sys.argv[2].isdigit() and sys.argv[3].isdigit():
    FAMILIES = [(sys.argv[1], int(sys.argv[2]))]
    seeds = int(sys.argv[3])
elif len(sys.argv) == 2 and sys.argv[1].isdigit():
    seeds = int(sys.argv[1])
elif len(sys.argv) != 1:
    print("usage: ai_digest.py [[GAME PLAYERS] SEEDS]  (e.g. scopa 2 2)")
    sys.exit(2)
for game, players in FAMILIES:
    try:
        rules = Rules(game, players=players)
    except ValueError as e:
        print("ai_digest.py:", e)
        sys.exit(2)
    h = 0
    n = 0
    for seed in range(1, seeds + 1):
        g = Game(rules, seed)
        rng = Rng(seed)
        st = g.st
        while True:
            off = hard.decide(st, rules, st[E.TURN], rng, None, g.mv)
            b = g.mv.buf
            for i in range(2 + b[off + 1]):
                h = (h * 31 + b[off + i] + 1) % 1000000007
            n += 1
            core.observe(st, rules, b[off], b[off + 2 : off + 2 + b[off + 1]])
            if g._apply(off) & E.ROUND_OVER:
                break
    print(game, players, n, h)
