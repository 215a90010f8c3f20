"""A text game of Scopa against the computer, on the MicroPython unix port.

    python tools/textgame.py [--game scopa] [--players N] [--seed N]
                             [--level easy|medium|hard] [--replay CODE]

Started with CPython it runs itself again on the `micropython` unix port
(the real firmware engine and computer players, not a copy); run directly
with `MICROPYPATH=firmware .venv/bin/micropython tools/textgame.py GAME
PLAYERS SEED LEVEL [CODE]` (a CODE is resumed, GAME, PLAYERS and SEED then
unused; a code of 256 characters or more in the environment instead,
`SCOPA_REPLAY=CODE`: the unix port makes each argument a qstr, at most
255 bytes, and stops with "FATAL: uncaught NLR" on a longer one) it
plays. You are P1;
seats are P1, P2, ... in playing order, and with 4 or 6 players P1, P3
(, P5) are a team. Type the number of a move; `q` (or Ctrl-C, exit
status 130, or the end of the input) quits and prints the replay code and
the command that resumes the game from it (`--replay CODE`). In
Cirulla the matta (7C), once a declaration designates it, reads "7C=5":
it plays as a 5 (as an Ace "7C=1") to the round's end, as the device
draws it.
"""

import sys

IS_MPY = sys.implementation.name == "micropython"
LEVELS = ("easy", "medium", "hard")
SEED_MAX = 0x3FFFFFFF  # scopa.game.Game and scopa.rng.Rng: seeds 0..2**30-1
SEED_RANGE = "0 to %d (0: from the clock)" % SEED_MAX
# the score's categories in the game's terms (scopa.scoring's attributes)
TERMS = {"coins": "denari", "re_bello": "re bello"}
MATTA_CARD = 16  # Cirulla's matta, 7C (scopa.engine._MATTA_CARD): "7C=5" once it plays as a 5


def _command():
    """How this script was started, for the resume line: the interpreter
    as typed on PATH when it is the one found there, and the script's path
    relative to the current folder when it is below it."""
    import os
    import shutil

    exe = sys.executable
    name = os.path.basename(exe)
    found = shutil.which(name)
    if not (found and os.path.abspath(found) == os.path.abspath(exe)):
        name = exe if os.path.relpath(exe).startswith("..") else os.path.relpath(exe)
    script = os.path.relpath(__file__)
    return [name, os.path.abspath(__file__) if script.startswith("..") else script]


def relaunch():
    import argparse
    import os
    import shlex
    import signal
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    from host_tests import mpy

    ap = argparse.ArgumentParser(description="Scopa in the terminal, on MicroPython.")
    ap.add_argument("--game", help="scopa (default), scopone, cirulla, ...")
    ap.add_argument("--players", type=int, help="the game's default when not given")
    ap.add_argument("--seed", type=int, help="the deal: %s" % SEED_RANGE)
    ap.add_argument("--level", default="medium", choices=LEVELS, help="computer player")
    ap.add_argument("--replay", metavar="CODE", help="resume the game of a replay code")
    a = ap.parse_args()
    # empty: once a new game of scopa, silently
    if a.game is not None and not a.game.strip():
        ap.error("argument --game: empty: give a game (scopa, scopone, cirulla, ...)")
    if a.replay is not None and not a.replay.strip():
        ap.error("argument --replay: empty: give a replay code")
    if a.players is not None and a.players < 1:
        ap.error("argument --players: %d is no number of players: 2, 3, 4 or 6" % a.players)
    if a.seed is not None and not 0 <= a.seed <= SEED_MAX:
        ap.error("argument --seed: %d is out of range: %s" % (a.seed, SEED_RANGE))
    if a.replay is not None and (a.game, a.players, a.seed) != (None, None, None):
        ap.error("argument --replay: the code gives the game, players and seed")
    long = mpy.too_long([__file__], [root / "firmware"])
    if long:
        ap.error(
            "MicroPython's unix port takes paths of at most %d bytes, and the repository's "
            "folder makes one of %d: clone it into a shorter folder" % (mpy.QSTR_MAX, long[1])
        )
    env = dict(os.environ)
    env["MICROPYPATH"] = ".frozen:" + str(root / "firmware")
    # the code and the resume command by the environment: any length
    env["SCOPA_REPLAY"] = a.replay or ""
    env["SCOPA_RESUME"] = shlex.join(_command() + ["--level", a.level, "--replay"])
    args = [mpy.MICROPYTHON, __file__, a.game or "scopa", str(a.players or 0)]
    args += [str(a.seed or 0), a.level]
    # Ctrl-C (sent to both processes) is the game's, which prints its replay
    # code: this one waits for it (a handler, not SIG_IGN, which the game
    # would inherit)
    old = signal.signal(signal.SIGINT, lambda *_: None)
    try:
        return subprocess.call(args, env=env)
    finally:
        signal.signal(signal.SIGINT, old)


