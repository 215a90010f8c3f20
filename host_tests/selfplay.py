"""Seeded random games with a digest of every move, for comparing CPython
with the MicroPython unix port. Runs on both.

`digest(n, seed)` plays `n` games over every family and option mix and
returns a hex-like int digest plus counts.
"""

from scopa import engine as E
from scopa.game import Game
from scopa.rng import Rng
from scopa.rules import GAMES, Rules

# A ruleset of each kind the computer players tell apart (their seats,
# teams, captures by sum or by fifteen, Cirulla's declarations): the AI's
# tests and tools/ai_digest.py play these.
FAMILIES = [
    ("scopa", 2),
    ("scopa", 3),
    ("scopa", 4),
    ("scopa", 6),
    ("scopone", 4),
    ("scopone_scientifico", 4),
    ("scopone_10", 4),
    ("scopa_d_assi", 2),
    ("scopa_d_assi", 4),
    ("scopa_15", 2),
    ("scopa_15", 3),
    ("cirulla", 2),
    ("cirulla", 4),
]

_PLAYERS = {
    "scopa": (2, 3, 4, 6),
    "scopone": (4,),
    "scopone_scientifico": (4,),
    "scopa_d_assi": (2, 3, 4, 6),
    "scopa_15": (2, 3, 4, 6),
    "cirulla": (2, 3, 4),
    "scopone_10": (4,),
}


def random_rules(rng, game=None, **fixed):
    """A random ruleset: any family (or `game`), player count and option;
    `fixed` options override the random ones."""
    if game is None:
        game = GAMES[rng.below(len(GAMES))]
    ps = _PLAYERS[game]
    opts = {
        "players": ps[rng.below(len(ps))],
        "match_priority": ("strict", "free")[rng.below(2)],
        "capture_mandatory": rng.below(4) != 0,
        "sum_choice": ("any", "fewest")[rng.below(2)],
        "primiera_missing_suit": ("excluded", "zero")[rng.below(2)],
        "tie_at_target": ("play_on", "recount")[rng.below(2)],
        "napola": rng.below(2) == 1,
        "re_bello": (None, "10D", "6D")[rng.below(3)],
        "target": (11, 16, 21, 31)[rng.below(4)] if game != "cirulla" else 51,
        "ace_on_ace": ("ace", "all")[rng.below(2)],
        "ace_sweep_scopa": rng.below(2) == 1,
        "redeal_kings": rng.below(3) != 0,
        "best_of": 3 if rng.below(5) == 0 else 1,
    }
    for k in fixed:
        opts[k] = fixed[k]
    return Rules(game, **applicable(game, opts))


def applicable(game, opts):
    """`opts` (FORMAT.md keys) without the options that do not apply to
    `game` (a GAMES name) or, for partners_visible, to its players."""
    from scopa import ruleopts

    g = GAMES.index(game)
    out = {}
    for k in opts:
        if not ruleopts.applies(g, ruleopts.attr(k)):
            continue
        if k == "partners_visible" and opts.get("players", 4 if "scopone" in game else 2) < 4:
            continue
        out[k] = opts[k]
    return out


def play_game(rules, seed, rng, h, max_rounds=3):
    """Play `rules` from `seed` with uniformly random legal moves chosen by
    `rng` for up to `max_rounds` rounds; fold every move into digest `h`.
    Returns ``(h, game, moves)``."""
    g = Game(rules, seed)
    moves = 0
    rounds = 0
    while True:
        n = E.gen_moves(g.st, rules, g.mv)
        i = rng.below(n)
        off = 0
        b = g.mv.buf
        for _ in range(i):
            off += 2 + b[off + 1]
        c = b[off]
        k = b[off + 1]
        h = (h * 131 + c + 1) % 1000000007
        for j in range(k):
            h = (h * 131 + b[off + 2 + j] + 41) % 1000000007
        flags = g.play_index(i)
        h = (h * 131 + flags) % 1000000007
        moves += 1
        if flags & E.ROUND_OVER:
            rounds += 1
            for t in g.score.total:
                h = (h * 131 + t) % 1000000007
            if g.finished or rounds >= max_rounds:
                return h, g, moves
            g.next_round()


def digest(n, seed=12345, max_rounds=2, game=None, **fixed):
    """Digest of `n` random games (of `game` with the `fixed` options when
    given); returns ``(digest, moves)``."""
    rng = Rng(seed)
    h = 7
    total = 0
    for k in range(n):
        rules = random_rules(rng, game, **fixed)
        h = (h * 131 + sum(ord(ch) for ch in rules.code())) % 1000000007
        h, _, m = play_game(rules, rng.below(30000) * 30000 + k, rng, h, max_rounds)
        total += m
    return h, total


def engine_deals(rules, rng, st, mv, n):
    """Play `n` random deals of `rules` with the engine alone, on the state
    buffer `st` and the Moves `mv`, every move chosen by `rng`; the deal
    passes round the table. Allocates nothing itself."""
    for k in range(n):
        E.start_round(st, rules, rng, k % rules.players)
        while not st[E.OVER]:
            i = rng.below(E.gen_moves(st, rules, mv))
            off = 0
            for _ in range(i):
                off += 2 + mv.buf[off + 1]
            E.apply(st, rules, mv.buf, off)


def engine_alloc(rules, seed, n):
    """Bytes the engine allocates over `n` random deals of `rules` (moves
    from Rng(`seed`)), counted with the GC off by gc.mem_alloc()
    (MicroPython only). The same deals are played once before, so that a
    buffer grown once for good (the Moves of a crowded table) is not
    counted: what is left is what a deal allocates."""
    import gc

    st = E.new_state()
    mv = E.Moves()
    engine_deals(rules, Rng(seed), st, mv, n)
    rng = Rng(seed)
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        engine_deals(rules, rng, st, mv, n)
        return gc.mem_alloc() - before
    finally:
        gc.enable()


def game_alloc(rules, seed, n):
    """Bytes allocated over `n` random deals played through `Game` (moves
    from Rng(`seed`)), counted with the GC off by gc.mem_alloc()
    (MicroPython only), per part: ``(moves, ends, deals)``: in the plays
    that do not end the round (scopa.game: its history grows a byte a
    move, in steps), in the plays that end it (the round's Score:
    scopa.scoring, and the lists game.py passes it) and in `next_round`
    (the deal: the engine). A new Game when a match is over is not
    counted (once a match, not a deal)."""
    import gc

    rng = Rng(seed)
    g = Game(rules, seed)
    moves = ends = deals = 0
    gc.collect()
    gc.disable()
    try:
        for _ in range(n):
            while not g.round_over:
                i = rng.below(E.gen_moves(g.st, rules, g.mv))
                a = gc.mem_alloc()
                g.play_index(i)
                if g.round_over:
                    ends += gc.mem_alloc() - a
                else:
                    moves += gc.mem_alloc() - a
            if g.finished:
                gc.enable()
                g = Game(rules, rng.below(30000))
                gc.collect()
                gc.disable()
            else:
                a = gc.mem_alloc()
                g.next_round()
                deals += gc.mem_alloc() - a
    finally:
        gc.enable()
    return moves, ends, deals
