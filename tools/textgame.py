"""A text game of Scopa against the computer, on the MicroPython unix port.

    python tools/textgame.py [--game scopa] [--seed N] [--level easy|medium|hard]

Started with CPython it runs itself again on the `micropython` unix port
(the real firmware engine, not a copy); run directly with `micropython` it
plays. Type the number of a move; `q` quits and prints the replay code.
"""

import sys

IS_MPY = sys.implementation.name == "micropython"
LEVELS = ("easy", "medium", "hard")


def relaunch():
    import argparse
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    from host_tests import mpy

    ap = argparse.ArgumentParser(description="Scopa in the terminal, on MicroPython.")
    ap.add_argument("--game", default="scopa")
    ap.add_argument("--players", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0, help="0: from the clock")
    ap.add_argument("--level", default="medium", choices=LEVELS, help="computer player")
    a = ap.parse_args()
    env = dict(os.environ)
    env["MICROPYPATH"] = ".frozen:" + str(root / "firmware")
    args = [mpy.MICROPYTHON, __file__, a.game, str(a.players), str(a.seed), a.level]
    return subprocess.call(args, env=env)


def computer(game, seat, level, rng):
    """The computer's move as (card, taken): the AI of `level` when the
    firmware has it, else a random legal move."""
    try:
        ai = __import__("ai." + level, None, None, ["choose"])
        return ai.choose(game, seat, rng)  # type: ignore[attr-defined]
    except (ImportError, AttributeError, TypeError):
        moves = game.legal_moves()
        return moves[rng.below(len(moves))]


def play(game_name, players, seed, level):
    import time

    from scopa import cards as C
    from scopa import engine as E
    from scopa import replay
    from scopa.game import Game
    from scopa.rng import Rng
    from scopa.rules import Rules

    if seed == 0:
        seed = time.time_ns() // 1000 % (1 << 30) if hasattr(time, "time_ns") else 1
    opts = {"players": players} if players else {}
    try:
        if level not in LEVELS:
            raise ValueError("unknown level %r: one of %s" % (level, ", ".join(LEVELS)))
        rules = Rules(game_name, **opts)
    except ValueError as e:
        print("textgame:", e, file=sys.stderr)
        sys.exit(2)
    g = Game(rules, seed)
    rng = Rng(seed ^ 0x5A5A)
    me = 0
    print("Scopa on MicroPython: you are seat 0. Seed", seed)
    while True:
        while not g.round_over:
            seat = g.turn
            if seat != me:
                card, taken = computer(g, seat, level, rng)
                f = g.play(card, taken)
                print(
                    "seat %d plays %s%s%s"
                    % (
                        seat,
                        C.name(card),
                        " takes " + C.names(taken) if taken else "",
                        "  SCOPA!" if f & E.SCOPA else "",
                    )
                )
                continue
            print()
            print("table:", C.names(g.table()) or "(empty)")
            print("hand: ", C.names(g.hand(me)), "  score", g.totals)
            moves = g.legal_moves()
            for i, (card, taken) in enumerate(moves):
                print(
                    "  %d: %s%s"
                    % (i, C.name(card), " takes " + C.names(taken) if taken else " (lay)")
                )
            try:
                ans = input("your move> ").strip()
            except EOFError:
                ans = "q"
            if ans == "q":
                print("replay code:", replay.encode(g))
                return
            if not ans.isdigit() or int(ans) >= len(moves):
                print("type a number from 0 to %d" % (len(moves) - 1))
                continue
            f = g.play(*moves[int(ans)])
            if f & E.SCOPA:
                print("SCOPA!")
        s = g.score
        print()
        for k in s.categories + ("total",):
            print("%-10s %s" % (k, getattr(s, k)))
        print("match:", g.totals)
        if g.finished:
            print("side %d wins the match." % g.winner)
            print("replay code:", replay.encode(g))
            return
        g.next_round()


if __name__ == "__main__":
    if IS_MPY:
        play(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(relaunch())