def game_name(rules):
    """The name of the game `rules` play (config.GAME_NAMES, the New game
    menu's, written out in full)."""
    from config import GAME_NAMES

    return GAME_NAMES[rules.game].replace("Sc. ", "Scopone ")


def side_label(rules, side):
    """P2 for a seat of its own; a team by its seats, P1+P3."""
    return "+".join("P%d" % (s + 1) for s in range(rules.players) if s % rules.sides == side)


def _listed(words):
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def banner(g, level):
    """The first lines: the game, the seats (yours, your partner's)."""
    r = g.rules
    print(
        "%s for %d players on MicroPython. Seed %d, computer %s."
        % (game_name(r), r.players, g.seed, level)
    )
    mates = ["P%d" % (s + 1) for s in range(1, r.players) if r.side(s) == 0]
    others = ["P%d" % (s + 1) for s in range(1, r.players) if r.side(s) != 0]
    if mates:
        print(
            "You are P1; your partner%s %s %s; against you: %s."
            % (
                "s" if len(mates) > 1 else "",
                "are" if len(mates) > 1 else "is",
                _listed(mates),
                _listed(others),
            )
        )
    else:
        print("You are P1, against %s." % _listed(others))


def news(g):
    """At a fresh deal, what the device announces (ui/table.py `_news`,
    from scopa.game.Game.announcements): the dealer's fifteen or thirty,
    then each hand's Cirulla declaration, as lines."""
    from scopa import cards as C
    from scopa import engine as E

    out = []
    for seat, n, what, cards, m in g.announcements():
        # (m: the value the dealer's matta counts, shown as the device draws
        # it; in a declared hand the value the engine designates, as in the
        # hand's line: scopa.engine.declare)
        if what is not None:
            m = g.st[E.MATTA]
        shown = " ".join(C.name(c) + ("=%d" % m if m and c == MATTA_CARD else "") for c in cards)
        if what is None:
            out.append(
                "P%d deals a table of %d: +%d scop%s, takes %s"
                % (seat + 1, 15 * n, n, "a" if n == 1 else "e", shown)
            )
        else:
            out.append("P%d declares %s: +%d, shows %s" % (seat + 1, what, n, shown))
    return out


def observe(g, card, taken):
    """Tell the computer players what a play shows (ai.core.observe), as
    the device does before every play."""
    try:
        from ai import core
    except ImportError:
        return
    core.observe(g.st, g.rules, card, tuple(taken))


def computer(g, seat, level):
    """The computer's move as (card, taken): the player of `level`, its
    generator seeded by the game and the move number as on the device
    (turns.py computer_move), so that a resumed game plays on the same; a
    random legal move without firmware/ai."""
    from scopa.rng import Rng

    rng = Rng((g.seed + 7919 * g.moves_played() + seat) & SEED_MAX)
    try:
        import ai
    except ImportError:
        moves = g.legal_moves()
        return moves[rng.below(len(moves))]
    r = g.rules
    mates = ai.mates(["you"] + [level] * (r.players - 1), r.sides, seat, level)
    return ai.player(level).choose(g.st, r, seat, rng, mates=mates)


def resume(code):
    """The game of replay code `code`, its plays made again one by one so
    that the computer players observe them as in the game played on.
    Raises ValueError (scopa.replay.ReplayError) for a bad code."""
    from scopa import replay
    from scopa.game import Game

    done = replay.decode(code)
    g = Game(done.rules, done.seed, done.first)
    for i in replay.each_index(done.history):
        if g.round_over:
            g.next_round()
        card, taken = g.legal_moves()[i]
        observe(g, card, taken)
        g.play_index(i)
    return g


def _quit(g, again):
    """The replay code of `g` as it is now, and the command that resumes it."""
    from scopa import replay

    code = replay.encode(g)
    print("replay code:", code)
    print("to resume: %s%s%s" % (again[0], code, again[1]))


def _fail(msg):
    print("textgame:", msg, file=sys.stderr)
    sys.exit(2)


def play(game, players, seed, level, code, again):
    import time

    from scopa.game import Game
    from scopa.rules import Rules

    try:
        if level not in LEVELS:
            raise ValueError("unknown level %r: one of %s" % (level, ", ".join(LEVELS)))
        if code:
            g = resume(code)
        else:
            if not 0 <= seed <= SEED_MAX:
                raise ValueError("seed %d is out of range: %s" % (seed, SEED_RANGE))
            if seed == 0:
                seed = time.time_ns() // 1000 % (SEED_MAX + 1) if hasattr(time, "time_ns") else 1
            g = Game(Rules(game, **({"players": players} if players else {})), seed or 1)
    except ValueError as e:
        _fail(e)
        return
    if g.finished:
        _fail("the game of this replay code is over: nothing to resume")
    banner(g, level)
    if code:
        n = g.moves_played()
        match = "match %d, " % g.match_no if g.rules.best_of > 1 else ""
        plural = "" if n == 1 else "s"
        print("Resumed in %sround %d after %d move%s." % (match, g.round_no, n, plural))
    try:
        rounds(g, level, again)
    except KeyboardInterrupt:  # Ctrl-C: quit as q does (the plays so far are in the code)
        print()  # (after the prompt and the terminal's ^C)
        _quit(g, again)
        sys.exit(130)


def rounds(g, level, again):
    """Play game `g` on: your moves typed, the computer's, the scores at
    the end of each round; to its end or a quit."""
    from scopa import cards as C
    from scopa import engine as E
    from scopa import replay
    from scopa.rules import SCOPONE_10

    r = g.rules
    me = 0

    def sides(values):
        return ", ".join("%s %s" % (side_label(r, i), v) for i, v in enumerate(values))

    def cname(c):
        # Cirulla's matta (7C) once designated, as the device draws it: the
        # rank it plays as, "7C=5" (scopa.engine.declare)
        m = g.st[E.MATTA]
        return C.name(c) + ("=%d" % m if m and c == MATTA_CARD else "")

    def cnames(cards):
        return " ".join(cname(c) for c in cards)

    dealt = None

    def left(card, taken):
        # the cards a play leaves on the table (the round's last: its rest)
        return [c for c in g.table() if c not in taken] + ([] if taken else [card])

    rest = []  # the cards the last play left on the table
    undealt = []
    while True:
        while not g.round_over:
            deal = (g.match_no, g.round_no, g.st[E.DP])
            if g.st[E.INHAND] == r.hand * r.players and deal != dealt:
                if g.st[E.PLY] == 0:
                    print("\nRound %d: P%d deals." % (g.round_no, g.dealer + 1))
                dealt = deal
                for line in news(g):
                    print(line)
                if g.st[E.PLY] == 0 and g.turn != me:
                    # the table dealt, before the seats ahead of you play to it
                    print("table:", cnames(g.table()) or "(empty)")
            if r.game == SCOPONE_10 and g.st[E.INHAND] == 1:
                # the round's last play to come: the cards no deal gave out
                # go to the dealer's side after it (as ui/table.py reads them)
                undealt = g.undealt()
            seat = g.turn
            if seat != me:
                card, taken = computer(g, seat, level)
                observe(g, card, taken)
                rest = left(card, taken)
                f = g.play(card, taken)
                print(
                    "P%d plays %s%s%s"
                    % (
                        seat + 1,
                        cname(card),
                        " takes " + cnames(taken) if taken else "",
                        "  SCOPA!" if f & E.SCOPA else "",
                    )
                )
                continue
            print()
            print("table:", cnames(g.table()) or "(empty)")
            print("hand: ", cnames(g.hand(me)))
            print("mazzo: %d   match: %s" % (g.deck_left(), sides(g.totals)))
            moves = g.legal_moves()
            for i, (card, taken) in enumerate(moves):
                print(
                    "  %d: %s%s"
                    % (i, cname(card), " takes " + cnames(taken) if taken else " (lay)")
                )
            try:
                ans = input("your move> ").strip()
            except EOFError:
                print()  # (the code on a line of its own, not after the prompt)
                ans = "q"
            if ans == "q":
                _quit(g, again)
                return
            if not ans.isdigit() or int(ans) >= len(moves):
                print("type a number from 0 to %d, or q to quit" % (len(moves) - 1))
                continue
            card, taken = moves[int(ans)]
            observe(g, card, taken)
            rest = left(card, taken)
            if g.play(card, taken) & E.SCOPA:
                print("SCOPA! (you)")
        if rest and g.st[E.LAST] != E.NONE:
            # the table's rest to the side that took last, as the device says
            print(
                "%s take%s the rest: %s"
                % (side_label(r, g.st[E.LAST]), "" if r.sides < r.players else "s", cnames(rest))
            )
        if undealt:  # as the device says (ui/table.py: MAZZO_TO)
            side = r.side(g.dealer)
            print(
                "%s take%s the mazzo: %s"
                % (side_label(r, side), "" if r.sides < r.players else "s", cnames(undealt))
            )
            undealt = []
        s = g.score
        print()
        labels = [side_label(r, i) for i in range(r.sides)]
        # the points, and what won them: cards and denari taken, the primiera's sum
        counts = {"cards": s.taken, "coins": s.denari, "primiera": s.primiera_total}
        table = []
        for k in s.categories + ("total",):
            c = counts.get(k)
            row = ["%d" % v for v in getattr(s, k)]
            if c is not None:
                row = ["%s (%s)" % (v, "-" if n is None else n) for v, n in zip(row, c)]
            table.append((TERMS.get(k, k), row))
        w = max(len(x) for x in labels + [c for _, row in table for c in row]) + 2
        print("%-10s" % "" + "".join("%*s" % (w, x) for x in labels))
        for name, row in table:
            print("%-10s" % name + "".join("%*s" % (w, c) for c in row))
        if s.napoleone >= 0:
            print("%s took all ten denari: the match at once." % side_label(r, s.napoleone))
        print("match:", sides(g.totals))
        if g.over:
            if g.winner is None:
                print("The match is a draw.")
            else:
                won = side_label(r, g.winner)
                print(
                    "%s win%s %s: you %s."
                    % (
                        won,
                        "" if "+" in won else "s",
                        "match %d" % g.match_no if r.best_of > 1 else "the match",
                        "win" if g.winner == r.side(me) else "lose",
                    )
                )
        if g.finished:
            print("replay code:", replay.encode(g))
            return
        g.next_round()


if __name__ == "__main__":
    if IS_MPY:
        import os

        # GAME PLAYERS SEED LEVEL [CODE], or the CODE in SCOPA_REPLAY;
        # SCOPA_RESUME: the command that goes on with a replay code (from
        # CPython: its --replay)
        a = sys.argv[1:] + [""][len(sys.argv) - 5 :]
        if len(a) != 5 or not (a[1].isdigit() and a[2].isdigit()):
            _fail("usage: micropython %s GAME PLAYERS SEED LEVEL [CODE]" % sys.argv[0])
        code = a[4] or os.getenv("SCOPA_REPLAY") or ""
        resume_cmd = os.getenv("SCOPA_RESUME")
        # the resume command: what comes before the code and after it
        if resume_cmd:
            again = (resume_cmd + " ", "")
        else:  # run directly: the code in the environment, of any length
            path = os.getenv("MICROPYPATH")
            run = "%s %s %s 0 0 %s" % (sys.executable or "micropython", sys.argv[0], a[0], a[3])
            again = ("SCOPA_REPLAY=", (" MICROPYPATH=" + path if path else "") + " " + run)
        try:
            play(a[0], int(a[1]), int(a[2]), a[3], code, again)
        except KeyboardInterrupt:  # Ctrl-C before the game (or again as it quits)
            sys.exit(130)
    else:
        sys.exit(relaunch())
